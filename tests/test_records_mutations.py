"""Records, GTP and the `trigon` command against hand-written expectations: the tests written
for the mutation round of records.py, gtp.py and cli/ (docs/reliability.md). Each one failed
with a small change to the code that every earlier test passed with; the expected texts are
written from conventions.md, Pentobi-SGF.md and Pentobi-GTP.md, not from the code's output."""

import io

import pytest

import trigon_fast as tf
from trigon_fast.gtp import GtpEngine, run_session
from trigon_fast.records import parse_sgf

BLUE_FIRST = "q15,r15,p16,q16,o17,p17"  # I6 on blue's start cell r15
HEAD = f"(;GM[Blokus Trigon]FF[4]CA[UTF-8]AP[trigon_fast:{tf.__version__}]"


def cells(game):
    return [(int(c), str(m)) for c, m in game.history]


def session(*lines, **options):
    """Replies as (status, id, text), from a fresh engine."""
    out = run_session(lines, quiet=True, **options)
    result = []
    for block in out.split("\n\n")[:-1]:
        head, _, text = block.partition(" ")
        result.append((head[0], head[1:], text))
    return result


# -- blksgf: values -----------------------------------------------------------------------------

def test_soft_line_breaks_and_line_ends_of_every_system():
    # SGF: a backslash before a line end (LF, CRLF, CR) is a soft break and vanishes; a line
    # end itself is kept, as one "\n" whatever the system wrote.
    [root] = parse_sgf("(;C[one \\\r\ntwo]GC[a\\\rb]N[c\\\nd]PC[x\r\ny\rz\nw])")
    assert root.get("C") == "one two"
    assert root.get("GC") == "ab" and root.get("N") == "cd"
    assert root.get("PC") == "x\ny\nz\nw"
    # A record saved on Windows reads as the same record.
    text = f"(;GM[Blokus Trigon]\r\nC[first line\r\nsecond \\\r\nline]\r\n;1[{BLUE_FIRST}]\r\n)\r\n"
    rec = tf.read_blksgf(text.encode("utf-8"))
    assert rec.comments() == [(0, "first line\nsecond line")]
    assert cells(rec.game()) == [(0, BLUE_FIRST)]


# -- blksgf: writing ----------------------------------------------------------------------------

def test_written_record_is_pentobis_text():
    # Header GM FF[4] CA[UTF-8] AP[name:version]; moves lower case, cells sorted a1, b1, ..., a2.
    g = tf.Game()
    g.play("P16,Q15,R15,Q16,O17,P17")
    g.play("r4")
    assert g.to_blksgf() == HEAD + f"\n;1[{BLUE_FIRST}]\n;2[r4]\n)\n"


def test_setup_before_any_move_is_written_in_the_root():
    # Pentobi writes its setup in the root node (Pentobi-SGF.md), with PL for the colour to play.
    g = tf.Game()
    g.setup(0, BLUE_FIRST)
    g.setup(1, "r4", to_move=2)
    g.play("z12")
    assert g.to_blksgf() == HEAD + f"A1[{BLUE_FIRST}]A2[r4]PL[3]\n;3[z12]\n)\n"
    g = tf.Game(tf.Variant("three_player", pentobi_compatible=True))
    g.setup(2, "p14")
    assert g.to_blksgf() == ("(;GM[Blokus Trigon Three-Player]FF[4]CA[UTF-8]"
                             f"AP[trigon_fast:{tf.__version__}]A3[p14]PL[1]\n)\n")


TWO_PENTOBI = tf.Variant("two_player", pentobi_compatible=True)


@pytest.mark.parametrize("variant, seed", [(TWO_PENTOBI, s) for s in (*range(8), 16)]
                         + [(tf.Variant.TEAMS, s) for s in range(4)])
