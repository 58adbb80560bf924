"""Tests of sflp.solving.certify: exact rational equilibrium certificates."""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from functools import cache

import numpy as np
import pytest

from sflp.core.cards import CLASS_COMBOS, CLASS_NAMES, class_id
from sflp.core.equity import BOARDS_PER_PAIR, load_table
from sflp.core.game import DEALS, GameConfig, PushFoldGame, make_solution
from sflp.errors import CertificateError, ConfigError
from sflp.solving.certify import (
    _solve_system,
    certify,
    exact_bb_margins,
    exact_best_response_values,
    exact_exploitability,
    exact_payoffs,
    exact_sb_margins,
    exact_value,
)

STACKS = [1, 2.5, 5, 7.7, 10, 15, 20, 50]


@cache
def float_solution(config: GameConfig):
    from sflp.solving.solver import solve

    return solve(config)


def certified(config: GameConfig):
    game = PushFoldGame(config)
    return game, certify(game, float_solution(config))


def check_certificate(game: PushFoldGame, float_sol, sol) -> None:
    assert sol.certified
    assert isinstance(sol.value_exact, Fraction)
    assert len(sol.sb_exact) == len(sol.bb_exact) == game.size
    assert all(isinstance(v, Fraction) and 0 <= v <= 1 for v in sol.sb_exact + sol.bb_exact)
    # recomputed from the exact strategies through the public helpers
    assert exact_exploitability(game, sol.sb_exact, sol.bb_exact) == Fraction(0)
    assert exact_value(game, sol.sb_exact, sol.bb_exact) == sol.value_exact
    assert abs(float(sol.value_exact) - float_sol.value) <= 1e-12
    assert sol.value == float(sol.value_exact)
    cert = sol.extra["certificate"]
    assert cert["exploitability"] == "0"
    assert Fraction(cert["value"]) == sol.value_exact
    assert sol.exploitability <= 1e-12
    assert np.array_equal(sol.sb_strategy, [float(v) for v in sol.sb_exact])
    assert np.array_equal(sol.bb_strategy, [float(v) for v in sol.bb_exact])
    # the float strategies move by at most the LP's noise
    assert np.abs(sol.sb_strategy - float_sol.sb_strategy).max() < 1e-6
    assert np.abs(sol.bb_strategy - float_sol.bb_strategy).max() < 1e-6


# ---------------------------------------------------------------- certificates at many stacks


@pytest.mark.parametrize("stack", STACKS)
def test_certify_stacks(stack):
    config = GameConfig(stack)
    game, sol = certified(config)
    check_certificate(game, float_solution(config), sol)


@pytest.mark.parametrize(
    "config",
    [GameConfig(stack=10, ante=0.1), GameConfig(stack=10, bb_ante=1), GameConfig(7.7, small_blind=0.4, ante=0.125)],
)
def test_certify_with_antes(config):
    game, sol = certified(config)
    check_certificate(game, float_solution(config), sol)


def test_solver_exact_flag():
    from sflp.solving.solver import solve

    sol = solve(GameConfig(10), exact=True)
    assert sol.certified and sol.value_exact == certified(GameConfig(10))[1].value_exact
    assert sol.extra["certificate"]["sb_mixed"] == {"43s": "8731989/12285638"}
    assert sol.extra["certificate"]["bb_mixed"] == {"Q6s": "4948399/12285638"}


def test_stack_one_value_is_exactly_zero():
    # At S = 1 with blinds 0.5/1 the BB is all in from posting: calling costs nothing more, so
    # BB calls everything; against that SB shoves everything (folding loses 0.5, shoving loses at
    # most 1 and wins 1 or more on average).  Both players then hold uniformly random,
    # card-disjoint hands and go to showdown: the deal is symmetric, so SB's EV is exactly 0.
    game, sol = certified(GameConfig(1))
    assert sol.value_exact == Fraction(0)
    assert all(v == 1 for v in sol.sb_exact) and all(v == 1 for v in sol.bb_exact)


# ---------------------------------------------------------------- failures are loud


@pytest.mark.parametrize(("who", "hand"), [("sb", "AA"), ("sb", "K2o"), ("bb", "22"), ("bb", "A2o"),
                                           ("sb", "72o"), ("bb", "72o")])
