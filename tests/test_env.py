"""The PettingZoo environment: PettingZoo's own API test per variant, masks and planes against the
rules core's generator, rewards, replays of batched games."""

import random
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test  # noqa: E402

import trigon_fast as tf  # noqa: E402
from optional import require_png  # noqa: E402
from variant_cases import pick  # noqa: E402
from trigon_fast import _core  # noqa: E402
from trigon_fast.env import TrigonEnv, agent_name, env as wrapped_env  # noqa: E402

VARIANTS = pick("four", "four_alt", "two", "two_pentobi", "three", "teams", "solo", "solo_small_blue_red")

# Every dict-observation environment gets these two (PettingZoo exempts its own by name only); a
# finished agent's mask is all zeros by nature.
_DICT_OBS_WARNINGS = [
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be",
    "Action mask numpy array is all zeros",
]


def _filtered_api_test(e):
    with warnings.catch_warnings():
        for msg in _DICT_OBS_WARNINGS:
            warnings.filterwarnings("ignore", message=msg, category=UserWarning)
        api_test(e, num_cycles=200)


@pytest.mark.parametrize("name", list(VARIANTS))
def test_pettingzoo_api_test(name):
    _filtered_api_test(wrapped_env(VARIANTS[name]))
    _filtered_api_test(TrigonEnv(VARIANTS[name], reward="rank"))


def test_agents_and_spaces():
    e = TrigonEnv(tf.Variant.THREE_PLAYER)
    assert e.possible_agents == ["blue_0", "yellow_1", "red_2"]
    obs = e.observe("blue_0")
    b = tf.board(8)
    assert obs["observation"].shape == (6, b.num_cells)
    assert obs["pieces_left"].shape == (4, 22)
    assert obs["action_mask"].shape == (b.num_placements,)
    assert e.action_space("red_2").n == b.num_placements
    # Green takes no part: its pieces-left row (relative index 3 for blue) is empty.
    assert obs["pieces_left"][3].sum() == 0 and obs["pieces_left"][:3].sum() == 66


@pytest.mark.parametrize("name", ["four", "four_alt", "two", "three", "solo"])
def test_masks_and_planes_equal_the_core(name):
    variant = VARIANTS[name]
    e = TrigonEnv(variant)
    g = tf.Game(variant)
    rnd = random.Random(7)
    for step, agent in enumerate(e.agent_iter()):
        obs, reward, term, trunc, info = e.last()
        if term:
            e.step(None)
            continue
        c = int(agent.split("_")[1])
        assert g.turn == c
        pos = g.position
        assert np.array_equal(np.flatnonzero(obs["action_mask"]), np.sort(pos.generate(c)))
        ids = e.legal_actions(agent)
        assert np.array_equal(np.sort(ids), np.sort(pos.generate(c)))
        if step % 5 == 0:
            # Agents not to move see their own legal moves too (as if it were their turn).
            for other in e.agents:
                oc = int(other.split("_")[1])
                m = e.observe(other)["action_mask"]
                assert np.array_equal(np.flatnonzero(m), np.sort(pos.generate(oc)))
            planes = obs["observation"]
            occ = pos.occupancy()
            for k in range(4):
                assert np.array_equal(planes[k], (occ == (c + k) % 4).astype(np.int8))
            if pos.started(c):
                place = pos.attach_mask(c)
            else:
                place = np.isin(np.arange(occ.size), pos.start_cells(c))
            assert np.array_equal(planes[4], place.astype(np.int8))
            assert np.array_equal(planes[5], pos.forbidden_mask(c).astype(np.int8))
            for k in range(4):
                oc = (c + k) % 4
                left = pos.pieces_left(oc) if pos.in_play(oc) else 0
                assert [int(v) for v in obs["pieces_left"][k]] == [left >> p & 1 for p in range(22)]
        move = int(ids[rnd.randrange(len(ids))])
        e.step(move)
        g.play(move)
    assert g.is_over and not e.agents


