"""Combo-level policies (issue 33 §5): read, written and scored exactly.

A combo-level policy names each player's 1,326 combos ``"<p>-<p>-<combo id + 1>-<combo>"``
(:func:`sflp.openspiel.efg.combo_info_state`).  ``verify`` scores it at class level when every
class is played alike (exact by suit symmetry) and in the 1,326-combo game otherwise.  Pinned
here: the two levels give the same fractions on the same strategies; a strategy that varies inside
a class gets the ``nash_conv`` of a float computation written below from the equity table's raw
counts and the payoff table of :mod:`sflp.core.payoff` (not from sflp's game matrices); the
refusals name the bad state.  One stack, 10 bb; the first combo-level score in the process builds
the exact 1,326 x 1,326 matrix (a few seconds), later ones reuse it.
"""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest

from sflp.core.cards import CLASS_COMBOS, CLASS_INDEX, COMBO_CARDS, COMBO_CLASS, N_COMBOS, combo_name, parse_combo
from sflp.core.equity import BOARDS_PER_PAIR
from sflp.core.game import GameConfig, PushFoldGame
from sflp.errors import ConfigError, NotationError
from sflp.openspiel import combo_info_state, from_strategy, read_policy, to_strategy, verify
from sflp.solving.certify import exact_value
from sflp.solving.solver import solve
from sflp.study.strategy import StrategySpec
from sflp.study.verify import _exact_figures
from sflp.study.verify import verify as verify_strategies

CONFIG = GameConfig(stack=10)
FIGURES = ("nash_value", "sb_exploitability", "bb_exploitability", "value_vs_each_other", "sb_gain", "bb_gain",
           "nash_conv")


@pytest.fixture(scope="module")
def solution():
    return solve(CONFIG, exact=True)


@pytest.fixture(scope="module")
def equilibrium(solution):
    """The class equilibrium as 169 float frequencies a side (what a policy file holds)."""
    x, y = solution.class_strategies()
    return np.asarray(x, float), np.asarray(y, float)


def refused(call, *needles, kind=ConfigError) -> str:
    with pytest.raises(kind) as info:
        call()
    message = str(info.value)
    assert "\n" not in message
    for needle in needles:
        assert needle in message, (needle, message)
    return message


# ---------------------------------------------------------------- the names


def test_combo_states_are_numbered_by_combo_id_and_named_higher_card_first():
    assert combo_info_state("sb", 0) == "0-0-1-2d2c"  # combo 0 is (2c, 2d): cards.py's docstring
    assert combo_info_state("bb", 1325) == "1-1-1326-AsAh"
    k = parse_combo("AhKd")
    assert combo_info_state("sb", "AhKd") == combo_info_state("sb", "kdah") == f"0-0-{k + 1}-AhKd"
    assert combo_info_state(" BB ", np.int16(k)) == f"1-1-{k + 1}-AhKd"
    names = {combo_info_state(p, c) for p in ("sb", "bb") for c in range(N_COMBOS)}
    assert len(names) == 2 * N_COMBOS
    refused(lambda: combo_info_state("sb", "AhAh"), "'AhAh' is not a combo", kind=NotationError)
    refused(lambda: combo_info_state("sb", 1326), "combo=1326", "0..1325", kind=NotationError)
    refused(lambda: combo_info_state("sb", True), "combo=True", kind=NotationError)
    refused(lambda: combo_info_state("xx", 0), "player='xx'")


# ---------------------------------------------------------------- (a), (d): the two levels agree exactly


