"""Issue 33, items 2, 3 and 6: the game travels with the policy and the .efg file, a pyspiel game
that is not sflp's is refused, the gate of ``sflp verify`` (``--max-nash-conv``, ``--max-gain``,
the exit code and the JSON's ``"pass"``), ``sflp.testing.assert_nash_conv_below``, and OpenSpiel's
non-JSON policy files refused with the two lines that write JSON.

References: OpenSpiel's ``nash_conv`` is the sum of both players' best-response gains
(``open_spiel/algorithms/tabular_exploitability.h``); with both sides given the two
exploitabilities measured from the equilibrium value sum to it (``v* - min_y V(x, y)`` plus
``max_x V(x, y) - v*``).  With no ante the deal is symmetric, so SB shoving every hand into a BB
calling every hand is worth exactly 0 to SB; SB folding every hand loses exactly its small blind.
"""

from __future__ import annotations

import json
import re
from fractions import Fraction

import numpy as np
import pytest

import sflp
from sflp.cli.main import main
from sflp.core.game import GameConfig
from sflp.errors import ArgumentTypeError, ConfigError
from sflp.openspiel import GAME_KEY, efg_config, from_strategy, policy_game, read_policy, write_efg
from sflp.testing import assert_nash_conv_below, judge

TEN = GameConfig(stack=10)


@pytest.fixture(scope="module")
def eq10():
    return sflp.solve(TEN, exact=True)


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(code, out, err, *words):
    assert code == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err, err
    for word in words:
        assert word in err, err


def write(path, table) -> str:
    path.write_text(json.dumps(table))
    return str(path)


# ---------------------------------------------------------------- the policy names its game


def test_a_policy_sflp_writes_names_its_game_and_reads_it_back(eq10, tmp_path):
    config = GameConfig(stack=12.5, ante=0.125, bb_ante=0.25)
    table = from_strategy(np.zeros(169), np.ones(169), config=config, combos=True)
    assert next(iter(table)) == GAME_KEY  # first, before the 2,652 combo states (which name no game)
    entry = table[GAME_KEY]
    assert entry["sflp"] == sflp.__version__
    assert {k: entry[k] for k in ("stack", "small_blind", "big_blind", "ante", "bb_ante")} == \
        {"stack": 12.5, "small_blind": 0.5, "big_blind": 1.0, "ante": 0.125, "bb_ante": 0.25}
    back = policy_game(read_policy(write(tmp_path / "p.json", table)))
    assert back == config
    assert policy_game(from_strategy(np.zeros(169), np.ones(169))) is None  # no config: nothing named
    # the entry is not a state: the table reads back as its strategies
    x, y = eq10.class_strategies()
    named = from_strategy(x, y, config=TEN, combos=True)
    assert np.array_equal(sflp.openspiel.to_strategy(named).sb.class_freq[0], x[0])
    # at class level the states name the game (issue 45), the entry is not written
    table = from_strategy(np.zeros(169), np.ones(169), config=config)
    assert GAME_KEY not in table and next(iter(table)) == "0-0-1-AA@12.5bb,0.5/1,a0.125,bba0.25"
    assert sflp.openspiel.named_game(read_policy(write(tmp_path / "q.json", table))) == config


def test_a_policy_scored_in_another_game_is_refused_naming_both(eq10):
    x, y = eq10.class_strategies()
    table = from_strategy(x, y, config=TEN)
    assert sflp.openspiel.verify(table, TEN, solution=eq10).exact["nash_conv"] < Fraction(1, 10**9)
    with pytest.raises(ConfigError, match=r"made for the game of stack 10 bb, .*not stack 15 bb"):
        sflp.openspiel.verify(table, GameConfig(stack=15))
    with pytest.raises(ConfigError, match=r"ante 0, .*not stack 10 bb, blinds 0.5/1, ante 0.125"):
        sflp.openspiel.verify(table, GameConfig(stack=10, ante=0.125))


