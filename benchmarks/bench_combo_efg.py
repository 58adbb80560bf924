"""Benchmark of the combo-level game as a file (issue 33 §5): the ``.efg`` text, OpenSpiel and
Gambit reading it, and the ``.npz`` sequence form sflp ships instead.

Run:  python benchmarks/bench_combo_efg.py [--stack 10] [--timeout 900] [--runs 3] [--record]

Measures, at one stack,

* the combo-level ``.efg``: the tree of :mod:`sflp.openspiel.efg` with 1,326 SB combos (chance
  information set ``"deal SB"``, 1/1326 each) and one chance information set per SB combo
  (``"deal BB | 2d2c"``, 1/1225 for each of the 1,225 combos that share no card with it), then
  per deal the same five lines as the class file: 1,624,350 deals, 4,874,376 nodes with the
  chance nodes, 4,873,050 terminals.  It is written **streaming** to a temporary file, one SB combo
  at a time (never one 350 MB string), after the exact payoffs
  (:func:`sflp.openspiel.combo.showdown_payoffs`) are made; both are timed, and so is proving the
  file the tree sflp writes (:func:`sflp.openspiel.combo.combo_efg_config`, which ``sflp verify
  --efg`` runs: a streaming comparison with a fresh export);
* OpenSpiel reading it (``pyspiel.load_efg_game(text)``) in a **child process**, once (the
  first run is the only one when it takes minutes): the wall and CPU seconds of the read of
  the file and of the load, and the child's peak resident memory (``os.wait4``'s
  ``ru_maxrss``), under a hard timeout (``--timeout``) and a memory cap (``--max-rss``): a child
  past either is killed, and the record says so and how far it got;
* Gambit reading it (``pygambit.read_efg``), the same way (``--gambit-timeout``, 0 skips it);
* the ``.npz`` sflp ships (:func:`sflp.openspiel.combo.write_sequence_form`): its size, the
  write (median of ``--runs``, warm: the exact payoffs cached), and reading it back with
  ``np.load`` (every array, median of ``--runs``); and a cold ``python -c`` that loads it and
  computes the value of a strategy pair, in a new process.

Every time is wall seconds (CPU beside it: of this process, or of the child that did the work).
The child processes are this script's only children, so their figures are their own.
Needs OpenSpiel (``pip install 'open-spiel>=1.5'``); pygambit is optional.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import Record, Timing, machine, measure, report, timed

import sflp
from sflp.core.equity import load_table

RECORD = Record("combo_efg")

OPENSPIEL_CHILD = r"""
import json, resource, sys, time
import pyspiel

