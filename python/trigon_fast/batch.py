"""Many games at once: batched self-play in C++, and scale-out over any ``concurrent.futures``
executor (a local process pool by default, or a Dask cluster's ``Client(...).get_executor()``).

:func:`play_games` plays N games on T threads inside C++ (GIL released; Ctrl-C stops it and keeps
the games finished) and returns numpy arrays. :func:`self_play`, :func:`analyse` and :func:`solve_seeds` split work into tasks,
run them on an executor and stream each task's results to a JSON-lines file as it completes, so
a failed worker loses only its own task; :func:`read_results` reads such a file back.

>>> import trigon_fast as tf
>>> from trigon_fast.batch import play_games
>>> b = play_games(tf.Variant.FOUR_PLAYER, games=4, seed=1, threads=2)
>>> b.moves.shape
(4, 88)
>>> b.game(0).history == tf.random_game(tf.Variant.FOUR_PLAYER, seed=1).history
True
"""

from __future__ import annotations

import concurrent.futures as cf
import inspect
import json
import multiprocessing as mp
import os
import time
import traceback
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union, cast

import numpy as np

from . import _args, _core
from .errors import OutOfRangeError, TrigonError
from .game import Game, _lock_of
from .move import Move
from .playout import start_variant as _start_variant
from .variants import Colour, Variant, VariantLike, as_variant

if TYPE_CHECKING:
    from tqdm.auto import tqdm

__all__ = [
    "BatchError",
    "GameIndexError",
    "GameBatch",
    "RunSummary",
    "POLICIES",
    "analyse",
    "local_pool",
    "play_games",
    "read_results",
    "self_play",
    "solve_seeds",
    "summarise_game",
]

POLICIES = ("random", "greedy", "search")
PathLike = Union[str, "os.PathLike[str]"]
IntSequence = Union[Sequence[int], np.ndarray]


class BatchError(TrigonError):
    """Bad arguments to a batch function."""


class GameIndexError(BatchError, OutOfRangeError):
    """A game index of a batch that is not an integer in range (an ``IndexError`` too, as a list's)."""


# -- batched self-play in C++ ------------------------------------------------------------------

@dataclass(repr=False)
class GameBatch:
    """Games played by :func:`play_games`. Row ``i`` is the game of seed ``seed + i``.

    ``moves``: (games, max_moves) placement ids, -1 after the end; ``colours``: the colour of each
    move, -1 after the end; ``lengths``: moves per game; ``scores``: (games, 4) rulebook scores
    (0 for colours not in play); with ``observations=True`` also ``planes``
    (games, max_moves, 6, cells) and ``pieces`` (games, max_moves, 4, 22): the observation of the
    colour to move before each move, as in :mod:`trigon_fast.env`. ``interrupted``: Ctrl-C
    stopped the run; the batch holds the games played to their end before it (the first ones,
    still game ``i`` of seed ``seed + i``).
    """

    variant: Variant
    seed: int
    policy: str
    moves: np.ndarray
    colours: np.ndarray
    lengths: np.ndarray
    scores: np.ndarray
    planes: Optional[np.ndarray] = None
    pieces: Optional[np.ndarray] = None
    start: Optional[Game] = field(default=None, repr=False)
    interrupted: bool = False

    def __len__(self) -> int:
        return int(self.lengths.shape[0])

    def __repr__(self) -> str:
        obs = ", with observations" if self.planes is not None else ""
        start = ", from a position" if self.start is not None else ""
        stopped = ", interrupted" if self.interrupted else ""
        return (f"<GameBatch {_args.counted(len(self), 'game')} of {self.variant!r}, policy {self.policy!r}, "
                f"seed {self.seed}{start}{obs}{stopped}>")

    def game(self, i: int) -> Game:
        """Game ``i`` replayed as a :class:`Game` (``-1``: the last one, as in a list)."""
        n = len(self.lengths)
        if type(i) is not int or not -n <= i < n:
            i = _args.integer(f"a game index (the batch has {_args.counted(n, 'game')})", i, -n, n - 1, GameIndexError)
        g = self.start.copy() if self.start is not None else Game(self.variant)
        for k in range(int(self.lengths[i])):
            g.play(int(self.moves[i, k]))
        return g

    def player_scores(self) -> np.ndarray:
        """(games, players) scores of each player or team: the sum over its colours."""
        return np.stack([self.scores[:, [int(c) for c in cs]].sum(axis=1) for cs in self.variant.players], axis=1)


