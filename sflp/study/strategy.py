r"""One player's strategy: what it is, and how it is read from and written to text.

A strategy is 1,326 combo frequencies (push frequencies for SB, call frequencies for BB) held by
a :class:`StrategySpec`, with where it came from.  :func:`load_strategy` reads one from a file or
a range string; :func:`grid_csv_text` / :func:`read_grid_csv` write and read the 13x13 grid CSV
(``sb_push_<S>bb.csv`` of a chart set, written by :mod:`sflp.charts.media.csv` through this
module), so the grid's text format lives in one place.

Why one module: it is one piece, though over 600 lines: every SPEC format is read here into one
:class:`StrategySpec`, with one form of error (``<file>, line <n>: ...``; the JSON reader at the
end exists to give those errors their line numbers), so that a new format is one more reader here.

This module sits above :mod:`sflp.core.ranges` and below the modules that *use* strategies
(:mod:`sflp.study.verify`, :mod:`sflp.study.simulate`, :mod:`sflp.study.exploit`); it needs only numpy and the
standard library.  :mod:`sflp.study.verify` re-exports its names for compatibility.

Inputs
------
``load_strategy(spec, player)`` takes a path or a range string:

* **hand list** (``.csv``, or any text file): one ``hand,frequency`` per line, header optional
  (a first line whose first cell is not a hand and second cell not a number, such as
  ``hand,frequency``).  Hands are the 169 class names (``AA``, ``AKs``, ``t9o``) **or** the 1,326
  combos (``AhKh``), never both in one file.  Commas, tabs or blanks separate the two cells.
* **13x13 grid**: 13 rows of 13 numbers, aces top-left, suited above the diagonal, offsuit
  below (the orientation of :mod:`sflp.core.cards` and of ``sflp chart``), optionally with a header
  row of rank labels ``A K Q ... 2`` (with or without a leading corner cell) and/or a first
  column of rank labels.
* **JSON**: ``{"AA": 1, "AKs": 0.5, ...}`` with class names or combos; or
  ``{"sb": {...}, "bb": {...}}``, of which the entry of ``player`` is read.
* anything else is **range notation** (:func:`sflp.core.ranges.parse_range`): ``"22+,A2s+,K9o+"``.

Blank lines and lines starting with ``#`` are skipped.  Hands a file does not list count as
frequency 0 and are recorded in :attr:`StrategySpec.missing` (a range string lists by design
only what is played, so nothing is "missing" there).  A frequency outside ``[0, 1]``, a non-numeric
value, an unknown or ambiguous hand (``AK``: write ``AKs`` or ``AKo``), a hand given twice
(``AhKh`` and ``KhAh`` are the same combo), classes and combos in one file, a malformed grid or an
empty file raise :class:`StrategyFileError` (a :class:`~sflp.errors.NotationError`) whose
message reads ``<file>, line <n>: <what is wrong> <the bad text quoted>``.  A file is read only
when it is a regular file of at most :data:`~sflp.checks.STRATEGY_FILE_MAX_BYTES` (10 MiB), through
:func:`sflp.inputs.read_bytes`: a FIFO or a device is refused, never waited on.  In JSON, a key
twice in one object, an integer of more than :data:`~sflp.inputs.MAX_INT_DIGITS` digits, ``NaN``
and nesting too deep are each refused the same way, and reading stays linear in the file's size.


The grid CSV
------------
:func:`grid_csv_text` writes the layout that :func:`load_strategy` reads back exactly: a header
of a corner cell and the ranks ``A..2``, then 13 lines, each its rank and 13 frequencies written
with ``repr`` (the shortest text that reads back to the same double).

>>> import numpy as np
>>> values = np.linspace(0, 1, 169)
>>> text = grid_csv_text(values)
>>> text.splitlines()[0]
',A,K,Q,J,T,9,8,7,6,5,4,3,2'
>>> bool(np.array_equal(read_grid_csv(text), values))
True
"""

from __future__ import annotations

import csv
import json
import math
import os
from dataclasses import dataclass
from fractions import Fraction
from json.decoder import JSONDecodeError, scanstring
from pathlib import Path

import numpy as np

