"""Fuzz target: move text (Move.from_str, Move.from_cells, Move.from_piece) and board.parse_cell.

    python fuzz/fuzz_move_text.py fuzz/corpus/move_text -max_total_time=20
"""

import atheris

import fuzz_common
import trigon_fast as tf
from trigon_fast.move import PIECE_NAMES


def check_one(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    side = 8 if fdp.ConsumeBool() else 9
    b = tf.board(side)
    which = fdp.ConsumeIntInRange(0, 3)
    text = fdp.ConsumeUnicodeNoSurrogates(fdp.remaining_bytes())
    if which == 0:
        c = b.parse_cell(text)
        assert -1 <= c < b.num_cells, (text, c)
        if c >= 0:
            assert b.parse_cell(b.cell_name(c)) == c
        return
    try:
        if which == 1:
            m = tf.Move.from_str(text, side)
        elif which == 2:
            cells = [int(w) if w.lstrip("-").isdigit() else w for w in text.split()]
            m = tf.Move.from_cells(cells, side)
        else:
            words = text.split(" ", 2) + ["", ""]
            piece = words[0] if not words[0].isdigit() else int(words[0])
            orient = int(words[1]) if words[1].lstrip("-").isdigit() else 0
            m = tf.Move.from_piece(piece, orient, words[2], side)
    except ValueError:
        return
    # A parsed move names a real placement and survives a round trip through its text.
    assert 0 <= m.id < b.num_placements
    assert tf.Move.from_str(str(m), side) == m, (text, str(m))
    assert m.piece in PIECE_NAMES and len(m.cells) == m.size


if __name__ == "__main__":
    fuzz_common.main(check_one)
