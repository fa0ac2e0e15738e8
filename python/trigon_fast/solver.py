"""The solo puzzle ("Eighty-Eight"): place every piece of every colour, the single triangle last.

>>> import trigon_fast as tf
>>> sol = tf.solve_solo(seed=1, time_limit=30)
>>> sol.complete, sol.total_score
(True, 80)
"""

from __future__ import annotations

import collections.abc
import dataclasses
import functools
import os
import queue
import threading
import time
import weakref
from dataclasses import dataclass, field
from typing import (Any, Callable, Dict, Iterable, Iterator, List, Literal, Mapping, Optional, Sequence, Tuple, Union,
                    cast, overload)

from . import _args, _core
from .errors import IllegalMoveError, TrigonError
from .game import Game
from .move import PIECE_NAMES, PIECE_SIZES, CellLike, Move, cell_of_name
from .variants import Colour, ColourLike, Colours, StartRule, Variant, VariantLike, as_variant

__all__ = ["SolverError", "SolveStats", "Solution", "solve_solo", "iter_solutions"]

# Start cells of the solo solver: a mapping colour -> cell (or None: free), or one cell (or None)
# per colour in play, in turn order.
StartCells = Union[Mapping[ColourLike, Optional[CellLike]], Iterable[Optional[CellLike]]]


class SolverError(TrigonError):
    """Bad solver input (colours, start cells, limits)."""


def _check_seconds(time_limit: object) -> None:
    _args.seconds("time_limit", time_limit, SolverError)


@dataclass(frozen=True)
class SolveStats:
    """What a solo search did: ``nodes`` searched in ``seconds``, ``restarts`` of its guided
    search, ``best_placed`` (the most triangles one search branch placed) of ``target`` (the
    triangles to place in all), and ``solutions`` (distinct complete layouts found). An
    incomplete :class:`Solution`'s game may place more than ``best_placed``: the best branch is
    played on to the end of the game. ``all_found``: looking for many (``count > 1``), the search
    went through every way to go on and found every distinct layout it looks for (``solutions``
    is then their number; with ``triangle_last``, the layouts that place each colour's triangle
    last)."""

    nodes: int
    seconds: float
    restarts: int
    best_placed: int  # most triangles placed in one search branch
    target: int  # triangles to place in all
    solutions: int  # distinct complete layouts found
    all_found: bool = False  # (count > 1) every distinct layout there is was found

    @property
    def nodes_per_second(self) -> float:
        """Search nodes per second (0.0 when it took no measurable time)."""
        return self.nodes / self.seconds if self.seconds > 0 else 0.0


@dataclass(repr=False)
class Solution:
    """A solo game: ``game`` replays ``moves`` legally in turn order; ``complete`` when every
    colour in play placed all its pieces."""

    game: Game
    moves: List[Tuple[Colour, Move]]
    scores: Dict[Colour, int]
    complete: bool
    stats: SolveStats
    interrupted: bool = False
    unplaced_triangles: int = 0
    extra: Dict[str, object] = field(default_factory=dict)

    @property
    def total_score(self) -> int:
        """The sum of the colours' scores: +80 for a complete four-colour solution, the triangle last."""
        return sum(self.scores.values())

    @property
    def key(self) -> bytes:
        """The final layout's canonical key: equal for two solutions exactly when their layouts
        are alike up to the board's 12 symmetries and a renaming of colours (what ``count=`` and
        :func:`iter_solutions` mean by distinct)."""
        return _core.layout_key(self.game.position)

    def to_blksgf(self, path: Optional[Union[str, "os.PathLike[str]"]] = None, **kwargs: Any) -> str:
        """The solution as a blksgf record (see ``Game.to_blksgf``)."""
        return self.game.to_blksgf(path, **kwargs)

    def _repr_svg_(self) -> str:
        from . import render

        return render.solution_svg(self)

    def __repr__(self) -> str:
        # A summary: the dataclass's own repr spells out the whole game (thousands of characters).
        state = "complete" if self.complete else f"incomplete, {self.unplaced_triangles} triangles unplaced"
        if self.interrupted:
            state += ", interrupted"
        scores = ", ".join(f"{Colour(c).name.lower()} {s}" for c, s in self.scores.items())
        return (f"<Solution {self.game.variant!r}: {state}, {_args.counted(len(self.moves), 'move')}, score {self.total_score}"
                f" ({scores}), {self.stats.nodes} nodes, {self.stats.seconds:.3f} s>")

    def __str__(self) -> str:
        head = "complete" if self.complete else f"incomplete ({self.unplaced_triangles} triangles unplaced)"
        return f"{self.game}\nsolo: {head}, total score {self.total_score}, {self.stats.seconds:.3f} s"


