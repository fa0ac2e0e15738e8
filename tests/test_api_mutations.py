"""Tests of the public API (move.py, variants.py, game.py, _args.py, errors.py) written in a
mutation round (docs/reliability.md): each catches a change that the other tests let through.
Expected values come from the conventions, the rulebook or plane geometry (via the independent
tests/reference_rules.py), never from the code under test."""

import copy
import functools
import math
import pickle

import numpy as np
import pytest

import trigon_fast as tf
from reference_rules import cells_of, corners, parse
from trigon_fast import _args

V = tf.Variant
BLUE, YELLOW, RED, GREEN = tf.Colour.BLUE, tf.Colour.YELLOW, tf.Colour.RED, tf.Colour.GREEN

# conventions.md: Pentobi's names, largest first (12 of 6 triangles, 4 of 5, 3 of 4, then 3, 2, 1).
PENTOBI_ORDER = "I6 L6 V S P6 F W A6 G Y X O I5 L5 C5 P5 I4 C4 A4 I3 2 1".split()
SIZE = dict(zip(PENTOBI_ORDER, [6] * 12 + [5] * 4 + [4] * 3 + [3, 2, 1]))
START_RING = {9: ["r15", "z12", "z7", "r4", "j7", "j12"], 8: ["p14", "x11", "x6", "p3", "h6", "h11"]}
I6_ON_R15 = "q15,r15,p16,q16,o17,p17"  # the conventions' example move


def _column_and_row(name):
    letters = name.rstrip("0123456789")
    column = ord(letters[-1]) - ord("a") + (26 * (ord(letters[0]) - ord("a") + 1) if len(letters) == 2 else 0)
    return column, int(name[len(letters):])


def _centroid(side, cell):
    """A triangle's centroid in the plane (unit edges) from its corners in reference_rules,
    which are in half-unit columns and row lines."""
    pts = corners(side, cell)
    return sum(x for x, _ in pts) / 6, sum(y for _, y in pts) * math.sqrt(3) / 6


@functools.lru_cache(maxsize=2)
def _board_centre(side):
    cs = [_centroid(side, c) for c in cells_of(side)]
    return sum(x for x, _ in cs) / len(cs), sum(y for _, y in cs) / len(cs)


def _radii(side, move):
    """The distances of a move's cells from the centre of the board."""
    cx, cy = _board_centre(side)
    return sorted(round(math.hypot(x - cx, y - cy), 6) for x, y in (_centroid(side, parse(side, n)) for n in move.cells))


# -- moves ------------------------------------------------------------------------------------

@pytest.mark.parametrize("side", [9, 8])
def test_move_text_is_sorted_by_row_then_column_and_sizes_follow_the_piece(side):
    b = tf.board(side)
    for pid in range(0, b.num_placements, 53):
        m = tf.Move(pid, side)
        names = str(m).split(",")
        assert names == list(m.cells)
        assert names == sorted(names, key=lambda n: _column_and_row(n)[::-1])  # a1, b1, ..., a2, ...
        assert m.size == len(names) == SIZE[m.piece]
        assert tf.Move.from_str(",".join(reversed(names)), side) == m


def test_piece_names_indices_and_what_is_not_a_piece():
    assert list(tf.PIECE_NAMES) == PENTOBI_ORDER
    assert [tf.PIECE_SIZES[i] for i in range(22)] == [SIZE[n] for n in PENTOBI_ORDER]
    for bad in (22, -1, True, False, 1.0, "I7", None):
        with pytest.raises(tf.InvalidMoveError, match="piece"):
            tf.Move.from_piece(bad, 0, "r15")
        with pytest.raises(tf.InvalidMoveError, match="piece"):
            tf.Move.orientations(bad)
    assert tf.Move.orientations(" i6 ") == tf.Move.orientations(0) == tf.Move.orientations(np.int8(0))


