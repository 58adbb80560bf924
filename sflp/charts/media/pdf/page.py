"""The printable chart, ``chart.pdf``: landscape A4 or US Letter, the chart on page 1, the
reference after it.

**Page 1** is the sheet a player prints and keeps: the SB push and BB call threshold grids side
by side, across the whole printable width (the two grids take 93 % of it on both papers), every
cell's text in 9 pt (the hand, and in bold the largest stack in bb at which it is played), the
band legend under them (:func:`sflp.charts.scale.chart_scale`, the colours of every other
medium) and how to read them.  A hand played on more than one stack interval is marked after its
number (``7.1*``), as in every medium.

**The pages after it** are the reference: the configuration, solver and certificate, then every
starred hand with its stack intervals to 0.0001 bb, in columns of 9 pt text, a player at a time.
A long list (a 1-200 bb chart has hundreds of intervals) goes on to further pages instead of being
cut short; every page is numbered ``page k of n``.

A single-stack set's page 1 shows the SB push and BB call frequency grids at that stack instead,
with the frequency legend.

Sizes: margins are half an inch (most printers cannot print the outer 4-6 mm), so the printable
width is 770 pt on A4 (297 x 210 mm) and 720 pt on Letter (11 x 8.5 in); cells are 27.7 pt
(9.8 mm) and 25.8 pt (9.1 mm) when nothing else needs the height; page 1's footnotes take some
(the 1-25 bb chart's grids take 78 % of the width on A4, 88 % on Letter).  Cell text is 9 pt; a
label wider than its cell (``24.4†`` in 9 pt bold is 26.7 pt) is set smaller to fit it
(:func:`sflp.charts.media.pictures.plots.fitted_size`; 7.1 pt at the smallest on the 1-25 bb A4 page).  A
threshold of 100 bb or more is printed in whole bb (``137``); the reference pages and
``thresholds.csv`` keep every digit.

>>> PAPERS["a4"].name, PAPERS["letter"].name
('A4', 'US Letter')
>>> round(grid_size(PAPERS["a4"]) * 2 / (PAPERS["a4"].width - 2 * MARGIN), 3)
0.935
>>> page_label("137.2"), page_label("13.3"), page_label("25+"), page_label("-")
('137', '13.3', '25+', '-')
"""

from __future__ import annotations

import math
import pathlib
from collections.abc import Sequence
from typing import NamedTuple

import pandas as pd

from sflp.atomic import write_bytes
from sflp.charts.frames import GRID_RANKS, PLAYER_TITLES, select
from sflp.charts.media.draw import CAP_HEIGHT, Drawing, pdf_bytes, text_width, wrap
from sflp.charts.media.pictures.plots import (
    INK,
    OUTLINE,
    PT,
    combo_pct,
    draw_grid,
    frequency_cells,
    frequency_legend,
    threshold_cells,
)
from sflp.charts.media.writer import PAPER_NAMES, check_paper
from sflp.charts.scale import FOLD_GAP_BB, MARK_GAP, MARK_SEVERAL, ChartScale, ink, top_text
from sflp.charts.text import fmt_num


class Paper(NamedTuple):
    """A sheet, landscape, in points."""

    name: str
    width: float
    height: float


PAPERS = {
    "a4": Paper("A4", 297 / 25.4 * PT, 210 / 25.4 * PT),  # ISO 216
    "letter": Paper("US Letter", 11 * PT, 8.5 * PT),  # ANSI A
}
"""The papers ``chart.pdf`` is laid out for (``sflp chart --paper``), by
:data:`sflp.charts.media.writer.PAPER_NAMES`."""
assert tuple(PAPERS) == PAPER_NAMES
MARGIN = 0.5 * PT
"""Every side: the printable area is the sheet less half an inch all round."""
TEXT = 9.0
"""The size of every text in a cell and of the reading notes and reference lists (pt)."""
GREY = "555555"
_RANK_COLUMN = 14.0  # room left of a grid for its rank letters
_GRID_GAP = 22.0  # between the SB and BB grids


def grid_size(paper: Paper) -> float:
    """The width of one 13x13 grid: two grids, their rank columns and the gap fill the printable width."""
    return (paper.width - 2 * MARGIN - 2 * _RANK_COLUMN - _GRID_GAP) / 2


def page_label(label: str) -> str:
    """A threshold label as the page prints it: whole bb from 100 bb up (its mark kept after it),
    else unchanged.

    >>> page_label("137.2*"), page_label("7.1*")
    ('137*', '7.1*')
    """
    number = label.rstrip("*†")
    try:
        value = float(number)
    except ValueError:
        return label
    return (str(math.floor(value)) if value >= 100 else number) + label[len(number):]


