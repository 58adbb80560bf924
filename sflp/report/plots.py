"""Pictures (matplotlib, Agg canvas, no pyplot state): threshold charts, range grids, EV curve.

Every picture is written twice, ``<stem>.png`` and ``<stem>.svg``, atomically, and as
deterministically as matplotlib allows: PNG without the ``Software`` text chunk, SVG without
its date and with a fixed ``svg.hashsalt``, fixed fonts and sizes (a private ``rc_context``, so
the caller's matplotlib settings neither leak in nor get changed).  With the same matplotlib and
FreeType versions the same inputs give byte-identical files.

Grids use the HoldemResources orientation: aces top-left, suited hands above the diagonal,
offsuit below.  Cells are vector polygons (crisp in SVG); the 169 cell labels are drawn from
cached DejaVu Sans glyph outlines, one path collection per glyph, which renders about ten times
faster than hundreds of ``Text`` artists and defines each glyph once in the SVG.
"""

from __future__ import annotations

import math
import pathlib
from collections.abc import Sequence

import matplotlib
import numpy as np
import pandas as pd
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.cm import ScalarMappable
from matplotlib.collections import PathCollection, PolyCollection
from matplotlib.colors import LinearSegmentedColormap, LogNorm, Normalize
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties, findfont, get_font
try:  # matplotlib >= 3.10
    from matplotlib.ft2font import LoadFlags

    _NO_HINTING = LoadFlags.NO_HINTING
except ImportError:  # matplotlib 3.8 / 3.9: the same flag as a module constant
    from matplotlib.ft2font import LOAD_NO_HINTING as _NO_HINTING
from matplotlib.path import Path
from matplotlib.transforms import Affine2D

from sflp.report.atomic import write_with
from sflp.report.colors import (
    THRESHOLD_ANCHORS,
    frequency_colour,
    text_colour,
    threshold_colour,
)
from sflp.report.frames import GRID_RANKS, PLAYER_TITLES, fmt_num, grid_from_tidy, select

STYLE = {
    "font.family": "DejaVu Sans",
    "font.size": 9,
    "axes.titlesize": 11,
    "axes.labelsize": 9,
    "svg.hashsalt": "sflp",
    "svg.fonttype": "path",
    "path.simplify": True,
    "axes.unicode_minus": True,
}
DPI = 120
_VERB = {"sb": "pushed", "bb": "called"}
MAX_FOOTNOTE_HANDS = 6


def _hex(c: str) -> str:
    return "#" + c


def _grid_axes(fig: Figure, left_in: float, bottom_in: float, size_in: float):
    """A square 13x13 grid axes placed in inches; returns it and the points per grid cell."""
    w, h = fig.get_size_inches()
    ax = fig.add_axes((left_in / w, bottom_in / h, size_in / w, size_in / h))
    ax.set_xlim(0, 13)
    ax.set_ylim(13, 0)
    ax.set_xticks(np.arange(13) + 0.5, labels=list(GRID_RANKS))
    ax.set_yticks(np.arange(13) + 0.5, labels=list(GRID_RANKS))
    ax.tick_params(length=0, labeltop=True, labelbottom=False, labelsize=8)
    for spine in ax.spines.values():
        spine.set_visible(False)
    return ax, size_in * 72 / 13


_CELLS = np.array(
    [[(c, r), (c + 1, r), (c + 1, r + 1), (c, r + 1)] for r in range(13) for c in range(13)], dtype=np.float64
)


def _draw_cells(ax, colours: np.ndarray) -> None:
    faces = [_hex(colours[r, c]) for r in range(13) for c in range(13)]
    ax.add_collection(PolyCollection(_CELLS, facecolors=faces, edgecolors="white", linewidths=0.8), autolim=False)


# Cell texts are drawn as one PathCollection of glyph outlines (cached per character) instead of
# hundreds of Text artists: about ten times faster to render in both PNG and SVG, and identical
# in both.  Kerning is ignored, which is invisible for two- to four-character cell labels.
_FONT_UNITS = 100.0
_GLYPHS: dict[tuple[str, str], tuple[np.ndarray, np.ndarray, float]] = {}


