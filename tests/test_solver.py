"""Solo solver: every answer replays legally under the rules core, and an independent checker
built only on board geometry (no move generator) confirms the final layout and the score."""

from __future__ import annotations

import os
import random
import signal
import threading
from collections import defaultdict

import pytest

import trigon_fast as tf
from trigon_fast import _core

from endgames import impossible_three_player, layout_key, near_miss

TRIANGLE = "1"


# -- independent checker ----------------------------------------------------------------------
def _shape_key(board, cells):
    return _core.canonical_key([board.lattice(c) for c in cells])


_PIECE_KEYS = {}


def _piece_key(name):
    if name not in _PIECE_KEYS:
        idx = tf.PIECE_NAMES.index(name)
        _PIECE_KEYS[name] = _core.canonical_key(_core.piece_orientations(idx)[0])
    return _PIECE_KEYS[name]


def check_layout(variant, history):
    """Checks the rules on the placed pieces alone; returns the rulebook score per colour."""
    board = tf.board(variant.side)
    owner = {}  # cell -> (colour, piece number)
    pieces = defaultdict(list)  # colour -> [(name, cells)] in order
    for colour, move in history:
        c = int(colour)
        assert c in [int(k) for k in variant.colours]
        cells = list(move.cell_indices)
        assert len(set(cells)) == len(cells) == tf.PIECE_SIZES[tf.PIECE_NAMES.index(move.piece)]
        assert _shape_key(board, cells) == _piece_key(move.piece), "cells do not form the named piece"
        for cell in cells:
            assert cell not in owner, f"overlap at {board.cell_name(cell)}"
            owner[cell] = (c, len(pieces[c]))
        pieces[c].append((move.piece, cells))
    starts = set(board.start_cells)
    first_starts = set()
    for c, plist in pieces.items():
        names = [n for n, _ in plist]
        assert len(set(names)) == len(names), "a piece placed twice"
        # First piece on a start cell no other colour started on.
        on_start = starts.intersection(plist[0][1])
        assert len(on_start) == 1
        assert not (on_start & first_starts)
        first_starts |= on_start
        vertex_sets = [set(v for cell in cells for v in board.cell_vertices(cell)) for _, cells in plist]
        for i, (_, cells) in enumerate(plist):
            for cell in cells:
                for nb in board.edge_neighbours(cell):
                    if nb in owner and owner[nb][0] == c:
                        assert owner[nb][1] == i, f"same-colour edge contact at {board.cell_name(cell)}"
            if i > 0:  # in the given order each piece touches an earlier one at a vertex
                assert any(vertex_sets[i] & vertex_sets[j] for j in range(i)), "piece not connected"
    # The rulebook's start rules, from its own ring of start cells (not the engine's tables).
    started = {board.cell_name(x) for x in first_starts}
    if variant.start_rule == tf.StartRule.EVERY_OTHER:  # three players: every other cell of the ring
        assert started <= {"p14", "x6", "h6"} or started <= {"x11", "p3", "h11"}, started
    if variant.start_rule == tf.StartRule.OPPOSITE:  # two sides: partners on opposite cells
        firsts = {c: board.cell_name(next(iter(starts.intersection(pl[0][1])))) for c, pl in pieces.items()}
        opposite = {"r15": "r4", "r4": "r15", "z12": "j7", "j7": "z12", "z7": "j12", "j12": "z7"}
        for a, b in ((0, 2), (1, 3)):
            if a in firsts and b in firsts:
                assert opposite[firsts[a]] == firsts[b], firsts
    if variant.alternate_rule:
        for v in range(board.num_vertices):
            per_colour = defaultdict(lambda: defaultdict(int))
            for cell in board.vertex_fan(v):
                if cell in owner:
                    c, p = owner[cell]
                    per_colour[c][p] += 1
            for counts in per_colour.values():
                if len(counts) >= 2:
                    assert max(counts.values()) < 3, "alternate rule: a side meets another same-colour piece"
    scores = {}
    for c in variant.colours:
        plist = pieces.get(int(c), [])
        if len(plist) == 22:
            scores[c] = 20 if plist[-1][0] == TRIANGLE else 15
        else:
            scores[c] = sum(len(cells) for _, cells in plist) - 110
    return scores


