"""Headline figures of trigon_fast as one JSON object (about a minute on 2 cores).

    python bench/headline.py

Other areas (search, solver, environments) add their keys here.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys

sys.path.insert(0, os.path.dirname(__file__))

from core_figures import import_seconds, movegen_figures, random_game_figures, table_figures  # noqa: E402
from script_args import json_safe  # noqa: E402


def main() -> None:
    out = {"machine": f"{platform.machine()} {os.cpu_count()} cpus, Python {platform.python_version()}"}
    out.update(table_figures())
    out.update(movegen_figures())
    out.update(random_game_figures())
    out.update(import_seconds())
    for name in ("search_figures", "solver_figures", "env_figures"):
        try:
            mod = __import__(name)
        except ImportError as e:
            if e.name == name or (e.name or "").startswith("trigon_fast"):
                raise  # (ours: a renamed figure function must not drop its keys unseen)
            print(f"headline: {name} skipped ({e.name} is not installed)", file=sys.stderr)
            continue
        out.update(mod.headline())
    print(json.dumps(json_safe(out), indent=1, allow_nan=False))


if __name__ == "__main__":
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0]).parse_args()  # (--help, not a run)
    main()
