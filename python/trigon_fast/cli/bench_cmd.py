"""``trigon bench``: the headline speed figures in one short run."""

from __future__ import annotations

import json
import random
from typing import List, Tuple

import click

from .. import _core, search
from ..game import Game
from .common import greedy_move
from .group import main


@main.command("bench", short_help="The headline speed figures in one short run.")
@click.option("--games", type=click.IntRange(min=1), default=1000, show_default=True, help="Random playouts to time.")
@click.option("--simulations", type=click.IntRange(min=1), default=2000, show_default=True, help="Search simulations to time.")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
def bench_cmd(games: int, simulations: int, as_json: bool) -> None:
    """The headline numbers in one short run: move table build, legal-move generation (mean
    over 4 positions), random playouts, and search simulations per second on one and two
    threads (searches of --simulations each). A quick check of a machine: the README's figures
    come from bench/headline.py (337 positions, medians, timed 2 s searches).

    \b
    Examples:
      trigon bench
      trigon bench --games 20000 --json
    """
    rows: List[Tuple[str, float, str]] = []
    rows.append(("table_build_s_side9", _core.build_table_seconds(9), "s"))
    positions = []
    for seed in range(4):
        g = Game()
        rng = random.Random(seed)
        while len(g.history) < 10 * seed and not g.is_over:
            g.play(greedy_move(g, rng))
        positions.append(g.position)
    per_pos, moves = _core.movegen_seconds(positions, 20)
    rows.append(("movegen_us_per_position_mean", 1e6 * sum(per_pos) / len(per_pos), "us"))
    rows.append(("movegen_moves_per_s", moves / max(sum(per_pos), 1e-12), "/s"))
    stats = Game().position
    st = _core.random_games_stats(stats, int(games), 1)
    if st["interrupted"]:  # Ctrl-C: the benchmark ends (exit 130), not just this part of it
        raise KeyboardInterrupt
    rows.append(("playouts_per_s", st["games"] / max(st["seconds"], 1e-12), "/s"))
    rows.append(("playout_moves_per_s", st["moves"] / max(st["seconds"], 1e-12), "/s"))
    for threads in (1, 2):
        a = search.analyse(Game(), simulations=simulations, threads=threads, seed=1)
        if a.interrupted:  # Ctrl-C stopped the search short: its rate would be a wrong figure
            raise KeyboardInterrupt
        rows.append((f"search_sims_per_s_{threads}t", a.simulations_per_second, "/s"))
    if as_json:
        click.echo(json.dumps({name: round(v, 6) for name, v, _ in rows}, indent=2))
        return
    for name, value, unit in rows:
        click.echo(f"{name:28s} {value:14,.3f} {unit}" if value < 100 else f"{name:28s} {value:14,.0f} {unit}")
