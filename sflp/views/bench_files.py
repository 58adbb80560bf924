"""Files of an approximate-solver benchmark: a tidy CSV and a log-log convergence picture.

:func:`write_approx_bench` takes the results of :func:`sflp.approx.bench.approx_bench` and writes

* ``approx_bench.csv`` -- one row per trace point: method, stack, iteration, seconds,
  sb_exploitability, bb_exploitability, total_exploitability (bb per hand);
* ``approx_bench.png`` -- total exploitability against iterations (top row) and against solver
  seconds (bottom row), log-log, one panel per stack and one line per method
  (:func:`convergence_picture`, drawn by :mod:`sflp.charts.media.draw`: the same rows give the same
  bytes).  Exploitabilities below :data:`FLOOR` (an exact 0, or rounding noise around it) are
  drawn at the floor.

The CSV is made from a tidy pandas frame (:func:`bench_frame`, one row per trace point) with the
report CSV writer (:func:`sflp.charts.media.csv.csv_bytes`: shortest round-trip float text), and both
files go through the package's one atomic writer (:mod:`sflp.atomic`), so a reader never sees
half a file; I/O errors become :class:`sflp.errors.OutputError`.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import pandas as pd

from sflp.atomic import write_bytes

CSV_NAME = "approx_bench.csv"
PNG_NAME = "approx_bench.png"
FLOOR = 1e-12
"""Smallest exploitability drawn on the log scale."""


def bench_frame(rows: Iterable[dict]) -> pd.DataFrame:
    """The tidy frame of benchmark rows: the columns of :data:`sflp.approx.bench.ROW_FIELDS`."""
    from sflp.approx.bench import ROW_FIELDS

    frame = pd.DataFrame([{k: row[k] for k in ROW_FIELDS} for row in rows], columns=list(ROW_FIELDS))
    return frame.astype({"method": object, "stack": float, "iteration": int, "seconds": float,
                         "sb_exploitability": float, "bb_exploitability": float,
                         "total_exploitability": float})


def csv_text(rows: Iterable[dict]) -> str:
    """The CSV text of tidy benchmark rows (floats in full precision)."""
    from sflp.approx.bench import ROW_FIELDS
    from sflp.charts.media.csv import csv_bytes

    return csv_bytes(bench_frame(rows), ROW_FIELDS).decode("utf-8")


METHOD_COLOURS = ("1F77B4", "FF7F0E", "2CA02C", "D62728", "9467BD", "8C564B", "E377C2", "7F7F7F", "BCBD22",
                  "17BECF", "000000", "AEC7E8")
"""Line colours, one per method in order of first appearance (the Tableau 10 cycle, then black and
light blue, so that the atlas's eleven methods each have their own)."""
AXES = (("iteration", "iterations"), ("seconds", "solver seconds"))
"""The x of each row of panels: the trace's column and its label."""


def convergence_picture(rows: list[dict]):
    """A :class:`~sflp.charts.media.draw.Drawing`: total exploitability against iterations (top row) and
    against solver seconds (bottom row), log-log, one panel per stack (all on one exploitability
    scale), one line with markers per method, the legend on the right.  Axes are ticked at powers
    of ten, with light grid lines."""
    from sflp.charts.media.draw import Drawing, text_width
    from sflp.charts.media.pictures.plots import INK, PT, LogAxes, decades
    from sflp.charts.text import fmt_num

    stacks = sorted({row["stack"] for row in rows})
    methods = list(dict.fromkeys(row["method"] for row in rows))
    colours = {m: METHOD_COLOURS[k % len(METHOD_COLOURS)] for k, m in enumerate(methods)}
    ys = [max(r["total_exploitability"], FLOOR) for r in rows]
    ylim = decades(min(ys), max(ys)) if ys else decades(FLOOR, 1.0)

    n = max(len(stacks), 1)
    left, top, width, height, gap, row_gap = 0.8 * PT, 0.4 * PT, 3.3 * PT, 2.75 * PT, 0.5 * PT, 0.75 * PT
    legend_width = 34 + max((text_width(m, 8) for m in methods), default=0)
    d = Drawing(left + n * width + (n - 1) * gap + 0.25 * PT + legend_width + 0.1 * PT,
                top + 2 * height + row_gap + 0.65 * PT)
    for r, (column, label) in enumerate(AXES):
        y0 = top + r * (height + row_gap)
        series = {(stack, method): [(row[column], max(row["total_exploitability"], FLOOR)) for row in rows
                                    if row["stack"] == stack and row["method"] == method and row[column] > 0]
                  for stack in stacks for method in methods}
        for k, stack in enumerate(stacks or [None]):
            xs = [x for (s, _), pts in series.items() if s == stack for x, _ in pts]
            xlim = decades(min(xs), max(xs)) if xs else decades(1e-3, 1.0)
            a = LogAxes(d, left + k * (width + gap), y0, width, height, xlim, ylim)
            a.decade_grid_and_ticks(y_labels=k == 0)
            for method in methods:
                pts = series.get((stack, method))
                if pts:
                    a.curve([x for x, _ in pts], [y for _, y in pts], colours[method], 1.2, markers=True)
            a.frame()
            if stack is not None and r == 0:
                d.text(a.left + width / 2, top - 8, f"{fmt_num(stack)} bb", 10, INK, anchor="middle")
            d.text(a.left + width / 2, y0 + height + 32, label, 9, INK, anchor="middle")
        d.text(left - 40, y0 + height / 2, "total exploitability (bb/hand)", 9, INK, anchor="middle", angle=90)
    x = left + n * width + (n - 1) * gap + 0.25 * PT
    for k, method in enumerate(methods):
        y = top + 10 + k * 14
        d.line([(x, y - 3), (x + 24, y - 3)], colours[method], 1.2)
        d.dot(x + 12, y - 3, 1.5, colours[method])
        d.text(x + 30, y, method, 8, INK)
    return d


def write_approx_bench(results, out_dir: Path | str, *, on_keep=None) -> dict[str, Path]:
    """Write ``approx_bench.csv`` and ``approx_bench.png`` into ``out_dir``; returns their paths.

    The folder is one unit with a ``manifest.json``, under the output-folder contract of
    :class:`~sflp.output.stage.StagedFolder` (the user's own files are kept, ``on_keep``).
    """
    import sflp
    from sflp.approx.bench import bench_rows
    from sflp.charts.media.draw import png_bytes
    from sflp.charts.media.pictures.plots import DPI
    from sflp.output.manifest import write_manifest
    from sflp.output.stage import StagedFolder

    out = Path(out_dir)
    rows = bench_rows(results)
    png = png_bytes(convergence_picture(rows), DPI)
    folder = StagedFolder(out, "approx-bench")
    with folder as stage:
        write_bytes(stage / CSV_NAME, csv_text(rows).encode("utf-8"))
        write_bytes(stage / PNG_NAME, png)
        write_manifest(stage, {"kind": "approx-bench", "sflp_version": sflp.__version__})
    if folder.kept and on_keep is not None:
        on_keep(folder.kept)
    return {"csv": out / CSV_NAME, "png": out / PNG_NAME}
