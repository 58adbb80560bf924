r"""Exact stack thresholds of every hand, by following the equilibrium path in the stack.

For one blind structure the payoff matrix is affine in the stack, ``K(S) = K0 + S*K1`` (see
:mod:`sflp.core.game`).  On a stretch of stacks where the equilibrium *support* is fixed (which hands
each player plays always, never, or at a mixed frequency), the mixed frequencies solve two square
indifference systems with entries affine in ``S``:

* SB's mixed hands ``i`` are indifferent:  ``K[Ms, Mb] y_M = -r_Ms (g-f) - K[Ms, Pb] 1``,
* BB's mixed hands ``j`` are indifferent:  ``K[Ms, Mb]' x_M = -K[Ps, Mb]' 1``.

(:mod:`sflp.solving.support` builds these systems, for this module, the float polish and the exact
certificate alike; being linear in ``(K, r (g-f))``, the system at ``S`` is the system of
``(K0, r (g-f))`` plus ``S`` times the system of ``(K1, 0)``.)

By Cramer's rule every mixed frequency is ``N(S) / D(S)`` with ``D = det K[Ms, Mb]`` of degree
``<= k`` (``k`` mixed hands per player) and numerators of degree ``<= k``; every pure hand's
margin times ``D`` is a polynomial of degree ``<= k + 1``.  The support stays an equilibrium
support exactly as long as every *event polynomial* keeps its sign:

==========================  =========================================================
``D``                        the indifference systems stay regular
``N``, ``D - N``             each mixed frequency stays inside ``(0, 1)``
``m_i D``                    each pure SB hand keeps the sign of its shove margin
``(K'x)_j D``                each pure BB hand keeps the sign of its call margin
==========================  =========================================================

:func:`compute_thresholds` walks from ``low`` to ``high`` with a ``_PathFollower`` (its methods
``piece_at``, ``accept``, ``find`` and ``cover`` are the steps below; its fields count the LP
solves, probes, pivots and segments checked).  For a support it interpolates the
event polynomials (degree ``k + 1``, exactly, at Chebyshev nodes over a window around the
stack, see ``_WINDOW``), takes their real roots nearest the current stack on either side, and
refines each by a bracketing root finder on the *exact* event function (the determinants
evaluated at that stack), to ~1e-13 relative: that is the segment on which the support holds.
The first support comes from an LP solve (:func:`sflp.solving.lp.solve_lp`), read with the tolerances
:data:`sflp.solving.support.PATH_TOLERANCES`.  At a segment's end the event says what changes; the next
support is found by *pivoting*: the few generic successor supports (the hand goes pure or mixed,
with one hand of either player following it in or out of the mixed set) are tested just past the
breakpoint, and only if none is an equilibrium support there is the LP solved again.  Every
segment is checked inside (all event functions at three interior stacks, exploitability at its
midpoint).  A gap left between two segments (a segment shorter than the step past a breakpoint)
is probed by the LP until it is below ``1e-10`` bb.

Inside each segment the ``0.5`` crossings of the mixed frequencies are the roots of ``N - D/2``,
found the same way.  At a breakpoint a frequency may jump (the equilibrium is not unique
there); interval endpoints are then the breakpoint itself.

>>> t = compute_thresholds(GameConfig(stack=10), 1, 3)
>>> t.get("sb", "AA").label(), t.get("sb", "72o").label()
('3+', '1.6')
>>> format_intervals(t.get("sb", "72o").intervals)[:9]
'1.000000-'
"""

from __future__ import annotations

import bisect
import math
import re
from dataclasses import dataclass, field, replace
from fractions import Fraction

import numpy as np
from numpy.polynomial import chebyshev as _cheb

from sflp import checks
from sflp.core.cards import CLASS_INDEX as _CLASS_INDEX
from sflp.core.cards import CLASS_NAMES, N_CLASSES, PLAYERS
from sflp.core.game import GameConfig, Payoffs, PushFoldGame, line_payoffs
from sflp.errors import ConfigError, SolveError
from sflp.solving.support import (
    PATH_TOLERANCES,
    Support,
    candidate_systems,
    indifference_system,
    solve_candidates,
)

_VALID_TOL = 1e-9
"""How far (bb per hand, or frequency) an event function may be on the wrong side at a probe."""
_GAP_TOL = 1e-10
"""Gaps between segments up to this (times max(1, S)) are one breakpoint."""
_MAX_PROBES = 20_000
"""LP solves allowed before giving up (a 1-200 bb path needs one or a few)."""
_MAX_SEGMENTS = 200_000
_WINDOW = 1.0
"""A support's event polynomials are fitted on ``[p - w, p + w]`` (clipped to the range) around
the stack ``p`` where it is found, ``w = _WINDOW * max(1, p)``: a fit over the whole range would
lose the roots near its low end when the range is wide (1 to 1e6 bb).  A segment that runs past
its window is continued by fitting the same support on the next window (no LP, no breakpoint)."""


def _window(p: float, low: float, high: float) -> tuple[float, float]:
    w = _WINDOW * max(1.0, p)
    return max(low, p - w), min(high, p + w)


# ---------------------------------------------------------------------------- results


