"""Game records in Pentobi's blksgf format (SGF with Blokus properties) for the Trigon games.

A record is an SGF game tree: the root node holds the header (``GM`` game name, ``CA``, ``AP``,
player names ``PB``/``PW`` or ``P1``..``P4``, ``RE``, ``DT``, ...), each later node a move
(``1[cells]``..``4[cells]``) and/or setup (``A1``..``A4`` place pieces, ``AE`` removes them,
``PL`` sets the colour to play) and comments (``C``). Variations are read and kept; the main
line (the first child of every node) is the game.

Our own rule sets that Pentobi has not (alternate rule, teams, the rulebook's start rules in the
two- and three-player games, solo games) are written with one extra root property,
``TFRULES[variant=teams alternate=1 start=any]``, that Pentobi ignores, so it still reads the
moves.

>>> import trigon_fast as tf
>>> g = tf.Game.from_blksgf("(;GM[Blokus Trigon];1[q15,r15,p16,q16,o17,p17])")
>>> g.history
[(Colour.BLUE, Move.from_str('q15,r15,p16,q16,o17,p17'))]
>>> tf.Game.from_blksgf(g.to_blksgf()).history == g.history
True
"""

from __future__ import annotations

import os
import re
from typing import Any, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple, Union

from . import _args, _sgf
from ._sgf import Node
from .errors import IllegalMoveError, InvalidMoveError, RecordError, TrigonError
from .game import Game, _lock_of
from .move import Move
from .variants import Colour, StartRule, Variant

__all__ = [
    "RecordError",
    "Node",
    "Record",
    "parse_sgf",
    "read_blksgf",
    "load_game",
    "write_blksgf",
    "variant_from_game_name",
    "game_name",
]

RULES_PROPERTY = "TFRULES"
_GAME_NAMES = {
    "Blokus Trigon": "four_player",
    "Blokus Trigon Two-Player": "two_player",
    "Blokus Trigon Three-Player": "three_player",
}
_MOVE_IDS = {"1": 0, "2": 1, "3": 2, "4": 3,
             # Pentobi 0.1 wrote colour names; Pentobi still reads them, so do we.
             "BLUE": 0, "YELLOW": 1, "RED": 2, "GREEN": 3}
_SETUP_IDS = {"A1": 0, "A2": 1, "A3": 2, "A4": 3, "AB": 0, "AW": 1}
_WRITTEN_IDS = {"GM", "FF", "CA", "AP", RULES_PROPERTY, "DT", "EV", "RE", "C", "PL", "AE"}  # (and the players')
_START_NAMES = {StartRule.ANY: "any", StartRule.OPPOSITE: "opposite", StartRule.EVERY_OTHER: "every_other"}


# -- the tree of nodes (SGF syntax: _sgf.py) ---------------------------------------------------

def parse_sgf(text: str) -> List[Node]:
    """The game trees of an SGF collection (roots), with positions for errors; a move given as a
    list of points (Pentobi <= 0.2) is joined into one value."""
    return _sgf.parse(text, joined=_MOVE_IDS)


def _node_moves(node: Node) -> List[str]:
    """The move properties (``1``..``4``) of a node."""
    return [k for k in node.properties if k in _MOVE_IDS]


def _changes_nothing(node: Node) -> bool:
    """A node of comments or marks alone: no move, setup, ``PL`` (or stray move) in it."""
    return not any(k in _MOVE_IDS or k in _SETUP_IDS or k in ("AE", "PL", "B", "W") or k.isdigit()
                   for k in node.properties)


def _move_lines(node: Node) -> Iterator[List[Node]]:
    """The children of a node that play a move or place pieces by setup, each with the nodes of
    comments alone on the way to it (looked through: they are part of the line), in tree order
    (main line first)."""
    stack = [[child] for child in reversed(node.children)]
    while stack:
        line = stack.pop()
        if _node_moves(line[-1]) or any(k in _SETUP_IDS for k in line[-1].properties):
            yield line
        elif _changes_nothing(line[-1]):
            stack.extend(line + [child] for child in reversed(line[-1].children))


