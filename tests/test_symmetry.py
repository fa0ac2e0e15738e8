"""The board's 12 symmetries: permutations of cells and placements that keep the board's
adjacencies and start cells, form a group, and carry legal games to legal games with the same
scores, occupancy and legal moves (every variant, start rule and the alternate rule)."""

import itertools

import numpy as np
import pytest

import trigon_fast as tf
from trigon_fast import symmetry
from trigon_fast.symmetry import NUM_SYMMETRIES, cell_permutation, placement_permutation

SIDES = (9, 8)
KS = range(NUM_SYMMETRIES)


def _neighbour_pairs(b, of):
    return {(a, x) for a in range(b.num_cells) for x in of(a)}


@pytest.mark.parametrize("side", SIDES)
def test_cell_permutations_keep_the_board(side):
    b = tf.board(side)
    edges = _neighbour_pairs(b, b.edge_neighbours)
    corners = _neighbour_pairs(b, b.vertex_neighbours)
    starts = set(b.start_cells)
    perms = set()
    for k in KS:
        p = cell_permutation(k, side)
        assert p.shape == (b.num_cells,) and sorted(p.tolist()) == list(range(b.num_cells))
        assert {(int(p[a]), int(p[x])) for a, x in edges} == edges
        assert {(int(p[a]), int(p[x])) for a, x in corners} == corners
        assert {int(p[s]) for s in starts} == starts
        same = [b.is_up(int(p[c])) == b.is_up(c) for c in range(b.num_cells)]
        assert all(same) if k % 2 == 0 else not any(same)  # even k keep up triangles up, odd ones flip all
        perms.add(tuple(p.tolist()))
    assert len(perms) == NUM_SYMMETRIES  # twelve different symmetries
    assert cell_permutation(0, side).tolist() == list(range(b.num_cells))


@pytest.mark.parametrize("side", SIDES)
def test_symmetries_form_a_group(side):
    perms = {k: cell_permutation(k, side) for k in KS}
    by_perm = {tuple(p.tolist()): k for k, p in perms.items()}
    for j, k in itertools.product(KS, KS):
        assert tuple(perms[j][perms[k]].tolist()) in by_perm  # closed under composition
    for k in KS:
        assert perms[symmetry.inverse(k)][perms[k]].tolist() == list(range(len(perms[k])))
    # k % 6 turns: the turn by 60 degrees repeated; k >= 6: reflections, each its own inverse
    turn = perms[1]
    p = np.arange(len(turn))
    for k in range(6):
        assert perms[k].tolist() == p.tolist()
        p = turn[p]
    assert p.tolist() == list(range(len(turn)))
    for k in range(6, 12):
        assert perms[k][perms[k]].tolist() == list(range(len(turn)))


@pytest.mark.parametrize("side", SIDES)
def test_placement_permutations_move_the_cells(side):
    b = tf.board(side)
    cells = b.placement_cells_array()
    pieces = b.placement_piece_array()
    for k in (1, 3, 7, 11):
        cp, pp = cell_permutation(k, side), placement_permutation(k, side)
        assert sorted(pp.tolist()) == list(range(b.num_placements))
        for pid in range(0, b.num_placements, 97):
            mine = sorted(int(cp[c]) for c in cells[pid] if c >= 0)
            assert sorted(int(c) for c in cells[pp[pid]] if c >= 0) == mine
            assert pieces[pp[pid]] == pieces[pid]
            m = tf.Move(pid, side).transform(k)
            assert m.id == pp[pid] and m.piece == tf.Move(pid, side).piece and m.side == side


VARIANTS = [tf.Variant.FOUR_PLAYER, tf.Variant.TWO_PLAYER, tf.Variant.THREE_PLAYER, tf.Variant.TEAMS,
            tf.Variant.SOLO, tf.Variant.FOUR_PLAYER.with_alternate_rule(),
            tf.Variant("three_player", pentobi_compatible=True), tf.Variant("two_player", pentobi_compatible=True)]


