"""The one label rule and the one colour rule of every threshold chart, in every medium.

The PDF, the PNG and SVG pictures, ``chart.html``, the workbook, the notebook views and the
terminal all take a hand's cell text, its mark, its colour, the legend and the footnotes under a
grid from here, so a hand reads the same on paper, on a phone, in Excel and in a terminal.

The label
---------
A cell shows how deep a hand is played (pushed by the SB, called by the BB):

* ``"7.1"``: played up to 7.1 bb, the HoldemResources convention of flooring to 0.1 bb (the
  certified path decides the floor exactly, :attr:`~sflp.solving.thresholds.HandThresholds.exact_label`);
  from 100 bb up, whole bb (``"137"``), so a deep chart's labels fit their cells;
* ``"25+"``: played over the whole chart, up to its top stack (``N+`` for a chart up to ``N`` bb);
* ``"-"``: never played on the chart's range.

Then a **mark**, always right after the number and nowhere else:

* ``"*"``: played on several stretches, but every folded stretch between them is narrower than
  :data:`FOLD_GAP_BB` (a sliver no player can act on);
* ``"†"``: a folded stretch of at least :data:`FOLD_GAP_BB` lies inside the played range -- the
  number alone would mislead (63s "7.1†" is folded from 2.39 to 5.07 bb on the 1--25 chart), so
  the footnote under the grid (:func:`footnotes`) gives the played stretches, HoldemResources
  style: ``† 63s: push ≤2.3, 5.1–7.1`` (a closing ``*``: slivers inside too).

A stretch missing at the *bottom* of the chart (played from 3 bb up, folded below) counts as a
fold gap too when the chart's lowest stack is known.

The colours
-----------
Stepped bands at the stacks players memorise, ``≤2``, ``2–4``, ``4–6``, ``6–8``, ``8–10``,
``10–15``, ``15–20``, and on deeper charts ``20–30``, ``30–50``, ``50–100`` and ``100–N``
(:data:`EDGES`); the last band runs from the last edge below the chart's top ``N`` up to ``N``
(``20–25`` on a 1--25 chart, ``10–15`` on a 2--15 chart, ``100–200`` on a 1--200 chart, whose 72 SB
and 37 BB hands played beyond 20 bb one ``20–200`` band used to hold).  Then a **top** colour of its
own for the hands played over the whole chart (legend ``N+``), and white for *never* (its cells
also carry the ``-`` mark).  A band keeps its colour on every chart (``≤2`` is always the same pale
mint), and the last band below the top takes the colour of the standard band it starts in.

A chart shows only the bands it **uses**, decided from its lowest stack: a band lying entirely
below it (its upper edge under the lowest stack) is left out, because every hand on the chart is
played up to at least the lowest stack or never.  A 5--20 chart's legend starts at ``4–6``; a
band whose upper edge *is* the lowest stack stays (a hand played at that stack only falls in it).

The palette was chosen by a numerical search, ``tools/palette_search.py`` (BT.601 luma and chroma
coordinates; Powell's method on a soft minimum, then SLSQP on the smallest ratio of a figure to its
threshold; ``python tools/palette_search.py --bands 11 --restarts 8 --maxfev 4000 --seed 11``
finds it as its restart 7, smallest ratio 1.027), under stated thresholds, which
``tests/test_scale.py`` checks for every pair of colours that can stand next to each other
(neighbouring bands, every band next to the top, since any band can be the last below it, and
*never* next to the lightest band):

* BT.601 luma (``0.299 R + 0.587 G + 0.114 B`` on 0..255, what ``pdftoppm -gray`` and a grayscale
  printer compute) at least 20 grey levels apart, in order from white to the black top (the
  smallest step is 20.5; ``tests/test_legend_bands.py`` reads the swatches off the printed PDF);
* CAM02-UCS distance (Luo, Cui & Li 2006; about 1 unit is a just-noticeable difference) at least
  20 with normal vision and at least 12 under simulated deuteranomaly, protanomaly and tritanomaly
  at full severity (Machado, Oliveira & Fernandes 2009, via ``colorspacious``); the palette's
  smallest are 20.6 and 12.3 (tritanomaly; 15.9 deuteranomaly, 15.5 protanomaly);
* CIE L* falling by at least 6 from each band to the next and to the top (the smallest step is
  6.3, white to the lightest band);
* the cell ink (black or white, :func:`ink`) at a WCAG 2 contrast of at least 4.5 on every colour.

Eleven bands and a top are as many as the luma rule allows: twelve steps of 20 grey levels below
white leave 15 to spare of 255, so the search's best is only 2.7 % over every threshold, and the
luma steps bind (the previous palette's 2--4/4--6 and 6--8/8--10 steps were 10 grey levels,
8--10/10--15 9 and 20--25/25+ 18: CIE L* steps of 6 are not enough after a luma conversion, which
weighs red, green and blue otherwise than L* does).  Keeping 20 grey levels and the colour-vision
distances needs the hue to swing at every step, light and dark alternating in chroma: pale mint,
pale cyan, olive yellow, sage, ochre, steel blue, brown, dark blue, dark brown, dark purple,
maroon, and a black top.

>>> s = chart_scale(25)
>>> [b.label for b in s.bands], s.top.label, s.never.label
(['≤2', '2–4', '4–6', '6–8', '8–10', '10–15', '15–20', '20–25'], '25+', 'never')
>>> [b.label for b in chart_scale(15).bands][-2:], chart_scale(15).top.label
(['8–10', '10–15'], '15+')
>>> s.colour(25.0, True) == s.top.colour != s.colour(19.5, False) == s.bands[6].colour
True
>>> cell_label(7.16, False, ((1.0, 2.39), (5.07, 7.16)), 25).text
'7.1†'
>>> cell_label(24.4, False, ((1.0, 20.9), (20.95, 24.4)), 25).text
'24.4*'
>>> cell_label(137.25, False, ((1.0, 137.25),), 200).text
'137'
>>> cell_label(25.0, True, ((1.0, 25.0),), 25).text, cell_label(None, False, (), 25).text
('25+', '-')
>>> played_text(((1.0, 2.39), (5.07, 7.16)), low=1.0)
'≤2.3, 5.1–7.1'
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sflp.charts.colors import Band, blend, contrast, text_colour

FOLD_GAP_BB = 0.5
"""A folded stretch at least this wide (bb) inside a hand's played range earns the ``†`` mark and
a footnote; narrower ones (slivers) the plain ``*``.  Half a big blind: about the smallest stack
difference a player tracks at the table (HoldemResources charts print thresholds to 0.1 bb, but
round stacks to half or whole blinds when they are played)."""

MARK_SEVERAL = "*"
MARK_GAP = "†"

EDGES = (2, 4, 6, 8, 10, 15, 20, 30, 50, 100)
"""The band edges (bb): the stacks players memorise up to 20 bb, then 30, 50 and 100 bb, so that a
deep chart's hands spread over four bands above 20 bb (``tests/test_scale.py`` checks the 1--200
chart's share per band)."""

