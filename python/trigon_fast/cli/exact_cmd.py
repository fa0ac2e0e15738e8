"""``trigon exact``: the exact questions from a position of a game record (can every piece
left still be placed if the others stop, and how many triangles can each colour place alone)."""

from __future__ import annotations

import json
import sys
from typing import Any, Dict, List, Optional, Tuple

import click

from .. import _args, exact, render
from ..game import Game
from ..move import PIECE_NAMES, PIECE_SIZES, Move
from .common import (FiniteRange, OutputFile, colour_name, interrupted_exit, parse_colours, read_position,
                     time_bar, write_picture)
from .group import main


def _layout_game(game: Game, layout: List[Tuple[Any, Move]]) -> Game:
    """The position with a layout's moves played on it, each by its own colour (out of turn:
    the other colours have stopped)."""
    g = game.copy()
    for c, m in layout:
        g.play(m, colour=int(c))
    return g


def _answer_word(r: exact.PlaceAllResult) -> str:
    return {True: "yes", False: "no", None: "not proven"}[r.answer]


def _limit_reached(r: exact.PlaceAllResult, time_limit: float, node_limit: int, exhaustive: bool) -> str:
    """Which limit ended an unproven question, as far as the result tells: the exhaustive search
    alone stops one node past its limit; with the guided search (whose nodes count too) a run
    that ended well before its time ran out was ended by the node limit."""
    if not node_limit:
        return f"in {time_limit:g} s"
    by_time = r.seconds >= 0.9 * time_limit
    by_nodes = r.nodes > node_limit if exhaustive else not by_time
    if by_nodes and not by_time:
        return f"within {node_limit:,} nodes"
    if by_time and not by_nodes:
        return f"in {time_limit:g} s"
    return f"in {time_limit:g} s or {node_limit:,} nodes"


@main.command("exact", short_help="Exact endgame answers: can every piece left be placed?")
@click.argument("record", type=click.Path(exists=True, dir_okay=False))
@click.option("--move", "move_number", type=int, help="The position after this many moves (default: the end).")
@click.option("--colours", "--colors", "colours", default="all", show_default=True,
              help="Colours asked, e.g. blue,red (the others stop placing pieces).")
@click.option("--max", "with_max", is_flag=True, help="Also the most triangles each colour asked can place alone.")
@click.option("--time-limit", type=FiniteRange(min=0.01), default=10.0, show_default=True,
              help="Seconds for the question (and as much again for each colour's --max).")
@click.option("--node-limit", type=click.IntRange(0, _args.MAX_COUNT), default=0, show_default=True,
              help="Nodes of the exhaustive search (0: no limit); with --exhaustive and one thread, a repeatable "
                   "run. (Without --exhaustive, 20,000 or less leaves no room for the witness search.)")
@click.option("--threads", type=click.IntRange(1, _args.MAX_EXACT_THREADS), default=1, show_default=True,
              help="Search threads (the question; each --max runs on one).")
@click.option("--exhaustive", is_flag=True, help="The exhaustive search alone (no guided search for a witness).")
@click.option("--out", type=OutputFile(),
              help="Save the witness (or, not proven, the best layout found) as a .blksgf record.")
