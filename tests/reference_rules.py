"""An independent, slow model of the rules, written from the conventions alone.

It uses nothing of the C++ core: cells come from Pentobi's (x, y) rectangle, triangle corners
from plain coordinates, placements from enumerating edge-connected cell sets, pieces from
congruence. Tests compare the engine against it.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Dict, FrozenSet, List, Set, Tuple

Cell = Tuple[int, int]


@lru_cache(maxsize=2)
def cells_of(side: int) -> Tuple[Cell, ...]:
    out = []
    for y in range(2 * side):
        d = min(y, 2 * side - 1 - y)
        m = side - 1 - d
        for x in range(m, 4 * side - 1 - m):
            out.append((x, y))
    return tuple(out)


def is_up(side: int, cell: Cell) -> bool:
    x, y = cell
    return (x + y) % 2 == (0 if side == 9 else 1)


def corners(side: int, cell: Cell) -> FrozenSet[Tuple[int, int]]:
    """The triangle's 3 corners in half-unit columns and row lines."""
    x, y = cell
    if is_up(side, cell):
        return frozenset({(x + 1, y), (x, y + 1), (x + 2, y + 1)})
    return frozenset({(x, y), (x + 2, y), (x + 1, y + 1)})


@lru_cache(maxsize=2)
def geometry(side: int):
    cells = cells_of(side)
    cellset = set(cells)
    corner = {c: corners(side, c) for c in cells}
    by_corner: Dict[Tuple[int, int], List[Cell]] = {}
    for c in cells:
        for v in corner[c]:
            by_corner.setdefault(v, []).append(c)
    edge = {}
    touch = {}
    for c in cells:
        near = {o for v in corner[c] for o in by_corner[v] if o != c}
        edge[c] = {o for o in near if len(corner[c] & corner[o]) == 2}
        touch[c] = near - edge[c]
    return cellset, corner, by_corner, edge, touch


