"""Notebook views: how sflp's results show themselves in Jupyter.

The core types carry no presentation.  A notebook shows them through these functions, which
``import sflp`` registers with IPython's HTML formatter by module and class *name* when it runs
inside a notebook or IPython shell (see ``_NOTEBOOK_VIEWS`` in :mod:`sflp`), so that neither this
module nor anything heavy is imported before an object is first shown:

* :func:`solution_html` -- the summary line, then the SB push and BB call grids;
* :func:`thresholds_html` -- the SB push and BB call threshold charts (hover a cell for its
  stack intervals);
* :func:`range_html` -- one grid shaded by class weight;
* :func:`exploit_html` -- an exploit report: the figures, the hero's best response with each
  hand's EV margin, beside the locked strategy; :func:`exploit_sweep_html` -- an exploit sweep's
  thresholds;
* :func:`verify_html` -- a verify report: exploitability in bb and mbb per hand, the costliest
  hands, and the EV lost per class as a grid;
* :func:`sc_html` -- Sklansky-Chubukov numbers in the threshold bands.

Threshold grids carry the band legend (:func:`sflp.views.html_grid.band_legend`).

The grids are the headed 13x13 HTML tables of :mod:`sflp.views.html_grid`, in the colours of the PNG
charts.  The HTML views need only the standard library (no pandas).

:func:`solution_picture` draws the SB push and BB call grids as a :class:`Picture`: the range
picture of the chart set (:func:`sflp.charts.media.pictures.plots.range_picture`), shown as SVG in Jupyter and
saved as PNG, SVG or PDF by sflp's own writers (:mod:`sflp.charts.media.draw`).  It imports pandas, to
build the tidy frame the picture is drawn from.
"""

from __future__ import annotations

import html
import math
from pathlib import Path

from sflp.charts.colors import ev_colour, frequency_colour
from sflp.charts.media.draw import Drawing, pdf_bytes, png_bytes, svg_bytes
from sflp.charts.scale import MARK_GAP, MARK_SEVERAL, chart_scale, footnotes
from sflp.checks import margin_text
from sflp.core.cards import CLASS_NAMES
from sflp.core.ranges import format_range
from sflp.errors import ConfigError
from sflp.views.html_grid import band_legend, frequency_grid, html_grid, side_by_side

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


def thresholds_html(thresholds, title: str = "") -> str:
    """The SB push / BB call threshold charts as headed 13x13 grids, in the labels, marks and
    colours of every other medium (:mod:`sflp.charts.scale`), each with its footnotes."""
    from sflp.solving.thresholds import format_intervals

    scale = chart_scale(thresholds.high, thresholds.low)
    grids, notes = [], []
    for player, heading in (("sb", "SB push"), ("bb", "BB call")):
        hands = [thresholds.get(player, name) for name in CLASS_NAMES]
        grids.append(html_grid(
            CLASS_NAMES,
            [scale.colour(h.max_stack, h.capped) for h in hands],
            [scale.label(h.max_stack, h.capped, h.intervals, h.exact_label).text for h in hands],
            [f"{h.hand}: frequency > 0.5 on " + (format_intervals(h.intervals).replace(";", "; ") or "no stack")
             for h in hands],
            f"{heading} up to (bb)",
        ))
        notes += [f"{heading}: {line}" for line in footnotes(hands, thresholds.high, thresholds.low)]
    header = (f"<div><b>{html.escape(title or 'Exact thresholds')}, {thresholds.low:g}-{thresholds.high:g} bb</b> "
              f"({len(thresholds.breakpoints)} breakpoints; {MARK_SEVERAL} = played on several stretches, "
              f"{MARK_GAP} = folded on a stretch inside the played range, listed under the grids; "
              f"hover for the intervals)</div>")
    return side_by_side(*grids, header=header) + band_legend(scale, notes=notes)


SC_SCALE = chart_scale(20)
"""The bands of a grid of SC numbers (which has no top of its own): ``20+`` for 20 bb and more, ``∞`` included."""


def range_html(range_) -> str:
    """A headed 13x13 HTML grid: white to green by class weight, partial weights written in the
    cell, explicit text colours (readable in dark themes)."""
    caption = (f"{format_range(range_) or '(empty range)'} "
               f"({range_.combos_count():g} combos, {100 * range_.fraction():.1f}%)")
    return frequency_grid(range_.class_weights(), "sb", caption)


