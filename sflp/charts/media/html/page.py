"""``chart.html``: one self-contained interactive page for browsing a chart set across stacks.

:func:`write_chart_html` writes a single HTML file with no network access at all: the data sit
in the page as one JSON block and a few hundred lines of plain JavaScript draw everything
(no library, no fonts or pictures to fetch).  The page shows

* a **stack slider** over the embedded stacks, with ``-``/``+`` buttons, a number field (type a
  stack, Enter jumps to the nearest stack on the page, as its help says) and keys (left/right arrow
  previous/next stack, Home/End first/last). The page opens at **10 bb** (the embedded stack nearest
  10; a set of one stack at that stack) with the **threshold charts** (a set without thresholds: the
  frequencies); the URL hash ``#stack=12.5`` opens it at the embedded stack nearest 12.5 (a value
  that is not a finite number is ignored), ``&mode=freq`` with the frequencies (``&mode=thr``, the
  default, is still read), ``&hand=sb:43s`` with that cell's details pinned. Every change rewrites
  the hash (``history.replaceState``), so a view can be bookmarked or linked;
* the **SB push and BB call 13x13 grids** at that stack, aces top-left, suited above the
  diagonal, cells shaded white (0) to the player's colour (1) as in the PNGs, mixed frequencies
  written in the cell, or the exact **threshold charts**: labels, marks, colours, legend and the
  notes under each grid by the one rule of :mod:`sflp.charts.scale` (stepped bands, a top colour
  of its own for the ``N+`` hands, white with ``-`` for never; the number is the largest text of
  the cell, whole bb from 100 bb, and its mark ``*`` or ``†`` follows it; the ``†`` hands' played
  stretches stand under the grid, the ``*`` hands' fold into a summary line there); cell text is
  black or white by WCAG contrast (:meth:`sflp.charts.scale.ChartScale.ink`); the stats bar gives
  SB's value and the push / call percentages at the stack;
* for the hand under the pointer, tapped or focused: its frequency and EV margin at the stack and
  its exact stack intervals from the thresholds (frequency > 0.5 and > 0), in the detail panel (at
  least a hand's six lines high, so for most hands the curves below never move; a longer list shows
  whole, wrapped).  Below 1200 px, where the panel is under the grids, a short tooltip (hand,
  frequency, EV margin, the > 0.5 intervals) is kept inside the viewport (below 700 px wide it
  spans the width and stands just below or just above the grid being read, whichever fits nearer
  the hand; at the top or bottom edge away from the hand only when neither fits); from 1200 px the
  panel beside the grids shows the hand and there is no tooltip;
* the **value-by-stack curve** and the push / call percentages, drawn as inline SVG that scales
  to its column, with a marker at the current stack (click the curve to jump there).  A curve is a
  line only over at least 12 stacks none more than 1 bb apart; fewer or sparser stacks are drawn as
  points, since the values bend between solved stacks and a line would draw shapes (a 4-stack
  chart's "peak") that no solve gave;
* the configuration (the ``About`` items of the set).

Size and speed.  Frequencies are stored as integers 0..1000 (0.1 % steps) and EV margins as
integers in 1/10,000 bb (4 decimals; a margin that is not 0 but rounds to 0 as +-0.1, so its sign
survives: the page prints every margin by :func:`sflp.checks.margin_text`'s rule), per stack as two
arrays of 169 numbers, so 481 stacks take about 1.5 MB.  A chart set can hold 100,000 stacks, so at
most ``max_stacks`` (default 1,000) grid stacks are embedded, chosen evenly by position among the
stacks of ``ranges`` and always including the first and last; the curve keeps at most
``max_curve_points`` points the same way.  In a chart set the page holds the stacks of the
workbook's ``Values`` sheet (at most :data:`sflp.charts.about.MAX_SHEET_STACKS`, 500, with the grid
stacks), so the 1,000 cap is not reached there.  The page says which stacks it holds out of how
many were solved, and in which files of the set the rest is (``coverage``, from
:func:`sflp.charts.about.subset_notes`).

Layout (``chart.css``).  From 1200 px wide the detail panel (hand details and curves) stands
beside the grids (and stays in view when the page scrolls), narrower it goes below them; the grids
take the rest of the width, each fills its column and its cells and text scale with the column's
width (CSS container units), so at 390 px (a phone) nothing scrolls sideways, the threshold grid
shows all 13 columns and no label of a 1-200 bb chart overflows its cell.

Keyboard and screen readers (``chart.js``).  Each grid is a table (``role="grid"``) with a caption
and ``scope``-d rank headers, and is one Tab stop (roving tabindex).  When a cell has focus the
arrow keys move between cells (Home/End: the row's ends), ``-``/``+`` step the stack and Enter
pins the hand; anywhere else (not in a text field, the slider or the mode switch) the arrow keys
step the stack.  Every cell has an ``aria-label``: ``"AKs, SB push 100 %, EV margin +1.23 bb"``,
in threshold mode ``"T3s, SB push up to 7.2 bb, more than one interval"`` or ``"72o, SB never
pushes"``.

Page kinds (:func:`page_kind`).  An equilibrium set is headed "Heads-up push/fold equilibrium";
an exploitative set (``sflp exploit --stacks``, written with a ``title``) is headed by the hero's
best response to the locked player, marked "Exploitative, not an equilibrium", and its grids are
"SB best response (push)" / "BB locked (call)" (or the other way round).  A set of one stack
shows no slider, stack field, mode switch or curves.

Every cell carries ``data-hand``, ``data-freq`` (0..1000) and ``data-ev`` attributes, and the
page's state is in ``#stack-value`` / ``data-stack`` attributes, so a test can read the DOM a
real browser produced (``tests/test_chart_html.py`` does, with headless Chromium, and measures
the layout at 390x844 and 1400x900, every threshold label of a 1-200 bb chart against its cell).

The page's code lives in package data, not in Python strings: ``sflp/charts/media/html/static/`` holds
``chart.html`` (the page skeleton), ``chart.css`` and ``chart.js``, read with
:mod:`importlib.resources` (so they are found in a wheel too).  The skeleton has five slots:
``__TITLE__``, ``__HEADING__`` (the ``h1``), ``__DATA__`` (the JSON block), and ``__STYLE__`` /
``__SCRIPT__``, each on a line of its own, where the CSS and the JavaScript are written inline, so
the page stays one file.  Edit the JavaScript as a normal ``.js`` file; the tests parse it (``node --check``) and run it
in Chromium.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from importlib.resources import files
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pandas as pd

from sflp.atomic import write_text
from sflp.charts.colors import FREQUENCY_FULL
from sflp.charts.frames import PLAYERS
from sflp.charts.scale import ChartScale, chart_scale, footnotes
from sflp.charts.stacks import PAGE_CURVE_POINTS, PAGE_STACKS
from sflp.core.cards import CLASS_INDEX as _CLASS_INDEX
from sflp.core.cards import CLASS_NAMES
from sflp.errors import ConfigError
from sflp.output.clean import clean_text

MAX_STACKS = PAGE_STACKS
"""Most grid stacks a page embeds (chosen evenly, ends included; 1,000)."""
MAX_CURVE_POINTS = PAGE_CURVE_POINTS
"""Most points of the value curve a page embeds (4,000)."""
FREQ_SCALE = 1000
EV_SCALE = 10_000
STATIC_FILES = ("chart.html", "chart.css", "chart.js")
"""The page's files in ``sflp/charts/media/html/static/`` (package data): skeleton, style, code."""
_SLOT = re.compile(r"__(TITLE|HEADING|DATA|STYLE|SCRIPT)__")
"""The skeleton's slots (see the module doc)."""


