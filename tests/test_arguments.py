"""Numeric arguments of the public API: a wrong one is a ValueError naming it, before any work.

Integers must be integers (3.7 and "5" are mistakes, not 3 and 5), within what the core takes;
seconds finite and positive. Before this was checked in one place, such values were truncated,
accepted as strings, or reached pybind as an "incompatible function arguments" TypeError or an
OverflowError.
"""

import numpy as np
import pytest

import trigon_fast as tf
from trigon_fast import batch

NOT_AN_INTEGER = [3.7, "5", None, True, float("inf"), float("nan"), b"1", [1]]
NONE_MEANS_DEFAULT = {"simulations", "level", "callback_simulations", "time", "callback_every"}


def _bad(name, values):
    return [v for v in values if not (v is None and name in NONE_MEANS_DEFAULT)]


def _endgame():
    g = tf.random_game(seed=2)
    while len(g.history) > 60:
        g.pop()
    return g


G = _endgame()
R = "xx\n"  # a region picture: two triangles

# (name, call taking the value, values out of range)
CASES = [
    ("seed", lambda v: tf.random_game(seed=v), [-1, 2**64]),
    ("games", lambda v: tf.random_games_stats(games=v), [-1, 2**70]),
    ("seed", lambda v: tf.random_games_stats(games=1, seed=v), [-1, 2**64]),
    ("seed", lambda v: tf.solve_solo(seed=v, time_limit=1), [-1, 2**64]),
    ("threads", lambda v: tf.solve_solo(threads=v, time_limit=1), [0, -1, 257, 2**70]),
    ("count", lambda v: tf.solve_solo(count=v, time_limit=1), [0, -1, 2**31]),
    ("restart_nodes", lambda v: tf.solve_solo(restart_nodes=v, time_limit=1), [-1, 2**70]),
    ("threads", lambda v: tf.can_place_all(G, threads=v, time_limit=0.1), [0, 65, 2**70]),
    ("node_limit", lambda v: tf.can_place_all(G, node_limit=v, time_limit=0.1), [-1, 2**62]),
    ("node_limit", lambda v: tf.max_placeable(G, 0, node_limit=v, time_limit=0.1), [-1, 2**62]),
    ("max_solutions", lambda v: tf.solve_pattern(R, max_solutions=v), [-1, 2**70]),
    ("threads", lambda v: tf.solve_pattern(R, threads=v), [0, 65]),
    ("side", lambda v: tf.solve_pattern(R, side=v), [7, 10, 2**70]),
    ("side", lambda v: tf.parse_region(R, side=v), [7, 10]),
    ("simulations", lambda v: tf.best_move(G, simulations=v), [0, -1, 2**70]),
    ("threads", lambda v: tf.Engine(threads=v), [0, 257]),
    ("seed", lambda v: tf.Engine(seed=v), [-1, 2**64]),
    ("level", lambda v: tf.best_move(G, level=v), [0, 10]),
    ("callback_simulations", lambda v: tf.analyse(G, simulations=20, callback=lambda a: None,
                                                   callback_simulations=v), [0, -1]),
    ("max_nodes", lambda v: tf.Engine(max_nodes=v), [0, 2**32, 2**70]),
    ("expand_threshold", lambda v: tf.Engine(expand_threshold=v), [-1, 2**31]),
    ("playout_give_up", lambda v: tf.Engine(playout_give_up=v), [-1]),
    ("games", lambda v: batch.play_games(games=v), [-1, 2**70]),
    ("seed", lambda v: batch.play_games(games=1, seed=v), [-1, 2**64]),
    ("threads", lambda v: batch.play_games(games=1, threads=v), [-1, 257, 2**70]),
    ("level", lambda v: batch.play_games(games=1, policy="search", level=v), [0, 10]),
    ("games_per_task", lambda v: batch.self_play(games=1, games_per_task=v, progress=False), [0]),
]


@pytest.mark.parametrize("name,call,out_of_range", CASES, ids=[f"{i}-{c[0]}" for i, c in enumerate(CASES)])
def test_a_bad_integer_is_a_value_error_naming_it(name, call, out_of_range):
    for v in _bad(name, NOT_AN_INTEGER + out_of_range):
        with pytest.raises(ValueError, match=name):
            call(v)


