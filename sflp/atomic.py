"""Atomic file output: a file is either absent, its previous version, or completely written.

This is the one atomic writer of the package (standard library only, at the bottom of the import
order next to :mod:`sflp.errors`): the equity table (:func:`sflp.core.equity.write_table`), every
report file (:mod:`sflp.charts`, which re-exports it as :mod:`sflp.atomic`) and the
approximate-solver benchmark files go through it.

Every file goes through :func:`atomic_output`: the content is written to a hidden
temporary file in the *same* folder (``.<name>.<random>.tmp``), flushed and fsynced, and only then
renamed over the target with :func:`os.replace` (atomic on POSIX and Windows within one file
system).  If writing fails for any reason the temporary file is removed and the target is left
as it was, so a crash or a full disk never leaves a half-written CSV, workbook or picture.

I/O problems (the folder is a file, no permission, disk full, ...) become
:class:`sflp.errors.OutputError` with a message naming the path; other exceptions (bugs in the
writer) propagate unchanged after the cleanup.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> write_text(folder / "a.txt", "hello\\n").read_text()
'hello\\n'
>>> sorted(p.name for p in folder.iterdir())
['a.txt']
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from sflp.errors import OutputError

TEMP_SUFFIX = ".tmp"


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _reason(exc: OSError) -> str:
    return exc.strerror or exc.__class__.__name__


def check_out_dir(out_dir: Path | str, create: bool = True) -> Path:
    """The output folder as a :class:`~pathlib.Path`, created if needed and checked writable.

    Raises :class:`OutputError` naming the path when it exists as a file, cannot be created or
    is not writable.  Call it before long computations so that a bad ``--out`` fails at once.
    """
    path = Path(out_dir)
    if path.exists() and not path.is_dir():
        raise OutputError(f"output folder {path} exists and is not a folder")
    for parent in path.parents:
        if parent.exists() and not parent.is_dir():
            raise OutputError(f"output folder {path} cannot be created: {parent} is a file")
    if create:
        try:
            path.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise OutputError(f"output folder {path} cannot be created: {_reason(exc)}") from None
        if not os.access(path, os.W_OK | os.X_OK):
            raise OutputError(f"output folder {path} is not writable")
    return path


TEMP_NAME_EXTRA = 14
"""How much longer than its target's name the temporary twin of :func:`atomic_output` is:
``.<name>.`` plus mkstemp's 8 random characters plus ``.tmp``."""


def _name_max(folder: Path) -> tuple[int, int]:
    """``(NAME_MAX, PATH_MAX)`` of the file system of ``folder``'s nearest existing ancestor."""
    probe = folder
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    limits = []
    for key, default in (("PC_NAME_MAX", 255), ("PC_PATH_MAX", 4096)):
        try:
            limits.append(int(os.pathconf(probe, key)))
        except (OSError, ValueError, AttributeError):  # no pathconf (Windows), or no answer
            limits.append(default)
    return limits[0], limits[1]


def check_name(path: Path | str, extra: int = TEMP_NAME_EXTRA, what: str = "output", inner: int = 0) -> Path:
    """``path`` as a Path, or :class:`OutputError` when its name, with the ``extra`` characters
    of the hidden twin sflp writes first (:data:`TEMP_NAME_EXTRA` for a file; a staging folder's
    is longer), or its whole path (plus ``inner`` characters for the files a folder will hold), is
    too long for its file system.  Call it before any work: the write would otherwise fail at the
    end with ``ENAMETOOLONG``."""
    path = Path(path)
    name_max, path_max = _name_max(path.parent)
    name = len(os.fsencode(path.name))
    if name + extra > name_max:
        raise OutputError(f"{what} name {path.name[:40]!r}... is {name} bytes long: at most {name_max - extra} "
                          f"fit (sflp first writes a hidden twin {extra} bytes longer, and a name there may have "
                          f"{name_max} bytes); choose a shorter name")
    full = len(os.fsencode(os.path.abspath(path)))
    if full + extra + inner >= path_max:
        raise OutputError(f"{what} path {str(path)[:40]!r}... is {full} bytes long: at most "
                          f"{path_max - extra - inner - 1} fit here; choose a shorter path")
    return path


@contextmanager
def atomic_output(path: Path | str) -> Iterator[Path]:
    """Yield a temporary path next to ``path``; on success it replaces ``path`` atomically.

    The caller writes the complete file to the yielded path (any library that takes a file name
    works).  On an exception the temporary file is deleted and ``path`` is untouched.
    """
    target = Path(path)
    folder = target.parent
    try:
        fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=TEMP_SUFFIX, dir=folder)
    except OSError as exc:
        raise OutputError(f"cannot write {target}: {_reason(exc)}") from None
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        yield tmp
        with open(tmp, "rb+") as fh:  # the writer closed it; make the bytes durable
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; give the usual permissions
        os.replace(tmp, target)
    except OSError as exc:
        _discard(tmp)
        raise OutputError(f"cannot write {target}: {_reason(exc)}") from None
    except BaseException:
        _discard(tmp)
        raise


def _discard(tmp: Path) -> None:
    try:
        tmp.unlink()
    except FileNotFoundError:
        pass
    except OSError:  # pragma: no cover - nothing more we can do
        pass


def write_with(path: Path | str, writer: Callable[[Path], object]) -> Path:
    """Call ``writer(tmp_path)`` to produce the file, then move it into place; returns ``path``."""
    with atomic_output(path) as tmp:
        writer(tmp)
    return Path(path)


