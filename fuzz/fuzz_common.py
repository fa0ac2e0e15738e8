"""Shared set-up of the atheris fuzz targets: coverage-instrumented import of trigon_fast and the
rule that decides what a finding is.

A finding is any exception that is not a ValueError (trigon_fast's errors are all ValueError
subclasses), a broken invariant (AssertionError), or a native crash (the process dies; under the
sanitizer build ASan/UBSan report it)."""

from __future__ import annotations

import gc
import os
import sys
import types

import atheris

import trigon_fast  # noqa: E402
import trigon_fast.gtp  # noqa: E402,F401
import trigon_fast.records  # noqa: E402,F401

for _optional in ("trigon_fast.search", "trigon_fast.solver"):  # instrumented too when built in
    try:
        __import__(_optional)
    except ImportError:
        pass



def _instrument_trigon_fast() -> int:
    """Coverage instrumentation of every Python function of trigon_fast. (instrument_imports()
    misses modules loaded through an editable install's import hook, and instrument_all() takes
    many seconds on numpy.)"""
    funcs = [f for f in gc.get_objects()
             if isinstance(f, types.FunctionType) and (f.__module__ or "").startswith("trigon_fast")]
    for f in funcs:
        atheris.instrument_func(f)
    return len(funcs)


_instrument_trigon_fast()

CORPUS_ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")


def main(test_one_input) -> None:
    # The recursion limit is lowered so that deep-nesting inputs stay fast; RecursionError is not
    # a ValueError and so still counts as a finding.
    sys.setrecursionlimit(2000)
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()
