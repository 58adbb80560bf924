"""The atlas's pictures (issue 35): hand maps of the stack x ante plane, and one page of how the
ante moves the thresholds.

* :func:`hand_maps_drawing` -- for each chosen hand, SB's push map beside BB's call map: the
  region of the stack x ante plane where the hand is played, filled (full colour: frequency > 0.5;
  light: played at all), its boundaries joined between neighbouring antes through every exact
  stack threshold at the structures' antes and every exact ante threshold of the ante paths, by
  :func:`sflp.atlas.regions.hand_regions` (the rule ``atlas.html``'s map follows too); a gap
  whose antes disagree on the number of stretches is drawn as steps and marked ``≠``.  A legend
  inside the figure; the stack axis spans the structures' stacks, the ante ticks are their antes.
  Written as PNG and SVG (:mod:`sflp.charts.media.draw`).
* :func:`ante_shift` -- the SB and BB grids of threshold differences between two
  structures (no ante and 12.5 % by default in ``sflp atlas``), by ``sflp compare``'s rule
  (:func:`sflp.charts.compare.difference_picture`): one PDF page.
"""

from __future__ import annotations

from collections.abc import Sequence

from sflp.atlas.regions import Regions, hand_regions
from sflp.charts.colors import FREQUENCY_FULL, blend
from sflp.charts.media.draw import Drawing, text_width, wrap
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
    """The ante axis the structures differ in alone (the lines' axis), or None: rows in order.
    Two or more distinct antes are needed for a plane."""
    axes = {t.along for t in lines} or {"ante"}
    if len(axes) != 1:
        return None
    axis = axes.pop()
    others = [{k: v for k, v in t.config.as_dict().items() if k not in ("stack", axis)} for _, t in structures]
    if not all(o == others[0] for o in others):
        return None
    antes = [float(getattr(t.config, axis)) for _, t in structures]
    return axis if len(set(antes)) == len(antes) > 1 else None


def map_regions(structures, lines, axis: str, player: str, hand: str, family: str = "intervals",
                reach: Sequence = ()) -> Regions:
    """The regions of ``hand`` for ``player`` (:func:`sflp.atlas.regions.hand_regions`): ``family``
    ``"intervals"`` (frequency > 0.5) or ``"any_intervals"`` (played at all); ``reach`` are the
    stack paths the reach added between the structures' antes (:mod:`sflp.atlas.reach`), rows like
    theirs."""
    rows = [(float(getattr(t.config, axis)), getattr(t.get(player, hand), family))
            for t in [*(t for _, t in structures), *reach]]
    paths = [(float(t.config.stack), getattr(t.get(player, hand), family), float(t.low), float(t.high))
             for t in lines]
    return hand_regions(rows, paths)


def _map(d: Drawing, left: float, top: float, player: str, hand: str, structures, lines, axis: str | None,
         low: float, high: float, reach: Sequence = ()) -> None:
    colour = FREQUENCY_FULL[player]
    light = blend(colour, "FFFFFF", 0.6)
    d.rect(left, top, MAP_W, MAP_H, fill="FFFFFF", stroke="D0D7DE", width=0.6)

    def px(x: float) -> float:
        return left + (x - low) / (high - low) * MAP_W

    if axis is not None:
        values = sorted(float(getattr(t.config, axis)) for _, t in structures)
        a0, a1 = values[0], values[-1]

        def py(a: float) -> float:
            return top + MAP_H - (a - a0) / (a1 - a0) * MAP_H

        marks = []
        for family, fill in (("any_intervals", light), ("intervals", colour)):
            regions = map_regions(structures, lines, axis, player, hand, family, reach)
            for ring in regions.polygons:
                d.polygon([(px(x), py(a)) for x, a in ring], fill)
            if family == "intervals":
                marks = regions
        for x, a in marks.loose:
            d.dot(px(x), py(a), 1.3, _EDGE)
        for g0, g1 in marks.disagree:
            d.text(left + MAP_W + 2, py((g0 + g1) / 2) + 2.6, "≠", 7.5, _ANTE_EDGE, "bold")
        last = None
        for a in values:  # the ticks are the structures' own antes: the plane is known on those lines
            y = py(a)
            d.line([(left - 2.5, y), (left, y)], "8C959F", 0.6)
            if last is None or abs(last - y) >= 8:
                d.text(left - 4, y + 2.3, fmt_num(a), 6.5, "57606A", anchor="end")
                last = y
        d.text(left - 24, top + MAP_H / 2, "ante (bb)" if axis == "ante" else "BB ante (bb)", 6.5, "57606A",
               anchor="middle", angle=90)
    else:
        h = MAP_H / len(structures)
        for k, (_, t) in enumerate(structures):
            y0, y1 = top + MAP_H - (k + 1) * h + 0.5, top + MAP_H - k * h - 0.5
            for family, fill in (("any_intervals", light), ("intervals", colour)):
                for a, b in getattr(t.get(player, hand), family):
                    d.polygon([(px(a), y0), (px(b), y0), (px(b), y1), (px(a), y1)], fill)
            d.text(left - 4, y1 - h / 2 + 2.8, str(k + 1), 6.5, "57606A", anchor="end")
    for tick in nice_ticks(low, high, 6):
        x = px(tick)
        d.line([(x, top + MAP_H), (x, top + MAP_H + 2.5)], "8C959F", 0.6)
        d.text(x, top + MAP_H + 10, fmt_num(tick), 6.5, "57606A", anchor="middle")
    d.text(left + MAP_W / 2, top + MAP_H + 19, "stack (bb)", 6.5, "57606A", anchor="middle")
    d.text(left, top - 4, f"{hand}: {_NAMES[player]}", 8, "1B1F24", "bold")


