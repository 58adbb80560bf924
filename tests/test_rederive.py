"""A certificate that does not depend on a hash anyone can recompute (issue 40, points 1 and 4).

Every table sflp publishes is re-derived from the re-proved path and compared text for text, so a
tampered table is refused even when its manifest was updated to match (or not checked at all,
``--no-manifest``).  The edits are those an auditor made to a 1-25 bb set: a row deleted, ``capped``
flipped, a hand's number replaced by another hand's published root, a label changed; and their
twins in an atlas, whose partitions and listing are checked too.

Fast: a 1-6 bb chart set and a two-structure atlas over 2-6 bb, made once per module.  Slow: the
auditor's exact edits on the committed 1-25 set."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sflp.errors import DataError

ROOT = Path(__file__).resolve().parent.parent
COMMITTED = ROOT / "reports" / "hu-pushfold_sb0.5_bb1_ante0_bbante0_1-25"


def rehash(folder: Path) -> None:
    """Update ``manifest.json`` to the files as they are now: what anyone who edits a set can do."""
    manifest = json.loads((folder / "manifest.json").read_text())

    def fix(entry, path):
        data = path.read_bytes()
        entry["bytes"], entry["sha256"] = len(data), hashlib.sha256(data).hexdigest()

    for entry in manifest["files"]:
        fix(entry, folder / entry["name"])
    for sub in manifest.get("folders", []):
        for entry in sub["files"]:
            fix(entry, folder / sub["name"] / entry["name"])
    (folder / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")


def verify_cli(folder: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sflp", "verify-thresholds", str(folder), *extra],
                          capture_output=True, text=True, timeout=600)


# ---------------------------------------------------------------- chart sets


@pytest.fixture(scope="module")
def small_set(tmp_path_factory) -> Path:
    from sflp.charts.chart import chart
    from sflp.core.game import GameConfig

    out = tmp_path_factory.mktemp("set") / "set"
    chart(GameConfig(stack=1), "1:6:0.5", out=out, formats=["csv"], workers=0)
    return out


def _rows(folder: Path) -> list[list[str]]:
    return list(csv.reader(io.StringIO((folder / "thresholds.csv").read_text(), newline="")))


def _write(folder: Path, rows) -> None:
    text = io.StringIO()
    csv.writer(text, lineterminator="\n").writerows(rows)
    (folder / "thresholds.csv").write_text(text.getvalue())


def _edit(rows, hand: str, column: str, value: str):
    head = rows[0]
    out = [list(r) for r in rows]
    row = next(r for r in out[1:] if r[:2] == ["sb", hand])
    row[head.index(column)] = value
    return out


def _other_root(rows, hand: str) -> str:
    """Another SB hand's published max_stack, different from ``hand``'s: a number that IS a
    published root, so the old check (every number some root) passed it."""
    head = rows[0]
    k = head.index("max_stack")
    mine = next(r for r in rows[1:] if r[:2] == ["sb", hand])[k]
    return next(r[k] for r in rows[1:] if r[0] == "sb" and r[k] and r[k] != mine and r[3] == "false")


def _first_uncapped(rows) -> str:
    return next(r[1] for r in rows[1:] if r[0] == "sb" and r[2] and r[3] == "false")


TAMPERS = {
    "a row deleted": (lambda rows: [r for r in rows if r[:2] != ["sb", "ATs"]], "row sb,ATs is missing"),
    "capped flipped": (lambda rows: _edit(rows, "AA", "capped", "false"), "column capped"),
    "another hand's root": (lambda rows: _edit(rows, _first_uncapped(rows), "max_stack",
                                               _other_root(rows, _first_uncapped(rows))), "column max_stack"),
    "a label": (lambda rows: _edit(rows, _first_uncapped(rows), "chart_label", "9.9"), "column chart_label"),
    "two rows swapped": (lambda rows: [rows[0], rows[2], rows[1], *rows[3:]], "out of place"),
    "a row repeated": (lambda rows: [*rows[:3], rows[2], *rows[3:]], "given twice"),
    "an SC number": (lambda rows: _edit(rows, "72o", "sc_number", "1.0"), "column sc_number"),
    # the last row: only the count of rows sees it (the rows before it are all in place)
    "the last row deleted": (lambda rows: rows[:-1], "row bb,[0-9A-Za-z]+ is missing"),
    # the values stay in place under a wrong name: only the header's check sees it
    "a column renamed": (lambda rows: [["label" if c == "chart_label" else c for c in rows[0]], *rows[1:]],
                         "column chart_label is missing"),
}


@pytest.mark.parametrize("name", sorted(TAMPERS))
def test_a_tampered_thresholds_csv_is_refused_even_with_its_manifest_updated(small_set, tmp_path, name):
    from sflp.charts.proof import verify_thresholds

    folder = tmp_path / "set"
    shutil.copytree(small_set, folder)
    tamper, words = TAMPERS[name]
    _write(folder, tamper(_rows(folder)))
    rehash(folder)  # the manifest agrees with the edit: only the proof can tell
    for verify in (True, False):
        with pytest.raises(DataError, match=words):
            verify_thresholds(folder, verify=verify)


def test_the_untouched_set_passes_and_says_what_was_decided_how(small_set):
    from sflp.charts.proof import verify_thresholds

    check = verify_thresholds(small_set)
    assert check.rows == 338 and check.float_signs > 0 and check.exact_signs > 0
    text = check.text()
    assert "decided in floats with a proven error bound" in text and "exactly with integers" in text
    assert "re-derived from the re-proved path" in text and "re-proven with integers" not in text


def test_the_cli_names_the_row_and_the_column(small_set, tmp_path):
    folder = tmp_path / "set"
    shutil.copytree(small_set, folder)
    _write(folder, _edit(_rows(folder), "AA", "capped", "false"))
    out = verify_cli(folder, "--no-manifest")
    assert out.returncode != 0 and out.stdout == ""
    assert "row sb,AA" in out.stderr and "column capped" in out.stderr and "Traceback" not in out.stderr


@pytest.mark.slow  # four re-proofs of the committed 1-25 set (2 s each)
@pytest.mark.parametrize("edit", ["delete sb,ATs", "capped sb,AKo", "K7o another root", "K7o label"])
def test_the_auditors_four_edits_of_the_committed_set_are_refused(tmp_path, edit):
    """The four edits of issue 40 (§1) that `verify-thresholds --no-manifest` used to pass."""
    folder = tmp_path / "set"
    shutil.copytree(COMMITTED, folder)
    text = (folder / "thresholds.csv").read_text()
    lines = text.split("\n")
    k7o = next(i for i, line in enumerate(lines) if line.startswith("sb,K7o,"))
    assert lines[k7o].startswith("sb,K7o,16.127855,false,") and "16.133401" in text  # the numbers
    if edit == "delete sb,ATs":
        lines = [line for line in lines if not line.startswith("sb,ATs,")]
        words = "row sb,ATs is missing"
    elif edit == "capped sb,AKo":
        ako = next(i for i, line in enumerate(lines) if line.startswith("sb,AKo,"))
        lines[ako] = lines[ako].replace(",true,", ",false,", 1)
        words = "row sb,AKo.*column capped"
    elif edit == "K7o another root":
        lines[k7o] = lines[k7o].replace("sb,K7o,16.127855,", "sb,K7o,16.133401,")
        words = "row sb,K7o.*column max_stack"
    else:
        fields = lines[k7o].split(",")
        assert fields[6] == "16.1"
        fields[6] = "16.2"
        lines[k7o] = ",".join(fields)
        words = "row sb,K7o.*column chart_label"
    (folder / "thresholds.csv").write_text("\n".join(lines))
    out = verify_cli(folder, "--no-manifest")
    assert out.returncode != 0, out.stdout
    import re

    assert re.search(words, out.stderr), out.stderr


# ---------------------------------------------------------------- atlases


@pytest.fixture(scope="module")
def small_atlas(tmp_path_factory) -> Path:
    from sflp.atlas.jobs import atlas_jobs
    from sflp.atlas.write import write_atlas

    out = tmp_path_factory.mktemp("atlas") / "atlas"
    jobs = atlas_jobs([(0.5, 1.0, 0.0, 0.0), (0.5, 1.0, 0.1, 0.0)], [2.0, 3.0, 4.0, 5.0, 6.0], ante_stacks=(3.0, 5.0))
    write_atlas(jobs, out, workers=0, hands=())
    return out


def _part(folder: Path, dataset: str, structure: str | None = None) -> Path:
    files = sorted((folder / f"{dataset}.parquet").rglob("*.parquet"))
    if structure is not None:
        files = [f for f in files if structure in str(f)]
    return files[0]


def _edit_parquet(path: Path, column: str, row: int, value) -> None:
    import pyarrow.parquet as pq

    from sflp.atlas.tables import schemas

    table = pq.read_table(path)
    data = table.to_pydict()
    data[column][row] = value
    import pyarrow as pa

    schema = table.schema.remove_metadata()
    assert schema == schemas()[path.parent.parent.name.removesuffix(".parquet")]
    pq.write_table(pa.table(data, schema=schema), path)


ATLAS_TAMPERS = {
    "a stack threshold's label": ("thresholds", "chart_label", 5, "9.9", "column chart_label"),
    "a stack threshold's capped": ("thresholds", "capped", 0, False, "column capped"),
    "a stack threshold's number": ("thresholds", "max_stack", 200, 4.444444, "column max_stack"),
    "an ante threshold's label": ("ante_thresholds", "label", 3, "0.05", "column label"),
    "an ante threshold's intervals": ("ante_thresholds", "intervals", 170, "0.000000-0.050000", "column intervals"),
    "a stored segment's end": ("paths", "to", 0, 2.5, "segment 1 starts at|does not re-prove"),
}


@pytest.mark.parametrize("name", sorted(ATLAS_TAMPERS))
def test_a_tampered_atlas_is_refused_by_its_proof(small_atlas, tmp_path, name):
    from sflp.atlas.read import read_atlas

    folder = tmp_path / "atlas"
    shutil.copytree(small_atlas, folder)
    dataset, column, row, value, words = ATLAS_TAMPERS[name]
    _edit_parquet(_part(folder, dataset), column, row, value)
    rehash(folder)
    read_atlas(folder)  # the manifest and the partitions agree: only the proof can tell
    with pytest.raises(DataError, match=words):
        read_atlas(folder, verify="proof")


def test_the_atlas_proof_passes_untouched_and_through_the_cli(small_atlas):
    from sflp.atlas.read import read_atlas

    atlas = read_atlas(small_atlas, verify="proof")
    check = atlas.proof
    assert check.structures == 2 and check.threshold_rows == 2 * 338
    assert check.ante_paths == 2 and check.ante_rows == 2 * 338
    out = verify_cli(small_atlas, "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["kind"] == "structure-atlas" and data["thresholds_rows"] == 676


def test_the_atlas_cli_refuses_a_tampered_table_without_the_manifest(small_atlas, tmp_path):
    folder = tmp_path / "atlas"
    shutil.copytree(small_atlas, folder)
    _edit_parquet(_part(folder, "thresholds"), "chart_label", 5, "9.9")
    out = verify_cli(folder, "--no-manifest")
    assert out.returncode != 0 and "column chart_label" in out.stderr, out.stderr
    out = verify_cli(folder)  # with the manifest, its hash catches it first
    assert out.returncode != 0 and "manifest" in out.stderr


def test_read_atlas_refuses_swapped_partitions(small_atlas, tmp_path):
    """Two structures' values.parquet files swapped and the hashes updated: rows under
    structure=...ante0.1 would carry ante 0."""
    from sflp.atlas.read import read_atlas

    folder = tmp_path / "atlas"
    shutil.copytree(small_atlas, folder)
    a = _part(folder, "values", "ante0_")
    b = _part(folder, "values", "ante0.1_")
    data_a, data_b = a.read_bytes(), b.read_bytes()
    a.write_bytes(data_b)
    b.write_bytes(data_a)
    rehash(folder)
    with pytest.raises(DataError, match="do not belong to structure=.*ante"):
        read_atlas(folder)


def test_read_atlas_refuses_a_manifest_that_lists_structures_but_not_their_files(small_atlas, tmp_path):
    from sflp.atlas.read import read_atlas

    folder = tmp_path / "atlas"
    shutil.copytree(small_atlas, folder)
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["files"], manifest["folders"] = [], []
    (folder / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(DataError, match="lists structure .* but not its file thresholds.parquet"):
        read_atlas(folder)
    with pytest.raises(DataError, match="but not its file"):
        read_atlas(folder, verify=False)


# ---------------------------------------------------------------- every reader checks the same way


def test_compare_refuses_a_tampered_set_and_reads_it_when_told(small_set, tmp_path):
    """`sflp compare SET nash` used the hand-edited thresholds.csv of a set whose manifest says it
    changed, exited 0 and printed the edited value; now it is refused as read_ranges refuses it,
    with the same opt-out."""
    folder = tmp_path / "set"
    shutil.copytree(small_set, folder)
    rows = _edit(_rows(folder), "72o", "intervals", "1.000000-1.600000")
    _write(folder, rows)

    def compare(*extra):
        return subprocess.run([sys.executable, "-m", "sflp", "compare", str(folder), "nash", "--stacks", "1:6",
                               "--out", str(tmp_path / f"out{len(extra)}"), *extra],
                              capture_output=True, text=True, timeout=600)

    out = compare()
    assert out.returncode == 2 and out.stdout == "", out.stdout
    assert "does not match its manifest.json: thresholds.csv" in out.stderr and "--no-manifest" in out.stderr
    assert not (tmp_path / "out0").exists()
    out = compare("--no-manifest")
    assert out.returncode == 0, out.stderr
    from sflp.charts.readback import read_ranges

    with pytest.raises(DataError, match="does not match its manifest"):
        read_ranges(folder)


# ---------------------------------------------------------------- names that cannot collide


def test_two_antes_that_differ_in_the_13th_digit_are_two_structures():
    """Structure names kept 12 significant digits, so `sflp atlas --ante 0.1,0.1000000000001` was
    refused as 'given twice'; a name is now the shortest text that reads back as the same number."""
    from sflp.atlas.jobs import atlas_jobs, parse_antes, structure_name
    from sflp.errors import ConfigError

    antes = parse_antes("0.1,0.1000000000001")
    assert len(antes) == 2 and antes[0] != antes[1]
    jobs = atlas_jobs([(0.5, 1.0, a, 0.0) for a in antes], [5.0, 6.0], ante_stacks=())
    names = [job.name for job in jobs]
    assert names == ["sb0.5_bb1_ante0.1_bbante0", "sb0.5_bb1_ante0.1000000000001_bbante0"]
    for job in jobs:  # the name reads back as the exact number
        assert float(job.name.split("_ante")[1].split("_")[0]) == job.ante
    with pytest.raises(ConfigError, match="given twice"):  # a true duplicate is still refused
        atlas_jobs([(0.5, 1.0, 0.1, 0.0), (0.5, 1.0, 0.1, 0.0)], [5.0, 6.0])
    assert structure_name(0.5, 1, 1 / 3, 0) == f"sb0.5_bb1_ante{1 / 3!r}_bbante0"


@pytest.mark.parametrize(("antes", "words"), [
    ("1e400", "ante 1e400 is too large for a float"),
    ("0,1e400", "ante 1e400 is too large for a float"),
    ("0:1e400:1e399", "the stop 1e400 is too large for a float"),
    ("1e308,0", "ante 1e308 leaves no finite stack"),
])
def test_an_overflowing_ante_is_named_as_typed(antes, words, tmp_path):
    """Issue 41 (§6): `sflp atlas --ante 1e400` gave an OverflowError traceback, `1e308,0` blamed a
    derived stack; each is one line naming the value as the user typed it, nothing written."""
    out = subprocess.run([sys.executable, "-m", "sflp", "atlas", "--ante", antes, "--stacks", "2:4:1",
                          "--out", str(tmp_path / "atlas")], capture_output=True, text=True, timeout=600)
    assert out.returncode == 2 and out.stdout == "" and "Traceback" not in out.stderr, out.stderr
    assert words in out.stderr and len(out.stderr.strip().splitlines()) == 1, out.stderr
    assert not (tmp_path / "atlas").exists()


def test_a_missing_ante_is_named_as_given(small_atlas):
    from sflp.atlas.read import read_atlas
    from sflp.errors import ConfigError

    atlas = read_atlas(small_atlas)
    with pytest.raises(ConfigError, match=r"ante=0\.1000000001 is not a structure of this atlas"):
        atlas.solution(5, 0.1000000001)
