"""The colour scales of every view: workbook, pictures, HTML page, notebook and terminal.

Hex ``RRGGBB`` strings without ``#``.  Standard library only, so the pure core (``Range`` and
``Solution`` notebook views) and ``report/`` share one palette; it sits just above ``cards`` in
the import order.

* Thresholds: light yellow (played only at the shortest stacks) to dark green (played up to the
  top of the range), on a logarithmic stack scale between the range's ``low`` and ``high``
  (most thresholds sit at short stacks); grey for never.
* Frequencies: white (0) to green (SB push) or blue (BB call) at 1.
* EV margins: red (negative) - white (0) - green (positive), saturating at ``scale``.

>>> threshold_colour(None, 1, 25), threshold_colour(25, 1, 25), threshold_colour(1, 1, 25)
('E6E6E6', '006837', 'FFFFCC')
>>> frequency_colour(0.0, "sb"), frequency_colour(1.0, "sb"), text_colour("006837")
('FFFFFF', '2EA043', 'FFFFFF')
"""

from __future__ import annotations

import math

NEVER = "E6E6E6"
THRESHOLD_ANCHORS = ("FFFFCC", "D9F0A3", "ADDD8E", "78C679", "41AB5D", "238443", "006837")
FREQUENCY_FULL = {"sb": "2EA043", "bb": "3182BD"}
EV_NEGATIVE, EV_POSITIVE = "D73027", "1A9850"


def _rgb(hex_: str) -> tuple[int, int, int]:
    return int(hex_[0:2], 16), int(hex_[2:4], 16), int(hex_[4:6], 16)


def _hex(rgb) -> str:
    return "".join(f"{max(0, min(255, round(c))):02X}" for c in rgb)


def blend(a: str, b: str, t: float) -> str:
    """The colour a fraction ``t`` (0..1) of the way from ``a`` to ``b``."""
    t = min(1.0, max(0.0, float(t)))
    return _hex(x + (y - x) * t for x, y in zip(_rgb(a), _rgb(b)))


def ramp(anchors: tuple[str, ...], t: float) -> str:
    """Piecewise-linear colour scale through ``anchors`` at ``t`` in 0..1."""
    t = min(1.0, max(0.0, float(t)))
    pos = t * (len(anchors) - 1)
    k = min(int(pos), len(anchors) - 2)
    return blend(anchors[k], anchors[k + 1], pos - k)


def threshold_position(max_stack: float | None, low: float, high: float) -> float | None:
    """Where ``max_stack`` sits on the (logarithmic) threshold scale, 0..1; None for never."""
    if max_stack is None or (isinstance(max_stack, float) and math.isnan(max_stack)):
        return None
    lo, hi = max(float(low), 1e-9), max(float(high), 1e-9)
    if hi <= lo:
        return 1.0
    x = min(max(float(max_stack), lo), hi)
    return math.log(x / lo) / math.log(hi / lo)


def threshold_colour(max_stack: float | None, low: float, high: float) -> str:
    """Cell colour of a threshold (see the module doc)."""
    t = threshold_position(max_stack, low, high)
    return NEVER if t is None else ramp(THRESHOLD_ANCHORS, t)


def frequency_colour(freq: float, player: str) -> str:
    """White at 0 to the player's colour at 1."""
    if isinstance(freq, float) and math.isnan(freq):
        return "FFFFFF"
    return blend("FFFFFF", FREQUENCY_FULL[player], freq)


def ev_colour(ev: float, scale: float) -> str:
    """Red below zero, green above, white at zero (and for NaN)."""
    if isinstance(ev, float) and math.isnan(ev) or scale <= 0:
        return "FFFFFF"
    t = min(1.0, abs(float(ev)) / scale)
    return blend("FFFFFF", EV_POSITIVE if ev > 0 else EV_NEGATIVE, t * 0.85)


def text_colour(background: str) -> str:
    """Black or white text, whichever reads better on ``background``."""
    r, g, b = _rgb(background)
    return "000000" if 0.299 * r + 0.587 * g + 0.114 * b > 140 else "FFFFFF"
