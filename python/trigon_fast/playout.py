"""Uniformly random games played in C++."""

from __future__ import annotations

from typing import Optional, Type

from . import _args, _core
from .errors import TrigonError
from .game import Game
from .variants import Variant, VariantLike, as_variant

__all__ = ["random_game", "random_games_stats"]


def start_variant(variant: Optional[VariantLike], start: Optional[Game], error: Type[ValueError] = TrigonError) -> Variant:
    """The variant of a run given a variant, a start game, both (they must agree) or neither."""
    if variant is not None:
        variant = as_variant(variant, None if error is TrigonError else error)
    if start is not None:
        if not isinstance(start, Game):
            raise TypeError(f"start must be a Game, not {type(start).__name__}")
        if variant is not None and variant != start.variant:
            raise error(f"variant {variant!r} is not the start game's ({start.variant!r})")
        return start.variant
    return Variant.FOUR_PLAYER if variant is None else variant


def random_game(variant: Optional[VariantLike] = None, seed: int = 0, start: Optional[Game] = None) -> Game:
    """A complete game with a uniformly random legal move at every turn (seeded), of ``variant``
    (default: the four-player game) or continued from ``start`` (``variant``, when given too,
    must be the game's)."""
    seed = _args.seed(seed)
    variant = start_variant(variant, start)
    g = start.copy() if start is not None else Game(variant)
    if not g.is_over:
        moves, _ = _core.random_game(g.position, seed)
        for colour, pid in moves:
            g.play(int(pid))
    return g


def random_games_stats(variant: VariantLike = Variant.FOUR_PLAYER, games: int = 1000, seed: int = 0) -> dict:
    """Plays ``games`` random games inside C++ (GIL released) and returns totals: games, moves,
    seconds, score_sum per colour (0 for a colour that takes no part), interrupted. Ctrl-C
    stops it: the totals are then of the games played (``games`` fewer, ``interrupted`` True)."""
    games = _args.integer("games", games, 0, _args.MAX_COUNT)
    seed = _args.seed(seed)
    g = Game(variant)
    return dict(_core.random_games_stats(g.position, games, seed))
