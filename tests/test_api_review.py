"""Findings of a read-only review of the Game, Move, Variant, search, batch and render APIs
(2026-12-06), each the behaviour a user relies on: one policy for inputs, colours that take no
part, values that are not figures, copies that are copies, errors at the call."""

import concurrent.futures as cf
import copy
import json
import pickle

import numpy as np
import pytest

import trigon_fast as tf
from trigon_fast import render
from trigon_fast.batch import BatchError, analyse as batch_analyse, play_games, self_play, solve_seeds, summarise_game

V = tf.Variant


# -- moves: integers (numpy's too), never strings, floats or bools ----------------------------

@pytest.mark.parametrize("make", [
    lambda: tf.Move.from_id("5"),
    lambda: tf.Move.from_id(5.7),
    lambda: tf.Move.from_cells([100.5]),
    lambda: tf.Move.from_cells("r15"),
    lambda: tf.Move.from_piece("1", 0, 5.9),
    lambda: tf.Move.from_piece("1", True, "r15"),
    lambda: tf.Move.from_piece("1", 0.0, "r15"),
    lambda: tf.Move.from_piece("1", 0, "zz99"),
    lambda: tf.Move.from_piece("1", 0, 486),
])
def test_move_inputs_are_refused_not_rounded(make):
    with pytest.raises(tf.InvalidMoveError):
        make()


def test_move_inputs_take_numpy_integers():
    r15 = tf.Move.from_str("r15")
    assert tf.Move.from_piece(np.int64(21), np.int64(0), "r15") == r15
    assert tf.Move.from_piece("1", 0, np.int16(r15.cell_indices[0])) == r15
    assert tf.Move.from_cells([np.int32(r15.cell_indices[0])]) == r15
    assert tf.Move.from_id(np.uint16(r15.id)) == r15


def test_a_game_is_given_a_list_of_moves():
    with pytest.raises(TypeError, match="list of moves"):
        tf.Game(V.FOUR_PLAYER, "r15")
    assert tf.Game(V.FOUR_PLAYER, ["q15,r15,p16,q16,o17,p17"]).turn == tf.Colour.YELLOW


# -- the legal-move view's array is not for writing -------------------------------------------

def test_legal_move_ids_are_read_only():
    g = tf.Game()
    lm = g.legal_moves
    with pytest.raises(ValueError):
        lm.ids[:] = 0
    assert tf.Move(0) not in lm and len(set(lm)) == len(lm) == 2478
    mine = lm.ids.copy()
    np.random.default_rng(1).shuffle(mine)  # a copy is the caller's
    assert sorted(mine) == sorted(lm.ids)


# -- colours that take no part: one error everywhere ------------------------------------------

def test_a_colour_not_in_the_game_is_a_colour_error():
    g = tf.Game(V.THREE_PLAYER)  # green takes no part
    m = next(iter(g.legal_moves))
    before = (g.history, g.turn, repr(g))
    for call in (lambda: g.play(m, colour="green"), lambda: g.setup("green", m), lambda: g.check(m, colour=3),
                 lambda: g.set_turn("green"), lambda: g.score("green"), lambda: g.pieces_left(3),
                 lambda: g.setup("blue", m, to_move="green")):
        with pytest.raises(tf.ColourError, match="takes no part"):
            call()
    assert (g.history, g.turn, repr(g)) == before
    # Questions with a true answer for it keep answering: it is out, it has no moves.
    assert g.is_out("green") and len(g.legal_moves_of("green")) == 0
    assert repr(g.legal_moves_of("green")) == "<LegalMoves (0) of green>"
    assert repr(g.legal_moves).endswith(" of blue>")


def test_player_of_takes_colour_names():
    assert V.TWO_PLAYER.player_of("red") == V.TWO_PLAYER.player_of(2) == 0
    assert V.TWO_PLAYER.player_of(tf.Colour.GREEN) == 1
    with pytest.raises(ValueError, match="does not take part"):
        V.THREE_PLAYER.player_of("green")


