r"""Support algebra: which hands are mixed, and the indifference equations that fix their frequencies.

This module is the one home of the support algebra.  The float polish of an LP answer
(:func:`solve_on_support`, used by :mod:`sflp.solving.solver`), the exact path follower
(:mod:`sflp.solving.piece`, :mod:`sflp.solving.follower`) and the exact rational certificate
(:mod:`sflp.solving.certify`) all build their equations with :func:`indifference_system`; they
differ only in the arithmetic of the solve step (float least squares, float LU / Cramer's rule,
exact Gauss-Jordan elimination with :func:`solve_exact`).  It sits above :mod:`sflp.core.game`
and below ``lp`` / ``certify`` / ``solver`` / ``piece`` / ``follower``, and uses only numpy (and
:mod:`fractions` for the exact solve).

Supports
--------
With the notation of :mod:`sflp.core.game` (``V(x, y) = f + (g-f) r.x + x' K y``), a *support* says for
each player which hands are played always (``Ps`` for SB, ``Pb`` for BB), never, or at a mixed
frequency (``Ms``, ``Mb``).  :meth:`Support.of` reads it off float strategies: ``s >= 1 - tol`` is
pure, ``s <= tol`` is never, the rest is mixed.

The indifference equations
--------------------------
A hand is mixed at an equilibrium only if its player is indifferent between its two actions:

* SB's mixed hand ``i`` in ``Ms``: its shove margin ``m[i] = r[i](g-f) + (K y)[i]`` is zero, i.e.

      sum_{j in Mb} K[i,j] y[j]  =  -( r[i](g-f) + sum_{j in Pb} K[i,j] )          (SB rows)

  -- ``|Ms|`` equations in BB's mixed frequencies ``y[Mb]``;

* BB's mixed hand ``j`` in ``Mb``: its call margin ``-(K' x)[j]`` is zero, i.e.

      sum_{i in Ms} K[i,j] x[i]  =  -( sum_{i in Ps} K[i,j] )                       (BB rows)

  -- ``|Mb|`` equations in SB's mixed frequencies ``x[Ms]``.

With ``C = K[Ms, Mb]`` the two systems are ``C y_M = d`` and ``C' x_M = b``: the same matrix,
transposed, so a support is regular (one solution) exactly when ``C`` is square and
``det C != 0``.  :func:`indifference_system` builds ``C``, ``d`` and ``b`` from ``K``, the vector
``base = r (g-f)`` and a support, for any number type: float matrices, or the integer matrices
``scale * K`` and ``scale * r (g-f)`` of :mod:`sflp.solving.exact` (the equations are homogeneous in
``(K, base)``, so scaling both leaves the solution unchanged).  Because ``(C, d, b)`` is linear in
``(K, base)``, the system at ``K0 + S*K1`` is the system of ``(K0, base)`` plus ``S`` times the
system of ``(K1, 0)``: the path follower's event polynomials in the stack ``S`` come from that.

Example (checked by hand in ``tests/test_support.py``): SB always shoves hand 0 and mixes hand 1,
BB always calls with hand 0 and mixes hand 1.  SB's row is ``K[1,1] y1 = -(base[1] + K[1,0])``,
BB's row ``K[1,1] x1 = -K[0,1]``:

>>> K = np.array([[0.0, 2.0], [1.0, -4.0]])
>>> system = indifference_system(K, np.array([0.0, 1.0]), Support(frozenset({0}), (1,), frozenset({0}), (1,)))
>>> system.C.tolist(), system.d.tolist(), system.b.tolist()
([[-4.0]], [-2.0], [-2.0])
>>> [v.tolist() for v in system.solve()]   # x1 = -2 / -4, y1 = -2 / -4
[[0.5], [0.5]]

The tolerance ladder
--------------------
:data:`SUPPORT_TOLERANCES` is the one list of tolerances with which supports are read off float
strategies; :data:`POLISH_TOLERANCES` and :data:`PATH_TOLERANCES` are derived from it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    from sflp.core.game import PushFoldGame

# ------------------------------------------------------------------ the tolerance ladder

DEFAULT_TOLERANCE = 1e-7
"""The first rung: an LP answer (HiGHS, ~1e-9 accurate) puts pure hands within 1e-7 of 0 or 1."""

SUPPORT_TOLERANCES = (1e-7, 1e-9, 1e-5, 1e-11, 1e-4, 1e-3)
"""The tolerance ladder: ``tol`` with which :meth:`Support.of` reads a support off float
strategies (``s >= 1 - tol`` pure, ``s <= tol`` never, the rest mixed), in the order the exact
certificate (:mod:`sflp.solving.certify`) tries them.  Each rung is there for a reason:

* ``1e-7`` -- the default (:data:`DEFAULT_TOLERANCE`): two orders above the LP's noise, far
  below any genuinely mixed frequency at class level;
* ``1e-9`` -- a genuinely mixed hand played at a frequency between ``1e-9`` and ``1e-7`` (it
  happens just past a breakpoint, where a frequency leaves 0 or 1) is read as mixed, not pure;
* ``1e-5`` -- a noisier answer (for instance a float solution handed in by a user) whose pure
  hands sit up to ``1e-5`` away from 0 or 1;
* ``1e-11`` -- a mixed frequency even nearer 0 or 1 (combo level, near a breakpoint);
* ``1e-4``, ``1e-3`` -- last resorts for approximate strategies; a support read this loosely is
  still only accepted if its equations and checks pass.

The float callers try a sub-ladder in the order :func:`outward` gives (by distance in decades from
the default, looser first): see :data:`POLISH_TOLERANCES` and :data:`PATH_TOLERANCES`.
"""


def outward(tolerances) -> tuple[float, ...]:
    """``tolerances`` ordered by their distance in decades from :data:`DEFAULT_TOLERANCE`,
    the looser one first at equal distance.

    >>> outward((1e-9, 1e-7, 1e-5))
    (1e-07, 1e-05, 1e-09)
    """
    def key(tol: float) -> tuple[int, float]:
        return (round(abs(math.log10(tol / DEFAULT_TOLERANCE))), -tol)

    return tuple(sorted(tolerances, key=key))


POLISH_TOLERANCES = outward(SUPPORT_TOLERANCES[:3])
"""``(1e-7, 1e-5, 1e-9)``: the first three rungs, tried by the float polish of an LP answer
(:mod:`sflp.solving.solver`; above ``LP_STACK_LIMIT`` also the support carried to a larger stack).  The
polish solves all three and keeps the best by exploitability, so the default and one rung two
decades either side are enough there; the certificate, which must not miss a support, walks the
whole ladder itself."""

PATH_TOLERANCES = outward(
    tuple(t for t in SUPPORT_TOLERANCES if 1e-9 <= t <= 1e-4) + (1e-6, 1e-8)
)
"""``(1e-7, 1e-6, 1e-8, 1e-5, 1e-9, 1e-4)``: the ladder's rungs from ``1e-9`` to ``1e-4``, plus one
rung one decade either side of the default.  The path follower (:mod:`sflp.solving.follower`) takes the
*first* support whose event rows hold at its probe stack, and probes land near breakpoints, where
a frequency is just leaving 0 or 1: stepping one decade at a time picks the support nearest the
default reading before a two-decade step can skip over it."""


# ------------------------------------------------------------------ supports


@dataclass(frozen=True)
class Support:
    """Which hands each player plays always (``*_pure``) and which at a mixed frequency.

    Hands in neither set are never played.  ``*_mixed`` are sorted tuples: they index the rows
    and columns of the indifference system in that order.

    >>> Support.of(np.array([1.0, 0.3, 0.0]), np.array([0.5, 1.0, 1e-9]))
    Support(sb_pure=frozenset({0}), sb_mixed=(1,), bb_pure=frozenset({1}), bb_mixed=(0,))
    """

    sb_pure: frozenset[int]
    sb_mixed: tuple[int, ...]
    bb_pure: frozenset[int]
    bb_mixed: tuple[int, ...]

    @classmethod
    def of(cls, sb: np.ndarray, bb: np.ndarray, tol: float = DEFAULT_TOLERANCE) -> Support:
        """The support of float strategies, read with ``tol`` (see :data:`SUPPORT_TOLERANCES`)."""

        def split(s: np.ndarray) -> tuple[frozenset[int], tuple[int, ...]]:
            pure = frozenset(np.flatnonzero(s >= 1 - tol).tolist())  # .tolist(): Python ints
            mixed = tuple(np.flatnonzero((s > tol) & (s < 1 - tol)).tolist())
            return pure, mixed

        sp, sm = split(np.asarray(sb))
        bp, bm = split(np.asarray(bb))
        return cls(sp, sm, bp, bm)

    @property
    def square(self) -> bool:
        """As many mixed hands for SB as for BB (else the systems are not square)."""
        return len(self.sb_mixed) == len(self.bb_mixed)

    def pure_vectors(self, n: int, dtype=np.float64) -> tuple[np.ndarray, np.ndarray]:
        """``(x, y)``: 1 on each player's pure hands, 0 elsewhere (mixed hands included)."""
        x, y = np.zeros(n, dtype=dtype), np.zeros(n, dtype=dtype)
        x[list(self.sb_pure)] = 1
        y[list(self.bb_pure)] = 1
        return x, y

    def with_hand(self, player: str, hand: int, value: float) -> Support:
        """This support with ``player``'s ``hand`` made pure ``value`` (0 or 1), or mixed when
        ``value < 0``.

        >>> Support(frozenset({0}), (1,), frozenset(), (2,)).with_hand("sb", 0, -1)
        Support(sb_pure=frozenset(), sb_mixed=(0, 1), bb_pure=frozenset(), bb_mixed=(2,))
        """
        pure = set(self.sb_pure if player == "sb" else self.bb_pure)
        mixed = set(self.sb_mixed if player == "sb" else self.bb_mixed)
        pure.discard(hand)
        mixed.discard(hand)
        if value < 0:
            mixed.add(hand)
        elif value > 0.5:
            pure.add(hand)
        if player == "sb":
            return Support(frozenset(pure), tuple(sorted(mixed)), self.bb_pure, self.bb_mixed)
        return Support(self.sb_pure, self.sb_mixed, frozenset(pure), tuple(sorted(mixed)))


