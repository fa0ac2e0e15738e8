"""The ``trigon`` command: play, solve, analyse, render, match and benchmark from a terminal.

Built on click (subcommands, ``--help`` with examples, one-line errors) and tqdm (progress
bars that turn themselves off when stderr is not a terminal).
"""

from __future__ import annotations

import importlib
import inspect
import json
import math
import os
import random
import re
import sys
import threading
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any, Dict, List, Optional, Sequence, Tuple

import click

from . import _core, render
from .errors import TrigonError
from .game import Game
from .move import PIECE_NAMES, PIECE_SIZES, Move, _anchor_table, board, piece_index
from .variants import Colour, Variant

_COLOUR_WORDS = {"blue": 0, "yellow": 1, "red": 2, "green": 3, "b": 0, "y": 1, "r": 2, "g": 3,
                 "1": 0, "2": 1, "3": 2, "4": 3}
_VARIANT_WORDS = {"four": "four_player", "4": "four_player", "four_player": "four_player",
                  "two": "two_player", "2": "two_player", "two_player": "two_player",
                  "three": "three_player", "3": "three_player", "three_player": "three_player",
                  "teams": "teams", "solo": "solo", "1": "solo"}
_CELL_RE = re.compile(r"^[a-zA-Z]{1,2}[0-9]{1,2}$")


# --------------------------------------------------------------------------------------------
# Helpers shared by the subcommands
# --------------------------------------------------------------------------------------------
_NO_ARGS_IS_HELP = getattr(click.exceptions, "NoArgsIsHelpError", ())  # click >= 8.2


