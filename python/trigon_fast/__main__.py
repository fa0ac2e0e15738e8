"""`python -m trigon_fast`: the main job — solve the solo puzzle and print the board and the
scores. With arguments it is the ``trigon`` command (``python -m trigon_fast --help``, ``python -m trigon_fast solve ...``)."""

from __future__ import annotations

import os
import sys
from typing import Optional, Sequence


def main(argv: Optional[Sequence[str]] = None) -> int:
    import trigon_fast as tf

    args = sys.argv[1:] if argv is None else list(argv)
    if args:
        from .cli import main as trigon

        return trigon(args, prog_name="python -m trigon_fast")
    sol = tf.solve_solo(seed=0)
    try:
        print(sol.game)
        print(f"complete: {sol.complete}  scores: {dict((c.name.lower(), s) for c, s in sol.scores.items())}"
              f"  total: {sum(sol.scores.values())}", flush=True)
    except BrokenPipeError:
        # The reader went away (`python -m trigon_fast | head`): end quietly with status 1, as
        # click ends the trigon commands; stdout points at devnull so the flush at exit is quiet.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
