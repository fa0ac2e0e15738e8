"""Benchmarks of the MCTS search: simulations per second on the empty four-player board and on
a fixed mid-game position, with 1 and 2 threads; memory per thousand nodes.

    python -m pytest bench/bench_search.py --benchmark-enable      # pytest-benchmark
    python bench/bench_search.py                                   # prints the headline figures

Each benchmark stores its figure in ``extra_info`` (``sims_per_s``, ``bytes_per_1000_nodes``).
"""

from __future__ import annotations

import argparse
import json
import sys

import pytest

import trigon_fast as tf
from trigon_fast import _core

from search_figures import SIMULATIONS, bytes_per_1000_nodes, empty_game, headline, mid_game


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("where", ["empty", "mid"])
def test_search_simulations_per_second(benchmark, where, threads):
    game = empty_game() if where == "empty" else mid_game()
    result = {}

    def run():
        a = tf.analyse(game, simulations=SIMULATIONS, threads=threads, seed=1)
        result["sims_per_s"] = a.simulations / a.seconds
        return a

    a = benchmark.pedantic(run, rounds=3, iterations=1)
    assert a.simulations == SIMULATIONS
    benchmark.extra_info["sims_per_s"] = round(result["sims_per_s"])
    benchmark.extra_info["simulations"] = SIMULATIONS


def test_search_memory_per_1000_nodes(benchmark):
    info = benchmark.pedantic(bytes_per_1000_nodes, rounds=1, iterations=1)
    benchmark.extra_info.update(info)
    assert info["bytes_per_1000_nodes"] == 1000 * _core.SEARCH_NODE_BYTES


if __name__ == "__main__":
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0]).parse_args()  # (--help, not a run)
    json.dump(headline(), sys.stdout, indent=2)
    print()
