"""``atlas.html``: one self-contained page for exploring a structure atlas (issue 35).

An atlas holds, for every blind structure of a grid (the ante from 0 to 0.25 bb, or the presets
"no ante, 10 %, 12.5 %, BB ante"), the exact stack thresholds of every hand, and along the ante at
grid stacks the exact ante thresholds.  :func:`write_atlas_html` writes one HTML file with no
network access (the data as one JSON block, plain JavaScript draws everything), showing

* the **SB push and BB call threshold grids** of one structure, with the labels, marks, colours
  and legend of the charts (:mod:`sflp.charts.scale`, through :func:`sflp.charts.media.html.page.threshold_cell`:
  the same rule as ``chart.html`` and the PNGs);
* an **ante slider** (one step per structure, in the order given; a picker names and numbers each) and a
  **stack slider** over the stack range: the hands played (frequency > 0.5) at that stack keep
  their colour, the others take their band's faded colour and a text colour that keeps its
  contrast (:func:`faded`; a colour, not transparency, so the picked cell's outline leaves it
  as it is), and the bar gives the push and call percentages at that stack and structure (of the
  1,326 combos, from the exact intervals);
* a **hand map** for the hand picked in a grid (click, tap or Enter; on open, the one the address
  names, else the first in grid order with a stack threshold inside the plane; below 1200 px a
  button beside the grids scrolls to it): where SB pushes and BB calls it in the stack x ante
  plane, as filled regions: full colour where played (frequency > 0.5), light where played at
  all, joined between neighbouring antes through the exact stack and ante thresholds by the rule
  of :mod:`sflp.atlas.regions` (the same in ``hand_maps.svg``); a gap whose antes disagree on the
  number of stretches is drawn as steps and marked.  A crosshair marks the sliders' point.

The address keeps the view: ``#n=3&stack=12.5&hand=bb:J7s`` (``n`` counts the structures from 1,
as the picker and the map's rows do; an older page's ``#structure=2``, from 0, still opens the same).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from sflp.atomic import write_text
from sflp.charts.colors import FREQUENCY_FULL, blend, contrast
from sflp.charts.media.html.page import PageHand, _escape, script_json, threshold_cell
from sflp.charts.scale import chart_scale
from sflp.core.cards import CLASS_NAMES, PLAYERS
from sflp.errors import ConfigError
from sflp.output.clean import clean_text, json_text

STATIC = ("atlas.html", "atlas.css", "atlas.js")
"""The page's files in ``sflp/atlas/static/`` (package data): skeleton, style, code."""
_SLOT = re.compile(r"__(TITLE|DATA|STYLE|SCRIPT)__")


def static_text(name: str) -> str:
    """The text of ``sflp/atlas/static/<name>`` (one of :data:`STATIC`), ``\\n`` line ends."""
    from importlib.resources import files

    return (files("sflp.atlas") / "static" / name).read_text(encoding="utf-8")


def _page_hand(h) -> PageHand:
    return PageHand(h.player, h.hand, None if h.max_stack is None else float(h.max_stack), bool(h.capped),
                    tuple(h.intervals), tuple(h.any_intervals), h.label())


def _pairs(intervals) -> list[list[float]]:
    return [[round(float(a), 6), round(float(b), 6)] for a, b in intervals]


MAX_STRUCTURES = 101
"""Structures a page holds at most (each is two grids of 169 cells, about 13 KB of data): an atlas
of more shows this many, chosen evenly by position (the first and last always), and says so."""
MAX_LINES = 101
"""Ante paths a page holds at most, chosen the same way."""


def _even(items: Sequence, cap: int) -> list:
    """At most ``cap`` of ``items``, evenly by position, the first and last kept.

    >>> _even(list(range(10)), 4), _even([1, 2], 5)
    ([0, 3, 6, 9], [1, 2])
    """
    n = len(items)
    if n <= cap:
        return list(items)
    return [items[round(k * (n - 1) / (cap - 1))] for k in range(cap)]


