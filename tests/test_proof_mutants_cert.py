"""Tests that would catch a wrong proof in the thresholds' certificate (issue 40, points 2 and 3).

The tests of :mod:`sflp.solving.threshcert` on real paths cannot tell a sound proof from one that
is too weak: a real path's signs are far from 0 and its breakpoints far apart, so a bound made
smaller or a check left out still publishes the right numbers (an audit's mutants A1, A2, A3,
A5 and A8 passed every test).  The tests here build the case each weakened check would miss:

* the float sign filter (:func:`~sflp.solving.threshcert._float_signs`) fed coefficients at the
  edge of its contract ``|c - cf| <= ce``: for every sign it calls proven, the coefficients that
  the contract allows and that push hardest against that sign must still have it, exactly (A1:
  the bound without ``ce``; A2: the bound times ``5e-7``); exact coefficients of a polynomial
  that vanishes at an end of the interval prove no sign (the bound without its rounding term);
* the filter on intervals through and below 0 (point 3): a polynomial with a root in ``[-1, 1]``
  that the old bound (``Tf`` in place of ``|Tf|``) called positive, and random polynomials on
  random intervals, each sign the filter proves checked against the exact sign (rootcert);
* a root beside a breakpoint, inside its isolating interval: ``_only_root`` unit by unit, and a
  real path with one segment (1.2e-5 bb long) dropped and the float breakpoint 1e-6 off, where
  only step 3 of the proof sees the missed breakpoint (A3);
* overlapping isolating intervals (A8), and intervals that hold three roots or a double root
  beside a simple one (A5: :func:`~sflp.solving.rootcert.is_isolating` without Descartes' count;
  and the breakpoint search that takes the first polynomial with one root in its interval);
* 0.5 crossings: a frequency that touches 0.5 without crossing it, a crossing on a closed end;
* the exact sign and root questions of rootcert on inputs small enough to check by hand.

``tools/mutants.py`` runs these tests against named mutations of the certificate code; the
survivors are listed, with the reason each survives, in ``docs/DEVELOPMENT.md``.  Fast: about
5 s in all.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

import numpy as np
import pytest

from sflp.core.game import GameConfig
from sflp.errors import SolveError
from sflp.solving import rootcert as rc
from sflp.solving import threshcert as tc
from sflp.solving.thresholds import compute_thresholds

# ---------------------------------------------------------------- helpers


def _exact_matrix(d: int, a: Fraction, b: Fraction) -> list[list[int]]:
    """``T[i][k]``: the Moebius map of ``x^i`` (rootcert's own, in integers: a positive multiple of
    the matrix the float filter rounds)."""
    return [rc.moebius([0] * i + [1] + [0] * (d - i), a, b) for i in range(d + 1)]


def _from_t(q: list[int], a: Fraction, b: Fraction) -> list[int]:
    """The integer polynomial ``p`` whose Moebius image on ``(a, b)`` is a positive multiple of
    ``q``: ``p(x) = sum_k q_k (D x - A)^k (B - D x)^(d - k)`` with ``a = A/D``, ``b = B/D``
    (``t = (x - a) / (b - x)`` inverts ``x = (a + b t) / (1 + t)``)."""
    D = math.lcm(a.denominator, b.denominator)
    A, B = int(a * D), int(b * D)
    d = len(q) - 1
    p = [0] * (d + 1)
    for k, qk in enumerate(q):
        term = [1]
        for _ in range(k):
            term = rc._poly_mul(term, [-A, D])
        for _ in range(d - k):
            term = rc._poly_mul(term, [B, -D])
        for i, v in enumerate(term):
            p[i] += qk * v
    return p


def _near_end(rng: random.Random, d: int, a: Fraction, b: Fraction, inside: bool, bits: int) -> list[int]:
    """A polynomial of degree ``d`` with one root ``2^-bits`` (in the Moebius variable) inside or
    outside ``(a, b)`` next to one of its ends, the rest of its roots away from it."""
    tau = 2**bits
    rest = [rng.randint(1, 2**rng.randint(1, 30)) for _ in range(d)]  # positive: no root for t > 0
    lin = [-1, tau] if inside else [1, tau]  # tau t -+ 1: a root at t = +-2^-bits (x just inside or outside a)
    q = rc._poly_mul(lin, rest)
    if rng.random() < 0.5:
        q = q[::-1]  # t -> 1/t: the root next to b instead
    return _from_t(q, a, b)


def _interval(rng: random.Random) -> tuple[Fraction, Fraction]:
    """Random ``a < b``: below 0, through 0, above 0, or with an end at 0 (a line's ``t``)."""
    kind = rng.randrange(4)
    x, y = sorted(Fraction(rng.randint(1, 4000), rng.choice([1, 7, 64, 1000])) for _ in range(2))
    if x == y:
        y += 1
    if kind == 0:
        return -y, -x
    if kind == 1:
        return -x, y
    if kind == 2:
        return x, y
    return (Fraction(0), y) if rng.random() < 0.5 else (-y, Fraction(0))


def _sign(v) -> int:
    return (v > 0) - (v < 0)


# ---------------------------------------------------------------- the float sign filter (A1, A2)


def test_a_sign_the_float_filter_proves_survives_every_coefficient_its_contract_allows():
    """Kills A1 (the bound without the coefficients' error ``ce``) and A2 (the bound times 5e-7).

    ``_float_signs(cf, ce, a, b)`` promises the sign for *every* ``c`` with ``|c - cf| <= ce``.  For
    each sign it proves and each Moebius coefficient ``k``, the admissible ``c`` that pushes that
    coefficient hardest the other way (``c_i = cf_i - s sign(T_ik) ce_i``, exact) must keep the
    sign.  ``ce`` runs from the floats' own rounding to ``2^-8`` of the coefficients, and every
    polynomial has a root just outside the interval, so the proven signs come close to the edge."""
    rng = random.Random(40)
    decided = close = 0
    for _ in range(150):
        a, b = _interval(rng)
        d = rng.randint(1, 5)
        rows = [_near_end(rng, d, a, b, inside=False, bits=rng.randint(1, 40)) for _ in range(6)]
        cf = np.array([[float(Fraction(c, max(map(abs, p)))) for c in p] for p in rows])
        ce = np.abs(cf) * 2.0 ** -rng.choice([8, 12, 20, 30, 45, 52])
        signs = tc._float_signs(cf, ce, a, b)
        T = _exact_matrix(d, a, b)
        for r, s in enumerate(signs.tolist()):
            if not s:
                continue
            decided += 1
            worst = []
            for k in range(d + 1):
                c = [Fraction(cf[r, i]) - s * _sign(T[i][k]) * Fraction(ce[r, i]) for i in range(d + 1)]
                worst.append(s * sum(c[i] * T[i][k] for i in range(d + 1)))
                assert worst[-1] > 0, (a, b, rows[r], k)
            # the test's own power: the same coefficients with ce ten times larger flip some of them
            size = [sum(abs(Fraction(cf[r, i])) * abs(T[i][k]) for i in range(d + 1)) for k in range(d + 1)]
            close += any(w < 10 * sum(Fraction(ce[r, i]) * abs(T[i][k]) for i in range(d + 1)) and w < v
                         for k, (w, v) in enumerate(zip(worst, size)))
    assert decided > 300 and close > 30, (decided, close)


def test_coefficients_at_the_edge_of_the_bound_with_a_root_inside_prove_no_sign():
    """Kills A1 and A2: ``x - 1`` on ``[1.05, 2]`` as floats, with ``ce = 0.1`` on its constant
    term.  ``x - 1.1`` is within the contract and has its root 1.1 inside: no sign is proven.
    With ``ce`` one tenth of that the sign is proven, and it is right for every admissible ``c``."""
    a, b = Fraction(105, 100), Fraction(2)
    cf = np.array([[-1.0, 1.0]])
    assert rc.count_roots([-11, 10], a, b) == 1  # x - 1.1, inside the contract below
    assert tc._float_signs(cf, np.array([[0.1, 0.0]]), a, b).tolist() == [0]
    assert tc._float_signs(cf, np.array([[0.01, 0.0]]), a, b).tolist() == [1]
    assert rc.no_root_closed([-101, 100], a, b)  # x - 1.01: the worst c of ce = 0.01 keeps the sign


def test_a_polynomial_that_vanishes_at_an_end_proves_no_sign_even_with_exact_coefficients():
    """Kills the bound without its rounding term (``2 ce |T|`` alone): exact float coefficients
    (``ce = 0``) of a polynomial with a root exactly at ``a`` or ``b``, an end with a 20- to 26-bit
    numerator and denominator so that the matrix ``Tf`` is rounded.  Its sign on the closed interval
    is not strict, so none may be proven; the float product alone, rounded, comes out with one sign
    in many of these cases (checked: the test's own power)."""
    rng = random.Random(1)
    would = 0
    for _ in range(300):
        a = Fraction(rng.randint(2**20, 2**26), rng.randint(2**20, 2**26)) * rng.choice([1, -1])
        b = a + Fraction(rng.randint(1, 9), rng.randint(1, 9))
        end = a if rng.random() < 0.5 else b
        p = rc._poly_mul(_linear(end), rng.choice(([1], [1, 1], [2, 0, 1], [5, 1, 0, 1])))
        cf = np.array([p], dtype=np.float64)
        assert max(map(abs, p)) < 2**53 and (cf == np.array([p], dtype=object)).all()  # exact floats
        assert tc._float_signs(cf, np.zeros_like(cf), a, b).tolist() == [0], (a, b, p)
        s = cf @ tc._moebius_matrix(len(p) - 1, a, b)
        would += bool((s > 0).all() or (s < 0).all())
    assert would > 50, would


def test_to_float_states_a_bound_on_its_own_rounding():
    """``_to_float``'s ``ce`` bounds the rounding of integers beyond 2^53, exactly."""
    rng = random.Random(3)
    rows = np.array([[rng.randint(-2**200, 2**200) for _ in range(4)] for _ in range(50)]
                    + [[2**53 + 1, -(2**60 + 2**7 + 1), 3, 0]], dtype=object)
    cf, ce = tc._to_float(rows)
    for row, frow, erow in zip(rows, cf, ce):
        for c, f, e in zip(row, frow, erow):
            assert abs(Fraction(int(c)) - Fraction(f)) <= Fraction(e)
    assert tc._to_float(np.array([[2**1100, 1]], dtype=object)) is None


def _fake_segment(rng: random.Random, k: int, wide: bool, n: int = 7):
    """A stand-in for a :class:`~sflp.solving.segment.SegmentCertificate` with ``k`` mixed hands
    a side, as :func:`~sflp.solving.threshcert._float_rows` reads it: its ``M`` and ``Cn`` terms,
    vectors of 62-bit integers (``wide``: up to 200 bits, an object array) times polynomials of
    ``38 + 29 k``-bit integers.  Half the hands' terms cancel to a few bits (``a_2 p_2 = -a_0 p_0``
    plus a little): the exact sum is far below the products, where a bound without the terms'
    rounding fails."""
    from types import SimpleNamespace

    top = 200 if wide else 62
    bits = 38 + 29 * k
    size = k + 2

    def vec():
        return np.array([rng.choice([1, -1]) * rng.randint(2**(top - 10), 2**top - 1) for _ in range(n)],
                        dtype=object if wide else np.int64)

    def poly():
        return [rng.choice([1, -1]) * rng.randint(2**(bits - 4), 2**bits) for _ in range(k + 1)]

    terms = {}
    for kind in ("M", "Cn"):
        polys = [poly() for _ in range(1 + k)]
        vecs = [vec() for _ in range(2 + 2 * k)]
        if k:  # the first coefficient of term 2 (shift 0, polynomial 1) cancels term 0's on half the hands
            polys[1][0] = polys[0][0]
            for h in range(0, n, 2):
                vecs[2][h] = -int(vecs[0][h]) + rng.randint(-8, 8)
        terms[kind] = [(vecs[0], polys[0], 0), (vecs[1], polys[0], 1)] + [
            t for c in range(k) for t in ((vecs[2 + 2 * c], polys[1 + c], 0), (vecs[3 + 2 * c], polys[1 + c], 1))]
    seg = SimpleNamespace(ok=True, sm=list(range(k)), _fits64=not wide, n=n, _terms=terms)
    exact = np.zeros((2 * n, size), dtype=object)
    for g, kind in enumerate(("M", "Cn")):
        for v, p, shift in terms[kind]:
            for t, c in enumerate(p):
                for h in range(n):
                    exact[g * n + h, t + shift] += int(v[h]) * c
    return seg, exact


def test_the_batched_float_rows_bound_their_error_exactly_whatever_the_integers_widths():
    """``_float_rows``'s contract ``|c - cf| <= ce`` for every coefficient of every big row (issue 53),
    on segments of 0 to 5 mixed hands, 62-bit and 200-bit vectors (neither exact in a float), with
    cancelling terms; checked in Fractions.  The test's own power: the floats err (a bound of 0 fails),
    and on the cancelling hands by more than ``u`` times the products' size (a bound that forgets the
    inputs' rounding, ``gamma_T`` of the float sum alone taken as ``u``, fails)."""
    rng = random.Random(53)
    ks = [k for k in range(6) for _ in range(6)]
    segs, exacts = zip(*[_fake_segment(rng, k, wide) for k, wide in zip(ks, [False, True] * 18)])
    errs = beyond_u = 0
    for k, (cf, ce), exact in zip(ks, tc._float_rows(list(segs)), exacts):
        for c, f, e in zip(exact.ravel(), cf.ravel(), ce.ravel()):
            err = abs(Fraction(int(c)) - Fraction(f))
            assert err <= Fraction(e), (k, c, f, e)
            errs += err > 0
            beyond_u += err > Fraction(e) / (2 * (2 + 2 * k + 4))  # u times the products' size
    assert errs > 200 and beyond_u > 10, (errs, beyond_u)
    # out of the float range: that segment the exact route (None), the others still batched
    seg, _ = _fake_segment(rng, 1, True)
    seg._terms["M"][0] = (np.array([2**1100] * seg.n, dtype=object), *seg._terms["M"][0][1:])
    out = tc._float_rows([seg, segs[0]])
    assert out[0] is None and out[1] is not None


# ---------------------------------------------------------------- through and below 0 (issue 40, point 3)


AUDITOR = rc._poly_mul([2**50 - 1, 2**50 + 1], [8, 2, -2])
"""``((2^50 - 1) + (2^50 + 1) x)(8 + 2x - 2x^2)``: one root in ``[-1, 1]``, at
``(1 - 2^50) / (1 + 2^50)``, ``2^-49`` inside the end ``-1`` (the other factor's roots are
``(1 +- sqrt 17) / 2``, outside).  Its Moebius coefficients on ``[-1, 1]`` are ``-1`` and three
large positive ones; its coefficients near ``2^53`` are rounded."""


def test_the_float_filter_proves_no_sign_for_the_auditors_polynomial_on_minus_1_to_1():
    """Issue 40, point 3: the old bound (``Tf`` where ``|Tf|`` belongs) went negative on an
    interval through 0 and called this polynomial positive on ``[-1, 1]``; it has a root inside."""
    a, b = Fraction(-1), Fraction(1)
    root = Fraction(1 - 2**50, 1 + 2**50)
    assert rc.sign_at(AUDITOR, root) == 0 and rc.count_roots(AUDITOR, a, b) == 1
    cf, ce = tc._to_float(np.array([AUDITOR], dtype=object))
    assert tc._float_signs(cf, ce, a, b).tolist() == [0]
    # the test's own power: the old bound, computed here, calls it positive
    Tf = tc._moebius_matrix(3, a, b)
    s = cf @ Tf
    old = 2.0 * (6 * tc._U * (np.abs(cf) @ Tf) + ce @ Tf) + 1e-300
    assert (s > old).all() and (old < 0).any()
    # on [-1, root) and (root, 1] it has one sign each, and the filter may prove it there
    assert tc._float_signs(cf, ce, Fraction(-1, 2), b).tolist() == [1]
    assert tc._float_signs(cf, ce, Fraction(-3, 2), Fraction(-9, 8)).tolist() == [-1]


@pytest.mark.parametrize("seed", range(4))
def test_every_sign_the_float_filter_proves_is_the_exact_sign_on_random_intervals(seed):
    """Random intervals below, through and above 0 (and with an end at 0), random polynomials
    with a root ``2^-1`` to ``2^-60`` inside or outside an end, and random integer polynomials;
    ``ce`` the rounding ``_to_float`` states.  Each sign the filter proves is the sign of the exact
    polynomial on the whole closed interval, decided by rootcert."""
    rng = random.Random(seed)
    decided = inside = 0
    for _ in range(60):
        a, b = _interval(rng)
        d = rng.randint(1, 5)
        rows = [_near_end(rng, d, a, b, inside=rng.random() < 0.5, bits=rng.randint(1, 60)) for _ in range(8)]
        rows += [[rng.randint(-2**70, 2**70) for _ in range(d + 1)] for _ in range(4)]
        conv = tc._to_float(np.array(rows, dtype=object))
        if conv is None:
            continue
        signs = tc._float_signs(*conv, a, b)
        for p, s in zip(rows, signs.tolist()):
            if s:
                decided += 1
                assert rc.no_root_closed(p, a, b) and rc.sign_at(p, a) == s, (a, b, p)
            elif not rc.no_root_closed(p, a, b):
                inside += 1
    assert decided > 150 and inside > 100, (decided, inside)


# ---------------------------------------------------------------- a root beside a breakpoint (A3)


BETA = Fraction(78139762, 10**7)
ULP = Fraction(math.ulp(7.8))


def _linear(root: Fraction) -> list[int]:
    return [-root.numerator, root.denominator]


@pytest.mark.parametrize("E, expected", [
    (rc._poly_mul(_linear(BETA), _linear(BETA + 3 * ULP)), False),  # a second root 3 ulps beside beta
    (rc._poly_mul(_linear(BETA - 3 * ULP), [1, 0, 1]), False),  # its own root, not beta
    (rc._poly_mul(rc._poly_mul(_linear(BETA), _linear(BETA)), [1, 0, 1]), True),  # beta twice, nothing else
    (rc._poly_mul(_linear(BETA), _linear(Fraction(9))), True),  # beta, and a root far outside
    (rc._poly_mul(_linear(Fraction(9)), [1, 0, 1]), True),  # no root there at all
    (rc._poly_mul(rc._poly_mul(_linear(BETA), _linear(BETA)), _linear(BETA + ULP)), False),
])
def test_only_root_sees_a_second_root_a_few_ulps_beside_the_breakpoint(E, expected):
    """Step 3 of the proof, unit by unit: ``E`` may vanish in the breakpoint's interval only at the
    breakpoint ``beta``, the one root of ``P`` there."""
    P = _linear(BETA)
    lo, hi = BETA - 16 * ULP, BETA + 16 * ULP
    assert rc.is_isolating(P, lo, hi)
    assert tc._only_root(E, P, lo, hi) is expected


@pytest.fixture(scope="module")
def short_segment():
    """A real path around 7.8 bb whose shortest segment (1.2e-5 bb, at 7.813976) sits between two
    others: the sub-path of five segments, its ends inside the first and the last, and the index of
    the short one."""
    config = GameConfig(stack=10)
    segs = list(compute_thresholds(config, 7.5, 8.2, certify=False).segments)
    j = min(range(1, len(segs) - 1), key=lambda i: segs[i][1] - segs[i][0])
    assert 1e-5 < segs[j][1] - segs[j][0] < 2e-5
    low, high = (sum(segs[j - 2][:2]) / 2, sum(segs[j + 2][:2]) / 2)
    sub = [(low, segs[j - 2][1], segs[j - 2][2]), *segs[j - 1:j + 2], (segs[j + 2][0], high, segs[j + 2][2])]
    assert len(tc.certify_path(config, low, high, sub).breakpoints) == 4
    return config, low, high, sub


@pytest.mark.parametrize("delta", [1e-6, -1e-6])
def test_a_breakpoint_inside_the_interval_of_its_neighbour_is_caught(short_segment, delta):
    """Kills A3 (step 3 skipped).  Drop the short segment and put the float breakpoint 1e-6 off:
    the search widens the breakpoint's interval to about 1.5e-5 bb, which then holds both the
    breakpoint found and the dropped one.  Step 2 looks only between the intervals; only step 3
    sees the second root, and without it the path is certified with a breakpoint missing."""
    config, low, high, sub = short_segment
    b = sub[2][1]  # the short segment's end
    dropped = [sub[0], (sub[1][0], b + delta, sub[1][2]), (b + delta, sub[3][1], sub[3][2]), sub[4]]
    with pytest.raises(SolveError, match="has a root near the breakpoint .* other than it: a breakpoint was missed"):
        tc.certify_path(config, low, high, dropped)


# ---------------------------------------------------------------- overlapping intervals (A8)


def _root(lo, hi) -> tc.Root:
    return tc.Root("breakpoint", 0, "Q", (0, 1), Fraction(lo), Fraction(hi))


@pytest.mark.parametrize("ends, ok", [
    ([_root(0, 0), _root(1, 2), _root(3, 4), _root(5, 5)], True),
    ([_root(0, 0), _root(1, 3), _root(2, 4), _root(5, 5)], False),  # overlapping
    ([_root(0, 0), _root(1, 2), _root(2, 3), _root(5, 5)], False),  # touching: both hold 2
    ([_root(0, 0), _root(3, 4), _root(1, 2), _root(5, 5)], False),  # out of order
    ([_root(0, 0), _root(1, 6), _root(5, 5)], False),  # over the range's end
    ([_root(1, 1), _root(1, 2), _root(5, 5)], False),  # at the range's start
])
def test_isolating_intervals_must_be_disjoint_and_in_order(ends, ok):
    """Kills A8 (no check that the isolating intervals are disjoint)."""
    floats = [float(r.lo) for r in ends]
    if ok:
        tc._check_in_order(ends, floats)
    else:
        with pytest.raises(SolveError, match="overlap"):
            tc._check_in_order(ends, floats)


def test_a_path_whose_intervals_overlap_is_refused_for_that(short_segment):
    """The short segment's end put 1e-6 early: the widened interval there reaches over the
    segment's start, and the path is refused because the intervals overlap.  (Without that check
    step 3 refuses it too, as a missed breakpoint: on real paths the check is a second line.)"""
    config, low, high, sub = short_segment
    a, b, s = sub[2]
    moved = [*sub[:2], (a, b - 1e-6, s), (b - 1e-6, sub[3][1], sub[3][2]), sub[4]]
    with pytest.raises(SolveError, match="the isolating intervals at .* overlap"):
        tc.certify_path(config, low, high, moved)


# ---------------------------------------------------------------- Descartes' count (A5)


@pytest.mark.parametrize("p, lo, hi", [
    ([-6, 11, -6, 1], 0, 4),  # (x-1)(x-2)(x-3): opposite signs at the ends, three roots
    (rc._poly_mul([-1, 1], [4, -4, 1]), 0, 3),  # (x-1)(x-2)^2: a double root beside a simple one
    # three roots within one float's rounding interval around 7.8: opposite signs at its ends
    (rc._poly_mul(rc._poly_mul(_linear(BETA), _linear(BETA + ULP / 8)), _linear(BETA + ULP / 4)),
     BETA - ULP / 2, BETA + ULP / 2),
])
def test_an_interval_with_a_sign_change_but_more_than_one_root_is_not_isolating(p, lo, hi):
    """Kills A5 (``is_isolating`` without the Descartes count): opposite signs at the ends are not
    enough."""
    lo, hi = Fraction(lo), Fraction(hi)
    assert rc.sign_at(p, lo) * rc.sign_at(p, hi) < 0 and rc.count_roots(p, lo, hi) in (2, 3)
    assert not rc.is_isolating(p, lo, hi)
    assert rc.is_isolating([-1, 1], Fraction(0), Fraction(3)) and rc.is_isolating([-1, 1], Fraction(1), Fraction(1))
    assert not rc.is_isolating([-1, 1], Fraction(2), Fraction(2)) and not rc.is_isolating([-1, 1], hi, lo)
    # one root inside and one at an end: one sign change after the Moebius map (the end's
    # coefficient is 0), but no sign change between the ends
    assert rc.variations(rc.moebius([2, -3, 1], Fraction(1), Fraction(3))) == 1
    assert not rc.is_isolating([2, -3, 1], Fraction(1), Fraction(3))


# ---------------------------------------------------------------- the breakpoint's polynomial, the crossings


class _Rows:
    """A stand-in for a segment's event polynomials (what ``_isolating_row`` reads)."""

    def __init__(self, polys):
        self.polys, self.names = polys, [f"row {r}" for r in range(len(polys))]

    def exact(self, r):
        return self.polys[r]


def test_the_breakpoints_polynomial_has_exactly_one_root_in_its_interval():
    """The search of step 1 takes the first undecided polynomial with exactly one root in the
    interval: not one with a sign change and three roots (in one rounding interval of 7.8), nor
    one whose float sign was proven."""
    lo, hi = BETA - ULP / 2, BETA + ULP / 2
    three = rc._poly_mul(rc._poly_mul(_linear(BETA), _linear(BETA + ULP / 8)), _linear(BETA + ULP / 4))
    one = _linear(BETA + ULP / 8)
    pair = (_Rows([three, one]), _Rows([_linear(BETA)]))
    found, tried = tc._isolating_row(pair, [np.zeros(2), np.zeros(1)], lo, hi, 4)
    assert (found.name, found.segment, found.poly, tried) == ("row 1", 4, tuple(one), 2)
    found, tried = tc._isolating_row(pair, [np.array([0, 1]), np.zeros(1)], lo, hi, 4)  # row 1 decided: skipped
    assert (found.name, found.segment, tried) == ("row 0", 5, 2)
    assert tc._isolating_row(pair, [np.array([0, 1]), np.array([-1])], lo, hi, 4) == (None, 1)


def test_a_frequency_that_touches_one_half_without_crossing_it_has_no_crossing():
    """``F = (x - 2)^2 (x - 3)`` on ``[1, 4]``: F touches 0 at 2 (the frequency reaches 0.5 and
    turns back) and crosses it at 3.  One crossing, at 3; with ``Q < 0`` the signs turn over."""
    F = rc._poly_mul([4, -4, 1], [-3, 1])
    roots, signs = tc._crossings(F, Fraction(1), Fraction(4), False, False, 1, 0, "F sb K7o")
    assert [r.value for r in roots] == [3.0] and signs == [-1, 1]
    assert roots[0].kind == "crossing" and roots[0].name == "F sb K7o" and roots[0].lo <= 3 <= roots[0].hi
    _, signs = tc._crossings(F, Fraction(1), Fraction(4), False, False, -1, 0, "F sb K7o")
    assert signs == [1, -1]
    roots, signs = tc._crossings([1, 0, 1], Fraction(-1), Fraction(1), False, False, 1, 0, "F bb 22")
    assert roots == [] and signs == [1]


def test_a_crossing_on_a_closed_end_of_the_gap_is_refused():
    """A root of F on a closed end would fall between the gap's isolation and the interval's:
    refused (an end of the range, open, may hold one)."""
    with pytest.raises(SolveError, match="0.5 crossing of sb K7o on a certificate boundary"):
        tc._crossings([-1, 1], Fraction(1), Fraction(4), False, False, 1, 0, "F sb K7o")
    with pytest.raises(SolveError, match="on a certificate boundary"):
        tc._crossings([-4, 1], Fraction(1), Fraction(4), True, False, 1, 0, "F sb K7o")
    roots, signs = tc._crossings([-1, 1], Fraction(1), Fraction(4), True, False, 1, 0, "F sb K7o")
    assert roots == [] and signs == [1]


# ---------------------------------------------------------------- rootcert and threshcert by hand


def test_exact_sign_on_an_interval_sees_roots_inside_and_at_closed_ends():
    p = [-1, 1]  # x - 1
    assert tc._exact_sign_on(p, Fraction(1), Fraction(2), False, False) == 0  # a root at a closed end
    assert tc._exact_sign_on(p, Fraction(1), Fraction(2), True, False) == 1  # open there: positive on (1, 2]
    assert tc._exact_sign_on(p, Fraction(0), Fraction(1), False, True) == -1
    assert tc._exact_sign_on(p, Fraction(0), Fraction(1), False, False) == 0
    two = [2, -3, 1]  # (x-1)(x-2): same sign at 0 and 3, two roots between
    assert tc._exact_sign_on(two, Fraction(0), Fraction(3), False, False) == 0
    assert tc._exact_sign_on([1, 0, 1], Fraction(-5), Fraction(5), False, False) == 1


def test_no_root_closed_counts_the_ends_and_the_roots_between():
    assert not rc.no_root_closed([-1, 1], Fraction(1), Fraction(2))  # root at the end
    assert not rc.no_root_closed([-1, 1], Fraction(0), Fraction(1))
    assert not rc.no_root_closed([-3, 2], Fraction(1), Fraction(2))  # one root inside
    assert not rc.no_root_closed([2, -3, 1], Fraction(0), Fraction(3))  # two inside, same signs at the ends
    assert rc.no_root_closed([2, -3, 1], Fraction(5, 4), Fraction(7, 4))
    assert rc.no_root_closed([1, 0, 1], Fraction(-1), Fraction(1)) and not rc.no_root_closed([], 0, 1)


def test_variations_and_isolation_by_hand():
    assert rc.variations([1, 0, -2, 3, 0, 0, 4]) == 2 and rc.variations([-1, -2]) == 0
    assert rc.variations([0, 0, -1, 1]) == 1 and rc.variations([]) == 0
    # (x-1)(x-2)(x-3)(x-4): four roots, an even count, isolated one by one
    p = rc._poly_mul([2, -3, 1], [12, -7, 1])
    iso = rc.isolate(p, Fraction(0), Fraction(5))
    assert len(iso) == 4 and all(lo <= r <= hi for (lo, hi), r in zip(iso, range(1, 5)))
    assert all(lo == hi or rc.is_isolating(p, lo, hi) for lo, hi in iso)
    # two roots close together: Descartes counts 2 on (0, 2); bisection separates them
    close = rc._poly_mul([-1000, 1000], [-1001, 1000])
    assert rc.variations(rc.moebius(close, Fraction(0), Fraction(2))) == 2
    assert rc.count_roots(close, Fraction(0), Fraction(2)) == 2
    assert rc.isolate([0, 0, 1], Fraction(-1), Fraction(1)) == [(Fraction(-1), Fraction(1))]  # x^2: its square-free x
    cubic = rc.isolate([0, -1, 0, 1], Fraction(-2), Fraction(2))  # x^3 - x: -1, 0, 1, the interval through 0
    assert len(cubic) == 3 and all(lo < r < hi for (lo, hi), r in zip(cubic, (-1, 0, 1)))
    assert all(a[1] <= b[0] for a, b in zip(cubic, cubic[1:]))


def test_the_side_of_a_root_and_its_rounding_by_hand():
    p, lo, hi = [-2, 0, 1], Fraction(1), Fraction(2)  # sqrt 2
    assert rc._side(p, lo, hi, Fraction(141, 100)) == 1 and rc._side(p, lo, hi, Fraction(142, 100)) == -1
    q = [2, 0, -1]  # -(x^2 - 2): the same root, the other orientation
    assert rc._side(q, lo, hi, Fraction(141, 100)) == 1 and rc._side(q, lo, hi, Fraction(142, 100)) == -1
    assert rc._side(p, lo, hi, lo) == 1 and rc._side(p, lo, hi, hi) == -1
    assert rc.round_decimal([-2, 0, 1], lo, hi, 3) == "1.414" and rc.round_decimal(q, lo, hi, 2) == "1.41"
    assert rc.round_decimal([-5, 2], Fraction(2), Fraction(3), 0) == "2"  # 2.5: to even
    assert rc.round_decimal([7, 2], Fraction(-4), Fraction(-3), 0) == "-4"  # -3.5: to even
    assert rc.floor_multiple([7, 2], Fraction(-4), Fraction(-3), 10) == -35
    assert rc.floor_multiple([-71, 10], Fraction(7), Fraction(8), 10) == 71  # on the boundary itself
    assert rc.sign_at([-2, 0, 1], Fraction(-3, 2)) == 1 and rc.sign_at([1, -3], Fraction(1, 3)) == 0