# (name, call taking the value)
SECONDS = [
    ("time_limit", lambda v: tf.solve_solo(time_limit=v)),
    ("time_limit", lambda v: tf.can_place_all(G, time_limit=v)),
    ("time_limit", lambda v: tf.max_placeable(G, 0, time_limit=v)),
    ("time_limit", lambda v: tf.solve_pattern(R, time_limit=v)),
    ("time", lambda v: tf.best_move(G, time=v)),
    ("time", lambda v: tf.Engine(time=v)),
    ("callback_every", lambda v: tf.analyse(G, simulations=20, callback=lambda a: None, callback_every=v)),
    ("time_limit", lambda v: batch.solve_seeds([1], time_limit=v, progress=False)),
]


@pytest.mark.parametrize("name,call", SECONDS, ids=[f"{i}-{c[0]}" for i, c in enumerate(SECONDS)])
def test_a_bad_time_is_a_value_error_naming_it(name, call):
    # (10**400: an int too big for a float raised OverflowError from the finiteness check)
    for v in _bad(name, [0, -1, float("nan"), float("inf"), "1", None, True, 10**400, -10**400]):
        with pytest.raises(ValueError, match=name):
            call(v)


@pytest.mark.parametrize("name,value", [
    ("exploration", float("nan")), ("exploration", -0.1), ("exploration", "1"), ("prior_weight", -2),
    ("score_weight", 1.5), ("playout_large_bias", 7), ("attach_prior", float("inf")),
    ("use_priors", 3), ("reuse_tree", "no"), ("use_priors", None),
])
def test_a_bad_search_knob_is_a_value_error_naming_it(name, value):
    with pytest.raises(ValueError, match=name):
        tf.Engine(**{name: value})


def test_numpy_integers_and_edge_values_are_accepted():
    # Values a script computes with numpy, and the ends of each range, go through.
    assert tf.random_game(seed=np.int64(3)).history == tf.random_game(seed=3).history
    assert tf.random_game(seed=2**64 - 1).is_over
    assert tf.solve_solo(seed=np.uint32(1), threads=np.int8(1), time_limit=30).complete
    assert tf.solve_pattern(R, max_solutions=0, all_solutions=True, pieces=["2"]).count >= 1
    m = tf.Engine(simulations=np.int32(30), seed=np.int64(0), max_nodes=np.int64(10_000),
                  exploration=np.float32(0.1), use_priors=np.bool_(False)).best_move(G)
    assert m in G.legal_moves
    assert batch.play_games(games=np.int16(2), seed=np.uint64(2**64 - 2), threads=1).lengths.shape == (2,)


@pytest.mark.parametrize("colours,expected", [
    (["red"], (2,)), ("Green", (3,)), (tf.Colour.BLUE, (0,)), (1, (1,)), ([np.int64(0), "yellow"], (0, 1)),
    ((c for c in [3, 2]), (2, 3)),
])
def test_solo_colours_by_name_index_or_colour(colours, expected):
    assert tf.Variant.solo(colours).colours_override == expected


@pytest.mark.parametrize("colours", [["purple"], [1.5], [4], [-1], [True], [], [0, 0], ["red", 2], [None]])
def test_bad_solo_colours_are_value_errors(colours):
    with pytest.raises(ValueError, match="colour"):
        tf.Variant.solo(colours)


def test_colour_parse():
    assert tf.Colour.parse(" blue ") is tf.Colour.BLUE
    assert tf.Colour.parse(np.uint8(2)) is tf.Colour.RED
    for bad in ["", "1x", 4, -1, 2.0, None, True]:
        with pytest.raises(ValueError):
            tf.Colour.parse(bad)


@pytest.mark.parametrize("side", [8.0, 9.0, True, 10, "8"])
def test_bad_solo_side_is_a_value_error(side):
    with pytest.raises(ValueError, match="side"):
        tf.Variant.solo(side=side)
    assert tf.Variant.solo(side=np.int64(8)).side == 8


def test_game_methods_take_colour_names():
    g = tf.random_game(seed=4)
    assert g.pieces_left("red") == g.pieces_left(tf.Colour.RED) == g.pieces_left(2)
    assert g.score("Green") == g.score(3)
    for bad in ["purple", 4, 2.0, None, True]:
        with pytest.raises(tf.InvalidMoveError, match="colour"):
            g.pieces_left(bad)


