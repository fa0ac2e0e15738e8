"""Known answers for the search, from the mutation round of the search code (docs/reliability.md):
positions near the end of seeded random games where every line after the root move is forced, so
that each root move has one final position, found here by plain enumeration with the rules; the
search's per-move scores, values, expected scores and choice are checked against it, with both
playouts and after tree reuse. And the knobs, seeds, levels and sides do what they say: priors,
prior weight, a second search of one position, reuse over a round of moves, batched search games.
Each test caught a changed search that the other tests passed (or saw only as a changed golden
GTP session)."""

import numpy as np
import pytest

import trigon_fast as tf
from endgames import partial_game

SIMS = 60


def sides_of(variant):
    side = [0, 0, 0, 0]
    for i, colours in enumerate(variant.players):
        for c in colours:
            side[int(c)] = i
    return side


def forced_end(pos, movers=None):
    """The final position when every colour to move from `pos` has exactly one legal move (the
    colours that move are appended to `movers`)."""
    p = pos.copy()
    while not p.is_over:
        ids = p.generate(p.to_move)
        if len(ids) != 1:
            return None
        if movers is not None:
            movers.append(p.to_move)
        p.play(int(ids[0]))
    return p


def final_scores(pos):
    return [pos.score(c) if pos.in_play(c) else None for c in range(4)]


def forced_positions(variant, count, distinct=2, back_from=2, repeated=False):
    """(game, {root move id: final scores}) of positions 2..7 (back_from..back_from+5) moves before
    the end of seeded random games where the colour to move has 2..40 moves, each followed by a
    forced rest of the game, with at least `distinct` different finals (and with `repeated`, a
    rest where one colour moves twice)."""
    found = []
    for seed in range(300):
        history = [m for _, m in tf.random_game(variant, seed=seed).history]
        for back in range(back_from, back_from + 6):
            game = tf.Game(variant, history[:len(history) - back])
            pos = game.position
            ids = [int(i) for i in pos.generate(pos.to_move)] if not pos.is_over else []
            if not 2 <= len(ids) <= 40:
                continue
            finals = {}
            twice = False
            for i in ids:
                q = pos.copy()
                q.play(i)
                movers = []
                end = forced_end(q, movers)
                if end is None:
                    break
                finals[i] = final_scores(end)
                twice |= any(movers.count(c) > 1 for c in movers)
            else:
                if len({tuple(s) for s in finals.values()}) >= distinct and (twice or not repeated):
                    found.append((game, finals))
                    break
        if len(found) == count:
            return found
    raise AssertionError(f"only {len(found)} positions found")  # pragma: no cover


def side_totals(scores, side):
    totals = {}
    for c, s in enumerate(scores):
        if s is not None:
            totals[side[c]] = totals.get(side[c], 0) + s
    return totals


def place_values(scores, side):
    """Value of each colour's side with no share for the margin (score_weight=0): the share of
    the other sides it ends ahead of, ties halved (docs/gtp.md, get_value)."""
    totals = side_totals(scores, side)
    values = []
    for c, s in enumerate(scores):
        if s is None:
            values.append(np.nan)
            continue
        mine = totals[side[c]]
        others = [t for k, t in totals.items() if k != side[c]]
        values.append(sum(1.0 if mine > t else 0.5 if mine == t else 0.0 for t in others) / len(others))
    return values


MULTI = [tf.Variant.TWO_PLAYER, tf.Variant.THREE_PLAYER, tf.Variant.FOUR_PLAYER]


