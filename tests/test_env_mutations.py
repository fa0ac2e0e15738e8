"""The learning environment against computations of its own (the rules core's Game API, the
contract of docs/rl.md recomputed in Python): one test per gap that a mutation round of
env.py, EnvState (cpp/search/batch.*) and its binding left open (docs/reliability.md)."""

import contextlib
import io
import pickle
import random

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

import trigon_fast as tf  # noqa: E402
from trigon_fast import _core  # noqa: E402
from trigon_fast.env import TrigonEnv, agent_name  # noqa: E402
from endgames import partial_game  # noqa: E402
from variant_cases import pick  # noqa: E402

V = tf.Variant

# Position.check codes (cpp/core/position.h, enum Illegal)
LEGAL, NO_CONTACT, ALTERNATE_RULE = 0, 6, 9


def _colour(agent):
    return int(agent.rsplit("_", 1)[1])


def _expected_planes(pos, c):
    """Observation planes and pieces left of colour c, from the position by docs/rl.md."""
    occ = pos.occupancy()
    planes = np.zeros((6, occ.size), np.int8)
    pieces = np.zeros((4, 22), np.int8)
    for k in range(4):
        oc = (c + k) % 4
        planes[k] = occ == oc
        if pos.in_play(oc):
            pieces[k] = [pos.pieces_left(oc) >> p & 1 for p in range(22)]
    if pos.started(c):
        planes[4] = pos.attach_mask(c)
    else:
        planes[4, pos.start_cells(c)] = 1
    planes[5] = pos.forbidden_mask(c)
    return planes, pieces


def _check_every_agent(e, g):
    pos = g.position
    for agent in e.agents:
        c = _colour(agent)
        obs = e.observe(agent)
        legal = np.sort(pos.generate(c))
        assert np.array_equal(np.flatnonzero(obs["action_mask"]), legal), (agent, len(g.history))
        assert np.array_equal(np.sort(e.legal_actions(agent)), legal), (agent, len(g.history))
        planes, pieces = _expected_planes(pos, c)
        assert np.array_equal(obs["observation"], planes), (agent, len(g.history))
        assert np.array_equal(obs["pieces_left"], pieces), (agent, len(g.history))


@pytest.mark.parametrize("name", ["four", "two", "three", "teams", "solo", "solo_yellow_green",
                                  "solo_small_blue_red", "three_alt"])
def test_every_agent_at_every_ply_sees_its_own_moves_and_planes(name):
    # Every agent, not only the one to act, at every ply of a whole game: colours that have not
    # started take their first moves from a fresh generation (the playout keeps them current on
    # their own turn only), and colour sets with gaps (yellow and green alone, blue and red on
    # the small board) name agents by colour, not by position in the list.
    variant = pick(name)[name]
    ids = [m.id for _, m in tf.random_game(variant, seed=4).history]
    e = TrigonEnv(variant)
    g = tf.Game(variant)
    assert e.possible_agents == [agent_name(c) for c in variant.colours]
    for pid in ids:
        assert e.agent_selection == agent_name(g.turn)
        _check_every_agent(e, g)
        e.step(pid)
        g.play(pid)
    assert g.is_over and all(e.terminations.values())
    _check_every_agent(e, g)  # no moves left for anyone


def _positions(variant, seed, plies):
    g = tf.random_game(variant, seed=seed)
    for k in plies:
        part = tf.Game(variant)
        for _, m in g.history[:k]:
            part.play(m)
        yield part


@pytest.mark.parametrize("name", ["four", "four_alt", "two_alt"])
def test_every_kind_of_illegal_action_is_refused_and_changes_nothing(name):
    # The env plays through EnvState::play, whose own check must refuse what the rules core's
    # check refuses, whatever the reason (the suite only tried a move off the start cells).
    variant = pick(name)[name]
    n = tf.board(variant.side).num_placements
    seen = set()
    for part in _positions(variant, 2, (0, 6, 13, 30)):
        e = TrigonEnv(variant)
        e.reset(options={"start": part})
        agent = e.agent_selection
        c = int(part.turn)
        pos = part.position
        codes = np.array([pos.check(c, i) for i in range(n)])
        before = e.observe(agent)
        assert np.array_equal(np.flatnonzero(before["action_mask"]), np.flatnonzero(codes == LEGAL))
        for code in sorted(set(codes.tolist()) - {LEGAL}):
            seen.add(code)
            pid = int(np.flatnonzero(codes == code)[0])
            with pytest.raises(tf.IllegalMoveError, match=f"{agent} cannot play"):
                e.step(pid)
        with pytest.raises(tf.IllegalMoveError):
            e.step(n)  # one past the last placement id
        assert e.moves == [] and e.agent_selection == agent
        after = e.observe(agent)
        for k in before:
            assert np.array_equal(before[k], after[k]), k
    assert NO_CONTACT in seen
    assert (ALTERNATE_RULE in seen) == variant.alternate_rule


