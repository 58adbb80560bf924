"""The structure atlas (issue 35): ``sflp atlas``, :func:`sflp.write_atlas`, :func:`sflp.read_atlas`.

The references are independent of the atlas code: the committed chart set of SB 0.5 / BB 1, no
ante, 1-25 bb (``reports/hu-pushfold_sb0.5_bb1_ante0_bbante0_1-25``, whose ``thresholds.csv`` and
``values.csv`` ``sflp chart`` wrote), and :func:`sflp.solve` (an LP per stack, checked by best
responses) for the values and the strategies recomputed from a stored path.
"""

from __future__ import annotations

import csv
import hashlib
import json
import shutil
from pathlib import Path

import numpy as np
import pytest

import sflp
from sflp.atlas import write as atlas_module
from sflp.atlas.jobs import AtlasJob, atlas_jobs, parse_antes
from sflp.atlas.read import read_atlas
from sflp.atlas.tables import ante_path_available, solve_structure
from sflp.atlas.write import write_atlas
from sflp.errors import ConfigError, DataError, OutputError

pytest.importorskip("pyarrow", reason="the atlas is written with pyarrow (the parquet extra)")

ROOT = Path(__file__).resolve().parent.parent
COMMITTED = ROOT / "reports" / "hu-pushfold_sb0.5_bb1_ante0_bbante0_1-25"
SMALL = [(0.5, 1.0, 0.0, 0.0), (0.5, 1.0, 0.1, 0.0)]
SMALL_STACKS = [5 + 0.5 * k for k in range(11)]  # 5:10:0.5


