"""Issue 45, item 1: the exported game's information states name their game, so every policy
OpenSpiel writes on it names the game it was made for; ``verify`` refuses it in another game,
warns about a policy that names none (or refuses it with ``--require-game``), and ``--policy-dir``
takes the blinds and antes from the folder ``sflp export efg --stacks`` wrote.

References: OpenSpiel names an information state of a Gambit ``.efg`` game
``"<player>-<player>-<infoset number>-<infoset name>"`` (``open_spiel/games/efg_game.cc``,
``InformationStateString``), so the name written in the file is what a policy table's keys
carry; ``pyspiel.nash_conv`` is the sum of both players' best-response gains, which sflp's exact
``nash_conv`` must equal (within 1e-9 relative: OpenSpiel computes in doubles).
"""

from __future__ import annotations

import json
import shutil
import warnings

import numpy as np
import pytest

import sflp
from sflp.cli.main import main
from sflp.core.game import GameConfig
from sflp.errors import ConfigError
from sflp.openspiel import (
    GAME_KEY,
    GameNotNamed,
    from_strategy,
    game_tag,
    info_state,
    named_game,
    split_state,
    tag_game,
)

TEN = GameConfig(stack=10)


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(code, out, err, *words):
    assert code == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err, err
    for word in words:
        assert word in err, err


@pytest.fixture(scope="module")
def eq10():
    return sflp.solve(TEN, exact=True)


@pytest.mark.parametrize("config", [TEN, GameConfig(stack=12.25, ante=0.125, bb_ante=1),
                                    GameConfig(stack=7, small_blind=0.4, big_blind=0.8, ante=0.1),
                                    GameConfig(stack=10.123456789, ante=0.0375)])
def test_the_tag_names_every_field_and_reads_back_exactly(config):
    tag = game_tag(config)
    assert tag_game(tag) == config  # every double back, bit for bit
    state = info_state("bb", "72o", config)
    assert state.startswith("1-1-164-72o@") and split_state(state) == ("1-1-164-72o", tag)
    assert split_state(info_state("bb", "72o")) == ("1-1-164-72o", None)  # an older export's state


@pytest.mark.parametrize("bad", ["10bb", "10bb,0.5/1,a0", "10bb,0.5/1,a-1,bba0", "10 bb,0.5/1,a0,bba0",
                                 "0.2bb,0.5/1,a0,bba0"])
def test_a_tag_that_names_no_game_is_one_error_quoting_it(bad):
    with pytest.raises(ConfigError, match="an information state names"):
        tag_game(bad)


def test_the_efg_names_its_game_in_every_information_set():
    text = sflp.to_efg(GameConfig(stack=10, ante=0.125))
    names = {line.split('"')[3] for line in text.splitlines() if line.startswith("p ")}
    assert len(names) == 169 and all(n.endswith("@10bb,0.5/1,a0.125,bba0") for n in names)


def test_a_policy_whose_states_name_another_game_is_refused_naming_both(eq10):
    x, y = eq10.class_strategies()
    table = from_strategy(x, y, config=TEN)
    assert GAME_KEY not in table and named_game(table) == TEN
    assert sflp.openspiel.verify(table, TEN, solution=eq10).exact["nash_conv"] < 1e-9
    with pytest.raises(ConfigError, match=r"made for the game of stack 10 bb, .*\(its states\), not stack 15 bb"):
        sflp.openspiel.verify(table, GameConfig(stack=15))
    with pytest.raises(ConfigError, match=r"ante 0, BB ante 0 \(its states\), not stack 10 bb, blinds 0.5/1, "
                                          r"ante 0.125"):
        sflp.openspiel.verify(table, GameConfig(stack=10, ante=0.125))


