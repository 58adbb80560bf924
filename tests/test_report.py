"""Tests of sflp.charts: the files themselves (CSV, xlsx, PNG, SVG), read back, not mocks.

One chart set is written per session from real solutions (``solve_many`` over 2, 5, 7.7 and 10
bb) and real thresholds (``compute_thresholds`` over 1-10 bb), then every check reads the files.
"""

from __future__ import annotations

import csv
import io
import math
import os
import re
import subprocess
import sys
import zipfile
from fractions import Fraction
from pathlib import Path

import numpy as np
import openpyxl
import pytest

import sflp
import sflp.solving.thresholds as thresholds_mod
from sflp.atomic import check_out_dir, write_text, write_with
from sflp.charts.about import default_out_dir
from sflp.charts.chartset import write_chart_set, write_solution
from sflp.charts.frames import grid_from_tidy, ranges_frame, values_frame
from sflp.charts.media.xlsx.cells import GRID_LEFT, GRID_TOP, RANGE_BB_LEFT
from sflp.charts.media.xlsx.sheets import EV_FORMAT
from sflp.core.cards import CLASS_NAMES
from sflp.core.equity import read_checksum
from sflp.core.game import GameConfig
from sflp.errors import ConfigError, OutputError
from sflp.solving.solver import solve, solve_many
from tests.test_chart_pdf import expected_cell
from tests.test_excel import shown

STACKS = [2, 5, 7.7, 10]
LOW, HIGH = 1.0, 10.0
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
CHART_FILES = {
    "values.csv", "ranges.csv", "thresholds.csv", "thresholds_exact.csv", "thresholds_segments.csv", "chart.xlsx",
    "chart.html", "chart.pdf", "manifest.json",
    *(f"{stem}.{ext}" for stem in ("sb_push", "bb_call", "value_by_stack", "range_2bb", "range_5bb",
                                    "range_7.7bb", "range_10bb")
      for ext in ("png", "svg")),
    # default range grids: the solved stacks nearest 2, 4, 6, 8, 10 (round stacks spread over 2-10 bb)
    *(f"{who}_{stack}bb.csv" for who in ("sb_push", "bb_call") for stack in (2, 5, 7.7, 10)),
}


def _read_png(path) -> np.ndarray:
    """A PNG as RGB floats in [0, 1] (rows, columns, 3), read by Pillow."""
    from PIL import Image

    with Image.open(path) as image:
        return np.asarray(image.convert("RGB"), dtype=np.float64) / 255


# ---------------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
def config():
    return GameConfig(stack=2)


@pytest.fixture(scope="module")
def solutions(config):
    return solve_many(STACKS, config)


@pytest.fixture(scope="module")
def thresholds(config):
    return thresholds_mod.compute_thresholds(config, low=LOW, high=HIGH)


@pytest.fixture(scope="module")
def chart(chart_set_written):
    """``write_chart_set(solutions, thresholds, out, extra_about={"command": "pytest"})`` of this
    module's fixtures: the same set as tests/chart_files.py's, written once per process (conftest.py)."""
    return chart_set_written


def read_csv(path: Path) -> tuple[list[str], list[dict[str, str]]]:
    with open(path, newline="", encoding="utf-8") as fh:
        reader = csv.DictReader(fh)
        return list(reader.fieldnames or []), list(reader)


def grid_position(hand: str) -> tuple[int, int]:
    k = CLASS_NAMES.index(hand)
    return divmod(k, 13)


def displayed_label(cell) -> str:
    """The label a threshold cell shows, without the ``*``: its number through its number format."""
    assert cell.data_type == "n", (cell.coordinate, cell.value)  # numbers stay numbers
    return shown(cell.value, cell.number_format).split(" ")[-1].rstrip("*†")  # the hand's name and mark off


from tests.chart_files import expected_label as marked_label  # noqa: E402 -- the label with its mark


def expected_label(row: dict[str, str], high: float) -> str:
    """The chart label's number implied by a thresholds.csv row."""
    if row["max_stack"] == "":
        return "-"
    if row["capped"] == "true":
        return f"{high:g}+"
    return f"{math.floor(float(row['max_stack']) * 10 + 1e-9) / 10:.1f}"


def xl(x: float) -> float:
    """A float as an xlsx file stores it: openpyxl writes 16 significant digits ("%.16g")."""
    return float(f"{float(x):.16g}")


def no_temp_files(folder: Path) -> bool:
    return not [p for p in folder.iterdir() if p.name.startswith(".") or p.name.endswith(".tmp")]


# ---------------------------------------------------------------- the set of files


def test_chart_set_writes_exactly_the_documented_files(chart):
    out, files = chart
    assert set(files) == CHART_FILES
    assert {p.name for p in out.iterdir()} == CHART_FILES
    for name, path in files.items():
        assert Path(path) == out / name and Path(path).stat().st_size > 0
    assert no_temp_files(out)


