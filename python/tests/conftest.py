"""Shared fixtures: the command line's binary, which the tests hold the package to.

The binary is `QUORIDOR_SOLVER_BIN` if set, else the repository's release build
(`cargo build --release`, which .ci/run makes before these tests)."""

import json
import os
import pathlib
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]


def binary_path() -> pathlib.Path:
    given = os.environ.get("QUORIDOR_SOLVER_BIN")
    return pathlib.Path(given) if given else REPO / "target" / "release" / "quoridor-solver"


class Cli:
    """Runs the binary: `run` gives (status, stdout, stderr), `json` the parsed output."""

    def __init__(self, path: pathlib.Path):
        self.path = path

    def run(self, *args: str):
        done = subprocess.run(
            [str(self.path), *args], capture_output=True, text=True, timeout=600
        )
        return done.returncode, done.stdout, done.stderr

    def json(self, *args: str):
        status, out, err = self.run(*args, "--json", "-q")
        assert status == 0, err
        return json.loads(out)

    def error(self, *args: str) -> str:
        """The one-line message of a refused command (exit 2), as Python raises it."""
        status, _, err = self.run(*args, "-q")
        assert status == 2, (status, err)
        line = err.strip()
        assert line.startswith("error: ") and "\n" not in line, line
        return line[len("error: ") :].removesuffix("; see --help")


@pytest.fixture(scope="session")
def cli() -> Cli:
    path = binary_path()
    if not path.exists():
        pytest.fail(f"{path} is missing: run `cargo build --release` first")
    return Cli(path)


@pytest.fixture(scope="session")
def saved_33(cli, tmp_path_factory) -> pathlib.Path:
    """3x3 with 2 walls, saved by `solve --method retro --save`."""
    return _save(cli, tmp_path_factory, "3x3", 2)


@pytest.fixture(scope="session")
def saved_44(cli, tmp_path_factory) -> pathlib.Path:
    """4x4 with 2 walls, saved."""
    return _save(cli, tmp_path_factory, "4x4", 2)


def _save(cli, factory, board: str, walls: int) -> pathlib.Path:
    dir = factory.mktemp("saved") / f"{board}-w{walls}"
    status, _, err = cli.run(
        "solve", board, "--walls", str(walls), "--method", "retro", "--save", str(dir), "-q"
    )
    assert status == 0, err
    return dir
