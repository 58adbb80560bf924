"""The atlas's page and pictures, made from the gathered tables (issue 35, item 3).

The structures are solved wherever the runner puts them (this machine's workers, a Dask
cluster) and come back as Arrow tables (:class:`sflp.atlas.tables.StructureResult`); this module
reads the thresholds back out of those tables -- the certified floats and labels the Parquet files
hold, nothing recomputed -- and writes, into the atlas folder being staged:

==================  ==========================================================================
``atlas.html``      the page (:mod:`sflp.atlas.page`)
``hand_maps.png``   the hand maps of the chosen hands (:func:`sflp.atlas.maps.hand_maps_drawing`)
``hand_maps.svg``   the same, as SVG
``ante_shift.pdf``  how the ante moves the thresholds: no ante against 12.5 % (or the lowest
                    against the highest ante of the first line of structures with two antes)
``ante_shift.csv``  the differences behind it, in ``sflp compare``'s ``compare.csv`` columns
==================  ==========================================================================
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from sflp.atomic import write_bytes

MAP_HANDS = ("K5o", "Q9o", "J7s", "T3s")
"""The hands of ``hand_maps.png`` by default: hands whose push and call ranges move with the ante
across 1-25 bb (T3s is pushed on several stretches)."""
SHIFT_ANTES = (0.0, 0.125)
"""The two antes of ``ante_shift.pdf`` when a line of structures has both."""


class HandView(NamedTuple):
    """One hand's row of a thresholds table, as the page and the pictures read a hand."""

    player: str
    hand: str
    max_stack: float | None
    capped: bool
    intervals: tuple
    any_intervals: tuple
    text: str

    def label(self) -> str:
        return self.text


class PathView:
    """One stack path (a structure's ``thresholds.parquet`` rows) or ante path (one stack's rows of
    ``ante_thresholds.parquet``) as the page and the pictures read a path."""

    def __init__(self, rows: list[dict], config, low: float, high: float, along: str, top: str = "max_stack"):
        from sflp.core.cards import CLASS_NAMES, PLAYERS  # here: `sflp atlas --help` reads MAP_HANDS, no numpy

        self.config, self.low, self.high, self.along = config, float(low), float(high), along
        self._hands = {}
        for r in rows:
            top_value = r[top]
            self._hands[(r["player"], r["hand"])] = HandView(
                r["player"], r["hand"], None if top_value is None or math.isnan(top_value) else float(top_value),
                bool(r["capped"]), tuple(zip(r["from"], r["to"])), tuple(zip(r["any_from"], r["any_to"])), r["label"])
        self.hands = [self._hands[(p, h)] for p in PLAYERS for h in CLASS_NAMES]

    def get(self, player: str, hand: str) -> HandView:
        return self._hands[(player, hand)]


def _label(job, short: bool) -> str:
    from sflp.charts.about import structure_text

    label = structure_text(job.config(job.low))
    return label.partition(", ")[2] if short and ", " in label else label


def shift_pair(jobs) -> tuple[int, int] | None:
    """The two structures of ``ante_shift.pdf``: on the first line (the same blinds and BB ante)
    with two antes or more, no ante and 12.5 % when both are there, else its lowest and highest."""
    lines: dict[tuple, list[int]] = {}
    for k, job in enumerate(jobs):
        lines.setdefault((job.small_blind, job.big_blind, job.bb_ante), []).append(k)
    for members in lines.values():
        if len(members) < 2:
            continue
        by_ante = {jobs[k].ante: k for k in members}
        if all(a in by_ante for a in SHIFT_ANTES):
            return by_ante[SHIFT_ANTES[0]], by_ante[SHIFT_ANTES[1]]
        order = sorted(members, key=lambda k: jobs[k].ante)
        return order[0], order[-1]
    return None


