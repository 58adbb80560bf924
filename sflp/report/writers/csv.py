"""The ``csv`` format: ``values.csv``, ``thresholds.csv`` (with ``thresholds_exact.csv`` and
``thresholds_segments.csv`` when the path is certified), the 13x13 grids ``sb_push_<S>bb.csv`` /
``bb_call_<S>bb.csv`` and the ranges of every stack in the form asked for: ``ranges.csv``
(:class:`RangesCsv`, here), ``ranges_segments.csv`` with the margins files
(:mod:`sflp.report.writers.segments`) or ``ranges.parquet`` (:mod:`sflp.report.writers.parquet`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np

from sflp.report.writers.base import Block, Head, Sweep, Writer
from sflp.report.writers.parquet import RangesParquet
from sflp.report.writers.segments import MarginsSupports, RangesSegments


def _thresholds_csv(path: Path, sweep: Sweep) -> None:
    """``thresholds.csv`` with the SC numbers, from the thresholds themselves (no frame: a set of
    CSV files imports no pandas)."""
    from sflp.atomic import write_text
    from sflp.report.threshold_rows import thresholds_csv_text

    write_text(path, thresholds_csv_text(sweep.thresholds, sweep.sc_numbers()))


def _thresholds_exact_csv(path: Path, certificate) -> None:
    from sflp.report.threshexact import SEGMENTS_FILE, write_thresholds_exact, write_thresholds_segments

    write_thresholds_exact(path, certificate)
    write_thresholds_segments(path.with_name(SEGMENTS_FILE), certificate)  # the supports the roots follow from


def _grid_csvs(stage: Path, stack: float, rows: np.ndarray) -> None:
    """``sb_push_<S>bb.csv`` and ``bb_call_<S>bb.csv`` of one grid stack (``rows``: its Block rows,
    frequencies in class-id order, which is the grid's cell order: no frame needed)."""
    from sflp.atomic import write_text
    from sflp.report.text import fmt_num
    from sflp.study.strategy import grid_csv_text

    for k, name in enumerate(("sb_push", "bb_call")):
        frequencies = np.asarray(rows[k], dtype=np.float64) + 0.0  # -0.0 -> 0.0, as in the ranges frame
        write_text(stage / f"{name}_{fmt_num(stack)}bb.csv", grid_csv_text(frequencies))


def _values_rows_text(rows: np.ndarray, exact: list[str] | None) -> str:
    from sflp.report.text import values_csv_text

    return values_csv_text(rows, exact, header=False)


VALUES_CHUNK = 8192
"""Stacks per piece of ``values.csv`` text that a worker makes while the sweep goes on."""


class CsvWriter(Writer):
    """``values.csv``, ``thresholds.csv`` (with the Sklansky-Chubukov numbers), the grid CSVs and
    the ranges of every stack, by ``ranges`` (:data:`sflp.report.writers.RANGE_FORMS`, already
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
        from sflp.report.text import values_csv_text

        self.ranges.close()
        header = values_csv_text(np.empty((0, 5)), [] if self.with_exact else None)
        write_text(self.stage / "values.csv", header + "".join(piece.result() for piece in self.pieces))

    def discard(self) -> None:
        self.ranges.discard()
        if self.margins is not None:
            self.margins.discard()


class RangesCsv(Writer):
    """``ranges.csv``, one stack at a time (:class:`sflp.report.text.RangesCsvStream`)."""

    def open(self, stage: Path, head: Head, submit: Callable) -> None:
        from sflp.report.text import RangesCsvStream

        self.stream = RangesCsvStream(stage / "ranges.csv")

    def add(self, block: Block) -> None:
        for stack, rows in zip(block.stacks, block.rows):
            self.stream.add(stack, rows)

    def finish(self, sweep: Sweep, submit: Callable) -> dict[str, str]:
        return {"ranges.csv": self.stream.close()}

    def discard(self) -> None:
        self.stream.discard()
