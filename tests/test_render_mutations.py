"""Pictures checked against facts found without the renderer: each cell's triangle from the board
geometry of conventions.md (x half edges from the left, y rows from the top, up and down cells
alternating), cell names from its notation, fills from the published Okabe-Ito set, scores from
the rulebook, outlines from the triangles' edges, and the text diagram from the same geometry.
(Added after a mutation round on render.py, Game.diagram / __str__ and ``trigon render``.)"""

import colorsys
import math
import string
import struct
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import trigon_fast as tf
from optional import require_png
from trigon_fast import cli, render

SVG = "{http://www.w3.org/2000/svg}"
COLOURS = ("blue", "yellow", "red", "green")  # turn order, colours 1..4
LETTERS = "BYRG"
# Okabe and Ito, "Color Universal Design" (2008): blue, yellow, vermillion, bluish green.
OKABE_ITO = ("#0072b2", "#f0e442", "#d55e00", "#009e73")
START_CELLS_9 = ("r15", "r4", "j12", "j7", "z12", "z7")
H = math.sqrt(3) / 2
TOL = 0.006  # points are written to 2 decimals


# -- geometry, from conventions.md ------------------------------------------------------------
def column(x):
    return string.ascii_lowercase[x] if x < 26 else "a" + string.ascii_lowercase[x - 26]


def lattice(side):
    """Cell name -> (x, y, up) for every cell of the side-``side`` board."""
    cells = {}
    for y in range(2 * side):
        m = side - 1 - min(y, 2 * side - 1 - y)
        for x in range(m, 4 * side - 1 - m):
            up = (x + y) % 2 == (0 if side == 9 else 1)
            cells[column(x) + str(2 * side - y)] = (x, y, up)
    return cells


def triangle(x, y, up, edge, ox=0.0, oy=0.0):
    """Corners of cell (x, y): it spans x/2 .. x/2 + 1 edges across and row y down."""
    left, mid, right = ox + x * edge / 2, ox + (x + 1) * edge / 2, ox + (x + 2) * edge / 2
    top, bottom = oy + y * edge * H, oy + (y + 1) * edge * H
    return [(mid, top), (left, bottom), (right, bottom)] if up else [(left, top), (right, top), (mid, bottom)]


def centroid(pts):
    return sum(p[0] for p in pts) / 3, sum(p[1] for p in pts) / 3


def snapper(ox, oy, edge):
    """Points to lattice corners: half edges across and rows down from (ox, oy)."""
    return lambda p: (round((p[0] - ox) / (edge / 2)), round((p[1] - oy) / (edge * H)))


def border(tris, key):
    """Unit edges used by one triangle only: the outline of a piece, as a sorted list."""
    count = {}
    for pts in tris:
        for i in range(3):
            e = tuple(sorted((key(pts[i]), key(pts[(i + 1) % 3]))))
            count[e] = count.get(e, 0) + 1
    return sorted(e for e, n in count.items() if n == 1)


def path_segments(d, key):
    """The segments of an 'Mx,yLx,y Mx,yLx,y ...' path, sorted."""
    segs = []
    for part in d.split("M")[1:]:
        a, b = part.strip().split("L")
        pa, pb = (tuple(float(v) for v in s.split(",")) for s in (a, b))
        segs.append(tuple(sorted((key(pa), key(pb)))))
    return sorted(segs)


# -- reading the SVG --------------------------------------------------------------------------
def points(el):
    return [tuple(float(v) for v in pt.split(",")) for pt in el.get("points").split()]


def cell_polygons(root):
    return {p.get("data-cell"): p for p in root.iter(SVG + "polygon") if "cell" in p.get("class", "").split()}


def origin(root, side, edge):
    """Where the board's (0, 0) lies in the picture: the offset of every cell from ``triangle``."""
    geo = lattice(side)
    name, poly = next(iter(cell_polygons(root).items()))
    expected, got = triangle(*geo[name], edge), points(poly)
    return min(p[0] for p in got) - min(p[0] for p in expected), min(p[1] for p in got) - min(p[1] for p in expected)


def texts_in(root, cls):
    return [t for g in root.iter(SVG + "g") if g.get("class") == cls for t in g.iter(SVG + "text")]


