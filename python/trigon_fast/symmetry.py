"""The board's 12 symmetries: cells, moves and the numpy arrays of machine learning.

Symmetry ``k`` (0..11) turns the board by ``k % 6`` times 60 degrees about its centre, after a
reflection when ``k >= 6``; 0 is the identity. As the diagrams and pictures draw the board (row 1
at the bottom), ``k = 1`` turns it counter-clockwise (the start cell r15 goes to j12) and
``k = 6`` mirrors it in the line through the start cells z12 and j7. Every rule of every variant is symmetric: the six
start cells form a ring that each symmetry maps onto itself, keeping which cells are opposite
(two players) and every other (three players), so a legal game stays legal under each of them.
``Game.transform(k)`` and ``Move.transform(k)`` apply one to a game or a move.

For data augmentation, :func:`transform_cells` and :func:`transform_placements` move arrays
indexed by cell (observation planes, occupancy) or by placement id (legal-move masks, policy
targets) along with the board; :func:`transform_ids` maps arrays *of* placement ids (a batch's
moves, their padding kept):

>>> import numpy as np
>>> import trigon_fast as tf
>>> from trigon_fast import symmetry
>>> game = tf.Game(tf.Variant.FOUR_PLAYER, ["q15,r15,p16,q16,o17,p17"])
>>> [str(tf.Move.from_str("r15").transform(k)) for k in (1, 6)]   # the start cells, as said above
['j12', 'z7']
>>> turned = game.transform(3)                    # half a turn
>>> str(turned.history[0][1])
't2,u2,s3,t3,r4,s4'
>>> bool(np.array_equal(symmetry.transform_cells(game.occupancy(), 3), turned.occupancy()))
True
>>> bool(np.array_equal(symmetry.transform_placements(game.legal_mask(), 3), turned.legal_mask()))
True
"""

from __future__ import annotations

from functools import lru_cache
from typing import List, Union

import numpy as np
import numpy.typing as npt

from . import _args, _core
from ._args import IntLike
from .errors import TrigonError

__all__ = ["NUM_SYMMETRIES", "cell_permutation", "placement_permutation", "inverse", "transform_cells",
           "transform_placements", "transform_ids"]

NUM_SYMMETRIES = 12


def check(k: IntLike) -> int:
    """``k`` as a symmetry index 0..11 (a ``TrigonError`` otherwise)."""
    return _args.integer("symmetry", k, 0, NUM_SYMMETRIES - 1, TrigonError)


def _side(side: IntLike) -> int:
    return _args.side(side, TrigonError)


@lru_cache(maxsize=None)
def _cells(side: int, k: int) -> np.ndarray:
    return _args.frozen(_core.board(side).cell_symmetry_array(k))


@lru_cache(maxsize=None)
def _placements(side: int, k: int) -> np.ndarray:
    return _args.frozen(_core.board(side).placement_symmetry_array(k))


def cell_permutation(k: int, side: int = 9) -> np.ndarray:
    """``perm[i]``: the cell that cell ``i`` goes to under symmetry ``k`` (read-only int16)."""
    return _cells(_side(side), check(k))


def placement_permutation(k: int, side: int = 9) -> np.ndarray:
    """``perm[id]``: the placement that placement ``id`` goes to under symmetry ``k`` (read-only)."""
    return _placements(_side(side), check(k))


def inverse(k: int) -> int:
    """The symmetry that undoes ``k``: the opposite turn, or ``k`` itself for a reflection."""
    k = check(k)
    return (6 - k) % 6 if k < 6 else k


def _transform(array: npt.ArrayLike, perm: np.ndarray, axis: int, what: str) -> np.ndarray:
    a = np.asarray(array)
    axis = _args.integer("axis", axis, -a.ndim, a.ndim - 1, TrigonError) if a.ndim else 0
    if a.ndim == 0 or a.shape[axis] != perm.shape[0]:
        raise TrigonError(f"axis {axis} of an array of shape {a.shape} does not have one entry per {what} "
                          f"({perm.shape[0]})")
    out = np.empty_like(a)
    index: List[Union[slice, np.ndarray]] = [slice(None)] * a.ndim
    index[axis] = perm
    out[tuple(index)] = a  # entry i moves to perm[i]
    return out


def transform_cells(array: npt.ArrayLike, k: int, side: int = 9, axis: int = -1) -> np.ndarray:
    """A new array, ``array`` moved with the board by symmetry ``k`` (one entry per cell along
    ``axis``): the entry of cell ``i`` goes to cell ``cell_permutation(k)[i]``."""
    return _transform(array, cell_permutation(k, side), axis, "cell")


def transform_placements(array: npt.ArrayLike, k: int, side: int = 9, axis: int = -1) -> np.ndarray:
    """A new array, ``array`` moved with the board by symmetry ``k`` (one entry per placement id
    along ``axis``: legal-move masks, policy vectors), as :func:`transform_cells` does for cells."""
    return _transform(array, placement_permutation(k, side), axis, "placement")


def transform_ids(ids: npt.ArrayLike, k: int, side: int = 9) -> np.ndarray:
    """A new array of the same shape and dtype: each placement id in ``ids`` replaced by the
    one symmetry ``k`` sends it to; negative entries (the -1 padding of a batch's ``moves``)
    stay as they are.

    >>> from trigon_fast.batch import play_games
    >>> b = play_games(games=2, seed=1)
    >>> t = transform_ids(b.moves, 4)
    >>> [m.id for m in b.game(0).transform(4).moves] == list(t[0, :b.lengths[0]])
    True
    """
    a = np.asarray(ids)
    if a.dtype.kind not in "iu":
        raise TrigonError(f"placement ids must be an integer array, not {a.dtype}")
    perm = placement_permutation(k, side)
    if a.size and int(a.max()) >= perm.shape[0]:
        raise TrigonError(f"placement id {int(a.max())} out of range (0..{perm.shape[0] - 1})")
    out = a.copy()
    ok = a >= 0
    out[ok] = perm[a[ok]]
    return out
