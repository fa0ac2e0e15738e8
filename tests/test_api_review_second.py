"""Findings of a second read-only review of the Python API (2026-12-07): equality that a turn
set by hand must not break, records that keep the order of setups, regions and counts read as
written, options checked at the call, caches that cannot be written to, one error class."""

import pickle
import re
import xml.dom.minidom

import numpy as np
import pytest

import trigon_fast as tf
from trigon_fast import render, symmetry
from trigon_fast.env import TrigonEnv
from trigon_fast.search import Engine


# -- a colour with no move is out, whoever's turn it is; equal positions stay equal --------------

@pytest.mark.parametrize("seed", [1, 4])
def test_no_op_set_turn_keeps_the_game_equal_to_itself_and_its_copies(seed):
    # Play marks a colour out when the turn passes it, set_turn at once: the game with a turn set
    # to itself must still equal the game, its pickle, its repr and its record.
    full = tf.random_game(seed=seed)
    moves = [m for _, m in full.history]
    seen_unpassed = 0
    g = tf.Game()
    for k in range(len(moves) + 1):
        if k:
            g.play(moves[k - 1])
        for c in tf.Colour:
            assert g.is_out(c) == (len(g.legal_moves_of(c)) == 0), (k, c)
        if g.is_over:
            break
        h = g.copy()
        h.set_turn(h.turn)
        assert h == g, k
        assert pickle.loads(pickle.dumps(h)) == h
        assert eval(repr(h), vars(tf)) == h
        assert tf.Game.from_blksgf(h.to_blksgf()) == h
        seen_unpassed += any(len(g.legal_moves_of(c)) == 0 for c in tf.Colour if c != g.turn)
    assert seen_unpassed  # (positions where a colour has no move before the turn reaches it)


def test_is_out_says_a_colour_cannot_move_before_its_turn_comes():
    full = tf.random_game(seed=1)
    g = tf.Game()
    for _, m in full.history:
        g.play(m)
        stuck = [c for c in tf.Colour if c != g.turn and len(g.legal_moves_of(c)) == 0]
        if stuck:
            assert all(g.is_out(c) for c in stuck)
            return
    pytest.fail("no colour was stuck before its turn")


# -- records and reprs keep the order setups were made in -----------------------------------------

@pytest.mark.parametrize("order", [["yellow", "blue"], ["yellow", "blue", "yellow"], ["green", "red", "blue"]])
def test_setups_come_back_in_the_order_made(order):
    played = tf.random_game(seed=2).history  # (pieces that do not overlap, two or more a colour)
    g = tf.Game()
    used = {c: 0 for c in tf.Colour}
    for name in order:
        colour = tf.Colour.parse(name)
        g.setup(colour, [m for c, m in played if c == colour][used[colour]])
        used[colour] += 1
    for back in (eval(repr(g), vars(tf)), tf.Game.from_blksgf(g.to_blksgf()), pickle.loads(pickle.dumps(g))):
        assert back.history == g.history
        assert back.setup_indices == g.setup_indices
        assert back == g
        assert back.undo() == g.copy().undo()


def test_setups_after_moves_keep_their_order_too():
    g = tf.Game()
    g.play("q15,r15,p16,q16,o17,p17")
    g.setup("green", "aa9")
    g.setup("yellow", "r4")
    back = tf.Game.from_blksgf(g.to_blksgf())
    assert back.history == g.history and back.turn == g.turn


# -- pattern puzzles: a cell name is a cell, True is not 1 -----------------------------------------

@pytest.mark.parametrize("name", ["x11", "o5", " X11 ", "ab9"])
def test_a_single_cell_name_with_picture_letters_is_that_cell(name):
    r = tf.solve_pattern(name, pieces="1")
    assert [str(m) for m in r.solutions[0]] == [name.strip().lower()]


def test_a_one_line_picture_is_still_a_picture():
    assert len(tf.parse_region("xxxx")) == 4
    assert tf.solve_pattern("xxxx", pieces="I4", all_solutions=True).count == tf.solve_pattern(
        tf.parse_region("xxxx"), pieces="I4", all_solutions=True).count == 1


