r"""Exact certificates for the stacks of one segment of the equilibrium path, from polynomials.

On a segment of the exact path (:mod:`sflp.thresholds`) the support is fixed.  In the integers
of the certificate (:mod:`sflp.certify`: ``sigma0 * K(S) = KC + S * KS2`` with
``sigma0 = 2*den0*D*B``, and ``sigma0 * r_i (g - f)`` an integer) every exact figure of the
equilibrium is then a polynomial in the stack ``S`` with integer coefficients, divided by another:

* the mixed frequencies, by Cramer's rule on the indifference systems ``C(S) y_M = -e_M(S)`` and
  ``C(S)' x_M = -h_M(S)`` (``C = KC + S*KS2`` on the mixed rows and columns):
  ``y_j = Ny_j(S) / Q(S)``, ``x_i = Nx_i(S) / Q(S)`` with ``Q = det C``;
* SB's margin of every hand, ``m_i = M_i(S) / (sigma0 Q(S))`` with
  ``M_i = e_i Q + sum_{j in Mb} C_ij Ny_j`` (``e_i`` the hand's row over BB's pure hands, plus
  ``sigma0 r_i (g - f)``);
* BB's column term of every hand, ``c_j = Cn_j(S) / (sigma0 Q(S))`` with
  ``Cn_j = h_j Q + sum_{i in Ms} C_ij Nx_i``, and the chance of facing a shove with it,
  ``(P'x)_j = Rn_j(S) / (D Q(S))`` with ``Rn_j = rho_j Q + sum_{i in Ms} pairs_ij Nx_i``;
* the value, ``f + sum_{i in Ps} m_i``, and SB's value against BB's best response,
  ``f + (g - f) r.x + sum_{j in Pb} c_j``.

:class:`SegmentCertificate` forms these polynomials once per segment (exact Python integers);
a stack ``S = p/q`` is then a few integer evaluations, homogenised so that no fraction is formed
until the end.  The certificate at the stack is the one of :func:`sflp.certify.certify`: every
mixed frequency strictly inside (0, 1), every pure SB hand's margin of the right strict sign,
every mixed hand's exactly 0, the same for BB, and the two best-response values equal (so the
exploitability is exactly 0).  Any degenerate case -- ``Q = 0``, a frequency at 0 or 1, a pure
hand's margin exactly 0 (a stack on a breakpoint), a support that is not square -- returns None,
and the caller certifies that stack the general way.  Every published float is the exact value
rounded once, so the numbers are those :func:`~sflp.certify.certify` publishes, bit for bit;
``tests/test_segment.py`` checks that on whole grids.
"""

from __future__ import annotations

import math
import time
from fractions import Fraction
from itertools import permutations

import numpy as np

from sflp.certify import _check_float_payoffs, _counts, _names, _r_parts, _structure
from sflp.equity import BOARDS_PER_PAIR, load_table
from sflp.game import DEALS, GameConfig, PushFoldGame, Solution, to_fraction
from sflp.support import Support

MAX_MIXED = 5
"""Segments with more mixed hands per player than this are certified stack by stack
(the determinants are expanded term by term: ``k!`` products)."""

_ZERO, _ONE = Fraction(0), Fraction(1)


# ---------------------------------------------------------------- integer polynomials (lists)


def _mul(a: list[int], b: list[int]) -> list[int]:
    out = [0] * (len(a) + len(b) - 1)
    for i, u in enumerate(a):
        if u:
            for j, v in enumerate(b):
                out[i + j] += u * v
    return out


def _add(a: list[int], b: list[int]) -> list[int]:
    if len(a) < len(b):
        a, b = b, a
    out = list(a)
    for i, v in enumerate(b):
        out[i] += v
    return out


