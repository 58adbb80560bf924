"""Reading a chart set's ranges back (:func:`read_ranges`): every file is untrusted input.

A chart-set folder holds the ranges of every solved stack in one of three forms
(:data:`sflp.charts.media.formats.RANGE_FORMS`): ``ranges.csv``, ``ranges_segments.csv`` or
``ranges.parquet``, with ``values.csv`` listing the solved stacks.  :func:`read_ranges` gives the
same **canonical frame** from each:

* columns ``stack, player, hand, frequency, ev_margin`` (segments carry no ``ev_margin``:
  :func:`~sflp.charts.margins.read_margins` gives it);
* one row per requested stack x player x hand, 338 rows a stack, in this order: **stack
  ascending, then SB before BB, then the hands in class-id order** (:data:`sflp.core.cards.CLASS_NAMES`:
  ``AA, AKs, AQs, ...``), whatever the order of the ``stacks`` asked for (they are sorted, and a
  stack asked twice is given once); the index is ``0..n-1``.

What is checked, in order (a failure is one :class:`~sflp.errors.DataError` naming the file and
the problem; a bad argument is a :class:`~sflp.errors.ConfigError`):

1. the arguments: ``folder`` an existing folder, ``stacks`` None, one number or a list of
   numbers, each positive and finite, ``verify`` a bool;
2. with ``verify=True`` (the default) the folder against its ``manifest.json``
   (:func:`sflp.output.manifest.check_manifest`: size and SHA-256 of every listed file, no
   symlink); files the manifest does not list are the user's and are ignored.  The ranges file
   is the one the manifest lists; the bytes parsed are hashed again, so a file changed after the
   check is refused too.  With ``verify=False`` (a folder made or edited by hand) the manifest is
   not read, the folder must hold exactly one ranges file, and every check below still runs;
3. sizes before contents: each file is read through :func:`sflp.inputs.read_bytes` (a regular
   file, never a symlink, a FIFO is not waited on) and refused above a cap derived from the
   number of solved stacks (:data:`CSV_ROW_BYTES` a row, :data:`PARQUET_ROW_BYTES` a row, at most
   :data:`~sflp.checks.MAX_STACKS` stacks); a parquet file's schema, row count (the footer's and
   the sum of its row groups') and unpacked size are read from its footer and checked before any
   row is decoded;
4. ``values.csv``: its header (:data:`~sflp.charts.text.VALUES_COLUMNS`, then an optional
   ``value_exact``), its stacks positive, finite and strictly increasing, as many as the
   manifest's ``stacks.count`` (with ``verify``);
5. the ranges: exactly the expected columns; ``stack`` the solved stacks of ``values.csv``, 338
   rows each, in the canonical order above (so a truncated, extended, reordered or duplicated
   file is refused); ``player`` ``sb``/``bb``; ``hand`` a class name; ``frequency`` a finite
   number in [0, 1]; ``ev_margin`` finite or empty.  Segments (``player, hand, stack_from,
   stack_to, frequency``) must start and end at solved stacks and cover every solved stack
   exactly once per player x hand, sorted by player, hand and ``stack_from``;
6. each requested stack is a solved stack (the same float as in ``values.csv``).

No exception of pandas, pyarrow or the operating system escapes: each becomes sflp's error.

:func:`~sflp.charts.margins.read_margins` gives the EV margins of every solved stack from any form: the ``ev_margin``
column of ``ranges.csv`` / ``ranges.parquet``, or, beside ``ranges_segments.csv``, the supports
of ``margins_supports.csv`` (recomputed exactly) and ``margins_stacks.csv``
(:class:`sflp.charts.media.segments.MarginsSupports`), with the same checks and more (its doc).
"""

from __future__ import annotations

import functools
import io
import os
import warnings
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from sflp.charts.text import RANGES_COLUMNS, VALUES_COLUMNS
from sflp.checks import MAX_STACKS, real, short
from sflp.core.cards import CLASS_NAMES, N_CLASSES, PLAYERS
from sflp.errors import ArgumentTypeError, ConfigError, DataError

