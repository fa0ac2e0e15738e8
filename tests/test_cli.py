"""The `trigon` command end to end: in subprocesses (small settings), and in process (click's
runner) where a test reads the output closely."""

import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

import trigon_fast as tf
from optional import require_png
from trigon_fast import cli
from trigon_fast.cli.common import greedy_move
from trigon_fast.cli.match_cmd import wilson_interval

SVG = "{http://www.w3.org/2000/svg}"
SUBCOMMANDS = ["render", "play", "bench", "solve", "analyse", "exact", "match", "pattern"]


def trigon(*args, input=None, cwd=None, timeout=120):
    return subprocess.run([sys.executable, "-m", "trigon_fast.cli", *map(str, args)], input=input,
                          capture_output=True, text=True, cwd=cwd, timeout=timeout)


def assert_one_line_error(r):
    assert r.returncode != 0
    assert "Traceback" not in r.stderr and "Traceback" not in r.stdout
    lines = [line for line in r.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error: "), r.stderr


def occupied_polygons(svg_text):
    root = ET.fromstring(svg_text)
    return [p for p in root.iter(SVG + "polygon") if p.get("class", "").startswith("cell ")
            and p.get("class") != "cell empty"]


# -- every subcommand has help with examples; bad arguments give one line ----------------------
def test_console_script_is_installed():
    script = os.path.join(os.path.dirname(sys.executable), "trigon")
    if not os.path.exists(script):
        pytest.skip("package not installed with its scripts in this environment")
    r = subprocess.run([script, "--help"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and all(c in r.stdout for c in SUBCOMMANDS)


@pytest.mark.parametrize("sub", SUBCOMMANDS)
def test_help(sub):
    r = trigon(sub, "--help")
    assert r.returncode == 0, r.stderr
    assert f"Usage: trigon {sub}" in r.stdout
    assert "Examples:" in r.stdout


@pytest.mark.parametrize("args", [
    ["nosuchcommand"],
    ["play", "--variant", "five"],
    ["play", "--engine", "purple"],
    ["match", "--engine", "greedy", "--engine", "cheater"],
    ["match", "--engine", "greedy"],
    ["match", "--engine", "greedy", "--engine", "random", "--variant", "solo"],
    ["match", "--engine", "greedy", "--engine", "level=x"],
    ["match", "--engine", "greedy", "--engine", "simulations=1.5"],
    ["match", "--engine", "greedy:level=2", "--engine", "random"],
    ["match", "--engine", "greedy", "--engine", "search:no_such_knob=1"],
    ["solve", "--time-limit", "soon"],
    ["render", "missing.blksgf", "--svg", "out.svg"],
    ["analyse", "missing.blksgf"],
    ["bench", "--games", "0"],
    ["pattern", "missing.txt"],
    ["pattern", "-", "--pieces", "2,Q9"],
    ["pattern", "-", "--threads", "0"],
    ["exact", "missing.blksgf"],
])
def test_bad_arguments_give_one_line(args, tmp_path):
    assert_one_line_error(trigon(*args, cwd=tmp_path, input="xxxx\n"))


@pytest.mark.parametrize("args", [
    # Engine specs the search would refuse: refused before the game starts, not after a move.
    ["play", "--variant", "two", "--opponent", "search:level=99"],
    ["play", "--variant", "two", "--opponent", "search:threads=1000"],
    ["play", "--variant", "two", "--opponent", "search:simulations=0"],
    ["play", "--variant", "two", "--opponent", "search:time=-1"],
    ["match", "--engine", "search:level=99", "--engine", "random"],
    ["match", "--engine", "search:foo=1", "--engine", "random"],
    # Ranges of the API, checked by the option itself.
    ["solve", "--threads", "1000"],
    ["solve", "--seed", "-1"],
    ["analyse", "missing.blksgf", "--time", "0"],
    ["analyse", "missing.blksgf", "--threads", "257"],
    ["exact", "missing.blksgf", "--node-limit", "-1"],
    # Not finite: NaN passes every comparison of a range (a time limit that never runs out).
    ["exact", "missing.blksgf", "--time-limit", "nan"],
    ["solve", "--time-limit", "inf"],
    ["pattern", "-", "--time-limit", "1e400"],
    ["analyse", "missing.blksgf", "--mistake", "nan"],
    ["render", "missing.blksgf", "--svg", "b.svg", "--cell", "nan"],
    ["exact", "missing.blksgf", "--threads", "65"],  # (the exact search's limit, as the API's)
    ["pattern", "-", "--pieces", "V,Q"],
    ["pattern", "-", "--pieces", ","],
    # Files that could not be written, refused before any work.
    ["solve", "--out", "no_such_folder/s.blksgf"],
    ["solve", "--start", "blue=a1"],
    ["solve", "--start", "blue"],
    ["solve", "--start", "all=r15"],
    ["solve", "--start", "blue=r15,blue=r4"],
    ["solve", "--start", "blue=r15,red=r15"],
    ["solve", "--side", "8", "--start", "green=p14"],
    ["play", "--save", "no_such_folder/g.blksgf"],
    # Arguments the search call sets itself: passed on as knobs they were a TypeError, a traceback.
    ["match", "--engine", "search:seed=5", "--engine", "greedy", "--games", "1"],
    ["play", "--variant", "two", "--opponent", "search:seed=5"],
    ["play", "--variant", "two", "--opponent", "search:game=x"],
    ["play", "--variant", "two", "--opponent", "callback=x"],
])
def test_argument_mistakes_exit_2_before_any_work(args, tmp_path):
    r = trigon(*args, cwd=tmp_path, input="q15,r15,p16,q16,o17,p17\nquit\n")
    assert_one_line_error(r)
    assert r.returncode == 2, r.stderr
    assert "plays" not in r.stdout and "(engine)" not in r.stdout  # no game was started


def test_python_m_trigon_fast_takes_the_trigon_commands():
    run = lambda *a: subprocess.run([sys.executable, "-m", "trigon_fast", *a], capture_output=True, text=True,
                                    timeout=120)
    r = run("--help")
    assert r.returncode == 0 and "Usage: python -m trigon_fast" in r.stdout
    assert all(c in r.stdout for c in SUBCOMMANDS)
    assert_one_line_error(r := run("bogus"))
    assert r.returncode == 2
    r = run("solve", "--time-limit", "5", "--seed", "3")
    assert r.returncode == 0 and "complete: score +80" in r.stdout, r.stdout + r.stderr


def test_reserved_engine_options_are_named():
    r = trigon("match", "--engine", "search:seed=5", "--engine", "greedy", "--games", "1")
    assert r.returncode == 2 and "engine option 'seed=5' is reserved: " in r.stderr and "--seed" in r.stderr


def test_python_m_trigon_fast_ends_quietly_when_the_reader_goes_away():
    # `python -m trigon_fast | true`: the solution printed into a pipe nobody reads.
    read_end, write_end = os.pipe()
    os.close(read_end)  # (closed first: the first write fails, whenever it comes)
    try:
        r = subprocess.run([sys.executable, "-m", "trigon_fast"], stdout=write_end, stderr=subprocess.PIPE,
                           text=True, timeout=120)
    finally:
        os.close(write_end)
    assert r.returncode == 1 and r.stderr == "", r.stderr


def test_progress_bars_keep_out_of_the_way_of_a_closed_stderr():
    # `2>&-`: sys.stderr is None, and a bar writing to it ended the command (exit 1, no output).
    r = subprocess.run(["bash", "-c", 'exec "$@" 2>&-', "_", sys.executable, "-m", "trigon_fast.cli",
                        "pattern", "-", "--pieces", "V,P6,F,A6", "--count"],
                       input=HEXAGON, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "solutions: 24 (exact)" in r.stdout, r.stdout


HEXAGON = "  xxxxx\n xxxxxxx\n xxxxxxx\n  xxxxx\n"


def test_pattern_counts_and_draws(tmp_path):
    r = trigon("pattern", "-", "--pieces", "V,P6,F,A6", "--count", "--show", "3", input=HEXAGON)
    assert r.returncode == 0, r.stderr
    assert "solutions: 24 (exact)" in r.stdout
    body = r.stdout.split("\n", 1)[1]  # after the "region: ..." line
    drawings = [d for d in body.split("\n\n") if d.strip() and "solutions" not in d]
    assert len(drawings) == 3 and len(set(drawings)) == 3
    for d in drawings:  # each a cover of the hexagon: the picture read back is the region
        assert tf.parse_region(re.sub("[a-zA-Z0-9]", "x", d)) == tf.parse_region(HEXAGON)
        assert sorted(set(re.sub("[ \n]", "", d))) == list("abcd")
    path = tmp_path / "hexagon.txt"
    path.write_text(HEXAGON)
    u = trigon("pattern", path, "--pieces", "V,P6,F,A6", "--unique", "--show", "0")
    assert u.returncode == 0 and "symmetry classes: 2 (exact)" in u.stdout and "aaa" not in u.stdout


def test_pattern_show_n_draws_n_without_counting():
    # --show 3 drew one solution unless --count was given too (the search stopped at the first).
    r = run_in_process(["pattern", "-", "--pieces", "V,P6,F,A6", "--show", "3"], input=HEXAGON)
    assert r.exit_code == 0, r.output
    body = r.stdout.split("\n", 1)[1]
    drawings = [d for d in body.split("\n\n") if d.strip() and "nodes" not in d]
    assert len(drawings) == 3 and len(set(drawings)) == 3
    assert "solutions" not in r.stdout  # no count asked for, none claimed
    more = run_in_process(["pattern", "-", "--pieces", "V,P6,F,A6", "--show", "30"], input=HEXAGON)
    assert more.exit_code == 0 and "\n24 solutions in all\n" in more.stdout, more.output
    classes = run_in_process(["pattern", "-", "--pieces", "V,P6,F,A6", "--show", "5", "--unique"], input=HEXAGON)
    assert classes.exit_code == 0 and "symmetry classes: 2 (exact)" in classes.stdout


def test_pattern_impossible_and_unsolvable():
    r = trigon("pattern", "-", input="xxxxxx\nxxxxxx\n")
    assert r.returncode == 0 and "no solution: area mismatch" in r.stdout
    # Every cell has a piece that fits, but no cover exists: found by the search.
    r = trigon("pattern", "-", "--pieces", "I6,L6", input="xxxxxx\nxxxxxx\n")
    assert r.returncode == 0 and "\nno solution\n" in r.stdout


def test_pattern_picture_with_a_byte_order_mark(tmp_path, monkeypatch):
    # A BOM read as a character of the picture shifted it one column: a wrong answer, no error.
    from trigon_fast.cli import solve_cmd

    pictures = []
    real = solve_cmd.parse_region
    monkeypatch.setattr(solve_cmd, "parse_region", lambda text, side: pictures.append(text) or real(text, side))
    path = tmp_path / "hexagon.txt"
    path.write_text("\ufeff" + HEXAGON, encoding="utf-8")
    r = run_in_process(["pattern", str(path), "--pieces", "V,P6,F,A6", "--count", "--show", "0"])
    assert r.exit_code == 0, r.output
    assert "solutions: 24 (exact)" in r.stdout and pictures == [HEXAGON]


def test_pattern_without_count_or_drawing_says_whether_it_can_be_covered():
    r = run_in_process(["pattern", "-", "--pieces", "I6,I6", "--show", "0"], input="xxxxxx\nxxxxxx\n")
    assert r.exit_code == 0 and "a solution exists" in r.stdout, r.output
    r = run_in_process(["pattern", "-", "--pieces", "I6,L6", "--show", "0"], input="xxxxxx\nxxxxxx\n")
    assert r.exit_code == 0 and "\nno solution\n" in r.stdout and "a solution exists" not in r.stdout


@pytest.mark.parametrize("picture", ["", "\n\n  \n"])
def test_pattern_empty_picture_is_an_error(picture, tmp_path):
    # An empty file was an empty region ("no solution", exit 0), a file of blank lines an error.
    path = tmp_path / "empty.txt"
    path.write_text(picture)
    r = trigon("pattern", path)
    assert_one_line_error(r)
    assert r.returncode == 1 and "no filled cells" in r.stderr


def test_pattern_interrupted_exits_130(monkeypatch):
    import dataclasses

    real = tf.PatternPuzzle.solve
    monkeypatch.setattr(tf.PatternPuzzle, "solve",
                        lambda self, *a, **k: dataclasses.replace(real(self, *a, **k), interrupted=True, exhausted=False))
    r = run_in_process(["pattern", "-", "--pieces", "V,P6,F,A6", "--count", "--show", "0"], input=HEXAGON)
    assert r.exit_code == 130, r.output
    assert "solutions: 24 (interrupted)" in r.stdout and "interrupted: the count so far is shown" in r.output


# -- bench, match, play: need only the core ----------------------------------------------------
def test_bench_json():
    r = trigon("bench", "--games", "50", "--simulations", "100", "--json")
    assert r.returncode == 0, r.stderr
    figures = json.loads(r.stdout)
    for key in ("table_build_s_side9", "movegen_us_per_position_mean", "playouts_per_s"):
        assert figures[key] > 0
    assert figures["search_sims_per_s_1t"] > 0 and figures["search_sims_per_s_2t"] > 0
    r = trigon("bench", "--games", "50", "--simulations", "100")
    assert r.returncode == 0 and "playouts_per_s" in r.stdout


def test_match_in_parallel_table_and_json():
    r = trigon("match", "--engine", "greedy", "--engine", "random", "--games", "4", "--jobs", "2",
               "--variant", "two", "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    rows = out["results"]
    assert [row["engine"] for row in rows] == ["greedy", "random"]
    assert all(row["games"] == 4 for row in rows)
    assert sum(row["wins"] for row in rows) == pytest.approx(4)  # one winner (or shared) per game
    for row in rows:
        lo, hi = row["ci95"]
        assert 0 <= lo <= row["win_rate"] <= hi <= 1
    r = trigon("match", "--engine", "greedy", "--engine", "random", "--games", "3", "--variant", "four",
               "--jobs", "1", "--max-moves", "12")
    assert r.returncode == 0, r.stderr
    assert re.search(r"^greedy\s+3\s", r.stdout, re.M) and "95% interval" in r.stdout


def test_match_says_when_it_plays_the_alternate_rule():
    # Its header named the game alone, so a match under the alternate rule read as one without.
    args = ("match", "--engine", "greedy", "--engine", "random", "--games", "2", "--jobs", "1", "--max-moves", "4")
    r = trigon(*args, "--alternate")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("Blokus Trigon Two-Player (alternate rule): 2 games")
    r = trigon(*args)
    assert r.returncode == 0 and r.stdout.startswith("Blokus Trigon Two-Player: 2 games")
    r = trigon(*args, "--alternate", "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["alternate_rule"] is True


def test_match_and_play_tell_teams_and_start_rules_apart(tmp_path):
    # Teams and four players share Pentobi's game name: the header and the JSON said the same.
    args = ["match", "--engine", "greedy", "--engine", "random", "--games", "1", "--jobs", "1", "--max-moves", "0"]
    r = run_in_process([*args, "--variant", "teams"])
    assert r.exit_code == 0 and r.stdout.startswith("Blokus Trigon (teams): 1 games"), r.output
    r = run_in_process([*args, "--variant", "four"])
    assert r.exit_code == 0 and r.stdout.startswith("Blokus Trigon: 1 games"), r.output
    teams, four, free = (json.loads(run_in_process([*args, *more, "--json"]).stdout) for more in (
        ["--variant", "teams"], ["--variant", "four"], ["--variant", "two", "--pentobi-starts"]))
    assert teams["variant"] == four["variant"] == "Blokus Trigon"
    assert (teams["kind"], four["kind"]) == ("teams", "four_player")
    assert (free["kind"], free["pentobi_starts"], free["start_rule"]) == ("two_player", True, "any")
    assert four["pentobi_starts"] is False and four["alternate_rule"] is False
    r = run_in_process([*args, "--variant", "two", "--pentobi-starts", "--alternate"])
    assert r.stdout.startswith("Blokus Trigon Two-Player (alternate rule, free start cells): 1 games")
    r = run_in_process(["play", "--variant", "teams", "--opponent", "greedy", "--max-moves", "0"], input="")
    assert r.stdout.startswith("Blokus Trigon (teams): you play blue, red,"), r.output
    rec = tmp_path / "t.blksgf"
    rec.write_text(tf.Game(tf.Variant.TEAMS, [m for _, m in tf.random_game(tf.Variant.TEAMS, seed=1).history[:3]])
                   .to_blksgf())
    for more in (["--move", "1"], []):  # (one position; every move of the game)
        report = json.loads(run_in_process(["analyse", str(rec), "--json", "--simulations", "5", *more]).stdout)
        assert (report["variant"], report["kind"]) == ("Blokus Trigon", "teams")


def test_wilson_interval():
    lo, hi = wilson_interval(5, 10)
    assert lo < 0.5 < hi and hi - 0.5 == pytest.approx(0.5 - lo)
    assert wilson_interval(0, 10)[0] == 0 and wilson_interval(10, 10)[1] == 1
    assert wilson_interval(60, 100)[1] - wilson_interval(60, 100)[0] < \
        wilson_interval(6, 10)[1] - wilson_interval(6, 10)[0]


def test_play_session(tmp_path):
    script = "\n".join([
        "help",
        "legal I6",
        "I6 5 o17",            # piece, orientation, reference cell: q15,r15,p16,q16,o17,p17
        "undo",
        "q15,r15,p16,q16,o17,p17",  # the same move in Pentobi notation
        "zz99",                # not a cell: an error, the game goes on
        "hint",
        "svg board.svg",
        "save game.blksgf",
        "quit",
    ]) + "\n"
    r = trigon("play", "--opponent", "greedy", "--seed", "1", input=script, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "I6 5 o17  (q15,r15,p16,q16,o17,p17)" in out
    assert out.count("yellow (engine) plays") == 2  # once before undo, once after
    assert "undone; blue to move" in out
    assert "'zz99' is not a cell" in out
    assert re.search(r"hint \(.*\): \S+ \d+ [a-z]+\d+ ", out)
    svg = (tmp_path / "board.svg").read_text()
    # Blue's I6 and three engine replies of up to 6 triangles each.
    assert 6 < len(occupied_polygons(svg)) <= 24
    g = tf.Game.from_blksgf((tmp_path / "game.blksgf").read_text())
    assert str(g.history[0][1]) == "q15,r15,p16,q16,o17,p17" and len(g.history) == 4


def test_play_engine_against_itself_to_the_end():
    r = trigon("play", "--variant", "three", "--engine", "all", "--opponent", "greedy", input="")
    assert r.returncode == 0, r.stderr
    assert "game over:" in r.stdout and "blue" in r.stdout.split("game over:")[1]


# -- commands that need the search / records / solver: real ones, when present ----------------
def write_record(path, keep=12, seed=2):
    g = tf.random_game(tf.Variant.FOUR_PLAYER, seed=seed)
    while len(g.history) > keep:
        g.undo()
    path.write_text(g.to_blksgf())
    return g


def test_render_real(tmp_path):
    g = write_record(tmp_path / "g.blksgf")
    r = trigon("render", "g.blksgf", "--svg", "b.svg", "--move", "5", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert len(occupied_polygons((tmp_path / "b.svg").read_text())) == sum(m.size for m in g.moves[:5])
    assert_one_line_error(trigon("render", "g.blksgf", "--svg", "b.svg", "--move", "99", cwd=tmp_path))
    require_png()
    r = trigon("render", "g.blksgf", "--png", "b.png", cwd=tmp_path)
    assert r.returncode == 0 and (tmp_path / "b.png").read_bytes()[:4] == b"\x89PNG"


def test_analyse_real(tmp_path):
    write_record(tmp_path / "g.blksgf", keep=4)
    r = trigon("analyse", "g.blksgf", "--json", "--simulations", "50", "--plot", "v.svg", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    report = json.loads(r.stdout)
    assert [row["number"] for row in report["moves"]] == [1, 2, 3, 4]
    ET.fromstring((tmp_path / "v.svg").read_text())
    r = trigon("analyse", "g.blksgf", "--move", "2", "--json", "--simulations", "50", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["to_move"] == "red"


def test_solve_real(tmp_path):
    r = trigon("solve", "--time-limit", "2", "--out", "s.blksgf", "--svg", "s.svg", cwd=tmp_path, timeout=60)
    assert r.returncode == 0, r.stderr
    assert re.search(r"complete: score [+-]\d+", r.stdout)
    svg = (tmp_path / "s.svg").read_text()
    g = tf.Game.from_blksgf((tmp_path / "s.blksgf").read_text())
    assert len(occupied_polygons(svg)) == sum(m.size for m in g.moves)


def test_play_and_match_with_the_search_real(tmp_path):
    r = trigon("play", "--opponent", "search:simulations=30", input="r15\nhint\nquit\n", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.count("(engine) plays") == 3 and "hint (search:" in r.stdout
    r = trigon("match", "--engine", "simulations=20", "--engine", "greedy", "--games", "2", "--jobs", "1",
               "--max-moves", "8", "--json")
    assert r.returncode == 0, r.stderr
    assert [row["games"] for row in json.loads(r.stdout)["results"]] == [2, 2]


# -- the same commands in process, where a test reads the output closely -----------------------
def greedy_game(variant, seed=0, keep=None):
    import random

    g, rng = tf.Game(variant), random.Random(seed)
    while not g.is_over and (keep is None or len(g.history) < keep):
        g.play(greedy_move(g, rng))
    return g


def run_in_process(args, input=None):
    from click.testing import CliRunner

    return CliRunner().invoke(cli.main, args, input=input)


def test_analyse_flow(tmp_path):
    g = greedy_game(tf.Variant.FOUR_PLAYER, keep=8)
    rec = tmp_path / "g.blksgf"
    rec.write_text(g.to_blksgf())
    r = run_in_process(["analyse", str(rec), "--json", "--simulations", "30", "--plot", str(tmp_path / "v.svg")])
    assert r.exit_code == 0, r.output
    report = json.loads(r.stdout)
    assert [row["number"] for row in report["moves"]] == list(range(1, 9))
    assert [row["played"] for row in report["moves"]] == [str(m) for m in g.moves]
    for row in report["moves"]:
        assert isinstance(row["mistake"], bool) and row["best"]
        assert 0 <= row["value_before"] <= 1 and 0 <= row["value_after"] <= 1
    root = ET.fromstring((tmp_path / "v.svg").read_text())
    assert len([e for e in root.iter(SVG + "polyline")]) == 4
    r = run_in_process(["analyse", str(rec), "--move", "3", "--svg", str(tmp_path / "best.svg")])
    assert r.exit_code == 0, r.output
    assert "green to move; best" in r.stdout
    root = ET.fromstring((tmp_path / "best.svg").read_text())
    assert len([e for e in root.iter(SVG + "g") if e.get("class") == "candidate"]) == 3
    labels = [t.text for e in root.iter(SVG + "g") if e.get("class") == "labels" for t in e]
    assert 1 <= len(labels) <= 5 and all(re.fullmatch(r"1\.00|\.\d\d", t) for t in labels)
    assert len(occupied_polygons((tmp_path / "best.svg").read_text())) == sum(m.size for m in g.moves[:3])
    r = run_in_process(["analyse", str(rec), "--move", "3", "--plot", "x.svg"])
    assert r.exit_code != 0


def test_render_flow(tmp_path):
    g = greedy_game(tf.Variant.FOUR_PLAYER, keep=10)
    rec = tmp_path / "g.blksgf"
    rec.write_text(g.to_blksgf())
    svg, pieces = tmp_path / "b.svg", tmp_path / "p.svg"
    r = run_in_process(["render", str(rec), "--svg", str(svg), "--move", "6", "--pieces", str(pieces),
                        "--palette", "colourblind", "--move-numbers"])
    assert r.exit_code == 0, r.output
    assert len(occupied_polygons(svg.read_text())) == sum(m.size for m in g.moves[:6])
    ET.fromstring(pieces.read_text())
    r = run_in_process(["render", str(rec)])
    assert r.exit_code != 0 and "--svg" in r.output


def test_solve_flow(tmp_path):
    out, svg = tmp_path / "s.blksgf", tmp_path / "s.svg"
    r = run_in_process(["solve", "--time-limit", "0.5", "--colours", "blue,red", "--out", str(out), "--svg", str(svg)])
    assert r.exit_code == 0, r.output
    assert re.search(r"complete: score [+-]\d+", r.stdout)
    assert "blue" in r.stdout and "yellow" not in r.stdout.split("complete:")[1]
    ET.fromstring(svg.read_text())
    assert out.read_text().startswith("(;")


def test_solve_with_fixed_start_cells(tmp_path):
    out = tmp_path / "s.blksgf"
    r = run_in_process(["solve", "--start", "blue=r15,red=r4", "--alternate", "--time-limit", "20", "--out", str(out)])
    assert r.exit_code == 0, r.output
    g = tf.Game.from_blksgf(out)
    first = {c: m for c, m in reversed(g.history)}  # each colour's first piece
    assert g.variant.alternate_rule
    assert "r15" in str(first[tf.Colour.BLUE]).split(",") and "r4" in str(first[tf.Colour.RED]).split(",")
    r = run_in_process(["solve", "--start", "yellow=z12", "--count", "2", "--time-limit", "20"])
    assert r.exit_code == 0 and "2 distinct solutions of 2" in r.output, r.output


def test_solve_many(tmp_path):
    out = tmp_path / "sols"
    r = run_in_process(["solve", "--count", "12", "--out-dir", str(out), "--time-limit", "20"])
    assert r.exit_code == 0, r.output
    assert re.search(r"^12 distinct solutions of 12 in [\d.]+ s \(\d+/s\); scores \+80$", r.stdout, re.M)
    games = [tf.Game.from_blksgf(p.read_text()) for p in sorted(out.iterdir())]
    assert len(games) == 12 and all(g.is_over and sum(g.scores().values()) == 80 for g in games)
    keys = {tf.solver._core.layout_key(g.position) for g in games}
    assert len(keys) == 12  # distinct up to symmetry and colour renaming
    r = run_in_process(["solve", "--count", "2", "--out", str(tmp_path / "one.blksgf")])
    assert r.exit_code != 0 and "--out-dir" in r.output


def test_solve_many_ctrl_c_while_saving_keeps_the_solutions_saved(tmp_path, monkeypatch):
    # Ctrl-C landing in the CLI's own loop (writing the third record), not in the solver: the two
    # records written stay, the third is not left half written, and the summary says so (exit 130).
    from trigon_fast.cli import common

    out = tmp_path / "sols"
    real_open, writes = open, []

    def open_then_interrupt(path, mode="r", *args, **kwargs):
        f = real_open(path, mode, *args, **kwargs)
        if "w" in mode and str(path).endswith(".blksgf"):
            writes.append(path)
            if len(writes) == 3:
                f.write("(;GM[Blokus Trigon]")  # part of a record, then Ctrl-C
                f.close()
                raise KeyboardInterrupt
        return f

    monkeypatch.setattr(common, "open", open_then_interrupt, raising=False)  # (save_record writes them)
    r = run_in_process(["solve", "--count", "5", "--out-dir", str(out), "--time-limit", "20"])
    assert r.exit_code == 130, r.output
    assert re.search(r"^2 distinct solutions of 5 in", r.stdout, re.M), r.output
    assert "interrupted: 2 of 5 solutions found" in r.output
    assert sorted(p.name for p in out.iterdir()) == ["solution-0001.blksgf", "solution-0002.blksgf"]
    for p in out.iterdir():
        assert tf.Game.from_blksgf(p.read_text()).is_over


def _triangles_left(game, colour):
    return sum(tf.PIECE_SIZES[tf.PIECE_NAMES.index(p)] for p in game.pieces_left(colour))


def test_exact_yes_saves_a_witness_that_completes_the_position(tmp_path):
    g = tf.solve_solo(seed=1, time_limit=10).game
    while len(g.history) > 40:  # ten pieces a colour placed: a "yes" to find
        g.undo()
    rec, out, svg = tmp_path / "s.blksgf", tmp_path / "w.blksgf", tmp_path / "w.svg"
    rec.write_text(g.to_blksgf())
    r = run_in_process(["exact", str(rec), "--max", "--json", "--out", str(out), "--svg", str(svg)])
    assert r.exit_code == 0, r.output
    report = json.loads(r.stdout)
    left = {colour: _triangles_left(g, c) for c, colour in enumerate(["blue", "yellow", "red", "green"])}
    assert report["answer"] == "yes" and report["proven"] and report["move_number"] == 40
    assert report["triangles_left"] == left
    assert report["best_triangles"] == report["target_triangles"] == sum(left.values())
    assert {k: (v["triangles"], v["of"], v["proven"]) for k, v in report["max_placeable"].items()} == \
        {k: (n, n, True) for k, n in left.items()}
    w = tf.Game.from_blksgf(out.read_text())  # the position, then the witness: every piece placed
    assert [str(m) for m in w.moves[:40]] == [str(m) for m in g.moves]
    assert [str(m) for m in w.moves[40:]] == [m for _, m in report["layout"]]
    assert all(not w.pieces_left(c) for c in w.variant.colours)
    assert len(occupied_polygons(svg.read_text())) == 440


def test_exact_shows_a_time_bar_moved_by_the_questions_progress(tmp_path, monkeypatch):
    # On a terminal the bar runs on stderr; here it is made to write where the test reads it.
    import io

    from trigon_fast.cli import common

    bar = io.StringIO()
    real = common.progress
    monkeypatch.setattr(common, "progress", lambda **kw: real(**{**kw, "file": bar, "disable": False}))
    g = tf.random_game(seed=0)
    rec = tmp_path / "g.blksgf"
    rec.write_text(g.to_blksgf())
    r = run_in_process(["exact", str(rec), "--move", "40", "--time-limit", "0.8"])
    assert r.exit_code == 0, r.output
    assert "not proven in 0.8 s" in r.stdout
    frames = [re.search(r"searching: .* ([0-9.]+)/[0-9.]+ s, ([0-9,]+) nodes$", f) for f in bar.getvalue().split("\r")]
    shown = [m.groups() for m in frames if m]
    assert len(shown) >= 2 and float(shown[-1][0]) >= 0.5
    counts = [int(n.replace(",", "")) for _, n in shown]
    assert counts == sorted(counts) and counts[0] > 0


def test_pattern_count_shows_a_time_bar_with_nodes_and_solutions(tmp_path, monkeypatch):
    import io

    from trigon_fast.cli import common

    bar = io.StringIO()
    real = common.progress
    monkeypatch.setattr(common, "progress", lambda **kw: real(**{**kw, "file": bar, "disable": False}))
    shape = tmp_path / "shape.txt"
    shape.write_text("\n".join(" " * (4 - y) + "x" * 22 for y in range(5)) + "\n")
    r = run_in_process(["pattern", str(shape), "--count", "--show", "0", "--time-limit", "1.5"])  # (0.8 s: one frame, under load)
    assert r.exit_code == 0, r.output
    assert "time limit reached, at least" in r.stdout
    frames = [re.search(r"searching: .* ([0-9.]+)/[0-9.]+ s, ([0-9,]+) nodes, ([0-9,]+) solutions$", f)
              for f in bar.getvalue().split("\r")]
    shown = [(int(m[2].replace(",", "")), int(m[3].replace(",", ""))) for m in frames if m]
    assert len(shown) >= 2 and shown == sorted(shown) and shown[-1][1] > 0


def test_exact_no_not_proven_and_colours(tmp_path):
    g = greedy_game(tf.Variant.FOUR_PLAYER)
    rec = tmp_path / "g.blksgf"
    rec.write_text(g.to_blksgf())
    at48 = g.copy()
    while len(at48.history) > 48:
        at48.undo()
    r = run_in_process(["exact", str(rec), "--move", "48", "--max", "--out", str(tmp_path / "none.blksgf")])
    assert r.exit_code == 1, r.output  # the answer, and no file: a script must not take it as written
    total = sum(_triangles_left(at48, c) for c in range(4))
    assert f"pieces left: blue 10, yellow 10, red 10, green 10 ({total} triangles)" in r.stdout
    assert "no: proven by exhaustive search" in r.stdout
    for c, name in enumerate(["blue", "yellow", "red", "green"]):
        m = tf.max_placeable(at48, c)
        assert m.proven
        assert f"{name} alone: exactly {m.triangles} of its {_triangles_left(at48, c)} triangles" in r.stdout
    assert "no layout to save: the answer is no" in r.output and not (tmp_path / "none.blksgf").exists()
    nothing = run_in_process(["exact", str(rec), "--move", "40", "--exhaustive", "--node-limit", "50", "--svg",
                              str(tmp_path / "none.svg")])
    assert nothing.exit_code == 1 and "none was looked for" in nothing.output and not (tmp_path / "none.svg").exists()
    # A node limit of the exhaustive search alone: not proven, the same on every run.
    args = ["exact", str(rec), "--move", "40", "--exhaustive", "--node-limit", "50", "--json"]
    first, again = run_in_process(args), run_in_process(args)
    assert first.exit_code == 0, first.output
    report = json.loads(first.stdout)
    assert report["answer"] == "not proven" and not report["proven"] and report["best_triangles"] is None
    assert report["nodes"] <= 51 and report["layout"] == []
    assert {k: v for k, v in report.items() if k != "seconds"} == \
        {k: v for k, v in json.loads(again.stdout).items() if k != "seconds"}
    r = run_in_process(["exact", str(rec), "--move", "40", "--colours", "red", "--json"])
    assert json.loads(r.stdout)["colours"] == ["red"] and json.loads(r.stdout)["answer"] == "yes"
    three = greedy_game(tf.Variant.THREE_PLAYER, keep=9)
    (tmp_path / "t.blksgf").write_text(three.to_blksgf())
    for bad in (["--colours", "green"], ["--colours", "none"], ["--move", "10"]):
        r = run_in_process(["exact", str(tmp_path / "t.blksgf"), *bad])
        assert r.exit_code == 2, (bad, r.output)


def test_exact_says_which_limit_ended_it(tmp_path):
    # "not proven in 10 s or 100 nodes" after 0.002 s: the node limit ended it, and it can say so.
    rec = tmp_path / "g.blksgf"
    rec.write_text(greedy_game(tf.Variant.FOUR_PLAYER, keep=40).to_blksgf())
    for more in ([], ["--exhaustive"]):
        r = run_in_process(["exact", str(rec), "--node-limit", "100", "--time-limit", "60", *more])
        assert r.exit_code == 0, r.output
        assert "not proven within 100 nodes (" in r.stdout and " s or " not in r.stdout, r.stdout


def test_setup_placements_are_not_moves(tmp_path):
    # A record's setup (A1..A4) is part of every position: --move N counts moves only.
    g = tf.Game()
    g.setup(0, "q15,r15,p16,q16,o17,p17")
    g.setup(2, "r4")
    for m in ("j16,k16,l16,m16,l17,m17", "j6,l6,j7,k7,l7", "q2,r2,s2,t2,u2,r3"):
        g.play(m)
    rec = tmp_path / "setup.blksgf"
    rec.write_text(g.to_blksgf())
    r = run_in_process(["exact", str(rec), "--move", "0", "--colours", "blue,red", "--json"])
    assert r.exit_code == 0, r.output
    report = json.loads(r.stdout)
    assert report["move_number"] == 0 and report["triangles_left"] == {"blue": 104, "red": 109}
    r = run_in_process(["exact", str(rec), "--colours", "blue", "--json"])
    assert json.loads(r.stdout)["move_number"] == 3 and json.loads(r.stdout)["triangles_left"] == {"blue": 98}
    r = run_in_process(["exact", str(rec), "--move", "4"])
    assert r.exit_code == 2 and "the record has moves 0..3, not 4" in r.output
    r = run_in_process(["analyse", str(rec), "--json", "--simulations", "10"])
    assert r.exit_code == 0, r.output
    rows = json.loads(r.stdout)["moves"]
    assert [(row["number"], row["played"]) for row in rows] == [(1, "j16,k16,l16,m16,l17,m17"),
                                                                 (2, "j6,l6,j7,k7,l7"), (3, "q2,r2,s2,t2,u2,r3")]
    svg = tmp_path / "b.svg"
    assert run_in_process(["render", str(rec), "--svg", str(svg), "--move-numbers"]).exit_code == 0
    labels = [t.text for e in ET.fromstring(svg.read_text()).iter(SVG + "g") if e.get("class") == "labels" for t in e]
    assert sorted(labels) == ["1", "2", "3"]
    assert run_in_process(["render", str(rec), "--svg", str(svg), "--move", "1"]).exit_code == 0
    assert len(occupied_polygons(svg.read_text())) == 6 + 1 + 6  # both setups and move 1


def test_move_numbers_are_the_records_even_after_pieces_are_lifted(tmp_path):
    # AE lifts blue's first piece off: the game then holds what is left as setup placements, so
    # counting its moves put --move 1 after the record's second move. GTP's loadsgf 2 is the same.
    rec = tmp_path / "ae.blksgf"
    rec.write_text("(;GM[Blokus Trigon];1[r15];AE[r15];2[z12];3[r4])")
    for n, left in ((0, [110, 110, 110]), (1, [110, 110, 110]), (2, [110, 109, 110]), (3, [110, 109, 109])):
        r = run_in_process(["exact", str(rec), "--move", str(n), "--colours", "blue,yellow,red", "--json",
                            "--node-limit", "1", "--exhaustive"])
        assert r.exit_code == 0, r.output
        report = json.loads(r.stdout)
        assert report["move_number"] == n
        assert [report["triangles_left"][c] for c in ("blue", "yellow", "red")] == left
    r = run_in_process(["exact", str(rec), "--move", "4"])
    assert r.exit_code == 2 and "the record has moves 0..3, not 4" in r.output


def test_output_files_are_checked_before_the_work(tmp_path):
    rec = tmp_path / "g.blksgf"
    rec.write_text(greedy_game(tf.Variant.FOUR_PLAYER, keep=40).to_blksgf())
    r = run_in_process(["exact", str(rec), "--out", str(tmp_path / "nope" / "w.blksgf")])
    assert r.exit_code == 2 and "there is no folder" in r.output and "position after" not in r.output
    r = run_in_process(["analyse", str(rec), "--plot", str(tmp_path / "nope" / "v.svg"), "--simulations", "10"])
    assert r.exit_code == 2 and "there is no folder" in r.output and "mistakes" not in r.output


def test_play_hint_and_save(tmp_path):
    path = tmp_path / "g.blksgf"
    r = run_in_process(["play", "--variant", "four", "--level", "1"],
                       input=f"hint\nr15\nsave {path}\nquit\n")
    assert r.exit_code == 0, r.output
    assert "hint (search:level" in r.stdout
    assert path.exists() and "r15" in path.read_text()


def test_play_survives_odd_input_and_keeps_the_game(tmp_path):
    script = "\n".join([
        "q15,r15,p16,q16,o17,p17",
        "save a\0b.blksgf",     # a NUL in a file name ended the whole game
        "svg a\0b.svg",
        "I6 -1 q15",            # was read as the cells 'I6-1q15'
        "x" * 100_000,          # was quoted back twice, whole
        "save kept.blksgf",
        "quit",
    ]) + "\n"
    r = trigon("play", "--opponent", "greedy", "--seed", "1", input=script, cwd=tmp_path)
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    assert r.stdout.count("error: ") >= 4
    assert "write PIECE ORIENTATION CELL, e.g. I6 0 q15" in r.stdout
    assert len(r.stdout) < 150_000  # the long line once (its echo), not three times
    assert "100000 characters" in r.stdout
    assert tf.read_blksgf((tmp_path / "kept.blksgf").read_text()).game().history[0][1] == \
        tf.Move.from_str("q15,r15,p16,q16,o17,p17")


def test_a_new_users_mistakes_get_a_clear_answer(tmp_path):
    # Found by a read-only review going through the README and the docs as a new user.
    twice = run_in_process(["match", "--engine", "greedy", "--engine", "level=1,level=2", "--games", "2"])
    assert twice.exit_code == 2 and "option 'level' given twice" in twice.output
    colours = run_in_process(["solve", "--colours", "blue,blue", "--time-limit", "1"])
    assert colours.exit_code == 2 and "blue given twice" in colours.output and "--colours" in colours.output
    none = run_in_process(["solve", "--colours", "none"])
    assert none.exit_code == 2 and "--colours" in none.output and "no colours to place" in none.output
    variant = run_in_process(["match", "--engine", "greedy", "--engine", "random", "--variant", "five"])
    assert variant.exit_code == 2 and "use four, two, three or teams" in variant.output and "solo" not in variant.output
    level = run_in_process(["play", "--opponent", "greedy", "--level", "5"], input="quit\n")
    assert level.exit_code == 2 and "put level=N in its spec" in level.output
    saved = run_in_process(["play", "--opponent", "greedy"],
                           input=f"save {tmp_path / 'nodir' / 'x.blksgf'}\nsvg {tmp_path / 'nodir' / 'x.svg'}\nquit\n")
    assert saved.exit_code == 0 and saved.stdout.count("there is no folder") == 2, saved.output
    assert "Errno" not in saved.stdout


@pytest.mark.parametrize("args", [["render", "--svg", "-"], ["solve", "--time-limit", "1", "--out", "-"]])
def test_an_output_file_named_dash_is_refused(args, tmp_path):
    # It wrote a file named "-" in the working directory.
    r = trigon(*args, cwd=tmp_path)
    assert r.returncode == 2 and "give a file name" in r.stderr, r.stderr
    assert not (tmp_path / "-").exists()