def test_result_of_a_finished_two_sided_game(variant, seed):
    # RE: B+n when blue+red score more, W+n when yellow+green do (n > 0), 0 on a tie.
    g = tf.random_game(variant, seed)
    assert g.is_over
    first = g.score(0) + g.score(2)
    second = g.score(1) + g.score(3)
    expected = f"B+{first - second}" if first > second else f"W+{second - first}" if second > first else "0"
    assert f"RE[{expected}]" in g.to_blksgf()
    assert tf.read_blksgf(g.to_blksgf()).result == expected


def test_the_seeds_above_hold_a_win_of_each_side_and_a_tie():
    results = {tf.read_blksgf(tf.random_game(TWO_PENTOBI, s).to_blksgf()).result[0] for s in (0, 1, 16)}
    assert results == {"B", "W", "0"}


def test_one_player_solo_names_its_player_p1():
    g = tf.random_game(tf.Variant.SOLO, 1)
    text = g.to_blksgf(players=["Solveig"])
    assert "P1[Solveig]" in text and "PB[" not in text
    assert tf.read_blksgf(text).players == ("Solveig",)


def test_a_comment_for_a_node_the_record_has_not_is_a_value_error():
    g = tf.Game()
    g.play(BLUE_FIRST)
    g.play("r4")  # nodes 0..2
    assert "C[last]" in g.to_blksgf(comments={2: "last"})
    with pytest.raises(ValueError, match=r"nodes 0\.\.2"):
        g.to_blksgf(comments={3: "past the end"})


# -- blksgf: reading setup and PL ------------------------------------------------------------------

def test_pl_b_and_w_are_the_first_and_second_colour():
    # Pentobi reads PL[B] as colour 1 and PL[W] as colour 2 in every game (NodeUtil get_player).
    for pl, turn in (("B", tf.Colour.BLUE), ("W", tf.Colour.YELLOW), ("1", tf.Colour.BLUE), ("4", tf.Colour.GREEN)):
        g = tf.Game.from_blksgf(f"(;GM[Blokus Trigon];1[{BLUE_FIRST}];2[r4];A3[z12]PL[{pl}])")
        assert g.turn == turn, pl


@pytest.mark.parametrize("setup", ["AE[r4]", "A4[z7]", "AE[r4]A3[z12]"])
def test_a_setup_node_without_pl_keeps_the_colour_to_play(setup):
    # Pentobi takes the position as a setup and keeps its colour to play unless PL says.
    g = tf.Game.from_blksgf(f"(;GM[Blokus Trigon];1[{BLUE_FIRST}];2[r4];{setup})")
    assert g.turn == tf.Colour.RED


# -- GTP: savesgf writes back the tree loaded ------------------------------------------------

def _load_and_save(tmp_path, text, *commands):
    path = tmp_path / "in.blksgf"
    path.write_text(text)
    out = session(f"loadsgf {path}", *commands, f"savesgf {tmp_path / 'out.blksgf'}")
    assert [s for s, _, _ in out] == ["="] * len(out), out
    return (tmp_path / "out.blksgf").read_text()


def test_savesgf_keeps_the_tree_through_a_node_of_setup_alone(tmp_path):
    # A node after the root that places pieces without a move (as our writer makes for setups
    # made after moves) is part of the line: the tree, its comments and variations, stay.
    text = (f"(;GM[Blokus Trigon]\n;1[{BLUE_FIRST}]C[first]\n;A3[i9]A4[aa9]PL[2]C[set up]\n"
            "(;2[r4]C[main]\n)\n(;2[z12]C[another second move]\n)\n)\n")
    assert _load_and_save(tmp_path, text) == text
    assert _load_and_save(tmp_path, text, "undo", "play 2 r4") == text


