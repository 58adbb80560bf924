"""The output-folder contract at its edges (issue 30, cases 1-3, 10, 13-16 and 18).

sflp removes only what it can prove it made -- a staging folder whose exact name and marker
file name this target, while it holds this target's lock, so that no live run holds it -- and
refuses, before any work, a target it could write but never swap.  Every test checks the target,
its neighbours and the user's files byte for byte before and after.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from sflp.charts.chartset import write_chart_set
from sflp.core.game import GameConfig
from sflp.errors import OutputError
from sflp.output.manifest import check_manifest, write_manifest
from sflp.output.marker import MARKER, leftovers
from sflp.output.stage import StagedFolder
from sflp.output.target import check_target
from sflp.solving.solver import solve_many

ROOT = Path(__file__).resolve().parent.parent


def tree(folder: Path) -> dict[str, str]:
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


def env(**extra: str) -> dict[str, str]:
    out = {k: v for k, v in os.environ.items() if k not in ("SFLP_PAUSE_AT",)}
    out["PYTHONPATH"] = str(ROOT)
    out.update(extra)
    return out


def sflp(*args: str, cwd: Path, inject: str = "", **kw) -> subprocess.CompletedProcess:
    """``sflp ARGS`` in a fresh process; ``inject`` is Python run first (a simulated fault)."""
    code = textwrap.dedent(inject) + "\nimport sys\nfrom sflp.cli.main import run\nsys.argv[0] = 'sflp'\nrun()\n"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=cwd,
                          env=kw.pop("env", env()), timeout=kw.pop("timeout", 300), **kw)


def first_set(cwd: Path, *args: str) -> None:
    """``sflp chart ARGS --out set`` in ``cwd`` through the CLI's main in this process: the set a
    test's real run (a fresh process, as above) then meets; a fresh process here would only repeat
    the imports (about 1 s a test)."""
    from sflp.cli import main

    assert main(["chart", *args, "--workers", "0", "--out", str(cwd / "set"), "--json"]) == 0


def one_line_error(proc: subprocess.CompletedProcess, needle: str) -> None:
    assert proc.returncode == 2, proc.stderr
    assert proc.stdout == "" and "Traceback" not in proc.stderr, proc.stderr
    assert proc.stderr.startswith("sflp: error:") and proc.stderr.count("\n") == 1, proc.stderr
    assert needle in proc.stderr, proc.stderr


@pytest.fixture(scope="module")
def solutions():
    return solve_many([2, 5], GameConfig(stack=2))


def write(solutions, out: Path, **kw):
    return write_chart_set(solutions, None, out, formats=["csv"], workers=0, **kw)


def killed_stage(target: Path) -> Path:
    """The staging folder a run killed with SIGKILL leaves behind (marker and all), lock released."""
    folder = StagedFolder(target, "chart-set")
    stage = folder.__enter__()
    (stage / "values.csv").write_text("half a set\n")
    folder.lock.release()  # the kernel drops a killed process's lock
    return stage


def users_folders(parent: Path, target: str) -> None:
    """Hidden folders of the user's beside ``target`` whose names look like sflp's leftovers."""
    for name in (f".{target}.old-backup", f".{target}.staging-mine", f".{target}.staging-deadbeef",
                 f".{target}.old-0123abcd", f".{target}.staging-", f".{target}.old-1.staging-00000000",
                 f".{target}.staging-0123456789"):
        (parent / name).mkdir()
        (parent / name / "f").write_text(f"the user's {name}\n")
    # a look-alike with a marker that names another target or token is not proof either
    fake = parent / f".{target}.staging-cafef00d"
    fake.mkdir()
    (fake / MARKER).write_text(json.dumps({"format": "sflp-staging", "target": "other", "token": "cafef00d"}))


# ---------------------------------------------------------------- case 1: only provable leftovers go


def test_cleanup_removes_a_killed_runs_marked_stage_and_nothing_that_only_looks_like_one(solutions, tmp_path):
    users_folders(tmp_path, "set")
    stale = killed_stage(tmp_path / "set")
    before = tree(tmp_path)
    write(solutions, tmp_path / "set")
    assert not stale.exists(), "the killed run's marked staging folder is removed by the next run"
    after = tree(tmp_path)
    for rel, digest in before.items():
        if not rel.startswith(stale.name):
            assert after.get(rel) == digest, f"{rel} changed or vanished"
    assert check_manifest(tmp_path / "set") == []


def test_the_cli_run_of_the_issue_leaves_the_users_hidden_folders(tmp_path):
    (tmp_path / ".set.old-backup").mkdir()
    (tmp_path / ".set.old-backup" / "f").write_text("x\n")
    (tmp_path / ".set.staging-mine").mkdir()
    (tmp_path / ".set.staging-mine" / "f").write_text("y\n")
    before = tree(tmp_path)
    proc = sflp("chart", "--stacks", "1:2:0.5", "--out", "set", "--formats", "csv", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    after = tree(tmp_path)
    assert {k: v for k, v in after.items() if not k.startswith("set")} == before


# ---------------------------------------------------------------- case 2: a live run's stage is never touched


def test_a_run_never_removes_another_targets_live_staging_folder(solutions, tmp_path):
    live = StagedFolder(tmp_path / "report.old-1", "chart-set")  # a long run into report.old-1, still writing
    stage = live.__enter__()
    (stage / "sb_push.png").write_bytes(b"being written")
    for target in ("report", "report.old", "report.old-1.staging"):  # names that are prefixes of it
        write(solutions, tmp_path / target)
        assert (stage / "sb_push.png").read_bytes() == b"being written", target
    (stage / "values.csv").write_text("stack\n")  # the live run goes on writing, and finishes
    write_manifest(stage, {"kind": "chart-set"})
    live.__exit__(None, None, None)
    assert check_manifest(tmp_path / "report.old-1") == []
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_a_live_run_of_the_same_target_holds_the_lock_and_keeps_its_stage(solutions, tmp_path):
    live = StagedFolder(tmp_path / "set", "chart-set")
    stage = live.__enter__()
    with pytest.raises(OutputError, match="another sflp run is writing"):
        write(solutions, tmp_path / "set", wait=False)
    assert stage.is_dir() and leftovers(tmp_path, "set") == [stage]
    live.__exit__(None, None, None)


# ---------------------------------------------------------------- case 3: a read-only target


@pytest.mark.parametrize("mode", [0o555, 0o500])
def test_a_read_only_target_is_refused_before_any_work(solutions, tmp_path, mode):
    write(solutions, tmp_path / "set")
    (tmp_path / "set").chmod(mode)
    try:
        before = tree(tmp_path)
        with pytest.raises(OutputError, match="read-only"):
            check_target(tmp_path / "set", "chart-set")
        with pytest.raises(OutputError, match=r"read-only .*chmod u\+w"):
            write(solutions, tmp_path / "set")
        proc = sflp("chart", "--stacks", "2,5", "--out", "set", cwd=tmp_path)
        one_line_error(proc, "is read-only")
        assert tree(tmp_path) == before
    finally:
        (tmp_path / "set").chmod(0o755)


# ---------------------------------------------------------------- case 10: long names, before any work


@pytest.mark.parametrize("length", [240, 300])
def test_a_name_too_long_for_the_staging_folder_is_refused_before_any_work(tmp_path, length):
    proc = sflp("chart", "--stacks", "1:2:0.5", "--out", "x" * length, cwd=tmp_path)
    one_line_error(proc, "choose a shorter name")
    assert list(tmp_path.iterdir()) == []
    proc = sflp("solve", "--stack", "5", "--out", "x" * length, cwd=tmp_path)
    one_line_error(proc, "choose a shorter name")
    assert list(tmp_path.iterdir()) == []


def test_the_longest_name_that_fits_is_written(solutions, tmp_path):
    name = "x" * (255 - 18)  # .NAME.staging-XXXXXXXX is 255 bytes: the most a name may have
    write(solutions, tmp_path / name)
    assert check_manifest(tmp_path / name) == []


# ---------------------------------------------------------------- case 13: no free inode


NO_INODE = """
import errno, os, tempfile
_mkdir, _mkstemp = os.mkdir, tempfile.mkstemp
def mkdir(path, *a, **k):
    if ".staging-" in os.fspath(path) and "{where}" == "stage":
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), os.fspath(path))
    return _mkdir(path, *a, **k)
