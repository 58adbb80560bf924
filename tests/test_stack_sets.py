"""Several stacks at once (issue 33 §4): ``sflp export efg --stacks`` writes one game per stack
into a folder sflp owns, and ``sflp verify --policy-dir`` scores a solver's policies on them in one
call.  The referee of the figures is OpenSpiel's own C++ ``nash_conv`` on each exported file,
with policies made by OpenSpiel's CFR+ on that file: the workflow of a solver author."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sflp.cli.main import main
from sflp.core.game import GameConfig
from sflp.openspiel import from_strategy
from sflp.openspiel.efg import efg_text
from sflp.openspiel.stacks import name_stack, policy_folder
from sflp.solving.solver import solve

STACKS = (5.0, 12.5)
ITERATIONS = {5.0: 12, 12.5: 2}  # unequal work, so that one stack is clearly worse



def _run(capsys, *argv) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def solver_run(tmp_path_factory, spiel):
    """The exported games, and CFR+ policies written beside them as <stack>bb.json, with OpenSpiel's
    own nash_conv of each."""
    folder = tmp_path_factory.mktemp("run") / "games"
    assert main(["export", "efg", "--stacks", ",".join(f"{s:g}" for s in STACKS), "--out", str(folder)]) == 0
    theirs = {}
    for stack in STACKS:
        game = spiel.load_efg_game((folder / f"{stack:g}bb.efg").read_text())
        solver = spiel.CFRPlusSolver(game)
        for _ in range(ITERATIONS[stack]):
            solver.evaluate_and_update_policy()
        policy = solver.tabular_average_policy()
        theirs[stack] = spiel.nash_conv(game, policy)
        (folder / f"{stack:g}bb.json").write_text(json.dumps(policy.policy_table()))
    return folder, theirs


def test_export_writes_one_file_per_stack_each_the_single_export(tmp_path, capsys):
    out = tmp_path / "games"
    code, text, _ = _run(capsys, "export", "efg", "--stacks", "5,10", "--ante", "0.125", "--out", str(out),
                         "--json")
    assert code == 0
    files = json.loads(text)["files"]
    assert [f["stack"] for f in files] == [5.0, 10.0]
    for f in files:
        path = Path(f["path"])
        assert path.name == f"{f['stack']:g}bb.efg" and name_stack(path) == f["stack"]
        assert path.read_bytes() == efg_text(GameConfig(stack=f["stack"], ante=0.125)).encode()
        assert path.stat().st_size == f["bytes"]
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["kind"] == "efg-set" and manifest["stacks"] == [5.0, 10.0]
    assert sorted(e["name"] for e in manifest["files"]) == ["10bb.efg", "5bb.efg"]
    # a rerun with other stacks replaces sflp's files and keeps the user's
    (out / "notes.txt").write_text("mine")
    code, _, err = _run(capsys, "export", "efg", "--stacks", "7", "--out", str(out))
    assert code == 0 and "kept 1 file(s)" in err
    assert sorted(p.name for p in out.iterdir()) == ["7bb.efg", "manifest.json", "notes.txt"]


@pytest.mark.parametrize("argv, message", [
    (["--stacks", "5", "--out", "x.efg"], "--out is a folder"),
    (["--stacks", "5", "--out", "-"], "with --stacks, give the folder"),
    (["--stacks", "5", "--stack", "5", "--out", "d"], "not both"),
    (["--stacks", "0.5,5", "--out", "d"], "--stacks 0.5,5: the stack 0.5 cannot cover"),
    (["--stacks", "1:300:1", "--out", "d"], "more than 200 files"),
    (["--out", "x.efg"], "needs --stack S (one file), or --stacks"),
])
def test_export_set_refusals_name_the_input(tmp_path, capsys, monkeypatch, argv, message):
    monkeypatch.chdir(tmp_path)
    code, out, err = _run(capsys, "export", "efg", *argv)
    assert code == 2 and out == "" and message in err and "Traceback" not in err
    assert not (tmp_path / "d").exists()


def test_export_set_refuses_a_folder_of_other_files(tmp_path, capsys):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "thesis.tex").write_text("x")
    code, _, err = _run(capsys, "export", "efg", "--stacks", "5", "--out", str(out))
    assert code == 2 and "mine" in err
    assert [p.name for p in out.iterdir()] == ["thesis.tex"]


@pytest.mark.slow  # ~7 s of CFR+ at three stacks; fast: tests/test_curves.py scores folders of policies exactly
def test_one_call_scores_every_stack_as_openspiel_does(solver_run, capsys, tmp_path):
    folder, theirs = solver_run
    code, text, _ = _run(capsys, "verify", "--policy-dir", str(folder), "--json", "--out", str(tmp_path / "scores"))
    assert code == 0
    out = json.loads(text)
    rows = {row["stack"]: row for row in out["stacks"]}
    assert sorted(rows) == list(STACKS)
    for stack in STACKS:  # OpenSpiel's C++ nash_conv of the same policy on the same file
        assert abs(rows[stack]["nash_conv"] - theirs[stack]) <= 1e-9 * theirs[stack]
        assert rows[stack]["policy"] == f"{stack:g}bb.json"
    assert out["worst"]["stack"] == max(theirs, key=theirs.get)
    assert "pass" not in out  # no gate asked
    csv = (tmp_path / "scores" / "verify_stacks.csv").read_text().splitlines()
    assert csv[0].startswith("stack,policy,level,nash_value") and len(csv) == 1 + len(STACKS)
    assert json.loads((tmp_path / "scores" / "verify_stacks.json").read_text())["stacks"] == out["stacks"]


@pytest.mark.slow  # with solver_run's CFR+ at three stacks (~7 s)
def test_the_gate_fails_the_call_when_one_stack_fails(solver_run, capsys):
    folder, theirs = solver_run
    between = sorted(theirs.values())
    bound = (between[0] + between[1]) / 2  # the better stack passes, the worse fails
    code, text, err = _run(capsys, "verify", "--policy-dir", str(folder), "--max-nash-conv", repr(bound))
    worst = max(theirs, key=theirs.get)
    assert code == 1 and f"FAIL at 1 of 2 stacks: {worst:g}" in text and "FAIL: the gate failed" in err
    assert f"worst: {worst:g} bb ({worst:g}bb.json)" in text
    # 80 columns, but for the folder's path, which is printed whole
    assert max(len(line) for line in text.replace(str(folder), "DIR").splitlines()) <= 80
    code, text, _ = _run(capsys, "verify", "--policy-dir", str(folder), "--max-nash-conv", repr(bound), "--json")
    out = json.loads(text)
    assert code == 1 and out["pass"] is False
    assert {row["stack"]: row["pass"] for row in out["stacks"]} == {s: s != worst for s in STACKS}
    code, _, _ = _run(capsys, "verify", "--policy-dir", str(folder), "--max-nash-conv", repr(2 * between[1]))
    assert code == 0


@pytest.mark.slow  # with solver_run's CFR+ at three stacks (~7 s)
def test_stacks_picks_some_and_says_which_files_it_left(solver_run, capsys):
    folder, _ = solver_run
    code, text, _ = _run(capsys, "verify", "--policy-dir", str(folder), "--stacks", "5")
    assert code == 0 and "1 policy in" in text and "not scored (1 file(s)" in text and "12.5bb.json" in text
    code, _, err = _run(capsys, "verify", "--policy-dir", str(folder), "--stacks", "5,20")
    assert code == 2 and "has no policy for 20 bb" in err


def _equilibrium_policy(stack: float, named: bool) -> dict:
    config = GameConfig(stack=stack)
    return from_strategy(*solve(config).class_strategies(), config=config if named else None)


def test_a_policy_naming_its_game_needs_no_stack_in_its_name(tmp_path):
    (tmp_path / "run-final.json").write_text(json.dumps(_equilibrium_policy(8, named=True)))
    (tmp_path / "3.json").write_text(json.dumps(_equilibrium_policy(3, named=False)))
    (tmp_path / "README.md").write_text("not read")
    found, skipped = policy_folder(tmp_path)
    assert {s: name for s, (name, _) in found.items()} == {3.0: "3.json", 8.0: "run-final.json"}
    assert skipped == ()


@pytest.mark.parametrize("files, message", [
    ({"policy.json": None}, "cannot tell the stack of policy file 'policy.json'"),
    ({"10bb.json": 10, "10.json": 10}, "are both for 10 bb"),
    ({"5bb.json": ("named", 6)}, "is named for 5 bb but is the policy of a 6 bb game"),
    ({}, "holds no policy file"),
    ({"10bb.json": "{not json"}, "10bb.json"),
])
def test_a_folder_that_cannot_be_read_as_one_policy_per_stack_is_refused(tmp_path, capsys, files, message):
    for name, what in files.items():
        if isinstance(what, str):
            text = what
        elif isinstance(what, tuple):
            text = json.dumps(_equilibrium_policy(what[1], named=True))
        else:
            text = json.dumps(_equilibrium_policy(what or 4, named=False))
        (tmp_path / name).write_text(text)
    code, out, err = _run(capsys, "verify", "--policy-dir", str(tmp_path))
    assert code == 2 and out == "" and message in err and "Traceback" not in err


@pytest.mark.parametrize("extra, message", [
    (["--stack", "10"], "--stack 10 scores one policy"),
    (["--policy", "p.json"], "--policy-dir DIR alone"),
    (["--efg", "g.efg"], "--policy-dir DIR alone"),
])
def test_policy_dir_takes_no_single_policy_options(tmp_path, capsys, extra, message):
    code, _, err = _run(capsys, "verify", "--policy-dir", str(tmp_path), *extra)
    assert code == 2 and message in err


def test_stacks_and_out_belong_to_policy_dir(tmp_path, capsys):
    code, _, err = _run(capsys, "verify", "--stack", "10", "--sb", "AA", "--stacks", "5,10")
    assert code == 2 and "--stacks picks the stacks of --policy-dir" in err
    code, _, err = _run(capsys, "verify", "--stack", "10", "--sb", "AA", "--out", str(tmp_path / "o"))
    assert code == 2 and "--out DIR writes a policy set's table" in err


@pytest.mark.parametrize("name, stack", [
    ("10bb.json", 10.0), ("cfr_12.5bb.json", 12.5), ("stack-7.5BB.txt", 7.5), ("10 bb.json", 10.0),
    ("10.json", 10.0), ("10.123456789bb.efg", 10.123456789), ("0bb.json", 0.0),  # 0 is refused as a game
    ("run3.json", None), ("5bb_vs_10bb.json", None), ("10bb20bb.json", None), ("v1.2.json", None),
    ("v1.2bb.json", None), ("1e1bb.json", None), ("1e-400bb.json", None), ("-5bb.json", None),
    ("+5bb.json", None), ("\u0661\u0660bb.json", None), ("nan.json", None), ("inf.json", None),
])
def test_the_stack_a_file_name_says(name, stack):
    """ASCII digits before bb, or a name that is a number; never a guess (an exponent, a sign,
    another script's digits, two stacks)."""
    assert name_stack(name) == stack


def test_a_stack_that_is_no_round_number_keeps_every_digit_in_its_name_and_title(tmp_path, capsys):
    from sflp.openspiel import efg_config

    code, _, _ = _run(capsys, "export", "efg", "--stacks", "10.123456789", "--out", str(tmp_path / "g"))
    path = tmp_path / "g" / "10.123456789bb.efg"
    assert code == 0 and path.exists() and name_stack(path) == 10.123456789
    assert efg_config(path) == GameConfig(stack=10.123456789)  # the title names the game the tree holds


def test_a_policy_set_and_its_games_never_replace_each_other(tmp_path, capsys):
    games, scores = tmp_path / "games", tmp_path / "scores"
    assert main(["export", "efg", "--stacks", "5", "--out", str(games)]) == 0
    (games / "5bb.json").write_text(json.dumps(_equilibrium_policy(5, named=False)))
    code, _, err = _run(capsys, "verify", "--policy-dir", str(games), "--out", str(games))
    assert code == 2 and "holds the games of sflp export efg --stacks;" in err
    assert sorted(p.name for p in games.iterdir()) == ["5bb.efg", "5bb.json", "manifest.json"]
    assert main(["verify", "--policy-dir", str(games), "--out", str(scores)]) == 0
    code, _, err = _run(capsys, "export", "efg", "--stacks", "5", "--out", str(scores))
    assert code == 2 and "holds a policy set's scores" in err
    assert sorted(p.name for p in scores.iterdir()) == ["manifest.json", "verify_stacks.csv", "verify_stacks.json"]


@pytest.mark.parametrize("entry", ["fifo", "folder", "dangling"])
def test_an_entry_named_like_a_policy_that_is_no_file_is_refused_by_name(tmp_path, capsys, entry):
    import os

    (tmp_path / "10bb.json").write_text(json.dumps(_equilibrium_policy(10, named=False)))
    odd = tmp_path / "5bb.json"
    if entry == "fifo":
        os.mkfifo(odd)
    elif entry == "folder":
        odd.mkdir()
    else:
        odd.symlink_to(tmp_path / "gone.json")
    code, out, err = _run(capsys, "verify", "--policy-dir", str(tmp_path))
    assert code == 2 and out == "" and "'5bb.json' in the policy folder" in err


@pytest.mark.parametrize("name, text, message", [
    ("0bb.json", None, "0bb.json (0 bb): stack=0.0 must be positive"),
    ("0.5bb.json", None, "0.5bb.json (0.5 bb): stack=0.5 cannot cover"),
    ("10bb.json", "bad sum", "10bb.json (10 bb): policy state"),
])
def test_a_refusal_inside_a_policy_folder_names_the_file(tmp_path, capsys, name, text, message):
    policy = _equilibrium_policy(10, named=False)
    if text == "bad sum":
        policy["0-0-1-AA"] = [[0, 0.5], [1, 0.6]]
    (tmp_path / name).write_text(json.dumps(policy))
    code, _, err = _run(capsys, "verify", "--policy-dir", str(tmp_path))
    assert code == 2 and message in err, err


def test_a_missing_stack_is_named_with_the_stacks_the_folder_has(tmp_path, capsys):
    for s in (5, 10):
        (tmp_path / f"{s}bb.json").write_text(json.dumps(_equilibrium_policy(s, named=False)))
    code, _, err = _run(capsys, "verify", "--policy-dir", str(tmp_path), "--stacks", "5,10.0000000001")
    assert code == 2 and "no policy for 10.0000000001 bb (its files are for: 5, 10;" in err


def test_long_policy_names_and_the_export_messages_fit_80_columns(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    for s in (5, 10):
        (tmp_path / f"a_very_long_solver_run_name_seed_1234_{s}bb.json").write_text(
            json.dumps(_equilibrium_policy(s, named=False)))
    code, out, _ = _run(capsys, "verify", "--policy-dir", str(tmp_path), "--max-gain", "1")
    assert code == 0 and "<- worst" in out
    assert max(len(line) for line in out.replace(str(tmp_path), "DIR").splitlines()) <= 80
    code, out, _ = _run(capsys, "export", "efg", "--stacks", "5,10", "--out", str(tmp_path / "g"))
    assert code == 0 and max(len(line) for line in out.replace(str(tmp_path), "D").splitlines()) <= 80


# ---------------------------------------------------------------- issue 52: the folder's edges


def test_a_symlink_out_of_the_policy_folder_is_refused_naming_it(tmp_path, capsys):
    folder, elsewhere = tmp_path / "policies", tmp_path / "elsewhere"
    folder.mkdir()
    elsewhere.mkdir()
    (folder / "10bb.json").write_text(json.dumps(_equilibrium_policy(10, named=False)))
    (elsewhere / "secret.json").write_text(json.dumps(_equilibrium_policy(5, named=False)))
    (folder / "5bb.json").symlink_to(elsewhere / "secret.json")
    code, out, err = _run(capsys, "verify", "--policy-dir", str(folder))
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "'5bb.json' in the policy folder" in err and "outside the folder" in err and "secret.json" in err
    (folder / "5bb.json").unlink()
    (folder / "5bb.json").symlink_to("10bb.json")  # a link inside the folder reads the folder's own file
    assert sorted(policy_folder(folder)[0]) == [5.0, 10.0]


def test_policy_names_are_shown_whole_and_one_line_each(tmp_path, capsys, monkeypatch):
    """Names that differ only at their start and that are too long for the column, and a name with
    a newline: each shown whole, the newline escaped (was: both cut to their common end, the newline
    printed as it is)."""
    monkeypatch.setenv("COLUMNS", "80")
    names = {5: "experiment_alpha_with_a_long_common_tail_5bb_final.json",
             10: "experiment_omega_with_a_long_common_tail_10bb_final.json"}
    for s, name in names.items():
        (tmp_path / name).write_text(json.dumps(_equilibrium_policy(s, named=False)))
    code, out, _ = _run(capsys, "verify", "--policy-dir", str(tmp_path))
    assert code == 0
    for name in names.values():
        assert name in out
    assert max(len(line) for line in out.replace(str(tmp_path), "DIR").splitlines()) <= 80
    for name in names.values():
        (tmp_path / name).unlink()
    (tmp_path / "run\n2_10bb.json").write_text(json.dumps(_equilibrium_policy(10, named=False)))
    code, out, _ = _run(capsys, "verify", "--policy-dir", str(tmp_path))
    assert code == 0 and "'run\\n2_10bb.json'" in out
    assert not any(line.startswith("2_10bb.json") for line in out.splitlines())
