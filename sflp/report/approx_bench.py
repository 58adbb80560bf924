"""Files of an approximate-solver benchmark: a tidy CSV and a log-log convergence picture.

:func:`write_approx_bench` takes the results of :func:`sflp.approx.bench.approx_bench` and writes

* ``approx_bench.csv`` -- one row per trace point: method, stack, iteration, seconds,
  sb_exploitability, bb_exploitability, total_exploitability (bb per hand);
* ``approx_bench.png`` -- total exploitability against solver seconds, log-log, one panel per
  stack and one line per method.  Exploitabilities below :data:`FLOOR` (an exact 0, or rounding
  noise around it) are drawn at the floor.

Each file is written to a temporary name in the output folder and renamed into place with
:func:`os.replace`, so a reader never sees half a file; I/O errors become
:class:`sflp.errors.OutputError`.
"""

from __future__ import annotations

import csv
import io
import os
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path

from sflp.errors import OutputError

CSV_NAME = "approx_bench.csv"
PNG_NAME = "approx_bench.png"
FLOOR = 1e-12
"""Smallest exploitability drawn on the log scale."""


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _atomic_write(path: Path, write: Callable[[object], None], mode: str) -> Path:
    """Call ``write(file)`` on a temporary file next to ``path``, then rename it to ``path``."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.chmod(tmp, 0o666 & ~_umask())
        with os.fdopen(fd, mode, **({"newline": "", "encoding": "utf-8"} if "b" not in mode else {})) as fh:
            write(fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise OutputError(f"cannot write {path}: {exc.strerror or exc}") from None
        raise
    return path


def csv_text(rows: Iterable[dict]) -> str:
    """The CSV text of tidy benchmark rows (floats in full precision)."""
    from sflp.approx.bench import ROW_FIELDS

    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=ROW_FIELDS, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: (repr(v) if isinstance(v, float) else v) for k, v in row.items() if k in ROW_FIELDS})
    return buf.getvalue()


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


def write_approx_bench(results, out_dir: Path | str) -> dict[str, Path]:
    """Write ``approx_bench.csv`` and ``approx_bench.png`` into ``out_dir``; returns their paths."""
    from sflp.approx.bench import bench_rows

    out = Path(out_dir)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"cannot create output folder {out}: {exc.strerror or exc}") from None
    if not out.is_dir():
        raise OutputError(f"output folder {out} is not a folder")
    rows = bench_rows(results)
    text = csv_text(rows)
    csv_path = _atomic_write(out / CSV_NAME, lambda fh: fh.write(text), "w")
    fig = convergence_figure(rows)
    png_path = _atomic_write(out / PNG_NAME, lambda fh: fig.savefig(fh, format="png", dpi=120), "wb")
    return {"csv": csv_path, "png": png_path}
