"""Issue 45, item 4: the fast referee (``sflp.Referee``, ``sflp.exploitability``) agrees with the
exact scorer (``sflp.openspiel.verify``: best responses in rationals, no solver) within 1e-12 bb
on every kind of policy, and its batched form is the single one row by row.

References: with no ante the deal is symmetric, so SB shoving every hand into a BB calling every
hand is worth exactly 0 to SB; SB folding every hand loses exactly its small blind (-0.5) and BB
then has nothing to gain.
"""

from __future__ import annotations

import numpy as np
import pytest

import sflp
from sflp.core.game import GameConfig
from sflp.errors import ArgumentTypeError, ConfigError
from sflp.openspiel import from_strategy

CONFIGS = [GameConfig(stack=10), GameConfig(stack=2.5), GameConfig(stack=40, ante=0.125),
           GameConfig(stack=7, small_blind=0.4, big_blind=0.8, ante=0.1, bb_ante=0.8)]


def _policies(config):
    x, y = sflp.solve(config).class_strategies()
    rng = np.random.default_rng(int(config.stack * 8))
    yield "equilibrium", x, y
    yield "random", rng.uniform(size=169), rng.uniform(size=169)
    yield "pure random", rng.integers(0, 2, 169).astype(float), rng.integers(0, 2, 169).astype(float)
    yield "near equilibrium", np.clip(x + rng.normal(0, 0.01, 169), 0, 1), np.clip(y + rng.normal(0, 0.01, 169), 0, 1)
    yield "all in, all call", np.ones(169), np.ones(169)
    yield "fold, fold", np.zeros(169), np.zeros(169)


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c.stack:g}bb-a{c.ante:g}-bba{c.bb_ante:g}")
def test_the_referee_agrees_with_the_exact_scorer_within_1e_12(config):
    ref = sflp.Referee(config)
    rows = list(_policies(config))
    for name, x, y in rows:
        exact = sflp.openspiel.verify(from_strategy(x, y, config=config), config).exact
        s = ref.score(x, y)
        for field, key in (("sb_gain", "sb_gain"), ("bb_gain", "bb_gain"), ("nash_conv", "nash_conv"),
                           ("value", "value_vs_each_other")):
            assert abs(getattr(s, field) - float(exact[key])) <= 1e-12, (name, field)
    many = ref.score_many(np.array([x for _, x, _ in rows]), np.array([y for _, _, y in rows]))
    for n, (_, x, y) in enumerate(rows):
        assert abs(many.nash_conv[n] - ref.score(x, y).nash_conv) <= 1e-13
        assert abs(many.value[n] - ref.score(x, y).value) <= 1e-13


def test_identities_of_the_game():
    s = sflp.exploitability(np.ones(169), np.ones(169), GameConfig(stack=12))
    assert abs(s.value) <= 1e-15  # symmetric deal, no ante
    s = sflp.exploitability(np.zeros(169), np.ones(169), GameConfig(stack=12))
    assert s.value == -0.5 and s.bb_gain == 0.0 and s.sb_gain > 0
    assert s.nash_conv == s.sb_gain + s.bb_gain


@pytest.mark.parametrize("push, message", [
    (np.ones(168), r"push has shape \(168,\): expected \(169,\)"),
    (np.full(169, 1.5), r"push: every frequency must be a number in \[0, 1\]; AA has 1.5"),
    (np.r_[np.zeros(168), np.nan], "22 has nan"),
    ("abc", "push='abc': expected 169 frequencies"),
])
def test_bad_input_is_one_clear_error(push, message):
    with pytest.raises(ConfigError, match=message):
        sflp.exploitability(push, np.zeros(169), GameConfig(stack=10))


def test_bad_batches_and_configs_are_refused():
    ref = sflp.Referee(GameConfig(stack=10))
    with pytest.raises(ConfigError, match=r"push has 2 policies and call 3"):
        ref.score_many(np.zeros((2, 169)), np.zeros((3, 169)))
    with pytest.raises(ConfigError, match=r"expected \(N, 169\)"):
        ref.score_many(np.zeros(169), np.zeros(169))
    with pytest.raises(ConfigError, match="row 1, AKs has -0.25"):
        ref.score_many(np.r_[[np.zeros(169)], [np.r_[0, -0.25, np.zeros(167)]]], np.zeros((2, 169)))
    with pytest.raises(ArgumentTypeError, match="not a GameConfig"):
        sflp.Referee({"stack": 10})
