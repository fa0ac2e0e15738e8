r"""Pattern puzzles: cover a region of the board exactly with a multiset of pieces.

>>> import trigon_fast as tf
>>> r = tf.solve_pattern(["a9", "b9", "c9", "d9"], pieces=["2", "2"], all_solutions=True)
>>> r.count, r.exhausted
(1, True)

A puzzle solved again and again (other options, other threads, a GUI's redraws) is prepared once:

>>> hexagon = "  xxxxx\n xxxxxxx\n xxxxxxx\n  xxxxx"
>>> p = tf.PatternPuzzle(hexagon, pieces=["V", "P6", "F", "A6"])
>>> p.num_placements, p.solve(all_solutions=True).count, p.solve(all_solutions=True, unique=True).count
(144, 24, 2)
"""

from __future__ import annotations

import operator
from collections import Counter, abc
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

from . import _args, _core
from ._args import IntLike
from .move import PIECE_NAMES, CellLike, Move, PieceLike, board, cell_of_name, piece_index
from .solver import SolverError, _check_seconds

__all__ = ["PatternPuzzle", "PatternResult", "PatternProgress", "parse_region", "solve_pattern"]

# A region: cells as names or indices, a comma-separated string of names, or a text picture.
Region = Union[str, Iterable[CellLike]]
# Pieces to place: names or indices (repeats allowed) as a list or a comma-separated string, or a
# mapping piece -> copies.
Pieces = Union[str, Iterable[PieceLike], Mapping[PieceLike, IntLike]]

_FILLED = set("xX#*oO@")
_MAX_COPIES = 486  # cells of the big board: no puzzle takes more copies of a piece
_LABELS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


@dataclass(frozen=True)
class PatternProgress:
    """What a pattern search has done so far, as its ``callback`` sees it: ``nodes`` searched and
    ``solutions`` counted (a lower bound: where the region's symmetries share the work, a
    solution counts once per orbit until the end) in ``seconds``."""

    nodes: int
    solutions: int
    seconds: float

    @property
    def nodes_per_second(self) -> float:
        """Nodes per second so far (0.0 before any measurable time)."""
        return self.nodes / self.seconds if self.seconds > 0 else 0.0


PatternCallback = Callable[[PatternProgress], object]


def _watch(callback: Optional[PatternCallback], ctrl_c: List[bool],
           raised: Optional[List[BaseException]] = None) -> Optional[Callable[[Dict[str, Any]], bool]]:
    """The core's callback for ``callback``, which sees the core's dict as a PatternProgress."""
    return _args.progress_callback(
        callback, lambda d: PatternProgress(nodes=int(d["nodes"]), solutions=int(d["solutions"]), seconds=float(d["seconds"])),
        ctrl_c, SolverError, raised)


class SolutionIndexError(SolverError, IndexError):
    """A solution index that is not an integer in range (an ``IndexError`` too, as a list's)."""


