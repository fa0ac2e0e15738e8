"""The pattern solver's common call (a list of cell indices, plain options) takes a shorter way
through the checks and the core: it must give what the general way gives, refuse what it
refuses with the same messages, and hand out results that share nothing with the caller's
lists or the prepared puzzle."""

import numpy as np
import pytest

import trigon_fast as tf
from trigon_fast.pattern import SolverError

HEXAGON = "  xxxxx\n xxxxxxx\n xxxxxxx\n  xxxxx"
PUZZLES = [
    (HEXAGON, ["V", "P6", "F", "A6"]),
    ("xxxxxxxxx\n xxxxxxxxx\nxxxxxxxxx\n xxxxxxxxx", ["I6", "L6", "V", "S", "I5", "L5"]),
    ("xxxxxx\nxxxxxx", ["I6", "C5", "1"]),  # (area 12: impossible, found while preparing)
    ("xxxxxxxx\n xxxxxxx", ["C4", "C4", "I4", "2"]),
]
OPTIONS = [
    dict(all_solutions=True, max_solutions=0),
    dict(all_solutions=True, max_solutions=3),
    dict(all_solutions=True, unique=True, max_solutions=5),
    dict(first=2),
    dict(all_solutions=True, method="mrv", max_solutions=0),
    dict(all_solutions=True, max_solutions=0, threads=2, time_limit=30),
]


def _summary(r):
    return (r.count, r.exhausted, r.impossible, r.nodes, r.symmetries, r.method, r.capped, r.side, r.interrupted,
            [[str(m) for m in s] for s in r.solutions], list(r.region))


@pytest.mark.parametrize("picture,pieces", PUZZLES)
@pytest.mark.parametrize("options", OPTIONS)
def test_common_call_gives_what_the_general_way_gives(picture, pieces, options):
    cells = tf.parse_region(picture)
    fast = tf.solve_pattern(cells, pieces=pieces, **options)
    # A tuple of cells, and a callback, each send the call the general way.
    general = tf.solve_pattern(tuple(cells), pieces=pieces, **options)
    watched = tf.solve_pattern(cells, pieces=tuple(pieces), callback=lambda p: None, **options)
    assert _summary(fast) == _summary(general) == _summary(watched)
    prepared = tf.PatternPuzzle(cells, pieces=pieces)
    assert _summary(prepared.solve(**options))[:3] == _summary(fast)[:3]
    assert _summary(prepared.solve(callback=lambda p: None, **options))[:3] == _summary(fast)[:3]


@pytest.mark.parametrize("cells", [[9999], [-1], [2**70], [-2**70], [0, 0], [True], [5.0], [[1]],
                                   [np.int64(2**40)], [None]])
def test_common_call_refuses_as_the_general_way_does(cells):
    with pytest.raises(SolverError) as fast:
        tf.solve_pattern(list(cells), pieces=["1"])
    with pytest.raises(SolverError) as general:
        tf.solve_pattern(tuple(cells), pieces=["1"])
    assert str(fast.value) == str(general.value)


@pytest.mark.parametrize("pieces", [["X9"], [[1]], {"1": -1}, {"1": 10**9}, [True], "X9,1"])
@pytest.mark.parametrize("cells", [[9999], [0, 0], [True], [0]])
def test_a_bad_region_is_named_before_bad_pieces_either_way(cells, pieces):
    with pytest.raises(SolverError) as fast:
        tf.solve_pattern(list(cells), pieces=pieces)
    with pytest.raises(SolverError) as general:
        tf.solve_pattern(tuple(cells), pieces=pieces)
    assert str(fast.value) == str(general.value)


def test_numpy_cell_indices_in_a_list_are_taken():
    cells = tf.parse_region(HEXAGON)
    plain = tf.solve_pattern(cells, pieces=["V", "P6", "F", "A6"], all_solutions=True)
    numpy_ints = tf.solve_pattern([np.int64(c) for c in cells], pieces=["V", "P6", "F", "A6"], all_solutions=True)
    assert _summary(plain) == _summary(numpy_ints) and plain.count == 24


@pytest.mark.parametrize("bad, message", [
    (dict(time_limit=0), "time_limit"), (dict(time_limit=float("nan")), "time_limit"),
    (dict(time_limit=10**400), "time_limit"), (dict(threads=0), "threads"), (dict(threads=True), "threads"),
    (dict(max_solutions=-1), "max_solutions"), (dict(first=0), "first"), (dict(method="dlx"), "method"),
    (dict(all_solutions=1), "all_solutions"), (dict(unique="yes"), "unique"), (dict(side=7), "side"),
])
def test_options_out_of_the_common_call_are_refused(bad, message):
    cells = tf.parse_region(HEXAGON)
    with pytest.raises(SolverError, match=message):
        tf.solve_pattern(cells, pieces=["V", "P6", "F", "A6"], **bad)
    if "side" not in bad:
        with pytest.raises(SolverError, match=message):
            tf.PatternPuzzle(cells, pieces=["V", "P6", "F", "A6"]).solve(**bad)


def test_results_share_no_list_with_the_caller_or_the_puzzle():
    cells = tf.parse_region(HEXAGON)
    mine = list(cells)
    r = tf.solve_pattern(mine, pieces=["V", "P6", "F", "A6"])
    assert r.region == cells and r.region is not mine
    mine.append(5)
    assert r.region == cells
    puzzle = tf.PatternPuzzle(cells, pieces=["V", "P6", "F", "A6"])
    for solve in (lambda: puzzle.solve(), lambda: puzzle.solve(callback=lambda p: None)):
        first = solve()
        first.region.append(7)
        assert puzzle.region == cells and solve().region == cells
        assert repr(puzzle) == repr(tf.PatternPuzzle(cells, pieces=["V", "P6", "F", "A6"]))


def test_piece_lists_are_cached_by_name_only():
    # 1 == True as a key: a list of indices must not take a cached flag's entry, nor the reverse.
    cells = tf.parse_region(HEXAGON)
    names = ["V", "P6", "F", "A6"]
    indices = [tf.PIECE_NAMES.index(n) for n in names]
    assert 1 not in indices and tf.PIECE_NAMES[1] == "L6"
    by_name = _summary(tf.solve_pattern(cells, pieces=names, all_solutions=True))
    assert by_name[0] == 24
    assert _summary(tf.solve_pattern(cells, pieces=indices, all_solutions=True)) == by_name
    assert _summary(tf.solve_pattern(cells, pieces=tuple(names), all_solutions=True)) == by_name
    assert _summary(tf.solve_pattern(cells, pieces=names[:2] + indices[2:], all_solutions=True)) == by_name
    # L6 by index, then by a flag that equals it: refused, however the first was cached.
    assert tf.solve_pattern(cells, pieces=[1, "1"]).impossible
    for flagged in ([True, "1"], (True, "1"), [True]):
        with pytest.raises(SolverError):
            tf.solve_pattern(cells, pieces=flagged)
    with pytest.raises(SolverError, match="X9"):
        tf.solve_pattern(cells, pieces=["L6", "X9"])
    with pytest.raises(SolverError):
        tf.solve_pattern(cells, pieces=["L6", ["1"]])
    assert tf.solve_pattern(cells, pieces=names).count == 1  # (the cache still answers)
