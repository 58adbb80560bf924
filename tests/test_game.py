"""Game model: configuration, payoffs, best responses, exploitability (no solver involved)."""

import math
import re
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from sflp.core.cards import class_id
from sflp.core.equity import BOARDS_PER_PAIR
from sflp.core.game import GameConfig, PushFoldGame
from sflp.errors import ConfigError


@pytest.mark.parametrize(
    "kwargs, field",
    [
        ({"stack": 0}, "stack"),
        ({"stack": -3}, "stack"),
        ({"stack": math.nan}, "stack"),
        ({"stack": math.inf}, "stack"),
        ({"stack": 10, "small_blind": 0}, "small_blind"),
        ({"stack": 10, "big_blind": -1}, "big_blind"),
        ({"stack": 10, "ante": -0.1}, "ante"),
        ({"stack": 10, "bb_ante": math.nan}, "bb_ante"),
        ({"stack": 10, "small_blind": 2}, "small_blind"),
        ({"stack": 1.1, "bb_ante": 0.5}, "stack"),
        ({"stack": "10"}, "stack"),
    ],
)
def test_invalid_configs_name_the_field(kwargs, field):
    with pytest.raises(ConfigError, match=field):
        GameConfig(**kwargs)


def explicit_value(game: PushFoldGame, table, x, y):
    """SB's value written node by node from the rules (module docstring of sflp.core.game):
    fold -(sb+a); shove/fold +(bb+a+A); showdown +S / -(S-A) / +A/2, weighted by deal probability."""
    c = game.config
    S, sb, bb, a, A = c.stack, c.small_blind, c.big_blind, c.ante, c.bb_ante
    total = 0.0
    deals = 1326 * 1225
    for i in range(169):
        for j in range(169):
            pairs = table.class_pairs[i, j]
            if not pairs:
                continue
            p = pairs / deals
            w, t = table.class_wins[i, j], table.class_ties[i, j]
            l = pairs * BOARDS_PER_PAIR - w - t
            showdown = (S * w - (S - A) * l + (A / 2) * t) / (pairs * BOARDS_PER_PAIR)
            total += p * ((1 - x[i]) * -(sb + a) + x[i] * (1 - y[j]) * (bb + a + A) + x[i] * y[j] * showdown)
    return total


strategies = arrays(np.float64, 169, elements=st.floats(0, 1))


@settings(max_examples=10, deadline=None)
@given(x=strategies, y=strategies, stack=st.sampled_from([1.0, 3.5, 10.0, 25.0]),
       ante=st.sampled_from([0.0, 0.125]), bb_ante=st.sampled_from([0.0, 1.0]))
def test_bilinear_form_matches_the_rules(table, x, y, stack, ante, bb_ante):
    config = GameConfig(stack=max(stack, 1 + ante + bb_ante), ante=ante, bb_ante=bb_ante)
    game = PushFoldGame(config, table)
    assert abs(game.value(x, y) - explicit_value(game, table, x, y)) < 1e-12


@settings(max_examples=30, deadline=None)
@given(x=strategies, y=strategies, stack=st.floats(1, 60))
def test_best_response_identities(table, x, y, stack):
    game = PushFoldGame(GameConfig(stack=stack), table)
    v = game.value(x, y)
    bx, vbx = game.best_response_sb(y)
    by, vby = game.best_response_bb(x)
    # the best responses achieve the values they claim, and beat the strategy they replace
    assert abs(game.value(bx, y) - vbx) < 1e-12 and abs(game.value(x, by) - vby) < 1e-12
    assert vbx >= v - 1e-12 and vby <= v + 1e-12
    assert game.exploitability(x, y) >= -1e-12
    # zero-sum: BB's margins are exactly minus the change of SB's value when a BB hand calls
    j = int(np.argmax(y < 1)) if np.any(y < 1) else 0
    y2 = y.copy()
    y2[j] = 1.0
    assert abs((game.value(x, y2) - v) + game.bb_margins(x)[j] * (1 - y[j])) < 1e-12


