"""Pieces and the placement table: exact counts, shapes, names, symmetry."""

import collections

import pytest

import trigon_fast as tf
from trigon_fast import _core
from reference_rules import cells_of, placements, shape_key

PENTOBI_SHAPES = {  # Pentobi's create_pieces_trigon coordinates ((0, 0) an up triangle)
    "I6": [(1, -1), (2, -1), (0, 0), (1, 0), (-1, 1), (0, 1)],
    "L6": [(1, -1), (2, -1), (0, 0), (1, 0), (0, 1), (1, 1)],
    "V": [(-2, -1), (-1, -1), (-1, 0), (0, 0), (1, 0), (2, 0)],
    "S": [(-1, -1), (0, -1), (-1, 0), (0, 0), (-1, 1), (0, 1)],
    "P6": [(1, -1), (0, 0), (1, 0), (2, 0), (-1, 1), (0, 1)],
    "F": [(0, 0), (1, 0), (0, 1), (1, 1), (2, 1), (1, 2)],
    "W": [(1, -1), (-1, 0), (0, 0), (1, 0), (2, 0), (3, 0)],
    "A6": [(1, -1), (0, 0), (1, 0), (2, 0), (0, 1), (2, 1)],
    "G": [(1, -1), (0, 0), (1, 0), (0, 1), (1, 1), (2, 1)],
    "Y": [(-1, -1), (-1, 0), (0, 0), (1, 0), (-1, 1), (0, 1)],
    "X": [(-1, 0), (0, 0), (1, 0), (-1, 1), (0, 1), (1, 1)],
    "O": [(-1, -1), (0, -1), (1, -1), (-1, 0), (0, 0), (1, 0)],
    "I5": [(1, -1), (0, 0), (1, 0), (-1, 1), (0, 1)],
    "L5": [(1, -1), (0, 0), (1, 0), (0, 1), (1, 1)],
    "C5": [(0, 0), (1, 0), (0, 1), (1, 1), (2, 1)],
    "P5": [(1, -1), (0, 0), (1, 0), (2, 0), (0, 1)],
    "I4": [(0, 0), (1, 0), (-1, 1), (0, 1)],
    "C4": [(0, 0), (1, 0), (0, 1), (1, 1)],
    "A4": [(1, -1), (0, 0), (1, 0), (2, 0)],
    "I3": [(1, -1), (0, 0), (1, 0)],
    "2": [(0, 0), (1, 0)],
    "1": [(0, 0)],
}


def test_piece_names_and_sizes():
    assert tf.PIECE_NAMES == ("I6", "L6", "V", "S", "P6", "F", "W", "A6", "G", "Y", "X", "O",
                              "I5", "L5", "C5", "P5", "I4", "C4", "A4", "I3", "2", "1")
    counts = collections.Counter(tf.PIECE_SIZES)
    assert [counts[k] for k in range(1, 7)] == [1, 1, 1, 3, 4, 12]
    assert sum(tf.PIECE_SIZES) == 110


def test_orientation_counts():
    per_piece = [len(_core.piece_orientations(p)) for p in range(22)]
    by_size = collections.Counter()
    for p, n in enumerate(per_piece):
        by_size[tf.PIECE_SIZES[p]] += n
    # Fixed polyiamonds (OEIS A001420): 2, 3, 6, 14, 36, 94.
    assert [by_size[k] for k in range(1, 7)] == [2, 3, 6, 14, 36, 94]
    assert per_piece[tf.PIECE_NAMES.index("O")] == 1
    assert per_piece[tf.PIECE_NAMES.index("1")] == 2


@pytest.mark.parametrize("name", list(PENTOBI_SHAPES))
def test_names_match_pentobi_shapes(name):
    # Put Pentobi's shape on the big board around r9 (an up cell in Pentobi's convention) and parse.
    b = tf.board(9)
    ox, oy = b.cell_xy(b.parse_cell("r9"))
    assert b.is_up(b.parse_cell("r9"))
    cells = [b.cell_name(b.cell_at(ox + x, oy + y)) for x, y in PENTOBI_SHAPES[name]]
    assert tf.Move.from_str(",".join(cells)).piece == name


@pytest.mark.parametrize("side,count", [(9, 32131), (8, 24859)])
def test_placement_counts(side, count):
    assert tf.board(side).num_placements == count


@pytest.mark.parametrize("side", [9, 8])
def test_placements_equal_all_connected_sets(side):
    # Independent enumeration: every edge-connected set of 1..6 cells is exactly one placement.
    b = tf.board(side)
    idx = {c: i for i, c in enumerate(cells_of(side))}
    ref = {frozenset(idx[c] for c in p) for p in placements(side)}
    ours = {frozenset(b.placement_cells(i)) for i in range(b.num_placements)}
    assert len(ref) == b.num_placements
    assert ours == ref


def test_placement_cells_on_board_and_connected():
    b = tf.board(9)
    arr = b.placement_cells_array()
    assert arr.shape == (32131, 6)
    for pid in range(0, b.num_placements, 13):
        cells = b.placement_cells(pid)
        assert all(0 <= c < b.num_cells for c in cells)
        seen = {cells[0]}
        stack = [cells[0]]
        while stack:
            c = stack.pop()
            for n in b.edge_neighbours(c):
                if n in cells and n not in seen:
                    seen.add(n)
                    stack.append(n)
        assert seen == set(cells)
        assert tf.PIECE_SIZES[b.placement_piece(pid)] == len(cells)


@pytest.mark.parametrize("side", [9, 8])
def test_table_invariant_under_symmetries(side):
    b = tf.board(side)
    for k in range(12):
        images = {b.symmetric_placement(k, pid) for pid in range(b.num_placements)}
        assert len(images) == b.num_placements
    for pid in range(0, b.num_placements, 101):
        for k in range(12):
            img = b.symmetric_placement(k, pid)
            assert sorted(b.symmetric_cell(k, c) for c in b.placement_cells(pid)) == sorted(b.placement_cells(img))
            assert b.placement_piece(img) == b.placement_piece(pid)


@pytest.mark.parametrize("side", [9, 8])
def test_per_piece_placement_counts_match_the_reference_model(side):
    # Each piece's count, not only the total: a table that lost one piece's placements and
    # doubled another's would keep the sum.
    b = tf.board(side)
    ref = collections.Counter(shape_key(side, p) for p in placements(side))
    assert sorted(b.piece_placements(p) for p in range(22)) == sorted(ref.values())
    assert sum(ref.values()) == {9: 32131, 8: 24859}[side]


def test_first_moves_counts():
    for variant in (tf.Variant.FOUR_PLAYER, tf.Variant.THREE_PLAYER):
        g = tf.Game(variant)
        moves = list(g.legal_moves)
        assert len(moves) == 2478
        sizes = collections.Counter(m.size for m in moves)
        assert [sizes[k] for k in range(1, 7)] == [6, 18, 54, 168, 540, 1692]
        starts = set(g.board.start_cells)
        per_start = collections.Counter(next(c for c in m.cell_indices if c in starts) for m in moves)
        assert set(per_start.values()) == {413}


def test_table_memory_and_build_time_reported():
    assert 0 < tf.board(9).memory_bytes < 64 * 2**20
    assert _core.build_table_seconds(9) > 0
