"""The workbook's cells: geometry, styles, text cells that stay text, print setup and notes.

What every sheet of ``chart.xlsx`` is built from (:mod:`.sheets`): where the 13x13 grids sit
(:data:`GRID_TOP`, :data:`GRID_LEFT`), the fonts, fills and borders, a text cell that can never
become a formula (:func:`text_cell`), the page setup of a printed sheet (:func:`_print_setup`) and the
wrapped notes under a grid (:func:`_notes`).  The cells and sheets are :mod:`.book`'s model,
written through XlsxWriter when the workbook is saved.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from functools import cache

from sflp.charts.frames import PLAYER_TITLES
from sflp.charts.media.xlsx.book import Alignment, Book, Border, Cell, Fill, Font, PrintSetup, Sheet
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
_BORDER = Border("thin", "FFFFFF")
_CENTER = Alignment(horizontal="center", vertical="center")
_BOLD = Font(name=FONT_NAME, bold=True)
_WRAP = Alignment(wrap_text=True, vertical="top")
_TITLE = Font(name=FONT_NAME, bold=True, size=13)
_NOTE = Font(name=FONT_NAME, italic=True, size=9, color="555555")
_VERB = {"sb": "pushed", "bb": "called"}


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""First characters that make a spreadsheet application read typed text as a formula (OWASP's
CSV-injection guidance).  A text cell starting with one gets Excel's *quote prefix* (the style
flag behind a typed leading apostrophe): the cell is shown as text, and stays text when edited."""
MAX_CELL_TEXT = 32767
"""The most characters a cell holds (Excel's limit); a longer text is cut, ending in an ellipsis."""


def text_cell(cell, text: object):
    """Write ``text`` (made a ``str``) into ``cell`` as a string, never a formula: the one way a
    text a user gave us reaches a workbook.  Returns the cell.

    The workbook writes every ``str`` value with XlsxWriter's ``write_string`` (a string cell,
    never ``<f>``, an error code or a number).  A text starting with one of :data:`FORMULA_STARTS` gets the
    quote prefix.  Control characters and lone surrogates become U+FFFD
    (:func:`sflp.output.clean.clean_text`, as in every medium of a set), and a text longer than
    :data:`MAX_CELL_TEXT` is cut with an ellipsis, instead of failing the workbook.

    >>> cell = text_cell(Cell(), "=1+2")
    >>> cell.value, cell.quote_prefix
    ('=1+2', True)
    """
    text = clean_text(text)
    if len(text) > MAX_CELL_TEXT:
        text = text[:MAX_CELL_TEXT - 1] + "\u2026"
    cell.value = text
    if text.startswith(FORMULA_STARTS):
        cell.quote_prefix = True
    return cell


def _sheet(wb: Book, title: str) -> Sheet:
    return wb.create_sheet(title)


@cache
def _fill(hex_: str) -> Fill:
    rgb = hex_[-6:]  # RRGGBB (an AARRGGBB's alpha dropped: every fill is opaque)
    return Fill("solid", rgb, rgb)


@cache
def _hatched(hex_: str) -> Fill:
    """A gap cell's fill (``†``): Excel's thin up-diagonal pattern in
    :func:`sflp.charts.scale.hatch_colour` over the band's colour, as every medium hatches it."""
    from sflp.charts.scale import hatch_colour

    return Fill("lightUp", hatch_colour(hex_), hex_)


@cache
def _font(color: str, bold: bool = False, size: float = 11) -> Font:
    return Font(name=FONT_NAME, color=color, bold=bold, size=size)


def _styled(cell: Cell, number_format=None, fill=None, font=None, alignment=None, border=None) -> Cell:
    """Give ``cell`` the style parts that are not None; returns ``cell``.  The workbook makes one
    XlsxWriter format per combination (:func:`sflp.charts.media.xlsx.book.write_book`)."""
    if number_format is not None:
        cell.number_format = number_format
    if fill is not None:
        cell.fill = fill
    if font is not None:
        cell.font = font
    if alignment is not None:
        cell.alignment = alignment
    if border is not None:
        cell.border = border
    return cell


def _span(text: str) -> tuple[int, int]:
    """``"1:2"`` -> ``(1, 2)``; ``"A:A"`` -> ``(1, 1)`` (columns by number)."""
    first, last = text.split(":")
    if first.isdigit():
        return int(first), int(last)
    return column_number(first), column_number(last)


def column_number(letters: str) -> int:
    """``"A"`` -> 1, ``"AC"`` -> 29."""
    n = 0
    for ch in letters:
        n = 26 * n + ord(ch) - 64
    return n


def _print_setup(ws: Sheet, area: str, pages_wide: int = 1, pages_tall: int = 1, title_rows: str | None = None,
                 title_cols: str | None = None) -> None:
    """Print set-up of a sheet: landscape, :data:`sflp.charts.media.xlsx.book.MARGINS`, the sheet's
    name in the page header and ``Page n of N`` in the footer, ``area`` as the print area, centred
    across the page, and scaled to fit ``pages_wide`` x ``pages_tall`` pages (0 = as many as the other direction needs).

    Main sheets fit one page (or one page wide, one page per block); data sheets are one page wide
    (or one tall) and repeat their header rows (``title_rows``, e.g. ``"1:2"``) and columns
    (``title_cols``, e.g. ``"A:A"``) on every page.  The paper size is left to the application
    (A4 or Letter by locale): the fit works on both.
    """
    ws.print_setup = PrintSetup(area.split(","), pages_wide, pages_tall,
                                _span(title_rows) if title_rows else None, _span(title_cols) if title_cols else None)


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


def _grid_dimensions(ws: Sheet, left: int, width: float, first_row: int, height: float = 21) -> None:
    ws.widths[left - 1] = 4
    for k in range(13):
        ws.widths[left + k] = width
        ws.heights[first_row + k] = height
