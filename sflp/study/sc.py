r"""Sklansky–Chubukov numbers, exactly: how deep SB can shove a hand face up.

The question (Sklansky and Chubukov, *No Limit Hold'em: Theory and Practice*): SB shoves hand
``i`` and BB **knows SB's exact two cards**; BB calls with exactly the hands for which calling
beats folding.  Up to which stack is the shove still at least as good as folding?

The computation
---------------
Fix one combo ``c`` of the class (every combo of a class gives the same answer, by suit symmetry)
and the game of :mod:`sflp.core.game` (stack ``S`` before posting, blinds ``sb``/``bb``, ante ``a``,
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
counts as profitable); it is an exact :class:`~fractions.Fraction`.  ``None`` means unbounded (BB
folds everything at large stacks, as against ``AA``: then ``EV(S) -> G > F``).  ``never`` means the
shove loses at every legal stack (``S >= bb + a + A``).  Because ``EV`` is concave the profitable
stacks form one interval; ``from_stack`` is the smallest legal stack when the shove is profitable
there, else None -- which happens only when it is ``never`` profitable (shown below).

How it is computed exactly, and fast.  With board counts ``w, t, l`` (``B = w + t + l``), put
``u = w - l``, ``v = 2l + t`` and ``phi_d(S) = 2B*(C_d(S) - G) = 2*u*S + A*v - 2*B*G``: BB calls
``d`` iff ``phi_d(S) < 0``.  Then ``EV(S) >= F`` iff

    h(S) = sum_d max(0, -phi_d(S)) <= K = 2 * 1225 * B * (G - F),

and ``h`` (BB's total gain from calling, times ``2B``) is convex and piecewise linear.

* At the smallest stack ``S = G`` every call is all in and ``phi_d(G) = (A - 2G)*v <= 0``, so
  ``h(G) = (2G - A) * sum_d v``: one exact comparison decides whether the shove is profitable
  there.  If it is not, ``(2G - A) * sum v > K > 2nBG >= (2G - A)*nB`` gives ``sum v > nB``, i.e.
  ``sum l > sum w``: then ``h``'s right slope at ``G``, ``-2 * sum u``, is positive, ``h`` only rises
  and the shove is ``never`` profitable.
* No ``u < 0`` (no BB combo ahead of SB's): ``h`` never rises, so the number is unbounded.
* Otherwise the SC number is the root of ``h = K`` where ``h`` rises.  Newton's method from the
  right in floats, for all hands at once, finds the linear piece it lies on (for a convex ``h`` the
  iterates stay right of the root and each lands on a new piece); the piece's root is solved as a
  Fraction and then *proven*: the sign of every ``phi_d`` at it is taken from floats where the
  rounding error (a few units in the last place of the terms' size, allowed 1e-12 of it) cannot
  flip it, and from exact Fractions where it could.  The root stands when the called set of the
  piece agrees with those signs (so ``h(root) = K`` exactly) and ``h`` rises right after it.  A hand
  that fails the proof is corrected by exact Newton steps, and failing that solved by an all-integer
  path (it does not happen with the games tried; the tests run both paths).

All of this runs with the big blind as the unit (every chip amount, and so the number, scales
alike), which keeps the floats well scaled however large or small the blinds.

Stacks are in big blinds **before posting**, as everywhere in sflp.  Tables that count the stack
after posting the small blind differ by ``sb`` (0.5 bb); tables in small-blind units by a factor 2.

>>> from sflp.core.game import GameConfig
>>> sc = sc_numbers(GameConfig(stack=10))
>>> sc["AA"].unbounded, round(float(sc["72o"].stack), 6) < round(float(sc["AKo"].stack), 6)
(True, True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from math import lcm

import numpy as np

from sflp import checks
from sflp.core.cards import CLASS_COMBOS, CLASS_NAMES, COMBO_DISJOINT
from sflp.core.equity import BOARDS_PER_PAIR, EquityTable, table_arg
from sflp.core.game import GameConfig
from sflp.core.payoff import terminal_payoffs
from sflp.errors import SolveError

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
        """``"19.334520"``, ``"inf"`` or ``"-"`` (never profitable); ``%g`` style from 1e20 bb
        (:func:`sflp.checks.number_text`)."""
        if self.unbounded:
            return "inf"
        if self.never:
            return "-"
        return checks.number_text(self.stack, ".6f")

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


def _payoff_terms(ex: dict[str, Fraction]) -> tuple[Fraction, Fraction, Fraction]:
    """``(F, G, A)`` of the module docstring, read from the one payoff home (:mod:`sflp.core.payoff`):
    SB's fold, the steal, and the dead money the showdown's constant part pays back.

    The proofs of this module use the showdown's shape ``C_d(S) = S*w - (S - A)*l + (A/2)*t``; the
    home is checked to still have it, so a change of the rules fails here loudly instead of
    giving wrong numbers."""
    t = terminal_payoffs(ex)
    A = t["lose"].constant
    shape = (t["win"], t["lose"].per_stack, t["tie"], t["steal"].per_stack)
    if shape != ((0, 1), -1, (A / 2, 0), 0) or t["steal"].constant != _min_stack(ex):
        raise SolveError(f"the SC computation assumes the showdown payoffs S, -(S - A), A/2 and a steal "
                         f"equal to the smallest stack; the game has {t}")
    return t["fold"].constant, t["steal"].constant, A


def _min_stack(ex: dict[str, Fraction]) -> Fraction:
    """The smallest legal stack: the big blind and both antes (a rule of the game, not a payoff)."""
    return ex["big_blind"] + ex["ante"] + ex["bb_ante"]


def _hand_sc_exact(name: str, combo: int, ex: dict[str, Fraction], table: EquityTable) -> SCNumber:
    """One hand with Python integers throughout: the fallback of :func:`sc_numbers` for a hand
    its fast path cannot prove (the tests also run it against the fast path)."""
    ds = np.flatnonzero(COMBO_DISJOINT[combo])
    n = len(ds)
    w = table.wins[combo, ds].astype(np.int64)
    t = table.ties[combo, ds].astype(np.int64)
    l = BOARDS_PER_PAIR - w - t
    F, G, A = _payoff_terms(ex)
    s_min = _min_stack(ex)
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


def _float(x: Fraction) -> float:
    """``float(x)``, infinite beyond the float range (the exact checks then decide)."""
    try:
        return float(x)
    except OverflowError:
        return math.inf if x > 0 else -math.inf


class _Game:
    """The numbers of the module docstring's ``h`` for every class at once.

    ``u[i, d] = w - l`` and ``v[i, d] = 2l + t`` (board counts of class ``i``'s first combo against
    its ``d``-th disjoint BB combo), so that ``phi_d(S) = 2*u*S + A*v - 2BG``; ``K`` as in the
    docstring; float copies for the search and the error bounds.
    """

    def __init__(self, ex: dict[str, Fraction], table: EquityTable):
        combos = np.array([c[0] for c in CLASS_COMBOS], dtype=np.int64)
        ds = np.nonzero(COMBO_DISJOINT[combos])[1].reshape(len(combos), -1)
        w = table.wins[combos[:, None], ds].astype(np.int64)
        t = table.ties[combos[:, None], ds].astype(np.int64)
        self.u = 2 * w + t - BOARDS_PER_PAIR
        self.v = 2 * BOARDS_PER_PAIR - 2 * w - t
        self.n = ds.shape[1]
        self.F, self.G, self.A = _payoff_terms(ex)
        self.s_min = _min_stack(ex)
        self.two_bg = 2 * BOARDS_PER_PAIR * self.G
        self.K = 2 * self.n * BOARDS_PER_PAIR * (self.G - self.F)
        # R = (2BG*N_C - A*V_C - K) / (2*U_C) over integers: D clears the three denominators
        self.D = lcm(self.two_bg.denominator, self.A.denominator, self.K.denominator)
        self.bg_d, self.a_d, self.k_d = (int(x * self.D) for x in (self.two_bg, self.A, self.K))
        self.uf = self.u.astype(np.float64)
        self.vf = self.v.astype(np.float64)
        self.af, self.bgf, self.kf = _float(self.A), _float(self.two_bg), _float(self.K)

    def root(self, u_sum: int, v_sum: int, count: int) -> Fraction | None:
        """The exact root of ``h = K`` on the piece where exactly the combos summed are called."""
        if u_sum >= 0:
            return None
        return Fraction(self.bg_d * count - self.a_d * v_sum - self.k_d, 2 * u_sum * self.D)

    def signs(self, rows: np.ndarray, points: list[Fraction]) -> tuple[np.ndarray, np.ndarray]:
        """Exact ``phi < 0`` and ``phi == 0`` at ``points[k]`` for the hands ``rows[k]``.

        Floats decide where their rounding error (a few units in the last place of the size of
        the terms, bounded here by 1e-12 of it) cannot flip the sign; Fractions decide the rest.
        """
        u, uf, vf = self.u[rows], self.uf[rows], self.vf[rows]
        with np.errstate(all="ignore"):
            pf = np.array([_float(p) for p in points])[:, None]
            phi = 2.0 * uf * pf + (self.af * vf - self.bgf)
            size = 2.0 * np.abs(uf) * np.abs(pf) + self.af * vf + self.bgf
            sure = (np.abs(phi) > 1e-12 * size) & (size > 1e-280)
        negative = sure & (phi < 0)
        zero = np.zeros_like(negative)
        for r, d in zip(*np.nonzero(~sure)):
            exact = 2 * int(u[r, d]) * points[r] + self.A * int(self.v[rows[r], d]) - self.two_bg
            negative[r, d], zero[r, d] = exact < 0, exact == 0
        return negative, zero

    def sums(self, rows: np.ndarray, mask: np.ndarray) -> tuple[list[int], list[int], list[int]]:
        """``(U, V, N)`` summed over ``mask`` per hand, as Python ints."""
        return (
            (self.u[rows] * mask).sum(axis=1).tolist(),
            (self.v[rows] * mask).sum(axis=1).tolist(),
            mask.sum(axis=1).tolist(),
        )

    def search(self, rows: np.ndarray, max_steps: int = 200) -> np.ndarray:
        """Newton's method from the right on the convex ``h`` (floats), for the hands ``rows``:
        the called set (mask) of the piece each hand's root of ``h = K`` lies on, approximately."""
        uf, cf = self.uf[rows], self.af * self.vf[rows] - self.bgf
        with np.errstate(all="ignore"):
            kinks = np.where(uf != 0, -cf / (2.0 * uf), -np.inf).max(axis=1)
            stack = np.maximum(kinks, _float(self.G)) * 2.0 + 1.0  # right of every kink: h linear
            called = np.zeros(uf.shape, dtype=bool)
            active = np.arange(len(rows))
            for _ in range(max_steps):
                if not len(active):
                    break
                phi = 2.0 * uf[active] * stack[active, None] + cf[active]
                now = phi < 0
                slope = -2.0 * (uf[active] * now).sum(axis=1)
                h = -(phi * now).sum(axis=1)
                step = (h - self.kf) / slope
                settled = (now == called[active]).all(axis=1) | ~(step > 0) | ~(slope > 0)
                called[active] = now
                stack[active] = np.where(settled, stack[active], stack[active] - step)
                active = active[~settled]
        return called

    def proven(self, row: int, mask: np.ndarray, root: Fraction | None, negative, zero) -> bool:
        """Whether ``root`` -- the root of the piece where the combos in ``mask`` are called -- is
        hand ``row``'s SC number, given the exact signs of every ``phi_d(root)``: then ``h(root)``
        from ``mask`` is the true ``h(root) = K`` (``mask`` holds every strictly called combo and
        otherwise only combos indifferent at ``root``), and ``h`` rises right after it."""
        if root is None or (negative & ~mask).any() or (mask & ~negative & ~zero).any():
            return False
        right = negative | (zero & (self.u[row] < 0))  # called just right of the root
        return int(self.u[row][right].sum()) < 0 and root >= self.s_min

    def prove(self, row: int, mask: np.ndarray, tries: int = 8) -> Fraction | None:
        """Exact Newton steps from a wrong candidate piece of hand ``row``: each solves the piece
        right of the last root tried; None if ``tries`` steps do not prove a root."""
        rows = np.array([row])
        for _ in range(tries):
            root = self.root(*(s[0] for s in self.sums(rows, mask[None, :])))
            if root is None:
                return None
            negative, zero = (x[0] for x in self.signs(rows, [root]))
            if self.proven(row, mask, root, negative, zero):
                return root
            mask = negative | (zero & (self.u[row] < 0))
        return None

    def solve(self, rows: np.ndarray) -> list[Fraction | None]:
        """The proven SC numbers of the hands ``rows`` (each profitable at the smallest stack and
        with some BB combo ahead of it), None where the proof fails."""
        if not len(rows):
            return []
        masks = self.search(rows)
        roots = [self.root(*s) for s in zip(*self.sums(rows, masks))]
        points = [Fraction(0) if r is None else r for r in roots]
        negative, zero = self.signs(rows, points)
        out: list[Fraction | None] = []
        for k, row in enumerate(rows.tolist()):
            if self.proven(row, masks[k], roots[k], negative[k], zero[k]):
                out.append(roots[k])
            else:
                out.append(self.prove(row, negative[k] | (zero[k] & (self.u[row] < 0))))
        return out


