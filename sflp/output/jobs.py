"""Independent report jobs (the workbook, the HTML page, the PDF, the pictures) run in forked workers.

Once the solutions are streamed to ``ranges.csv``, a chart set's remaining files depend only on
small frames and not on one another, so :class:`Jobs` hands them to up to two forked workers
(both cores busy) while the main process writes the small CSV files.  Each job writes its own files
(atomically, into the staging folder); :meth:`Jobs.wait` re-raises the first error a job had.

The workers ignore SIGINT (Ctrl-C reaches the whole process group; the main process handles it
and stops them) and are shut down before the staging folder is removed, so no job writes into a
folder that is being deleted.  Without ``fork`` (or with ``workers=0``) jobs run inline, in order.
Jobs make their temporary files in :attr:`Jobs.temp_folder` (the staging folder's ``.tmp``), and a
worker that dies (the out-of-memory killer's SIGKILL) is one :class:`~sflp.errors.OutputError`,
not a ``BrokenProcessPool`` traceback: the staging folder goes, the old set stays.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import signal
import tempfile
import threading
import time
from collections.abc import Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager

from sflp.checks import MAX_WORKERS  # noqa: F401 -- the limit of Jobs(workers), documented there
from sflp.errors import OutputError

WORKER_NICENESS = 10
"""How much lower the writers' scheduling priority is than the main process's (the default of
:class:`Jobs`): while it solves, the writers' jobs use the spare core and what the solver leaves (at
10, about a tenth of a core it wants); once it waits, they have the machine.  Workers that are the
solvers (the local atlas's) pass ``niceness=0``: niced, on a busy machine they got a tenth of a core
(the README's atlas ran 2 s of CPU in 4 min 38 s, issue 53 item 6)."""


def _exit_with(parent: int) -> None:
    """Leave when the main process is gone (killed with SIGKILL, no handler ran): an orphaned
    worker would otherwise wait for jobs forever, holding the terminal's pipes open."""
    while os.getppid() == parent:
        time.sleep(0.2)
    os._exit(1)


def _init_worker(parent: int, niceness: int, warm=None, *args) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if niceness and hasattr(os, "nice"):
        os.nice(niceness)  # writers: the solver in the main process keeps its core, they take what is left
    threading.Thread(target=_exit_with, args=(parent,), daemon=True).start()
    if warm is not None:
        warm(*args)


@contextmanager
def temporary_files_in(folder: str | None) -> Iterator[None]:
    """Inside the block, :mod:`tempfile` makes its files in ``folder`` (None: unchanged).  The
    libraries that write a set (any that writes a temporary file first; openpyxl did, a file a
    sheet, until XlsxWriter, which works in memory here, wrote the workbook) then leave
    nothing outside the staging folder, and a full ``TMPDIR`` does not matter."""
    if folder is None:
        yield
        return
    previous = tempfile.tempdir
    tempfile.tempdir = folder
    try:
        yield
    finally:
        tempfile.tempdir = previous


def _run_pickled(payload: bytes, temp_folder: str | None = None):
    """A job as :meth:`Jobs.submit` captured it: ``fn(*args, **kwargs)`` from their pickle, its
    temporary files in ``temp_folder``."""
    fn, args, kwargs = pickle.loads(payload)
    try:
        with temporary_files_in(temp_folder):
            return fn(*args, **kwargs)
    except OSError as exc:  # a full disk or no inode left where a library writes
        raise _output_error(exc) from None


def _output_error(exc: OSError) -> OutputError:
    """An operating-system error of a job, as sflp's one line naming the file."""
    where = f" {exc.filename}" if exc.filename else " the chart set"
    return OutputError(f"cannot write{where}: {exc.strerror or type(exc).__name__}")


def _worker_died() -> OutputError:
    return OutputError("a worker process writing the chart set died (killed by a signal: the system may be out "
                       "of memory); nothing was changed: try again, or with fewer formats (--formats)")


class _Future:
    """A worker's job: :meth:`result` turns a dead worker into one :class:`~sflp.errors.OutputError`."""

    def __init__(self, future: Future):
        self._future = future

    def result(self):
        try:
            return self._future.result()
        except BrokenProcessPool:
            raise _worker_died() from None


def _end(process) -> None:
    """SIGTERM to one of the pool's worker processes (which keep SIGTERM's default: they end)."""
    try:
        if process.is_alive():
            process.terminate()
    except (OSError, ValueError, AttributeError):  # already gone, or closed
        pass


class _Done:
    """A finished inline job, with the interface of a :class:`~concurrent.futures.Future`."""

    def __init__(self, value):
        self._value = value

    def result(self):
        return self._value


def _quota_cpus(text: str) -> int | None:
    """The cores a cgroup v2 ``cpu.max`` line allows (quota over period, rounded up), None for
    no quota.

    >>> _quota_cpus("50000 100000"), _quota_cpus("150000 100000"), _quota_cpus("max 100000")
    (1, 2, None)
    """
    quota, period = text.split()[:2]
    return None if quota == "max" else max(1, -(-int(quota) // int(period)))


def _cgroup_cpus(path: str = "/sys/fs/cgroup/cpu.max") -> int | None:
    """The cores this process's cgroup v2 CPU quota allows (``docker --cpus``), None without one."""
    try:
        with open(path) as fh:
            return _quota_cpus(fh.read())
    except (OSError, ValueError):
        return None


def usable_cpus() -> int:
    """The cores this process may use: the CPU affinity (``taskset``, a container's cpuset), capped
    by a cgroup v2 quota (``docker --cpus``); ``os.cpu_count()`` counts the host's."""
    try:
        count = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        count = os.cpu_count() or 1
    quota = _cgroup_cpus()
    return min(count, quota) if quota else count


def default_workers() -> int:
    """2 where at least two cores are usable (:func:`usable_cpus`) and ``fork`` exists, else 0: on
    one core the workers would only add their imports' CPU and memory (a 481-stack set: 7.9 s CPU
    and 248 MB inline, 9.6 s and 483 MB with two workers; 7.8 s and 5.6 s wall on two cores)."""
    if "fork" not in multiprocessing.get_all_start_methods() or usable_cpus() < 2:
        return 0
    return 2


class Jobs:
    """``with Jobs() as jobs: f = jobs.submit(fn, *args); ...; jobs.wait()``.

    ``warm(*warm_args)`` runs in each worker as it starts (imports, caches), before any job; the
    workers start at :meth:`start` or the first job, so a caller can start them early and let
    them warm up while it does other work.  The workers run ``niceness`` lower in priority than
    this process (default :data:`WORKER_NICENESS`, for writers beside a solver; 0 for solvers).
    """

    def __init__(self, workers: int | None = None, warm=None, warm_args: tuple = (),
                 niceness: int = WORKER_NICENESS):
        self.workers = default_workers() if workers is None else max(0, int(workers))
        self.niceness = int(niceness)
        self.pool: ProcessPoolExecutor | None = None
        self.futures: list[_Future | _Done] = []
        self.warm = (warm, *warm_args)
        self.temp_folder: str | None = None
        """Where jobs make their temporary files (the staging folder's, once there is one)."""

    def __enter__(self) -> Jobs:
        self.start()
        return self

    def start(self) -> Jobs:
        """Fork the workers now, if not yet (they warm up in the background); returns ``self``.

        A caller may start them before it enters the ``with`` block, to let them warm up while
        it works (the chart job starts them before it computes the thresholds); leaving the
        block shuts them down either way, and :meth:`close` does outside one."""
        if self.workers and self.pool is None:
            ctx = multiprocessing.get_context("fork")
            self.pool = ProcessPoolExecutor(max_workers=self.workers, mp_context=ctx, initializer=_init_worker,
                                            initargs=(os.getpid(), self.niceness, *self.warm))
            self.pool.submit(int)  # a no-op job: a fork pool starts every worker at once
        return self

    def close(self, cancel: bool = True) -> None:
        """Shut the workers down (idempotent).  Without ``cancel``, after their jobs; with it (an
        error or an interrupt: nothing they make is wanted any more) at once: the jobs not started
        are dropped and the workers are ended with SIGTERM.  SIGINT and SIGTERM are held back
        meanwhile, so that a second Ctrl-C (or ``timeout``, which signals the process and then its
        group) cannot cut the shutdown short: the workers would be left waiting for work and the
        process for them at exit, and a worker could still write into a staging folder being removed."""
        if self.pool is None:
            return
        from sflp.output.stage import signals_deferred

        with signals_deferred():
            pool, self.pool = self.pool, None
            if cancel:  # the pool's processes: private, but Python 3.11-3.13 have no public way to end them
                for process in list((getattr(pool, "_processes", None) or {}).values()):
                    _end(process)
            pool.shutdown(wait=True, cancel_futures=cancel)

    def submit(self, fn, *args, **kwargs):
        """Run ``fn(*args, **kwargs)`` in a worker (or now, inline); returns a future, which
        :meth:`wait` waits for too.

        The job is pickled here, in the caller's thread, so it runs on its arguments as they are
        at the call: the pool would pickle them later, in its feeder thread, while the caller goes
        on changing them (the exact path fills its segments' caches as stacks are read off it,
        and a chart job hands that path to its threshold pictures)."""
        fut = self.run(fn, *args, **kwargs)
        self.futures.append(fut)
        return fut

    def run(self, fn, *args, **kwargs):
        """:meth:`submit`, but the future is the caller's alone: :meth:`wait` does not keep it, so
        its result goes when the caller lets it go (the atlas's runner takes ten thousand
        results one after another)."""
        if self.pool is None:
            try:
                with temporary_files_in(self.temp_folder):
                    fut = _Done(fn(*args, **kwargs))
            except OSError as exc:
                raise _output_error(exc) from None
        else:
            payload = pickle.dumps((fn, args, kwargs), protocol=pickle.HIGHEST_PROTOCOL)
            try:
                fut = _Future(self.pool.submit(_run_pickled, payload, self.temp_folder))
            except BrokenProcessPool:
                raise _worker_died() from None
        return fut

    def wait(self) -> None:
        """Wait for every job; the first failure is raised here."""
        for fut in self.futures:
            fut.result()

    def __exit__(self, exc_type, exc, tb) -> None:
        # on an error or interrupt: drop what has not started, let running jobs finish
        self.close(cancel=exc_type is not None)
