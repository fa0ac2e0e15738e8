"""trigon_fast: a fast Blokus Trigon engine (C++ core, Python API).

>>> import trigon_fast as tf
>>> g = tf.Game(tf.Variant.FOUR_PLAYER)
>>> len(g.legal_moves)
2478
"""

import atexit

from . import _core
from .errors import (ColourError, GameOverError, IllegalMoveError, InvalidMoveError, NothingToUndoError, OutOfRangeError,
                     TrigonError)
from .game import Game, LegalMoves
from .move import PIECE_NAMES, PIECE_SIZES, Move, board
from .playout import random_game, random_games_stats
from .records import Record, RecordError, read_blksgf, write_blksgf  # also adds Game.from_blksgf / to_blksgf
from .search import Analysis, Engine, analyse, best_move
from .solver import Solution, SolutionIterator, SolverError, SolveStats, iter_solutions, solve_solo
from .solver import _stop_streams as _stop_solution_streams
from .pattern import PatternProgress, PatternPuzzle, PatternResult, parse_region, solve_pattern
from .exact import ExactProgress, MaxPlaceResult, PlaceAllResult, can_place_all, max_placeable
from .variants import Colour, StartRule, Variant
from . import render, symmetry  # (render needs nothing optional until PNG: tf.render.game_svg works)

__version__ = "0.1.0"

# A thread still inside a long call of the core (a daemon thread analysing when a GUI closes)
# would abort the interpreter's exit: end those calls first, as Ctrl-C does.
atexit.register(_core._end_long_calls, 5.0)
# (registered after it, so run before it: an iterator's search waiting for its caller is stopped)
atexit.register(_stop_solution_streams)

__all__ = [
    "Analysis",
    "Engine",
    "analyse",
    "best_move",
    "Colour",
    "ColourError",
    "Game",
    "GameOverError",
    "IllegalMoveError",
    "InvalidMoveError",
    "LegalMoves",
    "NothingToUndoError",
    "OutOfRangeError",
    "Move",
    "PIECE_NAMES",
    "PIECE_SIZES",
    "Record",
    "RecordError",
    "StartRule",
    "TrigonError",
    "Variant",
    "board",
    "random_game",
    "random_games_stats",
    "read_blksgf",
    "write_blksgf",
    "Solution",
    "SolveStats",
    "SolverError",
    "solve_solo",
    "iter_solutions",
    "SolutionIterator",
    "PatternPuzzle",
    "PatternResult",
    "PatternProgress",
    "parse_region",
    "solve_pattern",
    "PlaceAllResult",
    "ExactProgress",
    "MaxPlaceResult",
    "can_place_all",
    "max_placeable",
]
