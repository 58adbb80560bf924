"""The ``pdf`` medium: ``chart.pdf``, the printable chart on A4 or Letter, made by a worker at ``finish``.

The page's layout is :mod:`.page` (drawn with :mod:`sflp.charts.media.draw`), which imports
pandas: this module does not, so the registry of writers stays light.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from sflp.charts.media.writer import Sweep, Writer


def _pdf(path: Path, sweep: Sweep, paper: str) -> None:
    from sflp.charts.media.pdf.page import write_chart_pdf

    last = sweep.ranges_at(sweep.solved[-1])
    write_chart_pdf(path, sweep.tdf, sweep.low, sweep.high, sweep.structure, sweep.about, ranges=last,
                    stack=sweep.solved[-1], paper=paper)


class PdfWriter(Writer):
    """``chart.pdf`` on ``paper`` (:data:`sflp.charts.media.pdf.page.PAPERS`)."""

    format = "pdf"

    def __init__(self, paper: str = "a4"):
        self.paper = paper

    def finish(self, sweep: Sweep, submit: Callable) -> dict[str, str]:
        submit(_pdf, self.stage / "chart.pdf", sweep, self.paper)
        return {}
