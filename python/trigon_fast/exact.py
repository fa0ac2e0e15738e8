"""Exact questions from a position, when the other colours stop placing pieces."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterable, List, Optional, Tuple

import numpy as np

from . import _args, _core
from .game import Game
from .move import Move
from .solver import SolverError, _check_seconds, _parse_colour
from .variants import Colour, ColourLike, Colours

__all__ = ["PlaceAllResult", "MaxPlaceResult", "ExactProgress", "can_place_all", "max_placeable"]


@dataclass(frozen=True)
class ExactProgress:
    """What an exact question has done so far, as its ``callback`` sees it: ``nodes`` searched
    (every stage: exhaustive, guided and repairs, counted in steps of a few hundred) in
    ``seconds``."""

    nodes: int
    seconds: float

    @property
    def nodes_per_second(self) -> float:
        """Nodes per second so far (0.0 before any measurable time)."""
        return self.nodes / self.seconds if self.seconds > 0 else 0.0


@dataclass(repr=False)
class PlaceAllResult:
    """The answer of :func:`can_place_all`: ``answer`` True (with a witness), False (proven by
    exhaustive search) or None (not proven; ``best_layout`` is the best layout found). True in a
    boolean context only for a proven yes."""

    answer: Optional[bool]  # True (witness given), False (proven by exhaustive search), None: not proven
    witness: List[Tuple[Colour, Move]]  # moves legal in this order with the other colours passing
    witness_game: Optional[Game]
    nodes: int
    seconds: float
    interrupted: bool = False
    # Triangles of the colours' pieces left (what a "yes" places), and the most of them that one
    # layout found placed: the witness's on a "yes"; on "not proven" the guided search's best,
    # extended greedily until no colour asked can place more, a lower bound on what can be
    # placed; None when no such layout was looked for.
    target_triangles: int = 0
    best_triangles: Optional[int] = None
    best_layout: List[Tuple[Colour, Move]] = field(default_factory=list)

    @property
    def proven(self) -> bool:
        """True when the answer is proven: a yes with a witness or a no by exhaustive search."""
        return self.answer is not None

    def __bool__(self) -> bool:
        return bool(self.answer)

    def __repr__(self) -> str:
        if self.answer:
            head = f"yes, witness of {_args.counted(len(self.witness), 'move')}"
        elif self.answer is False:
            head = "no (proven)"
        elif self.best_triangles is not None:
            head = f"not proven, best layout {self.best_triangles} of {self.target_triangles} triangles"
        else:
            head = "not proven"
        if self.interrupted:
            head += ", interrupted"
        return f"<PlaceAllResult {head}, {self.nodes} nodes, {self.seconds:.3f} s>"


@dataclass(repr=False)
class MaxPlaceResult:
    """The answer of :func:`max_placeable`: the most triangles ``colour`` can still place alone,
    the exact maximum when ``proven``, and a ``witness`` layout that places them."""

    colour: Colour
    triangles: int  # most further triangles found placeable (the maximum when proven)
    proven: bool
    witness: List[Tuple[Colour, Move]]
    nodes: int
    seconds: float
    interrupted: bool = False

    def __repr__(self) -> str:
        how = "proven" if self.proven else "at least, not proven"
        if self.interrupted:
            how += ", interrupted"
        return (f"<MaxPlaceResult {self.colour.name.lower()}: {self.triangles} triangles ({how}), witness of"
                f" {_args.counted(len(self.witness), 'move')}, {_args.counted(self.nodes, 'node')}, {self.seconds:.3f} s>")


def _check_nodes(node_limit: object) -> int:
    return _args.integer("node_limit", node_limit, 0, _args.MAX_COUNT, SolverError)  # 0: no limit


ProgressCallback = Callable[[ExactProgress], object]


def _watch(callback: Optional[ProgressCallback], ctrl_c: List[bool]) -> Optional[Callable[[Dict[str, Any]], bool]]:
    """The core's callback for ``callback``, which sees the core's dict as an ExactProgress."""
    return _args.progress_callback(callback, lambda d: ExactProgress(nodes=int(d["nodes"]), seconds=float(d["seconds"])),
                                   ctrl_c, SolverError)


def _colours_mask(game: Game, colours: Optional[Colours]) -> int:
    in_play = [int(c) for c in game.variant.colours]
    if colours is None:
        cs = in_play
    else:
        items: List[ColourLike]
        if isinstance(colours, (int, np.integer, str)):  # one colour (a Colour is an int)
            items = [colours]
        else:
            try:
                items = list(colours)
            except TypeError:  # (not iterable: neither a colour nor a list of them)
                raise SolverError(f"colours must be a colour or a list of colours, not {colours!r}") from None
        cs = [_parse_colour(c) for c in items]
        if not cs:  # (every piece of no colour can be placed: a question nobody means to ask)
            raise SolverError("colours must name at least one colour (None: every colour in play)")
        for c in cs:
            if c not in in_play:
                raise SolverError(f"colour {Colour(c)} does not take part in this game")
    mask = 0
    for c in cs:
        mask |= 1 << c
    return mask


def _witness(game: Game, pairs: Iterable[Tuple[int, int]]) -> Tuple[List[Tuple[Colour, Move]], Game]:
    g = game.copy()
    side = game.variant.side
    out = []
    for c, pid in pairs:
        m = Move(int(pid), side)
        g.play(m, colour=int(c))  # out of turn: the other colours have stopped
        out.append((Colour(c), m))
    return out, g


def can_place_all(game: Game, colours: Optional[Colours] = None, *, time_limit: float = 10.0, node_limit: int = 0,
                  heuristic: bool = True, threads: int = 1, callback: Optional[ProgressCallback] = None) -> PlaceAllResult:
    """Can every remaining piece of ``colours`` (default: every colour in play) still be placed if
    the other colours place nothing more?

    Returns a :class:`PlaceAllResult`: ``answer`` True with a ``witness`` (moves legal in that
    order, the other colours passing), False when an exhaustive search proved it impossible, or
    None ("not proven") when ``time_limit`` seconds or ``node_limit`` nodes of the exhaustive
    parts (0: no limit) ran out first, or Ctrl-C stopped it (``interrupted``). A "not proven"
    carries ``best_layout``, the layout found that places most triangles (``best_triangles`` of
    ``target_triangles``), extended greedily until no colour asked can place more: what can
    surely be placed, not a bound on what can (None when no such layout was looked for).

    ``node_limit`` is for repeatable runs of the exhaustive search (``heuristic=False``, one
    thread: the same nodes, the same answer). With ``heuristic`` it bounds the nodes of the
    exhaustive stages only, while the guided search runs by time; a limit of 20,000 or less is
    spent by the first stage alone, so nothing else runs (no witness search, no best layout).

    How far it reaches: four colours with up to ten pieces each are mostly settled in seconds,
    eleven about half the time; from twelve, "yes"es are found (a solution spoilt by a few moves,
    in a tenth of a second) but a four-colour "no" seldom is (none of the benchmark's 12-left
    games in 5 s). One or two colours are settled at once far deeper. Measured figures: the
    README's performance table and docs/exact-search.md.

    How (``heuristic=True``, the default; docs/exact-search.md has the details):

    1. a short exhaustive search (0.4% of the time, at least 10 ms) settles tight endgames;
    2. each colour alone, by a short search for a full layout, else :func:`max_placeable`'s
       branch and bound: one that cannot place everything alone decides "no", single-colour
       layouts on disjoint cells decide "yes";
    3. the solo solver's guided search looks for a witness, each turn handing most of its time
       to repairs of its best layout (the moves around a cell it leaves empty taken out, and a
       short exhaustive search placing every piece left there, or a short branch and bound
       placing no fewer triangles, from which the repairs go on). Its share of the time: 30%
       below twelve pieces a colour on average, 80% from twelve;
    4. the exhaustive search settles either answer. It branches on a cell (the colour with
       fewest moves, and its attach point fewest of them cover: one of those moves covers it,
       or that colour never does), and prunes where a colour's pieces no longer fit its reach,
       where the cells the pieces left can still cover (small pockets by their best packings)
       are fewer than their area, and where it meets a residual problem again.

    On one thread below twelve pieces, stages 3 and 4 take turns (stage 4 pausing each time its
    nodes double), so a quick "no" does not wait for stage 3's whole share; from twelve stage 3
    comes first, in turns doubling from 2% of the time limit (0.2 s at most).

    ``threads`` >= 2 (with ``heuristic``): at ten pieces a colour or fewer, stage 3 runs on half
    the threads beside stage 4 on the rest, and the first to settle the question stops the
    other; with more, stage 3 has every thread for its share, then stage 4. Stage 4's threads
    share out its tree (a "no" searches the same nodes as on one thread), half of them taking
    next the colour with least slack (each order settles some endgames far sooner).
    ``heuristic=False`` runs stage 4 alone, on every thread.

    ``callback(progress)``, an :class:`ExactProgress`, is called about every 0.25 s while the
    question runs (from the calling thread); returning False stops it as Ctrl-C does: the answer
    is then "not proven" and ``interrupted`` is set (a GUI's cancel button)."""
    if not isinstance(game, Game):
        raise TypeError(f"game must be a Game, not {type(game).__name__}")
    game = game.copy()  # (under its lock: another thread may play on while this searches)
    _check_seconds(time_limit)
    threads = _args.integer("threads", threads, 1, _args.MAX_EXACT_THREADS, SolverError)
    nodes = _check_nodes(node_limit)
    heuristic = _args.flag("heuristic", heuristic, SolverError)
    ctrl_c: List[bool] = []
    r = _core.can_place_all(game.position, _colours_mask(game, colours), time_limit=float(time_limit),
                            node_limit=nodes, heuristic=heuristic, threads=threads, callback=_watch(callback, ctrl_c))
    r["interrupted"] = bool(r["interrupted"]) or bool(ctrl_c)
    answer = None if r["interrupted"] or r["answer"] < 0 else bool(r["answer"])
    moves, wg = _witness(game, r["witness"]) if answer else ([], None)
    mask = _colours_mask(game, colours)
    sizes = _core.piece_sizes()
    target = sum(sizes[p] for c in range(4) if mask >> c & 1 for p in range(22) if game.position.pieces_left(c) >> p & 1)
    best = int(r["best_triangles"])
    layout = moves if answer else (_witness(game, r["best_layout"])[0] if best > 0 else [])
    return PlaceAllResult(answer=answer, witness=moves, witness_game=wg, nodes=int(r["nodes"]),
                          seconds=float(r["seconds"]), interrupted=bool(r["interrupted"]),
                          target_triangles=target, best_triangles=None if best < 0 else best,
                          best_layout=layout)


def max_placeable(game: Game, colour: ColourLike, *, time_limit: float = 10.0, node_limit: int = 0,
                  heuristic: bool = True, callback: Optional[ProgressCallback] = None) -> MaxPlaceResult:
    """The most triangles ``colour`` can still place alone (others stop), by branch and bound;
    exact when ``proven``. With ``heuristic`` (the default), a question that a few thousand
    nodes do not settle gets a few guided dives first (a colour that can place everything in a
    big open region shows it there at once); ``heuristic=False`` runs the branch and bound alone.
    ``callback``: as :func:`can_place_all`'s (returning False stops it: the best found so far,
    not proven, ``interrupted``)."""
    if not isinstance(game, Game):
        raise TypeError(f"game must be a Game, not {type(game).__name__}")
    game = game.copy()  # (under its lock: another thread may play on while this searches)
    _check_seconds(time_limit)
    nodes = _check_nodes(node_limit)
    c = _colours_mask(game, [colour]).bit_length() - 1
    heuristic = _args.flag("heuristic", heuristic, SolverError)
    ctrl_c: List[bool] = []
    r = _core.max_placeable(game.position, c, time_limit=float(time_limit), node_limit=nodes, heuristic=heuristic,
                            callback=_watch(callback, ctrl_c))
    interrupted = bool(r["interrupted"]) or bool(ctrl_c)
    moves, _ = _witness(game, r["witness"])
    return MaxPlaceResult(colour=Colour(c), triangles=int(r["max_triangles"]), proven=bool(r["proven"]) and not interrupted,
                          witness=moves, nodes=int(r["nodes"]), seconds=float(r["seconds"]),
                          interrupted=interrupted)
