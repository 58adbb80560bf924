"""The chart-set writers: one small interface that every output format implements.

A chart set is written in three steps, and a format takes part in each through its writer:

1. ``open(stage, head, submit)`` -- before the first stack: the staging folder the set is
   written into (:mod:`sflp.report.staging`), the :class:`Head` (what is known before the sweep:
   the blinds, the exact thresholds, the grid stacks) and ``submit`` (below); the threshold
   pictures start here;
2. ``add(block)`` -- a :class:`Block` of solved stacks as they come off the sweep, in increasing
   stack order (``ranges.csv`` grows here, so memory does not grow with the number of stacks;
   a grid stack's pictures and CSVs start as its block passes);
3. ``finish(sweep, submit)`` -- the whole :class:`Sweep` (the values of every stack, the ranges of
   at most :data:`.chartset.MAX_SHEET_STACKS` chosen stacks plus the grid stacks, the exact
   thresholds, the notes of what is shown in part); a slow file is handed to ``submit(fn,
   *args)``, which runs it in a worker process (:mod:`sflp.report.jobs`), a quick one is written
   at once.  It returns the SHA-256 of files it hashed on the way (the manifest hashes the rest).

``close()`` runs once every job has run (``csv`` joins the pieces of ``values.csv`` there), and
``discard()`` drops what an interrupted writer holds.  The formats (:data:`FORMATS`) are

=========  =================================================================================
``csv``    ``values.csv``, ``thresholds.csv``, the 13x13 grids ``sb_push_<S>bb.csv`` /
           ``bb_call_<S>bb.csv`` and the ranges in the form ``ranges=`` asks for (below)
``xlsx``   ``chart.xlsx`` (:mod:`.excel`)
``html``   ``chart.html``, one self-contained interactive page (:mod:`.html`)
``pdf``    ``chart.pdf``, the printable chart, A4 or Letter (:mod:`.printable`)
``png``    the pictures as PNG: ``sb_push``, ``bb_call``, ``value_by_stack``, ``range_<S>bb``
``svg``    the same pictures as SVG
=========  =================================================================================

The ranges of every stack (:data:`RANGE_FORMS`):

* ``csv`` -- ``ranges.csv``: ``stack, player, hand, frequency, ev_margin``, one row per stack x
  player x hand (338 rows a stack);
* ``segments`` -- ``ranges_segments.csv``: ``player, hand, stack_from, stack_to, frequency``, one
  row per run of consecutive solved stacks over which the hand's frequency is the same number.
  Between two exact thresholds a hand is played always or never, so a run spans a whole segment
  of the path; only a mixed hand changes at every stack.  About 100 times smaller than
  ``ranges.csv``.  It has no EV margins: ``margins_supports.csv`` and ``margins_stacks.csv``,
  written with it, hold every stack's (:class:`MarginsSupports`);
* ``parquet`` -- ``ranges.parquet``: the columns of ``ranges.csv`` in Apache Parquet (zstd),
  written by pyarrow (``pip install 'sflp[parquet]'``);
* ``auto`` (the default) -- ``csv`` up to :data:`RANGES_CSV_MAX_STACKS` stacks, ``segments`` above.

:func:`sflp.report.readback.read_ranges` reads any of the three back into the same canonical
tidy frame, checking the folder against its manifest and every value;
:func:`sflp.report.readback.read_margins` gives every stack's EV margins from any of them.  A new format is one new
class here with its ``format`` name, registered in :data:`WRITERS`.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from sflp.core.cards import CLASS_NAMES, N_CLASSES, PLAYERS
from sflp.errors import ConfigError, OutputError

FORMATS = ("csv", "xlsx", "html", "pdf", "png", "svg")
"""Every output format of a chart set, in the order the CLI lists them."""
RANGE_FORMS = ("auto", "csv", "segments", "parquet")
PAPER_NAMES = ("a4", "letter")
"""The sheets ``chart.pdf`` is laid out for, landscape (:data:`.printable.PAPERS` has their sizes)."""
RANGES_CSV_MAX_STACKS = 2000
"""``ranges="auto"`` writes ``ranges.csv`` up to this many stacks (676,000 rows, about 25 MB) and
``ranges_segments.csv`` above it."""
SEGMENTS_COLUMNS = ("player", "hand", "stack_from", "stack_to", "frequency")


@dataclass
class Block:
    """Solved stacks in increasing order: ``rows[k]`` is stack ``stacks[k]``'s SB frequency, BB
    frequency, SB EV margin and BB EV margin per class (shape ``(n, 4, 169)``, no ``-0.0``),
    ``values[k]`` its numbers of ``values.csv`` (shape ``(n, 5)``) and ``exact[k]`` its exact value
    as ``"p/q"`` (None when not asked for)."""

    stacks: list[float]
    rows: np.ndarray
    values: np.ndarray
    exact: list[str] | None = None
    support: object = None
    """The support of the exact path's segment these stacks lie on
    (:class:`sflp.solving.support.Support`), None when they were not read off the path."""
    by_support: np.ndarray | None = None
    """Which stacks that support gives (False where a stack was solved the general way)."""


@dataclass
class Head:
    """What is known of a set before its first stack is solved: enough for the threshold files,
    which a writer may start at ``open``.  Frames are made on first use, in the process that
    uses them (a worker), so the solving process never loads pandas."""

    config: object
    """The blinds and antes (:class:`sflp.core.game.GameConfig`; None until the first stack when the
    set has no thresholds)."""
    title: str | None
    thresholds: object
    """The exact path (:class:`sflp.solving.thresholds.Thresholds`) or None."""
    low: float
    high: float
    solved: list[float]
    chosen: list[float]
    """The stacks of the range grids (``range_<S>bb``, ``sb_push_<S>bb.csv``)."""

    @property
    def structure(self) -> str:
        """``"SB 0.5 / BB 1, no ante"``, with the set's title in front when it has one."""
        from sflp.report.chartset import structure_text

        text = structure_text(self.config)
        return f"{self.title} - {text}" if self.title else text

    @property
    def kind(self) -> str:
        """``"Equilibrium"`` or ``"Exploitative"``: the pictures' headings."""
        return "Exploitative" if self.title else "Equilibrium"

    @functools.cached_property
    def tdf(self):
        """:func:`.frames.thresholds_frame` of the thresholds (None without)."""
        from sflp.report.frames import thresholds_frame

        return thresholds_frame(self.thresholds) if self.thresholds is not None else None


