"""Issue 45, item 3: each player's exact best response to a scored policy, as OpenSpiel policy
tables with every hand's exact margin (``sflp.openspiel.best_response``, ``sflp verify
--best-response OUT``).

References: a best response's gain is what OpenSpiel's ``expected_returns`` gives the profile
(best response against the policy's other half) minus what it gives the policy
(``open_spiel/python/algorithms/expected_game_score.py``'s definition, here in C++: doubles, so
within 1e-12 bb); and played out through sflp's own exact scorer (another route: the table read
back, scored in rationals) the profile's value is the policy's value plus the gain exactly, and
the best response itself leaves its player nothing more to gain (gain exactly 0).
"""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest

import sflp
from sflp.cli.main import main
from sflp.core.game import GameConfig
from sflp.errors import ConfigError
from sflp.openspiel import best_response, from_strategy

CONFIG = GameConfig(stack=10, ante=0.125)


@pytest.fixture(scope="module")
def scored():
    rng = np.random.default_rng(45)
    x, y = rng.uniform(size=169), rng.uniform(size=169)
    x[:5], y[:5] = 1.0, 0.0  # pure hands too
    table = from_strategy(x, y, config=CONFIG)
    return table, best_response(table, CONFIG)


def test_the_best_response_earns_exactly_the_gain_by_sflps_exact_scorer(scored):
    table, br = scored
    value = br.report.exact["value_vs_each_other"]
    for player in ("sb", "bb"):
        played = sflp.openspiel.verify(br.profile(player), CONFIG).exact
        sign = 1 if player == "sb" else -1
        assert played["value_vs_each_other"] == value + sign * br.gain(player)
        assert played[f"{player}_gain"] == 0  # a best response: nothing more to gain
        assert br.gain(player) > 0
        best = br.sb if player == "sb" else br.bb
        for p, m in zip(best.strategy, best.margins_exact):  # play exactly where the margin is > 0
            assert (p == 1.0) == (m is not None and m > 0)


def test_the_best_response_earns_the_gain_in_openspiel(scored):
    pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (pip install 'open-spiel>=1.5'; "
                                                    "CI installs it with the test extra)")
    table, br = scored
    game = sflp.openspiel.load_game(CONFIG)
    root = game.new_initial_state()
    base = pyspiel.expected_returns(root, pyspiel.TabularPolicy(table), -1, True)
    for player, k in (("sb", 0), ("bb", 1)):
        got = pyspiel.expected_returns(root, pyspiel.TabularPolicy(br.profile(player)), -1, True)
        assert abs((got[k] - base[k]) - float(br.gain(player))) <= 1e-12, player
    assert abs(pyspiel.nash_conv(game, pyspiel.TabularPolicy(table)) - float(br.report.exact["nash_conv"])) <= 1e-12


def test_an_equilibrium_gives_nothing_to_gain():
    x, y = sflp.solve(GameConfig(stack=10)).class_strategies()
    br = best_response(from_strategy(x, y, config=GameConfig(stack=10)), GameConfig(stack=10))
    assert abs(br.gain("sb")) < Fraction(1, 10**9) and abs(br.gain("bb")) < Fraction(1, 10**9)


def test_cli_writes_the_file_and_keeps_stdout_the_report(scored, capsys, tmp_path):
    table, br = scored
    policy = tmp_path / "p.json"
    policy.write_text(json.dumps(table))
    out_file = tmp_path / "new" / "br.json"  # its folder is made, as export efg makes the .efg's
    code = main(["verify", "--policy", str(policy), "--json", "--best-response", str(out_file)])
    out, err = capsys.readouterr()
    assert code == 0 and json.loads(out)["nash_conv"] == float(br.report.exact["nash_conv"])
    assert err.startswith("sflp: best responses written to ")
    data = json.loads(out_file.read_text())
    assert data["format"] == "sflp-best-response" and data["game"]["ante"] == 0.125
    for player in ("sb", "bb"):
        assert Fraction(data[player]["gain_exact"]) == br.gain(player)
        assert len(data[player]["policy"]) == 169 and len(data[player]["hands"]) == 169
    assert data["sb"]["policy"]["0-0-1-AA@10bb,0.5/1,a0.125,bba0"] == [[0, 0.0], [1, 1.0]]
    # its own file is replaced; anything else is refused before any work, in one line
    assert main(["verify", "--policy", str(policy), "--best-response", str(out_file)]) == 0
    capsys.readouterr()
    assert main(["verify", "--policy", str(policy), "--best-response", str(policy)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "not replacing it" in err
    assert json.loads(policy.read_text()) == json.loads(json.dumps(table))
    assert main(["verify", "--policy-dir", str(tmp_path), "--best-response", str(out_file)]) == 2
    assert "one --policy FILE" in capsys.readouterr().err


def test_a_combo_level_policy_is_refused():
    table = from_strategy(np.ones(1326) * np.r_[0.5, np.ones(1325)], np.zeros(1326), combos=True,
                          config=GameConfig(stack=10))
    with pytest.raises(ConfigError, match="class-level policy"):
        best_response(table, GameConfig(stack=10))
