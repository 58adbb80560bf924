"""A small workbook model the sheet builders fill, written in one pass through XlsxWriter.

The builders (:mod:`.sheets`) place cells anywhere (``sheet.cell(row, column, value)``, 1-based as
a user reads ``B3``), give them style parts as values (:class:`Font`, :class:`Fill`,
:class:`Alignment`, :class:`Border`, a number format, the quote prefix) and a note
(:class:`Comment`), and set the sheet's widths, heights, panes, print set-up, page breaks,
conditional formats and charts.  :func:`write_book` then writes every sheet with XlsxWriter's
public API: each combination of style parts becomes one XlsxWriter ``Format``, made once per
workbook; text is written with ``write_string``, so it is never a formula.

XlsxWriter stores a column width of ``w`` characters as the pixels ``int(7 w + 0.5) + 5``
converted back (11 -> 11.71): the widths here are the widths stored in the file, so they are set
in pixels (``7 w``), which XlsxWriter stores as ``w`` exactly, as openpyxl wrote them before.
"""

from __future__ import annotations

from dataclasses import dataclass, field

FONT_NAME = "Calibri"
"""The one font of the workbook (see :data:`sflp.charts.media.xlsx.cells.FONT_NAME`)."""
DIGIT_PIXELS = 7
"""Pixels of one character of column width (Calibri 11's digit, XlsxWriter's ``max_digit_width``)."""


@dataclass(frozen=True)
class Font:
    """A cell's font; ``color`` ``RRGGBB`` (None: the automatic colour)."""

    name: str = FONT_NAME
    size: float = 11
    bold: bool = False
    italic: bool = False
    color: str | None = None


@dataclass(frozen=True)
class Fill:
    """A cell's fill: ``pattern`` ``"solid"`` (``fg`` == ``bg``) or ``"lightUp"`` (``fg`` lines on ``bg``)."""

    pattern: str
    fg: str
    bg: str


@dataclass(frozen=True)
class Alignment:
    horizontal: str | None = None
    vertical: str | None = None
    wrap_text: bool = False


@dataclass(frozen=True)
class Border:
    """The same thin line of ``color`` on the four sides."""

    style: str = "thin"
    color: str = "FFFFFF"


@dataclass(frozen=True)
class Comment:
    """A cell's note; ``width`` x ``height`` pixels (None: XlsxWriter's default size)."""

    text: str
    author: str = "sflp"
    width: int = 144
    height: int = 79


class Cell:
    """One cell: a value (str, number, bool or None) and its style parts."""

    __slots__ = ("value", "number_format", "fill", "font", "alignment", "border", "quote_prefix", "comment")

    def __init__(self, value=None):
        self.value = value
        self.number_format: str | None = None
        self.fill: Fill | None = None
        self.font: Font | None = None
        self.alignment: Alignment | None = None
        self.border: Border | None = None
        self.quote_prefix = False
        self.comment: Comment | None = None

    def style_key(self) -> tuple:
        return (self.number_format, self.fill, self.font, self.alignment, self.border, self.quote_prefix)


@dataclass
class PrintSetup:
    """A sheet's print set-up (see :func:`sflp.charts.media.xlsx.cells._print_setup`)."""

    areas: list[str]
    pages_wide: int = 1
    pages_tall: int = 1
    title_rows: tuple[int, int] | None = None  # 1-based, inclusive
    title_cols: tuple[int, int] | None = None


@dataclass
class Chart:
    """A scatter chart of straight lines: ``series`` are ``(header row, first row, last row, x
    column, y column, colour)``, 1-based; anchored at ``(row, column)``."""

    title: str
    y_title: str
    x_title: str
    series: list[tuple[int, int, int, int, int, str]]
    row: int
    column: int
    y_format: str = "General"
    """The y axis's number format: that of the plotted column, as a chart linked to its source shows."""