ROWS_PER_STACK = len(PLAYERS) * N_CLASSES
"""Rows of one stack in ``ranges.csv`` / ``ranges.parquet`` (338)."""
RANGE_FILES = {"ranges.csv": "csv", "ranges_segments.csv": "segments", "ranges.parquet": "parquet"}
"""The ranges file of each form (:data:`sflp.charts.media.formats.RANGE_FORMS`, ``auto`` resolved)."""
VALUES_FILE = "values.csv"
SEGMENTS_COLUMNS = ("player", "hand", "stack_from", "stack_to", "frequency")

CSV_ROW_BYTES = 128
"""Most bytes a row of ``ranges.csv`` or ``ranges_segments.csv`` may take: sflp writes at most
about 85 (three floats of at most 24 characters, a player, a hand, the commas)."""
VALUES_ROW_BYTES = 1024
"""Most bytes a row of ``values.csv`` may take (five floats and, with ``exact``, a fraction
``p/q`` of a few dozen digits)."""
PARQUET_ROW_BYTES = 64
"""Most bytes a row of ``ranges.parquet`` may take, in the file and unpacked (sflp's take about 15
unpacked, fewer in the file), on top of :data:`PARQUET_OVERHEAD_BYTES`."""
PARQUET_OVERHEAD_BYTES = 1 << 20
"""The footer and page headers of a parquet file, whatever its rows."""
HEADER_BYTES = 1024
"""Room for a CSV file's header line."""


@functools.cache
def _column_names() -> tuple[np.ndarray, np.ndarray]:
    """The player and hand of each of a stack's 338 rows, in the canonical order."""
    return (np.repeat(np.array(PLAYERS, dtype=object), N_CLASSES), np.tile(np.array(CLASS_NAMES, dtype=object), 2))


def _read_csv(path, **kwargs):
    """A CSV of ours read back with every float exactly as written: pandas 3 reads round-trip by
    default (and deprecates the option), pandas 2 only when asked.  ``path`` is a path or a
    binary file object; this trusts the file (it is the parser :func:`read_ranges` wraps)."""
    import pandas as pd

    if int(pd.__version__.split(".")[0]) < 3:
        kwargs["float_precision"] = "round_trip"
    return pd.read_csv(path, keep_default_na=False, **kwargs)


# ---------------------------------------------------------------- arguments


def _check_folder(folder) -> Path:
    if isinstance(folder, bool) or not isinstance(folder, (str, os.PathLike)):
        raise ArgumentTypeError(f"read_ranges needs a folder path, not {type(folder).__name__} {short(folder)}")
    path = Path(folder)
    if not path.exists():
        raise ConfigError(f"{path} does not exist; give the folder of a chart set (sflp chart --out)")
    if not path.is_dir():
        raise ConfigError(f"{path} is not a folder; give the folder of a chart set (sflp chart --out)")
    return path


def wanted_stacks(stacks) -> np.ndarray | None:
    """``stacks`` as a sorted array of distinct floats (None stays None), else ConfigError.

    One number or a list (any iterable) of numbers, each positive and finite (:func:`sflp.checks.real`).

    >>> wanted_stacks([3, 1.5, 3.0]).tolist(), wanted_stacks(5.0).tolist()
    ([1.5, 3.0], [5.0])
    """
    if stacks is None:
        return None
    if isinstance(stacks, (str, bytes)):
        raise ConfigError(f"stacks={short(stacks)} is not a number or a list of numbers")
    if isinstance(stacks, np.ndarray):
        if stacks.ndim > 1:
            raise ConfigError(f"stacks has shape {stacks.shape}: give one number or a flat list of numbers")
        items = [stacks.item()] if stacks.ndim == 0 else stacks.tolist()
    elif hasattr(stacks, "__iter__"):
        items = list(stacks)
    else:
        items = [stacks]
    if not items:
        raise ConfigError("stacks is empty: give solved stacks, or None for every solved stack")
    values = [real("stacks" if len(items) == 1 else f"stacks[{k}]", s, positive=True) for k, s in enumerate(items)]
    return np.unique(np.array(values, dtype=np.float64))


# ---------------------------------------------------------------- bytes


def _read(folder: Path, name: str, max_bytes: int, entry: dict | None) -> bytes:
    """The bytes of ``folder/name``, checked against its manifest ``entry`` when there is one
    (:func:`sflp.output.manifest.read_listed`)."""
    from sflp.output.manifest import read_listed

    return read_listed(folder, name, max_bytes, entry)