BAND_COLOURS = ("CDFAB3", "9DE6E1", "C7CC44", "7CBBAC", "BC931A", "5288B2", "926023", "295E88", "693309",
                "530A5F", "450000")
"""The colours of the bands ``≤2`` ... ``15–20``, ``20–30``, ``30–50``, ``50–100`` and above 100 bb
(index 10), in the order of :data:`EDGES`; the last band of a chart takes the colour of the
standard band it starts in."""

TOP_COLOUR = "000000"
"""The colour of hands played over the whole chart (``N+``)."""

NEVER_COLOUR = "FFFFFF"
"""The colour of hands never played (their cells also show ``-``)."""

_GAP_TOL = 1e-9


@dataclass(frozen=True)
class ChartScale:
    """The bands, top and *never* of one chart, from its lowest stack ``low`` (None when unknown)
    to its top stack ``high``."""

    high: float
    low: float | None
    bands: tuple[Band, ...]
    top: Band
    never: Band

    def band(self, max_stack: float | None, capped: bool = False) -> Band:
        """The band of a hand played up to ``max_stack`` bb (``capped``: over the whole chart)."""
        if max_stack is None or (isinstance(max_stack, float) and math.isnan(max_stack)):
            return self.never
        if capped:
            return self.top
        for band in self.bands:
            if float(max_stack) <= band.high:
                return band
        return self.bands[-1]  # a threshold at the top itself, not capped (rounding): the last band

    def colour(self, max_stack: float | None, capped: bool = False) -> str:
        """The cell colour (``RRGGBB``) of a hand played up to ``max_stack`` bb."""
        return self.band(max_stack, capped).colour

    def legend(self) -> list[tuple[str, str]]:
        """``(colour, label)`` in legend order: the bands light to dark, the top, *never*."""
        return [(b.colour, b.label) for b in (*self.bands, self.top, self.never)]

    def ink(self, colour: str) -> str:
        """The cell text colour on ``colour`` (see :func:`ink`)."""
        return ink(colour)

    def label(self, max_stack, capped: bool, intervals, exact_label: str | None = None) -> CellLabel:
        """:func:`cell_label` on this chart."""
        return cell_label(max_stack, capped, intervals, self.high, exact_label, low=self.low)


