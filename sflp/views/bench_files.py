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


BENCH_KIND = "approx-bench"
OPENSPIEL_KIND = "openspiel-bench"
"""The kinds of set (:data:`sflp.output.target.KINDS`): sflp's approximate solvers alone, and the
OpenSpiel convergence atlas (``--openspiel``: its methods too, named ``openspiel-...``).  Two kinds,
so that a quick benchmark never replaces an atlas that took hours (issue 52)."""


def bench_kind(methods: Iterable[str]) -> str:
    """The kind of a benchmark of these methods: :data:`OPENSPIEL_KIND` when one is OpenSpiel's."""
    return OPENSPIEL_KIND if any(str(m).startswith("openspiel-") for m in methods) else BENCH_KIND


def _held_kinds(folder: Path) -> tuple[object, str | None]:
    """The ``"kind"`` of ``folder``'s manifest (None: no manifest), and the kind of benchmark it
    holds: the manifest's, except that an ``approx-bench`` set whose listed ``approx_bench.csv`` has
    OpenSpiel methods is an OpenSpiel atlas written before the two had their own kinds (None: no
    benchmark)."""
    import csv

    from sflp.output.manifest import read_manifest

    manifest = read_manifest(folder) if folder.is_dir() and not folder.is_symlink() else None
    kind = None if manifest is None else manifest.get("kind")
    if kind != BENCH_KIND or not any(isinstance(e, dict) and e.get("name") == CSV_NAME
                                     for e in manifest.get("files", []) or []):
        return kind, kind if kind in (BENCH_KIND, OPENSPIEL_KIND) else None
    try:
        with open(folder / CSV_NAME, newline="", encoding="utf-8") as f:
            return kind, bench_kind(row.get("method") or "" for row in csv.DictReader(f))
    except (OSError, UnicodeDecodeError, csv.Error):
        return kind, kind


def bench_target(out: Path | str, kind: str) -> tuple[Path, str]:
    """``out`` checked for a benchmark of ``kind`` (:func:`sflp.output.target.check_target`), and
    the kind the set written there names: an OpenSpiel atlas written before it had its own kind
    (manifest ``approx-bench``, OpenSpiel methods in its CSV) is replaced by a new atlas that keeps
    that kind (the set it replaces is of its kind, :class:`~sflp.output.stage.StagedFolder`'s
    rule), and refused to a benchmark of sflp's methods alone, as a set of another kind is."""
    from sflp.errors import OutputError
    from sflp.output.target import KINDS, check_target

    out = Path(out)
    said, held = _held_kinds(out)
    if held == OPENSPIEL_KIND and kind == BENCH_KIND:
        raise OutputError(f"{out} holds {KINDS[OPENSPIEL_KIND]}; this run writes {KINDS[BENCH_KIND]}, and sflp "
                          "replaces a set only with one of its own kind: choose another folder (or remove that one "
                          "yourself)")
    as_kind = BENCH_KIND if held == OPENSPIEL_KIND and said == BENCH_KIND else kind
    return check_target(out, as_kind), as_kind


def write_approx_bench(results, out_dir: Path | str, *, on_keep=None) -> dict[str, Path]:
    """Write ``approx_bench.csv`` and ``approx_bench.png`` into ``out_dir``; returns their paths.

    The folder is one unit with a ``manifest.json``, under the output-folder contract of
    :class:`~sflp.output.stage.StagedFolder` (the user's own files are kept, ``on_keep``), of kind
    ``openspiel-bench`` when a method is OpenSpiel's, else ``approx-bench`` (:func:`bench_kind`):
    a benchmark replaces only a folder of its own kind (:func:`bench_target`, which says how an
    OpenSpiel atlas written before it had its kind is replaced).
    """
    import sflp
    from sflp.approx.bench import bench_rows
    from sflp.charts.media.draw import png_bytes
    from sflp.charts.media.pictures.plots import DPI
    from sflp.output.manifest import write_manifest
    from sflp.output.stage import StagedFolder

    rows = bench_rows(results)
    kind = bench_kind(row["method"] for row in rows)
    out, as_kind = bench_target(out_dir, kind)
    png = png_bytes(convergence_picture(rows), DPI)
    folder = StagedFolder(out, as_kind)
    with folder as stage:
        write_bytes(stage / CSV_NAME, csv_text(rows).encode("utf-8"))
        write_bytes(stage / PNG_NAME, png)
        write_manifest(stage, {"kind": as_kind, "sflp_version": sflp.__version__})
    if folder.kept and on_keep is not None:
        on_keep(folder.kept)
    return {"csv": out / CSV_NAME, "png": out / PNG_NAME}
