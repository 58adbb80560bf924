r"""Exact certificates for the stacks of one segment of the equilibrium path, from polynomials.

On a segment of the exact path (:mod:`sflp.solving.thresholds`) the support is fixed.  In the integers
of the certificate (:mod:`sflp.solving.exact`: ``sigma0 * K(S) = KC + S * KS2`` with
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
until the end.  The certificate at the stack is the one of :func:`sflp.solving.certify.certify`: every
mixed frequency strictly inside (0, 1), every pure SB hand's margin of the right strict sign,
every mixed hand's exactly 0, the same for BB, and the two best-response values equal (so the
exploitability is exactly 0).  Any degenerate case -- ``Q = 0``, a frequency at 0 or 1, a pure
hand's margin exactly 0 (a stack on a breakpoint), a support that is not square -- returns None,
and the caller certifies that stack the general way.  Every published float is the exact value
rounded once, so the numbers are those :func:`~sflp.solving.certify.certify` publishes, bit for bit;
``tests/test_segment.py`` checks that on whole grids.

:meth:`SegmentCertificate.block` does the same for many stacks of the segment at once
(:class:`SegmentBlock`, arrays with a row per stack).  The identities that hold at every stack
(the mixed hands' margins are the zero polynomial; the two best-response values agree) are
checked once on the polynomials; the polynomials are evaluated in double-double arithmetic with a
proven error bound (:mod:`sflp.solving.ddeval`, compiled in :mod:`sflp.solving.ddkernel` for large sweeps), every
sign the certificate needs and every published float's rounding is proven from those bounds, and
a stack where a proof fails is certified by :meth:`SegmentCertificate.solution`.

Why one module: about 800 lines stay one piece because the per-stack certificate, the block's
proofs and :class:`SegmentBlock` (which reads the certificate's private plan and exact parts) all
work on the one set of integer polynomials a :class:`SegmentCertificate` forms.
"""

from __future__ import annotations

import functools
import math
import time
from fractions import Fraction
from itertools import permutations

import numpy as np

from sflp.core.cards import N_CLASSES, N_COMBOS
from sflp.core.equity import BOARDS_PER_PAIR, load_table
from sflp.core.game import DEALS, GameConfig, PushFoldGame, Solution, to_fraction
from sflp.solving.ddeval import (
    at_denominator,
    comp_horner,
    dd_add,
    dd_mul,
    proven_sign,
    ratios,
    scaled_coefficients,
    to_dd,
)
from sflp.solving.exact import _check_float_payoffs, _counts, _names, _r_parts, _structure
from sflp.solving.support import Support

MAX_MIXED = 5
"""Segments with more mixed hands per player than this are certified stack by stack
(the determinants are expanded term by term: ``k!`` products)."""

_ZERO, _ONE = Fraction(0), Fraction(1)

COMPILED_MIN_STACKS = 5_000
"""Sweeps of at least this many stacks evaluate their blocks with the compiled kernels
(:mod:`sflp.solving.ddkernel`, numba): importing numba and loading the compiled kernels costs
about 0.7 s once per process, and saves about 90 us a stack."""


COMPILED_ALLOWED = True
"""False in forked worker processes (numba's thread pool does not survive a fork)."""


def compiled_default(n_stacks: int) -> bool:
    """Whether a sweep of ``n_stacks`` should use the compiled kernels (see :data:`COMPILED_MIN_STACKS`)."""
    return COMPILED_ALLOWED and n_stacks >= COMPILED_MIN_STACKS


def evaluate(hi, lo, qc: int, x, num, den, wh, wl, scale, *, compiled: bool | None = None, cabs=None):
    """Every ratio of a block (:func:`sflp.solving.ddeval.ratios`) of the polynomials ``hi + lo`` (scaled,
    from :func:`~sflp.solving.ddeval.scaled_coefficients`) at the stacks ``x / qc``, and the proven
    signs of the polynomials: ``(values, ok, signs)``.  ``compiled`` picks the numba kernels
    (:mod:`sflp.solving.ddkernel`) over numpy; the results are the same bits either way.  ``cabs``: the
    coefficients' magnitudes for the error bound (default ``|hi|``, see
    :func:`sflp.solving.ddeval.comp_horner`)."""
    ch, cl, ca = at_denominator(hi, lo, qc, np.abs(hi) if cabs is None else cabs)
    x = np.asarray(x, dtype=np.float64)
    if compiled and COMPILED_ALLOWED:
        from sflp.solving import ddkernel

        H, L, B, sign = ddkernel.horner_block(ch, cl, ca, x)
        values, ok = ddkernel.ratio_block(H, L, B, num, den, wh, wl, scale)
        return values, ok, sign
    H, L, B = comp_horner(ch, cl, x, ca)
    values, ok = ratios(H, L, B, num, den, wh, wl, scale)
    return values, ok, proven_sign(H, B)


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


_OBJECT_PARTS: dict = {}


_GAMES: dict[int, tuple] = {}


