"""Benchmark of whole chart jobs: ``sflp chart`` in a fresh process, wall time and peak memory.

Run:  python benchmarks/bench_chart.py [--runs 3] [--sizes small,medium,large]

Each size runs ``python -m sflp.cli chart --stacks RANGE --out TMP --json`` in a new process,
``--runs`` times, and prints each run and the median of the wall time and of the **peak RSS of
the whole process tree** (the CLI and any worker it forks: the sum of their proportional set sizes,
so copy-on-write pages shared after a fork count once; sampled from ``/proc`` every 50 ms;
``ru_maxrss`` of the CLI alone is printed beside it).  Then one in-process breakdown of
the small job into its phases.

=========  ==============  ========  ==========================
size       --stacks        stacks    targets (2 cores, medians)
=========  ==============  ========  ==========================
small      1:25:0.05          481    <= 4 s
medium     1:200:0.01      19,901    <= 20 s, <= 800 MB
large      1:1000:0.01     99,901    <= 60 s, <= 1 GB
=========  ==============  ========  ==========================
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
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


def one_run(stacks: str, out: Path) -> tuple[float, float, float]:
    """(seconds, peak tree RSS MB, ru_maxrss MB of the CLI process) of one chart job."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "sflp.cli", "chart", "--stacks", stacks, "--out", str(out),
                             "--json"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    peak = [0.0]
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            peak[0] = max(peak[0], _tree_rss_mb(proc.pid))
            time.sleep(0.05)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _, _, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - start
    done.set()
    sampler.join()
    proc.returncode = 0
    err = proc.stderr.read().decode()
    proc.stderr.close()
    if not (out / "manifest.json").exists():
        raise SystemExit(f"chart job {stacks} failed: {err}")
    return seconds, peak[0], usage.ru_maxrss / 1024


def breakdown(out: Path) -> dict[str, float]:
    """The small job's phases, in this process."""
    from fractions import Fraction

    from sflp.game import GameConfig
    from sflp.report import write_chart_set
    from sflp.solver import iter_solve
    from sflp.thresholds import compute_thresholds

    stacks = [float(Fraction(1) + k * Fraction(1, 20)) for k in range(481)]
    config = GameConfig(stack=1)
    parts = {}
    t0 = time.perf_counter()
    path = compute_thresholds(config, low=1, high=25)
    parts["compute_thresholds(1, 25)"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    sols = list(iter_solve(stacks, config, path=path))
    parts["481 stacks off the path, checked"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    write_chart_set(sols, path, out, stacks=stacks)
    parts["write_chart_set (all files)"] = time.perf_counter() - t0
    return parts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--sizes", default="small,medium,large")
    args = parser.parse_args(argv)
    print(f"machine: {platform.platform()}, python {platform.python_version()}, os.cpu_count()={os.cpu_count()}")
    with tempfile.TemporaryDirectory() as tmp:
        for size in args.sizes.split(","):
            stacks, count, target_s, target_mb = SIZES[size]
            runs = []
            for k in range(args.runs):
                seconds, tree_mb, self_mb = one_run(stacks, Path(tmp) / size)
                runs.append((seconds, tree_mb, self_mb))
                print(f"{size} ({stacks}, {count:,} stacks) run {k + 1}: {seconds:.2f} s, "
                      f"peak {tree_mb:.0f} MB (process tree, PSS), {self_mb:.0f} MB (CLI ru_maxrss)")
                sys.stdout.flush()
            med_s = statistics.median(r[0] for r in runs)
            med_mb = statistics.median(r[1] for r in runs)
            verdict = "OK" if med_s <= target_s and (target_mb is None or med_mb <= target_mb) else "OVER TARGET"
            mem_target = f", <= {target_mb:g} MB" if target_mb else ""
            print(f"  median of {len(runs)}: {med_s:.2f} s, peak memory {med_mb:.0f} MB (PSS, process tree) "
                  f"(target <= {target_s:g} s{mem_target}): {verdict}")
            sizes = sorted((p.stat().st_size, p.name) for p in (Path(tmp) / size).iterdir())
            print("  largest files: " + ", ".join(f"{n} {b / 1e6:.1f} MB" for b, n in sizes[::-1][:4]))
        print("\nsmall job in one process, by phase (after imports):")
        breakdown(Path(tmp) / "warm")  # warm-up: imports, table, compiled code
        for name, t in breakdown(Path(tmp) / "phases").items():
            print(f"  {name:<36} {t:6.2f} s")
        print(f"  (this process: ru_maxrss {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