@dataclass(frozen=True)
class HandThresholds:
    """Where one hand of one player is played: ``intervals`` with frequency > 0.5, ``any_intervals`` > 0."""

    player: str
    hand: str
    intervals: tuple[tuple[float, float], ...]
    any_intervals: tuple[tuple[float, float], ...]
    max_stack: float | None
    capped: bool
    exact_label: str | None = field(default=None, compare=False)
    """The label decided exactly from the certified root ``max_stack`` rounds (set by the
    certified path, :func:`sflp.solving.threshcert.certified_hands`); None: from the float."""
    texts: tuple | None = field(default=None, compare=False)
    """``(intervals, any_intervals, max_stack)`` as published text, each end the exact root
    correctly rounded to 6 decimals (set by the certified path); None: from the floats."""
    along: str = field(default="stack", compare=False)
    """The axis of the intervals: ``"stack"``, or ``"ante"`` / ``"bb_ante"`` (see :class:`Thresholds`)."""

    def published_texts(self) -> tuple[str, str, str | None]:
        """The ``intervals``, ``any_intervals`` and ``max_stack`` of ``thresholds.csv``: the exact
        roots' decimals when certified, else the floats' (:func:`format_intervals`).

        >>> HandThresholds("sb", "T3s", ((1.0, 7.7912),), ((1.0, 8.0),), 7.7912, False).published_texts()
        ('1.000000-7.791200', '1.000000-8.000000', '7.791200')
        """
        if self.texts is not None:
            return self.texts
        top = None if self.max_stack is None else f"{self.max_stack:.6f}"
        return format_intervals(self.intervals), format_intervals(self.any_intervals), top

    @property
    def multi(self) -> bool:
        """More than one separate stack interval with frequency > 0.5."""
        return len(self.intervals) > 1

    def label(self) -> str:
        """HoldemResources chart convention: ``"7.7"`` (floor to 0.1 bb), ``"25+"``, or ``"-"``.

        When capped, ``max_stack`` is the top of the range.

        >>> HandThresholds("sb", "T3s", ((1.0, 7.7912),), ((1.0, 8.0),), 7.7912, False).label()
        '7.7'
        >>> HandThresholds("sb", "AA", ((1.0, 25.0),), ((1.0, 25.0),), 25.0, True).label()
        '25+'
        >>> HandThresholds("bb", "72o", (), ((1.0, 1.2),), None, False).label()
        '-'

        Along an ante the stack's 0.1 bb would say nothing: the label is the published intervals
        (6 decimals, exact when certified, trailing zeros dropped), ``+`` for one reaching the top:

        >>> HandThresholds("bb", "J7s", ((0.0957161, 0.25),), ((0.0933, 0.25),), 0.25, True, along="ante").label()
        '0.095716+'
        """
        if self.max_stack is None:
            return "-"
        if self.along != "stack":
            return _line_label(self.published_texts()[0], self.capped)
        if self.capped:
            return f"{self.max_stack:g}+"
        if self.exact_label is not None:
            return self.exact_label
        return f"{math.floor(self.max_stack * 10 + 1e-9) / 10:.1f}"