def _class_average(values, level: str) -> list[float]:
    """Per-class values (169) of a class- or combo-level array: the mean over a class's combos."""
    if level == "class":
        return [float(v) for v in values]
    from sflp.core.cards import CLASS_COMBOS

    return [sum(float(values[c]) for c in combos) / len(combos) for combos in CLASS_COMBOS]


def _row(label: str, value: str) -> str:
    return (f'<tr><th style="text-align:left;padding:1px 10px 1px 2px;font-weight:normal">{html.escape(label)}</th>'
            f'<td style="text-align:right;padding:1px 2px">{html.escape(value)}</td></tr>')


def _figures(rows) -> str:
    return '<table style="font-size:13px;margin:4px 2px">' + "".join(_row(a, b) for a, b in rows) + "</table>"


def exploit_html(report) -> str:
    """An :class:`~sflp.study.exploit.ExploitReport`: the figures (value, Nash value, gain), the
    hero's best response as a grid (white to the hero's colour; each cell's EV margin in bb under
    the hand, ``=`` for an exact tie) beside the locked strategy, and the EV-margin legend.  A
    combo-level report shows each class's share of combos played."""
    c = report.config
    hero, locked = report.hero.upper(), report.locked.upper()
    verb = "push" if report.hero == "sb" else "call"
    locked_verb = "push" if report.locked == "sb" else "call"
    exact = str(report.value_exact)
    head = (f"<div><b>{hero}'s maximally exploitative {verb} range against {locked} locked to "
            f"{html.escape(repr(report.source))}</b>, {c.stack:g} bb ({report.level} level)</div>")
    figures = _figures([
        (f"{hero} {verb}s", f"{report.hero_pct:.2f}% of hands"),
        ("Value (SB's EV per hand)", f"{report.value:+.9f} bb" + (f" = {exact}" if len(exact) < 40 else "")),
        (f"{hero} playing Nash instead", f"{report.nash_value:+.9f} bb"),
        ("Equilibrium value", f"{report.game_value:+.9f} bb"),
        ("Gain of exploiting over Nash", f"{report.gain_mbb:.4f} mbb/hand"),
        ("Exact ties (folded by rule)", ", ".join(report.ties) or "none"),
    ])
    hero_freq = _class_average(report.strategy, report.level)
    locked_freq = _class_average(report.locked_strategy, report.level)
    seconds, titles = [], []
    for k, name in enumerate(CLASS_NAMES):
        if report.level == "class":
            m = report.margins_exact[k]
            seconds.append("." if m is None else "=" if m == 0 else margin_text(m, "+.2f"))
            titles.append(f"{name}: {verb} {100 * hero_freq[k]:.0f}%, EV({verb}) - EV(fold) = "
                          + ("unreached" if m is None else f"{margin_text(m, '+.6f')} bb"))
        else:
            seconds.append(f"{100 * hero_freq[k]:.0f}%" if 0 < hero_freq[k] < 1 else "")
            titles.append(f"{name}: {100 * hero_freq[k]:.1f}% of combos {verb}")
    colours = [frequency_colour(f, report.hero) for f in hero_freq]
    grids = side_by_side(
        html_grid(CLASS_NAMES, colours, seconds, titles, f"{hero} best response: {verb} (EV margin, bb)"),
        frequency_grid(locked_freq, report.locked, f"{locked} locked: {locked_verb}"),
    )
    return f"<div>{head}{figures}{grids}</div>"