def _g(x: float) -> str:
    return f"{float(x):g}"


def top_text(top: float) -> str:
    """The chart's top stack as its labels and legend print it: as given when it has at most one
    decimal (``25``, ``12.5``), else floored like every number (``24.925`` -> ``24.9``; whole bb
    from 100: ``199.9`` -> ``199``), so that ``N+`` fits a cell like any label.

    >>> top_text(25), top_text(12.5), top_text(24.925), top_text(199.9), top_text(200)
    ('25', '12.5', '24.9', '199', '200')
    """
    top = float(top)
    if top >= 100:
        return str(math.floor(top + 1e-9))
    if abs(top * 10 - round(top * 10)) <= 1e-9 * max(1.0, top):
        return _g(round(top * 10) / 10)
    return f"{math.floor(top * 10 + 1e-9) / 10:.1f}"


def chart_scale(top: float, low: float | None = None) -> ChartScale:
    """The scale of a chart whose top stack is ``top`` bb (and lowest ``low``, if known): the
    bands of :data:`EDGES` below ``top``, the last one running up to ``top``, less those that lie
    entirely below ``low`` (no hand on the chart can be played up to less than its lowest stack)."""
    top = float(top)
    edges = [e for e in EDGES if e < top]
    lows = [0.0, *map(float, edges)]
    highs = [*map(float, edges), top]
    bands = []
    for k, (lo, hi) in enumerate(zip(lows, highs)):
        if low is not None and hi < float(low):
            continue
        hi_text = top_text(hi) if hi == top else _g(hi)
        label = f"≤{hi_text}" if k == 0 else f"{_g(lo)}–{hi_text}"
        bands.append(Band(lo, hi, label, BAND_COLOURS[k]))
    top_band = Band(top, math.inf, f"{top_text(top)}+", TOP_COLOUR)
    never = Band(math.nan, math.nan, "never", NEVER_COLOUR)
    return ChartScale(top, None if low is None else float(low), tuple(bands), top_band, never)


def ink(colour: str) -> str:
    """Black or white cell text on ``colour``, whichever contrasts more (at least 4.58:1 on any
    colour: the two ratios cross at a luminance of 0.179)."""
    return text_colour(colour)


HATCH_SHARE = 0.3
"""A gap cell's hatching is this share of the way from the cell's colour to its ink (:func:`hatch_colour`)."""


