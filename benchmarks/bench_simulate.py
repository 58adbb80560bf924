"""Benchmark: hands per minute of ``sflp.study.simulate.simulate`` (dealing, acting, evaluating, settling).

Median of 3 runs per configuration, each of ``--hands`` hands on one core (the loop is
single-threaded numba).  The timed part is :attr:`SimulationReport.seconds`: the random draws,
the deal and the settlement, not the solve or the JIT compilation (done by a warm-up run).

    python benchmarks/bench_simulate.py [--hands 2000000] [--runs 3]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time

from _common import peak_rss

from sflp.core.game import GameConfig
from sflp.solving.solver import solve
from sflp.study.simulate import simulate

CONFIGS = {
    "10 bb, no antes": GameConfig(stack=10),
    "10 bb, ante 0.1, BB ante 1": GameConfig(stack=10, ante=0.1, bb_ante=1),
    "25 bb, no antes": GameConfig(stack=25),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2_000_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print(f"machine: {platform.machine()} {platform.processor() or ''}, {os.cpu_count()} CPUs, "
          f"Python {platform.python_version()}")
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


if __name__ == "__main__":
    main()
