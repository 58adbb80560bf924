"""A small vector drawing written three ways: SVG (text), PDF (reportlab, a page a drawing) and PNG (Pillow).

The report pictures are rectangles, lines, filled polygons, dots and short texts.  A :class:`Drawing` holds them
once, in **points** (1/72 inch) with the origin at the **top left** and ``y`` pointing **down**
(as in SVG), and three small writers turn the same drawing into a file:

* :func:`svg_bytes` -- every text stays a ``<text>`` element (searchable, selectable);
* :func:`pdf_bytes` -- a page per drawing, drawn with reportlab's canvas: vector rectangles, lines and
  dots, text in DejaVu Sans embedded as TrueType subsets with a ``ToUnicode`` map, so it prints
  sharp and ``pdftotext`` reads every character back (``−``, ``≤``, ``×``, ``é`` included);
* :func:`png_bytes` -- drawn by Pillow at twice the size and halved (anti-aliased edges and text).

Texts are placed by their **baseline**: ``anchor`` ``"start"``, ``"middle"`` or ``"end"`` says
which point of the baseline sits at ``(x, y)``; ``angle=90`` turns a text to read upwards.  Widths
come from the font's own advance widths (:func:`text_width`, no kerning), read by reportlab -- the
same numbers the PDF declares -- so centred and right-aligned texts line up in all three files.

The fonts are DejaVu Sans and DejaVu Sans Bold, bundled in ``sflp/charts/media/fonts`` with their
licence (Bitstream Vera / DejaVu, redistributable): drawing text needs neither matplotlib nor a
system font.

Every writer is deterministic.  The PDF is written in reportlab's *invariant* mode: its one date
is ``SOURCE_DATE_EPOCH`` when that is set, else 2000-01-01 00:00 UTC, never the clock; the file
id is made from that date and the title; font subsets are named in order of first use
(``AAAAAA+DejaVuSans``); the producer is ``sflp``, with no library version.

**Why reportlab.**  The PDF library was chosen by measurement against fpdf2 (matplotlib's PDF
backend was not a candidate: importing matplotlib alone takes about 0.4 s, and sflp no longer
depends on it).  Medians on the
real chart page (the one-page A4 chart of that time, 1,219 items of which 778
texts), Python 3.11 on a shared 2-core Linux machine:

=====================  =================  ==========  ==============  =========
library                cold import        first page  further pages   file size
=====================  =================  ==========  ==============  =========
reportlab 5.1.0        42 ms (23 ms *)    50-70 ms    27 ms           56 KB
fpdf2 2.8.9            310 ms (195 ms *)  300-345 ms  100-118 ms      33 KB
=====================  =================  ==========  ==============  =========

(* in a process that has already imported :mod:`sflp.charts.media.pictures.plots`, hence numpy and pandas.
"First page" includes reading the two fonts.)  fpdf2 imports numpy, fontTools.varLib and its SVG
and signing modules up front and parses both whole fonts with fontTools for every document;
reportlab reads each font once per process.  Both are pure Python (reportlab has had no compiled
parts since 4.0); reportlab is BSD-licensed (fpdf2 LGPL), maintained since 2000, and its
TrueType subsets carry ``ToUnicode`` maps, so every character reads back.  The hand-written
writer this replaces took 11 ms a page; ``write_chart_pdf`` now takes about 45 ms (100 ms
for the first page of a process).  reportlab is imported on first use, not with this module.
"""

from __future__ import annotations

import functools
import io
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from sflp.errors import OutputError
from sflp.output.clean import clean_text