@pytest.mark.parametrize("entry, message", [
    ("10 bb", "got '10 bb'"),
    ({"stack": "10", "small_blind": 0.5, "big_blind": 1, "ante": 0, "bb_ante": 0}, "its stack is '10', not a number"),
    ({"stack": True, "small_blind": 0.5, "big_blind": 1, "ante": 0, "bb_ante": 0}, "its stack is True"),
    ({"stack": 10, "small_blind": 0.5, "big_blind": 1, "ante": 0}, "it has no 'bb_ante'"),
    ({"stack": 10, "small_blind": 0.5, "big_blind": 1, "ante": 0, "bb_ante": 0, "seats": 9},
     "unknown key 'seats'"),
    ({"stack": 0.4, "small_blind": 0.5, "big_blind": 1, "ante": 0, "bb_ante": 0}, "is no game: stack=0.4"),
])
def test_a_bad_game_entry_is_one_clear_error(entry, message):
    table = from_strategy(np.zeros(169), np.zeros(169))
    table[GAME_KEY] = entry
    for call in (lambda: sflp.openspiel.verify(table, TEN), lambda: sflp.openspiel.to_strategy(table)):
        with pytest.raises(ConfigError, match=re.escape(message)):
            call()


def test_a_dict_config_is_refused_as_a_dict_not_blamed_on_solve():
    table = from_strategy(np.zeros(169), np.zeros(169))
    with pytest.raises(ArgumentTypeError, match=r"config=\{'stack': 10\} is a dict, not a GameConfig"):
        sflp.openspiel.verify(table, {"stack": 10})


def test_cli_takes_the_game_from_the_policy_and_refuses_a_contradiction(eq10, tmp_path, capsys):
    x, y = eq10.class_strategies()
    path = write(tmp_path / "p10.json", from_strategy(x, y, config=TEN))
    code, out, _ = run(capsys, "verify", "--policy", path, "--json")  # no --stack: the policy's game
    assert code == 0 and json.loads(out)["stack"] == 10.0
    one_line_error(*run(capsys, "verify", "--stack", "15", "--policy", path), "--stack 15 contradicts", "stack 10 bb")
    one_line_error(*run(capsys, "verify", "--stack", "10", "--ante", "0.1", "--policy", path), "--ante 0.1 contradicts")
    plain = write(tmp_path / "plain.json", from_strategy(x, y))
    one_line_error(*run(capsys, "verify", "--policy", plain), "needs --stack")


# ---------------------------------------------------------------- the .efg file names its game


def test_the_efg_file_gives_the_game_and_a_contradiction_is_refused(eq10, tmp_path, capsys):
    config = GameConfig(stack=10, ante=0.125)
    efg = tmp_path / "g.efg"
    write_efg(config, efg)
    assert efg_config(efg) == config
    policy = write(tmp_path / "p.json", from_strategy(*eq10.class_strategies()))
    code, out, _ = run(capsys, "verify", "--efg", efg, "--policy", policy, "--json")
    assert code == 0 and json.loads(out)["ante"] == 0.125
    one_line_error(*run(capsys, "verify", "--efg", efg, "--stack", "15", "--policy", policy),
                   "--stack 15 contradicts", f"--efg {efg}", "stack 10 bb")
    named = write(tmp_path / "named.json", from_strategy(*eq10.class_strategies(), config=TEN))
    one_line_error(*run(capsys, "verify", "--efg", efg, "--policy", named), "ante 0.125", "is a policy of")
    # a title that no longer matches its tree (edited, or rounded) is refused, never scored
    text = efg.read_text()
    (tmp_path / "edited.efg").write_text(text.replace("stack 10 bb", "stack 15 bb", 1))
    with pytest.raises(ConfigError, match="its tree is not the game sflp writes"):
        efg_config(tmp_path / "edited.efg")
    (tmp_path / "other.efg").write_text('EFG 2 R "a game" { "1" "2" }\n')
    with pytest.raises(ConfigError, match="is not a game sflp wrote"):
        efg_config(tmp_path / "other.efg")


# ---------------------------------------------------------------- the gate


@pytest.fixture(scope="module")
def shove_call(eq10):
    """SB shoves every hand and BB calls every hand: both sides exploitable, each by less than the sum."""
    table = from_strategy(np.ones(169), np.ones(169), config=TEN)
    return table, sflp.openspiel.verify(table, TEN, solution=eq10)