@dataclass
class Sweep(Head):
    """Everything a writer's ``finish`` may draw on, once every stack is solved."""

    value_rows: np.ndarray = None
    """``(stacks, 5)``: each stack's row of ``values.csv`` (:data:`.text.VALUES_COLUMNS`)."""
    value_exact: list[str] | None = None
    """Each stack's exact value as ``"p/q"`` (with ``exact``), else None."""
    kept_stacks: list[float] = field(default_factory=list)
    kept_rows: np.ndarray = None
    """The rows (:class:`Block`) of the kept stacks: at most about :data:`.chartset.MAX_SHEET_STACKS`,
    spread evenly, with the grid stacks; the workbook, page and pictures are made from them."""
    about: list = field(default_factory=list)
    homes: dict | None = None
    """Where the set keeps every stack's values, frequencies and margins
    (:func:`sflp.report.chartset.homes`)."""
    subsets: list = field(default_factory=list)
    """The set's notes of the places that show part of the stacks
    (:func:`sflp.report.chartset.subset_notes`)."""
    sc: dict | None = None
    """The Sklansky-Chubukov numbers (:func:`sflp.study.sc.sc_numbers`), computed once by a worker
    while the main process solved (None: each job that needs them computes them)."""

    def sc_numbers(self) -> dict:
        from sflp.study.sc import sc_numbers

        return self.sc if self.sc is not None else sc_numbers(self.config)

    @functools.cached_property
    def values(self):
        """``values.csv`` as a frame, one row per solved stack."""
        import pandas as pd

        from sflp.report.text import VALUES_COLUMNS

        frame = pd.DataFrame(self.value_rows, columns=list(VALUES_COLUMNS))
        if self.value_exact is not None:
            frame["value_exact"] = self.value_exact
        return frame

    @functools.cached_property
    def kept(self):
        """The ranges frame of the kept stacks."""
        from sflp.report.frames import ranges_frame_from_arrays

        return ranges_frame_from_arrays(self.kept_stacks, self.kept_rows)

    def rows_at(self, stack: float) -> np.ndarray:
        """The Block rows (``(4, 169)``) of one kept stack."""
        return self.kept_rows[self.kept_stacks.index(stack)]

    def ranges_at(self, stack: float):
        """The ranges frame of one kept stack (cheaper than :attr:`kept` when one is enough)."""
        from sflp.report.frames import ranges_frame_from_arrays

        return ranges_frame_from_arrays([stack], self.rows_at(stack)[None])