FONT_FILES = {"normal": "DejaVuSans.ttf", "bold": "DejaVuSans-Bold.ttf"}
FONT_FAMILY = "DejaVu Sans"
CAP_HEIGHT = 0.729
"""DejaVu Sans capital height in em (1493 of 2048 units): centres a label of capitals and digits."""
ASCENT, DESCENT = 0.928, -0.236
"""DejaVu Sans ascender and descender in em (hhea 1901 and -483 of 2048 units)."""
SUPERSAMPLE = 2
"""PNG pictures are drawn at this multiple of their size and reduced: smooth edges and text."""
FONT_DIR = Path(__file__).resolve().parent / "fonts"
"""The bundled DejaVu Sans files and their licence (``LICENSE-DejaVu.txt``)."""


# ---------------------------------------------------------------- the items


@dataclass(frozen=True)
class Rect:
    """A rectangle, top-left corner ``(x, y)``; ``fill``/``stroke`` are ``"RRGGBB"`` or None."""

    x: float
    y: float
    w: float
    h: float
    fill: str | None = None
    stroke: str | None = None
    width: float = 0.0


@dataclass(frozen=True)
class Line:
    """An open polyline through ``points`` (two or more)."""

    points: tuple[tuple[float, float], ...]
    colour: str
    width: float = 1.0


@dataclass(frozen=True)
class Polygon:
    """A filled closed polygon through ``points`` (three or more; the last joins the first): an SVG
    ``<path>`` with ``fill`` and a 0.3 pt hairline of the same colour (so that polygons side by side
    leave no antialiasing seam where a browser draws them), PNG and PDF without one."""

    points: tuple[tuple[float, float], ...]
    fill: str


@dataclass(frozen=True)
class Dot:
    """A filled circle (a data marker)."""

    x: float
    y: float
    r: float
    fill: str


@dataclass(frozen=True)
class Text:
    """One line of text with its baseline point ``(x, y)`` (see the module doc for ``anchor``)."""

    x: float
    y: float
    text: str
    size: float
    colour: str = "000000"
    weight: str = "normal"
    anchor: str = "start"
    angle: int = 0


@dataclass
class Drawing:
    """A page of ``width`` x ``height`` points and its items, drawn in order."""

    width: float
    height: float
    items: list = field(default_factory=list)

    def rect(self, x, y, w, h, fill=None, stroke=None, width=0.0) -> None:
        self.items.append(Rect(float(x), float(y), float(w), float(h), fill, stroke, float(width)))

    def line(self, points, colour, width=1.0) -> None:
        pts = tuple((float(a), float(b)) for a, b in points)
        if len(pts) >= 2:
            self.items.append(Line(pts, colour, float(width)))

    def polygon(self, points, fill) -> None:
        pts = tuple((float(a), float(b)) for a, b in points)
        if len(pts) >= 3:
            self.items.append(Polygon(pts, fill))

    def dot(self, x, y, r, fill) -> None:
        self.items.append(Dot(float(x), float(y), float(r), fill))

    def text(self, x, y, text, size, colour="000000", weight="normal", anchor="start", angle=0) -> None:
        if anchor not in ("start", "middle", "end") or weight not in FONT_FILES or angle not in (0, 90):
            raise ValueError(f"text {text!r}: anchor {anchor!r}, weight {weight!r}, angle {angle!r} not supported")
        text = one_line(text)
        if text:
            self.items.append(Text(float(x), float(y), text, float(size), colour, weight, anchor, angle))

    def lines(self, x, y, lines, size, colour="000000", weight="normal", spacing=1.2, anchor="start") -> float:
        """Texts one under another, the first line's top at ``y``; returns the y below the last."""
        step = size * spacing
        base = y + size * ASCENT
        for k, line in enumerate(lines):
            self.text(x, base + k * step, line, size, colour, weight, anchor)
        return y + step * len(lines)


def one_line(text: object) -> str:
    """``text`` as one line of drawn text: cleaned (:func:`sflp.output.clean.clean_text`, so a
    file name that is not UTF-8 draws U+FFFD instead of failing the SVG and the PDF), with tab
    and line breaks as spaces."""
    return clean_text(text).translate(_BREAKS)


_BREAKS = str.maketrans("\t\n\r", "   ")


