"""The cluster's edge (issue 41 §5): an address where no Dask scheduler answers, a scheduler with no
worker, and a run whose only worker dies each end with one line naming the problem, within the
stated time, with no traceback (not even Dask's ``Client.__del__`` one, printed a minute after a
client whose start failed).

The peers are real sockets on localhost: an HTTP server (``http.server``, which waits for a request
line that Dask never sends), a server that answers "HTTP/1.1 400" and hangs up, one that sends
garbage, and a Dask scheduler (with and without a worker) in subprocesses.  Time limits here are
the runner's own timeouts, set small; a test's deadline (HANG) only bounds a hang."""

from __future__ import annotations

import http.server
import os
import socket
import socketserver
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from sflp.atlas import cluster as atlas_cluster
from sflp.atlas.cluster import dask_runner
from sflp.errors import ConfigError, OutputError

distributed = pytest.importorskip(
    "distributed", reason="Dask is not installed (pip install 'sflp[dask]'; CI installs it with the test extra)")

ROOT = Path(__file__).resolve().parent.parent
HANG = 600.0
"""A wait longer than this is a hang (see tests/test_atlas_dask.py): never reached by a working run."""


# ---------------------------------------------------------------- fake peers


class _Peer(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


def _serve(handler) -> tuple[str, _Peer]:
    server = _Peer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"tcp://127.0.0.1:{server.server_address[1]}", server


class _Answers400(socketserver.BaseRequestHandler):
    def handle(self):
        self.request.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")


class _Garbage(socketserver.BaseRequestHandler):
    def handle(self):
        self.request.sendall(os.urandom(64) + b"\xff" * 4096)
        time.sleep(0.5)


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # the test's output stays clean
        pass


@pytest.fixture
def peer(request):
    address, server = _serve(request.param)
    try:
        yield address
    finally:
        server.shutdown()
        server.server_close()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# ---------------------------------------------------------------- addresses where no scheduler answers


@pytest.mark.parametrize("peer, says", [(_Answers400, "does not answer as a Dask scheduler"),
                                        (_Garbage, "does not answer as a Dask scheduler"),
                                        (_Quiet, "no answer in Dask's protocol within 2 s")],
                         ids=["http-400", "garbage", "http.server"], indirect=["peer"])
def test_a_peer_that_is_not_a_scheduler_is_one_error_within_the_timeout(peer, says):
    """Before: the 400 server gave a MemoryError traceback ("Unable to allocate 3.07 EiB") after 61 s;
    http.server hung 300 s; a garbage peer's error was followed by a Client.__del__ traceback."""
    start = time.monotonic()
    with pytest.raises(ConfigError, match=says) as info:
        dask_runner(peer, timeout=2)(abs, [1, 2])
    assert peer in str(info.value)
    assert time.monotonic() - start < 2 + 5  # the timeout, and a margin for a loaded machine's thread switches


def test_the_command_at_an_http_400_server_prints_one_line_and_no_traceback(tmp_path):
    """The whole command, as a user types it: one line on stderr, nothing on stdout, no folder, and the
    process ends (Dask's Client.__del__ traceback came a minute later, at exit)."""
    address, server = _serve(_Answers400)
    try:
        done = subprocess.run([sys.executable, "-m", "sflp", "atlas", "--ante", "0,0.1", "--stacks", "2:4:1",
                               "--scheduler", address, "--out", str(tmp_path / "atlas"), "--hands", "none"],
                              capture_output=True, text=True, cwd=ROOT, timeout=HANG)
    finally:
        server.shutdown()
        server.server_close()
    assert done.returncode == 2  # an SflpError: the CLI's exit code for a refused input or setting
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.startswith("sflp: error:") and address in done.stderr, done.stderr
    assert not (tmp_path / "atlas").exists()


def test_the_default_connection_timeout_ends_the_command_within_30_seconds():
    """The issue's bound: connecting gives up within 30 s of the command's start (25 s for the probe,
    the rest for Python's imports)."""
    assert atlas_cluster.DEFAULT_TIMEOUT <= 25


@pytest.mark.parametrize("address, says", [
    ("inproc://x", "inproc:// address, which reaches only a scheduler inside this same process"),
])
def test_an_inproc_address_is_refused_before_any_connection(address, says):
    with pytest.raises(ConfigError, match=says):
        dask_runner(address)


def test_a_tls_address_without_tls_settings_is_one_error():
    """tls:// needs Dask's TLS settings; without them, one error naming the address (before: the error
    line, then a Client.__del__ traceback)."""
    address = f"tls://127.0.0.1:{_free_port()}"
    with pytest.raises(ConfigError, match=f"Dask scheduler at {address}: TLS expects"):
        dask_runner(address, timeout=2)(abs, [1])


def test_a_timeout_must_be_a_positive_finite_number():
    for bad in (0, -1, float("inf"), float("nan"), True, "5"):
        with pytest.raises(ConfigError, match="worker timeout"):
            dask_runner("tcp://127.0.0.1:8786", worker_timeout=bad)


# ---------------------------------------------------------------- a scheduler without workers


def _scheduler() -> tuple[str, subprocess.Popen]:
    port = _free_port()
    process = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                                "--port", str(port), "--no-dashboard"], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + HANG
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError("the test's scheduler ended at its start")
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return f"tcp://127.0.0.1:{port}", process
        time.sleep(0.05)
    raise AssertionError(f"the test's scheduler did not listen in {HANG:g} s")


@pytest.fixture
def scheduler():
    address, process = _scheduler()
    try:
        yield address
    finally:
        process.kill()
        process.wait()


