r"""The gate of ``sflp verify`` and a helper for a solver author's own tests.

Figures (bb per hand dealt; SB's value ``V(x, y)``, the exact equilibrium value ``v*``; see
:mod:`sflp.study.verify`):

* ``nash_conv = max_x' V(x', y) - min_y' V(x, y')``: the sum of both players' best-response gains,
  OpenSpiel's ``nash_conv`` (its ``exploitability`` is half of it); ``--max-nash-conv X``;
* ``sb_gain = max_x' V(x', y) - V(x, y)`` and ``bb_gain = V(x, y) - min_y' V(x, y')``: what each
  player gains by a best response to the other's given strategy; ``--max-gain X`` bounds each;
* ``sb_exploitability = v* - min_y V(x, y)`` and ``bb_exploitability = max_x V(x, y) - v*``:
  each given side against the exact equilibrium value; ``--max-exploitability X`` bounds each, as
  it always has (it also judges one side alone, which the first two cannot).  With both sides
  given the two exploitabilities sum to ``nash_conv``; each alone can be far below it.

:func:`judge` compares a report's figures with the bounds: exactly (fractions against the bound's
exact binary value) when the report has its exact figures (a policy always; ``--sb/--bb`` with
``--exact``), else as floats.  A figure equal to its bound passes.

For a test suite, two lines:

>>> from sflp.testing import assert_nash_conv_below
>>> assert_nash_conv_below(policy, GameConfig(stack=10), 1e-9)   # doctest: +SKIP

``policy`` is anything :func:`sflp.openspiel.verify` takes (an OpenSpiel policy, a
``{state: [(action, p), ...]}`` mapping) or the path of a policy's JSON file.

>>> from sflp.core.game import GameConfig
>>> from sflp.openspiel import from_strategy
>>> shove_all = from_strategy([1.0] * 169, [1.0] * 169)    # SB shoves and BB calls every hand
>>> import textwrap
>>> try:
...     assert_nash_conv_below(shove_all, GameConfig(stack=10), 0.01)
... except AssertionError as error:
...     print(textwrap.fill(str(error), 96))
nash_conv 0.945954 bb/hand is above 0.01 in the game of stack 10 bb, blinds 0.5/1, ante 0, BB
ante 0 (best-response gains: SB 0.568, BB 0.378); costliest hands against the equilibrium: BB
72o 0.0156, BB 32o 0.0156, BB 62o 0.015
"""

from __future__ import annotations

import math
import numbers
import os
from dataclasses import dataclass
from fractions import Fraction

from sflp.checks import short
from sflp.errors import ConfigError

BOUNDS = {"max_nash_conv": ("nash_conv",), "max_gain": ("sb_gain", "bb_gain"),
          "max_exploitability": ("sb_exploitability", "bb_exploitability")}
"""Each bound of :func:`judge` and the figures it bounds."""
PAIR_BOUNDS = ("max_nash_conv", "max_gain")
"""The bounds that judge a pair of strategies (both players given)."""


@dataclass(frozen=True)
class Check:
    """One figure against its bound: ``value <= threshold`` passes."""

    bound: str
    figure: str
    value: float
    threshold: float
    passed: bool

    def to_dict(self) -> dict:
        return {"bound": self.bound, "figure": self.figure, "value": self.value, "threshold": self.threshold,
                "pass": self.passed}


@dataclass(frozen=True)
class Verdict:
    """Every check of :func:`judge`; it passes when each check does (and with no check)."""

    checks: tuple[Check, ...]

    @property
    def passed(self) -> bool:
        return all(c.passed for c in self.checks)

    @property
    def failed(self) -> tuple[Check, ...]:
        return tuple(c for c in self.checks if not c.passed)

    def to_dict(self) -> dict:
        """``{"pass": bool, "gate": [each check]}``: what ``sflp verify --json`` adds."""
        return {"pass": self.passed, "gate": [c.to_dict() for c in self.checks]}


