"""Benchmark of whole chart jobs: ``sflp chart`` in a fresh process, wall time and peak memory.

Run:  python benchmarks/bench_chart.py [--runs 3] [--sizes small,medium,large]

Each size runs ``python -m sflp.cli chart --stacks RANGE --out TMP --json`` in a new process,
``--runs`` times, and prints each run and the median of the wall time and of the **peak RSS of
the whole process tree** (the CLI and any worker it forks: the sum of their proportional set sizes,
so copy-on-write pages shared after a fork count once; sampled from ``/proc`` every 50 ms;
``ru_maxrss`` of the children is printed beside it).  Then, for the ``--writers`` sizes, the
**solver and the writers side by side**, each format alone (``--formats csv`` ...) and all
together: the solver is timed alone in fresh processes (the exact thresholds and every stack read
off the path, imports included: ``--solver-alone``), and a job's writers are its wall time beyond
the solver's -- what the files cost, competition for the cores included."""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SIZES = {
    "small": ("1:25:0.05", 481, 4.0, None),
    "medium": ("1:200:0.01", 19_901, 20.0, 800.0),
    "large": ("1:1000:0.01", 99_901, 60.0, 1024.0),
}


def _proc_memory(p: int) -> int:
    """Proportional set size of one process in bytes (pages shared with forked workers counted
    once across them), or its RSS where ``smaps_rollup`` is missing."""
    try:
        with open(f"/proc/{p}/smaps_rollup") as fh:
            for line in fh:
                if line.startswith("Pss:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    with open(f"/proc/{p}/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _tree_rss_mb(pid: int) -> float:
    """Memory of ``pid`` and all its descendants in MB: the sum of their PSS (Linux /proc)."""
    total = 0
    todo = [pid]
    seen = set()
    while todo:
        p = todo.pop()
        if p in seen:
            continue
        seen.add(p)
        try:
            total += _proc_memory(p)
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as fh:
                    todo.extend(int(c) for c in fh.read().split())
        except (OSError, ValueError):
            continue
    return total / 2**20


def one_run(stacks: str, out: Path, formats: str | None = None, memory: bool = True) -> dict:
    """One chart job in a fresh process: wall ``seconds``, the job's own ``solve_seconds`` and
    ``write_seconds`` (from its JSON: thresholds plus reading every stack off the path, and the
    rest), ``tree_mb`` (peak PSS of the process tree; sampling ``/proc`` costs CPU, so
    ``memory=False`` skips it for timing runs) and ``self_mb`` (ru_maxrss of the CLI)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    shutil.rmtree(out, ignore_errors=True)
    command = [sys.executable, "-m", "sflp.cli", "chart", "--stacks", stacks, "--out", str(out), "--json"]
    if formats:
        command += ["--formats", formats]
    start = time.perf_counter()
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    peak = [0.0]
    done = threading.Event()

    def sample() -> None:
        while memory and not done.is_set():
            peak[0] = max(peak[0], _tree_rss_mb(proc.pid))
            time.sleep(0.05)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    stdout, err = proc.communicate()
    seconds = time.perf_counter() - start
    done.set()
    sampler.join()
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0 or not (out / "manifest.json").exists():
        raise SystemExit(f"chart job {stacks} failed: {err.decode()}")
    job = json.loads(stdout)
    return {"seconds": seconds, "solve_seconds": job["solve_seconds"],
            "write_seconds": job["seconds"] - job["solve_seconds"], "tree_mb": peak[0],
            "self_mb": usage.ru_maxrss / 1024}


WRITER_FORMATS = ("csv", "xlsx", "html", "pdf", "png", "svg")


def solver_alone(stacks: str) -> None:
    """What a chart job solves, and nothing else: the exact thresholds over the range and every
    stack read off the path (``iter_blocks``, the rows the writers would get).  Run in a fresh
    process by :func:`solver_run`, so that its wall time compares with a whole chart job's."""
    from sflp.checks import parse_stacks
    from sflp.core.game import GameConfig
    from sflp.solving.solver import iter_blocks
    from sflp.solving.thresholds import compute_thresholds

    values = parse_stacks(stacks)
    config = GameConfig(stack=values[0])
    path = compute_thresholds(config, low=values[0], high=values[-1])
    for block in iter_blocks(values, config, path=path):
        block.rows()


def solver_run(stacks: str) -> float:
    """Wall seconds of :func:`solver_alone` in a fresh process (interpreter start and imports
    included, as in a chart job)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    start = time.perf_counter()
    subprocess.run([sys.executable, __file__, "--solver-alone", stacks], check=True, env=env)
    return time.perf_counter() - start


def writer_table(size: str, runs: int, tmp: Path) -> None:
    """Solver and writer time side by side, each format alone and all together (medians).

    The solver is timed alone, in its own fresh processes (:func:`solver_run`); a job's writers
    are its wall time beyond that: every cost the files add, the workers' competition for the
    cores included.  ``in-job`` is the job's own split (its JSON's ``seconds - solve_seconds``)."""
    stacks, count, _, _ = SIZES[size]
    solver = statistics.median(solver_run(stacks) for _ in range(runs))
    print(f"\n{size} ({stacks}, {count:,} stacks): solver alone {solver:.2f} s (median of {runs} fresh processes); "
          "each job the same way")
    print(f"  {'formats':<12} {'job s':>7} {'writers s':>10} {'writers/solver':>15} {'in-job s':>9} "
          f"{'peak MB':>8}  (peak: one more run, sampled)")
    for formats in (*WRITER_FORMATS, "all"):
        chosen = None if formats == "all" else formats
        got = [one_run(stacks, tmp / size, chosen, memory=False) for _ in range(runs)]
        job = statistics.median(g["seconds"] for g in got)
        inner = statistics.median(g["write_seconds"] for g in got)
        peak = one_run(stacks, tmp / size, chosen)["tree_mb"]  # one more run, sampling memory
        print(f"  {formats:<12} {job:7.2f} {job - solver:10.2f} {(job - solver) / solver:15.2f} {inner:9.2f} "
              f"{peak:8.0f}")
        sys.stdout.flush()
    files = sorted((p.stat().st_size, p.name) for p in (tmp / size).iterdir())
    print("  largest files: " + ", ".join(f"{n} {b / 1e6:.1f} MB" for b, n in files[::-1][:4]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--sizes", default="small,medium,large")
    parser.add_argument("--writers", default="medium,large",
                        help="sizes whose solver-vs-writer table to print, per format ('' for none)")
    parser.add_argument("--solver-alone", metavar="STACKS", help=argparse.SUPPRESS)  # the child of solver_run
    args = parser.parse_args(argv)
    if args.solver_alone:
        solver_alone(args.solver_alone)
        return 0
    print(f"machine: {platform.platform()}, python {platform.python_version()}, os.cpu_count()={os.cpu_count()}")
    with tempfile.TemporaryDirectory() as tmp:
        for size in [s for s in args.sizes.split(",") if s]:
            stacks, count, target_s, target_mb = SIZES[size]
            runs = []
            for k in range(args.runs):
                got = one_run(stacks, Path(tmp) / size)
                runs.append(got)
                print(f"{size} ({stacks}, {count:,} stacks) run {k + 1}: {got['seconds']:.2f} s "
                      f"(solver {got['solve_seconds']:.2f} s, writers {got['write_seconds']:.2f} s), "
                      f"peak {got['tree_mb']:.0f} MB (process tree, PSS), {got['self_mb']:.0f} MB (ru_maxrss)")
                sys.stdout.flush()
            med_s = statistics.median(r["seconds"] for r in runs)
            med_mb = statistics.median(r["tree_mb"] for r in runs)
            verdict = "OK" if med_s <= target_s and (target_mb is None or med_mb <= target_mb) else "OVER TARGET"
            mem_target = f", <= {target_mb:g} MB" if target_mb else ""
            print(f"  median of {len(runs)}: {med_s:.2f} s, peak memory {med_mb:.0f} MB (PSS, process tree) "
                  f"(target <= {target_s:g} s{mem_target}): {verdict}")
        for size in [s for s in args.writers.split(",") if s]:
            writer_table(size, args.runs, Path(tmp))
        print("\nwriters = a job's wall time minus the solver's alone; target: writers <= 0.5 x solver for "
              "medium and large, all formats")
    return 0


if __name__ == "__main__":
    sys.exit(main())
