"""Where a hand is played in the stack x ante plane, as regions (issue 42): the polygons the hand
maps fill, in data coordinates (stack in bb, ante in bb).

The atlas knows a hand exactly on two families of lines: along the stack at each structure's
ante (its stack intervals) and along the ante at each ante path's stack (its ante intervals).
:func:`hand_regions` joins them into polygons:

* Between two neighbouring antes with the **same number** of played stretches, stretch ``m`` at
  the lower ante is joined to stretch ``m`` at the upper one: its left end to the left end, its
  right end to the right end.  Each such boundary runs through the exact stack thresholds at both
  antes and through every exact ante threshold of an ante path that falls between them (each
  given to the boundary that passes nearest it), in order of the ante; between those points it is
  straight.  The polygon is the strip between a stretch's two boundaries, and it goes on through
  every following gap that agrees too (one polygon, no seam at the antes between).
* Where the two antes have **different numbers** of stretches (a stretch appears, vanishes,
  splits or merges between them), which end belongs to which boundary is not known from the
  atlas, and is not guessed: each ante's stretches are drawn as steps up to half way to the
  other ante, and the gap is reported (:attr:`Regions.disagree`), for the map to mark.  The ante
  paths' thresholds inside such a gap are reported too (:attr:`Regions.loose`), to be drawn as
  points.

The same rule serves the frequency > 0.5 intervals and the played-at-all (> 0) ones.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

Point = tuple[float, float]
"""``(stack, ante)``."""
_EPS = 1e-9


@dataclass
class Regions:
    """The polygons of one hand, player and interval family (see the module doc)."""

    polygons: list[list[Point]] = field(default_factory=list)
    """Closed rings of ``(stack, ante)`` points (the last point joins the first)."""
    disagree: list[tuple[float, float]] = field(default_factory=list)
    """The ``(lower, upper)`` ante pairs whose numbers of stretches differ (drawn as steps)."""
    loose: list[Point] = field(default_factory=list)
    """Exact ante thresholds inside a disagreeing gap: on no drawn boundary, drawn as points."""


def _cross(paths, a0: float, a1: float) -> list[Point]:
    """The ante paths' thresholds strictly between antes ``a0`` and ``a1`` (path ends are no thresholds)."""
    out = []
    for stack, intervals, low, high in paths:
        for iv in intervals:
            for e in iv:
                if a0 + _EPS < e < a1 - _EPS and low + _EPS < e < high - _EPS:
                    out.append((float(stack), float(e)))
    return out


def hand_regions(rows: Sequence[tuple[float, Sequence[tuple[float, float]]]],
                 paths: Sequence[tuple[float, Sequence[tuple[float, float]], float, float]] = ()) -> Regions:
    """The regions of one hand: ``rows`` are ``(ante, stack intervals)`` of the structures (two or
    more distinct antes, any order), ``paths`` are ``(stack, ante intervals, low ante, high ante)``
    of the ante paths (see the module doc)."""
    rows = sorted(((float(a), [(float(x), float(y)) for x, y in ivs]) for a, ivs in rows), key=lambda r: r[0])
    out = Regions()
    chains: list[tuple[list[Point], list[Point]]] = []  # stretches joined so far, their left and right curves

    def flush() -> None:
        out.polygons.extend(left + right[::-1] for left, right in chains)
        chains.clear()

    for (a0, lower), (a1, upper) in zip(rows, rows[1:]):
        crossings = _cross(paths, a0, a1)
        if len(lower) != len(upper) or (not lower and crossings):
            flush()
            out.disagree.append((a0, a1))
            out.loose += crossings
            mid = (a0 + a1) / 2
            out.polygons += [[(x, a0), (y, a0), (y, mid), (x, mid)] for x, y in lower]
            out.polygons += [[(x, mid), (y, mid), (y, a1), (x, a1)] for x, y in upper]
            continue
        # boundary 2m is stretch m's left end, 2m + 1 its right end
        ends = [((lo[j], a0), (up[j], a1)) for lo, up in zip(lower, upper) for j in (0, 1)]
        through: list[list[Point]] = [[] for _ in ends]
        for s, a in crossings:
            t = (a - a0) / (a1 - a0)
            near = min(range(len(ends)), key=lambda b: abs(ends[b][0][0] + t * (ends[b][1][0] - ends[b][0][0]) - s))
            through[near].append((s, a))
        curves = [[p, *sorted(mid, key=lambda q: q[1]), q] for (p, q), mid in zip(ends, through)]
        if chains:  # the stretches go on from the gap below: one polygon each, no seam at this ante
            for (left, right), m in zip(chains, range(len(lower))):
                left += curves[2 * m][1:]
                right += curves[2 * m + 1][1:]
        else:
            chains = [(curves[2 * m], curves[2 * m + 1]) for m in range(len(lower))]
    flush()
    return out


def breakpoints(rows, paths=()) -> list[Point]:
    """Every exact breakpoint of one hand that a region's boundary must pass through: the stack
    thresholds at each structure's ante (``rows`` as in :func:`hand_regions`, with each structure's
    ``(low, high)`` stack range last: range ends are no thresholds) and the ante thresholds of the
    paths between the lowest and highest ante."""
    points = [(float(e), float(a)) for a, ivs, low, high in rows for iv in ivs for e in iv
              if low + _EPS < e < high - _EPS]
    antes = sorted(float(a) for a, *_ in rows)
    return points + _cross(paths, antes[0], antes[-1])
