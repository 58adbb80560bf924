"""The approximate solvers by name (:data:`METHODS`), as :mod:`sflp.approx` lists them: look one
up (:func:`get_method`) or run it (:func:`run`).

It sits below the package (which re-exports these names) and :mod:`.bench` (which runs every
method), above the solvers, so that neither imports the other in a circle.
"""

from __future__ import annotations

from collections.abc import Callable

from sflp.approx.cfr import cfr_plus
from sflp.approx.common import ApproxResult
from sflp.approx.direct_opt import direct
from sflp.approx.fictitious_play import fictitious_play
from sflp.approx.rl_linear_q import rl_linear_q
from sflp.approx.rl_tabular import rl_tabular
from sflp.core.game import GameConfig
from sflp.errors import ConfigError

METHODS: dict[str, Callable[..., ApproxResult]] = {
    "fictitious-play": fictitious_play,
    "cfr+": cfr_plus,
    "rl-linear-q": rl_linear_q,
    "rl-tabular": rl_tabular,
    "direct": direct,
}
"""Method name -> solver function."""


def get_method(method: str) -> Callable[..., ApproxResult]:
    """The solver called ``method``; :class:`~sflp.errors.ConfigError` listing the names otherwise."""
    try:
        return METHODS[method]
    except (KeyError, TypeError):
        allowed = ", ".join(repr(name) for name in METHODS)
        raise ConfigError(f"unknown method {method!r}: expected one of {allowed}") from None


def run(
    method: str,
    config: GameConfig,
    iterations: int | None = None,
    seconds: float | None = None,
    seed: int = 0,
    **options,
) -> ApproxResult:
    """Run the approximate solver ``method`` on ``config`` (options such as ``trace_every`` pass through)."""
    return get_method(method)(config, iterations, seconds, seed, **options)
