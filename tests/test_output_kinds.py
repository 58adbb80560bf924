"""One rule for every output folder (issue 52, point 1): a run replaces a folder only if its
manifest proves it holds an sflp set of the same kind; any other kind -- or a manifest that names
none -- is refused before any work, in one line naming what the folder holds, and the folder stays
byte for byte.  On main 6380a4f ``sflp solve --out ATLAS`` replaced the atlas with exit 0.

The property test draws (the kind of set present, the writer) pairs at the library level: the
folders present are small fake-but-valid sets made with sflp's own manifest writer (every kind of
:data:`sflp.output.target.KINDS`, a manifest naming no kind, a kind this sflp does not write); the
writers are :func:`check_target` and :class:`StagedFolder` for every kind, and the real library
writers of the kinds that are cheap to write.  The CLI runs below go through ``sflp.cli.main``
in-process (every refusal is before any work: milliseconds)."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from sflp.cli.main import main
from sflp.core.game import GameConfig
from sflp.errors import ConfigError, DataError, OutputError
from sflp.output.manifest import read_manifest, write_manifest
from sflp.output.stage import StagedFolder
from sflp.output.target import KINDS, check_target, kind_words

PRESENT = (*KINDS, None, "sflp-thing-from-the-future")
"""The kinds of set a folder may hold: every kind sflp writes, none named, one sflp does not write."""


def tree(folder: Path) -> dict[str, str]:
    """Every entry under ``folder`` (hidden ones included: a staging folder, a lock) with the
    SHA-256 of a file's bytes: equal trees are equal byte for byte."""
    out = {}
    for root, dirs, files in os.walk(folder):
        for name in dirs:
            out[os.path.relpath(os.path.join(root, name), folder) + "/"] = "folder"
        for name in files:
            path = os.path.join(root, name)
            with open(path, "rb") as fh:
                out[os.path.relpath(path, folder)] = hashlib.sha256(fh.read()).hexdigest()
    return out


def fake_set(folder: Path, kind) -> Path:
    """A small valid sflp set of ``kind`` (None: a manifest that names no kind) written with the
    real manifest writer: a data file, and for an atlas a listed Parquet-like sub-folder."""
    folder.mkdir(parents=True)
    (folder / "data.csv").write_text(f"made as {kind}\n")
    atlas = kind == "structure-atlas"
    if atlas:
        (folder / "values.parquet").mkdir()
        (folder / "values.parquet" / "part-0.parquet").write_bytes(b"PAR1 not really\n")
    write_manifest(folder, {} if kind is None else {"kind": kind, "sflp_version": "0"}, folders=atlas)
    return folder


def staged(kind: str):
    """A writer of ``kind`` through the output layer itself: a data file and its manifest."""
    def write(out: Path) -> None:
        with StagedFolder(out, kind) as stage:
            (stage / "new.csv").write_text("new\n")
            write_manifest(stage, {"kind": kind})
    return write


@pytest.fixture(scope="module")
def real_writers():
    """The real library writers of the kinds that are cheap to write (well under a second each,
    warmed once here; ``write_solution``'s pictures and workbook are not, and its refusal is the
    CLI tests'): name -> (kind, write(out))."""
    import sflp
    from sflp.atlas.jobs import atlas_jobs
    from sflp.atlas.write import write_atlas
    from sflp.charts.chartset import write_chart_set
    from sflp.openspiel import from_strategy
    from sflp.openspiel.stacks import verify_stacks
    from sflp.solving.solver import solve, solve_many
    from sflp.views.stack_sets import write_efg_set, write_scores

    config = GameConfig(stack=2)
    solution = solve(config)
    solutions = solve_many([2, 5], config)
    jobs = atlas_jobs([(0.5, 1.0, 0.0, 0.0)], [5.0, 5.5], ante_stacks=())
    scores = verify_stacks({2.0: from_strategy(*solution.class_strategies(), config=config)}, config)
    writers = {
        "write_chart_set": ("chart-set", lambda out: write_chart_set(solutions, None, out, formats=["csv"], workers=0)),
        "write_atlas": ("structure-atlas", lambda out: write_atlas(jobs, out, workers=0, hands=())),
        "write_scores": ("verify-stacks", lambda out: write_scores(scores, out)),
        "write_efg_set": ("efg-set", lambda out: write_efg_set([config], out)),
        "Tracker": ("policy-curves", lambda out: sflp.Tracker(config, out).close()),
    }
    with tempfile.TemporaryDirectory() as warm:  # the first write of each loads its libraries
        for name, (_, write) in writers.items():
            write(Path(warm) / name)
    return writers


