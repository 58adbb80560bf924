"""The atlas's pictures (issue 35, item 3): hand maps (PNG/SVG) and the ante-shift page (PDF).

References: each structure's certified intervals and each ante path's (what the maps must draw,
counted item by item), and the thresholds' own exact roots for the differences of the shift page.
"""

from __future__ import annotations

import io
import math
import xml.etree.ElementTree as ET

import pytest

from sflp.atlas.maps import _ANTE_EDGE, _EDGE, ante_shift, hand_maps_drawing
from sflp.charts.media.draw import Dot, Rect, pdf_bytes, png_bytes, svg_bytes
from sflp.errors import ConfigError

ANTES = (0.0, 0.1, 0.125)


@pytest.fixture(scope="module")
def atlas(ante_atlas):
    """The structures of ANTES over 1 + ante to 25 bb and the ante paths at 3, 8 and 14 bb (conftest.py's,
    shared with tests/test_atlas_page.py: certified once a process)."""
    structures, _ = ante_atlas
    assert [t.config.ante for _, t in structures] == list(ANTES)
    return ante_atlas


def test_hand_maps_draw_every_interval_and_every_exact_boundary_point(atlas):
    structures, lines = atlas
    hands = ["T3s", "K5o"]
    d = hand_maps_drawing(structures, lines, hands)
    squares = sum(isinstance(i, Rect) and i.fill == _EDGE for i in d.items)
    dots = sum(isinstance(i, Dot) and i.fill == _ANTE_EDGE for i in d.items)
    want_squares = sum(1 for h in hands for p in ("sb", "bb") for _, t in structures
                       for a, b in t.get(p, h).intervals for e in (a, b) if t.low + 1e-9 < e < t.high - 1e-9)
    want_dots = sum(1 for h in hands for p in ("sb", "bb") for line in lines
                    for iv in line.get(p, h).intervals for e in iv if 1e-9 < e < 0.125 - 1e-9)
    assert squares == want_squares and dots == want_dots and dots > 0
    ET.fromstring(svg_bytes(d))  # well-formed SVG
    from PIL import Image

    with Image.open(io.BytesIO(png_bytes(d))) as img:
        assert img.size[0] > 500


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
