"""The local runner: an atlas's jobs on this machine's cores (:func:`local_runner`).

A runner is ``runner(fn, jobs) -> [fn(job) for job in jobs]``, in job order; the Dask runner
(:mod:`sflp.atlas.cluster`) keeps the same contract on a cluster.
"""

from __future__ import annotations

from collections.abc import Callable

# ---------------------------------------------------------------- running the jobs

Runner = Callable[[Callable, list], list]


def _warm() -> None:
    """What every structure needs, loaded before the workers fork: the equity table (about 0.35 s
    to load) and the solver's modules (the LP's cvxpy, the path's kernels)."""
    from sflp.core.equity import load_table

    load_table()
    import sflp.solving.lp  # noqa: F401
    import sflp.solving.solver  # noqa: F401


def local_runner(workers: int | None = None) -> Runner:
    """The local runner: ``runner(fn, jobs)`` -> ``[fn(job) for job in jobs]``, in job order.

    ``workers`` forked processes (:class:`sflp.output.jobs.Jobs`) share the jobs; 0 runs them in
    this process.  Default: in this process for one job (a worker would only add its start,
    about 0.1 s, to a structure's 0.5 to 3 s), else one worker per usable core
    (:func:`sflp.output.jobs.usable_cpus`), at most one per job and :data:`sflp.checks.MAX_WORKERS`."""

    def run(fn, jobs: list) -> list:
        from sflp.checks import MAX_WORKERS
        from sflp.output.jobs import Jobs, usable_cpus

        n = workers
        if n is None:
            n = 0 if len(jobs) < 2 or usable_cpus() < 2 else min(usable_cpus(), len(jobs), MAX_WORKERS)
        if n <= 0:
            return [fn(job) for job in jobs]
        _warm()  # loaded once here, shared by the forked workers (copy on write)
        with Jobs(min(n, len(jobs))) as pool:
            futures = [pool.submit(fn, job) for job in jobs]
            return [f.result() for f in futures]

    return run
