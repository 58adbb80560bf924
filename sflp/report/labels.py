"""The words a chart set shows in every format: its blind structure (:func:`structure_text`) and
the note of a sheet or page that shows part of the solved stacks (:func:`subset_text`).

They sit below the chart-set job (:mod:`sflp.report.chartset`), the writers
(:mod:`sflp.report.writers`), the workbook (:mod:`sflp.report.excel`) and the comparison
(:mod:`sflp.report.compare`), which all say them the same way, and import only the number texts
(:mod:`sflp.report.text`).
"""

from __future__ import annotations

from collections.abc import Sequence

from sflp.report.text import fmt_num


def structure_text(config) -> str:
    """``"SB 0.5 / BB 1, no ante"`` or ``"SB 0.5 / BB 1, ante 0.1, BB ante 1"``."""
    text = f"SB {fmt_num(config.small_blind)} / BB {fmt_num(config.big_blind)}"
    antes = []
    if config.ante:
        antes.append(f"ante {fmt_num(config.ante)}")
    if config.bb_ante:
        antes.append(f"BB ante {fmt_num(config.bb_ante)}")
    return text + (", " + ", ".join(antes) if antes else ", no ante")


def subset_text(shown: Sequence[float], total: int, home: str | None, what: str, grid: bool = True) -> str:
    """The note of a sheet or page that shows the stacks ``shown`` of ``total`` solved stacks:
    how many, which, and where ``what`` of every stack is (``home``; None: in no file of the set).

    >>> print(subset_text([1.0, 13.0, 25.0], 481, "values.csv", "values").replace(". ", ".\\n"))
    3 of the 481 solved stacks are shown here: 1 to 25 bb, spread evenly, with the grid stacks.
    The values of every stack are in values.csv.
    >>> subset_text([1.0, 25.0], 481, None, "EV margins").endswith("no file of this set (it was written without csv).")
    True
    """
    shown = sorted(float(s) for s in shown)
    head = (f"{len(shown):,} of the {total:,} solved stacks are shown here: {fmt_num(shown[0])} to "
            f"{fmt_num(shown[-1])} bb, spread evenly{', with the grid stacks' if grid else ''}.")
    if home is None:
        return f"{head} The {what} of the other stacks are in no file of this set (it was written without csv)."
    return f"{head} The {what} of every stack are in {home}."
