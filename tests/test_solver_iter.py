"""Many solutions of the solo puzzle: Solution.key (a layout up to the board's symmetries and
colour renaming) and iter_solutions, which streams distinct complete solutions."""

import itertools

import pytest

import trigon_fast as tf
from trigon_fast import _core


@pytest.fixture(scope="module")
def solution():
    s = tf.solve_solo(seed=3, time_limit=30)
    assert s.complete
    return s


def test_key_is_the_same_under_every_symmetry(solution):
    for k in range(12):
        assert _core.layout_key(solution.game.transform(k).position) == solution.key


def test_key_is_the_same_under_a_renaming_of_colours(solution):
    for perm in [(1, 2, 3, 0), (3, 2, 1, 0), (0, 2, 1, 3)]:
        g = tf.Game(solution.game.variant)
        for c, m in solution.moves:
            g.setup(perm[int(c)], m)  # the same pieces on the same cells, another colour each
        assert _core.layout_key(g.position) == solution.key


def test_key_tells_layouts_apart(solution):
    other = tf.solve_solo(seed=4, time_limit=30)
    assert other.complete and other.key != solution.key
    half = solution.game.copy()
    half.undo()
    assert _core.layout_key(half.position) != solution.key  # one piece fewer


def test_iter_solutions_streams_distinct_legal_solutions():
    sols = list(itertools.islice(tf.iter_solutions(seed=2, batch=4), 10))
    assert len(sols) == 10 and len({s.key for s in sols}) == 10
    for s in sols:
        assert s.complete and s.total_score == 80
        replay = tf.Game(s.game.variant, [m for _, m in s.moves])  # legal in turn order
        assert replay.is_over and replay.scores() == s.scores


def test_iter_solutions_is_deterministic_with_one_thread():
    a = [s.key for s in itertools.islice(tf.iter_solutions(seed=7, batch=3), 7)]
    b = [s.key for s in itertools.islice(tf.iter_solutions(seed=7, batch=3), 7)]
    assert a == b


def test_iter_solutions_ends_with_its_time_limit():
    n = sum(1 for _ in tf.iter_solutions(seed=0, time_limit=0.3, variant=tf.Variant.solo(["blue"])))
    assert n >= 1  # one colour alone: many layouts; the loop ended by itself


def test_iter_solutions_from_a_position_with_no_completion_ends_empty():
    g = tf.random_game(tf.Variant.SOLO, 1)  # random play leaves pieces over
    assert not g.is_over or any(g.pieces_left(c) for c in g.variant.colours)
    while g.is_over or len(g.history) > 70:
        g.undo()
    r = tf.can_place_all(g, time_limit=10)
    assert r.answer is False  # (proven: a "no" does not depend on the time it took)
    assert list(tf.iter_solutions(game=g, time_limit=1.0)) == []


@pytest.mark.parametrize("kw", [dict(batch=0), dict(batch=2.5), dict(time_limit=0), dict(time_limit=float("nan")),
                                dict(seed=-1), dict(threads=0)])
def test_bad_options_are_solver_errors(kw):
    with pytest.raises(tf.SolverError):
        next(tf.iter_solutions(**kw))


def test_iter_solutions_says_how_it_ended():
    solutions = tf.iter_solutions(seed=5, batch=2, time_limit=0.5)
    assert isinstance(solutions, tf.SolutionIterator) and iter(solutions) is solutions
    assert repr(solutions) == "<SolutionIterator 0 found>"
    found = list(solutions)
    assert found and solutions.found == len(found) and not solutions.interrupted
    assert repr(solutions) == f"<SolutionIterator {len(found)} found>"


def test_iter_solutions_in_rounds_of_one():
    # batch=1 made each round's solve_solo return one Solution, not a list: a TypeError.
    keys = [s.key for s in itertools.islice(tf.iter_solutions(seed=3, batch=1), 3)]
    assert len(set(keys)) == 3


def test_the_time_limit_runs_from_the_first_next():
    # It ran from the call: a caller that set up its output first (the CLI's progress bar) got
    # nothing with a short limit.
    import time
    it = tf.iter_solutions(seed=1, time_limit=0.2)
    time.sleep(0.3)
    first = next(it)
    assert first.complete


def test_a_callback_can_end_the_iteration():
    # A next() may search for long: a GUI needs to cancel it without Ctrl-C.
    import time
    calls = []
    it = tf.iter_solutions(seed=1, batch=100_000, callback=lambda s: calls.append(s) or False)
    t0 = time.monotonic()
    got = list(it)
    assert it.interrupted and calls and isinstance(calls[0], tf.SolveStats)
    assert time.monotonic() - t0 < 10 and all(s.complete for s in got)
    with pytest.raises(ValueError, match="callback"):
        tf.iter_solutions(callback=5)