def test_perturbed_solution_is_rejected_naming_the_hand(who, hand):
    """A hand flipped from always to never or (72o, folded by both at 10 bb) from never to
    always: certify names it and the condition it breaks.  (A pushed or called hand that loses is
    also caught by the exploitability check behind the margin checks; the message must name it.)"""
    game = PushFoldGame(GameConfig(10))
    base = float_solution(GameConfig(10))
    x, y = base.sb_strategy.copy(), base.bb_strategy.copy()
    s = x if who == "sb" else y
    i = class_id(hand)
    assert s[i] in (0.0, 1.0)
    s[i] = 1.0 - s[i]
    with pytest.raises(CertificateError) as info:
        certify(game, make_solution(game, x, y, "perturbed"))
    message = str(info.value)
    assert f"{who.upper()} {hand}:" in message
    assert "bb per hand held" in message
    if hand == "72o":
        words = ("pushed with frequency 1 but shoving loses" if who == "sb"
                 else "calls with frequency 1 but calling loses")
        assert f"{who.upper()} {hand}: {words}" in message


def test_a_mixed_hand_that_cannot_be_made_indifferent_is_named():
    """SB mixing two hands against one mixed BB hand: two indifference equations in one unknown,
    inconsistent; certify says so rather than solving what it can."""
    game = PushFoldGame(GameConfig(10))
    base = float_solution(GameConfig(10))
    x = base.sb_strategy.copy()
    assert x[class_id("72o")] == 0.0
    x[class_id("72o")] = 0.5
    with pytest.raises(CertificateError, match="SB 72o is mixed in the float solution but cannot be made indifferent"):
        certify(game, make_solution(game, x, base.bb_strategy, "two mixed against one"))


def test_mismatched_solution_is_rejected():
    sol = float_solution(GameConfig(10))
    with pytest.raises(CertificateError, match=r"solution is for GameConfig\(stack=10, .*game is GameConfig\(stack=11"):
        certify(PushFoldGame(GameConfig(11)), sol)
    with pytest.raises(CertificateError, match="level"):
        certify(PushFoldGame(GameConfig(10), level="combo"), sol)
    bad = dataclasses.replace(sol, sb_strategy=np.full(169, np.nan))
    with pytest.raises(CertificateError, match="non-finite"):
        certify(PushFoldGame(GameConfig(10)), bad)


# ---------------------------------------------------------------- independent exact checks


def naive_K(config: GameConfig, i: int, j: int) -> Fraction:
    """K[i, j] straight from the game docstring, in Fractions, from the class counts."""
    c = config.exact()
    S, A = c["stack"], c["bb_ante"]
    g = c["big_blind"] + c["ante"] + A
    pairs, w, t, l = load_table().class_counts(i, j)
    return (S * w - (S - A) * l + A / 2 * t) / (DEALS * BOARDS_PER_PAIR) - g * Fraction(pairs, DEALS)


def test_exact_K_matches_combo_sums_by_hand():
    # AA vs KK: the 36 combo pairs are all disjoint; sum their board counts directly
    table = load_table()
    aa, kk = class_id("AA"), class_id("KK")
    w = t = l = 0
    for a in CLASS_COMBOS[aa]:
        for b in CLASS_COMBOS[kk]:
            cw, ct, cl = table.combo_counts(a, b)
            w, t, l = w + cw, t + ct, l + cl
    for config in (GameConfig(10), GameConfig(10, ante=0.1, bb_ante=1)):
        c = config.exact()
        S, A = c["stack"], c["bb_ante"]
        g = c["big_blind"] + c["ante"] + A
        # per deal: SB wins S, loses S - A, ties A/2, minus what a BB fold would have paid (g)
        expected = Fraction(36, 1326 * 1225) * (
            (S * w - (S - A) * l + A / 2 * t) / (36 * 1_712_304) - g
        )
        ex = exact_payoffs(PushFoldGame(config))
        assert ex.K(aa, kk) == expected == naive_K(config, aa, kk)
        assert ex.r[aa] == Fraction(6, 1326)
        assert ex.f == -(c["small_blind"] + c["ante"])