@pytest.mark.parametrize("kind", ["score", "win", "rank"])
@pytest.mark.parametrize("name", ["four", "two", "three", "teams", "solo"])
def test_rewards_follow_the_rulebook_scores(name, kind):
    variant = VARIANTS[name]
    e = TrigonEnv(variant, reward=kind)
    rewards = {}
    rnd = random.Random(3)
    e.reset()
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        if term:
            rewards[agent] = reward
            e.step(None)
            continue
        assert reward == 0
        ids = e.legal_actions()
        e.step(int(ids[rnd.randrange(len(ids))]))
    g = e.game()
    assert g.is_over
    ps = g.player_scores()
    assert set(rewards) == set(e.possible_agents)
    for agent, r in rewards.items():
        p = variant.player_of(int(agent.split("_")[1]))
        if kind == "score":
            assert r == ps[p]
        elif len(ps) == 1:
            complete = all(not g.pieces_left(c) for c in variant.colours)
            assert r == (0.0 if kind == "rank" else (1.0 if complete else -1.0))
        elif kind == "win":
            best = max(ps)
            assert r == (-1.0 if ps[p] < best else (1.0 if ps.count(best) == 1 else 0.0))
        else:
            below = sum(s < ps[p] for s in ps)
            above = sum(s > ps[p] for s in ps)
            assert r == pytest.approx((below - above) / (len(ps) - 1))
    if kind == "rank" or (kind == "win" and len(ps) == 2):  # zero-sum by construction
        assert sum(rewards[agent_name(cs[0])] for cs in variant.players) == pytest.approx(0.0)


def test_custom_reward_function():
    e = TrigonEnv(tf.Variant.TWO_PLAYER, reward=lambda scores, player: scores[player] - scores[1 - player])
    e.play_moves([mid for _, mid in _core.random_game(e.position, 5)[0]])
    g = e.game()
    a, b = g.player_scores()
    assert e.rewards["blue_0"] == a - b and e.rewards["red_2"] == a - b and e.rewards["yellow_1"] == b - a


def test_batched_game_replays_through_the_env():
    variant = tf.Variant.FOUR_PLAYER
    start = tf.Game(variant).position
    res = _core.play_games(start, 3, seed=11, policy="greedy", threads=2, observations=True)
    e = TrigonEnv(variant)
    for i in range(3):
        e.reset()
        n = int(res["lengths"][i])
        for k in range(n):
            agent = e.agent_selection
            assert agent == agent_name(res["colours"][i, k])
            obs = e.observe(agent)
            assert np.array_equal(obs["observation"], res["planes"][i, k])
            assert np.array_equal(obs["pieces_left"], res["pieces"][i, k])
            e.step(int(res["moves"][i, k]))
        assert all(e.terminations.values())
        assert list(e._state.scores()) == list(res["scores"][i])


def test_illegal_actions_are_refused():
    e = TrigonEnv()
    legal = set(int(i) for i in e.legal_actions())
    bad = next(i for i in range(tf.board(9).num_placements) if i not in legal)
    with pytest.raises(tf.IllegalMoveError, match="blue_0 cannot play"):
        e.step(bad)
    with pytest.raises(tf.IllegalMoveError):
        e.step(-1)
    with pytest.raises(tf.IllegalMoveError, match="placement id"):
        e.step("q15")
    assert e.moves == [] and e.agent_selection == "blue_0"
    with pytest.raises(ValueError, match="reward"):
        TrigonEnv(reward="money")


def test_render_text():
    e = TrigonEnv(render_mode="ansi")
    e.step(int(e.legal_actions()[0]))
    text = e.render()
    assert "to move: yellow" in text and "b" in text


def test_render_without_mode_returns_none():
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert TrigonEnv().render() is None


def test_module_docstring():
    import doctest

    from trigon_fast import env as env_module

    res = doctest.testmod(env_module, optionflags=doctest.ELLIPSIS)
    assert res.attempted > 0 and res.failed == 0


def test_render_rgb_through_the_svg_renderer():
    import importlib.util

    if importlib.util.find_spec("trigon_fast.render") is None:
        with pytest.raises(ValueError, match="trigon_fast.render"):
            TrigonEnv(render_mode="rgb_array")
        return
    require_png()
    pytest.importorskip("PIL")
    e = TrigonEnv(render_mode="rgb_array")
    before = e.render()
    e.step(int(e.legal_actions()[0]))
    after = e.render()
    assert after.ndim == 3 and after.shape[2] == 3 and after.dtype == np.uint8
    assert before.shape == after.shape and (before != after).any()


def test_reset_to_a_started_game_and_back():
    full = tf.random_game(tf.Variant.TEAMS, seed=21)
    start = tf.Game(tf.Variant.TEAMS)
    for _, m in full.history[:25]:
        start.play(m)
    e = TrigonEnv(tf.Variant.TEAMS)
    e.reset(options={"start": start})
    assert e.agent_selection == agent_name(start.turn)
    assert np.array_equal(np.flatnonzero(e.observe(e.agent_selection)["action_mask"]), np.sort(start.legal_moves.ids))
    e.play_moves([m.id for _, m in full.history[25:]])
    assert all(e.terminations.values())
    assert e.game().history == full.history and len(e.moves) == len(full.history) - 25
    e.reset()
    assert e.agent_selection == "blue_0" and len(e.legal_actions()) == 2478 and e.game().history == []
    with pytest.raises(ValueError, match="start"):
        e.reset(options={"start": tf.Game(tf.Variant.FOUR_PLAYER)})
    with pytest.raises(tf.GameOverError):
        e.reset(options={"start": full})


