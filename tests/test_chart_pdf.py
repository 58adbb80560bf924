"""chart.pdf read back as text (``pdftotext`` from poppler-utils, found on PATH or the tests are
skipped saying so), its paper (ISO 216 A4 and ANSI Letter, landscape), its layout read from the
page's own drawing operators (how much of the printable width the grids take, the size of every
text), reproducibility, and the searchable SVG pictures."""

from __future__ import annotations

import base64
import re
import subprocess
import zlib
from collections import Counter

import numpy as np
import pandas as pd
import pytest

from sflp.charts.chartset import write_chart_set
from sflp.charts.media.pdf.page import write_chart_pdf
from sflp.core.cards import CLASS_NAMES
from sflp.core.game import GameConfig
from sflp.solving.solver import solve_many
from tests.chart_files import HIGH, LOW, expected_label, find_tool, read_csv

A4_POINTS = (297 / 25.4 * 72, 210 / 25.4 * 72)  # ISO 216 A4, landscape, in PDF points
LETTER_POINTS = (11 * 72, 8.5 * 72)  # ANSI A (US Letter), landscape
MARGIN = 36.0  # the printable width is the sheet less half an inch each side (printers lose 4-6 mm)


@pytest.fixture(scope="module")
def chart(chart_set):
    return chart_set  # one per test process (conftest.py): the HTML and PDF tests read the same set


@pytest.fixture(scope="session")
def pdftotext():
    return find_tool(("pdftotext",), "poppler-utils")


# ---------------------------------------------------------------- the printable page


def pdf_pages_and_size(data: bytes) -> tuple[int, tuple[float, float]]:
    """Page count and the first MediaBox of a PDF, read from its bytes."""
    pages = len(re.findall(rb"/Type\s*/Page\b(?!s)", data))
    box = re.search(rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]", data)
    return pages, (float(box[1]), float(box[2]))


def page_contents(data: bytes) -> list[bytes]:
    """Each page's content stream, decoded (ASCII85 and Flate, as PDF 1.3 allows), in page order."""
    out = []
    for number in re.findall(rb"/Contents (\d+) 0 R", data):
        m = re.search(rb"\n" + number + rb" 0 obj\s*<<(.*?)>>\s*stream\r?\n", data, re.S)
        raw = data[m.end():data.index(b"endstream", m.end())]
        if b"ASCII85Decode" in m[1]:
            raw = base64.a85decode(raw.strip(), adobe=True)
        out.append(zlib.decompress(raw) if b"FlateDecode" in m[1] else raw)
    return out


def font_sizes(content: bytes) -> Counter:
    """How many texts are set in each font size (the ``Tf`` operator's operand)."""
    return Counter(float(x) for x in re.findall(rb"/\S+ ([\d.]+) Tf", content))


def squares(content: bytes) -> list[tuple[float, float, float]]:
    """``(x, y, side)`` of every filled square of side over 15 pt (the grid cells)."""
    out = []
    for x, y, w, h in re.findall(rb"([\d.]+) ([\d.]+) ([\d.]+) ([\d.]+) re f", content):
        if abs(float(w) - float(h)) < 1e-6 and float(w) > 15:
            out.append((float(x), float(y), float(w)))
    return out


@pytest.mark.parametrize("paper, size", [("a4", A4_POINTS), ("letter", LETTER_POINTS)])
def test_pdf_pages_are_landscape_on_the_paper_asked_for(chart, tmp_path, paper, size):
    write_chart_set(solve_many([5, 10], GameConfig(stack=5)), None, tmp_path, formats="pdf", paper=paper)
    for data in ((chart / "chart.pdf").read_bytes() if paper == "a4" else None, (tmp_path / "chart.pdf").read_bytes()):
        if data is None:
            continue
        assert data.startswith(b"%PDF-")
        boxes = re.findall(rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]", data)
        assert len(boxes) == pdf_pages_and_size(data)[0] >= 2  # the chart, then the reference
        for w, h in boxes:
            assert abs(float(w) - size[0]) < 1.0 and abs(float(h) - size[1]) < 1.0  # 1 pt (0.35 mm)
        assert b"/FontFile2" in data  # TrueType programs embedded
        assert b"/Type3" not in data  # ... not glyphs drawn as Type 3 procedures


