"""analyze(): the numbers of `analyze --json`, from the start, after moves, from a record
or a State, and by proof search."""

import json

import pytest
import quoridor_solver as qs


def without_seconds(answer: dict) -> dict:
    return {k: v for k, v in answer.items() if k != "seconds"}


def test_every_move_of_3x3_as_analyze_json(cli):
    a = qs.analyze("3x3", walls=2)
    want = cli.json("analyze", "3x3", "--walls", "2")
    assert without_seconds(json.loads(a.to_json())) == without_seconds(want)
    assert a.outcome == 2 and a.plies == 12 and a.to_move == 1
    assert a.method == "retrograde"
    assert len(a.moves) == len(want["moves"]) == 11
    for got, exp in zip(a.moves, want["moves"]):
        assert got.move == exp["move"]
        assert got.kind == exp["verdict"]["kind"]
        assert got.plies == exp["verdict"]["plies"]
        assert got.text == exp["text"]
        # Every move of Player 1 here loses: Player 2 wins after it.
        assert got.outcome == 2


@pytest.mark.parametrize(
    "kwargs,args",
    [
        ({"moves": "1. b2 b2h"}, ["--moves", "1. b2 b2h"]),
        ({"moves": ["a1", "a3"]}, ["--moves", "a1 a3"]),
        ({"position": "a1 / - / a1 c3 / 1 2 / 2"}, ["--position", "a1 / - / a1 c3 / 1 2 / 2"]),
        # One thread: parallel search's node counts vary from run to run.
        ({"method": "search", "threads": 1}, ["--method", "search", "--threads", "1"]),
    ],
)
def test_positions_and_methods_as_analyze_json(cli, kwargs, args):
    a = qs.analyze("3x3", walls=2, **kwargs)
    want = cli.json("analyze", "3x3", "--walls", "2", *args)
    assert without_seconds(json.loads(a.to_json())) == without_seconds(want)
    assert [m.move for m in a.moves] == [m["move"] for m in want["moves"]]


def test_a_state_is_the_record_it_stands_for():
    record = "a1 / - / a1 c3 / 1 2 / 2"
    state = qs.State.from_record("3x3", record)
    assert state == qs.State(p1=(0, 0), p2=(2, 2), walls_left=(1, 2), to_move=2, horizontal=[(0, 0)])
    assert state.record("3x3") == record
    by_record = qs.analyze("3x3", walls=2, position=record)
    by_state = qs.analyze("3x3", walls=2, position=state)
    assert by_state.to_json().split('"seconds"')[0] == by_record.to_json().split('"seconds"')[0]
    assert qs.State.start("3x3", 2).play("3x3", "b2 b2h") == qs.State.from_record(
        "3x3", "b2 / - / b2 b3 / 2 1 / 1"
    )


def test_a_draw_and_moves_of_both_outcomes():
    # 8x3 with 3 walls is a draw from the start (published table).
    a = qs.analyze("8x3", walls=3)
    assert a.outcome == "D" and a.plies is None and a.value.kind == "draw"
    assert a.moves[0].outcome == "D"
    # Player 1 cannot win: each move keeps the draw or loses.
    assert {m.outcome for m in a.moves} <= {"D", 2}