def test_docs_rl_examples():
    import doctest
    import os

    path = os.path.join(os.path.dirname(__file__), os.pardir, "docs", "rl.md")
    res = doctest.testfile(path, module_relative=False, optionflags=doctest.ELLIPSIS)
    assert res.attempted > 0 and res.failed == 0


@pytest.mark.parametrize("action", [1924.9, "1924", True, np.float64(1924.0), None, 2**70, -1])
def test_step_takes_integer_actions_only_and_changes_nothing_else(action):
    e = TrigonEnv()
    e.reset(seed=0)
    before = (e.agent_selection, list(e._moves))
    with pytest.raises(tf.IllegalMoveError):
        e.step(action)
    assert (e.agent_selection, list(e._moves)) == before
    e.step(np.int64(e.legal_actions()[0]))  # numpy integers are integers
    assert len(e._moves) == 1


def test_unknown_agents_and_bad_seeds_are_value_errors():
    e = TrigonEnv()
    e.reset(seed=0)
    for call in (lambda: e.legal_actions("nobody"), lambda: e.observe("blue")):
        with pytest.raises(ValueError, match="unknown agent"):
            call()
    with pytest.raises(ValueError, match="seed"):
        e.reset(seed=-1)


def test_legal_actions_of_an_agent_other_than_the_one_observed():
    # legal_actions(agent) reuses the ids of the last observe(); the other tests ask only for the
    # agent just observed, so a cache that ignored which agent it held went unnoticed.
    e = TrigonEnv(tf.Variant.FOUR_PLAYER)
    e.reset()
    g = tf.Game(tf.Variant.FOUR_PLAYER)
    for step in range(8):
        pos = g.position
        for seen in e.agents:
            e.observe(seen)  # fills the cache for `seen`
            for other in e.agents:
                c = int(other.split("_")[1])
                assert np.array_equal(np.sort(e.legal_actions(other)), np.sort(pos.generate(c))), (seen, other)
        e.observe(e.agent_selection)
        ids = e.legal_actions()  # default: the agent to act, whatever was observed last
        assert np.array_equal(np.sort(ids), np.sort(pos.generate(int(g.turn))))
        e.observe(e.agents[(e.agents.index(e.agent_selection) + 1) % 4])
        assert np.array_equal(np.sort(e.legal_actions()), np.sort(pos.generate(int(g.turn))))
        e.step(int(ids[step % len(ids)]))
        g.play(int(ids[step % len(ids)]))


def _play_to_the_end(e, seed=0):
    rng = random.Random(seed)
    for agent in e.agent_iter():
        _, _, term, trunc, _ = e.last()
        if term or trunc:
            e.step(None)
            continue
        ids = e.legal_actions()
        e.step(int(ids[rng.randrange(len(ids))]))


def test_after_the_last_dead_step_the_game_is_over():
    e = TrigonEnv(tf.Variant.THREE_PLAYER)
    _play_to_the_end(e)
    assert e.agents == [] and repr(e).endswith(", over>")
    for call in (lambda: e.step(0), lambda: e.step(None), lambda: e.last()):
        with pytest.raises(tf.GameOverError, match="reset"):
            call()
    e.reset()
    assert e.agents and e.last()[2] is False


def test_copies_and_pickles_are_independent():
    import copy
    import pickle

    e = TrigonEnv(tf.Variant.TWO_PLAYER, reward="win")
    e.reset(seed=3)
    for _ in range(6):
        e.step(int(e.legal_actions()[0]))
    before = (e.moves, e.agent_selection, e.observe(e.agent_selection)["observation"].copy())
    for c in (copy.copy(e), copy.deepcopy(e), pickle.loads(pickle.dumps(e))):
        assert (c.moves, c.agent_selection) == before[:2] and c.reward_kind == "win"
        assert (c.observe(c.agent_selection)["observation"] == before[2]).all()
        c.step(int(c.legal_actions()[0]))
        assert len(c.moves) == 7 and c.position.to_move != e.position.to_move
        assert (e.moves, e.agent_selection) == before[:2]  # the original is untouched
        assert (e.observe(e.agent_selection)["observation"] == before[2]).all()
    _play_to_the_end(e)
    done = pickle.loads(pickle.dumps(e))
    assert done.moves == e.moves and repr(done).endswith(", over>")


def test_env_takes_a_kinds_name():
    e = TrigonEnv("three_player")
    assert e.variant == tf.Variant.THREE_PLAYER and len(e.possible_agents) == 3
    with pytest.raises(tf.TrigonError, match="unknown variant 'three'"):
        TrigonEnv("three")