def atlas_data(structures: Sequence[tuple[str, object]], ante_paths: Sequence = (), *,
               title: str | None = None, total: int | None = None, total_lines: int | None = None,
               reach: Sequence = (), traced=None) -> dict:
    """The JSON object of the page.

    ``structures``: ``(label, thresholds)`` per structure, each a stack path
    (:func:`sflp.compute_thresholds`) up to one and the same stack (from the atlas's lowest stack,
    or a structure's own smallest one when its antes need more).  ``ante_paths``: ante paths
    (``along="ante"`` or ``"bb_ante"``, one axis for all) at grid stacks inside that range; they
    are drawn only when the structures differ in that axis alone (else the hand map's rows are the
    structures in order, and the page says the ante lines are left out).  ``reach``: stack paths the
    reach added between the structures' antes (:mod:`sflp.atlas.reach`), drawn in the hand map only,
    and ``traced`` its :class:`~sflp.atlas.reach.Reach`."""
    if not structures:
        raise ConfigError("an atlas page needs at least one structure")
    # the atlas's counts when the caller passes a chosen part of it (:class:`sflp.atlas.outputs.Outputs`)
    total = len(structures) if total is None else total
    total_lines = len(ante_paths) if total_lines is None else total_lines
    structures = _even(list(structures), MAX_STRUCTURES)
    ante_paths = _even(sorted(ante_paths, key=lambda t: float(t.config.stack)), MAX_LINES)
    paths = [t for _, t in structures]
    low, high = min(float(t.low) for t in paths), float(paths[0].high)
    if any(t.along != "stack" or float(t.high) != high for t in paths):
        raise ConfigError("every structure of an atlas page needs a stack path up to the same stack")
    axes = {t.along for t in ante_paths}
    if len(axes) > 1 or "stack" in axes:
        raise ConfigError("the ante paths of an atlas page follow one ante axis")
    axis = axes.pop() if axes else None
    others = [{k: v for k, v in t.config.as_dict().items() if k not in ("stack", axis)} for t in paths]
    continuous = axis is not None and all(o == others[0] for o in others)
    scale = chart_scale(high, low)
    out_structures = []
    for label, t in structures:
        # a structure whose antes need more than the atlas's lowest stack starts at its own smallest
        # stack: its marks count folded stretches from there (the legend is the top's alone)
        # (the page's bands: the atlas's lowest stack decides which bands its legend shows)
        own = replace(scale, low=float(t.low))
        by = {p: {h.hand: h for h in t.hands if h.player == p} for p in PLAYERS}
        out_structures.append({
            "label": clean_text(label),
            "y": float(getattr(t.config, axis)) if continuous else None,
            "low": float(t.low),
            "cells": {p: [threshold_cell(_page_hand(by[p][h]), own) for h in CLASS_NAMES] for p in PLAYERS},
        })
    lines = []
    if continuous:
        for t in sorted(ante_paths, key=lambda t: float(t.config.stack)):
            by = {p: {h.hand: h for h in t.hands if h.player == p} for p in PLAYERS}
            lines.append({"stack": float(t.config.stack),
                          **{p: [_pairs(by[p][h].intervals) for h in CLASS_NAMES] for p in PLAYERS},
                          "any": {p: [_pairs(by[p][h].any_intervals) for h in CLASS_NAMES] for p in PLAYERS}})
    reach_rows = []
    if continuous:
        for t in sorted(reach, key=lambda t: float(getattr(t.config, axis))):
            by = {p: {h.hand: h for h in t.hands if h.player == p} for p in PLAYERS}
            reach_rows.append({"y": float(getattr(t.config, axis)),
                               **{p: [_pairs(by[p][h].intervals) for h in CLASS_NAMES] for p in PLAYERS},
                               "any": {p: [_pairs(by[p][h].any_intervals) for h in CLASS_NAMES] for p in PLAYERS}})
    from sflp.atlas.maps import reach_words

    ys = [s["y"] for s in out_structures if s["y"] is not None]
    if continuous:
        a_low = min([*ys, *(float(t.low) for t in ante_paths)])
        a_high = max([*ys, *(float(t.high) for t in ante_paths)])
    return {
        "title": clean_text(title or "Push/fold atlas: exact thresholds across blind structures"),
        "hands": list(CLASS_NAMES),
        "low": low,
        "high": high,
        "axis": axis if continuous else None,
        "axis_range": [a_low, a_high] if continuous else None,
        "structures": out_structures,
        "lines": lines,
        "reach": reach_rows,
        "reach_text": reach_words(traced, len(reach_rows)).strip(),
        "lines_left_out": bool(ante_paths) and not continuous,
        "total": total,
        "total_lines": total_lines if continuous else 0,
        "colours": {"sb": FREQUENCY_FULL["sb"], "bb": FREQUENCY_FULL["bb"],
                    "light": {p: blend(FREQUENCY_FULL[p], "FFFFFF", 0.6) for p in PLAYERS},
                    "legend": [[colour, lab, scale.ink(colour), *faded(colour)] for colour, lab in scale.legend()]},
        "step": _step(low, high),
    }