@pytest.mark.parametrize("playout", ["uniform", "sampled"])
@pytest.mark.parametrize("variant", MULTI, ids=repr)
def test_root_move_figures_are_their_forced_results(variant, playout):
    # (Scores recorded for the side's index instead of the colour, a sampled move not checked for
    # legality, a sampled playout that ended with the first colour out passed the other tests.)
    side = sides_of(variant)
    for game, finals in forced_positions(variant, 3):
        turn = int(game.turn)
        a = tf.analyse(game, simulations=SIMS, seed=1, playout=playout, score_weight=0.0)
        assert not a.forced and a.simulations == SIMS
        assert sum(m.visits for m in a.moves) == SIMS
        expected_score = np.zeros(4)
        expected_value = np.zeros(4)
        for m in a.moves:
            scores = finals[m.move.id]
            values = place_values(scores, side)
            known = [s if s is not None else np.nan for s in scores]
            # Every simulation through the move ends in its one final position.
            np.testing.assert_array_equal(m.score_per_colour, known)
            np.testing.assert_allclose(m.value_per_colour, values, atol=1e-6)
            # The tree's value (fixed point, 1/2048) is that of the side to move.
            assert m.value == pytest.approx(values[turn], abs=1 / 2048), (m.move, m.value, values)
            expected_score += m.visits * np.nan_to_num(known)
            expected_value += m.visits * np.nan_to_num(values)
        in_play = [s is not None for s in next(iter(finals.values()))]
        np.testing.assert_allclose(a.expected_score[in_play], (expected_score / SIMS)[in_play], rtol=1e-5)
        np.testing.assert_allclose(a.value[in_play], (expected_value / SIMS)[in_play], atol=1e-5)
        # The move chosen has the best result for the side to move.
        best = max(place_values(s, side)[turn] for s in finals.values())
        assert place_values(finals[a.best_move.id], side)[turn] == best


@pytest.mark.parametrize("playout", ["uniform", "sampled"])
@pytest.mark.parametrize("variant", [tf.Variant.TWO_PLAYER, tf.Variant.FOUR_PLAYER], ids=repr)
def test_playouts_play_a_colours_forced_moves_to_the_end(variant, playout):
    # Rests of the game where a colour has two forced moves in a row: the playouts must find each
    # (the sampled one falls back on a list of the colour's moves, kept up to date move by move).
    for game, finals in forced_positions(variant, 4, distinct=1, back_from=3, repeated=True):
        a = tf.analyse(game, simulations=SIMS, seed=1, playout=playout, expand_threshold=1_000_000)
        assert sum(m.visits for m in a.moves) == SIMS
        for m in a.moves:
            np.testing.assert_array_equal(m.score_per_colour, [np.nan if s is None else s for s in finals[m.move.id]])


def test_a_tie_between_sides_is_worth_half():
    # Three players: positions whose forced ends include a tie between sides (a tie counted as a
    # loss changed only the golden GTP session).
    side = sides_of(tf.Variant.THREE_PLAYER)
    checked = 0
    for game, finals in forced_positions(tf.Variant.THREE_PLAYER, 12, distinct=1):
        a = tf.analyse(game, simulations=SIMS, seed=2, score_weight=0.0)
        for m in a.moves:
            values = place_values(finals[m.move.id], side)
            checked += any(v not in (0.0, 1.0) for v in values if not np.isnan(v))
            np.testing.assert_allclose(m.value_per_colour, values, atol=1e-6)
    assert checked >= 3


def test_solo_search_takes_the_move_with_the_best_total_score():
    # (A solo search that minimised the score passed every other test: they check legality only.)
    found = forced_positions(tf.Variant.SOLO, 4)
    for game, finals in found:
        a = tf.analyse(game, simulations=SIMS, seed=3)
        totals = {i: sum(s) for i, s in finals.items()}
        assert totals[a.best_move.id] == max(totals.values())
        searched = [(totals[m.move.id], m.value) for m in a.moves]
        for t1, v1 in searched:
            for t2, v2 in searched:
                if t1 > t2:
                    assert v1 > v2, searched


@pytest.mark.parametrize("variant", [tf.Variant.TWO_PLAYER, tf.Variant.FOUR_PLAYER], ids=repr)
def test_reused_tree_values_are_for_the_side_now_to_move(variant):
    # The move before a forced-ending position is searched, that position's node is kept, and its
    # children's values (sums reused from the first search) must be the exact results of their
    # forced ends for the side now to move, not for the side that searched first. (A large
    # exploration spreads the visits evenly: every move and reply is searched.) Deeper nodes
    # backed up for the root's side, and reused nodes without their value sums, passed the others.
    side = sides_of(variant)
    checked = 0
    for game, finals in forced_positions(variant, 6):
        turn = int(game.turn)
        before = game.copy()
        last = before.undo()
        n = len(before.legal_moves)
        if not 2 <= n <= 40:
            continue
        engine = tf.Engine(seed=4, expand_threshold=0, score_weight=0.0, exploration=100.0)
        a = engine.analyse(before, simulations=20 * n * len(finals))
        visits = {m.move.id: m.visits for m in a.moves}[last.id]
        b = engine.analyse(game, simulations=1)
        assert b.reused_visits == visits
        assert {m.move.id for m in b.moves} == set(finals)
        # (expand_threshold=0: the node was expanded on its first visit, each later one went on to a child)
        assert sum(m.visits for m in b.moves) == visits + b.simulations
        for m in b.moves:
            want = place_values(finals[m.move.id], side)[turn]
            assert m.value == pytest.approx(want, abs=1 / 2048), (m.move, m.visits, m.value, want)
        checked += 1
    assert checked >= 3


