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
from sflp.core.cards import CLASS_NAMES, PLAYERS

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


def views(jobs, results) -> tuple[list[tuple[str, PathView]], list[PathView]]:
    """The structures' stack paths (``(label, path)`` in job order) and the ante paths (by stack)."""
    from sflp.charts.about import structure_text
    from sflp.core.game import GameConfig

    labels = [structure_text(job.config(job.low)) for job in jobs]
    blinds = {text.partition(", ")[0] for text in labels}
    short = len(blinds) == 1  # one pair of blinds: name the structures by their antes alone
    structures, lines = [], []
    for job, result, label in zip(jobs, results, labels):
        rows = result.thresholds.to_pylist()
        name = label.partition(", ")[2] if short and ", " in label else label
        structures.append((name, PathView(rows, job.config(job.low), job.low, job.high, "stack")))
        by_stack: dict[float, list[dict]] = {}
        for r in result.ante_thresholds.to_pylist():
            by_stack.setdefault(r["stack"], []).append(r)
        for stack, rs in by_stack.items():
            config = GameConfig(stack=stack, small_blind=job.small_blind, big_blind=job.big_blind, ante=job.ante_low,
                                bb_ante=job.bb_ante)
            lines.append(PathView(rs, config, job.ante_low, job.ante_high, "ante", top="max_ante"))
    return structures, sorted(lines, key=lambda v: (v.config.small_blind, v.config.big_blind, v.config.bb_ante,
                                                   v.config.stack))


def shift_pair(jobs, structures) -> tuple[int, int] | None:
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


def write_outputs(stage: Path, jobs, results, *, hands: Sequence[str] = MAP_HANDS) -> list[str]:
    """Write the page and the pictures into ``stage``; returns the names written."""
    from sflp.atlas.maps import ante_shift, hand_maps_drawing
    from sflp.atlas.page import write_atlas_html
    from sflp.charts.media.draw import pdf_bytes, png_bytes, svg_bytes

    structures, lines = views(jobs, results)
    names = []
    # ante paths are drawn along one line of structures: the first line that has them
    line_key = None if not lines else (lines[0].config.small_blind, lines[0].config.big_blind, lines[0].config.bb_ante)
    own_lines = [v for v in lines if (v.config.small_blind, v.config.big_blind, v.config.bb_ante) == line_key]
    write_atlas_html(stage / "atlas.html", structures, own_lines)
    names.append("atlas.html")
    if hands:
        drawing = hand_maps_drawing(structures, own_lines, list(hands))
        title = "Where each hand is played across stacks and antes"
        write_bytes(stage / "hand_maps.png", png_bytes(drawing))
        write_bytes(stage / "hand_maps.svg", svg_bytes(drawing, title))
        names += ["hand_maps.png", "hand_maps.svg"]
    pair = shift_pair(jobs, structures)
    if pair is not None:
        from sflp.charts.compare import COMPARE_COLUMNS
        from sflp.charts.media.csv import csv_bytes

        drawing, frame = ante_shift(structures[pair[0]], structures[pair[1]])
        write_bytes(stage / "ante_shift.pdf", pdf_bytes(drawing, title="How the ante moves the thresholds"))
        write_bytes(stage / "ante_shift.csv", csv_bytes(frame, COMPARE_COLUMNS))
        names += ["ante_shift.pdf", "ante_shift.csv"]
    return names
