"""What the ``trigon`` subcommands share: reading variants, colours and records, writing
pictures, progress bars, score lines, and the engines that choose moves."""

from __future__ import annotations

import contextlib
import math
import os
import pathlib
import random
import re
import sys
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple

import click

from .. import _args, render, search
from ..errors import TrigonError
from ..game import Game
from ..move import PIECE_SIZES, Move, board
from ..records import _node_moves, read_blksgf
from ..variants import Colour, Variant

_COLOUR_WORDS = {"blue": 0, "yellow": 1, "red": 2, "green": 3, "b": 0, "y": 1, "r": 2, "g": 3,
                 "1": 0, "2": 1, "3": 2, "4": 3}
_VARIANT_WORDS = {"four": "four_player", "4": "four_player", "four_player": "four_player",
                  "two": "two_player", "2": "two_player", "two_player": "two_player",
                  "three": "three_player", "3": "three_player", "three_player": "three_player",
                  "teams": "teams", "solo": "solo", "1": "solo"}


class FiniteRange(click.FloatRange):
    """click's FloatRange that also refuses NaN and infinities (NaN passes every comparison of a
    range: a time limit of nan would never run out)."""

    def convert(self, value: Any, param: Optional[click.Parameter], ctx: Optional[click.Context]) -> Any:
        v = super().convert(value, param, ctx)
        if not math.isfinite(v):
            self.fail(f"{value!r} is not a finite number", param, ctx)
        return v


