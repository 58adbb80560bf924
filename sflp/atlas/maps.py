"""The atlas's pictures (issue 35): hand maps of the stack x ante plane, and one page of how the
ante moves the thresholds.

* :func:`hand_maps_drawing` -- for each chosen hand, SB's push map beside BB's call map: where
  the hand is played (frequency > 0.5) in the stack x ante plane, drawn as in ``atlas.html``:
  each structure's exact stack intervals as a band at its ante, the exact ante intervals of the
  ante paths as lines at their grid stacks, and the exact boundary points of both -- the stack
  thresholds at the grid antes (squares) and the ante thresholds at the grid stacks (dots).
  Written as PNG and SVG (:mod:`sflp.charts.media.draw`).
* :func:`ante_shift` -- the SB and BB grids of threshold differences between two
  structures (no ante and 12.5 % by default in ``sflp atlas``), by ``sflp compare``'s rule
  (:func:`sflp.charts.compare.difference_picture`): one PDF page.
"""

from __future__ import annotations

from collections.abc import Sequence

from sflp.charts.colors import FREQUENCY_FULL, blend
from sflp.charts.media.draw import Drawing, wrap
from sflp.charts.media.pictures.plots import PT, nice_ticks
from sflp.charts.text import fmt_num
from sflp.core.cards import CLASS_INDEX
from sflp.errors import ConfigError

MAP_W, MAP_H = 3.3 * PT, 2.1 * PT
"""One map's plot area, in points."""
_EDGE = "1B1F24"
_ANTE_EDGE = "D73027"
_NAMES = {"sb": "SB push", "bb": "BB call"}


def _axis(structures, lines) -> str | None:
    """The ante axis the structures differ in alone (the lines' axis), or None: rows in order."""
    axes = {t.along for t in lines}
    if len(axes) != 1:
        return None
    axis = axes.pop()
    others = [{k: v for k, v in t.config.as_dict().items() if k not in ("stack", axis)} for _, t in structures]
    return axis if all(o == others[0] for o in others) else None


def _map(d: Drawing, left: float, top: float, player: str, hand: str, structures, lines, axis: str | None,
         low: float, high: float) -> None:
    colour = FREQUENCY_FULL[player]
    light = blend(colour, "FFFFFF", 0.55)
    d.rect(left, top, MAP_W, MAP_H, fill="FFFFFF", stroke="D0D7DE", width=0.6)

    def px(x: float) -> float:
        return left + (x - low) / (high - low) * MAP_W

    if axis is not None:
        values = [float(getattr(t.config, axis)) for _, t in structures]
        a0 = min([*values, *(float(t.low) for t in lines)])
        a1 = max([*values, *(float(t.high) for t in lines)])
        a1 = a1 if a1 > a0 else a0 + 1

        def py(a: float) -> float:
            return top + MAP_H - (a - a0) / (a1 - a0) * MAP_H

        order = sorted(range(len(structures)), key=lambda k: values[k])
        bands = {}
        for n, k in enumerate(order):
            gaps = [values[k] - values[order[n - 1]]] if n else []
            gaps += [values[order[n + 1]] - values[k]] if n + 1 < len(order) else []
            half = min(gaps) / 2 if gaps else (a1 - a0) / 20
            bands[k] = (py(min(a1, values[k] + half)), py(max(a0, values[k] - half)), py(values[k]))
    else:
        h = MAP_H / len(structures)
        bands = {k: (top + MAP_H - (k + 1) * h, top + MAP_H - k * h, top + MAP_H - (k + 0.5) * h)
                 for k in range(len(structures))}
    marks = []
    for k, (_, t) in enumerate(structures):
        y_top, y_bottom, y_mid = bands[k]
        for a, b in t.get(player, hand).intervals:
            d.rect(px(a), y_top, max(0.6, px(b) - px(a)), max(0.6, y_bottom - y_top), fill=light)
            # a structure's own range ends (its smallest stack, the top) are no thresholds
            marks += [("square", px(e), y_mid) for e in (a, b) if t.low + 1e-9 < e < t.high - 1e-9]
    if axis is not None:
        for line in lines:
            x = px(float(line.config.stack))
            for a, b in line.get(player, hand).intervals:
                d.line([(x, py(a)), (x, py(b))], colour, 1.4)
                marks += [("dot", x, py(e)) for e in (a, b) if a0 + 1e-9 < e < a1 - 1e-9]
    for kind, x, y in marks:
        if kind == "square":
            d.rect(x - 1.3, y - 1.3, 2.6, 2.6, fill=_EDGE)
        else:
            d.dot(x, y, 1.5, _ANTE_EDGE)
    for tick in nice_ticks(low, high, 6):
        d.text(px(tick), top + MAP_H + 9, fmt_num(tick), 6.5, "57606A", anchor="middle")
    d.text(left + MAP_W / 2, top + MAP_H + 18, "stack (bb)", 6.5, "57606A", anchor="middle")
    if axis is not None:
        for tick in nice_ticks(a0, a1, 5):
            d.text(left - 3, py(tick) + 2.3, fmt_num(tick), 6.5, "57606A", anchor="end")
        d.text(left - 22, top + MAP_H / 2, "ante (bb)" if axis == "ante" else "BB ante (bb)", 6.5, "57606A",
               anchor="middle", angle=90)
    else:
        for k in range(len(structures)):
            d.text(left - 3, bands[k][2] + 2.3, str(k + 1), 6.5, "57606A", anchor="end")
    d.text(left, top - 4, f"{hand}: {_NAMES[player]}", 8, "1B1F24", "bold")