def _glyph(ch: str, weight: str) -> tuple[np.ndarray, np.ndarray, float]:
    """Outline (vertices per 1 pt of font size, codes) and advance of one DejaVu Sans glyph."""
    key = (ch, weight)
    if key not in _GLYPHS:
        font = get_font(findfont(FontProperties(family="DejaVu Sans", weight=weight)))
        font.set_size(_FONT_UNITS, 72)
        glyph = font.load_char(ord(ch), flags=_NO_HINTING)
        verts, codes = font.get_path()
        advance = glyph.linearHoriAdvance / 65536 / _FONT_UNITS
        _GLYPHS[key] = (np.asarray(verts, dtype=np.float64) / _FONT_UNITS, np.asarray(codes), advance)
    return _GLYPHS[key]


def _cap_height(weight: str) -> float:
    return float(_glyph("H", weight)[0][:, 1].max())


def _text_width(text: str, weight: str) -> float:
    return sum(_glyph(ch, weight)[2] for ch in text)


def _draw_labels(ax, items: list[tuple[float, float, str, float, str, str]], pts_per_unit: float) -> None:
    """Draw ``(x, y, text, size_pt, weight, colour)`` items centred at data point ``(x, y)``.

    One PathCollection per distinct glyph (character, size, weight) with one offset per
    occurrence: the SVG defines each glyph once.  ``pts_per_unit`` converts points to data
    units (the axes are square and fixed in inches; the y axis points down).
    """
    groups: dict[tuple[str, float, str], tuple[list, list]] = {}
    for x, y, text, size, weight, colour in items:
        cap = _cap_height(weight) * size
        pos = -_text_width(text, weight) * size / 2
        for ch in text:
            v, _, advance = _glyph(ch, weight)
            if len(v):
                offsets, colours = groups.setdefault((ch, size, weight), ([], []))
                offsets.append((x + pos / pts_per_unit, y + cap / 2 / pts_per_unit))
                colours.append(colour)
            pos += advance * size
    to_pixels = Affine2D().scale(1 / 72) + ax.figure.dpi_scale_trans
    for (ch, size, weight), (offsets, colours) in sorted(groups.items()):
        v, c, _ = _glyph(ch, weight)
        coll = PathCollection(
            [Path(v * size, c)],
            offsets=np.array(offsets, dtype=np.float64),
            offset_transform=ax.transData,
            facecolors=colours,
            edgecolors="none",
            linewidths=0,
            zorder=3,
        )
        coll.set_transform(to_pixels)
        coll.set_snap(False)  # Agg would snap rectilinear glyphs (T, L, E) and could drop thin bars
        ax.add_collection(coll, autolim=False)


def _draw_text(ax, hands: np.ndarray, second: np.ndarray, colours: np.ndarray, big_second: bool,
               pts_per_unit: float) -> None:
    """Hand name in the upper part of each cell and ``second`` (a label or percentage) below."""
    items = []
    for r in range(13):
        for c in range(13):
            ink = _hex(text_colour(colours[r, c]))
            extra = second[r, c]
            if extra:
                items.append((c + 0.5, r + 0.3, hands[r, c], 6.5, "normal", ink))
                items.append((c + 0.5, r + 0.7, extra, 8.5 if big_second else 6.5,
                              "bold" if big_second else "normal", ink))
            else:
                items.append((c + 0.5, r + 0.5, hands[r, c], 7.5, "normal", ink))
    _draw_labels(ax, items, pts_per_unit)


def _threshold_cmap() -> LinearSegmentedColormap:
    return LinearSegmentedColormap.from_list("sflp_thresholds", [_hex(a) for a in THRESHOLD_ANCHORS])


