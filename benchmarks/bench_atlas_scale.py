"""Benchmark of the atlas at scale (issue 41): planning, an ante's decimals, the writer's memory,
cores, and what a fresh worker pays.

Run:  python benchmarks/bench_atlas_scale.py [--runs 3] [--record]

Prints (medians of ``--runs``; CPU is every process that did the work, waited for):

* **planning**: ``atlas_jobs`` of 10,000 structures (antes 0 to 0.9999 bb) x 1-200 bb @0.01, its
  wall seconds and the Python memory it allocates at its peak (tracemalloc);
* **an ante's decimals**: ``solve_structure`` of one structure at 1-200 bb @0.01 (no ante
  paths), ante 0.015 against ante 0.25/17 (a long binary expansion), in one warm process: the
  ratio of their CPU seconds (target <= 1.5x);
* **the writer's memory**: the peak resident memory of a fresh process writing an atlas of N and
  4N structures at 1-200 bb @0.01 on this machine's workers (its own ``VmHWM``: the workers
  are other processes), and the difference (target < 50 MB);
* **cores**: an atlas of 16 structures at 1-25 bb @0.05 with 1, 2, 4, 8 and 16 workers, as many
  as this machine's usable cores allow: wall and CPU seconds (strong scaling);
* **a fresh worker**: the CPU a new process pays before its first structure is solved (imports,
  the equity table, the JIT's kernels from the cache), and that first structure's CPU against
  a warm one's.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from _common import ROOT, Record, Timing, machine, report, timed

RECORD = Record("atlas_scale")


def planning() -> None:
    from sflp.atlas.jobs import atlas_jobs, parse_antes
    from sflp.checks import parse_stacks

    structures = [(0.5, 1.0, a, 0.0) for a in parse_antes("0:0.9999:0.0001")]
    stacks = parse_stacks("1:200:0.01")
    tracemalloc.start()
    t0 = time.perf_counter()
    jobs = atlas_jobs(structures, stacks, ante_stacks=())
    seconds = time.perf_counter() - t0
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    print(f"planning: {len(jobs):,} structures x {len(stacks):,} stacks in {seconds:.2f} s, "
          f"{peak / 2**20:.1f} MB of Python memory at its peak")
    RECORD.seconds("plan.seconds", seconds, "atlas_jobs of 10,000 structures x 1-200 bb @0.01")
    RECORD.put("plan.mb", round(peak / 2**20, 1), f"{peak / 2**20:.0f} MB", "its peak Python memory")


def ante_cost(runs: int) -> None:
    from sflp.atlas.jobs import atlas_jobs
    from sflp.atlas.tables import solve_structure
    from sflp.checks import parse_stacks

    stacks = parse_stacks("1:200:0.01")
    solve_structure(atlas_jobs([(0.5, 1.0, 0.015, 0.0)], parse_stacks("1:5:0.5"), ante_stacks=())[0])  # warm
    cost = {}
    for name, ante in (("short", 0.015), ("long", 0.25 / 17)):
        job = atlas_jobs([(0.5, 1.0, ante, 0.0)], stacks, ante_stacks=())[0]
        t = Timing()
        for _ in range(runs):
            timed(lambda job=job: solve_structure(job), t)
        cost[name] = t
        report(f"one structure, ante {ante!r}, 1-200 bb @0.01", t)
        RECORD.timing(f"ante.{name}", t, f"solve_structure, ante {ante!r}, 1-200 bb @0.01")
    ratio = cost["long"].cpu / cost["short"].cpu
    print(f"  long / short decimals (CPU): {ratio:.2f}x (target <= 1.5x)")
    RECORD.put("ante.ratio", round(ratio, 3), f"{ratio:.2f}x", "CPU of ante 0.25/17 over ante 0.015")


def _writer_rss(n: int, out: Path) -> float:
    code = f"""