class Outputs:
    """The page and the pictures of an atlas, gathered as the results come in (:meth:`add`) and
    written at the end (:meth:`write`), keeping only what they show: the page holds at most
    :data:`sflp.atlas.page.MAX_STRUCTURES` structures and :data:`~sflp.atlas.page.MAX_LINES` ante
    paths, chosen evenly by position before any result arrives, and the hand maps and the
    ante-shift page draw from those (and the shift's two structures): the writer's memory does
    not grow with the number of structures.  A page or picture that shows part says so."""

    def __init__(self, jobs, hands: Sequence[str] = MAP_HANDS) -> None:
        from sflp.atlas.page import MAX_LINES, MAX_STRUCTURES, _even

        self.jobs, self.hands, self.total = jobs, tuple(hands), len(jobs)
        self.pair = shift_pair(jobs)
        self.chosen = set(_even(range(self.total), MAX_STRUCTURES)) | set(self.pair or ())
        self.shown = sorted(set(_even(range(self.total), MAX_STRUCTURES)))
        blinds, line_keys = set(), []
        for job in jobs:
            blinds.add((job.small_blind, job.big_blind))
            if job.ante_stacks:
                line_keys.append((job.small_blind, job.big_blind, job.bb_ante))
        self.short = len(blinds) == 1  # one pair of blinds: name the structures by their antes alone
        # ante paths are drawn along one line of structures: the first line that has them
        self.line_key = min(line_keys) if line_keys else None
        stacks = sorted({s for job in jobs if (job.small_blind, job.big_blind, job.bb_ante) == self.line_key
                         for s in job.ante_stacks})
        self.total_lines = len(stacks)
        self.line_stacks = set(_even(stacks, MAX_LINES))
        self.structures: dict[int, tuple[str, PathView]] = {}
        self.lines: list[PathView] = []
        self.reach: list[tuple[str, PathView]] = []
        """The structures the reach added (:mod:`sflp.atlas.reach`): drawn in the maps, not in the grids."""
        self.traced = None
        """The :class:`sflp.atlas.reach.Reach` of the run, when it had one."""

    def view(self, k: int) -> PathView:
        """Structure ``k``'s stack path as kept (every structure of an atlas the page shows whole)."""
        return self.structures[k][1]

    def add_reach(self, job, result) -> PathView:
        """Keep a structure the reach added; returns its path."""
        view = PathView(result.thresholds.to_pylist(), job.config(job.low), job.low, job.high, "stack")
        self.reach.append((_label(job, self.short), view))
        return view

    def add(self, k: int, job, result) -> None:
        """Take what the page and the pictures need of structure ``k``'s result."""
        from sflp.core.game import GameConfig

        if k in self.chosen:
            self.structures[k] = (_label(job, self.short),
                                  PathView(result.thresholds.to_pylist(), job.config(job.low), job.low, job.high,
                                           "stack"))
        if (job.small_blind, job.big_blind, job.bb_ante) == self.line_key and result.ante_thresholds.num_rows:
            by_stack: dict[float, list[dict]] = {}
            for r in result.ante_thresholds.to_pylist():
                if r["stack"] in self.line_stacks:
                    by_stack.setdefault(r["stack"], []).append(r)
            for stack, rs in by_stack.items():
                config = GameConfig(stack=stack, small_blind=job.small_blind, big_blind=job.big_blind,
                                    ante=job.ante_low, bb_ante=job.bb_ante)
                self.lines.append(PathView(rs, config, job.ante_low, job.ante_high, "ante", top="max_ante"))

    def write(self, stage: Path) -> list[str]:
        """Write the page and the pictures into ``stage``; returns the names written."""
        from sflp.atlas.maps import ante_shift, hand_maps_drawing
        from sflp.atlas.page import write_atlas_html
        from sflp.charts.media.draw import pdf_bytes, png_bytes, svg_bytes

        structures = [self.structures[k] for k in self.shown]
        lines = sorted(self.lines, key=lambda v: float(v.config.stack))
        names = []
        reach = [v for _, v in self.reach]
        write_atlas_html(stage / "atlas.html", structures, lines, total=self.total, total_lines=self.total_lines,
                         reach=reach, traced=self.traced)
        names.append("atlas.html")
        if self.hands:
            part = None
            if len(structures) < self.total or len(lines) < self.total_lines:
                part = (f"Shows {len(structures):,} of {self.total:,} structures and {len(lines):,} of "
                        f"{self.total_lines:,} ante paths, evenly chosen; every one is in thresholds.parquet and "
                        "ante_thresholds.parquet.")
            drawing = hand_maps_drawing(structures, lines, list(self.hands), note=part, reach=reach,
                                        traced=self.traced)
            title = "Where each hand is played across stacks and antes"
            write_bytes(stage / "hand_maps.png", png_bytes(drawing))
            write_bytes(stage / "hand_maps.svg", svg_bytes(drawing, title))
            names += ["hand_maps.png", "hand_maps.svg"]
        if self.pair is not None:
            from sflp.charts.compare import COMPARE_COLUMNS
            from sflp.charts.media.csv import csv_bytes

            drawing, frame = ante_shift(self.structures[self.pair[0]], self.structures[self.pair[1]])
            write_bytes(stage / "ante_shift.pdf", pdf_bytes(drawing, title="How the ante moves the thresholds"))
            write_bytes(stage / "ante_shift.csv", csv_bytes(frame, COMPARE_COLUMNS))
            names += ["ante_shift.pdf", "ante_shift.csv"]
        return names


def write_outputs(stage: Path, jobs, results, *, hands: Sequence[str] = MAP_HANDS) -> list[str]:
    """Write the page and the pictures of ``results`` (one per job, in order) into ``stage``."""
    outputs = Outputs(jobs, hands)
    for k, (job, result) in enumerate(zip(jobs, results)):
        outputs.add(k, job, result)
    return outputs.write(stage)