def test_the_gate_judges_the_sum_where_max_exploitability_judges_each_side(shove_call, tmp_path, capsys):
    table, report = shove_call
    ex = report.exact
    assert ex["value_vs_each_other"] == 0 and ex["nash_conv"] == ex["sb_gain"] + ex["bb_gain"]
    assert ex["nash_conv"] == ex["sb_exploitability"] + ex["bb_exploitability"]
    side = max(ex["sb_exploitability"], ex["bb_exploitability"])
    between = float((side + ex["nash_conv"]) / 2)  # above each side, below the sum: issue 33's case
    path = write(tmp_path / "p.json", table)
    code, out, _ = run(capsys, "verify", "--stack", "10", "--policy", path, "--json", "--max-exploitability", between)
    assert code == 0 and json.loads(out)["pass"] is True
    code, out, _ = run(capsys, "verify", "--stack", "10", "--policy", path, "--json", "--max-nash-conv", between)
    data = json.loads(out)
    assert code == 1 and data["pass"] is False
    assert data["gate"] == [{"bound": "max_nash_conv", "figure": "nash_conv", "value": float(ex["nash_conv"]),
                             "threshold": between, "pass": False}]
    code, out, err = run(capsys, "verify", "--stack", "10", "--policy", path, "--max-nash-conv", between)
    assert code == 1 and "gate: FAIL" in out and err.strip().startswith("FAIL: nash_conv above --max-nash-conv")


def test_max_gain_bounds_each_player_and_a_figure_at_its_bound_passes(shove_call):
    _, report = shove_call
    ex = report.exact
    low, high = sorted((ex["sb_gain"], ex["bb_gain"]))
    verdict = judge(report, max_gain=float(high))
    gains = {c.figure: c for c in verdict.checks}
    assert set(gains) == {"sb_gain", "bb_gain"} and gains["sb_gain"].value == float(ex["sb_gain"])
    # exact: a gain equal to its bound passes iff the bound's binary value is not below it
    assert verdict.passed == (Fraction(float(high)) >= high)
    middle = float((low + high) / 2)
    assert not judge(report, max_gain=middle).passed and judge(report, max_gain=middle * 4).passed
    nash = judge(report, max_nash_conv=float(ex["nash_conv"]) * (1 + 1e-12))
    assert nash.passed and nash.to_dict()["pass"] is True


def test_pair_bounds_need_both_players_and_bad_bounds_are_refused(capsys):
    one_line_error(*run(capsys, "verify", "--stack", "10", "--sb", "30%", "--max-nash-conv", "0.1"),
                   "--max-nash-conv judges a pair")
    one_line_error(*run(capsys, "verify", "--stack", "10", "--sb", "30%", "--bb", "20%", "--max-gain", "-1"),
                   "--max-gain -1 must be a finite number >= 0")
    with pytest.raises(ConfigError, match="max_nash_conv=nan"):
        judge(object(), max_nash_conv=float("nan"))


def test_sb_bb_specs_are_gated_by_their_float_figures(capsys):
    code, out, _ = run(capsys, "verify", "--stack", "10", "--sb", "random", "--bb", "random", "--json",
                       "--max-nash-conv", "100")
    data = json.loads(out)
    assert code == 0 and data["pass"] is True
    total = data["sb_exploitability"] + data["bb_exploitability"]
    assert data["gate"][0]["value"] == pytest.approx(total, rel=1e-12)


def test_assert_nash_conv_below_in_two_lines(eq10, tmp_path):
    x, y = eq10.class_strategies()
    assert_nash_conv_below(from_strategy(x, y), TEN, 1e-9)  # the two lines a solver author writes
    assert_nash_conv_below(write(tmp_path / "p.json", from_strategy(x, y, config=TEN)), TEN, 1e-9)  # a file too
    folds = from_strategy(np.zeros(169), y)  # SB folds all: loses exactly its small blind
    with pytest.raises(AssertionError, match=r"nash_conv \S+ bb/hand is above 0.001 in the game of stack 10 bb.*"
                                             r"best-response gains: SB \S+, BB 0\).*costliest hands"):
        assert_nash_conv_below(folds, TEN, 1e-3)


# ---------------------------------------------------------------- OpenSpiel's other policy files


def _serialize(table) -> str:
    """``pyspiel.TabularPolicy.serialize()`` written out from OpenSpiel's ``policy.h``: C's %a hex floats."""
    return "TabularPolicy:" + "<~>".join(f"{state}<~>" + ",".join(f"{a}={float(p).hex()}" for a, p in row)
                                         for state, row in table.items())