@pytest.mark.parametrize("paper, size", [("a4", A4_POINTS), ("letter", LETTER_POINTS)])
def test_page_one_grids_fill_the_printable_width_in_text_of_9_pt(chart, tmp_path, paper, size):
    """The bar: the two grids take at least 70 % of the printable width (80 % before issue 32 put
    the fold-gap footnotes on page 1, under the grids), and every text in a cell is 9 pt but the
    few labels set smaller to fit their cell (at least 7 pt).
    Read from the page's operators, not from sflp's layout code."""
    path = chart / "chart.pdf"
    if paper != "a4":
        path = tmp_path / "letter.pdf"
        tdf = _tdf_from_csv(chart)
        write_chart_pdf(path, tdf, LOW, HIGH, "SB 0.5 / BB 1, no ante", paper=paper)
    first = page_contents(path.read_bytes())[0]
    cells = squares(first)
    assert len(cells) == 2 * 169
    side = Counter(round(s, 3) for _, _, s in cells).most_common(1)[0][0]
    columns = sorted({round(x, 2) for x, _, _ in cells})
    assert len(columns) == 26  # 13 columns a grid
    # each cell is its square plus the 0.8 pt of white around it
    grids_width = 26 * (side + 0.8)
    assert grids_width >= 0.7 * (size[0] - 2 * MARGIN), (grids_width, size)
    assert min(columns) >= MARGIN - 1e-6 and max(columns) + side <= size[0] - MARGIN + 1e-6
    sizes = font_sizes(first)
    assert sum(n for s, n in sizes.items() if s >= 9) >= 2 * 169 + 2 * 150  # every hand's name; most thresholds
    small = {s: n for s, n in sizes.items() if s < 9}
    # the page footer (7 pt), and the few labels set smaller to fit their cell, at 7 pt or more
    assert small.pop(7.0) >= 1 and all(s >= 7.0 for s in small) and sum(small.values()) <= 40, small
    reference = page_contents(path.read_bytes())[1:]
    for content in reference:
        small = {s: n for s, n in font_sizes(content).items() if s < 9}
        assert small == {7.0: 1}, small  # the interval lists are 9 pt too


def _tdf_from_csv(chart) -> pd.DataFrame:
    """The thresholds frame the chart set drew, rebuilt from thresholds.csv with the test's own label rule."""
    rows = pd.read_csv(chart / "thresholds.csv", keep_default_na=False)
    tdf = pd.DataFrame({
        "player": rows["player"], "hand": rows["hand"],
        "max_stack": pd.to_numeric(rows["max_stack"].replace("", np.nan)),
        "capped": rows["capped"] == "true", "intervals": rows["intervals"], "any_intervals": rows["any_intervals"],
    })
    tdf["multi"] = tdf["intervals"].str.count(";") >= 1
    tdf["label"] = [expected_label(r, HIGH).rstrip("*†") for r in read_csv(chart / "thresholds.csv")]
    tdf["chart_label"] = rows["chart_label"]
    return tdf


def expected_cell(row: dict[str, str], low: float, high: float) -> str:
    """A cell's text from a thresholds.csv row by the test's own reading of issue 32's rule: the
    chart number, then "†" when a folded stretch of 0.5 bb or more lies inside the played range
    (from the chart's lowest stack up), "*" when every such stretch is narrower."""
    number = expected_label(row, high).rstrip("*†")
    ends = [tuple(map(float, part.split("-"))) for part in filter(None, row["intervals"].split(";"))]
    gaps = [b[0] - a[1] for a, b in zip(ends, ends[1:])] + ([ends[0][0] - low] if ends else [])
    gaps = [g for g in gaps if g > 1e-9]
    return number + ("" if not gaps else "†" if max(gaps) >= 0.5 else "*")


