"""The ``csv`` format: ``values.csv``, ``thresholds.csv`` (with ``thresholds_exact.csv`` and
``thresholds_segments.csv`` when the path is certified), the 13x13 grids ``sb_push_<S>bb.csv`` /
``bb_call_<S>bb.csv`` and the ranges of every stack in the form asked for: ``ranges.csv``
(:class:`RangesCsv`, here), ``ranges_segments.csv`` with the margins files
(:mod:`sflp.charts.media.segments`) or ``ranges.parquet`` (:mod:`sflp.charts.media.parquet`); and
the CSV bytes of any tidy frame (:func:`csv_bytes`, which ``sflp compare``, ``approx-bench`` and the
policy-score sets use too).

Floats are written as the shortest text that reads back to the same double (Python's
``repr``), NaN as an empty field, infinity as ``inf``, line ends ``\\n``.  A column published at a
stated precision (thresholds and SC numbers to 1e-6 bb) holds floats already rounded to it, so its
shortest text is those decimals and no float noise.  **Booleans** are written ``true`` /
``false`` in every CSV of sflp, the spelling of JSON and Arrow (pandas' ``read_csv`` reads them as
booleans).  The same frame therefore always gives byte-identical files, and reading a CSV back
gives the numbers of the solution.  The writer's own files are made without pandas, in the
solving process; pandas is imported only by the functions that take a frame.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from sflp.atomic import write_bytes
from sflp.charts.media.parquet import RangesParquet
from sflp.charts.media.segments import MarginsSupports, RangesSegments
from sflp.charts.media.writer import Block, Head, Sweep, Writer
from sflp.charts.text import RANGES_COLUMNS, VALUES_COLUMNS, quote
from sflp.errors import ConfigError
from sflp.study.strategy import GRID_RANKS, grid_csv_text

if TYPE_CHECKING:  # pandas is imported by the functions that take frames, never by the solving process
    import pandas as pd


def _thresholds_csv(path: Path, sweep: Sweep) -> None:
    """``thresholds.csv`` with the SC numbers, from the thresholds themselves (no frame: a set of
    CSV files imports no pandas)."""
    from sflp.atomic import write_text
    from sflp.charts.threshold_rows import thresholds_csv_text

    write_text(path, thresholds_csv_text(sweep.thresholds, sweep.sc_numbers()))


def _thresholds_exact_csv(path: Path, certificate) -> None:
    from sflp.charts.proof import SEGMENTS_FILE, write_thresholds_exact, write_thresholds_segments

    write_thresholds_exact(path, certificate)
    write_thresholds_segments(path.with_name(SEGMENTS_FILE), certificate)  # the supports the roots follow from


def _grid_csvs(stage: Path, stack: float, rows: np.ndarray) -> None:
    """``sb_push_<S>bb.csv`` and ``bb_call_<S>bb.csv`` of one grid stack (``rows``: its Block rows,
    frequencies in class-id order, which is the grid's cell order: no frame needed)."""
    from sflp.atomic import write_text
    from sflp.charts.text import fmt_num
    from sflp.study.strategy import grid_csv_text

    for k, name in enumerate(("sb_push", "bb_call")):
        frequencies = np.asarray(rows[k], dtype=np.float64) + 0.0  # -0.0 -> 0.0, as in the ranges frame
        write_text(stage / f"{name}_{fmt_num(stack)}bb.csv", grid_csv_text(frequencies))


def _values_rows_text(rows: np.ndarray, exact: list[str] | None) -> str:
    from sflp.charts.text import values_csv_text

    return values_csv_text(rows, exact, header=False)


VALUES_CHUNK = 8192
"""Stacks per piece of ``values.csv`` text that a worker makes while the sweep goes on."""


class CsvWriter(Writer):
    """``values.csv``, ``thresholds.csv`` (with the Sklansky-Chubukov numbers), the grid CSVs and
    the ranges of every stack, by ``ranges`` (:data:`sflp.charts.media.formats.RANGE_FORMS`, already
    resolved from ``auto``)."""

    format = "csv"
    weight = 3

    def __init__(self, ranges: str):
        self.ranges = {"csv": RangesCsv, "segments": RangesSegments, "parquet": RangesParquet}[ranges]()
        # the segments carry no EV margins: the supports (and the stacks off them) do
        self.margins = MarginsSupports() if ranges == "segments" else None

    def open(self, stage: Path, head: Head, submit: Callable) -> None:
        super().open(stage, head, submit)
        self.ranges.open(stage, head, submit)
        if self.margins is not None:
            self.margins.open(stage, head, submit)
        self.with_exact = False  # whether the blocks carry exact values (values.csv's last column)
        self.values: list[np.ndarray] = []  # rows of values.csv not yet handed to a worker
        self.exact: list[str] = []
        self.pieces: list = []  # futures of the pieces' texts, in stack order

    def add(self, block: Block) -> None:
        self.ranges.add(block)
        if self.margins is not None:
            self.margins.add(block)
        for stack, rows in self.grid_rows(block):
            self.submit(_grid_csvs, self.stage, stack, rows)
        self.values.append(block.values)
        self.with_exact = block.exact is not None
        self.exact.extend(block.exact or ())
        if sum(len(v) for v in self.values) >= VALUES_CHUNK:
            self._piece()

    def _piece(self) -> None:
        rows = np.concatenate(self.values) if self.values else np.empty((0, 5))
        self.pieces.append(self.submit(_values_rows_text, rows, self.exact if self.with_exact else None))
        self.values, self.exact = [], []

    def finish(self, sweep: Sweep, submit: Callable) -> dict[str, str]:
        known = self.ranges.finish(sweep, submit)  # the segments' text is the longest csv job: first
        if self.margins is not None:
            known.update(self.margins.finish(sweep, submit))
        self._piece()  # the last piece; values.csv is joined at close, when every piece is made
        if sweep.thresholds is not None:
            submit(_thresholds_csv, self.stage / "thresholds.csv", sweep)
            if getattr(sweep.thresholds, "certificate", None) is not None:  # the proof (compute_thresholds certifies)
                submit(_thresholds_exact_csv, self.stage / "thresholds_exact.csv", sweep.thresholds.certificate)
        for stack in sorted(self.waiting):
            submit(_grid_csvs, self.stage, stack, sweep.rows_at(stack))
        return known

    def close(self) -> None:
        from sflp.atomic import write_text
        from sflp.charts.text import values_csv_text

        self.ranges.close()
        header = values_csv_text(np.empty((0, 5)), [] if self.with_exact else None)
        write_text(self.stage / "values.csv", header + "".join(piece.result() for piece in self.pieces))

    def discard(self) -> None:
        self.ranges.discard()
        if self.margins is not None:
            self.margins.discard()


class RangesCsv(Writer):
    """``ranges.csv``, one stack at a time (:class:`sflp.charts.text.RangesCsvStream`)."""

    def open(self, stage: Path, head: Head, submit: Callable) -> None:
        from sflp.charts.text import RangesCsvStream

        self.stream = RangesCsvStream(stage / "ranges.csv")

    def add(self, block: Block) -> None:
        for stack, rows in zip(block.stacks, block.rows):
            self.stream.add(stack, rows)

    def finish(self, sweep: Sweep, submit: Callable) -> dict[str, str]:
        return {"ranges.csv": self.stream.close()}

    def discard(self) -> None:
        self.stream.discard()


def _column_text(col: pd.Series) -> list[str]:
    values = col.to_numpy()
    if col.dtype == bool:
        return ["true" if v else "false" for v in values]
    import pandas as pd

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
    from sflp.charts.threshold_rows import THRESHOLDS_CSV_COLUMNS

    extra = ("sc_number",) if "sc_number" in frame.columns else ()
    return write_bytes(path, csv_bytes(frame, THRESHOLDS_CSV_COLUMNS + extra))


def grid_csv_bytes(grid: pd.DataFrame) -> bytes:
    """A 13x13 frequency grid (:func:`sflp.charts.frames.grid_from_tidy`) as CSV bytes.

    The text format is :func:`sflp.study.strategy.grid_csv_text`, the one place that writes it and
    (:func:`sflp.study.strategy.read_grid_csv`, ``sflp verify``) reads it back.
    """
    if list(grid.index) != list(GRID_RANKS) or list(grid.columns) != list(GRID_RANKS):
        raise ConfigError("grid_csv_bytes needs a 13x13 grid with rows and columns A..2 (see grid_from_tidy)")
    return grid_csv_text(grid.to_numpy(dtype=np.float64).ravel()).encode("utf-8")


def write_grid_csv(grid: pd.DataFrame, path: Path | str) -> Path:
    """``sb_push_<S>bb.csv`` / ``bb_call_<S>bb.csv``: one player's frequencies at one stack."""
    return write_bytes(path, grid_csv_bytes(grid))
