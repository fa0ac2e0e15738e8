"""Environment and batched self-play benchmarks:
`python -m pytest bench/bench_env.py --benchmark-enable` (figures: `python bench/env_figures.py`)."""

import random

import pytest

import trigon_fast as tf
from trigon_fast.batch import play_games

from env_figures import env_random_games
from rates import record_rate


@pytest.mark.parametrize("variant", [tf.Variant.FOUR_PLAYER, tf.Variant.TWO_PLAYER, tf.Variant.THREE_PLAYER],
                         ids=["four", "two", "three"])
def test_env_random_games_20(benchmark, variant):
    """20 random games through the unwrapped PettingZoo AEC loop (observation and mask each turn)."""
    pytest.importorskip("pettingzoo")
    st = benchmark(env_random_games, 20, variant)
    record_rate(benchmark, 20)
    benchmark.extra_info["steps_per_game"] = st["steps_per_game"]


def test_env_random_games_wrapped_20(benchmark):
    """The same through PettingZoo's usual wrappers (order enforcing, bounds)."""
    pytest.importorskip("pettingzoo")
    benchmark(env_random_games, 20, tf.Variant.FOUR_PLAYER, True)
    record_rate(benchmark, 20)


def test_env_observe(benchmark):
    """One observation (planes, pieces left, mask) at a mid-game position."""
    pytest.importorskip("pettingzoo")
    from trigon_fast.env import TrigonEnv

    e = TrigonEnv()
    rnd = random.Random(1)
    for _ in range(30):
        ids = e.legal_actions()
        e.step(int(ids[rnd.randrange(len(ids))]))
    benchmark(e.observe, e.agent_selection)


@pytest.mark.parametrize("policy", ["random", "greedy"])
@pytest.mark.parametrize("threads", [1, 0], ids=["1thread", "allthreads"])
def test_batch_1000(benchmark, policy, threads):
    """1000 games of the C++ batched API (moves, colours, lengths, scores as arrays)."""
    benchmark(play_games, tf.Variant.FOUR_PLAYER, 1000, 1, policy, threads)
    record_rate(benchmark, 1000)


def test_batch_with_observations_200(benchmark):
    benchmark(play_games, tf.Variant.FOUR_PLAYER, 200, 1, "random", 1, True)
    record_rate(benchmark, 200)