def test_a_scheduler_without_workers_says_so_and_gives_up_after_the_worker_timeout(scheduler):
    """Before: it waited silently (70 s and more, for ever)."""
    told = []
    start = time.monotonic()
    with pytest.raises(OutputError, match=f"no Dask worker joined the scheduler at {scheduler} within 2 s"):
        dask_runner(scheduler, worker_timeout=2, notify=told.append)(abs, [1, 2])
    assert time.monotonic() - start < 2 + 25  # the wait, and a connection on a loaded machine
    assert told == [f"the Dask scheduler at {scheduler} has no worker: waiting at most 2 s for one to join "
                    "(--worker-timeout)"]


def test_the_command_says_on_stderr_that_it_waits_and_names_its_timeout(scheduler, tmp_path):
    done = subprocess.run([sys.executable, "-m", "sflp", "atlas", "--ante", "0,0.1", "--stacks", "2:4:1",
                           "--scheduler", scheduler, "--worker-timeout", "1.5", "--out", str(tmp_path / "atlas"),
                           "--hands", "none"], capture_output=True, text=True, cwd=ROOT, timeout=HANG)
    assert done.returncode == 2 and done.stdout == ""
    lines = done.stderr.splitlines()
    assert lines == [f"sflp: the Dask scheduler at {scheduler} has no worker: waiting at most 1.5 s for one to "
                     "join (--worker-timeout)",
                     f"sflp: error: no Dask worker joined the scheduler at {scheduler} within 1.5 s: start one "
                     f"(dask worker {scheduler}), or wait longer (--worker-timeout)"], done.stderr
    assert not (tmp_path / "atlas").exists()


def test_worker_timeout_is_for_a_cluster_only_and_positive(tmp_path):
    base = [sys.executable, "-m", "sflp", "atlas", "--ante", "0", "--stacks", "2:4:1", "--out", str(tmp_path / "a")]
    done = subprocess.run(base + ["--worker-timeout", "5"], capture_output=True, text=True, cwd=ROOT, timeout=HANG)
    assert done.returncode == 2 and "--worker-timeout is how long a Dask cluster may have no worker" in done.stderr
    done = subprocess.run(base + ["--worker-timeout", "-1", "--scheduler", "tcp://127.0.0.1:1"],
                          capture_output=True, text=True, cwd=ROOT, timeout=HANG)
    assert done.returncode == 2 and "--worker-timeout -1 must be a positive" in done.stderr, done.stderr
    assert not (tmp_path / "a").exists()


def test_the_sole_worker_killed_mid_run_says_so_and_gives_up_after_the_worker_timeout(scheduler):
    """The only worker (no nanny to restart it) is SIGKILLed while it runs the second of two jobs (the
    first one's progress kills it: the second sleeps HANG seconds).  Before: the run waited silently,
    140 s and more."""
    worker = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", scheduler, "--nthreads", "1",
                               "--no-nanny", "--no-dashboard"], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    told = []

    def kill_the_worker(done, total):
        worker.kill()
        worker.wait()

    try:
        # the 2 s timeout is for a worker that left: it starts once this one has joined, however long
        # that takes at load 40 (issue 52 §8: it joined late and the run rightly said "has no worker")
        with distributed.Client(scheduler, timeout=HANG) as client:
            client.wait_for_workers(1, timeout=HANG)
        with pytest.raises(OutputError, match=f"no Dask worker joined the scheduler at {scheduler} within 2 s"):
            dask_runner(scheduler, worker_timeout=2, notify=told.append, progress=kill_the_worker)(
                time.sleep, [0.0, HANG])
        assert told[-1] == (f"the Dask scheduler at {scheduler} has no worker left: waiting at most 2 s for one "
                            "to join (--worker-timeout)"), told
    finally:
        worker.kill()
        worker.wait()


def test_a_worker_that_joins_while_the_runner_waits_runs_the_jobs(scheduler):
    """The wait is for a worker: one that joins in time runs the jobs, and the runner told why it waited."""
    told = []
    worker = None

    def start_a_worker(message):
        nonlocal worker
        told.append(message)
        worker = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", scheduler, "--nthreads", "1",
                                   "--no-nanny", "--no-dashboard"], stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL)

    try:
        assert dask_runner(scheduler, worker_timeout=HANG, notify=start_a_worker)(abs, [-1, 2, -3]) == [1, 2, 3]
        assert len(told) == 1 and "has no worker: waiting" in told[0]
    finally:
        if worker is not None:
            worker.kill()
            worker.wait()


class _LateFuture:
    """A future whose wait times out at the moment it finishes (the race a loaded machine meets)."""

    def __init__(self, outcome):
        self.outcome, self.waits = outcome, 0

    def result(self, timeout=None):
        if timeout is not None:
            self.waits += 1
            raise TimeoutError(f"timed out after {timeout} s.")
        if isinstance(self.outcome, BaseException):
            raise self.outcome
        return self.outcome

    def done(self):
        return self.waits > 0


def test_a_result_that_arrives_as_the_wait_times_out_is_the_result():
    """Under load (a second test run beside this one) the one-second wait timed out just as the job
    finished, and the timeout escaped as a traceback; the job's own result, or its own error, is what
    comes back."""
    runner = atlas_cluster.DaskRunner("tcp://127.0.0.1:1", _distributed=distributed)
    assert runner._result(None, _LateFuture(42)) == 42
    with pytest.raises(TimeoutError, match="the job's own"):
        runner._result(None, _LateFuture(TimeoutError("the job's own timeout")))


def test_the_probe_works_inside_a_running_event_loop(scheduler):
    """From a notebook (a running event loop) an address is probed as from a script: asyncio.run would
    refuse to start there, and the scheduler would be reported as "not a Dask scheduler"."""
    import asyncio

    async def in_a_loop():
        atlas_cluster._probe_scheduler(distributed, scheduler, 25)  # a scheduler: no error
        return True

    assert asyncio.run(in_a_loop())
