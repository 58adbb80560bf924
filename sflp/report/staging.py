"""A report folder written as one unit: staged beside the target, locked, swapped in at the end.

A chart set is many files that belong together.  :class:`StagedFolder` makes the folder hold
either the complete old set or the complete new set, never a mix:

1. **Check, before any work** (:func:`check_target`).  The target's name must leave room for its
   hidden twins (``.<name>.staging-<token>`` is 18 bytes longer) within the file system's name
   and path limits.  A target that sflp could write but never swap is refused at once, with the
   reason: a mount point (``EBUSY`` at the swap), an immutable or append-only folder, and a
   read-only folder (no write permission for its owner: the old set could not be removed, so
   it is not replaced -- ``chmod u+w`` it, or choose another folder).
2. **Lock.**  An exclusive lock on ``.<name>.lock`` beside the target (:func:`fcntl.flock`, or
   :func:`msvcrt.locking` on Windows, where there is no ``fcntl``) serialises
   runs into the same folder; a second run waits (``on_wait`` is called once so the CLI can say
   so) or, with ``wait=False``, fails with :class:`~sflp.errors.OutputError`.  The lock file is
   opened with ``O_NOFOLLOW`` (a symlink there is refused, never followed), created with
   ``O_EXCL`` and the line ``sflp lock``; only such a file (or an empty one) is taken as a lock,
   and it is removed on release (an acquirer re-checks that the file it locked is still the one
   on disk).
3. **Clean up only what is provably ours.**  Every staging folder holds a marker file
   (:data:`MARKER`) naming its target and carrying the random token of its name.  Holding the
   target's lock -- so no live run can hold a staging folder of this target -- a run removes the
   leftovers of killed runs: a folder whose name is exactly ``.<name>.staging-<token>`` or
   ``.<name>.old-<token>`` (8 hexadecimal digits; no prefix match) and whose marker names this
   target and this token.  Anything else -- ``.<name>.old-backup``, a look-alike without the
   marker, another target's staging folder such as ``.<name>.old-1.staging-<token>`` -- is the
   user's or another run's, and is never touched.
4. **Never touch a file sflp did not write.**  The target may be missing, an empty folder, or an
   earlier sflp report with a valid ``manifest.json`` (:func:`foreign_entries`).  Anything else is
   refused: ``--out ~/Documents`` never deletes a file.  In a report folder, files the manifest
   does not list are the user's: they are carried into the new set (hard links, else copies)
   just before the swap and listed in :attr:`StagedFolder.kept`; a new report file with the name
   of one of them aborts the run instead of replacing it.  A set made of folders (the structure
   atlas's Parquet datasets) lists them in its manifest too (``folders``, see
   :func:`write_manifest`); such a folder must hold exactly the files listed for it, else the
   run is refused.
5. **Stage.**  Every file is written into ``.<name>.staging-<token>`` in the same parent folder;
   temporary files of the libraries that write them (openpyxl's) go into its ``.tmp`` folder
   (:meth:`StagedFolder.temp_folder`), so a full ``TMPDIR`` does not matter and nothing is left
   behind.
6. **Swap.**  On success the marker leaves the staging folder, the staging folder and the
   target are exchanged atomically (``renameat2(RENAME_EXCHANGE)`` on Linux; elsewhere two
   renames with a window of microseconds in which the target is absent but never mixed), the
   marker goes into the folder that now holds the old set, and the old set is deleted.

On any exception -- a bad input found late, a full disk or no free inode, ``KeyboardInterrupt``
from SIGINT or SIGTERM (the CLI turns SIGTERM into the same exception) -- the staging folder is
deleted, folders the run created are removed again if empty, and the target is untouched.
Cleanup and swap run with SIGINT/SIGTERM blocked so that a second signal cannot cut them short.
A run killed with SIGKILL leaves its marked staging folder; the next run into the same target
removes it.

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
import re
import secrets
import shutil
import signal
import stat
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from sflp.atomic import check_name, write_text
from sflp.errors import OutputError
from sflp.report.format import json_text

MANIFEST = "manifest.json"
TEMP_FOLDER = ".tmp"
"""The folder inside a staging folder that holds the writing libraries' temporary files."""
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


