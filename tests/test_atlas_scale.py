"""The atlas at scale (issue 41): an ante's decimals do not change its cost, memory stays flat in the
number of structures, every core is used, bad values are named as typed.

Fast: one short segment of a long-decimal structure, block route against the exact route."""

from __future__ import annotations

import numpy as np
import pytest

from sflp.core.game import GameConfig, PushFoldGame
from sflp.solving.segment import SegmentCertificate
from sflp.solving.thresholds import compute_thresholds

LONG_ANTE = 0.25 / 17
"""An ante whose binary expansion is long (its exact payoffs overflow 62-bit vectors), the
issue's 4.5x case."""


@pytest.mark.parametrize("compiled", [False, True])
def test_a_long_decimal_ante_takes_the_block_route_and_publishes_the_exact_numbers(compiled):
    """Each stack of a long-decimal structure's segments went the exact way, one by one (a segment's
    integer vectors did not fit 62 bits); split into limbs they take the double-double block
    route, and every published number is the exact route's, bit for bit."""
    config = GameConfig(stack=5, ante=LONG_ANTE)
    path = compute_thresholds(config, 2.0, 6.0)
    game = PushFoldGame(config.with_stack(2.0))
    block_route = checked = 0
    for a, b, support in path.segments:
        stacks = [s for s in np.round(np.arange(2.0, 6.0, 0.01), 2).tolist() if a < s < b][:40]
        if not stacks:
            continue
        segment = SegmentCertificate(game, support)
        assert segment._dd_rows(compiled) is not None  # the vectors fit as limbs
        block = segment.block(stacks, config, compiled=compiled)
        for s, stack in enumerate(stacks):
            slow = SegmentCertificate(game, support).solution(config.with_stack(stack))
            assert (slow is None) == bool(block.missing[s])
            if slow is None:
                continue
            block_route += block.made(s) is None
            fast = block.solutions()[s]
            assert np.array_equal(fast.sb_strategy, slow.sb_strategy) and np.array_equal(fast.bb_strategy,
                                                                                         slow.bb_strategy)
            assert np.array_equal(fast.sb_ev, slow.sb_ev) and np.array_equal(fast.bb_ev, slow.bb_ev, equal_nan=True)
            assert block.value[s] == slow.value and block.push_pct[s] == slow.push_pct
            assert block.call_pct[s] == slow.call_pct
            checked += 1
    assert checked >= 300 and block_route >= 0.9 * checked, (checked, block_route)


def test_a_limb_split_is_exact_and_refuses_what_it_cannot_hold():
    from sflp.solving.segment import LIMB_BITS, MAX_LIMBS, _limbs

    rng = np.random.default_rng(7)
    for bits in (10, 61, 62, 100, 180, LIMB_BITS * MAX_LIMBS):
        vec = np.array([int(rng.integers(0, 2**31)) * (1 << max(0, bits - 31)) * (-1) ** k for k in range(50)],
                       dtype=object)
        limbs = _limbs(vec)
        assert limbs is not None and all(limb.dtype == np.int64 for limb in limbs)
        assert all((np.abs(limb) < 2**LIMB_BITS).all() for limb in limbs)
        back = [sum(int(limb[i]) << (LIMB_BITS * k) for k, limb in enumerate(limbs)) for i in range(len(vec))]
        assert back == vec.tolist()
    assert _limbs(np.array([1 << (LIMB_BITS * MAX_LIMBS)], dtype=object)) is None


def test_a_percentage_is_computed_once_and_rounded_once():
    """Solution.push_pct is the exact share rounded once (the Fraction sum it used to be, bit for
    bit), computed once per solution."""
    from fractions import Fraction

    from sflp.solving.solver import solve

    s = solve(GameConfig(stack=10), exact=True)
    assert s.sb_exact is not None and any(e.denominator != 1 for e in s.sb_exact)
    w = s._weights()
    total = sum((int(wi) * e for wi, e in zip(w.tolist(), s.sb_exact)), Fraction(0))
    assert s.push_pct == float(100 * total / int(w.sum()))
    assert "push_pct" in s.__dict__ and s.push_pct is s.__dict__["push_pct"]
