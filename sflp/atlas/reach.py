"""The reach (issue 42): the hand maps' boundaries traced between the structures' antes.

The atlas knows a hand exactly on its structures' antes (the stack path of each) and on its ante
paths; between two neighbouring antes :mod:`sflp.atlas.regions` joins each boundary straight
through those points, and where the two antes have different numbers of played stretches it
draws steps and marks the gap.  The reach follows each boundary as the ante moves instead: it
solves more structures of the same line, at antes it chooses, each an exact certified stack path
like every other structure (written to the atlas's tables, re-proved by ``verify``), until every
boundary of every hand is drawn within :data:`TOLERANCE_PT` of the exact curve, or the budget of
structures is spent.

How it chooses (adaptive bisection, every point exact):

* A gap between neighbouring antes ``a0 < a1`` that has no structure inside is *unmeasured*: its
  midpoint is solved first (the widest unmeasured gaps first).
* Solving the midpoint ``am`` measures the gap: for every hand, player and family (frequency > 0.5,
  played at all) whose three rows have the same number of stretches, each boundary's exact stack
  at ``am`` against the straight line the map would draw between ``a0`` and ``a1``; the largest
  miss, in points of the map (:data:`sflp.atlas.maps.MAP_W` over the stack range), is the gap's
  error.  Each half is then expected to miss a quarter of that (a smooth curve's chord error
  shrinks with the square of its length), and is measured in its turn when it is the worst.
* A half whose two antes disagree on a number of stretches (a stretch appears, vanishes, splits
  or merges inside it) is drawn as steps: its error is its height on the map
  (:data:`sflp.atlas.maps.MAP_H` over the ante range), so bisection locates the change until the
  steps are within the tolerance.
* Each round solves the worst gaps, up to ``batch`` at once (the runner's workers share them),
  while the worst error exceeds the tolerance and the budget lasts.

What it leaves: :class:`Reach` says how many structures it added and the largest error left, in
points, which the map's legend states.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from sflp.core.cards import CLASS_NAMES, PLAYERS

TOLERANCE_PT = 0.5
"""How far (points of the hand maps' plot, :data:`sflp.atlas.maps.MAP_W` x ``MAP_H``) a drawn
boundary may be from the exact one: half a point, under a pixel of the PNG and the page."""
FAMILIES = ("intervals", "any_intervals")
"""The boundaries traced: frequency > 0.5, and played at all."""


@dataclass(frozen=True)
class Reach:
    """What the reach did: the antes it solved (in order of solving) and the largest error left
    (points; 0 when nothing is left above the tolerance)."""

    antes: tuple[float, ...]
    error_pt: float
    budget: int


def _stretches(view, player: str, hand: str, family: str):
    return getattr(view.get(player, hand), family)


def gap_error(lower, middle, upper, a0: float, a1: float, x_scale: float, y_scale: float) -> tuple[float, float, float]:
    """``(chord miss, lower half's steps, upper half's steps)`` in points, for the structures
    ``lower`` / ``middle`` / ``upper`` (stack paths at antes ``a0``, the midpoint, ``a1``): the
    largest distance along the stack between a boundary's exact stack at the midpoint and the
    straight line between its ends (over every hand, player and family whose three rows have as
    many stretches), and each half's height where its two antes disagree on a number of stretches
    (0 where they agree)."""
    am = _middle(a0, a1)
    miss = low_steps = high_steps = 0.0
    for player in PLAYERS:
        for hand in CLASS_NAMES:
            for family in FAMILIES:
                lo, mid, up = (_stretches(v, player, hand, family) for v in (lower, middle, upper))
                if len(lo) != len(mid):
                    low_steps = (am - a0) * y_scale
                if len(mid) != len(up):
                    high_steps = (a1 - am) * y_scale
                if len(lo) == len(mid) == len(up):
                    for p, q, r in zip(lo, mid, up):
                        for j in (0, 1):
                            miss = max(miss, abs(q[j] - (p[j] + r[j]) / 2) * x_scale)
    return miss, low_steps, high_steps


def disagree(lower, upper) -> bool:
    """Whether two structures differ in the number of stretches of any hand, player or family."""
    return any(len(_stretches(lower, p, h, f)) != len(_stretches(upper, p, h, f))
               for p in PLAYERS for h in CLASS_NAMES for f in FAMILIES)


def _middle(a0: float, a1: float) -> float:
    """The ante half way, taken on the antes' shortest decimals (0.025 and 0.0125 give 0.01875, not
    0.018750000000000003): the structure's name and every file that prints its ante stay short.

    >>> _middle(0.0125, 0.025), _middle(0.0, 0.125)
    (0.01875, 0.0625)
    """
    from decimal import Decimal

    return float((Decimal(repr(float(a0))) + Decimal(repr(float(a1)))) / 2)


def trace(rows: Sequence[tuple[float, object]], solve: Callable[[list[float]], list], *, budget: int,
          x_scale: float, y_scale: float, batch: int = 2, tolerance: float = TOLERANCE_PT) -> Reach:
    """Add structures between the antes of ``rows`` (``(ante, stack path)`` of one line, two or
    more antes) until every boundary is within ``tolerance`` points of the exact one or ``budget``
    structures are added (see the module doc).  ``solve(antes)`` solves the structures at those
    antes and returns their stack paths (views with ``get(player, hand)``), in order; the caller
    keeps them (they are the atlas's structures).  ``x_scale`` / ``y_scale``: points of the map per
    bb of stack / of ante."""
    rows = sorted(((float(a), v) for a, v in rows), key=lambda r: r[0])
    if len(rows) < 2 or budget <= 0:
        return Reach((), 0.0, max(0, budget))
    views = dict(rows)
    heap: list[tuple[float, float, float, float]] = []  # (-error, -width, a0, a1); inf: not measured yet
    for (a0, _), (a1, _) in zip(rows, rows[1:]):
        heapq.heappush(heap, (-(float("inf")), -(a1 - a0), a0, a1))
    added: list[float] = []
    while heap and len(added) < budget and -heap[0][0] > tolerance:
        take = []
        while heap and len(take) < min(batch, budget - len(added)) and -heap[0][0] > tolerance:
            take.append(heapq.heappop(heap))
        mids = [_middle(a0, a1) for _, _, a0, a1 in take]
        solved = solve(mids)
        for (_, _, a0, a1), am, view in zip(take, mids, solved):
            views[am] = view
            added.append(am)
            miss, low_steps, high_steps = gap_error(views[a0], view, views[a1], a0, a1, x_scale, y_scale)
            # each half is expected to miss a quarter of the whole's chord error; steps are their height
            heapq.heappush(heap, (-max(miss / 4, low_steps), -(am - a0), a0, am))
            heapq.heappush(heap, (-max(miss / 4, high_steps), -(a1 - am), am, a1))
    left = max((-e for e, *_ in heap), default=0.0)
    return Reach(tuple(added), left if left > tolerance else 0.0, budget)