@pytest.mark.parametrize("call", [
    lambda: tf.solve_pattern(["r15"], pieces={"1": True}),
    lambda: tf.solve_pattern([True], pieces="1"),
    lambda: tf.solve_pattern(["r15", False], pieces="2"),
    lambda: tf.PatternPuzzle(["r15"], pieces={"1": np.True_}),
])
def test_bools_are_not_counts_or_cells(call):
    with pytest.raises(tf.SolverError):
        call()


def test_a_byte_order_mark_before_a_picture_changes_nothing():
    picture = "  xxxxx\n xxxxxxx\n xxxxxxx\n  xxxxx"
    assert tf.parse_region("\ufeff" + picture) == tf.parse_region(picture)
    assert tf.solve_pattern("\ufeff" + picture, pieces="V,P6,F,A6", all_solutions=True).count == 24


# -- iter_solutions: options checked at the call, the game taken at the call ----------------------

@pytest.mark.parametrize("options", [dict(colours=[0]), dict(start_cells=["zz99"] * 4), dict(alternate_rule=True),
                                     dict(variant="two_player")])
def test_iter_solutions_checks_its_options_against_the_game_at_the_call(options):
    g = tf.Game("solo")
    g.play("r15")
    with pytest.raises(tf.SolverError):
        tf.iter_solutions(game=g, **options)


def test_iter_solutions_solves_the_game_as_it_was_at_the_call():
    g = tf.Game("solo")
    g.play("r15")
    before = g.history
    it = tf.iter_solutions(game=g, batch=1, time_limit=30)
    later = list(g.legal_moves)[-1]
    g.play(later)  # the caller plays on: the iterator's rounds must not see it
    sols = [next(it) for _ in range(3)]
    assert all(s.game.history[:1] == before for s in sols)
    assert not all(s.game.history[1][1] == later for s in sols)


def test_empty_colour_lists_are_refused_by_the_solvers():
    with pytest.raises(tf.SolverError, match="at least one colour"):
        tf.can_place_all(tf.Game(), colours=[])
    with pytest.raises(tf.SolverError, match="colours"):
        tf.solve_solo(colours=[])
    with pytest.raises(tf.SolverError, match="colours"):
        tf.iter_solutions(colours=())


# -- cached arrays are read-only, and stay so --------------------------------------------------------

def _frozen_for_good(a):
    assert not a.flags.writeable
    with pytest.raises(ValueError):
        a.flags.writeable = True
    with pytest.raises(ValueError):
        a[:1] = 0


def test_env_legal_actions_cannot_be_written_to():
    env = TrigonEnv()
    env.observe(env.agent_selection)
    a = env.legal_actions()
    _frozen_for_good(a)
    assert env.legal_actions() is a
    _frozen_for_good(TrigonEnv().legal_actions())  # (not from observe's cache: the same rule)


def test_shared_arrays_cannot_be_made_writeable():
    _frozen_for_good(tf.Game().legal_moves.ids)
    _frozen_for_good(symmetry.placement_permutation(1))
    _frozen_for_good(symmetry.cell_permutation(2, side=8))
    m = tf.Move.from_str("r15")
    assert m.transform(1) == m.transform(1)  # (the tables behind it are intact)


# -- search knobs: documented, and refused where they do nothing ------------------------------------

def test_the_documented_knob_defaults_are_the_cores():
    documented = dict(re.findall(r"``(\w+)=([^`]+)``", Engine.__doc__))
    params = tf._core.SearchParams()
    for name in Engine._KNOBS:
        if name == "max_nodes":
            assert "2**23 nodes" in Engine.__doc__ and params.max_nodes == 2**23
            continue
        assert name in documented, name
        assert eval(documented[name]) == pytest.approx(getattr(params, name)), name


@pytest.mark.parametrize("knob", [dict(playout_large_bias=0.5), dict(playout_give_up=64)])
def test_sampled_playout_knobs_are_refused_with_uniform_playouts(knob):
    with pytest.raises(tf.TrigonError, match="sampled playouts only"):
        Engine(**knob)
    with pytest.raises(tf.TrigonError, match="sampled playouts only"):
        Engine(simulations=5).analyse(tf.Game(), **knob)
    a = Engine(simulations=20, playout="sampled", **knob).analyse(tf.Game())
    assert a.simulations == 20


# -- every error about bad input is a TrigonError ------------------------------------------------------