class Writer:
    """One output format: ``open``, ``add`` a block at a time, ``finish`` (see the module doc)."""

    format = ""
    weight = 1
    """How long its jobs at ``finish`` take, roughly: writers finish heaviest first, so that the
    longest job starts first and the workers end together."""

    def open(self, stage: Path, head: Head, submit: Callable) -> None:
        """Before the first stack; a writer may ``submit`` jobs that need only ``head``."""
        self.stage, self.head, self.submit = stage, head, submit
        self.waiting = set(head.chosen)  # grid stacks not yet seen (see :meth:`grid_rows`)

    def grid_rows(self, block: Block):
        """``(stack, rows)`` of each grid stack in ``block`` (once each), so that a writer can
        start that stack's files while the sweep goes on; none while the blinds are unknown (no
        thresholds: :meth:`finish` then makes them)."""
        if self.head.config is None or not self.waiting:
            return
        for k, stack in enumerate(block.stacks):
            if stack in self.waiting:
                self.waiting.discard(stack)
                yield stack, np.array(block.rows[k])

    def add(self, block: Block) -> None:
        """Most formats are made from the :class:`Sweep` alone; streaming ones override this."""

    def finish(self, sweep: Sweep, submit: Callable) -> dict[str, str]:
        raise NotImplementedError

    def close(self) -> None:
        """After every job has run: a last step in this process (joining pieces a worker made)."""

    def discard(self) -> None:
        """Drop what this writer holds after an error (its files go with the staging folder)."""


# ---------------------------------------------------------------- csv


def _thresholds_csv(path: Path, sweep: Sweep) -> None:
    from sflp.report.csv_out import write_thresholds_csv
    from sflp.report.frames import add_sc_column

    write_thresholds_csv(add_sc_column(sweep.tdf, sweep.sc_numbers()), path)


def _thresholds_exact_csv(path: Path, certificate) -> None:
    from sflp.report.threshexact import SEGMENTS_FILE, write_thresholds_exact, write_thresholds_segments

    write_thresholds_exact(path, certificate)
    write_thresholds_segments(path.with_name(SEGMENTS_FILE), certificate)  # the supports the roots follow from


def _grid_csvs(stage: Path, stack: float, rows: np.ndarray) -> None:
    """``sb_push_<S>bb.csv`` and ``bb_call_<S>bb.csv`` of one grid stack (``rows``: its Block rows)."""
    from sflp.report.csv_out import write_grid_csv
    from sflp.report.frames import grid_from_tidy, ranges_frame_from_arrays
    from sflp.report.text import fmt_num

    ranges = ranges_frame_from_arrays([stack], rows[None])
    for player, name in (("sb", "sb_push"), ("bb", "bb_call")):
        grid = grid_from_tidy(ranges, "frequency", player=player)
        write_grid_csv(grid, stage / f"{name}_{fmt_num(stack)}bb.csv")