@dataclass(repr=False)
class PatternResult:
    """The answer of :func:`solve_pattern`: ``count`` solutions (exact when ``exhausted``),
    up to ``max_solutions`` of them in ``solutions``, or the reason it is ``impossible``."""

    count: int  # solutions found (symmetry classes with unique=True); exact when exhausted (and not capped)
    solutions: List[List[Move]]  # up to max_solutions of them
    exhausted: bool  # the whole search space was covered: count is exact, 0 means impossible
    impossible: Optional[str]  # a reason found before searching (area mismatch, a hole, ...)
    nodes: int
    seconds: float
    symmetries: int = 1  # symmetries of the region used with unique=True
    interrupted: bool = False
    region: List[int] = field(default_factory=list)
    method: str = "frontier"  # the search that ran: "frontier" or "mrv"
    capped: bool = False  # the count reached the core's cap, 2**63 - 1: there are at least that many
    side: int = 9  # the board the region's cells are on (9 or 8)

    @property
    def solvable(self) -> Optional[bool]:
        """True / False when known, None when the search stopped before knowing."""
        if self.count > 0:
            return True
        return False if self.exhausted else None

    def __repr__(self) -> str:
        if self.impossible:
            return f"<PatternResult impossible ({self.impossible}), {len(self.region)} cells>"
        head = f"{'at least ' if self.capped else ''}{self.count} solution{'' if self.count == 1 else 's'}"
        head += " (all)" if self.exhausted else " (search stopped)"
        if self.symmetries > 1:
            head += f" up to the region's {self.symmetries} symmetries"
        if self.interrupted:
            head += ", interrupted"
        return (f"<PatternResult {head}, {len(self.solutions)} kept, {len(self.region)} cells, {self.method},"
                f" {self.nodes} nodes, {self.seconds:.3f} s>")

    def diagram(self, index: int = 0) -> str:
        """Solution ``index`` as a text picture laid out as :func:`parse_region` reads one (rows
        top to bottom, one character per triangle): each piece a letter of its own (a-z, then A-Z
        and digits, in the solution's order), ``.`` a region cell left uncovered (none in a
        solution; the region alone when there is no solution to draw). ``index`` counts from 0
        (negative from the end, as in a list)."""
        n = len(self.solutions)
        if n:
            index = _args.integer(f"a solution index (of {n} kept)", index, -n, n - 1, SolutionIndexError)
        else:
            index = _args.integer("a solution index", index, -2**31, 2**31, SolutionIndexError)
        side = self.side
        b = board(side)
        mark = {c: "." for c in self.region}
        if self.solutions:
            for k, m in enumerate(self.solutions[index]):
                for c in m.cell_indices:
                    mark[c] = _LABELS[k % len(_LABELS)]
        if not mark:
            return ""
        xy = {c: b.cell_xy(c) for c in mark}
        x0 = min(x for x, _ in xy.values())
        y0 = min(y for _, y in xy.values())
        if (x0 + y0) % 2 != (0 if side == 9 else 1):
            x0 -= 1  # keep picture x + y even = up, so that parse_region reads the picture back
        rows: dict = {}
        for c, (x, y) in xy.items():
            rows.setdefault(y - y0, {})[x - x0] = mark[c]
        lines = []
        for y in range(max(rows) + 1):
            row = rows.get(y, {})
            lines.append("".join(row.get(x, " ") for x in range(max(row) + 1)) if row else "")
        return "\n".join(lines)


def parse_region(picture: str, side: int = 9) -> List[int]:
    """Cells of a text picture: one character per triangle as in ``Game.diagram`` (``x # * o @``
    filled, anything else empty), rows top to bottom; the picture is centred on the board, and
    its top-left character is a triangle pointing up when the picture's width and position allow
    (picture x + y even = up). Indentation and blank rows above the cells do not count, in steps
    of two columns or rows (an odd step would turn every triangle over)."""
    if not isinstance(picture, str):
        raise SolverError(f"a region picture must be a str, not {type(picture).__name__}")
    b = board(_check_side(side))
    # (a byte-order mark some editors write first would count as an empty column)
    lines = picture.lstrip("\ufeff").splitlines()
    # Empty lines before and after the picture are no rows of it, whatever ends them ("\r\n" too:
    # only "\n" was stripped, and one empty CRLF line turned every triangle over). A line of
    # spaces is a row (of indentation, as a column of spaces is).
    while lines and not lines[0]:
        del lines[0]
    while lines and not lines[-1]:
        del lines[-1]
    rows = [r.rstrip() for r in lines]
    pts = [(x, y) for y, r in enumerate(rows) for x, ch in enumerate(r) if ch in _FILLED]
    if not pts:
        raise SolverError("the picture has no filled cells (use x, #, *, o or @)")
    # Indentation and blank rows above the cells are dropped, two at a time: an odd shift would
    # turn every triangle over (picture x + y decides up or down).
    sx = min(x for x, _ in pts) // 2 * 2
    sy = min(y for _, y in pts) // 2 * 2
    pts = [(x - sx, y - sy) for x, y in pts]
    w = max(x for x, _ in pts) + 1
    h = len(rows) - sy
    up_parity = 0 if side == 9 else 1  # board x + y parity of an up triangle
    dy = (b.height - h) // 2
    dx = (b.width - w) // 2
    if (dx + dy) % 2 != up_parity:
        dx += 1
    for _ in range(2):
        cells = [b.cell_at(x + dx, y + dy) for x, y in pts]
        if all(c >= 0 for c in cells):
            return cells
        dx -= 2
    fits_turned = any(all(b.cell_at(x + dx + k, y + dy) >= 0 for x, y in pts) for k in (1, 3, 5))
    hint = " (it would fit with every triangle turned over: one column or row more or less of indentation)"
    raise SolverError(f"the picture ({w} columns, {h} rows) does not fit on the side-{side} board"
                      f" ({b.width} x {b.height}){hint if fits_turned else ''}")


