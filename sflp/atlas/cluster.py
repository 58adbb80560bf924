"""Atlas jobs mapped over a Dask distributed cluster: a runner for ``write_atlas(..., runner=...)``.

An atlas is many independent structure jobs.  By default they are solved on this machine; when
one machine is not enough, :func:`dask_runner` maps them over a Dask ``distributed`` cluster and
streams the results back to this machine, which writes each into the atlas's staging folder as it
arrives and swaps the folder in at the end (nothing is partial whatever happens on the cluster)::

    runner = dask_runner("tcp://scheduler:8786")   # or an existing distributed.Client
    results = runner(solve_structure, jobs)        # [solve_structure(job) for job in jobs], in order
    for result in runner.stream(solve_structure, jobs): ...   # one by one, in order

The runner's contract (the one the local runner has too): ``runner(fn, jobs) -> list`` and
``runner.stream(fn, jobs)``, the results of ``fn(job)`` **in job order**, where ``fn`` is a
module-level function (pickled by reference, so the workers must have the same sflp installed)
and every job is picklable.

* **One task per job, keys from the job.**  Each job is one ``client.submit`` with ``pure=True``
  and a key, ``<fn name>-<SHA-256 of the sflp version, the pickled fn and the pickled job>``
  (:func:`task_key`).  The same job is the same key, so a task the scheduler reruns (its worker
  died: Dask reschedules it on another) gives the same bytes, and a job listed twice while the
  first is still on the cluster is computed once; different jobs never share a key (the pickle
  determines the job).
* **Results stream back** in job order (each calls ``progress(done, total)`` on this thread),
  each released on the cluster once it is here; at most :data:`WINDOW_PER_THREAD` jobs per
  worker thread there now (at least :data:`MIN_WINDOW`; the window grows as workers join) are on
  the cluster at once, so neither the cluster nor this machine holds more than that window of
  results, whatever the number of jobs.  A job that finishes before an earlier one waits on the
  cluster until the earlier one is here.
* **Errors.**  An exception raised by ``fn`` on a worker is re-raised here as itself (an
  :class:`~sflp.errors.SflpError` stays one), with a note naming the job.  A job that killed
  more than ``distributed.scheduler.allowed-failures`` workers in turn (say, out of memory) is one
  :class:`~sflp.errors.OutputError`.  A connection lost during the run is an
  :class:`~sflp.errors.OutputError` naming the scheduler.
* **The cluster's edge.**  Before a ``distributed.Client`` is made, the address is asked for its
  identity in Dask's protocol, within ``timeout`` seconds (:data:`DEFAULT_TIMEOUT`): nothing
  listening, a peer that never answers (a plain HTTP server), one that answers something else
  (an HTTP 400, garbage) or that is not a Dask scheduler, and a ``tls://`` address without Dask's
  TLS settings are each one :class:`~sflp.errors.ConfigError` naming the address and what came
  back, within that time.  (A ``Client`` whose start fails prints a traceback from its
  ``__del__`` a minute later; one made only after the probe does not meet that.)  An
  ``inproc://`` address is refused: it reaches only a scheduler inside this same process, whose
  ``Client`` should be passed instead.
* **Workers.**  While the scheduler has no worker -- none has joined yet, or the last one died
  during the run -- the runner says so once through ``notify`` (default: a line on standard
  error) and waits at most ``worker_timeout`` seconds (:data:`DEFAULT_WORKER_TIMEOUT`) for one
  to join; then it gives up with one :class:`~sflp.errors.OutputError` naming the scheduler
  and the time.  It asks the scheduler every :data:`POLL` seconds while a result is due.  Without Dask installed,
  :func:`dask_runner` raises a :class:`~sflp.errors.ConfigError` that says ``pip install 'sflp[dask]'``.
* **Workers checked first.**  Before any job is sent, every worker must unpickle the function and
  the first job and have this machine's sflp version (one ``client.run``): otherwise a
  :class:`~sflp.errors.ConfigError` says to install the same sflp there.  (Dask never fails a task
  whose function does not unpickle on its worker: the run would wait for ever.)  Only the workers
  there at the start are checked: one that joins later without sflp is not, and a task sent to it
  waits -- give every worker the same environment.
* **Interrupts.**  On any exception, ``KeyboardInterrupt`` included, the runner cancels its jobs
  on the cluster before re-raising.
* **Clients.**  Given an address, the runner connects for each call and closes that client when
  the call ends, however it ends; given a ``distributed.Client``, it uses it and leaves it open.
* **Quiet.**  While a client the runner made is connected, Dask's and Tornado's loggers are held
  at CRITICAL (a lost scheduler is the one exception above, not a logged traceback as well;
  standard output stays the command's result), unless sflp is verbose
  (:func:`sflp.quiet.set_verbose`: then Dask logs on standard error, as it does by default).
  A client passed in is the caller's, and so is its logging.

``distributed`` is imported only inside :func:`dask_runner` and the runner: importing this module
costs nothing, and sflp does not depend on Dask unless the ``dask`` extra is installed.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import pickle
import reprlib
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import CancelledError, ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

from sflp.errors import ArgumentTypeError, ConfigError, OutputError
from sflp.quiet import verbose

INSTALL_HINT = "pip install 'sflp[dask]'"
"""How to install what :func:`dask_runner` needs."""

DEFAULT_TIMEOUT = 25.0
"""Seconds to wait for the scheduler when connecting (Dask's own default is 30): the probe of its
identity ends within it, so that ``sflp atlas --scheduler`` at an address where no scheduler
answers ends within 30 s of its start."""

DEFAULT_WORKER_TIMEOUT = 60.0
"""Seconds to wait, while the scheduler has no worker, for one to join (``--worker-timeout``)."""

POLL = 1.0
"""Seconds between the runner's questions to the scheduler (how many workers it has) while it waits
for a result."""

QUIET_LOGGERS = ("distributed", "tornado")
"""Loggers (with every child logger that exists) held at CRITICAL while a client the runner made is connected:
what goes wrong reaches the caller as one exception."""

_REPR = reprlib.Repr()
_REPR.maxother = 160  # a job in an error message: its start and end, on one line

WINDOW_PER_THREAD = 2
"""Jobs on the cluster at once per worker thread: every thread busy while this machine takes the
next result in order."""
MIN_WINDOW = 4
"""Jobs on the cluster at once however few workers have joined yet."""

Progress = Callable[[int, int], Any]
"""``progress(done, total)``: called on the caller's thread after each finished job."""


def _import_distributed():
    try:
        import distributed
    except ImportError as exc:
        raise ConfigError(f"running the atlas on a Dask cluster needs Dask's distributed scheduler, which is not "
                          f"installed ({exc}): {INSTALL_HINT}") from exc
    return distributed


def task_key(fn: Callable, job: Any) -> str:
    """The Dask key of ``fn(job)``: the function's name and a hash of the pickled sflp version, function
    and job, the same in every process and on every run, so a rerun task or a repeated job is the same task.
    Different jobs (or functions) never share a key: the pickle determines what it unpickles to.

    >>> import operator
    >>> task_key(operator.neg, 3) == task_key(operator.neg, 3) != task_key(operator.neg, 4)
    True
    >>> task_key(operator.neg, 3).startswith("neg-")
    True
    """
    from sflp import __version__

    try:
        job_bytes = pickle.dumps(job, protocol=4)
    except Exception as exc:  # pickle raises TypeError, AttributeError, PicklingError ...
        raise ArgumentTypeError(f"an atlas job must be picklable to be sent to a Dask cluster: {_REPR.repr(job)} "
                                f"is not ({exc})") from exc
    fn_bytes = _pickled_function(fn)
    digest = hashlib.sha256()
    for part in (__version__.encode(), fn_bytes, job_bytes):
        digest.update(len(part).to_bytes(8, "little"))
        digest.update(part)
    name = getattr(fn, "__name__", None) or getattr(getattr(fn, "func", None), "__name__", None) or type(fn).__name__
    return f"{name}-{digest.hexdigest()[:32]}"


def _pickled_function(fn: Callable) -> bytes:
    """``fn`` pickled: a module-level function by reference (its module and name), a lambda or a closure
    by value with cloudpickle, as Dask sends it."""
    try:
        return pickle.dumps(fn, protocol=4)
    except Exception:  # pickle raises PicklingError, AttributeError, TypeError ...
        import cloudpickle

        return cloudpickle.dumps(fn, protocol=4)


@contextmanager
def _quiet_logs() -> Iterator[None]:
    """Dask's and Tornado's loggers at CRITICAL for the block (unless sflp is verbose), restored after."""
    if verbose():
        yield
        return
    names = [name for name in list(logging.root.manager.loggerDict)
             if any(name == top or name.startswith(top + ".") for top in QUIET_LOGGERS)]
    loggers = [logging.getLogger(name) for name in sorted(set(names) | set(QUIET_LOGGERS))]
    saved = [(logger, logger.level) for logger in loggers]
    for logger in loggers:
        if logger.getEffectiveLevel() < logging.CRITICAL:
            logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        for logger, level in saved:
            logger.setLevel(level)


class DaskRunner:
    """``runner(fn, jobs) -> list``: ``fn`` mapped over ``jobs`` on a Dask cluster, results in job order
    (see the module's docstring).  Made by :func:`dask_runner`."""

    def __init__(self, scheduler, *, progress: Progress | None = None, timeout: float = DEFAULT_TIMEOUT,
                 worker_timeout: float = DEFAULT_WORKER_TIMEOUT, notify: Callable[[str], Any] | None = None,
                 _distributed=None):
        self.scheduler = scheduler
        self.progress = progress
        self.timeout = timeout
        self.worker_timeout = worker_timeout
        self.notify = notify if notify is not None else _to_stderr
        self._distributed = _distributed if _distributed is not None else _import_distributed()

    @property
    def address(self) -> str:
        """The scheduler's address, as given or as the client passed in knows it."""
        if isinstance(self.scheduler, str):
            return self.scheduler
        try:
            return str(self.scheduler.scheduler.address)
        except AttributeError:  # a client that is not connected (closed)
            return repr(self.scheduler)

    def __repr__(self) -> str:
        return f"DaskRunner({self.address!r})"

    def _connect(self):
        distributed = self._distributed
        _probe_scheduler(distributed, self.scheduler, self.timeout)
        try:
            return distributed.Client(self.scheduler, timeout=self.timeout, set_as_default=False)
        except (OSError, ValueError, TypeError) as exc:  # refused, timed out (OSError), a malformed address
            raise ConfigError(f"cannot connect to the Dask scheduler at {self.scheduler} (is it running, and is that "
                              f"its address?): {exc or type(exc).__name__}") from exc

    @contextmanager
    def _client(self):
        if not isinstance(self.scheduler, str):
            yield self.scheduler
            return
        with _quiet_logs():
            client = self._connect()
            try:
                yield client
            finally:
                client.close()

    def __call__(self, fn: Callable, jobs: Sequence) -> list:
        return list(self.stream(fn, jobs))

    def stream(self, fn: Callable, jobs: Sequence) -> Iterator:
        """Yield ``fn(job)`` for each job, in job order, as the cluster finishes them: at most
        :data:`WINDOW_PER_THREAD` jobs per worker thread are on the cluster at once (at least
        :data:`MIN_WINDOW`), and each result is released there once it is here, so neither the
        cluster nor this process holds more than the window, however many jobs there are."""
        if not len(jobs):
            return
        # the function and a job pickle, before any connection; each key is made at its job's submit
        # (hashing every job first pickled them all, 180 KB each at 1-200 bb @0.01, before any work)
        task_key(fn, jobs[0])
        with self._client() as client:
            yield from self._run(client, fn, jobs)

    def _check_workers(self, client, fn: Callable, job: Any) -> None:
        """Refuse a cluster whose workers cannot run the jobs, before any is sent: a task whose function
        does not unpickle on a worker (no sflp there, or not the module of ``fn``) never fails in Dask,
        the run would wait for ever.  Workers with another sflp would write other bytes."""
        from sflp import __version__

        dumps = self._distributed.protocol.pickle.dumps  # as Dask will send them: __main__'s functions by value
        try:
            versions = client.run(_probe, dumps(fn), dumps(job))
        except Exception as exc:  # the worker's error, re-raised here (ModuleNotFoundError, wrapped or not)
            raise ConfigError(f"the workers of the Dask cluster at {self.address} cannot run the atlas's jobs "
                              f"({_first_line(exc)}): install the same sflp there as here ({__version__}), "
                              f"with {INSTALL_HINT}") from exc
        other = sorted({(str(v), w) for w, v in versions.items() if v != __version__})
        if other:
            raise ConfigError(f"the Dask worker {other[0][1]} runs sflp {other[0][0]} and this machine sflp "
                              f"{__version__}: install the same sflp on every worker (the bytes of the results "
                              f"depend on it)")

    def _nthreads(self, client) -> dict:
        """Each worker's threads, asked of the scheduler now (the client's cached copy may list only a
        few workers); a scheduler that is gone is one OutputError naming it."""
        try:
            return client.nthreads()
        except Exception as exc:  # the scheduler is gone: CommClosedError (an OSError), a timeout ...
            raise OutputError(f"lost the connection to the Dask scheduler at {self.address} while the jobs ran: "
                              f"{_first_line(exc)}") from exc

    def _no_workers(self) -> OutputError:
        return OutputError(f"no Dask worker joined the scheduler at {self.address} within {self.worker_timeout:g} s: "
                           f"start one (dask worker {self.address}), or wait longer (--worker-timeout)")

    def _wait_for_workers(self, client) -> None:
        """Return once the scheduler has a worker: at once if it has one, else after saying so, within
        ``worker_timeout`` seconds, or raise."""
        if self._nthreads(client):
            return
        self.notify(f"the Dask scheduler at {self.address} has no worker: waiting at most "
                    f"{self.worker_timeout:g} s for one to join (--worker-timeout)")
        try:
            client.wait_for_workers(1, timeout=self.worker_timeout)
        except TimeoutError:
            raise self._no_workers() from None

    def _result(self, client, future):
        """``future.result()``, asking the scheduler every :data:`POLL` seconds whether it still has a
        worker: after ``worker_timeout`` seconds without one, an OutputError (a job waits for ever on a
        cluster without workers)."""
        alone_since = None
        while True:
            try:
                return future.result(timeout=POLL)
            except TimeoutError:
                if future.done():  # it finished as the wait ended, or the job itself raised a TimeoutError:
                    return future.result()  # its result, or its own error
            if self._nthreads(client):
                alone_since = None
                continue
            now = time.monotonic()
            if alone_since is None:
                alone_since = now
                self.notify(f"the Dask scheduler at {self.address} has no worker left: waiting at most "
                            f"{self.worker_timeout:g} s for one to join (--worker-timeout)")
            elif now - alone_since >= self.worker_timeout:
                raise self._no_workers()

    def _run(self, client, fn: Callable, jobs: Sequence) -> Iterator:
        from collections import deque

        distributed = self._distributed
        self._wait_for_workers(client)
        self._check_workers(client, fn, jobs[0])
        pending: deque = deque()  # (index, future), in job order
        submitted = 0

        def submit() -> None:
            nonlocal submitted
            index = submitted
            pending.append((index, client.submit(fn, jobs[index], key=task_key(fn, jobs[index]), pure=True)))
            submitted += 1

        def fill() -> None:  # the window follows the workers there now: more as they join
            window = max(MIN_WINDOW, WINDOW_PER_THREAD * sum(self._nthreads(client).values()))
            while submitted < len(jobs) and len(pending) < window:
                submit()

        try:
            fill()
            done = 0
            while pending:
                index, future = pending.popleft()
                try:
                    result = self._result(client, future)
                except distributed.KilledWorker as exc:
                    raise OutputError(f"{_job(index, jobs)} killed every Dask worker that ran it, on the "
                                      f"cluster at {self.address} (out of memory?): {_first_line(exc)}") from exc
                except (CancelledError, asyncio.CancelledError) as exc:
                    raise OutputError(f"lost the connection to the Dask scheduler at {self.address} while the jobs "
                                      f"ran, or it cancelled them: {_first_line(exc)}") from exc
                except Exception as exc:
                    exc.add_note(f"in {_job(index, jobs)} on the Dask cluster at {self.address}")
                    raise
                if not any(f.key == future.key for _, f in pending):
                    future.release()  # the cluster may forget the result now: it is here
                if submitted < len(jobs):
                    fill()
                done += 1
                if self.progress is not None:
                    self.progress(done, len(jobs))
                yield result
        except BaseException:  # an error, an interrupt, or the consumer closing the stream (GeneratorExit)
            _cancel(client, [f for _, f in pending])
            raise


def _to_stderr(message: str) -> None:
    """The default ``notify``: a line on standard error (standard output is the command's result)."""
    print(f"sflp: {message}", file=sys.stderr, flush=True)


def _probe_scheduler(distributed, address: str, timeout: float) -> None:
    """Ask ``address`` for its identity in Dask's protocol, within ``timeout`` seconds, before any
    ``Client`` is made; raise one ConfigError naming the address unless a Dask scheduler answers."""
    phase = ["connecting"]

    async def identity():
        from distributed.security import Security

        comm = await distributed.comm.connect(address, timeout=timeout, **Security().get_connection_args("client"))
        phase[0] = "asking"
        try:
            await comm.write({"op": "identity", "reply": True})
            return await comm.read()
        finally:
            comm.abort()

    hint = "is it running, and is that its address?"
    try:  # connect() gives up within the timeout too; whichever comes first says why.  On a thread of
        # its own: asyncio.run cannot start inside a running event loop (a notebook's)
        with ThreadPoolExecutor(1, thread_name_prefix="sflp-probe") as pool:
            answer = pool.submit(asyncio.run, asyncio.wait_for(identity(), timeout)).result()
    except TimeoutError as exc:
        raise ConfigError(f"cannot connect to the Dask scheduler at {address}: no answer in Dask's protocol within "
                          f"{timeout:g} s ({hint}{'; ' + _first_line(exc) if str(exc) else ''})") from None
    except Exception as exc:
        if phase[0] == "connecting" and isinstance(exc, OSError):  # refused, unreachable, a handshake never made
            raise ConfigError(f"cannot connect to the Dask scheduler at {address} ({hint}): "
                              f"{_first_line(exc)}") from None
        if phase[0] == "connecting" and isinstance(exc, TypeError | ValueError) and address.startswith("tls://"):
            raise ConfigError(f"cannot connect to the Dask scheduler at {address}: {_first_line(exc)}") from None
        # garbage: a peer that speaks HTTP (its bytes read as a frame of exabytes), or closes on us
        raise ConfigError(f"{address} does not answer as a Dask scheduler ({type(exc).__name__}: "
                          f"{_first_line(exc)})") from None
    if not (isinstance(answer, dict) and answer.get("type") == "Scheduler"):
        raise ConfigError(f"{address} answers, but not as a Dask scheduler ({_REPR.repr(answer)})")


def _probe(fn_bytes: bytes, job_bytes: bytes) -> str:
    """Run on every worker before the jobs: the function and a job unpickle there (their modules import),
    and the worker's sflp version comes back."""
    from sflp import __version__

    pickle.loads(fn_bytes)
    pickle.loads(job_bytes)
    return __version__


def _job(index: int, jobs: list) -> str:
    """``job 3 of 51 (AtlasJob(...))``, the job's repr cut to a line."""
    return f"job {index + 1} of {len(jobs)} ({_REPR.repr(jobs[index])})"


def _first_line(exc: BaseException) -> str:
    """The first line of an exception's message (Dask's run to a paragraph), or its type's name."""
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _cancel(client, futures) -> None:
    """Cancel the jobs on the cluster, best effort: the error being raised matters more."""
    if not futures:
        return
    try:
        client.cancel(futures)
    except Exception:  # a lost scheduler cannot be told; the jobs die with it
        pass


def dask_runner(scheduler, *, progress: Progress | None = None, timeout: float = DEFAULT_TIMEOUT,
                worker_timeout: float = DEFAULT_WORKER_TIMEOUT,
                notify: Callable[[str], Any] | None = None) -> DaskRunner:
    """A runner that maps atlas jobs over the Dask cluster at ``scheduler``.

    ``scheduler`` is an address such as ``"tcp://HOST:8786"`` (the runner connects for each call and
    closes its client afterwards) or a connected ``distributed.Client`` (used, left open).
    ``progress(done, total)`` is called after each finished job; ``timeout`` is how many seconds to
    wait for the scheduler when connecting; ``worker_timeout`` how many seconds to wait, while the
    scheduler has no worker, for one to join, after telling ``notify`` (default: a line on
    standard error).  Raises :class:`~sflp.errors.ConfigError` without Dask
    (saying ``pip install 'sflp[dask]'``) and :class:`~sflp.errors.ArgumentTypeError` for a
    ``scheduler`` that is neither.
    """
    distributed = _import_distributed()
    if isinstance(scheduler, str):
        if not scheduler.strip():
            raise ConfigError("the Dask scheduler's address is empty: give one such as tcp://HOST:8786")
        try:  # here, before any work and before a Client (one that fails in its start hangs at exit)
            address = distributed.comm.addressing.normalize_address(scheduler)
            scheme, _ = distributed.comm.addressing.parse_address(address)
            distributed.comm.registry.get_backend(scheme)  # a scheme Dask knows (tcp, tls, ws, ...)
            if scheme in ("tcp", "tls"):
                distributed.comm.addressing.get_address_host_port(address)  # a port that is a number
        except ValueError as exc:
            raise ConfigError(f"{scheduler!r} is not a Dask scheduler's address ({exc}): give one such as "
                              f"tcp://HOST:8786") from exc
        if scheme == "inproc":
            raise ConfigError(f"{scheduler!r} is an inproc:// address, which reaches only a scheduler inside this "
                              f"same process: give a tcp:// or tls:// address, or pass that scheduler's "
                              f"distributed.Client")
    elif not isinstance(scheduler, distributed.Client):
        raise ArgumentTypeError(f"scheduler must be an address such as 'tcp://HOST:8786' or a distributed.Client, "
                                f"not {type(scheduler).__name__}")
    elif scheduler.asynchronous:
        raise ConfigError("the runner needs a synchronous distributed.Client (asynchronous=False)")
    for name, value in (("connection timeout", timeout), ("worker timeout", worker_timeout)):
        if isinstance(value, bool) or not (isinstance(value, int | float) and 0 < value < float("inf")):
            raise ConfigError(f"the Dask {name} must be a positive number of seconds, not {value!r}")
    return DaskRunner(scheduler, progress=progress, timeout=float(timeout), worker_timeout=float(worker_timeout),
                      notify=notify, _distributed=distributed)
