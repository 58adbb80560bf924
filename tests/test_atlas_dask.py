"""Atlas jobs on a real Dask cluster (sflp.atlas.cluster): a LocalCluster of two worker processes on
localhost, results in job order, a worker killed mid-run, a job's error, an interrupt, no Dask installed.

No test depends on the machine's speed or load: a test waits for events (a blocked job's file, a process
that listens or has ended, the scheduler's state asked again until it holds), never for a length of time,
and every wait is bounded by HANG only, a deadline that a working run on a loaded machine never reaches."""

from __future__ import annotations

import _thread
import functools
import hashlib
import json
import logging
import operator
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import types
from dataclasses import dataclass
from pathlib import Path

import pytest

from sflp import atlas
from sflp.atlas import cluster as atlas_dask
from sflp.atlas.cluster import dask_runner, task_key
from sflp.errors import ArgumentTypeError, ConfigError, OutputError

distributed = pytest.importorskip(
    "distributed", reason="Dask is not installed (pip install 'sflp[dask]'; CI installs it with the test extra)")
pa = pytest.importorskip("pyarrow", reason="pyarrow is not installed (pip install 'sflp[parquet]')")

ROOT = Path(__file__).resolve().parent.parent
HANG = 600.0
"""Seconds after which a wait for an event (a job started, a worker back, a scheduler listening, a task gone)
is a hang and fails the test.  Generous on purpose: under a load of 16 on 2 cores the slowest of them (the
``sflp atlas`` subprocess) took 53 s, so passing it means that the event will not come, never that the machine
is slow."""


# ---------------------------------------------------------------- module-level jobs (pickled by reference)


@dataclass(frozen=True)
class ToyJob:
    """A stand-in for an atlas job: picklable, frozen, the same job -> the same bytes."""

    index: int
    scale: float
    folder: str = ""  # where the blocking jobs meet the test
    victim: int = -1  # the job that blocks on its first attempt


@dataclass(frozen=True)
class ToyResult:
    """A stand-in for a structure's result: Arrow tables inside a picklable object."""

    index: int
    table: pa.Table


def toy_solve(job: ToyJob) -> ToyResult:
    """A pure job: its table depends on the job only."""
    if job.index == job.victim:
        _block_first_attempt(Path(job.folder))
    stacks = [round(1 + 0.05 * i, 2) for i in range(40)]
    return ToyResult(job.index, pa.table({"stack": stacks, "value": [job.scale * s * s - job.index for s in stacks]}))