def _values_rows_text(rows: np.ndarray, exact: list[str] | None) -> str:
    from sflp.report.text import values_csv_text

    return values_csv_text(rows, exact, header=False)


VALUES_CHUNK = 8192
"""Stacks per piece of ``values.csv`` text that a worker makes while the sweep goes on."""


class CsvWriter(Writer):
    """``values.csv``, ``thresholds.csv`` (with the Sklansky-Chubukov numbers), the grid CSVs and
    the ranges of every stack, by ``ranges`` (:data:`RANGE_FORMS`, already resolved from ``auto``)."""

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
    """``ranges.csv``, one stack at a time (:class:`.text.RangesCsvStream`)."""

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


class RangesSegments(Writer):
    """``ranges_segments.csv``: the runs of equal frequency (see the module doc).

    A run is kept open per player x hand (338 columns) while blocks arrive; a frequency that
    differs from the previous stack's closes the run at the previous stack and opens a new one.
    Rows are written sorted by player (SB first), hand (class-id order) and ``stack_from``.
    """

    def open(self, stage: Path, head: Head, submit: Callable) -> None:
        self.path = stage / "ranges_segments.csv"
        self.start: np.ndarray | None = None  # per column: first stack of the open run
        self.value: np.ndarray | None = None  # per column: its frequency
        self.last = 0.0
        self.runs: list[tuple[np.ndarray, ...]] = []  # closed runs: column, from, to, frequency

    def add(self, block: Block) -> None:
        stacks = np.asarray(block.stacks, dtype=np.float64)
        freq = np.ascontiguousarray(block.rows[:, 0:2, :]).reshape(len(stacks), 2 * N_CLASSES)
        if self.start is None:
            self.start, self.value = np.full(2 * N_CLASSES, stacks[0]), freq[0].copy()
        before = np.vstack([self.value[None, :], freq])
        k, col = np.nonzero(before[1:] != before[:-1])  # stack k of the block opens a new run in col
        if len(k):
            order = np.lexsort((k, col))  # by column, then stack
            k, col = k[order], col[order]
            first = np.r_[True, col[1:] != col[:-1]]  # the column's first change in this block
            previous_k = np.r_[0, k[:-1]]  # (where not first) the change that opened the run now closing
            run_from = np.where(first, self.start[col], stacks[previous_k])
            run_to = np.where(k > 0, stacks[np.maximum(k - 1, 0)], self.last)  # the stack before k
            run_value = np.where(first, self.value[col], freq[previous_k, col])
            self.runs.append((col, run_from, run_to, run_value))
            last = np.r_[col[1:] != col[:-1], True]  # the column's last change opens its open run
            self.start[col[last]] = stacks[k[last]]
        self.value = freq[-1].copy()
        self.last = float(stacks[-1])

    def finish(self, sweep: Sweep, submit: Callable) -> dict[str, str]:
        if self.start is None:
            raise ConfigError("no stacks to write")
        columns = np.arange(2 * N_CLASSES)
        parts = self.runs + [(columns, self.start, np.full(2 * N_CLASSES, self.last), self.value)]
        col, run_from, run_to, value = (np.concatenate(p) for p in zip(*parts))
        order = np.lexsort((run_from, col))
        parts = np.array_split(order, 2)  # the text in two halves, one job each; joined at close
        self.pieces = [submit(_segments_text, col[k], run_from[k], run_to[k], value[k]) for k in parts]
        return {}

    def close(self) -> None:
        from sflp.atomic import write_bytes

        text = ",".join(SEGMENTS_COLUMNS) + "\n" + "".join(piece.result() for piece in self.pieces)
        write_bytes(self.path, text.encode("utf-8"))


MARGINS_FILES = ("margins_supports.csv", "margins_stacks.csv")
"""The EV margins of a set whose ranges are ``ranges_segments.csv`` (see :class:`MarginsSupports`)."""
SUPPORTS_COLUMNS = ("stack_from", "stack_to", "sb", "bb")
SUPPORT_CODES = {"never": "0", "always": "1", "mixed": "m"}
"""A hand's letter in a support text: never played, always played, at a mixed frequency."""


