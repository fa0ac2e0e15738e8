"""Solo solver (solve_solo, iter_solutions): the contract checked against what is known without
the solver, from a mutation round of cpp/solver/solo.cpp, bind_solver.cpp and solver.py.

Positions are built with Game.setup (no contact rules) so that the answer is known in advance: a
colour whose last piece, the triangle, has no legal cell; a colour that must start with its
triangle; a last triangle with exactly two cells. Completions are enumerated with the rules
core's Game API, layouts compared with a key computed here from the board's geometry, scores
taken from the rulebook (-1 a triangle unplaced; +15 for all pieces, +5 more with the triangle
last). Every search is seeded and runs on one thread.
"""

from __future__ import annotations

import itertools
from collections import defaultdict

import numpy as np
import pytest

import trigon_fast as tf
from trigon_fast import _core

from endgames import impossible_three_player, layout_key

RED, YELLOW, BLUE, GREEN = tf.Colour.RED, tf.Colour.YELLOW, tf.Colour.BLUE, tf.Colour.GREEN
TRIANGLE = tf.PIECE_NAMES.index("1")
SIZES = dict(zip(tf.PIECE_NAMES, tf.PIECE_SIZES))


# -- independent computations -----------------------------------------------------------------
def rulebook_score(pieces_in_order):
    """A colour's score from the names of the pieces it placed, in the order placed."""
    placed = sum(SIZES[p] for p in pieces_in_order)
    if placed < 110:
        return placed - 110
    return 20 if pieces_in_order[-1] == "1" else 15


def triangles_left(game, colours):
    return sum(SIZES[p] for c in colours for p in game.pieces_left(c))


def replay_solution(base, sol):
    """Plays the solution's moves on a copy of `base` with the Game API (each legal, in turn)."""
    g = base.copy()
    for colour, move in sol.moves:
        assert g.turn == colour
        assert g.check(move) is None
        g.play(move)
    assert g.is_over
    assert [m.id for _, m in g.history] == [m.id for _, m in sol.game.history]
    return g


# -- positions built with setup ---------------------------------------------------------------
class _Builder:
    """A red-and-blue solo game set up piece by piece (setup ignores the contact rules)."""

    def __init__(self):
        self.board = tf.board(9)
        self.cells = self.board.placement_cells_array()  # (placements, 6), -1 padded
        self.piece = self.board.placement_piece_array()
        self.game = tf.Game(tf.Variant.solo(colours=[RED, BLUE]))
        self.occ = np.zeros(self.board.num_cells + 1, bool)  # (the last entry: the padding)
        xy = np.array([self.board.cell_xy(c) for c in range(self.board.num_cells)], dtype=float)
        self.xy = xy

    def free(self, pid):
        return not self.occ[self.cells[pid]].any()

    def put(self, colour, pid):
        self.occ[self.cells[pid]] = True
        self.occ[-1] = False
        self.game.setup(colour, tf.Move(int(pid), 9))

    def distance_from(self, point, farthest):
        """Per placement: its farthest (or nearest) cell's distance from `point`."""
        d = np.linalg.norm(self.xy - point, axis=1)
        valid = self.cells >= 0
        if farthest:
            return np.where(valid, d[np.maximum(self.cells, 0)], -1).max(axis=1)
        return np.where(valid, d[np.maximum(self.cells, 0)], 1e9).min(axis=1)

    def place_pieces(self, colour, pieces, order):
        """Each piece at the first free placement in `order` (a score per placement, lowest first)."""
        for p in pieces:
            ids = np.nonzero(self.piece == p)[0]
            for pid in ids[np.argsort(order[ids], kind="stable")]:
                if self.free(pid):
                    self.put(colour, pid)
                    break
            else:  # pragma: no cover - the board has room
                raise AssertionError(f"no room for piece {p}")

    def cover(self, colour, cells, avoid=()):
        """Pieces of `colour` on every cell of `cells` (greedy, most cells a piece), none on `avoid`;
        returns the pieces used."""
        left, used = set(cells), set()
        banned = np.isin(self.cells, list(avoid)).any(axis=1)
        while left:
            hits = np.isin(self.cells, list(left)).sum(axis=1)
            hits[np.isin(self.piece, list(used | {TRIANGLE})) | banned] = 0
            pid = next(int(p) for p in np.argsort(-hits, kind="stable") if hits[p] and self.free(p))
            used.add(int(self.piece[pid]))
            self.put(colour, pid)
            left -= set(self.cells[pid].tolist())
        return used


