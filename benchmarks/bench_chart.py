"""Benchmark of whole chart jobs: ``sflp chart`` in a fresh process, wall and CPU seconds, peak memory.

Run:  python benchmarks/bench_chart.py [--runs 3] [--sizes small,medium,large] [--record]
      python benchmarks/bench_chart_workers.py [--runs 3] [--record]   # only the --workers table

For each size, ``python -m sflp.cli chart --stacks RANGE --out TMP --json`` runs in a new process
with a fresh cache folder: once to fill the cache (not in the medians), then ``--runs`` times
alternating with **the solver alone** (the exact thresholds and every stack read off the path,
imports included, in a fresh process: ``--solver-alone``).  Each is measured in **wall seconds**
and in **CPU seconds** (user + system of the CLI and every worker it forks).  A job's **writers**
are its time beyond the solver's, in both: in wall seconds what a user waits on this machine (by
default the writers run in the CLI's process, after the solver; with ``--workers N`` at nice 10 on
the cores the solver leaves); in CPU seconds what the files cost (what a one-core machine waits).
The **peak memory** is that of the whole process tree (the sum
of the proportional set sizes of the CLI and its workers, so copy-on-write pages shared after a
fork count once; sampled from ``/proc`` every 50 ms), in one more run.  ``--writers SIZES``
adds a table of each format alone (``--formats csv`` ...).  The small size also times
``--formats csv`` alone.

Targets (issue 34, medians on an idle 2-core machine): the README's main job (small) <= 1.2 s wall,
<= 1.5 s CPU of all its processes and <= 250 MB peak memory summed over them, ``--formats csv``
<= 0.6 s wall; for medium and large the writers' CPU <= 0.5 x the solver's CPU (what a one-core
machine, or an atlas of many structures, pays), and the old wall limits (medium <= 20 s, large
<= 60 s wall, peak <= 800 / 1024 MB).  Each is printed OK or OVER TARGET.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from _common import ROOT, Record, Timing, children_cpu, machine

RECORD = Record("chart")
SIZES = {
    "small": ("1:25:0.05", 481),
    "medium": ("1:200:0.01", 19_901),
    "large": ("1:1000:0.01", 99_901),
}
TARGETS = {
    "small": {"wall": 1.2, "cpu": 1.5, "peak_mb": 250.0, "csv_wall": 0.6},
    "medium": {"wall": 20.0, "peak_mb": 800.0, "ratio_cpu": 0.5},
    "large": {"wall": 60.0, "peak_mb": 1024.0, "ratio_cpu": 0.5},
}
"""Issue 34's targets per size: whole-job ``wall`` and ``cpu`` seconds (medians), ``peak_mb`` (the
process tree's summed PSS), ``csv_wall`` (``--formats csv`` alone) and ``ratio_cpu`` (writers'
CPU / solver's CPU)."""


def target_lines(size: str, figures: dict) -> list[str]:
    """One line per target of ``size``: the figure, the limit, OK or OVER TARGET.

    >>> target_lines("small", {"wall": 1.0, "cpu": 2.0, "peak_mb": 200.0, "csv_wall": 0.5})[1]
    'CPU (all processes) 2.00 s <= 1.5 s: OVER TARGET'
    """
    names = {"wall": ("wall", "s"), "cpu": ("CPU (all processes)", "s"), "peak_mb": ("peak memory", "MB"),
             "csv_wall": ("--formats csv wall", "s"), "ratio_cpu": ("writers CPU / solver CPU", "x")}
    out = []
    for key, limit in TARGETS[size].items():
        if key not in figures:
            continue
        name, unit = names[key]
        value = figures[key]
        shown = f"{value:.0f} MB" if unit == "MB" else f"{value:.2f} {unit}" if unit == "s" else f"{value:.2f}x"
        want = f"{limit:g} MB" if unit == "MB" else f"{limit:g} {unit}" if unit == "s" else f"{limit:g}x"
        out.append(f"{name} {shown} <= {want}: {'OK' if value <= limit else 'OVER TARGET'}")
    return out


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