def test_savesgf_follows_the_moves_past_a_node_that_holds_only_a_comment(tmp_path):
    # Pentobi writes its tree back: loading and saving adds nothing; a node of comments alone
    # is part of the line (it took the rest of the game again as a second variation).
    text = f"(;GM[Blokus Trigon]\n;1[{BLUE_FIRST}]\n;C[a comment node]\n;2[r4]\n;3[z12]\n)\n"
    assert _load_and_save(tmp_path, text) == text
    assert _load_and_save(tmp_path, text, "undo", "undo", "play 2 r4", "play 3 z12") == text
    # A new second move: a variation beside the one the tree has, the comment node kept in the line.
    out = tf.read_blksgf(_load_and_save(tmp_path, text, "undo", "undo", "play 2 j12"))
    lines = [cells(tf.Record(out.root).game(nodes=line)) for line in out.lines()]
    assert lines == [[(0, BLUE_FIRST), (1, "r4"), (2, "z12")], [(0, BLUE_FIRST), (1, "j12")]]
    assert out.comments() == [(2, "a comment node")]


def test_savesgf_extends_a_main_line_that_ends_in_a_comment_node(tmp_path):
    # Played on from the end of the main line, the moves extend it (after its last node, here
    # one of comments alone) and the result goes (docs/gtp.md).
    text = (f"(;GM[Blokus Trigon Two-Player]RE[W+R]\n;1[{BLUE_FIRST}]\n;2[r4]\n;C[resigned here]\n)\n")
    assert _load_and_save(tmp_path, text) == text
    assert _load_and_save(tmp_path, text, "play 3 z12") == (
        f"(;GM[Blokus Trigon Two-Player]\n;1[{BLUE_FIRST}]\n;2[r4]\n;C[resigned here]\n;3[z12]\n)\n")


def test_savesgf_keeps_the_tree_when_a_variation_does_not_replay(tmp_path):
    # Variations are read and kept; one with an illegal move is not the game's line, but the
    # tree still goes back whole (it came back as the game alone, without its other lines).
    text = (f"(;GM[Blokus Trigon]C[root]\n;1[{BLUE_FIRST}]\n(;2[r4]C[main]\n)"
            "\n(;2[r15]C[on blue's cells]\n)\n)\n")
    assert _load_and_save(tmp_path, text) == text
    saved = _load_and_save(tmp_path, text, "undo", "play 2 z12")
    assert saved == text[:-2] + "(;2[z12]\n)\n)\n"


# -- GTP: protocol -----------------------------------------------------------------------------

def test_gtp_comment_lines_are_skipped_and_control_characters_removed():
    # As Pentobi reads commands: a line whose first non-blank character is '#' is a comment (a
    # '#' later in a line belongs to it: file names may hold one); control characters other
    # than HT and LF are removed.
    assert run_session(["  # what is your name", "name", "2 known_command play# c", "na\x07me\x1b\r\n"],
                       quiet=True) == "= trigon_fast\n\n?2 too many arguments\n\n= trigon_fast\n\n"


def test_no_empty_line_inside_a_reply():
    # The empty line ends a reply: a reply's own empty lines are sent with a space on them.
    engine = GtpEngine(quiet=True)
    engine.commands["lines"] = lambda args, rest: "a\n\nb\n"
    assert engine.handle("7 lines") == "=7 a\n \nb\n\n"


def test_run_stops_reading_at_quit():
    engine = GtpEngine(quiet=True)
    out = io.StringIO()
    engine.run(io.StringIO("name\nquit\nname\nprotocol_version\n"), out)
    assert out.getvalue() == "= trigon_fast\n\n= \n\n"


def test_reg_genmove_and_genmove_for_a_colour_not_to_move():
    # After blue's first piece, yellow is to move; blue's next piece must touch it at a corner
    # (and covers no start cell), yellow's must cover a start cell.
    for command in ("reg_genmove 1", "genmove 1"):
        engine = GtpEngine(quiet=True, level=1, seed=2)
        engine.handle(f"play 1 {BLUE_FIRST}")
        reply = engine.handle(command)
        assert reply.startswith("= "), reply
        move = reply[2:].strip()
        g = tf.Game(tf.Variant.FOUR_PLAYER, [BLUE_FIRST])
        assert g.check(move, colour=0) is None and g.check(move, colour=1) is not None, move
        played = cells(engine.game)
        assert played == ([(0, BLUE_FIRST)] if command == "reg_genmove 1"
                          else [(0, BLUE_FIRST), (0, str(tf.Move.from_str(move)))])


