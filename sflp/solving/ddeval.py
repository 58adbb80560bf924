r"""Correctly rounded ratios of integer polynomials over a block of stacks, by double-double
arithmetic with a proven error bound (numpy only).

A segment of the exact path (:mod:`sflp.solving.segment`) gives every published number of a stack
``S = p/q`` as a ratio of two integer polynomials evaluated at ``S`` (homogenised:
``H(p, q) = sum_t c_t p^t q^(d-t)``, an integer), times a rational constant.  The exact route
evaluates those integers in Python and divides; here the same ratios are computed for a whole
block of stacks at once in *double-double* numbers (a pair ``hi + lo`` of floats, about 106
bits), together with a rigorous bound on the error, and each result is published only where the
bound proves which float the exact ratio rounds to.  Everything else (a value within the bound of
a rounding boundary, a sign the bound cannot decide) is flagged, and the caller computes that
stack exactly.  So the published floats are the exact values rounded once, bit for bit.

The error analysis, with ``u = 2**-53`` (unit roundoff of a float) and the double-double
algorithms below (the "accurate" variants analysed by Joldes, Muller and Popescu, *Tight and
rigorous error bounds for basic building blocks of double-word arithmetic*, ACM TOMS 44 (2017)):

* a coefficient ``c`` is stored as ``hi + lo`` with ``|c - hi - lo| <= u^2 |c|``;
* double-double + double-double: relative error ``<= 3u^2 / (1 - 4u)`` of the exact sum;
  double-double x float: ``<= 2u^2``; double-double x double-double: ``<= 7u^2``;
  double-double / double-double: ``<= 15u^2 + 56u^3``;
* a polynomial is evaluated by the compensated Horner scheme (:func:`comp_horner`), whose
  error is at most ``gamma_2d^2 sum_t |c_t| x^t`` (``gamma_n = n u / (1 - n u)``) plus the
  coefficients' own errors; the code uses ``(8 (d+1)^2 + 8) u^2`` times the float estimate of
  ``sum_t |c_t| x^t``, inflated by 1 %.

A value's sign is proven when its magnitude exceeds its bound.  A ratio ``N w / D`` (``w`` a
double-double constant) computed as ``rh + rl`` has relative error at most
``e = e_N + e_D + 32 u^2`` (``e_N = bound_N / (|N| - bound_N)``, the same for ``D``, plus the
product and the division), so the exact ratio lies within ``rh + rl +- e |rh|``.  Rounding to
nearest is monotone: when both ends of that interval round to ``rh`` (computed with the slack
widened to cover the rounding of the ends themselves), the exact ratio rounds to ``rh``.  An
exact tie has ends that round apart, so round-half-even never has to be decided here.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

_U = 2.0**-53
"""The unit roundoff of a float."""
U2 = _U * _U
"""Its square."""
_SPLIT = 134217729.0  # 2**27 + 1, Dekker's splitter


def _two_sum(a, b):
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


def _fast_two_sum(a, b):
    s = a + b
    return s, b - (s - a)


def _split(a):
    c = _SPLIT * a
    hi = c - (c - a)
    return hi, a - hi


def _two_prod(a, b):
    p = a * b
    ah, al = _split(a)
    bh, bl = _split(b)
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


def dd_add(xh, xl, yh, yl):
    """``x + y`` (the accurate algorithm: relative error ``<= 3u^2/(1-4u)``)."""
    sh, sl = _two_sum(xh, yh)
    th, tl = _two_sum(xl, yl)
    sl = sl + th
    sh, sl = _fast_two_sum(sh, sl)
    sl = sl + tl
    return _fast_two_sum(sh, sl)


def dd_mul_f(xh, xl, b):
    """``x * b`` for a float ``b`` (relative error ``<= 2u^2``)."""
    ph, pl = _two_prod(xh, b)
    pl = pl + xl * b
    return _fast_two_sum(ph, pl)


def dd_mul(xh, xl, yh, yl):
    """``x * y`` (relative error ``<= 7u^2``)."""
    ph, pl = _two_prod(xh, yh)
    pl = pl + (xh * yl + xl * yh)
    return _fast_two_sum(ph, pl)


def dd_div(xh, xl, yh, yl):
    """``x / y`` (relative error ``<= 15u^2 + 56u^3``)."""
    th = xh / yh
    rh, rl = dd_mul_f(yh, yl, th)
    dh, dl = dd_add(xh, xl, -rh, -rl)
    tl = dh / yh
    return _fast_two_sum(th, tl)


def to_dd(value: int | Fraction) -> tuple[float, float]:
    """An exact number as a double-double ``(hi, lo)`` with ``|value - hi - lo| <= u^2 |value|``."""
    if isinstance(value, int) and value.bit_length() < 1000:  # the common case, without a Fraction
        hi = float(value)  # the int correctly rounded
        return hi, float(value - int(hi))
    value = Fraction(value)
    hi = float(value)
    lo = float(value - Fraction(hi)) if hi not in (float("inf"), float("-inf")) else 0.0
    return hi, lo


def scaled_coefficients(polys) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Integer polynomials (rows of coefficients, constant term first, equal lengths; a list of
    lists or an object array of Python ints) as double-double arrays ``hi, lo`` (shape
    ``(rows, d + 1)``), each row scaled by a power of two (``2**-shift``, returned) so that its
    largest coefficient is about 1: the values stay far from overflow however large the integers."""
    rows = [[int(c) for c in row] for row in polys]
    size = len(rows[0]) if rows else 0
    hi, lo = np.zeros((len(rows), size)), np.zeros((len(rows), size))
    shift = np.zeros(len(rows), dtype=np.int64)
    for r, row in enumerate(rows):  # a few short rows: plain Python beats numpy object arrays
        bits = [abs(c).bit_length() for c in row]
        top = max(bits, default=0)
        if any(0 < b < top - 800 for b in bits):
            # a nonzero coefficient below 2^-800 of its row's largest would come near underflow
            raise ValueError("the coefficients of a row span more than 800 binary orders")
        shift[r] = top
        for t, c in enumerate(row):
            if top < 1000:  # float(c) is the int correctly rounded, and c - int(float(c)) is exact
                h = float(c)
                hi[r, t], lo[r, t] = math.ldexp(h, -top), math.ldexp(float(c - int(h)), -top)
            else:  # astronomically large integers: exact fractions
                hi[r, t], lo[r, t] = to_dd(Fraction(c, 1 << top))
    return hi, lo, shift