# -- Trigon semantics --------------------------------------------------------------------------

def _canonical(kind: str, alternate: bool, start: StartRule, colours: Optional[Sequence[int]] = None,
               side: Optional[int] = None) -> Variant:
    """The Variant for these rules; ``pentobi_compatible`` only where it changes the start rule,
    so that equal rules give equal variants."""
    pentobi = kind in ("two_player", "three_player") and start == StartRule.ANY
    if kind == "solo":
        side = side or 9
        default = (0, 1, 2) if side == 8 else (0, 1, 2, 3)
        cols = None if colours is None or tuple(colours) == default else tuple(colours)
        v = Variant.solo(colours=cols, side=side, alternate_rule=alternate)
    else:
        v = Variant(kind, alternate_rule=alternate, pentobi_compatible=pentobi)
    if v.start_rule != start:
        raise RecordError(f"start rule {_START_NAMES[start]} is not possible in variant {kind}")
    return v


def game_name(variant: Variant) -> str:
    """The ``GM`` name Pentobi uses for the board and colours of a variant."""
    return variant.name


def variant_from_game_name(name: str) -> Variant:
    """Pentobi's rules for a Pentobi game name (free starts in the two- and three-player games)."""
    kind = _GAME_NAMES.get(name)
    if kind is None:
        raise RecordError(f"unknown game {name!r}; trigon_fast plays {', '.join(_GAME_NAMES)}")
    return _canonical(kind, False, StartRule.ANY)


def _rules_value(variant: Variant) -> Optional[str]:
    """The TFRULES value for a variant, or None when the GM name alone gives its rules."""
    if variant.kind in _GAME_NAMES.values() and not variant.alternate_rule and variant.start_rule == StartRule.ANY:
        return None
    parts = [f"variant={variant.kind}", f"alternate={int(variant.alternate_rule)}",
             f"start={_START_NAMES[variant.start_rule]}"]
    if variant.kind == "solo":
        parts.append("colours=" + ",".join(str(int(c) + 1) for c in variant.colours))
        parts.append(f"side={variant.side}")
    return " ".join(parts)


def _variant_from_root(root: Node) -> Variant:
    gm = root.get("GM")
    line, col = root.position("GM")
    if gm is None:
        raise RecordError("the root node has no GM[...] game property", root.line, root.column)
    gm = gm.strip()
    if gm not in _GAME_NAMES:
        raise RecordError(f"unknown game {gm!r}; trigon_fast reads {', '.join(_GAME_NAMES)}", line, col)
    ca = root.get("CA")
    if ca is not None and ca.strip().upper().replace("_", "-") not in ("UTF-8", "UTF8"):
        raise RecordError(f"character set {ca!r} is not supported: blksgf records are UTF-8", *root.position("CA"))
    rules = root.get(RULES_PROPERTY)
    if rules is None:
        return variant_from_game_name(gm)
    rline, rcol = root.position(RULES_PROPERTY)
    fields: Dict[str, str] = {}
    for part in rules.split():
        key, sep, value = part.partition("=")
        if not sep or key in fields:
            raise RecordError(f"{RULES_PROPERTY} entries are key=value, once each: {part!r}", rline, rcol)
        fields[key] = value
    unknown = set(fields) - {"variant", "alternate", "start", "colours", "side"}
    if unknown:
        raise RecordError(f"unknown {RULES_PROPERTY} key(s): {', '.join(sorted(unknown))}", rline, rcol)
    def bad(what: str) -> RecordError:
        return RecordError(f"bad {RULES_PROPERTY}[{rules}]: {what}", rline, rcol)

    # Keys left out take Pentobi's rules, as the GM name alone does.
    alternate = {"0": False, "1": True}.get(fields.get("alternate", "0"))
    if alternate is None:
        raise bad(f"alternate is 0 or 1, not {fields['alternate']!r}")
    start_names = {v: k for k, v in _START_NAMES.items()}
    if fields.get("start", "any") not in start_names:
        raise bad(f"start is one of {', '.join(start_names)}, not {fields['start']!r}")
    start = start_names[fields.get("start", "any")]
    colours = side = None
    kind = fields.get("variant", _GAME_NAMES[gm])
    chosen = sorted({"colours", "side"} & set(fields))
    if chosen and kind != "solo":  # (read as the rulebook's game, they would be dropped unseen)
        raise bad(f"{' and '.join(chosen)} can be chosen only with variant=solo, not {kind}")
    if "colours" in fields:
        numbers = fields["colours"].split(",")
        if not all(n in ("1", "2", "3", "4") for n in numbers):
            raise bad(f"colours are numbers 1..4 separated by commas, not {fields['colours']!r}")
        colours = tuple(sorted(int(n) - 1 for n in numbers))
    if "side" in fields:
        if fields["side"] not in ("8", "9"):
            raise bad(f"side is 9 or 8, not {fields['side']!r}")
        side = int(fields["side"])
    try:
        variant = _canonical(kind, alternate, start, colours, side)
    except (KeyError, ValueError) as e:
        raise bad(str(e)) from None
    if game_name(variant) != gm:
        raise RecordError(f"{RULES_PROPERTY}[{rules}] does not fit GM[{gm}] (expected GM[{game_name(variant)}])",
                          rline, rcol)
    return variant


