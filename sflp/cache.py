"""sflp's one user cache folder: the compiled LPs and numba's compiled kernels, never the package.

Where it is (:func:`cache_root`):

* ``$SFLP_CACHE_DIR`` when set; set but empty (``SFLP_CACHE_DIR=``) turns every cache off;
* else the platform's cache folder: ``$XDG_CACHE_HOME/sflp`` or ``~/.cache/sflp`` on Linux and
  other Unix systems, ``~/Library/Caches/sflp`` on macOS, ``%LOCALAPPDATA%\\sflp\\Cache`` on
  Windows.

Inside it the compiled LPs are files ``lp-<key>.npz`` (:mod:`sflp.solving.highs`: a template
for every blind structure when the package's copy is not this table's, about 1.8 MB, and a
structure's own compile, about 0.6 MB, where the template does not fit it) and numba's compiled
kernels live in the subfolder ``numba/``
(:data:`NUMBA_FOLDER`), one folder per source folder as numba names them.  A ``NUMBA_CACHE_DIR``
you set yourself is numba's own setting and is respected: sflp's kernels go there instead, and
while it is set ``sflp cache clear`` touches no numba file anywhere (numba writes every program's
kernels there, not only sflp's).  Clearing removes files only, never a folder.

numba's ``cache=True`` writes into ``__pycache__`` beside the module when its own cache folder is
not set, so an installed sflp would gain files that ``pip uninstall`` leaves behind (a leftover
``site-packages/sflp/`` without ``__init__.py`` then hides a later editable install), and with a
read-only package and no writable home numba fails at import ("no locator available").  The
kernels of sflp are therefore decorated by :func:`njit`, which hands numba the cache folder for
the moment of the decoration only (numba picks a function's cache folder then; nothing of the
process's numba settings is changed, so other code's numba functions are not affected) and
compiles without a cache when no folder is writable.  Nothing sflp does writes into the package.

This module needs the standard library only (numba is imported by :func:`njit` when a kernel is
decorated).
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
from pathlib import Path

ENV = "SFLP_CACHE_DIR"
"""The environment variable that moves the cache folder (empty: no caching at all)."""

NUMBA_FOLDER = "numba"
"""The subfolder of the cache folder where numba keeps sflp's compiled kernels."""

NUMBA_FILE = re.compile(r"[^/\\]+\.(nbi|nbc)\Z")
"""numba's cache files: an index (``.nbi``) and compiled code (``.nbc``) per function."""

NUMBA_SUBFOLDER = re.compile(r"[^/\\]+_[0-9a-f]{40}\Z")
"""numba's folder per source folder inside its cache folder: ``<folder name>_<sha1 of its path>``."""


def platform_cache_dir() -> Path:
    """The platform's per-user cache folder for sflp (whether it exists or not).

    >>> import os, sys
    >>> sys.platform != "linux" or platform_cache_dir() == (
    ...     Path(os.environ["XDG_CACHE_HOME"]) / "sflp" if os.path.isabs(os.environ.get("XDG_CACHE_HOME", ""))
    ...     else Path.home() / ".cache" / "sflp")
    True
    """
    home = Path(os.path.expanduser("~"))
    if sys.platform == "win32":
        local = os.environ.get("LOCALAPPDATA")
        base = Path(local) if local and os.path.isabs(local) else home / "AppData" / "Local"
        return base / "sflp" / "Cache"
    if sys.platform == "darwin":
        return home / "Library" / "Caches" / "sflp"
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    # the XDG spec: a relative value is invalid and ignored
    return (Path(xdg) if os.path.isabs(xdg) else home / ".cache") / "sflp"


def cache_root() -> Path | None:
    """sflp's cache folder, as configured (nothing is created or checked): ``$SFLP_CACHE_DIR``
    (made absolute), else :func:`platform_cache_dir`; None when ``SFLP_CACHE_DIR`` is set but empty."""
    env = os.environ.get(ENV)
    if env is not None:
        return Path(os.path.abspath(os.path.expanduser(env))) if env.strip() else None
    return platform_cache_dir()


