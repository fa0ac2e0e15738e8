"""Pictures of the board: SVG of any position, of a move, of the pieces left; PNG through the
optional ``png`` extra (CairoSVG).

Cells are drawn from the board geometry: cell ``(x, y)`` is a triangle of edge ``cell`` pixels,
``x`` counting half edges from the left, ``y`` rows from the top, pointing up when the core says
``is_up``. Every cell is one ``<polygon>`` with ``class="cell COLOUR"`` (``empty``, ``blue``,
``yellow``, ``red``, ``green``) and ``data-cell`` its name, so pictures can be checked or styled.

>>> import trigon_fast as tf
>>> from trigon_fast.render import game_svg
>>> g = tf.Game()
>>> g.play("q15,r15,p16,q16,o17,p17")
>>> svg = game_svg(g, palette="colourblind")
>>> svg.count('class="cell blue"')
6
"""

from __future__ import annotations

import html
import math
import operator
import os
import re
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from . import _args, _core
from .errors import TrigonError
from .move import PIECE_NAMES, CellLike, Move, board, cell_of_name
from .variants import Colour, ColourLike

if TYPE_CHECKING:  # (game and solver import this module when they draw themselves)
    from .game import Game
    from .solver import Solution

__all__ = [
    "PALETTES",
    "game_svg",
    "move_svg",
    "pieces_left_svg",
    "solution_svg",
    "svg_to_png",
    "write_png",
    "write_svg",
]

_COLOUR_NAMES = ("blue", "yellow", "red", "green")

# Fill colours per palette, in colour order blue, yellow, red, green. "default" is close to
# Pentobi's; "colourblind" is Okabe and Ito's set, told apart with every common colour-vision
# deficiency (the four also differ in lightness, so they survive greyscale printing).
PALETTES: Dict[str, Tuple[str, str, str, str]] = {
    "default": ("#1f6fd1", "#f0c419", "#e0392b", "#22a33a"),
    "colourblind": ("#0072b2", "#f0e442", "#d55e00", "#009e73"),
}
_PALETTE_ALIASES = {"colorblind": "colourblind", "okabe-ito": "colourblind", "cb": "colourblind"}
_EMPTY_FILL = "#f3efe4"
_EMPTY_STROKE = "#c9c1ac"
_SQRT3_2 = math.sqrt(3) / 2

LabelMap = Union[Mapping[str, object], Mapping[int, object], Mapping[Union[str, int], object]]


# Characters XML 1.0 does not allow in a document at all, even escaped: a label holding one
# would make the picture unreadable, so each becomes U+FFFD.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _escape(text: str) -> str:
    """&, < and > as XML entities (as xml.sax.saxutils.escape, whose import takes 25 ms), and
    characters XML forbids replaced."""
    return _NOT_XML.sub("\ufffd", html.escape(text, quote=False))


def _palette(name: str) -> Tuple[str, str, str, str]:
    key = _PALETTE_ALIASES.get(str(name).lower(), str(name).lower())
    if key not in PALETTES:
        raise TrigonError(f"unknown palette {name!r}; choose one of {', '.join(sorted(PALETTES))}")
    return PALETTES[key]


def _fmt(v: float) -> str:
    s = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if s == "-0" else s


def _triangle(x: int, y: int, up: bool, edge: float, ox: float, oy: float) -> List[Tuple[float, float]]:
    """Corner points of cell (x, y): its horizontal extent is x/2 .. x/2 + 1 edges."""
    h = edge * _SQRT3_2
    left, mid, right = ox + x * edge / 2, ox + (x + 1) * edge / 2, ox + (x + 2) * edge / 2
    top, bottom = oy + y * h, oy + (y + 1) * h
    if up:
        return [(mid, top), (right, bottom), (left, bottom)]
    return [(left, top), (right, top), (mid, bottom)]


def _centroid(pts: Sequence[Tuple[float, float]]) -> Tuple[float, float]:
    return sum(p[0] for p in pts) / 3, sum(p[1] for p in pts) / 3


