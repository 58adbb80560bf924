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


def test_a_pieces_systems_and_fit_are_the_builders():
    """A piece's ``C, d, b`` (read off in place, issue 53 section 4) are :func:`indifference_system`'s
    at ``K0`` and ``K1``, and its determinants' fit (one product with :func:`_fit_matrix`) is the
    least-squares fit of the Chebyshev Vandermonde matrix to rounding."""
    from numpy.polynomial import chebyshev as cheb

    from sflp.solving.piece import _cheb_to_power, _fit_matrix, _Piece
    from sflp.solving.support import indifference_system

    game = PushFoldGame(GameConfig(stack=10))
    p = game.payoffs
    sup = Support.of(*_solve(game))
    sup = sup.with_hand("sb", 60, -1.0).with_hand("bb", 61, -1.0) if len(sup.sb_mixed) < 2 else sup
    piece = _Piece(p, sup, 10.0, 9.0, 11.0)
    for K, rgf, C, d, b in ((p.K0, _rgf(p, 0.0), piece.C0, piece.d0, piece.b0),
                            (p.K1, p.r * (p.g1 - p.f1), piece.C1, piece.d1, piece.b1)):
        one = indifference_system(K, rgf, sup)
        assert np.array_equal(C, one.C)
        assert np.allclose(d, one.d, rtol=0, atol=1e-14) and np.allclose(b, one.b, rtol=0, atol=1e-14)
    for k in (1, 2, 3):
        u, fit = _fit_matrix(k)
        vals = np.random.default_rng(k).normal(size=(len(u), 5))
        coef, *_ = np.linalg.lstsq(cheb.chebvander(u, k), vals, rcond=None)
        assert np.allclose(fit @ vals, _cheb_to_power(k) @ coef, rtol=0, atol=1e-13)


def test_real_roots_take_each_columns_degree_from_its_largest_coefficient():
    """:func:`_real_roots` reads a column's degree as its highest coefficient above 1e-11 of its
    largest: a cubic with a negligible top coefficient is solved as the quadratic, a zero column has
    no roots, and the roots are found in closed form and by eigenvalues alike."""
    from sflp.solving.piece import _real_roots

    power = np.array([
        [-0.25, 0.0, 0.06, -0.5, 0.0],  # constant
        [0.0, 0.0, -0.5, 1.0, 1.0],  # u
        [1.0, 0.0, 1.0, 0.0, 0.0],  # u^2
        [1e-13, 0.0, 0.0, 0.0, 0.0],  # u^3 (negligible in column 0)
    ])
    power = np.column_stack((power, [0.0, -0.25, 0.0, 1.0]))  # u^3 - u/4: roots -1/2, 0, 1/2
    at, which = _real_roots(power, 0.0, 1.0)
    got = sorted(zip(which.tolist(), np.round(at, 12).tolist()))
    assert got == [(0, -0.5), (0, 0.5), (2, 0.2), (2, 0.3), (3, 0.5), (4, 0.0), (5, -0.5), (5, 0.0), (5, 0.5)]


def test_a_crossing_row_in_plain_floats_is_the_array_rows_bits():
    """:meth:`_Piece.cross_row` (plain floats for one mixed hand a player) gives exactly what
    :meth:`_Piece.cross_rows` gives, at stacks across the window, for k = 1 and k = 2."""
    from sflp.solving.piece import _Piece

    game = PushFoldGame(GameConfig(stack=10))
    p = game.payoffs
    sup0 = Support.of(*_solve(game))
    sup0 = Support(sup0.sb_pure, (), sup0.bb_pure, ())
    one = sup0.with_hand("sb", 60, -1.0).with_hand("bb", 61, -1.0)
    two = one.with_hand("sb", 90, -1.0).with_hand("bb", 100, -1.0)
    for sup in (one, two):
        piece = _Piece(p, sup, 10.0, 9.0, 11.0)
        for row in range(2 * piece.k):
            f = piece.cross_row(row)
            for S in np.linspace(9.0, 11.0, 7):
                assert f(float(S)) == piece.cross_rows(float(S))[row]


def test_a_two_hand_pieces_determinants_written_out_are_lapacks(monkeypatch):
    """For two mixed hands a player, :meth:`_Piece._dets` writes the five 2 x 2 determinants out
    (issue 53 section 4); they are LAPACK's (the route with ``support._CLOSED_FORM`` off) to rounding."""
    from sflp.solving import support
    from sflp.solving.piece import _Piece

    game = PushFoldGame(GameConfig(stack=10))
    sup0 = Support.of(*_solve(game))
    sup0 = Support(sup0.sb_pure, (), sup0.bb_pure, ())
    two = sup0.with_hand("sb", 60, -1.0).with_hand("bb", 61, -1.0).with_hand("sb", 90, -1.0).with_hand("bb", 100, -1.0)
    piece = _Piece(game.payoffs, two, 10.0, 9.0, 11.0)
    S = np.linspace(9.0, 11.0, 9)
    got = piece._dets(S)
    monkeypatch.setattr(support, "_CLOSED_FORM", False)
    want = piece._dets(S)
    for g, w in zip(got, want):
        assert g.shape == w.shape
        assert np.allclose(g, w, rtol=1e-12, atol=1e-14)
