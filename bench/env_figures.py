"""Measurements of the learning environment and the batched self-play, shared by
bench/bench_env.py and bench/headline.py (``headline()``).

The environment figure is the standard PettingZoo AEC loop (``agent_iter``, ``last()`` with the
full observation and mask, ``step``) on the unwrapped environment, with a uniformly random agent
that picks from ``env.legal_actions()`` (the ids that came with the mask). Figures are per second
of this process's CPU time (one core, fair on a shared machine); wall-clock rates are given too.
"""

from __future__ import annotations

import random
import time

import trigon_fast as tf
from trigon_fast.batch import play_games


def env_random_games(games: int = 300, variant=tf.Variant.FOUR_PLAYER, wrapped: bool = False,
                     policy: str = "legal_actions", seed: int = 0) -> dict:
    """Random games through the Python environment loop. ``policy``: ``legal_actions`` (ids from
    the env), or ``mask_sample`` (``action_space.sample(mask)``, gymnasium's masked sampling)."""
    from trigon_fast.env import TrigonEnv, env as wrapped_env

    e = wrapped_env(variant) if wrapped else TrigonEnv(variant)
    rnd = random.Random(seed)
    for a in e.possible_agents:
        e.action_space(a).seed(seed)
    steps = 0
    w0, c0 = time.perf_counter(), time.process_time()
    for _ in range(games):
        e.reset()
        for agent in e.agent_iter():
            obs, reward, term, trunc, info = e.last()
            if term or trunc:
                action = None
            elif policy == "mask_sample":
                action = e.action_space(agent).sample(obs["action_mask"])
            else:
                ids = e.legal_actions(agent)
                action = ids[rnd.randrange(len(ids))]
            e.step(action)
            steps += 1
    cpu, wall = time.process_time() - c0, time.perf_counter() - w0
    return {"games": games, "steps_per_game": steps / games, "games_per_cpu_s": games / cpu,
            "games_per_wall_s": games / wall}


def batch_random_games(games: int = 20000, threads: int = 1, variant=tf.Variant.FOUR_PLAYER,
                       policy: str = "random") -> dict:
    """Games per second of the C++ batched API (arrays of moves and scores returned)."""
    w0, c0 = time.perf_counter(), time.process_time()
    play_games(variant, games, seed=1, policy=policy, threads=threads)
    cpu, wall = time.process_time() - c0, time.perf_counter() - w0
    return {"games": games, "threads": threads, "games_per_cpu_s": games / cpu, "games_per_wall_s": games / wall}


def headline() -> dict:
    out = {}
    try:
        env = env_random_games(600)
    except ImportError:  # the rl extra is not installed
        env = None
    if env is not None:
        out["env_random_games_per_s"] = round(env["games_per_cpu_s"])
        out["env_random_games_per_wall_s"] = round(env["games_per_wall_s"])
        out["env_mask_sample_games_per_s"] = round(env_random_games(100, policy="mask_sample")["games_per_cpu_s"])
    b1 = batch_random_games(20000, threads=1)
    core = tf.random_games_stats(tf.Variant.FOUR_PLAYER, games=20000, seed=1)  # the core's playout loop
    out["batch_random_games_per_s"] = round(b1["games_per_cpu_s"])
    out["batch_random_games_per_wall_s_1thread"] = round(b1["games_per_wall_s"])
    out["batch_over_core_playout_rate"] = round(b1["games_per_wall_s"] / (core["games"] / core["seconds"]), 2)
    out["batch_random_games_per_wall_s_all_threads"] = round(batch_random_games(20000, threads=0)["games_per_wall_s"])
    out["batch_greedy_games_per_s"] = round(batch_random_games(5000, threads=1, policy="greedy")["games_per_cpu_s"])
    return out


if __name__ == "__main__":
    import json

    print(json.dumps(headline(), indent=1))