def _parse_csv(data: bytes, path: Path, columns: Sequence[str], text_columns: Sequence[str],
               optional: Sequence[str] = ()):
    """The CSV ``data`` as a frame whose columns are exactly ``columns`` (then any of ``optional``,
    in order), ``text_columns`` read as text, empty numbers as NaN; else DataError."""
    import pandas as pd

    if not data.strip():
        raise DataError(f"{path} is empty (expected the header {','.join(columns)})")
    nul = data.find(b"\0")
    if nul >= 0:  # pandas' C parser ends a field at a NUL in some versions (2.0 read 'A\0A' as 'A')
        line = data.count(b"\n", 0, nul) + 1
        raise DataError(f"{path} line {line}: a NUL byte (sflp writes none)")
    try:
        head = list(_read_csv(io.BytesIO(data), nrows=0).columns)
        if head != list(columns) + list(optional[:len(head) - len(columns)]):
            raise DataError(f"{path} has the columns {_clip(','.join(map(str, head)))}; expected "
                            f"{','.join(columns)}" + (f" (then {','.join(optional)})" if optional else ""))
        with warnings.catch_warnings():
            warnings.simplefilter("error", pd.errors.ParserWarning)  # a row longer than the header
            frame = _read_csv(io.BytesIO(data), index_col=False, dtype={c: str for c in text_columns},
                              na_values={c: [""] for c in head if c not in text_columns})
    except DataError:
        raise
    except UnicodeDecodeError as exc:
        raise DataError(f"{path} is not UTF-8 text (byte {exc.start:,} of a line is not)") from None
    except Exception as exc:  # noqa: BLE001 -- pandas on untrusted bytes: any failure is a bad file
        reason = " ".join(str(exc).split()) or type(exc).__name__
        raise DataError(f"{path} is not a valid CSV file of sflp's: {reason[:120]}") from None
    return frame


def _clip(text: str, most: int = 80) -> str:
    return text if len(text) <= most else text[:most - 3] + "..."


def _numbers(frame, column: str, path: Path) -> np.ndarray:
    """Column ``column`` as float64, else DataError naming the first line that is not a number
    (an empty field is NaN)."""
    values = frame[column]
    if values.dtype.kind in "fiu":
        return values.to_numpy(dtype=np.float64)
    out = np.empty(len(values), dtype=np.float64)
    for k, text in enumerate(values.tolist()):
        try:
            if isinstance(text, bool):
                raise ValueError
            out[k] = np.nan if text is None or text == "" else float(text)
        except (TypeError, ValueError, OverflowError):
            raise DataError(f"{path} line {k + 2}: {column} {short(text)} is not a number") from None
    return out


def _first(bad: np.ndarray) -> int:
    return int(np.flatnonzero(bad)[0])


def _check_frequencies(freq: np.ndarray, path: Path, where) -> None:
    bad = ~((freq >= 0.0) & (freq <= 1.0))  # NaN fails both
    if bad.any():
        k = _first(bad)
        raise DataError(f"{path} {where(k)}: frequency {float(freq[k])!r} is not a number in [0, 1]")


def _check_names(players: np.ndarray, hands: np.ndarray, path: Path, where) -> np.ndarray:
    """Each row's column 0..337 (player x hand, canonical order), else DataError at the first bad row."""
    index = {(p, h): k for k, (p, h) in enumerate(zip(*_column_names()))}
    cols = np.fromiter((index.get(pair, -1) for pair in zip(players.tolist(), hands.tolist())), np.int64,
                       count=len(players))
    if (cols < 0).any():
        k = _first(cols < 0)
        if players[k] not in PLAYERS:
            raise DataError(f"{path} {where(k)}: player {short(players[k])} is not sb or bb")
        raise DataError(f"{path} {where(k)}: hand {short(hands[k])} is not a hand class such as AA, AKs or 72o")
    return cols


# ---------------------------------------------------------------- values.csv


