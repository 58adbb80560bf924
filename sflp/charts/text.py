"""Texts of numbers and CSV rows, with numpy only: what the chart job's own process writes.

A chart job streams its every-stack files (``ranges.csv``, ``values.csv``) from the process that
solves, which never loads pandas; the writers that need frames run in worker processes
(:mod:`sflp.charts.media.formats`).  Floats are written as the shortest text that reads back to the
same double (Python's ``repr``), NaN as an empty field, line ends ``\\n``: the bytes of
:mod:`sflp.charts.media.csv` for the same numbers.
"""

from __future__ import annotations

import hashlib
import os
from fractions import Fraction
from pathlib import Path

import numpy as np

from sflp.core.cards import CLASS_NAMES, PLAYERS
from sflp.errors import OutputError
from sflp.output.clean import csv_field

RANGES_COLUMNS = ("stack", "player", "hand", "frequency", "ev_margin")
VALUES_COLUMNS = ("stack", "value", "push_pct", "call_pct", "exploitability")


def fmt_num(x: float) -> str:
    """A stack or blind as short text: ``1.0 -> '1'``, ``0.5 -> '0.5'``, ``7.7 -> '7.7'``.

    >>> fmt_num(1.0), fmt_num(0.5), fmt_num(12.35), fmt_num(25)
    ('1', '0.5', '12.35', '25')
    """
    return format(float(x), ".12g")


def exact_name_text(x: float) -> str:
    """The shortest text that reads back as the same double, without a trailing ``.0``: a number
    in a name (an atlas's structures), where two different numbers must never share a text
    (:func:`fmt_num`'s 12 significant digits would make ``0.1`` and ``0.1000000000001`` one).

    >>> exact_name_text(1.0), exact_name_text(0.1), exact_name_text(0.1000000000001), exact_name_text(1e-20)
    ('1', '0.1', '0.1000000000001', '1e-20')
    """
    text = repr(float(x))
    return text[:-2] if text.endswith(".0") else text


def fraction_text(value: Fraction | None) -> str:
    """An exact value as ``"p/q"`` (always with a denominator); empty for None.

    >>> fraction_text(Fraction(-3, 8)), fraction_text(Fraction(2)), fraction_text(None)
    ('-3/8', '2/1', '')
    """
    if value is None:
        return ""
    value = Fraction(value)
    return f"{value.numerator}/{value.denominator}"


def solution_rows(solution) -> np.ndarray:
    """A ``(4, 169)`` array: SB frequency, BB frequency, SB EV margin, BB EV margin per class.

    ``-0.0`` becomes ``0.0`` so that files never show a negative zero.
    """
    return np.stack(class_arrays(solution)).astype(np.float64) + 0.0


quote = csv_field
"""One CSV text field (:func:`sflp.output.clean.csv_field`, the one rule: quoted when it must be,
a formula made inert); every CSV writer of the chart layer quotes its texts with it."""


def float_texts(values: np.ndarray) -> list[str]:
    """Shortest round-trip text of each float (Python's ``repr``, done in one C call); NaN -> ``""``.

    >>> float_texts(np.array([0.1, 2.0, np.nan])), float_texts(np.array([]))
    (['0.1', '2.0', ''], [])
    """
    values = np.asarray(values, dtype=np.float64)
    if values.size == 0:
        return []
    texts = repr(values.tolist())[1:-1].split(", ")
    if "nan" in texts:
        texts = ["" if t == "nan" else t for t in texts]
    return texts


def frequency_texts(values: np.ndarray) -> list[str]:
    """:func:`float_texts` of frequencies, most of which are exactly 0 or 1 (their text is
    known; only the mixed ones are formatted)."""
    values = np.asarray(values, dtype=np.float64)
    out = np.full(values.shape, "0.0", dtype=object)
    out[values == 1.0] = "1.0"
    mixed = (values != 0.0) & (values != 1.0)
    if mixed.any():
        out[mixed] = float_texts(values[mixed])
    return out.tolist()


_ROW_TEMPLATE = "".join(f"%s,{player},{hand},%s,%s\n" for player in PLAYERS for hand in CLASS_NAMES)
"""The 338 rows of one stack as one format string: (stack, frequency, ev_margin) per row."""
_N_ROWS = len(PLAYERS) * len(CLASS_NAMES)
_MARGIN_TEMPLATE = "".join(f"%s,{player},{hand},%s\n" for player in PLAYERS for hand in CLASS_NAMES)
MARGINS_COLUMNS = ("stack", "player", "hand", "ev_margin")
"""The columns of ``margins_stacks.csv``: those of ``ranges.csv`` without ``frequency``."""


