"""Writes docs/api.md, the API reference, from the public names' signatures and docstrings.

    python tools/make_api_docs.py          # rewrite docs/api.md
    python tools/make_api_docs.py --check  # exit 1 when docs/api.md is out of date (a test runs this)
"""

from __future__ import annotations

import importlib
import inspect
import pathlib
import re
import sys
import types
import typing

import trigon_fast as tf

OUT = pathlib.Path(__file__).resolve().parent.parent / "docs" / "api.md"


class _Annotation(str):
    """An annotation as written in the source, shown without the quotes that postponed
    annotations (``from __future__ import annotations``) would give it."""

    def __repr__(self) -> str:
        return str(self)


def _plain(annotation):
    return _Annotation(annotation.replace("'", "").replace('"', "")) if isinstance(annotation, str) else annotation


def _sig(obj) -> str:
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return "(...)"
    sig = sig.replace(parameters=[p.replace(annotation=_plain(p.annotation)) for p in sig.parameters.values()],
                      return_annotation=_plain(sig.return_annotation))
    return re.sub(r"<function (\w+) at 0x[0-9a-f]+>", r"\1", str(sig))  # a default function's address changes


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
    lines += ["## Argument types", "", "The aliases that the signatures above name: what an argument may be (the "
              "functions check their arguments at run time).", ""]
    for module, name in _ALIASES:
        lines += [f"- `{name}` (`{module}`): `{_alias_text(getattr(importlib.import_module(module), name))}`"]
    return "\n".join(lines).rstrip() + "\n"


_ALIASES = [("trigon_fast._args", "IntLike"), ("trigon_fast.variants", "ColourLike"), ("trigon_fast.variants", "Colours"), ("trigon_fast.variants", "VariantLike"),
            ("trigon_fast.move", "CellLike"), ("trigon_fast.move", "PieceLike"), ("trigon_fast.game", "MoveLike"),
            ("trigon_fast.solver", "StartCells"), ("trigon_fast.pattern", "Region"), ("trigon_fast.pattern", "Pieces"),
            ("trigon_fast.render", "LabelMap"), ("trigon_fast.batch", "PathLike")]


def _alias_text(t: object) -> str:
    """A typing alias as a reader writes it, the same on every Python version (whose reprs of
    unions differ): ``Union[Colour, str, int, numpy.integer]``."""
    if t is type(None):
        return "None"
    if isinstance(t, typing.ForwardRef):
        return t.__forward_arg__
    origin, args = typing.get_origin(t), typing.get_args(t)
    if origin is typing.Union or (hasattr(types, "UnionType") and origin is getattr(types, "UnionType")):
        return "Union[" + ", ".join(_alias_text(a) for a in args) + "]"
    if origin is not None:
        return f"{origin.__name__}[{', '.join(_alias_text(a) for a in args)}]"
    if isinstance(t, type):
        return f"{t.__module__.split('.')[0]}.{t.__qualname__}" if t.__module__.startswith("numpy") else t.__qualname__
    return repr(t)

def main() -> int:
    text = render()
    if "--check" in sys.argv:
        return 0 if OUT.exists() and OUT.read_text() == text else 1
    OUT.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
