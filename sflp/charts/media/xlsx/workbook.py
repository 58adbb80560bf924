"""Excel workbooks built from the tidy frames, written through XlsxWriter (:mod:`.book`).

Chart workbook (:func:`chart_workbook`), sheets in order:

``SB push`` / ``BB call``
    The threshold charts: a 13x13 grid in the HoldemResources orientation (aces top-left,
    suited above the diagonal, offsuit below; rank labels in row 2 and column A), grid cells
    ``B3:N15``.  Each cell holds a number, shown as the hand's name and label by its number format
    (:func:`label_value`, :func:`label_format`): the largest stack (bb, truncated to 0.1) at which
    it is played with frequency > 0.5; the top of the range, shown ``25+``, when played up to it;
    0, shown ``-``, when never; the label's mark (``*``, ``†``) after the number.  Fill colour
    follows ``max_stack`` in the chart's bands (:mod:`sflp.charts.scale`, the top colour when capped), whose legend sits
    under the grid with a printed note on the layout and the marks, and one line per marked hand
    (:func:`sflp.charts.scale.footnotes`); a marked cell also carries a note (on screen).  One page.
``Ranges``
    SB push and BB call frequency grids for a few stacks, one block of
    :data:`RANGE_BLOCK_HEIGHT` rows per stack: title row (``A`` = ``"Stack 10 bb"``), rank
    labels, then the SB grid in ``B:N`` and the BB grid in ``Q:AC``, then a note.  Cells hold the
    frequency (0..1) and display the hand name with the percentage when mixed.  One grid a page.
``Values``
    The EV-by-stack table (the columns of ``values.csv``) with native scatter-line charts of
    SB's value and of the push / call percentages against the stack.
``Hand EV``
    Per-hand EV margins by stack, wide: stacks as rows; columns ``B..`` the 169 SB hands
    (EV(shove) - EV(fold)), then the 169 BB hands (EV(call) - EV(fold) facing a shove, empty
    where SB never shoves).  Row 1 names the player block, row 2 the hand; panes frozen.  At most
    :data:`~sflp.charts.stacks.HAND_EV_STACKS` (50) stacks plus the grid stacks; a sheet showing
    part of the stacks says which and where every stack's margins are (``Values`` likewise, at
    most :data:`sflp.charts.about.MAX_SHEET_STACKS`, 500, plus the grid stacks).
``About``
    Configuration, versions, equity checksum, solver, exploitability and certificate status.
``SC numbers`` (:func:`add_sc_sheet`)
    The Sklansky-Chubukov grid in the threshold bands, the exact list beside it.

Text a user gave us -- a title, a strategy's name or file name, an ``extra_about`` key or
value -- stays text: every such cell is written by :func:`text_cell`, as a string cell (never a
formula, an error code or a number), shown as typed in Excel and LibreOffice even when it starts
with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return (:data:`FORMULA_STARTS`).

Every sheet has a print set-up (:func:`_print_setup`): landscape, fitted to the page, the sheet's
name and page numbers in the header and footer, every cell in :data:`FONT_NAME`.  The threshold,
SC and About sheets print on one page each and ``Ranges`` on one page a grid; ``Values`` prints its
charts and ``Hand EV`` a note, each saying that the table is left out of the print area.

Single-stack workbook (:func:`solution_workbook`): ``SB push`` and ``BB call`` frequency grids
(with each hand's EV margin grid below), ``Values`` (one row) and ``About``.
"""

from __future__ import annotations

import datetime
import io
import os
import shutil
import zipfile
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from sflp.atomic import write_with
from sflp.charts.frames import PLAYER_TITLES, grid_from_tidy
from sflp.charts.media.xlsx.book import Book, write_book
from sflp.charts.media.xlsx.cells import (
    _BOLD,
    _TITLE,
    GRID_LEFT,
    GRID_TOP,
    SHEET_NAMES,
    _grid_dimensions,
    _print_setup,
    _sheet,
    text_cell,
)
from sflp.charts.media.xlsx.sheets import (
    _about_sheet,
    _ev_grid,
    _frequency_grid,
    _hand_ev_sheet,
    _ranges_sheet,
    _threshold_sheet,
    _values_sheet,
)
from sflp.charts.stacks import HAND_EV_STACKS, hand_ev_stacks  # noqa: F401 -- HAND_EV_STACKS: the cap, documented here
from sflp.charts.text import fmt_num
from sflp.core.cards import PLAYERS
from sflp.errors import ConfigError

# ---------------------------------------------------------------- workbooks


