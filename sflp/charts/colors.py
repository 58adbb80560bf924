"""The colour scales of every view: PDF, PNG/SVG, HTML page, workbook, notebook and terminal.

Hex ``RRGGBB`` strings without ``#``.  Standard library only.  Every medium takes its colours
from here, so a hand has the same colour on paper, on a phone, in Excel and in the terminal.

* **Thresholds** (how deep a hand is played): the bands, the top colour and *never* of each
  chart are in :mod:`sflp.charts.scale`, with the one label rule, since both depend on the chart's
  top stack; :class:`Band` is their type.
* **Frequencies**: white (0) to green (SB push) or blue (BB call) at 1; one hue each, so the
  lightness carries the number for every viewer.
* **EV margins** diverge around 0: red below, white at 0, blue above (ColorBrewer's RdBu ends,
  marked colour-blind safe by ColorBrewer), saturating at ``scale``.
* **Text** on a cell is black or white, whichever has the higher WCAG contrast.

>>> frequency_colour(0.0, "sb"), frequency_colour(1.0, "sb"), text_colour("440154"), text_colour("FDE725")
('FFFFFF', '2EA043', 'FFFFFF', '000000')
>>> ev_colour(-1.0, 1.0), ev_colour(0.0, 1.0), ev_colour(1.0, 1.0)
('B2182B', 'FFFFFF', '2166AC')
"""

from __future__ import annotations

import math
from typing import NamedTuple

FREQUENCY_FULL = {"sb": "2EA043", "bb": "3182BD"}
EV_NEGATIVE, EV_POSITIVE = "B2182B", "2166AC"
EV_ZERO = "FFFFFF"


class Band(NamedTuple):
    """One step of a threshold scale (:mod:`sflp.charts.scale`): stacks in ``(low, high]`` (the
    first band from 0), its legend label and its colour."""

    low: float
    high: float
    label: str
    colour: str


def _rgb(hex_: str) -> tuple[int, int, int]:
    return int(hex_[0:2], 16), int(hex_[2:4], 16), int(hex_[4:6], 16)


def _hex(rgb) -> str:
    return "".join(f"{max(0, min(255, round(c))):02X}" for c in rgb)


def blend(a: str, b: str, t: float) -> str:
    """The colour a fraction ``t`` (0..1) of the way from ``a`` to ``b``."""
    t = min(1.0, max(0.0, float(t)))
    return _hex(x + (y - x) * t for x, y in zip(_rgb(a), _rgb(b)))


def _missing(x) -> bool:
    return x is None or (isinstance(x, float) and math.isnan(x))


def frequency_colour(freq: float, player: str) -> str:
    """White at 0 to the player's colour at 1."""
    if _missing(freq):
        return "FFFFFF"
    return blend("FFFFFF", FREQUENCY_FULL[player], freq)


def ev_colour(ev: float, scale: float) -> str:
    """Red below zero, blue above, white at zero (and for NaN); full colour at ``|ev| >= scale``."""
    if _missing(ev) or scale <= 0:
        return EV_ZERO
    t = min(1.0, abs(float(ev)) / scale)
    return blend(EV_ZERO, EV_POSITIVE if ev > 0 else EV_NEGATIVE, t)


def _luminance(colour: str) -> float:
    def channel(c: int) -> float:
        c = c / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in _rgb(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """WCAG 2 contrast ratio of two colours, 1 to 21."""
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def text_colour(background: str) -> str:
    """Black or white text, whichever has the higher contrast on ``background``."""
    return "000000" if contrast(background, "000000") >= contrast(background, "FFFFFF") else "FFFFFF"
