"""Benchmark of the OpenSpiel bridge: the .efg export, OpenSpiel loading it, and scoring a policy.

Run:  python benchmarks/bench_openspiel.py [--runs 5] [--stack 10]

Prints medians of ``--runs`` runs (in this process, the equity table already loaded) of

* the export: :func:`sflp.openspiel.efg.efg_text` (the file's text) and its size;
* OpenSpiel reading that text (``pyspiel.load_efg_game``), the reference the export is measured
  against: the export should cost about what reading it costs (ratio ~1-3);
* scoring one policy exactly (:func:`sflp.openspiel.verify`, rationals) against OpenSpiel's own
  C++ ``pyspiel.nash_conv`` of the same policy (floats);
* one CFR+ iteration in OpenSpiel's C++, for scale;

and the cold command ``sflp export efg`` in a fresh process.  Needs ``pip install 'sflp[openspiel]'``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from _common import cold_command, machine, median_time, report

import sflp
from sflp.core.equity import load_table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--stack", type=float, default=10.0)
    args = parser.parse_args(argv)
    try:
        import pyspiel
    except ImportError:
        print("OpenSpiel is not installed: pip install 'sflp[openspiel]'", file=sys.stderr)
        return 2
    from sflp.openspiel import efg_text, load_game, verify

    print(f"machine: {machine()}")
    config = sflp.GameConfig(stack=args.stack)
    load_table()
    efg_text(config)  # the exact payoffs of this structure, cached like any solve's
    text = efg_text(config)
    print(f"export: {len(text.encode()):,} bytes, {text.count(chr(10)):,} lines")
    export, times = median_time(lambda: efg_text(config), args.runs)
    report(f"export, {args.stack:g} bb (efg_text)", export, times)
    load, times = median_time(lambda: pyspiel.load_efg_game(text), args.runs)
    report("OpenSpiel load_efg_game of that text (reference)", load, times)
    print(f"ratio export / load: {export / load:.2f}")

    game = load_game(config)
    solver = pyspiel.CFRPlusSolver(game)
    step, times = median_time(solver.evaluate_and_update_policy, args.runs)
    report("OpenSpiel CFR+, one iteration (C++)", step, times)
    for _ in range(20):
        solver.evaluate_and_update_policy()
    policy = solver.tabular_average_policy()
    theirs, times = median_time(lambda: pyspiel.nash_conv(game, policy), args.runs)
    report("OpenSpiel nash_conv of a CFR+ average policy (C++, floats; reference)", theirs, times)
    ours, times = median_time(lambda: verify(policy, config), args.runs)
    report("sflp.openspiel.verify of the same policy (exact rationals, with the per-hand report)", ours, times)
    print(f"ratio exact verify / OpenSpiel nash_conv: {ours / theirs:.2f}")

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "g.efg"
        cold, times = cold_command([sys.executable, "-m", "sflp", "export", "efg", "--stack", f"{args.stack:g}",
                                    "--out", str(out)], args.runs)
        report("cold `sflp export efg` (a new process: imports, table, exact payoffs, write)", cold, times)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
