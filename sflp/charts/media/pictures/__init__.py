"""The ``png`` and ``svg`` media: the pictures' writer, which starts each picture as early as what it
shows is known.

The pictures themselves -- threshold charts, range grids, the value curve, and the grids and
axes other pictures share -- are drawn in :mod:`.plots` (with :mod:`sflp.charts.media.draw`),
which imports pandas: this module does not, so the registry of writers stays light.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path

from sflp.charts.media.writer import Block, Head, Sweep, Writer


def _pictures(suffixes: tuple[str, ...], stage: Path, head: Head, which: str, stack: float = 0.0,
              rows=None) -> None:
    """One kind of picture, drawn once and written in each format of ``suffixes`` (``png``
    rasterised, ``svg`` as vectors): ``which`` is ``"thresholds"`` (the SB and BB threshold
    charts, from ``head`` alone), ``"value"`` (the value curve; ``head`` is the Sweep) or
    ``"range"`` (the grids of ``stack``, from its Block ``rows``)."""
    from sflp.atomic import write_bytes
    from sflp.charts.frames import ranges_frame_from_arrays
    from sflp.charts.media.draw import png_bytes, svg_bytes
    from sflp.charts.media.pictures.plots import DPI, range_picture, threshold_picture, value_picture
    from sflp.charts.text import fmt_num

    if which == "thresholds":
        drawings = [(stem, threshold_picture(head.tdf, player, head.low, head.high, head.structure))
                    for player, stem in (("sb", "sb_push"), ("bb", "bb_call"))]
    elif which == "value":
        drawings = [("value_by_stack", value_picture(head.values, head.structure))]
    else:
        frame = ranges_frame_from_arrays([stack], rows[None])
        drawings = [(f"range_{fmt_num(stack)}bb", range_picture(frame, stack, head.structure, kind=head.kind))]
    for stem, drawing in drawings:
        for suffix in suffixes:
            write_bytes(stage / f"{stem}.{suffix}", png_bytes(drawing, DPI) if suffix == "png" else svg_bytes(drawing))


class PictureWriter(Writer):
    """The pictures in one or more formats (``png``, ``svg``): the two threshold charts (started at
    ``open``), the range grids of each grid stack (started as its block passes) and the value
    curve (at ``finish``).  With both formats one writer draws each picture once and writes it
    twice (:func:`sflp.charts.media.formats.make_writers` merges them): drawing costs as much as
    rasterising."""

    def __init__(self, *suffixes: str):
        self.suffixes = suffixes
        self.format = ",".join(suffixes)

    def open(self, stage: Path, head: Head, submit: Callable) -> None:
        super().open(stage, head, submit)
        if head.thresholds is not None:
            submit(_pictures, self.suffixes, stage, head, "thresholds")
        # what a range picture needs of the head: its titles (not the path, not every stack)
        self.titles = dataclasses.replace(head, thresholds=None, solved=[], chosen=[])

    def add(self, block: Block) -> None:
        for stack, rows in self.grid_rows(block):
            self.submit(_pictures, self.suffixes, self.stage, self.titles, "range", stack, rows)

    def finish(self, sweep: Sweep, submit: Callable) -> dict[str, str]:
        for stack in sorted(self.waiting):
            submit(_pictures, self.suffixes, self.stage, sweep, "range", stack, sweep.rows_at(stack))
        submit(_pictures, self.suffixes, self.stage, sweep, "value")
        return {}
