"""The threshold legend as printed (issue 42): a grayscale print keeps its bands apart, and a chart
shows only the bands it uses.

* Grayscale: ``pdftoppm -gray`` converts with ITU-R BT.601 luma (``0.299 R + 0.587 G + 0.114 B``);
  issue 42 read the old legend's swatches at 219 / 181 / 171 / 121 / 111 / 102 / 56 / 33 / 15, so
  2--4 and 4--6, 6--8 to 10--15, and 20--25 and 25+ merged.  Every pair of legend neighbours must now
  differ by at least 20 of 255 grey levels, read off the rendered page.
* Used bands: a band lying entirely below the chart's lowest stack holds no hand (a hand is played
  up to at least the lowest stack or never), so a 5--10 chart's legend starts at 4--6.
"""

from __future__ import annotations

import json
import re
import statistics
import subprocess
from pathlib import Path

import pytest

from sflp.charts.media.draw import Drawing, pdf_bytes
from sflp.charts.media.pdf.page import band_legend
from sflp.charts.scale import chart_scale
from tests.chart_files import find_tool

GREY_STEP = 20
DPI = 144
LEGEND_5_10 = ["4–6", "6–8", "8–10", "10+", "never"]


def _pgm(path: Path) -> tuple[int, int, bytes]:
    """A binary PGM (P5, 8 bit) as width, height and its pixel bytes."""
    data = path.read_bytes()
    fields = re.match(rb"P5\s+(?:#[^\n]*\n\s*)*(\d+)\s+(\d+)\s+(\d+)\s", data)
    assert fields and int(fields[3]) == 255, data[:40]
    return int(fields[1]), int(fields[2]), data[fields.end():]