def _child_env(extra: dict | None = None) -> dict:
    """The environment of a timed process: this checkout first on the path, and bytecode caching
    on (a ``PYTHONDONTWRITEBYTECODE`` in the caller's shell would make every run compile sflp
    from source, about 0.5 s a process that an installed sflp never pays; the first, untimed
    run writes the caches)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), **(extra or {})}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def one_run(stacks: str, out: Path, formats: str | None = None, memory: bool = True,
            env: dict | None = None, extra: tuple[str, ...] = ()) -> dict:
    """One chart job in a fresh process: wall ``seconds``; ``cpu``, the user + system seconds of
    the CLI and every worker it forked (``RUSAGE_CHILDREN`` before and after: the job waits for
    its writer pool before it exits, and this waits for the job); the job's own ``solve_seconds``
    and ``write_seconds`` (from its JSON: thresholds plus reading every stack off the path, and
    the rest); ``tree_mb`` (peak PSS of the process tree; sampling ``/proc`` costs CPU in this
    process, not the job's, so ``memory=False`` skips it for timing runs) and ``self_mb``
    (ru_maxrss of the largest child so far)."""
    env = _child_env(env)
    shutil.rmtree(out, ignore_errors=True)
    command = [sys.executable, "-m", "sflp.cli", "chart", "--stacks", stacks, "--out", str(out), "--json"]
    if formats:
        command += ["--formats", formats]
    command += list(extra)
    cpu0 = children_cpu()
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
    cpu = children_cpu() - cpu0
    done.set()
    sampler.join()
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0 or not (out / "manifest.json").exists():
        raise SystemExit(f"chart job {stacks} failed: {err.decode()}")
    job = json.loads(stdout)
    return {"seconds": seconds, "cpu": cpu, "solve_seconds": job["solve_seconds"],
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


def solver_run(stacks: str, env: dict | None = None) -> tuple[float, float]:
    """Wall and CPU seconds of :func:`solver_alone` in a fresh process (interpreter start and
    imports included, as in a chart job)."""
    env = _child_env(env)
    cpu0 = children_cpu()
    start = time.perf_counter()
    subprocess.run([sys.executable, __file__, "--solver-alone", stacks], check=True, env=env)
    return time.perf_counter() - start, children_cpu() - cpu0


def ratio_text(x: float) -> str:
    return f"{x:.2f}×"


def _dir_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) if folder.exists() else 0


def size_table(size: str, runs: int, tmp: Path, rec: Record) -> None:
    """One job size: the job and the solver alone, ``runs`` times each (alternating), wall and CPU.

    A first run fills a fresh cache folder (the compiled LP; numba's kernels from 5,000 stacks) and
    is not in the medians; its cache is measured.  The writers are the job beyond the solver: in
    wall seconds (what a user waits: the writers in the CLI's process, after the solver) and in CPU
    seconds (what they cost: the figure of a one-core machine).  One more run samples memory."""
    stacks, count = SIZES[size]
    cache = tmp / f"cache-{size}"
    env = {"SFLP_CACHE_DIR": str(cache)}
    out = tmp / size
    first = one_run(stacks, out, memory=False, env=env)
    lp_bytes = sum(p.stat().st_size for p in cache.glob("lp-*.npz"))
    numba_bytes = _dir_bytes(cache / "numba")
    job, solver, pairs = Timing(), Timing(), []
    for _ in range(runs):
        got = one_run(stacks, out, memory=False, env=env)
        job.add(got["seconds"], got["cpu"])
        solver.add(*solver_run(stacks, env))
        pairs.append(((got["seconds"] - solver.walls[-1]) / solver.walls[-1],
                      (got["cpu"] - solver.cpus[-1]) / solver.cpus[-1]))
    peak = one_run(stacks, out, env=env)["tree_mb"]
    writers_wall, writers_cpu = job.wall - solver.wall, job.cpu - solver.cpu
    print(f"\n{size}: sflp chart --stacks {stacks} ({count:,} stacks), medians of {runs} "
          f"(first run, empty cache, not in them: {first['seconds']:.2f} s wall, {first['cpu']:.2f} s CPU)")
    print(f"  {'':<14} {'wall s':>8} {'CPU s':>8}   runs (wall / CPU)")
    for name, t in (("whole job", job), ("solver alone", solver)):
        spread = ", ".join(f"{w:.2f}/{c:.2f}" for w, c in zip(t.walls, t.cpus))
        print(f"  {name:<14} {t.wall:8.2f} {t.cpu:8.2f}   {spread}")
    print(f"  {'writers':<14} {writers_wall:8.2f} {writers_cpu:8.2f}   (job minus solver)")
    lo_w, hi_w = min(p[0] for p in pairs), max(p[0] for p in pairs)
    lo_c, hi_c = min(p[1] for p in pairs), max(p[1] for p in pairs)
    print(f"  writers/solver: wall {writers_wall / solver.wall:.2f} (pairs {lo_w:.2f}-{hi_w:.2f}), "
          f"CPU {writers_cpu / solver.cpu:.2f} (pairs {lo_c:.2f}-{hi_c:.2f})")
    print(f"  peak memory {peak:.0f} MB (PSS of the process tree, one more run); cache after the first run: "
          f"LP {lp_bytes / 1e3:.0f} KB, numba {numba_bytes / 1e6:.2f} MB")
    figures = {"wall": job.wall, "cpu": job.cpu, "peak_mb": peak, "ratio_cpu": writers_cpu / solver.cpu}
    if "csv_wall" in TARGETS[size]:
        csv = Timing()
        for _ in range(runs):
            got = one_run(stacks, tmp / f"{size}-csv", "csv", memory=False, env=env)
            csv.add(got["seconds"], got["cpu"])
        figures["csv_wall"] = csv.wall
        print(f"  --formats csv: {csv.wall:.2f} s wall, {csv.cpu:.2f} s CPU (medians of {runs})")
        rec.timing(f"{size}.csv_job", csv, f"sflp chart --stacks {stacks} --formats csv, whole process tree")
    for line in target_lines(size, figures):
        print(f"  target: {line}")
    if size == "small":
        workers_table(stacks, runs, tmp, env, rec, {0: (job, peak)})
    files = sorted(((p.stat().st_size, p.name) for p in out.iterdir()), reverse=True)
    print("  largest files: " + ", ".join(f"{n} {b / 1e6:.1f} MB" for b, n in files[:4]))
    sys.stdout.flush()
    rec.put(f"{size}.stacks", count, f"{count:,}")
    rec.timing(f"{size}.job", job, f"sflp chart --stacks {stacks}, whole process tree")
    rec.timing(f"{size}.solver", solver, f"the solver alone on {stacks}, fresh process")
    rec.seconds(f"{size}.writers.wall", writers_wall, "wall: job minus solver alone")
    rec.seconds(f"{size}.writers.cpu", writers_cpu, "CPU: job minus solver alone")
    rec.put(f"{size}.writers_ratio.wall", round(writers_wall / solver.wall, 4), ratio_text(writers_wall / solver.wall),
            "writers / solver, wall seconds")
    rec.put(f"{size}.writers_ratio.cpu", round(writers_cpu / solver.cpu, 4), ratio_text(writers_cpu / solver.cpu),
            "writers / solver, CPU seconds")
    rec.put(f"{size}.writers_ratio.cpu_pairs", [round(p[1], 4) for p in pairs], f"{lo_c:.2f}–{hi_c:.2f}",
            "writers / solver in CPU seconds, each job with the solver run after it")
    rec.seconds(f"{size}.first.wall", first["seconds"], "wall: first run, empty cache folder")
    rec.seconds(f"{size}.first.cpu", first["cpu"], "CPU: first run, empty cache folder")
    rec.put(f"{size}.peak_mb", round(peak, 1), f"{peak:.0f} MB", "peak PSS of the process tree")
    rec.put(f"{size}.cache.lp_kb", round(lp_bytes / 1e3, 1), f"{lp_bytes / 1e3:.0f} KB",
            "compiled LP entries in the cache folder after the first run")
    rec.put(f"{size}.cache.numba_mb", round(numba_bytes / 1e6, 3), f"{numba_bytes / 1e6:.2f} MB",
            "numba's kernels in the cache folder after the first run")
    for b, n in files:
        if b >= 1e6:
            rec.put(f"{size}.file.{n}", b, f"{b / 1e6:.1f} MB", f"size of {n}")


def workers_table(stacks: str, runs: int, tmp: Path, env: dict, rec: Record, known: dict | None = None) -> None:
    """The same job with ``--workers 1`` and ``--workers 2`` beside the default (one process, issue 53
    item 2): wall, CPU and peak memory, and each as a ratio to the default measured in the same run
    (equal work, the same files).  The runs of the counts alternate, so a change of the machine's
    load reaches all of them alike; ``known`` holds ``{0: (timing, peak)}`` when the caller has
    measured the default already."""
    known = dict(known or {})
    counts = (0, 1, 2)
    timings = {w: known[w][0] for w in known}
    todo = [w for w in counts if w not in known]
    for w in todo:
        timings[w] = Timing()
    for _ in range(runs):
        for w in todo:
            got = one_run(stacks, tmp / f"w{w}", memory=False, env=env, extra=("--workers", str(w)))
            timings[w].add(got["seconds"], got["cpu"])
    peaks = {w: known[w][1] for w in known}
    for w in todo:
        peaks[w] = one_run(stacks, tmp / f"w{w}", env=env, extra=("--workers", str(w)))["tree_mb"]
    base_t, base_peak = timings[0], peaks[0]
    print(f"  {'workers':<22} {'wall s':>8} {'CPU s':>8} {'peak MB':>8}   {'÷ default: wall':>15} {'CPU':>6} "
          f"{'PSS':>6}")
    for w in counts:
        t, peak = timings[w], peaks[w]
        name = f"--workers {w}" + (" (the default)" if w == 0 else "")
        print(f"  {name:<22} {t.wall:8.2f} {t.cpu:8.2f} {peak:8.0f}   {t.wall / base_t.wall:15.2f} "
              f"{t.cpu / base_t.cpu:6.2f} {peak / base_peak:6.2f}")
        rec.timing(f"small.workers{w}", t, f"sflp chart --stacks {stacks} --workers {w}")
        rec.put(f"small.workers{w}.peak_mb", round(peak, 1), f"{peak:.0f} MB",
                f"peak PSS of the process tree, --workers {w}")
        if w:
            for what, value in (("wall", t.wall / base_t.wall), ("cpu", t.cpu / base_t.cpu),
                                ("peak", peak / base_peak)):
                rec.put(f"small.workers{w}.ratio.{what}", round(value, 4), ratio_text(value),
                        f"--workers {w} / the default (one process), {what}, same run")
    sys.stdout.flush()


def writer_table(size: str, runs: int, tmp: Path) -> None:
    """Each format alone and all together: the job's wall and CPU seconds beyond the solver alone
    (medians; not recorded: ``--writers`` is for looking into one format's cost)."""
    stacks, count = SIZES[size]
    solver = Timing()
    for _ in range(runs):
        solver.add(*solver_run(stacks))
    print(f"\n{size} ({stacks}, {count:,} stacks): solver alone {solver.wall:.2f} s wall, {solver.cpu:.2f} s CPU "
          f"(median of {runs} fresh processes); each job the same way")
    print(f"  {'formats':<12} {'job s':>7} {'job CPU':>8} {'writers s':>10} {'writers CPU':>12} "
          f"{'/solver wall':>13} {'/solver CPU':>12}")
    for formats in (*WRITER_FORMATS, "all"):
        chosen = None if formats == "all" else formats
        t = Timing()
        for _ in range(runs):
            got = one_run(stacks, tmp / size, chosen, memory=False)
            t.add(got["seconds"], got["cpu"])
        w, c = t.wall - solver.wall, t.cpu - solver.cpu
        print(f"  {formats:<12} {t.wall:7.2f} {t.cpu:8.2f} {w:10.2f} {c:12.2f} {w / solver.wall:13.2f} "
              f"{c / solver.cpu:12.2f}")
        sys.stdout.flush()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--sizes", default="small,medium,large")
    parser.add_argument("--writers", default="",
                        help="sizes whose per-format table to print (medium,large), not recorded")
    parser.add_argument("--solver-alone", metavar="STACKS", help=argparse.SUPPRESS)  # the child of solver_run
    RECORD.arguments(parser)
    args = parser.parse_args(argv)
    if args.solver_alone:
        solver_alone(args.solver_alone)
        return 0
    RECORD.use(args)
    print(f"machine: {machine()}")
    with tempfile.TemporaryDirectory() as tmp:
        for size in [s for s in args.sizes.split(",") if s]:
            size_table(size, args.runs, Path(tmp), RECORD)
        for size in [s for s in args.writers.split(",") if s]:
            writer_table(size, args.runs, Path(tmp))
    print("\nwall = what a user waits (by default the writers run in the CLI's process, after the solver); "
          "CPU = user + system seconds of the CLI and its workers, what a one-core machine waits.\n"
          "Targets (issue 34): small <= 1.2 s wall, <= 1.5 s CPU, <= 250 MB, csv alone <= 0.6 s wall; "
          "writers' CPU <= 0.5 x the solver's for medium and large.")
    RECORD.write()
    return 0


if __name__ == "__main__":
    sys.exit(main())
