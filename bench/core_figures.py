"""Measurements of the rules core, shared by the pytest benchmarks and headline.py."""

from __future__ import annotations

import statistics
import subprocess
import sys

import trigon_fast as tf
from trigon_fast import _core


def movegen_suite(games: int = 20, every: int = 4, seed: int = 1000):
    """Fixed positions drawn from seeded random four-player games: every 4th ply of 20 games."""
    positions = []
    for g in range(games):
        moves, _ = _core.random_game(tf.Game().position, seed + g)
        pos = tf.Game().position.copy()
        for k, (c, pid) in enumerate(moves):
            if k % every == 0:
                positions.append(pos.copy())
            pos.play(pid)
    return positions


def movegen_figures(repeats: int = 200):
    suite = movegen_suite()
    per_position, moves = _core.movegen_seconds(suite, repeats)
    total = sum(per_position)
    return {
        "movegen_positions": len(suite),
        "movegen_ns_per_position": round(statistics.median(per_position) * 1e9),
        "movegen_moves_per_s": round(moves / total),
    }


def random_game_figures(games: int = 20000, variant=tf.Variant.FOUR_PLAYER):
    st = tf.random_games_stats(variant, games=games, seed=1)
    return {
        "random_games_per_s": round(st["games"] / st["seconds"]),
        "random_moves_per_game": round(st["moves"] / st["games"], 1),
    }


def table_figures():
    ms = statistics.median(_core.build_table_seconds(9) for _ in range(5)) * 1e3
    return {
        "placements_side9": tf.board(9).num_placements,
        "placements_side8": tf.board(8).num_placements,
        "first_moves_4p": len(tf.Game().legal_moves),
        "first_moves_3p": len(tf.Game(tf.Variant.THREE_PLAYER).legal_moves),
        "table_build_ms": round(ms, 1),
        "table_mb": round(tf.board(9).memory_bytes / 2**20, 1),
    }


def import_seconds(runs: int = 5):
    """Median wall time of `import trigon_fast` in a fresh interpreter."""
    times = []
    for _ in range(runs):
        out = subprocess.run(
            [sys.executable, "-c", "import time; t=time.perf_counter(); import trigon_fast; print(time.perf_counter()-t)"],
            capture_output=True, text=True, check=True)
        times.append(float(out.stdout))
    return {"import_s": round(statistics.median(times), 3)}
