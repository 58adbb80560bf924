"""A small vector drawing written three ways: SVG (text), PDF (one page) and PNG (Pillow).

The report pictures are rectangles, lines, dots and short texts.  A :class:`Drawing` holds them
once, in **points** (1/72 inch) with the origin at the **top left** and ``y`` pointing **down**
(as in SVG), and three small writers turn the same drawing into a file:

* :func:`svg_bytes` -- every text stays a ``<text>`` element (searchable, selectable);
* :func:`pdf_bytes` -- one page, text drawn in DejaVu Sans embedded as TrueType
  (``/FontFile2``, cut down to printable ASCII by :class:`TrueType`), so it prints sharp and
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
import struct
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
    widths = _pdf_font(weight)[1]
    return {chr(c): w / 1000 for c, w in zip(range(32, 127), widths)}


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
    """(TrueType program for the PDF, widths of codes 32..126 in 1/1000 em, descriptor numbers)."""
    font = TrueType(font_path(weight).read_bytes())
    return font.subset(range(32, 127)), [font.width(c) for c in range(32, 127)], font.descriptor()


class TrueType:
    """The few parts of a TrueType font file the PDF needs, read with :mod:`struct`.

    :meth:`subset` keeps every table the PDF needs and the outlines of the wanted characters'
    glyphs (with the parts of composite glyphs); all other glyphs are left empty and the
    layout tables dropped.  Glyph numbers do not change, so ``cmap`` and ``hmtx`` stay valid as
    they are: a 700 KB font becomes about 60 KB (about 25 KB compressed) in a few milliseconds.
    """

    DROP = frozenset({"GSUB", "GPOS", "GDEF", "BASE", "JSTF", "MATH", "kern", "FFTM", "DSIG", "hdmx", "LTSH",
                      "VDMX", "PCLT"})

    def __init__(self, data: bytes):
        if data[:4] not in (b"\x00\x01\x00\x00", b"true"):
            raise OutputError("the font is not a TrueType (glyf) font")
        count = struct.unpack(">H", data[4:6])[0]
        self.tables: dict[str, bytes] = {}
        for k in range(count):
            tag, _, offset, length = struct.unpack(">4sIII", data[12 + 16 * k:28 + 16 * k])
            self.tables[tag.decode("latin-1")] = data[offset:offset + length]
        head, hhea = self.tables["head"], self.tables["hhea"]
        self.units = struct.unpack(">H", head[18:20])[0]
        self.long_loca = struct.unpack(">h", head[50:52])[0] == 1
        self.glyphs = struct.unpack(">H", self.tables["maxp"][4:6])[0]
        self.metrics = struct.unpack(">H", hhea[34:36])[0]
        self.cmap = self._cmap()

    def _cmap(self) -> dict[int, int]:
        """Unicode -> glyph from the (3, 1) format 4 subtable (the BMP, which holds ASCII)."""
        cmap = self.tables["cmap"]
        for k in range(struct.unpack(">H", cmap[2:4])[0]):
            platform, encoding, offset = struct.unpack(">HHI", cmap[4 + 8 * k:12 + 8 * k])
            if (platform, encoding) == (3, 1) and struct.unpack(">H", cmap[offset:offset + 2])[0] == 4:
                break
        else:
            raise OutputError("the font has no Unicode (3, 1) format 4 cmap")
        seg2 = struct.unpack(">H", cmap[offset + 6:offset + 8])[0]
        segs = seg2 // 2
        base = offset + 14

        def array(start: int, fmt: str) -> tuple:
            return struct.unpack(f">{segs}{fmt}", cmap[start:start + seg2])

        ends, starts = array(base, "H"), array(base + seg2 + 2, "H")
        deltas, range_at = array(base + 2 * seg2 + 2, "h"), base + 3 * seg2 + 2
        ranges = array(range_at, "H")
        out = {}
        for k in range(segs):
            for code in range(starts[k], min(ends[k], 0x7F) + 1):  # ASCII is all sflp writes
                if ranges[k] == 0:
                    glyph = (code + deltas[k]) & 0xFFFF
                else:
                    at = range_at + 2 * k + ranges[k] + 2 * (code - starts[k])
                    glyph = struct.unpack(">H", cmap[at:at + 2])[0]
                    glyph = (glyph + deltas[k]) & 0xFFFF if glyph else 0
                if glyph:
                    out[code] = glyph
        return out

    def width(self, code: int) -> int:
        """Advance width of character ``code`` in 1/1000 em (0 when the font lacks it)."""
        glyph = self.cmap.get(code)
        if glyph is None:
            return 0
        k = min(glyph, self.metrics - 1)
        return round(struct.unpack(">H", self.tables["hmtx"][4 * k:4 * k + 2])[0] * 1000 / self.units)

    def descriptor(self) -> dict:
        head, hhea, os2 = self.tables["head"], self.tables["hhea"], self.tables.get("OS/2", b"")
        scale = 1000 / self.units
        cap = struct.unpack(">h", os2[88:90])[0] if len(os2) >= 90 else 0
        return {
            "bbox": [round(v * scale) for v in struct.unpack(">hhhh", head[36:44])],
            "ascent": round(struct.unpack(">h", hhea[4:6])[0] * scale),
            "descent": round(struct.unpack(">h", hhea[6:8])[0] * scale),
            "cap": round(cap * scale) if cap else round(CAP_HEIGHT * 1000),
        }

    def _offsets(self) -> list[int]:
        loca, n = self.tables["loca"], self.glyphs + 1
        if self.long_loca:
            return list(struct.unpack(f">{n}I", loca[:4 * n]))
        return [2 * v for v in struct.unpack(f">{n}H", loca[:2 * n])]

    def subset(self, codes) -> bytes:
        """The font with only the glyphs of ``codes`` (and glyph 0) drawn; see the class doc."""
        glyf, offsets = self.tables["glyf"], self._offsets()
        keep = {0} | {self.cmap[c] for c in codes if c in self.cmap}
        todo = list(keep)
        while todo:  # the parts of composite glyphs
            g = todo.pop()
            data = glyf[offsets[g]:offsets[g + 1]]
            if len(data) < 10 or struct.unpack(">h", data[:2])[0] >= 0:
                continue
            at, more = 10, True
            while more:
                flags, part = struct.unpack(">HH", data[at:at + 4])
                at += 4 + (4 if flags & 0x0001 else 2)
                at += 2 if flags & 0x0008 else 4 if flags & 0x0040 else 8 if flags & 0x0080 else 0
                more = bool(flags & 0x0020)
                if part not in keep:
                    keep.add(part)
                    todo.append(part)
        new_glyf = bytearray()
        new_offsets = []
        for g in range(self.glyphs):
            new_offsets.append(len(new_glyf))
            if g in keep:
                new_glyf += glyf[offsets[g]:offsets[g + 1]]
                new_glyf += b"\0" * (-len(new_glyf) % 4)
        new_offsets.append(len(new_glyf))
        tables = {tag: data for tag, data in self.tables.items() if tag not in self.DROP}
        tables["glyf"] = bytes(new_glyf)
        if self.long_loca:
            tables["loca"] = struct.pack(f">{len(new_offsets)}I", *new_offsets)
        else:
            tables["loca"] = struct.pack(f">{len(new_offsets)}H", *(v // 2 for v in new_offsets))
        post = tables.get("post")
        if post:  # format 3: no glyph names
            tables["post"] = b"\x00\x03\x00\x00" + post[4:32]
        head = bytearray(tables["head"])
        head[8:12] = b"\0\0\0\0"
        tables["head"] = bytes(head)
        font, places = _sfnt(tables)
        adjust = (0xB1B0AFBA - _checksum(font)) & 0xFFFFFFFF  # head.checkSumAdjustment
        at = places["head"] + 8
        return font[:at] + struct.pack(">I", adjust) + font[at + 4:]


def _checksum(data: bytes) -> int:
    padded = data + b"\0" * (-len(data) % 4)
    return sum(struct.unpack(f">{len(padded) // 4}I", padded)) & 0xFFFFFFFF


def _sfnt(tables: dict[str, bytes]) -> tuple[bytes, dict[str, int]]:
    """A TrueType file of ``tables`` (sorted directory, 4-byte aligned, table checksums) and
    where each table starts."""
    tags = sorted(tables)
    n = len(tags)
    power = 1 << (n.bit_length() - 1)
    out = bytearray(struct.pack(">IHHHH", 0x00010000, n, 16 * power, power.bit_length() - 1, 16 * (n - power)))
    offset = 12 + 16 * n
    body = bytearray()
    places = {}
    for tag in tags:
        data = tables[tag]
        places[tag] = offset + len(body)
        out += struct.pack(">4sIII", tag.encode("latin-1"), _checksum(data), places[tag], len(data))
        body += data + b"\0" * (-len(data) % 4)
    return bytes(out + body), places


def _pdf_str(text: str) -> bytes:
    raw = text.translate(_PDF_TEXT).encode("ascii", "replace")
    return b"(" + raw.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)") + b")"


def _pdf_rgb(colour: str) -> str:
    return " ".join(_num(v / 255).lstrip("0") or "0" for v in _rgb(colour))


def _content(drawing: Drawing) -> bytes:
    h = drawing.height
    ops: list[str] = []
    fill = None
    state = {"stroke": None, "width": None}

    def pen(colour: str, width: float) -> None:
        """Set the stroke colour and line width, writing only what changes."""
        if state["stroke"] != colour:
            ops.append(f"{_pdf_rgb(colour)} RG")
            state["stroke"] = colour
        if state["width"] != width:
            ops.append(f"{_num(width)} w")
            state["width"] = width

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
                pen(item.stroke, item.width)
                paint = ["B"] if paint else ["S"]
            if paint:
                ops.append(f"{box} {paint[0]}")
        elif isinstance(item, Line):
            pen(item.colour, item.width)
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