def verify_html(report) -> str:
    """A :class:`~sflp.study.verify.VerifyReport`: the exploitability table (bb and mbb per hand)
    and, per given side, the hands that lose the most against the exact reply, with a grid of EV
    lost per class (white = a best reply, deeper red = more lost) at class level."""
    from sflp.study.strategy import MBB
    from sflp.study.verify import DISPLAY_FLOOR

    c = report.config
    head = (f"<div><b>Exact exploitability at {c.stack:g} bb</b> (SB {c.small_blind:g} / BB {c.big_blind:g}, "
            f"ante {c.ante:g}, BB ante {c.bb_ante:g}; {report.level} level; equilibrium value "
            f"{report.nash_value:+.6f} bb)</div>")
    rows = []
    for who, e, mbb in (("SB", report.sb_exploitability, report.sb_exploitability_mbb),
                        ("BB", report.bb_exploitability, report.bb_exploitability_mbb)):
        src = report.sources.get(who.lower()) or ""
        rows.append((f"{who} ({src})" if src else who,
                     "not given" if e is None else f"{e:.9f} bb = {mbb:.3f} mbb/hand"))
    rows.append(("Total (sum of both)", f"{report.total_exploitability:.9f} bb = "
                                        f"{report.total_exploitability_mbb:.3f} mbb/hand"))
    parts = [head, _figures(rows)]
    grids = []
    for who in ("sb", "bb"):
        hand_rows = [r for r in report.hands if r.player == who]
        if not hand_rows:
            continue
        costly = sorted((r for r in hand_rows if r.ev_lost > DISPLAY_FLOOR), key=lambda r: -r.ev_lost)[:15]
        table = ['<table style="font-size:13px;margin:4px 12px 4px 2px;border-collapse:collapse">',
                 f'<caption style="text-align:left;font-weight:bold">{who.upper()}: costliest hands</caption>',
                 "<tr>" + "".join(f'<th style="padding:1px 6px;text-align:right">{h}</th>'
                                  for h in ("hand", "given", "exact", "mbb/hand lost")) + "</tr>"]
        for r in costly:
            cells = (html.escape(r.hand), f"{r.given:.3f}", f"{r.exact:.3f}", f"{r.ev_lost * MBB:.4f}")
            table.append("<tr>" + "".join(f'<td style="padding:1px 6px;text-align:right">{c}</td>' for c in cells)
                         + "</tr>")
        if not costly:
            table.append('<tr><td colspan="4">every hand is played as a best reply</td></tr>')
        grids.append("".join(table) + "</table>")
        if report.level == "class":
            lost = {r.hand: r.ev_lost for r in hand_rows}
            scale = max(lost.values()) or 1.0
            values = [lost.get(name, 0.0) for name in CLASS_NAMES]
            grids.append(html_grid(
                CLASS_NAMES, [ev_colour(-v, scale) for v in values],
                [f"{v * MBB:.1f}" if v * MBB >= 0.05 else "" for v in values],
                [f"{name}: {v * MBB:.4f} mbb/hand lost" for name, v in zip(CLASS_NAMES, values)],
                f"{who.upper()}: EV lost per class (mbb/hand)"))
    return "<div>" + "".join(parts) + side_by_side(*grids) + "</div>"


def sc_html(numbers) -> str:
    """Sklansky-Chubukov numbers (:class:`~sflp.study.sc.SCNumbers`) as a 13x13 grid in the
    threshold bands (the number in bb under the hand; ``∞`` at any stack, ``-`` never) with the
    band legend; hover a cell for six decimals."""
    c = numbers.config
    colours, seconds, titles = [], [], []
    for name in CLASS_NAMES:
        sc = numbers[name]
        if sc.unbounded:
            colours.append(SC_SCALE.colour(math.inf, True))
            seconds.append("∞")
            titles.append(f"{name}: break-even or better at every stack")
        elif sc.never:
            colours.append(SC_SCALE.colour(None))
            seconds.append("-")
            titles.append(f"{name}: never break-even")
        else:
            colours.append(SC_SCALE.colour(float(sc.stack), float(sc.stack) > SC_SCALE.high))
            seconds.append(f"{float(sc.stack):.1f}")
            titles.append(f"{name}: {float(sc.stack):.6f} bb")
    caption = (f"Sklansky-Chubukov numbers (bb before posting), SB {c.small_blind:g} / BB {c.big_blind:g}, "
               f"ante {c.ante:g}, BB ante {c.bb_ante:g}")
    grid = html_grid(CLASS_NAMES, colours, seconds, titles, caption)
    return f"<div>{grid}{band_legend(SC_SCALE, 'SC number (bb)')}</div>"


def exploit_sweep_html(sweep) -> str:
    """An :class:`~sflp.study.exploit.ExploitSweep`: its exact thresholds, titled as an exploit."""
    verb = "push" if sweep.hero == "sb" else "call"
    title = (f"{sweep.hero.upper()}'s best-response {verb} thresholds against {sweep.locked.upper()} locked to "
             f"{sweep.source!r} (not an equilibrium)")
    return thresholds_html(sweep.thresholds, title=title)


# ---------------------------------------------------------------- pictures


class Picture:
    """A finished :class:`~sflp.charts.media.draw.Drawing` that Jupyter shows (as SVG) and that saves
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
    from sflp.charts.about import structure_text
    from sflp.charts.frames import ranges_frame
    from sflp.charts.media.pictures.plots import range_picture
    from sflp.charts.text import fmt_num

    stack = float(solution.config.stack)
    structure = structure_text(solution.config)
    drawing = range_picture(ranges_frame([solution]), stack, structure)
    return Picture(drawing, f"Equilibrium ranges at {fmt_num(stack)} bb, {structure}")