def _plain(name) -> bool:
    """A plain file name inside a folder: no ``/`` or ``\\``, not ``.``/``..``, not absolute, not
    hidden, no NUL."""
    return (isinstance(name, str) and bool(name) and name not in (".", "..") and not name.startswith(".")
            and not any(c in name for c in "/\\\0") and not os.path.isabs(name))


def _entry_problems(files, plain, what: str = "") -> list[str]:
    """The problems of a list of file entries whose names pass ``plain``."""
    problems, seen = [], set()
    for entry in files:
        name = entry.get("name") if isinstance(entry, dict) else None
        if not plain(name):
            problems.append(f"entry {what}{name!r:.60} is not a plain file name inside the folder")
        elif name in seen:
            problems.append(f"entry {what}{name!r} is listed twice")
        elif not _is_size(entry.get("bytes")):
            problems.append(f"entry {what}{name!r} has no size in bytes (a whole number)")
        elif not _is_digest(entry.get("sha256")):
            problems.append(f"entry {what}{name!r} has no SHA-256 (64 hexadecimal digits)")
        else:
            seen.add(name)
    return problems


def _inner_path(name) -> bool:
    """A path inside a listed sub-folder: plain names (:func:`_plain`) joined by ``/``."""
    return isinstance(name, str) and all(_plain(part) for part in name.split("/"))


def manifest_problems(manifest: dict) -> list[str]:
    """Why ``manifest`` (an sflp manifest's data) is not valid: its ``files`` must be a list of
    entries whose ``name`` is a plain file name inside the folder -- no ``/`` or ``\\``, not
    ``.``/``..``, not absolute, not hidden, no NUL -- each listed once.

    A manifest may also list sub-folders sflp wrote (``folders``, see :func:`write_manifest`):
    each a plain name (not also a file's) with its own ``files``, whose names are paths inside it
    made of plain names joined by ``/``."""
    files = manifest.get("files")
    if not isinstance(files, list):
        return ["its 'files' is not a list"]
    problems = _entry_problems(files, _plain)
    folders = manifest.get("folders", [])
    if not isinstance(folders, list):
        return problems + ["its 'folders' is not a list"]
    names = {e.get("name") for e in files if isinstance(e, dict)}
    for folder in folders:
        name = folder.get("name") if isinstance(folder, dict) else None
        if not _plain(name):
            problems.append(f"folder {name!r:.60} is not a plain folder name inside the folder")
        elif name in names:
            problems.append(f"folder {name!r} is listed twice")
        elif not isinstance(folder.get("files"), list):
            problems.append(f"folder {name!r} has no list of files")
        else:
            names.add(name)
            problems += _entry_problems(folder["files"], _inner_path, f"{name}/")
    return problems


def listed_folders(manifest: dict) -> dict[str, list[str]]:
    """The sub-folders a valid manifest lists: name -> the paths of its files inside it."""
    return {f["name"]: [e["name"] for e in f["files"]] for f in manifest.get("folders", [])}


def _tree(folder: Path) -> tuple[list[str], list[str]]:
    """``(files, others)`` under ``folder``: the paths (``a/b``) of its regular files, and of
    every entry that is neither a regular file nor a real folder (symlinks included), found
    without following a symlink."""
    files, others = [], []
    for path in sorted(folder.iterdir()):
        inner = path.relative_to(folder).as_posix()
        if path.is_symlink() or not (path.is_dir() or path.is_file()):
            others.append(inner)
        elif path.is_dir():
            below, strange = _tree(path)
            files += [f"{inner}/{p}" for p in below]
            others += [f"{inner}/{p}" for p in strange]
            if not below and not strange:
                others.append(inner)  # an empty folder sflp did not list
        else:
            files.append(inner)
    return files, others