def stage(name, t0, c0, **more):
    print(json.dumps({"stage": name, "wall": time.perf_counter() - t0, "cpu": time.process_time() - c0,
                      "maxrss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, **more}), flush=True)
    return time.perf_counter(), time.process_time()

t, c = time.perf_counter(), time.process_time()
with open(sys.argv[1], encoding="utf-8") as fh:
    text = fh.read()
t, c = stage("read", t, c)
game = pyspiel.load_efg_game(text)
del text
t, c = stage("load", t, c, actions=game.num_distinct_actions(), max_length=game.max_game_length())
if sys.argv[2] == "load":
    raise SystemExit(0)
from sflp.openspiel.combo import COMBO_NAMES  # after the load, so that its figures are OpenSpiel's alone
rows = {}  # SB shoves everything, BB calls everything: random v random all-in, value 0 by symmetry
for k, name in enumerate(COMBO_NAMES):
    rows[f"0-0-{k + 1}-{name}"] = [(0, 0.0), (1, 1.0)]
    rows[f"1-1-{k + 1}-{name}"] = [(0, 0.0), (2, 1.0)]
policy = pyspiel.TabularPolicy(rows)
t, c = time.perf_counter(), time.process_time()
values = pyspiel.expected_returns(game.new_initial_state(), policy, -1, True)
t, c = stage("expected_returns", t, c, value=values[0])
solver = pyspiel.CFRPlusSolver(game)
t, c = stage("cfr_setup", t, c)
solver.evaluate_and_update_policy()
t, c = stage("cfr_step", t, c)
gap = pyspiel.nash_conv(game, policy)
t, c = stage("nash_conv", t, c, value=gap)
"""

GAMBIT_CHILD = r"""
import json, resource, sys, time
import pygambit
t0, c0 = time.perf_counter(), time.process_time()
game = pygambit.read_efg(sys.argv[1])
t1, c1 = time.perf_counter(), time.process_time()
print(json.dumps({"stage": "load", "wall": t1 - t0, "cpu": c1 - c0,
                  "maxrss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
                  "version": pygambit.__version__}), flush=True)
"""


def run_child(code: str, path: Path, timeout: float, max_rss_mb: float, *more: str) -> dict:
    """Run ``code`` on ``path`` in a child process, sampling its resident memory; kill it past
    ``timeout`` seconds or ``max_rss_mb``.  Returns its stages (JSON lines), wall and CPU seconds
    and peak RSS (``ru_maxrss`` from ``os.wait4``), and why it stopped."""
    start = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-c", code, str(path), *more], stdout=subprocess.PIPE, text=True)
    killed, seen_mb = None, 0.0
    while True:
        pid, status, usage = os.wait4(child.pid, os.WNOHANG)
        if pid:
            break
        try:
            with open(f"/proc/{child.pid}/status") as fh:
                for line in fh:
                    if line.startswith("VmRSS:"):
                        seen_mb = max(seen_mb, int(line.split()[1]) / 1024)
        except OSError:
            pass
        elapsed = time.perf_counter() - start
        if killed is None and (elapsed > timeout or seen_mb > max_rss_mb):
            killed = (f"did not finish within {timeout:g} s" if elapsed > timeout
                      else f"killed at {seen_mb:,.0f} MiB resident (cap {max_rss_mb:,.0f} MiB)")
            os.kill(child.pid, signal.SIGKILL)
        time.sleep(0.2)
    wall = time.perf_counter() - start
    out = child.stdout.read()
    child.stdout.close()
    child.returncode = os.waitstatus_to_exitcode(status)
    stages = {}
    for line in out.splitlines():
        try:
            row = json.loads(line)
        except ValueError:
            continue
        stages[row["stage"]] = row
    return {"stages": stages, "wall": wall, "cpu": usage.ru_utime + usage.ru_stime,
            "maxrss_mb": usage.ru_maxrss / 1024, "killed": killed, "returncode": child.returncode}


STAGES = {
    "read": "reading the file's text into a str",
    "load": "loading the game from that text",
    "expected_returns": "pyspiel.expected_returns of one policy (shove all, call all) over the whole tree",
    "cfr_setup": "pyspiel.CFRPlusSolver(game)",
    "cfr_step": "one CFR+ iteration (C++)",
    "nash_conv": "pyspiel.nash_conv of that policy (C++ best responses)",
}


def gigabytes(mib: float) -> str:
    """A resident size in MiB (``ru_maxrss`` / 1024) as the docs write it: decimal GB, with GiB."""
    return f"{mib * 2**20 / 1e9:.2f} GB ({mib / 1024:.2f} GiB)"


def child_figures(key: str, what: str, res: dict) -> None:
    """Print and record one child's figures: each stage it finished (wall, CPU, its peak RSS so
    far), how it ended, and its peak RSS."""
    peak = res["maxrss_mb"]
    for name, stage in res["stages"].items():
        label = f"{what}: {STAGES.get(name, name)}"
        rss = stage["maxrss_kb"] / 1024
        extra = f", value {stage['value']!r}" if "value" in stage else ""
        print(f"{label}: wall {stage['wall']:.3f} s, CPU {stage['cpu']:.3f} s; the child's peak RSS so far "
              f"{rss:,.0f} MiB{extra}")
        RECORD.seconds(f"{key}.{name}.wall", stage["wall"], f"wall: {label}")
        RECORD.seconds(f"{key}.{name}.cpu", stage["cpu"], f"CPU: {label}")
        RECORD.put(f"{key}.{name}.rss_mb", round(rss), gigabytes(rss), f"the child's peak RSS after: {label}")
    why = res["killed"] or ("finished" if res["returncode"] == 0 else f"exited with code {res['returncode']}")
    print(f"{what}: {why}; the whole child: wall {res['wall']:.3f} s, CPU {res['cpu']:.3f} s, peak RSS {peak:,.0f} MiB")
    RECORD.put(f"{key}.outcome", why, why, f"how the child ended: {what}")
    RECORD.put(f"{key}.rss_mb", round(peak), gigabytes(peak), f"the child's peak RSS: {what}")
    RECORD.seconds(f"{key}.child.wall", res["wall"], f"wall of the whole child: {what}")
    RECORD.seconds(f"{key}.child.cpu", res["cpu"], f"CPU of the whole child: {what}")
    sys.stdout.flush()


def npz_figures(config: sflp.GameConfig, folder: Path, runs: int) -> None:
    """The ``.npz`` sflp ships: size, write, ``np.load`` of every array, a cold load-and-value."""
    import numpy as np

    try:
        from sflp.openspiel.combo import write_sequence_form
    except ImportError:
        print("this sflp has no .npz sequence form (sflp.openspiel.combo.write_sequence_form)", file=sys.stderr)
        return

    path = folder / "combo.npz"
    write_sequence_form(config, path)  # the exact payoffs cached
    t = measure(lambda: write_sequence_form(config, path), runs)
    report("write_sequence_form (.npz, compressed; payoffs cached)", t)
    RECORD.timing("npz_write", t, "write_sequence_form of one stack, warm")
    size = path.stat().st_size
    print(f".npz: {size:,} bytes")
    RECORD.put("npz.bytes", size, f"{size / 1e6:.1f} MB", f"the .npz at {config.stack:g} bb")

    def load():
        with np.load(path) as data:
            return {k: data[k] for k in data.files}

    t = measure(load, runs)
    report("np.load of the .npz, every array", t)
    RECORD.timing("npz_load", t, "np.load of the .npz, every array read")
    code = ("import numpy as np, sys\n"
            "d = np.load(sys.argv[1])\n"
            "x = np.ones(1326); y = np.ones(1326)\n"
            "v = d['sb_fold'] @ (1 - x) + x @ (d['a_fold'] @ (1 - y) + d['a_call'] @ y)\n")
    t = Timing()
    for _ in range(runs):
        timed(lambda: subprocess.run([sys.executable, "-c", code, str(path)], check=True), t)
    report("cold: python -c 'import numpy; np.load; value of a strategy pair' (a new process)", t)
    RECORD.timing("npz_cold", t, "a new python process: import numpy, np.load, one value")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stack", type=float, default=10.0)
    parser.add_argument("--runs", type=int, default=3, help="runs of the .npz figures (the .efg ones run once)")
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds OpenSpiel's load may take")
    parser.add_argument("--gambit-timeout", type=float, default=600.0, help="seconds pygambit may take (0: skip)")
    parser.add_argument("--max-rss", type=float, default=12000.0, help="MiB a child may hold before it is killed")
    parser.add_argument("--no-use", dest="use", action="store_false",
                        help="OpenSpiel only loads the game (no expected_returns, CFR+ step, nash_conv)")
    parser.add_argument("--skip-efg", action="store_true", help="only the .npz figures")
    parser.add_argument("--skip-npz", action="store_true", help="only the .efg figures")
    RECORD.arguments(parser)
    args = parser.parse_args(argv)
    RECORD.use(args)
    print(f"machine: {machine()}")
    config = sflp.GameConfig(stack=args.stack)
    load_table()
    with tempfile.TemporaryDirectory(prefix="sflp-combo-") as tmp:
        folder = Path(tmp)
        if not args.skip_efg:
            from sflp.openspiel.combo import combo_efg_config, showdown_payoffs, write_combo_efg

            t = Timing()
            timed(lambda: showdown_payoffs(config), t)
            report("exact combo payoffs (showdown_payoffs: exact_payoffs, rounded once; cold)", t)
            RECORD.timing("payoffs", t, "the exact combo-level payoffs, rounded once, cold")
            path = folder / "combo.efg"
            t = Timing()
            summary = timed(lambda: write_combo_efg(config, path), t)
            report(f"write_combo_efg, streaming ({summary.bytes:,} bytes; payoffs cached)", t)
            RECORD.timing("efg_write", t, "write_combo_efg of one stack, streaming, exact payoffs cached")
            RECORD.put("efg.bytes", summary.bytes, f"{summary.bytes / 1e6:.0f} MB",
                       f"the combo .efg at {args.stack:g} bb, no ante")
            t = Timing()
            timed(lambda: combo_efg_config(path, "the combo .efg"), t)
            report("combo_efg_config: the file proved the tree sflp writes (streaming; payoffs cached)", t)
            RECORD.timing("efg_proof", t, "combo_efg_config of the file: compared streaming with a fresh export, "
                          "exact payoffs cached")
            res = run_child(OPENSPIEL_CHILD, path, args.timeout, args.max_rss, "all" if args.use else "load")
            child_figures("openspiel", "OpenSpiel (child)", res)
            if args.gambit_timeout > 0:
                try:
                    import pygambit  # noqa: F401
                except ImportError:
                    print("pygambit is not installed: no Gambit figures", file=sys.stderr)
                else:
                    res = run_child(GAMBIT_CHILD, path, args.gambit_timeout, args.max_rss)
                    child_figures("gambit", "pygambit read_efg (child)", res)
            path.unlink()
        if not args.skip_npz:
            npz_figures(config, folder, args.runs)
    RECORD.write()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
