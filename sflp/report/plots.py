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

from sflp.atomic import write_with
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
    "svg.fonttype": "none",  # SVG text stays <text>: searchable and selectable
    "pdf.fonttype": 42,  # TrueType fonts embedded in the PDF, text kept as text
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
_LABELS_AS_TEXT = [False]
"""While True, cell labels are real ``Text`` artists (for SVG and PDF: searchable, extractable)."""
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
    if _LABELS_AS_TEXT[0]:
        for x, y, text, size, weight, colour in items:
            ax.text(x, y, text, fontsize=size, fontweight=weight, color=colour, ha="center", va="center",
                    zorder=3)
        return
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


def _threshold_panel(ax, pts: float, tdf: pd.DataFrame, player: str, low: float, high: float,
                     big_labels: bool = True) -> tuple[pd.DataFrame, list[str]]:
    """Draw one player's threshold grid; returns its rows and the ``*`` (multi-interval) hands."""
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
    _draw_cells(ax, colours)
    _draw_text(ax, hands, second, colours, big_labels, pts)
    return rows, [hands[r, c] for r in range(13) for c in range(13) if multi[r, c]]


def _threshold_bar(fig: Figure, rect, low: float, high: float, labelsize: float = 7):
    cax = fig.add_axes(rect)
    norm = LogNorm(vmin=max(low, 1e-9), vmax=high) if high > low > 0 else Normalize(low, high)
    mappable = ScalarMappable(norm=norm, cmap=_threshold_cmap())
    bar = fig.colorbar(mappable, cax=cax)
    ticks = sorted(set([low, *(t for t in (1, 2, 3, 5, 8, 12, 18, 25, 40, 60, 100, 150, 200) if low <= t <= high),
                        high]))
    bar.set_ticks(ticks, labels=[fmt_num(t) for t in ticks])
    bar.minorticks_off()
    bar.ax.tick_params(labelsize=labelsize)
    return bar


def threshold_figure(tdf: pd.DataFrame, player: str, low: float, high: float, structure: str) -> Figure:
    """The threshold chart of one player: colour by ``max_stack``, label in each cell."""
    fig = Figure(figsize=(8.0, 8.8), dpi=DPI)
    FigureCanvasAgg(fig)
    ax, pts = _grid_axes(fig, 0.45, 1.3, 6.7)
    rows, multi_hands = _threshold_panel(ax, pts, tdf, player, low, high)
    fig.suptitle(
        f"{PLAYER_TITLES[player]} thresholds (bb), stacks {fmt_num(low)}-{fmt_num(high)} bb\n{structure}",
        fontsize=11, y=0.985,
    )
    _threshold_bar(fig, (7.3 / 8.0, 1.3 / 8.8, 0.15 / 8.0, 6.7 / 8.8), low, high)
    verb = _VERB[player]
    notes = [
        f"Number: largest stack (bb, truncated to 0.1) at which the hand is {verb} with frequency > 0.5; "
        f"{fmt_num(high)}+ = up to the top of the range; - = never (grey).",
    ]
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
    """Build a figure with ``make(*args, **kwargs)`` under the report style and save it.

    The PNG is drawn with cell labels as cached glyph outlines (fast in Agg); the SVG is built
    a second time with real text, so its hand names and numbers are searchable.
    """
    out = {}
    with matplotlib.rc_context(STYLE):
        for fmt, metadata, as_text in (("png", {"Software": None}, False), ("svg", {"Date": None}, True)):
            fig = _build(make, as_text, *args, **kwargs)
            path = pathlib.Path(out_dir) / f"{stem}.{fmt}"
            write_with(path, lambda tmp: fig.savefig(tmp, format=fmt, dpi=DPI, metadata=metadata))
            out[path.name] = str(path)
    return out


def _build(make, as_text: bool, *args, **kwargs) -> Figure:
    _LABELS_AS_TEXT[0] = as_text
    try:
        return make(*args, **kwargs)
    finally:
        _LABELS_AS_TEXT[0] = False


# ---------------------------------------------------------------- the printable page

A4_LANDSCAPE = (11.69, 8.27)
"""A4 landscape in inches (297 x 210 mm)."""
PDF_METADATA = {"Creator": "sflp", "Producer": "sflp (matplotlib)", "CreationDate": None}
_PAGE_ABOUT_KEYS = ("Stacks", "Hand level", "Max exploitability (bb/hand)", "Threshold breakpoints", "Certificate",
                    "sflp version", "Solver", "Equity table SHA-256")