def all_root_priors(game, **knobs):
    """Prior of every legal root move: an exploration so large that each move is searched."""
    n = len(game.legal_moves)
    a = tf.analyse(game, simulations=2 * n, seed=1, exploration=100.0, **knobs)
    priors = {m.move.id: m.prior for m in a.moves}
    assert len(priors) == n
    return priors


def test_priors_follow_their_knobs():
    game = partial_game(tf.Variant.TWO_PLAYER, 2, 32)
    pos, board, turn = game.position, game.board, int(game.turn)
    side = sides_of(game.variant)
    assert set(all_root_priors(game, use_priors=False).values()) == {0.5}
    # Piece size alone: one prior per size, larger pieces first.
    plain = all_root_priors(game, block_prior=0.0)
    size = {i: len(board.placement_cells(i)) for i in plain}
    by_size = {}
    for i, p in plain.items():
        by_size.setdefault(size[i], set()).add(p)
    assert all(len(ps) == 1 for ps in by_size.values()), by_size
    values = [next(iter(by_size[s])) for s in sorted(by_size)]
    assert len(values) >= 4 and values == sorted(set(values)), by_size
    # Covering an opponent's attach point raises the prior; the partner's do not count.
    theirs = np.zeros(board.num_cells, bool)
    partner = np.zeros(board.num_cells, bool)
    for c in range(4):
        if c != turn and pos.in_play(c):
            if side[c] != side[turn]:
                theirs |= pos.attach_mask(c)
            else:
                partner |= pos.attach_mask(c)
    blocking = all_root_priors(game, block_prior=0.4)
    kinds = set()
    for i, p in blocking.items():
        cells = board.placement_cells(i)
        blocked, own_side = int(theirs[cells].sum()), bool(partner[cells].any())
        kinds.add((blocked > 0, own_side))
        if blocked:
            assert p > plain[i], (i, blocked)
        else:
            assert p == pytest.approx(plain[i]), (i, own_side)
    assert kinds == {(False, False), (False, True), (True, False), (True, True)}


def test_searching_one_position_again_goes_on_with_its_tree():
    # (The root's own visits not counted: no reuse of a position searched again, no exploration at
    # the root; only the golden GTP session changed.)
    game = partial_game(tf.Variant.FOUR_PLAYER, 3, 20)
    engine = tf.Engine(seed=1)
    a = engine.analyse(game, simulations=500)
    b = engine.analyse(game, simulations=300)
    assert a.reused_visits == 0 and b.reused_visits == 500
    assert sum(m.visits for m in b.moves) == 800
    assert {m.move for m in a.moves} <= {m.move for m in b.moves}


def test_the_seed_changes_the_search():
    # (Workers seeded without the search's seed: only the golden GTP session changed.)
    game = partial_game(tf.Variant.FOUR_PLAYER, 4, 16)
    searches = {tuple((m.move.id, m.visits) for m in tf.analyse(game, simulations=300, seed=s).moves)
                for s in range(4)}
    assert len(searches) == 4
    engine = tf.Engine(seed=5, reuse_tree=False)
    assert len({tuple((m.move.id, m.visits) for m in engine.analyse(game, simulations=300, seed=s).moves)
                for s in (5, 6)}) == 2


@pytest.mark.parametrize("variant, total", [(tf.Variant.TWO_PLAYER, 1.0), (tf.Variant.THREE_PLAYER, 1.5),
                                            (tf.Variant.FOUR_PLAYER, 2.0)], ids=repr)
def test_side_values_add_up_to_half_the_sides(variant, total):
    # Places shared out and margins against the other sides' mean: the sides' values add up to
    # half their number (docs/gtp.md: "in four-player games the four values add up to about 2").
    side = sides_of(variant)
    for plies in (0, 20, 40):
        game = partial_game(variant, plies, plies)
        a = tf.analyse(game, simulations=300, seed=1)
        first = {}
        for c in range(4):
            if not np.isnan(a.value[c]):
                first.setdefault(side[c], a.value[c])
        assert sum(first.values()) == pytest.approx(total, abs=1e-3), (plies, a.value)


