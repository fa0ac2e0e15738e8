"""Rules over many seeded random games, and against the independent reference model."""

import numpy as np
import pytest

import trigon_fast as tf
from variant_cases import pick
from trigon_fast import _core
from reference_rules import RefGame, cells_of

VARIANTS = pick("four", "four_alt", "two", "two_pentobi", "three", "three_pentobi", "three_alt", "teams",
                "solo_alt")

START_RULE_NAMES = {0: "any", 1: "opposite", 2: "every_other"}


def _layout_arrays(side):
    b = tf.board(side)
    edges = np.array([(c, n) for c in range(b.num_cells) for n in b.edge_neighbours(c) if n > c])
    touches = np.array([(c, n) for c in range(b.num_cells) for n in b.vertex_neighbours(c) if n > c])
    fans = np.full((b.num_vertices, 6), -1)
    for v in range(b.num_vertices):
        f = b.vertex_fan(v)
        fans[v, : len(f)] = f
    return b, edges, touches, fans


_ARRAYS = {}


def check_layout(variant, moves):
    """Checks a whole game's pieces pairwise: disjoint, no same-colour edge, each later piece
    touching an earlier one of its colour at a vertex, the alternate rule, start cells."""
    side = variant.side
    if side not in _ARRAYS:
        _ARRAYS[side] = _layout_arrays(side)
    b, edges, touches, fans = _ARRAYS[side]
    colour = np.full(b.num_cells, -1)
    piece = np.full(b.num_cells, -1)
    starts = set(b.start_cells)
    seen_pieces = set()
    for k, (c, pid) in enumerate(moves):
        cells = b.placement_cells(pid)
        assert (colour[cells] == -1).all(), "overlap"
        colour[cells] = c
        piece[cells] = k
        key = (c, b.placement_piece(pid))
        assert key not in seen_pieces, "piece used twice"
        seen_pieces.add(key)
    same = (colour[edges[:, 0]] >= 0) & (colour[edges[:, 0]] == colour[edges[:, 1]])
    assert (piece[edges[same, 0]] == piece[edges[same, 1]]).all(), "same-colour edge contact"
    t0, t1 = touches[:, 0], touches[:, 1]
    m = (colour[t0] >= 0) & (colour[t0] == colour[t1]) & (piece[t0] != piece[t1])
    earliest = np.full(len(moves), 10**9)
    np.minimum.at(earliest, piece[t0[m]], piece[t1[m]])
    np.minimum.at(earliest, piece[t1[m]], piece[t0[m]])
    first_of = {}
    for k, (c, pid) in enumerate(moves):
        if c not in first_of:
            first_of[c] = k
            assert starts & set(b.placement_cells(pid)), "first piece not on a start cell"
        else:
            assert earliest[k] < k, "piece does not touch an earlier piece of its colour"
    if variant.alternate_rule:
        fc = np.where(fans >= 0, colour[np.maximum(fans, 0)], -1)
        fp = np.where(fans >= 0, piece[np.maximum(fans, 0)], -1)
        for v in range(len(fans)):
            cnt = {}
            for col, pc in zip(fc[v], fp[v]):
                if col >= 0:
                    cnt.setdefault(col, {}).setdefault(pc, 0)
                    cnt[col][pc] += 1
            for per_piece in cnt.values():
                if len(per_piece) > 1:
                    assert max(per_piece.values()) < 3, "alternate rule: a side meets a corner"


@pytest.mark.parametrize("name", list(VARIANTS))
def test_many_random_games_obey_the_rules(name):
    variant = VARIANTS[name]
    start = tf.Game(variant).position
    n_games = 1000 if name in ("four", "four_alt", "two", "three") else 300
    for seed in range(n_games):
        moves, final = _core.random_game(start, seed)
        check_layout(variant, moves)
        assert final.is_over
        # No colour in play could still move at the end.
        for c in variant.colours:
            assert not final.has_move(int(c))
        for c in variant.colours:
            placed = sum(tf.PIECE_SIZES[tf.board(variant.side).placement_piece(p)] for k, p in moves if k == c)
            left = final.pieces_left(int(c))
            assert placed == final.placed_triangles(int(c))
            if left == 0:
                last = [p for k, p in moves if k == c][-1]
                assert final.score(int(c)) == (20 if tf.board(variant.side).placement_piece(last) == 21 else 15)
            else:
                assert final.score(int(c)) == placed - 110


@pytest.mark.parametrize("name", list(VARIANTS))
def test_turn_order_and_passes(name):
    variant = VARIANTS[name]
    start = tf.Game(variant).position
    for seed in range(50):
        moves, final = _core.random_game(start, 1000 + seed)
        # Replaying through the Python API gives the same colours in turn order.
        g = tf.Game(variant)
        in_play = [int(c) for c in variant.colours]
        prev = 3  # (blue comes first)
        for c, pid in moves:
            assert g.turn == c
            # The colours skipped since the last move are exactly the ones that cannot move.
            order = [(prev + k) % 4 for k in range(1, 5)]
            for k in order[:order.index(c)]:
                assert k not in in_play or len(g.legal_moves_of(k)) == 0, (seed, k)
            assert len(g.legal_moves_of(c)) > 0
            g.play(int(pid))
            prev = c
        assert g.is_over and g.position == final
        assert all(len(g.legal_moves_of(k)) == 0 for k in in_play)


