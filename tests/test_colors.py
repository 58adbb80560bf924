"""The colour scales (sflp.charts.colors) are colour-blind safe and readable.

Colour-vision deficiencies are simulated with colorspacious (Machado, Oliveira & Fernandes,
"A physiologically-based model for simulation of color vision deficiency", IEEE TVCG 2009) at
full severity, and colours compared by their distance in CAM02-UCS (Luo, Cui & Li 2006), where
about 1 unit is a just-noticeable difference.  Text contrast follows WCAG 2.1's ratio (4.5:1 for
normal text, success criterion 1.4.3).
"""

from __future__ import annotations

import math

import pytest

from sflp.charts import colors
from sflp.charts.colors import EV_NEGATIVE, EV_POSITIVE, contrast, ev_colour, frequency_colour, text_colour
from sflp.charts.scale import chart_scale

cs = pytest.importorskip("colorspacious", reason="colorspacious (in the test extra) simulates colour-blind vision")

VIEWERS = {"normal vision": None,
           **{kind: {"name": "sRGB1+CVD", "cvd_type": kind, "severity": 100}
              for kind in ("deuteranomaly", "protanomaly", "tritanomaly")}}


def _seen(colour: str, viewer):
    rgb = [int(colour[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    if viewer is not None:
        rgb = [min(1.0, max(0.0, c)) for c in cs.cspace_convert(rgb, viewer, "sRGB1")]
    return cs.cspace_convert(rgb, "sRGB1", "CAM02-UCS")


def distance(a: str, b: str, viewer) -> float:
    return math.dist(_seen(a, viewer), _seen(b, viewer))


@pytest.mark.parametrize("viewer", VIEWERS)
def test_the_ev_scale_diverges_for_every_viewer(viewer):
    sim = VIEWERS[viewer]
    assert distance(EV_NEGATIVE, EV_POSITIVE, sim) >= 30
    for t in (0.25, 0.5, 1.0):  # a loss and a gain of the same size never look alike
        assert distance(ev_colour(-t, 1.0), ev_colour(t, 1.0), sim) >= 8 * t
    assert ev_colour(0.0, 1.0) == "FFFFFF" and ev_colour(float("nan"), 1.0) == "FFFFFF"


def test_text_on_every_cell_colour_meets_wcag_aa():
    backgrounds = [c for c, _ in chart_scale(25).legend()]  # the threshold bands: tests/test_scale.py
    backgrounds += [frequency_colour(f / 10, p) for f in range(11) for p in ("sb", "bb")]
    backgrounds += [ev_colour(e / 10, 1.0) for e in range(-10, 11)]
    for bg in backgrounds:
        assert contrast(bg, text_colour(bg)) >= 4.5, bg


def test_contrast_matches_wcag_reference_values():
    assert contrast("000000", "FFFFFF") == pytest.approx(21.0)
    assert contrast("FFFFFF", "FFFFFF") == pytest.approx(1.0)
    assert contrast("767676", "FFFFFF") == pytest.approx(4.54, abs=0.01)  # WebAIM: the lightest grey passing AA


def test_the_palette_module_is_standard_library_only():
    source = open(colors.__file__, encoding="utf-8").read()
    assert "import numpy" not in source and "import pandas" not in source
