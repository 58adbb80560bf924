"""A report folder written as one unit: staged beside the target, locked, swapped in at the end.

A chart set is many files that belong together.  :class:`StagedFolder` makes the folder hold
either the complete old set or the complete new set, never a mix:

1. **Lock.**  An exclusive lock on ``.<name>.lock`` beside the target (:func:`fcntl.flock`, or
   :func:`msvcrt.locking` on Windows, where there is no ``fcntl``) serialises
   runs into the same folder; a second run waits (``on_wait`` is called once so the CLI can say
   so) or, with ``wait=False``, fails with :class:`~sflp.errors.OutputError`.  The lock file is
   removed on release (an acquirer re-checks that the file it locked is still the one on disk).
2. **Clean up.**  Holding the lock, leftovers of killed runs (``.<name>.staging-*``,
   ``.<name>.old-*``) are removed.
3. **Never touch a file sflp did not write.**  The target may be missing, an empty folder, or an
   earlier sflp report with a valid ``manifest.json`` (:func:`foreign_entries`).  Anything else is
   refused: ``--out ~/Documents`` never deletes a file.  In a report folder, files the manifest
   does not list are the user's: they are carried into the new set (hard links, else copies)
   just before the swap and listed in :attr:`StagedFolder.kept`; a new report file with the name
   of one of them aborts the run instead of replacing it.
4. **Stage.**  Every file is written into ``.<name>.staging-<random>`` in the same parent folder.
5. **Swap.**  On success the staging folder and the target are exchanged atomically
   (``renameat2(RENAME_EXCHANGE)`` on Linux; elsewhere two renames with a window of
   microseconds in which the target is absent but never mixed), then the old set is deleted.

On any exception -- a bad input found late, a full disk, ``KeyboardInterrupt`` from SIGINT or
SIGTERM (the CLI turns SIGTERM into the same exception) -- the staging folder is deleted, folders
the run created are removed again if empty, and the target is untouched.  Cleanup and swap run
with SIGINT/SIGTERM blocked so that a second signal cannot cut them short.

>>> import tempfile, pathlib
>>> parent = pathlib.Path(tempfile.mkdtemp())
>>> with StagedFolder(parent / "set") as stage:
...     _ = (stage / "values.csv").write_text("stack\\n")
>>> sorted(p.name for p in parent.iterdir()), sorted(p.name for p in (parent / "set").iterdir())
(['set'], ['values.csv'])
"""

from __future__ import annotations

import ctypes
import errno
import hashlib
import os
import secrets
import shutil
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from sflp.errors import OutputError
from sflp.report.format import json_text

MANIFEST = "manifest.json"
MANIFEST_FORMAT = "sflp-report"
_SIGNALS = {signal.SIGINT, signal.SIGTERM}


@contextmanager
def signals_deferred() -> Iterator[None]:
    """Hold SIGINT and SIGTERM until the block is done (they are delivered right after)."""
    if not hasattr(signal, "pthread_sigmask"):  # pragma: no cover - not POSIX
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, _SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _reason(exc: OSError) -> str:
    return exc.strerror or exc.__class__.__name__


# ---------------------------------------------------------------- atomic exchange


def _renameat2():
    try:
        libc = ctypes.CDLL(None, use_errno=True)  # the C library this process already has loaded
        fn = libc.renameat2
    except (OSError, AttributeError, TypeError):
        return None
    fn.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    fn.restype = ctypes.c_int
    return fn


_AT_FDCWD = -100
_RENAME_EXCHANGE = 2
_RENAMEAT2 = _renameat2() if os.name == "posix" else None


def exchange(a: Path, b: Path) -> bool:
    """Atomically swap two existing paths (Linux); False when the system cannot."""
    if _RENAMEAT2 is None:
        return False
    rc = _RENAMEAT2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE)
    if rc == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP):
        return False
    raise OSError(err, os.strerror(err), str(b))


# ---------------------------------------------------------------- what may be replaced


MAX_MANIFEST_BYTES = 16 * 1024 * 1024
"""A ``manifest.json`` larger than this is not sflp's (a set of 100,000 stacks has about 40 files)."""


def read_manifest(folder: Path | str) -> dict | None:
    """The folder's ``manifest.json`` if it is an sflp manifest, else None.

    It is read as untrusted input (:mod:`sflp.inputs`): a regular file, not a symlink, not a FIFO
    (never waited on), at most :data:`MAX_MANIFEST_BYTES`, strict JSON."""
    from sflp.errors import ConfigError
    from sflp.inputs import read_json

    path = Path(folder) / MANIFEST
    try:
        data = read_json(path, str(path), max_bytes=MAX_MANIFEST_BYTES, follow_symlinks=False)
    except ConfigError:
        return None
    return data if isinstance(data, dict) and data.get("format") == MANIFEST_FORMAT else None


