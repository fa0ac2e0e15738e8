"""The subcommands' options checked against facts found without the CLI: records read back and
replayed, the Python API called with the same settings, the rulebook's scores. Each test here
catches a mutation of solve_cmd, exact_cmd, analyse_cmd, match_cmd, play_cmd or bench_cmd that
the flow tests of test_cli.py let through (docs/reliability.md, "Mutation rounds")."""

import dataclasses
import json
import math
import random
import re

import pytest
from click.testing import CliRunner

import trigon_fast as tf
from trigon_fast import cli
from trigon_fast.cli.common import greedy_move

COLOURS = ["blue", "yellow", "red", "green"]  # colours 1-4, conventions.md


def run(args, input=None):
    return CliRunner().invoke(cli.main, [str(a) for a in args], input=input)


def moves_of(game):
    return [str(m) for m in game.moves]


def greedy_game(variant, seed=0, keep=None):
    g, rng = tf.Game(variant), random.Random(seed)
    while not g.is_over and (keep is None or len(g.history) < keep):
        g.play(greedy_move(g, rng))
    return g


def cut(game, n):
    g = game.copy()
    while len(g.history) > n:
        g.undo()
    return g


class Spy:
    """Wraps a function: records each call's keyword arguments, then calls it (or ``fake``)."""

    def __init__(self, real, fake=None):
        self.real, self.fake, self.calls = real, fake, []

    def __call__(self, *args, **kwargs):
        self.calls.append(kwargs)
        return (self.fake or self.real)(*args, **kwargs)


def triangles_left(game, colour):
    return sum(tf.PIECE_SIZES[tf.PIECE_NAMES.index(p)] for p in game.pieces_left(colour))


# -- solve -----------------------------------------------------------------------------------
def test_solve_writes_the_seeds_solution_whole(tmp_path):
    out, svg = tmp_path / "s.blksgf", tmp_path / "s.svg"
    r = run(["solve", "--seed", "5", "--time-limit", "20", "--out", out, "--svg", svg])
    assert r.exit_code == 0, r.output
    assert re.search(r"^complete: score \+80 in [\d.]+ s$", r.stdout, re.M), r.stdout
    for name in COLOURS:  # a perfect colour scores +20 (rulebook)
        assert re.search(rf"^  {name:6s}  \+20   pieces left: 0$", r.stdout, re.M)
    g = tf.Game.from_blksgf(out.read_text())  # replayed legally, every piece placed
    assert g.is_over and all(g.score(c) == 20 for c in range(4)) and len(g.moves) == 88
    assert moves_of(g) == moves_of(tf.solve_solo(seed=5, time_limit=20).game)  # --seed passed on
    assert moves_of(g) != moves_of(tf.solve_solo(seed=0, time_limit=20).game)
    assert svg.read_text().startswith("<svg")


def test_solve_side_8_places_three_colours():
    r = run(["solve", "--side", "8", "--seed", "1", "--time-limit", "20"])
    assert r.exit_code == 0, r.output
    assert re.search(r"^complete: score \+60 in", r.stdout, re.M), r.stdout
    assert "green" not in r.stdout.split("complete:")[1]


def test_solve_passes_its_limits_to_the_solver(monkeypatch):
    spy = Spy(tf.solver.solve_solo)
    monkeypatch.setattr(tf.solver, "solve_solo", spy)
    r = run(["solve", "--seed", "3", "--time-limit", "7.5", "--threads", "2"])
    assert r.exit_code == 0, r.output
    assert [(c["seed"], c["time_limit"], c["threads"]) for c in spy.calls] == [(3, 7.5, 2)]


def test_solve_interrupted_exits_130_even_with_a_complete_layout(monkeypatch):
    real = tf.solver.solve_solo
    monkeypatch.setattr(tf.solver, "solve_solo",
                        lambda *a, **k: dataclasses.replace(real(*a, **k), interrupted=True))
    r = run(["solve", "--seed", "1", "--time-limit", "20"])
    assert r.exit_code == 130, r.output
    assert "interrupted: the best layout found so far is shown" in r.output


