"""The drawing writers (sflp.charts.media.draw): the same drawing as SVG, PNG and PDF.

Each writer is checked by an independent reader: the SVG by an XML parser, the PNG by Pillow's
decoder, the PDF by poppler (``pdftotext`` for the text, ``pdftoppm`` for the pixels, ``pdffonts``
for the embedded fonts).  Placement is checked on pixels: a text anchored in the middle of a point
must have its ink centred there, in the PNG and in the PDF alike.  Text that is not ASCII
(``≤``, ``−``, ``×``, ``é``, ...) must come back as written from every format.
"""

from __future__ import annotations

import io
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

import numpy as np
import pytest
import reportlab
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageFont

from sflp.charts.media.draw import (
    CAP_HEIGHT,
    FONT_DIR,
    Drawing,
    font_path,
    pdf_bytes,
    png_bytes,
    svg_bytes,
    text_width,
    wrap,
)
from tests.chart_files import find_tool as _find

DPI = 144  # 2 pixels per point: positions below are easy to read in pixels
UNICODE = "Ante ≤ 0.125 bb − é ü × …"  # a minus sign, not a hyphen; an ellipsis, not three dots


@pytest.fixture(scope="module")
def poppler():
    return {"pdftotext": _find(("pdftotext",), "poppler-utils"),
            "pdftoppm": _find(("pdftoppm",), "poppler-utils")}


def sample() -> Drawing:
    d = Drawing(200, 120)
    d.rect(10, 20, 40, 30, fill="FF0000")  # pixels 20..100 x 40..100 at 2 px/pt
    d.rect(60, 20, 40, 30, stroke="0000FF", width=2)
    d.line([(110, 20), (190, 20), (190, 60)], "00AA00", 2)
    d.dot(150, 90, 4, "000000")
    d.text(100, 110, "AKs 25+ (x) \\ y", 12, "000000", anchor="middle")
    d.text(20, 100, "up", 10, "333333", anchor="middle", angle=90)
    return d


def ink_box(pixels: np.ndarray, region=None) -> tuple[float, float, float, float]:
    """(left, top, right, bottom) of the non-white pixels in ``region`` (x0, y0, x1, y1)."""
    x0, y0, x1, y1 = region or (0, 0, pixels.shape[1], pixels.shape[0])
    dark = pixels[y0:y1, x0:x1, :3].min(axis=2) < 200
    ys, xs = np.nonzero(dark)
    return x0 + xs.min(), y0 + ys.min(), x0 + xs.max() + 1, y0 + ys.max() + 1


# ---------------------------------------------------------------- SVG


def test_svg_is_xml_with_every_item():
    root = ET.fromstring(svg_bytes(sample(), title="t"))
    ns = {"s": "http://www.w3.org/2000/svg"}
    assert root.get("width") == "200pt" and root.get("viewBox") == "0 0 200 120"
    texts = root.findall("s:text", ns)
    assert [t.text for t in texts] == ["AKs 25+ (x) \\ y", "up"]
    assert texts[0].get("text-anchor") == "middle" and texts[1].get("transform") == "rotate(-90 20 100)"
    red = [r for r in root.findall("s:rect", ns) if r.get("fill") == "#FF0000"]
    assert [(r.get("x"), r.get("y"), r.get("width"), r.get("height")) for r in red] == [("10", "20", "40", "30")]
    assert root.find("s:polyline", ns).get("points") == "110,20 190,20 190,60"
    assert root.find("s:circle", ns).get("r") == "4"


def test_svg_escapes_markup():
    d = Drawing(10, 10)
    d.text(1, 5, 'a<b & "c"', 5)
    root = ET.fromstring(svg_bytes(d))
    assert root.find("{http://www.w3.org/2000/svg}text").text == 'a<b & "c"'


# ---------------------------------------------------------------- PNG


