"""Reports: solver results as tidy frames, then CSV, Excel and pictures, written atomically.

Results are values and files are an edge.  The solvers return dataclasses
(:class:`sflp.core.game.Solution`, :class:`sflp.solving.thresholds.Thresholds`); this package first turns them
into tidy pandas frames -- one row per stack x player x hand (:mod:`.frames`) -- and only then
into files: CSV (:mod:`.csv_out`), an Excel workbook (:mod:`.excel`), PNG + SVG pictures
(:mod:`.plots`) and the printable PDF (:mod:`.printable`), both drawn by :mod:`.draw`.  Wide 13x13
grids are derived from the tidy frames, never stored separately.
Every file is written to a temporary file in its folder and renamed into place
(:mod:`sflp.atomic`, the package's one writer), so no reader ever sees half a file; I/O problems raise
:class:`sflp.errors.OutputError` naming the path.

This is the only part of sflp that imports pandas, openpyxl, Pillow, reportlab and pyarrow, each
lazily, in the job that writes its format.  The jobs (:mod:`.chartset`, :mod:`.chart`):

* :func:`write_chart_set` -- values.csv, ranges.csv, thresholds.csv, chart.xlsx, threshold
  charts, the value curve and range grids, chart.html (:func:`.html.write_chart_html`, one
  self-contained interactive page) and chart.pdf (:func:`.printable.write_chart_pdf`, the printable
  chart, A4 or Letter), for a sweep of stacks;
* :func:`write_solution` -- the files of a single solved stack;
* :func:`default_out_dir` -- ``reports/hu-pushfold_sb0.5_bb1_ante0_bbante0_1-25``;
* :func:`check_out_dir` -- create / validate an output folder up front.
"""

import importlib

# Names are imported from their module on first use (PEP 562): importing ``sflp.report`` or one of
# its light modules (``staging``, ``jobs``) does not load pandas, openpyxl or the chart set.
_LAZY = {
    **dict.fromkeys(("atomic_output", "check_out_dir", "write_bytes", "write_text", "write_with"), "sflp.atomic"),
    **dict.fromkeys(("about_items", "config_name", "default_out_dir", "write_chart_set", "write_solution"),
                    "sflp.report.chartset"),
    "structure_text": "sflp.report.labels",
    **dict.fromkeys(("RANGES_COLUMNS", "VALUES_COLUMNS"), "sflp.report.text"),
    **dict.fromkeys(("THRESHOLDS_COLUMNS", "grid_from_tidy", "ranges_frame",
                     "thresholds_frame", "values_frame", "wide_by_stack"), "sflp.report.frames"),
}


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'sflp.report' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # the next lookup is a plain attribute
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__all__ = [
    "RANGES_COLUMNS",
    "THRESHOLDS_COLUMNS",
    "VALUES_COLUMNS",
    "about_items",
    "atomic_output",
    "check_out_dir",
    "config_name",
    "default_out_dir",
    "grid_from_tidy",
    "ranges_frame",
    "structure_text",
    "thresholds_frame",
    "values_frame",
    "wide_by_stack",
    "write_bytes",
    "write_chart_set",
    "write_solution",
    "write_text",
    "write_with",
]