def test_random_games_stats_are_the_sum_of_random_games():
    # RandomPlayout::run (random_games_stats, the search's playouts) against step by step
    # (random_game): a run() that stopped before a forced last move passed the other tests.
    for variant in (tf.Variant.FOUR_PLAYER, tf.Variant.TWO_PLAYER.with_alternate_rule()):
        stats = tf.random_games_stats(variant, games=6, seed=11)
        games = [tf.random_game(variant, seed=11 + k) for k in range(6)]
        assert all(g.is_over for g in games)
        assert stats["moves"] == sum(len(g.history) for g in games)
        assert list(stats["score_sum"]) == [sum(g.score(c) for g in games) for c in range(4)]


def test_reuse_follows_a_round_of_moves_and_keeps_to_its_sides():
    # GTP plays the other colours' moves in between: the node four moves down is kept.
    game = partial_game(tf.Variant.FOUR_PLAYER, 40, 40)
    engine = tf.Engine(seed=2)
    a = engine.analyse(game, simulations=3000)
    assert len(a.pv) >= 4
    for _, move in a.pv[:4]:
        game.play(move)
    assert engine.analyse(game, simulations=10).reused_visits > 0
    # The same position searched for other sides (four players, then two teams): a new tree.
    engine = tf.Engine(seed=2)
    engine.analyse(tf.Game(tf.Variant.FOUR_PLAYER), simulations=200)
    assert engine.analyse(tf.Game(tf.Variant.TEAMS), simulations=200).reused_visits == 0
    assert engine.analyse(tf.Game(tf.Variant.TEAMS), simulations=200).reused_visits == 200


def test_a_search_level_caps_the_simulations_asked_for():
    # analyse(level=...) searches at most that level's simulations (its docstring).
    game = tf.Game(tf.Variant.TWO_PLAYER)
    assert tf.analyse(game, level=1, simulations=1000).simulations == 100
    assert tf.analyse(game, level=2, simulations=150).simulations == 150


def test_random_games_choose_among_all_legal_moves():
    # Positions where the colour to move has a few moves: over seeds, each is the first move of
    # some random game from there (the uniform playout behind random_game and the search). A
    # playout that never drew the last legal move passed the other tests.
    checked = 0
    for game, finals in forced_positions(tf.Variant.FOUR_PLAYER, 5, distinct=1):
        legal = set(finals)
        if len(legal) > 4:
            continue
        first = {tf.random_game(start=game, seed=s).history[len(game.history)][1].id for s in range(40)}
        assert first == legal
        checked += 1
    assert checked >= 3


def test_batch_search_games_play_for_their_sides_and_level():
    # (Batched search games that searched two-player games as four players, in C++ or through
    # batch.play_games's sides, passed the other tests.)
    from trigon_fast import _core
    from trigon_fast.batch import play_games

    variant = tf.Variant.TWO_PLAYER
    start = partial_game(variant, 1, 48)

    def core_games(sides, level=1):
        return _core.play_games(start.position, 2, 7, "search", 1, False, level, sides)["moves"]

    batch = play_games(variant, games=2, seed=7, policy="search", threads=1, level=1, start=start)
    np.testing.assert_array_equal(batch.moves, core_games([0, 1, 0, 1]))
    assert not np.array_equal(batch.moves, core_games([0, 1, 2, 3]))
    assert not np.array_equal(batch.moves, core_games([0, 1, 0, 1], level=2))


def test_a_huge_prior_weight_keeps_the_search_to_the_best_priors():
    # prior_weight is the number of pseudo-visits of a move's prior: with a million of them and no
    # exploration bonus a move's value stays its prior, so only the best-prior moves are searched.
    game = partial_game(tf.Variant.FOUR_PLAYER, 1, 40)
    n = len(game.legal_moves)
    priors = all_root_priors(game)
    top = max(priors.values())
    best = {i for i, p in priors.items() if p == top}
    assert len(best) < 20 < n
    a = tf.analyse(game, simulations=100, seed=1, exploration=0.0, prior_weight=1e6)
    assert {m.move.id for m in a.moves} <= best