def _det(M: list[list[list[int]]]) -> list[int]:
    """The determinant of a square matrix of polynomials (Leibniz: a sum over permutations)."""
    k = len(M)
    if k == 0:
        return [1]
    total = [0]
    for perm in permutations(range(k)):
        sign = 1
        for a in range(k):  # the parity of the permutation, by counting inversions
            for b in range(a + 1, k):
                if perm[a] > perm[b]:
                    sign = -sign
        term = [sign]
        for row, col in enumerate(perm):
            term = _mul(term, M[row][col])
        total = _add(total, term)
    return total


def _pad(poly: list[int], size: int) -> list[int]:
    return list(poly) + [0] * (size - len(poly))


# ---------------------------------------------------------------- the segment


_OBJECT_PARTS: dict[int, tuple] = {}


def _object_parts(st) -> tuple[np.ndarray, np.ndarray]:
    """``KC`` and ``KS2 = 2*den0*KS`` of a structure as arrays of Python ints (made once)."""
    hit = _OBJECT_PARTS.get(id(st))
    if hit is None or hit[0] is not st:
        if len(_OBJECT_PARTS) > 8:
            _OBJECT_PARTS.clear()
        hit = (st, np.asarray(st.KC, dtype=object), np.asarray(st.KS, dtype=object) * (2 * st.den0))
        _OBJECT_PARTS[id(st)] = hit
    return hit[1], hit[2]


def _sum(K: np.ndarray, hands: list[int], axis: int) -> np.ndarray:
    """Row (``axis=1``: over columns ``hands``) or column sums of ``K`` as Python ints; in int64
    when ``K`` is int64 (its entries are bounded so that any row sum fits, see sflp.certify)."""
    n = K.shape[0]
    if not hands:
        return np.zeros(n, dtype=object)
    part = K[:, hands] if axis == 1 else K[hands, :]
    return part.sum(axis=axis).astype(object)


