"""A chart set is one unit: staging, lock, swap, manifest, interrupts, concurrency, bounded memory.

These tests run the real ``sflp chart`` in subprocesses and signal it from outside (SIGINT and
SIGTERM at every step of the job: the run is held at a named pause point, ``SFLP_PAUSE_AT``, so
the signal provably lands before the run could finish), then read the folder: it must hold the
complete old set or nothing, never a mix, and no temporary file.
"""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import os
import signal
import subprocess
import sys
import threading
import time
import tracemalloc
from pathlib import Path

import numpy as np
import pytest

from sflp.atomic import PAUSE_ENV
from sflp.charts.chartset import write_chart_set
from sflp.charts.frames import ranges_frame
from sflp.charts.media.csv import write_ranges_csv
from sflp.charts.text import RangesCsvStream, solution_rows
from sflp.core.game import GameConfig
from sflp.errors import ConfigError, OutputError
from sflp.output.manifest import MANIFEST, check_manifest, file_sha256, read_manifest, write_manifest
from sflp.output.marker import MARKER
from sflp.output.stage import StagedFolder
from sflp.solving.solver import iter_solve, solve_many

ROOT = Path(__file__).resolve().parent.parent


def run_cli(*args: str, env_extra: dict | None = None, **kw) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if k != PAUSE_ENV}
    env.update({"PYTHONPATH": str(ROOT), **(env_extra or {})})
    return subprocess.Popen([sys.executable, "-m", "sflp.cli", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env, **kw)


def leftovers(parent: Path, name: str) -> list[str]:
    """Anything a run may leave beside or inside the target: staging, old sets, locks, temp files."""
    out = [p.name for p in parent.iterdir() if p.name.startswith(f".{name}.")]
    target = parent / name
    if target.is_dir():
        out += [p.name for p in target.iterdir() if p.name.startswith(".") or p.name.endswith(".tmp")]
    return out


def assert_complete(folder: Path) -> dict:
    """The folder is one complete set: the manifest lists exactly its files with their hashes."""
    assert check_manifest(folder) == []
    manifest = read_manifest(folder)
    values = (folder / "values.csv").read_text().splitlines()[1:]
    assert len(values) == manifest["stacks"]["count"]
    assert float(values[0].split(",")[0]) == manifest["stacks"]["low"]
    assert float(values[-1].split(",")[0]) == manifest["stacks"]["high"]
    return manifest


# ---------------------------------------------------------------- manifest and staging


@pytest.fixture(scope="module")
def small_set(tmp_path_factory):
    out = tmp_path_factory.mktemp("unit") / "set"
    sols = solve_many([2, 3.5, 5, 10], GameConfig(stack=2))
    files = write_chart_set(sols, None, out, workers=0)  # inline: the same files, no worker imports
    return out, files


def test_manifest_lists_every_file_with_its_sha256(small_set):
    out, files = small_set
    manifest = json.loads((out / MANIFEST).read_text())
    listed = {f["name"]: f for f in manifest["files"]}
    on_disk = {p.name for p in out.iterdir()} - {MANIFEST}
    assert set(listed) == on_disk and MANIFEST in files
    for name, entry in listed.items():  # hashes recomputed here with hashlib, independently
        import hashlib

        data = (out / name).read_bytes()
        assert entry["sha256"] == hashlib.sha256(data).hexdigest() and entry["bytes"] == len(data)
    from sflp.core.equity import read_checksum

    assert manifest["equity_table_sha256"] == read_checksum()
    assert manifest["config"] == {"small_blind": 0.5, "big_blind": 1.0, "ante": 0.0, "bb_ante": 0.0}
    assert manifest["stacks"] == {"count": 4, "low": 2.0, "high": 10.0, "step": None}
    import sflp

    assert manifest["sflp_version"] == sflp.__version__


def test_check_manifest_notices_a_changed_missing_or_extra_file(small_set, tmp_path):
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(small_set[0], copy)
    assert check_manifest(copy) == []
    (copy / "values.csv").write_text("stack\n1\n")
    (copy / "sb_push.png").unlink(missing_ok=True)
    (copy / "range_5bb.png").unlink()
    (copy / "notes.txt").write_text("mine")
    problems = check_manifest(copy)
    assert "values.csv: SHA-256 differs from the manifest" in problems
    assert "range_5bb.png: listed in the manifest but missing" in problems
    assert "notes.txt: not listed in the manifest" in problems


def test_streamed_ranges_csv_equals_the_frame_writer(tmp_path):
    sols = solve_many([1.5, 2.5, 7.7, 13], GameConfig(stack=1.5, ante=0.1))
    write_ranges_csv(ranges_frame(sols), tmp_path / "a.csv")
    stream = RangesCsvStream(tmp_path / "b.csv")
    for s in sols:
        stream.add(float(s.config.stack), solution_rows(s))
    digest = stream.close()
    assert (tmp_path / "a.csv").read_bytes() == (tmp_path / "b.csv").read_bytes()
    assert digest == file_sha256(tmp_path / "a.csv")


def test_a_folder_of_other_files_is_never_replaced(tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("precious")
    sols = solve_many([2, 5], GameConfig(stack=2))
    with pytest.raises(OutputError, match="not an sflp report folder"):
        write_chart_set(sols, None, mine)
    assert [p.name for p in mine.iterdir()] == ["notes.txt"]
    assert leftovers(tmp_path, "mine") == []


def test_a_rerun_with_other_stacks_leaves_no_stale_files(tmp_path):
    out = tmp_path / "set"
    write_chart_set(solve_many([2, 5, 10], GameConfig(stack=2)), None, out)
    assert (out / "range_5bb.png").exists()
    write_chart_set(solve_many([12, 20], GameConfig(stack=2)), None, out)
    assert not (out / "range_5bb.png").exists() and (out / "range_20bb.png").exists()
    assert_complete(out)
    assert leftovers(tmp_path, "set") == []


def test_leftovers_of_a_killed_run_are_removed_by_the_next_run(tmp_path):
    # a killed run leaves folders that carry sflp's marker (naming the target and the token of the
    # folder's name); look-alikes without it are the user's and stay (tests/test_output_edges.py)
    out = tmp_path / "set"
    for name, token in ((".set.staging-deadbeef", "deadbeef"), (".set.old-cafe0000", "cafe0000")):
        stale = tmp_path / name
        stale.mkdir()
        (stale / "ranges.csv").write_text("half")
        (stale / MARKER).write_text(json.dumps({"format": "sflp-staging", "target": "set", "token": token}))
    write_chart_set(solve_many([2, 5], GameConfig(stack=2)), None, out, formats=["csv"])  # any set cleans up
    assert leftovers(tmp_path, "set") == []
    assert_complete(out)


def test_an_error_midway_leaves_the_old_set_and_no_empty_folder(tmp_path):
    sols = solve_many([2, 5], GameConfig(stack=2))
    out = tmp_path / "set"
    write_chart_set(sols, None, out)
    before = read_manifest(out)

    def broken():
        yield from solve_many([2, 3], GameConfig(stack=2))
        raise RuntimeError("solver died")

    with pytest.raises(RuntimeError):
        write_chart_set(broken(), None, out, stacks=[2, 3, 4])
    assert read_manifest(out) == before and assert_complete(out)
    assert leftovers(tmp_path, "set") == []
    fresh = tmp_path / "new" / "deeper" / "set"
    with pytest.raises(RuntimeError):
        write_chart_set(broken(), None, fresh, stacks=[2, 3, 4])
    assert not (tmp_path / "new").exists()  # folders the run created are gone again


def test_stream_must_match_the_announced_stacks(tmp_path):
    from sflp.errors import ConfigError

    sols = iter_solve([2, 5], GameConfig(stack=2))
    with pytest.raises(ConfigError, match="stack 5 bb arrives where 4 was expected"):
        write_chart_set(sols, None, tmp_path / "set", stacks=[2, 4])
    assert not (tmp_path / "set").exists() and leftovers(tmp_path, "set") == []


def test_lock_makes_a_second_writer_wait_or_fail(tmp_path):
    target = tmp_path / "set"
    entered = threading.Event()
    release = threading.Event()

    def hold():
        with StagedFolder(target, "chart-set") as stage:
            (stage / "values.csv").write_text("first\n")
            write_manifest(stage, {"kind": "chart-set"})  # an sflp set: the second writer may replace it
            entered.set()
            release.wait(10)

    t = threading.Thread(target=hold)
    t.start()
    assert entered.wait(10)
    with pytest.raises(OutputError, match="another sflp run is writing"):
        with StagedFolder(target, "chart-set", wait=False):
            pass
    waited = []

    def on_wait():  # the second writer says it waits: only then does the first one finish (no timer)
        waited.append(True)
        release.set()

    with StagedFolder(target, "chart-set", on_wait=on_wait) as stage:
        (stage / "values.csv").write_text("second\n")
    t.join()
    assert waited == [True]
    assert (target / "values.csv").read_text() == "second\n"
    assert leftovers(tmp_path, "set") == []


# ---------------------------------------------------------------- signals, from outside


def _paused(points: Path, name: str, proc: subprocess.Popen, timeout: float = 300.0) -> bool:
    """Wait until the run reports that it is held at pause point ``name`` (see sflp.atomic)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if (points / name).exists():
            return True
        if proc.poll() is not None:
            return False
        time.sleep(0.01)
    return False


def run_paused(point: str, points: Path, *args: str) -> subprocess.Popen:
    """``sflp chart ...`` that stops at the pause point ``point`` and waits there for a signal."""
    points.mkdir(parents=True, exist_ok=True)
    return run_cli(*args, env_extra={PAUSE_ENV: f"{point}={points}"})


# every step of a chart run at which an interrupt must leave the old set or nothing
POINTS = ["solving", "staged", "ranges.csv", "jobs", "manifest", "swap"]


@pytest.fixture(scope="module")
def old_set(tmp_path_factory):
    """The set the interrupted runs would replace, written by the CLI's main in this process (the
    interrupted runs are the real command)."""
    from sflp.cli import main

    parent = tmp_path_factory.mktemp("signals")
    assert main(["chart", "--stacks", "2,5", "--workers", "0", "--out", str(parent / "set"), "--json"]) == 0
    return parent / "set"


# Every point with both signals is 12 real runs (up to 3 s each): the fast set interrupts every point
# once, SIGINT and SIGTERM in turn, the slow set the other signal too.
@pytest.mark.parametrize("point, sig", [
    pytest.param(point, sig, id=f"{point}-{sig.name}",
                 marks=() if (i + (sig == signal.SIGTERM)) % 2 == 0 else pytest.mark.slow)
    for i, point in enumerate(POINTS) for sig in (signal.SIGINT, signal.SIGTERM)])
def test_an_interrupted_run_leaves_the_old_set(old_set, tmp_path, sig, point):
    import shutil

    parent = tmp_path / "out"
    parent.mkdir()
    shutil.copytree(old_set, parent / "set")
    before = assert_complete(parent / "set")
    proc = run_paused(point, tmp_path / "points", "chart", "--stacks", "1:3:0.5", "--out", str(parent / "set"),
                      "--json")
    try:
        # the run is held at the pause point: it cannot finish, so the signal lands mid-run
        assert _paused(tmp_path / "points", point, proc), proc.communicate(timeout=60)
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert "Traceback" not in err, err
    assert proc.returncode == (130 if sig == signal.SIGINT else 143), err
    assert err.strip() in ("sflp: interrupted", "sflp: terminated")
    assert out == ""
    assert assert_complete(parent / "set") == before  # exactly the old set
    assert leftovers(parent, "set") == []


# fast: the jobs point (workers running); slow: the two earlier points too
@pytest.mark.parametrize("point", [pytest.param("staged", marks=pytest.mark.slow),
                                   pytest.param("ranges.csv", marks=pytest.mark.slow), "jobs"])
def test_an_interrupted_first_run_leaves_nothing(tmp_path, point):
    proc = run_paused(point, tmp_path / "points", "chart", "--stacks", "1:3:0.5", "--workers", "2", "--out",
                      str(tmp_path / "a" / "set"), "--json")  # the workers' path (one process is the default)
    try:
        assert _paused(tmp_path / "points", point, proc), proc.communicate(timeout=60)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 143 and "Traceback" not in err, err
    assert not (tmp_path / "a").exists()


@contextlib.contextmanager
def held(target: Path):
    """Hold ``target``'s lock (an open StagedFolder, in a thread) for the duration of the block."""
    entered, release = threading.Event(), threading.Event()

    def hold():
        with StagedFolder(target, "chart-set"):
            entered.set()
            release.wait(120)

    t = threading.Thread(target=hold)
    t.start()
    try:
        assert entered.wait(10)
        yield
    finally:
        release.set()
        t.join()


@pytest.mark.parametrize("command", [
    ["chart", "--stacks", "2,5"],
    ["solve", "--stack", "5"],
    ["exploit", "--stacks", "2,5", "--bb", "20%"],
])
def test_no_wait_fails_at_once_when_another_run_holds_the_folder(tmp_path, capsys, command):
    from sflp.cli import main

    target = tmp_path / "set"
    with held(target):
        code = main([*command, "--out", str(target), "--no-wait", "--json"])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.startswith("sflp: error: another sflp run is writing") and str(target) in err, err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert not target.exists() or not any(p.name.endswith(".csv") for p in target.iterdir())


def _wait_for_line(stream, text: str, timeout: float = 300.0) -> str:
    """Read ``stream`` (a pipe) until a line containing ``text`` arrives (or it closes)."""
    import selectors

    sel = selectors.DefaultSelector()
    sel.register(stream, selectors.EVENT_READ)
    end = time.monotonic() + timeout
    seen = ""
    while time.monotonic() < end and sel.select(timeout=end - time.monotonic()):
        line = stream.readline()
        if not line:
            break
        seen += line
        if text in line:
            break
    return seen


def test_a_waiting_run_says_so_once_and_then_writes(tmp_path):
    target = tmp_path / "set"
    with held(target):
        proc = run_cli("solve", "--stack", "5", "--out", str(target), "--json")
        # synchronise on the run's own word that it waits, not on a sleep
        said = _wait_for_line(proc.stderr, "sflp: waiting for another sflp run writing")
        assert "sflp: waiting for another sflp run writing" in said, said
        assert proc.poll() is None
        assert not (target / "manifest.json").exists()
    out, err = proc.communicate(timeout=120)
    err = said + err
    assert proc.returncode == 0, err
    assert err.count("sflp: waiting for another sflp run writing") == 1
    assert (target / "manifest.json").exists() and (target / "range_5bb.png").exists()


@pytest.mark.slow
def test_two_concurrent_runs_into_one_folder_give_one_consistent_set(tmp_path):
    out = tmp_path / "set"
    a = run_cli("chart", "--stacks", "1:8:0.05", "--out", str(out), "--json")
    b = run_cli("chart", "--stacks", "2:9:0.05", "--ante", "0.1", "--out", str(out), "--json")
    results = [p.communicate(timeout=300) for p in (a, b)]
    assert a.returncode == 0 and b.returncode == 0, results
    manifest = assert_complete(out)
    low = manifest["stacks"]["low"]
    ante = manifest["config"]["ante"]
    assert (low, ante) in ((1.0, 0.0), (2.0, 0.1))
    about_ranges = (out / "ranges.csv").read_text().splitlines()
    assert float(about_ranges[1].split(",")[0]) == low
    assert leftovers(tmp_path, "set") == []


# ---------------------------------------------------------------- bounded memory


def _peak_bytes(n: int, folder: Path) -> int:
    from sflp.solving.thresholds import compute_thresholds

    config = GameConfig(stack=2)
    stacks = np.linspace(2, 30, n).tolist()
    path = compute_thresholds(config, low=2, high=30)
    tracemalloc.start()
    try:
        # workers=0: every file is made in this process, where tracemalloc sees it
        write_chart_set(iter_solve(stacks, config, path=path, workers=1), path, folder, stacks=stacks, workers=0)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.slow
def test_peak_memory_does_not_grow_with_the_number_of_stacks(tmp_path, monkeypatch):
    import sflp.charts.chartset as chartset

    # the workbook's Values / Hand EV sheets keep up to MAX_SHEET_STACKS stacks: a bounded cost
    # that is reached at 2,000 stacks by default; a cap of 200 puts both runs above it
    monkeypatch.setattr(chartset, "MAX_SHEET_STACKS", 200)
    small = _peak_bytes(400, tmp_path / "small")
    large = _peak_bytes(4000, tmp_path / "large")
    # keeping each Solution (4 x 169 floats, ~6 KB with its arrays) would add ~21 MB for 3,600
    # more stacks; what may grow is values.csv's rows (~0.2 KB a stack).  Margin: 5 MB.
    assert large - small < 5 * 2**20, (small, large)


def test_cli_refuses_a_folder_of_other_files_before_any_work(tmp_path, capsys):
    from sflp.cli import main

    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("precious")
    code = main(["chart", "--stacks", "2,5", "--out", str(mine), "--json"])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "is not an sflp report folder" in err and "notes.txt" in err
    assert [p.name for p in tmp_path.iterdir()] == ["mine"] and [p.name for p in mine.iterdir()] == ["notes.txt"]


def test_cli_output_folder_below_a_file_is_one_error_and_creates_nothing(tmp_path, capsys):
    from sflp.cli import main

    (tmp_path / "file").write_text("x")
    code = main(["chart", "--stacks", "2,5", "--out", str(tmp_path / "file" / "set")])
    _, err = capsys.readouterr()
    assert code == 2 and "is a file" in err and err.count("\n") == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


def test_the_package_imports_and_locks_without_fcntl(tmp_path):
    """Windows has no fcntl: the package imports, and a report folder is locked through msvcrt.
    Here a stand-in msvcrt (locks by file identity, as Windows' byte-range locks do) runs in a
    process where ``import fcntl`` fails."""
    script = f"""
import os, sys, types
import numpy, pandas, openpyxl, PIL  # third-party libraries use fcntl on Linux: load them first
for name in [m for m in sys.modules if m == "sflp" or m.startswith("sflp.")]:
    del sys.modules[name]
sys.modules["fcntl"] = None  # from here on, import fcntl raises ImportError, as on Windows
held = {{}}
def locking(fd, mode, nbytes):
    ino = os.fstat(fd).st_ino
    owner = held.get(ino)
    if owner is not None and owner != fd:
        raise OSError(13, "locked")
    held[ino] = fd
sys.modules["msvcrt"] = types.SimpleNamespace(locking=locking, LK_NBLCK=2, LK_LOCK=1)
import sflp, sflp.charts, sflp.output as staging
from sflp.errors import ConfigError, OutputError
target = {str(tmp_path / "set")!r}
with staging.StagedFolder(target, "chart-set") as stage:
    (stage / "values.csv").write_text("first\\n")
    staging.write_manifest(stage, {{"kind": "chart-set"}})
    try:
        with staging.StagedFolder(target, "chart-set", wait=False):
            pass
        print("second writer got in")
    except OutputError as exc:
        print("refused:", exc)
print(open(os.path.join(target, "values.csv")).read().strip())
"""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("refused: another sflp run is writing") and lines[-1] == "first"


def test_the_report_package_loads_its_heavy_modules_only_when_asked():
    """``sflp.charts`` names its functions lazily: the folder contract (staging) imports without
    pandas, openpyxl or the chart set, and a name is imported from its module on first use."""
    script = """
import sys
import sflp.output
assert not {"pandas", "openpyxl", "sflp.charts.chartset"} & set(sys.modules), sorted(sys.modules)
from sflp.charts import write_chart_set, VALUES_COLUMNS
import sflp.charts
assert write_chart_set.__module__ == "sflp.charts.chartset" and VALUES_COLUMNS[0] == "stack"
assert set(sflp.charts.__all__) <= set(dir(sflp.charts))
assert all(getattr(sflp.charts, name) is not None for name in sflp.charts.__all__)
try:
    sflp.charts.no_such_name
except AttributeError as exc:
    print("ok", exc)
"""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("ok module 'sflp.charts' has no attribute 'no_such_name'")


# ---------------------------------------------------------------- worker jobs


def _echo(value):
    return value


def test_a_job_runs_on_its_arguments_as_they_were_when_submitted():
    """A caller may change an argument right after submitting (the exact path fills its caches
    while the chart job reads stacks off it): the worker must see the value at the call, and the
    pool must never be left pickling a dict that is changing under it."""
    from sflp.output.jobs import Jobs

    with Jobs(workers=2) as jobs:
        if jobs.pool is None:
            pytest.skip("no fork on this platform: jobs run inline, in order")
        sent = [{"k": 0} for _ in range(50)]
        futures = []
        for d in sent:
            futures.append(jobs.submit(_echo, d))
            for k in range(200):  # changed at once, while a feeder thread would still be pickling it
                d[f"x{k}"] = k
        assert all(f.result() == {"k": 0} for f in futures)


def test_atlas_solver_workers_run_at_normal_priority_and_chart_writers_stay_niced():
    """The local atlas's workers are its solvers: niced like chart writers, on a busy machine they
    got a tenth of a core (issue 53 item 6).  A writer beside a solver is still niced."""
    from sflp.atlas.local import LocalRunner
    from sflp.output.jobs import WORKER_NICENESS, Jobs

    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("no fork on this platform: jobs run inline, in this process")
    parent = os.nice(0)  # os.nice(0) changes nothing and returns the niceness
    assert LocalRunner(workers=2)(os.nice, [0, 0, 0]) == [parent] * 3
    with Jobs(workers=1) as writers:
        assert writers.submit(os.nice, 0).result() == min(parent + WORKER_NICENESS, 19)


def test_png_and_svg_draw_each_picture_once(tmp_path, monkeypatch):
    """With both picture formats one writer draws each picture and writes it twice (drawing costs
    as much as rasterising); each format alone still gets its files."""
    import sflp
    from sflp.charts.media.pictures import plots

    drawn = []
    for name in ("threshold_picture", "range_picture", "value_picture"):
        real = getattr(plots, name)
        monkeypatch.setattr(plots, name, lambda *a, real=real, name=name, **k: (drawn.append(name), real(*a, **k))[1])
    sflp.chart(None, "1:3:0.5", out=tmp_path / "both", formats="png,svg", workers=0)
    files = sorted(p.name for p in (tmp_path / "both").iterdir() if p.suffix in (".png", ".svg"))
    stems = sorted({p.rsplit(".", 1)[0] for p in files})
    assert files == sorted(f"{s}.{x}" for s in stems for x in ("png", "svg"))
    assert drawn.count("threshold_picture") == 2 and drawn.count("value_picture") == 1
    assert drawn.count("range_picture") == len(stems) - 3  # sb_push, bb_call and value_by_stack are not grids
    for suffix in ("png", "svg"):
        sflp.chart(None, "1:3:0.5", out=tmp_path / suffix, formats=suffix, workers=0)
        alone = sorted(p.name for p in (tmp_path / suffix).iterdir() if p.suffix in (".png", ".svg"))
        assert alone == [f for f in files if f.endswith(suffix)]


def test_one_usable_core_means_no_workers(monkeypatch):
    """os.cpu_count() counts the host's cores; a process pinned to one (taskset, a container's
    cpuset) or held to one by a cgroup quota writes its set inline."""
    from sflp.output import jobs

    monkeypatch.setattr(jobs.os, "sched_getaffinity", lambda pid: {0, 1, 2, 3}, raising=False)
    monkeypatch.setattr(jobs, "_cgroup_cpus", lambda: None)
    assert jobs.usable_cpus() == 4 and jobs.default_workers() == 2
    monkeypatch.setattr(jobs, "_cgroup_cpus", lambda: 1)  # docker --cpus 1 on a 4-core host
    assert jobs.usable_cpus() == 1 and jobs.default_workers() == 0
    monkeypatch.setattr(jobs, "_cgroup_cpus", lambda: None)
    monkeypatch.setattr(jobs.os, "sched_getaffinity", lambda pid: {3}, raising=False)  # taskset -c 3
    assert jobs.default_workers() == 0


@pytest.mark.parametrize("bad, message", [(9, "workers=9 is out of range: allowed from 0 to 8"),
                                          (-1, "workers=-1 is out of range"), (True, "not a whole number"),
                                          (1.0, "not a whole number")])
def test_workers_are_checked_before_any_work(tmp_path, bad, message):
    import sflp

    with pytest.raises(ConfigError, match=message):
        sflp.chart(None, "1:2:0.5", out=tmp_path / "set", workers=bad)
    assert not (tmp_path / "set").exists()


def test_a_chart_set_is_written_in_one_process_by_default(tmp_path, monkeypatch):
    """Two forked writers cost the main job CPU and memory (each re-imports pandas and the format
    libraries: 5.5 against 4.6 CPU-s, 445 against 213 MB PSS, issue 53 item 2); by default no
    worker is forked, whatever the formats and cores.  ``--workers N`` still asks for them."""
    import sflp
    from sflp.output import jobs

    asked = []
    real = jobs.Jobs.__init__
    monkeypatch.setattr(jobs, "usable_cpus", lambda: 2)  # two usable cores: the old default forked 2 writers
    monkeypatch.setattr(jobs.Jobs, "__init__", lambda self, workers=None, *a, **k: (
        asked.append(workers), real(self, workers, *a, **k))[1])
    sflp.chart(None, "1:2:0.5", out=tmp_path / "set", formats="csv,png")
    assert asked == [0]


def test_cli_workers_option(tmp_path, capsys):
    """The refusals (argparse's checks) and the run without workers through the CLI's main in this
    process, the run with a worker as a real command: the same files, byte for byte."""
    from sflp.cli import main

    run = [sys.executable, "-m", "sflp.cli", "chart", "--stacks", "1:2:0.5", "--formats", "csv,png"]
    for bad, said in (("9", "--workers '9' must be at most 8"), ("-1", "must be at least 0"), ("x", "--workers")):
        try:
            code = main([*run[3:], "--workers", bad, "--out", str(tmp_path / "bad")])
        except SystemExit as exc:
            code = exc.code
        err = capsys.readouterr().err
        assert code == 2 and said in err and "Traceback" not in err, err
        assert not (tmp_path / "bad").exists()
    # no workers: through main in this process; one worker: the real command
    assert main([*run[3:], "--workers", "0", "--out", str(tmp_path / "w0")]) == 0
    got = subprocess.run([*run, "--workers", "1", "--out", str(tmp_path / "w1")], capture_output=True, text=True)
    assert got.returncode == 0, got.stderr
    assert sorted(p.name for p in (tmp_path / "w0").iterdir()) == sorted(p.name for p in (tmp_path / "w1").iterdir())
    for name in ("thresholds.csv", "sb_push.png", "values.csv"):
        assert (tmp_path / "w0" / name).read_bytes() == (tmp_path / "w1" / name).read_bytes()