def test_csv_columns_exactly_as_specified(chart):
    out, _ = chart
    assert read_csv(out / "values.csv")[0] == ["stack", "value", "push_pct", "call_pct", "exploitability"]
    assert read_csv(out / "ranges.csv")[0] == ["stack", "player", "hand", "frequency", "ev_margin"]
    assert read_csv(out / "thresholds.csv")[0] == [
        "player", "hand", "max_stack", "capped", "intervals", "any_intervals", "chart_label", "sc_number"
    ]


def test_values_csv_is_the_ev_curve(chart, solutions):
    _, rows = read_csv(chart[0] / "values.csv")
    assert [float(r["stack"]) for r in rows] == [float(s) for s in STACKS]
    for row, s in zip(rows, solutions):
        assert float(row["value"]) == s.value  # round-trip float text: exact
        assert float(row["push_pct"]) == s.push_pct
        assert float(row["call_pct"]) == s.call_pct
        assert float(row["exploitability"]) == s.exploitability


def test_ranges_csv_is_tidy_and_exact(chart, solutions):
    _, rows = read_csv(chart[0] / "ranges.csv")
    assert len(rows) == len(STACKS) * 2 * 169
    k = 0
    for s in solutions:
        for player, freq, ev in (("sb", s.sb_strategy, s.sb_ev), ("bb", s.bb_strategy, s.bb_ev)):
            for i, hand in enumerate(CLASS_NAMES):
                row = rows[k]
                k += 1
                assert (float(row["stack"]), row["player"], row["hand"]) == (float(s.config.stack), player, hand)
                assert float(row["frequency"]) == freq[i]
                if math.isnan(ev[i]):
                    assert row["ev_margin"] == ""
                else:
                    assert float(row["ev_margin"]) == ev[i]
    # BB's EV is empty exactly where SB never shoves (somewhere at 10 bb SB folds some hands)
    assert any(r["ev_margin"] == "" for r in rows if r["player"] == "bb") or all(
        not np.isnan(s.bb_ev).any() for s in solutions
    )


def test_thresholds_csv_matches_the_thresholds(chart, thresholds):
    _, rows = read_csv(chart[0] / "thresholds.csv")
    assert len(rows) == 338
    assert [(r["player"], r["hand"]) for r in rows] == [(p, h) for p in ("sb", "bb") for h in CLASS_NAMES]
    for row in rows:
        h = thresholds.get(row["player"], row["hand"])
        assert row["capped"] == ("true" if h.capped else "false")
        # published to THRESHOLD_DECIMALS (6) decimals, so float root noise cannot show
        assert row["max_stack"] == ("" if h.max_stack is None else repr(round(float(h.max_stack), 6)))
        assert row["intervals"] == thresholds_mod.format_intervals(h.intervals)
        assert row["any_intervals"] == thresholds_mod.format_intervals(h.any_intervals)
        assert expected_label(row, HIGH) == h.label()
        # chart_label: the cell every medium prints, the number and then its mark († a fold of 0.5 bb or more)
        assert row["chart_label"] == expected_cell(row, LOW, HIGH)
    assert any(r["capped"] == "true" for r in rows) and any(r["capped"] == "false" for r in rows)


def test_thresholds_csv_sc_numbers_to_six_decimals(chart, config):
    # sc_number is the exact fraction rounded to 1e-6 bb (the precision of sflp sc), no float noise
    from sflp.study.sc import sc_numbers

    numbers = sc_numbers(config)
    _, rows = read_csv(chart[0] / "thresholds.csv")
    for row in rows:
        if row["player"] == "bb":
            assert row["sc_number"] == ""
            continue
        sc = numbers[row["hand"]]
        if sc.unbounded:
            assert row["sc_number"] == "inf"
        else:
            assert re.fullmatch(r"\d+\.\d{1,6}", row["sc_number"]), row["sc_number"]
            assert abs(Fraction(row["sc_number"]) - sc.stack) <= Fraction(1, 2 * 10**6)
            assert row["sc_number"].rstrip("0") == sc.label().rstrip("0")  # as sflp sc prints it


@pytest.fixture(scope="module")
def rewritten(solutions, thresholds, chart, tmp_path_factory):
    """The module's chart set written a second time, at least 2 s after the first: zip entry times
    have a 2-second resolution, so the workbook's would differ if save_workbook did not fix them.
    (The wait is only what is left of the 2 s after the tests in between; the two byte-identity
    tests share the rewrite.)"""
    import time

    first, _ = chart
    time.sleep(max(0.0, 2.05 - (time.time() - (first / "chart.xlsx").stat().st_mtime)))
    return write_chart_set(solutions, thresholds, tmp_path_factory.mktemp("again"), extra_about={"command": "pytest"})


def test_csv_files_are_byte_identical_across_writes(chart, rewritten):
    first, _ = chart
    files = rewritten
    for name in ("values.csv", "ranges.csv", "thresholds.csv"):
        assert (first / name).read_bytes() == Path(files[name]).read_bytes()
    for name in ("sb_push.png", "sb_push.svg", "range_5bb.png", "value_by_stack.svg"):
        assert (first / name).read_bytes() == Path(files[name]).read_bytes(), name


