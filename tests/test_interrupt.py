"""Ctrl-C stops long C++ calls of the core promptly (the GIL is released while they run)."""

import signal
import subprocess
import sys
import time

SCRIPT = r"""
import sys, time, trigon_fast as tf
print("ready", flush=True)
t = time.time()
try:
    tf.random_games_stats(games=10**8, seed=1)
except KeyboardInterrupt:
    print("interrupted after %.2f" % (time.time() - t), flush=True)
    sys.exit(0)
sys.exit(1)
"""


def test_ctrl_c_stops_random_games():
    p = subprocess.Popen([sys.executable, "-c", SCRIPT], stdout=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "ready"
    time.sleep(1.0)
    t0 = time.time()
    p.send_signal(signal.SIGINT)
    out, _ = p.communicate(timeout=30)
    assert p.returncode == 0 and "interrupted" in out
    assert time.time() - t0 < 5


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
