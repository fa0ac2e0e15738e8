"""Reprs of results are one-line summaries (the dataclasses' own spelled out whole games and
every root move's arrays: tens of thousands of characters at a REPL), and they say the answer."""

import re

import pytest

import trigon_fast as tf
from trigon_fast import batch

SHORT = 200  # characters: a summary fits a line or two of a terminal


def _endgame(left: int = 12) -> tf.Game:
    g = tf.random_game(tf.Variant.FOUR_PLAYER, 0)
    while len(g.history) > 4 * (22 - left):
        g.undo()
    return g


def test_solution_repr_summarises():
    s = tf.solve_solo(seed=1, time_limit=10)
    r = repr(s)
    assert len(r) < SHORT and "\n" not in r
    assert r.startswith("<Solution Variant.SOLO: complete, 88 moves, score ")
    assert f"score {s.total_score} " in r and f"{s.stats.nodes} nodes" in r
    for c, v in s.scores.items():
        assert f"{c.name.lower()} {v}" in r


def test_incomplete_solution_repr_says_what_is_missing():
    g = tf.random_game(tf.Variant.SOLO, 1)  # taken back to a position that cannot be completed
    while g.is_over or len(g.history) > 70:
        g.undo()
    s = tf.solve_solo(game=g, seed=1, time_limit=0.05, threads=1, triangle_last=False)
    assert not s.complete
    assert f"incomplete, {s.unplaced_triangles} triangles unplaced" in repr(s)


def test_place_all_reprs_name_the_answer():
    g = _endgame(12)
    yes = tf.can_place_all(g, ["blue"], time_limit=5)
    assert yes.answer is True
    assert repr(yes).startswith(f"<PlaceAllResult yes, witness of {len(yes.witness)} moves, ")
    open_ = tf.can_place_all(g, time_limit=0.3)
    assert open_.answer is None
    r = repr(open_)
    assert r.startswith(f"<PlaceAllResult not proven, best layout {open_.best_triangles} of "
                        f"{open_.target_triangles} triangles")
    assert len(r) < SHORT
    no = tf.can_place_all(_endgame(6), time_limit=10)
    assert no.answer is False and repr(no).startswith("<PlaceAllResult no (proven), ")


def test_max_placeable_repr():
    m = tf.max_placeable(_endgame(12), "red", time_limit=5)
    assert m.proven
    r = repr(m)
    assert r.startswith(f"<MaxPlaceResult red: {m.triangles} triangles (proven), witness of {len(m.witness)} moves")
    assert len(r) < SHORT


def test_analysis_reprs():
    a = tf.analyse(_endgame(12), simulations=100, seed=1, threads=1)
    r = repr(a)
    assert len(r) < SHORT
    assert r.startswith(f"<Analysis {a.colour.name.lower()} to move: best {a.best_move} (value ")
    assert f"{len(a.moves)} moves searched, 100 simulations" in r
    m = a.moves[0]
    assert repr(m) == f"<MoveAnalysis {m.move}: {m.visits:,} visits, value {m.value:.3f}, prior {m.prior:.3f}>"


def test_pattern_result_reprs():
    hexagon = "q9,r9,s9,q10,r10,s10"
    r = repr(tf.solve_pattern(hexagon, pieces=["2", "2", "2"], all_solutions=True, max_solutions=0))
    assert re.match(r"<PatternResult 2 solutions \(all\), 0 kept, 6 cells, \w+, \d+ nodes, ", r)
    r = repr(tf.solve_pattern(hexagon, pieces=["2", "2", "2"], all_solutions=True, unique=True))
    assert r.startswith("<PatternResult 1 solution (all) up to the region's 12 symmetries, 1 kept, 6 cells")
    r = repr(tf.solve_pattern(hexagon, pieces=["2"]))
    assert r.startswith("<PatternResult impossible (area mismatch") and r.endswith(", 6 cells>")