@dataclass
class Sheet:
    """One worksheet of the model: cells by ``(row, column)``, 1-based."""

    title: str
    cells: dict[tuple[int, int], Cell] = field(default_factory=dict)
    widths: dict[int, float] = field(default_factory=dict)
    heights: dict[int, float] = field(default_factory=dict)
    freeze: str | None = None
    gridlines: bool = True
    print_setup: PrintSetup | None = None
    row_breaks: list[int] = field(default_factory=list)
    color_scales: list[tuple[str, tuple[float, float, float], tuple[str, str, str]]] = field(default_factory=list)
    charts: list[Chart] = field(default_factory=list)
    blocks: list[tuple[int, int, list, str]] = field(default_factory=list)
    rows: int = 0

    def cell(self, row: int, column: int, value=None) -> Cell:
        """The cell at ``(row, column)``, made when new; ``value`` (not None) replaces its value."""
        c = self.cells.get((row, column))
        if c is None:
            c = self.cells[(row, column)] = Cell(value)
            if row > self.rows:
                self.rows = row
        elif value is not None:
            c.value = value
        return c

    def append(self, values) -> None:
        """``values`` (values or :class:`Cell`, None: no cell) as the row after the last one."""
        row = self.rows + 1
        for column, v in enumerate(values, start=1):
            if v is None:
                continue
            self.cells[(row, column)] = v if isinstance(v, Cell) else Cell(v)
        self.rows = row

    def number_rows(self, rows: list[list[float]], number_format: str) -> None:
        """Rows of numbers after the last row, from column ``A``; a NaN is no cell.  The first
        number of a row is unformatted (the row's key), the others in ``number_format``."""
        self.blocks.append((self.rows + 1, 1, rows, number_format))
        self.rows += len(rows)


class Book:
    """The workbook: its sheets, in order."""

    def __init__(self):
        self.sheets: list[Sheet] = []

    def create_sheet(self, title: str) -> Sheet:
        sheet = Sheet(title)
        self.sheets.append(sheet)
        return sheet


_VERTICAL = {"center": "vcenter", "top": "top", "bottom": "bottom"}
_PATTERNS = {"solid": 1, "lightUp": 14}


def _format_properties(key: tuple) -> dict:
    number_format, fill, font, alignment, border, quote_prefix = key
    p: dict = {}
    if number_format and number_format != "General":
        p["num_format"] = number_format
    if fill is not None:
        p.update(pattern=_PATTERNS[fill.pattern], fg_color="#" + fill.fg, bg_color="#" + fill.bg)
    if font is not None:
        p.update(font_name=font.name, font_size=font.size)
        if font.bold:
            p["bold"] = True
        if font.italic:
            p["italic"] = True
        if font.color:
            p["font_color"] = "#" + font.color
    if alignment is not None:
        if alignment.horizontal:
            p["align"] = alignment.horizontal
        if alignment.vertical:
            p["valign"] = _VERTICAL[alignment.vertical]
        if alignment.wrap_text:
            p["text_wrap"] = True
    if border is not None:
        p.update(border=1 if border.style == "thin" else 2, border_color="#" + border.color)
    if quote_prefix:
        p["quote_prefix"] = True
    return p


def _range(text: str) -> str:
    return text.replace("$", "")


