"""The README's code examples run as doctests."""

import doctest
import os

import trigon_fast


def test_readme_examples():
    path = os.path.join(os.path.dirname(__file__), os.pardir, "README.md")
    res = doctest.testfile(path, module_relative=False, optionflags=doctest.ELLIPSIS)
    assert res.attempted > 0 and res.failed == 0


def test_module_docstrings():
    from trigon_fast import game, move, variants

    for mod in (trigon_fast, game, move, variants):
        res = doctest.testmod(mod, optionflags=doctest.ELLIPSIS)
        assert res.failed == 0


def test_api_reference_is_current():
    import subprocess
    import sys

    tool = os.path.join(os.path.dirname(__file__), os.pardir, "tools", "make_api_docs.py")
    assert subprocess.run([sys.executable, tool, "--check"]).returncode == 0, "run python tools/make_api_docs.py"