def test_game_batch_repr():
    b = batch.play_games(games=3, seed=5)
    assert repr(b) == "<GameBatch 3 games of Variant.FOUR_PLAYER, policy 'random', seed 5>"
    assert repr(batch.play_games(games=1, seed=5)) == "<GameBatch 1 game of Variant.FOUR_PLAYER, policy 'random', seed 5>"


def test_game_repr_is_pasted_back_only_when_it_rebuilds_the_game():
    g = tf.random_game(tf.Variant.TWO_PLAYER, 5)
    back = eval(repr(g), vars(tf))
    assert back.history == g.history and back.turn == g.turn
    g = tf.Game()
    g.set_turn("red")  # the moves alone would rebuild a game with blue to move: the record's form
    assert repr(g).startswith("Game.from_blksgf('(;GM[Blokus Trigon]") and eval(repr(g), vars(tf)) == g
    # Setups and moves out of turn too, in every variant.
    for v in (tf.Variant.FOUR_PLAYER, tf.Variant.THREE_PLAYER, tf.Variant.solo(["red", "green"], alternate_rule=True),
              tf.Variant("two_player", pentobi_compatible=True)):
        g = tf.Game(v)
        g.setup(v.colours[-1], next(iter(g.legal_moves_of(v.colours[-1]))), to_move=v.colours[-1])
        g.play(next(iter(g.legal_moves)))
        if len(v.colours) > 2:
            c = v.colours[1]
            g.play(next(iter(g.legal_moves_of(c))), colour=c)
        back = eval(repr(g), vars(tf))
        assert back == g and back.history == g.history and back.turn == g.turn and back.variant == v


@pytest.mark.parametrize("variant", [tf.Variant.solo([0, 2], side=8), tf.Variant.solo(side=8, alternate_rule=True),
                                     tf.Variant.solo("red"), tf.Variant("two_player", pentobi_compatible=True),
                                     tf.Variant("teams", alternate_rule=True)])
def test_variant_repr_is_how_it_is_written(variant):
    assert "override" not in repr(variant)
    assert eval(repr(variant), vars(tf)) == variant


@pytest.mark.parametrize("variant, rule", [(tf.Variant.FOUR_PLAYER, "ANY"), (tf.Variant.TWO_PLAYER, "OPPOSITE"),
                                           (tf.Variant.THREE_PLAYER, "EVERY_OTHER")])
def test_start_rule_repr_pastes_back_as_colours_do(variant, rule):
    # It was the enum's own <StartRule.OPPOSITE: 1>, which is not Python.
    assert repr(variant.start_rule) == f"StartRule.{rule}"
    assert eval(repr(variant.start_rule), vars(tf)) is variant.start_rule


def test_colours_print_as_names_and_format_as_numbers_on_request():
    assert str(tf.Colour.YELLOW) == "yellow" and f"{tf.Colour.RED}" == "red"
    assert f"{tf.Colour.GREEN:d}" == "3" and f"{tf.Colour.BLUE:>6}" == "  blue"
    assert int(tf.Colour.YELLOW) == 1 and tf.Colour.YELLOW == 1


def test_record_engine_and_env_reprs():
    r = tf.read_blksgf(tf.random_game(tf.Variant.TWO_PLAYER, 3).to_blksgf())
    assert re.fullmatch(r"<Record Variant.TWO_PLAYER, \d+ moves on its main line, result .+>", repr(r))
    e = tf.Engine(level=3, use_priors=False)
    assert repr(e) == "<Engine threads=1, seed=0, level=3, use_priors=False, 0 nodes in its tree>"
    pytest.importorskip("pettingzoo")
    from trigon_fast.env import TrigonEnv

    env = TrigonEnv()
    env.reset(seed=0)
    env.step(int(env.legal_actions()[0]))
    assert repr(env) == "<TrigonEnv Variant.FOUR_PLAYER, 1 move, yellow_1 to act>"
