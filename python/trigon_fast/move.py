"""Moves: one placement of a piece, written as Pentobi does (``"q15,r15,p16,q16,o17,p17"``)."""

from __future__ import annotations

import operator
import re
from functools import lru_cache
from typing import Dict, Iterable, Tuple, Union

from . import _args, _core
from ._args import IntLike
from .errors import InvalidMoveError
from .symmetry import placement_permutation

__all__ = ["CellLike", "Move", "PIECE_NAMES", "PIECE_SIZES", "PieceLike", "board"]

# A cell as the API takes it: a name (``"r15"``) or an index of the board (numpy's integers too).
CellLike = Union[str, IntLike]
# A piece: a Pentobi name (``"I6"``, ``"1"``) or an index 0..21 in ``PIECE_NAMES``.
PieceLike = Union[str, IntLike]

PIECE_NAMES: Tuple[str, ...] = tuple(_core.piece_names())
PIECE_SIZES: Tuple[int, ...] = tuple(_core.piece_sizes())
_PIECE_INDEX = {n.lower(): i for i, n in enumerate(PIECE_NAMES)}
_CELL_RE = re.compile(r"^[a-zA-Z]{1,2}[0-9]{1,2}$")


def cell_of_name(b: "_core.Board", name: str) -> int:
    """The index of a cell name on board ``b`` (blanks around it and any case allowed), or -1."""
    name = name.strip()
    return b.parse_cell(name) if _CELL_RE.match(name) else -1


def board(side: int = 9) -> "_core.Board":
    """The shared board table (geometry and placements) of side 9 or 8."""
    if type(side) is not int or (side != 9 and side != 8):  # a plain 9 or 8 costs two tests (per move made)
        side = _args.side(side)
    return _core.board(side)


def piece_index(piece: PieceLike) -> int:
    """Index 0..21 of a piece given by Pentobi name (``"I6"``, ``"1"``) or index."""
    if not isinstance(piece, (str, bool)) and hasattr(piece, "__index__"):  # int, numpy integers
        p = operator.index(piece)
        if 0 <= p < len(PIECE_NAMES):
            return p
        raise InvalidMoveError(f"piece index {p} out of range 0..21")
    if isinstance(piece, str) and piece.strip().lower() in _PIECE_INDEX:
        return _PIECE_INDEX[piece.strip().lower()]
    raise InvalidMoveError(f"unknown piece {piece!r}; pieces are {' '.join(PIECE_NAMES)}")


@lru_cache(maxsize=4)
def _anchor_table(side: int) -> Dict[Tuple[int, int], Dict[int, int]]:
    """(piece, orientation) -> {anchor cell: placement id}. An orientation is a normalised form
    (least lattice a and b are 0); its first triangle placed on the anchor gives the placement."""
    b = _core.board(side)
    forms = [_core.piece_orientations(p) for p in range(len(PIECE_NAMES))]
    table: Dict[Tuple[int, int], Dict[int, int]] = {}
    for pid in range(b.num_placements):
        p, o = b.placement_piece(pid), b.placement_orientation(pid)
        lat = [b.lattice(c) for c in b.placement_cells(pid)]
        da, db = min(x[0] for x in lat), min(x[1] for x in lat)
        fa, fb, ft = forms[p][o][0]
        anchor = b.cell_at(*_lattice_xy(side, fa + da, fb + db, ft))
        table.setdefault((p, o), {})[anchor] = pid
    return table


def _lattice_xy(side: int, a: int, b: int, t: int) -> Tuple[int, int]:
    # Inverse of the core's lattice map: y = -b, x = 2a + b + t + side - 1.
    return 2 * a + b + t + side - 1, -b


def _quoted(text: str, most: int = 40) -> str:
    """repr of user text for an error message, cut to ``most`` characters (a pasted megabyte
    would come back twice)."""
    return repr(text) if len(text) <= most else repr(text[:most]) + f"... ({len(text)} characters)"


def _cell_sort_key(b: "_core.Board", cell: int) -> Tuple[int, int]:
    x, y = b.cell_xy(cell)
    return (-y, x)  # a1, b1, ..., a2, ...: rows from the bottom, then left to right


