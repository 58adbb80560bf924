"""Reading a chart set's ranges back (issue 30, cases 4, 5 and 6): the same canonical rows from
every ranges form and for any order of ``stacks``; a damaged folder is one sflp error, caught by
the manifest and, when the manifest is re-signed to match, by the content checks; a file that
holds or claims more rows than the set has is refused before its rows are materialised.

One small set per form is made once (four stacks, 1 to 3 bb: mixed hands at 3 bb, runs that
change between stacks); each damaged case works on a copy.
"""

from __future__ import annotations

import csv
import hashlib
import json
import os
import shutil
import signal
from pathlib import Path

import numpy as np
import pytest

import sflp
from sflp.charts import readback
from sflp.charts.readback import read_ranges
from sflp.core.cards import CLASS_NAMES, PLAYERS
from sflp.errors import ConfigError, DataError

STACKS = [1.0, 1.5, 2.0, 3.0]
FORMS = {"csv": "ranges.csv", "segments": "ranges_segments.csv", "parquet": "ranges.parquet"}


@pytest.fixture(scope="module")
def sets(tmp_path_factory) -> dict[str, Path]:
    pytest.importorskip("pyarrow", reason="the parquet extra (pyarrow) is not installed")
    root = tmp_path_factory.mktemp("readback")
    for form in FORMS:
        sflp.chart(sflp.GameConfig(stack=1), STACKS, out=root / form, formats=["csv"], ranges=form, workers=0,
                   grid_stacks=[3])
    return {form: root / form for form in FORMS}


@pytest.fixture(scope="module")
def reference(sets) -> dict[tuple[float, str, str], tuple[float, float]]:
    """(stack, player, hand) -> (frequency, ev_margin) of ranges.csv, read with the csv module
    (not with the reader under test); the floats are written as round-trip text, so float() of the
    text is the exact double."""
    with open(sets["csv"] / "ranges.csv", newline="", encoding="utf-8") as fh:
        return {(float(r["stack"]), r["player"], r["hand"]): (float(r["frequency"]),
                                                               float(r["ev_margin"]) if r["ev_margin"] else np.nan)
                for r in csv.DictReader(fh)}


def expected(reference, stacks) -> tuple[list[tuple[float, str, str]], np.ndarray, np.ndarray]:
    """The documented canonical rows: distinct stacks ascending, SB before BB, class-id order."""
    keys = [(s, p, h) for s in sorted(set(stacks)) for p in PLAYERS for h in CLASS_NAMES]
    return keys, np.array([reference[k][0] for k in keys]), np.array([reference[k][1] for k in keys])


def copy_of(sets, form: str, tmp_path: Path) -> Path:
    out = tmp_path / f"copy-{form}"
    shutil.copytree(sets[form], out, symlinks=True)
    return out


