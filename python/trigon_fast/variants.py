"""Game variants: who plays which colours, on which board, under which start and contact rules."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import ClassVar, Iterable, Optional, Tuple, Type, Union, cast

from . import _args
from .errors import TrigonError

__all__ = ["Colour", "ColourLike", "Colours", "StartRule", "Variant"]


class Colour(enum.IntEnum):
    """The four colours, in turn order."""

    BLUE = 0
    YELLOW = 1
    RED = 2
    GREEN = 3

    def __repr__(self) -> str:
        return f"Colour.{self.name}"

    def __str__(self) -> str:
        return self.name.lower()  # print(game.turn): "yellow" (an IntEnum prints "1" from Python 3.11)

    def __format__(self, spec: str) -> str:
        if spec and spec[-1] in "bcdnoxX":  # a number format: the index
            return int.__format__(int(self), spec)
        return format(str(self), spec)

    @classmethod
    def parse(cls, value: ColourLike) -> "Colour":
        """A colour from a ``Colour``, an index 0..3 or a name (``"red"``, any case).

        Anything else is a ``TrigonError`` (a ``ValueError``) naming the value.

        >>> Colour.parse("Red"), Colour.parse(3)
        (Colour.RED, Colour.GREEN)
        """
        if isinstance(value, str):
            try:
                return cls[value.strip().upper()]
            except KeyError:
                raise TrigonError(f"unknown colour {value!r}; use blue, yellow, red, green or 0..3") from None
        return cls(_args.integer("a colour (a Colour, a name or an index)", value, 0, 3))

    @property
    def gtp(self) -> str:
        """Pentobi's name for the colour in commands and records: 1..4."""
        return str(self.value + 1)


# A colour as every function of the API takes it: a ``Colour``, an index 0..3 (numpy's too) or a
# name (``"red"``, any case); ``Colour.parse`` reads it.
ColourLike = Union[Colour, str, _args.IntLike]
# One colour or several (``colours=`` of the solvers and of ``Variant.solo``).
Colours = Union[ColourLike, Iterable[ColourLike]]


class StartRule(enum.IntEnum):
    """How the first piece of each colour is placed (values match the C++ core)."""

    ANY = 0  # any free start cell
    OPPOSITE = 1  # rulebook two-player game: a player's second colour starts opposite its first
    EVERY_OTHER = 2  # rulebook three-player game: every other cell of the ring of start cells

    def __repr__(self) -> str:
        return f"StartRule.{self.name}"  # as Colour's: pastes back (the enum's own is <StartRule.ANY: 0>)


_KINDS = ("four_player", "two_player", "three_player", "teams", "solo")