def test_workbook_is_byte_identical_across_writes(chart, rewritten):
    # openpyxl stamps the save time; save_workbook fixes it, so regenerated reports do not churn
    first, _ = chart
    assert (first / "chart.xlsx").read_bytes() == Path(rewritten["chart.xlsx"]).read_bytes()


def test_exact_values_csv_has_value_exact_as_fraction(tmp_path):
    sols = solve_many([2, 3], GameConfig(stack=2), exact=True)
    files = write_chart_set(sols, None, tmp_path, exact=True)
    header, rows = read_csv(Path(files["values.csv"]))
    assert header == ["stack", "value", "push_pct", "call_pct", "exploitability", "value_exact"]
    for row, s in zip(rows, sols):
        p, q = row["value_exact"].split("/")
        assert s.value_exact is not None and int(p) * s.value_exact.denominator == s.value_exact.numerator * int(q)
    # without thresholds there are no threshold files or sheets
    assert "thresholds.csv" not in files and "sb_push.png" not in files
    wb = openpyxl.load_workbook(files["chart.xlsx"])
    assert wb.sheetnames == ["Ranges", "Values", "Hand EV", "About", "SC numbers"]
    about = dict(wb["About"].iter_rows(min_row=3, max_col=2, values_only=True))
    assert "2 of 2 solutions certified" in about["Certificate"]


# ---------------------------------------------------------------- the workbook


@pytest.fixture(scope="module")
def workbook(chart):
    return openpyxl.load_workbook(chart[0] / "chart.xlsx")


def test_workbook_sheets(workbook):
    assert workbook.sheetnames == ["SB push", "BB call", "Ranges", "Values", "Hand EV", "About", "SC numbers"]


@pytest.mark.parametrize(("sheet", "player"), [("SB push", "sb"), ("BB call", "bb")])
def test_threshold_grid_cells_equal_the_csv_labels(workbook, chart, thresholds, sheet, player):
    ws = workbook[sheet]
    _, rows = read_csv(chart[0] / "thresholds.csv")
    by_hand = {r["hand"]: r for r in rows if r["player"] == player}
    # rank labels around the grid, HoldemResources orientation
    assert [ws.cell(GRID_TOP - 1, GRID_LEFT + k).value for k in range(13)] == list("AKQJT98765432")
    assert [ws.cell(GRID_TOP + k, GRID_LEFT - 1).value for k in range(13)] == list("AKQJT98765432")
    multi_seen = 0
    for hand in CLASS_NAMES:
        r, c = grid_position(hand)
        cell = ws.cell(GRID_TOP + r, GRID_LEFT + c)
        h = thresholds.get(player, hand)
        assert displayed_label(cell) == expected_label(by_hand[hand], HIGH) == h.label(), hand
        assert cell.fill.fgColor.rgb not in (None, "00000000")
        # the hand's name, the number, then the mark of the one label rule (tests/chart_files.py)
        assert shown(cell.value, cell.number_format) == f"{hand} {marked_label(by_hand[hand], HIGH)}", hand
        if h.multi:
            multi_seen += 1
            assert cell.comment is not None and hand in cell.comment.text
        else:
            assert cell.comment is None and shown(cell.value, cell.number_format)[-1] not in "*\u2020"
    assert ws["A1"].value.startswith(sheet)
    below = range(GRID_TOP + 13, ws.max_row + 1)
    legend = " ".join(str(ws.cell(r, c).value or "") for r in below for c in range(1, 15))
    assert "truncated to 0.1" in " ".join(legend.split())
    assert ("* " in legend or "\u2020 " in legend) == (multi_seen > 0)
    assert ws.print_area and ws.sheet_properties.pageSetUpPr.fitToPage
    # an absent fitToWidth / fitToHeight is the default, 1 (XlsxWriter writes only what differs)
    assert (ws.page_setup.fitToWidth or 1) == 1 and (ws.page_setup.fitToHeight or 1) == 1


def test_threshold_cells_in_holdemresources_orientation(workbook, thresholds):
    ws = workbook["SB push"]
    assert displayed_label(ws.cell(GRID_TOP, GRID_LEFT)) == thresholds.get("sb", "AA").label() == "10+"
    # grid index of a rank is 12 - rank: 7 -> 7, 2 -> 12.  72s is above the diagonal (row 7,
    # column 12), 72o below it (row 12, column 7)
    assert displayed_label(ws.cell(GRID_TOP + 7, GRID_LEFT + 12)) == thresholds.get("sb", "72s").label()
    assert displayed_label(ws.cell(GRID_TOP + 12, GRID_LEFT + 7)) == thresholds.get("sb", "72o").label()
    assert ws.cell(GRID_TOP + 7, GRID_LEFT + 12).value != ws.cell(GRID_TOP + 12, GRID_LEFT + 7).value


