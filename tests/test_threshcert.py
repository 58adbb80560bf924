"""Tests of the thresholds' exact certificate (sflp.solving.rootcert, sflp.solving.threshcert).

References are independent of the code under test: roots known by construction, decimals from
plain Fraction bisection and Decimal, strategies from exact LP-plus-certificate solves
(sflp.solve(exact=True)) on either side of each published threshold.
"""

from __future__ import annotations

import math
import random
from decimal import ROUND_HALF_EVEN, Decimal, localcontext
from fractions import Fraction

import numpy as np
import pytest

from sflp.core.game import GameConfig, PushFoldGame
from sflp.errors import SolveError
from sflp.solving import rootcert as rc
from sflp.solving.solver import solve
from sflp.solving.threshcert import certify_path
from sflp.solving.thresholds import compute_thresholds

CONFIG = GameConfig(stack=10)
LOW, HIGH = 1.0, 10.0


@pytest.fixture(scope="module")
def th():
    return compute_thresholds(CONFIG, LOW, HIGH)


def _value(poly, x: Fraction) -> Fraction:
    return sum(Fraction(c) * x**t for t, c in enumerate(poly))


def _reference_root(poly, lo: Fraction, hi: Fraction, width=Fraction(1, 10**40)) -> tuple[Fraction, Fraction]:
    """Plain bisection with Fractions (independent of rootcert)."""
    f_lo = _value(poly, lo)
    assert f_lo * _value(poly, hi) < 0
    while hi - lo > width:
        mid = (lo + hi) / 2
        f = _value(poly, mid)
        if f == 0:
            return mid, mid
        if (f > 0) == (f_lo > 0):
            lo = mid
        else:
            hi = mid
    return lo, hi


def _decimal6(x: Fraction) -> str:
    with localcontext() as ctx:
        ctx.prec = 80
        return str((Decimal(x.numerator) / Decimal(x.denominator)).quantize(Decimal("0.000001"),
                                                                           rounding=ROUND_HALF_EVEN))


# ---------------------------------------------------------------- rootcert against known roots


def _from_roots(roots: list[Fraction], quadratics: list[tuple[int, int, int]]) -> list[int]:
    poly = [1]
    for r in roots:
        poly = rc._poly_mul(poly, [-r.numerator, r.denominator])
    for c, b, a in quadratics:  # a x^2 + b x + c
        poly = rc._poly_mul(poly, [c, b, a])
    return poly


@pytest.mark.parametrize("seed", range(25))
def test_isolate_counts_and_rounds_roots_known_by_construction(seed):
    rng = random.Random(seed)
    roots = sorted({Fraction(rng.randint(1, 2000), rng.randint(1, 97)) for _ in range(rng.randint(1, 4))})
    twice = roots[:1]  # a double root: counted once
    quad = [(-rng.randint(2, 50), 0, 1)]  # x^2 - c: roots +-sqrt(c), one positive
    factor = rng.choice([1, -1, 7])
    poly = [factor * v for v in _from_roots(roots + twice, quad)]
    c = -quad[0][0]
    positive = sorted(set(roots) | {Fraction(math.isqrt(c * 10**40), 10**20)})
    a, b = Fraction(1, 1000), Fraction(3000)
    iso = rc.isolate(poly, a, b)
    assert len(iso) == len(set(roots)) + 1 == rc.count_roots(poly, a, b)
    for (lo, hi), ref in zip(iso, positive):
        assert lo <= ref + Fraction(1, 10**19) and ref - Fraction(1, 10**19) <= hi
        if lo == hi:
            assert lo in roots
            continue
        sq = rc.square_free(poly)
        assert rc.is_isolating(sq, lo, hi)
        assert rc.round_decimal(sq, lo, hi, 6) == _decimal6(_reference_root(sq, lo, hi)[0])
        x = rc.nearest_float(sq, lo, hi)
        r_lo, r_hi = _reference_root(sq, lo, hi)
        assert x == float(r_lo) == float(r_hi) or abs(Fraction(x) - r_lo) <= abs(Fraction(math.nextafter(x, 0)) - r_lo)


def test_rounding_and_floor_are_decided_exactly_at_a_boundary():
    # x - 7.1 (the root is on a 0.1 boundary) and 2x - 2.0000005 (on a 6-decimal tie: to even)
    p = [-71, 10]
    assert rc.floor_multiple(p, Fraction(7), Fraction(8), 10) == 71
    assert rc.floor_multiple([-70999999999, 10**10], Fraction(7), Fraction(8), 10) == 70  # 7.0999999999
    tie = [-20000005, 10**7]  # root 2.0000005: ties to even -> 2.000000
    assert rc.round_decimal(tie, Fraction(1), Fraction(3), 6) == "2.000000"
    tie_odd = [-20000015, 10**7]  # 2.0000015 -> 2.000002
    assert rc.round_decimal(tie_odd, Fraction(1), Fraction(3), 6) == "2.000002"
    near = [-(2 * 10**16 + 5 * 10**9 - 1), 10**16]  # 2.0000004999999 -> 2.000000
    assert rc.round_decimal(near, Fraction(1), Fraction(3), 6) == "2.000000"