def test_openspiels_serialize_text_is_read_exactly(eq10, tmp_path):
    x, y = eq10.class_strategies()
    path = tmp_path / "policy.txt"
    path.write_text(_serialize(from_strategy(x, y)))
    s = sflp.openspiel.to_strategy(read_policy(path))
    assert np.array_equal(s.sb.class_freq, x) and np.array_equal(s.bb.class_freq, y)  # bit for bit
    decimal = "TabularPolicy:0-0-1-AA<~>0=0.250000,1=0.750000"  # serialize(double_precision=6)
    assert sflp.openspiel.policy_file.parse_serialized(decimal) == {"0-0-1-AA": [(0, 0.25), (1, 0.75)]}


@pytest.mark.parametrize("text, message", [
    ("TabularPolicy:0-0-1-AA|0=0x1p+0", "default delimiter '<~>'"),
    ("TabularPolicy:0-0-1-AA<~>0=nan,1=0x0p+0", "'nan' of action 0 is not a number"),
    ("TabularPolicy:0-0-1-AA<~>fold=0x1p+0", "'fold=0x1p+0' is not action=probability"),
    ("TabularPolicy:0-0-1-AA<~>0=0x1p+0<~>0-0-1-AA<~>0=0x1p+0", "'0-0-1-AA' is listed twice"),
    ("TabularPolicy:0-0-1-AA<~>0=0x1p+99999", "too large for a float"),
])
def test_bad_serialize_text_is_one_clear_error(tmp_path, text, message):
    path = tmp_path / "policy.txt"
    path.write_text(text)
    with pytest.raises(ConfigError, match=re.escape(message)):
        read_policy(path)


@pytest.mark.parametrize("content, kind", [
    ("UniformPolicy:", "UniformPolicy.serialize()"),
    ("0-0-1-AA:  0=0 1=1\n1-1-1-AA:  0=0 2=1\n", "TabularPolicy.to_string()"),
    (b"\x80\x04\x95\x10\x00\x00\x00", "a pickle"),
])
def test_openspiels_other_policy_files_are_refused_with_the_json_lines(tmp_path, content, kind):
    path = tmp_path / "policy.txt"
    (path.write_bytes if isinstance(content, bytes) else path.write_text)(content)
    with pytest.raises(ConfigError) as info:
        read_policy(path)
    message = str(info.value)
    assert kind in message and "\n" not in message
    assert "json.dump(policy.policy_table(), open('policy.json', 'w'))" in message


# ---------------------------------------------------------------- small gaps


def test_export_has_no_verbose_and_the_install_hint_names_what_installs(capsys):
    with pytest.raises(SystemExit):
        main(["export", "efg", "--help"])
    assert "--verbose" not in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["verify", "--help"])
    assert "--verbose" in capsys.readouterr().out  # verify solves the LP: its log is there to show
    hint = sflp.openspiel.INSTALL_HINT
    assert "pip install 'open-spiel>=" in hint and "sflp[openspiel]" not in hint


# ---------------------------------------------------------------- against OpenSpiel's games



def test_a_game_that_is_not_sflps_is_refused_in_sflps_words(spiel, eq10):
    x, y = eq10.class_strategies()
    table = from_strategy(x, y)
    kuhn = spiel.load_game("kuhn_poker")
    with pytest.raises(ConfigError, match=r"\(kuhn_poker\) is not sflp's push/fold game: it has 2 players, 2 "):
        sflp.openspiel.verify(table, TEN, kuhn)
    game10 = sflp.openspiel.load_game(TEN)
    cfr = spiel.ExternalSamplingMCCFRSolver(game10, seed=1)
    cfr.run_iteration()
    with pytest.raises(ConfigError, match="kuhn_poker"):  # not OpenSpiel's "No policy found"
        sflp.openspiel.to_strategy(cfr.average_policy(), kuhn)
    with pytest.raises(ConfigError, match="of another structure, not stack 15 bb"):
        sflp.openspiel.verify(table, GameConfig(stack=15), game10)
    assert sflp.openspiel.verify(table, TEN, game10, solution=eq10).exact["nash_conv"] < Fraction(1, 10**9)


def test_openspiels_own_serialize_reads_back_bit_for_bit(spiel, eq10, tmp_path):
    x, y = eq10.class_strategies()
    path = tmp_path / "policy.txt"
    path.write_text(spiel.TabularPolicy(from_strategy(x, y)).serialize())
    s = sflp.openspiel.to_strategy(read_policy(path))
    assert np.array_equal(s.sb.class_freq, x) and np.array_equal(s.bb.class_freq, y)
