"""``trigon match``: engines against each other over many games, in parallel."""

from __future__ import annotations

import json
import math
import multiprocessing
import os
import random
import signal
from typing import Any, Dict, List, Optional, Tuple

import click

from ..game import Game
from ..variants import Variant
from .common import Engine, parse_variant, progress, variant_json, variant_title
from .group import main


def _play_match_game(args: Tuple[int, str, bool, bool, List[str], int, Optional[int]]) -> Dict[str, Any]:
    """One game of a match (runs in a worker process): player p uses engine (p + index) % E."""
    index, kind, alternate, pentobi, specs, seed, max_moves = args
    v = Variant(kind, alternate_rule=alternate, pentobi_compatible=pentobi)
    engines = [Engine(s) for s in specs]
    seat = [(p + index) % len(engines) for p in range(len(v.players))]
    rng = random.Random(seed * 1_000_003 + index)
    g = Game(v)
    while not g.is_over and (max_moves is None or len(g.history) < max_moves):
        p = v.player_of(int(g._turn_now()))
        g.play(engines[seat[p]].choose(g, rng))
    return {"index": index, "seat": seat, "scores": list(g.player_scores()), "winners": list(g.winners()),
            "moves": len(g.history)}


def _ignore_ctrl_c() -> None:
    """A worker leaves Ctrl-C to the parent, which ends the pool (a search in a worker would
    take it as "stop this search" and play on)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def wilson_interval(wins: float, n: int, z: float = 1.96) -> Tuple[float, float]:
    """95% Wilson score interval of a win rate (draws counted as half wins)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, centre - half), min(1.0, centre + half))


@main.command("match", short_help="Engines against each other over many games, in parallel.")
@click.option("--engine", "engines", multiple=True, required=True,
              help="An engine spec (give two or more): random, greedy, search:level=N, simulations=N, time=S.")
@click.option("--games", type=click.IntRange(min=1), default=20, show_default=True, help="Games to play.")
@click.option("--variant", default="two", show_default=True, help="four, two, three or teams.")
@click.option("--alternate", is_flag=True, help="Alternate rule.")
@click.option("--pentobi-starts", is_flag=True, help="Free start cells, as Pentobi plays.")
@click.option("--jobs", type=click.IntRange(min=1), default=None, help="Games in parallel (default: CPU cores).")
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), default=0, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
@click.option("--max-moves", type=int, default=None, hidden=True, help="Cut games short (tests).")
def match_cmd(engines: Tuple[str, ...], games: int, variant: str, alternate: bool, pentobi_starts: bool,
              jobs: Optional[int], seed: int, as_json: bool, max_moves: Optional[int]) -> None:
    """Engine settings against each other over many games, in parallel; seats rotate from game
    to game so every engine plays every seat.

    \b
    Examples:
      trigon match --engine greedy --engine random --games 40
      trigon match --engine level=3 --engine level=1 --variant four --games 100 --jobs 2
    """
    v = parse_variant(variant, alternate, pentobi_starts, solo=False)
    if v.kind == "solo":
        raise click.BadParameter("a match needs at least two players; solo has one")
    if len(engines) < 2:
        raise click.BadParameter("give at least two --engine specs")
    for s in engines:
        Engine(s)  # a bad spec fails here, before any worker starts
    jobs = min(jobs or os.cpu_count() or 1, games)  # (no more workers than games)
    tasks = [(i, v.kind, alternate, pentobi_starts, list(engines), seed, max_moves) for i in range(games)]
    results: List[Dict[str, Any]] = []
    with progress(total=games, desc="games", unit="game") as bar:
        if jobs == 1:
            for t in tasks:
                results.append(_play_match_game(t))
                bar.update(1)
        else:
            pool = multiprocessing.Pool(jobs, initializer=_ignore_ctrl_c)
            try:
                for r in pool.imap_unordered(_play_match_game, tasks):
                    results.append(r)
                    bar.update(1)
                pool.close()
            except BaseException:  # Ctrl-C, or a game that failed: the games left are not played
                pool.terminate()
                raise
            finally:
                pool.join()
    table: List[Dict[str, Any]] = []
    for e in range(len(engines)):
        wins, score_sum, seats = 0.0, 0, 0
        for r in results:
            mine = [p for p, s in enumerate(r["seat"]) if s == e]
            if not mine:
                continue
            winners = r["winners"]
            wins += sum(1 for p in mine if p in winners) / len(winners)
            score_sum += sum(r["scores"][p] for p in mine)
            seats += len(mine)
        n = sum(1 for r in results if e in r["seat"])
        lo, hi = wilson_interval(wins, n)
        table.append({"engine": engines[e], "games": n, "wins": round(wins, 2),
                      "win_rate": round(wins / n, 4) if n else None, "ci95": [round(lo, 4), round(hi, 4)],
                      "avg_score": round(score_sum / seats, 2) if seats else None})
    if as_json:
        click.echo(json.dumps({**variant_json(v), "games": games, "results": table}, indent=2))
        return
    width = max(len("engine"), *(len(r["engine"]) for r in table))
    # The game's name alone says neither teams nor the rules (as trigon play's first line does).
    click.echo(f"{variant_title(v)}: {games} games, {jobs} in parallel")
    click.echo(f"{'engine':{width}s}  games   wins  win rate  95% interval   avg score")
    for r in table:
        click.echo(f"{r['engine']:{width}s}  {r['games']:5d}  {r['wins']:5.1f}  {100 * r['win_rate']:7.1f}%  "
                   f"{100 * r['ci95'][0]:5.1f}-{100 * r['ci95'][1]:5.1f}%  {r['avg_score']:9.2f}")