def _blocked_position():
    """Seed 0 of the four-player random game, after 55 moves: red has no move left, green is
    to move, the game goes on."""
    g = tf.random_game(tf.Variant.FOUR_PLAYER, 0)
    return [(int(c), str(m)) for c, m in g.history[:55]]


def test_genmove_for_a_colour_that_cannot_move_mid_game_is_pass():
    moves = _blocked_position()
    g = tf.Game()
    for c, m in moves:
        g.play(m, colour=c)
    assert not g.is_over and not g.legal_moves_of(2) and g.turn == tf.Colour.GREEN
    engine = GtpEngine(quiet=True, level=1, seed=1)
    for c, m in moves:
        assert engine.handle(f"play {c + 1} {m}").startswith("=")
    assert engine.handle("genmove 3") == "= pass\n\n"
    assert engine.handle("reg_genmove 3") == "? player failed to generate a move\n\n"
    assert len(engine.game.history) == 55 and engine.game.turn == tf.Colour.GREEN


def test_g_at_the_end_of_the_game_is_pass():
    g = tf.random_game(tf.Variant.FOUR_PLAYER, 3)
    engine = GtpEngine(quiet=True, level=1)
    engine.game = g
    assert engine.handle("g") == "= pass\n\n"


@pytest.mark.parametrize("game_id, name", [("trigon", "Blokus Trigon"), ("t", "Blokus Trigon"),
                                           ("trigon_2", "Blokus Trigon Two-Player"),
                                           ("t2", "Blokus Trigon Two-Player"),
                                           ("trigon_3", "Blokus Trigon Three-Player"),
                                           ("t3", "Blokus Trigon Three-Player")])
def test_pentobi_game_ids(game_id, name):
    assert GtpEngine(game=game_id, quiet=True).variant.name == name


def test_a_config_command_with_an_id_that_fails_stops_the_engine(tmp_path, capsys):
    from trigon_fast.gtp import main

    config = tmp_path / "bad.gtp"
    config.write_text("1 param level 3\n2 param level 99\n")
    assert main(["--config", str(config)]) == 1
    assert "config command failed: 2 param level 99" in capsys.readouterr().err


def test_savesgf_of_a_record_with_setup_after_moves_keeps_its_header(tmp_path):
    # A record whose main line holds setup after moves goes back whole (its node of setup alone
    # is part of the line); one whose line removes pieces (AE) goes back as the game with the
    # record's header: players, event, date, the root comment, and its result only while the
    # game is still the record's whole main line.
    text = ("(;GM[Blokus Trigon Two-Player]PB[Ann]PW[Bob]EV[club]DT[2026-01-02]RE[B+3]C[root]\n"
            f";1[{BLUE_FIRST}]\n;A3[z12]PL[2]\n;2[r4]\n)\n")
    assert _load_and_save(tmp_path, text) == text
    assert _load_and_save(tmp_path, text, "undo") == text  # (undo cuts nothing out of the tree)
    removed = text.replace(";A3[z12]PL[2]", ";A3[z12]PL[2]\n;AE[z12]PL[2]")
    whole = tf.read_blksgf(_load_and_save(tmp_path, removed))
    taken_back = tf.read_blksgf(_load_and_save(tmp_path, removed, "undo"))
    for rec in (whole, taken_back):
        assert rec.players == ("Ann", "Bob") and rec.info["EV"] == "club" and rec.info["DT"] == "2026-01-02"
        assert (0, "root") in rec.comments()
    assert whole.result == "B+3" and cells(whole.game()) == [(0, BLUE_FIRST), (1, "r4")]
    assert taken_back.result is None and cells(taken_back.game()) == [(0, BLUE_FIRST)]


