"""The answer objects of can_place_all, max_placeable and solve_pattern (the layer above the
exhaustive search: arguments, stages, flags, witnesses, best layouts), on positions and regions
whose answer is known without the solver: a solved puzzle with pieces taken out (they go back
where they were: a "yes"), a finished random game with a colour's last moves lifted (plain
enumeration of its moves), a colour proven short elsewhere that a node limit leaves open, and
pictures whose tilings are counted by hand or by MacMahon's formula. Found by a mutation round
(docs/reliability.md)."""

from __future__ import annotations

import re

import pytest

import trigon_fast as tf

from endgames import lifted, max_alone, solution, taken_out
from test_solver_exact import OPEN_REGION_GAME

SIZE = dict(zip(tf.PIECE_NAMES, tf.PIECE_SIZES))


def _area_left(g: tf.Game, colours) -> int:
    return sum(SIZE[p] for c in colours for p in g.pieces_left(c))


def _last_moves_out(seed: int, per_colour: int):
    """The solved puzzle (seed) with each colour's last `per_colour` moves taken out: placed back
    in their order each is legal again, so every colour can place all its pieces left. Returns
    the game and the triangles taken out, by colour."""
    hist = solution(seed).history
    out = set()
    for c in range(4):
        out |= set([i for i, (col, _) in enumerate(hist) if int(col) == c][-per_colour:])
    return taken_out(seed, out), [sum(hist[i][1].size for i in out if int(hist[i][0]) == c) for c in range(4)]


def _game_of(moves: str) -> tf.Game:
    """A four-player game of these moves, in turn order."""
    g = tf.Game(tf.Variant.FOUR_PLAYER)
    for move in moves.split():
        g.push(move)
    return g


def _replayed(g: tf.Game, layout) -> tf.Game:
    h = g.copy()
    for c, m in layout:  # legal in this order, the other colours passing
        h.play(m, colour=c)
    return h


# -- can_place_all ---------------------------------------------------------------------------
@pytest.mark.parametrize("colours, asked", [
    (None, [0, 1, 2, 3]), ([2], [2]), ("red", [2]), (tf.Colour.RED, [2]), (1, [1]), ([0, 3], [0, 3]),
    ([3, 0, 3], [0, 3]), (("yellow", tf.Colour.GREEN, 2), [1, 2, 3]),
])
def test_a_yes_places_every_piece_of_the_colours_asked_and_no_other(colours, asked):
    g, taken = _last_moves_out(2, 3)
    before = g.to_blksgf()
    r = tf.can_place_all(g, colours, time_limit=20)
    assert g.to_blksgf() == before
    assert r.answer is True and r.proven and bool(r) and not r.interrupted
    target = sum(taken[c] for c in asked)
    assert r.target_triangles == r.best_triangles == target
    assert r.best_layout == r.witness
    assert sorted({int(c) for c, _ in r.witness}) == asked
    assert sum(m.size for _, m in r.witness) == target
    h = _replayed(g, r.witness)
    for c in range(4):
        assert h.pieces_left(c) == ([] if c in asked else g.pieces_left(c))
    assert r.witness_game.to_blksgf() == h.to_blksgf()
    assert repr(r).startswith(f"<PlaceAllResult yes, witness of {len(r.witness)} move")


def test_a_no_is_proven_and_has_no_witness_nor_layout():
    # Seed 42, blue's last two moves lifted: blue can place a few triangles, not all.
    g = lifted(42, 0, 2)
    want = max_alone(g.position, 0)
    area = _area_left(g, [0])
    assert 0 < want < area
    for kw in (dict(), dict(heuristic=False), dict(threads=2)):
        r = tf.can_place_all(g, ["blue"], time_limit=20, **kw)
        assert r.answer is False and r.proven and not bool(r), kw
        assert r.witness == [] and r.witness_game is None
        assert r.best_triangles is None and r.best_layout == [] and r.target_triangles == area
        assert repr(r).startswith("<PlaceAllResult no (proven)")
    m = tf.max_placeable(g, "blue", time_limit=20)
    assert m.colour is tf.Colour.BLUE and m.proven and m.triangles == want
    assert sum(mv.size for _, mv in m.witness) == want and {c for c, _ in m.witness} == {tf.Colour.BLUE}
    _replayed(g, m.witness)


