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

The package is built in floors, one folder each (docs/ARCHITECTURE.md draws them): ``core/`` (the
game, numpy only), ``solving/`` (the LP, certificates, thresholds), ``study/`` (scoring and
studying strategies), ``approx/`` (approximate solvers), ``openspiel/`` (the game as a Gambit
``.efg`` file, OpenSpiel's policies scored), ``output/`` (the output contract: a set appears
whole, and sflp touches only its own files), ``charts/`` (one chart set and each of its media),
``views/`` (the other results as text, JSON and notebook HTML), ``atlas/`` (charts across blind
structures), ``testing`` (the gate of ``sflp verify`` and a helper for a solver author's tests) and
``cli/`` on top, over a base of ``errors``, ``quiet``, ``cache``, ``checks``, ``inputs`` and
``atomic``.  Imports run one way.
Import order:

    errors / quiet / cache -> checks / inputs -> atomic -> core.cards -> core.evaluator -> core.ranges
    -> core.equity_build -> core.equity -> core.payoff -> core.game -> solving.support -> solving.highs
    -> solving.lp / solving.exact -> solving.certify
    -> solving.ddeval -> solving.ddkernel -> solving.segment -> solving.rootcert -> solving.threshcert
    -> solving.solver / solving.piece -> solving.follower -> solving.thresholds
    -> study.strategy -> study.verify
    -> approx / study.simulate / study.exploit / study.sc / study.compare / study.referee
    -> openspiel / examples -> output -> charts -> views / atlas / testing -> cli / pytest_plugin

A module imports only modules to its left (inside functions too); modules separated by ``/``
share a layer and do not import each other; ``approx``, ``openspiel``, ``output``, ``charts``,
``views``, ``atlas``, ``examples`` and ``cli`` are one unit each, free inside but with no circle.
``tests/test_architecture.py`` reads this order from here and checks every import.
"""

from __future__ import annotations

import importlib
import sys

__version__ = "0.1.0"

_EXPORTS: dict[str, str] = {
    # solving
    "solve": "sflp.solving.solver",
    "solve_many": "sflp.solving.solver",
    "iter_solve": "sflp.solving.solver",
    "iter_blocks": "sflp.solving.solver",
    "GameConfig": "sflp.core.game",
    "Solution": "sflp.core.game",
    "PushFoldGame": "sflp.core.game",
    # thresholds
    "compute_thresholds": "sflp.solving.thresholds",
    "Thresholds": "sflp.solving.thresholds",
    "HandThresholds": "sflp.solving.thresholds",
    # equities and hands
    "equity": "sflp.core.equity",
    "EquityResult": "sflp.core.equity",
    "EquityTable": "sflp.core.equity",
    "load_table": "sflp.core.equity",
    "build_table": "sflp.core.equity",
    "parse_range": "sflp.core.ranges",
    "Range": "sflp.core.ranges",
    # study tools
    "sc_numbers": "sflp.study.sc",
    "SCNumbers": "sflp.study.sc",
    "exploit": "sflp.study.exploit",
    "Referee": "sflp.study.referee",
    "Tracker": "sflp.views.curves",
    "exploitability": "sflp.study.referee",
    "exploit_sweep": "sflp.study.exploit",
    "ExploitReport": "sflp.study.exploit",
    "ExploitSweep": "sflp.study.exploit",
    "hand_ranking": "sflp.core.equity",
    # scoring other strategies, simulation
    "verify": "sflp.study.verify",
    "load_strategy": "sflp.study.strategy",
    "VerifyReport": "sflp.study.verify",
    "StrategySpec": "sflp.study.strategy",
    "simulate": "sflp.study.simulate",
    "SimulationReport": "sflp.study.simulate",
    # the game for other tools (OpenSpiel's own functions are in sflp.openspiel)
    "to_efg": "sflp.openspiel",
    "write_efg": "sflp.openspiel.efg",
    # files
    "chart": "sflp.charts.chart",
    "ChartResult": "sflp.charts.chart",
    "read_ranges": "sflp.charts.readback",
    "read_margins": "sflp.charts.margins",
    "verify_thresholds": "sflp.charts.proof",
    "write_chart_set": "sflp.charts.chartset",
    "write_solution": "sflp.charts.chartset",
    "check_manifest": "sflp.output.manifest",
    # the structure atlas
    "AtlasJob": "sflp.atlas.jobs",
    "atlas_jobs": "sflp.atlas.jobs",
    "write_atlas": "sflp.atlas.write",
    "read_atlas": "sflp.atlas.read",
    # the gate of sflp verify, for a solver author's tests
    "assert_nash_conv_below": "sflp.testing",
    "judge": "sflp.testing",
    # errors
    "SflpError": "sflp.errors",
    "NotationError": "sflp.errors",
    "ConfigError": "sflp.errors",
    "DataError": "sflp.errors",
    "SolveError": "sflp.errors",
    "CertificateError": "sflp.errors",
    "OutputError": "sflp.errors",
}

_SUBMODULES = frozenset({"approx", "atlas", "atomic", "cache", "charts", "checks", "cli", "core", "errors", "inputs",
                         "openspiel", "output", "quiet", "solving", "study", "testing", "views"})
"""The package's own modules and folders, reachable as attributes (``sflp.core.game``)."""

__all__ = sorted(_EXPORTS) + ["__version__", "errors"]


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is not None:
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
    # (module that defines the class, class name, HTML view in sflp.views.notebook)
    ("sflp.core.game", "Solution", "solution_html"),
    ("sflp.solving.thresholds", "Thresholds", "thresholds_html"),
    ("sflp.core.ranges", "Range", "range_html"),
    ("sflp.study.exploit", "ExploitReport", "exploit_html"),
    ("sflp.study.exploit", "ExploitSweep", "exploit_sweep_html"),
    ("sflp.study.verify", "VerifyReport", "verify_html"),
    ("sflp.study.sc", "SCNumbers", "sc_html"),
)
"""How a notebook shows sflp's result types.  The core types carry no ``_repr_html_``; inside a
running IPython shell, ``import sflp`` registers these views with its HTML formatter by module
and class *name* (IPython matches ``cls.__module__`` and ``cls.__name__``), so that neither the
classes' modules nor the views are imported before an object is shown.  If a class moves, change
its module here: ``tests/test_notebook_views.py`` checks that every pair names a class defined there."""


def _notebook_view(name: str):
    """The formatter function of one view: imports :mod:`sflp.views.notebook` on its first call."""

    def view(obj) -> str:
        from sflp.views import notebook

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
