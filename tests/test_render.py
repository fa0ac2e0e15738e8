"""Pictures: SVG structure checked against the rules core (one polygon per cell, colours from
the occupancy, triangles that touch exactly where the core's cells share edges)."""

import struct
import sys
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import trigon_fast as tf
from endgames import partial_game
from optional import require_png
from trigon_fast import render

SVG = "{http://www.w3.org/2000/svg}"
COLOURS = ("blue", "yellow", "red", "green")


def cell_polygons(svg):
    root = ET.fromstring(svg)  # raises on malformed XML
    return [p for p in root.iter(SVG + "polygon") if "cell" in p.get("class", "").split()]


def points(poly):
    return [tuple(float(v) for v in pt.split(",")) for pt in poly.get("points").split()]


@pytest.mark.parametrize("variant,seed,keep", [
    (tf.Variant.FOUR_PLAYER, 1, 30),
    (tf.Variant.THREE_PLAYER, 2, 1000),
    (tf.Variant.TWO_PLAYER, 3, 17),
    (tf.Variant.solo(colours=(0, 2)), 4, 12),
])
def test_one_polygon_per_cell_coloured_as_the_core_says(variant, seed, keep):
    g = partial_game(variant, seed, keep)
    polys = cell_polygons(render.game_svg(g))
    b = g.board
    assert len(polys) == b.num_cells
    occ = g.occupancy()
    by_name = {p.get("data-cell"): p for p in polys}
    assert len(by_name) == b.num_cells
    for c in range(b.num_cells):
        cls = by_name[b.cell_name(c)].get("class").split()[1]
        assert cls == ("empty" if occ[c] < 0 else COLOURS[occ[c]])
    occupied = [p for p in polys if p.get("class") != "cell empty"]
    assert len(occupied) == int((occ >= 0).sum()) > 0


@pytest.mark.parametrize("side", [9, 8])
def test_triangles_share_an_edge_exactly_where_cells_are_edge_neighbours(side):
    g = tf.Game(tf.Variant.THREE_PLAYER if side == 8 else tf.Variant.FOUR_PLAYER)
    b = g.board
    pts = {p.get("data-cell"): {(round(x, 1), round(y, 1)) for x, y in points(p)}
           for p in cell_polygons(render.game_svg(g, coordinates=False))}
    for c in range(0, b.num_cells, 7):
        mine = pts[b.cell_name(c)]
        edge_nbrs = {b.cell_name(n) for n in b.edge_neighbours(c)}
        vertex_nbrs = {b.cell_name(n) for n in b.vertex_neighbours(c)}
        for name, other in pts.items():
            shared = len(mine & other)
            if name in edge_nbrs:
                assert shared == 2, (b.cell_name(c), name)
            elif name in vertex_nbrs:
                assert shared == 1, (b.cell_name(c), name)
            elif name != b.cell_name(c):
                assert shared == 0, (b.cell_name(c), name)


def test_up_cells_point_up():
    g = tf.Game()
    b = g.board
    for p in cell_polygons(render.game_svg(g)):
        c = b.parse_cell(p.get("data-cell"))
        ys = sorted(y for _, y in points(p))
        apex_on_top = ys[0] < ys[1]  # one point above the other two: pointing up
        assert apex_on_top == b.is_up(c)


def test_last_move_outlined_start_cells_and_coordinates():
    g = tf.Game()
    root = ET.fromstring(render.game_svg(g))
    assert not [e for e in root.iter(SVG + "path") if e.get("class") == "last-move"]
    assert len(list(root.iter(SVG + "circle"))) == 6  # the six start cells
    g.play("q15,r15,p16,q16,o17,p17")
    root = ET.fromstring(render.game_svg(g))
    outline = [e for e in root.iter(SVG + "path") if e.get("class") == "last-move"]
    assert outline and outline[0].get("d").count("M") == 8  # the I6 border: 8 unit edges
    texts = [t.text for t in root.iter(SVG + "text")]
    assert "a" in texts and "ai" in texts and "1" in texts and "18" in texts
    root = ET.fromstring(render.game_svg(g, last_move=False, coordinates=False))
    assert not [e for e in root.iter(SVG + "path") if e.get("class") == "last-move"]
    assert not [e for e in root.iter(SVG + "text")]


def test_labels_and_move_numbers():
    g = partial_game(tf.Variant.FOUR_PLAYER, 5, 9)
    root = ET.fromstring(render.game_svg(g, move_numbers=True, labels={"a9": 0.25, 3: "x<y"}))
    labels = [t.text for g_ in root.iter(SVG + "g") if g_.get("class") == "labels" for t in g_]
    assert sorted(labels) == sorted([str(i) for i in range(1, 10)] + ["0.25", "x<y"])
    with pytest.raises(ValueError, match="zz99"):
        render.game_svg(g, labels={"zz99": 1})


def test_palettes():
    g = partial_game(tf.Variant.FOUR_PLAYER, 6, 8)
    for name, fills in render.PALETTES.items():
        svg = render.game_svg(g, palette=name)
        for colour, fill in zip(COLOURS, fills):
            polys = [p for p in cell_polygons(svg) if p.get("class") == f"cell {colour}"]
            assert polys and all(p.get("fill") == fill for p in polys)
    assert render.game_svg(g, palette="colorblind") == render.game_svg(g, palette="colourblind")
    assert len(set(render.PALETTES["colourblind"])) == 4
    with pytest.raises(ValueError, match="palette"):
        render.game_svg(g, palette="neon")