# -- equal rules, equal variants --------------------------------------------------------------

def test_a_kinds_name_is_taken_wherever_a_variant_is(tmp_path):
    # "two_player" means Variant("two_player") at every entry point; other text and other types
    # are refused with the kinds named, in each module's own error class.
    assert tf.Game("two_player").variant == tf.Variant.TWO_PLAYER
    first = next(iter(tf.Game(tf.Variant.THREE_PLAYER).legal_moves))
    assert tf.Game("three_player", [first]).history == tf.Game(tf.Variant.THREE_PLAYER, [first]).history
    assert tf.random_game("teams", 3) == tf.random_game(tf.Variant.TEAMS, 3)
    assert tf.random_games_stats("solo", games=2)["games"] == 2
    assert play_games("two_player", 2).variant == tf.Variant.TWO_PLAYER
    assert tf.solve_solo("three_player", time_limit=5).game.variant == tf.Variant.THREE_PLAYER
    assert next(iter(tf.iter_solutions("solo", time_limit=5))).complete
    summary = self_play("two_player", 2, tmp_path / "sp.jsonl", progress=False, executor=cf.ThreadPoolExecutor(1))
    assert summary.ok and summary.results == 2 and json.loads((tmp_path / "sp.jsonl").read_text().splitlines()[0])["moves"]
    for bad, error in (("Two_Player", ValueError), ("four", ValueError), (4, TypeError), (None, TypeError)):
        with pytest.raises(error, match="unknown variant|variant must be a Variant or a kind's name"):
            tf.Game(bad)
    with pytest.raises(ValueError, match="unknown variant 'duo'"):
        tf.random_game("duo")
    with pytest.raises(tf.SolverError, match="unknown variant 'teams2'"):
        tf.solve_solo("teams2")
    with pytest.raises(tf.SolverError, match="not list"):
        tf.solve_solo([])
    g = tf.Game()
    with pytest.raises(ValueError, match="not the start game's"):
        tf.random_game("two_player", start=g)
    assert tf.random_game("four_player", start=g).variant == tf.Variant.FOUR_PLAYER


def test_variants_with_the_same_rules_are_equal():
    pairs = [(V.solo([0, 1, 2, 3]), V.SOLO), (V.solo(["blue", "yellow", "red"], side=8), V.solo(side=8)),
             (V("four_player", pentobi_compatible=True), V.FOUR_PLAYER),
             (V("teams", pentobi_compatible=True), V.TEAMS), (V("solo", pentobi_compatible=True), V.SOLO)]
    for a, b in pairs:
        assert a == b and hash(a) == hash(b) and repr(a) == repr(b)
        assert eval(repr(a), {"Variant": V, "Colour": tf.Colour}) == a
        assert tf.Game(a) == tf.Game(b)
    # Where the option changes a rule, it stays.
    assert V("two_player", pentobi_compatible=True) != V.TWO_PLAYER
    assert V.solo([0, 1, 2]) != V.solo() and V.solo([0, 1, 2]).colours == (0, 1, 2)
    # A start game of an equal variant is accepted.
    b = play_games(V.solo([0, 1, 2, 3]), games=1, start=tf.Game(V.SOLO))
    assert b.lengths[0] > 0


# -- search: figures that are not there are not invented ---------------------------------------

def _forced_position():
    g = tf.random_game(seed=1)
    while True:
        g.undo()
        if len(g.legal_moves) == 1:
            return g


def test_forced_move_analysis():
    g = _forced_position()
    a = tf.analyse(g, simulations=500)
    assert a.forced and a.simulations == 0
    (m,) = a.moves
    assert np.isnan(m.value) and np.isnan(m.value_per_colour).all() and np.isnan(m.score_per_colour).all()
    assert a.pv == [(a.colour, a.best_move)]  # the line is the move itself
    d = a.to_dict()
    json.dumps(d, allow_nan=False)  # strict JSON: None where there is no figure
    assert d["value"] == [None] * 4 and d["moves"][0]["value"] is None