def _region_cells(region: Region, side: int) -> List[int]:
    b = board(side)
    if isinstance(region, (list, tuple)) and region and set(map(type, region)) == {int}:
        # The common case (indices, as parse_region returns them), checked in one pass of builtins.
        if min(region) >= 0 and max(region) < b.num_cells and len(set(region)) == len(region):
            return list(region)
    if isinstance(region, str):
        # One line that names a cell ("x11", "o5") is that cell, not a picture of one triangle;
        # a list of cells may end with a newline ("a9,b9\n", read from a file).
        if "\n" in region.strip("\r\n") or any(ch in _FILLED for ch in region) and "," not in region \
                and cell_of_name(b, region) < 0:
            return parse_region(region, side)
        region = [s.strip() for s in region.split(",") if s.strip()]
    if not isinstance(region, abc.Iterable) or isinstance(region, (bytes, bytearray)):  # (bytes: small ints)
        raise SolverError(f"a region is a text picture or a list of cells, not {type(region).__name__}")
    cells = []
    for c in region:
        if isinstance(c, str):
            idx = cell_of_name(b, c)
            if idx < 0:
                raise SolverError(f"{c!r} is not a cell of the side-{side} board")
        else:
            index = _integer_or_none(c)
            if index is None:
                raise SolverError(f"region cells must be cell names or integer indices, not {c!r}")
            idx = index
            if not 0 <= idx < b.num_cells:
                raise SolverError(f"cell index {c!r} out of range")
        cells.append(idx)
    if len(set(cells)) != len(cells):
        raise SolverError("a region cell is given twice")
    return cells


def _integer_or_none(value: object) -> Optional[int]:
    """``value`` as an int (numpy's too), or None for anything else, True and False included."""
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return None


def _piece_counts(pieces: Optional[Pieces]) -> Sequence[int]:
    if pieces is None:
        return _ONE_OF_EACH
    if isinstance(pieces, str):  # "V,P6,F,A6" (as the command line takes them), or one name
        pieces = [p.strip() for p in pieces.split(",")]
    if type(pieces) is list or type(pieces) is tuple:
        try:
            return _named_piece_counts(tuple(pieces))  # (a tuple: shared, and never changed)
        except (_NotNames, TypeError):  # (TypeError: an item that cannot be hashed)
            pass
    return _counts_of(pieces)


class _NotNames(Exception):
    """A list of pieces that is not all names (cached no further)."""


_ONE_OF_EACH = (1,) * len(PIECE_NAMES)


@lru_cache(maxsize=256)
def _named_piece_counts(names: Tuple[Any, ...]) -> Tuple[int, ...]:
    """Counts of a list of piece names, cached: puzzles are often solved again and again. Only
    names are cached (1 == True as a key: indices and flags would share entries)."""
    if not all(type(p) is str for p in names):
        raise _NotNames
    return tuple(_counts_of(names))


def _counts_of(pieces: Union[Iterable[PieceLike], Mapping[PieceLike, IntLike]]) -> List[int]:
    if not isinstance(pieces, abc.Iterable):
        raise SolverError(f"pieces are a list of piece names or a mapping name -> count, not {type(pieces).__name__}")
    counts = [0] * len(PIECE_NAMES)
    try:
        items = pieces.items() if isinstance(pieces, Mapping) else Counter(pieces).items()
    except TypeError:  # (an item that cannot be counted: a list, a dict)
        bad = next((p for p in pieces if not isinstance(p, abc.Hashable)), pieces)
        raise SolverError(f"pieces are piece names or indices, not {bad!r}") from None
    for p, n in items:
        try:
            idx = piece_index(p)
        except ValueError as e:
            raise SolverError(str(e)) from None
        count = _integer_or_none(n)  # 1.5, "3" or True copies are mistakes, not 1, 3 and 1
        if count is None:
            raise SolverError(f"piece counts must be integers, not {n!r}")
        n = count
        if n < 0:
            raise SolverError("piece counts must be >= 0")
        counts[idx] += n
        if counts[idx] > _MAX_COPIES:
            raise SolverError(f"{counts[idx]} copies of {PIECE_NAMES[idx]}: more than the board's "
                              f"{_MAX_COPIES} cells could ever take")
    return counts


def _check_switches(all_solutions: object, unique: object) -> Tuple[bool, bool]:
    return _args.flag("all_solutions", all_solutions, SolverError), _args.flag("unique", unique, SolverError)


def _check_solve_options(time_limit: object, method: object, threads: object, max_solutions: object,
                         first: object) -> Tuple[int, int]:
    """Checks the search options; returns ``max_solutions`` and ``first`` as ints."""
    _check_seconds(time_limit)
    if method not in ("auto", "frontier", "mrv"):
        raise SolverError(f"method must be 'auto', 'frontier' or 'mrv', not {method!r}")
    _args.integer("threads", threads, 1, _args.MAX_EXACT_THREADS, SolverError)
    return (_args.integer("max_solutions", max_solutions, 0, _args.MAX_COUNT, SolverError),
            _args.integer("first", first, 1, _args.MAX_COUNT, SolverError))


