"""The double-double block evaluation (sflp.solving.ddeval): every ratio it calls proven is the exact
ratio rounded once (checked against Fraction arithmetic), every sign it calls proven is the
exact sign, exact zeros and exact ties are never called proven, and the compiled kernels (numba)
give the same bits as numpy."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sflp.solving import ddeval
from sflp.solving.segment import evaluate

ROUTES = [False, True]
"""numpy, and the compiled kernels (sflp.solving.ddkernel)."""


def _exact(poly: list[int], p: int, q: int) -> int:
    d = len(poly) - 1
    return sum(c * p**t * q ** (d - t) for t, c in enumerate(poly))


def _run(polys, qc, xs, pairs, weights, compiled):
    hi, lo, shift = ddeval.scaled_coefficients(polys)
    num = [a for a, _ in pairs]
    den = [b for _, b in pairs]
    w = [ddeval.to_dd(v) for v in weights]
    scale = shift[num] - shift[den]
    return evaluate(hi, lo, qc, np.array(xs, dtype=np.float64), num, den, [a for a, _ in w],
                           [b for _, b in w], scale, compiled=compiled)


def _check(polys, qc, xs, pairs, weights, compiled):
    values, ok, sign = _run(polys, qc, xs, pairs, weights, compiled)
    exact = [[_exact(poly, x, qc) for x in xs] for poly in polys]
    for r in range(len(polys)):
        for s in range(len(xs)):
            if sign[r, s]:
                assert sign[r, s] == (1 if exact[r][s] > 0 else -1)
            if exact[r][s] == 0:
                assert sign[r, s] == 0
    proven = 0
    for k, ((a, b), w) in enumerate(zip(pairs, weights)):
        for s in range(len(xs)):
            if ok[k, s]:
                assert exact[b][s] != 0
                truth = float(Fraction(exact[a][s]) * Fraction(w) / exact[b][s])
                assert values[k, s] == truth, (k, s)
                proven += 1
    return proven, values, ok


coef = st.integers(min_value=-(2**400), max_value=2**400)


@pytest.mark.parametrize("compiled", ROUTES)
@settings(max_examples=60, deadline=None)
@given(polys=st.lists(st.lists(coef, min_size=4, max_size=4), min_size=2, max_size=6),
       xs=st.lists(st.integers(min_value=0, max_value=10**7), min_size=1, max_size=20),
       qc=st.sampled_from([1, 2, 10, 100, 1000]),
       w=st.fractions(min_value=-10**6, max_value=10**6, max_denominator=10**12))
def test_proven_ratios_are_the_exact_ratios_rounded_once(polys, xs, qc, w, compiled):
    if w == 0:
        w = Fraction(1, 3)
    pairs = [(a, b) for a in range(len(polys)) for b in range(len(polys)) if a != b]
    proven, _, _ = _check(polys, qc, xs, pairs, [w] * len(pairs), compiled)
    # integer polynomials at integer points cancel to within 2^-80 of their terms only by design:
    # the filter proves most ratios whose two values are not 0 (a filter proving nothing fails here)
    nonzero = [[_exact(p, x, qc) != 0 for x in xs] for p in polys]
    possible = sum(nonzero[a][s] and nonzero[b][s] for a, b in pairs for s in range(len(xs)))
    assert proven >= 0.5 * possible


@pytest.mark.parametrize("compiled", ROUTES)
def test_cancellation_zeros_and_ties_are_not_proven(compiled):
    polys = [
        [-1234 * 2**60, 2**60, 0],  # a root exactly at x = 1234 (q = 1): H = 2^60 (x - 1234) q
        [-(1234 * 2**30 + 1), 2**30, 0],  # at 1234: -1 among terms of 2^40, rounded correctly
        [-(1234 * 2**60 + 1), 2**60, 0],  # -1 among terms of 2^70: its sign is proven, not its float
        [-(1234 * 3**200 + 1), 3**200, 0],  # -1 among terms of 2^327: beyond 106 bits, nothing proven
        [1, 0, 0],  # 1 (times q^2)
        [3, 0, 0],
    ]
    xs = [1233, 1234, 1235]
    pairs = [(0, 4), (1, 4), (2, 4), (4, 5)]
    values, ok, sign = _run(polys, 1, xs, pairs, [1, 1, 1, 1], compiled)
    assert sign[0].tolist() == [-1, 0, 1]  # the exact zero is not called a sign
    assert sign[1].tolist() == sign[2].tolist() == [-1, -1, 1]
    assert sign[3].tolist() == [-1, 0, 1]  # left to the exact route
    assert not ok[0, 1]  # 0 / 1 is not a proven ratio (the caller certifies it exactly)
    assert ok[1, 1] and values[1, 1] == -1.0
    assert not ok[2, 1]
    assert ok[3].all() and (values[3] == 1 / 3).all()
    # (2^53 + 1) / 2^53 lies exactly half way between 1 and the next float: never called proven
    tie = [[2**53 + 1, 0, 0], [2**53, 0, 0], [2**54 + 3, 0, 0], [2**54, 0, 0]]
    values, ok, _ = _run(tie, 1, [5], [(0, 1), (2, 3)], [1, 1], compiled)
    assert not ok[0, 0]
    assert ok[1, 0] and values[1, 0] == 1 + 2**-52  # 1 + 0.75 ulp: no tie, rounds up


@pytest.mark.parametrize("n_stacks", [100, 600])  # the one-thread and the all-cores kernels
def test_compiled_and_numpy_give_the_same_bits(n_stacks):
    from sflp.solving import ddkernel

    assert (n_stacks >= ddkernel.PARALLEL_MIN_STACKS) == (n_stacks == 600)
    rng = np.random.default_rng(7)
    polys = [[int(v) for v in rng.integers(-(2**62), 2**62, size=4)] for _ in range(40)]
    xs = list(range(100, 100 + 997 * n_stacks, 997))
    pairs = [(a, (a + 1) % 40) for a in range(40)]
    weights = [Fraction(int(rng.integers(1, 10**6)), int(rng.integers(1, 10**6))) for _ in pairs]
    v0, ok0, s0 = _run(polys, 100, xs, pairs, weights, False)
    v1, ok1, s1 = _run(polys, 100, xs, pairs, weights, True)
    assert (ok0 == ok1).all() and (s0 == s1).all()
    assert v0[ok0].tobytes() == v1[ok1].tobytes()
    assert ok0.mean() > 0.99


def test_scaled_coefficients_are_exact_to_a_unit_roundoff_squared():
    polys = [[0, 1, -(2**700) - 7, 5], [2**70 + 3, 0, 0, 1], [0, 0, 0, 0], [2**1100, 2**1100 + 1, 3**700, 2**400]]
    hi, lo, shift = ddeval.scaled_coefficients(polys)
    for r, poly in enumerate(polys):
        for t, c in enumerate(poly):
            exact = Fraction(c, 2 ** int(shift[r]))
            assert abs(Fraction(hi[r, t]) + Fraction(lo[r, t]) - exact) <= abs(exact) * Fraction(1, 2**106)
    assert math.isclose(float(hi[0, 2]), -0.5) and shift.tolist() == [701, 71, 0, (3**700).bit_length()]
    with pytest.raises(ValueError):  # 1 beside 2^1100: too far apart to scale into floats
        ddeval.scaled_coefficients([[2**1100, 1]])