def figures(report) -> dict:
    """The figures :data:`BOUNDS` names that ``report`` (a :class:`~sflp.study.verify.VerifyReport`)
    has: exact :class:`~fractions.Fraction` where ``report.exact`` holds them, else floats derived
    from the report's own (``max_x' V(x', y) = v* + bb_exploitability``,
    ``min_y' V(x, y') = v* - sb_exploitability``)."""
    out: dict = {}
    exact = report.exact or {}
    for key, value in (("sb_exploitability", report.sb_exploitability),
                       ("bb_exploitability", report.bb_exploitability)):
        if value is not None:
            out[key] = exact.get(key, value)
    if "nash_conv" in exact:
        out.update({k: exact[k] for k in ("sb_gain", "bb_gain", "nash_conv")})
    elif report.value_vs_each_other is not None:
        sb_best = report.nash_value + report.bb_exploitability
        bb_best = report.nash_value - report.sb_exploitability
        out.update(sb_gain=sb_best - report.value_vs_each_other, bb_gain=report.value_vs_each_other - bb_best,
                   nash_conv=sb_best - bb_best)
    return out


def check_bound(name: str, value) -> float:
    """A bound as a float: a real number (not text, not ``True``), finite, at least 0 (bb per hand)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not (math.isfinite(value) and value >= 0):
        raise ConfigError(f"{name}={short(value)} must be a finite number >= 0 (bb per hand)")
    return float(value)


def judge(report, *, max_nash_conv=None, max_gain=None, max_exploitability=None) -> Verdict:
    """The :class:`Verdict` of ``report`` against the bounds given (see the module doc): one
    :class:`Check` per figure bounded, in the order nash_conv, SB's and BB's gains, SB's and BB's
    exploitabilities.  ``max_nash_conv`` and ``max_gain`` need both players' strategies in the
    report; a bound that is no finite number >= 0 is refused."""
    given = {"max_nash_conv": max_nash_conv, "max_gain": max_gain, "max_exploitability": max_exploitability}
    bounds = {name: check_bound(name, v) for name, v in given.items() if v is not None}
    have = figures(report)
    checks = []
    for name, threshold in bounds.items():
        if name in PAIR_BOUNDS and "nash_conv" not in have:
            raise ConfigError(f"{name} judges a pair of strategies: give both SB's and BB's (a policy holds both); "
                              "max_exploitability judges one side alone")
        for figure in BOUNDS[name]:
            if figure not in have:
                continue
            value = have[figure]
            limit = Fraction(threshold) if isinstance(value, Fraction) else threshold
            checks.append(Check(name, figure, float(value), threshold, bool(value <= limit)))
    return Verdict(tuple(checks))


def _costliest(report, n: int = 3) -> str:
    rows = sorted((r for r in report.hands if r.ev_lost > 0), key=lambda r: -r.ev_lost)[:n]
    return ", ".join(f"{r.player.upper()} {r.hand} {r.ev_lost:.3g}" for r in rows)


def assert_nash_conv_below(policy, config, tol, game=None):
    """Raise :class:`AssertionError` unless ``policy``'s ``nash_conv`` in ``config``'s game is at
    most ``tol`` bb per hand, computed exactly (:func:`sflp.openspiel.verify`); returns the
    :class:`~sflp.study.verify.VerifyReport` when it passes.  The message names the figure, the
    bound, the game, each player's best-response gain and the costliest hands against the exact
    equilibrium.  ``policy`` as :func:`sflp.openspiel.verify` takes it, or the path of a JSON
    policy file (:func:`sflp.openspiel.read_policy`); a policy that names another game, or a
    ``game`` that is not sflp's game of ``config``, is refused (:class:`~sflp.errors.ConfigError`)."""
    from sflp.openspiel import read_policy, verify
    from sflp.openspiel.efg import structure_text

    check_bound("tol", tol)
    source = None
    if isinstance(policy, (str, os.PathLike)):
        source = os.fspath(policy)
        policy = read_policy(policy)
    report = verify(policy, config, game, source=source)
    verdict = judge(report, max_nash_conv=tol)
    if not verdict.passed:
        gains = report.exact
        hands = _costliest(report)
        raise AssertionError(
            f"nash_conv {float(gains['nash_conv']):.6g} bb/hand is above {tol:g} in the game of "
            f"{structure_text(config)} (best-response gains: SB {float(gains['sb_gain']):.3g}, BB "
            f"{float(gains['bb_gain']):.3g})"
            + (f"; costliest hands against the equilibrium: {hands}" if hands else ""))
    return report