def test_move_errors_say_what_is_wrong():
    for text in ("pass", "PASS", " Pass "):
        with pytest.raises(tf.InvalidMoveError, match="is not a placement"):
            tf.Move.from_str(text)
    with pytest.raises(tf.InvalidMoveError, match="repeated"):
        tf.Move.from_str("q15,r15,R15")
    for piece in ("1", "I6", "A4"):
        with pytest.raises(tf.InvalidMoveError, match=f"orientation of piece {piece} must be"):
            tf.Move.from_piece(piece, tf.Move.orientations(piece), "r15")


def test_from_piece_puts_the_piece_on_the_cell():
    # Near the centre, one cell pointing up and the one above it pointing down: every piece fits
    # on one of the two in some orientation (its reference triangle points one way or the other).
    for side, cells in ((9, ("r15", "r16")), (8, ("p14", "p15"))):
        for p, name in enumerate(PENTOBI_ORDER):
            fits = 0
            for cell in cells:
                for o in range(tf.Move.orientations(name)):
                    try:
                        m = tf.Move.from_piece(name, o, cell, side=side)
                    except tf.InvalidMoveError:
                        continue  # (its reference triangle points the other way)
                    assert (m.piece, m.orientation, m.side) == (name, o, side) and cell in m.cells
                    assert tf.Move.from_piece(p, o, tf.board(side).parse_cell(cell), side) == m
                    fits += 1
            assert fits > 0, name


def test_from_piece_says_when_the_reference_triangle_points_the_other_way():
    # Side 9: cell (x, y) points up when x + y is even, row = 18 - y. r15 is (17, 3): up; z12 is
    # (25, 6): down. The single triangle fits on z12 in its other orientation, so "does not fit"
    # alone misled (trigon play's `legal 1` lists "1 1 z12").
    up = tf.Move.from_piece("1", 0, "r15")
    assert up.cells == ("r15",)
    with pytest.raises(tf.InvalidMoveError, match="points up, z12 down"):
        tf.Move.from_piece("1", 0, "z12")
    assert tf.Move.from_piece("1", 1 - up.orientation, "z12").cells == ("z12",)
    # aa18 is (26, 0): up, at the top right corner, where I6 in the orientation of r15..u17 runs off.
    assert tf.Move.from_piece("I6", 0, "r15").cells == ("r15", "s15", "s16", "t16", "t17", "u17")
    with pytest.raises(tf.InvalidMoveError) as info:
        tf.Move.from_piece("I6", 0, "aa18")
    assert str(info.value) == "piece I6 in orientation 0 does not fit on the board at aa18"


def test_small_board_moves_keep_their_side():
    m = tf.Move.from_str("p14", side=8)
    assert m.side == 8 and m.cells == ("p14",)
    assert repr(m) == "Move.from_str('p14', side=8)" and eval(repr(m), vars(tf)) == m
    assert tf.Move.from_cells(["p14"], side=8) == m == tf.Move.from_id(m.id, 8)
    assert tf.Move.from_piece("1", m.orientation, "p14", side=8) == m
    same_id_big_board = tf.Move(m.id, 9)
    assert m != same_id_big_board and len({m, same_id_big_board}) == 2
    assert repr(tf.Move.from_str("r15")) == "Move.from_str('r15')"


@pytest.mark.parametrize("side", [9, 8])
def test_transform_is_a_symmetry_of_the_board(side):
    # Every cell keeps its distance from the board's centre and the piece its shape.
    for pid in range(7, tf.board(side).num_placements, 977):
        m = tf.Move(pid, side)
        for k in range(12):
            t = m.transform(k)
            assert t.side == side and t.piece == m.piece and _radii(side, t) == _radii(side, m)
    # The start marks are symmetric: the ring's cells map onto the ring.
    ring = {tf.Move.from_str(s, side) for s in START_RING[side]}
    for k in range(12):
        assert {m.transform(k) for m in ring} == ring


# -- variants ---------------------------------------------------------------------------------