def support_texts(support) -> tuple[str, str]:
    """SB's and BB's part of a :class:`~sflp.solving.support.Support` as 169 letters each, one a
    hand in class-id order (:data:`sflp.core.cards.CLASS_NAMES`): ``1`` always, ``m`` mixed, ``0``
    never.

    >>> from sflp.solving.support import Support
    >>> sb, bb = support_texts(Support(frozenset({0}), (2,), frozenset(), ()))
    >>> sb[:4], bb[:4], len(sb)
    ('10m0', '0000', 169)
    """
    out = []
    for pure, mixed in ((support.sb_pure, support.sb_mixed), (support.bb_pure, support.bb_mixed)):
        codes = ["0"] * N_CLASSES
        for i in pure:
            codes[i] = "1"
        for i in mixed:
            codes[i] = "m"
        out.append("".join(codes))
    return out[0], out[1]


class MarginsSupports(Writer):
    """The EV margins of every stack beside ``ranges_segments.csv`` (which has none), exactly:

    * ``margins_supports.csv`` -- ``stack_from, stack_to, sb, bb``: one row per run of
      consecutive solved stacks read off one segment of the exact path, with that segment's
      support (:func:`support_texts`).  On a segment the support is fixed and every hand's
      margin is a rational function of the stack (:mod:`sflp.solving.segment`), so the margins
      of each stack of the run follow exactly from the support, the blinds and antes of
      ``manifest.json`` and the equity table whose SHA-256 it gives;
    * ``margins_stacks.csv`` -- ``stack, player, hand, ev_margin`` (the columns of
      ``ranges.csv`` without ``frequency``), 338 rows for each solved stack that no support row
      covers: a stack solved the general way (on a breakpoint), or every stack of a set not read
      off a path (an exploitative set).

    Every solved stack is in exactly one of the two.  :func:`sflp.report.readback.read_margins`
    recomputes the margins of a support row's stacks with
    :meth:`sflp.solving.segment.SegmentCertificate.block` -- the exact values rounded once, the
    floats ``ranges.csv`` would hold -- and checks the frequencies it finds against
    ``ranges_segments.csv``."""

    def open(self, stage: Path, head: Head, submit: Callable) -> None:
        from sflp.report.text import RangesCsvStream

        self.stage = stage
        self.runs: list[tuple[float, float, str, str]] = []
        self.current: list | None = None  # [support, first stack, last stack] of the open run
        self.stream = RangesCsvStream(stage / MARGINS_FILES[1], margins=True)

    def _close_run(self) -> None:
        if self.current is not None:
            support, first, last = self.current
            self.runs.append((first, last, *support_texts(support)))
            self.current = None

    def add(self, block: Block) -> None:
        for k, stack in enumerate(block.stacks):
            if block.support is not None and block.by_support[k]:
                if self.current is not None and self.current[0] == block.support:
                    self.current[2] = stack
                else:
                    self._close_run()
                    self.current = [block.support, stack, stack]
            else:  # a stack the support does not give: its margins written out
                self._close_run()
                self.stream.add(stack, block.rows[k])

    def finish(self, sweep: Sweep, submit: Callable) -> dict[str, str]:
        from sflp.atomic import write_bytes

        self._close_run()
        text = ",".join(SUPPORTS_COLUMNS) + "\n" + "".join(
            f"{float(a)!r},{float(b)!r},{sb},{bb}\n" for a, b, sb, bb in self.runs)
        write_bytes(self.stage / MARGINS_FILES[0], text.encode("ascii"))
        return {MARGINS_FILES[1]: self.stream.close()}

    def discard(self) -> None:
        self.stream.discard()