def name(side: int, cell: Cell) -> str:
    x, y = cell
    col = (chr(ord("a") + x // 26 - 1) if x >= 26 else "") + chr(ord("a") + x % 26)
    return f"{col}{2 * side - y}"


def parse(side: int, text: str) -> Cell:
    letters = "".join(ch for ch in text if ch.isalpha())
    digits = text[len(letters):]
    x = ord(letters[-1]) - ord("a") + (26 * (ord(letters[0]) - ord("a") + 1) if len(letters) == 2 else 0)
    return (x, 2 * side - int(digits))


@lru_cache(maxsize=2)
def placements(side: int) -> Tuple[FrozenSet[Cell], ...]:
    """Every edge-connected set of 1..6 cells: exactly the placements of the 22 pieces."""
    cellset, _, _, edge, _ = geometry(side)
    order = {c: i for i, c in enumerate(cells_of(side))}
    found: Set[FrozenSet[Cell]] = set()
    level = {frozenset([c]) for c in cellset}
    found |= level
    for _ in range(5):
        nxt = set()
        for s in level:
            for c in s:
                for n in edge[c]:
                    if n not in s:
                        nxt.add(s | {n})
        found |= nxt
        level = nxt
    return tuple(sorted(found, key=lambda s: sorted(order[c] for c in s)))


def _lattice(side: int, cell: Cell) -> Tuple[int, int, int]:
    x, y = cell
    t = 0 if is_up(side, cell) else 1
    b = -y
    return ((x - b - t - (side - 1)) // 2, b, t)


def lattice_symmetry(cell: Tuple[int, int, int], k: int) -> Tuple[int, int, int]:
    """Lattice symmetry k of a lattice cell (a, b, t): k % 6 turns of 60 degrees, after a
    reflection when k >= 6 (up to a translation)."""
    a, b, t = cell
    u, v = 3 * a + 1 + t, 3 * b + 1 + t
    if k >= 6:
        u, v = v, u
    for _ in range(k % 6):
        u, v = -v, u + v
    t = 1 if u % 3 == 2 else 0
    return (u - 1 - t) // 3, (v - 1 - t) // 3, t


@lru_cache(maxsize=None)
def shape_key(side: int, cells: FrozenSet[Cell]) -> Tuple:
    """Congruence class of a cell set (rotations and reflections, up to translation)."""
    best = None
    for k in range(12):
        pts = [lattice_symmetry(_lattice(side, c), k) for c in cells]
        ma = min(p[0] for p in pts)
        mb = min(p[1] for p in pts)
        form = tuple(sorted((p[0] - ma, p[1] - mb, p[2]) for p in pts))
        if best is None or form < best:
            best = form
    return best


START9 = ["r15", "z12", "z7", "r4", "j7", "j12"]  # ring order; opposite = +3
START8 = ["p14", "x11", "x6", "p3", "h6", "h11"]


class RefGame:
    """Replays moves by the rules and lists legal placements by brute force."""

    def __init__(self, side: int = 9, colours=(0, 1, 2, 3), alternate: bool = False, start_rule: str = "any"):
        self.side = side
        self.colours = tuple(colours)
        self.alternate = alternate
        self.start_rule = start_rule
        self.ring = [parse(side, s) for s in (START9 if side == 9 else START8)]
        self.owner: Dict[Cell, int] = {}
        self.pieces: Dict[int, List[FrozenSet[Cell]]] = {c: [] for c in range(4)}
        self.used: Dict[int, Set[Tuple]] = {c: set() for c in range(4)}
        self.first_start: Dict[int, Cell] = {}

    def allowed_starts(self, c: int) -> Set[Cell]:
        free = {s for s in self.ring if s not in self.owner}
        if self.start_rule == "opposite":
            partner = (c + 2) % 4
            if partner in self.first_start:
                i = self.ring.index(self.first_start[partner])
                return {self.ring[(i + 3) % 6]} & free
            # Cells opposite an unpartnered start are reserved.
            reserved = set()
            for k, s in self.first_start.items():
                if (k + 2) % 4 in self.colours and not self.pieces[(k + 2) % 4]:
                    reserved.add(self.ring[(self.ring.index(s) + 3) % 6])
            return free - reserved
        if self.start_rule == "every_other" and self.first_start:
            first = min(self.first_start, key=lambda k: self.order_started.index(k))
            i = self.ring.index(self.first_start[first])
            ring_cells = {self.ring[(i + 2) % 6], self.ring[(i + 4) % 6], self.ring[i]}
            ok = ring_cells & free
            # One colour left with one cell: that cell is reserved for it.
            return ok
        return free

    @property
    def order_started(self) -> List[int]:
        return getattr(self, "_order", [])

    def reserved_for_others(self, c: int) -> Set[Cell]:
        res = set()
        for k in self.colours:
            if k == c or self.pieces[k]:
                continue
            a = self.allowed_starts(k)
            if len(a) == 1:
                res |= a
        return res

    def is_legal(self, c: int, cells: FrozenSet[Cell]) -> bool:
        _, corner, by_corner, edge, touch = geometry(self.side)
        if any(x in self.owner for x in cells):
            return False
        if not self.pieces[c]:
            if not (cells & self.allowed_starts(c)):
                return False
            if cells & self.reserved_for_others(c):
                return False
            return shape_key(self.side, cells) not in self.used[c]
        own = self._own(c)
        if any(n in own for x in cells for n in edge[x]):
            return False
        if not any(n in own for x in cells for n in touch[x]):
            return False
        if cells & self.reserved_for_others(c):
            return False
        if shape_key(self.side, cells) in self.used[c]:
            return False
        if self.alternate:
            vs = {v for x in cells for v in corner[x]}
            for v in vs:
                mine = sum(1 for x in by_corner[v] if x in cells)
                for p in self.pieces[c]:
                    theirs = sum(1 for x in by_corner[v] if x in p)
                    if theirs and (mine >= 3 or theirs >= 3):
                        return False
        return True

    def _own(self, c: int) -> Set[Cell]:
        return {x for x, k in self.owner.items() if k == c}

    def legal(self, c: int) -> Set[FrozenSet[Cell]]:
        return {p for p in placements(self.side) if self.is_legal(c, p)}

    def play(self, c: int, cells: FrozenSet[Cell]) -> None:
        assert self.is_legal(c, cells), (c, sorted(cells))
        if not self.pieces[c]:
            self.first_start[c] = next(s for s in self.ring if s in cells)
            self._order = self.order_started + [c]
        for x in cells:
            self.owner[x] = c
        self.pieces[c].append(frozenset(cells))
        self.used[c].add(shape_key(self.side, cells))