def _seeds_from(seed: object, games: int) -> int:
    """The first seed of ``games`` games seeded ``seed + i``: all of them seeds (they would wrap
    around to 0 in the core, repeating other runs' games)."""
    seed = _args.seed(seed, BatchError)
    if games and seed + games - 1 > _args.SEED_MAX:
        raise BatchError(f"seeds {seed}..{seed + games - 1} go past the largest seed, 2**64 - 1")
    return seed


def play_games(variant: Optional[VariantLike] = None, games: int = 1000, seed: int = 0, policy: str = "random",
               threads: int = 0, observations: bool = False, level: int = 1,
               start: Optional[Game] = None) -> GameBatch:
    """Plays ``games`` games in C++ on ``threads`` threads (0: one per hardware thread).

    ``policy``: ``"random"`` (uniform over legal moves; game i equals
    ``random_game(variant, seed + i)``), ``"greedy"`` (a largest legal piece, uniform among
    them), ``"search"`` (the MCTS at strength ``level`` 1..9, one thread per game, a fresh tree
    each move). Game ``i`` uses seed ``seed + i`` whatever the thread count. ``start``: continue
    from this game's position instead of the empty board (``variant``, when given too, must
    be the game's). ``variant`` defaults to the four-player game. Ctrl-C stops the run and
    returns the games finished before it (``interrupted`` set).
    """
    if policy not in POLICIES:
        raise BatchError(f"policy must be one of {', '.join(POLICIES)}, not {policy!r}")
    games = _args.integer("games", games, 0, _args.MAX_COUNT, BatchError)
    seed = _seeds_from(seed, games)
    threads = _args.integer("threads", threads, 0, _args.MAX_THREADS, BatchError)  # 0: one per hardware thread
    level = _args.integer("level", level, 1, 9, BatchError)
    variant = _start_variant(variant, start, BatchError)
    if start is not None:
        start = start.copy()  # (under its lock: the batch reads it with the GIL released)
    pos = start.position if start is not None else Game(variant).position
    sides = [0, 1, 2, 3]
    for p, cs in enumerate(variant.players):
        for c in cs:
            sides[int(c)] = p
    try:
        d = _core.play_games(pos, games, seed, policy, threads, _args.flag("observations", observations, BatchError),
                             level, sides)
    except (MemoryError, ValueError) as e:
        if isinstance(e, ValueError) and "too big" not in str(e):  # numpy's "array is too big"
            raise
        raise BatchError(f"not enough memory for {games} games (their moves are kept)") from None
    if d.get("interrupted"):
        n = d["played"]
        d = {k: v[:n] if isinstance(v, np.ndarray) else v for k, v in d.items()}
    return GameBatch(variant, seed, policy, d["moves"], d["colours"], d["lengths"], d["scores"],
                     d.get("planes"), d.get("pieces"), start, bool(d.get("interrupted", False)))


# -- scale-out ---------------------------------------------------------------------------------

@dataclass
class RunSummary:
    """What a scale-out run did: ``results`` lines written to ``path``, ``tasks`` done,
    ``failed``: (task, error text) of each task that raised (its results are missing)."""

    path: str
    tasks: int
    results: int
    seconds: float
    failed: List[Tuple[int, str]] = field(default_factory=list)
    skipped: int = 0  # tasks already in the file (resume)

    @property
    def ok(self) -> bool:
        """True when no task failed."""
        return not self.failed


def _game_record(variant: Variant, moves: IntSequence, colours: IntSequence, scores: IntSequence) -> dict:
    side = variant.side
    sc = {Colour(c).name.lower(): int(scores[int(c)]) for c in variant.colours}
    ps = [sum(int(scores[int(c)]) for c in cs) for cs in variant.players]
    best = max(ps)
    return {
        "moves": [str(Move._trusted(m, side)) for m in np.asarray(moves).tolist()],  # (ids the core played)
        "colours": [int(c) for c in colours],
        "scores": sc,
        "player_scores": ps,
        "winners": [i for i, s in enumerate(ps) if s == best],
    }


def _variant_dict(v: Variant) -> dict:
    return {"kind": v.kind, "alternate_rule": v.alternate_rule, "pentobi_compatible": v.pentobi_compatible,
            "colours": None if v.colours_override is None else list(v.colours_override),
            "side": v.side_override}


