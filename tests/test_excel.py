"""Tests of sflp.charts.media.xlsx.workbook's container: no library's private API, reproducible bytes
(SOURCE_DATE_EPOCH), atomic writes.  Small hand-made workbooks; the chart workbook's content is
checked in test_report.py, and against the workbook openpyxl wrote before in test_xlsx_reference.py."""

from __future__ import annotations

import ast
import datetime
import io
import math
import os
import re
import subprocess
import sys
import textwrap
import time
import zipfile
from pathlib import Path

import openpyxl
import pytest

from sflp.charts.media.xlsx import cells as xlsx_cells
from sflp.charts.media.xlsx import sheets as xlsx_sheets
from sflp.charts.media.xlsx import workbook as excel
from sflp.charts.media.xlsx.book import Book
from sflp.charts.stacks import HAND_EV_STACKS
from sflp.errors import ConfigError

ROOT = Path(__file__).resolve().parent.parent


def small_workbook() -> Book:
    wb = Book()
    ws = wb.create_sheet("Data")
    for r in range(20):
        ws.append([float(r), r * 0.1, f"row {r}"])
    return wb


def zip_dates(path: Path) -> set[tuple[int, ...]]:
    with zipfile.ZipFile(path) as archive:
        return {info.date_time for info in archive.infolist()}


XLSX_MODULES = sorted(p.name for p in (ROOT / "sflp" / "charts" / "media" / "xlsx").glob("*.py"))


@pytest.mark.parametrize("module", XLSX_MODULES)
def test_the_xlsx_medium_uses_no_private_api_of_any_library(module):
    """No module of the xlsx medium imports a private name of a library (``xlsxwriter._x``,
    openpyxl's style arrays) or reads a private attribute of an object not its own (issue 43: the
    workbook moved from openpyxl, whose private ``Cell._style`` a module copied, to XlsxWriter)."""
    tree = ast.parse((ROOT / "sflp" / "charts" / "media" / "xlsx" / module).read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and not (node.module or "").startswith(("sflp", "__future__")):
            parts = (node.module or "").split(".") + [alias.name for alias in node.names]
            assert not [p for p in parts if p.startswith("_")], ast.unparse(node)
            assert not {"cell_style", "StyleArray"} & set(parts), ast.unparse(node)
        if isinstance(node, ast.Import):
            assert not [a.name for a in node.names if "._" in a.name], ast.unparse(node)
        if isinstance(node, ast.Attribute):
            private = node.attr.startswith("_") and not (node.attr.startswith("__") and node.attr.endswith("__"))
            # the module's own helper objects keep their state in `self._...`; nothing else may
            assert not private or ast.unparse(node.value) == "self", (node.lineno, ast.unparse(node))
            assert node.attr != "__dict__", (node.lineno, ast.unparse(node))


def test_the_private_api_check_sees_a_private_attribute():
    """The check above is able to fail: ``cell._style`` (what styles.py read) is refused."""
    tree = ast.parse("cell._style = copy(hit)\nfrom xlsxwriter.worksheet import _xl_rowcol\n")
    attrs = [n for n in ast.walk(tree) if isinstance(n, ast.Attribute) and n.attr.startswith("_")]
    imports = [n for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)
               and any(a.name.startswith("_") for a in n.names)]
    assert attrs and imports


def test_same_bytes_whenever_saved(tmp_path, monkeypatch):
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    first = excel.save_workbook(small_workbook(), tmp_path / "a.xlsx")
    later = time.time() + 86400 * 400  # zip entries would carry this time if it were not fixed
    monkeypatch.setattr(time, "time", lambda: later)
    second = excel.save_workbook(small_workbook(), tmp_path / "b.xlsx")
    assert first.read_bytes() == second.read_bytes()
    assert zip_dates(first) == {(2000, 1, 1, 0, 0, 0)}
    props = openpyxl.load_workbook(first).properties
    assert props.created == props.modified == excel.DEFAULT_TIME


