"""The support algebra (sflp/solving/support.py) on games small enough to solve by hand."""

from __future__ import annotations

from fractions import Fraction
from types import SimpleNamespace

import numpy as np
import pytest

from sflp.core.game import GameConfig, PushFoldGame
from sflp.solving.support import (
    DEFAULT_TOLERANCE,
    PATH_TOLERANCES,
    POLISH_TOLERANCES,
    SUPPORT_TOLERANCES,
    Support,
    candidate_systems,
    indifference_system,
    outward,
    solve_candidates,
    solve_exact,
    solve_on_support,
)

# A 3-hand game worked by hand.  Hand 0 is pure for both players (SB shoves it, BB calls with it),
# hands 1 and 2 are mixed for both.  With C = K[{1,2}, {1,2}] = [[2, 1], [1, 3]] (det 5):
#   SB rows  C y_M = -(base[1:] + K[1:, 0]) = -((1, 1) + (-2, -3)) = (1, 2)
#            -> y_M = C^-1 (1, 2) = (3 - 2, -1 + 4) / 5 = (1/5, 3/5)
#   BB rows  C' x_M = -K[0, 1:] = (1, 1)
#            -> x_M = C'^-1 (1, 1) = (3 - 1, -1 + 2) / 5 = (2/5, 1/5)
K3 = np.array([[0.0, -1.0, -1.0], [-2.0, 2.0, 1.0], [-3.0, 1.0, 3.0]])
BASE3 = np.array([0.5, 1.0, 1.0])
SUPPORT3 = Support(frozenset({0}), (1, 2), frozenset({0}), (1, 2))
X3 = (Fraction(1), Fraction(2, 5), Fraction(1, 5))
Y3 = (Fraction(1), Fraction(1, 5), Fraction(3, 5))


def test_builder_gives_the_hand_built_system():
    s = indifference_system(K3, BASE3, SUPPORT3)
    assert s.C.tolist() == [[2.0, 1.0], [1.0, 3.0]]
    assert s.d.tolist() == [1.0, 2.0]
    assert s.b.tolist() == [1.0, 1.0]
    assert s.x_pure.tolist() == [1.0, 0.0, 0.0] and s.y_pure.tolist() == [1.0, 0.0, 0.0]


def test_float_solution_matches_the_hand_computed_equilibrium():
    s = indifference_system(K3, BASE3, SUPPORT3)
    x, y = s.strategies(*s.solve())
    assert np.allclose(x, [float(v) for v in X3], rtol=0, atol=1e-15)
    assert np.allclose(y, [float(v) for v in Y3], rtol=0, atol=1e-15)
    # independent check: the mixed hands are indifferent at that point
    margins = BASE3 + K3 @ y  # SB's shove margins
    columns = K3.T @ x  # BB's (K'x)_j: call margin is minus this
    assert np.allclose(margins[1:], 0, atol=1e-15) and np.allclose(columns[1:], 0, atol=1e-15)


def test_float_polish_solves_the_hand_game():
    # a game object with K and base = r (g - f): r = BASE3, g - f = 1
    game = SimpleNamespace(K=K3, r=BASE3, g=1.0, f=0.0, size=3)
    x, y = solve_on_support(game, SUPPORT3)
    assert np.allclose(x, [1, 0.4, 0.2], rtol=0, atol=1e-12)
    assert np.allclose(y, [1, 0.2, 0.6], rtol=0, atol=1e-12)
    # a non-square support has no regular system
    assert solve_on_support(game, Support(frozenset({0}), (1, 2), frozenset({0}), ())) is None


@pytest.mark.parametrize("dtype", [np.int64, object])
def test_exact_solution_matches_the_hand_computed_equilibrium(dtype):
    # the certificate's integer form: K and base scaled by 2 (the equations are homogeneous)
    K = (2 * K3).astype(np.int64).astype(dtype)
    base = np.array([1, 2, 2], dtype=object)
    s = indifference_system(K, base, SUPPORT3)
    A_sb = [[int(v) for v in row] for row in s.C]
    A_bb = [[int(v) for v in row] for row in s.C.T]
    y_mixed, free_y, bad_y = solve_exact(A_sb, [int(v) for v in s.d], [Fraction(0)] * 2)
    x_mixed, free_x, bad_x = solve_exact(A_bb, [int(v) for v in s.b], [Fraction(0)] * 2)
    assert bad_y is None and bad_x is None and free_y == [] and free_x == []
    assert tuple(x_mixed) == X3[1:] and tuple(y_mixed) == Y3[1:]