def _segments_text(col: np.ndarray, run_from: np.ndarray, run_to: np.ndarray, value: np.ndarray) -> str:
    """Rows of ``ranges_segments.csv`` for sorted runs (``col``: player x hand, 0..337)."""
    from sflp.report.text import float_texts, frequency_texts, quote

    names = np.array([f"{p},{quote(h)}" for p in PLAYERS for h in CLASS_NAMES], dtype=object)[col]
    return "".join(f"{a},{b},{c},{d}\n" for a, b, c, d in
                   zip(names.tolist(), float_texts(run_from), float_texts(run_to), frequency_texts(value)))


class RangesParquet(Writer):
    """``ranges.parquet``: the columns of ``ranges.csv`` in Parquet (zstd), a row group per block.

    pyarrow is imported here only (the ``parquet`` extra); ``player`` and ``hand`` are
    dictionary columns, the floats are stored exactly."""

    def open(self, stage: Path, head: Head, submit: Callable) -> None:
        pa, pq = _pyarrow()
        self.path = stage / "ranges.parquet"
        self.pa = pa
        self.players = pa.array(list(PLAYERS))
        self.hands = pa.array(list(CLASS_NAMES))
        schema = pa.schema([("stack", pa.float64()), ("player", pa.dictionary(pa.int8(), pa.string())),
                            ("hand", pa.dictionary(pa.int16(), pa.string())), ("frequency", pa.float64()),
                            ("ev_margin", pa.float64())])
        try:
            self.out = pq.ParquetWriter(str(self.path), schema, compression="zstd")
        except OSError as exc:
            raise OutputError(f"cannot write {self.path}: {exc}") from None

    def add(self, block: Block) -> None:
        pa = self.pa
        n = len(block.stacks)
        player = np.tile(np.repeat(np.arange(2, dtype=np.int8), N_CLASSES), n)
        hand = np.tile(np.arange(N_CLASSES, dtype=np.int16), 2 * n)
        table = pa.table({
            "stack": np.repeat(np.asarray(block.stacks, dtype=np.float64), 2 * N_CLASSES),
            "player": pa.DictionaryArray.from_arrays(player, self.players),
            "hand": pa.DictionaryArray.from_arrays(hand, self.hands),
            "frequency": np.ascontiguousarray(block.rows[:, 0:2, :]).ravel(),
            "ev_margin": np.ascontiguousarray(block.rows[:, 2:4, :]).ravel(),
        })
        try:
            self.out.write_table(table)
        except OSError as exc:
            raise OutputError(f"cannot write {self.path}: {exc}") from None

    def finish(self, sweep: Sweep, submit: Callable) -> dict[str, str]:
        try:
            self.out.close()
        except OSError as exc:
            raise OutputError(f"cannot write {self.path}: {exc}") from None
        return {}

    def discard(self) -> None:
        out = getattr(self, "out", None)
        if out is not None:
            try:
                out.close()
            except Exception:  # noqa: BLE001 -- closing after an error; the staging folder goes anyway
                pass


def _pyarrow():
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise ConfigError("ranges='parquet' needs pyarrow: pip install 'sflp[parquet]' "
                          "(or use ranges='segments', which needs nothing more)") from None
    return pa, pq


# ---------------------------------------------------------------- workbook, page, pdf, pictures


def _workbook(path: Path, sweep: Sweep) -> None:
    from sflp.report.excel import add_sc_sheet, chart_workbook, save_workbook
    from sflp.report.frames import add_sc_column, sc_frame
    from sflp.study.sc import TIE_RULE

    sc = sweep.sc_numbers()
    tdf = add_sc_column(sweep.tdf, sc) if sweep.tdf is not None else None
    wb = chart_workbook(sweep.values, sweep.kept, tdf, sweep.low, sweep.high, sweep.chosen, sweep.about,
                        sweep.structure, homes=sweep.homes)
    add_sc_sheet(wb, sc_frame(sc), sweep.structure, TIE_RULE)
    save_workbook(wb, path)


class WorkbookWriter(Writer):
    format = "xlsx"
    weight = 4

    def finish(self, sweep: Sweep, submit: Callable) -> dict[str, str]:
        submit(_workbook, self.stage / "chart.xlsx", sweep)
        return {}


