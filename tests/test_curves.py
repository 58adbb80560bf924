"""Issue 45, item 2: exploitability curves.  ``sflp verify --policy-dir`` with several iterates per
stack (``10bb_it30.json``) scores each exactly and writes ``curves.csv``/``.json``/``.png``/``.svg``;
``sflp.Tracker`` writes the same files while a solver trains.

References: each row must equal the single-policy exact scorer's figures for that file
(``sflp.openspiel.verify``, the route ``sflp verify --policy`` takes); PNG files start with the
8-byte signature of the PNG specification (RFC 2083, section 3.1).
"""

from __future__ import annotations

import csv
import io
import json
from fractions import Fraction

import numpy as np
import pytest

import sflp
from sflp.cli.main import main
from sflp.core.game import GameConfig
from sflp.errors import ConfigError
from sflp.openspiel import from_strategy

BASE = GameConfig(stack=5, ante=0.1)
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def iterates():
    """Two stacks, iterations 3 and 40: sflp's equilibrium with noise that shrinks with the iteration."""
    out = {}
    for stack in (5, 8):
        config = BASE.with_stack(stack)
        x, y = sflp.solve(config).class_strategies()
        rng = np.random.default_rng(stack)
        for it in (3, 40):
            noise = 0.5 / it
            px = np.clip(x + rng.uniform(-noise, noise, 169), 0, 1)
            py = np.clip(y + rng.uniform(-noise, noise, 169), 0, 1)
            out[(float(stack), it)] = from_strategy(px, py, config=config)
    return out


def _folder(tmp_path, iterates, name="{s:g}bb_it{i}.json"):
    folder = tmp_path / "policies"
    folder.mkdir()
    for (s, i), table in iterates.items():
        (folder / name.format(s=s, i=i)).write_text(json.dumps(table))
    return folder