def test_a_node_limit_leaves_it_open_without_a_layout():
    # The empty solo board: each colour's 22 pieces are 110 triangles; every colour can place
    # them all (a solved puzzle), but 50 exhaustive nodes, or 20,000 (the first stage alone), settle nothing.
    g = tf.Game(tf.Variant.SOLO)
    assert sum(tf.PIECE_SIZES) == 110
    r = tf.can_place_all(g, time_limit=60, node_limit=50, heuristic=False)
    assert r.answer is None and not r.proven and not bool(r)
    assert r.target_triangles == 440 and r.best_triangles is None and r.best_layout == [] and r.witness == []
    assert repr(r).startswith("<PlaceAllResult not proven,")
    # A limit of 20,000 nodes or less is the first stage's alone: no guided search, no layout.
    r = tf.can_place_all(g, [0, 1, 2], time_limit=60, node_limit=20_000)
    assert r.answer is None and r.best_triangles is None and r.best_layout == [] and r.target_triangles == 330
    assert r.nodes <= 20_001
    # Without the heuristic stages, 20,001 nodes are the exhaustive search's alone (it counts the
    # node that stops it); with them, the guided search (by time) places every piece.
    r = tf.can_place_all(g, time_limit=60, node_limit=20_001, heuristic=False)
    assert r.answer is None and r.best_triangles is None and r.nodes <= 20_002
    r = tf.can_place_all(g, time_limit=60, node_limit=20_001)
    assert r.answer is True and r.best_triangles == r.target_triangles == 440
    assert not any(_replayed(g, r.witness).pieces_left(c) for c in range(4))


def test_a_colour_left_open_by_its_own_search_is_neither_a_yes_nor_a_no():
    # Green cannot place all its pieces left (45 triangles in an open region: a 4-triangle piece
    # stays out, proven in test_solver_exact), but 20,001 nodes prove it neither alone nor with
    # blue (who can): not proven. Neither a single colour's open search nor another colour's
    # full layout may settle it (a false "no", or a "yes" whose witness leaves green short).
    # With two colours the guided search runs too (by time: on one thread, or beside the
    # exhaustive search on two), and its best layout is reported, extended until neither colour
    # can place more. (The limit must pass 20,000, the first stage's alone; proving green's
    # maximum takes about 500,000 nodes.)
    g = _game_of(OPEN_REGION_GAME)
    for colours, threads in ((["green"], 1), (["green", "blue"], 1), (["green", "blue"], 2)):
        r = tf.can_place_all(g, colours, time_limit=20, node_limit=20_001, threads=threads)
        assert r.answer is None and not r.proven and r.witness == [], colours
        assert r.target_triangles == _area_left(g, colours)
        if len(colours) == 2:
            assert r.best_triangles == sum(m.size for _, m in r.best_layout) < r.target_triangles
            assert {tf.Colour.parse(c) for c in colours} == {c for c, _ in r.best_layout}
            h = _replayed(g, r.best_layout)
            assert not any(h.legal_moves_of(c) for c in colours)
    for heuristic in (True, False):
        m = tf.max_placeable(g, "green", time_limit=20, node_limit=20_001, heuristic=heuristic)
        assert not m.proven and m.triangles == sum(mv.size for _, mv in m.witness) < _area_left(g, ["green"])
        if not heuristic:  # the branch and bound alone (no guided dives)
            assert m.nodes <= 20_002


def test_colours_not_in_play_are_refused():
    three = tf.Game(tf.Variant.THREE_PLAYER)  # blue, yellow and red
    lone = tf.Game(tf.Variant.solo(["red"]))
    for g, bad in ((three, "green"), (three, [0, 3]), (three, tf.Colour.GREEN), (lone, 0), (lone, ["red", "blue"])):
        with pytest.raises(tf.SolverError) as e:
            tf.can_place_all(g, bad, time_limit=1)
        assert isinstance(e.value, ValueError)
        if not isinstance(bad, list):
            with pytest.raises(tf.SolverError):
                tf.max_placeable(g, bad, time_limit=1)


def test_max_placeable_names_its_colour():
    g = lifted(42, 2, 1)
    for colour in ("red", 2, tf.Colour.RED):
        m = tf.max_placeable(g, colour, time_limit=20)
        assert m.colour is tf.Colour.RED and m.proven and m.triangles == max_alone(g.position, 2)


