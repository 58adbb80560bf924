"""The chart set the HTML and PDF tests read, and the rules they check it against, written out
independently of sflp's own code (test_chart_html.py, test_chart_pdf.py)."""

from __future__ import annotations

import csv
import math
import shutil
from pathlib import Path

import pytest

from sflp.charts.chartset import write_chart_set
from sflp.core.game import GameConfig
from sflp.solving import thresholds as thresholds_mod
from sflp.solving.solver import solve_many

STACKS = [2, 5, 7.7, 10]
LOW, HIGH = 1.0, 10.0
RANKS = "AKQJT98765432"


def make_chart(out: Path) -> dict[str, str]:
    """A chart set from real solutions (2, 5, 7.7, 10 bb) and real thresholds over 1-10 bb; the files
    :func:`write_chart_set` says it wrote.  Written inline (``workers=0``: the same bytes; in a test
    process, worker processes only add their imports)."""
    config = GameConfig(stack=2)
    solutions = solve_many(STACKS, config)
    thresholds = thresholds_mod.compute_thresholds(config, low=LOW, high=HIGH)
    return write_chart_set(solutions, thresholds, out, extra_about={"command": "pytest"}, workers=0)


def find_tool(names: tuple[str, ...], package: str) -> str:
    """The first of ``names`` on PATH, else skip the test saying what to install."""
    for name in names:
        found = shutil.which(name)
        if found:
            return found
    pytest.skip(f"none of {', '.join(names)} is on PATH (install e.g. the Debian package {package!r})")


def read_csv(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def grid_hand(r: int, c: int) -> str:
    """The README's grid rule, written out independently: pairs on the diagonal, suited above."""
    if r == c:
        return RANKS[r] * 2
    return RANKS[min(r, c)] + RANKS[max(r, c)] + ("s" if c > r else "o")


def expected_label(row: dict[str, str], high: float, low: float = 1.0) -> str:
    """The chart label implied by a thresholds.csv row, written out here apart from
    sflp.charts.scale: the HoldemResources number (floored to 0.1 bb, whole bb from 100, ``N+``
    when capped, ``-`` never), then ``†`` when a folded stretch of at least 0.5 bb lies inside the
    played range (between two intervals, or below the first one above the chart's ``low``), ``*``
    when the hand is played on several intervals with only narrower gaps (issue 32)."""
    if row["max_stack"] == "":
        label = "-"
    elif row["capped"] == "true":
        label = f"{high:g}+"
    else:
        tenth = math.floor(float(row["max_stack"]) * 10 + 1e-9)
        label = str(tenth // 10) if tenth >= 1000 else f"{tenth / 10:.1f}"
    ends = [float(x) for part in row["intervals"].split(";") if part for x in part.split("-")]
    gaps = [b - a for a, b in zip(ends[1::2], ends[2::2])] + ([ends[0] - low] if ends and ends[0] > low + 1e-9 else [])
    return label + ("\u2020" if gaps and max(gaps) >= 0.5 else "*" if gaps else "")