S = tf.StartRule
# (variant, colours, players, start rule, side, game name): the rulebook's and Pentobi's rules.
VARIANTS = [
    (V.FOUR_PLAYER, "BYRG", [[BLUE], [YELLOW], [RED], [GREEN]], S.ANY, 9, "Blokus Trigon"),
    (V.TWO_PLAYER, "BYRG", [[BLUE, RED], [YELLOW, GREEN]], S.OPPOSITE, 9, "Blokus Trigon Two-Player"),
    (V("two_player", pentobi_compatible=True), "BYRG", [[BLUE, RED], [YELLOW, GREEN]], S.ANY, 9,
     "Blokus Trigon Two-Player"),
    (V.THREE_PLAYER, "BYR", [[BLUE], [YELLOW], [RED]], S.EVERY_OTHER, 8, "Blokus Trigon Three-Player"),
    (V("three_player", pentobi_compatible=True), "BYR", [[BLUE], [YELLOW], [RED]], S.ANY, 8,
     "Blokus Trigon Three-Player"),
    (V.TEAMS, "BYRG", [[BLUE, RED], [YELLOW, GREEN]], S.ANY, 9, "Blokus Trigon"),
    (V.SOLO, "BYRG", [[BLUE, YELLOW, RED, GREEN]], S.ANY, 9, "Blokus Trigon"),
    (V.solo(side=8), "BYR", [[BLUE, YELLOW, RED]], S.ANY, 8, "Blokus Trigon Three-Player"),
    (V.solo(["green", "red"]), "RG", [[RED, GREEN]], S.ANY, 9, "Blokus Trigon"),
    (V.solo([0, 1, 2, 3], side=8), "BYRG", [[BLUE, YELLOW, RED, GREEN]], S.ANY, 8, "Blokus Trigon Three-Player"),
]


@pytest.mark.parametrize("variant,colours,players,start_rule,side,name", VARIANTS, ids=[repr(v[0]) for v in VARIANTS])
def test_variant_colours_players_start_rule_and_name(variant, colours, players, start_rule, side, name):
    expected = tuple(tf.Colour("BYRG".index(ch)) for ch in colours)
    assert variant.colours == expected
    assert variant.colour_mask == sum(1 << "BYRG".index(ch) for ch in colours)
    assert variant.players == tuple(tuple(p) for p in players)
    assert (variant.start_rule, variant.side, variant.name) == (start_rule, side, name)
    for c in tf.Colour:
        owner = [i for i, p in enumerate(players) if c in p]
        if owner:
            assert variant.player_of(c) == variant.player_of(c.name.lower()) == owner[0]
        else:
            with pytest.raises(ValueError, match="does not take part"):
                variant.player_of(c)
    g = tf.Game(variant)  # the core plays exactly these colours, from the first in turn order
    assert g.turn == expected[0] and [c for c in tf.Colour if not g.is_out(c)] == list(expected)


def test_colour_numbers_in_commands_and_records():
    assert [c.gtp for c in tf.Colour] == ["1", "2", "3", "4"]


def test_variant_options_are_kept_and_normalised():
    assert V.solo(side=9) == V.SOLO and repr(V.solo(side=9)) == "Variant.SOLO"
    pentobi_two = V("two_player", pentobi_compatible=True)
    assert pentobi_two.with_alternate_rule() == V("two_player", alternate_rule=True, pentobi_compatible=True)
    assert pentobi_two.with_alternate_rule().with_alternate_rule(False) == pentobi_two
    assert V.FOUR_PLAYER.with_alternate_rule(False) == V.FOUR_PLAYER
    red_small = V.solo(["red"], side=8)
    assert red_small.with_alternate_rule() == V.solo(["red"], side=8, alternate_rule=True)
    assert red_small.with_alternate_rule().colours == (RED,) and red_small.with_alternate_rule().side == 8
    for kind in ("four_player", "two_player", "three_player", "teams"):
        with pytest.raises(ValueError, match="only for a solo game"):
            V(kind, side_override=8)
        with pytest.raises(ValueError, match="only for a solo game"):
            V(kind, colours_override=(0,))


