"""Benchmark the approximate solvers (sflp.approx).  Run: ``python benchmarks/bench_approx.py [--record]``.

Prints, as the median of ``--repeats`` runs (default 3):

1. the time CFR+ needs to bring the total exploitability to <= 1e-6 bb at 10 bb -- solver time
   (the exploitability checks, every 10 iterations, excluded) and wall time (checks included);
2. the total exploitability each method reaches in ``--seconds`` (default 2) of solver time at
   10 bb, with the iterations done.

Part 1 also gives CFR+'s solver seconds per iteration.

All in one process on one core: solver seconds are the solver's own clock (wall).
``--skip-fixed`` leaves out part 2.  ``--out DIR`` also writes approx_bench.csv / approx_bench.png
for the stacks 5, 10 and 20 bb.
"""

from __future__ import annotations

import argparse
import statistics
import time

from _common import Record, peak_rss, seconds_text

from sflp.approx import METHODS, approx_bench, cfr_plus, run
from sflp.approx.common import reference_for
from sflp.core.game import GameConfig

RECORD = Record("approx")


def cfr_time_to_target(config: GameConfig, target: float, repeats: int) -> dict:
    """Median solver seconds, wall seconds and iterations for CFR+ to reach ``target``."""
    reference_for(config)  # the exact solve is the yardstick, not part of the timing
    solver_s, wall_s, iters, reached = [], [], [], []
    for _ in range(repeats):
        t0 = time.perf_counter()
        result = cfr_plus(config, iterations=1_000_000, seed=0, trace_every=10, target=target)
        wall_s.append(time.perf_counter() - t0)
        solver_s.append(result.seconds)
        iters.append(result.iterations)
        reached.append(result.exploitability)
    return {
        "solver_seconds": statistics.median(solver_s),
        "wall_seconds": statistics.median(wall_s),
        "iterations": int(statistics.median(iters)),
        "exploitability": statistics.median(reached),
        "reached": all(e <= target for e in reached),
    }


def short_e(x: float) -> str:
    """``4.9e-9``: two significant digits, the exponent without padding."""
    mantissa, exponent = f"{x:.1e}".split("e")
    return f"{mantissa}e{int(exponent)}"


def fixed_time(config: GameConfig, seconds: float, repeats: int) -> list[tuple[str, float, int]]:
    """``(method, median exploitability, median iterations)`` after ``seconds`` of solver time."""
    rows = []
    for method in METHODS:
        results = [run(method, config, seconds=seconds, seed=seed) for seed in range(repeats)]
        rows.append(
            (
                method,
                statistics.median(r.exploitability for r in results),
                int(statistics.median(r.iterations for r in results)),
            )
        )
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stack", type=float, default=10.0)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--target", type=float, default=1e-6)
    parser.add_argument("--out", default=None, help="also write approx_bench.csv/.png here (5, 10, 20 bb)")
    parser.add_argument("--skip-fixed", action="store_true", help="only part 1")
    RECORD.arguments(parser)
    args = parser.parse_args(argv)
    RECORD.use(args)
    config = GameConfig(stack=args.stack)

    c = cfr_time_to_target(config, args.target, args.repeats)
    print(f"CFR+ to total exploitability <= {args.target:g} bb at {args.stack:g} bb "
          f"(median of {args.repeats}):")
    print(f"  {c['solver_seconds'] * 1e3:8.1f} ms solver time, {c['wall_seconds'] * 1e3:8.1f} ms wall "
          f"(with checks every 10 iterations), {c['iterations']:,} iterations, "
          f"reached {c['exploitability']:.3e}{'' if c['reached'] else '  (TARGET NOT REACHED)'}; {peak_rss()}")
    if c["reached"]:
        RECORD.put("cfr_plus_1e-6.solver", round(c["solver_seconds"], 6), seconds_text(c["solver_seconds"], 2),
                   f"CFR+ solver seconds to exploitability <= {args.target:g} bb at {args.stack:g} bb")
        RECORD.put("cfr_plus_1e-6.iterations", c["iterations"], f"{c['iterations']:,}",
                   f"CFR+ iterations to exploitability <= {args.target:g} bb at {args.stack:g} bb")
        per = c["solver_seconds"] / c["iterations"]
        RECORD.put("cfr_plus.per_iteration", round(per, 9), seconds_text(per, 2),
                   f"CFR+ solver seconds per iteration at {args.stack:g} bb (on the 169 x 169 matrix form)")
    if args.skip_fixed:
        RECORD.write()
        return

    RECORD.put("fixed.seconds", args.seconds, f"{args.seconds:g} s",
               "each method's budget of solver time in part 2 (--seconds)")
    print(f"\nTotal exploitability after {args.seconds:g} s at {args.stack:g} bb "
          f"(median of {args.repeats} runs, seeds 0..{args.repeats - 1}):")
    print(f"  {'method':<16} {'exploitability (bb)':>20} {'iterations':>12}")
    for method, expl, iters in fixed_time(config, args.seconds, args.repeats):
        print(f"  {method:<16} {expl:>20.3e} {iters:>12,}")
        RECORD.put(f"fixed_{args.seconds:g}s.{method}", expl, short_e(expl),
                   f"total exploitability after {args.seconds:g} s of solver time at {args.stack:g} bb")
    print(f"  ({peak_rss()})")

    if args.out:
        from sflp.views.bench_files import write_approx_bench

        paths = write_approx_bench(approx_bench(seconds=args.seconds), args.out)
        for kind, path in paths.items():
            print(f"wrote {kind}: {path}")
    RECORD.write()


if __name__ == "__main__":
    main()