def _resolve_variant(variant: Optional[VariantLike], alternate_rule: bool, colours: Optional[Colours]) -> Variant:
    alternate_rule = _args.flag("alternate_rule", alternate_rule, SolverError)
    try:  # (Variant's errors about the colours, as the solver's)
        if variant is None:
            return Variant.solo(colours=colours, alternate_rule=alternate_rule)
        variant = as_variant(variant, SolverError)
        if colours is not None:
            if variant.kind != "solo":
                raise SolverError("colours can be chosen only with a solo variant (or variant=None)")
            variant = Variant.solo(colours=colours, side=variant.side, alternate_rule=variant.alternate_rule)
    except SolverError:
        raise
    except TrigonError as e:
        raise SolverError(str(e)) from None
    if alternate_rule and not variant.alternate_rule:
        variant = variant.with_alternate_rule(True)
    return variant


def _start_game(variant: Optional[VariantLike], alternate_rule: bool, colours: Optional[Colours],
                game: Optional[Game]) -> Game:
    """The game a search starts from: a copy of ``game`` (checked against the other options), or
    the empty board of the variant they describe."""
    if game is None:
        return Game(_resolve_variant(variant, alternate_rule, colours))
    if not isinstance(game, Game):
        raise TypeError(f"game must be a Game, not {type(game).__name__}")
    if variant is not None and as_variant(variant, SolverError) != game.variant:
        raise SolverError(f"the variant given ({variant!r}) is not the game's ({game.variant!r}): "
                          "give the game alone")
    if _args.flag("alternate_rule", alternate_rule, SolverError) and not game.variant.alternate_rule:
        raise SolverError("the game's variant does not use the alternate rule")
    if colours is not None:
        raise SolverError("colours come from the game's variant")
    return game.copy()  # (under its lock: another thread may play on while this solves)


def _fixed_start_cells(base: Game, start_cells: Optional[StartCells]) -> List[int]:
    """The start cell fixed for each colour (-1: free), checked against the game and its rules."""
    fixed = _resolve_start_cells(base.board, base.variant.colours, start_cells)
    for c, cell in enumerate(fixed):
        if cell >= 0 and base.position.started(c):  # (its first piece lies on the board already)
            raise SolverError(f"{Colour(c)} has placed its first piece: its start cell is no longer chosen")
    _check_start_rule(base, fixed)
    return fixed


def _check_options(variant: Optional[VariantLike] = None, *, alternate_rule: bool = False,
                   colours: Optional[Colours] = None, start_cells: Optional[StartCells] = None,
                   game: Optional[Game] = None, count: int = 1, triangle_last: bool = True, restart_nodes: int = 0,
                   callback: object = None) -> Tuple[Game, List[int], int, bool, int]:
    """solve_solo's options other than its limits and seed, checked without searching (also for
    batch.solve_seeds, before its tasks): the start game, the fixed start cells, ``count``,
    ``triangle_last`` and ``restart_nodes``."""
    base = _start_game(variant, alternate_rule, colours, game)
    count = _args.integer("count", count, 1, 2**31 - 1, SolverError)
    triangle_last = _args.flag("triangle_last", triangle_last, SolverError)
    restart_nodes = _args.integer("restart_nodes", restart_nodes, 0, _args.MAX_COUNT, SolverError)
    _args.progress_callback(callback, _stats, [], SolverError)  # (refuses one that is not callable)
    return base, _fixed_start_cells(base, start_cells), count, triangle_last, restart_nodes


def _cell_index(board: "_core.Board", cell: CellLike) -> int:
    if isinstance(cell, str):
        idx = cell_of_name(board, cell)
        if idx < 0:
            raise SolverError(f"{cell!r} is not a cell of the side-{board.side} board")
        return idx
    return _args.integer("a start cell index", cell, 0, board.num_cells - 1, SolverError)


def _parse_colour(c: ColourLike) -> int:
    try:
        return int(Colour.parse(c))
    except ValueError as e:
        raise SolverError(str(e)) from None


