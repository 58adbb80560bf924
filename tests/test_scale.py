"""The one label rule and colour rule of every chart medium (sflp.charts.scale).

Colour science, with the thresholds of issue 32:

* colour-vision deficiencies simulated with colorspacious (Machado, Oliveira & Fernandes, "A
  physiologically-based model for simulation of color vision deficiency", IEEE TVCG 2009) at full
  severity; distances in CAM02-UCS (Luo, Cui & Li 2006, about 1 unit a just-noticeable difference):
  at least 20 between bands that can stand next to each other with normal vision, 12 under each
  simulated deficiency;
* CIE L* (CIE 15:2004) steps of at least 6 between those bands, and (issue 42) ITU-R BT.601 luma
  (``0.299 R + 0.587 G + 0.114 B`` on 0..255, what ``pdftoppm -gray`` and a grayscale printer do)
  steps of at least 20 grey levels, so a grayscale print separates them;
* WCAG 2.1 contrast (success criterion 1.4.3: 4.5:1 for normal text) of the cell ink on every colour.

"Can stand next to each other": neighbouring bands, and every band next to the top colour, since
any band is the last one below the top on some chart (2--15: ``12–15`` then ``15+``).
"""

from __future__ import annotations

import math

import pytest

from sflp.charts import scale
from sflp.charts.colors import contrast
from sflp.charts.scale import (
    BAND_COLOURS,
    FOLD_GAP_BB,
    NEVER_COLOUR,
    TOP_COLOUR,
    cell_label,
    chart_scale,
    fold_gaps,
    footnotes,
    played_text,
)
from sflp.solving.thresholds import HandThresholds

cs = pytest.importorskip("colorspacious", reason="colorspacious (in the test extra) simulates colour-blind vision")

VIEWERS = {"normal vision": (None, 20.0),
           **{kind: ({"name": "sRGB1+CVD", "cvd_type": kind, "severity": 100}, 12.0)
              for kind in ("deuteranomaly", "protanomaly", "tritanomaly")}}


def _rgb(colour: str) -> list[float]:
    return [int(colour[i:i + 2], 16) / 255 for i in (0, 2, 4)]


def _seen(colour: str, viewer):
    rgb = _rgb(colour)
    if viewer is not None:
        rgb = [min(1.0, max(0.0, c)) for c in cs.cspace_convert(rgb, viewer, "sRGB1")]
    return cs.cspace_convert(rgb, "sRGB1", "CAM02-UCS")


def _lightness(colour: str) -> float:
    return float(cs.cspace_convert(_rgb(colour), "sRGB1", "CIELab")[0])


def _neighbours() -> list[tuple[str, str]]:
    pairs = list(zip(BAND_COLOURS, BAND_COLOURS[1:]))
    pairs += [(colour, TOP_COLOUR) for colour in BAND_COLOURS]
    return pairs


@pytest.mark.parametrize("viewer", VIEWERS)
def test_bands_that_can_stand_side_by_side_are_apart_for_every_viewer(viewer):
    sim, need = VIEWERS[viewer]
    far = {(a, b): math.dist(_seen(a, sim), _seen(b, sim)) for a, b in _neighbours()}
    close = {pair: round(d, 1) for pair, d in far.items() if d < need}
    assert not close, (viewer, need, close)
    # never stays apart from the lightest band, whose neighbour it is in every legend
    assert math.dist(_seen(NEVER_COLOUR, sim), _seen(BAND_COLOURS[0], sim)) >= need


def test_a_grayscale_print_keeps_the_bands_apart_and_in_order():
    lightness = [_lightness(c) for c in (NEVER_COLOUR, *BAND_COLOURS)]
    steps = [a - b for a, b in zip(lightness, lightness[1:])]
    assert min(steps) >= 6, [round(s, 1) for s in steps]
    assert all(_lightness(c) - _lightness(TOP_COLOUR) >= 6 for c in BAND_COLOURS)


def _luma(colour: str) -> float:
    r, g, b = (int(colour[i:i + 2], 16) for i in (0, 2, 4))
    return 0.299 * r + 0.587 * g + 0.114 * b


