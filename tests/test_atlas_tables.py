"""The convergence-atlas tables of docs/OPENSPIEL.md are read off the committed record of that
run, ``reports/openspiel-atlas/approx_bench.csv`` (one row per trace point: method, stack,
iteration, seconds, exploitabilities): every cell is recomputed from the CSV here, so a quote
cannot drift from the measurement (issue 31, "README/docs quote only recorded figures"; the
timing figures elsewhere are checked against benchmarks/results by test_docs_figures.py).

The tables' rules (one table per stack of the run, its first header cell "method, S bb"; the
README's shorter 10 bb table, a subset of the 10 bb one, left the README with issue 44): "after
t s" is the total exploitability at the last trace point within t seconds of solver time ("-"
when the first point came later); "after 20 s" is the last point of the 20-second budget (which
a slow iteration overruns a little); "iterations in 20 s" the last iteration; "to 1e-2 bb" the
first point at or below that level, as iterations and seconds.
"""

import csv
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ATLAS = ROOT / "reports" / "openspiel-atlas" / "approx_bench.csv"

NAMES = {  # the tables' method names -> the CSV's
    "OpenSpiel CFR+ (C++)": "openspiel-cfr+", "OpenSpiel CFR (C++)": "openspiel-cfr",
    "OpenSpiel ES-MCCFR (C++)": "openspiel-es-mccfr", "OpenSpiel OS-MCCFR (C++)": "openspiel-os-mccfr",
    "OpenSpiel discounted CFR (Python)": "openspiel-dcfr", "OpenSpiel XFP (Python)": "openspiel-xfp",
}


def traces(stack: float = 10.0) -> dict[str, list[tuple[int, float, float]]]:
    out: dict[str, list] = {}
    with ATLAS.open(newline="") as f:
        for row in csv.DictReader(f):
            if float(row["stack"]) == stack:
                out.setdefault(row["method"], []).append(
                    (int(row["iteration"]), float(row["seconds"]), float(row["total_exploitability"])))
    return {m: sorted(points, key=lambda p: p[1]) for m, points in out.items()}


def after(points, seconds: float | None) -> str:
    """Total exploitability at the last point within ``seconds`` (None: the last point)."""
    within = points if seconds is None else [p for p in points if p[1] <= seconds]
    return f"{within[-1][2]:.1e}" if within else "-"


def reached(points, level: float) -> str:
    first = next((p for p in points if p[2] <= level), None)
    return "-" if first is None else f"{first[0]:,} it, {first[1]:.2g} s"


def table_rows(path: Path, header_start: str) -> list[list[str]]:
    lines = path.read_text(encoding="utf-8").splitlines()
    start = next(k for k, line in enumerate(lines) if line.startswith(header_start))
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def method_of(name: str) -> str:
    if name in NAMES:
        return NAMES[name]
    found = re.fullmatch(r"sflp `([a-z+-]+)`", name)
    assert found, f"a method name the test does not know: {name!r}"
    return found[1]


def stacks_of_the_run() -> list[float]:
    with ATLAS.open(newline="") as f:
        return sorted({float(row["stack"]) for row in csv.DictReader(f)})


@pytest.mark.skipif(not ATLAS.exists(), reason="reports/openspiel-atlas/approx_bench.csv is not in this checkout")
def test_the_openspiel_page_has_a_table_for_every_stack_of_the_run():
    text = (ROOT / "docs" / "OPENSPIEL.md").read_text(encoding="utf-8")
    shown = sorted(float(s) for s in re.findall(r"^\| method, ([0-9.]+) bb \| after 0\.1 s \|", text, re.M))
    assert shown == stacks_of_the_run() == [5.0, 10.0, 20.0]


@pytest.mark.skipif(not ATLAS.exists(), reason="reports/openspiel-atlas/approx_bench.csv is not in this checkout")
@pytest.mark.parametrize("stack", [5.0, 10.0, 20.0])
def test_the_openspiel_page_atlas_table_is_the_committed_run(stack):
    points = traces(stack)
    rows = table_rows(ROOT / "docs" / "OPENSPIEL.md", f"| method, {stack:g} bb | after 0.1 s |")
    assert len(rows) == len(points)  # every method of the run, once
    for name, tenth, one, twenty, iterations, to2, to3 in rows:
        p = points[method_of(name)]
        assert [tenth, one, twenty, iterations, to2, to3] == [
            after(p, 0.1), after(p, 1.0), after(p, None), f"{p[-1][0]:,}", reached(p, 1e-2), reached(p, 1e-3)], name


def test_a_changed_cell_would_be_caught():
    """The rules above distinguish the cells: a quote one digit off differs from its recomputation."""
    points = [(1, 0.05, 0.5), (2, 0.9, 0.012), (3, 20.3, 0.0009)]
    assert (after(points, 0.1), after(points, 1.0), after(points, None)) == ("5.0e-01", "1.2e-02", "9.0e-04")
    assert (reached(points, 1e-2), reached(points, 1e-3)) == ("3 it, 20 s", "3 it, 20 s")
    assert after(points, 0.01) == "-" and reached(points, 1e-4) == "-"