def test_solve_many_files_summary_and_limits(tmp_path, monkeypatch):
    spy = Spy(tf.solver.iter_solutions)
    monkeypatch.setattr(tf.solver, "iter_solutions", spy)
    out = tmp_path / "sols"
    r = run(["solve", "--count", "3", "--out-dir", out, "--seed", "4", "--threads", "2", "--time-limit", "20",
             "--start", "blue=r15"])
    assert r.exit_code == 0, r.output
    assert [(c["seed"], c["threads"], c["time_limit"]) for c in spy.calls] == [(4, 2, 20.0)]
    assert re.search(r"^3 distinct solutions of 3 in [\d.]+ s \(\d+/s\); scores \+80$", r.stdout, re.M)
    assert f"wrote {out / 'solution-0001.blksgf'} .. solution-0003.blksgf" in r.stdout
    names = sorted(p.name for p in out.iterdir())
    assert names == ["solution-0001.blksgf", "solution-0002.blksgf", "solution-0003.blksgf"]
    for p in out.iterdir():
        g = tf.Game.from_blksgf(p.read_text())
        first_blue = [m for c, m in g.history if int(c) == 0][0]
        assert g.is_over and sum(g.scores().values()) == 80 and "r15" in str(first_blue).split(",")


def test_solve_out_dir_alone_saves_one_and_count_refuses_svg(tmp_path):
    out = tmp_path / "one"
    r = run(["solve", "--out-dir", out, "--seed", "2", "--time-limit", "20"])
    assert r.exit_code == 0, r.output
    assert [p.name for p in out.iterdir()] == ["solution-0001.blksgf"]
    assert f"wrote {out / 'solution-0001.blksgf'}\n" in r.stdout
    r = run(["solve", "--count", "2", "--svg", tmp_path / "x.svg"])
    assert r.exit_code == 2 and "--out-dir" in r.output and not (tmp_path / "x.svg").exists()


def test_solve_with_no_colours_is_an_argument_mistake():
    r = run(["solve", "--colours", "none", "--time-limit", "1"])
    assert r.exit_code == 2 and "no colours to place" in r.output and "score" not in r.output


def test_solve_many_interrupted_in_the_solver_exits_130(tmp_path, monkeypatch):
    real = tf.solver.iter_solutions

    class StopsAfterOne:  # the stream ended by Ctrl-C in the solver after one solution
        interrupted = False

        def __init__(self, *a, **k):
            self.inner = real(*a, **k)

        def __iter__(self):
            yield next(iter(self.inner))
            self.interrupted = True

    monkeypatch.setattr(tf.solver, "iter_solutions", StopsAfterOne)
    r = run(["solve", "--count", "3", "--out-dir", tmp_path / "d", "--time-limit", "20"])
    assert r.exit_code == 130, r.output
    assert re.search(r"^1 distinct solution of 3 in", r.stdout, re.M)
    assert "interrupted: 1 of 3 solutions found" in r.output


# -- exact -----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def greedy_record(tmp_path_factory):
    g = greedy_game(tf.Variant.FOUR_PLAYER)
    path = tmp_path_factory.mktemp("exact") / "g.blksgf"
    path.write_text(g.to_blksgf())
    return g, path


def test_exact_no_with_max_in_json_equals_the_api(greedy_record):
    g, rec = greedy_record
    at48 = cut(g, 48)
    r = run(["exact", rec, "--move", "48", "--max", "--exhaustive", "--json"])
    assert r.exit_code == 0, r.output
    report = json.loads(r.stdout)
    want = tf.can_place_all(at48, [0, 1, 2, 3], heuristic=False)
    assert want.answer is False
    assert (report["answer"], report["proven"], report["nodes"], report["best_triangles"]) == \
        ("no", True, want.nodes, None)
    assert report["target_triangles"] == sum(triangles_left(at48, c) for c in range(4))
    for c, name in enumerate(COLOURS):
        m = tf.max_placeable(at48, c, heuristic=False)
        got = report["max_placeable"][name]
        assert (got["triangles"], got["of"], got["proven"], got["nodes"]) == \
            (m.triangles, triangles_left(at48, c), True, m.nodes)
    assert any(report["max_placeable"][n]["triangles"] < report["max_placeable"][n]["of"] for n in COLOURS)


