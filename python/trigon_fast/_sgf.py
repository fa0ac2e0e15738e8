"""SGF syntax: the text of a record to a tree of nodes and back, with the line and column of
every value for error messages. What the properties mean for a Trigon game is records.py's."""

from __future__ import annotations

import bisect
from typing import Collection, Dict, List, Optional, Tuple, overload

from .errors import RecordError

__all__ = ["Node", "parse", "write", "copy_tree"]


class Node:
    """One SGF node: properties (identifier -> list of values, in file order) and children.

    ``positions[ident]`` holds the (line, column) of each value, for error messages."""

    __slots__ = ("properties", "children", "positions", "line", "column")

    def __init__(self, line: Optional[int] = None, column: Optional[int] = None) -> None:
        self.properties: Dict[str, List[str]] = {}
        self.positions: Dict[str, List[Tuple[Optional[int], Optional[int]]]] = {}
        self.children: List["Node"] = []
        self.line = line
        self.column = column

    @overload
    def get(self, ident: str) -> Optional[str]: ...
    @overload
    def get(self, ident: str, default: str) -> str: ...
    def get(self, ident: str, default: Optional[str] = None) -> Optional[str]:
        values = self.properties.get(ident)
        return values[0] if values else default

    def values(self, ident: str) -> List[str]:
        return list(self.properties.get(ident, ()))

    def set(self, ident: str, *values: str) -> None:
        """Set (or with no values, remove) a property."""
        if not values:
            self.properties.pop(ident, None)
            self.positions.pop(ident, None)
            return
        self.properties[ident] = [str(v) for v in values]
        self.positions[ident] = [(None, None)] * len(values)

    def position(self, ident: str, index: int = 0) -> Tuple[Optional[int], Optional[int]]:
        pos = self.positions.get(ident)
        if pos and index < len(pos):
            return pos[index]
        return self.line, self.column

    def __contains__(self, ident: str) -> bool:
        return ident in self.properties

    def __repr__(self) -> str:
        props = "".join(f"{k}[{']['.join(v)}]" for k, v in self.properties.items())
        return f"<Node ;{props} ({len(self.children)} children)>"