# ---------------------------------------------------------------- fonts and widths


def font_path(weight: str = "normal") -> Path:
    """The bundled DejaVu Sans file for ``weight`` (``"normal"`` or ``"bold"``)."""
    path = FONT_DIR / FONT_FILES[weight]
    if not path.is_file():
        raise OutputError(f"font {path} is missing: the sflp installation is incomplete (reinstall sflp)")
    return path


@functools.cache
def _font(weight: str):
    """The reportlab TrueType font for ``weight``, registered once per process under an sflp
    name (so it cannot clash with a font a caller registered)."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFError, TTFont

    name = "sflp-" + FONT_FILES[weight].removesuffix(".ttf")
    try:
        font = TTFont(name, str(font_path(weight)))
    except TTFError as exc:
        raise OutputError(f"font {font_path(weight)} cannot be read: {exc}") from exc
    pdfmetrics.registerFont(font)
    return font


def text_width(text: str, size: float, weight: str = "normal") -> float:
    """Width of ``text`` in points at ``size``: the sum of its advance widths (no kerning).

    >>> round(text_width("AKs", 10), 2)  # DejaVu Sans: A 1401, K 1343, s 1067 of 2048 units
    18.61
    """
    return _font(weight).stringWidth(text, size)


def wrap(text: str, width_pt: float, size: float, weight: str = "normal", indent: str = "") -> list[str]:
    """Break ``text`` at spaces into lines no wider than ``width_pt`` (a word longer than that
    gets a line of its own); lines after the first start with ``indent``."""
    out: list[str] = []
    line = ""
    for word in text.split():
        trial = f"{line} {word}" if line else (indent + word if out else word)
        if line and text_width(trial, size, weight) > width_pt:
            out.append(line)
            line = indent + word
        else:
            line = trial
    if line:
        out.append(line)
    return out


def _start_x(item: Text) -> float:
    """x of the text's left end on its baseline (before any rotation)."""
    if item.anchor == "start":
        return item.x
    w = text_width(item.text, item.size, item.weight)
    return item.x - (w / 2 if item.anchor == "middle" else w)


# ---------------------------------------------------------------- SVG


def _num(v: float) -> str:
    text = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def svg_bytes(drawing: Drawing, title: str = "") -> bytes:
    """The drawing as a standalone SVG 1.1 document (sizes in pt, user units = points)."""
    w, h = _num(drawing.width), _num(drawing.height)
    out = [
        '<?xml version="1.0" encoding="utf-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{w}pt" height="{h}pt" '
        f'viewBox="0 0 {w} {h}" font-family="{FONT_FAMILY}, Verdana, sans-serif">',
    ]
    if title:
        out.append(f"<title>{_esc(one_line(title))}</title>")
    out.append(f'<rect width="{w}" height="{h}" fill="#FFFFFF"/>')
    for item in drawing.items:
        if isinstance(item, Rect):
            attrs = f'fill="#{item.fill}"' if item.fill else 'fill="none"'
            if item.stroke and item.width > 0:
                attrs += f' stroke="#{item.stroke}" stroke-width="{_num(item.width)}"'
            out.append(f'<rect x="{_num(item.x)}" y="{_num(item.y)}" width="{_num(item.w)}" '
                       f'height="{_num(item.h)}" {attrs}/>')
        elif isinstance(item, Line):
            pts = " ".join(f"{_num(x)},{_num(y)}" for x, y in item.points)
            out.append(f'<polyline points="{pts}" fill="none" stroke="#{item.colour}" '
                       f'stroke-width="{_num(item.width)}" stroke-linejoin="round" stroke-linecap="round"/>')
        elif isinstance(item, Polygon):
            d = "M" + " L".join(f"{_num(x)},{_num(y)}" for x, y in item.points) + " Z"
            # a hairline of its own colour: neighbouring polygons leave no antialiasing seam in a browser
            out.append(f'<path d="{d}" fill="#{item.fill}" stroke="#{item.fill}" stroke-width="0.3" '
                       'stroke-linejoin="round"/>')
        elif isinstance(item, Dot):
            out.append(f'<circle cx="{_num(item.x)}" cy="{_num(item.y)}" r="{_num(item.r)}" fill="#{item.fill}"/>')
        else:
            attrs = f'font-size="{_num(item.size)}" fill="#{item.colour}"'
            if item.weight == "bold":
                attrs += ' font-weight="bold"'
            if item.anchor != "start":
                attrs += f' text-anchor="{item.anchor}"'
            if item.angle:
                attrs += f' transform="rotate({-item.angle} {_num(item.x)} {_num(item.y)})"'
            out.append(f'<text x="{_num(item.x)}" y="{_num(item.y)}" {attrs}>{_esc(item.text)}</text>')
    out.append("</svg>")
    return ("\n".join(out) + "\n").encode("utf-8")


