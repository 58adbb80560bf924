"""The core at the LP limit: each figure as sflp's time, bare HiGHS's time on the same LP, and the ratio.

    python benchmarks/bench_core.py [--rounds 3] [--skip-combo] [--large] [--record]

The reference ("highspy direct") is the push/fold LP of :mod:`sflp.solving.lp` written straight into
highspy from the same payoff matrices, in this process, without sflp's code: columns ``x``
(bounds [0, 1]) and ``z`` (bounds (-inf, 0]), rows ``z_j - sum_i D K[i,j] x_i <= 0``, the column
structure built once, and at each stack the matrix values set, the model passed, the previous
basis handed back and the simplex run (the best a hand-written highspy loop does).  Each row is
measured in ``--rounds`` alternating rounds (sflp, reference, sflp, ...); the medians of the wall
seconds are printed with their ratio, the CPU seconds (this process and its waited-for workers)
beside them, and the peak RSS.  Every target here means **wall** seconds in this process on the
machine at hand (issue 20): warm solve <= 1.5x the reference, combo re-solve <= 1.5x, a stack read
off the exact path <= 25 us, cold ``sflp solve --stack 10`` <= 0.6 s.  ``solve_many`` over 1,000
stacks does not do the reference's work (fewer LPs, every answer checked, forked workers), so it
is printed as stacks per second with its LPs, processes and CPU seconds, beside a one-process
row (:func:`sweep_rows`); its target, the default's stacks/s >= the reference's, compares what a
user gets, not equal work.  ``--record`` writes ``benchmarks/results/core.json``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
from _common import Record, Timing, cold_command, machine, measure, peak_rss, timed

from sflp.core.game import DEALS, GameConfig, PushFoldGame

RECORD = Record("core")

# the cache of compiled LPs lives in a fresh folder: the first solve of each run compiles
os.environ.setdefault("SFLP_CACHE_DIR", tempfile.mkdtemp(prefix="sflp-bench-cache-"))


class DirectHighs:
    """The push/fold LP in highspy, written by hand (the reference)."""

    def __init__(self, game: PushFoldGame):
        import highspy

        p = game.payoffs
        n = p.K0.shape[0]
        D = float(DEALS)
        from sflp.quiet import native_output

        with native_output():  # HiGHS >= 1.16 prints a banner on stdout when the object is made
            self.h = highspy.Highs()
        self.h.setOptionValue("output_flag", False)
        inf = highspy.kHighsInf
        self.cost = np.concatenate([-(p.g - p.f) * D * p.r, -np.ones(n)])  # maximise = minimise -obj
        self.offset = -D * p.f
        self.col_lower = np.concatenate([np.zeros(n), np.full(n, -inf)])
        self.col_upper = np.concatenate([np.ones(n), np.zeros(n)])
        self.row_lower, self.row_upper = np.full(n, -inf), np.zeros(n)
        # column i of x holds -D K[i, :] (rows j), then the identity for z; HiGHS's C-style
        # passModel with numpy arrays (the fastest way in)
        self.start = np.concatenate([np.arange(n) * n, n * n + np.arange(n)]).astype(np.int32)
        self.index = np.concatenate([np.tile(np.arange(n), n), np.arange(n)]).astype(np.int32)
        self.v0 = np.concatenate([(-D * p.K0).ravel(), np.ones(n)])
        self.v1 = np.concatenate([(-D * p.K1).ravel(), np.zeros(n)])
        self.n, self.basis = n, None

    def solve(self, stack: float) -> float:
        n = self.n
        self.h.passModel(2 * n, n, len(self.index), 1, 1, self.offset, self.cost, self.col_lower, self.col_upper,
                         self.row_lower, self.row_upper, self.start, self.index, self.v0 + stack * self.v1,
                         np.zeros(2 * n, dtype=np.int32))
        if self.basis is not None:
            self.h.setBasis(self.basis)
        self.h.run()
        self.basis = self.h.getBasis()
        solution = self.h.getSolution()
        np.asarray(solution.col_value)[:n], np.asarray(solution.row_dual)  # read the answer
        return -self.h.getInfo().objective_function_value / DEALS


def alternate(rounds: int, ours, reference) -> tuple[Timing, Timing]:
    """Wall and CPU seconds of ``ours`` and ``reference``, measured in alternating rounds."""
    a, b = Timing(), Timing()
    for _ in range(rounds):
        timed(ours, a)
        timed(reference, b)
    return a, b


def row(what: str, ours: Timing | float, ref: Timing | None, unit: str = "s", target: str = "",
        per: int = 1) -> None:
    """One figure: sflp's and the reference's median wall seconds (and CPU seconds), divided by
    ``per`` (the stacks of a loop), the wall ratio, the target (each target here is a wall ratio
    or a wall time, in this one process)."""
    scale = {"s": 1.0, "ms": 1e3, "us": 1e6}[unit] / per
    mine = ours if isinstance(ours, Timing) else Timing([ours], [])

    def both(t: Timing) -> str:
        cpu = f" (CPU {t.cpu * scale:.3f})" if t.cpus else ""
        return f"{t.wall * scale:9.3f} {unit}{cpu}"

    ref_text = both(ref) if ref is not None else "--"
    ratio = f"{mine.wall / ref.wall:6.2f}x" if ref else "--"
    print(f"{what:<58} {both(mine):>26}  {ref_text:>26}  {ratio:>7}  {target:<12} {peak_rss()}")
    sys.stdout.flush()


def sweep_rows(rounds: int, grid, base, direct_solve, rec: Record) -> None:
    """``solve_many`` over 1,000 stacks against 1,000 bare-HiGHS solves, as what each is.

    The two do not do the same work: sflp visits the stacks in order, tries the previous stack's
    support and a repaired one before an LP, and checks every answer by best responses, on
    ``workers`` forked processes; the reference solves an LP at each of the 1,000 stacks in this
    process, warm from the previous basis, and checks nothing.  So each row is **stacks per
    second** (wall) beside the LPs solved, the processes and the CPU seconds; the target compares
    stacks per second of the two *as a user gets them*, not equal work."""
    from collections import Counter

    from sflp.solving.solver import _workers, solve_many

    def reference():
        for s in grid:
            direct_solve(float(s))

    n = len(grid)
    print(f"\nsolve_many over {n:,} stacks 1-100 bb (each answer checked by best responses) against {n:,} "
          "bare-HiGHS LPs (no check): not the same work; stacks per second of each as a user gets them")
    print(f"  {'':<34} {'stacks/s':>9} {'wall s':>7} {'CPU s':>7} {'LPs':>6} {'processes':>10}")
    ref_t = Timing()
    rows = []
    for label, workers in (("default", None), ("one process", 1)):
        t = Timing()
        for _ in range(rounds):
            sols = timed(lambda w=workers: solve_many(grid, base, workers=w), t)
            timed(reference, ref_t)
        methods = Counter(s.method for s in sols)
        procs = _workers(workers, n)
        rows.append((label, t, methods, procs))
    rate_ref = n / ref_t.wall
    print(f"  {'highspy direct (reference)':<34} {rate_ref:9.0f} {ref_t.wall:7.2f} {ref_t.cpu:7.2f} {n:>6} "
          f"{'1':>10}")
    rec.put("sweep.reference.stacks_per_s", round(rate_ref, 1), f"{rate_ref:,.0f}", "stacks/s, bare HiGHS")
    rec.timing("sweep.reference", ref_t, f"{n} bare-HiGHS LPs")
    for label, t, methods, procs in rows:
        rate = n / t.wall
        shown = f"{procs} forked" if procs > 1 else "1"
        detail = ", ".join(f"{k} {v}" for k, v in sorted(methods.items()))
        print(f"  {'solve_many, ' + label:<34} {rate:9.0f} {t.wall:7.2f} {t.cpu:7.2f} {methods.get('lp', 0):>6} "
              f"{shown:>10}   ({detail}); {rate / rate_ref:.2f}x the reference's stacks/s")
        key = "sweep.default" if label == "default" else "sweep.one_process"
        rec.put(f"{key}.stacks_per_s", round(rate, 1), f"{rate:,.0f}", f"stacks/s, solve_many {label}")
        rec.put(f"{key}.speed_ratio", round(rate / rate_ref, 3), f"{rate / rate_ref:.2f}×",
                "stacks/s against the reference's stacks/s (not equal work)")
        rec.put(f"{key}.lps", methods.get("lp", 0), f"{methods.get('lp', 0):,}", "LPs solved")
        rec.put(f"{key}.methods", dict(methods), detail, "how each stack was solved")
        rec.put(f"{key}.processes", procs, shown, "worker processes")
        rec.timing(key, t, f"solve_many {label}, {n} stacks")
    print("  target: solve_many's default >= the reference's stacks/s (wall, this machine); the CPU column is "
          "the whole cost (the workers' included)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--skip-combo", action="store_true")
    parser.add_argument("--large", action="store_true", help="also the solver part of the 1-1000 @0.01 chart (~30 s)")
    RECORD.arguments(parser)
    args = parser.parse_args()
    RECORD.use(args)
    rounds = max(3, args.rounds)
    rec = RECORD

    from sflp.solving.lp import lp_for
    from sflp.solving.solver import iter_blocks, iter_solve, solve
    from sflp.solving.thresholds import compute_thresholds

    print(f"machine: {machine()}; medians of {rounds} alternating rounds")
    print(f"{'figure':<58} {'sflp wall (CPU)':>26}  {'highspy direct wall (CPU)':>26}  {'ratio':>7}  {'target':<12}")
    base = GameConfig(stack=10)
    game = PushFoldGame(base)
    direct = DirectHighs(game)
    direct.solve(10.0)
    solve(base)  # compile (or load) the LP once, not timed

    stacks50 = np.linspace(5, 15, 50)

    def direct50():
        for s in stacks50:
            direct.solve(float(s))

    def solve50():
        for s in stacks50:
            solve(base.with_stack(float(s)))

    lp = lp_for(game)

    def lp50():
        for s in stacks50:
            lp.solve(float(s))

    ours, ref = alternate(rounds, solve50, direct50)
    row("sflp.solve at a new stack, warm (50 stacks 5-15 bb)", ours, ref, "ms", "<= 1.5x", per=50)
    rec.seconds("solve_warm.wall", ours.wall / 50, "wall: sflp.solve at a new stack, warm, per stack")
    rec.seconds("solve_warm.reference.wall", ref.wall / 50, "wall: the same LP in highspy, per stack")
    rec.put("solve_warm.ratio", round(ours.wall / ref.wall, 3), f"{ours.wall / ref.wall:.2f}×", "wall ratio")
    ours, ref = alternate(rounds, lp50, direct50)
    row("class LP re-solve alone (50 stacks 5-15 bb)", ours, ref, "ms", "<= 1.5x", per=50)
    rec.seconds("lp_resolve.wall", ours.wall / 50, "wall: class LP re-solve, per stack")
    rec.seconds("lp_resolve.reference.wall", ref.wall / 50, "wall: the same in highspy, per stack")
    rec.put("lp_resolve.ratio", round(ours.wall / ref.wall, 3), f"{ours.wall / ref.wall:.2f}×", "wall ratio")

    sweep_rows(rounds, np.linspace(1, 100, 1000), base, direct.solve, rec)
    print()

    grid200 = np.linspace(1, 200, 200)

    def direct200():
        for s in grid200:
            direct.solve(float(s))

    ours, ref = alternate(rounds, lambda: compute_thresholds(base, 1.0, 200.0), direct200)
    row("exact thresholds 1-200 bb (reference: 200 LPs)", ours, ref, "s")

    path = compute_thresholds(base, 1.0, 200.0)
    read_grid = np.round(np.arange(1.0, 200.0 + 1e-9, 0.01), 2)
    for _ in iter_blocks(read_grid[:3000], base, path=path, compiled=True):
        pass  # import numba and load the compiled kernels once (about 0.7 s), not timed

    def read_blocks():
        return sum(len(b) for b in iter_blocks(read_grid, base, path=path))

    t = measure(read_blocks, rounds)
    n_read = len(read_grid)
    row(f"a certified stack read off the exact path ({n_read:,} stacks 1-200 @0.01, blocks)", t, None, "us",
        "<= 25 us", per=n_read)
    rec.seconds("read_block.wall", t.wall / n_read, f"wall: a certified stack read off the path ({n_read} stacks)",
                sig=3)
    grid_c = np.round(np.arange(1.0, 200.0 + 1e-9, 0.05), 2)
    t = measure(lambda: list(iter_solve(grid_c, base, exact=True, path=path)), 1)
    row(f"the same as Solution objects ({len(grid_c):,} stacks 1-200 @0.05, iter_solve)", t, None, "us",
        per=len(grid_c))
    rec.seconds("read_solution.wall", t.wall / len(grid_c), "wall: the same as Solution objects", sig=3)

    if args.large:
        grid_l = np.round(np.arange(1.0, 1000.0 + 1e-9, 0.01), 2)
        totals, parts = [], []
        for _ in range(rounds):
            t0 = time.perf_counter()
            big = compute_thresholds(base, 1.0, 1000.0)
            t1 = time.perf_counter()
            n_done = sum(len(b) for b in iter_blocks(grid_l, base, path=big))  # as a chart job streams it
            totals.append(time.perf_counter() - t0)
            parts.append((t1 - t0, time.perf_counter() - t1))
        k = totals.index(statistics.median(totals))
        row(f"solver part of the 1-1000 @0.01 chart ({n_done:,} certified stacks, blocks)", totals[k], None, "s",
            "<= 3 s")
        print(f"    of which thresholds {parts[k][0]:.2f} s, the stacks {parts[k][1]:.2f} s "
              f"({parts[k][1] / n_done * 1e6:.1f} us a stack)")
        t0 = time.perf_counter()
        n_done = sum(1 for _ in iter_solve(grid_l, base, exact=True, path=big))
        row("  the same stacks as Solution objects (iter_solve, after the thresholds)", time.perf_counter() - t0,
            None, "s")

    if not args.skip_combo:
        combo = PushFoldGame(base, None, "combo")
        combo_direct = DirectHighs(combo)
        combo_lp = lp_for(combo)
        combo_lp.solve(10.0)
        combo_direct.solve(10.0)
        it = iter(np.linspace(10.1, 12, 40))
        ours, ref = Timing(), Timing()
        for _ in range(rounds):
            s = float(next(it))
            timed(lambda s=s: combo_lp.solve(s), ours)
            timed(lambda s=s: combo_direct.solve(s), ref)
        row("combo-level (1,326) LP re-solve", ours, ref, "s", "<= 1.5x")
        rec.seconds("combo_resolve.wall", ours.wall, "wall: combo-level LP re-solve", sig=3)
        rec.seconds("combo_resolve.reference.wall", ref.wall, "wall: the same in highspy", sig=3)
        rec.put("combo_resolve.ratio", round(ours.wall / ref.wall, 3), f"{ours.wall / ref.wall:.2f}×", "wall ratio")

    exe = shutil.which("sflp") or os.path.join(os.path.dirname(sys.executable), "sflp")
    if os.path.exists(exe):
        cmd = [exe, "solve", "--stack", "10", "--json"]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)  # fills the cache folder: not timed
        t = cold_command(cmd, rounds + 1)
        row("cold `sflp solve --stack 10 --json`, whole process", t, None, "s", "<= 0.6 s")
        rec.timing("cold_solve", t, "sflp solve --stack 10 --json in a new process, LP cached")
    RECORD.write()


if __name__ == "__main__":
    main()
