"""sflp's caches live in one user cache folder, never in the installed package (issue 30, case 9).

numba's ``cache=True`` writes ``.nbi``/``.nbc`` files into ``__pycache__`` beside a module when it
is given no folder of its own: an installed sflp gained files that ``pip uninstall`` left behind,
and with a read-only package and no writable home every numba-using command crashed at import
("no locator available").  These tests run the numba kernels from a copy of the package laid out
as an install (a site folder on ``PYTHONPATH``) and compare every file of that tree before and
after; they also check ``sflp cache info|clear`` and that clearing removes only what sflp wrote.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import sysconfig
import textwrap
import zipfile
from pathlib import Path

import numpy as np
import pytest

import sflp
from sflp import cache
from sflp.core.equity import default_data_dir

ROOT = Path(__file__).resolve().parent.parent
TABLE_DIR = default_data_dir()

RUN_KERNELS = textwrap.dedent(
    """
    import sys
    import numpy as np
    import sflp
    import sflp.core.equity_build  # the table build's kernels are decorated at import (where it crashed)
    from sflp.cli import main
    from sflp.core.cards import parse_cards
    from sflp.core.evaluator import evaluate7, hand_category
    print(sflp.__file__, file=sys.stderr)
    print(hand_category(int(evaluate7(np.array(parse_cards("AhKhQhJhTh2c3d"))))), file=sys.stderr)
    sys.exit(main(["simulate", "--stack", "10", "--hands", "2000", "--json"]))
    """
)
"""Compiles the evaluator and the simulation's kernels (and decorates the table build's), then
plays 2,000 hands: every numba module of the package in one process (about 8 s uncached)."""


def _install_copy(tmp_path: Path) -> Path:
    """The package as an install lays it out: ``site/sflp`` (no bytecode, no numba files)."""
    site = tmp_path / "site"
    shutil.copytree(ROOT / "sflp", site / "sflp", ignore=shutil.ignore_patterns("__pycache__", "data"))
    return site


def _tree(folder: Path) -> dict[str, tuple]:
    """Every entry under ``folder`` with its type, size and modification time."""
    out = {}
    for path in sorted(folder.rglob("*")):
        st = path.lstat()
        out[str(path.relative_to(folder))] = (stat.S_IFMT(st.st_mode), st.st_size, st.st_mtime_ns)
    return out


def _env(site: Path, **extra: str) -> dict[str, str]:
    """A clean environment for a process that imports the copy at ``site``: none of the cache,
    data or path settings of the test run; Python's own bytecode off (not sflp's doing, and pip
    removes it at uninstall)."""
    drop = ("SFLP_CACHE_DIR", "NUMBA_CACHE_DIR", "XDG_CACHE_HOME", "PYTHONPATH", "SFLP_DATA_DIR", "HOME")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env.update(PYTHONPATH=str(site), SFLP_DATA_DIR=str(TABLE_DIR), PYTHONDONTWRITEBYTECODE="1", **extra)
    return env


def _unwritable_home(tmp_path: Path) -> str:
    """A home folder no one can create, root included: a path under a regular file."""
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    return str(blocker / "home")


def _run_kernels(site: Path, env: dict, cwd: Path, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", RUN_KERNELS], capture_output=True, text=True, env=env, cwd=cwd,
                          timeout=600, **kw)


def _check_ran(proc: subprocess.CompletedProcess, site: Path) -> None:
    assert proc.returncode == 0, proc.stderr[-2000:]
    report = json.loads(proc.stdout)
    assert report["hands"] == 2000
    lines = proc.stderr.split("\n")
    assert lines[0].startswith(str(site)), lines[0]  # the copy ran, not the checkout
    assert "straight flush" in proc.stderr


def test_a_read_only_install_without_a_writable_home_runs_uncached_and_writes_nothing(tmp_path):
    """No cache folder is writable (HOME under a regular file, no SFLP_CACHE_DIR) and the package
    is read-only: the kernels compile without a cache, the command succeeds, and not one file of
    the package tree is added or changed (as root, chmod does not stop a write; the comparison of
    the tree does)."""
    site = _install_copy(tmp_path)
    for path in [site, *site.rglob("*")]:
        path.chmod(path.stat().st_mode & ~0o222)
    before = _tree(site)
    try:
        proc = _run_kernels(site, _env(site, HOME=_unwritable_home(tmp_path)), tmp_path)
        _check_ran(proc, site)
        assert _tree(site) == before
    finally:
        for path in [site, *site.rglob("*")]:
            path.chmod(path.stat().st_mode | 0o200)


def _nobody_can_run_python() -> str | None:
    """Why the test as user ``nobody`` cannot run here, or None."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return "needs root to become the user nobody (as a user, the read-only test above is the same check)"
    try:
        probe = subprocess.run([sys.executable, "-c", "import numpy, numba, highspy"], capture_output=True, text=True,
                               user=65534, group=65534, extra_groups=[], cwd="/", env={"HOME": "/nonexistent"})
    except OSError as exc:
        return f"the user nobody cannot run {sys.executable} here ({exc.strerror})"
    if probe.returncode != 0:
        return f"the user nobody cannot run {sys.executable} with numpy and numba here ({probe.stderr.strip()[-120:]})"
    return None


