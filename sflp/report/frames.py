"""Tidy pandas frames of solver results: the one shape every report file is made from.

* :func:`values_frame` -- one row per stack: ``stack, value, push_pct, call_pct,
  exploitability`` (and ``value_exact`` as ``"p/q"`` when asked).
* :func:`ranges_frame` -- one row per stack x player x hand: ``stack, player, hand, frequency,
  ev_margin``.  ``player`` is ``"sb"`` (frequency = push, ev_margin = EV(shove) - EV(fold) per
  hand held) or ``"bb"`` (frequency = call, ev_margin = EV(call) - EV(fold) facing a shove; NaN
  where SB never shoves).
  Rows are ordered by stack, then ``sb`` before ``bb``, then hand in class-id order.
* :func:`thresholds_frame` -- one row per player x hand of a :class:`sflp.thresholds.Thresholds`:
  ``player, hand, max_stack, capped, intervals, any_intervals`` plus the derived ``label`` and
  ``multi`` used by the charts.

Wide views (a 13x13 grid, stacks x hands) are *derived* from these frames by
:func:`grid_from_tidy` and :func:`wide_by_stack`; nothing stores them separately.

Combo-level solutions (1,326 combos) are reported per class: the frequency and SB's EV are the
means over the class's combos (each combo is equally likely, so that is exact); BB's EV is the
mean over the combos that face a shove (an approximation when SB's range is not
combo-symmetric).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from fractions import Fraction

import numpy as np
import pandas as pd

from sflp.cards import CLASS_INDEX as _CLASS_INDEX
from sflp.cards import CLASS_NAMES, GRID_RANKS, N_CLASSES, PLAYERS
from sflp.errors import ConfigError
from sflp.format import class_arrays
from sflp.thresholds import format_intervals

PLAYER_TITLES = {"sb": "SB push", "bb": "BB call"}
"""Titles of the two players' charts; also the workbook's sheet titles."""
VALUES_COLUMNS = ("stack", "value", "push_pct", "call_pct", "exploitability")
RANGES_COLUMNS = ("stack", "player", "hand", "frequency", "ev_margin")
THRESHOLD_DECIMALS = 6
"""Published stack thresholds (``max_stack``, like the intervals) are rounded to 1e-6 bb.  The path
follower finds them to ~1e-13 relative, so the rounding, not the float root finder, sets every
published digit: two machines can only disagree if a threshold lies within ~1e-12 bb of a
rounding boundary."""

THRESHOLDS_COLUMNS = ("player", "hand", "max_stack", "capped", "intervals", "any_intervals")


def fmt_num(x: float) -> str:
    """A stack or blind as short text: ``1.0 -> '1'``, ``0.5 -> '0.5'``, ``7.7 -> '7.7'``.

    >>> fmt_num(1.0), fmt_num(0.5), fmt_num(12.35), fmt_num(25)
    ('1', '0.5', '12.35', '25')
    """
    return format(float(x), ".12g")


def fraction_text(value: Fraction | None) -> str:
    """An exact value as ``"p/q"`` (always with a denominator); empty for None.

    >>> fraction_text(Fraction(-3, 8)), fraction_text(Fraction(2)), fraction_text(None)
    ('-3/8', '2/1', '')
    """
    if value is None:
        return ""
    value = Fraction(value)
    return f"{value.numerator}/{value.denominator}"


# ---------------------------------------------------------------- solutions


def sorted_solutions(solutions: Iterable) -> list:
    """The solutions ordered by stack; one blind structure, each stack once."""
    from sflp.game import Solution

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


def values_frame(solutions: Iterable, exact: bool = False) -> pd.DataFrame:
    """One row per stack: the EV-by-stack curve (``value_exact`` as ``"p/q"`` text if ``exact``)."""
    sols = sorted_solutions(solutions)
    data = {
        "stack": [float(s.config.stack) for s in sols],
        "value": [float(s.value) for s in sols],
        "push_pct": [float(s.push_pct) for s in sols],
        "call_pct": [float(s.call_pct) for s in sols],
        "exploitability": [float(s.exploitability) for s in sols],
    }
    if exact:
        data["value_exact"] = [fraction_text(s.value_exact) for s in sols]
    return pd.DataFrame(data)


def ranges_frame(solutions: Iterable) -> pd.DataFrame:
    """One row per stack x player x hand (169 classes): frequency and EV margin."""
    sols = sorted_solutions(solutions)
    rows = np.stack([solution_rows(s) for s in sols]) if sols else np.empty((0, 4, N_CLASSES))
    return ranges_frame_from_arrays([float(s.config.stack) for s in sols], rows)


def solution_rows(solution) -> np.ndarray:
    """A ``(4, 169)`` array: SB frequency, BB frequency, SB EV margin, BB EV margin per class.

    ``-0.0`` becomes ``0.0`` so that files never show a negative zero.
    """
    return np.stack(class_arrays(solution)).astype(np.float64) + 0.0


def ranges_frame_from_arrays(stacks: Sequence[float], rows: np.ndarray) -> pd.DataFrame:
    """The tidy ranges frame of ``stacks`` from their :func:`solution_rows` (shape ``(n, 4, 169)``)."""
    n = len(stacks)
    rows = np.asarray(rows, dtype=np.float64).reshape(n, 4, N_CLASSES)
    freq = rows[:, 0:2, :]
    ev = rows[:, 2:4, :]
    return pd.DataFrame(
        {
            "stack": np.repeat(np.asarray(stacks, dtype=np.float64), 2 * N_CLASSES),
            "player": np.tile(np.repeat(np.array(PLAYERS, dtype=object), N_CLASSES), n),
            "hand": np.tile(np.array(CLASS_NAMES, dtype=object), 2 * n),
            "frequency": freq.ravel() + 0.0,  # -0.0 -> 0.0
            "ev_margin": ev.ravel() + 0.0,
        }
    )


def thin_indices(n: int, most: int) -> np.ndarray:
    """At most ``most`` indices of ``range(n)`` spread evenly, always the first and the last.

    >>> thin_indices(5, 10).tolist(), thin_indices(101, 5).tolist()
    ([0, 1, 2, 3, 4], [0, 25, 50, 75, 100])
    """
    if n <= most:
        return np.arange(n)
    return np.unique(np.round(np.linspace(0, n - 1, max(2, most))).astype(np.int64))


# ---------------------------------------------------------------- thresholds


def thresholds_frame(thresholds) -> pd.DataFrame:
    """One row per player x hand (sb hands in class-id order, then bb).

    ``max_stack`` is the highest stack with frequency > 0.5 (``high`` when capped, NaN when
    never), ``capped`` whether the hand is played up to the top of the range, ``intervals`` /
    ``any_intervals`` the stack intervals with frequency > 0.5 / > 0 as text; ``label`` is the
    chart text (``"7.7"``, ``"25+"``, ``"-"``) and ``multi`` marks hands with several > 0.5
    intervals.
    """
    rows = []
    for player in PLAYERS:
        for hand in CLASS_NAMES:
            h = thresholds.get(player, hand)
            rows.append(
                (
                    player,
                    hand,
                    math.nan if h.max_stack is None else round(float(h.max_stack), THRESHOLD_DECIMALS),
                    bool(h.capped),
                    format_intervals(h.intervals),
                    format_intervals(h.any_intervals),
                    h.label(),
                    bool(h.multi),
                )
            )
    return pd.DataFrame(rows, columns=[*THRESHOLDS_COLUMNS, "label", "multi"])


# ---------------------------------------------------------------- Sklansky-Chubukov numbers


def sc_frame(numbers: dict) -> pd.DataFrame:
    """One row per class (class-id order) of :func:`sflp.sc.sc_numbers`: ``hand``, ``sc_number``
    (bb before posting; ``inf`` when unbounded, NaN when never profitable), ``sc_exact`` ("p/q"),
    ``label`` (6 decimals, ``inf`` or ``-``)."""
    rows = []
    for hand in CLASS_NAMES:
        sc = numbers[hand]
        value = math.inf if sc.unbounded else math.nan if sc.never else float(sc.stack)
        rows.append((hand, value, fraction_text(sc.stack), sc.label()))
    return pd.DataFrame(rows, columns=["hand", "sc_number", "sc_exact", "label"])


def add_sc_column(tdf: pd.DataFrame, numbers: dict) -> pd.DataFrame:
    """``tdf`` with a ``sc_number`` column: the SB row's Sklansky-Chubukov number, NaN on BB rows."""
    by_hand = dict(zip(CLASS_NAMES, sc_frame(numbers)["sc_number"]))
    out = tdf.copy()
    out["sc_number"] = [by_hand[h] if p == "sb" else math.nan for p, h in zip(out["player"], out["hand"])]
    return out