def test_legal_actions_after_resets_to_other_positions():
    # legal_actions() reuses the ids of the last observe() while no move is played; a reset
    # changes the position with the move count at 0 again, the agent to act perhaps the same.
    full = tf.random_game(V.FOUR_PLAYER, seed=8)
    starts = []
    for k in (9, 13, 17):
        s = tf.Game(V.FOUR_PLAYER)
        for _, m in full.history[:k]:
            s.play(m)
        starts.append(s)
    e = TrigonEnv(V.FOUR_PLAYER)
    for s in starts + [tf.Game(V.FOUR_PLAYER), starts[0]]:
        agent = agent_name(s.turn)
        e.observe(agent)  # the ids of the position before the reset, kept for this agent
        e.reset(options={"start": s} if s.history else None)
        assert e.agent_selection == agent
        assert np.array_equal(np.sort(e.legal_actions()), np.sort(s.position.generate(int(s.turn))))


def test_legal_actions_after_moves_since_the_last_observe():
    # The ids kept from observe() hold for the position they came from only: an agent observed
    # once and asked again after other moves must get its moves of now.
    ids = [m.id for _, m in tf.random_game(V.FOUR_PLAYER, seed=3).history[:12]]
    e = TrigonEnv(V.FOUR_PLAYER)
    g = tf.Game(V.FOUR_PLAYER)
    e.observe("blue_0")
    for pid in ids:
        e.step(pid)
        g.play(pid)
        for agent in e.agents:
            assert np.array_equal(np.sort(e.legal_actions(agent)), np.sort(g.position.generate(_colour(agent)))), \
                (agent, len(g.history))


def test_bools_are_refused_where_placements_0_and_1_are_legal():
    # True and False are integers to Python; the env refuses them. The suite tried True only
    # where placement 1 was illegal anyway.
    for seed in range(30):
        g = tf.random_game(V.FOUR_PLAYER, seed=seed)
        part = tf.Game(V.FOUR_PLAYER)
        for _, m in g.history:
            pos = part.position
            if pos.check(int(part.turn), 0) == LEGAL or pos.check(int(part.turn), 1) == LEGAL:
                break
            part.play(m)
        else:
            continue
        break
    else:
        raise AssertionError("no position with placement 0 or 1 legal")
    e = TrigonEnv(V.FOUR_PLAYER)
    e.reset(options={"start": part})
    agent = e.agent_selection
    legal = set(int(i) for i in e.legal_actions())
    assert legal & {0, 1}
    for action in (True, False, np.True_, np.False_):
        with pytest.raises(tf.IllegalMoveError, match="placement id"):
            e.step(action)
    assert e.moves == [] and e.agent_selection == agent
    e.step(min(legal & {0, 1}))  # the same ids as integers are fine
    assert len(e.moves) == 1


def test_the_start_game_is_copied():
    g = tf.random_game(V.TWO_PLAYER, seed=5)
    start = partial_game(V.TWO_PLAYER, 5, 10)
    e = TrigonEnv(V.TWO_PLAYER)
    e.reset(options={"start": start})
    start.play(g.history[10][1])  # the caller goes on with its own game
    assert e.game().history == g.history[:10] and e.agent_selection == agent_name(g.history[10][0])
    e.step(g.history[10][1].id)
    assert e.game().history == g.history[:11]


def test_pickle_of_a_game_from_a_start_position():
    g = tf.random_game(V.THREE_PLAYER, seed=6)
    start = partial_game(V.THREE_PLAYER, 6, 12)
    e = TrigonEnv(V.THREE_PLAYER)
    e.reset(options={"start": start})
    e.play_moves([m.id for _, m in g.history[12:16]])
    copy = pickle.loads(pickle.dumps(e))
    assert copy.game().history == g.history[:16] and copy.moves == e.moves
    a = copy.agent_selection
    for k, v in e.observe(a).items():
        assert np.array_equal(copy.observe(a)[k], v), k
    copy.play_moves([m.id for _, m in g.history[16:]])
    assert all(copy.terminations.values()) and copy.game().history == g.history


def test_seed_makes_the_action_spaces_sampling_repeatable():
    e = TrigonEnv(V.FOUR_PLAYER)

    def draws(seed):
        e.reset(seed=seed)
        return {a: [int(e.action_space(a).sample()) for _ in range(4)] for a in e.agents}

    first = draws(5)
    assert draws(5) == first
    assert draws(6) != first
    # each agent's space its own stream (seeded apart)
    assert len({tuple(v) for v in first.values()}) == len(first)


def _end(e, ids):
    """Plays the ids, then the dead steps; returns (reward, info) of each agent at its last step."""
    e.play_moves(ids)
    out = {}
    for agent in e.agent_iter():
        _, reward, term, trunc, info = e.last()
        assert term and not trunc
        out[agent] = (reward, info)
        e.step(None)
    return out


def _tied_seed(variant, shared_first):
    for seed in range(300):
        ps = tf.random_game(variant, seed=seed).player_scores()
        best = max(ps)
        if (ps.count(best) > 1) == shared_first and len(set(ps)) < len(ps):
            return seed
    raise AssertionError("no such game in 300 seeds")


@pytest.mark.parametrize("name,shared_first", [("four", True), ("four", False), ("two", True), ("three", True),
                                               ("teams", True)])
