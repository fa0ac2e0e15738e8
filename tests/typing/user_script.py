"""A user's script, type-checked by tests/test_typing.py (mypy) and run there too.

Each annotation is what a user would write; mypy fails the test when the package's types
disagree (a result typed as a union, a method added at run time that checkers cannot see).
"""

from __future__ import annotations

from typing import Dict, List, Optional, Union

import numpy as np

import trigon_fast as tf


def main() -> None:
    game: tf.Game = tf.Game(tf.Variant.FOUR_PLAYER)
    move: tf.Move = tf.Move.from_str("r15,q15,q16,p16,p17,o17")
    game.play(move)
    turn: Optional[tf.Colour] = game.turn
    assert turn is tf.Colour.YELLOW
    legal: tf.LegalMoves = game.legal_moves
    first: tf.Move = next(iter(legal))
    game.play(first)
    undone: tf.Move = game.undo()
    assert undone == first
    scores: Dict[tf.Colour, int] = game.scores()
    assert set(scores) == set(tf.Colour)
    mask: np.ndarray = game.legal_mask(int(tf.Colour.YELLOW))
    assert mask.any()

    # Records: from_blksgf and to_blksgf are methods checkers see.
    text: str = game.to_blksgf(players=["me", "you", "me", "you"])
    again: tf.Game = tf.Game.from_blksgf(text)
    assert again == game
    record: tf.Record = tf.read_blksgf(text)
    assert record.variant == game.variant

    # Search.
    analysis: tf.Analysis = tf.analyse(game, simulations=50, seed=1)
    best: tf.Move = analysis.best_move
    assert best in game.legal_moves
    engine: tf.Engine = tf.Engine(simulations=50)
    assert engine.best_move(game) in game.legal_moves

    # The solo puzzle: one solution by default, a list with count=.
    solution: tf.Solution = tf.solve_solo(seed=0, time_limit=10)
    assert solution.complete and solution.total_score == 80
    board: tf.Game = solution.game
    assert board.is_over
    many: Union[tf.Solution, List[tf.Solution]] = tf.solve_solo(seed=0, time_limit=10, count=2)
    assert isinstance(many, list) and len(many) == 2
    for s in tf.iter_solutions(seed=0, time_limit=10):
        assert s.complete
        break

    # Exact questions and patterns.
    answer: tf.PlaceAllResult = tf.can_place_all(tf.random_game(tf.Variant.FOUR_PLAYER, seed=0))
    assert answer.answer is not True
    most: tf.MaxPlaceResult = tf.max_placeable(tf.random_game(tf.Variant.FOUR_PLAYER, seed=0), tf.Colour.BLUE)
    assert most.proven
    pattern: tf.PatternResult = tf.solve_pattern("xxx....xxx", pieces={"2": 2, "1": 2}, all_solutions=True)
    assert pattern.count == 4


if __name__ == "__main__":
    main()