def user_numba_dir() -> Path | None:
    """``$NUMBA_CACHE_DIR`` when you set it (numba's own setting, which sflp respects), else None."""
    env = os.environ.get("NUMBA_CACHE_DIR", "")
    return Path(os.path.abspath(os.path.expanduser(env))) if env.strip() else None


def numba_is_users() -> bool:
    """Whether ``NUMBA_CACHE_DIR`` is set (to any folder, even sflp's own ``numba/``; an empty or
    blank value does not count, as :func:`user_numba_dir`): then numba's cache is yours, shared by
    every program that uses numba, and sflp neither counts nor clears any numba file."""
    return user_numba_dir() is not None


def numba_dir() -> Path | None:
    """Where numba keeps sflp's compiled kernels: your ``$NUMBA_CACHE_DIR`` if set, else the
    ``numba`` subfolder of :func:`cache_root`; None when caching is off (``SFLP_CACHE_DIR=``)."""
    root = cache_root()
    if root is None:
        return None
    return user_numba_dir() or root / NUMBA_FOLDER


def own_numba_dir() -> Path | None:
    """sflp's own numba subfolder (``<cache folder>/numba``): the only numba folder that
    ``sflp cache clear`` empties; None when caching is off."""
    root = cache_root()
    return None if root is None else root / NUMBA_FOLDER


_USABLE: dict[str, bool] = {}


def usable(folder: Path) -> bool:
    """Whether ``folder`` is (or can be made) a folder this process can write a file in.

    It is created (with its parents, private to the user) if missing, and a temporary file is
    made and removed in it; the answer is kept for the process."""
    key = str(folder)
    if key not in _USABLE:
        try:
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            tempfile.TemporaryFile(dir=folder).close()
            _USABLE[key] = True
        except OSError:
            _USABLE[key] = False
    return _USABLE[key]


def njit(*args, **options):
    """``numba.njit``, where ``cache=True`` means: cached in :func:`numba_dir`, or not cached at all.

    Used as ``@njit(cache=True, parallel=True)`` exactly like numba's.  With caching asked for and
    a writable :func:`numba_dir`, numba is given that folder while it sets up the function's cache
    (numba reads ``numba.core.config.CACHE_DIR`` then, and never again for that function); the
    setting is put back at once.  A function whose cache still ended up anywhere else is left
    uncached.  Without a writable folder the function is compiled in each process (a few
    seconds) and nothing is written anywhere."""
    if len(args) == 1 and callable(args[0]) and not options:
        return _decorate(args[0], {})
    if args:
        raise TypeError("sflp.cache.njit takes keyword options only (no signatures)")
    return lambda func: _decorate(func, options)


def _decorate(func, options: dict):
    import numba

    options = dict(options)
    if not options.pop("cache", False):
        return numba.njit(**options)(func)
    folder = numba_dir()
    if folder is None or not usable(folder):
        return numba.njit(cache=False, **options)(func)
    from numba.core import config

    saved = config.CACHE_DIR
    config.CACHE_DIR = str(folder)
    try:
        dispatcher = numba.njit(cache=True, **options)(func)
    finally:
        config.CACHE_DIR = saved
    where = getattr(getattr(dispatcher, "_cache", None), "_cache_path", None)
    if where is not None and not _inside(Path(where), folder):  # pragma: no cover - numba fell back
        from numba.core.caching import NullCache

        dispatcher._cache = NullCache()
    return dispatcher


def _inside(path: Path, folder: Path) -> bool:
    try:
        Path(os.path.abspath(path)).relative_to(os.path.abspath(folder))
    except ValueError:
        return False
    return True


# ---------------------------------------------------------------- what is there, and clearing it


