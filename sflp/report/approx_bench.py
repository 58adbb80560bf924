"""Files of an approximate-solver benchmark: a tidy CSV and a log-log convergence picture.

:func:`write_approx_bench` takes the results of :func:`sflp.approx.bench.approx_bench` and writes

* ``approx_bench.csv`` -- one row per trace point: method, stack, iteration, seconds,
  sb_exploitability, bb_exploitability, total_exploitability (bb per hand);
* ``approx_bench.png`` -- total exploitability against solver seconds, log-log, one panel per
  stack and one line per method.  Exploitabilities below :data:`FLOOR` (an exact 0, or rounding
  noise around it) are drawn at the floor.

The CSV is made from a tidy pandas frame (:func:`bench_frame`, one row per trace point) with the
report CSV writer (:func:`sflp.report.csv_out.csv_bytes`: shortest round-trip float text), and both
files go through the package's one atomic writer (:mod:`sflp.atomic`), so a reader never sees
half a file; I/O errors become :class:`sflp.errors.OutputError`.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import pandas as pd

from sflp.atomic import write_bytes, write_with

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
    from sflp.report.csv_out import csv_bytes

    return csv_bytes(bench_frame(rows), ROW_FIELDS).decode("utf-8")


def convergence_figure(rows: list[dict]):
    """A matplotlib ``Figure`` (Agg canvas): total exploitability vs seconds, panels by stack."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    stacks = sorted({row["stack"] for row in rows})
    methods = list(dict.fromkeys(row["method"] for row in rows))
    n = max(len(stacks), 1)
    fig = Figure(figsize=(4.2 * n, 3.8), constrained_layout=True)
    FigureCanvasAgg(fig)
    axes = fig.subplots(1, n, squeeze=False, sharey=True)[0]
    for ax, stack in zip(axes, stacks):
        for method in methods:
            pts = [r for r in rows if r["stack"] == stack and r["method"] == method and r["seconds"] > 0]
            if not pts:
                continue
            xs = [r["seconds"] for r in pts]
            ys = [max(r["total_exploitability"], FLOOR) for r in pts]
            ax.plot(xs, ys, marker=".", markersize=3, linewidth=1.2, label=method)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_title(f"{stack:g} bb")
        ax.set_xlabel("solver seconds")
        ax.grid(True, which="major", linewidth=0.4, alpha=0.6)
    axes[0].set_ylabel("total exploitability (bb/hand)")
    if methods:
        axes[-1].legend(fontsize="small", loc="best")
    return fig


def write_approx_bench(results, out_dir: Path | str, *, on_keep=None) -> dict[str, Path]:
    """Write ``approx_bench.csv`` and ``approx_bench.png`` into ``out_dir``; returns their paths.

    The folder is one unit with a ``manifest.json``, under the output-folder contract of
    :class:`~sflp.report.staging.StagedFolder` (the user's own files are kept, ``on_keep``).
    """
    import sflp
    from sflp.approx.bench import bench_rows
    from sflp.report.staging import StagedFolder, write_manifest

    out = Path(out_dir)
    rows = bench_rows(results)
    fig = convergence_figure(rows)
    folder = StagedFolder(out)
    with folder as stage:
        write_bytes(stage / CSV_NAME, csv_text(rows).encode("utf-8"))
        write_with(stage / PNG_NAME, lambda tmp: fig.savefig(tmp, format="png", dpi=120))
        write_manifest(stage, {"kind": "approx-bench", "sflp_version": sflp.__version__})
    if folder.kept and on_keep is not None:
        on_keep(folder.kept)
    return {"csv": out / CSV_NAME, "png": out / PNG_NAME}
