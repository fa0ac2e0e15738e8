"""can_place_all on endgames: the colour-by-colour branch and bound (max_placeable) and the
plain exhaustive all-placed search are two different searches; they must give the same proven
answers, and a witness must replay."""

import pytest

import trigon_fast as tf


def _taken_back(seed: int, left: int) -> tf.Game:
    g = tf.random_game(tf.Variant.FOUR_PLAYER, seed)
    while len(g.history) > 4 * (22 - left):
        g.undo()
    return g


@pytest.mark.parametrize("seed,expected", [(0, [False, True, False, True]), (2, [False, False, True, True])])
def test_one_colour_answers_agree_between_the_two_searches(seed, expected):
    g = _taken_back(seed, 9)
    answers = []
    for c in g.variant.colours:
        fast = tf.can_place_all(g, [c], time_limit=30)
        plain = tf.can_place_all(g, [c], time_limit=60, heuristic=False)
        assert fast.proven and plain.proven, (c, fast, plain)
        assert fast.answer == plain.answer
        answers.append(fast.answer)
        if fast.answer:
            w = fast.witness_game
            assert w is not None and not w.pieces_left(c)
    # both kinds of answer, so both outcomes of both searches are exercised
    assert answers == expected


def test_several_colours_no_when_one_colour_alone_cannot():
    g = _taken_back(1, 9)
    singles = {c: tf.can_place_all(g, [c], time_limit=30).answer for c in g.variant.colours}
    assert False in singles.values()
    r = tf.can_place_all(g, time_limit=30)
    assert r.proven and r.answer is False