def test_analysis_to_dict_is_strict_json():
    a = tf.analyse(tf.Game(V.THREE_PLAYER), simulations=60, seed=2)
    d = json.loads(json.dumps(a.to_dict(), allow_nan=False))
    assert d["value"][3] is None and all(v is not None for v in d["value"][:3])
    assert all(mv["value_per_colour"][3] is None for mv in d["moves"])


def test_analyses_compare_without_raising():
    a = tf.analyse(tf.Game(), simulations=50, seed=1)
    b = pickle.loads(pickle.dumps(a))
    assert a == a and a != b and a.moves[0] == a.moves[0]  # identity: numpy fields have no plain ==
    assert [(m.move, m.visits) for m in a.moves] == [(m.move, m.visits) for m in b.moves]


def test_engine_takes_the_knobs_per_search():
    g = tf.Game()
    e = tf.Engine(simulations=40, seed=1)
    a = e.analyse(g, exploration=0.0, simulations=80)
    assert a.simulations == 80 and e.best_move(g, exploration=3.0, simulations=20) in g.legal_moves
    with pytest.raises(ValueError, match="did you mean simulations"):
        e.best_move(g, sims=10)
    with pytest.raises(ValueError, match="exploration"):
        e.analyse(g, exploration=-1.0)
    with pytest.raises(ValueError, match="fresh tree"):
        tf.analyse(g, simulations=10, reuse_tree=True)


def test_ctrl_c_inside_the_callback_returns_the_analysis():
    calls = []

    def interrupted(analysis):
        calls.append(analysis)
        raise KeyboardInterrupt  # as a Ctrl-C landing while the callback runs

    a = tf.analyse(tf.Game(), time=30, callback=interrupted, callback_simulations=100)
    assert a.interrupted and a.stopped and len(calls) == 1 and a.simulations < 10_000
    assert a.best_move in tf.Game().legal_moves


def test_engine_copies_have_the_settings_and_a_tree_of_their_own():
    e = tf.Engine(simulations=100, seed=3, exploration=0.7, reuse_tree=True)
    fresh = repr(e)
    expected = tf.Engine(simulations=100, seed=3, exploration=0.7).best_move(tf.Game())
    for other in (copy.copy(e), copy.deepcopy(e), pickle.loads(pickle.dumps(e))):
        e.analyse(tf.Game())
        assert other.nodes == 0 and e.nodes > 0 and repr(other) == fresh
        assert other.analyse(tf.Game()).best_move == expected
        e.clear()


# -- batch: bad options fail at the call; setups are not moves --------------------------------

def test_batch_refuses_bad_variants_and_options_at_the_call(tmp_path):
    out = tmp_path / "sp.jsonl"
    with pytest.raises(BatchError, match="unknown variant 'four'; expected a Variant or one of four_player"):
        self_play("four", 30, out, progress=False, executor=cf.ThreadPoolExecutor(1))
    assert not out.exists()
    with pytest.raises(BatchError, match="variant must be a Variant or a kind's name, not int"):
        solve_seeds([1], tmp_path / "s.jsonl", variant=4, progress=False)
    with pytest.raises(BatchError, match="unknown solver option 'time'"):
        solve_seeds([1], tmp_path / "s.jsonl", time=1.0, progress=False)
    with pytest.raises(BatchError, match="games"):
        play_games(games=2**62 - 1)


def test_random_games_stats_score_only_the_colours_in_play():
    stats = tf.random_games_stats(V.THREE_PLAYER, games=20, seed=1)
    batch = play_games(V.THREE_PLAYER, games=20, seed=1, threads=1)
    assert stats["score_sum"][3] == 0
    assert list(stats["score_sum"]) == [int(batch.scores[:, c].sum()) for c in range(4)]
    red = tf.random_games_stats(V.solo(["red"]), games=5, seed=1)["score_sum"]
    assert red[0] == red[1] == red[3] == 0 and red[2] != 0