def test_terminal_values(table):
    game = PushFoldGame(GameConfig(stack=10, ante=0.1, bb_ante=0.5), table)
    zeros, ones = np.zeros(169), np.ones(169)
    assert abs(game.value(zeros, ones) - (-(0.5 + 0.1))) < 1e-12  # SB always folds
    assert abs(game.value(ones, zeros) - (1 + 0.1 + 0.5)) < 1e-12  # BB always folds
    # both all-in with every hand: wins and losses cancel by symmetry, leaving the tie share
    # A/2 * P(tie) and the BB ante's effect: +S*P(win) - (S-A)*P(lose) = A*P(lose)
    w = table.class_wins.sum() / (1326 * 1225 * BOARDS_PER_PAIR)
    t = table.class_ties.sum() / (1326 * 1225 * BOARDS_PER_PAIR)
    assert abs(w - (1 - t) / 2) < 1e-15
    assert abs(game.value(ones, ones) - (0.5 * w + 0.25 * t)) < 1e-12


def test_ev_margins_are_per_hand(table):
    game = PushFoldGame(GameConfig(stack=10), table)
    ones = np.ones(169)
    # facing a BB that folds everything, every SB shove gains bb + sb = 1.5 over folding
    assert np.allclose(game.sb_ev(np.zeros(169)), 1.5, atol=1e-12)
    # BB facing an always-shove: calling AA gains about 2*S*equity - S + 1 ... check AA > 0 > 72o
    ev = game.bb_ev(ones)
    assert ev[class_id("AA")] > 0 > ev[class_id("72o")]
    assert np.isnan(game.bb_ev(np.zeros(169))).all()


# ---------------------------------------------------------------- the domain of blinds and antes (issue 30, case 11)


@pytest.mark.parametrize(
    "kwargs, option, bound",
    [
        ({"small_blind": 1e-300}, "--small-blind", "below 1e-100"),
        ({"small_blind": 1e-300, "big_blind": 1e-300}, "--small-blind", "below 1e-100"),
        ({"ante": 1e-300}, "--ante", "below 1e-100"),
        ({"bb_ante": 5e-324}, "--bb-ante", "below 1e-100"),
        ({"ante": 1e-101}, "--ante", "below 1e-100"),
        ({"ante": Fraction(1, 10**400)}, "--ante", "below 1e-100"),  # 0.0 as a float
        ({"ante": 2e100, "stack": 1e300}, "--ante", "above 1e+100"),
        ({"big_blind": 1e101, "small_blind": 1, "stack": 1e300}, "--big-blind", "above 1e+100"),
    ],
)
def test_blinds_and_antes_outside_the_stated_domain_are_refused(kwargs, option, bound, table):
    """One clear line naming the option and the bound, before the float game is built (a blind or
    ante of 1e-300 bb was an OverflowError).  The configuration itself is fine: exact computations
    such as the Sklansky-Chubukov numbers hold at any scale."""
    config = GameConfig(**{"stack": 10, **kwargs})
    needle = rf"\({option}\) is {re.escape(bound)} bb, the (smallest|largest) blind or ante"
    with pytest.raises(ConfigError, match=needle):
        PushFoldGame(config, table)


def test_the_edges_of_the_domain_and_zero_antes_are_accepted(table):
    from sflp.core.game import MAX_AMOUNT, MIN_AMOUNT

    for config in (GameConfig(stack=10, small_blind=MIN_AMOUNT, big_blind=MIN_AMOUNT, ante=MIN_AMOUNT, bb_ante=0),
                   GameConfig(stack=4e100, small_blind=MAX_AMOUNT, big_blind=MAX_AMOUNT, ante=MAX_AMOUNT,
                              bb_ante=MAX_AMOUNT)):
        game = PushFoldGame(config, table)
        assert np.isfinite(game.K).all() and np.isfinite([game.f, game.g]).all()
        assert (game.payoffs.K0 != 0).any()  # the amounts did not vanish below the floats


# ---------------------------------------------------------------- the smallest stack and every --stacks hint (case 12)