def even_positions(n: int, cap: int) -> np.ndarray:
    """At most ``cap`` indices of ``range(n)`` spread evenly, always with 0 and n - 1.

    >>> even_positions(5, 10).tolist(), even_positions(11, 3).tolist(), even_positions(1, 3).tolist()
    ([0, 1, 2, 3, 4], [0, 5, 10], [0])
    """
    if n <= cap:
        return np.arange(n)
    cap = max(cap, 2)
    return np.unique(np.round(np.linspace(0, n - 1, cap)).astype(np.int64))


def _ev_column(ranges: pd.DataFrame) -> str:
    for name in ("ev_margin", "ev"):
        if name in ranges.columns:
            return name
    raise ConfigError("the ranges frame needs an 'ev_margin' (or 'ev') column")


def _scaled(values: np.ndarray, scale: int) -> list:
    """Rounded integers (``round(v * scale)``), ``None`` for NaN."""
    out = np.round(np.asarray(values, dtype=np.float64) * scale)
    return [None if math.isnan(v) else int(v) for v in out.tolist()]


def _scaled_margins(values: np.ndarray) -> list:
    """EV margins as :func:`_scaled` integers in 1/:data:`EV_SCALE` bb, except that a margin which is
    not 0 but rounds to 0 is stored as +-0.1, so its sign reaches the page (``+0.0000`` /
    ``−0.0000``, :func:`sflp.checks.margin_text`'s rule); an exact 0 stays 0.

    >>> _scaled_margins(np.array([0.0123, -0.00001, 0.0, 0.00002, float("nan")]))
    [123, -0.1, 0, 0.1, None]
    """
    values = np.asarray(values, dtype=np.float64)
    out = _scaled(values, EV_SCALE)
    return [(0.1 if v > 0 else -0.1) if n == 0 and v != 0 else n for n, v in zip(out, values.tolist())]