def _folder_problems(target: Path, name: str, listed: list[str]) -> list[str]:
    """Why the listed sub-folder ``name`` of ``target`` is not as its manifest says: a symlink or
    not a folder, or holding anything but exactly its listed files."""
    path = target / name
    if path.is_symlink() or not path.is_dir():
        return [f"folder {name!r} is not a folder in the folder"]
    files, others = _tree(path)
    wanted = set(listed)
    return ([f"{name}/{p}: not a regular file sflp wrote" for p in others]
            + [f"{name}/{p}: not listed in the manifest" for p in files if p not in wanted])


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
    if target.is_symlink():
        raise OutputError(f"{target} is a symlink: sflp puts a set in place of a folder and never writes through a "
                          "symlink; give the folder itself")
    if not target.is_dir():
        raise OutputError(f"{target} exists and is not a folder")
    try:
        entries = sorted(target.iterdir())
    except OSError as exc:
        raise OutputError(f"cannot read {target}: {_reason(exc)}") from None
    marker = target / MARKER
    if marker in entries:  # a swap cut short by SIGKILL leaves sflp's marker in the target
        if not _marked(target, target.name, None):
            raise OutputError(f"{marker} is not sflp's marker (sflp uses that name); rename it")
        entries.remove(marker)
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
    folders = listed_folders(manifest) if not problems else {}
    for name, inner in sorted(folders.items()):  # a sub-folder sflp wrote holds only its files
        if os.path.lexists(target / name):
            problems += _folder_problems(target, name, inner)
    listed |= set(folders)
    if problems:
        raise OutputError(f"{target / MANIFEST} is not a valid sflp manifest ({'; '.join(problems[:3])}); "
                          "sflp will not replace anything there")
    return [p for p in entries if p.name not in listed and p.name != MANIFEST]


def listed_names(target: Path) -> set[str]:
    """The names ``target``'s (valid) manifest lists, with the manifest itself: sflp's files."""
    manifest = read_manifest(target)
    if manifest is None or manifest_problems(manifest):
        return set()
    return {e["name"] for e in manifest["files"]} | set(listed_folders(manifest)) | {MANIFEST}


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


STAGING_EXTRA = len(".") + len(".staging-") + 8
"""How much longer than the target's name its staging folder's name is (``.<name>.staging-<8 hex>``)."""
LONGEST_INNER = 64
"""Room kept in a path for the files inside a staging folder and their temporary twins."""
MARKER = ".sflp-staging"
"""The marker file inside every staging folder: JSON naming the target and the folder's token."""
MARKER_FORMAT = "sflp-staging"
_TOKEN_DIGITS = "0123456789abcdef"


def _immutable(path: Path) -> str | None:
    """``"immutable"`` or ``"append-only"`` when Linux says so of the regular file or folder
    ``path`` (chattr +i/+a), else None (other systems, other kinds of file, or a file system that
    keeps no such flags).  Opened without following a symlink and without blocking."""
    try:
        import fcntl
        import struct
    except ImportError:  # pragma: no cover - not POSIX
        return None
    try:
        kind = stat.S_IFMT(path.lstat().st_mode)
        if kind not in (stat.S_IFREG, stat.S_IFDIR):
            return None
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        flags = struct.unpack("l", fcntl.ioctl(fd, 0x80086601, struct.pack("l", 0)))[0]  # FS_IOC_GETFLAGS
    except OSError:
        return None
    finally:
        os.close(fd)
    if flags & 0x10:  # FS_IMMUTABLE_FL
        return "immutable"
    if flags & 0x20:  # FS_APPEND_FL
        return "append-only"
    return None


def _mount_points() -> set[str]:
    """Every mount point of this process's mount namespace (Linux's ``/proc/self/mountinfo``, whose
    fifth field is the mount point with space, tab, newline and backslash octal-escaped); empty
    where there is no such file."""
    try:
        with open("/proc/self/mountinfo", encoding="utf-8", errors="surrogateescape") as fh:
            lines = fh.read().splitlines()
    except OSError:
        return set()
    points = set()
    for line in lines:
        fields = line.split(" ")
        if len(fields) > 4:
            points.add(re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), fields[4]))
    return points