def test_times_follow_source_date_epoch(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    path = excel.save_workbook(small_workbook(), tmp_path / "a.xlsx")
    when = datetime.datetime(2023, 11, 14, 22, 13, 20)
    assert excel.workbook_time() == when
    props = openpyxl.load_workbook(path).properties
    assert props.created == props.modified == when
    assert zip_dates(path) == {(2023, 11, 14, 22, 13, 20)}


def test_an_epoch_before_1980_gives_the_earliest_zip_date(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "0")
    path = excel.save_workbook(small_workbook(), tmp_path / "a.xlsx")
    assert openpyxl.load_workbook(path).properties.created == datetime.datetime(1970, 1, 1)
    assert zip_dates(path) == {(1980, 1, 1, 0, 0, 0)}


def test_a_bad_source_date_epoch_is_refused_before_writing(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "tomorrow")
    with pytest.raises(ConfigError, match="'tomorrow'"):
        excel.workbook_time()
    wb = Book()
    wb.create_sheet("Data")
    with pytest.raises(ConfigError, match="'tomorrow'"):
        excel.save_workbook(wb, tmp_path / "a.xlsx")
    assert list(tmp_path.iterdir()) == []


def test_the_copy_keeps_xlsxwriters_entries_in_order(tmp_path):
    from sflp.charts.media.xlsx.book import write_book

    raw = io.BytesIO()
    write_book(small_workbook(), raw, excel.workbook_time())
    path = excel.save_workbook(small_workbook(), tmp_path / "a.xlsx")
    with zipfile.ZipFile(raw) as made, zipfile.ZipFile(path) as copied:
        assert [i.filename for i in copied.infolist()] == [i.filename for i in made.infolist()]
        assert [i.compress_type for i in copied.infolist()] == [i.compress_type for i in made.infolist()]
        for info in made.infolist():
            assert copied.read(info.filename) == made.read(info)
        assert copied.testzip() is None



@pytest.mark.parametrize("when", [excel.DEFAULT_TIME, datetime.datetime(2026, 7, 3, 13, 45, 59),
                                  datetime.datetime(1970, 1, 1)])
def test_stamping_the_headers_gives_the_bytes_of_writing_every_entry_again(tmp_path, when):
    # the workbook's time stamps are set in the zip's headers (_stamped), not by decompressing and
    # compressing every entry again (_rewritten): the same file, byte for byte
    from sflp.charts.media.xlsx.book import write_book

    raw = io.BytesIO()
    write_book(small_workbook(), raw, when)
    excel._rewritten(io.BytesIO(raw.getvalue()), tmp_path / "rewritten.xlsx", when)
    stamped = excel._stamped(raw.getvalue(), when)
    assert stamped is not None and stamped == (tmp_path / "rewritten.xlsx").read_bytes()
    assert stamped != raw.getvalue()  # XlsxWriter's 1980 dates and attributes were replaced
    excel._reproducible_copy(io.BytesIO(raw.getvalue()), tmp_path / "copy.xlsx", when)
    assert (tmp_path / "copy.xlsx").read_bytes() == stamped
    # a zip the headers cannot carry that way (here: a comment after the end record) is rewritten
    commented = raw.getvalue()[:-2] + b"\x02\x00hi"
    assert excel._stamped(commented, when) is None
    excel._reproducible_copy(io.BytesIO(commented), tmp_path / "commented.xlsx", when)
    assert (tmp_path / "commented.xlsx").read_bytes() == stamped

def test_a_failed_write_leaves_the_old_file_and_no_temporary_file(tmp_path, monkeypatch):
    target = tmp_path / "a.xlsx"
    target.write_bytes(b"old")

    def broken(raw, path, when):
        Path(path).write_bytes(b"PK half")
        raise RuntimeError("broken writer")

    monkeypatch.setattr(excel, "_reproducible_copy", broken)
    with pytest.raises(RuntimeError, match="broken writer"):
        excel.save_workbook(small_workbook(), target)
    assert [p.name for p in tmp_path.iterdir()] == ["a.xlsx"] and target.read_bytes() == b"old"


def test_a_full_disk_is_one_output_error_and_nothing_else(tmp_path):
    # RLIMIT_FSIZE makes writes past the limit fail with EFBIG, as a full disk fails with ENOSPC;
    # neither XlsxWriter's nor our zip may print "Exception ignored" noise when it is collected
    script = textwrap.dedent(f"""
        import gc, random, resource, signal
        from sflp.charts.media.xlsx.book import Book
        from sflp.errors import OutputError
        from sflp.charts.media.xlsx.workbook import save_workbook

        wb = Book()
        ws = wb.create_sheet("Data")
        rng = random.Random(1)
        for r in range(300):
            ws.append([rng.random() for _ in range(60)])
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (20000, 20000))
        try:
            save_workbook(wb, {str(tmp_path / "a.xlsx")!r})
        except OutputError as exc:
            print(exc)
        del wb
        gc.collect()
    """)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    assert proc.stdout.startswith(f"cannot write {tmp_path / 'a.xlsx'}: ") and "File too large" in proc.stdout
    assert list(tmp_path.iterdir()) == []



def test_hand_ev_rows_are_numbers_with_the_ev_format_and_nan_is_no_cell(tmp_path):
    import pandas as pd

    from sflp.core.cards import CLASS_NAMES

    margins = {("sb", 12.5): [0.1, -1 / 3, 2.5e-17], ("bb", 12.5): [float("nan"), 0.25, float("nan")],
               ("sb", 3.0): [-0.5, 0.0, 1.0], ("bb", 3.0): [1.5, -2.0, 0.125]}
    rows = []
    for (player, stack), first in margins.items():
        for k, hand in enumerate(CLASS_NAMES):
            rows.append((stack, player, hand, 1.0, first[k] if k < len(first) else 0.001 * k))
    ranges = pd.DataFrame(rows, columns=["stack", "player", "hand", "frequency", "ev_margin"])
    wb = Book()
    xlsx_sheets._hand_ev_sheet(wb.create_sheet("Hand EV"), ranges)
    path = excel.save_workbook(wb, tmp_path / "a.xlsx")

    ws = openpyxl.load_workbook(path)["Hand EV"]
    assert [ws.cell(r, 1).value for r in (3, 4)] == [3.0, 12.5]  # stacks ascending
    assert [ws.cell(4, c).value for c in (2, 3, 4)] == [0.1, -1 / 3, 2.5e-17]
    assert ws.cell(4, 171).value is None and ws.cell(4, 172).value == 0.25 and ws.cell(4, 173).value is None
    assert ws.cell(3, 171).value == 1.5 and ws.cell(3, 339).value == 0.001 * 168
    assert {ws.cell(r, c).number_format for r in (3, 4) for c in range(2, 340) if ws.cell(r, c).value is not None} \
        == {xlsx_sheets.EV_FORMAT}
    with zipfile.ZipFile(path) as archive:
        sheet = archive.read("xl/worksheets/sheet1.xml").decode()
    assert '<c r="FO4"' not in sheet and '<c r="FQ4"' not in sheet  # NaN: no cell at all
    (block,) = ws.conditional_formatting
    assert str(block.sqref) == "B3:MA4" and [rule.type for rule in block.rules] == ["colorScale"]


@pytest.fixture(scope="module")
def full_set(default_stacks_set) -> Path:
    """The default chart set, 1-25 bb at 0.05 (481 stacks), as xlsx and csv (and html: conftest.py's,
    shared with tests/test_margins_and_caps.py)."""
    return default_stacks_set[0]


@pytest.fixture(scope="module")
def full_book(full_set):
    return openpyxl.load_workbook(full_set / "chart.xlsx")


def test_hand_ev_sheet_shows_a_bounded_even_sample_with_the_grid_stacks(full_set):
    """481 stacks solved: the Hand EV sheet shows at most HAND_EV_STACKS of them plus the grid
    stacks, ends included, and says so; the margins are those of ranges.csv at those stacks."""
    import numpy as np

    from sflp.charts.readback import read_ranges

    ws = openpyxl.load_workbook(full_set / "chart.xlsx", read_only=True)["Hand EV"]
    rows = list(ws.iter_rows(values_only=True))
    data = [r for r in rows[2:] if r and isinstance(r[0], (int, float))]  # the print note follows the data
    stacks = [float(r[0]) for r in data]
    grid = [5.0, 10.0, 15.0, 20.0, 25.0]
    assert len(stacks) <= HAND_EV_STACKS + len(grid)
    assert set(grid) <= set(stacks) and stacks[0] == 1.0 and stacks[-1] == 25.0 and stacks == sorted(stacks)
    assert f"{len(stacks)} of the 481 solved stacks are shown here: 1 to 25 bb" in rows[0][1]
    assert rows[0][1].endswith("The EV margins of every stack are in ranges.csv.")
    full = read_ranges(full_set)
    hands = rows[1][1:170]
    for row in data:
        at = full[(full["stack"] == row[0]) & (full["player"] == "sb")].set_index("hand")["ev_margin"]
        assert np.allclose([row[1 + k] for k in range(169)], at.loc[list(hands)].to_numpy(), rtol=0, atol=1e-15)


# ---------------------------------------------------------------- reading a sheet as it shows and prints

PAPER_PT = {"A4": (595.28, 841.89), "Letter": (612.0, 792.0)}
"""Paper sizes, portrait, in points: ISO 216 A4 is 210 x 297 mm, US Letter 8.5 x 11 in (1 in = 72 pt)."""
MAX_DIGIT_PX = 7
"""Width in pixels (96 dpi) of a digit of the default font, Calibri 11, which ECMA-376 Part 1
section 18.3.1.13 turns column widths into pixels with."""
OPS = {">=": float.__ge__, "<=": float.__le__, ">": float.__gt__, "<": float.__lt__, "=": float.__eq__,
       "<>": float.__ne__}


def _split_unquoted(text: str, sep: str) -> list[str]:
    parts, current, quoted = [], "", False
    for ch in text:
        if ch == '"':
            quoted = not quoted
        if ch == sep and not quoted:
            parts.append(current)
            current = ""
        else:
            current += ch
    return [*parts, current]


def shown(value, number_format: str) -> str:
    """The text a spreadsheet shows for a cell, for the number formats a chart uses: sections
    ``positive;negative;zero`` or ``[condition]a;[condition]b;c``, digits ``0`` / ``0.00`` / ``0%``,
    quoted literals, ``General`` and ``@`` (ECMA-376 Part 1, 18.8.31)."""
    if isinstance(value, str):
        return value
    value = float(value)
    sections = _split_unquoted(number_format, ";")
    condition = re.compile(r"^\[(>=|<=|<>|=|>|<)(-?[0-9.]+)\]")
    if any(condition.match(s) for s in sections):
        chosen = sections[-1]
        for section in sections:
            match = condition.match(section)
            if match is None or OPS[match[1]](value, float(match[2])):
                chosen = section[match.end():] if match else section
                break
    elif value > 0 or len(sections) == 1:
        chosen = sections[0]
    elif value < 0:
        chosen, value = sections[1], abs(value)
    else:
        chosen = sections[2] if len(sections) > 2 else sections[0]
    if chosen in ("General", ""):
        return f"{value:g}"
    out = ""
    for k, part in enumerate(chosen.split('"')):
        if k % 2:  # inside quotes: a literal
            out += part
            continue
        match = re.search(r"0(\.0+)?%?", part)
        if match:
            scaled = value * 100 if match[0].endswith("%") else value
            decimals = len(match[1]) - 1 if match[1] else 0
            part = part[:match.start()] + f"{scaled:.{decimals}f}" + ("%" if match[0].endswith("%") else "") \
                + part[match.end():]
        out += part
    return out


def test_shown_reads_the_formats_as_a_spreadsheet_does():
    assert shown(7.2, "0.0") == "7.2" and shown(7.2, '0.0"*"') == "7.2*" and shown(25, '0"+"') == "25+"
    assert shown(0, '0;-0;"-"') == "-" and shown(3, '0;-0;"-"') == "3"
    assert shown(10000, '[>=10000]"∞";[=0]"-";0.0') == "∞" and shown(0, '[>=10000]"∞";[=0]"-";0.0') == "-"
    assert shown(954.25, '[>=10000]"∞";[=0]"-";0.00') == "954.25" and shown(0.734, '"AKs "0%') == "AKs 73%"


def _areas(ws) -> list[tuple[int, int, int, int]]:
    """(first column, first row, last column, last row) of each range of the sheet's print area,
    in order (``Ranges`` has one per grid, each printed on pages of its own)."""
    from openpyxl.utils.cell import range_boundaries

    text = ws.print_area
    assert text, ws.title
    return [range_boundaries(part.split("!")[-1].replace("$", "")) for part in text.split(",")]


def column_widths_pt(ws, first: int, last: int) -> list[float]:
    """Printed widths of columns ``first..last`` in points: a stored width ``w`` (characters) is
    ``trunc((256 w + trunc(128 / 7)) / 256 * 7)`` pixels (ECMA-376 Part 1, 18.3.1.13), 0.75 pt each;
    columns without a width have 8.43 characters (64 px)."""
    widths = {}
    for dim in ws.column_dimensions.values():
        if dim.width and dim.min:
            for c in range(dim.min, (dim.max or dim.min) + 1):
                widths[c] = dim.width
    out = []
    for c in range(first, last + 1):
        w = widths.get(c, 8.43)
        out.append(int((256 * w + int(128 / MAX_DIGIT_PX)) / 256 * MAX_DIGIT_PX) * 0.75)
    return out


def row_heights_pt(ws, first: int, last: int) -> list[float]:
    """Row heights in points; rows without a height are 15 pt (Calibri 11)."""
    heights = []
    for r in range(first, last + 1):
        dim = ws.row_dimensions.get(r)
        heights.append(dim.height if dim is not None and dim.height else 15.0)
    return heights


def _pack(sizes: list[float], room: float, repeated: float, breaks: set[int]) -> int:
    """Pages that ``sizes`` (in order) fill when each page holds ``room`` and every page after the
    first repeats ``repeated`` first; a new page also starts before each index in ``breaks``."""
    pages, used = 1, 0.0
    for k, size in enumerate(sizes):
        if used > 0 and (k in breaks or used + size > room + 1e-6):
            pages += 1
            used = repeated
        used += size
    return pages


def _title_span(text: str | None) -> tuple[int, int] | None:
    from openpyxl.utils.cell import column_index_from_string

    if not text:
        return None
    a, b = text.replace("$", "").split(":")
    if a.isdigit():
        return int(a), int(b)
    return column_index_from_string(a), column_index_from_string(b)


def print_scale_and_pages(ws, paper: str) -> tuple[float, int]:
    """The print scale and the number of pages the sheet's own print set-up implies on ``paper``.

    The printable box is the paper (turned for landscape) less the margins.  With fit-to-page the
    scale is the largest at most 100 % at which the print area is at most ``fitToWidth`` pages wide
    and ``fitToHeight`` pages tall (0: no limit), at least 10 %, floored to whole percent as
    spreadsheets store it.  Columns and rows are then laid onto pages in order, repeating the
    print-title rows and columns, starting a page at each manual row break.
    """
    width, height = PAPER_PT[paper]
    setup = ws.page_setup
    if setup.orientation == "landscape":
        width, height = height, width
    m = ws.page_margins
    room_w, room_h = width - 72 * (m.left + m.right), height - 72 * (m.top + m.bottom)
    title_rows, title_cols = _title_span(ws.print_title_rows), _title_span(ws.print_title_cols)
    repeat_h = sum(row_heights_pt(ws, *title_rows)) if title_rows else 0.0
    repeat_w = sum(column_widths_pt(ws, *title_cols)) if title_cols else 0.0
    scale = (setup.scale or 100) / 100
    sizes = [(column_widths_pt(ws, a, c), row_heights_pt(ws, b, d), b) for a, b, c, d in _areas(ws)]
    if ws.sheet_properties.pageSetUpPr is not None and ws.sheet_properties.pageSetUpPr.fitToPage:
        wide = 1 if setup.fitToWidth is None else int(setup.fitToWidth)
        tall = 1 if setup.fitToHeight is None else int(setup.fitToHeight)
        scale = 1.0
        for cols, rows, _ in sizes:  # one scale for the sheet: each range fits
            if wide:
                scale = min(scale, wide * room_w / (sum(cols) + (wide - 1) * repeat_w))
            if tall:
                scale = min(scale, tall * room_h / (sum(rows) + (tall - 1) * repeat_h))
        scale = max(0.10, math.floor(scale * 100 + 1e-9) / 100)
    pages = 0
    for cols, rows, first_row in sizes:
        breaks = {brk.id + 1 - first_row for brk in ws.row_breaks.brk}
        pages += _pack(cols, room_w / scale, repeat_w, set()) * _pack(rows, room_h / scale, repeat_h, breaks)
    return scale, pages


MAIN_SHEETS = {"SB push": 1, "BB call": 1, "Ranges": 10, "SC numbers": 1, "About": 1}
"""The sheets a player prints, with the pages each takes: one per grid, one per range grid (the
default 1-25 bb set has five stacks, 5, 10, 15, 20 and 25 bb, each with an SB and a BB grid)."""
DATA_SHEETS = ("Values", "Hand EV")
"""The sheets of numbers by stack: one page each, the charts (``Values``) or a note saying the
data is left out of the print area (``Hand EV``)."""


def test_every_sheet_has_a_landscape_print_setup_with_header_footer_and_print_area(full_book):
    assert set(full_book.sheetnames) == set(MAIN_SHEETS) | set(DATA_SHEETS)
    for ws in full_book:
        setup = ws.page_setup
        assert setup.orientation == "landscape", ws.title
        assert ws.sheet_properties.pageSetUpPr.fitToPage, ws.title
        _areas(ws)
        m = ws.page_margins
        assert 0.25 <= min(m.left, m.right) and m.header < m.top and m.footer < m.bottom, ws.title
        assert "&A" in ws.oddHeader.center.text and "&P" in ws.oddFooter.center.text, ws.title
        if ws.title in ("SB push", "BB call", "SC numbers", "About", "Values", "Hand EV"):
            # an absent attribute is the default, 1 (XlsxWriter writes only what differs)
            assert (setup.fitToWidth or 1, setup.fitToHeight or 1) == (1, 1), ws.title
            assert len(_areas(ws)) == 1, ws.title
    ranges = full_book["Ranges"]
    assert (ranges.page_setup.fitToWidth or 1, int(ranges.page_setup.fitToHeight)) == (1, 0)
    # one range a grid, SB's five then BB's five, each 14 columns: the rank letters and the grid
    areas = _areas(ranges)
    bb_left = xlsx_cells.RANGE_BB_LEFT
    assert [(a, c) for a, _, c, _ in areas] == [(1, 14)] * 5 + [(bb_left - 1, bb_left + 12)] * 5
    for first_col, first_row, _, _ in areas:
        title = ranges.cell(first_row, first_col + 3).value
        assert re.fullmatch(r"(SB push|BB call) frequency at \d+ bb", title), title
    assert full_book["Values"].print_title_rows is None and full_book["Hand EV"].print_title_rows is None


def test_the_data_sheets_print_a_page_that_says_what_is_left_out(full_book):
    """Values prints its two charts under a note (the table is left out), Hand EV a note alone."""
    values = full_book["Values"]
    ((first_col, first_row, last_col, last_row),) = _areas(values)
    # right of the table (5 columns, a blank one): the charts' 11 columns, the note's row and 2 x 18 chart rows
    assert (first_col, first_row, last_col, last_row) == \
        (7, 1, 7 + xlsx_sheets.CHART_COLUMNS - 1, 2 + 2 * xlsx_sheets.CHART_ROWS + 1)
    assert values.cell(first_row, first_col).value == xlsx_sheets.values_print_note(481, 5)
    assert all(values.cell(r, c).value is None
               for r in range(2, last_row + 1) for c in range(first_col, last_col + 1))
    hand_ev = full_book["Hand EV"]
    ((first_col, first_row, last_col, last_row),) = _areas(hand_ev)
    text = [hand_ev.cell(r, first_col).value for r in range(first_row, last_row + 1)]
    assert text == xlsx_sheets.hand_ev_print_note(54, 338) and first_row > 3


@pytest.mark.parametrize("paper", sorted(PAPER_PT))
def test_main_sheets_print_on_a_handful_of_pages(full_book, paper):
    """The print set-up, read back from the file, puts each grid on one page and each range stack
    on its own page, at a scale where the grids stay legible, on A4 and on Letter."""
    for name, pages in MAIN_SHEETS.items():
        scale, counted = print_scale_and_pages(full_book[name], paper)
        assert counted == pages, (name, paper, scale, counted)
        if name != "About":
            assert scale >= 0.6, (name, paper, scale)
    assert sum(MAIN_SHEETS.values()) <= 14
    for name in DATA_SHEETS:  # fit to a page's width (Values) or height (Hand EV), legible
        scale, counted = print_scale_and_pages(full_book[name], paper)
        assert scale >= 0.8 and counted == 1, (name, paper, scale, counted)


def test_every_threshold_cell_is_a_number_shown_as_the_label(full_set, full_book):
    """Numbers stay numbers: each grid cell holds a number whose number format shows the label the
    PDF and the HTML page show, derived here from thresholds.csv alone."""
    from tests.chart_files import expected_label, grid_hand, read_csv

    rows = {(r["player"], r["hand"]): r for r in read_csv(full_set / "thresholds.csv")}
    labels = set()
    for sheet, player in (("SB push", "sb"), ("BB call", "bb")):
        ws = full_book[sheet]
        for r in range(13):
            for c in range(13):
                cell = ws.cell(xlsx_cells.GRID_TOP + r, xlsx_cells.GRID_LEFT + c)
                assert cell.data_type == "n" and isinstance(cell.value, (int, float)), (sheet, r, c, cell.value)
                label = expected_label(rows[(player, grid_hand(r, c))], 25.0)
                # the hand's name, then its label, as in the PDF
                assert shown(cell.value, cell.number_format) == f"{grid_hand(r, c)} {label}", (sheet, grid_hand(r, c))
                labels.add(label[-1] if label[-1] in "+*\u2020" else "n")
    assert labels == {"+", "*", "\u2020", "n"}  # capped, slivers, wide fold gaps and plain numbers all seen


def test_no_cell_holds_inf_or_nan_text(full_book):
    for ws in full_book:
        for row in ws.iter_rows():
            for cell in row:
                if isinstance(cell.value, str):
                    assert cell.value.strip().lower() not in ("inf", "-inf", "+inf", "nan", "infinity"), \
                        (ws.title, cell.coordinate)
                elif isinstance(cell.value, float):
                    assert math.isfinite(cell.value), (ws.title, cell.coordinate)


def band_legend_row(ws) -> list[tuple[str, str]]:
    """(label, fill) of the cells from column B in the row under the column-A cell reading
    ``Colour`` (the label has its own row, so that it is not cut by the first band), up to the
    first empty one."""
    for r in range(1, ws.max_row + 1):
        if str(ws.cell(r, 1).value or "").startswith("Colour"):
            assert all(ws.cell(r, c).value is None for c in range(2, 15))  # room for the label to run on
            cells = [ws.cell(r + 1, c) for c in range(2, 15)]
            cells = cells[:next((k for k, cell in enumerate(cells) if cell.value is None), len(cells))]
            return [(cell.value, cell.fill.fgColor.rgb[-6:]) for cell in cells]
    raise AssertionError(f"{ws.title}: no colour legend")


def test_every_sheet_with_threshold_colours_carries_the_band_legend(full_book):
    """The legend of the chart's own scale (1-25 bb: up to 20-25, then 25+), capped cells in the top
    colour; the SC grid's scale tops at 20+."""
    from sflp.charts.scale import chart_scale

    chart = chart_scale(25, 1)
    for name, scale in (("SB push", chart), ("BB call", chart), ("SC numbers", chart_scale(20))):
        expected = [(label, colour) for colour, label in scale.legend()]
        ws = full_book[name]
        assert band_legend_row(ws) == expected, name
        assert expected[-2][0] == ("25+" if name != "SC numbers" else "20+")
        grid = [ws.cell(xlsx_cells.GRID_TOP + r, xlsx_cells.GRID_LEFT + c) for r in range(13) for c in range(13)]
        # a gap cell (†) is hatched (issue 42): Excel's lightUp pattern over its band's colour, in the scale's
        # hatch colour; every other cell solid; every number at one font size
        from sflp.charts.scale import hatch_colour

        grid_fills = set()
        for cell in grid:
            band = cell.fill.bgColor.rgb[-6:] if cell.fill.fill_type == "lightUp" else cell.fill.fgColor.rgb[-6:]
            grid_fills.add(band)
            gap = name != "SC numbers" and shown(cell.value, cell.number_format).endswith("†")
            assert cell.fill.fill_type == ("lightUp" if gap else "solid"), (name, cell.coordinate)
            if gap:
                assert cell.fill.fgColor.rgb[-6:] == hatch_colour(band)
        assert len({cell.font.sz for cell in grid}) == 1
        assert grid_fills <= {colour for _, colour in expected}, name
        if name != "SC numbers":  # AA is capped on the 1-25 chart: the top colour, the label 25+
            aa = ws.cell(xlsx_cells.GRID_TOP, xlsx_cells.GRID_LEFT)
            assert aa.fill.fgColor.rgb[-6:] == scale.top.colour and shown(aa.value, aa.number_format) == "AA 25+"
        legend_row = next(r for r in range(1, ws.max_row + 1) if str(ws.cell(r, 1).value or "").startswith("Colour"))
        assert _areas(ws)[0][3] >= legend_row + 1  # the legend prints with the grid


def test_sc_sheet_stores_a_stated_cap_for_unbounded_and_reads_without_hashes(full_set, full_book):
    from tests.chart_files import read_csv

    ws = full_book["SC numbers"]
    sc = {r["hand"]: r["sc_number"] for r in read_csv(full_set / "thresholds.csv") if r["player"] == "sb"}
    finite = [float(v) for v in sc.values() if v not in ("", "inf")]
    aa = ws.cell(xlsx_cells.GRID_TOP, xlsx_cells.GRID_LEFT)
    assert sc["AA"] == "inf" and aa.data_type == "n" and shown(aa.value, aa.number_format) == "AA ∞"
    cap = aa.value
    assert cap >= 10 * max(finite) and math.log10(cap) == int(math.log10(cap))  # a power of ten
    notes = " ".join(str(ws.cell(r, 1).value or "") for r in range(xlsx_cells.GRID_TOP + 13, ws.max_row + 1))
    assert f"holds {cap:g}" in notes and "∞" in notes
    widths = {}
    for dim in ws.column_dimensions.values():
        for c in range(dim.min, (dim.max or dim.min) + 1):
            widths[c] = dim.width
    top = xlsx_cells.GRID_TOP
    grid = [c for row in ws.iter_rows(min_row=top - 1, max_row=top + 12, min_col=2, max_col=14) for c in row]
    left = xlsx_sheets.SC_TABLE_LEFT
    table = [c for row in ws.iter_rows(min_row=top - 1, max_row=top + 168, min_col=left, max_col=left + 2) for c in row]
    for cell in grid + table:
        if cell.value is not None:
            text = shown(cell.value, cell.number_format)
            if isinstance(cell.value, str) and cell.alignment.wrap_text:
                text = max(text.split(), key=len)  # wrapped: the longest word must fit
            # a digit is 1 character of width; leave one for the cell's padding, or it shows ###
            assert len(text) <= widths.get(cell.column, 8.43) - 1, (cell.coordinate, text)
    # the exact list beside the grid: every hand once, its number equal to thresholds.csv's
    hands = {ws.cell(r, left).value: ws.cell(r, left + 1) for r in range(top, top + 169)}
    assert len(hands) == 169
    for hand, cell in hands.items():
        expected = "∞" if sc[hand] == "inf" else "-" if sc[hand] == "" else f"{float(sc[hand]):.6f}"
        assert shown(cell.value, cell.number_format) == expected, hand


def test_sc_sheet_names_every_hand_and_repeats_its_rank_letters_on_every_page(full_set, full_book):
    """Issue 42: the SC numbers sheet printed bare numbers ("277.8") where every other grid prints
    the hand's name.  Each grid cell now reads as the hand, the HoldemResources orientation written
    out in tests/chart_files.grid_hand, and its number from thresholds.csv, in the threshold sheets'
    font size; the rank letters above and left of the grid are the sheet's print titles."""
    from tests.chart_files import grid_hand, read_csv

    ws = full_book["SC numbers"]
    sc = {r["hand"]: r["sc_number"] for r in read_csv(full_set / "thresholds.csv") if r["player"] == "sb"}
    top, left = xlsx_cells.GRID_TOP, xlsx_cells.GRID_LEFT
    for r in range(13):
        for c in range(13):
            hand, cell = grid_hand(r, c), ws.cell(top + r, left + c)
            number = "∞" if sc[hand] == "inf" else "-" if sc[hand] == "" else f"{float(sc[hand]):.1f}"
            assert cell.data_type == "n" and shown(cell.value, cell.number_format) == f"{hand} {number}", hand
            same = full_book["SB push"].cell(top + r, left + c).font.sz
            assert cell.font.sz == xlsx_cells.THRESHOLD_FONT_SIZE == same
    assert shown(ws.cell(top, left + 1).value, ws.cell(top, left + 1).number_format) == "AKs 277.8"  # published
    assert [ws.cell(top - 1, left + k).value for k in range(13)] == list("AKQJT98765432")
    assert [ws.cell(top + k, left - 1).value for k in range(13)] == list("AKQJT98765432")
    assert ws.print_title_rows == f"${top - 1}:${top - 1}" and ws.print_title_cols == "$A:$A"


def _chart_series_colours(path: Path) -> list[dict[str, object]]:
    """Per chart of the workbook (its XML read with ElementTree): series header cell -> line
    colour, whether it has a legend, and its axis titles' count."""
    import xml.etree.ElementTree as ET

    ns = {"c": "http://schemas.openxmlformats.org/drawingml/2006/chart",
          "a": "http://schemas.openxmlformats.org/drawingml/2006/main"}
    charts = []
    with zipfile.ZipFile(path) as archive:
        for name in sorted(n for n in archive.namelist() if n.startswith("xl/charts/chart")):
            root = ET.fromstring(archive.read(name))
            series = {}
            for ser in root.iter(f"{{{ns['c']}}}ser"):
                ref = ser.find("c:tx/c:strRef/c:f", ns).text.replace("$", "")
                colour = ser.find("c:spPr/a:ln/a:solidFill/a:srgbClr", ns)
                series[ref] = None if colour is None else colour.get("val")
            axes = [ax for tag in ("valAx", "catAx") for ax in root.iter(f"{{{ns['c']}}}{tag}")]
            charts.append({"series": series, "legend": root.find(".//c:legend", ns) is not None,
                           "axis_titles": sum(ax.find("c:title", ns) is not None for ax in axes)})
    return charts


def test_values_charts_use_the_grid_colours_with_legends_and_axis_titles(full_set, full_book):
    from sflp.charts.colors import FREQUENCY_FULL

    charts = _chart_series_colours(full_set / "chart.xlsx")
    series = {ref: colour for chart in charts for ref, colour in chart["series"].items()}
    assert series == {"'Values'!B1": FREQUENCY_FULL["sb"], "'Values'!C1": FREQUENCY_FULL["sb"],
                      "'Values'!D1": FREQUENCY_FULL["bb"]}
    assert [full_book["Values"][ref.split("!")[1]].value for ref in sorted(series)] == \
        ["value (SB EV, bb/hand)", "SB push %", "BB call %"]
    assert all(chart["legend"] and chart["axis_titles"] == 2 for chart in charts) and len(charts) == 2
    headers = full_book["Values"][1]
    assert all(cell.alignment.wrap_text for cell in headers[:5] if cell.value)  # no header runs into the next
    # the same green and blue as a hand played always on the Ranges sheet's SB and BB grids
    ranges = full_book["Ranges"]
    for player, left in (("sb", xlsx_cells.GRID_LEFT), ("bb", xlsx_cells.RANGE_BB_LEFT)):
        full = {ranges.cell(3 + r, left + c).fill.fgColor.rgb[-6:] for r in range(13) for c in range(13)
                if ranges.cell(3 + r, left + c).value == 1}
        assert full == {FREQUENCY_FULL[player]}, player


def test_ev_colour_scale_is_red_white_blue(full_book):
    """Colour-blind-safe diverging scale: ColorBrewer RdBu's ends (B2182B, 2166AC) around white."""
    (block,) = full_book["Hand EV"].conditional_formatting
    (rule,) = block.rules
    colours = [c.rgb[-6:] for c in rule.colorScale.color]
    values = [float(v.val) for v in rule.colorScale.cfvo]
    assert colours == ["B2182B", "FFFFFF", "2166AC"] and values[0] == -values[2] < 0 == values[1]


# ---------------------------------------------------------------- text a user gave us stays text (issue 30, case 19)

OWASP_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""The first characters OWASP's CSV-injection guidance names: a spreadsheet reads typed text
starting with one as a formula."""
HOSTILE = ["=1+2", "+1+2", "-1+2", "@SUM(A1:A2)", "\t=1+2", "\r=1+2", '=HYPERLINK("http://x.invalid","go")',
           "#REF!", "plain text", "a\x01b"]
MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"


def _xml(path: Path, name: str):
    import xml.etree.ElementTree as ET

    with zipfile.ZipFile(path) as archive:
        return ET.fromstring(archive.read(name))


def _cells(path: Path, sheet: str) -> dict[str, tuple[str | None, int, str | None, str]]:
    """Cell reference -> (type attribute ``t``, style index ``s``, formula text or None, text) of a
    sheet, read from the file's XML (not through openpyxl); a shared string's text is looked up."""
    book = _xml(path, "xl/workbook.xml")
    index = [s.get("name") for s in book.iter(f"{MAIN}sheet")].index(sheet) + 1
    shared = ["".join(t.text or "" for t in si.iter(f"{MAIN}t")) for si in _xml(path, "xl/sharedStrings.xml")]
    out = {}
    for c in _xml(path, f"xl/worksheets/sheet{index}.xml").iter(f"{MAIN}c"):
        text = "".join(t.text or "" for t in c.iter(f"{MAIN}t"))
        if c.get("t") == "s":
            text = shared[int(c.find(f"{MAIN}v").text)]
        # XlsxWriter writes a control character as _xHHHH_ (and a literal "_x..._" as _x005F_x..._)
        text = re.sub(r"_x([0-9A-Fa-f]{4})_", lambda m: chr(int(m.group(1), 16)), text)
        formula = c.find(f"{MAIN}f")
        out[c.get("r")] = (c.get("t"), int(c.get("s", "0")), None if formula is None else formula.text or "", text)
    return out


def _quote_prefixed(path: Path) -> set[int]:
    """Indices of the cell formats (``cellXfs``) that carry the quote prefix."""
    xfs = _xml(path, "xl/styles.xml").find(f"{MAIN}cellXfs")
    return {k for k, xf in enumerate(xfs.iter(f"{MAIN}xf")) if xf.get("quotePrefix") in ("1", "true")}


def test_user_text_on_the_about_sheet_is_a_string_never_a_formula(tmp_path):
    wb = Book()
    xlsx_sheets._about_sheet(xlsx_cells._sheet(wb, "About"), [(text, text) for text in HOSTILE] + [("a number", 2.5)])
    path = excel.save_workbook(wb, tmp_path / "a.xlsx")
    cells, prefixed = _cells(path, "About"), _quote_prefixed(path)
    for row, text in enumerate(HOSTILE, start=3):
        # a carriage return is kept (XlsxWriter writes it _x000D_); a control character becomes U+FFFD
        shown = text.replace("\x01", "\ufffd")
        for ref in (f"A{row}", f"B{row}"):
            kind, style, formula, value = cells[ref]
            assert (kind, formula, value) == ("s", None, shown), (ref, text)
            assert (style in prefixed) == text.startswith(OWASP_STARTS), (ref, text)
    number = cells[f"B{3 + len(HOSTILE)}"]
    assert number[0] in ("n", None) and number[2] is None  # a number: t="n", or no t (its default)
    ws = openpyxl.load_workbook(path)["About"]  # and as openpyxl reads it back
    assert ws["B3"].value == "=1+2" and ws["B3"].data_type == "s" and ws["B3"].quotePrefix
    assert ws["B10"].value == "#REF!" and ws["B10"].data_type == "s" and not ws["B10"].quotePrefix


@pytest.fixture(scope="module")
def exploit_set(tmp_path_factory) -> Path:
    """``sflp exploit --stacks 2:3:1 --bb==1+2`` as the library runs it: a strategy file named
    ``=1+2``, passed by its relative name, plus a library caller's own About entries."""
    import contextlib

    import sflp
    from sflp.charts.chartset import write_chart_set
    from sflp.study.exploit import exploit_sweep
    from sflp.study.strategy import load_strategy
    from sflp.views.text import exploit_sweep_title

    root = tmp_path_factory.mktemp("hostile")
    (root / "=1+2").write_text("AA,1\nKK,1\nAKs,0.5\n", encoding="utf-8")
    with contextlib.chdir(root):
        locked = load_strategy("=1+2", "bb")
    assert locked.source == "=1+2"
    sweep = exploit_sweep(sflp.GameConfig(stack=2), locked, [2.0, 3.0])
    about = {**sweep.about(), "@user key": "-1+2", "note": "+cmd|' /C calc'!A0"}
    write_chart_set(sweep.solutions, sweep.thresholds, root / "set", extra_about=about,
                    title=exploit_sweep_title(locked), formats="csv,xlsx", workers=0)
    return root / "set"


def test_an_exploit_sets_strategy_name_is_text_in_the_workbook(exploit_set):
    path = exploit_set / "chart.xlsx"
    prefixed = _quote_prefixed(path)
    with zipfile.ZipFile(path) as archive:
        sheets = [n for n in archive.namelist() if n.startswith("xl/worksheets/sheet")]
    book = _xml(path, "xl/workbook.xml")
    names = [s.get("name") for s in book.iter(f"{MAIN}sheet")]
    assert len(sheets) == len(names)
    for name in names:
        for ref, (_, _, formula, _) in _cells(path, name).items():
            assert formula is None or not any(mark in formula for mark in ("1+2", "calc", "user")), (name, ref)
    about = _cells(path, "About")
    rows = {about[f"A{r}"][3]: about.get(f"B{r}") for r in range(3, 100) if f"A{r}" in about}
    for key, value in (("Locked strategy", "=1+2"), ("@user key", "-1+2"), ("note", "+cmd|' /C calc'!A0")):
        kind, style, formula, text = rows[key]
        assert (kind, formula, text, style in prefixed) == ("s", None, value, True), key
    key_cell = next(ref for ref, cell in about.items() if cell[3] == "@user key")
    assert about[key_cell][1] in prefixed and about[key_cell][0] == "s"


def test_no_user_text_reaches_a_csv_file_of_the_set(exploit_set):
    """The CSV files hold numbers, hand names and sflp's own column names only: the strategy's
    name and the About entries (the title) are in the workbook and the manifest, not in a CSV."""
    csvs = sorted(exploit_set.glob("*.csv"))
    assert {"values.csv", "ranges.csv", "thresholds.csv"} <= {p.name for p in csvs}
    for path in csvs:
        data = path.read_text(encoding="utf-8")
        assert "1+2" not in data and "calc" not in data and "@" not in data, path.name
        for line in data.splitlines():
            for field in line.split(","):
                assert not field.startswith(("=", "+", "@", "\t", "\r")), (path.name, field)


def test_every_cell_of_the_chart_workbook_names_the_workbook_font(full_book):
    """A font without a name prints in LibreOffice's default, a serif: every cell names one font."""
    names = {(ws.title, cell.font.name) for ws in full_book for row in ws.iter_rows() for cell in row
             if cell.value is not None}
    assert {name for _, name in names} == {xlsx_cells.FONT_NAME}, names


def test_the_exploitability_column_shows_0_when_exactly_0_and_the_exponent_otherwise(full_book):
    ws = full_book["Values"]
    assert ws["E1"].value == "exploitability (bb)"
    formats = {ws.cell(r, 5).number_format for r in range(2, 483)}
    assert formats == {xlsx_sheets.EXPLOITABILITY_FORMAT}
    assert shown(0.0, xlsx_sheets.EXPLOITABILITY_FORMAT) == "0"  # every stack of the certified 1-25 bb set
    assert _split_unquoted(xlsx_sheets.EXPLOITABILITY_FORMAT, ";")[1] == "0.00E+00"  # 3.2e-12 -> 3.20E-12


def test_the_threshold_sheet_prints_its_layout_and_every_marked_hands_stacks(full_book):
    """Cell notes do not print: the note under the grid, inside the print area, explains the
    layout and the marks and lists every marked hand's stacks (63s: pushed up to 2.3 bb, folded
    from 2.4 to 5.0, pushed again from 5.1 to 7.1, issue 32's example)."""
    ws = full_book["SB push"]
    ((_, _, _, last_row),) = _areas(ws)
    text = [str(ws.cell(r, c).value) for r in range(xlsx_cells.GRID_TOP + 13, last_row + 1) for c in range(1, 15)
            if ws.cell(r, c).value is not None]
    joined = " ".join(text)
    assert "suited hands above the diagonal, pairs on it, offsuit below" in joined
    for term in ("25+:", "-: never", "*:", "\u2020:"):
        assert term in joined, term
    marked = [ws.cell(xlsx_cells.GRID_TOP + r, xlsx_cells.GRID_LEFT + c) for r in range(13) for c in range(13)]
    marked = [shown(cell.value, cell.number_format) for cell in marked]
    marked = {label.split()[0]: label[-1] for label in marked if label[-1] in "*\u2020"}
    listed = {line.split()[1].rstrip(":"): line[0] for line in text if line[:1] in ("*", "\u2020")}
    assert listed == marked and len(marked) >= 20
    assert any(line.startswith("\u2020 63s: push \u22642.3, 5.1\u20137.1") for line in text), text