@pytest.mark.slow
def test_the_user_nobody_runs_a_read_only_install(tmp_path):
    """The issue's case as stated: as ``nobody`` with ``HOME=/nonexistent``, a package nobody cannot
    write; the command succeeds uncached and the package tree is unchanged."""
    reason = _nobody_can_run_python()
    if reason:
        pytest.skip(reason)
    site = _install_copy(tmp_path)
    work = tmp_path / "work"
    work.mkdir()
    for path in [tmp_path, site, *site.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)  # readable by nobody, writable by root only
    work.chmod(0o777)
    if not os.access(TABLE_DIR, os.R_OK):  # pragma: no cover - the table of this checkout is world-readable
        pytest.skip(f"the user nobody cannot read the equity table in {TABLE_DIR}")
    before = _tree(site)
    proc = _run_kernels(site, _env(site, HOME="/nonexistent"), work, user=65534, group=65534, extra_groups=[])
    _check_ran(proc, site)
    assert _tree(site) == before


def test_numba_and_the_lp_cache_go_to_the_cache_folder_and_clear_removes_only_sflp_files(tmp_path):
    """The uninstall case: a writable install, a writable cache folder.  numba's files and the
    compiled LP land in the cache folder (numba's under ``numba/``), none in the package tree, so
    ``pip uninstall`` (which removes what the wheel's RECORD lists) leaves nothing behind.  Then
    ``sflp cache info`` counts them and ``sflp cache clear`` removes them, and only them: a user's
    file, a file named like an LP entry without sflp's magic and a numba-like file outside numba's
    folders stay, byte for byte."""
    site = _install_copy(tmp_path)
    folder = tmp_path / "cache"
    env = _env(site, HOME=_unwritable_home(tmp_path), SFLP_CACHE_DIR=str(folder))
    before = _tree(site)
    _check_ran(_run_kernels(site, env, tmp_path), site)
    assert _tree(site) == before
    kernels = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*.nb[ic]"))
    assert kernels and all(k.startswith("numba/") for k in kernels), kernels
    assert {"evaluator", "simulate"} <= {k.split("/")[-1].split(".")[0] for k in kernels}, kernels
    (lp_entry,) = folder.glob("lp-*.npz")
    # what is not sflp's
    theirs = {
        folder / "notes.txt": b"a user's file",
        folder / ("lp-" + "0" * 32 + ".npz"): b"named like an entry, not sflp's",
        folder / "evaluator.x-1.py311.nbi": b"numba-like, outside numba's folders",
        folder / "numba" / "mine.txt": b"a user's file in the numba folder",
    }
    for path, data in theirs.items():
        path.write_bytes(data)

    def sflp_cache(*args):
        proc = subprocess.run([sys.executable, "-m", "sflp", "cache", *args, "--json"], capture_output=True,
                              text=True, env=env, cwd=tmp_path, timeout=120)
        assert proc.returncode == 0, proc.stderr
        return json.loads(proc.stdout)

    info = sflp_cache("info")
    assert info["folder"] == str(folder) and info["enabled"] and info["writable"]
    assert info["lp"] == {"files": 1, "bytes": lp_entry.stat().st_size}
    assert info["numba"]["files"] == len(kernels) and info["numba"]["own"]
    assert info["numba"]["bytes"] == sum((folder / k).stat().st_size for k in kernels)
    cleared = sflp_cache("clear")
    assert cleared["lp"]["files"] == 1 and cleared["numba"]["files"] == len(kernels)
    left = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())
    assert left == sorted(p.relative_to(folder).as_posix() for p in theirs)
    for path, data in theirs.items():
        assert path.read_bytes() == data
    assert sflp_cache("info")["bytes"] == 0


