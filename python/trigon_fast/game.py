"""The game: a position under a variant's rules, with history, undo and legal moves."""

from __future__ import annotations

import functools
import operator
import os
import threading
from typing import (Any, Callable, Dict, Iterable, Iterator, List, Mapping, Optional, Sequence, Tuple, TypeVar, Union,
                    cast)

import numpy as np

from . import _args, _core, symmetry
from ._args import IntLike
from .errors import ColourError, GameOverError, IllegalMoveError, InvalidMoveError, NothingToUndoError
from .move import PIECE_NAMES, Move, board
from .variants import Colour, ColourLike, Variant, VariantLike, as_variant

__all__ = ["Game", "LegalMoves", "MoveLike"]

# A move as Game.play and friends take it: a Move, its text (``"q15,r15,p16,q16,o17,p17"``) or a
# placement id (numpy's integers too: an action of the learning environment).
MoveLike = Union[Move, str, IntLike]
# What Game._steps records of each placement: colour, placement id, whether it was a setup, and
# the colour to move before it.
_Step = Tuple[int, int, bool, int]
_F = TypeVar("_F", bound=Callable[..., Any])
_COLOUR_CHARS = "BYRG"
_COLOURS = tuple(Colour)  # (index -> Colour without an enum call: bulk replays)
# A played move's history entry (colour, move, False) and its (colour, move) pair, by
# side << 18 | colour << 16 | placement id: immutable, so games replayed in bulk share them (the
# garbage collector walked 176 tuples a solved game; with thousands of solutions made during a
# search, its pauses overran the search's time limit by up to 90 ms).
_SHARED_STEPS: Dict[int, Tuple[Tuple[Colour, Move, bool], Tuple[Colour, Move]]] = {}


def _shared_step(side: int, c: int, pid: int) -> Tuple[Tuple[Colour, Move, bool], Tuple[Colour, Move]]:
    key = side << 18 | c << 16 | pid
    entry = _SHARED_STEPS.get(key)
    if entry is None:
        m = Move._trusted(pid, side)
        entry = _SHARED_STEPS[key] = ((_COLOURS[c], m, False), (_COLOURS[c], m))
    return entry


def _lock_of(game: "Game") -> threading.RLock:
    # Its callers take a game from the user (records, batch): another type is a TypeError, as
    # everywhere in the API, not an AttributeError from here.
    if not isinstance(game, Game):
        raise TypeError(f"game must be a Game, not {type(game).__name__}")
    # Created on first use (setdefault is atomic), so games made with __new__ get one too.
    lock = game.__dict__.get("_lock")
    return lock if lock is not None else game.__dict__.setdefault("_lock", threading.RLock())


def _exclusive(method: _F) -> _F:
    """Runs a method under the game's lock: position, undo stack and history change together,
    so a Game shared by threads stays consistent (found by tests/test_limits.py)."""

    @functools.wraps(method)
    def locked(self: "Game", *args: Any, **kwargs: Any) -> Any:
        with _lock_of(self):
            return method(self, *args, **kwargs)

    return cast(_F, locked)


class LegalMoves:
    """Lazy view of the legal moves of the colour to move (or of one colour).

    Supports ``len``, iteration, ``in`` and ``ids`` / ``mask`` as numpy arrays; generated once per
    position on first use. It follows the game: after a move it lists the new position's moves
    (take ``ids`` once for a snapshot, e.g. while another thread plays on the game).
    """

    def __init__(self, game: "Game", colour: Optional[int] = None) -> None:
        self._game = game
        self._colour = colour
        self._ids: Optional[np.ndarray] = None
        self._version = -1

    def _colour_now(self) -> Optional[int]:
        return self._game.turn if self._colour is None else self._colour

    @property
    def ids(self) -> np.ndarray:
        """Placement ids of the legal moves (numpy ``uint16``, read-only: ``.copy()`` to change
        it), in generation order."""
        g = self._game
        with _lock_of(g):
            if self._ids is None or self._version != g._version:
                c = self._colour_now()
                if c is None or g.is_over:
                    self._ids = np.zeros(0, dtype=np.uint16)
                else:
                    self._ids = g._pos.generate(int(c))
                self._ids = _args.frozen(self._ids)  # the view's own cache: a change would corrupt `in`
                self._version = g._version
            return self._ids

    @property
    def mask(self) -> np.ndarray:
        """Boolean mask over all placements of the board, true where legal."""
        m = np.zeros(self._game.board.num_placements, dtype=bool)
        m[self.ids] = True
        return m

    def __len__(self) -> int:
        return int(self.ids.size)

    def __bool__(self) -> bool:
        return len(self) > 0

    def __iter__(self) -> Iterator[Move]:
        side = self._game.variant.side
        return iter([Move._trusted(i, side) for i in self.ids.tolist()])

    def __contains__(self, move: object) -> bool:
        try:
            m = self._game._to_move(move)  # type: ignore[arg-type]
        except (InvalidMoveError, TypeError):
            return False
        return bool(np.any(self.ids == m.id))

    def __repr__(self) -> str:
        c = self._colour_now()
        return f"<LegalMoves ({len(self)}) of {'no colour' if c is None else Colour(c).name.lower()}>"