from sflp.checks import STRATEGY_FILE_MAX_BYTES, short
from sflp.core.cards import (
    CLASS_COMBOS,
    CLASS_NAMES,
    CLASS_SIZES,
    COMBO_CLASS,
    GRID_RANKS,
    N_CLASSES,
    N_COMBOS,
    PLAYERS,
    RANKS,
    class_id,
    combo_name,
    parse_combo,
)
from sflp.errors import ConfigError, NotationError
from sflp.inputs import MAX_INT_DIGITS, read_bytes

MBB = 1000.0
"""Milli-big-blinds per big blind (the unit in which strategies are scored)."""
PATH_SUFFIXES = (".csv", ".tsv", ".txt", ".json")
"""A spec that names no file but ends with one of these is reported as a missing file."""


class StrategyFileError(NotationError):
    """A strategy file could not be read; the message names the file, the line and the bad text."""

    def __init__(self, source: str, line: int | None, reason: str) -> None:
        self.source, self.line, self.reason = source, line, reason
        where = f"{source}, line {line}" if line is not None else f"{source}"
        super().__init__(f"{where}: {reason}")


# ---------------------------------------------------------------- the loaded strategy


@dataclass(frozen=True, eq=False)
class StrategySpec:
    """One player's strategy as 1,326 combo frequencies, with where it came from.

    ``kind`` is ``"class-list"``, ``"combo-list"``, ``"grid"``, ``"json-class"``,
    ``"json-combo"``, ``"range"``, ``"array"`` or ``"openspiel"`` (a policy read by
    :func:`sflp.openspiel.to_strategy`, ``source`` naming it); ``missing`` names the hands a file did not list
    (counted as 0): class names, or combo names with whole classes collapsed to the class name.
    """

    player: str
    source: str
    kind: str
    combo_freq: np.ndarray
    missing: tuple[str, ...] = ()
    note: str = ""
    """Set when the spec was ambiguous (a file named like a range): what was read, how to ask for the other."""
    exact_freq: tuple | None = None
    """The 1,326 combo frequencies as exact fractions when they are not floats (a float32 policy
    renormalised exactly, :func:`sflp.openspiel.to_strategy`), else None; ``combo_freq`` holds them
    rounded to the nearest float, and the exact figures (:func:`sflp.study.verify.verify`,
    ``exact=True``) are computed from these."""

    @property
    def description(self) -> str:
        """``file 'AA' (class-list)`` or ``range 'AA'``: what was read."""
        if self.kind == "range":
            return f"range {self.source!r}"
        if self.kind == "array":
            return "array"
        if self.kind == "openspiel":
            return f"OpenSpiel policy ({self.source})"
        return f"file {self.source!r} ({self.kind})"

    def __post_init__(self) -> None:
        freq = _floats(self.combo_freq, f"{N_COMBOS} combo frequencies")
        if freq.shape != (N_COMBOS,):
            raise ConfigError(f"a strategy needs {N_COMBOS} combo frequencies, not shape {freq.shape}")
        bad = np.flatnonzero(~((freq >= 0) & (freq <= 1)))  # NaN is bad too
        if bad.size:
            raise ConfigError(f"strategy frequencies must be finite numbers in [0, 1]: {combo_name(int(bad[0]))} is "
                              f"{float(freq[bad[0]])!r}{f' (and {bad.size - 1} more)' if bad.size > 1 else ''}")
        freq += 0.0
        freq.setflags(write=False)
        object.__setattr__(self, "combo_freq", freq)
        if self.exact_freq is not None:
            exact = tuple(self.exact_freq)
            if len(exact) != N_COMBOS or not all(isinstance(q, Fraction) and 0 <= q <= 1 for q in exact):
                raise ConfigError(f"exact_freq: expected {N_COMBOS} Fractions in [0, 1], the combo frequencies exactly")
            object.__setattr__(self, "exact_freq", exact)
        object.__setattr__(self, "player", _player(self.player))

    @classmethod
    def from_frequencies(cls, freq, player: str, source: str = "array") -> StrategySpec:
        """A spec from 169 class or 1,326 combo frequencies (an array or a :class:`~sflp.core.ranges.Range`)."""
        if hasattr(freq, "combo_weights"):
            freq = freq.combo_weights()
        if isinstance(freq, (str, bytes)):
            raise ConfigError(f"frequencies {freq!r:.40}: expected {N_CLASSES} class or {N_COMBOS} combo frequencies; "
                              f"for a range or a file, load_strategy({freq!r:.40}, {player!r:.10}) instead")
        arr = _floats(freq, f"{N_CLASSES} class or {N_COMBOS} combo frequencies")
        if arr.shape == (N_CLASSES,):
            arr = arr[COMBO_CLASS]
        return cls(player, source, "array", arr)

    @property
    def uniform(self) -> bool:
        """True when every class's combos share one frequency (a class strategy)."""
        return bool(np.all(self._class_uniform()))

    def _class_uniform(self) -> np.ndarray:
        first = self.combo_freq[[c[0] for c in CLASS_COMBOS]]
        alike = np.bincount(COMBO_CLASS, weights=self.combo_freq != first[COMBO_CLASS], minlength=N_CLASSES) == 0
        if self.exact_freq is not None:  # two fractions may round to one float
            q = self.exact_freq
            alike &= np.array([all(q[c] == q[members[0]] for c in members) for members in CLASS_COMBOS])
        return alike

    @property
    def level(self) -> str:
        """``"class"`` for a class strategy, else ``"combo"``."""
        return "class" if self.uniform else "combo"

    @property
    def class_freq(self) -> np.ndarray:
        """169 class frequencies: the common value of a uniform class, else the combo mean."""
        first = self.combo_freq[[c[0] for c in CLASS_COMBOS]]
        mean = np.bincount(COMBO_CLASS, weights=self.combo_freq, minlength=N_CLASSES) / CLASS_SIZES
        return np.where(self._class_uniform(), first, mean)

    def frequencies(self, level: str) -> np.ndarray:
        """The strategy at ``level`` ("class" needs a uniform spec)."""
        if level == "combo":
            return self.combo_freq
        if level != "class":
            raise ConfigError(f"level={level!r:.40}: expected 'class' or 'combo'")
        if not self.uniform:
            raise ConfigError(f"strategy {self.source!r} varies inside a class: evaluate it at combo level")
        return self.class_freq

    def exact_frequencies(self, level: str):
        """The strategy at ``level`` at its exact value: :attr:`exact_freq` (at class level the
        first combo of each class) when it is set, else the floats of :meth:`frequencies`."""
        floats = self.frequencies(level)
        if self.exact_freq is None:
            return floats
        if level == "combo":
            return self.exact_freq
        return tuple(self.exact_freq[members[0]] for members in CLASS_COMBOS)