def numba_files(folder: Path | None = None) -> list[Path]:
    """numba's cache files in ``folder`` (default: sflp's own :func:`own_numba_dir`): files
    ``*.nbi`` / ``*.nbc`` in numba's per-source subfolders, symlinks never followed."""
    folder = own_numba_dir() if folder is None else folder
    out: list[Path] = []
    if folder is None:
        return out
    try:
        subs = [e for e in os.scandir(folder) if e.is_dir(follow_symlinks=False) and NUMBA_SUBFOLDER.match(e.name)]
    except OSError:
        return out
    for sub in subs:
        try:
            out.extend(Path(e.path) for e in os.scandir(sub.path)
                       if e.is_file(follow_symlinks=False) and NUMBA_FILE.match(e.name))
        except OSError:
            continue
    return sorted(out)


def size_of(paths: list[Path]) -> int:
    """The bytes of ``paths`` together (a file that vanished counts 0)."""
    total = 0
    for p in paths:
        try:
            total += p.lstat().st_size
        except OSError:
            pass
    return total


def remove_files(paths: list[Path]) -> tuple[int, int]:
    """Remove ``paths`` (files already proven to be sflp's), never a folder: an emptied folder
    stays (it may be a folder you made or share, such as a ``NUMBA_CACHE_DIR``).  Returns ``(files
    removed, bytes freed)``; a file that cannot be removed is skipped."""
    count = freed = 0
    for p in paths:
        try:
            size = p.lstat().st_size
            p.unlink()
        except OSError:
            continue
        count += 1
        freed += size
    return count, freed


def where() -> str:
    """Why the cache folder is where it is, in words (for ``sflp cache info``)."""
    env = os.environ.get(ENV)
    if env is not None:
        return f"{ENV}=" if not env.strip() else f"from {ENV}"
    return "the platform's cache folder"


def _writable(folder: Path) -> bool:
    """Whether ``folder`` could be written or made (its nearest existing ancestor is a writable
    folder); nothing is created."""
    probe = folder
    while not os.path.lexists(probe) and probe.parent != probe:
        probe = probe.parent
    return os.path.isdir(probe) and os.access(probe, os.W_OK | os.X_OK)


def info(lp_files: list[Path]) -> dict:
    """What is cached: the folder, whether caching is on and writable, and the compiled LPs
    (``lp_files``, as :func:`sflp.solving.highs.cached_files` finds them) and numba's kernels with
    their counts and bytes.  A ``NUMBA_CACHE_DIR`` of yours is named but not counted (its files
    are numba's, not only sflp's)."""
    root = cache_root()
    folder = numba_dir()
    own = folder is not None and not numba_is_users()
    kernels = numba_files() if own else []
    lp_bytes, numba_bytes = size_of(lp_files), size_of(kernels)
    return {
        "folder": None if root is None else str(root),
        "set_by": where(),
        "enabled": root is not None,
        "writable": root is not None and _writable(root),
        "lp": {"files": len(lp_files), "bytes": lp_bytes},
        "numba": {"folder": None if folder is None else str(folder), "own": own,
                  "files": len(kernels), "bytes": numba_bytes},
        "bytes": lp_bytes + numba_bytes,
    }


def clear(lp_files: list[Path]) -> dict:
    """Remove what sflp cached and nothing else: the compiled LPs ``lp_files`` (files
    :func:`sflp.solving.highs.is_entry` recognises by sflp's magic) and numba's files in sflp's own
    numba subfolder -- none at all while ``NUMBA_CACHE_DIR`` is set (:func:`numba_is_users`; then
    ``numba.left`` names that folder).  Any other file in the cache folder is left where it is, and
    no folder is ever removed.  Returns the counts and bytes removed, and the folder."""
    lp_count, lp_bytes = remove_files(lp_files)
    users = numba_is_users()
    numba_count, numba_bytes = (0, 0) if users else remove_files(numba_files())
    root = cache_root()
    return {
        "folder": None if root is None else str(root),
        "lp": {"files": lp_count, "bytes": lp_bytes},
        "numba": {"files": numba_count, "bytes": numba_bytes, "left": str(user_numba_dir()) if users else None},
        "bytes": lp_bytes + numba_bytes,
    }
