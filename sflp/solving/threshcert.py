r"""Exact certificate of the thresholds: every breakpoint and 0.5 crossing isolated with integers,
and proof that the path missed none.

The path follower (:mod:`sflp.solving.follower`) finds segments ``[b_{j-1}, b_j]`` with a fixed
support in floats.  On a segment, :class:`~sflp.solving.segment.SegmentCertificate` gives the exact
integer polynomials in the stack ``S``: ``Q = det C``, the frequencies ``x_l = Nx_l / Q`` and
``y_l = Ny_l / Q``, SB's margins ``m_i = M_i / (sigma0 Q)``, BB's column terms
``c_j = Cn_j / (sigma0 Q)`` and reaches ``Rn_j / (D Q)``.  The support is an exact equilibrium
support at ``S`` (the certificate of :func:`sflp.solving.certify.certify`, the signs of
``SegmentCertificate._proven``) when these *event polynomials* have, times ``Q``, the signs

==============================================  =====
``Q``                                            != 0
``Nx_l``, ``Q - Nx_l``, ``Ny_l``, ``Q - Ny_l``   > 0   (each mixed frequency inside (0, 1))
``Rn_j`` (BB's mixed hands)                      > 0   (they face shoves)
``M_i`` (SB's pure hands / folded hands)         > 0 / < 0
``Cn_j`` (BB's calling hands / folded hands)     < 0 / > 0
==============================================  =====

and the mixed hands' margins ``M_i``, ``Cn_j`` are the zero polynomial (checked once: Cramer's
rule makes them so).  Each player then best-responds to the other: an equilibrium.

**The proof**, for the segments ``0..J`` of ``[low, high]``:

1. *Breakpoints.*  Around each float breakpoint ``b_j`` an interval ``I_j = [l_j, u_j]`` of
   rationals is chosen, and a polynomial ``P_j`` among the event polynomials of the two segments
   that meet there with exactly one root in it (:func:`sflp.solving.rootcert.is_isolating`: opposite
   signs at the ends and one sign change after the Moebius map).  That root ``beta_j`` is the
   breakpoint.  The intervals are disjoint and in order: ``u_{j-1} < l_j``.
2. *Inside a segment*, on the closed *gap* ``G_j = [u_{j-1}, l_j]`` (``[low, l_0]``, ``[u_{J-1}, high]``
   at the ends), every event polynomial has no root and the sign the table requires.
3. *At its ends*, on ``I_{j-1}`` and ``I_j``, every event polynomial ``E`` of the segment has no
   root other than ``beta``: either none in the closed interval, or ``g = gcd(E, P)`` changes sign
   across it (so ``beta``, the only root of ``P`` there, is a root of ``g``) and ``E`` with every
   factor ``g`` divided out has none.

By 2 and 3 no event polynomial of segment ``j`` vanishes on the open ``(beta_{j-1}, beta_j)``, and
by continuity each keeps there the sign it has on ``G_j``: the support is an equilibrium support
on the whole open segment, and the segments cover ``[low, high]`` up to the breakpoints.  Between
two breakpoints nothing was missed: a skipped segment, however short, would need an event
polynomial to vanish inside.

*Crossings.*  A mixed hand plays with frequency ``>= 0.5`` where ``(2 N - Q) Q >= 0``.  The roots of
``F = 2 N - Q`` in ``G_j`` are isolated exactly (Vincent-Collins-Akritas on its square-free part),
``F`` has no root in ``I_{j-1}``, ``I_j`` other than the breakpoint (as in 3), and the sign of
``F Q`` on each piece between them is evaluated exactly: the 0.5 intervals follow.

Every sign is decided first in floats with a proven bound, the whole row block of a segment at
once (:func:`_float_signs`), and exactly with integers where the bound cannot decide it (a root in
the interval, a value too close to 0); each published root is then refined to its nearest float,
rounded to 6 decimals and floored to 0.1 bb exactly (:mod:`sflp.solving.rootcert`).  Anything that
fails raises :class:`~sflp.errors.SolveError`.  The 338 margin rows of a segment are themselves
floats with a proven bound, made for all segments in one batched product (:func:`_float_rows`);
a row's exact integers are made only for a question the floats leave open (:meth:`_SegRows.exact`).

Why one module: the three steps of the proof, the crossings and the rows they ask about (exact
and as floats with their bound) are one argument, read top to bottom against the module doc.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from sflp.core.cards import CLASS_NAMES, N_CLASSES, PLAYERS
from sflp.core.game import PushFoldGame, to_fraction
from sflp.errors import SolveError
from sflp.solving import rootcert as rc

PLACES = 6
"""Decimals of the published thresholds (``thresholds.csv``)."""
_U = 2.0**-53


# ---------------------------------------------------------------------------- exact roots


@dataclass(frozen=True)
class Root:
    """An exact threshold: the only root of ``poly`` (integers, ascending powers) in ``(lo, hi)``,
    or the rational ``lo`` when ``lo == hi`` (an end of the range: ``poly`` is ``q S - p``).

    ``kind`` is ``"end"``, ``"breakpoint"`` or ``"crossing"``; ``segment`` the segment whose
    polynomial it is; ``name`` which polynomial (``"Q"``, ``"Nx AKs"``, ``"M 72o"``, ``"F sb K7o"``,
    see :func:`event_rows`); ``value`` the published float (see :func:`publish`)."""

    kind: str
    segment: int
    name: str
    poly: tuple[int, ...]
    lo: Fraction
    hi: Fraction
    value: float = field(default=math.nan, compare=False)

    def decimal(self, places: int = PLACES) -> str:
        """The root correctly rounded to ``places`` decimals, decided exactly."""
        return rc.round_decimal(self.poly, self.lo, self.hi, places)

    def tenths(self) -> int:
        """``floor(10 * root)``, decided exactly (the chart label is this / 10)."""
        return rc.floor_multiple(self.poly, self.lo, self.hi, 10)


def end_root(x: float, segment: int) -> Root:
    """``low`` or ``high`` as a root: the exact stack of the float (its shortest decimal)."""
    f = to_fraction(x)
    return Root("end", segment, "end", (-f.numerator, f.denominator), f, f, float(x))


def publish(kind: str, segment: int, name: str, poly, lo: Fraction, hi: Fraction) -> Root:
    """The :class:`Root` of ``poly`` isolated by ``(lo, hi)``, its interval narrowed to the floats'
    rounding cell (:func:`sflp.solving.rootcert.narrow`) and its ``value`` the nearest float (the
    exact root rounded once; its decimals are :meth:`Root.decimal`, decided exactly, not the
    float's: a float of 1e12 bb has no sixth decimal)."""
    x, lo, hi = rc.narrow(poly, lo, hi)
    return Root(kind, segment, name, tuple(poly), lo, hi, x)


def intervals_text(pairs) -> str:
    """``"a-b;c-d"`` with each end :meth:`Root.decimal` (the text :func:`format_intervals` gives floats)."""
    return ";".join(f"{a.decimal()}-{b.decimal()}" for a, b in pairs)


def label_of(root: Root) -> str:
    """The chart label of a hand played up to ``root``: ``floor(10 root) / 10`` as ``"7.7"``."""
    k = root.tenths()
    return f"{'-' if k < 0 else ''}{abs(k) // 10}.{abs(k) % 10}"


# ---------------------------------------------------------------------------- event polynomials


def event_rows(seg) -> tuple[list[str], list[int], list[list[int]]]:
    """The event polynomials of a :class:`~sflp.solving.segment.SegmentCertificate`: names, required
    signs relative to ``Q`` (``0`` for ``Q`` itself and the crossing rows ``F``, which need none) and
    integer coefficients (length ``d + 1``).  Rows: ``Q``; ``Nx``, ``Q-Nx``, ``Ny``, ``Q-Ny`` and
    ``F = 2N - Q`` of each mixed hand; ``Rn`` of BB's mixed hands; ``M`` of SB's other hands;
    ``Cn`` of BB's other hands."""
    Q = [int(c) for c in seg.Q]
    names, req, rows = ["Q"], [0], [Q]
    for tag, player, hands, nums in (("x", "sb", seg.sm, seg.Nx), ("y", "bb", seg.bm, seg.Ny)):
        for h, N in zip(hands, nums):
            N = [int(c) for c in N]
            name = CLASS_NAMES[h] if seg.level == "class" else str(h)
            names += [f"N{tag} {name}", f"Q-N{tag} {name}", f"F {player} {name}"]
            req += [1, 1, 0]
            rows += [N, [q - v for q, v in zip(Q, N)], [2 * v - q for q, v in zip(Q, N)]]
    if seg.bm:
        for h, r in zip(seg.bm, seg._rows("Rn", seg.bm)):
            names.append(f"Rn {CLASS_NAMES[h]}")
            req.append(1)
            rows.append([int(c) for c in r])
    return names, req, rows


_ROW_NAMES = {kind: [f"{kind} {name}" for name in CLASS_NAMES] for kind in ("M", "Cn")}


def _big_rows(seg) -> tuple[list[str], np.ndarray, np.ndarray, np.ndarray]:
    """SB's margins of the hands not mixed and BB's column terms of the hands not mixed: names
    (``M`` then ``Cn``), required signs, and the hands of the two blocks (the rows' exact integers
    are made on demand, :meth:`_SegRows.exact`)."""
    sb_rows, bb_rows = np.flatnonzero(~seg.mixed_sb), np.flatnonzero(~seg.mixed_bb)
    names = [_ROW_NAMES["M"][i] for i in sb_rows.tolist()] + [_ROW_NAMES["Cn"][j] for j in bb_rows.tolist()]
    req = np.concatenate([np.where(seg.pure_sb[sb_rows], 1, -1), np.where(seg.pure_bb[bb_rows], -1, 1)])
    return names, req.astype(np.int8), sb_rows, bb_rows


_EXACT_BIG_ROWS = False
"""True: every big row is made in exact integers first and rounded (the route before issue 53,
kept as the benchmark's same-run reference and the tests' oracle); False: :func:`_float_rows`."""


def _float_rows(segs) -> list[tuple[np.ndarray, np.ndarray] | None]:
    r"""The big rows (``M`` and ``Cn`` of every hand, :func:`_big_rows`) of every segment in floats,
    with a proven bound on each coefficient's error: per segment ``(cf, ce)`` of shape
    ``(2 n, d + 1)`` (the ``n`` rows of ``M``, then of ``Cn``) with ``|c - cf| <= ce`` for the exact
    integer coefficient ``c``; None for a segment whose numbers leave the float range (it then
    takes the exact route).  Segments with as many mixed hands share one batched product.

    A coefficient is a sum of ``T = 2 + 2k`` products ``c = sum_t a_t p_t``
    (:class:`~sflp.solving.segment.SegmentCertificate`'s terms: ``a_t`` the entry of a term's
    integer vector ``V`` for the hand, up to 62 bits or wider, ``p_t`` the coefficient of its
    Cramer polynomial ``P`` in place for the term's shift, up to ``38 + 29k`` bits).  Neither need
    be a float: each is rounded to nearest, ``a_t = fl(a_t)(1 + alpha_t)``, ``p_t = fl(p_t)(1 + pi_t)``,
    ``|alpha_t|, |pi_t| <= u = 2^-53`` (integers: no underflow; overflow is refused).  With
    ``S = sum_t |fl(a_t) fl(p_t)|``, ``|c - sum_t fl(a_t) fl(p_t)| <= (2u + u^2) S``, and the float
    product ``cf = fl(fl(V)' fl(P))`` errs by at most ``gamma_T S`` (``gamma_T = T u / (1 - T u)``,
    a dot product of ``T`` terms in any order, fused or not), so ``|c - cf| <= gamma_{T+2} S``.  The
    float ``Sf = fl(|fl(V)|' |fl(P)|)`` is at least ``(1 - gamma_T) S``, and the code takes
    ``ce = fl(2 (T + 4) u Sf)``: ``gamma_{T+2} / (1 - gamma_T) <= 2 (T + 4) u (1 - u)`` for every
    ``T u < 0.01`` (here ``T <= 12``), with ample room.  ``Sf <= 2^900`` is required (and every
    ``cf`` finite) so that the sign filter's own bound (:func:`_float_signs`) stays in range."""
    out: list = [None] * len(segs)
    groups: dict = {}
    for g, seg in enumerate(segs):
        if seg.ok:
            groups.setdefault((len(seg.sm), seg._fits64, seg.n), []).append(g)
    for (k, _, n), members in groups.items():
        T, size = 2 + 2 * k, k + 2
        vecs, polys = [], []
        for g in members:
            for kind in ("M", "Cn"):
                for vec, poly, shift in segs[g]._terms[kind]:
                    vecs.append(vec)
                    polys.append([0] * shift + [int(c) for c in poly] + [0] * (size - shift - len(poly)))
        try:
            V = np.array(vecs, dtype=np.float64).reshape(len(members), 2, T, n).swapaxes(2, 3)
            P = np.array(polys, dtype=np.float64).reshape(len(members), 2, T, size)
        except OverflowError:  # an integer beyond the float range: these segments the exact way
            continue
        with np.errstate(over="ignore", invalid="ignore"):
            cf = np.matmul(V, P).reshape(len(members), 2 * n, size)
            mag = np.matmul(np.abs(V), np.abs(P)).reshape(len(members), 2 * n, size)
        ce = (2 * (T + 4) * _U) * mag
        fine = (np.isfinite(cf).all(axis=(1, 2)) & (mag <= 2.0**900).all(axis=(1, 2))).tolist()
        for r, g in enumerate(members):
            if fine[r]:
                out[g] = (cf[r], ce[r])
    return out


def _to_float(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """Integer rows as floats (each correctly rounded) and a bound on each rounding error; None if
    one is beyond the float range."""
    try:
        cf = np.array(rows, dtype=object).astype(np.float64)
    except OverflowError:
        return None
    if not np.isfinite(cf).all() or np.abs(cf).max(initial=0.0) > 2.0**900:
        return None
    return cf, 2 * _U * np.abs(cf)


_T_CACHE: dict = {}


def _moebius_matrix(d: int, a: Fraction, b: Fraction) -> np.ndarray | None:
    """``T[i][k]``: the coefficient of ``t^k`` in ``(a + b t)^i (1 + t)^(d - i)`` times a positive
    constant (a power of the common denominator and of two), each entry correctly rounded to a
    float (made from integers: ``a = A / D``, ``b = B / D``); cached for the last few intervals."""
    key = (d, a, b)
    hit = _T_CACHE.get(key)
    if hit is not None:
        return hit
    A, B, Dn = a.numerator * b.denominator, b.numerator * a.denominator, a.denominator * b.denominator
    ints = []
    for i in range(d + 1):
        poly = [1]
        for f0, f1 in [(A, B)] * i + [(Dn, Dn)] * (d - i):
            out = [0] * (len(poly) + 1)
            for t, c in enumerate(poly):
                out[t] += c * f0
                out[t + 1] += c * f1
            poly = out
        ints.append(poly)
    shift = max(max(v.bit_length() for v in row) for row in ints)
    if shift > 1000:  # no float test (the exact route decides every sign)
        return None
    scale = 1 << shift
    T = np.array([[v / scale for v in row] for row in ints])  # int / int: correctly rounded
    if len(_T_CACHE) > 16:
        _T_CACHE.clear()
    _T_CACHE[key] = T
    return T


def _float_signs(cf: np.ndarray, ce: np.ndarray, a: Fraction, b: Fraction) -> np.ndarray:
    """Per row, the sign that row's polynomial has on the whole closed ``[a, b]`` (any ``a < b``:
    a line's ``t`` may be 0 or negative) when floats prove it, else 0.

    The Moebius transform (:func:`sflp.solving.rootcert.moebius`) is linear in the coefficients,
    ``t = c T`` with ``T`` exact (scaled by a positive constant, which keeps every sign; its entries
    have either sign when ``a`` or ``b`` is negative); in floats ``s = fl(cf Tf)`` with ``cf``, ``Tf``
    the rounded coefficients and matrix.  With ``|c - cf| <= ce`` and ``|T - Tf| <= u |Tf|``, the
    standard bound of a dot product of ``n = d + 1`` terms gives ``|t - s| <= (gamma_n + u)(1 + u)
    |cf| |Tf| + (1 + u) ce |Tf|``; the code uses twice ``(n + 2) u |cf| |Tf| + ce |Tf|`` (computed in
    floats, whose own roundings the factor 2 covers; ``T``'s entries are scaled to at most 1 in size
    and at least ``2^-700`` or 0, far from underflow).  Every term of the bound is a product of sizes,
    so it is never negative, whatever the signs of ``a`` and ``b``.  When every ``|s_k|`` exceeds
    its bound and all have one sign, so have the exact coefficients: no root in ``(a, b)``
    (Descartes) and ``p(a)``, ``p(b)`` (the first and last coefficients) of that sign."""
    d = cf.shape[1] - 1
    Tf = _moebius_matrix(d, a, b)
    if Tf is None:
        return np.zeros(len(cf), dtype=np.int8)
    s = cf @ Tf
    size = np.abs(Tf)
    bound = 2.0 * ((d + 3) * _U * (np.abs(cf) @ size) + ce @ size) + 1e-300
    pos = (s > bound).all(axis=1)
    neg = (s < -bound).all(axis=1)
    out = np.zeros(len(cf), dtype=np.int8)
    out[pos], out[neg] = 1, -1
    return out


# ---------------------------------------------------------------------------- one segment


class _SegRows:
    """The event polynomials of one segment, exact and as floats: the small rows (:func:`event_rows`)
    exact, rounded once; the big rows (:func:`_big_rows`) as ``big`` from :func:`_float_rows`
    (floats with a proven bound), their exact integers made only for a row whose sign or root the
    floats leave open (:meth:`exact`).  ``big=None``: the exact route, every row made in integers."""

    def __init__(self, index: int, seg, big: tuple[np.ndarray, np.ndarray] | None = None):
        if not seg.ok:
            raise SolveError(f"thresholds: segment {index} has a support the exact certificate does not cover "
                             f"({len(seg.support.sb_mixed)} mixed hands per player)")
        if seg.sm and (seg._rows("M", seg.sm).any() or seg._rows("Cn", seg.bm).any()):
            raise SolveError(f"thresholds: segment {index}: a mixed hand's margin is not identically 0")
        self.index, self.seg = index, seg
        names, req, rows = event_rows(seg)
        bnames, breq, self.sb_rows, self.bb_rows = _big_rows(seg)
        self.n_small = len(rows)
        self.names = names + bnames
        self.req = np.concatenate([np.array(req, dtype=np.int8), breq])
        self.small = rows
        self._exact: dict[int, list[int]] = {}
        small = np.array(rows, dtype=object).reshape(len(rows), -1)
        conv = _to_float(small)
        if big is not None and conv is not None:
            n = seg.n
            pick = np.concatenate([self.sb_rows, n + self.bb_rows])
            bf, be = big[0][pick], big[1][pick]
            self.cf, self.ce = np.vstack([conv[0], bf]), np.vstack([conv[1], be])
            # a big row is not the zero polynomial where a coefficient's float is beyond its bound
            unsure = self.n_small + np.flatnonzero(~(np.abs(bf) > be).any(axis=1))
            zero = [r for r in unsure.tolist() if not any(self.exact(r))]
            zero += np.flatnonzero(~(small != 0).any(axis=1)).tolist()
        else:  # the exact route: every big row in integers, rounded once
            bexact = np.vstack([seg.M[self.sb_rows], seg.Cn[self.bb_rows]])
            self._exact = {self.n_small + r: [int(c) for c in row] for r, row in enumerate(bexact)}
            exact_all = np.vstack([small, bexact])
            conv = _to_float(exact_all)
            self.cf, self.ce = conv if conv is not None else (None, None)
            zero = np.flatnonzero(~(exact_all != 0).any(axis=1)).tolist()
        if zero:
            raise SolveError(f"thresholds: segment {index}: the event polynomial {self.names[min(zero)]} "
                             "is identically 0")

    def exact(self, r: int) -> list[int]:
        """Row ``r``'s exact integer coefficients (a big row made on first use)."""
        if r < self.n_small:
            return self.small[r]
        hit = self._exact.get(r)
        if hit is None:
            r -= self.n_small
            ns = len(self.sb_rows)
            kind, hand = ("M", self.sb_rows[r]) if r < ns else ("Cn", self.bb_rows[r - ns])
            hit = self._exact[r + self.n_small] = [int(c) for c in self.seg._rows(kind, [int(hand)])[0]]
        return hit

    def float_signs(self, a: Fraction, b: Fraction) -> np.ndarray:
        if self.cf is None:
            return np.zeros(len(self.names), dtype=np.int8)
        return _float_signs(self.cf, self.ce, a, b)


def _exact_sign_on(p, a: Fraction, b: Fraction, open_a: bool, open_b: bool) -> int:
    """The constant sign of ``p`` on ``[a, b]`` (an end excluded when ``open_``), exactly; 0 when
    ``p`` has a root there."""
    sa, sb = rc.sign_at(p, a), rc.sign_at(p, b)
    if (sa == 0 and not open_a) or (sb == 0 and not open_b):
        return 0
    if rc.variations(rc.moebius(p, a, b)) and rc.count_roots(p, a, b):
        return 0
    return rc.sign_at(p, (a + b) / 2)


def _only_root(E, P, lo: Fraction, hi: Fraction) -> bool:
    """Whether ``E`` has no root in ``[lo, hi]`` other than the one root of ``P`` there (module doc, 3)."""
    if rc.no_root_closed(E, lo, hi):
        return True
    g = rc.gcd(E, P)
    if len(g) < 2 or rc.sign_at(g, lo) * rc.sign_at(g, hi) >= 0:
        return False
    rest = rc.divide_out(E, g)
    return bool(rest) and (len(rest) == 1 or rc.no_root_closed(rest, lo, hi))


def _isolating_row(pair, fl, lo: Fraction, hi: Fraction, j: int) -> tuple[Root | None, int]:
    """Step 1 at one interval: the first event polynomial of the segments ``pair = (j, j + 1)``
    meeting at a breakpoint, among those whose float sign on ``[lo, hi]`` is undecided (``fl``),
    that has exactly one root in ``(lo, hi)`` (:func:`sflp.solving.rootcert.is_isolating`), as a
    :class:`Root` (None when none has); and the number of polynomials tried."""
    tried = 0
    for side in (0, 1):
        sr = pair[side]
        for r in np.flatnonzero(fl[side] == 0).tolist():
            P = sr.exact(r)
            tried += 1
            if rc.is_isolating(P, lo, hi):
                return Root("breakpoint", j + side, sr.names[r], tuple(P), lo, hi), tried
    return None, tried


def _crossings(F, a: Fraction, b: Fraction, open_a: bool, open_b: bool, sQ: int, j: int,
               name: str) -> tuple[list[Root], list[int]]:
    """The 0.5 crossings of the mixed hand ``name`` (``"F sb K7o"``) in the gap ``[a, b]`` of segment
    ``j`` (module doc, *Crossings*): the roots of ``F = 2N - Q`` where ``F`` changes sign, isolated
    exactly and published, and the signs of ``F Q`` (``sQ`` the sign of ``Q``) on the pieces
    between them, ``+1`` where the frequency is above 0.5.  A root where ``F`` keeps its sign (a
    tangency) is no crossing; a root on a closed end is a :class:`SolveError`."""
    _, player, hand = name.split(" ")
    if rc.sign_at(F, a) == 0 and not open_a or rc.sign_at(F, b) == 0 and not open_b:
        raise SolveError(f"thresholds: a 0.5 crossing of {player} {hand} on a certificate boundary")
    iso = rc.isolate(F, a, b)
    roots, piece_signs = [], []
    prev = a
    for lo, hi in iso:
        s_left = rc.sign_at(F, (prev + lo) / 2 if prev < lo else lo)
        piece_signs.append(s_left * sQ)
        roots.append(publish("crossing", j, name, F, lo, hi))
        prev = hi
    piece_signs.append(rc.sign_at(F, (prev + b) / 2 if prev < b else b) * sQ)
    # a root where F keeps its sign (a tangency) is no crossing
    keep_r, keep_s = [], [piece_signs[0]]
    for root, s in zip(roots, piece_signs[1:]):
        if s != keep_s[-1]:
            keep_r.append(root)
            keep_s.append(s)
    return keep_r, keep_s


# ---------------------------------------------------------------------------- the path


@dataclass
class PathCertificate:
    """The proof of a path's thresholds: ``breakpoints[j]`` (a :class:`Root`) ends segment ``j``;
    ``crossings[j]`` maps ``(player, hand)`` to the 0.5 crossings inside segment ``j``; ``over[j]``
    maps each mixed ``(player, hand)`` of segment ``j`` to the signs (``+1``: frequency > 0.5) of
    its pieces between them."""

    low: Root
    high: Root
    supports: list
    breakpoints: list[Root]
    crossings: list[dict]
    over: list[dict]
    exact_checks: int = 0
    """Sign and root questions the proof decided exactly, with integers (:mod:`sflp.solving.rootcert`)."""
    float_checks: int = 0
    """Signs of a polynomial on an interval the proof decided in floats with a proven error bound
    (:func:`_float_signs`); every other question went to the exact route."""


def _isolating_width(b: float, prev: float, nxt: float) -> Fraction:
    """A power of two about ``1.5e-11 b`` (relative: the game is homogeneous, and blinds of
    ``2^-40`` bb have their breakpoints near ``1e-12``), at most a quarter of either neighbouring
    segment.  (On a line other than the stack ``b`` may be 0 or negative: its size, or 1.)"""
    want = 2.0**-36 * (abs(b) or 1.0)
    want = min(want, (b - prev) / 4, (nxt - b) / 4)
    if not want > 0:
        raise SolveError(f"thresholds: an empty segment at {b!r}")
    return Fraction(2) ** math.floor(math.log2(want))


def _check_in_order(ends: list[Root], floats: list[float]) -> None:
    """Step 1's last check (module doc): the isolating intervals ``ends[1:-1]`` and the range's ends
    ``ends[0]``, ``ends[-1]`` are disjoint and in order, ``u_{j-1} < l_j`` (``floats[j]``: the float
    breakpoint of ``ends[j]``, for the message); else :class:`SolveError`.

    >>> r = lambda lo, hi: Root("breakpoint", 0, "Q", (0, 1), Fraction(lo), Fraction(hi))
    >>> _check_in_order([r(0, 0), r(1, 2), r(3, 4)], [0.0, 1.5, 3.5])
    >>> _check_in_order([r(0, 0), r(1, 3), r(2, 4)], [0.0, 1.5, 3.5])
    Traceback (most recent call last):
    sflp.errors.SolveError: thresholds: the isolating intervals at 1.5 and 3.5 overlap
    """
    for j in range(len(ends) - 1):
        if not ends[j].hi < ends[j + 1].lo:
            raise SolveError(f"thresholds: the isolating intervals at {floats[j]!r} and {floats[j + 1]!r} overlap")


def certify_path(config, low: float, high: float, segments, table=None, along: str = "stack") -> PathCertificate:
    """Prove the path ``segments`` (``(a, b, support)`` in bb, contiguous over ``[low, high]``) exact
    and isolate its breakpoints and 0.5 crossings (module doc); :class:`SolveError` if any step fails.

    ``along="ante"`` or ``"bb_ante"``: the path follows that ante at ``config.stack``, and every
    polynomial above is in the ante (the same proof, on the line's integers)."""
    from sflp.solving.segment import SegmentCertificate

    if along == "stack":
        game = PushFoldGame(config.with_stack(low), table)
    else:
        from sflp.core.game import line_payoffs

        game = PushFoldGame(config, table, payoffs=line_payoffs(config, along, table))
    segs = [SegmentCertificate(game, sup) for _, _, sup in segments]
    big = [None] * len(segs) if _EXACT_BIG_ROWS else _float_rows(segs)  # one batched float product
    rows = [_SegRows(j, seg, rows_j) for j, (seg, rows_j) in enumerate(zip(segs, big))]
    J = len(segments)
    lo_root, hi_root = end_root(low, 0), end_root(high, J - 1)
    floats = [float(a) for a, _, _ in segments] + [float(high)]
    checks = 0
    decided = 0  # signs the float filter proved
    # 1. breakpoints
    bps: list[Root] = []
    wide: list[Root] = []  # the proof's intervals I_j (the published ones are narrowed inside them)
    end_ok: list[list[np.ndarray]] = [[None, None] for _ in range(J)]  # float signs on I_{j-1}, I_j
    for j in range(J - 1):
        b = floats[j + 1]
        width = _isolating_width(b, floats[j], floats[j + 2])
        found = None
        for _ in range(4):
            lo, hi = Fraction(b) - width, Fraction(b) + width
            fl = [rows[j].float_signs(lo, hi), rows[j + 1].float_signs(lo, hi)]
            found, tried = _isolating_row((rows[j], rows[j + 1]), fl, lo, hi, j)
            checks += tried
            if found:
                break
            width *= 64
            if width > (floats[j + 2] - floats[j]) / 4:
                break
        if found is None:
            raise SolveError(f"thresholds: no event polynomial of the segments at {b!r} isolates the breakpoint")
        bps.append(publish(found.kind, found.segment, found.name, found.poly, found.lo, found.hi))
        wide.append(found)
        end_ok[j][1], end_ok[j + 1][0] = fl
        decided += int(np.count_nonzero(fl[0]) + np.count_nonzero(fl[1]))
    ends = [lo_root, *wide, hi_root]
    _check_in_order(ends, floats)
    # 3. ends of each segment: no root but the breakpoint
    for j in range(J):
        sr = rows[j]
        for side, root in ((0, ends[j]), (1, ends[j + 1])):
            if root.kind == "end":
                continue
            for r in np.flatnonzero(end_ok[j][side] == 0).tolist():
                E = sr.exact(r)
                if list(E) == list(root.poly):
                    continue
                checks += 1
                if not _only_root(E, list(root.poly), root.lo, root.hi):
                    raise SolveError(f"thresholds: segment {j}'s polynomial {sr.names[r]} has a root near the "
                                     f"breakpoint {float(root.lo)!r} other than it: a breakpoint was missed")
    # 2. gaps, and the crossings inside them
    crossings: list[dict] = []
    over: list[dict] = []
    for j in range(J):
        sr = rows[j]
        a, b = ends[j].hi, ends[j + 1].lo
        open_a, open_b = ends[j].kind == "end", ends[j + 1].kind == "end"
        signs = sr.float_signs(a, b).astype(int)
        decided += int(np.count_nonzero(signs))
        for r in np.flatnonzero(signs == 0).tolist():
            if sr.req[r] == 0 and sr.names[r].startswith("F "):
                continue  # crossings: isolated below
            checks += 1
            signs[r] = _exact_sign_on(sr.exact(r), a, b, open_a, open_b)
            if signs[r] == 0:
                raise SolveError(f"thresholds: segment {j}'s polynomial {sr.names[r]} vanishes inside it "
                                 f"({float(a)!r} to {float(b)!r}): a breakpoint was missed")
        sQ = signs[0]
        bad = np.flatnonzero((sr.req != 0) & (signs * sQ != sr.req))
        if len(bad):
            raise SolveError(f"thresholds: on segment {j} ({float(a)!r} to {float(b)!r}) the polynomial "
                             f"{sr.names[int(bad[0])]} has the wrong sign: the support is not an equilibrium there")
        seg_cross: dict = {}
        seg_over: dict = {}
        for r, name in enumerate(sr.names[:sr.n_small]):
            if not name.startswith("F "):
                continue
            _, player, hand = name.split(" ")
            F = sr.small[r]
            if signs[r] != 0:
                roots: list[Root] = []
                piece_signs = [int(signs[r]) * sQ]
            else:
                checks += 1
                roots, piece_signs = _crossings(F, a, b, open_a, open_b, sQ, j, name)
            seg_cross[(player, hand)] = roots
            seg_over[(player, hand)] = piece_signs
        crossings.append(seg_cross)
        over.append(seg_over)
    return PathCertificate(lo_root, hi_root, [s for _, _, s in segments], bps, crossings, over, checks, decided)


def certified_hands(cert: PathCertificate, hand_type, n: int = N_CLASSES):
    """The :class:`~sflp.solving.thresholds.HandThresholds` of every player x hand from a proven path:
    ``intervals`` where the frequency is >= 0.5 (pure, or a mixed piece of positive sign),
    ``any_intervals`` where it is > 0, endpoints the published floats of their roots; a hand's
    ``exact`` holds the :class:`Root` ends of its intervals, and its label is decided from them.
    ``hand_type`` is that class, passed in by its module (imports run one way: this module is below it)."""

    J = len(cert.supports)
    ends = [cert.low, *cert.breakpoints, cert.high]
    over: list[list[tuple[Root, Root]]] = [[] for _ in range(2 * n)]
    anyp: list[list[tuple[Root, Root]]] = [[] for _ in range(2 * n)]
    open_runs: list[dict] = [{}, {}]  # hand index -> start of its run of over / any intervals open at ends[j]
    previous: list[set] = [set(), set()]

    def step(kind: int, idx: int, pieces: list, j: int) -> None:
        """Segment ``j``'s pieces of hand ``idx`` (in order), continuing or closing its open run."""
        target, runs = (over, anyp)[kind], open_runs[kind]
        start = runs.pop(idx, None)
        if start is not None and not (pieces and pieces[0][0] is ends[j]):
            target[idx].append((start, ends[j]))
            start = None
        for k, (a, b) in enumerate(pieces):
            first = start if k == 0 and start is not None else a
            if b is ends[j + 1]:
                runs[idx] = first
            else:
                target[idx].append((first, b))

    for j in range(J):
        sup = cert.supports[j]
        whole = [(ends[j], ends[j + 1])]
        status: dict = {}  # hand index -> (over pieces, any pieces), for the hands whose runs may change
        for base, player, pure, mixed in ((0, "sb", sup.sb_pure, sup.sb_mixed), (n, "bb", sup.bb_pure, sup.bb_mixed)):
            for h in mixed:
                key = (player, CLASS_NAMES[h])
                cuts = [ends[j], *cert.crossings[j][key], ends[j + 1]]
                pieces = [(a, b) for s, a, b in zip(cert.over[j][key], cuts[:-1], cuts[1:]) if s > 0]
                status[base + h] = (pieces, whole)
            for h in pure:
                status[base + h] = (whole, whole)
        # only hands not pure in both this segment and the last one can start or end a run here
        now_pure = {idx for idx, (pc, _) in status.items() if pc is whole}
        touched = (set(status) - (now_pure & previous[0])) | (previous[1] - set(status))
        for idx in sorted(touched):
            pieces, anyp_pieces = status.get(idx, ([], []))
            step(0, idx, pieces, j)
            step(1, idx, anyp_pieces, j)
        previous = [now_pure, set(status)]
    for kind in (0, 1):
        for idx, start in open_runs[kind].items():
            (over, anyp)[kind][idx].append((start, ends[J]))
    hands = []
    for idx in range(2 * n):
        iv = over[idx]
        capped = bool(iv) and iv[-1][1] is cert.high
        top = iv[-1][1] if iv else None
        label = None if top is None or capped else label_of(top)
        texts = (intervals_text(iv), intervals_text(anyp[idx]), None if top is None else top.decimal())
        hands.append(hand_type(
            PLAYERS[idx // n], CLASS_NAMES[idx % n],
            tuple((a.value, b.value) for a, b in iv), tuple((a.value, b.value) for a, b in anyp[idx]),
            None if top is None else top.value, capped, exact_label=label, texts=texts))
    return tuple(hands)
