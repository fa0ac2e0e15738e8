"""Fuzz target: the GTP command loop, driven in-process (GtpEngine.handle) with fuzzed lines:
half of them built from real command names and move-like arguments, half raw text.

Every reply must be one well-formed GTP reply ('=' or '?', then text without an empty line, then
exactly one empty line) and never an "internal error". loadsgf/savesgf are pointed at one file
in a temporary folder so the fuzzer never reads or writes anywhere else; the search runs a few
simulations on at most two threads (level, fixed_simulations, time and threads are capped), so that runs stay bounded in time.

    python fuzz/fuzz_gtp.py fuzz/corpus/gtp -max_total_time=20
"""

import os
import re
import tempfile

import atheris

import fuzz_common
from trigon_fast.gtp import GtpEngine

_TMP = tempfile.mkdtemp(prefix="fuzz_gtp_")
_RECORD = os.path.join(_TMP, "game.blksgf")
_COMMANDS = sorted(GtpEngine(quiet=True).commands) + ["boardsize", "komi", "gogui-analyze_commands"]
_WORDS = ["1", "2", "3", "4", "blue", "red", "pass", "0", "-1", "99999999999", "q15,r15,p16,q16,o17,p17",
          "r15", "a1", "level", "variant", "time", "fixed_simulations", "alternate_rule", "start_rule",
          "threads", "two_player", "three_player", "teams", "solo", "four_player", "rulebook",
          "pentobi", "Blokus Trigon", "Blokus Trigon Two-Player", "Blokus Trigon Three-Player",
          "nan", "inf", "1e9", "", "#", "\t", "\r"]
_REPLY = re.compile(r"\A[=?][0-9]*( [^\n]*)?(\n[^\n]+)*\n\n\Z", re.S)


def _engine() -> GtpEngine:
    e = GtpEngine(quiet=True, seed=1)
    load, save = e.commands["loadsgf"], e.commands["savesgf"]
    e.commands["loadsgf"] = lambda args, rest: load([_RECORD] + args[1:2], rest)
    e.commands["savesgf"] = lambda args, rest: save([_RECORD], rest)
    # Few simulations per search: level 1 is 100 of them, level 2 246 (25 ms on an empty board).
    e.level = 1
    e.fixed_simulations = 8
    param = e.commands["param"]

    def small_param(args, rest):
        caps = {"level": 2, "fixed_simulations": 16, "threads": 2}
        if len(args) == 2 and args[0] in caps and args[1].isdecimal():
            args = [args[0], str(min(int(args[1]), caps[args[0]]))]
        if len(args) == 2 and args[0] == "time":
            try:
                if 0.01 < float(args[1]) < float("inf"):
                    args = ["time", "0.01"]
            except ValueError:
                pass  # (the engine's own error reply)
        return param(args, rest)

    e.commands["param"] = small_param
    return e


def _line(fdp: atheris.FuzzedDataProvider) -> str:
    if fdp.ConsumeBool():
        return fdp.ConsumeUnicodeNoSurrogates(fdp.ConsumeIntInRange(0, 60))
    words = []
    if fdp.ConsumeIntInRange(0, 3) == 0:
        words.append(str(fdp.ConsumeIntInRange(0, 1000)))  # command id
    words.append(fdp.PickValueInList(_COMMANDS))
    for _ in range(fdp.ConsumeIntInRange(0, 3)):
        if fdp.ConsumeBool():
            words.append(fdp.PickValueInList(_WORDS))
        else:
            words.append(fdp.ConsumeUnicodeNoSurrogates(fdp.ConsumeIntInRange(0, 24)))
    return " ".join(words)


def check_one(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    engine = _engine()
    if os.path.exists(_RECORD):
        os.remove(_RECORD)
    for _ in range(fdp.ConsumeIntInRange(1, 12)):
        if fdp.remaining_bytes() == 0:
            break
        line = _line(fdp)
        reply = engine.handle(line)
        if reply is None:
            continue
        assert "internal error" not in reply, (line, reply)
        assert _REPLY.match(reply), (line, reply)
        if engine.quit:
            break


if __name__ == "__main__":
    fuzz_common.main(check_one)
