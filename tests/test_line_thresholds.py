"""Tests of the threshold path along an ante (issue 35): ``compute_thresholds(..., along="ante")``.

References are independent of the path: single LP-plus-certificate solves (``sflp.solve``, exact)
at antes on either side of each published breakpoint and at random antes; and the other line: a
stack breakpoint of the stack path at a fixed ante and the ante breakpoint of the ante path at
that stack are one point of the boundary curve, found by two different computations.
"""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest

from sflp.core.game import GameConfig
from sflp.errors import ConfigError, SolveError
from sflp.solving.solver import solve
from sflp.solving.threshcert import certify_path
from sflp.solving.thresholds import compute_thresholds

STACK = 10.0
LOW, HIGH = 0.0, 0.25
CONFIG = GameConfig(stack=STACK)


@pytest.fixture(scope="module")
def th():
    return compute_thresholds(CONFIG, LOW, HIGH, along="ante")


def _support_of(solution):
    sb, bb = solution.sb_exact, solution.bb_exact
    return tuple(tuple(0 if v == 0 else 1 if v == 1 else 2 for v in side) for side in (sb, bb))


def test_the_ante_path_is_certified_and_reads_in_antes(th):
    assert th.along == "ante" and th.certificate is not None
    assert th.low == LOW and th.high == HIGH and len(th.breakpoints) > 10
    assert all(LOW < a < b < HIGH for a, b in zip(th.breakpoints, th.breakpoints[1:]))
    assert th.to_dict()["along"] == "ante" and th.to_dict()["stack"] == STACK
    # AA is shoved at every ante; 72o never (at 10 bb it is folded with or without antes)
    assert th.get("sb", "AA").label() == "0+" and th.get("bb", "72o").label() == "-"


def test_strategies_on_the_path_are_the_exact_solves_at_random_antes(th):
    rng = random.Random(35)
    for ante in [0.0, 0.1, 0.125, 0.25] + [round(rng.uniform(LOW, HIGH), 4) for _ in range(4)]:
        exact = solve(GameConfig(stack=STACK, ante=ante), exact=True)
        assert exact.certified
        x, y = th.strategies_at(ante)
        sb = np.array([float(v) for v in exact.sb_exact])
        bb = np.array([float(v) for v in exact.bb_exact])
        assert np.abs(x - sb).max() < 1e-9 and np.abs(y - bb).max() < 1e-9, ante
        # the segment's support is the exact solution's, hand by hand
        _, support = th.segment_of(ante)
        assert set(support.sb_mixed) == {i for i, v in enumerate(exact.sb_exact) if 0 < v < 1}, ante
        assert set(support.bb_mixed) == {j for j, v in enumerate(exact.bb_exact) if 0 < v < 1}, ante


def test_exact_solves_either_side_of_each_ante_breakpoint_see_a_new_support(th):
    """Issue 35, item 5: the ante thresholds agree with single solves on either side of each
    breakpoint, 1e-6 bb of ante away (a sample of them, to keep the test short)."""
    cert = th.certificate
    picks = random.Random(5).sample(list(cert.breakpoints), 6)
    for r in picks:
        below, above = (solve(GameConfig(stack=STACK, ante=r.value + s * 1e-6), exact=True) for s in (-1, 1))
        assert Fraction(below.config.ante) < r.lo and r.hi < Fraction(above.config.ante)
        assert _support_of(below) != _support_of(above), r
        for side, sol in ((-1, below), (1, above)):
            x, y = th.strategies_at(r.value + side * 1e-6)
            assert np.abs(x - np.array([float(v) for v in sol.sb_exact])).max() < 1e-9


def test_a_stack_breakpoint_and_an_ante_breakpoint_are_one_point_of_the_boundary():
    """Follow the stack at ante 0.1, then the ante at each of some of its breakpoints: the ante
    path there has a breakpoint at 0.1 (and the other way round)."""
    ante = 0.1
    stacks = compute_thresholds(GameConfig(stack=10, ante=ante), 8, 12)
    for b in random.Random(1).sample(list(stacks.breakpoints), 3):
        line = compute_thresholds(GameConfig(stack=b), 0.05, 0.15, along="ante")
        assert min(abs(a - ante) for a in line.breakpoints) < 1e-9, b
    antes = compute_thresholds(GameConfig(stack=10), 0.05, 0.15, along="ante")
    for a in random.Random(2).sample(list(antes.breakpoints), 3):
        line = compute_thresholds(GameConfig(stack=10, ante=a), 9.5, 10.5)
        assert min(abs(s - 10) for s in line.breakpoints) < 1e-8, a


