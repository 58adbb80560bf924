r"""Exact real roots of integer polynomials: isolation, counting, rounding (integers only).

A threshold of the equilibrium path (:mod:`sflp.solving.thresholds`) is a root of a polynomial
with integer coefficients (:mod:`sflp.solving.segment`).  This module proves facts about such
roots with Python integers and :class:`~fractions.Fraction` only; a polynomial is the list of
its coefficients in ascending powers, ``[c_0, c_1, ..., c_d]``.

**Descartes' rule after a Moebius map.**  For an interval ``(a, b)``, ``0 < a < b``, the map
``x = (a + b t) / (1 + t)`` takes ``t in (0, inf)`` onto ``x in (a, b)`` increasingly, and

.. math:: T_{a,b}p(t) = (1 + t)^d \, p\!\left(\frac{a + b t}{1 + t}\right)
          = \sum_i c_i (a + b t)^i (1 + t)^{d - i}

is a polynomial whose positive roots are the images of ``p``'s roots in ``(a, b)``.  By
Descartes' rule of signs, the number ``V`` of sign changes of its coefficients (zeros skipped)
is at least the number of those roots counted with multiplicity, and of the same parity.  So
``V = 0`` proves no root in ``(a, b)`` and ``V = 1`` exactly one, simple.  Its constant term is
``p(a)`` and its leading term ``p(b)``, so when every coefficient has the same strict sign, ``p``
has that sign on the whole closed interval.  Bisecting an interval until every piece has
``V <= 1`` is the Vincent-Collins-Akritas method; it ends for a square-free ``p`` (the
one-and-two-circle theorems), so :func:`isolate` first divides ``p`` by ``gcd(p, p')``.

**Deciding by signs.**  A root ``beta`` known to be the only root of ``p`` in ``(lo, hi)``, with
``p(lo) p(hi) < 0``, lies below a rational ``t`` of that interval exactly when ``p(t)`` has the
sign of ``p(hi)`` (and is ``t`` when ``p(t) = 0``).  That decides its rounding at any precision
(:func:`round_decimal`, :func:`floor_multiple`) and the float nearest to it
(:func:`nearest_float`), each with a few integer evaluations.

>>> p = [-2, 0, 1]                      # x^2 - 2
>>> count_roots(p, Fraction(0), Fraction(2)), isolate(p, Fraction(-3), Fraction(3))
(1, [(Fraction(-3, 1), Fraction(0, 1)), (Fraction(0, 1), Fraction(3, 1))])
>>> round_decimal(p, Fraction(1), Fraction(2), 6), floor_multiple(p, Fraction(1), Fraction(2), 10)
('1.414214', 14)
>>> nearest_float(p, Fraction(1), Fraction(2)) == 2 ** 0.5
True
"""

from __future__ import annotations

import math
from fractions import Fraction

from sflp.errors import SolveError

_MAX_DEPTH = 400
"""Bisections allowed when isolating (a square-free polynomial of degree ``d`` with ``B``-bit
coefficients needs ``O(d (B + log d))``)."""


def trim(p) -> list[int]:
    """``p`` without its leading zero coefficients (the zero polynomial is ``[]``)."""
    p = [int(c) for c in p]
    while p and p[-1] == 0:
        p.pop()
    return p


def sign(v) -> int:
    """-1, 0 or 1."""
    return (v > 0) - (v < 0)


def sign_at(p, x: Fraction) -> int:
    """The sign of ``p(x)`` at a rational ``x``: the homogenised value ``sum c_t n^t q^(d-t)``
    (``x = n/q``, ``q > 0``), one integer Horner pass.

    >>> sign_at([-2, 0, 1], Fraction(141, 100)), sign_at([-2, 0, 1], Fraction(142, 100)), sign_at([3], Fraction(5))
    (-1, 1, 1)
    """
    x = Fraction(x)
    n, q = x.numerator, x.denominator
    acc, qpow = 0, 1
    for c in reversed(p):
        acc = acc * n + c * qpow
        qpow *= q
    # after the last step acc = sum_t c_t n^t q^(d-t) = q^d p(n/q), of the sign of p(n/q)
    return sign(acc)


def _poly_mul(a: list[int], b: list[int]) -> list[int]:
    out = [0] * (len(a) + len(b) - 1)
    for i, u in enumerate(a):
        if u:
            for j, v in enumerate(b):
                out[i + j] += u * v
    return out