def snapshot(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def small(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("atlas") / "small"
    write_atlas(atlas_jobs(SMALL, SMALL_STACKS, ante_stacks=()), out, workers=0)
    return out


# ---------------------------------------------------------------- exact against independent references


def _csv_cell(value) -> str:
    """A field as ``thresholds.csv`` writes it (shortest round-trip floats, NaN empty, true / false)."""
    if isinstance(value, (bool, np.bool_)):
        return "true" if value else "false"
    if isinstance(value, float):
        return "" if value != value else repr(value)
    return str(value)


def test_stack_thresholds_and_values_equal_the_committed_chart_set(tmp_path):
    """The atlas's structure "no ante, 1-25 bb @0.05" gives ``sflp chart``'s thresholds.csv, text for
    text (without its SC numbers, which the atlas does not compute), and values.csv, number for number."""
    out = tmp_path / "atlas"
    stacks = sflp.checks.parse_stacks("1:25:0.05")
    write_atlas(atlas_jobs([(0.5, 1.0, 0.0, 0.0)], stacks, ante_stacks=()), out, workers=0)
    atlas = read_atlas(out)
    with (COMMITTED / "thresholds.csv").open(newline="") as fh:
        committed = list(csv.reader(fh))
    header = committed[0][:7]
    assert header == ["player", "hand", "max_stack", "capped", "intervals", "any_intervals", "chart_label"]
    mine = [[_csv_cell(row[c]) for c in header] for row in atlas.thresholds[header].to_dict("records")]
    assert mine == [row[:7] for row in committed[1:]]
    with (COMMITTED / "values.csv").open(newline="") as fh:
        values = list(csv.reader(fh))
    columns = values[0]
    assert columns == ["stack", "value", "push_pct", "call_pct", "exploitability"]
    mine = [[_csv_cell(float(row[c])) for c in columns] for row in atlas.values[columns].to_dict("records")]
    assert mine == values[1:]


def test_every_structure_has_the_thresholds_of_sflp_chart(small, tmp_path):
    """Each structure of the small atlas against ``sflp chart``'s thresholds.csv for that structure
    and those stacks (text for text, without the SC numbers) and its values.csv."""
    atlas = read_atlas(small)
    for ante in (0.0, 0.1):
        reference = tmp_path / f"chart-{ante}"
        sflp.chart(sflp.GameConfig(stack=5, ante=ante), SMALL_STACKS, out=reference, formats="csv", workers=0)
        with (reference / "thresholds.csv").open(newline="") as fh:
            rows = list(csv.reader(fh))
        header = rows[0][:7]
        mine = atlas.thresholds[atlas.thresholds["ante"] == ante]
        assert [[_csv_cell(r[c]) for c in header] for r in mine[header].to_dict("records")] == \
            [row[:7] for row in rows[1:]]
        with (reference / "values.csv").open(newline="") as fh:
            values = list(csv.reader(fh))
        mine = atlas.values[atlas.values["ante"] == ante]
        assert [[_csv_cell(float(r[c])) for c in values[0]] for r in mine[values[0]].to_dict("records")] == values[1:]


def test_values_equal_single_solves(small):
    atlas = read_atlas(small)
    for ante in (0.0, 0.1):
        rows = atlas.values[atlas.values["ante"] == ante].set_index("stack")
        for stack in (5.0, 7.5, 10.0):
            solution = sflp.solve(sflp.GameConfig(stack=stack, ante=ante), exact=True)
            row = rows.loc[stack]
            assert abs(row["value"] - solution.value) <= 1e-12
            assert abs(row["push_pct"] - solution.push_pct) <= 1e-12
            assert abs(row["call_pct"] - solution.call_pct) <= 1e-12


@pytest.mark.parametrize("stack, ante", [(12.37 / 2, 0.1), (7.0, 0.0), (9.99, 0.1), (5.0, 0.0)])
def test_solution_is_the_single_solve(small, stack, ante):
    point = read_atlas(small).solution(stack=stack, ante=ante)
    solution = sflp.solve(sflp.GameConfig(stack=stack, ante=ante))
    assert point.config == solution.config
    assert np.max(np.abs(point.sb_strategy - solution.sb_strategy)) <= 1e-9
    assert np.max(np.abs(point.bb_strategy - solution.bb_strategy)) <= 1e-9
    assert abs(point.value - solution.value) <= 1e-9
    assert abs(point.push_pct - solution.push_pct) <= 1e-7 and abs(point.call_pct - solution.call_pct) <= 1e-7


def test_solution_is_fast_after_the_first_call(small):
    import time

    atlas = read_atlas(small)
    atlas.solution(stack=6.0, ante=0.1)  # loads the payoffs once
    start = time.process_time()  # this process's CPU time: other processes' load does not count
    for k in range(200):
        atlas.solution(stack=5.0 + 0.02 * k, ante=0.1)
    assert (time.process_time() - start) / 200 < 5e-3  # ~0.5 ms here; a loose bound


def test_solution_refuses_an_ante_off_the_grid_and_a_stack_outside(small):
    atlas = read_atlas(small)
    with pytest.raises(ConfigError, match=r"ante=0\.05 is not a structure of this atlas \(its antes: 0, 0\.1"):
        atlas.solution(stack=7, ante=0.05)
    with pytest.raises(ConfigError, match="outside the atlas's range 5 to 10 bb"):
        atlas.solution(stack=10.5, ante=0.1)
    with pytest.raises(ConfigError, match="outside"):
        atlas.solution(stack=4.99, ante=0.0)
    with pytest.raises(ConfigError, match="stack"):
        atlas.solution(stack=float("nan"), ante=0.0)


def test_solution_asks_which_structure_when_several_have_the_ante(tmp_path):
    out = tmp_path / "atlas"
    write_atlas(atlas_jobs([(0.5, 1.0, 0.0, 0.0), (0.5, 1.0, 0.0, 1.0)], [2.0, 2.5], ante_stacks=()), out, workers=0)
    atlas = read_atlas(out)
    with pytest.raises(ConfigError, match="ante=0 matches 2 structures .*give small_blind, big_blind or bb_ante"):
        atlas.solution(stack=2.2, ante=0)
    point = atlas.solution(stack=2.2, ante=0, bb_ante=1)
    solution = sflp.solve(sflp.GameConfig(stack=2.2, bb_ante=1))
    assert np.max(np.abs(point.sb_strategy - solution.sb_strategy)) <= 1e-9 and point.config == solution.config


# ---------------------------------------------------------------- the folder


def test_the_datasets_read_directly_with_pandas_and_the_structure_columns_stay_inside(small):
    import pandas as pd

    frame = pd.read_parquet(small / "thresholds.parquet")
    assert len(frame) == 2 * 338
    assert sorted(frame["structure"].astype(str).unique()) == ["sb0.5_bb1_ante0.1_bbante0", "sb0.5_bb1_ante0_bbante0"]
    one = pd.read_parquet(small / "values.parquet" / "structure=sb0.5_bb1_ante0.1_bbante0" / "part-0.parquet")
    assert list(one.columns[:4]) == ["small_blind", "big_blind", "ante", "bb_ante"] and set(one["ante"]) == {0.1}
    assert list(one["stack"]) == SMALL_STACKS
    manifest = sflp.output.manifest.read_manifest(small)
    assert manifest["kind"] == "structure-atlas" and sflp.check_manifest(small) == []
    assert [f["name"] for f in manifest["folders"]] == ["paths.parquet", "thresholds.parquet", "values.parquet"]


def test_paths_cover_the_range_and_rebuild_the_thresholds(small):
    atlas = read_atlas(small)
    path = atlas.paths[atlas.paths["ante"] == 0.1]
    assert path["from"].iloc[0] == 5.0 and path["to"].iloc[-1] == 10.0
    assert np.array_equal(path["from"].to_numpy()[1:], path["to"].to_numpy()[:-1])  # contiguous
    assert list(path["segment"]) == list(range(len(path)))
    reference = sflp.compute_thresholds(sflp.GameConfig(stack=5, ante=0.1), 5, 10)
    assert path["from"].tolist()[1:] == list(reference.breakpoints)


def test_the_same_jobs_give_the_same_bytes_inline_and_on_workers(small, tmp_path):
    other = tmp_path / "again"
    write_atlas(atlas_jobs(SMALL, SMALL_STACKS, ante_stacks=()), other, workers=2)
    assert snapshot(other) == snapshot(small)


def test_a_tampered_file_is_refused(small, tmp_path):
    copy = tmp_path / "copy"
    shutil.copytree(small, copy)
    (copy / "notes.md").write_text("mine\n")  # the user's file beside the atlas: fine
    read_atlas(copy)
    part = copy / "values.parquet" / "structure=sb0.5_bb1_ante0_bbante0" / "part-0.parquet"
    data = bytearray(part.read_bytes())
    data[len(data) // 2] ^= 1
    part.write_bytes(bytes(data))
    with pytest.raises(DataError, match="does not match its manifest.*values.parquet/structure=sb0.5_bb1_ante0_bbante0"
                                        "/part-0.parquet: SHA-256 differs"):
        read_atlas(copy)
    shutil.copyfile(small / part.relative_to(copy), part)
    read_atlas(copy)
    extra = copy / "thresholds.parquet" / "structure=sb0.5_bb1_ante0_bbante0" / "part-1.parquet"
    shutil.copyfile(extra.with_name("part-0.parquet"), extra)  # pandas would read it: refused
    with pytest.raises(DataError, match="part-1.parquet: not listed in the manifest"):
        read_atlas(copy)


def test_a_manifest_whose_stacks_were_edited_is_refused(small, tmp_path):
    """The manifest has no checksum of its own: its structures' stacks (what Atlas.structures
    tells a reader) are checked against the rows of values.parquet (issue 52: edited 10 -> 25,
    the atlas claimed 5-25 bb)."""
    copy = tmp_path / "copy"
    shutil.copytree(small, copy)
    manifest = json.loads((copy / "manifest.json").read_text())
    assert manifest["structures"][0]["stacks"]["high"] == 10.0  # SMALL_STACKS: 5:10:0.5
    manifest["structures"][0]["stacks"]["high"] = 25.0
    (copy / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(DataError, match=r"sb0.5_bb1_ante0_bbante0's stacks are .* but its values are at 11 "
                                        r"stacks from 5 to 10 bb") as info:
        read_atlas(copy)
    assert "\n" not in str(info.value)
    assert read_atlas(copy, verify=False).structures[0]["stacks"]["high"] == 25.0  # asked for: as it is


@pytest.fixture(scope="module")
def lined(tmp_path_factory) -> Path:
    """SMALL at 5 and 5.5 bb with the path along the ante at 5 bb (no page pictures: under a second)."""
    out = tmp_path_factory.mktemp("atlas") / "lined"
    write_atlas(atlas_jobs(SMALL, [5.0, 5.5], ante_stacks=(5.0,)), out, workers=0, hands=())
    return out


def _breakpoints(m):
    m["structures"][0]["breakpoints"] += 1


def _ante_high(m):
    assert m["structures"][0]["ante_path"]["high"] == 0.1
    m["structures"][0]["ante_path"]["high"] = 0.2


def _reach(m):
    m["structures"][0]["reach"] = True


def _chart_set(m):
    m["structures"][0]["chart_set"] = f"charts/{m['structures'][0]['name']}"


def _no_ante(m):
    m["structures"][0]["ante"] = None


def _twice(m):
    m["structures"].append(dict(m["structures"][0]))


@pytest.mark.parametrize("atlas, edit, field", [
    ("small", _breakpoints, "breakpoints are 131 in the manifest, but its path in paths.parquet has 131 segments"),
    ("lined", _ante_high, "ante_path runs from 0 to 0.2 bb in the manifest, but its ante paths .* cover 0 to 0.1 bb"),
    ("small", _reach, "reach is true in the manifest"),
    ("small", _chart_set, "chart_set is 'charts/sb0.5_bb1_ante0_bbante0' in the manifest, but the folder has no "),
    ("small", _twice, "structure sb0.5_bb1_ante0_bbante0 is listed 2 times"),
    ("small", _no_ante, "structure sb0.5_bb1_ante0_bbante0's ante is None in the manifest, not a number"),
])
def test_every_field_of_a_manifest_structure_is_checked_against_its_data(atlas, edit, field, request, tmp_path):
    """Issue 52: each field of a structure's entry in the manifest (no checksum of its own: an
    attacker edits it freely) is checked against the data it summarises, and a structure listed
    twice is refused, by read_atlas and by verify-thresholds (which reads with --no-manifest too)."""
    from sflp.atlas.proof import verify_atlas

    copy = tmp_path / "copy"
    shutil.copytree(request.getfixturevalue(atlas), copy)
    manifest = json.loads((copy / "manifest.json").read_text())
    edit(manifest)
    (copy / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(DataError, match=field) as info:
        read_atlas(copy)
    assert "\n" not in str(info.value)
    if edit is _twice:
        with pytest.raises(DataError, match="structure sb0.5_bb1_ante0_bbante0 is listed 2 times"):
            verify_atlas(read_atlas(copy, verify=False))


def test_a_folder_that_is_no_atlas_is_refused(tmp_path):
    with pytest.raises(DataError, match="not a folder"):
        read_atlas(tmp_path / "missing")
    with pytest.raises(DataError, match="not a structure atlas"):
        read_atlas(COMMITTED)


def test_rewriting_keeps_the_users_files_and_refuses_one_inside_a_dataset(tmp_path):
    out = tmp_path / "atlas"
    jobs = atlas_jobs([(0.5, 1.0, 0.0, 0.0)], [5.0, 5.5], ante_stacks=())
    write_atlas(jobs, out, workers=0)
    (out / "notes.md").write_text("mine\n")
    kept = []
    write_atlas(jobs, out, workers=0, on_keep=kept.append)
    assert kept == [["notes.md"]] and (out / "notes.md").read_text() == "mine\n"
    (out / "paths.parquet" / "mine.txt").write_text("mine\n")
    before = snapshot(out)
    with pytest.raises(OutputError, match="mine.txt: not listed in the manifest"):
        write_atlas(jobs, out, workers=0)
    assert snapshot(out) == before and sorted(p.name for p in tmp_path.iterdir()) == ["atlas"]


def test_nothing_is_left_behind_when_a_job_fails_mid_run(tmp_path, monkeypatch):
    out = tmp_path / "atlas"
    jobs = atlas_jobs(SMALL, [5.0, 5.5], ante_stacks=())
    write_atlas(jobs, out, workers=0)
    before = snapshot(out)
    calls = []
    real = atlas_module.solve_structure

    def failing(job):
        calls.append(job.name)
        if len(calls) == 2:
            raise KeyboardInterrupt  # an interrupt (or any error) while the second structure solves
        return real(job)

    monkeypatch.setattr(atlas_module, "solve_structure", failing)
    with pytest.raises(KeyboardInterrupt):
        write_atlas(jobs, out, workers=0)
    assert len(calls) == 2
    assert snapshot(out) == before and sorted(p.name for p in tmp_path.iterdir()) == ["atlas"]
    fresh = tmp_path / "fresh"
    calls.clear()
    with pytest.raises(KeyboardInterrupt):
        write_atlas(jobs, fresh, workers=0)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["atlas"]


def test_a_runner_that_returns_the_wrong_results_is_refused(tmp_path):
    jobs = atlas_jobs([(0.5, 1.0, 0.0, 0.0)], [5.0, 5.5], ante_stacks=())
    with pytest.raises(DataError, match="returned 0 results for 1 jobs"):
        write_atlas(jobs, tmp_path / "atlas", runner=lambda fn, js: [])
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------- jobs and inputs


def test_parse_antes():
    assert parse_antes("0:0.25:0.005")[:3] == [0.0, 0.005, 0.01] and len(parse_antes("0:0.25:0.005")) == 51
    assert parse_antes("0:0.25:0.005")[-1] == 0.25
    assert parse_antes("0.125,0,0.1") == [0.0, 0.1, 0.125] and parse_antes(" 0.1 ") == [0.1]
    for text, match in [("0:x", "--ante '0:x' is not START:STOP:STEP"), ("-0.1", "at least 0"),
                        ("0:1", "is not START:STOP:STEP"), ("0:0.25:0", "step must be positive"),
                        ("0.2:0.1:0.05", "stop must not be below start"), ("nan", "is not START"), ("", "is not")]:
        with pytest.raises(ConfigError, match=match):
            parse_antes(text)


def test_jobs_start_each_structure_where_its_blinds_and_antes_are_covered_and_deal_the_ante_paths():
    jobs = atlas_jobs(sflp.atlas.jobs.PRESETS["standard"], sflp.checks.parse_stacks("1:25:0.05"))
    assert [j.name for j in jobs] == ["sb0.5_bb1_ante0_bbante0", "sb0.5_bb1_ante0.1_bbante0",
                                      "sb0.5_bb1_ante0.125_bbante0", "sb0.5_bb1_ante0_bbante1"]
    assert [j.stacks[:2] for j in jobs] == [(1.0, 1.05), (1.1, 1.15), (1.125, 1.15), (2.0, 2.05)]
    assert [len(j.stacks) for j in jobs] == [481, 479, 479, 461]  # as sflp chart's default stacks
    dealt = sorted(s for j in jobs for s in j.ante_stacks)
    assert dealt == [1.5 + 0.5 * k for k in range(48)]  # every 0.5 bb that covers ante 0.125
    assert {(j.ante_low, j.ante_high) for j in jobs[:3]} == {(0.0, 0.125)} and jobs[3].ante_stacks == ()
    assert atlas_jobs(SMALL, SMALL_STACKS, ante_stacks=(6, 8))[0].ante_stacks == (6.0,)


def test_ante_stacks_refusal_prints_every_digit_and_agrees_with_itself():
    """A stack just below the line's first stack is named with all its digits (shortest
    round-trip), never rounded to the text of the stack it falls short of (issue 52)."""
    structures = [(0.5, 1.0, 0.0, 0.0), (0.5, 1.0, 0.123456789012, 0.0)]
    with pytest.raises(ConfigError) as info:
        atlas_jobs(structures, [2.0, 3.0, 4.0], ante_stacks=(1.1234567890111, 5.0))
    top = repr(1.0 + 0.123456789012)  # the big blind and the highest ante, the float the check compares
    assert str(info.value) == (f"--ante-stacks: stack 1.1234567890111 bb cannot cover the big blind and the highest "
                               f"ante ({top} bb in all); give stacks from {top} bb on")
    assert atlas_jobs(structures, [2.0, 3.0, 4.0], ante_stacks=(float(top), 5.0))  # what it says is taken


def test_atlas_jobs_refuse_bad_inputs():
    with pytest.raises(ConfigError, match="given twice"):
        atlas_jobs([SMALL[0], SMALL[0]], SMALL_STACKS)
    with pytest.raises(ConfigError, match="--stacks: structure sb0.5_bb1_ante0_bbante1 needs at least two stacks"):
        atlas_jobs([(0.5, 1.0, 0.0, 1.0)], [1.0, 1.5])
    with pytest.raises(ConfigError, match=r"--ante-stacks: stack 1 bb cannot cover .* \(1.25 bb in all\)"):
        atlas_jobs([(0.5, 1.0, 0.0, 0.0), (0.5, 1.0, 0.25, 0.0)], [1.0, 2.0, 3.0], ante_stacks=[1.0, 2.0])
    with pytest.raises(ConfigError, match="small_blind"):
        atlas_jobs([(2.0, 1.0, 0.0, 0.0)], SMALL_STACKS)
    with pytest.raises(ConfigError, match="AtlasJob"):
        write_atlas(["not a job"], "/nonexistent/never")
    with pytest.raises(ConfigError, match="AtlasJob"):
        solve_structure(SMALL)


def _cli(capsys, *argv):
    """``sflp ARGV`` in this process: exit code, stdout, stderr (argparse's errors exit itself)."""
    from sflp.cli.main import main

    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = exc.code
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("argv, message", [
    (["--ante", "0:x"], "--ante '0:x' is not START:STOP:STEP"),
    (["--stacks", "0:3:1"], "--stacks '0:3:1': stacks must be positive"),
    (["--preset", "standard", "--ante", "0.1"], "give --preset or --ante, not both"),
    (["--ante", "0,0.25", "--ante-stacks", "1,2", "--stacks", "1:3:0.5"], "--ante-stacks: stack 1 bb cannot cover"),
    (["--ante-stacks", "1:x"], "--ante-stacks '1:x' is not START:STOP:STEP"),
    (["--big-blind", "0", "--stacks", "1:3:0.5"], "--big-blind 0 must be positive"),
    (["--small-blind", "2"], "--small-blind 2 is larger than big_blind"),
    (["--workers", "-1"], "--workers '-1' must be at least 0"),
    (["--preset", "huge"], "invalid choice: 'huge'"),
    (["--charts", "csv,bogus"], "--charts 'csv,bogus': unknown 'bogus'; choose from csv"),
])
def test_cli_bad_input_is_one_line_and_writes_nothing(capsys, tmp_path, monkeypatch, argv, message):
    monkeypatch.chdir(tmp_path)
    code, out, err = _cli(capsys, "atlas", *argv, "--out", "atlas")
    assert code == 2 and out == ""
    assert message in err and err.count("\n") == 1 and "Traceback" not in err, err
    assert list(tmp_path.iterdir()) == []


def test_cli_writes_the_default_folder_and_says_what_it_wrote(capsys, tmp_path, monkeypatch):
    import json

    monkeypatch.chdir(tmp_path)
    code, out, err = _cli(capsys, "atlas", "--ante", "0,0.1", "--stacks", "5:5.5:0.5", "--ante-stacks", "none",
                          "--workers", "0", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["out_dir"] == "reports/atlas_sb0.5_bb1_ante0-0.1_bbante0_5-5.5"
    assert [s["name"] for s in data["structures"]] == ["sb0.5_bb1_ante0_bbante0", "sb0.5_bb1_ante0.1_bbante0"]
    atlas = read_atlas(tmp_path / data["out_dir"])
    assert len(atlas.values) == 4 and len(atlas.thresholds) == 2 * 338
    code, out, err = _cli(capsys, "atlas", "--ante", "0,0.1", "--stacks", "5:5.5:0.5", "--ante-stacks", "none",
                          "--workers", "0")
    assert code == 0 and out.startswith("Structure atlas: 2 structures in reports/atlas_sb0.5_bb1_ante0-0.1")


def test_charts_are_the_chart_sets_sflp_chart_writes(tmp_path):
    out = tmp_path / "atlas"
    jobs = atlas_jobs([(0.5, 1.0, 0.125, 0.0)], [1.0, 1.5, 2.0], ante_stacks=(), charts="csv")
    assert jobs[0].stacks == (1.125, 1.5, 2.0) and jobs[0].charts == ("csv",)
    write_atlas(jobs, out, workers=0)
    reference = tmp_path / "reference"
    sflp.chart(sflp.GameConfig(stack=2, ante=0.125), [1.125, 1.5, 2.0], out=reference, formats="csv", workers=0)
    mine = out / "charts" / "sb0.5_bb1_ante0.125_bbante0"
    assert snapshot(mine) == snapshot(reference)
    assert sflp.check_manifest(mine) == [] and sflp.check_manifest(out) == []
    atlas = read_atlas(out)
    assert atlas.structures[0]["chart_set"] == "charts/sb0.5_bb1_ante0.125_bbante0"
    with pytest.raises(ConfigError, match="unknown 'gif'"):
        atlas_jobs([(0.5, 1.0, 0.125, 0.0)], [1.0, 1.5, 2.0], charts="gif")


def test_the_public_api_names_the_atlas():
    assert sflp.read_atlas is read_atlas and sflp.write_atlas is write_atlas and sflp.AtlasJob is AtlasJob


# ---------------------------------------------------------------- the path along the ante


@pytest.mark.skipif(not ante_path_available(), reason="compute_thresholds has no along='ante' yet")
def test_ante_thresholds_switch_where_single_solves_switch(tmp_path):
    """Where a hand's interval of frequency > 0.5 along the ante starts or ends strictly inside the
    range, a single solve 1e-6 bb of ante inside it plays the hand above 0.5 and one 1e-6 outside
    does not (issue 35: the ante thresholds agree with single solves on either side)."""
    out = tmp_path / "atlas"
    write_atlas(atlas_jobs(SMALL, [6.0, 6.5], ante_stacks=(6.0,)), out, workers=0)
    frame = read_atlas(out).ante_thresholds
    assert len(frame) == 338 and set(frame["stack"]) == {6.0} and set(frame["ante_high"]) == {0.1}
    ends = [(row["player"], row["hand"], end, side) for row in frame.to_dict("records")
            for a, b in zip(row["from"], row["to"]) for end, side in ((a, +1), (b, -1)) if 1e-4 < end < 0.1 - 1e-4]
    assert len(ends) >= 8
    for player, hand, end, side in ends[::max(1, len(ends) // 8)][:8]:
        inside = sflp.solve(sflp.GameConfig(stack=6.0, ante=end + side * 1e-6))
        outside = sflp.solve(sflp.GameConfig(stack=6.0, ante=end - side * 1e-6))
        k = sflp.core.cards.CLASS_INDEX[hand]
        strategy = "sb_strategy" if player == "sb" else "bb_strategy"
        assert getattr(inside, strategy)[k] > 0.5 >= getattr(outside, strategy)[k], (player, hand, end, side)


# ---------------------------------------------------------------- manifests with folders (sflp.output)


def test_a_manifests_folders_must_stay_inside_the_folder():
    from sflp.output.manifest import manifest_problems

    entry = {"bytes": 1, "sha256": "0" * 64}
    good = {"files": [], "folders": [{"name": "values.parquet", "files": [{"name": "structure=a/part-0.parquet",
                                                                            **entry}]}]}
    assert manifest_problems(good) == []
    for folder, inner in [("..", "x"), ("a/b", "x"), (".hidden", "x"), ("values.parquet", "../x"),
                          ("values.parquet", "a//b"), ("values.parquet", "/etc/x"), ("values.parquet", "a/.b"),
                          ("values.parquet", "a\\b")]:
        bad = {"files": [], "folders": [{"name": folder, "files": [{"name": inner, **entry}]}]}
        assert manifest_problems(bad), (folder, inner)
    twice = {"files": [{"name": "x", **entry}], "folders": [{"name": "x", "files": []}]}
    assert manifest_problems(twice) == ["folder 'x' is listed twice"]


def test_a_listed_folder_that_is_now_a_symlink_is_refused_and_never_followed(tmp_path):
    from sflp.output.target import check_target

    out = tmp_path / "atlas"
    jobs = atlas_jobs([(0.5, 1.0, 0.0, 0.0)], [5.0, 5.5], ante_stacks=())
    write_atlas(jobs, out, workers=0)
    elsewhere = tmp_path / "elsewhere"
    shutil.move(out / "paths.parquet", elsewhere)
    (out / "paths.parquet").symlink_to(elsewhere)
    with pytest.raises(OutputError, match="'paths.parquet' is not a folder in the folder"):
        check_target(out, "structure-atlas")
    assert "paths.parquet: a symlink, not a folder sflp wrote" in sflp.check_manifest(out)
    (out / "paths.parquet").unlink()
    (out / "paths.parquet").mkdir()
    (out / "paths.parquet" / "structure=sb0.5_bb1_ante0_bbante0").symlink_to(
        elsewhere / "structure=sb0.5_bb1_ante0_bbante0")
    problems = sflp.check_manifest(out)
    assert "paths.parquet/structure=sb0.5_bb1_ante0_bbante0: not a regular file sflp wrote" in problems
    assert "paths.parquet/structure=sb0.5_bb1_ante0_bbante0/part-0.parquet: a symlink, not a file sflp wrote" \
        in problems
    with pytest.raises(DataError, match="does not match its manifest"):
        read_atlas(out)
    assert (elsewhere / "structure=sb0.5_bb1_ante0_bbante0" / "part-0.parquet").is_file()  # never removed


def test_ante_labels_say_where_a_hand_is_played_and_frames_follow_the_manifest(tmp_path):
    """The ante label is the ante path's intervals (a hand pushed from an ante of 0.0994 on reads
    '0.099412+', not the range's top), as compute_thresholds(along='ante') labels it; the frames
    come structure by structure in the manifest's order (0, 0.1, 0.125), not the folders' names'."""
    from sflp.atlas.jobs import atlas_jobs
    from sflp.atlas.read import read_atlas
    from sflp.atlas.write import write_atlas
    from sflp.core.game import GameConfig
    from sflp.solving.thresholds import compute_thresholds

    jobs = atlas_jobs([(0.5, 1.0, a, 0.0) for a in (0.0, 0.1, 0.125)], [5 + k / 2 for k in range(5)],
                      ante_stacks=(6,))
    write_atlas(jobs, tmp_path / "a", workers=0, hands=())
    atlas = read_atlas(tmp_path / "a")
    assert atlas.thresholds["ante"].drop_duplicates().tolist() == [0.0, 0.1, 0.125]
    assert atlas.values["ante"].drop_duplicates().tolist() == [0.0, 0.1, 0.125]
    line = compute_thresholds(GameConfig(stack=6), 0, 0.125, along="ante")
    rows = atlas.ante_thresholds.set_index(["player", "hand"])["label"]
    labels = {(h.player, h.hand): h.label() for h in line.hands}
    assert all(rows[key] == label for key, label in labels.items())
    played_late = [key for key, h in ((k, line.get(*k)) for k in labels) if h.intervals and h.intervals[0][0] > 0.01]
    assert played_late and all(not rows[key].startswith("0+") for key in played_late)


def test_a_folder_an_atlas_lists_is_not_written_over_from_outside(tmp_path):
    """A chart set written into an atlas's charts/<structure>/ (or into a dataset's folder) would
    replace part of the atlas behind its manifest's back: refused before any work, and the atlas
    still reads back."""
    import subprocess
    import sys

    from sflp.atlas.jobs import atlas_jobs
    from sflp.atlas.read import read_atlas
    from sflp.atlas.write import write_atlas
    from sflp.errors import OutputError
    from sflp.output.target import check_target

    jobs = atlas_jobs([(0.5, 1.0, 0.0, 0.0), (0.5, 1.0, 0.1, 0.0)], [5.0, 5.5, 6.0], ante_stacks=(), charts=("csv",))
    out = tmp_path / "atlas"
    write_atlas(jobs, out, workers=0, hands=())
    for inner in ("charts/sb0.5_bb1_ante0.1_bbante0", "charts", "thresholds.parquet/x"):
        with pytest.raises(OutputError, match="part of the sflp set"):
            check_target(out / inner, "chart-set")
    run = subprocess.run([sys.executable, "-m", "sflp", "chart", "--stacks", "5:6:0.5", "--formats", "csv", "--out",
                          str(out / "charts" / "sb0.5_bb1_ante0.1_bbante0")], capture_output=True, text=True)
    assert run.returncode == 2 and "part of the sflp set" in run.stderr and "Traceback" not in run.stderr
    read_atlas(out)  # untouched
    check_target(tmp_path / "elsewhere", "chart-set")  # beside it is fine
