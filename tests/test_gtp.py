"""The GTP engine: a scripted session per command (in-process), the real process, and two
engines playing each other through a small controller."""

import os
import subprocess
import threading
import sys
import types
from pathlib import Path

import numpy as np
import pytest

import trigon_fast as tf
from trigon_fast.gtp import GtpEngine, main, run_session

BLUE_FIRST = "q15,r15,p16,q16,o17,p17"


def replies(*lines, **options):
    """The replies to the lines, as (status, id, text) triples."""
    out = run_session(lines, quiet=True, **options)
    assert out.endswith("\n\n") or out == ""
    result = []
    for block in out.split("\n\n")[:-1]:
        head, _, text = block.partition(" ")
        assert head[0] in "=?", block
        result.append((head[0], head[1:], text))
    return result


def ok(line, **options):
    [(status, _, text)] = replies(line, **options)
    assert status == "=", text
    return text


def fails(line, **options):
    [(status, _, text)] = replies(line, **options)
    assert status == "?", text
    return text


def test_identity_commands_and_ids():
    assert run_session(["protocol_version", "7 name", "version"], quiet=True) == (
        f"= 2\n\n=7 trigon_fast\n\n= {tf.__version__}\n\n")
    assert replies("12 known_command play", "known_command no_such") == [("=", "12", "true"), ("=", "", "false")]
    listed = ok("list_commands").split("\n")
    for cmd in ("set_game", "clear_board", "play", "genmove", "reg_genmove", "undo", "all_legal", "final_score",
                "showboard", "loadsgf", "savesgf", "cputime", "name", "version", "known_command", "list_commands",
                "quit", "protocol_version", "set_random_seed", "param", "analyze"):
        assert cmd in listed
        assert ok(f"known_command {cmd}") == "true"
    assert float(ok("cputime")) >= 0


def test_bad_input_gets_error_replies_and_the_engine_keeps_running():
    out = replies("", "   ", "# a comment", "frobnicate 1", "3 frobnicate", "name extra", "play", "play 1",
                  "play 5 r15", "play 1 zz99", "play 1 r15,r13", "play 1 r14", "play 1 pass", "genmove",
                  "genmove 1 2", "genmove purple", "undo", "set_random_seed x", "name")
    assert [s for s, _, _ in out] == ["?"] * 17 + ["="]
    assert [t for _, _, t in out[:2]] == ["empty command", "empty command"]
    out = out[2:]
    texts = [t for _, _, t in out]
    assert texts[0] == "unknown command (frobnicate)"
    assert out[1][:2] == ("?", "3")
    assert texts[2] == "too many arguments"
    assert "invalid color argument '5'" in texts[5]
    assert "not a cell" in texts[6] and "not the shape" in texts[7]
    assert "illegal move r14 for blue" in texts[8]
    assert "pass not supported" in texts[9]
    assert texts[13] == "cannot undo"
    assert texts[-1] == "trigon_fast"


def test_play_undo_showboard_and_out_of_turn():
    out = replies(f"play 1 {BLUE_FIRST}", f"play blue {BLUE_FIRST}", "play 3 r4", "showboard", "undo", "undo",
                  "undo")
    assert [s for s, _, _ in out] == ["=", "?", "=", "=", "=", "=", "?"]
    assert "already" in out[1][2]
    board = out[3][2]
    assert board.startswith("\n") and "to move: green" in board  # red played out of turn: green next
    assert "RRRR" not in board and "r" in board.split("\n")[15]  # red's single triangle on row 4
    # Both games agree with trigon_fast's rules.
    g = tf.Game()
    g.play(BLUE_FIRST)
    g.play("r4", colour=2)
    assert g.turn == tf.Colour.GREEN


def test_genmove_plays_legal_moves_and_reg_genmove_does_not_play():
    lines = ["genmove 1", "genmove 2", "reg_genmove 3", "genmove 3", "g"]
    out = replies(*lines, seed=5, level=1)
    assert [s for s, _, _ in out] == ["="] * 5
    moves = [t for _, _, t in out]
    g = tf.Game()
    g.play(moves[0])
    g.play(moves[1])
    assert g.check(moves[2]) is None  # legal for red, not played:
    g.play(moves[3])  # red's genmove is legal in the position without it
    assert g.turn == tf.Colour.GREEN
    g.play(moves[4])  # "g": genmove for the colour to move
    # reg_genmove leaves the board alone: one undo, then nothing to undo.
    assert [s for s, _, _ in replies("genmove 1", "reg_genmove 2", "undo", "undo", level=1)] == ["=", "=", "=", "?"]
    # "p": play for the colour to move.
    assert replies(f"p {BLUE_FIRST}", "p r4", "undo", "undo", "undo")[-1] == ("?", "", "cannot undo")
    # The same seed gives the same moves.
    assert replies(*lines, seed=5, level=1) == out


def test_genmove_out_of_turn_and_pass_at_the_end(tmp_path):
    [(_, _, move)] = replies("genmove 3", seed=1, level=1)
    g = tf.Game()
    g.play(move, colour=2)
    done = tf.random_game(tf.Variant.FOUR_PLAYER, 2)
    path = tmp_path / "done.blksgf"
    done.to_blksgf(path)
    out = replies(f"loadsgf {path}", "genmove 1", "reg_genmove 4", "all_legal 2", "final_score", level=1)
    assert out[:3] == [("=", "", ""), ("=", "", "pass"), ("?", "", "player failed to generate a move")]
    assert out[3] == ("=", "", "")
    assert out[4][2] == " ".join(str(done.score(c) + 110) for c in range(4))


