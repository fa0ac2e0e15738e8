"""Thread scaling of the search and the solver (run it on a many-core machine):

    python bench/scaling.py [--threads 1,2,4,8,16] [--seconds 3] [--solver-seeds 5]

Prints one JSON object: search simulations/s on the empty board and a mid-game position per
thread count (and the ratio to one thread), solver time to a complete 88-piece game per thread
count (median and worst over seeds), and one-thread random games/s for reference.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))

import trigon_fast as tf  # noqa: E402


def search_rates(threads_list, seconds):
    from search_figures import empty_game, mid_game

    out = {}
    for name, make in (("empty", empty_game), ("mid", mid_game)):
        rates = {}
        for t in threads_list:
            a = tf.analyse(make(), time=seconds, threads=t, seed=1)
            rates[t] = round(a.simulations / a.seconds)
        base = rates[threads_list[0]]
        out[name] = {str(t): {"sims_per_s": r, "speedup": round(r / base, 2)} for t, r in rates.items()}
    return out


def solver_times(threads_list, seeds, limit):
    try:
        from trigon_fast.solver import solve_solo
    except ImportError:
        return None
    out = {}
    for t in threads_list:
        times, complete = [], 0
        for s in range(seeds):
            t0 = time.perf_counter()
            sol = solve_solo(seed=s, threads=t, time_limit=limit)
            times.append(time.perf_counter() - t0)
            complete += bool(sol.complete)
        out[str(t)] = {"median_s": round(statistics.median(times), 3), "max_s": round(max(times), 3),
                       "complete": f"{complete}/{seeds}"}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--threads", default="1,2,4,8,16")
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--solver-seeds", type=int, default=5)
    ap.add_argument("--solver-limit", type=float, default=30.0)
    args = ap.parse_args()
    threads = [int(x) for x in args.threads.split(",")]
    st = tf.random_games_stats(games=20000, seed=1)
    result = {
        "cpus": os.cpu_count(),
        "random_games_per_s_1t": round(st["games"] / st["seconds"]),
        "search": search_rates(threads, args.seconds),
        "solver": solver_times(threads, args.solver_seeds, args.solver_limit),
    }
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