# ---------------------------------------------------------------- the certified path


def test_every_published_root_is_isolated_and_printed_correctly(th):
    cert = th.certificate
    roots = list(cert.breakpoints) + [r for seg in cert.crossings for rs in seg.values() for r in rs]
    assert len(cert.breakpoints) == len(th.breakpoints) > 20
    assert any(r.kind == "crossing" for r in roots)
    for r in roots:
        assert r.lo < r.hi and rc.is_isolating(list(r.poly), r.lo, r.hi)
        ref_lo, ref_hi = _reference_root(list(r.poly), r.lo, r.hi)
        assert _decimal6(ref_lo) == _decimal6(ref_hi) == r.decimal()
        assert float(ref_lo) == float(ref_hi) == r.value  # the exact root rounded once
        assert math.floor(ref_lo * 10) == math.floor(ref_hi * 10) == r.tenths()
    # every interval text of thresholds.csv is made of these roots' decimals and the range's ends
    texts = {r.decimal() for r in roots} | {f"{LOW:.6f}", f"{HIGH:.6f}"}
    for h in th.hands:
        iv_text, any_text, top = h.published_texts()
        assert top is None or top in texts
        assert len(iv_text.split(";")) == len(h.intervals) or not h.intervals
        for part in iv_text.split(";") + any_text.split(";"):
            if part:
                a, b = part.split("-")
                assert a in texts and b in texts


def test_labels_are_the_floor_of_the_exact_root(th):
    tops = {}
    for r in list(th.certificate.breakpoints) + [r for seg in th.certificate.crossings for rs in seg.values()
                                                 for r in rs]:
        tops[r.value] = r
    for h in th.hands:
        if h.max_stack is None or h.capped:
            continue
        ref_lo, _ = _reference_root(list(tops[h.max_stack].poly), tops[h.max_stack].lo, tops[h.max_stack].hi)
        k = math.floor(ref_lo * 10)
        assert h.label() == f"{k // 10}.{k % 10}"


def test_certified_hands_agree_with_the_float_path(th):
    flt = compute_thresholds(CONFIG, LOW, HIGH, certify=False)
    for a, b in zip(flt.hands, th.hands):
        assert len(a.intervals) == len(b.intervals) and len(a.any_intervals) == len(b.any_intervals)
        for (p, q), (r, s) in zip(a.intervals + a.any_intervals, b.intervals + b.any_intervals):
            assert abs(p - r) <= 1e-9 and abs(q - s) <= 1e-9


def _support_of(solution) -> tuple:
    x, y = solution.sb_exact, solution.bb_exact
    cat = lambda v: 0 if v == 0 else (2 if v == 1 else 1)  # noqa: E731
    return tuple(map(cat, x)), tuple(map(cat, y))


def test_exact_solves_either_side_of_each_threshold_see_what_it_says(th):
    """The independent exact route (LP + certificate) at stacks just below and above a published
    root: a breakpoint changes the support, a crossing moves the hand's frequency across 1/2."""
    cert = th.certificate
    rng = random.Random(7)
    picks = rng.sample(list(cert.breakpoints), 6)
    picks += rng.sample([r for seg in cert.crossings for rs in seg.values() for r in rs], 4)
    for r in picks:
        eps = r.value * 1e-9
        below, above = (solve(CONFIG.with_stack(r.value + s * eps), exact=True) for s in (-1, 1))
        assert below.certified and above.certified
        assert Fraction(below.config.stack) < r.lo and r.hi < Fraction(above.config.stack)
        if r.kind == "breakpoint":
            assert _support_of(below) != _support_of(above)
            tag, hand = r.name.split(" ") if " " in r.name else (r.name, None)
            if tag == "M":  # SB's margin of the hand changes sign (or reaches 0: it turns mixed)
                from sflp.core.cards import CLASS_INDEX

                i = CLASS_INDEX[hand]
                from sflp.solving.certify import exact_sb_margins

                m_below = exact_sb_margins(PushFoldGame(below.config), below.bb_exact)[i]
                m_above = exact_sb_margins(PushFoldGame(above.config), above.bb_exact)[i]
                assert (m_below > 0) != (m_above > 0) or 0 in (m_below, m_above)
        else:
            _, player, hand = r.name.split(" ")
            from sflp.core.cards import CLASS_INDEX

            i = CLASS_INDEX[hand]
            x_below, x_above = (s.sb_exact[i] if player == "sb" else s.bb_exact[i] for s in (below, above))
            assert (x_below - Fraction(1, 2)) * (x_above - Fraction(1, 2)) < 0