def chart_workbook(
    values: pd.DataFrame,
    ranges: pd.DataFrame,
    thresholds: pd.DataFrame | None,
    low: float,
    high: float,
    range_stacks: Sequence[float],
    about: Sequence[tuple[str, object]],
    structure: str,
    *,
    homes: dict | None = None,
) -> Book:
    """The chart-set workbook (see the module doc); ``thresholds`` None skips the threshold sheets.

    A :class:`~sflp.charts.media.xlsx.book.Book`: save it with :func:`save_workbook`.
    ``ranges`` holds the stacks shown on the ``Values`` sheet (the chart job passes at most
    :data:`sflp.charts.about.MAX_SHEET_STACKS`, evenly chosen) and the ``range_stacks``;
    ``values`` may hold more stacks (only those in ``ranges`` are shown).  The ``Hand EV`` sheet
    shows at most :data:`HAND_EV_STACKS` of them, spread evenly, with the ``range_stacks``.
    A sheet showing part of the stacks says so in its note row: how many of how many, which
    ones, and where every stack is -- ``homes["values"]`` and ``homes["margins"]``, the set's
    files (:func:`sflp.charts.about.subset_notes` words the notes; None: this set has no
    such file).
    """
    workbook_time()  # a bad SOURCE_DATE_EPOCH fails here, before any work
    wb = Book()
    if thresholds is not None:
        for player in PLAYERS:
            _threshold_sheet(_sheet(wb, SHEET_NAMES[player]), thresholds, player, low, high, structure)
    _ranges_sheet(_sheet(wb, "Ranges"), ranges, range_stacks)
    from sflp.charts.about import subset_text

    homes = {"values": "values.csv", "margins": "the ranges file"} if homes is None else homes
    shown = np.unique(ranges["stack"].to_numpy())
    total = len(values)
    note = None
    if len(shown) < total:
        note = subset_text(shown, total, homes.get("values"), "values")
        values = values[np.isin(values["stack"].to_numpy(), shown)]
    _values_sheet(_sheet(wb, "Values"), values, note=note)
    ev_stacks = hand_ev_stacks(shown, range_stacks)
    note = None
    if len(ev_stacks) < total:
        note = subset_text(ev_stacks, total, homes.get("margins"), "EV margins")
        ranges = ranges[np.isin(ranges["stack"].to_numpy(), ev_stacks)]
    _hand_ev_sheet(_sheet(wb, "Hand EV"), ranges, note=note)
    _about_sheet(_sheet(wb, "About"), about)
    return wb


def solution_workbook(
    values: pd.DataFrame, ranges: pd.DataFrame, about: Sequence[tuple[str, object]], structure: str
) -> Book:
    """The single-stack workbook: frequency and EV grids per player, values, about."""
    workbook_time()  # a bad SOURCE_DATE_EPOCH fails here, before any work
    wb = Book()
    stack = float(values["stack"].iloc[0])
    for player in PLAYERS:
        ws = _sheet(wb, SHEET_NAMES[player])
        text_cell(ws.cell(1, 1), f"{PLAYER_TITLES[player]} frequency at {fmt_num(stack)} bb, {structure}").font = _TITLE
        freq = grid_from_tidy(ranges, "frequency", stack=stack, player=player)
        hands = grid_from_tidy(ranges, "hand", stack=stack, player=player)
        _frequency_grid(ws, GRID_TOP, GRID_LEFT, freq, hands, player)
        ev_title = GRID_TOP + 14
        what = "EV(shove) - EV(fold), bb per hand" if player == "sb" else (
            "EV(call) - EV(fold) facing a shove, bb (empty where SB never shoves)"
        )
        ws.cell(ev_title, 1, what).font = _BOLD
        ev = grid_from_tidy(ranges, "ev_margin", stack=stack, player=player)
        _ev_grid(ws, ev_title + 2, GRID_LEFT, ev)
        _grid_dimensions(ws, GRID_LEFT, 8, GRID_TOP, 18)
        for k in range(13):
            ws.heights[ev_title + 2 + k] = 18
        ws.gridlines = False
        _print_setup(ws, f"A1:N{ev_title + 14}")
    _values_sheet(_sheet(wb, "Values"), values, charts=False)
    _about_sheet(_sheet(wb, "About"), about)
    return wb


DEFAULT_TIME = datetime.datetime(2000, 1, 1)
"""The workbook's created/modified time (UTC) when ``SOURCE_DATE_EPOCH`` is not set."""
_ZIP_EPOCH = datetime.datetime(1980, 1, 1)
"""The earliest time a zip entry can carry."""


def workbook_time() -> datetime.datetime:
    """The time written into a workbook (naive UTC): ``SOURCE_DATE_EPOCH`` (seconds since 1970,
    the reproducible-builds convention) when set, else :data:`DEFAULT_TIME`.

    >>> workbook_time() == DEFAULT_TIME or "SOURCE_DATE_EPOCH" in os.environ
    True
    """
    text = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if not text:
        return DEFAULT_TIME
    try:
        seconds = int(text)
        return datetime.datetime.fromtimestamp(seconds, datetime.UTC).replace(tzinfo=None)
    except (ValueError, OverflowError, OSError):
        raise ConfigError(f"SOURCE_DATE_EPOCH must be whole seconds since 1970, got {text!r}") from None