def manifest_problems(manifest: dict) -> list[str]:
    """Why ``manifest`` (an sflp manifest's data) is not valid: its ``files`` must be a list of
    entries whose ``name`` is a plain file name inside the folder -- no ``/`` or ``\\``, not
    ``.``/``..``, not absolute, not hidden, no NUL -- each listed once."""
    files = manifest.get("files")
    if not isinstance(files, list):
        return ["its 'files' is not a list"]
    problems, seen = [], set()
    for entry in files:
        name = entry.get("name") if isinstance(entry, dict) else None
        if (not isinstance(name, str) or not name or name in (".", "..") or name.startswith(".")
                or any(c in name for c in "/\\\0") or os.path.isabs(name)):
            problems.append(f"entry {name!r:.60} is not a plain file name inside the folder")
        elif name in seen:
            problems.append(f"entry {name!r} is listed twice")
        elif not _is_size(entry.get("bytes")):
            problems.append(f"entry {name!r} has no size in bytes (a whole number)")
        elif not _is_digest(entry.get("sha256")):
            problems.append(f"entry {name!r} has no SHA-256 (64 hexadecimal digits)")
        else:
            seen.add(name)
    return problems


def _is_size(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 1 << 63


def _is_digest(value) -> bool:
    return isinstance(value, str) and len(value) == 64 and all(c in "0123456789abcdef" for c in value)


def foreign_entries(target: Path) -> list[Path]:
    """The entries of an existing report folder that sflp did not write, or :class:`OutputError`.

    The output-folder contract: sflp removes or replaces only files its own manifest lists.
    A missing or empty folder is fine (nothing foreign).  A non-empty folder needs a valid sflp
    ``manifest.json``; a folder without one is refused whatever it holds -- only the manifest
    proves which files sflp wrote, and mixing a report into an unrelated folder (``--out
    ~/Documents``) is never what was meant.  A listed name that is now a symlink or a folder
    makes the manifest invalid too.  Everything else in the folder is the user's: a new run keeps
    it (:class:`StagedFolder` carries it over into the new set)."""
    if not target.exists() and not target.is_symlink():
        return []
    if target.is_symlink() or not target.is_dir():
        raise OutputError(f"{target} exists and is not a folder")
    entries = sorted(target.iterdir())
    if not entries:
        return []
    manifest = read_manifest(target)
    if manifest is None:
        raise OutputError(
            f"{target} is not an sflp report folder: it holds {entries[0].name!r} and no sflp manifest.json, "
            "so sflp cannot tell which files it wrote; choose a new or empty folder, or one sflp wrote"
        )
    problems = manifest_problems(manifest)
    listed = {e["name"] for e in manifest["files"]} if not problems else set()
    for name in sorted(listed):
        path = target / name
        if path.is_symlink() or (path.exists() and not path.is_file()):
            problems.append(f"entry {name!r} is not a regular file in the folder")
    if problems:
        raise OutputError(f"{target / MANIFEST} is not a valid sflp manifest ({'; '.join(problems[:3])}); "
                          "sflp will not replace anything there")
    return [p for p in entries if p.name not in listed and p.name != MANIFEST]


def _carry(entry: Path, into: Path) -> None:
    """Put a copy of the user's ``entry`` into ``into`` (a hard link where possible: no bytes copied)."""
    dest = into / entry.name
    if entry.is_symlink():
        os.symlink(os.readlink(entry), dest)
    elif entry.is_dir():
        shutil.copytree(entry, dest, symlinks=True, copy_function=_link_or_copy)
    else:
        _link_or_copy(entry, dest)


def _link_or_copy(src, dst) -> None:
    try:
        os.link(src, dst, follow_symlinks=False)
    except OSError:
        shutil.copy2(src, dst, follow_symlinks=False)


def check_target(target: Path | str) -> Path:
    """``target`` as a Path if a report can be written there, else :class:`OutputError`.

    Call it before long work: it refuses a target below a file and a folder that holds anything
    but an earlier sflp report (the same rules :class:`StagedFolder` applies), and creates nothing.
    """
    target = Path(target)
    for folder in (target, *target.parents):
        if folder.exists():
            if folder != target and not folder.is_dir():
                raise OutputError(f"output folder {target} cannot be created: {folder} is a file")
            break
    foreign_entries(target)
    return target


# ---------------------------------------------------------------- the lock


def _try_lock(fd: int) -> bool:
    """Take the exclusive lock on ``fd`` if it is free (True), else False.  ``fcntl`` where it
    exists (POSIX), ``msvcrt`` on Windows: imported here, so that the package imports on both."""
    try:
        import fcntl
    except ImportError:
        fcntl = None
    if fcntl is not None:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True
    try:
        import msvcrt
    except ImportError:
        raise OutputError("cannot lock the report folder: this system has neither fcntl nor msvcrt") from None
    try:
        msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)  # the first byte of the lock file stands for the lock
    except OSError:
        return False
    return True


