"""Shared helpers for the benchmark scripts: timing with medians, peak memory, machine description."""

from __future__ import annotations

import os
import platform
import resource
import statistics
import subprocess
import sys
import time


def machine() -> str:
    return f"{platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}"


def median_time(fn, runs: int = 5) -> tuple[float, list[float]]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), times


def cold_command(args: list[str], runs: int = 5) -> tuple[float, list[float]]:
    """Median wall time of a fresh process running ``args``."""

    def run():
        subprocess.run(args, check=True, stdout=subprocess.DEVNULL)

    return median_time(run, runs)


def peak_rss() -> str:
    """Peak resident memory so far: this process, and the largest finished child process
    (a cold CLI run, a forked worker), from ``getrusage``."""
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    child = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return f"peak RSS {own:.0f} MB" + (f", largest child {child:.0f} MB" if child else "")


def report(what: str, seconds: float, times: list[float], target: str = "") -> None:
    spread = ", ".join(f"{t:.3f}" for t in times)
    tail = f"  (target {target})" if target else ""
    print(f"{what}: median {seconds:.3f} s over {len(times)} runs [{spread}]; {peak_rss()}{tail}")
    sys.stdout.flush()
