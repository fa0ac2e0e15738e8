"""Tests of the MCTS search (trigon_fast.search): legality in every variant, forced moves,
finished games, determinism, threads, limits and stops, tree reuse, and strength against
simple players (fixed seeds and simulation counts: the games are deterministic)."""

import os
import signal
import threading

import numpy as np
import pytest

import trigon_fast as tf
from variant_cases import pick
from trigon_fast import _core

VARIANTS = list(pick("four", "two", "three", "teams", "solo", "two_pentobi", "three_pentobi", "four_alt",
                     "two_alt", "three_alt", "solo_small_blue").values())


def random_moves(game, n, seed):
    rng = np.random.default_rng(seed)
    for _ in range(n):
        if game.is_over:
            break
        ids = game.legal_moves.ids
        game.play(int(ids[rng.integers(len(ids))]))
    return game


def greedy_largest(game, rng):
    ids = game.legal_moves.ids
    sizes = np.array([tf.Move.from_id(int(i), game.variant.side).size for i in ids])
    best = ids[sizes == sizes.max()]
    return int(best[rng.integers(len(best))])


@pytest.mark.parametrize("variant", VARIANTS, ids=repr)
def test_search_plays_only_legal_moves_to_the_end(variant):
    game = tf.Game(variant)
    k = 0
    while not game.is_over:
        legal = set(int(i) for i in game.legal_moves.ids)
        # Both playout policies: the core's uniform one and the sampled one, move by move.
        a = tf.analyse(game, simulations=24, seed=k, playout="sampled" if k % 2 else "uniform")
        assert a.best_move.id in legal
        assert a.colour == game.turn
        assert all(m.move.id in legal for m in a.moves)
        game.play(a.best_move)  # raises on an illegal move
        k += 1
    assert k >= 10


def finished_game(seed=3):
    return random_moves(tf.Game(tf.Variant.FOUR_PLAYER), 1000, seed)


def test_finished_game_raises_value_error():
    game = finished_game()
    assert game.is_over
    with pytest.raises(tf.GameOverError):
        tf.analyse(game, simulations=10)
    with pytest.raises(ValueError, match="over"):
        tf.best_move(game, simulations=10)
    with pytest.raises(ValueError):
        _core.Searcher().run(game.position, _core.SearchParams())


def test_forced_single_move_returns_at_once():
    # Find positions where the colour to move has exactly one legal move.
    found = 0
    for seed in range(40):
        game = tf.Game(tf.Variant.FOUR_PLAYER)
        rng = np.random.default_rng(seed)
        while not game.is_over:
            ids = game.legal_moves.ids
            if len(ids) == 1:
                # A huge limit: only the forced-move shortcut makes this return.
                a = tf.analyse(game, simulations=10**9, time=600)
                assert a.forced and a.simulations == 0
                assert np.isnan(a.value).all()
                assert a.best_move.id == int(ids[0])
                # No simulation went through the move: its value is unknown, not its prior.
                (m,) = a.moves
                assert m.visits == 0 and np.isnan(m.value) and np.isnan(m.value_per_colour).all()
                assert "0 visits, value unknown" in repr(m)
                found += 1
                break
            game.play(int(ids[rng.integers(len(ids))]))
        if found >= 3:
            break
    assert found >= 3


def test_same_seed_same_search_with_one_thread():
    game = random_moves(tf.Game(tf.Variant.FOUR_PLAYER), 12, 5)
    a = tf.analyse(game, simulations=1500, seed=7)
    b = tf.analyse(game, simulations=1500, seed=7)
    assert a.best_move == b.best_move
    assert [(m.move, m.visits) for m in a.moves] == [(m.move, m.visits) for m in b.moves]
    assert [m for _, m in a.pv] == [m for _, m in b.pv]
    assert a.simulations == 1500