def replay(variant, history, base=None):
    g = base.copy() if base is not None else tf.Game(variant)
    for colour, move in history:
        assert g.turn == colour
        assert g.check(move) is None
        g.play(move)
    return g


def assert_valid(sol, variant, base=None):
    full = (base.history if base is not None else []) + sol.moves
    g = replay(variant, sol.moves, base)
    assert g.is_over
    assert [(int(c), m.id) for c, m in g.history] == [(int(c), m.id) for c, m in sol.game.history]
    expected = check_layout(variant, full)
    assert sol.scores == expected == g.scores()
    assert sol.complete == all(len(g.pieces_left(c)) == 0 for c in variant.colours)
    return g


# -- solo puzzle ------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_standard_complete_plus_80(seed):
    sol = tf.solve_solo(seed=seed, time_limit=30)
    assert sol.complete and not sol.interrupted
    assert sol.total_score == 80 and len(sol.moves) == 88
    assert_valid(sol, tf.Variant.SOLO)
    assert sol.stats.best_placed == sol.stats.target == 440


def test_alternate_rule():
    sol = tf.solve_solo(alternate_rule=True, seed=0, time_limit=60)
    assert sol.game.variant.alternate_rule
    assert sol.complete and sol.total_score == 80
    assert_valid(sol, sol.game.variant)


def test_three_player_inner_board():
    v = tf.Variant.THREE_PLAYER
    sol = tf.solve_solo(v, seed=3, time_limit=30)
    assert sol.complete and sol.total_score == 60 and len(sol.moves) == 66
    assert_valid(sol, v)


def test_colour_subset_and_small_board_solo():
    sol = tf.solve_solo(colours=[1, 3], seed=0, time_limit=30)
    assert set(sol.scores) == {tf.Colour.YELLOW, tf.Colour.GREEN}
    assert sol.complete and sol.total_score == 40
    assert_valid(sol, sol.game.variant)
    sol = tf.solve_solo(tf.Variant.solo(side=8), seed=0, time_limit=30)
    assert sol.complete and sol.total_score == 60
    assert_valid(sol, sol.game.variant)


@pytest.mark.parametrize("ring", [(1, 2, 4, 5), (2, 3, 4, 5), (1, 3, 4, 5)])
def test_fixed_start_cells_three_cases(ring):
    board = tf.board(9)
    names = [board.cell_name(board.start_cells[i]) for i in ring]
    sol = tf.solve_solo(start_cells=names, seed=0, time_limit=30)
    assert sol.complete and sol.total_score == 80
    assert_valid(sol, tf.Variant.SOLO)
    for colour, name in zip(tf.Colour, names):
        first = next(m for c, m in sol.moves if c == colour)
        assert name in first.cells


@pytest.mark.parametrize("variant, start_cells, rule", [
    # The rulebook's two-player game: j7 is not opposite r15 (r4 is), so red cannot start there.
    (tf.Variant.TWO_PLAYER, {"blue": "r15", "red": "j7"}, "opposite"),
    # Yellow on j7 leaves green only z12, opposite; red there shuts green out.
    (tf.Variant.TWO_PLAYER, {"yellow": "j7", "red": "z12"}, "opposite"),
    # The three-player ring p14 x11 x6 p3 h6 h11: p3 is three steps from p14, not two.
    (tf.Variant.THREE_PLAYER, {"blue": "p14", "yellow": "p3"}, "every other"),
])
def test_start_cells_the_start_rule_forbids_are_refused(variant, start_cells, rule):
    # They used to be searched for the whole time limit and then dropped from the answer.
    with pytest.raises(tf.SolverError, match=rule):
        tf.solve_solo(variant, start_cells=start_cells, time_limit=30)
    with pytest.raises(tf.SolverError, match=rule):
        tf.iter_solutions(variant, start_cells=start_cells)


def test_a_start_cell_already_covered_is_refused():
    game = tf.Game(tf.Variant.FOUR_PLAYER, ["q15,r15,p16,q16,o17,p17"])  # blue covers r15
    with pytest.raises(tf.SolverError, match="yellow=r15 cannot all be used"):
        tf.solve_solo(game=game, start_cells={"yellow": "r15"}, time_limit=30)


