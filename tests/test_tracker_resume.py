"""Issue 52, point 2: the Tracker lists only the files it wrote, resumes its own curve, and
validates the iteration at ``record`` (a refused record changes nothing).

References: a resumed curve must hold one row per iteration recorded across both runs (counted),
and its rows must equal those of one uninterrupted run (the same policies, the same exact scorer);
2**63 - 1 is the largest signed 64-bit integer (the int64 column pandas and Arrow read).
"""

from __future__ import annotations

import csv
import io
import json
import shutil

import numpy as np
import pytest

import sflp
from sflp.core.game import GameConfig
from sflp.errors import ConfigError, DataError, OutputError, SflpError
from sflp.openspiel import from_strategy
from sflp.output.manifest import check_manifest, listed_names, write_manifest
from sflp.output.target import foreign_entries

GAME = GameConfig(stack=3)


def policy(k: int) -> dict:
    """A cheap policy (no solve): SB pushes and BB calls every hand with frequency k/10."""
    return from_strategy(np.full(169, k / 10), np.full(169, 1 - k / 10), config=GAME)


def notes():
    said: list[str] = []
    return said, said.append


def csv_rows(folder) -> list[dict]:
    return list(csv.DictReader(io.StringIO((folder / "curves.csv").read_text())))


def files(folder) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_a_stopped_and_resumed_run_writes_one_curve_with_every_iteration(tmp_path, capsys):
    whole, out = tmp_path / "whole", tmp_path / "run"
    with sflp.Tracker(GAME, whole) as tracker:
        for it in (1, 2, 3, 4, 5):
            tracker.record(it, policy(it))
    with sflp.Tracker(GAME, out) as tracker:  # stopped after three iterations
        for it in (1, 2, 3):
            tracker.record(it, policy(it))
    capsys.readouterr()
    with sflp.Tracker(GAME, out) as tracker:
        assert len(tracker.rows) == 3
        assert capsys.readouterr().err == (f"sflp: resumed the curve in {out}: 3 row(s) kept (iterations 1 to 3 of "
                                           "3 bb); each new iteration adds a row\n")
        with pytest.raises(ConfigError, match="iteration 3 of 3 bb is recorded already"):
            tracker.record(3, policy(3))
        for it in (4, 5):
            tracker.record(np.int64(it), policy(it))  # numpy integers are whole numbers too
    assert [int(r["iteration"]) for r in csv_rows(out)] == [1, 2, 3, 4, 5]
    assert files(out) == files(whole)  # byte for byte the curve of the run that never stopped
    assert check_manifest(out) == []


def test_a_game_mismatch_is_refused_naming_both_games(tmp_path, capsys):
    out = tmp_path / "run"
    with sflp.Tracker([3, 4], out, base=GAME) as tracker:
        tracker.record(1, policy(1), stack=3)
        tracker.record(1, from_strategy(np.ones(169), np.ones(169), config=GAME.with_stack(4)), stack=4)
    before = files(out)
    assert len(sflp.Tracker([3, 4, 6], out, base=GAME).rows) == 2  # more stacks than recorded: fine
    for games, base, their in ((GameConfig(stack=3, ante=0.1), None, "ante 0.1, BB ante 0 at 3 bb"),
                               ([3, 4], GameConfig(stack=3, bb_ante=1), "ante 0, BB ante 1 at 3, 4 bb"),
                               ([3], GAME, "ante 0, BB ante 0 at 3 bb")):
        with pytest.raises(OutputError) as refused:
            sflp.Tracker(games, out, base=base)
        message = str(refused.value)
        assert "\n" not in message and "holds the curve of blinds 0.5/1, ante 0, BB ante 0 at 3, 4 bb" in message
        assert f"this Tracker follows blinds 0.5/1, {their}" in message
    assert files(out) == before


def test_a_tampered_curve_is_refused_not_dropped(tmp_path):
    out = tmp_path / "run"
    with sflp.Tracker(GAME, out) as tracker:
        tracker.record(1, policy(1))
        tracker.record(2, policy(2))
    good = files(out)
    text = (out / "curves.csv").read_text()
    (out / "curves.csv").write_text(text.replace("\n3.0,2,", "\n3.0,7,"))
    with pytest.raises(DataError, match="does not match its manifest.json .*curves.csv: SHA-256 differs"):
        sflp.Tracker(GAME, out)
    # an edit that also rewrites the manifest: the floats no longer follow from the exact fractions
    data = json.loads(good["curves.json"])
    data["rows"][0]["nash_conv"] += 1e-3
    (out / "curves.csv").write_bytes(good["curves.csv"])
    (out / "curves.json").write_text(json.dumps(data, indent=2) + "\n")
    write_manifest(out, {"kind": "policy-curves"}, names=("curves.csv", "curves.json", "curves.png", "curves.svg"))
    with pytest.raises(DataError, match="are not the files a Tracker writes"):
        sflp.Tracker(GAME, out)
    (out / "curves.json").write_text("{not json")
    write_manifest(out, {"kind": "policy-curves"}, names=("curves.csv", "curves.json"))
    with pytest.raises(DataError, match="is not JSON"):
        sflp.Tracker(GAME, out)