def test_png_places_shapes_and_text():
    image = Image.open(io.BytesIO(png_bytes(sample(), DPI)))
    assert image.size == (400, 240) and image.mode == "RGB"
    px = np.asarray(image).astype(int)
    assert tuple(px[70, 60]) == (255, 0, 0)  # inside the red rectangle
    assert tuple(px[70, 110]) == (255, 255, 255)  # outside it
    reds = np.argwhere((px[:, :, 0] > 200) & (px[:, :, 1] < 60) & (px[:, :, 2] < 60))
    assert reds[:, 1].min() == 20 and reds[:, 1].max() == 99 and reds[:, 0].min() == 40 and reds[:, 0].max() == 99
    blue = np.argwhere((px[:, :, 2] > 200) & (px[:, :, 0] < 60))
    assert blue[:, 1].min() <= 121 and blue[:, 1].max() >= 198  # the outline spans the box 120..200
    assert tuple(px[70, 160]) == (255, 255, 255)  # ... and leaves it empty inside
    # the middle-anchored text: its ink is centred on x = 100 pt (200 px), baseline at 110 pt
    left, top, right, bottom = ink_box(px, (60, 192, 400, 240))
    assert abs((left + right) / 2 - 200) <= 3
    assert abs((right - left) - 2 * text_width("AKs 25+ (x) \\ y", 12)) <= 6
    assert 220 - 2 * 12 * 0.8 <= top < 220 < bottom <= 220 + 2 * 12 * 0.3  # caps above, "(y)" below the baseline
    # the upward text: tall and thin, centred at y = 100 pt; its baseline is x = 20 pt (40 px), so
    # the letters lie left of it and only the descender of "p" (0.24 em, 5 px) crosses it
    left, top, right, bottom = ink_box(px, (0, 150, 60, 240))
    assert bottom - top > right - left
    assert abs((top + bottom) / 2 - 200) <= 3 and 40 - 2 * 10 * 0.8 <= left and 40 < right <= 40 + 6


def test_png_is_reproducible_and_has_no_text_chunks():
    a, b = png_bytes(sample(), 120), png_bytes(sample(), 120)
    assert a == b
    assert b"tEXt" not in a and b"iTXt" not in a and b"tIME" not in a


