"""Lookups a second from a saved table (Table.value and Table.moves): a figure to read,
not a timed test. Usage: python scripts/bench_python.py [DIR] (default: 5x5 with 2 walls, saved
by the binary into a temporary directory first).

It looks up every position of random games, as records and as State objects, and checks
its own answer: the start's value is the one the table's cell is known by."""

import pathlib
import random
import subprocess
import sys
import tempfile
import time

import quoridor_solver as qs

REPO = pathlib.Path(__file__).resolve().parents[1]


def saved_table(workdir: pathlib.Path) -> pathlib.Path:
    dir = workdir / "5x5-w2"
    binary = REPO / "target" / "release" / "quoridor-solver"
    subprocess.run(
        [str(binary), "solve", "5x5", "--walls", "2", "--method", "retro", "--save", str(dir), "-q"],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return dir


def positions(table: qs.Table, games: int, seed: int = 55):
    """States of `games` random games from the start (each to its end or 200 plies)."""
    rng = random.Random(seed)
    found = []
    for _ in range(games):
        state = table.start()
        for _ in range(200):
            found.append(state)
            moves = table.moves(state)
            if not moves:
                break
            state = state.play(table.board, rng.choice(moves).move)
    return found


def rate(lookup, items, repeat: int) -> float:
    started = time.perf_counter()
    for _ in range(repeat):
        for item in items:
            lookup(item)
    return repeat * len(items) / (time.perf_counter() - started)


def main() -> None:
    with tempfile.TemporaryDirectory() as work:
        dir = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else saved_table(pathlib.Path(work))
        started = time.perf_counter()
        table = qs.Table.open(dir)
        opened = time.perf_counter() - started
        if table.board == "5x5" and table.walls == 2:
            start = table.value(table.start())
            assert (start.outcome, start.plies) == (2, 18), start
        states = positions(table, games=200)
        records = [s.record(table.board) for s in states]
        by_record = rate(table.value, records, repeat=5)
        by_state = rate(table.value, states, repeat=5)
        moves = rate(table.moves, states, repeat=1)
        legal = sum(len(table.moves(s)) for s in states) / len(states)
        print(
            f"{table.board} with {table.walls} walls ({table.bytes / 2**20:.1f} MiB, opened in "
            f"{opened:.2f} s), {len(states)} positions of 200 random games: "
            f"value {by_record:,.0f} lookups/s by record ({1e6 / by_record:.2f} us), "
            f"{by_state:,.0f}/s by State ({1e6 / by_state:.2f} us); "
            f"moves {moves:,.0f}/s ({1e6 / moves:.1f} us, every legal move valued: "
            f"{legal:.1f} a position on average)"
        )


if __name__ == "__main__":
    main()