def read_solved_stacks(folder: Path, count: int | None, entry: dict | None) -> np.ndarray:
    """The solved stacks of ``values.csv``: positive, finite, strictly increasing, and ``count``
    of them when the manifest says how many."""
    path = folder / VALUES_FILE
    most = count if count is not None else MAX_STACKS
    data = _read(folder, VALUES_FILE, HEADER_BYTES + most * VALUES_ROW_BYTES, entry)
    frame = _parse_csv(data, path, VALUES_COLUMNS, (), optional=("value_exact",))
    stacks = _numbers(frame, "stack", path)
    if not len(stacks):
        raise DataError(f"{path} lists no stacks")
    bad = ~(np.isfinite(stacks) & (stacks > 0))
    if bad.any():
        k = _first(bad)
        raise DataError(f"{path} line {k + 2}: stack {float(stacks[k])!r} is not a positive finite number of bb")
    if len(stacks) > 1 and not (np.diff(stacks) > 0).all():
        k = _first(~(np.diff(stacks) > 0)) + 1
        raise DataError(f"{path} line {k + 2}: stack {float(stacks[k])!r} does not follow {float(stacks[k - 1])!r} "
                        "(sflp writes each solved stack once, ascending)")
    if count is not None and len(stacks) != count:
        raise DataError(f"{path} lists {len(stacks):,} stacks; manifest.json says {count:,}")
    if len(stacks) > MAX_STACKS:
        raise DataError(f"{path} lists {len(stacks):,} stacks, more than the {MAX_STACKS:,} of a chart set")
    return stacks


# ---------------------------------------------------------------- the three forms


def _check_rows(path: Path, solved: np.ndarray, stack: np.ndarray, players: np.ndarray, hands: np.ndarray,
                where) -> None:
    """``ranges.csv`` / ``.parquet`` rows: every solved stack, 338 rows each, in the canonical order."""
    expected = len(solved) * ROWS_PER_STACK
    if len(stack) != expected:
        raise DataError(f"{path} holds {len(stack):,} rows; its {len(solved):,} solved stacks (values.csv) "
                        f"need {expected:,}, {ROWS_PER_STACK} a stack")
    cols = _check_names(players, hands, path, where)
    bad = ~(np.isfinite(stack) & (stack > 0))
    if bad.any():
        k = _first(bad)
        raise DataError(f"{path} {where(k)}: stack {float(stack[k])!r} is not a positive finite number of bb")
    want_stack = np.repeat(solved, ROWS_PER_STACK)
    bad = (stack != want_stack) | (cols != np.tile(np.arange(ROWS_PER_STACK), len(solved)))
    if bad.any():
        k = _first(bad)
        p, h = _column_names()[0][k % ROWS_PER_STACK], _column_names()[1][k % ROWS_PER_STACK]
        raise DataError(f"{path} {where(k)}: {players[k]} {hands[k]} at stack {float(stack[k])!r} where "
                        f"{p} {h} at stack {float(want_stack[k])!r} belongs (rows go by the stacks of values.csv "
                        "ascending, SB before BB, hands in class-id order)")


def _ranges_csv(folder: Path, solved: np.ndarray, entry: dict | None):
    path = folder / "ranges.csv"
    data = _read(folder, "ranges.csv", HEADER_BYTES + len(solved) * ROWS_PER_STACK * CSV_ROW_BYTES, entry)
    frame = _parse_csv(data, path, RANGES_COLUMNS, ("player", "hand"))
    stack = _numbers(frame, "stack", path)
    freq, ev = _numbers(frame, "frequency", path), _numbers(frame, "ev_margin", path)
    players, hands = frame["player"].to_numpy(dtype=object), frame["hand"].to_numpy(dtype=object)
    return stack, players, hands, freq, ev