def pdf_text(pdftotext: str, path, page: int | None = None) -> str:
    pages = ["-f", str(page), "-l", str(page)] if page else []
    return subprocess.run([pdftotext, "-layout", *pages, str(path), "-"], capture_output=True, text=True,
                          check=True).stdout


def test_pdf_text_is_extractable(chart, pdftotext):
    first = pdf_text(pdftotext, chart / "chart.pdf", 1)
    tokens = re.findall(r"[^\s:,]+", first)
    rows = read_csv(chart / "thresholds.csv")
    starred = {(r["player"], r["hand"]) for r in rows if ";" in r["intervals"]}
    for hand in CLASS_NAMES:  # each hand once per grid on page 1, never marked on its name
        assert tokens.count(hand) >= 2 and hand + "*" not in tokens, hand
    assert "SB 0.5 / BB 1, no ante" in first
    assert "SB push" in first and "BB call" in first and "page 1 of 2" in first
    # the mark sits right after the number, as in every medium ("7.1*")
    labels = [expected_cell(r, LOW, HIGH) for r in rows]
    grids = first.split("Each cell")[0]
    def count(label):  # counted in the text, since pdftotext joins narrow neighbours ("10+10+†")
        after = r"(?![*†])" if label[-1] in "+*†" else r"(?![\d*†])"  # "10+" may touch the next "10+"
        return len(re.findall(rf"(?<![\d.]){re.escape(label)}{after}", grids))

    for label in set(labels):
        if label.endswith("†"):  # where the number fills its cell the hatching alone marks it (issue 42)
            bare = label[:-1]
            assert count(label) + count(bare) >= labels.count(label) + labels.count(bare), label
        else:
            assert count(label) >= labels.count(label), label
    reference = pdf_text(pdftotext, chart / "chart.pdf", 2)
    assert starred and "page 2 of 2" in reference
    for row in rows:  # every starred hand is listed under its player with its first interval
        if (row["player"], row["hand"]) not in starred:
            continue
        lo, hi = row["intervals"].split(";")[0].split("-")
        first_interval = f"{float(lo):.4f}".rstrip("0").rstrip(".") + "\u2013" + \
            f"{float(hi):.4f}".rstrip("0").rstrip(".")
        mark = expected_cell(row, LOW, HIGH)[-1]  # the list marks the hand as its cell does
        assert re.search(rf"(^|\s){re.escape(row['hand'] + mark)}\s+{re.escape(first_interval)}", reference, re.M), row
    assert "SB push: hands pushed" in reference and "BB call: hands called" in reference


def test_a_long_interval_list_goes_on_to_further_pages(chart, tmp_path, pdftotext):
    """Nothing is cut: a list longer than a page continues, every page numbered."""
    tdf = _tdf_from_csv(chart)
    many = ";".join(f"{1 + k / 10:.6f}-{1.05 + k / 10:.6f}" for k in range(60))  # 60 intervals a hand
    tdf["intervals"], tdf["multi"] = many, True
    tdf["chart_label"] = tdf["label"] + "*"  # 0.05 bb slivers: every hand marked
    path = write_chart_pdf(tmp_path / "long.pdf", tdf, LOW, HIGH, "SB 0.5 / BB 1, no ante")
    pages = pdf_pages_and_size(path.read_bytes())[0]
    assert pages >= 4
    text = pdf_text(pdftotext, path)
    assert f"page {pages} of {pages}" in text and "(continued)" in text
    tokens = [t.rstrip("*\u2020") for t in re.findall(r"[^\s:,]+", text)]  # the lists mark hands: T4s*
    for hand in CLASS_NAMES:  # in both grids on page 1, then in both lists
        assert tokens.count(hand) >= 4, hand


