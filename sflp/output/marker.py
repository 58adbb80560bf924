"""The marker that proves a staging folder (or an old set) is sflp's, and the removal of such folders.

Every staging folder holds :data:`MARKER`, naming its target and the random token of its name
(``.<name>.staging-<token>``).  Only a folder whose name and marker agree is ever removed
(:func:`remove_marked`, :func:`leftovers`): look-alikes are the user's.
"""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

from sflp.output.clean import json_text

MARKER = ".sflp-staging"
"""The marker file inside every staging folder: JSON naming the target and the folder's token."""
MARKER_FORMAT = "sflp-staging"
_TOKEN_DIGITS = "0123456789abcdef"


# ---------------------------------------------------------------- the marker


def _token_of(name: str, target: str, kind: str) -> str | None:
    """The token of ``name`` if it is exactly ``.<target>.<kind>-<8 hex digits>``, else None."""
    prefix = f".{target}.{kind}-"
    token = name[len(prefix):]
    if name.startswith(prefix) and len(token) == 8 and all(c in _TOKEN_DIGITS for c in token):
        return token
    return None


def write_marker(folder: Path, target: str, token: str) -> None:
    """Create :data:`MARKER` in ``folder`` (``O_EXCL``, ``O_NOFOLLOW``): this staging folder is sflp's."""
    text = json_text({"format": MARKER_FORMAT, "target": target, "token": token, "pid": os.getpid()}) + "\n"
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(folder / MARKER, flags, 0o644)
    try:
        os.write(fd, text.encode("utf-8"))
    finally:
        os.close(fd)


def is_marked(folder: Path, target: str, token: str | None) -> bool:
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


def unlink_quietly(path: Path) -> None:
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
            unlink_quietly(entry)
    try:
        if any(e.name != MARKER for e in folder.iterdir()):
            return False
        unlink_quietly(folder / MARKER)
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
            if token is not None and is_marked(parent / name, target, token):
                found.append(parent / name)
    return found
