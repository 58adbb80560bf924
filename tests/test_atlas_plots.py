"""The atlas's pictures (issue 35, item 3): hand maps (PNG/SVG) and the ante-shift page (PDF).

References: each structure's certified intervals and each ante path's (what the maps must draw,
counted item by item), and the thresholds' own exact roots for the differences of the shift page.
"""

from __future__ import annotations

import io
import math
import xml.etree.ElementTree as ET

import pytest

from sflp.atlas.maps import ante_shift, hand_maps_drawing
from sflp.charts.media.draw import pdf_bytes, png_bytes, svg_bytes
from sflp.errors import ConfigError

ANTES = (0.0, 0.1, 0.125)


@pytest.fixture(scope="module")
def atlas(ante_atlas):
    """The structures of ANTES over 1 + ante to 25 bb and the ante paths at 3, 8 and 14 bb (conftest.py's,
    shared with tests/test_atlas_page.py: certified once a process)."""
    structures, _ = ante_atlas
    assert [t.config.ante for _, t in structures] == list(ANTES)
    return ante_atlas


SVG = "{http://www.w3.org/2000/svg}"


def _svg(drawing):
    return ET.fromstring(svg_bytes(drawing))


def _frames(root):
    """The maps' plot frames, in drawing order (hand by hand, SB then BB): ``(x0, y0, x1, y1)``."""
    return [tuple(float(r.get(k)) for k in ("x", "y")) + (float(r.get("x")) + float(r.get("width")),
                                                         float(r.get("y")) + float(r.get("height")))
            for r in root.iter(SVG + "rect") if r.get("stroke") == "#D0D7DE"]


def _rings(root, frame, fill):
    """The filled paths of colour ``fill`` inside ``frame``, as point lists (from the ``d`` attribute)."""
    out = []
    for path in root.iter(SVG + "path"):
        if path.get("fill") != "#" + fill:
            continue
        pts = [tuple(map(float, p.strip(" MLZ").split(","))) for p in path.get("d").rstrip(" Z").split(" L")]
        x0, y0, x1, y1 = frame
        if all(x0 - 0.01 <= x <= x1 + 0.01 and y0 - 0.01 <= y <= y1 + 0.01 for x, y in pts):
            out.append(pts)
    return out


def _distance(p, rings):
    """The distance from ``p`` to the nearest edge of any ring."""
    best = math.inf
    for ring in rings:
        for (ax, ay), (bx, by) in zip(ring, ring[1:] + ring[:1]):
            dx, dy = bx - ax, by - ay
            along = ((p[0] - ax) * dx + (p[1] - ay) * dy) / (dx * dx + dy * dy) if dx or dy else 0.0
            t = max(0.0, min(1.0, along))
            best = min(best, math.hypot(ax + t * dx - p[0], ay + t * dy - p[1]))
    return best


