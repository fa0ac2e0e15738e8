"""Fuzz target: pattern puzzles (parse_region, solve_pattern, PatternPuzzle, PatternResult.diagram).

    python fuzz/fuzz_pattern.py fuzz/corpus/pattern -max_total_time=20

Regions come as text pictures (mostly of x, ., spaces and line ends, sometimes any text), as
comma-separated cell names or as index lists; pieces as names, indices or a count mapping. Bad
input must raise a ValueError; every solution returned must cover the region exactly with the
pieces asked for, checked here from the moves' cells, not by the solver.
"""

from collections import Counter

import atheris

import fuzz_common
import trigon_fast as tf
from trigon_fast.move import PIECE_NAMES, piece_index

_PICTURE_CHARS = "xx..  \n#*o@X-"


def _picture(fdp) -> str:
    if fdp.ConsumeIntInRange(0, 7) == 0:
        return fdp.ConsumeUnicodeNoSurrogates(fdp.ConsumeIntInRange(0, 120))
    return "".join(_PICTURE_CHARS[b % len(_PICTURE_CHARS)] for b in fdp.ConsumeBytes(fdp.ConsumeIntInRange(0, 90)))


def _region(fdp, side: int):
    kind = fdp.ConsumeIntInRange(0, 2)
    if kind == 0:
        return _picture(fdp)
    b = tf.board(side)
    cells = [fdp.ConsumeIntInRange(-2, b.num_cells + 1) for _ in range(fdp.ConsumeIntInRange(0, 24))]
    if kind == 1:
        return cells  # indices, possibly out of range or repeated
    return ",".join(b.cell_name(c) if 0 <= c < b.num_cells else str(c) for c in cells)


def _small_pieces(fdp, region, side: int):
    """Triangles and diamonds of the region's area (so that many puzzles have solutions), or
    None when the region is refused."""
    try:
        n = len(tf.PatternPuzzle(region, ["1"], side=side).region)
    except ValueError:
        return None
    diamonds = fdp.ConsumeIntInRange(0, n // 2)
    return ["2"] * diamonds + ["1"] * (n - 2 * diamonds)


def _pieces(fdp):
    kind = fdp.ConsumeIntInRange(0, 3)
    if kind == 0:
        return None  # one colour's 22
    if kind == 1:
        return fdp.ConsumeUnicodeNoSurrogates(fdp.ConsumeIntInRange(0, 30))
    names = [PIECE_NAMES[fdp.ConsumeIntInRange(0, len(PIECE_NAMES) - 1)] for _ in range(fdp.ConsumeIntInRange(0, 8))]
    if kind == 2:
        return names
    return {n: fdp.ConsumeIntInRange(-1, 3) for n in names}


def _asked_counts(pieces) -> Counter:
    """Piece name -> copies, as the caller asked (for inputs that were accepted)."""
    if pieces is None:
        return Counter(PIECE_NAMES)
    if isinstance(pieces, str):
        return Counter(PIECE_NAMES[piece_index(p.strip())] for p in pieces.split(","))
    if isinstance(pieces, dict):
        return Counter({p: n for p, n in pieces.items() if n})
    return Counter(pieces)


def check_one(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    side = 8 if fdp.ConsumeBool() else 9
    region = _region(fdp, side)
    pieces = _small_pieces(fdp, region, side) if fdp.ConsumeBool() else _pieces(fdp)
    all_solutions = fdp.ConsumeBool()
    unique = fdp.ConsumeBool()
    method = ("auto", "frontier", "mrv")[fdp.ConsumeIntInRange(0, 2)]
    max_solutions = fdp.ConsumeIntInRange(0, 4)
    first = fdp.ConsumeIntInRange(1, 4)
    prepared = fdp.ConsumeBool()
    try:
        if prepared:
            p = tf.PatternPuzzle(region, pieces, side=side)
            r = p.solve(all_solutions, unique=unique, max_solutions=max_solutions, time_limit=0.05, method=method,
                        first=first)
        else:
            r = tf.solve_pattern(region, pieces, all_solutions, unique=unique, max_solutions=max_solutions,
                                 time_limit=0.05, side=side, method=method, first=first)
    except ValueError:
        return
    cells = set(r.region)
    assert len(cells) == len(r.region)
    if r.impossible:
        assert r.count == 0 and not r.solutions and r.exhausted, r
    assert len(r.solutions) <= max(r.count, 0) and len(r.solutions) <= max_solutions, r
    if not all_solutions:  # stopped at the first `first` (found one by one: never past them)
        assert r.count <= first and (r.count == first or r.exhausted or r.interrupted or r.seconds >= 0.04), r
    want = _asked_counts(pieces)
    for sol in r.solutions:
        covered = [c for m in sol for c in m.cell_indices]
        assert len(covered) == len(set(covered)) and set(covered) == cells, (region, pieces, sol)
        assert Counter(m.piece for m in sol) == want, (pieces, sol)
        assert all(m.side == side for m in sol)
    if isinstance(pieces, list) and set(pieces) == {"1"} and len(pieces) == len(cells) and r.exhausted:
        assert r.count == 1, r  # triangles alone tile a region one way
    if r.solutions:
        picture = r.diagram(0)
        assert sum(ch not in " \n" for ch in picture) == len(cells)


if __name__ == "__main__":
    fuzz_common.main(check_one)