def test_the_class_equilibrium_as_a_combo_policy_scores_the_same_fractions_at_combo_level(solution, equilibrium):
    x, y = equilibrium
    table = from_strategy(x, y, combos=True, config=CONFIG)
    assert len(table) == 1 + 2 * N_COMBOS
    s = to_strategy(table)
    assert np.array_equal(s.sb.combo_freq, x[COMBO_CLASS]) and np.array_equal(s.bb.combo_freq, y[COMBO_CLASS])
    collapsed = verify(table, CONFIG, solution=solution)
    combo = verify(table, CONFIG, solution=solution, level="combo")
    assert (collapsed.level, combo.level) == ("class", "combo")
    assert set(combo.exact) == set(FIGURES)
    for key in FIGURES:
        assert type(combo.exact[key]) is Fraction and combo.exact[key] == collapsed.exact[key], key
    # the floats rounded the certified fractions, so nash_conv is tiny but need not be 0
    assert 0 <= combo.exact["nash_conv"] < Fraction(1, 10**15)
    # the class value is the combo game's value of the expanded exact equilibrium, exactly
    combo_game = PushFoldGame(CONFIG, None, "combo")
    expand = COMBO_CLASS.tolist()
    sb_exact, bb_exact = solution.sb_exact, solution.bb_exact
    assert exact_value(combo_game, [sb_exact[c] for c in expand], [bb_exact[c] for c in expand]) \
        == solution.value_exact
    # and the public function forced to combo level is the private computation at combo level
    direct = _exact_figures(CONFIG, None, solution.value_exact, s.sb, s.bb, "combo")
    assert direct == combo.exact


def test_a_suit_symmetric_combo_policy_scores_as_its_class_policy(solution):
    """Suit permutations act transitively on each class's combos, so a suit-symmetric combo
    policy is one that plays each class alike; any such policy, not only the equilibrium."""
    rng = np.random.default_rng(33)
    x, y = rng.random(169), rng.random(169)
    x[CLASS_INDEX["AA"]], y[CLASS_INDEX["72o"]] = 1.0, 0.0
    class_report = verify(from_strategy(x, y), CONFIG, solution=solution)
    combo_table = from_strategy(x, y, combos=True)
    auto = verify(combo_table, CONFIG, solution=solution)
    forced = verify(combo_table, CONFIG, solution=solution, level="combo")
    assert (class_report.level, auto.level, forced.level) == ("class", "class", "combo")
    assert class_report.exact == auto.exact == forced.exact
    assert class_report.exact["nash_conv"] > Fraction(1, 100)  # far from an equilibrium: the check has teeth
    assert [r.ev_lost for r in forced.hands] == pytest.approx([r.ev_lost for r in class_report.hands], abs=1e-12)


# ---------------------------------------------------------------- (b): a strategy that varies inside a class


def independent_nash_conv(x: np.ndarray, y: np.ndarray) -> float:
    """``max_x' V(x', y) - min_y' V(x, y')`` at 10 bb (no ante), from the table's raw counts.

    Payoffs (sflp.core.payoff's table, stack 10, blinds 0.5/1): SB folds -0.5, BB folds +1, a
    showdown +10 won, -10 lost, 0 tied.  Each of the 1,326 x 1,225 ordered deals of disjoint combos
    is equally likely."""
    from sflp.core.equity import load_table

    table = load_table()
    cards = COMBO_CARDS.astype(np.int64)
    masks = (1 << cards[:, 0]) | (1 << cards[:, 1])
    disjoint = (masks[:, None] & masks[None, :]) == 0
    wins, ties = table.wins.astype(float), table.ties.astype(float)
    losses = np.where(disjoint, BOARDS_PER_PAIR - wins - ties, 0.0)
    showdown = (10.0 * wins - 10.0 * losses) / BOARDS_PER_PAIR  # SB's chips summed over boards / boards
    d = disjoint.astype(float)
    # SB combo i shoving against y: sum over BB combos j (card removal), each 1/1225
    shove = (d * (1.0 - y)[None, :] * 1.0 + showdown * y[None, :]).sum(axis=1) / 1225
    fold = -0.5
    sb_best = np.maximum(shove, fold).mean()
    # BB combo j against x: SB's chips when BB folds (call) summed over SB combos i that shove
    folded = ((1.0 - x) * fold).mean()
    when_bb_folds = (x[:, None] * d * 1.0).sum(axis=0)
    when_bb_calls = (x[:, None] * showdown).sum(axis=0)
    bb_best = folded + np.minimum(when_bb_folds, when_bb_calls).sum() / (1326 * 1225)
    return float(sb_best - bb_best)


