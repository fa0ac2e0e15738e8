"""Regression tests for bugs found by the fuzzers (fuzz/) and the thread tests: each test names
the finding and its input."""

import threading

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
