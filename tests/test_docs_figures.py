"""Every figure README.md and docs/*.md quote is a recorded measurement.

The quotes are marked ``<!--fig KEY-->TEXT<!--/fig-->`` and the records are
``benchmarks/results/*.json``, written by ``python benchmarks/record.py`` (see
``benchmarks/figures.py``).  These tests fail when a quote differs from its record, when a quote
names no record, and when a record does not say which machine made it; the last tests show on
copies that an altered quote or an altered record is caught.
"""

from __future__ import annotations

import doctest
import json
import re
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import _common  # noqa: E402
import figures  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results"


def test_the_marker_logic_and_the_formats_do_what_their_docstrings_say():
    assert doctest.testmod(figures).failed == 0
    assert doctest.testmod(_common).failed == 0


def test_every_quoted_figure_is_its_records_text():
    assert figures.check_all() == []


def test_every_marker_is_closed_on_its_line():
    for page in figures.documents():
        text = page.read_text()
        assert text.count("<!--fig ") == len(figures.quotes(text)), page.name
        assert text.count("<!--/fig-->") == len(figures.quotes(text)), page.name


def test_the_figure_pages_quote_from_the_records():
    """PERFORMANCE.md is made of recorded figures, and the README's figures are quoted too."""
    quoted = {p.name: figures.quotes(p.read_text()) for p in figures.documents()}
    assert len(quoted["PERFORMANCE.md"]) >= 100
    readme_keys = {k for k, _ in quoted["README.md"]}
    assert {"equity.build.wall", "openspiel.efg.bytes", "openspiel.efg_ante.bytes",
            "thresholds.1-200.wall", "thresholds.1-200.breakpoints"} <= readme_keys


MEASURED = re.compile(r"(?<![≤≥\d.,])(?<![≤≥] )\b\d[\d,.]*\s?(?:s|ms|µs|MB|GB|KB|×)(?!\w)")
"""A time, size or ratio written in the text, unless it follows ≤ or ≥ (a target)."""


def test_performance_page_has_no_unrecorded_measurement():
    """Outside the marked quotes, a time or size on PERFORMANCE.md is a target (after ≤ or ≥)."""
    assert MEASURED.findall("took 2.65 s (≤ 4 s), 0.32× and 459 MB, ≥ 1 M") == ["2.65 s", "0.32×", "459 MB"]
    text = figures.QUOTE.sub("", (ROOT / "docs" / "PERFORMANCE.md").read_text())
    assert MEASURED.findall(text) == []


def test_every_record_describes_its_machine():
    records = sorted(RESULTS.glob("*.json"))
    assert records
    for path in records:
        record = json.loads(path.read_text())
        start = record["machine"]["start"]
        assert start["cpu_model"] and start["nproc"] >= 1 and len(start["load_average"]) == 3, path.name
        assert start["python"] and "numpy" in start["libraries"], path.name
        assert record["command"].startswith(f"python benchmarks/bench_{record['benchmark']}.py"), path.name
        assert f"{record['benchmark']}.machine" in record["figures"], path.name
        for key, figure in record["figures"].items():
            assert key.startswith(record["benchmark"] + ".") and figure["text"], (path.name, key)


@pytest.fixture
def copy(tmp_path):
    """The README, docs/ and the records, copied: a test may alter them."""
    (tmp_path / "docs").mkdir()
    shutil.copy(ROOT / "README.md", tmp_path / "README.md")
    for page in (ROOT / "docs").glob("*.md"):
        shutil.copy(page, tmp_path / "docs" / page.name)
    shutil.copytree(RESULTS, tmp_path / "benchmarks" / "results")
    assert figures.check_all(tmp_path) == []
    return tmp_path


def _first_quote(page: Path) -> re.Match:
    match = figures.QUOTE.search(page.read_text())
    assert match is not None
    return match


def test_an_altered_quote_fails(copy):
    page = copy / "docs" / "PERFORMANCE.md"
    m = _first_quote(page)
    text = page.read_text()
    page.write_text(text[:m.start(2)] + m.group(2) + "0" + text[m.end(2):])
    assert figures.check_all(copy) == [
        f"docs/PERFORMANCE.md: {m.group(1)} quotes {m.group(2) + '0'!r}, its record says {m.group(2)!r}"]


def test_a_new_measurement_fails_until_the_quote_is_rewritten(copy):
    record = copy / "benchmarks" / "results" / "thresholds.json"
    data = json.loads(record.read_text())
    data["figures"]["thresholds.1-200.wall"]["text"] = "99.99 s"
    record.write_text(json.dumps(data))
    found = figures.check_all(copy)
    assert found and all("thresholds.1-200.wall" in p and "'99.99 s'" in p for p in found)
    assert figures.rewrite_all(copy)
    assert figures.check_all(copy) == []
    assert "<!--fig thresholds.1-200.wall-->99.99 s<!--/fig-->" in (copy / "README.md").read_text()


def test_a_quote_without_a_record_fails(copy):
    page = copy / "README.md"
    page.write_text(page.read_text() + "\nIt takes <!--fig nowhere.wall-->1 s<!--/fig-->.\n")
    assert figures.check_all(copy) == [
        "README.md: nowhere.wall is quoted but no record in benchmarks/results/ has it"]