def varying(equilibrium) -> tuple[np.ndarray, np.ndarray]:
    """The equilibrium with some combos of some classes changed: SB never shoves AhAd and shoves
    72o only holding the 7h; BB calls KK only with KsKh and folds every AKo with the As."""
    x, y = (v[COMBO_CLASS].copy() for v in equilibrium)
    x[parse_combo("AhAd")] = 0.0
    for c in CLASS_COMBOS[CLASS_INDEX["72o"]]:
        x[c] = 1.0 if "7h" in combo_name(c) else 0.0
    for c in CLASS_COMBOS[CLASS_INDEX["KK"]]:
        y[c] = 1.0 if combo_name(c) == "KsKh" else 0.0
    for c in CLASS_COMBOS[CLASS_INDEX["AKo"]]:
        if "As" in combo_name(c):
            y[c] = 0.0
    return x, y


def test_a_policy_varying_inside_a_class_is_scored_at_combo_level_exactly(solution, equilibrium):
    x, y = varying(equilibrium)
    table = from_strategy(x, y, combos=True, config=CONFIG)
    report = verify(table, CONFIG, solution=solution)
    assert report.level == "combo"
    exact = report.exact
    assert exact["nash_conv"] == exact["sb_gain"] + exact["bb_gain"]
    assert exact["sb_gain"] > 0 and exact["bb_gain"] > 0  # both sides misplay a hand
    want = independent_nash_conv(x, y)
    assert abs(float(exact["nash_conv"]) - want) <= 1e-12, (float(exact["nash_conv"]), want)
    assert want > 1e-4  # the changes cost something, so the comparison is not 0 against 0
    # the unchanged equilibrium scores ~0 by the same independent computation: it sees the difference
    assert abs(independent_nash_conv(*(v[COMBO_CLASS] for v in equilibrium))) <= 1e-12
    # the per-class rows name the misplayed classes
    lost = {(r.player, r.hand): r.ev_lost for r in report.hands}
    assert lost[("sb", "AA")] > 0 and lost[("sb", "72o")] > 0 and lost[("bb", "KK")] > 0
    assert lost[("sb", "AKs")] == 0
    refused(lambda: verify(table, CONFIG, solution=solution, level="class"), "varies inside a class",
            "level='combo'")


def test_a_combo_policy_reads_back_from_json_and_from_a_tabular_policy(tmp_path, solution, equilibrium):
    x, y = varying(equilibrium)
    table = from_strategy(x, y, combos=True, config=CONFIG)
    path = tmp_path / "combo.json"
    path.write_text(json.dumps(table))
    read = to_strategy(read_policy(path))
    assert np.array_equal(read.sb.combo_freq, x) and np.array_equal(read.bb.combo_freq, y)

    class Tabular:  # open_spiel.python.policy.TabularPolicy's two fields
        state_lookup = {s: k for k, s in enumerate(s for s in table if not s.startswith("_"))}
        action_probability_array = np.zeros((len(state_lookup), 3))

    for state, row in Tabular.state_lookup.items():
        for action, p in table[state]:
            Tabular.action_probability_array[row, action] = p
    tab = to_strategy(Tabular())
    assert np.array_equal(tab.sb.combo_freq, x) and np.array_equal(tab.bb.combo_freq, y)


