"""The README's code examples run as doctests."""

import doctest
import os

import trigon_fast


def test_readme_examples():
    path = os.path.join(os.path.dirname(__file__), os.pardir, "README.md")
    res = doctest.testfile(path, module_relative=False, optionflags=doctest.ELLIPSIS)
    assert res.attempted > 0 and res.failed == 0


def test_module_docstrings():
    # Every module of the package (a module's examples once went unchecked, and were wrong).
    import importlib
    import pkgutil

    names = [m.name for m in pkgutil.iter_modules(trigon_fast.__path__) if m.name not in ("__main__", "_core")]
    assert "pattern" in names and "game" in names
    attempted = 0
    for name in names:
        mod = importlib.import_module(f"trigon_fast.{name}")
        res = doctest.testmod(mod, optionflags=doctest.ELLIPSIS)
        assert res.failed == 0, name
        attempted += res.attempted
    res = doctest.testmod(trigon_fast, optionflags=doctest.ELLIPSIS)
    assert res.failed == 0 and attempted + res.attempted > 0


def test_api_reference_is_current():
    import subprocess
    import sys

    tool = os.path.join(os.path.dirname(__file__), os.pardir, "tools", "make_api_docs.py")
    assert subprocess.run([sys.executable, tool, "--check"]).returncode == 0, "run python tools/make_api_docs.py"