import resource, sys
sys.path.insert(0, {str(ROOT)!r})
from sflp.atlas.jobs import atlas_jobs
from sflp.atlas.write import write_atlas
from sflp.checks import parse_stacks
jobs = atlas_jobs([(0.5, 1.0, a / 1000, 0.0) for a in range({n})], parse_stacks("1:200:0.01"), ante_stacks=())
write_atlas(jobs, sys.argv[1], hands=())
print(next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmHWM:")) / 1024)
"""
    done = subprocess.run([sys.executable, "-c", code, str(out)], capture_output=True, text=True, check=True)
    return float(done.stdout.strip().splitlines()[-1])


def writer_memory(tmp: Path, n: int = 8) -> None:
    small = _writer_rss(n, tmp / "small")
    large = _writer_rss(4 * n, tmp / "large")
    print(f"writer's peak memory, 1-200 bb @0.01: {small:.0f} MB for {n} structures, {large:.0f} MB for {4 * n} "
          f"(+{large - small:.0f} MB; target < 50 MB)")
    RECORD.put("writer.small_mb", round(small), f"{small:.0f} MB", f"writer's peak RSS, {n} structures")
    RECORD.put("writer.large_mb", round(large), f"{large:.0f} MB", f"writer's peak RSS, {4 * n} structures")
    RECORD.put("writer.growth_mb", round(large - small), f"{large - small:.0f} MB", f"{n} to {4 * n} structures")


def cores(tmp: Path, runs: int) -> None:
    from sflp.atlas.jobs import atlas_jobs
    from sflp.atlas.write import write_atlas
    from sflp.checks import parse_stacks
    from sflp.output.jobs import usable_cpus

    jobs = atlas_jobs([(0.5, 1.0, a / 100, 0.0) for a in range(16)], parse_stacks("1:25:0.05"), ante_stacks=())
    rows = []
    for workers in (1, 2, 4, 8, 16):
        if workers > usable_cpus():
            print(f"  {workers} workers: this machine has {usable_cpus()} usable cores")
            continue
        t = Timing()
        for k in range(runs):
            timed(lambda w=workers, k=k: write_atlas(jobs, tmp / f"cores{w}-{k}", workers=w, hands=()), t)
        rows.append((workers, t))
        report(f"16 structures x 1-25 bb @0.05, {workers} worker(s)", t)
        RECORD.timing(f"cores.{workers}", t, f"write_atlas, 16 structures x 1-25 bb @0.05, {workers} workers")
    if rows:
        one = rows[0][1].wall
        for workers, t in rows:
            print(f"  speed-up with {workers}: {one / t.wall:.2f}x")


def fresh_worker(tmp: Path) -> None:
    """What a new process pays before its first structure's own work: its imports and the first
    structure's cost, less what the same new structure costs a warm process (two structures that
    no cache holds, ante 0.1 then 0.11, at 1-25 bb @0.05).  With an empty cache folder, as a new
    machine has, and with this machine's cache (the compiled LPs of earlier runs)."""
    code = f"""
import resource, sys
sys.path.insert(0, {str(ROOT)!r})
def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime
c0 = cpu()
from sflp.atlas.jobs import atlas_jobs
from sflp.atlas.tables import solve_structure
from sflp.checks import parse_stacks
a, b = (atlas_jobs([(0.5, 1.0, ante, 0.0)], parse_stacks("1:25:0.05"), ante_stacks=())[0] for ante in (0.1, 0.11))
c1 = cpu()
solve_structure(a)
c2 = cpu()
solve_structure(b)
c3 = cpu()
print(c1 - c0, c2 - c1, c3 - c2)
"""
    import os

    for name, what in (("cold", "an empty cache folder (a new machine)"), ("cached", "this machine's cache")):
        samples = []
        for k in range(3):
            env = dict(os.environ)
            if name == "cold":
                env["SFLP_CACHE_DIR"] = str(tmp / f"cache-{k}")
            done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
            samples.append([float(x) for x in done.stdout.split()])
        start, first, warm = (statistics.median(s[k] for s in samples) for k in range(3))
        paid = start + first - warm
        print(f"a fresh process, {what}: {start:.2f} s CPU to import, {first:.2f} s for its first structure "
              f"(1-25 bb @0.05), {warm:.2f} s for a new one once warm: it pays {paid:.2f} s CPU before its first "
              "structure's own work")
        RECORD.put(f"fresh.{name}_cpu", round(paid, 3), f"{paid:.2f} s",
                   f"CPU a fresh worker pays before its first structure's own work, {what}")
        RECORD.put(f"fresh.{name}_warm_cpu", round(warm, 3), f"{warm:.2f} s",
                   f"CPU of a new structure (1-25 bb @0.05) in a warm process, {what}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    RECORD.arguments(parser)
    args = parser.parse_args(argv)
    RECORD.use(args)
    print(machine())
    with tempfile.TemporaryDirectory(prefix="bench-atlas-scale-") as tmp:
        planning()
        ante_cost(args.runs)
        writer_memory(Path(tmp))
        cores(Path(tmp), args.runs)
        fresh_worker(Path(tmp))
    RECORD.write()
    return 0


if __name__ == "__main__":
    sys.exit(main())