class OutputFile(click.Path):
    """A file to write: its directory must exist and be writable, and a ``.png`` needs the png
    extra, checked when the arguments are read, so that a long search is not thrown away at the
    end for want of a folder."""

    def __init__(self, picture: bool = False) -> None:
        super().__init__(dir_okay=False)
        self.picture = picture

    def convert(self, value: Any, param: Optional[click.Parameter], ctx: Optional[click.Context]) -> Any:
        if value == "-":  # (it made a file named "-"; the commands print their answers on stdout)
            self.fail("give a file name: this output does not go to standard output", param, ctx)
        path = super().convert(value, param, ctx)
        folder = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(folder):
            self.fail(f"{path!r}: there is no folder {folder!r}", param, ctx)
        if not os.access(folder, os.W_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
            self.fail(f"{path!r} cannot be written", param, ctx)
        if self.picture and str(path).lower().endswith(".png"):
            try:
                render.svg_to_png('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>')
            except ImportError as e:
                self.fail(f"{path!r}: {e}", param, ctx)
        return path


def parse_variant(name: str, alternate: bool = False, pentobi_starts: bool = False, solo: bool = True) -> Variant:
    """The variant a --variant word names; ``solo=False`` for a command that needs players."""
    kind = _VARIANT_WORDS.get(name.strip().lower())
    if kind is None:
        words = "four, two, three, teams or solo" if solo else "four, two, three or teams"
        raise click.BadParameter(f"unknown variant {name!r}; use {words}")
    return Variant(kind, alternate_rule=alternate, pentobi_compatible=pentobi_starts)


def parse_colours(text: str, variant: Variant, option: str = "--colours") -> Tuple[int, ...]:
    t = text.strip().lower()
    if t == "all":
        return tuple(int(c) for c in variant.colours)
    if t in ("none", ""):
        return ()
    out: List[int] = []
    for part in re.split(r"[,\s]+", t):
        if part not in _COLOUR_WORDS:
            raise click.BadParameter(f"unknown colour {part!r}; use blue, yellow, red, green (or 1-4), all, none",
                                     param_hint=option)
        c = _COLOUR_WORDS[part]
        if c in out:  # (as the Python API refuses it: a typo for another colour, most likely)
            raise click.BadParameter(f"{Colour(c).name.lower()} given twice", param_hint=option)
        if c not in [int(x) for x in variant.colours]:
            raise click.BadParameter(f"{Colour(c).name.lower()} takes no part in this variant", param_hint=option)
        out.append(c)
    return tuple(sorted(set(out)))


def colour_name(c: int) -> str:
    return Colour(int(c)).name.lower()


def read_game(path: str) -> Game:
    return Game.from_blksgf(pathlib.Path(path))


def read_position(path: str, move_number: Optional[int]) -> Tuple[Game, int]:
    """The position after a record's first ``move_number`` moves (None: its whole main line)
    and that number, counted by the record's move nodes as GTP's ``loadsgf FILE N+1`` counts
    them, even where an ``AE`` lifted played pieces off (the game then holds them as setup
    placements); setup placements before move ``move_number + 1`` are kept."""
    record = read_blksgf(pathlib.Path(path))
    n = sum(1 for node in record.main_line() if _node_moves(node))
    if move_number is None:
        return record.game(), n
    if not 0 <= move_number <= n:
        raise click.BadParameter(f"the record has moves 0..{n}, not {move_number}", param_hint="--move")
    return record.game(move_number + 1), move_number


def game_at(game: Game, move_number: Optional[int]) -> Game:
    """The game cut back to its first ``move_number`` moves (None: all of them). Setup placements
    stay with the position they lead to: those before move ``move_number + 1`` are kept."""
    if move_number is None:
        return game
    moves = game._move_indices()
    n = len(moves)
    if not 0 <= move_number <= n:
        raise click.BadParameter(f"the record has moves 0..{n}, not {move_number}", param_hint="--move")
    if move_number == n:
        return game
    g = game.copy()
    while len(g.history) > moves[move_number]:
        g.undo()
    return g


def save_record(game: Game, path: str) -> None:
    """Write a game's record whole or not at all: a Ctrl-C while writing (a second one, after
    the Ctrl-C that ended the game) leaves no half file."""
    text = game.to_blksgf()
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    except BaseException:
        if os.path.exists(path):
            os.remove(path)
        raise


def write_picture(svg: str, path: str) -> None:
    if path.lower().endswith(".png"):
        render.write_png(svg, path)
    else:
        render.write_svg(svg, path)


def progress(**kw: Any) -> Any:
    from tqdm import tqdm

    kw.setdefault("file", sys.stderr)
    kw.setdefault("leave", False)
    kw.setdefault("dynamic_ncols", True)
    kw.setdefault("disable", None)  # tqdm's own rule: off when stderr is not a terminal
    if kw["file"] is None:  # stderr closed (`2>&-`): tqdm would write to None and end the command
        kw["disable"] = True
    return tqdm(**kw)


@contextlib.contextmanager
def time_bar(desc: str, seconds: float, describe: Callable[[Any], str]) -> Iterator[Callable[[Any], bool]]:
    """A bar of the seconds a search has spent (on a terminal), moved by the search's progress
    callback, which it yields: the progress's ``seconds``, and ``describe(progress)`` after it."""
    with progress(total=seconds, unit="s", desc=desc, bar_format="{desc}: {bar} {n:.1f}/{total:.0f} s{postfix}") as bar:
        def report(p: Any) -> bool:
            bar.n = min(seconds, round(p.seconds, 1))
            bar.set_postfix_str(describe(p), refresh=False)
            bar.refresh()
            return True

        yield report


def scores_lines(game: Game) -> List[str]:
    lines = []
    for c in game.variant.colours:
        lines.append(f"  {colour_name(c):6s} {game.score(c):+4d}   pieces left: {len(game.pieces_left(c))}")
    if len(game.variant.players) > 1:
        ps = game.player_scores()
        names = [player_name(game.variant, i) for i in range(len(ps))]
        lines.append("  players: " + ", ".join(f"{n} {s:+d}" for n, s in zip(names, ps)))
    return lines


def interrupted_exit(what: str) -> None:
    """Ctrl-C ended a search whose results were shown: say so on stderr and exit 130, as an
    interrupted command does."""
    click.echo(f"interrupted: {what}", err=True)
    raise click.exceptions.Exit(130)


def player_name(variant: Variant, i: int) -> str:
    return "+".join(colour_name(c) for c in variant.players[i])


def variant_title(variant: Variant) -> str:
    """The game's name with what it leaves unsaid: four players, teams and solo share one name
    (Pentobi's), and neither the alternate rule nor Pentobi's free starts are in it."""
    notes = [{"teams": "teams", "solo": "solo"}.get(variant.kind, "")]
    notes += ["alternate rule" if variant.alternate_rule else "", "free start cells" if variant.pentobi_compatible else ""]
    notes = [n for n in notes if n]
    return variant.name + (f" ({', '.join(notes)})" if notes else "")


def variant_json(variant: Variant) -> Dict[str, Any]:
    """The variant for --json: the name (as before), and the kind and rules that tell apart
    games of one name."""
    return {"variant": variant.name, "kind": variant.kind, "alternate_rule": variant.alternate_rule,
            "pentobi_starts": variant.pentobi_compatible, "start_rule": variant.start_rule.name.lower()}


# -- engines: the search, and two simple built-in ones ----------------------------------------
def _option_value(text: str) -> Any:
    t = text.strip()
    if t.lower() in ("true", "yes", "on"):
        return True
    if t.lower() in ("false", "no", "off"):
        return False
    for kind in (int, float):
        try:
            return kind(t)
        except ValueError:
            pass
    return t


# Arguments of the search call that the command sets itself (or that only Python can give):
# passed on as knobs they clashed with its own (a TypeError and a traceback).
_FOR_PYTHON = "callbacks are for Python callers (trigon_fast.analyse), not engine specs"
_RESERVED_OPTIONS = {
    "seed": "the seed of each search comes from the command's --seed (each game and move its own)",
    "game": "the game is the one being played, not an option",
    "callback": _FOR_PYTHON, "callback_every": _FOR_PYTHON, "callback_simulations": _FOR_PYTHON,
}


class Engine:
    """Chooses moves for whichever colour is to move. Built from a spec string:
    ``random``, ``greedy`` (largest piece first, random among those), or ``search`` with
    options, e.g. ``search:level=3`` or just ``level=3`` / ``simulations=500,threads=1``.
    Other ``key=value`` options go to the search as they are (its knobs, e.g.
    ``use_priors=false`` or ``playout=uniform``), so matches can compare its settings."""

    def __init__(self, spec: str) -> None:
        self.spec = spec.strip()
        kind, _, opts = self.spec.partition(":")
        if "=" in kind:  # bare options mean the search
            kind, opts = "search", self.spec
        self.kind = kind.lower()
        if self.kind not in ("random", "greedy", "search"):
            raise click.BadParameter(f"unknown engine {spec!r}; use random, greedy or search[:level=N,...]")
        self.options: Dict[str, Any] = {}
        for item in filter(None, (o.strip() for o in opts.split(","))):
            key, eq, value = item.partition("=")
            key = {"sims": "simulations", "t": "time", "strength": "level"}.get(key.strip(), key.strip())
            if not eq or not re.fullmatch(r"[a-z_]+", key):
                raise click.BadParameter(f"engine option {item!r}: write key=value, e.g. level=3, simulations=500, time=0.5")
            if key in _RESERVED_OPTIONS:
                raise click.BadParameter(f"engine option {item!r} is reserved: {_RESERVED_OPTIONS[key]}")
            if key in self.options:  # (the later one would win unseen)
                raise click.BadParameter(f"engine {spec!r}: option {key!r} given twice")
            v = _option_value(value)
            if key in ("level", "simulations", "threads", "time") and (
                    isinstance(v, bool) or not isinstance(v, (int, float)) or (key != "time" and not isinstance(v, int))):
                raise click.BadParameter(f"engine option {item!r}: {value!r} is not {'a number' if key == 'time' else 'an integer'}")
            self.options[key] = v
        if self.options and self.kind != "search":
            raise click.BadParameter(f"engine {spec!r}: only the search takes options")
        if self.kind == "search":
            self.options.setdefault("threads", 1)
            try:
                self._check_search_options()
            except ValueError as e:
                raise click.BadParameter(f"engine {spec!r}: {e}") from None

    def __str__(self) -> str:
        return self.spec

    def _check_search_options(self) -> None:
        """The limits in range, and one simulation with the other options: what the search
        rejects fails here, before a game starts (not after the first move, or in a worker)."""
        o = self.options
        if "level" in o:
            search.level_simulations(o["level"])
        if "simulations" in o:
            _args.integer("simulations", o["simulations"], 1, _args.MAX_COUNT)
        _args.integer("threads", o["threads"], 1, _args.MAX_THREADS)
        if "time" in o:
            _args.seconds("time", o["time"])
        search.best_move(Game(), seed=0, **{**o, "simulations": 1, "time": None, "level": None, "threads": 1})

    def choose(self, game: Game, rng: random.Random) -> Move:
        ids = game.legal_moves.ids
        if ids.size == 0:
            raise TrigonError("no legal move")
        side = game.variant.side
        if self.kind == "random":
            return Move(int(ids[rng.randrange(ids.size)]), side)
        if self.kind == "greedy":
            return greedy_move(game, rng)
        a = search.analyse(game, seed=rng.randrange(2**31), **self.options)
        if a.interrupted:  # Ctrl-C stopped the search: it stops the game too
            raise KeyboardInterrupt
        return a.best_move


def greedy_move(game: Game, rng: random.Random) -> Move:
    """Largest piece first: a random legal move among those of the largest piece size."""
    ids = game.legal_moves.ids
    pieces = board(game.variant.side).placement_piece_array()[ids]
    sizes = [PIECE_SIZES[int(p)] for p in pieces]
    top = max(sizes)
    choices = [int(i) for i, s in zip(ids, sizes) if s == top]
    return Move(choices[rng.randrange(len(choices))], game.variant.side)