def test_pdf_is_reproducible(chart, tmp_path):
    tdf = _tdf_from_csv(chart)
    a = write_chart_pdf(tmp_path / "a.pdf", tdf, LOW, HIGH, "SB 0.5 / BB 1, no ante", [("Stacks", "4")])
    b = write_chart_pdf(tmp_path / "b.pdf", tdf, LOW, HIGH, "SB 0.5 / BB 1, no ante", [("Stacks", "4")])
    assert a.read_bytes() == b.read_bytes()


def test_single_stack_chart_set_pdf_shows_the_frequency_grids(tmp_path, pdftotext):
    write_chart_set(solve_many([10], GameConfig(stack=10)), None, tmp_path)
    text = subprocess.run([pdftotext, "-layout", str(tmp_path / "chart.pdf"), "-"], capture_output=True,
                          text=True, check=True).stdout
    assert "at 10 bb" in text and "71%" in text  # 43s is pushed 71.07...% at 10 bb (README)
    assert "SB push frequency" in text and "BB call frequency" in text  # the legends
    assert pdf_pages_and_size((tmp_path / "chart.pdf").read_bytes())[0] == 2  # the grids, then the configuration


def test_svg_text_is_searchable(chart):
    svg = (chart / "sb_push.svg").read_text(encoding="utf-8")
    for hand in ("AKs", "T3s", "72o"):
        assert re.search(rf"<text[^>]*>\s*{hand}\s*</text>", svg), hand


# ---------------------------------------------------------------- the shared label and colour rule


@pytest.fixture(scope="module")
def chart_1_25():
    """The 1-25 bb thresholds of the committed example set, computed (the float path: the labels
    and colours need no certificate) rather than read from the committed pictures."""
    from sflp.charts.frames import thresholds_frame
    from sflp.solving.thresholds import compute_thresholds

    thresholds = compute_thresholds(GameConfig(stack=1), 1, 25, certify=False)
    return thresholds, thresholds_frame(thresholds)


def _svg_cells(svg: str) -> dict[str, tuple[str, str]]:
    """``hand -> (fill, label)`` of a threshold picture's grid, read from the SVG alone: the
    square holding the hand's name, and the text under the name in the same square."""
    import xml.etree.ElementTree as ET

    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    squares = [(float(r.get("x")), float(r.get("y")), float(r.get("width")), r.get("fill").lstrip("#").upper())
               for r in root.iter(f"{ns}rect") if r.get("x") and r.get("width") == r.get("height")]
    texts = [(float(t.get("x")), float(t.get("y")), t.text or "") for t in root.iter(f"{ns}text")]
    cells = {}
    for x0, y0, side, fill in squares:
        inside = sorted((y, x, text) for x, y, text in texts if x0 <= x <= x0 + side and y0 <= y <= y0 + side)
        if len(inside) in (2, 3) and inside[0][2] in CLASS_NAMES:  # the name, the number and its mark, if any
            cells[inside[0][2]] = (fill, "".join(text for _, _, text in sorted(inside[1:], key=lambda t: t[1])))
    return cells


def test_svg_capped_cells_take_the_top_colour_and_63s_shows_its_gap(chart_1_25):
    from sflp.charts.media.draw import svg_bytes
    from sflp.charts.media.pictures.plots import threshold_picture
    from sflp.charts.scale import chart_scale

    thresholds, tdf = chart_1_25
    top = chart_scale(25, 1).top
    assert top.label == "25+"
    for player in ("sb", "bb"):
        svg = svg_bytes(threshold_picture(tdf, player, 1, 25, "SB 0.5 / BB 1, no ante")).decode()
        cells = _svg_cells(svg)
        assert len(cells) == 169
        for hand, (fill, label) in cells.items():
            h = thresholds.get(player, hand)
            # every capped cell, and only a capped cell, in the top colour, labelled 25+ (its mark after)
            assert (fill == top.colour) == h.capped, (player, hand, fill)
            assert label.startswith("25+") == h.capped, (player, hand, label)
        assert f'fill="#{top.colour}"' in svg and ">25+</text>" in svg  # the legend's 25+ box
    # 63s is folded from 2.39 to 5.07 bb (issue 32): a gap of 0.5 bb or more gets the dagger and a footnote
    h = thresholds.get("sb", "63s")
    assert h.intervals[1][0] - h.intervals[0][1] > 2.6
    svg = svg_bytes(threshold_picture(tdf, "sb", 1, 25, "SB 0.5 / BB 1, no ante")).decode()
    assert _svg_cells(svg)["63s"][1] == "7.1†"
    assert re.search(r">† 63s: push ≤2\.3, 5\.1–", svg)
    assert _svg_cells(svg)["J4o"][1] == "5.4*"  # its gap is 0.001 bb: a sliver keeps the plain *


