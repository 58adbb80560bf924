r"""The one home of the push/fold payoffs: every terminal node, and the showdown matrix.

Everything in sflp that needs a payoff -- the float matrices of the LP and the best responses
(:mod:`sflp.core.game`), the exact certificate (:mod:`sflp.solving.exact`), the exploitative best response
(:mod:`sflp.study.exploit`), the Sklansky-Chubukov numbers (:mod:`sflp.study.sc`) and the sampling solvers
(:mod:`sflp.approx`) -- takes it from here, in the number type it computes in.  A new rule (a
rake, a straddle) is one edit in this file.  (:mod:`sflp.study.simulate` alone settles each dealt hand
from the rules, chip by chip, on purpose: it is the independent referee of this table.)

The terminal nodes
------------------
Both players start with ``S`` (the stack, counted before posting).  Each posts an ``ante`` ``a``
(dead), the big blind also the ``bb_ante`` ``A`` (dead); SB posts ``sb`` and BB ``bb`` (live).
The live stacks are ``S - a`` (SB) and ``S - a - A`` (BB), so the matched all-in amount is
``M = S - a - A`` and the pot at showdown is ``2M + 2a + A``.  SB's net chip change at each
terminal node is an affine function of the stack, ``constant + per_stack * S``:

========  ===========================  =====================================  ========  =========
node      what happens                 SB's net chips                         constant  per_stack
========  ===========================  =====================================  ========  =========
``fold``  SB folds                     ``-(sb + a)``                          ``-(sb+a)``    0
``steal`` SB shoves, BB folds          ``+(bb + a + A)``                      ``bb+a+A``     0
``win``   both all in, SB's hand wins  ``(2M+2a+A) - (M+a) = +S``              0          1
``lose``  both all in, SB's hand loses ``-(M + a) = -(S - A)``                ``A``         -1
``tie``   both all in, split pot       ``(2M+2a+A)/2 - (M+a) = +A/2``          ``A/2``        0
========  ===========================  =====================================  ========  =========

BB's net chips are the negatives (all antes and blinds are the two players' money: the game is
zero-sum).

The showdown matrix
-------------------
For SB's hand ``i`` against BB's hand ``j``, with ``W, T, L`` the win / tie / loss counts summed
over the card-disjoint combo pairs (each pair over all 1,712,304 boards, ``B``) and ``pairs`` the
number of such pairs, SB's net chips summed over the showdowns of ``(i, j)``, *relative to the
steal* (BB calling instead of folding), are

    showdown[i, j] = win * W + lose * L + tie * T - B * steal * pairs

(each node's value at the stack).  Divided by ``D * B`` (``D = 1326 * 1225`` ordered deals) this
is the matrix ``K`` of :mod:`sflp.core.game`; the function :func:`showdown` computes it for any
arrays of counts (a matrix, or a count vector already multiplied by a strategy) with the node
values in any number type, and :func:`stack_split` writes ``K = K0 + S * K1``.

>>> from fractions import Fraction
>>> from sflp.core.game import GameConfig
>>> t = terminal_payoffs(GameConfig(stack=10, ante=0.1, bb_ante=1))
>>> t["fold"], t["steal"], t["lose"].at(Fraction(10)), t["tie"]   # steal: 1 + 0.1 + 1
(Payoff(-3/5, 0), Payoff(21/10, 0), Fraction(-9, 1), Payoff(1/2, 0))
>>> [float(v) for v in terminal_payoffs(GameConfig(stack=10), float)["steal"]]
[1.0, 0.0]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from numbers import Rational, Real
from typing import NamedTuple

NODES = ("fold", "steal", "win", "lose", "tie")
"""The terminal nodes of the push/fold game, in the order of the table above."""


def to_fraction(value: Real | str) -> Fraction:
    """Exact value of a number: ints and fractions as they are, floats by their shortest decimal.

    >>> to_fraction(0.1), to_fraction(7.7), to_fraction(Fraction(1, 3))
    (Fraction(1, 10), Fraction(77, 10), Fraction(1, 3))
    """
    if isinstance(value, Rational):
        return Fraction(value)
    return Fraction(repr(float(value)) if not isinstance(value, str) else value)


class Payoff(NamedTuple):
    """SB's net chips at one terminal node: ``constant + per_stack * S``."""

    constant: object
    per_stack: object

    def at(self, stack):
        """The payoff at ``stack`` (in the number type of ``stack`` and the two terms)."""
        return self.constant + self.per_stack * stack

    def __repr__(self) -> str:
        return f"Payoff({self.constant}, {self.per_stack})"