@pytest.mark.parametrize("variant, start_cells", [
    (tf.Variant.TWO_PLAYER, {"blue": "r15", "red": "r4"}),
    (tf.Variant.TWO_PLAYER, {"red": "j7"}),  # blue then has to start on z12
    (tf.Variant.THREE_PLAYER, {"blue": "p14", "red": "h6"}),
])
def test_start_cells_the_start_rule_allows_are_kept(variant, start_cells):
    sol = tf.solve_solo(variant, start_cells=start_cells, seed=0, time_limit=30)
    assert sol.complete
    for colour, name in start_cells.items():
        first = next(m for c, m in sol.moves if c == tf.Colour.parse(colour))
        assert name in first.cells


def test_same_seed_same_answer():
    a = tf.solve_solo(seed=5, time_limit=30)
    b = tf.solve_solo(seed=5, time_limit=30)
    assert [(c, m.id) for c, m in a.moves] == [(c, m.id) for c, m in b.moves]
    assert a.stats.nodes == b.stats.nodes


def test_two_threads():
    sol = tf.solve_solo(seed=7, threads=2, time_limit=30)
    assert sol.complete and sol.total_score == 80
    assert_valid(sol, tf.Variant.SOLO)


def test_count_distinct_up_to_symmetry():
    sols = tf.solve_solo(seed=0, count=3, time_limit=60)
    assert len(sols) == 3
    keys = set()
    for s in sols:
        assert s.complete
        assert_valid(s, tf.Variant.SOLO)
        keys.add(layout_key(s.game))
    assert len(keys) == 3


def test_from_a_given_game():
    sol = tf.solve_solo(seed=2, time_limit=30)
    base = tf.Game(tf.Variant.SOLO)
    for _, m in sol.moves[:30]:
        base.play(m)
    again = tf.solve_solo(game=base, seed=11, time_limit=30)
    assert again.complete
    assert len(again.moves) == 58
    assert_valid(again, tf.Variant.SOLO, base)
    assert again.game.history[:30] == base.history
    assert len(base.history) == 30  # the caller's game is not changed


@pytest.mark.parametrize("left", [12, 4])
def test_from_a_solution_taken_back_completes(left):
    # From a position the solver also cuts branches where a colour's pieces no longer fit its
    # reach (on every other restart; reach.h, whose soundness the exhaustive search's tests
    # check): from a solution taken back, so that a complete layout exists, it still finishes.
    for seed in range(4):
        sol = tf.solve_solo(seed=seed, time_limit=30)
        base = tf.Game(tf.Variant.SOLO)
        for _, m in sol.moves[:88 - 4 * left]:
            base.play(m)
        again = tf.solve_solo(game=base, seed=seed + 1, time_limit=30)
        assert again.complete, (left, seed)
        assert_valid(again, tf.Variant.SOLO, base)


@pytest.mark.parametrize("triangle_last", [False, True])
def test_from_a_near_miss_repairs_the_best_layout(triangle_last):
    # Six pieces a colour, eight moves of a solution replaced: the restarts alone stalled 7
    # triangles short (3 seeds of 15 s). From a position the first thread also repairs its best
    # partial layout (the moves around an empty cell taken out, an exhaustive search placing every
    # piece left): complete in 0.02 s (0.14 s with the triangles last). Repairs count nodes, not
    # seconds, so one thread still gives one answer per seed.
    base = near_miss(3, left=6)
    sol = tf.solve_solo(game=base, seed=0, time_limit=60, triangle_last=triangle_last)
    assert sol.complete and not sol.interrupted
    assert_valid(sol, tf.Variant.SOLO, base)
    if triangle_last:  # every colour that still had its triangle places it last
        with_triangle = [c for c in tf.Colour if TRIANGLE in base.pieces_left(c)]
        assert with_triangle
        for c in with_triangle:
            assert [m.piece for c2, m in sol.game.history if c2 == c][-1] == TRIANGLE
    again = tf.solve_solo(game=base, seed=0, time_limit=60, triangle_last=triangle_last)
    assert again.moves == sol.moves and again.stats.nodes == sol.stats.nodes


