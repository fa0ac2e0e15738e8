"""Ctrl-C stops long C++ calls of the core promptly (the GIL is released while they run)."""

import signal
import subprocess
import sys
import time

import pytest

SCRIPT = r"""
import sys, time, trigon_fast as tf
print("ready", flush=True)
t = time.time()
stats = tf.random_games_stats(games=10**8, seed=1)  # Ctrl-C: the totals of the games played
if stats["interrupted"] and 0 < stats["games"] < 10**8:
    print("interrupted after %.2f" % (time.time() - t), flush=True)
    sys.exit(0)
sys.exit(1)
"""


def _ctrl_c_ends_script(script: str, after: float) -> None:
    """Runs ``script`` (it prints "ready", then runs a long call and says "interrupted" when
    Ctrl-C ends it); sends Ctrl-C ``after`` seconds later: the call must end within 5 s."""
    p = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "ready"
    time.sleep(after)
    t0 = time.time()
    p.send_signal(signal.SIGINT)
    out, _ = p.communicate(timeout=60)
    assert p.returncode == 0 and "interrupted" in out
    assert time.time() - t0 < 5


def test_ctrl_c_stops_random_games():
    _ctrl_c_ends_script(SCRIPT, 1.0)


def test_other_python_threads_run_during_long_calls():
    import threading

    import trigon_fast as tf

    ticks = []
    done = threading.Event()

    def ticker():
        while not done.is_set():
            ticks.append(1)
            time.sleep(0.001)

    th = threading.Thread(target=ticker)
    th.start()
    tf.random_games_stats(games=3000, seed=2)
    done.set()
    th.join()
    assert len(ticks) > 10


def _run_until_ready(args, **kw):
    p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)
    return p


def _ctrl_c_after(p, seconds):
    time.sleep(seconds)
    t0 = time.time()
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    return out, err, time.time() - t0


SEARCH_BATCH = r"""
import sys, time, trigon_fast as tf
from trigon_fast.batch import play_games
print("ready", flush=True)
b = play_games(games=4, threads=1, policy="search", level=9)  # a level-9 game takes minutes
if b.interrupted and len(b) == 0:  # (no game was played to its end)
    print("interrupted", flush=True)
    sys.exit(0)
sys.exit(1)
"""