def _floats(values, expected: str) -> np.ndarray:
    """``values`` as a new float64 array, or sflp's error (never numpy's ValueError, TypeError or
    OverflowError) saying what was ``expected``."""
    try:
        return np.array(values, dtype=np.float64)
    except (TypeError, ValueError, OverflowError):
        raise ConfigError(f"expected {expected} (numbers in [0, 1]), got {type(values).__name__} "
                          f"{short(values)}") from None


def _player(player: str) -> str:
    key = str(player).strip().lower()
    if key not in PLAYERS:
        raise ConfigError(f"player={player!r}: expected 'sb' or 'bb'")
    return key


# ---------------------------------------------------------------- reading


def load_strategy(spec: str | os.PathLike, player: str) -> StrategySpec:
    """One player's strategy from a file (hand list, 13x13 grid, JSON) or a range string.

    See the module docstring for the formats and the errors.

    >>> s = load_strategy("22+, A2s+", "sb")
    >>> s.kind, s.level, float(s.combo_freq.sum()), s.missing
    ('range', 'class', 126.0, ())
    """
    player = _player(player)
    if isinstance(spec, os.PathLike):
        spec = os.fspath(spec)
    if not isinstance(spec, str):
        raise ConfigError(
            f"{player.upper()} strategy must be a path or a range string, not {type(spec).__name__} {spec!r:.40}"
        )
    if not spec.strip():
        raise ConfigError(
            f"{player.upper()} strategy is empty: give a file, a range such as '22+,A2s+', "
            "or 'random:0' for a player who never plays"
        )
    prefix, _, rest = spec.partition(":")
    if prefix.strip().lower() in SPEC_PREFIXES and len(prefix) > 1:  # 'C:\\x' is a Windows path
        if not rest.strip():
            raise ConfigError(f"{player.upper()} strategy {spec!r}: nothing after {prefix.strip()}:")
        if prefix.strip().lower() == "range":
            return _load_range(rest, player, spec)
        path = Path(rest)
        if _is_file(path):
            return _load_file(path, player)
        raise StrategyFileError(rest, None, "is not a file" if _exists(path) else "no such file")
    path = Path(spec)
    if _is_file(path):
        spec_ = _load_file(path, player)
        if _parses_as_range(spec):
            object.__setattr__(
                spec_, "note", f"read the file {spec!r}; write range:{spec} for the range of that name"
            )
        return spec_
    if _exists(path):
        raise StrategyFileError(spec, None, "is not a file")
    looks_like_path = "/" in spec or "\\" in spec or spec.strip().lower().endswith(PATH_SUFFIXES)
    if looks_like_path and not _parses_as_range(spec):  # "[50]AKo[/50]" has a "/" and is a range
        raise StrategyFileError(spec, None, "no such file (and not range notation)")
    return _load_range(spec, player, spec)