def red_triangle_boxed_in(keep=0, blue_done=False):
    """Red's 21 other pieces packed into a corner, its triangle left; blue pieces on every cell
    where red's triangle could go but `keep` of them (those cells returned). Blue's other pieces
    lie in the far corner; blue's triangle too if `blue_done`, else it is left to play."""
    b = _Builder()
    corner = b.xy.min(axis=0)
    b.place_pieces(RED, [p for p in range(22) if p != TRIANGLE], b.distance_from(corner, farthest=True))
    spots = sorted(m.cell_indices[0] for m in b.game.legal_moves_of(RED))
    kept = spots[:keep]
    used = b.cover(BLUE, spots[keep:], avoid=kept)
    rest = [p for p in range(22) if p not in used and (blue_done or p != TRIANGLE)]
    b.place_pieces(BLUE, rest, -b.distance_from(corner, farthest=False))
    b.game.set_turn(RED if blue_done else BLUE)
    return b.game, kept


def red_must_start_with_its_triangle():
    """Blue's 22 pieces set up on five of the six start cells and on the three cells next to the
    sixth (the rest far away): red can start only with its triangle on that cell."""
    b = _Builder()
    s = b.board.start_cells[0]
    near = set(b.board.vertex_neighbours(s)) | {s}
    targets = list(b.board.edge_neighbours(s)) + [c for c in b.board.start_cells if c != s]
    used = set()
    for cell in targets:  # one small piece each, clear of the cells around s
        ids = [int(p) for p in np.nonzero((b.cells == cell).any(axis=1))[0]]
        ids = [p for p in ids if b.piece[p] not in used and b.free(p) and s not in b.cells[p]]
        pid = min(ids, key=lambda p: (len(near.intersection(b.cells[p].tolist())), -b.piece[p]))
        used.add(int(b.piece[pid]))
        b.put(BLUE, pid)
    b.place_pieces(BLUE, [p for p in range(22) if p not in used], -b.distance_from(b.xy[s], farthest=False))
    b.game.set_turn(RED)
    return b.game, s


# -- complete flag, unplaced triangles, scores -------------------------------------------------
def test_a_colour_missing_only_its_triangle_is_not_complete():
    g, _ = red_triangle_boxed_in(keep=0, blue_done=False)
    assert g.pieces_left(RED) == ["1"] and not list(g.legal_moves_of(RED))
    assert g.pieces_left(BLUE) == ["1"] and list(g.legal_moves_of(BLUE)) and not g.is_over
    sol = tf.solve_solo(game=g, seed=0, time_limit=5)
    final = replay_solution(g, sol)
    assert [str(m.piece) for _, m in sol.moves] == ["1"]  # blue's triangle, the one move left
    assert not sol.complete
    assert sol.unplaced_triangles == triangles_left(final, [RED, BLUE]) == 1
    blue_order = [m.piece for c, m in final.history if c == BLUE]
    assert sol.scores == {RED: -1, BLUE: rulebook_score(blue_order)} == {RED: -1, BLUE: 20}
    assert sol.total_score == 19


# -- triangle_last=False -----------------------------------------------------------------------
def test_triangle_may_come_first_without_triangle_last():
    g, s = red_must_start_with_its_triangle()
    assert [m.cell_indices for m in g.legal_moves_of(RED)] == [(s,)]  # the triangle on s alone
    assert not g.pieces_left(BLUE)
    sols = tf.solve_solo(game=g, seed=0, time_limit=10, triangle_last=False, count=2)
    assert len(sols) == 2 and all(s2.complete for s2 in sols)
    assert len({layout_key(s2.game) for s2 in sols}) == 2
    for sol in sols:
        replay_solution(g, sol)
        red = [m for c, m in sol.moves if c == RED]
        assert len(red) == 22 and red[0].piece == "1" and red[0].cell_indices == (s,)
        assert sol.scores[RED] == rulebook_score([m.piece for m in red]) == 15
        assert sol.stats.solutions == 2