def test_incomplete_returns_legal_finished_game():
    v, game = impossible_three_player()
    sol = tf.solve_solo(game=game, seed=0, time_limit=0.3)
    assert not sol.complete
    g = assert_valid(sol, v, game)
    assert sol.unplaced_triangles == sum(110 - sum(m.size for c2, m in g.history if c2 == c) for c in v.colours)
    assert sol.unplaced_triangles > 0


def test_callback_sees_progress_and_can_stop():
    v, game = impossible_three_player()
    seen = []

    def cb(stats):
        seen.append(stats)
        return len(seen) < 2

    sol = tf.solve_solo(game=game, seed=0, time_limit=20, callback=cb)
    assert len(seen) == 2 and seen[1].nodes >= seen[0].nodes > 0
    assert sol.stats.seconds < 10 and not sol.complete
    assert sol.interrupted  # (stopped by its caller: not a search that ran out of time)


def test_ctrl_c_returns_best_so_far():
    v, game = impossible_three_player()
    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    try:
        sol = tf.solve_solo(game=game, seed=0, time_limit=20)
    finally:
        timer.cancel()
    assert sol.interrupted and not sol.complete
    assert sol.stats.seconds < 10
    assert_valid(sol, v, game)


@pytest.mark.parametrize("kwargs", [
    dict(start_cells=["a1", None, None, None]),
    dict(start_cells=["r15", "r15", None, None]),
    dict(start_cells=["zz99", None, None, None]),
    dict(start_cells=["r15"]),
    dict(threads=0),
    dict(count=0),
    dict(time_limit=0),
    dict(colours=[0, 7]),
    dict(start_cells={"purple": "r15"}),
    dict(start_cells={1.5: "r15"}),
    dict(start_cells=[3.7, None, None, None]),
    dict(start_cells=[10**6, None, None, None]),
    dict(colours=[0], start_cells={"red": "r15"}),
])
def test_bad_input_is_a_value_error(kwargs):
    with pytest.raises(ValueError):
        tf.solve_solo(**kwargs)


def test_a_finished_game_is_its_own_answer():
    sol = tf.solve_solo(seed=1, time_limit=30)
    again = tf.solve_solo(game=sol.game)  # every piece placed: complete, nothing searched
    assert again.complete and again.moves == [] and again.total_score == 80 and again.unplaced_triangles == 0
    assert again.game.moves == sol.game.moves and again.stats.nodes == 0
    assert [s.complete for s in tf.solve_solo(game=sol.game, count=3)] == [True]
    stuck = tf.random_game(tf.Variant.solo(), seed=2)  # over, pieces left: not complete, short by them
    assert stuck.is_over
    left = sum(tf.PIECE_SIZES[tf.PIECE_NAMES.index(p)] for c in range(4) for p in stuck.pieces_left(c))
    r = tf.solve_solo(game=stuck)
    assert not r.complete and r.unplaced_triangles == left > 0 and r.game.moves == stuck.moves
    with pytest.raises(tf.SolverError, match="is not the game's"):
        tf.solve_solo(tf.Variant.TWO_PLAYER, game=tf.Game())


def test_start_cells_by_colour_name():
    board = tf.board(9)
    cell = board.cell_name(board.start_cells[0])
    sol = tf.solve_solo(colours=["red"], start_cells={"Red": cell}, seed=0, time_limit=30)
    assert sol.complete
    first = next(m for c, m in sol.game.history if c == tf.Colour.RED)
    assert board.start_cells[0] in first.cell_indices


def test_colours_need_a_solo_variant():
    with pytest.raises(tf.SolverError):
        tf.solve_solo(tf.Variant.FOUR_PLAYER, colours=[0, 1])


def test_checker_rejects_broken_layouts():
    sol = tf.solve_solo(seed=0, time_limit=30)
    moves = list(sol.moves)
    with pytest.raises(AssertionError):  # overlap
        check_layout(tf.Variant.SOLO, moves + [moves[-1]])
    yellow_move = next(m for c, m in moves if c == tf.Colour.YELLOW and m.size == 6)
    with pytest.raises(AssertionError):  # a yellow piece given to blue: reused shape or bad contact
        check_layout(tf.Variant.SOLO, [(c, m) for c, m in moves if m != yellow_move] + [(tf.Colour.BLUE, yellow_move)])
    with pytest.raises(AssertionError):  # a tight standard packing breaks the alternate rule
        check_layout(tf.Variant.SOLO.with_alternate_rule(), moves)


