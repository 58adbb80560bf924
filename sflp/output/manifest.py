"""``manifest.json``: the list of every file sflp wrote into a set, with its size and SHA-256.

The manifest is the proof of what is sflp's: a run replaces or removes only what its target's
manifest lists (:mod:`sflp.output.target`), and a reader checks a set against it before it trusts
a byte (:func:`check_manifest`).  Entries are plain names inside the folder; a set made of
folders (the atlas's Parquet datasets) lists each folder with its own files (``folders``).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Collection, Sequence
from pathlib import Path

from sflp.atomic import write_text
from sflp.output.clean import json_text

MANIFEST = "manifest.json"
MANIFEST_FORMAT = "sflp-report"


def reason_of(exc: OSError) -> str:
    """The words of an OS error for a message: its ``strerror``, else its class name."""
    return exc.strerror or exc.__class__.__name__


KINDS = {
    "chart-set": "a chart set (sflp chart or sflp exploit)",
    "solution": "one stack's solution (sflp solve --out)",
    "compare": "a comparison of two chart sets (sflp compare)",
    "structure-atlas": "a structure atlas (sflp atlas)",
    "policy-curves": "a Tracker's exploitability curves (sflp.Tracker)",
    "verify-stacks": "a policy set's scores (sflp verify --policy-dir --out)",
    "efg-set": "the games of sflp export efg --stacks",
    "approx-bench": "an approximate-solver benchmark (sflp approx-bench)",
    "openspiel-bench": "an OpenSpiel convergence atlas (sflp approx-bench --openspiel)",
}
"""Every kind of set sflp writes (the ``"kind"`` of its ``manifest.json``), with the words that
name it to a user."""


def kind_words(found) -> str:
    """The words for the kind ``found`` in a manifest (any JSON value: the manifest is untrusted)."""
    if found is None:
        return "an sflp set whose manifest names no kind (not one this sflp wrote)"
    if isinstance(found, str) and found in KINDS:
        return KINDS[found]
    text = found if isinstance(found, str) else type(found).__name__
    return f"an sflp set of a kind this sflp does not write ({text!r:.40})"


# ---------------------------------------------------------------- reading and checking a manifest


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


def folder_problems(target: Path, name: str, listed: list[str]) -> list[str]:
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


def listed_names(target: Path) -> set[str]:
    """The names ``target``'s (valid) manifest lists, with the manifest itself: sflp's files."""
    manifest = read_manifest(target)
    if manifest is None or manifest_problems(manifest):
        return set()
    return {e["name"] for e in manifest["files"]} | set(listed_folders(manifest)) | {MANIFEST}


# ---------------------------------------------------------------- writing a manifest, and checking a folder against it


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
                   folders: bool = False, names: Collection[str] | None = None) -> Path:
    """Write ``manifest.json``: ``info`` plus every file of ``folder`` with its size and SHA-256.

    With ``names``, only the files of those names (those that are there) are listed: a set written
    in place, in a folder that also holds the user's files (the Tracker's curves), lists what it
    wrote and no more.

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
        if path.name == MANIFEST or path.name.startswith(".") or (names is not None and path.name not in names):
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


def checked_entries(folder: Path, names: Sequence[str], why: str = "", *, kinds: Sequence[str] = (),
                    reader: str = "", reads: Sequence[str] = ()) -> dict[str, dict]:
    """The manifest entries of the files ``names`` of a set, after checking the folder against its
    manifest: the one check every reader of a set makes before it trusts a byte (``read_ranges``,
    ``verify_thresholds``, ``sflp compare``'s charts).  The manifest must be sflp's and valid, list
    every one of ``names`` (``why`` says what their absence means), and every file it lists must
    match its size and SHA-256 (files it does not list are the user's and are not judged).  A
    failure is one :class:`~sflp.errors.DataError` that names the opt-out every reader offers for a
    folder edited by hand: ``verify=False`` (``--no-manifest`` on the command line).  Read the
    files then with :func:`read_listed`, which checks that the bytes parsed are those hashed.
    ``kinds`` (of :data:`KINDS`) are the kinds of set ``reader`` (``sflp
    compare``) reads: a folder of another kind that lacks a file is named by its kind, in words, and
    so are the kinds ``reader`` reads (``reads``, default ``kinds``)."""
    from sflp.errors import DataError

    hint = "read a folder edited by hand with verify=False (--no-manifest)"
    manifest = read_manifest(folder)
    if manifest is None:
        raise DataError(f"{folder / MANIFEST} is missing or not an sflp manifest, so the folder cannot be "
                        f"checked; {hint}")
    invalid = manifest_problems(manifest)
    if invalid:
        raise DataError(f"{folder / MANIFEST} is not a valid sflp manifest: {invalid[0]}")
    entries = {e["name"]: e for e in manifest["files"]}
    for name in names:
        if name not in entries and kinds and manifest.get("kind") not in kinds:
            raise DataError(f"{folder} holds {kind_words(manifest.get('kind'))}; {reader or 'this reader'} reads "
                            + " or ".join(KINDS[k] for k in reads or kinds))
        if name not in entries:
            raise DataError(f"{folder / MANIFEST} does not list {name}" + (f": {why}" if why else ""))
    try:
        problems = check_manifest(folder)
    except OSError as exc:
        raise DataError(f"{folder} cannot be checked against its manifest: {exc.strerror or exc}") from None
    problems = [p for p in problems if not p.endswith(": not listed in the manifest") or "/" in p.split(": ")[0]]
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise DataError(f"{folder} does not match its manifest.json: {problems[0]}{more}; {hint}")
    return entries


def read_listed(folder: Path, name: str, max_bytes: int, entry: dict | None) -> bytes:
    """The bytes of ``folder/name`` (a regular file, not a symlink, at most ``max_bytes``); with a
    manifest ``entry`` (:func:`checked_entries`), they must be the bytes it lists: a file swapped
    after the check is refused too."""
    from sflp.errors import DataError
    from sflp.inputs import read_bytes

    path = folder / name
    data = read_bytes(path, str(path), max_bytes=max_bytes, follow_symlinks=False, error=DataError)
    if entry is not None and (len(data) != entry["bytes"] or hashlib.sha256(data).hexdigest() != entry["sha256"]):
        raise DataError(f"{path} changed after it was checked against manifest.json; read it again")
    return data
