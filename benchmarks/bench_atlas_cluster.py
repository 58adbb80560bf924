"""The atlas on a cluster, on paper (issue 35): what 10,000 structures x 1-200 bb @0.01 would cost.

Run:  python benchmarks/bench_atlas_cluster.py [--record]

Measures, in this process, :func:`sflp.atlas.tables.solve_structure` for three structures
(antes 0, 0.1 and 0.25 bb; stacks 1-200 bb @0.01, 19,901 stacks; no ante paths), each a fresh
structure as on a cluster's worker (its LP compiled, its exact integers made): CPU and wall
seconds, the pickled result's bytes (what a worker sends back) and the Parquet bytes the atlas
writes for it.  Then the estimate for ``--structures`` structures (default 10,000) on ``--cores``
single-threaded workers (default 100): CPU-hours = structures x the median CPU; wall = that CPU
over the cores (perfectly balanced), the results' and the jobs' transfer at ``--gbit`` Gbit/s, and
the writing (the Parquet bytes at the zstd speed measured here, into memory: the disk and the
manifest's SHA-256 come on top); the wall is the longest of the three, since the writer writes
each result as it comes while the others are solved.
"""

from __future__ import annotations

import argparse
import io
import pickle
import statistics
import sys
import time

from _common import Record, cpu_seconds, machine

import sflp
from sflp.atlas.jobs import atlas_jobs
from sflp.atlas.tables import solve_structure
from sflp.checks import parse_stacks

RECORD = Record("atlas_cluster")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--structures", type=int, default=10_000)
    parser.add_argument("--cores", type=int, default=100)
    parser.add_argument("--gbit", type=float, default=10.0)
    RECORD.arguments(parser)
    args = parser.parse_args(argv)
    RECORD.use(args)
    import pyarrow.parquet as pq

    print(f"machine: {machine()}")
    sflp.solve(sflp.GameConfig(stack=10))  # the table and the modules, once (a worker loads them once)
    jobs = atlas_jobs([(0.5, 1.0, a, 0.0) for a in (0.0, 0.1, 0.25)], parse_stacks("1:200:0.01"), ante_stacks=())
    cpus, walls, sent, written, write_s = [], [], [], [], []
    for job in jobs:
        c0, t0 = cpu_seconds(), time.perf_counter()
        result = solve_structure(job)
        walls.append(time.perf_counter() - t0)
        cpus.append(cpu_seconds() - c0)
        sent.append(len(pickle.dumps(result)))
        t0 = time.perf_counter()
        size = 0
        for name in ("thresholds", "values", "paths"):
            buf = io.BytesIO()
            pq.write_table(getattr(result, name), buf, compression="zstd")
            size += buf.tell()
        write_s.append(time.perf_counter() - t0)
        written.append(size)
        print(f"  ante {job.ante:g}: {len(job.stacks):,} stacks, wall {walls[-1]:.2f} s, CPU {cpus[-1]:.2f} s, "
              f"sent {sent[-1] / 1e6:.2f} MB, Parquet {written[-1] / 1e6:.2f} MB")
    job_bytes = statistics.median(len(pickle.dumps(job)) for job in jobs)  # what the client sends a worker
    cpu, mb_sent, mb_written, w = (statistics.median(v) for v in (cpus, sent, written, write_s))
    n, cores = args.structures, args.cores
    cpu_hours = n * cpu / 3600
    compute = n * cpu / cores
    transfer = n * (mb_sent + job_bytes) * 8 / (args.gbit * 1e9)
    writing = n * w
    wall = max(compute, transfer, writing)  # they overlap: the writer writes each result as it comes
    print(f"estimate for {n:,} structures on {cores} cores: {cpu_hours:.1f} CPU-hours; "
          f"solving {compute / 60:.1f} min, results {n * mb_sent / 1e9:.1f} GB sent ({transfer / 60:.1f} min at "
          f"{args.gbit:g} Gbit/s), {n * mb_written / 1e9:.1f} GB of Parquet written ({writing / 60:.1f} min): "
          f"jobs {n * job_bytes / 1e9:.1f} GB sent to the workers; about {wall / 60:.0f} min of wall (the longest "
          "of the three: they overlap)")
    RECORD.seconds("cpu", cpu, "CPU of one structure, 1-200 bb @0.01, fresh")
    RECORD.seconds("wall", statistics.median(walls), "wall of one structure, 1-200 bb @0.01, fresh")
    RECORD.put("sent_mb", round(mb_sent / 1e6, 2), f"{mb_sent / 1e6:.1f} MB", "pickled result of one structure")
    RECORD.put("parquet_mb", round(mb_written / 1e6, 2), f"{mb_written / 1e6:.2f} MB", "Parquet of one structure")
    RECORD.put("cpu_hours", round(cpu_hours, 1), f"{cpu_hours:.0f} CPU-hours", f"{n:,} structures")
    RECORD.put("sent_gb", round(n * mb_sent / 1e9, 1), f"{n * mb_sent / 1e9:.0f} GB", f"{n:,} results sent")
    RECORD.put("parquet_gb", round(n * mb_written / 1e9, 1), f"{n * mb_written / 1e9:.1f} GB", f"{n:,} written")
    RECORD.put("compute_min", round(compute / 60, 1), f"{compute / 60:.0f} min", f"solving on {cores} cores")
    RECORD.put("transfer_min", round(transfer / 60, 1), f"{transfer / 60:.1f} min", f"sending at {args.gbit:g} Gbit/s")
    RECORD.put("writing_min", round(writing / 60, 1), f"{writing / 60:.0f} min", "writing the Parquet files")
    RECORD.put("job_kb", round(job_bytes / 1e3), f"{job_bytes / 1e3:.0f} KB", "one pickled job (its stack grid)")
    RECORD.put("jobs_gb", round(n * job_bytes / 1e9, 1), f"{n * job_bytes / 1e9:.1f} GB", f"{n:,} jobs sent")
    RECORD.put("wall_min", round(wall / 60), f"{wall / 60:.0f} min", "wall in all: the longest of the three")
    RECORD.write()
    return 0


if __name__ == "__main__":
    sys.exit(main())