def _colour_name(c: int) -> str:
    return Colour(c).name.lower()


class Record:
    """A parsed blksgf record: the tree (``root``), its ``variant``, and the main line replayed
    into a :class:`Game` by :meth:`game`."""

    def __init__(self, root: Node, variant: Optional[Variant] = None) -> None:
        self.root = root
        self.variant = _variant_from_root(root) if variant is None else variant

    def __repr__(self) -> str:
        line = self.main_line()
        moves = sum(1 for n in line for k in n.properties if k in _MOVE_IDS)
        result = f", result {self.result}" if self.result else ""
        return f"<Record {self.variant!r}, {_args.counted(moves, 'move')} on its main line{result}>"

    # -- header --------------------------------------------------------------------------------
    @property
    def info(self) -> Dict[str, str]:
        """Root properties other than rules, moves and setup (first value each)."""
        skip = {"GM", RULES_PROPERTY, "PL", "AE", *_MOVE_IDS, *_SETUP_IDS}
        return {k: v[0] for k, v in self.root.properties.items() if k not in skip and v}

    @property
    def players(self) -> Tuple[Optional[str], ...]:
        """Player names, one per player (or team) of the variant: ``PB``/``PW`` when there are
        two, else ``P1``..``P4``."""
        n = len(self.variant.players)
        ids = ("PB", "PW") if n == 2 else tuple(f"P{i + 1}" for i in range(n))
        return tuple(self.root.get(i) for i in ids)

    @property
    def result(self) -> Optional[str]:
        """The result property ``RE`` (e.g. ``"B+12"``), or None."""
        return self.root.get("RE")

    # -- tree ----------------------------------------------------------------------------------
    def main_line(self) -> List[Node]:
        """The nodes from the root down the first child of each: the game as it was played."""
        nodes, node = [self.root], self.root
        while node.children:
            node = node.children[0]
            nodes.append(node)
        return nodes

    def lines(self) -> Iterator[List[Node]]:
        """Every path from the root to a leaf, main line first (each can go to :meth:`game`)."""
        stack = [[self.root]]
        while stack:
            path = stack.pop()
            node = path[-1]
            if not node.children:
                yield path
            stack.extend(path + [child] for child in reversed(node.children))

    def variations(self) -> int:
        """Number of nodes that have more than one child (branch points)."""
        count, stack = 0, [self.root]
        while stack:
            node = stack.pop()
            count += len(node.children) > 1
            stack.extend(node.children)
        return count

    def comments(self) -> List[Tuple[int, str]]:
        """(node index on the main line, text) of each comment ``C``; 0 is the root."""
        return [(i, n.get("C", "")) for i, n in enumerate(self.main_line()) if "C" in n]

    def _move_comments(self) -> Dict[int, str]:
        """Comments by move number (0: the root) where node k of the main line is move k (its
        setup in the root and one move in every other node, as Pentobi and this package write
        records); else the root's alone."""
        plain = all(sum(k in _MOVE_IDS for k in n.properties) == 1 and
                    not any(k in _SETUP_IDS or k == "AE" for k in n.properties) for n in self.main_line()[1:])
        return {k: text for k, text in self.comments() if plain or k == 0}

    def game(self, move_number: Optional[int] = None, nodes: Optional[Sequence[Node]] = None) -> Game:
        """Replay the main line (or the given path of nodes from the root). With ``move_number``
        (1-based, as ``loadsgf``), stop before that move is played."""
        if move_number is not None:
            move_number = _args.integer("move number", move_number, 1, _args.MAX_COUNT)
        g = Game(self.variant)
        played = 0
        for node in (self.main_line() if nodes is None else nodes):
            if move_number is not None and _node_moves(node) and played + 1 >= move_number:
                break
            g, played = self._apply_node(g, node, played)
        return g

    def _apply_node(self, g: Game, node: Node, played: int) -> Tuple[Game, int]:
        """The game after one node (its setup, then its move or PL) and the moves played then;
        ``g`` itself changes unless the node lifts pieces off (then a new game is returned)."""
        moves = _node_moves(node)
        stray = [k for k in node.properties if k in ("B", "W") or (k.isdigit() and k not in _MOVE_IDS)]
        if stray:  # a move that would be dropped unseen: Pentobi's Trigon records use 1..4 only
            raise RecordError(f"{stray[0]}[...] is not a move of a Trigon record: moves are 1[...] to 4[...]"
                              + (" (B and W are for two-colour games such as Blokus Duo)" if stray[0] in "BW" else ""),
                              *node.position(stray[0]))
        g = self._apply_setup(g, node)
        if len(moves) > 1:
            raise RecordError(f"one node holds moves of several colours ({', '.join(moves)})",
                              *node.position(moves[1]))
        if moves:
            self._apply_move(g, node, moves[0], played + 1)
            played += 1
        elif "PL" in node and not any(k in node for k in (*_SETUP_IDS, "AE")):
            self._apply_player(g, node)
        return g, played

    def _with_game(self, game: Game) -> Optional["Record"]:
        """A copy of this record whose tree holds the game as one of its lines: from the root,
        the game's moves follow the nodes that play them (main line first; nodes of comments alone
        on the way are part of the line, and a variation that does not replay is not the game's),
        and those no node plays become new nodes there (a new variation, or the end of the line). None when the game is not one of the tree's
        positions plus moves (another variant, setup placements after moves, a turn set by hand)."""
        if game.variant != self.variant:
            return None
        root = _sgf.copy_tree(self.root)
        steps = game._history

        def replay(g: Game, node: Node, played: int) -> Tuple[Optional[Game], int]:
            try:
                return self._apply_node(g.copy(), node, played)
            except RecordError:
                return None, played  # a variation that does not replay: not the game's line

        g, played = replay(Game(self.variant), root, 0)
        if g is None:
            return None
        path = [root]
        while len(g._history) < len(steps) and g._history == steps[:len(g._history)]:
            # Nodes that play no move are not the game's (setup, PL), except those of comments
            # alone on the way to a move.
            for line in _move_lines(path[-1]):
                after, n = replay(g, line[-1], played)
                if after is not None and after._history == steps[:len(after._history)]:
                    g, played = after, n
                    path.extend(line)
                    break
            else:
                break
        if g._history == steps and g.turn != game.turn:
            # The turn the game has may be one a node without a move set (PL).
            for child in path[-1].children:
                if _node_moves(child):
                    continue
                after, _ = replay(g, child, played)
                if after is not None and after._history == steps and after.turn == game.turn:
                    g = after
                    path.append(child)
                    break
        if len(g._history) < len(steps):
            # Played on from a line that ends in nodes of comments alone: the moves go after them.
            while len(path[-1].children) == 1 and _changes_nothing(path[-1].children[0]):
                path.append(path[-1].children[0])
        if g._history != steps[:len(g._history)] or any(setup for _, _, setup in steps[len(g._history):]):
            return None
        for c, m, _ in steps[len(g._history):]:
            node = Node()
            node.set(str(int(c) + 1), str(m))
            path[-1].children.append(node)
            path.append(node)
            g.play(m, colour=None if g.turn == c else c)
        if g.turn != game.turn:
            return None
        return Record(root, self.variant)

    def _colour(self, node: Node, ident: str, c: int) -> int:
        if c not in self.variant.colours:
            raise RecordError(f"{ident}[...]: colour {c + 1} ({_colour_name(c)}) takes no part in "
                              f"{game_name(self.variant)}", *node.position(ident))
        return c

    def _move(self, node: Node, ident: str, index: int, text: str) -> Move:
        try:
            return Move.from_str(text, self.variant.side)
        except InvalidMoveError as e:
            raise RecordError(f"{ident}[{text}]: {e}", *node.position(ident, index)) from None

    def _apply_move(self, g: Game, node: Node, ident: str, number: int) -> None:
        c = self._colour(node, ident, _MOVE_IDS[ident])
        text = node.get(ident, "")
        m = self._move(node, ident, 0, text)
        try:
            # A move out of the turn order is played for its colour, as Pentobi does.
            g.play(m, colour=None if g.turn == c else c)
        except IllegalMoveError as e:
            raise RecordError(f"move {number} {ident}[{text}] is illegal: {e}", *node.position(ident)) from None

    def _apply_player(self, g: Game, node: Node) -> None:
        value = node.get("PL", "").strip().upper()
        c = {"B": 0, "W": 1, "1": 0, "2": 1, "3": 2, "4": 3}.get(value)
        if c is None or c not in self.variant.colours:
            raise RecordError(f"PL[{node.get('PL')}]: not a colour of {game_name(self.variant)}", *node.position("PL"))
        g.set_turn(c)

    def _apply_setup(self, g: Game, node: Node) -> Game:
        setup_ids = [k for k in node.properties if k in _SETUP_IDS]
        if not setup_ids and "AE" not in node:
            return g
        placed = [(int(c), m) for c, m in g.history]  # every piece on the board now
        added = []
        for ident in setup_ids:
            c = self._colour(node, ident, _SETUP_IDS[ident])
            for i, text in enumerate(node.values(ident)):
                added.append((c, self._move(node, ident, i, text), ident, i))
        removed = False
        for i, text in enumerate(node.values("AE")):
            m = self._move(node, "AE", i, text)
            for pool in (added, placed):
                hit = next((k for k, item in enumerate(pool) if item[1] == m), None)
                if hit is not None:
                    del pool[hit]
                    removed |= pool is placed
                    break
            else:
                raise RecordError(f"AE[{text}]: no piece on these cells to remove", *node.position("AE", i))
        turn = g.turn if g.turn is not None else g.position.to_move
        if removed:
            # The core cannot lift a piece: rebuild the position as a setup of what is left.
            g = Game(self.variant)
            for c, m in placed:
                g.setup(c, m)
        for c, m, ident, i in added:
            try:
                g.setup(c, m)
            except IllegalMoveError as e:
                raise RecordError(f"{ident}[{m}]: {e}", *node.position(ident, i)) from None
        if "PL" in node:
            self._apply_player(g, node)
        else:
            g.set_turn(int(turn))
        return g

    # -- writing -------------------------------------------------------------------------------
    def to_blksgf(self) -> str:
        """The whole tree as text, variations included."""
        return _sgf.write(self.root)

    @classmethod
    def from_game(cls, game: Game, *, players: Optional[Sequence[Optional[str]]] = None,
                  result: Optional[str] = None, date: Optional[str] = None, event: Optional[str] = None,
                  comments: Optional[Mapping[int, str]] = None,
                  properties: Optional[Mapping[str, str]] = None) -> "Record":
        """A record of the game's placements (setup placements grouped into setup nodes).

        ``players``: names, one per player (or team); ``result``: ``RE`` (default: written for a
        finished game of two sides as ``B+n``/``W+n``/``0``); ``date``: ``DT``; ``event``:
        ``EV``; ``comments``: node index on the main line (0 = root) -> text; ``properties``:
        more root properties (identifiers of an upper-case letter followed by upper-case letters and
        digits, none of those the record writes itself). The game is locked meanwhile, so that another thread cannot
        change it half-way through."""
        with _lock_of(game):
            return cls._from_game(game, players=players, result=result, date=date, event=event,
                                  comments=comments, properties=properties)

    @classmethod
    def _from_game(cls, game: Game, *, players: Optional[Sequence[Optional[str]]], result: Optional[str],
                   date: Optional[str], event: Optional[str], comments: Optional[Mapping[int, str]],
                   properties: Optional[Mapping[str, str]]) -> "Record":
        extra = dict(properties or {})
        for ident in extra:
            # The game's own first: a move's "1" is refused as that, not as a bad identifier.
            if isinstance(ident, str) and (ident in _WRITTEN_IDS or ident in _MOVE_IDS or ident in _SETUP_IDS
                                           or re.fullmatch(r"P[BW1-4]", ident)):
                raise RecordError(f"property {ident} is written from the game and its header arguments")
            if not isinstance(ident, str) or not re.fullmatch(r"[A-Z][A-Z0-9]*", ident):
                raise RecordError("property identifiers are an upper-case letter followed by upper-case letters"
                                  f" and digits, not {ident!r}")
        variant = game.variant
        root = Node()
        root.set("GM", game_name(variant))
        root.set("FF", "4")
        root.set("CA", "UTF-8")
        from . import __version__

        root.set("AP", f"trigon_fast:{__version__}")
        rules = _rules_value(variant)
        if rules is not None:
            root.set(RULES_PROPERTY, rules)
        if players is not None:
            n = len(variant.players)
            if len(players) != n:
                raise TrigonError(f"{n} player name(s) expected for {variant!r}, not {len(players)}")
            ids = ("PB", "PW") if n == 2 else tuple(f"P{i + 1}" for i in range(n))
            for ident, name in zip(ids, players):
                if name:
                    root.set(ident, " ".join(str(name).split()))
        if date is not None:
            root.set("DT", date)
        if event is not None:
            root.set("EV", event)
        if result is None and game.is_over and len(variant.players) == 2:
            a, b = game.player_scores()
            result = f"B+{a - b}" if a > b else f"W+{b - a}" if b > a else "0"
        if result is not None:
            root.set("RE", result)
        for k, v in extra.items():
            root.set(k, v)

        nodes = [root]
        steps = game._history  # (colour, move, is_setup) -- records need to know setups
        after = [game._position_before(i) for i in range(1, len(game._stack))] + [game.position]  # after each step
        sim = Game(variant)  # replays the record as a reader will, to know its turn
        root_setup = False  # the root holds a group of setups already
        i = 0
        while i < len(steps):
            c, m, is_setup = steps[i]
            if is_setup:
                # Consecutive setups go into one node (the root when nothing was played yet), in
                # the order made, as a reader applies them; a colour met again after another
                # starts a node of its own, so undo and history read back the same.
                node = root if len(nodes) == 1 and not root_setup else Node()
                root_setup = True
                by_colour: Dict[int, List[str]] = {}
                while i < len(steps) and steps[i][2]:
                    col = int(steps[i][0])
                    if col in by_colour and col != list(by_colour)[-1]:
                        break
                    by_colour.setdefault(col, []).append(str(steps[i][1]))
                    sim.setup(steps[i][0], steps[i][1])
                    i += 1
                for col, moves in by_colour.items():
                    node.set(f"A{col + 1}", *moves)
                turn = after[i - 1].to_move
                node.set("PL", str(turn + 1))
                sim.set_turn(turn)
                if node is not root:
                    nodes.append(node)
                continue
            node = Node()
            node.set(str(int(c) + 1), str(m))
            nodes.append(node)
            sim.play(m, colour=None if sim.turn == c else c)
            i += 1
        if not game.is_over and sim.turn != game.turn:
            # set_turn after the last placement: say it with PL (in a node without a move).
            node = root if len(nodes) == 1 else Node()
            node.set("PL", str(int(game._turn_now()) + 1))
            if node is not root:
                nodes.append(node)
        for index, comment in (comments or {}).items():
            if not 0 <= index < len(nodes):
                raise TrigonError(f"comment for node {index}, but the record has nodes 0..{len(nodes) - 1}")
            nodes[index].set("C", comment)
        for parent, child in zip(nodes, nodes[1:]):
            parent.children.append(child)
        return cls(root, variant)