def test_all_legal_matches_trigon_fast():
    text = ok("all_legal 1")
    assert sorted(text.split("\n")) == sorted(str(m) for m in tf.Game().legal_moves)
    assert len(text.split("\n")) == 2478
    after = replies(f"play 1 {BLUE_FIRST}", "all_legal 1")[1][2].split("\n")
    g = tf.Game()
    g.play(BLUE_FIRST)
    assert sorted(after) == sorted(str(m) for m in g.legal_moves_of(0))


def test_final_score_formats():
    for variant, game_name in ((tf.Variant("two_player", pentobi_compatible=True), "Blokus Trigon Two-Player"),
                               (tf.Variant("three_player", pentobi_compatible=True), "Blokus Trigon Three-Player")):
        done = tf.random_game(variant, 4)
        lines = [f"set_game {game_name}"] + [f"play {int(c) + 1} {m}" for c, m in done.history] + ["final_score"]
        out = replies(*lines)
        assert all(s == "=" for s, _, _ in out), [o for o in out if o[0] == "?"]
        score = out[-1][2]
        if len(variant.players) == 2:
            a, b = done.player_scores()
            assert score == (f"B+{a - b}" if a > b else f"W+{b - a}" if b > a else "0")
        else:
            assert score.split() == [str(done.score(c) + 110) for c in variant.colours]


def test_set_game_and_clear_board():
    out = replies(f"play 1 {BLUE_FIRST}", "set_game Blokus Trigon Three-Player", "play 1 p14", "play 4 p3",
                  "set_game Blokus Duo", "set_game", "clear_board", "undo", "set_game Blokus Trigon",
                  f"play 1 {BLUE_FIRST}")
    assert [s for s, _, _ in out] == ["=", "=", "=", "?", "?", "?", "=", "?", "=", "="]
    assert "invalid color argument '4'" in out[3][2]
    assert "unknown game 'Blokus Duo'" in out[4][2]


PENTOBI_ONLY = {"avoid_symmetric_draw": "0", "exploration_constant": "6", "rave_child_max": "2000",
                "rave_parent_max": "50000", "rave_weight": "0.7", "reuse_subtree": "1", "use_book": "0"}


def test_param_keys():
    listed = dict(line.split(" ", 1) for line in ok("param").split("\n"))
    assert listed == {"alternate_rule": "0", "fixed_simulations": "0", "level": "4", "start_rule": "pentobi",
                      "threads": "1", "time": "0", "variant": "four_player", **PENTOBI_ONLY}
    out = replies("param level 2", "param fixed_simulations 50", "param time 0.25", "param threads 2",
                  "param alternate_rule 1", "param", "param level 10", "param time -1", "param alternate_rule x",
                  "param nope 1", "param level", "param variant chess")
    assert [s for s, _, _ in out] == ["="] * 6 + ["?"] * 6
    now = dict(line.split(" ", 1) for line in out[5][2].split("\n"))
    assert now == {"alternate_rule": "1", "fixed_simulations": "50", "level": "2", "start_rule": "pentobi",
                   "threads": "2", "time": "0.25", "variant": "four_player", **PENTOBI_ONLY}
    assert out[9][2] == "unknown parameter 'nope'"


def test_param_rules_change_the_game():
    # Rulebook two-player starts: the cell opposite blue's is kept for red.
    rulebook = replies("set_game Blokus Trigon Two-Player", "param start_rule rulebook", "play 1 r15", "play 2 r4",
                       "play 2 z12", "play 3 j7", "play 3 r4")
    assert [s for s, _, _ in rulebook] == ["=", "=", "=", "?", "=", "?", "="]
    pentobi = replies("set_game Blokus Trigon Two-Player", "play 1 r15", "play 2 r4")
    assert [s for s, _, _ in pentobi] == ["=", "=", "="]
    # Teams score by side, as the two-player game.
    teams = replies("param variant teams", "param", "final_score")
    assert "variant teams" in teams[1][2] and teams[2][2] == "0"
    # The alternate rule: two blue pieces may not meet along a side at a vertex.
    g = tf.Game(tf.Variant.FOUR_PLAYER.with_alternate_rule())
    g.play(BLUE_FIRST)
    differs = [m for m in tf.Game(tf.Variant.FOUR_PLAYER, [BLUE_FIRST]).legal_moves_of(0) if g.check(m, colour=0)]
    assert differs, "the alternate rule forbids some moves"
    out = replies("param alternate_rule 1", f"play 1 {BLUE_FIRST}", f"play 1 {differs[0]}")
    assert [s for s, _, _ in out] == ["=", "=", "?"]


def test_loadsgf_savesgf(tmp_path):
    game = tf.random_game(tf.Variant.FOUR_PLAYER, 9)
    path = tmp_path / "in game.blksgf"
    game.to_blksgf(path)
    saved = tmp_path / "out.blksgf"
    out = replies(f'loadsgf "{path}" 5', f"savesgf {saved}", f'loadsgf "{path}"', "final_score")
    assert [s for s, _, _ in out] == ["="] * 4
    back = tf.Game.from_blksgf(saved)
    assert back.history == game.history  # the record's whole tree goes back, as Pentobi writes it
    assert out[3][2] == " ".join(str(game.score(c) + 110) for c in range(4))
    bad = tmp_path / "bad.blksgf"
    bad.write_text("(;GM[Blokus Trigon]\n;1[r14])")
    errors = replies(f"loadsgf {bad}", f"loadsgf {tmp_path / 'none.blksgf'}", "loadsgf", f"loadsgf {path} 0",
                     f"savesgf {tmp_path / 'no' / 'dir.blksgf'}", f"loadsgf {tmp_path}")
    assert [s for s, _, _ in errors] == ["?"] * 6
    assert errors[5][2].endswith("a directory, not a file")
    assert errors[0][2].startswith("line 2, column 4: move 1 1[r14] is illegal")
    assert "no such file" in errors[1][2]


