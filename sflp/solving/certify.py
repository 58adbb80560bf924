r"""Exact rational equilibrium certificates: a float solution turned into a proof with no floats.

The mathematics
---------------
The game's exact numbers, ``K`` and ``r (g - f)`` scaled to integers, and the exact figures of a
strategy pair are :mod:`sflp.solving.exact`'s; every product below is integer arithmetic, and a
Fraction is formed only at the end.

An ``(x, y)`` is an equilibrium exactly when no player gains by deviating hand by hand.  With
SB's margins ``m[i] = r[i]*(g - f) + (K y)[i]`` (shove minus fold) and BB's column terms
``c[j] = (K' x)[j]`` (BB *gains* ``-c[j]`` by calling rather than folding):

* ``x[i] > 0  =>  m[i] >= 0`` and ``x[i] < 1  =>  m[i] <= 0`` for every SB hand ``i``;
* ``y[j] > 0  =>  c[j] <= 0`` and ``y[j] < 1  =>  c[j] >= 0`` for every BB hand ``j``.

Then ``V = f + sum_i x[i] m[i] = f + sum_i max(0, m[i])`` (SB's best-response value against
``y``) and ``V = f + (g-f) r.x + sum_j min(0, c[j])`` (SB's value when BB best-responds to ``x``),
so the exploitability, their difference, is exactly ``0``.  The certificate computes all three
exactly and demands the difference be ``Fraction(0)``.

The procedure (:func:`certify`)
-------------------------------
1. Read the support off the float solution: ``x >= 1 - tol`` is pure 1, ``x <= tol`` is 0, the
   rest is mixed (same for ``y``); ``tol = 1e-7`` first, then the other rungs of the tolerance
   ladder :data:`sflp.solving.support.SUPPORT_TOLERANCES` in its order, and finally a support that also
   counts as mixed every pure hand whose float margin is within ``1e-9`` bb of zero.
2. *Build* the support's indifference equations with :func:`sflp.solving.support.indifference_system`
   (the builder the float polish and the path follower use too), here in the integers
   ``scale * K`` and ``scale * r (g-f)``, and *solve* them exactly (Fraction Gauss-Jordan
   elimination, :func:`sflp.solving.support.solve_exact`): for SB's mixed hands ``i``,
   ``r_i (g-f) + sum_j K_ij y_j = 0`` in BB's mixed frequencies; for BB's mixed hands ``j``,
   ``sum_i K_ij x_i = 0`` in SB's mixed frequencies.  Inconsistent equations reject the
   support.  Under-determined systems (a stack exactly at a breakpoint, symmetric combos at
   combo level) fix each free variable to a short rational near its float value
   (``Fraction.limit_denominator(10**6)``, then the float's exact binary value) and solve for
   the rest.
3. *Check* exactly: every frequency in ``[0, 1]``, the four margin conditions above for all hands,
   and ``exploitability == 0``.  The first support that passes is the certificate; if none does,
   :class:`~sflp.errors.CertificateError` says which hand failed which condition and by how much.

The helpers :func:`exact_payoffs`, :func:`exact_sb_margins`, :func:`exact_bb_margins`,
:func:`exact_value`, :func:`exact_best_response_values` and :func:`exact_exploitability`, for any
rational strategies, live in :mod:`sflp.solving.exact` and are imported here too (their old home).

At a stack of 1 bb with the default blinds BB is all in from posting and both players play
every hand; the deal is symmetric, so the value is exactly zero:

>>> from sflp.core.game import GameConfig, PushFoldGame, make_solution
>>> game = PushFoldGame(GameConfig(stack=1))
>>> ones = [1] * 169
>>> sol = certify(game, make_solution(game, ones, ones, "manual"))
>>> sol.certified, sol.value_exact, sol.extra["certificate"]["exploitability"]
(True, Fraction(0, 1), '0')
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from sflp.core.game import PushFoldGame, Solution
from sflp.errors import CertificateError
from sflp.solving.exact import (  # noqa: F401  (exact_* re-exported: they lived here before sflp.solving.exact)
    ExactPayoffs,
    _Exact,
    _figures,
    exact_bb_margins,
    exact_best_response_values,
    exact_evs,
    exact_exploitability,
    exact_figures,
    exact_payoffs,
    exact_sb_margins,
    exact_value,
)
from sflp.solving.support import SUPPORT_TOLERANCES, IndifferenceSystem, Support, indifference_system
from sflp.solving.support import solve_exact as _solve_system  # the name the tests and older callers use

TIGHT_MARGIN = 1e-9
"""Float margin (bb per hand) below which a pure hand may be re-read as mixed (last attempt)."""

FREE_DENOMINATOR = 10**6
"""Free variables of an under-determined system are first set to a fraction with at most this
denominator near their float value."""

# ------------------------------------------------------------------ certification


def _fmt(q: Fraction) -> str:
    """A fraction for a message: exact if short, else its float and size."""
    s = str(q)
    if len(s) <= 48:
        return s
    return f"{float(q):.17g} (a {len(str(q.denominator))}-digit denominator)"


def _candidate_supports(game: PushFoldGame, x: np.ndarray, y: np.ndarray) -> Iterator[tuple[str, Support]]:
    """The supports to try, with a label each, in order (a generator: later ones are built only
    when needed): the ladder :data:`sflp.solving.support.SUPPORT_TOLERANCES`, then the tight-margin support."""
    seen: set[Support] = set()
    for tol in SUPPORT_TOLERANCES:
        s = Support.of(x, y, tol)
        if s not in seen:
            seen.add(s)
            yield f"tol={tol:g}", s
    # last resort: also let pure hands with (nearly) zero float margin be mixed
    first = Support.of(x, y, SUPPORT_TOLERANCES[0])
    with np.errstate(all="ignore"):
        sb_tight = set(np.flatnonzero(np.abs(game.sb_ev(y)) < TIGHT_MARGIN).tolist())
        bb_tight = set(np.flatnonzero(np.abs(np.nan_to_num(game.bb_ev(x), nan=1.0)) < TIGHT_MARGIN).tolist())
    s = Support(
        first.sb_pure - sb_tight,
        tuple(sorted(set(first.sb_mixed) | sb_tight)),
        first.bb_pure - bb_tight,
        tuple(sorted(set(first.bb_mixed) | bb_tight)),
    )
    if s not in seen:
        yield f"tight margins < {TIGHT_MARGIN:g}", s


def _free_guesses(values: np.ndarray) -> list[list[Fraction]]:
    clipped = np.clip(np.asarray(values, dtype=np.float64), 0.0, 1.0)
    short = [Fraction(float(v)).limit_denominator(FREE_DENOMINATOR) for v in clipped]
    exact = [Fraction(float(v)) for v in clipped]
    return [short] if short == exact else [short, exact]


@dataclass
class _Attempt:
    label: str
    support: Support
    ok: bool = False
    problems: list[tuple[float, str]] = dataclasses.field(default_factory=list)
    x: tuple[Fraction, ...] | None = None
    y: tuple[Fraction, ...] | None = None
    fig: _Exact | None = None
    free: list[str] = dataclasses.field(default_factory=list)

    def reason(self, limit: int = 6) -> str:
        probs = sorted(self.problems, key=lambda p: -p[0])
        text = "; ".join(p[1] for p in probs[:limit])
        if len(probs) > limit:
            text += f"; and {len(probs) - limit} more"
        return text


def _try_support(ex: ExactPayoffs, x_float: np.ndarray, y_float: np.ndarray, label: str, sup: Support) -> _Attempt:
    """Certify ``sup``: build its indifference system, solve it exactly, check the result."""
    att = _Attempt(label, sup)
    built = _build(ex, sup)
    solved = _solve(ex, built, x_float, y_float, att)
    if solved is not None:
        _check(ex, att, *solved)
    return att


def _build(ex: ExactPayoffs, sup: Support) -> tuple[IndifferenceSystem, list, list, list, list]:
    """The indifference system of ``sup`` in the integers ``scale * K``, ``scale * r (g-f)``
    (:func:`sflp.solving.support.indifference_system`), and its two systems as lists of Python ints:
    ``(system, A_sb, b_sb, A_bb, b_bb)`` with SB's rows ``A_sb y_M = b_sb`` and BB's rows
    ``A_bb x_M = b_bb``."""
    system = indifference_system(ex.K_scaled, np.array(ex.base_scaled, dtype=object), sup)
    A_sb = [[int(v) for v in row] for row in system.C]
    b_sb = [int(v) for v in system.d]
    A_bb = [[int(v) for v in row] for row in system.C.T]
    b_bb = [int(v) for v in system.b]
    return system, A_sb, b_sb, A_bb, b_bb


def _solve(ex: ExactPayoffs, built, x_float: np.ndarray, y_float: np.ndarray, att: _Attempt):
    """Exact mixed frequencies ``(x_M, y_M)`` of the system (free variables of an
    under-determined system fixed near the float solution), or None when an equation is
    inconsistent (the problem is recorded in ``att``)."""
    system, A_sb, b_sb, A_bb, b_bb = built
    sup, names = system.support, ex.names
    sm, bm = list(sup.sb_mixed), list(sup.bb_mixed)
    solved: dict[str, tuple[list[Fraction], list[int]]] = {}
    for who, A, b, cols, rows, float_vals, row_who, col_who in (
        ("y", A_sb, b_sb, bm, sm, y_float, "SB", "BB"),
        ("x", A_bb, b_bb, sm, bm, x_float, "BB", "SB"),
    ):
        result = None
        for guess in _free_guesses(float_vals[cols]) if cols else [[]]:
            z, free, bad = _solve_system(A, b, guess)
            if bad is not None:
                row, residual = bad
                res = residual / ex.scale
                att.problems.append(
                    (
                        float("inf"),
                        f"{row_who} {names[rows[row]]} is mixed in the float solution but cannot be made "
                        f"indifferent: its indifference equation (in {col_who}'s mixed hands "
                        f"{[names[c] for c in cols]}) reduces to 0 = {_fmt(res)} ({float(res):+.3g})",
                    )
                )
                return None
            if all(0 <= v <= 1 for v in z):
                result = (z, free)
                break
            if result is None:
                result = (z, free)
        assert result is not None
        solved[who] = result
    return solved["x"], solved["y"]


def _known_split(pure, mixed, v) -> tuple[list[int], list[int]]:
    """:func:`_split` of a strategy built from a support: its pure hands and the mixed hands
    whose exact value came out 1 are the ones, the other non-zero mixed hands the rest (sorted,
    as :func:`_split` gives them), without scanning every entry."""
    ones = set(pure)
    frac = []
    for i in mixed:
        e = v[i]
        if e.numerator == e.denominator:
            ones.add(i)
        elif e.numerator:
            frac.append(i)
    return sorted(ones), sorted(frac)


def _play_masks(n: int, split: tuple[list[int], list[int]]) -> tuple[np.ndarray, np.ndarray]:
    """Boolean masks ``v > 0`` and ``v < 1`` of a strategy from its :func:`_split`."""
    ones, frac = split
    positive = np.zeros(n, dtype=bool)
    positive[ones + frac] = True
    below_one = np.ones(n, dtype=bool)
    below_one[ones] = False
    return positive, below_one


# Long on purpose: the certificate's checks in order (bounds, margins, exploitability), each recorded in ``att``.
def _check(ex: ExactPayoffs, att: _Attempt, solved_x, solved_y) -> None:
    """Check the exact solution of ``att.support``: frequencies in [0, 1], every hand's margin
    condition, exploitability exactly 0.  Records the strategies, figures and problems in ``att``."""
    sup, names, n = att.support, ex.names, ex.size
    sm, bm = list(sup.sb_mixed), list(sup.bb_mixed)
    solved = {"x": solved_x, "y": solved_y}
    for who, cols, rows, row_who, col_who, word in (
        ("y", bm, sm, "SB", "BB", "call"),
        ("x", sm, bm, "BB", "SB", "push"),
    ):
        z, free = solved[who]
        att.free += [f"{col_who} {names[cols[c]]}" for c in free]
        for c, v in zip(cols, z):
            if not 0 <= v <= 1:
                over = float(-v if v < 0 else v - 1)
                att.problems.append(
                    (
                        float("inf"),
                        f"{col_who} {names[c]}: the indifference of {row_who}'s mixed hands "
                        f"{[names[i] for i in rows]} needs {word} frequency {_fmt(v)} ({float(v):.6g}), "
                        f"outside [0, 1] by {over:.3g}",
                    )
                )

    zero, one = Fraction(0), Fraction(1)
    xs = [zero] * n
    ys = [zero] * n
    for i in sup.sb_pure:
        xs[i] = one
    for j in sup.bb_pure:
        ys[j] = one
    for i, v in zip(sm, solved_x[0]):
        xs[i] = min(one, max(zero, v))
    for j, v in zip(bm, solved_y[0]):
        ys[j] = min(one, max(zero, v))
    x, y = tuple(xs), tuple(ys)
    fig = _figures(ex, x, y, _known_split(sup.sb_pure, sm, xs), _known_split(sup.bb_pure, bm, ys))
    x_split, y_split = fig.x_split, fig.y_split

    r = ex.r
    # the hands that break a margin condition, found with whole-array sign tests
    x_pos, x_below_1 = _play_masks(n, x_split)
    y_pos, y_below_1 = _play_masks(n, y_split)
    m_num, c_num = fig.m_num, fig.c_num
    sb_bad = np.flatnonzero((x_pos & (m_num < 0)) | (x_below_1 & (m_num > 0)))
    bb_bad = np.flatnonzero((y_pos & (c_num > 0)) | (y_below_1 & (c_num < 0)))
    for i in sb_bad.tolist():
        mi = int(m_num[i])
        m = Fraction(mi, fig.m_den)
        per = float(m / r[i])
        what = "loses" if mi < 0 else "gains"
        att.problems.append(
            (
                abs(per),
                f"SB {names[i]}: pushed with frequency {_fmt(x[i])} but shoving {what} "
                f"{abs(per):.6g} bb per hand held (margin {_fmt(m)})",
            )
        )
    for j in bb_bad.tolist():
        cj = int(c_num[j])
        c = Fraction(cj, fig.c_den)
        per = float(c / r[j])
        what = "loses" if cj > 0 else "gains"
        att.problems.append(
            (
                abs(per),
                f"BB {names[j]}: calls with frequency {_fmt(y[j])} but calling {what} "
                f"{abs(per):.6g} bb per hand held (margin {_fmt(-c)})",
            )
        )
    if not att.problems:
        expl = fig.sb_br - fig.bb_br
        if expl != 0 or fig.value != fig.sb_br:
            att.problems.append(
                (float("inf"), f"exact exploitability is {_fmt(expl)}, not 0 (value {_fmt(fig.value)})")
            )
    att.x, att.y, att.fig = x, y, fig
    att.ok = not att.problems


# Long on purpose: the attempts in order of cost, each commented where it starts.
def certify(game: PushFoldGame, solution: Solution) -> Solution:
    """An exact rational equilibrium near ``solution``, proven in exact arithmetic.

    Returns a new :class:`~sflp.core.game.Solution` with ``certified=True``, the exact strategies
    (``sb_exact`` / ``bb_exact``), the exact value ``value_exact`` and a summary in
    ``extra["certificate"]``; raises :class:`~sflp.errors.CertificateError` when no support read
    off the float solution yields a certified equilibrium.
    """
    t0 = time.perf_counter()
    if solution.level != game.level:
        raise CertificateError(f"solution is at {solution.level} level but the game at {game.level} level")
    if solution.config != game.config:
        raise CertificateError(f"solution is for {solution.config}, the game is {game.config}")
    x_float = np.asarray(solution.sb_strategy, dtype=np.float64)
    y_float = np.asarray(solution.bb_strategy, dtype=np.float64)
    for who, s in (("SB", x_float), ("BB", y_float)):
        if s.shape != (game.size,):
            raise CertificateError(f"{who} strategy has shape {s.shape}, expected ({game.size},)")
        if not np.all(np.isfinite(s)):
            raise CertificateError(f"{who} strategy has non-finite entries")
    ex = exact_payoffs(game)  # checked against the game's float matrices (once per structure)

    attempts = []
    for label, sup in _candidate_supports(game, x_float, y_float):
        att = _try_support(ex, x_float, y_float, label, sup)
        attempts.append(att)
        if att.ok:
            break
    else:
        first = attempts[0]
        others = "; ".join(f"[{a.label}] {a.reason(2)}" for a in attempts[1:])
        raise CertificateError(
            f"cannot certify the equilibrium of {game.config} at {game.level} level: "
            f"[support {first.label}] {first.reason()}"
            + (f". Other supports tried: {others}" if others else "")
        )

    assert att.x is not None and att.y is not None and att.fig is not None
    x, y, fig = att.x, att.y, att.fig
    names = ex.names
    xf = _nearest_floats(x, fig.x_split)  # int / int: correctly rounded
    yf = _nearest_floats(y, fig.y_split)
    for arr in (xf, yf):
        arr.setflags(write=False)
    seconds = time.perf_counter() - t0
    summary = {
        "sb_mixed": {names[i]: str(x[i]) for i in fig.x_split[1]},
        "bb_mixed": {names[j]: str(y[j]) for j in fig.y_split[1]},
        "value": str(fig.value),
        "exploitability": str(fig.sb_br - fig.bb_br),
        "support": att.label,
        "supports_tried": len(attempts),
        "free_variables": list(att.free),
        "seconds": seconds,
    }
    sb_ev, bb_ev = exact_evs(ex, x, fig)
    # every published number is the nearest float of its exact value, so no solver, BLAS or
    # platform can change a digit of it
    return dataclasses.replace(
        solution,
        sb_strategy=xf,
        bb_strategy=yf,
        value=float(fig.value),
        value_exact=fig.value,
        sb_exact=x,
        bb_exact=y,
        certified=True,
        exploitability=float(fig.sb_br - fig.bb_br),  # exactly 0, proven above
        sb_ev=sb_ev,
        bb_ev=bb_ev,
        extra={**solution.extra, "certificate": summary},
    )


def _nearest_floats(v: Sequence[Fraction], split: tuple[list[int], list[int]]) -> np.ndarray:
    """The nearest float of every entry (0, 1, or ``int / int`` -- correctly rounded -- for the rest)."""
    out = np.zeros(len(v))
    ones, frac = split
    out[ones] = 1.0
    for i in frac:
        out[i] = v[i].numerator / v[i].denominator
    return out