def test_hand_maps_are_filled_regions_through_every_exact_breakpoint(atlas):
    """Every stack threshold at a structure's ante and every ante threshold of an ante path lies on
    a filled region's edge within the SVG's resolution (0.01 pt), mapped back through the axes
    (stack: the frame's width spans the structures' stacks; ante: its height their antes); an ante
    threshold in a gap whose antes disagree is drawn as a dot instead.  No line crosses the plane."""
    from sflp.atlas.regions import breakpoints, hand_regions
    from sflp.charts.colors import FREQUENCY_FULL

    structures, lines = atlas
    hands = ["T3s", "K5o", "63s"]
    root = _svg(hand_maps_drawing(structures, lines, hands))
    frames = _frames(root)
    assert len(frames) == 2 * len(hands)
    low, high = min(t.low for _, t in structures), max(t.high for _, t in structures)
    checked = loose = 0
    for n, hand in enumerate(hands):
        for k, player in enumerate(("sb", "bb")):
            x0, y0, x1, y1 = frame = frames[2 * n + k]
            rings = _rings(root, frame, FREQUENCY_FULL[player])
            assert rings, (hand, player)
            dots = [(float(c.get("cx")), float(c.get("cy"))) for c in root.iter(SVG + "circle")]

            def xy(stack, ante, frame=frame):
                x0, y0, x1, y1 = frame
                return x0 + (stack - low) / (high - low) * (x1 - x0), y1 - ante / 0.125 * (y1 - y0)

            rows = [(t.config.ante, t.get(player, hand).intervals, t.low, t.high) for _, t in structures]
            paths = [(t.config.stack, t.get(player, hand).intervals, t.low, t.high) for t in lines]
            off = set(hand_regions([r[:2] for r in rows], paths).loose)
            for point in breakpoints(rows, paths):
                p = xy(*point)
                if point in off:
                    assert min(math.hypot(p[0] - a, p[1] - b) for a, b in dots) < 0.02, (hand, player, point)
                    loose += 1
                else:
                    assert _distance(p, rings) < 0.02, (hand, player, point)
                    checked += 1
    assert checked > 40 and loose > 0
    long_lines = [e for e in root.iter() if e.tag in (SVG + "polyline", SVG + "line")
                  and _length(e.get("points")) > 3]
    assert not long_lines  # no ante path and no per-stack line is drawn: only ticks


def _length(points):
    pts = [tuple(map(float, p.split(","))) for p in points.split()]
    return sum(math.dist(a, b) for a, b in zip(pts, pts[1:]))


class _Hand:
    def __init__(self, intervals):
        self.intervals = self.any_intervals = tuple(intervals)


class _Path:
    """A stand-in stack or ante path: ``hands`` maps (player, hand) to intervals; others play nothing."""

    def __init__(self, config, low, high, along, hands):
        self.config, self.low, self.high, self.along, self.hands = config, low, high, along, hands

    def get(self, player, hand):
        return _Hand(self.hands.get((player, hand), ()))


def _small(upper):
    """Structures at antes 0 and 0.1 over 5-8 bb, 72o pushed 5-6 bb at ante 0 and ``upper`` at 0.1,
    and an ante path at 6.5 bb on which it is pushed from ante 0.05."""
    from sflp.core.game import GameConfig

    s0 = _Path(GameConfig(stack=6, ante=0.0), 5.0, 8.0, "stack", {("sb", "72o"): [(5.0, 6.0)]})
    s1 = _Path(GameConfig(stack=6, ante=0.1), 5.0, 8.0, "stack", {("sb", "72o"): upper})
    line = _Path(GameConfig(stack=6.5), 0.0, 0.1, "ante", {("sb", "72o"): [(0.05, 0.1)]})
    return [("ante 0", s0), ("ante 0.1", s1)], [line]


def test_a_boundary_is_joined_through_the_ante_threshold_between_two_antes():
    from sflp.atlas.regions import hand_regions

    regions = hand_regions([(0.0, [(5.0, 6.0)]), (0.1, [(5.0, 7.0)])], [(6.5, [(0.05, 0.1)], 0.0, 0.1)])
    assert regions.polygons == [[(5.0, 0.0), (5.0, 0.1), (7.0, 0.1), (6.5, 0.05), (6.0, 0.0)]]
    assert not regions.disagree and not regions.loose


