"""Memory over many consecutive games in one process: resident size (/proc/self/statm) before
and after N games through each path, after a warm-up. Prints one line per path.

    python tools/leak_check.py [games=10000]
"""

import os
import sys
import time

import trigon_fast as tf
from trigon_fast import _core


def rss_mib() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def core_games(n, first):
    start = tf.Game().position
    for s in range(first, first + n):
        _core.random_game(start, s)


def python_games(n, first):
    for s in range(first, first + n):
        g = tf.random_game(tf.Variant.FOUR_PLAYER, s)
        h = g.copy()
        for _ in range(10):
            h.undo()
        g.to_blksgf()


def stats_games(n, first):
    tf.random_games_stats(tf.Variant.FOUR_PLAYER, games=n, seed=first)


def main() -> int:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    worst = 0.0
    for name, run in (("_core.random_game", core_games), ("tf.random_game + copy/undo/to_blksgf", python_games),
                      ("tf.random_games_stats", stats_games)):
        run(200, 10**6)  # warm-up
        before, t0 = rss_mib(), time.perf_counter()
        run(games, 0)
        after, secs = rss_mib(), time.perf_counter() - t0
        worst = max(worst, after - before)
        print(f"{name}: {games} games in {secs:.1f} s, RSS {before:.1f} MiB -> {after:.1f} MiB ({after - before:+.2f})")
    return 0 if worst < 8 else 1


if __name__ == "__main__":
    sys.exit(main())