def luminance(fill):
    """Relative luminance (WCAG) of #rgb or #rrggbb."""
    h = fill.lstrip("#")
    if len(h) == 3:
        h = "".join(c * 2 for c in h)
    lin = [(v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4) for v in (int(h[i:i + 2], 16) / 255 for i in (0, 2, 4))]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def hsv(fill):
    return colorsys.rgb_to_hsv(*(int(fill[i:i + 2], 16) / 255 for i in (1, 3, 5)))


def hue(fill):
    return hsv(fill)[0] * 360


def saturation(fill):
    return hsv(fill)[1]


def first_moves(n, variant=tf.Variant.FOUR_PLAYER):
    """A game of ``n`` moves, each the first legal move in notation order."""
    g = tf.Game(variant)
    for _ in range(n):
        g.play(min(g.legal_moves, key=str))
    return g


# -- cells ------------------------------------------------------------------------------------
@pytest.mark.parametrize("variant,edge,coordinates", [
    (tf.Variant.FOUR_PLAYER, 24.0, True), (tf.Variant.FOUR_PLAYER, 10.0, False), (tf.Variant.THREE_PLAYER, 17.5, True)])
def test_every_cell_is_its_triangle_and_the_board_is_centred(variant, edge, coordinates):
    g = first_moves(3, variant)
    root = ET.fromstring(render.game_svg(g, cell=edge, coordinates=coordinates))
    side = g.variant.side
    geo = lattice(side)
    polys = cell_polygons(root)
    assert set(polys) == set(geo)
    ox, oy = origin(root, side, edge)
    for name, (x, y, up) in geo.items():
        got = sorted(points(polys[name]))
        for (gx, gy), (ex, ey) in zip(got, sorted(triangle(x, y, up, edge, ox, oy))):
            assert abs(gx - ex) < TOL and abs(gy - ey) < TOL, name
    width, height = float(root.get("width")), float(root.get("height"))
    assert root.get("viewBox") == f"0 0 {root.get('width')} {root.get('height')}"
    board_w, board_h = (4 * side - 1 + 1) * edge / 2, 2 * side * edge * H
    assert abs(ox - (width - ox - board_w)) < 0.02 and abs(oy - (height - oy - board_h)) < 0.02  # same margins


def test_cells_carry_their_colour_class_and_the_palettes_fill():
    g = first_moves(6)
    owner = {}
    for i, (_, m) in enumerate(g.history):
        for name in m.cells:
            owner[name] = i % 4  # blue, yellow, red, green, blue, yellow
    for palette, fills in [("colourblind", OKABE_ITO), ("colorblind", OKABE_ITO), ("cb", OKABE_ITO),
                           ("okabe-ito", OKABE_ITO), ("Colourblind", OKABE_ITO), ("COLORBLIND", OKABE_ITO),
                           ("default", None), ("Default", None)]:
        polys = cell_polygons(ET.fromstring(render.game_svg(g, palette=palette)))
        seen = {}
        for name, poly in polys.items():
            if name in owner:
                assert poly.get("class") == f"cell {COLOURS[owner[name]]}", (palette, name)
                seen.setdefault(owner[name], set()).add(poly.get("fill").lower())
            else:
                assert poly.get("class") == "cell empty"
        assert all(len(s) == 1 for s in seen.values()) and len(seen) == 4
        got = tuple(seen[c].pop() for c in range(4))
        if fills:
            assert got == fills, palette
        else:  # the default set: blue, yellow, red and green to the eye
            blue, yellow, red, green = (hue(f) for f in got)
            assert 200 <= blue <= 240 and 40 <= yellow <= 60 and (red <= 15 or red >= 345) and 100 <= green <= 150


@pytest.mark.parametrize("bad", ["neon", "okabe", ""])
def test_unknown_palette_is_named(bad):
    for draw in (lambda: render.game_svg(tf.Game(), palette=bad), lambda: render.pieces_left_svg(tf.Game(), palette=bad),
                 lambda: render.move_svg(tf.Move.from_str("r15"), palette=bad)):
        with pytest.raises(ValueError, match=f"palette '{bad}'"):
            draw()