def _game_structure(game: PushFoldGame, table):
    """:func:`sflp.solving.exact._structure` of ``game`` with its float payoffs checked, once per game
    object (a sweep makes every segment from one game); along the line of its payoffs."""
    hit = _GAMES.get(id(game))
    if hit is None or hit[0] is not game or hit[1] is not table:
        st = _structure(game, table, game.config.exact(), game.payoffs.along)
        _check_float_payoffs(game, st)
        if len(_GAMES) > 8:
            _GAMES.clear()
        hit = _GAMES[id(game)] = (game, table, st)
    return hit[2]


def _int64_parts(st, counts):
    """``KC``, ``KS2 = 2 den0 KS`` and the steal part of ``e_i`` as int64 arrays, when every sum a
    segment forms of them (over at most all hands, plus the steal part) stays below ``2^62``;
    else None (the segment then works in Python ints only).  Made once per structure."""
    key = ("int64", id(st), id(counts))
    hit = _OBJECT_PARTS.get(key)
    if hit is None or hit[0] is not st:
        n = counts.pairs.shape[0]
        steal, slope = _steal_part(st, counts), _steal_part(st, counts, slope=True)
        b_steal = max(abs(int(v)) for v in steal.tolist())
        b_slope = max(abs(int(v)) for v in slope.tolist())
        fits = (st.KC.dtype == np.int64 and st.KS.dtype == np.int64
                and b_steal + n * st.bound[0] < 2**62 and b_slope + n * st.ks2 * st.bound[1] < 2**62
                and n * int(counts.pairs.max()) < 2**62)
        parts = (st.KC, st.KS * st.ks2, steal.astype(np.int64), slope.astype(np.int64)) if fits else None
        hit = _OBJECT_PARTS[key] = (st, parts)
    return hit[1]


def _steal_part(st, counts, slope: bool = False) -> np.ndarray:
    """``sigma0 r_i (g - f)`` scaled as in ``e_i``: ``B * 2 den0 (g - f) * row_pairs_i`` (Python
    ints, made once per structure and level); with ``slope``, the same of its slope along the
    structure's line (zero along the stack)."""
    key = ("steal", id(st), id(counts), slope)
    hit = _OBJECT_PARTS.get(key)
    if hit is None or hit[0] is not st:
        gf0 = int(2 * st.den0 * (st.gf_slope if slope else st.steal_fold))  # 2*den0*(g - f), an integer
        hit = (st, BOARDS_PER_PAIR * gf0 * np.array(counts.row_pairs, dtype=object))
        _OBJECT_PARTS[key] = hit
    return hit[1]


def _object_parts(st) -> tuple[np.ndarray, np.ndarray]:
    """``KC`` and ``KS2 = 2*den0*KS`` of a structure as arrays of Python ints (made once)."""
    hit = _OBJECT_PARTS.get(id(st))
    if hit is None or hit[0] is not st:
        if len(_OBJECT_PARTS) > 8:
            _OBJECT_PARTS.clear()
        hit = (st, np.asarray(st.KC, dtype=object), np.asarray(st.KS, dtype=object) * st.ks2)
        _OBJECT_PARTS[id(st)] = hit
    return hit[1], hit[2]


SUM_LIMB_BITS = 52
"""The width of a limb of an object matrix in :func:`_sum`: a sum of up to 1,326 limbs
(``|v| < 2^52``) stays below ``2^63``, so each limb's sums are exact in int64."""
_SUM_LIMBS: dict = {}