# ---------------------------------------------------------------- the literal uninstall sequence (slow)


def _hand_built_wheel(dist: Path) -> Path:
    """A wheel of the checkout built by hand (a zip with the package and its dist-info, RECORD
    included), for when ``pip wheel`` cannot build offline: what pip installs and uninstalls is
    the same."""
    import base64
    import hashlib

    name = f"sflp-{sflp.__version__}"
    wheel = dist / f"{name}-py3-none-any.whl"
    dist.mkdir(parents=True, exist_ok=True)
    files: dict[str, bytes] = {}
    for path in sorted((ROOT / "sflp").rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            files[path.relative_to(ROOT).as_posix()] = path.read_bytes()
    for path in TABLE_DIR.glob("equity_table.*"):
        files[f"sflp/data/{path.name}"] = path.read_bytes()
    info = f"{name}.dist-info"
    files[f"{info}/METADATA"] = f"Metadata-Version: 2.1\nName: sflp\nVersion: {sflp.__version__}\n".encode()
    files[f"{info}/WHEEL"] = (b"Wheel-Version: 1.0\nGenerator: tests/test_caches.py\nRoot-Is-Purelib: true\n"
                              b"Tag: py3-none-any\n")
    files[f"{info}/entry_points.txt"] = b"[console_scripts]\nsflp = sflp.cli:run\n"
    record = []
    for arcname, data in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{arcname},sha256={digest},{len(data)}")
    files[f"{info}/RECORD"] = ("\n".join([*record, f"{info}/RECORD,,"]) + "\n").encode()
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as zf:
        for arcname, data in files.items():
            zf.writestr(arcname, data)
    return wheel


@pytest.mark.slow
def test_pip_uninstall_after_a_numba_run_leaves_no_sflp_folder(tmp_path):
    """The issue's sequence, offline: install the wheel into a fresh venv, run a numba command with a
    normal home, ``pip uninstall -y sflp``: no ``site-packages/sflp`` is left (before the fix,
    numba's files kept it, without ``__init__.py``, as a namespace package that hid a later
    editable install), and ``import sflp`` outside the checkout fails as it should."""
    dist = tmp_path / "dist"
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--disable-pip-version-check", "--no-deps",
         "--no-build-isolation", "--no-index", "-w", str(dist), str(ROOT)],
        capture_output=True, text=True, cwd=tmp_path, timeout=600,
    )
    wheels = list(dist.glob("sflp-*.whl")) if build.returncode == 0 else []
    wheel = wheels[0] if wheels else _hand_built_wheel(tmp_path / "dist-by-hand")
    venv = tmp_path / "venv"
    made = subprocess.run([sys.executable, "-m", "venv", str(venv)], capture_output=True, text=True, timeout=600)
    if made.returncode != 0:
        pytest.skip(f"no venv with pip can be made offline here: {made.stderr.strip()[-200:]}")
    py = venv / "bin" / "python"
    venv_site = Path(subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                                    capture_output=True, text=True, check=True).stdout.strip())
    # the dependencies from this environment (a plain path line: its .pth files, among them an
    # editable sflp, are not processed, so only the wheel's sflp is importable)
    ours = dict.fromkeys(sysconfig.get_paths()[k] for k in ("purelib", "platlib"))
    (venv_site / "_sflp_test_deps.pth").write_text("".join(f"{d}\n" for d in ours))
    env = {k: v for k, v in os.environ.items()
           if k not in ("SFLP_CACHE_DIR", "NUMBA_CACHE_DIR", "XDG_CACHE_HOME", "PYTHONPATH", "SFLP_DATA_DIR")}
    home = tmp_path / "home"
    home.mkdir()
    env.update(HOME=str(home), PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_INDEX="1")
    pip = [str(py), "-m", "pip"]
    subprocess.run([*pip, "install", "--quiet", "--no-deps", str(wheel)], check=True, env=env, timeout=600)
    installed = venv_site / "sflp"
    assert (installed / "__init__.py").is_file()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    proc = subprocess.run([str(venv / "bin" / "sflp"), "simulate", "--stack", "10", "--hands", "2000", "--json"],
                          capture_output=True, text=True, env=env, cwd=elsewhere, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert list((home / ".cache" / "sflp" / "numba").rglob("*.nbi")) or sys.platform != "linux"
    assert not [p for p in installed.rglob("*.nb[ic]")]
    subprocess.run([*pip, "uninstall", "--quiet", "-y", "sflp"], check=True, env=env, timeout=600)
    assert not installed.exists(), sorted(str(p) for p in installed.rglob("*"))
    gone = subprocess.run([str(py), "-c", "import sflp"], capture_output=True, text=True, env=env, cwd=elsewhere)
    assert gone.returncode != 0 and "ModuleNotFoundError" in gone.stderr


# ---------------------------------------------------------------- the folder and numba's part, in process


def test_the_cache_folder_by_platform(monkeypatch, tmp_path):
    monkeypatch.delenv("SFLP_CACHE_DIR", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("LOCALAPPDATA", str(tmp_path / "local"))
    expected = {
        "linux": tmp_path / "xdg" / "sflp",
        "darwin": tmp_path / "Library" / "Caches" / "sflp",
        "win32": tmp_path / "local" / "sflp" / "Cache",
    }
    for platform, folder in expected.items():
        monkeypatch.setattr(sys, "platform", platform)
        assert cache.cache_root() == folder, platform
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/ignored")  # the XDG spec: a relative value is invalid
    assert cache.cache_root() == tmp_path / ".cache" / "sflp"
    monkeypatch.setenv("SFLP_CACHE_DIR", str(tmp_path / "mine"))
    assert cache.cache_root() == tmp_path / "mine" and cache.numba_dir() == tmp_path / "mine" / "numba"
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "numba-of-the-user"))
    assert cache.numba_dir() == tmp_path / "numba-of-the-user"  # respected
    assert cache.own_numba_dir() == tmp_path / "mine" / "numba"  # the only one sflp clears
    monkeypatch.setenv("SFLP_CACHE_DIR", "")
    assert cache.cache_root() is None and cache.numba_dir() is None