def _plain_options(all_solutions: object, unique: object, max_solutions: object, time_limit: object,
                   threads: object, method: object, first: object, callback: object) -> bool:
    """True for search options of exactly the types and in the ranges the general checks
    accept, with no callback: the common call, checked in one expression (a small puzzle is
    solved in microseconds, and the general checks cost as much again)."""
    return callback is None and type(all_solutions) is bool and type(unique) is bool \
        and type(max_solutions) is int and 0 <= max_solutions <= _args.MAX_COUNT \
        and type(first) is int and 1 <= first <= _args.MAX_COUNT \
        and type(threads) is int and 1 <= threads <= _args.MAX_EXACT_THREADS \
        and (type(time_limit) is float or type(time_limit) is int) and 0 < time_limit < _FAST_SECONDS \
        and type(method) is str and method in _METHODS


def _check_side(side: object) -> int:
    return _args.side(side, SolverError)


_COUNT_CAP = 2**63 - 1  # the core counts in 64 bits and stops there (pattern_common.h)
_METHODS = frozenset(("auto", "frontier", "mrv"))
_FAST_SECONDS = 1e18  # time limits the common call takes as they are (larger ones go the general way)


def _result(out: Tuple[Any, ...], cells: List[int], side: int, ctrl_c: Optional[List[bool]] = None) -> PatternResult:
    # (the core's tuple: count, solutions, exhausted, impossible, nodes, seconds, symmetries,
    # method, interrupted)
    count, solutions, exhausted, impossible, nodes, seconds, symmetries, method, interrupted = out
    sols = [[Move._trusted(int(i), side) for i in s] for s in solutions] if solutions else []
    return PatternResult(count, sols, exhausted, impossible or None, nodes, seconds, symmetries,
                         bool(interrupted) or bool(ctrl_c), cells, method, count >= _COUNT_CAP, side)


class PatternPuzzle:
    """A pattern puzzle prepared once: ``region`` and ``pieces`` as :func:`solve_pattern` takes
    them, checked, with every placement of the pieces inside the region found and put in the
    order the searches walk (what a dancing-links solver's matrix is). :meth:`solve` then
    searches it with any options, as often as wanted; a prepared puzzle never changes, so
    several threads may solve it at once. It pickles as its region and pieces (prepared again
    on loading), so it can go to worker processes.

    ``impossible`` is the reason when preparing already showed there is no solution (area
    mismatch, a part no sum of the pieces fills, a cell no piece fits), else None.
    """

    __slots__ = ("_prepared", "_cells", "_counts", "side")

    def __init__(self, region: Region, pieces: Optional[Pieces] = None, *, side: int = 9) -> None:
        side = _check_side(side)
        self.side = side
        self._cells = _region_cells(region, side)
        self._counts = _piece_counts(pieces)
        try:
            self._prepared = _core.PatternPuzzle(side, self._cells, self._counts)
        except ValueError as e:  # what the checks above let through and the core refuses
            raise SolverError(str(e)) from None

    @property
    def region(self) -> List[int]:
        """The region's cells (indices)."""
        return list(self._cells)

    @property
    def pieces(self) -> Dict[str, int]:
        """Piece name -> copies to place."""
        return {PIECE_NAMES[p]: n for p, n in enumerate(self._counts) if n}

    @property
    def impossible(self) -> Optional[str]:
        """Why the puzzle has no solution when that was seen without searching (the areas differ, a
        part of the region too small, a cell no piece fits on), else None."""
        return self._prepared.impossible or None

    @property
    def num_placements(self) -> int:
        """Placements of the pieces inside the region (0 when found impossible)."""
        return self._prepared.num_placements

    def solve(self, all_solutions: bool = False, *, unique: bool = False, max_solutions: int = 1000,
              time_limit: float = 60.0, threads: int = 1, method: str = "auto", first: int = 1,
              callback: Optional[PatternCallback] = None) -> PatternResult:
        """Search the prepared puzzle: the options and the result as in :func:`solve_pattern`
        (``seconds`` is the search alone)."""
        if _plain_options(all_solutions, unique, max_solutions, time_limit, threads, method, first, callback):
            return _result(self._prepared.solve(all_solutions, unique, max_solutions, float(time_limit), method,
                                                threads, first, None), list(self._cells), self.side)
        max_solutions, first = _check_solve_options(time_limit, method, threads, max_solutions, first)
        all_solutions, unique = _check_switches(all_solutions, unique)
        ctrl_c: List[bool] = []
        out = self._prepared.solve(all_solutions, unique, max_solutions, float(time_limit), method, threads, first,
                                   _watch(callback, ctrl_c))
        return _result(out, list(self._cells), self.side, ctrl_c)  # (a copy: results may be changed)

    def __repr__(self) -> str:
        return f"PatternPuzzle({self._cells!r}, pieces={self.pieces!r}, side={self.side})"

    def __reduce__(self) -> Tuple[Callable[[List[int], Dict[str, int], int], "PatternPuzzle"],
                                  Tuple[List[int], Dict[str, int], int]]:
        # Pickles (to worker processes) and deep copies carry the puzzle, not the core's prepared
        # placements, which cannot be pickled: the copy prepares them again.
        return (_prepared_puzzle, (list(self._cells), self.pieces, self.side))


