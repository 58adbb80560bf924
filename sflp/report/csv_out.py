"""CSV files from the tidy frames: fixed columns, fixed row order, round-trip float text.

Floats are written as the shortest text that reads back to the same double (Python's
``repr``), NaN as an empty field, infinity as ``inf``, line ends ``\\n``.  A column published at a
stated precision (thresholds and SC numbers to 1e-6 bb) holds floats already rounded to it, so its
shortest text is those decimals and no float noise.  **Booleans** are written ``true`` /
``false`` in every CSV of sflp, the spelling of JSON and Arrow (pandas' ``read_csv`` reads them as
booleans).  The same frame therefore always gives byte-identical files, and reading a CSV back
gives the numbers of the solution.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from sflp.atomic import write_bytes
from sflp.errors import ConfigError
from sflp.report.frames import THRESHOLDS_CSV_COLUMNS
from sflp.report.text import RANGES_COLUMNS, VALUES_COLUMNS, quote
from sflp.study.strategy import GRID_RANKS, grid_csv_text


def _column_text(col: pd.Series) -> list[str]:
    values = col.to_numpy()
    if col.dtype == bool:
        return ["true" if v else "false" for v in values]
    if pd.api.types.is_float_dtype(col.dtype):
        # repr of a float is the shortest text that reads back to the same double; NaN -> ""
        values = values.astype(np.float64)
        out = list(map(repr, values.tolist()))
        for k in np.flatnonzero(np.isnan(values)).tolist():
            out[k] = ""
        return out
    uniques = {v: quote(str(v)) for v in pd.unique(values)}
    return [uniques[v] for v in values.tolist()]


def csv_bytes(frame: pd.DataFrame, columns: tuple[str, ...] | list[str]) -> bytes:
    """``frame[columns]`` as CSV bytes: header line, then one line per row, ``\n`` line ends."""
    texts = [_column_text(frame[name]) for name in columns]
    lines = [",".join(quote(c) for c in columns)]
    lines.extend(",".join(row) for row in zip(*texts))
    return ("\n".join(lines) + "\n").encode("utf-8")


def write_values_csv(frame: pd.DataFrame, path: Path | str) -> Path:
    """``values.csv``: stack, value, push_pct, call_pct, exploitability[, value_exact]."""
    columns = list(VALUES_COLUMNS) + (["value_exact"] if "value_exact" in frame.columns else [])
    return write_bytes(path, csv_bytes(frame, columns))


def write_ranges_csv(frame: pd.DataFrame, path: Path | str) -> Path:
    """``ranges.csv``: stack, player, hand, frequency, ev_margin (one row per stack x player x hand)."""
    return write_bytes(path, csv_bytes(frame, RANGES_COLUMNS))


def write_thresholds_csv(frame: pd.DataFrame, path: Path | str) -> Path:
    """``thresholds.csv``: player, hand, max_stack, capped, intervals, any_intervals, chart_label
    (+ sc_number)."""
    extra = ("sc_number",) if "sc_number" in frame.columns else ()
    return write_bytes(path, csv_bytes(frame, THRESHOLDS_CSV_COLUMNS + extra))


def grid_csv_bytes(grid: pd.DataFrame) -> bytes:
    """A 13x13 frequency grid (:func:`sflp.report.frames.grid_from_tidy`) as CSV bytes.

    The text format is :func:`sflp.study.strategy.grid_csv_text`, the one place that writes it and
    (:func:`sflp.study.strategy.read_grid_csv`, ``sflp verify``) reads it back.
    """
    if list(grid.index) != list(GRID_RANKS) or list(grid.columns) != list(GRID_RANKS):
        raise ConfigError("grid_csv_bytes needs a 13x13 grid with rows and columns A..2 (see grid_from_tidy)")
    return grid_csv_text(grid.to_numpy(dtype=np.float64).ravel()).encode("utf-8")


def write_grid_csv(grid: pd.DataFrame, path: Path | str) -> Path:
    """``sb_push_<S>bb.csv`` / ``bb_call_<S>bb.csv``: one player's frequencies at one stack."""
    return write_bytes(path, grid_csv_bytes(grid))
