"""Benchmark of the full chart job: solve a 1-25 bb sweep, exact thresholds, write every file.

Run:  python benchmarks/bench_chart.py [--runs 3] [--out DIR]

One run is what ``sflp chart --stacks 1:25:0.05`` does: ``solve_many`` over 481 stacks (1 to 25
bb in steps of 0.05, blinds 0.5/1, no ante), ``compute_thresholds(config, 1, 25)`` and
``write_chart_set`` (values/ranges/thresholds CSV, chart.xlsx, PNG + SVG pictures, chart.html, chart.pdf).  Prints each
phase's time per run and the median over ``--runs`` runs (the first run also pays for imports
and loading the equity table), then one breakdown of the writing phase into its parts.
Target: <= 20 s total on 2 cores.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path

STACKS = [float(Fraction(1) + k * Fraction(1, 20)) for k in range(481)]  # 1, 1.05, ..., 25
TARGET_SECONDS = 20.0


def one_run(out_dir: Path) -> dict[str, float]:
    from sflp.game import GameConfig
    from sflp.report import write_chart_set
    from sflp.solver import solve_many
    from sflp.thresholds import compute_thresholds

    config = GameConfig(stack=STACKS[0])
    times = {}
    t0 = time.perf_counter()
    solutions = solve_many(STACKS, config)
    times["solve_many (481 stacks)"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    thresholds = compute_thresholds(config, low=1.0, high=25.0)
    times["compute_thresholds(1, 25)"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    files = write_chart_set(solutions, thresholds, out_dir)
    times["write_chart_set"] = time.perf_counter() - t0
    times["total"] = sum(times.values())
    assert len(files) == 32, sorted(files)  # 20 pictures/tables + 10 grid CSVs + chart.html/pdf
    return times


def write_breakdown(out_dir: Path) -> dict[str, float]:
    """The parts of write_chart_set, timed one by one with the same building blocks."""
    from sflp.game import GameConfig
    from sflp.report import chartset, csv_out, excel, frames, plots
    from sflp.solver import solve_many
    from sflp.thresholds import compute_thresholds

    config = GameConfig(stack=STACKS[0])
    solutions = solve_many(STACKS, config)
    thresholds = compute_thresholds(config, low=1.0, high=25.0)
    parts = {}
    t0 = time.perf_counter()
    values = frames.values_frame(solutions)
    ranges = frames.ranges_frame(solutions)
    tdf = frames.thresholds_frame(thresholds)
    stacks = frames.default_range_stacks([float(s.config.stack) for s in solutions])
    about = chartset.about_items(solutions, exact=False, thresholds=thresholds, range_stacks=stacks)
    structure = chartset.structure_text(config)
    parts["tidy frames"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    csv_out.write_values_csv(values, out_dir / "values.csv")
    csv_out.write_ranges_csv(ranges, out_dir / "ranges.csv")
    csv_out.write_thresholds_csv(tdf, out_dir / "thresholds.csv")
    parts["CSV (3 files)"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    wb = excel.chart_workbook(values, ranges, tdf, 1.0, 25.0, stacks, about, structure)
    parts["xlsx build"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    excel.save_workbook(wb, out_dir / "chart.xlsx")
    parts["xlsx save"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    plots.render(plots.threshold_figure, out_dir, "sb_push", tdf, "sb", 1.0, 25.0, structure)
    plots.render(plots.threshold_figure, out_dir, "bb_call", tdf, "bb", 1.0, 25.0, structure)
    parts["threshold pictures (2 x PNG+SVG)"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    plots.render(plots.value_figure, out_dir, "value_by_stack", values, structure)
    for stack in stacks:
        plots.render(plots.range_figure, out_dir, f"range_{frames.fmt_num(stack)}bb", ranges, stack, structure)
    parts[f"value + {len(stacks)} range pictures (PNG+SVG)"] = time.perf_counter() - t0
    from sflp.report.html import write_chart_html

    t0 = time.perf_counter()
    write_chart_html(out_dir / "chart.html", values, ranges, tdf, structure, about, low=1.0, high=25.0)
    parts["chart.html"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    plots.write_chart_pdf(out_dir / "chart.pdf", tdf, 1.0, 25.0, structure, about)
    parts["chart.pdf"] = time.perf_counter() - t0
    return parts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--out", default=None, help="output folder (default: a temporary folder)")
    args = parser.parse_args(argv)
    print(f"machine: {platform.platform()}, python {platform.python_version()}, "
          f"os.cpu_count()={os.cpu_count()}")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(args.out) if args.out else Path(tmp)
        runs = []
        for k in range(args.runs):
            times = one_run(out)
            runs.append(times)
            print(f"run {k + 1}: " + ", ".join(f"{name} {t:.2f} s" for name, t in times.items()))
        print(f"\nmedian of {args.runs} runs (1-25 bb, step 0.05, {len(STACKS)} stacks):")
        for name in runs[0]:
            values = [r[name] for r in runs]
            print(f"  {name:<28} {statistics.median(values):7.2f} s   (min {min(values):.2f}, max {max(values):.2f})")
        total = statistics.median(r["total"] for r in runs)
        verdict = "OK" if total <= TARGET_SECONDS else "OVER TARGET"
        print(f"  target <= {TARGET_SECONDS:g} s: {verdict}")
        print("\nwrite_chart_set broken down (one run):")
        for name, t in write_breakdown(out).items():
            print(f"  {name:<40} {t:6.2f} s")
        sizes = sorted((p.stat().st_size, p.name) for p in out.iterdir())
        print("\nfiles: " + ", ".join(f"{name} {size / 1e6:.2f} MB" for size, name in sizes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
