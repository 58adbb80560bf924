"""The local runner: an atlas's jobs on this machine's cores (:func:`local_runner`).

A runner is ``runner(fn, jobs)``: the results of ``fn(job)`` for every job, **in job order**, as an
iterable that :func:`sflp.atlas.write.write_atlas` consumes as they come (it writes each result's
files and lets it go, so the writer's memory does not grow with the number of structures).  A
list is a runner's result too; the runners here yield, holding at most a window of results
ahead of the one the writer waits for.  The Dask runner (:mod:`sflp.atlas.cluster`) keeps the same
contract on a cluster.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable

# ---------------------------------------------------------------- running the jobs

Runner = Callable[[Callable, list], Iterable]

WINDOW_PER_WORKER = 2
"""Jobs in flight per worker: enough to keep every worker busy while the writer takes the next
result in order, few enough that results waiting behind a slow one stay a handful."""


def _warm() -> None:
    """What every structure needs, loaded before the workers fork: the equity table (about 0.35 s
    to load) and the solver's modules.  cvxpy is not among them: it is imported where a structure's
    LP is compiled, so each forked worker imports it once for its first new structure (see
    ATLAS.md, what a fresh worker pays)."""
    from sflp.core.equity import load_table

    load_table()
    import sflp.solving.lp  # noqa: F401
    import sflp.solving.solver  # noqa: F401


def local_workers(workers: int | None, jobs: int) -> int:
    """The worker processes for ``jobs`` structures: ``workers`` (0: this process), or by default
    none for one structure (a worker would only add its start to a structure's seconds) and else
    one per usable core (:func:`sflp.output.jobs.usable_cpus`), at most one per job.  The limit is
    the machine: every usable core may be asked for, not more."""
    from sflp.output.jobs import usable_cpus

    if workers is None:
        return 0 if jobs < 2 or usable_cpus() < 2 else min(usable_cpus(), jobs)
    return min(workers, jobs)


class LocalRunner:
    """The local runner: ``runner(fn, jobs)`` gives ``[fn(job) for job in jobs]``;
    ``runner.stream(fn, jobs)`` yields them one by one, in job order, which is what
    :func:`sflp.atlas.write.write_atlas` takes.

    ``workers`` forked processes (:class:`sflp.output.jobs.Jobs`) share the jobs, at most
    :data:`WINDOW_PER_WORKER` each in flight, at this process's priority (they are the solvers; only
    writers beside a solver are niced); 0 runs them in this process, one at a time.
    Default: :func:`local_workers`."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers

    def __repr__(self) -> str:
        return f"LocalRunner(workers={self.workers!r})"

    def __call__(self, fn, jobs) -> list:
        return list(self.stream(fn, jobs))

    def stream(self, fn, jobs):
        from sflp.output.jobs import Jobs

        n = local_workers(self.workers, len(jobs))
        if n <= 0:
            for job in jobs:
                yield fn(job)
            return
        _warm()  # loaded once here, shared by the forked workers (copy on write)
        with Jobs(n, niceness=0) as pool:  # the workers are the solvers: normal priority
            pending: deque = deque()
            queue = iter(jobs)
            for job in queue:
                pending.append(pool.run(fn, job))
                if len(pending) >= WINDOW_PER_WORKER * n:
                    break
            while pending:
                result = pending.popleft().result()
                for job in queue:  # keep the window full before handing the result on
                    pending.append(pool.run(fn, job))
                    break
                yield result


def local_runner(workers: int | None = None) -> LocalRunner:
    """The local runner with ``workers`` processes (see :class:`LocalRunner`)."""
    return LocalRunner(workers)
