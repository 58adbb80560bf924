"""The path follower against a pinned record (issue 53 section 4): the certified thresholds made
by the code before the path lost its per-call overhead, bit for bit.

``tests/data/path_record.json`` was written by main 4f6e9dc (its ``note`` says how): for each case
the SHA-256 of ``Thresholds.to_dict()`` (every breakpoint, interval, label; ``lp_solves`` left out)
and of the segments with their supports; the fast cases also keep the breakpoints and the hands, so
a failure names what moved.  The 1-25, 1-200, ante 0.125 and BB-ante 1 cases are slow."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from sflp.core.game import GameConfig
from sflp.solving.thresholds import compute_thresholds

RECORD = json.loads((Path(__file__).parent / "data" / "path_record.json").read_text())


def _sha(obj) -> str:
    return hashlib.sha256(json.dumps(obj, separators=(",", ":")).encode()).hexdigest()


def _check(case: dict) -> None:
    t = compute_thresholds(GameConfig(**case["config"]), case["low"], case["high"])
    d = t.to_dict()
    segs = [[float(a), float(b), sorted(s.sb_pure), list(s.sb_mixed), sorted(s.bb_pure), list(s.bb_mixed)]
            for a, b, s in t.segments]
    if "breakpoints" in case:
        assert d["breakpoints"] == case["breakpoints"]
        got = [[h["player"], h["hand"], h["max_stack"], h["capped"], h["label"], h["intervals"], h["any_intervals"]]
               for h in d["hands"]]
        for g, want in zip(got, case["hands"], strict=True):
            assert g == want
    assert len(segs) == case["segments"]
    assert _sha(segs) == case["segments_sha256"]
    d.pop("lp_solves")
    assert _sha(d) == case["thresholds_sha256"]


def _cases(slow: bool):
    return [pytest.param(c, id=f"{c['low']:g}-{c['high']:g}-{'-'.join(f'{k}{v:g}' for k, v in c['config'].items())}")
            for c in RECORD["cases"] if c["slow"] == slow]


@pytest.mark.parametrize("case", _cases(False))
def test_pinned_small_paths(case):
    """1-10 bb without ante and 2-6 bb with an ante of 0.1: the same thresholds and segments as pinned."""
    _check(case)


@pytest.mark.slow
@pytest.mark.parametrize("case", _cases(True))
def test_pinned_paths(case):
    """1-25, 1-200, ante 0.125 (2-25) and BB ante 1 (2-40): the same thresholds and segments as pinned."""
    _check(case)
