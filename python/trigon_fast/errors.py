"""Exceptions: every error a caller can cause is a ``ValueError`` subclass."""

from __future__ import annotations

from typing import Optional

__all__ = ["TrigonError", "InvalidMoveError", "ColourError", "IllegalMoveError", "GameOverError", "NothingToUndoError",
           "OutOfRangeError", "RecordError"]


class TrigonError(ValueError):
    """Base class of trigon_fast's errors about bad input."""


class InvalidMoveError(TrigonError):
    """A move that cannot be parsed or names no placement on the board."""


class ColourError(InvalidMoveError):
    """A value that names no colour, or a colour that takes no part in the game (an
    ``InvalidMoveError`` too: a move's colour is part of the move)."""


class IllegalMoveError(TrigonError):
    """A well-formed move that breaks a rule in the current position; the message says which."""


class GameOverError(IllegalMoveError):
    """A move (or search) asked for after the game has ended."""


class NothingToUndoError(TrigonError, IndexError):
    """``undo``/``pop`` with no move left (an ``IndexError`` too, as ``list.pop`` raises)."""


class OutOfRangeError(TrigonError, IndexError):
    """An index past its range: a cell, placement, colour, piece, symmetry or vertex index given
    to a board or position, or a game of a batch (an ``IndexError`` too, as a list's). The
    message names the index and the range."""


class RecordError(TrigonError):
    """A record that cannot be read: bad SGF syntax, an unknown game, a bad or illegal move.
    ``line`` and ``column`` (1-based, or ``None``) locate the fault in the text."""

    def __init__(self, message: str, line: Optional[int] = None, column: Optional[int] = None) -> None:
        self.line = line
        self.column = column
        self.reason = message
        where = f"line {line}, column {column}: " if line is not None else ""
        super().__init__(where + message)