def test_policy_dir_with_iterates_writes_the_curve_files(iterates, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    folder = _folder(tmp_path, iterates)
    want = {key: sflp.openspiel.verify(table, BASE.with_stack(key[0])).exact for key, table in iterates.items()}
    last8, first8 = float(want[(8.0, 40)]["nash_conv"]), float(want[(8.0, 3)]["nash_conv"])
    assert last8 < first8
    bound = max(float(want[(5.0, 40)]["nash_conv"]), last8) * 1.01
    code, out, err = run(capsys, "verify", "--policy-dir", folder, "--out", tmp_path / "scores",
                         "--max-nash-conv", bound, "--json")
    assert code == 0, err  # the gate judges each stack's last iterate
    data = json.loads(out)
    assert [r["policy"] for r in data["stacks"]] == ["5bb_it40.json", "8bb_it40.json"]
    rows = list(csv.DictReader(io.StringIO((tmp_path / "scores" / "curves.csv").read_text())))
    assert [(float(r["stack"]), int(r["iteration"])) for r in rows] == [(5.0, 3), (5.0, 40), (8.0, 3), (8.0, 40)]
    table = json.loads((tmp_path / "scores" / "curves.json").read_text())
    assert table["structure"]["ante"] == 0.1
    for r, j in zip(rows, table["rows"]):
        exact = want[(float(r["stack"]), int(r["iteration"]))]
        for key in ("nash_conv", "sb_gain", "bb_gain", "value_vs_each_other"):
            assert float(r[key]) == float(exact[key]) and Fraction(j["exact"][key]) == exact[key]
    assert (tmp_path / "scores" / "curves.png").read_bytes()[:8] == PNG_SIGNATURE
    svg = (tmp_path / "scores" / "curves.svg").read_text()
    assert svg.startswith("<svg") or svg.startswith("<?xml")
    assert "iteration" in svg and "nash_conv (bb/hand)" in svg and ">1e-" in svg and "8 bb" in svg
    # the text output shows the curve, then the last iterates' table
    code, out, _ = run(capsys, "verify", "--policy-dir", folder)
    assert code == 0 and out.startswith("4 iterates scored exactly") and "it3 " in out and "it40 " in out
    # more than eight iterates of a stack: the text shows eight and says so
    for it in range(50, 57):
        (folder / f"5bb_it{it}.json").write_text(json.dumps(iterates[(5.0, 40)]))
    code, out, _ = run(capsys, "verify", "--policy-dir", folder)
    assert code == 0 and "(8 of 9 shown)" in out and "every iterate is in --json's \"curves\"" in out
    # the curve's lines fit 80 columns too (issue 52 §7: its header was 97 characters, its rows 150)
    # (a folder's path is never broken: a line that is one long path alone may be wider)
    assert all(len(line) <= 80 or " " not in line.strip() for line in out.splitlines()), out
    for it in range(50, 57):
        (folder / f"5bb_it{it}.json").unlink()
    # a bound between the first and the last iterate's figure passes only because the last is judged
    assert run(capsys, "verify", "--policy-dir", folder, "--max-nash-conv", (last8 + first8) / 2)[0] == 0


def test_the_tracker_writes_the_same_files(iterates, tmp_path, capsys):
    folder = _folder(tmp_path, iterates)
    assert run(capsys, "verify", "--policy-dir", folder, "--out", tmp_path / "scores")[0] == 0
    with sflp.Tracker([5, 8], tmp_path / "tracked", base=BASE) as tracker:
        for (s, i), table in iterates.items():
            row = tracker.record(i, table, stack=s, source=f"{s:g}bb_it{i}.json")
            assert row["nash_conv"] > 0
        assert (tmp_path / "tracked" / "curves.csv").exists() and not (tmp_path / "tracked" / "curves.png").exists()
    for name in ("curves.csv", "curves.json", "curves.png", "curves.svg"):
        assert (tmp_path / "tracked" / name).read_bytes() == (tmp_path / "scores" / name).read_bytes(), name
    manifest = json.loads((tmp_path / "tracked" / "manifest.json").read_text())
    assert manifest["kind"] == "policy-curves"


def test_bad_iterate_folders_and_records_are_one_clear_error(iterates, tmp_path, capsys):
    folder = _folder(tmp_path, iterates)
    (folder / "5bb.json").write_text(json.dumps(iterates[(5.0, 3)]))
    code, out, err = run(capsys, "verify", "--policy-dir", folder)
    assert code == 2 and out == "" and "mixes a solver's iterates" in err and "'5bb.json'" in err
    (folder / "5bb.json").unlink()
    (folder / "5bb-it3.json").write_text(json.dumps(iterates[(5.0, 3)]))
    code, _, err = run(capsys, "verify", "--policy-dir", folder)
    assert code == 2 and "are both iteration 3 of 5 bb" in err
    (folder / "5bb-it3.json").rename(folder / "5bb_it0.json")
    code, _, err = run(capsys, "verify", "--policy-dir", folder)
    assert code == 2 and "'5bb_it0.json'" in err and "from 1 to 2**63 - 1" in err  # the Tracker's range
    tracker = sflp.Tracker(BASE, tmp_path / "t")
    for call, message in ((lambda: tracker.record(0, iterates[(5.0, 3)]), "iteration=0: expected a whole number"),
                          (lambda: tracker.record(3, iterates[(5.0, 3)], stack=8), "stack=8 is not one of"),
                          (lambda: tracker.record(3, iterates[(8.0, 3)]), "made for the game of stack 8 bb")):
        with pytest.raises(ConfigError, match=message):
            call()
    tracker.record(3, iterates[(5.0, 3)])
    with pytest.raises(ConfigError, match="iteration 3 of 5 bb is recorded already"):
        tracker.record(3, iterates[(5.0, 3)])


@pytest.mark.slow
def test_the_tracker_follows_openspiels_cfr_plus(tmp_path):
    """A real training loop: OpenSpiel's CFR+ on the exported game, its average policy recorded
    every few iterations; sflp's exact nash_conv equals OpenSpiel's own (1e-9 relative) and falls."""
    pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (pip install 'open-spiel>=1.5'; "
                                                    "CI installs it with the test extra)")
    config = GameConfig(stack=10)
    game = sflp.openspiel.load_game(config)
    solver = pyspiel.CFRPlusSolver(game)
    with sflp.Tracker(config, tmp_path / "cfr") as tracker:
        for it in range(1, 31):
            solver.evaluate_and_update_policy()
            if it in (1, 3, 10, 30):
                policy = solver.tabular_average_policy()
                row = tracker.record(it, policy)
                assert abs(row["nash_conv"] - pyspiel.nash_conv(game, policy)) <= 1e-9 * row["nash_conv"]
    rows = json.loads((tmp_path / "cfr" / "curves.json").read_text())["rows"]
    assert [r["iteration"] for r in rows] == [1, 3, 10, 30] and rows[-1]["nash_conv"] < rows[0]["nash_conv"]
