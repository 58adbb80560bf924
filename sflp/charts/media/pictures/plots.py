"""The chart set's pictures: threshold charts, range grids and the value curve.

Each picture is one :class:`~sflp.charts.media.draw.Drawing` (points, origin top left), written as
``<stem>.png`` and ``<stem>.svg`` by :func:`render` (the printable ``chart.pdf`` is
:mod:`sflp.charts.media.pdf.page`, drawn from the same grids) -- every file atomic and
byte-reproducible (no clock times; fonts from the DejaVu Sans files bundled in ``sflp/charts/media/fonts``).

Grids use the HoldemResources orientation: aces top-left, suited hands above the diagonal,
offsuit below.  Each cell holds the hand's name and, below it, its number (threshold label or
mixed frequency); the text colour is black or white, whichever reads better on the cell.
Threshold cells take the stepped bands of :mod:`sflp.charts.colors`, with the band legend beside the
grid; range grids carry a frequency legend (white = never to the player's colour = always).

The notebook picture of a solution (:func:`sflp.views.notebook.solution_picture`) is
:func:`range_picture`; the approximate-solver benchmark draws its log-log panels with
:class:`LogAxes` (:mod:`sflp.views.bench_files`).  No picture needs matplotlib.
"""

from __future__ import annotations

import math
import pathlib
from collections.abc import Sequence
from types import SimpleNamespace
from typing import NamedTuple

import numpy as np
import pandas as pd

from sflp.atomic import write_bytes
from sflp.charts.colors import frequency_colour
from sflp.charts.frames import GRID_RANKS, PLAYER_TITLES, grid_from_tidy, select
from sflp.charts.media.draw import CAP_HEIGHT, Drawing, png_bytes, svg_bytes, text_width, wrap
from sflp.charts.scale import FOLD_GAP_BB, ChartScale, chart_scale, footnotes, ink, parse_intervals, top_text
from sflp.charts.text import fmt_num

DPI = 120
"""PNG resolution (pixels per inch); the drawings are sized in inches below."""
PT = 72.0
"""Points per inch."""
INK = "000000"
NOTE = "333333"
OUTLINE = "8C8C8C"
"""The outline of a *never* cell and of the legend's boxes."""
_VERB = {"sb": "pushed", "bb": "called"}


# ---------------------------------------------------------------- the 13x13 grid


def draw_grid(d: Drawing, left: float, top: float, size: float, colours, hands, second, *,
              big_second: bool = False, rank_size: float = 8.0, text_size: float | None = None,
              outlined=None, hatched=None) -> None:
    """One 13x13 grid with its top-left corner at ``(left, top)``, ``size`` points wide.

    ``colours[r][c]`` is the cell colour (``"RRGGBB"``), ``hands[r][c]`` its name and
    ``second[r][c]`` the text under the name (empty: the name alone, centred).  Ranks label the
    columns above the grid and the rows on its left.  Cells are separated by 0.8 pt of white.
    Text sizes: 6.5 pt (the name alone 7.5 pt); ``big_second`` sets the second line in 8.5 pt
    bold; ``text_size`` sets every cell text in that size, the second line bold (the printable page).
    ``outlined[r][c]`` true draws a grey outline round the cell (*never* cells, white, so that they
    stay cells on white paper); ``hatched[r][c]`` true hatches the cell (:func:`hatch`: the gap
    cells, ``†``, folded on a wide stretch inside their played range).  The text's ink is
    :func:`sflp.charts.scale.ink` of the cell.  A second line's closing mark (``†``, ``*``) does not
    shrink its number: the number is fitted alone, at its neighbours' size, and the mark set after
    it (:func:`_number_and_mark`).
    """
    cell = size / 13
    gap = 0.4
    name_size, alone_size, second_size, second_weight = 6.5, 7.5, 6.5, "normal"
    if big_second:
        second_size, second_weight = 8.5, "bold"
    if text_size is not None:
        name_size = alone_size = second_size = text_size
        second_weight = "bold"
    for r in range(13):
        y = top + r * cell
        for c in range(13):
            if outlined is not None and outlined[r][c]:
                d.rect(left + c * cell + gap, y + gap, cell - 2 * gap, cell - 2 * gap, fill=colours[r][c],
                       stroke=OUTLINE, width=0.6)
            else:
                d.rect(left + c * cell + gap, y + gap, cell - 2 * gap, cell - 2 * gap, fill=colours[r][c])
            if hatched is not None and hatched[r][c]:
                hatch(d, left + c * cell + gap, y + gap, cell - 2 * gap, colours[r][c])
    for k, rank in enumerate(GRID_RANKS):
        d.text(left + (k + 0.5) * cell, top - 4.5, rank, rank_size, INK, anchor="middle")
        d.text(left - 5.5, top + (k + 0.5) * cell + CAP_HEIGHT * rank_size / 2, rank, rank_size, INK, anchor="end")
    for r in range(13):
        for c in range(13):
            colour = ink(colours[r][c])
            x = left + (c + 0.5) * cell
            extra = second[r][c]
            room = cell - 2 * gap - 1.0  # half a point of paper either side inside the fill
            if extra:
                _centred(d, x, top + (r + 0.3) * cell, hands[r][c], name_size, colour, fit=room)
                _number_and_mark(d, x, top + (r + 0.7) * cell, extra, second_size, colour, second_weight, room,
                                 hatched=text_size is not None and hatched is not None and hatched[r][c])
            else:
                _centred(d, x, top + (r + 0.5) * cell, hands[r][c], alone_size, colour, fit=room)


