"""Shared helpers for the benchmark scripts: wall and CPU time with medians, peak memory, the
machine's state, and the record (``--record``) that README and docs/ quote.

**Wall and CPU.**  Every measurement is a :class:`Timing`: wall seconds (``time.perf_counter``)
and CPU seconds, the user + system time of *every* process that did the work:

    cpu = (utime + stime) of this process          (getrusage(RUSAGE_SELF))
        + (utime + stime) of its finished children  (getrusage(RUSAGE_CHILDREN))

measured as the difference before and after.  A child's time reaches ``RUSAGE_CHILDREN`` only
once it has been waited for, so the measured call must wait for its workers: ``solve_many``'s
pool is shut down (``shutdown(wait=True)``) before it returns, a chart job's writer pool before
the CLI exits, and a CLI run is waited for by :func:`subprocess.run`.  On one core the CPU
figure is what a job costs; on several cores the wall figure is what a user waits.  Each target
says which one it means.

**The record.**  With ``--record`` a script also writes ``benchmarks/results/<name>.json``:
the machine's state (:func:`machine_state`: load average, cores, CPU model, Python and library
versions, the git commit) and each figure under a key, with its value and the exact text the
docs quote.  ``python benchmarks/record.py`` runs every script that way and rewrites the quoted
figures (see ``benchmarks/figures.py``); ``tests/test_docs_figures.py`` checks them.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
if sys.path[:1] != [str(ROOT)]:  # measure this checkout's sflp, not whichever one is installed
    sys.path.insert(0, str(ROOT))
LIBRARIES = ("numpy", "scipy", "cvxpy", "highspy", "numba", "pandas", "openpyxl", "reportlab", "pillow",
             "open_spiel")


def cpu_seconds() -> float:
    """User + system seconds of this process and of its children that have been waited for."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


@dataclass
class Timing:
    """Runs of one measurement: wall and CPU seconds of each, and their medians."""

    walls: list[float] = field(default_factory=list)
    cpus: list[float] = field(default_factory=list)

    @property
    def wall(self) -> float:
        return statistics.median(self.walls)

    @property
    def cpu(self) -> float:
        return statistics.median(self.cpus)

    def add(self, wall: float, cpu: float) -> None:
        self.walls.append(wall)
        self.cpus.append(cpu)


def timed(fn, timing: Timing | None = None):
    """Call ``fn()`` once, add its wall and CPU seconds to ``timing``; return ``fn()``'s result."""
    c0, t0 = cpu_seconds(), time.perf_counter()
    out = fn()
    wall, cpu = time.perf_counter() - t0, cpu_seconds() - c0
    if timing is not None:
        timing.add(wall, cpu)
    return out


def measure(fn, runs: int = 5) -> Timing:
    """Wall and CPU seconds of ``runs`` calls of ``fn``."""
    timing = Timing()
    for _ in range(runs):
        timed(fn, timing)
    return timing


def cold_command(args: list[str], runs: int = 5, env: dict | None = None) -> Timing:
    """Wall and CPU time (the process and anything it waited for) of a fresh process running ``args``."""

    def run():
        subprocess.run(args, check=True, stdout=subprocess.DEVNULL, env=env)

    return measure(run, runs)


def peak_rss() -> str:
    """Peak resident memory so far: this process, and the largest finished child process
    (a cold CLI run, a forked worker), from ``getrusage``."""
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    child = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return f"peak RSS {own:.0f} MB" + (f", largest child {child:.0f} MB" if child else "")


def children_cpu() -> float:
    """User + system seconds of this process's finished, waited-for children (and theirs)."""
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return kids.ru_utime + kids.ru_stime


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _version(name: str) -> str | None:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def _git_commit() -> str | None:
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True)
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "--", "sflp"], cwd=ROOT,
                               capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    return head.stdout.strip() + ("+changes in sflp/" if dirty.stdout.strip() else "")


def machine_state() -> dict:
    """What measured: CPU model, cores, load average, Python and library versions, the commit."""
    load = os.getloadavg()
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return {
        "cpu_model": _cpu_model(),
        "cpu_count": os.cpu_count(),
        "nproc": usable,
        "load_average": [round(x, 2) for x in load],
        "platform": platform.platform(),
        "python": platform.python_version(),
        "libraries": {n: v for n in LIBRARIES if (v := _version(n))},
        "sflp_commit": _git_commit(),
    }


def machine() -> str:
    """One line for a script's first output: the state now."""
    m = machine_state()
    return (f"{m['cpu_model']}, {m['nproc']} of {m['cpu_count']} CPUs usable, load average "
            f"{' '.join(str(x) for x in m['load_average'])}, Python {m['python']}")


def machine_text(m: dict) -> str:
    """How the docs name the machine of a record: cores, CPU, the load when it started, the date."""
    load = m["start"]["load_average"][0]
    libs = m["start"]["libraries"]
    versions = ", ".join(f"{n} {libs[n]}" for n in ("numpy", "cvxpy", "highspy") if n in libs)
    commit = (m["start"]["sflp_commit"] or "unknown commit")[:10]
    changes = " with uncommitted changes" if "+" in (m["start"]["sflp_commit"] or "") else ""
    return (f"{m['start']['nproc']} cores of {m['start']['cpu_model']}, load average {load:.1f} at the start, "
            f"Python {m['start']['python']}, {versions}; sflp {commit}{changes}; {m['date']}")


def machine_short(m: dict) -> str:
    """The machine of a record in a few words: ``2-core AMD EPYC, load 1.5``."""
    return f"{m['start']['nproc']}-core {m['start']['cpu_model']}, load {m['start']['load_average'][0]:.1f}"