# ---------------------------------------------------------------- PNG


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[0:2], 16), int(colour[2:4], 16), int(colour[4:6], 16)


@functools.cache
def _pil_font(weight: str, pixels: int):
    from PIL import ImageFont

    return ImageFont.truetype(str(font_path(weight)), pixels, layout_engine=ImageFont.Layout.BASIC)


PNG_LEVEL = 3
"""The PNG's zlib level (:func:`_png_file`; the pixels are the same at every level)."""
_PILLOW_PNG = False
"""Encode with Pillow's PNG encoder at level 6 instead of :func:`_png_file` (the old path, for the tests
and ``benchmarks/bench_media.py``: the same pixels)."""
_GLYPHS = True
"""Draw texts from :func:`_glyph` (False: Pillow's ``ImageDraw.text`` for each, the same pixels; for the test)."""


@functools.lru_cache(maxsize=4096)
def _glyph(text: str, weight: str, pixels: int, start: tuple[float, float]):
    """The coverage mask of ``text`` and its offset, as ``ImageDraw.text`` renders it at a baseline
    point whose fractional part is ``start`` (anchor ``"ls"``): each distinct text, size and
    sub-pixel position is rendered once a process (a chart's hand names repeat in every grid)."""
    return _pil_font(weight, pixels).getmask2(text, mode="L", anchor="ls", start=start)


def _draw_text(pen, xy: tuple[float, float], text: str, weight: str, pixels: int, rgb) -> None:
    """``pen.text(xy, text, anchor="ls")`` in font ``weight`` at ``pixels``, the mask from :func:`_glyph`:
    the same mask at the same integer point with the same ink as Pillow's own ``text``."""
    if not _GLYPHS:
        pen.text(xy, text, font=_pil_font(weight, pixels), fill=rgb, anchor="ls")
        return
    (fx, x), (fy, y) = math.modf(xy[0]), math.modf(xy[1])
    mask, offset = _glyph(text, weight, pixels, (fx, fy))
    pen.draw.draw_bitmap((int(x) + offset[0], int(y) + offset[1]), mask, pen.draw.draw_ink(rgb))


