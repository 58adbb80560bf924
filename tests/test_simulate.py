"""Tests of sflp.study.simulate: hands played out with real cards agree with the exact game values."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from sflp.core.cards import COMBO_CLASS, COMBO_INDEX, N_CLASSES, N_COMBOS
from sflp.core.evaluator import evaluate7
from sflp.core.game import GameConfig, PushFoldGame
from sflp.errors import ConfigError, NotationError
from sflp.solving.solver import solve
from sflp.study.simulate import Settlement, format_text, record_hands, settle_hand, simulate
from sflp.study.verify import StrategySpec, load_strategy

TEN = GameConfig(stack=10)
ANTES = GameConfig(stack=10, ante=0.1, bb_ante=1)
HANDS = 1_000_000  # ~0.3 s each once compiled


@pytest.fixture(scope="module")
def solutions():
    return {"ten": solve(TEN), "antes": solve(ANTES)}


# ---------------------------------------------------------------- one hand, by hand


def test_split_pot_no_antes():
    # both play the board's broadway straight: the 20-chip pot is split, SB nets 0
    s = settle_hand(TEN, "7h2d", "AsKs", "AcKdQhJsTc", True, True)
    assert s.node == "showdown" and s.winner == "split"
    assert s.pot == pytest.approx(10 + 10)
    assert s.sb_net == pytest.approx(10 - 10) and s.returned_sb == 0 and s.returned_bb == 0


def test_split_pot_with_bb_ante_returns_the_uncalled_amount():
    # S = 10, ante 0.1 each, BB ante 1.  SB: ante 0.1, shoves its other 9.9 (live).
    # BB: ante 0.1 + BB ante 1 (dead), then 8.9 live: all it has.  SB's 9.9 - 8.9 = 1.0 is uncalled.
    # Pot: 0.1 + 0.1 + 1 (dead) + 8.9 + 8.9 = 19.0, split 9.5 / 9.5.
    s = settle_hand(ANTES, "7h2d", "AsKs", "AcKdQhJsTc", True, True)
    assert s.winner == "split"
    assert s.returned_sb == pytest.approx(1.0)
    assert s.pot == pytest.approx(0.1 + 0.1 + 1 + 8.9 + 8.9)
    assert s.sb_net == pytest.approx(1.0 + 19.0 / 2 - 10.0)  # = +0.5 = bb_ante / 2
    assert s.bb_net == pytest.approx(-0.5)


def test_uncalled_amount_returned_when_sb_wins_or_loses():
    win = settle_hand(ANTES, "AhAd", "KcKs", "2c7d9hJs3c", True, True)
    assert win.winner == "sb" and win.returned_sb == pytest.approx(1.0)
    assert win.sb_net == pytest.approx(1.0 + 19.0 - 10.0)  # = S
    lose = settle_hand(ANTES, "KcKs", "AhAd", "2c7d9hJs3c", True, True)
    assert lose.winner == "bb" and lose.sb_net == pytest.approx(1.0 - 10.0)  # = -(S - A)


def test_uncontested_and_folded_hands():
    # BB folds to the shove: SB's 9.9 - 1 = 8.9 is uncalled; SB wins 0.2 + 1 + 1 + 1 = 3.2
    steal = settle_hand(ANTES, "2c7d", "AhAd", "KcKs9hJs3c", True, False)
    assert steal.node == "uncontested" and steal.winner == "sb"
    assert steal.returned_sb == pytest.approx(8.9) and steal.pot == pytest.approx(3.2)
    assert steal.sb_net == pytest.approx(8.9 + 3.2 - 10.0)  # = bb + ante + bb_ante = 2.1
    assert steal.sb_value is None  # no showdown, no evaluation
    # SB folds: BB's 0.5 above the small blind comes back; BB wins 0.2 + 1 + 0.5 + 0.5
    fold = settle_hand(ANTES, "AhAd", "2c7d", "KcKs9hJs3c", False, True)
    assert fold.node == "fold" and fold.winner == "bb"
    assert fold.returned_bb == pytest.approx(0.5) and fold.pot == pytest.approx(2.2)
    assert fold.sb_net == pytest.approx(-0.6)


def test_blind_all_in_short_stack():
    # S = 1.5, BB ante 0.5: BB is all-in on its blind (1.5 - 0.5 - 1 = 0 behind); SB shoves 1.5 live
    short = GameConfig(stack=1.5, bb_ante=0.5)
    s = settle_hand(short, "AhAd", "KcKs", "2c7d9hJs3c", True, True)
    assert s.returned_sb == pytest.approx(0.5) and s.pot == pytest.approx(0.5 + 1 + 1)
    assert s.sb_net == pytest.approx(0.5 + 2.5 - 1.5)


def test_hand_ranking_decides():
    # SB's flush beats BB's straight
    s = settle_hand(TEN, "Ah2h", "9c8d", "Th7h6s5h3c", True, True)
    assert s.winner == "sb" and s.sb_value > s.bb_value and s.sb_net == 10


@pytest.mark.parametrize(
    "config",
    [TEN, ANTES, GameConfig(stack=25, ante=0.125), GameConfig(stack=7, bb_ante=1),
     GameConfig(stack=3, small_blind=0.4, big_blind=0.8)],
)
def test_settlement_matches_the_closed_form_terminal_payoffs(config):
    """The chip-by-chip settlement agrees with the terminal table of sflp.core.game's docstring."""
    s, a, big_ante = config.stack, config.ante, config.bb_ante
    board = "2c7d9hJs3c"
    cases = [
        (settle_hand(config, "AhAd", "KcKs", board, False, False), -(config.small_blind + a)),
        (settle_hand(config, "AhAd", "KcKs", board, True, False), config.big_blind + a + big_ante),
        (settle_hand(config, "AhAd", "KcKs", board, True, True), s),
        (settle_hand(config, "KcKs", "AhAd", board, True, True), -(s - big_ante)),
        (settle_hand(config, "7h2d", "AsKs", "AcKdQhJsTc", True, True), big_ante / 2),
    ]
    for settlement, expected in cases:
        assert isinstance(settlement, Settlement)
        assert settlement.sb_net == pytest.approx(expected, abs=1e-12)