def test_exact_passes_its_limits_on(greedy_record, monkeypatch):
    _, rec = greedy_record
    place, most = Spy(tf.exact.can_place_all), Spy(tf.exact.max_placeable)
    monkeypatch.setattr(tf.exact, "can_place_all", place)
    monkeypatch.setattr(tf.exact, "max_placeable", most)
    r = run(["exact", rec, "--move", "48", "--colours", "2,4", "--max", "--time-limit", "9", "--node-limit",
             "123456", "--threads", "2"])
    assert r.exit_code == 0, r.output
    assert [(c["time_limit"], c["node_limit"], c["threads"], c["heuristic"]) for c in place.calls] == \
        [(9.0, 123456, 2, True)]
    assert [(c["time_limit"], c["node_limit"], c["heuristic"]) for c in most.calls] == [(9.0, 123456, True)] * 2
    # Colours 2 and 4 are yellow and green (conventions.md): the text names them in that order.
    assert "pieces left: yellow 10, green 10 (" in r.stdout and "  yellow alone:" in r.stdout


def test_exact_yes_text_counts_the_witness_moves(tmp_path):
    g = cut(tf.solve_solo(seed=1, time_limit=20).game, 40)
    rec = tmp_path / "s.blksgf"
    rec.write_text(g.to_blksgf())
    r = run(["exact", rec, "--colours", "red"])
    assert r.exit_code == 0, r.output
    assert f"position after 40 moves; pieces left: red 12 ({triangles_left(g, 2)} triangles)" in r.stdout
    assert "yes: a layout of 12 moves places them all" in r.stdout


def test_exact_not_proven_saves_the_best_layout(tmp_path):
    g = cut(tf.random_game(seed=3), 40)  # 12 pieces a colour: not settled in a fraction of a second
    rec, out = tmp_path / "g.blksgf", tmp_path / "best.blksgf"
    rec.write_text(g.to_blksgf())
    r = run(["exact", rec, "--time-limit", "0.3", "--node-limit", "10000000", "--out", out])
    assert r.exit_code == 0, r.output
    # (the time ran out, far from the node limit: the line names the time alone)
    found = re.search(r"^not proven in 0.3 s: the best layout found places (\d+) of (\d+) "
                      r"triangles", r.stdout, re.M)
    assert found, r.stdout
    best, target = map(int, found.groups())
    assert target == sum(triangles_left(g, c) for c in range(4)) and 0 < best < target
    w = tf.Game.from_blksgf(out.read_text())  # the position, then the layout, replayed legally
    assert moves_of(w)[:40] == moves_of(g)
    assert sum(m.size for m in w.moves[40:]) == best


def test_exact_max_interrupted_exits_130(greedy_record, monkeypatch):
    _, rec = greedy_record
    real = tf.exact.max_placeable
    monkeypatch.setattr(tf.exact, "max_placeable",
                        lambda *a, **k: dataclasses.replace(real(*a, **k), interrupted=True))
    r = run(["exact", rec, "--move", "48", "--max", "--colours", "blue,red"])
    assert r.exit_code == 130, r.output
    assert "interrupted: the answer so far is shown" in r.output
    assert "blue alone:" in r.stdout and "red alone:" not in r.stdout  # the second was not asked