def _resolve_start_cells(board: "_core.Board", colours: Sequence[Colour],
                         start_cells: Optional[StartCells]) -> List[int]:
    fixed = [-1] * 4
    if start_cells is None:
        return fixed
    if isinstance(start_cells, Mapping):
        items = [(_parse_colour(c), cell) for c, cell in start_cells.items()]
    else:
        if isinstance(start_cells, str) or not isinstance(start_cells, collections.abc.Iterable):  # ("r15": one cell)
            raise SolverError("start_cells is a list of one cell (or None) per colour in play, or a mapping "
                              f"colour -> cell, not {start_cells!r}")
        cells = list(start_cells)
        if len(cells) != len(colours):
            raise SolverError(f"start_cells needs one cell (or None) per colour in play ({len(colours)})")
        items = list(zip((int(c) for c in colours), cells))
    starts = set(board.start_cells)
    used = set()
    for c, cell in items:
        if c not in [int(k) for k in colours]:
            raise SolverError(f"{Colour(c).name.lower()} does not take part in this game")
        if cell is None:
            continue
        idx = _cell_index(board, cell)
        if idx not in starts:
            raise SolverError(f"{board.cell_name(idx)} is not a start cell")
        if idx in used:
            raise SolverError(f"start cell {board.cell_name(idx)} given to two colours")
        used.add(idx)
        fixed[c] = idx
    return fixed


_START_RULE_TEXT = {
    StartRule.ANY: "each colour starts on a free start cell",
    StartRule.OPPOSITE: "a player's two colours start on opposite start cells",
    StartRule.EVERY_OTHER: "the colours take every other start cell of the ring",
}


def _check_start_rule(base: Game, fixed: Sequence[int]) -> None:
    """Refuse fixed start cells that the variant's start rule (or the position) cannot give
    together: the search would only spend its time and then ignore them."""
    if all(cell < 0 for cell in fixed):
        return
    side = base.variant.side
    unstarted = [c for c in base.variant.colours if not base.position.started(int(c))]

    def can_start(game: Game, rest: Sequence[Colour], pinned: Sequence[int]) -> bool:
        # Each colour's first piece in turn, as the single triangle on a start cell: the start
        # rule depends only on which start cell a first piece covers.
        if not rest:
            return True
        c = rest[0]
        for cell in [pinned[c]] if pinned[c] >= 0 else game.board.start_cells:
            move = Move.from_cells([cell], side)
            if game.check(move, c) is None:
                after = game.copy()
                after.play(move, c)
                if can_start(after, rest[1:], pinned):
                    return True
        return False

    if not can_start(base, unstarted, fixed) and can_start(base, unstarted, [-1] * 4):
        given = ", ".join(f"{Colour(c).name.lower()}={base.board.cell_name(cell)}"
                          for c, cell in enumerate(fixed) if cell >= 0)
        raise SolverError(f"start cells {given} cannot all be used in {base.variant!r}: "
                          f"{_START_RULE_TEXT[base.variant.start_rule]}")


def _stats(d: dict) -> SolveStats:
    return SolveStats(nodes=int(d["nodes"]), seconds=float(d["seconds"]), restarts=int(d["restarts"]),
                      best_placed=int(d["best_placed"]), target=int(d["target"]), solutions=int(d["solutions"]),
                      all_found=bool(d["all_found"]))


def _replay(base: Game, sol: dict) -> Tuple[Game, List[Tuple[Colour, Move]]]:
    """A copy of ``base`` with the core's solution ``sol`` played on it, and the moves played."""
    game = base.copy()
    try:
        moves = game._play_ids(sol["moves"])
    except IllegalMoveError as e:  # pragma: no cover - the core replayed them already
        raise RuntimeError(f"solver produced a move that does not replay: {e}") from None
    return game, moves


def _build(base: Game, sol: dict, stats: SolveStats, interrupted: bool) -> Solution:
    """The Solution of the core's ``sol``."""
    game, moves = _replay(base, sol)
    scores = game.scores()
    return Solution(game=game, moves=moves, scores=scores, complete=bool(sol["complete"]), stats=stats,
                    interrupted=interrupted, unplaced_triangles=int(sol["unplaced_triangles"]))


