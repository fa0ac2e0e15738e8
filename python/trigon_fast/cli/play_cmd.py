"""``trigon play``: a game against the engine in the terminal."""

from __future__ import annotations

import random
import sys
from typing import Optional, Sequence

import click

from .. import render
from ..errors import InvalidMoveError, TrigonError
from ..game import Game
from ..move import PIECE_NAMES, Move, _anchor_table, board, piece_index
from .common import (Engine, OutputFile, colour_name, parse_colours,
                     interrupted_exit, parse_variant, player_name, save_record, scores_lines, variant_title,
                     write_picture)
from .group import main, one_line

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
@click.option("--opponent", default=None, help="Engine spec: greedy, random, or search:level=N,... (default: the search at --level).")
@click.option("--level", type=click.IntRange(1, 9), default=3, show_default=True, help="Search strength 1 (weak) .. 9.")
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), default=0, show_default=True)
@click.option("--save", "save_path", type=OutputFile(), help="Save the game as a .blksgf record when it ends.")
@click.option("--max-moves", type=int, default=None, hidden=True, help="Stop after this many placements (tests).")
def play_cmd(variant: str, alternate: bool, pentobi_starts: bool, engine_colours: Optional[str], opponent: Optional[str],
             level: int, seed: int, save_path: Optional[str], max_moves: Optional[int]) -> None:
    """Play a game in the terminal against the engine.

    \b
    Examples:
      trigon play                              # you are blue, the engine the others
      trigon play --variant two --level 5      # you play blue+red
      trigon play --engine all --opponent greedy --save game.blksgf   # engine v engine
    """
    v = parse_variant(variant, alternate, pentobi_starts)
    if engine_colours is None:
        computer = tuple(int(c) for c in v.colours if c not in v.players[0])
    else:
        computer = parse_colours(engine_colours, v, "--engine")
    if opponent is None:
        opponent = f"search:level={level}"
    elif click.get_current_context().get_parameter_source("level") is not click.core.ParameterSource.DEFAULT:
        raise click.UsageError("--level sets the default opponent's strength: with --opponent, put level=N in its spec")
    engine = Engine(opponent)
    rng = random.Random(seed)
    game = Game(v)
    humans = [c for c in v.colours if int(c) not in computer]
    engine_plays = (f"engine '{engine}' plays {', '.join(colour_name(c) for c in computer)}" if computer
                    else "no engine plays")  # (--engine none: the engine's spec would name one that never moves)
    click.echo(f"{variant_title(v)}: you play {', '.join(colour_name(c) for c in humans) or 'nothing'}, "
               f"{engine_plays}. Type help for commands.")
    def save() -> None:
        if save_path:
            save_record(game, save_path)
            click.echo(f"saved {save_path}")

    try:
        _play_loop(game, engine, rng, computer, max_moves)
    except KeyboardInterrupt:
        if not save_path:
            raise
        # Ctrl-C (an engine v engine game, most often): keep what was played, as --save promises
        save()
        interrupted_exit(f"the game so far ({len(game.history)} placements) is saved")
    if game.is_over:
        click.echo(str(game))
        winners = [player_name(v, i) for i in game.winners()]
        click.echo("game over: " + ("draw between " if len(winners) > 1 else "winner ") + ", ".join(winners))
        for line in scores_lines(game):
            click.echo(line)
    save()


def _play_loop(game: Game, engine: Engine, rng: random.Random, computer: Sequence[int], max_moves: Optional[int]) -> None:
    """The moves until the game ends, the input ends or the player quits."""
    shown = -1
    while not game.is_over and (max_moves is None or len(game.history) < max_moves):
        c = int(game._turn_now())
        if c in computer:
            m = engine.choose(game, rng)
            game.play(m)
            click.echo(f"{colour_name(c)} (engine) plays {m.piece} {m}")
            continue
        if shown != len(game.history):
            click.echo(str(game))
            shown = len(game.history)
        click.echo(f"{colour_name(c)}> ", nl=False)
        line = sys.stdin.readline()
        if not line:
            click.echo("\n(end of input)")
            break
        if not sys.stdin.isatty():
            click.echo(line.rstrip("\n"))  # piped input: echo it so the transcript reads as a dialogue
        if not _play_command(game, line.strip(), engine, rng, computer):
            break


def _play_command(game: Game, line: str, engine: Engine, rng: random.Random, computer: Sequence[int]) -> bool:
    """Do one typed line; False to stop the game."""
    if not line:
        return True
    word, _, rest = line.partition(" ")
    word, rest = word.lower(), rest.strip()
    c = int(game._turn_now())
    if word in ("quit", "exit", "q"):
        return False
    if word in ("help", "?"):
        click.echo(_PLAY_HELP)
    elif word == "board":
        click.echo(str(game))
    elif word == "pieces":
        for col in game.variant.colours:
            click.echo(f"  {colour_name(col):6s} {' '.join(game.pieces_left(col)) or '-'}")
    elif word == "hint":
        hint_engine = engine if engine.kind == "search" else Engine("search:level=3")
        m = hint_engine.choose(game, rng)
        click.echo(f"hint ({hint_engine}): {_describe(m)}")
    elif word == "undo":
        if not any(col not in computer for col, _ in game.history):
            click.echo("nothing of yours to undo")
            return True
        game.undo()
        while game.history and int(game._turn_now()) in computer:
            game.undo()
        click.echo(f"undone; {colour_name(int(game._turn_now()))} to move")
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
            click.echo(f"no legal placement of {PIECE_NAMES[p]}{where} for {colour_name(c)}")
        for i in ids[:40]:
            click.echo("  " + _describe(Move(i, game.variant.side)))
        if len(ids) > 40:
            click.echo(f"  ... and {len(ids) - 40} more ({len(ids)} in all)")
    elif word == "save":
        if not rest:
            click.echo("usage: save FILE.blksgf")
            return True
        try:
            game.to_blksgf(OutputFile().convert(rest, None, None))  # (its checks: "there is no folder ...")
            click.echo(f"saved {rest}")
        except click.BadParameter as e:
            click.echo(f"error: {e.message}")
        except (OSError, ValueError) as e:  # (ValueError: a NUL in the name)
            click.echo(f"error: {one_line(e)}")
    elif word == "svg":
        if not rest:
            click.echo("usage: svg FILE.svg")
            return True
        try:
            write_picture(render.game_svg(game), OutputFile(picture=True).convert(rest, None, None))
            click.echo(f"wrote {rest}")
        except click.BadParameter as e:
            click.echo(f"error: {e.message}")
        except (OSError, ImportError, ValueError) as e:
            click.echo(f"error: {one_line(e)}")
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
    if len(tokens) in (2, 3) and not any("," in t for t in tokens) and _is_piece(tokens[0]):
        raise InvalidMoveError(f"write PIECE ORIENTATION CELL, e.g. {tokens[0]} 0 q15 (orientations count from 0), "
                               f"or the cells, e.g. q15,r15,s15")
    return Move.from_str(line.replace(" ", ""), side)


def _is_piece(word: str) -> bool:
    try:
        piece_index(word)
    except ValueError:
        return False
    return True


def _describe(move: Move) -> str:
    """Piece, orientation and reference cell (what ``Move.from_piece`` reads), then cells."""
    return f"{move.piece} {move.orientation} {_anchor_of(move)}  ({move})"


def _anchor_of(move: Move) -> str:
    table = _anchor_table(move.side)[(move.piece_index, move.orientation)]
    for cell, pid in table.items():
        if pid == move.id:
            return board(move.side).cell_name(cell)
    return "?"  # not reached: every placement has an anchor