def at_denominator(hi: np.ndarray, lo: np.ndarray, qc: int, cabs: np.ndarray | None = None):
    """The coefficients ``c_t qc^(d-t)`` (so that ``H(p, qc) = sum_t c'_t p^t``), in double-double
    (relative error ``<= 2u^2`` each; ``qc^d`` must be below ``2^53``, so every power is exact),
    and the magnitudes ``cabs`` (default ``|hi|``) times the same powers."""
    d = hi.shape[1] - 1
    powers = np.array([float(qc) ** (d - t) for t in range(d + 1)])[None, :]
    ch, cl = dd_mul_f(hi, lo, powers)
    return ch, cl, (np.abs(hi) if cabs is None else cabs) * powers


def comp_horner(ch: np.ndarray, cl: np.ndarray, x: np.ndarray, cabs: np.ndarray | None = None):
    """``P_r(x_s) = sum_t c_rt x_s^t`` for every row ``r`` and stack ``s`` by the *compensated*
    Horner scheme (Graillat, Langlois and Louvet, *Compensated Horner scheme*, 2005), as a
    normalised double-double ``(h, l)`` with an error bound: arrays of shape ``(rows, stacks)``.

    ``x`` holds integers below ``2^53`` (exact floats, ``>= 0``).  Each step computes
    ``acc*x + c_t`` and keeps the two rounding errors (``TwoProd``, ``TwoSum``) and the low part
    of ``c_t`` in a second Horner recurrence; the pair is as accurate as Horner's rule in twice
    the precision: ``|h + l - P(x)| <= gamma_2d^2 sum_t |c_t| x^t`` (their Theorem 3, before the
    final rounding), to which the low parts and the coefficients' own errors add ``<= 4u^2``
    times the same sum.  The bound used is ``(8 (d+1)^2 + 8) u^2`` times the float estimate of
    that sum, inflated by 1 %.  ``cabs`` (default ``|ch|``) stands for ``|c_t|`` in it: a caller
    whose coefficients carry larger errors of their own passes a larger magnitude
    (:meth:`sflp.solving.segment.SegmentCertificate._dd_rows`)."""
    d = ch.shape[1] - 1
    x = np.asarray(x, dtype=np.float64)[None, :]
    xh, xl = _split(x)
    acc = np.repeat(ch[:, d:d + 1], x.shape[1], axis=1)
    err = np.repeat(cl[:, d:d + 1], x.shape[1], axis=1)
    mags = np.abs(ch) if cabs is None else cabs
    absum = np.repeat(mags[:, d:d + 1], x.shape[1], axis=1)
    for t in range(d - 1, -1, -1):
        prod = acc * x
        ah, al = _split(acc)
        pi = ((ah * xh - prod) + ah * xl + al * xh) + al * xl
        acc, sigma = _two_sum(prod, ch[:, t:t + 1])
        err = err * x + (pi + sigma + cl[:, t:t + 1])
        absum = absum * x + mags[:, t:t + 1]
    h, l = _two_sum(acc, err)
    bound = absum * ((8 * (d + 1) ** 2 + 8) * U2 * 1.01) + 2.0**-1000
    return h, l, bound