@pytest.mark.parametrize("call", [
    lambda: tf.Variant("bogus"),
    lambda: tf.Variant.solo(colours=[]),
    lambda: tf.Variant("four_player", side_override=8),
    lambda: tf.Colour.parse("purple"),
    lambda: tf.Colour.parse(7),
    lambda: tf.Variant.THREE_PLAYER.player_of("green"),
    lambda: tf.Engine(exploraton=1.0),
    lambda: tf.Engine(playout="greedy").analyse(tf.Game()),
    lambda: tf.analyse(tf.Game(), simulations=5, reuse_tree=True),
    lambda: render.game_svg(tf.Game(), palette="neon"),
    lambda: render.game_svg(tf.Game(), labels={"zz99": "x"}),
    lambda: TrigonEnv().observe("nobody"),
    lambda: tf.Game("nonsense"),
])
def test_bad_input_raises_a_trigon_error(call):
    with pytest.raises(tf.TrigonError):
        call()


# -- small ones ----------------------------------------------------------------------------------------

def test_cell_names_take_blanks_and_any_case_everywhere():
    assert tf.Move.from_piece("1", 0, " R15 ") == tf.Move.from_str(" R15 ")


def test_svg_labels_with_characters_xml_forbids_still_parse():
    svg = render.game_svg(tf.Game(), labels={"r15": "\x01<&>\x1f"})
    xml.dom.minidom.parseString(svg)
    assert "\ufffd" in svg and "&lt;&amp;&gt;" in svg


# -- a third look: solvers and batches ------------------------------------------------------------

def test_a_side_8_pattern_result_draws_its_region_on_its_board():
    hexagon = "  xxxxx\n xxxxxxx\n xxxxxxx\n  xxxxx"
    r = tf.solve_pattern(hexagon, ["V", "P6", "F", "I6"], side=8)  # no solution: nothing to take the side from
    assert r.side == 8 and not r.solutions
    assert tf.parse_region(r.diagram().replace(".", "x"), side=8) == tf.parse_region(hexagon, side=8)


@pytest.mark.parametrize("region, error", [(b"xx", "not bytes"), (bytearray(b"ab"), "not bytearray")])
def test_bytes_are_not_a_region(region, error):
    with pytest.raises(tf.SolverError, match=error):
        tf.solve_pattern(region, ["2"])


def test_a_list_of_cells_may_end_with_a_newline():
    assert tf.solve_pattern("r15, r14\n", ["2"]).region == tf.solve_pattern("r15,r14", ["2"]).region


@pytest.mark.parametrize("cells", [5, "r15"])
def test_start_cells_that_are_not_a_list_name_the_option(cells):
    with pytest.raises(tf.SolverError, match="start_cells"):
        tf.solve_solo(start_cells=cells, time_limit=1)


def test_solve_seeds_takes_a_game_and_checks_its_options_at_the_call(tmp_path):
    from trigon_fast import batch

    g = tf.Game("solo")
    g.play("r15")
    summary = batch.solve_seeds([1, 2], tmp_path / "a.jsonl", game=g, time_limit=10, progress=False)
    assert summary.results == 2 and not summary.failed
    for row in batch.read_results(tmp_path / "a.jsonl"):
        replay = tf.Game.from_blksgf(row["record"])  # (a line replays alone: variant and start too)
        assert replay.history[:1] == g.history and replay.is_over
        assert [str(m) for _, m in replay.history[1:]] == row["moves"]  # (the solver's moves)
    for options in (dict(count=0), dict(start_cells={"blue": "r14"}), dict(game=tf.Game(), variant="solo"),
                    dict(colours=[]), dict(triangle_last="yes")):
        with pytest.raises(batch.BatchError):
            batch.solve_seeds([1], tmp_path / "b.jsonl", progress=False, **options)
    assert not (tmp_path / "b.jsonl").exists()


def test_seeds_past_the_largest_are_refused_not_wrapped():
    from trigon_fast import batch

    assert batch.play_games(games=1, seed=2**64 - 1).seed == 2**64 - 1
    with pytest.raises(batch.BatchError, match="past the largest seed"):
        batch.play_games(games=2, seed=2**64 - 1)
    with pytest.raises(batch.BatchError, match="past the largest seed"):
        batch.self_play(games=3, seed=2**64 - 2, path="never-written.jsonl", progress=False)