def test_bad_deals_are_rejected():
    with pytest.raises(NotationError):
        settle_hand(TEN, "AhAd", "AhKs", "2c7d9hJs3c", True, True)
    with pytest.raises(NotationError):
        settle_hand(TEN, "AhAd", "KcKs", "2c7d9h", True, True)


# ---------------------------------------------------------------- many hands


@pytest.mark.parametrize("name", ["ten", "antes"])
def test_exact_value_inside_the_interval(name, solutions):
    config = TEN if name == "ten" else ANTES
    solution = solutions[name]
    report = simulate(config, HANDS, seed=2024, solution=solution)
    assert report.exact_value == pytest.approx(solution.value, abs=1e-12)
    assert report.ci_low < report.mean < report.ci_high
    assert report.ci_high - report.ci_low == pytest.approx(2 * 1.959963984540054 * report.stderr)
    assert report.inside, format_text(report)
    assert report.folds + report.uncontested + report.showdowns == HANDS
    assert report.sb_wins + report.ties + report.sb_losses == report.showdowns
    # node frequencies against the exact deal probabilities (binomial, 4.5 standard errors)
    game = PushFoldGame(config)
    x, y = solution.sb_strategy, solution.bb_strategy
    p_fold = 1 - game.r @ x
    p_showdown = x @ game.P @ y
    for count, p in ((report.folds, p_fold), (report.showdowns, p_showdown)):
        assert abs(count / HANDS - p) < 4.5 * math.sqrt(p * (1 - p) / HANDS)


def test_given_strategies_class_and_combo_level(solutions):
    # random vs random: SB's exact value is 0 without antes by symmetry
    report = simulate(TEN, 400_000, seed=7, sb=load_strategy("random", "sb"), bb=np.ones(N_CLASSES))
    assert report.exact_value == pytest.approx(0.0, abs=1e-12) and report.inside
    assert report.folds == 0 and report.uncontested == 0
    # a combo-level SB strategy (half the combos of each class) vs BB's equilibrium, with antes
    push = np.zeros(N_COMBOS)
    push[::2] = 1.0
    spec = StrategySpec.from_frequencies(push, "sb", "every other combo")
    report = simulate(ANTES, 400_000, seed=11, sb=spec, solution=solutions["antes"])
    game = PushFoldGame(ANTES, level="combo")
    assert report.exact_value == pytest.approx(
        game.value(push, solutions["antes"].bb_strategy[COMBO_CLASS]), abs=1e-12
    )
    assert report.inside and report.sb_source == "every other combo"