def _is_mount(path: Path) -> bool:
    """Whether ``path`` is a mount point, a bind mount of a folder of the same file system included
    (which :func:`os.path.ismount` does not see)."""
    if os.path.ismount(path):
        return True
    return os.path.realpath(path) in _mount_points()


def _removal_problem(target: Path, foreign: list[Path]) -> str | None:
    """Why the old set in ``target`` could not be removed after the swap, or the user's entries
    ``foreign`` could not be kept in the new set, or None.  Checked before any work: a file or
    folder flagged immutable or append-only (sflp's files and everything of the user's it keeps),
    a folder of the user's that sflp cannot read (to keep it) or cannot make writable (to remove
    the old copy: it is not this user's).  Folders of the user's without write permission are
    fine: sflp makes the old copy writable to remove it."""
    user = os.geteuid() if hasattr(os, "geteuid") else None
    names = set(p.name for p in foreign)
    for entry in sorted(target.iterdir()):
        todo = [entry]
        while todo:
            path = todo.pop()
            flag = _immutable(path)
            if flag is not None:
                return (f"{path} is {flag} (chattr): sflp could not remove the old set after the swap, so it does "
                        f"not replace {target}; clear the flag or choose another folder")
            if entry.name in names and path.is_dir() and not path.is_symlink():
                if not os.access(path, os.R_OK | os.X_OK):
                    return f"cannot read {path} to keep it in the new set: Permission denied; choose another folder"
                if user not in (None, 0) and path.lstat().st_uid != user and not os.access(path, os.W_OK):
                    return (f"{path} is another user's read-only folder: sflp could not remove the old copy after "
                            f"the swap, so it does not replace {target}")
                try:
                    todo.extend(path.iterdir())
                except OSError as exc:
                    return f"cannot read {path} to keep it in the new set: {_reason(exc)}"
    return None


def _unswappable(target: Path) -> str | None:
    """Why an existing folder ``target`` cannot be replaced by a swap, or None."""
    if _is_mount(target):
        return (f"{target} is a mount point: sflp writes a set beside its folder and swaps the two, which a "
                f"mount point does not allow; write into a folder inside it, e.g. --out {target / 'charts'}")
    flag = _immutable(target)
    if flag is not None:
        return f"{target} is {flag} (chattr): sflp could not replace it; choose another folder"
    mode = target.lstat().st_mode
    if not mode & stat.S_IWUSR or not os.access(target, os.W_OK | os.X_OK):
        return (f"{target} is read-only (mode {stat.filemode(mode)}): sflp would not be able to remove the old "
                f"set, so it does not replace it; make it writable (chmod u+w {target}) or choose another folder")
    return None


def _listed_by_a_set(target: Path) -> str | None:
    """Why ``target`` may not be written: it lies inside a sub-folder that an enclosing sflp set's
    manifest lists as its own (an atlas's ``charts/<structure>/``, a Parquet dataset); writing
    there would replace part of that set behind its manifest's back.  None when it does not."""
    path = Path(os.path.abspath(target))
    for parent in path.parents:
        manifest = read_manifest(parent) if (parent / MANIFEST).is_file() else None
        if manifest is None or manifest_problems(manifest) or not manifest.get("folders"):
            continue
        first = path.relative_to(parent).parts[0]
        if first in listed_folders(manifest):
            return (f"output folder {target} is inside {parent / first}, part of the sflp set {parent} (its "
                    f"manifest lists it): writing there would break that set; choose another folder")
    return None