def test_rewards_and_infos_with_tied_players(name, shared_first):
    # Ties: shared first place is worth 0 under "win"; under "rank" a tied player is neither
    # beaten nor ahead. Random games of the suite's other tests had no ties.
    variant = pick(name)[name]
    g = tf.random_game(variant, seed=_tied_seed(variant, shared_first))
    ps = g.player_scores()
    best = max(ps)
    ids = [m.id for _, m in g.history]
    for kind in ("win", "rank", "score"):
        got = _end(TrigonEnv(variant, reward=kind), ids)
        assert set(got) == set(agent_name(c) for c in variant.colours)
        for agent, (reward, info) in got.items():
            p = variant.player_of(_colour(agent))
            assert info == {"scores": ps}
            if kind == "win":
                want = 1.0 if ps[p] == best and ps.count(best) == 1 else (0.0 if ps[p] == best else -1.0)
            elif kind == "rank":
                want = (sum(s < ps[p] for s in ps) - sum(s > ps[p] for s in ps)) / (len(ps) - 1)
            else:
                want = ps[p]
            assert reward == pytest.approx(want), (kind, agent, ps)


def _solo_game_one_colour_short():
    """A finished solo game of blue and red on the small board where blue placed every piece and
    red did not: blue plays a solo solution of its own, red random moves off blue's cells."""
    small_blue = V.solo(colours=(0,), side=8)
    variant = V.solo(colours=(0, 2), side=8)
    blue = [m.id for _, m in tf.solve_solo(small_blue, seed=0, time_limit=30).game.history]
    b = tf.board(8)
    blue_cells = set(int(x) for pid in blue for x in b.placement_cells(pid))
    for seed in range(20):
        rng = random.Random(seed)
        g = tf.Game(variant)
        k = 0
        while not g.is_over:
            if g.turn == tf.Colour.BLUE:
                if g.position.check(0, blue[k]) != LEGAL:
                    break
                g.play(blue[k])
                k += 1
            else:
                ms = [m for m in g.legal_moves if not blue_cells & set(int(x) for x in b.placement_cells(m.id))]
                if not ms:
                    break
                g.play(rng.choice(ms))
        if g.is_over and not g.pieces_left(0) and g.pieces_left(2):
            return variant, g
    raise AssertionError("no such game found")


def test_solo_win_needs_every_colour_complete():
    variant, g = _solo_game_one_colour_short()
    ids = [m.id for _, m in g.history]
    for kind, want in (("win", -1.0), ("rank", 0.0), ("score", g.score(0) + g.score(2))):
        got = _end(TrigonEnv(variant, reward=kind), ids)
        assert {a: r for a, (r, _) in got.items()} == {"blue_0": want, "red_2": want}, kind
    sol = tf.solve_solo(variant, seed=0, time_limit=30).game
    assert sol.is_over and not sol.pieces_left(0) and not sol.pieces_left(2)
    got = _end(TrigonEnv(variant, reward="win"), [m.id for _, m in sol.history])
    assert {a: r for a, (r, _) in got.items()} == {"blue_0": 1.0, "red_2": 1.0}


def test_play_moves_past_the_end_and_bad_render_modes():
    # play_moves refuses a finished game with GameOverError, before and after the dead steps.
    g = tf.random_game(V.TWO_PLAYER, seed=1)
    e = TrigonEnv(V.TWO_PLAYER)
    e.play_moves([m.id for _, m in g.history])
    with pytest.raises(tf.GameOverError):
        e.play_moves([g.history[0][1].id])
    for _ in e.agent_iter():  # the dead steps: no agent left
        e.step(None)
    with pytest.raises(tf.GameOverError):  # (was a KeyError once every agent had left)
        e.play_moves([g.history[0][1].id])
    assert e.moves == [m.id for _, m in g.history]
    with pytest.raises(ValueError, match="render_mode"):
        TrigonEnv(render_mode="pixels")


def test_human_render_prints_the_diagram_and_returns_none():
    e = TrigonEnv(V.TWO_PLAYER, render_mode="human")
    e.step(int(e.legal_actions()[0]))
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert e.render() is None
    assert buf.getvalue() == str(e.game()) + "\n"


def test_env_state_binding_at_the_edges():
    # The binding the env drives, at what the env itself never asks: a colour not in play, the
    # state after the end, an id one past the last placement.
    g = tf.random_game(V.THREE_PLAYER, seed=9)
    state = _core.EnvState(tf.Game(V.THREE_PLAYER).position)
    n = tf.board(8).num_placements
    assert len(state.legal_ids(3)) == 0 and not state.observe(3)[2].any()
    with pytest.raises(ValueError):
        state.play(n)
    h = tf.Game(V.THREE_PLAYER)
    for _, m in g.history:
        assert state.to_move == int(h.turn)
        nxt = state.play(m.id)
        h.play(m)
        assert nxt == (-1 if h.is_over else int(h.turn))
    assert state.is_over and state.to_move == -1
    assert len(state.legal_ids(3)) == 0
    assert list(state.scores()) == [g.score(c) for c in range(3)] + [0]
    with pytest.raises(ValueError, match="over"):
        state.play(int(g.history[0][1].id))
