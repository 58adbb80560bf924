"""sflp: exact heads-up no-limit hold'em push/fold equilibria.

The public API is importable from the package itself, lazily: ``import sflp`` loads nothing
heavy (no numpy-heavy tables, no cvxpy, no pandas); each name is imported from its module the
first time it is used.

>>> import sflp
>>> r = sflp.equity("AdAc", "KhKs")
>>> r.counts.wins, r.counts.ties, r.counts.losses      # GNU poker-eval's enumeration
(1388072, 6538, 317694)
>>> str(sflp.parse_range("AA,KK,AKs,AQs"))
'KK+,AQs+'

The package is layered so that imports run one way.  Import order:

    errors / quiet -> checks / atomic -> cards -> evaluator -> palette -> display -> ranges -> equity_build
    -> equity -> payoff -> game -> support -> highs -> lp / certify -> ddeval -> ddkernel -> segment -> solver
    -> thresholds -> strategy -> verify -> approx / simulate / exploit / sc / compare -> format -> report -> cli

A module imports only modules to its left (inside functions too); modules separated by ``/``
share a layer and do not import each other; ``approx`` and ``report`` are subpackages, free
inside.  ``tests/test_architecture.py`` reads this order from here and checks every import.
The pure core (``cards``, ``ranges``, ``equity``, ``payoff``, ``game``) needs only numpy.
"""

from __future__ import annotations

import importlib
import sys

__version__ = "0.1.0"

_EXPORTS: dict[str, str] = {
    # solving
    "solve": "sflp.solver",
    "solve_many": "sflp.solver",
    "iter_solve": "sflp.solver",
    "iter_blocks": "sflp.solver",
    "GameConfig": "sflp.game",
    "Solution": "sflp.game",
    "PushFoldGame": "sflp.game",
    # thresholds
    "compute_thresholds": "sflp.thresholds",
    "Thresholds": "sflp.thresholds",
    "HandThresholds": "sflp.thresholds",
    # equities and hands
    "equity": "sflp.equity",
    "EquityResult": "sflp.equity",
    "EquityTable": "sflp.equity",
    "load_table": "sflp.equity",
    "build_table": "sflp.equity",
    "parse_range": "sflp.ranges",
    "Range": "sflp.ranges",
    # study tools
    "sc_numbers": "sflp.sc",
    "hand_ranking": "sflp.equity",
    # scoring other strategies, simulation
    "verify": "sflp.verify",
    "load_strategy": "sflp.strategy",
    "VerifyReport": "sflp.verify",
    "StrategySpec": "sflp.strategy",
    "simulate": "sflp.simulate",
    "SimulationReport": "sflp.simulate",
    # files
    "chart": "sflp.report.chart",
    "ChartResult": "sflp.report.chart",
    "read_ranges": "sflp.report.writers",
    "write_chart_set": "sflp.report",
    "write_solution": "sflp.report",
    "check_manifest": "sflp.report.staging",
    # errors
    "SflpError": "sflp.errors",
    "NotationError": "sflp.errors",
    "ConfigError": "sflp.errors",
    "DataError": "sflp.errors",
    "SolveError": "sflp.errors",
    "CertificateError": "sflp.errors",
    "OutputError": "sflp.errors",
}

_SUBMODULES = frozenset(
    {"approx", "atomic", "cards", "certify", "cli", "compare", "display", "equity", "equity_build",
     "errors", "evaluator", "exploit", "format", "game", "highs", "lp", "palette", "payoff", "ranges", "report",
     "sc", "segment", "ddeval",
     "simulate", "solver", "strategy", "support", "thresholds", "verify"}
)

__all__ = sorted(_EXPORTS) + ["__version__", "errors"]


# ``equity``, ``verify`` and ``simulate`` are also submodule names; Python binds an imported
# submodule to the package attribute of the same name, so those three modules are callable and
# forward to their function (see the end of each module): ``sflp.equity("AA", "KK")`` and
# ``sflp.equity.load_table()`` both work, whatever was imported first.
_CALLABLE_MODULES = frozenset({"equity", "verify", "simulate"})


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is not None:
        if name in _CALLABLE_MODULES:
            return importlib.import_module(f"sflp.{name}")
        value = getattr(importlib.import_module(module), name)
        globals()[name] = value  # later look-ups skip this hook
        return value
    if name in _SUBMODULES:
        return importlib.import_module(f"sflp.{name}")
    raise AttributeError(f"module 'sflp' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS) | _SUBMODULES)


# ---------------------------------------------------------------- notebook display

_NOTEBOOK_VIEWS: tuple[tuple[str, str, str], ...] = (
    # (module that defines the class, class name, HTML view in sflp.report.notebook)
    ("sflp.game", "Solution", "solution_html"),
    ("sflp.thresholds", "Thresholds", "thresholds_html"),
    ("sflp.ranges", "Range", "range_html"),
)
"""How a notebook shows sflp's result types.  The core types carry no ``_repr_html_``; inside a
running IPython shell, ``import sflp`` registers these views with its HTML formatter by module
and class *name* (IPython matches ``cls.__module__`` and ``cls.__name__``), so that neither the
classes' modules nor the views are imported before an object is shown.  If a class moves, change
its module here: ``tests/test_notebook_views.py`` checks that every pair names a class defined there."""


def _notebook_view(name: str):
    """The formatter function of one view: imports :mod:`sflp.report.notebook` on its first call."""

    def view(obj) -> str:
        from sflp.report import notebook

        return getattr(notebook, name)(obj)

    view.__name__ = view.__qualname__ = name
    return view


def _register_notebook_views() -> None:
    """Register :data:`_NOTEBOOK_VIEWS` with the running IPython shell's HTML formatter, if any.

    IPython is not imported here: only a shell that is already running (Jupyter, ``ipython``)
    gets the views."""
    ipython = sys.modules.get("IPython")
    get_ipython = getattr(ipython, "get_ipython", None)
    shell = get_ipython() if get_ipython is not None else None
    if shell is None:
        return
    html = shell.display_formatter.formatters["text/html"]
    for module, class_name, view in _NOTEBOOK_VIEWS:
        html.for_type_by_name(module, class_name, _notebook_view(view))


_register_notebook_views()