def check_target(target: Path | str) -> Path:
    """``target`` as a Path if a report can be written there, else :class:`OutputError`.

    Call it before long work: it refuses a target below a file, a name too long for its hidden
    twins, a mount point, an immutable or read-only folder, a symlink as the lock, and a folder
    that holds anything but an earlier sflp report (the same rules :class:`StagedFolder` applies),
    and creates nothing.
    """
    target = Path(target)
    if not target.name or target.name in (".", ".."):
        raise OutputError(f"output folder {str(target)!r} has no name to write a report under")
    check_name(target, STAGING_EXTRA, "output folder", inner=LONGEST_INNER)
    for folder in (target, *target.parents):
        if folder.exists():
            if folder != target and not folder.is_dir():
                raise OutputError(f"output folder {target} cannot be created: {folder} is a file")
            break
    inside = _listed_by_a_set(target)
    if inside is not None:
        raise OutputError(inside)
    foreign = foreign_entries(target)
    if target.is_dir():
        why = _unswappable(target) or _removal_problem(target, foreign)
        if why is not None:
            raise OutputError(why)
    lock = target.parent / f".{target.name}.lock"
    if lock.is_symlink():
        raise OutputError(f"{lock} is a symlink, not sflp's lock file; sflp will not follow it (remove it if it "
                          "is stale)")
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


LOCK_TEXT = b"sflp lock\n"
"""What a lock file sflp creates holds (an empty one is taken too: a creator that has not yet
written, or an older sflp)."""


class _Lock:
    def __init__(self, path: Path):
        self.path = path
        self.fd: int | None = None

    def _open(self) -> int:
        """An open descriptor of the lock file: created with ``O_EXCL`` (and :data:`LOCK_TEXT`), or
        an existing regular file that holds :data:`LOCK_TEXT` or nothing; never through a symlink."""
        nofollow = getattr(os, "O_NOFOLLOW", 0)
        cloexec = getattr(os, "O_CLOEXEC", 0)
        for _ in range(100):  # a holder may remove the file between our two opens
            try:
                fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_EXCL | nofollow | cloexec, 0o644)
            except FileExistsError:
                pass
            except OSError as exc:
                raise OutputError(f"cannot lock {self.path}: {_reason(exc)}") from None
            else:
                try:
                    os.write(fd, LOCK_TEXT)
                except OSError as exc:
                    os.close(fd)
                    raise OutputError(f"cannot lock {self.path}: {_reason(exc)}") from None
                return fd
            try:
                fd = os.open(self.path, os.O_RDWR | nofollow | cloexec | getattr(os, "O_NONBLOCK", 0))
            except FileNotFoundError:
                continue
            except OSError as exc:
                if self.path.is_symlink():
                    raise OutputError(f"{self.path} is a symlink, not sflp's lock file; sflp will not follow it "
                                      "(remove it if it is stale)") from None
                raise OutputError(f"cannot lock {self.path}: {_reason(exc)}") from None
            try:
                ours = stat.S_ISREG(os.fstat(fd).st_mode) and os.pread(fd, 64, 0) in (b"", LOCK_TEXT)
            except OSError:
                ours = False
            if not ours:
                os.close(fd)
                raise OutputError(f"{self.path} is not sflp's lock file (sflp's holds the line 'sflp lock'); "
                                  "sflp will not use or remove it: move it away")
            return fd
        raise OutputError(f"cannot lock {self.path}: it keeps disappearing")  # pragma: no cover

    def acquire(self, wait: bool, on_wait: Callable[[], None] | None) -> None:
        told = False
        while True:
            fd = self._open()
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
                    same = os.lstat(self.path).st_ino == os.fstat(fd).st_ino
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
            if os.lstat(self.path).st_ino == os.fstat(self.fd).st_ino:  # still the file we hold
                self.path.unlink()
        except OSError:
            pass
        os.close(self.fd)
        self.fd = None


# ---------------------------------------------------------------- the staged folder


def _token_of(name: str, target: str, kind: str) -> str | None:
    """The token of ``name`` if it is exactly ``.<target>.<kind>-<8 hex digits>``, else None."""
    prefix = f".{target}.{kind}-"
    token = name[len(prefix):]
    if name.startswith(prefix) and len(token) == 8 and all(c in _TOKEN_DIGITS for c in token):
        return token
    return None