def _wait_lock(fd: int) -> None:
    """Take the exclusive lock on ``fd``, waiting for it."""
    try:
        import fcntl
    except ImportError:
        fcntl = None
    if fcntl is not None:
        fcntl.flock(fd, fcntl.LOCK_EX)
        return
    import time

    while not _try_lock(fd):  # msvcrt's own blocking mode gives up after 10 s
        time.sleep(0.05)


class _Lock:
    def __init__(self, path: Path):
        self.path = path
        self.fd: int | None = None

    def acquire(self, wait: bool, on_wait: Callable[[], None] | None) -> None:
        told = False
        while True:
            try:
                fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            except OSError as exc:
                raise OutputError(f"cannot lock {self.path}: {_reason(exc)}") from None
            try:
                if not _try_lock(fd):
                    if not wait:
                        raise OutputError(
                            f"another sflp run is writing {self.path.parent / self.path.name[1:-5]} "
                            f"(lock {self.path}); try again when it is done"
                        ) from None
                    if on_wait is not None and not told:
                        on_wait()
                        told = True
                    _wait_lock(fd)
                try:
                    same = os.stat(self.path).st_ino == os.fstat(fd).st_ino
                except FileNotFoundError:
                    same = False
            except BaseException:
                os.close(fd)
                raise
            if same:
                self.fd = fd
                return
            os.close(fd)  # the holder removed the file after we opened it: lock the new one

    def release(self) -> None:
        if self.fd is None:
            return
        try:
            self.path.unlink()
        except OSError:
            pass
        os.close(self.fd)
        self.fd = None


# ---------------------------------------------------------------- the staged folder


class StagedFolder:
    """Context manager: yields a staging folder; on success it becomes ``target`` (see module doc)."""

    def __init__(self, target: Path | str, *, wait: bool = True, on_wait: Callable[[], None] | None = None):
        self.target = Path(target)
        self.wait = wait
        self.on_wait = on_wait
        self.parent = self.target.parent
        name = self.target.name
        if not name or name in (".", ".."):
            raise OutputError(f"output folder {target!s} has no name to write a report under")
        self.prefix = f".{name}."
        self.stage: Path | None = None
        self.created: list[Path] = []
        self.foreign: list[Path] = []
        self.kept: list[str] = []
        """Names of the user's files carried over into the new set (after a successful run)."""
        self.lock = _Lock(self.parent / f".{name}.lock")

    # -- set-up

    def _make_parent(self) -> None:
        missing = []
        for folder in (self.parent, *self.parent.parents):
            if folder.exists():
                if not folder.is_dir():
                    raise OutputError(f"output folder {self.target} cannot be created: {folder} is a file")
                break
            missing.append(folder)
        for folder in reversed(missing):
            try:
                folder.mkdir()
            except FileExistsError:
                continue
            except OSError as exc:
                raise OutputError(f"output folder {self.target} cannot be created: {_reason(exc)}") from None
            self.created.append(folder)
        if not os.access(self.parent, os.W_OK | os.X_OK):
            raise OutputError(f"output folder {self.target} cannot be written: {self.parent} is not writable")

    def _leftovers(self) -> list[Path]:
        return [
            p for p in self.parent.iterdir()
            if p.name.startswith(self.prefix) and p.name[len(self.prefix):].startswith(("staging-", "old-"))
        ]

    def __enter__(self) -> Path:
        with signals_deferred():
            self._make_parent()
        try:
            self.lock.acquire(self.wait, self.on_wait)
            with signals_deferred():
                for old in self._leftovers():
                    shutil.rmtree(old, ignore_errors=True)
            self.foreign = foreign_entries(self.target)
            stage = self.parent / f"{self.prefix}staging-{secrets.token_hex(4)}"
            with signals_deferred():
                stage.mkdir()
                self.stage = stage
        except BaseException:
            self._abort()
            raise
        return stage

    # -- tear-down

    def _abort(self) -> None:
        with signals_deferred():
            if self.stage is not None:
                shutil.rmtree(self.stage, ignore_errors=True)
                self.stage = None
            self.lock.release()
            for folder in reversed(self.created):  # innermost first
                try:
                    folder.rmdir()
                except OSError:
                    break

    def _commit(self) -> None:
        stage = self.stage
        assert stage is not None
        clash = sorted(p.name for p in self.foreign if (stage / p.name).exists() or (stage / p.name).is_symlink())
        if clash:
            raise OutputError(
                f"{self.target / clash[0]} was not written by sflp (its manifest does not list it) and the new "
                "report has a file of that name; move it away or choose another folder. Nothing was changed"
            )
        with signals_deferred():
            try:  # the user's files go into the new set before the swap; their originals stay until then
                for entry in self.foreign:
                    _carry(entry, stage)
            except OSError as exc:
                raise OutputError(f"cannot keep {entry} in the new report: {_reason(exc)}") from None
            os.chmod(stage, 0o777 & ~_umask())
            try:
                if self.target.exists():
                    if not exchange(stage, self.target):
                        old = self.parent / f"{self.prefix}old-{secrets.token_hex(4)}"
                        os.rename(self.target, old)
                        os.rename(stage, self.target)
                        stage = old
                else:
                    os.rename(stage, self.target)
                    stage = None
            except OSError as exc:
                raise OutputError(f"cannot move the new report into {self.target}: {_reason(exc)}") from None
            if stage is not None:  # now the old set
                shutil.rmtree(stage, ignore_errors=True)
            self.stage = None
            self.created = []
            self.kept = [p.name for p in self.foreign]
            self.lock.release()

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is None:
            try:
                self._commit()
            except BaseException:
                self._abort()
                raise
        else:
            stage = self.stage
            self._abort()
            if isinstance(exc, OutputError) and stage is not None and str(stage) in str(exc):
                # name the file the user asked for, not its hidden staging twin
                raise OutputError(str(exc).replace(str(stage), str(self.target))) from None


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