# -- outlines and markers ---------------------------------------------------------------------
def test_outlines_are_the_borders_of_the_pieces_and_of_the_last_move():
    g = first_moves(5)
    edge = 24.0
    root = ET.fromstring(render.game_svg(g, cell=edge))
    geo = lattice(9)
    ox, oy = origin(root, 9, edge)

    def tris(move):
        return [triangle(*geo[n], edge, ox, oy) for n in move.cells]

    key = snapper(ox, oy, edge)
    last = [p for p in root.iter(SVG + "path") if p.get("class") == "last-move"]
    assert last and all(path_segments(p.get("d"), key) == border(tris(g.history[-1][1]), key) for p in last)
    pieces = [p for p in root.iter(SVG + "path") if p.get("class") == "pieces"]
    assert len(pieces) == 1
    assert path_segments(pieces[0].get("d"), key) == sorted(e for _, m in g.history for e in border(tris(m), key))


def test_start_cells_ringed_while_free_dotted_when_covered_and_give_way_to_labels():
    def markers(game, **kw):
        root = ET.fromstring(render.game_svg(game, cell=24, **kw))
        ox, oy = origin(root, 9, 24)
        geo = lattice(9)
        at = {}
        for circle in root.iter(SVG + "circle"):
            cx, cy = float(circle.get("cx")), float(circle.get("cy"))
            name = next(n for n in START_CELLS_9 if
                        math.dist((cx, cy), centroid(triangle(*geo[n], 24, ox, oy))) < TOL * 2)
            at[name] = circle.get("fill")
        return at

    g = tf.Game()
    assert markers(g) == {n: "none" for n in START_CELLS_9}
    g.play(next(m for m in sorted(g.legal_moves, key=str) if "r15" in m.cells))
    after = markers(g)
    assert set(after) == set(START_CELLS_9) and after["r15"] != "none"
    assert all(after[n] == "none" for n in START_CELLS_9 if n != "r15")
    assert set(markers(g, labels={"r15": "7"})) == set(START_CELLS_9) - {"r15"}  # the label sits there instead
    assert set(markers(g, labels={"r4": "7"})) == set(START_CELLS_9)  # a free one keeps its ring


# -- labels and move numbers ------------------------------------------------------------------
def test_labels_sit_on_their_cells_centroid_in_a_readable_colour():
    g = tf.Game()
    g.play(next(m for m in sorted(g.legal_moves, key=str) if "r15" in m.cells))  # blue
    g.play(next(m for m in sorted(g.legal_moves, key=str) if "r4" in m.cells))  # yellow
    blue_cell, yellow_cell = g.history[0][1].cells[0], g.history[1][1].cells[-1]
    labels = {blue_cell: "B", yellow_cell: "Y", "a9": "E", "s10": "d"}
    for palette in ("default", "colourblind"):
        root = ET.fromstring(render.game_svg(g, labels=labels, palette=palette, cell=30))
        ox, oy = origin(root, 9, 30)
        group = next(e for e in root.iter(SVG + "g") if e.get("class") == "labels")
        font = float(group.get("font-size"))
        texts = {t.text: t for t in group}
        assert sorted(texts) == sorted(labels.values())
        for name, text in labels.items():
            t = texts[text]
            cx, cy = centroid(triangle(*lattice(9)[name], 30, ox, oy))
            # Centred across; the baseline a little below the centroid so the letters straddle it.
            assert abs(float(t.get("x")) - cx) < TOL and cy < float(t.get("y")) < cy + font / 2
        assert luminance(texts["B"].get("fill")) > 0.5  # light on blue
        assert luminance(texts["Y"].get("fill")) < 0.2  # dark on yellow
        assert luminance(texts["E"].get("fill")) < 0.2 and luminance(texts["d"].get("fill")) < 0.2  # dark on the empty board


def test_label_values_and_cell_keys():
    g = tf.Game()
    b = g.board
    # Numbers to 2 decimals without trailing zeros, whole from 100 on; numpy's float32 alike.
    cases = {"a9": 0.5, "b9": 2.0, 5: 1.25, "c9": 1234.4, np.int64(7): "x&y", "r15": -3,
             "d9": np.float32(1 / 3), "e9": np.float32(250.7), "f9": np.float64(2 / 3)}
    root = ET.fromstring(render.game_svg(g, labels=cases))
    assert sorted(t.text for t in texts_in(root, "labels")) == \
        sorted(["0.5", "2", "1.25", "1234", "x&y", "-3", "0.33", "251", "0.67"])
    with pytest.raises(ValueError, match="True"):  # not cell 1
        render.game_svg(g, labels={True: 1})
    with pytest.raises(ValueError, match=str(b.num_cells)):
        render.game_svg(g, labels={b.num_cells: 1})
    with pytest.raises(ValueError, match="-1"):
        render.game_svg(g, labels={-1: 1})
    with pytest.raises(ValueError, match=r"3\.0"):
        render.game_svg(g, labels={3.0: 1})
    with pytest.raises(ValueError, match="'q99'"):
        render.game_svg(g, labels={"q99": 1})


