"""Notebook views: headed 13x13 HTML grids for ``Range``, ``Solution`` and ``Thresholds``.

One builder, :func:`html_grid`, makes every grid: rank headers on top and on the left (aces
first; pairs on the diagonal, suited hands above it, offsuit below), each cell's background
*and* text colour set explicitly (black or white, whichever reads on the background), so the
grid looks the same in light and dark notebook themes.  Colours come from :mod:`sflp.charts.colors`,
the ones every chart uses: white to green for SB push, white to blue for BB call, the stepped
threshold bands (with :func:`band_legend`), red-white-blue for EV margins.  Text is 13 px (the
second line 11 px), the size of a notebook's own output.  A cell shows the hand and, below it, a second text (a mixed
frequency such as ``71%``, or a threshold label); hovering shows a longer ``title``.

Standard library only (plus :mod:`sflp.core.cards` for the class names).

>>> html = html_grid(["AA"] * 169, ["FFFFFF"] * 169)
>>> html.count("<td"), html.count("<th")
(169, 27)
"""

from __future__ import annotations

import html as _html
from collections.abc import Sequence

from sflp.charts.colors import ev_colour, frequency_colour, text_colour
from sflp.checks import margin_text
from sflp.core.cards import CLASS_NAMES, GRID_RANKS

_TABLE = "border-collapse:collapse;font-family:monospace;font-size:13px;line-height:1.2;margin:2px"
_HEAD = "background:#F6F8FA;color:#24292F;padding:1px 3px;font-weight:bold;text-align:center;border:1px solid #FFFFFF"


def html_grid(texts: Sequence[str], colours: Sequence[str], seconds: Sequence[str] | None = None,
              titles: Sequence[str] | None = None, caption: str = "") -> str:
    """A headed 13x13 ``<table>``; cell ``k`` (class id) gets ``texts[k]``, ``colours[k]`` (hex).

    ``seconds[k]`` is an optional smaller second line, ``titles[k]`` the hover text.  A cell whose
    second line ends with ``†`` (a threshold grid's gap cell) is hatched, as in every medium.
    """
    from sflp.charts.scale import MARK_GAP, hatch_colour

    head = "".join(f'<th style="{_HEAD}">{r}</th>' for r in GRID_RANKS)
    rows = [f'<tr><th style="{_HEAD}"></th>{head}</tr>']
    for r in range(13):
        cells = [f'<th style="{_HEAD}">{GRID_RANKS[r]}</th>']
        for c in range(13):
            k = r * 13 + c
            bg = colours[k]
            second = seconds[k] if seconds else ""
            body = _html.escape(texts[k]) + (f'<br><span style="font-size:11px">{_html.escape(second)}</span>'
                                             if second else "")
            title = f' title="{_html.escape(titles[k])}"' if titles else ""
            hatch = ""
            if second.endswith(MARK_GAP):  # a gap cell: hatched, as in every medium (issue 42)
                hatch = (f"background-image:repeating-linear-gradient(135deg,transparent 0 4px,"
                         f"#{hatch_colour(bg)} 4px 5.5px);")
            cells.append(f'<td{title} style="background:#{bg};{hatch}color:#{text_colour(bg)};text-align:center;'
                         f'padding:1px 3px;min-width:38px;height:34px;border:1px solid #FFFFFF">{body}</td>')
        rows.append("<tr>" + "".join(cells) + "</tr>")
    cap = (f'<caption style="caption-side:top;text-align:left;font-weight:bold">{_html.escape(caption)}</caption>'
           if caption else "")
    return f'<table style="{_TABLE}">{cap}' + "".join(rows) + "</table>"


def frequency_grid(freqs: Sequence[float], player: str, caption: str = "",
                   evs: Sequence[float] | None = None) -> str:
    """Frequencies (169, class-id order) shaded white to the player's colour, mixed ones in the cell."""
    seconds, titles = [], []
    for k, f in enumerate(freqs):
        f = float(f)
        seconds.append(f"{100 * f:.0f}%" if 1e-9 < f < 1 - 1e-9 else "")
        title = f"{CLASS_NAMES[k]}: {100 * f:.4g}%"
        if evs is not None and evs[k] == evs[k]:  # not NaN
            title += f", EV margin {margin_text(evs[k], '+.4f')} bb"  # the sign kept (issue 42)
        titles.append(title)
    colours = [frequency_colour(float(f), player) for f in freqs]
    return html_grid(CLASS_NAMES, colours, seconds, titles, caption)


def side_by_side(*parts: str, header: str = "") -> str:
    """Grids next to each other (wrapping on narrow screens), under an optional header line."""
    cells = "".join(f'<div style="display:inline-block;vertical-align:top;margin-right:12px">{p}</div>'
                    for p in parts)
    return f"<div>{header}<div>{cells}</div></div>"


def _swatch(colour: str, label: str) -> str:
    return (f'<span style="display:inline-block;margin:1px 6px 1px 0;padding:1px 6px;background:#{colour};'
            f'color:#{text_colour(colour)};border:1px solid #D0D7DE">{_html.escape(label)}</span>')


def band_legend(scale, title: str = "played up to (bb)", notes: list[str] | None = None) -> str:
    """The threshold legend of a chart's :class:`~sflp.charts.scale.ChartScale`: one swatch per
    band (``≤2`` ... ``N+``) and one for never, then the grid's footnote lines (``notes``)."""
    swatches = "".join(_swatch(colour, label) for colour, label in scale.legend())
    lines = "".join(f"<div>{_html.escape(line)}</div>" for line in notes or ())
    return f'<div style="font-size:12px;margin:4px 2px">{_html.escape(title)}: {swatches}{lines}</div>'


def ev_legend(scale: float, title: str = "EV margin (bb)") -> str:
    """The diverging EV legend: full red at ``-scale``, white at 0, full blue at ``+scale``."""
    stops = (-scale, -scale / 2, 0.0, scale / 2, scale)
    swatches = "".join(_swatch(ev_colour(v, scale), f"{v:+.2g}" if v else "0") for v in stops)
    return f'<div style="font-size:12px;margin:4px 2px">{_html.escape(title)}: {swatches}</div>'
