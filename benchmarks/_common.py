"""Shared helpers for the benchmark scripts: timing with medians, machine description."""

from __future__ import annotations

import os
import platform
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


def report(what: str, seconds: float, times: list[float], target: str = "") -> None:
    spread = ", ".join(f"{t:.3f}" for t in times)
    tail = f"  (target {target})" if target else ""
    print(f"{what}: median {seconds:.3f} s over {len(times)} runs [{spread}]{tail}")
    sys.stdout.flush()