def resign(folder: Path) -> None:
    """Make manifest.json agree with the folder again (as a forger would): each listed regular
    file gets its new size and SHA-256; an entry whose file is gone, a symlink or not a regular
    file is dropped."""
    path = folder / "manifest.json"
    manifest = json.loads(path.read_text(encoding="utf-8"))
    files = []
    for entry in manifest["files"]:
        f = folder / entry["name"]
        if f.is_symlink() or not f.is_file():
            continue
        data = f.read_bytes()
        files.append({**entry, "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()})
    manifest["files"] = files
    path.write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")


# ---------------------------------------------------------------- case 4: same rows, any order, any form


REQUESTS = {  # name: (the stacks argument, made fresh for each test; the stacks it asks for)
    "every stack": (lambda: None, STACKS),
    "descending": (lambda: [3.0, 1.0], [3.0, 1.0]),
    "ascending": (lambda: [1.0, 3.0], [1.0, 3.0]),
    "shuffled with repeats and ints": (lambda: [3, 1.5, 3.0, 1], [3.0, 1.5, 1.0]),
    "a scalar": (lambda: 2.0, [2.0]),
    "a numpy scalar": (lambda: np.float64(3.0), [3.0]),
    "a numpy array": (lambda: np.array([3.0, 2.0, 1.0]), [3.0, 2.0, 1.0]),
    "a generator": (lambda: (s for s in [2.0, 1.5]), [2.0, 1.5]),
    "a set": (lambda: {3.0, 1.0}, [3.0, 1.0]),
}


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("request_name", REQUESTS)
def test_every_form_gives_the_canonical_rows_for_any_order_of_stacks(sets, reference, form, request_name):
    make, asked = REQUESTS[request_name]
    frame = read_ranges(sets[form], stacks=make())
    keys, freq, ev = expected(reference, asked)
    assert list(frame.columns) == ["stack", "player", "hand", "frequency"] + (
        ["ev_margin"] if form != "segments" else [])
    assert list(zip(frame["stack"].tolist(), frame["player"].tolist(), frame["hand"].tolist())) == keys
    assert frame.index.tolist() == list(range(len(keys)))
    # tolerance 0: every form stores the exact doubles of ranges.csv
    np.testing.assert_array_equal(frame["frequency"].to_numpy(np.float64), freq)
    if form != "segments":
        np.testing.assert_array_equal(frame["ev_margin"].to_numpy(np.float64), ev)


def test_the_issue_example_sb_83s_at_3_bb_is_never_pushed(sets, reference):
    assert reference[(3.0, "sb", "83s")][0] == 0.0 and reference[(1.0, "sb", "83s")][0] == 1.0
    for form in FORMS:
        frame = read_ranges(sets[form], stacks=[3.0, 1.0])
        at = frame[(frame["player"] == "sb") & (frame["hand"] == "83s")]
        assert at["stack"].tolist() == [1.0, 3.0] and at["frequency"].tolist() == [1.0, 0.0], form


@pytest.mark.parametrize("form", FORMS)
def test_reversed_values_csv_is_refused_not_misread(sets, tmp_path, form):
    """values.csv lists the solved stacks ascending; reversed, it is refused by the manifest and,
    re-signed or unverified, by its order: never an answer with other rows."""
    folder = copy_of(sets, form, tmp_path)
    lines = (folder / "values.csv").read_text(encoding="utf-8").splitlines(keepends=True)
    (folder / "values.csv").write_text(lines[0] + "".join(reversed(lines[1:])), encoding="utf-8")
    with pytest.raises(DataError, match="does not match its manifest.json: values.csv: SHA-256 differs"):
        read_ranges(folder, stacks=[3.0, 1.0])
    resign(folder)
    for verify in (True, False):
        with pytest.raises(DataError, match=r"values.csv line 3: stack 2.0 does not follow 3.0"):
            read_ranges(folder, stacks=[3.0, 1.0], verify=verify)


# ---------------------------------------------------------------- arguments


@pytest.mark.parametrize("stacks, message", [
    ([2.5], r"stack 2.5 was not solved in .*: its 4 solved stacks run from 1.0 to 3.0 bb"),
    (1.0000000001, r"stack 1.0000000001 was not solved"),
    ([float("nan")], r"stacks=nan must be finite"),
    ([3.0, float("inf")], r"stacks\[1\]=inf must be finite"),
    (-1.0, r"stacks=-1.0 must be positive"),
    ([], r"stacks is empty"),
    ("3", r"stacks='3' is not a number or a list of numbers"),
    ([True], r"stacks=True is not a number"),
    (["3"], r"stacks='3' is not a number"),
    (np.ones((2, 2)), r"stacks has shape \(2, 2\)"),
])
def test_bad_stacks_are_one_config_error(sets, stacks, message):
    with pytest.raises(ConfigError, match=message):
        read_ranges(sets["segments"], stacks=stacks)


def test_bad_folder_and_verify_arguments(sets, tmp_path):
    with pytest.raises(ConfigError, match="does not exist"):
        read_ranges(tmp_path / "nowhere")
    (tmp_path / "file").write_text("x")
    with pytest.raises(ConfigError, match="is not a folder"):
        read_ranges(tmp_path / "file")
    with pytest.raises(ConfigError, match="needs a folder path, not int"):
        read_ranges(3)
    with pytest.raises(ConfigError, match="verify='no' must be True or False"):
        read_ranges(sets["csv"], verify="no")
    with pytest.raises(ConfigError, match="holds no ranges.csv, ranges.parquet or ranges_segments.csv"):
        read_ranges(tmp_path)


def test_a_folder_without_a_manifest_needs_verify_false(sets, tmp_path):
    folder = copy_of(sets, "csv", tmp_path)
    (folder / "manifest.json").unlink()
    with pytest.raises(DataError, match="manifest.json is missing or not an sflp manifest.*verify=False"):
        read_ranges(folder)
    assert len(read_ranges(folder, verify=False)) == 4 * 338


def test_the_users_own_files_beside_the_set_are_not_its_damage(sets, tmp_path):
    """Files the manifest does not list are the user's (the output-folder contract keeps them)."""
    folder = copy_of(sets, "segments", tmp_path)
    (folder / "notes.txt").write_text("mine\n")
    (folder / "ranges.csv").write_text("not read: the manifest lists ranges_segments.csv\n")
    assert len(read_ranges(folder, stacks=3)) == 338
    with pytest.raises(DataError, match="holds ranges.csv and ranges_segments.csv; with verify=False it must hold one"):
        read_ranges(folder, verify=False)


def test_a_damaged_file_the_reader_does_not_parse_still_fails_the_manifest_check(sets, tmp_path):
    folder = copy_of(sets, "csv", tmp_path)
    (folder / "thresholds.csv").write_text("edited\n")
    with pytest.raises(DataError, match="thresholds.csv: SHA-256 differs from the manifest"):
        read_ranges(folder)
    assert len(read_ranges(folder, verify=False)) == 4 * 338


def test_a_file_changed_after_the_manifest_check_is_refused(sets, tmp_path, monkeypatch):
    """The bytes parsed are hashed again: a file swapped between the check and the read is refused."""
    folder = copy_of(sets, "csv", tmp_path)
    from sflp.output import manifest as staging

    check = staging.check_manifest

    def check_then_swap(path):
        problems = check(path)
        data = (folder / "ranges.csv").read_bytes()
        (folder / "ranges.csv").write_bytes(data.replace(b"1.0,sb,AA,1.0,", b"1.0,sb,AA,0.0,", 1))
        return problems

    monkeypatch.setattr(staging, "check_manifest", check_then_swap)
    with pytest.raises(DataError, match="ranges.csv changed after it was checked against manifest.json"):
        read_ranges(folder)


# ---------------------------------------------------------------- case 5: the table of damaged folders


def edit_lines(name: str, change):
    """A damage: ``change(lines)`` -> new lines of the text file ``name`` (lines keep their ``\\n``)."""
    def damage(folder: Path) -> None:
        lines = (folder / name).read_text(encoding="utf-8").splitlines(keepends=True)
        (folder / name).write_text("".join(change(lines)), encoding="utf-8")
    return damage


def set_field(name: str, line: int, column: int, value: str):
    """A damage: field ``column`` of line ``line`` of ``name`` (1 = the header) becomes ``value``."""
    def change(lines):
        fields = lines[line - 1].rstrip("\n").split(",")
        fields[column] = value
        return lines[:line - 1] + [",".join(fields) + "\n"] + lines[line:]
    return edit_lines(name, change)


def write_bytes(name: str, data: bytes):
    def damage(folder: Path) -> None:
        (folder / name).write_bytes(data)
    return damage


def replace_bytes(name: str, old: bytes, new: bytes):
    def damage(folder: Path) -> None:
        data = (folder / name).read_bytes()
        (folder / name).write_bytes(data.replace(old, new, 1))
    return damage


def cut(name: str, fraction: float):
    def damage(folder: Path) -> None:
        data = (folder / name).read_bytes()
        (folder / name).write_bytes(data[:int(len(data) * fraction)])
    return damage


def remove(name: str):
    def damage(folder: Path) -> None:
        (folder / name).unlink()
    return damage


def symlink(name: str):
    """The file moved beside the folder, and a symlink to it in its place (same bytes)."""
    def damage(folder: Path) -> None:
        moved = folder.parent / f"moved-{name}"
        (folder / name).rename(moved)
        (folder / name).symlink_to(moved)
    return damage


def fifo(name: str):
    def damage(folder: Path) -> None:
        (folder / name).unlink()
        os.mkfifo(folder / name)
    return damage


def directory(name: str):
    def damage(folder: Path) -> None:
        (folder / name).unlink()
        (folder / name).mkdir()
    return damage


def parquet_table(change):
    """A damage: the parquet file rewritten with pyarrow from ``change(table)``."""
    def damage(folder: Path) -> None:
        import pyarrow.parquet as pq

        path = folder / "ranges.parquet"
        pq.write_table(change(pq.read_table(path)), path)
    return damage


def _set_column(name: str, values):
    def change(table):
        import pyarrow as pa

        return table.set_column(table.schema.get_field_index(name), name, pa.array(values))
    return change


def _swap(a: int, b: int):
    def change(lines):
        lines = list(lines)
        lines[a], lines[b] = lines[b], lines[a]
        return lines
    return change


RANGES, VALUES, SEGMENTS, PARQUET = "ranges.csv", "values.csv", "ranges_segments.csv", "ranges.parquet"
N_ROWS = 338 * len(STACKS)

# (form, name of the case, damage, what the content check says: a regex)
DAMAGES = [
    ("csv", "truncated mid-line", cut(RANGES, 0.5), r"line \d+: (hand|frequency|ev_margin|stack)|holds 6\d\d rows"),
    ("csv", "truncated at a stack", edit_lines(RANGES, lambda ls: ls[:1 + 2 * 338]),
     r"holds 676 rows; its 4 solved stacks \(values.csv\) need 1,352, 338 a stack"),
    ("csv", "empty file", write_bytes(RANGES, b""), r"ranges.csv is empty"),
    ("csv", "header only", edit_lines(RANGES, lambda ls: ls[:1]), r"holds 0 rows"),
    ("csv", "renamed column", set_field(RANGES, 1, 4, "ev"), r"has the columns stack,player,hand,frequency,ev; "
     r"expected stack,player,hand,frequency,ev_margin"),
    ("csv", "column missing", edit_lines(RANGES, lambda ls: [line.rsplit(",", 1)[0] + "\n" for line in ls]),
     r"has the columns stack,player,hand,frequency;"),
    ("csv", "column added", edit_lines(RANGES, lambda ls: [line.rstrip("\n") + ",x\n" for line in ls]),
     r"has the columns stack,player,hand,frequency,ev_margin,x;"),
    ("csv", "a row longer than the header", edit_lines(RANGES, lambda ls: ls[:5] + [ls[5].rstrip() + ",9\n"] + ls[6:]),
     r"not a valid CSV file of sflp's: .*(Expected 5 fields|Length of header)"),
    ("csv", "first row longer than the header", edit_lines(RANGES, lambda ls: ls[:1] + [ls[1].rstrip() + ",9\n"] +
                                                           ls[2:]), r"not a valid CSV file of sflp's"),
    ("csv", "frequency NaN", set_field(RANGES, 7, 3, "nan"), r"line 7: frequency nan is not a number in \[0, 1\]"),
    ("csv", "frequency empty", set_field(RANGES, 7, 3, ""), r"line 7: frequency nan is not a number in \[0, 1\]"),
    ("csv", "frequency 2.0", set_field(RANGES, 9, 3, "2.0"), r"line 9: frequency 2.0 is not a number in \[0, 1\]"),
    ("csv", "frequency -0.5", set_field(RANGES, 9, 3, "-0.5"), r"line 9: frequency -0.5 is not"),
    ("csv", "frequency text", set_field(RANGES, 9, 3, "most"), r"line 9: frequency 'most' is not a number"),
    ("csv", "frequency true", set_field(RANGES, 9, 3, "True"), r"line 9: frequency 'True' is not a number"),
    ("csv", "player 7", set_field(RANGES, 12, 1, "7"), r"line 12: player '7' is not sb or bb"),
    ("csv", "hand ZZ", set_field(RANGES, 12, 2, "ZZ"), r"line 12: hand 'ZZ' is not a hand class"),
    ("csv", "stack inf", set_field(RANGES, 3, 0, "inf"), r"line 3: stack inf is not a positive finite number"),
    ("csv", "stack 0", set_field(RANGES, 3, 0, "0"), r"line 3: stack 0.0 is not a positive finite number"),
    ("csv", "stack of another set", edit_lines(RANGES, lambda ls: [ls[0]] + [("1.6" + line[3:]) if line.startswith(
        "1.5,") else line for line in ls[1:]]), r"line 340: sb AA at stack 1.6 where sb AA at stack 1.5 belongs"),
    ("csv", "ev_margin inf", set_field(RANGES, 4, 4, "-inf"), r"line 4: ev_margin -inf is not finite"),
    ("csv", "ev_margin text", set_field(RANGES, 4, 4, "0.1.2"), r"line 4: ev_margin '0.1.2' is not a number"),
    ("csv", "binary garbage", write_bytes(RANGES, bytes(range(256)) * 40),
     r"ranges.csv (is not UTF-8|has the col|line 1: a NUL byte)"),
    ("csv", "not UTF-8", replace_bytes(RANGES, b"AKs", b"AK\xff"), r"ranges.csv is not UTF-8 text"),
    ("csv", "a NUL byte", set_field(RANGES, 20, 2, "A\0A"), r"line 20: a NUL byte"),  # pandas 2.0 read 'A\0A' as 'A'
    ("csv", "a stack's rows twice", edit_lines(RANGES, lambda ls: ls + ls[1:339]), r"holds 1,690 rows"),
    ("csv", "a row twice", edit_lines(RANGES, lambda ls: ls[:3] + [ls[2]] + ls[3:]), r"holds 1,353 rows"),
    ("csv", "a row twice, one dropped", edit_lines(RANGES, lambda ls: ls[:3] + [ls[2]] + ls[4:]),
     r"line 4: sb AKs at stack 1.0 where sb AQs at stack 1.0 belongs"),
    ("csv", "rows swapped", edit_lines(RANGES, _swap(1, 2)), r"line 2: sb AKs at stack 1.0 where sb AA .* belongs"),
    ("csv", "stacks out of order", edit_lines(RANGES, lambda ls: [ls[0]] + ls[339:677] + ls[1:339] + ls[677:]),
     r"line 2: sb AA at stack 1.5 where sb AA at stack 1.0 belongs"),
    ("csv", "missing file", remove(RANGES), r"holds no ranges.csv, ranges.parquet or ranges_segments.csv, but"),
    ("csv", "a symlink", symlink(RANGES), r"ranges.csv is a symlink"),
    ("csv", "a FIFO", fifo(RANGES), r"ranges.csv is not a regular file"),
    ("csv", "a folder", directory(RANGES), r"ranges.csv is not a regular file"),
    ("csv", "values.csv missing", remove(VALUES), r"values.csv does not exist"),
    ("csv", "values.csv empty", write_bytes(VALUES, b""), r"values.csv is empty"),
    ("csv", "values.csv header only", edit_lines(VALUES, lambda ls: ls[:1]), r"values.csv lists no stacks"),
    ("csv", "values.csv wrong header", set_field(VALUES, 1, 0, "bb"), r"values.csv has the columns bb,value"),
    ("csv", "values.csv stack NaN", set_field(VALUES, 2, 0, "nan"), r"values.csv line 2: stack nan is not"),
    ("csv", "values.csv stack twice", edit_lines(VALUES, lambda ls: ls[:3] + [ls[2]] + ls[3:]),
     r"values.csv line 4: stack 1.5 does not follow 1.5"),
    ("csv", "values.csv an extra stack", edit_lines(VALUES, lambda ls: ls + ["4.0,0,0,0,0\n"]),
     r"values.csv lists 5 stacks; manifest.json says 4|holds 1,352 rows; its 5 solved stacks"),
    ("csv", "values.csv a symlink", symlink(VALUES), r"values.csv is a symlink"),
    ("segments", "truncated", cut(SEGMENTS, 0.5), r"line \d+|holds"),
    ("segments", "a run missing", edit_lines(SEGMENTS, lambda ls: ls[:5] + ls[6:]),
     r"line 6: sb A9s from 1.0 to 3.0 bb: the runs must cover every solved stack"),
    ("segments", "a run twice", edit_lines(SEGMENTS, lambda ls: ls[:5] + [ls[5]] + ls[5:]),
     r"line 7: sb ATs from 1.0 to 3.0 bb: the runs must cover"),
    ("segments", "runs swapped", edit_lines(SEGMENTS, _swap(1, 2)), r"line 2: sb AKs .* the runs must cover"),
    ("segments", "a run ends early", set_field(SEGMENTS, 2, 3, "2.0"), r"line 2: sb AA from 1.0 to 2.0 bb"),
    ("segments", "stack_to not solved", set_field(SEGMENTS, 2, 3, "2.5"),
     r"line 2: stack_to 2.5 is not a solved stack of values.csv"),
    ("segments", "stack_from NaN", set_field(SEGMENTS, 2, 2, "nan"), r"line 2: stack_from nan is not a solved stack"),
    ("segments", "frequency 2.0", set_field(SEGMENTS, 3, 4, "2.0"), r"line 3: frequency 2.0 is not a number in"),
    ("segments", "player 7", set_field(SEGMENTS, 3, 0, "7"), r"line 3: player '7' is not sb or bb"),
    ("segments", "hand ZZ", set_field(SEGMENTS, 3, 1, "ZZ"), r"line 3: hand 'ZZ' is not a hand class"),
    ("segments", "empty file", write_bytes(SEGMENTS, b""), r"ranges_segments.csv is empty"),
    ("segments", "header only", edit_lines(SEGMENTS, lambda ls: ls[:1]), r"ranges_segments.csv holds no runs"),
    ("segments", "values.csv missing", remove(VALUES), r"values.csv does not exist"),
    ("segments", "values.csv reversed", edit_lines(VALUES, lambda ls: ls[:1] + ls[:0:-1]),
     r"values.csv line 3: stack 2.0 does not follow 3.0"),
    ("segments", "a FIFO", fifo(SEGMENTS), r"ranges_segments.csv is not a regular file"),
    ("parquet", "garbage", write_bytes(PARQUET, b"PAR1" + bytes(range(256)) * 8 + b"PAR1"),
     r"ranges.parquet is not a valid parquet file"),
    ("parquet", "truncated", cut(PARQUET, 0.6), r"ranges.parquet is not a valid parquet file"),
    ("parquet", "empty file", write_bytes(PARQUET, b""), r"ranges.parquet is not a valid parquet file"),
    ("parquet", "player as numbers", parquet_table(_set_column("player", np.zeros(N_ROWS, np.int64))),
     r"column player is of type int64; expected text"),
    ("parquet", "frequency as text", parquet_table(_set_column("frequency", ["1"] * N_ROWS)),
     r"column frequency is of type string; expected double"),
    ("parquet", "a column renamed", parquet_table(lambda t: t.rename_columns(["stack", "player", "hand", "freq",
                                                                             "ev_margin"])),
     r"has the columns stack,player,hand,freq,ev_margin"),
    ("parquet", "frequency NaN", parquet_table(_set_column("frequency", np.r_[np.nan, np.ones(N_ROWS - 1)])),
     r"row 1: frequency nan is not a number in \[0, 1\]"),
    ("parquet", "player 7", parquet_table(_set_column("player", ["7"] + ["sb"] * (N_ROWS - 1))),
     r"row 1: player '7' is not sb or bb"),
    ("parquet", "rows twice", parquet_table(lambda t: __import__("pyarrow").concat_tables([t, t])),
     r"holds 2,704 rows; its 4 solved stacks \(values.csv\) need 1,352"),
    ("parquet", "rows reversed", parquet_table(lambda t: t.take(np.arange(N_ROWS)[::-1])),
     r"row 1: bb 22 at stack 3.0 where sb AA at stack 1.0 belongs"),
    ("parquet", "a symlink", symlink(PARQUET), r"ranges.parquet is a symlink"),
]
CASES = [pytest.param(form, damage, message, id=f"{form}: {name}") for form, name, damage, message in DAMAGES]


@pytest.fixture
def no_hang():
    """A read that blocks (a FIFO opened for reading without a writer) fails the test in 10 s."""
    def alarm(signum, frame):
        raise TimeoutError("read_ranges blocked")

    old = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, 10)
    yield
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, old)