def test_undo_stops_at_a_loaded_setup(tmp_path):
    # Pentobi takes back moves only: a record's setup (and its PL) stays.
    g = tf.Game()
    g.setup(0, BLUE_FIRST)
    g.setup(1, "r4", to_move=2)
    g.play("z7", colour=2)
    path = tmp_path / "setup.blksgf"
    path.write_text(g.to_blksgf())
    out = replies(f"loadsgf {path}", "undo", "undo", "showboard")
    assert [s for s, _, _ in out] == ["=", "=", "?", "="]
    assert out[2][2] == "cannot undo"
    board = {line.split()[0]: line for line in out[3][2].splitlines() if line[:1].isalpha()}
    assert board["to"] == "to move: red"  # the record's turn, as its setup left it
    assert "left: L6 V" in board["blue"] and board["yellow"].endswith(" 2")  # blue's I6, yellow's 1 stay


def test_get_value_after_a_forced_move_says_why_there_is_none():
    eng = GtpEngine(level=1, seed=1, quiet=True)
    g = tf.random_game(tf.Variant.FOUR_PLAYER, seed=11)
    while len(g.history) and not (not g.is_over and len(g.legal_moves) == 1):
        g.undo()
    assert len(g.legal_moves) == 1, "seed 11 has a forced move"
    eng.game = g
    (forced,) = g.legal_moves
    assert eng.handle(f"genmove {int(g.turn) + 1}") == f"= {forced}\n\n"
    assert eng.handle("get_value") == "? no search value: the last search had one legal move and played it unsearched\n\n"
    # Its one row has no simulations behind it, so no value (not its prior dressed as one).
    assert eng.handle("move_values") == f"= 0 nan {forced}\n\n"


def test_savesgf_keeps_the_header_of_the_record_loaded(tmp_path):
    g = tf.random_game(tf.Variant("two_player", pentobi_compatible=True), 3)
    rec = tf.Record.from_game(g, players=["Ann", "Bob"], event="club", date="2026-01-02",
                              comments={0: "start", 3: "third", 12: "twelfth"})
    path = tmp_path / "in.blksgf"
    path.write_text(rec.to_blksgf())
    saved = [tmp_path / f"out{i}.blksgf" for i in range(3)]
    out = replies(f"loadsgf {path}", f"savesgf {saved[0]}", f"loadsgf {path} 10", "genmove 1",
                  f"savesgf {saved[1]}", "clear_board", f"savesgf {saved[2]}")
    assert [s for s, _, _ in out] == ["="] * 7
    whole, played_on, cleared = (tf.read_blksgf(p) for p in saved)
    assert whole.players == played_on.players == ("Ann", "Bob") and cleared.players == (None, None)
    assert whole.info["EV"] == played_on.info["EV"] == "club" and whole.info["DT"] == "2026-01-02"
    assert whole.info["C"] == "start" and "EV" not in cleared.info
    # The main line is the record's in both, so its result and comments stay.
    assert whole.result == played_on.result == rec.result and cleared.result is None
    assert whole.game().history == played_on.game().history == g.history
    assert whole.comments() == played_on.comments() == [(0, "start"), (3, "third"), (12, "twelfth")]
    assert cleared.comments() == []
    # The move genmove chose is a variation at move 10 (or the record's own tenth move).
    genmoved = tf.Move.from_str(out[3][2])
    lines = [tf.Record(played_on.root).game(nodes=line).history for line in played_on.lines()]
    assert g.history[:9] + [(tf.Colour.BLUE, genmoved)] in lines
    assert len(lines) == (1 if g.history[9] == (tf.Colour.BLUE, genmoved) else 2)