def test_ranges_sheet_cells_equal_ranges_csv(workbook, chart):
    ws = workbook["Ranges"]
    _, rows = read_csv(chart[0] / "ranges.csv")
    freq = {(float(r["stack"]), r["player"], r["hand"]): float(r["frequency"]) for r in rows}
    blocks = [(row, ws.cell(row, 1).value) for row in range(1, ws.max_row + 1)
              if isinstance(ws.cell(row, 1).value, str) and ws.cell(row, 1).value.startswith("Stack ")]
    assert [title for _, title in blocks] == ["Stack 2 bb", "Stack 5 bb", "Stack 7.7 bb", "Stack 10 bb"]
    for top, title in blocks:
        stack = float(title.split()[1])
        for player, left in (("sb", GRID_LEFT), ("bb", RANGE_BB_LEFT)):
            for hand in CLASS_NAMES:
                r, c = grid_position(hand)
                cell = ws.cell(top + 2 + r, left + c)
                assert cell.value == xl(freq[(stack, player, hand)]), (stack, player, hand)
                assert f'"{hand}"' in cell.number_format


def test_values_sheet_and_native_chart(workbook, chart, solutions):
    ws = workbook["Values"]
    assert [c.value for c in ws[1]][:5] == [
        "stack (bb)", "value (SB EV, bb/hand)", "SB push %", "BB call %", "exploitability (bb)"
    ]
    assert [ws.cell(r, 1).value for r in range(2, 6)] == STACKS
    assert [ws.cell(r, 2).value for r in range(2, 6)] == [xl(s.value) for s in solutions]
    with zipfile.ZipFile(chart[0] / "chart.xlsx") as z:
        charts = [n for n in z.namelist() if n.startswith("xl/charts/chart")]
        assert charts
        xml = z.read(charts[0]).decode()
    assert "scatterChart" in xml and "'Values'!$B$2:$B$5" in xml and "'Values'!$A$2:$A$5" in xml


def test_hand_ev_sheet_equals_ranges_csv(workbook, chart):
    ws = workbook["Hand EV"]
    _, rows = read_csv(chart[0] / "ranges.csv")
    ev = {(float(r["stack"]), r["player"], r["hand"]): r["ev_margin"] for r in rows}
    hands = [ws.cell(2, c).value for c in range(2, 2 + 338)]
    assert hands == list(CLASS_NAMES) * 2
    assert ws.cell(1, 2).value.startswith("SB") and ws.cell(1, 171).value.startswith("BB")
    for r in range(3, 3 + len(STACKS)):
        stack = ws.cell(r, 1).value
        for c in range(2, 2 + 338):
            player = "sb" if c < 171 else "bb"
            text = ev[(float(stack), player, ws.cell(2, c).value)]
            value = ws.cell(r, c).value
            # openpyxl writes 16 significant digits; the CSV has the shortest round-trip text
            assert (value is None) if text == "" else (value == xl(float(text)))
            if value is not None:
                assert ws.cell(r, c).number_format == EV_FORMAT
    assert ws.freeze_panes == "B3"
    assert [rule.type for rules in ws.conditional_formatting for rule in rules.rules] == ["colorScale"]


def test_about_sheet(workbook, solutions):
    about = dict(workbook["About"].iter_rows(min_row=3, max_col=2, values_only=True))
    assert about["sflp version"] == sflp.__version__
    assert about["Equity table SHA-256"] == read_checksum()
    assert about["Solver"] == "cvxpy + HiGHS LP, checked by best responses"
    assert about["Max exploitability (bb/hand)"] == xl(max(s.exploitability for s in solutions))
    assert about["Certificate"].startswith("not requested")
    assert about["Small blind (bb)"] == 0.5 and about["Big blind (bb)"] == 1
    assert about["Range grids at (bb)"] == "2, 5, 7.7, 10"
    assert about["command"] == "pytest"


def constructed_thresholds(config) -> thresholds_mod.Thresholds:
    """Hand-made thresholds over 1-25 bb: AA capped, 72o never, T3s in two intervals, rest 4.56."""
    special = {
        "AA": (((1.0, 25.0),), ((1.0, 25.0),), 25.0, True),
        "72o": ((), ((3.0, 3.5),), None, False),
        "T3s": (((1.0, 7.24), (7.27, 7.29)), ((1.0, 7.3),), 7.29, False),
        "K2o": (((1.0, 3.0), (20.0, 25.0)), ((1.0, 25.0),), 25.0, True),
    }
    hands = []
    for player in ("sb", "bb"):
        for hand in CLASS_NAMES:
            iv, anyv, top, capped = special.get(hand, (((1.0, 4.5678),), ((1.0, 4.6),), 4.5678, False))
            hands.append(thresholds_mod.HandThresholds(player, hand, iv, anyv, top, capped))
    return thresholds_mod.Thresholds(config, 1.0, 25.0, tuple(hands), (4.5678, 7.24))


