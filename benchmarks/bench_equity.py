"""Equity table: full build from scratch, load time, evaluator throughput.

    python benchmarks/bench_equity.py [--runs N] [--skip-build] [--record]

The build writes into a temporary folder (the shipped table is not touched) and its checksum
must equal the shipped one (the build is deterministic).  It runs numba kernels on every core:
its wall seconds are what a user waits here, its CPU seconds (this process, numba's threads
included) what it costs.  Targets (wall): build <= 30 s, load <= 0.3 s.  A fresh cache folder
is used, and the size of numba's kernels in it after the build is printed.
"""

from __future__ import annotations

import argparse
import tempfile

import numpy as np
from _common import Record, machine, measure, peak_rss, report

from sflp.core import equity as eq
from sflp.core.cards import COMBO_CARDS
from sflp.core.equity_build import _board_values, canonical_boards
from sflp.core.evaluator import STRAIGHT_TOP

RECORD = Record("equity")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--skip-build", action="store_true")
    RECORD.arguments(parser)
    args = parser.parse_args()
    RECORD.use(args)
    print(f"machine: {machine()}")

    # warm numba's cache so compile time is not counted
    boards, orbit = canonical_boards()
    _board_values(boards[:10], COMBO_CARDS.astype(np.int64), STRAIGHT_TOP)

    if not args.skip_build:
        shipped = eq.read_checksum()
        with tempfile.TemporaryDirectory() as tmp:
            def build():
                eq.build_table(tmp)

            t = measure(build, args.runs)
            assert eq.read_checksum(tmp) == shipped, "rebuilt table differs from the shipped one"
        report("full table build from scratch (134,459 boards, 1326x1326 wins)", t, target="wall <= 30 s")
        RECORD.timing("build", t, "full table build from scratch")

    def load():
        eq.load_table_from(eq.default_data_dir())

    t = measure(load, max(5, args.runs))
    report("table load + SHA-256 check + class aggregates", t, target="wall <= 0.3 s")
    RECORD.timing("load", t, "table load + SHA-256 check + class aggregates")

    part = boards[:20000]
    combos = COMBO_CARDS.astype(np.int64)
    t = measure(lambda: _board_values(part, combos, STRAIGHT_TOP), args.runs)
    evals = len(part) * 1326
    print(f"evaluator throughput (7-card, every core, incl. dead combos): "
          f"{evals / t.wall / 1e6:.1f} M hands/s of wall time, {evals / t.cpu / 1e6:.1f} M hands per CPU second "
          f"(median of {args.runs}); {peak_rss()}")
    RECORD.put("evaluator.per_wall_s", round(evals / t.wall), f"{evals / t.wall / 1e6:.0f} M hands/s",
               "7-card evaluations per wall second, every core")
    RECORD.put("evaluator.per_cpu_s", round(evals / t.cpu), f"{evals / t.cpu / 1e6:.0f} M hands/s",
               "7-card evaluations per CPU second")
    RECORD.write()


if __name__ == "__main__":
    main()
