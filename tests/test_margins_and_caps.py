"""Issue 31, part 2: no silently missing data.

* Every solved stack's EV margins are in the set, whatever its size and form: ``sflp.read_margins``
  gives them, and at sampled stacks they equal, bit for bit (tolerance 0), the margins of sflp's
  exact solve by another route -- the LP answer certified in exact rationals
  (``solve(..., exact=True)``, :mod:`sflp.solving.certify`), which publishes each margin as its
  exact value rounded once.
* Every cap is said where it applies: each note of ``manifest.json``'s ``subsets`` is checked
  against the files actually written (the stacks of the workbook's sheets, the page's embedded
  data) and against the notes written into them and into the command's summary.
"""

from __future__ import annotations

import json
import re

import numpy as np
import openpyxl
import pytest

import sflp
from sflp.charts.about import homes, subset_notes
from sflp.core.game import GameConfig
from sflp.errors import DataError
from sflp.solving.solver import solve


def _set(tmp_path_factory, stacks: str, formats: str = "csv,xlsx,html"):
    out = tmp_path_factory.mktemp("set") / "s"
    result = sflp.chart(stacks=stacks, out=out, formats=formats, workers=0)  # inline: the same files
    return out, result


@pytest.fixture(scope="module")
def set481(default_stacks_set):
    return default_stacks_set  # _set(tmp_path_factory, "1:25:0.05"), shared with tests/test_excel.py (conftest.py)


@pytest.fixture(scope="module")
def set2401(tmp_path_factory):
    return _set(tmp_path_factory, "1:25:0.01")


def _exact_margins(stack: float) -> np.ndarray:
    """The 338 margins (SB then BB, class-id order) of the certified LP solve at ``stack``."""
    solution = solve(GameConfig(stack=stack), exact=True)
    assert solution.certified
    from sflp.charts.text import solution_rows

    return solution_rows(solution)[2:4].ravel()


def _check_margins(folder, stacks: list[float]) -> None:
    frame = sflp.read_margins(folder, stacks=stacks)
    assert list(frame.columns) == ["stack", "player", "hand", "ev_margin"]
    got = frame["ev_margin"].to_numpy().reshape(len(stacks), 338)
    for k, stack in enumerate(sorted(stacks)):
        assert np.array_equal(got[k], _exact_margins(stack), equal_nan=True), stack


SAMPLES = [1.0, 2.35, 7.7, 12.35, 19.95, 25.0]


def test_margins_of_481_stacks_are_in_ranges_csv_and_exact(set481):
    out, result = set481
    assert result.ranges == "csv" and (out / "ranges.csv").exists()
    _check_margins(out, SAMPLES)


def test_margins_of_2401_stacks_are_in_the_supports_and_exact(set2401):
    """Above 2,000 stacks the ranges are segments, which have no margins: the supports file
    does, and every stack's margins recompute to those of ranges.csv at the same stacks."""
    out, result = set2401
    assert result.ranges == "segments" and not (out / "ranges.csv").exists()
    listed = {e["name"] for e in json.loads((out / "manifest.json").read_text())["files"]}
    assert {"margins_supports.csv", "margins_stacks.csv", "ranges_segments.csv"} <= listed
    _check_margins(out, SAMPLES + [3.01, 12.37, 24.99])
    every = sflp.read_margins(out)
    assert len(every) == 2401 * 338 and np.isfinite(every["ev_margin"]).sum() > 0.9 * len(every)


@pytest.mark.slow  # exhaustive (every stack, 4 s): the fast set checks sampled stacks exactly (test above)
def test_segment_margins_equal_those_of_ranges_csv(set2401, tmp_path):
    """The same stacks written as ranges.csv: every margin equal, bit for bit."""
    out, _ = set2401
    sflp.chart(stacks="1:25:0.01", out=tmp_path / "c", formats="csv", ranges="csv")
    a, b = sflp.read_margins(out), sflp.read_margins(tmp_path / "c")
    assert np.array_equal(a["ev_margin"].to_numpy(), b["ev_margin"].to_numpy(), equal_nan=True)
    assert a[["stack", "player", "hand"]].equals(b[["stack", "player", "hand"]])


def test_a_wrong_support_is_refused_with_one_clear_error(set2401, tmp_path):
    """A support row edited (a hand moved from 'never' to 'always') no longer certifies its
    stacks, or gives other frequencies than ranges_segments.csv: DataError, read with verify=False
    (with verify the manifest's SHA-256 refuses it first)."""
    import shutil

    out, _ = set2401
    copy = tmp_path / "copy"
    shutil.copytree(out, copy)
    path = copy / "margins_supports.csv"
    lines = path.read_text().splitlines()
    fields = lines[5].split(",")
    fields[2] = fields[2][:-1] + ("1" if fields[2][-1] == "0" else "0")  # 32o, SB
    lines[5] = ",".join(fields)
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(DataError, match="does not match its manifest"):
        sflp.read_margins(copy)
    stacks = float(fields[0])
    with pytest.raises(DataError, match="margins_supports.csv line 6"):
        sflp.read_margins(copy, stacks=[stacks], verify=False)


