"""Notebook views: how a ``Solution``, ``Thresholds`` or ``Range`` shows itself in Jupyter.

The core types carry no presentation.  A notebook shows them through these functions, which
``import sflp`` registers with IPython's HTML formatter by module and class *name* when it runs
inside a notebook or IPython shell (see ``_NOTEBOOK_VIEWS`` in :mod:`sflp`), so that neither this
module nor anything heavy is imported before an object is first shown:

* :func:`solution_html` -- the summary line, then the SB push and BB call grids;
* :func:`thresholds_html` -- the SB push and BB call threshold charts (hover a cell for its
  stack intervals);
* :func:`range_html` -- one grid shaded by class weight.

The grids are the headed 13x13 HTML tables of :mod:`sflp.report.display`, in the colours of the PNG
charts.  The HTML views need only the standard library (no pandas).

:func:`solution_picture` draws the SB push and BB call grids as a :class:`Picture`: the range
picture of the chart set (:func:`sflp.report.plots.range_picture`), shown as SVG in Jupyter and
saved as PNG, SVG or PDF by sflp's own writers (:mod:`sflp.report.draw`).  It imports pandas, to
build the tidy frame the picture is drawn from.
"""

from __future__ import annotations

import html
from pathlib import Path

from sflp.core.cards import CLASS_NAMES
from sflp.core.ranges import format_range
from sflp.errors import ConfigError
from sflp.report.colors import threshold_colour
from sflp.report.display import frequency_grid, html_grid, side_by_side
from sflp.report.draw import Drawing, pdf_bytes, png_bytes, svg_bytes

DPI = 120
"""PNG resolution of :meth:`Picture.png` and :meth:`Picture.save` (that of the chart set)."""


# ---------------------------------------------------------------- HTML views


def solution_html(solution) -> str:
    """Summary line and the SB push / BB call grids (headed, coloured as in the PNGs); at class
    level a cell's hover text gives its EV margin."""
    sb, bb = solution.class_strategies()
    evs = (solution.sb_ev, solution.bb_ev) if solution.level == "class" else (None, None)
    head = html.escape(solution.summary().splitlines()[0])
    header = (f"<div><b>{head}</b><br>value {solution.value:+.6f} bb, SB push {solution.push_pct:.1f}%, "
              f"BB call {solution.call_pct:.1f}%, exploitability {solution.exploitability:.2g} bb</div>")
    return side_by_side(frequency_grid(sb, "sb", "SB push", evs[0]), frequency_grid(bb, "bb", "BB call", evs[1]),
                        header=header)


def thresholds_html(thresholds) -> str:
    """The SB push / BB call threshold charts as headed 13x13 grids (colours as in the PNGs)."""
    from sflp.solving.thresholds import format_intervals

    grids = []
    for player, title in (("sb", "SB push"), ("bb", "BB call")):
        hands = [thresholds.get(player, name) for name in CLASS_NAMES]
        grids.append(html_grid(
            CLASS_NAMES,
            [threshold_colour(h.max_stack) for h in hands],
            [h.label() + ("*" if h.multi else "") for h in hands],
            [f"{h.hand}: frequency > 0.5 on " + (format_intervals(h.intervals).replace(";", "; ") or "no stack")
             for h in hands],
            f"{title} up to (bb)",
        ))
    header = (f"<div><b>Exact thresholds, {thresholds.low:g}-{thresholds.high:g} bb</b> "
              f"({len(thresholds.breakpoints)} breakpoints; * = more than one stack interval, "
              f"hover for the intervals)</div>")
    return side_by_side(*grids, header=header)


def range_html(range_) -> str:
    """A headed 13x13 HTML grid: white to green by class weight, partial weights written in the
    cell, explicit text colours (readable in dark themes)."""
    caption = (f"{format_range(range_) or '(empty range)'} "
               f"({range_.combos_count():g} combos, {100 * range_.fraction():.1f}%)")
    return frequency_grid(range_.class_weights(), "sb", caption)


# ---------------------------------------------------------------- pictures


class Picture:
    """A finished :class:`~sflp.report.draw.Drawing` that Jupyter shows (as SVG) and that saves
    itself as PNG, SVG or PDF.  The same drawing gives the same bytes in every format."""

    def __init__(self, drawing: Drawing, title: str = "") -> None:
        self.drawing = drawing
        self.title = title

    def svg(self) -> str:
        """The picture as a standalone SVG document."""
        return svg_bytes(self.drawing, self.title).decode("utf-8")

    def png(self, dpi: float = DPI) -> bytes:
        """The picture as PNG bytes at ``dpi``."""
        return png_bytes(self.drawing, dpi)

    def pdf(self) -> bytes:
        """The picture as a one-page PDF."""
        return pdf_bytes(self.drawing, title=self.title)

    def save(self, path: Path | str) -> Path:
        """Write the picture to ``path`` atomically; its suffix (``.png``, ``.svg``, ``.pdf``)
        picks the format.  Returns the path."""
        from sflp.atomic import write_bytes

        path = Path(path)
        writers = {".png": self.png, ".svg": lambda: self.svg().encode("utf-8"), ".pdf": self.pdf}
        write = writers.get(path.suffix.lower())
        if write is None:
            raise ConfigError(f"cannot tell the picture format from {str(path)!r}: use .png, .svg or .pdf")
        return write_bytes(path, write())

    def _repr_svg_(self) -> str:
        return self.svg()

    def __repr__(self) -> str:
        return f"<Picture {self.title!r}, {self.drawing.width:g} x {self.drawing.height:g} pt>"


def solution_picture(solution) -> Picture:
    """The SB push and BB call 13x13 grids of ``solution`` side by side: cells coloured as in the
    report PNGs, mixed frequencies written under the hand (the chart set's range picture)."""
    from sflp.report.chartset import structure_text
    from sflp.report.frames import ranges_frame
    from sflp.report.plots import range_picture
    from sflp.report.text import fmt_num

    stack = float(solution.config.stack)
    structure = structure_text(solution.config)
    drawing = range_picture(ranges_frame([solution]), stack, structure)
    return Picture(drawing, f"Equilibrium ranges at {fmt_num(stack)} bb, {structure}")