@dataclass(frozen=True)
class Thresholds:
    """Thresholds of all 169 classes for both players over ``[low, high]`` (one blind structure)."""

    config: GameConfig
    low: float
    high: float
    hands: tuple[HandThresholds, ...]
    breakpoints: tuple[float, ...]
    segments: tuple = ()
    lp_solves: int = 0
    pivots: int = 0
    _payoffs: Payoffs | None = field(default=None, compare=False, repr=False)
    certificate: object = field(default=None, compare=False, repr=False)
    """The proof of the thresholds (:class:`sflp.solving.threshcert.PathCertificate`), None when
    computed with ``certify=False``."""
    along: str | tuple = "stack"
    """The line the path follows: ``"stack"`` (``low``, ``high``, the breakpoints and every hand's
    intervals are stacks), ``"ante"`` / ``"bb_ante"`` (they are that ante, at ``config.stack``), or
    a direction ``d`` (:func:`sflp.core.payoff.direction_key`): they are the ``t`` of ``config + t d``."""

    def get(self, player: str, hand: str) -> HandThresholds:
        """The thresholds of ``hand`` (class name such as ``"T3s"``) for ``player`` ("sb"/"bb")."""
        if player not in PLAYERS:
            raise ConfigError(f"player={player!r}: expected 'sb' or 'bb'")
        if hand not in _CLASS_INDEX:
            raise ConfigError(f"hand={hand!r} is not a class name such as 'AKs', 'T9o' or '22'")
        return self.hands[PLAYERS.index(player) * N_CLASSES + _CLASS_INDEX[hand]]

    def __repr__(self) -> str:
        multi = sum(h.multi for h in self.hands)
        return (f"<Thresholds {self.low:g}-{self.high:g} bb, {len(self.breakpoints)} breakpoints, "
                f"{multi} hands on several intervals>")

    def to_dict(self) -> dict:
        """The JSON object: the structure, the stack range, the breakpoints and one row per player x
        hand (the columns of ``thresholds.csv``, intervals as ``[low, high]`` pairs, ``max_stack``
        null when the hand is never played)."""
        line = {} if self.along == "stack" else {
            "along": self.along if isinstance(self.along, str) else dict(self.along)}
        return {
            **{k: v for k, v in self.config.as_dict().items() if k != self.along},
            **line,
            "low": float(self.low),
            "high": float(self.high),
            "breakpoints": [float(b) for b in self.breakpoints],
            "lp_solves": self.lp_solves,
            "hands": [
                {"player": h.player, "hand": h.hand, "max_stack": None if h.max_stack is None else float(h.max_stack),
                 "capped": bool(h.capped), "label": h.label(), "intervals": [list(map(float, i)) for i in h.intervals],
                 "any_intervals": [list(map(float, i)) for i in h.any_intervals]}
                for h in self.hands
            ],
        }

    def to_frame(self):
        """A pandas DataFrame, one row per player x hand: ``player, hand, max_stack, capped,
        label, multi, intervals, any_intervals`` (intervals as lists of ``(low, high)`` pairs).

        pandas is imported here, only when asked (the core needs only numpy).
        """
        import pandas as pd

        return pd.DataFrame(
            [(h.player, h.hand, math.nan if h.max_stack is None else float(h.max_stack), bool(h.capped), h.label(),
              bool(h.multi), list(h.intervals), list(h.any_intervals)) for h in self.hands],
            columns=["player", "hand", "max_stack", "capped", "label", "multi", "intervals", "any_intervals"],
        )

    def segment_starts(self) -> list[float]:
        """The first stack of every segment, in order (computed once)."""
        starts = self.__dict__.get("_starts")
        if starts is None:  # the dataclass is frozen: cache beside its fields
            starts = [float(s[0]) for s in self.segments]
            object.__setattr__(self, "_starts", starts)
        return starts

    def segment_of(self, stack: float) -> tuple[int, Support]:
        """The index of the segment ``stack`` (a value of :attr:`along`) lies in, and its support."""
        stack = float(stack)
        if not (self.low - 1e-12 <= stack <= self.high + 1e-12) or not self.segments:
            name = self.along if isinstance(self.along, str) else "t"
            raise ConfigError(f"{name}={stack!r} is outside [{self.low:g}, {self.high:g}]")
        k = max(0, bisect.bisect_right(self.segment_starts(), stack) - 1)
        return k, self.segments[k][2]

    def strategies_at(self, stack: float) -> tuple[np.ndarray, np.ndarray]:
        """SB push and BB call frequencies at ``stack`` (a value of :attr:`along`) from its segment's
        support (no LP)."""
        _, support = self.segment_of(stack)
        payoffs = self._payoffs or line_payoffs(self.config, self.along)
        return _strategies(payoffs, support, float(stack))

    def solve(self, stacks, *, exact: bool = False, progress=None, workers: int | None = None) -> list:
        """Checked solutions at ``stacks`` (inside ``[low, high]``) read off this path, in the order given.

        ``compute_thresholds(config, lo, hi).solve(stacks)`` is :func:`sflp.solving.solver.solve_many`
        with ``path=`` this result: no LP per stack, every stack still checked by best responses.
        """
        from sflp.solving.solver import solve_many

        if self.along != "stack":
            raise ConfigError(f"solve() reads stacks off a stack path; this path follows the {self.along} "
                              f"(use strategies_at, or sflp.solve at each point)")
        return solve_many(stacks, self.config, exact=exact, progress=progress, workers=workers, path=self)


def _short(number: str) -> str:
    return number.rstrip("0").rstrip(".") if "." in number else number


def _line_label(intervals: str, capped: bool) -> str:
    """The label of a hand along an ante: its intervals, the last one ``a+`` when it is capped.

    >>> _line_label("0.000000-0.012500;0.100000-0.250000", True), _line_label("-2.000000--1.500000", False)
    ('0-0.0125;0.1+', '-2--1.5')
    """
    # a direction's t may be negative: "-2.000000--1.979825" is the interval from -2 to -1.979825
    parts = [tuple(_short(v) for v in re.fullmatch(r"(-?[0-9.]+)-(-?[0-9.]+)", piece).groups())
             for piece in intervals.split(";")]
    text = [f"{a}-{b}" for a, b in parts]
    if capped:
        text[-1] = f"{parts[-1][0]}+"
    return ";".join(text)


def format_intervals(intervals) -> str:
    """``"1.000000-7.240000;7.270000-7.290000"`` (6 decimals, ``;`` between intervals, ``""`` if none).

    >>> format_intervals([(1, 7.24), (7.27, 7.29)]), format_intervals(())
    ('1.000000-7.240000;7.270000-7.290000', '')
    """
    return ";".join(f"{a:.6f}-{b:.6f}" for a, b in intervals)


# ---------------------------------------------------------------------------- one support


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
            sys0 = indifference_system(p.K0, rgf, support, (self.a0, self.c0))
            sys1 = indifference_system(p.K1, rgf1, support, (self.a1, self.c1))
            self.C0, self.d0, self.b0 = sys0.C, sys0.d, sys0.b
            self.C1, self.d1, self.b1 = sys1.C, sys1.d, sys1.b
            self.Ks0 = sb_sign[:, None] * p.K0[np.ix_(self.sb_rows, bm)]
            self.Ks1 = sb_sign[:, None] * p.K1[np.ix_(self.sb_rows, bm)]
            self.Kb0 = bb_sign[:, None] * p.K0[np.ix_(sm, self.bb_rows)].T
            self.Kb1 = bb_sign[:, None] * p.K1[np.ix_(sm, self.bb_rows)].T
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
            m = 2 * (k + 1) + 4
            u = np.cos(np.pi * (np.arange(m) + 0.5) / m)
            D, NY, NX = self._dets(mid + half * u)
            V = _cheb.chebvander(u, k)
            coef, *_ = np.linalg.lstsq(V, np.column_stack((D, NX, NY)), rcond=None)
            dets = _cheb_to_power(k) @ coef  # (k+1, 1+2k): ascending powers of u
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
    n = power.shape[1]
    size = np.abs(power).max(axis=0)
    eff = np.zeros(n, dtype=int)
    for d in range(deg, 0, -1):
        sel = (eff == 0) & (np.abs(power[d]) > 1e-11 * size) & (size > 0)
        eff[sel] = d
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