def chart_page_figure(tdf: pd.DataFrame | None, low: float, high: float, structure: str,
                      about: Sequence[tuple[str, object]] = (), *, ranges: pd.DataFrame | None = None,
                      stack: float | None = None) -> Figure:
    """One A4 landscape page: SB push and BB call threshold grids side by side, the colour
    legend, the configuration, and every ``*`` hand's stack intervals.

    Without thresholds (``tdf`` None) the page shows the SB push / BB call frequency grids of
    ``ranges`` at ``stack`` instead.
    """
    width, height = A4_LANDSCAPE
    fig = Figure(figsize=A4_LANDSCAPE, dpi=DPI)
    FigureCanvasAgg(fig)
    size, left = 4.55, 0.45
    bottom = height - 0.95 - size
    multi: dict[str, list[str]] = {}
    by_player: dict[str, pd.DataFrame] = {}
    for k, player in enumerate(("sb", "bb")):
        ax, pts = _grid_axes(fig, left + k * (size + 0.55), bottom, size)
        ax.tick_params(labelsize=7)
        if tdf is not None:
            by_player[player], multi[player] = _threshold_panel(ax, pts, tdf, player, low, high, big_labels=False)
            ax.set_title(f"{PLAYER_TITLES[player]}: largest stack (bb) with frequency > 0.5", fontsize=10, pad=14)
        else:
            _frequency_panel(ax, pts, ranges, stack, player)
            ax.title.set_fontsize(10)
    if tdf is not None:
        title = f"Heads-up push/fold thresholds, stacks {fmt_num(low)}-{fmt_num(high)} bb, {structure}"
        _threshold_bar(fig, ((left + 2 * size + 0.75) / width, bottom / height, 0.13 / width, size / height),
                       low, high, labelsize=6.5)
    else:
        title = f"Heads-up push/fold equilibrium at {fmt_num(stack)} bb, {structure}"
    fig.text(left / width, 1 - 0.3 / height, title, fontsize=13, fontweight="bold", va="top")

    # left column under the grids: how to read the chart, then the configuration
    info = []
    if tdf is not None:
        info += [
            "How to read: the number is the largest stack (bb, truncated to 0.1) at which the hand is",
            f"played with frequency > 0.5; {fmt_num(high)}+ = up to the top of the range; - = never (grey).",
            "Colour: light yellow (short stacks only) to dark green (up to the top), log scale.",
            "* = played on more than one stack interval (listed on the right). Grid: aces top-left,",
            "pairs on the diagonal, suited above it, offsuit below. Stacks are effective, before posting.",
        ]
    else:
        info += ["Cells: white = never, full colour = always; mixed hands show their frequency.",
                 "Grid: aces top-left, pairs on the diagonal, suited above it, offsuit below."]
    info.append("")
    wanted = dict(about)
    info.append(f"Configuration: {structure}")
    for key in _PAGE_ABOUT_KEYS:
        if key in wanted:
            value = wanted[key]
            text = f"{value:.2g}" if isinstance(value, float) else str(value)
            info += _wrap_hanging(f"{key}: {text}", 84)
    fig.text(left / width, (bottom - 0.45) / height, "\n".join(info), fontsize=6.5, va="top", linespacing=1.35,
             color="#222222")

    # right part: the * hands' intervals, two columns
    if tdf is not None:
        lines = []
        for player in ("sb", "bb"):
            ivs = dict(zip(by_player[player]["hand"], by_player[player]["intervals"]))
            for hand in multi[player]:
                lines.append(f"{PLAYER_TITLES[player].split()[0]} {hand}: {_page_intervals(ivs[hand])}")
        x0, columns, column_width, size_pt = 4.75, 3, 2.25, 5.8
        if lines:
            wrapped = [w for line in lines for w in _wrap_hanging(line, 47)]
            per_column = int((bottom - 0.62 - 0.3) * 72 / (size_pt * 1.3))
            shown = wrapped[: columns * per_column]
            if len(wrapped) > len(shown):
                shown[-1] = f"... {len(wrapped) - len(shown) + 1} more lines in thresholds.csv"
            fig.text(x0 / width, (bottom - 0.45) / height,
                     "* hands: stack intervals (bb, to 0.0001) with frequency > 0.5",
                     fontsize=7, fontweight="bold", va="top")
            for col in range(columns):
                chunk = shown[col * per_column:(col + 1) * per_column]
                if chunk:
                    fig.text((x0 + col * column_width) / width, (bottom - 0.62) / height, "\n".join(chunk),
                             fontsize=size_pt, va="top", linespacing=1.3, color="#222222")
        else:
            fig.text(x0 / width, (bottom - 0.45) / height, "No hand is played on more than one stack interval.",
                     fontsize=7, va="top")
    fig.text(1 - 0.3 / width, 0.2 / height, "sflp: exact heads-up push/fold equilibria", fontsize=6, ha="right",
             color="#666666")
    return fig


def _page_intervals(text: str) -> str:
    """``"1.000000-7.245115;7.261251-7.298881"`` -> ``"1-7.2451, 7.2613-7.2989"``."""
    def short(x: str) -> str:
        return f"{float(x):.4f}".rstrip("0").rstrip(".")

    return ", ".join("-".join(short(x) for x in part.split("-", 1)) for part in filter(None, text.split(";")))


def _wrap_hanging(text: str, width: int) -> list[str]:
    import textwrap

    return textwrap.wrap(text, width, subsequent_indent="    ", break_on_hyphens=False)


def write_chart_pdf(path: pathlib.Path | str, tdf: pd.DataFrame | None, low: float, high: float, structure: str,
                    about: Sequence[tuple[str, object]] = (), *, ranges: pd.DataFrame | None = None,
                    stack: float | None = None) -> pathlib.Path:
    """Write ``chart.pdf``, the one-page A4 landscape chart (:func:`chart_page_figure`), atomically.

    Vector graphics, all text kept as text in embedded TrueType fonts (``pdf.fonttype`` 42), so
    it prints sharp and is searchable; no creation date, so the same inputs give the same bytes.
    """
    if tdf is None and (ranges is None or stack is None):
        raise ValueError("write_chart_pdf needs thresholds, or ranges and a stack")
    with matplotlib.rc_context(STYLE):
        fig = _build(chart_page_figure, True, tdf, low, high, structure, about, ranges=ranges, stack=stack)
        return write_with(path, lambda tmp: fig.savefig(tmp, format="pdf", metadata=PDF_METADATA))
