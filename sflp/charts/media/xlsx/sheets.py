"""The sheets of ``chart.xlsx``, one builder each: threshold charts, ranges, values, hand EV, About, SC numbers.

What each sheet shows, and in which order the workbook holds them, is in :mod:`.workbook`; the
cells they are made of (geometry, styles, text cells, print setup, notes) are :mod:`.cells`'.
The threshold cells follow the one label and colour rule of every medium (:mod:`sflp.charts.scale`).

Why one module: the six builders are one list (the workbook's sheets, in order) that share the
sheets' notes and number formats; a module a sheet would scatter them over six files of 100 lines.
"""

from __future__ import annotations

import functools
import math
import textwrap
from collections.abc import Sequence
from types import SimpleNamespace

import numpy as np
import pandas as pd

from sflp.charts.colors import (
    EV_NEGATIVE,
    EV_POSITIVE,
    EV_ZERO,
    FREQUENCY_FULL,
    ev_colour,
    frequency_colour,
    text_colour,
)
from sflp.charts.frames import PLAYER_TITLES, grid_from_tidy, select, wide_by_stack
from sflp.charts.media.xlsx.book import Alignment, Book, Cell, Chart, Comment, Sheet, column_letter
from sflp.charts.media.xlsx.cells import (
    _BOLD,
    _BORDER,
    _CENTER,
    _NOTE,
    _TITLE,
    _VERB,
    _WRAP,
    GRID_LEFT,
    GRID_TOP,
    RANGE_BB_LEFT,
    RANGE_BLOCK_HEIGHT,
    THRESHOLD_CELL_HEIGHT,
    THRESHOLD_CELL_WIDTH,
    THRESHOLD_FONT_SIZE,
    _band_legend,
    _fill,
    _font,
    _grid_dimensions,
    _hatched,
    _notes,
    _print_setup,
    _rank_labels,
    _sheet,
    _styled,
    text_cell,
)
from sflp.charts.scale import MARK_GAP, chart_scale, footnotes, ink, parse_intervals, top_text
from sflp.charts.stacks import HAND_EV_STACKS, hand_ev_stacks  # noqa: F401 -- HAND_EV_STACKS: the cap, documented here
from sflp.charts.text import fmt_num
from sflp.core.cards import CLASS_NAMES, PLAYERS

_text_colour = functools.cache(text_colour)
""":func:`sflp.charts.colors.text_colour`, once a colour (a grid's cells share a few dozen colours)."""
_frequency_colour = functools.lru_cache(maxsize=4096)(frequency_colour)
""":func:`sflp.charts.colors.frequency_colour`, once a frequency and player (most cells are 0 or 1)."""


def _grids(frame: pd.DataFrame, names: Sequence[str], **where) -> list[np.ndarray]:
    """``grid_from_tidy(frame, name, **where).to_numpy()`` for each of ``names``: the rows selected and
    put in grid order once (and checked once to hold the 169 hands), each column then one take."""
    rows = select(frame, **where)
    position = pd.DataFrame({"hand": rows["hand"].to_numpy(), "row": np.arange(len(rows))})
    order = grid_from_tidy(position, "row").to_numpy()
    return [rows[name].to_numpy()[order] for name in names]

# ---------------------------------------------------------------- threshold charts


MARKS = ("*", "\u2020")
"""The marks a threshold label may end with (the shared label rule): ``*`` played on several
stretches, every fold gap narrower than 0.5 bb; ``†`` a fold gap of at least 0.5 bb inside the
played range, listed under the grid."""


def label_parts(label: str) -> tuple[str, str]:
    """A chart label split into its number and its mark.

    >>> label_parts("7.1*"), label_parts("25+"), label_parts("12.9\u2020"), label_parts("-")
    (('7.1', '*'), ('25+', ''), ('12.9', '†'), ('-', ''))
    """
    number = label.rstrip("".join(MARKS))
    return number, label[len(number):]