def _page(path: Path, sweep: Sweep) -> None:
    from sflp.report.chartset import structure_text
    from sflp.report.html import write_chart_html

    # the page heads itself with the set's title (an exploit's locked player and strategy), so it
    # takes the blinds without the title in front
    write_chart_html(path, sweep.values, sweep.kept, sweep.tdf, structure_text(sweep.config), sweep.about,
                     low=sweep.low, high=sweep.high, title=sweep.title,
                     coverage=[note["text"] for note in sweep.subsets if note["file"] == "chart.html"])


class PageWriter(Writer):
    format = "html"
    weight = 2

    def finish(self, sweep: Sweep, submit: Callable) -> dict[str, str]:
        submit(_page, self.stage / "chart.html", sweep)
        return {}


def _pdf(path: Path, sweep: Sweep, paper: str) -> None:
    from sflp.report.printable import write_chart_pdf

    last = sweep.ranges_at(sweep.solved[-1])
    write_chart_pdf(path, sweep.tdf, sweep.low, sweep.high, sweep.structure, sweep.about, ranges=last,
                    stack=sweep.solved[-1], paper=paper)


class PdfWriter(Writer):
    """``chart.pdf`` on ``paper`` (:data:`.printable.PAPERS`)."""

    format = "pdf"

    def __init__(self, paper: str = "a4"):
        self.paper = paper

    def finish(self, sweep: Sweep, submit: Callable) -> dict[str, str]:
        submit(_pdf, self.stage / "chart.pdf", sweep, self.paper)
        return {}


def _pictures(suffix: str, stage: Path, head: Head, which: str, stack: float = 0.0, rows=None) -> None:
    """One kind of picture in one format: ``which`` is ``"thresholds"`` (the SB and BB threshold
    charts, from ``head`` alone), ``"value"`` (the value curve; ``head`` is the Sweep) or
    ``"range"`` (the grids of ``stack``, from its Block ``rows``)."""
    from sflp.atomic import write_bytes
    from sflp.report.draw import png_bytes, svg_bytes
    from sflp.report.frames import ranges_frame_from_arrays
    from sflp.report.plots import DPI, range_picture, threshold_picture, value_picture
    from sflp.report.text import fmt_num

    if which == "thresholds":
        drawings = [(stem, threshold_picture(head.tdf, player, head.low, head.high, head.structure))
                    for player, stem in (("sb", "sb_push"), ("bb", "bb_call"))]
    elif which == "value":
        drawings = [("value_by_stack", value_picture(head.values, head.structure))]
    else:
        frame = ranges_frame_from_arrays([stack], rows[None])
        drawings = [(f"range_{fmt_num(stack)}bb", range_picture(frame, stack, head.structure, kind=head.kind))]
    for stem, drawing in drawings:
        write_bytes(stage / f"{stem}.{suffix}", png_bytes(drawing, DPI) if suffix == "png" else svg_bytes(drawing))


class PictureWriter(Writer):
    """The pictures in one format (``png`` or ``svg``): the two threshold charts (started at
    ``open``), the range grids of each grid stack (started as its block passes) and the value
    curve (at ``finish``)."""

    def __init__(self, suffix: str):
        self.format = suffix

    def open(self, stage: Path, head: Head, submit: Callable) -> None:
        super().open(stage, head, submit)
        if head.thresholds is not None:
            submit(_pictures, self.format, stage, head, "thresholds")
        # what a range picture needs of the head: its titles (not the path, not every stack)
        self.titles = dataclasses.replace(head, thresholds=None, solved=[], chosen=[])

    def add(self, block: Block) -> None:
        for stack, rows in self.grid_rows(block):
            self.submit(_pictures, self.format, self.stage, self.titles, "range", stack, rows)

    def finish(self, sweep: Sweep, submit: Callable) -> dict[str, str]:
        for stack in sorted(self.waiting):
            submit(_pictures, self.format, self.stage, sweep, "range", stack, sweep.rows_at(stack))
        submit(_pictures, self.format, self.stage, sweep, "value")
        return {}