def _record_with_variation(tmp_path):
    """A finished two-player record with a second line from move 7, and comments on both."""
    main = tf.random_game(tf.Variant("two_player", pentobi_compatible=True), 5)
    other = tf.Game(main.variant, main.moves[:6])
    while not other.is_over:  # a different seventh move, then random play
        moves = [m for m in other.legal_moves if len(other.history) > 6 or (other.turn, m) != main.history[6]]
        other.play(moves[len(moves) // 2])
    rec = tf.Record.from_game(main, comments={7: "main seven"})
    alt = tf.Record.from_game(other, comments={7: "other seven"})
    rec.main_line()[6].children.append(alt.main_line()[7])  # the other line from move 7
    path = tmp_path / "tree.blksgf"
    path.write_text(rec.to_blksgf())
    return path, main, other


def _lines(path):
    r = tf.read_blksgf(path)
    return r, [tf.Record(r.root).game(nodes=line).history for line in r.lines()]


def test_savesgf_writes_back_the_tree_loaded(tmp_path):
    # As Pentobi: loadsgf keeps the tree, moves played where it has none make a new variation,
    # savesgf writes the whole tree (the game's line among the others).
    path, main, other = _record_with_variation(tmp_path)
    r0, lines0 = _lines(path)
    assert lines0 == [main.history, other.history] and r0.result is not None
    (c7, _), (c8, _) = other.history[6:8]
    seventh = next(m for m in tf.Game(main.variant, main.moves[:6]).legal_moves
                   if m not in (main.moves[6], other.moves[6]))
    out = replies(f"loadsgf {path}", f"savesgf {tmp_path / 'same.blksgf'}",
                  f"loadsgf {path} 12", "undo", "undo", "undo", "undo", "undo",
                  f"play {c7 + 1} {other.moves[6]}", f"play {c8 + 1} {other.moves[7]}",
                  f"savesgf {tmp_path / 'into.blksgf'}", "undo", "undo", f"play {c7 + 1} {seventh}",
                  f"savesgf {tmp_path / 'new.blksgf'}")
    assert [s for s, _, _ in out] == ["="] * len(out)
    same, lines = _lines(tmp_path / "same.blksgf")
    assert lines == lines0 and same.to_blksgf() == r0.to_blksgf()
    # Back to move 6 and into the other line: it is followed, no new node.
    into, lines = _lines(tmp_path / "into.blksgf")
    assert lines == lines0 and into.result == r0.result
    assert [text for _, text in into.comments()] == ["main seven"]
    assert into.main_line()[6].children[1].get("C") == "other seven"
    # A seventh move of neither line: a third variation at move 7, the main line and its result kept.
    new, lines = _lines(tmp_path / "new.blksgf")
    assert lines[:2] == lines0 and lines[2] == main.history[:6] + [(c7, seventh)]
    assert new.result == r0.result and new.variations() == 1 and len(new.main_line()[6].children) == 3


def test_savesgf_keeps_a_turn_set_without_a_move(tmp_path):
    g = tf.random_game(tf.Variant.FOUR_PLAYER, 2)
    while len(g.history) > 20:
        g.undo()
    rec = tf.Record.from_game(g, comments={20: "twenty"})
    end = tf.records.Node()
    end.set("PL", "3")  # red to move next, in a node of its own
    rec.main_line()[-1].children.append(end)
    path = tmp_path / "pl.blksgf"
    path.write_text(rec.to_blksgf())
    out = replies(f"loadsgf {path}", f"savesgf {tmp_path / 'a.blksgf'}", "undo", f"play 4 {g.moves[-1]}",
                  f"savesgf {tmp_path / 'b.blksgf'}")
    assert [s for s, _, _ in out] == ["="] * 5
    # The loaded position (the PL node's) and the same move played again are lines of the tree.
    assert (tmp_path / "a.blksgf").read_text() == (tmp_path / "b.blksgf").read_text() == rec.to_blksgf()


def test_savesgf_drops_the_result_when_the_main_line_goes_on(tmp_path):
    g = tf.random_game(tf.Variant("two_player", pentobi_compatible=True), 8)
    while len(g.history) > 30:
        g.undo()
    path = tmp_path / "resigned.blksgf"
    tf.write_blksgf(g, path, result="W+R")  # a game that ended by resignation
    out = replies(f"loadsgf {path}", f"savesgf {tmp_path / 'a.blksgf'}", "genmove 1", f"savesgf {tmp_path / 'b.blksgf'}")
    assert [s for s, _, _ in out] == ["="] * 4
    a, b = tf.read_blksgf(tmp_path / "a.blksgf"), tf.read_blksgf(tmp_path / "b.blksgf")
    assert a.result == "W+R" and a.game().history == g.history
    # The move played extends the main line: the result no longer belongs to it.
    assert b.result is None and b.game().history == g.history + [(tf.Colour.BLUE, tf.Move.from_str(out[2][2]))]
    assert b.variations() == 0


def test_analyze_lists_legal_moves_with_values():
    out = replies(f"play 1 {BLUE_FIRST}", "param fixed_simulations 24", "analyze 2 5", "move_values", "analyze 9",
                  seed=3)
    assert [s for s, _, _ in out] == ["=", "=", "=", "=", "?"]
    rows = [line.split() for line in out[2][2].split("\n")]
    assert 1 <= len(rows) <= 5
    g = tf.Game(tf.Variant.FOUR_PLAYER, [BLUE_FIRST])
    values = []
    for visits, value, move in rows:
        assert int(visits) >= 1 and 0.0 <= float(value) <= 1.0
        assert g.check(move) is None
        values.append(float(value))
    assert out[3][2].split("\n")[:len(rows)] == out[2][2].split("\n")


def test_quit_stops_reading():
    assert replies("name", "quit", "name") == [("=", "", "trigon_fast"), ("=", "", "")]


def test_engine_survives_internal_errors():
    engine = GtpEngine(quiet=True)

    def broken(args, rest):
        raise RuntimeError("boom")

    engine.commands["broken"] = broken
    assert engine.handle("broken") == "? internal error: RuntimeError: boom\n\n"
    assert engine.handle("name") == "= trigon_fast\n\n"


def test_param_values_out_of_range_are_refused_and_change_nothing():
    out = replies("param threads 100000", "param threads 0", "param fixed_simulations 99999999999999999999999",
                  "set_random_seed 99999999999999999999999", "set_random_seed -1", "param")
    assert [s for s, _, _ in out] == ["?"] * 5 + ["="]
    assert "1..256" in out[0][2] and "0..4611686018427387903" in out[2][2]
    now = dict(line.split(" ", 1) for line in out[5][2].split("\n"))
    assert now["threads"] == "1" and now["fixed_simulations"] == "0"
    with pytest.raises(ValueError, match="threads"):
        GtpEngine(threads=1000)
    with pytest.raises(ValueError, match="seed"):
        GtpEngine(seed=-5)


def test_main_rejects_bad_options(capsys):
    for argv in (["--game", "classic"], ["--level", "0"], ["--threads", "0"], ["--threads", "1000"],
                 ["--seed", "-5"], ["--seed", str(2**64)]):
        with pytest.raises(SystemExit) as info:
            main(argv)
        assert info.value.code == 2
    assert capsys.readouterr().out == ""


# -- real processes ----------------------------------------------------------------------------

def engine_command():
    """``trigon-gtp`` when the console script is installed next to this Python, else the module."""
    script = Path(sys.executable).with_name("trigon-gtp")
    return [str(script)] if script.exists() else [sys.executable, "-m", "trigon_fast.gtp"]


def test_subprocess_session_stdout_is_only_protocol(tmp_path):
    config = tmp_path / "config.gtp"
    config.write_text("param fixed_simulations 20\n")
    proc = subprocess.run(
        [sys.executable, "-m", "trigon_fast.gtp", "--game", "t3", "--seed", "4", "--level", "1",
         "--config", str(config)],
        input="1 name\n\nfoo\nplay 1 p14\n2 genmove 2\nparam\n",  # EOF without quit
        capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    blocks = proc.stdout.split("\n\n")
    assert blocks[-1] == ""
    assert blocks[0] == "=1 trigon_fast"
    assert blocks[1] == "? empty command"
    assert blocks[2] == "? unknown command (foo)"
    assert blocks[3] == "= "
    assert blocks[4].startswith("=2 ")
    g = tf.Game(tf.Variant("three_player", pentobi_compatible=True), ["p14"])
    assert g.check(blocks[4][3:]) is None
    assert "fixed_simulations 20" in blocks[5]
    quiet = subprocess.run(engine_command() + ["--quiet", "--level", "1"], input="genmove 1\nquit\n",
                           capture_output=True, text=True, timeout=120)
    assert quiet.returncode == 0 and quiet.stderr == ""
    assert quiet.stdout.endswith("\n\n= \n\n")
    # Replies echo the user's text; an ASCII-only stdout must not stop the engine.
    ascii_out = subprocess.run(engine_command() + ["-q"], input="frobnicat\u00e9\nname\n".encode(), capture_output=True,
                               timeout=120, env={**os.environ, "PYTHONIOENCODING": "ascii"})
    assert ascii_out.returncode == 0
    assert ascii_out.stdout.decode("utf-8").endswith("= trigon_fast\n\n")


REPLY_WATCHDOG_S = 120  # far above any reply the tests ask for (the slowest take seconds)


class GtpProcess:
    def __init__(self, *args):
        self.proc = subprocess.Popen(engine_command() + list(args), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def send(self, command):
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        lines = []
        # A reply that never ends (no blank line) must fail the test, not hang the suite: a
        # watchdog kills the engine after a generous while, so readline sees the pipe close.
        watchdog = threading.Timer(REPLY_WATCHDOG_S, self.proc.kill)
        watchdog.start()
        try:
            while True:
                line = self.proc.stdout.readline()
                assert line, f"engine closed its output after {command!r} (or gave no complete reply)"
                if line == "\n":
                    break
                lines.append(line.rstrip("\n"))
        finally:
            watchdog.cancel()
        reply = "\n".join(lines)
        assert reply[0] in "=?", reply
        return reply[0] == "=", reply[2:] if len(reply) > 1 else ""

    def ok(self, command):
        good, text = self.send(command)
        assert good, f"{command!r} failed: {text}"
        return text

    def close(self):
        rest, _ = self.proc.communicate("quit\n", timeout=60)  # also closes the pipes
        assert rest == "= \n\n" and self.proc.returncode == 0


@pytest.mark.parametrize("setup, variant", [
    (["set_game Blokus Trigon"], tf.Variant.FOUR_PLAYER),
    (["set_game Blokus Trigon Two-Player"], tf.Variant("two_player", pentobi_compatible=True)),
    (["set_game Blokus Trigon Three-Player", "param start_rule rulebook"], tf.Variant.THREE_PLAYER),
], ids=["four", "two", "three-rulebook"])
def test_two_engines_play_a_complete_game(setup, variant):
    # Engine A plays the first side's colours, engine B the rest; the referee checks every move.
    a, b = GtpProcess("--seed", "1", "--level", "1"), GtpProcess("--seed", "2", "--level", "1")
    try:
        for e in (a, b):
            for command in setup:
                e.ok(command)
            e.ok("param fixed_simulations 20")
        first_side = set(int(c) for c in variant.players[0])
        referee = tf.Game(variant)
        while not referee.is_over:
            c = int(referee.turn)
            mover, other = (a, b) if c in first_side else (b, a)
            move = mover.ok(f"genmove {c + 1}")
            assert move != "pass", f"colour {c + 1} has legal moves"
            assert referee.check(move) is None, f"illegal {move} for colour {c + 1}: {referee.check(move)}"
            referee.play(move)
            other.ok(f"play {c + 1} {move}")
        assert len(referee.history) > 20
        for e in (a, b):
            assert e.ok("genmove 1") == "pass"
        expected = a.ok("final_score")
        assert b.ok("final_score") == expected
        if len(variant.players) == 2:
            s0, s1 = referee.player_scores()
            assert expected == (f"B+{s0 - s1}" if s0 > s1 else f"W+{s1 - s0}" if s1 > s0 else "0")
        else:
            assert expected == " ".join(str(referee.score(c) + 110) for c in variant.colours)
    finally:
        for e in (a, b):
            e.close()


class _FakeEngine:
    """Stands in for trigon_fast.search.Engine in the GTP engine: records each search's options
    and answers with the first legal moves (a value for the mover, NaN for the others)."""

    made: list = []

    def __init__(self, threads=1):
        self.threads = threads
        self.calls = []
        _FakeEngine.made.append(self)

    def analyse(self, game, **kwargs):
        self.calls.append(dict(turn=game.turn, **kwargs))
        moves = list(game.legal_moves)[:3]
        value = np.full(4, np.nan)
        value[int(game.turn)] = 0.625
        return types.SimpleNamespace(
            best_move=moves[1], value=value,
            moves=[types.SimpleNamespace(move=m, visits=30 - i, value=0.5 + i / 10) for i, m in enumerate(moves)])


@pytest.fixture
def fake_engine(monkeypatch):
    import trigon_fast.gtp as gtp_module

    _FakeEngine.made = []
    monkeypatch.setattr(gtp_module, "Engine", _FakeEngine)
    return _FakeEngine


def test_genmove_gives_the_search_the_level_or_the_time_and_simulations(fake_engine):
    out = replies("param level 3", "param threads 2", "genmove 1", "param time 1.5", "param fixed_simulations 77",
                  "genmove 2", "param threads 1", "genmove 3")
    assert [s for s, _, _ in out] == ["="] * 8
    # The level decides unless fixed simulations or a time limit are set (they replace it); one
    # engine per thread count.
    calls = [{k: v for k, v in c.items() if k != "seed"} for e in fake_engine.made for c in e.calls]
    assert calls == [dict(turn=tf.Colour.BLUE, level=3, threads=2),
                     dict(turn=tf.Colour.YELLOW, time=1.5, simulations=77, threads=2),
                     dict(turn=tf.Colour.RED, time=1.5, simulations=77, threads=1)]
    assert [e.threads for e in fake_engine.made] == [2, 1]
    g = tf.Game()
    for _, _, move in (out[2], out[5], out[7]):
        g.play(move)
    assert [int(c) for c, _ in g.history] == [0, 1, 2]


def test_genmove_and_analyze_use_the_search_engine_and_its_analysis(fake_engine):
    out = replies("genmove 1", "move_values", "get_value", "reg_genmove 2", "analyze 3 2", "clear_board",
                  "genmove 1")
    assert [s for s, _, _ in out] == ["="] * 7
    start = list(tf.Game().legal_moves)[:3]
    assert out[0][2] == str(start[1])  # the analysis' best move, not its most visited
    assert out[1][2] == f"30 0.500 {start[0]}\n29 0.600 {start[1]}\n28 0.700 {start[2]}"
    assert out[2][2] == "0.625"
    g = tf.Game(tf.Variant.FOUR_PLAYER, [start[1]])
    g.set_turn(2)
    red = list(g.legal_moves)[:2]
    assert out[4][2] == f"30 0.500 {red[0]}\n29 0.600 {red[1]}"
    # One engine for the game (its tree carries over), one of its own for reg_genmove, a new one
    # after clear_board.
    assert [len(e.calls) for e in fake_engine.made] == [2, 1, 1]


def test_windows_line_ends_and_tabs():
    assert run_session(["name\r\n", "known_command\tplay\r\n"], quiet=True) == "= trigon_fast\n\n= true\n\n"


def test_config_file_blank_lines_are_layout(tmp_path):
    config = tmp_path / "config.gtp"
    config.write_text("# rules\n\nset_game Blokus Trigon Two-Player\n   \nparam level 2\n")
    proc = subprocess.run(engine_command() + ["--quiet", "--config", str(config)], input="param\nquit\n",
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "variant two_player" in proc.stdout and "level 2" in proc.stdout


def test_config_file_errors_stop_before_reading_input(tmp_path, capsys):
    config = tmp_path / "bad.gtp"
    config.write_text("param level 3\nparam level 99\n")
    assert main(["--config", str(config)]) == 1
    err = capsys.readouterr()
    assert err.out == "" and "config command failed: param level 99" in err.err
    assert main(["--config", str(tmp_path / "missing.gtp")]) == 1


def _doc_block(text: str, heading: str) -> str:
    start = text.index("```", text.index(heading)) + 4
    return text[start:text.index("\n```", start) + 1]


def test_the_example_session_of_docs_gtp_md_is_real():
    # The page says it is real output of `trigon-gtp --seed 7 --level 1 --quiet`: replay it (one
    # thread and a seed: the search's replies are the same every time on this build).
    doc = (Path(__file__).resolve().parent.parent / "docs" / "gtp.md").read_text()
    block = _doc_block(doc, "### Example session")
    chunks = [c for c in block.strip("\n").split("\n\n")]
    engine = GtpEngine(seed=7, level=1, quiet=True)
    for chunk in chunks:
        command, *shown = chunk.split("\n")
        reply = engine.handle(command + "\n").rstrip("\n").split("\n")
        assert [line.rstrip() for line in reply] == [line.rstrip() for line in shown], command


def test_the_controller_example_of_docs_gtp_md():
    doc = (Path(__file__).resolve().parent.parent / "docs" / "gtp.md").read_text()
    shown = doc[doc.index('print(send("genmove 1"))'):].split("# (True, '", 1)[1].split("'", 1)[0]
    engine = GtpEngine(seed=7, quiet=True)
    engine.handle("set_game Blokus Trigon Two-Player\n")
    assert engine.handle("genmove 1\n") == f"= {shown}\n\n"


def test_the_readme_session_is_part_of_the_real_one():
    root = Path(__file__).resolve().parent.parent
    readme = _doc_block((root / "README.md").read_text(), "## Backend for other programs")
    session = _doc_block((root / "docs" / "gtp.md").read_text(), "### Example session")
    assert readme.strip() and readme.strip() in session
    # (and it names the options that make it repeatable: without a seed the moves vary)
    text = (root / "README.md").read_text()
    assert "trigon-gtp --seed 7 --level 1 --quiet" in text[text.index("## Backend for other programs"):]


@pytest.mark.parametrize("names", [("1", "2", "3", "4"), ("blue", "yellow", "red", "green"),
                                   ("BLUE", "Yellow", "rEd", "GREEN")])
def test_play_and_genmove_colour_arguments_name_their_colours(names):
    # Only "blue" was ever used as a name: green mapped to red passed every test.
    engine = GtpEngine(quiet=True, level=1, seed=3)
    # In reverse turn order, so that each move is out of turn and its colour comes only from the
    # argument.
    for c, cell in reversed(list(zip(names, ("r15", "z12", "z7", "r4")))):
        assert engine.handle(f"play {c} {cell}").startswith("="), c
    assert [(int(c), str(m)) for c, m in engine.game.history] == [(3, "r4"), (2, "z7"), (1, "z12"), (0, "r15")]
    for k in (3, 2, 1, 0):
        reply = engine.handle(f"genmove {names[k]}")
        assert reply.startswith("= ") and reply.strip() != "= pass", reply
        assert int(engine.game.history[-1][0]) == k


# -- review findings -----------------------------------------------------------------------------

def test_a_hash_inside_a_line_is_part_of_it(tmp_path):
    # As Pentobi's reader: only lines that start with '#' are comments; a file name may hold one.
    game = tf.random_game(tf.Variant.FOUR_PLAYER, 4)
    (tmp_path / "x").write_text(tf.Game().to_blksgf())  # what a cut at '#' would load instead
    (tmp_path / "x#3.blksgf").write_text(game.to_blksgf())
    out = replies(f"loadsgf {tmp_path / 'x#3.blksgf'}", f'savesgf "{tmp_path / "match#3.blksgf"}"', "final_score",
                  "   # an indented comment", "name # a note")
    assert [s for s, _, _ in out] == ["=", "=", "=", "?"]
    assert out[2][2] == " ".join(str(game.score(c) + 110) for c in range(4))  # x#3's game, not x's
    assert tf.Game.from_blksgf(tmp_path / "match#3.blksgf").history == game.history
    assert not (tmp_path / "match").exists()
    assert out[3][2] == "too many arguments"


def test_pentobi_param_keys_are_accepted_and_read_back():
    out = replies("param use_book 1", "param avoid_symmetric_draw 1", "param exploration_constant 0.5",
                  "param rave_child_max 1e3", "param rave_parent_max 100", "param rave_weight -0",
                  "param reuse_subtree 0", "param",
                  "param use_book 2", "param reuse_subtree yes", "param rave_weight nan",
                  "param exploration_constant x")
    assert [s for s, _, _ in out] == ["="] * 8 + ["?"] * 4
    now = dict(line.split(" ", 1) for line in out[7][2].split("\n"))
    assert {k: now[k] for k in PENTOBI_ONLY} == {
        "avoid_symmetric_draw": "1", "exploration_constant": "0.5", "rave_child_max": "1000",
        "rave_parent_max": "100", "rave_weight": "0", "reuse_subtree": "0", "use_book": "1"}
    assert list(now) == sorted(now)
    assert out[8][2] == "use_book must be 0 or 1, not '2'" and out[10][2] == "rave_weight must be a number, not 'nan'"


def test_a_pentobi_config_file_runs(tmp_path):
    config = tmp_path / "pentobi.cfg"
    config.write_text("param use_book 0\nparam avoid_symmetric_draw 0\nparam reuse_subtree 1\n"
                      "param exploration_constant 6\nparam fixed_simulations 30\n")
    proc = subprocess.run(engine_command() + ["--quiet", "--config", str(config)], input="param\nquit\n",
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "fixed_simulations 30" in proc.stdout


def test_reuse_subtree_0_searches_each_move_afresh(fake_engine):
    out = replies("param reuse_subtree 0", "genmove 1", "param reuse_subtree 1", "genmove 2")
    assert [s for s, _, _ in out] == ["="] * 4
    [engine] = fake_engine.made
    assert [c.get("reuse_tree") for c in engine.calls] == [False, None]  # None: the engine's default, reuse


def test_get_place_ranks_the_players_by_score():
    assert ok("known_command get_place") == "true"
    # The empty board: everyone level.
    assert [ok(f"get_place {c}") for c in "1234"] == ["1 shared"] * 4
    done = tf.random_game(tf.Variant.FOUR_PLAYER, 2)
    lines = [f"play {int(c) + 1} {m}" for c, m in done.history]
    places = [t for _, _, t in replies(*lines, *(f"get_place {c}" for c in "1234"))[len(lines):]]
    scores = [done.score(c) for c in range(4)]
    for c in range(4):
        ahead, level = sum(s > scores[c] for s in scores), scores.count(scores[c])
        assert places[c] == f"{ahead + 1}" + (" shared" if level > 1 else "")
    # Two players: a colour takes its side's place.
    two = tf.Variant("two_player", pentobi_compatible=True)
    done = next(g for g in (tf.random_game(two, s) for s in range(20)) if len(set(g.player_scores())) == 2)
    lines = ["set_game Blokus Trigon Two-Player"] + [f"play {int(c) + 1} {m}" for c, m in done.history]
    places = [t for _, _, t in replies(*lines, *(f"get_place {c}" for c in "1234"))[len(lines):]]
    first = 0 if done.player_scores()[0] > done.player_scores()[1] else 1
    assert places == [["1", "2", "1", "2"], ["2", "1", "2", "1"]][first]
    assert fails("get_place 5") == "invalid color argument '5'"


def test_config_files_not_utf8_or_with_a_bom(tmp_path, capsys):
    latin = tmp_path / "latin1.cfg"
    latin.write_bytes(b"param level 2\n# caf\xe9\n")
    assert main(["-q", "-c", str(latin)]) == 1
    err = capsys.readouterr()
    assert err.out == "" and err.err.startswith(f"trigon-gtp: cannot read {latin}: not UTF-8 text")
    assert len(err.err.splitlines()) == 1  # no traceback
    bom = tmp_path / "bom.cfg"
    bom.write_bytes("\ufeffparam level 2\n".encode())
    proc = subprocess.run(engine_command() + ["--quiet", "--config", str(bom)], input="param\nquit\n",
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "level 2" in proc.stdout


@pytest.mark.parametrize("line", ["loadsgf f.blksgf 1_0", "loadsgf f.blksgf \uff13", "param level +3",
                                  "param level \u0663", "param threads \uff12", "set_random_seed 1_000",
                                  "analyze 1 \u0663", "param fixed_simulations 1e3", "param time 1_0",
                                  "param time \uff11", "param time 0x10"])
def test_numbers_are_ascii_digits(line):
    assert "must be" in fails(line)


def test_integer_arguments_take_a_minus_for_the_range_message():
    assert fails("param level -3") == "level must be in 1..9, not -3"
    assert "level 7\n" in replies("param level 07", "param")[1][2]


def test_time_is_bounded_and_minus_zero_reads_back_as_zero():
    out = replies("param time -0", "param", "param time 30000000", "param time 1e308", "param time inf",
                  "param time nan", "param time 1e999", "param time -1", "param time .5", "param")
    assert [s for s, _, _ in out] == ["="] * 3 + ["?"] * 5 + ["="] * 2
    assert "time 0\n" in out[1][2]
    assert out[3][2] == "time must be a number of seconds 0..30000000 (0: the level decides), not '1e308'"
    assert "time 0.5\n" in out[9][2]


def test_get_value_after_a_search_without_simulations_says_so(monkeypatch):
    import trigon_fast.gtp as gtp_module

    class NoSimulations:
        # A time limit shorter than one simulation: a move chosen from the priors, no values.
        def __init__(self, threads=1):
            pass

        def analyse(self, game, **kwargs):
            return types.SimpleNamespace(best_move=list(game.legal_moves)[0], value=np.full(4, np.nan), moves=[],
                                         forced=False)

    monkeypatch.setattr(gtp_module, "Engine", NoSimulations)
    out = replies("get_value", "param time 0.000001", "genmove 1", "get_value")
    assert [s for s, _, _ in out] == ["?", "=", "=", "?"]
    assert out[0][2] == "no search value: run genmove, reg_genmove or analyze with the search first"
    assert out[3][2] == "no search value: the last search ran no simulations (its time limit is too short for one)"


def test_reg_genmove_leaves_later_genmoves_alone(fake_engine):
    with_reg = replies("genmove 1", "reg_genmove 2", "genmove 2", "genmove 3", seed=5)
    game_engine, reg_engine = fake_engine.made
    seeds = [c["seed"] for c in game_engine.calls]
    fake_engine.made = []
    without = replies("genmove 1", "genmove 2", "genmove 3", seed=5)
    assert [c["seed"] for c in fake_engine.made[0].calls] == seeds  # the same random draws
    assert [with_reg[i] for i in (0, 2, 3)] == without
    # Its search has a tree of its own: the game's engine searched only for the genmoves.
    assert len(game_engine.calls) == 3 and len(reg_engine.calls) == 1


def test_reg_genmove_leaves_later_genmoves_alone_with_the_real_search():
    lines = ["genmove 1", "genmove 2", "genmove 3"]
    without = replies(*lines, seed=5, level=1)
    with_reg = replies("genmove 1", "reg_genmove 2", "reg_genmove 3", "genmove 2", "genmove 3", seed=5, level=1)
    assert [with_reg[i] for i in (0, 3, 4)] == without


def test_a_bare_cr_is_discarded_not_a_line_end():
    # Read with universal newlines, "1 name\r2 version\n" was two commands: two replies for one
    # line, the controller's replies out of step. GTP discards CR (CRLF line ends still work).
    proc = subprocess.run(engine_command() + ["--quiet"], input=b"1 name\r2 version\n3 protocol_version\r\n",
                          capture_output=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.decode().split("\n\n")[:-1] == ["?1 unknown command (name2)", "=3 2"]


def test_quit_in_a_config_file_ends_before_reading_input(tmp_path):
    # It answered the first command from stdin, then quit.
    config = tmp_path / "q.gtp"
    config.write_text("param level 1\nquit\n")
    proc = subprocess.run(engine_command() + ["--quiet", "--config", str(config)], input="name\nversion\n",
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and proc.stdout == "", (proc.stdout, proc.stderr)
