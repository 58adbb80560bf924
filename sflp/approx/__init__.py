"""Built-in approximate solvers of the push/fold game, measured against the exact equilibrium.

=====================  ==========================================================================
``fictitious-play``    each player best-responds to the other's average (:mod:`.fictitious_play`)
``cfr+``               regret matching+, alternating updates, linear averaging (:mod:`.cfr`)
``rl-linear-q``        the RL seed: Monte-Carlo self-play, seven-feature linear Q (:mod:`.rl_linear_q`)
``rl-tabular``         the same self-play with a Q table per class (:mod:`.rl_tabular`)
``direct``             the TensorFlow seed: sigmoid ranges, subgradient descent (:mod:`.direct_opt`)
=====================  ==========================================================================

Every solver is ``solver(config, iterations=None, seconds=None, seed=0, *, trace_every=None,
target=None, **method_options) -> ApproxResult`` (see :mod:`.common` for budgets and traces).

>>> from sflp.core.game import GameConfig
>>> result = run("cfr+", GameConfig(stack=10), iterations=300)
>>> result.method, result.iterations, result.exploitability < 1e-3
('cfr+', 300, True)
>>> run("cfr", GameConfig(stack=10))
Traceback (most recent call last):
...
sflp.errors.ConfigError: unknown method 'cfr': expected one of 'fictitious-play', 'cfr+', 'rl-linear-q', 'rl-tabular', 'direct'
"""  # noqa: E501 (a doctest's exception message is one line)

from __future__ import annotations

from sflp.approx.bench import approx_bench, bench_rows
from sflp.approx.cfr import cfr_plus
from sflp.approx.common import ApproxResult, TracePoint, format_text
from sflp.approx.direct_opt import direct
from sflp.approx.fictitious_play import fictitious_play
from sflp.approx.methods import METHODS, get_method, run
from sflp.approx.rl_linear_q import rl_linear_q
from sflp.approx.rl_tabular import rl_tabular

__all__ = [
    "METHODS",
    "ApproxResult",
    "TracePoint",
    "approx_bench",
    "bench_rows",
    "cfr_plus",
    "direct",
    "fictitious_play",
    "format_text",
    "get_method",
    "rl_linear_q",
    "rl_tabular",
    "run",
]
