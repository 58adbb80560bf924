"""The rows of ``thresholds.csv`` without pandas: what :func:`sflp.charts.frames.thresholds_frame`
holds, as plain tuples, and the file's bytes.

A chart set whose formats need no frame (``--formats csv``, its ranges as CSV or segments) then
writes its thresholds without importing pandas (about 0.8 s of CPU and 80 MB in each process
that does); with ``--ranges parquet`` pyarrow imports pandas itself.  :mod:`sflp.charts.frames`
builds its frame from :func:`threshold_rows`, so the frame and the file cannot disagree; the
file's text follows the rules of
:mod:`sflp.charts.media.csv` (shortest round-trip floats, NaN empty, ``true`` / ``false``), and
``tests/test_report.py`` checks that both routes give the same bytes.
"""

from __future__ import annotations

import math
from fractions import Fraction

from sflp.charts.text import quote
from sflp.core.cards import CLASS_NAMES, PLAYERS

THRESHOLDS_COLUMNS = ("player", "hand", "max_stack", "capped", "intervals", "any_intervals")
"""The columns of :func:`thresholds_frame` that come straight from the thresholds (and open ``thresholds.csv``)."""
THRESHOLDS_CSV_COLUMNS = (*THRESHOLDS_COLUMNS, "chart_label")
"""``thresholds.csv``'s columns (then ``sc_number`` when the set has the SC numbers)."""
ROW_COLUMNS = (*THRESHOLDS_COLUMNS, "label", "multi", "chart_label")
"""The fields of each :func:`threshold_rows` tuple (the columns of the thresholds frame)."""

SC_DECIMALS = 6
"""``thresholds.csv`` publishes the SC numbers to 1e-6 bb, like the thresholds and ``sflp sc``."""


def chart_label(hand, top: float, low: float | None = None) -> str:
    """The text of one hand's chart cell (:class:`sflp.solving.thresholds.HandThresholds` ``hand``
    on a chart from ``low`` to ``top`` bb) by the one label rule of every medium,
    :func:`sflp.charts.scale.cell_label`: the number (``7.1``, ``137``, ``25+``, ``-``), then its
    mark (``*`` several stretches, each fold narrower than 0.5 bb; ``†`` a fold of 0.5 bb or more).
    """
    from sflp.charts.scale import cell_label

    return cell_label(hand.max_stack, hand.capped, hand.intervals, top, hand.exact_label, low=low).text


def threshold_rows(thresholds) -> list[tuple]:
    """One tuple per player x hand (SB's hands in class-id order, then BB's), fields
    :data:`ROW_COLUMNS`: ``max_stack`` the certified 6-decimal text as a float (NaN when never
    played), ``capped`` and ``multi`` as bools, the interval texts, the chart number ``label`` and
    the cell text ``chart_label`` (see :func:`sflp.charts.frames.thresholds_frame`)."""
    rows = []
    top, low = float(thresholds.high), float(thresholds.low)
    for player in PLAYERS:
        for hand in CLASS_NAMES:
            h = thresholds.get(player, hand)
            iv_text, any_text, top_text = h.published_texts()  # the certified decimals
            rows.append((player, hand, math.nan if top_text is None else float(top_text), bool(h.capped), iv_text,
                         any_text, h.label(), bool(h.multi), chart_label(h, top, low)))
    return rows


def published_sc(sc) -> float:
    """One SC number as ``thresholds.csv`` publishes it: the exact fraction correctly rounded to
    :data:`SC_DECIMALS` decimals (half to even, decided on the fraction, so no float noise and no
    double rounding), as the float whose shortest text is those decimals; ``inf`` when unbounded,
    NaN when never profitable.

    >>> from types import SimpleNamespace as S
    >>> published_sc(S(unbounded=False, never=False, stack=Fraction(27775499610692964, 10**14)))
    277.754996
    >>> published_sc(S(unbounded=False, never=False, stack=Fraction(2, 3)))
    0.666667
    """
    if sc.unbounded:
        return math.inf
    if sc.never:
        return math.nan
    scale = 10**SC_DECIMALS
    return float(Fraction(round(Fraction(sc.stack) * scale), scale))


def _cell(value) -> str:
    """One field as :mod:`sflp.charts.media.csv` writes its column: bools ``true`` / ``false``,
    floats their shortest round-trip text (NaN empty), texts quoted when they must be."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return "" if value != value else repr(value)
    return quote(str(value))


def thresholds_csv_text(thresholds, numbers: dict | None = None) -> str:
    """``thresholds.csv`` of ``thresholds``: :data:`THRESHOLDS_CSV_COLUMNS`, then ``sc_number``
    (SB's rows: :func:`published_sc` of ``numbers[hand]``; BB's empty) when ``numbers`` is given."""
    columns = [THRESHOLDS_COLUMNS.index(c) if c in THRESHOLDS_COLUMNS else ROW_COLUMNS.index(c)
               for c in THRESHOLDS_CSV_COLUMNS]
    names = list(THRESHOLDS_CSV_COLUMNS) + (["sc_number"] if numbers is not None else [])
    lines = [",".join(quote(c) for c in names)]
    for row in threshold_rows(thresholds):
        fields = [_cell(row[c]) for c in columns]
        if numbers is not None:
            fields.append(_cell(published_sc(numbers[row[1]]) if row[0] == "sb" else math.nan))
        lines.append(",".join(fields))
    return "\n".join(lines) + "\n"