def _ranges_parquet(folder: Path, solved: np.ndarray, entry: dict | None):
    from sflp.charts.media.parquet import _pyarrow

    pa, pq = _pyarrow()
    path = folder / "ranges.parquet"
    expected = len(solved) * ROWS_PER_STACK
    data = _read(folder, "ranges.parquet", PARQUET_OVERHEAD_BYTES + expected * PARQUET_ROW_BYTES, entry)
    try:
        pf = pq.ParquetFile(pa.BufferReader(data))
        schema, meta = pf.schema_arrow, pf.metadata
        groups = [meta.row_group(k) for k in range(meta.num_row_groups)]
        rows, group_rows = meta.num_rows, sum(g.num_rows for g in groups)
        unpacked = sum(g.total_byte_size for g in groups)
    except Exception as exc:  # noqa: BLE001 -- pyarrow on untrusted bytes: any failure is a bad file
        raise DataError(f"{path} is not a valid parquet file: {' '.join(str(exc).split())[:120]}") from None
    if list(schema.names) != list(RANGES_COLUMNS):
        raise DataError(f"{path} has the columns {_clip(','.join(schema.names))}; expected {','.join(RANGES_COLUMNS)}")
    for name in RANGES_COLUMNS:
        kind = schema.field(name).type
        value = kind.value_type if pa.types.is_dictionary(kind) else kind
        text = pa.types.is_string(value) or pa.types.is_large_string(value)
        if not (text if name in ("player", "hand") else pa.types.is_float64(kind)):
            raise DataError(f"{path} column {name} is of type {kind}; expected "
                            f"{'text' if name in ('player', 'hand') else 'double (float64)'}")
    if rows != expected:  # from the footer, before a row is decoded
        raise DataError(f"{path} holds {rows:,} rows; its {len(solved):,} solved stacks (values.csv) "
                        f"need {expected:,}, {ROWS_PER_STACK} a stack")
    if group_rows != rows:  # pyarrow decodes by the row groups' counts
        raise DataError(f"{path} is not a valid parquet file: its row groups hold {group_rows:,} rows, "
                        f"its footer says {rows:,}")
    if unpacked > PARQUET_OVERHEAD_BYTES + expected * PARQUET_ROW_BYTES:
        raise DataError(f"{path} unpacks to {unpacked:,} bytes, more than the "
                        f"{PARQUET_OVERHEAD_BYTES + expected * PARQUET_ROW_BYTES:,} of {expected:,} rows")
    try:
        table = pf.read()
        if table.num_rows != expected:
            raise ValueError(f"{table.num_rows:,} rows decoded, {rows:,} in the footer")
        columns = {name: table.column(name).to_pandas().to_numpy(dtype=object if name in ("player", "hand")
                                                                 else np.float64) for name in RANGES_COLUMNS}
    except Exception as exc:  # noqa: BLE001 -- pyarrow on untrusted bytes: any failure is a bad file
        raise DataError(f"{path} is not a valid parquet file: {' '.join(str(exc).split())[:120]}") from None
    return columns["stack"], columns["player"], columns["hand"], columns["frequency"], columns["ev_margin"]


def _segments(folder: Path, solved: np.ndarray, want: np.ndarray, entry: dict | None) -> np.ndarray:
    """The frequencies (``(len(want), 338)``) of ``ranges_segments.csv`` at the stacks ``want``
    (solved stacks, sorted), after checking that its runs tile the solved stacks."""
    path = folder / "ranges_segments.csv"
    n = len(solved)
    data = _read(folder, "ranges_segments.csv", HEADER_BYTES + n * ROWS_PER_STACK * CSV_ROW_BYTES, entry)
    frame = _parse_csv(data, path, SEGMENTS_COLUMNS, ("player", "hand"))
    if len(frame) > n * ROWS_PER_STACK:
        raise DataError(f"{path} holds {len(frame):,} runs, more than the {n * ROWS_PER_STACK:,} of "
                        f"{n:,} solved stacks")
    if not len(frame):
        raise DataError(f"{path} holds no runs")

    def where(k: int) -> str:
        return f"line {k + 2}"

    players, hands = frame["player"].to_numpy(dtype=object), frame["hand"].to_numpy(dtype=object)
    cols = _check_names(players, hands, path, where)
    start, stop = (_solved_positions(frame, name, solved, path) for name in ("stack_from", "stack_to"))
    freq = _numbers(frame, "frequency", path)
    _check_frequencies(freq, path, where)
    # the runs tile the solved stacks: column by column (0..337), each from the first solved stack
    # to the last, each run starting right after the previous one ends
    first = np.r_[True, cols[1:] != cols[:-1]]  # the first run of its column
    last = np.r_[cols[1:] != cols[:-1], True]
    previous_col, previous_stop = np.r_[-1, cols[:-1]], np.r_[-1, stop[:-1]]
    bad = ((stop < start) | (last & (stop != n - 1))
           | np.where(first, (cols != previous_col + 1) | (start != 0), start != previous_stop + 1))
    bad[-1] |= cols[-1] != ROWS_PER_STACK - 1
    if bad.any():
        k = _first(bad)
        raise DataError(f"{path} line {k + 2}: {players[k]} {hands[k]} from {float(solved[start[k]])!r} to "
                        f"{float(solved[stop[k]])!r} bb: the runs must cover every solved stack of values.csv once "
                        "for each player and hand, sorted by player (SB first), hand (class-id order) and stack")
    # the run of each (stack, column): the last run of that column starting at or below the stack
    key = cols * n + start  # strictly increasing, checked above
    at = np.searchsorted(solved, want)
    run = np.searchsorted(key, np.arange(ROWS_PER_STACK)[None, :] * n + at[:, None], side="right") - 1
    return freq[run]


