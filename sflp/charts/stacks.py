"""Which stacks a chart set shows: the solutions in stack order, the stacks kept for the sheets
and the page, and the round stacks of the range grids (numpy only)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import numpy as np

from sflp.charts.text import fmt_num
from sflp.errors import ConfigError


def sorted_solutions(solutions: Iterable) -> list:
    """The solutions ordered by stack; one blind structure, each stack once."""
    from sflp.core.game import Solution

    if isinstance(solutions, (str, bytes, Solution)) or not isinstance(solutions, Iterable):
        raise ConfigError(
            f"expected a list of Solution objects (from solve / solve_many), got {type(solutions).__name__}"
        )
    solutions = list(solutions)
    for k, s in enumerate(solutions):
        if not isinstance(s, Solution):
            raise ConfigError(
                f"solutions[{k}] is {s!r:.40}, not a Solution: pass what solve / solve_many return"
            )
    sols = sorted(solutions, key=lambda s: float(s.config.stack))
    if not sols:
        raise ConfigError("no solutions to report")
    keys = {s.config.structure_key() for s in sols}
    if len(keys) > 1:
        raise ConfigError(f"solutions mix blind structures {sorted(keys)}; report one structure at a time")
    stacks = [float(s.config.stack) for s in sols]
    for a, b in zip(stacks, stacks[1:]):
        if a == b:
            raise ConfigError(f"stack {fmt_num(a)} bb appears twice among the solutions")
    return sols


def thin_indices(n: int, most: int) -> np.ndarray:
    """At most ``most`` indices of ``range(n)`` spread evenly, always the first and the last.

    >>> thin_indices(5, 10).tolist(), thin_indices(101, 5).tolist()
    ([0, 1, 2, 3, 4], [0, 25, 50, 75, 100])
    """
    if n <= most:
        return np.arange(n)
    return np.unique(np.round(np.linspace(0, n - 1, max(2, most))).astype(np.int64))


def nearest_stacks(solved: Sequence[float], wanted: Iterable[float]) -> list[float]:
    """For each wanted stack the nearest solved one (ties to the lower), without repeats.

    >>> nearest_stacks([1, 2, 4.9, 5.2, 10], [5, 10, 11])
    [4.9, 10.0]
    """
    solved = sorted(float(s) for s in solved)
    out: list[float] = []
    for w in wanted:
        best = min(solved, key=lambda s: (abs(s - float(w)), s))
        if best not in out:
            out.append(best)
    return out


RANGE_GRID_COUNT = 5
"""How many range grids a chart set gets by default."""


def nice_stacks(low: float, high: float, count: int = RANGE_GRID_COUNT) -> list[float]:
    """About ``count`` round stacks spread evenly over ``[low, high]``: the multiples of a step
    of 1, 2, 2.5 or 5 times a power of ten (the smallest giving at most ``count`` multiples).

    >>> nice_stacks(1, 25), nice_stacks(1, 100)
    ([5.0, 10.0, 15.0, 20.0, 25.0], [20.0, 40.0, 60.0, 80.0, 100.0])
    >>> nice_stacks(2, 10), nice_stacks(1, 200)
    ([2.0, 4.0, 6.0, 8.0, 10.0], [50.0, 100.0, 150.0, 200.0])
    >>> nice_stacks(5, 6), nice_stacks(7, 7)
    ([5.0, 5.25, 5.5, 5.75, 6.0], [7.0])
    """
    low, high = float(low), float(high)
    if high <= low:
        return [low]
    raw = (high - low) / count
    magnitude = 10.0 ** math.floor(math.log10(raw))
    for factor in (1, 2, 2.5, 5, 10, 20):
        step = factor * magnitude
        first, last = math.ceil(low / step - 1e-9), math.floor(high / step + 1e-9)
        if last - first + 1 <= count:
            break
    return [float(format(k * step, ".12g")) for k in range(first, last + 1)]


def default_range_stacks(solved: Sequence[float]) -> list[float]:
    """The solved stacks nearest to :func:`nice_stacks` over the solved range (about five,
    spread evenly: 5, 10, ..., 25 for 1-25 bb; 20, 40, ..., 100 for 1-100 bb).

    >>> default_range_stacks([1, 2, 5, 7.5, 10])
    [2.0, 5.0, 7.5, 10.0]
    >>> default_range_stacks([1, 2, 3])
    [1.0, 2.0, 3.0]
    """
    solved = sorted(float(s) for s in solved)
    return nearest_stacks(solved, nice_stacks(solved[0], solved[-1]))


HAND_EV_STACKS = 50
"""Stacks on the workbook's ``Hand EV`` sheet at most (spread evenly, the grid stacks with them):
338 cells a stack, each written one at a time, so the sheet stays small and quick;
the set's every-stack files hold every margin."""
PAGE_STACKS = 1000
"""Most grid stacks ``chart.html`` embeds (chosen evenly, ends included)."""
PAGE_CURVE_POINTS = 4000
"""Most points of the value curve ``chart.html`` embeds (chosen evenly, ends included)."""


def hand_ev_stacks(shown: Sequence[float], range_stacks: Iterable[float]) -> list[float]:
    """The stacks of the ``Hand EV`` sheet: at most :data:`HAND_EV_STACKS` of the workbook's
    stacks ``shown`` (increasing) spread evenly, with the grid stacks ``range_stacks``.

    >>> len(hand_ev_stacks([k / 10 for k in range(10, 251)], [5.0, 10.0, 12.3]))
    52
    """
    shown = np.asarray(shown, dtype=np.float64)
    return sorted(set(shown[thin_indices(len(shown), HAND_EV_STACKS)].tolist()) | {float(s) for s in range_stacks})
