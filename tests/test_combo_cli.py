"""The combo level from the command line (issue 33 §5): ``sflp export npz`` and ``sflp export efg
--combos`` write the files of :mod:`sflp.openspiel.combo`, and ``sflp verify --efg`` reads the
game from a combo-level file, proved against a fresh export (an edited file is refused).  The
files' contents are tested in tests/test_combo_export.py; here, the commands."""

from __future__ import annotations

import json

import numpy as np
import pytest

from sflp.cli.main import main
from sflp.core.game import GameConfig
from sflp.openspiel import combo_info_state, efg_config, from_strategy
from sflp.openspiel.combo import NPZ_FORMAT
from sflp.solving.solver import solve


def _run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_export_npz_writes_the_sequence_form(tmp_path, capsys):
    path = tmp_path / "g.npz"
    code, out, _ = _run(capsys, "export", "npz", "--stack", "7", "--ante", "0.125", "--out", str(path), "--json")
    assert code == 0
    summary = json.loads(out)
    assert summary["bytes"] == path.stat().st_size and summary["stack"] == 7.0 and summary["ante"] == 0.125
    with np.load(path) as d:
        assert str(d["format"]) == NPZ_FORMAT
        structure = json.loads(str(d["structure"]))
        assert (structure["stack"], structure["ante"]) == (7.0, 0.125)
        # the chance weights: 1,326 * 1,225 = 1,624,350 disjoint ordered deals, each 1/1,624,350
        assert np.count_nonzero(d["chance"]) == 1_624_350


@pytest.mark.parametrize("argv, message", [
    (["npz", "--stacks", "5,10", "--out", "g.npz"], "writes one stack's combo-level sequence form"),
    (["npz", "--combos", "--stack", "5", "--out", "g.npz"], "--stacks and --combos are for efg"),
    (["npz", "--stack", "5", "--out", "-"], "binary: not to standard output"),
    (["npz", "--out", "g.npz"], "needs --stack S"),
    (["efg", "--combos", "--stacks", "5,10", "--out", "d"], "give --stack S, not --stacks"),
    (["efg", "--combos", "--out", "g.efg"], "--combos needs --stack S"),
])
def test_export_refusals_name_the_input(tmp_path, capsys, monkeypatch, argv, message):
    monkeypatch.chdir(tmp_path)
    code, out, err = _run(capsys, "export", *argv)
    assert code == 2 and out == "" and message in err
    assert list(tmp_path.iterdir()) == []


def test_export_npz_does_not_replace_a_file_it_did_not_write(tmp_path, capsys):
    path = tmp_path / "mine.npz"
    np.savez(path, format=np.array("something else"))
    before = path.read_bytes()
    code, _, err = _run(capsys, "export", "npz", "--stack", "5", "--out", str(path))
    assert code == 2 and "was not written by sflp" in err and path.read_bytes() == before


@pytest.mark.slow  # a 354 MB file written and proved twice: about 40 s
def test_verify_reads_the_game_of_a_combo_efg_and_refuses_an_edited_one(tmp_path, capsys):
    path = tmp_path / "combo8.efg"
    code, out, _ = _run(capsys, "export", "efg", "--combos", "--stack", "8", "--out", str(path), "--json")
    assert code == 0 and json.loads(out)["level"] == "combo"
    assert efg_config(path) == GameConfig(stack=8)
    config = GameConfig(stack=8)
    table = from_strategy(*solve(config).class_strategies(), combos=True)
    table[combo_info_state("sb", "AhAd")] = [(0, 1.0), (1, 0.0)]  # SB folds one of its six AA
    (tmp_path / "p.json").write_text(json.dumps(table))
    code, out, _ = _run(capsys, "verify", "--efg", str(path), "--policy", str(tmp_path / "p.json"), "--json")
    report = json.loads(out)
    assert code == 0 and report["level"] == "combo" and report["stack"] == 8.0
    # only SB's AhAd deviates: BB's strategy is still the equilibrium's, SB's is exploitable
    assert abs(report["bb_exploitability"]) < 1e-12 and report["sb_exploitability"] > 1e-4
    code, _, err = _run(capsys, "verify", "--efg", str(path), "--policy", str(tmp_path / "p.json"), "--stack", "9")
    assert code == 2 and "--stack 9 contradicts" in err
    # one payoff digit changed, 200 MB into the file: the tree is no longer the game of its title
    with path.open("r+b") as fh:
        fh.seek(200_000_000)
        while (byte := fh.read(1)) not in b"0123456789":
            pass
        fh.seek(-1, 1)
        fh.write(b"1" if byte != b"1" else b"2")
    code, _, err = _run(capsys, "verify", "--efg", str(path), "--policy", str(tmp_path / "p.json"))
    assert code == 2 and "its tree is not the game sflp writes" in err
    # and a class-level export over it is allowed (sflp wrote it), a foreign file of that size is not
    code, _, _ = _run(capsys, "export", "efg", "--stack", "8", "--out", str(path))
    assert code == 0 and path.stat().st_size < 10_000_000
