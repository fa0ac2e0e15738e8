"""Solo solver benchmark: time to the first complete game over seeds.

Short default run (a few seeds per case, about a minute on 2 cores):
    python bench/bench_solver.py
The full run of the issue (20 seeds per case, 1 and 2 threads):
    python bench/bench_solver.py --seeds 20 --threads 1 2
One case only, e.g. the alternate rule:  python bench/bench_solver.py --cases alternate
The restart budget against others (nodes per restart; 0 = the solver's own, 300):
    python bench/bench_solver.py --cases free_starts alternate --threads 1 --restart-nodes 0 30 100 1000 4000
Under pytest-benchmark (disabled in ordinary test runs):
    python -m pytest bench/bench_solver.py --benchmark-enable

Cases: the three ways to choose 4 of the 6 start cells up to symmetry (the two free cells
opposite, adjacent, or one apart), free start cells, the alternate rule (free starts), three
colours on the inner board (three-player start rule), and distinct solutions per second (count=, and streamed by iter_solutions).
Not in the default run: every layout near a solution (``--cases near --back 4 6``): seed 3's
solution with moves taken back, count=10**6 from there, until the search has found them all.
"""

from __future__ import annotations

import argparse
import itertools
import json
import statistics
import sys
import time

import trigon_fast as tf
from script_args import json_safe, positive_int

# Ring indices of the four start cells used; the free pair is opposite / adjacent / one apart.
START_CASES = {
    "starts_opposite_free": (1, 2, 4, 5),
    "starts_adjacent_free": (2, 3, 4, 5),
    "starts_one_apart_free": (1, 3, 4, 5),
}
DEFAULT_CASES = list(START_CASES) + ["free_starts", "alternate", "three_colours_inner", "count", "iter"]
ALL_CASES = DEFAULT_CASES + ["near"]


def _case_kwargs(case: str) -> dict:
    if case in START_CASES:
        b = tf.board(9)
        return dict(start_cells=[b.start_cells[i] for i in START_CASES[case]])
    if case == "free_starts":
        return {}
    if case == "alternate":
        return dict(alternate_rule=True)
    if case == "three_colours_inner":
        return dict(variant=tf.Variant.THREE_PLAYER)
    raise ValueError(case)


def time_case(case: str, seeds, threads: int, time_limit: float, restart_nodes: int = 0) -> dict:
    times, complete, bonus = [], 0, 0
    for seed in seeds:
        t0 = time.perf_counter()
        sol = tf.solve_solo(seed=seed, threads=threads, time_limit=time_limit, restart_nodes=restart_nodes,
                            **_case_kwargs(case))
        dt = time.perf_counter() - t0
        times.append(dt if sol.complete else float("inf"))
        complete += sol.complete
        bonus += sol.complete and all(s == 20 for s in sol.scores.values())
    finite = [t for t in times if t != float("inf")]
    return dict(case=case, threads=threads, restart_nodes=restart_nodes, seeds=len(times), complete=complete, all_bonus=bonus,
                median_s=statistics.median(times), worst_s=max(times),
                mean_complete_s=statistics.mean(finite) if finite else None)


def solutions_per_second(count: int, threads: int, time_limit: float, seed: int = 0) -> dict:
    t0 = time.perf_counter()
    sols = tf.solve_solo(seed=seed, count=count, threads=threads, time_limit=time_limit)
    dt = time.perf_counter() - t0
    n = sum(s.complete for s in sols)
    return dict(case="count", threads=threads, count=count, found=n, seconds=dt, per_second=n / dt,
                all_bonus=sum(s.complete and s.total_score == 80 for s in sols))


def iterated_per_second(count: int, threads: int, time_limit: float, seed: int = 0) -> dict:
    """iter_solutions streaming ``count`` distinct solutions (rounds of 16, deduplicated)."""
    t0 = time.perf_counter()
    sols = list(itertools.islice(tf.iter_solutions(seed=seed, threads=threads, time_limit=time_limit), count))
    dt = time.perf_counter() - t0
    return dict(case="iter", threads=threads, count=count, found=len(sols), seconds=dt, per_second=len(sols) / dt,
                all_bonus=sum(s.total_score == 80 for s in sols), distinct=len({s.key for s in sols}))