def test_exact_solve_reports_inconsistency_and_free_variables():
    # x + y = 1 and 2x + 2y = 3 cannot both hold: the second row reduces to 0 = 1
    z, free, bad = solve_exact([[1, 1], [2, 2]], [1, 3], [Fraction(0)] * 2)
    assert z is None and bad == (1, Fraction(1))
    # x + y = 1 alone: y is free and takes its guess 1/4, so x = 3/4
    z, free, bad = solve_exact([[1, 1]], [1], [Fraction(0), Fraction(1, 4)])
    assert z == [Fraction(3, 4), Fraction(1, 4)] and free == [1] and bad is None


def test_one_mixed_hand_each():
    # SB row: K[1,1] y1 = -(base[1] + K[1,0]) -> -4 y1 = -2;  BB row: K[1,1] x1 = -K[0,1] -> -4 x1 = -2
    K = np.array([[0.0, 2.0], [1.0, -4.0]])
    s = indifference_system(K, np.array([0.0, 1.0]), Support(frozenset({0}), (1,), frozenset({0}), (1,)))
    assert (s.C.tolist(), s.d.tolist(), s.b.tolist()) == ([[-4.0]], [-2.0], [-2.0])
    x_mixed, y_mixed = s.solve()
    assert x_mixed.tolist() == [0.5] and y_mixed.tolist() == [0.5]


def test_support_of_reads_pure_and_mixed_hands():
    sup = Support.of(np.array([1.0, 1 - 1e-8, 0.3, 1e-8, 0.0]), np.array([0.0, 0.5, 1.0, 2e-7, 1.0]))
    assert sup.sb_pure == {0, 1} and sup.sb_mixed == (2,)
    assert sup.bb_pure == {2, 4} and sup.bb_mixed == (1, 3)
    tight = Support.of(np.array([1 - 1e-8]), np.array([1e-8]), tol=1e-9)
    assert tight.sb_mixed == (0,) and tight.bb_mixed == (0,)
    assert not sup.square and tight.square


def test_with_hand_moves_one_hand():
    sup = Support(frozenset({0}), (1,), frozenset({2}), (3,))
    assert sup.with_hand("sb", 1, 1.0) == Support(frozenset({0, 1}), (), frozenset({2}), (3,))
    assert sup.with_hand("bb", 2, -1.0) == Support(frozenset({0}), (1,), frozenset(), (2, 3))
    assert sup.with_hand("sb", 0, 0.0) == Support(frozenset(), (1,), frozenset({2}), (3,))


def test_batched_candidates_are_the_builders_systems():
    """The pivots' batch builder gives, for each candidate, the system of the candidate support."""
    game = PushFoldGame(GameConfig(stack=10))
    base = game.r * (game.g - game.f)
    sup = Support(frozenset(range(41, 60)), (40,), frozenset(range(26, 30)), (25,))
    add = np.array([10, 41, 45, 100])  # SB hands: never played, pure, pure, never played
    C, d, b = candidate_systems(game.K, base, sup, sb_add=add, bb_add=np.full(len(add), 27))  # BB 27 is pure
    for c, hand in enumerate(add):
        cand = sup.with_hand("sb", int(hand), -1.0).with_hand("bb", 27, -1.0)
        one = indifference_system(game.K, base, cand)
        # the candidate's rows are in the order (old mixed..., added): sort to the builder's order
        rows = np.argsort(list(sup.sb_mixed) + [int(hand)])
        cols = np.argsort(list(sup.bb_mixed) + [27])
        scale = np.abs(game.K).max()
        assert np.allclose(C[c][np.ix_(rows, cols)], one.C, rtol=0, atol=1e-15 * scale)
        assert np.allclose(d[c][rows], one.d, rtol=0, atol=1e-13 * scale)
        assert np.allclose(b[c][cols], one.b, rtol=0, atol=1e-13 * scale)
    xs, ys = solve_candidates(C, d, b)
    assert xs.shape == ys.shape == (len(add), 2)