def mkstemp(*a, **k):
    if str(k.get("prefix", "")).startswith(".manifest.json.") and "{where}" == "manifest":
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    return _mkstemp(*a, **k)
os.mkdir, tempfile.mkstemp = mkdir, mkstemp
"""


@pytest.mark.parametrize("where", ["stage", "manifest"])
def test_no_free_inode_is_one_line_and_the_old_set_stays(tmp_path, where):
    first_set(tmp_path, "--stacks", "2,5", "--formats", "csv")
    before = tree(tmp_path)
    proc = sflp("chart", "--stacks", "2,5,8", "--out", "set", "--formats", "csv", cwd=tmp_path,
                inject=NO_INODE.replace("{where}", where))
    one_line_error(proc, "No space left on device")
    assert f"cannot write {tmp_path / 'set'}" in proc.stderr or "cannot write set" in proc.stderr, proc.stderr
    assert tree(tmp_path) == before


# ---------------------------------------------------------------- case 14: a full TMPDIR


FULL_TMPDIR = """
import errno, os, tempfile
FULL = os.environ["FULL_TMPDIR"]
tempfile.tempdir = FULL  # what TMPDIR resolves to
_open = os.open
def full_open(path, flags, *a, **k):
    if os.path.abspath(os.fspath(path)).startswith(FULL + os.sep) and flags & (os.O_WRONLY | os.O_RDWR):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), os.fspath(path))
    return _open(path, flags, *a, **k)