def png_bytes(drawing: Drawing, dpi: float = 120) -> bytes:
    """The drawing as an RGB PNG at ``dpi`` (no text chunks: the same drawing gives the same bytes),
    written by :func:`_png_file`."""
    from PIL import Image, ImageDraw

    k = dpi / 72 * SUPERSAMPLE
    size = (max(1, round(drawing.width * k)), max(1, round(drawing.height * k)))
    image = Image.new("RGB", size, (255, 255, 255))
    pen = ImageDraw.Draw(image)
    for item in drawing.items:
        if isinstance(item, Rect):
            box = (round(item.x * k), round(item.y * k), round((item.x + item.w) * k) - 1,
                   round((item.y + item.h) * k) - 1)
            if box[2] < box[0] or box[3] < box[1]:
                continue
            stroke = item.stroke if item.stroke and item.width > 0 else None
            pen.rectangle(box, fill=_rgb(item.fill) if item.fill else None,
                          outline=_rgb(stroke) if stroke else None,
                          width=max(1, round(item.width * k)) if stroke else 0)
        elif isinstance(item, Line):
            width = max(1, round(item.width * k))
            pts = [(x * k, y * k) for x, y in item.points]
            pen.line(pts, fill=_rgb(item.colour), width=width, joint="curve" if len(pts) > 2 else None)
            if width > 2:  # round caps
                r = width / 2
                for x, y in (pts[0], pts[-1]):
                    pen.ellipse((x - r, y - r, x + r, y + r), fill=_rgb(item.colour))
        elif isinstance(item, Polygon):
            pen.polygon([(x * k, y * k) for x, y in item.points], fill=_rgb(item.fill))
        elif isinstance(item, Dot):
            r = item.r * k
            pen.ellipse((item.x * k - r, item.y * k - r, item.x * k + r, item.y * k + r), fill=_rgb(item.fill))
        else:
            pixels = max(1, round(item.size * k))
            if item.angle == 0:
                _draw_text(pen, (_start_x(item) * k, item.y * k), item.text, item.weight, pixels, _rgb(item.colour))
            else:
                font = _pil_font(item.weight, pixels)  # draw on its own layer, turn it, and lay it on
                w = math.ceil(text_width(item.text, item.size, item.weight) * k) + 4
                asc, desc = math.ceil(ASCENT * item.size * k) + 2, math.ceil(-DESCENT * item.size * k) + 2
                layer = Image.new("L", (w, asc + desc), 0)
                ImageDraw.Draw(layer).text((2, asc), item.text, font=font, fill=255, anchor="ls")
                layer = layer.rotate(item.angle, expand=True)
                # after a quarter turn the baseline runs upwards at x = asc from the layer's left
                shift = text_width(item.text, item.size, item.weight) * k
                along = {"start": 0.0, "middle": shift / 2, "end": shift}[item.anchor]
                left = round(item.x * k - asc)
                top = round(item.y * k + along - (w - 2))
                image.paste(Image.new("RGB", layer.size, _rgb(item.colour)), (left, top), layer)
    image = image.reduce(SUPERSAMPLE)
    if _PILLOW_PNG:
        buf = io.BytesIO()
        image.save(buf, format="PNG", compress_level=6, dpi=(dpi, dpi))
        return buf.getvalue()
    return _png_file(image.tobytes(), image.size, dpi)


def _png_file(rgb: bytes, size: tuple[int, int], dpi: float) -> bytes:
    """An RGB PNG file of the packed pixels ``rgb`` (rows top to bottom): the chunks ``IHDR``, ``pHYs``
    (``dpi``, as Pillow writes it), one ``IDAT`` and ``IEND`` (PNG 1.2 / ISO 15948), every row with
    filter type 0 (none), compressed at zlib level :data:`PNG_LEVEL`.

    Pillow's encoder chooses a filter for every row by trying all five: on these pictures (flat colours,
    text) that doubles the encoding time, 0.18 against 0.09 CPU-s for a chart set's 8 pictures, for
    1 % fewer bytes than no filter at level 3."""
    import struct
    import zlib

    width, height = size
    stride = 3 * width
    view = memoryview(rgb)
    # each row after its filter byte 0: the rows joined by 0 after an empty first piece (one copy)
    rows = b"\x00".join([b"", *(view[k:k + stride] for k in range(0, stride * height, stride))])

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    ppm = int(dpi / 0.0254 + 0.5)  # pixels per metre
    return b"".join((b"\x89PNG\r\n\x1a\n", chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)),
                     chunk(b"pHYs", struct.pack(">IIB", ppm, ppm, 1)),
                     chunk(b"IDAT", zlib.compress(rows, PNG_LEVEL)), chunk(b"IEND", b"")))


# ---------------------------------------------------------------- PDF