# Long on purpose: the page's JSON object field by field, in the order the module doc gives the encoding.
def chart_data(values: pd.DataFrame, ranges: pd.DataFrame, tdf: pd.DataFrame | None, structure: str,
               about: Sequence[tuple[str, object]], *, max_stacks: int = MAX_STACKS,
               max_curve_points: int = MAX_CURVE_POINTS, title: str | None = None, low: float | None = None,
               high: float | None = None) -> dict:
    """The JSON object embedded in the page (see the module doc for the encoding).  The title, the
    structure and the ``about`` texts are the user's: cleaned by
    :func:`~sflp.output.clean.clean_text` (a file name that is not UTF-8 shows U+FFFD).  ``low`` /
    ``high`` are the thresholds' range (default: the frame's ``attrs``, else the first and last
    stack); the threshold cells' labels, marks, colours, the legend and the notes under each grid
    follow :mod:`sflp.charts.scale` on that range."""
    title = None if title is None else clean_text(title)
    structure = clean_text(structure)
    about = [(clean_text(k), v if isinstance(v, (int, float)) and not isinstance(v, bool) else clean_text(v))
             for k, v in about]
    ev_col = _ev_column(ranges)
    stacks_all = np.unique(ranges["stack"].to_numpy(dtype=np.float64))
    if len(stacks_all) == 0:
        raise ConfigError("no stacks to put in chart.html")
    chosen = stacks_all[even_positions(len(stacks_all), max_stacks)]
    rows = ranges[ranges["stack"].isin(chosen)]
    hand_ids = rows["hand"].map(_CLASS_INDEX).to_numpy()
    stack_pos = np.searchsorted(chosen, rows["stack"].to_numpy(dtype=np.float64))
    player_pos = rows["player"].map({p: k for k, p in enumerate(PLAYERS)}).to_numpy()
    freq = np.full((len(chosen), 2, 169), np.nan)
    ev = np.full((len(chosen), 2, 169), np.nan)
    freq[stack_pos, player_pos, hand_ids] = rows["frequency"].to_numpy(dtype=np.float64)
    ev[stack_pos, player_pos, hand_ids] = rows[ev_col].to_numpy(dtype=np.float64)
    if np.isnan(freq).any():
        raise ConfigError("the ranges frame must hold every hand of both players at each of its stacks")

    vals = values.sort_values("stack")
    keep = even_positions(len(vals), max_curve_points)
    vals = vals.iloc[keep]
    curve = {
        "stack": [float(s) for s in vals["stack"]],
        "value": [round(float(v), 6) for v in vals["value"]],
        "push": [round(float(v), 3) for v in vals["push_pct"]],
        "call": [round(float(v), 3) for v in vals["call_pct"]],
    }
    low = float(low if low is not None else tdf.attrs.get("low", curve["stack"][0]) if tdf is not None
                else curve["stack"][0])
    high = float(high if high is not None else tdf.attrs.get("high", curve["stack"][-1]) if tdf is not None
                 else curve["stack"][-1])
    scale = chart_scale(high, low)
    thresholds = notes = None
    if tdf is not None:
        hands = threshold_hands(tdf)
        thresholds = {p: [threshold_cell(hands[p][h], scale) for h in CLASS_NAMES] for p in PLAYERS}
        notes = {p: footnotes([hands[p][h] for h in CLASS_NAMES], high, low) for p in PLAYERS}
    return {
        "structure": structure,
        "page": page_kind(title, about),
        "about": [[k, v] for k, v in about],
        "hands": list(CLASS_NAMES),
        "stacks": [float(s) for s in chosen],
        "solved": int(len(values)),
        "given": int(len(stacks_all)),
        "freq_scale": FREQ_SCALE,
        "ev_scale": EV_SCALE,
        "sb": [_scaled(freq[k, 0], FREQ_SCALE) for k in range(len(chosen))],
        "bb": [_scaled(freq[k, 1], FREQ_SCALE) for k in range(len(chosen))],
        "sb_ev": [_scaled_margins(ev[k, 0]) for k in range(len(chosen))],
        "bb_ev": [_scaled_margins(ev[k, 1]) for k in range(len(chosen))],
        "curve": curve,
        "thresholds": thresholds,
        "notes": notes,
        "low": low,
        "high": high,
        "colours": {"sb": FREQUENCY_FULL["sb"], "bb": FREQUENCY_FULL["bb"],
                    # the threshold legend of sflp.charts.scale, in order: [colour, label, ink]
                    "legend": [[colour, label, scale.ink(colour)] for colour, label in scale.legend()]},
    }