class SCNumbers(dict):
    """The :class:`SCNumber` of every class by name (a plain ``dict``), and the ``config`` whose
    blinds and antes they belong to (its stack plays no part)."""

    def __init__(self, config: GameConfig, numbers: dict[str, SCNumber]) -> None:
        super().__init__(numbers)
        self.config = config


def sc_numbers(config: GameConfig, table: EquityTable | None = None) -> SCNumbers:
    """The Sklansky–Chubukov number of every class under ``config``'s blinds and antes (its stack is ignored)."""
    checks.instance("config", config, GameConfig, "GameConfig(stack=10)")
    table = table_arg(table)
    exact = config.exact()
    # in big blinds: every chip amount scales the numbers alike, and the floats stay well scaled
    unit = exact["big_blind"]
    ex = {key: value / unit for key, value in exact.items()}
    game = _Game(ex, table)
    s_min = game.s_min * unit
    unbounded = ~(game.u < 0).any(axis=1)  # at large stacks BB calls no hand that beats SB's
    # h(s_min) = (2G - A) * sum_d v_d <= K: profitable at the smallest stack (see the docstring)
    at_min = game.v.sum(axis=1) <= math.floor(game.K / (2 * game.G - game.A))
    rows = np.flatnonzero(~unbounded & at_min)
    roots = dict(zip(rows.tolist(), game.solve(rows)))
    result = {}
    for k, name in enumerate(CLASS_NAMES):
        if unbounded[k]:
            result[name] = SCNumber(name, None, True, False, s_min if at_min[k] else None)
        elif not at_min[k]:
            result[name] = SCNumber(name, None, False, True, None)
        elif roots[k] is not None:
            result[name] = SCNumber(name, roots[k] * unit, False, False, s_min)
        else:
            slow = _hand_sc_exact(name, CLASS_COMBOS[k][0], ex, table)
            result[name] = SCNumber(name, None if slow.stack is None else slow.stack * unit, slow.unbounded,
                                    slow.never, None if slow.from_stack is None else slow.from_stack * unit)
    return SCNumbers(config, result)


