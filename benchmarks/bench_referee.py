"""Benchmark of the fast referee (issue 45 item 4): ``sflp.Referee(config).score(push, call)``.

Run:  python benchmarks/bench_referee.py [--runs 5] [--stack 10] [--calls 20000] [--batch 1000] [--record]

Prints medians of ``--runs`` runs, in this process, of

* setup: ``Referee(config)`` (the exact payoffs rounded once; the equity table already loaded);
* one score: ``--calls`` calls of ``.score`` on random class-level policies, per call;
* the batched form: ``.score_many`` of ``--batch`` policies, per policy;
* the reference, the exact scorer on the same work: ``sflp.openspiel.verify`` of one policy
  (best responses in rationals), per call, and the ratio exact / fast;

wall and CPU seconds beside each other (one process: CPU and wall differ only by what other
programs take from it).  Target (issue 45): one score <= 100 us after setup; the batched form
far below that per policy.  With OpenSpiel installed, ``pyspiel.nash_conv`` of the same policy
is timed too, for scale.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np
from _common import Record, machine, measure

import sflp
from sflp.core.equity import load_table
from sflp.core.game import GameConfig

RECORD = Record("referee")
TARGET_US = 100.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--stack", type=float, default=10.0)
    parser.add_argument("--calls", type=int, default=20_000)
    parser.add_argument("--batch", type=int, default=1000)
    RECORD.arguments(parser)
    args = parser.parse_args(argv)
    RECORD.use(args)
    print(f"machine: {machine()}")
    load_table()
    config = GameConfig(stack=args.stack)
    rng = np.random.default_rng(45)
    X, Y = rng.uniform(size=(args.batch, 169)), rng.uniform(size=(args.batch, 169))

    setup = measure(lambda: sflp.Referee(config), args.runs)
    ref = sflp.Referee(config)
    pairs = [(X[k % args.batch], Y[k % args.batch]) for k in range(args.calls)]

    def scores():
        for x, y in pairs:
            ref.score(x, y)

    one = measure(scores, args.runs)
    many = measure(lambda: ref.score_many(X, Y), args.runs)
    tables = [sflp.openspiel.from_strategy(X[k], Y[k], config=config) for k in range(5)]

    def exact():
        for table in tables:
            sflp.openspiel.verify(table, config)

    sflp.openspiel.verify(tables[0], config)  # the equilibrium value is solved once, not timed
    slow = measure(exact, args.runs)
    per = {"setup": (setup.wall, setup.cpu), "score": (one.wall / args.calls, one.cpu / args.calls),
           "batched": (many.wall / args.batch, many.cpu / args.batch),
           "exact": (slow.wall / len(tables), slow.cpu / len(tables))}
    print(f"stack {args.stack:g} bb, medians of {args.runs} runs, per call (wall / CPU):")
    print(f"  setup Referee(config)         {per['setup'][0] * 1e3:9.2f} ms / {per['setup'][1] * 1e3:.2f} ms")
    print(f"  .score, one policy            {per['score'][0] * 1e6:9.2f} us / {per['score'][1] * 1e6:.2f} us"
          f"   ({args.calls:,} calls a run)")
    print(f"  .score_many, per policy       {per['batched'][0] * 1e6:9.2f} us / {per['batched'][1] * 1e6:.2f} us"
          f"   ({args.batch:,} policies a call)")
    print(f"  exact verify (reference)      {per['exact'][0] * 1e3:9.2f} ms / {per['exact'][1] * 1e3:.2f} ms")
    ratio = per["exact"][0] / per["score"][0]
    gain = per["score"][0] / per["batched"][0]
    print(f"  exact / fast: {ratio:,.0f}x (wall); fast / batched per policy: {gain:.1f}x")
    status = "OK" if per["score"][0] * 1e6 <= TARGET_US else "OVER TARGET"
    print(f"target: one score {per['score'][0] * 1e6:.1f} us <= {TARGET_US:g} us: {status}")
    try:
        import pyspiel
    except ImportError:
        pyspiel = None
    if pyspiel is not None:
        game = sflp.openspiel.load_game(config)
        policy = pyspiel.TabularPolicy(tables[0])
        spiel = measure(lambda: pyspiel.nash_conv(game, policy), max(1, args.runs // 2))
        print(f"  for scale, pyspiel.nash_conv of one policy: {spiel.wall * 1e3:.1f} ms wall / "
              f"{spiel.cpu * 1e3:.1f} ms CPU")
        RECORD.seconds("spiel_nash_conv", spiel.wall, "pyspiel.nash_conv of one policy, wall")
    RECORD.seconds("setup", per["setup"][0], "Referee(config) setup, wall")
    RECORD.put("score_us", round(per["score"][0] * 1e6, 2), f"{per['score'][0] * 1e6:.1f} µs",
               "one .score call, wall")
    RECORD.put("batched_us", round(per["batched"][0] * 1e6, 2), f"{per['batched'][0] * 1e6:.1f} µs",
               "per policy in .score_many of 1,000, wall")
    RECORD.put("exact_ms", round(per["exact"][0] * 1e3, 2), f"{per['exact'][0] * 1e3:.1f} ms",
               "exact verify of one policy, wall")
    RECORD.write()
    return 0


if __name__ == "__main__":
    sys.exit(main())
