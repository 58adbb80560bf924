"""A small vector drawing written three ways: SVG (text), PDF (one page) and PNG (Pillow).

The report pictures are rectangles, lines, dots and short texts.  A :class:`Drawing` holds them
once, in **points** (1/72 inch) with the origin at the **top left** and ``y`` pointing **down**
(as in SVG), and three small writers turn the same drawing into a file:

* :func:`svg_bytes` -- every text stays a ``<text>`` element (searchable, selectable);
* :func:`pdf_bytes` -- one page, text drawn in DejaVu Sans embedded as TrueType
  (``/FontFile2``, subset to printable ASCII by fontTools), so it prints sharp and
  ``pdftotext`` reads it back; vector rectangles and lines;
* :func:`png_bytes` -- drawn by Pillow at twice the size and halved (anti-aliased edges and text).

Texts are placed by their **baseline**: ``anchor`` ``"start"``, ``"middle"`` or ``"end"`` says
which point of the baseline sits at ``(x, y)``; ``angle=90`` turns a text to read upwards.  Widths
come from the font's own advance widths (:func:`text_width`, no kerning), the same numbers the
PDF declares, so centred and right-aligned texts line up in all three files.

Every writer is deterministic: no dates, no tool names with versions, fixed font subset tag.
Drawing with Pillow and writing the SVG/PDF text directly is about ten times faster than
matplotlib for these pictures (:mod:`sflp.report.plots` builds them).
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import io
import math
import zlib
from dataclasses import dataclass, field
from pathlib import Path

from sflp.errors import OutputError

FONT_FILES = {"normal": "DejaVuSans.ttf", "bold": "DejaVuSans-Bold.ttf"}
FONT_FAMILY = "DejaVu Sans"
CAP_HEIGHT = 0.729
"""DejaVu Sans capital height in em (1493 of 2048 units): centres a label of capitals and digits."""
ASCENT, DESCENT = 0.928, -0.236
"""DejaVu Sans ascender and descender in em (hhea 1901 and -483 of 2048 units)."""
SUPERSAMPLE = 2
"""PNG pictures are drawn at this multiple of their size and reduced: smooth edges and text."""
_PDF_TEXT = str.maketrans({"\u2212": "-", "\u2013": "-", "\u2014": "-", "\u2026": "...", "\u00b7": "-",
                           "\u2264": "<=", "\u2265": ">=", "\u00d7": "x"})


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

    def dot(self, x, y, r, fill) -> None:
        self.items.append(Dot(float(x), float(y), float(r), fill))

    def text(self, x, y, text, size, colour="000000", weight="normal", anchor="start", angle=0) -> None:
        if anchor not in ("start", "middle", "end") or weight not in FONT_FILES or angle not in (0, 90):
            raise ValueError(f"text {text!r}: anchor {anchor!r}, weight {weight!r}, angle {angle!r} not supported")
        if text:
            self.items.append(Text(float(x), float(y), str(text), float(size), colour, weight, anchor, angle))

    def lines(self, x, y, lines, size, colour="000000", weight="normal", spacing=1.2, anchor="start") -> float:
        """Texts one under another, the first line's top at ``y``; returns the y below the last."""
        step = size * spacing
        base = y + size * ASCENT
        for k, line in enumerate(lines):
            self.text(x, base + k * step, line, size, colour, weight, anchor)
        return y + step * len(lines)


# ---------------------------------------------------------------- fonts and widths


@functools.cache
def font_path(weight: str = "normal") -> Path:
    """The DejaVu Sans file for ``weight``: the copy matplotlib ships, else the system's."""
    name = FONT_FILES[weight]
    places = []
    spec = importlib.util.find_spec("matplotlib")  # locates the package without importing it
    for root in (spec.submodule_search_locations or []) if spec else []:
        places.append(Path(root) / "mpl-data" / "fonts" / "ttf" / name)
    places.append(Path("/usr/share/fonts/truetype/dejavu") / name)
    for path in places:
        if path.is_file():
            return path
    raise OutputError(f"font {name} not found (looked in {', '.join(str(p) for p in places)}); "
                      "it comes with matplotlib")


@functools.cache
def _advances(weight: str) -> dict[str, float]:
    """Advance widths of printable ASCII in em (1/1000 precision, as the PDF declares them)."""
    from PIL import ImageFont

    font = ImageFont.truetype(str(font_path(weight)), 1000, layout_engine=ImageFont.Layout.BASIC)
    return {chr(c): round(font.getlength(chr(c))) / 1000 for c in range(32, 127)}