def _looks_like_path(text: str) -> bool:
    # Record text starts with '(' and has brackets; a file name rarely has either, and one that
    # has them ("game[1].blksgf", "(copy).blksgf") is read when the file is there.
    stripped = text.strip()
    if "\n" in stripped or not stripped:
        return False
    return (not stripped.startswith("(") and "[" not in stripped) or os.path.isfile(text)


def _read_text(source: Union[str, bytes, "os.PathLike[str]"]) -> str:
    if isinstance(source, bytes):
        try:
            return source.decode("utf-8")
        except UnicodeDecodeError as e:
            raise RecordError(f"not UTF-8 text ({e.reason} at byte {e.start}): blksgf records are UTF-8, "
                              "whatever their CA[...] says") from None
    if isinstance(source, os.PathLike) or (isinstance(source, str) and _looks_like_path(source)):
        path = os.fspath(source)
        if not os.path.exists(path):
            if isinstance(source, str):
                raise RecordError(f"not a record (it does not start with '(') and no file {path!r} exists")
            raise RecordError(f"no file {path!r} exists")
        if os.path.isdir(path):
            raise RecordError(f"{path!r} is a directory, not a record file")
        try:
            with open(path, encoding="utf-8") as f:
                return f.read()
        except UnicodeDecodeError as e:
            raise RecordError(f"{path}: not UTF-8 text ({e.reason} at byte {e.start}): blksgf records are "
                              "UTF-8, whatever their CA[...] says") from None
    if not isinstance(source, str):
        raise TypeError(f"a record is text or a path, not {type(source).__name__}")
    return source


def read_blksgf(source: Union[str, bytes, "os.PathLike[str]"]) -> Record:
    """Parse a record given as text, bytes, or a file path (a ``str`` is taken as text when it
    starts with ``(`` or holds ``[`` or a newline, unless it is one line naming an existing file;
    pass a ``pathlib.Path`` to be explicit). The
    first game tree of a collection is used; every move of its main line is checked."""
    text = _read_text(source)
    roots = parse_sgf(text)
    record = Record(roots[0])
    record.game()  # validate every move of the main line now, with positions in errors
    return record


def load_game(source: Union[str, bytes, "os.PathLike[str]"], move_number: Optional[int] = None) -> Game:
    """The game of a record's main line (text, bytes or path, as :func:`read_blksgf` takes it), or
    the position before move ``move_number``: what :meth:`Game.from_blksgf` returns."""
    return Record(parse_sgf(_read_text(source))[0]).game(move_number)


def write_blksgf(game: Game, path: Optional[Union[str, "os.PathLike[str]"]] = None, **header: Any) -> str:
    """The record of a game as text; also written to ``path`` when given. ``header``: see
    :meth:`Record.from_game`."""
    text = Record.from_game(game, **header).to_blksgf()
    if path is not None:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    return text
