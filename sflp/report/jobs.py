"""Independent report jobs (the workbook, the HTML page, the PDF, the pictures) run in forked workers.

Once the solutions are streamed to ``ranges.csv``, a chart set's remaining files depend only on
small frames and not on one another, so :class:`Jobs` hands them to up to two forked workers
(both cores busy) while the main process writes the small CSV files.  Each job writes its own files
(atomically, into the staging folder); :meth:`Jobs.wait` re-raises the first error a job had.

The workers ignore SIGINT (Ctrl-C reaches the whole process group; the main process handles it
and stops them) and are shut down before the staging folder is removed, so no job writes into a
folder that is being deleted.  Without ``fork`` (or with ``workers=0``) jobs run inline, in order.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from concurrent.futures import Future, ProcessPoolExecutor


def _init_worker() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


class _Done:
    """A finished inline job, with the interface of a :class:`~concurrent.futures.Future`."""

    def __init__(self, value):
        self._value = value

    def result(self):
        return self._value


def default_workers() -> int:
    """2 on a machine with at least two cores and ``fork``, else 0 (inline)."""
    if "fork" not in multiprocessing.get_all_start_methods() or (os.cpu_count() or 1) < 2:
        return 0
    return 2


class Jobs:
    """``with Jobs() as jobs: f = jobs.submit(fn, *args); ...; jobs.wait()``."""

    def __init__(self, workers: int | None = None):
        self.workers = default_workers() if workers is None else max(0, int(workers))
        self.pool: ProcessPoolExecutor | None = None
        self.futures: list[Future | _Done] = []

    def __enter__(self) -> Jobs:
        if self.workers:
            ctx = multiprocessing.get_context("fork")
            self.pool = ProcessPoolExecutor(max_workers=self.workers, mp_context=ctx, initializer=_init_worker)
        return self

    def submit(self, fn, *args, **kwargs):
        """Run ``fn(*args, **kwargs)`` in a worker (or now, inline); returns a future."""
        if self.pool is None:
            fut = _Done(fn(*args, **kwargs))
        else:
            fut = self.pool.submit(fn, *args, **kwargs)
        self.futures.append(fut)
        return fut

    def wait(self) -> None:
        """Wait for every job; the first failure is raised here."""
        for fut in self.futures:
            fut.result()

    def __exit__(self, exc_type, exc, tb) -> None:
        if self.pool is not None:
            # on an error or interrupt: drop what has not started, let running jobs finish
            self.pool.shutdown(wait=True, cancel_futures=exc_type is not None)
            self.pool = None
