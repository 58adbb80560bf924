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
4. **Never touch a file sflp did not write, nor a set of another kind.**  The target may be
   missing, an empty folder, or an earlier sflp set *of the kind this run writes* (the ``kind``
   argument, one of :data:`~sflp.output.target.KINDS`), proved by a valid ``manifest.json``
   (:func:`foreign_entries`, :func:`~sflp.output.target.kind_problem`).  Anything else is
   refused, before any work and again when the set is swapped in: ``--out ~/Documents`` never
   deletes a file, and a chart set written into a structure atlas's folder never replaces it.
   In a report folder, files the manifest does not list are the user's: they are carried into
   the new set (hard links, else copies) just before the swap and listed in
   :attr:`StagedFolder.kept`; a new report file with the name of one of them aborts the run
   instead of replacing it.  A set made of folders (the structure
   atlas's Parquet datasets) lists them in its manifest too (``folders``, see
   :func:`write_manifest`); such a folder must hold exactly the files listed for it, else the
   run is refused.
5. **Stage.**  Every file is written into ``.<name>.staging-<token>`` in the same parent folder;
   temporary files of the libraries that write them (if any) go into its ``.tmp`` folder
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
>>> with StagedFolder(parent / "set", "chart-set") as stage:
...     _ = (stage / "values.csv").write_text("stack\\n")
>>> sorted(p.name for p in parent.iterdir()), sorted(p.name for p in (parent / "set").iterdir())
(['set'], ['values.csv'])
"""

from __future__ import annotations

import ctypes
import errno
import os
import secrets
import shutil
import signal
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from sflp.errors import OutputError
from sflp.output.lock import TargetLock
from sflp.output.manifest import listed_names, read_manifest, reason_of
from sflp.output.marker import MARKER, is_marked, leftovers, remove_marked, unlink_quietly, write_marker
from sflp.output.target import check_kind, check_target, foreign_entries, kind_problem, removal_problem, unswappable

TEMP_FOLDER = ".tmp"
"""The folder inside a staging folder that holds the writing libraries' temporary files."""
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


class StagedFolder:
    """Context manager: yields a staging folder; on success it becomes ``target`` (see module doc).

    ``kind`` is the kind of set written (one of :data:`~sflp.output.target.KINDS`, the ``"kind"``
    its manifest will name): ``target`` is replaced only if it holds a set of that kind."""

    def __init__(self, target: Path | str, kind: str, *, wait: bool = True,
                 on_wait: Callable[[], None] | None = None):
        self.kind = check_kind(kind)
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
        self.lock = TargetLock(self.parent / f".{name}.lock")

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
                raise OutputError(f"output folder {self.target} cannot be created: {reason_of(exc)}") from None
            self.created.append(folder)
        if not os.access(self.parent, os.W_OK | os.X_OK):
            raise OutputError(f"output folder {self.target} cannot be written: {self.parent} is not writable")

    def _make_stage(self) -> None:
        token = secrets.token_hex(4)
        stage = self.parent / f".{self.name}.staging-{token}"
        try:
            stage.mkdir()
            self.stage, self.token = stage, token
            write_marker(stage, self.name, token)
            (stage / TEMP_FOLDER).mkdir()
        except OSError as exc:
            raise OutputError(f"cannot write {self.target}: {reason_of(exc)} (while creating its staging folder "
                              f"{stage.name})") from None

    def temp_folder(self) -> Path:
        """The folder inside the staging folder for the temporary files of the libraries that
        write the set (``tempfile.tempdir`` while they run): removed with the staging folder."""
        assert self.stage is not None
        return self.stage / TEMP_FOLDER

    def __enter__(self) -> Path:
        check_target(self.target, self.kind)
        with signals_deferred():
            self._make_parent()
        try:
            self.lock.acquire(self.wait, self.on_wait)
            with signals_deferred():
                for old in leftovers(self.parent, self.name):
                    remove_marked(old)
                stale = self.target / MARKER  # a swap cut short: sflp's marker left in the target
                if self.target.is_dir() and not stale.is_symlink() and is_marked(self.target, self.name, None):
                    stale.unlink()
            self.foreign = foreign_entries(self.target)
            if self.target.is_dir():  # the checks again, holding the lock
                why = (kind_problem(self.target, self.kind) or unswappable(self.target)
                       or removal_problem(self.target, self.foreign))
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
                raise OutputError(f"cannot write {self.target}: {reason_of(exc)}") from None
            # the user's entries as they are now (files added while the run worked are kept too)
            self.foreign = foreign_entries(self.target)
            why = kind_problem(self.target, self.kind)  # a set of another kind put there while the run worked
            if why is not None:
                raise OutputError(f"{why}. Nothing was changed")
            written = read_manifest(stage)
            if written is not None and written.get("kind") != self.kind:
                raise OutputError(f"sflp staged a set whose manifest names the kind {written.get('kind')!r:.40}, not "
                                  f"{self.kind!r}: nothing was changed (please report this)")
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
                raise OutputError(f"cannot keep {entry} in the new report: {reason_of(exc)}") from None
            try:
                os.chmod(stage, 0o777 & ~_umask())
                if self.target.exists():  # the folder that becomes the old set is marked before the swap
                    write_marker(self.target, self.name, self.token)
            except OSError as exc:
                raise OutputError(f"cannot write {self.target}: {reason_of(exc)}") from None
            try:
                old = self._swap(stage)
            except OSError as exc:
                unlink_quietly(self.target / MARKER)
                raise OutputError(f"cannot move the new report into {self.target}: {reason_of(exc)}") from None
            unlink_quietly(self.target / MARKER)  # the staging folder's marker came along
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
                      f"set ({reason_of(exc)}); it is in {entry.parent}", file=sys.stderr)
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