def refused(folder: Path, message: str, **kwargs) -> str:
    """read_ranges(folder) raises one DataError matching ``message``, one line naming the folder."""
    with pytest.raises(DataError, match=message) as caught:
        read_ranges(folder, **kwargs)
    text = str(caught.value)
    assert "\n" not in text and str(folder) in text, text
    return text


def test_the_table_has_the_cases_the_issue_names():
    assert len(DAMAGES) >= 36 and len({(f, n) for f, n, _, _ in DAMAGES}) == len(DAMAGES)


@pytest.mark.parametrize("form, damage, message", CASES)
def test_a_damaged_folder_is_refused_by_its_manifest(sets, tmp_path, no_hang, form, damage, message):
    folder = copy_of(sets, form, tmp_path)
    damage(folder)
    refused(folder, r"does not match its manifest.json: \S+: (SHA-256 differs|listed in the manifest but missing|"
                    r"a symlink)")


@pytest.mark.parametrize("form, damage, message", CASES)
def test_a_damaged_folder_is_refused_by_its_content_when_the_manifest_agrees(sets, tmp_path, no_hang, form, damage,
                                                                            message):
    """The manifest re-signed to match the damage (or not read at all): the content checks catch it."""
    folder = copy_of(sets, form, tmp_path)
    damage(folder)
    resign(folder)
    refused(folder, message, verify=False)
    name = FORMS[form]
    regular = all((folder / n).is_file() and not (folder / n).is_symlink() for n in (name, VALUES))
    # re-signed: a regular file is read and fails its content check; one that is gone, a symlink or
    # a FIFO has no entry left, so the manifest no longer lists it
    refused(folder, message if regular else r"manifest.json (lists no ranges file|does not list values.csv)")