def moebius(p, a: Fraction, b: Fraction) -> list[int]:
    """The coefficients of ``(1 + t)^d p((a + b t) / (1 + t))`` times a positive integer
    (``(den a den b)^d``), so that their signs are those of :math:`T_{a,b}p` (module doc).

    >>> moebius([-2, 0, 1], Fraction(1), Fraction(2))   # (1+t)^2 ((1+2t)/(1+t))^2 - 2 (1+t)^2
    [-1, 0, 2]
    """
    a, b = Fraction(a), Fraction(b)
    A, B, Dn = a.numerator * b.denominator, b.numerator * a.denominator, a.denominator * b.denominator
    d = len(p) - 1
    if d < 0:
        return []
    lin, one = [A, B], [Dn, Dn]
    pow_lin, pow_one = [[1]], [[1]]
    for _ in range(d):
        pow_lin.append(_poly_mul(pow_lin[-1], lin))
        pow_one.append(_poly_mul(pow_one[-1], one))
    out = [0] * (d + 1)
    for i, c in enumerate(p):
        if c:
            for k, v in enumerate(_poly_mul(pow_lin[i], pow_one[d - i])):
                out[k] += c * v
    return out


def variations(coeffs) -> int:
    """Sign changes in a sequence, zeros skipped.

    >>> variations([1, 0, -2, 3, 0, 0, 4])
    2
    """
    count, last = 0, 0
    for c in coeffs:
        s = sign(c)
        if s and last and s != last:
            count += 1
        if s:
            last = s
    return count


def derivative(p) -> list[int]:
    return [t * c for t, c in enumerate(p)][1:]