def _area_left(game: Game) -> int:
    """Triangles the colours in play still hold."""
    return sum(PIECE_SIZES[PIECE_NAMES.index(p)] for c in game.variant.colours for p in game.pieces_left(c))


def _no_complete_game(game: Game) -> bool:
    """Whether no complete game can come from here, seen at once: a colour in play holds pieces
    but has no legal move, or the pieces left cover more than the empty cells."""
    pos = game.position
    if any(pos.pieces_left(int(c)) and not pos.has_move(int(c)) for c in game.variant.colours):
        return True
    empty = game.board.num_cells - sum(pos.placed_triangles(c) for c in range(4))
    return _area_left(game) > empty


def _finished(game: Game) -> Solution:
    """A game no colour can move in any more, as a Solution: complete when every colour in play
    has placed all its pieces, else short by the triangles they still hold."""
    short = _area_left(game)
    stats = SolveStats(nodes=0, seconds=0.0, restarts=0, best_placed=0, target=0, solutions=int(short == 0))
    return Solution(game=game, moves=[], scores=game.scores(), complete=short == 0, stats=stats,
                    unplaced_triangles=short)


@overload
def solve_solo(variant: Optional[VariantLike] = None, *, alternate_rule: bool = False, colours: Optional[Colours] = None,
               start_cells: Optional[StartCells] = None, game: Optional[Game] = None, seed: int = 0,
               time_limit: float = 60.0, threads: int = 1, callback: Optional[Callable[[SolveStats], object]] = None,
               count: Literal[1] = 1, triangle_last: bool = True, restart_nodes: int = 0) -> Solution: ...
@overload
def solve_solo(variant: Optional[VariantLike] = None, *, alternate_rule: bool = False, colours: Optional[Colours] = None,
               start_cells: Optional[StartCells] = None, game: Optional[Game] = None, seed: int = 0,
               time_limit: float = 60.0, threads: int = 1, callback: Optional[Callable[[SolveStats], object]] = None,
               count: int, triangle_last: bool = True, restart_nodes: int = 0) -> Union[Solution, List[Solution]]: ...