def test_from_strategy_writes_a_spec_at_combo_level_and_refuses_it_at_class_level(equilibrium):
    x, y = varying(equilibrium)
    sb, bb = StrategySpec.from_frequencies(x, "sb", "mine"), StrategySpec.from_frequencies(y, "bb", "mine")
    table = from_strategy(sb, bb, combos=True)
    assert table[combo_info_state("sb", "AhAd")] == [(0, 1.0), (1, 0.0)]
    assert table[combo_info_state("bb", "KsKh")] == [(0, 0.0), (2, 1.0)]
    assert list(table)[:2] == ["0-0-1-2d2c", "0-0-2-2h2c"] and list(table)[N_COMBOS] == "1-1-1-2d2c"
    refused(lambda: from_strategy(sb, bb), "the SB strategy ('mine') plays the combos of AA differently",
            "combos=True")
    refused(lambda: from_strategy(np.full(N_COMBOS, 0.5), y), "expected 169 class frequencies",
            "shape (1326,)")
    bad = x.copy()
    bad[parse_combo("AsKs")] = 1.5
    refused(lambda: from_strategy(bad, y, combos=True), "SB strategy: the frequency of AsKs is 1.5")
    refused(lambda: from_strategy(np.zeros(100), y, combos=True), "169 class or 1326 combo", "shape (100,)")
    refused(lambda: from_strategy(x, y, combos="yes"), "combos='yes'")


# ---------------------------------------------------------------- (c): refusals name the bad state


@pytest.fixture(scope="module")
def combo_table(equilibrium):
    return from_strategy(*equilibrium, combos=True)


def edited(table: dict, drop=(), **states) -> dict:
    out = {k: v for k, v in table.items() if k not in drop}
    out.update(states)
    return out


def test_a_policy_mixing_class_and_combo_states_is_refused(combo_table):
    mixed = edited(combo_table, **{"0-0-1-AA": [(0, 0.0), (1, 1.0)]})
    refused(lambda: to_strategy(mixed), "mixes class-level and combo-level information states", "'0-0-1-AA'",
            "'0-0-1-2d2c'")
    mixed = edited(from_strategy(np.ones(169), np.zeros(169)), **{"1-1-1326-AsAh": [(0, 1.0), (2, 0.0)]})
    refused(lambda: to_strategy(mixed), "mixes", "'1-1-1326-AsAh'")


@pytest.mark.parametrize("state, needles", [
    ("0-0-1-2c2d", ("policy state '0-0-1-2c2d' is not a state", "its combo is written '0-0-1-2d2c'")),
    ("0-0-7-AhKd", ("'0-0-7-AhKd'", f"its combo is written '0-0-{parse_combo('AhKd') + 1}-AhKd'")),
    ("1-1-1-AhAh", ("'1-1-1-AhAh'", "'AhAh' is no combo")),
    ("1-1-1327-AsAh", ("'1-1-1327-AsAh'", "its combo is written '1-1-1326-AsAh'")),
    ("0-1-1-2d2c", ("'0-1-1-2d2c' is not a state", "combo_info_state")),
], ids=["card order", "number", "card twice", "past the last", "players"])
def test_an_unknown_combo_state_is_refused_naming_it_and_the_state_meant(combo_table, state, needles):
    refused(lambda: to_strategy(edited(combo_table, **{state: [(0, 1.0), (1, 0.0)]})), *needles)


def test_a_combo_given_twice_is_refused_naming_it(tmp_path, combo_table):
    """Under two spellings (the other one is no state), and twice in a file (JSON and serialize())."""
    twice = edited(combo_table, **{"0-0-1-2c2d": combo_table["0-0-1-2d2c"]})
    refused(lambda: to_strategy(twice), "'0-0-1-2c2d'", "'0-0-1-2d2c'")
    entry = json.dumps(combo_table["0-0-1-2d2c"])
    body = ", ".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in combo_table.items())
    path = tmp_path / "twice.json"
    path.write_text("{" + body + f', "0-0-1-2d2c": {entry}' + "}")
    refused(lambda: read_policy(path), "twice.json", "'0-0-1-2d2c' appears twice")
    path = tmp_path / "twice.txt"
    path.write_text("TabularPolicy:0-0-1-2d2c<~>0=0x0p+0,1=0x1p+0<~>0-0-1-2d2c<~>0=0x0p+0,1=0x1p+0")
    refused(lambda: read_policy(path), "twice.txt", "'0-0-1-2d2c' is listed twice")