# -- analyse ---------------------------------------------------------------------------------
def test_analyse_one_position_equals_the_api_for_the_seed(tmp_path):
    g = greedy_game(tf.Variant.FOUR_PLAYER, keep=6)
    rec = tmp_path / "g.blksgf"
    rec.write_text(g.to_blksgf())
    r = run(["analyse", rec, "--move", "5", "--json", "--simulations", "60", "--seed", "7"])
    assert r.exit_code == 0, r.output
    report = json.loads(r.stdout)
    a = tf.analyse(cut(g, 5), simulations=60, seed=7)
    assert report["to_move"] == "yellow" and report["best"] == str(a.best_move)
    assert report["values"] == {n: round(float(a.value[c]), 4) for c, n in enumerate(COLOURS)}
    assert [(m["move"], m["visits"]) for m in report["moves"]] == \
        [(str(m.move), int(m.visits)) for m in a.moves[:10]]
    assert len(report["moves"]) == 10


def test_analyse_passes_time_and_threads_on(tmp_path, monkeypatch):
    rec = tmp_path / "g.blksgf"
    rec.write_text(greedy_game(tf.Variant.FOUR_PLAYER, keep=2).to_blksgf())
    spy = Spy(tf.search.analyse)
    monkeypatch.setattr(tf.search, "analyse", spy)
    r = run(["analyse", rec, "--move", "1", "--time", "0.05", "--threads", "2", "--seed", "9", "--json"])
    assert r.exit_code == 0, r.output
    assert [(c["simulations"], c["time"], c["threads"], c["seed"]) for c in spy.calls] == [(None, 0.05, 2, 9)]
    r = run(["analyse", rec, "--svg", rec.with_suffix(".svg")])
    assert r.exit_code == 2 and "give --move N" in r.output


def test_analyse_game_values_and_mistakes_equal_the_api(tmp_path):
    # Each row's values are the searches' root values of the positions before and after the move,
    # from the mover's side; a mistake is a drop of more than --mistake by a move not the best.
    g = greedy_game(tf.Variant.TWO_PLAYER, seed=1, keep=6)
    rec = tmp_path / "g.blksgf"
    rec.write_text(g.to_blksgf())
    r = run(["analyse", rec, "--json", "--simulations", "40", "--seed", "2", "--mistake", "0"])
    assert r.exit_code == 0, r.output
    rows = json.loads(r.stdout)["moves"]
    analyses = [tf.analyse(cut(g, k), simulations=40, seed=2) for k in range(7)]
    drops = 0
    for k, row in enumerate(rows):
        c, move = g.history[k]
        before, after = float(analyses[k].value[int(c)]), float(analyses[k + 1].value[int(c)])
        assert (row["colour"], row["value_before"], row["value_after"]) == \
            (COLOURS[int(c)], round(before, 4), round(after, 4))
        assert row["mistake"] == (before > after and move != analyses[k].best_move)
        drops += before > after
    assert len(rows) == 6 and 0 < drops < 6  # both kinds of rows are there


def test_analyse_a_game_of_best_moves_has_no_mistakes(tmp_path):
    g, analyses = tf.Game(tf.Variant.TWO_PLAYER), []
    for _ in range(6):
        analyses.append(tf.analyse(g, simulations=30, seed=1))
        g.play(analyses[-1].best_move)
    analyses.append(tf.analyse(g, simulations=30, seed=1))
    # (The mover's value falls after some of these moves: a drop alone is no mistake.)
    assert any(analyses[k].value[int(c)] > analyses[k + 1].value[int(c)] for k, (c, _) in enumerate(g.history))
    rec = tmp_path / "g.blksgf"
    rec.write_text(g.to_blksgf())
    r = run(["analyse", rec, "--simulations", "30", "--seed", "1", "--mistake", "0"])
    assert r.exit_code == 0, r.output
    assert "mistakes: 0 of 6 moves" in r.stdout