def test_the_users_file_is_kept_unlisted_and_said_once(tmp_path, capsys):
    out = tmp_path / "run"
    tracker = sflp.Tracker(GAME, out)
    tracker.record(1, policy(1))
    (out / "notes.txt").write_text("mine\n")  # added while training runs
    tracker.record(2, policy(2))
    tracker.record(3, policy(3))
    tracker.close()
    assert "notes.txt" not in listed_names(out) and "curves.csv" in listed_names(out)
    assert [p.name for p in foreign_entries(out)] == ["notes.txt"]  # a later writer sees it as the user's
    assert capsys.readouterr().err == f"sflp: kept 1 file(s) in {out} that sflp did not write: notes.txt\n"
    said, notify = notes()  # the same line through notify, at a resume too
    sflp.Tracker(GAME, out, notify=notify)
    assert said[1:] == [f"kept 1 file(s) in {out} that sflp did not write: notes.txt"]
    # a folder whose manifest an older sflp made listing the user's file: that file is the user's again
    write_manifest(out, {"kind": "policy-curves"})
    assert "notes.txt" in listed_names(out)
    (out / "notes.txt").write_text("mine, edited\n")
    tracker = sflp.Tracker(GAME, out, notify=lambda m: None)
    tracker.record(4, policy(4))
    assert "notes.txt" not in listed_names(out) and len(csv_rows(out)) == 4
    assert (out / "notes.txt").read_text() == "mine, edited\n"
    # a file of the user's with a name the Tracker has yet to write is refused, not replaced
    fresh = tmp_path / "fresh"
    tracker = sflp.Tracker(GAME, fresh, notify=lambda m: None)
    tracker.record(1, policy(1))
    (fresh / "curves.png").write_bytes(b"the user's picture")
    with pytest.raises(OutputError, match="curves.png is not the Tracker's"):
        tracker.close()
    assert (fresh / "curves.png").read_bytes() == b"the user's picture"


@pytest.mark.parametrize("iteration", [2**63, 10**30, -1, 0, True, 1.5, "3", None])
def test_a_refused_iteration_changes_nothing(tmp_path, iteration):
    out = tmp_path / "run"
    tracker = sflp.Tracker(GAME, out)
    tracker.record(1, policy(1))
    before = files(out)
    with pytest.raises(ConfigError, match=r"^iteration=.*: expected a whole number from 1 to 2\*\*63 - 1"):
        tracker.record(iteration, policy(2))
    assert files(out) == before and len(tracker.rows) == 1
    tracker.record(2**63 - 1, policy(2))
    tracker.close()
    assert [int(r["iteration"]) for r in csv_rows(out)] == [1, 2**63 - 1]


def test_a_refused_policy_or_a_failed_write_changes_nothing(tmp_path, monkeypatch):
    out = tmp_path / "run"
    tracker = sflp.Tracker(GAME, out)
    tracker.record(1, policy(1))
    before = files(out)
    with pytest.raises(SflpError):
        tracker.record(2, {"not": "a policy"})
    with pytest.raises(ConfigError, match="source=3: expected a str"):
        tracker.record(2, policy(2), source=3)
    import sflp.views.curves as curves

    real = curves.write_bytes

    def full_disk(path, data):
        if path.name == "curves.json":
            raise OSError(28, "No space left on device")
        return real(path, data)

    monkeypatch.setattr(curves, "write_bytes", full_disk)
    with pytest.raises(OutputError, match="cannot write the curve in .*: No space left on device"):
        tracker.record(2, policy(2))
    assert files(out) == before and len(tracker.rows) == 1  # curves.csv was put back
    monkeypatch.setattr(curves, "write_bytes", real)
    tracker.record(2, policy(2))
    assert [int(r["iteration"]) for r in csv_rows(out)] == [1, 2] and check_manifest(out) == []


def _another_kind(folder, kind="structure-atlas"):
    """A set of another kind swapped into ``folder`` the way every sflp writer does (StagedFolder)."""
    from sflp.output.stage import StagedFolder

    with StagedFolder(folder, kind) as stage:
        (stage / "atlas.csv").write_text("stack\n5\n")
        write_manifest(stage, {"kind": kind})


