"""Fuzz target: blksgf records (read_blksgf on bytes, every line of play, Game.from_blksgf, and
a write/read round trip of what was read).

    python fuzz/fuzz_blksgf.py fuzz/corpus/blksgf -max_total_time=20
"""

import atheris

import fuzz_common
import trigon_fast as tf
from trigon_fast.records import Record


def check_one(data: bytes) -> None:
    # Bytes are always record text, never a path: the fuzzer must not open files.
    try:
        record = tf.read_blksgf(data)
    except ValueError:
        try:
            tf.Game.from_blksgf(data)
        except ValueError:
            pass
        return
    game = record.game()
    record.info, record.players, record.result, record.comments, record.variations
    for nodes in record.lines():
        try:
            record.game(nodes=nodes)
        except ValueError:
            pass  # side lines are checked only when asked for
    for n in range(1, len(record.main_line()) + 2):
        try:
            record.game(n)
        except ValueError:
            pass
    # What was read writes back to a record that reads as the same game.
    text = game.to_blksgf()
    again = tf.read_blksgf(text.encode("utf-8")).game()
    assert again.position == game.position, text
    assert again.history == game.history, text
    assert Record.from_game(again).to_blksgf() == text


if __name__ == "__main__":
    fuzz_common.main(check_one)
