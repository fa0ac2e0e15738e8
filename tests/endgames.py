"""Endgame positions shared by the solver and search tests, and answers found without the solver."""

from __future__ import annotations

import functools
import random

import trigon_fast as tf


def partial_game(variant, seed, keep):
    """The seeded random game of ``variant`` taken back to its first ``keep`` moves."""
    g = tf.random_game(variant, seed=seed)
    while len(g.history) > keep:
        g.undo()
    return g


def layout_key(game):
    """A final layout up to the board's 12 symmetries and a renaming of colours, from the
    occupancy (independent of the solver's own key)."""
    board = game.board
    occ = game.occupancy()
    best = None
    for k in range(12):
        img = [-1] * board.num_cells
        for cell in range(board.num_cells):
            img[board.symmetric_cell(k, cell)] = int(occ[cell])
        rename = {}
        key = tuple(-1 if c < 0 else rename.setdefault(c, len(rename)) for c in img)
        best = key if best is None or key < best else best
    return best


def max_alone(pos, colour) -> int:
    """Most triangles the colour can place alone: plain exhaustive enumeration of its moves."""
    best = 0
    for pid in pos.generate(colour):
        nxt = pos.copy()
        nxt.place(colour, int(pid))
        best = max(best, tf.PIECE_SIZES[pos.board.placement_piece(int(pid))] + max_alone(nxt, colour))
    return best


def near_miss(seed: int, left: int = 12, replaced: int = 8) -> tf.Game:
    """A solo solution (seed) taken back to `left` pieces a colour, its last `replaced` moves
    random (random.Random(seed)): the positions of bench/bench_exact.py's near misses."""
    g = tf.solve_solo(seed=seed, time_limit=30).game
    while len(g.history) > 4 * (22 - left) - replaced:
        g.undo()
    rng = random.Random(seed)
    for _ in range(replaced):
        g.play(rng.choice(list(g.legal_moves)))
    return g


def setup_without(history, out, variant=tf.Variant.FOUR_PLAYER) -> tf.Game:
    """A game of ``variant`` holding the placements of ``history`` as setup, but for those at the
    indices ``out``."""
    g = tf.Game(variant)
    for i, (c, m) in enumerate(history):
        if i not in out:
            g.setup(c, m)
    return g


def lifted(seed: int, colour: int, k: int) -> tf.Game:
    """A random game played to its end with the colour's last k moves taken off the board (the
    other colours' later moves stay): the colour is stuck with pieces that fit nowhere, beside
    the pockets its lifted pieces leave (often a few cells, walled in)."""
    hist = tf.random_game(tf.Variant.FOUR_PLAYER, seed=seed).history
    mine = [i for i, (c, _) in enumerate(hist) if int(c) == colour]
    assert len(mine) > k
    g = setup_without(hist, set(mine[-k:]))
    g.set_turn(tf.Colour(colour))
    return g


@functools.lru_cache(maxsize=None)
def solution(seed: int) -> tf.Game:
    """The solo puzzle solved with this seed (one thread: the same game every time)."""
    sol = tf.solve_solo(seed=seed, time_limit=30)
    assert sol.complete
    return sol.game


def taken_out(seed: int, out) -> tf.Game:
    """The solved puzzle (seed) with the pieces of these history indices taken out: placed back
    in their order, each is legal again, so every colour can place all its pieces left."""
    hist = solution(seed).history
    g = setup_without(hist, out)
    g.set_turn(hist[min(out)][0])
    return g


def impossible_three_player() -> "tuple[tf.Variant, tf.Game]":
    """(variant, game) of a three-player game taken back to 40 moves: its colours cannot place
    every piece left (an exhaustive search proves it at once), but the solo solver searches to
    its time limit. (Start cells against the start rule served here until they were refused.)"""
    g = tf.random_game(tf.Variant.THREE_PLAYER, 1)
    while len(g.history) > 40:
        g.undo()
    assert tf.can_place_all(g, time_limit=10).answer is False
    return g.variant, g