def test_triangle_last_gives_way_where_a_colour_can_only_start_with_its_triangle():
    # With triangle_last (the default) the triangle could not come last for red: the search
    # placed nothing for its whole time limit, and the answer came from the final replay
    # (complete, but stats.solutions == 0, and count=2 gave one game). Now red may place its
    # triangle first and the search finds games at once.
    g, s = red_must_start_with_its_triangle()
    sols = tf.solve_solo(game=g, seed=0, time_limit=60, count=2)
    assert len(sols) == 2 and all(s2.complete for s2 in sols)
    assert len({layout_key(s2.game) for s2 in sols}) == 2
    for sol in sols:
        replay_solution(g, sol)
        red = [m for c, m in sol.moves if c == RED]
        assert red[0].piece == "1" and red[0].cell_indices == (s,)
        assert sol.scores[RED] == rulebook_score([m.piece for m in red]) == 15
        assert sol.stats.solutions == 2 and sol.stats.best_placed == sol.stats.target
        assert sol.stats.nodes < 100_000  # (a few dozen; the whole 60 s before)


# -- count= and iter_solutions: distinct layouts -----------------------------------------------
@pytest.fixture(scope="module")
def two_completions():
    """Red's last triangle with exactly two cells, blue complete: two layouts, enumerated."""
    g, kept = red_triangle_boxed_in(keep=2, blue_done=True)
    assert sorted(m.cell_indices[0] for m in g.legal_moves_of(RED)) == kept and len(kept) == 2
    keys = set()
    for m in g.legal_moves_of(RED):
        done = g.copy()
        done.play(m)
        assert done.is_over
        keys.add(layout_key(done))
    assert len(keys) == 2
    return g, keys


def test_count_gives_each_layout_once(two_completions):
    g, keys = two_completions
    sols = tf.solve_solo(game=g, seed=0, time_limit=0.5, count=5)  # (asks for more than there are)
    assert [s.complete for s in sols] == [True, True]
    assert {layout_key(s.game) for s in sols} == keys
    assert len({s.key for s in sols}) == 2
    assert all(s.stats.solutions == 2 for s in sols)


def test_iter_solutions_yields_each_layout_once(two_completions):
    g, keys = two_completions
    # (batch=2: each round finds both; eight rounds that find nothing new end the stream)
    it = tf.iter_solutions(game=g, seed=0, batch=2)
    sols = list(itertools.islice(it, 10))
    assert len(sols) == 2 and {layout_key(s.game) for s in sols} == keys
    assert it.found == 2 and not it.interrupted


@pytest.mark.parametrize("seed", range(12))
def test_iter_solutions_in_rounds_of_one_finds_both_layouts(two_completions, seed):
    # A round of one solution meets the layout of an earlier round again about every other time;
    # the stream ended there and gave one layout of two for 8 of these 12 seeds. Now it ends
    # after eight such rounds in a row.
    g, keys = two_completions
    it = tf.iter_solutions(game=g, seed=seed, batch=1)
    sols = list(itertools.islice(it, 10))
    assert len(sols) == 2 and {layout_key(s.game) for s in sols} == keys
    assert it.found == 2 and not it.interrupted


def test_count_from_the_empty_board_gives_distinct_layouts():
    sols = tf.solve_solo(seed=1, count=12, time_limit=60)
    assert len(sols) == 12 and all(s.complete and s.total_score == 80 for s in sols)
    assert len({layout_key(s.game) for s in sols}) == 12
    assert len({s.key for s in sols}) == 12
    assert all(s.stats.solutions == 12 for s in sols)


def test_key_tells_colourings_apart():
    sol = tf.solve_solo(seed=3, time_limit=30)
    tri = {c: m for c, m in sol.moves if m.piece == "1"}
    swapped = tf.Game(sol.game.variant)  # red's and blue's triangles on each other's cells
    for c, m in sol.moves:
        if m.piece != "1" or c in (YELLOW, GREEN):
            swapped.setup(c, m)
    swapped.setup(RED, tri[BLUE])
    swapped.setup(BLUE, tri[RED])
    assert layout_key(swapped) != layout_key(sol.game)
    assert _core.layout_key(swapped.position) != sol.key


# -- statistics --------------------------------------------------------------------------------
def test_stats_from_a_position_count_what_is_left():
    v = tf.Variant.THREE_PLAYER
    base = tf.Game(v)
    for _, m in tf.solve_solo(v, seed=3, time_limit=30).moves[:30]:
        base.play(m)
    sol = tf.solve_solo(game=base, seed=1, time_limit=30)
    assert sol.complete
    replay_solution(base, sol)
    target = triangles_left(base, v.colours)
    assert target == 330 - sum(m.size for _, m in base.history)
    assert sol.stats.target == target and sol.stats.best_placed == target
    assert sol.stats.solutions == 1