# Move._trusted's moves by side << 16 | placement id (at most the two boards' placements).
_SHARED_MOVES: Dict[int, "Move"] = {}


class Move:
    """A placement of one piece; the colour is the game's to decide.

    >>> m = Move.from_str("r15,q15,q16,p16,p17,o17")
    >>> str(m), m.piece
    ('q15,r15,p16,q16,o17,p17', 'I6')
    >>> Move.from_str(str(m)) == m
    True
    """

    __slots__ = ("_id", "_side")

    def __init__(self, id: IntLike, side: int = 9) -> None:
        b = board(side)
        if type(id) is not int:  # numpy integers; anything else an InvalidMoveError
            id = _args.integer("a placement id", id, 0, b.num_placements - 1, InvalidMoveError)
        if not 0 <= id < b.num_placements:
            raise InvalidMoveError(f"placement id {id!r} out of range 0..{b.num_placements - 1}")
        self._id = int(id)
        self._side = b.side  # a plain int, whatever integer type came in

    @classmethod
    def _trusted(cls, id: int, side: int) -> "Move":
        """The move of a placement id the core handed out (a valid int, ``side`` 9 or 8), made
        without checks (listings of thousands of moves cost a fifth of checked construction),
        and shared: a Move never changes, and thousands of solved games each held 88 of their
        own for the garbage collector to walk."""
        key = side << 16 | id
        m = _SHARED_MOVES.get(key)
        if m is None:
            m = cls.__new__(cls)
            m._id = id
            m._side = side
            _SHARED_MOVES[key] = m
        return m

    @classmethod
    def from_id(cls, id: IntLike, side: int = 9) -> "Move":
        """The move of placement id ``id`` on the board of side ``side`` (9: big board, 8: inner);
        an integer (numpy's too), not a string or a float."""
        return cls(id, side)

    @classmethod
    def from_str(cls, text: str, side: int = 9) -> "Move":
        """Parse Pentobi's notation: the covered cells separated by commas, in any order."""
        if not isinstance(text, str):
            raise InvalidMoveError(f"a move is a string of cells, not {type(text).__name__}")
        b = board(side)
        parts = [p.strip() for p in text.strip().split(",")]
        if not parts or parts == [""]:
            raise InvalidMoveError("empty move")
        if parts[0].lower() == "pass" and len(parts) == 1:
            raise InvalidMoveError("'pass' is not a placement (a colour that cannot move passes by itself)")
        if len(parts) > 6:
            raise InvalidMoveError(f"a piece covers at most 6 cells, {len(parts)} given in {_quoted(text)}")
        cells = []
        for p in parts:
            c = cell_of_name(b, p)
            if c < 0:
                where = f" (in move {_quoted(text)})" if p != text.strip() else ""
                raise InvalidMoveError(f"{_quoted(p)} is not a cell of the side-{side} board{where}")
            cells.append(c)
        if len(set(cells)) != len(cells):
            raise InvalidMoveError(f"a cell is repeated in move {text!r}")
        pid = b.find_placement(cells)
        if pid < 0:
            raise InvalidMoveError(f"the cells {text!r} are not the shape of any piece")
        return cls(pid, side)

    @classmethod
    def from_cells(cls, cells: Iterable[CellLike], side: int = 9) -> "Move":
        """From cell names or indices."""
        b = board(side)
        if isinstance(cells, str):
            raise InvalidMoveError(f"cells must be a list of cell names or indices, not the string {_quoted(cells)} "
                                   "(Move.from_str reads a move's text)")
        names = []
        for c in cells:
            if not isinstance(c, str):
                c = b.cell_name(_args.integer(f"a cell index of the side-{side} board", c, 0, b.num_cells - 1,
                                              InvalidMoveError))
            names.append(c)
        return cls.from_str(",".join(names), side)

    @classmethod
    def from_piece(cls, piece: PieceLike, orientation: int, cell: CellLike, side: int = 9) -> "Move":
        """A piece (name or index) in one of its orientations (0..n-1, see ``orientations``),
        with the orientation's reference triangle on ``cell``.

        >>> Move.from_piece("1", 0, "r15").cells
        ('r15',)
        """
        p = piece_index(piece)
        forms = _core.piece_orientations(p)
        orientation = _args.integer(f"the orientation of piece {PIECE_NAMES[p]}", orientation, 0, len(forms) - 1,
                                    InvalidMoveError)
        b = board(side)
        if isinstance(cell, str):
            c = cell_of_name(b, cell)
            if c < 0:
                raise InvalidMoveError(f"{_quoted(cell)} is not a cell of the side-{side} board")
        else:
            c = _args.integer(f"a cell index of the side-{side} board", cell, 0, b.num_cells - 1, InvalidMoveError)
        anchors = _anchor_table(side).get((p, orientation), {})
        pid = anchors.get(c)
        if pid is None:
            # A reference triangle pointing the other way is no matter of room: say so, or a
            # single triangle "does not fit" on a free cell.
            up = next((b.is_up(a) for a in anchors), b.is_up(c))
            why = (f": its reference triangle points {'up' if up else 'down'}, {b.cell_name(c)} "
                   f"{'up' if b.is_up(c) else 'down'}" if up != b.is_up(c) else "")
            raise InvalidMoveError(f"piece {PIECE_NAMES[p]} in orientation {orientation} does not fit on the board"
                                   f" at {b.cell_name(c)}{why}")
        return cls(pid, side)

    @staticmethod
    def orientations(piece: PieceLike) -> int:
        """Number of distinct orientations of a piece."""
        return len(_core.piece_orientations(piece_index(piece)))

    @property
    def id(self) -> int:
        """Placement id in the board's table (index into legal-move masks)."""
        return self._id

    @property
    def side(self) -> int:
        """Side of the board the move belongs to: 9 (486 cells) or 8 (the inner 384)."""
        return self._side

    @property
    def piece_index(self) -> int:
        """Index of the piece, 0..21 in Pentobi's order (``PIECE_NAMES``)."""
        return board(self._side).placement_piece(self._id)

    @property
    def piece(self) -> str:
        """The piece's name, as Pentobi writes it (``"I6"``, ``"V"``, ... ``"1"``)."""
        return PIECE_NAMES[self.piece_index]

    def transform(self, k: int) -> "Move":
        """This placement under board symmetry ``k`` (0..11: ``k % 6`` turns by 60 degrees, after
        a reflection when ``k >= 6``; see :mod:`trigon_fast.symmetry`)."""
        return Move(int(placement_permutation(k, self._side)[self._id]), self._side)

    @property
    def orientation(self) -> int:
        """Which of the piece's distinct orientations it is placed in: 0 up to
        ``Move.orientations(piece) - 1`` (as ``Move.from_piece`` takes it)."""
        return board(self._side).placement_orientation(self._id)

    @property
    def size(self) -> int:
        """Triangles the piece covers (1 to 6)."""
        return PIECE_SIZES[self.piece_index]

    @property
    def cell_indices(self) -> Tuple[int, ...]:
        """The cells covered, as board indices, in canonical order (rows from the bottom, each
        left to right)."""
        b = board(self._side)
        return tuple(sorted(b.placement_cells(self._id), key=lambda c: _cell_sort_key(b, c)))

    @property
    def cells(self) -> Tuple[str, ...]:
        """The cells covered, as names (``"q15"``), in canonical order: ``",".join(cells) == str(move)``."""
        b = board(self._side)
        return tuple(b.cell_name(c) for c in self.cell_indices)

    def __str__(self) -> str:
        return ",".join(self.cells)

    def __repr__(self) -> str:
        if self._side == 9:
            return f"Move.from_str({str(self)!r})"
        return f"Move.from_str({str(self)!r}, side={self._side})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Move) and other._id == self._id and other._side == self._side

    def __hash__(self) -> int:
        return hash((self._id, self._side))

    def _repr_svg_(self) -> str:  # pragma: no cover - filled in by the renderer when present
        from . import render

        return render.move_svg(self)