def test_summarise_game_leaves_setups_out(tmp_path):
    g = tf.Game()
    g.setup("blue", "a9", to_move="yellow")  # off every start cell: legal only as a setup
    first = next(iter(g.legal_moves))
    mobility = len(g.legal_moves)
    g.play(first)
    s = summarise_game(g)
    assert s["length"] == 1 and s["mobility"] == [mobility]
    path = tmp_path / "setup.blksgf"
    g.to_blksgf(path)
    run = batch_analyse([str(path)], tmp_path / "an.jsonl", progress=False, executor=cf.ThreadPoolExecutor(1))
    assert run.ok, run.failed


def test_summarise_game_counts_mobility_as_a_replay_would():
    g = tf.random_game(V.FOUR_PLAYER, seed=4)
    s = summarise_game(g)
    replay = tf.Game()
    expected = []
    for _, m in g.history:
        expected.append(len(replay.legal_moves))
        replay.play(m)
    assert s["mobility"] == expected and s["length"] == len(g.history)


# -- render: sizes checked, masks taken -------------------------------------------------------

def test_pieces_left_svg_checks_the_cell_size():
    for bad in (float("nan"), -5, 0, "12"):
        with pytest.raises(ValueError, match="cell size"):
            render.pieces_left_svg(tf.Game(), cell=bad)


def test_highlight_takes_numpy_indices_and_masks():
    g = tf.Game()
    plain = render.game_svg(g)
    by_list = render.game_svg(g, highlight=[1, 2])
    assert by_list != plain
    assert render.game_svg(g, highlight=np.array([1, 2])) == by_list
    mask = np.zeros(g.board.num_cells, dtype=bool)
    mask[[1, 2]] = True
    assert render.game_svg(g, highlight=mask) == by_list
    with pytest.raises(ValueError, match="one entry per cell"):
        render.game_svg(g, highlight=np.zeros(10, dtype=bool))
    assert render.game_svg(g, highlight=np.zeros(0, dtype=np.int64)) == plain


# -- one encoder for any game -----------------------------------------------------------------

@pytest.mark.parametrize("variant", [V.FOUR_PLAYER, V.THREE_PLAYER, V.TWO_PLAYER.with_alternate_rule()])
def test_game_observe_is_the_environments_observation(variant):
    from trigon_fast import _core

    batch = play_games(variant, games=2, seed=7, threads=1, observations=True)
    for i in range(2):
        g = tf.Game(variant)
        state = _core.EnvState(g.position)
        for k in range(int(batch.lengths[i])):
            c = int(batch.colours[i, k])
            obs = g.observe()
            assert g.turn == c
            assert np.array_equal(obs["observation"], batch.planes[i, k]) and np.array_equal(obs["pieces_left"], batch.pieces[i, k])
            for other in variant.colours:  # any colour, as the environment observes every agent
                planes, pieces, mask, _ = state.observe(int(other))
                mine = g.observe(other)
                assert np.array_equal(mine["observation"], planes) and np.array_equal(mine["pieces_left"], pieces)
                assert np.array_equal(mine["action_mask"], mask) and mine["action_mask"].dtype == np.int8
            move = int(batch.moves[i, k])
            g.play(move)
            state.play(move)
        assert g.is_over
        with pytest.raises(tf.GameOverError, match="name the colour"):
            g.observe()
        assert g.observe(variant.colours[0])["action_mask"].sum() == 0
    with pytest.raises(tf.ColourError):
        tf.Game(V.THREE_PLAYER).observe("green")


def test_diagram_marks_only_start_cells_still_open_and_names_double_columns():
    def plus_cells(g):
        b = g.board
        lines = g.diagram().splitlines()
        return sorted(b.cell_name(b.cell_at(x - 3, b.height - int(line[:2])))
                      for line in lines if line[:2].strip().isdigit() for x, ch in enumerate(line) if ch == "+")

    g = tf.Game(V.THREE_PLAYER)
    assert len(plus_cells(g)) == 6
    g.play(next(m for m in g.legal_moves if "p14" in m.cells))
    assert plus_cells(g) == ["h6", "x6"]  # every other start cell: yellow and red start there
    four = tf.random_game(V.FOUR_PLAYER, seed=1)
    assert plus_cells(four) == []  # every colour has started
    ruler = four.diagram().splitlines()[-2:]
    columns = ["".join(pair).strip() for pair in zip(ruler[0].ljust(len(ruler[1])), ruler[1])][3:]
    assert len(columns) == 35 and columns[:3] == ["a", "b", "c"] and columns[25:29] == ["z", "aa", "ab", "ac"]
    assert columns[-1] == "ai" and four.board.parse_cell("ai10") >= 0  # the names cells have