def _reproducible_copy(raw: io.BytesIO, path: Path, when: datetime.datetime) -> None:
    """Copy the zip ``raw`` (as XlsxWriter wrote it) to ``path`` with its time stamps fixed.

    XlsxWriter dates every zip entry 1980-01-01 and writes the ``created`` property as both
    ``created`` and ``modified`` in ``docProps/core.xml``.  The copy keeps the entries, their
    order, compression and bytes, and gives every entry the date ``when`` and fixed attributes:
    :func:`_stamped` sets them in the zip's headers, the same bytes as writing each entry again
    (:func:`_rewritten`, kept for a zip the headers alone cannot carry, and as the tests' reference)
    without decompressing and compressing every entry a second time (a tenth of the workbook's CPU).
    """
    data = _stamped(raw.getvalue(), when)
    if data is None:
        _rewritten(raw, path, when)
    else:
        path.write_bytes(data)


def _rewritten(raw: io.BytesIO, path: Path, when: datetime.datetime) -> None:
    """:func:`_reproducible_copy` entry by entry through :mod:`zipfile`: each decompressed and written again."""
    stamp = max(when, _ZIP_EPOCH).timetuple()[:6]
    with zipfile.ZipFile(raw) as source, zipfile.ZipFile(path, "w", allowZip64=True) as target:
        for old in source.infolist():
            new = zipfile.ZipInfo(old.filename, date_time=stamp)
            new.compress_type = old.compress_type
            new.create_system = 3  # Unix, on every platform: the attributes below are Unix modes
            new.external_attr = 0o100644 << 16
            new.file_size = old.file_size  # lets zipfile decide up front whether ZIP64 is needed
            with source.open(old) as src, target.open(new, "w") as dst:
                shutil.copyfileobj(src, dst, 1 << 20)


def _stamped(data: bytes, when: datetime.datetime) -> bytes | None:
    """The zip ``data`` with what :func:`_rewritten` changes set in its headers (APPNOTE 4.3.7, 4.3.12):
    every entry's DOS date and time ``when``, in its local header and its central-directory entry,
    and there "made by" Unix (3) and the attributes ``0o100644 << 16``.  None for a zip these
    fields cannot describe as :func:`_rewritten` would write it (ZIP64, data descriptors, a comment)."""
    import struct

    end = len(data) - 22
    if end < 0 or data[end:end + 4] != b"PK\x05\x06":
        return None  # a comment after the end record, or no zip
    count, size, offset = struct.unpack_from("<HII", data, end + 10)
    if count == 0xFFFF or offset == 0xFFFFFFFF:
        return None
    y, mo, d, h, mi, sec = max(when, _ZIP_EPOCH).timetuple()[:6]
    date, time = (y - 1980) << 9 | mo << 5 | d, h << 11 | mi << 5 | sec // 2
    out = bytearray(data)
    pos = offset
    for _ in range(count):
        if data[pos:pos + 4] != b"PK\x01\x02":
            return None
        flags, = struct.unpack_from("<H", data, pos + 8)
        csize, usize, n, m, k = struct.unpack_from("<IIHHH", data, pos + 20)
        local, = struct.unpack_from("<I", data, pos + 42)
        if flags & 0x08 or 0xFFFFFFFF in (csize, usize, local) or data[local:local + 4] != b"PK\x03\x04":
            return None
        struct.pack_into("<HH", out, local + 10, time, date)
        out[pos + 5] = 3
        struct.pack_into("<HH", out, pos + 12, time, date)
        struct.pack_into("<I", out, pos + 38, 0o100644 << 16)
        pos += 46 + n + m + k
    return bytes(out) if pos == offset + size == end else None


def save_workbook(wb: Book, path: Path | str) -> Path:
    """Save ``wb`` to ``path`` atomically, with reproducible bytes; returns ``path``.

    The workbook is written by XlsxWriter (:func:`sflp.charts.media.xlsx.book.write_book`) into
    memory, its ``created`` and ``modified`` times :func:`workbook_time`, and copied entry by
    entry, every zip time stamp set to that time (:func:`_reproducible_copy`), to a temporary
    file beside ``path``, which is then renamed to ``path`` (:func:`sflp.atomic.write_with`): the
    same inputs give the same bytes, and an error leaves no half-written file.
    """
    when = workbook_time()

    def write(tmp: Path) -> None:
        raw = io.BytesIO()
        write_book(wb, raw, when)
        raw.seek(0)
        _reproducible_copy(raw, tmp, when)

    return write_with(path, write)
