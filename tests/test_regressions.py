"""Regression tests for bugs found by the fuzzers (fuzz/) and the thread tests: each test names
the finding and its input."""

import threading
import time

import numpy as np
import pytest

import trigon_fast as tf


# fuzz/fuzz_move_text.py, input b"\xb5" * 23 + b"\n\n" (Base64 tbW1tbW1tbW1tbW1tbW1tbW1tbW1tbUKCg==):
# Move.from_cells with an integer that is not a cell raised IndexError (and TypeError when over
# 64 bits) from the bindings instead of InvalidMoveError.
@pytest.mark.parametrize("cell", [486, -1, 10**6, 555555555555555555555, -(2**70)])
def test_from_cells_with_a_bad_cell_index_is_invalid_move(cell):
    with pytest.raises(tf.InvalidMoveError):
        tf.Move.from_cells([cell])
    with pytest.raises(tf.InvalidMoveError):
        tf.Move.from_cells(["r15", cell])


def test_from_cells_on_the_small_board_refuses_large_board_cells():
    with pytest.raises(tf.InvalidMoveError):
        tf.Move.from_cells([400], side=8)  # a cell of the side-9 board only
    assert tf.Move.from_cells([0], side=8).size == 1


class _PositionThatLetsAnotherThreadIn:
    """Stands in for a Game's position: on the first legality check it lets another thread play
    on the same Game (and waits for it a little), as a thread switch at that moment would."""

    def __init__(self, real, on_first_check):
        self._real = real
        self._on_first_check = on_first_check

    def check(self, colour, pid):
        hook, self._on_first_check = self._on_first_check, None
        code = self._real.check(colour, pid)
        if hook is not None:
            hook()
        return code

    def __getattr__(self, name):
        return getattr(self._real, name)


# tests/test_limits.py::test_game_shared_by_two_threads_stays_consistent: when another thread
# played between Game.play's legality check and its update, play raised but left an extra entry
# on the undo stack, so history and position disagreed from then on (undo restored the wrong
# position; the record listed a piece twice).
def test_play_from_another_thread_between_check_and_update():
    g = tf.Game()
    move = tf.Move(int(g.legal_moves.ids[0]))
    outcome = {}

    def other_thread_plays():
        try:
            g.play(move)
            outcome["other"] = "played"
        except ValueError as e:
            outcome["other"] = e

    other = threading.Thread(target=other_thread_plays)

    def let_other_in():
        other.start()
        other.join(0.5)  # with the game locked it waits; without, it plays right now

    g._pos = _PositionThatLetsAnotherThreadIn(g._pos, let_other_in)
    try:
        g.play(move)
        mine = "played"
    except ValueError as e:
        mine = e
    other.join(10)
    assert not other.is_alive()
    g._pos = g._pos._real if isinstance(g._pos, _PositionThatLetsAnotherThreadIn) else g._pos
    # Exactly one of the two plays happened; the other got a clear error; undo goes back to the start.
    assert [mine, outcome["other"]].count("played") == 1, (mine, outcome)
    assert len(g.history) == 1
    assert g.undo() == move
    assert g.position == tf.Game().position
    with pytest.raises(IndexError):
        g.undo()


# fuzz/fuzz_api.py, input (Base64) AAsbJjE8P0pVdmBrjIyXosu4w87Z5JH6SgB4awUQGyYyPEdSAAAAAF1oc1hjbnmEj5qlAg0YIy42RE9a
# ZaCtAAAAAACPmqUCDX6JdoGMl5SfqrXAog==: after Game.set_turn a colour that cannot move is no
# longer out (Position::set_to_move clears every out flag and sets only those of the colours it
# passes), so is_out() is wrong and the game differs from its own record read back. Core bug,
# fixed: set_to_move now marks every colour without a move out.
def test_set_turn_keeps_colours_without_moves_out():
    g = tf.Game(tf.Variant.THREE_PLAYER)
    g.play("h5,i5,f6,g6,h6")
    g.setup(0, "p13,q13,o14,p14")
    g.set_turn(1)
    g.play("w6,x6,v7,w7,u8,v8")
    assert g.is_out(2) and len(g.legal_moves_of(2)) == 0  # red cannot move: out
    g.set_turn(0)
    assert g.is_out(2), "red became 'not out' after set_turn"
    assert tf.Game.from_blksgf(g.to_blksgf()).position == g.position