def _texts() -> Drawing:
    """Texts at sub-pixel positions, repeated (as a grid's hand names are), in both weights, several
    colours and sizes, anchored three ways, with characters that are not ASCII, over a fill."""
    d = Drawing(300, 200)
    d.rect(0, 0, 150, 200, fill="1F4E79")
    for i in range(40):
        x, y = 7.13 + (i % 8) * 36.37, 14.71 + (i // 8) * 37.9
        d.text(x, y, ["AKs", "72o", "25+", UNICODE][i % 4], 6.5 + (i % 3), ["000000", "FFFFFF", "C00000"][i % 3],
               "bold" if i % 5 == 0 else "normal", ["start", "middle", "end"][i % 3])
        d.text(x, y + 12, "AKs", 6.5)  # the same text again, at another fraction of a pixel
    return d


def test_glyphs_rendered_once_give_pillows_own_pixels(monkeypatch):
    # every text's mask is rendered once a process (draw._glyph) and drawn as Pillow's text() draws
    # it: the same mask at the same integer point with the same ink, so the PNG is the same bytes
    import sflp.charts.media.draw as draw

    draw._glyph.cache_clear()
    cached = png_bytes(_texts(), 120)
    assert draw._glyph.cache_info().hits > 0  # the repeated texts were not rendered again
    monkeypatch.setattr(draw, "_GLYPHS", False)  # Pillow's ImageDraw.text for every text
    plain = png_bytes(_texts(), 120)
    assert cached == plain
    assert np.array_equal(np.asarray(Image.open(io.BytesIO(cached))), np.asarray(Image.open(io.BytesIO(plain))))


def test_png_file_holds_pillows_level_6_pixels(monkeypatch):
    # draw._png_file writes the rows unfiltered at zlib level PNG_LEVEL (Pillow's encoder tries five
    # filters a row, twice the time): decoded, the picture is the one Pillow's level 6 wrote, its dpi too
    import sflp.charts.media.draw as draw

    fast = png_bytes(_texts(), 120)
    idat = fast.index(b"IDAT") + 4
    assert fast[idat:idat + 2] == b"\x78\x5e"  # the zlib header of levels 2-5 (RFC 1950: FLEVEL 1)
    monkeypatch.setattr(draw, "_PILLOW_PNG", True)  # the old path: Pillow's encoder, level 6
    old = png_bytes(_texts(), 120)
    assert old[old.index(b"IDAT") + 4:][:2] == b"\x78\x9c" and fast != old
    a, b = Image.open(io.BytesIO(fast)), Image.open(io.BytesIO(old))
    assert a.mode == b.mode == "RGB" and a.info == b.info and a.info["dpi"][0] == pytest.approx(120, abs=0.02)
    assert np.array_equal(np.asarray(a), np.asarray(b))
    Image.open(io.BytesIO(fast)).verify()  # every chunk's CRC


@given(st.integers(1, 40), st.integers(1, 40), st.integers(0, 2**32 - 1))
@settings(max_examples=20, deadline=None)
def test_png_file_decodes_to_its_pixels(width, height, seed):
    from sflp.charts.media.draw import _png_file

    pixels = np.random.default_rng(seed).integers(0, 256, (height, width, 3), dtype=np.uint8)
    data = _png_file(pixels.tobytes(), (width, height), 72)
    assert np.array_equal(np.asarray(Image.open(io.BytesIO(data))), pixels)

# ---------------------------------------------------------------- PDF


def test_pdf_text_is_extracted_by_poppler(poppler):
    out = subprocess.run([poppler["pdftotext"], "-", "-"], input=pdf_bytes(sample()), capture_output=True,
                         check=True).stdout.decode()
    assert "AKs 25+ (x) \\ y" in out and "up" in out


def test_pdf_draws_where_the_png_draws(poppler, tmp_path):
    (tmp_path / "d.pdf").write_bytes(pdf_bytes(sample()))
    subprocess.run([poppler["pdftoppm"], "-r", str(DPI), "-png", str(tmp_path / "d.pdf"), str(tmp_path / "p")],
                   check=True)
    page = np.asarray(Image.open(next(tmp_path.glob("p*.png"))).convert("RGB")).astype(int)
    assert page.shape[:2] == (240, 400)
    assert tuple(page[70, 60]) == (255, 0, 0) and tuple(page[70, 110]) == (255, 255, 255)
    png = np.asarray(Image.open(io.BytesIO(png_bytes(sample(), DPI)))).astype(int)
    for region in ((60, 192, 400, 240), (0, 150, 60, 240)):  # both texts: the same place in both files
        a, b = ink_box(page, region), ink_box(png, region)
        assert max(abs(u - v) for u, v in zip(a, b)) <= 3, (region, a, b)


def test_pdf_is_one_page_reproducible_and_undated(monkeypatch):
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    a = pdf_bytes(sample(), title="x")
    assert a == pdf_bytes(sample(), title="x")
    assert a.startswith(b"%PDF-1.") and a.rstrip().endswith(b"%%EOF")
    assert len(re.findall(rb"/Type\s*/Page\b(?!s)", a)) == 1 and a.count(b"/FontFile2") == 1  # no bold text
    # reportlab's invariant mode: one fixed date, whatever the clock says; no library version
    assert set(re.findall(rb"/(?:CreationDate|ModDate) \(D:(\d+)", a)) == {b"20000101000000"}
    assert reportlab.Version.encode() not in a and re.search(rb"/Producer \(sflp\)", a)


def test_pdf_of_several_drawings_has_a_page_each_in_its_own_size(poppler):
    small = Drawing(100, 50)
    small.text(10, 30, "second page", 8)
    data = pdf_bytes([sample(), small])
    boxes = re.findall(rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]", data)
    assert [(float(w), float(h)) for w, h in boxes] == [(200.0, 120.0), (100.0, 50.0)]
    pages = subprocess.run([poppler["pdftotext"], "-", "-"], input=data, capture_output=True,
                           check=True).stdout.decode().split("\f")
    assert "AKs" in pages[0] and "second page" not in pages[0] and "second page" in pages[1]
    with pytest.raises(ValueError, match="at least one drawing"):
        pdf_bytes([])


def test_pdf_date_follows_source_date_epoch(monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")  # 2023-11-14 22:13:20 UTC
    a = pdf_bytes(sample())
    assert set(re.findall(rb"/(?:CreationDate|ModDate) \(D:(\d+)", a)) == {b"20231114221320"}
    assert a == pdf_bytes(sample())


def test_pdf_of_another_drawing_differs():
    other = sample()
    other.text(5, 5, "z", 5)
    assert pdf_bytes(other) != pdf_bytes(sample())


def unicode_drawing() -> Drawing:
    d = Drawing(300, 80)
    d.text(10, 30, UNICODE, 12)
    d.text(150, 60, "Stack ≥ 2 bb × ½", 10, weight="bold", anchor="middle")
    d.text(290, 75, "ü", 6, anchor="end", angle=90)
    return d


def test_pdf_keeps_non_ascii_text(poppler):
    data = pdf_bytes(unicode_drawing(), title="Ante ≤ é")
    out = subprocess.run([poppler["pdftotext"], "-enc", "UTF-8", "-", "-"], input=data, capture_output=True,
                         check=True).stdout.decode("utf-8")
    assert UNICODE in out and "Stack ≥ 2 bb × ½" in out and "ü" in out
    assert "?" not in out and "<=" not in out


def test_pdf_title_keeps_non_ascii(tmp_path):
    pdfinfo = shutil.which("pdfinfo")
    if pdfinfo is None:
        pytest.skip("pdfinfo is not on PATH (install e.g. the Debian package 'poppler-utils')")
    (tmp_path / "t.pdf").write_bytes(pdf_bytes(unicode_drawing(), title="Ante ≤ é", creator="sflp ×"))
    info = subprocess.run([pdfinfo, "-enc", "UTF-8", str(tmp_path / "t.pdf")], capture_output=True, check=True
                          ).stdout.decode("utf-8")
    assert re.search(r"^Title:\s+Ante ≤ é$", info, re.M) and re.search(r"^Creator:\s+sflp ×$", info, re.M)
    assert re.search(r"^Producer:\s+sflp$", info, re.M)


def test_svg_and_png_keep_non_ascii_text():
    d = unicode_drawing()
    root = ET.fromstring(svg_bytes(d))
    texts = [t.text for t in root.findall("{http://www.w3.org/2000/svg}text")]
    assert texts == [UNICODE, "Stack ≥ 2 bb × ½", "ü"]
    # the PNG draws the glyphs, not the font's empty box for a missing character
    def picture(sign: str) -> np.ndarray:
        single = Drawing(20, 20)
        single.text(4, 15, sign, 12)
        return np.asarray(Image.open(io.BytesIO(png_bytes(single, DPI)))).astype(int)

    missing = picture("\u4e00")  # a CJK ideograph: DejaVu Sans has no glyph for it
    pictures = {sign: picture(sign) for sign in "≤−×é…"}
    for sign, px in pictures.items():
        assert (px < 128).any() and not np.array_equal(px, missing), sign
    assert not np.array_equal(pictures["é"], picture("e"))  # the accent is drawn
    png = np.asarray(Image.open(io.BytesIO(png_bytes(d, DPI)))).astype(int)
    left, _, right, _ = ink_box(png, (0, 30, 600, 70))
    assert abs((right - left) - 2 * text_width(UNICODE, 12)) <= 6


DIRTY = "T\udcff\udcfe.csv \x01\x7f\x85 \ufffe end"
"""A file name that is not UTF-8 (lone surrogates, as Python decodes it), control characters and
a noncharacter: none can be written as UTF-8 or XML, each must become U+FFFD."""
CLEANED = "T\ufffd\ufffd.csv \ufffd\ufffd\ufffd \ufffd end"


def test_text_that_is_not_text_is_drawn_as_u_fffd_in_svg_png_and_pdf(poppler):
    """issue 30's leftovers: a strategy file named ``$'\\xff\\xfe.csv'`` made the SVG and the PDF
    fail at the end of a chart set; every drawn text and title is cleaned by ``clean_text``."""
    d = Drawing(300, 60)
    d.text(5, 20, DIRTY, 10)
    d.text(5, 40, "two\nlines\tand\ra tab", 10)  # one drawn line each: breaks are spaces
    assert [item.text for item in d.items] == [CLEANED, "two lines and a tab"]
    svg = svg_bytes(d, title=DIRTY).decode("utf-8")  # strict: no lone surrogate got through
    root = ET.fromstring(svg)  # XML: no control character either
    assert root.find("{http://www.w3.org/2000/svg}title").text == CLEANED
    assert [t.text for t in root.findall("{http://www.w3.org/2000/svg}text")] == [CLEANED, "two lines and a tab"]
    Image.open(io.BytesIO(png_bytes(d, DPI))).verify()
    data = pdf_bytes(d, title=DIRTY)
    out = subprocess.run([poppler["pdftotext"], "-enc", "UTF-8", "-", "-"], input=data, capture_output=True,
                         check=True).stdout.decode("utf-8")
    assert "T\ufffd\ufffd.csv" in out and "end" in out


@pytest.mark.skipif(shutil.which("pdffonts") is None, reason="pdffonts (poppler-utils) is not installed")
def test_pdf_fonts_are_embedded_truetype_subsets():  # the fonts the page uses, each once
    import tempfile

    with tempfile.NamedTemporaryFile(suffix=".pdf") as fh:
        fh.write(pdf_bytes(unicode_drawing()))
        fh.flush()
        listing = subprocess.run(["pdffonts", fh.name], capture_output=True, text=True, check=True).stdout
    rows = [line.split() for line in listing.splitlines()[2:]]
    assert sorted(row[0] for row in rows) == ["AAAAAA+DejaVuSans", "AAAAAA+DejaVuSans-Bold"]  # fixed subset tags
    for row in rows:
        assert row[1] == "TrueType" and row[3:6] == ["yes", "yes", "yes"]  # embedded, subset, Unicode map


# ---------------------------------------------------------------- the font


@pytest.mark.parametrize("weight", ["normal", "bold"])
def test_fonts_are_bundled_with_their_licence(weight):
    path = font_path(weight)
    assert path.parent == FONT_DIR and path.name == {"normal": "DejaVuSans.ttf", "bold": "DejaVuSans-Bold.ttf"}[weight]
    font = ImageFont.truetype(str(path), 10)
    assert font.getname() == ("DejaVu Sans", "Book" if weight == "normal" else "Bold")
    licence = (FONT_DIR / "LICENSE-DejaVu.txt").read_text(encoding="utf-8")
    assert "Bitstream Vera" in licence and "DejaVu changes are in public domain" in licence


def test_drawing_text_does_not_load_matplotlib():
    code = ("import sys; from sflp.charts.media.draw import Drawing, pdf_bytes, png_bytes, svg_bytes, text_width\n"
            "d = Drawing(50, 20); d.text(25, 15, 'AKs ≤ 2', 8, anchor='middle')\n"
            "pdf_bytes(d); png_bytes(d); svg_bytes(d); text_width('x', 1)\n"
            "print([m for m in ('matplotlib', 'fontTools', 'fpdf', 'pandas') if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_text_width_agrees_with_freetype():
    font = ImageFont.truetype(str(font_path("normal")), 1000, layout_engine=ImageFont.Layout.BASIC)
    for text in ("AKs", "25+", "SB push thresholds (bb), stacks 1-25 bb", "T3s 7.7*"):
        assert abs(text_width(text, 1000) - font.getlength(text)) <= len(text), text


def test_wrap_respects_the_width():
    text = "Number: largest stack (bb, truncated to 0.1) at which the hand is pushed with frequency > 0.5"
    lines = wrap(text, 150, 7)
    assert " ".join(lines) == text and len(lines) > 1
    assert all(text_width(line, 7) <= 150 for line in lines)
    assert wrap("averyveryverylongword short", 10, 7) == ["averyveryverylongword", "short"]


def test_cap_height_matches_the_font():
    # its OS/2 table is version 1 (no sCapHeight), so the top of the H, drawn by FreeType at one
    # pixel per font unit (2048 per em)
    font = ImageFont.truetype(str(font_path("normal")), 2048, layout_engine=ImageFont.Layout.BASIC)
    top = -font.getbbox("H", anchor="ls")[1]
    assert abs(top / 2048 - CAP_HEIGHT) < 1e-3


def test_bad_text_options_are_refused():
    d = Drawing(10, 10)
    with pytest.raises(ValueError, match="anchor 'centre'"):
        d.text(0, 0, "x", 5, anchor="centre")


# ---------------------------------------------------------------- long curves


@given(st.lists(st.floats(-1e3, 1e3), min_size=1, max_size=3000), st.floats(0.01, 2.0))
@settings(max_examples=60, deadline=None)
def test_thinned_curve_keeps_every_strip_envelope(ys, step):
    from sflp.charts.media.pictures.plots import thin_curve

    pts = [(k * step * 0.1, y) for k, y in enumerate(ys)]
    kept = thin_curve(pts)
    assert kept[0] == pts[0] and kept[-1] == pts[-1]
    assert all(p in pts for p in kept) and [p[0] for p in kept] == sorted(p[0] for p in kept)
    strips = {}
    for x, y in pts:  # independent bookkeeping of each quarter-point strip's lowest and highest y
        lo, hi = strips.get(int(x // 0.25), (y, y))
        strips[int(x // 0.25)] = (min(lo, y), max(hi, y))
    seen = {}
    for x, y in kept:
        lo, hi = seen.get(int(x // 0.25), (y, y))
        seen[int(x // 0.25)] = (min(lo, y), max(hi, y))
    assert seen == strips
    assert len(kept) <= max(len(pts), 4 * len(strips))


def test_value_picture_of_100000_stacks_stays_small():
    import pandas as pd

    from sflp.charts.media.pictures.plots import value_picture

    x = np.linspace(1, 1000, 99_901)
    value = np.sin(x / 30) / 10
    value[50_000] = 0.5  # one spike: it must survive the thinning
    frame = pd.DataFrame({"stack": x, "value": value, "push_pct": 50 + 10 * np.sin(x), "call_pct": 30 + 0 * x})
    drawing = value_picture(frame, "SB 0.5 / BB 1, no ante")
    curves = [item for item in drawing.items if type(item).__name__ == "Line" and len(item.points) > 10]
    assert len(curves) == 3 and all(len(c.points) < 10_000 for c in curves)
    ys = sorted(y for _, y in curves[0].points)  # y points down: the spike is the smallest y,
    assert ys[1] - ys[0] > 0.5 * (ys[-1] - ys[0])  # far above the rest of the curve
    assert len(svg_bytes(drawing)) < 500_000


def test_frequency_labels_fit_their_cells_in_the_drawn_media():
    """Issue 42: frequency labels overflowed their cells (in chart.html, tests/test_chart_html.py).  In
    the drawn media (range pictures, the single-stack PDF page on both papers) every percentage, in
    a grid cell or a legend swatch, is at most its box's width less half a point of paper either
    side, by the advance widths every writer places text with (text_width, DejaVu Sans)."""
    from sflp.charts.frames import ranges_frame
    from sflp.charts.media.draw import Rect, Text
    from sflp.charts.media.pdf.page import chart_pages
    from sflp.charts.media.pictures.plots import range_picture
    from sflp.core.game import GameConfig
    from sflp.solving.solver import solve_many

    ranges = ranges_frame(solve_many([10], GameConfig(stack=10)))
    pages = [chart_pages(None, 10, 10, "SB 0.5 / BB 1", ranges=ranges, stack=10, paper=p)[0] for p in ("a4", "letter")]
    drawings = [range_picture(ranges, 10, "SB 0.5 / BB 1"), *pages]
    for d in drawings:
        boxes = [it for it in d.items if isinstance(it, Rect) and it.fill and it.w < 60 and it.h < 60]
        labels = [it for it in d.items if isinstance(it, Text) and re.fullmatch(r"\d+%", it.text)]
        assert "71%" in {t.text for t in labels}  # SB's 43s at 10 bb, 71.07 %
        for t in labels:
            box = next(b for b in boxes if b.x <= t.x <= b.x + b.w and b.y <= t.y <= b.y + b.h)
            assert text_width(t.text, t.size, t.weight) <= box.w - 1.0 + 1e-9, (t, box)