# ---------------------------------------------------------------- caps said where they apply


def _sheet_stacks(book, name: str) -> tuple[list[float], str | None]:
    """The stacks of a sheet's data rows (a number in column A) and its note, if any."""
    rows = list(book[name].iter_rows(values_only=True))
    stacks = [float(r[0]) for r in rows if r and isinstance(r[0], (int, float)) and not isinstance(r[0], bool)]
    notes = [c for r in rows for c in r if isinstance(c, str) and "solved stacks are shown here" in c]
    assert len(notes) <= 1
    return stacks, (notes[0] if notes else None)


def _page_data(page) -> dict:
    m = re.search(r'<script type="application/json" id="chart-data">(.*?)</script>', page.read_text(), re.S)
    return json.loads(m[1])


def _check_notes(out, result) -> None:
    """Each note of the manifest against the files written, and the summary's lines."""
    manifest = json.loads((out / "manifest.json").read_text())
    solved = sflp.read_ranges(out)["stack"].unique()
    n = len(solved)
    subsets = {(s["file"], s["part"]): s for s in manifest["subsets"]}
    assert manifest["every_stack"] == homes(["csv", "xlsx", "html"], result.ranges)
    book = openpyxl.load_workbook(out / "chart.xlsx", read_only=True)
    margins_home = manifest["every_stack"]["margins"]
    for part, sheet, home, what in (("Values sheet", "Values", "values.csv", "values"),
                                    ("Hand EV sheet", "Hand EV", margins_home, "EV margins")):
        stacks, note = _sheet_stacks(book, sheet)
        key = ("chart.xlsx", part)
        if len(stacks) == n:
            assert key not in subsets and note is None
            continue
        entry = subsets[key]
        assert (entry["shown"], entry["of"], entry["from"], entry["to"]) == (len(stacks), n, stacks[0], stacks[-1])
        assert entry["rest"] == home
        assert note is not None and f"{len(stacks):,} of the {n:,} solved stacks are shown here" in note
        assert note.endswith(f"The {what} of every stack are in {home}.")
    data = _page_data(out / "chart.html")
    page = data["stacks"]
    key = ("chart.html", "grids and hand details")
    if len(page) == n:
        assert key not in subsets
    else:
        entry = subsets[key]
        assert (entry["shown"], entry["of"], entry["from"], entry["to"]) == (len(page), n, page[0], page[-1])
        assert any(t.startswith(f"{len(page):,} of the {n:,} solved stacks") for t in data["coverage"])
        for name in ("ranges.csv", "ranges_segments.csv", "ranges.parquet", "margins_supports.csv"):
            if name in entry["rest"]:
                assert (out / name).exists()
    curve = len(data["curve"]["stack"])
    assert (("chart.html", "value curve") in subsets) == (curve < n)
    for entry in manifest["subsets"]:  # every file a note names as "the rest" is in the set
        for name in re.findall(r"[\w.]+\.(?:csv|parquet)", entry["rest"] or ""):
            assert (out / name).exists(), name
    # the command's summary says the same
    summary = result.to_dict()
    assert summary["subsets"] == subset_notes(list(solved), _kept(out), manifest["range_stacks"],
                                              ["csv", "xlsx", "html"], result.ranges)
    from sflp.views.text import subset_lines

    lines = subset_lines(summary["every_stack"], summary["subsets"])
    assert len(lines) == 1 + len(manifest["subsets"])
    assert lines[0].endswith(f"EV margins in {margins_home}")


def _kept(out) -> list[float]:
    book = openpyxl.load_workbook(out / "chart.xlsx", read_only=True)
    return _sheet_stacks(book, "Values")[0]


def test_caps_at_481_stacks_are_said(set481):
    out, result = set481
    _check_notes(out, result)
    notes = {(s["file"], s["part"]) for s in result.subsets}
    assert notes == {("chart.xlsx", "Hand EV sheet")}  # 481 <= 500: the Values sheet and page hold them all


def test_caps_at_2401_stacks_are_said(set2401):
    out, result = set2401
    _check_notes(out, result)
    notes = {(s["file"], s["part"]) for s in result.subsets}
    assert notes == {("chart.xlsx", "Values sheet"), ("chart.xlsx", "Hand EV sheet"),
                     ("chart.html", "grids and hand details")}


@pytest.mark.slow
def test_caps_and_margins_at_19901_stacks(tmp_path_factory):
    out, result = _set(tmp_path_factory, "1:200:0.01")
    _check_notes(out, result)
    notes = {(s["file"], s["part"]) for s in result.subsets}
    assert ("chart.html", "value curve") in notes  # 19,901 > 4,000 points
    _check_margins(out, [1.0, 17.77, 63.5, 123.45, 200.0])


def test_the_page_help_says_what_typing_a_stack_does():
    from sflp.charts.media.html.page import static_text

    text = static_text("chart.html")
    assert "nearest stack on this page" in text and "nearest solved" not in text
