"""Pattern puzzles: count every solution, side by side with the exact-cover libraries a user
would otherwise install (``exact-cover``: a C dancing-links solver; ``xcover``: Knuth's
algorithms with colours, numba). Each piece is used once, so all three count the same thing.

The libraries are timed on an exact-cover matrix built beforehand (rows: the placements inside
the region), so the like-for-like figure of ours is a prepared `tf.PatternPuzzle`'s `solve`
(placements found and ordered beforehand); `tf.solve_pattern` (preparation included, what a
one-off call costs) is timed too, and both ratios are printed. So is the count of classes, one
per symmetry of the region (``unique=True``), which no library offers.

    pip install ".[bench]"                # exact-cover, xcover (missing libraries are skipped)
    python bench/bench_pattern.py         # about a minute
    python bench/bench_pattern.py --quick # the small puzzles only
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

import trigon_fast as tf


def _rect(w: int, h: int) -> str:
    return "\n".join("x" * w for _ in range(h))


PUZZLES = [
    ("4x9 six hexiamonds", _rect(9, 4), ["I6", "L6", "V", "S", "P6", "F"]),
    ("3x14 seven pieces", _rect(14, 3), ["I6", "L6", "V", "S", "P6", "F", "W"]),
    ("hexagon of side 2", "  xxxxx\n xxxxxxx\n xxxxxxx\n  xxxxx", ["V", "P6", "F", "A6"]),
    ("2x19 five to one", _rect(19, 2), ["I5", "L5", "C5", "P5", "I4", "C4", "A4", "I3", "2", "1"]),
]
QUICK = 3


def _parallelogram(w: int, h: int) -> str:
    """w triangles a row, each row half a side left of the one above (so the top-left is up)."""
    return "\n".join(" " * (h - 1 - y + (h - 1) % 2) + "x" * w for y in range(h))


HEXIAMONDS = ["I6", "L6", "V", "S", "P6", "F", "W", "A6", "G", "Y", "X", "O"]
PUZZLES += [  # the classic 72-cell ones: 156 x 4 and 74 x 2 tilings (Knuth, TAOCP 4B), and none
    ("6x6 rhombus hexiamonds", _parallelogram(12, 6), HEXIAMONDS),
    ("4x9 hexiamonds", _parallelogram(18, 4), HEXIAMONDS),
    ("3x12 hexiamonds", _parallelogram(24, 3), HEXIAMONDS),
]
PUZZLES += [  # mixed sizes on a compact region: many solutions, little sharing of subproblems
    ("4x14 eleven mixed", _rect(14, 4), ["I6", "L6", "V", "S", "I5", "L5", "C5", "P5", "I4", "C4", "A4"]),
]
# Below this the libraries' time is mostly per-call cost (building their matrix, a Python call).
SUBSTANTIAL_S = 0.010


def exact_cover_matrix(region, pieces, side: int = 9) -> np.ndarray:
    """Rows: every placement of a piece inside the region; columns: region cells, then pieces."""
    board = tf.board(side)
    col = {c: i for i, c in enumerate(region)}
    names = [tf.PIECE_NAMES.index(p) for p in pieces]
    piece_col = {p: len(region) + i for i, p in enumerate(names)}
    rows = []
    cells_arr = board.placement_cells_array()
    piece_arr = board.placement_piece_array()
    for pid in range(board.num_placements):
        p = int(piece_arr[pid])
        if p not in piece_col:
            continue
        cells = [int(c) for c in cells_arr[pid] if c >= 0]
        if all(c in col for c in cells):
            row = np.zeros(len(region) + len(names), dtype=np.int32)
            row[[col[c] for c in cells]] = 1
            row[piece_col[p]] = 1
            rows.append(row)
    return np.array(rows, dtype=np.int32)


def _best_of(f, repeats: int = 3, min_total: float = 0.2):
    """(result, seconds): the fastest of a few runs, at least `repeats` and until `min_total`
    seconds have passed (so sub-millisecond calls are timed over many runs); one run when it
    takes over a second."""
    best = None
    spent = 0.0
    runs = 0
    while runs < repeats or spent < min_total:
        t0 = time.perf_counter()
        out = f()
        dt = time.perf_counter() - t0
        best = dt if best is None else min(best, dt)
        spent += dt
        runs += 1
        if dt > 1.0:
            break
    return out, best


def run(quick: bool = False) -> list:
    try:
        import exact_cover
    except ImportError:
        exact_cover = None
    try:
        import xcover
    except ImportError:
        xcover = None
    if xcover is not None:  # compile its numba code outside the timings
        sum(1 for _ in xcover.covers_bool(exact_cover_matrix(tf.parse_region(_rect(9, 4)), PUZZLES[0][2])))
    rows = []
    for name, picture, pieces in PUZZLES[:QUICK] if quick else PUZZLES:
        region = tf.parse_region(picture)
        r, ours = _best_of(lambda: tf.solve_pattern(region, pieces=pieces, all_solutions=True, max_solutions=0,
                                                    time_limit=600))
        r2, ours2 = _best_of(lambda: tf.solve_pattern(region, pieces=pieces, all_solutions=True, max_solutions=0,
                                                      time_limit=600, threads=2))
        assert r2.count == r.count
        puzzle = tf.PatternPuzzle(region, pieces=pieces)
        r3, prepared = _best_of(lambda: puzzle.solve(all_solutions=True, max_solutions=0, time_limit=600))
        assert r3.count == r.count
        # One per symmetry class (no library counts these): the classes, and what they cost.
        u, classes_s = _best_of(lambda: puzzle.solve(all_solutions=True, max_solutions=0, unique=True,
                                                     time_limit=600))
        entry = dict(puzzle=name, cells=len(region), solutions=r.count, method=r.method, trigon_fast_s=ours,
                     trigon_fast_2t_s=ours2, trigon_fast_prepared_s=prepared, classes=u.count,
                     trigon_fast_classes_s=classes_s)
        m = exact_cover_matrix(region, pieces)
        if exact_cover is not None:
            mm = m.astype(exact_cover.wrapper.DTYPE_FOR_ARRAY)
            n, entry["exact_cover_s"] = _best_of(lambda: int(exact_cover.get_solution_count(mm)))
            assert n == r.count, (name, n, r.count)
        if xcover is not None:
            n, entry["xcover_s"] = _best_of(lambda: sum(1 for _ in xcover.covers_bool(m)))
            assert n == r.count, (name, n, r.count)
        rows.append(entry)
        parts = [f"{name:22s} {len(region)} cells  {r.count} solutions  trigon_fast ({r.method}) "
                 f"{_ms(ours)} ({r.count / ours:,.0f}/s), prepared {_ms(prepared)}, 2 threads {_ms(ours2)}, "
                 f"{u.count} classes (unique=True) {_ms(classes_s)}"]
        for lib in ("exact_cover", "xcover"):
            if f"{lib}_s" in entry:
                t = entry[f"{lib}_s"]
                parts.append(f"{lib} {_ms(t)} ({r.count / t:,.0f}/s, x{t / prepared:.1f} prepared, x{t / ours:.1f} one-off)")
        print("  ".join(parts), flush=True)
    libs = [(min(e[k] for k in ("exact_cover_s", "xcover_s") if k in e), e) for e in rows
            if "exact_cover_s" in e or "xcover_s" in e]
    if libs:
        which = "the quick puzzles" if quick else "all puzzles"
        for key, what in (("trigon_fast_prepared_s", "prepared (like the libraries' prebuilt matrices)"),
                          ("trigon_fast_s", "one-off solve_pattern (preparation included)")):
            big = [t / e[key] for t, e in libs if t >= SUBSTANTIAL_S]  # (none among the quick ones)
            print(f"minimum ratio to the faster library, one thread, {what}: x{min(t / e[key] for t, e in libs):.1f}"
                  f" over {which}" + (f"; x{min(big):.1f} over those taking the faster library "
                                      f"{SUBSTANTIAL_S * 1e3:.0f} ms or more" if big else ""))
        print(f"total time over {which}: trigon_fast {_ms(sum(e['trigon_fast_s'] for _, e in libs))} "
              f"(prepared {_ms(sum(e['trigon_fast_prepared_s'] for _, e in libs))}), "
              f"the faster library {_ms(sum(t for t, _ in libs))}")
    return rows


def _ms(seconds: float) -> str:
    return f"{seconds * 1e3:.3f} ms" if seconds < 1 else f"{seconds:.2f} s"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args(argv)
    run(args.quick)
    return 0


def test_bench_pattern_count(benchmark):
    region = tf.parse_region(PUZZLES[0][1])
    r = benchmark(lambda: tf.solve_pattern(region, pieces=PUZZLES[0][2], all_solutions=True, max_solutions=0))
    assert r.exhausted and r.count > 0


def test_bench_pattern_count_prepared(benchmark):
    puzzle = tf.PatternPuzzle(PUZZLES[2][1], pieces=PUZZLES[2][2])
    r = benchmark(lambda: puzzle.solve(all_solutions=True, max_solutions=0))
    assert r.exhausted and r.count == 24


if __name__ == "__main__":
    sys.exit(main())