def every_layout_near(back: int, threads: int, time_limit: float, seed: int = 0) -> dict:
    """All the completions of seed 3's solution with ``back`` moves taken back (count=10**6)."""
    game = tf.solve_solo(seed=3, time_limit=30).game.copy()
    for _ in range(back):
        game.undo()
    t0 = time.perf_counter()
    sols = tf.solve_solo(game=game, count=10**6, seed=seed, threads=threads, time_limit=time_limit)
    dt = time.perf_counter() - t0
    stats = sols[0].stats
    return dict(case="near", threads=threads, back=back, found=sum(s.complete for s in sols), seconds=dt,
                all_found=stats.all_found, restarts=stats.restarts, nodes=stats.nodes)


def headline_figures(seeds=range(5), time_limit: float = 10.0) -> dict:
    """Figures for bench/headline.py: standard rule (free starts) and alternate rule, one thread."""
    std = time_case("free_starts", seeds, 1, time_limit)
    alt = time_case("alternate", seeds, 1, time_limit)
    return dict(solo_seconds_median=std["median_s"], solo_seconds_max=std["worst_s"],
                solo_complete_rate=std["complete"] / std["seeds"], solo_alt_seconds_median=alt["median_s"])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", type=positive_int, default=5, help="seeds per case (default 5; the issue's full run: 20)")
    ap.add_argument("--threads", type=positive_int, nargs="+", default=[1, 2])
    ap.add_argument("--time-limit", type=float, default=30.0)
    ap.add_argument("--cases", nargs="+", default=DEFAULT_CASES, choices=ALL_CASES)
    ap.add_argument("--back", type=positive_int, nargs="+", default=[4, 6],
                    help="near case: moves taken back from seed 3's solution (default 4 6)")
    ap.add_argument("--count", type=positive_int, default=20, help="solutions asked for in the count case")
    ap.add_argument("--restart-nodes", type=int, nargs="+", default=[0],
                    help="nodes per restart to compare (0: the solver's own budget)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    tf.solve_solo(seed=0, time_limit=5)  # builds the placement tables outside the timings
    out = sys.stderr if args.json else sys.stdout  # (--json: stdout holds the JSON alone)
    rows = []
    for case in args.cases:
        for th in args.threads:
            if case == "near":
                for back in args.back:
                    r = every_layout_near(back, th, args.time_limit)
                    print(f"{case:22s} threads={th}  {back} moves back: {r['found']} layouts in {r['seconds']:.2f} s, "
                          f"all found: {r['all_found']} ({r['restarts']} restarts, {r['nodes']} nodes)", file=out,
                          flush=True)
                    rows.append(r)
                continue
            if case in ("count", "iter"):
                r = (solutions_per_second if case == "count" else iterated_per_second)(args.count, th, args.time_limit)
                print(f"{case:22s} threads={th}  {r['found']}/{r['count']} distinct in {r['seconds']:.2f} s "
                      f"= {r['per_second']:.1f}/s  (+80: {r['all_bonus']})", file=out, flush=True)
                rows.append(r)
                continue
            for budget in args.restart_nodes:
                r = time_case(case, range(args.seeds), th, args.time_limit, budget)
                label = f"  restart_nodes={budget}" if args.restart_nodes != [0] else ""
                print(f"{case:22s} threads={th}{label}  complete {r['complete']}/{r['seeds']}  "
                      f"median {r['median_s']:.3f} s  worst {r['worst_s']:.3f} s  (+80: {r['all_bonus']})", file=out,
                      flush=True)
                rows.append(r)
    if args.json:
        json.dump(json_safe(rows), sys.stdout, indent=1, allow_nan=False)
        print()
    return 0



def test_bench_solo_first_solution(benchmark):
    seeds = iter(range(10**6))
    sol = benchmark(lambda: tf.solve_solo(seed=next(seeds), time_limit=30))
    assert sol.complete


if __name__ == "__main__":
    sys.exit(main())