class Record:
    """The figures of one benchmark script, written to ``benchmarks/results/<name>.json`` when the
    script runs with ``--record``.  A figure is a key (``<name>.<what>``), a value and the text the
    docs quote (formatted once, here, so a quote and its record cannot disagree by rounding)."""

    def __init__(self, name: str):
        self.name = name
        self.enabled = False
        self.figures: dict[str, dict] = {}
        self.start = machine_state()
        self.argv = list(sys.argv)

    def arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--record", action="store_true",
                            help=f"also write benchmarks/results/{self.name}.json (the figures the docs quote)")

    def use(self, args: argparse.Namespace) -> None:
        self.enabled = bool(getattr(args, "record", False))

    def put(self, key: str, value, text: str, what: str = "") -> None:
        """Keep one figure: ``value`` (a number, or a list of the runs' numbers) and its ``text``."""
        self.figures[f"{self.name}.{key}"] = {"value": value, "text": text, "what": what}

    def seconds(self, key: str, seconds: float, what: str = "", sig: int = 3) -> None:
        self.put(key, round(seconds, 9), seconds_text(seconds, sig), what)

    def timing(self, key: str, t: Timing, what: str = "", sig: int = 3) -> None:
        """``key.wall`` and ``key.cpu``: the medians, with every run kept in the record."""
        self.put(f"{key}.wall", [round(x, 9) for x in t.walls], seconds_text(t.wall, sig), f"wall: {what}")
        self.put(f"{key}.cpu", [round(x, 9) for x in t.cpus], seconds_text(t.cpu, sig), f"CPU: {what}")

    def write(self) -> Path | None:
        if not self.enabled:
            return None
        now = datetime.datetime.now(datetime.UTC)
        state = {"date": now.strftime("%Y-%m-%d"), "start": self.start,
                 "end_load_average": machine_state()["load_average"]}
        out = {
            "benchmark": self.name,
            "command": "python " + " ".join([os.path.relpath(self.argv[0], ROOT), *self.argv[1:]]),
            "recorded_utc": now.strftime("%Y-%m-%dT%H:%M:%SZ"),
            "machine": {**state, "text": machine_text(state)},
            "figures": dict(sorted(self.figures.items())),
        }
        out["figures"][f"{self.name}.machine"] = {"value": None, "text": out["machine"]["text"],
                                                   "what": "the machine that measured these figures"}
        out["figures"][f"{self.name}.machine_short"] = {"value": None, "text": machine_short(state),
                                                         "what": "the machine, in a few words"}
        RESULTS.mkdir(parents=True, exist_ok=True)
        path = RESULTS / f"{self.name}.json"
        tmp = path.with_suffix(".json.tmp")
        tmp.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n")
        tmp.replace(path)
        print(f"recorded {len(self.figures)} figures in {os.path.relpath(path, ROOT)}", file=sys.stderr)
        return path


def seconds_text(seconds: float, sig: int = 3) -> str:
    """A duration as the docs write it: ``sig`` significant digits from 1 s (``13.4 s``, ``2.65 s``),
    two decimals from 0.1 s (``0.96 s``), then milliseconds and microseconds (``66.5 ms``,
    ``24.5 µs``).

    >>> [seconds_text(x) for x in (138.2, 13.45, 2.654, 0.9612, 0.0665, 0.00161, 2.45e-5)]
    ['138 s', '13.4 s', '2.65 s', '0.96 s', '66.5 ms', '1.61 ms', '24.5 µs']
    """
    if seconds >= 0.1:
        if seconds < 1:
            return f"{seconds:.2f} s"
        value, unit = seconds, "s"
    elif seconds >= 1e-3:
        value, unit = seconds * 1e3, "ms"
    else:
        value, unit = seconds * 1e6, "µs"
    decimals = max(0, sig - 1 - math.floor(math.log10(value))) if value > 0 else 0
    return f"{value:.{decimals}f} {unit}"


def bytes_text(n: int, sig: int = 3) -> str:
    """A size as the docs write it: bytes below 1 KB, then ``sig`` significant digits of KB, MB
    or GB (powers of 1,000).

    >>> [bytes_text(n) for n in (28, 43_581, 165_765, 2_572_605, 29_178_346, 248_286_830, 1_234_567_890)]
    ['28 B', '43.6 KB', '166 KB', '2.57 MB', '29.2 MB', '248 MB', '1.23 GB']
    """
    if n < 1000:
        return f"{n} B"
    for unit, scale in (("KB", 1e3), ("MB", 1e6), ("GB", 1e9)):
        value = n / scale
        if float(f"{value:.{sig}g}") < 1000 or unit == "GB":
            break
    decimals = max(0, sig - 1 - math.floor(math.log10(float(f"{value:.{sig}g}"))))
    return f"{value:.{decimals}f} {unit}"


def report(what: str, t: Timing | float, times: list[float] | None = None, target: str = "") -> None:
    """Print one measurement: the median wall and CPU seconds, the runs, the peak memory and the
    target (which says whether it means wall or CPU seconds)."""
    if not isinstance(t, Timing):  # an older caller's (median, runs)
        t = Timing(list(times or [t]), [])
    spread = ", ".join(f"{x:.3f}" for x in t.walls)
    cpu = f", CPU {t.cpu:.3f} s" if t.cpus else ""
    tail = f"  (target {target})" if target else ""
    print(f"{what}: median wall {t.wall:.3f} s{cpu} over {len(t.walls)} runs [{spread}]; {peak_rss()}{tail}")
    sys.stdout.flush()
