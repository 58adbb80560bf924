"""The workbook's cells: geometry, styles, text cells that stay text, print setup and notes.

What every sheet of ``chart.xlsx`` is built from (:mod:`.sheets`): where the 13x13 grids sit
(:data:`GRID_TOP`, :data:`GRID_LEFT`), the fonts, fills and borders, a text cell that can never
become a formula (:func:`text_cell`), the page setup of a printed sheet (:func:`_print_setup`) and the
wrapped notes under a grid (:func:`_notes`).  Styles go through :mod:`.styles`, which copies a
combination's style instead of hashing its parts per cell.
"""

from __future__ import annotations

import textwrap
import weakref
from collections.abc import Callable, Sequence
from functools import cache

from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.styles import Alignment, Border, Font, PatternFill, Side
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.page import PageMargins
from openpyxl.worksheet.properties import PageSetupProperties

from sflp.charts.frames import PLAYER_TITLES
from sflp.charts.media.xlsx import styles as xlsx_styles
from sflp.charts.scale import ink
from sflp.charts.stacks import HAND_EV_STACKS, hand_ev_stacks  # noqa: F401 -- HAND_EV_STACKS: the cap, documented here
from sflp.core.cards import GRID_RANKS
from sflp.output.clean import clean_text

GRID_TOP = 3
"""Worksheet row of the grid's first (aces) row."""
GRID_LEFT = 2
"""Worksheet column of the grid's first (aces) column (``B``)."""
RANGE_BLOCK_HEIGHT = 17
"""Rows per stack block on the ``Ranges`` sheet (title, rank labels, 13 grid rows, 2 blank)."""
RANGE_BB_LEFT = 17
"""Column of the BB grid on the ``Ranges`` sheet (``Q``); the SB grid starts at ``B``."""

THRESHOLD_CELL_WIDTH = 11
"""Column width (characters) of the threshold and SC grids: room for ``AKs 12.5+†`` in
:data:`THRESHOLD_FONT_SIZE` even in DejaVu Sans (LibreOffice's fallback for Calibri, about 77 px
against the column's 82), and the grid fills a landscape page."""
THRESHOLD_FONT_SIZE = 10
"""Font size (points) of a threshold cell's hand and label."""
THRESHOLD_CELL_HEIGHT = 24
"""Row height (points) of the threshold and SC grids."""

SHEET_NAMES = PLAYER_TITLES
FONT_NAME = "Calibri"
"""The one font of the workbook, named by every styled cell (a font without a name prints in
LibreOffice's default, a serif).  Calibri is Excel's default, so the column widths (in Calibri
digits) print as measured there; LibreOffice prints it in Carlito, its metric-compatible
replacement, where installed, and otherwise in its fontconfig match, a sans-serif (DejaVu Sans on
a bare Debian): the grid columns leave room for that wider font too."""
_THIN = Side(style="thin", color="FFFFFF")
_BORDER = Border(left=_THIN, right=_THIN, top=_THIN, bottom=_THIN)
_CENTER = Alignment(horizontal="center", vertical="center")
_BOLD = Font(name=FONT_NAME, bold=True)
_WRAP = Alignment(wrap_text=True, vertical="top")
_TITLE = Font(name=FONT_NAME, bold=True, size=13)
_NOTE = Font(name=FONT_NAME, italic=True, size=9, color="555555")
_VERB = {"sb": "pushed", "bb": "called"}
_LATE_ROWS: weakref.WeakKeyDictionary[Workbook, Callable[[], None]] = weakref.WeakKeyDictionary()
"""Rows a workbook's builder left for :func:`save_workbook` to append: the ``Hand EV`` data,
the one large block, goes to openpyxl's temporary sheet file while the workbook's own file is
being written, so that a full disk (or temporary folder) is reported as a failure to write that
file (:class:`~sflp.errors.OutputError` naming it), as every other write of a report is."""