def _primitive(p: list[Fraction]) -> list[int]:
    """A rational polynomial scaled to integer coefficients with gcd 1 and a positive leading one."""
    p = [Fraction(c) for c in p]
    while p and p[-1] == 0:
        p.pop()
    if not p:
        return []
    den = math.lcm(*(c.denominator for c in p))
    ints = [int(c * den) for c in p]
    g = math.gcd(*ints)
    s = 1 if ints[-1] > 0 else -1
    return [s * c // g for c in ints]


def divmod_poly(p, g) -> tuple[list[Fraction], list[Fraction]]:
    """Quotient and remainder of ``p / g`` over the rationals."""
    p = [Fraction(c) for c in trim(p)]
    g = trim(g)
    if not g:
        raise ZeroDivisionError("polynomial division by zero")
    q = [Fraction(0)] * max(0, len(p) - len(g) + 1)
    lead = g[-1]
    while len(p) >= len(g) and p:
        f = p[-1] / lead
        shift = len(p) - len(g)
        q[shift] = f
        for i, c in enumerate(g):
            p[shift + i] -= f * c
        p.pop()
        while p and p[-1] == 0:
            p.pop()
    return q, p


def gcd(p, q) -> list[int]:
    """The greatest common divisor of two integer polynomials (primitive, leading coefficient > 0;
    ``[1]`` when they are coprime), by Euclid's algorithm over the rationals.

    >>> gcd([-2, 0, 1], [2, -3, 1])     # (x^2 - 2) and (x - 1)(x - 2): coprime
    [1]
    >>> gcd([-2, -1, 1], [2, -3, 1])    # (x - 2)(x + 1) and (x - 1)(x - 2)
    [-2, 1]
    """
    a, b = _primitive(p), _primitive(q)
    while b:
        _, r = divmod_poly(a, b)
        a, b = b, _primitive(r)
    return a or [0]


def divide_out(p, g) -> list[int]:
    """``p`` divided by ``g`` as many times as ``g`` divides it exactly (``g`` of degree >= 1)."""
    p = trim(p)
    while p:
        q, r = divmod_poly(p, g)
        if r:
            break
        p = _primitive(q)
    return p


def square_free(p) -> list[int]:
    """``p / gcd(p, p')``: the same roots, each simple."""
    p = trim(p)
    if len(p) <= 2:
        return p
    g = gcd(p, derivative(p))
    if len(g) <= 1:
        return p
    q, r = divmod_poly(p, g)
    assert not r
    return _primitive(q)


def isolate(p, a: Fraction, b: Fraction) -> list[tuple[Fraction, Fraction]]:
    """Disjoint isolating intervals of the distinct roots of ``p`` in the open ``(a, b)`` (``0 <= a < b``
    is not needed: the map works for any ``a < b``), in increasing order.

    Each is ``(lo, hi)``: either ``lo < hi`` with exactly one root inside, none at the ends and
    ``p(lo) p(hi) < 0`` for the square-free part, or ``lo == hi`` a rational root.  The zero
    polynomial has no isolated roots: :class:`SolveError`.
    """
    q = square_free(p)
    if not q:
        raise SolveError("root isolation: the zero polynomial")
    out: list[tuple[Fraction, Fraction]] = []
    stack = [(Fraction(a), Fraction(b), 0)]
    while stack:
        lo, hi, depth = stack.pop()
        v = variations(moebius(q, lo, hi))
        if v == 0:
            continue
        if v == 1:
            out.append((lo, hi))
            continue
        if depth > _MAX_DEPTH:
            raise SolveError(f"root isolation did not converge on ({float(lo)!r}, {float(hi)!r})")
        for frac in (Fraction(1, 2), Fraction(1, 3), Fraction(2, 3)):  # a split point that is no root
            mid = lo + (hi - lo) * frac
            if sign_at(q, mid) != 0:
                break
        else:
            out.append((mid, mid))
        stack += [(mid, hi, depth + 1), (lo, mid, depth + 1)]
    return sorted(out)


def count_roots(p, a: Fraction, b: Fraction) -> int:
    """The number of distinct roots of ``p`` in the open interval ``(a, b)``."""
    return len(isolate(p, a, b))


def no_root_closed(p, a: Fraction, b: Fraction) -> bool:
    """Whether ``p`` has no root in the closed ``[a, b]`` (exactly)."""
    return bool(trim(p)) and sign_at(p, a) != 0 and sign_at(p, b) != 0 and \
        (variations(moebius(p, a, b)) == 0 or count_roots(p, a, b) == 0)


def is_isolating(p, lo: Fraction, hi: Fraction) -> bool:
    """Whether ``(lo, hi)`` holds exactly one root of ``p``, simple, with ``p(lo) p(hi) < 0``
    (``lo == hi``: ``p(lo) = 0``)."""
    if lo == hi:
        return bool(trim(p)) and sign_at(p, lo) == 0
    if not lo < hi:
        return False
    return sign_at(p, lo) * sign_at(p, hi) < 0 and variations(moebius(p, lo, hi)) == 1


def _side(p, lo: Fraction, hi: Fraction, t: Fraction) -> int:
    """-1 if the root of ``p`` isolated by ``(lo, hi)`` is below ``t``, 0 at it, 1 above it."""
    if lo == hi:
        return sign(lo - t)
    if t <= lo:
        return 1
    if t >= hi:
        return -1
    s = sign_at(p, t)
    if s == 0:
        return 0
    return -1 if s == sign_at(p, hi) else 1


def round_decimal(p, lo: Fraction, hi: Fraction, places: int) -> str:
    """The root isolated by ``(lo, hi)`` correctly rounded to ``places`` decimals (ties to even, as
    Python's own formatting of an exact value), as text such as ``"7.791234"``: the rounding is
    decided by the root's side of each boundary ``(m + 1/2) 10^-places`` inside the interval."""
    scale = 10**places
    m, top = math.floor(lo * scale + Fraction(1, 2)), math.floor(hi * scale + Fraction(1, 2))
    while m < top:  # the answer is in [m, top]: bisect on the boundaries (m' + 1/2) / scale
        mid = (m + top) // 2
        side = _side(p, lo, hi, (mid + Fraction(1, 2)) / scale)  # the boundary between mid and mid + 1
        if side == 0:  # a tie: to even
            m = mid if mid % 2 == 0 else mid + 1
            break
        if side < 0:
            top = mid
        else:
            m = mid + 1
    text = f"{abs(m):0{places + 1}d}"
    body = text[:-places] + "." + text[-places:] if places else text
    return ("-" if m < 0 else "") + body


def floor_multiple(p, lo: Fraction, hi: Fraction, per_unit: int) -> int:
    """``floor(beta * per_unit)`` of the root ``beta`` isolated by ``(lo, hi)``, decided exactly."""
    k, top = math.floor(lo * per_unit), math.floor(hi * per_unit)
    while k < top:  # the answer is in [k, top]
        mid = (k + top + 1) // 2
        if _side(p, lo, hi, Fraction(mid, per_unit)) >= 0:
            k = mid
        else:
            top = mid - 1
    return k


def _float_cell(x: float) -> tuple[Fraction, Fraction]:
    """The rationals that round to the float ``x`` lie between these (the midpoints to its neighbours)."""
    down, up = math.nextafter(x, -math.inf), math.nextafter(x, math.inf)
    fx = Fraction(x)
    return (fx + Fraction(down)) / 2, (fx + Fraction(up)) / 2


def _newton(p, lo: Fraction, hi: Fraction) -> float | None:
    """The float nearest to the root isolated by ``(lo, hi)`` found by Newton's method in exact
    arithmetic (each step rounded to a float, from the interval's midpoint) and proven by the
    signs at the two ends of its rounding cell; None when that does not happen in a few steps."""
    dp = derivative(p)
    d = len(p) - 1
    x = float((lo + hi) / 2)
    for _ in range(8):
        n, q = x.as_integer_ratio()
        h = hd = 0
        qpow = 1
        for t in range(d, -1, -1):  # h = q^d p(n/q), hd = q^(d-1) p'(n/q)
            h = h * n + p[t] * qpow
            if t:
                hd = hd * n + dp[t - 1] * qpow
            qpow *= q
        if hd == 0:
            return None
        nxt = (n * hd - h) / (q * hd)  # n/q - p/p', correctly rounded (int / int)
        if not Fraction(lo) <= Fraction(nxt) <= Fraction(hi):
            return None
        if nxt == x:
            break
        x = nxt
    c_lo, c_hi = _float_cell(x)
    if _side(p, lo, hi, c_lo) > 0 and _side(p, lo, hi, c_hi) < 0:
        return x
    return None


def nearest_float(p, lo: Fraction, hi: Fraction) -> float:
    """The float nearest to the root isolated by ``(lo, hi)`` (its correct rounding): Newton's
    method, proven by two signs (:func:`_newton`), else bisection over the floats of the
    interval, each step one sign of ``p`` at a float."""
    if lo == hi:
        return float(lo)
    x = _newton(p, lo, hi)
    if x is not None:
        return x
    a, b = float(lo), float(hi)  # the answer lies in [a, b]
    while True:
        if a == b:
            return a
        ia, ib = _ordinal(a), _ordinal(b)
        if ib - ia <= 1:
            low_cell = _float_cell(a)[1]  # the boundary between a and b
            side = _side(p, lo, hi, low_cell)
            if side == 0:  # a tie: to the even float
                return a if _ordinal(a) % 2 == 0 else b
            return a if side < 0 else b
        mid = _from_ordinal((ia + ib) // 2)
        side = _side(p, lo, hi, Fraction(mid))
        if side == 0:
            return mid
        if side < 0:
            b = mid
        else:
            a = mid


def narrow(p, lo: Fraction, hi: Fraction) -> tuple[float, Fraction, Fraction]:
    """The float nearest to the root isolated by ``(lo, hi)``, and the part of ``(lo, hi)`` that
    rounds to it: an isolating interval less than an ulp wide (a point when the root is rational
    and on the edge of that part).

    >>> x, lo, hi = narrow([-2, 0, 1], Fraction(1), Fraction(2))
    >>> x == 2 ** 0.5, lo < Fraction(x) < hi, float(hi - lo) < 3e-16
    (True, True, True)
    """
    x = nearest_float(p, lo, hi)
    if lo == hi:
        return x, lo, hi
    c_lo, c_hi = _float_cell(x)
    a, b = max(lo, c_lo), min(hi, c_hi)
    for end in (a, b):
        if sign_at(p, end) == 0:
            return x, end, end
    return x, a, b


def _ordinal(x: float) -> int:
    """Floats in order as integers (positive floats: their bit patterns)."""
    import struct

    bits = struct.unpack("<q", struct.pack("<d", x))[0]
    return bits if bits >= 0 else -(bits & 0x7FFFFFFFFFFFFFFF)


def _from_ordinal(i: int) -> float:
    import struct

    bits = i if i >= 0 else (-i) | (1 << 63)
    return struct.unpack("<d", struct.pack("<q", bits))[0]
