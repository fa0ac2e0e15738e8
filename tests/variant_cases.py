"""The variant configurations the tests run on, by name; each test module picks its set with
`pick(...)` so that a configuration is spelled once."""

import trigon_fast as tf

CASES = {
    "four": tf.Variant.FOUR_PLAYER,
    "four_alt": tf.Variant.FOUR_PLAYER.with_alternate_rule(),
    "two": tf.Variant.TWO_PLAYER,
    "two_alt": tf.Variant.TWO_PLAYER.with_alternate_rule(),
    "two_pentobi": tf.Variant("two_player", pentobi_compatible=True),
    "two_pentobi_alt": tf.Variant("two_player", alternate_rule=True, pentobi_compatible=True),
    "three": tf.Variant.THREE_PLAYER,
    "three_alt": tf.Variant.THREE_PLAYER.with_alternate_rule(),
    "three_pentobi": tf.Variant("three_player", pentobi_compatible=True),
    "teams": tf.Variant.TEAMS,
    "solo": tf.Variant.SOLO,
    "solo_alt": tf.Variant.solo(alternate_rule=True),
    "solo_yellow": tf.Variant.solo(colours=(1,)),
    "solo_yellow_green": tf.Variant.solo(colours=(1, 3)),
    "solo_small_blue": tf.Variant.solo(colours=(0,), side=8),
    "solo_small_blue_red": tf.Variant.solo(colours=(0, 2), side=8),
    "solo_small_alt": tf.Variant.solo(side=8, alternate_rule=True),
}


def pick(*names: str) -> dict:
    """The named cases, in the order given."""
    return {n: CASES[n] for n in names}