@pytest.mark.parametrize("recorded", [0, 1])
def test_a_set_of_another_kind_put_in_the_folder_is_refused_at_the_write(tmp_path, recorded):
    out = tmp_path / "run"
    tracker = sflp.Tracker(GAME, out, notify=notes()[1])
    for it in range(1, recorded + 1):
        tracker.record(it, policy(it))
    rows = list(tracker.rows)
    if recorded:  # an atlas never replaces a Tracker's folder: the user removed it first
        shutil.rmtree(out)
    _another_kind(out)
    before = files(out)
    with pytest.raises(OutputError, match=r"holds a structure atlas \(sflp atlas\); this run writes a Tracker's "
                                          r".*Nothing was changed"):
        tracker.record(5, policy(5))
    with pytest.raises(OutputError, match="holds a structure atlas"):
        tracker.close() if recorded else tracker.write()
    assert files(out) == before and tracker.rows == rows
    assert json.loads((out / "manifest.json").read_text())["kind"] == "structure-atlas"


def test_two_trackers_on_one_folder_never_lose_a_row(tmp_path):
    out = tmp_path / "run"
    a = sflp.Tracker(GAME, out, notify=notes()[1])
    a.record(1, policy(1))
    b = sflp.Tracker(GAME, out, notify=notes()[1])
    b.record(2, policy(2))
    before = files(out)
    with pytest.raises(OutputError, match=r"^.*run was changed by another writer since this Tracker last wrote it; "
                                          "reopen a Tracker on it to resume. Nothing was changed$"):
        a.record(3, policy(3))
    assert files(out) == before and [r["iteration"] for r in a.rows] == [1]
    fresh = sflp.Tracker(GAME, tmp_path / "new", notify=notes()[1])  # made before anything was written there
    sflp.Tracker(GAME, tmp_path / "new", notify=notes()[1]).record(1, policy(1))
    with pytest.raises(OutputError, match="was changed by another writer"):
        fresh.record(2, policy(2))
    c = sflp.Tracker(GAME, out, notify=notes()[1])
    c.record(3, policy(3))
    assert [int(r["iteration"]) for r in csv_rows(out)] == [1, 2, 3]


@pytest.mark.parametrize("stack, source, message", [
    ("3", None, r"^stack='3' is not a number: give one of the Tracker's stacks in bb \(3\)"),
    (True, None, r"^stack=True is not a number"),
    (None, "a\x00b", r"^source='a\\x00b' holds the control character '\\x00': give a name of printable"),
    (None, "run\n2", r"^source='run\\n2' holds the control character '\\n'"),
])
def test_a_stack_that_is_no_number_or_a_source_with_control_characters_is_refused(tmp_path, stack, source, message):
    out = tmp_path / "run"
    tracker = sflp.Tracker(GAME, out)
    tracker.record(1, policy(1))
    before = files(out)
    with pytest.raises(ConfigError, match=message):
        tracker.record(2, policy(2), stack, source=source)
    assert files(out) == before and len(tracker.rows) == 1
    tracker.record(2, policy(2), 3, source="run 2 é")


def test_names_in_notes_and_refusals_are_escaped_one_line(tmp_path, capsys):
    from sflp.cli.options import keep_printer
    from sflp.output.target import check_target

    out = tmp_path / "run"
    said, tell = notes()
    tracker = sflp.Tracker(GAME, out, notify=tell)
    tracker.record(1, policy(1))
    (out / "evil\nsflp: error: fake line").write_text("x")
    (out / "esc\x1b[31m").write_text("x")
    tracker.record(2, policy(2))
    assert said == [f"kept 2 file(s) in {out} that sflp did not write: 'esc\\x1b[31m', "
                    "'evil\\nsflp: error: fake line'"]
    keep_printer(out)(["evil\nsflp: error: fake line", "esc\x1b[31m"])
    err = capsys.readouterr().err
    # the CLI's note wraps to the width, its later lines indented: no name can start a line of its own
    lines = err.splitlines()
    assert lines[0].startswith("sflp: kept 2 file(s)") and all(line.startswith("  ") for line in lines[1:])
    assert "\x1b" not in err and "'evil\\nsflp: error: fake line', 'esc\\x1b[31m'" in " ".join(err.split())
    atlas = tmp_path / "at\nlas"
    _another_kind(atlas)
    for call in (lambda: check_target(atlas, "solution"), lambda: sflp.Tracker(GAME, atlas)):
        with pytest.raises(OutputError) as caught:
            call()
        assert "\n" not in str(caught.value) and str(caught.value).startswith(repr(str(atlas)) + " holds a structure")


def test_policy_dir_reads_every_iteration_the_tracker_writes(tmp_path):
    from sflp.openspiel.stacks import policy_iterates

    folder = tmp_path / "policies"
    folder.mkdir()
    for it in (1, 12345678901234, 2**63 - 1):
        (folder / f"3bb_it{it}.json").write_text(json.dumps(policy(5)))
    found, _ = policy_iterates(folder)
    assert list(found[3.0]) == [1, 12345678901234, 2**63 - 1]
    (folder / f"3bb_it{2**63}.json").write_text(json.dumps(policy(5)))
    with pytest.raises(ConfigError, match=r"^policy file '3bb_it9223372036854775808.json': an iteration is a "
                                          r"whole number from 1 to 2\*\*63 - 1"):
        policy_iterates(folder)