def _words(pdftotext: str, pdf: Path) -> list[tuple[str, float, float, float, float]]:
    """Page 1's words with their boxes (points): text, x0, y0, x1, y1."""
    html = subprocess.run([pdftotext, "-f", "1", "-l", "1", "-bbox", str(pdf), "-"], check=True,
                          capture_output=True, text=True).stdout
    return [(w[4], float(w[0]), float(w[1]), float(w[2]), float(w[3])) for w in
            re.findall(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>', html)]


def _legend_words(pdftotext: str, pdf: Path) -> list[tuple[str, float, float, float, float]]:
    """The legend's labels: the words right of "(bb):" on its line, left to right."""
    words = _words(pdftotext, pdf)
    head = next(w for w in words if w[0] == "(bb):")
    row = [w for w in words if abs((w[2] + w[4]) / 2 - (head[2] + head[4]) / 2) < 3 and w[1] > head[3]]
    return sorted(row, key=lambda w: w[1])


def _swatch_greys(pdf: Path, tmp_path: Path) -> dict[str, int]:
    """Each legend swatch's grey level on ``pdftoppm -gray``'s page: the commonest pixel in a box
    around its label (the label's own strokes are the minority)."""
    pdftoppm = find_tool(("pdftoppm",), "poppler-utils")
    pdftotext = find_tool(("pdftotext",), "poppler-utils")
    subprocess.run([pdftoppm, "-gray", "-r", str(DPI), "-f", "1", "-l", "1", str(pdf), str(tmp_path / "g")],
                   check=True)
    width, _, pixels = _pgm(next(tmp_path.glob("g*.pgm")))
    greys = {}
    for text, x0, y0, x1, y1 in _legend_words(pdftotext, pdf):
        cx, cy, scale = (x0 + x1) / 2, (y0 + y1) / 2, DPI / 72
        box = [pixels[round(y * scale) * width + round(x * scale)]
               for y in (cy + dy / 2 for dy in range(-10, 11)) for x in (cx + dx / 2 for dx in range(-16, 17))]
        greys[text] = statistics.mode(box)
    return greys


def _assert_neighbours_apart(greys: dict[str, int], labels: list[str]) -> None:
    assert list(greys) == labels, greys
    levels = [greys[label] for label in labels]
    # the legend's neighbours, and never (white) with the lightest band: white cells sit among them
    steps = {f"{a}/{b}": abs(greys[a] - greys[b]) for a, b in zip(labels, labels[1:])}
    steps["never/" + labels[0]] = greys["never"] - greys[labels[0]]
    assert min(steps.values()) >= GREY_STEP, (levels, steps)


def test_the_grayscale_pdf_keeps_neighbouring_legend_bands_apart(chart_set, tmp_path):
    # the committed example's kind of page: the 1-10 chart set's chart.pdf, printed in grey
    greys = _swatch_greys(chart_set / "chart.pdf", tmp_path)
    _assert_neighbours_apart(greys, ["≤2", "2–4", "4–6", "6–8", "8–10", "10+", "never"])
    assert greys["never"] >= 250  # white paper


@pytest.mark.parametrize("top", [200, 25, 15])
def test_every_band_of_a_deep_legend_prints_apart_in_grey(top, tmp_path):
    # the PDF's own legend row (pdf.page.band_legend) for every band a chart can show: 1-200 shows all
    # eleven, 1-25 ends its bands at 20-25 before 25+, 1-15 at 10-15 before 15+ (any band next to the top)
    scale = chart_scale(top, 1)
    d = Drawing(842, 120)
    band_legend(d, 20, 40, 52, scale, size=7)
    (tmp_path / "legend.pdf").write_bytes(pdf_bytes(d))
    greys = _swatch_greys(tmp_path / "legend.pdf", tmp_path)
    _assert_neighbours_apart(greys, [label for _, label in scale.legend()])


# ---------------------------------------------------------------- only the bands a chart uses


@pytest.fixture(scope="module")
def chart_5_10(tmp_path_factory):
    """A 5-10 bb chart set (PDF, SVG, HTML) from real solutions and thresholds."""
    from sflp.charts.chartset import write_chart_set
    from sflp.core.game import GameConfig
    from sflp.solving import thresholds as thresholds_mod
    from sflp.solving.solver import solve_many

    config = GameConfig(stack=5)
    thresholds = thresholds_mod.compute_thresholds(config, low=5, high=10)
    out = tmp_path_factory.mktemp("chart_5_10")
    write_chart_set(solve_many([5, 7.5, 10], config), thresholds, out, formats="pdf,svg,html", workers=0)
    return out, thresholds


def test_a_chart_shows_only_the_bands_it_uses():
    assert [label for _, label in chart_scale(20, 5).legend()] == \
        ["4–6", "6–8", "8–10", "10–15", "15–20", "20+", "never"]
    assert [label for _, label in chart_scale(25, 2).legend()][:2] == ["≤2", "2–4"]  # a hand played at 2 bb only
    assert [label for _, label in chart_scale(200, 25).legend()][:3] == ["20–30", "30–50", "50–100"]
    # the bands keep their colours when the light ones go
    assert chart_scale(20, 5).bands[0] == chart_scale(20).bands[2]
    assert chart_scale(20, 5).band(5.2).label == "4–6"


def test_the_pdf_svg_and_html_legends_of_a_5_10_chart_start_at_4_6(chart_5_10):
    out, thresholds = chart_5_10
    assert thresholds.low == 5 and min(h.max_stack for h in thresholds.hands if h.max_stack is not None) >= 5
    pdftotext = find_tool(("pdftotext",), "poppler-utils")
    assert [w[0] for w in _legend_words(pdftotext, out / "chart.pdf")] == LEGEND_5_10
    svgs = sorted(out.glob("*.svg"))
    threshold_svgs = [p for p in svgs if ">10+</text>" in p.read_text(encoding="utf-8")]
    assert threshold_svgs, [p.name for p in svgs]
    for svg in threshold_svgs:
        text = svg.read_text(encoding="utf-8")
        assert all(f">{label}</text>" in text for label in LEGEND_5_10), svg.name
        assert ">≤2</text>" not in text and ">2–4</text>" not in text, svg.name
    html = (out / "chart.html").read_text(encoding="utf-8")
    legend = json.loads(re.search(r'"legend":\s*(\[\[.*?\]\])', html)[1])
    assert [label for _, label, _ in legend] == LEGEND_5_10