@dataclass(frozen=True)
class Variant:
    """A rule set: ``kind`` is one of ``four_player``, ``two_player``, ``three_player``, ``teams``,
    ``solo``; ``alternate_rule`` lets same-colour pieces meet only corner to corner;
    ``pentobi_compatible`` uses Pentobi's free starts in the two- and three-player games.
    :meth:`Variant.solo` (``colours``, ``side``) restricts a solo game to some colours (default:
    all four, or the three of the three-player game on the inner board, ``side=8``). Equal rules
    make equal variants: a solo game's default colours and ``pentobi_compatible`` where the
    starts are free anyway are not stored.

    >>> Variant.TWO_PLAYER.players
    ((Colour.BLUE, Colour.RED), (Colour.YELLOW, Colour.GREEN))
    >>> Variant("three_player").side
    8
    """

    kind: str = "four_player"
    alternate_rule: bool = False
    pentobi_compatible: bool = False
    colours_override: Optional[Tuple[int, ...]] = field(default=None)
    side_override: Optional[int] = field(default=None)

    # Set after the class body.
    FOUR_PLAYER: ClassVar["Variant"]
    TWO_PLAYER: ClassVar["Variant"]
    THREE_PLAYER: ClassVar["Variant"]
    TEAMS: ClassVar["Variant"]
    SOLO: ClassVar["Variant"]

    def __post_init__(self) -> None:
        if self.kind not in _KINDS:
            raise TrigonError(f"unknown variant kind {self.kind!r}; expected one of {', '.join(_KINDS)}")
        for name in ("alternate_rule", "pentobi_compatible"):
            object.__setattr__(self, name, _args.flag(name, getattr(self, name)))
        if self.side_override is not None:
            if self.kind != "solo":
                raise TrigonError("side can be chosen (8 or 9) only for a solo game")
            side = _args.side(self.side_override)
            object.__setattr__(self, "side_override", None if side == 9 else side)  # 9: the default board
        if self.colours_override is not None:
            if self.kind != "solo":
                raise TrigonError("colours can be chosen only for a solo game")
            cs = tuple(int(Colour.parse(c)) for c in self.colours_override)
            if not cs or len(set(cs)) != len(cs):
                raise TrigonError(f"colours must be one or more distinct colours, not {self.colours_override!r}")
            cs = tuple(sorted(cs))
            default = (0, 1, 2) if self.side_override == 8 else (0, 1, 2, 3)
            object.__setattr__(self, "colours_override", None if cs == default else cs)
        if self.kind not in ("two_player", "three_player"):
            # Pentobi's free starts are these games' own rule already: equal rules, equal variants.
            object.__setattr__(self, "pentobi_compatible", False)

    @classmethod
    def solo(cls, colours: Optional[Colours] = None, side: int = 9, alternate_rule: bool = False) -> "Variant":
        """A solitaire game of the given colours (default: all four on the big board).

        ``colours``: one colour or several, each a ``Colour``, an index or a name."""
        chosen: Optional[Tuple[ColourLike, ...]] = None
        if colours is not None:
            if isinstance(colours, str) or not hasattr(colours, "__iter__"):  # a name, a Colour or an index
                chosen = (colours,)
            else:
                chosen = tuple(cast(Iterable[ColourLike], colours))
        # (the fields hold indices: __post_init__ reads each colour given with Colour.parse)
        return cls("solo", alternate_rule=alternate_rule, colours_override=chosen,  # type: ignore[arg-type]
                   side_override=side)

    def with_alternate_rule(self, on: bool = True) -> "Variant":
        """The same variant with the alternate rule switched on (or off)."""
        return Variant(self.kind, on, self.pentobi_compatible, self.colours_override, self.side_override)

    @property
    def side(self) -> int:
        """Board side: 9 (486 cells) or 8 (the inner 384 cells, three-player game)."""
        if self.kind == "three_player":
            return 8
        return self.side_override or 9

    @property
    def colours(self) -> Tuple[Colour, ...]:
        """The colours that take part, in turn order."""
        if self.colours_override is not None:
            return tuple(Colour(c) for c in self.colours_override)
        if self.kind == "three_player" or (self.kind == "solo" and self.side == 8):
            return (Colour.BLUE, Colour.YELLOW, Colour.RED)
        return tuple(Colour)

    @property
    def colour_mask(self) -> int:
        """The colours that take part as bits (bit ``c`` for colour ``c``), as the core takes them."""
        m = 0
        for c in self.colours:
            m |= 1 << int(c)
        return m

    @property
    def players(self) -> Tuple[Tuple[Colour, ...], ...]:
        """The sides that score together: one tuple of colours per player (or team)."""
        if self.kind in ("two_player", "teams"):
            return ((Colour.BLUE, Colour.RED), (Colour.YELLOW, Colour.GREEN))
        if self.kind == "solo":
            return (self.colours,)
        return tuple((c,) for c in self.colours)

    def player_of(self, colour: ColourLike) -> int:
        """Index in ``players`` of the side that plays ``colour`` (a ``Colour``, an index or a
        name)."""
        c = Colour.parse(colour)
        for i, cs in enumerate(self.players):
            if c in cs:
                return i
        raise TrigonError(f"{c} does not take part in {self!r}")

    @property
    def start_rule(self) -> StartRule:
        """Where first pieces may go: any start cell (four players, teams, solo, Pentobi's free
        starts), the rulebook's opposite cells (two players) or every other cell (three players)."""
        if self.pentobi_compatible:
            return StartRule.ANY
        if self.kind == "two_player":
            return StartRule.OPPOSITE
        if self.kind == "three_player":
            return StartRule.EVERY_OTHER
        return StartRule.ANY

    @property
    def name(self) -> str:
        """Pentobi's game name for the board and colours (``GM`` of records, ``set_game``): a
        solo game on the inner board is on the three-player game's board."""
        if self.kind == "two_player":
            return "Blokus Trigon Two-Player"
        if self.side == 8:
            return "Blokus Trigon Three-Player"
        return "Blokus Trigon"

    def __repr__(self) -> str:
        for const in ("FOUR_PLAYER", "TWO_PLAYER", "THREE_PLAYER", "TEAMS", "SOLO"):
            if getattr(Variant, const) == self:
                return f"Variant.{const}"
        if self.kind == "solo":  # as it is written: Variant.solo(colours, side)
            args = []
            if self.colours_override is not None:
                args.append(repr([Colour(c) for c in self.colours_override]))
            if self.side_override is not None:
                args.append(f"side={self.side_override!r}")
            if self.alternate_rule:
                args.append("alternate_rule=True")
            return f"Variant.solo({', '.join(args)})"
        args = [repr(self.kind)]
        if self.alternate_rule:
            args.append("alternate_rule=True")
        if self.pentobi_compatible:
            args.append("pentobi_compatible=True")
        return f"Variant({', '.join(args)})"


Variant.FOUR_PLAYER = Variant("four_player")
Variant.TWO_PLAYER = Variant("two_player")
Variant.THREE_PLAYER = Variant("three_player")
Variant.TEAMS = Variant("teams")
Variant.SOLO = Variant("solo")

# What a `variant` argument may be: a Variant, or a kind's name ("two_player": the rulebook's game).
VariantLike = Union[Variant, str]


def as_variant(value: object, error: Optional[Type[ValueError]] = None) -> Variant:
    """``value`` as a Variant: itself, or ``Variant(kind)`` for a kind's name. Errors name the
    kinds; ``error`` is the caller's error class for both a wrong type and an unknown name (by
    default TypeError and TrigonError)."""
    if isinstance(value, Variant):
        return value
    if isinstance(value, str):
        if value in _KINDS:
            return Variant(value)
        raise (error or TrigonError)(f"unknown variant {value!r}; expected a Variant or one of {', '.join(_KINDS)}")
    raise (error or TypeError)(f"variant must be a Variant or a kind's name, not {type(value).__name__}")