# ---------------------------------------------------------------- page 1


def band_legend(d: Drawing, left: float, top: float, box: float, scale: ChartScale, size: float = TEXT) -> None:
    """The chart's legend in a row (:meth:`~sflp.charts.scale.ChartScale.legend`): the bands ``≤2``
    to ``20–25``, the top ``25+`` and never, each box labelled in bb."""
    label = "Colour = band of that stack (bb):"
    d.text(left, top + 8 + CAP_HEIGHT * size / 2, label, size, INK, "bold")
    x = left + text_width(label, size, "bold") + 8
    for k, (colour, text) in enumerate(scale.legend()):
        d.rect(x + k * box, top, box - 2, 16, fill=colour, stroke=OUTLINE, width=0.4)
        d.text(x + k * box + (box - 2) / 2, top + 8 + CAP_HEIGHT * size / 2, text, size, ink(colour),
               anchor="middle")


def page_footnotes(lines: Sequence[str], verb: str) -> list[str]:
    """A grid's footnotes as page 1 prints them: each ``†`` line in full (the number alone would
    mislead), then one line naming the ``*`` hands, whose slivers page 2 lists.

    >>> page_footnotes(["† 63s: push ≤2.3 and 5.1–7.1", "* J4o: push ≤5.4 and 5.41–5.47", "* T2o: push ≤2.9"], "pushed")
    ['† 63s: push ≤2.3 and 5.1–7.1', '* J4o, T2o: pushed on several stretches, each fold narrower than 0.5 bb (page 2)']
    """
    gaps = [line for line in lines if line.startswith(MARK_GAP)]
    several = [line[2:].split(":", 1)[0] for line in lines if line.startswith(MARK_SEVERAL)]
    if several:
        gaps.append(f"{MARK_SEVERAL} {', '.join(several)}: {verb} on several stretches, each fold narrower than "
                    f"{FOLD_GAP_BB:g} bb (page 2)")
    return gaps


MIN_GRID_SHARE = 0.7
"""Page 1's grids take at least this share of the printable width (93 % when nothing needs their
height): the footnotes of a chart with many marked hands take the height above it, so that they
stay on the page of their grid (78 % for the 1-25 bb chart on A4, 9 ``†`` hands; 88 % on Letter)."""


FOOTNOTE_COLUMNS = 3
"""Page 1's footnotes stand in this many columns (their lines are short), so they take little of
the height the grids need."""