def test_a_luma_conversion_keeps_neighbouring_bands_20_grey_levels_apart():
    """Issue 42: ``pdftoppm -gray`` read the old legend at 219 / 181 / 171 / 121 / 111 / 102 / 56 / 33 / 15."""
    assert round(_luma("FFD791"), 0) == 219 and round(_luma("00151A"), 0) == 15  # the old ends, as printed
    pairs = [*_neighbours(), (NEVER_COLOUR, BAND_COLOURS[0])]
    close = {pair: round(abs(_luma(pair[0]) - _luma(pair[1])), 1) for pair in pairs
             if abs(_luma(pair[0]) - _luma(pair[1])) < 20}
    assert not close, close
    # and in order, light to dark: a grey band's place on the legend tells its stack
    lumas = [_luma(c) for c in (NEVER_COLOUR, *BAND_COLOURS, TOP_COLOUR)]
    assert lumas == sorted(lumas, reverse=True)


@pytest.fixture(scope="module")
def thresholds_1_200():
    from sflp.core.game import GameConfig
    from sflp.solving.thresholds import compute_thresholds

    return compute_thresholds(GameConfig(stack=2), low=1, high=200)  # about 3 s


DEEP_SHARE = 0.4
"""Issue 42: on the 1-200 chart one band "20–200" held all 72 SB and 37 BB hands played beyond 20 bb
(and not over the whole chart); now no band above 20 holds more than this share of them."""


def test_a_deep_chart_spreads_its_hands_over_the_bands_above_20(thresholds_1_200):
    s = chart_scale(200, 1)
    assert [b.label for b in s.bands if b.low >= 20] == ["20–30", "30–50", "50–100", "100–200"]
    for player, played in (("sb", 72), ("bb", 37)):
        deep = [h for h in thresholds_1_200.hands if h.player == player and not h.capped
                and h.max_stack is not None and h.max_stack > 20]
        assert len(deep) == played, player  # issue 42's count, from the same solver
        counts = {}
        for h in deep:
            counts[s.band(h.max_stack).label] = counts.get(s.band(h.max_stack).label, 0) + 1
        assert len(counts) == 4 and max(counts.values()) <= DEEP_SHARE * len(deep), (player, counts)


def test_the_colours_of_a_rendered_scale_pass_the_same_checks():
    # the scale as charts render it (1-25, 2-15, 1-200 bb ...), band by band in legend order
    for top in (25, 15, 200, 20, 3, 40, 75):
        colours = [c for c, _ in chart_scale(top).legend()]
        assert colours[-1] == NEVER_COLOUR and colours[-2] == TOP_COLOUR
        assert len(set(colours)) == len(colours), top
        for a, b in zip(colours[:-2], colours[1:-1]):
            assert (a, b) in _neighbours(), (top, a, b)


def test_the_ink_reads_on_every_colour():
    for colour in (*BAND_COLOURS, TOP_COLOUR, NEVER_COLOUR):
        assert scale.ink_contrast(colour) >= 4.5, colour
    # the contrast itself, against WCAG's published extremes (black on white is 21:1)
    assert round(contrast("000000", "FFFFFF"), 2) == 21.0


@pytest.mark.parametrize("top, labels", [
    (25, ["≤2", "2–4", "4–6", "6–8", "8–10", "10–15", "15–20", "20–25", "25+"]),
    (20, ["≤2", "2–4", "4–6", "6–8", "8–10", "10–15", "15–20", "20+"]),
    (15, ["≤2", "2–4", "4–6", "6–8", "8–10", "10–15", "15+"]),
    (200, ["≤2", "2–4", "4–6", "6–8", "8–10", "10–15", "15–20", "20–30", "30–50", "50–100", "100–200", "200+"]),
    (40, ["≤2", "2–4", "4–6", "6–8", "8–10", "10–15", "15–20", "20–30", "30–40", "40+"]),
    (12.5, ["≤2", "2–4", "4–6", "6–8", "8–10", "10–12.5", "12.5+"]),
    (2, ["≤2", "2+"]),
])
def test_the_legend_ends_at_the_charts_top(top, labels):
    s = chart_scale(top)
    assert [label for _, label in s.legend()] == [*labels, "never"]