def _prepared_puzzle(region: List[int], pieces: Dict[str, int], side: int) -> PatternPuzzle:
    return PatternPuzzle(region, pieces, side=side)


def solve_pattern(region: Region, pieces: Optional[Pieces] = None, all_solutions: bool = False, *,
                  unique: bool = False, max_solutions: int = 1000, time_limit: float = 60.0,
                  side: int = 9, threads: int = 1, method: str = "auto", first: int = 1,
                  callback: Optional[PatternCallback] = None) -> PatternResult:
    """Cover ``region`` (cells as names or indices, a comma-separated string, or a text picture)
    exactly with ``pieces`` (names or indices, repeats allowed, as a list or a comma-separated
    string, or a mapping name -> count; by
    default one colour's 22 pieces, each used once). No contact rules apply.

    ``all_solutions=False`` stops at the first solution (or once it has found ``first`` of
    them); ``True`` counts them all (``exhausted`` tells whether the count is exact, i.e. the
    search finished within ``time_limit``). ``unique=True`` counts a symmetry class of the
    region as one solution: with ``all_solutions=True`` it counts the classes (by Burnside's
    lemma: the solutions each symmetry of the region leaves unchanged, summed, over the number
    of symmetries; about as fast as the plain count), and keeps one solution of each class, up
    to ``max_solutions``, found first within half the time limit (so fewer when that half runs
    out); without, it stops at the first class (or ``first`` of them). Stopped early, or past
    2**63 - 1 solutions, a count is a lower bound (``exhausted`` False). Ctrl-C stops the
    search and returns what was found (``interrupted``).

    ``threads`` share the work when only counting (``all_solutions=True, max_solutions=0``).
    ``method``: ``"frontier"`` fills the first empty cell along a sweep of the region (fast per
    node; equal frontiers share their counts), ``"mrv"`` branches on the cell or piece with the
    fewest options (better on ragged regions with bottlenecks); ``"auto"`` picks by the region's
    compactness.

    ``callback(progress)``, a :class:`PatternProgress`, is called about every 0.25 s while the
    search runs (from the calling thread); returning False stops it as Ctrl-C does.

    A puzzle solved more than once is better prepared once as a :class:`PatternPuzzle`.
    """
    # The common call (a list of cell indices, plain options): the cells are checked by the core
    # (ints, on the board, each once). Anything it refuses goes the general way, which names what
    # was wrong.
    if type(region) is list and type(side) is int and (side == 9 or side == 8) \
            and _plain_options(all_solutions, unique, max_solutions, time_limit, threads, method, first, callback):
        try:
            out = _core.solve_pattern(side, region, _piece_counts(pieces), all_solutions, unique, max_solutions,
                                      float(time_limit), method, threads, first, None)
        except (TypeError, ValueError):
            pass  # (the general way says what, the region first)
        else:
            return _result(out, list(region), side)
    side = _check_side(side)
    cells = _region_cells(region, side)
    counts = _piece_counts(pieces)
    max_solutions, first = _check_solve_options(time_limit, method, threads, max_solutions, first)
    all_solutions, unique = _check_switches(all_solutions, unique)
    ctrl_c: List[bool] = []
    raised: List[BaseException] = []
    watch = _watch(callback, ctrl_c, raised)
    try:
        # (positional: a small puzzle is solved in microseconds, and keywords cost one of them)
        out = _core.solve_pattern(side, cells, counts, all_solutions, unique, max_solutions, float(time_limit),
                                  method, threads, first, watch)
    except ValueError as e:  # what the checks above let through and the core refuses
        if raised:  # (the callback's own error, not the core's)
            raise
        raise SolverError(str(e)) from None
    return _result(out, cells, side, ctrl_c)