class PageHand(NamedTuple):
    """One row of the thresholds frame as :func:`sflp.charts.scale.footnotes` reads it."""

    player: str
    hand: str
    max_stack: float | None
    capped: bool
    intervals: tuple[tuple[float, float], ...]
    any_intervals: tuple[tuple[float, float], ...]
    label: str
    """The frame's number (the certified floor to 0.1 bb), given to the scale as ``exact_label``."""


def threshold_hands(tdf: pd.DataFrame) -> dict[str, dict[str, PageHand]]:
    """The thresholds frame as ``{player: {hand: PageHand}}``."""
    out: dict[str, dict[str, PageHand]] = {p: {} for p in PLAYERS}
    for row in tdf.itertuples(index=False):
        top = None if math.isnan(float(row.max_stack)) else float(row.max_stack)
        out[row.player][row.hand] = PageHand(row.player, row.hand, top, bool(row.capped), _intervals(row.intervals),
                                             _intervals(row.any_intervals), str(row.label))
    return out


def threshold_cell(hand: PageHand, scale: ChartScale) -> list:
    """A threshold cell of the page: ``[number, mark, intervals, any_intervals, max_stack, band]``, the
    label and the colour by the one rule of :mod:`sflp.charts.scale`; ``band`` indexes the legend
    (:meth:`~sflp.charts.scale.ChartScale.legend`: the bands, then the top, then *never*).

    >>> from sflp.charts.scale import chart_scale
    >>> s = chart_scale(25, 1)
    >>> threshold_cell(PageHand("sb", "63s", 7.16, False, ((1.0, 2.39), (5.07, 7.16)), (), "7.1"), s)
    ['7.1', '†', [[1.0, 2.39], [5.07, 7.16]], [], 7.16, 3]
    >>> aa = threshold_cell(PageHand("sb", "AA", 25.0, True, ((1.0, 25.0),), (), "25+"), s)
    >>> aa[:2], s.legend()[aa[5]] == (s.top.colour, "25+")
    (['25+', ''], True)
    """
    label = scale.label(hand.max_stack, hand.capped, hand.intervals, exact_label=_exact(hand))
    chosen = scale.band(hand.max_stack, hand.capped)
    band = next(k for k, b in enumerate((*scale.bands, scale.top, scale.never)) if b is chosen)
    return [label.number, label.mark, [list(p) for p in hand.intervals], [list(p) for p in hand.any_intervals],
            None if hand.max_stack is None else round(hand.max_stack, 6), band]


def _exact(hand: PageHand) -> str | None:
    """The frame's number when it is one (not ``"25+"`` or ``"-"``)."""
    try:
        float(hand.label)
    except ValueError:
        return None
    return hand.label


def page_kind(title: str | None, about: Sequence[tuple[str, object]]) -> dict:
    """The page's headings: what kind of set it is and what each grid shows.

    An equilibrium set (``title`` None) is "Heads-up push/fold equilibrium" with grids "SB push"
    and "BB call".  An exploitative set (``sflp exploit --stacks``: ``title`` from
    :func:`sflp.views.text.exploit_sweep_title`, the locked player in the ``About`` item
    ``Locked player`` that :meth:`sflp.study.exploit.ExploitSweep.about` adds) is headed by the
    hero's best response, and its grids say which player is the best response and which is locked.
    Any other title is used as the heading as it is.

    >>> page_kind(None, [])["names"]
    {'sb': 'SB push', 'bb': 'BB call'}
    >>> about = [("Locked player", "BB"), ("Locked strategy", "30%")]
    >>> k = page_kind("Exploitative: SB vs BB locked to '30%'", about)
    >>> k["h1"], k["lead"]
    ("SB's best response to a locked BB", "BB locked to '30%'")
    >>> k["names"]
    {'sb': 'SB best response (push)', 'bb': 'BB locked (call)'}
    """
    names = {"sb": "SB push", "bb": "BB call"}
    if not title:
        return {"kind": "equilibrium", "h1": "Heads-up push/fold equilibrium", "title": "sflp push/fold chart",
                "names": names, "badge": None, "lead": None}
    items = {str(k): v for k, v in about}
    locked = str(items.get("Locked player", "")).lower()
    if locked not in ("sb", "bb"):
        return {"kind": "titled", "h1": title, "title": f"sflp push/fold chart, {title}", "names": names,
                "badge": None, "lead": None}
    hero = "bb" if locked == "sb" else "sb"
    verb = {"sb": "push", "bb": "call"}
    source = items.get("Locked strategy")
    return {
        "kind": "exploitative",
        "h1": f"{hero.upper()}'s best response to a locked {locked.upper()}",
        "title": f"sflp exploitative chart, {title.removeprefix('Exploitative: ')}",
        "names": {hero: f"{hero.upper()} best response ({verb[hero]})",
                  locked: f"{locked.upper()} locked ({verb[locked]})"},
        "badge": "Exploitative, not an equilibrium",
        "lead": f"{locked.upper()} locked to {str(source)!r}" if source is not None else f"{locked.upper()} locked",
    }