def hatch(d: Drawing, x: float, y: float, side: float, colour: str) -> None:
    """Diagonal hatching (``/``, four lines a cell) over the square cell at ``(x, y)``: the look of a
    gap cell in every drawn medium, in :func:`sflp.charts.scale.hatch_colour`, so the text on it
    keeps its contrast."""
    from sflp.charts.scale import hatch_colour

    tone = hatch_colour(colour)
    step = side / 4
    width = max(0.5, side / 32)
    for k in range(1, 8):
        c = x + y + k * step  # the line x + y = c, clipped to the square
        x_lo, x_hi = max(x, c - (y + side)), min(x + side, c - y)
        if x_hi - x_lo > 1e-9:
            d.line([(x_lo, c - x_lo), (x_hi, c - x_hi)], tone, width)


def _number_and_mark(d: Drawing, x: float, y: float, text: str, size: float, colour: str, weight: str,
                     room: float, hatched: bool = False) -> None:
    """A cell's number centred on ``(x, y)`` at the size its neighbours get (fitted to ``room``
    without its mark), then its mark (``†``, ``*``) raised right after it at 0.8 of that size,
    where both fit (the pictures' cells), else as one label at the number's size where that fits
    (text extraction reads it whole, "6.5*").

    Where neither fits (the printed page's cells, which a four-digit number fills): a ``†`` cell
    of the printed page (``hatched``) keeps its number at its neighbours' size and leaves the
    mark to its hatching, which the page's note names (issue 42: fitted with its mark, "24.4†"
    was set 17 % smaller than "16.3", the cells that most need attention in the smallest type);
    any other marked number is fitted together with its mark as one label.  A mark elsewhere in
    the cell (its corner) was read by text extraction as the hand name's (``Q5s†``), and one
    smaller size for every number of the grid would give up the page's 9 pt text."""
    from sflp.charts.scale import MARK_GAP, MARK_SEVERAL

    number = text.rstrip(MARK_GAP + MARK_SEVERAL)
    mark = text[len(number):]
    if not mark or not number:
        _centred(d, x, y, text, size, colour, weight, fit=room)
        return
    size_alone = fitted_size(number, size, room, weight)
    wide = text_width(number, size_alone, weight)
    mark_size = max(MARK_MIN_SIZE, size_alone * 0.8)
    mark_wide = text_width(mark, mark_size, weight)
    if wide / 2 + 0.3 + mark_wide > room / 2:
        if text_width(text, size_alone, weight) <= room:  # one label at the number's size ("6.5*")
            _centred(d, x, y, text, size_alone, colour, weight)
        elif hatched and mark == MARK_GAP:
            _centred(d, x, y, number, size_alone, colour, weight)
        else:
            _centred(d, x, y, text, size, colour, weight, fit=room)
        return
    _centred(d, x, y, number, size_alone, colour, weight)
    baseline = y + CAP_HEIGHT * size_alone / 2
    d.text(x + wide / 2 + 0.3, baseline - 0.35 * CAP_HEIGHT * size_alone, mark, mark_size, colour, weight)


MARK_MIN_SIZE = 5.0
"""The smallest a cell's mark is set (points)."""


