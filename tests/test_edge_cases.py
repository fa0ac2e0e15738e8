"""Hand-made positions for each rule's edge cases, the rulebook's scoring example, bad input."""

import pytest

import trigon_fast as tf
from trigon_fast import _core

B = tf.board(9)
S8 = tf.board(8)


def cell(name, side=9):
    return tf.board(side).parse_cell(name)


def first_move_on(game, start_name, piece="1"):
    """A legal move of the colour to move covering the start cell, of the given piece."""
    s = cell(start_name, game.variant.side)
    for m in game.legal_moves:
        if m.piece == piece and s in m.cell_indices:
            return m
    raise AssertionError(f"no {piece} on {start_name}")


def starts_covered(game, colour):
    starts = set(game.board.start_cells)
    return {game.board.cell_name(c) for m in game.legal_moves_of(colour) for c in m.cell_indices if c in starts}


def test_first_move_must_cover_a_start_cell():
    g = tf.Game()
    with pytest.raises(tf.IllegalMoveError, match="start cell"):
        g.play("a9")  # a lone triangle far from every start cell... if a9 is a cell
    assert g.history == []


def test_start_cell_taken_by_another_colour_is_not_free():
    g = tf.Game()
    g.play(first_move_on(g, "r15"))
    assert "r15" not in starts_covered(g, 1)
    assert starts_covered(g, 1) == {"z12", "z7", "r4", "j7", "j12"}


def test_two_player_rulebook_opposite_starts():
    g = tf.Game(tf.Variant.TWO_PLAYER)
    g.play(first_move_on(g, "r15"))  # blue
    # Yellow may not take r4: it is reserved for red, blue's partner.
    assert starts_covered(g, tf.Colour.YELLOW) == {"z12", "z7", "j7", "j12"}
    assert starts_covered(g, tf.Colour.RED) == {"r4"}
    g.play(first_move_on(g, "z12"))  # yellow
    with pytest.raises(tf.IllegalMoveError, match="start"):
        g.play(first_move_on(tf.Game(), "j12"))  # red elsewhere than r4
    g.play(first_move_on(g, "r4"))  # red
    assert starts_covered(g, tf.Colour.GREEN) == {"j7"}


def test_two_player_reserved_cell_refused_with_reason():
    g = tf.Game(tf.Variant.TWO_PLAYER)
    g.play(first_move_on(g, "r15"))
    m = first_move_on(tf.Game(), "r4")
    assert "reserved" in g.check(m)


def test_two_player_pentobi_free_starts():
    g = tf.Game(tf.Variant("two_player", pentobi_compatible=True))
    g.play(first_move_on(g, "r15"))
    assert starts_covered(g, tf.Colour.YELLOW) == {"z12", "z7", "r4", "j7", "j12"}
    g.play(first_move_on(g, "r4"))
    assert starts_covered(g, tf.Colour.RED) == {"z12", "z7", "j7", "j12"}


def test_three_player_rulebook_every_other_cell():
    g = tf.Game(tf.Variant.THREE_PLAYER)
    assert g.variant.side == 8 and g.board.num_cells == 384
    g.play(first_move_on(g, "p14"))  # ring p14 x11 x6 p3 h6 h11: others get x6 and h6
    assert starts_covered(g, tf.Colour.YELLOW) == {"x6", "h6"}
    g.play(first_move_on(g, "h6"))
    assert starts_covered(g, tf.Colour.RED) == {"x6"}
    g.play(first_move_on(g, "x6"))
    assert g.turn == tf.Colour.BLUE  # green takes no part
    assert g.is_out(tf.Colour.GREEN)


def test_three_player_pentobi_free_starts():
    g = tf.Game(tf.Variant("three_player", pentobi_compatible=True))
    g.play(first_move_on(g, "p14"))
    assert starts_covered(g, tf.Colour.YELLOW) == {"x11", "x6", "p3", "h6", "h11"}


def test_three_player_board_excludes_outer_ring():
    g = tf.Game(tf.Variant.THREE_PLAYER)
    with pytest.raises(tf.InvalidMoveError, match="not a cell"):
        g.play("ai10")


def _opening(variant):
    g = tf.Game(variant)
    g.play(first_move_on(g, "r15", "I6"))
    for _ in range(3):
        g.play(next(iter(sorted(g.legal_moves, key=lambda m: -m.size))))
    return g


