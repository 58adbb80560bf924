"""The ``xlsx`` format: ``chart.xlsx`` (:mod:`sflp.charts.media.xlsx.workbook`), made by a worker at ``finish``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from sflp.charts.media.writer import Sweep, Writer


def _workbook(path: Path, sweep: Sweep) -> None:
    from sflp.charts.frames import add_sc_column, sc_frame
    from sflp.charts.media.xlsx.sheets import add_sc_sheet
    from sflp.charts.media.xlsx.workbook import chart_workbook, save_workbook
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