# ------------------------------------------------------------------ the indifference system


@dataclass(frozen=True, eq=False)
class IndifferenceSystem:
    """The indifference equations of one support (see the module docstring).

    SB's rows are ``C y_M = d`` (one per SB mixed hand, unknowns BB's mixed
    frequencies in ``support.bb_mixed`` order); BB's rows are ``C' x_M = b`` (one per BB mixed
    hand, unknowns SB's mixed frequencies).  ``x_pure`` / ``y_pure`` are the pure parts of the
    strategies (1 on pure hands).  Entries have the number type of the ``K`` it was built from.
    """

    support: Support
    x_pure: np.ndarray
    y_pure: np.ndarray
    C: np.ndarray
    d: np.ndarray
    b: np.ndarray

    def solve(self) -> tuple[np.ndarray, np.ndarray]:
        """``(x_M, y_M)`` by float LU (``numpy.linalg.solve``); raises ``LinAlgError`` if singular."""
        return np.linalg.solve(self.C.T, self.b), np.linalg.solve(self.C, self.d)

    def strategies(self, x_mixed, y_mixed) -> tuple[np.ndarray, np.ndarray]:
        """Whole strategies: the pure parts with the mixed frequencies filled in (not clipped)."""
        x, y = self.x_pure.copy(), self.y_pure.copy()
        x[list(self.support.sb_mixed)] = x_mixed
        y[list(self.support.bb_mixed)] = y_mixed
        return x, y


def indifference_system(
    K: np.ndarray, base: np.ndarray, support: Support, pure_products: tuple | None = None
) -> IndifferenceSystem:
    """The indifference equations of ``support`` in the game ``(K, base = r (g-f))``.

    ``K`` may be float, int64 or an object array of Python ints (then ``base`` too): the system is
    built in that number type.  SB rows ``C y_M = d`` with ``d = -(base + K y_pure)[Ms]``, BB rows
    ``C' x_M = b`` with ``b = -(K' x_pure)[Mb]``.  A caller that already has the pure parts' products
    for every hand, ``(base + K y_pure, K' x_pure)`` (the path follower needs them for the pure
    hands' margins), passes them as ``pure_products`` and the right-hand sides are read off them;
    otherwise only the rows and columns of the mixed hands are multiplied out.

    >>> K = np.array([[2.0, -1.0], [-3.0, 1.0]])
    >>> s = indifference_system(K, np.array([0.5, 0.5]), Support(frozenset({1}), (0,), frozenset({1}), (0,)))
    >>> s.C.tolist(), s.d.tolist(), s.b.tolist()   # d = -(0.5 + K[0,1]), b = -K[1,0]
    ([[2.0]], [0.5], [3.0])
    """
    n = K.shape[0]
    dtype = K.dtype if K.dtype == object else (np.int64 if np.issubdtype(K.dtype, np.integer) else np.float64)
    x_pure, y_pure = support.pure_vectors(n, dtype)
    sm, bm = list(support.sb_mixed), list(support.bb_mixed)
    C = K[np.ix_(sm, bm)]
    if pure_products is None:
        d = -(base[sm] + K[sm, :] @ y_pure)  # SB's mixed hands: shove margin 0
        b = -(K[:, bm].T @ x_pure)  # BB's mixed hands: call margin 0
    else:
        sb_margin, bb_column = pure_products
        d, b = -sb_margin[sm], -bb_column[bm]
    return IndifferenceSystem(support, x_pure, y_pure, C, d, b)


