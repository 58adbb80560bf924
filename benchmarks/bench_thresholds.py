"""Benchmark of sflp.solving.thresholds: exact thresholds of all 169 x 2 hands by path following.

Run:  python benchmarks/bench_thresholds.py [--runs 3] [--record]

Prints, for 1-200 bb and 1-25 bb (blinds 0.5/1, no ante), the median wall and CPU seconds of
``--runs`` runs of :func:`sflp.solving.thresholds.compute_thresholds` in this process (one
process: CPU and wall differ only by what other programs take from it), after one untimed cold
run (loading the equity table and compiling the LP), and the number of breakpoints, segments, LP
solves and pivots (supports found without an LP), and the wall seconds per segment of the path.
Targets (wall): <= 30 s for 1-200 bb; issue 34's, <= 0.25 s for 1-25 bb, <= 0.4 s for 1-200 bb
and <= 0.7 ms a segment.

Each range is also timed without the exact certificate of the thresholds (``certify=False``:
the float path alone), alternating with the certified runs in the same process, and the ratio
certified / float is printed in wall and in CPU seconds.  Target (CPU): the certificate
(:mod:`sflp.solving.threshcert`) costs at most 1.5x the float path.

The certificate alone (issue 53, point 3): :func:`sflp.solving.threshcert.certify_path` on the
float path's segments of each range, with the big margin rows float-first in one batched product
(the code) against the same call with every row made in exact integers first (``_EXACT_BIG_ROWS``,
the route before issue 53), alternating in this process on the same segments; CPU and wall
medians and the ratio new / old.  Both give the same certificate (checked each run).

The path without per-call overhead (issue 53, point 4): the float path (``certify=False``) of
each range with the pivots' candidates scored in one batch, their small systems and a piece's
2 x 2 determinants in closed form and each piece's fit one product (the code), against the same
call with the routes before issue 53 (one candidate at a time, LAPACK, a least-squares solve a
piece: the private switches ``follower._BATCHED``, ``support._CLOSED_FORM``,
``piece._FIT_ONCE``), alternating in this process; CPU and wall medians and the ratio new / old.
Both give the same supports and breakpoints to 1e-11 (checked each run).  The pieces' other
savings (systems read off in place, degrees without a loop, crossings in plain floats) have no
old route here and count on both sides.

The ante path (issue 35): the exact thresholds along the ante from 0 to 0.25 bb at 10 bb, against
a stack path with the same number of breakpoints (1 bb up to the stack halfway between that
path's n-th and (n+1)-th breakpoints), timed alternately in this process.  Target: the ante path
costs at most 2x the stack path (wall and CPU are printed; the target means both).
"""

from __future__ import annotations

import argparse
import sys
import time

from _common import Record, Timing, machine, peak_rss, report, timed

from sflp.core.game import GameConfig
from sflp.solving import threshcert
from sflp.solving.thresholds import compute_thresholds

