"""The target folder of a set, checked before any work (:func:`check_target`).

A target sflp could write but never swap in is refused at once with the reason, and a folder
that holds files sflp did not write is refused unless its manifest lists them
(:func:`foreign_entries`): ``--out ~/Documents`` never deletes a file.

**One rule for every output folder** (:func:`kind_problem`): a run replaces a folder only if its
manifest proves it holds an sflp set *of the same kind* as the one the run writes -- the
manifest's ``"kind"``, one of :data:`KINDS`.  Every writer names its kind (a required argument of
:func:`check_target` and :class:`~sflp.output.stage.StagedFolder`), so a mistyped ``--out`` never
replaces a structure atlas with one stack's solution, nor a Tracker's curves with a chart set.
``sflp exploit`` writes a chart set like ``sflp chart`` (the same files, read by the same
readers): the two are one kind.  A manifest that names no kind, or a kind this sflp does not
write, is not proved to be of any kind and is refused by every writer (every sflp manifest has
named its kind since the first one).
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

from sflp.atomic import check_name
from sflp.checks import shown_name
from sflp.errors import ArgumentTypeError, ConfigError, OutputError
from sflp.output.manifest import (  # noqa: F401 - KINDS and kind_words: the kinds' words live with the manifest
    KINDS,
    MANIFEST,
    folder_problems,
    kind_words,
    listed_folders,
    manifest_problems,
    read_manifest,
    reason_of,
)
from sflp.output.marker import MARKER, is_marked


def _shown(path) -> str:
    """A path from the user as a message shows it (:func:`~sflp.checks.shown_name`): a control
    character in it is escaped, so the message stays one line."""
    return shown_name(str(path))


def check_kind(kind) -> str:
    """``kind`` if it is one of :data:`KINDS`, else :class:`~sflp.errors.ConfigError`."""
    if not isinstance(kind, str):
        raise ArgumentTypeError(f"kind={kind!r:.60}: expected the kind of set written, one of {', '.join(KINDS)}")
    if kind not in KINDS:
        raise ConfigError(f"kind={kind!r:.60} is not a kind of set sflp writes: expected one of {', '.join(KINDS)}")
    return kind


def kind_problem(target: Path, kind: str) -> str | None:
    """Why ``target`` may not be replaced by a set of ``kind``: it holds an sflp set of another
    kind (its manifest's ``"kind"``, or none); None when it holds no sflp manifest (a missing or
    empty folder; a folder of other files is :func:`foreign_entries`' to refuse) or one of this
    kind.  The words name what the folder holds, what this run writes, and what to do."""
    kind = check_kind(kind)
    manifest = read_manifest(target) if target.is_dir() and not target.is_symlink() else None
    if manifest is None or manifest.get("kind") == kind:
        return None
    return (f"{_shown(target)} holds {kind_words(manifest.get('kind'))}; this run writes {KINDS[kind]}, and sflp "
            "replaces a set only with one of its own kind: choose another folder (or remove that one yourself)")


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
        raise OutputError(f"{_shown(target)} is a symlink: sflp puts a set in place of a folder and never writes "
                          "through a symlink; give the folder itself")
    if not target.is_dir():
        raise OutputError(f"{_shown(target)} exists and is not a folder")
    try:
        entries = sorted(target.iterdir())
    except OSError as exc:
        raise OutputError(f"cannot read {_shown(target)}: {reason_of(exc)}") from None
    marker = target / MARKER
    if marker in entries:  # a swap cut short by SIGKILL leaves sflp's marker in the target
        if not is_marked(target, target.name, None):
            raise OutputError(f"{_shown(marker)} is not sflp's marker (sflp uses that name); rename it")
        entries.remove(marker)
    if not entries:
        return []
    manifest = read_manifest(target)
    if manifest is None:
        raise OutputError(
            f"{_shown(target)} is not an sflp report folder: it holds {entries[0].name!r} and no sflp manifest.json, "
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
            problems += folder_problems(target, name, inner)
    listed |= set(folders)
    if problems:
        raise OutputError(f"{_shown(target / MANIFEST)} is not a valid sflp manifest ({'; '.join(problems[:3])}); "
                          "sflp will not replace anything there")
    return [p for p in entries if p.name not in listed and p.name != MANIFEST]


STAGING_EXTRA = len(".") + len(".staging-") + 8
"""How much longer than the target's name its staging folder's name is (``.<name>.staging-<8 hex>``)."""
LONGEST_INNER = 64
"""Room kept in a path for the files inside a staging folder and their temporary twins."""


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


def removal_problem(target: Path, foreign: list[Path]) -> str | None:
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
                return (f"{_shown(path)} is {flag} (chattr): sflp could not remove the old set after the swap, so "
                        f"it does not replace {_shown(target)}; clear the flag or choose another folder")
            if entry.name in names and path.is_dir() and not path.is_symlink():
                if not os.access(path, os.R_OK | os.X_OK):
                    return (f"cannot read {_shown(path)} to keep it in the new set: Permission denied; "
                            "choose another folder")
                if user not in (None, 0) and path.lstat().st_uid != user and not os.access(path, os.W_OK):
                    return (f"{_shown(path)} is another user's read-only folder: sflp could not remove the old copy "
                            f"after the swap, so it does not replace {_shown(target)}")
                try:
                    todo.extend(path.iterdir())
                except OSError as exc:
                    return f"cannot read {_shown(path)} to keep it in the new set: {reason_of(exc)}"
    return None


def unswappable(target: Path) -> str | None:
    """Why an existing folder ``target`` cannot be replaced by a swap, or None."""
    if _is_mount(target):
        return (f"{_shown(target)} is a mount point: sflp writes a set beside its folder and swaps the two, which a "
                f"mount point does not allow; write into a folder inside it, e.g. --out {_shown(target / 'charts')}")
    flag = _immutable(target)
    if flag is not None:
        return f"{_shown(target)} is {flag} (chattr): sflp could not replace it; choose another folder"
    mode = target.lstat().st_mode
    if not mode & stat.S_IWUSR or not os.access(target, os.W_OK | os.X_OK):
        return (f"{_shown(target)} is read-only (mode {stat.filemode(mode)}): sflp would not be able to remove "
                f"the old set, so it does not replace it; make it writable (chmod u+w {_shown(target)}) "
                "or choose another folder")
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
            return (f"output folder {_shown(target)} is inside {_shown(parent / first)}, part of the sflp set "
                    f"{_shown(parent)} (its manifest lists it): writing there would break that set; "
                    "choose another folder")
    return None


def check_target(target: Path | str, kind: str) -> Path:
    """``target`` as a Path if a set of ``kind`` (one of :data:`KINDS`) can be written there, else
    :class:`OutputError`.

    Call it before long work: it refuses a target below a file, a name too long for its hidden
    twins, a mount point, an immutable or read-only folder, a symlink as the lock, a folder that
    holds anything but an earlier sflp set, and an sflp set of another kind (:func:`kind_problem`;
    the same rules :class:`StagedFolder` applies again when it writes), and creates nothing.
    """
    kind = check_kind(kind)
    target = Path(target)
    if not target.name or target.name in (".", ".."):
        raise OutputError(f"output folder {str(target)!r} has no name to write a report under")
    check_name(target, STAGING_EXTRA, "output folder", inner=LONGEST_INNER)
    for folder in (target, *target.parents):
        if folder.exists():
            if folder != target and not folder.is_dir():
                raise OutputError(f"output folder {_shown(target)} cannot be created: {_shown(folder)} is a file")
            break
    inside = _listed_by_a_set(target)
    if inside is not None:
        raise OutputError(inside)
    foreign = foreign_entries(target)
    if target.is_dir():
        why = kind_problem(target, kind) or unswappable(target) or removal_problem(target, foreign)
        if why is not None:
            raise OutputError(why)
    lock = target.parent / f".{target.name}.lock"
    if lock.is_symlink():
        raise OutputError(f"{_shown(lock)} is a symlink, not sflp's lock file; sflp will not follow it (remove it "
                          "if it is stale)")
    return target