def _matrix_limbs(K: np.ndarray) -> list[np.ndarray]:
    """An object matrix of integers as int64 matrices ``K_l``, ``K = sum_l K_l 2^(52 l)`` exactly,
    each entry ``|K_l| < 2^52`` with the sign of its entry (made once per matrix).

    >>> [m.tolist() for m in _matrix_limbs(np.array([[5, -(2**53 + 3)]], dtype=object))]
    [[[5, -3]], [[0, -2]]]
    """
    hit = _SUM_LIMBS.get(id(K))
    if hit is None or hit[0] is not K:
        if len(_SUM_LIMBS) > 8:
            _SUM_LIMBS.clear()
        size = np.abs(K)
        top = max(int(v).bit_length() for v in size.flat) if size.size else 0
        sign = np.where(K < 0, -1, 1)
        mask = (1 << SUM_LIMB_BITS) - 1
        limbs = [(((size >> (SUM_LIMB_BITS * l)) & mask) * sign).astype(np.int64)
                 for l in range(max(1, -(-top // SUM_LIMB_BITS)))]
        hit = (K, limbs)
        _SUM_LIMBS[id(K)] = hit
    return hit[1]


def _sum(K: np.ndarray, hands: list[int], axis: int) -> np.ndarray:
    """Row (``axis=1``: over columns ``hands``) or column sums of ``K`` as Python ints; in int64
    when ``K`` is int64 (its entries are bounded so that any row sum fits, see sflp.solving.exact).
    An object matrix (integers wider than int64: an ante with a long binary expansion) is summed
    limb by limb in int64 (:func:`_matrix_limbs`) and the limbs' sums put together exactly: the
    same integers as Python's sum of the entries, at the cost of a few int64 sums.

    >>> K = np.array([[2**70 + 1, -3], [5, 2**60]], dtype=object)
    >>> _sum(K, [0, 1], axis=1).tolist() == [2**70 - 2, 2**60 + 5]
    True
    """
    n = K.shape[0]
    if not hands:
        return np.zeros(n, dtype=object)
    if K.dtype != object:
        part = K[:, hands] if axis == 1 else K[hands, :]
        return part.sum(axis=axis).astype(object)
    total = np.zeros(n, dtype=object)
    for l, limb in enumerate(_matrix_limbs(K)):
        part = limb[:, hands] if axis == 1 else limb[hands, :]
        total = total + part.sum(axis=axis).astype(object) * (1 << (SUM_LIMB_BITS * l))
    return total


LIMB_BITS = 60
"""The width of a limb of a term's integer vector in :meth:`SegmentCertificate._dd_rows` (an int64
holds it, with room for the double-double split of :func:`numpy.float64`)."""
MAX_LIMBS = 4
"""The most limbs a term's vector is split into (the error bound of the block route covers four)."""


def _limbs(vec) -> list[np.ndarray] | None:
    """``vec`` (integers of any size) as at most :data:`MAX_LIMBS` int64 vectors ``v_l`` with
    ``vec = sum_l v_l 2^(LIMB_BITS l)`` exactly, each ``|v_l| < 2^LIMB_BITS`` (the sign of each
    entry on every limb); None when it needs more.

    >>> [v.tolist() for v in _limbs(np.array([3, -(2**61 + 5)], dtype=object))]
    [[3, -5], [0, -2]]
    """
    if isinstance(vec, np.ndarray) and vec.dtype == np.int64 and (np.abs(vec) < 2**LIMB_BITS).all():
        return [vec]
    ints = np.array([int(v) for v in vec], dtype=object)
    size = np.abs(ints)
    top = int(max(size, default=0)).bit_length()
    count = max(1, -(-top // LIMB_BITS))
    if count > MAX_LIMBS:
        return None
    mask = (1 << LIMB_BITS) - 1
    sign = np.where(ints < 0, -1, 1)
    return [(((size >> (LIMB_BITS * l)) & mask) * sign).astype(np.int64) for l in range(count)]


class SegmentCertificate:
    """The exact equilibrium of one support at any stack of its segment (see the module doc)."""

    # Long on purpose: the segment's exact polynomials, built once, each block commented with its term.
    def __init__(self, game: PushFoldGame, support: Support):
        self.support, self.level = support, game.level
        self.n = N_CLASSES if game.level == "class" else N_COMBOS
        self.ok = support.square and len(support.sb_mixed) <= MAX_MIXED
        if not self.ok:
            return
        table = game.table or load_table()
        st = _game_structure(game, table)  # the structure's integers (cached)
        self.line = st.along != "stack"  # a line's polynomials are in its axis: event rows only
        counts = _counts(table, game.level)
        n = counts.pairs.shape[0]
        self.n, self.names = n, _names(game.level)
        sigma0 = 2 * st.den0 * DEALS * BOARDS_PER_PAIR
        KC, KS2 = _object_parts(st)
        sm, bm = list(support.sb_mixed), list(support.bb_mixed)
        ps, pb = sorted(support.sb_pure), sorted(support.bb_pure)
        k = len(sm)
        # e_i(S) = sigma0 r_i (g-f) + sum_{j in Pb} (KC + S KS2)_ij ;  h_j(S) = sum_{i in Ps} (KC + S KS2)_ij
        parts64 = _int64_parts(st, counts)  # int64 KC, KS2 and steal part when every sum fits
        self._fits64 = parts64 is not None
        if self._fits64:
            KC64, KS64, steal64, slope64 = parts64
            eA = steal64 + KC64[:, pb].sum(axis=1)
            eB = KS64[:, pb].sum(axis=1) + slope64 if self.line else KS64[:, pb].sum(axis=1)
            hA = KC64[ps, :].sum(axis=0)
            hB = KS64[ps, :].sum(axis=0)
            rho = counts.pairs[ps, :].sum(axis=0)
            KCv, KSv, pairs_v = KC64, KS64, counts.pairs
        else:
            eA = _steal_part(st, counts) + _sum(st.KC, pb, axis=1)
            eB = _sum(st.KS, pb, axis=1) * st.ks2
            if self.line:
                eB = eB + _steal_part(st, counts, slope=True)
            hA = _sum(st.KC, ps, axis=0)
            hB = _sum(st.KS, ps, axis=0) * st.ks2
            rho = counts.pairs[ps, :].sum(axis=0).astype(object)
            KCv, KSv, pairs_v = KC, KS2, counts.pairs.astype(object)
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
        # Every SB hand's margin numerator M_i, BB hand's column term Cn_j and reach Rn_j is a sum
        # of terms (integer vector over the hands) x (polynomial shifted by 0 or 1 degree):
        #   M_i  = eA_i Q + eB_i S Q + sum_{c} (KC_{i,bm_c} + S KS2_{i,bm_c}) Ny_c
        #   Cn_j = hA_j Q + hB_j S Q + sum_{c} (KC_{sm_c,j} + S KS2_{sm_c,j}) Nx_c
        #   Rn_j = rho_j Q + sum_{c} pairs_{sm_c,j} Nx_c
        self._terms = {
            "M": [(eA, Q, 0), (eB, Q, 1)] + [t for c, j in enumerate(bm) for t in ((KCv[:, j], Ny[c], 0),
                                                                                  (KSv[:, j], Ny[c], 1))],
            "Cn": [(hA, Q, 0), (hB, Q, 1)] + [t for c, i in enumerate(sm) for t in ((KCv[i, :], Nx[c], 0),
                                                                                   (KSv[i, :], Nx[c], 1))],
            "Rn": [(rho, Q, 0)] + [(pairs_v[i, :], Nx[c], 0) for c, i in enumerate(sm)],
        }
        self._row_pairs = counts.row_pairs  # for rx (made on first use, as M_ps and Cn_pb)
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

    def _rows(self, kind: str, hands) -> np.ndarray:
        """Rows ``hands`` of ``M``, ``Cn`` or ``Rn`` (``kind``) as exact integers (object array)."""
        hands = list(hands)
        out = np.zeros((len(hands), self.d + 1), dtype=object)
        for vec, poly, shift in self._terms[kind]:
            part = vec[hands].astype(object)  # Python ints: the products are far beyond 64 bits
            for t, v in enumerate(poly):
                if v:
                    out[:, t + shift] += part * v
        return out

    def _row_sum(self, kind: str, hands) -> np.ndarray:
        """The sum of rows ``hands`` of ``M``, ``Cn`` or ``Rn``, exact: each term's vector summed
        over the hands first (Python ints), then times its polynomial."""
        out = np.zeros(self.d + 1, dtype=object)
        hands = list(hands)
        if not hands:
            return out
        for vec, poly, shift in self._terms[kind]:
            total = sum(vec[hands].tolist())
            for t, v in enumerate(poly):
                out[t + shift] += total * v
        return out

    @functools.cached_property
    def M_ps(self) -> np.ndarray:
        """The value's numerator ``sum_{i in Ps} M_i`` (exact; the thresholds' certificate needs none of
        these three, so they are made on first use)."""
        return self._row_sum("M", self.ps)

    @functools.cached_property
    def Cn_pb(self) -> np.ndarray:
        """BB's best-response numerator ``sum_{j in Pb} Cn_j`` (exact)."""
        return self._row_sum("Cn", self.pb)

    @functools.cached_property
    def rx(self) -> list[int]:
        """The numerator of ``r.x`` over ``D Q``: ``(g - f) r.x = (g-f) (sum_{Ps} rp + sum_{Ms} rp_i x_i) / D``."""
        rp = self._row_pairs
        rx = [sum(int(rp[i]) for i in self.ps) * q for q in self.Q]
        for c, i in enumerate(self.sm):
            rx = _add(rx, [int(rp[i]) * v for v in self.Nx[c]])
        return _pad(rx, self.d + 1)

    @functools.cached_property
    def M(self) -> np.ndarray:
        """SB's margin numerators, every hand (exact; made when a stack is certified one at a time)."""
        return self._rows("M", range(self.n))

    @functools.cached_property
    def Cn(self) -> np.ndarray:
        """BB's column-term numerators, every hand (exact)."""
        return self._rows("Cn", range(self.n))

    @functools.cached_property
    def Rn(self) -> np.ndarray:
        """BB's reach numerators, every hand (exact)."""
        return self._rows("Rn", range(self.n))

    def solution(self, config: GameConfig, method: str = "path") -> Solution | None:
        """The certified solution at ``config`` (a stack of this segment's blinds and antes), or
        None when this support does not certify it non-degenerately (the caller then uses
        :func:`~sflp.solving.certify.certify`)."""
        if getattr(self, "line", False):
            raise ValueError("a segment of a line other than the stack certifies its event polynomials only")
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
        return self._certified(config, (xf, yf, sb_ev, bb_ev), float(value), value, tuple(x_exact), tuple(y_exact),
                               method, t0)

    def _certified(self, config: GameConfig, arrays: tuple, value: float, value_exact: Fraction,
                   x_exact: tuple, y_exact: tuple, method: str, t0: float) -> Solution:
        """The Solution of a stack certified from this segment (``arrays``: SB and BB frequencies,
        SB and BB EV margins), with the certificate's summary."""
        names = self.names
        summary = {
            "sb_mixed": {names[i]: str(x_exact[i]) for i in sorted(self.sm)},
            "bb_mixed": {names[j]: str(y_exact[j]) for j in sorted(self.bm)},
            "value": str(value_exact),
            "exploitability": "0",
            "support": "path segment",
            "supports_tried": 1,
            "free_variables": [],
            "seconds": time.perf_counter() - t0,
        }
        xf, yf, sb_ev, bb_ev = arrays
        return Solution(
            config=config, level=self.level, sb_strategy=xf, bb_strategy=yf, value=value,
            exploitability=0.0, sb_ev=sb_ev, bb_ev=bb_ev, method=method, value_exact=value_exact,
            sb_exact=x_exact, bb_exact=y_exact, certified=True, extra={"certificate": summary},
        )

    # ------------------------------------------------------------ whole blocks of stacks

    # Long on purpose: the identities and the ratio plan in the order of the module doc.
    def _block_setup(self, compiled: bool = False) -> bool:
        """Once per segment: the polynomials a block evaluates (double-doubles) and the
        ratios it publishes, after checking the identities that then hold at every stack of the
        segment, so that a block only has signs to check.  False when an identity fails (every
        stack is then certified by :meth:`solution`)."""
        if "_plan" in self.__dict__:
            return self._plan is not None
        self._plan = None
        n, k, size = self.n, len(self.sm), self.d + 1
        # mixed hands are indifferent at every stack: their margins are the zero polynomial
        if self._rows("M", self.sm).any() or self._rows("Cn", self.bm).any():
            return False
        # the two best-response values agree at every stack (the identity behind ``bb_br == value``,
        # times sigma0 DEALS Q): DEALS M_ps = DEALS Cn_pb + (g - f) sigma0 rx
        gs = self.gf * self.sigma0
        if any(DEALS * int(a) - DEALS * int(b) - gs * c for a, b, c in zip(self.M_ps, self.Cn_pb, self.rx)):
            return False
        fold = Fraction(self.fold)
        # value = fold + M_ps / (sigma0 Q) = V / (den(fold) sigma0 Q)
        V = [fold.numerator * self.sigma0 * a + fold.denominator * int(b) for a, b in zip(self.Q, self.M_ps)]
        # the combo-weighted shove and call shares: (sum of the pure hands' weights) Q + sum w_i N_i
        weights = _weights(self.level, n)
        total = int(weights.sum())
        push = [int(weights[self.ps].sum()) * a for a in self.Q]
        call = [int(weights[self.pb].sum()) * a for a in self.Q]
        for c, i in enumerate(self.sm):
            push = _add(push, [int(weights[i]) * a for a in self.Nx[c]])
        for c, j in enumerate(self.bm):
            call = _add(call, [int(weights[j]) * a for a in self.Ny[c]])
        small = [self.Q, *self.Nx, *self.Ny, *([a - b for a, b in zip(self.Q, poly)] for poly in (*self.Nx, *self.Ny)),
                 V, _pad(push, size), _pad(call, size)]
        try:  # the few small rows scaled to about 1 (exact integers of any size)
            s_hi, s_lo, s_shift = scaled_coefficients(small)
        except ValueError:  # coefficients too far apart for floats: every stack the exact way
            return False
        big = self._dd_rows(compiled)  # the 3 x 169 rows unscaled, summed from their terms
        if big is None:
            return False
        hi, lo, cabs = (np.vstack([small_part, big_part]) for small_part, big_part in zip(
            (s_hi, s_lo, np.abs(s_hi)), big))
        shift = np.concatenate([s_shift, np.zeros(3 * n, dtype=np.int64)])
        iQ, iV = 0, 1 + 4 * k
        iM, iC, iR = iV + 3, iV + 3 + n, iV + 3 + 2 * n
        sb_rows = np.flatnonzero(~self.mixed_sb)  # the mixed hands' margins are exactly 0
        bb_cols = np.flatnonzero(~self.mixed_bb)
        w_sb = _sb_weights(self.r_num_list, self.r_den_list, self.sigma0)
        w_value, w_pct, w_bb = _constants(fold.denominator * self.sigma0, total, self.sigma0)

        def same(w: tuple[float, float], m: int) -> tuple[np.ndarray, np.ndarray]:
            return np.full(m, w[0]), np.full(m, w[1])

        parts = [  # (numerator rows, denominator rows, constants w as (hi, lo) arrays) of every published ratio
            (np.arange(1, 1 + 2 * k), [iQ] * (2 * k), same(to_dd(1), 2 * k)),  # mixed frequencies
            ([iV], [iQ], same(w_value, 1)),  # the value
            ([iV + 1, iV + 2], [iQ, iQ], same(w_pct, 2)),  # shove / call %
            (iM + sb_rows, [iQ] * len(sb_rows), (w_sb[0][sb_rows], w_sb[1][sb_rows])),  # SB margins
            (iC + bb_cols, iR + bb_cols, same(w_bb, len(bb_cols))),  # BB margins
        ]
        num, den, wh, wl = (np.concatenate([np.asarray(p[0], dtype=np.int64) for p in parts]),
                            np.concatenate([np.asarray(p[1], dtype=np.int64) for p in parts]),
                            np.concatenate([p[2][0] for p in parts]), np.concatenate([p[2][1] for p in parts]))
        # a ratio whose numerator is the zero polynomial is exactly 0 at every stack (the value of
        # the segment where both players play every hand): published as 0.0, no proof needed
        zero_rows = [r for r, row in enumerate(small) if not any(row)]
        self._plan = {
            "zero": np.isin(num, zero_rows),
            "hi": hi, "lo": lo, "cabs": cabs, "num": num, "den": den, "scale": shift[num] - shift[den],
            "wh": wh, "wl": wl,
            "iQ": iQ, "iV": iV, "iM": iM, "iC": iC, "iR": iR, "sb_rows": sb_rows, "bb_cols": bb_cols,
            "V": V, "value_den": fold.denominator * self.sigma0,
        }
        return True

    def _dd_rows(self, compiled: bool = False):
        """Every hand's rows of ``M``, ``Cn`` and ``Rn`` in double-double (shape ``(3 n, d + 1)``),
        summed from their terms (62-bit integer vectors times the Cramer polynomials'
        double-doubles), with the sums of the terms' magnitudes: ``(hi, lo, magnitude)``, or
        None when a vector does not fit (the exact route then does every stack).

        Each product errs by at most ``8u^2`` of its size and each addition by ``3u^2`` of the
        magnitudes summed, so a coefficient errs by at most ``(8 + 3m) u^2`` times its terms'
        magnitude ``T`` (numpy sums pairwise, the compiled kernel :func:`sflp.solving.ddkernel.dd_rows`
        in order), with ``m <= L (2 + 2k)`` terms: a vector wider than 62 bits (the integers of a
        structure whose blinds or antes have long binary expansions, an ante of 0.25/17) is split
        exactly into ``L <= 4`` limbs of :data:`LIMB_BITS` bits, ``v = sum_l v_l 2^(60 l)``, each limb
        its own term with the polynomial times ``2^(60 l)`` (exact in double-doubles);
        :func:`sflp.solving.ddeval.comp_horner` bounds its error by ``(8 (d+1)^2 + 8) u^2`` times
        ``sum (|c_t| + T_t) x^t``, which covers both (``d = k + 1``: ``8 + 12 (2 + 2k) <= 8 (k + 2)^2 + 8``
        for every ``k >= 0``)."""
        n, size = self.n, self.d + 1
        terms = {}
        for kind in ("M", "Cn", "Rn"):
            terms[kind] = []
            for vec, poly, shift in self._terms[kind]:
                limbs = _limbs(vec)
                if limbs is None:
                    return None
                terms[kind] += [(limb, [int(c) << (LIMB_BITS * l) for c in poly], shift)
                                for l, limb in enumerate(limbs)]
        m = max(len(t) for t in terms.values())
        a = np.zeros((3, m, n), dtype=np.int64)
        polys = np.zeros((3, m, size), dtype=object)
        for g, kind in enumerate(("M", "Cn", "Rn")):
            for r, (vec, poly, shift) in enumerate(terms[kind]):
                a[g, r] = vec
                polys[g, r, shift:shift + len(poly)] = poly
        if any(abs(int(v)).bit_length() > 600 for v in polys.ravel()):
            return None
        a_hi = a.astype(np.float64)
        a_lo = (a - a_hi.astype(np.int64)).astype(np.float64)  # exact: the rest of a 62-bit int
        pairs = [to_dd(int(v)) for v in polys.ravel()]
        p_hi = np.array([h for h, _ in pairs]).reshape(3, m, 1, size)
        p_lo = np.array([lo for _, lo in pairs]).reshape(3, m, 1, size)
        if compiled and COMPILED_ALLOWED:
            from sflp.solving import ddkernel

            hi, lo, mag = np.empty((3, n, size)), np.empty((3, n, size)), np.empty((3, n, size))
            ddkernel.dd_rows(a_hi, a_lo, p_hi[:, :, 0, :].copy(), p_lo[:, :, 0, :].copy(), hi, lo, mag)
            hi, lo, mag = (v.reshape(3 * n, size) for v in (hi, lo, mag))
            return hi, lo, np.abs(hi) + mag * 1.01
        hi, lo = dd_mul(a_hi[..., None], a_lo[..., None], p_hi, p_lo)  # (3, terms, hands, size)
        mag = (np.abs(a_hi)[..., None] * np.abs(p_hi)).sum(axis=1)
        while hi.shape[1] > 1:  # pairwise sums: ceil(log2 m) levels of additions
            half = hi.shape[1] // 2
            sh, sl = dd_add(hi[:, :half], lo[:, :half], hi[:, half:2 * half], lo[:, half:2 * half])
            hi = np.concatenate([sh, hi[:, 2 * half:]], axis=1)
            lo = np.concatenate([sl, lo[:, 2 * half:]], axis=1)
        hi, lo, mag = (v.reshape(3 * n, size) for v in (hi[:, 0], lo[:, 0], mag))
        return hi, lo, np.abs(hi) + mag * 1.01

    def block(self, stacks: list[float], config: GameConfig, *, compiled: bool | None = None) -> SegmentBlock:
        """The certified solutions of a block of stacks of this segment as arrays
        (:class:`SegmentBlock`), evaluated at once: every published float is a double-double
        ratio whose rounding is proven (:mod:`sflp.solving.ddeval`) and every sign the certificate needs
        is proven from the same numbers.  A stack where a proof fails, and every stack of a
        segment whose identities do not hold, is certified by :meth:`solution` (exact integers),
        and one that this support does not certify is marked (``missing``).  ``compiled``: the
        numba kernels (:mod:`sflp.solving.ddkernel`) rather than numpy, as in :func:`evaluate`."""
        if getattr(self, "line", False):
            raise ValueError("a segment of a line other than the stack certifies its event polynomials only")
        blk = SegmentBlock(self, stacks, config)
        if not self.ok:
            blk.missing[:] = True
            return blk
        d, N = self.d, len(stacks)
        fr = blk.fractions
        good = np.zeros(N, dtype=bool)
        if self._block_setup(bool(compiled)):
            plan = self._plan
            qc = math.lcm(*{q for _, q in fr})  # one denominator: H(p qc/q, qc) = (qc/q)^d H(p, q)
            x = np.array([float(p * (qc // q)) for p, q in fr])
            if float(qc) ** d < 2.0**53 and x.max() < 2.0**53:  # exact floats (else stack by stack)
                values, ok, sign = evaluate(plan["hi"], plan["lo"], qc, x, plan["num"], plan["den"], plan["wh"],
                                            plan["wl"], plan["scale"], compiled=compiled, cabs=plan["cabs"])
                values[plan["zero"]], ok[plan["zero"]] = 0.0, True
                good = self._proven(plan, sign) & ok.all(axis=0)
                blk.fill(values, good)
        for s in np.flatnonzero(~good).tolist():
            solution = self.solution(config.with_stack(stacks[s]))
            if solution is None:
                blk.missing[s] = True
            else:
                blk.put(s, solution)
        return blk

    def _proven(self, plan: dict, sign: np.ndarray) -> np.ndarray:
        """The stacks whose certificate signs are all proven: Q != 0, every mixed frequency
        strictly inside (0, 1), SB's pure hands shove strictly better and folded ones strictly
        worse, the same for BB's calls, and every mixed BB hand facing shoves."""
        k, iQ, iM, iC, iR = len(self.sm), plan["iQ"], plan["iM"], plan["iC"], plan["iR"]
        n = self.n
        sQ = sign[iQ]
        good = (sQ != 0) & (sign[1:1 + 4 * k] == sQ).all(axis=0)
        ms = sign[iM:iM + n] * sQ
        cs = sign[iC:iC + n] * sQ
        folded_sb = ~self.pure_sb & ~self.mixed_sb
        folded_bb = ~self.pure_bb & ~self.mixed_bb
        good &= (ms[self.pure_sb] > 0).all(axis=0) & (ms[folded_sb] < 0).all(axis=0)
        good &= (cs[self.pure_bb] < 0).all(axis=0) & (cs[folded_bb] > 0).all(axis=0)
        good &= (sign[iR:iR + n][self.mixed_bb] * sQ > 0).all(axis=0)
        return good

    def exact_parts(self, P: int, Qd: int) -> tuple[Fraction, tuple, tuple]:
        """The exact value and strategies at the stack ``P / Qd`` (whose block was proven)."""
        plan, d, n = self._plan, self.d, self.n
        powers = [P ** t * Qd ** (d - t) for t in range(d + 1)]
        Qh = sum(c * w for c, w in zip(self.Q, powers))
        x, y = [_ZERO] * n, [_ZERO] * n
        for i in self.ps:
            x[i] = _ONE
        for j in self.pb:
            y[j] = _ONE
        for c, i in enumerate(self.sm):
            x[i] = Fraction(sum(a * w for a, w in zip(self.Nx[c], powers)), Qh)
        for c, j in enumerate(self.bm):
            y[j] = Fraction(sum(a * w for a, w in zip(self.Ny[c], powers)), Qh)
        value = Fraction(sum(a * w for a, w in zip(plan["V"], powers)), plan["value_den"] * Qh)
        return value, tuple(x), tuple(y)


class SegmentBlock:
    """The certified solutions of a block of stacks of one segment, as arrays (row ``s`` is
    ``stacks[s]``, ``configs[s]``): ``sb``, ``bb`` (frequencies), ``sb_ev``, ``bb_ev`` (EV
    margins), ``value``, ``push_pct``, ``call_pct``; ``missing[s]`` where the segment's support
    does not certify the stack (the caller solves it another way and :meth:`put` s it).  Every
    float is the exact value rounded once; :meth:`solutions` gives Solution objects."""

    def __init__(self, segment: SegmentCertificate, stacks: list[float], config: GameConfig):
        N, n = len(stacks), segment.n
        self.segment, self.config, self.stacks = segment, config, list(stacks)
        self.fractions = [_decimal(s) for s in self.stacks]
        self.sb, self.bb = np.zeros((N, n)), np.zeros((N, n))
        self.sb_ev, self.bb_ev = np.zeros((N, n)), np.zeros((N, n))
        self.value, self.push_pct, self.call_pct = np.zeros(N), np.zeros(N), np.zeros(N)
        self.missing = np.zeros(N, dtype=bool)
        self.general = np.zeros(N, dtype=bool)
        """The stacks solved the general way (:meth:`put` by the caller where ``missing``): the
        segment's support does not give their numbers, so a chart set writes their EV margins out
        (``margins_stacks.csv``) instead of reading them off the support."""
        self._solutions: dict[int, Solution] = {}

    def __len__(self) -> int:
        return len(self.stacks)

    def fill(self, values: np.ndarray, good: np.ndarray) -> None:
        """The rows of the stacks ``good`` from a block's proven ratios (``values``, laid out as
        :meth:`SegmentCertificate._block_setup` plans them)."""
        seg, plan = self.segment, self.segment._plan
        k = len(seg.sm)
        cols = np.flatnonzero(good)
        whole = len(cols) == len(good)  # the usual case: plain slices, no fancy-index copies

        def put(arr: np.ndarray, hands, vals) -> None:
            if whole:
                arr[:, hands] = vals
            else:
                arr[np.ix_(cols, np.asarray(hands, dtype=np.int64))] = vals

        put(self.sb, seg.ps, 1.0)
        put(self.bb, seg.pb, 1.0)
        v = values if whole else values[:, cols]
        if k:
            put(self.sb, seg.sm, v[0:k].T)
            put(self.bb, seg.bm, v[k:2 * k].T)
        r = 2 * k
        self.value[cols] = v[r]
        self.push_pct[cols] = v[r + 1]
        self.call_pct[cols] = v[r + 2]
        r += 3
        ns = len(plan["sb_rows"])
        put(self.sb_ev, plan["sb_rows"], v[r:r + ns].T)
        put(self.bb_ev, plan["bb_cols"], v[r + ns:].T)

    def put(self, s: int, solution: Solution) -> None:
        """Row ``s`` from a solution made another way (certified exactly stack by stack)."""
        self.sb[s], self.bb[s] = solution.sb_strategy, solution.bb_strategy
        self.sb_ev[s], self.bb_ev[s] = solution.sb_ev, solution.bb_ev
        self.value[s], self.push_pct[s], self.call_pct[s] = solution.value, solution.push_pct, solution.call_pct
        self._solutions[s] = solution
        self.missing[s] = False

    @property
    def level(self) -> str:
        return self.segment.level

    def made(self, s: int) -> Solution | None:
        """The Solution of row ``s`` when it was made another way (:meth:`put`), else None."""
        return self._solutions.get(s)

    def exact_value(self, s: int) -> Fraction:
        """The exact value at row ``s`` (SB's EV in bb, a Fraction)."""
        made = self._solutions.get(s)
        if made is not None:
            return made.value_exact
        return self.segment.exact_parts(*self.fractions[s])[0]

    def rows(self) -> np.ndarray:
        """Every row's SB frequency, BB frequency, SB EV margin and BB EV margin: shape
        ``(stacks, 4, hands)`` (``-0.0`` made ``0.0``, as in the report files)."""
        return np.stack([self.sb, self.bb, self.sb_ev, self.bb_ev], axis=1) + 0.0

    def solutions(self, method: str = "path") -> list:
        """A :class:`~sflp.core.game.Solution` per stack (None where ``missing``), as
        :meth:`SegmentCertificate.solution` makes them."""
        out: list = []
        seg = self.segment
        for arr in (self.sb, self.bb, self.sb_ev, self.bb_ev):
            arr.setflags(write=False)
        for s, stack in enumerate(self.stacks):
            if self.missing[s]:
                out.append(None)
                continue
            known = self._solutions.get(s)
            if known is not None:
                out.append(known)
                continue
            t0 = time.perf_counter()
            value_exact, x_exact, y_exact = seg.exact_parts(*self.fractions[s])
            arrays = (self.sb[s], self.bb[s], self.sb_ev[s], self.bb_ev[s])
            out.append(seg._certified(self.config.with_stack(stack), arrays, float(self.value[s]), value_exact,
                                      x_exact, y_exact, method, t0))
        return out


def _decimal(stack) -> tuple[int, int]:
    """``(p, q)`` with ``p / q`` the exact stack (:func:`sflp.core.game.to_fraction`: a float's shortest
    decimal), not reduced, made without a regex or a Fraction for plain decimals."""
    if isinstance(stack, float) and stack > 0:
        text = repr(stack)
        if "e" not in text and "n" not in text:
            whole, _, frac = text.partition(".")
            return int(whole + frac), 10 ** len(frac)
    f = to_fraction(stack)
    return f.numerator, f.denominator


@functools.lru_cache(maxsize=16)
def _constants(value_den: int, total: int, sigma0: int) -> tuple:
    """The double-double constants of a structure's value, shares and BB margins."""
    return to_dd(Fraction(1, value_den)), to_dd(Fraction(100, total)), to_dd(Fraction(-DEALS, sigma0))


def _weights(level: str, n: int) -> np.ndarray:
    """The weight of each hand in the shove and call shares: combos per class, or 1 per combo."""
    if level == "class":
        from sflp.core.cards import CLASS_SIZES

        return CLASS_SIZES
    return np.ones(n, dtype=np.int64)


_WEIGHTS: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}


def _sb_weights(r_num: list[int], r_den: list[int], sigma0: int) -> tuple[np.ndarray, np.ndarray]:
    """``r_den_i / (r_num_i sigma0)`` per hand as double-doubles (the constant of SB's EV margin),
    made once per structure: ``hi`` is the ratio correctly rounded, ``lo`` the rest rounded."""
    key = (sigma0, tuple(r_num), tuple(r_den))
    hit = _WEIGHTS.get(key)
    if hit is None:
        hi, lo = np.zeros(len(r_num)), np.zeros(len(r_num))
        for i, (rn, rd) in enumerate(zip(r_num, r_den)):
            den = rn * sigma0
            hi[i] = rd / den
            a, b = hi[i].as_integer_ratio()
            lo[i] = (rd * b - a * den) / (den * b)
        if len(_WEIGHTS) > 8:
            _WEIGHTS.clear()
        hit = _WEIGHTS[key] = (hi, lo)
    return hit


def _signs(values: np.ndarray) -> np.ndarray:
    """Signs of an array of Python ints, as int8."""
    return ((values > 0).astype(np.int8) - (values < 0).astype(np.int8))
