"""Batched self-play in C++ and scale-out over executors (local pools, a real Dask LocalCluster)."""

import concurrent.futures as cf
import json
import os
import signal
import threading

import numpy as np
import pytest

import trigon_fast as tf
from variant_cases import pick
from trigon_fast import _core
from trigon_fast.batch import (BatchError, analyse, local_pool, play_games, read_results, self_play,
                               solve_seeds, summarise_game)

VARIANTS = pick("four", "four_alt", "two", "three", "solo_yellow_green")


@pytest.mark.parametrize("name", list(VARIANTS))
def test_batched_random_games_equal_games_played_one_by_one(name):
    v = VARIANTS[name]
    start = tf.Game(v).position
    b = play_games(v, games=12, seed=100, threads=3)
    for i in range(12):
        moves, final = _core.random_game(start, 100 + i)
        n = int(b.lengths[i])
        assert n == len(moves)
        assert [int(m) for m in b.moves[i, :n]] == [m for _, m in moves]
        assert [int(c) for c in b.colours[i, :n]] == [c for c, _ in moves]
        assert (b.moves[i, n:] == -1).all() and (b.colours[i, n:] == -1).all()
        assert [int(s) for s in b.scores[i]] == [final.score(c) if final.in_play(c) else 0 for c in range(4)]
    # A later slice of the same seeds is the same games.
    b2 = play_games(v, games=4, seed=108, threads=1)
    assert np.array_equal(b2.moves, b.moves[8:]) and np.array_equal(b2.scores, b.scores[8:])


def test_greedy_games_are_legal_largest_first_and_thread_independent():
    v = tf.Variant.FOUR_PLAYER
    b1 = play_games(v, games=6, seed=5, policy="greedy", threads=1)
    b2 = play_games(v, games=6, seed=5, policy="greedy", threads=4)
    assert np.array_equal(b1.moves, b2.moves) and np.array_equal(b1.scores, b2.scores)
    sizes = tf.board(9).placement_piece_array()
    piece_size = np.array(tf.PIECE_SIZES)
    for i in range(2):
        g = tf.Game(v)
        for k in range(int(b1.lengths[i])):
            legal = g.legal_moves.ids
            best = piece_size[sizes[legal]].max()
            m = int(b1.moves[i, k])
            assert piece_size[sizes[m]] == best
            g.play(m)  # checks legality
        assert g.is_over
        assert [g.score(c) for c in range(4)] == [int(s) for s in b1.scores[i]]
    # Greedy places more than random on average (bigger pieces first).
    r = play_games(v, games=40, seed=5, threads=2)
    gr = play_games(v, games=40, seed=5, policy="greedy", threads=2)
    assert gr.scores.mean() > r.scores.mean()


def test_search_policy_games_are_legal_and_thread_independent():
    v = tf.Variant.TWO_PLAYER
    b1 = play_games(v, games=2, seed=3, policy="search", level=1, threads=1)
    b2 = play_games(v, games=2, seed=3, policy="search", level=1, threads=2)
    assert np.array_equal(b1.moves, b2.moves) and np.array_equal(b1.scores, b2.scores)
    for i in range(2):
        g = b1.game(i)  # replays with the rules checked
        assert g.is_over and [g.score(c) for c in range(4)] == [int(s) for s in b1.scores[i]]
    # The search differs from a random game of the same seed.
    assert not np.array_equal(b1.moves, play_games(v, games=2, seed=3).moves)


def test_observations_match_the_position_before_each_move():
    v = tf.Variant.TWO_PLAYER
    b = play_games(v, games=2, seed=9, observations=True, threads=2)
    cells = tf.board(9).num_cells
    assert b.planes.shape == (2, 88, 6, cells) and b.pieces.shape == (2, 88, 4, 22)
    g = tf.Game(v)
    for k in range(int(b.lengths[0])):
        c = int(b.colours[0, k])
        planes, pieces = _core.observation_planes(g.position, c)
        assert np.array_equal(planes, b.planes[0, k]) and np.array_equal(pieces, b.pieces[0, k])
        g.play(int(b.moves[0, k]))
    assert not b.planes[0, int(b.lengths[0]):].any()