def threshold_figure(tdf: pd.DataFrame, player: str, low: float, high: float, structure: str) -> Figure:
    """The threshold chart of one player: colour by ``max_stack``, label in each cell."""
    rows = select(tdf, player=player)
    labels = grid_from_tidy(rows, "label").to_numpy()
    max_stack = grid_from_tidy(rows, "max_stack").to_numpy(dtype=np.float64)
    multi = grid_from_tidy(rows, "multi").to_numpy(dtype=bool)
    hands = grid_from_tidy(rows, "hand").to_numpy()
    colours = np.empty((13, 13), dtype=object)
    second = np.empty((13, 13), dtype=object)
    for r in range(13):
        for c in range(13):
            ms = max_stack[r, c]
            colours[r, c] = threshold_colour(None if math.isnan(ms) else ms, low, high)
            second[r, c] = labels[r, c] + ("*" if multi[r, c] else "")
    fig = Figure(figsize=(8.0, 8.8), dpi=DPI)
    FigureCanvasAgg(fig)
    ax, pts = _grid_axes(fig, 0.45, 1.3, 6.7)
    _draw_cells(ax, colours)
    _draw_text(ax, hands, second, colours, True, pts)
    fig.suptitle(
        f"{PLAYER_TITLES[player]} thresholds (bb), stacks {fmt_num(low)}-{fmt_num(high)} bb\n{structure}",
        fontsize=11, y=0.985,
    )
    cax = fig.add_axes((7.3 / 8.0, 1.3 / 8.8, 0.15 / 8.0, 6.7 / 8.8))
    norm = LogNorm(vmin=max(low, 1e-9), vmax=high) if high > low > 0 else Normalize(low, high)
    mappable = ScalarMappable(norm=norm, cmap=_threshold_cmap())
    bar = fig.colorbar(mappable, cax=cax)
    ticks = [t for t in (1, 2, 3, 5, 8, 12, 18, 25, 40, 60, 100, 150, 200) if low <= t <= high]
    bar.set_ticks(sorted(set([low, *ticks, high])), labels=[fmt_num(t) for t in sorted(set([low, *ticks, high]))])
    bar.minorticks_off()
    bar.ax.tick_params(labelsize=7)
    verb = _VERB[player]
    notes = [
        f"Number: largest stack (bb, truncated to 0.1) at which the hand is {verb} with frequency > 0.5; "
        f"{fmt_num(high)}+ = up to the top of the range; - = never (grey).",
    ]
    multi_hands = [hands[r, c] for r in range(13) for c in range(13) if multi[r, c]]
    if multi_hands:
        by_hand = {h: iv for h, iv in zip(rows["hand"], rows["intervals"])}
        shown = [f"{h} {_short_intervals(by_hand[h])}" for h in multi_hands[:MAX_FOOTNOTE_HANDS]]
        more = len(multi_hands) - len(shown)
        notes.append("* more than one stack interval with frequency > 0.5: " + "; ".join(shown)
                     + (f"; and {more} more (see thresholds.csv)" if more else "") + " bb")
    fig.text(0.45 / 8.0, 1.1 / 8.8, "\n".join(_wrap(n, 120) for n in notes), fontsize=7, va="top", color="#333333")
    return fig


def _short_intervals(text: str) -> str:
    """``"1.000000-7.240000;7.270000-7.290000"`` -> ``"1-7.24, 7.27-7.29"``."""
    parts = []
    for part in filter(None, text.split(";")):
        lo, hi = part.split("-", 1)
        parts.append(f"{float(lo):g}-{float(hi):g}")
    return ", ".join(parts)


def _wrap(text: str, width: int) -> str:
    import textwrap

    return "\n".join(textwrap.wrap(text, width))


def _frequency_panel(ax, pts: float, ranges: pd.DataFrame, stack: float, player: str) -> None:
    ranges = select(ranges, stack=stack, player=player)
    freq = grid_from_tidy(ranges, "frequency").to_numpy(dtype=np.float64)
    hands = grid_from_tidy(ranges, "hand").to_numpy()
    colours = np.empty((13, 13), dtype=object)
    second = np.empty((13, 13), dtype=object)
    for r in range(13):
        for c in range(13):
            f = freq[r, c]
            colours[r, c] = frequency_colour(f, player)
            second[r, c] = f"{100 * f:.0f}%" if 1e-9 < f < 1 - 1e-9 else ""
    _draw_cells(ax, colours)
    _draw_text(ax, hands, second, colours, False, pts)
    ax.set_title(f"{PLAYER_TITLES[player]} at {fmt_num(stack)} bb: {_combo_pct(ranges):.1f}% of hands", pad=18)