def test_a_label_replaces_the_move_number_on_its_cell():
    g = first_moves(2)
    numbered = [t for t in texts_in(ET.fromstring(render.game_svg(g, move_numbers=True)), "labels")]
    assert sorted(t.text for t in numbered) == ["1", "2"]
    where = {t.text: (t.get("x"), t.get("y")) for t in numbered}
    root = ET.fromstring(render.game_svg(g, move_numbers=True, labels={c: "L" for c in g.history[0][1].cells}))
    texts = texts_in(root, "labels")
    assert sorted(t.text for t in texts) == ["2"] + ["L"] * 6
    assert not [t for t in texts if (t.get("x"), t.get("y")) == where["1"] and t.text != "L"]


def test_move_number_on_the_middle_of_a_straight_piece():
    g = tf.Game()
    geo = lattice(9)
    row_i3 = next(m for m in sorted(g.legal_moves, key=str)
                  if m.piece == "I3" and len({geo[n][1] for n in m.cells}) == 1)
    g.play(row_i3)
    middle = sorted(row_i3.cells, key=lambda n: geo[n][0])[1]
    root = ET.fromstring(render.game_svg(g, move_numbers=True, cell=24))
    ox, oy = origin(root, 9, 24)
    (text,) = texts_in(root, "labels")
    assert text.text == "1"
    assert abs(float(text.get("x")) - centroid(triangle(*geo[middle], 24, ox, oy))[0]) < TOL


def test_move_numbers_count_moves_not_setup_placements():
    g = tf.Game.from_blksgf("(;GM[Blokus Trigon]A1[q15,r15,p16,q16,o17,p17]A2[j12])")
    for _ in range(2):
        g.play(min(g.legal_moves, key=str))
    moves = [m for _, m in g.history[2:]]
    geo = lattice(9)
    root = ET.fromstring(render.game_svg(g, move_numbers=True, cell=24))
    ox, oy = origin(root, 9, 24)
    on = {}
    for t in texts_in(root, "labels"):
        at = (float(t.get("x")), float(t.get("y")))
        on[t.text] = [n for n in geo if abs(centroid(triangle(*geo[n], 24, ox, oy))[0] - at[0]) < TOL
                      and 0 < at[1] - centroid(triangle(*geo[n], 24, ox, oy))[1] < 24 * 0.3]
    assert sorted(on) == ["1", "2"]
    assert len(on["1"]) == 1 and on["1"][0] in moves[0].cells and len(on["2"]) == 1 and on["2"][0] in moves[1].cells


# -- highlight and candidates -----------------------------------------------------------------
def test_highlighted_cells_and_only_they_are_tinted():
    g = tf.Game()
    b = g.board
    names = ["a9", "r15", "s10"]
    mask = np.zeros(b.num_cells, dtype=bool)
    mask[[b.parse_cell(n) for n in names]] = True
    pictures = [render.game_svg(g, highlight=h) for h in (names, "a9, r15 ,s10", mask, mask.tolist(),
                                                          [b.parse_cell(n) for n in names])]
    assert len(set(pictures)) == 1
    polys = cell_polygons(ET.fromstring(pictures[0]))
    plain = {p.get("fill") for n, p in polys.items() if n not in names}
    tinted = {polys[n].get("fill") for n in names}
    assert len(plain) == 1 and len(tinted) == 1
    (plain_fill,), (tinted_fill,) = plain, tinted
    assert saturation(tinted_fill) > saturation(plain_fill) + 0.05  # a tint that stands out from the board
    assert {p.get("fill") for p in cell_polygons(ET.fromstring(render.game_svg(g))).values()} == plain
    for short in (np.ones(10, dtype=bool), [True] * 10):  # a list of bools is a mask too, not cells 0 and 1
        with pytest.raises(ValueError, match=r"\(10,\)"):
            render.game_svg(g, highlight=short)