def _is_file(path: Path) -> bool:
    """``path.is_file()`` that answers False instead of raising (a name too long, bad bytes)."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


def _exists(path: Path) -> bool:
    try:
        return path.exists()
    except (OSError, ValueError):
        return False


SPEC_PREFIXES = ("file", "range")
"""``file:PATH`` and ``range:TEXT`` say which a strategy spec is, when a file is named like a range."""


def _parses_as_range(text: str) -> bool:
    from sflp.core.ranges import parse_range

    try:
        parse_range(text)
    except NotationError:
        return False
    return True


def _load_range(text: str, player: str, spec: str) -> StrategySpec:
    from sflp.core.ranges import parse_range  # written alongside; imported when needed

    if not text.strip():
        raise ConfigError(f"{player.upper()} strategy {spec!r} is an empty range")
    try:
        weights = parse_range(text).combo_weights()
    except NotationError as exc:
        raise NotationError(f"{player.upper()} strategy {spec!r} is neither a file nor a range: {exc}") from None
    return StrategySpec(player, text, "range", weights)


def _load_file(path: Path, player: str) -> StrategySpec:
    source = str(path)
    limit = STRATEGY_FILE_MAX_BYTES
    try:  # a regular file only, never waited on (a FIFO), capped before it is read
        blob = read_bytes(path, source, max_bytes=limit)
    except ConfigError as exc:
        reason = str(exc).removeprefix(source).strip()
        if "bytes" in reason:
            reason += " (a class strategy is a few kB)"
        raise StrategyFileError(source, None, reason) from None
    try:
        text = blob.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = blob[: exc.start].count(b"\n") + 1
        bad = blob[exc.start : exc.start + 8]
        raise StrategyFileError(source, line, f"not UTF-8 text near {bad!r}") from None
    if not text.strip():
        raise StrategyFileError(source, 1, "empty file: no hands")
    if path.suffix.lower() == ".json" or text.lstrip().startswith("{"):
        entries = _json_entries(text, source, player)
        return _from_entries(entries, source, player, "json")
    rows = _table_rows(text)
    if not rows:
        raise StrategyFileError(source, 1, "empty file: only comments or blank lines, no hands")
    first_line, first_cells = rows[0]
    width = len(first_cells)
    if width in (13, 14):
        return _from_grid(rows, source, player)
    if width != 2:
        raise StrategyFileError(
            source,
            first_line,
            f"expected 'hand,frequency' (2 cells) or a 13x13 grid row, got {width} cells in "
            f"{_joined(first_cells)!r}",
        )
    return _from_entries(_list_entries(rows, source), source, player, "list")


def _table_rows(text: str) -> list[tuple[int, list[str]]]:
    """``(line number, cells)`` of the non-blank, non-comment lines of a CSV/TSV/blank-separated file."""
    data = "\n".join(
        line for line in text.splitlines() if line.strip() and not line.strip().startswith("#")
    )  # comments may contain anything ("# my chart, v2") and must not decide the separator
    delimiter = "," if "," in data else ("\t" if "\t" in data else None)
    rows = []
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if delimiter is None:
            cells = stripped.split()
        else:
            cells = next(csv.reader([line], delimiter=delimiter))
        rows.append((number, [c.strip() for c in cells]))
    return rows


def _joined(cells: list[str]) -> str:
    return ",".join(cells)


# -- hand names and numbers


def _hand(name: str) -> tuple[str, int] | None:
    """``("class", id)`` or ``("combo", id)`` of a hand name, or None."""
    text = name.strip()
    try:
        if len(text) == 4:
            return "combo", parse_combo(text)
        if len(text) in (2, 3):
            return "class", class_id(text)
    except NotationError:
        return None
    return None


def _unknown_hand(name: str) -> str:
    text = name.strip()
    if len(text) == 2 and text[0].upper() in RANKS and text[1].upper() in RANKS and text[0].upper() != text[1].upper():
        return f"ambiguous hand {name!r}: write {text.upper()}s or {text.upper()}o"
    return f"unknown hand {name!r} (expected a class such as 'AKs', 'T9o', '77' or a combo such as 'AhKh')"


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _frequency(value, source: str, line: int, what: str) -> float:
    """A frequency in [0, 1] from CSV text or a JSON value, or an error naming the bad text."""
    if isinstance(value, str):
        try:
            number = float(value)
        except ValueError:
            raise StrategyFileError(source, line, f"non-numeric frequency {value!r} for {what}") from None
        shown = value
    elif isinstance(value, int) and not isinstance(value, bool) and not 0 <= value <= 1:
        raise StrategyFileError(source, line, f"frequency {short(value)} for {what} is outside [0, 1] "
                                              "(frequencies, not percent)")
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        number, shown = float(value), json.dumps(value)
    else:
        raise StrategyFileError(source, line, f"non-numeric frequency {json.dumps(value)} for {what}")
    if not math.isfinite(number):
        raise StrategyFileError(source, line, f"frequency {shown!r} for {what} is not a finite number")
    if not 0.0 <= number <= 1.0:
        raise StrategyFileError(
            source, line, f"frequency {shown!r} for {what} is outside [0, 1] (frequencies, not percent)"
        )
    return number


# -- hand lists (CSV and JSON)


def _list_entries(rows: list[tuple[int, list[str]]], source: str) -> list[tuple[int, str, object]]:
    """``(line, hand, value)`` of a hand,frequency list (header skipped)."""
    (line0, cells0) = rows[0]
    if _hand(cells0[0]) is None and not _is_number(cells0[1]):
        rows = rows[1:]
        if not rows:
            raise StrategyFileError(source, line0, f"no hands after the header {_joined(cells0)!r}")
    entries = []
    for line, cells in rows:
        if len(cells) != 2:
            raise StrategyFileError(
                source, line, f"expected 'hand,frequency' (2 cells), got {len(cells)} in {_joined(cells)!r}"
            )
        entries.append((line, cells[0], cells[1]))
    return entries


def _from_entries(entries, source: str, player: str, fmt: str) -> StrategySpec:
    """Build a spec from ``(line, hand, value)`` entries of a list or a JSON object."""
    if not entries:
        raise StrategyFileError(source, 1, "no hands")
    kind0 = line0 = None
    seen: dict[int, tuple[int, str]] = {}
    values: dict[int, float] = {}
    for line, name, value in entries:
        hand = _hand(name)
        if hand is None:
            raise StrategyFileError(source, line, _unknown_hand(name))
        kind, index = hand
        if kind0 is None:
            kind0, line0 = kind, line
        elif kind != kind0:
            raise StrategyFileError(
                source,
                line,
                f"conflicting formats: {kind} {name!r} in a file of {kind0}s (line {line0} gives a "
                f"{kind0}); list either the 169 classes or the 1,326 combos",
            )
        if index in seen:
            first_line, first_name = seen[index]
            raise StrategyFileError(
                source, line, f"duplicate hand {name!r} (already given as {first_name!r} on line {first_line})"
            )
        seen[index] = (line, name)
        values[index] = _frequency(value, source, line, repr(name))
    if kind0 == "class":
        freq = np.zeros(N_CLASSES)
        for index, v in values.items():
            freq[index] = v
        missing = tuple(CLASS_NAMES[k] for k in range(N_CLASSES) if k not in values)
        return StrategySpec(player, source, _kind(fmt, "class"), freq[COMBO_CLASS], missing)
    freq = np.zeros(N_COMBOS)
    for index, v in values.items():
        freq[index] = v
    missing = []
    for k in range(N_CLASSES):
        absent = [c for c in CLASS_COMBOS[k] if c not in values]
        if len(absent) == len(CLASS_COMBOS[k]):
            missing.append(CLASS_NAMES[k])
        else:
            missing.extend(combo_name(c) for c in absent)
    return StrategySpec(player, source, _kind(fmt, "combo"), freq, tuple(missing))


def _kind(fmt: str, level: str) -> str:
    return f"json-{level}" if fmt == "json" else f"{level}-list"


# -- the 13x13 grid


def grid_csv_text(values) -> str:
    """169 class values (class-id order) as the 13x13 grid CSV that :func:`load_strategy` reads.

    A corner cell and the ranks ``A..2`` as header, then one line per row starting with its rank
    (aces top-left, suited above the diagonal, offsuit below: cell ``[row, col]`` is class id
    ``row*13 + col``); each value written with ``repr`` so it reads back to the same double.
    """
    cells = _floats(values, f"{N_CLASSES} values in class-id order").reshape(-1)
    if cells.shape != (N_CLASSES,):
        raise ConfigError(f"a 13x13 grid needs {N_CLASSES} values in class-id order, not shape {cells.shape}")
    lines = [",".join(["", *GRID_RANKS])]
    for row, rank in enumerate(GRID_RANKS):
        lines.append(",".join([rank, *(repr(float(v)) for v in cells[13 * row : 13 * row + 13])]))
    return "\n".join(lines) + "\n"


def read_grid_csv(text: str, source: str = "<grid>") -> np.ndarray:
    """The 169 class frequencies (class-id order) of a 13x13 grid CSV (see :func:`grid_csv_text`).

    Accepts every grid :func:`load_strategy` accepts (header and rank column optional, commas,
    tabs or blanks); errors are :class:`StrategyFileError` naming ``source`` and the line.
    """
    if not isinstance(text, str):
        raise ConfigError(f"text={short(text)}: expected the grid CSV as a str")
    rows = _table_rows(text)
    if not rows:
        raise StrategyFileError(source, 1, "empty grid: only comments or blank lines")
    return _grid_values(rows, source)


def _from_grid(rows: list[tuple[int, list[str]]], source: str, player: str) -> StrategySpec:
    return StrategySpec(player, source, "grid", _grid_values(rows, source)[COMBO_CLASS])


def _grid_values(rows: list[tuple[int, list[str]]], source: str) -> np.ndarray:
    line0, cells0 = rows[0]
    if any(c.upper() in ("A", "K", "Q", "J", "T") for c in cells0[-13:]):  # a header of rank labels
        if "".join(c.upper() for c in cells0[-13:]) != GRID_RANKS:
            raise StrategyFileError(
                source,
                line0,
                f"grid header {_joined(cells0)!r} must be the ranks A,K,Q,J,T,9,...,2 in order "
                "(optionally after a corner cell)",
            )
        rows = rows[1:]
    freq = np.zeros(N_CLASSES)
    for r, (line, cells) in enumerate(rows):
        if r >= 13:
            raise StrategyFileError(source, line, f"grid has more than 13 rows: {_joined(cells)!r}")
        if len(cells) == 14:
            label, cells = cells[0], cells[1:]
            if label.upper() != GRID_RANKS[r]:
                raise StrategyFileError(
                    source, line, f"grid row {r + 1} is labelled {label!r}, expected rank {GRID_RANKS[r]!r}"
                )
        elif len(cells) != 13:
            raise StrategyFileError(
                source, line, f"grid row {r + 1} has {len(cells)} cells, expected 13: {_joined(cells)!r}"
            )
        for col, cell in enumerate(cells):
            k = r * 13 + col
            freq[k] = _frequency(cell, source, line, f"{CLASS_NAMES[k]} (grid row {r + 1}, column {col + 1})")
    if len(rows) < 13:
        last = rows[-1][0] if rows else line0
        raise StrategyFileError(source, last, f"grid has only {len(rows)} rows, expected 13 (ranks A..2)")
    return freq


# -- JSON with line numbers


def _skip_ws(text: str, idx: int) -> int:
    while idx < len(text) and text[idx] in " \t\n\r":
        idx += 1
    return idx


@dataclass
class _JsonObject:
    """A parsed JSON object as ordered ``(line, key, value)`` triples (duplicates kept)."""

    pairs: list


class _Lines:
    """The line number of a position in ``text``, counted on from the last position asked for
    (the parser only moves forward), so that numbering every key costs one pass, not one per key."""

    def __init__(self, text: str) -> None:
        self.text, self.pos, self.line = text, 0, 1

    def at(self, idx: int) -> int:
        if idx < self.pos:
            self.pos, self.line = 0, 1
        self.line += self.text.count("\n", self.pos, idx)
        self.pos = idx
        return self.line


class _LongInteger(Exception):
    """An integer of more than :data:`sflp.inputs.MAX_INT_DIGITS` digits in a JSON strategy."""


def _integer(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_INT_DIGITS:
        raise _LongInteger(len(digits.lstrip("-")))
    return int(digits)


def _decoder() -> json.JSONDecoder:
    """``json``'s decoder with integers capped (:data:`sflp.inputs.MAX_INT_DIGITS` digits): a
    4,300-digit number is one clear error, never Python's conversion limit or an OverflowError."""
    return json.JSONDecoder(parse_int=_integer)


