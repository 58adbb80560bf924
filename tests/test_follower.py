"""The path follower's pivots (sflp/solving/follower.py): the batched scores are the one-by-one scores."""

from __future__ import annotations

import math

import numpy as np

from sflp.core.game import GameConfig, PushFoldGame
from sflp.solving import follower
from sflp.solving.piece import _rgf
from sflp.solving.support import Support


def _candidates(game):
    """Supports around the 10 bb equilibrium's: pure switches, 1 and 2 mixed hands a player,
    a non-square one and one with BB mixed only (scored as if BB's mixed hand were not there)."""
    from sflp.solving.solver import _solve_lp

    x, y, _ = _solve_lp(game, None)
    sup = Support.of(x, y)
    out = [sup]
    for h in (0, 30, 80, 120, 168):
        out.append(sup.with_hand("sb", h, 1.0))
        out.append(sup.with_hand("bb", h, 0.0))
        out.append(sup.with_hand("sb", h, -1.0).with_hand("bb", (h * 7) % 169, -1.0))
    two = sup.with_hand("sb", 60, -1.0).with_hand("bb", 61, -1.0).with_hand("sb", 90, -1.0).with_hand("bb", 100, -1.0)
    out += [two, sup.with_hand("sb", 60, -1.0), sup.with_hand("bb", 61, -1.0)]
    return out


def test_batched_scores_are_the_one_by_one_scores():
    """:func:`follower._scores` of a batch equals :func:`follower._score` of each candidate to rounding
    (-inf where the systems are not square), and :func:`follower._best` picks the same support."""
    game = PushFoldGame(GameConfig(stack=10))
    p = game.payoffs
    K, base = p.K0 + 10 * p.K1, _rgf(p, 10.0)
    cands = _candidates(game)
    got = follower._scores(p, K, cands, base)
    want = np.array([follower._score(p, K, c, base) for c in cands])
    assert np.array_equal(np.isinf(got), np.isinf(want)) and math.isinf(got[-2])  # SB mixed only: not square
    fin = np.isfinite(want)
    assert fin.sum() > 10
    assert np.allclose(got[fin], want[fin], rtol=0, atol=1e-12)
    assert follower._best(cands, got) == follower._best(cands, want)


def test_a_singular_batch_falls_back_to_one_by_one():
    """Candidates whose systems are singular (two identical hands) score -inf on both routes, and
    do not spoil the others of the batch."""
    game = PushFoldGame(GameConfig(stack=10))
    p = game.payoffs
    K = p.K0 + 10 * p.K1
    K[:, 5] = K[:, 6]  # BB hands 5 and 6 now identical: any system mixing both is singular
    K[5, :] = K[6, :]
    base = _rgf(p, 10.0)
    sup = Support.of(*_solve(game))
    sing = sup.with_hand("sb", 5, -1.0).with_hand("sb", 6, -1.0).with_hand("bb", 5, -1.0).with_hand("bb", 6, -1.0)
    other = sup.with_hand("sb", 60, -1.0).with_hand("bb", 61, -1.0).with_hand("sb", 90, -1.0).with_hand("bb", 100, -1.0)
    got = follower._scores(p, K, [sing, other], base)
    want = [follower._score(p, K, c, base) for c in (sing, other)]
    assert math.isclose(got[1], want[1], abs_tol=1e-12)
    assert got[0] == want[0] or (got[0] < -1 and want[0] < -1)  # -inf, or a hopeless score from LU's rounding


def _solve(game):
    from sflp.solving.solver import _solve_lp

    x, y, _ = _solve_lp(game, None)
    return x, y
