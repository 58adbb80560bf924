"""Tests of sflp.solving.thresholds: exact stack thresholds by path following, checked against direct solves."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from sflp.core.cards import CLASS_NAMES, N_CLASSES
from sflp.core.game import GameConfig, to_fraction
from sflp.errors import ConfigError
from sflp.solving.solver import solve
from sflp.solving.thresholds import HandThresholds, Thresholds, compute_thresholds, format_intervals

NO_ANTE = GameConfig(stack=10)
WITH_ANTE = GameConfig(stack=10, ante=0.1)
ANTE_LOW = 1.1  # the smallest stack that covers the big blind and the ante
OFFSET = 1e-4  # distance from an endpoint at which a direct solve must agree


@pytest.fixture(scope="module")
def th25() -> Thresholds:
    return compute_thresholds(NO_ANTE, 1.0, 25.0)


@pytest.fixture(scope="module")
def th_ante() -> Thresholds:
    return compute_thresholds(WITH_ANTE, ANTE_LOW, 20.0)


_SOLVES: dict[tuple, np.ndarray] = {}


def direct(config: GameConfig, player: str, stack: float) -> np.ndarray:
    """The strategy of ``player`` by a direct LP solve (memoised per stack)."""
    key = (config.structure_key(), round(stack, 12))
    if key not in _SOLVES:
        s = solve(config.with_stack(stack))
        _SOLVES[key] = np.stack([s.sb_strategy, s.bb_strategy])
    return _SOLVES[key][0 if player == "sb" else 1]


def inside(intervals, stack: float) -> bool:
    return any(a <= stack <= b for a, b in intervals)


def on_grid(h: HandThresholds, stack: float) -> bool:
    """Played > 0.5 at ``stack`` (the way a 0.1 bb chart samples it)."""
    return inside(h.intervals, stack)


# ------------------------------------------------------------------ HoldemResources facts
# Source: HoldemResources Calculator HU push/fold Nash chart and its chart usage page
# (no ante, blinds 0.5/1; HRC truncates thresholds to 0.1 bb and samples stacks on a 0.1 grid).


def test_hrc_t3s_pushed_up_to_7_7(th25):
    h = th25.get("sb", "T3s")
    assert 7.7 <= h.max_stack < 7.8
    assert h.label() == "7.7"
    assert not h.capped


def test_hrc_q2o_called_up_to_5_6(th25):
    h = th25.get("bb", "Q2o")
    assert 5.6 <= h.max_stack < 5.7
    assert h.label() == "5.6"
    assert h.intervals[0][0] == 1.0


def test_hrc_63s_pushed_below_2_3_and_at_5_1_to_7_1(th25):
    """HRC: 63s is pushed at 5.1-7.1 bb and below 2.3 bb.

    The exact path shows more detail than HRC's 0.1 bb grid: inside 5.07-7.16 the push frequency
    of 63s dips to <= 0.5 on short stretches (e.g. it is 0 at 5.3 and 5.8 bb), so the upper group
    is several intervals.  The two groups and their ends are HRC's.
    """
    h = th25.get("sb", "63s")
    assert h.multi
    first, rest = h.intervals[0], h.intervals[1:]
    assert first[0] == 1.0 and 2.3 <= first[1] < 2.4
    assert rest, "63s must have a second push region"
    assert 5.0 < rest[0][0] <= 5.1  # first 0.1 bb grid stack pushed: 5.1
    assert 7.1 <= rest[-1][1] < 7.2
    assert all(5.0 < a and b < 7.2 for a, b in rest)
    assert h.label() == "7.1"
    grid = [round(1 + 0.1 * i, 1) for i in range(241)]
    pushed = [s for s in grid if on_grid(h, s)]
    assert [s for s in pushed if s < 3] == [round(1 + 0.1 * i, 1) for i in range(14)]  # 1.0 .. 2.3
    assert not [s for s in pushed if 2.4 <= s <= 5.0]
    assert 5.1 in pushed and 7.1 in pushed and max(pushed) == 7.1


@pytest.mark.parametrize("hand", ["53s", "43s"])
def test_hrc_two_separate_push_regions(th25, hand):
    h = th25.get("sb", hand)
    assert h.multi
    assert h.intervals[0][0] == 1.0
    gaps = [b[0] - a[1] for a, b in zip(h.intervals[:-1], h.intervals[1:])]
    assert max(gaps) > 1.0  # a real hole of more than 1 bb between the two regions
    assert h.intervals[0][1] < 2.5 < h.intervals[1][0]


def test_everything_pushed_and_called_at_stack_1(th25):
    for h in th25.hands:
        assert h.intervals and h.intervals[0][0] == 1.0, (h.player, h.hand)
        assert h.any_intervals[0][0] == 1.0
    x, y = th25.strategies_at(1.0)
    assert np.all(x == 1.0) and np.all(y == 1.0)


# ------------------------------------------------------------------ agreement with direct solves


def _sample_hands(seed: int, extra: int) -> list[tuple[str, str]]:
    fixed = [("sb", "T3s"), ("sb", "63s"), ("sb", "53s"), ("sb", "43s"), ("bb", "Q2o")]
    rng = np.random.default_rng(seed)
    ids = rng.choice(N_CLASSES, size=extra, replace=False)
    players = rng.choice(["sb", "bb"], size=extra)
    return fixed + [(str(p), CLASS_NAMES[int(i)]) for p, i in zip(players, ids)]


def _check_endpoints(th: Thresholds, config: GameConfig, hands) -> int:
    checked = 0
    for player, hand in hands:
        h = th.get(player, hand)
        ends = {e for iv in h.intervals for e in iv} | {e for iv in h.any_intervals for e in iv}
        for e in sorted(ends):
            for q in (e - OFFSET, e + OFFSET):
                if not th.low <= q <= th.high:
                    continue
                freq = direct(config, player, q)[CLASS_NAMES.index(hand)]
                assert (freq > 0.5) == inside(h.intervals, q), (player, hand, e, q, freq)
                assert (freq > 1e-9) == inside(h.any_intervals, q), (player, hand, e, q, freq)
                checked += 1
    return checked


def test_endpoints_agree_with_direct_solves(th25):
    assert _check_endpoints(th25, NO_ANTE, _sample_hands(2024, 4)) > 50


def test_endpoints_agree_with_direct_solves_with_ante(th_ante):
    assert _check_endpoints(th_ante, WITH_ANTE, _sample_hands(7, 3)) > 30


@pytest.mark.parametrize("which", ["th25", "th_ante"])
def test_segments_agree_with_direct_solves(which, request):
    """The whole equilibrium at the midpoint of a sample of segments equals a direct solve."""
    th = request.getfixturevalue(which)
    rng = np.random.default_rng(11)
    picks = rng.choice(len(th.segments), size=12, replace=False)
    for k in picks:
        a, b, support = th.segments[k]
        mid = 0.5 * (a + b)
        x, y = th.strategies_at(mid)
        assert np.abs(x - direct(th.config, "sb", mid)).max() < 1e-7
        assert np.abs(y - direct(th.config, "bb", mid)).max() < 1e-7
        assert set(np.flatnonzero(x == 1.0)) == set(support.sb_pure)


def test_path_structure(th25):
    bps = th25.breakpoints
    assert list(bps) == sorted(bps) and len(set(bps)) == len(bps)
    assert 100 < len(bps) < 2000
    segs = th25.segments
    assert segs[0][0] == 1.0 and segs[-1][1] == 25.0
    for (a0, b0, _), (a1, b1, _) in zip(segs[:-1], segs[1:]):
        assert a0 < b0 == a1 < b1
    assert [s[0] for s in segs[1:]] == list(bps)
    assert len(th25.hands) == 2 * N_CLASSES
    assert [h.player for h in th25.hands] == ["sb"] * N_CLASSES + ["bb"] * N_CLASSES
    assert [h.hand for h in th25.hands[:N_CLASSES]] == list(CLASS_NAMES)
    for h in th25.hands:
        for iv in (h.intervals, h.any_intervals):
            flat = [e for pair in iv for e in pair]
            assert flat == sorted(flat)
        # > 0.5 implies > 0
        for a, b in h.intervals:
            assert any(c <= a and b <= d for c, d in h.any_intervals)


def test_thresholds_are_stable_in_the_range(th25):
    """Endpoints do not depend on the range they were computed in (the same breakpoints)."""
    th = compute_thresholds(NO_ANTE, 4.0, 8.0)
    for player, hand in [("sb", "T3s"), ("sb", "63s"), ("bb", "Q2o")]:
        inner = [(a, b) for a, b in th25.get(player, hand).intervals if b > 4.0 and a < 8.0]
        got = th.get(player, hand).intervals
        assert len(got) == len(inner)
        for (a, b), (c, d) in zip(got, inner):
            assert abs(a - max(c, 4.0)) < 1e-9 and abs(b - min(d, 8.0)) < 1e-9


def test_progress_callback():
    seen = []
    compute_thresholds(NO_ANTE, 2.0, 3.0, progress=seen.append)
    assert seen and seen == sorted(seen) and seen[-1] == 3.0


# ------------------------------------------------------------------ labels and formatting


def test_labels(th25):
    assert th25.get("sb", "AA").label() == "25+"
    assert th25.get("sb", "AA").capped and th25.get("sb", "AA").max_stack == 25.0
    assert th25.get("sb", "T3s").label() == "7.7"
    assert th25.get("bb", "Q2o").multi is False
    later = compute_thresholds(NO_ANTE, 15.0, 25.0)
    h = later.get("sb", "T3s")
    assert h.intervals == () and h.max_stack is None and not h.capped and h.label() == "-"
    assert HandThresholds("bb", "AKo", ((1.0, 200.0),), ((1.0, 200.0),), 200.0, True).label() == "200+"
    # floor, not round: 7.79 -> "7.7"; an exact tenth stays
    assert HandThresholds("sb", "x", ((1.0, 7.79),), ((1.0, 7.79),), 7.79, False).label() == "7.7"
    assert HandThresholds("sb", "x", ((1.0, 5.6),), ((1.0, 5.6),), 5.6, False).label() == "5.6"


def test_format_intervals():
    assert format_intervals(((1.0, 7.24), (7.27, 7.29))) == "1.000000-7.240000;7.270000-7.290000"
    assert format_intervals(()) == ""
    assert format_intervals([(1, 2.0000004)]) == "1.000000-2.000000"


def test_get_and_range_errors(th25):
    with pytest.raises(ConfigError):
        th25.get("btn", "AA")
    with pytest.raises(ConfigError):
        th25.get("sb", "AAx")
    with pytest.raises(ConfigError):
        th25.strategies_at(30.0)
    with pytest.raises(ConfigError):
        compute_thresholds(NO_ANTE, 5.0, 5.0)
    with pytest.raises(ConfigError):
        compute_thresholds(WITH_ANTE, 1.0, 5.0)  # 1 bb cannot cover blind + ante
    assert math.isclose(th25.get("sb", "T3s").max_stack, th25.get("sb", "T3s").intervals[-1][1])


# ------------------------------------------------------------------ homogeneity (issue 30, case 11)
# Every amount times c is the same game with every stack times c.  Structures whose pot is far
# from 1 bb (blinds of 2^-40 bb, antes of 2^40 bb) are followed in units of a power of two, so
# their thresholds are the default structure's times c to the last bit.  Followed as given, the
# path lost every breakpoint at blinds of 2^-40 bb (its tolerances are stated for a pot of ~1.5 bb).


# the fast set scales the blinds down by 2^12 (about 2.5 s); the slow set up by 2^12 too, and the two
# extremes (about 7 s each on 2 cores)
@pytest.mark.parametrize("k", [pytest.param(-40, marks=pytest.mark.slow), -12, pytest.param(12, marks=pytest.mark.slow),
                               pytest.param(40, marks=pytest.mark.slow)])
def test_thresholds_of_a_scaled_structure_are_the_default_ones_scaled_to_the_bit(th25, k):
    c = 2.0**k
    # the float path is the default's to the bit; the certified roots are those of the exact game,
    # whose blinds are read as shortest decimals (2^-40 is not 9.094947017729282e-13 exactly):
    # within a few ulps of the default's times c, and to the bit when c is an exact decimal
    floats = compute_thresholds(GameConfig(stack=c, small_blind=0.5 * c, big_blind=c), c, 25 * c, certify=False)
    th25_floats = compute_thresholds(NO_ANTE, 1.0, 25.0, certify=False)
    assert floats.breakpoints == tuple(b * c for b in th25_floats.breakpoints)
    scaled = compute_thresholds(GameConfig(stack=c, small_blind=0.5 * c, big_blind=c), c, 25 * c)
    assert np.allclose(np.array(scaled.breakpoints) / c, th25.breakpoints, rtol=1e-14, atol=0)
    if to_fraction(c) == Fraction(c):  # 2^-12, 2^12, 2^40: the exact game is the default's scaled
        assert scaled.breakpoints == tuple(b * c for b in th25.breakpoints)
        for mine, default in zip(scaled.hands, th25.hands):
            assert mine.intervals == tuple((a * c, b * c) for a, b in default.intervals), mine.hand
    scaled = floats
    for mine, default in zip(scaled.hands, th25_floats.hands):
        assert mine.intervals == tuple((a * c, b * c) for a, b in default.intervals), mine.hand
        assert mine.any_intervals == tuple((a * c, b * c) for a, b in default.any_intervals), mine.hand
    stack = 7.3 * c  # a stack read off the path: the default strategies, and BB's value times c
    assert np.array_equal(np.stack(scaled.strategies_at(stack)), np.stack(th25.strategies_at(7.3)))


def test_tiny_blinds_not_a_power_of_two_agree_with_the_default_to_rounding(th25):
    c = 1e-30
    scaled = compute_thresholds(GameConfig(stack=c, small_blind=0.5 * c, big_blind=c), c, 25 * c)
    assert len(scaled.breakpoints) == len(th25.breakpoints)
    assert np.allclose(np.array(scaled.breakpoints) / c, th25.breakpoints, rtol=1e-9, atol=0)


# the certified path of the 1e-100/1e100 blinds to 25 times the smallest stack takes about 13 s
# (exact arithmetic on numbers of 200 digits): the fast set follows it to 3 times (25 breakpoints,
# under a second), the slow set to 25 times
@pytest.mark.parametrize("amounts, span", [({"ante": 1e6}, 25), ({"small_blind": 1e-100, "big_blind": 1e100}, 3),
                                           pytest.param({"small_blind": 1e-100, "big_blind": 1e100}, 25,
                                                        marks=pytest.mark.slow)],
                         ids=["ante 1e6", "blinds 1e-100/1e100 to 3x", "blinds 1e-100/1e100"])
def test_the_path_runs_from_the_smallest_stack_at_the_edges_of_the_domain(amounts, span):
    # the path is followed in other units, where the amounts leave the stated domain and the
    # smallest stack read as a decimal no longer covers exactly: neither may refuse the user's game
    config = GameConfig(stack=1e300, **amounts)
    low = config.min_stack
    th = compute_thresholds(config, low, span * low)
    assert th.low == low and th.high == span * low and th.config == config
    assert th.breakpoints and all(low <= b <= span * low for b in th.breakpoints)