def test_the_map_fits_the_stacks_and_carries_its_legend():
    from sflp.charts.colors import FREQUENCY_FULL

    drawing = hand_maps_drawing(*_small([(5.0, 7.0)]), ["72o"])
    root = _svg(drawing)
    texts = {}
    for e in root.iter(SVG + "text"):  # the first map's (SB's) tick labels
        texts.setdefault(e.text, e)
    words = " ".join(texts)
    assert "SB push: played (frequency > 0.5)" in words and "played sometimes (> 0)" in words
    assert "\u2260" not in words
    x0, y0, x1, y1 = frame = _frames(root)[0]
    assert math.isclose(float(texts["5"].get("x")), x0, abs_tol=0.01)  # the x axis spans 5-8 bb, not 1-25
    assert math.isclose(float(texts["8"].get("x")), x1, abs_tol=0.01) and "25" not in texts
    (ring,) = _rings(root, frame, FREQUENCY_FULL["sb"])
    want = [(5, 0), (5, 0.1), (7, 0.1), (6.5, 0.05), (6, 0)]
    assert ring == [(round(x0 + (s - 5) / 3 * (x1 - x0), 2), round(y1 - a / 0.1 * (y1 - y0), 2)) for s, a in want]
    from PIL import Image

    with Image.open(io.BytesIO(png_bytes(drawing, dpi=72))) as img:  # the PNG fills the same region
        inside = img.getpixel((round(x0 + (5.5 - 5) / 3 * (x1 - x0)), round((y0 + y1) / 2)))
        outside = img.getpixel((round(x0 + (7.5 - 5) / 3 * (x1 - x0)), round((y0 + y1) / 2)))
    assert inside == tuple(int(FREQUENCY_FULL["sb"][i:i + 2], 16) for i in (0, 2, 4)) and outside == (255, 255, 255)
    assert pdf_bytes(drawing).startswith(b"%PDF")


def test_antes_that_disagree_are_drawn_as_steps_and_marked():
    """Two stretches at ante 0.1 against one at 0: not joined, the gap marked, its ante threshold a dot."""
    from sflp.atlas.regions import hand_regions

    regions = hand_regions([(0.0, [(5.0, 6.0)]), (0.1, [(5.0, 5.5), (6.0, 7.0)])], [(6.5, [(0.05, 0.1)], 0.0, 0.1)])
    assert regions.disagree == [(0.0, 0.1)] and regions.loose == [(6.5, 0.05)]
    assert sorted(regions.polygons) == sorted([[(5.0, 0.0), (6.0, 0.0), (6.0, 0.05), (5.0, 0.05)],
                                               [(5.0, 0.05), (5.5, 0.05), (5.5, 0.1), (5.0, 0.1)],
                                               [(6.0, 0.05), (7.0, 0.05), (7.0, 0.1), (6.0, 0.1)]])
    root = _svg(hand_maps_drawing(*_small([(5.0, 5.5), (6.0, 7.0)]), ["72o"]))
    words = " ".join(e.text for e in root.iter(SVG + "text"))
    assert words.count("\u2260") == 2 and "different numbers of played stretches" in words
    assert len(list(root.iter(SVG + "circle"))) == 1


def test_hand_maps_refuse_unknown_hands(atlas):
    with pytest.raises(ConfigError, match="T1s"):
        hand_maps_drawing(*atlas, ["T1s"])


def test_the_ante_shift_page_gives_the_exact_differences(atlas):
    structures, _ = atlas
    drawing, frame = ante_shift(structures[0], structures[2])
    rows = {(r.player, r.hand): r for r in frame.itertuples(index=False)}
    for player, hand in (("sb", "65o"), ("bb", "K9o"), ("sb", "72o"), ("bb", "Q2s")):
        a, b = (t.get(player, hand) for _, t in (structures[0], structures[2]))
        if a.capped or b.capped or a.max_stack is None or b.max_stack is None:
            continue
        want = round(b.max_stack, 6) - round(a.max_stack, 6)
        assert math.isclose(rows[(player, hand)].difference, want, abs_tol=1e-9), (player, hand)
    pdf = pdf_bytes(drawing)
    assert pdf.startswith(b"%PDF") and b"ante_shift.csv" not in pdf[:10]