# -- scores and results -----------------------------------------------------------------------

def _rulebook_scores(game):
    """Scores from the history alone: minus the triangles not placed; +15 when all 22 are
    placed, +20 when the single triangle was the last."""
    out = {}
    for c in game.variant.colours:
        placed = [m.piece for k, m in game.history if k == c]
        left = sum(SIZE[n] for n in PENTOBI_ORDER if n not in placed)
        out[c] = -left if left else (20 if placed[-1] == "1" else 15)
    return out


@pytest.mark.parametrize("variant,colours,players,start_rule,side,name", VARIANTS, ids=[repr(v[0]) for v in VARIANTS])
def test_empty_games_are_ties_of_everyone(variant, colours, players, start_rule, side, name):
    g = tf.Game(variant)
    assert g.scores() == {c: -110 for c in variant.colours}
    assert g.player_scores() == tuple(-110 * len(p) for p in players)
    assert g.winners() == tuple(range(len(players))) and g.result is None


@pytest.mark.parametrize("variant", [V.FOUR_PLAYER, V.TWO_PLAYER, V.THREE_PLAYER, V.TEAMS, V.solo(["red", "green"])])
def test_finished_games_score_by_the_rulebook(variant):
    for seed in range(4):
        g = tf.random_game(variant, seed)
        expected = _rulebook_scores(g)
        assert g.is_over and g.scores() == expected
        sides = tuple(sum(expected[c] for c in p) for p in variant.players)
        assert g.player_scores() == sides
        assert g.result == g.winners() == tuple(i for i, s in enumerate(sides) if s == max(sides))
        for c in variant.colours:
            placed = {m.piece for k, m in g.history if k == c}
            assert g.pieces_left(c) == [n for n in PENTOBI_ORDER if n not in placed]


def test_a_tie_between_the_two_sides_is_a_shared_win():
    # Two players: blue and red against yellow and green. Each side places the same pieces.
    g = tf.Game(V.TWO_PLAYER)
    g.setup(BLUE, "a9")                 # blue: the triangle, -109
    g.setup(GREEN, "ai10")              # green: the triangle, -109
    g.setup(YELLOW, "q1,r1")            # yellow: the 2, -108
    g.setup(RED, "q18,r18")             # red: the 2, -108
    assert g.scores() == {BLUE: -109, YELLOW: -108, RED: -108, GREEN: -109}
    assert g.player_scores() == (-217, -217) and g.winners() == (0, 1) and g.result is None
    g.undo()
    assert g.winners() == (1,)


def test_three_players_tie_two_of_three():
    g = tf.Game(V.THREE_PLAYER)
    g.setup(BLUE, "p14")
    g.setup(RED, "x6")
    assert g.player_scores() == (-109, -110, -109) and g.winners() == (0, 2)
    with pytest.raises(tf.ColourError, match="takes no part"):
        g.score(GREEN)
    assert GREEN not in g.scores()


def test_pieces_left_in_pentobi_order_and_planes_by_colour():
    g = tf.Game(V.FOUR_PLAYER, [I6_ON_R15])
    g.play("r4", colour=RED)  # out of turn: the turn then passes on from red
    assert g.turn == GREEN
    assert g.pieces_left(BLUE) == PENTOBI_ORDER[1:] and g.pieces_left("red") == PENTOBI_ORDER[:-1]
    assert g.pieces_left(YELLOW) == PENTOBI_ORDER
    planes = g.occupancy_planes()
    b = g.board
    for c, cells in ((0, I6_ON_R15.split(",")), (2, ["r4"]), (1, []), (3, [])):
        assert sorted(np.flatnonzero(planes[c])) == sorted(b.parse_cell(n) for n in cells)
    assert g.moves == [tf.Move.from_str(I6_ON_R15), tf.Move.from_str("r4")]


# -- the legal-move view follows every change ---------------------------------------------------