def _variant_from_dict(d: dict) -> Variant:
    return Variant(d["kind"], d["alternate_rule"], d["pentobi_compatible"],
                   None if d.get("colours") is None else tuple(d["colours"]), d.get("side"))


def _self_play_task(variant: Variant, first: int, count: int, seed: int, policy: str, level: int, threads: int,
                    blksgf: bool) -> Tuple[List[dict], Optional[str]]:
    """One task: games first..first+count-1 of a run (game i uses seed + i)."""
    b = play_games(variant, count, seed + first, policy, threads=threads, level=level)
    lines = []
    for j in range(count):
        n = int(b.lengths[j])
        rec = _game_record(variant, b.moves[j, :n], b.colours[j, :n], b.scores[j])
        lines.append({"game": first + j, "seed": seed + first + j, "policy": policy, **rec})
    sgf = None
    if blksgf:
        from . import records

        sgf = "".join(records.write_blksgf(b.game(j)) for j in range(count))
    return lines, sgf


def _progress(total: int, desc: str, enabled: bool) -> Optional["tqdm"]:
    if enabled:
        try:
            from tqdm.auto import tqdm
        except ImportError:
            pass
        else:
            return tqdm(total=total, desc=desc, unit="", dynamic_ncols=True)
    return None


def _keep_complete_tasks(path: str) -> set:
    """For resume: rewrites ``path`` keeping only the tasks all of whose lines are there (a crash
    can cut a task short or leave half a line) and returns their ids."""
    if not os.path.exists(path):
        return set()
    rows: Dict[int, List[str]] = {}
    expected: Dict[int, int] = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.endswith("\n"):
                continue  # cut short
            try:
                rec = json.loads(line)
                tid, n = rec["task"], rec["task_lines"]
            except (ValueError, KeyError, TypeError):
                continue
            rows.setdefault(tid, []).append(line)
            expected[tid] = n
    done = {t for t, lines in rows.items() if len(lines) == expected[t]}
    tmp = path + ".resume"
    with open(tmp, "w", encoding="utf-8") as f:
        for t in sorted(done):
            f.writelines(rows[t])
    os.replace(tmp, path)
    return done


def local_pool(workers: Optional[int] = None) -> cf.ProcessPoolExecutor:
    """The default executor: a local process pool. Workers start from a fork server where there
    is one, since forking a process that already runs threads (C++ workers, Dask) can deadlock."""
    ctx = None
    if "forkserver" in mp.get_all_start_methods():
        ctx = mp.get_context("forkserver")
    return cf.ProcessPoolExecutor(max_workers=workers or os.cpu_count() or 1, mp_context=ctx)


def _run(tasks: List[Tuple[int, Callable, tuple, int]], path: PathLike, executor: Optional[cf.Executor],
         progress: bool, desc: str, resume: bool,
         on_result: Optional[Callable[[int, object], List[dict]]] = None) -> RunSummary:
    """Submits (task id, fn, args, weight) tasks; writes each task's lines as soon as it is done."""
    path = os.fspath(path)
    t0 = time.perf_counter()
    done = _keep_complete_tasks(path) if resume else set()
    todo = [t for t in tasks if t[0] not in done]
    own = executor is None
    pool = local_pool(min(os.cpu_count() or 1, max(len(todo), 1))) if executor is None else executor
    bar = _progress(sum(t[3] for t in todo), desc, progress)
    summary = RunSummary(path, 0, 0, 0.0, skipped=len(tasks) - len(todo))
    try:
        with open(path, "a" if resume else "w", encoding="utf-8") as out:
            futures = {pool.submit(fn, *args): (tid, weight) for tid, fn, args, weight in todo}
            for fut in cf.as_completed(futures):
                tid, weight = futures[fut]
                try:
                    value = fut.result()
                except Exception as e:  # a failed task loses only its own results
                    summary.failed.append((tid, "".join(traceback.format_exception_only(type(e), e)).strip()))
                    continue
                lines = on_result(tid, value) if on_result else value
                # One write per task; task_lines lets a resume tell a complete task from a cut one.
                out.write("".join(json.dumps({"task": tid, "task_lines": len(lines), **rec}, separators=(",", ":")) + "\n"
                                  for rec in lines))
                out.flush()
                summary.tasks += 1
                summary.results += len(lines)
                if bar is not None:
                    bar.update(weight)
    finally:
        if bar is not None:
            bar.close()
        if own:
            pool.shutdown(wait=True, cancel_futures=True)
    summary.failed.sort()
    summary.seconds = time.perf_counter() - t0
    return summary


