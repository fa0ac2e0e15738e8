"""Games and results pickle (multiprocessing pools, ML pipelines, caches): a Game travels as its
variant and what was done to it and comes back equal, undo stack included."""

import copy
import pickle
import random

import pytest

import trigon_fast as tf
from trigon_fast import batch


def _same(a: tf.Game, b: tf.Game) -> None:
    assert b.variant == a.variant
    assert b.position == a.position  # every bitboard, piece set, out flag and the turn
    assert b.history == a.history
    # the undo stack: both give back the same positions all the way down
    a, b = a.copy(), b.copy()
    while a.history:
        assert b.undo() == a.undo()
        assert b.position == a.position
    with pytest.raises(tf.NothingToUndoError):
        b.undo()


@pytest.mark.parametrize("variant", [tf.Variant.FOUR_PLAYER, tf.Variant.TWO_PLAYER, tf.Variant.THREE_PLAYER,
                                     tf.Variant.TEAMS, tf.Variant.SOLO])
@pytest.mark.parametrize("seed", range(3))
def test_random_games_round_trip_at_every_stage(variant, seed):
    g = tf.random_game(variant, seed)
    n = len(g.history)
    for keep in (0, 1, n // 3, n // 2, n):
        h = g.copy()
        while len(h.history) > keep:
            h.undo()
        _same(h, pickle.loads(pickle.dumps(h)))


def test_alternate_rule_round_trip():
    g = tf.random_game(tf.Variant.FOUR_PLAYER.with_alternate_rule(), 4)
    h = pickle.loads(pickle.dumps(g))
    _same(g, h)
    assert h.variant.alternate_rule


def test_setups_out_of_turn_moves_and_set_turn_round_trip():
    rng = random.Random(1)
    g = tf.Game(tf.Variant.FOUR_PLAYER)
    g.setup("red", "q15,r15,p16,q16,o17,p17", to_move="green")
    g.set_turn("yellow")
    g.play(rng.choice(list(g.legal_moves)))
    g.play(rng.choice(list(g.legal_moves_of("blue"))), colour="blue")  # out of turn
    g.setup(0, "a9" if g.check("a9", 0) is None else "r1", to_move=None)
    g.set_turn("green")
    for k in range(6):
        g.play(rng.choice(list(g.legal_moves)))
        if k == 2:
            g.set_turn(tf.Colour((int(g.turn) + 2) % 4))  # between two moves: only "before" keeps it
    g.set_turn("red")
    h = pickle.loads(pickle.dumps(g))
    _same(g, h)
    assert h.turn == g.turn == tf.Colour.RED
    # and the rebuilt game plays on like the original
    m = next(iter(g.legal_moves))
    g.play(m)
    h.play(m)
    assert h.position == g.position


def test_finished_game_round_trip():
    g = tf.random_game(tf.Variant.TWO_PLAYER, 11)
    assert g.is_over
    h = pickle.loads(pickle.dumps(g))
    _same(g, h)
    assert h.is_over and h.scores() == g.scores()


def test_tampered_pickle_is_refused_not_corrupt():
    g = tf.Game(tf.Variant.FOUR_PLAYER, ["q15,r15,p16,q16,o17,p17"])
    fn, (variant, steps, to_move) = g.__reduce__()
    c, move_id, setup, before = steps[0]
    bad = ((c, move_id, setup, before), (1, move_id, False, 1))  # the same cells again
    with pytest.raises(tf.IllegalMoveError):
        fn(variant, bad, to_move)


def test_results_pickle():
    s = tf.solve_solo(seed=2, time_limit=10)
    s2 = pickle.loads(pickle.dumps(s))
    assert s2.complete and s2.moves == s.moves and s2.scores == s.scores
    assert s2.game.position == s.game.position
    g = tf.random_game(tf.Variant.FOUR_PLAYER, 0)
    while len(g.history) > 40:
        g.undo()
    a = tf.analyse(g, simulations=50, seed=1, threads=1)
    a2 = pickle.loads(pickle.dumps(a))
    assert a2.best_move == a.best_move and [m.move for m in a2.moves] == [m.move for m in a.moves]
    r = tf.can_place_all(g, ["blue"], time_limit=5)
    r2 = pickle.loads(pickle.dumps(r))
    assert r2.answer is True and r2.witness == r.witness and r2.witness_game.position == r.witness_game.position
    b = batch.play_games(games=2, seed=3, start=g)
    b2 = pickle.loads(pickle.dumps(b))
    assert b2.game(1).position == b.game(1).position


def test_a_prepared_pattern_puzzle_pickles_and_deep_copies():
    # It raised TypeError (the core's prepared placements cannot be pickled), so it could not
    # go to a process pool as the results of its solve do.
    puzzle = tf.PatternPuzzle("  xxxxx\n xxxxxxx\n xxxxxxx\n  xxxxx\n", pieces="V,P6,F,A6", side=8)
    for other in (pickle.loads(pickle.dumps(puzzle)), copy.deepcopy(puzzle)):
        assert (other.region, other.pieces, other.side) == (puzzle.region, puzzle.pieces, 8)
        assert other.num_placements == puzzle.num_placements
        assert other.solve(True).count == puzzle.solve(True).count


def test_games_compare_by_position_not_history():
    a = tf.Game(tf.Variant.FOUR_PLAYER)
    assert a == tf.Game(tf.Variant.FOUR_PLAYER)
    assert a != tf.Game(tf.Variant.TEAMS)  # same board, another variant
    assert a != tf.Game(tf.Variant.FOUR_PLAYER.with_alternate_rule())
    g = tf.random_game(tf.Variant.FOUR_PLAYER, 5)
    h = tf.Game(g.variant, [m for _, m, *_ in g.history])
    assert h == g and h.copy() == g and not (h != g)
    h.undo()
    assert h != g
    # a transposition: two placements out of turn in either order reach one position
    x, y = tf.Game(), tf.Game()
    blue, red = "q15,r15,p16,q16,o17,p17", "r4"
    x.play(blue, colour="blue"); x.play(red, colour="red")
    y.play(red, colour="red"); y.play(blue, colour="blue")
    assert x != y  # the turn passed on from red in one, from blue in the other
    x.set_turn("blue"); y.set_turn("blue")
    assert x.history != y.history and x == y
    assert a != "a game" and a.__eq__(3) is NotImplemented
    with pytest.raises(TypeError):
        hash(a)