def format_text(config: GameConfig, numbers: dict[str, SCNumber], width: int | None = None) -> str:
    """A 13x13 grid of SC numbers (bb, 1 decimal; ``∞`` where shoving face up never loses, as in
    the other media) and the rules.  ``width``: the columns no line may pass (None: no limit);
    below the wide grid's 92 columns the cells are 5 columns (79 in all: whole bb from 1,000 bb,
    and in units of 1e+k bb, stated in the title, from 1e5 bb), and the prose wraps."""
    import textwrap

    from sflp.core.cards import grid_text

    compact = width is not None and width < 92
    top = max((float(numbers[n].stack) for n in CLASS_NAMES if not (numbers[n].unbounded or numbers[n].never)),
              default=0.0)
    k = math.floor(math.log10(top)) if compact and math.isfinite(top) and top >= 99999.5 else 0
    cells = []
    for name in CLASS_NAMES:
        sc = numbers[name]
        if sc.unbounded or sc.never:
            cells.append("\u221e" if sc.unbounded else "-")
        elif k:  # the compact form of stacks of 1e5 bb and more: in units of 1e+k bb, stated below
            cells.append(f"{float(sc.stack) / 10 ** k:.2f}")
        else:
            text = checks.number_text(sc.stack, ".1f", 3)
            cells.append(checks.number_text(sc.stack, ".0f", 3) if compact and len(text) > 5 else text)
    cell = max(5 if compact else 6, *map(len, cells))

    def prose(text: str, indent: str = "") -> list[str]:
        if width is None:
            return [indent + text]
        return textwrap.wrap(text, width, initial_indent=indent, subsequent_indent=indent + " ",
                             break_on_hyphens=False)

    lines = [
        f"Sklansky-Chubukov numbers ({'bb' if not k else f'in units of 1e+{k} bb'}, stack before posting)",
        *prose(f"SB {config.small_blind:g}, BB {config.big_blind:g}, ante {config.ante:g}, BB ante {config.bb_ante:g}"),
        *prose("Largest stack at which shoving face up is at least break-even when BB calls exactly the "
               "hands that profit."),
        grid_text(cells, width=cell, ranks=True),
        *prose("(pairs on the diagonal, suited above, offsuit below; \u221e: any stack; -: never)", "  "),
        "",
        *prose(f"Ties: {TIE_RULE}."),
    ]
    return "\n".join(lines)