def _cached_path(dispatcher):
    return getattr(getattr(dispatcher, "_cache", None), "_cache_path", None)


def test_njit_caches_in_the_folder_or_nowhere(monkeypatch, tmp_path):
    """``sflp.cache.njit(cache=True)``: in a writable folder numba keeps the function there (and the
    process's numba setting is what it was); with no writable folder, or caching off, the function
    still compiles and runs, uncached."""
    from numba.core import config

    setting = config.CACHE_DIR
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setenv("SFLP_CACHE_DIR", str(tmp_path / "cache"))

    def add_one(x):
        return x + 1

    cached = cache.njit(cache=True)(add_one)
    assert cached(1) == 2 and config.CACHE_DIR == setting
    assert Path(_cached_path(cached)).is_relative_to(tmp_path / "cache" / "numba")
    assert list((tmp_path / "cache" / "numba").rglob("*.nbi"))
    for off in (_unwritable_home(tmp_path) + "/cache", ""):
        monkeypatch.setenv("SFLP_CACHE_DIR", off)
        plain = cache.njit(cache=True)(add_one)
        assert plain(2) == 3 and _cached_path(plain) is None and config.CACHE_DIR == setting
    assert cache.njit(add_one)(3) == 4  # bare, as numba's


def _numba_like(folder: Path, tag: str) -> dict[Path, bytes]:
    """Two numba-like cache files in a numba-like subfolder of ``folder``: path -> bytes."""
    sub = folder / ("core_" + tag * 40)
    sub.mkdir(parents=True)
    files = {sub / "evaluator.f-1.py311.nbi": b"y", sub / "evaluator.f-1.py311.1.nbc": b"zz"}
    for path, data in files.items():
        path.write_bytes(data)
    return files


