"""Board geometry against the conventions, and the independent reference model."""

import pytest

import trigon_fast as tf
from reference_rules import cells_of, geometry, is_up, name

SIDES = [9, 8]


@pytest.mark.parametrize("side,count", [(9, 486), (8, 384)])
def test_cell_counts(side, count):
    b = tf.board(side)
    assert b.num_cells == count
    assert len(cells_of(side)) == count
    assert b.width == 4 * side - 1 and b.height == 2 * side


@pytest.mark.parametrize("side", SIDES)
def test_cells_coordinates_names_orientation(side):
    b = tf.board(side)
    ref = cells_of(side)
    assert [b.cell_xy(i) for i in range(b.num_cells)] == list(ref)
    for i, cell in enumerate(ref):
        assert b.is_up(i) == is_up(side, cell)
        assert b.cell_name(i) == name(side, cell)
        assert b.parse_cell(name(side, cell)) == i
        assert b.parse_cell(name(side, cell).upper()) == i


def test_row_lengths_side9():
    b = tf.board(9)
    rows = {}
    for i in range(b.num_cells):
        rows.setdefault(b.cell_xy(i)[1], 0)
        rows[b.cell_xy(i)[1]] += 1
    assert [rows[y] for y in range(18)] == list(range(19, 37, 2)) + list(range(35, 18, -2))


@pytest.mark.parametrize("side", SIDES)
def test_neighbours_match_reference(side):
    b = tf.board(side)
    cellset, corner, by_corner, edge, touch = geometry(side)
    idx = {c: i for i, c in enumerate(cells_of(side))}
    inner = 0
    for c, i in idx.items():
        assert {idx[o] for o in edge[c]} == set(b.edge_neighbours(i))
        assert {idx[o] for o in touch[c]} == set(b.vertex_neighbours(i))
        if len(edge[c]) == 3 and len(touch[c]) == 9:
            inner += 1
    assert inner > 0


@pytest.mark.parametrize("side", SIDES)
def test_vertices_and_fans(side):
    b = tf.board(side)
    assert b.num_vertices == len(geometry(side)[2])
    six = 0
    for v in range(b.num_vertices):
        fan = b.vertex_fan(v)
        assert 1 <= len(fan) <= 6
        six += len(fan) == 6
        for c in fan:
            assert v in b.cell_vertices(c)
    assert six == 3 * (side - 1) ** 2 + 3 * (side - 1) + 1  # inner vertices of a side-s hexagon


def test_start_cells():
    assert [tf.board(9).cell_name(c) for c in tf.board(9).start_cells] == ["r15", "z12", "z7", "r4", "j7", "j12"]
    assert [tf.board(8).cell_name(c) for c in tf.board(8).start_cells] == ["p14", "x11", "x6", "p3", "h6", "h11"]


@pytest.mark.parametrize("side", SIDES)
def test_start_cells_opposite_through_centre(side):
    b = tf.board(side)
    ring = b.start_cells
    # The 180-degree rotation is symmetry 3 (three 60-degree turns).
    for i in range(6):
        assert b.symmetric_cell(3, ring[i]) == ring[(i + 3) % 6]


@pytest.mark.parametrize("side", SIDES)
def test_symmetries_preserve_adjacency(side):
    b = tf.board(side)
    images = set()
    for k in range(12):
        perm = [b.symmetric_cell(k, c) for c in range(b.num_cells)]
        assert sorted(perm) == list(range(b.num_cells))
        images.add(tuple(perm))
        for c in range(0, b.num_cells, 7):
            assert {perm[n] for n in b.edge_neighbours(c)} == set(b.edge_neighbours(perm[c]))
    assert len(images) == 12


@pytest.mark.parametrize("text", ["", "r", "15", "r0", "r19", "r015", "zz1", "a1", "!!", "r1 5", "ak10", "r-1"])
def test_bad_cell_names(text):
    assert tf.board(9).parse_cell(text) == -1
