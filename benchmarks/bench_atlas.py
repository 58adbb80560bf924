"""Benchmark of ``sflp atlas`` (issue 35): the structure atlas on this machine and on a Dask cluster.

Run:  python benchmarks/bench_atlas.py [--runs 3] [--antes 0:0.25:0.005] [--record]

Prints, for the structures ``--antes`` (default the issue's 51 antes, 0 to 0.25 bb) x stacks 1-25
@0.05 (thresholds + values + paths; no ante paths), the median wall and CPU seconds of
:func:`sflp.write_atlas` of ``--runs`` runs:

* on this machine, in this process (``workers=0``) and on the default workers (one per usable
  core); CPU is this process and its forked workers (waited for);
* on a ``distributed.LocalCluster`` of two worker processes (one thread each) on this machine,
  started once before the runs (not timed); CPU is this process plus the workers' own CPU
  seconds, read in each worker before and after (``client.run``).  The ratio cluster / local
  (default workers) in wall seconds is the scheduler's overhead; target <= 1.25x.

Then ``read_atlas(folder).solution(stack, ante)`` per call: the mean over 2,000 calls at random
stacks and antes of the atlas, once each structure's path is loaded (target <= 1 ms), and the
first call of a structure (which loads its stored path and payoffs).  Target for the local
atlas of 51 structures: <= 8 s wall.  The ante path against a stack path of as many breakpoints is
in ``bench_thresholds.py``.
"""

from __future__ import annotations

import argparse
import random
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

from _common import Record, Timing, machine, report, timed

import sflp
from sflp.atlas.jobs import atlas_jobs, parse_antes
from sflp.atlas.read import read_atlas
from sflp.atlas.write import write_atlas
from sflp.checks import parse_stacks

RECORD = Record("atlas")


def _worker_cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    return own.ru_utime + own.ru_stime


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--antes", default="0:0.25:0.005")
    parser.add_argument("--no-dask", action="store_true", help="skip the LocalCluster runs")
    RECORD.arguments(parser)
    args = parser.parse_args(argv)
    RECORD.use(args)
    antes = parse_antes(args.antes)
    jobs = atlas_jobs([(0.5, 1.0, a, 0.0) for a in antes], parse_stacks("1:25:0.05"), ante_stacks=())
    tmp = Path(tempfile.mkdtemp(prefix="bench-atlas-"))
    what = f"atlas of {len(jobs)} structures x 1-25 bb @0.05 (thresholds, values, paths)"
    print(f"machine: {machine()}")
    print(what)
    sflp.solve(sflp.GameConfig(stack=10))  # the table and the LP's modules loaded once, untimed
    try:
        local, inline = Timing(), Timing()
        for _ in range(args.runs):
            timed(lambda: write_atlas(jobs, tmp / "local"), local)
            timed(lambda: write_atlas(jobs, tmp / "inline", workers=0), inline)
        report("  this machine, default workers", local, target="wall <= 8 s")
        report("  this machine, one process (--workers 0)", inline)
        RECORD.timing("local", local, what + ", default workers")
        RECORD.timing("inline", inline, what + ", one process")
        same = all((tmp / "local" / p.relative_to(tmp / "inline")).read_bytes() == p.read_bytes()
                   for p in (tmp / "inline").rglob("*.parquet") if p.is_file())
        print(f"  the same Parquet bytes with and without workers: {same}")
        if not args.no_dask:
            dask_runs(jobs, tmp, args.runs, local)
        solution_speed(read_atlas(tmp / "local"), antes)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    RECORD.write()
    return 0


def dask_runs(jobs, tmp: Path, runs: int, local: Timing) -> None:
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        print("  (no Dask: pip install 'sflp[dask]' for the cluster figures)")
        return
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        client.run(sflp.solve, sflp.GameConfig(stack=10))  # each worker loads the table once, untimed
        t = Timing()
        for _ in range(runs):
            before = sum(client.run(_worker_cpu).values())
            c0, t0 = _own_cpu(), time.perf_counter()
            write_atlas(jobs, tmp / "dask", client=client)
            wall = time.perf_counter() - t0
            t.add(wall, _own_cpu() - c0 + sum(client.run(_worker_cpu).values()) - before)
    report("  a 2-worker Dask LocalCluster", t)
    ratio = t.wall / local.wall
    print(f"  cluster / this machine (default workers): wall {ratio:.2f}x (target <= 1.25x)")
    same = all((tmp / "local" / p.relative_to(tmp / "dask")).read_bytes() == p.read_bytes()
               for p in (tmp / "dask").rglob("*.parquet") if p.is_file())
    print(f"  the same Parquet bytes as on this machine: {same}")
    RECORD.timing("dask", t, "the same atlas on a 2-worker Dask LocalCluster")
    RECORD.put("dask_ratio", round(ratio, 2), f"{ratio:.2f}x", "wall of the LocalCluster over this machine's")


def _own_cpu() -> float:
    from _common import cpu_seconds

    return cpu_seconds()


def solution_speed(atlas, antes) -> None:
    """``solution`` per call: the first call of each structure (its stored path and payoffs are
    loaded then, once), and then 2,000 calls at random stacks and antes, every path loaded."""
    rng = random.Random(35)
    t0 = time.perf_counter()
    for ante in antes:
        atlas.solution(stack=10, ante=ante)
    first = (time.perf_counter() - t0) / len(antes)
    points = [(rng.uniform(1.3, 25.0), rng.choice(antes)) for _ in range(2000)]
    t0 = time.perf_counter()
    for stack, ante in points:
        atlas.solution(stack=stack, ante=ante)
    per = (time.perf_counter() - t0) / len(points)
    print(f"  read_atlas(...).solution(stack, ante): {per * 1e3:.3f} ms a call over {len(points)} calls "
          f"(target <= 1 ms); the first call of a structure {first * 1e3:.1f} ms (its path and payoffs loaded)")
    RECORD.seconds("solution", per, "read_atlas(...).solution per call")
    RECORD.seconds("solution_first", first, "the first solution call of a structure")


if __name__ == "__main__":
    sys.exit(main())
