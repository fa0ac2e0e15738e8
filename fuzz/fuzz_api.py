"""Fuzz target: random sequences of Game API calls (play, play out of turn, setup, undo, copy,
set_turn, legal moves, scores, records, pickling, symmetries, random_game, a tiny search, the solo solver for a few
milliseconds, the exact endgame questions and the pattern solver with tiny limits) on every
variant, with odd arguments.

After each call the game must be consistent: a call that raised left it unchanged, the legal
moves are exactly the moves check() accepts, undo restores the previous position, a copy is
equal and independent.

    python fuzz/fuzz_api.py fuzz/corpus/api -max_total_time=20
"""

import pickle

import atheris
import numpy as np

import fuzz_common
import trigon_fast as tf

_VARIANTS = [tf.Variant.FOUR_PLAYER, tf.Variant.TWO_PLAYER, tf.Variant.THREE_PLAYER, tf.Variant.TEAMS,
             tf.Variant.SOLO, tf.Variant("two_player", pentobi_compatible=True),
             tf.Variant("three_player", alternate_rule=True), tf.Variant.solo(colours=(2,), side=8),
             tf.Variant.solo(colours=(0, 3)), tf.Variant.FOUR_PLAYER.with_alternate_rule()]
_ODD = [-1, 4, 2**63, -(2**63), 7, None, "blue", "2", 1.5, True]


def _snapshot(g: tf.Game):
    return g.position.copy(), list(g.history)


