"""What the bench scripts share on their command line and in their JSON output."""

from __future__ import annotations

import argparse
import math


def positive_int(text: str) -> int:
    """An argparse type: a count of 1 or more (0 seeds or games would end in a traceback)."""
    n = int(text)
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {n}")
    return n


def json_safe(value):
    """``value`` with every infinite or NaN float (a seed that found no complete game) as None:
    JSON has no infinity."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(v) for v in value]
    return value
