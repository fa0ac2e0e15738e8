"""``trigon analyse``: the search's view of a position or of every move of a game, and its
pictures (the best moves on the board, each colour's value over the game)."""

from __future__ import annotations

import json
import math
from typing import Any, Dict, List, Optional, Sequence

import click

from .. import _args, render, search
from ..game import Game
from ..move import Move
from ..variants import Variant
from .common import (FiniteRange, OutputFile, colour_name, game_at, interrupted_exit,
                     progress, read_game, read_position, variant_json, write_picture)
from .group import main


def _top_moves(a: search.Analysis, n: int = 10) -> List[Dict[str, Any]]:
    """The most searched moves: visits and value for the colour to move."""
    return [{"move": str(m.move), "piece": m.move.piece, "visits": int(m.visits), "value": _json_num(m.value)}
            for m in a.moves[:n]]


def _json_num(v: float) -> Optional[float]:
    f = float(v)
    if math.isnan(f) or math.isinf(f):
        return None  # colours not in the game carry NaN; JSON has no NaN
    return round(f, 4)


def _final_value(game: Game, colour: int) -> float:
    """Outcome of a finished game for a colour's side: 1 win, 0 loss, 1/k shared among k."""
    winners = game.winners()
    p = game.variant.player_of(colour)
    return 1.0 / len(winners) if p in winners else 0.0


@main.command("analyse", short_help="Best moves, values and mistakes of a game or position.")
@click.argument("record", type=click.Path(exists=True, dir_okay=False))
@click.option("--move", "move_number", type=int, help="Analyse only the position after this many moves.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.option("--plot", "plot_path", type=OutputFile(picture=True), help="Draw each colour's value over the game (SVG, or PNG by suffix).")
@click.option("--svg", "svg_path", type=OutputFile(picture=True),
              help="With --move: draw the position with the best moves and their values (SVG, or PNG by suffix).")
@click.option("--simulations", type=click.IntRange(min=1), default=2000, show_default=True, help="Simulations per position.")
@click.option("--time", "time_s", type=FiniteRange(min=0.0, min_open=True), default=None, help="Seconds per position (instead of simulations).")
@click.option("--threads", type=click.IntRange(1, _args.MAX_THREADS), default=1, show_default=True, help="Search threads.")
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), default=0, show_default=True, help="Search seed (one thread: same seed, same result).")
@click.option("--mistake", type=FiniteRange(0, 1), default=0.1, show_default=True, help="Drop of the mover's value (0..1) that counts as a mistake.")
def analyse_cmd(record: str, move_number: Optional[int], as_json: bool, plot_path: Optional[str], svg_path: Optional[str],
                simulations: int, time_s: Optional[float], threads: int, seed: int, mistake: float) -> None:
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
    game = read_game(record)
    limits: Dict[str, Any] = dict(simulations=None if time_s else simulations, time=time_s, threads=threads, seed=seed)

    def analyse(g: Game) -> search.Analysis:
        return search.analyse(g, **limits)

    if move_number is not None:
        g, _ = read_position(record, move_number)
        if g.is_over:
            raise click.ClickException(f"the game is over after move {move_number}: nothing to analyse")
        a = analyse(g)
        report: Dict[str, Any] = {
            **variant_json(g.variant), "move_number": move_number, "to_move": colour_name(int(g._turn_now())),
            "best": str(a.best_move), "interrupted": bool(a.interrupted),
            "values": {colour_name(c): _json_num(a.value[int(c)]) for c in g.variant.colours},
            "moves": _top_moves(a, 10)}
        if as_json:
            click.echo(json.dumps(report, indent=2))
        else:
            click.echo(str(g))
            click.echo(f"{report['to_move']} to move; best {a.best_move.piece} {a.best_move}")
            click.echo("values: " + ", ".join(f"{k} {v}" for k, v in report["values"].items()))
            for row in report["moves"]:
                click.echo(f"  {row['piece']:3s} {row['move']:28s} visits {row['visits']}  value {row['value']}")
        if svg_path:
            write_picture(analysis_svg(g, a), svg_path)
            if not as_json:
                click.echo(f"wrote {svg_path}")
        if a.interrupted:
            interrupted_exit("the search was stopped early: its figures are those so far")
        return

    history = game.history
    moves = game._move_indices()  # (setup placements are not moves: they are not judged)
    rows: List[Dict[str, Any]] = []
    analyses: List[Optional[search.Analysis]] = []
    interrupted = False
    with progress(total=len(moves) + 1, desc="analysing", unit="pos") as bar:
        for k in range(len(moves) + 1):
            g = game_at(game, k)
            found = analyse(g) if not g.is_over else None
            if found is not None and found.interrupted:  # Ctrl-C: judge the moves analysed on both sides
                interrupted = True
                break
            analyses.append(found)
            bar.update(1)
    for k, i in enumerate(moves):
        if k + 1 >= len(analyses):
            break
        colour, move = history[i]
        c = int(colour)
        here, after = analyses[k], analyses[k + 1]
        if here is None:  # the game was over before it (setup placements after the end): nothing to judge
            continue
        a = here
        # Root value before and after the move, both from the mover's side: the same estimator
        # at both ends (a rarely visited move's own mean would be noise), as Pentobi plots it.
        before = float(a.value[c])
        after_v = float(after.value[c]) if after is not None else _final_value(game_at(game, k + 1), c)
        is_mistake = bool(before - after_v > mistake and move != a.best_move)  # (NaN: no judgement)
        rows.append({"number": k + 1, "colour": colour_name(c), "played": str(move), "piece": move.piece,
                     "best": str(a.best_move), "value_before": _json_num(before),
                     "value_after": _json_num(after_v), "mistake": is_mistake})
    report = {**variant_json(game.variant), "moves": rows,
              "scores": {colour_name(c): s for c, s in game.scores().items()}, "interrupted": interrupted}
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
        write_picture(value_plot_svg(rows, game.variant), plot_path)
        if not as_json:
            click.echo(f"wrote {plot_path}")
    if interrupted:
        interrupted_exit(f"stopped after {len(rows)} of {len(moves)} moves")


def analysis_svg(game: Game, a: search.Analysis, candidates: int = 3, labelled: int = 5) -> str:
    """The position with the search's top moves as see-through pieces and each of the most
    searched moves' values written on its central cell."""
    b = game.board
    labels: Dict[int, str] = {}
    top: List[Move] = []
    for entry in a.moves[:labelled]:
        m, v = entry.move, entry.value
        top.append(m)
        cells = m.cell_indices
        xs = [b.cell_xy(c) for c in cells]
        mx, my = sum(x for x, _ in xs) / len(xs), sum(y for _, y in xs) / len(xs)
        free = [c for c in cells if c not in labels] or list(cells)
        centre = min(free, key=lambda c: (b.cell_xy(c)[0] - mx) ** 2 / 4 + (b.cell_xy(c)[1] - my) ** 2)
        if not math.isnan(v):
            labels.setdefault(centre, f"{v:.2f}".lstrip("0"))
    best = f"best {a.best_move.piece} {a.best_move}"
    caption = f"{colour_name(int(game._turn_now()))} to move after {len(game._move_indices())} moves: {best}"
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
        out.append(f'<text x="{lx + 14}" y="13" fill="#333">{colour_name(c)}</text>')
    for c in variant.colours:
        name = colour_name(c)
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
