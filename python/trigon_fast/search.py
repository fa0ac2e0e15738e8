"""Monte-Carlo tree search: choose moves and analyse positions of every Trigon variant.

>>> import trigon_fast as tf
>>> g = tf.Game(tf.Variant.FOUR_PLAYER)
>>> a = tf.analyse(g, simulations=300, seed=1)
>>> a.best_move in g.legal_moves
True

The search runs in C++ threads with the GIL released; Ctrl-C ends it early and the best move
found so far is returned (``interrupted`` is then true).
"""

from __future__ import annotations

import difflib
import math
import threading
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

from . import _args, _core
from .errors import GameOverError, TrigonError
from .game import Game
from .move import Move
from .variants import Colour

__all__ = ["Analysis", "MoveAnalysis", "Engine", "analyse", "best_move", "level_simulations", "LEVELS"]

LEVELS = tuple(range(1, 10))  # strength levels, weakest first


def level_simulations(level: int) -> int:
    """Simulations searched at strength level 1 (weakest) .. 9 (strongest)."""
    if not isinstance(level, (int, np.integer)) or isinstance(level, bool) or not 1 <= int(level) <= 9:
        raise TrigonError(f"level must be an integer 1..9, not {level!r}")
    return int(_core.level_simulations(int(level)))


@dataclass(repr=False, eq=False)  # numpy fields: == compares identity (a field-wise == would raise)
class MoveAnalysis:
    """One searched move of the root: visits, mean value for the colour to move (0..1), prior,
    and per colour the mean value and final score of the simulations through it (NaN for a
    move no simulation went through, such as a forced move). The prior is the search's own
    estimate of the move before any simulation (bigger pieces, new corners and cells taken
    from the others score higher; 0.5 with ``use_priors=False``), a value counted as
    ``prior_weight`` visits before the real ones, not a probability: the priors of a position do not add up to 1. For a
    policy target use the visits (``arrays()["visits"]`` over their sum)."""

    move: Move
    visits: int
    value: float
    prior: float
    value_per_colour: np.ndarray
    score_per_colour: np.ndarray

    def __repr__(self) -> str:
        value = "unknown" if self.visits == 0 else f"{self.value:.3f}"
        return f"<MoveAnalysis {self.move}: {_args.counted(self.visits, 'visit')}, value {value}, prior {self.prior:.3f}>"

    def to_dict(self) -> Dict[str, Any]:
        """The move's figures as JSON data (the move as text and id; None where a figure is
        NaN: strict JSON has no NaN)."""
        return {
            "move": str(self.move),
            "id": self.move.id,
            "visits": self.visits,
            "value": _json_float(self.value),
            "prior": self.prior,
            "value_per_colour": _json_floats(self.value_per_colour),
            "score_per_colour": _json_floats(self.score_per_colour),
        }