# ---------------------------------------------------------------- the manifest


def _verified(folder: Path) -> tuple[str, int, dict]:
    """With ``verify``: the ranges file the manifest lists, the number of solved stacks it says,
    and its entries by name; DataError when the folder does not match it."""
    from sflp.output.manifest import MANIFEST, check_manifest, manifest_problems, read_manifest

    manifest = read_manifest(folder)
    if manifest is None:
        _unverified(folder)  # a folder that is no chart set at all is a bad argument
        raise DataError(f"{folder / MANIFEST} is missing or not an sflp manifest, so the folder cannot be checked; "
                        "read a folder made or edited by hand with verify=False")
    invalid = manifest_problems(manifest)
    if invalid:
        raise DataError(f"{folder / MANIFEST} is not a valid sflp manifest: {invalid[0]}")
    entries = {e["name"]: e for e in manifest["files"]}
    try:
        problems = check_manifest(folder)
        present = {p.name for p in folder.iterdir()}
    except OSError as exc:
        raise DataError(f"{folder} cannot be checked against its manifest: {exc.strerror or exc}") from None
    unlisted = present - set(entries) - {MANIFEST}  # the user's files: not ours to judge
    problems = [p for p in problems if not any(p.startswith(f"{name}: ") for name in unlisted)]
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise DataError(f"{folder} does not match its manifest.json: {problems[0]}{more}; "
                        "read a folder edited by hand with verify=False")
    listed = [name for name in RANGE_FILES if name in entries]
    if len(listed) != 1:
        raise DataError(f"{folder / MANIFEST} lists {' and '.join(listed) or 'no ranges file'}; "
                        "a chart set has one of ranges.csv, ranges_segments.csv, ranges.parquet")
    if VALUES_FILE not in entries:
        raise DataError(f"{folder / MANIFEST} does not list values.csv, the solved stacks")
    form = manifest.get("ranges")
    if form is not None and form != RANGE_FILES[listed[0]]:
        raise DataError(f"{folder / MANIFEST} says ranges={short(form)} but lists {listed[0]}")
    stacks = manifest.get("stacks")
    count = stacks.get("count") if isinstance(stacks, dict) else 1 if manifest.get("kind") == "solution" else None
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_STACKS:
        raise DataError(f"{folder / MANIFEST} has no stack count from 1 to {MAX_STACKS:,} (stacks.count: "
                        f"{short(count)})")
    return listed[0], count, entries


def _unverified(folder: Path) -> str:
    """Without ``verify``: the one ranges file the folder holds."""
    present = [name for name in RANGE_FILES if os.path.lexists(folder / name)]
    if not present:
        what = f"{folder} holds no ranges.csv, ranges.parquet or ranges_segments.csv"
        if any(os.path.lexists(folder / name) for name in (VALUES_FILE, "manifest.json")):
            raise DataError(f"{what}, but a chart set's values.csv or manifest.json: its ranges file is missing")
        raise ConfigError(f"{what}: not a chart set (sflp chart --out)")
    if len(present) > 1:
        raise DataError(f"{folder} holds {' and '.join(present)}; with verify=False it must hold one ranges file")
    return present[0]


# ---------------------------------------------------------------- the reader




def _solved_positions(frame, column: str, solved: np.ndarray, path) -> np.ndarray:
    """The positions in ``solved`` of the stacks of ``column`` (a run's ``stack_from`` or
    ``stack_to``), each one of the solved stacks of values.csv exactly (NaN is not), else DataError."""
    stack = _numbers(frame, column, path)
    at = np.minimum(np.searchsorted(solved, stack), len(solved) - 1)
    bad = solved[at] != stack  # NaN too
    if bad.any():
        k = _first(bad)
        raise DataError(f"{path} line {k + 2}: {column} {float(stack[k])!r} is not a solved stack of values.csv")
    return at