def test_contact_rules_edge_vertex_none():
    g = _opening(tf.Variant.FOUR_PLAYER)
    assert g.turn == tf.Colour.BLUE
    blue = {c for c in range(B.num_cells) if g.occupancy()[c] == 0}
    edge_cells = {n for c in blue for n in B.edge_neighbours(c)} - blue
    touch_cells = {n for c in blue for n in B.vertex_neighbours(c)} - blue - edge_cells
    one = [m for m in (tf.Move.from_cells([c]) for c in range(B.num_cells)) if g.occupancy()[m.cell_indices[0]] < 0]
    by_cell = {m.cell_indices[0]: m for m in one}
    e = by_cell[min(edge_cells)]
    assert "edge" in g.check(e)
    v = by_cell[min(c for c in touch_cells if g.occupancy()[c] < 0)]
    assert g.check(v) is None
    far = by_cell[max(by_cell)]
    assert "corner" in g.check(far)


def test_alternate_rule_forbids_side_against_corner():
    std = _opening(tf.Variant.FOUR_PLAYER)
    alt = _opening(tf.Variant.FOUR_PLAYER.with_alternate_rule())
    assert std.history == alt.history
    only_std = set(std.legal_moves) - set(alt.legal_moves)
    assert only_std, "the alternate rule must remove some moves here"
    assert set(alt.legal_moves) <= set(std.legal_moves)
    for m in list(only_std)[:20]:
        assert "alternate rule" in alt.check(m)
    # The removed moves are exactly those meeting blue's piece at a vertex where one of the two
    # covers 3 or more triangles (a side): not only some of them, and in both directions.
    blue = set(alt.history[0][1].cell_indices)
    fans = [set(B.vertex_fan(v)) for v in range(B.num_vertices)]

    def side_contact(m):
        mine = set(m.cell_indices)
        return any((f & blue) and (f & mine) and (len(f & blue) >= 3 or len(f & mine) >= 3) for f in fans)

    expected = {m for m in std.legal_moves if side_contact(m)}
    assert only_std == expected
    assert any(len(m.cell_indices) <= 2 for m in expected)  # blue's side against a new corner too


@pytest.mark.parametrize("first, second, std_ok, alt_ok", [
    # The vertex above r15 is shared by q15 r15 s15 (row 15) and q16 r16 s16 (row 16).
    ("q15,r15,s15", "r16", True, False),   # the old piece has a side there, the new one a corner
    ("r15", "q16,r16,s16", True, False),   # the old one a corner, the new one a side
    ("r15", "r16,r17", True, True),        # corner to corner: both rules allow it
    ("r15", "r14", False, False),          # an edge with r15: neither does
])
def test_alternate_rule_by_hand(first, second, std_ok, alt_ok):
    for variant, ok in ((tf.Variant.FOUR_PLAYER, std_ok), (tf.Variant.FOUR_PLAYER.with_alternate_rule(), alt_ok)):
        g = tf.Game(variant)
        g.play(first)  # blue
        why = g.check(second, colour=0)
        assert (why is None) == ok, (variant, first, second, why)
        if std_ok and not ok:
            assert "alternate rule" in why


def test_colour_that_cannot_move_is_skipped_for_good():
    # Find a random game where a colour runs out before the end, then check the turn skips it.
    for seed in range(200):
        g = tf.random_game(seed=seed)
        counts = {c: sum(1 for k, _ in g.history if k == c) for c in range(4)}
        if min(counts.values()) < max(counts.values()) - 2:
            break
    else:
        pytest.fail("no random game with a colour out early")
    out = min(counts, key=counts.get)
    moves = g.history
    replay = tf.Game()
    seen_out = False
    for k, (c, m) in enumerate(moves):
        if replay.is_out(out):
            seen_out = True
            assert c != out
            assert len(replay.legal_moves_of(out)) == 0
        replay.play(m)
    assert seen_out


def test_forced_single_move():
    # A position where the colour to move has exactly one legal move: it must play it.
    for seed in range(300):
        moves, _ = _core.random_game(tf.Game().position, seed)
        g = tf.Game()
        for c, pid in moves:
            if len(g.legal_moves) == 1:
                only = next(iter(g.legal_moves))
                assert only.id == pid
                # check() (not the generator) accepts this placement and no other
                assert [i for i in range(g.board.num_placements) if g.check(i) is None] == [int(pid)]
                with pytest.raises(tf.InvalidMoveError):
                    g.play("pass")
                return
            g.play(int(pid))
    pytest.fail("no forced move found")


def test_end_of_game():
    g = tf.random_game(seed=2)
    assert g.is_over and g.turn is None and len(g.legal_moves) == 0
    sides = g.player_scores()
    best = max(sides)
    assert g.result == g.winners() == tuple(i for i, x in enumerate(sides) if x == best)
    assert sides == tuple(g.score(c) for c in range(4))  # four players: one colour each
    before = g.position.copy()
    with pytest.raises(tf.GameOverError):
        g.play(0)
    assert g.position == before
    assert not g.legal_mask().any()