WRITERS = sorted([f"check_target:{k}" for k in KINDS] + [f"StagedFolder:{k}" for k in KINDS]
                 + ["write_chart_set", "write_atlas", "write_scores", "write_efg_set", "Tracker"])


def writer(name: str, real: dict):
    """``(kind, write(out))`` of the writer called ``name``."""
    how, _, kind = name.partition(":")
    if how == "check_target":
        return kind, lambda out: check_target(out, kind)
    if how == "StagedFolder":
        return kind, staged(kind)
    return real[name]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(present=st.sampled_from(PRESENT), name=st.sampled_from(WRITERS))
@example(present="policy-curves", name="Tracker")  # the one same-kind pair that is refused (drawn rarely)
def test_a_writer_replaces_only_a_set_of_its_own_kind(real_writers, present, name):
    kind, write = writer(name, real_writers)
    with tempfile.TemporaryDirectory() as parent:
        out = fake_set(Path(parent) / "out", present)
        before = tree(Path(parent))
        if present == kind and name == "Tracker":
            # a Tracker resumes a curve of its own kind, and the fake one here is no curve: refused
            # as such (not for its kind), the folder as it was
            with pytest.raises(DataError, match="holds a Tracker's curve that does not match its manifest"):
                write(out)
            assert tree(Path(parent)) == before
            return
        if present == kind:
            write(out)  # allowed: the set of this kind is replaced (or, checked only, left for the run)
            if not name.startswith(("check_target", "Tracker")):
                assert read_manifest(out)["kind"] == kind and "data.csv" not in read_manifest(out)["files"]
            return
        with pytest.raises(OutputError) as refused:
            write(out)
        message = str(refused.value)
        assert "\n" not in message and message.startswith(f"{out} holds {kind_words(present)};")
        assert f"this run writes {KINDS[kind]}" in message and "choose another folder" in message
        assert tree(Path(parent)) == before  # byte for byte, and nothing beside it (no staging folder, no lock)


def test_every_pair_of_kinds_through_the_output_layer(tmp_path):
    """The rule on every pair, not a sample: a table of len(PRESENT) x len(KINDS), each cell
    checked by :func:`check_target` (which :class:`StagedFolder` calls first; a few milliseconds)."""
    for k, present in enumerate(PRESENT):
        for kind in KINDS:
            parent = tmp_path / f"{k}-{kind}"
            out = fake_set(parent / "out", present)
            before = tree(parent)
            if present == kind:
                check_target(out, kind)
                continue
            with pytest.raises(OutputError, match=f"holds {re.escape(kind_words(present))};"):
                check_target(out, kind)
            assert tree(parent) == before, (present, kind)


def test_every_present_kind_has_words_a_user_understands():
    assert kind_words("structure-atlas") == "a structure atlas (sflp atlas)"
    assert kind_words(None).startswith("an sflp set whose manifest names no kind")
    assert "'sflp-thing-from-the-future'" in kind_words("sflp-thing-from-the-future")
    assert "list" in kind_words(["chart-set"])  # any JSON value: the manifest is untrusted


def test_the_kind_is_a_required_argument_and_must_be_one_sflp_writes(tmp_path):
    with pytest.raises(TypeError):
        check_target(tmp_path / "out")  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        StagedFolder(tmp_path / "out")  # type: ignore[call-arg]
    with pytest.raises(ConfigError, match="'chartset' is not a kind of set sflp writes"):
        StagedFolder(tmp_path / "out", "chartset")
    assert list(tmp_path.iterdir()) == []


def test_a_set_of_another_kind_put_there_during_the_run_is_refused_at_the_swap(tmp_path):
    out = tmp_path / "out"
    with pytest.raises(OutputError, match=r"holds a structure atlas \(sflp atlas\); this run writes a chart set.*"
                                          r"Nothing was changed"):
        with StagedFolder(out, "chart-set") as stage:
            (stage / "values.csv").write_text("stack\n")
            write_manifest(stage, {"kind": "chart-set"})
            fake_set(out, "structure-atlas")  # a long run's target became an atlas meanwhile
            before = tree(out)
    assert tree(out) == before and sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_a_writer_whose_manifest_names_another_kind_is_stopped(tmp_path):
    with pytest.raises(OutputError, match="please report this"):
        with StagedFolder(tmp_path / "out", "solution") as stage:
            write_manifest(stage, {"kind": "chart-set"})
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------- the command line


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def refused(capsys, what: str, folder: Path, *argv) -> None:
    """The command is refused with exit 2, one stderr line naming ``what`` the folder holds, no
    output, and ``folder``'s parent is as it was byte for byte."""
    before = tree(folder.parent)
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "", err
    assert err.count("\n") == 1 and err.startswith(f"sflp: error: {folder} holds {what};"), err
    assert "Traceback" not in err and "choose another folder" in err
    assert tree(folder.parent) == before