class _Cells:
    """Random-access cell building for a write-only sheet: cells are collected by position and
    streamed out row by row by :meth:`flush` (openpyxl's write-only sheets take rows in order).

    It offers the few ``Worksheet`` methods the builders use (``cell``, ``ws[...]`` via
    :meth:`at`), and passes every other attribute -- dimensions, print set-up, views, charts --
    through to the real sheet.
    """

    def __init__(self, ws):
        self._ws = ws
        self._cells: dict[tuple[int, int], WriteOnlyCell] = {}

    def __getattr__(self, name):
        return getattr(self._ws, name)

    def __setattr__(self, name, value):
        if name.startswith("_"):
            object.__setattr__(self, name, value)
        else:
            setattr(self._ws, name, value)

    def cell(self, row: int, column: int, value=None) -> WriteOnlyCell:
        c = self._cells.get((row, column))
        if c is None:
            c = self._cells[(row, column)] = WriteOnlyCell(self._ws, value)
        elif value is not None:
            c.value = value
        return c

    def at(self, ref: str) -> WriteOnlyCell:
        from openpyxl.utils.cell import column_index_from_string, coordinate_from_string

        col, row = coordinate_from_string(ref)
        return self.cell(row, column_index_from_string(col))

    def flush(self) -> None:
        if not self._cells:
            return
        last_row = max(r for r, _ in self._cells)
        by_row: dict[int, dict[int, WriteOnlyCell]] = {}
        for (r, c), cell in self._cells.items():
            by_row.setdefault(r, {})[c] = cell
        for r in range(1, last_row + 1):
            row = by_row.get(r, {})
            width = max(row) if row else 0
            self._ws.append([row.get(c) for c in range(1, width + 1)])
        self._cells.clear()


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""First characters that make a spreadsheet application read typed text as a formula (OWASP's
CSV-injection guidance).  A text cell starting with one gets Excel's *quote prefix* (the style
flag behind a typed leading apostrophe): the cell is shown as text, and stays text when edited."""
MAX_CELL_TEXT = 32767
"""The most characters a cell holds (Excel's limit); a longer text is cut, ending in an ellipsis."""


def text_cell(cell, text: object):
    """Write ``text`` (made a ``str``) into ``cell`` as a string, never a formula: the one way a
    text a user gave us reaches a workbook.  Returns the cell.

    openpyxl stores a string starting with ``=`` as a formula and ``#REF!``-like strings as error
    codes; here the cell's type is set to string after the value, so the file holds the text
    (``t="inlineStr"``, no ``<f>``).  A text starting with one of :data:`FORMULA_STARTS` gets the
    quote prefix.  Control characters and lone surrogates become U+FFFD
    (:func:`sflp.output.clean.clean_text`, as in every medium of a set), and a text longer than
    :data:`MAX_CELL_TEXT` is cut with an ellipsis, instead of failing the workbook.

    >>> from openpyxl import Workbook
    >>> cell = text_cell(Workbook().active["A1"], "=1+2")
    >>> cell.value, cell.data_type, cell.quotePrefix
    ('=1+2', 's', True)
    """
    text = clean_text(text)
    if len(text) > MAX_CELL_TEXT:
        text = text[:MAX_CELL_TEXT - 1] + "\u2026"
    cell.value = text
    cell.data_type = "s"
    if text.startswith(FORMULA_STARTS):
        cell.quotePrefix = True
    return cell


def _sheet(wb: Workbook, title: str) -> _Cells:
    return _Cells(wb.create_sheet(title))


@cache
def _fill(hex_: str) -> PatternFill:
    # opaque ARGB: openpyxl would prefix a bare RRGGBB with alpha 00, and "00000000" (the top
    # colour, black) is also openpyxl's "no colour"
    argb = "FF" + hex_ if len(hex_) == 6 else hex_
    return PatternFill(fill_type="solid", start_color=argb, end_color=argb)


@cache
def _hatched(hex_: str) -> PatternFill:
    """A gap cell's fill (``†``): Excel's thin up-diagonal pattern in
    :func:`sflp.charts.scale.hatch_colour` over the band's colour, as every medium hatches it."""
    from sflp.charts.scale import hatch_colour

    return PatternFill(fill_type="lightUp", start_color="FF" + hatch_colour(hex_), end_color="FF" + hex_)


@cache
def _font(color: str, bold: bool = False, size: float = 11) -> Font:
    return Font(name=FONT_NAME, color=color, bold=bold, size=size)


def _styled(cell, number_format=None, fill=None, font=None, alignment=None, border=None):
    """Give ``cell`` the style parts that are not None (``cell.number_format = number_format``, ...),
    each combination hashed by openpyxl once per workbook (:mod:`sflp.charts.media.xlsx.styles`)."""
    return xlsx_styles.styled(cell, number_format, fill, font, alignment, border)


MARGINS = PageMargins(left=0.4, right=0.4, top=0.6, bottom=0.6, header=0.25, footer=0.25)
"""Page margins of every sheet (inches): narrow sides for the wide grids, room above and below for
the header (the sheet's name) and the footer (page numbers)."""


def _print_setup(ws, area: str, pages_wide: int = 1, pages_tall: int = 1, title_rows: str | None = None,
                 title_cols: str | None = None) -> None:
    """Print set-up of a sheet: landscape, :data:`MARGINS`, the sheet's name in the page header and
    ``Page n of N`` in the footer, ``area`` as the print area, centred across the page, and scaled
    to fit ``pages_wide`` x ``pages_tall`` pages (0 = as many as the other direction needs).

    Main sheets fit one page (or one page wide, one page per block); data sheets are one page wide
    (or one tall) and repeat their header rows (``title_rows``, e.g. ``"1:2"``) and columns
    (``title_cols``, e.g. ``"A:A"``) on every page.  The paper size is left to the application
    (A4 or Letter by locale): the fit works on both.
    """
    ws.print_area = area
    ws.page_setup.orientation = "landscape"
    ws.page_setup.fitToWidth = pages_wide
    ws.page_setup.fitToHeight = pages_tall
    ws.sheet_properties.pageSetUpPr = PageSetupProperties(fitToPage=True)
    ws.print_options.horizontalCentered = True
    ws.page_margins = MARGINS
    ws.oddHeader.center.text = "&A"
    ws.oddFooter.center.text = "Page &P of &N"
    if title_rows:
        ws.print_title_rows = title_rows
    if title_cols:
        ws.print_title_cols = title_cols


NOTE_WIDTH = 100
"""Characters a line of a note under a grid holds at most: 9 pt italic text of 100 characters is
about 450 pt wide, inside the 567 pt of a grid's print area, so no note is cut off on paper."""


def _notes(ws, row: int, paragraphs: Sequence[str], width: int = NOTE_WIDTH) -> int:
    """Write ``paragraphs`` in column ``A`` from ``row``, in the note font, wrapped to lines of
    ``width`` characters; returns the row after the last line."""
    for paragraph in paragraphs:
        for line in textwrap.wrap(paragraph, width):
            ws.cell(row, 1, line).font = _NOTE
            row += 1
    return row


def _band_legend(ws, row: int, scale, label: str = "Colour: the band of that stack (bb)") -> int:
    """``label`` in column ``A`` of ``row`` (it runs on over the empty cells to its right), then the
    chart's colour bands (``scale.legend()``, :mod:`sflp.charts.scale`: the bands, the top ``N+``,
    *never*) in the next row from column ``B``, each cell filled with its band's colour and
    labelled with its stacks; returns that row."""
    ws.cell(row, 1, label).font = _NOTE
    row += 1
    for k, (colour, text) in enumerate(scale.legend()):
        cell = ws.cell(row, GRID_LEFT + k, text)
        _styled(cell, fill=_fill(colour), font=_font(ink(colour), False, 9), alignment=_CENTER,
                border=_BORDER)
    return row


def _rank_labels(ws, top: int, left: int) -> None:
    """Rank letters above the grid (row ``top - 1``) and left of it (column ``left - 1``)."""
    for k, rank in enumerate(GRID_RANKS):
        for cell in (ws.cell(top - 1, left + k), ws.cell(top + k, left - 1)):
            cell.value = rank
            _styled(cell, font=_BOLD, alignment=_CENTER)


def _grid_dimensions(ws, left: int, width: float, first_row: int, height: float = 21) -> None:
    ws.column_dimensions[get_column_letter(left - 1)].width = 4
    for k in range(13):
        ws.column_dimensions[get_column_letter(left + k)].width = width
        ws.row_dimensions[first_row + k].height = height