def test_a_dropped_breakpoint_is_caught(th):
    segs = list(th.segments)
    for j in (3, len(segs) // 2):
        merged = segs[:j] + [(segs[j][0], segs[j + 1][1], segs[j][2])] + segs[j + 2:]
        with pytest.raises(SolveError, match="missed|wrong sign|isolates"):
            certify_path(CONFIG, LOW, HIGH, merged)


def _moved(segs, j, by):
    return segs[:j] + [(segs[j][0], segs[j][1] + by, segs[j][2]), (segs[j + 1][0] + by, *segs[j + 1][1:])] \
        + segs[j + 2:]


def test_a_slightly_wrong_float_breakpoint_is_corrected_and_a_wrong_one_caught(th):
    segs = list(th.segments)
    j = next(j for j in range(len(segs) // 3, len(segs) - 1)
             if min(segs[j][1] - segs[j][0], segs[j + 1][1] - segs[j + 1][0]) > 0.01)
    cert = certify_path(CONFIG, LOW, HIGH, _moved(segs, j, 1e-7))  # found by widening the interval
    assert cert.breakpoints[j] == th.certificate.breakpoints[j]
    assert cert.breakpoints[j].value == th.breakpoints[j]
    with pytest.raises(SolveError, match="isolates"):
        certify_path(CONFIG, LOW, HIGH, _moved(segs, j, 2e-3))


def test_a_wrong_support_is_caught(th):
    segs = list(th.segments)
    j = len(segs) // 2
    swapped = segs[:j] + [(segs[j][0], segs[j][1], segs[j - 2][2])] + segs[j + 1:]
    with pytest.raises(SolveError):
        certify_path(CONFIG, LOW, HIGH, swapped)


def test_the_float_first_big_rows_decide_the_exact_signs_and_the_same_proof(th, monkeypatch):
    """Issue 53: the big rows (``M``, ``Cn``) made in one batched float product with a proven bound
    (``_float_rows``) against their exact integers (``SegmentCertificate.M``, ``.Cn``) on the 1-10 path:
    every coefficient within its bound (and some floats inexact: a bound of 0 fails), every sign the
    float filter proves on a gap the exact sign there (a flipped row fails), and the whole proof the
    same as the exact route's (``_EXACT_BIG_ROWS``, the code before issue 53), question for question,
    on its first 60 segments (to the middle of the 60th)."""
    from sflp.solving import threshcert as tc
    from sflp.solving.segment import SegmentCertificate

    game = PushFoldGame(CONFIG.with_stack(LOW))
    part = list(th.segments[:60])
    high = (part[-1][0] + part[-1][1]) / 2
    segs = [SegmentCertificate(game, sup) for _, _, sup in part]
    cert = th.certificate
    ends = [cert.low, *cert.breakpoints, cert.high]
    inexact = decided = 0
    for j, (seg, big) in enumerate(zip(segs, tc._float_rows(segs))):
        sr = tc._SegRows(j, seg, big)  # the rows and bounds the proof uses
        rows = np.vstack([seg.M[sr.sb_rows], seg.Cn[sr.bb_rows]])
        cf, ce = sr.cf[sr.n_small:], sr.ce[sr.n_small:]
        cfx = np.array([[int(v) if abs(v) >= 2**52 else Fraction(v) for v in row] for row in cf.tolist()],
                       dtype=object)  # the floats exactly (every float beyond 2^52 is an integer)
        err = np.abs(rows - cfx)
        assert (err <= ce.astype(object)).all()  # int or Fraction against float: compared exactly
        inexact += int((err > 0).sum())
        a, b = ends[j].hi, ends[j + 1].lo  # inside the open segment: every row of one sign on [a, b]
        signs = sr.float_signs(a, b)[sr.n_small:]
        for x in (a, b):
            powers = np.array([x.numerator**t * x.denominator**(seg.d - t) for t in range(seg.d + 1)], dtype=object)
            at = (rows @ powers).tolist()
            assert all(s == (v > 0) - (v < 0) for s, v in zip(signs.tolist(), at) if s)
        decided += int(np.count_nonzero(signs))
    assert inexact > 1000 and decided > 0.99 * len(segs) * 338, (inexact, decided)
    floats = certify_path(CONFIG, LOW, high, part)
    monkeypatch.setattr(tc, "_EXACT_BIG_ROWS", True)
    exact_route = certify_path(CONFIG, LOW, high, part)
    assert floats == exact_route
    assert (floats.exact_checks, floats.float_checks) == (exact_route.exact_checks, exact_route.float_checks)
    assert [r.value for r in floats.breakpoints] == [r.value for r in exact_route.breakpoints]