class SegmentCertificate:
    """The exact equilibrium of one support at any stack of its segment (see the module doc)."""

    def __init__(self, game: PushFoldGame, support: Support):
        self.support, self.level = support, game.level
        self.ok = support.square and len(support.sb_mixed) <= MAX_MIXED
        if not self.ok:
            return
        table = game.table or load_table()
        st = _structure(game, table, game.config.exact())  # the structure's integers (cached)
        _check_float_payoffs(game, st)
        counts = _counts(table, game.level)
        n = counts.pairs.shape[0]
        self.n, self.names = n, _names(game.level)
        sigma0 = 2 * st.den0 * DEALS * BOARDS_PER_PAIR
        KC, KS2 = _object_parts(st)
        sm, bm = list(support.sb_mixed), list(support.bb_mixed)
        ps, pb = sorted(support.sb_pure), sorted(support.bb_pure)
        k = len(sm)
        gf0 = int(2 * st.den0 * st.steal_fold)  # 2*den0*(g - f), an integer
        rows = np.array(counts.row_pairs, dtype=object)
        # e_i(S) = sigma0 r_i (g-f) + sum_{j in Pb} (KC + S KS2)_ij ;  h_j(S) = sum_{i in Ps} (KC + S KS2)_ij
        eA = BOARDS_PER_PAIR * gf0 * rows + _sum(st.KC, pb, axis=1)
        eB = _sum(st.KS, pb, axis=1) * (2 * st.den0)
        hA = _sum(st.KC, ps, axis=0)
        hB = _sum(st.KS, ps, axis=0) * (2 * st.den0)
        C = [[[int(KC[i, j]), int(KS2[i, j])] for j in bm] for i in sm]
        Q = _det(C)
        Ny = []
        for c in range(k):  # Cramer: column c of C replaced by -e_Ms
            Mc = [[list(row[j]) if j != c else [-int(eA[sm[r]]), -int(eB[sm[r]])] for j in range(k)]
                  for r, row in enumerate(C)]
            Ny.append(_det(Mc))
        CT = [[C[j][i] for j in range(k)] for i in range(k)]
        Nx = []
        for c in range(k):
            Mc = [[list(row[j]) if j != c else [-int(hA[bm[r]]), -int(hB[bm[r]])] for j in range(k)]
                  for r, row in enumerate(CT)]
            Nx.append(_det(Mc))
        d = k + 1  # the largest degree of any numerator below
        size = d + 1
        self.d, self.sm, self.bm, self.ps, self.pb = d, sm, bm, ps, pb
        self.Q = _pad(Q, size)
        self.Ny = [_pad(p, size) for p in Ny]
        self.Nx = [_pad(p, size) for p in Nx]
        # M_i = (eA_i + S eB_i) Q + sum_{j in Mb} (KC_ij + S KS2_ij) Ny_j, for every SB hand
        M = np.zeros((n, size), dtype=object)
        Cn = np.zeros((n, size), dtype=object)
        Rn = np.zeros((n, size), dtype=object)
        for t, q in enumerate(Q):
            M[:, t] += eA * q
            M[:, t + 1] += eB * q
            Cn[:, t] += hA * q
            Cn[:, t + 1] += hB * q
        rho = counts.pairs[ps, :].sum(axis=0).astype(object) if ps else np.zeros(n, dtype=object)
        for t, q in enumerate(Q):
            Rn[:, t] += rho * q
        for c, j in enumerate(bm):
            for t, v in enumerate(Ny[c]):
                M[:, t] += KC[:, j] * v
                M[:, t + 1] += KS2[:, j] * v
        for c, i in enumerate(sm):
            for t, v in enumerate(Nx[c]):
                Cn[:, t] += KC[i, :] * v
                Cn[:, t + 1] += KS2[i, :] * v
                Rn[:, t] += counts.pairs[i, :].astype(object) * v
        self.M, self.Cn, self.Rn = M, Cn, Rn
        # the value's numerator: sum_{i in Ps} M_i; BB's best-response numerator: sum_{j in Pb} Cn_j
        self.M_ps = M[ps, :].sum(axis=0) if ps else np.zeros(size, dtype=object)
        self.Cn_pb = Cn[pb, :].sum(axis=0) if pb else np.zeros(size, dtype=object)
        # (g - f) r.x = (g-f) (sum_{Ps} rp + sum_{Ms} rp_i x_i) / D
        rp_ps = sum(int(counts.row_pairs[i]) for i in ps)
        self.rx = [rp_ps * q for q in Q]
        for c, i in enumerate(sm):
            self.rx = _add(self.rx, [int(counts.row_pairs[i]) * v for v in Nx[c]])
        self.rx = _pad(self.rx, size)
        self.sigma0, self.fold, self.gf = sigma0, st.fold, st.steal_fold
        r_num, r_den = _r_parts(counts.r)
        self.r_num_list, self.r_den_list = r_num.tolist(), r_den.tolist()
        self.pure_sb = np.zeros(n, dtype=bool)
        self.pure_sb[ps] = True
        self.pure_bb = np.zeros(n, dtype=bool)
        self.pure_bb[pb] = True
        self.mixed_sb = np.zeros(n, dtype=bool)
        self.mixed_sb[sm] = True
        self.mixed_bb = np.zeros(n, dtype=bool)
        self.mixed_bb[bm] = True

    def solution(self, config: GameConfig, method: str = "path") -> Solution | None:
        """The certified solution at ``config`` (a stack of this segment's blinds and antes), or
        None when this support does not certify it non-degenerately (the caller then uses
        :func:`~sflp.certify.certify`)."""
        if not self.ok:
            return None
        t0 = time.perf_counter()
        S = to_fraction(config.stack)
        p, q = S.numerator, S.denominator
        d = self.d
        powers = np.array([p ** t * q ** (d - t) for t in range(d + 1)], dtype=object)
        Qh = int(np.dot(np.array(self.Q, dtype=object), powers))
        if Qh == 0:
            return None
        sign = 1 if Qh > 0 else -1
        # mixed frequencies strictly inside (0, 1)
        xs = [int(np.dot(poly, powers)) for poly in self.Nx]
        ys = [int(np.dot(poly, powers)) for poly in self.Ny]
        for v in (*xs, *ys):
            if not 0 < v * sign < Qh * sign:
                return None
        ms = (self.M @ powers) * sign  # SB margins times sigma0 * |Qh|
        cs = (self.Cn @ powers) * sign  # BB column terms times sigma0 * |Qh|
        m_sign, c_sign = _signs(ms), _signs(cs)
        # SB: pure hands shove strictly better, folded hands strictly worse, mixed exactly level
        if not ((m_sign[self.pure_sb] > 0).all() and (m_sign[~self.pure_sb & ~self.mixed_sb] < 0).all()
                and (m_sign[self.mixed_sb] == 0).all()):
            return None
        # BB calls where c < 0 (calling gains -c), folds where c > 0
        if not ((c_sign[self.pure_bb] < 0).all() and (c_sign[~self.pure_bb & ~self.mixed_bb] > 0).all()
                and (c_sign[self.mixed_bb] == 0).all()):
            return None
        den = self.sigma0 * Qh
        value = self.fold + Fraction(int(np.dot(self.M_ps, powers)), den)
        rx = Fraction(int(np.dot(self.rx, powers)), DEALS * Qh)
        bb_br = self.fold + self.gf * rx + Fraction(int(np.dot(self.Cn_pb, powers)), den)
        if bb_br != value:  # exploitability exactly 0: both best-response values equal the value
            return None
        n = self.n
        x_exact, y_exact = [_ZERO] * n, [_ZERO] * n
        xf, yf = np.zeros(n), np.zeros(n)
        for i in self.ps:
            x_exact[i], xf[i] = _ONE, 1.0
        for j in self.pb:
            y_exact[j], yf[j] = _ONE, 1.0
        for i, v in zip(self.sm, xs):
            x_exact[i], xf[i] = Fraction(v, Qh), v / Qh
        for j, v in zip(self.bm, ys):
            y_exact[j], yf[j] = Fraction(v, Qh), v / Qh
        # EV margins: m_i / r_i and -c_j / (P'x)_j, each the exact value rounded once (over a
        # positive denominator, so that an exact 0 is 0.0, never -0.0)
        q_abs = self.sigma0 * Qh * sign
        # (plain lists: Python's int arithmetic without numpy's per-element object dispatch)
        sb_ev = np.array([(m * rd) / (rn * q_abs) for m, rd, rn in zip(ms.tolist(), self.r_den_list, self.r_num_list)])
        reach = ((self.Rn @ powers) * sign).tolist()
        sigma0 = self.sigma0
        bb_ev = np.array([(-c * DEALS) / (r * sigma0) if r else math.nan for c, r in zip(cs.tolist(), reach)])
        for arr in (xf, yf, sb_ev, bb_ev):
            arr.setflags(write=False)
        names = self.names
        x_exact, y_exact = tuple(x_exact), tuple(y_exact)
        summary = {
            "sb_mixed": {names[i]: str(x_exact[i]) for i in sorted(self.sm)},
            "bb_mixed": {names[j]: str(y_exact[j]) for j in sorted(self.bm)},
            "value": str(value),
            "exploitability": "0",
            "support": "path segment",
            "supports_tried": 1,
            "free_variables": [],
            "seconds": time.perf_counter() - t0,
        }
        return Solution(
            config=config, level=self.level, sb_strategy=xf, bb_strategy=yf, value=float(value),
            exploitability=0.0, sb_ev=sb_ev, bb_ev=bb_ev, method=method, value_exact=value,
            sb_exact=x_exact, bb_exact=y_exact, certified=True, extra={"certificate": summary},
        )


def _signs(values: np.ndarray) -> np.ndarray:
    """Signs of an array of Python ints, as int8."""
    return ((values > 0).astype(np.int8) - (values < 0).astype(np.int8))