def test_system_is_linear_in_the_stack():
    """The path follower's pieces use sys(K0 + S K1, base) = sys(K0, base) + S sys(K1, 0)."""
    game = PushFoldGame(GameConfig(stack=7.5))
    p = game.payoffs
    base = p.r * (p.g - p.f)
    sup = Support(frozenset(range(30)), (30, 31), frozenset(range(12)), (12, 13))
    whole = indifference_system(game.K, base, sup)
    s0 = indifference_system(p.K0, base, sup)
    s1 = indifference_system(p.K1, np.zeros(169), sup)
    for name in ("C", "d", "b"):
        assert np.allclose(getattr(whole, name), getattr(s0, name) + 7.5 * getattr(s1, name), rtol=1e-12, atol=1e-18)


def test_tolerance_ladder():
    # every rung reads pure hands within tol of 0 or 1; the first rung is the default
    assert SUPPORT_TOLERANCES[0] == DEFAULT_TOLERANCE
    # the float callers' sub-ladders are the lists they used before the ladder was shared
    # (solver._polish: 1e-7, 1e-5, 1e-9; thresholds.piece_at: 1e-7, 1e-6, 1e-8, 1e-5, 1e-9, 1e-4)
    assert POLISH_TOLERANCES == (1e-7, 1e-5, 1e-9)
    assert PATH_TOLERANCES == (1e-7, 1e-6, 1e-8, 1e-5, 1e-9, 1e-4)
    assert set(POLISH_TOLERANCES) <= set(SUPPORT_TOLERANCES)
    assert outward((1e-3, 1e-11)) == (1e-3, 1e-11)  # equal distance (4 decades): looser first


def test_certificate_builds_its_system_in_python_ints():
    """A stack with a 10-digit decimal makes ``scale * K`` overflow int64: the certificate's
    system is then built from an object array of Python ints and still solves exactly."""
    from sflp.core.cards import class_id
    from sflp.solving.certify import exact_bb_margins, exact_payoffs, exact_sb_margins
    from sflp.solving.solver import solve

    config = GameConfig(stack=13.3333333333)
    assert exact_payoffs(PushFoldGame(config)).K_scaled.dtype == object
    sol = solve(config, exact=True)
    assert sol.certified
    game = PushFoldGame(config)
    sb_margins = exact_sb_margins(game, sol.bb_exact)
    bb_margins = exact_bb_margins(game, sol.sb_exact)
    for i, v in enumerate(sol.sb_exact):
        if 0 < v < 1:  # every mixed SB hand exactly indifferent
            assert sb_margins[i] == 0
    for j, v in enumerate(sol.bb_exact):
        if 0 < v < 1:
            assert bb_margins[j] == 0
    assert any(0 < v < 1 for v in sol.sb_exact)  # the test is not vacuous: J8o is mixed here
    assert 0 < sol.sb_exact[class_id("J8o")] < 1


def test_support_module_needs_only_numpy():
    import subprocess
    import sys

    code = (
        "import sys, sflp.solving.support; "
        "heavy = [m for m in ('cvxpy', 'pandas', 'openpyxl', 'matplotlib', 'scipy') if m in sys.modules]; "
        "print(','.join(heavy))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == ""


@pytest.mark.parametrize("k", [1, 2, 3])
def test_closed_form_candidates_agree_with_lapack(k, monkeypatch):
    """The 1 x 1 and 2 x 2 candidate systems solved in closed form (issue 53 section 4) give LU's
    frequencies to rounding; a singular system gives NaN on both routes; k = 3 stays on LAPACK."""
    import sflp.solving.support as support

    rng = np.random.default_rng(k)
    C = rng.normal(size=(50, k, k))
    C[7] = 0.0  # singular
    d, b = rng.normal(size=(50, k)), rng.normal(size=(50, k))
    xs, ys = solve_candidates(C, d, b)
    monkeypatch.setattr(support, "_CLOSED_FORM", False)
    xs0, ys0 = solve_candidates(C, d, b)
    assert np.isnan(xs[7]).all() and np.isnan(ys[7]).all() and np.isnan(xs0[7]).all()
    ok = np.arange(50) != 7
    scale = 1 + np.abs(xs0[ok]).max() + np.abs(ys0[ok]).max()
    assert np.allclose(xs[ok], xs0[ok], rtol=0, atol=1e-11 * scale)
    assert np.allclose(ys[ok], ys0[ok], rtol=0, atol=1e-11 * scale)
    for c in np.flatnonzero(ok)[:5]:  # and each is the system's solution
        assert np.allclose(C[c] @ ys[c], d[c], atol=1e-10 * scale)
        assert np.allclose(C[c].T @ xs[c], b[c], atol=1e-10 * scale)
