"""solve(): the command `solve`'s answers, in-process."""

import quoridor_solver as qs


def test_4x4_with_2_walls_is_player_1_in_11_with_a_line(cli):
    r = qs.solve("4x4", walls=2, threads=1)
    assert r.outcome == 1
    assert r.plies == 11
    assert len(r.line) == 11
    assert r.method == "proof-search"
    assert r.text == "4x4 with 2 walls per player: Player 1 wins in 11 plies"
    # The same line and work as the binary's (one thread: node counts then agree).
    want = cli.json("solve", "4x4", "--walls", "2", "--threads", "1")
    assert r.line == want["pv"]
    assert r.nodes == want["nodes"]
    assert r.depth_reached == want["depth_reached"]
    assert r.seconds > 0


def test_the_line_is_played_to_the_win():
    r = qs.solve("4x4", walls=2)
    a = qs.analyze("4x4", walls=2, moves=r.line_text)
    # Player 1 has just reached the goal: the game is over, Player 2 to move has lost.
    assert a.outcome == 1 and a.plies == 0 and a.moves == []
    assert qs.analyze("4x4", walls=2, moves=r.line).position == a.position


def test_retrograde_as_the_readme_prints_it():
    r = qs.solve("4x3", walls=3, method="retro")
    assert (r.outcome, r.plies, r.method) == (1, 13, "retrograde")
    assert r.line_text == "1. b1h d3 2. c2h c3 3. a2v b3 4. b1 b2 5. a1 c2 6. a2 b2 7. a3"
    assert r.nodes == 169488


def test_player_2_and_compact_precision():
    r = qs.solve("3x3", walls=2, method="retro", precision="compact")
    assert (r.outcome, r.plies, r.method) == (2, 12, "retrograde+search")


def test_a_draw_is_D():
    r = qs.solve("8x3", walls=3, method="retro")
    assert r.outcome == "D"
    assert r.plies is None
    assert r.cycle_start is not None and r.line


def test_an_undecided_cell_is_None():
    r = qs.solve("5x5", walls=4, method="search", max_depth=6)
    assert r.outcome is None
    assert r.plies is None
    assert r.line == []
    assert r.depth_reached == 6
    r = qs.solve("5x5", walls=4, method="search", max_seconds=0.2)
    assert r.outcome is None
