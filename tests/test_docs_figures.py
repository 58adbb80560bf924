"""Every figure README.md and docs/*.md quote is a recorded measurement, every setting they
quote is the code's, and every figure beside a target says whether it meets it.

The quotes are marked ``<!--fig KEY-->TEXT<!--/fig-->`` and the records are
``benchmarks/results/*.json``, written by ``python benchmarks/record.py`` (see
``benchmarks/figures.py``).  These tests fail when a quote differs from its record, when a quote
names no record, and when a record does not say which machine made it; tests show on copies
that an altered quote or an altered record is caught.  No page may hold a time, size or ratio
outside a quote (:data:`MEASURED`), except a target (after ≤ or ≥), a setting of the code quoted
as ``<!--const MODULE.NAME-->TEXT<!--/const-->`` (checked against the constant's value), and a
table quoted whole from a committed run between ``<!--run FILE-->`` and ``<!--/run-->`` (each
cell recomputed from the run's CSV).  A figure with a target says "over the target" (or "not
met") exactly when its quoted value misses it (:func:`figure_target_pairs`).
"""

from __future__ import annotations

import doctest
import importlib.util
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


MEASURED = re.compile(
    r"(?<![≤≥\d.,])(?<![≤≥] )\b"  # not after ≤ or ≥ (a target), nor inside a number
    r"\d(?:[\d,.]*\d)?"  # a number
    r"(?: s|\s?(?:µs|ms|min|seconds?|minutes?|hours?|KB|kB|MB|GB|KiB|MiB|GiB|bytes|B)"  # seconds after a space:
    r"|\s?[×x](?!\s?\d))"  # 63s is a hand; a ratio, not a dimension (1,326 × 1,326)
    r"(?!\w)")
"""A time, size or ratio written in the text, unless it follows ≤ or ≥ (a target)."""

RUN = re.compile(r"^<!--run ([^\s>]+)-->$(.*?)^<!--/run-->$", re.M | re.S)
"""A block of a page quoted whole from a committed run (the convergence tables of OPENSPIEL.md),
checked against it below."""


def unmarked(text: str) -> list[str]:
    """The measurements of ``text`` outside its figure quotes, constant quotes and run blocks."""
    for pattern in (RUN, figures.QUOTE, figures.CONST):
        text = pattern.sub("", text)
    return MEASURED.findall(text)


def test_the_measurement_pattern_finds_figures_not_hands_or_dimensions():
    assert MEASURED.findall("took 2.65 s (≤ 4 s), 0.32× and 459 MB, ≥ 1 M") == ["2.65 s", "0.32×", "459 MB"]
    assert MEASURED.findall("1.35x, 28 B, 74,372 bytes, 10 min 6 s, 45 minutes, 50 µs, 1 kB, 10 MiB, ≤ 2x") == [
        "1.35x", "28 B", "74,372 bytes", "10 min", "6 s", "45 minutes", "50 µs", "1 kB", "10 MiB"]
    assert MEASURED.findall("63s `7.1†`, 43s 71.1%, 1,326 × 1,326 and 169 × 169 entries, 13x13, pygambit 16.x, "
                            "(1, x[k]), 1–25 bb, 0.5 bb, 10 bb") == []
    assert unmarked("a <!--fig a.b-->2.65 s<!--/fig--> and <!--const m.N-->4 MB<!--/const--> quote, 3 s does not") == [
        "3 s"]
    assert unmarked("<!--run x.csv-->\n| after 1 s |\n<!--/run-->\nafter 2 s") == ["2 s"]


@pytest.mark.parametrize("page", figures.documents(), ids=lambda p: p.name)
def test_no_page_has_an_unrecorded_measurement(page):
    """Outside the marked quotes, a time, size or ratio on the README or a page of docs/ is a target
    (after ≤ or ≥)."""
    assert unmarked(page.read_text()) == []


