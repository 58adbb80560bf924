"""The lock that serialises runs into one target: ``.<name>.lock`` beside it.

An exclusive :func:`fcntl.flock` (or :func:`msvcrt.locking` on Windows) on a file opened with
``O_NOFOLLOW`` and created with ``O_EXCL`` holding the line ``sflp lock``; only such a file (or an
empty one) is taken as a lock, and it is removed on release.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path

from sflp.errors import OutputError
from sflp.output.manifest import reason_of

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


class TargetLock:
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
                raise OutputError(f"cannot lock {self.path}: {reason_of(exc)}") from None
            else:
                try:
                    os.write(fd, LOCK_TEXT)
                except OSError as exc:
                    os.close(fd)
                    raise OutputError(f"cannot lock {self.path}: {reason_of(exc)}") from None
                return fd
            try:
                fd = os.open(self.path, os.O_RDWR | nofollow | cloexec | getattr(os, "O_NONBLOCK", 0))
            except FileNotFoundError:
                continue
            except OSError as exc:
                if self.path.is_symlink():
                    raise OutputError(f"{self.path} is a symlink, not sflp's lock file; sflp will not follow it "
                                      "(remove it if it is stale)") from None
                raise OutputError(f"cannot lock {self.path}: {reason_of(exc)}") from None
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