@pytest.fixture(scope="module")
def sets(tmp_path_factory, chart_set):
    """Real sets made by the commands, small: an atlas, a Tracker's curves, a policy set's scores
    and an .efg set, each alone in its own folder, and a copy of the chart set of tests/conftest.py."""
    import sflp
    from sflp.openspiel import from_strategy
    from sflp.solving.solver import solve

    root = tmp_path_factory.mktemp("kinds")
    made = {name: root / name / "set" for name in ("atlas", "curves", "scores", "games")}
    made["charts"] = root / "charts" / "set"
    shutil.copytree(chart_set, made["charts"])  # a copy: a run that got in would not spoil the shared set
    assert main(["atlas", "--stacks", "5,5.5", "--out", str(made["atlas"])]) == 0
    config = GameConfig(stack=5)
    policy = from_strategy(*solve(config).class_strategies(), config=config)
    with sflp.Tracker(config, made["curves"]) as tracker:
        tracker.record(1, policy)
    policies = root / "policies"
    policies.mkdir()
    (policies / "5bb.json").write_text(json.dumps(policy))
    assert main(["verify", "--policy-dir", str(policies), "--out", str(made["scores"])]) == 0
    assert main(["export", "efg", "--stacks", "2", "--out", str(made["games"])]) == 0
    return made


def test_solve_into_an_atlas_is_refused_and_the_atlas_still_reads(sets, capsys):
    from sflp.atlas.read import read_atlas

    refused(capsys, r"a structure atlas (sflp atlas)", sets["atlas"], "solve", "--stack", 10, "--out", sets["atlas"])
    read_atlas(sets["atlas"])  # whole, and checked against its manifest


def test_solve_into_a_chart_set_is_refused(sets, capsys):
    refused(capsys, "a chart set (sflp chart or sflp exploit)", sets["charts"],
            "solve", "--stack", 10, "--out", sets["charts"])


def test_chart_into_a_trackers_curves_or_a_scores_folder_is_refused(sets, capsys):
    refused(capsys, "a Tracker's exploitability curves (sflp.Tracker)", sets["curves"],
            "chart", "--stacks", "5,10", "--formats", "csv", "--out", sets["curves"])
    refused(capsys, "a policy set's scores (sflp verify --policy-dir --out)", sets["scores"],
            "chart", "--stacks", "5,10", "--formats", "csv", "--out", sets["scores"])


def test_atlas_into_a_chart_set_is_refused(sets, capsys):
    refused(capsys, "a chart set (sflp chart or sflp exploit)", sets["charts"],
            "atlas", "--stacks", "5,10", "--out", sets["charts"])


def test_compare_approx_bench_and_exploit_into_another_kind_are_refused(sets, capsys):
    refused(capsys, "a structure atlas (sflp atlas)", sets["atlas"],
            "compare", sets["charts"], sets["charts"], "--out", sets["atlas"])
    refused(capsys, "the games of sflp export efg --stacks", sets["games"],
            "approx-bench", "--stacks", "5", "--out", sets["games"])
    refused(capsys, "a policy set's scores (sflp verify --policy-dir --out)", sets["scores"],
            "exploit", "--sb", "22+", "--stacks", "5,10", "--out", sets["scores"])


def test_a_set_of_the_same_kind_is_still_replaced(sets, capsys, tmp_path):
    copy = tmp_path / "charts"
    shutil.copytree(sets["charts"], copy)
    code, _, err = run(capsys, "chart", "--stacks", "5,10", "--formats", "csv", "--out", copy)
    assert code == 0, err
    assert read_manifest(copy)["kind"] == "chart-set"