def test_analyse_interrupted_judges_the_moves_analysed(tmp_path, monkeypatch):
    g = greedy_game(tf.Variant.FOUR_PLAYER, keep=6)
    rec = tmp_path / "g.blksgf"
    rec.write_text(g.to_blksgf())
    real, calls = tf.search.analyse, []

    def stopped_at_the_third(*args, **kwargs):  # Ctrl-C during the third position's search
        calls.append(1)
        return dataclasses.replace(real(*args, **kwargs), interrupted=len(calls) == 3)

    monkeypatch.setattr(tf.search, "analyse", stopped_at_the_third)
    r = run(["analyse", rec, "--simulations", "10"])
    assert r.exit_code == 130, r.output
    assert "mistakes: " in r.stdout and " of 1 moves" in r.stdout
    assert "interrupted: stopped after 1 of 6 moves" in r.output
    calls.clear()
    r = run(["analyse", rec, "--simulations", "10", "--json"])
    report = json.loads(r.stdout)
    assert len(report["moves"]) == 1 and report["interrupted"] is True
    assert report["scores"] == {COLOURS[c]: g.score(c) for c in range(4)}  # the record's game, whole


def test_analyse_a_drawn_game_ends_at_a_half(tmp_path):
    g = greedy_game(tf.Variant.TWO_PLAYER, seed=16)  # greedy play to a draw, -33 all
    assert g.is_over and len(g.winners()) == 2
    rec = tmp_path / "g.blksgf"
    rec.write_text(g.to_blksgf())
    r = run(["analyse", rec, "--json", "--simulations", "1"])
    assert r.exit_code == 0, r.output
    report = json.loads(r.stdout)
    assert report["moves"][-1]["value_after"] == 0.5  # the draw shared by the two players
    assert report["scores"] == {COLOURS[c]: g.score(c) for c in range(4)}


def test_analyse_the_end_of_a_finished_game_is_refused(tmp_path):
    g = greedy_game(tf.Variant.TWO_PLAYER, seed=16)
    rec = tmp_path / "g.blksgf"
    rec.write_text(g.to_blksgf())
    n = len(g.moves)
    r = run(["analyse", rec, "--move", n, "--simulations", "1"])
    assert r.exit_code == 1 and f"the game is over after move {n}: nothing to analyse" in r.output
    r = run(["analyse", rec, "--move", n - 1, "--simulations", "1", "--json"])
    assert r.exit_code == 0 and json.loads(r.stdout)["move_number"] == n - 1