# ---------------------------------------------------------------- wide views


def select(frame: pd.DataFrame, **where) -> pd.DataFrame:
    """The rows of ``frame`` whose columns equal the given values (``player="sb", stack=10``)."""
    mask = np.ones(len(frame), dtype=bool)
    for column, value in where.items():
        mask &= (frame[column] == value).to_numpy()
    return frame[mask]


def grid_from_tidy(frame: pd.DataFrame, value: str = "frequency", **where) -> pd.DataFrame:
    """A 13x13 grid (rows and columns ``A K ... 2``) of ``value`` for one stack/player.

    ``where`` selects the rows (e.g. ``stack=10.0, player="sb"``); they must hold each of the
    169 hands exactly once.  Cell ``[row, col]`` is class id ``row*13 + col`` (suited above the
    diagonal, offsuit below), so ``grid.loc["A", "K"]`` is AKs and ``grid.loc["K", "A"]`` AKo.
    """
    rows = select(frame, **where)
    hands = rows["hand"].to_numpy()
    if len(hands) != N_CLASSES or set(hands) != set(CLASS_NAMES):
        raise ConfigError(
            f"grid_from_tidy needs the 169 hands once each for {where or 'the frame'}, got {len(hands)} rows"
        )
    ids = np.fromiter((_CLASS_INDEX[h] for h in hands), dtype=np.int64, count=N_CLASSES)
    values = rows[value].to_numpy()
    cells = np.empty(N_CLASSES, dtype=values.dtype)
    cells[ids] = values
    return pd.DataFrame(cells.reshape(13, 13), index=list(GRID_RANKS), columns=list(GRID_RANKS))


def wide_by_stack(frame: pd.DataFrame, value: str, player: str) -> pd.DataFrame:
    """Stacks as rows, the 169 hands (class-id order) as columns, for one player."""
    rows = select(frame, player=player)
    wide = rows.pivot(index="stack", columns="hand", values=value)
    return wide.reindex(columns=list(CLASS_NAMES)).sort_index()


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
