"""Tests of sflp.report.excel's container: openpyxl's public API only, reproducible bytes
(SOURCE_DATE_EPOCH), atomic writes.  Small hand-made workbooks; the chart workbook's content is
checked in test_report.py."""

from __future__ import annotations

import ast
import datetime
import io
import os
import subprocess
import sys
import textwrap
import time
import zipfile
from pathlib import Path

import openpyxl
import pytest
from openpyxl import Workbook

from sflp.errors import ConfigError
from sflp.report import excel

ROOT = Path(__file__).resolve().parent.parent


def small_workbook() -> Workbook:
    wb = Workbook(write_only=True)
    ws = wb.create_sheet("Data")
    for r in range(20):
        ws.append([float(r), r * 0.1, f"row {r}"])
    return wb


def zip_dates(path: Path) -> set[tuple[int, ...]]:
    with zipfile.ZipFile(path) as archive:
        return {info.date_time for info in archive.infolist()}


def test_excel_uses_only_public_openpyxl_api():
    tree = ast.parse((ROOT / "sflp" / "report" / "excel.py").read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("openpyxl"):
            parts = node.module.split(".") + [alias.name for alias in node.names]
            assert not [p for p in parts if p.startswith("_")], ast.unparse(node)
            assert not {"cell_style", "writer", "StyleArray", "ExcelWriter"} & set(parts), ast.unparse(node)
        if isinstance(node, ast.Import):
            assert not [a.name for a in node.names if a.name.startswith("openpyxl.") and "._" in a.name]
        if isinstance(node, ast.Attribute):
            private = node.attr.startswith("_") and not (node.attr.startswith("__") and node.attr.endswith("__"))
            # the module's own helper objects keep their state in `self._...`; nothing else may
            assert not private or ast.unparse(node.value) == "self", (node.lineno, ast.unparse(node))
            assert node.attr != "__dict__", (node.lineno, ast.unparse(node))


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
    wb = Workbook(write_only=True)
    wb.create_sheet("Data")  # no rows: an abandoned write-only sheet with rows warns when collected
    with pytest.raises(ConfigError, match="'tomorrow'"):
        excel.save_workbook(wb, tmp_path / "a.xlsx")
    assert list(tmp_path.iterdir()) == []


def test_the_copy_keeps_openpyxls_entries_in_order(tmp_path):
    raw = io.BytesIO()
    small_workbook().save(raw)
    path = excel.save_workbook(small_workbook(), tmp_path / "a.xlsx")
    with zipfile.ZipFile(raw) as made, zipfile.ZipFile(path) as copied:
        assert [i.filename for i in copied.infolist()] == [i.filename for i in made.infolist()]
        assert [i.compress_type for i in copied.infolist()] == [i.compress_type for i in made.infolist()]
        for info in made.infolist():
            if info.filename != "docProps/core.xml":
                assert copied.read(info.filename) == made.read(info)
        assert copied.testzip() is None


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
    # neither openpyxl's nor our zip may print "Exception ignored" noise when it is collected
    script = textwrap.dedent(f"""
        import gc, random, resource, signal
        from openpyxl import Workbook
        from sflp.errors import OutputError
        from sflp.report.excel import save_workbook

        wb = Workbook(write_only=True)
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
    wb = Workbook(write_only=True)
    append_rows = excel._hand_ev_sheet(wb.create_sheet("Hand EV"), ranges)
    append_rows()
    path = excel.save_workbook(wb, tmp_path / "a.xlsx")

    ws = openpyxl.load_workbook(path)["Hand EV"]
    assert [ws.cell(r, 1).value for r in (3, 4)] == [3.0, 12.5]  # stacks ascending
    assert [ws.cell(4, c).value for c in (2, 3, 4)] == [0.1, -1 / 3, 2.5e-17]
    assert ws.cell(4, 171).value is None and ws.cell(4, 172).value == 0.25 and ws.cell(4, 173).value is None
    assert ws.cell(3, 171).value == 1.5 and ws.cell(3, 339).value == 0.001 * 168
    assert {ws.cell(r, c).number_format for r in (3, 4) for c in range(2, 340) if ws.cell(r, c).value is not None} \
        == {excel.EV_FORMAT}
    with zipfile.ZipFile(path) as archive:
        sheet = archive.read("xl/worksheets/sheet1.xml").decode()
    assert '<c r="FO4"' not in sheet and '<c r="FQ4"' not in sheet  # NaN: no cell at all
    (block,) = ws.conditional_formatting
    assert str(block.sqref) == "B3:MA4" and [rule.type for rule in block.rules] == ["colorScale"]


def test_hand_ev_sheet_shows_a_bounded_even_sample_with_the_grid_stacks(tmp_path):
    """481 stacks solved: the Hand EV sheet shows at most HAND_EV_STACKS of them plus the grid
    stacks, ends included, and says so; the margins are those of ranges.csv at those stacks."""
    import numpy as np

    import sflp
    from sflp.report.writers import read_ranges

    result = sflp.chart(stacks="1:25:0.05", out=tmp_path / "set", formats="xlsx,csv", workers=0)
    ws = openpyxl.load_workbook(result.files["chart.xlsx"], read_only=True)["Hand EV"]
    rows = list(ws.iter_rows(values_only=True))
    stacks = [r[0] for r in rows[2:] if r[0] is not None]
    grid = [5.0, 10.0, 15.0, 20.0, 25.0]
    assert len(stacks) <= excel.HAND_EV_STACKS + len(grid)
    assert set(grid) <= set(stacks) and stacks[0] == 1.0 and stacks[-1] == 25.0 and stacks == sorted(stacks)
    assert f"{len(stacks)} of the 481 stacks shown here" in rows[0][1]
    full = read_ranges(tmp_path / "set")
    hands = rows[1][1:170]
    for row in rows[2:]:
        at = full[(full["stack"] == row[0]) & (full["player"] == "sb")].set_index("hand")["ev_margin"]
        assert np.allclose([row[1 + k] for k in range(169)], at.loc[list(hands)].to_numpy(), rtol=0, atol=1e-15)
