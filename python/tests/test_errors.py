"""Bad input raises QuoridorError (a ValueError) with the command line's one-line message,
where the command line exits 2."""

import pytest
import quoridor_solver as qs

# (keyword arguments of solve(), the same request to the command `solve`)
SOLVE_REFUSALS = [
    ({"board": "4x"}, ["4x", "--walls", "2"]),
    ({"board": "30x2"}, ["30x2", "--walls", "2"]),
    ({"walls": 40}, ["4x4", "--walls", "40"]),
    ({"walls": -1}, ["4x4", "--walls", "-1"]),
    ({"method": "foo"}, ["4x4", "--walls", "2", "--method", "foo"]),
    ({"precision": "foo"}, ["4x4", "--walls", "2", "--precision", "foo"]),
    ({"threads": 0}, ["4x4", "--walls", "2", "--threads", "0"]),
    ({"threads": 300}, ["4x4", "--walls", "2", "--threads", "300"]),
    ({"memory": "1X"}, ["4x4", "--walls", "2", "--memory", "1X"]),
    ({"memory": "10T"}, ["4x4", "--walls", "2", "--memory", "10T"]),
    ({"memory": "1M"}, ["4x4", "--walls", "2", "--memory", "1M"]),
    ({"memory": 1 << 20}, ["4x4", "--walls", "2", "--memory", "1M"]),
    ({"max_seconds": 0}, ["4x4", "--walls", "2", "--max-seconds", "0"]),
    ({"max_seconds": -3.5}, ["4x4", "--walls", "2", "--max-seconds", "-3.5"]),
    ({"max_depth": 0}, ["4x4", "--walls", "2", "--max-depth", "0"]),
    (
        {"method": "search", "precision": "exact"},
        ["4x4", "--walls", "2", "--method", "search", "--precision", "exact"],
    ),
    (
        {"method": "retro", "max_seconds": 5},
        ["4x4", "--walls", "2", "--method", "retro", "--max-seconds", "5"],
    ),
    (
        {"method": "retro", "precision": "exact", "max_depth": 9},
        ["4x4", "--walls", "2", "--method", "retro", "--precision", "exact", "--max-depth", "9"],
    ),
    ({"method": "retro", "board": "9x9", "walls": 1}, ["9x9", "--walls", "1", "--method", "retro"]),
]


@pytest.mark.parametrize("kwargs,args", SOLVE_REFUSALS)
def test_solve_refuses_as_the_command_line(cli, kwargs, args):
    call = {"board": "4x4", "walls": 2, **kwargs}
    with pytest.raises(qs.QuoridorError) as refused:
        qs.solve(**call)
    assert str(refused.value) == cli.error("solve", *args)
    assert isinstance(refused.value, ValueError)


ANALYZE_REFUSALS = [
    ({"moves": "z9"}, ["--moves", "z9"]),
    ({"moves": "b2 b2"}, ["--moves", "b2 b2"]),
    ({"position": "x"}, ["--position", "x"]),
    ({"position": "- / - / b1 b3 / 1 1 / 1"}, ["--position", "- / - / b1 b3 / 1 1 / 1"]),
    ({"position": "- / - / b1 b3 / 2 2 / 1", "moves": "b2"}, ["--position", "- / - / b1 b3 / 2 2 / 1", "--moves", "b2"]),
    ({"method": "foo"}, ["--method", "foo"]),
    ({"table": "/nonexistent"}, ["--table", "/nonexistent"]),
    ({"table": "/tmp", "method": "retro"}, ["--table", "/tmp", "--method", "retro"]),
]


@pytest.mark.parametrize("kwargs,args", ANALYZE_REFUSALS)
def test_analyze_refuses_as_the_command_line(cli, kwargs, args):
    with pytest.raises(qs.QuoridorError) as refused:
        qs.analyze("3x3", walls=2, **kwargs)
    assert str(refused.value) == cli.error("analyze", "3x3", "--walls", "2", *args)


def test_a_bad_state_is_refused():
    with pytest.raises(qs.QuoridorError, match="player to move: 3 is not 1 or 2"):
        qs.State(p1=(1, 0), p2=(1, 2), walls_left=(2, 2), to_move=3)
    with pytest.raises(qs.QuoridorError, match="the wall b1h"):
        qs.State(p1=(1, 0), p2=(1, 2), walls_left=(1, 1), horizontal=[(0, 0), (1, 0)]).record("3x3")
    with pytest.raises(qs.QuoridorError, match="off a 3x3 board's anchors"):
        qs.State(p1=(1, 0), p2=(1, 2), walls_left=(1, 2), vertical=[(2, 0)]).record("3x3")
    with pytest.raises(qs.QuoridorError, match="same cell"):
        qs.State(p1=(1, 1), p2=(1, 1), walls_left=(2, 2)).record("3x3")


def test_a_missing_table_is_refused():
    with pytest.raises(qs.QuoridorError, match="does not exist"):
        qs.Table.open("/nonexistent/table")
