"""Time limits under load: how far past its limit each limited call returns (the overshoot),
measured as wall time in Python (conversion of the result included), on an idle machine and with
one busy-looping process per core competing for the CPU.

    python bench/bench_limits.py [--limits 0.1,0.3,1.0] [--repeats 3]
    python -m pytest bench/bench_limits.py --benchmark-enable

Prints one JSON object: per call and load, the median and worst overshoot in milliseconds.
The calls are chosen so that none can finish before its limit: a search of a middle game with
1 and 2 threads, solve_solo asking for more solutions than it can find, can_place_all's
exhaustive search of the empty board, and counting every pattern of a 110-cell parallelogram
with all 22 pieces.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing as mp
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))

import trigon_fast as tf  # noqa: E402


def _spin() -> None:  # pragma: no cover - runs in a child process
    while True:
        pass


@contextlib.contextmanager
def cpu_load(processes: int):
    """`processes` busy-looping child processes for the duration of the block."""
    ctx = mp.get_context("spawn")
    procs = [ctx.Process(target=_spin, daemon=True) for _ in range(processes)]
    for p in procs:
        p.start()
    try:
        time.sleep(0.2)  # let them reach the loop
        yield
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            p.join()


def _mid_game():
    from search_figures import mid_game
    return mid_game()


def _pattern_region():
    # A 5 x 22 parallelogram of 110 cells for all 22 pieces: far more patterns than can be
    # counted in seconds.
    return tf.parse_region("\n".join(" " * y + "x" * 22 for y in range(5)))


def calls():
    """name -> function(limit) running one limited call."""
    empty = tf.Game(tf.Variant.SOLO)
    mid = _mid_game()
    region = _pattern_region()
    return {
        "analyse_1t": lambda t: tf.analyse(mid, time=t, threads=1),
        "analyse_2t": lambda t: tf.analyse(mid, time=t, threads=2),
        "solve_solo_count": lambda t: tf.solve_solo(count=10**6, time_limit=t),
        "can_place_all_exhaustive": lambda t: tf.can_place_all(empty, time_limit=t, heuristic=False),
        "solve_pattern_count": lambda t: tf.solve_pattern(region, all_solutions=True, max_solutions=0, time_limit=t),
    }


def overshoots(f, limit: float, repeats: int) -> list:
    out = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        f(limit)
        out.append(time.perf_counter() - t0 - limit)
    return out


def measure(limits=(0.1, 0.3, 1.0), repeats: int = 3, loads=(0, None)) -> dict:
    cpus = os.cpu_count() or 1
    fs = calls()
    result = {"cpus": cpus, "limits_s": list(limits), "repeats": repeats}
    for load in loads:
        n = cpus if load is None else load
        key = f"load_{n}_processes"
        with cpu_load(n) if n else contextlib.nullcontext():
            rows = {}
            for name, f in fs.items():
                f(0.05)  # warm-up: tables, first-call costs
                ms = [1000 * x for limit in limits for x in overshoots(f, limit, repeats)]
                rows[name] = {"median_ms": round(statistics.median(ms), 1), "max_ms": round(max(ms), 1),
                              "min_ms": round(min(ms), 1)}
            result[key] = rows
    return result


def test_time_limit_overshoot(benchmark):
    fs = calls()
    worst = {}

    def run():
        for name, f in fs.items():
            worst[name] = max(overshoots(f, 0.1, 1))

    benchmark.pedantic(run, rounds=1, iterations=1)
    benchmark.extra_info.update({f"{k}_overshoot_ms": round(1000 * v, 1) for k, v in worst.items()})


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--limits", default="0.1,0.3,1.0")
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args(argv)
    limits = tuple(float(x) for x in args.limits.split(","))
    json.dump(measure(limits, args.repeats), sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
