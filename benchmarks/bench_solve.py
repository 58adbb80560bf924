"""Solver speed: LP re-solves, single stack warm, cold CLI process, 1,000-stack sweep, certificate.

    python benchmarks/bench_solve.py [--runs N] [--record]

Every figure is wall seconds (median) with CPU seconds beside it; the targets mean wall seconds.
"""

from __future__ import annotations

import argparse
import collections
import shutil
import sys

import numpy as np
from _common import Record, cold_command, machine, measure, report

from sflp.core.game import GameConfig, PushFoldGame
from sflp.solving.lp import lp_for
from sflp.solving.solver import solve, solve_many

RECORD = Record("solve")


def lp_resolves(level: str, runs: int) -> None:
    """The compiled LP (cvxpy + HiGHS) re-solved at new stacks: a re-solve is never slower than cold."""
    lp = lp_for(PushFoldGame(GameConfig(stack=10), None, level))
    lp.solve(10.0)  # compile once (DPP); not timed
    stacks = iter(np.linspace(10.5, 14.5, runs))
    t = measure(lambda: lp.solve(float(next(stacks))), runs)
    target = "wall <= 0.015 s" if level == "class" else "wall <= 1.2 s"
    size = "169 classes" if level == "class" else "1,326 combos"
    report(f"{level}-level LP re-solve at a new stack ({size}, LP only)", t, target=target)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--skip-combo", action="store_true", help="leave out the combo-level LP (a long compile)")
    RECORD.arguments(parser)
    args = parser.parse_args()
    RECORD.use(args)
    print(f"machine: {machine()}")

    lp_resolves("class", args.runs * 4)
    if not args.skip_combo:
        lp_resolves("combo", args.runs)

    solve(GameConfig(stack=10))  # compile the LP once
    stacks = iter(np.linspace(5, 15, 1000))
    t = measure(lambda: solve(GameConfig(stack=float(next(stacks)))), args.runs * 4)
    report("single stack, warm (LP + polish + best-response check)", t, target="wall <= 0.05 s")

    exe = shutil.which("sflp")
    if exe:
        t = cold_command([exe, "solve", "--stack", "10", "--json"], args.runs)
        report("cold process `sflp solve --stack 10 --json`", t, target="wall <= 2 s")
        t = cold_command(
            [exe, "verify", "--stack", "10", "--sb", "22+,A2+,K9o+", "--bb", "22+,A2+", "--json"], args.runs
        )
        report("cold process `sflp verify` of one strategy pair", t, target="wall <= 2 s")
        RECORD.timing("cold_verify", t, "sflp verify of one strategy pair in a new process")

    grid = np.linspace(1, 100, 1000)
    last = {}

    def sweep():
        last["sols"] = solve_many(grid, GameConfig(stack=1))

    t = measure(sweep, args.runs)
    methods = collections.Counter(s.method for s in last["sols"])
    worst = max(s.exploitability for s in last["sols"])
    report(f"1,000 stacks 1-100 bb, each checked (max exploitability {worst:.1e}; {dict(methods)})",
           t, target="wall <= 3 s")

    try:
        from sflp.core.game import PushFoldGame
        from sflp.solving.certify import certify
    except ImportError:
        print("certify: not available", file=sys.stderr)
        RECORD.write()
        return
    sols = {s: solve(GameConfig(stack=s)) for s in (2, 5, 7.7, 10, 20, 50)}
    for s, sol in sols.items():
        game = PushFoldGame(sol.config)
        t = measure(lambda: certify(game, sol), args.runs)
        report(f"exact certificate at {s} bb", t, target="wall <= 0.2 s")
        if s == 10:
            RECORD.timing("certify_10bb", t, "exact certificate of one stack (certify), 10 bb")
    RECORD.write()


if __name__ == "__main__":
    main()