def hatch_colour(colour: str) -> str:
    """The colour of a gap cell's hatching on ``colour``: the look of a ``†`` cell in every medium
    (diagonal lines in the PDF, the pictures and the page; the workbook's ``lightUp`` pattern), a
    share of the way to the cell's ink, so that its text keeps its contrast.

    >>> hatch_colour("FFFFFF"), hatch_colour("000000")
    ('B2B2B2', '4C4C4C')
    """
    return blend(colour, ink(colour), HATCH_SHARE)


def ink_contrast(colour: str) -> float:
    """The WCAG contrast of :func:`ink` on ``colour``."""
    return contrast(colour, ink(colour))


# ------------------------------------------------------------------ labels


@dataclass(frozen=True)
class CellLabel:
    """A cell's ``number`` (``"7.1"``, ``"137"``, ``"25+"``, ``"-"``) and ``mark`` (``""``, ``"*"``, ``"†"``)."""

    number: str
    mark: str

    @property
    def text(self) -> str:
        """What the cell prints: the number, then the mark."""
        return self.number + self.mark


def number_text(max_stack: float | None, capped: bool, top: float, exact_label: str | None = None) -> str:
    """The number of a cell: see the module doc.  ``exact_label`` is the certified floor to 0.1 bb
    (``HandThresholds.exact_label``), used when given.

    >>> number_text(7.7912, False, 25), number_text(137.25, False, 200), number_text(99.99, False, 200)
    ('7.7', '137', '99.9')
    >>> number_text(25.0, True, 25), number_text(None, False, 25), number_text(7.8, False, 25, "7.7")
    ('25+', '-', '7.7')
    """
    if max_stack is None or (isinstance(max_stack, float) and math.isnan(max_stack)):
        return "-"
    if capped:
        return f"{top_text(top)}+"
    text = exact_label if exact_label is not None else f"{math.floor(float(max_stack) * 10 + 1e-9) / 10:.1f}"
    return text.split(".")[0] if float(text) >= 100 else text


def fold_gaps(intervals: Sequence[tuple[float, float]], low: float | None = None) -> list[tuple[float, float]]:
    """The folded stretches inside a hand's played range: between its played ``intervals`` and,
    when the chart's lowest stack ``low`` is given, below the first one.

    >>> fold_gaps(((1.0, 2.39), (5.07, 7.16))), fold_gaps(((3.0, 7.0),), low=1.0)
    ([(2.39, 5.07)], [(1.0, 3.0)])
    """
    ivs = [(float(a), float(b)) for a, b in intervals]
    gaps = [(a[1], b[0]) for a, b in zip(ivs, ivs[1:])]
    if ivs and low is not None and ivs[0][0] > float(low) + _GAP_TOL * max(1.0, float(low)):
        gaps.insert(0, (float(low), ivs[0][0]))
    return gaps


def mark(intervals: Sequence[tuple[float, float]], low: float | None = None) -> str:
    """``""``, ``"*"`` or ``"†"`` for a hand played on ``intervals`` (see the module doc)."""
    gaps = fold_gaps(intervals, low)
    if not gaps:
        return ""
    return MARK_GAP if max(b - a for a, b in gaps) >= FOLD_GAP_BB - _GAP_TOL else MARK_SEVERAL


def cell_label(max_stack, capped: bool, intervals, top: float, exact_label: str | None = None,
               low: float | None = None) -> CellLabel:
    """The cell of a hand played on ``intervals`` up to ``max_stack`` on a chart up to ``top``."""
    return CellLabel(number_text(max_stack, capped, top, exact_label), mark(intervals or (), low))


def _end(x: float, up: bool, digits: int = 1) -> str:
    x = float(x)
    if x >= 100 and digits == 1:
        return str(math.ceil(x - 1e-9) if up else math.floor(x + 1e-9))
    scaled = x * 10**digits
    n = math.ceil(scaled - 1e-9) if up else math.floor(scaled + 1e-9)
    return f"{n / 10**digits:.{digits}f}"


