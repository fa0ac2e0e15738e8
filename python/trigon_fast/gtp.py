"""A GTP engine speaking Pentobi's dialect for the Trigon games: ``trigon-gtp`` or
``python -m trigon_fast.gtp``.

Commands, colours (``1``..``4``), moves (``q15,r15,p16,q16,o17,p17``) and replies follow
``pentobi_gtp/Pentobi-GTP.md``: ``= result`` or ``? message`` then an empty line, with the
command id echoed (``7 name`` -> ``=7 trigon_fast``). Lines whose first non-blank character is
``#`` are comments and get no reply; a ``#`` later in a line is part of it (as in Pentobi: a
file name may hold one). An empty line gets ``? empty command`` (this project's rule for bad
input: every line a controller sends is answered; a ``--config`` file's blank lines are
skipped). stdout carries only protocol; diagnostics go to stderr (none with ``--quiet``).

Our extensions are ``param`` keys (``variant``, ``alternate_rule``, ``start_rule``, ``time``,
``level``, ``threads``) and ``analyze COLOUR [N]``, which prints the moves searched with their
values. Pentobi's own ``param`` keys are accepted too (``fixed_simulations``, ``reuse_subtree``;
the others, about Pentobi's search and book, are read back but change nothing).
"""

from __future__ import annotations

import argparse
import math
import os
import pathlib
import random
import re
import sys
import time
import traceback
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, TextIO, Tuple

from . import __version__, _args
from .errors import IllegalMoveError, InvalidMoveError, TrigonError
from .game import Game
from .move import Move
from .records import Record, RecordError, read_blksgf, variant_from_game_name
from .search import LEVELS, Analysis, Engine
from .variants import Colour, StartRule, Variant

__all__ = ["GtpEngine", "GtpError", "run_session", "main"]

# Pentobi's --game ids for the Trigon games.
_GAME_IDS = {"trigon": "Blokus Trigon", "t": "Blokus Trigon",
             "trigon_2": "Blokus Trigon Two-Player", "t2": "Blokus Trigon Two-Player",
             "trigon_3": "Blokus Trigon Three-Player", "t3": "Blokus Trigon Three-Player"}
_COLOUR_ARGS = {"1": 0, "blue": 0, "2": 1, "yellow": 1, "3": 2, "red": 2, "4": 3, "green": 3}
_KINDS = ("four_player", "two_player", "three_player", "teams", "solo")
_MAX_LEVEL = LEVELS[-1]  # Pentobi's levels, 1..9 (the search maps each to its simulations)
# The search's own cap on a time limit (about a year): a longer one would be cut to it silently.
_MAX_TIME = 3.0e7
# GTP numbers are ASCII: int() and float() would also take "1_0", "+3" and other scripts' digits.
_INTEGER = re.compile(r"-?[0-9]+")
_DECIMAL = re.compile(r"-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")
# Pentobi's param keys that tune its own search or book: accepted (a Pentobi config file runs)
# and read back, with no effect here. Their start values: ours where they describe this engine
# (no book, no symmetric-draw avoidance), else Pentobi's defaults for Trigon.
_PENTOBI_BOOLS = {"avoid_symmetric_draw": "0", "use_book": "0"}
_PENTOBI_NUMBERS = {"exploration_constant": "6", "rave_child_max": "2000", "rave_parent_max": "50000",
                    "rave_weight": "0.7"}
_NO_SEARCH = "no search value: run genmove, reg_genmove or analyze with the search first"


class GtpError(Exception):
    """A command that fails: its message becomes the ``?`` reply."""


