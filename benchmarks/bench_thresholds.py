"""Benchmark of sflp.solving.thresholds: exact thresholds of all 169 x 2 hands by path following.

Run:  python benchmarks/bench_thresholds.py [--runs 3]

Prints, for 1-200 bb and 1-25 bb (blinds 0.5/1, no ante), the median wall time of ``--runs``
runs of :func:`sflp.solving.thresholds.compute_thresholds`, after one untimed cold run (loading the
equity table and compiling the LP), and the number of breakpoints, segments, LP solves and
pivots (supports found without an LP).  Target: <= 30 s for 1-200 bb.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time

from _common import peak_rss

from sflp.core.game import GameConfig
from sflp.solving.thresholds import compute_thresholds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    config = GameConfig(stack=10)

    print(f"machine: {platform.platform()}, python {platform.python_version()}, "
          f"os.cpu_count()={os.cpu_count()}")
    t0 = time.perf_counter()
    compute_thresholds(config, 1.0, 25.0)
    print(f"cold run 1-25 bb (table load + LP compile): {time.perf_counter() - t0:.2f} s; {peak_rss()}")

    for low, high in ((1.0, 200.0), (1.0, 25.0)):
        times = []
        result = None
        for _ in range(args.runs):
            t0 = time.perf_counter()
            result = compute_thresholds(config, low, high)
            times.append(time.perf_counter() - t0)
        assert result is not None
        print(
            f"exact thresholds {low:g}-{high:g} bb, 169x2 hands: median {statistics.median(times):.3f} s "
            f"of {args.runs} runs (min {min(times):.3f}, max {max(times):.3f}); "
            f"{len(result.breakpoints)} breakpoints, {len(result.segments)} segments, "
            f"{result.lp_solves} LP solves, {result.pivots} pivots; {peak_rss()}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