def solve_solo(variant: Optional[VariantLike] = None, *, alternate_rule: bool = False, colours: Optional[Colours] = None,
               start_cells: Optional[StartCells] = None, game: Optional[Game] = None, seed: int = 0,
               time_limit: float = 60.0, threads: int = 1, callback: Optional[Callable[[SolveStats], object]] = None,
               count: int = 1, triangle_last: bool = True, restart_nodes: int = 0) -> Union[Solution, List[Solution]]:
    """Solve the solo puzzle: a complete legal game in which every colour in play places all 22
    pieces, the single triangle last (+20 each) unless ``triangle_last=False``.

    ``variant`` defaults to ``Variant.solo(colours, alternate_rule=...)`` (four colours, big board);
    ``Variant.THREE_PLAYER`` or ``Variant.solo(side=8)`` play on the inner board.
    ``start_cells``: ``None`` (free), a mapping colour -> cell, or one cell (or ``None``) per
    colour in play, as names (``"r15"``) or indices: free start cells that the variant's start
    rule lets the colours take together (else a :class:`SolverError`). ``game``: continue from this game's
    position ("can every remaining piece still be placed?"); from a position the first thread
    also repairs the best partial layout between its restarts (the moves around a cell it leaves
    empty taken out, and a short exhaustive search placing every piece left from there: dense
    endgames the restarts leave a piece or two short). When no complete game can exist (a colour
    in play has pieces but no legal move left, or the pieces left outnumber the empty cells),
    the search places as many triangles as it can instead (``count`` changes nothing then); it
    ends early once every piece of the colours that can still move is placed, or once it has
    tried every way (a small endgame), else at ``time_limit`` (so its answer then depends on the
    machine's speed). ``threads`` race different seeds;
    with one thread a seed gives the same answer every time. ``callback(stats)`` is called about
    four times a second; returning ``False`` (numpy's too) stops the search. Ctrl-C also stops it;
    either way it returns the best found so far with ``interrupted`` set (also when the Ctrl-C
    lands in the callback).

    Returns a :class:`Solution`; when ``complete`` is false it is the best partial layout found in
    ``time_limit`` seconds, completed into a legal finished game. With ``count > 1``, a list of up
    to ``count`` complete solutions distinct up to the board's symmetries and colour renaming
    (as many as were found in time, or until the search has long found nothing new; the best
    partial one when none). From a position, some restarts go through the whole tree of ways to
    go on (a quarter of the nodes; all of them for a while once nothing new comes), each with
    twice the nodes of the last such sweep: one that finishes has found every layout there is,
    and the search ends there with ``stats.all_found`` set (from a solution with four moves taken
    back, its 9,979 layouts in 4 s; never when interrupted).
    """
    base, fixed, count, triangle_last, restart_nodes = _check_options(
        variant, alternate_rule=alternate_rule, colours=colours, start_cells=start_cells, game=game, count=count,
        triangle_last=triangle_last, restart_nodes=restart_nodes)
    _check_seconds(time_limit)
    threads = _args.integer("threads", threads, 1, _args.MAX_THREADS, SolverError)
    seed = _args.seed(seed, SolverError)

    ctrl_c: List[bool] = []
    cb = _args.progress_callback(callback, _stats, ctrl_c, SolverError)  # (SolveStats; only False stops it)

    if base.is_over:  # nothing to search: the game as it stands is the answer
        done = _finished(base)
        return done if count == 1 else [done]
    # Solutions found while the search runs are made at once (the search goes on meanwhile: made
    # after it, a thousand of them overran the time limit by half a second); their stats and
    # interrupted flag are the search's, set when it ends.
    made: List[Solution] = []
    pending = SolveStats(nodes=0, seconds=0.0, restarts=0, best_placed=0, target=0, solutions=0)

    def take(sol: dict) -> bool:
        try:
            made.append(_build(base, sol, pending, False))
            return True
        except KeyboardInterrupt:  # (as a Ctrl-C during the search: it ends, the answers so far kept)
            ctrl_c.append(True)
            return False

    out = _core.solve_solo(base.position, fixed, seed=seed, time_limit=float(time_limit), threads=threads,
                           count=count, triangle_last=triangle_last, restart_nodes=restart_nodes,
                           callback=cb, on_solution=take if count > 1 else None)
    stats = _stats(out["stats"])
    interrupted = bool(out["interrupted"]) or bool(ctrl_c)
    if interrupted and stats.all_found:  # (a layout found may not have become a game)
        stats = dataclasses.replace(stats, all_found=False)
    for s in made:
        s.stats, s.interrupted = stats, interrupted
    sols = made
    try:
        if count == 1:
            return _build(base, out["best"], stats, interrupted)
        for s in out["solutions"]:
            sols.append(_build(base, s, stats, interrupted))
    except KeyboardInterrupt:
        # Ctrl-C while the last answers became games (after the search): stop there and keep
        # what was built, as a Ctrl-C during the search keeps its answers.
        cut_short = dataclasses.replace(stats, all_found=False)  # (the layouts not made are lost)
        if count == 1:
            return _build(base, out["best"], cut_short, True)
        return [dataclasses.replace(s, interrupted=True, stats=cut_short) for s in sols] or \
            [_build(base, out["best"], cut_short, True)]
    return sols if sols else [_build(base, out["best"], stats, interrupted)]