def values_csv_text(rows: np.ndarray, exact: list[str] | None = None, header: bool = True) -> str:
    """``values.csv`` from a ``(stacks, 5)`` array of :data:`VALUES_COLUMNS` (and the
    ``value_exact`` texts): the bytes :func:`sflp.charts.media.csv.write_values_csv` writes.  With
    ``header=False`` just the rows, so that a long file can be made in pieces."""
    rows = np.asarray(rows, dtype=np.float64).reshape(-1, len(VALUES_COLUMNS))
    columns = [float_texts(rows[:, k] + 0.0) for k in range(len(VALUES_COLUMNS))]
    names = list(VALUES_COLUMNS)
    if exact is not None:
        columns.append([quote(t) for t in exact])
        names.append("value_exact")
    lines = [",".join(names)] if header else []
    lines.extend(",".join(row) for row in zip(*columns))
    return "\n".join(lines) + "\n" if lines else ""


class RangesCsvStream:
    """``ranges.csv`` written one stack at a time, with its SHA-256 computed on the way.

    The bytes are exactly those of :func:`write_ranges_csv` for the same solutions (a test
    checks it), but memory does not grow with the number of stacks: each call to
    :meth:`add` formats and writes the stack's 338 rows.  Use inside a staged folder
    (:mod:`sflp.output`), which makes the whole set appear at once.
    """

    def __init__(self, path: Path | str, *, margins: bool = False):
        self.path = Path(path)
        self.margins = margins  # the EV margins only (``margins_stacks.csv``, :data:`MARGINS_COLUMNS`)
        self.digest = hashlib.sha256()
        try:  # in a fresh staging folder: O_EXCL, no inode left is sflp's error like a full disk
            self.fh = open(self.path, "xb", buffering=1 << 20)
        except OSError as exc:
            raise OutputError(f"cannot write {self.path}: {exc.strerror or exc}") from None
        self.rows = 0
        self._write(",".join(MARGINS_COLUMNS if margins else RANGES_COLUMNS) + "\n")

    def _write(self, text: str) -> None:
        data = text.encode("utf-8")
        self.digest.update(data)
        try:
            self.fh.write(data)
        except OSError as exc:  # a full disk, a file size limit: sflp's error, naming the file
            raise OutputError(f"cannot write {self.path}: {exc.strerror or exc}") from None

    def add(self, stack: float, rows: np.ndarray) -> None:
        """Write one stack: ``rows`` is :func:`sflp.charts.frames.solution_rows` (4 x 169)."""
        if self.margins:
            args = [repr(float(stack))] * (2 * _N_ROWS)
            args[1::2] = float_texts(rows[2:4].ravel() + 0.0)
            self._write(_MARGIN_TEMPLATE % tuple(args))
            self.rows += _N_ROWS
            return
        args: list[str] = [repr(float(stack))] * (3 * _N_ROWS)
        args[1::3] = frequency_texts(rows[0:2].ravel() + 0.0)
        args[2::3] = float_texts(rows[2:4].ravel() + 0.0)
        self._write(_ROW_TEMPLATE % tuple(args))
        self.rows += _N_ROWS

    def close(self) -> str:
        """Flush, fsync and close; returns the hex SHA-256 of the file."""
        try:
            self.fh.flush()
            os.fsync(self.fh.fileno())
            self.fh.close()
        except OSError as exc:
            raise OutputError(f"cannot write {self.path}: {exc.strerror or exc}") from None
        return self.digest.hexdigest()

    def discard(self) -> None:
        """Close without keeping the file (after an error; a close that fails again is ignored)."""
        try:
            self.fh.close()
        except OSError:
            pass
        finally:
            self.path.unlink(missing_ok=True)


def class_arrays(solution):
    """``(sb_freq, bb_freq, sb_ev, bb_ev)`` per class (169 each), whatever the solution's level."""
    import numpy as np

    from sflp.core.cards import COMBO_CLASS, N_CLASSES

    if solution.level == "class":
        return solution.sb_strategy, solution.bb_strategy, solution.sb_ev, solution.bb_ev
    sb, bb = solution.class_strategies()

    def mean(values):
        values = np.asarray(values, dtype=np.float64)
        ok = ~np.isnan(values)
        total = np.bincount(COMBO_CLASS, weights=np.where(ok, values, 0.0), minlength=N_CLASSES)
        count = np.bincount(COMBO_CLASS, weights=ok.astype(np.float64), minlength=N_CLASSES)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(count > 0, total / np.where(count > 0, count, 1), np.nan)

    return sb, bb, mean(solution.sb_ev), mean(solution.bb_ev)