def test_variant_name_is_the_records_game_name():
    for v in (V.FOUR_PLAYER, V.TWO_PLAYER, V.THREE_PLAYER, V.TEAMS, V.SOLO, V.solo(side=8), V.solo([0, 2], side=8)):
        assert tf.Record.from_game(tf.Game(v)).root.get("GM") == v.name
    assert V.solo(side=8).name == "Blokus Trigon Three-Player"


def test_ctrl_c_while_solutions_become_games_keeps_those_built(monkeypatch):
    from trigon_fast import solver

    real, calls = solver._build, []

    def build(*args):
        calls.append(1)
        if len(calls) == 3:  # as a Ctrl-C landing in the third conversion
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(solver, "_build", build)
    # (solutions become Solutions as they are found: the Ctrl-C ends the search there, and those
    # found but not yet made are made after it)
    sols = tf.solve_solo(seed=1, count=5, time_limit=20)
    assert 2 <= len(sols) < 5 and all(s.complete and s.interrupted for s in sols)
    calls.clear()
    it = tf.iter_solutions(seed=1, batch=5, time_limit=20)
    got = list(it)
    assert it.interrupted and 2 <= len(got) < 5 and repr(it) == f"<SolutionIterator {len(got)} found, interrupted>"


def test_pattern_diagram_index_is_checked_as_every_count():
    r = tf.solve_pattern("  xxxxx\n xxxxxxx\n xxxxxxx\n  xxxxx", pieces=["V", "P6", "F", "A6"], all_solutions=True)
    assert len(r.solutions) == 24 and r.diagram(-1) == r.diagram(23) != r.diagram(0)
    for bad in (24, -25, 3.7, "5", None, True):
        with pytest.raises(tf.SolverError, match="solution index") as e:
            r.diagram(bad)
        assert isinstance(e.value, IndexError)  # as a list's index


def test_setup_indices_tell_setups_from_moves_and_replay_the_history():
    # A record with setup placements around its moves: history holds both, setup_indices says
    # which are setups, and replaying with setup()/play() by it gives the same position.
    g = tf.Game(tf.Variant.FOUR_PLAYER)
    g.setup("yellow", "r15")
    g.play("r4")
    g.setup("green", "a9")
    g.play(next(iter(g.legal_moves)))
    assert g.setup_indices == [0, 2]
    assert len(g.history) == 4 and g.setup_indices == [i for i in range(4) if i not in g._move_indices()]
    back = tf.Game(tf.Variant.FOUR_PLAYER)
    for i, (c, m) in enumerate(g.history):
        if i in g.setup_indices:
            back.setup(c, m)
        else:
            back.play(m)
    assert back == g
    g.undo()
    g.undo()
    assert g.setup_indices == [0]
    assert tf.Game.from_blksgf(g.to_blksgf()).setup_indices == [0]


def test_ctrl_c_while_a_solution_found_during_the_search_becomes_a_game(monkeypatch):
    # count= makes games of the solutions while the search runs: a Ctrl-C landing there ends the
    # search as one during it does, the solutions found kept.
    from trigon_fast import solver

    real, calls = solver._replay, []

    def replay(*args):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(solver, "_replay", replay)
    sols = tf.solve_solo(seed=1, count=10**6, time_limit=20)
    assert len(sols) >= 2 and all(s.complete and s.interrupted for s in sols)
    assert sols[0].stats.seconds < 10  # ended at the Ctrl-C, not at the time limit
