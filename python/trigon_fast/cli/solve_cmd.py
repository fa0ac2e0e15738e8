"""``trigon solve`` and ``trigon pattern``: the solo puzzle and pattern puzzles."""

from __future__ import annotations

import os
import time
from typing import Dict, List, Optional, TextIO

import click

from .. import _args, render, solver
from ..move import PIECE_NAMES, PIECE_SIZES, board, piece_index
from ..pattern import PatternPuzzle, parse_region
from ..variants import Variant
from .common import (FiniteRange, OutputFile, interrupted_exit, parse_colours,
                     progress, save_record, scores_lines, time_bar, write_picture)
from .group import main


@main.command("solve", short_help="Solve the solo puzzle (all 88 pieces).")
@click.option("--colours", "--colors", "colours", default="all", show_default=True,
              help="Colours to place, e.g. blue,red (all: four on the big board, three on --side 8).")
@click.option("--side", type=click.Choice(["9", "8"]), default="9", show_default=True, help="Board side (8: the three-player board).")
@click.option("--alternate", is_flag=True, help="Alternate rule.")
@click.option("--start", "start", default=None, metavar="COLOUR=CELL,...",
              help="Fixed start cells, e.g. blue=r15,red=r4 (the other colours choose theirs).")
@click.option("--time-limit", type=FiniteRange(min=0.01), default=10.0, show_default=True, help="Seconds to search.")
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), default=0, show_default=True)
@click.option("--threads", type=click.IntRange(1, _args.MAX_THREADS), default=1, show_default=True, help="Solver threads.")
@click.option("--out", type=OutputFile(), help="Save the solution as a .blksgf record.")
@click.option("--svg", "svg_path", type=OutputFile(picture=True), help="Draw the solution (SVG, or PNG by suffix).")
@click.option("--palette", type=click.Choice(["default", "colourblind", "colorblind"]), default="default", show_default=True)
@click.option("--count", type=click.IntRange(min=1), default=1, show_default=True,
              help="Distinct solutions to find (up to the board's symmetries and colour renaming) within the time limit.")
@click.option("--out-dir", type=click.Path(file_okay=False), help="Save each solution as DIR/solution-NNNN.blksgf (with --count, several).")
def solve_cmd(colours: str, side: str, alternate: bool, start: Optional[str], time_limit: float, seed: int,
              threads: int, out: Optional[str], svg_path: Optional[str], palette: str, count: int,
              out_dir: Optional[str]) -> None:
    """Solve the solo puzzle: place every piece of every colour, single triangle last.

    \b
    Examples:
      trigon solve --time-limit 30 --svg solved.svg --out solved.blksgf
      trigon solve --side 8 --alternate --seed 7
      trigon solve --start blue=r15,yellow=z12,red=r4 --alternate
      trigon solve --count 100 --out-dir solutions
    """
    side_n = int(side)
    v = Variant.solo(side=side_n, alternate_rule=alternate)
    cols = None if colours.strip().lower() == "all" else list(parse_colours(colours, v))
    if cols is not None and not cols:
        raise click.BadParameter("no colours to place", param_hint="--colours")
    variant = Variant.solo(colours=cols, side=side_n, alternate_rule=alternate)
    starts = _start_cells(start, variant)
    if count > 1 or out_dir:
        if out or svg_path:
            raise click.UsageError("--out and --svg keep one solution; with --count use --out-dir")
        _solve_many(variant, starts, count, out_dir, seed, time_limit, threads)
        return
    started = time.monotonic()
    # The solver runs here (Ctrl-C reaches it); its progress callback moves the time bar.
    with time_bar("solving", time_limit, lambda s: f"best {s.best_placed}/{s.target} triangles") as report:
        solution = solver.solve_solo(variant, start_cells=starts, seed=seed, time_limit=time_limit,
                                     threads=threads, callback=report)
    game = solution.game
    total = sum(game.scores().values())
    click.echo(str(game))
    click.echo(f"{'complete' if solution.complete else 'not complete'}: score {total:+d} "
               f"in {time.monotonic() - started:.1f} s")
    for line in scores_lines(game):
        click.echo(line)
    if out:
        game.to_blksgf(out)
        click.echo(f"wrote {out}")
    if svg_path:
        write_picture(render.solution_svg(solution, palette=palette), svg_path)
        click.echo(f"wrote {svg_path}")
    if solution.interrupted:
        interrupted_exit("the best layout found so far is shown")


def _start_cells(text: Optional[str], variant: Variant) -> Optional[Dict[int, str]]:
    """``--start blue=r15,red=r4``: a mapping colour -> cell for the solver, checked now (an
    argument mistake, not a failure after the search)."""
    if text is None:
        return None
    starts: Dict[int, str] = {}
    for item in filter(None, (t.strip() for t in text.split(","))):
        name, eq, cell = item.partition("=")
        if not eq:
            raise click.BadParameter(f"{item!r}: write COLOUR=CELL, e.g. blue=r15", param_hint="--start")
        cs = parse_colours(name, variant, "--start")
        if len(cs) != 1 or cs[0] in starts:
            raise click.BadParameter(f"{item!r}: one colour a cell, each colour once", param_hint="--start")
        starts[cs[0]] = cell.strip()
    try:
        solver._resolve_start_cells(board(variant.side), variant.colours, starts)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--start") from None
    return starts


