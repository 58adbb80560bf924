"""Benchmark of sflp.study.sc: the exact Sklansky-Chubukov numbers of all 169 hands.

Run:  python benchmarks/bench_sc.py [--runs 5]

Prints the median wall time of ``--runs`` warm calls of :func:`sflp.study.sc.sc_numbers` (the equity
table already loaded) for three blind structures, and how many hands needed the slow all-integer
fallback (0 expected).  Target (issue 8, the chart job's budget): <= 0.05 s per structure.
"""

from __future__ import annotations

import argparse
from fractions import Fraction

from _common import machine, median_time, report

import sflp.study.sc as sc
from sflp.core.equity import load_table
from sflp.core.game import GameConfig


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    print(f"machine: {machine()}")
    load_table()
    fallbacks = []
    exact = sc._hand_sc_exact

    def counted(*a):
        fallbacks.append(a[0])
        return exact(*a)

    sc._hand_sc_exact = counted
    for label, config in (
        ("blinds 0.5/1", GameConfig(stack=10)),
        ("blinds 0.5/1, ante 0.125", GameConfig(stack=10, ante=0.125)),
        ("blinds 0.5/1, BB ante 1/7", GameConfig(stack=10, bb_ante=Fraction(1, 7))),
    ):
        sc.sc_numbers(config)  # warm
        fallbacks.clear()
        seconds, times = median_time(lambda c=config: sc.sc_numbers(c), args.runs)
        report(f"sc_numbers, {label} ({len(fallbacks) // args.runs} fallbacks)", seconds, times, "<= 0.05 s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