class _PositionThatLetsAnotherThreadInAt:
    """Stands in for a Game's position: the nth time attribute ``name`` is read, runs ``hook``
    (another thread changing the game) before answering."""

    def __init__(self, real, name, hook, nth=1):
        self._real, self._name, self._hook, self._reads_left = real, name, hook, nth

    def __getattr__(self, attr):
        if attr == self._name and self._hook is not None:
            self._reads_left -= 1
        if attr == self._name and self._hook is not None and self._reads_left == 0:
            hook, self._hook = self._hook, None
            value = getattr(self._real, attr)
            hook()
            return value
        return getattr(self._real, attr)


# tests/test_limits.py under .ci/sanitize: str(game) read is_over, then turn; when another
# thread played the last move in between, it raised AttributeError ('NoneType' has no 'name').
def test_str_while_another_thread_ends_the_game():
    g = tf.random_game(tf.Variant.FOUR_PLAYER, 5)
    last = g.undo()
    other = threading.Thread(target=lambda: g.play(last))

    def let_other_in():
        other.start()
        other.join(0.5)  # with the game locked it waits; without, it ends the game right now

    g._pos = _PositionThatLetsAnotherThreadInAt(g._pos, "is_over", let_other_in)
    try:
        text = str(g)
    finally:
        other.join(10)
        if isinstance(g._pos, _PositionThatLetsAnotherThreadInAt):
            g._pos = g._pos._real
    assert "to move" in text or "game over" in text
    assert g.is_over and g.history[-1][1] == last


# tests/test_limits.py: to_blksgf read is_over, then turn, of a game another thread was ending
# (TypeError: int() argument ... not 'NoneType' in Record.from_game). Each read of is_over in
# turn is the moment the other thread plays the last move.
@pytest.mark.parametrize("nth", [1, 2, 3, 4])
def test_record_while_another_thread_ends_the_game(nth):
    g = tf.random_game(tf.Variant.FOUR_PLAYER, 5)
    colour = g.history[-1][0]
    last = g.undo()
    other = threading.Thread(target=lambda: g.play(last, colour=colour))

    def let_other_in():
        other.start()
        other.join(0.5)

    before = g.to_blksgf()
    g._pos = _PositionThatLetsAnotherThreadInAt(g._pos, "is_over", let_other_in, nth)
    try:
        text = g.to_blksgf()
    finally:
        if other.ident is not None:
            other.join(10)
        if isinstance(g._pos, _PositionThatLetsAnotherThreadInAt):
            g._pos = g._pos._real
    assert g.is_over or nth > 2  # the other thread ended the game (when is_over was read that often)
    assert text in (before, g.to_blksgf())


@pytest.mark.parametrize("line", ["\u0a6d\t\u6161", "\u0a6d play", "\u0663 version"])
def test_gtp_id_must_be_ascii_digits(line):
    # Found by the GTP fuzz target: a non-ASCII digit ("੭", Gurmukhi seven) passed str.isdigit()
    # and was echoed as a command id, which GTP defines as ASCII digits only.
    from trigon_fast.gtp import GtpEngine

    reply = GtpEngine().handle(line)
    assert reply.startswith("? ") and reply.endswith("\n\n"), reply
    assert GtpEngine().handle("7 version").startswith("=7 ")


# Callbacks and threads audit (2026-12-07): Engine.stop() from another thread right after a
# search was called (8 of 20 tries on the 2-core machine) was lost: the core cleared its stop
# flag when the search started, so the search ran to its time limit.
def test_a_stop_asked_after_the_call_began_ends_the_search():
    engine = tf.Engine()

    class StoppedWhileCopied(tf.Game):
        def copy(self) -> tf.Game:
            engine.stop()  # as another thread's stop landing after the call began, before the search
            return super().copy()

    game = StoppedWhileCopied()
    a = engine.analyse(game, time=10)
    assert a.stopped and a.seconds < 5 and a.simulations == 0 and a.moves == []
    # Stopped before any simulation: the core had no move to give (-1, an InvalidMoveError here).
    assert a.best_move in game.legal_moves
    # A stop with no call under way does not carry over to the next search.
    engine.stop()
    b = engine.analyse(tf.Game(), simulations=200)
    assert not b.stopped and b.simulations == 200