def reach_words(traced, added: int) -> str:
    """What the maps say of the reach (:mod:`sflp.atlas.reach`): the structures it added, and how
    close the drawn boundaries are to the exact curves."""
    if traced is None or not added:
        return ""
    words = (f" The reach added {added} structure{'s' if added != 1 else ''} between those antes (exact stack "
             "paths, in the atlas's tables), chosen where a boundary bends or the stretches change")
    if traced.error_pt:
        return words + (f"; its budget of {traced.budget} was spent with boundaries up to about "
                        f"{traced.error_pt:.1f} pt off their curves.")
    return words + f": every boundary is within about {TOLERANCE_TEXT} of its exact curve."


TOLERANCE_TEXT = "half a point"


def _legend(d: Drawing, left: float, top: float, axis: str | None, disagree: bool, reach_text: str = "") -> float:
    """The key to the fills and marks, drawn at ``top``; returns the y below it."""
    x = left
    for player in ("sb", "bb"):
        colour = FREQUENCY_FULL[player]
        for fill, words in ((colour, f"{_NAMES[player]}: played (frequency > 0.5)"),
                            (blend(colour, "FFFFFF", 0.6), "played sometimes (> 0)")):
            d.rect(x, top, 9, 7, fill=fill)
            d.text(x + 12, top + 6.3, words, 6.5, "1B1F24")
            x += 12 + text_width(words, 6.5) + 10
        x += 6
    y = top + 10
    if axis is not None:
        words = ("Between the structures' antes (the ticks) each boundary is joined through the exact stack "
                 "thresholds at those antes and the exact ante thresholds of the ante paths; no ante path is drawn."
                 + reach_text)
        if disagree:
            words += (" \u2260 beside a gap: the antes either side have different numbers of played stretches, "
                      "so which boundary is which is not known: each ante's stretches are drawn as steps to "
                      "half way, and the ante paths' thresholds there as dots."
                      + ("" if reach_text else " (sflp atlas --reach N traces the boundaries between the antes.)"))
    else:
        words = "The structures differ in more than the ante: one row each, not joined."
    for line in wrap(words, d.width - 2 * left, 6.5):
        y += 6.5 * 1.2
        d.text(left, y, line, 6.5, "57606A")
    return y + 6


def hand_maps_drawing(structures: Sequence[tuple[str, object]], lines: Sequence, hands: Sequence[str], *,
                      title: str = "Where each hand is played across stacks and antes",
                      note: str | None = None, reach: Sequence = (), traced=None) -> Drawing:
    """The hand maps of ``hands`` (class names), SB beside BB, one row per hand (see the module doc).

    ``structures`` are ``(label, stack path)`` pairs, ``lines`` ante paths at grid stacks (joined
    into the regions when the structures differ in that ante alone; else the rows are the
    structures in order); ``reach`` the stack paths the reach added between their antes and
    ``traced`` its :class:`~sflp.atlas.reach.Reach` (:mod:`sflp.atlas.reach`)."""
    if not structures:
        raise ConfigError("hand maps need at least one structure")
    bad = [h for h in hands if h not in CLASS_INDEX]
    if bad or not hands:
        raise ConfigError(f"hands={list(hands)!r}: expected class names such as 'AKs', 'T9o' or '22'")
    axis = _axis(structures, lines)
    low = min(float(t.low) for _, t in structures)
    high = max(float(t.high) for _, t in structures)
    if axis is None:
        reach = ()
    disagree = axis is not None and any(
        map_regions(structures, lines, axis, p, h, reach=reach).disagree for h in hands for p in ("sb", "bb"))
    left0, row = 0.55 * PT, MAP_H + 0.6 * PT
    d = Drawing(2 * left0 + 2 * MAP_W + 0.55 * PT, 0)
    d.text(d.width / 2, 18, title, 10, "1B1F24", "bold", anchor="middle")
    top0 = _legend(d, left0, 26, axis, disagree, reach_words(traced, len(reach))) + 14
    d.height = top0 + len(hands) * row - 0.1 * PT
    for n, hand in enumerate(hands):
        for k, player in enumerate(("sb", "bb")):
            _map(d, left0 + k * (MAP_W + 0.55 * PT), top0 + n * row, player, hand, structures, lines, axis, low, high,
                 reach)
    key = "" if axis else "Rows: " + ", ".join(f"{k + 1} {label}" for k, (label, _) in enumerate(structures)) + "."
    if note:  # a picture that shows part of the atlas says which part, and where the rest is
        key = (key + " " + note).strip()
    if key:
        key_lines = wrap(key, d.width - 2 * left0, 6.5)
        d.lines(left0, d.height, key_lines, 6.5, "57606A")
        d.height += 6.5 * 1.2 * len(key_lines) + 0.15 * PT
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