def _stretch(a: float, b: float) -> str:
    """``a–b`` rounded inward (every printed stack inside) at 0.1 bb, or at 0.01 or 0.001 bb when
    0.1 would swallow it; ``≈x`` (its middle, to 0.001 bb) for a stretch narrower than that."""
    for digits in (1, 2, 3):
        lo, hi = _end(a, up=True, digits=digits), _end(b, up=False, digits=digits)
        if float(lo) < float(hi):
            return f"{lo}–{hi}"
    return f"≈{(a + b) / 2:.3f}"


def _bridged(intervals: Sequence[tuple[float, float]]) -> tuple[list[list[float]], list[tuple[float, float]]]:
    """The played stretches with the slivers (gaps narrower than :data:`FOLD_GAP_BB`) bridged, and
    the slivers."""
    merged: list[list[float]] = []
    slivers = []
    for a, b in ((float(a), float(b)) for a, b in intervals):
        if merged and a - merged[-1][1] < FOLD_GAP_BB - _GAP_TOL:
            slivers.append((merged[-1][1], a))
            merged[-1][1] = b
        else:
            merged.append([a, b])
    return merged, slivers


def played_text(intervals: Sequence[tuple[float, float]], low: float | None = None) -> str:
    """The stretches a player acts on, HoldemResources-footnote style: the played ``intervals``
    with the slivers (folded stretches narrower than :data:`FOLD_GAP_BB`) bridged, each rounded
    inward to 0.1 bb (``≤end`` from the chart's lowest stack ``low``).  Exact intervals:
    ``thresholds.csv``.

    >>> played_text(((1.0, 2.388587), (5.070148, 5.233911), (5.554753, 7.163619)), low=1.0)
    '≤2.3, 5.1–7.1'
    >>> played_text(((1.0, 18.030701), (18.697954, 18.699967)), low=1.0), played_text(((3.0, 7.0),), low=1.0)
    ('≤18.0, 18.698–18.699', '3.0–7.0')
    """
    parts = []
    for a, b in _bridged(intervals)[0]:
        at_low = low is not None and abs(a - float(low)) <= _GAP_TOL * max(1.0, abs(a))
        parts.append(f"≤{_end(b, up=False)}" if at_low else _stretch(a, b))
    return ", ".join(parts)


def sliver_span(intervals: Sequence[tuple[float, float]], digits: int = 2) -> str:
    """Where a hand's slivers lie, rounded outward to 0.01 bb (``digits``; ``""`` when it has none).

    >>> sliver_span(((1.0, 5.412719), (5.413884, 5.474649))), sliver_span(((1.0, 7.0),))
    ('5.41–5.42', '')
    """
    slivers = _bridged(intervals)[1]
    if not slivers:
        return ""
    return f"{_end(slivers[0][0], up=False, digits=digits)}–{_end(slivers[-1][1], up=True, digits=digits)}"


def _inner_sliver_span(intervals: Sequence[tuple[float, float]], end: float) -> str:
    """:func:`sliver_span` at 0.01 bb, or finer where rounding its outer end up would pass the
    hand's last stack ``end`` floored at the same precision (``7.04–7.05`` for slivers ending at
    7.0412 of a hand played to 7.0468 became a note whose slivers lay above where it said play
    ends: now ``7.040–7.042``)."""
    for digits in (2, 3, 4):
        span = sliver_span(intervals, digits)
        if not span or float(span.rpartition("–")[2]) <= float(_end(end, up=False, digits=digits)):
            return span
    return span  # pragma: no cover - slivers within 0.0001 bb of the end


def parse_intervals(text: str) -> tuple[tuple[float, float], ...]:
    """The intervals column of ``thresholds.csv`` (``"1.000000-2.388587;5.070148-7.163619"``) as
    pairs of floats, for the writers that work from the published tables.

    >>> parse_intervals("1.000000-2.388587;5.070148-7.163619"), parse_intervals("")
    (((1.0, 2.388587), (5.070148, 7.163619)), ())
    """
    return tuple((float(a), float(b)) for a, b in (part.split("-", 1) for part in filter(None, text.split(";"))))


