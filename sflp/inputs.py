"""Reading what a user hands us: regular files only, bounded in size, strict JSON.

Every file sflp reads that it did not just write -- a policy, a strategy, a manifest, a chart
set read back -- comes through here, so that hostile input gets one clear error and never a
hang, a foreign exception or unbounded memory:

* :func:`read_bytes` opens without blocking (a FIFO or a device named like a data file is
  refused, never waited on), checks that it is a regular file (optionally that the name is not a
  symlink), and refuses it when it is larger than the caller's cap *before* reading it;
* :func:`parse_json` is :func:`json.loads` made strict: a key twice in one object, ``NaN`` or
  ``Infinity``, an integer of more than :data:`MAX_INT_DIGITS` digits and nesting deeper than
  Python's recursion limit are each refused with one line naming the input.

Errors are ``error(message)``, :class:`~sflp.errors.ConfigError` unless the caller names another
class of :mod:`sflp.errors` (a chart set read back raises :class:`~sflp.errors.DataError`).

>>> parse_json('{"a": [1, 2.5]}', "policy file 'p.json'")
{'a': [1, 2.5]}
>>> parse_json('{"a": 1, "a": 2}', "policy file 'p.json'")
Traceback (most recent call last):
...
sflp.errors.ConfigError: policy file 'p.json' is not valid here: the key 'a' appears twice in one object
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

from sflp.errors import ConfigError

MAX_INT_DIGITS = 100
"""The longest integer a JSON input may hold (a count or an action id has a handful of digits)."""


def _reason(exc: OSError) -> str:
    return exc.strerror or exc.__class__.__name__


def _open(path: Path | str, what: str, follow_symlinks: bool, error: type[Exception]) -> int:
    """A descriptor of the regular file ``path`` (opened without blocking, optionally not through
    a symlink), else ``error``; the caller closes it."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    if not follow_symlinks:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise error(f"{what} does not exist") from None
    except OSError as exc:
        if not follow_symlinks and os.path.islink(path):
            raise error(f"{what} is a symlink; sflp reads only the regular file itself") from None
        raise error(f"{what} cannot be read: {_reason(exc)}") from None
    try:
        regular = stat.S_ISREG(os.fstat(fd).st_mode)
    except OSError as exc:
        os.close(fd)
        raise error(f"{what} cannot be read: {_reason(exc)}") from None
    if not regular:
        os.close(fd)
        raise error(f"{what} is not a regular file")
    return fd


def read_bytes(path: Path | str, what: str, *, max_bytes: int, follow_symlinks: bool = True,
               error: type[Exception] = ConfigError) -> bytes:
    """The bytes of the regular file ``path``, at most ``max_bytes`` of them, else ``error``.

    ``what`` names the file in messages (``"policy file 'p.json'"``).  The file is opened with
    ``O_NONBLOCK`` (a FIFO is not waited on) and, unless ``follow_symlinks``, ``O_NOFOLLOW``; its
    type and size are read from the open descriptor, so a file swapped after a check is still
    checked."""
    fd = _open(path, what, follow_symlinks, error)
    try:
        size_now = os.fstat(fd).st_size
        if size_now > max_bytes:
            raise error(f"{what} is {size_now:,} bytes, more than the {max_bytes:,} sflp reads there")
        chunks, size = [], 0
        while True:
            chunk = os.read(fd, min(1 << 20, max_bytes + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if size > max_bytes:  # it grew while we read
                raise error(f"{what} is more than the {max_bytes:,} bytes sflp reads there")
        return b"".join(chunks)
    except OSError as exc:
        raise error(f"{what} cannot be read: {_reason(exc)}") from None
    finally:
        os.close(fd)


def read_head(path: Path | str, what: str, count: int, *, follow_symlinks: bool = True,
              error: type[Exception] = ConfigError) -> bytes:
    """The first ``count`` bytes (fewer if the file is shorter) of the regular file ``path``,
    whatever its size, opened as :func:`read_bytes` opens it (without blocking, optionally not
    through a symlink), else ``error``: what proves that a large file is one sflp wrote."""
    fd = _open(path, what, follow_symlinks, error)
    try:
        return os.read(fd, count)
    except OSError as exc:
        raise error(f"{what} cannot be read: {_reason(exc)}") from None
    finally:
        os.close(fd)


def read_text(path: Path | str, what: str, *, max_bytes: int, follow_symlinks: bool = True,
              error: type[Exception] = ConfigError) -> str:
    """:func:`read_bytes` decoded as UTF-8 (a BOM is dropped), else ``error``."""
    data = read_bytes(path, what, max_bytes=max_bytes, follow_symlinks=follow_symlinks, error=error)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise error(f"{what} is not UTF-8 text (byte {exc.start:,} is not)") from None


def _object(pairs: list[tuple[str, object]], what: str, error: type[Exception]) -> dict:
    out: dict = {}
    for key, value in pairs:
        if key in out:
            raise error(f"{what} is not valid here: the key {key!r:.60} appears twice in one object")
        out[key] = value
    return out


def parse_json(text: str, what: str, *, error: type[Exception] = ConfigError):
    """``text`` as strict JSON (see the module doc), else one ``error`` naming ``what``."""

    def integer(digits: str) -> int:
        if len(digits.lstrip("-")) > MAX_INT_DIGITS:
            raise error(f"{what} is not valid here: an integer of {len(digits):,} digits (at most "
                        f"{MAX_INT_DIGITS})")
        return int(digits)

    def constant(name: str):
        raise error(f"{what} is not valid here: {name} is not a JSON number")

    try:
        return json.loads(text, object_pairs_hook=lambda pairs: _object(pairs, what, error), parse_int=integer,
                          parse_constant=constant)
    except json.JSONDecodeError as exc:
        raise error(f"{what} is not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except error:
        raise
    except RecursionError:
        raise error(f"{what} is not valid here: its arrays and objects are nested too deeply") from None
    except ValueError as exc:  # pragma: no cover - json's own limits (e.g. a float's digits)
        raise error(f"{what} is not valid JSON here: {str(exc)[:80]}") from None


def read_json(path: Path | str, what: str, *, max_bytes: int, follow_symlinks: bool = True,
              error: type[Exception] = ConfigError):
    """The strict JSON (:func:`parse_json`) of the regular file ``path`` (:func:`read_text`)."""
    text = read_text(path, what, max_bytes=max_bytes, follow_symlinks=follow_symlinks, error=error)
    return parse_json(text, what, error=error)