def _footnote_block(tdf, low: float, high: float, width: float) -> list[list[tuple[str, str]]]:
    """Page 1's footnotes (:func:`page_footnotes`) as :data:`FOOTNOTE_COLUMNS` balanced columns
    of ``(text, weight)`` lines, wrapped to ``width``: each player's title in bold, then its lines
    (SB first; a player's lines may go on in the next column)."""
    flow: list[tuple[str, str]] = []
    for player, verb in (("sb", "pushed"), ("bb", "called")):
        notes = page_footnotes(threshold_cells(tdf, player, low, high).footnotes, verb)
        if notes:
            flow.append((PLAYER_TITLES[player], "bold"))
            flow += [(("    " if k else "") + w, "normal") for note in notes
                     for k, w in enumerate(wrap(note, width - 14, TEXT))]
    per = -(-len(flow) // FOOTNOTE_COLUMNS)
    columns, start = [], 0
    for _ in range(FOOTNOTE_COLUMNS):
        cut = min(len(flow), start + per)
        if 0 < cut < len(flow) and flow[cut - 1][1] == "bold":  # a title stays with its first line
            cut -= 1
        columns.append(flow[start:cut])
        start = cut
    columns[-1] += flow[start:]
    return columns


def _first_page(paper: Paper, tdf, low: float, high: float, structure: str, ranges, stack) -> Drawing:
    d = Drawing(paper.width, paper.height)
    size = grid_size(paper)
    top = MARGIN + 58
    step = TEXT * 1.3
    if tdf is not None:
        title = f"Heads-up push/fold thresholds, stacks {fmt_num(low)}-{fmt_num(high)} bb, {structure}"
        column = (paper.width - 2 * MARGIN - (FOOTNOTE_COLUMNS - 1) * _GRID_GAP) / FOOTNOTE_COLUMNS
        columns = _footnote_block(tdf, low, high, column)
        most = max(map(len, columns))
        notes = [
            f"Each cell: the hand and, in bold, the largest stack (bb, effective, before posting; truncated to 0.1"
            f"{', whole bb from 100' if high >= 100 else ''}) at which it is pushed (left) or called (right) with "
            f"frequency > 0.5, then its mark.  {top_text(high)}+ = to the top of this chart; - = never.  "
            "Aces top-left, suited hands above the diagonal, offsuit below."
            + (f"  † (a hatched cell; where the number fills its cell, the hatching alone) folded on a stretch "
               f"of {FOLD_GAP_BB:g} bb or more inside the played range: "
               "read the stacks below, not the number.  "
               "* several stretches, each fold narrower (stacks on page 2)." if most else ""),
        ]
        note_lines = [w for note in notes for w in wrap(note, paper.width - 2 * MARGIN, TEXT)]
        # the grids shrink (to a floor) so that the legend, notes and every footnote fit on this page
        room = paper.height - MARGIN - 14 - top - 12 - 26 - len(note_lines) * step - most * step - 8
        floor = MIN_GRID_SHARE * (paper.width - 2 * MARGIN) / 2
        size = max(min(size, room), floor)
        lefts = _lefts(paper, size)
        for left, player in zip(lefts, ("sb", "bb")):
            cells = threshold_cells(tdf, player, low, high)
            labels = [[page_label(text) for text in row] for row in cells.labels]
            draw_grid(d, left, top, size, cells.colours, cells.hands, labels, rank_size=TEXT, text_size=TEXT,
                      outlined=cells.never, hatched=cells.gaps)
            d.text(left + size / 2, top - 18, f"{PLAYER_TITLES[player]}: largest stack (bb) played", 11, INK,
                   "bold", anchor="middle")
        below = top + size + 12
        legend = cells.scale.legend()
        band_legend(d, lefts[0], below, min(46.0, (paper.width - MARGIN - lefts[0] - 170) / len(legend)),
                    cells.scale)
        y = d.lines(MARGIN, below + 26, note_lines, TEXT, "222222", spacing=1.3)
        for k, lines in enumerate(columns):
            for j, (text, weight) in enumerate(lines):
                d.text(MARGIN + k * (column + _GRID_GAP), y + 4 + j * step + TEXT * 0.93, text, TEXT,
                       INK if weight == "bold" else "222222", weight)
    else:
        title = f"Heads-up push/fold equilibrium at {fmt_num(stack)} bb, {structure}"
        lefts = _lefts(paper, size)
        at = select(ranges, stack=stack)
        for left, player in zip(lefts, ("sb", "bb")):
            rows = select(at, player=player)
            colours, hands, second = frequency_cells(rows, player)
            draw_grid(d, left, top, size, colours, hands, second, rank_size=TEXT, text_size=TEXT)
            d.text(left + size / 2, top - 18, f"{PLAYER_TITLES[player]} at {fmt_num(stack)} bb: "
                   f"{combo_pct(rows):.1f}% of hands", 11, INK, "bold", anchor="middle")
            frequency_legend(d, left, top + size + 12, player, box=40, size=TEXT)
        below = top + size + 22  # the swatches are 24 pt tall
        notes = ["Each cell: the hand and, when it is mixed, its frequency; white = never, full colour = always.  "
                 "Aces top-left, pairs on the diagonal, suited hands above it, offsuit below; the stack is "
                 "effective, before posting."]
        lines = [w for note in notes for w in wrap(note, paper.width - 2 * MARGIN, TEXT)]
        d.lines(MARGIN, below + 26, lines, TEXT, "222222", spacing=1.3)
    for line in _fit_title(title, paper.width - 2 * MARGIN):
        d.text(MARGIN, MARGIN + 14, line, 15, INK, "bold")
    return d


def _lefts(paper: Paper, size: float) -> list[float]:
    """The left edges of the two grids of width ``size``, the pair centred on the page."""
    pair = 2 * (_RANK_COLUMN + size) + _GRID_GAP
    first = (paper.width - pair) / 2 + _RANK_COLUMN
    return [first + k * (size + _GRID_GAP + _RANK_COLUMN) for k in range(2)]


def _fit_title(title: str, width: float) -> list[str]:
    """The title on one line, shortened with an ellipsis if a long set title would run off the page."""
    if text_width(title, 15, "bold") <= width:
        return [title]
    while title and text_width(title + "…", 15, "bold") > width:
        title = title[:-1]
    return [title.rstrip() + "…"]


# ---------------------------------------------------------------- the reference pages


class _Entry(NamedTuple):
    """A block of the reference flow, kept in one column: a bold head and its wrapped text (a
    section heading, ``head_size`` above :data:`TEXT`, is its ``lines`` in that size, bold)."""

    head: str
    lines: tuple[str, ...]
    head_size: float = TEXT
    hang: float = 0.0  # 0: the text under the head; else beside it, from this x offset


def _heading(text: str, width: float) -> _Entry:
    return _Entry(text, tuple(wrap(text, width, 11, "bold")), 11)


def _wrap_long(text: str, width: float) -> tuple[str, ...]:
    """``text`` wrapped at spaces, a word too wide for a line (a SHA-256) broken where it must be."""
    out: list[str] = []
    for line in wrap(text, width, TEXT):
        while text_width(line, TEXT) > width and len(line) > 1:
            cut = len(line)
            while cut > 1 and text_width(line[:cut], TEXT) > width:
                cut -= 1
            out.append(line[:cut])
            line = line[cut:]
        out.append(line)
    return tuple(out)


def _about_entries(structure: str, about: Sequence[tuple[str, object]], width: float) -> list[_Entry]:
    entries = [_heading("About this chart", width), _Entry("Configuration", _wrap_long(structure, width - 10))]
    for key, value in about:
        text = f"{value:.3g}" if isinstance(value, float) else str(value)
        entries.append(_Entry(str(key), _wrap_long(text, width - 10)))
    return entries


def _interval_entries(tdf: pd.DataFrame, width: float) -> list[_Entry]:
    entries: list[_Entry] = []
    hang = text_width("AKo†", TEXT, "bold") + 8
    for player in ("sb", "bb"):
        rows = select(tdf, player=player)
        marks = {h: label[len(label.rstrip(MARK_GAP + MARK_SEVERAL)):]
                 for h, label in zip(rows["hand"], rows["chart_label"])}
        rows = rows[[bool(marks[h]) for h in rows["hand"]]]  # the marked hands (chart_label's mark)
        if rows.empty:
            continue
        verb = "pushed" if player == "sb" else "called"
        entries.append(_heading(f"{PLAYER_TITLES[player]}: hands {verb} on more than one stack interval", width))
        entries.append(_Entry("", tuple(wrap("Stacks in bb, to 0.0001, where the hand is played with frequency > 0.5.",
                                             width, TEXT))))
        for hand, intervals in sorted(zip(rows["hand"], rows["intervals"]), key=lambda hi: grid_position(hi[0])):
            entries.append(_Entry(hand + marks[hand], tuple(wrap(interval_text(intervals), width - hang, TEXT)), TEXT,
                                  hang))
    if not entries:
        entries.append(_Entry("Every hand is played on one stack interval at most.", (), TEXT))
    return entries


def grid_position(hand: str) -> tuple[int, int]:
    """``(row, column)`` of a hand in the grid (aces top-left, suited above the diagonal): the
    reference pages list hands in the order the eye reads the grid.

    >>> grid_position("AA"), grid_position("AKs"), grid_position("AKo"), grid_position("32o")
    ((0, 0), (0, 1), (1, 0), (12, 11))
    """
    high, low = GRID_RANKS.index(hand[0]), GRID_RANKS.index(hand[1])
    return (low, high) if hand.endswith("o") else (high, low)


def interval_text(text: str) -> str:
    """``thresholds.csv``'s intervals as the page prints them, to 0.0001 bb.

    >>> interval_text("1.000000-7.245115;7.261251-7.298881")
    '1–7.2451, 7.2613–7.2989'
    """
    def short(x: str) -> str:
        return f"{float(x):.4f}".rstrip("0").rstrip(".")

    return ", ".join("–".join(short(x) for x in part.split("-", 1)) for part in filter(None, text.split(";")))


def _entry_height(entry: _Entry) -> float:
    step = TEXT * 1.3
    if entry.head_size > TEXT:  # a section heading, with room above and below
        return entry.head_size * 1.25 * len(entry.lines) + 6
    if entry.hang:
        return step * max(1, len(entry.lines))
    return step * ((1 if entry.head else 0) + len(entry.lines))


def _reference_pages(paper: Paper, title: str, entries: list[_Entry], columns: int = 3) -> list[Drawing]:
    """Lay ``entries`` out in ``columns`` columns a page, as many pages as they need."""
    gutter = 18.0
    column_width = (paper.width - 2 * MARGIN - (columns - 1) * gutter) / columns
    top, bottom = MARGIN + 30, paper.height - MARGIN - 6
    pages: list[Drawing] = []
    column, y = 0, top
    for k, entry in enumerate(entries):
        height = _entry_height(entry)
        if entry.head_size > TEXT:  # a heading stays with the two entries after it
            height += sum(_entry_height(e) for e in entries[k + 1:k + 3])
        if pages and y > top and y + height > bottom:  # on to the next column, or page
            column, y = column + 1, top
        if not pages or column == columns:
            d = Drawing(paper.width, paper.height)
            head = title if not pages else f"{title} (continued)"
            d.text(MARGIN, MARGIN + 12, _fit_title(head, paper.width - 2 * MARGIN)[0], 13, INK, "bold")
            pages.append(d)
            column, y = 0, top
        y = _draw_entry(pages[-1], MARGIN + column * (column_width + gutter), y, entry)
    return pages


def _draw_entry(d: Drawing, x: float, y: float, entry: _Entry) -> float:
    step = TEXT * 1.3
    if entry.head_size > TEXT:
        d.lines(x, y + 4, entry.lines, entry.head_size, INK, "bold", spacing=1.25)
        return y + _entry_height(entry)
    if entry.hang:
        d.text(x, y + TEXT * 0.93, entry.head, TEXT, INK, "bold")
        d.lines(x + entry.hang, y, entry.lines, TEXT, "222222", spacing=1.3)
        return y + _entry_height(entry)
    if entry.head:
        d.text(x, y + TEXT * 0.93, entry.head, TEXT, INK, "bold")
        y += step
    d.lines(x + (10 if entry.head else 0), y, entry.lines, TEXT, "222222", spacing=1.3)
    return y + step * len(entry.lines)


def _number(pages: list[Drawing], paper: Paper) -> None:
    for k, d in enumerate(pages, 1):
        d.text(paper.width - MARGIN, paper.height - MARGIN + 16,
               f"sflp: exact heads-up push/fold equilibria  ·  {paper.name}  ·  page {k} of {len(pages)}", 7, GREY,
               anchor="end")


# ---------------------------------------------------------------- the document


_ABOUT_KEYS = ("Stacks", "Hand level", "Max exploitability (bb/hand)", "Threshold breakpoints", "Certificate",
               "sflp version", "Solver", "Equity table SHA-256")


def chart_pages(tdf: pd.DataFrame | None, low: float, high: float, structure: str,
                about: Sequence[tuple[str, object]] = (), *, ranges: pd.DataFrame | None = None,
                stack: float | None = None, paper: str = "a4") -> list[Drawing]:
    """The pages of ``chart.pdf`` (see the module doc): the threshold grids of ``tdf`` over
    ``low``-``high`` bb, or without thresholds (``tdf`` None) the frequency grids of ``ranges``
    at ``stack``; then the reference pages."""
    sheet = PAPERS[check_paper(paper)]
    first = _first_page(sheet, tdf, low, high, structure, ranges, stack)
    column_width = (sheet.width - 2 * MARGIN - 2 * 18.0) / 3
    wanted = dict(about)
    entries = _about_entries(structure, [(key, wanted[key]) for key in _ABOUT_KEYS if key in wanted], column_width)
    if tdf is not None:
        entries += _interval_entries(tdf, column_width)
    heading = "Stack intervals and configuration" if tdf is not None else "Configuration"
    pages = [first, *_reference_pages(sheet, heading, entries)]
    _number(pages, sheet)
    return pages


def write_chart_pdf(path: pathlib.Path | str, tdf: pd.DataFrame | None, low: float, high: float, structure: str,
                    about: Sequence[tuple[str, object]] = (), *, ranges: pd.DataFrame | None = None,
                    stack: float | None = None, paper: str = "a4") -> pathlib.Path:
    """Write ``chart.pdf`` (:func:`chart_pages`) atomically.

    Vector graphics, all text kept as text in embedded TrueType fonts, so it prints sharp and is
    searchable; its date is ``SOURCE_DATE_EPOCH`` or a fixed one, never the clock, so the same inputs
    give the same bytes.
    """
    if tdf is None and (ranges is None or stack is None):
        raise ValueError("write_chart_pdf needs thresholds, or ranges and a stack")
    pages = chart_pages(tdf, low, high, structure, about, ranges=ranges, stack=stack, paper=paper)
    return write_bytes(path, pdf_bytes(pages, title=f"sflp chart, {structure}"))