def _write_marker(folder: Path, target: str, token: str) -> None:
    """Create :data:`MARKER` in ``folder`` (``O_EXCL``, ``O_NOFOLLOW``): this staging folder is sflp's."""
    text = json_text({"format": MARKER_FORMAT, "target": target, "token": token, "pid": os.getpid()}) + "\n"
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(folder / MARKER, flags, 0o644)
    try:
        os.write(fd, text.encode("utf-8"))
    finally:
        os.close(fd)


def _marked(folder: Path, target: str, token: str | None) -> bool:
    """Whether ``folder`` is a real folder (not a symlink) whose :data:`MARKER` names ``target`` and
    ``token`` (any token of 8 hexadecimal digits when None): the proof that sflp made it for this
    target."""
    from sflp.errors import ConfigError
    from sflp.inputs import read_json

    try:
        if not stat.S_ISDIR(folder.lstat().st_mode):
            return False
        data = read_json(folder / MARKER, str(folder / MARKER), max_bytes=4096, follow_symlinks=False)
    except (OSError, ConfigError):
        return False
    if not isinstance(data, dict) or data.get("format") != MARKER_FORMAT or data.get("target") != target:
        return False
    found = data.get("token")
    if token is None:
        return isinstance(found, str) and len(found) == 8 and all(c in _TOKEN_DIGITS for c in found)
    return found == token


def _unlink_quietly(path: Path) -> None:
    try:
        path.unlink()
    except OSError:
        pass


def remove_marked(folder: Path) -> bool:
    """Remove the sflp folder ``folder`` (a staging folder or an old set), its marker last, so that
    what cannot be removed now stays provably sflp's for a later run.  A folder inside it without
    write permission (a read-only folder of the user's, carried into the new set) is made
    writable first.  Returns whether the folder is gone."""
    def retry(function, path, exc_info):
        parent = os.path.dirname(path)
        try:
            os.chmod(parent, stat.S_IMODE(os.lstat(parent).st_mode) | stat.S_IWUSR | stat.S_IXUSR)
            function(path)
        except OSError:
            pass

    try:
        entries = [e for e in folder.iterdir() if e.name != MARKER]
    except OSError:
        return False
    for entry in entries:
        if entry.is_dir() and not entry.is_symlink():
            try:
                os.chmod(entry, stat.S_IMODE(entry.lstat().st_mode) | stat.S_IWUSR | stat.S_IXUSR | stat.S_IRUSR)
            except OSError:
                pass
            shutil.rmtree(entry, onerror=retry)
        else:
            _unlink_quietly(entry)
    try:
        if any(e.name != MARKER for e in folder.iterdir()):
            return False
        _unlink_quietly(folder / MARKER)
        folder.rmdir()
    except OSError:
        return False
    return True