def test_pieces_that_cannot_fit_give_the_best_partial_game():
    v = tf.Variant.solo(side=8, colours=[0, 1, 2, 3])  # 440 triangles of pieces, 384 cells
    sol = tf.solve_solo(v, seed=0, time_limit=0.5)
    assert not sol.complete
    assert_valid(sol, v)
    assert sol.stats.best_placed > 300
    assert sol.unplaced_triangles >= 440 - 384


def _stuck_solo_game(seed):
    """A random solo game played until a colour in play cannot move while the others still hold
    12 pieces or more (the move lists in the core's order: the same game every time)."""
    rnd = random.Random(seed)
    g = tf.Game(tf.Variant.solo())
    while not g.is_over:
        stuck = [c for c in g.variant.colours if g.pieces_left(c) and not g.legal_moves_of(c)]
        if stuck and sum(len(g.pieces_left(c)) for c in g.variant.colours if c not in stuck) >= 12:
            return g, stuck
        g.play(rnd.choice(list(g.legal_moves)))
    raise AssertionError("no colour was stuck early")


def _area_left(game, colours):
    return sum(tf.PIECE_SIZES[tf.PIECE_NAMES.index(p)] for c in colours for p in game.pieces_left(c))


def _largest_piece_finish(game):
    g = game.copy()
    while not g.is_over:
        g.play(max(g.legal_moves, key=lambda m: len(m.cells)))
    return g


def test_stuck_colour_the_others_are_all_placed():
    # Yellow cannot move 42 moves in; the others hold 33 pieces (174 triangles). The search
    # places every one of them (the best there is: it stops there), where finishing with the
    # largest piece each turn leaves 52 triangles of theirs (and the core did that, no search).
    g, stuck = _stuck_solo_game(1)
    assert stuck == [tf.Colour.YELLOW] and len(g.history) == 42
    others = [c for c in g.variant.colours if c not in stuck]
    assert _area_left(g, others) == 174 and _area_left(_largest_piece_finish(g), others) == 52
    sol = tf.solve_solo(game=g, seed=0, time_limit=60)
    assert_valid(sol, g.variant, g)
    assert not sol.complete and sol.stats.nodes > 0
    assert _area_left(sol.game, others) == 0 and sol.unplaced_triangles == _area_left(g, stuck)
    assert sol.stats.seconds < 50  # (stopped at the best, not at the time limit)


def test_stuck_colour_count_and_iter():
    # No complete game exists: count > 1 searches as count=1 does (it looked for many complete
    # layouts, and left 10-13 triangles); iter_solutions ends at once (it searched for 60 s).
    import time
    g, stuck = _stuck_solo_game(1)
    others = [c for c in g.variant.colours if c not in stuck]
    sols = tf.solve_solo(game=g, seed=0, count=3, time_limit=60)
    assert len(sols) == 1 and not sols[0].complete and _area_left(sols[0].game, others) == 0
    assert sols[0].stats.best_placed == _area_left(g, others)  # (the repairs' layout counted too)
    t0 = time.monotonic()
    assert list(tf.iter_solutions(game=g)) == [] and time.monotonic() - t0 < 5


def test_a_tiny_stuck_endgame_is_searched_through_and_ends():
    # Three colours stuck, green with one legal move: the search ran its whole time limit.
    rnd = random.Random(1)
    g = tf.Game(tf.Variant.solo())
    while len([c for c in g.variant.colours if g.pieces_left(c) and not g.legal_moves_of(c)]) < 3:
        g.play(rnd.choice(list(g.legal_moves)))
    sol = tf.solve_solo(game=g, seed=0, time_limit=60)
    assert_valid(sol, g.variant, g)
    placed = _area_left(g, [tf.Colour.GREEN]) - _area_left(sol.game, [tf.Colour.GREEN])
    assert placed == tf.max_placeable(g, tf.Colour.GREEN).triangles == 4
    assert sol.stats.seconds < 10