def _block_first_attempt(folder: Path) -> None:
    """The first attempt at this job publishes its process id and waits (to be killed, or released: the test
    releases it when it is done, whatever happened, so only a hung test lets it wait HANG seconds);
    a later attempt (the job rescheduled on another worker) returns at once."""
    try:
        os.close(os.open(folder / "attempt", os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return
    (folder / "pid.tmp").write_text(str(os.getpid()))
    os.replace(folder / "pid.tmp", folder / "pid")
    deadline = time.monotonic() + HANG
    while time.monotonic() < deadline:
        if (folder / "release").exists():
            return
        time.sleep(0.02)
    raise RuntimeError(f"the test neither killed nor released this job's worker in {HANG:g} s: it hung")


def solve_after_a_block(fn, folder: str, victim: str, job):
    """``fn(job)``, but the job named ``victim`` blocks on its first attempt (see above)."""
    if job.name == victim:
        _block_first_attempt(Path(folder))
    return fn(job)


def blocking(runner, folder: Path, victim: str):
    """``runner``, with the job named ``victim`` blocking on its first attempt: the moment to kill or interrupt."""
    return lambda fn, jobs: runner(functools.partial(solve_after_a_block, fn, str(folder), victim), jobs)


def failing_solve(job: ToyJob) -> ToyResult:
    if job.index == 3:
        raise ValueError(f"structure {job.index} is not solvable")
    return toy_solve(job)


def _jobs(n: int = 8, **extra) -> list[ToyJob]:
    return [ToyJob(i, 0.5 + i / 7, **extra) for i in range(n)]


def _same(results: list[ToyResult], expected: list[ToyResult]) -> None:
    assert [r.index for r in results] == [e.index for e in expected]
    for result, wanted in zip(results, expected):
        assert result.table.equals(wanted.table)


class Helper(threading.Thread):
    """A thread of the test's (a killer, an interrupter) that waits for an event, then acts.  ``stop()`` ends its
    wait (the test is over: the event may never come) and joins it; ``check()`` re-raises what it raised, so
    a helper that failed fails the test instead of leaving it to a deadline."""

    def __init__(self, act):
        super().__init__(daemon=True)
        self.act = act
        self.stopped = threading.Event()
        self.error: BaseException | None = None
        self.start()

    def run(self):
        try:
            self.act(self.stopped)
        except BaseException as exc:
            self.error = exc

    def stop(self) -> None:
        self.stopped.set()
        self.join(HANG)
        assert not self.is_alive(), f"the test's helper thread was still busy {HANG:g} s after the test: a hang"

    def check(self) -> None:
        if self.error is not None:
            raise self.error


def _kill_when_started(folder: Path, pids: set[int], killed: list[int]) -> Helper:
    """A thread that SIGKILLs the worker process whose blocked job published its id in ``folder``."""

    def kill(stopped):
        pid = _wait_for(lambda: (folder / "pid").exists() and (folder / "pid").read_text(), "the job to block",
                        stopped)
        if pid:
            assert int(pid) in pids, "the blocked job runs in one of the cluster's worker processes"
            os.kill(int(pid), signal.SIGKILL)
            killed.append(int(pid))

    return Helper(kill)


def _interrupt_when_started(folder: Path) -> Helper:
    """A thread that raises KeyboardInterrupt in the main thread (as SIGINT's handler does, wherever it waits)
    once the blocked job has published its id in ``folder``: the run cannot have finished.  The test asks for
    the ``sigint`` fixture: ``interrupt_main`` calls SIGINT's handler, and does nothing when SIGINT is ignored."""
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler, "the test asks for the sigint fixture"

    def interrupt(stopped):
        if _wait_for(lambda: (folder / "pid").exists(), "the job to block", stopped):
            _thread.interrupt_main()

    return Helper(interrupt)


def _wait_for(predicate, what: str, stopped: threading.Event | None = None):
    """Poll ``predicate`` until it is true and return its value (None if ``stopped`` is set first); HANG seconds
    without it is a hang."""
    deadline = time.monotonic() + HANG
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        if stopped is not None and stopped.is_set():
            return None
        time.sleep(0.02)
    raise AssertionError(f"waited {HANG:g} s for {what}: a hang")


# ---------------------------------------------------------------- the cluster


@pytest.fixture(scope="module")
def cluster():
    cluster = distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None,
                                       host="127.0.0.1", silence_logs=logging.CRITICAL)
    try:
        yield cluster
    finally:
        cluster.close()


@pytest.fixture(scope="module")
def client(cluster):
    client = distributed.Client(cluster, set_as_default=False)
    try:
        yield client
    finally:
        client.close()


@pytest.fixture
def sigint():
    """SIGINT raises KeyboardInterrupt in the main thread during the test, as in a Python started from a terminal.
    A test run started in the background by a non-interactive shell (``pytest ... &`` beside another run, a CI
    script) inherits SIGINT ignored, Python keeps it so, and ``_thread.interrupt_main()`` then does nothing: the
    interrupt tests waited for an interrupt that never came (until the blocked job gave up)."""
    if threading.current_thread() is not threading.main_thread():  # signal.signal works in the main thread only
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@pytest.fixture
def ready(client):
    """The module's client, with both workers up (a test before may have killed one)."""
    client.wait_for_workers(2, timeout=HANG)
    return client


def _clients(client) -> int:
    """How many clients the scheduler has."""
    return len(client.run_on_scheduler(lambda dask_scheduler: list(dask_scheduler.clients)))


def _scheduler_keys(client) -> set[str]:
    return set(client.run_on_scheduler(lambda dask_scheduler: [str(k) for k in dask_scheduler.tasks]))


# ---------------------------------------------------------------- results


def test_results_equal_the_local_map_in_job_order(cluster, ready):
    jobs = _jobs(9)
    expected = [toy_solve(job) for job in jobs]
    seen = []
    clients = _clients(ready)
    runner = dask_runner(cluster.scheduler_address, progress=lambda done, total: seen.append((done, total)))
    _same(runner(toy_solve, jobs), expected)
    _wait_for(lambda: _clients(ready) == clients, "the runner's own client to disconnect")
    assert [total for _, total in seen] == [9] * len(seen) and seen[-1] == (9, 9)
    assert [done for done, _ in seen] == sorted(set(done for done, _ in seen))
    # a client passed in: the same results, and the client is still the caller's, open
    _same(dask_runner(ready)(toy_solve, list(reversed(jobs))), list(reversed(expected)))
    assert ready.status == "running"
    assert dask_runner(ready)(toy_solve, []) == []


def test_a_repeated_job_is_one_task_and_keys_are_deterministic(ready):
    jobs = _jobs(3)
    assert [task_key(toy_solve, job) for job in jobs] == [task_key(toy_solve, ToyJob(j.index, j.scale)) for j in jobs]
    assert len({task_key(toy_solve, job) for job in jobs}) == 3
    assert task_key(toy_solve, jobs[0]) != task_key(failing_solve, jobs[0])
    seen = []
    results = dask_runner(ready, progress=lambda done, total: seen.append(done))(toy_solve, jobs + jobs[:2])
    _same(results, [toy_solve(job) for job in jobs + jobs[:2]])
    assert seen[-1] == 5


def test_a_killed_worker_is_rescheduled_and_the_run_completes_identically(cluster, ready, tmp_path):
    pids = set(ready.run(os.getpid).values())
    jobs = _jobs(8, folder=str(tmp_path), victim=2)
    expected = [toy_solve(ToyJob(j.index, j.scale)) for j in jobs]
    killed: list[int] = []
    killer = _kill_when_started(tmp_path, pids, killed)
    try:
        results = dask_runner(cluster.scheduler_address)(toy_solve, jobs)
    finally:
        (tmp_path / "release").touch()  # a failed test must not leave a worker blocked
        killer.stop()
    killer.check()
    assert killed, "the worker running job 2 was killed"
    _same(results, expected)
    ready.wait_for_workers(2, timeout=HANG)  # the nanny restarted it
    assert killed[0] not in set(ready.run(os.getpid).values())


# ---------------------------------------------------------------- errors


def test_an_error_in_a_job_propagates_with_the_job_named_and_the_rest_cancelled(cluster, ready):
    runner = dask_runner(cluster.scheduler_address)
    jobs = _jobs(6)
    with pytest.raises(ValueError, match="structure 3 is not solvable") as info:
        runner(failing_solve, jobs)
    notes = "\n".join(getattr(info.value, "__notes__", []))
    assert "job 4 of 6" in notes and cluster.scheduler_address in notes
    keys = {task_key(failing_solve, job) for job in jobs}
    _wait_for(lambda: not keys & _scheduler_keys(ready), "the failed run's tasks to leave the scheduler")


@pytest.mark.parametrize("where", ["signal", "progress"])
def test_a_client_interrupt_cancels_the_jobs_and_closes_the_client(cluster, ready, sigint, tmp_path, where):
    """Ctrl-C while job 2 runs: SIGINT's KeyboardInterrupt in the main thread, wherever it waits (pytest-xdist
    before 3.6 runs tests off the main thread: then only the second way), or raised by the progress callback."""
    if where == "signal" and threading.current_thread() is not threading.main_thread():
        pytest.skip("this test runs off the main thread, where SIGINT's KeyboardInterrupt cannot reach it")
    clients = _clients(ready)
    jobs = _jobs(4, folder=str(tmp_path), victim=1)

    def progress(done, total):
        _wait_for(lambda: (tmp_path / "pid").exists(), "job 2 to start")
        raise KeyboardInterrupt

    interrupter = _interrupt_when_started(tmp_path) if where == "signal" else None
    try:
        with pytest.raises(KeyboardInterrupt):
            dask_runner(cluster.scheduler_address, progress=progress if where == "progress" else None)(toy_solve, jobs)
    finally:
        (tmp_path / "release").touch()
        if interrupter is not None:
            interrupter.stop()
    if interrupter is not None:
        interrupter.check()
    keys = {task_key(toy_solve, job) for job in jobs}
    _wait_for(lambda: not keys & _scheduler_keys(ready), "the interrupted run's tasks to leave the scheduler")
    _wait_for(lambda: _clients(ready) == clients, "the runner's client to disconnect")


def _listening(port: int, process: subprocess.Popen) -> bool:
    """Whether ``process`` (alive) accepts connections on ``port`` of localhost yet."""
    assert process.poll() is None, f"the process meant to listen on port {port} ended ({process.returncode})"
    try:
        socket.create_connection(("127.0.0.1", port), timeout=HANG).close()
    except ConnectionRefusedError:
        return False
    return True


def test_a_lost_scheduler_is_one_error_naming_it(tmp_path):
    """The scheduler dies (SIGKILL) while the jobs run: one OutputError naming it, no logged traceback.
    The jobs are sleeps: the first returns at once, the others sleep HANG seconds, so they are still
    running when the first job's progress kills the scheduler, however slow the machine."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    scheduler = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                                  "--port", str(port), "--no-dashboard"], **quiet)
    worker = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads", "4",
                               "--no-dashboard"], **quiet)

    def kill_the_scheduler(done, total):  # after the first job: the others are still running
        scheduler.kill()
        scheduler.wait()

    try:
        # the runner's connection timeout (30 s) is for a scheduler that does not answer; this one is still
        # importing Dask on a loaded machine: wait until it listens
        _wait_for(lambda: _listening(port, scheduler), "the scheduler to listen")
        with pytest.raises(OutputError, match=f"lost the connection to the Dask scheduler at {address}"):
            dask_runner(address, progress=kill_the_scheduler)(time.sleep, [0.0, HANG, HANG + 1, HANG + 2])
    finally:
        for process in (scheduler, worker):
            process.kill()
            process.wait()


def test_workers_that_cannot_run_the_jobs_are_refused_before_any_is_sent(cluster, ready, monkeypatch):
    """A function whose module only this process has (as if the workers had no sflp): Dask would wait for
    ever; the runner's check says to install the same sflp on the workers."""
    only_here = types.ModuleType("only_here")  # a module of this process alone: the workers cannot import it
    exec("def solve(job):\n    return job\n", only_here.__dict__)
    monkeypatch.setitem(sys.modules, "only_here", only_here)
    outcome = []

    def run():
        try:
            dask_runner(ready)(only_here.solve, [1, 2])
        except Exception as exc:
            outcome.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(HANG)  # without the check the run would wait for ever: HANG seconds say it does
    assert outcome and isinstance(outcome[0], ConfigError), "the runner refused the cluster before sending a job"
    assert "only_here" in str(outcome[0]) and cluster.scheduler_address in str(outcome[0])
    assert "install the same sflp" in str(outcome[0])


def test_workers_with_another_sflp_are_refused(ready, monkeypatch):
    import sflp

    monkeypatch.setattr(sflp, "__version__", "0.0.0+other")
    with pytest.raises(ConfigError, match=r"runs sflp \S+ and this machine sflp 0\.0\.0\+other"):
        dask_runner(ready)(operator.neg, [1])


def test_an_unreachable_scheduler_is_one_error_naming_it():
    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    with pytest.raises(ConfigError, match=f"Dask scheduler at {address}"):
        dask_runner(address, timeout=0.5)(toy_solve, _jobs(2))


def test_bad_arguments():
    with pytest.raises(ArgumentTypeError, match="distributed.Client"):
        dask_runner(8786)
    with pytest.raises(ConfigError, match="address is empty"):
        dask_runner(" ")
    for address in ("foo", "http://127.0.0.1:8786", "tcp://127.0.0.1:port"):
        with pytest.raises(ConfigError, match="not a Dask scheduler's address"):
            dask_runner(address)
    with pytest.raises(ConfigError, match="timeout"):
        dask_runner("tcp://127.0.0.1:8786", timeout=0)
    with pytest.raises(ArgumentTypeError, match="picklable"):
        task_key(toy_solve, lambda: None)


def test_without_dask_the_error_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # `import distributed` now raises ImportError
    with pytest.raises(ConfigError, match=r"pip install 'sflp\[dask\]'"):
        dask_runner("tcp://127.0.0.1:8786")


def test_importing_the_module_does_not_import_dask():
    code = "import sys, sflp.atlas.cluster; print('distributed' in sys.modules, 'dask' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.split() == ["False", "False"]


# ---------------------------------------------------------------- quiet


def test_standard_output_carries_only_the_result(cluster, ready):
    """A process that maps jobs on the cluster and prints their results prints nothing else on stdout."""
    code = ("import operator, sys; from sflp.atlas.cluster import dask_runner; "
            "print(dask_runner(sys.argv[1])(operator.neg, [1, 2, 3]))")
    out = subprocess.run([sys.executable, "-c", code, cluster.scheduler_address], capture_output=True, text=True,
                         check=True, cwd=ROOT, timeout=HANG)
    assert out.stdout == "[-1, -2, -3]\n"


def test_dask_loggers_are_quiet_during_a_run_and_restored_after(monkeypatch):
    logger = logging.getLogger("distributed.client")
    monkeypatch.setattr(logger, "level", logging.INFO)
    monkeypatch.setattr(atlas_dask, "verbose", lambda: False)
    with atlas_dask._quiet_logs():
        assert logger.getEffectiveLevel() == logging.CRITICAL
    assert logger.level == logging.INFO
    monkeypatch.setattr(atlas_dask, "verbose", lambda: True)
    with atlas_dask._quiet_logs():
        assert logger.level == logging.INFO


def test_a_plain_function_runs_too(ready):
    assert dask_runner(ready)(operator.neg, [3, 1, 2]) == [-3, -1, -2]


# ---------------------------------------------------------------- the atlas, written through the cluster

STRUCTURES = [(0.5, 1.0, 0.0, 0.0), (0.5, 1.0, 0.1, 0.0)]
STACKS = [5 + 0.5 * k for k in range(11)]  # 5:10:0.5


def snapshot(folder: Path) -> dict[str, str]:
    """Every file below ``folder`` (hidden ones included), by path: its SHA-256."""
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def atlas_jobs():
    """Two structures on one line, with the path along the ante at 6 bb."""
    return atlas.atlas_jobs(STRUCTURES, STACKS, ante_stacks=(6.0,))


@pytest.fixture(scope="module")
def local_atlas(atlas_jobs, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("local") / "atlas"
    atlas.write_atlas(atlas_jobs, out, workers=0)
    return out


def test_an_atlas_written_on_the_cluster_is_byte_identical_to_the_local_one(atlas_jobs, local_atlas, cluster, ready,
                                                                             tmp_path):
    out = tmp_path / "atlas"
    atlas.write_atlas(atlas_jobs, out, client=cluster.scheduler_address)
    assert snapshot(out) == snapshot(local_atlas)  # every file, the manifest included
    assert "manifest.json" in snapshot(out)


def test_sflp_atlas_on_the_cluster_prints_only_its_result(atlas_jobs, local_atlas, cluster, ready, tmp_path):
    """``sflp atlas --scheduler``: standard output is the JSON result alone, and the datasets are the local ones
    (what else the command writes beside them is test_atlas's)."""
    out = tmp_path / "atlas"
    argv = [sys.executable, "-m", "sflp", "atlas", "--ante", "0,0.1", "--stacks", "5:10:0.5", "--ante-stacks", "6",
            "--scheduler", cluster.scheduler_address, "--out", str(out), "--json"]
    done = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, timeout=HANG)
    assert done.returncode == 0, (done.stdout, done.stderr)
    assert json.loads(done.stdout)["out_dir"] == str(out), (done.stdout, done.stderr)
    datasets = {name: digest for name, digest in snapshot(local_atlas).items() if ".parquet/" in name}
    assert datasets and {name: snapshot(out).get(name) for name in datasets} == datasets


def test_a_worker_killed_mid_atlas_is_rescheduled_and_the_atlas_is_identical(atlas_jobs, local_atlas, cluster, ready,
                                                                             tmp_path):
    pids = set(ready.run(os.getpid).values())
    folder = tmp_path / "meet"
    folder.mkdir()
    killed: list[int] = []
    killer = _kill_when_started(folder, pids, killed)
    try:
        atlas.write_atlas(atlas_jobs, tmp_path / "atlas",
                          runner=blocking(dask_runner(ready), folder, victim=atlas_jobs[-1].name))
    finally:
        (folder / "release").touch()
        killer.stop()
    killer.check()
    assert killed, "the worker solving the last structure was killed"
    assert snapshot(tmp_path / "atlas") == snapshot(local_atlas)


def test_a_client_interrupt_leaves_the_atlas_as_it_was(atlas_jobs, local_atlas, cluster, ready, sigint, tmp_path):
    """Ctrl-C while the cluster solves: the old atlas stays, whole, and no staging folder or lock is left."""
    parent = tmp_path / "reports"
    shutil.copytree(local_atlas, parent / "atlas")
    before = snapshot(parent)
    folder = tmp_path / "meet"
    folder.mkdir()
    main = threading.current_thread() is threading.main_thread()

    def progress(done, total):  # pytest-xdist before 3.6 runs tests off the main thread
        _wait_for(lambda: (folder / "pid").exists(), "the structure to block")
        raise KeyboardInterrupt

    interrupter = _interrupt_when_started(folder) if main else None  # SIGINT's KeyboardInterrupt
    runner = dask_runner(cluster.scheduler_address, progress=None if main else progress)
    try:
        with pytest.raises(KeyboardInterrupt):
            atlas.write_atlas(atlas_jobs, parent / "atlas", runner=blocking(runner, folder, atlas_jobs[0].name))
    finally:
        (folder / "release").touch()
        if interrupter is not None:
            interrupter.stop()
    if interrupter is not None:
        interrupter.check()
    assert snapshot(parent) == before
    assert sorted(p.name for p in parent.iterdir()) == ["atlas"]