def test_picture_note_states_the_whole_bb_rule_of_a_deep_chart(chart_1_25):
    """From 100 bb a label is whole bb ("175", "130†"); the picture's note said only "truncated to
    0.1" on a 1-200 chart, as if "175" were 175.0 to the tenth.  The PDF and workbook said it."""
    from sflp.charts.media.draw import svg_bytes
    from sflp.charts.media.pictures.plots import threshold_picture

    _, tdf = chart_1_25
    deep = " ".join(svg_bytes(threshold_picture(tdf, "sb", 1, 200, "SB 0.5 / BB 1, no ante")).decode().split())
    short = " ".join(svg_bytes(threshold_picture(tdf, "sb", 1, 25, "SB 0.5 / BB 1, no ante")).decode().split())
    assert "truncated to 0.1, whole bb from 100)" in deep
    assert "truncated to 0.1)" in short and "whole bb" not in short


def test_pdf_page_one_shows_63s_gap_under_its_grid(chart_1_25):
    from sflp.charts.media.draw import Text
    from sflp.charts.media.pdf.page import chart_pages

    _, tdf = chart_1_25
    for paper in ("a4", "letter"):
        first = chart_pages(tdf, 1, 25, "SB 0.5 / BB 1, no ante", paper=paper)[0]
        texts = [item for item in first.items if isinstance(item, Text)]
        # the number and, right after it, its mark: the mark set apart after the number, or one label
        # at the number's size; where neither fits, the number alone at its neighbours' size in its
        # hatched cell (the page's note: "† (a hatched cell; where the number fills its cell, the
        # hatching alone)")
        marks = [t for t in texts if t.text == "†"]
        sizes = {round(t.size, 6) for t in texts if re.fullmatch(r"\d\.\d", t.text)}
        assert len(sizes) == 1  # every "d.d" number at one size, 7.1 of 63s among them
        assert sum(t.text == "7.1†" and round(t.size, 6) in sizes for t in texts) == 1 or any(
            n.text == "7.1" and 0 < m.x - n.x < 15 and 0 <= n.y - m.y < 5 for n in texts for m in marks) or (
            "hatching alone" in " ".join(t.text for t in texts))
        assert not any(t.text == "63s†" for t in texts)
        line = next(t for t in texts if t.text.startswith("† 63s: push ≤2.3, 5.1–"))
        grid_bottom = max(t.y for t in texts if t.text in CLASS_NAMES)
        assert grid_bottom < line.y < first.height - MARGIN  # under the grids, on page 1, inside the margin
        assert max(t.y for t in texts if "page 1 of" not in t.text) < first.height - MARGIN


