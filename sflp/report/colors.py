"""The report colour scales; they live in :mod:`sflp.palette` (shared with the notebook views)."""

from sflp.palette import (
    EV_NEGATIVE,
    EV_POSITIVE,
    FREQUENCY_FULL,
    NEVER,
    THRESHOLD_ANCHORS,
    blend,
    ev_colour,
    frequency_colour,
    ramp,
    text_colour,
    threshold_colour,
    threshold_position,
)

__all__ = [
    "EV_NEGATIVE",
    "EV_POSITIVE",
    "FREQUENCY_FULL",
    "NEVER",
    "THRESHOLD_ANCHORS",
    "blend",
    "ev_colour",
    "frequency_colour",
    "ramp",
    "text_colour",
    "threshold_colour",
    "threshold_position",
]
