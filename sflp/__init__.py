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