def write_bytes(path: Path | str, data: bytes) -> Path:
    """Write ``data`` to ``path`` atomically."""
    return write_with(path, lambda tmp: tmp.write_bytes(data))


def write_text(path: Path | str, text: str) -> Path:
    """Write ``text`` (UTF-8, ``\\n`` line ends on every platform) to ``path`` atomically."""
    return write_bytes(path, text.encode("utf-8"))


PAUSE_ENV = "SFLP_PAUSE_AT"
"""``NAME=FOLDER``: at the pause point ``NAME`` the run creates ``FOLDER/NAME`` and waits there
until a signal ends it, or until the file is removed (then it goes on).  Tests use it to
interrupt a run at a known step and to *know* that the signal arrived before the run could finish
(a run held at a pause point cannot finish), or to do something while the run is held there."""


def pause_point(name: str) -> None:
    """A named step of a long write (see :data:`PAUSE_ENV`); does nothing unless asked to pause."""
    spec = os.environ.get(PAUSE_ENV)
    if not spec:
        return
    want, _, folder = spec.partition("=")
    if want != name or not folder:
        return
    import time

    flag = Path(folder, name)
    try:
        flag.touch()
    except OSError as exc:  # a test hook pointed at a folder that is not there: say so, do not pause
        import sys

        print(f"sflp: note: {PAUSE_ENV}: cannot create {flag} ({_reason(exc)}); not pausing", file=sys.stderr)
        return
    while flag.exists():  # held here until a signal (SIGINT/SIGTERM) raises in this, the main thread
        time.sleep(0.01)


_KINDS = ((stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


SET_MANIFEST = "manifest.json"
SET_FORMAT = "sflp-report"
"""The name and ``"format"`` of the manifest of a set sflp writes (:mod:`sflp.output.manifest`,
which owns it; here, below the output layer, only to see that a single file is a set's)."""


def _set_member(path: Path) -> str | None:
    """Why the single file ``path`` is part of an sflp set, or None: the ``manifest.json`` of a
    folder above it (an sflp manifest, read as untrusted input) lists the file, or the folder it
    lies in (an atlas's Parquet dataset), or the file is that manifest.  Writing it would break
    the set: a reader checks every listed file's SHA-256."""
    from sflp.errors import ConfigError
    from sflp.inputs import read_json

    full = Path(os.path.abspath(path))
    for parent in full.parents:
        manifest = parent / SET_MANIFEST
        if not manifest.is_file() or manifest.is_symlink():
            continue
        try:
            data = read_json(manifest, str(manifest), max_bytes=16 << 20, follow_symlinks=False)
        except ConfigError:
            continue
        if not isinstance(data, dict) or data.get("format") != SET_FORMAT:
            continue
        first = full.relative_to(parent).parts[0]
        entries = [e for key in ("files", "folders") if isinstance(data.get(key), list) for e in data[key]]
        if first == SET_MANIFEST or any(isinstance(e, dict) and e.get("name") == first for e in entries):
            kind = data.get("kind")
            what = f"the sflp set {parent}" + (f" of the kind {kind[:40]!r}" if isinstance(kind, str) else "")
            return (f"{path} is part of {what}: its manifest.json lists {first!r}, so writing there would break "
                    "that set; choose a file outside it")
    return None


def check_file_target(path: Path, kind: str, is_ours: Callable[[bytes], bool], *, stdout: bool = False) -> None:
    """Refuse, before any work, a file output sflp must not replace: a folder, a symlink, a FIFO,
    a device or a socket (looked at with ``lstat``, never opened, never written through), a file
    that is part of an sflp set (listed by its ``manifest.json``, or that manifest: a single file
    never replaces part of a set, whatever its kind), or a regular file whose first 4,096 bytes
    (read with :func:`sflp.inputs.read_head`: without blocking, not through a symlink) ``is_ours``
    does not accept; and a target whose nearest existing folder cannot take the temporary twin.
    ``kind`` names the file (``".efg"``); ``stdout`` says that ``--out -`` writes the text to
    standard output instead."""
    from sflp.inputs import read_head

    out = " (--out - writes the text to standard output)" if stdout else ""
    own = ", or --out - for standard output" if stdout else ""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise OutputError(f"cannot write {path}: {exc.strerror or type(exc).__name__}") from None
    if info is not None and stat.S_ISDIR(info.st_mode):
        sflp_set = " (an sflp set)" if (path / SET_MANIFEST).is_file() else ""
        raise OutputError(f"{path} is a folder{sflp_set}: give the {kind} file to write")
    member = _set_member(path)
    if member is not None:
        raise OutputError(member)
    if info is not None:
        if stat.S_ISLNK(info.st_mode):
            raise OutputError(f"{path} is a symlink: sflp replaces only a regular {kind} file it wrote, never "
                              f"through a symlink (give the file itself{own})")
        if not stat.S_ISREG(info.st_mode):
            what = next((name for test, name in _KINDS if test(info.st_mode)), "not a regular file")
            raise OutputError(f"{path} is {what}: sflp writes only a regular {kind} file{out}")
        if not is_ours(read_head(path, str(path), 4096, follow_symlinks=False, error=OutputError)):
            raise OutputError(f"{path} exists and was not written by sflp as a {kind} file of this kind: not "
                              "replacing it (remove it yourself, or choose another --out)")
    folder = path.parent  # the temporary twin is made there: the nearest folder that exists must be writable
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not folder.is_dir():
        raise OutputError(f"cannot write {path}: {folder} is not a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputError(f"cannot write {path}: the folder {folder} is not writable")