def _same_moves(view, game, colour):
    expected = set(np.flatnonzero(game.legal_mask(colour)).tolist())  # (the core's mask, no cache)
    assert set(view.ids.tolist()) == expected and len(view) == len(expected)


def test_legal_move_views_follow_plays_turns_setups_and_undos():
    g = tf.Game(V.FOUR_PLAYER)
    to_move, yellow = g.legal_moves, g.legal_moves_of(YELLOW)
    steps = [lambda: g.play(I6_ON_R15), lambda: g.set_turn(RED), lambda: g.setup(YELLOW, "z12"),
             lambda: g.play("r4"), lambda: g.undo(), lambda: g.undo(), lambda: g.set_turn(BLUE)]
    for step in steps:
        len(to_move), len(yellow)  # (both cached before the change)
        step()
        if g.turn is not None:
            _same_moves(to_move, g, g.turn)
        _same_moves(yellow, g, YELLOW)
    for not_a_move in ("garbage", "zz99", "r15,r15", -1, 1.5, None, tf.Move.from_str("p14", 8)):
        assert not_a_move not in to_move
    g3 = tf.Game(V.THREE_PLAYER)
    moves = list(g3.legal_moves)
    assert len(moves) == 2478 and all(m.side == 8 and m in g3.legal_moves for m in moves)


def test_a_finished_game_has_no_legal_moves_and_says_so():
    g = tf.random_game(V.TWO_PLAYER, 1)
    assert g.turn is None and g.result is not None
    assert not g.legal_mask().any() and len(g.legal_moves) == 0
    for c in tf.Colour:
        assert len(g.legal_moves_of(c)) == 0 and not g.legal_mask(c).any()
    assert g.check(tf.Move.from_str("a9")) == "the game is over"


# -- a bad input raises and leaves the game exactly as it was ---------------------------------

def _build():
    """A three-player game with moves, a setup and an out-of-turn move, and the positions its
    undo chain must give back (recorded while it was built)."""
    g = tf.Game(V.THREE_PLAYER)
    chain = []
    for step in (lambda: g.play("p14"), lambda: g.setup(RED, "a8"), lambda: g.play("h6"),
                 lambda: g.play("o15,p15", colour=BLUE)):
        chain.append(g.position.copy())
        step()
    return g, chain


def _state(g):
    return (g.history, g.setup_indices, g.turn, g.occupancy().tolist(), g.position.copy(), g.is_over)


def _undo_chain_is(g, chain):
    g = g.copy()
    for pos in reversed(chain):
        g.undo()
        assert g.position == pos
    with pytest.raises(tf.NothingToUndoError):
        g.undo()


def test_bad_inputs_leave_the_game_untouched():
    g, chain = _build()
    assert g.turn == YELLOW and g.setup_indices == [1]
    before = _state(g)
    big_board = tf.Move.from_str("q15,r15")
    blues = next(iter(g.legal_moves_of(BLUE)))
    edge_of_blue = "p13"  # below p14 (a down triangle on side 8): an edge, not a corner
    bad = [
        (tf.IllegalMoveError, lambda: g.play(edge_of_blue, colour=BLUE)),
        (tf.IllegalMoveError, lambda: g.play("p14")),               # taken
        (tf.IllegalMoveError, lambda: g.play("p3,p4")),             # far from yellow's piece
        (tf.InvalidMoveError, lambda: g.play(big_board)),           # a move of the side-9 board
        (tf.InvalidMoveError, lambda: g.play("ai10")),              # off the small board
        (tf.InvalidMoveError, lambda: g.play(True)),
        (tf.ColourError, lambda: g.play("x6", colour=GREEN)),
        (tf.ColourError, lambda: g.check("x6", colour=GREEN)),
        (tf.InvalidMoveError, lambda: g.check(big_board)),
        (tf.IllegalMoveError, lambda: g.setup(YELLOW, "a8")),       # overlaps red's setup
        (tf.IllegalMoveError, lambda: g.setup(BLUE, "a9")),         # blue's triangle is placed
        (tf.ColourError, lambda: g.setup(GREEN, "x6")),
        (tf.ColourError, lambda: g.setup(YELLOW, "x5,x6", to_move=GREEN)),
        (tf.ColourError, lambda: g.set_turn(GREEN)),
        (tf.ColourError, lambda: g.set_turn(7)),
        (tf.IllegalMoveError, lambda: g._play_ids([(int(BLUE), blues.id)])),  # (the solvers' path) yellow is to move
    ]
    for error, call in bad:
        with pytest.raises(error):
            call()
        assert _state(g) == before, error
        _undo_chain_is(g, chain)
    assert g.check(blues, colour=BLUE) is None and g.check(blues) is not None  # (yellow is to move)