def test_constructed_thresholds_labels_notes_and_csv(solutions, config, tmp_path):
    files = write_chart_set(solutions, constructed_thresholds(config), tmp_path)
    rows = {(r["player"], r["hand"]): r for r in read_csv(Path(files["thresholds.csv"]))[1]}
    sc_72o = rows[("sb", "72o")].pop("sc_number")  # issue 10's column; checked in tests/test_sc.py
    assert 1 < float(sc_72o) < 3 and rows[("bb", "72o")]["sc_number"] == ""
    assert rows[("sb", "72o")] == {"player": "sb", "hand": "72o", "max_stack": "", "capped": "false",
                                   "intervals": "", "any_intervals": "3.000000-3.500000", "chart_label": "-"}
    assert rows[("sb", "AA")]["max_stack"] == "25.0" and rows[("sb", "AA")]["capped"] == "true"
    assert rows[("bb", "T3s")]["intervals"] == "1.000000-7.240000;7.270000-7.290000"
    ws = openpyxl.load_workbook(files["chart.xlsx"])["BB call"]

    def cell(hand):
        r, c = grid_position(hand)
        return ws.cell(GRID_TOP + r, GRID_LEFT + c)

    # every cell a number; the number format writes the hand and the label: 25+ (holds 25), -
    # (holds 0), * (T3s: a 0.03 bb sliver), † (K2o: folded from 3 to 20 bb, issue 32's rule)
    assert (cell("AA").value, cell("72o").value, cell("T3s").value, cell("K2o").value) == (25, 0, 7.2, 25)
    assert [shown(cell(h).value, cell(h).number_format) for h in ("AA", "72o", "T3s", "K2o")] == \
        ["AA 25+", "72o -", "T3s 7.2*", "K2o 25+\u2020"]
    assert cell("AKs").value == 4.5 and shown(4.5, cell("AKs").number_format) == "AKs 4.5"
    assert cell("AKs").comment is None
    note = cell("T3s").comment.text
    assert "T3s" in note and "1 to 7.24, 7.27 to 7.29" in note and "1 to 7.3" in note
    # colours: never white, capped the top colour, the rest their band's (sflp.charts.scale)
    from sflp.charts.scale import NEVER_COLOUR, TOP_COLOUR, chart_scale

    fills = {h: cell(h).fill.fgColor.rgb[-6:] for h in ("AA", "72o", "AKs")}
    assert fills == {"AA": TOP_COLOUR, "72o": NEVER_COLOUR, "AKs": chart_scale(25).band(4.5678).colour}
    assert chart_scale(25).band(4.5678).label == "4–6"
    image = _read_png(files["bb_call.png"])
    assert image.shape[2] in (3, 4)


# ---------------------------------------------------------------- pictures


def test_pictures_are_valid_png_and_svg(chart):
    out, files = chart
    for name in CHART_FILES:
        path = out / name
        if name.endswith(".png"):
            assert path.read_bytes()[:8] == PNG_SIGNATURE
            image = _read_png(path)
            assert image.ndim == 3 and image.shape[0] > 400 and image.shape[1] > 400 and image.shape[2] in (3, 4)
        elif name.endswith(".svg"):
            text = path.read_text()
            assert text.startswith("<?xml") and "<svg" in text and text.rstrip().endswith("</svg>")
            assert "<dc:date>" not in text


def test_threshold_picture_has_colours(chart):
    image = _read_png(chart[0] / "sb_push.png")
    colours = {tuple(np.round(px[:3], 2)) for px in image[::25, ::25].reshape(-1, image.shape[2])}
    assert len(colours) > 10


# ---------------------------------------------------------------- single solution