def fitted_size(text: str, size: float, width: float, weight: str = "normal") -> float:
    """``size``, or less so that ``text`` is at most ``width`` points wide: a label never runs out
    of its cell into the next (``"24.4†"`` in 9 pt bold is 25 pt wide).

    >>> fitted_size("AKs", 10, 100), round(fitted_size("AKs", 10, 9.305), 3)
    (10, 5.0)
    """
    wide = text_width(text, size, weight)
    return size if wide <= width else size * width / wide


def _centred(d: Drawing, x: float, y: float, text: str, size: float, colour: str, weight: str = "normal",
             fit: float | None = None) -> None:
    """A label centred on ``(x, y)`` (capitals and digits: the baseline sits half a cap height
    below), made smaller if it is wider than ``fit`` points (:func:`fitted_size`)."""
    if fit is not None:
        size = fitted_size(text, size, fit, weight)
    d.text(x, y + CAP_HEIGHT * size / 2, text, size, colour, weight, anchor="middle")


def _title(d: Drawing, x: float, baseline: float, lines: Sequence[str], size: float, weight: str = "normal") -> None:
    for k, line in enumerate(lines):
        d.text(x, baseline + k * size * 1.2, line, size, INK, weight, anchor="middle")


class ThresholdCells(NamedTuple):
    """One player's threshold grid, by the one label and colour rule (:mod:`sflp.charts.scale`)."""

    rows: pd.DataFrame
    colours: list
    """13x13 ``RRGGBB``: the band of the hand's threshold, the top colour when capped."""
    hands: object
    labels: list
    """13x13 cell texts, ``tdf``'s ``chart_label``: the number, then its mark."""
    never: list
    """13x13 bools: never played (white cells, outlined)."""
    footnotes: list
    """:func:`sflp.charts.scale.footnotes` of the grid: a line per marked hand, ``†`` first."""
    scale: ChartScale

    @property
    def gaps(self) -> list:
        """13x13 bools: the gap cells (their label's mark is ``†``), hatched in every drawn medium."""
        from sflp.charts.scale import MARK_GAP

        return [[str(label).endswith(MARK_GAP) for label in row] for row in self.labels]


def threshold_cells(tdf: pd.DataFrame, player: str, low: float, high: float) -> ThresholdCells:
    """One player's threshold grid of ``tdf`` on a chart from ``low`` to ``high`` bb: colours from
    :func:`sflp.charts.scale.chart_scale` (capped hands in the top colour), the cell texts of
    ``chart_label`` and the footnotes of the marked hands."""
    scale = chart_scale(high, low)
    rows = select(tdf, player=player)
    max_stack = grid_from_tidy(rows, "max_stack").to_numpy(dtype=np.float64)
    capped = grid_from_tidy(rows, "capped").to_numpy(dtype=bool)
    hands = grid_from_tidy(rows, "hand").to_numpy()
    colours = [[scale.colour(max_stack[r, c], bool(capped[r, c])) for c in range(13)] for r in range(13)]
    labels = grid_from_tidy(rows, "chart_label").to_numpy().tolist()  # the number and its mark
    never = np.isnan(max_stack).tolist()
    played = [SimpleNamespace(player=player, hand=h, intervals=parse_intervals(iv))
              for h, iv in zip(rows["hand"], rows["intervals"])]  # class-id order: the grid's, row by row
    return ThresholdCells(rows, colours, hands, labels, never, footnotes(played, high, low), scale)


def frequency_cells(ranges: pd.DataFrame, player: str):
    """(colours, hands, percentages) of one player's frequency grid (percent only when mixed)."""
    freq = grid_from_tidy(ranges, "frequency").to_numpy(dtype=np.float64)
    hands = grid_from_tidy(ranges, "hand").to_numpy()
    colours = [[frequency_colour(freq[r, c], player) for c in range(13)] for r in range(13)]
    second = [[f"{100 * freq[r, c]:.0f}%" if 1e-9 < freq[r, c] < 1 - 1e-9 else "" for c in range(13)]
              for r in range(13)]
    return colours, hands, second