@dataclass(repr=False, eq=False)
class Analysis:
    """Result of a search. ``value`` (0..1) and ``expected_score`` are per colour (index 0..3;
    colours not in the game, and every colour after a forced move, hold NaN); ``moves`` are the
    searched root moves, most visited first; ``pv`` the principal variation."""

    colour: Colour
    best_move: Move
    moves: List[MoveAnalysis]
    pv: List[Tuple[Colour, Move]]
    value: np.ndarray
    expected_score: np.ndarray
    simulations: int
    seconds: float
    nodes: int
    forced: bool = False
    stopped: bool = False
    interrupted: bool = False
    reused_visits: int = 0

    def __repr__(self) -> str:
        # A summary: the dataclass's own repr lists every root move with its arrays.
        head = f"{self.colour.name.lower()} to move: best {self.best_move}"
        if self.forced:
            head += " (forced)"
        else:
            head += f" (value {self.value[int(self.colour)]:.3f})"
        return (f"<Analysis {head}, {_args.counted(len(self.moves), 'move')} searched, {_args.counted(self.simulations, 'simulation')},"
                f" {self.seconds:.3f} s{', interrupted' if self.interrupted else ''}>")

    @property
    def simulations_per_second(self) -> float:
        """Simulations searched per second of the search (0.0 when it took no measurable time)."""
        return self.simulations / self.seconds if self.seconds > 0 else 0.0

    def arrays(self) -> Dict[str, np.ndarray]:
        """Root moves as parallel numpy arrays (ids, visits, values, priors, per-colour values
        and scores of shape (n, 4))."""
        n = len(self.moves)
        return {
            "ids": np.array([m.move.id for m in self.moves], dtype=np.uint16),
            "visits": np.array([m.visits for m in self.moves], dtype=np.int64),
            "values": np.array([m.value for m in self.moves], dtype=np.float32),
            "priors": np.array([m.prior for m in self.moves], dtype=np.float32),
            "value_per_colour": np.array([m.value_per_colour for m in self.moves], dtype=np.float32).reshape(n, 4),
            "score_per_colour": np.array([m.score_per_colour for m in self.moves], dtype=np.float32).reshape(n, 4),
        }

    def to_dict(self) -> Dict[str, Any]:
        """The analysis as JSON data: colour, best move (text and id), every root move's
        figures (``MoveAnalysis.to_dict``), principal variation, values (None for NaN: colours
        not in the game, a forced move's), simulations, seconds, nodes and how it ended."""
        return {
            "colour": int(self.colour),
            "best_move": str(self.best_move),
            "best_move_id": self.best_move.id,
            "moves": [m.to_dict() for m in self.moves],
            "pv": [(int(c), str(m)) for c, m in self.pv],
            "value": _json_floats(self.value),
            "expected_score": _json_floats(self.expected_score),
            "simulations": self.simulations,
            "seconds": self.seconds,
            "nodes": self.nodes,
            "forced": self.forced,
            "stopped": self.stopped,
            "interrupted": self.interrupted,
            "reused_visits": self.reused_visits,
        }


def _json_float(x: float) -> Optional[float]:
    return None if math.isnan(x) else float(x)


def _json_floats(a: np.ndarray) -> List[Optional[float]]:
    return [_json_float(x) for x in a.tolist()]


def _sides(game: Game) -> List[int]:
    side_of = [0, 0, 0, 0]
    for i, colours in enumerate(game.variant.players):
        for c in colours:
            side_of[int(c)] = i
    return side_of


def _convert(raw: "_core.Analysis", interrupted: bool, side: int, in_play: Sequence[bool]) -> Analysis:
    mask = np.array(in_play, dtype=bool)

    def per_colour(values: Sequence[float], known: bool = True) -> np.ndarray:
        a = np.array(values, dtype=np.float64)
        a[~mask] = np.nan
        if not known:
            a[:] = np.nan
        return a

    searched = raw.simulations > 0  # a forced move is returned without simulations

    # A move no simulation went through has no value yet (the core reports its prior there).
    moves = [
        MoveAnalysis(Move.from_id(m.move, side), int(m.visits), float(m.value) if m.visits else float("nan"),
                     float(m.prior), per_colour(m.value_per_colour, m.visits > 0),
                     per_colour(m.score_per_colour, m.visits > 0))
        for m in raw.moves
    ]
    return Analysis(
        colour=Colour(raw.to_move),
        best_move=Move.from_id(raw.best_move, side),
        moves=moves,
        # A forced move is played unsearched: its line is that move alone.
        pv=[(Colour(c), Move.from_id(m, side)) for c, m in zip(raw.pv_colours, raw.pv)] or
           ([(Colour(raw.to_move), Move.from_id(raw.best_move, side))] if raw.forced else []),
        value=per_colour(raw.value, searched),
        expected_score=per_colour(raw.expected_score, searched),
        simulations=int(raw.simulations),
        seconds=float(raw.seconds),
        nodes=int(raw.nodes),
        forced=bool(raw.forced),
        stopped=bool(raw.stopped) or interrupted,
        interrupted=interrupted,
        reused_visits=int(raw.reused_visits),
    )


