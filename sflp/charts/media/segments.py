"""The ``segments`` form of the ranges: ``ranges_segments.csv`` (:class:`RangesSegments`) and,
beside it, the EV margins it does not hold, ``margins_supports.csv`` and ``margins_stacks.csv``
(:class:`MarginsSupports`); written by the ``csv`` format (:mod:`sflp.charts.media.csv`) when
``ranges="segments"``, read back by :mod:`sflp.charts.readback`."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np

from sflp.charts.media.writer import Block, Head, Sweep, Writer
from sflp.core.cards import CLASS_NAMES, N_CLASSES, PLAYERS
from sflp.errors import ConfigError

SEGMENTS_COLUMNS = ("player", "hand", "stack_from", "stack_to", "frequency")


class RangesSegments(Writer):
    """``ranges_segments.csv``: the runs of equal frequency (see :mod:`sflp.charts.media.formats`).

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

    Every solved stack is in exactly one of the two.  :func:`sflp.charts.margins.read_margins`
    recomputes the margins of a support row's stacks with
    :meth:`sflp.solving.segment.SegmentCertificate.block` -- the exact values rounded once, the
    floats ``ranges.csv`` would hold -- and checks the frequencies it finds against
    ``ranges_segments.csv``."""

    def open(self, stage: Path, head: Head, submit: Callable) -> None:
        from sflp.charts.text import RangesCsvStream

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
    from sflp.charts.text import float_texts, frequency_texts, quote

    names = np.array([f"{p},{quote(h)}" for p in PLAYERS for h in CLASS_NAMES], dtype=object)[col]
    return "".join(f"{a},{b},{c},{d}\n" for a, b, c, d in
                   zip(names.tolist(), float_texts(run_from), float_texts(run_to), frequency_texts(value)))
