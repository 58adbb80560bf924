"""The output-folder contract: sflp removes or replaces only files its own manifest says it wrote.

* a non-empty folder without an sflp manifest is refused, byte for byte untouched;
* files a user adds to a chart folder survive the next run into it, and the run says so;
* a new report file with the name of a user's file aborts the run instead of replacing it;
* a manifest whose entries leave the folder (``..``, absolute) or name symlinks is invalid: the
  folder is refused and ``check_manifest`` does not follow the names.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sflp.charts.chartset import write_chart_set
from sflp.core.game import GameConfig
from sflp.errors import OutputError
from sflp.output.manifest import MANIFEST, check_manifest
from sflp.output.target import check_target
from sflp.solving.solver import solve_many

ROOT = Path(__file__).resolve().parent.parent


def snapshot(folder: Path) -> dict[str, str]:
    """Every path below ``folder`` (symlinks as their target) with its content's SHA-256."""
    out = {}
    for path in sorted(folder.rglob("*")):
        rel = str(path.relative_to(folder))
        if path.is_symlink():
            out[rel] = "-> " + os.readlink(path)
        elif path.is_file():
            out[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
        else:
            out[rel] = "dir"
    return out


def sflp(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("SFLP_PAUSE_AT", None)
    return subprocess.run([sys.executable, "-m", "sflp", *args], capture_output=True, text=True, cwd=cwd,
                          env=env, timeout=600)


@pytest.fixture(scope="module")
def solutions():
    return solve_many([2, 5], GameConfig(stack=2))


def write_set(solutions, out: Path, **kw):
    return write_chart_set(solutions, None, out, **kw)


def test_a_folder_of_the_users_files_is_refused_and_untouched(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "values.csv").write_text("stack,value\n10,my numbers\n")
    (data / "prices.csv").write_text("item,price\n")
    (data / "budget.xlsx").write_bytes(b"PK\x03\x04 not really")
    (data / "config.json").write_text('{"mine": true}\n')
    (data / "photo.png").write_bytes(b"\x89PNG\r\n")
    before = snapshot(data)
    proc = sflp("chart", "--stacks", "2,5", "--out", str(data), cwd=tmp_path)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert "is not an sflp report folder" in proc.stderr and "no sflp manifest.json" in proc.stderr
    assert snapshot(data) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data"]  # no lock, no staging left


def test_files_the_user_adds_survive_a_rerun_and_the_run_says_so(tmp_path):
    from sflp.cli import main

    out = tmp_path / "set"
    # the CSV files make a set (the user's files are the subject): the first set in process, the rerun real
    assert main(["chart", "--stacks", "2,5", "--formats", "csv", "--out", str(out), "--json"]) == 0
    (out / "my_notes.txt").write_text("call wider vs this opponent\n")
    (out / "mine").mkdir()
    (out / "mine" / "a.txt").write_text("a\n")
    notes = snapshot(out)["my_notes.txt"]
    proc = sflp("chart", "--stacks", "2,5,8", "--formats", "csv", "--out", str(out), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "sflp: kept 2 file(s)" in proc.stderr and "my_notes.txt" in proc.stderr and "mine" in proc.stderr
    after = snapshot(out)
    assert after["my_notes.txt"] == notes and (out / "mine" / "a.txt").read_text() == "a\n"
    manifest = json.loads((out / MANIFEST).read_text())
    assert manifest["stacks"]["count"] == 3  # the new set
    assert "my_notes.txt" not in {f["name"] for f in manifest["files"]}
    # the check lists the user's files as not sflp's, and nothing else
    assert check_manifest(out) == ["mine: not listed in the manifest", "my_notes.txt: not listed in the manifest"]


def test_a_report_file_named_like_a_users_file_aborts_instead_of_replacing_it(solutions, tmp_path):
    out = tmp_path / "set"
    write_set(solutions, out, range_stacks=[2])
    (out / "range_5bb.png").write_bytes(b"my own picture")  # not in the manifest: the user's
    before = snapshot(out)
    with pytest.raises(OutputError, match="range_5bb.png was not written by sflp"):
        write_set(solutions, out, range_stacks=[5])
    assert snapshot(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["set"]


def test_kept_files_are_reported_through_on_keep(solutions, tmp_path):
    out = tmp_path / "set"
    write_set(solutions, out)
    (out / "notes.md").write_text("x")
    kept = []
    write_set(solutions, out, on_keep=kept.append)
    assert kept == [["notes.md"]] and (out / "notes.md").read_text() == "x"


@pytest.mark.parametrize("bad_name", ["../victim.txt", "/etc/hostname", "sub/x.csv", "..", ".hidden", ""])
def test_a_manifest_that_leaves_the_folder_is_invalid(solutions, tmp_path, bad_name):
    out = tmp_path / "set"
    write_set(solutions, out, formats=["csv"])  # a set and its manifest: the CSV files make one
    (tmp_path / "victim.txt").write_text("outside\n")
    manifest = json.loads((out / MANIFEST).read_text())
    manifest["files"].append({"name": bad_name, "bytes": 1, "sha256": "0" * 64})
    (out / MANIFEST).write_text(json.dumps(manifest))
    before, victim = snapshot(out), (tmp_path / "victim.txt").read_text()
    with pytest.raises(OutputError, match="not a valid sflp manifest"):
        check_target(out, "chart-set")
    with pytest.raises(OutputError, match="not a valid sflp manifest"):
        write_set(solutions, out)
    problems = check_manifest(out)
    assert problems and all("not a valid sflp manifest" in p for p in problems)
    assert snapshot(out) == before and (tmp_path / "victim.txt").read_text() == victim


def test_a_listed_name_that_is_now_a_symlink_makes_the_manifest_invalid(solutions, tmp_path):
    out = tmp_path / "set"
    write_set(solutions, out, formats=["csv"])  # a set and its manifest: the CSV files make one
    target = tmp_path / "precious.csv"
    target.write_text("keep me\n")
    (out / "values.csv").unlink()
    (out / "values.csv").symlink_to(target)
    before = snapshot(out)
    with pytest.raises(OutputError, match="not a regular file"):
        write_set(solutions, out)
    assert snapshot(out) == before and target.read_text() == "keep me\n"
    assert "values.csv: a symlink, not a file sflp wrote" in check_manifest(out)