def test_the_callback_runs_in_the_callers_thread():
    # (the search runs in a thread of its own; a GUI's callback must not)
    import threading
    threads = set()
    it = tf.iter_solutions(game=_hard_position(), time_limit=0.6, callback=lambda s: threads.add(threading.get_ident()))
    assert list(it) == [] and threads == {threading.get_ident()}


def _hard_position():
    g = tf.random_game(seed=3)
    while len(g.history) > 40:  # 12 pieces a colour: no complete game in a second
        g.undo()
    return g


def test_the_search_waits_for_the_caller(monkeypatch):
    # At most `batch` solutions are made ahead of the caller; the search pauses meanwhile.
    import time
    from trigon_fast import solver
    made = []
    real = solver._build
    monkeypatch.setattr(solver, "_build", lambda *a: made.append(1) or real(*a))
    it = tf.iter_solutions(seed=1, batch=3)
    first = next(it)
    time.sleep(0.5)
    assert first.complete and 1 <= len(made) <= 1 + 3
    rest = list(itertools.islice(it, 10))
    assert len(rest) == 10 and len(made) <= 11 + 3
    it.close()
    assert list(it) == [] and not it._thread.is_alive()


def test_dropping_an_iterator_ends_its_search():
    import gc
    it = tf.iter_solutions(seed=2)
    next(it)
    thread = it._thread
    del it
    gc.collect()
    thread.join(5)
    assert not thread.is_alive()


def test_the_time_limit_ends_the_stream_on_time():
    import time
    t0 = time.perf_counter()
    sols = list(tf.iter_solutions(seed=4, time_limit=0.3))
    took = time.perf_counter() - t0
    assert len(sols) > 20 and len({s.key for s in sols}) == len(sols)
    assert 0.29 <= took < 2.0  # (a few found by the limit are still made)


# -- review of the streaming iterator (each failed before its fix) --------------------------------

def test_a_script_that_breaks_out_exits_at_once(tmp_path):
    # The search, waiting for a caller that had gone, held the exit for the core's 5 s (and its
    # thread could crash the exit): it is stopped first.
    import subprocess
    import sys
    import time
    script = tmp_path / "first.py"
    script.write_text("import trigon_fast as tf\nsols = tf.iter_solutions(seed=1)\n"
                      "for s in sols:\n    break\nimport time\ntime.sleep(0.3)\nprint(s.total_score)\n")
    for _ in range(3):
        t0 = time.monotonic()
        r = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60)
        assert r.returncode == 0 and r.stdout.strip() == "80", r.stderr
        assert time.monotonic() - t0 < 4.5


def test_interrupt_main_ends_the_iteration():
    # (how IDLE's Interrupt, and a Ctrl-C on Windows, arrive: it escaped next() on 3.11/3.12)
    import _thread
    import threading
    for delay in (0.2, 0.31, 0.45):
        it = tf.iter_solutions(game=_hard_position())
        threading.Timer(delay, _thread.interrupt_main).start()
        assert list(it) == [] and it.interrupted
        assert not it._thread.is_alive()


def test_an_error_in_the_callback_ends_the_search():
    def boom(stats):
        raise ZeroDivisionError("boom")
    it = tf.iter_solutions(game=_hard_position(), callback=boom)
    with pytest.raises(ZeroDivisionError):
        next(it)
    assert not it._thread.is_alive() and list(it) == []


def test_two_threads_share_an_iterator():
    import collections
    import threading
    it = tf.iter_solutions(seed=1, batch=4, time_limit=0.5)
    keys, done = [], []
    start = threading.Barrier(2)

    def consume():
        start.wait()
        keys.extend(s.key for s in it)
        done.append(1)
    workers = [threading.Thread(target=consume, daemon=True) for _ in range(2)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(10)
    assert len(done) == 2 and keys  # (one of them waited for ever for a second end)
    assert max(collections.Counter(keys).values()) == 1
    assert sum(t.name == "trigon_fast.iter_solutions" for t in threading.enumerate()) == 0


def test_a_slow_callback_sees_the_latest_stats_and_the_time_limit_holds():
    import time
    calls = []

    def slow(stats):
        calls.append(stats.seconds)
        time.sleep(0.5)
    t0 = time.monotonic()
    it = tf.iter_solutions(game=_hard_position(), time_limit=2.0, callback=slow)
    assert list(it) == [] and not it.interrupted
    assert time.monotonic() - t0 < 3.2  # (stale stats queued up: 5.75 s for a 3 s limit)
    assert len(calls) <= 6


def test_a_finished_complete_game_is_its_own_solution():
    done = tf.solve_solo(seed=1, time_limit=30).game
    it = tf.iter_solutions(game=done, time_limit=5)
    got = list(it)
    assert len(got) == 1 and got[0].complete and got[0].game == done and it.all_found
    over = tf.random_game(tf.Variant.SOLO, 1)  # over with pieces left: no solution
    it = tf.iter_solutions(game=over, time_limit=5)
    assert list(it) == [] and it.all_found  # (none there is: proven without a search)