def test_clear_never_touches_a_numba_folder_of_the_user(monkeypatch, tmp_path):
    monkeypatch.setenv("SFLP_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    theirs = _numba_like(tmp_path / "theirs", "a")
    ours = _numba_like(tmp_path / "cache" / "numba", "b")
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "theirs"))
    info = cache.info([])
    assert info["numba"] == {"folder": str(tmp_path / "theirs"), "own": False, "files": 0, "bytes": 0}
    # while NUMBA_CACHE_DIR is set no numba file is cleared, not even in sflp's own folder
    assert cache.clear([]) == {"folder": str(tmp_path / "cache"), "lp": {"files": 0, "bytes": 0},
                               "numba": {"files": 0, "bytes": 0, "left": str(tmp_path / "theirs")}, "bytes": 0}
    for path, data in {**theirs, **ours}.items():
        assert path.read_bytes() == data
    # unset, sflp's own files go; no folder ever does
    monkeypatch.delenv("NUMBA_CACHE_DIR")
    assert cache.clear([]) == {"folder": str(tmp_path / "cache"), "lp": {"files": 0, "bytes": 0},
                               "numba": {"files": 2, "bytes": 3, "left": None}, "bytes": 3}
    assert not any(path.exists() for path in ours)
    assert all(path.parent.is_dir() for path in ours) and (tmp_path / "cache" / "numba").is_dir()