def colour_bar(d: Drawing, left: float, top: float, width: float, height: float, scale: ChartScale,
               label_size: float = 7.0) -> None:
    """The threshold legend of ``scale`` (:meth:`~sflp.charts.scale.ChartScale.legend`), one box
    per colour: the top (``25+``) at the top, the bands dark to light (``20–25`` ... ``≤2``), then
    never, each labelled in bb."""
    legend = scale.legend()
    boxes = legend[:-1][::-1] + legend[-1:]
    step = height / len(boxes)
    for k, (colour, label) in enumerate(boxes):
        y = top + k * step
        d.rect(left, y, width, step * 0.86, fill=colour, stroke=OUTLINE, width=0.4)
        d.text(left + width + 4, y + step * 0.43 + CAP_HEIGHT * label_size / 2, label, label_size, INK)


def footnote_head(verb: str) -> str:
    """The line over a grid's footnotes: what the marks mean."""
    return (f"† (a hatched cell) folded on a stretch of {FOLD_GAP_BB:g} bb or more inside the {verb} range: "
            f"read the stacks below, not the number.  "
            f"* {verb} on several stretches, each fold narrower than {FOLD_GAP_BB:g} bb.  "
            "Stacks in bb, rounded inward, folds under that width bridged:")


FREQUENCY_STEPS = (0.0, 0.25, 0.5, 0.75, 1.0)
"""The frequencies the range legend shows (the cells shade continuously between them)."""


def frequency_legend(d: Drawing, left: float, top: float, player: str, box: float = 34.0,
                     size: float = 8.0) -> float:
    """The range legend: ``"<SB push|BB call> frequency"`` and a swatch for each of
    :data:`FREQUENCY_STEPS`, white (never) to the player's full colour (always), labelled in %;
    returns the x after it."""
    label = f"{PLAYER_TITLES[player]} frequency"
    d.text(left, top + box * 0.3 + CAP_HEIGHT * size / 2, label, size, INK)
    x = left + text_width(label, size) + 6
    for k, freq in enumerate(FREQUENCY_STEPS):
        colour = frequency_colour(freq, player)
        d.rect(x + k * box, top, box - 2, box * 0.6, fill=colour, stroke="999999", width=0.4)
        _centred(d, x + k * box + (box - 2) / 2, top + box * 0.3, f"{100 * freq:.0f}%", size, ink(colour))
    return x + len(FREQUENCY_STEPS) * box


# ---------------------------------------------------------------- the pictures


def threshold_picture(tdf: pd.DataFrame, player: str, low: float, high: float, structure: str) -> Drawing:
    """The threshold chart of one player: colour by the band of ``max_stack`` (the top colour when
    capped), label in each cell, the legend beside the grid and the footnotes of the marked hands
    (:func:`sflp.charts.scale.footnotes`) under it, every one: the drawing grows to hold them."""
    left, top, size = 0.45 * PT, 0.8 * PT, 6.7 * PT
    cells = threshold_cells(tdf, player, low, high)
    verb = _VERB[player]
    width = 8.0 * PT - 2 * left
    notes = [
        f"Number: largest stack (bb, truncated to 0.1{', whole bb from 100' if high >= 100 else ''}) "
        f"at which the hand is {verb} with frequency > 0.5; "
        f"{top_text(high)}+ = up to the top of the range; - = never (white).",
    ]
    if cells.footnotes:
        notes.append(footnote_head(verb))
    lines = [line for note in notes for line in wrap(note, width, 7)]
    for note in cells.footnotes:
        lines += [("   " if k else "") + line for k, line in enumerate(wrap(note, width - 12, 7))]
    d = Drawing(8.0 * PT, max(8.8 * PT, top + size + 0.2 * PT + len(lines) * 7 * 1.2 + 0.25 * PT))
    _title(d, d.width / 2, 20, [f"{PLAYER_TITLES[player]} thresholds (bb), stacks {fmt_num(low)}-{fmt_num(high)} bb",
                                structure], 11)
    draw_grid(d, left, top, size, cells.colours, cells.hands, cells.labels, big_second=True, outlined=cells.never,
              hatched=cells.gaps)
    colour_bar(d, 7.3 * PT, top, 0.15 * PT, size, cells.scale)
    d.lines(left, top + size + 0.2 * PT, lines, 7, NOTE)
    return d


def combo_pct(rows: pd.DataFrame) -> float:
    from sflp.core.cards import CLASS_NAMES, CLASS_SIZES

    sizes = dict(zip(CLASS_NAMES, CLASS_SIZES.tolist()))
    w = np.array([sizes[h] for h in rows["hand"]], dtype=np.float64)
    return float(100 * (w @ rows["frequency"].to_numpy(dtype=np.float64)) / w.sum())