def _setup_all(game, colour, pieces):
    """Places the named pieces of a colour anywhere free (setup, no contact rules)."""
    occ = game.occupancy()
    for name in pieces:
        p = tf.PIECE_NAMES.index(name)
        for pid in range(game.board.num_placements):
            if game.board.placement_piece(pid) == p and all(occ[c] < 0 for c in game.board.placement_cells(pid)):
                game.setup(colour, pid)
                occ = game.occupancy()
                break
        else:
            raise AssertionError("no room")


def test_rulebook_scoring_example(tmp_path):
    g = tf.Game()
    names = list(tf.PIECE_NAMES)
    fours = [n for n in names if tf.PIECE_SIZES[names.index(n)] == 4]
    fives = [n for n in names if tf.PIECE_SIZES[names.index(n)] == 5]
    sixes = [n for n in names if tf.PIECE_SIZES[names.index(n)] == 6]
    _setup_all(g, 0, names)  # blue: all 22, the single triangle last
    _setup_all(g, 1, [n for n in names if n not in fours[:2] + fives[:1] + sixes[:3]])
    _setup_all(g, 2, [n for n in names if n not in fours[:1] + fives[:1]])
    _setup_all(g, 3, [n for n in names if n not in fours])
    assert [g.score(c) for c in range(4)] == [20, -31, -9, -12]
    assert g.winners() == (0,)
    assert g.is_out(0) and len(g.legal_moves_of(0)) == 0      # all 22 placed: blue is out
    assert g.history[-1][1].piece == "1" and g.score(3) == -12  # green's last piece is the triangle,
    # but without all 22 placed there is no bonus. Pentobi counts placed triangles plus the bonus:
    from trigon_fast.gtp import GtpEngine

    path = tmp_path / "example.blksgf"
    g.to_blksgf(path)
    e = GtpEngine(quiet=True)
    assert e.handle(f"loadsgf {path}\n") == "= \n\n"
    assert e.handle("final_score\n") == "= 130 79 101 98\n\n"


def test_bonus_fifteen_when_single_triangle_not_last():
    g = tf.Game()
    names = [n for n in tf.PIECE_NAMES if n != "2"] + ["2"]
    _setup_all(g, 0, names)
    assert g.score(0) == 15
    assert g.score(1) == -110


def test_setup_refuses_overlap_and_reuse():
    g = tf.Game()
    g.setup(0, "r15")
    with pytest.raises(tf.IllegalMoveError):
        g.setup(1, "r15")
    with pytest.raises(tf.IllegalMoveError):
        g.setup(0, "a9")
    assert len(g.history) == 1
    g.undo()
    assert g.history == []


@pytest.mark.parametrize("text", ["", " ", "pass", "garbage", "r15,", "r15,,r14", "zz1", "r99", "r15,r15",
                                  "a1,b1,c1,d1,e1,f1,g1", "r15;s15", "r 15", "\x00", "r15,s16"])
def test_bad_move_strings(text):
    g = tf.Game()
    before = g.position.copy()
    with pytest.raises(tf.InvalidMoveError):
        g.play(text)
    assert g.position == before and g.history == []


def test_bad_move_types_and_ids():
    g = tf.Game()
    for bad in (-1, 32131, 10**9, 3.5, None, b"r15", True):
        with pytest.raises(tf.InvalidMoveError):
            g.play(bad)
    assert g.history == []


def test_wrong_colour_and_piece_already_used():
    g = tf.Game(tf.Variant.THREE_PLAYER)
    m = first_move_on(g, "p14")
    with pytest.raises(tf.ColourError, match="takes no part"):
        g.play(m, colour=3)
    with pytest.raises(tf.InvalidMoveError):
        g.play(m, colour=7)
    g = tf.Game()
    g.play(first_move_on(g, "r15", "1"))
    g.play(first_move_on(g, "z12"))
    g.play(first_move_on(g, "r4"))
    g.play(first_move_on(g, "j7"))
    blue = set(g.history[0][1].cell_indices)
    touch = sorted({n for c in blue for n in B.vertex_neighbours(c)})
    before = g.position.copy()
    with pytest.raises(tf.IllegalMoveError, match="already been placed"):
        g.play(tf.Move.from_cells([touch[0]]))
    assert g.position == before


def test_all_errors_are_value_errors():
    for e in (tf.InvalidMoveError, tf.IllegalMoveError, tf.GameOverError, tf.TrigonError):
        assert issubclass(e, ValueError)


def test_out_of_turn_play_like_pentobi():
    g = tf.Game()
    m = first_move_on(g, "z12")
    g.play(m, colour=tf.Colour.RED)
    assert g.history[-1][0] == tf.Colour.RED
    assert g.turn == tf.Colour.GREEN


def test_colour_must_be_an_integer_and_empty_undo_is_a_value_error():
    g = tf.Game()
    for bad in (1.5, "1", None, True):
        with pytest.raises(tf.InvalidMoveError):
            g.pieces_left(bad)
    with pytest.raises(tf.NothingToUndoError):
        g.undo()
    assert issubclass(tf.NothingToUndoError, ValueError) and issubclass(tf.NothingToUndoError, IndexError)