def proven_sign(h: np.ndarray, bound: np.ndarray) -> np.ndarray:
    """+1 / -1 where the sign of the exact value is proven, 0 where it is not (int8).

    Only a finite value beyond a finite bound is proven: an evaluation that overflowed gives an
    infinite bound, an inf or a NaN, and none of them proves a sign.  (The comparisons are
    False for NaN, so nothing here casts a NaN to an integer, which would be undefined in C.)

    >>> proven_sign(np.array([3.0, -3.0, 1.0, np.nan, np.inf, -np.inf, 5.0]),
    ...             np.array([1.0, 1.0, 1.0, 1.0, 1.0, 1.0, np.inf])).tolist()
    [1, -1, 0, 0, 0, 0, 0]
    """
    h, bound = np.asarray(h), np.asarray(bound)
    decided = np.isfinite(h) & np.isfinite(bound)
    return ((decided & (h > bound)).astype(np.int8) - (decided & (h < -bound)).astype(np.int8))


def ratios(H, L, B, num, den, wh, wl, scale):
    """The float nearest ``N_k w_k / D_k * 2**scale_k`` for rows ``N_k = H[num[k]]`` (with
    ``L``, bound ``B``) over rows ``D_k = H[den[k]]``, at every stack, and whether that float is
    proven (module doc): two arrays of shape ``(len(num), stacks)``.  ``w_k = wh_k + wl_k``."""
    num, den = np.asarray(num, dtype=np.int64), np.asarray(den, dtype=np.int64)
    wh = np.asarray(wh, dtype=np.float64)[:, None]
    wl = np.asarray(wl, dtype=np.float64)[:, None]
    scale = np.asarray(scale, dtype=np.int64)[:, None]
    nh, nl, nb = H[num], L[num], B[num]
    dh, dl, db = H[den], L[den], B[den]
    with np.errstate(divide="ignore", invalid="ignore", over="ignore", under="ignore"):
        th, tl = dd_mul(nh, nl, wh, wl)
        rh, rl = dd_div(th, tl, dh, dl)
        ok = (np.abs(nh) > nb * 2.0**20) & (np.abs(dh) > db * 2.0**20)  # each relative error < 2**-20
        e_n = nb / (np.abs(nh) - nb)
        e_d = db / (np.abs(dh) - db)
        pw = np.exp2(scale.astype(np.float64))  # an exact power of two
        rh = rh * pw
        rl = rl * pw
        slack = (e_n + e_d + 32 * U2) * 1.01 * (1 + 4 * _U) * np.abs(rh) + 4 * _U * np.abs(rl)
        ok &= _rounds_to(rh, rl, slack)
        ok &= np.isfinite(rh) & (np.abs(rh) >= 2.0**-900)  # far from underflow: the low parts lost nothing
    return rh, ok


def _rounds_to(rh, rl, slack):
    """Whether every number in ``rh + rl +- slack`` rounds to ``rh`` (module doc): rounding is
    monotone, so it is enough that both ends do, and ``slack`` covers the rounding of
    ``rl +- slack`` itself (the caller adds ``2u |rl| + 2u slack`` and more)."""
    return ((rh + (rl + slack)) == rh) & ((rh + (rl - slack)) == rh)
