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


def test_every_public_name_has_a_docstring():
    # docs/api.md is built from them: a member without one was an empty entry there.
    import inspect

    from trigon_fast import batch, render, symmetry

    missing = []
    for modname, mod in [("trigon_fast", trigon_fast), ("batch", batch), ("render", render), ("symmetry", symmetry)]:
        for name in getattr(mod, "__all__", []):
            obj = getattr(mod, name)
            if inspect.isclass(obj):
                doc = obj.__doc__ or ""
                if not doc.strip() or doc.startswith(obj.__name__ + "("):  # (a dataclass's generated one)
                    missing.append(f"{modname}.{name}")
                for key, member in vars(obj).items():
                    if key.startswith("_"):
                        continue
                    f = member.fget if isinstance(member, property) else getattr(member, "__func__", member)
                    if (callable(f) or isinstance(member, property)) and not (f.__doc__ or "").strip():
                        missing.append(f"{modname}.{name}.{key}")
            elif callable(obj) and not (obj.__doc__ or "").strip():
                missing.append(f"{modname}.{name}")
    assert not missing, missing