def test_a_single_file_never_replaces_part_of_a_set(sets, capsys, tmp_path):
    """``export efg --out FILE`` and ``verify --best-response FILE`` write one file: one an sflp
    set lists (or its manifest, or a folder it lists) is refused, and so is a folder that is a set
    or another kind of sflp file.  On main 6380a4f ``export efg --stack 2 --out GAMES/2bb.efg``
    replaced the .efg set's listed file, so the set no longer matched its manifest."""
    import sflp

    games = sets["games"]
    before = tree(games)
    code, out, err = run(capsys, "export", "efg", "--stack", 2, "--out", games / "2bb.efg")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert f"is part of the sflp set {games}" in err and "lists '2bb.efg'" in err
    assert tree(games) == before and sflp.check_manifest(games) == []
    policy = tmp_path / "5bb.json"
    shutil.copy(sets["scores"].parent.parent / "policies" / "5bb.json", policy)
    for target, words in ((sets["charts"], "is a folder (an sflp set)"),
                          (sets["charts"] / "manifest.json", "is part of the sflp set"),
                          (sets["atlas"] / "values.parquet" / "br.json", "is part of the sflp set"),
                          (games / "2bb.efg", "is part of the sflp set")):
        parent = target.parent if target.parent.exists() else target.parent.parent
        before = tree(parent)
        code, out, err = run(capsys, "verify", "--policy", policy, "--best-response", target)
        assert code == 2 and words in err and err.count("\n") == 1, (target, err)
        assert tree(parent) == before
    efg = tmp_path / "alone.efg"  # another kind of sflp file, in no set
    assert run(capsys, "export", "efg", "--stack", 2, "--out", efg)[0] == 0
    code, _, err = run(capsys, "verify", "--policy", policy, "--best-response", efg)
    assert code == 2 and "exists and was not written by sflp" in err


def _bench_results(*methods: str) -> list:
    """Tiny benchmark results (two trace points each, no solve) for the real bench writer."""
    import numpy as np

    from sflp.approx.common import ApproxResult, TracePoint

    trace = [TracePoint(1, 0.01, 0.2, 0.1, 0.3), TracePoint(2, 0.02, 0.02, 0.01, 0.03)]
    return [ApproxResult(m, GameConfig(stack=5), np.zeros(169), np.zeros(169), trace, 0, 2, 0.02) for m in methods]


def test_a_quick_approx_bench_never_replaces_an_openspiel_atlas(tmp_path, capsys):
    """Issue 52: ``approx-bench --openspiel`` (hours) and ``approx-bench`` (seconds) both wrote kind
    approx-bench, so the quick run replaced the atlas with exit 0.  The atlas is its own kind now;
    an atlas written before that (manifest approx-bench, OpenSpiel methods in its CSV) is refused
    too, and a new OpenSpiel run still replaces it (keeping its kind)."""
    from sflp.views.bench_files import write_approx_bench

    atlas = tmp_path / "atlas" / "set"
    write_approx_bench(_bench_results("cfr+", "openspiel-cfr"), atlas)  # the real writer: what --openspiel writes
    assert read_manifest(atlas)["kind"] == "openspiel-bench"
    refused(capsys, KINDS["openspiel-bench"], atlas, "approx-bench", "--stacks", "5", "--seconds", "0.1",
            "--out", atlas)
    old = tmp_path / "old" / "set"
    shutil.copytree(atlas, old)
    manifest = json.loads((old / "manifest.json").read_text())
    manifest["kind"] = "approx-bench"  # as sflp wrote an OpenSpiel atlas before
    (old / "manifest.json").write_text(json.dumps(manifest))
    refused(capsys, KINDS["openspiel-bench"], old, "approx-bench", "--stacks", "5", "--seconds", "0.1", "--out", old)
    write_approx_bench(_bench_results("openspiel-cfr"), old)  # a new atlas replaces its older self (and its kind)
    assert read_manifest(old)["kind"] == "approx-bench" and "openspiel-cfr" in (old / "approx_bench.csv").read_text()
    refused(capsys, KINDS["openspiel-bench"], old, "approx-bench", "--stacks", "5", "--seconds", "0.1", "--out", old)
    quick = tmp_path / "quick"
    write_approx_bench(_bench_results("cfr+"), quick)
    assert read_manifest(quick)["kind"] == "approx-bench"
    with pytest.raises(OutputError, match="holds an approximate-solver benchmark .*; this run writes an OpenSpiel"):
        write_approx_bench(_bench_results("openspiel-cfr"), quick)
