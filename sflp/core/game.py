r"""The heads-up push/fold game: configuration, payoffs, best responses, exploitability.

Why one module: it is one piece, though over 600 lines: the configuration, the payoff matrices, the best
responses and the :class:`Solution` they score are the one model written out below, and every
floor imports :class:`GameConfig` and :class:`Solution` from here.

Rules and payoffs
-----------------
Both players start the hand with ``S`` (``stack``) counted **before posting**.  Each posts an
``ante`` ``a`` (dead money); the big blind also posts the ``bb_ante`` ``A`` (dead).  SB posts the
small blind ``sb``, BB the big blind ``bb`` (live: they count toward the all-in).  SB either folds
or shoves all-in; facing a shove BB calls or folds.  A board of five is dealt, the best hand
wins, ties split the pot, and chips that the other player could not match return to their
owner.  Live stacks are ``S - a`` (SB) and ``S - a - A`` (BB), so the matched all-in amount is
``M = S - a - A`` and the pot at showdown is ``2M + 2a + A``.

SB's net chip change at each terminal node (BB's is its negative: the game is zero-sum):

=============================  ==========================================
SB folds                       ``-(sb + a)``
SB shoves, BB folds            ``+(bb + a + A)``
both all-in, SB wins           ``+(M + a + A) = +S``
both all-in, SB loses          ``-(M + a)     = -(S - A)``
both all-in, tie               ``+A/2``  (half the pot minus SB's ``M + a``)
=============================  ==========================================

With no antes the showdown is simply ``+S`` / ``-S`` / ``0``.  These payoffs are stated in one
place, :mod:`sflp.core.payoff`; the matrices below are built from it (:func:`build_payoffs`).

Strategies and the value
------------------------
SB plays ``x`` (push frequency per hand) and BB ``y`` (call frequency facing a shove).  Hands are
the 169 classes (or the 1,326 combos).  The probability that SB holds ``i`` and BB ``j`` is
``P[i,j] = pairs[i,j] / (1326 * 1225)`` (card removal), and ``r[i] = sum_j P[i,j]`` is the
probability that SB holds ``i``.  Write ``f = -(sb + a)``, ``g = bb + a + A`` and

    K[i,j] = (S*W[i,j] - (S-A)*L[i,j] + (A/2)*T[i,j]) / (1326*1225*1,712,304) - g*P[i,j]

with ``W, T, L`` the summed win/tie/loss board counts.  Then SB's value (expected net chips per
hand, in the units of the blinds) is bilinear:

    V(x, y) = f + (g - f) * r.x + x' K y.

* SB's margin of hand ``i`` (shove minus fold, as a share of the whole game) is
  ``m[i] = r[i]*(g - f) + (K y)[i]``; per hand held it is ``m[i] / r[i]``.
* BB's margin of hand ``j`` (call minus fold) is ``-(K' x)[j]``; per hand facing a shove it is
  that divided by ``(P' x)[j]``, the probability of holding ``j`` and facing a shove.
* SB's best response value is ``f + sum_i max(0, m[i])``; BB's is ``f + (g-f) r.x + sum_j min(0,
  (K'x)[j])``.  ``exploitability(x, y)`` is the first minus the second: ``>= 0``, and ``0``
  exactly at an equilibrium.  Nothing here calls a solver.

>>> game = PushFoldGame(GameConfig(stack=10))
>>> push_all, call_all = np.ones(169), np.ones(169)
>>> abs(game.value(push_all, call_all)) < 1e-12   # random vs random all-in: zero by symmetry
True
>>> round(game.value(np.zeros(169), call_all), 12)
-0.5
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

import numpy as np

from sflp import checks
from sflp.core.cards import CLASS_NAMES, N_CLASSES, N_COMBOS, combo_name
from sflp.core.equity import BOARDS_PER_PAIR, EquityTable, table_arg
from sflp.core.payoff import to_fraction  # noqa: F401 - the exact reading of a number lives with the payoffs
from sflp.errors import ConfigError

DEALS = N_COMBOS * 1225
"""Ordered deals of two disjoint combos: 1,326 * 1,225 = 1,624,350."""

MIN_AMOUNT = 1e-100
"""The smallest blind or ante (bb) of a game sflp solves (:func:`check_amounts`); an ante may also
be 0.  Below it the float payoffs (an amount times a deal probability of about 1e-13) would fall
out of the normal floats, and the exact numbers would carry denominators of hundreds of digits,
for no difference a player could see: a blind or ante of 1e-300 bb gave an ``OverflowError``."""

MAX_AMOUNT = 1e100
"""The largest blind or ante (bb) of a game sflp solves (:func:`check_amounts`).  The showdown
matrix sums an amount times up to 2.5e8 board counts before scaling, so amounts past about 1e299
overflow the floats; this bound keeps that out of reach with room to spare.  (The stack has no
bound of its own but the floats': past :data:`sflp.solving.solver.LP_STACK_LIMIT` pots it is
solved by carrying the LP's support up.)"""


def check_amounts(config: GameConfig) -> None:
    """The one domain check of the float game (its payoff matrices, so every solve, chart, verify,
    exploit and simulation): each blind and ante is 0 (antes only) or between :data:`MIN_AMOUNT`
    and :data:`MAX_AMOUNT` bb, else sflp's error naming the option and the bounds.  A
    :class:`GameConfig` itself takes any positive amount, since the exact computations that need
    no floats (Sklansky-Chubukov numbers) hold at any scale.

    >>> check_amounts(GameConfig(stack=10, small_blind=1e-300))
    Traceback (most recent call last):
    ...
    sflp.errors.ConfigError: small_blind=1e-300 (--small-blind) is below 1e-100 bb, the smallest blind or ante sflp \
solves (blinds and antes go from 1e-100 to 1e+100 bb; an ante may also be 0)
    """
    if config.__dict__.get("_scaled_copy"):  # GameConfig.scaled checked the game it copies
        return
    for name in ("small_blind", "big_blind", "ante", "bb_ante"):
        value = getattr(config, name)
        if value == 0:
            continue
        number = float(value)  # a positive Fraction below the floats is 0.0, below the bound too
        if not MIN_AMOUNT <= number <= MAX_AMOUNT:
            low = number < MIN_AMOUNT
            where = f"below {MIN_AMOUNT:g} bb, the smallest" if low else f"above {MAX_AMOUNT:g} bb, the largest"
            raise ConfigError(
                f"{name}={checks.short(value)} (--{name.replace('_', '-')}) is {where} blind or ante sflp solves "
                f"(blinds and antes go from {MIN_AMOUNT:g} to {MAX_AMOUNT:g} bb; an ante may also be 0)"
            )


def min_stack(big_blind: float = 1.0, ante: float = 0.0, bb_ante: float = 0.0) -> float:
    """The smallest stack that covers the big blind and the antes: their exact sum as a float, or
    the next float up when the nearest one falls below the sum (:class:`GameConfig` compares
    exactly, reading a float by its shortest decimal, so the stack this returns is always valid).

    >>> min_stack(1, 0.1, 0.2), min_stack(bb_ante=1), min_stack(1, 1e6)
    (1.3, 2.0, 1000001.0)
    >>> min_stack(1, 0.1343642441124012)   # the float nearest 1.1343642441124012 is below it
    1.1343642441124013
    """
    need = exact_min_stack(big_blind, ante, bb_ante)
    stack = float(need)
    while to_fraction(stack) < need:
        stack = math.nextafter(stack, math.inf)
    return stack


def exact_min_stack(big_blind: float = 1.0, ante: float = 0.0, bb_ante: float = 0.0) -> Fraction:
    """:func:`min_stack` as an exact fraction (each number read by its shortest decimal)."""
    return to_fraction(big_blind) + to_fraction(ante) + to_fraction(bb_ante)


def _decimal(value: Fraction) -> str:
    """An exact decimal fraction (blinds and antes read by their shortest decimals sum to one) as
    text, every digit kept; anything else by its float.

    >>> _decimal(Fraction(11343642441124012, 10**16)), _decimal(Fraction(3, 2)), _decimal(Fraction(1, 3))
    ('1.1343642441124012', '1.5', '0.3333333333333333')
    """
    digits = 0
    while (value * 10**digits).denominator != 1:
        digits += 1
        if digits > 400:
            return repr(float(value))
    whole = value * 10**digits
    text = str(abs(whole.numerator)).rjust(digits + 1, "0")
    sign = "-" if value < 0 else ""
    return sign + (f"{text[:-digits]}.{text[-digits:]}" if digits else text)


def stack_text(stack: float) -> str:
    """A stack as the CLI takes it back exactly: the float's shortest decimal, without a trailing ``.0``.

    >>> stack_text(1000001.0), stack_text(1.1234567891), stack_text(2e+16)
    ('1000001', '1.1234567891', '2e+16')
    """
    text = repr(float(stack))
    return text[:-2] if text.endswith(".0") else text


DEFAULT_TOP, DEFAULT_STEP = 25.0, 0.05
"""The default chart range is ``1:25:0.05`` (from the first stack that covers the blinds and antes)."""


def stacks_hint(big_blind: float = 1.0, ante: float = 0.0, bb_ante: float = 0.0) -> str:
    """A ``START:STOP:STEP`` range valid for ``--stacks`` under these blinds and antes: the default
    range (``1:25:0.05``, from :func:`min_stack` on when that is above 1 bb), or, when the blinds
    and antes pass 25 bb, the default range scaled by :func:`min_stack` (``S:25S:S/20``, 481
    stacks: the same chart in units of what BB posts).  Every hint sflp prints about ``--stacks``
    comes from here.

    >>> stacks_hint(), stacks_hint(ante=0.125), stacks_hint(big_blind=0.5), stacks_hint(ante=1e6)
    ('1:25:0.05', '1.125:25:0.05', '1:25:0.05', '1000001:25000025:50000.05')
    """
    start = max(1.0, min_stack(big_blind, ante, bb_ante))
    if start <= DEFAULT_TOP:
        return f"{stack_text(start)}:{stack_text(DEFAULT_TOP)}:{stack_text(DEFAULT_STEP)}"
    exact = to_fraction(start)
    stop, step = float(exact * int(DEFAULT_TOP)), float(exact * to_fraction(DEFAULT_STEP))
    return f"{stack_text(start)}:{stack_text(stop)}:{stack_text(step)}"


def default_stacks(
    big_blind: float = 1.0, ante: float = 0.0, bb_ante: float = 0.0, low: float = 1.0, high: float = DEFAULT_TOP,
    step: float = DEFAULT_STEP,
) -> list[float]:
    """The default chart stacks ``low:high:step`` for a blind structure, starting at the first
    stack that covers the big blind and antes when ``low`` does not: that stack itself, then the
    grid points above it.

    >>> default_stacks()[:3], len(default_stacks())
    ([1.0, 1.05, 1.1], 481)
    >>> default_stacks(ante=0.125)[:3], default_stacks(bb_ante=1)[:2]
    ([1.125, 1.15, 1.2], [2.0, 2.05])
    """
    start, stop, inc = to_fraction(low), to_fraction(high), to_fraction(step)
    first = min_stack(big_blind, ante, bb_ante)
    floor = to_fraction(first)
    if floor > stop:
        raise ConfigError(
            f"the big blind and antes ({stack_text(first)} bb) exceed the default top stack {float(stop):g} bb: "
            f"give --stacks, e.g. --stacks {stacks_hint(big_blind, ante, bb_ante)}"
        )
    grid = [start + k * inc for k in range(int((stop - start) / inc) + 1)]
    if floor <= start:
        return [float(s) for s in grid]
    return [first] + [float(s) for s in grid if s > floor]


def stacks_from(stacks, first: float) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """``(kept, left_out)`` of the increasing stacks ``stacks`` and ``first``, a structure's
    smallest stack (:func:`min_stack`): ``kept`` is the grid from ``first`` on -- ``first`` itself
    when it is above the grid's start, then the grid stacks above it (the rule of
    :func:`default_stacks`; ``stacks`` itself when ``first`` does not cut it) -- and ``left_out``
    the stacks below ``first``, which cannot cover the big blind and antes.  ``sflp chart`` and
    ``sflp atlas`` both start a structure so.

    >>> stacks_from((1.0, 1.05, 1.1, 1.15, 1.2), 1.125)
    ((1.125, 1.15, 1.2), (1.0, 1.05, 1.1))
    >>> stacks_from((2.0, 3.0), 1.5)
    ((2.0, 3.0), ())
    """
    import bisect

    if first <= stacks[0]:
        return (stacks if isinstance(stacks, tuple) else tuple(stacks)), ()
    return (first, *stacks[bisect.bisect_right(stacks, first):]), tuple(stacks[:bisect.bisect_left(stacks, first)])


def left_out_note(left_out, first: float, option: str = "--stacks") -> str:
    """The stderr note of :func:`stacks_from`'s ``left_out`` (no silent subset): how many, which
    (the first few), why, and where the structure starts instead."""
    shown = ", ".join(stack_text(x) for x in left_out[:5]) + (", ..." if len(left_out) > 5 else "")
    return (f"{option}: {len(left_out)} stack{'s' if len(left_out) != 1 else ''} below {stack_text(first)} bb "
            f"({shown}) cannot cover the big blind and antes: left out, the chart starts at {stack_text(first)} bb")


def check_stacks(stacks, config: GameConfig, option: str = "--stacks") -> None:
    """Every stack of a sweep covers ``config``'s big blind and antes, else a ConfigError that
    names the first bad stack and suggests a valid range (:func:`stacks_hint`).  Of checked
    :class:`~sflp.checks.Stacks` (increasing) only the first is compared."""
    first = config.min_stack
    low = [s for s in (stacks[:1] if isinstance(stacks, checks.Stacks) else stacks) if s < first]
    if low:
        raise ConfigError(
            f"{option}: stack {stack_text(low[0])} bb cannot cover the big blind and antes "
            f"({_decimal(exact_min_stack(config.big_blind, config.ante, config.bb_ante))} bb in all); start at "
            f"{stack_text(first)} bb or above, e.g. "
            f"{option} {stacks_hint(config.big_blind, config.ante, config.bb_ante)}"
        )


@dataclass(frozen=True)
class GameConfig:
    """A push/fold game: ``stack`` (before posting), blinds and antes, all in big blinds.

    >>> GameConfig(stack=10, ante=0.125).min_stack
    1.125
    >>> GameConfig(stack=0.4)
    Traceback (most recent call last):
    ...
    sflp.errors.ConfigError: stack=0.4 cannot cover the big blind and antes (1 in all): the smallest stack is 1
    """

    stack: float
    small_blind: float = 0.5
    big_blind: float = 1.0
    ante: float = 0.0
    bb_ante: float = 0.0

    def __post_init__(self) -> None:
        for name in ("stack", "small_blind", "big_blind", "ante", "bb_ante"):
            value = getattr(self, name)
            # the one number check (sflp.checks): a real number, finite, in range
            number = checks.real(name, value, positive=name in ("stack", "small_blind", "big_blind"),
                                 low=0 if name in ("ante", "bb_ante") else None)
            if isinstance(value, Decimal):  # to_fraction() reads floats by their shortest decimal
                object.__setattr__(self, name, number)
        if self.small_blind > self.big_blind:
            raise ConfigError(
                f"small_blind={self.small_blind!r} is larger than big_blind={self.big_blind!r}"
            )
        self._check_covers()

    def _check_covers(self) -> None:
        """The stack covers the big blind and antes, compared exactly (a Fraction stack of 11/10
        covers 1 + 1/10, though the float 1.1 is larger); the exact sums are formed only when the
        float comparison is close."""
        stack = float(self.stack)
        rough = float(self.big_blind) + float(self.ante) + float(self.bb_ante)
        if stack > rough * (1 + 1e-9):
            return
        need = exact_min_stack(self.big_blind, self.ante, self.bb_ante)  # 1 + 0.1 + 0.2 is 1.3
        if to_fraction(self.stack) < need:
            raise ConfigError(
                f"stack={checks.short(self.stack)} cannot cover the big blind and antes ({_decimal(need)} in all): "
                f"the smallest stack is {stack_text(min_stack(self.big_blind, self.ante, self.bb_ante))}"
            )

    def with_stack(self, stack: float) -> GameConfig:
        """The same blinds and antes at another stack (only the new stack is checked)."""
        new = object.__new__(GameConfig)
        number = checks.real("stack", stack, positive=True)
        for name in ("small_blind", "big_blind", "ante", "bb_ante"):
            object.__setattr__(new, name, getattr(self, name))
        object.__setattr__(new, "stack", number if isinstance(stack, Decimal) else stack)
        if self.__dict__.get("_scaled_copy"):  # the float game of a checked game, in other units
            object.__setattr__(new, "_scaled_copy", True)
        else:
            new._check_covers()
        return new

    @property
    def min_stack(self) -> float:
        """The smallest valid stack of this blind structure: big blind + ante + BB ante.

        >>> GameConfig(stack=10, ante=0.125).min_stack
        1.125
        """
        return min_stack(self.big_blind, self.ante, self.bb_ante)

    @property
    def pot(self) -> float:
        """The pot before anyone acts (both blinds, both antes and the BB ante), in bb.

        >>> GameConfig(stack=10, ante=0.125, bb_ante=0.25).pot
        2.0
        """
        return float(self.small_blind) + float(self.big_blind) + 2 * float(self.ante) + float(self.bb_ante)

    def scaled(self, factor: float) -> GameConfig:
        """The same game with every amount (stack, blinds, antes) times ``factor``, a power of two:
        by homogeneity every stack, threshold and value of it is this game's times ``factor``, and
        every float of its float game is this one's times ``factor`` exactly.  This game is checked
        (:func:`check_amounts`); the copy is not checked again (its amounts may leave the stated
        domain, as units change, while the game stays the same), and it is a float game only: its
        numbers read as decimals are not exactly this game's, so nothing exact is computed on it.

        >>> GameConfig(stack=10, ante=0.125).scaled(2.0)
        GameConfig(stack=20.0, small_blind=1.0, big_blind=2.0, ante=0.25, bb_ante=0.0)
        """
        mantissa, _ = math.frexp(factor)
        if mantissa != 0.5:
            raise ConfigError(f"factor={factor!r}: scaled takes a power of two (the floats stay exact)")
        check_amounts(self)
        new = object.__new__(GameConfig)
        for name in ("stack", "small_blind", "big_blind", "ante", "bb_ante"):
            object.__setattr__(new, name, float(getattr(self, name)) * factor)
        object.__setattr__(new, "_scaled_copy", True)
        return new

    def exact(self) -> dict[str, Fraction]:
        """The five numbers as exact fractions (floats read by their shortest decimal)."""
        return {
            "stack": to_fraction(self.stack),
            "small_blind": to_fraction(self.small_blind),
            "big_blind": to_fraction(self.big_blind),
            "ante": to_fraction(self.ante),
            "bb_ante": to_fraction(self.bb_ante),
        }

    def structure_key(self) -> tuple:
        """Everything but the stack (solutions for one structure share an LP and its matrices)."""
        return (self.small_blind, self.big_blind, self.ante, self.bb_ante)

    def as_dict(self) -> dict[str, float]:
        return {
            "stack": float(self.stack),
            "small_blind": float(self.small_blind),
            "big_blind": float(self.big_blind),
            "ante": float(self.ante),
            "bb_ante": float(self.bb_ante),
        }


@dataclass(frozen=True, eq=False)
class Payoffs:
    """The numbers of the bilinear form ``V(x,y) = f + (g-f) r.x + x' K y`` (see the module doc).

    ``K = K0 + stack * K1``; ``P`` is the deal-probability matrix and ``r`` its row sums.
    """

    level: str  # "class" or "combo"
    P: np.ndarray
    r: np.ndarray
    K0: np.ndarray
    K1: np.ndarray
    f: float
    g: float
    f1: float = 0.0
    """``f`` and ``g`` move along a line other than the stack (:func:`line_payoffs`): at ``t`` they
    are ``f + t*f1`` and ``g + t*g1``, and ``K = K0 + t*K1``.  Along the stack both are 0."""
    g1: float = 0.0
    along: str | tuple = "stack"
    """The line (:func:`sflp.core.payoff.direction_key`): ``"stack"``, ``"ante"``, ``"bb_ante"`` or a direction."""
    nodes: NodeSplit | None = None
    """``K0`` written node by node (:class:`NodeSplit`), where it was built from the nodes' constants;
    the LP's one compiled template for every blind structure uses it (:func:`sflp.solving.lp.compile_template`)."""


@dataclass(frozen=True, eq=False)
class NodeSplit:
    """``K0 = sum over the nodes of constants[node] * matrices[node]``: the showdown is linear in the
    node values (:func:`sflp.core.payoff.showdown`), so ``matrices[node]`` is the showdown of a node
    worth 1 and every other worth 0 (divided like ``K0``).  ``matrices`` and ``key`` (a digest of
    them) depend on the equity table and level only, and are shared by every blind structure."""

    constants: dict
    matrices: dict
    key: str


def build_payoffs(config: GameConfig, table: EquityTable | None = None, level: str = "class") -> Payoffs:
    """The payoff matrices of ``config``'s blind structure (the stack enters only through ``K1``),
    from the one payoff home :mod:`sflp.core.payoff`, in floats."""
    from sflp.core.payoff import terminal_payoffs

    check_amounts(config)  # the float game's domain, before anything is built
    table = table_arg(table)
    terms = terminal_payoffs(config, float)
    nodes = None
    if level == "class":  # the combo level's LP is compiled per structure (sflp.solving.lp)
        matrices, key = _node_matrices(table, level)
        nodes = NodeSplit({k: float(terms[k].constant) for k in matrices}, matrices, key)
    return Payoffs(level, *_float_matrices(terms, table, level), terms["fold"].constant, terms["steal"].constant,
                   nodes=nodes)


_NODE_CACHE: dict[tuple, tuple[dict, str]] = {}


def _node_matrices(table: EquityTable, level: str) -> tuple[dict, str]:
    """The showdown matrix of each node worth 1 (the others 0), read-only, and a digest of them
    (cached per table and level): see :class:`NodeSplit`."""
    import hashlib

    from sflp.core.payoff import showdown

    cache_key = (level, table.sha256 or id(table))
    if cache_key not in _NODE_CACHE:
        pairs, wins, ties, losses = (a.astype(np.float64) for a in table.level_counts(level))
        scale = float(DEALS) * BOARDS_PER_PAIR
        names = ("win", "lose", "tie", "steal")
        digest = hashlib.sha256(f"node matrices, {level}".encode())
        matrices = {}
        for node in names:
            unit = {k: float(k == node) for k in names}
            m = showdown(unit, wins, ties, losses, pairs, BOARDS_PER_PAIR) / scale
            m.setflags(write=False)
            matrices[node] = m
            digest.update(node.encode() + np.ascontiguousarray(m).tobytes())
        if len(_NODE_CACHE) > 4:
            _NODE_CACHE.clear()
        _NODE_CACHE[cache_key] = (matrices, digest.hexdigest()[:32])
    return _NODE_CACHE[cache_key]


def _float_matrices(terms, table: EquityTable, level: str) -> tuple[np.ndarray, ...]:
    """``P``, ``r``, ``K0`` and ``K1`` (read-only) of the nodes' ``terms`` (``constant + per_stack * t``)."""
    from sflp.core.payoff import showdown, stack_split

    pairs, wins, ties, losses = (a.astype(np.float64) for a in table.level_counts(level))
    constant, per_stack = stack_split(terms)
    scale = float(DEALS) * BOARDS_PER_PAIR
    P = pairs / DEALS
    K1 = showdown(per_stack, wins, ties, losses, pairs, BOARDS_PER_PAIR) / scale
    K0 = showdown(constant, wins, ties, losses, pairs, BOARDS_PER_PAIR) / scale
    for arr in (P, K0, K1):
        arr.setflags(write=False)
    r = P.sum(axis=1)
    r.setflags(write=False)
    return P, r, K0, K1


def line_payoffs(config: GameConfig, along="stack", table: EquityTable | None = None,
                 level: str = "class") -> Payoffs:
    """The payoff matrices along the line ``along`` through ``config`` (an axis such as ``"ante"``,
    or a direction, see :func:`sflp.core.payoff.line_of`): ``K = K0 + t*K1``, ``f + t*f1``,
    ``g + t*g1`` at the point ``t`` of the line.  Along the stack this is :func:`payoffs_for`
    itself; other lines are cached beside it.

    >>> p = line_payoffs(GameConfig(stack=10), "ante")
    >>> float(p.f), float(p.f1), float(p.g), float(p.g1), p.along
    (-0.5, -1.0, 1.0, 1.0, 'ante')
    """
    if along == "stack":
        return payoffs_for(config, table, level)
    from sflp.core.payoff import direction_key, line_terms

    along = direction_key(along)
    table = table_arg(table)
    key = ("line", along, tuple(v for k, v in config.as_dict().items() if k != along), level,
           table.sha256 or id(table))
    if key in _PAYOFF_CACHE:
        return _PAYOFF_CACHE[key]
    terms = line_terms(config, along, float)
    out = Payoffs(level, *_float_matrices(terms, table, level), terms["fold"].constant, terms["steal"].constant,
                  terms["fold"].per_stack, terms["steal"].per_stack, along)
    if len(_PAYOFF_CACHE) > 32:
        _PAYOFF_CACHE.clear()
    _PAYOFF_CACHE[key] = out
    return out


_PAYOFF_CACHE: dict[tuple, Payoffs] = {}


def payoffs_for(config: GameConfig, table: EquityTable | None = None, level: str = "class") -> Payoffs:
    """:func:`build_payoffs`, cached per blind structure, level and table (stacks share them)."""
    table = table_arg(table)
    key = (config.structure_key(), level, table.sha256 or id(table))
    if key not in _PAYOFF_CACHE:
        if len(_PAYOFF_CACHE) > 32:
            _PAYOFF_CACHE.clear()
        _PAYOFF_CACHE[key] = build_payoffs(config, table, level)
    return _PAYOFF_CACHE[key]


@dataclass(eq=False)
class PushFoldGame:
    """One push/fold game (a configuration at class or combo level) with its payoff matrices."""

    config: GameConfig
    table: EquityTable | None = None
    level: str = "class"
    payoffs: Payoffs | None = None

    def __post_init__(self) -> None:
        if self.payoffs is None:
            self.payoffs = payoffs_for(self.config, self.table, self.level)
        self.level = self.payoffs.level
        p = self.payoffs
        self.K = p.K0 + float(self.config.stack) * p.K1
        self.r, self.P, self.f, self.g = p.r, p.P, p.f, p.g
        self.size = self.K.shape[0]

    def at_stack(self, stack: float) -> PushFoldGame:
        """The same blind structure at another stack (matrices shared, no reload)."""
        return PushFoldGame(self.config.with_stack(stack), self.table, self.level, self.payoffs)

    @property
    def names(self) -> list[str]:
        if self.level == "class":
            return list(CLASS_NAMES)
        return [combo_name(c) for c in range(N_COMBOS)]

    # ------------------------------------------------------------ values

    def _check(self, s: np.ndarray, who: str) -> np.ndarray:
        s = np.asarray(s, dtype=np.float64)
        if s.shape != (self.size,):
            raise ConfigError(f"{who} strategy has shape {s.shape}, expected ({self.size},)")
        return s

    def value(self, sb: np.ndarray, bb: np.ndarray) -> float:
        """SB's expected net chips per hand, ``V(x, y)``."""
        x, y = self._check(sb, "SB"), self._check(bb, "BB")
        return float(self.f + (self.g - self.f) * (self.r @ x) + x @ self.K @ y)

    def sb_margins(self, bb: np.ndarray) -> np.ndarray:
        """``m[i]``: SB's gain from shoving hand ``i`` rather than folding, weighted by its probability."""
        return self.r * (self.g - self.f) + self.K @ self._check(bb, "BB")

    def bb_margins(self, sb: np.ndarray) -> np.ndarray:
        """BB's gain from calling hand ``j`` rather than folding, weighted by its probability."""
        return -(self.K.T @ self._check(sb, "SB"))

    def sb_ev(self, bb: np.ndarray) -> np.ndarray:
        """Per hand held: EV(shove) - EV(fold) for SB, in bb."""
        return self.sb_margins(bb) / self.r

    def bb_ev(self, sb: np.ndarray) -> np.ndarray:
        """Per hand facing a shove: EV(call) - EV(fold) for BB, in bb (NaN where SB never shoves)."""
        reach = self.P.T @ self._check(sb, "SB")
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(reach > 0, self.bb_margins(sb) / np.where(reach > 0, reach, 1), np.nan)

    # ------------------------------------------------------------ best responses

    def best_response_sb(self, bb: np.ndarray) -> tuple[np.ndarray, float]:
        """SB's pure best response to ``bb`` (shove where the margin is positive) and its value."""
        m = self.sb_margins(bb)
        return (m > 0).astype(np.float64), float(self.f + np.maximum(m, 0).sum())

    def best_response_bb(self, sb: np.ndarray) -> tuple[np.ndarray, float]:
        """BB's pure best response to ``sb`` (call where calling gains) and SB's value against it."""
        x = self._check(sb, "SB")
        c = self.K.T @ x
        value = self.f + (self.g - self.f) * (self.r @ x) + np.minimum(c, 0).sum()
        return (c < 0).astype(np.float64), float(value)

    def exploitability(self, sb: np.ndarray, bb: np.ndarray) -> float:
        """SB's best-response value against ``bb`` minus SB's value when BB best-responds to ``sb``.

        It is ``>= 0`` in exact arithmetic; a float difference of two nearly equal values can come
        out a few ulps below zero, so results down to ``-noise_tolerance()`` are reported as 0.0
        (anything more negative is returned as it is: strategies outside [0, 1])."""
        upper, lower = self.best_response_sb(bb)[1], self.best_response_bb(sb)[1]
        gap = upper - lower
        return 0.0 if -self.noise_tolerance() <= gap < 0 else gap

    def noise_tolerance(self) -> float:
        """Float noise allowed in an exploitability of this game, in bb: ``NOISE_TOLERANCE``
        (64 ulps) times the largest chip amount at stake (at least 1 bb)."""
        return NOISE_TOLERANCE * max(1.0, float(self.config.stack))

    def expand_to_combos(self, strategy: np.ndarray) -> np.ndarray:
        """A class strategy as 1,326 combo frequencies."""
        from sflp.core.cards import COMBO_CLASS

        return np.asarray(strategy, dtype=np.float64)[COMBO_CLASS]


# ------------------------------------------------------------------ solutions


@dataclass(frozen=True, eq=False)
class Solution:
    """An equilibrium (or candidate) of one configuration, with its check.

    ``sb_strategy`` / ``bb_strategy`` are push / call frequencies per hand (169 classes, or
    1,326 combos when ``level == "combo"``); ``sb_ev`` / ``bb_ev`` the per-hand EV margins;
    ``exploitability`` is computed by best responses, not taken from the solver.
    """

    config: GameConfig
    level: str
    sb_strategy: np.ndarray
    bb_strategy: np.ndarray
    value: float
    exploitability: float
    sb_ev: np.ndarray
    bb_ev: np.ndarray
    method: str = "lp"
    value_exact: Fraction | None = None
    sb_exact: tuple[Fraction, ...] | None = None
    bb_exact: tuple[Fraction, ...] | None = None
    certified: bool = False
    extra: dict = field(default_factory=dict)

    @property
    def names(self) -> list[str]:
        if self.level == "class":
            return list(CLASS_NAMES)
        return [combo_name(c) for c in range(N_COMBOS)]

    def _weights(self) -> np.ndarray:
        if self.level == "class":
            from sflp.core.cards import CLASS_SIZES

            return CLASS_SIZES.astype(np.float64)
        return np.ones(N_COMBOS)

    @functools.cached_property
    def push_pct(self) -> float:
        """Combo-weighted share of hands SB shoves, 0-100 (exact, then rounded, when certified);
        computed once per solution."""
        return self._pct(self.sb_strategy, self.sb_exact)

    @functools.cached_property
    def call_pct(self) -> float:
        """Combo-weighted share of hands BB calls with, 0-100 (exact, then rounded, when certified);
        computed once per solution."""
        return self._pct(self.bb_strategy, self.bb_exact)

    def _pct(self, strategy: np.ndarray, exact) -> float:
        """``100 * sum(w_i x_i) / sum(w_i)``, from the exact frequencies when there are some, rounded
        once: the whole frequencies (0 and 1, nearly every hand) as integers, the few mixed ones
        over one common denominator (they share the segment's determinant, so it is usually one
        of theirs), and a single correctly rounded integer division -- no Fraction is normalised
        on the way, so a structure whose exact numbers have long denominators (an ante of 0.25/17)
        costs what a short one does."""
        w = self._weights()
        if exact is None:
            return float(100 * (w @ strategy) / w.sum())
        weights = w.tolist()
        whole = 0
        mixed = []
        for wi, e in zip(weights, exact):
            if e.denominator == 1:
                whole += int(wi) * e.numerator
            else:
                mixed.append((int(wi), e))
        denominator = 1
        for _, e in mixed:
            if denominator % e.denominator:
                denominator = denominator * e.denominator // math.gcd(denominator, e.denominator)
        numerator = whole * denominator + sum(wi * e.numerator * (denominator // e.denominator) for wi, e in mixed)
        return 100 * numerator / (int(w.sum()) * denominator)  # int / int: correctly rounded

    def class_strategies(self) -> tuple[np.ndarray, np.ndarray]:
        """SB and BB strategies per class (combo mode: the combo-weighted mean per class)."""
        if self.level == "class":
            return self.sb_strategy, self.bb_strategy
        from sflp.core.cards import CLASS_SIZES, COMBO_CLASS

        def collapse(s: np.ndarray) -> np.ndarray:
            return np.bincount(COMBO_CLASS, weights=s, minlength=N_CLASSES) / CLASS_SIZES

        return collapse(self.sb_strategy), collapse(self.bb_strategy)

    def mixed_hands(self, tol: float = 1e-9) -> dict[str, dict[str, float]]:
        """Hands played at a frequency strictly between 0 and 1, per player."""
        out = {}
        for who, s in (("sb", self.sb_strategy), ("bb", self.bb_strategy)):
            out[who] = {n: float(v) for n, v in zip(self.names, s) if tol < v < 1 - tol}
        return out

    def to_dict(self) -> dict:
        """The JSON object of this solution (the shape the README documents for ``sflp solve --json``):
        the configuration, value (``value_exact`` as ``"p/q"`` or None), percentages, checks, and
        per-hand strategies and EV margins (combo level adds the combo strategies)."""
        sb, bb = self.class_strategies()
        cfg = self.config.as_dict()
        out = {
            **cfg,
            "value": self.value,
            "value_exact": (
                f"{self.value_exact.numerator}/{self.value_exact.denominator}"
                if self.value_exact is not None
                else None
            ),
            "push_pct": self.push_pct,
            "call_pct": self.call_pct,
            "exploitability": self.exploitability,
            "certified": self.certified,
            "level": self.level,
            "method": self.method,
            "sb_strategy": dict(zip(CLASS_NAMES, map(float, sb))),
            "bb_strategy": dict(zip(CLASS_NAMES, map(float, bb))),
        }
        if self.level == "class":
            out["sb_ev"] = dict(zip(CLASS_NAMES, map(float, self.sb_ev)))
            out["bb_ev"] = dict(zip(CLASS_NAMES, map(float, self.bb_ev)))
        else:
            names = self.names
            out["sb_ev"] = dict(zip(names, map(float, self.sb_ev)))
            out["bb_ev"] = dict(zip(names, map(float, self.bb_ev)))
            out["sb_combo_strategy"] = dict(zip(names, map(float, self.sb_strategy)))
            out["bb_combo_strategy"] = dict(zip(names, map(float, self.bb_strategy)))
        if self.sb_exact is not None and self.level == "class":
            out["sb_strategy_exact"] = {
                n: f"{v.numerator}/{v.denominator}" for n, v in zip(CLASS_NAMES, self.sb_exact)
            }
            out["bb_strategy_exact"] = {
                n: f"{v.numerator}/{v.denominator}" for n, v in zip(CLASS_NAMES, self.bb_exact)
            }
        return out

    def summary(self) -> str:
        """A few lines: configuration, value, push/call %, check, mixed hands (``print(solution)``)."""
        c = self.config
        named = (("ante", c.ante), ("BB ante", c.bb_ante))
        antes = ", ".join(f"{name} {float(v):g}" for name, v in named if v) or "no ante"
        lines = [
            f"Push/fold equilibrium at {float(c.stack):g} bb (SB {float(c.small_blind):g} / BB {float(c.big_blind):g}, "
            f"{antes}; {self.level} level, {self.method})",
            f"  value {self.value:+.6f} bb per hand for SB"
            + (f" (exactly {self.value_exact.numerator}/{self.value_exact.denominator})"
               if self.value_exact is not None else ""),
            f"  SB pushes {self.push_pct:.1f}% of hands, BB calls {self.call_pct:.1f}%",
            f"  exploitability {self.exploitability:.2g} bb" + (", certified exactly" if self.certified else ""),
        ]
        for who, title in (("sb", "SB mixes"), ("bb", "BB mixes")):
            mixed = self.mixed_hands()[who]
            if mixed:
                shown = ", ".join(f"{h} {100 * f:.1f}%" for h, f in list(mixed.items())[:8])
                lines.append(f"  {title}: {shown}" + (f" (+{len(mixed) - 8} more)" if len(mixed) > 8 else ""))
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.summary()

    def __repr__(self) -> str:
        return (f"<Solution stack={float(self.config.stack):g} bb, value={self.value:+.6f}, "
                f"push={self.push_pct:.1f}%, call={self.call_pct:.1f}%, level={self.level}, method={self.method}>")

    def to_frame(self):
        """A tidy pandas DataFrame, one row per player x hand: ``stack, player, hand, frequency,
        ev_margin`` (hands are the 169 classes, or the 1,326 combos at combo level).

        pandas is imported here, only when asked (the core needs only numpy).
        """
        import pandas as pd

        names = self.names
        n = len(names)
        return pd.DataFrame({
            "stack": float(self.config.stack),
            "player": ["sb"] * n + ["bb"] * n,
            "hand": names + names,
            "frequency": np.concatenate([self.sb_strategy, self.bb_strategy]) + 0.0,
            "ev_margin": np.concatenate([self.sb_ev, self.bb_ev]),
        })


NOISE_TOLERANCE = 64 * np.finfo(np.float64).eps
"""Relative float noise (about 1.4e-14) below which a value, margin or exploitability is 0: for
a value or margin relative to the sum of the magnitudes of its terms, for an exploitability
relative to the stack."""


def _clean_strategy(s) -> np.ndarray:
    """Frequencies clipped to [0, 1]; ``+ 0.0`` turns any -0.0 into 0.0."""
    return np.clip(np.asarray(s, dtype=np.float64), 0.0, 1.0) + 0.0


def _snap_zero(a, tol):
    """``a`` with entries within ``tol`` (a number or an array like ``a``) of zero set to exactly
    0.0 (NaN stays NaN)."""
    a = np.array(a, dtype=np.float64)
    with np.errstate(invalid="ignore"):
        a[np.abs(a) <= tol] = 0.0
    return a + 0.0


def make_solution(game: PushFoldGame, sb: np.ndarray, bb: np.ndarray, method: str, **kw) -> Solution:
    """Package strategies with their value, exploitability and EV margins (all by best responses)."""
    # Clean float noise where the numbers are made, not in each writer: frequencies are clipped to
    # [0, 1] (no -0.0, no 1 + 1e-16); the value and EV margins within noise_tolerance() of 0 are 0.0.
    sb = _clean_strategy(sb)
    bb = _clean_strategy(bb)
    for arr in (sb, bb):
        arr.setflags(write=False)
    # noise bounds: NOISE_TOLERANCE times the sum of the absolute terms of each figure
    absK = np.abs(game.K)
    fg = abs(game.g - game.f)
    value_tol = NOISE_TOLERANCE * (abs(game.f) + fg * (game.r @ sb) + sb @ absK @ bb)
    sb_tol = NOISE_TOLERANCE * (game.r * fg + absK @ bb) / game.r
    with np.errstate(invalid="ignore", divide="ignore"):
        bb_tol = NOISE_TOLERANCE * (absK.T @ sb) / (game.P.T @ sb)
    return Solution(
        config=game.config,
        level=game.level,
        sb_strategy=sb,
        bb_strategy=bb,
        value=float(_snap_zero(np.float64(game.value(sb, bb)), value_tol)),
        exploitability=game.exploitability(sb, bb),
        sb_ev=_snap_zero(game.sb_ev(bb), sb_tol),
        bb_ev=_snap_zero(game.bb_ev(sb), bb_tol),
        method=method,
        **kw,
    )