class _Parser:
    def __init__(self, text: str, joined: Collection[str]) -> None:
        self.joined = joined
        if text.startswith("\ufeff"):
            text = text[1:]
        self.text = text
        self.pos = 0
        self.newlines = [i for i, ch in enumerate(text) if ch == "\n"]

    def where(self, offset: int) -> Tuple[int, int]:
        line = bisect.bisect_left(self.newlines, offset)
        start = self.newlines[line - 1] + 1 if line > 0 else 0
        return line + 1, offset - start + 1

    def error(self, message: str, offset: Optional[int] = None) -> RecordError:
        line, col = self.where(self.pos if offset is None else offset)
        return RecordError(message, line, col)

    def skip_ws(self) -> None:
        t, n = self.text, len(self.text)
        while self.pos < n and t[self.pos].isspace():
            self.pos += 1

    def peek(self) -> str:
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def collection(self) -> List[Node]:
        trees = []
        self.skip_ws()
        while self.peek() == "(":
            trees.append(self.tree())
            self.skip_ws()
        if self.pos < len(self.text):
            ch = self.peek()
            if not trees:
                raise self.error(f"a record starts with '(;', not {ch!r}")
            if ch == ")":
                raise self.error("unexpected ')': no game tree is open here")
            raise self.error(f"unexpected {ch!r} after the game tree")
        if not trees:
            raise self.error("empty record: no game tree '(;...)'")
        return trees

    def tree(self) -> Node:
        open_at = self.pos
        self.pos += 1  # '('
        self.skip_ws()
        if self.peek() != ";":
            if not self.peek():
                raise self.error("the record ends inside the game tree opened here", open_at)
            raise self.error(f"a game tree must start with a node ';', not {self.peek()!r}")
        first = last = self.node()
        self.skip_ws()
        while self.peek() == ";":
            node = self.node()
            last.children.append(node)
            last = node
            self.skip_ws()
        while self.peek() == "(":
            last.children.append(self.tree())
            self.skip_ws()
        ch = self.peek()
        if ch == ")":
            self.pos += 1
            return first
        if not ch:
            raise self.error("missing ')': the game tree opened here is not closed", open_at)
        if ch == "]":
            raise self.error("unexpected ']' outside a property value")
        raise self.error(f"unexpected {ch!r} in the game tree (expected ';', '(' or ')')")

    def node(self) -> Node:
        line, col = self.where(self.pos)
        node = Node(line, col)
        self.pos += 1  # ';'
        t = self.text
        while True:
            self.skip_ws()
            start = self.pos
            while self.pos < len(t) and (t[self.pos].isascii() and (t[self.pos].isupper() or t[self.pos].isdigit())):
                self.pos += 1
            if self.pos == start:
                ch = self.peek()
                if ch.isalpha():
                    raise self.error(f"property identifiers are upper-case letters and digits, not {ch!r}")
                if ch == "[":
                    raise self.error("property value without a property identifier")
                return node
            ident = t[start:self.pos]
            self.skip_ws()
            if self.peek() != "[":
                raise self.error(f"property {ident} has no value '[...]'")
            if ident in node.properties:
                raise self.error(f"property {ident} appears twice in one node", start)
            values: List[str] = []
            positions: List[Tuple[Optional[int], Optional[int]]] = []
            while self.peek() == "[":
                positions.append(self.where(self.pos + 1))
                values.append(self.value())
                self.skip_ws()
            node.properties[ident] = values
            node.positions[ident] = positions
            if len(values) > 1 and ident in self.joined:
                # (blksgf: Pentobi <= 0.2 wrote a move as a list of points)
                node.properties[ident] = [",".join(values)]
                node.positions[ident] = positions[:1]

    def value(self) -> str:
        open_at = self.pos
        self.pos += 1  # '['
        t, n = self.text, len(self.text)
        out: List[str] = []
        while True:
            if self.pos >= n:
                raise self.error("missing ']': the property value opened here is not closed", open_at)
            ch = t[self.pos]
            if ch == "]":
                self.pos += 1
                return "".join(out).replace("\r\n", "\n").replace("\r", "\n")
            if ch == "\\":
                self.pos += 1
                if self.pos >= n:
                    raise self.error("missing ']': the property value opened here is not closed", open_at)
                esc = t[self.pos]
                if esc in "\r\n":  # soft line break: removed
                    if esc == "\r" and t[self.pos + 1:self.pos + 2] == "\n":
                        self.pos += 1
                else:
                    out.append(esc)
                self.pos += 1
                continue
            out.append(ch)
            self.pos += 1


def parse(text: str, joined: Collection[str] = ()) -> List[Node]:
    """The game trees of an SGF collection (roots), with positions for errors. The values of a
    property in ``joined`` given as a list (``[a][b]``) become one value, ``a,b``."""
    if not isinstance(text, str):
        raise TypeError(f"record text must be str, not {type(text).__name__}")
    parser = _Parser(text, joined)
    try:
        return parser.collection()
    except RecursionError:
        raise parser.error("variations are nested too deeply") from None


def copy_tree(root: Node) -> Node:
    """A copy of a tree of nodes (without recursion: records are deep)."""
    def copy_node(node: Node) -> Node:
        new = Node(node.line, node.column)
        new.properties = {k: list(v) for k, v in node.properties.items()}
        new.positions = {k: list(v) for k, v in node.positions.items()}
        return new

    top = copy_node(root)
    stack = [(root, top)]
    while stack:
        old, new = stack.pop()
        for child in old.children:
            c = copy_node(child)
            new.children.append(c)
            stack.append((child, c))
    return top


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("]", "\\]")


def _write_tree(root: Node, out: List[str]) -> None:
    # Iterative over the main line (records are deep), recursive only at variations.
    out.append("(")
    node = root
    while True:
        out.append(";")
        for ident, values in node.properties.items():
            out.append(ident)
            out.extend(f"[{_escape(v)}]" for v in values)
        out.append("\n")
        if len(node.children) == 1:
            node = node.children[0]
            continue
        for child in node.children:
            _write_tree(child, out)
        break
    out.append(")")
    out.append("\n")


def write(root: Node) -> str:
    """A tree of nodes as SGF text (a node per line)."""
    out: List[str] = []
    _write_tree(root, out)
    return "".join(out)
