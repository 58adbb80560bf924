"""How the results of the other commands show themselves: text and JSON, notebook HTML, small folders.

A chart set has its own package (:mod:`sflp.charts`) and so has the atlas (:mod:`sflp.atlas`);
this one is the rest of sflp's faces, each result type once:

==================  ==================================================================================
:mod:`.text`        every result as a JSON-ready dict and as readable text (``sflp solve``, ``equity``,
                    ``rank``, ``exploit``, ``sc``, ``compare``, ``approx-bench``, the summary of ``chart``)
:mod:`.notebook`    how results show themselves in Jupyter (registered by ``import sflp``)
:mod:`.html_grid`   the headed 13x13 HTML grid the notebook views are made of
:mod:`.bench_files` ``sflp approx-bench --out``: the tidy CSV and the convergence picture
:mod:`.stack_sets`  ``sflp verify --policy-dir`` and ``sflp export efg --stacks``: folders of several
                    stacks under the output contract
==================  ==================================================================================

The grids and words of a terminal and the colours are the charts' (:mod:`sflp.charts.media.terminal`,
:mod:`sflp.charts.colors`), so a hand reads the same everywhere.
"""

import importlib

# Names are imported from their module on first use (PEP 562): importing the package loads nothing heavy.
_LAZY = {
    **dict.fromkeys(
        (
            "solution_html",
            "thresholds_html",
            "range_html",
            "exploit_html",
            "exploit_sweep_html",
            "verify_html",
            "sc_html",
            "solution_picture",
        ),
        "sflp.views.notebook",
    ),
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