# ---------------------------------------------------------------------------- pivots


def _score(payoffs: Payoffs, K: np.ndarray, sup: Support, base: np.ndarray) -> float:
    """How far ``sup`` is from being an equilibrium support at the stack of ``K``: the smallest
    event row (frequencies in [0, 1], per-hand margins in bb with the pure hands' signs).

    The indifference system of :func:`sflp.solving.support.indifference_system`, with each
    player's pure part multiplied out once: ``u = K y_pure`` gives SB's right-hand side and, with
    the mixed columns added, every SB margin; ``v = K' x_pure`` the same for BB."""
    p = payoffs
    n = K.shape[0]
    sm, bm = list(sup.sb_mixed), list(sup.bb_mixed)
    if sm and len(sm) != len(bm):
        return -math.inf
    sp, bp = list(sup.sb_pure), list(sup.bb_pure)
    x, y = np.zeros(n), np.zeros(n)
    x[sp] = 1.0
    y[bp] = 1.0
    u, v = base + K @ y, K.T @ x  # SB margins and BB column terms of the pure parts
    worst = math.inf
    if sm:
        C = K[np.ix_(sm, bm)]
        try:
            xs, ys = np.linalg.solve(C.T, -v[bm]), np.linalg.solve(C, -u[sm])
        except np.linalg.LinAlgError:
            return -math.inf
        worst = min(xs.min(), 1 - xs.max(), ys.min(), 1 - ys.max())
        u = u + K[:, bm] @ ys
        v = v + K[sm, :].T @ xs
    ms, mb = u / p.r, v / p.r
    out_s = np.ones(n, dtype=bool)
    out_s[sp] = False
    out_s[sm] = False
    out_b = np.ones(n, dtype=bool)
    out_b[bp] = False
    out_b[bm] = False
    if sp:
        worst = min(worst, ms[sp].min())
    if out_s.any():
        worst = min(worst, -ms[out_s].max())
    if bp:
        worst = min(worst, -mb[bp].max())
    if out_b.any():
        worst = min(worst, mb[out_b].min())
    return float(worst)


def _batch_freqs(base: np.ndarray, K: np.ndarray, sup: Support, sb_add=None, bb_add=None):
    """Mixed frequencies for many candidate supports at once: candidate ``n`` is ``sup`` with SB
    hand ``sb_add[n]`` and/or BB hand ``bb_add[n]`` made mixed (the systems must be square).

    Returns ``(xs, ys)`` of shape ``(N, k)`` (NaN where a system is singular); ``base`` is
    ``r (g - f)`` at the stack of ``K``."""
    return solve_candidates(*candidate_systems(K, base, sup, sb_add, bb_add))


def _feasible(xs: np.ndarray, ys: np.ndarray, tol: float = 1e-9) -> np.ndarray:
    return np.all((xs >= -tol) & (xs <= 1 + tol), axis=1) & np.all((ys >= -tol) & (ys <= 1 + tol), axis=1)


def _pivot(payoffs: Payoffs, piece: _Piece, row: int, stack: float) -> Support | None:
    """The support after the event of ``row`` at the end of ``piece``'s segment, tested at ``stack``.

    Generic events, each with the candidate supports that can follow it:

    * a mixed hand reaches 0 or 1 and becomes pure; then either a mixed hand of the other player
      becomes pure (its frequency may jump), or a pure hand of the same player becomes mixed (the
      other player's mixed frequencies jump);
    * a pure hand's margin reaches 0; it switches to the other pure value, or becomes mixed
      together with a pure hand of the other player, or in place of another mixed hand of its
      own player.

    The candidate that is an equilibrium support at ``stack`` (all event rows >= 0) wins; None
    if there is none (the caller then solves the LP).
    """
    player, hand, value = piece.row_event(row)
    if player == "D":
        return None
    sup = piece.support
    n = payoffs.K0.shape[0]
    other = "bb" if player == "sb" else "sb"
    own_mixed = sup.sb_mixed if player == "sb" else sup.bb_mixed
    other_mixed = sup.bb_mixed if player == "sb" else sup.sb_mixed
    K = payoffs.K0 + stack * payoffs.K1
    base_rgf = _rgf(payoffs, stack)
    cands: list[Support] = []

    def add_batch(base: Support, who: str, pool: np.ndarray, fixed: int | None = None) -> None:
        """Candidates ``base`` + pool hand of ``who`` mixed (+ ``fixed`` of the other player)."""
        if not len(pool):
            return
        f = None if fixed is None else np.full(len(pool), fixed)
        sb_add, bb_add = (pool, f) if who == "sb" else (f, pool)
        try:
            xs, ys = _batch_freqs(base_rgf, K, base, sb_add, bb_add)
        except ValueError:
            return
        for c in pool[_feasible(xs, ys)]:
            cand = base.with_hand(who, int(c), -1.0)
            if fixed is not None:
                cand = cand.with_hand(player, fixed, -1.0)
            cands.append(cand)

    if value >= 0:  # a mixed hand leaves
        base = sup.with_hand(player, hand, value)
        for c in other_mixed:
            cands += [base.with_hand(other, c, 0.0), base.with_hand(other, c, 1.0)]
        mixed_now = set(own_mixed)
        add_batch(base, player, np.array([c for c in range(n) if c not in mixed_now], dtype=int))
    else:  # a pure hand enters
        was_in = hand in (sup.sb_pure if player == "sb" else sup.bb_pure)
        cands.append(sup.with_hand(player, hand, 0.0 if was_in else 1.0))  # a plain switch
        base = sup.with_hand(player, hand, -1.0)
        for c in own_mixed:
            cands += [base.with_hand(player, c, 0.0), base.with_hand(player, c, 1.0)]
        mixed_other = set(other_mixed)
        pool = np.array([c for c in range(n) if c not in mixed_other], dtype=int)
        add_batch(sup, other, pool, fixed=hand)
    best, best_score = None, -_VALID_TOL
    for cand in cands:
        s = _score(payoffs, K, cand, base_rgf)
        if s >= best_score:
            best, best_score = cand, s
    return best


