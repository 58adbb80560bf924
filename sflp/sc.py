r"""Sklansky–Chubukov numbers, exactly: how deep SB can shove a hand face up.

The question (Sklansky and Chubukov, *No Limit Hold'em: Theory and Practice*): SB shoves hand
``i`` and BB **knows SB's exact two cards**; BB calls with exactly the hands for which calling
beats folding.  Up to which stack is the shove still at least as good as folding?

The computation
---------------
Fix one combo ``c`` of the class (every combo of a class gives the same answer, by suit symmetry)
and the game of :mod:`sflp.game` (stack ``S`` before posting, blinds ``sb``/``bb``, ante ``a``,
big-blind ante ``A``).  For each of the 1,225 BB combos ``d`` disjoint from ``c``, with
``w, t, l`` SB's exact win/tie/loss probabilities (board counts / 1,712,304), SB's net chips are

* BB folds: ``G = bb + a + A``;
* BB calls: ``C_d(S) = S*w - (S - A)*l + (A/2)*t``, affine in ``S``.

BB's net is the negative, so BB calls ``d`` **iff ``C_d(S) < G`` strictly** (calling must profit;
when BB is indifferent it folds, and since the game is zero-sum SB's EV is the same either way, so
the rule changes no number).  SB's EV of the face-up shove is

    EV(S) = (1/1225) * sum_d min(G, C_d(S)),

a concave piecewise-linear function of ``S`` (breakpoints where some ``C_d(S) = G``), and folding
is worth ``F = -(sb + a)``.  The **SC number** is the largest ``S`` with ``EV(S) >= F`` (break-even
counts as profitable).  On the linear piece that contains it, ``EV(S) = F`` is one linear equation
with rational coefficients, so the number is an exact :class:`~fractions.Fraction`; it is found by
evaluating ``EV`` at every breakpoint (floats) to pick the piece, then solving and checking that
piece in exact arithmetic.  ``None`` means unbounded (BB folds everything at large stacks, as
against ``AA``: then ``EV(S) -> G > F``).  ``never`` means the shove loses at every legal stack
(``S >= bb + a + A``).  Because ``EV`` is concave the profitable stacks form one interval;
``from_stack`` is the smallest legal stack when the shove is profitable there (it is for every
hand in the usual games), else None (the interval then starts higher).

Stacks are in big blinds **before posting**, as everywhere in sflp.  Tables that count the stack
after posting the small blind differ by ``sb`` (0.5 bb); tables in small-blind units by a factor 2.

>>> from sflp.game import GameConfig
>>> sc = sc_numbers(GameConfig(stack=10))
>>> sc["AA"].unbounded, round(float(sc["72o"].stack), 6) < round(float(sc["AKo"].stack), 6)
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import lcm

import numpy as np

from sflp.cards import CLASS_COMBOS, CLASS_NAMES, COMBO_DISJOINT
from sflp.equity import BOARDS_PER_PAIR, EquityTable, load_table
from sflp.errors import SolveError
from sflp.game import GameConfig

TIE_RULE = (
    "BB calls only when calling strictly beats folding (indifferent: folds; SB's EV is the same "
    "either way); SB's shove counts when EV(shove) >= EV(fold) (break-even included)"
)


@dataclass(frozen=True)
class SCNumber:
    """One hand's Sklansky–Chubukov number (stack in bb before posting); see the module docstring."""

    hand: str
    stack: Fraction | None
    unbounded: bool
    never: bool
    from_stack: Fraction | None

    def label(self) -> str:
        """``"19.334520"``, ``"inf"`` or ``"-"`` (never profitable)."""
        if self.unbounded:
            return "inf"
        if self.never:
            return "-"
        return f"{float(self.stack):.6f}"

    def to_dict(self) -> dict:
        def text(v):
            return None if v is None else f"{v.numerator}/{v.denominator}"

        return {
            "hand": self.hand,
            "sc": None if self.stack is None else float(self.stack),
            "sc_exact": text(self.stack),
            "unbounded": self.unbounded,
            "never": self.never,
            "from_stack": None if self.from_stack is None else float(self.from_stack),
        }