WRITERS: dict[str, Callable[..., Writer]] = {
    "csv": lambda ranges, **_: CsvWriter(ranges),
    "xlsx": lambda **_: WorkbookWriter(),
    "html": lambda **_: PageWriter(),
    "pdf": lambda paper, **_: PdfWriter(paper),
    "png": lambda **_: PictureWriter("png"),
    "svg": lambda **_: PictureWriter("svg"),
}
"""Format name -> a callable making its writer from the set's options (``csv`` takes the resolved
``ranges`` form, ``pdf`` the ``paper``)."""


def warm(config, formats: Sequence[str]) -> None:
    """A worker's start (:class:`.jobs.Jobs`): load what the formats' jobs use while the main
    process is still solving."""
    import pandas  # noqa: F401

    import sflp.report.frames  # noqa: F401

    if "xlsx" in formats:
        import sflp.report.excel  # noqa: F401
    if "html" in formats:
        import sflp.report.html  # noqa: F401
    if "pdf" in formats:
        import sflp.report.printable  # noqa: F401
    if {"pdf", "png", "svg"} & set(formats):
        from sflp.report.draw import _font

        for weight in ("normal", "bold"):
            _font(weight)  # the fonts read once per process: every picture measures its texts


def sc_job(config, formats: Sequence[str]):
    """The SC numbers as a job, once for the set, when a format shows them (else None)."""
    if config is None or not {"csv", "xlsx"} & set(formats):
        return None
    from sflp.study.sc import sc_numbers

    return sc_numbers(config)


def check_formats(formats: Sequence[str] | str | None) -> tuple[str, ...]:
    """The formats asked for, validated, in :data:`FORMATS` order (None = every format).

    >>> check_formats("pdf,csv"), check_formats(None) == FORMATS
    (('csv', 'pdf'), True)
    """
    if formats is None:
        return FORMATS
    names = [f.strip().lower() for f in (formats.split(",") if isinstance(formats, str) else formats)]
    bad = [f for f in names if f not in FORMATS]
    if bad or not names:
        raise ConfigError(f"formats {','.join(names)!r}: {'unknown ' + repr(bad[0]) if bad else 'none given'}; "
                          f"choose from {', '.join(FORMATS)}")
    return tuple(f for f in FORMATS if f in names)


def resolve_ranges(ranges: str, stack_count: int) -> str:
    """The ranges form to write (:data:`RANGE_FORMS`): ``auto`` becomes ``csv`` or ``segments``.

    >>> resolve_ranges("auto", 481), resolve_ranges("auto", 19_901), resolve_ranges("parquet", 5)
    ('csv', 'segments', 'parquet')
    """
    if ranges not in RANGE_FORMS:
        raise ConfigError(f"ranges {ranges!r}: choose from {', '.join(RANGE_FORMS)}")
    if ranges == "auto":
        return "csv" if stack_count <= RANGES_CSV_MAX_STACKS else "segments"
    if ranges == "parquet":
        _pyarrow()  # before any work
    return ranges


def check_paper(paper: str) -> str:
    """``paper`` (:data:`PAPER_NAMES`) lower-cased, or sflp's error naming the choices.

    >>> check_paper("Letter")
    'letter'
    """
    key = str(paper).strip().lower()
    if key not in PAPER_NAMES:
        raise ConfigError(f"paper {paper!r}: choose from {', '.join(PAPER_NAMES)}")
    return key


def make_writers(formats: Sequence[str], ranges: str, paper: str = "a4") -> list[Writer]:
    """A writer for each format (``formats`` checked by :func:`check_formats`)."""
    return [WRITERS[name](ranges=ranges, paper=paper) for name in formats]


# ---------------------------------------------------------------- reading the ranges back

# The reader lives in its own module (every file read back is checked there); these names stay
# importable from here.
from sflp.report.readback import _column_names, _read_csv, read_ranges  # noqa: E402, F401