@pytest.mark.parametrize("line", ["7", "12 ", "0"])
def test_a_number_alone_is_a_bad_command_not_an_id(line):
    # An id needs a command after it: a line of digits alone is answered with an error (it
    # raised out of the engine when taken as an id of an empty command).
    out = session(line, "name")
    assert [s for s, _, _ in out] == ["?", "="] and out[1][2] == "trigon_fast"
    assert out[0][1] == ""


# -- the trigon command --------------------------------------------------------------------------

def trigon(*args, input=None):
    from click.testing import CliRunner

    from trigon_fast import cli

    return CliRunner().invoke(cli.main, [str(a) for a in args], input=input)


@pytest.mark.parametrize("variant, engine, intro", [
    ("four", "4", "Blokus Trigon: you play blue, yellow, red, engine 'greedy' plays green."),
    ("four", "y,r", "Blokus Trigon: you play blue, green, engine 'greedy' plays yellow, red."),
    ("four", "g", "Blokus Trigon: you play blue, yellow, red, engine 'greedy' plays green."),
    ("four", "none", "Blokus Trigon: you play blue, yellow, red, green, no engine plays."),
    ("2", "2,4", "Blokus Trigon Two-Player: you play blue, red, engine 'greedy' plays yellow, green."),
    ("3", "3", "Blokus Trigon Three-Player: you play blue, yellow, engine 'greedy' plays red."),
])
def test_play_colours_and_variants_by_number_and_letter(variant, engine, intro):
    r = trigon("play", "--variant", variant, "--engine", engine, "--opponent", "greedy", input="quit\n")
    assert r.exit_code == 0, r.output
    assert r.stdout.splitlines()[0] == intro + " Type help for commands."


def test_move_out_of_the_record_is_an_argument_mistake(tmp_path):
    # --move N: 0..the record's number of moves; anything else is a usage error (status 2).
    rec = tmp_path / "g.blksgf"
    rec.write_text(f"(;GM[Blokus Trigon];1[{BLUE_FIRST}];2[r4])")
    for n in (-1, 3):
        r = trigon("render", rec, "--svg", tmp_path / "b.svg", "--move", n)
        assert r.exit_code == 2, r.output
        assert f"the record has moves 0..2, not {n}" in r.output
    assert trigon("render", rec, "--svg", tmp_path / "b.svg", "--move", 0).exit_code == 0


def test_a_record_that_cannot_be_read_exits_1(tmp_path):
    # A failure while running (not a mistake in the arguments): one Error line, status 1.
    rec = tmp_path / "bad.blksgf"
    rec.write_text("(;GM[Blokus Trigon];1[r14])")
    r = trigon("render", rec, "--svg", tmp_path / "b.svg")
    assert r.exit_code == 1
    assert r.output.startswith("Error: line 1, column 23: move 1 1[r14] is illegal")


@pytest.mark.parametrize("command", ["set_game Blokus Trigon", "clear_board"])
def test_a_new_game_forgets_the_record_loaded(tmp_path, command):
    text = f"(;GM[Blokus Trigon]P1[Ann]C[old]\n;1[{BLUE_FIRST}]\n;2[r4]\n)\n"
    saved = tf.read_blksgf(_load_and_save(tmp_path, text, command))
    assert saved.players == (None, None, None, None) and saved.comments() == []
    assert saved.game().history == [] and saved.root.children == []


def test_play_with_words_after_the_move_is_refused():
    # Wrong arguments get '?' and change nothing (the words after the move were dropped).
    engine = GtpEngine(quiet=True)
    assert engine.handle(f"play 1 {BLUE_FIRST} r4").startswith("? ")
    assert engine.handle("play 1 r15 junk").startswith("? ")
    assert engine.game.history == []
    assert engine.handle(f"play blue {BLUE_FIRST}") == "= \n\n"