# ---------------------------------------------------------------------------- the path


def compute_thresholds(
    config: GameConfig,
    low: float = 1.0,
    high: float = 200.0,
    table=None,
    progress=None,
    *,
    certify: bool = True,
    along: str = "stack",
) -> Thresholds:
    """Exact stack thresholds of every class for SB (push) and BB (call) over ``[low, high]``.

    ``along="ante"`` (or ``"bb_ante"``) follows that ante from ``low`` to ``high`` instead, at the
    stack ``config.stack`` and ``config``'s blinds (and other ante): every breakpoint, interval and
    label is then an ante in bb, certified the same way (:func:`_line_thresholds`).

    ``config``'s blinds and antes are used, its stack is ignored.  ``progress`` is an optional
    callable receiving the stack reached so far.  With ``certify`` (the default) every breakpoint
    and 0.5 crossing is isolated exactly and the path is proven to miss none
    (:func:`sflp.solving.threshcert.certify_path`): the hands' intervals are the exact roots'
    floats, their 6-decimal printing and labels decided exactly, and ``certificate`` holds the
    proof; ``certify=False`` is the float path alone (for comparisons and benchmarks).
    """
    checks.instance("config", config, GameConfig, "GameConfig(stack=10)")
    if along != "stack":
        return _line_thresholds(config, along, low, high, table, progress, certify)
    low, high = checks.real("low", low, positive=True), checks.real("high", high, positive=True)
    if not low < high:
        raise ConfigError(f"need low < high, got low={low!r}, high={high!r}")
    base = config.with_stack(low)  # validates that low covers the blinds and antes
    config.with_stack(high)
    unit = normalising_unit(base)
    game = PushFoldGame(base if unit == 1.0 else base.scaled(1.0 / unit), table)
    tick = progress if progress is None or unit == 1.0 else (lambda reached: progress(reached * unit))
    follower = _PathFollower(game, low / unit, high / unit, tick)
    segments = follower.run()

    hands = None if certify else _hand_thresholds(segments, low / unit, high / unit)
    merged = _merged(segments)
    payoffs = follower.payoffs
    if unit != 1.0:  # back to bb: every stack times a power of two, exactly
        hands = None if hands is None else tuple(_scaled_hand(h, unit) for h in hands)
        merged = [(a * unit, b * unit, sup) for a, b, sup in merged]
        payoffs = PushFoldGame(base, table).payoffs
    certificate = None
    if certify:
        from sflp.solving.threshcert import certified_hands, certify_path

        certificate = certify_path(config, low, high, merged, table)
        hands = certified_hands(certificate, HandThresholds)
        merged = _certified_segments(certificate)
    breakpoints = tuple(float(seg[0]) for seg in merged[1:])
    return Thresholds(
        config=config,
        low=low,
        high=high,
        hands=hands,
        breakpoints=breakpoints,
        segments=tuple(merged),
        lp_solves=follower.lp_solves,
        pivots=follower.pivots,
        _payoffs=payoffs,
        certificate=certificate,
    )


def _merged(segments) -> list[tuple[float, float, Support]]:
    """Pieces of one support on neighbouring fit windows are one segment; breakpoints are where
    the support changes."""
    merged: list[tuple[float, float, Support]] = []
    for a, b, pc in segments:
        if merged and merged[-1][2] == pc.support:
            merged[-1] = (merged[-1][0], b, pc.support)
        else:
            merged.append((a, b, pc.support))
    return merged


def _certified_segments(certificate) -> list[tuple[float, float, Support]]:
    """The segments with their ends the certified roots' floats."""
    return [(root_a.value, root_b.value, sup) for root_a, root_b, sup in
            zip([certificate.low, *certificate.breakpoints], [*certificate.breakpoints, certificate.high],
                certificate.supports)]