def test_analyse_move_numbers_are_the_records(tmp_path):
    # AE lifts blue's r15 off after move 1: move 1 is still the record's first move node, so
    # the position after it has yellow to move (GTP's loadsgf 2), not the game's first move.
    rec = tmp_path / "ae.blksgf"
    rec.write_text("(;GM[Blokus Trigon];1[r15];AE[r15];2[z12];3[r4])")
    r = run(["analyse", rec, "--move", "1", "--json", "--simulations", "5"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["to_move"] == "yellow"


# -- match -----------------------------------------------------------------------------------
def wilson(wins, n, z=1.96):
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return [round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4)]


def test_match_table_of_games_cut_at_the_start():
    # --max-moves 0: every game ends on the empty board, each colour -110 (rulebook), all players
    # winning together. Three players and two engines: engine 0 holds seats 0 and 2, engine 1 seat 1.
    r = run(["match", "--engine", "random", "--engine", "greedy", "--variant", "three", "--games", "1",
             "--jobs", "1", "--max-moves", "0", "--json"])
    assert r.exit_code == 0, r.output
    rows = json.loads(r.stdout)["results"]
    assert [(x["games"], x["wins"], x["win_rate"], x["avg_score"]) for x in rows] == \
        [(1, 0.67, 0.6667, -110), (1, 0.33, 0.3333, -110)]
    assert rows[0]["ci95"] == wilson(2 / 3, 1)
    # Three engines, two seats: seats rotate, so each engine plays two of the three games.
    r = run(["match", "--engine", "random", "--engine", "greedy", "--engine", "random", "--variant", "two",
             "--games", "3", "--jobs", "1", "--max-moves", "0", "--json"])
    rows = json.loads(r.stdout)["results"]
    assert [(x["games"], x["wins"], x["win_rate"]) for x in rows] == [(2, 1.0, 0.5)] * 3
    assert all(x["ci95"] == wilson(1, 2) for x in rows)


def test_match_seed_alternate_and_jobs(monkeypatch):
    args = ["match", "--engine", "random", "--engine", "random", "--variant", "two", "--games", "2",
            "--jobs", "1", "--max-moves", "16", "--json"]
    one, again, other = (json.loads(run([*args, "--seed", s]).stdout)["results"] for s in ("1", "1", "2"))
    assert one == again and one != other
    assert one[0]["avg_score"] != one[1]["avg_score"]  # the games differ (each its own random stream)
    from trigon_fast.cli import match_cmd

    variants = []
    monkeypatch.setattr(match_cmd, "Game", lambda v: variants.append(v) or tf.Game(v))
    r = run(["match", "--engine", "greedy", "--engine", "random", "--alternate", "--games", "1", "--jobs", "3",
             "--max-moves", "4"])
    assert r.exit_code == 0, r.output
    assert [v.alternate_rule for v in variants] == [True]
    assert ": 1 games, 1 in parallel" in r.stdout  # (no more workers than games)


# -- play ------------------------------------------------------------------------------------
def test_play_header_names_the_colours_and_level():
    r = run(["play", "--level", "5", "--max-moves", "0"], input="")
    assert "engine 'search:level=5' plays yellow, red, green" in r.stdout and "you play blue," in r.stdout
    r = run(["play", "--variant", "teams", "--opponent", "greedy", "--max-moves", "0"], input="")
    assert "you play blue, red, engine 'greedy' plays yellow, green" in r.stdout
    r = run(["play", "--engine", "2,4", "--opponent", "greedy", "--max-moves", "0"], input="")
    assert "you play blue, red, engine 'greedy' plays yellow, green" in r.stdout


def test_play_legal_lists_pieces_and_save(tmp_path):
    g = tf.Game()
    ids = [int(i) for i in g.legal_moves.ids]
    b = tf.board(9)
    i6 = tf.PIECE_NAMES.index("I6")
    all_i6 = [i for i in ids if b.placement_piece(i) == i6]
    on_r15 = [i for i in all_i6 if b.parse_cell("r15") in b.placement_cells(i)]
    path = tmp_path / "g.blksgf"
    script = "legal I6\nlegal I6 r15\nq15,r15,p16,q16,o17,p17\npieces\nquit\n"
    r = run(["play", "--opponent", "greedy", "--seed", "1", "--save", path], input=script)
    assert r.exit_code == 0, r.output
    assert f"  ... and {len(all_i6) - 40} more ({len(all_i6)} in all)" in r.stdout
    second = r.stdout.split("blue> ")[2]  # the answer to the second command
    assert second.count("  I6 ") == len(on_r15) and 0 < len(on_r15) < 40
    assert re.search(r"^  blue   (?!.*\bI6\b).+$", r.stdout, re.M)  # blue has played its I6
    assert re.search(r"^  yellow .*\bI6\b", r.stdout, re.M)
    saved = tf.Game.from_blksgf(path.read_text())  # --save writes the game left unfinished
    assert str(saved.history[0][1]) == "q15,r15,p16,q16,o17,p17" and len(saved.history) == 4


def test_play_typed_orientation_is_checked(tmp_path):
    tf.Move.from_piece("I6", 5, "o17")
    with pytest.raises(ValueError):
        tf.Move.from_piece("I6", 11, "o17")  # I6 has orientations 0..5: 11 is not 5 again
    path = tmp_path / "g.blksgf"
    r = run(["play", "--opponent", "greedy", "--save", path], input="I6 11 o17\nquit\n")
    assert "error: " in r.stdout and "(engine) plays" not in r.stdout
    assert tf.Game.from_blksgf(path.read_text()).history == []


def test_play_undo_takes_back_the_engines_replies_too(tmp_path):
    path = tmp_path / "g.blksgf"
    r = run(["play", "--opponent", "greedy", "--save", path], input="r15\nundo\nquit\n")
    assert r.exit_code == 0, r.output
    assert r.stdout.count("(engine) plays") == 3 and "undone; blue to move" in r.stdout
    assert tf.Game.from_blksgf(path.read_text()).history == []


def test_play_undo_with_nothing_of_yours():
    r = run(["play", "--engine", "1", "--opponent", "greedy", "--max-moves", "3"], input="undo\nquit\n")
    assert r.exit_code == 0, r.output
    assert "nothing of yours to undo" in r.stdout and r.stdout.count("blue (engine) plays") == 1


def test_play_a_draw_is_called_a_draw():
    g = greedy_game(tf.Variant.TWO_PLAYER, seed=16)  # the engine's own greedy game, a draw
    assert sorted(g.player_scores()) == [-33, -33]
    r = run(["play", "--variant", "two", "--engine", "all", "--opponent", "greedy", "--seed", "16"], input="")
    assert r.exit_code == 0, r.output
    assert "game over: draw between blue+red, yellow+green" in r.stdout


# -- bench -----------------------------------------------------------------------------------
def test_bench_passes_games_and_simulations_on(monkeypatch):
    from trigon_fast.cli import bench_cmd

    playouts = []  # (games asked, the figures handed back): a fake of the timed playouts
    stats = {"games": 10, "moves": 700, "seconds": 2.0, "interrupted": False}
    monkeypatch.setattr(bench_cmd._core, "random_games_stats",
                        lambda position, games, threads: playouts.append(games) or dict(stats))
    searches = Spy(tf.search.analyse)
    monkeypatch.setattr(tf.search, "analyse", searches)
    r = run(["bench", "--games", "7", "--simulations", "13", "--json"])
    assert r.exit_code == 0, r.output
    figures = json.loads(r.stdout)
    assert playouts == [7]
    assert figures["playouts_per_s"] == 5 and figures["playout_moves_per_s"] == 350
    assert [(c["simulations"], c["threads"]) for c in searches.calls] == [(13, 1), (13, 2)]
    stats.update(games=3, interrupted=True)  # Ctrl-C after some playouts: the bench ends there
    r = run(["bench", "--games", "7", "--simulations", "13"])
    assert r.exit_code == 130 and "playouts_per_s" not in r.stdout


def test_bench_interrupted_search_exits_130(monkeypatch):
    # Ctrl-C in the timed searches: their figures would be those of a search cut short.
    real = tf.search.analyse
    monkeypatch.setattr(tf.search, "analyse", lambda *a, **k: dataclasses.replace(real(*a, **k), interrupted=True))
    r = run(["bench", "--games", "5", "--simulations", "13", "--json"])
    assert r.exit_code == 130 and "search_sims_per_s" not in r.stdout, r.output


def test_play_ctrl_c_saves_the_game_so_far(tmp_path, monkeypatch):
    # Ctrl-C in an engine v engine game (in its search) ended it with no record: --save keeps it.
    from trigon_fast.cli import common

    real, calls = common.Engine.choose, []

    def interrupted_at_the_fourth(self, game, rng):
        calls.append(1)
        if len(calls) == 4:
            raise KeyboardInterrupt
        return real(self, game, rng)

    monkeypatch.setattr(common.Engine, "choose", interrupted_at_the_fourth)
    path = tmp_path / "g.blksgf"
    r = run(["play", "--engine", "all", "--opponent", "greedy", "--save", path], input="")
    assert r.exit_code == 130, r.output
    assert f"saved {path}" in r.stdout and "interrupted: the game so far (3 placements) is saved" in r.output
    assert len(tf.Game.from_blksgf(path.read_text()).history) == 3
    calls.clear()
    r = run(["play", "--engine", "all", "--opponent", "greedy"], input="")  # nothing to save: just ended
    assert r.exit_code == 130 and "saved" not in r.output