def _json_object(text: str, idx: int, decoder: json.JSONDecoder, lines: _Lines) -> tuple[_JsonObject, int]:
    """Parse the object starting at ``text[idx] == '{'``, recording each key's line."""
    pairs = []
    idx = _skip_ws(text, idx + 1)
    if text[idx : idx + 1] == "}":
        return _JsonObject(pairs), idx + 1
    while True:
        if text[idx : idx + 1] != '"':
            raise JSONDecodeError("Expecting property name enclosed in double quotes", text, idx)
        line = lines.at(idx)
        key, idx = scanstring(text, idx + 1)
        idx = _skip_ws(text, idx)
        if text[idx : idx + 1] != ":":
            raise JSONDecodeError("Expecting ':' delimiter", text, idx)
        idx = _skip_ws(text, idx + 1)
        if text[idx : idx + 1] == "{":
            value, idx = _json_object(text, idx, decoder, lines)
        else:
            try:
                value, idx = decoder.raw_decode(text, idx)
            except _LongInteger as exc:
                raise JSONDecodeError(f"an integer of {exc.args[0]:,} digits (at most {MAX_INT_DIGITS})", text,
                                      idx) from None
        pairs.append((line, key, value))
        idx = _skip_ws(text, idx)
        ch = text[idx : idx + 1]
        if ch == ",":
            idx = _skip_ws(text, idx + 1)
        elif ch == "}":
            return _JsonObject(pairs), idx + 1
        else:
            raise JSONDecodeError("Expecting ',' delimiter", text, idx)


