r"""The path follower: the segments of the exact path from ``low`` to ``high``, and the pivots between them.

:func:`sflp.solving.thresholds.compute_thresholds` walks from ``low`` to ``high`` with a
``_PathFollower`` (its methods ``piece_at``, ``accept``, ``find`` and ``cover`` are the steps
below; its fields count the LP solves, probes, pivots and segments checked).  For a support it
fits the event polynomials of a :class:`~sflp.solving.piece._Piece` over a window around the stack
(see ``_WINDOW``) and takes the segment on which the support holds
(:func:`sflp.solving.piece._segment`).  The first support comes from an LP solve
(:func:`sflp.solving.lp.solve_lp`), read with the tolerances
:data:`sflp.solving.support.PATH_TOLERANCES`.  At a segment's end the event says what changes;
the next support is found by *pivoting* (:func:`_pivot`): the few generic successor supports (the
hand goes pure or mixed, with one hand of either player following it in or out of the mixed set)
are tested just past the breakpoint, and only if none is an equilibrium support there is the LP
solved again.  Every segment is checked inside (all event functions at three interior stacks,
exploitability at its midpoint).  A gap left between two segments (a segment shorter than the
step past a breakpoint) is probed by the LP until it is below ``1e-10`` bb.
"""

from __future__ import annotations

import math

import numpy as np

from sflp.core.game import Payoffs, PushFoldGame
from sflp.errors import SolveError
from sflp.solving.piece import _Piece, _rgf, _segment
from sflp.solving.support import PATH_TOLERANCES, Support, candidate_systems, solve_candidates

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

_BATCHED = True
"""Score a pivot's candidates in one batch (:func:`_scores`), not one by one (:func:`_score`): a
private switch, so that the benchmark times the route before issue 53 in the same process."""


def _window(p: float, low: float, high: float) -> tuple[float, float]:
    w = _WINDOW * max(1.0, p)
    return max(low, p - w), min(high, p + w)


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


def _scores(payoffs: Payoffs, K: np.ndarray, cands: list[Support], base: np.ndarray) -> np.ndarray:
    """:func:`_score` of every candidate of a pivot at once (``-inf`` where it is not square or
    singular): the pure parts of all candidates multiplied out in two matrix products, the
    candidates with ``k`` mixed hands a player solved as one stack of ``k x k`` systems, the
    margins' worst row taken over a ``(candidates, hands)`` array; no Python loop over hands.

    The same formulas as :func:`_score`, so the same scores up to the rounding of the products
    (``K @ y`` as a row of ``Y @ K'``)."""
    m, n = len(cands), K.shape[0]
    out = np.full(m, -math.inf)
    if not m:
        return out
    X, Y = np.zeros((m, n)), np.zeros((m, n))
    sb_in, bb_in = np.zeros((m, n), dtype=bool), np.zeros((m, n), dtype=bool)  # pure or mixed
    groups: dict[int, list[int]] = {}
    for i, c in enumerate(cands):
        sp, bp = list(c.sb_pure), list(c.bb_pure)
        X[i, sp] = 1.0
        Y[i, bp] = 1.0
        sb_in[i, sp] = True
        sb_in[i, list(c.sb_mixed)] = True
        bb_in[i, bp] = True
        bb_in[i, list(c.bb_mixed)] = True
        k = len(c.sb_mixed)
        if k and k != len(c.bb_mixed):
            continue  # not square: -inf
        groups.setdefault(k, []).append(i)
    U, V = base + Y @ K.T, X @ K  # SB margins and BB column terms of the pure parts, one row a candidate
    worst = np.full(m, math.inf)
    for k, idx in list(groups.items()):
        if not k:
            continue
        ix = np.array(idx)
        sm = np.array([cands[i].sb_mixed for i in idx])
        bm = np.array([cands[i].bb_mixed for i in idx])
        C = K[sm[:, :, None], bm[:, None, :]]  # (g, k, k): each candidate's K[Ms, Mb]
        try:
            xs = np.linalg.solve(np.swapaxes(C, 1, 2), -V[ix[:, None], bm][..., None])[..., 0]
            ys = np.linalg.solve(C, -U[ix[:, None], sm][..., None])[..., 0]
        except np.linalg.LinAlgError:  # a singular system: each candidate of this size on its own
            out[ix] = [_score(payoffs, K, cands[i], base) for i in idx]
            del groups[k]
            continue
        worst[ix] = np.minimum(np.minimum(xs.min(axis=1), 1 - xs.max(axis=1)),
                               np.minimum(ys.min(axis=1), 1 - ys.max(axis=1)))
        U[ix] += np.einsum("gkn,gk->gn", K.T[bm], ys)  # + K[:, Mb] y_M
        V[ix] += np.einsum("gkn,gk->gn", K[sm], xs)  # + K[Ms, :]' x_M
    live = np.array([i for idx in groups.values() for i in idx], dtype=int)
    if not len(live):
        return out
    ms, mb = U[live] / payoffs.r, V[live] / payoffs.r
    sb_pure, bb_pure = X[live] > 0.5, Y[live] > 0.5
    sb_out, bb_out = ~sb_in[live], ~bb_in[live]
    sb_worst = np.where(sb_pure, ms, np.where(sb_out, -ms, math.inf)).min(axis=1)
    bb_worst = np.where(bb_pure, -mb, np.where(bb_out, mb, math.inf)).min(axis=1)
    out[live] = np.minimum(worst[live], np.minimum(sb_worst, bb_worst))
    return out


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
    if not _BATCHED:  # the route before issue 53: one candidate at a time
        return _best(cands, np.array([_score(payoffs, K, c, base_rgf) for c in cands]))
    return _best(cands, _scores(payoffs, K, cands, base_rgf))


def _best(cands: list[Support], scores: np.ndarray) -> Support | None:
    """The candidate of highest score (the last of equal ones), if that score is ``>= -_VALID_TOL``."""
    best, best_score = None, -_VALID_TOL
    for cand, s in zip(cands, scores.tolist()):
        if s >= best_score:
            best, best_score = cand, s
    return best


# ---------------------------------------------------------------------------- the follower


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
