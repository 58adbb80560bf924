"""Game model: configuration, payoffs, best responses, exploitability (no solver involved)."""

import math

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
