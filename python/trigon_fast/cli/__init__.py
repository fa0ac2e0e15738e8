"""The ``trigon`` command: play, solve, analyse, answer exact questions, render, match and
benchmark from a terminal.

Built on click (subcommands, ``--help`` with examples, one-line errors) and tqdm (progress
bars that turn themselves off when stderr is not a terminal).
"""

from .group import main
# Each command module adds its subcommands to the group.
from . import analyse_cmd, bench_cmd, exact_cmd, match_cmd, play_cmd, render_cmd, solve_cmd  # noqa: F401,E402

__all__ = ["main"]
