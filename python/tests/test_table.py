"""Table: a saved table opened once, looked up as `analyze --table` answers."""

import json
import random

import pytest
import quoridor_solver as qs


def random_positions(board: str, walls: int, games: int, seed: int):
    """Records of the positions of random games (the start included), each to its end."""
    rng = random.Random(seed)
    seen = []
    for _ in range(games):
        a = qs.analyze(board, walls)
        moves = []
        while True:
            seen.append(a.position)
            if not a.moves:
                break
            moves.append(rng.choice(a.moves).move)
            a = qs.analyze(board, walls, moves=moves)
    return seen


def test_lookups_match_analyze_table(cli, saved_44):
    table = qs.Table.open(saved_44)
    assert (table.board, table.walls) == ("4x4", 2)
    for record in random_positions("4x4", 2, games=3, seed=55)[:40]:
        want = cli.json("analyze", "4x4", "--walls", "2", "--table", str(saved_44), "--position", record)
        value = table.value(record)
        assert value.kind == want["verdict"]["kind"], record
        assert value.plies == want["verdict"].get("plies"), record
        assert value.text == want["text"]
        moves = table.moves(record)
        assert [(m.move, m.kind, m.plies) for m in moves] == [
            (m["move"], m["verdict"]["kind"], m["verdict"].get("plies")) for m in want["moves"]
        ], record


def test_every_position_of_3x3_as_analyze_with_the_table(saved_33):
    table = qs.Table.open(saved_33)
    for record in random_positions("3x3", 2, games=20, seed=3):
        a = qs.analyze("3x3", walls=2, position=record, table=saved_33)
        assert table.value(record) == a.value
        state = qs.State.from_record("3x3", record)
        assert table.value(state) == a.value
        assert [(m.move, m.text) for m in table.moves(state)] == [(m.move, m.text) for m in a.moves]


def test_the_start_and_a_finished_game(saved_33):
    table = qs.Table.open(saved_33)
    start = table.start()
    assert start == qs.State.start("3x3", 2)
    assert (table.value(start).outcome, table.value(start).plies) == (2, 12)
    over = random_positions("3x3", 2, games=1, seed=1)[-1]
    assert table.value(over).kind == "loss" and table.value(over).plies == 0
    assert table.moves(over) == []
    assert table.bytes > 0 and "3x3 with 2 walls" in repr(table)


def test_a_position_of_another_cell_is_refused(saved_33):
    table = qs.Table.open(saved_33)
    with pytest.raises(qs.QuoridorError, match="walls left"):
        table.value("- / - / b1 b3 / 3 3 / 1")
    with pytest.raises(qs.QuoridorError, match="off a 3x3 board"):
        table.value(qs.State(p1=(5, 0), p2=(1, 2), walls_left=(2, 2)))
    with pytest.raises(qs.QuoridorError, match="placed 2 between them"):
        table.value("- / - / b1 b3 / 1 1 / 1")


def test_a_directory_of_several_tables_names_them(cli, tmp_path):
    status, _, err = cli.run(
        "table", "--boards", "3x3", "--walls", "0..=1", "--out", str(tmp_path / "out"),
        "--save", str(tmp_path / "saved"), "-q",
    )
    assert status == 0, err
    with pytest.raises(qs.QuoridorError, match="holds 2 saved tables"):
        qs.Table.open(tmp_path / "saved")
    one = qs.Table.open(tmp_path / "saved" / "3x3-w1")
    assert one.walls == 1


def test_a_table_of_outcomes_only_is_refused(cli, tmp_path):
    dir = tmp_path / "compact"
    status, _, err = cli.run(
        "solve", "3x3", "--walls", "1", "--method", "retro", "--precision", "compact",
        "--save", str(dir), "-q",
    )
    assert status == 0, err
    with pytest.raises(qs.QuoridorError, match="outcomes only"):
        qs.Table.open(dir)


def test_a_table_over_the_memory_budget_is_refused(saved_44):
    with pytest.raises(qs.QuoridorError, match="memory budget is 1.00 KiB"):
        qs.Table.open(saved_44, memory=1024)