def test_a_broken_manifest_is_one_data_error(sets, tmp_path):
    folder = copy_of(sets, "csv", tmp_path)
    manifest = json.loads((folder / "manifest.json").read_text())
    (folder / "manifest.json").write_text(json.dumps({**manifest, "files": [{"name": "../x"}]}))
    refused(folder, r"manifest.json is not a valid sflp manifest: entry '../x' is not a plain file name")
    for count in (0, 10**9, "4", True, None):
        (folder / "manifest.json").write_text(json.dumps({**manifest, "stacks": {**manifest["stacks"],
                                                                               "count": count}}))
        refused(folder, r"manifest.json has no stack count from 1 to 100,000")
    (folder / "manifest.json").write_text(json.dumps({**manifest, "ranges": "segments"}))
    refused(folder, r"manifest.json says ranges='segments' but lists ranges.csv")


# ---------------------------------------------------------------- case 6: sizes before contents


def test_a_parquet_file_of_ten_million_rows_is_refused_from_its_footer(sets, tmp_path, monkeypatch):
    """10,140,000 constant rows in about 0.1 MB: refused from the footer's row count, no row decoded."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    folder = copy_of(sets, "parquet", tmp_path)
    schema = pq.read_schema(folder / PARQUET)
    n = 338_000
    block = pa.table({"stack": np.ones(n),
                      "player": pa.DictionaryArray.from_arrays(np.zeros(n, np.int8), pa.array(["sb"])),
                      "hand": pa.DictionaryArray.from_arrays(np.zeros(n, np.int16), pa.array(["AA"])),
                      "frequency": np.ones(n), "ev_margin": np.zeros(n)}, schema=schema)
    with pq.ParquetWriter(folder / PARQUET, schema, compression="none", write_statistics=False) as out:
        for _ in range(30):
            out.write_table(block)
    assert (folder / PARQUET).stat().st_size < 1 << 20
    resign(folder)

    def decoded(*args, **kwargs):
        pytest.fail("rows decoded")  # a BaseException: no handler of the reader can hide it

    for name in ("read", "read_row_group", "read_row_groups", "iter_batches"):
        monkeypatch.setattr(pq.ParquetFile, name, decoded)
    monkeypatch.setattr(pq, "read_table", decoded)
    for verify in (True, False):
        refused(folder, r"ranges.parquet holds 10,140,000 rows; its 4 solved stacks \(values.csv\) need 1,352",
                verify=verify)


def test_a_parquet_footer_whose_row_groups_hold_more_rows_than_it_says_is_refused(sets, tmp_path, monkeypatch):
    """Five row groups of 338 rows (1,690) under a footer that says 1,352, the set's count: the
    FileMetaData's num_rows (thrift field 3, a zigzag varint: 1,690 -> b"\xb4\x1a", 1,352 ->
    b"\x90\x15") edited in place.  pyarrow would decode by the row groups: refused before."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    folder = copy_of(sets, "parquet", tmp_path)
    table = pq.read_table(folder / PARQUET)
    pq.write_table(pa.concat_tables([table, table.slice(0, 338)]), folder / PARQUET, row_group_size=338)
    data = (folder / PARQUET).read_bytes()
    size = int.from_bytes(data[-8:-4], "little")
    footer = data[-8 - size:-8]
    assert footer.count(b"\x16\xb4\x1a") == 1  # field 3 (delta 1 from field 2), type i64, 1,690
    (folder / PARQUET).write_bytes(data[:-8 - size] + footer.replace(b"\x16\xb4\x1a", b"\x16\x90\x15") + data[-8:])
    assert pq.ParquetFile(folder / PARQUET).metadata.num_rows == 1352
    resign(folder)
    monkeypatch.setattr(pq.ParquetFile, "read", lambda *a, **k: pytest.fail("rows decoded"))
    refused(folder, r"ranges.parquet is not a valid parquet file: its row groups hold 1,690 rows, "
                    r"its footer says 1,352")