@pytest.mark.parametrize("variant", VARIANTS, ids=repr)
def test_games_stay_legal_with_the_same_scores_and_moves(variant):
    side = variant.side
    for seed in range(2):
        g = tf.random_game(variant, seed)  # a finished game, and the same game half way
        h = g.copy()
        while len(h.history) > len(g.history) // 2:
            h.undo()
        for game in (g, h):
            for k in KS:
                t = game.transform(k)  # replayed with every placement checked
                assert t.variant == game.variant and t.turn == game.turn and t.is_over == game.is_over
                assert t.scores() == game.scores()
                assert [c for c, *_ in t.history] == [c for c, *_ in game.history]
                assert [m for _, m, *_ in t.history] == [m.transform(k) for _, m, *_ in game.history]
                occ = game.occupancy()
                assert np.array_equal(symmetry.transform_cells(occ, k, side), t.occupancy())
                assert np.array_equal(symmetry.transform_cells(game.occupancy_planes(), k, side), t.occupancy_planes())
                for c in variant.colours:
                    assert np.array_equal(symmetry.transform_placements(game.legal_mask(c), k, side), t.legal_mask(c))
                back = t.transform(symmetry.inverse(k))
                assert back == game and back.history == game.history


def test_first_moves_of_the_rulebook_start_rules_map_to_legal_ones():
    # two players: the second colour of a player opposite its first; three: every other cell
    for variant in (tf.Variant.TWO_PLAYER, tf.Variant.THREE_PLAYER):
        g = tf.Game(variant)
        for _ in range(len(variant.colours) + 1):
            g.play(sorted(g.legal_moves, key=lambda m: m.id)[len(g.legal_moves) // 2])
        for k in KS:
            t = g.transform(k)
            for c in variant.colours:
                assert {m.transform(k) for m in g.legal_moves_of(c)} == set(t.legal_moves_of(c))


def test_setups_and_turns_are_transformed_too():
    g = tf.Game(tf.Variant.FOUR_PLAYER)
    g.setup("red", "q15,r15,p16,q16,o17,p17", to_move="green")
    g.play(next(iter(g.legal_moves)))
    g.set_turn("yellow")
    t = g.transform(4)
    assert t.turn == tf.Colour.YELLOW and eval(repr(t), vars(tf)) == t
    assert t.history == [(c, m.transform(4)) for c, m in g.history]
    assert np.array_equal(symmetry.transform_cells(g.occupancy(), 4), t.occupancy())


def test_array_helpers_take_any_axis_and_leave_the_input_alone():
    g = tf.random_game(tf.Variant.FOUR_PLAYER, 3)
    planes = g.occupancy_planes().astype(np.float32)  # (4, cells)
    before = planes.copy()
    by_last = symmetry.transform_cells(planes, 5)
    by_first = symmetry.transform_cells(planes.T, 5, axis=0)
    assert np.array_equal(by_last, by_first.T) and np.array_equal(planes, before)
    assert by_last.dtype == planes.dtype
    batch = np.stack([g.legal_mask(c) for c in range(4)])  # (4, placements)
    assert np.array_equal(symmetry.transform_placements(batch, 2)[1], symmetry.transform_placements(batch[1], 2))


@pytest.mark.parametrize("k", [-1, 12, 1.5, True, "3", None])
def test_bad_symmetry_is_a_value_error(k):
    with pytest.raises(tf.TrigonError):
        tf.Move.from_str("r15").transform(k)
    with pytest.raises(tf.TrigonError):
        tf.Game().transform(k)
    with pytest.raises(ValueError):
        symmetry.cell_permutation(k)


def test_bad_arrays_and_sides_are_value_errors():
    with pytest.raises(tf.TrigonError, match="one entry per cell"):
        symmetry.transform_cells(np.zeros(10), 1)
    with pytest.raises(tf.TrigonError, match="one entry per placement"):
        symmetry.transform_placements(np.zeros(486), 1)
    with pytest.raises(tf.TrigonError):
        symmetry.transform_cells(np.zeros(486), 1, axis=1)
    with pytest.raises(tf.TrigonError):
        symmetry.transform_cells(3.0, 1)
    with pytest.raises(tf.TrigonError):
        symmetry.cell_permutation(1, side=7)
    assert symmetry.transform_cells(np.zeros(384), 1, side=8).shape == (384,)


def test_cached_permutations_are_read_only():
    p = cell_permutation(2)
    with pytest.raises(ValueError):
        p[0] = 5
    assert cell_permutation(2)[0] == p[0]