def _hand_sc(name: str, combo: int, ex: dict[str, Fraction], table: EquityTable) -> SCNumber:
    ds = np.flatnonzero(COMBO_DISJOINT[combo])
    n = len(ds)
    w = table.wins[combo, ds].astype(np.int64)
    t = table.ties[combo, ds].astype(np.int64)
    l = BOARDS_PER_PAIR - w - t
    A = ex["bb_ante"]
    G = ex["big_blind"] + ex["ante"] + A
    F = -(ex["small_blind"] + ex["ante"])
    s_min = ex["big_blind"] + ex["ante"] + A
    # Integers: with M = 2 * B * Q (Q clears every denominator), C_d(S) * M = S*slope_d + inter_d.
    Q = lcm(A.denominator, G.denominator, F.denominator)
    slope = np.array([2 * Q * int(v) for v in (w - l)], dtype=object)
    inter = np.array([int(Q * A) * int(v) for v in (2 * l + t)], dtype=object)
    GM = int(2 * BOARDS_PER_PAIR * Q * G)
    FM = int(2 * BOARDS_PER_PAIR * Q * F)

    def total(S: Fraction) -> int:
        """``q * n * M * EV(S)`` for ``S = p/q``, compared with ``q * n * FM``."""
        p, q = S.numerator, S.denominator
        return int(np.minimum(GM * q, slope * p + inter * q).sum())

    def profitable(S: Fraction) -> bool:
        return total(S) >= n * FM * S.denominator

    if not any(v < 0 for v in slope):  # at large stacks BB calls no hand that beats SB's
        return SCNumber(name, None, True, False, s_min if profitable(s_min) else None)
    sf, cf = slope.astype(np.float64), inter.astype(np.float64)
    nz = sf != 0
    bps = np.unique((GM - cf[nz]) / sf[nz])
    points = np.concatenate(([float(s_min)], bps[bps > float(s_min)]))
    values = np.minimum(float(GM), np.outer(points, sf) + cf).sum(axis=1) / n
    ok = np.flatnonzero(values >= FM - 1e-9 * abs(FM))
    if len(ok) == 0:
        return SCNumber(name, None, False, True, None)
    for k in (int(ok[-1]), int(ok[-1]) - 1, int(ok[-1]) + 1):
        if not 0 <= k < len(points):
            continue
        probe = points[k] + 1.0 if k + 1 == len(points) else (points[k] + points[k + 1]) / 2
        called = sf * probe + cf < GM
        s_called = int(slope[called].sum())
        if s_called >= 0:
            continue
        i_called = int(inter[called].sum())
        root = Fraction(n * FM - (n - int(called.sum())) * GM - i_called, s_called)
        if root < s_min or total(root) != n * FM * root.denominator:
            continue
        # the largest root: EV must fall right after it (concave), i.e. the right slope is < 0
        p, q = root.numerator, root.denominator
        at = slope * p + inter * q
        right = np.array([(v < GM * q) or (v == GM * q and k_ < 0) for v, k_ in zip(at, slope)])
        if int(slope[right].sum()) < 0:
            return SCNumber(name, root, False, False, s_min if profitable(s_min) else None)
    raise SolveError(f"could not bracket the Sklansky-Chubukov number of {name}")


def sc_numbers(config: GameConfig, table: EquityTable | None = None) -> dict[str, SCNumber]:
    """The Sklansky–Chubukov number of every class under ``config``'s blinds and antes (its stack is ignored)."""
    table = table or load_table()
    ex = config.exact()
    return {name: _hand_sc(name, CLASS_COMBOS[k][0], ex, table) for k, name in enumerate(CLASS_NAMES)}


def format_text(config: GameConfig, numbers: dict[str, SCNumber]) -> str:
    """A 13x13 grid of SC numbers (bb, 1 decimal) and the sorted list with 6 decimals."""
    from sflp.cards import grid_text

    cells = []
    for name in CLASS_NAMES:
        sc = numbers[name]
        cells.append("inf" if sc.unbounded else "-" if sc.never else f"{float(sc.stack):.1f}")
    lines = [
        f"Sklansky-Chubukov numbers (bb, stack before posting): SB {config.small_blind:g}, BB "
        f"{config.big_blind:g}, ante {config.ante:g}, BB ante {config.bb_ante:g}",
        "Largest stack at which shoving face up is at least break-even when BB calls exactly the hands that profit.",
        grid_text(cells, width=6),
        "",
        f"Ties: {TIE_RULE}.",
    ]
    return "\n".join(lines)