def test_no_label_runs_out_of_its_cell(chart_1_25):
    """Issue 32: a label wider than its cell ("24.4†" in 9 pt bold is 26.7 pt, an A4 cell of the
    1-25 chart 22 pt) spilled into its neighbour; now every cell text fits inside its square."""
    from sflp.charts.media.draw import Rect, Text, text_width
    from sflp.charts.media.pdf.page import chart_pages
    from sflp.charts.media.pictures.plots import threshold_picture

    _, tdf = chart_1_25
    drawings = [chart_pages(tdf, 1, 25, "SB 0.5 / BB 1, no ante", paper=paper)[0] for paper in ("a4", "letter")]
    drawings += [threshold_picture(tdf, player, 1, 25, "SB 0.5 / BB 1, no ante") for player in ("sb", "bb")]
    for d in drawings:
        squares = [i for i in d.items if isinstance(i, Rect) and abs(i.w - i.h) < 1e-9 and 10 < i.w < 60]
        assert len(squares) in (169, 338)
        texts = [i for i in d.items if isinstance(i, Text)]
        for sq in squares:
            inside = [t for t in texts if sq.x <= t.x <= sq.x + sq.w and sq.y <= t.y <= sq.y + sq.h]
            assert len(inside) in (2, 3)  # the name, the number, and its mark if it has one
            for t in inside:
                wide = text_width(t.text, t.size, t.weight)
                start = {"middle": t.x - wide / 2, "end": t.x - wide}.get(t.anchor, t.x)
                assert sq.x <= start and start + wide <= sq.x + sq.w, (t.text, t.size, sq.w)


def test_gap_cells_are_hatched_and_their_numbers_keep_their_neighbours_size(chart_1_25):
    """Issue 42: a gap cell (†) is hatched in the pictures and the PDF (lines of the scale's hatch
    colour inside its square, none in any other cell), and in the pictures its number is set at the
    size of its neighbours' numbers, the mark after it; on the printed page, where a four-digit
    number fills its cell, the hatching alone marks it and the number keeps its neighbours' size
    (it was fitted with its "†", 17 % smaller: "24.4†" 7.2 pt against 8.6 for "16.3")."""
    from sflp.charts.media.draw import Line, Rect, Text
    from sflp.charts.media.pdf.page import chart_pages
    from sflp.charts.media.pictures.plots import threshold_picture
    from sflp.charts.scale import hatch_colour, mark

    thresholds, tdf = chart_1_25
    total = 0
    pages = [chart_pages(tdf, 1, 25, "SB 0.5 / BB 1, no ante", paper=paper)[0] for paper in ("a4", "letter")]
    pictures = [threshold_picture(tdf, player, 1, 25, "SB 0.5 / BB 1, no ante") for player in ("sb", "bb")]
    for d in pages + pictures:
        squares = [i for i in d.items if isinstance(i, Rect) and abs(i.w - i.h) < 1e-9 and 10 < i.w < 60]
        texts = [i for i in d.items if isinstance(i, Text)]
        lines = [i for i in d.items if isinstance(i, Line)]
        gaps = numbers = 0
        sizes = set()
        for sq in squares:
            inside = [t for t in texts if sq.x <= t.x <= sq.x + sq.w and sq.y <= t.y <= sq.y + sq.h]
            name = next(t.text for t in inside if t.text in CLASS_NAMES)
            number = next(t for t in inside if t.anchor == "middle" and t.text != name)
            if re.fullmatch(r"\d+\.\d", number.text):  # one size a length, marked or not (see below)
                sizes.add((len(number.text), round(number.size, 6)))
            player = "sb" if d in pictures[:1] or (d in pages and sq.x < d.width / 2) else "bb"
            h = thresholds.get(player, name)
            gap = mark(h.intervals, 1.0) == "†"
            shown = any(t.text.endswith("†") for t in inside)
            if d in pictures:
                assert gap == shown, (player, name)
            else:  # where the number fills a printed cell: its neighbours' size, the hatching its mark
                assert shown <= gap, (player, name)
            e = 1e-6
            hatch = [ln for ln in lines
                     if all(sq.x - e <= x <= sq.x + sq.w + e and sq.y - e <= y <= sq.y + sq.h + e
                            for x, y in ln.points)]
            if gap:
                gaps += 1
                assert len(hatch) >= 5 and {ln.colour for ln in hatch} == {hatch_colour(sq.fill)}, (name, hatch)
            else:
                assert not hatch, name
            numbers += 1
        total += gaps
        assert numbers in (169, 338)
        # every number "d.d" or "dd.d", marked or not, at the one size of its length
        assert len(sizes) == len({n for n, _ in sizes}), sizes
    assert total > 0