def test_candidates_are_drawn_in_the_colour_to_move():
    g = first_moves(1)  # yellow to move
    cands = sorted(g.legal_moves, key=str)[:2]
    root = ET.fromstring(render.game_svg(g, candidates=cands, palette="colourblind"))
    ghosts = [p for e in root.iter(SVG + "g") if e.get("class") == "candidate" for p in e.iter(SVG + "polygon")]
    assert len(ghosts) == sum(m.size for m in cands) and {p.get("fill") for p in ghosts} == {OKABE_ITO[1]}


# -- a move, the pieces left, a solution ------------------------------------------------------
def test_move_picture_blue_by_default_outlined_in_the_palette_asked():
    m = tf.Move.from_str("q15,r15,p16,q16,o17,p17")
    for svg, fill, edge in [(render.move_svg(m), None, 14.0), (m._repr_svg_(), None, 14.0),
                            (render.move_svg(m, palette="colourblind", cell=20), OKABE_ITO[0], 20.0)]:
        root = ET.fromstring(svg)
        polys = cell_polygons(root)
        coloured = {n for n, p in polys.items() if p.get("class") != "cell empty"}
        assert coloured == set(m.cells) and {polys[n].get("class") for n in coloured} == {"cell blue"}
        if fill:
            assert {polys[n].get("fill") for n in coloured} == {fill}
        x0, y0 = points(polys["a9"])[0], points(polys["a9"])[1]
        assert abs(math.dist(x0, y0) - edge) < TOL * 2  # the default edge: 14 pixels for a move
        ox, oy = origin(root, 9, edge)
        last = [p for p in root.iter(SVG + "path") if p.get("class") == "last-move"]
        key = snapper(ox, oy, edge)
        assert last and path_segments(last[0].get("d"), key) == \
            border([triangle(*lattice(9)[n], edge, ox, oy) for n in m.cells], key)


def test_pieces_left_rows_scores_fills_and_shapes():
    g = first_moves(5, tf.Variant.THREE_PLAYER)
    edge = 12.0
    geo, b = lattice(8), g.board
    root = ET.fromstring(render.pieces_left_svg(g, palette="colourblind", cell=edge))
    width, height = float(root.get("width")), float(root.get("height"))
    rows = [e for e in root.iter(SVG + "g") if e.get("class", "").startswith("pieces ")]
    assert [e.get("class") for e in rows] == ["pieces blue", "pieces yellow", "pieces red"]
    bands = []
    for c, row in enumerate(rows):
        left = g.pieces_left(c)
        score = -sum(tf.PIECE_SIZES[tf.PIECE_NAMES.index(p)] for p in left)  # the rulebook's, nobody done
        title = next(t for t in row if t.tag == SVG + "text")
        assert title.text == f"{COLOURS[c]} {score}"
        ys = []
        for piece in (e for e in row if e.get("class") in ("piece left", "piece placed")):
            name = piece.get("data-piece")
            tris = [points(p) for p in piece.iter(SVG + "polygon")]
            fills = {p.get("fill") for p in piece.iter(SVG + "polygon")}
            assert fills == ({OKABE_ITO[c]} if name in left else {"none"})
            for pts in tris:
                assert all(0 <= x <= width and 0 <= y <= height for x, y in pts)
                assert all(abs(math.dist(pts[i], pts[(i + 1) % 3]) - edge) < TOL * 2 for i in range(3))
                ys += [y for _, y in pts]
            # The same shape as the piece on the board: as many shared edges and corners.
            pl = next(k for k in range(b.num_placements) if b.placement_piece(k) == tf.PIECE_NAMES.index(name))
            board_tris = [triangle(*geo[b.cell_name(c)], edge) for c in b.placement_cells(pl)]
            assert shape_signature(tris, edge) == shape_signature(board_tris, edge), name
        bands.append((min(ys), max(ys)))
    assert all(a[1] < b[0] for a, b in zip(bands, bands[1:]))  # rows one under the other


def shape_signature(tris, edge):
    """Triangles, distinct corners and edges shared by two triangles: equal for congruent pieces."""
    key = snapper(min(p[0] for pts in tris for p in pts), min(p[1] for pts in tris for p in pts), edge)
    corners = {key(p) for pts in tris for p in pts}
    edges = {}
    for pts in tris:
        for i in range(3):
            e = tuple(sorted((key(pts[i]), key(pts[(i + 1) % 3]))))
            edges[e] = edges.get(e, 0) + 1
    return len({tuple(sorted(map(key, pts))) for pts in tris}), len(corners), sum(n == 2 for n in edges.values())