def test_move_svg_and_repr_svg():
    m = tf.Move.from_str("q15,r15,p16,q16,o17,p17")
    svg = render.move_svg(m, colour=2)
    polys = [p for p in cell_polygons(svg) if p.get("class") != "cell empty"]
    assert sorted(p.get("data-cell") for p in polys) == sorted(m.cells)
    assert all(p.get("class") == "cell red" for p in polys)
    assert str(m) in svg
    assert m._repr_svg_() == render.move_svg(m)
    g = tf.Game(moves=[m])
    assert g._repr_svg_() == render.game_svg(g)
    with pytest.raises(TypeError):
        render.move_svg("q15")


def test_pieces_left_svg():
    g = partial_game(tf.Variant.FOUR_PLAYER, 7, 20)
    root = ET.fromstring(render.pieces_left_svg(g))
    groups = [e for e in root.iter(SVG + "g") if e.get("class") in ("piece left", "piece placed")]
    assert len(groups) == 4 * 22
    left = sum(len(g.pieces_left(c)) for c in range(4))
    assert sum(e.get("class") == "piece left" for e in groups) == left
    # Each piece drawn with as many triangles as it has.
    for e in groups:
        assert len(list(e.iter(SVG + "polygon"))) == tf.PIECE_SIZES[tf.PIECE_NAMES.index(e.get("data-piece"))]


def test_solution_svg_uses_the_game():
    class FakeSolution:  # the solver's Solution exposes .game and .complete
        game = partial_game(tf.Variant.SOLO, 8, 10)
        complete = False

    svg = render.solution_svg(FakeSolution())
    assert "incomplete" in svg
    assert len([p for p in cell_polygons(svg) if p.get("class") != "cell empty"]) == \
        int((FakeSolution.game.occupancy() >= 0).sum())


def test_png_export():
    require_png()
    svg = render.game_svg(partial_game(tf.Variant.FOUR_PLAYER, 9, 10), cell=10)
    png = render.svg_to_png(svg, scale=2)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png[16:24])
    root = ET.fromstring(svg)
    assert (width, height) == (round(2 * float(root.get("width"))), round(2 * float(root.get("height"))))


def test_png_without_the_extra_names_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "cairosvg", None)  # import now raises ImportError
    with pytest.raises(ImportError, match=r"png extra: pip install '\.\[png\]'"):
        render.svg_to_png("<svg xmlns='http://www.w3.org/2000/svg'/>")


def test_candidate_moves_drawn_apart_from_the_cells():
    g = tf.Game()
    cands = list(g.legal_moves)[:3]
    svg = render.game_svg(g, candidates=cands)
    root = ET.fromstring(svg)
    groups = [e for e in root.iter(SVG + "g") if e.get("class") == "candidate"]
    assert [len([p for p in e.iter(SVG + "polygon")]) for e in groups] == [m.size for m in cands]
    assert all(p.get("fill") == render.PALETTES["default"][0] for e in groups for p in e.iter(SVG + "polygon"))
    assert len(cell_polygons(svg)) == g.board.num_cells  # still one cell polygon per cell
    with pytest.raises(ValueError, match="side-9"):
        render.game_svg(g, candidates=[tf.Move(0, side=8)])


@pytest.mark.parametrize("cell", [0, -3, float("nan"), float("inf"), "24", None, True])
def test_bad_cell_size_is_a_value_error(cell):
    g = tf.Game()
    with pytest.raises(ValueError, match="cell size"):
        render.game_svg(g, cell=cell)


def test_move_svg_colour_by_name_and_bad_colours():
    m = next(iter(tf.Game().legal_moves))
    assert render.move_svg(m, colour="red") == render.move_svg(m, colour=2)
    for bad in [4, -1, 1.5, "purple", None]:
        with pytest.raises(ValueError, match="colour"):
            render.move_svg(m, colour=bad)


@pytest.mark.parametrize("scale", [0, -1, float("nan"), "2"])
def test_bad_png_scale_is_a_value_error(scale):
    with pytest.raises(ValueError, match="scale"):
        render.svg_to_png(render.game_svg(tf.Game()), scale=scale)


def test_highlight_as_a_string_of_cells():
    g = tf.Game()
    assert render.game_svg(g, highlight="r15,q15") == render.game_svg(g, highlight=["r15", "q15"])
    with pytest.raises(ValueError, match="highlight 'zz99'"):
        render.game_svg(g, highlight="zz99")


def test_highlight_cells_are_names_or_integer_indices():
    # As labels' cells: a float is a mistake, not the cell it truncates to (2.7 drew cell 2), and
    # None is a ValueError naming the highlight, not int()'s TypeError.
    g = tf.Game()
    assert render.game_svg(g, highlight=[np.int16(2), "a9"]) == render.game_svg(g, highlight=[2, "a9"])
    for bad in ([2.7], ["a9", 3.0], [None], [True, 5]):
        with pytest.raises(ValueError, match="highlight .*a cell is a name or an index"):
            render.game_svg(g, highlight=bad)


def test_cell_size_has_an_upper_bound():
    with pytest.raises(ValueError, match="cell size"):
        render.game_svg(tf.Game(), cell=1e308)