@click.option("--svg", "svg_path", type=OutputFile(picture=True),
              help="Draw the witness or best layout (SVG, or PNG by suffix).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def exact_cmd(record: str, move_number: Optional[int], colours: str, with_max: bool, time_limit: float, node_limit: int,
              threads: int, exhaustive: bool, out: Optional[str], svg_path: Optional[str], as_json: bool) -> None:
    """Can every piece the colours asked have left still be placed if the other colours place
    nothing more? A proven yes (with a witness layout), a proven no (by exhaustive search), or
    not proven within the time limit (with the best layout found). Exact for endgames of about
    ten pieces a colour (docs/exact-search.md says how far it reaches).

    \b
    Examples:
      trigon exact game.blksgf --move 48
      trigon exact game.blksgf --colours blue,red --max --out witness.blksgf
      trigon exact game.blksgf --move 60 --json --time-limit 30 --threads 2
    """
    game, n_moves = read_position(record, move_number)
    asked = parse_colours(colours, game.variant)
    if not asked:
        raise click.BadParameter("no colours asked (none has nothing to answer)", param_hint="--colours")
    with time_bar("searching", time_limit, lambda p: f"{p.nodes:,} nodes") as show_progress:
        r = exact.can_place_all(game, list(asked), time_limit=time_limit, node_limit=node_limit, threads=threads,
                                heuristic=not exhaustive, callback=show_progress)
    maxima: List[exact.MaxPlaceResult] = []
    if with_max and not r.interrupted:
        for c in asked:
            with time_bar(f"{colour_name(c)} alone", time_limit, lambda p: f"{p.nodes:,} nodes") as report_max:
                m = exact.max_placeable(game, c, time_limit=time_limit, node_limit=node_limit,
                                        heuristic=not exhaustive, callback=report_max)
            maxima.append(m)
            if m.interrupted:
                break
    layout = r.witness if r.answer else r.best_layout
    shown: Optional[Game] = _layout_game(game, layout) if (r.answer or r.best_triangles is not None) else None
    left = {colour_name(c): sum(PIECE_SIZES[PIECE_NAMES.index(p)] for p in game.pieces_left(c)) for c in asked}

    if as_json:
        report: Dict[str, Any] = {
            "move_number": n_moves, "colours": [colour_name(c) for c in asked],
            "triangles_left": left, "answer": _answer_word(r), "proven": r.proven,
            "target_triangles": r.target_triangles, "best_triangles": r.best_triangles,
            "nodes": r.nodes, "seconds": round(r.seconds, 4), "interrupted": r.interrupted,
            "layout": [[colour_name(c), str(m)] for c, m in layout],
        }
        if with_max:
            report["max_placeable"] = {colour_name(m.colour): {
                "triangles": m.triangles, "of": left[colour_name(m.colour)], "proven": m.proven,
                "nodes": m.nodes, "seconds": round(m.seconds, 4)} for m in maxima}
        click.echo(json.dumps(report, indent=2))
    else:
        names = ", ".join(colour_name(c) for c in asked)
        pieces = ", ".join(f"{colour_name(c)} {len(game.pieces_left(c))}" for c in asked)
        click.echo(f"position after {_args.counted(n_moves, 'move')}; pieces left: {pieces} ({r.target_triangles} triangles)")
        click.echo(f"can {names} place every piece left, the others stopping?")
        effort = f"{_args.counted(r.nodes, 'node')}, {r.seconds:.3f} s"
        if r.answer:
            click.echo(f"yes: a layout of {_args.counted(len(r.witness), 'move')} places them all ({effort})")
        elif r.answer is False:
            click.echo(f"no: proven by exhaustive search ({effort})")
        else:
            why = "(interrupted)" if r.interrupted else _limit_reached(r, time_limit, node_limit, exhaustive)
            best = "" if r.best_triangles is None else \
                f": the best layout found places {r.best_triangles} of {r.target_triangles} triangles"
            click.echo(f"not proven {why}{best} ({effort})")
        for m in maxima:
            how = "exactly" if m.proven else "at least (not proven)"
            click.echo(f"  {colour_name(m.colour)} alone: {how} {m.triangles} of its {left[colour_name(m.colour)]} "
                       f"triangles ({_args.counted(m.nodes, 'node')}, {m.seconds:.3f} s)")
    # With --json the "wrote" lines go to stderr: stdout stays one JSON document.
    written = []
    if out or svg_path:
        if shown is None:
            why = "the answer is no" if r.answer is False else \
                "none was looked for (--exhaustive, or a --node-limit of 20,000 or less)"
            click.echo(f"no layout to save: {why}", err=True)
        else:
            if out:
                shown.to_blksgf(out)
                written.append(out)
            if svg_path:
                write_picture(render.game_svg(shown), svg_path)
                written.append(svg_path)
    for path in written:
        click.echo(f"wrote {path}", err=as_json)
    if r.interrupted or any(m.interrupted for m in maxima):
        interrupted_exit("the answer so far is shown")
    if (out or svg_path) and not written:  # (a script that asked for a file must not take it as made)
        sys.exit(1)