def test_an_atlas_folder_carries_the_page_and_pictures_of_its_own_tables(tmp_path):
    """The page's cells are thresholds.parquet's chart labels (as sflp chart's thresholds.csv
    prints them), and ante_shift.csv's differences are those of its max_stack column."""
    import csv
    import json
    import re

    import pandas as pd

    from sflp.atlas.jobs import atlas_jobs
    from sflp.atlas.read import read_atlas
    from sflp.atlas.write import write_atlas

    jobs = atlas_jobs([(0.5, 1.0, 0.0, 0.0), (0.5, 1.0, 0.125, 0.0)], [5 + k / 2 for k in range(7)],
                      ante_stacks=(6, 7))
    out = tmp_path / "atlas"
    write_atlas(jobs, out, workers=0, hands=("T3s",))
    names = {p.name for p in out.iterdir()}
    assert {"atlas.html", "hand_maps.png", "hand_maps.svg", "ante_shift.pdf", "ante_shift.csv"} <= names
    atlas = read_atlas(out)  # the manifest lists them: the folder still reads back
    frame = atlas.thresholds
    blob = re.search(r'<script type="application/json" id="atlas-data">(.*?)</script>',
                     (out / "atlas.html").read_text(encoding="utf-8"), re.S)[1]
    data = json.loads(blob)
    assert data["axis"] == "ante" and [line["stack"] for line in data["lines"]] == [6.0, 7.0]
    from sflp.core.cards import CLASS_NAMES

    for k, ante in enumerate((0.0, 0.125)):
        rows = frame[frame["ante"] == ante].set_index(["player", "hand"])["chart_label"]
        for player in ("sb", "bb"):
            cells = data["structures"][k]["cells"][player]
            assert [c[0] + c[1] for c in cells] == [rows[(player, h)] for h in CLASS_NAMES]
    tops = frame.set_index(["ante", "player", "hand"])
    shift = list(csv.DictReader((out / "ante_shift.csv").open(encoding="utf-8")))
    checked = 0
    for r in shift:
        a, b = (tops.loc[(ante, r["player"], r["hand"])] for ante in (0.0, 0.125))
        if a["capped"] or b["capped"] or pd.isna(a["max_stack"]) or pd.isna(b["max_stack"]):
            continue
        assert math.isclose(float(r["difference"]), b["max_stack"] - a["max_stack"], abs_tol=1e-9), r
        checked += 1
    assert checked > 10


def test_structures_that_differ_in_more_than_the_ante_are_rows_not_joined():
    from sflp.charts.colors import FREQUENCY_FULL
    from sflp.core.game import GameConfig

    s0 = _small([(5.0, 7.0)])[0][0][1]
    s1 = _Path(GameConfig(stack=6, ante=0.1, bb_ante=0.5), 5.0, 8.0, "stack", {("sb", "72o"): [(6.0, 7.0)]})
    root = _svg(hand_maps_drawing([("a", s0), ("b", s1)], [], ["72o"]))
    words = " ".join(e.text for e in root.iter(SVG + "text"))
    assert "not joined" in words and "Rows: 1 a, 2 b." in words
    x0, y0, x1, y1 = frame = _frames(root)[0]
    rings = sorted(_rings(root, frame, FREQUENCY_FULL["sb"]), key=lambda r: -r[0][1])
    assert [(r[0][0], r[1][0]) for r in rings] == [(x0, round(x0 + (x1 - x0) / 3, 2)),
                                                  (round(x0 + (x1 - x0) / 3, 2), round(x0 + 2 * (x1 - x0) / 3, 2))]
    assert all(max(y for _, y in r) - min(y for _, y in r) < (y1 - y0) / 2 for r in rings)  # one row each


def test_stretches_that_agree_across_several_antes_are_one_polygon():
    """No seam at an ante between two agreeing gaps; a disagreeing gap ends the polygon."""
    from sflp.atlas.regions import hand_regions

    rows = [(0.0, [(1.0, 2.0)]), (0.1, [(1.0, 3.0)]), (0.2, [(1.0, 4.0)]), (0.3, [(1.0, 2.0), (3.0, 4.0)])]
    regions = hand_regions(rows, [(3.5, [(0.0, 0.15)], 0.0, 0.3)])
    assert regions.polygons[0] == [(1.0, 0.0), (1.0, 0.1), (1.0, 0.2), (4.0, 0.2), (3.5, 0.15), (3.0, 0.1), (2.0, 0.0)]
    assert regions.disagree == [(0.2, 0.3)] and len(regions.polygons) == 4