def test_clear_leaves_numba_alone_when_numba_cache_dir_is_sflps_own_folder(monkeypatch, tmp_path, capsys):
    """``NUMBA_CACHE_DIR=$SFLP_CACHE_DIR/numba``: numba writes every program's kernels there, so the
    folder is the user's; ``clear`` removes the LP entries only, says why, and removes no folder."""
    from sflp.cli import main

    root = tmp_path / "cache"
    monkeypatch.setenv("SFLP_CACHE_DIR", str(root))
    shared = _numba_like(root / "numba", "c")
    other = root / "numba" / "someone_else.nbi"
    other.write_bytes(b"another program's")
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(root / "numba"))
    assert cache.info([])["numba"]["own"] is False
    assert main(["cache", "clear"]) == 0
    out = capsys.readouterr().out
    assert "numba's files left alone: NUMBA_CACHE_DIR is set" in out and str(root / "numba") in out
    for path, data in {**shared, other: b"another program's"}.items():
        assert path.read_bytes() == data
    assert main(["cache", "clear", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["numba"] == {"files": 0, "bytes": 0, "left": str(root / "numba")}


def test_cache_info_text_when_off_or_unwritable(monkeypatch, tmp_path, capsys):
    from sflp.cli import main

    monkeypatch.setenv("SFLP_CACHE_DIR", "")
    assert main(["cache", "info"]) == 0
    assert capsys.readouterr().out.startswith("Caching is off")
    assert main(["cache", "clear"]) == 0
    assert "nothing to clear" in capsys.readouterr().out
    monkeypatch.setenv("SFLP_CACHE_DIR", _unwritable_home(tmp_path))
    assert main(["cache", "info"]) == 0
    out = capsys.readouterr().out
    assert "not writable: sflp runs without caching" in out and "0 file(s)" in out


def test_the_lp_cache_entry_is_recognised_by_its_magic_only(monkeypatch, tmp_path):
    import dataclasses

    from sflp.core.game import GameConfig, PushFoldGame
    from sflp.solving import highs
    from sflp.solving.lp import PushFoldLP

    monkeypatch.setenv("SFLP_CACHE_DIR", str(tmp_path))
    # a structure compiled from its own model (no template): its entry is stored in the cache
    lp = PushFoldLP(dataclasses.replace(PushFoldGame(GameConfig(stack=10)).payoffs, nodes=None))
    lp.compiled()
    (entry,) = tmp_path.glob("lp-*.npz")
    np.savez(tmp_path / ("lp-" + "1" * 32 + ".npz"), magic=np.array("not sflp"))
    (tmp_path / ("lp-" + "2" * 32 + ".npz")).symlink_to(entry)  # never followed, never counted
    assert highs.cached_files() == [entry]
    assert highs.is_entry(entry) and not highs.is_entry(tmp_path / ("lp-" + "1" * 32 + ".npz"))


@pytest.mark.parametrize("which", ["structure", "template"])
@pytest.mark.parametrize("kind", ["fifo", "symlink", "folder"])
def test_an_lp_cache_entry_that_is_not_a_regular_file_is_never_read_or_replaced(monkeypatch, tmp_path, kind, which):
    """A FIFO, a symlink or a folder where the compiled LP would be (a structure's own entry, or the
    template of every structure: sflp.solving.lp.compile_template) is passed over: never waited on (np.load
    of a FIFO blocks), never followed, never replaced; the solve compiles afresh and is right."""
    import threading

    from sflp.core.game import GameConfig, PushFoldGame
    from sflp.solving import highs
    from sflp.solving import lp as lp_module
    from sflp.solving.lp import PushFoldLP

    monkeypatch.setenv("SFLP_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(lp_module, "_LP_CACHE", {})  # this process's compiled LPs: the solve must look on disk
    payoffs = PushFoldGame(GameConfig(stack=10)).payoffs
    monkeypatch.setattr(lp_module, "_TEMPLATES", {})  # this process's copy: looked for on disk
    if which == "template":  # not the package's copy either: the cache's entry is looked for first
        monkeypatch.setattr(lp_module, "shipped_paths", lambda: [])
        entry = highs.entry_path(lp_module.template_key(payoffs))
    else:
        monkeypatch.setattr(lp_module, "template_for", lambda payoffs: None)
        entry = highs.entry_path(PushFoldLP(payoffs).cache_key())
    elsewhere = tmp_path / "elsewhere.npz"
    elsewhere.write_bytes(b"the user's")
    {"fifo": lambda: os.mkfifo(entry), "symlink": lambda: entry.symlink_to(elsewhere),
     "folder": lambda: entry.mkdir()}[kind]()
    before = (stat.S_IFMT(entry.lstat().st_mode), elsewhere.read_bytes())
    answer = {}
    def solve() -> None:
        answer["value"] = sflp.solve(GameConfig(stack=10), exact=True).value_exact

    worker = threading.Thread(target=solve, daemon=True)
    worker.start()
    worker.join(timeout=120)
    assert not worker.is_alive(), f"the solve waited on a {kind} in the cache"
    assert answer["value"] == sflp.solve(GameConfig(stack=10), exact=True).value_exact
    assert (stat.S_IFMT(entry.lstat().st_mode), elsewhere.read_bytes()) == before