@pytest.mark.parametrize("side", [8.0, 9.0, True, 10, "8", None])
def test_bad_board_side_is_a_value_error(side):
    # 8.0 passed the old `side in (8, 9)` test and reached pybind as a TypeError
    with pytest.raises(ValueError, match="board side"):
        tf.board(side)
    with pytest.raises(ValueError, match="board side"):
        tf.Move(0, side)
    with pytest.raises(ValueError, match="board side"):
        tf.Move.from_str("r15", side)


@pytest.mark.parametrize("pid", [5.0, True, "5", None])
def test_bad_placement_id_is_a_value_error(pid):
    with pytest.raises(tf.InvalidMoveError, match="integer"):
        tf.Move(pid)


def test_numpy_board_sides_and_ids():
    m = tf.Move(np.int64(5), np.int8(8))
    assert m == tf.Move(5, 8) and type(m.side) is int and type(m.id) is int
    assert tf.board(np.uint8(9)).side == 9


# -- switches: True or False only ("no" is true in Python: taken as it is, it turned a rule on) -------
@pytest.mark.parametrize("name,call", [
    ("alternate_rule", lambda v: tf.Variant.solo(alternate_rule=v)),
    ("alternate_rule", lambda v: tf.Variant("four_player", alternate_rule=v)),
    ("pentobi_compatible", lambda v: tf.Variant("two_player", pentobi_compatible=v)),
    ("alternate_rule", lambda v: tf.solve_solo(alternate_rule=v, time_limit=1)),
    ("triangle_last", lambda v: tf.solve_solo(triangle_last=v, time_limit=1)),
    ("triangle_last", lambda v: tf.iter_solutions(triangle_last=v)),
    ("heuristic", lambda v: tf.can_place_all(G, heuristic=v, time_limit=0.1)),
    ("heuristic", lambda v: tf.max_placeable(G, 0, heuristic=v, time_limit=0.1)),
    ("all_solutions", lambda v: tf.solve_pattern(R, all_solutions=v)),
    ("unique", lambda v: tf.solve_pattern(R, unique=v)),
    ("observations", lambda v: batch.play_games(games=1, observations=v)),
])
@pytest.mark.parametrize("value", ["no", "yes", 0, 1, None, 0.0])
def test_a_switch_that_is_not_true_or_false_is_a_value_error(name, call, value):
    with pytest.raises(ValueError, match=f"{name} must be True or False"):
        call(value)


def test_switches_take_numpy_bools():
    assert tf.Variant.solo(alternate_rule=np.bool_(True)).alternate_rule is True
    assert tf.solve_pattern(R, all_solutions=np.bool_(True), pieces=["2"]).count >= 1


def test_range_errors_say_which_end():
    with pytest.raises(ValueError, match="simulations must be at most"):
        tf.best_move(G, simulations=2**63)
    with pytest.raises(ValueError, match="simulations must be >= 1"):
        tf.best_move(G, simulations=0)


def test_iter_solutions_checks_its_options_at_the_call():
    for kwargs in (dict(threads=0), dict(time_limit=-1), dict(batch=0), dict(seed=-1),
                   dict(start_cells={"blue": "a1"}), dict(colours=["purple"])):
        with pytest.raises(ValueError):
            tf.iter_solutions(**kwargs)  # no next(): the generator is not started
    with pytest.raises(TypeError):
        tf.iter_solutions(game="not a game")


def test_piece_lists_as_a_comma_separated_string():
    pic = "  xxxxx\n xxxxxxx\n xxxxxxx\n  xxxxx\n"
    listed = tf.solve_pattern(pic, pieces=["V", "P6", "F", "A6"])
    assert tf.solve_pattern(pic, pieces="V, P6,F,A6").count == listed.count
    with pytest.raises(ValueError, match="unknown piece '12'"):
        tf.solve_pattern("r15,s15,s16", pieces="12")  # one name, not the pieces '1' and '2'


def test_colours_not_in_play_have_no_score_or_pieces():
    g3 = tf.Game(tf.Variant.THREE_PLAYER)
    for call in (lambda: g3.score("green"), lambda: g3.pieces_left(3)):
        with pytest.raises(tf.ColourError, match="green takes no part"):
            call()
    assert g3.is_out("green")  # (documented: a colour that takes no part cannot move)
    with pytest.raises(tf.InvalidMoveError):  # a ColourError is one
        g3.score("purple")