def test_states_of_two_games_or_named_and_bare_are_refused():
    ten = from_strategy(np.ones(169), np.ones(169), config=TEN)
    fifteen = from_strategy(np.ones(169), np.ones(169), config=GameConfig(stack=15))
    mixed = {**{k: v for k, v in ten.items() if k.startswith("0-")}, **{k: v for k, v in fifteen.items()
                                                                         if k.startswith("1-")}}
    with pytest.raises(ConfigError, match="name two games, stack 10 bb.* and stack 15 bb"):
        sflp.openspiel.verify(mixed, TEN)
    half = {split_state(k)[0] if k.startswith("1-") else k: v for k, v in ten.items()}
    with pytest.raises(ConfigError, match="names no game, but .* names stack 10 bb"):
        sflp.openspiel.verify(half, TEN)
    twice = {**ten, "0-0-1-AA": [(0, 1.0), (1, 0.0)]}
    with pytest.raises(ConfigError, match="a policy is for one game"):
        sflp.openspiel.verify(twice, TEN)


def test_an_entry_and_states_that_disagree_are_refused():
    table = from_strategy(np.ones(169), np.ones(169), config=TEN)
    table[GAME_KEY] = {"stack": 15, "small_blind": 0.5, "big_blind": 1, "ante": 0, "bb_ante": 0}
    with pytest.raises(ConfigError, match=r"entry names stack 15 bb.*, but its states name stack 10 bb"):
        named_game(table)
    with pytest.raises(ConfigError, match="made for the game of stack 15 bb"):  # the entry is checked first
        sflp.openspiel.verify(table, TEN)


def test_a_policy_naming_no_game_is_scored_with_a_warning_or_refused_when_required():
    bare = from_strategy(np.ones(169), np.ones(169))
    with pytest.warns(GameNotNamed, match=r"scored as stack 10 bb, blinds 0.5/1, ante 0, BB ante 0, as asked; "
                                          r"the policy names no game"):
        sflp.openspiel.verify(bare, TEN)
    with pytest.raises(ConfigError, match="names no game .*a named game is required"):
        sflp.openspiel.verify(bare, TEN, require_game=True)
    named = from_strategy(np.ones(169), np.ones(169), config=TEN)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a policy that names its game draws no warning
        sflp.openspiel.verify(named, TEN, require_game=True)


def test_cli_warns_on_stderr_refuses_with_require_game_and_keeps_stdout_json(capsys, tmp_path):
    bare = tmp_path / "bare.json"
    bare.write_text(json.dumps(from_strategy(np.ones(169), np.ones(169))))
    code, out, err = run(capsys, "verify", "--stack", 10, "--policy", bare, "--json")
    assert code == 0 and json.loads(out)["stack"] == 10
    assert " ".join(err.split()) == "sflp: warning: scored as stack 10 bb, blinds 0.5/1, ante 0, BB ante 0, as " \
                                    "asked; the policy names no game"  # wrapped to the width
    one_line_error(*run(capsys, "verify", "--stack", 10, "--policy", bare, "--require-game"),
                   "names no game", "a named game is required")
    named = tmp_path / "named.json"
    named.write_text(json.dumps(from_strategy(np.ones(169), np.ones(169), config=GameConfig(stack=10, ante=0.1))))
    code, out, err = run(capsys, "verify", "--policy", named, "--require-game", "--json")  # its game, untold
    assert code == 0 and err == "" and json.loads(out)["ante"] == 0.1
    one_line_error(*run(capsys, "verify", "--stack", 15, "--policy", named), "--stack 15 contradicts",
                   "stack 10 bb, blinds 0.5/1, ante 0.1")


@pytest.fixture(scope="module")
def ante_folder(tmp_path_factory):
    """``sflp export efg --stacks 8 --ante 0.1 --out G``, as the issue's solver author ran it."""
    folder = tmp_path_factory.mktemp("efg") / "G"
    assert main(["export", "efg", "--stacks", "8", "--ante", "0.1", "--out", str(folder)]) == 0
    return folder