def _intervals(text: str) -> tuple[tuple[float, float], ...]:
    """``"1.000000-7.240000;7.27-7.29"`` -> ``((1, 7.24), (7.27, 7.29))``."""
    out = []
    for part in filter(None, str(text).split(";")):
        lo, hi = part.split("-", 1)
        out.append((float(lo), float(hi)))
    return tuple(out)


def static_text(name: str) -> str:
    """The text of ``sflp/charts/media/html/static/<name>`` (one of :data:`STATIC_FILES`), ``\\n`` line ends."""
    return (files("sflp.charts.media.html") / "static" / name).read_text(encoding="utf-8")


def chart_html(data: dict) -> str:
    """The page for ``data`` (from :func:`chart_data`)."""
    # plain numbers built above (NaN already None): json.dumps directly, strict, not through
    # sflp.output.clean.json_ready, whose copy would double the cost of this large blob
    blob = script_json(json.dumps(data, separators=(",", ":"), allow_nan=False, ensure_ascii=False))
    page = data["page"]
    slots = {"TITLE": _escape(f"{page['title']}, {data['structure']}"), "HEADING": _escape(page["h1"]), "DATA": blob,
             # the skeleton ends these two slots' lines itself, so not the files' last newline too
             "STYLE": static_text("chart.css").removesuffix("\n"),
             "SCRIPT": static_text("chart.js").removesuffix("\n")}
    # one pass, so text put in one slot (the data, the title) is never read as another slot
    return _SLOT.sub(lambda m: slots[m[1]], static_text("chart.html"))


_SCRIPT_SAFE = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028",
                              "\u2029": "\\u2029"})
"""What :func:`script_json` escapes: the HTML parser reads ``<`` (``</script``, ``<!--``, ``<script``)
inside a script element, ``&`` and ``>`` matter to older parsers, and U+2028 / U+2029 end a line
in JavaScript before ES2019."""


def script_json(blob: str) -> str:
    r"""JSON text made safe inside a ``<script>`` element: every ``<``, ``>``, ``&``, U+2028 and
    U+2029 written as its ``\uXXXX`` escape.  Outside strings JSON has none of these, and inside a
    string the escape means the same character, so ``JSON.parse`` reads the same data; the HTML
    parser sees no ``</script``, ``<!--`` or ``<script`` (a strategy named ``<!--<script>`` once
    put Chromium's parser in its escaped state and the page rendered empty).

    >>> print(script_json('{"t":"<!--<script></script>&"}'))
    {"t":"\u003c!--\u003cscript\u003e\u003c/script\u003e\u0026"}
    """
    return blob.translate(_SCRIPT_SAFE)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def write_chart_html(path: Path | str, values: pd.DataFrame, ranges: pd.DataFrame, tdf: pd.DataFrame | None,
                     structure: str, about: Sequence[tuple[str, object]], *, low: float | None = None,
                     high: float | None = None, max_stacks: int = MAX_STACKS, title: str | None = None,
                     coverage: Sequence[str] = ()) -> Path:
    """Write ``chart.html`` (see the module doc) atomically; returns the path.

    ``values`` is the tidy values frame (all solved stacks), ``ranges`` the tidy ranges frame
    (``ev`` or ``ev_margin`` column) for any subset of stacks, ``tdf`` the thresholds frame or
    None, ``about`` the configuration items; ``low``/``high`` the threshold range (default: the
    values' first and last stack); ``title`` the set's title (None: an equilibrium set; see
    :func:`page_kind`).  ``coverage`` are the notes of what the page leaves out and where it is
    (:func:`sflp.charts.about.subset_notes`), shown above the grids; without them a page that
    holds part of the stacks says how many, and no more.
    """
    data = chart_data(values, ranges, tdf, structure, about, max_stacks=max_stacks, title=title, low=low, high=high)
    data["coverage"] = [clean_text(t) for t in coverage]
    return write_text(path, chart_html(data))