class Game:
    """A game of Blokus Trigon: of ``variant`` (a :class:`Variant`, or a kind's name such as
    ``"two_player"`` for the rulebook's game), with ``moves`` played from the empty board.

    >>> g = Game()
    >>> len(g.legal_moves)
    2478
    >>> g.play("q15,r15,p16,q16,o17,p17")
    >>> g.turn
    Colour.YELLOW
    >>> g.undo()
    Move.from_str('q15,r15,p16,q16,o17,p17')
    """

    def __init__(self, variant: VariantLike = Variant.FOUR_PLAYER, moves: Iterable[MoveLike] = ()) -> None:
        variant = as_variant(variant)
        if isinstance(moves, (str, Move)):
            raise TypeError(f"moves must be a list of moves, not one {type(moves).__name__} (Game(variant, [move]))")
        self.variant = variant
        self._pos = _core.Position(variant.side, variant.colour_mask, variant.alternate_rule, int(variant.start_rule))
        self._stack: List[Optional[_core.Position]] = []  # position before each step (None: made when asked)
        self._history: List[Tuple[Colour, Move, bool]] = []  # (colour, move, is_setup)
        self._version = 0
        for m in moves:
            self.play(m)

    # -- state ---------------------------------------------------------------------------------
    @property
    def board(self) -> "_core.Board":
        """The board of the game's variant: cell names and indices, placements (shared, read-only)."""
        return board(self.variant.side)

    @property
    def position(self) -> "_core.Position":
        """The live C++ position (copy it before changing it)."""
        return self._pos

    @property
    def turn(self) -> Optional[Colour]:
        """Colour to move, or ``None`` when the game is over."""
        return None if self._pos.is_over else Colour(self._pos.to_move)

    def _turn_now(self) -> Colour:
        """``turn`` where the caller knows the game goes on (a typed ``Colour``, never ``None``)."""
        if self._pos.is_over:
            raise GameOverError("the game is over: no colour is to move")
        return Colour(self._pos.to_move)

    @property
    def is_over(self) -> bool:
        """True when no colour in play can place a piece any more."""
        return bool(self._pos.is_over)

    def _move_indices(self) -> List[int]:
        """Indices in ``history`` of the moves: a record's setup placements (``A1``..``A4``) are
        not moves, so move numbers, the command line's ``--move N`` and GTP's records skip them."""
        return [i for i, (_, _, setup) in enumerate(self._history) if not setup]

    @property
    def history(self) -> List[Tuple[Colour, Move]]:
        """(colour, move) of every piece placed, in order (setup placements included: see
        :attr:`setup_indices`)."""
        return [(c, m) for c, m, _ in self._history]

    @property
    def setup_indices(self) -> List[int]:
        """Indices in ``history`` of the setup placements (:meth:`setup`, a record's ``A1``..``A4``):
        not moves, so replaying ``history`` places these with ``setup`` and the rest with ``play``.

        >>> g = Game(Variant.FOUR_PLAYER)
        >>> g.setup("yellow", "r15"); g.play("r4")   # a yellow triangle set up, then blue's move
        >>> g.setup_indices, [(c.name, str(m)) for c, m in g.history]
        ([0], [('YELLOW', 'r15'), ('BLUE', 'r4')])
        """
        return [i for i, (_, _, setup) in enumerate(self._history) if setup]

    @property
    def moves(self) -> List[Move]:
        """The placements made so far (setup placements included), oldest first."""
        return [m for _, m, _ in self._history]

    @property
    def legal_moves(self) -> LegalMoves:
        """A lazy view of the legal moves of the colour to move: ``len``, ``in``, iteration and ``ids``
        (computed when first asked, and again after the position changes)."""
        return LegalMoves(self)

    def legal_moves_of(self, colour: ColourLike) -> LegalMoves:
        """Legal moves of any colour (as if it were its turn; none for a colour that takes no
        part)."""
        return LegalMoves(self, self._colour(colour))

    def is_out(self, colour: ColourLike) -> bool:
        """True when the colour cannot move any more (or takes no part)."""
        return bool(self._pos.is_out(self._colour(colour)))

    def pieces_left(self, colour: ColourLike) -> List[str]:
        """Names of the pieces a colour of the game has not placed, in Pentobi's order."""
        mask = self._pos.pieces_left(self._colour(colour, in_play=True))
        return [n for i, n in enumerate(PIECE_NAMES) if mask >> i & 1]

    def occupancy(self) -> np.ndarray:
        """Colour index per cell (-1 empty), as ``int8``, cells indexed as the board's."""
        return self._pos.occupancy()

    def occupancy_planes(self) -> np.ndarray:
        """(4, cells) booleans: one plane per colour."""
        occ = self._pos.occupancy()
        return np.stack([occ == c for c in range(4)])

    def legal_mask(self, colour: Optional[ColourLike] = None) -> np.ndarray:
        """Booleans over every placement id of the board: legal now for ``colour`` (default: the colour
        to move; all False when no colour is to move)."""
        c = self.turn if colour is None else self._colour(colour)
        if c is None:
            return np.zeros(self.board.num_placements, dtype=bool)
        return self._pos.legal_mask(int(c))

    def observe(self, colour: Optional[ColourLike] = None) -> Dict[str, np.ndarray]:
        """The learning environment's observation of this position for ``colour`` (default: the
        colour to move), as ``TrigonEnv.observe`` and ``play_games(observations=True)`` give it
        (docs/rl.md): ``observation`` ``(6, cells)``, ``pieces_left`` ``(4, 22)`` (``int8``,
        colours relative to ``colour``) and ``action_mask`` ``(num_placements,)``. A way to
        encode any game, a record's included, for a network."""
        if colour is None:
            if self.turn is None:
                raise GameOverError("the game is over: no colour is to move (name the colour to observe)")
            colour = self.turn
        c = self._colour(colour, in_play=True)
        with _lock_of(self):
            planes, pieces = _core.observation_planes(self._pos, c)
            mask = self._pos.legal_mask(c)  # (none for any colour once the game is over)
        return {"observation": planes, "pieces_left": pieces, "action_mask": mask.astype(np.int8)}

    # -- scoring -------------------------------------------------------------------------------
    def score(self, colour: ColourLike) -> int:
        """Rulebook score of a colour: minus unplaced triangles; +15 if all placed, +20 if the
        single triangle was last."""
        return int(self._pos.score(self._colour(colour, in_play=True)))

    def scores(self) -> Dict[Colour, int]:
        """Rulebook score of every colour in play (see :meth:`score`)."""
        return {c: self.score(c) for c in self.variant.colours}

    def player_scores(self) -> Tuple[int, ...]:
        """Score of each player (or team): the sum of its colours."""
        return tuple(sum(self.score(c) for c in cs) for cs in self.variant.players)

    def winners(self) -> Tuple[int, ...]:
        """Indices into ``variant.players`` of the player(s) with the best score (final or not)."""
        ps = self.player_scores()
        best = max(ps)
        return tuple(i for i, s in enumerate(ps) if s == best)

    @property
    def result(self) -> Optional[Tuple[int, ...]]:
        """Winning player indices once the game is over, else ``None``."""
        return self.winners() if self.is_over else None

    # -- moves ---------------------------------------------------------------------------------
    def _colour(self, colour: ColourLike, in_play: bool = False) -> int:
        """0..3 from a Colour, an index or a colour name (with ``in_play``: one of the game's)."""
        try:
            c = int(Colour.parse(colour))
        except ValueError as e:
            raise ColourError(str(e)) from None
        if in_play and c not in self.variant.colours:
            raise ColourError(f"{Colour(c)} takes no part in {self.variant!r}")
        return c

    def _to_move(self, move: MoveLike) -> Move:
        side = self.variant.side
        if isinstance(move, Move):
            if move.side != side:
                raise InvalidMoveError(f"move {move} is for the side-{move.side} board, this game uses side {side}")
            return move
        if isinstance(move, str):
            return Move.from_str(move, side)
        if not isinstance(move, (bool, np.bool_)):
            try:  # an integer: Python's, numpy's, or anything else that is one (a 0-d array, a tensor)
                return Move(operator.index(move), side)
            except TypeError:
                pass
        raise InvalidMoveError(f"cannot read a move from {type(move).__name__}")

    def check(self, move: MoveLike, colour: Optional[ColourLike] = None) -> Optional[str]:
        """``None`` when the move is legal (for ``colour``, default the colour to move), else why not."""
        m = self._to_move(move)
        if self.is_over:
            return "the game is over"
        c = self._pos.to_move if colour is None else self._colour(colour, in_play=True)
        code = self._pos.check(c, m.id)
        return None if code == 0 else _core.illegal_reason(code)

    @_exclusive
    def play(self, move: MoveLike, colour: Optional[ColourLike] = None) -> None:
        """Play a move for the colour to move. With ``colour``, play it for that colour even out
        of turn (as Pentobi's ``play`` command allows); the turn then passes on from it."""
        m = self._to_move(move)
        if self.is_over:
            raise GameOverError(f"the game is over; cannot play {m}")
        c = self._pos.to_move if colour is None else self._colour(colour, in_play=True)
        code = self._pos.check(c, m.id)
        if code != 0:
            raise IllegalMoveError(f"illegal move {m} for {Colour(c).name.lower()}: {_core.illegal_reason(code)}")
        self._stack.append(self._pos.copy())
        if c == self._pos.to_move:
            self._pos.play(m.id)
        else:
            self._pos.place(c, m.id)
            self._pos.set_to_move((c + 1) % 4)
        self._history.append((Colour(c), m, False))
        self._version += 1

    push = play

    @_exclusive
    def _play_ids(self, moves: Iterable[Tuple[int, int]]) -> List[Tuple[Colour, Move]]:
        """Play (colour, placement id) pairs in turn order, each checked by the core, in one core
        call under one lock: the bulk path of solver results (Game.play per move cost about 1 ms
        a game). The moves before an out-of-turn or illegal one stay played; IllegalMoveError
        says why that one is not. Returns the (colour, move) pairs played."""
        pairs = [(int(c), int(pid)) for c, pid in moves]
        side = self.variant.side
        before = self._pos.copy()
        played, why = self._pos.play_sequence(pairs)
        steps: List[Tuple[Tuple[Colour, Move, bool], Tuple[Colour, Move]]] = []
        if played:
            # The undo stack keeps the first position; the others are made again when asked for
            # (_position_before): a solver's thousands of games each held 88 copies.
            self._stack.append(before)
            self._stack.extend([None] * (played - 1))
            get, side_key = _SHARED_STEPS.get, side << 18
            steps = [get(side_key | c << 16 | pid) or _shared_step(side, c, pid) for c, pid in pairs[:played]]
            self._history.extend([step for step, _ in steps])
            self._version += played
        if why:
            c, pid = pairs[played]
            if why < 0:
                name = _COLOURS[c].name.lower() if 0 <= c < len(_COLOURS) else f"colour {c}"
                raise IllegalMoveError(f"{name} is not to move")
            raise IllegalMoveError(f"illegal move {Move(pid, side)}: {_core.illegal_reason(why)}")
        return [pair for _, pair in steps]

    @_exclusive
    def setup(self, colour: ColourLike, move: MoveLike, to_move: Optional[ColourLike] = None) -> None:
        """Place a piece without the contact rules, as a record's setup property (``A1``..``A4``)
        does; overlaps and reused pieces are still refused. Undo removes it."""
        c = self._colour(colour, in_play=True)
        m = self._to_move(move)
        probe = self._pos.copy()
        try:
            probe.place(c, m.id)
        except ValueError as e:
            raise IllegalMoveError(f"setup {m} for {Colour(c).name.lower()}: {e}") from None
        probe.set_to_move(self._pos.to_move if to_move is None else self._colour(to_move, in_play=True))
        self._stack.append(self._pos)
        self._pos = probe
        self._history.append((Colour(c), m, True))
        self._version += 1

    @_exclusive
    def set_turn(self, colour: ColourLike) -> None:
        """Make ``colour`` (or the next one after it that can move) the colour to move; a
        colour that takes no part is a ``ColourError``."""
        c = self._colour(colour, in_play=True)
        self._pos.set_to_move(c)
        self._version += 1

    def _position_before(self, i: int) -> _core.Position:
        """The position before step ``i`` of the history (its undo-stack entry), made again from
        the nearest one kept where a bulk replay (_play_ids: plain moves only) left it out."""
        stack = self._stack
        if stack[i] is None:
            k = i
            while stack[k] is None:
                k -= 1
            pos = cast(_core.Position, stack[k]).copy()
            for j in range(k, i):
                pos.play(self._history[j][1].id)
            stack[i] = pos
        return cast(_core.Position, stack[i])

    @_exclusive
    def undo(self) -> Move:
        """Take back the last move (or setup placement) and return it."""
        if not self._stack:
            raise NothingToUndoError("no move to undo")
        self._position_before(len(self._stack) - 1)
        self._pos = cast(_core.Position, self._stack.pop())
        _, m, _ = self._history.pop()
        self._version += 1
        return m

    pop = undo

    @_exclusive
    def copy(self) -> "Game":
        """An independent copy: its moves, undo stack and turn (a new game to change freely)."""
        g = Game.__new__(Game)
        g.variant = self.variant
        g._pos = self._pos.copy()
        g._stack = [p if p is None else p.copy() for p in self._stack]
        g._history = list(self._history)
        g._version = 0
        return g

    __copy__ = copy

    def __deepcopy__(self, memo: dict) -> "Game":
        return self.copy()

    def __eq__(self, other: object) -> bool:
        # Positions, not histories (as python-chess compares boards): two move orders that reach
        # the same pieces, turn and last pieces played are equal. A Game is mutable: unhashable.
        if not isinstance(other, Game):
            return NotImplemented
        return self.variant == other.variant and self._pos == other._pos

    __hash__ = None  # type: ignore[assignment]

    @_exclusive
    def _steps(self) -> Tuple[Tuple[_Step, ...], int]:
        # What was done to this game, enough to do it again: per placement its colour, id,
        # whether it was a setup, and the colour to move before it (set_turn may have changed
        # that); then the colour to move now.
        # (a step whose position was left out is a bulk-played move: its colour was to move)
        steps = tuple((int(c), m.id, setup, int(c) if p is None else int(p.to_move))
                      for p, (c, m, setup) in zip(self._stack, self._history))
        return steps, int(self._pos.to_move)

    def __reduce__(self) -> Tuple[Callable[[Variant, Sequence[_Step], int], "Game"],
                                  Tuple[Variant, Tuple[_Step, ...], int]]:
        # A game pickles as its variant and its steps; loading replays them.
        steps, to_move = self._steps()
        return (_game_from_steps, (self.variant, steps, to_move))

    def transform(self, k: int) -> "Game":
        """A new game: this one with every placement (setups included) under board symmetry
        ``k`` (0..11, see :mod:`trigon_fast.symmetry`), the same colours and turn. Every rule is
        symmetric, so it is as legal as this one (each placement is checked again)."""
        perm = symmetry.placement_permutation(k, self.variant.side)
        steps, to_move = self._steps()
        return _game_from_steps(self.variant, tuple((c, int(perm[i]), s, b) for c, i, s, b in steps), to_move)

    # -- text ----------------------------------------------------------------------------------
    @_exclusive
    def diagram(self, labels: bool = True) -> str:
        """The board as text: ``B Y R G`` pieces (lower case for the last move), ``+`` start
        cells where a colour still to place its first piece may start, ``.`` empty cells; rows
        numbered from the bottom as in move notation, columns ``a`` to ``z`` then ``aa``...
        (their first letter on a line of its own above the second)."""
        b = self.board
        occ = self._pos.occupancy()
        last = set(self._history[-1][1].cell_indices) if self._history else set()
        starts = {s for c in self.variant.colours if not self._pos.started(int(c)) and not self._pos.is_out(int(c))
                  for s in self._pos.start_cells(int(c))}
        lines = []
        for y in range(b.height):
            row = []
            for x in range(b.width):
                c = b.cell_at(x, y)
                if c < 0:
                    row.append(" ")
                elif occ[c] >= 0:
                    ch = _COLOUR_CHARS[occ[c]]
                    row.append(ch.lower() if c in last else ch)
                elif c in starts:
                    row.append("+")
                else:
                    row.append(".")
            text = "".join(row).rstrip()
            lines.append(f"{b.height - y:2d} {text}" if labels else text)
        if labels:
            names = [_column_name(x) for x in range(b.width)]
            if any(len(n) > 1 for n in names):  # aa, ab, ...: read downwards
                lines.append(("   " + "".join(n[0] if len(n) > 1 else " " for n in names)).rstrip())
            lines.append("   " + "".join(n[-1] for n in names))
        return "\n".join(lines)

    @_exclusive
    def __str__(self) -> str:
        parts = [self.diagram()]
        for c in self.variant.colours:
            left = self.pieces_left(c)
            parts.append(f"{c.name.lower():6s} score {self.score(c):4d}  left: {' '.join(left) or '-'}")
        parts.append("game over" if self.is_over else f"to move: {self._turn_now().name.lower()}")
        return "\n".join(parts)

    @_exclusive
    def __repr__(self) -> str:
        if not any(setup for *_, setup in self._history):
            turns = self._replay_turns()
            if len(turns) > len(self._history) and all(c == turns[i] for i, (c, _, _) in enumerate(self._history)) \
                    and turns[-1] == self.turn:
                return f"Game({self.variant!r}, moves={[str(m) for _, m, _ in self._history]!r})"
        # Setup placements, moves out of turn or a turn set by hand: the record says them all.
        return f"Game.from_blksgf({self.to_blksgf()!r})"

    def _replay_turns(self) -> List[Optional[Colour]]:
        """Whose turn each move was in a replay in turn order (up to the first out of turn),
        then, when every move was in turn, whose turn it is after them."""
        g = Game(self.variant)
        turns: List[Optional[Colour]] = []
        for c, m, _ in self._history:
            turns.append(g.turn)
            if g.turn != c:
                return turns
            g.play(m)
        turns.append(g.turn)
        return turns

    @classmethod
    def from_blksgf(cls, source: Union[str, bytes, "os.PathLike[str]"], move_number: Optional[int] = None) -> "Game":
        """The game of a blksgf record (text, bytes or path): the main line, or the position before
        move ``move_number`` (1-based, as GTP's ``loadsgf``; a number past the last move gives the
        end). Setup placements are not moves. (The ``trigon`` command's ``--move N`` counts the
        other way: the position after N moves, ``from_blksgf(source, N + 1)``.)"""
        from . import records  # (the record format builds on this module, not the other way)

        return records.load_game(source, move_number)

    def to_blksgf(self, path: Optional[Union[str, "os.PathLike[str]"]] = None, *,
                  players: Optional[Sequence[Optional[str]]] = None, result: Optional[str] = None,
                  date: Optional[str] = None, event: Optional[str] = None,
                  comments: Optional[Mapping[int, str]] = None,
                  properties: Optional[Mapping[str, str]] = None) -> str:
        """This game as a blksgf record (text; also written to ``path`` when given). The header
        arguments are :meth:`Record.from_game`'s."""
        from . import records

        return records.write_blksgf(self, path, players=players, result=result, date=date, event=event,
                                    comments=comments, properties=properties)

    def _repr_svg_(self) -> str:  # pragma: no cover - filled in by the renderer when present
        from . import render

        return render.game_svg(self)


def _column_name(x: int) -> str:
    return (chr(ord("a") + x // 26 - 1) if x >= 26 else "") + chr(ord("a") + x % 26)


def _game_from_steps(variant: Variant, steps: Sequence[_Step], to_move: int) -> Game:
    """Replays ``Game._steps`` (unpickling, ``Game.transform``); every placement is checked again,
    so a tampered pickle raises the usual errors rather than making a corrupt game."""
    g = Game(variant)
    for i, (c, move_id, setup, before) in enumerate(steps):
        if g._pos.to_move != before:
            g.set_turn(before)
        if setup:
            after = steps[i + 1][3] if i + 1 < len(steps) else to_move
            g.setup(c, move_id, to_move=after)
        else:
            g.play(move_id, colour=c)
    if g._pos.to_move != to_move:
        g.set_turn(to_move)
    return g