@pytest.mark.parametrize("entry, needles", [
    ([(0, -0.25), (1, 1.25)], ("policy state '0-0-1310-AhKd'", "-0.25", "outside [0, 1]")),
    ([(0, 0.5), (1, 0.6)], ("policy state '0-0-1310-AhKd'", "sum to 1.1")),
    ([(0, 0.5), (2, 0.5)], ("policy state '0-0-1310-AhKd'", "call, which SB does not have")),
], ids=["out of range", "sum", "BB's action"])
def test_bad_probabilities_at_a_combo_state_are_refused_naming_it(combo_table, entry, needles):
    assert combo_info_state("sb", "AhKd") == "0-0-1310-AhKd"
    refused(lambda: to_strategy(edited(combo_table, **{"0-0-1310-AhKd": entry})), *needles)


def test_a_missing_combo_state_is_refused_naming_it(combo_table):
    refused(lambda: to_strategy(edited(combo_table, drop=("1-1-1326-AsAh",))),
            "no entry for information state '1-1-1326-AsAh'", "all 2,652 of a combo-level policy")
    sb_only = {k: v for k, v in combo_table.items() if k.startswith("0-")}
    refused(lambda: to_strategy(sb_only), "'1-1-1-2d2c' (and 1325 more)")


def test_verify_strategies_takes_a_level_and_names_a_bad_one(solution, equilibrium):
    x, y = varying(equilibrium)
    sb = StrategySpec.from_frequencies(x, "sb", "mine")
    refused(lambda: verify_strategies(CONFIG, sb, None, solution=solution, level="class"),
            "the SB strategy array varies inside a class")
    refused(lambda: verify_strategies(CONFIG, sb, None, solution=solution, level="combos"), "level='combos'")
    one_side = verify_strategies(CONFIG, sb, None, solution=solution, exact=True)
    assert one_side.level == "combo" and set(one_side.exact) == {"nash_value", "sb_exploitability"}
    assert one_side.exact["sb_exploitability"] > 0



# ---------------------------------------------------------------- the combo-level game in OpenSpiel


@pytest.mark.slow
def test_a_policy_on_the_combo_level_game_is_read_state_by_state_and_scored(tmp_path, solution, equilibrium):
    """OpenSpiel's game of the combo-level ``.efg`` (about a minute to write and load, ~4 GB): sflp
    takes it as its own game of that structure, refuses it for another stack, and reads a policy
    on it state by state to the same figures as its table."""
    try:
        import pyspiel
        from open_spiel.python import policy as python_policy
    except ImportError:
        pytest.skip("OpenSpiel is not installed (pip install 'open-spiel>=1.5'; CI installs it with the test extra)")
    from sflp.openspiel.combo import write_combo_efg
    from sflp.openspiel.game import check_game, game_level
    from sflp.openspiel.policy import state_rows

    path = tmp_path / "combo10.efg"
    write_combo_efg(CONFIG, path)
    game = pyspiel.load_efg_game(path.read_text())
    assert game_level(game) == "combo"
    check_game(game, CONFIG)
    refused(lambda: check_game(game, GameConfig(stack=15)), "another structure", "2d2c v AsAh")
    x, y = varying(equilibrium)
    table = from_strategy(x, y, combos=True)

    class ByState(python_policy.Policy):  # read one state at a time, as sflp reads any Python Policy
        def action_probabilities(self, state, player_id=None):
            return dict(table[state.information_state_string()])

    rows = state_rows(ByState(game, [0, 1]), game)
    assert set(rows) == set(table)
    by_state = verify(ByState(game, [0, 1]), CONFIG, game, solution=solution)
    assert by_state.level == "combo" and by_state.exact == verify(table, CONFIG, solution=solution).exact