def label_value(number: str) -> float:
    """The number a threshold cell holds for a label's number: ``"7.7"`` -> 7.7, ``"25+"`` -> 25.0
    (the top of the range), ``"-"`` -> 0.0 (never).

    Every cell is a number, so the grid sorts and takes formulas; :func:`label_format` makes it
    read as the hand and its label.

    >>> label_value("7.7"), label_value("25+"), label_value("12.5+"), label_value("137"), label_value("-")
    (7.7, 25.0, 12.5, 137.0, 0.0)
    """
    if number == "-":
        return 0.0
    return float(number.removesuffix("+"))


def label_format(hand: str, number: str, mark: str = "") -> str:
    """The number format that shows :func:`label_value`'s number as the hand's name, a space and
    its label: the number's decimals, then ``+`` when capped and the mark.  A never-played hand
    (0) shows ``-``.

    >>> label_format("AKs", "7.7"), label_format("63s", "7.1", "\u2020"), label_format("AA", "25+")
    ('"AKs "0.0', '"63s "0.0"†"', '"AA "0"+"')
    >>> label_format("72o", "-")
    '"72o "0;"72o "-0;"72o -"'
    """
    if number == "-":
        return f'"{hand} "0;"{hand} "-0;"{hand} -"'
    digits = number.removesuffix("+")
    decimals = len(digits.split(".")[1]) if "." in digits else 0
    suffix = ("+" if number.endswith("+") else "") + mark
    return f'"{hand} "' + ("0." + "0" * decimals if decimals else "0") + (f'"{suffix}"' if suffix else "")


def _intervals_text(text: str) -> str:
    """``"1.000000-7.240000;7.270000-7.290000"`` -> ``"1 to 7.24, 7.27 to 7.29"``."""
    parts = []
    for part in filter(None, text.split(";")):
        lo, hi = part.split("-", 1)
        parts.append(f"{float(lo):.6g} to {float(hi):.6g}")
    return ", ".join(parts) or "none"


SC_SCALE = chart_scale(20)
"""The bands of the SC grid, which has no top of its own: ``20+`` from 20 bb, ``∞`` included."""


def _footnotes(marked: Sequence[tuple[str, str, str]], player: str, low: float, high: float) -> list[str]:
    """The footnote lines of one grid's marked hands ``(hand, mark, intervals text)``, in the
    words of every medium (:func:`sflp.charts.scale.footnotes`)."""
    hands = [SimpleNamespace(player=player, hand=hand, intervals=parse_intervals(text)) for hand, _, text in marked]
    return footnotes(hands, high, low)


THRESHOLD_NOTE_WIDTH = 170
"""Characters a line of a threshold sheet's note holds at most (the sheet prints wider than the
others' notes assume): 9 pt italic in DejaVu Sans, the widest font the workbook may print in, is
about 4.5 pt a character, 770 pt, inside the grid's 824 pt print area."""
FOOTNOTE_SLOTS = ((1, 48), (6, 48), (11, 48))
"""Where the lines of marked hands print, side by side under a threshold grid: (first column,
characters the slot holds), the slots of three columns; two or one when a line is longer."""