def _points_attr(pts: Iterable[Tuple[float, float]]) -> str:
    return " ".join(f"{_fmt(px)},{_fmt(py)}" for px, py in pts)


def _text_fill(fill: str) -> str:
    """Black or white, whichever reads better on ``fill`` (#rrggbb)."""
    r, g, b = (int(fill[i:i + 2], 16) for i in (1, 3, 5))
    return "#000" if 0.299 * r + 0.587 * g + 0.114 * b > 140 else "#fff"


def _outline_path(polys: Sequence[Sequence[Tuple[float, float]]]) -> str:
    """SVG path data of the outer border of a set of triangles (edges used once)."""
    count: Dict[Tuple[Tuple[float, float], Tuple[float, float]], int] = {}
    for pts in polys:
        for i in range(3):
            a = (round(pts[i][0], 2), round(pts[i][1], 2))
            b = (round(pts[(i + 1) % 3][0], 2), round(pts[(i + 1) % 3][1], 2))
            key = (a, b) if a <= b else (b, a)
            count[key] = count.get(key, 0) + 1
    return " ".join(f"M{_fmt(a[0])},{_fmt(a[1])}L{_fmt(b[0])},{_fmt(b[1])}"
                    for (a, b), n in count.items() if n == 1)


def _column_name(x: int) -> str:
    return (chr(ord("a") + x // 26 - 1) if x >= 26 else "") + chr(ord("a") + x % 26)


def _cell_index(b: "_core.Board", key: CellLike, what: str = "label") -> int:
    if isinstance(key, str):
        c = cell_of_name(b, key)
        if c < 0:
            raise TrigonError(f"{what} {key!r}: not a cell of the side-{b.side} board")
        return c
    try:
        if isinstance(key, bool):  # an int to operator.index: a mask given as a list read as cells 0 and 1
            raise TypeError
        c = operator.index(key)
    except TypeError:
        raise TrigonError(f"{what} {key!r}: a cell is a name or an index") from None
    if not 0 <= c < b.num_cells:
        raise TrigonError(f"{what} cell index {c}: out of range 0..{b.num_cells - 1}")
    return c


def _label_text(v: object) -> str:
    if isinstance(v, (float, np.floating)):  # numpy's float32 is no float: analysis arrays would print 8 digits
        x = float(v)
        return f"{x:.2f}".rstrip("0").rstrip(".") if abs(x) < 100 else f"{x:.0f}"
    return str(v)


def _board_svg(side: int, occupancy: Union[Sequence[int], np.ndarray], *, outline_cells: Sequence[Sequence[int]] = (),
               labels: Optional[Dict[int, str]] = None, palette: str = "default", cell: float = 24.0,
               coordinates: bool = True, caption: Optional[str] = None,
               highlight_cells: Iterable[int] = (), piece_cells: Sequence[Sequence[int]] = (),
               ghost_cells: Sequence[Sequence[int]] = (), ghost_fill: str = "#888888") -> str:
    b = board(side)
    fills = _palette(palette)
    edge = _args.real("cell size", cell, 1.0, 1000.0)  # pixels: a bigger board is no picture (and cairo refuses it)
    h = edge * _SQRT3_2
    margin = edge * 1.3 if coordinates else edge * 0.3
    board_w = (b.width + 1) * edge / 2
    board_h = b.height * h
    caption_h = edge * 1.1 if caption else 0.0
    width, height = board_w + 2 * margin, board_h + 2 * margin + caption_h
    font = edge * 0.42
    highlight = set(highlight_cells)

    out: List[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_fmt(width)}" height="{_fmt(height)}" '
        f'viewBox="0 0 {_fmt(width)} {_fmt(height)}" font-family="Helvetica, Arial, sans-serif">',
        f'<rect class="background" width="{_fmt(width)}" height="{_fmt(height)}" fill="#ffffff"/>',
        '<g class="cells" stroke-linejoin="round">',
    ]
    polys: Dict[int, List[Tuple[float, float]]] = {}
    for c in range(b.num_cells):
        x, y = b.cell_xy(c)
        pts = _triangle(x, y, b.is_up(c), edge, margin, margin)
        polys[c] = pts
        owner = int(occupancy[c])
        if owner >= 0:
            # Stroked in its own fill so a piece reads as one shape; pieces get outlines below.
            fill, cls, stroke = fills[owner], _COLOUR_NAMES[owner], fills[owner]
        else:
            fill, cls, stroke = ("#fff6c8" if c in highlight else _EMPTY_FILL), "empty", _EMPTY_STROKE
        out.append(f'<polygon class="cell {cls}" data-cell="{b.cell_name(c)}" points="{_points_attr(pts)}" '
                   f'fill="{fill}" stroke="{stroke}" stroke-width="{_fmt(edge / 24)}"/>')
    out.append("</g>")

    # Start cells: a ring on free ones, a small dot on covered ones so the layout stays readable.
    out.append('<g class="start-cells">')
    for c in b.start_cells:
        cx, cy = _centroid(polys[c])
        if labels and c in labels and int(occupancy[c]) >= 0:
            continue  # the label would sit on the dot
        if int(occupancy[c]) < 0:
            out.append(f'<circle cx="{_fmt(cx)}" cy="{_fmt(cy)}" r="{_fmt(edge * 0.17)}" fill="none" '
                       f'stroke="#6b6150" stroke-width="{_fmt(edge / 14)}"/>')
        else:
            out.append(f'<circle cx="{_fmt(cx)}" cy="{_fmt(cy)}" r="{_fmt(edge * 0.08)}" '
                       f'fill="{_text_fill(fills[int(occupancy[c])])}" fill-opacity="0.7"/>')
    out.append("</g>")

    if piece_cells:
        d = " ".join(_outline_path([polys[c] for c in cells]) for cells in piece_cells)
        out.append(f'<path class="pieces" d="{d}" fill="none" stroke="#000000" stroke-opacity="0.45" '
                   f'stroke-width="{_fmt(edge / 20)}" stroke-linecap="round"/>')

    for cells in ghost_cells:
        d = _outline_path([polys[c] for c in cells])
        out.append('<g class="candidate">')
        for c in cells:
            out.append(f'<polygon class="candidate-cell" points="{_points_attr(polys[c])}" fill="{ghost_fill}" '
                       'fill-opacity="0.45"/>')
        out.append(f'<path d="{d}" fill="none" stroke="#000000" stroke-width="{_fmt(edge / 14)}" '
                   f'stroke-dasharray="{_fmt(edge / 6)},{_fmt(edge / 8)}"/>')
        out.append("</g>")

    for cells in outline_cells:
        d = _outline_path([polys[c] for c in cells])
        if d:
            out.append(f'<path class="last-move" d="{d}" fill="none" stroke="#ffffff" '
                       f'stroke-width="{_fmt(edge / 5)}" stroke-linecap="round"/>')
            out.append(f'<path class="last-move" d="{d}" fill="none" stroke="#000000" '
                       f'stroke-width="{_fmt(edge / 10)}" stroke-linecap="round"/>')

    if labels:
        out.append(f'<g class="labels" font-size="{_fmt(font * 0.85)}" text-anchor="middle">')
        for c, text in labels.items():
            cx, cy = _centroid(polys[c])
            owner = int(occupancy[c])
            colour = _text_fill(fills[owner]) if owner >= 0 else "#333"
            out.append(f'<text x="{_fmt(cx)}" y="{_fmt(cy + font * 0.3)}" fill="{colour}">{_escape(text)}</text>')
        out.append("</g>")

    if coordinates:
        out.append(f'<g class="coordinates" font-size="{_fmt(font)}" fill="#6b6150" text-anchor="middle">')
        for x in range(b.width):
            if edge < 20 and x % 2 == 0:
                continue  # small boards: every other column (the odd ones hold the start cells' columns)
            cx = margin + (x + 1) * edge / 2
            name = _column_name(x)
            # Columns are half an edge apart: smaller letters so that two-letter names fit.
            out.append(f'<text x="{_fmt(cx)}" y="{_fmt(margin - edge * 0.35)}" font-size="{_fmt(font * 0.8)}">{name}</text>')
            out.append(f'<text x="{_fmt(cx)}" y="{_fmt(margin + board_h + edge * 0.7)}" font-size="{_fmt(font * 0.8)}">{name}</text>')
        for y in range(b.height):
            row = [c for c in (b.cell_at(x, y) for x in range(b.width)) if c >= 0]
            xs = [b.cell_xy(c)[0] for c in row]
            cy = margin + (y + 0.5) * h + font * 0.35
            number = str(b.height - y)
            lx = margin + min(xs) * edge / 2 - edge * 0.15
            rx = margin + (max(xs) + 2) * edge / 2 + edge * 0.15
            out.append(f'<text x="{_fmt(lx)}" y="{_fmt(cy)}" text-anchor="end">{number}</text>')
            out.append(f'<text x="{_fmt(rx)}" y="{_fmt(cy)}" text-anchor="start">{number}</text>')
        out.append("</g>")

    if caption:
        out.append(f'<text class="caption" x="{_fmt(width / 2)}" y="{_fmt(height - edge * 0.45)}" '
                   f'font-size="{_fmt(font * 1.2)}" text-anchor="middle" fill="#222">{_escape(caption)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _labels_for(b: "_core.Board", labels: Optional[LabelMap]) -> Dict[int, str]:
    return {_cell_index(b, k): _label_text(v) for k, v in (labels or {}).items()}


def _move_number_labels(game: Game) -> Dict[int, str]:
    """Each move's number (1-based, in play order) on its piece's cell nearest its centre; a
    record's setup placements are not moves and carry no number."""
    b = game.board
    out: Dict[int, str] = {}
    history = game.history
    for i, move in enumerate((history[k][1] for k in game._move_indices()), start=1):
        cells = move.cell_indices
        xs = [b.cell_xy(c) for c in cells]
        mx, my = sum(x for x, _ in xs) / len(xs), sum(y for _, y in xs) / len(xs)
        best = min(cells, key=lambda c: (b.cell_xy(c)[0] - mx) ** 2 / 4 + (b.cell_xy(c)[1] - my) ** 2)
        out[best] = str(i)
    return out


def _check_game(game: object, function: str) -> None:
    # Another type is a TypeError (as move_svg's), not an AttributeError from inside.
    from .game import Game

    if not isinstance(game, Game):
        raise TypeError(f"{function} needs a Game, not {type(game).__name__}")


def game_svg(game: Game, *, palette: str = "default", cell: float = 24.0, coordinates: bool = True,
             last_move: bool = True, move_numbers: bool = False, labels: Optional[LabelMap] = None,
             caption: Optional[str] = None, highlight: Optional[Iterable[CellLike]] = None,
             candidates: Iterable[Move] = ()) -> str:
    """SVG of a game's position.

    ``palette``: ``"default"`` or ``"colourblind"``; ``cell``: edge of a triangle in pixels;
    ``coordinates``: column letters and row numbers along the edges; ``last_move``: outline the
    last piece placed; ``move_numbers``: write each piece's move number on it; ``labels``: text
    per cell (cell name or index -> text, e.g. analysis values; drawn over move numbers);
    ``caption``: a line under the board; ``highlight``: empty cells to tint (names or indices, or a boolean mask over the cells);
    ``candidates``: moves drawn as dashed, see-through pieces of the colour to move (e.g. the
    search's best moves).
    """
    _check_game(game, "game_svg")
    b = game.board
    lab: Dict[int, str] = _move_number_labels(game) if move_numbers else {}
    lab.update(_labels_for(b, labels))
    outline = [game.history[-1][1].cell_indices] if last_move and game.history else []
    if isinstance(highlight, str):  # "h6,h7" or one cell
        highlight = highlight.split(",")
    elif isinstance(highlight, (list, tuple)) and highlight and all(isinstance(v, (bool, np.bool_)) for v in highlight):
        highlight = np.asarray(highlight, dtype=bool)  # a mask as a list
    if isinstance(highlight, np.ndarray) and highlight.dtype == bool:  # a mask over the cells
        if highlight.shape != (b.num_cells,):
            raise TrigonError(f"a highlight mask has one entry per cell ({b.num_cells}), not shape {highlight.shape}")
        highlight = np.flatnonzero(highlight)
    # Each a name or an index, as labels' cells: int() here would read 2.7 as cell 2.
    hl = [_cell_index(b, c, "highlight") for c in highlight] if highlight is not None else []
    ghosts = []
    for m in candidates:
        if not isinstance(m, Move) or m.side != game.variant.side:
            raise TrigonError(f"candidate {m!r} is not a move of the side-{game.variant.side} board")
        ghosts.append(m.cell_indices)
    fills = _palette(palette)
    ghost_fill = fills[int(game.turn)] if game.turn is not None else "#888888"
    return _board_svg(game.variant.side, game.occupancy(), outline_cells=outline, labels=lab,
                      palette=palette, cell=cell, coordinates=coordinates, caption=caption,
                      highlight_cells=hl, piece_cells=[m.cell_indices for _, m in game.history],
                      ghost_cells=ghosts, ghost_fill=ghost_fill)


def move_svg(move: Move, *, colour: ColourLike = 0, palette: str = "default", cell: float = 14.0,
             coordinates: bool = True) -> str:
    """SVG of a move on the empty board: its piece in ``colour``, outlined, with its cells named
    in the caption."""
    if not isinstance(move, Move):
        raise TypeError(f"move_svg needs a Move, not {type(move).__name__}")
    colour = int(Colour.parse(colour))
    b = board(move.side)
    occ = [-1] * b.num_cells
    for c in move.cell_indices:
        occ[c] = colour
    return _board_svg(move.side, occ, outline_cells=[move.cell_indices], palette=palette, cell=cell,
                      coordinates=coordinates, caption=f"{move.piece}: {move}")


@lru_cache(maxsize=None)
def _piece_shape(piece: int) -> Tuple[Tuple[int, int, bool], ...]:
    """Cells (x, y, up) of a piece's first orientation in board-style coordinates, from (0, 0).
    Lattice (a, b, t) maps to x = 2a + b + t, y = -b; t = 0 is an up triangle."""
    form = _core.piece_orientations(piece)[0]
    cells = [(2 * a + bb + t, -bb, t == 0) for a, bb, t in form]
    mx, my = min(c[0] for c in cells), min(c[1] for c in cells)
    return tuple((x - mx, y - my, up) for x, y, up in cells)


def pieces_left_svg(game: Game, *, palette: str = "default", cell: float = 12.0) -> str:
    """SVG of every colour's 22 pieces: those still to place filled, the placed ones as faint
    outlines; one row per colour in the game, with its score."""
    _check_game(game, "pieces_left_svg")
    fills = _palette(palette)
    edge = _args.real("cell size", cell, 1.0, 1000.0)  # as the board's pictures check it
    h = edge * _SQRT3_2
    shapes = [_piece_shape(p) for p in range(len(PIECE_NAMES))]
    slot_w = max(max(x for x, _, _ in s) + 2 for s in shapes) * edge / 2 + edge * 0.6
    slot_h = max(max(y for _, y, _ in s) + 1 for s in shapes) * h + edge * 1.2
    label_w = edge * 7.5
    colours = list(game.variant.colours)
    width = label_w + slot_w * len(shapes) + edge * 0.5
    height = slot_h * len(colours) + edge * 0.5
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{_fmt(width)}" height="{_fmt(height)}" '
           f'viewBox="0 0 {_fmt(width)} {_fmt(height)}" font-family="Helvetica, Arial, sans-serif">',
           f'<rect class="background" width="{_fmt(width)}" height="{_fmt(height)}" fill="#ffffff"/>']
    for row, colour in enumerate(colours):
        c = int(colour)
        left = set(game.pieces_left(c))
        top = row * slot_h + edge * 0.4
        out.append(f'<g class="pieces {_COLOUR_NAMES[c]}">')
        out.append(f'<text x="{_fmt(edge * 0.3)}" y="{_fmt(top + slot_h / 2)}" font-size="{_fmt(edge * 0.95)}" '
                   f'fill="#222">{_COLOUR_NAMES[c]} {game.score(c)}</text>')
        for p, shape in enumerate(shapes):
            ox = label_w + p * slot_w
            still = PIECE_NAMES[p] in left
            cls = "piece left" if still else "piece placed"
            out.append(f'<g class="{cls}" data-piece="{PIECE_NAMES[p]}">')
            for x, y, up in shape:
                pts = _triangle(x, y, up, edge, ox, top)
                if still:
                    out.append(f'<polygon points="{_points_attr(pts)}" fill="{fills[c]}" stroke="#00000055" '
                               f'stroke-width="{_fmt(edge / 16)}"/>')
                else:
                    out.append(f'<polygon points="{_points_attr(pts)}" fill="none" stroke="#cfc8b6" '
                               f'stroke-width="{_fmt(edge / 16)}"/>')
            out.append(f'<text x="{_fmt(ox + slot_w / 2 - edge * 0.3)}" y="{_fmt(top + slot_h - edge * 0.25)}" '
                       f'font-size="{_fmt(edge * 0.7)}" text-anchor="middle" fill="#555">{PIECE_NAMES[p]}</text>')
            out.append("</g>")
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


def solution_svg(solution: Solution, **options: Any) -> str:
    """SVG of a solver ``Solution`` (its ``game``), captioned with the score; options as
    :func:`game_svg` (move numbers on by default)."""
    from .game import Game

    game = getattr(solution, "game", None)
    if not isinstance(game, Game):
        raise TypeError(f"solution_svg needs a Solution, not {type(solution).__name__}")
    options.setdefault("move_numbers", True)
    options.setdefault("last_move", False)
    if "caption" not in options:
        total = sum(game.scores().values())
        done = "complete" if getattr(solution, "complete", False) else "incomplete"
        options["caption"] = f"solo puzzle, {done}: score {total:+d}"
    return game_svg(game, **options)


def svg_to_png(svg: str, scale: float = 1.0) -> bytes:
    """PNG bytes of an SVG string; needs the ``png`` extra (``pip install '.[png]'`` in the checkout)."""
    scale = _args.positive("scale", scale)
    try:
        import cairosvg  # optional extra: CairoSVG (maintained, pure Python over libcairo)
    except (ImportError, OSError) as e:  # OSError: the wheel is there but libcairo is not
        raise ImportError("PNG export needs the png extra: pip install '.[png]' in the trigon_fast checkout "
                          f"(CairoSVG and the cairo library): {e}") from None
    return cairosvg.svg2png(bytestring=svg.encode("utf-8"), scale=scale)


def write_svg(svg: str, path: Union[str, "os.PathLike[str]"]) -> None:
    """Write an SVG picture to ``path`` (UTF-8 text)."""
    with open(path, "w", encoding="utf-8") as f:
        f.write(svg)


def write_png(svg: str, path: Union[str, "os.PathLike[str]"], scale: float = 2.0) -> None:
    """Write an SVG picture to ``path`` as PNG, ``scale`` times its size (needs CairoSVG: the
    ``png`` extra)."""
    data = svg_to_png(svg, scale)
    with open(path, "wb") as f:
        f.write(data)