def test_a_setup_that_takes_the_movers_last_move_passes_the_turn_on():
    # The core assumed the colour to move has a move unless the game is over; a setup through
    # _core.Position.place could break it (random playouts then played the pass as a placement:
    # out-of-bounds writes; random_game looped for ever). Cover blue's six start cells with
    # yellow pieces: blue, to move, has no first move left.
    from trigon_fast import _core

    b = tf.board(9)
    p = _core.Position()
    for cell in b.start_cells:
        if p.occupancy()[cell] >= 0:
            continue
        pid = next(i for i in range(b.num_placements) if cell in b.placement_cells(i)
                   and p.pieces_left(1) >> b.placement_piece(i) & 1
                   and not any(p.occupancy()[x] >= 0 for x in b.placement_cells(i)))
        p.place(1, pid)
    assert not p.legal_mask(0).any()
    assert p.to_move == 1 and not p.is_over  # (blue, with no move, is passed over)
    moves, final = _core.random_game(p, 1)
    assert final.is_over and all(c != 0 and 0 <= pid < b.num_placements for c, pid in moves)
    d = _core.play_games(p, 3, 7, "random", 1, False, 1, [0, 1, 2, 3])
    assert (d["lengths"] > 0).all() and (d["moves"] < b.num_placements).all()


def test_a_pattern_count_beyond_64_bits_is_capped_and_says_so():
    # The lozenge tilings of the inner board (a hexagon of side 8) number about 5.1e21
    # (MacMahon); the count wrapped round 2**63 before.
    r = tf.solve_pattern(list(range(tf.board(8).num_cells)), pieces={"2": 192}, side=8, all_solutions=True,
                         max_solutions=0, time_limit=60)
    assert r.exhausted and r.capped and r.count == 2**63 - 1
    assert "at least" in repr(r)


def test_blocked_colours_pass_and_the_turn_skips_them():
    # Blue's setup pieces cover five of the six start cells; yellow takes the sixth (r15), so red
    # and green can never start: they are out, and the turn goes blue, yellow, blue, ...
    Y, Bl, R, G = tf.Colour.YELLOW, tf.Colour.BLUE, tf.Colour.RED, tf.Colour.GREEN
    g = tf.Game(tf.Variant.FOUR_PLAYER)
    for cells in ("z12", "y7,z7", "q4,r4,s4", "j7,k7,l7,m7", "i12,j12,k12,l12,m12"):
        g.setup(Bl, cells)
    g.set_turn(Y)
    g.play("q15,r15,p16,q16,o17,p17")
    assert g.is_out(R) and g.is_out(G) and not g.is_out(Bl)
    assert len(g.legal_moves_of(R)) == 0 and len(g.legal_moves_of(G)) == 0
    seen = []
    while not g.is_over and len(seen) < 8:
        seen.append(g.turn)
        g.play(next(iter(g.legal_moves)))
    assert seen[:4] == [Bl, Y, Bl, Y]
    assert g.score(R) == g.score(G) == -110


@pytest.mark.parametrize("variant", [tf.Variant.TWO_PLAYER, tf.Variant.TEAMS])
def test_two_sides_score_blue_and_red_against_yellow_and_green(variant):
    g = tf.Game(variant)
    names = list(tf.PIECE_NAMES)                         # the triangle ("1") last: +20
    _setup_all(g, 0, names)                              # blue: all placed, +20
    _setup_all(g, 1, [n for n in names if n != "I6"])    # yellow: -6
    assert [g.score(c) for c in range(4)] == [20, -6, -110, -110]
    assert g.player_scores() == (20 - 110, -6 - 110)     # blue + red, yellow + green
    assert g.winners() == (0,)


def test_gtp_final_score_of_two_sides(tmp_path):
    from trigon_fast.gtp import GtpEngine

    g = tf.Game(tf.Variant("two_player", pentobi_compatible=True))
    _setup_all(g, 0, list(tf.PIECE_NAMES))
    path = tmp_path / "g.blksgf"
    g.to_blksgf(path)
    e = GtpEngine(quiet=True)
    assert e.handle(f"loadsgf {path}\n").startswith("=")
    # blue + red = 20 - 110, yellow + green = -220: the first side by 130
    assert e.handle("final_score\n") == "= B+130\n\n"



def test_positions_compare_unequal_to_other_objects():
    # Game.position is the live core position: == with another type is False (Python's default),
    # not a TypeError from the binding.
    p = tf.Game().position
    assert p == p.copy() and not p != p.copy()
    assert p != 1 and not (p == "r15") and p != None  # noqa: E711
    assert p not in [None, 0, "x"]