def hand_maps_drawing(structures: Sequence[tuple[str, object]], lines: Sequence, hands: Sequence[str], *,
                      title: str = "Where each hand is played across stacks and antes",
                      note: str | None = None) -> Drawing:
    """The hand maps of ``hands`` (class names), SB beside BB, one row per hand (see the module doc).

    ``structures`` are ``(label, stack path)`` pairs, ``lines`` ante paths at grid stacks (drawn
    when the structures differ in that ante alone; else the rows are the structures in order)."""
    if not structures:
        raise ConfigError("hand maps need at least one structure")
    bad = [h for h in hands if h not in CLASS_INDEX]
    if bad or not hands:
        raise ConfigError(f"hands={list(hands)!r}: expected class names such as 'AKs', 'T9o' or '22'")
    axis = _axis(structures, lines)
    low = min(float(t.low) for _, t in structures)
    high = max(float(t.high) for _, t in structures)
    left0, top0, row = 0.55 * PT, 0.75 * PT, MAP_H + 0.6 * PT
    d = Drawing(2 * left0 + 2 * MAP_W + 0.55 * PT, top0 + len(hands) * row + 0.55 * PT)
    d.text(d.width / 2, 18, title, 10, "1B1F24", "bold", anchor="middle")
    for n, hand in enumerate(hands):
        for k, player in enumerate(("sb", "bb")):
            _map(d, left0 + k * (MAP_W + 0.55 * PT), top0 + n * row, player, hand, structures, lines, axis, low, high)
    key = ("Bands: played (frequency > 0.5) along the stack at each structure's ante; lines: along the ante at "
           "grid stacks; squares: exact stack thresholds; dots: exact ante thresholds.") if axis else (
        "Rows: " + ", ".join(f"{k + 1} {label}" for k, (label, _) in enumerate(structures))
        + "; squares: exact stack thresholds.")
    if note:  # a picture that shows part of the atlas says which part, and where the rest is
        key += " " + note
    key_lines = wrap(key, d.width - 2 * left0, 6.5)
    d.height += 6.5 * 1.2 * (len(key_lines) - 1)
    d.lines(left0, d.height - 0.25 * PT - 6.5 * 1.2 * len(key_lines), key_lines, 6.5, "57606A")
    return d


def ante_shift(base: tuple[str, object], other: tuple[str, object]):
    """``(drawing, frame)``: how the ante moves the thresholds, SB's and BB's grids of ``other``'s
    threshold minus ``base``'s (each a ``(label, stack path)``), over the stacks both cover, by
    ``sflp compare``'s colours and cell texts, and the frame of ``compare.csv``'s columns (written
    as ``ante_shift.csv``, which the page's note names)."""
    from sflp.charts.compare import compare_frame, compare_title, difference_picture
    from sflp.study.compare import Chart, compare_charts

    charts = [Chart.from_thresholds(label, t) for label, t in (base, other)]
    low, high = max(c.low for c in charts), min(c.high for c in charts)
    charts = [Chart(c.name, low, high, c.intervals, c.config) for c in charts]
    frame = compare_frame(compare_charts(*charts), *charts)
    title = "How the ante moves the thresholds: " + compare_title(*charts)
    return difference_picture(frame, title, low, high, listing="ante_shift.csv"), frame