def _with_axis(config: GameConfig, axis, value: float) -> GameConfig:
    """``config`` with ``axis`` set to ``value`` (a float game of a scaled copy stays unchecked, as
    :meth:`GameConfig.with_stack` keeps it); for a direction (a key of
    :func:`sflp.core.payoff.direction_key`) the point ``config + value * d``, each amount the exact
    sum rounded once."""
    if axis == "stack":
        return config.with_stack(value)
    if not isinstance(axis, str):
        from sflp.core.payoff import line_of

        p0, d = line_of(config, axis)
        t = Fraction(value)
        return GameConfig(**{k: float(v + t * d[k]) for k, v in p0.items()})
    if config.__dict__.get("_scaled_copy"):
        new = object.__new__(GameConfig)
        for name in ("stack", "small_blind", "big_blind", "ante", "bb_ante"):
            object.__setattr__(new, name, getattr(config, name))
        object.__setattr__(new, axis, value)
        object.__setattr__(new, "_scaled_copy", True)
        return new
    return replace(config, **{axis: value})


class _Line:
    """The games at the points ``t`` of the line through ``config`` along ``along``: the LP's (a
    plain game of that structure, so that the LP and its caches are the stack's own) and the
    best-response check's (the line's matrices at ``t``, nothing cached)."""

    def __init__(self, config: GameConfig, along: str, table):
        self.config, self.along, self.table = config, along, table
        self.payoffs = line_payoffs(config, along, table)

    def lp_game(self, t: float) -> PushFoldGame:
        return PushFoldGame(_with_axis(self.config, self.along, t), self.table)

    def check_game(self, t: float) -> PushFoldGame:
        p = self.payoffs
        at_t = Payoffs(p.level, p.P, p.r, p.K0 + t * p.K1, np.zeros_like(p.K1), p.f + t * p.f1, p.g + t * p.g1)
        return PushFoldGame(_with_axis(self.config, self.along, t), self.table, payoffs=at_t)


def _line_thresholds(config: GameConfig, along, low, high, table, progress, certify: bool) -> Thresholds:
    """:func:`compute_thresholds` along the ante or the BB ante at ``config.stack``, or along the
    direction ``along`` (a mapping of amounts to numbers) from ``config + low * d`` to
    ``config + high * d``.

    The payoffs are affine in every amount (:func:`sflp.core.payoff.line_terms`), so along the
    ante ``K = K0 + t K1`` and ``r (g - f)`` moves too (:func:`_rgf`): the path follower, its pivots
    and the exact certificate (:func:`sflp.solving.threshcert.certify_path` with ``along``) are the
    stack path's, on the line's matrices."""
    from sflp.core.payoff import direction_key

    try:
        along = direction_key(along)
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
    axis = isinstance(along, str)
    low, high = (checks.real(name, v, low=0 if axis else None) for name, v in (("low", low), ("high", high)))
    if not low < high:
        raise ConfigError(f"need low < high, got low={low!r}, high={high!r}")
    if not axis:
        sizes = [abs(Fraction(v)) for _, v in along]
        if max(sizes) > 1000 or min(sizes) < Fraction(1, 1000):
            shown = {k: float(Fraction(v)) for k, v in along}
            raise ConfigError(f"along={shown}: give a direction whose entries are 0.001 to 1000 in size (scale "
                              "it, and the range of t the other way): the path's steps are stated in units near 1")
    ends = []
    for name, t in (("low", low), ("high", high)):
        try:  # validates: the stack covers the blinds and antes (linear: valid at both ends, valid between)
            ends.append(_with_axis(config, along, t))
        except ConfigError as exc:
            raise ConfigError(f"{name}={t!r} along {along if axis else dict(along)}: {exc}") from None
    start, end = ends
    unit = normalising_unit(start)
    if not axis:
        if unit != 1.0 or normalising_unit(end) != 1.0:
            raise ConfigError(f"along a direction the pot must stay within {NORMAL_POT[0]:g} to {NORMAL_POT[1]:g} bb "
                              f"(the path's tolerances); it is {start.pot:g} and {end.pot:g} bb at the ends")
        start = config  # a direction's line is config + t d: its p0 is config itself
    scaled = start if unit == 1.0 else start.scaled(1.0 / unit)
    line = _Line(scaled, along, table)
    tick = progress if progress is None or unit == 1.0 else (lambda reached: progress(reached * unit))
    follower = _PathFollower(PushFoldGame(scaled, table), low / unit, high / unit, tick, line=line)
    segments = follower.run()
    hands = None if certify else _hand_thresholds(segments, low / unit, high / unit)
    merged = _merged(segments)
    payoffs = line.payoffs
    if unit != 1.0:
        hands = None if hands is None else tuple(_scaled_hand(h, unit) for h in hands)
        merged = [(a * unit, b * unit, sup) for a, b, sup in merged]
        payoffs = line_payoffs(start, along, table)
    certificate = None
    if certify:
        from sflp.solving.threshcert import certified_hands, certify_path

        certificate = certify_path(start, low, high, merged, table, along=along)
        hands = certified_hands(certificate, HandThresholds)
        merged = _certified_segments(certificate)
    hands = tuple(replace(h, along=along) for h in hands)
    return Thresholds(
        config=start, low=low, high=high, hands=hands,
        breakpoints=tuple(float(seg[0]) for seg in merged[1:]), segments=tuple(merged),
        lp_solves=follower.lp_solves, pivots=follower.pivots, _payoffs=payoffs, certificate=certificate,
        along=along,
    )