def _frequency_panel(d: Drawing, left: float, top: float, size: float, ranges: pd.DataFrame, stack: float,
                     player: str, title_size: float = 11.0, rank_size: float = 8.0) -> None:
    rows = select(ranges, stack=stack, player=player)
    colours, hands, second = frequency_cells(rows, player)
    draw_grid(d, left, top, size, colours, hands, second, rank_size=rank_size)
    title = f"{PLAYER_TITLES[player]} at {fmt_num(stack)} bb: {combo_pct(rows):.1f}% of hands"
    d.text(left + size / 2, top - 18, title, title_size, INK, anchor="middle")


def range_picture(ranges: pd.DataFrame, stack: float, structure: str, players: Sequence[str] = ("sb", "bb"),
                  kind: str = "Equilibrium") -> Drawing:
    """Frequency grids at one stack, one panel per player (SB push, BB call); ``kind`` heads the title."""
    ranges = select(ranges, stack=stack)
    d = Drawing(7.2 * PT * len(players), 8.15 * PT)
    for k, player in enumerate(players):
        left = (0.35 + 7.2 * k) * PT
        _frequency_panel(d, left, 0.9 * PT, 6.6 * PT, ranges, stack, player)
        frequency_legend(d, left, 7.65 * PT, player)
    _title(d, d.width / 2, 21, [f"{kind} ranges at {fmt_num(stack)} bb, {structure}"], 12)
    return d


# ---------------------------------------------------------------- the value curve


def nice_ticks(lo: float, hi: float, most: int = 8) -> list[float]:
    """Round tick values covering ``[lo, hi]``: steps of 1, 2, 2.5 or 5 times a power of ten.

    >>> nice_ticks(0, 100, 6)
    [0.0, 20.0, 40.0, 60.0, 80.0, 100.0]
    >>> nice_ticks(-0.23, 0.066)
    [-0.2, -0.15, -0.1, -0.05, 0.0, 0.05]
    """
    if not hi > lo:
        return [lo]
    raw = (hi - lo) / max(1, most - 1)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)
    first = math.ceil(lo / step - 1e-9)
    last = math.floor(hi / step + 1e-9)
    return [round(k * step, 12) + 0.0 for k in range(first, last + 1)]


def _tick_text(values: Sequence[float]) -> list[str]:
    """Tick labels with one number of decimals for all, and a true minus sign."""
    decimals = 0
    while decimals < 8 and any(abs(v * 10**decimals - round(v * 10**decimals)) > 1e-6 for v in values):
        decimals += 1
    return [f"{v:.{decimals}f}".replace("-", "\u2212") if v != 0 else f"{0:.{decimals}f}" for v in values]


class _Axes:
    """A plot area: data ranges mapped to a rectangle of the drawing."""

    def __init__(self, d: Drawing, left: float, top: float, width: float, height: float, xlim, ylim):
        self.d, self.left, self.top, self.width, self.height = d, left, top, width, height
        self.xlim, self.ylim = xlim, ylim

    def x(self, v):
        """Data x (a number or a numpy array) to drawing points."""
        return self.left + (v - self.xlim[0]) / (self.xlim[1] - self.xlim[0]) * self.width

    def y(self, v):
        """Data y (a number or a numpy array) to drawing points (y down)."""
        return self.top + (1 - (v - self.ylim[0]) / (self.ylim[1] - self.ylim[0])) * self.height

    def grid_and_ticks(self, xticks, yticks, x_labels: bool, size: float = 9.0) -> None:
        d = self.d
        bottom = self.top + self.height
        for v in xticks:
            d.line([(self.x(v), self.top), (self.x(v), bottom)], "DCDCDC", 0.4)
        for v in yticks:
            d.line([(self.left, self.y(v)), (self.left + self.width, self.y(v))], "DCDCDC", 0.4)
        for v, text in zip(xticks, _tick_text(xticks)):
            d.line([(self.x(v), bottom), (self.x(v), bottom + 3.5)], INK, 0.8)
            if x_labels:
                d.text(self.x(v), bottom + 5 + size * 0.928, text, size, INK, anchor="middle")
        for v, text in zip(yticks, _tick_text(yticks)):
            d.line([(self.left - 3.5, self.y(v)), (self.left, self.y(v))], INK, 0.8)
            d.text(self.left - 5.5, self.y(v) + CAP_HEIGHT * size / 2, text, size, INK, anchor="end")

    def frame(self) -> None:
        self.d.rect(self.left, self.top, self.width, self.height, stroke=INK, width=0.8)

    def curve(self, xs, ys, colour: str, width: float, markers: bool) -> None:
        xs, ys = np.asarray(xs, dtype=np.float64), np.asarray(ys, dtype=np.float64)
        ok = np.isfinite(ys)
        pts = np.column_stack([self.x(xs[ok]), self.y(ys[ok])])
        self.d.line(thin_curve(pts), colour, width)
        if markers:
            for a, b in pts.tolist():
                self.d.dot(a, b, 1.5, colour)