def leftovers(parent: Path, target: str) -> list[Path]:
    """The staging and old folders of ``target`` in ``parent`` that sflp provably made (see the
    module doc, step 3); call it only while holding the target's lock."""
    found = []
    try:
        names = sorted(os.listdir(parent))
    except OSError:
        return []
    for name in names:
        for kind in ("staging", "old"):
            token = _token_of(name, target, kind)
            if token is not None and _marked(parent / name, target, token):
                found.append(parent / name)
    return found


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
        self.name = name
        self.stage: Path | None = None
        self.token = ""
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

    def _make_stage(self) -> None:
        token = secrets.token_hex(4)
        stage = self.parent / f".{self.name}.staging-{token}"
        try:
            stage.mkdir()
            self.stage, self.token = stage, token
            _write_marker(stage, self.name, token)
            (stage / TEMP_FOLDER).mkdir()
        except OSError as exc:
            raise OutputError(f"cannot write {self.target}: {_reason(exc)} (while creating its staging folder "
                              f"{stage.name})") from None

    def temp_folder(self) -> Path:
        """The folder inside the staging folder for the temporary files of the libraries that
        write the set (``tempfile.tempdir`` while they run): removed with the staging folder."""
        assert self.stage is not None
        return self.stage / TEMP_FOLDER

    def __enter__(self) -> Path:
        check_target(self.target)
        with signals_deferred():
            self._make_parent()
        try:
            self.lock.acquire(self.wait, self.on_wait)
            with signals_deferred():
                for old in leftovers(self.parent, self.name):
                    remove_marked(old)
                stale = self.target / MARKER  # a swap cut short: sflp's marker left in the target
                if self.target.is_dir() and not stale.is_symlink() and _marked(self.target, self.name, None):
                    stale.unlink()
            self.foreign = foreign_entries(self.target)
            if self.target.is_dir():  # the checks again, holding the lock
                why = _unswappable(self.target) or _removal_problem(self.target, self.foreign)
                if why is not None:
                    raise OutputError(why)
            with signals_deferred():
                self._make_stage()
        except BaseException:
            self._abort()
            raise
        return self.stage

    # -- tear-down

    def _abort(self) -> None:
        with signals_deferred():
            if self.stage is not None:
                remove_marked(self.stage)  # what cannot go now stays marked, for the next run
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
        with signals_deferred():
            try:
                shutil.rmtree(stage / TEMP_FOLDER)
            except OSError as exc:
                raise OutputError(f"cannot write {self.target}: {_reason(exc)}") from None
            # the user's entries as they are now (files added while the run worked are kept too)
            self.foreign = foreign_entries(self.target)
            listed = listed_names(self.target)
            clash = sorted(p.name for p in self.foreign if os.path.lexists(stage / p.name))
            if clash:
                raise OutputError(
                    f"{self.target / clash[0]} was not written by sflp (its manifest does not list it) and the new "
                    "report has a file of that name; move it away or choose another folder. Nothing was changed"
                )
            try:  # the user's files go into the new set before the swap; their originals stay until then
                for entry in self.foreign:
                    _carry(entry, stage)
            except OSError as exc:
                raise OutputError(f"cannot keep {entry} in the new report: {_reason(exc)}") from None
            try:
                os.chmod(stage, 0o777 & ~_umask())
                if self.target.exists():  # the folder that becomes the old set is marked before the swap
                    _write_marker(self.target, self.name, self.token)
            except OSError as exc:
                raise OutputError(f"cannot write {self.target}: {_reason(exc)}") from None
            try:
                old = self._swap(stage)
            except OSError as exc:
                _unlink_quietly(self.target / MARKER)
                raise OutputError(f"cannot move the new report into {self.target}: {_reason(exc)}") from None
            _unlink_quietly(self.target / MARKER)  # the staging folder's marker came along
            self.stage = None
            if old is not None:
                carried = {p.name for p in self.foreign}
                late = [e for e in sorted(old.iterdir()) if e.name not in listed | carried | {MARKER}]
                if self._rescue(late):  # files the user added in the last moment: into the new set
                    remove_marked(old)
            self.kept = [p.name for p in self.foreign]
            self.lock.release()
            self._drop_created()  # after the lock: its file may be reached through one of them

    def _swap(self, stage: Path) -> Path | None:
        """Put ``stage`` in the target's place; the old set's folder (marked), or None if there was none."""
        if not self.target.exists():
            os.rename(stage, self.target)
            return None
        if exchange(stage, self.target):
            return stage
        old = self.parent / f".{self.name}.old-{self.token}"
        os.rename(self.target, old)
        try:
            os.rename(stage, self.target)
        except OSError:
            os.rename(old, self.target)  # the old set back in its place
            raise
        return old

    def _rescue(self, late: list[Path]) -> bool:
        """Move entries the user put into the target after sflp last looked (between that look and
        the swap: they are in the old set now) into the new set; False (the old set is then kept,
        marked, and said on stderr) when one cannot go there."""
        ok = True
        for entry in late:
            try:
                if os.path.lexists(self.target / entry.name):
                    raise FileExistsError(errno.EEXIST, "the new report has a file of that name")
                os.rename(entry, self.target / entry.name)
            except OSError as exc:
                ok = False
                print(f"sflp: {entry.name} appeared in {self.target} during the swap and could not join the new "
                      f"set ({_reason(exc)}); it is in {entry.parent}", file=sys.stderr)
        return ok

    def _drop_created(self) -> None:
        """Remove the folders this run created that the target does not live in (``--out a/../set``
        creates ``a`` to reach ``set``), if empty; the others are the target's own parents."""
        real = Path(os.path.realpath(self.target))
        keep = {str(p) for p in (real, *real.parents)}
        for folder in reversed(self.created):
            if os.path.realpath(folder) not in keep:
                try:
                    folder.rmdir()
                except OSError:
                    pass
        self.created = []

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