def test_analysis_contents():
    game = tf.Game(tf.Variant.TWO_PLAYER)
    a = tf.analyse(game, simulations=800, seed=1)
    assert sum(m.visits for m in a.moves) == 800
    assert a.moves == sorted(a.moves, key=lambda m: -m.visits)
    assert a.best_move == a.moves[0].move
    assert a.pv and a.pv[0] == (tf.Colour.BLUE, a.best_move)
    # Two players: a colour's value is its side's value.
    assert a.value[0] == pytest.approx(a.value[2]) and a.value[1] == pytest.approx(a.value[3])
    assert 0.0 <= a.value.min() and a.value.max() <= 1.0
    assert np.all(a.expected_score <= 20) and np.all(a.expected_score >= -110)
    d = a.to_dict()
    assert d["best_move"] == str(a.best_move) and len(d["moves"]) == len(a.moves)
    arr = a.arrays()
    assert arr["ids"].dtype == np.uint16 and arr["value_per_colour"].shape == (len(a.moves), 4)
    # Three players: the colour out of play is NaN.
    a3 = tf.analyse(tf.Game(tf.Variant.THREE_PLAYER), simulations=200)
    assert np.isnan(a3.value[3]) and not np.isnan(a3.value[:3]).any()


def test_repeated_short_multithreaded_searches():
    for k in range(30):
        game = random_moves(tf.Game(VARIANTS[k % len(VARIANTS)]), k * 3, k)
        if game.is_over:
            continue
        a = tf.analyse(game, simulations=300, threads=2, seed=k)
        assert game.check(a.best_move) is None
        if not a.forced:
            # Every simulation's visit is counted once on some root move (no lost updates).
            assert sum(m.visits for m in a.moves) == a.simulations == 300


def test_time_limit_and_stop_from_another_thread():
    game = tf.Game(tf.Variant.FOUR_PLAYER)
    a = tf.analyse(game, time=0.2, threads=2)
    assert a.simulations > 0 and not a.stopped
    engine = tf.Engine(time=120)
    timer = threading.Timer(0.3, engine.stop)
    timer.start()
    a = engine.analyse(game)
    timer.join()
    assert a.stopped and a.seconds < 10  # (stopped at 0.3 s, not at its 120 s limit)
    assert game.check(a.best_move) is None


def test_ctrl_c_stops_and_returns_best_so_far():
    game = tf.Game(tf.Variant.FOUR_PLAYER)
    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    a = tf.analyse(game, time=120)
    timer.join()
    assert a.interrupted and a.stopped and a.simulations > 0
    assert game.check(a.best_move) is None


def test_progress_callback_and_stop_by_callback():
    game = tf.Game(tf.Variant.FOUR_PLAYER)
    seen = []

    def cb(an):
        seen.append(an.simulations)
        assert game.check(an.best_move) is None
        return len(seen) < 3

    a = tf.analyse(game, simulations=10**7, callback=cb, callback_simulations=100)
    assert len(seen) == 3 and a.stopped and a.simulations < 10**7
    assert seen == sorted(seen)

    def bad(an):
        raise RuntimeError("callback failed")

    with pytest.raises(RuntimeError, match="callback failed"):
        tf.analyse(game, simulations=10**7, callback=bad, callback_simulations=100)


def test_tree_reuse_between_moves():
    engine = tf.Engine(simulations=2000, seed=2)
    game = tf.Game(tf.Variant.FOUR_PLAYER)
    a = engine.analyse(game)
    assert a.reused_visits == 0
    game.play(a.best_move)  # its node was searched and expanded: its subtree is kept
    b = engine.analyse(game)
    assert b.reused_visits == a.moves[0].visits
    # The reused node's visits before it was expanded went to no child.
    total = sum(m.visits for m in b.moves)
    assert b.simulations < total <= b.simulations + b.reused_visits
    # An unrelated position: no reuse.
    c = engine.analyse(random_moves(tf.Game(tf.Variant.FOUR_PLAYER), 8, 1))
    assert c.reused_visits == 0


def test_levels_and_argument_errors():
    assert [tf.search.level_simulations(k) for k in (1, 9)] == [100, 495465]
    sims = [tf.search.level_simulations(k) for k in tf.search.LEVELS]
    assert sims == sorted(sims)
    game = tf.Game(tf.Variant.FOUR_PLAYER)
    assert tf.analyse(game, level=1).simulations == 100
    for bad in (dict(level=0), dict(level=10), dict(simulations=0), dict(time=-1.0), dict(threads=0),
                dict(seed=-1), dict(simulations=10, bogus=1), dict(simulations=10, playout="x")):
        with pytest.raises(ValueError):
            tf.analyse(game, **bad)