def test_write_solution(tmp_path):
    s = solve(GameConfig(stack=7.7))
    files = write_solution(s, tmp_path / "one")
    # the same names as the grids of a chart set
    assert set(files) == {"ranges.csv", "values.csv", "solution.xlsx", "range_7.7bb.png", "range_7.7bb.svg",
                          "sb_push_7.7bb.csv", "bb_call_7.7bb.csv", "manifest.json"}
    grid = read_csv(Path(files["sb_push_7.7bb.csv"]))
    assert grid[0][:3] == ["", "A", "K"]  # corner cell, then ranks A..2
    # row K, column A is AKo (offsuit below the diagonal)
    assert float(grid[1][1]["A"]) == s.sb_strategy[CLASS_NAMES.index("AKo")]
    header, rows = read_csv(Path(files["ranges.csv"]))
    assert header == ["stack", "player", "hand", "frequency", "ev_margin"] and len(rows) == 338
    assert len(read_csv(Path(files["values.csv"]))[1]) == 1
    wb = openpyxl.load_workbook(files["solution.xlsx"])
    assert wb.sheetnames == ["SB push", "BB call", "Values", "About"]
    for sheet, freq in (("SB push", s.sb_strategy), ("BB call", s.bb_strategy)):
        for i, hand in enumerate(CLASS_NAMES):
            r, c = grid_position(hand)
            assert wb[sheet].cell(GRID_TOP + r, GRID_LEFT + c).value == xl(freq[i])
    for ws in wb:  # every sheet prints landscape, fitted to a page's width, within its print area
        assert ws.page_setup.orientation == "landscape" and (ws.page_setup.fitToWidth or 1) == 1 and ws.print_area
    # the EV grid under the SB frequencies: red below 0, blue above (RdBu, colour-blind safe)
    ev_top = GRID_TOP + 16
    fills = [(ws_cell.value, ws_cell.fill.fgColor.rgb[-6:]) for row in
             wb["SB push"].iter_rows(min_row=ev_top, max_row=ev_top + 12, min_col=GRID_LEFT, max_col=GRID_LEFT + 12)
             for ws_cell in row]
    for value, fill in fills:
        red, blue = int(fill[0:2], 16), int(fill[4:6], 16)
        assert (red > blue) if value < -1e-3 else (blue > red) if value > 1e-3 else True, (value, fill)
    assert any(v < -1e-3 for v, _ in fills) and any(v > 1e-3 for v, _ in fills)
    assert Path(files["range_7.7bb.png"]).read_bytes()[:8] == PNG_SIGNATURE
    assert no_temp_files(tmp_path / "one")


def test_write_solution_combo_level_reports_classes(tmp_path):
    s = solve(GameConfig(stack=6), level="combo")
    files = write_solution(s, tmp_path)
    _, rows = read_csv(Path(files["ranges.csv"]))
    sb, bb = s.class_strategies()
    assert [r["hand"] for r in rows] == list(CLASS_NAMES) * 2
    assert np.allclose([float(r["frequency"]) for r in rows], np.concatenate([sb, bb]), atol=1e-12)


# ---------------------------------------------------------------- frames


def test_grid_from_tidy_orientation(solutions):
    frame = ranges_frame(solutions)
    grid = grid_from_tidy(frame, "frequency", stack=10.0, player="sb")
    s = solutions[-1]
    assert grid.shape == (13, 13) and list(grid.index) == list("AKQJT98765432")
    assert grid.loc["A", "K"] == s.sb_strategy[CLASS_NAMES.index("AKs")]
    assert grid.loc["K", "A"] == s.sb_strategy[CLASS_NAMES.index("AKo")]
    assert grid.loc["2", "2"] == s.sb_strategy[CLASS_NAMES.index("22")]
    with pytest.raises(ConfigError):
        grid_from_tidy(frame, "frequency", player="sb")  # four stacks: not one hand each


def test_values_frame_columns(solutions):
    assert list(values_frame(solutions).columns) == ["stack", "value", "push_pct", "call_pct", "exploitability"]
    assert list(values_frame(solutions, exact=True).columns)[-1] == "value_exact"


def test_frames_reject_mixed_structures_and_duplicates(solutions):
    other = solve(GameConfig(stack=5, ante=0.1))
    with pytest.raises(ConfigError):
        values_frame([*solutions, other])
    with pytest.raises(ConfigError):
        ranges_frame([solutions[0], solutions[0]])


def test_default_out_dir():
    assert default_out_dir(GameConfig(stack=10), 1, 25) == Path("reports/hu-pushfold_sb0.5_bb1_ante0_bbante0_1-25")
    name = default_out_dir(GameConfig(stack=10, ante=0.125, bb_ante=1), 2.5, 30).name
    assert name == "hu-pushfold_sb0.5_bb1_ante0.125_bbante1_2.5-30"


# ---------------------------------------------------------------- errors and atomicity


