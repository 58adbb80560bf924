"""Benchmark of sflp.study.sc: the exact Sklansky-Chubukov numbers of all 169 hands.

Run:  python benchmarks/bench_sc.py [--runs 5] [--record]

Prints the median wall time of ``--runs`` warm calls of :func:`sflp.study.sc.sc_numbers` (the equity
table already loaded) for three blind structures, and how many hands needed the slow all-integer
fallback (0 expected).  Target (issue 8, the chart job's budget): <= 0.05 s wall per structure
(one process; CPU printed beside it).
"""

from __future__ import annotations

import argparse
from fractions import Fraction

from _common import Record, machine, measure, report

import sflp.study.sc as sc
from sflp.core.equity import load_table
from sflp.core.game import GameConfig

RECORD = Record("sc")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    RECORD.arguments(parser)
    args = parser.parse_args(argv)
    RECORD.use(args)
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
        t = measure(lambda c=config: sc.sc_numbers(c), args.runs)
        report(f"sc_numbers, {label} ({len(fallbacks) // args.runs} fallbacks)", t, target="wall <= 0.05 s")
        if label == "blinds 0.5/1":
            RECORD.timing("no_ante", t, "exact SC numbers of 169 hands, warm", sig=3)
    RECORD.write()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