class FakeSolution:  # what solution_svg reads of a solver Solution
    def __init__(self, game, complete):
        self.game, self.complete = game, complete


def test_solution_picture_numbers_the_moves_and_captions_the_rulebook_score():
    g = first_moves(7, tf.Variant.SOLO)
    total = sum(-sum(tf.PIECE_SIZES[tf.PIECE_NAMES.index(p)] for p in g.pieces_left(c)) for c in range(4))
    for complete, word in ((False, "incomplete"), (True, "complete")):
        root = ET.fromstring(render.solution_svg(FakeSolution(g, complete)))
        assert sorted(int(t.text) for t in texts_in(root, "labels")) == list(range(1, 8))
        (caption,) = [t for t in root.iter(SVG + "text") if t.get("class") == "caption"]
        assert caption.text == f"solo puzzle, {word}: score {total:+d}"
        assert not [p for p in root.iter(SVG + "path") if p.get("class") == "last-move"]
    root = ET.fromstring(render.solution_svg(FakeSolution(g, True), caption="mine", move_numbers=False))
    assert [t.text for t in root.iter(SVG + "text") if t.get("class") == "caption"] == ["mine"]
    assert not texts_in(root, "labels")


# -- coordinates and caption ------------------------------------------------------------------
@pytest.mark.parametrize("edge", [24.0, 10.0])
def test_coordinates_name_the_columns_and_rows_where_they_are(edge):
    g = tf.Game()
    geo = lattice(9)
    root = ET.fromstring(render.game_svg(g, cell=edge, caption="a <caption> & more"))
    ox, oy = origin(root, 9, edge)
    group = next(e for e in root.iter(SVG + "g") if e.get("class") == "coordinates")
    texts = list(group)
    columns = [t for t in texts if t.text.isalpha()]
    rows = [t for t in texts if t.text.isdigit()]
    shown = {t.text for t in columns}
    if edge >= 20:
        assert shown == {column(x) for x in range(35)}
    else:  # every other column, keeping those of the start cells
        assert {n.rstrip(string.digits) for n in START_CELLS_9} <= shown and len(shown) < 35
    for t in columns:
        x = next(i for i in range(35) if column(i) == t.text)
        assert abs(float(t.get("x")) - (ox + (x + 1) * edge / 2)) < TOL  # the middle of that column's cells
    assert sorted(int(t.text) for t in rows) == sorted(list(range(1, 19)) * 2)
    for t in rows:
        y = 18 - int(t.text)
        cells = [(n, v) for n, v in geo.items() if v[1] == y]
        middle = oy + (y + 0.5) * edge * H  # the baseline a little below the row's middle: centred on it
        assert middle < float(t.get("y")) < middle + float(group.get("font-size")) / 2
        xs = [p[0] for _, v in cells for p in triangle(*v, edge, ox, oy)]
        if t.get("text-anchor") == "end":
            assert float(t.get("x")) <= min(xs)
        else:
            assert t.get("text-anchor") == "start" and float(t.get("x")) >= max(xs)
    (caption,) = [t for t in root.iter(SVG + "text") if t.get("class") == "caption"]
    assert caption.text == "a <caption> & more"
    lowest = max(float(t.get("y")) for t in texts)
    assert lowest <= float(caption.get("y")) - float(caption.get("font-size")) and \
        float(caption.get("y")) <= float(root.get("height"))


# -- files ------------------------------------------------------------------------------------
def test_write_svg_is_utf8_and_write_png_doubles_by_default(tmp_path):
    svg = render.game_svg(tf.Game(), cell=8, caption="Trigon – café")
    render.write_svg(svg, tmp_path / "b.svg")
    assert (tmp_path / "b.svg").read_bytes().decode("utf-8") == svg
    require_png()
    render.write_png(svg, tmp_path / "b.png")
    width, height = struct.unpack(">II", (tmp_path / "b.png").read_bytes()[16:24])
    root = ET.fromstring(svg)
    assert (width, height) == (round(2 * float(root.get("width"))), round(2 * float(root.get("height"))))


