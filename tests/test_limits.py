"""Limits: nothing grows over many games in one process; the core used from several Python
threads at once (GIL released in long calls) plays the same games as one thread; a Game shared
by two threads raises clear errors or stays consistent, never crashes."""

import os
import sys
import threading

import pytest

import trigon_fast as tf
from trigon_fast import _core

needs_proc = pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="needs Linux /proc")
# Under ASan freed memory sits in a quarantine, so resident size says nothing about leaks.
not_under_asan = pytest.mark.skipif(bool(os.environ.get("TRIGON_UNDER_ASAN")), reason="RSS is meaningless under ASan")


def rss_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


@needs_proc
@not_under_asan
def test_no_growth_over_10000_core_random_games():
    start = tf.Game(tf.Variant.FOUR_PLAYER).position
    for seed in range(300):  # warm-up: allocator pools, numpy, pybind11 type caches
        _core.random_game(start, seed)
    before = rss_bytes()
    moves = 0
    for seed in range(10_000):
        played, final = _core.random_game(start, seed)
        moves += len(played)
        assert final.is_over
    after = rss_bytes()
    assert moves > 10_000 * 40
    # One leaked Position (about 1.3 KB) or move list per game would be over 10 MB.
    assert after - before < 4 * 2**20, f"resident memory grew from {before} to {after} bytes"


@needs_proc
@not_under_asan
def test_no_growth_over_python_games_with_undo_and_copy():
    def one(seed):
        g = tf.random_game(tf.Variant.TWO_PLAYER, seed)
        h = g.copy()
        while h.history:
            h.undo()
        return len(g.history)

    for seed in range(30):
        one(seed)
    before = rss_bytes()
    total = sum(one(seed) for seed in range(300))
    after = rss_bytes()
    assert total > 300 * 40
    assert after - before < 4 * 2**20, f"resident memory grew from {before} to {after} bytes"


def _run_threads(targets):
    errors = []

    def wrap(fn):
        try:
            fn()
        except BaseException as e:  # noqa: BLE001 - reported by the main thread
            errors.append(e)

    threads = [threading.Thread(target=wrap, args=(fn,)) for fn in targets]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not any(t.is_alive() for t in threads), "a thread hung"
    if errors:
        raise errors[0]


def test_random_games_stats_in_threads_equal_one_thread():
    variants = [tf.Variant.FOUR_PLAYER, tf.Variant.THREE_PLAYER, tf.Variant.TWO_PLAYER, tf.Variant.SOLO]
    alone = [tf.random_games_stats(v, games=150, seed=11) for v in variants]
    together = [None] * len(variants)

    def job(i):
        return lambda: together.__setitem__(i, tf.random_games_stats(variants[i], games=150, seed=11))

    _run_threads([job(i) for i in range(len(variants))] * 1)
    for a, b in zip(alone, together):
        assert (a["games"], a["moves"], list(a["score_sum"])) == (b["games"], b["moves"], list(b["score_sum"]))


def test_random_game_in_threads_equal_one_thread():
    seeds = list(range(8))
    alone = {s: [str(m) for _, m in tf.random_game(tf.Variant.FOUR_PLAYER, s).history] for s in seeds}
    results = {}

    def job(part):
        def run():
            for s in part:
                results[s] = [str(m) for _, m in tf.random_game(tf.Variant.FOUR_PLAYER, s).history]
        return run

    _run_threads([job(seeds[i::4]) for i in range(4)])
    assert results == alone


def test_core_random_game_on_one_shared_start_from_threads():
    start = tf.Game(tf.Variant.FOUR_PLAYER).position
    alone = [_core.random_game(start, s)[0] for s in range(40)]
    got = [None] * 40

    def job(k):
        def run():
            for s in range(k, 40, 4):
                got[s] = _core.random_game(start, s)[0]
        return run

    _run_threads([job(k) for k in range(4)])
    assert got == alone
    assert start == tf.Game(tf.Variant.FOUR_PLAYER).position, "the shared start changed"


