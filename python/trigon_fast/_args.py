"""Checks of the numbers the public API hands to the C++ core, shared by every module.

A count or a seed must be an integer (3.7 and "5" are mistakes, not 3 and 5; True is not a
count), within the range the core takes; seconds a finite positive number. A wrong value is
then a ``TrigonError`` (a ``ValueError``; or the caller's subclass) that names the argument, never pybind's
"incompatible function arguments" ``TypeError`` or an ``OverflowError``. (Also ``counted``, the
counts that messages and reprs print: "1 move", "3 moves"; and ``frozen``, the read-only arrays
handed out from a cache.)
"""

from __future__ import annotations

import math
import numbers
import operator
from typing import Any, Callable, Dict, List, Optional, SupportsIndex, Type, Union, cast

import numpy as np

from .errors import TrigonError

__all__ = ["IntLike", "MAX_COUNT", "MAX_EXACT_THREADS", "MAX_THREADS", "counted", "flag", "frozen", "integer", "seed", "side",
           "seconds", "positive", "real", "says_stop", "progress_callback"]

SEED_MAX = 2**64 - 1  # seeds are 64-bit in the core
MAX_COUNT = 2**62 - 1  # counts with no limit of their own (nodes, games): within the core's int64
MAX_THREADS = 256  # the search's and the solo solver's threads
MAX_EXACT_THREADS = 64  # the exact and pattern solvers' threads (each holds its own tables of problems met)

# An integer as the API takes it: Python's or numpy's (``operator.index``; True and False are
# refused at run time all the same). The checks below take ``object``: they are what refuses the rest.
IntLike = Union[int, np.integer]


def integer(name: str, value: object, lo: int, hi: int, error: Type[ValueError] = TrigonError) -> int:
    """``value`` as an int in lo..hi, else ``error`` naming ``name``."""
    if type(value) is int and lo <= value <= hi:  # (the common case, without a call)
        return value
    try:
        n = operator.index(cast(SupportsIndex, value))
    except TypeError:
        n = None
    if n is None or isinstance(value, bool):
        raise error(f"{name} must be an integer, not {value!r}")
    if not lo <= n <= hi:
        raise error(f"{name} must be {_span(lo, hi, n)}, not {value!r}")
    return n


def flag(name: str, value: object, error: Type[ValueError] = TrigonError) -> bool:
    """A switch: True or False (a numpy bool too). "no" and 0 are mistakes, not False: the
    truth of a string would turn a rule on."""
    if not isinstance(value, (bool, np.bool_)):
        raise error(f"{name} must be True or False, not {value!r}")
    return bool(value)


def says_stop(reply: object) -> bool:
    """A callback's reply that stops its search: False, Python's or numpy's (a comparison of an
    analysis' arrays gives ``numpy.False_``, which ``is False`` misses). None, 0 and "" go on."""
    return reply is False or (isinstance(reply, np.bool_) and not reply)


def progress_callback(callback: object, convert: Callable[[Dict[str, Any]], Any], ctrl_c: List[bool],
                      error: Type[ValueError] = TrigonError, raised: Optional[List[BaseException]] = None
                      ) -> Optional[Callable[[Dict[str, Any]], bool]]:
    """What the core calls for a search's ``callback`` (None for none): ``callback(convert(the
    core's dict))``; only False stops the search (:func:`says_stop`); a Ctrl-C landing in the
    callback ends the search as any Ctrl-C does (noted in ``ctrl_c``); anything else it raises is
    noted in ``raised`` and raised again by the core once the search has stopped."""
    if callback is None:
        return None
    if not callable(callback):
        raise error(f"callback must be callable, not {callback!r}")

    def adapted(d: Dict[str, Any]) -> bool:
        try:
            return not says_stop(callback(convert(d)))
        except KeyboardInterrupt:
            ctrl_c.append(True)
            return False
        except BaseException as e:
            if raised is not None:
                raised.append(e)
            raise

    return adapted


def seed(value: object, error: Type[ValueError] = TrigonError) -> int:
    """A seed: an integer 0..2**64-1."""
    return integer("seed", value, 0, SEED_MAX, error)


def side(value: object, error: Type[ValueError] = TrigonError) -> int:
    """A board side: 9 (the big board) or 8 (the three-player board)."""
    return integer("board side", value, 8, 9, error)


def seconds(name: str, value: object, error: Type[ValueError] = TrigonError) -> float:
    """A time limit: a finite number > 0 (NaN compares false with everything: a search given
    it would never see its time run out)."""
    return positive(name, value, error, " of seconds")


def positive(name: str, value: object, error: Type[ValueError] = TrigonError, unit: str = "") -> float:
    """A finite number > 0."""
    if type(value) is float and 0 < value < math.inf:  # (the common case, in one test)
        return value
    try:  # (an int too big for a float is no finite number of seconds either)
        ok = not isinstance(value, bool) and isinstance(value, numbers.Real) and math.isfinite(value) \
            and cast(float, value) > 0
    except OverflowError:
        ok = False
    if not ok:
        raise error(f"{name} must be a positive number{unit}, not {value!r}")
    return float(value)  # type: ignore[arg-type]


def real(name: str, value: object, lo: float, hi: float, error: Type[ValueError] = TrigonError) -> float:
    """A finite real number in lo..hi."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not lo <= cast(float, value) <= hi:
        raise error(f"{name} must be a number in {lo:g}..{hi:g}, not {value!r}")  # NaN fails lo <= value
    return float(value)


def _span(lo: int, hi: int, n: int) -> str:
    if hi >= MAX_COUNT:  # (no limit of its own: the core's)
        return f">= {lo}" if n < lo else f"at most {hi}"
    return f"{lo}..{hi}"


def counted(n: int, word: str) -> str:
    """``"1 move"``, ``"3 moves"``, ``"12,345 nodes"``: a count for messages and reprs."""
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def frozen(a: np.ndarray) -> np.ndarray:
    """A read-only view of ``a``, which is made read-only too: an array handed out from a cache
    (``a.flags.writeable = True`` on the view raises, since its base is read-only)."""
    a.flags.writeable = False
    view = a.view()
    view.flags.writeable = False
    return view
