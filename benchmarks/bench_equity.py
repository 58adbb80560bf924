"""Equity table: full build from scratch, load time, evaluator throughput.

    python benchmarks/bench_equity.py [--runs N] [--skip-build]

The build writes into a temporary folder (the shipped table is not touched) and its checksum
must equal the shipped one (the build is deterministic).
"""

from __future__ import annotations

import argparse
import tempfile

import numpy as np
from _common import machine, median_time, peak_rss, report

from sflp.core import equity as eq
from sflp.core.cards import COMBO_CARDS
from sflp.core.equity_build import _board_values, canonical_boards
from sflp.core.evaluator import STRAIGHT_TOP


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--skip-build", action="store_true")
    args = parser.parse_args()
    print(f"machine: {machine()}")

    # warm numba's cache so compile time is not counted
    boards, orbit = canonical_boards()
    _board_values(boards[:10], COMBO_CARDS.astype(np.int64), STRAIGHT_TOP)

    if not args.skip_build:
        shipped = eq.read_checksum()
        with tempfile.TemporaryDirectory() as tmp:
            def build():
                eq.build_table(tmp)

            seconds, times = median_time(build, args.runs)
            assert eq.read_checksum(tmp) == shipped, "rebuilt table differs from the shipped one"
        report("full table build from scratch (134,459 boards, 1326x1326 wins)", seconds, times, "<= 30 s")

    def load():
        eq.load_table_from(eq.default_data_dir())

    seconds, times = median_time(load, max(5, args.runs))
    report("table load + SHA-256 check + class aggregates", seconds, times, "<= 0.3 s")

    part = boards[:20000]
    combos = COMBO_CARDS.astype(np.int64)
    seconds, times = median_time(lambda: _board_values(part, combos, STRAIGHT_TOP), args.runs)
    evals = len(part) * 1326
    print(f"evaluator throughput (7-card, both cores, incl. dead combos): "
          f"{evals / seconds / 1e6:.1f} M hands/s (median of {args.runs}); {peak_rss()}")


if __name__ == "__main__":
    main()