def _log_default(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


class GtpEngine:
    """The engine state and command table. ``handle(line)`` returns the full reply text
    (ending in an empty line) or ``None`` for lines that are not commands."""

    def __init__(self, game: str = "Blokus Trigon", level: int = 4, seed: Optional[int] = None,
                 threads: int = 1, quiet: bool = False, log: Optional[Callable[[str], None]] = None) -> None:
        level = _args.integer("level", level, 1, _MAX_LEVEL)
        threads = _args.integer("threads", threads, 1, _args.MAX_THREADS)
        if seed is not None:
            seed = _args.seed(seed)
        self.log = (lambda m: None) if quiet else (log or _log_default)
        self.level = level
        self.threads = threads
        self.fixed_simulations = 0  # 0: the level decides
        self.move_time = 0.0  # seconds per move; 0: the level decides
        self.reuse_tree = True  # Pentobi's reuse_subtree: keep the tree from move to move
        self.ignored_params = {**_PENTOBI_BOOLS, **_PENTOBI_NUMBERS}
        self.seed = seed
        self._rng = random.Random(seed if seed is not None else int.from_bytes(os.urandom(8), "little"))
        self.variant = variant_from_game_name(_GAME_IDS.get(game, game))
        self.game = Game(self.variant)
        self.quit = False
        self._loaded: Optional[Record] = None  # the record loadsgf read last (savesgf writes its tree back)
        self.last_analysis: List[Tuple[int, float, Move]] = []  # (visits, value, move)
        self.last_value: Optional[float] = None  # value of the last search for its colour's side
        self._no_value = _NO_SEARCH  # get_value's answer while last_value is None
        self._search_engine: Optional[Engine] = None  # kept between moves: its tree carries over
        self._search_engine_key: Optional[Tuple[Variant, int]] = None
        self.commands: Dict[str, Callable[[List[str], str], str]] = {
            "all_legal": self.cmd_all_legal,
            "analyze": self.cmd_analyze,
            "clear_board": self.cmd_clear_board,
            "cputime": self.cmd_cputime,
            "final_score": self.cmd_final_score,
            "g": self.cmd_g,
            "genmove": self.cmd_genmove,
            "get_place": self.cmd_get_place,
            "get_value": self.cmd_get_value,
            "known_command": self.cmd_known_command,
            "list_commands": self.cmd_list_commands,
            "loadsgf": self.cmd_loadsgf,
            "move_values": self.cmd_move_values,
            "name": self.cmd_name,
            "p": self.cmd_p,
            "param": self.cmd_param,
            "play": self.cmd_play,
            "protocol_version": self.cmd_protocol_version,
            "quit": self.cmd_quit,
            "reg_genmove": self.cmd_reg_genmove,
            "savesgf": self.cmd_savesgf,
            "set_game": self.cmd_set_game,
            "set_random_seed": self.cmd_set_random_seed,
            "showboard": self.cmd_showboard,
            "undo": self.cmd_undo,
            "version": self.cmd_version,
        }

    # -- the loop ------------------------------------------------------------------------------
    def handle(self, line: str) -> Optional[str]:
        """The reply to one input line, or ``None`` when the line holds no command."""
        raw = "".join(ch if ch >= " " or ch == "\t" else "" for ch in line.rstrip("\r\n"))
        if raw.lstrip().startswith("#"):
            return None  # a comment line: no reply (only whole lines, as Pentobi's reader)
        text = raw.replace("\t", " ").strip()
        if not text:
            return "? empty command\n\n"  # an empty line is a bad command (the choice)
        words = _split_args(text)
        cmd_id = ""
        if len(words) >= 2 and words[0].isascii() and words[0].isdigit():  # GTP ids are ASCII digits
            cmd_id = words[0]
            text = text[len(words[0]):].strip()
            words = words[1:]
        name, args = words[0], words[1:]
        rest = text[len(name):].strip()  # arguments as one string (set_game, play)
        handler = self.commands.get(name)
        if handler is None:
            ok, result = False, f"unknown command ({name})"
        else:
            try:
                result = handler(args, rest)
                ok = True
            except GtpError as e:
                ok, result = False, str(e)
            except (TrigonError, ValueError) as e:
                ok, result = False, str(e)
            except Exception as e:  # noqa: BLE001 - the engine must keep running
                self.log(traceback.format_exc().rstrip())
                ok, result = False, f"internal error: {type(e).__name__}: {e}"
        return _format_reply(ok, cmd_id, result)

    def run(self, stdin: TextIO, stdout: TextIO) -> None:
        for line in stdin:
            reply = self.handle(line)
            if reply is None:
                continue
            stdout.write(reply)
            stdout.flush()
            if self.quit:
                break

    # -- helpers -------------------------------------------------------------------------------
    def _colour(self, word: str) -> int:
        c = _COLOUR_ARGS.get(word.lower())
        if c is None or c not in self.variant.colours:
            raise GtpError(f"invalid color argument '{word.lower()}'")
        return c

    def _new_game(self, variant: Variant, game: Optional[Game] = None, record: Optional[Record] = None) -> None:
        self.variant = variant
        self.game = Game(variant) if game is None else game
        self._loaded = record  # the record loadsgf read: savesgf writes its tree back
        self.last_analysis = []
        self.last_value = None
        self._no_value = _NO_SEARCH
        self._search_engine = None

    def _engine(self) -> Engine:
        """The search's Engine, kept from move to move so that its tree carries over (a new one
        when the variant or the threads change)."""
        key = (self.variant, self.threads)
        if self._search_engine is None or self._search_engine_key != key:
            self._search_engine = Engine(threads=self.threads)
            self._search_engine_key = key
        return self._search_engine

    def _run_analysis(self, g: Game, colour: int, engine: Optional[Engine] = None) -> Analysis:
        """Search ``g`` for ``colour`` (with the game's Engine unless given one); keeps its moves
        and value for move_values / get_value."""
        result = (engine or self._engine()).analyse(g, **self._search_kwargs())
        rows = [(int(m.visits), float(m.value), m.move) for m in result.moves]
        rows.sort(key=lambda r: (-r[0], -r[1]))
        self.last_analysis = rows
        v = float(result.value[colour])
        self.last_value = None if v != v else v
        if v != v:  # NaN: a forced move played unsearched, or a limit too small for one simulation
            self._no_value = ("no search value: the last search had one legal move and played it unsearched"
                              if result.forced else
                              "no search value: the last search ran no simulations (its time limit is too short "
                              "for one)")
        return result

    def _search_game(self, colour: int) -> Game:
        g = self.game
        if g.turn != colour:
            g = g.copy()
            g.set_turn(colour)
            if g.turn != colour:  # set_turn moved past a colour without moves
                raise GtpError(f"{Colour(colour).name.lower()} has no legal move")
        return g

    def _search_kwargs(self) -> dict:
        # As in Pentobi, fixed_simulations (and our time limit) replace the level.
        kwargs: Dict[str, object] = dict(seed=self._rng.getrandbits(63), threads=self.threads)
        if self.move_time > 0:
            kwargs["time"] = self.move_time
        if self.fixed_simulations > 0:
            kwargs["simulations"] = self.fixed_simulations
        if "time" not in kwargs and "simulations" not in kwargs:
            kwargs["level"] = self.level
        if not self.reuse_tree:
            kwargs["reuse_tree"] = False
        return kwargs

    def _generate(self, colour: int, engine: Optional[Engine] = None) -> Optional[Move]:
        """A move for ``colour`` (in or out of turn), or None when it has none."""
        if self.game.is_over or not self.game.legal_moves_of(colour):
            return None
        g = self._search_game(colour)
        started = time.perf_counter()
        move = self._run_analysis(g, colour, engine).best_move
        self.log(f"search: {move} in {time.perf_counter() - started:.2f} s")
        if g.check(move) is not None:
            raise GtpError(f"the engine generated an illegal move: {move} ({g.check(move)})")
        return move

    # -- commands ------------------------------------------------------------------------------
    def cmd_protocol_version(self, args: List[str], rest: str) -> str:
        _no_args(args)
        return "2"

    def cmd_name(self, args: List[str], rest: str) -> str:
        _no_args(args)
        return "trigon_fast"

    def cmd_version(self, args: List[str], rest: str) -> str:
        _no_args(args)
        return __version__

    def cmd_known_command(self, args: List[str], rest: str) -> str:
        _n_args(args, 1)
        return "true" if args[0] in self.commands else "false"

    def cmd_list_commands(self, args: List[str], rest: str) -> str:
        _no_args(args)
        return "\n".join(sorted(self.commands))

    def cmd_quit(self, args: List[str], rest: str) -> str:
        _no_args(args)
        self.quit = True
        return ""

    def cmd_set_game(self, args: List[str], rest: str) -> str:
        if not rest:
            raise GtpError("missing argument: the game name (e.g. Blokus Trigon)")
        try:
            variant = variant_from_game_name(rest)
        except ValueError as e:
            raise GtpError(f"invalid argument: {e}") from None
        self._new_game(variant)
        return ""

    def cmd_clear_board(self, args: List[str], rest: str) -> str:
        _no_args(args)
        self._new_game(self.variant)
        return ""

    def _play(self, colour: int, text: str) -> str:
        if not text:
            raise GtpError("missing argument: the move")
        if text.lower() == "pass":
            raise GtpError("play pass not supported: a colour that cannot move passes by itself")
        try:
            move = Move.from_str(text, self.variant.side)
        except InvalidMoveError as e:
            raise GtpError(f"invalid move: {e}") from None
        try:
            self.game.play(move, colour=None if self.game.turn == colour else colour)
        except IllegalMoveError as e:
            raise GtpError(str(e)) from None
        return ""

    def cmd_play(self, args: List[str], rest: str) -> str:
        if len(args) < 2:
            raise GtpError("missing argument: play COLOR MOVE")
        colour = self._colour(args[0])
        return self._play(colour, rest[len(args[0]):].strip())

    def cmd_p(self, args: List[str], rest: str) -> str:
        if self.game.is_over:
            raise GtpError("the game is over")
        return self._play(int(self.game._turn_now()), rest)

    def cmd_genmove(self, args: List[str], rest: str) -> str:
        _n_args(args, 1)
        colour = self._colour(args[0])
        move = self._generate(colour)
        if move is None:
            return "pass"
        self.game.play(move, colour=None if self.game.turn == colour else colour)
        return str(move)

    def cmd_g(self, args: List[str], rest: str) -> str:
        _no_args(args)
        if self.game.is_over:
            return "pass"
        return self.cmd_genmove([str(int(self.game._turn_now()) + 1)], "")

    def cmd_reg_genmove(self, args: List[str], rest: str) -> str:
        _n_args(args, 1)
        colour = self._colour(args[0])
        # Later genmoves play as if it had not run: its random draw is given back, and it searches
        # a tree of its own (the next genmove would reuse the game's tree, grown by this search).
        state = self._rng.getstate()
        try:
            move = self._generate(colour, Engine(threads=self.threads))
        finally:
            self._rng.setstate(state)
        if move is None:  # (genmove answers pass; reg_genmove, as Pentobi's, has nothing to answer)
            raise GtpError("player failed to generate a move")
        return str(move)

    def cmd_undo(self, args: List[str], rest: str) -> str:
        _no_args(args)
        # Moves only: a loaded record's setup stays, as in Pentobi ("cannot undo" once only it is left).
        if not self.game.history or self.game._history[-1][2]:
            raise GtpError("cannot undo")
        self.game.undo()
        return ""

    def cmd_all_legal(self, args: List[str], rest: str) -> str:
        _n_args(args, 1)
        colour = self._colour(args[0])
        if self.game.is_over:
            return ""
        return "\n".join(str(m) for m in self.game.legal_moves_of(colour))

    def cmd_final_score(self, args: List[str], rest: str) -> str:
        _no_args(args)
        g = self.game
        if len(self.variant.players) == 2:
            a, b = g.player_scores()
            return f"B+{a - b}" if a > b else f"W+{b - a}" if b > a else "0"
        # Pentobi's points: placed triangles plus the bonus = our score + 110 per colour.
        return " ".join(str(g.score(c) + 110) for c in self.variant.colours)

    def cmd_get_place(self, args: List[str], rest: str) -> str:
        """Pentobi's get_place COLOR: the place (1 first) of the colour's player by score, with
        `` shared`` when another player has the same score. Players, not colours, are ranked:
        in the two-player game a colour takes its side's place."""
        _n_args(args, 1)
        colour = self._colour(args[0])
        scores = self.game.player_scores()
        mine = scores[self.variant.player_of(colour)]
        place = 1 + sum(s > mine for s in scores)
        return f"{place} shared" if scores.count(mine) > 1 else str(place)

    def cmd_showboard(self, args: List[str], rest: str) -> str:
        _no_args(args)
        return "\n" + str(self.game)

    def cmd_loadsgf(self, args: List[str], rest: str) -> str:
        if not 1 <= len(args) <= 2:
            raise GtpError("loadsgf FILE [MOVE_NUMBER]")
        number = None
        if len(args) == 2:
            number = _int_arg(args[1], "move number", minimum=1)
        if not os.path.exists(args[0]):
            raise GtpError(f"cannot read {args[0]}: no such file")
        if os.path.isdir(args[0]):
            raise GtpError(f"cannot read {args[0]}: a directory, not a file")
        try:
            record = read_blksgf(pathlib.Path(args[0]))
            game = record.game(number)
        except RecordError as e:
            raise GtpError(str(e)) from None
        except OSError as e:
            raise GtpError(f"cannot read {args[0]}: {e.strerror}") from None
        self._new_game(record.variant, game, record)
        return ""

    def cmd_savesgf(self, args: List[str], rest: str) -> str:
        _n_args(args, 1)
        text = self._record_text()
        try:
            with open(args[0], "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as e:
            raise GtpError(f"cannot write {args[0]}: {e.strerror}") from None
        return ""

    def _record_text(self) -> str:
        """savesgf's record: after loadsgf, the record's whole tree with the game as one of its
        lines (as Pentobi writes its tree back: moves played where the record has others are a
        new variation); else, or when the game left the record some other way, the game."""
        r = self._loaded
        if r is not None:
            record = r._with_game(self.game)
            if record is not None:
                if len(record.main_line()) != len(r.main_line()):
                    record.root.set("RE")  # the main line went on past the result it had
                return record.to_blksgf()
        return Record.from_game(self.game, **self._header()).to_blksgf()

    def _header(self) -> Dict[str, Any]:
        """savesgf's header where the game is not a line of the tree loaded (a line that does
        not replay, say): the record's players, event, date and root comment (and its result
        while the game is still the record's whole main line); else today."""
        r = self._loaded
        if r is None:
            return dict(date=time.strftime("%Y-%m-%d"))
        info = r.info
        loaded = r.game()
        whole = self.game.history == loaded.history
        header: Dict[str, Any] = dict(players=r.players, event=info.get("EV"),
                                      date=info.get("DT") or time.strftime("%Y-%m-%d"),
                                      result=info.get("RE") if whole else None)
        # The comments of the moves the game still shares with the record (and the root's).
        mine, theirs = ([g.history[i] for i in g._move_indices()] for g in (self.game, loaded))
        shared = next((k for k, (a, b) in enumerate(zip(mine, theirs)) if a != b), min(len(mine), len(theirs)))
        comments = {k: text for k, text in r._move_comments().items() if k <= shared}
        if comments:
            header["comments"] = comments
        return header

    def cmd_cputime(self, args: List[str], rest: str) -> str:
        _no_args(args)
        return f"{time.process_time():.3f}"

    def cmd_set_random_seed(self, args: List[str], rest: str) -> str:
        _n_args(args, 1)
        self.seed = _int_arg(args[0], "seed", 0, _args.SEED_MAX)
        self._rng = random.Random(self.seed)
        return ""

    def _params(self) -> List[Tuple[str, str]]:
        v = self.variant
        # Free starts are Pentobi's rule; in the four-player, teams and solo games the rulebook's too.
        start = "pentobi" if v.start_rule == StartRule.ANY else "rulebook"
        return sorted([("alternate_rule", str(int(v.alternate_rule))),
                       ("fixed_simulations", str(self.fixed_simulations)),
                       ("level", str(self.level)),
                       ("reuse_subtree", str(int(self.reuse_tree))),
                       ("start_rule", start),
                       ("threads", str(self.threads)),
                       ("time", f"{self.move_time:g}"),
                       ("variant", v.kind),
                       *self.ignored_params.items()])

    def cmd_param(self, args: List[str], rest: str) -> str:
        if not args:
            return "\n".join(f"{k} {v}" for k, v in self._params())
        _n_args(args, 2)
        key, value = args
        v = self.variant
        if key == "level":
            self.level = _int_arg(value, "level", 1, _MAX_LEVEL)
        elif key == "fixed_simulations":
            self.fixed_simulations = _int_arg(value, "fixed_simulations", 0, _args.MAX_COUNT)
        elif key == "time":
            t = _decimal(value)
            if t is None or not 0 <= t <= _MAX_TIME:
                raise GtpError(f"time must be a number of seconds 0..{_MAX_TIME:.0f} (0: the level decides), "
                               f"not '{value}'")
            self.move_time = t + 0.0  # -0 reads back as 0
        elif key == "threads":
            self.threads = _int_arg(value, "threads", 1, _args.MAX_THREADS)
        elif key == "reuse_subtree":
            self.reuse_tree = _bool_arg(value, key)
        elif key in _PENTOBI_BOOLS:
            self.ignored_params[key] = str(int(_bool_arg(value, key)))
        elif key in _PENTOBI_NUMBERS:
            number = _decimal(value)
            if number is None:
                raise GtpError(f"{key} must be a number, not '{value}'")
            self.ignored_params[key] = f"{number + 0.0:g}"
        # Rule keys start a new game, as set_game does.
        elif key == "alternate_rule":
            self._new_game(v.with_alternate_rule(_bool_arg(value, key)))
        elif key == "start_rule":
            if value not in ("pentobi", "rulebook"):
                raise GtpError("start_rule is 'pentobi' (free starts) or 'rulebook'")
            self._new_game(Variant(v.kind, v.alternate_rule, value == "pentobi", v.colours_override, v.side_override))
        elif key == "variant":
            if value not in _KINDS:
                raise GtpError(f"variant is one of {' '.join(_KINDS)}, not '{value}'")
            # Keep the current start-rule choice (Pentobi's by default).
            pentobi = not (v.kind in ("two_player", "three_player") and v.start_rule != StartRule.ANY)
            self._new_game(Variant(value, v.alternate_rule, pentobi))
        else:
            raise GtpError(f"unknown parameter '{key}'")
        return ""

    def cmd_analyze(self, args: List[str], rest: str) -> str:
        """analyze COLOR [N]: search and print up to N (default 10) moves, best first, one per
        line as ``visits value move`` (value 0..1 for the colour's side)."""
        if not 1 <= len(args) <= 2:
            raise GtpError("analyze COLOR [MAX_MOVES]")
        colour = self._colour(args[0])
        limit = _int_arg(args[1], "max moves", 1) if len(args) == 2 else 10
        if self.game.is_over or not self.game.legal_moves_of(colour):
            self.last_analysis = []
            return ""
        g = self._search_game(colour)
        rows = self._analysis(g)
        self.last_analysis = rows
        return _format_analysis(rows[:limit])

    def cmd_move_values(self, args: List[str], rest: str) -> str:
        """The moves of the last search (genmove, reg_genmove, analyze), as ``visits value move``."""
        _no_args(args)
        return _format_analysis(self.last_analysis)

    def _analysis(self, g: Game) -> List[Tuple[int, float, Move]]:
        self._run_analysis(g, int(g._turn_now()))
        return self.last_analysis

    def cmd_get_value(self, args: List[str], rest: str) -> str:
        """The value (0 loss .. 1 win) of the last search for the side of the colour it moved."""
        _no_args(args)
        if self.last_value is None:
            raise GtpError(self._no_value)
        return f"{self.last_value:.6g}"


# -- pure helpers ------------------------------------------------------------------------------

def _split_args(text: str) -> List[str]:
    """Words separated by spaces; "double quotes" group words (as Pentobi's command lines)."""
    words, cur, quoted, started = [], [], False, False
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == '"':
            quoted = not quoted
            started = True
        elif ch == "\\" and i + 1 < len(text) and quoted:
            i += 1
            cur.append(text[i])
        elif ch == " " and not quoted:
            if started or cur:
                words.append("".join(cur))
            cur, started = [], False
        else:
            cur.append(ch)
        i += 1
    if started or cur:
        words.append("".join(cur))
    return words


def _format_reply(ok: bool, cmd_id: str, result: str) -> str:
    result = result.rstrip("\n")
    # An empty line would end the reply early: keep a space on it, as Pentobi does.
    lines = result.split("\n")
    result = "\n".join(line if line or i == 0 else " " for i, line in enumerate(lines))
    return f"{'=' if ok else '?'}{cmd_id} {result}\n\n"


def _no_args(args: Sequence[str]) -> None:
    if args:
        raise GtpError("too many arguments")


def _n_args(args: Sequence[str], n: int) -> None:
    if len(args) < n:
        raise GtpError("missing argument")
    if len(args) > n:
        raise GtpError("too many arguments")


def _decimal(word: str) -> Optional[float]:
    """A GTP number (ASCII decimal) as a finite float, or None (also for 1e999: infinite)."""
    if not _DECIMAL.fullmatch(word):
        return None
    number = float(word)
    return number if math.isfinite(number) else None


def _int_arg(word: str, what: str, minimum: Optional[int] = None, maximum: Optional[int] = None) -> int:
    if not _INTEGER.fullmatch(word):  # (a '-' is taken so that -1 gets the range in its message)
        raise GtpError(f"{what} must be an integer, not '{word}'")
    value = int(word)
    if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
        lo = "" if minimum is None else str(minimum)
        hi = "" if maximum is None else str(maximum)
        raise GtpError(f"{what} must be in {lo}..{hi}, not {value}")
    return value


def _bool_arg(word: str, what: str) -> bool:
    if word in ("0", "1"):
        return word == "1"
    raise GtpError(f"{what} must be 0 or 1, not '{word}'")


def _format_analysis(rows: Iterable[Tuple[int, float, Move]]) -> str:
    return "\n".join(f"{visits} {value:.3f} {move}" for visits, value, move in rows)


def run_session(lines: Iterable[str], **options: Any) -> str:
    """Feed input lines to a fresh engine (in-process) and return everything it wrote to
    stdout; ``options`` as for :class:`GtpEngine`."""
    engine = GtpEngine(**options)
    out = []
    for line in lines:
        reply = engine.handle(line)
        if reply is not None:
            out.append(reply)
        if engine.quit:
            break
    return "".join(out)


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        prog="trigon-gtp", description="Blokus Trigon GTP engine (Pentobi's dialect) built on trigon_fast")
    parser.add_argument("--game", "-g", default="trigon",
                        help="trigon, trigon_2, trigon_3 (or t, t2, t3, or a game name); default trigon")
    parser.add_argument("--level", "-l", type=int, default=4, help="playing strength 1..9 (default 4)")
    parser.add_argument("--seed", "-r", type=int, default=None, help="random seed (deterministic with one thread)")
    parser.add_argument("--threads", type=int, default=1, help="search threads (default 1)")
    parser.add_argument("--quiet", "-q", action="store_true", help="no diagnostics on stderr")
    parser.add_argument("--config", "-c", default=None, help="file of GTP commands run before reading stdin")
    parser.add_argument("--version", "-v", action="version", version=f"trigon_fast {__version__}")
    opts = parser.parse_args(argv)
    game = _GAME_IDS.get(opts.game, opts.game)
    if game not in _GAME_IDS.values():
        parser.error(f"invalid game variant {opts.game!r} (trigon, trigon_2, trigon_3)")
    if not 1 <= opts.level <= _MAX_LEVEL:
        parser.error(f"invalid level {opts.level} (1..{_MAX_LEVEL})")
    if not 1 <= opts.threads <= _args.MAX_THREADS:
        parser.error(f"invalid number of threads {opts.threads} (1..{_args.MAX_THREADS})")
    if opts.seed is not None and not 0 <= opts.seed <= _args.SEED_MAX:
        parser.error(f"invalid seed {opts.seed} (0..2**64-1)")
    engine = GtpEngine(game, level=opts.level, seed=opts.seed, threads=opts.threads, quiet=opts.quiet)
    if opts.config:
        try:
            # utf-8-sig: editors may start a file with a byte order mark, not part of its first command.
            with open(opts.config, encoding="utf-8-sig", newline="\n") as f:
                config = f.readlines()
        except OSError as e:
            print(f"trigon-gtp: cannot read {opts.config}: {e.strerror}", file=sys.stderr)
            return 1
        except UnicodeDecodeError as e:
            print(f"trigon-gtp: cannot read {opts.config}: not UTF-8 text (byte 0x{e.object[e.start]:02x}: "
                  f"{e.reason})", file=sys.stderr)
            return 1
        for line in config:
            if not line.strip():
                continue  # blank lines lay out a config file; only protocol input must answer them
            reply = engine.handle(line)
            if reply is not None and reply.startswith("?"):
                print(f"trigon-gtp: config command failed: {line.strip()}: {reply[1:].strip()}", file=sys.stderr)
                return 1
            if engine.quit:  # (a quit there ends the engine before it reads any command)
                return 0
    # newline="\n": a line ends at LF alone; a CR is discarded as GTP says (handle() drops it), not
    # a line end of its own that would answer one line twice.
    stdin = open(sys.stdin.fileno(), encoding="utf-8", errors="replace", closefd=False, newline="\n")
    if hasattr(sys.stdout, "reconfigure"):
        # Replies may echo the user's text; never die on an encoding the terminal lacks.
        sys.stdout.reconfigure(encoding="utf-8", errors="replace")
    try:
        engine.run(stdin, sys.stdout)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