def _open_set(folder, stacks, verify):
    """The checks :func:`read_ranges` and :func:`~sflp.charts.margins.read_margins` share: the folder, its ranges file's
    name and manifest entries (checked unless ``verify`` is False), its solved stacks and the
    ones asked for (``stacks``, each a solved one)."""
    folder = _check_folder(folder)
    want = wanted_stacks(stacks)
    if not isinstance(verify, bool):
        raise ConfigError(f"verify={short(verify)} must be True or False")
    if verify:
        name, count, entries = _verified(folder)
    else:
        name, count, entries = _unverified(folder), None, {}
    solved = read_solved_stacks(folder, count, entries.get(VALUES_FILE))
    return folder, name, entries, solved, _solved_wanted(folder, solved, want)

def read_ranges(folder: Path | str, stacks: Sequence[float] | float | None = None, *, verify: bool = True):
    """The canonical tidy ranges frame (``stack, player, hand, frequency[, ev_margin]``) of a
    chart-set folder, from whichever form it holds: ``ranges.csv``, ``ranges.parquet`` or
    ``ranges_segments.csv`` (segments give no ``ev_margin`` column).

    ``stacks`` picks solved stacks (one number or a list, in any order, repeats allowed; default:
    every solved stack of ``values.csv``).  Rows come stack ascending, SB before BB, hands in
    class-id order, 338 a stack, the same rows from every form.  ``verify`` (default True)
    checks the folder against its ``manifest.json`` first; ``verify=False`` reads a folder made
    or edited by hand, still checking every value.  The module doc lists every check; any
    failure is one :class:`~sflp.errors.DataError` (a damaged folder) or
    :class:`~sflp.errors.ConfigError` (a bad argument, a stack that was not solved).

    For example ``read_ranges(folder, stacks=[3, 2, 3])`` of a set solved at 2 and 3 bb gives 676
    rows: 2 bb's SB AA first, 3 bb's BB 32o last (``docs/CHARTS.md`` runs such an example).
    The EV margins of a segments set are read by :func:`~sflp.charts.margins.read_margins`.
    """
    folder, name, entries, solved, want = _open_set(folder, stacks, verify)
    return _ranges_frame(folder, name, solved, want, entries)


def _solved_wanted(folder: Path, solved: np.ndarray, want: np.ndarray | None) -> np.ndarray:
    """The stacks asked for (every solved stack for None), each a solved stack, else ConfigError."""
    if want is None:
        return solved
    at = np.minimum(np.searchsorted(solved, want), len(solved) - 1)
    missing = want[solved[at] != want]
    if len(missing):
        raise ConfigError(f"stack {float(missing[0])!r} was not solved in {folder}: its {len(solved):,} "
                          f"solved stacks run from {float(solved[0])!r} to {float(solved[-1])!r} bb "
                          "(values.csv lists them)")
    return want


def _ranges_frame(folder: Path, name: str, solved: np.ndarray, want: np.ndarray, entries: dict):
    """:func:`read_ranges`' frame at the solved stacks ``want``, from the ranges file ``name``."""
    import pandas as pd

    players, hands = _column_names()
    frame = {"stack": np.repeat(want, ROWS_PER_STACK), "player": np.tile(players, len(want)),
             "hand": np.tile(hands, len(want))}
    if RANGE_FILES[name] == "segments":
        frame["frequency"] = _segments(folder, solved, want, entries.get(name)).ravel()
        return pd.DataFrame(frame)
    read = _ranges_csv if RANGE_FILES[name] == "csv" else _ranges_parquet
    stack, names_p, names_h, freq, ev = read(folder, solved, entries.get(name))
    path = folder / name

    def where(k: int) -> str:
        return f"line {k + 2}" if name.endswith(".csv") else f"row {k + 1}"

    _check_rows(path, solved, stack, names_p, names_h, where)
    _check_frequencies(freq, path, where)
    if np.isinf(ev).any():
        k = _first(np.isinf(ev))
        raise DataError(f"{path} {where(k)}: ev_margin {float(ev[k])!r} is not finite (or empty)")
    rows = (np.searchsorted(solved, want)[:, None] * ROWS_PER_STACK + np.arange(ROWS_PER_STACK)).ravel()
    frame["frequency"], frame["ev_margin"] = freq[rows], ev[rows]
    return pd.DataFrame(frame)