class Engine:
    """A searcher that keeps its tree between consecutive searches of one game (tree reuse),
    with default limits and knobs; ``analyse`` / ``best_move`` take the same arguments as the
    module functions and override the defaults.

    ``max_nodes`` is the node budget of the tree (default 2**23 nodes of 24 bytes: at most
    192 MiB; it always holds the root and its moves); once it is spent the tree stops growing
    and the search goes on. Copies and
    pickles of an engine have its settings and an empty tree of their own.

    ``playout``: ``"uniform"`` (the default: every legal move equally likely) or ``"sampled"``
    (a random attach point, piece and placement; cheaper per move, no measured gain). The other
    knobs, with their defaults (the levels' settings):

    - ``exploration=0.08``: the UCT constant;
    - ``prior_weight=2.0``: pseudo-visits given to a move's prior value; ``use_priors=True``
      (the prior grows with the piece's size; False: 0.5 for every move), ``attach_prior=0.0``
      (a bonus for the mover's new attach points) and ``block_prior=0.05`` (for covering other
      sides' attach points);
    - ``score_weight=0.05``: the share of a result's value taken by the score margin (the rest
      is the win, draw or loss);
    - ``expand_threshold=4``: a node is expanded on its visit number ``expand_threshold + 1``;
      0 expands every node a simulation reaches, down to the end of the game (a full tree, for
      small endgames only);
    - ``reuse_tree=True``: keep the subtree of the game's new position between searches;
    - with ``playout="sampled"`` only: ``playout_large_bias=0.0`` (0..1: prefer larger pieces)
      and ``playout_give_up=0`` (a colour is out after that many failed samples; 0: exact)."""

    # Each knob: bool, or (int or float, least, most): checked before it reaches the core.
    _KNOBS: Dict[str, Any] = {
        "exploration": (float, 0.0, 100.0),
        "prior_weight": (float, 0.0, 1e6),
        "use_priors": bool,
        "attach_prior": (float, -10.0, 10.0),
        "block_prior": (float, -10.0, 10.0),
        "score_weight": (float, 0.0, 1.0),
        "expand_threshold": (int, 0, 1_000_000),
        "max_nodes": (int, 1, 2**32 - 2),  # node indices are 32-bit (the top one marks a node being expanded)
        "reuse_tree": bool,
        "playout_large_bias": (float, 0.0, 1.0),
        "playout_give_up": (int, 0, 1_000_000),
    }

    def __init__(self, time: Optional[float] = None, simulations: Optional[int] = None, threads: int = 1,
                 seed: int = 0, level: Optional[int] = None, playout: str = "uniform", **knobs: Any) -> None:
        self._knobs = self._checked_knobs(knobs, per_search=False)
        self._defaults: Dict[str, Any] = dict(time=time, simulations=simulations, threads=threads, seed=seed, level=level)
        self._playout = playout
        self._params(time, simulations, threads, seed, level, None, None)  # bad defaults fail here, not later
        self._searcher = _core.Searcher()
        # Held while a search runs (stop() does not wait for it). Re-entrant: a callback that
        # searches with this engine again gets the core's error, not a deadlock.
        self._running = threading.RLock()

    @classmethod
    def _checked_knobs(cls, knobs: Dict[str, Any], per_search: bool) -> Dict[str, Any]:
        """The knobs checked: an unknown name is a ValueError with the likely intended one.
        ``per_search``: the knobs of one search (``analyse``), else the engine's (``Engine()``)."""
        unknown = set(knobs) - set(cls._KNOBS)
        # Arguments of the other call: the difflib hint would name the argument itself back.
        misplaced = unknown & ({"playout"} if per_search else {"callback", "callback_every", "callback_simulations"})
        if misplaced:
            name = min(misplaced)
            raise TrigonError(f"{name} is set when the engine is made (Engine({name}=...)), not per search"
                             if per_search else f"{name} is an argument of Engine.analyse and best_move, not of Engine()")
        if unknown:
            known = ["time", "simulations", "threads", "seed", "level", "playout", "callback", "callback_every",
                     "callback_simulations", *cls._KNOBS]
            hints = {"time_limit": "time", "max_simulations": "simulations", "sims": "simulations"}
            close = [hints.get(k) or next(iter(difflib.get_close_matches(k, known, 1)), None) for k in sorted(unknown)]
            hint = "; did you mean " + ", ".join(c for c in close if c) + "?" if any(close) else ""
            raise TrigonError(f"unknown search option(s): {', '.join(sorted(unknown))}{hint}")
        return {k: cls._check_knob(k, v) for k, v in knobs.items()}

    @classmethod
    def _check_knob(cls, name: str, value: Any) -> Any:
        spec = cls._KNOBS[name]
        if spec is bool:
            return _args.flag(name, value)
        kind, lo, hi = spec
        if kind is int:
            return _args.integer(name, value, lo, hi)
        return _args.real(name, value, lo, hi)

    def __reduce__(self) -> Tuple[Callable[[Dict[str, Any], str, Dict[str, Any]], "Engine"],
                                  Tuple[Dict[str, Any], str, Dict[str, Any]]]:
        # copy, deepcopy and pickle (to a worker process) carry the settings, not the tree.
        return (_engine_from_settings, (self._defaults, self._playout, self._knobs))

    def stop(self) -> None:
        """Ends a running search soon (from another thread); it returns its best move so far.
        A search whose call began before the stop but had not started yet (waiting for this
        engine, or still copying its game) is ended too; a stop with no call under way does not
        carry over to the next search."""
        self._searcher.stop()

    def clear(self) -> None:
        """Forgets the search tree (after a search running in another thread)."""
        with self._running:
            self._searcher.clear()

    def __repr__(self) -> str:
        limits = ", ".join(f"{k}={v!r}" for k, v in self._defaults.items() if v is not None)
        knobs = "".join(f", {k}={v!r}" for k, v in self._knobs.items())
        return f"<Engine {limits}{knobs}, {self.nodes} nodes in its tree>"

    @property
    def nodes(self) -> int:
        """Nodes in the engine's search tree now (it is kept between searches of one game)."""
        return int(self._searcher.nodes)

    def _params(self, time: Optional[float], simulations: Optional[int], threads: int, seed: int, level: Optional[int],
                progress_every: Optional[float], progress_simulations: Optional[int],
                knobs: Optional[Dict[str, Any]] = None) -> "_core.SearchParams":
        p = _core.SearchParams()
        if simulations is not None:
            simulations = _args.integer("simulations", simulations, 1, _args.MAX_COUNT)
        if level is not None:
            sims = level_simulations(level)
            simulations = sims if simulations is None else min(simulations, sims)
        if time is None and simulations is None:
            simulations = level_simulations(5)
        if simulations is not None:
            p.max_simulations = simulations
        if time is not None:
            p.max_seconds = _args.seconds("time", time)
        p.threads = _args.integer("threads", threads, 1, _args.MAX_THREADS)
        p.seed = _args.seed(seed)
        if self._playout not in ("sampled", "uniform"):
            raise TrigonError("playout must be 'sampled' or 'uniform'")
        p.playout = _core.PlayoutKind.SAMPLED if self._playout == "sampled" else _core.PlayoutKind.UNIFORM
        knobs = self._knobs if knobs is None else knobs
        ignored = sorted(k for k in ("playout_large_bias", "playout_give_up") if k in knobs)
        if ignored and self._playout != "sampled":  # (uniform playouts have no samples to bias)
            raise TrigonError(f"{ignored[0]} applies to sampled playouts only: Engine(playout='sampled', ...)")
        for k, v in knobs.items():
            setattr(p, k, v)
        if progress_every is not None:
            p.progress_every_seconds = _args.seconds("callback_every", progress_every)
        if progress_simulations is not None:
            p.progress_every_simulations = _args.integer("callback_simulations", progress_simulations, 1, _args.MAX_COUNT)
        return p

    def analyse(self, game: Game, time: Optional[float] = None, simulations: Optional[int] = None,
                threads: Optional[int] = None, seed: Optional[int] = None, level: Optional[int] = None,
                callback: Optional[Callable[[Analysis], Any]] = None, callback_every: Optional[float] = None,
                callback_simulations: Optional[int] = None, **knobs: Any) -> Analysis:
        """Search the position of ``game`` (a :class:`Game`). Limits: ``time`` (seconds),
        ``simulations``, or a strength ``level`` 1..9 (default level 5). ``callback(analysis)``
        runs every ``callback_every`` seconds (default 0.5) or ``callback_simulations``
        simulations with the analysis so far (checked every 2 ms or so, so no more often than
        that); returning ``False`` (numpy's too) stops the search. ``knobs`` (``exploration=``
        ...) override the engine's for this search."""
        stops_seen = self._searcher.stop_count  # a stop() from now on ends this search, even before it starts
        knobs = {**self._knobs, **self._checked_knobs(knobs, per_search=True)}
        if not isinstance(game, Game):
            raise TypeError(f"game must be a Game, not {type(game).__name__}")
        game = game.copy()  # (taken under its lock: another thread may play on while this searches)
        if game.is_over:
            raise GameOverError("the game is over: there is no move to search")
        d = self._defaults
        if time is None and simulations is None and level is None:
            time, simulations, level = d["time"], d["simulations"], d["level"]
        threads = d["threads"] if threads is None else threads
        seed = d["seed"] if seed is None else seed
        if callback is not None and not callable(callback):
            raise TrigonError(f"callback must be callable, not {callback!r}")
        if callback_every is not None:  # (checked without a callback too: a mistake is a mistake)
            _args.seconds("callback_every", callback_every)
        if callback_simulations is not None:
            _args.integer("callback_simulations", callback_simulations, 1, _args.MAX_COUNT)
        if callback is not None and callback_every is None and callback_simulations is None:
            callback_every = 0.5
        params = self._params(time, simulations, threads, seed, level,
                              callback_every if callback is not None else None,
                              callback_simulations if callback is not None else None, knobs)
        params.side_of_colour = _sides(game)
        pos = game.position
        side = game.variant.side
        in_play = [bool(pos.in_play(c)) for c in range(4)]
        progress: Optional[Callable[[_core.Analysis], None]] = None
        ctrl_c: List[bool] = []  # a Ctrl-C that landed in the callback: the search ends as on any other
        if callback is not None:
            def on_progress(raw: "_core.Analysis") -> None:
                try:
                    if raw.best_move >= 0 and _args.says_stop(callback(_convert(raw, False, side, in_play))):
                        self._searcher.stop()
                except KeyboardInterrupt:
                    ctrl_c.append(True)
                    self._searcher.stop()

            progress = on_progress
        try:
            with self._running:  # one search at a time on the tree: a second thread waits
                raw, interrupted = self._searcher.run(pos, params, progress, stops_seen)
        except _core.GameOverError as e:  # pragma: no cover - checked above
            raise GameOverError(str(e)) from None
        return _convert(raw, bool(interrupted) or bool(ctrl_c), side, in_play)

    def best_move(self, game: Game, **kwargs: Any) -> Move:
        """The move the search chooses (same arguments as :meth:`analyse`)."""
        return self.analyse(game, **kwargs).best_move


