"""What every writer shares: the :class:`Writer` interface, what it is handed (:class:`Block`,
:class:`Head`, :class:`Sweep`) and the paper names of ``chart.pdf``.

The interface and its three steps are described in :mod:`sflp.charts.media.formats`.  This module
imports no other module of :mod:`sflp.charts` at load time, so that any module (the printable
page's :mod:`sflp.charts.media.pdf.page` too) may take names from it without an import circle.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from sflp.errors import ConfigError

PAPER_NAMES = ("a4", "letter")
"""The sheets ``chart.pdf`` is laid out for, landscape (:data:`sflp.charts.media.pdf.page.PAPERS` has their sizes)."""


def check_paper(paper: str) -> str:
    """``paper`` (:data:`PAPER_NAMES`) lower-cased, or sflp's error naming the choices.

    >>> check_paper("Letter")
    'letter'
    """
    key = str(paper).strip().lower()
    if key not in PAPER_NAMES:
        raise ConfigError(f"paper {paper!r}: choose from {', '.join(PAPER_NAMES)}")
    return key


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
        from sflp.charts.about import structure_text

        text = structure_text(self.config)
        return f"{self.title} - {text}" if self.title else text

    @property
    def kind(self) -> str:
        """``"Equilibrium"`` or ``"Exploitative"``: the pictures' headings."""
        return "Exploitative" if self.title else "Equilibrium"

    @functools.cached_property
    def tdf(self):
        """:func:`sflp.charts.frames.thresholds_frame` of the thresholds (None without)."""
        from sflp.charts.frames import thresholds_frame

        return thresholds_frame(self.thresholds) if self.thresholds is not None else None


@dataclass
class Sweep(Head):
    """Everything a writer's ``finish`` may draw on, once every stack is solved."""

    value_rows: np.ndarray = None
    """``(stacks, 5)``: each stack's row of ``values.csv`` (:data:`sflp.charts.text.VALUES_COLUMNS`)."""
    value_exact: list[str] | None = None
    """Each stack's exact value as ``"p/q"`` (with ``exact``), else None."""
    kept_stacks: list[float] = field(default_factory=list)
    kept_rows: np.ndarray = None
    """The rows (:class:`Block`) of the kept stacks: at most about :data:`sflp.charts.about.MAX_SHEET_STACKS`,
    spread evenly, with the grid stacks; the workbook, page and pictures are made from them."""
    about: list = field(default_factory=list)
    homes: dict | None = None
    """Where the set keeps every stack's values, frequencies and margins
    (:func:`sflp.charts.about.homes`)."""
    subsets: list = field(default_factory=list)
    """The set's notes of the places that show part of the stacks
    (:func:`sflp.charts.about.subset_notes`)."""
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

        from sflp.charts.text import VALUES_COLUMNS

        frame = pd.DataFrame(self.value_rows, columns=list(VALUES_COLUMNS))
        if self.value_exact is not None:
            frame["value_exact"] = self.value_exact
        return frame

    @functools.cached_property
    def kept(self):
        """The ranges frame of the kept stacks."""
        from sflp.charts.frames import ranges_frame_from_arrays

        return ranges_frame_from_arrays(self.kept_stacks, self.kept_rows)

    def rows_at(self, stack: float) -> np.ndarray:
        """The Block rows (``(4, 169)``) of one kept stack."""
        return self.kept_rows[self.kept_stacks.index(stack)]

    def ranges_at(self, stack: float):
        """The ranges frame of one kept stack (cheaper than :attr:`kept` when one is enough)."""
        from sflp.charts.frames import ranges_frame_from_arrays

        return ranges_frame_from_arrays([stack], self.rows_at(stack)[None])


class Writer:
    """One output format: ``open``, ``add`` a block at a time, ``finish`` (see :mod:`sflp.charts.media.formats`)."""

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