os.open = full_open
"""


def test_a_full_tmpdir_does_not_matter_every_temporary_file_is_in_the_staging_folder(tmp_path):
    full = tmp_path / "full"
    full.mkdir()
    proc = sflp("chart", "--stacks", "2,5", "--out", "set", "--formats", "csv,xlsx", cwd=tmp_path,
                inject=FULL_TMPDIR, env=env(FULL_TMPDIR=str(full), TMPDIR=str(full)))
    assert proc.returncode == 0, proc.stderr
    assert check_manifest(tmp_path / "set") == [] and list(full.iterdir()) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["full", "set"]


# ---------------------------------------------------------------- case 15: a killed worker


def _children(pid: int) -> list[int]:
    out = []
    for stat_file in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat_file.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.append(int(stat_file.parent.name))
    return out


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc to find the worker processes")
def test_a_worker_killed_by_the_oom_killer_is_one_line_and_the_old_set_stays(tmp_path):
    first_set(tmp_path, "--stacks", "2,5", "--formats", "csv,png")
    before = tree(tmp_path / "set")
    points = tmp_path / "points"
    points.mkdir()
    proc = subprocess.Popen([sys.executable, "-m", "sflp", "chart", "--stacks", "2,5,8", "--out", "set",
                             "--formats", "csv,png", "--workers", "2"], cwd=tmp_path, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE,
                            text=True, env=env(SFLP_PAUSE_AT=f"staged={points}"))
    try:
        flag = points / "staged"
        import time

        end = time.monotonic() + 120
        while not flag.exists() and proc.poll() is None and time.monotonic() < end:
            time.sleep(0.01)
        assert flag.exists(), proc.communicate(timeout=60)
        workers = _children(proc.pid)
        assert workers, "the chart job forks its writers' workers before it stages"
        os.kill(workers[0], 9)  # what the out-of-memory killer does
        flag.unlink()  # the run goes on
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 2 and out == "", err
    assert err.count("\n") == 1 and "Traceback" not in err and "worker process" in err, err
    assert tree(tmp_path / "set") == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["points", "set"]


# ---------------------------------------------------------------- case 16: a mount point, an immutable folder


def test_a_mount_point_is_refused_before_any_work_with_a_suggestion(solutions, tmp_path, monkeypatch):
    write(solutions, tmp_path / "set")
    before = tree(tmp_path)
    monkeypatch.setattr(os.path, "ismount", lambda p: Path(p) == tmp_path / "set")
    with pytest.raises(OutputError, match=r"is a mount point.*--out .*set/charts"):
        check_target(tmp_path / "set", "chart-set")
    with pytest.raises(OutputError, match="is a mount point"):
        write(solutions, tmp_path / "set")
    assert tree(tmp_path) == before


def _can_mount() -> str | None:
    if not shutil.which("unshare"):
        return "no unshare(1) on PATH"
    probe = subprocess.run(["unshare", "-r", "-m", "true"], capture_output=True)
    return None if probe.returncode == 0 else "user and mount namespaces are not allowed here"


@pytest.mark.skipif(_can_mount() is not None, reason=f"a real mount point needs them: {_can_mount()}")
@pytest.mark.parametrize("kind", ["tmpfs", "bind"])  # a bind mount of the same file system: not os.path.ismount
def test_a_real_tmpfs_mount_point_is_refused_before_any_work(tmp_path, kind):
    target = tmp_path / "volume"
    target.mkdir()
    source = tmp_path / "source"
    source.mkdir()
    mount = f"mount -t tmpfs tmpfs {target}" if kind == "tmpfs" else f"mount --bind {source} {target}"
    script = (f"{mount} && cd {tmp_path} && "
              f"{sys.executable} -m sflp chart --stacks 1:3:0.5 --out volume --formats csv")
    proc = subprocess.run(["unshare", "-r", "-m", "sh", "-c", script], capture_output=True, text=True, env=env(),
                          timeout=300)
    one_line_error(proc, "is a mount point")


def _chattr() -> str | None:
    if not shutil.which("chattr") or not shutil.which("lsattr"):
        return "no chattr/lsattr on PATH"
    if os.geteuid() != 0:
        return "chattr +i needs root (CAP_LINUX_IMMUTABLE)"
    return None


@pytest.mark.skipif(_chattr() is not None, reason=f"an immutable folder: {_chattr()}")
def test_an_immutable_target_is_refused_before_any_work(solutions, tmp_path):
    write(solutions, tmp_path / "set")
    if subprocess.run(["chattr", "+i", str(tmp_path / "set")], capture_output=True).returncode != 0:
        pytest.skip("this file system keeps no immutable flag")
    try:
        before = tree(tmp_path)
        with pytest.raises(OutputError, match="is immutable"):
            check_target(tmp_path / "set", "chart-set")
        assert tree(tmp_path) == before
    finally:
        subprocess.run(["chattr", "-i", str(tmp_path / "set")], check=True)


# ---------------------------------------------------------------- case 18: the lock file


def test_a_dangling_lock_symlink_is_refused_and_never_followed(tmp_path):
    (tmp_path / ".set.lock").symlink_to(tmp_path / "elsewhere" / "created-by-sflp")
    (tmp_path / "elsewhere").mkdir()
    before = tree(tmp_path)
    proc = sflp("chart", "--stacks", "1:2:0.5", "--out", "set", cwd=tmp_path)
    one_line_error(proc, "is a symlink")
    assert tree(tmp_path) == before


def test_a_lock_symlink_to_a_users_file_is_refused_and_the_file_untouched(solutions, tmp_path):
    (tmp_path / "precious.txt").write_text("mine\n")
    (tmp_path / ".set.lock").symlink_to(tmp_path / "precious.txt")
    before = tree(tmp_path)
    with pytest.raises(OutputError, match="symlink"):
        write(solutions, tmp_path / "set")
    assert tree(tmp_path) == before


def test_a_lock_name_holding_the_users_data_is_not_used_or_removed(solutions, tmp_path):
    (tmp_path / ".set.lock").write_text("my notes, not a lock\n")
    before = tree(tmp_path)
    with pytest.raises(OutputError, match="not sflp's lock file"):
        write(solutions, tmp_path / "set")
    assert tree(tmp_path) == before


def test_a_stale_lock_of_a_killed_run_is_taken_and_removed(solutions, tmp_path):
    for text in (b"", b"sflp lock\n"):  # an older sflp's empty lock file, and today's
        (tmp_path / ".set.lock").write_bytes(text)
        write(solutions, tmp_path / "set")
        assert not (tmp_path / ".set.lock").exists()


def test_the_staging_marker_is_created_exclusively(tmp_path, monkeypatch):
    import secrets

    token = "0badf00d"
    monkeypatch.setattr(secrets, "token_hex", lambda n: token)
    stage = tmp_path / f".set.staging-{token}"
    stage.mkdir()  # someone made the folder first: sflp must not adopt it
    with pytest.raises(OutputError, match="File exists"):
        with StagedFolder(tmp_path / "set", "chart-set"):
            pass
    assert sorted(p.name for p in tmp_path.iterdir()) == [stage.name] and list(stage.iterdir()) == []


def test_a_failing_second_rename_puts_the_old_set_back(solutions, tmp_path, monkeypatch):
    from sflp.output import stage as staging

    write(solutions, tmp_path / "set")
    before = tree(tmp_path)
    monkeypatch.setattr(staging, "exchange", lambda a, b: False)  # a system without renameat2
    real = os.rename

    def rename(src, dst):
        if Path(src).name.startswith(".set.staging-"):
            raise OSError(errno.EIO, os.strerror(errno.EIO))
        return real(src, dst)

    monkeypatch.setattr(os, "rename", rename)
    with pytest.raises(OutputError, match="cannot move the new report"):
        write(solutions, tmp_path / "set")
    assert tree(tmp_path) == before


# ---------------------------------------------------------------- the second round (an attacker's findings)


def _wait_for(flag: Path, proc: subprocess.Popen, seconds: float = 120) -> None:
    import time

    end = time.monotonic() + seconds
    while not flag.exists() and proc.poll() is None and time.monotonic() < end:
        time.sleep(0.01)
    assert flag.exists(), proc.communicate(timeout=60)


def _paused(tmp_path: Path, point: str, *args: str) -> tuple[subprocess.Popen, Path]:
    points = tmp_path / "points"
    points.mkdir(exist_ok=True)
    proc = subprocess.Popen([sys.executable, "-m", "sflp", "chart", *args], cwd=tmp_path, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env(SFLP_PAUSE_AT=f"{point}={points}"))
    _wait_for(points / point, proc)
    return proc, points / point


def test_files_the_user_adds_while_a_run_works_are_kept(tmp_path):
    first_set(tmp_path, "--stacks", "2,3", "--formats", "csv")
    proc, flag = _paused(tmp_path, "manifest", "--stacks", "2,3,4", "--out", "set", "--formats", "csv")
    try:
        (tmp_path / "set" / "my-analysis.txt").write_text("mine\n")
        (tmp_path / "set" / "mydir").mkdir()
        (tmp_path / "set" / "mydir" / "a.txt").write_text("a\n")
        flag.unlink()  # the run goes on, and swaps
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert (tmp_path / "set" / "my-analysis.txt").read_text() == "mine\n"
    assert (tmp_path / "set" / "mydir" / "a.txt").read_text() == "a\n"
    assert sorted(check_manifest(tmp_path / "set")) == ["my-analysis.txt: not listed in the manifest",
                                                        "mydir: not listed in the manifest"]
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


def test_a_file_that_appears_during_the_swap_itself_joins_the_new_set(solutions, tmp_path, monkeypatch):
    from sflp.output import stage as staging

    write(solutions, tmp_path / "set")
    real = staging.exchange

    def late_exchange(a, b):  # the user writes between sflp's last look and the swap
        (tmp_path / "set" / "late.txt").write_text("just in time\n")
        return real(a, b)

    monkeypatch.setattr(staging, "exchange", late_exchange)
    write(solutions, tmp_path / "set")
    assert (tmp_path / "set" / "late.txt").read_text() == "just in time\n"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


@pytest.mark.skipif(not hasattr(os, "fork"), reason="the chart job's workers are forked")
# fast: SIGTERM (what GNU timeout sends, twice); slow: SIGINT too (both signals interrupt a run in the
# fast set: tests/test_chart_unit.py::test_an_interrupted_run_leaves_the_old_set)
@pytest.mark.parametrize("signal_name", [pytest.param("SIGINT", marks=pytest.mark.slow), "SIGTERM"])
def test_a_second_signal_during_the_workers_shutdown_ends_cleanly(tmp_path, signal_name):
    import signal
    import time

    first_set(tmp_path, "--stacks", "2,3", "--formats", "csv,png")
    before = tree(tmp_path / "set")
    proc, _ = _paused(tmp_path, "jobs", "--stacks", "1:6:0.1", "--out", "set", "--formats", "csv,png,xlsx,svg",
                      "--workers", "2")  # the writers' pool is what shuts down (one process is the default)
    sig = getattr(signal, signal_name)
    try:
        proc.send_signal(sig)  # GNU timeout signals the process, then its group: twice in a row
        time.sleep(0.02)
        proc.send_signal(sig)
        deadline = time.monotonic() + 60
        while proc.poll() is None and time.monotonic() < deadline:  # and more, all through the shutdown:
            try:  # one landing between two cleanup steps used to leave the stage and lock behind
                proc.send_signal(sig)
            except ProcessLookupError:
                break
            time.sleep(0.003)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            pytest.fail("the run hung after a second signal")
    assert proc.returncode == (130 if signal_name == "SIGINT" else 143), err
    assert "Traceback" not in err and "Exception" not in err and err.count("\n") == 1, err
    assert tree(tmp_path / "set") == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["points", "set"]


def test_only_the_first_interrupt_signal_raises(monkeypatch):
    """A later SIGINT/SIGTERM is noted, not raised: raised, it could land in the cleanup between
    two steps (outside the blocks that hold signals back) and cut it short."""
    import importlib
    import signal

    cli_main = importlib.import_module("sflp.cli.main")
    monkeypatch.setattr(cli_main, "_RECEIVED", [])
    with pytest.raises(cli_main.Terminated):
        cli_main._on_signal(signal.SIGTERM, None)
    assert cli_main._on_signal(signal.SIGTERM, None) is None
    assert cli_main._on_signal(signal.SIGINT, None) is None
    assert cli_main._RECEIVED == [signal.SIGTERM, signal.SIGTERM, signal.SIGINT]
    monkeypatch.setattr(cli_main, "_RECEIVED", [])
    with pytest.raises(KeyboardInterrupt) as info:
        cli_main._on_signal(signal.SIGINT, None)
    assert not isinstance(info.value, cli_main.Terminated)


def test_what_cannot_be_removed_now_stays_marked_for_the_next_run(tmp_path, monkeypatch):
    from sflp.output import marker as staging

    stage = killed_stage(tmp_path / "set")
    (stage / "refs").mkdir()
    (stage / "refs" / "p.txt").write_text("p\n")
    real = os.unlink

    def stuck(path, *a, **k):
        if str(path).endswith("p.txt"):
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))
        return real(path, *a, **k)

    monkeypatch.setattr(os, "unlink", stuck)
    assert not staging.remove_marked(stage)
    assert (stage / MARKER).is_file() and leftovers(tmp_path, "set") == [stage]  # still provably sflp's
    monkeypatch.setattr(os, "unlink", real)
    assert staging.remove_marked(stage) and not stage.exists()


@pytest.mark.skipif(_chattr() is not None, reason=f"an immutable file: {_chattr()}")
@pytest.mark.parametrize("what", ["ranges.csv", "refs"])
def test_an_immutable_file_or_kept_folder_in_the_set_is_refused_before_any_work(solutions, tmp_path, what):
    write(solutions, tmp_path / "set")
    (tmp_path / "set" / "refs").mkdir()
    (tmp_path / "set" / "refs" / "p.txt").write_text("p\n")
    if subprocess.run(["chattr", "+i", str(tmp_path / "set" / what)], capture_output=True).returncode != 0:
        pytest.skip("this file system keeps no immutable flag")
    try:
        before = tree(tmp_path)
        with pytest.raises(OutputError, match=f"{what} is immutable"):
            write(solutions, tmp_path / "set")
        assert tree(tmp_path) == before
    finally:
        subprocess.run(["chattr", "-i", str(tmp_path / "set" / what)], check=True)


KILL_AFTER_SWAP = """
import os, signal
from sflp.output import stage as staging
_exchange = staging.exchange
def exchange(a, b):
    done = _exchange(a, b)
    os.kill(os.getpid(), signal.SIGKILL)  # killed between the swap and anything after it
    return done