def self_play(variant: VariantLike = Variant.FOUR_PLAYER, games: int = 1000, path: PathLike = "selfplay.jsonl", *,
              seed: int = 0, policy: str = "random", level: int = 1, executor: Optional[cf.Executor] = None,
              games_per_task: int = 1000, threads_per_task: int = 1, blksgf_dir: Optional[PathLike] = None,
              progress: bool = True, resume: bool = False) -> RunSummary:
    """Plays ``games`` games (game i with seed ``seed + i``, so the split into tasks does not
    change any game) on ``executor`` and writes one JSON line per game to ``path``: ``game``,
    ``seed``, ``task``, ``moves`` (Pentobi notation), ``colours``, ``scores``, ``player_scores``,
    ``winners``. ``blksgf_dir``: also write each task's games as a blksgf collection
    ``task_NNNNN.blksgf`` there. ``resume``: keep the tasks already
    in ``path`` and run only the others.
    """
    variant = as_variant(variant, BatchError)  # here, not in every task on the executor
    if policy not in POLICIES:
        raise BatchError(f"policy must be one of {', '.join(POLICIES)}, not {policy!r}")
    games = _args.integer("games", games, 0, _args.MAX_COUNT, BatchError)
    games_per_task = _args.integer("games_per_task", games_per_task, 1, _args.MAX_COUNT, BatchError)
    threads_per_task = _args.integer("threads_per_task", threads_per_task, 0, _args.MAX_THREADS, BatchError)
    seed = _seeds_from(seed, games)
    level = _args.integer("level", level, 1, 9, BatchError)
    if blksgf_dir is not None:
        os.makedirs(blksgf_dir, exist_ok=True)
    tasks = []
    for tid, first in enumerate(range(0, games, games_per_task)):
        count = min(games_per_task, games - first)
        tasks.append((tid, _self_play_task,
                      (variant, first, count, seed, policy, level, threads_per_task, blksgf_dir is not None), count))

    def on_result(tid: int, value: object) -> List[dict]:
        lines, sgf = cast(Tuple[List[dict], Optional[str]], value)  # what _self_play_task returns
        if sgf is not None and blksgf_dir is not None:
            with open(os.path.join(os.fspath(blksgf_dir), f"task_{tid:05d}.blksgf"), "w", encoding="utf-8") as f:
                f.write(sgf)
        return [{"variant": _variant_dict(variant), **rec} for rec in lines]

    return _run(tasks, path, executor, progress, f"self-play ({policy})", resume, on_result)


def summarise_game(game: Game) -> dict:
    """Default analysis of a finished (or unfinished) game: length, scores, winners, and the
    number of legal moves of the colour to move at every ply (mobility). A record's setup
    placements are not moves: neither counted nor given a mobility."""
    with _lock_of(game):
        # The position before each move: the game's undo stack (made again from the nearest one kept
        # after a bulk replay; setups need none).
        mobility = [int(game._position_before(i).generate(int(game._history[i][0])).size) for i in game._move_indices()]
    ps = list(game.player_scores())
    best = max(ps)
    return {
        "length": len(mobility),
        "over": game.is_over,
        "scores": {c.name.lower(): s for c, s in game.scores().items()},
        "player_scores": ps,
        "winners": [i for i, s in enumerate(ps) if s == best],
        "mobility": mobility,
    }