@pytest.mark.parametrize("config", [GameConfig(10), GameConfig(7.7, ante=0.1), GameConfig(10, bb_ante=1)])
def test_exact_K_agrees_with_float_K(config):
    game = PushFoldGame(config)
    ex = exact_payoffs(game)
    K_exact = np.array([[float(Fraction(int(v), ex.scale)) for v in row] for row in ex.K_scaled])
    assert np.abs(K_exact - game.K).max() <= 1e-15 * np.abs(K_exact).max()
    # entry by entry, up to the rounding of the float sum K0 + S*K1
    p = game.payoffs
    bound = 1e-15 * (np.abs(p.K0) + float(config.stack) * np.abs(p.K1))
    assert np.all(np.abs(K_exact - game.K) <= bound)
    assert np.allclose([float(v) for v in ex.r], game.r, rtol=1e-15, atol=0)


def test_naive_fraction_recomputation_of_the_certificate():
    """Value and equilibrium conditions at 10 bb recomputed with naive Fractions, entry by entry."""
    config = GameConfig(10)
    game, sol = certified(config)
    n = 169
    K = [[naive_K(config, i, j) for j in range(n)] for i in range(n)]
    r = [Fraction(int(sum(load_table().class_pairs[i])), DEALS) for i in range(n)]
    f, g = Fraction(-1, 2), Fraction(1)
    x, y = sol.sb_exact, sol.bb_exact
    m = [r[i] * (g - f) + sum(K[i][j] * y[j] for j in range(n) if y[j]) for i in range(n)]
    c = [sum(K[i][j] * x[i] for i in range(n) if x[i]) for j in range(n)]
    value = f + sum(x[i] * m[i] for i in range(n))
    assert value == sol.value_exact
    assert f + sum(max(Fraction(0), v) for v in m) == value
    assert f + (g - f) * sum(ri * xi for ri, xi in zip(r, x)) + sum(min(Fraction(0), v) for v in c) == value
    mixed_sb = [i for i in range(n) if 0 < x[i] < 1]
    mixed_bb = [j for j in range(n) if 0 < y[j] < 1]
    assert [CLASS_NAMES[i] for i in mixed_sb] == ["43s"] and [CLASS_NAMES[j] for j in mixed_bb] == ["Q6s"]
    assert all(m[i] == 0 for i in mixed_sb) and all(c[j] == 0 for j in mixed_bb)
    assert tuple(m) == exact_sb_margins(game, y)
    assert tuple(-v for v in c) == exact_bb_margins(game, x)


def test_exact_helpers_on_non_equilibria():
    game = PushFoldGame(GameConfig(10))
    ones, zeros = [1] * 169, [0] * 169
    assert exact_value(game, zeros, ones) == Fraction(-1, 2)  # SB always folds
    assert exact_value(game, ones, zeros) == Fraction(1)  # BB always folds
    # random against random all in: symmetric deal, zero at any stack
    assert exact_value(game, ones, ones) == 0
    # exploitability of a perturbed strategy is positive and matches the float figure
    sol = float_solution(GameConfig(10))
    x = [Fraction(1, 2)] * 169
    e = exact_exploitability(game, x, sol.bb_strategy)
    assert e > 0
    assert abs(float(e) - game.exploitability(np.full(169, 0.5), sol.bb_strategy)) < 1e-12
    sb_br, bb_br = exact_best_response_values(game, x, sol.bb_strategy)
    assert sb_br - bb_br == e
    assert np.allclose([float(v) for v in exact_sb_margins(game, x)], game.sb_margins(np.full(169, 0.5)), atol=1e-15)
    with pytest.raises(ConfigError):
        exact_value(game, ones[:-1], ones)