def test_a_finished_game_refuses_moves_and_stays_finished():
    g = tf.random_game(V.FOUR_PLAYER, 3)
    before = _state(g)
    for call in (lambda: g.play("a9"), lambda: g.play("a9", colour=BLUE)):
        with pytest.raises(tf.GameOverError) as e:
            call()
        assert isinstance(e.value, tf.IllegalMoveError)
        assert _state(g) == before
    with pytest.raises(tf.IllegalMoveError):
        g._play_ids([(0, 0)])
    assert _state(g) == before
    empty = tf.Game()
    with pytest.raises(tf.NothingToUndoError) as e:
        empty.undo()
    assert isinstance(e.value, IndexError) and isinstance(e.value, ValueError)
    with pytest.raises(tf.ColourError) as c:
        empty.score("purple")
    assert isinstance(c.value, tf.InvalidMoveError)


def test_copies_are_independent():
    g, chain = _build()
    before = _state(g)
    for other in (g.copy(), copy.copy(g), copy.deepcopy(g), pickle.loads(pickle.dumps(g))):
        assert other == g and other.history == g.history
        other.play(next(iter(other.legal_moves)))
        other.undo()
        other.undo()
        other.setup(YELLOW, "x11,x12")
        assert _state(g) == before
        _undo_chain_is(g, chain)


def test_setup_keeps_or_sets_the_turn_and_undo_takes_it_back():
    g = tf.Game(V.FOUR_PLAYER)
    g.setup(YELLOW, "r15")
    assert g.turn == BLUE and g.setup_indices == [0] and g.moves == [tf.Move.from_str("r15")]
    g.setup(GREEN, "ai10", to_move="red")
    assert g.turn == RED and g.setup_indices == [0, 1]
    g.play("r4")
    assert g.history[-1] == (RED, tf.Move.from_str("r4")) and g.setup_indices == [0, 1] and g.turn == GREEN
    assert g.undo() == tf.Move.from_str("r4") and g.turn == RED
    g.undo()
    assert g.turn == BLUE and g.occupancy().tolist().count(-1) == 485


def test_out_of_turn_moves_and_turns_survive_pickles_and_transforms():
    g, _ = _build()
    g.set_turn(BLUE)
    for back in (pickle.loads(pickle.dumps(g)), g.transform(6).transform(6)):
        assert back == g and back.history == g.history and back.setup_indices == g.setup_indices
        assert back.turn == BLUE
    t = g.transform(3)  # a half turn: p14 goes to the opposite start cell, p3
    assert t.history[0] == (BLUE, tf.Move.from_str("p3", 8)) and t != g
    assert [c for c, _ in t.history] == [c for c, _ in g.history] and t.turn == BLUE


def test_board_sides_are_eight_and_nine_only():
    for side in (7, 10, 0):
        for call in (lambda: tf.board(side), lambda: tf.Move(0, side), lambda: V.solo(side=side),
                     lambda: tf.Move.from_str("a9", side)):
            with pytest.raises(ValueError, match="board side"):
                call()


def test_counted_words():
    assert [_args.counted(n, "move") for n in (0, 1, 2, 12345)] == ["0 moves", "1 move", "2 moves", "12,345 moves"]