def test_a_start_cell_for_a_colour_that_has_started_is_refused():
    g = tf.Game(tf.Variant.FOUR_PLAYER, ["q15,r15,p16,q16,o17,p17"])  # blue started on r15
    with pytest.raises(tf.SolverError, match="blue has placed its first piece"):
        tf.solve_solo(game=g, start_cells={"blue": "z7"}, time_limit=1)


def test_search_option_typos_get_a_hint():
    with pytest.raises(ValueError, match="time_limit; did you mean time"):
        tf.analyse(tf.Game(), time_limit=1)
    with pytest.raises(ValueError, match="did you mean exploration"):
        tf.Engine(exploraton=1.0)


@pytest.mark.parametrize("make, name, where", [
    (lambda: tf.Engine(callback_every=0.1), "callback_every", "Engine.analyse and best_move"),
    (lambda: tf.Engine(callback=print), "callback", "Engine.analyse and best_move"),
    (lambda: tf.Engine(callback_simulations=5), "callback_simulations", "Engine.analyse and best_move"),
    (lambda: tf.Engine(simulations=5).analyse(tf.Game(), playout="sampled"), "playout", "Engine(playout=...)"),
])
def test_an_argument_given_to_the_wrong_call_says_where_it_goes(make, name, where):
    # It used to read "unknown search option(s): callback_every; did you mean callback_every?".
    with pytest.raises(ValueError) as info:
        make()
    assert name in str(info.value) and where in str(info.value)
    assert "did you mean" not in str(info.value)


def test_lattice_coordinates_out_of_range_are_refused_by_the_core():
    from trigon_fast import _core

    with pytest.raises(ValueError, match="lattice coordinates"):
        _core.canonical_key([(2**31 - 1, 2**31 - 1, 0), (0, 0, 1)])
    for a, b in ((-2**31, 0), (0, -2**31), (-2**20 - 1, 0)):  # (abs(INT_MIN) is INT_MIN: it passed)
        with pytest.raises(ValueError, match="lattice coordinates"):
            _core.canonical_key([(a, b, 0)])
    assert _core.canonical_key([(5, 7, 0)]) == _core.canonical_key([(0, 0, 0)])


def test_a_searcher_refuses_a_node_budget_past_its_indices_and_keeps_its_tree():
    # A budget too big to allocate failed after the old tree was dropped but still described:
    # the next search of the same position read a tree with no nodes (a segfault).
    from trigon_fast import _core

    pos, searcher = _core.Position(), _core.Searcher()
    ok = _core.SearchParams()
    ok.max_simulations = 50
    searcher.run(pos, ok)
    for budget in (0, 2**32 - 1, 2**64 - 1):
        bad = _core.SearchParams()
        bad.max_simulations, bad.reuse_tree, bad.max_nodes = 50, False, budget
        with pytest.raises(ValueError, match="max_nodes"):
            searcher.run(pos, bad)
    analysis, _ = searcher.run(pos, ok)
    assert analysis.simulations == 50 and analysis.reused_visits > 0
    with pytest.raises(ValueError, match="max_nodes"):
        tf.Engine(max_nodes=2**32 - 1)


@pytest.mark.parametrize("call", [
    lambda x: tf.write_blksgf(x),
    lambda x: tf.Record.from_game(x),
    lambda x: batch.summarise_game(x),
    lambda x: tf.render.game_svg(x),
    lambda x: tf.render.pieces_left_svg(x),
    lambda x: tf.render.solution_svg(x),
    lambda x: tf.can_place_all(x),
    lambda x: tf.max_placeable(x, 0),
    lambda x: tf.analyse(x),
    lambda x: tf.best_move(x),
])
def test_another_type_where_a_game_goes_is_a_type_error(call):
    # These raised AttributeError ('str' object has no attribute '__dict__' / 'board' / 'game');
    # the README: "an argument of another type altogether ... is a TypeError".
    for wrong in ("game.blksgf", None, tf.Variant.FOUR_PLAYER):
        with pytest.raises(TypeError, match=type(wrong).__name__):
            call(wrong)


@pytest.mark.parametrize("call", [lambda x: tf.solve_solo(game=x, time_limit=1), lambda x: tf.iter_solutions(game=x)])
def test_another_type_where_a_solo_game_goes_is_a_type_error(call):
    # (None is no game there: the empty board of the variant asked for)
    for wrong in ("game.blksgf", tf.Variant.FOUR_PLAYER, 5):
        with pytest.raises(TypeError, match=f"game must be a Game, not {type(wrong).__name__}"):
            call(wrong)