# -- pattern puzzles --------------------------------------------------------------------------
def test_pictures_and_diagrams_on_both_boards():
    # A picture's top-left triangle points up (on either board), and a solution's diagram reads
    # back as the region. A strip of 6 takes three "2"s one way only (its triangles in pairs from
    # the left); two strips, one above the other, at least one way.
    for side in (9, 8):
        b = tf.board(side)
        region = tf.parse_region("xxxxxx", side=side)
        assert [b.is_up(c) for c in region] == [True, False] * 3
        for picture, want in (("xxxxxx", 1), ("xxxxxx\nxxxxxx", None)):
            r = tf.solve_pattern(picture, pieces={"2": len(picture.replace("\n", "")) // 2}, side=side,
                                 all_solutions=True)
            assert r.region == tf.parse_region(picture, side=side) and r.exhausted and r.count >= 1
            assert want is None or r.count == want
            for k in (0, -1):
                assert tf.parse_region(re.sub("[a-z]", "x", r.diagram(k)), side=side) == r.region


def test_every_filled_character_is_a_cell_and_the_whole_board_reads_back():
    strip = tf.parse_region("xxxx")
    for ch in "xX#*oO@":
        assert tf.parse_region(ch * 4 + "..") == strip, ch
    # The whole board drawn from its cells' positions (x + y even an up triangle, as diagrams
    # draw it), as it is or indented (by an even number of columns, keeping each triangle's
    # direction): every cell, on either board, however deep the indentation or the blank rows
    # above (they counted as part of the picture, which then stuck out: 6 columns or more).
    for side in (9, 8):
        b = tf.board(side)
        xy = [b.cell_xy(c) for c in range(b.num_cells)]
        x0, y0 = min(x for x, _ in xy), min(y for _, y in xy)
        rows: dict = {}
        for x, y in xy:
            rows.setdefault(y - y0, set()).add(x - x0)
        shift = 0 if all(b.is_up(c) == ((x - x0 + y - y0) % 2 == 0) for c, (x, y) in enumerate(xy)) else 1
        picture = "\n".join("".join("x" if x in rows[y] else " " for x in range(-shift, max(rows[y]) + 1))
                            for y in sorted(rows))
        for indent in (0, 2, 4, 6, 10, 40):
            indented = "\n".join(" " * indent + line for line in picture.split("\n"))
            assert sorted(tf.parse_region(indented, side=side)) == list(range(b.num_cells)), (side, indent)
            lowered = " \n" * indent + indented
            assert sorted(tf.parse_region(lowered, side=side)) == list(range(b.num_cells)), (side, indent)
        # One column or row of indentation turns every triangle over: the board no longer fits,
        # and the message says why.
        for odd in (" " + picture.replace("\n", "\n "), " \n" + picture):
            with pytest.raises(tf.SolverError, match="does not fit.*every triangle turned over"):
                tf.parse_region(odd, side=side)
        with pytest.raises(tf.SolverError, match=r"does not fit on the side-\d board \(\d+ x \d+\)$"):
            tf.parse_region(picture + "x" * 60, side=side)


def test_pieces_named_twice_add_up():
    two = tf.PIECE_NAMES.index("2")
    p = tf.PatternPuzzle("xxxxxx", pieces={"2": 2, two: 1, "I6": 0})
    assert p.pieces == {"2": 3}
    assert p.solve(all_solutions=True).count == 1
    assert tf.PatternPuzzle("xxxxxx", pieces="2, 2 ,2").pieces == {"2": 3}
    # The cap is the big board's 486 cells: that many copies is an area mismatch, one more an error.
    assert "area mismatch" in tf.PatternPuzzle("x", pieces={"1": 486}).impossible
    with pytest.raises(tf.SolverError):
        tf.PatternPuzzle("x", pieces={"1": 487})


def test_cell_names_with_an_x_are_names_not_a_picture():
    b = tf.board(9)
    assert tf.PatternPuzzle("x12, y12", pieces=["2"]).region == [b.parse_cell("x12"), b.parse_cell("y12")]
    r = tf.solve_pattern("x12,y12", pieces=["2"], all_solutions=True)
    assert r.count == 1 and r.solvable is True and r.impossible is None


def test_a_prepared_puzzle_keeps_as_many_solutions_as_asked():
    # A hexagon of 6 triangles has 2 tilings by three "2"s (MacMahon's formula for side 1),
    # rotations of each other: 1 up to its 12 symmetries.
    p = tf.PatternPuzzle(tf.Move.from_piece("O", 0, "r10").cells, pieces=["2", "2", "2"])
    for kept in (0, 1, 2, 5):
        r = p.solve(all_solutions=True, max_solutions=kept)
        assert r.count == 2 and r.exhausted and len(r.solutions) == min(kept, 2), kept
    u = p.solve(all_solutions=True, unique=True)
    assert u.count == 1 and u.symmetries == 12


def test_solvable_says_known_or_not():
    assert tf.solve_pattern("xx", pieces=["1", "1"]).solvable is True
    # Two strips of 6, one above the other: two I6 fill them, an I6 and an L6 do not (found by
    # search: each fits somewhere).
    assert tf.solve_pattern("xxxxxx\nxxxxxx", pieces=["I6", "I6"], all_solutions=True).count == 1
    none = tf.solve_pattern("xxxxxx\nxxxxxx", pieces=["I6", "L6"], all_solutions=True)
    assert none.count == 0 and none.exhausted and none.solvable is False and none.impossible is None
    mismatch = tf.solve_pattern("xx", pieces=["2", "2"])
    assert mismatch.solvable is False and "area mismatch" in mismatch.impossible


# -- random games -----------------------------------------------------------------------------
def test_random_game_variant_seed_and_start():
    g = tf.random_game()
    assert g.variant == tf.Variant.FOUR_PLAYER and g.is_over
    assert tf.random_game(seed=3).history == tf.random_game(seed=3).history != tf.random_game(seed=4).history
    start = tf.random_game(tf.Variant.TWO_PLAYER, seed=1)
    while len(start.history) > 10:
        start.undo()
    before = start.to_blksgf()
    end = tf.random_game(start=start, seed=2)
    assert start.to_blksgf() == before  # played on a copy
    assert end.is_over and end.variant == tf.Variant.TWO_PLAYER and end.history[:10] == start.history
    assert tf.random_game(start=end, seed=5).history == end.history  # over already: nothing to play
    with pytest.raises(ValueError):
        tf.random_game(tf.Variant.FOUR_PLAYER, start=start)