NORMAL_POT = (1 / 16, 16.0)
"""The pots (small blind + big blind + both antes + BB ante, in bb) for which the path is followed
as given; other structures are followed in units of a power of two near their pot."""


def normalising_unit(config: GameConfig) -> float:
    """1.0 when ``config``'s pot is within :data:`NORMAL_POT`, else the power of two ``2^e`` with
    the pot in ``[2^e, 2^(e+1))``.

    The game is homogeneous: every amount times ``c`` is the same game with every stack, threshold
    and value times ``c``.  The path follower's tolerances are stated for a pot of about 1.5 bb
    (a probe of 1e-6 bb, a gap of 1e-10 bb), so a structure of blinds of 2^-40 bb would be
    followed far too coarsely (breakpoints lost) and one of antes of 1e9 bb far too finely; in
    units of a power of two the arithmetic is the same to the last bit, and so are the thresholds
    once multiplied back.

    >>> normalising_unit(GameConfig(stack=10)), normalising_unit(GameConfig(stack=1e-5, small_blind=1e-6,
    ...                                                                     big_blind=1e-6))
    (1.0, 1.9073486328125e-06)
    """
    pot = config.pot
    if NORMAL_POT[0] <= pot <= NORMAL_POT[1]:
        return 1.0
    return math.ldexp(1.0, math.frexp(pot)[1] - 1)


def _scaled_hand(hand: HandThresholds, factor: float) -> HandThresholds:
    """``hand`` with every stack times ``factor``."""
    return replace(hand, intervals=tuple((a * factor, b * factor) for a, b in hand.intervals),
                   any_intervals=tuple((a * factor, b * factor) for a, b in hand.any_intervals),
                   max_stack=None if hand.max_stack is None else hand.max_stack * factor)


class _PathFollower:
    """Follows the equilibrium path of one blind structure over ``[low, high]`` (see the module doc).

    ``segments`` collects ``(a, b, piece)`` in increasing order; the counters say how the path was
    found: ``lp_solves`` LP solves, ``probes`` LP probes (each one LP solve), ``pivots`` supports
    found by pivoting at a breakpoint (no LP), ``segments_checked`` candidate segments checked
    inside (bounded by ``_MAX_SEGMENTS``).
    """

    def __init__(self, game0: PushFoldGame, low: float, high: float, progress=None, line=None):
        self.game0 = game0
        self.payoffs = game0.payoffs
        # the games at points of the path: the stack's own, or a line's (_Line) for another axis
        self.lp_game, self.check_game = (game0.at_stack, game0.at_stack) if line is None else (line.lp_game,
                                                                                               line.check_game)
        if line is not None:
            self.payoffs = line.payoffs
        self.low, self.high = low, high
        self.progress = progress
        self.segments: list[tuple[float, float, _Piece]] = []
        self.lp_solves = 0
        self.probes = 0
        self.pivots = 0
        self.segments_checked = 0
        from sflp.solving.solver import max_exploitability

        self.max_exploitability = max_exploitability(game0.config)  # the blinds' (exact arithmetic: once)

    def run(self) -> list[tuple[float, float, _Piece]]:
        """Contiguous segments covering ``[low, high]`` exactly (tiny gaps at breakpoints closed)."""
        low, high = self.low, self.high
        self.cover(low, high, low)
        if not self.segments:  # the whole range is narrower than one breakpoint's tolerance
            a, b, piece, _ = self.find(low, high, 0.5 * (low + high), None)
            self.segments.append((a, b, piece))
        fixed: list[tuple[float, float, _Piece]] = []
        for a, b, pc in self.segments:
            if fixed:
                a = fixed[-1][1]
            fixed.append((a, b, pc))
        fixed[0] = (low, fixed[0][1], fixed[0][2])
        fixed[-1] = (fixed[-1][0], high, fixed[-1][2])
        return fixed

    def valid_piece(self, support: Support, p: float) -> _Piece | None:
        """The piece of ``support`` fitted around ``p``, if it is regular and valid at ``p``."""
        try:
            piece = _Piece(self.payoffs, support, p, *_window(p, self.low, self.high))
        except (ValueError, np.linalg.LinAlgError):
            return None
        return piece if piece.rows(p).min() >= -_VALID_TOL else None

    def piece_at(self, p: float) -> _Piece | None:
        """A valid piece at ``p`` from an LP solve, reading its support with the ladder
        :data:`sflp.solving.support.PATH_TOLERANCES` (the first valid one wins).  Past
        :data:`~sflp.solving.solver.LP_STACK_LIMIT` pots the LP is solved there and its support
        carried to ``p``, as :func:`sflp.solve` does."""
        from sflp.solving.solver import _solve_lp

        x, y, _ = _solve_lp(self.lp_game(p), None)
        self.lp_solves += 1
        seen = set()
        for tol in PATH_TOLERANCES:
            sup = Support.of(x, y, tol)
            if sup in seen or not sup.square:
                continue
            seen.add(sup)
            piece = self.valid_piece(sup, p)
            if piece is not None:
                return piece
        return None

    def accept(self, piece: _Piece, p: float, lo: float, hi: float) -> tuple[float, float, int] | None:
        """The segment ``(a, b, end_row)`` of ``piece`` around ``p`` if it checks out inside
        (event rows at three interior stacks, exploitability at its midpoint), else None."""
        self.segments_checked += 1
        if self.segments_checked > _MAX_SEGMENTS:
            raise SolveError("thresholds: too many segments; the path could not be followed")
        a, b, _, brow = _segment(piece, p, max(lo, piece.low), min(hi, piece.high))
        if not (a <= p <= b and a < b):
            return None
        if piece.rows_at(a + np.array([0.25, 0.5, 0.75]) * (b - a)).min() < -_VALID_TOL:
            return None
        mid = 0.5 * (a + b)
        if self.check_game(mid).exploitability(*piece.strategies(mid)) > self.max_exploitability:
            return None
        return a, b, brow

    def find(self, lo: float, hi: float, p: float | None, hint) -> tuple[float, float, _Piece, int]:
        """A support valid at a probe in ``(lo, hi)`` and its segment (clipped to ``[lo, hi]``).

        ``hint`` is ``(previous piece, the row that ended it)`` (row -1: it ended at the edge of
        its fit window).  Tried in order: the same support on the next window, a pivot, LP probes
        stepping away from the breakpoint."""
        step = 1e-6 * max(1.0, lo)
        if p is None or not lo <= p < hi:
            p = 0.5 * (lo + hi)
        if hint is not None and hint[1] < 0 and hint[0].high < hi:
            # the last segment ended at the edge of its fit window, not at an event: same support
            piece = self.valid_piece(hint[0].support, p)
            if piece is not None:
                got = self.accept(piece, p, lo, hi)
                if got is not None:
                    return got[0], got[1], piece, got[2]
        if hint is not None and hint[1] >= 0:
            sup = _pivot(self.payoffs, hint[0], hint[1], p)
            if sup is not None:
                piece = self.valid_piece(sup, p)
                if piece is not None:
                    got = self.accept(piece, p, lo, hi)
                    if got is not None:
                        self.pivots += 1
                        return got[0], got[1], piece, got[2]
        for attempt in range(10):
            self.probes += 1
            if self.probes > _MAX_PROBES:
                raise SolveError("thresholds: too many probes; the path could not be followed")
            piece = self.piece_at(p)
            if piece is not None:
                got = self.accept(piece, p, lo, hi)
                if got is not None:
                    return got[0], got[1], piece, got[2]
            p = min(p + step * 10 ** (attempt + 1), 0.5 * (p + hi))
        raise SolveError(f"thresholds: no consistent equilibrium support near stack {p:.12g}")

    def cover(self, lo: float, hi: float, probe: float | None, hint=None) -> None:
        """Cover ``[lo, hi]`` with segments, appended to ``segments`` in increasing order."""
        while hi - lo > _GAP_TOL * max(1.0, hi):
            a, b, piece, brow = self.find(lo, hi, probe, hint)
            if a - lo > _GAP_TOL * max(1.0, a):
                self.cover(lo, a, None)  # a breakpoint was stepped over: fill the gap first
            self.segments.append((a, b, piece))
            if self.progress is not None:
                self.progress(b)
            lo = b
            probe = min(b + 1e-6 * max(1.0, b), 0.5 * (b + hi))
            hint = (piece, brow)