def _engine_from_settings(defaults: Dict[str, Any], playout: str, knobs: Dict[str, Any]) -> Engine:
    return Engine(**defaults, playout=playout, **knobs)


def analyse(game: Game, time: Optional[float] = None, simulations: Optional[int] = None, threads: int = 1,
            seed: int = 0, level: Optional[int] = None, callback: Optional[Callable[[Analysis], Any]] = None,
            **options: Any) -> Analysis:
    """Search a game's position with a fresh tree and return its :class:`Analysis`.

    Limits: ``time`` in seconds, ``simulations``, or a strength ``level`` 1..9 (at most that
    level's simulations); with none, level 5. ``threads`` search one shared tree; with one
    thread and no time limit the result depends only on ``seed``. Raises
    :class:`GameOverError` (a ``ValueError``) when the game is over."""
    callback_opts = {k: options.pop(k) for k in ("callback_every", "callback_simulations") if k in options}
    if "reuse_tree" in options:
        raise TrigonError("analyse searches with a fresh tree each time: keep an Engine to reuse its tree")
    engine = Engine(threads=threads, seed=seed, reuse_tree=False, **options)
    return engine.analyse(game, time=time, simulations=simulations, level=level, callback=callback, **callback_opts)


def best_move(game: Game, time: Optional[float] = None, simulations: Optional[int] = None, threads: int = 1,
              seed: int = 0, level: Optional[int] = None, **options: Any) -> Move:
    """The move a search of the game's position chooses (see :func:`analyse`)."""
    return analyse(game, time=time, simulations=simulations, threads=threads, seed=seed, level=level,
                   **options).best_move