def _pdf_rgb(colour: str) -> tuple[float, float, float]:
    r, g, b = _rgb(colour)
    return r / 255, g / 255, b / 255


def pdf_bytes(drawing: Drawing | Sequence[Drawing], title: str = "", creator: str = "sflp") -> bytes:
    """The drawing as a PDF page (reportlab), or a sequence of drawings as one page each, in order:
    vector graphics, DejaVu Sans embedded as TrueType subsets with Unicode maps (every text
    extractable, any character the font has); the same drawings give the same bytes (see the
    module doc).  Each page takes its size from its drawing."""
    from reportlab.pdfgen.canvas import Canvas

    pages = [drawing] if isinstance(drawing, Drawing) else list(drawing)
    if not pages:
        raise ValueError("pdf_bytes needs at least one drawing")
    fonts = {weight: _font(weight).fontName for weight in FONT_FILES}
    buf = io.BytesIO()
    pdf = Canvas(buf, pagesize=(pages[0].width, pages[0].height), invariant=1, pageCompression=1,
                 initialFontName=fonts["normal"])
    pdf.setTitle(one_line(title))
    pdf.setCreator(creator)
    pdf.setProducer("sflp")
    pdf.setAuthor("")
    pdf.setSubject("")
    for page in pages:
        pdf.setPageSize((page.width, page.height))
        _pdf_page(pdf, page, fonts)
        pdf.showPage()
    pdf.save()
    return buf.getvalue()


def _pdf_page(pdf, drawing: Drawing, fonts: dict[str, str]) -> None:
    """Draw ``drawing``'s items on the canvas's current page."""
    h = drawing.height  # the PDF's y points up from the bottom edge
    for item in drawing.items:
        if isinstance(item, Rect):
            stroke = bool(item.stroke and item.width > 0)
            if not (item.fill or stroke):
                continue
            if item.fill:
                pdf.setFillColorRGB(*_pdf_rgb(item.fill))
            if stroke:
                pdf.setStrokeColorRGB(*_pdf_rgb(item.stroke))
                pdf.setLineWidth(item.width)
                pdf.setLineJoin(0)
                pdf.setLineCap(0)
            pdf.rect(item.x, h - item.y - item.h, item.w, item.h, stroke=int(stroke), fill=int(bool(item.fill)))
        elif isinstance(item, Line):
            pdf.setStrokeColorRGB(*_pdf_rgb(item.colour))
            pdf.setLineWidth(item.width)
            pdf.setLineJoin(1)  # round, as in the SVG and PNG
            pdf.setLineCap(1)
            path = pdf.beginPath()
            (x0, y0), *rest = item.points
            path.moveTo(x0, h - y0)
            for x, y in rest:
                path.lineTo(x, h - y)
            pdf.drawPath(path, stroke=1, fill=0)
        elif isinstance(item, Polygon):
            pdf.setFillColorRGB(*_pdf_rgb(item.fill))
            path = pdf.beginPath()
            (x0, y0), *rest = item.points
            path.moveTo(x0, h - y0)
            for x, y in rest:
                path.lineTo(x, h - y)
            path.close()
            pdf.drawPath(path, stroke=0, fill=1)
        elif isinstance(item, Dot):
            pdf.setFillColorRGB(*_pdf_rgb(item.fill))
            pdf.circle(item.x, h - item.y, item.r, stroke=0, fill=1)
        else:
            pdf.setFont(fonts[item.weight], item.size)
            pdf.setFillColorRGB(*_pdf_rgb(item.colour))
            x0 = _start_x(item)
            if item.angle:  # reads upwards: turn the page a quarter about the anchor point
                pdf.saveState()
                pdf.translate(item.x, h - item.y)
                pdf.rotate(90)
                pdf.drawString(x0 - item.x, 0, item.text)
                pdf.restoreState()
            else:
                pdf.drawString(x0, h - item.y, item.text)
