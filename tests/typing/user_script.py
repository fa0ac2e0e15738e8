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

    # Arguments as the functions take them (and as the docs write them): colours as names,
    # indices or Colours, one or several; cells as names or indices; numpy integers.
    game.play(np.argmax(game.legal_mask()))  # a policy's pick: a numpy integer as a placement id
    left: List[str] = game.pieces_left("red")
    assert len(left) == 22 and game.score(np.int64(0)) < 0 and len(game.legal_moves_of("green")) > 0
    one: tf.Move = tf.Move.from_piece(tf.PIECE_NAMES.index("1"), 0, "r15")
    assert tf.Move.from_cells([np.int16(c) for c in one.cell_indices]) == one
    assert tf.Variant.solo(["blue", 2, tf.Colour.GREEN]).colours == (tf.Colour.BLUE, tf.Colour.RED, tf.Colour.GREEN)
    finished = tf.random_game(tf.Variant.FOUR_PLAYER, seed=0)
    some: tf.PlaceAllResult = tf.can_place_all(finished, colours=["blue", tf.Colour.RED], time_limit=5)
    assert some.answer is not True and tf.can_place_all(finished, colours="green", time_limit=5).answer is not True
    red: tf.Solution = tf.solve_solo(tf.Variant.solo("red"), start_cells={"red": "r15"}, seed=0, time_limit=10)
    assert red.complete
    hexagon = "  xxxxx\n xxxxxxx\n xxxxxxx\n  xxxxx"
    drawn: tf.PatternResult = tf.solve_pattern(hexagon, pieces={"V": 1, "P6": 1, "F": 1, "A6": 1})
    assert drawn.count == 1
    region: List[int] = tf.parse_region(hexagon)
    puzzle = tf.PatternPuzzle(np.array(region), pieces="V,P6,F,A6")
    assert puzzle.solve(all_solutions=True, unique=True).count == 2

    # Symmetries of arrays (numpy's or lists) and pictures.
    turned: np.ndarray = tf.symmetry.transform_cells(game.occupancy(), 3)
    assert np.array_equal(turned, game.transform(3).occupancy())
    masks: np.ndarray = tf.symmetry.transform_placements([game.legal_mask()], 1, axis=1)
    assert np.array_equal(masks[0], game.transform(1).legal_mask())
    assert tf.symmetry.inverse(1) == 5 and tf.symmetry.cell_permutation(6).shape == (game.board.num_cells,)
    svg: str = tf.render.game_svg(game, labels={"r15": 0.5, "a9": "a"}, highlight=["a9", 5], caption="typed",
                                  candidates=list(game.legal_moves)[:2])
    svg += tf.render.game_svg(game, highlight=game.occupancy() < 0) + tf.render.move_svg(one, colour="red")
    svg += tf.render.pieces_left_svg(game) + tf.render.solution_svg(red, cell=8.0)
    assert svg.count("<svg") == 5


if __name__ == "__main__":
    main()