# -- the text diagram ------------------------------------------------------------------------
def expected_rows(game, side):
    """Row lines of the diagram (without the row numbers), '?' where a start cell may show + or ."""
    geo = lattice(side)
    grid = [[" "] * (4 * side - 1) for _ in range(2 * side)]
    for x, y, _ in geo.values():
        grid[y][x] = "."
    for n in (START_CELLS_9 if side == 9 else ()):
        x, y, _ = geo[n]
        grid[y][x] = "?"
    last = game.history[-1][1] if game.history else None
    for i, (_, m) in enumerate(game.history):
        for n in m.cells:
            x, y, _ = geo[n]
            grid[y][x] = LETTERS[i % 4].lower() if m is last else LETTERS[i % 4]
    return ["".join(r).rstrip() for r in grid]


def matches(line, pattern):
    return len(line) == len(pattern) and all(p == "?" and ch in "+." or p == ch for ch, p in zip(line, pattern))


def test_diagram_shows_each_cell_letter_where_it_is():
    g = first_moves(5)  # blue, yellow, red, green, then blue again: the last move in lower case
    want = expected_rows(g, 9)
    lines = g.diagram().splitlines()
    assert len(lines) == 18 + 2
    for y, (line, pattern) in enumerate(zip(lines, want)):
        assert line[:3] == f"{18 - y:2d} " and matches(line[3:], pattern), (line, pattern)
    assert lines[18] == "   " + " " * 26 + "a" * 9
    assert lines[19] == "   " + string.ascii_lowercase + string.ascii_lowercase[:9]
    bare = g.diagram(labels=False).splitlines()
    assert len(bare) == 18 and all(matches(line, pattern) for line, pattern in zip(bare, want))


def test_str_has_each_colours_rulebook_score_and_pieces_left():
    g = first_moves(3)
    lines = str(g).splitlines()
    assert lines[:20] == g.diagram().splitlines()
    for c, line in enumerate(lines[20:24]):
        left = [p for p in tf.PIECE_NAMES if p not in {m.piece for colour, m in g.history if int(colour) == c}]
        score = -sum(tf.PIECE_SIZES[tf.PIECE_NAMES.index(p)] for p in left)
        assert line.split() == [COLOURS[c], "score", str(score), "left:"] + left
    assert lines[24:] == ["to move: green"]
    assert str(tf.random_game(tf.Variant.TWO_PLAYER, seed=3)).splitlines()[-1] == "game over"
    # A colour with every piece down (set up, the rule not checked): nothing left, written "-".
    b = g.board
    used, cells = set(), {}
    for pl in range(b.num_placements):
        p = b.placement_piece(pl)
        if p not in cells and not used & set(b.placement_cells(pl)):
            cells[p] = [b.cell_name(c) for c in b.placement_cells(pl)]
            used |= set(b.placement_cells(pl))
    full = tf.Game.from_blksgf("(;GM[Blokus Trigon]A1" + "".join(f"[{','.join(v)}]" for v in cells.values()) + ")")
    assert str(full).splitlines()[20].endswith("left: -")


# -- trigon render ----------------------------------------------------------------------------
def test_render_command_passes_palette_cell_and_move_numbers(tmp_path):
    from click.testing import CliRunner

    g = first_moves(4)
    rec = tmp_path / "g.blksgf"
    rec.write_text(g.to_blksgf())
    svg, pieces = tmp_path / "b.svg", tmp_path / "p.svg"
    r = CliRunner().invoke(cli.main, ["render", str(rec), "--svg", str(svg), "--pieces", str(pieces),
                                      "--palette", "colorblind", "--cell", "10", "--move", "3"])
    assert r.exit_code == 0, r.output
    root = ET.fromstring(svg.read_text())
    polys = cell_polygons(root)
    assert {p.get("fill") for p in polys.values() if p.get("class") != "cell empty"} == set(OKABE_ITO[:3])
    a, b_ = points(polys["a9"])[:2]
    assert abs(math.dist(a, b_) - 10) < TOL * 2
    assert not texts_in(root, "labels")  # no move numbers unless asked
    left_fills = {p.get("fill") for e in ET.fromstring(pieces.read_text()).iter(SVG + "g")
                  if e.get("class") == "piece left" for p in e.iter(SVG + "polygon")}
    assert left_fills == set(OKABE_ITO)
    require_png()
    r = CliRunner().invoke(cli.main, ["render", str(rec), "--png", str(tmp_path / "a.png"), "--svg", str(tmp_path / "b.png")])
    assert r.exit_code == 0, r.output
    sizes = [struct.unpack(">II", (tmp_path / n).read_bytes()[16:24]) for n in ("a.png", "b.png")]
    assert sizes[0] == sizes[1]  # --png as --svg with a .png name