def candidate_systems(
    K: np.ndarray, base: np.ndarray, support: Support, sb_add=None, bb_add=None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The indifference systems of many supports at once (float, for the path follower's pivots).

    Candidate ``c`` is ``support`` with SB hand ``sb_add[c]`` and / or BB hand ``bb_add[c]`` made
    mixed; its system is :func:`indifference_system` of that support, built here for all
    candidates in one batch: the added hand's row / column is appended to ``C`` and its pure
    contribution (if it was pure) removed from the right-hand sides.  Returns ``(C, d, b)`` of
    shapes ``(N, k, k)``, ``(N, k)``, ``(N, k)``; raises ValueError if the systems are not square.
    """
    n = K.shape[0]
    N = len(sb_add) if sb_add is not None else len(bb_add)
    sm, bm = np.array(support.sb_mixed, dtype=int), np.array(support.bb_mixed, dtype=int)
    xp, yp = support.pure_vectors(n)
    rows = np.broadcast_to(sm, (N, len(sm)))
    cols = np.broadcast_to(bm, (N, len(bm)))
    if sb_add is not None:
        rows = np.concatenate([rows, sb_add[:, None]], axis=1)
    if bb_add is not None:
        cols = np.concatenate([cols, bb_add[:, None]], axis=1)
    if rows.shape[1] != cols.shape[1]:
        raise ValueError("non-square candidate supports")
    C = K[rows[:, :, None], cols[:, None, :]]
    u, v = K.T @ xp, K @ yp
    b = -u[cols]
    if sb_add is not None:  # the added SB hand no longer counts in SB's pure part
        b = b + xp[sb_add][:, None] * K[sb_add[:, None], cols]
    d = -(base + v)[rows]
    if bb_add is not None:  # the added BB hand no longer counts in BB's pure part
        d = d + yp[bb_add][:, None] * K[rows, bb_add[:, None]]
    return C, d, b


_CLOSED_FORM = True
"""Solve the 1 x 1 and 2 x 2 candidate systems of :func:`solve_candidates` in closed form (a
division; Cramer's rule), and write out a path piece's 2 x 2 determinants
(:meth:`sflp.solving.piece._Piece._dets`), not by ``numpy.linalg`` (a private switch: the
benchmark times the LAPACK route, the one before issue 53, against it in the same process)."""


def solve_candidates(C: np.ndarray, d: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(xs, ys)`` of shape ``(N, k)`` for a batch of systems (NaN where one is singular).

    ``k <= 2`` in closed form (:data:`_CLOSED_FORM`): ``y = d / c`` for ``k = 1``; Cramer's rule
    for ``k = 2``, ``C' x = b`` with the transposed minors.  Equal to the LU solution up to
    rounding (the pivots only test these frequencies against ``[0, 1]`` with a tolerance).

    >>> C = np.array([[[2.0, 1.0], [1.0, 3.0]]]); d = np.array([[3.0, 5.0]]); b = np.array([[4.0, 7.0]])
    >>> xs, ys = solve_candidates(C, d, b)
    >>> ys.round(12).tolist(), xs.round(12).tolist()   # C y = d; C' x = b
    ([[0.8, 1.4]], [[1.0, 2.0]])
    """
    k = C.shape[-1]
    if _CLOSED_FORM and k == 1:
        c = C[:, 0, :]
        ok = np.abs(c) > 1e-300
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(ok, b / c, np.nan), np.where(ok, d / c, np.nan)
    if _CLOSED_FORM and k == 2:
        a, bb_, c, e = C[:, 0, 0], C[:, 0, 1], C[:, 1, 0], C[:, 1, 1]
        det = a * e - bb_ * c
        ok = (np.abs(det) > 1e-300)[:, None]
        with np.errstate(divide="ignore", invalid="ignore"):
            ys = np.column_stack((d[:, 0] * e - bb_ * d[:, 1], a * d[:, 1] - c * d[:, 0])) / det[:, None]
            xs = np.column_stack((b[:, 0] * e - c * b[:, 1], a * b[:, 1] - bb_ * b[:, 0])) / det[:, None]
        return np.where(ok, xs, np.nan), np.where(ok, ys, np.nan)
    det = np.linalg.det(C)
    ok = np.abs(det) > 1e-300
    xs = np.full(d.shape, np.nan)
    ys = np.full(d.shape, np.nan)
    if ok.any():
        xs[ok] = np.linalg.solve(np.swapaxes(C[ok], 1, 2), b[ok][..., None])[..., 0]
        ys[ok] = np.linalg.solve(C[ok], d[ok][..., None])[..., 0]
    return xs, ys


# ------------------------------------------------------------------ the solve steps


def solve_on_support(game: PushFoldGame, support: Support) -> tuple[np.ndarray, np.ndarray] | None:
    """Strategies with the given support that make every mixed hand indifferent, or None.

    The systems of :func:`indifference_system` are solved by float least squares and accepted
    only if they hold to 1e-12 (relative to the largest ``|K|``) and stay inside [0, 1].
    """
    sm, bm = support.sb_mixed, support.bb_mixed
    if (sm or bm) and (not sm or not bm):
        return None
    K = game.K
    system = indifference_system(K, game.r * (game.g - game.f), support)
    x, y = system.x_pure.copy(), system.y_pure.copy()
    if sm:
        a, b, c, d = system.C.T, system.b, system.C, system.d
        xs, *_ = np.linalg.lstsq(a, b, rcond=None)
        ys, *_ = np.linalg.lstsq(c, d, rcond=None)
        scale = max(1.0, float(np.abs(K).max()))
        if np.abs(a @ xs - b).max() > 1e-12 * scale or np.abs(c @ ys - d).max() > 1e-12 * scale:
            return None
        if xs.min() < -1e-12 or xs.max() > 1 + 1e-12 or ys.min() < -1e-12 or ys.max() > 1 + 1e-12:
            return None
        x[list(sm)] = np.clip(xs, 0, 1)
        y[list(bm)] = np.clip(ys, 0, 1)
    return x, y


def solve_exact(
    A: list[list[int]], b: list[int], guess: list[Fraction]
) -> tuple[list[Fraction] | None, list[int], tuple[int, Fraction] | None]:
    """Solve ``A z = b`` exactly by Gauss-Jordan elimination over the rationals.

    Returns ``(z, free, None)`` with free columns set to ``guess``, or ``(None, [], (row,
    residual))`` when the system is inconsistent (``row`` is the original equation that reduced
    to ``0 = residual``).

    >>> solve_exact([[2, 1], [1, 3]], [3, 5], [Fraction(0)] * 2)[0]
    [Fraction(4, 5), Fraction(7, 5)]
    """
    m = len(A)
    k = len(guess)
    M = [[Fraction(v) for v in row] + [Fraction(rhs)] for row, rhs in zip(A, b)]
    orig = list(range(m))
    pivots: list[int] = []
    r = 0
    for c in range(k):
        if r == m:
            break
        p = next((i for i in range(r, m) if M[i][c] != 0), None)
        if p is None:
            continue
        M[r], M[p] = M[p], M[r]
        orig[r], orig[p] = orig[p], orig[r]
        piv = M[r][c]
        M[r] = [v / piv for v in M[r]]
        for i in range(m):
            if i != r and M[i][c] != 0:
                fac = M[i][c]
                M[i] = [vi - fac * vr for vi, vr in zip(M[i], M[r])]
        pivots.append(c)
        r += 1
    for i in range(r, m):
        if M[i][k] != 0:
            return None, [], (orig[i], M[i][k])
    free = [c for c in range(k) if c not in pivots]
    z: list[Fraction] = [Fraction(0)] * k
    for c in free:
        z[c] = guess[c]
    for row, c in enumerate(pivots):
        z[c] = M[row][k] - sum((M[row][fc] * z[fc] for fc in free), Fraction(0))
    return z, free, None