FADE = 0.28
"""How much of its band colour a cell not played at the slider's stack keeps, over white: the look
the page's old ``opacity: 0.28`` gave, now a colour of its own, so the text can keep its contrast
and a picked cell (outlined) keeps the faded look."""
FADED_INKS = ("57606A", "3D444D", "1B1F24")
"""The text of a faded cell: the page's muted grey where it contrasts at least 4.5:1 with the faded
colour, else a darker grey where that does, else the page's ink (at least 8:1 on any faded colour:
each channel is at least 72 % white).  Grey, not black, keeps the faded look of the darker bands."""


def faded(colour: str) -> tuple[str, str]:
    """The background and the text colour (``RRGGBB``) of a cell of band ``colour`` that is not
    played at the slider's stack: the band colour at :data:`FADE` over white, and the first of
    :data:`FADED_INKS` at a WCAG contrast of at least 4.5 on it (the last one when none is).

    >>> faded("FFFFFF"), faded("000000")
    (('FFFFFF', '57606A'), ('B8B8B8', '3D444D'))
    """
    rgb = [int(colour[k:k + 2], 16) for k in (0, 2, 4)]
    back = "".join(f"{round(FADE * c + (1 - FADE) * 255):02X}" for c in rgb)
    ink = next((i for i in FADED_INKS if contrast(back, i) >= 4.5), FADED_INKS[-1])
    return back, ink


def _step(low: float, high: float) -> float:
    """The stack slider's step: 0.05 bb up to 50 bb of range, coarser for wider ones (about 1,000 steps)."""
    step = 0.05
    while (high - low) / step > 1000:
        step *= 2
    return step


def atlas_html(data: dict) -> str:
    """The page for ``data`` (from :func:`atlas_data`)."""
    blob = script_json(json_text(data, separators=(",", ":"), ensure_ascii=False))  # strict: no NaN
    slots = {"TITLE": _escape(data["title"]), "DATA": blob,
             "STYLE": static_text("atlas.css").removesuffix("\n"),
             "SCRIPT": static_text("atlas.js").removesuffix("\n")}
    # one pass, so text put in one slot (the data, the title) is never read as another slot
    return _SLOT.sub(lambda m: slots[m[1]], static_text("atlas.html"))


def write_atlas_html(path: Path | str, structures: Sequence[tuple[str, object]], ante_paths: Sequence = (), *,
                     title: str | None = None, total: int | None = None, total_lines: int | None = None,
                     reach: Sequence = (), traced=None) -> Path:
    """Write ``atlas.html`` (see the module doc) atomically; returns the path.  ``total`` and
    ``total_lines``: the atlas's counts when ``structures`` and ``ante_paths`` are a part of it."""
    data = atlas_data(structures, ante_paths, title=title, total=total, total_lines=total_lines, reach=reach,
                      traced=traced)
    if not all(math.isfinite(v) for v in (data["low"], data["high"])):
        raise ConfigError("the atlas's stack range is not finite")
    return write_text(path, atlas_html(data))
