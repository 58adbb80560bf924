"""Benchmark: hands per minute of ``sflp.study.simulate.simulate`` (dealing, acting, evaluating, settling).

Median of 3 runs per configuration, each of ``--hands`` hands on one core (the loop is
single-threaded numba, so its wall and CPU seconds agree on an idle machine).  The timed part is
:attr:`SimulationReport.seconds`: the random draws, the deal and the settlement, not the solve or
the JIT compilation (done by a warm-up run).  Then the command ``sflp simulate --stack 10 --hands
1000`` in a new process with an empty cache folder (numba compiles its kernels), again with the
kernels cached, and the size of numba's kernels in that folder.

    python benchmarks/bench_simulate.py [--hands 2000000] [--runs 3] [--record]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from _common import Record, cold_command, machine, peak_rss, report

from sflp.core.game import GameConfig
from sflp.solving.solver import solve
from sflp.study.simulate import simulate

CONFIGS = {
    "10 bb, no antes": GameConfig(stack=10),
    "10 bb, ante 0.1, BB ante 1": GameConfig(stack=10, ante=0.1, bb_ante=1),
    "25 bb, no antes": GameConfig(stack=25),
}
RECORD = Record("simulate")


def cold_runs(runs: int) -> None:
    """``sflp simulate`` in new processes: with an empty cache folder, then with numba's kernels in it."""
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "SFLP_CACHE_DIR": tmp}
        cmd = [sys.executable, "-m", "sflp", "simulate", "--stack", "10", "--hands", "1000"]
        cold = cold_command(cmd, 1, env)
        numba = sum(p.stat().st_size for p in (Path(tmp) / "numba").rglob("*") if p.is_file())
        warm = cold_command(cmd, runs, env)
    report("`sflp simulate --stack 10 --hands 1000`, new process, empty cache folder (numba compiles)", cold)
    report("the same, numba's kernels in the cache folder", warm)
    print(f"numba's kernels in the cache folder: {numba / 1e6:.2f} MB")
    RECORD.timing("cold_compile", cold, "sflp simulate --stack 10 --hands 1000, empty cache folder", sig=3)
    RECORD.timing("cold_cached", warm, "the same, numba's kernels cached", sig=3)
    RECORD.put("cache.numba_mb", round(numba / 1e6, 3), f"{numba / 1e6:.2f} MB", "numba's kernels after simulate")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2_000_000)
    parser.add_argument("--runs", type=int, default=3)
    RECORD.arguments(parser)
    args = parser.parse_args()
    RECORD.use(args)
    print(f"machine: {machine()}")
    start = time.perf_counter()
    simulate(GameConfig(stack=10), 2, seed=0)  # solve + JIT (or numba cache load)
    print(f"first call (solve, cvxpy import, JIT/cache load): {time.perf_counter() - start:.2f} s; {peak_rss()}")
    for name, config in CONFIGS.items():
        solution = solve(config)
        rates, wall = [], []
        for run in range(args.runs):
            t0 = time.perf_counter()
            report = simulate(config, args.hands, seed=run, solution=solution)
            wall.append(time.perf_counter() - t0)
            rates.append(report.hands_per_minute)
        print(
            f"{name:<28} {args.hands:,} hands x {args.runs}: median {statistics.median(rates) / 1e6:,.0f} M "
            f"hands/minute (loop {args.hands * 60 / statistics.median(rates):.3f} s, "
            f"call incl. exact value {statistics.median(wall):.3f} s); last run z = {report.z_score:+.2f}; {peak_rss()}"
        )
        if name == "10 bb, no antes":
            rate = statistics.median(rates)
            RECORD.put("rate_10bb", round(rate), f"{rate / 1e6:,.0f} M hands/minute", "simulate at 10 bb, one core")
    cold_runs(args.runs)
    RECORD.write()


if __name__ == "__main__":
    main()
