"""CSV files from the tidy frames: fixed columns, fixed row order, round-trip float text.

Floats are written as the shortest text that reads back to the same double (Python's
``repr``), NaN as an empty field, booleans as ``true`` / ``false``, line ends ``\\n``.  The same
frame therefore always gives byte-identical files, and reading a CSV back gives the exact
numbers of the solution.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numpy as np
import pandas as pd

from sflp.atomic import write_bytes
from sflp.cards import CLASS_NAMES
from sflp.errors import ConfigError, OutputError
from sflp.report.frames import PLAYERS, RANGES_COLUMNS, THRESHOLDS_COLUMNS, VALUES_COLUMNS
from sflp.strategy import GRID_RANKS, grid_csv_text


def _quote(text: str) -> str:
    if any(ch in text for ch in ',"\n\r'):
        return '"' + text.replace('"', '""') + '"'
    return text


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
    uniques = {v: _quote(str(v)) for v in pd.unique(values)}
    return [uniques[v] for v in values.tolist()]


def csv_bytes(frame: pd.DataFrame, columns: tuple[str, ...] | list[str]) -> bytes:
    """``frame[columns]`` as CSV bytes: header line, then one line per row, ``\n`` line ends."""
    texts = [_column_text(frame[name]) for name in columns]
    lines = [",".join(_quote(c) for c in columns)]
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
    """``thresholds.csv``: player, hand, max_stack, capped, intervals, any_intervals (+ sc_number)."""
    extra = ("sc_number",) if "sc_number" in frame.columns else ()
    return write_bytes(path, csv_bytes(frame, THRESHOLDS_COLUMNS + extra))


def grid_csv_bytes(grid: pd.DataFrame) -> bytes:
    """A 13x13 frequency grid (:func:`sflp.report.frames.grid_from_tidy`) as CSV bytes.

    The text format is :func:`sflp.strategy.grid_csv_text`, the one place that writes it and
    (:func:`sflp.strategy.read_grid_csv`, ``sflp verify``) reads it back.
    """
    if list(grid.index) != list(GRID_RANKS) or list(grid.columns) != list(GRID_RANKS):
        raise ConfigError("grid_csv_bytes needs a 13x13 grid with rows and columns A..2 (see grid_from_tidy)")
    return grid_csv_text(grid.to_numpy(dtype=np.float64).ravel()).encode("utf-8")


def write_grid_csv(grid: pd.DataFrame, path: Path | str) -> Path:
    """``sb_push_<S>bb.csv`` / ``bb_call_<S>bb.csv``: one player's frequencies at one stack."""
    return write_bytes(path, grid_csv_bytes(grid))


def _float_texts(values: np.ndarray) -> list[str]:
    """Shortest round-trip text of each float (Python's ``repr``, done in one C call); NaN -> ``""``."""
    texts = repr(np.asarray(values, dtype=np.float64).tolist())[1:-1].split(", ")
    if "nan" in texts:
        texts = ["" if t == "nan" else t for t in texts]
    return texts


def _frequency_texts(values: np.ndarray) -> list[str]:
    """:func:`_float_texts` of frequencies, most of which are exactly 0 or 1 (their text is
    known; only the mixed ones are formatted)."""
    values = np.asarray(values, dtype=np.float64)
    out = np.full(values.shape, "0.0", dtype=object)
    out[values == 1.0] = "1.0"
    mixed = (values != 0.0) & (values != 1.0)
    if mixed.any():
        out[mixed] = _float_texts(values[mixed])
    return out.tolist()


_ROW_TEMPLATE = "".join(f"%s,{player},{hand},%s,%s\n" for player in PLAYERS for hand in CLASS_NAMES)
"""The 338 rows of one stack as one format string: (stack, frequency, ev_margin) per row."""
_N_ROWS = len(PLAYERS) * len(CLASS_NAMES)


class RangesCsvStream:
    """``ranges.csv`` written one stack at a time, with its SHA-256 computed on the way.

    The bytes are exactly those of :func:`write_ranges_csv` for the same solutions (a test
    checks it), but memory does not grow with the number of stacks: each call to
    :meth:`add` formats and writes the stack's 338 rows.  Use inside a staged folder
    (:mod:`sflp.report.staging`), which makes the whole set appear at once.
    """

    def __init__(self, path: Path | str):
        self.path = Path(path)
        self.digest = hashlib.sha256()
        self.fh = open(self.path, "wb", buffering=1 << 20)
        self.rows = 0
        self._write(",".join(RANGES_COLUMNS) + "\n")

    def _write(self, text: str) -> None:
        data = text.encode("utf-8")
        self.digest.update(data)
        try:
            self.fh.write(data)
        except OSError as exc:  # a full disk, a file size limit: sflp's error, naming the file
            raise OutputError(f"cannot write {self.path}: {exc.strerror or exc}") from None

    def add(self, stack: float, rows: np.ndarray) -> None:
        """Write one stack: ``rows`` is :func:`sflp.report.frames.solution_rows` (4 x 169)."""
        args: list[str] = [repr(float(stack))] * (3 * _N_ROWS)
        args[1::3] = _frequency_texts(rows[0:2].ravel() + 0.0)
        args[2::3] = _float_texts(rows[2:4].ravel() + 0.0)
        self._write(_ROW_TEMPLATE % tuple(args))
        self.rows += _N_ROWS

    def close(self) -> str:
        """Flush, fsync and close; returns the hex SHA-256 of the file."""
        try:
            self.fh.flush()
            os.fsync(self.fh.fileno())
            self.fh.close()
        except OSError as exc:
            raise OutputError(f"cannot write {self.path}: {exc.strerror or exc}") from None
        return self.digest.hexdigest()

    def discard(self) -> None:
        """Close without keeping the file (after an error; a close that fails again is ignored)."""
        try:
            self.fh.close()
        except OSError:
            pass
        finally:
            self.path.unlink(missing_ok=True)