def test_game_shared_by_two_threads_stays_consistent():
    g = tf.Game(tf.Variant.FOUR_PLAYER)
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible to provoke interleavings

    def hammer(seed):
        def run():
            import random

            rng = random.Random(seed)
            for _ in range(3000):
                op = rng.random()
                try:
                    if op < 0.6:
                        ids = g.legal_moves.ids
                        if ids.size:
                            g.play(int(ids[rng.randrange(ids.size)]))
                    elif op < 0.85:
                        g.undo()
                    elif op < 0.95:
                        g.copy()
                    else:
                        g.scores(), str(g), g.to_blksgf()
                except (ValueError, IndexError):
                    pass  # a clear error: the other thread changed the game in between
        return run

    try:
        _run_threads([hammer(1), hammer(2)])
    finally:
        sys.setswitchinterval(old)
    # Whatever interleaving happened, history and position agree, and undo goes back to the start.
    replay = tf.Game(tf.Variant.FOUR_PLAYER)
    for colour, move in g.history:
        replay.play(move, colour=colour)
    assert replay.position == g.position
    while g.history:
        g.undo()
    assert g.position == tf.Game(tf.Variant.FOUR_PLAYER).position
    with pytest.raises(IndexError):
        g.undo()


# Time limits under load: every limited call returns soon after its limit even with every core
# busy. The margin is generous (it is not a speed test): an overshoot of a whole second would
# mean a limit that is not polled; bench/bench_limits.py measures the real figures.
OVERSHOOT_MARGIN_S = 0.5


def _spin():  # pragma: no cover - runs in a child process
    while True:
        pass


def test_time_limits_hold_under_load():
    import multiprocessing as mp
    import time

    ctx = mp.get_context("spawn")
    procs = [ctx.Process(target=_spin, daemon=True) for _ in range(os.cpu_count() or 1)]
    for p in procs:
        p.start()
    try:
        mid = tf.random_game(tf.Variant.FOUR_PLAYER, 3)
        while len(mid.history) > 24:
            mid.undo()
        solo = tf.Game(tf.Variant.SOLO)
        region = tf.parse_region("\n".join(" " * y + "x" * 22 for y in range(5)))
        limit = 0.3
        calls = {
            "analyse 1 thread": lambda: tf.analyse(mid, time=limit, threads=1),
            "analyse 2 threads": lambda: tf.analyse(mid, time=limit, threads=2),
            "solve_solo count": lambda: tf.solve_solo(count=10**6, time_limit=limit),
            "can_place_all": lambda: tf.can_place_all(solo, time_limit=limit, heuristic=False),
            "solve_pattern": lambda: tf.solve_pattern(region, all_solutions=True, max_solutions=0, time_limit=limit),
        }
        for name, call in calls.items():
            t0 = time.perf_counter()
            result = call()
            took = time.perf_counter() - t0
            # The call really ran into its limit (none of them can finish in 0.3 s)...
            assert took >= limit * 0.9, (name, took)
            # ...and came back within the margin.
            assert took < limit + OVERSHOOT_MARGIN_S, f"{name}: {took:.3f} s for a {limit} s limit"
            if name == "can_place_all":
                assert result.answer is None
            if name == "solve_pattern":
                assert not result.exhausted
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            p.join()


def test_searches_and_solves_in_python_threads_equal_alone():
    # Four Python threads at once, each searching its own game (one search thread, fixed seed:
    # deterministic) or solving its own puzzle; the GIL is released in all of them.
    games = [tf.random_game(tf.Variant.FOUR_PLAYER, s) for s in range(4)]
    for g in games:
        while len(g.history) > 12:
            g.undo()
    alone = [tf.analyse(g, simulations=400, seed=5).best_move for g in games]
    solo_alone = [[str(m) for _, m in tf.solve_solo(seed=s, time_limit=30).moves] for s in range(2)]
    got, solo_got = [None] * 4, [None] * 2

    def search(i):
        return lambda: got.__setitem__(i, tf.analyse(games[i], simulations=400, seed=5).best_move)

    def solve(s):
        return lambda: solo_got.__setitem__(s, [str(m) for _, m in tf.solve_solo(seed=s, time_limit=30).moves])

    _run_threads([search(i) for i in range(4)] + [solve(s) for s in range(2)])
    assert got == alone
    assert solo_got == solo_alone


def test_search_of_a_game_another_thread_changes():
    # The search copies the position before it releases the GIL: a game changed meanwhile by
    # another thread gives a search of one of its positions, never a crash or a torn read.
    g = tf.Game(tf.Variant.FOUR_PLAYER)
    stop = threading.Event()

    def mutate():
        import random

        rng = random.Random(1)
        while not stop.is_set():
            ids = g.legal_moves.ids
            if ids.size and len(g.history) < 30:
                g.play(int(ids[rng.randrange(ids.size)]))
            elif g.history:
                g.undo()

    results = []

    def search():
        try:
            for k in range(20):
                results.append(tf.analyse(g, simulations=100, seed=k, threads=2).best_move)
        finally:
            stop.set()

    _run_threads([mutate, search])
    assert len(results) == 20 and all(isinstance(m, tf.Move) for m in results)