def _file_entry(path: Path, name: str, known: dict[str, str]) -> dict:
    return {"name": name, "bytes": path.stat().st_size, "sha256": known.get(name) or file_sha256(path)}


def write_manifest(folder: Path | str, info: dict, known: dict[str, str] | None = None, *,
                   folders: bool = False) -> Path:
    """Write ``manifest.json``: ``info`` plus every file of ``folder`` with its size and SHA-256.

    ``known`` maps file names to digests already computed while writing (large streamed files).
    With ``folders`` the sub-folders are listed too (``folders``: each with the files under it,
    named by their paths inside it, ``structure=a/part-0.parquet``; sorted), for a set made of
    folders such as the structure atlas's hive-partitioned Parquet datasets; without it (every
    chart set) a sub-folder is not the set's and the manifest has no ``folders``.
    """
    folder = Path(folder)
    known = known or {}
    files, subfolders = [], []
    for path in sorted(folder.iterdir(), key=lambda p: p.name):
        if path.name == MANIFEST or path.name.startswith("."):
            continue
        if path.is_file():
            files.append(_file_entry(path, path.name, known))
        elif folders and path.is_dir() and not path.is_symlink():
            inner, _ = _tree(path)
            subfolders.append({"name": path.name, "files": [
                _file_entry(path / name, name, {}) for name in inner]})
    manifest = {"format": MANIFEST_FORMAT, "format_version": 1, **info, "files": files,
                **({"folders": subfolders} if folders else {})}
    return write_text(folder / MANIFEST, json_text(manifest, indent=2) + "\n")


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
    entries = [(e["name"], e) for e in manifest["files"]]
    for sub in manifest.get("folders", []):
        name = sub["name"]
        listed.add(name)
        path = folder / name
        if path.is_symlink() or not path.is_dir():
            problems.append(f"{name}: a symlink, not a folder sflp wrote" if path.is_symlink() else
                            f"{name}: listed in the manifest as a folder but missing")
            continue
        files, others = _tree(path)
        inner = {e["name"] for e in sub["files"]}
        problems += [f"{name}/{p}: not a regular file sflp wrote" for p in others]
        problems += [f"{name}/{p}: not listed in the manifest" for p in files if p not in inner]
        entries += [(f"{name}/{e['name']}", e) for e in sub["files"]]
    for name, entry in entries:
        listed.add(name)
        path = folder / name
        if any(folder.joinpath(*name.split("/")[:k]).is_symlink() for k in range(1, name.count("/") + 2)):
            problems.append(f"{name}: a symlink, not a file sflp wrote")
        elif not path.is_file():
            problems.append(f"{name}: listed in the manifest but missing")
        elif path.stat().st_size != entry["bytes"] or file_sha256(path) != entry["sha256"]:
            problems.append(f"{name}: SHA-256 differs from the manifest")
    for path in sorted(folder.iterdir()):
        if path.name not in listed and path.name != MANIFEST:
            problems.append(f"{path.name}: not listed in the manifest")
    return problems