VERB = {"sb": "push", "bb": "call"}


def _numbers(text: str) -> list[float]:
    """The stacks a note prints (``≤2.3, 5.1–7.1`` -> 2.3, 5.1, 7.1)."""
    import re

    return [float(x) for x in re.findall(r"\d+(?:\.\d+)?", text)]


def _until(played: str, end: float, label: str, slivers: str = "") -> str:
    """``played`` with its last stack replaced by ``end`` written precisely enough to be at or
    above every other number the note prints (``played`` and the ``slivers`` span), then
    ``(label X)``: the note names where play ends, and why the cell shows less (its number is that
    end floored to 0.1 bb)."""
    head, _, last = played.rpartition("–") if "–" in played.rsplit(", ", 1)[-1] else played.rpartition("≤")
    sep = "–" if "–" in played.rsplit(", ", 1)[-1] else "≤"
    for digits in (2, 3, 4):
        text = _end(end, up=False, digits=digits)
        if float(text) >= max(_numbers(played + " " + slivers)):
            return f"{head}{sep}{text} (label {label})"
    return f"{played} (label {label})"  # pragma: no cover - a stretch printed finer than 0.0001 bb


def footnotes(hands: Iterable, top: float, low: float | None = None) -> list[str]:
    """The footnote lines of one grid: one per marked hand, ``†`` first (in the grid's order).

    A ``†`` line gives the stretches a player acts on (:func:`played_text`) and, when slivers lie
    inside them too, where (:func:`sliver_span`); a ``*`` line the range the player acts on and
    where its slivers lie.  No line prints a stack above the cell's label without saying why: when
    the printed stretches or slivers reach above the label (the label is the top floored to
    0.1 bb: J2s played to 5.644 shows 5.6), the line names where play ends and the label, ``call
    ≤5.64 (label 5.6)``.  ``hands`` are :class:`~sflp.solving.thresholds.HandThresholds` (or
    anything with ``player``, ``hand`` and ``intervals``).

    >>> from sflp.solving.thresholds import HandThresholds as H
    >>> for line in footnotes([H("sb", "J4o", ((1.0, 5.412719), (5.413884, 5.474649)), (), 5.47, False),
    ...                        H("sb", "63s", ((1.0, 2.39), (5.07, 5.23), (5.55, 7.16)), (), 7.16, False)],
    ...                       25, low=1.0):
    ...     print(line)
    † 63s: push ≤2.3, 5.1–7.1; also folded in slivers at 5.23–5.55
    * J4o: push ≤5.47 (label 5.4); folded only in slivers at 5.41–5.42
    >>> footnotes([H("sb", "T5o", ((3.0, 7.0401), (7.0412, 7.0468)), (), 7.0468, False)], 25, low=1.0)
    ['† T5o: push 3.0–7.046 (label 7.0); also folded in slivers at 7.040–7.042']
    """
    lines = {MARK_GAP: [], MARK_SEVERAL: []}
    for h in hands:
        m = mark(h.intervals, low)
        if not m:
            continue
        verb = VERB.get(h.player, "play")
        played = played_text(h.intervals, low)
        end = max(float(b) for _, b in h.intervals)
        capped = bool(getattr(h, "capped", False)) or end >= float(top) - _GAP_TOL * max(1.0, float(top))
        slivers = sliver_span(h.intervals) if capped else _inner_sliver_span(h.intervals, end)
        label = number_text(end, capped, top, getattr(h, "exact_label", None))
        tail = (f"; also folded in slivers at {slivers}" if m == MARK_GAP else
                f"; folded only in slivers at {slivers}") if slivers else ""
        if not capped and max(_numbers(played + " " + slivers)) > float(label):
            played = _until(played, end, label, slivers)
        lines[m].append(f"{m} {h.hand}: {verb} {played}{tail}")
    return lines[MARK_GAP] + lines[MARK_SEVERAL]