def test_a_search_waiting_for_the_engine_is_not_ended_by_the_limit_of_the_one_before():
    # (the first search's own time limit must not count as a stop() asked of the second)
    engine = tf.Engine()
    entered = threading.Event()

    class Announced(tf.Game):
        def copy(self) -> tf.Game:
            entered.set()  # the second call has begun; it now waits for the engine
            return super().copy()

    results = []
    second = threading.Thread(target=lambda: results.append(engine.analyse(Announced(), simulations=300)))

    def start_the_second(_):
        if not second.is_alive() and not entered.is_set():
            second.start()
            assert entered.wait(30)

    first = engine.analyse(tf.Game(), time=0.3, callback=start_the_second, callback_simulations=50)
    second.join(60)
    assert not first.stopped and results[0].simulations == 300 and not results[0].stopped


# The same audit: only the calling thread kept a search's time limit, and while it ran a slow
# progress callback the workers searched on (a 0.3 s search searched for as long as the callback
# took; with 256 threads on 2 cores, waiting for a core, 0.05 s searches took 0.9 s).
def test_the_workers_keep_the_time_limit_while_a_callback_runs_long():
    idle = []

    def slow(_):
        if idle:
            return
        # Well past the 0.3 s limit, wait until the process uses no CPU: the workers have ended.
        give_up = time.monotonic() + 20
        while time.monotonic() < give_up:
            cpu = time.process_time()
            time.sleep(0.5)
            if time.process_time() - cpu < 0.05:
                idle.append(True)
                return

    a = tf.Engine(threads=2).analyse(tf.Game(), time=0.3, callback=slow, callback_simulations=20)
    assert idle and not a.stopped and a.best_move in tf.Game().legal_moves


# The same audit: analyse's and solve_solo's callbacks stopped only on `reply is False`, so a
# comparison of the analysis' numpy arrays (numpy.False_) never stopped the search.
def test_a_numpy_false_from_a_callback_stops_the_search():
    calls = []

    def confident(analysis):
        calls.append(analysis)
        return analysis.value[int(analysis.colour)] > 2.0  # numpy.False_: values are 0..1

    a = tf.analyse(tf.Game(), time=10, callback=confident, callback_simulations=100)
    assert len(calls) == 1 and a.stopped and a.seconds < 5

    stats = []

    def enough(s):
        stats.append(s)
        return np.int64(s.nodes) < 0  # numpy.False_

    sol = tf.solve_solo(seed=5, time_limit=10, callback=enough, restart_nodes=1)  # (never finds one alone)
    # (stopped by its caller: interrupted, as can_place_all and solve_pattern say it)
    assert len(stats) == 1 and sol.stats.seconds < 5 and sol.interrupted


# The same audit: a KeyboardInterrupt raised in solve_solo's callback (Ctrl-C landing while it
# runs) went on to the caller, where Ctrl-C anywhere else returns the best found so far (as
# analyse does for its callback).
def test_ctrl_c_inside_a_solve_callback_returns_the_best_so_far():
    calls = []

    def interrupted(stats):
        calls.append(stats)
        raise KeyboardInterrupt

    try:
        sol = tf.solve_solo(seed=5, time_limit=10, callback=interrupted, restart_nodes=1)
    except KeyboardInterrupt:
        pytest.fail("the KeyboardInterrupt from the callback went on to the caller")
    assert len(calls) == 1 and sol.interrupted and sol.stats.seconds < 5
    assert tf.Game.from_blksgf(sol.to_blksgf()).history == sol.game.history  # (a legal game)


class _UnprintableError(Exception):
    def __str__(self) -> str:
        raise RuntimeError("no text")


# Checked in the same audit (no bug): any exception from a callback, even one that cannot be
# printed, reaches the caller once the worker threads are joined; the engine then searches again.
@pytest.mark.parametrize("error", [ValueError("bad"), SystemExit(3), _UnprintableError()], ids=repr)
def test_a_callback_exception_reaches_the_caller_with_the_threads_joined(error):
    def fail(_):
        raise error

    threads_before = threading.active_count()
    engine = tf.Engine(threads=3)
    with pytest.raises(type(error)):
        engine.analyse(tf.Game(), time=10, callback=fail, callback_simulations=50)
    with pytest.raises(type(error)):
        tf.solve_solo(seed=5, time_limit=10, threads=3, callback=fail, restart_nodes=1)
    assert threading.active_count() == threads_before
    assert engine.analyse(tf.Game(), simulations=100).simulations == 100