def text_width(text: str, size: float, weight: str = "normal") -> float:
    """Width of ``text`` in points at ``size``: the sum of its advance widths (no kerning)."""
    adv = _advances(weight)
    fallback = adv["M"]
    return size * sum(adv.get(ch, fallback) for ch in text)


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
        out.append(f"<title>{_esc(title)}</title>")
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


def png_bytes(drawing: Drawing, dpi: float = 120) -> bytes:
    """The drawing as an RGB PNG at ``dpi`` (no text chunks: the same drawing gives the same bytes)."""
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
        elif isinstance(item, Dot):
            r = item.r * k
            pen.ellipse((item.x * k - r, item.y * k - r, item.x * k + r, item.y * k + r), fill=_rgb(item.fill))
        else:
            font = _pil_font(item.weight, max(1, round(item.size * k)))
            if item.angle == 0:
                pen.text((_start_x(item) * k, item.y * k), item.text, font=font, fill=_rgb(item.colour),
                         anchor="ls")
            else:  # draw on its own layer, turn it, and lay it on
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
    buf = io.BytesIO()
    image.save(buf, format="PNG", compress_level=6, dpi=(dpi, dpi))
    return buf.getvalue()


# ---------------------------------------------------------------- PDF


@functools.cache
def _pdf_font(weight: str) -> tuple[bytes, list[int], dict]:
    """(TrueType program subset to printable ASCII, widths of codes 32..126, descriptor numbers)."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    font = TTFont(str(font_path(weight)), recalcTimestamp=False)
    options = subset.Options()
    options.layout_features = []
    options.hinting = False
    options.notdef_outline = True
    options.recalc_timestamp = False
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6]
    options.drop_tables = [*options.drop_tables, "FFTM"]  # FontForge's timestamps: not needed, and noisy
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=range(32, 127))
    subsetter.subset(font)
    units = font["head"].unitsPerEm
    cmap = font.getBestCmap()
    hmtx = font["hmtx"]
    widths = [round(hmtx[cmap[c]][0] * 1000 / units) if c in cmap else 0 for c in range(32, 127)]
    head = font["head"]
    os2 = font["OS/2"]
    info = {
        "bbox": [round(v * 1000 / units) for v in (head.xMin, head.yMin, head.xMax, head.yMax)],
        "ascent": round(font["hhea"].ascent * 1000 / units),
        "descent": round(font["hhea"].descent * 1000 / units),
        "cap": round(getattr(os2, "sCapHeight", 0) * 1000 / units) or round(CAP_HEIGHT * 1000),
    }
    buf = io.BytesIO()
    font.save(buf)
    return buf.getvalue(), widths, info


def _pdf_str(text: str) -> bytes:
    raw = text.translate(_PDF_TEXT).encode("ascii", "replace")
    return b"(" + raw.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)") + b")"


def _pdf_rgb(colour: str) -> str:
    return " ".join(_num(v / 255).lstrip("0") or "0" for v in _rgb(colour))


def _content(drawing: Drawing) -> bytes:
    h = drawing.height
    ops: list[str] = []
    fill = stroke = lw = None
    for item in drawing.items:
        if isinstance(item, Rect):
            y = h - item.y - item.h
            box = f"{_num(item.x)} {_num(y)} {_num(item.w)} {_num(item.h)} re"
            paint = []
            if item.fill:
                if fill != item.fill:
                    ops.append(f"{_pdf_rgb(item.fill)} rg")
                    fill = item.fill
                paint.append("f")
            if item.stroke and item.width > 0:
                if stroke != item.stroke:
                    ops.append(f"{_pdf_rgb(item.stroke)} RG")
                    stroke = item.stroke
                if lw != item.width:
                    ops.append(f"{_num(item.width)} w")
                    lw = item.width
                paint = ["B"] if paint else ["S"]
            if paint:
                ops.append(f"{box} {paint[0]}")
        elif isinstance(item, Line):
            if stroke != item.colour:
                ops.append(f"{_pdf_rgb(item.colour)} RG")
                stroke = item.colour
            if lw != item.width:
                ops.append(f"{_num(item.width)} w")
                lw = item.width
            (x0, y0), *rest = item.points
            ops.append(f"1 j 1 J {_num(x0)} {_num(h - y0)} m " + " ".join(f"{_num(x)} {_num(h - y)} l" for x, y in rest)
                       + " S")
        elif isinstance(item, Dot):
            if fill != item.fill:
                ops.append(f"{_pdf_rgb(item.fill)} rg")
                fill = item.fill
            ops.append(_circle(item.x, h - item.y, item.r))
        else:
            if fill != item.colour:
                ops.append(f"{_pdf_rgb(item.colour)} rg")
                fill = item.colour
            font = "F2" if item.weight == "bold" else "F1"
            x0 = _start_x(item)
            if item.angle:  # reads upwards: the baseline runs along +y from (x, y)
                along = item.x - x0
                matrix = f"0 1 -1 0 {_num(item.x)} {_num(h - item.y - along)}"
            else:
                matrix = f"1 0 0 1 {_num(x0)} {_num(h - item.y)}"
            ops.append(f"BT /{font} {_num(item.size)} Tf {matrix} Tm {_pdf_str(item.text).decode('ascii')} Tj ET")
    return ("\n".join(ops) + "\n").encode("ascii")


def _circle(cx: float, cy: float, r: float) -> str:
    c = 0.5523 * r  # the usual cubic Bezier approximation of a quarter circle
    return (f"{_num(cx + r)} {_num(cy)} m "
            f"{_num(cx + r)} {_num(cy + c)} {_num(cx + c)} {_num(cy + r)} {_num(cx)} {_num(cy + r)} c "
            f"{_num(cx - c)} {_num(cy + r)} {_num(cx - r)} {_num(cy + c)} {_num(cx - r)} {_num(cy)} c "
            f"{_num(cx - r)} {_num(cy - c)} {_num(cx - c)} {_num(cy - r)} {_num(cx)} {_num(cy - r)} c "
            f"{_num(cx + c)} {_num(cy - r)} {_num(cx + r)} {_num(cy - c)} {_num(cx + r)} {_num(cy)} c f")


def pdf_bytes(drawing: Drawing, title: str = "", creator: str = "sflp") -> bytes:
    """The drawing as a one-page PDF 1.4: vector graphics, DejaVu Sans embedded (TrueType subset,
    WinAnsi encoding, so text is extractable), no dates (the same drawing gives the same bytes)."""
    objects: list[bytes] = []

    def add(body: bytes) -> int:
        objects.append(body)
        return len(objects)

    def stream(data: bytes, extra: str = "") -> bytes:
        packed = zlib.compress(data, 9)
        return (f"<< /Length {len(packed)} /Filter /FlateDecode{extra} >>\nstream\n".encode("ascii") + packed
                + b"\nendstream")

    font_refs = {}
    for key, weight in (("F1", "normal"), ("F2", "bold")):
        program, widths, info = _pdf_font(weight)
        tag = "".join(chr(65 + b % 26) for b in hashlib.sha256(program).digest()[:6])
        base = f"{tag}+DejaVuSans" + ("-Bold" if weight == "bold" else "")
        file_ref = add(stream(program, f" /Length1 {len(program)}"))
        desc_ref = add(
            f"<< /Type /FontDescriptor /FontName /{base} /Flags 32 /FontBBox [{' '.join(map(str, info['bbox']))}] "
            f"/ItalicAngle 0 /Ascent {info['ascent']} /Descent {info['descent']} /CapHeight {info['cap']} "
            f"/StemV {120 if weight == 'bold' else 80} /FontFile2 {file_ref} 0 R >>".encode("ascii"))
        font_refs[key] = add(
            f"<< /Type /Font /Subtype /TrueType /BaseFont /{base} /FirstChar 32 /LastChar 126 "
            f"/Widths [{' '.join(map(str, widths))}] /Encoding /WinAnsiEncoding "
            f"/FontDescriptor {desc_ref} 0 R >>".encode("ascii"))
    content_ref = add(stream(_content(drawing)))
    pages_ref = len(objects) + 2  # the page comes next, then its parent
    fonts = " ".join(f"/{k} {v} 0 R" for k, v in font_refs.items())
    page_ref = add(
        f"<< /Type /Page /Parent {pages_ref} 0 R /MediaBox [0 0 {_num(drawing.width)} {_num(drawing.height)}] "
        f"/Resources << /Font << {fonts} >> >> /Contents {content_ref} 0 R >>".encode("ascii"))
    add(f"<< /Type /Pages /Kids [{page_ref} 0 R] /Count 1 >>".encode("ascii"))
    catalog_ref = add(f"<< /Type /Catalog /Pages {pages_ref} 0 R >>".encode("ascii"))
    info_ref = add(b"<< /Creator " + _pdf_str(creator) + b" /Producer (sflp)"
                   + (b" /Title " + _pdf_str(title) if title else b"") + b" >>")
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode("ascii") + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode("ascii")
    for offset in offsets:
        out += f"{offset:010d} 00000 n \n".encode("ascii")
    out += (f"trailer\n<< /Size {len(objects) + 1} /Root {catalog_ref} 0 R /Info {info_ref} 0 R >>\n"
            f"startxref\n{xref}\n%%EOF\n").encode("ascii")
    return bytes(out)