def _merge(pieces: list[tuple[float, float]]) -> tuple[tuple[float, float], ...]:
    out: list[list[float]] = []
    for a, b in pieces:
        if out and a - out[-1][1] <= _GAP_TOL * max(1.0, a):
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return tuple((float(a), float(b)) for a, b in out)


def _hand_thresholds(segments, low: float, high: float) -> tuple[HandThresholds, ...]:
    n = N_CLASSES
    over: list[list[tuple[float, float]]] = [[] for _ in range(2 * n)]
    anyp: list[list[tuple[float, float]]] = [[] for _ in range(2 * n)]
    for a, b, pc in segments:
        sup = pc.support
        for base, pure, mixed in ((0, sup.sb_pure, sup.sb_mixed), (n, sup.bb_pure, sup.bb_mixed)):
            for h in pure:
                over[base + h].append((a, b))
                anyp[base + h].append((a, b))
            for h in mixed:
                anyp[base + h].append((a, b))
        if not pc.k:
            continue
        # 0.5 crossings of the mixed frequencies inside (a, b)
        croot_at, croot_row = pc.cross_roots
        for row, (base, h) in enumerate(
            [(0, h) for h in sup.sb_mixed] + [(n, h) for h in sup.bb_mixed]
        ):
            cuts = [a]
            for r in croot_at[croot_row == row]:
                if a < r < b:
                    c = _root_near(lambda S, row=row: pc.cross_rows(S)[row], r, a, b)
                    if c is not None and a < c < b:
                        cuts.append(c)
            cuts = sorted(set(cuts)) + [b]
            for s, e in zip(cuts[:-1], cuts[1:]):
                if e <= s:
                    continue
                if pc.cross_rows(0.5 * (s + e))[row] > 0:
                    over[base + h].append((s, e))
    hands = []
    for idx in range(2 * n):
        player = PLAYERS[idx // n]
        iv = _merge(sorted(over[idx]))
        av = _merge(sorted(anyp[idx]))
        max_stack = iv[-1][1] if iv else None
        capped = bool(iv) and iv[-1][1] >= high - _GAP_TOL * max(1.0, high)
        if capped:
            iv = iv[:-1] + ((iv[-1][0], high),)
            max_stack = high
        hands.append(HandThresholds(player, CLASS_NAMES[idx % n], iv, av, max_stack, capped))
    return tuple(hands)