def play_match(variant, search_colours, opponent, simulations, seed):
    """One game: the search plays `search_colours`, `opponent(game, rng)` the others."""
    game = tf.Game(variant)
    rng = np.random.default_rng(seed)
    k = 0
    while not game.is_over:
        if int(game.turn) in search_colours:
            game.play(tf.best_move(game, simulations=simulations, seed=seed * 1000 + k))
        else:
            game.play(opponent(game, rng))
        k += 1
    s = game.scores()
    ours = sum(s[c] for c in s if int(c) in search_colours)
    theirs = sum(s[c] for c in s if int(c) not in search_colours)
    return ours, theirs


def uniform_random(game, rng):
    ids = game.legal_moves.ids
    return int(ids[rng.integers(len(ids))])


@pytest.mark.parametrize("opponent", [uniform_random, greedy_largest], ids=["random", "greedy"])
def test_modest_search_beats_simple_players(opponent):
    # Two-player game, the search (200 simulations a move) plays blue and red. Deterministic:
    # fixed seeds, one thread, simulation limits.
    margins = []
    for seed in range(4):
        ours, theirs = play_match(tf.Variant.TWO_PLAYER, {0, 2}, opponent, 200, seed)
        margins.append(ours - theirs)
    assert all(m > 0 for m in margins), margins
    assert np.mean(margins) >= 15, margins


@pytest.mark.parametrize("variant", [tf.Variant.FOUR_PLAYER.with_alternate_rule(), tf.Variant.THREE_PLAYER], ids=repr)
def test_playouts_and_knobs(variant):
    game = random_moves(tf.Game(variant), 20, 4)
    for opts in (dict(playout="sampled"), dict(use_priors=False, expand_threshold=0),
                 dict(attach_prior=0.1, playout="sampled", playout_large_bias=0.5, playout_give_up=64),
                 dict(max_nodes=5000)):
        a = tf.analyse(game, simulations=150, seed=3, **opts)
        assert game.check(a.best_move) is None
        assert sum(m.visits for m in a.moves) == 150
        assert all(game.check(m) is None for _, m in a.pv[:1])


@pytest.mark.parametrize("budget", [3000, 20000])
def test_node_budget_bounds_the_tree(budget):
    # Once the budget is spent the tree stops growing and the search goes on (deeper playouts);
    # memory stays at the budget however long the search runs.
    engine = tf.Engine(max_nodes=budget, reuse_tree=False)
    game = tf.Game(tf.Variant.FOUR_PLAYER)
    a = engine.analyse(game, simulations=3000, seed=1)
    assert a.simulations == 3000 and game.check(a.best_move) is None
    assert budget * 0.5 < a.nodes <= budget
    assert engine.nodes <= budget
    b = engine.analyse(game, simulations=6000, seed=2)
    assert b.nodes <= budget and b.simulations == 6000


def test_node_budget_smaller_than_the_root_still_searches():
    # The budget always holds the root and its moves (it was an error); the tree grows no more.
    for budget in (1, 10, 2479):
        engine = tf.Engine(max_nodes=budget, reuse_tree=True)
        a = engine.analyse(tf.Game(tf.Variant.FOUR_PLAYER), simulations=300, seed=1)
        assert a.simulations == 300 and sum(m.visits for m in a.moves) == 300
        assert a.nodes == engine.nodes == 2480  # the root and its 2,478 moves (and slot 0), nothing below
    # The next move's search finds its root in the full tree, unexpanded: a fresh tree with room.
    g = tf.Game(tf.Variant.FOUR_PLAYER)
    g.play(engine.analyse(g, simulations=300, seed=1).best_move)
    a = engine.analyse(g, simulations=200, seed=1)
    assert a.simulations == 200 and a.nodes == 2 + len(g.legal_moves) == 2067
    assert all(g.check(m.move) is None for m in a.moves)


def test_a_playout_kind_out_of_range_is_refused_by_the_core():
    # pybind's enum takes any integer; the search crashed on one (found by a fuzz review).
    params = _core.SearchParams()
    params.max_simulations = 50
    for kind in (2, 7, 255):
        params.playout = _core.PlayoutKind(kind)
        with pytest.raises(ValueError, match="playout"):
            _core.Searcher().run(_core.Position(), params)