def write_book(book: Book, target, created) -> None:
    """Write ``book`` to ``target`` (a path or a binary file object) with XlsxWriter, its
    document properties dated ``created`` (naive UTC)."""
    import xlsxwriter
    from xlsxwriter.utility import xl_rowcol_to_cell

    wb = xlsxwriter.Workbook(target, {"in_memory": True, "strings_to_formulas": False, "strings_to_numbers": False,
                                      "strings_to_urls": False})
    wb.set_properties({"created": created})
    formats: dict[tuple, object] = {}

    def fmt(key: tuple):
        f = formats.get(key)
        if f is None:
            props = _format_properties(key)
            f = formats[key] = wb.add_format(props) if props else None
        return f

    for sheet in book.sheets:
        ws = wb.add_worksheet(sheet.title)
        for column, width in sorted(sheet.widths.items()):
            ws.set_column_pixels(column - 1, column - 1, round(width * DIGIT_PIXELS))
        for row, height in sorted(sheet.heights.items()):
            ws.set_row(row - 1, height)
        for (row, column), cell in sorted(sheet.cells.items()):
            r, c, v = row - 1, column - 1, cell.value
            f = fmt(cell.style_key())
            if v is None:
                if f is not None:
                    ws.write_blank(r, c, None, f)
            elif isinstance(v, str):
                ws.write_string(r, c, v, f)
            elif isinstance(v, bool):
                ws.write_boolean(r, c, v, f)
            else:
                ws.write_number(r, c, float(v), f)
            if cell.comment is not None:
                note = cell.comment
                ws.write_comment(r, c, note.text, {"author": note.author, "width": note.width, "height": note.height})
        for top, left, rows, number_format in sheet.blocks:
            f = fmt((number_format, None, None, None, None, False))
            write_number = ws.write_number
            for k, values in enumerate(rows):
                r = top - 1 + k
                write_number(r, left - 1, values[0])
                for c, v in enumerate(values[1:], start=left):
                    if v == v:  # NaN: no cell
                        write_number(r, c, v, f)
        if sheet.freeze:
            ws.freeze_panes(sheet.freeze)
        if not sheet.gridlines:
            ws.hide_gridlines(2)
        for cells, (low, mid, high), (c1, c2, c3) in sheet.color_scales:
            ws.conditional_format(cells, {"type": "3_color_scale", "min_type": "num", "min_value": low,
                                          "min_color": "#" + c1, "mid_type": "num", "mid_value": mid,
                                          "mid_color": "#" + c2, "max_type": "num", "max_value": high,
                                          "max_color": "#" + c3})
        for spec in sheet.charts:
            chart = wb.add_chart({"type": "scatter", "subtype": "straight"})
            quoted = "='" + sheet.title.replace("'", "''") + "'!"
            for header, first, last, x, y, colour in spec.series:
                xs, ys = column_letter(x), column_letter(y)
                chart.add_series({
                    "name": f"{quoted}${ys}${header}",
                    "categories": f"{quoted}${xs}${first}:${xs}${last}",
                    "values": f"{quoted}${ys}${first}:${ys}${last}",
                    "line": {"color": "#" + colour, "width": 2.25},
                    "marker": {"type": "none"},
                })
            chart.set_title({"name": spec.title})
            chart.set_x_axis({"name": spec.x_title})
            chart.set_y_axis({"name": spec.y_title, "num_format": spec.y_format})
            chart.set_legend({"position": "bottom"})
            chart.set_style(13)
            chart.set_size({"width": 680, "height": 359})  # 18 x 9.5 cm
            ws.insert_chart(xl_rowcol_to_cell(spec.row - 1, spec.column - 1), chart)
        setup = sheet.print_setup
        if setup is not None:
            _write_print_setup(wb, ws, sheet.title, setup)
        if sheet.row_breaks:
            ws.set_h_pagebreaks(sheet.row_breaks)
    wb.close()


MARGINS = (0.4, 0.4, 0.6, 0.6, 0.25, 0.25)
"""Page margins of every sheet (inches: left, right, top, bottom, header, footer)."""


def _write_print_setup(wb, ws, title: str, setup: PrintSetup) -> None:
    ws.set_landscape()
    left, right, top, bottom, header, footer = MARGINS
    ws.set_margins(left=left, right=right, top=top, bottom=bottom)
    ws.set_header("&C&A", {"margin": header})
    ws.set_footer("&CPage &P of &N", {"margin": footer})
    ws.center_horizontally()
    ws.fit_to_pages(setup.pages_wide, setup.pages_tall)
    if len(setup.areas) == 1:
        ws.print_area(_range(setup.areas[0]))
    else:  # XlsxWriter's print_area takes one range; the defined name takes several
        quoted = "'" + title.replace("'", "''") + "'"
        wb.define_name(f"{quoted}!_xlnm.Print_Area",
                       "=" + ",".join(f"{quoted}!{_absolute(area)}" for area in setup.areas))
    if setup.title_rows:
        ws.repeat_rows(setup.title_rows[0] - 1, setup.title_rows[1] - 1)
    if setup.title_cols:
        ws.repeat_columns(setup.title_cols[0] - 1, setup.title_cols[1] - 1)


def _absolute(area: str) -> str:
    """``"A1:N16"`` -> ``"$A$1:$N$16"``."""
    import re

    return re.sub(r"([A-Z]+)(\d+)", r"$\1$\2", _range(area))


def column_letter(column: int) -> str:
    """``1`` -> ``"A"``, ``29`` -> ``"AC"``.

    >>> column_letter(1), column_letter(29), column_letter(339)
    ('A', 'AC', 'MA')
    """
    letters = ""
    while column:
        column, rest = divmod(column - 1, 26)
        letters = chr(65 + rest) + letters
    return letters
