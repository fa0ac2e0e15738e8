"""Writes docs/api.md, the API reference, from the public names' signatures and docstrings.

    python tools/make_api_docs.py          # rewrite docs/api.md
    python tools/make_api_docs.py --check  # exit 1 when docs/api.md is out of date (a test runs this)
"""

from __future__ import annotations

import inspect
import pathlib
import re
import sys

import trigon_fast as tf

OUT = pathlib.Path(__file__).resolve().parent.parent / "docs" / "api.md"


def _sig(obj) -> str:
    try:
        sig = str(inspect.signature(obj))
    except (TypeError, ValueError):
        return "(...)"
    return re.sub(r"<function (\w+) at 0x[0-9a-f]+>", r"\1", sig)  # a default function's address changes


def _doc(obj) -> str:
    d = inspect.getdoc(obj) or ""
    return d.strip()


def _summary(obj) -> str:
    """A member's first paragraph, as one line (its first line alone cut sentences in two)."""
    para = []
    for line in _doc(obj).splitlines():
        if not line.strip():
            break
        para.append(line.strip())
    return " ".join(para)


def render() -> str:
    lines = ["# API reference", "",
             "Generated from the docstrings by `python tools/make_api_docs.py`; a test keeps it current.", ""]
    for name in sorted(tf.__all__, key=str.lower):
        obj = getattr(tf, name)
        if inspect.isclass(obj):
            lines += [f"## class `{name}{_sig(obj) if not issubclass(obj, BaseException) else ''}`", "", _doc(obj), ""]
            for attr, member in sorted(vars(obj).items()):
                if attr.startswith("_") or not (inspect.isfunction(member) or isinstance(member, (property, classmethod, staticmethod))):
                    continue
                if isinstance(member, property):
                    lines += [f"- `{attr}` (property): {_summary(member)}"]
                else:
                    fn = member.__func__ if isinstance(member, (classmethod, staticmethod)) else member
                    lines += [f"- `{attr}{_sig(fn)}`: {_summary(fn)}"]
            lines.append("")
        elif callable(obj):
            lines += [f"## `{name}{_sig(obj)}`", "", _doc(obj), ""]
        else:
            lines += [f"## `{name}`", "", f"`{obj!r}`"[:300], ""]
    from trigon_fast import batch

    # Submodules whose names are not re-exported at the top (trigon_fast.env, which needs the
    # rl extra, is in docs/rl.md).
    for module in (tf.symmetry, tf.render, batch):
        lines += [f"## module `{module.__name__}`", "", _doc(module), ""]
        for name in module.__all__:
            obj = getattr(module, name)
            if callable(obj):
                lines += [f"- `{name}{_sig(obj) if not inspect.isclass(obj) or not issubclass(obj, BaseException) else ''}`: "
                          f"{_summary(obj)}"]
            else:
                lines += [f"- `{name}` = `{obj!r}`"]
        lines.append("")
    lines += ["## module `trigon_fast.env`", "", "The PettingZoo environment (needs the `rl` extra): see "
              "[rl.md](rl.md).", ""]
    return "\n".join(lines).rstrip() + "\n"


def main() -> int:
    text = render()
    if "--check" in sys.argv:
        return 0 if OUT.exists() and OUT.read_text() == text else 1
    OUT.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