def decades(lo: float, hi: float) -> tuple[int, int]:
    """The powers of ten just around ``[lo, hi]`` (both > 0), at least one decade apart.

    >>> decades(3e-7, 0.02), decades(1e-3, 1.0), decades(5.0, 5.0)
    ((-7, -1), (-3, 0), (0, 1))
    """
    first = math.floor(math.log10(lo) + 1e-9)
    last = math.ceil(math.log10(hi) - 1e-9)
    return first, max(last, first + 1)


def decade_text(power: int) -> str:
    """The label of the tick at ``10**power``: ``"1e-3"``, ``"1"``, ``"10"``, ``"1e2"``.

    >>> [decade_text(k) for k in (-3, 0, 1, 2)]
    ['1e-3', '1', '10', '1e2']
    """
    return {0: "1", 1: "10"}.get(power, f"1e{power}")


class LogAxes(_Axes):
    """A plot area with logarithmic x and y: ``xlim`` and ``ylim`` are powers of ten, as exponents
    (``(-3, 1)`` spans 0.001 to 10); data go in as plain positive numbers."""

    def x(self, v):
        return super().x(np.log10(v))

    def y(self, v):
        return super().y(np.log10(v))

    def decade_grid_and_ticks(self, x_labels: bool = True, y_labels: bool = True, size: float = 8.0,
                              most: int = 8) -> None:
        """Light grid lines and ticks at every power of ten; labels at every one, or every second,
        third, ... when there would be more than ``most``."""
        d = self.d
        bottom = self.top + self.height
        xs = range(self.xlim[0], self.xlim[1] + 1)
        ys = range(self.ylim[0], self.ylim[1] + 1)
        for k in xs:
            x = super().x(k)
            d.line([(x, self.top), (x, bottom)], "DCDCDC", 0.4)
        for k in ys:
            y = super().y(k)
            d.line([(self.left, y), (self.left + self.width, y)], "DCDCDC", 0.4)
        for k in xs:
            x = super().x(k)
            d.line([(x, bottom), (x, bottom + 3.5)], INK, 0.8)
            if x_labels and (k - xs[0]) % math.ceil(len(xs) / most) == 0:
                d.text(x, bottom + 5 + size * 0.928, decade_text(k), size, INK, anchor="middle")
        for k in ys:
            y = super().y(k)
            d.line([(self.left - 3.5, y), (self.left, y)], INK, 0.8)
            if y_labels and (k - ys[0]) % math.ceil(len(ys) / most) == 0:
                d.text(self.left - 5.5, y + CAP_HEIGHT * size / 2, decade_text(k), size, INK, anchor="end")


def thin_curve(points: Sequence[tuple[float, float]], column: float = 0.25) -> list[tuple[float, float]]:
    """The points of a curve (x increasing) that can be seen: in each ``column``-point wide strip
    the first, lowest, highest and last point, in their order.  A curve through 100,000 stacks
    becomes a few thousand points (``value_by_stack.svg`` stays small) and looks the same, since
    nothing narrower than a quarter point is visible.

    >>> ys = [5, 6, 9, 7, 1, 2, 4, 3, 3, 3]         # ten points in the first strip, one later
    >>> thin_curve([(k / 50, float(y)) for k, y in enumerate(ys)] + [(0.5, 0.0)])
    [(0.0, 5.0), (0.04, 9.0), (0.08, 1.0), (0.18, 3.0), (0.5, 0.0)]
    >>> len(thin_curve([(k / 1000, float(k % 7)) for k in range(100_000)])) <= 4 * 400  # 400 strips
    True
    """
    xy = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    if len(xy) <= 4:
        return [tuple(p) for p in xy.tolist()]
    strip = np.floor((xy[:, 0] - xy[0, 0]) / column).astype(np.int64)
    starts = np.flatnonzero(np.r_[True, strip[1:] != strip[:-1]])
    if len(starts) * 4 >= len(xy):
        return [tuple(p) for p in xy.tolist()]
    ends = np.r_[starts[1:], len(xy)] - 1
    index = np.arange(len(xy))
    # each strip's first lowest and first highest point: sorted by strip, then y, then position
    low = np.lexsort((index, xy[:, 1], strip))
    high = np.lexsort((index, -xy[:, 1], strip))
    keep = np.unique(np.concatenate([starts, ends, low[starts], high[starts]]))
    return [tuple(p) for p in xy[keep].tolist()]


