r"""Compare two charts: per hand and player, the threshold difference and where the decisions differ.

A *chart* here is, for each player and class, the set of stacks at which the hand is played with
frequency > 0.5 (a union of intervals, exactly what ``thresholds.csv`` and
:class:`sflp.solving.thresholds.Thresholds` hold) over a stack range ``[low, high]``.  Two charts are
compared on the stacks both cover, ``[max(low_a, low_b), min(high_a, high_b)]``:

* ``threshold_a`` / ``threshold_b``: the largest stack with frequency > 0.5 (the chart number;
  ``None`` when never), ``capped_*`` when that is the top of its range;
* ``difference = threshold_b - threshold_a`` (``None`` when either is never played, and when
  both are capped: each chart plays the hand to its top, so neither number is a threshold and
  their difference is not one either).  When exactly one is capped the difference is a bound:
  the capped chart's threshold is at least its top;
* ``differs``: the stack intervals inside the common range where exactly one chart plays the
  hand (the symmetric difference of the two interval sets), and ``differ_length`` their total
  length in bb.  ``differ_length == 0`` means the two charts agree on that hand at every common
  stack, not just at the chart number.

Charts come from :class:`~sflp.solving.thresholds.Thresholds` (a configuration, solved exactly) or from a
chart-set folder (:func:`sflp.charts.compare.load_chart`).

>>> a = Chart("A", 1.0, 25.0, {("sb", "72o"): ((1.0, 5.0),)})
>>> b = Chart("B", 1.0, 25.0, {("sb", "72o"): ((1.0, 4.0), (6.0, 7.0))})
>>> row = compare_charts(a, b)[("sb", "72o")]
>>> row.difference, row.differs, row.differ_length
(2.0, ((4.0, 5.0), (6.0, 7.0)), 2.0)
>>> compare_charts(Chart("A", 1.0, 25.0, {("sb", "AA"): ((1.0, 25.0),)}),
...                Chart("B", 1.0, 15.0, {("sb", "AA"): ((1.0, 15.0),)}))[("sb", "AA")].difference is None
True
"""

from __future__ import annotations

from dataclasses import dataclass

from sflp.core.cards import CLASS_NAMES, PLAYERS
from sflp.errors import ConfigError

Intervals = tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class Chart:
    """One chart: a name, its stack range and the > 0.5 intervals of each ``(player, hand)``
    (missing keys: never played); ``config`` (the blinds and antes,
    :class:`sflp.core.game.GameConfig`) and ``title`` (what kind of chart, e.g. ``"Nash
    equilibrium"``) when known, to name the chart by its structure."""

    name: str
    low: float
    high: float
    intervals: dict[tuple[str, str], Intervals]
    config: object = None
    title: str | None = None

    @classmethod
    def from_thresholds(cls, name: str, thresholds) -> Chart:
        """A chart from :class:`sflp.solving.thresholds.Thresholds` (or anything with ``get``, ``low``, ``high``)."""
        return cls(
            name,
            float(thresholds.low),
            float(thresholds.high),
            {(p, h): tuple(thresholds.get(p, h).intervals) for p in PLAYERS for h in CLASS_NAMES},
            getattr(thresholds, "config", None),
        )

    def get(self, player: str, hand: str) -> Intervals:
        return self.intervals.get((player, hand), ())


@dataclass(frozen=True)
class HandDiff:
    """The comparison of one hand of one player (see the module docstring)."""

    player: str
    hand: str
    threshold_a: float | None
    threshold_b: float | None
    capped_a: bool
    capped_b: bool
    difference: float | None
    differs: Intervals
    differ_length: float

    def to_dict(self) -> dict:
        return {
            "player": self.player,
            "hand": self.hand,
            "threshold_a": self.threshold_a,
            "threshold_b": self.threshold_b,
            "capped_a": self.capped_a,
            "capped_b": self.capped_b,
            "difference": self.difference,
            "differs": [list(iv) for iv in self.differs],
            "differ_length": self.differ_length,
        }


def _clip(intervals: Intervals, low: float, high: float) -> list[tuple[float, float]]:
    out = []
    for a, b in intervals:
        a, b = max(a, low), min(b, high)
        if a < b:
            out.append((a, b))
    return out


def symmetric_difference(x: Intervals, y: Intervals, low: float, high: float, tol: float = 1e-9) -> Intervals:
    """Stacks in ``[low, high]`` covered by exactly one of ``x`` and ``y`` (pieces shorter than ``tol`` dropped).

    >>> symmetric_difference(((1, 5),), ((2, 5), (6, 8)), 1, 7)
    ((1, 2), (6, 7))
    """
    cuts = sorted({low, high, *(v for a, b in _clip(x, low, high) + _clip(y, low, high) for v in (a, b))})

    def inside(ivs, s):
        return any(a <= s <= b for a, b in ivs)

    out: list[tuple[float, float]] = []
    for a, b in zip(cuts, cuts[1:]):
        if b - a <= tol:
            continue
        mid = (a + b) / 2
        if inside(x, mid) != inside(y, mid):
            if out and abs(out[-1][1] - a) <= tol:
                out[-1] = (out[-1][0], b)
            else:
                out.append((a, b))
    return tuple(out)


def _threshold(intervals: Intervals, high: float, tol: float = 1e-9) -> tuple[float | None, bool]:
    if not intervals:
        return None, False
    top = intervals[-1][1]
    return float(top), top >= high - tol


def compare_charts(a: Chart, b: Chart) -> dict[tuple[str, str], HandDiff]:
    """Compare every ``(player, hand)`` of two charts on their common stack range."""
    low, high = max(a.low, b.low), min(a.high, b.high)
    if not low < high:
        raise ConfigError(
            f"charts {a.name!r} ({a.low:g}-{a.high:g} bb) and {b.name!r} ({b.low:g}-{b.high:g} bb) "
            "share no stack range"
        )
    out = {}
    for player in PLAYERS:
        for hand in CLASS_NAMES:
            ia, ib = a.get(player, hand), b.get(player, hand)
            ta, ca = _threshold(ia, a.high)
            tb, cb = _threshold(ib, b.high)
            diff = symmetric_difference(ia, ib, low, high)
            out[(player, hand)] = HandDiff(
                player,
                hand,
                ta,
                tb,
                ca,
                cb,
                None if ta is None or tb is None or (ca and cb) else tb - ta,
                diff,
                float(sum(e - s for s, e in diff)),
            )
    return out