class _TrigonGroup(click.Group):
    """Turns the errors a user can cause (bad files, bad moves, missing parts) into click's
    one-line ``Error: ...`` with exit status 1 instead of a traceback."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (TrigonError, ValueError, OSError, ImportError) as e:
            raise click.ClickException(_one_line(e)) from None

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        try:
            super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.exceptions.Exit as e:
            sys.exit(e.exit_code)
        except _NO_ARGS_IS_HELP as e:
            click.echo(e.format_message())  # bare `trigon`: the help text, as click intends
            sys.exit(e.exit_code)
        except click.UsageError as e:
            # One line, with the pointer to help folded in (click's default prints three).
            where = e.ctx.command_path if e.ctx is not None else "trigon"
            click.echo(f"Error: {e.format_message()} (see '{where} --help')", err=True)
            sys.exit(e.exit_code)
        except click.ClickException as e:
            click.echo(f"Error: {e.format_message()}", err=True)
            sys.exit(e.exit_code)
        except (click.Abort, KeyboardInterrupt):
            click.echo("Aborted.", err=True)
            sys.exit(130)
        sys.exit(0)


def _one_line(e: BaseException) -> str:
    text = str(e).strip().splitlines()
    return text[0] if text else type(e).__name__


def _need(module: str, what: str):
    """Import ``trigon_fast.<module>`` or fail with one clear line naming what needs it."""
    try:
        return importlib.import_module(f"trigon_fast.{module}")
    except ImportError as e:
        if getattr(e, "name", None) in (f"trigon_fast.{module}", None) or module in str(e):
            raise click.ClickException(
                f"{what} needs trigon_fast.{module}, which this build of trigon_fast does not have yet") from None
        raise


def _has(module: str) -> bool:
    try:
        importlib.import_module(f"trigon_fast.{module}")
        return True
    except ImportError:
        return False


def _call_with_supported(fn, *args, **kwargs):
    """Call ``fn`` with the keyword arguments it accepts (None values dropped), so options
    map onto whichever of them the search or solver offers."""
    kwargs = {k: v for k, v in kwargs.items() if v is not None}
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return fn(*args, **kwargs)
    if not any(p.kind == p.VAR_KEYWORD for p in params.values()):
        kwargs = {k: v for k, v in kwargs.items() if k in params}
    return fn(*args, **kwargs)


def _parse_variant(name: str, alternate: bool = False, pentobi_starts: bool = False) -> Variant:
    kind = _VARIANT_WORDS.get(name.strip().lower())
    if kind is None:
        raise click.BadParameter(f"unknown variant {name!r}; use four, two, three, teams or solo")
    return Variant(kind, alternate_rule=alternate, pentobi_compatible=pentobi_starts)


def _parse_colours(text: str, variant: Variant) -> Tuple[int, ...]:
    t = text.strip().lower()
    if t == "all":
        return tuple(int(c) for c in variant.colours)
    if t in ("none", ""):
        return ()
    out = []
    for part in re.split(r"[,\s]+", t):
        if part not in _COLOUR_WORDS:
            raise click.BadParameter(f"unknown colour {part!r}; use blue, yellow, red, green (or 1-4), all, none")
        c = _COLOUR_WORDS[part]
        if c not in [int(x) for x in variant.colours]:
            raise click.BadParameter(f"{Colour(c).name.lower()} takes no part in this variant")
        out.append(c)
    return tuple(sorted(set(out)))


def _colour_name(c: int) -> str:
    return Colour(int(c)).name.lower()


def _as_move(game: Game, m: Any) -> Move:
    """A Move from whatever the search hands back (Move, Pentobi string, placement id, or an
    object with a ``move`` attribute)."""
    if hasattr(m, "move") and not isinstance(m, (Move, str, int)):
        m = m.move
    return game._to_move(m)


def _read_game(path: str) -> Game:
    records = _need("records", "reading a .blksgf record")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    reader = getattr(Game, "from_blksgf", None) or getattr(records, "from_blksgf", None) \
        or getattr(records, "read_blksgf", None)
    if reader is None:
        raise click.ClickException("trigon_fast.records offers no from_blksgf reader")
    return reader(text)


def _blksgf_text(game: Game) -> str:
    records = _need("records", "writing a .blksgf record")
    writer = getattr(game, "to_blksgf", None)
    if writer is not None:
        return writer()
    fn = getattr(records, "to_blksgf", None) or getattr(records, "write_blksgf", None)
    if fn is None:
        raise click.ClickException("trigon_fast.records offers no to_blksgf writer")
    return fn(game)


def _write_blksgf(game: Game, path: str) -> None:
    text = _blksgf_text(game)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def _game_at(game: Game, move_number: Optional[int]) -> Game:
    """The game cut back to its first ``move_number`` placements (None: all of them)."""
    if move_number is None:
        return game
    n = len(game.history)
    if not 0 <= move_number <= n:
        raise click.BadParameter(f"--move {move_number}: the record has moves 0..{n}")
    g = game.copy()
    while len(g.history) > move_number:
        g.undo()
    return g


def _write_picture(svg: str, path: str) -> None:
    if path.lower().endswith(".png"):
        render.write_png(svg, path)
    else:
        render.write_svg(svg, path)


def _progress(**kw):
    from tqdm import tqdm

    kw.setdefault("file", sys.stderr)
    kw.setdefault("leave", False)
    kw.setdefault("dynamic_ncols", True)
    kw.setdefault("disable", None)  # tqdm's own rule: off when stderr is not a terminal
    return tqdm(**kw)


def _scores_lines(game: Game) -> List[str]:
    lines = []
    for c in game.variant.colours:
        lines.append(f"  {_colour_name(c):6s} {game.score(c):+4d}   pieces left: {len(game.pieces_left(c))}")
    if len(game.variant.players) > 1:
        ps = game.player_scores()
        names = [_player_name(game.variant, i) for i in range(len(ps))]
        lines.append("  players: " + ", ".join(f"{n} {s:+d}" for n, s in zip(names, ps)))
    return lines


def _player_name(variant: Variant, i: int) -> str:
    return "+".join(_colour_name(c) for c in variant.players[i])


# --------------------------------------------------------------------------------------------
# Engines: a search engine when trigon_fast.search is there, and two simple built-in ones
# --------------------------------------------------------------------------------------------
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
            v = _option_value(value)
            if key in ("level", "simulations", "threads", "time") and (
                    isinstance(v, bool) or not isinstance(v, (int, float)) or (key != "time" and not isinstance(v, int))):
                raise click.BadParameter(f"engine option {item!r}: {value!r} is not {'a number' if key == 'time' else 'an integer'}")
            self.options[key] = v
        if self.options and self.kind != "search":
            raise click.BadParameter(f"engine {spec!r}: only the search takes options")
        if self.kind == "search":
            self.options.setdefault("threads", 1)

    def __str__(self) -> str:
        return self.spec

    def probe(self, game: Game) -> None:
        """One simulation with this engine's options, so that options the search rejects fail
        at once (with its message) rather than in a worker process."""
        if self.kind == "search":
            search = _need("search", f"engine {self.spec!r}")
            opts = {**self.options, "simulations": 1, "time": None, "level": None}
            _call_with_supported(search.best_move, game, seed=0, **opts)

    def choose(self, game: Game, rng: random.Random) -> Move:
        ids = game.legal_moves.ids
        if ids.size == 0:
            raise TrigonError("no legal move")
        side = game.variant.side
        if self.kind == "random":
            return Move(int(ids[rng.randrange(ids.size)]), side)
        if self.kind == "greedy":
            return greedy_move(game, rng)
        search = _need("search", f"engine {self.spec!r}")
        m = _call_with_supported(search.best_move, game, seed=rng.randrange(2**31), **self.options)
        return _as_move(game, m)


def greedy_move(game: Game, rng: random.Random) -> Move:
    """Largest piece first: a random legal move among those of the largest piece size."""
    ids = game.legal_moves.ids
    pieces = board(game.variant.side).placement_piece_array()[ids]
    sizes = [PIECE_SIZES[int(p)] for p in pieces]
    top = max(sizes)
    choices = [int(i) for i, s in zip(ids, sizes) if s == top]
    return Move(choices[rng.randrange(len(choices))], game.variant.side)


def _describe(move: Move) -> str:
    """Piece, orientation and reference cell (what ``Move.from_piece`` reads), then cells."""
    return f"{move.piece} {move.orientation} {_anchor_of(move)}  ({move})"


def _anchor_of(move: Move) -> str:
    table = _anchor_table(move.side)[(move.piece_index, move.orientation)]
    for cell, pid in table.items():
        if pid == move.id:
            return board(move.side).cell_name(cell)
    return "?"  # not reached: every placement has an anchor


# --------------------------------------------------------------------------------------------
# The command group
# --------------------------------------------------------------------------------------------
@click.group(cls=_TrigonGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="trigon_fast", prog_name="trigon")
def main() -> None:
    """Blokus Trigon from the terminal: play the engine, solve the solo puzzle, analyse and
    draw games, run engine matches and benchmarks.

    \b
    Examples:
      trigon play --variant two
      trigon solve --time-limit 10 --svg solved.svg
      trigon render game.blksgf --svg board.svg --move 20
      trigon analyse game.blksgf --json
      trigon match --engine greedy --engine random --games 20
      trigon bench
    """


# -- render ----------------------------------------------------------------------------------
@main.command("render", short_help="Draw a game record as SVG or PNG.")
@click.argument("record", type=click.Path(exists=True, dir_okay=False))
@click.option("--svg", "svg_path", type=click.Path(dir_okay=False), help="Write the board as SVG here.")
@click.option("--png", "png_path", type=click.Path(dir_okay=False), help="Write the board as PNG here (needs the png extra).")
@click.option("--move", "move_number", type=int, help="Position after this many moves (default: the end).")
@click.option("--pieces", "pieces_path", type=click.Path(dir_okay=False), help="Also draw the pieces left (SVG or PNG by suffix).")
@click.option("--palette", type=click.Choice(["default", "colourblind", "colorblind"]), default="default", show_default=True)
@click.option("--move-numbers/--no-move-numbers", default=False, help="Write each piece's move number on it.")
@click.option("--cell", type=click.FloatRange(min=4), default=24.0, show_default=True, help="Triangle edge in pixels.")
def render_cmd(record, svg_path, png_path, move_number, pieces_path, palette, move_numbers, cell):
    """Draw the position of a game record.

    \b
    Examples:
      trigon render game.blksgf --svg board.svg
      trigon render game.blksgf --png board.png --move 12 --palette colourblind
    """
    if not svg_path and not png_path:
        raise click.UsageError("give --svg FILE and/or --png FILE")
    game = _game_at(_read_game(record), move_number)
    svg = render.game_svg(game, palette=palette, move_numbers=move_numbers, cell=cell)
    if svg_path:
        render.write_svg(svg, svg_path)
        click.echo(f"wrote {svg_path}")
    if png_path:
        render.write_png(svg, png_path)
        click.echo(f"wrote {png_path}")
    if pieces_path:
        _write_picture(render.pieces_left_svg(game, palette=palette), pieces_path)
        click.echo(f"wrote {pieces_path}")


# -- play ------------------------------------------------------------------------------------
_PLAY_HELP = """\
Type a move as its cells in Pentobi notation (q15,r15,p16,q16,o17,p17) or as
piece, orientation and reference cell (I6 5 o17; `legal PIECE` lists them).
Commands:
  hint                the engine's suggestion for you
  undo                take back your last move (and the engine's replies)
  legal PIECE [CELL]  your legal placements of a piece (covering CELL), e.g. legal I6 r15
  pieces              the pieces each colour has left
  board               show the board again
  save FILE           save the game as a .blksgf record
  svg FILE            draw the board (SVG, or PNG when FILE ends in .png)
  help                this text
  quit                stop (Ctrl-D too)"""


@main.command("play", short_help="Play against the engine in the terminal.")
@click.option("--variant", default="four", show_default=True, help="four, two, three, teams or solo.")
@click.option("--alternate", is_flag=True, help="Alternate rule: same-colour pieces meet only corner to corner.")
@click.option("--pentobi-starts", is_flag=True, help="Free start cells, as Pentobi plays the two- and three-player games.")
@click.option("--engine", "engine_colours", default=None,
              help="Colours the engine plays, e.g. yellow,green or 2,4 (all / none). Default: every colour but the first player's.")
@click.option("--opponent", default=None, help="Engine spec: greedy, random, or search:level=N,... (default: the search at --level, else greedy).")
@click.option("--level", type=click.IntRange(1, 9), default=3, show_default=True, help="Search strength 1 (weak) .. 9.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--save", "save_path", type=click.Path(dir_okay=False), help="Save the game as a .blksgf record when it ends.")
@click.option("--max-moves", type=int, default=None, hidden=True, help="Stop after this many placements (tests).")
def play_cmd(variant, alternate, pentobi_starts, engine_colours, opponent, level, seed, save_path, max_moves):
    """Play a game in the terminal against the engine.

    \b
    Examples:
      trigon play                              # you are blue, the engine the others
      trigon play --variant two --level 5      # you play blue+red
      trigon play --engine all --opponent greedy --save game.blksgf   # engine v engine
    """
    v = _parse_variant(variant, alternate, pentobi_starts)
    if save_path:
        _need("records", "--save")  # fail now, not after the game
    if engine_colours is None:
        computer = tuple(int(c) for c in v.colours if c not in v.players[0])
    else:
        computer = _parse_colours(engine_colours, v)
    if opponent is None:
        opponent = f"search:level={level}" if _has("search") else "greedy"
        if opponent == "greedy":
            click.echo("(the search is not in this build: the engine plays largest piece first)")
    engine = Engine(opponent)
    rng = random.Random(seed)
    game = Game(v)
    humans = [c for c in v.colours if int(c) not in computer]
    click.echo(f"{v.name}{' (alternate rule)' if alternate else ''}: "
               f"you play {', '.join(_colour_name(c) for c in humans) or 'nothing'}, "
               f"engine '{engine}' plays {', '.join(_colour_name(c) for c in computer) or 'nothing'}. "
               f"Type help for commands.")
    shown = -1
    while not game.is_over and (max_moves is None or len(game.history) < max_moves):
        c = int(game.turn)
        if c in computer:
            m = engine.choose(game, rng)
            game.play(m)
            click.echo(f"{_colour_name(c)} (engine) plays {m.piece} {m}")
            continue
        if shown != len(game.history):
            click.echo(str(game))
            shown = len(game.history)
        click.echo(f"{_colour_name(c)}> ", nl=False)
        line = sys.stdin.readline()
        if not line:
            click.echo("\n(end of input)")
            break
        if not sys.stdin.isatty():
            click.echo(line.rstrip("\n"))  # piped input: echo it so the transcript reads as a dialogue
        if not _play_command(game, line.strip(), engine, rng, computer):
            break
    if game.is_over:
        click.echo(str(game))
        winners = [_player_name(v, i) for i in game.winners()]
        click.echo("game over: " + ("draw between " if len(winners) > 1 else "winner ") + ", ".join(winners))
        for line in _scores_lines(game):
            click.echo(line)
    if save_path:
        _write_blksgf(game, save_path)
        click.echo(f"saved {save_path}")


def _play_command(game: Game, line: str, engine: Engine, rng: random.Random, computer: Sequence[int]) -> bool:
    """Do one typed line; False to stop the game."""
    if not line:
        return True
    word, _, rest = line.partition(" ")
    word, rest = word.lower(), rest.strip()
    c = int(game.turn)
    if word in ("quit", "exit", "q"):
        return False
    if word in ("help", "?"):
        click.echo(_PLAY_HELP)
    elif word == "board":
        click.echo(str(game))
    elif word == "pieces":
        for col in game.variant.colours:
            click.echo(f"  {_colour_name(col):6s} {' '.join(game.pieces_left(col)) or '-'}")
    elif word == "hint":
        if _has("search"):
            hint_engine = engine if engine.kind == "search" else Engine("search:level=3")
        else:
            hint_engine = Engine("greedy")
        m = hint_engine.choose(game, rng)
        click.echo(f"hint ({hint_engine}): {_describe(m)}")
    elif word == "undo":
        if not any(col not in computer for col, _ in game.history):
            click.echo("nothing of yours to undo")
            return True
        game.undo()
        while game.history and int(game.turn) in computer:
            game.undo()
        click.echo(f"undone; {_colour_name(int(game.turn))} to move")
    elif word == "legal":
        if not rest:
            click.echo("usage: legal PIECE [CELL] (pieces: " + " ".join(PIECE_NAMES) + ")")
            return True
        piece_word, _, cell_word = rest.partition(" ")
        b = board(game.variant.side)
        try:
            p = piece_index(piece_word)
            cell = b.parse_cell(cell_word.strip()) if cell_word.strip() else None
            if cell is not None and cell < 0:
                raise TrigonError(f"{cell_word.strip()!r} is not a cell of the side-{b.side} board")
        except ValueError as e:
            click.echo(f"error: {e}")
            return True
        ids = [int(i) for i in game.legal_moves.ids if b.placement_piece(int(i)) == p
               and (cell is None or cell in b.placement_cells(int(i)))]
        if not ids:
            where = f" on {b.cell_name(cell)}" if cell is not None else ""
            click.echo(f"no legal placement of {PIECE_NAMES[p]}{where} for {_colour_name(c)}")
        for i in ids[:40]:
            click.echo("  " + _describe(Move(i, game.variant.side)))
        if len(ids) > 40:
            click.echo(f"  ... and {len(ids) - 40} more ({len(ids)} in all)")
    elif word == "save":
        if not rest:
            click.echo("usage: save FILE.blksgf")
            return True
        try:
            _write_blksgf(game, rest)
            click.echo(f"saved {rest}")
        except click.ClickException as e:
            click.echo(f"error: {e.message}")
        except OSError as e:
            click.echo(f"error: {_one_line(e)}")
    elif word == "svg":
        if not rest:
            click.echo("usage: svg FILE.svg")
            return True
        try:
            _write_picture(render.game_svg(game), rest)
            click.echo(f"wrote {rest}")
        except (OSError, ImportError) as e:
            click.echo(f"error: {_one_line(e)}")
    else:
        try:
            m = _parse_typed_move(line, game.variant.side)
            game.play(m)
        except ValueError as e:
            click.echo(f"error: {e} (type help for how to write moves)")
    return True


def _parse_typed_move(line: str, side: int) -> Move:
    """``PIECE ORIENTATION CELL`` (e.g. ``I6 0 q15``) or Pentobi's comma-separated cells."""
    tokens = line.split()
    if len(tokens) == 3 and tokens[1].isascii() and tokens[1].isdigit():
        return Move.from_piece(tokens[0], int(tokens[1]), tokens[2], side)
    return Move.from_str(line.replace(" ", ""), side)


# -- solve -----------------------------------------------------------------------------------
@main.command("solve", short_help="Solve the solo puzzle (all 88 pieces).")
@click.option("--colours", "--colors", "colours", default="all", show_default=True,
              help="Colours to place, e.g. blue,red (all: four on the big board, three on --side 8).")
@click.option("--side", type=click.Choice(["9", "8"]), default="9", show_default=True, help="Board side (8: the three-player board).")
@click.option("--alternate", is_flag=True, help="Alternate rule.")
@click.option("--time-limit", type=click.FloatRange(min=0.01), default=10.0, show_default=True, help="Seconds to search.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--threads", type=click.IntRange(min=1), default=1, show_default=True, help="Solver threads.")
@click.option("--out", type=click.Path(dir_okay=False), help="Save the solution as a .blksgf record.")
@click.option("--svg", "svg_path", type=click.Path(dir_okay=False), help="Draw the solution (SVG, or PNG by suffix).")
@click.option("--palette", type=click.Choice(["default", "colourblind", "colorblind"]), default="default", show_default=True)
def solve_cmd(colours, side, alternate, time_limit, seed, threads, out, svg_path, palette):
    """Solve the solo puzzle: place every piece of every colour, single triangle last.

    \b
    Examples:
      trigon solve --time-limit 30 --svg solved.svg --out solved.blksgf
      trigon solve --side 8 --alternate --seed 7
    """
    side_n = int(side)
    v = Variant.solo(side=side_n, alternate_rule=alternate)
    cols = None if colours.strip().lower() == "all" else list(_parse_colours(colours, v))
    if cols is not None and not cols:
        raise click.BadParameter("no colours to place")
    solver = _need("solver", "trigon solve")
    started = time.monotonic()
    done = threading.Event()

    def tick(bar) -> None:
        while not done.wait(0.2):
            bar.n = min(time_limit, round(time.monotonic() - started, 1))
            bar.refresh()

    with _progress(total=time_limit, unit="s", desc="solving",
                   bar_format="{desc}: {bar} {n:.1f}/{total:.0f} s{postfix}") as bar:
        def report(stats) -> bool:  # the solver's progress callback, when it has one
            placed, target = getattr(stats, "best_placed", None), getattr(stats, "target", None)
            if placed is not None and target:
                bar.set_postfix_str(f"best {placed}/{target} triangles", refresh=False)
            return True

        # The solver runs here (Ctrl-C reaches it); a helper thread moves the time bar.
        ticker = threading.Thread(target=tick, args=(bar,), daemon=True)
        ticker.start()
        try:
            solution = _call_with_supported(solver.solve_solo, colours=cols, side=side_n, alternate_rule=alternate,
                                            variant=Variant.solo(colours=cols, side=side_n, alternate_rule=alternate),
                                            seed=seed, time_limit=time_limit, threads=threads, callback=report)
        finally:
            done.set()
            ticker.join()
    game = solution.game
    # Options go by keyword to whichever the solver accepts; make sure none was dropped.
    wanted = tuple(cols) if cols is not None else tuple(int(c) for c in v.colours)
    got = (game.variant.side, game.variant.alternate_rule, tuple(int(c) for c in game.variant.colours))
    if got != (side_n, alternate, wanted):
        raise click.ClickException(f"the solver answered for side {got[0]}, alternate rule {got[1]}, colours "
                                   f"{got[2]}; asked for side {side_n}, alternate rule {alternate}, colours {wanted}")
    total = sum(game.scores().values())
    click.echo(str(game))
    click.echo(f"{'complete' if solution.complete else 'not complete'}: score {total:+d} "
               f"in {time.monotonic() - started:.1f} s")
    for line in _scores_lines(game):
        click.echo(line)
    if out:
        _write_blksgf(game, out)
        click.echo(f"wrote {out}")
    if svg_path:
        _write_picture(render.solution_svg(solution, palette=palette), svg_path)
        click.echo(f"wrote {svg_path}")


# -- analyse ---------------------------------------------------------------------------------
def _to_plain(obj: Any) -> Any:
    if hasattr(obj, "to_dict"):
        return obj.to_dict()
    if isinstance(obj, dict):
        return obj
    if hasattr(obj, "__dict__"):
        return {k: v for k, v in vars(obj).items() if not k.startswith("_")}
    return obj


def _field(obj: Any, *names: str, default: Any = None) -> Any:
    for n in names:
        if isinstance(obj, dict) and n in obj:
            return obj[n]
        if not isinstance(obj, dict) and hasattr(obj, n):
            return getattr(obj, n)
    return default


def _value_for(values: Any, colour: int, variant: Variant) -> Optional[float]:
    """A colour's value out of a per-colour dict/list/array, or a plain number (colour to move)."""
    if values is None:
        return None
    if isinstance(values, (int, float)):
        return float(values)
    if isinstance(values, dict):
        for key in (colour, Colour(colour), _colour_name(colour), str(colour)):
            if key in values:
                return float(values[key])
        return None
    try:
        seq = list(values)
    except TypeError:
        return None
    if len(seq) == 4:
        return float(seq[colour])
    if len(seq) == len(variant.players):
        return float(seq[variant.player_of(colour)])
    return None


class _Analysis:
    """Reads the search's analysis object without depending on its exact class: best move,
    value per colour (0..1), searched moves (move, visits, value for the colour to move)."""

    def __init__(self, game: Game, raw: Any) -> None:
        self.game = game
        self.raw = raw
        best = _field(raw, "best_move", "best")
        self.best = _as_move(game, best) if best is not None else None
        self.values = _field(raw, "values", "value")
        self.moves = list(_field(raw, "moves", "children", default=()) or ())

    def value(self, colour: int) -> Optional[float]:
        return _value_for(self.values, colour, self.game.variant)

    def top(self, n: int = 10) -> List[Dict[str, Any]]:
        rows = []
        for entry in self.moves[:n]:
            try:
                m = _as_move(self.game, _field(entry, "move"))
            except (ValueError, TypeError):
                continue
            visits = _field(entry, "visits")
            rows.append({"move": str(m), "piece": m.piece, "visits": None if visits is None else int(visits),
                         "value": _json_num(_value_for(_field(entry, "value"), int(self.game.turn), self.game.variant))})
        return rows


def _json_num(v: Any) -> Any:
    if v is None:
        return None
    try:
        f = float(v)
    except (TypeError, ValueError):
        return None
    if math.isnan(f) or math.isinf(f):
        return None  # colours not in the game carry NaN; JSON has no NaN
    return round(f, 4)


def _final_value(game: Game, colour: int) -> float:
    """Outcome of a finished game for a colour's side: 1 win, 0 loss, 1/k shared among k."""
    winners = game.winners()
    p = game.variant.player_of(colour)
    return 1.0 / len(winners) if p in winners else 0.0


@main.command("pattern", short_help="Cover a region exactly with pieces (pattern puzzles).")
@click.argument("picture", type=click.File("r"))
@click.option("--pieces", default=None,
              help="Comma-separated piece names, repeats allowed (default: one colour's 22 pieces).")
@click.option("--count", "count_all", is_flag=True, help="Count every solution (exact unless the time limit ends it).")
@click.option("--unique", is_flag=True, help="Count one solution per symmetry class of the region.")
@click.option("--show", type=click.IntRange(min=0), default=1, show_default=True, help="Solutions to draw.")
@click.option("--time-limit", type=click.FloatRange(min=0.01), default=60.0, show_default=True, help="Seconds to search.")
@click.option("--threads", type=click.IntRange(min=1, max=64), default=1, show_default=True,
              help="Threads (when counting without drawing).")
@click.option("--side", type=click.Choice(["9", "8"]), default="9", show_default=True, help="Board side.")
def pattern_cmd(picture, pieces, count_all, unique, show, time_limit, threads, side):
    """Cover the cells of a text PICTURE (a file, or - for standard input) exactly with pieces.

    The picture has one character per triangle, x # * o @ filled, rows top to bottom, as
    trigon_fast.parse_region reads it. Each solution is drawn with a letter per piece.

    \b
    Examples:
      printf '  xxxxx\\n xxxxxxx\\n xxxxxxx\\n  xxxxx\\n' | trigon pattern - --pieces V,P6,F,A6 --count
      trigon pattern shape.txt --count --unique --show 0
    """
    from .pattern import PatternPuzzle

    names = None if pieces is None else [p.strip() for p in pieces.split(",") if p.strip()]
    puzzle = PatternPuzzle(picture.read(), pieces=names, side=int(side))
    counting = count_all or unique
    r = puzzle.solve(all_solutions=counting, unique=unique, max_solutions=show if counting else max(show, 1),
                     time_limit=time_limit, threads=threads if counting and show == 0 else 1)
    area = sum(PIECE_SIZES[PIECE_NAMES.index(n)] * k for n, k in puzzle.pieces.items())
    listed = " ".join(n if k == 1 else f"{n}x{k}" for n, k in puzzle.pieces.items())
    click.echo(f"region: {len(puzzle.region)} cells; pieces: {listed} ({area} triangles)")
    if r.impossible:
        click.echo(f"no solution: {r.impossible}")
        return
    for k in range(min(show, len(r.solutions))):
        click.echo(r.diagram(k))
        click.echo("")
    if counting:
        what = "symmetry classes" if unique else "solutions"
        exact = "exact" if r.exhausted else ("interrupted" if r.interrupted else "time limit reached, at least")
        click.echo(f"{what}: {r.count:,} ({exact})")
    elif not r.solutions:
        click.echo("no solution" if r.exhausted else "no solution found within the time limit")
    click.echo(f"{r.nodes:,} nodes, {r.seconds:.3f} s")


@main.command("analyse", short_help="Best moves, values and mistakes of a game or position.")
@click.argument("record", type=click.Path(exists=True, dir_okay=False))
@click.option("--move", "move_number", type=int, help="Analyse only the position after this many moves.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False), help="Draw each colour's value over the game (SVG, or PNG by suffix).")
@click.option("--svg", "svg_path", type=click.Path(dir_okay=False),
              help="With --move: draw the position with the best moves and their values (SVG, or PNG by suffix).")
@click.option("--simulations", type=click.IntRange(min=1), default=2000, show_default=True, help="Simulations per position.")
@click.option("--time", "time_s", type=click.FloatRange(min=0.0), default=None, help="Seconds per position (instead of simulations).")
@click.option("--threads", type=click.IntRange(min=1), default=1, show_default=True, help="Search threads.")
@click.option("--seed", type=int, default=0, show_default=True, help="Search seed (one thread: same seed, same result).")
@click.option("--mistake", type=click.FloatRange(0, 1), default=0.1, show_default=True, help="Drop of the mover's value (0..1) that counts as a mistake.")
def analyse_cmd(record, move_number, as_json, plot_path, svg_path, simulations, time_s, threads, seed, mistake):
    """The engine's view of one position or of every move of a game: best move, values,
    mistakes (moves after which the mover's value fell by more than --mistake).

    \b
    Examples:
      trigon analyse game.blksgf --move 10 --svg best.svg
      trigon analyse game.blksgf --json --simulations 500 > analysis.json
      trigon analyse game.blksgf --plot values.svg
    """
    if move_number is None and svg_path:
        raise click.UsageError("--svg draws one position: give --move N (or use --plot for the game)")
    if move_number is not None and plot_path:
        raise click.UsageError("--plot draws a whole game; leave out --move")
    game = _read_game(record)
    search = _need("search", "trigon analyse")
    limits = dict(simulations=None if time_s else simulations, time=time_s, threads=threads, seed=seed)

    def analyse(g: Game) -> _Analysis:
        return _Analysis(g, _call_with_supported(search.analyse, g, **limits))

    if move_number is not None:
        g = _game_at(game, move_number)
        if g.is_over:
            raise click.ClickException(f"the game is over after move {move_number}: nothing to analyse")
        a = analyse(g)
        report = {"move_number": move_number, "to_move": _colour_name(int(g.turn)),
                  "best": str(a.best) if a.best else None,
                  "values": {_colour_name(c): _json_num(a.value(int(c))) for c in g.variant.colours},
                  "moves": a.top(10)}
        if as_json:
            click.echo(json.dumps(report, indent=2))
        else:
            click.echo(str(g))
            click.echo(f"{report['to_move']} to move; best {a.best.piece} {a.best}" if a.best else "no best move")
            click.echo("values: " + ", ".join(f"{k} {v}" for k, v in report["values"].items()))
            for row in report["moves"]:
                click.echo(f"  {row['piece']:3s} {row['move']:28s} visits {row['visits']}  value {row['value']}")
        if svg_path:
            _write_picture(analysis_svg(g, a), svg_path)
            if not as_json:
                click.echo(f"wrote {svg_path}")
        return

    history = game.history
    rows: List[Dict[str, Any]] = []
    analyses: List[_Analysis] = []
    with _progress(total=len(history) + 1, desc="analysing", unit="pos") as bar:
        for i in range(len(history) + 1):
            g = _game_at(game, i)
            analyses.append(analyse(g) if not g.is_over else None)
            bar.update(1)
    for i, (colour, move) in enumerate(history):
        c = int(colour)
        a, after = analyses[i], analyses[i + 1]
        if a is None:  # setup placements after the end; nothing to judge
            continue
        # Root value before and after the move, both from the mover's side: the same estimator
        # at both ends (a rarely visited move's own mean would be noise), as Pentobi plots it.
        before = a.value(c)
        after_v = after.value(c) if after is not None else _final_value(_game_at(game, i + 1), c)
        loss = None if before is None or after_v is None else before - after_v
        is_mistake = bool(loss is not None and loss > mistake and move != a.best)
        rows.append({"number": i + 1, "colour": _colour_name(c), "played": str(move), "piece": move.piece,
                     "best": str(a.best) if a.best else None, "value_before": _json_num(before),
                     "value_after": _json_num(after_v), "mistake": is_mistake})
    report = {"variant": game.variant.name, "moves": rows,
              "scores": {_colour_name(c): s for c, s in game.scores().items()}}
    if as_json:
        click.echo(json.dumps(report, indent=2))
    else:
        click.echo(f"{'#':>3} {'colour':6s} {'played':32s} {'before':>6s} {'after':>6s}")
        for r in rows:
            flag = "  mistake; best " + (r["best"] or "?") if r["mistake"] else ""
            click.echo(f"{r['number']:3d} {r['colour']:6s} {r['piece'] + ' ' + r['played']:32s} "
                       f"{_fmt_value(r['value_before'])} {_fmt_value(r['value_after'])}{flag}")
        click.echo(f"mistakes: {sum(r['mistake'] for r in rows)} of {len(rows)} moves")
    if plot_path:
        _write_picture(value_plot_svg(rows, game.variant), plot_path)
        if not as_json:
            click.echo(f"wrote {plot_path}")


def analysis_svg(game: Game, a: "_Analysis", candidates: int = 3, labelled: int = 5) -> str:
    """The position with the search's top moves as see-through pieces and each of the most
    searched moves' values written on its central cell."""
    b = game.board
    labels: Dict[int, str] = {}
    top: List[Move] = []
    for entry in a.moves[:labelled]:
        try:
            m = _as_move(game, _field(entry, "move"))
        except (ValueError, TypeError):
            continue
        top.append(m)
        v = _value_for(_field(entry, "value"), int(game.turn), game.variant)
        cells = m.cell_indices
        xs = [b.cell_xy(c) for c in cells]
        mx, my = sum(x for x, _ in xs) / len(xs), sum(y for _, y in xs) / len(xs)
        free = [c for c in cells if c not in labels] or list(cells)
        centre = min(free, key=lambda c: (b.cell_xy(c)[0] - mx) ** 2 / 4 + (b.cell_xy(c)[1] - my) ** 2)
        if v is not None:
            labels.setdefault(centre, f"{v:.2f}".lstrip("0"))
    best = f"best {a.best.piece} {a.best}" if a.best else "no best move"
    caption = f"{_colour_name(int(game.turn))} to move after {len(game.history)} moves: {best}"
    return render.game_svg(game, labels=labels, candidates=top[:candidates], caption=caption)


def _fmt_value(v: Any) -> str:
    return f"{v:6.3f}" if isinstance(v, (int, float)) else "     -"


def value_plot_svg(rows: Sequence[Dict[str, Any]], variant: Variant, palette: str = "default") -> str:
    """Each colour's value after each of its moves, over the game, mistakes ringed in black (the view
    of Pentobi's game analysis). ``rows`` as ``trigon analyse --json`` gives them."""
    fills = render._palette(palette)
    w, h, left, right, top, bottom = 720.0, 300.0, 48.0, 16.0, 20.0, 36.0
    n = max([r["number"] for r in rows] + [1])
    sx = lambda k: left + (k - 1) / max(n - 1, 1) * (w - left - right)  # noqa: E731
    sy = lambda v: top + (1.0 - v) * (h - top - bottom)  # noqa: E731
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0f}" height="{h:.0f}" viewBox="0 0 {w:.0f} {h:.0f}" '
           'font-family="Helvetica, Arial, sans-serif" font-size="11">',
           f'<rect width="{w:.0f}" height="{h:.0f}" fill="#fff"/>']
    for v in (0.0, 0.5, 1.0):
        out.append(f'<line x1="{left}" x2="{w - right}" y1="{sy(v):.1f}" y2="{sy(v):.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{left - 6}" y="{sy(v) + 4:.1f}" text-anchor="end" fill="#555">{v:.1f}</text>')
    for k in range(0, n + 1, 10):
        if k >= 1:
            out.append(f'<text x="{sx(k):.1f}" y="{h - bottom + 16:.1f}" text-anchor="middle" fill="#555">{k}</text>')
    out.append(f'<text x="{w / 2:.0f}" y="{h - 4:.0f}" text-anchor="middle" fill="#333">move</text>')
    out.append(f'<text x="{left}" y="12" fill="#333">value for the colour that moved (ringed: mistakes)</text>')
    for k, c in enumerate(variant.colours):
        lx = w - right - 70 * (len(variant.colours) - k)
        out.append(f'<rect x="{lx}" y="4" width="10" height="10" fill="{fills[int(c)]}"/>')
        out.append(f'<text x="{lx + 14}" y="13" fill="#333">{_colour_name(c)}</text>')
    for c in variant.colours:
        name = _colour_name(c)
        pts = [(sx(r["number"]), sy(float(r["value_after"]))) for r in rows
               if r["colour"] == name and isinstance(r["value_after"], (int, float))]
        if pts:
            out.append(f'<polyline class="values {name}" fill="none" stroke="{fills[int(c)]}" stroke-width="2" '
                       f'points="{" ".join(f"{x:.1f},{y:.1f}" for x, y in pts)}"/>')
        for r in rows:
            if r["colour"] == name and r["mistake"] and isinstance(r["value_after"], (int, float)):
                out.append(f'<circle class="mistake {name}" cx="{sx(r["number"]):.1f}" cy="{sy(float(r["value_after"])):.1f}" '
                           f'r="4.5" fill="{fills[int(c)]}" stroke="#000" stroke-width="1.5"/>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


# -- match -----------------------------------------------------------------------------------
def _play_match_game(args: Tuple[int, str, bool, bool, List[str], int, Optional[int]]) -> Dict[str, Any]:
    """One game of a match (runs in a worker process): player p uses engine (p + index) % E."""
    index, kind, alternate, pentobi, specs, seed, max_moves = args
    v = Variant(kind, alternate_rule=alternate, pentobi_compatible=pentobi)
    engines = [Engine(s) for s in specs]
    seat = [(p + index) % len(engines) for p in range(len(v.players))]
    rng = random.Random(seed * 1_000_003 + index)
    g = Game(v)
    while not g.is_over and (max_moves is None or len(g.history) < max_moves):
        p = v.player_of(int(g.turn))
        g.play(engines[seat[p]].choose(g, rng))
    return {"index": index, "seat": seat, "scores": list(g.player_scores()), "winners": list(g.winners()),
            "moves": len(g.history)}


def wilson_interval(wins: float, n: int, z: float = 1.96) -> Tuple[float, float]:
    """95% Wilson score interval of a win rate (draws counted as half wins)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, centre - half), min(1.0, centre + half))


@main.command("match", short_help="Engines against each other over many games, in parallel.")
@click.option("--engine", "engines", multiple=True, required=True,
              help="An engine spec (give two or more): random, greedy, search:level=N, simulations=N, time=S.")
@click.option("--games", type=click.IntRange(min=1), default=20, show_default=True, help="Games to play.")
@click.option("--variant", default="two", show_default=True, help="four, two, three or teams.")
@click.option("--alternate", is_flag=True, help="Alternate rule.")
@click.option("--pentobi-starts", is_flag=True, help="Free start cells, as Pentobi plays.")
@click.option("--jobs", type=click.IntRange(min=1), default=None, help="Games in parallel (default: CPU cores).")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
@click.option("--max-moves", type=int, default=None, hidden=True, help="Cut games short (tests).")
def match_cmd(engines, games, variant, alternate, pentobi_starts, jobs, seed, as_json, max_moves):
    """Engine settings against each other over many games, in parallel; seats rotate from game
    to game so every engine plays every seat.

    \b
    Examples:
      trigon match --engine greedy --engine random --games 40
      trigon match --engine level=3 --engine level=1 --variant four --games 100 --jobs 2
    """
    v = _parse_variant(variant, alternate, pentobi_starts)
    if v.kind == "solo":
        raise click.BadParameter("a match needs at least two players; solo has one")
    if len(engines) < 2:
        raise click.BadParameter("give at least two --engine specs")
    parsed = [Engine(s) for s in engines]  # fail on a bad spec before starting workers
    for e in parsed:
        if e.kind == "search":  # a one-simulation probe: unknown options fail here, not in a worker
            _need("search", "a search engine in trigon match")
            e.probe(Game(v))
    jobs = jobs or min(games, os.cpu_count() or 1)
    tasks = [(i, v.kind, alternate, pentobi_starts, list(engines), seed, max_moves) for i in range(games)]
    results = []
    with _progress(total=games, desc="games", unit="game") as bar:
        if jobs == 1:
            for t in tasks:
                results.append(_play_match_game(t))
                bar.update(1)
        else:
            with ProcessPoolExecutor(max_workers=jobs) as pool:
                for fut in as_completed([pool.submit(_play_match_game, t) for t in tasks]):
                    results.append(fut.result())
                    bar.update(1)
    table = []
    for e in range(len(engines)):
        wins, score_sum, seats = 0.0, 0, 0
        for r in results:
            mine = [p for p, s in enumerate(r["seat"]) if s == e]
            if not mine:
                continue
            winners = r["winners"]
            wins += sum(1 for p in mine if p in winners) / len(winners)
            score_sum += sum(r["scores"][p] for p in mine)
            seats += len(mine)
        n = sum(1 for r in results if e in r["seat"])
        lo, hi = wilson_interval(wins, n)
        table.append({"engine": engines[e], "games": n, "wins": round(wins, 2),
                      "win_rate": round(wins / n, 4) if n else None, "ci95": [round(lo, 4), round(hi, 4)],
                      "avg_score": round(score_sum / seats, 2) if seats else None})
    if as_json:
        click.echo(json.dumps({"variant": v.name, "games": games, "results": table}, indent=2))
        return
    width = max(len("engine"), *(len(r["engine"]) for r in table))
    click.echo(f"{v.name}: {games} games, {jobs} in parallel")
    click.echo(f"{'engine':{width}s}  games   wins  win rate  95% interval   avg score")
    for r in table:
        click.echo(f"{r['engine']:{width}s}  {r['games']:5d}  {r['wins']:5.1f}  {100 * r['win_rate']:7.1f}%  "
                   f"{100 * r['ci95'][0]:5.1f}-{100 * r['ci95'][1]:5.1f}%  {r['avg_score']:9.2f}")


# -- bench -----------------------------------------------------------------------------------
@main.command("bench", short_help="The headline speed figures in one short run.")
@click.option("--games", type=click.IntRange(min=1), default=1000, show_default=True, help="Random playouts to time.")
@click.option("--simulations", type=click.IntRange(min=1), default=2000, show_default=True, help="Search simulations to time (when the search is present).")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
def bench_cmd(games, simulations, as_json):
    """The headline numbers in one short run: move table build, legal-move generation, random
    playouts, and search simulations per second when the search is present.

    \b
    Examples:
      trigon bench
      trigon bench --games 20000 --json
    """
    rows: List[Tuple[str, float, str]] = []
    rows.append(("table_build_s_side9", _core.build_table_seconds(9), "s"))
    positions = []
    for seed in range(4):
        g = Game()
        rng = random.Random(seed)
        while len(g.history) < 10 * seed and not g.is_over:
            g.play(greedy_move(g, rng))
        positions.append(g.position)
    per_pos, moves = _core.movegen_seconds(positions, 20)
    rows.append(("movegen_us_per_position", 1e6 * sum(per_pos) / len(per_pos), "us"))
    rows.append(("movegen_moves_per_s", moves / max(sum(per_pos), 1e-12), "/s"))
    stats = Game().position
    st = _core.random_games_stats(stats, int(games), 1)
    rows.append(("playouts_per_s", st["games"] / max(st["seconds"], 1e-12), "/s"))
    rows.append(("playout_moves_per_s", st["moves"] / max(st["seconds"], 1e-12), "/s"))
    if _has("search"):
        import trigon_fast.search as search

        for threads in (1, 2):
            t0 = time.perf_counter()
            a = _call_with_supported(search.analyse, Game(), simulations=simulations, threads=threads, seed=1)
            rate = getattr(a, "simulations_per_second", None)  # the search's own clock, if it keeps one
            if not isinstance(rate, (int, float)) or rate <= 0:
                rate = simulations / (time.perf_counter() - t0)
            rows.append((f"search_sims_per_s_{threads}t", float(rate), "/s"))
    if as_json:
        click.echo(json.dumps({name: round(v, 6) for name, v, _ in rows}, indent=2))
        return
    for name, value, unit in rows:
        click.echo(f"{name:28s} {value:14,.3f} {unit}" if value < 100 else f"{name:28s} {value:14,.0f} {unit}")
    if not _has("search"):
        click.echo("(search not in this build: no search figures)")


if __name__ == "__main__":  # pragma: no cover
    main(prog_name="trigon")