def _games_in(source: str) -> Iterator[Tuple[dict, Game]]:
    """(label, game) of every game in a file: a JSON-lines file of self_play (the label keeps its
    game number), or a blksgf record."""
    if source.endswith((".jsonl", ".json")):
        with open(source, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                line = line.strip()
                if not line:
                    continue
                rec = json.loads(line)
                v = _variant_from_dict(rec["variant"]) if "variant" in rec else Variant.FOUR_PLAYER
                g = Game(v)
                for c, m in zip(rec["colours"], rec["moves"]):
                    g.play(m, colour=c)
                label = {"source": f"{source}:{n}"}
                if "game" in rec:
                    label["game"] = rec["game"]
                yield label, g
        return
    from . import records

    with open(source, encoding="utf-8") as f:
        text = f.read()
    roots = records.parse_sgf(text)
    for k, root in enumerate(roots):
        yield {"source": source if len(roots) == 1 else f"{source}#{k}"}, records.Record(root).game()


def _analyse_task(source: str, analysis: Callable[[Game], dict]) -> List[dict]:
    return [{**label, **analysis(g)} for label, g in _games_in(source)]


def analyse(sources: Iterable[PathLike], path: PathLike = "analysis.jsonl", *,
            analysis: Callable[[Game], dict] = summarise_game, executor: Optional[cf.Executor] = None,
            progress: bool = True, resume: bool = False) -> RunSummary:
    """Analyses every game of a collection of files (one task per file): blksgf records or
    JSON-lines files written by :func:`self_play`. ``analysis`` maps a :class:`Game` to a
    JSON-able dict (a module-level function, so it can be sent to workers); one line per game is written to ``path`` with the game's ``source`` (and its ``game`` number
    when it comes from self-play)."""
    if isinstance(sources, (str, os.PathLike)):  # one file (a string is not a list of one-letter paths)
        sources = [sources]
    files = [os.fspath(s) for s in sources]
    tasks = [(tid, _analyse_task, (src, analysis), 1) for tid, src in enumerate(files)]
    return _run(tasks, path, executor, progress, "analysis", resume)


def _solve_task(variant: Optional[Variant], seed: int, time_limit: float, options: dict) -> List[dict]:
    from . import solver

    found = solver.solve_solo(variant, seed=seed, time_limit=time_limit, threads=1, **options)
    # count=N gives a list (the distinct layouts found in time): a line for each.
    sols = found if isinstance(found, list) else [found]
    return [{
        "seed": seed,
        "solution": k,
        "complete": bool(sol.complete),
        "total_score": int(sol.total_score),
        "unplaced_triangles": int(sol.unplaced_triangles),
        "moves": [str(m) for _, m in sol.moves],
        "colours": [int(c) for c, _ in sol.moves],
        "nodes": int(sol.stats.nodes),
        "seconds": float(sol.stats.seconds),
        "record": sol.to_blksgf(),  # (the variant and a start position too: the line replays alone)
    } for k, sol in enumerate(sols)]


def solve_seeds(seeds: Iterable[int], path: PathLike = "solo.jsonl", *, variant: Optional[VariantLike] = None,
                time_limit: float = 10.0, executor: Optional[cf.Executor] = None, progress: bool = True,
                resume: bool = False, **solver_options: Any) -> RunSummary:
    """Runs the solo solver once per seed (one task each, one thread each) and writes one JSON
    line per seed: ``complete``, ``total_score``, ``moves``, ``nodes``, ``seconds``, and
    ``solution`` (0; with ``count=N`` among the ``solver_options``, a line for each distinct layout
    found, numbered from 0), and ``record``, the solution's blksgf record (its variant and start
    position with it). ``solver_options`` go to ``solve_solo``; they are checked here, not in
    every task."""
    v = as_variant(variant, BatchError) if variant is not None else None  # (None: solo, or the game's)
    time_limit = _args.seconds("time_limit", time_limit, BatchError)
    from . import solver

    known = set(inspect.signature(solver.solve_solo).parameters) - {"variant", "seed", "time_limit", "threads"}
    for name in solver_options:  # a misspelt option fails here, not in every task
        if name not in known:
            raise BatchError(f"unknown solver option {name!r}; solve_seeds passes {', '.join(sorted(known))}")
    try:
        solver._check_options(v, **solver_options)
    except TrigonError as e:
        raise BatchError(str(e)) from None
    tasks = [(tid, _solve_task, (v, _args.seed(s, BatchError), time_limit, dict(solver_options)), 1)
             for tid, s in enumerate(seeds)]
    return _run(tasks, path, executor, progress, "solver seeds", resume)


def read_results(path: PathLike, key: Optional[str] = None) -> List[dict]:
    """The JSON lines of a run, sorted by ``key`` (default: ``game`` for self-play, else the task
    order) so that runs on different executors compare equal."""
    with open(path, encoding="utf-8") as f:
        rows = [json.loads(line) for line in f if line.strip()]
    if key is None:
        key = "game" if rows and "game" in rows[0] else "task"
    if key == "task":  # stable: lines of one task keep their written (file) order
        return sorted(rows, key=lambda r: r["task"])
    return sorted(rows, key=lambda r: (r[key], r.get("source", "")))