def iter_solutions(variant: Optional[VariantLike] = None, *, alternate_rule: bool = False,
                   colours: Optional[Colours] = None, start_cells: Optional[StartCells] = None,
                   game: Optional[Game] = None, seed: int = 0, time_limit: Optional[float] = None,
                   threads: int = 1, batch: int = 16, triangle_last: bool = True,
                   callback: Optional[Callable[[SolveStats], object]] = None) -> "SolutionIterator":
    """Complete solutions of the solo puzzle one at a time, as they are found, each distinct from
    every one before it up to the board's symmetries and a renaming of colours (``Solution.key``).
    The options are :func:`solve_solo`'s, but ``time_limit`` is for all of them (default: no
    limit), and ``batch`` is how many solutions may wait, made, while the caller works on the
    last one (the search pauses then).

    One search runs in a thread of its own from the first ``next``, so with one thread the
    sequence is the same every time. It ends after ``time_limit`` seconds (counted from the first
    ``next``; solutions found by then still come), when no layout was found in the first 60 s,
    when it has found every layout there is (from a position, :func:`solve_solo`'s sweeps of the
    whole tree; the iterator's ``all_found`` is then True), when it has long found nothing new
    (restarts in a row, at least 200 and four times those it took to the last new one; no
    proof), at once when no complete game can exist (a colour in play cannot move, or the pieces
    left outnumber the empty cells), on Ctrl-C, or when the iterator is closed or dropped. Bad options fail at the
    call, not at the first ``next``. The iterator's ``interrupted`` says afterwards whether Ctrl-C
    (or the callback) ended it. ``callback(stats)`` is called about every 0.25 s while a ``next``
    waits for the search (its :class:`SolveStats`, in the caller's thread); returning False ends
    the iteration as Ctrl-C does (a GUI's cancel button: a ``next`` may search for long).

    >>> from itertools import islice
    >>> sols = list(islice(iter_solutions(seed=1), 3))
    >>> [s.complete for s in sols], len({s.key for s in sols})
    ([True, True, True], 3)
    """
    if time_limit is not None:
        _check_seconds(time_limit)
    batch = _args.integer("batch", batch, 1, 100_000, SolverError)
    seed = _args.seed(seed, SolverError)
    threads = _args.integer("threads", threads, 1, _args.MAX_THREADS, SolverError)
    # Checked now, and a copy of the game taken now: the search solves the game as it was at
    # the call, whatever the caller plays on it meanwhile.
    base, fixed, _, triangle_last, _ = _check_options(
        variant, alternate_rule=alternate_rule, colours=colours, start_cells=start_cells, game=game,
        triangle_last=triangle_last, callback=callback)
    # (a Ctrl-C landing in the callback makes it answer False: the iteration ends, interrupted)
    progress = _args.progress_callback(callback, _stats, [], SolverError)
    search = functools.partial(_stream_search, base=base, fixed=fixed, seed=seed,
                               time_limit=0.0 if time_limit is None else float(time_limit), threads=threads,
                               triangle_last=triangle_last, with_progress=progress is not None)
    return SolutionIterator(search, batch, progress)


# A stream that has found no layout at all in this many seconds ends (a position with no
# complete game: the search would never end by itself).
_FIRST_SOLUTION_SECONDS = 60.0


# The streams whose search may still run: stopped at exit (before the core's long calls are
# ended: a search waiting for its caller held the exit for 5 s, and its thread could crash it).
_LIVE_STREAMS: "weakref.WeakSet[_Stream]" = weakref.WeakSet()


def _stop_streams() -> None:
    """Stop every iterator's search (at exit)."""
    for stream in list(_LIVE_STREAMS):
        stream.stop.set()


class _Stream:
    """What an iterator shares with its search thread. The thread holds this, not the iterator,
    so that an iterator dropped unfinished is collected (and its ``__del__`` stops the search)."""

    def __init__(self, ahead: int) -> None:
        self.items: "queue.SimpleQueue[Tuple[str, Any]]" = queue.SimpleQueue()
        self.room = threading.Semaphore(ahead)  # solutions that may wait in items, made
        self.stop = threading.Event()
        self.waiting = threading.Event()  # a next() waits: progress goes to it
        self.ctrl_c = False  # a Ctrl-C landed in the thread (making a Solution)
        self.gave_up = False  # no layout in _FIRST_SOLUTION_SECONDS
        self.all_found = False  # the search ended having found every layout there is
        _LIVE_STREAMS.add(self)


def _stream_search(stream: _Stream, *, base: Game, fixed: List[int], seed: int, time_limit: float, threads: int,
                   triangle_last: bool, with_progress: bool) -> None:
    """The search of an iterator (its own thread): each solution made a Solution and queued as
    it is found, the caller's pace holding it back; then ("end", interrupted) or ("error", e)."""
    t0 = time.monotonic()

    def take(sol: dict, stats: Optional[SolveStats] = None) -> bool:
        while not stream.room.acquire(timeout=0.05):
            if stream.stop.is_set():
                return False
        try:
            made = _build(base, sol, stats or _stats(sol["stats"]), False)
        except KeyboardInterrupt:
            stream.ctrl_c = True
            stream.room.release()
            return False
        stream.items.put(("solution", made))
        return not stream.stop.is_set()

    def progress(d: dict) -> bool:
        if stream.stop.is_set():
            return False
        if int(d["solutions"]) == 0 and time.monotonic() - t0 > _FIRST_SOLUTION_SECONDS:
            stream.gave_up = True
            return False
        if with_progress and stream.waiting.is_set():
            stream.items.put(("stats", d))
        return True

    try:
        if base.is_over or _no_complete_game(base):  # (nothing to search for)
            if base.is_over and _area_left(base) == 0:  # (a finished complete game is its own solution)
                stream.room.acquire()
                stream.items.put(("solution", _finished(base)))
            stream.all_found = True  # (that one, or none: proven without a search)
            stream.items.put(("end", False))
            return
        out = _core.solve_solo(base.position, fixed, seed=seed, time_limit=time_limit, threads=threads,
                               count=2**31 - 1, triangle_last=triangle_last, restart_nodes=0,
                               callback=progress, on_solution=take)
        final = _stats(out["stats"])
        taken_all = True
        for sol in [] if out["interrupted"] else out["solutions"]:  # (found in time, not yet taken)
            if not take(sol, final):
                taken_all = False
                break
        stream.all_found = final.all_found and taken_all and not out["interrupted"]
        stream.items.put(("end", bool(out["interrupted"]) and not stream.gave_up and not stream.stop.is_set()))
    except BaseException as e:  # (raised in the caller's next())
        stream.items.put(("error", e))