def test_batch_from_a_started_game_and_bad_arguments():
    g = tf.random_game(tf.Variant.FOUR_PLAYER, seed=3)
    start = tf.Game(tf.Variant.FOUR_PLAYER)
    for _, m in g.history[:20]:
        start.play(m)
    b = play_games(games=3, seed=1, start=start)
    assert b.game(0).history[:20] == start.history
    assert b.game(0).is_over
    with pytest.raises(BatchError, match="policy"):
        play_games(games=1, policy="clever")
    with pytest.raises(ValueError, match="level"):
        play_games(games=1, policy="search", level=10)
    with pytest.raises(ValueError, match="threads"):
        _core.play_games(tf.Game().position, 1, 0, "random", -1)


def test_ctrl_c_stops_a_batch_and_keeps_the_games_played():
    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    try:
        b = play_games(games=200_000, seed=9, policy="random", threads=2)
    finally:
        timer.cancel()
    assert b.interrupted and 0 < len(b) < 200_000 and "interrupted" in repr(b)
    assert b.moves.shape[0] == b.colours.shape[0] == b.scores.shape[0] == len(b)
    # The games kept are the first ones, each played to its end: game i is still seed + i.
    for i in (0, len(b) // 2, len(b) - 1):
        g = b.game(i)
        assert g.is_over and g.history == tf.random_game(seed=9 + i).history
    assert not play_games(games=3).interrupted


def test_ctrl_c_stops_random_games_stats_with_the_totals_so_far():
    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    try:
        stats = tf.random_games_stats(games=10**9, seed=4)
    finally:
        timer.cancel()
    assert stats["interrupted"] and 0 < stats["games"] < 10**9
    again = tf.random_games_stats(games=stats["games"], seed=4)  # the same games, all of them
    assert not again["interrupted"] and list(again["score_sum"]) == list(stats["score_sum"])
    assert again["moves"] == stats["moves"]


# -- scale-out -------------------------------------------------------------------------------

def _strip(rows):
    return [{k: v for k, v in r.items() if k not in ("task", "task_lines")} for r in rows]


def test_self_play_files_do_not_depend_on_the_executor_or_the_split(tmp_path):
    v = tf.Variant.THREE_PLAYER
    with local_pool(2) as pool:
        a = self_play(v, 30, tmp_path / "a.jsonl", seed=4, games_per_task=7, progress=False, executor=pool)
    b = self_play(v, 30, tmp_path / "b.jsonl", seed=4, games_per_task=30, progress=False,
                  executor=cf.ThreadPoolExecutor(2))
    assert a.ok and b.ok and a.tasks == 5 and b.tasks == 1 and a.results == b.results == 30
    ra, rb = read_results(a.path), read_results(b.path)
    assert _strip(ra) == _strip(rb)
    direct = play_games(v, 30, seed=4)
    for i, row in enumerate(ra):
        assert row["game"] == i and row["seed"] == 4 + i
        g = direct.game(i)
        assert row["moves"] == [str(m) for _, m in g.history]
        assert row["player_scores"] == list(g.player_scores())


def test_resume_runs_only_missing_tasks(tmp_path):
    p = tmp_path / "r.jsonl"
    full = self_play(games=12, path=p, seed=2, games_per_task=4, progress=False, executor=cf.ThreadPoolExecutor(1))
    rows = read_results(p)
    # Keep tasks 0 and 2, one line of task 1 and half a line of task 1, as a crash would.
    lines = [json.dumps(r) + "\n" for r in rows if r["task"] in (0, 2)]
    t1 = [json.dumps(r) for r in rows if r["task"] == 1]
    p.write_text("".join(lines) + t1[0] + "\n" + t1[1][:40])
    again = self_play(games=12, path=p, seed=2, games_per_task=4, progress=False,
                      executor=cf.ThreadPoolExecutor(1), resume=True)
    assert full.ok and again.ok and again.skipped == 2 and again.tasks == 1
    assert _strip(read_results(p)) == _strip(rows)


def test_analysis_of_a_collection_and_a_failed_task(tmp_path):
    s = self_play(tf.Variant.TWO_PLAYER, 6, tmp_path / "games.jsonl", seed=8, games_per_task=3,
                  progress=False, executor=cf.ThreadPoolExecutor(2))
    assert s.ok
    rows = read_results(s.path)
    part1, part2 = tmp_path / "p1.jsonl", tmp_path / "p2.jsonl"
    part1.write_text("".join(json.dumps(r) + "\n" for r in rows[:4]))
    part2.write_text("".join(json.dumps(r) + "\n" for r in rows[4:]))
    bad = tmp_path / "bad.jsonl"
    broken = dict(rows[0], moves=rows[0]["moves"][:3] + rows[0]["moves"][:1] + rows[0]["moves"][4:])
    bad.write_text(json.dumps(broken) + "\n")
    out = tmp_path / "analysis.jsonl"
    summary = analyse([part1, bad, part2], out, progress=False, executor=cf.ThreadPoolExecutor(2))
    assert [t for t, _ in summary.failed] == [1]
    assert "IllegalMoveError" in summary.failed[0][1]
    got = read_results(out)
    assert summary.results == len(got) == 6
    direct = play_games(tf.Variant.TWO_PLAYER, 6, seed=8)
    expected = [summarise_game(direct.game(i)) for i in range(6)]
    assert [r["game"] for r in got] == list(range(6))
    assert [{k: v for k, v in r.items() if k not in ("task", "task_lines", "source", "game")} for r in got] == expected
    assert expected[0]["mobility"][0] == len(tf.Game(tf.Variant.TWO_PLAYER).legal_moves)


def test_solve_seeds_and_blksgf_output(tmp_path):
    s = solve_seeds([1, 2], tmp_path / "s.jsonl", time_limit=2.0, progress=False,
                    executor=cf.ThreadPoolExecutor(2))
    assert s.ok and s.results == 2
    assert [r["solution"] for r in read_results(s.path)] == [0, 0]
    s = self_play(games=4, path=tmp_path / "x.jsonl", blksgf_dir=tmp_path / "sgf", games_per_task=2,
                  progress=False, executor=cf.ThreadPoolExecutor(1))
    files = sorted(os.listdir(tmp_path / "sgf"))
    assert s.ok and files == ["task_00000.blksgf", "task_00001.blksgf"]
    a = analyse([tmp_path / "sgf" / f for f in files], tmp_path / "a.jsonl", progress=False,
                executor=cf.ThreadPoolExecutor(2))
    direct = play_games(games=4, seed=0)
    assert a.ok and [r["length"] for r in read_results(a.path)] == [int(n) for n in direct.lengths]


def test_solve_seeds_with_count_writes_a_line_per_solution(tmp_path):
    # count=N makes solve_solo return a list: every task failed on it (no .stats on a list).
    s = solve_seeds([1, 2], tmp_path / "s.jsonl", time_limit=5.0, progress=False, count=3,
                    executor=cf.ThreadPoolExecutor(1))
    rows = read_results(s.path)
    assert s.ok and s.results == 6 and not s.failed
    assert [(r["seed"], r["solution"]) for r in rows] == [(1, 0), (1, 1), (1, 2), (2, 0), (2, 1), (2, 2)]
    v = tf.Variant.SOLO
    for r in rows:
        g = tf.Game(v)
        for c, m in zip(r["colours"], r["moves"]):
            g.play(m, colour=c)
        assert r["complete"] and g.is_over and r["total_score"] == sum(g.scores().values())
    # Distinct layouts within a seed.
    for seed in (1, 2):
        layouts = {frozenset(r["moves"]) for r in rows if r["seed"] == seed}
        assert len(layouts) == 3


def test_dask_local_cluster_gives_the_local_pool_results(tmp_path):
    distributed = pytest.importorskip("distributed")
    v = tf.Variant.FOUR_PLAYER
    local = self_play(v, 20, tmp_path / "local.jsonl", seed=13, games_per_task=5, progress=False)
    local_an = analyse([local.path], tmp_path / "local_an.jsonl", progress=False)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        ex = client.get_executor()
        dask = self_play(v, 20, tmp_path / "dask.jsonl", seed=13, games_per_task=5, progress=False, executor=ex)
        dask_an = analyse([dask.path], tmp_path / "dask_an.jsonl", progress=False, executor=ex)
    assert local.ok and dask.ok and local_an.ok and dask_an.ok
    assert _strip(read_results(local.path)) == _strip(read_results(dask.path))
    strip_src = lambda rows: [{k: v for k, v in r.items() if k not in ("task", "task_lines", "source")} for r in rows]  # noqa: E731
    assert strip_src(read_results(local_an.path)) == strip_src(read_results(dask_an.path))
    assert len(read_results(dask_an.path)) == 20


def test_module_docstring():
    import doctest

    from trigon_fast import batch

    res = doctest.testmod(batch, optionflags=doctest.ELLIPSIS)
    assert res.attempted > 0 and res.failed == 0


def test_progress_bar_runs(tmp_path, capsys):
    pytest.importorskip("tqdm")
    s = self_play(games=4, path=tmp_path / "p.jsonl", games_per_task=2, executor=cf.ThreadPoolExecutor(1))
    assert s.ok and s.results == 4
    assert "self-play" in capsys.readouterr().err


def test_batch_game_index_like_a_list():
    b = play_games(games=3, seed=2, threads=1)
    assert b.game(-1).history == b.game(2).history
    with pytest.raises(IndexError, match=r"the batch has 3 games\) must be -3..2, not 3"):
        b.game(3)
    with pytest.raises(ValueError, match="integer"):  # (a GameIndexError, an IndexError too)
        b.game(1.0)


def test_play_games_variant_and_start_must_agree():
    start = tf.Game(tf.Variant.TWO_PLAYER)
    assert play_games(games=1, start=start, threads=1).variant == tf.Variant.TWO_PLAYER
    assert play_games(tf.Variant.TWO_PLAYER, games=1, start=start, threads=1).variant == tf.Variant.TWO_PLAYER
    with pytest.raises(BatchError, match="start game"):
        play_games(tf.Variant.THREE_PLAYER, games=1, start=start)
    with pytest.raises(TypeError, match="start must be a Game"):
        play_games(games=1, start=5)
    with pytest.raises(ValueError, match="start game"):
        tf.random_game(tf.Variant.THREE_PLAYER, start=tf.Game())
    assert tf.random_game(seed=1, start=start).variant == tf.Variant.TWO_PLAYER


def test_play_games_too_many_for_memory_is_a_batch_error():
    with pytest.raises(BatchError, match="not enough memory"):
        play_games(games=2**40, threads=1)


def test_analyse_takes_one_path_as_one_file(tmp_path):
    rec = tmp_path / "g.blksgf"
    rec.write_text(tf.random_game(tf.Variant.TWO_PLAYER, 3).to_blksgf())
    out = tmp_path / "a.jsonl"
    summary = analyse(str(rec), out, progress=False)
    assert summary.tasks == 1 and summary.ok and summary.results == 1


def test_observation_planes_layout_is_relative_to_the_colour():
    # The planes' layout checked against the position itself: the other observation test here
    # compares play_games' planes with _core.observation_planes, which share write_planes, and
    # test_env.py (which would catch a wrong colour order) skips without the rl extra.
    for v in (tf.Variant.TWO_PLAYER, tf.Variant.FOUR_PLAYER, tf.Variant.THREE_PLAYER):
        g = tf.random_game(v, seed=5)
        start = tf.Game(v)
        for _, m in g.history[:min(len(g.history), 14)]:
            start.play(m)
        pos = start.position
        occ = pos.occupancy()
        for c in range(4):
            if not pos.in_play(c):
                continue
            planes, pieces = _core.observation_planes(pos, c)
            assert planes.shape == (_core.PLANE_CHANNELS, occ.size) and pieces.shape == (4, 22)
            for k in range(4):
                oc = (c + k) % 4
                assert np.array_equal(planes[k], (occ == oc).astype(np.int8)), (c, k)
                left = pos.pieces_left(oc) if pos.in_play(oc) else 0
                assert [int(x) for x in pieces[k]] == [left >> p & 1 for p in range(22)], (c, k)
            if pos.started(c):
                place = pos.attach_mask(c)
            else:
                place = np.isin(np.arange(occ.size), pos.start_cells(c))
            assert np.array_equal(planes[4], place.astype(np.int8)), c
            assert np.array_equal(planes[5], pos.forbidden_mask(c).astype(np.int8)), c