staging.exchange = exchange
"""


def test_a_run_killed_right_after_the_swap_leaves_only_what_the_next_run_removes(tmp_path):
    first_set(tmp_path, "--stacks", "2,3", "--formats", "csv")
    proc = sflp("chart", "--stacks", "2,3,4", "--out", "set", "--formats", "csv", cwd=tmp_path,
                inject=KILL_AFTER_SWAP)
    assert proc.returncode == -9
    hidden = sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("."))
    assert len(hidden) == 2 and hidden[0].startswith(".set.lock") or any(".staging-" in h for h in hidden), hidden
    assert (tmp_path / "set" / MARKER).exists()  # the marker that came along with the new set
    assert sflp("chart", "--stacks", "2,5", "--out", "set", "--formats", "csv", cwd=tmp_path).returncode == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["set"]
    assert check_manifest(tmp_path / "set") == [] and not (tmp_path / "set" / MARKER).exists()


def test_a_users_hidden_tmp_folder_in_the_set_is_kept_and_a_marker_name_of_theirs_refused(solutions, tmp_path):
    write(solutions, tmp_path / "set")
    (tmp_path / "set" / ".tmp").mkdir()
    (tmp_path / "set" / ".tmp" / "mine.txt").write_text("x\n")
    write(solutions, tmp_path / "set")
    assert (tmp_path / "set" / ".tmp" / "mine.txt").read_text() == "x\n"
    (tmp_path / "set" / MARKER).write_text("my file\n")
    before = tree(tmp_path)
    with pytest.raises(OutputError, match="is not sflp's marker"):
        check_target(tmp_path / "set", "chart-set")
    assert tree(tmp_path) == before


def test_a_folder_made_only_to_reach_the_target_is_removed_again(tmp_path):
    proc = sflp("chart", "--stacks", "2,3", "--out", "a/../set", "--formats", "csv", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["set"]


def test_an_unreadable_target_is_one_line(solutions, tmp_path, monkeypatch):
    from pathlib import Path as P

    write(solutions, tmp_path / "set")
    real = P.iterdir

    def iterdir(self):
        if self == tmp_path / "set":
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(self))
        return real(self)

    monkeypatch.setattr(P, "iterdir", iterdir)
    with pytest.raises(OutputError, match=r"cannot read .*set: Permission denied"):
        check_target(tmp_path / "set", "chart-set")


def test_a_symlink_as_the_target_is_named_as_one(solutions, tmp_path):
    write(solutions, tmp_path / "real")
    (tmp_path / "link").symlink_to(tmp_path / "real")
    with pytest.raises(OutputError, match="is a symlink"):
        check_target(tmp_path / "link", "chart-set")


def test_a_closed_standard_output_is_one_line_before_any_work(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "sflp", "solve", "--stack", "10", "--out", "s10"], cwd=tmp_path,
                          stderr=subprocess.PIPE, text=True, env=env(), timeout=120, preexec_fn=lambda: os.close(1))
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "standard output" in proc.stderr, proc.stderr
    assert list(tmp_path.iterdir()) == []


NO_SPACE_FOR = """
import builtins, errno, io, os
_open = builtins.open
WHERE = "{where}"
def full_open(file, mode="r", *a, **k):
    if WHERE == "ranges" and str(file).endswith("ranges.csv") and "x" in mode:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(file))
    if WHERE == "workbook" and os.path.basename(str(file)).startswith(".chart.xlsx.") and "w" in mode:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(file))
    return _open(file, mode, *a, **k)
builtins.open = io.open = full_open  # zipfile opens the workbook's temporary file with io.open
"""


@pytest.mark.parametrize("where", ["ranges", "workbook"])
def test_no_space_for_the_ranges_file_or_a_workbook_is_one_line(tmp_path, where):
    """Until issue 43 openpyxl wrote each sheet to a temporary file first ("sheet"); XlsxWriter
    writes in memory, so the workbook's own temporary file is where a full disk shows."""
    first_set(tmp_path, "--stacks", "2,3", "--formats", "csv,xlsx")
    before = tree(tmp_path)
    proc = sflp("chart", "--stacks", "2,3,4", "--out", "set", "--formats", "csv,xlsx", cwd=tmp_path,
                inject=NO_SPACE_FOR.replace("{where}", where))
    one_line_error(proc, "No space left on device")
    assert tree(tmp_path) == before
