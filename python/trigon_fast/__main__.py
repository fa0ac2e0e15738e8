"""`python -m trigon_fast`: the main job — solve the solo puzzle when the solver is built in,
else play a seeded random four-player game; print the board and the scores. With arguments it
is the ``trigon`` command (``python -m trigon_fast --help``, ``python -m trigon_fast solve ...``)."""

from __future__ import annotations

import sys


def main(argv=None) -> int:
    import trigon_fast as tf

    args = sys.argv[1:] if argv is None else list(argv)
    if args:
        from .cli import main as trigon

        return trigon(args, prog_name="python -m trigon_fast")
    try:
        from .solver import solve_solo
    except ImportError:
        solve_solo = None
    if solve_solo is not None:
        sol = solve_solo(seed=0)
        print(sol.game)
        print(f"complete: {sol.complete}  scores: {dict((c.name.lower(), s) for c, s in sol.scores.items())}"
              f"  total: {sum(sol.scores.values())}")
        return 0
    game = tf.random_game(tf.Variant.FOUR_PLAYER, seed=0)
    print(game)
    print("scores:", {c.name.lower(): s for c, s in game.scores().items()})
    return 0


if __name__ == "__main__":
    sys.exit(main())