def test_ctrl_c_stops_a_batch_of_search_games_in_its_game():
    # It stopped only between games: a level-9 batch ran on for minutes after Ctrl-C.
    p = subprocess.Popen([sys.executable, "-c", SEARCH_BATCH], stdout=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "ready"
    out, _, waited = _ctrl_c_after(p, 1.5)
    assert p.returncode == 0 and "interrupted" in out
    assert waited < 5


def test_ctrl_c_ends_a_match_at_once(tmp_path):
    # Workers took Ctrl-C as "stop this search" and played on; the pool waited for every game.
    p = subprocess.Popen([sys.executable, "-m", "trigon_fast.cli", "match", "--engine", "simulations=3000",
                          "--engine", "greedy", "--games", "6", "--jobs", "2", "--variant", "four"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
                         start_new_session=True)
    time.sleep(2.0)
    t0 = time.time()
    import os

    os.killpg(p.pid, signal.SIGINT)  # what a terminal's Ctrl-C does: the whole process group
    out, err = p.communicate(timeout=60)
    assert time.time() - t0 < 5 and p.returncode == 130, (p.returncode, err)
    assert "Traceback" not in err


def test_ctrl_c_ends_a_whole_game_analysis_with_what_was_judged(tmp_path):
    import json

    import trigon_fast as tf

    rec = tmp_path / "g.blksgf"
    rec.write_text(tf.random_game(seed=3).to_blksgf())
    p = subprocess.Popen([sys.executable, "-m", "trigon_fast.cli", "analyse", str(rec), "--simulations", "100000",
                          "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, err, waited = _ctrl_c_after(p, 2.0)
    assert waited < 5 and p.returncode == 130, (p.returncode, err)
    report = json.loads(out)
    assert report["interrupted"] is True and len(report["moves"]) < len(tf.random_game(seed=3).history)
    assert "interrupted: stopped after" in err


ITER_SOLUTIONS = r"""
import sys, trigon_fast as tf
game = tf.random_game(seed=3)
while len(game.history) > 40:  # 12 pieces a colour: no complete game is found for a minute
    game.undo()
solutions = tf.iter_solutions(game=game, batch=1)
print("ready", flush=True)
found = list(solutions)
print("found", len(found), "interrupted", solutions.interrupted, repr(solutions), flush=True)
"""


def test_ctrl_c_ending_iter_solutions_is_reported_even_with_nothing_new():
    # A round stopped by Ctrl-C that had found nothing ended the stream quietly: the caller (the
    # CLI's solve --count) could not tell an interruption from the search running dry.
    p = subprocess.Popen([sys.executable, "-c", ITER_SOLUTIONS], stdout=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "ready"
    out, _, waited = _ctrl_c_after(p, 1.5)
    assert p.returncode == 0, out
    assert "found 0 interrupted True <SolutionIterator 0 found, interrupted>" in out
    assert waited < 5


def test_ctrl_c_ends_trigon_exact_with_the_answer_so_far(tmp_path):
    import json

    import trigon_fast as tf

    rec = tmp_path / "g.blksgf"
    game = tf.random_game(seed=3)
    while len(game.history) > 40:  # 12 pieces a colour: not settled in a minute
        game.undo()
    rec.write_text(game.to_blksgf())
    p = subprocess.Popen([sys.executable, "-m", "trigon_fast.cli", "exact", str(rec), "--time-limit", "120",
                          "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, err, waited = _ctrl_c_after(p, 3.0)  # (the import and record read first)
    assert waited < 5 and p.returncode == 130, (p.returncode, err)
    report = json.loads(out)
    assert report["interrupted"] is True and report["answer"] == "not proven" and report["seconds"] < 60
    assert "interrupted: the answer so far is shown" in err and "Traceback" not in err


MOVEGEN_SCRIPT = r"""
import sys, time
from trigon_fast import _core
print("ready", flush=True)
t = time.time()
try:
    _core.movegen_seconds([_core.Position()], 2**31 - 1)  # one position, hours of repeats
except KeyboardInterrupt:
    print("interrupted after %.2f" % (time.time() - t), flush=True)
    sys.exit(0)
sys.exit(1)
"""


def test_ctrl_c_stops_the_repeats_of_one_position():
    # The repeats of one position ran with no check: Ctrl-C waited for all of them.
    _ctrl_c_ends_script(MOVEGEN_SCRIPT, 0.5)


_DAEMON = """
import sys, threading, time
import trigon_fast as tf
from trigon_fast.batch import play_games
calls = {
    "analyse": lambda: tf.analyse(tf.Game(), time=30, threads=2, callback=lambda a: None),
    "solo": lambda: tf.solve_solo(count=10**6, time_limit=30),
    "exact": lambda: tf.can_place_all(tf.Game(), time_limit=30),
    "pattern": lambda: tf.solve_pattern("x" * 24 + "\\n" + "x" * 24, ["1"] * 48, all_solutions=True, max_solutions=0,
                                        time_limit=30),
    "stats": lambda: tf.random_games_stats(games=10**8),
    "batch": lambda: play_games(games=10**7, threads=1),
    "again": lambda: [tf.analyse(tf.Game(), time=30) for _ in range(100)],
}
threading.Thread(target=calls[sys.argv[1]], daemon=True).start()
time.sleep(0.4)
"""


@pytest.mark.parametrize("call", ["analyse", "solo", "exact", "pattern", "stats", "batch", "again"])
def test_exit_while_a_daemon_thread_is_in_a_long_call_is_clean(call, tmp_path):
    # The interpreter aborted ("terminate called without an active exception", status 134): a
    # daemon thread left in the core took the GIL back while Python finalized (a GUI closed
    # during an analysis). The long calls now end at exit, as on Ctrl-C, and none starts after.
    script = tmp_path / "daemon.py"
    script.write_text(_DAEMON)
    t0 = time.monotonic()
    r = subprocess.run([sys.executable, str(script), call], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and "terminate" not in r.stderr, (r.returncode, r.stderr)
    assert time.monotonic() - t0 < 20  # ended at exit, not run out (30 s)
