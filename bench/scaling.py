"""Thread scaling of the search and the solver (run it on a many-core machine):

    python bench/scaling.py [--threads 1,2,4,8,16] [--seconds 3] [--solver-seeds 5] [--exact]

Prints one JSON object: search simulations/s on the empty board and a mid-game position per
thread count (and the ratio to one thread), solver time to a complete 88-piece game per thread
count (median and worst over seeds), and one-thread random games/s for reference; with
--exact also can_place_all's (the exhaustive search's speedup, and endgames settled).
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


def exact_scaling(threads_list, limit):
    """can_place_all on many threads. The exhaustive search alone, its tree shared out (one colour
    order): time per thread count on the "no" endgames of search-played games at 10 pieces a
    colour (each thread skips the residual problems it met itself, so node counts vary with the
    threads; with `transpositions=False` they are the same every time). Then can_place_all as a user calls it (guided and
    exhaustive search side by side): near misses at 12 pieces a colour (mostly a "yes" to find)
    and random and search-played games at 11 (a "no" to prove), settled / median / worst."""
    from bench_exact import positions, _summary
    from trigon_fast import _core

    out = {}
    games = list(positions("search", 10, range(6)))
    rows = {}
    for t in threads_list:
        secs, nodes, answers = [], [], []
        for g in games:
            t0 = time.perf_counter()
            r = _core.can_place_all(g.position, 15, time_limit=60.0, heuristic=False, threads=t, both_orders=False)
            secs.append(time.perf_counter() - t0)
            nodes.append(int(r["nodes"]))
            answers.append(None if r["answer"] < 0 else bool(r["answer"]))
        rows[str(t)] = {"total_s": round(sum(secs), 3), **_summary(answers, secs), "nodes": sum(nodes)}
    base = rows[str(threads_list[0])]["total_s"]
    for row in rows.values():
        row["speedup"] = round(base / max(row["total_s"], 1e-9), 2)
    out["exhaustive_search_10_left"] = rows
    wide = [t for t in threads_list if t in (2, max(threads_list))]
    for kind, left in (("near_miss", 12), ("random", 11), ("search", 11)):
        games = list(positions(kind, left, range(6)))
        rows = {}
        for t in wide:
            secs, answers = [], []
            for g in games:
                t0 = time.perf_counter()
                answers.append(tf.can_place_all(g, time_limit=limit, threads=t).answer)
                secs.append(time.perf_counter() - t0)
            rows[str(t)] = _summary(answers, secs)
        out[f"{kind}_{left}_left"] = rows
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--threads", default="1,2,4,8,16")
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--solver-seeds", type=int, default=5)
    ap.add_argument("--solver-limit", type=float, default=30.0)
    ap.add_argument("--exact", action="store_true", help="also can_place_all's thread scaling (a few minutes)")
    ap.add_argument("--exact-limit", type=float, default=10.0)
    ap.add_argument("--exact-only", action="store_true", help="only can_place_all's thread scaling")
    args = ap.parse_args()
    threads = [int(x) for x in args.threads.split(",")]
    result = {"cpus": os.cpu_count()}
    if not args.exact_only:
        st = tf.random_games_stats(games=20000, seed=1)
        result["random_games_per_s_1t"] = round(st["games"] / st["seconds"])
        result["search"] = search_rates(threads, args.seconds)
        result["solver"] = solver_times(threads, args.solver_seeds, args.solver_limit)
    if args.exact or args.exact_only:
        result["exact"] = exact_scaling(threads, args.exact_limit)
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
