"""One chart set: solver results as tidy frames, then every medium, written as one unit.

Results are values and files are an edge.  The solvers return dataclasses
(:class:`sflp.core.game.Solution`, :class:`sflp.solving.thresholds.Thresholds`); this package first
turns them into tidy pandas frames -- one row per stack x player x hand (:mod:`.frames`;
:mod:`.threshold_rows` gives the thresholds' rows without pandas) -- and only then into files,
one module or sub-package per medium in :mod:`.media`.  Wide 13x13 grids are derived from the tidy
frames, never stored separately.

==================  ==================================================================================
:mod:`.chart`       ``sflp.chart``: the whole job of ``sflp chart`` in one call (:class:`ChartResult`)
:mod:`.chartset`    ``write_set``: the stream of solved blocks into a staged folder, the writers, the
                    manifest (:func:`write_chart_set`, :func:`write_solution`)
:mod:`.frames`      the tidy frames; :mod:`.threshold_rows` the rows of ``thresholds.csv``
:mod:`.text`        numbers and CSV rows as text (numpy only: the solving process writes them)
:mod:`.stacks`      which stacks a sheet or page shows
:mod:`.about`       what a set says about itself: its structure, folder, About items, where every
                    stack is
:mod:`.scale`       the one label rule and colour rule of a threshold chart; :mod:`.colors` the palette
:mod:`.readback`    reading a set's ranges back, checked (:func:`read_ranges`); :mod:`.margins`
                    every stack's EV margins (:func:`read_margins`)
:mod:`.proof`       ``thresholds_exact.csv`` and :func:`verify_thresholds`, its re-check in integers
:mod:`.compare`     ``sflp compare``: two sets read back, their differences written
:mod:`.media`       one module or sub-package per medium (csv, segments, parquet, xlsx, html, pdf,
                    pictures, the terminal), the interface their writers implement and its registry
==================  ==================================================================================

The set is written under the output contract (:mod:`sflp.output`).  This is the only package that
imports pandas, openpyxl, Pillow, reportlab and pyarrow (the atlas and the views use them through
it), each lazily, in the job that writes its format.
"""

import importlib

# Names are imported from their module on first use (PEP 562): importing the package loads nothing heavy.
_LAZY = {
    **dict.fromkeys(("chart", "ChartResult"), "sflp.charts.chart"),
    **dict.fromkeys(("write_chart_set", "write_solution", "write_set"), "sflp.charts.chartset"),
    **dict.fromkeys(("about_items", "config_name", "default_out_dir", "structure_text"), "sflp.charts.about"),
    "read_ranges": "sflp.charts.readback",
    "read_margins": "sflp.charts.margins",
    **dict.fromkeys(("verify_thresholds",), "sflp.charts.proof"),
    **dict.fromkeys(("RANGES_COLUMNS", "VALUES_COLUMNS"), "sflp.charts.text"),
    **dict.fromkeys(
        ("THRESHOLDS_COLUMNS", "grid_from_tidy", "ranges_frame", "thresholds_frame", "values_frame", "wide_by_stack"),
        "sflp.charts.frames",
    ),
    **dict.fromkeys(("FORMATS", "RANGE_FORMS"), "sflp.charts.media.formats"),
}


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # the next lookup is a plain attribute
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__all__ = sorted(_LAZY)
