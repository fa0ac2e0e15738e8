"""``trigon render``: draw a game record."""

from __future__ import annotations

from typing import Optional

import click

from .. import render
from .common import FiniteRange, OutputFile, read_position, write_picture
from .group import main


# -- render ----------------------------------------------------------------------------------
@main.command("render", short_help="Draw a game record as SVG or PNG.")
@click.argument("record", type=click.Path(exists=True, dir_okay=False))
@click.option("--svg", "svg_path", type=OutputFile(picture=True),
              help="Write the board as SVG here (PNG for a .png name, as the other commands' --svg).")
@click.option("--png", "png_path", type=OutputFile(picture=True), help="Write the board as PNG here (needs the png extra).")
@click.option("--move", "move_number", type=int, help="Position after this many moves (default: the end).")
@click.option("--pieces", "pieces_path", type=OutputFile(picture=True), help="Also draw the pieces left (SVG or PNG by suffix).")
@click.option("--palette", type=click.Choice(["default", "colourblind", "colorblind"]), default="default", show_default=True)
@click.option("--move-numbers/--no-move-numbers", default=False, help="Write each piece's move number on it.")
@click.option("--cell", type=FiniteRange(4, 200), default=24.0, show_default=True, help="Triangle edge in pixels.")
def render_cmd(record: str, svg_path: Optional[str], png_path: Optional[str], move_number: Optional[int],
               pieces_path: Optional[str], palette: str, move_numbers: bool, cell: float) -> None:
    """Draw the position of a game record.

    \b
    Examples:
      trigon render game.blksgf --svg board.svg
      trigon render game.blksgf --png board.png --move 12 --palette colourblind
    """
    if not svg_path and not png_path:
        raise click.UsageError("give --svg FILE and/or --png FILE")
    game, _ = read_position(record, move_number)
    svg = render.game_svg(game, palette=palette, move_numbers=move_numbers, cell=cell)
    if svg_path:
        write_picture(svg, svg_path)
        click.echo(f"wrote {svg_path}")
    if png_path:
        render.write_png(svg, png_path)
        click.echo(f"wrote {png_path}")
    if pieces_path:
        write_picture(render.pieces_left_svg(game, palette=palette), pieces_path)
        click.echo(f"wrote {pieces_path}")
