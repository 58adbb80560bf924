"""Tests that would catch a wrong proof in the block path (issue 31, part 4).

The other proof tests check that what the block path publishes agrees with the exact route on
real grids.  There the error bounds have a wide margin and almost every sign is far from 0, so a
proof that is too weak (a missing sign check, a bound that is too small) still publishes the
right numbers.  The tests here are built so that such a weakened proof publishes a wrong number:

* a segment's support fed with the stacks of its *neighbouring* segments, where it is not an
  equilibrium (one hand's margin has crossed 0): :meth:`SegmentCertificate.block` must certify
  none of them, and the exact certificate arithmetic (:mod:`sflp.solving.certify`) confirms that
  each one really is no equilibrium;
* rows of ``M``, ``Cn`` and ``Rn`` whose terms cancel (integer vectors times 300-bit
  polynomials summing to ``2^-100`` of their size): the double-double rows of
  :meth:`SegmentCertificate._dd_rows`, evaluated with the magnitudes it returns, must be within
  their bound of the exact integers;
* adversarial near-ties: ratios a few units of ``1/N`` from a rounding midpoint, with terms near
  ``2^243`` that cancel to ``2^-30`` of their size and whose double-double errors were pushed up
  (a search, see :data:`NEAR_TIES`), so that their real error is about ``1/22`` of the stated
  bound.  The proof must never publish a wrong float on them, and the test checks its own power:
  the same evaluation with the bound divided by 32 publishes wrong floats.

``tools/mutants.py`` runs these tests against named mutations of the proof code; the survivors
are listed, with the reason each survives, in ``docs/DEVELOPMENT.md``.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from sflp.core.game import GameConfig
from sflp.solving import ddeval
from sflp.solving.certify import exact_exploitability
from sflp.solving.segment import SegmentCertificate, _decimal, evaluate
from sflp.solving.solver import make_game
from sflp.solving.thresholds import compute_thresholds

ROUTES = [False, True]
"""numpy, and the compiled kernels (sflp.solving.ddkernel)."""


# ---------------------------------------------------------------- adversarial near-ties

NEAR_TIES = [  # (x, [c0, c1]): H(x, 100) = 100 c0 + c1 x, terms near 2^243 that cancel
    (139336, [9616617289829843232809173520108922390688393020733602887202988978941372148,
              -6901746346790573470228816107982457741393448412693518000461738017451000]),  # 19.8
    (314877, [-10866002941866353560361857470287755680995292478695551763578620000616349384,
              3450873173395287649336360512793787793965537996265914932488914610782119]),  # 23.2
    (81082, [11192147945820171239970736558833052446110576169388107314037901529079950684,
             -13803492693581147451532312995548581813672199427731101041470314343676062]),  # 22.8
    (332454, [11472606521989816522310510347299772279414834770823081235823033033049742099,
              -3450873173395283093284019543191824754587245359101695499866423384795965]),  # 23.3
    (68710, [-9484199629897329924888933376434556864668904339402801319642579813578177942,
             13803492693581147069546601556064411245687057669550636725113294201958297]),  # 19.4
    (10411, [-11496652994628404734036436242948141760962450070817445390054423877613750352,
             110427941548649054912347285301461209045704044185809188244741037987062904]),  # 22.0
]
"""Found by ``tools/near_ties.py`` (a hill climb over the low bits of two-term polynomials whose
coefficients sit just above powers of two, so that their double-doubles keep the largest
remainders): the stated bound of :func:`sflp.solving.ddeval.comp_horner` is 19 to 24 times the
real error at these points (the comment), against 40 to 70 for random polynomials."""

QC = 100
FLOATS = (1.0, 1.37, 0.3, -2.5, 6.02e23)
"""Around each: the float itself (far from any rounding boundary: must be proven) and its upper
rounding midpoint plus or minus 3 units of ``1/N`` (a near-tie)."""


def _near_tie_ratios(x: int, cs: list[int]) -> tuple[list, list[Fraction]]:
    """The rows ``N = cs`` and ``D = 1`` (``H = 100``) and the exact ratios ``N w / D`` to publish,
    each given by its weight ``w = T D / N`` for a target ``T``: ``(polys, targets)``."""
    value = QC * cs[0] + cs[1] * x
    targets = []
    for f in FLOATS:
        mid = (Fraction(f) + Fraction(math.nextafter(f, math.inf))) / 2
        targets += [Fraction(f), mid + Fraction(3, abs(value)), mid - Fraction(3, abs(value))]
    return [cs, [1, 0]], targets


def _evaluate_near_ties(x: int, cs: list[int], compiled: bool, shrink: float = 1.0, swap: bool = False):
    """The published floats and their proofs for every target; ``shrink`` divides the stated
    bound (the test's check of its own power, numpy route); ``swap`` puts the cancelling row in
    the denominator (``T = 100 w / N``)."""
    polys, targets = _near_tie_ratios(x, cs)
    value = QC * cs[0] + cs[1] * x
    weights = [ddeval.to_dd(t * value / QC if swap else t * QC / value) for t in targets]
    hi, lo, shift = ddeval.scaled_coefficients(polys)
    m = len(targets)
    num, den = ([1] * m, [0] * m) if swap else ([0] * m, [1] * m)
    wh, wl = [w[0] for w in weights], [w[1] for w in weights]
    scale = shift[num] - shift[den]
    xs = np.array([float(x)])
    if shrink == 1.0:
        values, ok, _ = evaluate(hi, lo, QC, xs, num, den, wh, wl, scale, compiled=compiled)
    else:
        ch, cl, ca = ddeval.at_denominator(hi, lo, QC)
        H, L, B = ddeval.comp_horner(ch, cl, xs, ca)
        values, ok = ddeval.ratios(H, L, B / shrink, num, den, wh, wl, scale)
    return targets, values[:, 0], ok[:, 0]


@pytest.mark.parametrize("swap", [False, True], ids=["N/1", "1/N"])
@pytest.mark.parametrize("compiled", ROUTES)
@pytest.mark.parametrize("x, cs", NEAR_TIES)
def test_near_ties_never_publish_a_wrong_float(x, cs, compiled, swap):
    """Ratios 3 units of 1/N from a rounding midpoint, N cancelling to 2^-15 .. 2^-45 of its
    terms, N in the numerator or in the denominator: every float the proof publishes is the
    exact ratio rounded once (Fraction), the floats far from a boundary are proven, and the
    near-ties are not."""
    targets, values, ok = _evaluate_near_ties(x, cs, compiled, swap=swap)
    for t, v, proven in zip(targets, values, ok):
        if proven:
            assert v == float(t), (x, t)
    assert ok[0::3].all()  # the floats themselves: far from any boundary
    assert not ok[1::3].any() and not ok[2::3].any()  # 3/N from a midpoint: within any honest bound


@pytest.mark.parametrize("swap", [False, True], ids=["N/1", "1/N"])
@pytest.mark.parametrize("x, cs", NEAR_TIES)
def test_near_ties_catch_a_bound_32_times_too_small(x, cs, swap):
    """The test above has teeth: the same evaluation with comp_horner's bound divided by 32
    publishes a wrong float at every case (the real error is 1/19 to 1/24 of the bound)."""
    targets, values, ok = _evaluate_near_ties(x, cs, False, shrink=32.0, swap=swap)
    wrong = [t for t, v, proven in zip(targets, values, ok) if proven and v != float(t)]
    assert len(wrong) >= len(FLOATS) - 1, (x, len(wrong))


# ---------------------------------------------------------------- rows whose terms cancel


def _cancelling_segment(n: int = 6, seed: int = 4) -> SegmentCertificate:
    """A stand-in segment (``d = 2``) whose rows ``M``, ``Cn``, ``Rn`` are sums of terms, 62-bit
    integer vectors times 300-bit polynomials, that cancel: hand 0 not at all, hand 1 to ``2^-40``
    of its terms, hand 2 to ``2^-100``, hand 3 to ``2^-100`` plus 1, hand 4 to an exact 0 and
    hand 5 to ``-1``.  Only what :meth:`SegmentCertificate._dd_rows` reads is set."""
    rng = np.random.default_rng(seed)
    seg = SegmentCertificate.__new__(SegmentCertificate)
    seg.n, seg.d, seg._fits64 = n, 2, True

    def big(bits: int) -> int:
        return (int(rng.integers(2**61, 2**62)) << (bits - 62)) | int(rng.integers(0, 2**62))

    def vec(*values: int) -> np.ndarray:
        return np.array(values, dtype=np.int64)

    terms = {}
    for g, kind in enumerate(("M", "Cn", "Rn")):
        P = [big(300) * (-1) ** (g + t) for t in range(2)]
        near = [p + big(260) for p in P]  # P plus a drift of 2^-40 of it
        nearer = [p - big(200) for p in P]  # P plus a drift of 2^-100 of it
        a = [int(v) for v in rng.integers(2**60, 2**62, size=n)]
        terms[kind] = [  # (vector over the hands, polynomial, degree shift)
            (vec(a[0], a[1], a[2], -a[3], a[4], a[5]), P, 0),
            (vec(0, -a[1], 0, 0, 0, 0), near, 0),
            (vec(0, 0, -a[2], a[3], 0, 0), nearer, 0),
            (vec(a[0] // 3, 0, 0, 0, 0, 0), P, 1),
            (vec(0, 0, 0, 1, 0, -1), [1, 0], 0),
            (vec(0, 0, 0, 0, -a[4], -a[5]), P, 0),
        ]
    seg._terms = terms
    return seg


def _exact_rows(seg: SegmentCertificate) -> list[list[int]]:
    rows = []
    for kind in ("M", "Cn", "Rn"):
        for i in range(seg.n):
            out = [0] * (seg.d + 1)
            for vec, poly, shift in seg._terms[kind]:
                for t, c in enumerate(poly):
                    out[t + shift] += int(vec[i]) * c
            rows.append(out)
    return rows


@pytest.mark.parametrize("compiled", ROUTES)
def test_rows_summed_from_cancelling_terms_stay_within_their_bound(compiled):
    """The double-double rows of _dd_rows, evaluated by comp_horner with the magnitudes _dd_rows
    returns, are within the stated bound of the exact integers at every stack, and every sign
    they call proven is the exact sign.  The bound must count the terms' magnitudes: a row that
    cancels to 2^-100 of its terms carries the terms' rounding errors, not its own size's."""
    seg = _cancelling_segment()
    exact = _exact_rows(seg)
    cancels = [max(abs(c) for c in row) for row in exact]
    assert min(c for c in cancels if c) < 2.0**270  # hands 2 and 3: far below their 2^360 terms
    hi, lo, cabs = seg._dd_rows(compiled)
    assert hi.shape == (3 * seg.n, seg.d + 1)
    qc = 100
    xs = [1, 137, 2_500, 99_999, 10**6]
    ch, cl, ca = ddeval.at_denominator(hi, lo, qc, cabs)
    if compiled:
        from sflp.solving import ddkernel

        H, L, B, sign = ddkernel.horner_block(ch, cl, ca, np.array(xs, dtype=np.float64))
    else:
        H, L, B = ddeval.comp_horner(ch, cl, np.array(xs, dtype=np.float64), ca)
        sign = ddeval.proven_sign(H, B)
    # a sign is proven only beyond the bound: some values here are nonzero floats within it
    unproven = (H != 0) & (np.abs(H) <= B)
    assert unproven.any() and (sign[unproven] == 0).all()
    proven = 0
    for r, row in enumerate(exact):
        for s, x in enumerate(xs):
            value = sum(c * x**t * qc ** (seg.d - t) for t, c in enumerate(row))
            assert abs(Fraction(H[r, s]) + Fraction(L[r, s]) - value) <= Fraction(B[r, s]), (r, s)
            if sign[r, s]:
                assert sign[r, s] == (1 if value > 0 else -1), (r, s)
                proven += 1
            if value == 0:
                assert sign[r, s] == 0
    assert proven >= len(exact) * len(xs) // 3  # the rows that do not cancel deeply are decided


# ---------------------------------------------------------------- overflow proves nothing


@pytest.mark.filterwarnings("error")  # numpy warns when it casts a NaN to an integer (undefined in C)
def test_proven_sign_of_nan_and_inf_is_unproven():
    h = np.array([2.0, -2.0, np.nan, np.inf, -np.inf, np.nan, 1e308, 0.5])
    bound = np.array([1.0, 1.0, 1.0, 1.0, 1.0, np.inf, np.inf, np.nan])
    assert ddeval.proven_sign(h, bound).tolist() == [1, -1, 0, 0, 0, 0, 0, 0]


@pytest.mark.filterwarnings("error")
@pytest.mark.parametrize("compiled", ROUTES)
def test_an_evaluation_that_overflows_proves_no_sign_and_no_ratio(compiled):
    """Degree 24 at x = 2^50: x^24 overflows a float, the Horner values and bounds become inf or
    NaN, and no sign or ratio is called proven (the exact values are huge and nonzero; the
    caller computes them exactly)."""
    polys = [[(-1) ** t for t in range(25)], [1] + [0] * 23 + [1], [1] + [0] * 24]
    hi, lo, shift = ddeval.scaled_coefficients(polys)
    xs = np.array([2.0**50, 3.0])
    with np.errstate(over="ignore", invalid="ignore"):
        values, ok, sign = evaluate(hi, lo, 1, xs, [0, 1], [2, 2], [1.0, 1.0], [0.0, 0.0],
                                    shift[[0, 1]] - shift[[2, 2]], compiled=compiled)
    assert sign[:2, 0].tolist() == [0, 0] and not ok[:, 0].any()
    assert sign[:, 1].tolist() == [1, 1, 1] and ok[:, 1].all()  # at x = 3 all is finite and proven
    assert values[0, 1] == float(sum((-3) ** t for t in range(25))) and values[1, 1] == 3.0**24 + 1


@pytest.mark.filterwarnings("error")
@pytest.mark.parametrize("compiled", ROUTES)
def test_a_value_that_overflows_in_its_last_rounding_proves_no_sign(compiled):
    """Kills ddkernel's ``decided = True`` (issue 40, mutant D3).  A row ``c0 + 0 x`` whose
    constant is the largest float plus a low part that carries it past it: ``h`` is +-inf while
    the bound (about ``1e-31`` of the largest float) stays finite.  An overflowed value proves
    nothing, so both routes give sign 0, the same bits; without the guard the kernel called
    ``h = inf > bound`` a proven sign.  (Such a value's sign is the sign of the huge exact value,
    so the guard keeps the kernel to its contract and to numpy's bits, not from a wrong sign.)"""
    big = np.finfo(np.float64).max
    for s in (1.0, -1.0):
        ch = np.array([[s * big, 0.0], [-3.0, 1.0]])  # the second row: -2 at x = 1, finite and proven
        cl = np.array([[s * 1.5 * 2.0**970, 0.0], [0.0, 0.0]])
        x = np.array([1.0])
        with np.errstate(over="ignore", invalid="ignore"):
            if compiled:
                from sflp.solving import ddkernel

                H, _, B, sign = ddkernel.horner_block(ch, cl, np.abs(ch), x)
            else:
                H, _, B = ddeval.comp_horner(ch, cl, x, np.abs(ch))
                sign = ddeval.proven_sign(H, B)
        assert H[0, 0] == s * np.inf and np.isfinite(B[0, 0]) and sign[:, 0].tolist() == [0, -1]


# ---------------------------------------------------------------- a neighbour's support


def _inside(low: float, high: float) -> list[float]:
    """Two short decimals strictly inside a segment (none when it is too narrow for them)."""
    out = []
    for f in (1 / 3, 2 / 3):
        s = round(low + (high - low) * f, 4)
        if low < s < high:
            out.append(s)
    return sorted(set(out))


def _no_equilibrium(game, segment: SegmentCertificate, stack: float) -> bool:
    """Whether the support's exact strategies at ``stack`` fail the certificate, decided by the
    exact route of :mod:`sflp.solving.certify`: a frequency outside ``[0, 1]`` or an
    exploitability above 0 (with frequencies outside ``[0, 1]`` the indifference equations can
    still give exploitability 0, so both are checked)."""
    _, x, y = segment.exact_parts(*_decimal(stack))
    if any(not 0 <= v <= 1 for v in (*x, *y)):
        return True
    return exact_exploitability(game, x, y) > 0


@pytest.mark.parametrize("config, low, high, compiled", [
    (GameConfig(stack=10), 2.0, 20.0, False),
    (GameConfig(stack=10, ante=0.1), 2.0, 14.0, True),
])
def test_a_neighbouring_segments_support_certifies_nothing(config, low, high, compiled):
    """Every segment's support at the stacks of the segments on either side of it: block()
    certifies none of them, and certify's exact arithmetic agrees that none is an equilibrium.
    (Without the folded-SB sign check, block() certified non-equilibria here, exploitability
    about 7e-7, with "exploitability 0".)"""
    path = compute_thresholds(config, low, high)
    game0 = make_game(config)
    tried = refuted = 0
    for k in range(len(path.segments)):
        for j in (k - 1, k + 1):
            if not 0 <= j < len(path.segments):
                continue
            stacks = [s for s in _inside(*path.segments[j][:2]) if path.segment_of(s)[0] == j]
            if not stacks:
                continue
            segment = SegmentCertificate(game0.at_stack(stacks[0]), path.segments[k][2])
            block = segment.block(stacks, game0.config, compiled=compiled)
            certified = [s for s, sol in zip(stacks, block.solutions()) if sol is not None]
            assert not certified, (k, j, certified)
            tried += len(stacks)
            if segment.ok and segment._plan is not None:  # the exact strategies exist: check them
                for s in stacks:
                    assert _no_equilibrium(game0.at_stack(s), segment, s), (k, j, s)
                    refuted += 1
    assert tried > 200 and refuted > 0.9 * tried  # the test ran on many segments, and exactly


# ---------------------------------------------------------------- guards that real sweeps never reach


@pytest.mark.parametrize("compiled", ROUTES)
def test_a_ratio_in_the_subnormal_range_is_not_proven(compiled):
    """5 (2^60 + 1) / 2^1135 = 2.5 (1 + 2^-60) 2^-1074 rounds up to 3 * 2^-1074.  Its double-double
    is 2.5 (times the power of two) in the high part and the 2^-60 in the low part; scaled into
    the subnormal range the high part is a tie that rounds to even (2 * 2^-1074), the low part
    vanishes and so does the slack: only the guard ``|ratio| >= 2^-900`` keeps that wrong float
    from being published.  The same ratio times 2^1000 is normal and is proven."""
    for exponent, truth in ((1135, 3 * 2.0**-1074), (135, float(Fraction(5 * (2**60 + 1), 2**135)))):
        polys = [[5 * (2**60 + 1)], [2**exponent]]
        hi, lo, shift = ddeval.scaled_coefficients(polys)
        values, ok, _ = evaluate(hi, lo, 1, np.array([1.0]), [0], [1], [1.0], [0.0], shift[[0]] - shift[[1]],
                                 compiled=compiled)
        if ok[0, 0]:
            assert values[0, 0] == truth, exponent
        assert ok[0, 0] == (exponent == 135)


@pytest.mark.parametrize("compiled", ROUTES)
def test_stacks_with_long_decimals_are_the_stacks_one_at_a_time(compiled):
    """Stacks with 9 to 12 decimals: the common denominator's powers pass 2^53, so the block
    cannot evaluate them exactly in floats and must leave them to the exact route; the numbers
    are SegmentCertificate.solution's, bit for bit."""
    config = GameConfig(stack=10)
    path = compute_thresholds(config, 6.0, 9.0)
    game0 = make_game(config)
    # the widest segment with a mixed hand: degree d = 2, so qc^2 = 10^24 is no exact float
    low, high, support = max((seg for seg in path.segments if seg[2].sb_mixed), key=lambda seg: seg[1] - seg[0])
    stacks = [s for s in (round(low + (high - low) * f, n) for f in (0.1, 0.3, 0.5, 0.7, 0.9) for n in (9, 10, 12))
              if low < s < high]
    assert len(stacks) == 15
    segment = SegmentCertificate(game0.at_stack(stacks[0]), support)
    assert segment.d >= 2 and float(10**12) ** segment.d > 2.0**53
    block = segment.block(stacks, game0.config, compiled=compiled)
    for s, fast in zip(stacks, block.solutions()):
        slow = SegmentCertificate(game0.at_stack(s), support).solution(game0.config.with_stack(s))
        assert slow is not None and fast is not None
        for field in ("sb_strategy", "bb_strategy", "sb_ev", "bb_ev"):
            assert getattr(fast, field).tobytes() == getattr(slow, field).tobytes(), (s, field)
        assert (fast.value, fast.push_pct, fast.call_pct) == (slow.value, slow.push_pct, slow.call_pct)


def test_certify_names_a_frequency_outside_0_1_that_the_segment_route_finds():
    """A neighbouring segment's support whose exact mixed frequencies leave ``[0, 1]`` (found by
    the polynomials of :class:`SegmentCertificate`) fails :mod:`sflp.solving.certify` saying so,
    naming the hand: certify's bound check is not left to the margin checks behind it (without
    it the attempt still failed, but on a margin, and the message hid the cause)."""
    from sflp.core.cards import CLASS_NAMES
    from sflp.solving.certify import _try_support, exact_payoffs

    config = GameConfig(stack=10)
    path = compute_thresholds(config, 2.0, 20.0)
    game0 = make_game(config)
    seen = 0
    for k in range(len(path.segments) - 1):
        for j, s in ((k + 1, s) for s in _inside(*path.segments[k + 1][:2])):
            if path.segment_of(s)[0] != j:
                continue
            support = path.segments[k][2]
            segment = SegmentCertificate(game0.at_stack(s), support)
            if not segment.ok or segment.Q is None:
                continue
            P, Qd = _decimal(s)  # the frequencies Nx/Q, Ny/Q at S = P/Qd, homogenised
            powers = [P ** t * Qd ** (segment.d - t) for t in range(segment.d + 1)]
            Qh = sum(c * w for c, w in zip(segment.Q, powers))
            if Qh == 0:
                continue
            x, y = [Fraction(0)] * segment.n, [Fraction(0)] * segment.n
            for i in segment.ps:
                x[i] = Fraction(1)
            for j in segment.pb:
                y[j] = Fraction(1)
            for c, i in enumerate(segment.sm):
                x[i] = Fraction(sum(a * w for a, w in zip(segment.Nx[c], powers)), Qh)
            for c, j in enumerate(segment.bm):
                y[j] = Fraction(sum(a * w for a, w in zip(segment.Ny[c], powers)), Qh)
            outside = [("SB", i) for i in support.sb_mixed if not 0 <= x[i] <= 1]
            outside += [("BB", i) for i in support.bb_mixed if not 0 <= y[i] <= 1]
            if not outside:
                continue
            game = game0.at_stack(s)
            attempt = _try_support(exact_payoffs(game), np.asarray(x, dtype=float), np.asarray(y, dtype=float),
                                   "neighbour", support)
            assert not attempt.ok
            text = "; ".join(p[1] for p in attempt.problems)
            for who, i in outside:
                assert f"{who} {CLASS_NAMES[i]}:" in text and "outside [0, 1]" in text, (s, who, CLASS_NAMES[i], text)
            seen += 1
    assert seen >= 5  # the path has such neighbours: each breakpoint where a mixed hand goes pure
