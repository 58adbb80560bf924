"""The main job with one process (the default) against one and two forked writers, side by side.

Run:  python benchmarks/bench_chart_workers.py [--runs 3] [--record]

``sflp chart --stacks 1:25:0.05`` in fresh processes (a first run fills a fresh cache folder and is
not timed), ``--runs`` times each with ``--workers 0``, ``1`` and ``2`` in turn, then one more run
of each that samples the process tree's summed PSS: wall seconds, CPU seconds of every process and
peak memory, each also as a ratio to the default measured in the same run (equal work: the same
files, byte for byte).  This is :func:`bench_chart.workers_table` alone, recorded in
``benchmarks/results/chart_workers.json`` (issue 53 item 2: workers only where a benchmark shows
that they pay).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from _common import Record, machine
from bench_chart import SIZES, one_run, workers_table

RECORD = Record("chart_workers")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    RECORD.arguments(parser)
    args = parser.parse_args(argv)
    RECORD.use(args)
    stacks = SIZES["small"][0]
    print(f"machine: {machine()}")
    with tempfile.TemporaryDirectory() as tmp:
        env = {"SFLP_CACHE_DIR": str(Path(tmp) / "cache")}
        one_run(stacks, Path(tmp) / "first", memory=False, env=env)  # fills the cache folder: not timed
        print(f"\nsflp chart --stacks {stacks}, medians of {args.runs} fresh runs each")
        workers_table(stacks, args.runs, Path(tmp), env, RECORD)
    RECORD.write()
    return 0


if __name__ == "__main__":
    sys.exit(main())