def _footnote_block(ws, row: int, lines: Sequence[str]) -> int:
    """``lines`` in the note font from ``row``, in as many side-by-side slots (three, two or one)
    as their longest line allows, filled column by column in order; returns the row after."""
    if not lines:
        return row
    longest = max(len(line) for line in lines)
    slots = 3 if longest <= 48 else 2 if longest <= 72 else 1
    starts = {3: (1, 6, 11), 2: (1, 8), 1: (1,)}[slots]
    if slots == 1:
        lines = [part for line in lines for part in textwrap.wrap(line, THRESHOLD_NOTE_WIDTH,
                                                                  subsequent_indent="    ")]
    per_slot = -(-len(lines) // slots)
    for k, line in enumerate(lines):
        slot, r = divmod(k, per_slot)
        ws.cell(row + r, starts[slot], line).font = _NOTE
    return row + per_slot


def _threshold_notes(verb: str, low: float, high: float) -> list[str]:
    """The printed note under a threshold grid: the layout, what a cell holds, every mark."""
    top, lo = top_text(high), fmt_num(low)
    return [
        "Layout: suited hands above the diagonal, pairs on it, offsuit below (aces top-left).  Each cell "
        f"shows the hand, then the largest stack (bb before posting, truncated to 0.1; whole bb from 100) at "
        f"which it is {verb} with frequency > 0.5.",
        f"{top}+: {verb} at every stack up to {top} bb, the top of the chart.  -: never {verb} with "
        f"frequency > 0.5 in {lo}-{top} bb.  *: {verb} on several stretches, every fold gap between them "
        "narrower than 0.5 bb.  \u2020: folded on a stretch of at least 0.5 bb inside that range.  The lines "
        "under the legend list every marked hand's stacks.",
        f"Every cell is a number (the stack; {top} when capped, 0 when never): its number format writes the "
        "hand, the +, - and marks.  Colour: the largest stack, in the bands below.",
    ]


def _threshold_sheet(ws, tdf: pd.DataFrame, player: str, low: float, high: float, structure: str) -> None:
    # the grids as numpy arrays, read cell by cell below (a DataFrame's .iat costs more than the cell)
    labels, max_stack, hands, intervals, any_intervals, capped = _grids(
        tdf, ("chart_label", "max_stack", "hand", "intervals", "any_intervals", "capped"), player=player)
    scale = chart_scale(high, low)
    verb = _VERB[player]
    title = f"{PLAYER_TITLES[player]} thresholds (bb), {structure}, stacks {fmt_num(low)}-{fmt_num(high)} bb"
    text_cell(ws.cell(1, 1), title).font = _TITLE
    _rank_labels(ws, GRID_TOP, GRID_LEFT)
    marked: list[tuple[str, str, str]] = []  # in grid order, row by row
    for r in range(13):
        for c in range(13):
            number, mark = label_parts(labels[r, c])
            hand = hands[r, c]
            colour = scale.colour(max_stack[r, c], bool(capped[r, c]))
            cell = ws.cell(GRID_TOP + r, GRID_LEFT + c, label_value(number))
            _styled(cell, label_format(hand, number, mark), _hatched(colour) if mark == MARK_GAP else _fill(colour),
                    _font(ink(colour), False, THRESHOLD_FONT_SIZE), _CENTER, _BORDER)
            if mark:  # on screen; the printed page lists the same under the grid
                marked.append((hand, mark, intervals[r, c]))
                note = (
                    f"{hand}: {verb} with frequency > 0.5 at stacks "
                    f"{_intervals_text(intervals[r, c])} bb; with any frequency at "
                    f"{_intervals_text(any_intervals[r, c])} bb."
                )
                cell.comment = Comment(note, "sflp", 260, 110)
    _grid_dimensions(ws, GRID_LEFT, THRESHOLD_CELL_WIDTH, GRID_TOP, THRESHOLD_CELL_HEIGHT)
    end = _notes(ws, GRID_TOP + 14, _threshold_notes(verb, low, high), THRESHOLD_NOTE_WIDTH)
    scale_row = _band_legend(ws, end + 1, scale)
    last = _footnote_block(ws, scale_row + 2, _footnotes(marked, player, low, high)) - 1
    ws.gridlines = False
    _print_setup(ws, f"A1:N{max(last, scale_row)}")


# ---------------------------------------------------------------- frequency grids


def _hand_format(hand: str) -> str:
    """Show the hand name, with the percentage when mixed: ``AKs``, ``AKs 73%``."""
    return f'[=1]"{hand}";[>0]"{hand} "0%;"{hand}"'


def _frequency_grid(ws, top: int, left: int, freq, hands, player: str,
                    size: float = 9) -> None:
    _rank_labels(ws, top, left)
    # the grids (DataFrames or arrays) read as lists
    freqs, names = np.asarray(freq, dtype=np.float64).tolist(), np.asarray(hands).tolist()
    for r in range(13):
        for c in range(13):
            f = freqs[r][c]
            colour = _frequency_colour(f, player)
            cell = ws.cell(top + r, left + c, f)
            _styled(cell, _hand_format(names[r][c]), _fill(colour),
                    _font(_text_colour(colour) if f > 0 else "777777", False, size), _CENTER, _BORDER)


def _ev_grid(ws, top: int, left: int, ev: pd.DataFrame) -> None:
    _rank_labels(ws, top, left)
    values = ev.to_numpy(dtype=np.float64)
    finite = np.abs(values[~np.isnan(values)])
    scale = float(np.percentile(finite, 90)) if finite.size else 0.0
    for r in range(13):
        for c in range(13):
            v = float(values[r, c])
            colour = ev_colour(v, scale)
            cell = ws.cell(top + r, left + c, None if math.isnan(v) else v)
            _styled(cell, EV_FORMAT, _fill(colour), _font(_text_colour(colour), False, 9), _CENTER, _BORDER)


def _ranges_sheet(ws, ranges: pd.DataFrame, stacks: Sequence[float]) -> None:
    """One block of :data:`RANGE_BLOCK_HEIGHT` rows a stack, SB's grid beside BB's on screen; on
    paper one grid a page: the print area is one range per grid (``A:N`` and ``P:AC`` of each
    block, SB's grids, then BB's), each printed on its own page
    with its own title (player, stack) and the note on what a cell shows."""
    areas = []
    for k, stack in enumerate(stacks):
        top = 1 + k * RANGE_BLOCK_HEIGHT
        ws.cell(top, 1, f"Stack {fmt_num(stack)} bb").font = _TITLE
        at = select(ranges, stack=stack)
        for player, left in (("sb", GRID_LEFT), ("bb", RANGE_BB_LEFT)):
            ws.cell(top, left + 2, f"{PLAYER_TITLES[player]} frequency at {fmt_num(stack)} bb").font = _BOLD
            freq, hands = _grids(at, ("frequency", "hand"), player=player)
            _frequency_grid(ws, top + 2, left, freq, hands, player, THRESHOLD_FONT_SIZE)
            ws.cell(top + 15, left - 1, RANGE_NOTE[player]).font = _NOTE
            areas.append((left, f"{column_letter(left - 1)}{top}:{column_letter(left + 12)}{top + 15}"))
        for row in range(top + 2, top + 15):
            ws.heights[row] = RANGE_CELL_HEIGHT
    for left in (GRID_LEFT, RANGE_BB_LEFT):
        ws.widths[left - 1] = 4
        for c in range(13):
            ws.widths[left + c] = RANGE_CELL_WIDTH
    ws.widths[1] = 12
    # a page a grid, SB's stacks then BB's (the order LibreOffice prints ranges in, column by column)
    _print_setup(ws, ",".join(area for _, area in sorted(areas, key=lambda a: a[0])) or "A1:N1", pages_tall=0)
    ws.gridlines = False
    for k in range(1, len(stacks)):
        ws.row_breaks.append(k * RANGE_BLOCK_HEIGHT)


RANGE_CELL_WIDTH = 11
"""Column width (characters) of the ``Ranges`` grids: room for ``AKs 73%`` in 10 pt, and the grid
fills a landscape page."""
RANGE_CELL_HEIGHT = 30
"""Row height (points) of the ``Ranges`` grids: a landscape page holds one grid at full size."""
RANGE_NOTE = {
    player: f"Each cell: the hand, and how often it is {_VERB[player]} when mixed (no "
            f"percentage: always; grey: never).  Suited hands above the diagonal, pairs on it, offsuit below."
    for player in PLAYERS
}
"""The note printed under each ``Ranges`` grid."""


# ---------------------------------------------------------------- values and hand EV

_VALUE_HEADERS = {
    "stack": "stack (bb)",
    "value": "value (SB EV, bb/hand)",
    "push_pct": "SB push %",
    "call_pct": "BB call %",
    "exploitability": "exploitability (bb)",
    "value_exact": "value (exact)",
}
EXPLOITABILITY_FORMAT = '[=0]"0";0.00E+00'
"""Number format of the certified exploitability bound (bb): ``0`` when it is exactly 0 (as
``values.csv`` writes it, ``0.0``), the exponent otherwise (``3.20E-12``)."""
_VALUE_FORMATS = {
    "stack": "General",
    "value": "0.000000",
    "push_pct": "0.00",
    "call_pct": "0.00",
    "exploitability": EXPLOITABILITY_FORMAT,
    "value_exact": "@",
}


def _values_sheet(ws: Sheet, values: pd.DataFrame, charts: bool = True, note: str | None = None) -> None:
    """The EV-by-stack table with two native charts."""
    columns = list(values.columns)
    for c, name in enumerate(columns, start=1):
        ws.widths[c] = 24 if name == "value_exact" else 16
    ws.freeze = "A2"
    n = len(values)
    last_row = n + 1 + (2 if note else 0)
    with_charts = charts and n >= 2
    anchor = len(columns) + 2  # the charts' column, right of the table
    # with charts the page
    # is the two charts, one above the other, under a note saying the table is left out; without, the
    # table (one row a stack), one page wide, its header on every page
    if with_charts:
        _print_setup(ws, f"{column_letter(anchor)}1:{column_letter(anchor + CHART_COLUMNS - 1)}"
                         f"{2 + 2 * CHART_ROWS + 1}")
    else:
        _print_setup(ws, f"A1:{column_letter(len(columns))}{last_row}", pages_tall=0, title_rows="1:1")
    header = []
    for name in columns:
        header.append(_styled(Cell(_VALUE_HEADERS.get(name, name)), font=_BOLD, alignment=_WRAP))
    if with_charts:
        header += [None, _styled(Cell(values_print_note(n, len(columns))), font=_NOTE,
                                 alignment=Alignment(vertical="top"))]
    ws.heights[1] = 30  # two lines: a header wraps rather than run into the next
    ws.append(header)
    formats = [_VALUE_FORMATS.get(name, "General") for name in columns]
    for row in values.itertuples(index=False):
        cells = []
        for fmt, v in zip(formats, row):
            if isinstance(v, float) and math.isnan(v):
                v = None
            cells.append(_styled(Cell(v), fmt))
        ws.append(cells)
    if note:
        ws.append([])
        cell = Cell(note)
        cell.font = _NOTE
        ws.append([cell])
    if not with_charts:
        return
    ws.charts.append(_line_chart("SB value by stack", "SB EV (bb per hand)", n, [(2, FREQUENCY_FULL["sb"])], 2, anchor,
                                 formats[1]))
    ws.charts.append(_line_chart("Push and call percentages by stack", "% of hands", n,
                                 [(3, FREQUENCY_FULL["sb"]), (4, FREQUENCY_FULL["bb"])], 2 + CHART_ROWS + 1, anchor,
                                 formats[2]))


def values_print_note(rows: int, columns: int) -> str:
    """The note above the ``Values`` charts, the sheet's print area: the table is not printed.

    >>> values_print_note(481, 6)
    'Printed: these two charts. The table (columns A-F, 481 stacks) is left out: select it and print the selection.'
    """
    return (f"Printed: these two charts. The table (columns A-{column_letter(columns)}, {rows:,} stacks) "
            "is left out: select it and print the selection.")


CHART_ROWS = 18
"""Rows (15 pt each) one chart on the ``Values`` sheet covers: 9.5 cm = 269 pt."""
CHART_COLUMNS = 11
"""Columns (default width, 64 px each) one chart covers: 18 cm = 680 px, so 10.6 columns."""


def _line_chart(title: str, y_title: str, n: int, series: Sequence[tuple[int, str]], row: int, column: int,
                y_format: str) -> Chart:
    """A scatter chart of lines without markers against the stack (column ``A``, rows 2 to
    ``n + 1``), each series a column (its header cell names it in the legend, below the plot)
    drawn 2.25 pt wide in its colour: SB's in ``FREQUENCY_FULL["sb"]`` (green) and BB's in
    ``FREQUENCY_FULL["bb"]`` (blue), as on the grids and the HTML page; anchored at ``(row, column)``;
    the y axis in ``y_format``, the plotted columns' number format (as openpyxl's charts, linked to
    their source, showed it)."""
    return Chart(title, y_title, "stack (bb)", [(1, 2, n + 1, 1, col, colour) for col, colour in series], row, column,
                 y_format)


EV_FORMAT = "+0.000;-0.000;0.000"
"""Number format of EV margins in the workbook (bb, sign always shown)."""


def _ev_colour_scale(scale: float) -> tuple[tuple[float, float, float], tuple[str, str, str]]:
    """The EV colour scale of :func:`sflp.charts.colors.ev_colour` as a conditional format: red
    (``EV_NEGATIVE``) at ``-scale`` and below, white (``EV_ZERO``) at 0, blue (``EV_POSITIVE``) at
    ``+scale`` and above (ColorBrewer RdBu, colour-blind safe)."""
    scale = scale if scale > 0 else 1.0
    return (-scale, 0.0, scale), (EV_NEGATIVE, EV_ZERO, EV_POSITIVE)


def _hand_ev_sheet(ws: Sheet, ranges: pd.DataFrame, note: str | None = None) -> None:
    """Stacks as rows, SB then BB EV margins of the 169 hands as columns.

    The header rows, widths, panes, one conditional-format colour scale over the data block, the
    data rows (:meth:`~sflp.charts.media.xlsx.book.Sheet.number_rows`: each margin a number in
    :data:`EV_FORMAT`; NaN, BB where SB never shoves, is no cell) and the print note under them.
    """
    sb = wide_by_stack(ranges, "ev_margin", "sb")
    bb = wide_by_stack(ranges, "ev_margin", "bb")
    n_hands = sb.shape[1]
    data = np.hstack([sb.to_numpy(), bb.to_numpy()]) + 0.0
    stacks = sb.index.to_numpy(dtype=np.float64)
    ws.freeze = "B3"
    # a data sheet too wide for paper: the print area is the note under the data, which says so
    note_row = 2 + len(stacks) + 2
    print_note = hand_ev_print_note(len(stacks), 2 * n_hands)
    _print_setup(ws, f"A{note_row}:{column_letter(HAND_EV_NOTE_COLUMNS)}{note_row + len(print_note) - 1}")
    ws.widths[1] = 11
    for c in range(2, 2 + 2 * n_hands):
        ws.widths[c] = 8

    def bold(value):
        return _styled(Cell(value), font=_BOLD)

    top = [None] * (1 + 2 * n_hands)
    top[0] = bold("stack (bb)")
    top[1] = bold("SB: EV(shove) - EV(fold), bb per hand held" + (f". {note}" if note else ""))
    top[1 + n_hands] = bold("BB: EV(call) - EV(fold) facing a shove, bb (empty where SB never shoves)")
    ws.append(top)
    ws.append([bold("hand"), *(bold(h) for h in sb.columns), *(bold(h) for h in bb.columns)])
    if len(stacks):
        finite = np.abs(data[~np.isnan(data)])
        scale = float(np.percentile(finite, 90)) if finite.size else 1.0
        block = f"B3:{column_letter(1 + 2 * n_hands)}{2 + len(stacks)}"
        ws.color_scales.append((block, *_ev_colour_scale(scale)))
    ws.number_rows([[stack, *values] for stack, values in zip(stacks.tolist(), data.tolist())], EV_FORMAT)
    ws.append([])
    for line in print_note:
        cell = Cell(line)
        cell.font = _NOTE
        ws.append([cell])


HAND_EV_NOTE_COLUMNS = 13
"""Columns (``A:M``, 107 characters wide) of the ``Hand EV`` print area, the note under the data."""


def hand_ev_print_note(stacks: int, columns: int) -> list[str]:
    """The lines under the ``Hand EV`` data, the sheet's print area: the margins are not printed.

    >>> for line in hand_ev_print_note(54, 338): print(line)
    Not printed: the EV margins above (54 stacks x 338 columns, SB's and BB's hands) are too wide
    for paper, so the print area is this note. To print them, select them and print the selection.
    """
    return [f"Not printed: the EV margins above ({stacks:,} stacks x {columns:,} columns, SB's and BB's hands) "
            "are too wide",
            "for paper, so the print area is this note. To print them, select them and print the selection."]


# ---------------------------------------------------------------- about


def _about_sheet(ws, about: Sequence[tuple[str, object]]) -> None:
    ws.cell(1, 1, "About this report").font = _TITLE
    for r, (key, value) in enumerate(about, start=3):
        text_cell(ws.cell(r, 1), key).font = _BOLD  # keys and texts may come from the user (extra_about)
        cell = ws.cell(r, 2, value) if isinstance(value, (int, float)) else text_cell(ws.cell(r, 2), value)
        cell.alignment = Alignment(wrap_text=True, vertical="top")
        ws.cell(r, 1).alignment = Alignment(vertical="top")
    ws.widths[1] = 28
    ws.widths[2] = 100
    _print_setup(ws, f"A1:B{len(about) + 2}")


# ---------------------------------------------------------------- Sklansky-Chubukov numbers


SC_TABLE_LEFT = 16
"""Column of the exact SC list on the ``SC numbers`` sheet (``P``: hand, ``Q``: number, ``R``: p/q)."""


def sc_cap(numbers: Sequence[float]) -> float:
    """The number that stands for an unbounded (``inf``) SC number: the smallest power of ten at
    least ten times the largest finite number (at least 10), so it sorts above every real number
    and no real number reaches it.

    >>> sc_cap([1.5, 954.2, float("inf"), float("nan")]), sc_cap([float("inf")]), sc_cap([0.3])
    (10000.0, 10.0, 10.0)
    """
    finite = [float(v) for v in numbers if math.isfinite(v)]
    largest = max(finite, default=0.0)
    if largest <= 1.0:
        return 10.0
    return float(10 ** math.ceil(math.log10(10 * largest)))


def sc_format(cap: float, decimals: int, hand: str = "") -> str:
    """Number format of an SC number: ``∞`` at ``cap`` and above, ``-`` for 0 (never), else the
    number to ``decimals`` places; after ``hand``'s name and a space when one is given (the grid's
    cells read ``AKs 277.8`` like the threshold sheets', issue 42: they printed bare numbers).

    >>> sc_format(10000.0, 1)
    '[>=10000]"∞";[=0]"-";0.0'
    >>> sc_format(10000.0, 1, "AKs")
    '[>=10000]"AKs ∞";[=0]"AKs -";"AKs "0.0'
    """
    name = f"{hand} " if hand else ""
    head = f'"{name}"' if name else ""
    return f'[>={cap:g}]"{name}∞";[=0]"{name}-";{head}0.{"0" * decimals}'


def add_sc_sheet(wb: Book, sc: pd.DataFrame, structure: str, tie_rule: str = "") -> None:
    """A "SC numbers" sheet: the 13x13 grid of Sklansky-Chubukov numbers (frame of
    :func:`sflp.charts.frames.sc_frame`) in the threshold colour bands with their legend, and the
    exact values in columns ``P:R`` beside it (on screen; the printed page is the grid).  Each grid
    cell reads as the hand and its number (``AKs 277.8``, by its number format: the cell stays a
    number), in the threshold sheets' font size, and the rank letters above and left of the grid
    are the print titles (row 2, column A), repeated on every printed page.

    Every number is a number: unbounded (``inf``) is stored as :func:`sc_cap` and never
    profitable (NaN) as 0, shown ``∞`` and ``-`` by :func:`sc_format`; a note says so.
    """
    ws = _sheet(wb, "SC numbers")
    text_cell(ws.cell(1, 1), f"Sklansky-Chubukov numbers (bb before posting), {structure}").font = _TITLE
    _rank_labels(ws, GRID_TOP, GRID_LEFT)
    numbers = [float(v) for v in sc["sc_number"]]
    cap = sc_cap(numbers)
    table_format = sc_format(cap, 6)

    def stored(v: float) -> float:
        return cap if math.isinf(v) else 0.0 if math.isnan(v) else v

    by_hand = dict(zip(sc["hand"], numbers))
    for k, hand in enumerate(CLASS_NAMES):
        r, c = divmod(k, 13)
        v = by_hand[hand]
        colour = SC_SCALE.colour(None if math.isnan(v) else v, v > SC_SCALE.high)
        cell = ws.cell(GRID_TOP + r, GRID_LEFT + c, stored(v))
        _styled(cell, sc_format(cap, 1, hand), _fill(colour), _font(ink(colour), False, THRESHOLD_FONT_SIZE), _CENTER,
                _BORDER)
        text = (f"{v:.6f} bb" if math.isfinite(v) else
                f"unbounded: the shove is break-even at every stack (stored as {cap:g})" if math.isinf(v) else
                "never break-even (stored as 0)")
        cell.comment = Comment(f"{hand}: {text}", "sflp")
    _grid_dimensions(ws, GRID_LEFT, THRESHOLD_CELL_WIDTH, GRID_TOP, THRESHOLD_CELL_HEIGHT)
    notes = [
        "The largest stack at which SB's shove is at least break-even even if BB sees SB's cards and calls "
        f"with exactly the hands that profit.  ∞: at every stack (the cell holds {cap:g}, the first power of "
        "ten at least ten times the largest finite number).  -: never (the cell holds 0).  Colour: the "
        f"bands below.  Exact values: columns {column_letter(SC_TABLE_LEFT)} to "
        f"{column_letter(SC_TABLE_LEFT + 2)}.",
    ]
    if tie_rule:
        notes.append(f"Ties: {tie_rule}.")
    end = _notes(ws, GRID_TOP + 14, notes)
    scale_row = _band_legend(ws, end + 1, SC_SCALE)
    heads = ("hand", "SC number (bb)", "exact (p/q)")
    for col, (head, width) in enumerate(zip(heads, (7, 15, 28)), start=SC_TABLE_LEFT):
        ws.widths[col] = width
        _styled(ws.cell(GRID_TOP - 1, col, head), font=_BOLD, alignment=Alignment(wrap_text=True))
    for k, (hand, v, exact) in enumerate(zip(sc["hand"], numbers, sc["sc_exact"])):
        ws.cell(GRID_TOP + k, SC_TABLE_LEFT, hand)
        ws.cell(GRID_TOP + k, SC_TABLE_LEFT + 1, stored(v)).number_format = table_format
        ws.cell(GRID_TOP + k, SC_TABLE_LEFT + 2, exact or None)
    ws.gridlines = False
    _print_setup(ws, f"A1:N{scale_row}", title_rows=f"{GRID_TOP - 1}:{GRID_TOP - 1}",
                 title_cols=f"{column_letter(GRID_LEFT - 1)}:{column_letter(GRID_LEFT - 1)}")
