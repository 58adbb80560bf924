r"""One support's piece of the exact path: its event functions, their polynomials and their roots.

On a stretch of stacks where the equilibrium support is fixed, the mixed frequencies solve two
square indifference systems with entries affine in ``S`` (:mod:`sflp.solving.thresholds` states
them; :func:`sflp.solving.support.indifference_system` builds them).  By Cramer's rule every mixed
frequency is ``N(S) / D(S)`` with ``D = det K[Ms, Mb]`` of degree ``<= k`` (``k`` mixed hands per
player) and numerators of degree ``<= k``; every pure hand's margin times ``D`` is a polynomial of
degree ``<= k + 1``.  The support stays an equilibrium support exactly as long as every *event
polynomial* keeps its sign:

==========================  =========================================================
``D``                        the indifference systems stay regular
``N``, ``D - N``             each mixed frequency stays inside ``(0, 1)``
``m_i D``                    each pure SB hand keeps the sign of its shove margin
``(K'x)_j D``                each pure BB hand keeps the sign of its call margin
==========================  =========================================================

A :class:`_Piece` holds them for one support: it evaluates them exactly at any stack (the
determinants evaluated at that stack) and interpolates their polynomials (degree ``k + 1``,
exactly, at Chebyshev nodes over a window around a stack, see
:data:`sflp.solving.follower._WINDOW`).  :func:`_segment` takes their real roots nearest a stack on
either side and refines each by a bracketing root finder (:func:`_root_near`) on the *exact* event
function, to ~1e-13 relative: that is the segment on which the support holds.  The path follower
(:mod:`sflp.solving.follower`) strings the segments together.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.polynomial import chebyshev as _cheb

from sflp.core.game import Payoffs
from sflp.solving import support as _support
from sflp.solving.support import Support, indifference_system


def _rgf(p: Payoffs, t: float) -> np.ndarray:
    """``r (g - f)`` at ``t`` on the line of ``p`` (along the stack it does not move)."""
    if p.g1 == 0 and p.f1 == 0:
        return p.r * (p.g - p.f)
    return p.r * ((p.g - p.f) + t * (p.g1 - p.f1))


def _strategies(payoffs: Payoffs, support: Support, stack: float) -> tuple[np.ndarray, np.ndarray]:
    """The strategies of ``support`` at ``stack`` (indifference systems solved directly)."""
    p = payoffs
    system = indifference_system(p.K0 + stack * p.K1, _rgf(p, stack), support)
    x, y = system.x_pure, system.y_pure
    if support.sb_mixed:
        x, y = system.strategies(*system.solve())
    return np.clip(x, 0.0, 1.0), np.clip(y, 0.0, 1.0)


class _Piece:
    """The event functions of one support: exact evaluation and their polynomials.

    Rows (each multiplied by ``1/D(ref)`` so that they are ``>= 0`` exactly where the support is
    an equilibrium support, and, at ``ref``, equal to frequencies or per-hand margins in bb):
    ``D``; ``x_l``, ``1-x_l`` (SB mixed); ``y_l``, ``1-y_l`` (BB mixed); signed SB margins of the
    pure SB hands; signed BB margins of the pure BB hands.  Crossing rows: ``x_l - 1/2``, ``y_l - 1/2``.

    Every row is ``D``, a Cramer numerator ``N`` or ``(a + S b) D + (B + S B') N``: only the
    ``2k + 1`` determinants depend on the stack other than linearly.  They are evaluated at all
    the stacks asked for at once (:meth:`_dets`), and their polynomials (degree ``<= k``) are
    fitted at Chebyshev nodes; the rows' polynomials (degree ``<= k + 1``) follow from them by
    exact polynomial algebra (:meth:`_fit`), not by fitting each of the hundreds of rows.
    """

    def __init__(self, payoffs: Payoffs, support: Support, ref: float, low: float, high: float):
        p = payoffs
        self.payoffs, self.support = p, support
        n = p.K0.shape[0]
        self.n = n
        self.sm = sm = np.array(support.sb_mixed, dtype=int)
        self.bm = bm = np.array(support.bb_mixed, dtype=int)
        self.k = k = len(sm)
        if len(bm) != k:
            raise ValueError("non-square support")
        xp, yp = support.pure_vectors(n)
        self.xp, self.yp = xp, yp
        sb_out = np.ones(n, dtype=bool)
        sb_out[sm] = False
        bb_out = np.ones(n, dtype=bool)
        bb_out[bm] = False
        self.sb_rows, self.bb_rows = np.flatnonzero(sb_out), np.flatnonzero(bb_out)
        # SB pure-in needs margin >= 0, pure-out <= 0; BB calls where (K'x)_j < 0.
        sb_sign = np.where(xp[self.sb_rows] > 0.5, 1.0, -1.0) / p.r[self.sb_rows]
        bb_sign = np.where(yp[self.bb_rows] > 0.5, -1.0, 1.0) / p.r[self.bb_rows]
        rgf, rgf1 = _rgf(p, 0.0), p.r * (p.g1 - p.f1)  # r (g - f) at t = 0, and its slope
        # everything as (constant, slope) in S: K(S) y_pure, K(S)' x_pure and the mixed blocks
        self.a0, self.a1 = rgf + p.K0 @ yp, rgf1 + p.K1 @ yp  # SB margins against BB's pure part
        self.c0, self.c1 = p.K0.T @ xp, p.K1.T @ xp  # (K'x)_j from SB's pure part
        self.sa0, self.sa1 = sb_sign * self.a0[self.sb_rows], sb_sign * self.a1[self.sb_rows]
        self.bc0, self.bc1 = bb_sign * self.c0[self.bb_rows], bb_sign * self.c1[self.bb_rows]
        if k:
            # the indifference system is linear in (K, base): at K0 + S*K1 it is sys0 + S*sys1
            # (indifference_system's C, d, b with the pure products above, read off in place)
            K0b, K1b = p.K0[:, bm], p.K1[:, bm]  # BB's mixed columns
            K0s, K1s = p.K0[sm], p.K1[sm]  # SB's mixed rows
            self.C0, self.d0, self.b0 = K0b[sm], -self.a0[sm], -self.c0[bm]
            self.C1, self.d1, self.b1 = K1b[sm], -self.a1[sm], -self.c1[bm]
            self.Ks0 = sb_sign[:, None] * K0b[self.sb_rows]
            self.Ks1 = sb_sign[:, None] * K1b[self.sb_rows]
            self.Kb0 = bb_sign[:, None] * K0s[:, self.bb_rows].T
            self.Kb1 = bb_sign[:, None] * K1s[:, self.bb_rows].T
        self.n_sb = len(self.sb_rows)
        self.n_rows = 1 + 4 * k + self.n_sb + len(self.bb_rows)
        self.low, self.high = low, high
        self.scale = 1.0
        d_ref = float(self._dets(np.array([ref]))[0][0])
        if d_ref == 0 or not math.isfinite(d_ref):
            raise ValueError("singular support")
        self.scale = 1.0 / d_ref
        self._fit()

    # exact evaluation ------------------------------------------------------------------

    def _dets(self, S: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``D``, ``y_M D`` and ``x_M D`` (Cramer's rule), times ``scale``, at each of the stacks
        ``S`` (shapes ``(m,)``, ``(m, k)``, ``(m, k)``)."""
        k, m = self.k, len(S)
        if not k:
            return np.full(m, self.scale), np.zeros((m, 0)), np.zeros((m, 0))
        s = S[:, None]
        d = (self.d0 + s * self.d1) * self.scale
        b = (self.b0 + s * self.b1) * self.scale
        if k == 1:
            return (self.C0[0, 0] + S * self.C1[0, 0]) * self.scale, d, b
        C = self.C0 + S[:, None, None] * self.C1
        if k == 2 and _support._CLOSED_FORM:  # 2 x 2: the five determinants written out
            dd, bb = self.d0 + s * self.d1, self.b0 + s * self.b1
            c00, c01, c10, c11 = C[:, 0, 0], C[:, 0, 1], C[:, 1, 0], C[:, 1, 1]
            D = (c00 * c11 - c01 * c10) * self.scale
            NY = np.column_stack((dd[:, 0] * c11 - c01 * dd[:, 1], c00 * dd[:, 1] - dd[:, 0] * c10)) * self.scale
            NX = np.column_stack((bb[:, 0] * c11 - c10 * bb[:, 1], c00 * bb[:, 1] - bb[:, 0] * c01)) * self.scale
            return D, NY, NX
        mats = np.empty((m, 2 * k + 1, k, k))
        mats[:, 0] = C
        mats[:, 1 : 1 + k] = C[:, None]
        mats[:, 1 + k :] = np.swapaxes(C, 1, 2)[:, None]
        for l in range(k):
            mats[:, 1 + l, :, l] = self.d0 + s * self.d1
            mats[:, 1 + k + l, :, l] = self.b0 + s * self.b1
        dets = np.linalg.det(mats)
        return dets[:, 0] * self.scale, dets[:, 1 : 1 + k] * self.scale, dets[:, 1 + k :] * self.scale

    def rows_at(self, S) -> np.ndarray:
        """All event rows at each stack of ``S``: shape ``(len(S), n_rows)``."""
        S = np.asarray(S, dtype=float)
        D, NY, NX = self._dets(S)
        s, Dc = S[:, None], D[:, None]
        ms = (self.sa0 + s * self.sa1) * Dc
        mb = (self.bc0 + s * self.bc1) * Dc
        if self.k:
            ms = ms + NY @ self.Ks0.T + s * (NY @ self.Ks1.T)
            mb = mb + NX @ self.Kb0.T + s * (NX @ self.Kb1.T)
        return np.concatenate((Dc, NX, Dc - NX, NY, Dc - NY, ms, mb), axis=1)

    def rows(self, S: float) -> np.ndarray:
        """All event rows at ``S`` (>= 0 where the support is an equilibrium support)."""
        return self.rows_at([S])[0]

    def row(self, r: int):
        """Event row ``r`` as a function of the stack (what :meth:`rows` gives in column ``r``,
        evaluating only that row; in plain floats when at most one hand per player is mixed)."""
        k = self.k
        if k <= 1:
            return self._row_small(r)
        if r < 1 + 4 * k:
            q, l = divmod(r - 1, k) if r else (-1, 0)

            def det_row(S: float) -> float:
                D, NY, NX = self._dets(np.array([S]))
                if q < 0:
                    return float(D[0])
                v = (NX if q < 2 else NY)[0, l]
                return float(v if q % 2 == 0 else D[0] - v)

            return det_row
        i = r - 1 - 4 * k
        if i < self.n_sb:
            a0, a1, N = self.sa0[i], self.sa1[i], 1
            B0, B1 = (self.Ks0[i], self.Ks1[i]) if k else (None, None)
        else:
            i -= self.n_sb
            a0, a1, N = self.bc0[i], self.bc1[i], 2
            B0, B1 = (self.Kb0[i], self.Kb1[i]) if k else (None, None)

        def margin_row(S: float) -> float:
            D, NY, NX = self._dets(np.array([S]))
            v = (a0 + S * a1) * D[0]
            if k:
                v = v + (B0 + S * B1) @ (NY if N == 1 else NX)[0]
            return float(v)

        return margin_row

    def _row_small(self, r: int):
        """:meth:`row` for ``k <= 1``: ``D = (C0 + S C1) / D(ref)`` and the numerators are affine,
        so a row is a product of affine functions, evaluated without arrays."""
        sc = self.scale
        c0, c1 = (float(self.C0[0, 0]), float(self.C1[0, 0])) if self.k else (1.0, 0.0)
        if r < 1 + 4 * self.k:
            if r == 0:
                return lambda S: (c0 + S * c1) * sc
            n0, n1 = (float(self.b0[0]), float(self.b1[0])) if r in (1, 2) else (float(self.d0[0]), float(self.d1[0]))
            if r in (1, 3):
                return lambda S: (n0 + S * n1) * sc
            return lambda S: (c0 + S * c1) * sc - (n0 + S * n1) * sc
        i = r - 1 - 4 * self.k
        if i < self.n_sb:
            a0, a1 = float(self.sa0[i]), float(self.sa1[i])
            parts = (float(self.Ks0[i, 0]), float(self.Ks1[i, 0]), float(self.d0[0]), float(self.d1[0])) \
                if self.k else None
        else:
            i -= self.n_sb
            a0, a1 = float(self.bc0[i]), float(self.bc1[i])
            parts = (float(self.Kb0[i, 0]), float(self.Kb1[i, 0]), float(self.b0[0]), float(self.b1[0])) \
                if self.k else None
        if parts is None:
            return lambda S: (a0 + S * a1) * sc
        B0, B1, n0, n1 = parts
        return lambda S: (a0 + S * a1) * ((c0 + S * c1) * sc) + (B0 + S * B1) * ((n0 + S * n1) * sc)

    def cross_rows(self, S: float) -> np.ndarray:
        """``x_l - 1/2`` and ``y_l - 1/2`` times ``D/D(ref)``."""
        D, NY, NX = self._dets(np.array([S]))
        return np.concatenate((NX[0] - 0.5 * D[0], NY[0] - 0.5 * D[0]))

    def cross_row(self, row: int):
        """Crossing row ``row`` (what :meth:`cross_rows` gives in column ``row``) as a function of
        the stack; in plain floats when one hand per player is mixed (the same operations, so the
        same values)."""
        if self.k != 1:
            return lambda S: self.cross_rows(S)[row]
        sc = self.scale
        c0, c1 = float(self.C0[0, 0]), float(self.C1[0, 0])
        n0, n1 = (float(self.b0[0]), float(self.b1[0])) if row == 0 else (float(self.d0[0]), float(self.d1[0]))
        return lambda S: (n0 + S * n1) * sc - 0.5 * ((c0 + S * c1) * sc)

    def strategies(self, S: float) -> tuple[np.ndarray, np.ndarray]:
        """SB push and BB call frequencies of this support at ``S``."""
        D, NY, NX = self._dets(np.array([S]))
        x, y = self.xp.copy(), self.yp.copy()
        if self.k:
            x[self.sm] = NX[0] / D[0]
            y[self.bm] = NY[0] / D[0]
        return np.clip(x, 0.0, 1.0), np.clip(y, 0.0, 1.0)

    def row_event(self, row: int) -> tuple[str, int, float]:
        """What a row reaching zero means: (player, hand, the hand's new pure value or -1 for mixed)."""
        k = self.k
        if row == 0:
            return ("D", -1, -1.0)
        if row <= 4 * k:
            q, l = divmod(row - 1, k)
            player = "sb" if q < 2 else "bb"
            hand = int((self.sm if q < 2 else self.bm)[l])
            return (player, hand, 0.0 if q % 2 == 0 else 1.0)
        row -= 1 + 4 * k
        if row < len(self.sb_rows):
            return ("sb", int(self.sb_rows[row]), -1.0)
        return ("bb", int(self.bb_rows[row - len(self.sb_rows)]), -1.0)

    # polynomials -----------------------------------------------------------------------

    def _fit(self) -> None:
        """The rows' polynomials in ``u = (S - mid) / half`` and their real roots in ``[-1, 1]``.

        ``D``, ``y_M D`` and ``x_M D`` have degree ``<= k``: they are fitted (least squares in the
        Chebyshev basis at ``2 (k + 1) + 4`` nodes, as the rows were before) and turned into
        power series in ``u``; each row is then that polynomial, or ``(A0 + u A1) D + (B0 + u B1) N``
        multiplied out, with ``A0 = a + mid b``, ``A1 = half b`` (the same for ``B``)."""
        k = self.k
        self.mid, self.half = 0.5 * (self.low + self.high), 0.5 * (self.high - self.low)
        mid, half = self.mid, self.half
        if k:
            u, fit = _fit_matrix(k)
            D, NY, NX = self._dets(mid + half * u)
            if _FIT_ONCE:
                dets = fit @ np.column_stack((D, NX, NY))  # (k+1, 1+2k): ascending powers of u
            else:  # the route before issue 53 (for the benchmark): a least-squares solve a piece
                coef, *_ = np.linalg.lstsq(_cheb.chebvander(u, k), np.column_stack((D, NX, NY)), rcond=None)
                dets = _cheb_to_power(k) @ coef
        else:
            dets = np.full((1, 1), self.scale)
        pD, pX, pY = dets[:, :1], dets[:, 1 : 1 + k], dets[:, 1 + k :]
        top = k + 2  # coefficients of the margins: degree k + 1

        def margins(a0, a1, B0, B1, pN) -> np.ndarray:
            A0, A1 = a0 + mid * a1, half * a1
            out = np.zeros((top, len(a0)))
            out[:-1] += pD * A0
            out[1:] += pD * A1
            if k:
                out[:-1] += pN @ (B0 + mid * B1).T
                out[1:] += pN @ (half * B1).T
            return out

        B = (self.Ks0, self.Ks1, self.Kb0, self.Kb1) if k else (None,) * 4
        ms = margins(self.sa0, self.sa1, B[0], B[1], pY)
        mb = margins(self.bc0, self.bc1, B[2], B[3], pX)
        low_rows = np.column_stack((pD, pX, pD - pX, pY, pD - pY))
        power = np.vstack((low_rows, np.zeros((1, low_rows.shape[1]))))
        self.power = np.hstack((power, ms, mb))  # (k+2, n_rows)
        self.root_at, self.root_row = _real_roots(self.power, mid, half)
        self._dets_power = dets

    @property
    def cross_roots(self) -> tuple[np.ndarray, np.ndarray]:
        """The real roots of the crossing rows (computed when first asked: only the float path
        without a certificate reads them)."""
        got = self.__dict__.get("_cross")
        if got is None:
            k, dets = self.k, self._dets_power
            got = _real_roots(np.hstack((dets[:, 1 : 1 + k] - 0.5 * dets[:, :1],
                                         dets[:, 1 + k :] - 0.5 * dets[:, :1])), self.mid, self.half)
            self._cross = got
        return got


_FIT_ONCE = True
"""Fit a piece's determinants by one product with :func:`_fit_matrix` (made once per ``k``), not a
least-squares solve a piece: a private switch, so that the benchmark times the route before
issue 53 in the same process."""
_FIT_CACHE: dict[int, tuple[np.ndarray, np.ndarray]] = {}


def _fit_matrix(k: int) -> tuple[np.ndarray, np.ndarray]:
    """The ``2 (k + 1) + 4`` Chebyshev nodes ``u`` of a degree-``k`` fit and the matrix taking the
    values there to the least-squares polynomial's power-series coefficients (ascending in ``u``):
    the pseudo-inverse of the Chebyshev Vandermonde matrix, then :func:`_cheb_to_power`; made once
    per ``k``, so a fit is one matrix product."""
    if k not in _FIT_CACHE:
        m = 2 * (k + 1) + 4
        u = np.cos(np.pi * (np.arange(m) + 0.5) / m)
        _FIT_CACHE[k] = u, _cheb_to_power(k) @ np.linalg.pinv(_cheb.chebvander(u, k))
    return _FIT_CACHE[k]


_C2P_CACHE: dict[int, np.ndarray] = {}


def _cheb_to_power(deg: int) -> np.ndarray:
    """Matrix taking Chebyshev coefficients (degree ``deg``) to power-series coefficients."""
    if deg not in _C2P_CACHE:
        out = np.zeros((deg + 1, deg + 1))
        for i in range(deg + 1):
            power = _cheb.cheb2poly(np.eye(deg + 1)[i])
            out[: len(power), i] = power
        _C2P_CACHE[deg] = out
    return _C2P_CACHE[deg]


def _real_roots(power: np.ndarray, mid: float, half: float) -> tuple[np.ndarray, np.ndarray]:
    """Approximate real roots (as stacks) in the fitted interval of each column of power-series
    coefficients in ``u = (S - mid) / half`` (ascending), as two flat arrays: the roots and their
    column.  A column's degree is its highest coefficient above ``1e-11`` of its largest; linear
    and quadratic columns are solved in closed form, higher ones by their companion matrices."""
    deg = power.shape[0] - 1
    size = np.abs(power).max(axis=0)
    big = (np.abs(power[1:]) > 1e-11 * size) & (size > 0)  # (deg, n): coefficient d + 1 counts
    eff = np.where(big.any(axis=0), deg - np.argmax(big[::-1], axis=0), 0)  # the highest one that counts
    at, which = [], []
    for d in range(1, deg + 1):
        cols = np.flatnonzero(eff == d)
        if not len(cols):
            continue
        if d == 1:
            re, im = (-(power[0, cols] / power[1, cols]))[:, None], np.zeros((len(cols), 1))
        elif d == 2:
            a, b, c = power[2, cols], power[1, cols], power[0, cols]
            disc = b * b - 4 * a * c
            root = np.sqrt(np.abs(disc))
            q = -0.5 * (b + np.copysign(root, b))  # no cancellation: |q| >= |b| / 2
            real = disc >= 0
            with np.errstate(divide="ignore", invalid="ignore"):
                r1 = np.where(real, q / a, -b / (2 * a))
                r2 = np.where(real, np.where(q != 0, c / np.where(q != 0, q, 1.0), -b / (2 * a)), -b / (2 * a))
                imag = np.where(real, 0.0, root / (2 * np.abs(a)))
            re, im = np.column_stack((r1, r2)), np.column_stack((imag, imag))
        else:
            lead = power[d, cols]
            comp = np.zeros((len(cols), d, d))
            idx = np.arange(d - 1)
            comp[:, idx + 1, idx] = 1.0
            comp[:, :, d - 1] = -(power[:d, cols] / lead).T
            eig = np.linalg.eigvals(comp)  # (len(cols), d)
            re, im = eig.real, eig.imag
        ok = (np.abs(im) <= 1e-6 * np.maximum(1.0, np.abs(re))) & (np.abs(re) <= 1 + 1e-9)
        rr, cc = np.nonzero(ok)
        at.append(mid + half * re[rr, cc])
        which.append(cols[rr])
    if not at:
        return np.zeros(0), np.zeros(0, dtype=int)
    at_, which_ = np.concatenate(at), np.concatenate(which)
    order = np.argsort(at_, kind="stable")
    return at_[order], which_[order]


def _refine(f, good: float, bad: float, tol: float) -> float:
    """A root of ``f`` between ``good`` (``f >= 0``) and ``bad`` (``f < 0``), by the Illinois method."""
    fg, fb = f(good), f(bad)
    side = 0
    for _ in range(200):
        if abs(bad - good) <= tol:
            break
        den = fg - fb
        s = good - fg * (bad - good) / (fb - fg) if den != 0 else 0.5 * (good + bad)
        lo, hi = min(good, bad), max(good, bad)
        if not (lo < s < hi):
            s = 0.5 * (good + bad)
        fs = f(s)
        if fs >= 0:
            good, fg = s, fs
            if side == 1:
                fb *= 0.5
            side = 1
        else:
            bad, fb = s, fs
            if side == -1:
                fg *= 0.5
            side = -1
    return 0.5 * (good + bad)


def _root_near(f, approx: float, lo: float, hi: float) -> float | None:
    """The sign change of ``f`` nearest ``approx`` inside ``[lo, hi]``, refined; None if none nearby.

    ``approx`` comes from the interpolant; the bracket is widened from 1e-8 up to 1e-2 (relative)
    until ``f`` changes sign, else the root was spurious or a tangency (no sign change).
    """
    scale = max(1.0, abs(approx))
    w = 1e-8 * scale
    while True:
        a, b = max(lo, approx - w), min(hi, approx + w)
        if a < b:
            fa, fb = f(a), f(b)
            if (fa >= 0) != (fb >= 0) or (fa == 0) != (fb == 0):
                sign = 1.0 if (fa > 0 or (fa == 0 and fb < 0)) else -1.0
                return _refine(lambda S: sign * f(S), a, b, 1e-13 * scale)
        if (a <= lo and b >= hi) or w > 1e-2 * scale:
            return None
        w *= 10


def _segment(piece: _Piece, p: float, lo: float, hi: float) -> tuple[float, float, int, int]:
    """The stacks ``[a, b]`` around ``p`` (within ``[lo, hi]``) where the support holds, and the
    rows whose sign change ends it on each side (-1 at ``lo`` / ``hi``)."""
    out = []
    at, which = piece.root_at, piece.root_row
    for direction, limit in ((1.0, hi), (-1.0, lo)):
        if direction > 0:
            sel = np.flatnonzero((at > p) & (at <= limit + 1e-6 * max(1.0, limit)))
        else:
            sel = np.flatnonzero((at < p) & (at >= limit - 1e-6 * max(1.0, limit)))[::-1]
        best, best_row = limit, -1
        for idx in sel:
            r, row = float(at[idx]), int(which[idx])
            if (r - best) * direction > 1e-6 * max(1.0, abs(best)):
                break
            c = _root_near(piece.row(row), r, min(p, limit), max(p, limit))
            if c is not None and (c - best) * direction < 0:
                best, best_row = c, row
        out.append((best, best_row))
    (b, brow), (a, arow) = out
    return a, b, arow, brow