RECORD = Record("thresholds")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    RECORD.arguments(parser)
    args = parser.parse_args(argv)
    RECORD.use(args)
    config = GameConfig(stack=10)

    print(f"machine: {machine()}")
    t0 = time.perf_counter()
    compute_thresholds(config, 1.0, 25.0)
    print(f"cold run 1-25 bb (table load + LP compile): {time.perf_counter() - t0:.2f} s; {peak_rss()}")

    for low, high in ((1.0, 200.0), (1.0, 25.0)):
        t, t_float = Timing(), Timing()
        for _ in range(args.runs):
            timed(lambda lo=low, hi=high: compute_thresholds(config, lo, hi, certify=False), t_float)
            result = timed(lambda lo=low, hi=high: compute_thresholds(config, lo, hi), t)
        what = f"exact thresholds {low:g}-{high:g} bb, 169x2 hands"
        report(what, t, target="wall <= 30 s" if high == 200 else "")
        report("    the same without the exact certificate (float path alone)", t_float)
        print(f"    certified / float: wall {t.wall / t_float.wall:.2f}x, CPU {t.cpu / t_float.cpu:.2f}x "
              f"(target CPU <= 1.5x); {result.certificate.exact_checks} exact integer checks")
        print(f"    {len(result.breakpoints)} breakpoints, {len(result.segments)} segments, "
              f"{result.lp_solves} LP solves, {result.pivots} pivots")
        key = f"{low:g}-{high:g}"
        RECORD.timing(key, t, what)
        RECORD.timing(f"{key}.float", t_float, what + ", float path without the certificate")
        RECORD.put(f"{key}.certificate_cpu_ratio", round(t.cpu / t_float.cpu, 2), f"{t.cpu / t_float.cpu:.2f}x",
                   "CPU of the certified thresholds over the float path's")
        RECORD.put(f"{key}.breakpoints", len(result.breakpoints), f"{len(result.breakpoints):,}", "breakpoints")
        RECORD.put(f"{key}.segments", len(result.segments), f"{len(result.segments):,}", "segments")
        RECORD.seconds(f"{key}.per_segment.wall", t.wall / len(result.segments),
                       f"wall per segment of the path: {what}, certificate included")
    path_part(config, args.runs)
    certificate_part(config, args.runs)
    ante_path(config, args.runs)
    RECORD.write()
    return 0


def _float_path(config: GameConfig, low: float, high: float, batched: bool):
    """The float path of ``[low, high]`` with the routes of issue 53 point 4 (``batched``) or before."""
    from sflp.solving import follower, piece, support

    follower._BATCHED = support._CLOSED_FORM = piece._FIT_ONCE = batched
    try:
        return compute_thresholds(config, low, high, certify=False)
    finally:
        follower._BATCHED = support._CLOSED_FORM = piece._FIT_ONCE = True


def path_part(config: GameConfig, runs: int) -> None:
    """The float path, batched against one call at a time (issue 53 point 4), same run."""
    for low, high in ((1.0, 200.0), (1.0, 25.0)):
        t_new, t_old = Timing(), Timing()
        for _ in range(runs + 2):
            new = timed(lambda lo=low, hi=high: _float_path(config, lo, hi, True), t_new)
            old = timed(lambda lo=low, hi=high: _float_path(config, lo, hi, False), t_old)
            assert [s for _, _, s in new.segments] == [s for _, _, s in old.segments]
            assert max(abs(a - b) / max(1.0, a) for a, b in zip(new.breakpoints, old.breakpoints)) <= 1e-11
        key = f"{low:g}-{high:g}.path"
        what = f"the float path {low:g}-{high:g} bb ({len(new.segments)} segments)"
        report(what + ", batched (issue 53 point 4)", t_new)
        report("    the same, one call at a time (before issue 53)", t_old)
        print(f"    batched / one at a time: wall {t_new.wall / t_old.wall:.2f}x, CPU {t_new.cpu / t_old.cpu:.2f}x")
        RECORD.timing(key, t_new, what + ", batched")
        RECORD.timing(f"{key}.per_call", t_old, what + ", one call at a time")
        RECORD.put(f"{key}.ratio_cpu", round(t_new.cpu / t_old.cpu, 2), f"{t_new.cpu / t_old.cpu:.2f}x",
                   "CPU of the batched float path over the one-call-at-a-time route")


def _certify(config: GameConfig, low: float, high: float, segments: list, exact_rows: bool):
    """``certify_path`` on ``segments``, the big rows float-first or (``exact_rows``) exact first."""
    threshcert._EXACT_BIG_ROWS = exact_rows
    try:
        return threshcert.certify_path(config, low, high, segments)
    finally:
        threshcert._EXACT_BIG_ROWS = False


def _big_rows(segs: list, exact_rows: bool) -> list:
    """The big rows of fresh segment certificates ``segs``: the step issue 53 point 3 changes."""
    big = [None] * len(segs) if exact_rows else threshcert._float_rows(segs)
    return [threshcert._SegRows(j, seg, rows) for j, (seg, rows) in enumerate(zip(segs, big))]


