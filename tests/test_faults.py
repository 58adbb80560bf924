"""Faults while a chart set is written: a full disk, SIGKILL, and what the next run finds.

A full disk is simulated at the OS level with ``RLIMIT_FSIZE`` (no root, no tmpfs mount needed):
a write past the limit fails with ``EFBIG`` ("File too large"), as a full disk fails with
``ENOSPC``, through the same code paths (every file of a set goes through one writer).  The
limits below run from below the smallest file of the new set to between its largest files, so
the failing write is the CSV stream, the workbook, a picture, the page or the PDF in turn.
Each run must fail with one line naming the file, leave the previous set byte for byte, and
leave no staging folder or temporary file.
"""

from __future__ import annotations

import hashlib
import os
import resource
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sflp.output.manifest import check_manifest

ROOT = Path(__file__).resolve().parent.parent


def snapshot(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "SFLP_PAUSE_AT"}
    env["PYTHONPATH"] = str(ROOT)
    return env


def chart(out: Path, *args: str, limit: int | None = None, **kw):
    def small_disk():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a failing write returns EFBIG instead of killing
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return subprocess.Popen([sys.executable, "-m", "sflp", "chart", "--stacks", "2,5,8,9", "--out", str(out),
                             "--json", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=out.parent, env=_env(), preexec_fn=small_disk if limit else None, **kw)


@pytest.fixture(scope="module")
def old_set(tmp_path_factory):
    """The previous set, written by the CLI's main in this process (the runs that fail are real)."""
    from sflp.cli import main

    parent = tmp_path_factory.mktemp("faults")
    assert main(["chart", "--stacks", "2,5,8,9", "--workers", "0", "--out", str(parent / "set"), "--json"]) == 0
    return parent / "set"


def leftovers(parent: Path) -> list[str]:
    return [p.name for p in parent.rglob("*") if p.name.startswith(".") or p.name.endswith(".tmp")]


# A run a format (3-5 s each).  The fast set: a limit below all but the smallest files (.json, the
# manifest: one of the first writes fails), one among the mid-sized files (.xlsx) and one only the
# largest picture exceeds (.png); the slow set: every format's largest file.
@pytest.mark.parametrize("suffix", [pytest.param(".csv", marks=pytest.mark.slow), ".xlsx", ".png",
                                    pytest.param(".svg", marks=pytest.mark.slow),
                                    pytest.param(".html", marks=pytest.mark.slow),
                                    pytest.param(".pdf", marks=pytest.mark.slow), ".json"])
def test_a_full_disk_leaves_the_previous_set_and_no_partial_file(old_set, tmp_path, suffix):
    # the rerun writes the same files as the old set: one byte less than the largest file of this
    # format cannot be written (smaller files of other formats may fail first: any failure counts)
    limit = max(p.stat().st_size for p in old_set.iterdir() if p.suffix == suffix) - 1
    shutil.copytree(old_set, tmp_path / "set")
    before = snapshot(tmp_path / "set")
    proc = chart(tmp_path / "set", limit=limit)
    out, err = proc.communicate(timeout=600)
    assert proc.returncode == 2, err
    assert out == "" and err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"sflp: error: cannot write {tmp_path / 'set'}/") and "File too large" in err, err
    assert snapshot(tmp_path / "set") == before and check_manifest(tmp_path / "set") == []
    assert leftovers(tmp_path) == []


def test_a_killed_run_leaves_the_old_set_and_the_next_run_cleans_up(old_set, tmp_path):
    shutil.copytree(old_set, tmp_path / "set")
    before = snapshot(tmp_path / "set")
    points = tmp_path / "points"
    points.mkdir()
    proc = subprocess.Popen([sys.executable, "-m", "sflp", "chart", "--stacks", "2,5,8", "--workers", "2",
                             "--out", str(tmp_path / "set"), "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**_env(), "SFLP_PAUSE_AT": f"ranges.csv={points}"})  # workers running
    try:
        end = time.monotonic() + 600  # the run reaches the pause point or ends; 600 s only bounds a hang
        while not (points / "ranges.csv").exists() and proc.poll() is None and time.monotonic() < end:
            time.sleep(0.01)
        assert (points / "ranges.csv").exists(), proc.communicate(timeout=600)
        proc.kill()  # SIGKILL: no handler runs, nothing is cleaned up; the workers notice and leave
        proc.communicate(timeout=600)  # the pipes close when the workers have left: 600 s only bounds a hang
    finally:
        if proc.poll() is None:
            proc.kill()
    assert snapshot(tmp_path / "set") == before
    stale = [p.name for p in tmp_path.iterdir() if p.name.startswith(".set.staging-")]
    assert stale, "a killed run leaves its staging folder (nothing can remove it)"
    # the next run removes the stale staging (it holds the lock): through main in this process (the
    # next run of a real command does it in tests/test_output_edges.py, the killed run here is real)
    from sflp.cli import main

    assert main(["chart", "--stacks", "2,5,8,9", "--workers", "0", "--out", str(tmp_path / "set"), "--json"]) == 0
    assert check_manifest(tmp_path / "set") == []
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".set.")] == []