def _solve_many(variant: Variant, starts: Optional[Dict[int, str]], count: int, out_dir: Optional[str], seed: int,
                time_limit: float, threads: int) -> None:
    """``--count``: distinct solutions streamed by iter_solutions, each saved as it comes."""
    if out_dir:
        os.makedirs(out_dir, exist_ok=True)
    started = time.monotonic()
    found: List[solver.Solution] = []
    solutions = solver.iter_solutions(variant, start_cells=starts, seed=seed, time_limit=time_limit, threads=threads)
    interrupted = False
    with progress(total=count, unit="solution", desc="solving") as bar:
        try:
            for sol in solutions:
                if out_dir:
                    save_record(sol.game, os.path.join(out_dir, f"solution-{len(found) + 1:04d}.blksgf"))
                found.append(sol)
                bar.update(1)
                if len(found) >= count:
                    break
        except KeyboardInterrupt:  # Ctrl-C in this loop (not the solver's): keep what was saved
            interrupted = True
    seconds = time.monotonic() - started
    scores = sorted({s.total_score for s in found})
    click.echo(f"{len(found)} distinct solution{'' if len(found) == 1 else 's'} of {count} in {seconds:.1f} s"
               + (f" ({len(found) / seconds:.0f}/s)" if found and seconds > 0 else "")
               + (f"; scores {', '.join(f'{x:+d}' for x in scores)}" if found else ""))
    if out_dir and found:
        last = "" if len(found) == 1 else f" .. solution-{len(found):04d}.blksgf"
        click.echo(f"wrote {os.path.join(out_dir, 'solution-0001.blksgf')}{last}")
    if interrupted or solutions.interrupted:
        interrupted_exit(f"{len(found)} of {count} solutions found")


@main.command("pattern", short_help="Cover a region exactly with pieces (pattern puzzles).")
# utf-8-sig: a byte-order mark some editors write first is not part of the picture
@click.argument("picture", type=click.File("r", encoding="utf-8-sig"))
@click.option("--pieces", default=None,
              help="Comma-separated piece names, repeats allowed (default: one colour's 22 pieces).")
@click.option("--count", "count_all", is_flag=True, help="Count every solution (exact unless the time limit ends it).")
@click.option("--unique", is_flag=True, help="Count one solution per symmetry class of the region.")
@click.option("--show", type=click.IntRange(min=0), default=1, show_default=True, help="Solutions to draw.")
@click.option("--time-limit", type=FiniteRange(min=0.01), default=60.0, show_default=True, help="Seconds to search.")
@click.option("--threads", type=click.IntRange(min=1, max=_args.MAX_EXACT_THREADS), default=1, show_default=True,
              help="Threads (when counting without drawing).")
@click.option("--side", type=click.Choice(["9", "8"]), default="9", show_default=True, help="Board side.")
def pattern_cmd(picture: TextIO, pieces: Optional[str], count_all: bool, unique: bool, show: int, time_limit: float,
                threads: int, side: str) -> None:
    """Cover the cells of a text PICTURE (a file, or - for standard input) exactly with pieces.

    The picture has one character per triangle, x # * o @ filled, rows top to bottom, as
    trigon_fast.parse_region reads it. Each solution is drawn with a letter per piece.

    \b
    Examples:
      printf '  xxxxx\\n xxxxxxx\\n xxxxxxx\\n  xxxxx\\n' | trigon pattern - --pieces V,P6,F,A6 --count
      trigon pattern shape.txt --count --unique --show 0
    """
    names = None if pieces is None else [p.strip() for p in pieces.split(",") if p.strip()]
    if names is not None:  # argument mistakes (exit 2), before the picture is read
        if not names:
            raise click.BadParameter("no pieces given", param_hint="--pieces")
        for n in names:
            try:
                piece_index(n)
            except ValueError as e:
                raise click.BadParameter(str(e), param_hint="--pieces") from None
    # Read as a picture whatever it holds: an empty file is "no filled cells" as a blank one is
    # (PatternPuzzle would take "" as an empty list of cells).
    puzzle = PatternPuzzle(parse_region(picture.read(), int(side)), pieces=names, side=int(side))
    counting = count_all or unique
    with time_bar("searching", time_limit, lambda p: f"{p.nodes:,} nodes, {p.solutions:,} solutions") as report:
        r = puzzle.solve(all_solutions=counting, unique=unique, max_solutions=show if counting else max(show, 1),
                         first=max(show, 1), time_limit=time_limit, threads=threads if counting and show == 0 else 1,
                         callback=report)
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
        click.echo("no solution" if r.exhausted else
                   "no solution found (interrupted)" if r.interrupted else "no solution found within the time limit")
    elif show == 0:  # no drawing says it: the answer in words
        click.echo("a solution exists (--show 1 draws it)")
    elif len(r.solutions) < show:  # fewer than asked to draw: say whether there are more
        found = f"{len(r.solutions)} {'classes' if unique else 'solutions'}"
        click.echo(f"{found} in all" if r.exhausted else f"{found} found ({'interrupted' if r.interrupted else 'time limit reached'})")
    click.echo(f"{r.nodes:,} nodes, {r.seconds:.3f} s")
    if r.interrupted:
        interrupted_exit(f"the {'count' if counting else 'search'} so far is shown")
