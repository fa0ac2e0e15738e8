"""Rules-core benchmarks: run with `python -m pytest bench/bench_core.py --benchmark-enable`."""

import pytest

import trigon_fast as tf
from trigon_fast import _core

from core_figures import movegen_suite
from rates import record_rate


@pytest.fixture(scope="module")
def suite():
    return movegen_suite()


def test_movegen_suite(benchmark, suite):
    """Full legal-move generation for the colour to move over the fixed suite (one round)."""
    per, moves = benchmark(_core.movegen_seconds, suite, 1)
    benchmark.extra_info["positions"] = len(suite)
    benchmark.extra_info["moves"] = moves


def test_movegen_empty_board(benchmark):
    pos = tf.Game().position
    benchmark(pos.generate, 0)


@pytest.mark.parametrize("variant", [tf.Variant.FOUR_PLAYER, tf.Variant.FOUR_PLAYER.with_alternate_rule(),
                                     tf.Variant.THREE_PLAYER], ids=["four", "four_alt", "three"])
def test_random_games_1000(benchmark, variant):
    """1000 uniformly random complete games inside C++, one thread."""
    benchmark(tf.random_games_stats, variant, 1000, 1)
    record_rate(benchmark, 1000)


def test_table_build(benchmark):
    benchmark(_core.build_table_seconds, 9)


def test_game_play_undo_python(benchmark):
    """The Python API's cost per move: play then undo one legal move."""
    g = tf.Game()
    m = next(iter(g.legal_moves))

    def play_undo():
        g.play(m)
        g.undo()

    benchmark(play_undo)


def test_legal_moves_as_python_objects(benchmark):
    """``list(game.legal_moves)`` on the empty board: 2,478 Move objects (Python's side of a
    python-chess style loop over the moves)."""
    g = tf.Game()
    moves = benchmark(lambda: list(g.legal_moves))
    assert len(moves) == 2478
    record_rate(benchmark, len(moves), "moves_per_s")