def terminal_payoffs(config, number: Callable[[Fraction], object] = Fraction) -> dict[str, Payoff]:
    """SB's net chips at every terminal node of ``config``'s game, as affine functions of the stack.

    ``config`` is a :class:`~sflp.core.game.GameConfig` or the mapping of its :meth:`exact` numbers.

    The blinds and antes are read exactly (:meth:`sflp.core.game.GameConfig.exact`), the payoffs are
    formed in fractions, and each term is then converted once by ``number``: ``Fraction`` (the
    default) keeps them exact, ``float`` rounds each correctly, and any other exact type works
    through a converter, e.g. ``lambda q: flint.fmpq(q.numerator, q.denominator)``.
    """
    ex = config if isinstance(config, Mapping) else config.exact()
    sb, bb, a, A = ex["small_blind"], ex["big_blind"], ex["ante"], ex["bb_ante"]
    zero, one = Fraction(0), Fraction(1)
    exact = {
        "fold": (-(sb + a), zero),  # SB folds: the small blind and SB's ante are lost
        "steal": (bb + a + A, zero),  # BB folds: SB takes the big blind and every ante
        "win": (zero, one),  # SB wins the pot 2M + 2a + A, having put in M + a: +S
        "lose": (A, -one),  # SB loses its M + a = S - A
        "tie": (A / 2, zero),  # half the pot back: (2M + 2a + A)/2 - (M + a) = A/2
    }
    return {node: Payoff(number(c), number(s)) for node, (c, s) in exact.items()}


LINE_AXES = ("stack", "ante", "bb_ante")
"""The axes a threshold path may follow by name (:func:`line_terms`): the stack at fixed blinds
and antes, or an ante at a fixed stack and blinds.  Any other straight line is a direction."""
AMOUNTS = ("stack", "small_blind", "big_blind", "ante", "bb_ante")
"""The five amounts of a game, the coordinates of a direction."""


def direction_key(along) -> str | tuple:
    """The hashable name of a line: an axis of :data:`LINE_AXES` as it is, or a direction (a mapping
    of amounts to numbers, read exactly) as its sorted non-zero ``(amount, "p/q")`` pairs.

    >>> direction_key("ante"), direction_key({"stack": 1, "ante": 0.0125, "bb_ante": 0})
    ('ante', (('ante', '1/80'), ('stack', '1')))
    """
    if isinstance(along, str):
        if along not in LINE_AXES:
            raise ValueError(f"along={along!r}: expected one of {', '.join(LINE_AXES)}, or a direction such as "
                             "{'stack': 1, 'ante': 0.0125}")
        return along
    if isinstance(along, tuple):  # a key already
        along = {k: Fraction(v) for k, v in along}
    if not isinstance(along, Mapping):
        raise ValueError(f"along={along!r}: expected an axis name or a mapping of amounts to numbers")
    bad = [k for k in along if k not in AMOUNTS]
    if bad:
        raise ValueError(f"along: {bad[0]!r} is not an amount ({', '.join(AMOUNTS)})")
    for k, v in along.items():
        if isinstance(v, bool) or not isinstance(v, Real):
            raise ValueError(f"along: {k}={v!r} is not a number")
        if not float("-inf") < float(v) < float("inf"):
            raise ValueError(f"along: {k}={v!r} must be finite")
    d = {k: to_fraction(v) for k, v in along.items()}
    key = tuple(sorted((k, str(v)) for k, v in d.items() if v != 0))
    if not key:
        raise ValueError("along: the direction is zero")
    return key


