"""The atlas's pictures (issue 35, item 3): hand maps (PNG/SVG) and the ante-shift page (PDF).

References: each structure's certified intervals and each ante path's (what the maps must draw,
counted item by item), and the thresholds' own exact roots for the differences of the shift page.
"""

from __future__ import annotations

import io
import math
import xml.etree.ElementTree as ET

import pytest

from sflp.core.game import GameConfig
from sflp.errors import ConfigError
from sflp.report.atlas_plots import _ANTE_EDGE, _EDGE, ante_shift, hand_maps_drawing
from sflp.report.draw import Dot, Rect, pdf_bytes, png_bytes, svg_bytes
from sflp.solving.thresholds import compute_thresholds

ANTES = (0.0, 0.1, 0.125)


@pytest.fixture(scope="module")
def atlas():
    structures = [(f"ante {a:g}", compute_thresholds(GameConfig(stack=10, ante=a), 1 + a, 20)) for a in ANTES]
    lines = [compute_thresholds(GameConfig(stack=s), 0, 0.125, along="ante") for s in (4.0, 9.0)]
    return structures, lines


def test_hand_maps_draw_every_interval_and_every_exact_boundary_point(atlas):
    structures, lines = atlas
    hands = ["T3s", "K5o"]
    d = hand_maps_drawing(structures, lines, hands)
    squares = sum(isinstance(i, Rect) and i.fill == _EDGE for i in d.items)
    dots = sum(isinstance(i, Dot) and i.fill == _ANTE_EDGE for i in d.items)
    want_squares = sum(1 for h in hands for p in ("sb", "bb") for _, t in structures
                       for a, b in t.get(p, h).intervals for e in (a, b) if t.low + 1e-9 < e < 20 - 1e-9)
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