def test_policy_dir_scores_in_the_folders_structure_without_being_told(ante_folder, capsys, tmp_path):
    """The policy names no game (an older trainer's states): the folder's manifest says ante 0.1,
    and the score equals the one asked for explicitly, not ante 0's."""
    folder = tmp_path / "G"
    shutil.copytree(ante_folder, folder)
    config = GameConfig(stack=8, ante=0.1)
    x, y = sflp.solve(config).class_strategies()
    rng = np.random.default_rng(45)
    x, y = np.clip(x + rng.uniform(-0.2, 0.2, 169), 0, 1), np.clip(y + rng.uniform(-0.2, 0.2, 169), 0, 1)
    (folder / "8bb.json").write_text(json.dumps(from_strategy(x, y)))
    want = float(sflp.openspiel.verify(from_strategy(x, y, config=config), config).exact["nash_conv"])
    at_zero = float(sflp.openspiel.verify(from_strategy(x, y, config=GameConfig(stack=8)),
                                          GameConfig(stack=8)).exact["nash_conv"])
    assert want != at_zero
    code, out, err = run(capsys, "verify", "--policy-dir", folder, "--json")
    data = json.loads(out)
    assert code == 0 and data["structure"]["ante"] == 0.1 and data["stacks"][0]["nash_conv"] == want
    assert "scored as stack 8 bb, blinds 0.5/1, ante 0.1" in err  # the policy itself names no game
    code, out, _ = run(capsys, "verify", "--policy-dir", folder, "--ante", 0.1, "--json")  # agreeing: fine
    assert code == 0 and json.loads(out)["stacks"][0]["nash_conv"] == want
    one_line_error(*run(capsys, "verify", "--policy-dir", folder, "--ante", 0), "--ante 0 contradicts",
                   "exported with --ante 0.1")
    # without the manifest the .efg titles say the same
    (folder / "manifest.json").unlink()
    code, out, _ = run(capsys, "verify", "--policy-dir", folder, "--json")
    assert code == 0 and json.loads(out)["stacks"][0]["nash_conv"] == want


def test_the_issues_workflow_with_openspiel(ante_folder, capsys, tmp_path):
    """Export, train in OpenSpiel (CFR+), save ``policy_table()`` as JSON: scored in its own game
    without being told, refused at another stack or ante, in a folder named for another stack
    too; and sflp's exact nash_conv is OpenSpiel's."""
    pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (pip install 'open-spiel>=1.5'; "
                                                    "CI installs it with the test extra)")
    game = pyspiel.load_efg_game((ante_folder / "8bb.efg").read_text())
    solver = pyspiel.CFRPlusSolver(game)
    for _ in range(3):
        solver.evaluate_and_update_policy()
    policy = solver.tabular_average_policy()
    path = tmp_path / "8bb.json"
    path.write_text(json.dumps(policy.policy_table()))  # what a solver author writes; OpenSpiel knows no sflp key
    code, out, err = run(capsys, "verify", "--policy", path, "--require-game", "--json")
    assert code == 0 and err == ""
    nash_conv = json.loads(out)["nash_conv"]
    assert abs(nash_conv - pyspiel.nash_conv(game, policy)) <= 1e-9 * nash_conv
    one_line_error(*run(capsys, "verify", "--stack", 15, "--ante", 0.1, "--policy", path), "--stack 15 contradicts")
    with pytest.raises(ConfigError, match=r"made for the game of stack 8 bb, blinds 0.5/1, ante 0.1.*not stack 8 bb, "
                                          r"blinds 0.5/1, ante 0,"):
        sflp.openspiel.verify(json.loads(path.read_text()), GameConfig(stack=8))
    with pytest.raises(ConfigError, match="made for the game of stack 8 bb.*not stack 15 bb"):
        sflp.openspiel.verify(policy, GameConfig(stack=15, ante=0.1))  # the TabularPolicy itself
    mis = tmp_path / "mis"
    mis.mkdir()
    shutil.copy(path, mis / "15bb.json")
    one_line_error(*run(capsys, "verify", "--policy-dir", mis), "'15bb.json' is named for 15 bb",
                   "policy of a 8 bb game")
    g5 = tmp_path / "g5.efg"
    sflp.write_efg(GameConfig(stack=5), g5)
    one_line_error(*run(capsys, "verify", "--efg", g5, "--policy", path), "--efg", "stack 5 bb",
                   "stack 8 bb, blinds 0.5/1, ante 0.1")