def _limits(lo: float, hi: float) -> tuple[float, float]:
    """Data limits with 5% of the span added on each side (a flat series gets +-1)."""
    if not hi > lo:
        return lo - 1.0, hi + 1.0
    pad = 0.05 * (hi - lo)
    return lo - pad, hi + pad


def value_picture(values: pd.DataFrame, structure: str) -> Drawing:
    """SB's value and the push / call percentages against the stack."""
    d = Drawing(8.0 * PT, 6.4 * PT)
    stacks = values["stack"].to_numpy(dtype=np.float64)
    value = values["value"].to_numpy(dtype=np.float64)
    markers = len(stacks) <= 40
    left, right = 0.11 * d.width, 0.97 * d.width
    top, bottom = 0.07 * d.height, 0.91 * d.height
    both = (bottom - top) / 1.04  # the two panels' heights, 3 : 2, and a gap of 8% of their mean
    upper, lower = both * 0.6, both * 0.4
    xlim = _limits(float(stacks.min()), float(stacks.max()))
    xticks = [t for t in nice_ticks(*xlim, most=7) if xlim[0] <= t <= xlim[1]]
    ylim = _limits(float(min(value.min(), 0.0)), float(max(value.max(), 0.0)))
    a = _Axes(d, left, top, right - left, upper, xlim, ylim)
    a.grid_and_ticks(xticks, [t for t in nice_ticks(*ylim) if ylim[0] <= t <= ylim[1]], x_labels=False)
    d.line([(a.left, a.y(0.0)), (a.left + a.width, a.y(0.0))], "999999", 0.8)
    a.curve(stacks, value, "1A9850", 1.6, markers)
    a.frame()
    d.text(a.left + a.width / 2, top - 7, f"Game value by stack, {structure}", 11, INK, anchor="middle")
    b = _Axes(d, left, bottom - lower, right - left, lower, xlim, (0.0, 100.0))
    b.grid_and_ticks(xticks, [0.0, 20.0, 40.0, 60.0, 80.0, 100.0], x_labels=True)
    series = (("push_pct", "2EA043", "SB push %"), ("call_pct", "3182BD", "BB call %"))
    for column, colour, _ in series:
        b.curve(stacks, values[column].to_numpy(dtype=np.float64), colour, 1.4, markers)
    b.frame()
    for k, (_, colour, label) in enumerate(series):  # the legend, top right inside the lower panel
        y = b.top + 13 + k * 14
        x = b.left + b.width - 8 - max(text_width(s[2], 9) for s in series)
        d.line([(x - 26, y - 3), (x - 6, y - 3)], colour, 1.4)
        d.text(x, y, label, 9, INK)
    label_x = left - 46
    d.text(label_x, a.top + a.height / 2, "SB value (bb per hand)", 9, INK, anchor="middle", angle=90)
    d.text(label_x, b.top + b.height / 2, "% of hands", 9, INK, anchor="middle", angle=90)
    d.text(b.left + b.width / 2, bottom + 28, "effective stack (bb, before posting)", 9, INK, anchor="middle")
    return d


# ---------------------------------------------------------------- files


def render(make, out_dir: pathlib.Path | str, stem: str, *args, **kwargs) -> dict[str, str]:
    """Build a drawing with ``make(*args, **kwargs)`` and write ``<stem>.png`` and ``<stem>.svg``
    into ``out_dir`` atomically; returns name -> path."""
    drawing = make(*args, **kwargs)
    out = {}
    for path, data in ((pathlib.Path(out_dir) / f"{stem}.png", png_bytes(drawing, DPI)),
                       (pathlib.Path(out_dir) / f"{stem}.svg", svg_bytes(drawing))):
        write_bytes(path, data)
        out[path.name] = str(path)
    return out
