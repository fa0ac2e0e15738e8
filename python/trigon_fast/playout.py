"""Uniformly random games played in C++."""

from __future__ import annotations

from typing import Optional

from . import _args, _core
from .game import Game
from .variants import Variant

__all__ = ["random_game", "random_games_stats"]


def random_game(variant: Variant = Variant.FOUR_PLAYER, seed: int = 0, start: Optional[Game] = None) -> Game:
    """A complete game with a uniformly random legal move at every turn (seeded)."""
    seed = _args.seed(seed)
    g = start.copy() if start is not None else Game(variant)
    if not g.is_over:
        moves, _ = _core.random_game(g.position, seed)
        for colour, pid in moves:
            g.play(int(pid))
    return g


def random_games_stats(variant: Variant = Variant.FOUR_PLAYER, games: int = 1000, seed: int = 0) -> dict:
    """Plays ``games`` random games inside C++ (GIL released; Ctrl-C stops) and returns totals:
    games, moves, seconds, score_sum per colour."""
    games = _args.integer("games", games, 0, _args.MAX_COUNT)
    seed = _args.seed(seed)
    g = Game(variant)
    return dict(_core.random_games_stats(g.position, games, seed))