def test_same_seed_same_result(solutions):
    a = simulate(ANTES, 50_000, seed=3, solution=solutions["antes"])
    b = simulate(ANTES, 50_000, seed=3, solution=solutions["antes"])
    c = simulate(ANTES, 50_000, seed=4, solution=solutions["antes"])
    assert (a.mean, a.stderr, a.folds, a.showdowns) == (b.mean, b.stderr, b.folds, b.showdowns)
    assert a.mean != c.mean


def test_every_recorded_hand_settles_as_the_pure_function_says(solutions):
    """The compiled loop vs settle_hand + evaluate7, hand by hand (mixed strategies reach every node)."""
    sb, bb = np.full(N_CLASSES, 0.6), np.full(N_CLASSES, 0.5)
    log = record_hands(ANTES, 3000, seed=5, sb=sb, bb=bb)
    nodes = set()
    for h in range(3000):
        cards = [int(c) for c in log.cards[h]]
        assert len(set(cards)) == 12 and all(0 <= c < 52 for c in cards)
        settlement = settle_hand(ANTES, log.sb_hole(h), log.bb_hole(h), log.board(h), log.shoves[h], log.calls[h])
        assert log.sb_net[h] == pytest.approx(settlement.sb_net, abs=1e-12)
        nodes.add(settlement.winner if settlement.node == "showdown" else settlement.node)
        if settlement.node == "showdown":  # the project's evaluator, called the public way
            v_sb = evaluate7(np.array(log.sb_hole(h) + log.board(h)))
            v_bb = evaluate7(np.array(log.bb_hole(h) + log.board(h)))
            assert settlement.sb_value == v_sb and settlement.bb_value == v_bb
    assert nodes == {"fold", "uncontested", "sb", "bb", "split"}
    report = simulate(ANTES, 3000, seed=5, sb=sb, bb=bb)
    assert report.mean == pytest.approx(float(np.mean(log.sb_net)), abs=1e-12)
    assert report.stderr == pytest.approx(float(np.std(log.sb_net, ddof=1) / math.sqrt(3000)), rel=1e-9)


def test_cards_are_dealt_uniformly():
    """Each card lands in each dealt position about equally often (chi-square, 51 d.f.)."""
    log = record_hands(TEN, 52_000, seed=9, sb=np.zeros(N_CLASSES), bb=np.zeros(N_CLASSES))
    for position in (0, 3, 11):
        counts = np.bincount(log.cards[:, position], minlength=52)
        chi2 = float(((counts - 1000) ** 2 / 1000).sum())
        assert chi2 < 100  # P(chi2_51 > 100) < 1e-4
    assert np.all(COMBO_INDEX[log.cards[:, 1], log.cards[:, 3]] >= 0)


def test_report_dict_and_text(solutions):
    report = simulate(TEN, 20_000, seed=1, solution=solutions["ten"])
    d = report.to_dict()
    for key in ("hands", "seed", "mean", "stderr", "ci_low", "ci_high", "exact_value", "inside", "seconds",
                "folds", "uncontested", "showdowns", "sb_wins", "ties", "sb_losses", "stack", "ante", "bb_ante"):
        assert key in d
    assert json.loads(json.dumps(d)) == d
    text = format_text(report)
    assert "20,000 hands" in text and "95% interval" in text and "exact value" in text


def test_argument_checks(solutions):
    with pytest.raises(ConfigError):
        simulate(TEN, 1, solution=solutions["ten"])
    with pytest.raises(ConfigError):
        simulate(TEN, 100, seed=-1, solution=solutions["ten"])
    with pytest.raises(ConfigError):
        simulate(TEN, 100, sb=np.ones(10), solution=solutions["ten"])
    with pytest.raises(ConfigError, match="loaded for BB"):
        simulate(TEN, 100, sb=load_strategy("AA", "bb"), solution=solutions["ten"])
