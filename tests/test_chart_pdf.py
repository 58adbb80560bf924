"""chart.pdf read back as text (``pdftotext`` from poppler-utils, found on PATH or the tests are
skipped saying so), its page size, reproducibility, and the searchable SVG pictures."""

from __future__ import annotations

import re
import subprocess

import numpy as np
import pandas as pd
import pytest

from sflp.core.cards import CLASS_NAMES
from sflp.core.game import GameConfig
from sflp.report import write_chart_set
from sflp.report.plots import write_chart_pdf
from sflp.solving.solver import solve_many
from tests.chart_files import HIGH, LOW, expected_label, find_tool, make_chart, read_csv

A4_POINTS = (297 / 25.4 * 72, 210 / 25.4 * 72)  # ISO 216 A4, landscape, in PDF points


@pytest.fixture(scope="module")
def chart(tmp_path_factory):
    return make_chart(tmp_path_factory.mktemp("chart"))


@pytest.fixture(scope="session")
def pdftotext():
    return find_tool(("pdftotext",), "poppler-utils")


# ---------------------------------------------------------------- the printable page


def pdf_pages_and_size(data: bytes) -> tuple[int, tuple[float, float]]:
    """Page count and the MediaBox of a PDF, read from its bytes."""
    pages = len(re.findall(rb"/Type\s*/Page\b(?!s)", data))
    box = re.search(rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]", data)
    return pages, (float(box[1]), float(box[2]))


def test_pdf_is_one_a4_landscape_page_with_embedded_truetype(chart):
    data = (chart / "chart.pdf").read_bytes()
    assert data.startswith(b"%PDF-")
    pages, (w, h) = pdf_pages_and_size(data)
    assert pages == 1
    assert abs(w - A4_POINTS[0]) < 1.0 and abs(h - A4_POINTS[1]) < 1.0  # 1 pt tolerance (0.35 mm)
    assert b"/FontFile2" in data  # TrueType programs embedded
    assert b"/Type3" not in data  # ... not glyphs drawn as Type 3 procedures


def test_pdf_text_is_extractable(chart, pdftotext):
    text = subprocess.run([pdftotext, "-layout", str(chart / "chart.pdf"), "-"], capture_output=True, text=True,
                          check=True).stdout
    tokens = re.findall(r"[^\s:,]+", text)
    for hand in CLASS_NAMES:  # each hand name once per grid
        assert tokens.count(hand) >= 2, hand
    assert "SB 0.5 / BB 1, no ante" in text
    assert "SB push" in text and "BB call" in text
    rows = read_csv(chart / "thresholds.csv")
    labels = [expected_label(r, HIGH) for r in rows]
    for label in set(labels):
        assert tokens.count(label) >= labels.count(label), label
    multi = [r for r in rows if ";" in r["intervals"]]
    assert multi
    for row in multi:  # every * hand is listed with its first interval
        lo, hi = row["intervals"].split(";")[0].split("-")
        who = "SB" if row["player"] == "sb" else "BB"
        first = f"{float(lo):.4f}".rstrip("0").rstrip(".") + "-" + f"{float(hi):.4f}".rstrip("0").rstrip(".")
        assert re.search(rf"{who} {re.escape(row['hand'])}: {re.escape(first)}", text), row["hand"]


def test_pdf_is_reproducible(chart, tmp_path):
    from sflp.report.frames import thresholds_frame  # noqa: F401  (the same frame the chart set used)

    rows = pd.read_csv(chart / "thresholds.csv", keep_default_na=False)
    tdf = pd.DataFrame({
        "player": rows["player"], "hand": rows["hand"],
        "max_stack": pd.to_numeric(rows["max_stack"].replace("", np.nan)),
        "capped": rows["capped"] == "true", "intervals": rows["intervals"], "any_intervals": rows["any_intervals"],
    })
    tdf["multi"] = tdf["intervals"].str.count(";") >= 1
    tdf["label"] = [expected_label(r, HIGH).rstrip("*") for r in read_csv(chart / "thresholds.csv")]
    a = write_chart_pdf(tmp_path / "a.pdf", tdf, LOW, HIGH, "SB 0.5 / BB 1, no ante", [("Stacks", "4")])
    b = write_chart_pdf(tmp_path / "b.pdf", tdf, LOW, HIGH, "SB 0.5 / BB 1, no ante", [("Stacks", "4")])
    assert a.read_bytes() == b.read_bytes()


def test_single_stack_chart_set_pdf_shows_the_frequency_grids(tmp_path, pdftotext):
    write_chart_set(solve_many([10], GameConfig(stack=10)), None, tmp_path)
    text = subprocess.run([pdftotext, "-layout", str(tmp_path / "chart.pdf"), "-"], capture_output=True,
                          text=True, check=True).stdout
    assert "at 10 bb" in text and "71%" in text  # 43s is pushed 71.07...% at 10 bb (README)
    assert pdf_pages_and_size((tmp_path / "chart.pdf").read_bytes())[0] == 1


def test_svg_text_is_searchable(chart):
    svg = (chart / "sb_push.svg").read_text(encoding="utf-8")
    for hand in ("AKs", "T3s", "72o"):
        assert re.search(rf"<text[^>]*>\s*{hand}\s*</text>", svg), hand