def test_stats_after_a_repair_count_the_whole_layout():
    from endgames import near_miss

    base = near_miss(3, left=6)
    sol = tf.solve_solo(game=base, seed=0, time_limit=60, triangle_last=False)
    assert sol.complete
    target = triangles_left(base, base.variant.colours)
    assert sol.stats.target == target and sol.stats.best_placed == target and sol.stats.solutions == 1


def test_restarts_are_counted():
    # From the empty board (no repairs) each restart searches restart_nodes nodes at most (and
    # one more, the one that ends it), and at least one.
    sol = tf.solve_solo(seed=0, time_limit=30, restart_nodes=50)
    st = sol.stats
    assert sol.complete and st.restarts >= 2
    assert st.restarts < st.nodes <= st.restarts * 51


def test_incomplete_answer_places_at_least_the_best_branch():
    v, game = impossible_three_player()
    sol = tf.solve_solo(game=game, seed=0, time_limit=0.3)
    final = replay_solution(game, sol)
    st = sol.stats
    assert not sol.complete and st.target == triangles_left(game, v.colours)
    assert 0 < st.best_placed < st.target
    assert sol.unplaced_triangles == triangles_left(final, v.colours)
    assert sol.unplaced_triangles <= st.target - st.best_placed
    # Four colours on the inner board: 440 triangles of pieces for 384 cells. The answer is the
    # deepest branch's layout replayed (its moves kept, the rest forced), not a greedy game.
    v = tf.Variant.solo(side=8, colours=[RED, YELLOW, BLUE, GREEN])
    sol = tf.solve_solo(v, seed=0, time_limit=0.5)
    final = replay_solution(tf.Game(v), sol)
    st = sol.stats
    assert not sol.complete and st.target == 440 and 300 < st.best_placed < 384
    assert sol.unplaced_triangles == triangles_left(final, v.colours)
    assert sol.unplaced_triangles <= st.target - st.best_placed


def test_count_with_none_found_gives_the_best_partial_game():
    v, game = impossible_three_player()
    sols = tf.solve_solo(game=game, seed=0, time_limit=0.3, count=2)
    assert isinstance(sols, list) and len(sols) == 1
    assert not sols[0].complete and sols[0].unplaced_triangles > 0
    replay_solution(game, sols[0])


def test_a_finished_three_player_game_is_its_own_answer():
    v = tf.Variant.THREE_PLAYER
    done = tf.solve_solo(v, seed=3, time_limit=30).game
    again = tf.solve_solo(game=done)
    assert again.complete and again.unplaced_triangles == 0 and again.moves == []
    assert again.stats.solutions == 1 and again.total_score == 60


# -- options: start cells, colours, variant, alternate rule ----------------------------------
def test_start_cells_list_follows_the_colours_in_play():
    board = tf.board(9)
    cells = [board.cell_name(board.start_cells[i]) for i in (2, 5)]
    sol = tf.solve_solo(colours=["yellow", "green"], start_cells=cells, seed=0, time_limit=30)
    assert sol.complete
    replay_solution(tf.Game(sol.game.variant), sol)
    for colour, name in zip((YELLOW, GREEN), cells):
        first = next(m for c, m in sol.moves if c == colour)
        assert name in first.cells


def test_colours_keep_the_variants_board():
    sol = tf.solve_solo(tf.Variant.solo(side=8), colours=["red"], seed=0, time_limit=30)
    assert sol.game.variant.side == 8 and sol.game.variant.colours == (RED,)
    assert sol.complete and sol.total_score == 20
    replay_solution(tf.Game(tf.Variant.solo(colours=["red"], side=8)), sol)


def _meets_alternate_rule(board, history):
    owner = {}
    count = defaultdict(int)
    for c, m in history:
        count[c] += 1
        for cell in m.cell_indices:
            owner[cell] = (int(c), count[c])
    for v in range(board.num_vertices):
        per_colour = defaultdict(lambda: defaultdict(int))
        for cell in board.vertex_fan(v):
            if cell in owner:
                c, p = owner[cell]
                per_colour[c][p] += 1
        for counts in per_colour.values():
            if len(counts) >= 2 and max(counts.values()) >= 3:
                return False
    return True


def test_alternate_rule_with_a_variant_given():
    sol = tf.solve_solo(tf.Variant.solo(colours=["red", "blue"]), alternate_rule=True, seed=0, time_limit=30)
    assert sol.game.variant.alternate_rule and sol.complete
    replay_solution(tf.Game(tf.Variant.solo(colours=["red", "blue"], alternate_rule=True)), sol)
    assert _meets_alternate_rule(tf.board(9), sol.moves)