def test_a_capped_hand_takes_the_top_colour_and_label_and_nothing_else_does():
    """Issue 32: on a 1-20 chart every "20+" cell was painted in the 15-20 colour."""
    s = chart_scale(20)
    assert s.colour(20.0, True) == TOP_COLOUR and cell_label(20.0, True, ((1.0, 20.0),), 20).text == "20+"
    assert s.colour(19.5, False) == s.colour(15.01, False) == BAND_COLOURS[6] != TOP_COLOUR
    assert s.colour(None) == s.colour(math.nan) == NEVER_COLOUR
    # a band holds (low, high]: the edge stack belongs to the band below it
    assert [s.band(x).label for x in (0.5, 2, 2.01, 10, 12.5, 20)] == ["≤2", "≤2", "2–4", "8–10", "10–15", "15–20"]


def test_the_mark_tells_a_wide_fold_gap_from_a_sliver():
    # issue 32's figures from the 1-25 chart: 63s folded from 2.39 to 5.07 bb, J4o's gap 0.001 bb
    assert cell_label(7.16, False, ((1.0, 2.39), (5.07, 7.16)), 25).text == "7.1†"
    assert cell_label(9.2, False, ((1.0, 4.0), (4.001, 9.2)), 25).text == "9.2*"
    assert cell_label(9.2, False, ((1.0, 4.0), (4.0 + FOLD_GAP_BB, 9.2)), 25).mark == "†"
    assert cell_label(9.2, False, ((1.0, 4.0), (4.0 + FOLD_GAP_BB * 0.99, 9.2)), 25).mark == "*"
    assert cell_label(9.2, False, ((1.0, 9.2),), 25).mark == ""
    # folded at the bottom of the chart: a gap too, once the chart's lowest stack is known
    assert cell_label(7.0, False, ((3.0, 7.0),), 25, low=1.0).text == "7.0†"
    assert fold_gaps(((3.0, 7.0),), low=3.0) == []


def test_a_fractional_top_prints_like_any_number():
    """``--stacks 1.125:25:0.1`` tops at 24.925: its capped cells read 24.9+, not 24.925+ (which
    overflowed every medium's cell); the legend says the same."""
    s = chart_scale(24.925)
    assert cell_label(24.925, True, ((1.125, 24.925),), 24.925).text == "24.9+"
    assert [label for _, label in s.legend()][-3:] == ["20–24.9", "24.9+", "never"]
    assert chart_scale(199.9).top.label == "199+" and chart_scale(12.5).top.label == "12.5+"


def test_numbers_floor_to_a_tenth_and_to_whole_bb_from_100():
    assert [cell_label(x, False, ((1.0, x),), 200).number for x in (7.19999, 99.96, 100.0, 137.9)] == \
        ["7.1", "99.9", "100", "137"]
    assert cell_label(7.19999, False, ((1.0, 7.2),), 25, exact_label="7.2").number == "7.2"  # the certified floor wins


def test_played_text_keeps_every_printed_stack_inside_a_played_stretch():
    # 63s on the committed 1-25 chart (thresholds.csv): a wide gap, then a 0.32 bb sliver at 5.23-5.55
    intervals = ((1.0, 2.388587), (5.070148, 5.233911), (5.554753, 7.163619))
    text = played_text(intervals, low=1.0)
    assert text == "≤2.3, 5.1–7.1"
    bridged = ((1.0, 2.388587), (5.070148, 7.163619))  # the sliver bridged: a player does not act on it
    for part in text.split(", "):
        lo, hi = (1.0, float(part[1:])) if part.startswith("≤") else map(float, part.split("–"))
        assert any(a <= lo and hi <= b for a, b in bridged), part
    assert scale.sliver_span(intervals) == "5.23–5.56"  # rounded outward: it covers the sliver
    # K8o: pushed again on a 0.002 bb stretch at 18.698-18.700 (too narrow for 0.01 bb; ≈18.70
    # named a folded stack)
    assert played_text(((1.0, 18.030701), (18.697954, 18.699967)), low=1.0) == "≤18.0, 18.698–18.699"


def test_footnotes_list_every_marked_hand_wide_gaps_first():
    hands = [HandThresholds("sb", "J4o", ((1.0, 5.412719), (5.413884, 5.474649)), (), 5.474649, False),
             HandThresholds("sb", "AA", ((1.0, 25.0),), (), 25.0, True),
             HandThresholds("bb", "63s", ((1.0, 2.39), (5.07, 7.16)), (), 7.16, False)]
    assert footnotes(hands, 25, low=1.0) == ["† 63s: call ≤2.3, 5.1–7.1",
                                             "* J4o: push ≤5.47 (label 5.4); folded only in slivers at 5.41–5.42"]