@pytest.mark.parametrize("name", list(VARIANTS))
def test_legal_moves_equal_reference_model(name):
    variant = VARIANTS[name]
    side = variant.side
    b = tf.board(side)
    cells = cells_of(side)
    game_moves, _ = _core.random_game(tf.Game(variant).position, 77)
    checkpoints = {0, 1, 2, 3, 5, 9, len(game_moves) // 2, len(game_moves) - 3}
    ref = RefGame(side, tuple(int(c) for c in variant.colours), variant.alternate_rule,
                  START_RULE_NAMES[int(variant.start_rule)])
    g = tf.Game(variant)
    for k, (c, pid) in enumerate(game_moves):
        if k in checkpoints:
            for colour in variant.colours:
                ours = {frozenset(cells[x] for x in b.placement_cells(int(i))) for i in g.legal_moves_of(colour).ids}
                assert ours == ref.legal(int(colour)), (name, k, colour)
        ref.play(c, frozenset(cells[x] for x in b.placement_cells(pid)))
        g.play(int(pid))


@pytest.mark.parametrize("name", ["four", "four_alt", "two", "three"])
def test_undo_restores_exact_position(name):
    variant = VARIANTS[name]
    moves, _ = _core.random_game(tf.Game(variant).position, 5)
    g = tf.Game(variant)
    snapshots = []
    for c, pid in moves:
        snapshots.append((g.position.copy(), len(g.legal_moves), str(g)))
        g.play(int(pid))
    for snap, nlegal, text in reversed(snapshots):
        g.undo()
        assert g.position == snap
        assert len(g.legal_moves) == nlegal
        assert str(g) == text
    with pytest.raises(IndexError):
        g.undo()


def test_legal_moves_view_and_masks():
    g = tf.random_game(seed=11)
    while g.history and len(g.history) > 30:
        g.undo()
    lm = g.legal_moves
    ids = lm.ids
    assert ids.dtype == np.uint16
    assert len(lm) == ids.size == len(set(ids.tolist()))
    mask = g.legal_mask()
    assert mask.shape == (32131,) and mask.sum() == len(lm)
    assert np.array_equal(np.flatnonzero(mask), np.sort(ids))
    first = next(iter(lm))
    assert first in lm and str(first) in lm
    assert "zz99" not in lm
    occ = g.occupancy()
    assert occ.shape == (486,) and occ.dtype == np.int8
    planes = g.occupancy_planes()
    assert planes.shape == (4, 486) and planes.sum() == (occ >= 0).sum()


def test_random_games_stats_are_deterministic():
    a = tf.random_games_stats(games=200, seed=4)
    b = tf.random_games_stats(games=200, seed=4)
    assert a["moves"] == b["moves"] and a["score_sum"] == b["score_sum"]


def test_layout_checker_catches_broken_layouts():
    # The checker itself must fail on layouts that break each rule.
    b = tf.board(9)
    g = tf.Game()
    first = next(m for m in g.legal_moves if m.piece == "1")
    c0 = first.cell_indices[0]
    edge_nb = b.edge_neighbours(c0)[0]
    far = max(range(b.num_cells), key=lambda c: abs(c - c0))
    one = lambda c: b.find_placement([c])
    two = lambda c, d: b.find_placement([c, d])
    with pytest.raises(AssertionError, match="edge"):
        check_layout(tf.Variant.FOUR_PLAYER, [(0, first.id), (0, two(edge_nb, next(n for n in b.edge_neighbours(edge_nb) if n != c0)))])
    with pytest.raises(AssertionError, match="touch"):
        check_layout(tf.Variant.FOUR_PLAYER, [(0, first.id), (0, two(far, b.edge_neighbours(far)[0]))])
    with pytest.raises(AssertionError, match="overlap"):
        check_layout(tf.Variant.FOUR_PLAYER, [(0, first.id), (1, first.id)])
    with pytest.raises(AssertionError, match="start"):
        check_layout(tf.Variant.FOUR_PLAYER, [(0, one(far))])
    # The alternate rule's branch, and a piece placed twice.
    ids = lambda *names: b.find_placement([b.parse_cell(n) for n in names])
    bar, below = ids("q15", "r15", "s15"), ids("r16")
    check_layout(tf.Variant.FOUR_PLAYER, [(0, bar), (0, below)])
    with pytest.raises(AssertionError, match="alternate"):
        check_layout(tf.Variant.FOUR_PLAYER.with_alternate_rule(), [(0, bar), (0, below)])
    with pytest.raises(AssertionError, match="twice"):
        check_layout(tf.Variant.FOUR_PLAYER, [(0, ids("r15")), (0, ids("r16"))])