def test_solve_system_cases():
    # square and regular
    z, free, bad = _solve_system([[2, 1], [1, 3]], [3, 5], [Fraction(0)] * 2)
    assert z == [Fraction(4, 5), Fraction(7, 5)] and free == [] and bad is None
    # under-determined: the free column takes its guess
    z, free, bad = _solve_system([[1, 1]], [1], [Fraction(1, 3), Fraction(1, 4)])
    assert free == [1] and z == [Fraction(3, 4), Fraction(1, 4)]
    # inconsistent: the second equation reduces to 0 = 1
    z, free, bad = _solve_system([[1, 1], [2, 2]], [1, 3], [Fraction(0)] * 2)
    assert z is None and bad == (1, Fraction(1))
    # no unknowns at all: 0 = b must hold exactly
    assert _solve_system([[]], [0], [])[2] is None
    assert _solve_system([[]], [7], [])[2] == (0, Fraction(7))


# ---------------------------------------------------------------- degenerate stacks


def breakpoint_stack(stack: float, event: str) -> Fraction:
    """The exact stack near ``stack`` where a 1x1 support's mixed frequency reaches 0 or 1.

    With SB mixed on ``i`` and BB on ``j``, SB's indifference fixes ``y_j(S)`` as a ratio of
    affine functions of the stack, so ``y_j(S) = 0`` (or 1) at a rational stack.
    """
    _, sol = certified(GameConfig(stack))
    x, y = sol.sb_exact, sol.bb_exact
    (i,) = [k for k, v in enumerate(x) if 0 < v < 1]
    (j,) = [k for k, v in enumerate(y) if 0 < v < 1]
    lo, hi = exact_payoffs(PushFoldGame(GameConfig(10))), exact_payoffs(PushFoldGame(GameConfig(11)))

    def affine(row, cols):  # sum_{k in cols} K[row, k] as (constant, slope) in S
        a = sum((lo.K(row, k) for k in cols), Fraction(0))
        b = sum((hi.K(row, k) for k in cols), Fraction(0)) - a
        return a - 10 * b, b

    c0, c1 = affine(i, [k for k in range(169) if y[k] == 1])
    c0 += Fraction(lo.base_scaled[i], lo.scale)
    if event == "y=1":
        k0, k1 = affine(i, [j])
        c0, c1 = c0 + k0, c1 + k1
    return -c0 / c1


@pytest.mark.parametrize(
    ("stack", "event", "hand", "value"),
    [(10, "y=0", "Q6s", 0), (5, "y=1", "97o", 1)],
)
def test_certify_at_an_exact_breakpoint(stack, event, hand, value):
    from sflp.solving.solver import solve

    S = breakpoint_stack(stack, event)
    assert abs(float(S) - stack) < 0.1
    config = GameConfig(stack=S)
    sol = solve(config, exact=True)
    assert sol.certified
    game = PushFoldGame(config)
    assert exact_exploitability(game, sol.sb_exact, sol.bb_exact) == 0
    # BB's hand sits exactly at the end of its mixing interval
    assert sol.bb_exact[class_id(hand)] == value


# ---------------------------------------------------------------- combo level


def test_combo_level_certifies_with_the_class_value():
    from sflp.solving.solver import solve

    sol = solve(GameConfig(10), level="combo", exact=True)
    assert sol.certified and sol.level == "combo"
    cert = sol.extra["certificate"]
    assert cert["exploitability"] == "0"
    game = PushFoldGame(GameConfig(10), level="combo")
    assert exact_exploitability(game, sol.sb_exact, sol.bb_exact) == 0
    # the 169-class collapse loses nothing: same exact value as the class-level game
    assert sol.value_exact == certified(GameConfig(10))[1].value_exact
    assert set(cert["sb_mixed"]) == {"4c3c", "4d3d", "4h3h", "4s3s"}
    assert set(cert["sb_mixed"].values()) == {"8731989/12285638"}


def test_float_payoffs_of_another_structure_are_refused():
    """The certificate's exact matrix must be the game's float matrix: a game carrying the float
    payoffs of other blinds is refused, also when its structure was certified before."""
    from sflp.core.game import GameConfig, PushFoldGame, build_payoffs
    from sflp.errors import CertificateError
    from sflp.solving.certify import exact_payoffs

    exact_payoffs(PushFoldGame(GameConfig(stack=10, ante=0.1)))  # the structure is cached now
    wrong = PushFoldGame(GameConfig(stack=10, ante=0.1), payoffs=build_payoffs(GameConfig(stack=10)))
    with pytest.raises(CertificateError, match="does not match"):
        exact_payoffs(wrong)