def _combo_pct(rows: pd.DataFrame) -> float:
    from sflp.cards import CLASS_NAMES, CLASS_SIZES

    sizes = dict(zip(CLASS_NAMES, CLASS_SIZES.tolist()))
    w = np.array([sizes[h] for h in rows["hand"]], dtype=np.float64)
    return float(100 * (w @ rows["frequency"].to_numpy(dtype=np.float64)) / w.sum())


def range_figure(ranges: pd.DataFrame, stack: float, structure: str, players: Sequence[str] = ("sb", "bb"),
                 kind: str = "Equilibrium") -> Figure:
    """Frequency grids at one stack, one panel per player (SB push, BB call); ``kind`` heads the title."""
    n = len(players)
    ranges = select(ranges, stack=stack)
    fig = Figure(figsize=(7.2 * n, 7.8), dpi=DPI)
    FigureCanvasAgg(fig)
    for k, player in enumerate(players):
        ax, pts = _grid_axes(fig, 0.35 + 7.2 * k, 0.3, 6.6)
        _frequency_panel(ax, pts, ranges, stack, player)
    fig.suptitle(f"{kind} ranges at {fmt_num(stack)} bb, {structure}", fontsize=12, y=0.985)
    return fig


def value_figure(values: pd.DataFrame, structure: str) -> Figure:
    """SB's value and the push / call percentages against the stack."""
    fig = Figure(figsize=(8, 6.4), dpi=DPI)
    FigureCanvasAgg(fig)
    top, bottom = fig.subplots(2, 1, sharex=True, gridspec_kw={"height_ratios": (3, 2)})
    stacks = values["stack"].to_numpy(dtype=np.float64)
    marker = "o" if len(stacks) <= 40 else None
    top.plot(stacks, values["value"].to_numpy(dtype=np.float64), color="#1A9850", lw=1.6, marker=marker, ms=3)
    top.axhline(0, color="#999999", lw=0.8)
    top.set_ylabel("SB value (bb per hand)")
    top.set_title(f"Game value by stack, {structure}")
    top.grid(True, lw=0.4, alpha=0.6)
    bottom.plot(stacks, values["push_pct"].to_numpy(dtype=np.float64), color="#2EA043", lw=1.4, label="SB push %",
                marker=marker, ms=3)
    bottom.plot(stacks, values["call_pct"].to_numpy(dtype=np.float64), color="#3182BD", lw=1.4, label="BB call %",
                marker=marker, ms=3)
    bottom.set_ylim(0, 100)
    bottom.set_ylabel("% of hands")
    bottom.set_xlabel("effective stack (bb, before posting)")
    bottom.grid(True, lw=0.4, alpha=0.6)
    bottom.legend(loc="upper right", frameon=False)
    fig.align_ylabels([top, bottom])
    fig.subplots_adjust(left=0.11, right=0.97, top=0.93, bottom=0.09, hspace=0.08)
    return fig


def save_figure(fig: Figure, out_dir: pathlib.Path | str, stem: str) -> dict[str, str]:
    """Write ``<stem>.png`` and ``<stem>.svg`` into ``out_dir`` atomically; name -> path."""
    out = {}
    with matplotlib.rc_context(STYLE):
        for fmt, metadata in (("png", {"Software": None}), ("svg", {"Date": None})):
            path = pathlib.Path(out_dir) / f"{stem}.{fmt}"
            write_with(path, lambda tmp: fig.savefig(tmp, format=fmt, dpi=DPI, metadata=metadata))
            out[path.name] = str(path)
    return out


def render(make, out_dir: pathlib.Path | str, stem: str, *args, **kwargs) -> dict[str, str]:
    """Build a figure with ``make(*args, **kwargs)`` under the report style and save it."""
    with matplotlib.rc_context(STYLE):
        fig = make(*args, **kwargs)
        return save_figure(fig, out_dir, stem)
