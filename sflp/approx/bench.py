"""Benchmark the approximate solvers: every method at every stack on the same time budget.

:func:`approx_bench` runs the solvers (a budget of ``seconds`` each, log-spaced traces; see
:mod:`sflp.approx.common`: the self-play solvers turn it into a hand count, so their rows reproduce)
and returns their :class:`~sflp.approx.common.ApproxResult`; :func:`bench_rows` flattens the traces to
tidy rows (one per trace point) for a CSV or a plot (:mod:`sflp.views.bench_files`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from sflp.approx.common import ApproxResult, as_config
from sflp.core.game import GameConfig

ROW_FIELDS = (
    "method",
    "stack",
    "iteration",
    "seconds",
    "sb_exploitability",
    "bb_exploitability",
    "total_exploitability",
)
"""Columns of :func:`bench_rows`, in order."""


def approx_bench(
    stacks: Iterable[float] = (5, 10, 20),
    methods: Sequence[str] | None = None,
    seconds: float = 2.0,
    seed: int = 0,
    *,
    base: GameConfig | None = None,
    trace_every: int | None = None,
    progress=None,
) -> list[ApproxResult]:
    """Each of ``methods`` (default: all) at each stack of ``base``'s blind structure for ``seconds``.

    Results come stack by stack, methods in the order given.  ``progress``, if given, is called
    with each finished result.
    """
    from sflp.approx.methods import METHODS, get_method

    names = list(METHODS) if methods is None else list(methods)
    solvers = [(name, get_method(name)) for name in names]
    base = as_config(base) if base is not None else GameConfig(stack=10)
    out: list[ApproxResult] = []
    for stack in stacks:
        config = base.with_stack(stack)
        for _, solver in solvers:
            result = solver(config, None, seconds, seed, trace_every=trace_every)
            out.append(result)
            if progress is not None:
                progress(result)
    return out


def bench_rows(results: Iterable[ApproxResult]) -> list[dict]:
    """One dict per trace point with the keys of :data:`ROW_FIELDS`."""
    rows = []
    for result in results:
        stack = float(result.config.stack)
        for point in result.trace:
            rows.append(
                {
                    "method": result.method,
                    "stack": stack,
                    "iteration": point.iteration,
                    "seconds": point.seconds,
                    "sb_exploitability": point.sb_exploitability,
                    "bb_exploitability": point.bb_exploitability,
                    "total_exploitability": point.total_exploitability,
                }
            )
    return rows
