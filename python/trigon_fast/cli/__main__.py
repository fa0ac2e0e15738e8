"""``python -m trigon_fast.cli``: the ``trigon`` command."""

from . import main

main(prog_name="trigon")