def test_the_bb_ante_line_matches_single_solves():
    th = compute_thresholds(GameConfig(stack=12), 0, 1, along="bb_ante")
    assert th.along == "bb_ante" and th.certificate is not None
    for bb_ante in (0.0, 0.35, 1.0):
        exact = solve(GameConfig(stack=12, bb_ante=bb_ante), exact=True)
        x, y = th.strategies_at(bb_ante)
        assert np.abs(x - np.array([float(v) for v in exact.sb_exact])).max() < 1e-9
        assert np.abs(y - np.array([float(v) for v in exact.bb_exact])).max() < 1e-9


def test_a_wrong_ante_path_is_caught(th):
    segs = list(th.segments)
    j = len(segs) // 2
    dropped = segs[:j] + [(segs[j][0], segs[j + 1][1], segs[j][2])] + segs[j + 2:]
    with pytest.raises(SolveError, match="missed|wrong sign|isolates"):
        certify_path(th.config, LOW, HIGH, dropped, along="ante")
    swapped = segs[:j] + [(segs[j][0], segs[j][1], segs[j - 2][2])] + segs[j + 1:]
    with pytest.raises(SolveError):
        certify_path(th.config, LOW, HIGH, swapped, along="ante")


def test_the_float_path_agrees_with_the_certified_one(th):
    fl = compute_thresholds(CONFIG, LOW, HIGH, along="ante", certify=False)
    assert len(fl.breakpoints) == len(th.breakpoints)
    assert max(abs(a - b) for a, b in zip(fl.breakpoints, th.breakpoints)) < 1e-9


@pytest.mark.parametrize("kwargs, message", [
    (dict(along="small_blind"), "along='small_blind'"),
    (dict(along="ante", low=0.2, high=0.1), "low < high"),
    (dict(along="ante", low=-0.1, high=0.1), "low=-0.1"),
    (dict(along="ante", low=0, high=9.5), "cannot cover"),
])
def test_bad_lines_are_refused(kwargs, message):
    kwargs = {"low": 0, "high": 0.25, **kwargs}
    with pytest.raises(ConfigError, match=message.replace("(", r"\(")):
        compute_thresholds(CONFIG, **kwargs)


def test_an_ante_path_reads_no_stacks(th):
    with pytest.raises(ConfigError, match="ante"):
        th.solve([10])


# ---------------------------------------------------------------- any straight line

TOURNAMENT = {"stack": 1, "ante": 0.0125}
"""A direction: one more bb of stack brings 1/80 bb more ante (both grow together)."""


@pytest.fixture(scope="module")
def tour():
    return compute_thresholds(GameConfig(stack=8, ante=0.1), -2, 4, along=TOURNAMENT)


def _point(t: float) -> GameConfig:
    return GameConfig(stack=float(8 + Fraction(t)), ante=float(Fraction(1, 10) + Fraction(t) / 80))


def test_a_direction_is_followed_and_certified(tour):
    assert tour.certificate is not None and len(tour.breakpoints) > 20
    assert tour.to_dict()["along"] == {"ante": "1/80", "stack": "1"}
    for t in (-2.0, -1.3, 0.0, 1.7, 4.0):
        exact = solve(_point(t), exact=True)
        x, y = tour.strategies_at(t)
        assert np.abs(x - np.array([float(v) for v in exact.sb_exact])).max() < 1e-9, t
        assert np.abs(y - np.array([float(v) for v in exact.bb_exact])).max() < 1e-9, t


def test_a_direction_breakpoint_is_a_breakpoint_of_the_stack_path_there(tour):
    """At a breakpoint t of the direction, the stack path at that point's ante has a breakpoint at
    that point's stack: one boundary, two computations."""
    for t in random.Random(3).sample([b for b in tour.breakpoints if -1.5 < b < 3.5], 3):
        point = _point(t)
        stacks = compute_thresholds(point, point.stack - 0.5, point.stack + 0.5)
        assert min(abs(s - point.stack) for s in stacks.breakpoints) < 1e-8, t


@pytest.mark.parametrize("along, message", [
    ({"rake": 1}, "'rake' is not an amount"),
    ({"stack": 0, "ante": 0}, "the direction is zero"),
    ({"stack": 100, "small_blind": 10, "big_blind": 20}, "pot must stay"),
    ({"big_blind": 100}, "high=1.0 along .* cannot cover"),
    ({"stack": 1e6}, "0.001 to 1000 in size"),
    ({"stack": 1e-300}, "0.001 to 1000 in size"),
    ({"ante": float("nan")}, "ante=nan must be finite"),
    ({"ante": "1"}, "ante='1' is not a number"),
    ({"ante": True}, "ante=True is not a number"),
])
def test_bad_directions_are_refused(along, message):
    with pytest.raises(ConfigError, match=message):
        compute_thresholds(GameConfig(stack=8), 0, 1, along=along)