def certificate_part(config: GameConfig, runs: int) -> None:
    """The certificate alone and its big rows alone, float-first against exact, same segments, same run."""
    from sflp.core.game import PushFoldGame
    from sflp.solving.segment import SegmentCertificate

    for low, high in ((1.0, 200.0), (1.0, 25.0)):
        segments = list(compute_thresholds(config, low, high, certify=False).segments)
        game = PushFoldGame(config.with_stack(low))
        t_new, t_old, r_new, r_old = Timing(), Timing(), Timing(), Timing()
        for _ in range(runs + 2):
            new = timed(lambda lo=low, hi=high, s=segments: _certify(config, lo, hi, s, False), t_new)
            old = timed(lambda lo=low, hi=high, s=segments: _certify(config, lo, hi, s, True), t_old)
            assert new == old and new.exact_checks == old.exact_checks
            for exact_rows, timing in ((False, r_new), (True, r_old)):
                segs = [SegmentCertificate(game, sup) for _, _, sup in segments]  # fresh: no cached rows
                timed(lambda s=segs, e=exact_rows: _big_rows(s, e), timing)
        key = f"{low:g}-{high:g}.certificate"
        what = f"the certificate alone {low:g}-{high:g} bb ({len(segments)} segments)"
        report(what + ", big rows float-first", t_new)
        report("    the same, big rows exact first (before issue 53)", t_old)
        print(f"    float-first / exact: wall {t_new.wall / t_old.wall:.2f}x, CPU {t_new.cpu / t_old.cpu:.2f}x")
        report("    its big rows alone, float-first in one batch", r_new)
        report("    its big rows alone, exact first", r_old)
        print(f"    float-first / exact: wall {r_new.wall / r_old.wall:.2f}x, CPU {r_new.cpu / r_old.cpu:.2f}x")
        RECORD.timing(key, t_new, what)
        RECORD.timing(f"{key}.exact_rows", t_old, what + ", big rows exact first")
        RECORD.put(f"{key}.ratio_cpu", round(t_new.cpu / t_old.cpu, 2), f"{t_new.cpu / t_old.cpu:.2f}x",
                   "CPU of the certificate with float-first big rows over exact-first")
        RECORD.timing(f"{key}.rows", r_new, what + ": its big rows, float-first")
        RECORD.timing(f"{key}.rows.exact", r_old, what + ": its big rows, exact first")


def ante_path(config: GameConfig, runs: int) -> None:
    ante = compute_thresholds(config, 0.0, 0.25, along="ante")  # untimed: its LP compile
    n = len(ante.breakpoints)
    stack_bps = compute_thresholds(config, 1.0, 25.0).breakpoints
    top = 0.5 * (stack_bps[n - 1] + stack_bps[n])
    t_ante, t_stack = Timing(), Timing()
    for _ in range(runs):
        ante = timed(lambda: compute_thresholds(config, 0.0, 0.25, along="ante"), t_ante)
        stack = timed(lambda: compute_thresholds(config, 1.0, top), t_stack)
    assert len(stack.breakpoints) == len(ante.breakpoints) == n
    what = f"ante path 0-0.25 bb at 10 bb, {n} breakpoints"
    report(what, t_ante)
    report(f"    stack path 1-{top:.3f} bb, {n} breakpoints", t_stack)
    print(f"    ante / stack: wall {t_ante.wall / t_stack.wall:.2f}x, CPU {t_ante.cpu / t_stack.cpu:.2f}x "
          f"(target <= 2x)")
    RECORD.timing("ante.0-0.25", t_ante, what)
    RECORD.timing("ante.stack_equal", t_stack, f"stack path of {n} breakpoints")
    RECORD.put("ante.breakpoints", n, f"{n:,}", "breakpoints of the ante path 0-0.25 bb at 10 bb")
    RECORD.put("ante.ratio_cpu", round(t_ante.cpu / t_stack.cpu, 2), f"{t_ante.cpu / t_stack.cpu:.2f}x",
               "CPU of the ante path over a stack path of as many breakpoints")


if __name__ == "__main__":
    sys.exit(main())