def _consistent(g: tf.Game) -> None:
    ids = g.legal_moves.ids
    assert ids.dtype == np.uint16
    if g.is_over:
        assert ids.size == 0 and g.turn is None
        return
    assert ids.size > 0, "colour to move has no legal move"
    assert len(set(ids.tolist())) == ids.size
    for i in ids[:: max(1, ids.size // 16)]:
        assert g.check(int(i)) is None, int(i)
    assert g.legal_mask().sum() == ids.size


def check_one(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    g = tf.Game(fdp.PickValueInList(_VARIANTS))
    board = g.board
    n = board.num_placements
    undo_stack = []  # snapshots before each successful play/setup
    for _ in range(fdp.ConsumeIntInRange(0, 40)):
        if fdp.remaining_bytes() == 0:
            break
        op = fdp.ConsumeIntInRange(0, 15)
        before = _snapshot(g)
        try:
            if op <= 3:  # a legal move (most often), so games get deep
                ids = g.legal_moves.ids
                if ids.size:
                    g.play(int(ids[fdp.ConsumeIntInRange(0, ids.size - 1)]))
                    undo_stack.append(before)
            elif op == 4:  # any id, maybe out of range, maybe for another colour
                pid = fdp.ConsumeIntInRange(-3, n + 3)
                colour = fdp.PickValueInList([None, 0, 1, 2, 3] + _ODD)
                g.play(pid, colour=colour)
                undo_stack.append(before)
            elif op == 5:
                g.setup(fdp.PickValueInList([0, 1, 2, 3] + _ODD), fdp.ConsumeIntInRange(-3, n + 3),
                        to_move=fdp.PickValueInList([None, 0, 1, 2, 3] + _ODD))
                undo_stack.append(before)
            elif op == 6:
                if not undo_stack:
                    try:
                        g.undo()
                    except IndexError:
                        pass  # documented: nothing to undo
                    else:
                        raise AssertionError("undo with nothing to undo")
                else:
                    g.undo()
                    pos, hist = undo_stack.pop()
                    assert g.position == pos and g.history == hist
            elif op == 7:
                h = g.copy()
                assert h.position == g.position and h.history == g.history
                if fdp.ConsumeBool():
                    g, undo_stack = h, [(p.copy(), list(hh)) for p, hh in undo_stack]
                    before = _snapshot(g)
                else:
                    ids = h.legal_moves.ids
                    if ids.size:
                        h.play(int(ids[0]))
                    assert g.position == before[0], "playing on a copy changed the original"
            elif op == 8:
                g.set_turn(fdp.PickValueInList([0, 1, 2, 3] + _ODD))
                undo_stack = [(p, h) for p, h in undo_stack]  # set_turn is not undoable
                before = _snapshot(g)
            elif op == 9:
                c = fdp.PickValueInList([0, 1, 2, 3] + _ODD)
                lm = g.legal_moves_of(c)
                for m in list(lm)[:3]:
                    assert g.check(m, colour=c) is None
                g.pieces_left(c), g.is_out(c), g.score(c)
            elif op == 10:
                g.scores(), g.player_scores(), g.winners(), g.result, str(g), repr(g)
                text = g.to_blksgf()
                again = tf.Game.from_blksgf(text)
                assert again.position == g.position, text
                again = pickle.loads(pickle.dumps(g))  # setups, out-of-turn moves and set_turn included
                assert again == g and again.history == g.history
                k = fdp.PickValueInList(list(range(12)) + _ODD)
                turned = g.transform(k)  # an odd k raises a ValueError here, the game untouched
                assert turned.scores() == g.scores() and turned.transform(tf.symmetry.inverse(k)) == g
            elif op == 12:  # a tiny search: its move is legal and the game is left alone
                from trigon_fast import search

                a = search.analyse(g, simulations=fdp.ConsumeIntInRange(1, 48), threads=fdp.ConsumeIntInRange(1, 2),
                                   seed=fdp.ConsumeIntInRange(0, 1000))
                assert g.check(a.best_move) is None, str(a.best_move)
                assert g.position == before[0], "search changed the game"
            elif op == 13:  # the solo solver from this position, a few milliseconds
                from trigon_fast import solver

                sol = solver.solve_solo(g.variant, game=g, time_limit=0.02, seed=fdp.ConsumeIntInRange(0, 99))
                assert sol.game.is_over and g.position == before[0]
            elif op == 14:  # exact questions, tiny limits, odd colours and limits now and then
                colours = fdp.PickValueInList([None, [0], [1, 2], [0, 1, 2, 3], "red"] + _ODD)
                limit = fdp.PickValueInList([0.01, 0.02, 0.0, -1.0, float("nan"), "1"])
                nodes = fdp.PickValueInList([0, 1, 50, 1000, -3, 1.5])
                r = tf.can_place_all(g, colours, time_limit=limit, node_limit=nodes,
                                     threads=fdp.PickValueInList([1, 2, 0]))
                assert g.position == before[0], "can_place_all changed the game"
                if r.answer:
                    assert r.witness_game is not None
                m = tf.max_placeable(g, fdp.PickValueInList([0, 1, 2, 3] + _ODD), time_limit=limit, node_limit=nodes)
                assert m.triangles >= 0 and g.position == before[0]
            elif op == 15:  # a pattern puzzle on fuzzed cells and counts
                cells = [fdp.ConsumeIntInRange(-2, board.num_cells + 2) for _ in range(fdp.ConsumeIntInRange(0, 12))]
                pieces = {fdp.PickValueInList(list(tf.PIECE_NAMES) + [22, -1, "Q"]):
                          fdp.PickValueInList([0, 1, 2, 3, -1, 1.5, 10**12]) for _ in range(fdp.ConsumeIntInRange(0, 4))}
                r = tf.solve_pattern(cells, pieces=pieces, all_solutions=fdp.ConsumeBool(), time_limit=0.05,
                                     side=g.variant.side, threads=fdp.PickValueInList([1, 2]),
                                     method=fdp.PickValueInList(["auto", "frontier", "mrv", "dlx"]))
                for sol in r.solutions:  # each an exact cover of the cells
                    assert sorted(c for m in sol for c in m.cell_indices) == sorted(cells)
            else:
                r = tf.random_game(g.variant, seed=fdp.ConsumeIntInRange(0, 2**64), start=g)
                assert r.is_over and len(r.history) >= len(g.history)
                assert g.position == before[0], "random_game changed its start"
        except ValueError:
            # A refused call changes nothing.
            pos, hist = before
            assert g.position == pos and g.history == hist, f"op {op} raised but changed the game"
        _consistent(g)


if __name__ == "__main__":
    fuzz_common.main(check_one)