def _atlas_tables():
    """tests/test_atlas_tables.py, which recomputes the convergence tables from the committed run."""
    spec = importlib.util.spec_from_file_location("atlas_tables", ROOT / "tests" / "test_atlas_tables.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_run_block_is_its_runs_table():
    """A run block holds one convergence table, every cell recomputed from the committed CSV by the
    rules of tests/test_atlas_tables.py; every table of that run is in a block."""
    atlas = _atlas_tables()
    blocks = [(page, m) for page in figures.documents() for m in RUN.finditer(page.read_text())]
    assert blocks
    stacks = []
    for page, m in blocks:
        assert m.group(1) == str(atlas.ATLAS.relative_to(ROOT)), (page.name, m.group(1))
        lines = [line for line in m.group(2).splitlines() if line.strip()]
        header = re.fullmatch(r"\| method, ([0-9.]+) bb \| after 0\.1 s \| after 1 s \| after 20 s \| "
                              r"iterations in 20 s \| to 1e-2 bb \| to 1e-3 bb \|", lines[0])
        assert header and re.fullmatch(r"(\| -+ )+\|", lines[1]), (page.name, lines[:2])
        stack = float(header.group(1))
        stacks.append(stack)
        points = atlas.traces(stack)
        rows = [[cell.strip() for cell in line.strip("|").split("|")] for line in lines[2:]]
        assert sorted(atlas.method_of(row[0]) for row in rows) == sorted(points), (page.name, stack)
        for name, *cells in rows:
            p = points[atlas.method_of(name)]
            assert cells == [atlas.after(p, 0.1), atlas.after(p, 1.0), atlas.after(p, None), f"{p[-1][0]:,}",
                             atlas.reached(p, 1e-2), atlas.reached(p, 1e-3)], (page.name, stack, name)
    assert sorted(stacks) == atlas.stacks_of_the_run()


# ---------------------------------------------------------------- constants


def test_every_quoted_constant_is_the_codes():
    quoted = [(p.name, m.group(1)) for p in figures.documents() for m in figures.CONST.finditer(p.read_text())]
    assert len(quoted) >= 10
    assert [p for page in figures.documents() for p in figures.const_problems(page.read_text())] == []


def test_a_changed_constant_fails(tmp_path):
    module = tmp_path / "pkg" / "limits.py"
    module.parent.mkdir()
    module.write_text('STAGE = len(".") + len(".staging-") + 8\nMAX_BYTES = 4_000_000\nDELAY: float = 2.0\n'
                      'def f():\n    MAX_BYTES = 1\n')
    text = ("<!--const pkg.limits.MAX_BYTES-->4 MB<!--/const-->, <!--const pkg.limits.DELAY-->2 s<!--/const-->, "
            "<!--const pkg.limits.STAGE-->18 bytes<!--/const-->")
    assert figures.const_problems(text, tmp_path) == []
    module.write_text(module.read_text().replace("4_000_000", "50_000_000"))
    assert figures.const_problems(text, tmp_path) == ["pkg.limits.MAX_BYTES quotes '4 MB': the code says 50 MB"]
    assert figures.const_problems("<!--const pkg.limits.GONE-->1 s<!--/const-->", tmp_path) == [
        "pkg.limits.GONE is quoted but the code has no such constant (KeyError: 'GONE')"]
    assert figures.const_problems("<!--const pkg.limits.MAX_BYTES-->50 megabytes<!--/const-->", tmp_path) == [
        "pkg.limits.MAX_BYTES quotes '50 megabytes': '50 megabytes' is not a number and a unit of UNITS"]


# ---------------------------------------------------------------- figures against their targets

AMOUNT = r"(\d[\d,]*(?:\.\d+)?) ?(µs|ms|s|KB|MB|GB|×|x|M hands/minute)(?!\w)"
SCALE = {"µs": ("time", 1e-6), "ms": ("time", 1e-3), "s": ("time", 1.0), "KB": ("size", 1e3), "MB": ("size", 1e6),
         "GB": ("size", 1e9), "×": ("ratio", 1.0), "x": ("ratio", 1.0), "M hands/minute": ("rate", 1e6)}
TARGET = re.compile(r"([≤≥]) ?" + AMOUNT)
PROSE_PAIR = re.compile(r"<!--fig ([A-Za-z0-9_.+\-]+)-->([^<]*)<!--/fig-->\s*\((target\b[^()]*)\)")
OVER = re.compile(r"over\s+the\s+target|not\s+met")


def _amount(number: str, unit: str) -> tuple[str, float]:
    kind, scale = SCALE[unit]
    return kind, float(number.replace(",", "")) * scale


def _judge(key: str, figure: str, target: str) -> str | None:
    """Why the figure ``figure`` (a quote's text) and the text of its target disagree, or None."""
    if not key:
        return f"no figure of its kind stands beside the target {target!r}"
    have = re.match(AMOUNT, figure)
    want = TARGET.search(target)
    if have is None or want is None:
        return f"{key}: cannot read {figure!r} against {target!r}"
    (kind, value), (want_kind, bound) = _amount(*have.groups()), _amount(*want.groups()[1:])
    if kind != want_kind:
        return f"{key}: {figure!r} is a {kind}, its target {target!r} a {want_kind}"
    beyond = value > bound if want.group(1) == "≤" else value < bound
    says = bool(OVER.search(target))
    if beyond and not says:
        return f"{key}: {figure} misses its target ({target}) and does not say 'over the target'"
    if says and not beyond:
        return f"{key}: {figure} meets its target ({target}) but says it is over"
    return None


def _tables(text: str):
    """``(header cells, rows of cells)`` of each Markdown table of ``text``."""
    block: list[list[str]] = []
    for line in [*text.splitlines(), ""]:
        if line.startswith("|"):
            block.append([cell.strip() for cell in line.strip().strip("|").split("|")])
        elif block:
            yield block[0], block[2:]
            block = []


def figure_target_pairs(text: str) -> tuple[list[tuple[str, str, str]], str]:
    """The figures of ``text`` that stand beside a target, as ``(key, figure, target text)``, and
    the text left when they are taken out.  A target stands beside its figure in one of two ways:

    * in prose, a parenthesis that opens with "target" right after the figure's quote:
      ``<!--fig K-->1.65x<!--/fig--> (target ≤ 1.5x, over the target)``;
    * in a table with a ``target`` column: each target of the cell (several are separated by
      ``;``) is the row's first figure of its kind (a time, a size, a ratio, a rate), the first
      ``.wall`` or ``.cpu`` one when the target says wall or CPU.
    """
    pairs = [(m.group(1), m.group(2), m.group(3)) for m in PROSE_PAIR.finditer(text)]
    rest = PROSE_PAIR.sub("", text)
    for header, rows in _tables(text):
        if "target" not in [cell.lower() for cell in header]:
            continue
        column = [cell.lower() for cell in header].index("target")
        for row in rows:
            figures_of_row = [q for k, cell in enumerate(row) if k != column for q in figures.quotes(cell)]
            for target in row[column].split(";"):
                want = TARGET.search(target)
                if want is None:
                    continue
                kind = SCALE[want.group(3)][0]
                clock = ".wall" if "wall" in target else ".cpu" if "CPU" in target else ""
                same = [(k, f) for k, f in figures_of_row
                        if re.match(AMOUNT, f) and SCALE[re.match(AMOUNT, f).group(2)][0] == kind]
                chosen = [(k, f) for k, f in same if k.endswith(clock)] or same
                pairs.append((*chosen[0], target.strip()) if chosen else ("", "", target.strip()))
            rest = rest.replace(row[column], "")
    return pairs, rest


def target_problems(text: str) -> list[str]:
    pairs, _ = figure_target_pairs(text)
    return [p for key, figure, target in pairs if (p := _judge(key, figure, target)) is not None]


def test_a_figure_beyond_its_target_says_so():
    assert target_problems("costs <!--fig a.r-->1.65x<!--/fig--> (target ≤ 1.5x, over the target)") == []
    assert target_problems("costs <!--fig a.r-->1.65x<!--/fig--> (target ≤ 1.5x)") == [
        "a.r: 1.65x misses its target (target ≤ 1.5x) and does not say 'over the target'"]
    assert target_problems("costs <!--fig a.r-->1.45x<!--/fig--> (target ≤ 1.5x, not met)") == [
        "a.r: 1.45x meets its target (target ≤ 1.5x, not met) but says it is over"]
    assert target_problems("<!--fig a.s-->389 M hands/minute<!--/fig--> (target ≥ 1 M hands/minute)") == []
    assert target_problems("<!--fig a.c-->0.12 s<!--/fig--> CPU: <!--fig a.r-->1.46x<!--/fig--> (target ≤ 2x)") == []
    wrapped = "<!--fig a.c-->0.12 s<!--/fig--> CPU, <!--fig a.r-->2.5x<!--/fig--> (target ≤ 2x, over\nthe target)"
    assert figure_target_pairs(wrapped)[0] == [("a.r", "2.5x", "target ≤ 2x, over\nthe target")]
    table = ("| what | wall | CPU | target |\n|---|---|---|---|\n"
             "| job | <!--fig a.wall-->2.00 s<!--/fig--> | <!--fig a.cpu-->3.00 s<!--/fig--> | ≤ 2.5 s CPU |\n"
             "| read | <!--fig b.wall-->57.7 µs<!--/fig--> | — | ≤ 25 µs, over the target; ≤ 0.1 s |\n"
             "| size | <!--fig c.wall-->1.20 s<!--/fig--> | — | ≤ 1 GB |\n")
    assert target_problems(table) == [
        "a.cpu: 3.00 s misses its target (≤ 2.5 s CPU) and does not say 'over the target'",
        "no figure of its kind stands beside the target '≤ 1 GB'"]
    pairs, rest = figure_target_pairs(table)
    assert [(k, t) for k, _, t in pairs] == [("a.cpu", "≤ 2.5 s CPU"), ("b.wall", "≤ 25 µs, over the target"),
                                            ("b.wall", "≤ 0.1 s"), ("", "≤ 1 GB")]
    assert "≤" not in rest


def test_every_figure_with_a_target_says_whether_it_is_over():
    """A re-record that moves a figure across its target fails here until its words follow."""
    found = {page.name: figure_target_pairs(page.read_text())[0] for page in figures.documents()}
    performance = {key for key, _, _ in found["PERFORMANCE.md"]}
    assert {"thresholds.1-25.certificate_cpu_ratio", "thresholds.1-200.certificate_cpu_ratio",
            "chart.small.job.wall", "chart.small.job.cpu", "chart.small.peak_mb", "core.solve_warm.ratio",
            "atlas.local.wall", "atlas.dask_ratio", "equity.build.wall", "simulate.rate_10bb"} <= performance
    assert [p for page in figures.documents() for p in target_problems(page.read_text())] == []


def test_every_target_on_the_performance_page_stands_beside_its_figure():
    """No target on PERFORMANCE.md is left without the figure it judges (which could drift apart)."""
    _, rest = figure_target_pairs((ROOT / "docs" / "PERFORMANCE.md").read_text())
    assert TARGET.findall(rest) == []


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
