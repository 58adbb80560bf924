"""Tidy pandas frames of solver results: the one shape every report file is made from.

* :func:`values_frame` -- one row per stack: ``stack, value, push_pct, call_pct,
  exploitability`` (and ``value_exact`` as ``"p/q"`` when asked).
* :func:`ranges_frame` -- one row per stack x player x hand: ``stack, player, hand, frequency,
  ev_margin``.  ``player`` is ``"sb"`` (frequency = push, ev_margin = EV(shove) - EV(fold) per
  hand held) or ``"bb"`` (frequency = call, ev_margin = EV(call) - EV(fold) facing a shove; NaN
  where SB never shoves).
  Rows are ordered by stack, then ``sb`` before ``bb``, then hand in class-id order.
* :func:`thresholds_frame` -- one row per player x hand of a :class:`sflp.solving.thresholds.Thresholds`:
  ``player, hand, max_stack, capped, intervals, any_intervals`` plus the derived ``label`` (the
  chart number alone), ``multi`` and ``chart_label`` (the cell text every medium prints: the
  number with its mark).

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

import numpy as np
import pandas as pd

from sflp.charts.stacks import sorted_solutions
from sflp.charts.text import fraction_text, solution_rows
from sflp.charts.threshold_rows import (  # noqa: F401 -- re-exported: the frame module names them too
    ROW_COLUMNS,
    SC_DECIMALS,
    THRESHOLDS_COLUMNS,
    THRESHOLDS_CSV_COLUMNS,
    chart_label,
    published_sc,
    threshold_rows,
)
from sflp.core.cards import CLASS_INDEX as _CLASS_INDEX
from sflp.core.cards import CLASS_NAMES, GRID_RANKS, N_CLASSES, PLAYERS
from sflp.errors import ConfigError

PLAYER_TITLES = {"sb": "SB push", "bb": "BB call"}
"""Titles of the two players' charts; also the workbook's sheet titles."""
THRESHOLD_DECIMALS = 6
"""Published stack thresholds (``max_stack``, like the intervals) are rounded to 1e-6 bb: each is
an exact root, isolated with integers, and correctly rounded by exact signs at the rounding
boundary (:mod:`sflp.solving.threshcert`), so every published digit is proven."""




# ---------------------------------------------------------------- solutions


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


# ---------------------------------------------------------------- thresholds


def thresholds_frame(thresholds) -> pd.DataFrame:
    """One row per player x hand (sb hands in class-id order, then bb).

    ``max_stack`` is the highest stack with frequency > 0.5 (``high`` when capped, NaN when
    never), ``capped`` whether the hand is played up to the top of the range, ``intervals`` /
    ``any_intervals`` the stack intervals with frequency > 0.5 / > 0 as text; ``label`` is the
    chart number (``"7.7"``, ``"25+"``, ``"-"``), ``multi`` marks hands with several > 0.5
    intervals, and ``chart_label`` is the text of the hand's cell in every medium: the number and
    its mark (:func:`chart_label`).  The rows are :func:`sflp.charts.threshold_rows.threshold_rows`.
    """
    return pd.DataFrame(threshold_rows(thresholds), columns=list(ROW_COLUMNS))


# ---------------------------------------------------------------- Sklansky-Chubukov numbers


def sc_frame(numbers: dict) -> pd.DataFrame:
    """One row per class (class-id order) of :func:`sflp.study.sc.sc_numbers`: ``hand``, ``sc_number``
    (bb before posting; ``inf`` when unbounded, NaN when never profitable), ``sc_exact`` ("p/q"),
    ``label`` (6 decimals, ``inf`` or ``-``)."""
    rows = []
    for hand in CLASS_NAMES:
        sc = numbers[hand]
        value = math.inf if sc.unbounded else math.nan if sc.never else float(sc.stack)
        rows.append((hand, value, fraction_text(sc.stack), sc.label()))
    return pd.DataFrame(rows, columns=["hand", "sc_number", "sc_exact", "label"])


def add_sc_column(tdf: pd.DataFrame, numbers: dict) -> pd.DataFrame:
    """``tdf`` with a ``sc_number`` column: the SB row's Sklansky-Chubukov number to 1e-6 bb
    (:func:`published_sc`), NaN on BB rows."""
    by_hand = {hand: published_sc(numbers[hand]) for hand in CLASS_NAMES}
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
