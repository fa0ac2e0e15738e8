"""Strength ladder: play two search configurations against each other and print A's win rate
with a 95% confidence interval (Wilson), the mean score margin and an Elo estimate.

Two-player Trigon by default: A plays blue+red in even games and yellow+green in odd ones, so
each configuration plays both sides equally. Games run in parallel processes.

    python bench/ladder.py --a "expand_threshold=1" --b "expand_threshold=4" --time 0.2 --games 40
    python bench/ladder.py --a "playout=sampled" --b "playout=uniform" --time 0.5 --games 20 -j 2

Options of a configuration (comma-separated key=value): playout (uniform, the default, or sampled), exploration,
prior_weight, use_priors (0/1), score_weight, expand_threshold, max_nodes, threads,
simulations (overrides --simulations), time (overrides --time).
"""

from __future__ import annotations

import argparse
import math
import multiprocessing as mp
import os
import sys
import time

import numpy as np

import trigon_fast as tf
from script_args import positive_int

VARIANTS = {
    "two_player": tf.Variant.TWO_PLAYER,
    "two_player_pentobi": tf.Variant("two_player", pentobi_compatible=True),
    "teams": tf.Variant.TEAMS,
}


def parse_config(text: str) -> dict:
    cfg = {}
    for item in filter(None, (s.strip() for s in text.split(","))):
        key, _, value = item.partition("=")
        key = key.strip()
        value = value.strip()
        if key == "playout":
            cfg[key] = value
        elif key in ("use_priors", "reuse_tree"):
            cfg[key] = value.lower() in ("1", "true", "yes", "on")
        elif key in ("expand_threshold", "max_nodes", "threads", "simulations", "playout_give_up"):
            cfg[key] = int(value)
        else:
            cfg[key] = float(value)
    return cfg


def make_engine(cfg: dict, seed: int, time_per_move, sims_per_move):
    knobs = dict(cfg)
    threads = knobs.pop("threads", 1)
    playout = knobs.pop("playout", "uniform")  # (the engine's own default)
    t = knobs.pop("time", time_per_move)
    s = knobs.pop("simulations", sims_per_move)
    return tf.Engine(time=t, simulations=s, threads=threads, seed=seed, playout=playout, **knobs)


def play_game(job):
    index, cfg_a, cfg_b, variant_name, time_per_move, sims_per_move, opening, seed = job
    variant = VARIANTS[variant_name]
    game = tf.Game(variant)
    a_side = index % 2  # 0: A plays blue+red
    engines = {
        0: make_engine(cfg_a if a_side == 0 else cfg_b, seed * 7919 + index * 2, time_per_move, sims_per_move),
        1: make_engine(cfg_b if a_side == 0 else cfg_a, seed * 7919 + index * 2 + 1, time_per_move, sims_per_move),
    }
    rng = np.random.default_rng(seed * 100003 + index // 2)  # games 2k and 2k+1: same opening
    for _ in range(opening):
        ids = game.legal_moves.ids
        game.play(int(ids[rng.integers(len(ids))]))
    while not game.is_over:
        side = variant.player_of(game.turn)
        game.play(engines[side].best_move(game))
    scores = game.player_scores()
    margin = scores[a_side] - scores[1 - a_side]
    return 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0, margin


def wilson(p: float, n: int, z: float = 1.96):
    if n == 0:
        return 0.0, 1.0
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return centre - half, centre + half


def elo(p: float) -> float:
    p = min(max(p, 1e-3), 1 - 1e-3)
    return -400 * math.log10(1 / p - 1)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--a", default="", help="configuration A (key=value,...)")
    ap.add_argument("--b", default="", help="configuration B (key=value,...)")
    ap.add_argument("--games", type=positive_int, default=20)
    ap.add_argument("--time", type=float, default=None, help="seconds per move (equal for both)")
    ap.add_argument("--simulations", type=int, default=None, help="simulations per move")
    ap.add_argument("--variant", choices=sorted(VARIANTS), default="two_player")
    ap.add_argument("--opening", type=int, default=2, help="random moves before the engines play")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-j", "--jobs", type=int, default=max(1, (os.cpu_count() or 2) // 2))
    args = ap.parse_args(argv)
    if args.time is None and args.simulations is None:
        args.time = 0.2
    cfg_a, cfg_b = parse_config(args.a), parse_config(args.b)
    jobs = [(i, cfg_a, cfg_b, args.variant, args.time, args.simulations, args.opening, args.seed)
            for i in range(args.games)]
    t0 = time.time()
    results = []
    with mp.get_context("spawn").Pool(args.jobs) as pool:
        for k, r in enumerate(pool.imap_unordered(play_game, jobs), 1):
            results.append(r)
            points = sum(x for x, _ in results)
            print(f"\r{k}/{args.games} games, A {points:.1f} points", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    n = len(results)
    p = sum(x for x, _ in results) / n
    lo, hi = wilson(p, n)
    margins = np.array([m for _, m in results], dtype=float)
    print(f"A = {cfg_a or 'defaults'}  vs  B = {cfg_b or 'defaults'}")
    print(f"variant {args.variant}, {n} games, "
          f"{'%.3g s' % args.time if args.time else ''}{' ' if args.time and args.simulations else ''}"
          f"{'%d sims' % args.simulations if args.simulations else ''} per move, {args.jobs} processes, "
          f"{time.time() - t0:.0f} s")
    print(f"A win rate {p:.3f}  95% CI [{lo:.3f}, {hi:.3f}]  Elo {elo(p):+.0f} "
          f"[{elo(lo):+.0f}, {elo(hi):+.0f}]  mean margin {margins.mean():+.1f} +- "
          f"{1.96 * margins.std(ddof=1) / math.sqrt(n) if n > 1 else float('nan'):.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