def test_no_note_prints_play_above_its_label_without_saying_why():
    """Issue 42: "J2s: call ≤5.6; slivers in 5.61–5.64" listed play above the stated maximum (the
    label floors 5.644 to 5.6).  Over random played stretches (wide gaps, slivers, stretches
    narrower than 0.1 bb near the top), every note either prints no stack above the cell's label
    or names the label beside the end it prints, and that end is the top floored (never above it);
    the marks are words, never a bare closing '*'."""
    import random
    import re

    rng = random.Random(42)
    checked = 0
    for _ in range(3000):
        points = sorted(round(rng.uniform(1.0, 24.9), rng.choice((2, 3, 6))) for _ in range(2 * rng.randint(1, 4)))
        if len(set(points)) < len(points):
            continue
        intervals = tuple(zip(points[::2], points[1::2]))
        top = intervals[-1][1]
        h = HandThresholds("sb", "J2s", intervals, (), top, False)
        lines = footnotes([h], 25, low=1.0)
        if not lines:
            continue
        checked += 1
        (line,) = lines
        label = h.label()
        printed = [float(x) for x in re.findall(r"\d+(?:\.\d+)?", line.split(":", 1)[1].split("(label")[0])]
        assert not line.rstrip().endswith("*"), line
        if max(printed) > float(label):
            assert f"(label {label})" in line, line
        ends = re.findall(r"[≤–](\d+\.\d+) \(label", line)
        for end in ends:
            assert float(end) <= top and float(end) >= float(label), line
            # nor do the slivers lie above the end it names ("push 3.0–7.04 (label 7.0); also folded
            # in slivers at 7.04–7.05": rounded outward, the span passed the end)
            everything = re.sub(r"\(label [^)]*\)", "", line.split(":", 1)[1])
            assert max(float(x) for x in re.findall(r"\d+(?:\.\d+)?", everything)) <= float(end), line
    assert checked > 1000


def test_63s_on_the_committed_1_25_chart_shows_its_gap():
    """Issue 32: "63s 7.1* is folded from 2.39 to 5.07 bb"; the committed set's thresholds.csv."""
    import csv
    from pathlib import Path

    folder = Path(__file__).resolve().parents[1] / "reports" / "hu-pushfold_sb0.5_bb1_ante0_bbante0_1-25"
    rows = {(r["player"], r["hand"]): r for r in csv.DictReader((folder / "thresholds.csv").open())}
    row = rows["sb", "63s"]
    intervals = [tuple(map(float, iv.split("-"))) for iv in row["intervals"].split(";")]
    label = cell_label(float(row["max_stack"]), False, intervals, 25, low=1.0)
    assert label.mark == "†" and fold_gaps(intervals, 1.0)[0][1] - fold_gaps(intervals, 1.0)[0][0] > 2.5


def test_a_sliver_span_never_passes_the_end_its_note_names():
    """Issue 42's closing note: played to 7.0468 with a sliver folded at 7.0401-7.0412, the note
    read "push 3.0–7.04 (label 7.0); also folded in slivers at 7.04–7.05": the span, rounded
    outward to 0.01 bb, lay above where the note said play ends.  Now both go to 0.001 bb."""
    h = HandThresholds("sb", "T5o", ((3.0, 7.0401), (7.0412, 7.0468)), (), 7.0468, False)
    (line,) = footnotes([h], 25, low=1.0)
    assert line == "† T5o: push 3.0–7.046 (label 7.0); also folded in slivers at 7.040–7.042"
    # the same near the top of a 1-200 chart, where the label is whole bb
    h = HandThresholds("bb", "Q2o", ((1.0, 150.3), (150.31, 150.319)), (), 150.319, False)
    (line,) = footnotes([h], 200, low=1.0)
    span_end = float(line.rpartition("–")[2])
    named_end = float(line.split("(label")[0].rpartition("≤")[2])
    assert span_end <= named_end <= 150.319, line