# ---------------------------------------------------------------- the manifest


def file_sha256(path: Path | str) -> str:
    """SHA-256 of a file, read in 1 MiB blocks."""
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def write_manifest(folder: Path | str, info: dict, known: dict[str, str] | None = None) -> Path:
    """Write ``manifest.json``: ``info`` plus every file of ``folder`` with its size and SHA-256.

    ``known`` maps file names to digests already computed while writing (large streamed files).
    """
    folder = Path(folder)
    known = known or {}
    files = []
    for path in sorted(folder.iterdir(), key=lambda p: p.name):
        if path.name == MANIFEST or path.name.startswith(".") or not path.is_file():
            continue
        files.append({
            "name": path.name,
            "bytes": path.stat().st_size,
            "sha256": known.get(path.name) or file_sha256(path),
        })
    manifest = {"format": MANIFEST_FORMAT, "format_version": 1, **info, "files": files}
    path = folder / MANIFEST
    path.write_text(json_text(manifest, indent=2) + "\n", encoding="utf-8")
    return path


def check_manifest(folder: Path | str) -> list[str]:
    """Problems of a report folder against its manifest (empty list: every file matches).

    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "a.csv").write_text("x\\n"); _ = write_manifest(d, {})
    >>> check_manifest(d)
    []
    >>> _ = (d / "a.csv").write_text("y\\n"); check_manifest(d)
    ['a.csv: SHA-256 differs from the manifest']
    """
    if not isinstance(folder, (str, os.PathLike)):
        from sflp.errors import ArgumentTypeError

        raise ArgumentTypeError(f"check_manifest needs a folder path, not {type(folder).__name__} {folder!r:.40}")
    folder = Path(folder)
    manifest = read_manifest(folder)
    if manifest is None:
        return [f"{folder / MANIFEST}: missing or not an sflp manifest"]
    invalid = manifest_problems(manifest)
    if invalid:  # never follow a name out of the folder
        return [f"{folder / MANIFEST}: not a valid sflp manifest: {p}" for p in invalid]
    problems = []
    listed = set()
    for entry in manifest["files"]:
        name = entry["name"]
        listed.add(name)
        path = folder / name
        if path.is_symlink():
            problems.append(f"{name}: a symlink, not a file sflp wrote")
        elif not path.is_file():
            problems.append(f"{name}: listed in the manifest but missing")
        elif path.stat().st_size != entry["bytes"] or file_sha256(path) != entry["sha256"]:
            problems.append(f"{name}: SHA-256 differs from the manifest")
    for path in sorted(folder.iterdir()):
        if path.name not in listed and path.name != MANIFEST:
            problems.append(f"{path.name}: not listed in the manifest")
    return problems