@pytest.mark.parametrize("seed", [2, 24, 11])
def test_stuck_colour_the_others_place_more_than_a_greedy_finish(seed):
    # The others were not all placed here in 5 s of search either; the search
    # still places more of theirs than the largest piece each turn (65-79 triangles left
    # instead of 91-103 in 0.15 s; the old answer was such a finish, 0 nodes).
    g, stuck = _stuck_solo_game(seed)
    others = [c for c in g.variant.colours if c not in stuck]
    sol = tf.solve_solo(game=g, seed=0, time_limit=1)
    assert_valid(sol, g.variant, g)
    assert not sol.complete and sol.stats.nodes > 0
    assert _area_left(sol.game, others) < _area_left(_largest_piece_finish(g), others)


def test_solution_exports_record_and_picture():
    import xml.etree.ElementTree as ET

    sol = tf.solve_solo(seed=3, time_limit=20)
    back = tf.Game.from_blksgf(sol.to_blksgf())
    assert back.history == sol.game.history and back.scores() == sol.scores
    ET.fromstring(sol._repr_svg_())


@pytest.mark.parametrize("reply", ["no", 0, "", None, True, [1, 2]])
def test_solve_callback_stops_only_on_false(reply):
    import numpy as np

    calls = []

    def cb(stats):
        calls.append(stats)
        return np.array([1, 2]) if isinstance(reply, list) else reply  # (an array has no truth value)

    sol = tf.solve_solo(seed=5, time_limit=1, callback=cb, restart_nodes=1)  # (a restart a node: it runs the limit)
    assert calls and not sol.interrupted and sol.stats.seconds > 0.9  # (ran to its limit: not stopped)
    assert sol.stats.restarts * 2 >= sol.stats.nodes  # (restart_nodes reached the search)


def test_solve_callback_must_be_callable():
    with pytest.raises(tf.SolverError, match="callback must be callable"):
        tf.solve_solo(callback=5, time_limit=1)


def test_the_core_refuses_a_start_cell_given_to_two_colours():
    # The public API refuses it; the private binding searched its whole time limit for a layout
    # that cannot exist.
    s = tf.board(9).start_cells[0]
    with pytest.raises(ValueError, match="two colours"):
        _core.solve_solo(tf.Game().position, [s, s, -1, -1], time_limit=60)
    with pytest.raises(tf.SolverError):
        tf.solve_solo(start_cells=[s, s, None, None], time_limit=60)


def _core_solo(**kw):
    from trigon_fast import _core
    start = tf.Game(tf.Variant.solo()).position
    return _core.solve_solo(start, [-1] * 4, seed=3, time_limit=30, **kw)


def test_solutions_reach_python_while_the_search_runs():
    # count= made every solution a game after the search: a call for many overran its time limit.
    got = []
    out = _core_solo(count=40, on_solution=lambda s: got.append(s))
    assert out["delivered"] == len(got) > 0
    whole = _core_solo(count=40)
    assert [s["moves"] for s in got] + [s["moves"] for s in out["solutions"]] == [s["moves"] for s in whole["solutions"]]
    assert not out["interrupted"]


def test_on_solution_can_stop_the_search_and_its_errors_propagate():
    seen = []
    out = _core_solo(count=10**6, on_solution=lambda s: seen.append(s) or len(seen) < 3)
    assert out["interrupted"] and out["delivered"] == 3 and len(seen) == 3

    def boom(s):
        raise LookupError("from on_solution")
    with pytest.raises(LookupError, match="from on_solution"):
        _core_solo(count=10**6, on_solution=boom)


def test_count_solutions_made_during_the_search_are_the_same_solutions():
    sols = tf.solve_solo(count=30, seed=2, time_limit=30)
    assert len(sols) == 30 and len({s.key for s in sols}) == 30
    for s in sols:
        assert s.complete and s.total_score == 80
        assert s.moves == s.game.history[:len(s.moves)] and s.scores == s.game.scores()
    again = tf.solve_solo(count=30, seed=2, time_limit=30)
    assert [s.key for s in again] == [s.key for s in sols]  # one thread: the same, in order
