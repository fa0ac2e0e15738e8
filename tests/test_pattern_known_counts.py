"""Pattern counting on the paths the small brute-force pictures never reach: the region's
symmetries and several threads (used only once a count outgrows a short probe), the MRV search's
weighted root, and the no-piece-fits check. Every expected number is independent of the solver:
MacMahon's formula, published hexiamond counts, and region symmetries found by explicit geometry."""

from __future__ import annotations

from fractions import Fraction

import pytest

import trigon_fast as tf
from trigon_fast import _core

from reference_rules import lattice_symmetry


def _macmahon(a, b, c):
    """Lozenge tilings of the a, b, c, a, b, c hexagon (MacMahon's product formula)."""
    n = Fraction(1)
    for i in range(1, a + 1):
        for j in range(1, b + 1):
            for k in range(1, c + 1):
                n *= Fraction(i + j + k - 1, i + j + k - 2)
    return int(n)


def _hexagon(side):
    rows = [2 * side + 1 + 2 * i for i in range(side)]
    widths = rows + rows[::-1]
    lead = [2 * side - 2 - i for i in range(side)]
    leads = lead + lead[::-1]
    return tf.parse_region("\n".join(" " * s + "x" * w for s, w in zip(leads, widths)))


def _parallelogram(width, height):
    return tf.parse_region("\n".join(" " * (height - 1 - y + (height - 1) % 2) + "x" * width for y in range(height)))


def _region_symmetries(region):
    """How many of the 12 lattice symmetries (with a translation) map the region onto itself."""
    board = tf.board(9)
    lat = sorted(board.lattice(c) for c in region)
    n = 0
    for k in range(12):
        img = sorted(lattice_symmetry(c, k) for c in lat)
        if img[0][2] != lat[0][2]:
            continue
        da, db = lat[0][0] - img[0][0], lat[0][1] - img[0][1]
        n += sorted((a + da, b + db, t) for a, b, t in img) == lat
    return n


@pytest.mark.parametrize("side", [2, 3])
def test_lozenge_tilings_of_a_hexagon_match_macmahon(side):
    region = _hexagon(side)
    assert len(region) == 6 * side * side
    expected = _macmahon(side, side, side)
    counted = tf.solve_pattern(region, pieces={"2": len(region) // 2}, all_solutions=True, max_solutions=0)
    assert counted.exhausted and counted.count == expected
    listed = tf.solve_pattern(region, pieces={"2": len(region) // 2}, all_solutions=True, max_solutions=10**6)
    assert listed.count == expected and len({frozenset(m.id for m in s) for s in listed.solutions}) == expected


@pytest.mark.parametrize("side", [4, 5])
def test_lozenge_hexagon_count_with_symmetries_and_threads(side):
    # Side 5 outgrows the probe: counted with the hexagon's symmetries (all 75 pieces are copies
    # of one piece, so none may serve as the weighted root) and split over threads.
    region = _hexagon(side)
    assert _region_symmetries(region) == 12
    expected = _macmahon(side, side, side)
    for threads in (1, 2, 3):
        for method in ("frontier", "mrv"):
            r = tf.solve_pattern(region, pieces={"2": len(region) // 2}, all_solutions=True, max_solutions=0,
                                 threads=threads, method=method)
            assert r.exhausted and r.count == expected, (threads, method)


@pytest.mark.parametrize("width,height,classes", [(18, 4, 74), (12, 6, 156)])
def test_hexiamond_counts_on_every_method_and_thread_count(width, height, classes):
    # Knuth, TAOCP 4B, ex. 7.2.2.1-309: 74 and 156 tilings up to symmetry, none of them symmetric,
    # so the plain count is the classes times the region's symmetries.
    region = _parallelogram(width, height)
    nsym = _region_symmetries(region)
    assert nsym == (2 if width != 2 * height else 4)
    hexiamonds = list(tf.PIECE_NAMES[:12])
    for method in ("frontier", "mrv"):
        for threads in (1, 3):
            r = tf.solve_pattern(region, pieces=hexiamonds, all_solutions=True, max_solutions=0, method=method,
                                 threads=threads, time_limit=60)
            assert r.exhausted and r.count == classes * nsym, (method, threads)
            assert r.symmetries == 1  # only unique=True uses (and reports) the region's symmetries
    u = tf.solve_pattern(region, pieces=hexiamonds, all_solutions=True, unique=True, method="mrv", time_limit=60)
    assert u.exhausted and u.count == classes and u.symmetries == nsym


def test_a_cell_no_piece_fits_is_reported_before_searching():
    # The big triangle (A4) has the area of an I4 and is one part, but no straight strip lies in it.
    board = tf.board(9)
    a4 = tf.PIECE_NAMES.index("A4")
    region = sorted(board.placement_cells(next(i for i, p in enumerate(board.placement_piece_array()) if p == a4)))
    assert len(region) == 4
    lat = {board.lattice(c) for c in region}
    for form in _core.piece_orientations(tf.PIECE_NAMES.index("I4")):
        a0, b0, t0 = form[0]
        for a, b, t in lat:
            if t == t0:
                assert not all((fa - a0 + a, fb - b0 + b, ft) in lat for fa, fb, ft in form)
    for call in (lambda: tf.solve_pattern(region, pieces={"I4": 1}, all_solutions=True),
                 lambda: tf.PatternPuzzle(region, pieces={"I4": 1}).solve(all_solutions=True)):
        r = call()
        assert r.count == 0 and r.exhausted and r.impossible and "no piece fits" in r.impossible
        assert any(board.cell_name(c) in r.impossible for c in region)
    p = tf.PatternPuzzle(region, pieces={"I4": 1})
    assert p.num_placements == 0 and "no piece fits" in p.impossible