def line_of(config, along) -> tuple[dict[str, Fraction], dict[str, Fraction]]:
    """``(p0, d)``, exact, of the line ``p(t) = p0 + t d`` named by ``along`` through ``config``: an
    axis line has ``p0`` = ``config`` with that amount 0 and ``d`` its unit vector (``t`` is the
    amount itself); a direction has ``p0`` = ``config`` and ``d`` the direction.

    >>> from sflp.core.game import GameConfig
    >>> p0, d = line_of(GameConfig(stack=10, ante=0.1), "ante")
    >>> p0["ante"], d["ante"], d["stack"]
    (Fraction(0, 1), Fraction(1, 1), Fraction(0, 1))
    """
    key = direction_key(along)
    ex = dict(config if isinstance(config, Mapping) else config.exact())
    d = {k: Fraction(0) for k in AMOUNTS}
    if isinstance(key, str):
        ex[key] = Fraction(0)
        d[key] = Fraction(1)
    else:
        d.update({k: Fraction(v) for k, v in key})
    return ex, d


def line_terms(config, along="stack", number: Callable[[Fraction], object] = Fraction) -> dict[str, Payoff]:
    """SB's net chips at every terminal node along the line ``p(t) = p0 + t d`` named by ``along``
    through ``config`` (:func:`line_of`), as ``constant + per_stack * t`` (the field keeps its name,
    ``per_stack``, so that :func:`stack_split` and :func:`showdown` serve every line).

    Every node's payoff is affine in the five amounts together (the table above), so along any
    line it is its value at ``p0`` plus ``t`` times its change from ``p0`` to ``p0 + d``, exactly.
    ``along="stack"`` is :func:`terminal_payoffs` itself.  Along the ante, SB's fold loses one more
    ante and the steal wins one more, and nothing else moves; along the BB ante the steal, the
    loss and the tie move:

    >>> from sflp.core.game import GameConfig
    >>> line_terms(GameConfig(stack=10, ante=0.1), "ante")["fold"], line_terms(GameConfig(stack=10), "ante")["win"]
    (Payoff(-1/2, -1), Payoff(10, 0))
    >>> [line_terms(GameConfig(stack=10), "bb_ante")[n] for n in ("steal", "lose", "tie")]
    [Payoff(1, 1), Payoff(-10, 1), Payoff(0, 1/2)]
    >>> line_terms(GameConfig(stack=10), {"stack": 1, "ante": 0.1})["lose"]   # the stack and the ante grow
    Payoff(-10, -1)
    """
    if along == "stack":
        return terminal_payoffs(dict(config if isinstance(config, Mapping) else config.exact()), number)
    p0, d = line_of(config, along)
    ends = []
    for point in (p0, {k: p0[k] + d[k] for k in AMOUNTS}):
        ends.append({k: p.at(point["stack"]) for k, p in terminal_payoffs(point).items()})
    v0, v1 = ends
    return {node: Payoff(number(v0[node]), number(v1[node] - v0[node])) for node in NODES}


def showdown(values: dict[str, object], wins, ties, losses, pairs, boards: int):
    """SB's net chips over the showdowns of a hand pair, minus the steal, summed over boards.

    ``values`` maps ``win``, ``lose``, ``tie`` and ``steal`` to their payoffs at one stack (or to
    one coefficient of them, see :func:`stack_split`); ``wins, ties, losses, pairs`` are count
    arrays of one shape (matrices, or vectors already multiplied by a strategy) and ``boards``
    the boards per pair.  The arithmetic is whatever the arrays and values support: float
    arrays, int64 arrays with int values, object arrays of Python ints or fractions.

    >>> import numpy as np
    >>> showdown({"win": 10, "lose": -10, "tie": 0, "steal": 1}, np.array([3]), np.array([1]),
    ...          np.array([2]), np.array([1]), boards=6)
    array([4])
    """
    return values["win"] * wins + values["lose"] * losses + values["tie"] * ties - boards * values["steal"] * pairs


def stack_split(terms: dict[str, Payoff]) -> tuple[dict[str, object], dict[str, object]]:
    """The node values' constant and per-stack parts: the showdown is linear in them, so
    ``showdown(values at S) = showdown(constant) + S * showdown(per_stack)``."""
    return ({k: p.constant for k, p in terms.items()}, {k: p.per_stack for k, p in terms.items()})


def at_stack(terms: dict[str, Payoff], stack) -> dict[str, object]:
    """Every node's payoff at ``stack``."""
    return {k: p.at(stack) for k, p in terms.items()}