def _json_entries(text: str, source: str, player: str) -> list[tuple[int, str, object]]:
    start = _skip_ws(text, 0)
    try:
        if text[start : start + 1] != "{":
            raise JSONDecodeError('Expecting an object {"AA": 1, ...}', text, start)
        obj, end = _json_object(text, start, _decoder(), _Lines(text))
        end = _skip_ws(text, end)
        if end != len(text):
            raise JSONDecodeError("Extra data", text, end)
    except JSONDecodeError as exc:
        near = text[exc.pos : exc.pos + 20].split("\n")[0]
        raise StrategyFileError(source, exc.lineno, f"invalid JSON: {exc.msg} at {near!r}") from None
    except RecursionError:
        raise StrategyFileError(source, None, "invalid JSON here: its objects and arrays are nested too deeply (a "
                                              "strategy is {hand: frequency}, or {'sb': {...}, 'bb': {...}})") from None
    pairs = obj.pairs
    keys = [k.strip().lower() for _, k, _ in pairs]
    if pairs and all(k in PLAYERS for k in keys) and all(isinstance(v, _JsonObject) for _, _, v in pairs):
        chosen = [(line, v) for (line, _, v), k in zip(pairs, keys) if k == player]
        if not chosen:
            raise StrategyFileError(source, pairs[0][0], f"no {player!r} entry (the file has {sorted(set(keys))})")
        if len(chosen) > 1:
            raise StrategyFileError(source, chosen[1][0], f"duplicate entry {player!r}")
        pairs = chosen[0][1].pairs
        if not pairs:
            raise StrategyFileError(source, chosen[0][0], f"the {player!r} entry lists no hands")
    out = []
    for line, key, value in pairs:
        if isinstance(value, _JsonObject):
            raise StrategyFileError(source, line, f"non-numeric frequency (an object) for {key!r}")
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            raise StrategyFileError(source, line, f"non-numeric frequency {json.dumps(value)} for {key!r}")
        out.append((line, key, value))
    return out