def test_analyse_names_a_game_that_is_not_one():
    for bad in (None, "q15", tf.Game().position):
        with pytest.raises(TypeError, match="game must be a Game"):
            tf.analyse(bad, simulations=10)
    with pytest.raises(ValueError, match="callback must be callable"):
        tf.analyse(tf.Game(), simulations=10, callback=5)


def test_one_engine_searched_from_two_threads_at_once():
    # Both searches ran on the one C++ tree at once: a segfault.
    import threading

    engine = tf.Engine()
    results, errors = [], []

    def work(game):
        try:
            for _ in range(3):
                results.append(engine.analyse(game, simulations=800))
        except Exception as e:  # noqa: BLE001 - any failure is the finding
            errors.append(e)

    games = [tf.Game(), tf.random_game(seed=1)]
    while len(games[1].history) > 30:
        games[1].undo()
    threads = [threading.Thread(target=work, args=(g,)) for g in games]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and len(results) == 6


def test_the_core_refuses_a_second_search_of_one_searcher():
    import threading

    searcher = _core.Searcher()
    params = _core.SearchParams()
    params.max_seconds = 1.0
    t = threading.Thread(target=lambda: searcher.run(_core.Position(), params))
    t.start()
    import time

    time.sleep(0.2)
    with pytest.raises(ValueError, match="one search at a time"):
        searcher.run(_core.Position(), params)
    with pytest.raises(ValueError, match="cleared while"):
        searcher.clear()
    searcher.stop()
    t.join()


def test_a_game_changed_during_a_search_or_solve_does_not_disturb_it():
    # The calls read the live position with the GIL released; now they take a copy first.
    g = tf.random_game(seed=0)
    while len(g.history) > 40:
        g.undo()
    before = list(g.history)
    sol = tf.solve_solo(game=g, time_limit=1, callback=lambda stats: g.undo())
    assert sol.moves and sol.game.history[:40] == before
    g2 = tf.random_game(seed=0)
    while len(g2.history) > 40:
        g2.undo()
    a = tf.analyse(g2, simulations=3000, callback=lambda an: g2.undo(), callback_simulations=200)
    assert a.best_move in tf.Game(g2.variant, [m for _, m in before]).legal_moves


def test_playout_give_up_out_of_range_is_refused_by_the_core():
    params = _core.SearchParams()
    params.max_simulations = 10
    params.playout_give_up = 2**31 - 1  # (tried 2**31 times within one simulation: Ctrl-C waited)
    with pytest.raises(ValueError, match="playout_give_up"):
        _core.Searcher().run(_core.Position(), params)


def test_engine_nodes_can_be_read_while_it_searches():
    import threading

    engine = tf.Engine()
    seen = []
    t = threading.Thread(target=lambda: engine.analyse(tf.Game(), time=1.0))
    t.start()
    while t.is_alive():
        seen.append(engine.nodes)  # the tree is swapped at the start of a search: read under a lock
    t.join()
    assert seen and max(seen) > 0 and engine.nodes >= max(seen)


@pytest.mark.parametrize("variant", [tf.Variant.TWO_PLAYER, tf.Variant.FOUR_PLAYER, tf.Variant.THREE_PLAYER],
                         ids=repr)
def test_root_move_values_are_the_movers_side_value(variant):
    # The tree's value of a root move (MoveInfo.value, backed up through side_of_colour) must be
    # the value of the side to move that the root statistics record (value_per_colour[turn]), for
    # every colour to move: a tree backed up for the wrong side of red and green passed every
    # other test (the strength test has the search play blue and red together).
    game = tf.Game(variant)
    for _ in range(len(variant.colours)):
        turn = int(game.turn)
        a = tf.analyse(game, simulations=400, seed=5, threads=1)
        for m in a.moves[:3]:  # the most visited
            assert m.visits >= 1, (turn, m.visits)
            assert m.value == pytest.approx(m.value_per_colour[turn], abs=0.02), (turn, m.value, list(m.value_per_colour))
        game.play(a.best_move)


def test_callback_options_are_checked_without_a_callback():
    g = tf.Game()
    for bad in (dict(callback_every=0), dict(callback_every=float("nan")), dict(callback_simulations=0)):
        with pytest.raises(ValueError, match="callback_"):
            tf.analyse(g, simulations=5, **bad)