def test_out_dir_that_is_a_file_raises_output_error(solutions, thresholds, tmp_path):
    blocker = tmp_path / "taken"
    blocker.write_text("keep me")
    for target in (blocker, blocker / "sub"):
        with pytest.raises(OutputError, match=str(blocker)):
            write_chart_set(solutions, thresholds, target)
        with pytest.raises(OutputError, match=str(blocker)):
            write_solution(solutions[0], target)
        with pytest.raises(OutputError):
            check_out_dir(target)
    assert blocker.read_text() == "keep me"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["taken"]


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root ignores permissions")
def test_unwritable_out_dir_raises_output_error(solutions, tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        with pytest.raises(OutputError, match="locked"):
            write_solution(solutions[0], locked)
        with pytest.raises(OutputError, match="locked"):
            write_solution(solutions[0], locked / "inner")
    finally:
        locked.chmod(0o700)
    assert list(locked.iterdir()) == []


def test_failed_write_leaves_previous_file_and_no_temp(tmp_path):
    target = write_text(tmp_path / "values.csv", "old\n")

    def broken(tmp: Path) -> None:
        tmp.write_text("half a fi")
        raise OSError(28, "No space left on device")

    with pytest.raises(OutputError, match="values.csv.*No space left"):
        write_with(target, broken)
    assert target.read_text() == "old\n"
    assert no_temp_files(tmp_path)

    def buggy(tmp: Path) -> None:
        tmp.write_text("half")
        raise ValueError("bug")

    with pytest.raises(ValueError):
        write_with(tmp_path / "new.csv", buggy)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["values.csv"]


def test_written_files_have_normal_permissions(chart):
    mode = (chart[0] / "values.csv").stat().st_mode & 0o777
    umask = os.umask(0)
    os.umask(umask)
    assert mode == 0o666 & ~umask


def test_csv_round_trips_through_pandas(chart, solutions):
    import pandas as pd

    # older pandas (2.0 at the floor) parses floats to within an ulp by default; pandas 3 is exact
    # and deprecates the option
    exact = {"float_precision": "round_trip"} if int(pd.__version__.split(".")[0]) < 3 else {}
    frame = pd.read_csv(io.StringIO((chart[0] / "ranges.csv").read_text()), **exact)
    assert np.array_equal(frame["frequency"].to_numpy(), ranges_frame(solutions)["frequency"].to_numpy())


PRESENTATION = ("charts/", "views/", "atlas/")
"""The floors that turn results into files and pictures: the only ones that import pandas,
openpyxl or Pillow at the top of a module (the output contract below them needs none)."""


def test_only_the_presentation_floors_import_pandas_openpyxl_matplotlib():
    import re

    root = Path(sflp.__file__).resolve().parent
    pattern = re.compile(r"^\s*(import|from)\s+(pandas|openpyxl|matplotlib|PIL)\b", re.M)
    users = sorted(p.relative_to(root).as_posix() for p in root.rglob("*.py") if pattern.search(p.read_text())
                   and not p.relative_to(root).as_posix().startswith(PRESENTATION))
    assert users == ["core/game.py", "solving/thresholds.py"], users  # the to_frame helpers, lazily (below)
    pattern = re.compile(r"^(import|from)\s+(pandas|openpyxl|matplotlib)\b", re.M)
    users = sorted(p.relative_to(root).as_posix() for p in root.rglob("*.py") if pattern.search(p.read_text()))
    assert users and all(u.startswith(PRESENTATION) for u in users), users
    # the notebook helpers (Solution.to_frame, Thresholds.to_frame) import them lazily, inside
    # the method; nothing else outside the presentation floors does
    lazy = re.compile(r"^\s+(import|from)\s+(pandas|openpyxl|matplotlib)\b", re.M)
    outside = sorted(str(p.relative_to(root)) for p in root.rglob("*.py")
                     if not p.relative_to(root).as_posix().startswith(PRESENTATION) and lazy.search(p.read_text()))
    assert outside == ["core/game.py", "solving/thresholds.py"], outside


def test_chart_set_does_not_import_matplotlib(tmp_path):
    """The pictures and the PDF are drawn by sflp.charts.media.draw: neither matplotlib (no longer a
    dependency) nor fontTools is loaded."""
    code = (
        "import sys\n"
        "from sflp.core.game import GameConfig\n"
        "from sflp.solving.solver import solve_many\n"
        "from sflp.solving.thresholds import compute_thresholds\n"
        "from sflp.charts import write_chart_set\n"
        "config = GameConfig(stack=4)\n"
        f"write_chart_set(solve_many([4, 5], config), compute_thresholds(config, low=4, high=5), {str(tmp_path)!r},"
        " workers=0)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('matplotlib', 'fontTools')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=Path(sflp.__file__).resolve().parent.parent)
    assert out.stdout.strip() == "[]", out.stdout
    assert (tmp_path / "sb_push.png").exists() and (tmp_path / "chart.pdf").exists()


def test_range_stacks_map_to_nearest_solved_stack(solutions, tmp_path):
    files = write_chart_set(solutions, None, tmp_path, range_stacks=[7.5, 8.0, 100])
    assert {n for n in files if n.startswith("range_")} == {
        "range_7.7bb.png", "range_7.7bb.svg", "range_10bb.png", "range_10bb.svg"
    }
    ws = openpyxl.load_workbook(files["chart.xlsx"])["Ranges"]
    assert ws["A1"].value == "Stack 7.7 bb" and ws.cell(1 + 17, 1).value == "Stack 10 bb"


def test_a_chart_set_from_blocks_is_the_chart_set_from_solutions(tmp_path):
    """write_chart_set fed iter_blocks (arrays, no Solution per stack) writes the same CSV files,
    byte for byte, as when fed iter_solve's Solution objects, value_exact included; the grid
    starts at 1 bb, where SB's value is exactly 0 on a whole segment.  (The CSV files only: every
    other medium is written from blocks by each sflp.chart run of the other tests.)"""
    from sflp.charts.chartset import write_chart_set
    from sflp.solving.solver import iter_blocks, iter_solve
    from sflp.solving.thresholds import compute_thresholds

    config = GameConfig(stack=10)
    stacks = [round(1.0 + 0.07 * k, 2) for k in range(101)]
    path = compute_thresholds(config, stacks[0], stacks[-1])
    a = write_chart_set(iter_blocks(stacks, config, path=path), path, tmp_path / "blocks", exact=True,
                        stacks=stacks, workers=0, formats=["csv"])
    b = write_chart_set(iter_solve(stacks, config, exact=True, path=path, workers=1), path, tmp_path / "solutions",
                        exact=True, stacks=stacks, workers=0, formats=["csv"])
    csvs = sorted(name for name in a if name.endswith(".csv"))
    assert csvs == sorted(name for name in b if name.endswith(".csv")) and "ranges.csv" in csvs
    for name in csvs:
        assert Path(a[name]).read_bytes() == Path(b[name]).read_bytes(), name
    assert "/" in Path(a["values.csv"]).read_text().splitlines()[1]  # the exact value column is there


def test_an_exploit_set_of_a_strategy_file_not_named_in_utf8_is_written_in_every_medium(tmp_path, monkeypatch,
                                                                                         capsys):
    """issue 30's leftovers: ``sflp exploit --stacks 2,5 --bb $'file:\\xff\\xfe.csv' --out set`` ended in a
    worker's UnicodeEncodeError (exit 1) after all the work.  The name reaches every medium: the
    lone surrogates Python decodes it to are U+FFFD in the page, the workbook and the pictures
    (:func:`sflp.output.clean.clean_text`), and every file reads back as strict UTF-8 / XML / JSON."""
    import json
    import xml.etree.ElementTree as ET

    from sflp.cli import main

    name = os.fsdecode(b"\xff\xfe.csv")
    try:
        (tmp_path / name).write_text("AA,1\nKK,1\nAKs,0.5\n", encoding="utf-8")
    except (UnicodeEncodeError, OSError):
        pytest.skip("this file system takes UTF-8 file names only")
    monkeypatch.chdir(tmp_path)
    assert main(["exploit", "--stacks", "2,5", "--bb", f"file:{name}", "--out", "set", "--json"]) == 0
    files = json.loads(capsys.readouterr().out)["files"]
    out = tmp_path / "set"
    assert {"chart.html", "chart.pdf", "chart.xlsx", "sb_push.svg", "sb_push.png", "manifest.json"} <= set(files)
    page = (out / "chart.html").read_bytes().decode("utf-8")
    assert '"Locked strategy","\ufffd\ufffd.csv"' in page
    about = openpyxl.load_workbook(out / "chart.xlsx")["About"]
    assert "\ufffd\ufffd.csv" in [row[1] for row in about.iter_rows(values_only=True) if row[0] == "Locked strategy"]
    for svg in out.glob("*.svg"):
        ET.fromstring(svg.read_bytes())
    assert (out / "chart.pdf").read_bytes().startswith(b"%PDF-")
    manifest = json.loads((out / "manifest.json").read_bytes().decode("utf-8"))
    assert manifest["title"].startswith("Exploitative: SB vs BB locked to")


def test_thresholds_csv_without_pandas_matches_the_frame_route():
    """thresholds.csv is written from the thresholds' rows (no pandas); the frame route of
    csv_out / frames must give the same bytes, with and without the SC numbers (inf for AA,
    NaN on BB's rows)."""
    from sflp.charts.frames import THRESHOLDS_CSV_COLUMNS, add_sc_column, thresholds_frame
    from sflp.charts.media.csv import csv_bytes
    from sflp.charts.threshold_rows import thresholds_csv_text
    from sflp.core.game import GameConfig
    from sflp.solving.thresholds import compute_thresholds
    from sflp.study.sc import sc_numbers

    config = GameConfig(stack=4, ante=0.125)
    t = compute_thresholds(config, 2, 6)
    numbers = sc_numbers(config)
    framed = csv_bytes(add_sc_column(thresholds_frame(t), numbers), [*THRESHOLDS_CSV_COLUMNS, "sc_number"])
    assert thresholds_csv_text(t, numbers).encode() == framed
    assert thresholds_csv_text(t).encode() == csv_bytes(thresholds_frame(t), THRESHOLDS_CSV_COLUMNS)
    assert b",inf\n" in framed and b",\n" in framed  # an unbounded SC number and BB's empty ones


def test_a_set_of_csv_files_imports_no_pandas(tmp_path):
    """--formats csv writes every file from arrays and the thresholds: pandas (0.8 s and 80 MB a
    process) is never imported, with the jobs inline."""
    code = ("import sys, sflp; sflp.chart(None, '1:3:0.25', out=sys.argv[1], formats='csv', workers=0); "
            "print(sorted(m for m in ('pandas', 'openpyxl', 'PIL', 'reportlab') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path / "set")], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"
    assert (tmp_path / "set" / "thresholds.csv").exists() and (tmp_path / "set" / "sb_push_3bb.csv").exists()
