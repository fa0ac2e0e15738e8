"""Endgame positions shared by the solver and search tests, and answers found without the solver."""

from __future__ import annotations

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
