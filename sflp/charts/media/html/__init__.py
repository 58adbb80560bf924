"""The ``html`` format: ``chart.html``, one self-contained interactive page (:mod:`sflp.charts.media.html.page`),
made by a worker at ``finish``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from sflp.charts.media.writer import Sweep, Writer


def _page(path: Path, sweep: Sweep) -> None:
    from sflp.charts.about import structure_text
    from sflp.charts.media.html.page import write_chart_html

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