@settings(max_examples=300, deadline=None)
@given(
    big_blind=st.floats(1e-6, 1e6),
    ante=st.one_of(st.just(0.0), st.floats(1e-6, 1e6)),
    bb_ante=st.one_of(st.just(0.0), st.floats(1e-6, 1e6)),
)
def test_min_stack_is_the_smallest_float_that_covers(big_blind, ante, bb_ante):
    """``min_stack`` is a valid stack and the float below it is not (GameConfig compares exactly:
    the float nearest the sum of shortest decimals can fall below the sum)."""
    from sflp.core.game import min_stack

    small_blind = big_blind / 2
    stack = min_stack(big_blind, ante, bb_ante)
    GameConfig(stack=stack, small_blind=small_blind, big_blind=big_blind, ante=ante, bb_ante=bb_ante)
    exact = sum((Fraction(repr(v)) for v in (big_blind, ante, bb_ante)), Fraction(0))
    below = math.nextafter(stack, 0.0)
    assert Fraction(repr(below)) < exact
    with pytest.raises(ConfigError, match="cannot cover"):
        GameConfig(stack=below, small_blind=small_blind, big_blind=big_blind, ante=ante, bb_ante=bb_ante)


HINT_STRUCTURES = [
    {},
    {"ante": 0.125},
    {"bb_ante": 1},
    {"ante": 0.1343642441124012},  # 1 + ante: the nearest float is below the exact sum
    {"ante": 0.1234567891},  # ':g' printed 1.12346, below the smallest stack
    {"ante": 24},  # exactly 25 bb: a range of one stack
    {"ante": 24.000000000000004},
    {"ante": 30},
    {"ante": 1e6},
    {"ante": 1e6, "bb_ante": 1e6},
    {"small_blind": 1e-100, "big_blind": 1e-100},
    {"ante": 1e100, "bb_ante": 1e100},
]


def _printed_hints(structure: dict) -> list[str]:
    """Every --stacks suggestion sflp can print for ``structure``: the hint itself, the one in the
    default range's error (blinds and antes above 25 bb) and the one in check_stacks's error."""
    from sflp.core.game import check_stacks, default_stacks, min_stack, stacks_hint

    config = GameConfig(stack=min_stack(structure.get("big_blind", 1.0), structure.get("ante", 0.0),
                                        structure.get("bb_ante", 0.0)), **structure)
    hints = [stacks_hint(config.big_blind, config.ante, config.bb_ante)]
    errors = []
    try:
        default_stacks(config.big_blind, config.ante, config.bb_ante)
    except ConfigError as exc:
        errors.append(str(exc))
    with pytest.raises(ConfigError) as info:
        check_stacks([math.nextafter(config.min_stack, 0.0)], config)
    errors.append(str(info.value))
    for text in errors:
        hints += re.findall(r"--stacks (\S+)", text)
    return hints


def _name(structure: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in structure.items()) or "default"


@pytest.mark.parametrize("structure", HINT_STRUCTURES, ids=_name)
def test_every_printed_stacks_hint_is_a_valid_range(structure):
    """Each suggestion goes through the CLI's own parser and the stack checks of the chart command,
    and every stack it gives is a valid game (`--stacks 1e+06:25:0.05` was suggested for an ante of
    1e6: stop below start, and below the smallest stack)."""
    from sflp.checks import MAX_STACKS, parse_stacks
    from sflp.cli import build_parser
    from sflp.core.game import check_stacks

    config = GameConfig(stack=1e300, **structure)
    hints = _printed_hints(structure)
    assert len(hints) >= 2
    for hint in hints:
        options = [text for k, v in structure.items() for text in (f"--{k.replace('_', '-')}", repr(v))]
        args = build_parser().parse_args(["chart", "--stacks", hint, *options])
        stacks = parse_stacks(args.stacks)
        check_stacks(stacks, config)
        assert 1 <= len(stacks) <= MAX_STACKS, hint
        for stack in (stacks[0], stacks[-1]):
            config.with_stack(stack)


def test_the_default_range_refers_to_a_valid_hint_above_25_bb():
    from sflp.core.game import default_stacks

    with pytest.raises(ConfigError, match=r"give --stacks, e\.g\. --stacks 1000001:25000025:50000\.05$"):
        default_stacks(ante=1e6)