class SolutionIterator(Iterator[Solution]):
    """What :func:`iter_solutions` returns: an iterator of distinct complete solutions that also
    says how it ended.

    ``interrupted`` is True once Ctrl-C (or the callback) has ended it (the solutions alone
    cannot tell that from the search running dry); ``found`` counts the solutions yielded so
    far; ``all_found`` is True once it has ended having yielded every distinct layout there is
    (proven: the search went through every way to go on). ``close()`` stops the search (as
    dropping the iterator does).
    """

    def __init__(self, search: Callable[[_Stream], None], ahead: int,
                 progress: Optional[Callable[[Dict[str, Any]], bool]]) -> None:
        self.interrupted = False
        self.found = 0
        self.all_found = False
        self._search, self._progress = search, progress
        self._stream = _Stream(ahead)
        self._thread: Optional[threading.Thread] = None
        self._finished = False
        self._starting = threading.Lock()  # (two threads taking the first next at once: one search)

    def __iter__(self) -> "SolutionIterator":
        """The iterator itself."""
        return self

    def __next__(self) -> Solution:
        """The next distinct complete solution (waiting for the search while none is made)."""
        if self._finished:
            raise StopIteration
        stream = self._stream
        with self._starting:
            if self._thread is None:  # (the time limit runs from here: a caller may set up its output first)
                self._thread = threading.Thread(target=self._search, args=(stream,), daemon=True,
                                                name="trigon_fast.iter_solutions")
                self._thread.start()
        try:
            # (first in the try: Python 3.11/3.12 let a Ctrl-C at the loop's back edge past the
            # handler when the loop was the try's first statement)
            stream.waiting.set()
            while True:
                try:
                    kind, value = stream.items.get(timeout=0.1)  # (a timeout: Ctrl-C gets through)
                except queue.Empty:
                    if self._finished:  # (another thread took the end)
                        break
                    continue
                if kind == "solution":
                    stream.room.release()
                    self.found += 1
                    return cast(Solution, value)
                if kind == "stats":
                    if not stream.items.empty():  # (a slow callback sees the latest only)
                        continue
                    try:
                        goes_on = self._progress is None or self._progress(value)
                    except BaseException:  # (its error ends the search, as solve_solo's does)
                        self._end()
                        raise
                    if not goes_on:
                        self.interrupted = True  # (the callback's False, or a Ctrl-C landing in it)
                        break
                    continue
                if kind == "error":
                    self._end()
                    raise value
                self.interrupted = bool(value) or stream.ctrl_c  # ("end")
                self.all_found = stream.all_found and not self.interrupted
                break
        except KeyboardInterrupt:
            self.interrupted = True
        finally:
            stream.waiting.clear()
        self._end()
        raise StopIteration

    def close(self) -> None:
        """Stop the search (the solutions not yet taken are dropped); the iterator then ends."""
        self._end()

    def _end(self) -> None:
        self._finished = True
        self._stream.stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join()

    def __del__(self) -> None:
        # (the thread holds the stream, not the iterator: dropping the iterator ends the search)
        self._stream.stop.set()

    def __repr__(self) -> str:
        state = ", interrupted" if self.interrupted else ", all found" if self.all_found else ""
        return f"<SolutionIterator {self.found} found{state}>"