@pytest.mark.parametrize("form", ["csv", "segments"])
def test_a_csv_larger_than_its_stacks_allow_is_refused_before_parsing(sets, tmp_path, monkeypatch, form):
    """The cap: 128 bytes a row, 338 rows a stack, plus 1 kB for the header (about 174 kB for 4 stacks)."""
    folder = copy_of(sets, form, tmp_path)
    name = FORMS[form]
    cap = readback.HEADER_BYTES + 4 * 338 * readback.CSV_ROW_BYTES
    with open(folder / name, "ab") as fh:
        fh.write(b"\n" * (cap + 1 - (folder / name).stat().st_size))
    resign(folder)

    parse = readback._parse_csv

    def parse_values_only(data, path, *args, **kwargs):
        assert path.name == VALUES, f"{path.name} parsed"
        return parse(data, path, *args, **kwargs)

    monkeypatch.setattr(readback, "_parse_csv", parse_values_only)
    for verify in (True, False):
        refused(folder, rf"{name} is {cap + 1:,} bytes, more than the {cap:,} sflp reads there", verify=verify)


def test_values_csv_is_capped_by_the_stack_count(sets, tmp_path):
    folder = copy_of(sets, "csv", tmp_path)
    with open(folder / VALUES, "ab") as fh:
        fh.write(b"\n" * (readback.HEADER_BYTES + 4 * readback.VALUES_ROW_BYTES))
    resign(folder)
    refused(folder, r"values.csv is [\d,]+ bytes, more than the 5,120 sflp reads there")
