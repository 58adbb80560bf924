"""Writing an atlas (:func:`write_atlas`): the jobs run and their results stream into a staged
folder, swapped in as one unit at the end.

The folder is staged and locked first (:class:`sflp.output.stage.StagedFolder`); each
structure's partitions are written as its result arrives, and the result let go, so the writer
holds one result at a time (and what the page and pictures show, at most a hundred structures:
:class:`sflp.atlas.outputs.Outputs`): its memory does not grow with the number of structures.
The page, hand maps and ante-shift page follow, then the manifest, written last; the swap stays
atomic, and an error or an interrupt anywhere leaves the target as it was.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from sflp.atlas.jobs import CHARTS, KIND, PART, AtlasJob
from sflp.atlas.local import Runner, local_runner
from sflp.atlas.tables import STRUCTURE_COLUMNS, StructureResult, pyarrow_modules, solve_structure
from sflp.charts.text import fmt_num
from sflp.errors import ConfigError, DataError

# ---------------------------------------------------------------- writing the folder


@dataclass(frozen=True)
class AtlasResult:
    """What :func:`write_atlas` wrote."""

    out_dir: Path
    files: list[str] = field(repr=False)
    """Every file of the folder, as paths inside it (``thresholds.parquet/structure=.../part-0.parquet``)."""
    structures: list[dict] = field(repr=False)
    seconds: float = 0.0

    def to_dict(self) -> dict:
        """The JSON object of ``sflp atlas --json``."""
        return {"out_dir": str(self.out_dir), "structures": self.structures, "files": len(self.files),
                "seconds": round(self.seconds, 3)}


def _write_part(pq, table, path: Path) -> None:
    """One Parquet file, its bytes a function of the table alone (one row group, no timestamps,
    no pandas metadata; the ``created_by`` field names the pyarrow version)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(table, str(path), compression="zstd", row_group_size=max(1, table.num_rows),
                   use_dictionary=True, write_statistics=True, store_schema=True)


def _write_chart_file(folder: Path, inner: str, data: bytes) -> None:
    """One file of a structure's chart set, at its path ``inner`` (plain names joined by ``/``)."""
    from sflp.atomic import write_bytes
    from sflp.output.manifest import _inner_path

    if not _inner_path(inner):
        raise DataError(f"a chart set's file {inner!r:.60} is not a path inside its folder")
    path = folder.joinpath(*inner.split("/"))
    path.parent.mkdir(parents=True, exist_ok=True)
    write_bytes(path, data)


def _check_jobs(jobs):
    """The jobs as a sequence (an :class:`~sflp.atlas.jobs.AtlasJobs` stays lazy), every one an
    :class:`AtlasJob`, no structure twice; checked before any work."""
    from collections.abc import Sequence as SequenceABC

    from sflp.atlas.jobs import AtlasJobs

    if isinstance(jobs, AtlasJob):
        jobs = [jobs]
    if not isinstance(jobs, AtlasJobs | SequenceABC) or isinstance(jobs, str):
        try:
            jobs = list(jobs)
        except TypeError:
            raise ConfigError(f"write_atlas needs a list of AtlasJob, got {type(jobs).__name__}") from None
    if not len(jobs):
        raise ConfigError("write_atlas: no structures to solve")
    seen: set[str] = set()
    for job in jobs:
        if not isinstance(job, AtlasJob):
            raise ConfigError(f"write_atlas needs AtlasJob objects (from atlas_jobs), got {type(job).__name__}")
        if job.name in seen:
            raise ConfigError(f"write_atlas: structure {job.name} is given twice")
        seen.add(job.name)
    return jobs


def _check_hands(hands) -> tuple[str, ...]:
    """The hand maps' hands: class names (a comma list or a sequence), checked before any work."""
    from sflp.core.cards import CLASS_INDEX

    if isinstance(hands, str):
        hands = [h.strip() for h in hands.split(",") if h.strip()]
    hands = tuple(hands)
    bad = [h for h in hands if h not in CLASS_INDEX]
    if bad:
        raise ConfigError(f"hands: {bad[0]!r} is not a class name such as 'AKs', 'T9o' or '22'")
    twice = sorted({h for h in hands if hands.count(h) > 1})
    if twice:
        raise ConfigError(f"hands: {twice[0]} is given twice")
    if len(hands) > 24:
        raise ConfigError(f"hands: at most 24 hands, got {len(hands)}")
    return hands


def _grid_info(stacks: Sequence[float]) -> dict:
    steps = np.diff(np.asarray(stacks, dtype=np.float64))
    step = float(steps[0]) if len(steps) and np.allclose(steps, steps[0], rtol=0, atol=1e-9) else None
    return {"count": len(stacks), "low": float(stacks[0]), "high": float(stacks[-1]),
            "step": None if step is None else float(fmt_num(step))}


def _write_result(pq, stage: Path, job, result) -> None:
    """One structure's partitions (and its chart set's files) into the staging folder."""
    for name in ("thresholds", "values", "paths"):
        _write_part(pq, getattr(result, name), stage / f"{name}.parquet" / f"structure={job.name}" / PART)
    if result.ante_thresholds.num_rows:
        for name in ("ante_thresholds", "ante_paths"):
            _write_part(pq, getattr(result, name),
                        stage / f"{name}.parquet" / f"line={job.line}" / f"{job.name}.parquet")
    for inner, data in sorted(result.charts.items()):
        _write_chart_file(stage / CHARTS / job.name, inner, data)


def _structure_entry(job, result, reach: bool = False) -> dict:
    """The structure's entry of the manifest (``reach``: added by the reach, :mod:`sflp.atlas.reach`)."""
    return {
        "name": job.name, **{c: float(getattr(job, c)) for c in STRUCTURE_COLUMNS},
        "stacks": _grid_info(job.stacks), "breakpoints": result.breakpoints, "lp_solves": result.lp_solves,
        "ante_path": None if not job.ante_stacks else {
            "line": job.line, "low": job.ante_low, "high": job.ante_high, "stacks": list(job.ante_stacks)},
        "chart_set": f"{CHARTS}/{job.name}" if job.charts else None,
        "reach": reach,
    }


MAX_REACH = 256
"""The most structures the reach adds (``reach=``, ``--reach``)."""
REACH_BATCH = 4
"""Structures the reach solves a round (the workers share them).  A constant, not the machine's
cores: which antes the reach chooses, and so the atlas's bytes, must not depend on the machine."""


def check_reach(reach, jobs, option: str = "reach") -> int:
    """``reach`` as a count, checked with the jobs before any work: the structures must be one line
    of antes (the same blinds and BB ante, two antes or more), at most as many as the page shows.
    Errors name ``option`` (``--reach`` for the command)."""
    from sflp.atlas.page import MAX_STRUCTURES
    from sflp.checks import count

    try:
        reach = count("reach", reach, high=MAX_REACH)
    except ConfigError:
        raise ConfigError(f"{option} {reach!r}: give a whole number of structures from 0 to {MAX_REACH}") from None
    if not reach:
        return 0
    lines = {(job.small_blind, job.big_blind, job.bb_ante) for job in jobs}
    if len(lines) != 1 or len(jobs) < 2:
        raise ConfigError(f"{option} {reach}: the reach traces the hand maps between antes, so it needs structures "
                          "that differ in their ante alone (two antes or more, the same blinds and BB ante)")
    if len(jobs) > MAX_STRUCTURES:
        raise ConfigError(f"{option} {reach}: at most {MAX_STRUCTURES} structures (the page's), got {len(jobs):,}: "
                          "the maps of a finer grid of antes need no reach")
    return reach


def _reach_job(template, ante: float) -> AtlasJob:
    """A structure of ``template``'s line at ``ante``: the same grid, no ante path, no chart set."""
    from sflp.core.game import min_stack

    first = min_stack(template.big_blind, ante, template.bb_ante)
    return AtlasJob(template.small_blind, template.big_blind, ante, template.bb_ante, template.grid,
                    max(first, template.grid[0]), template.grid[-1])


def write_atlas(jobs, out: Path | str, *, runner: Runner | None = None, client=None, workers: int | None = None,
                wait: bool = True, on_wait=None, on_keep=None, progress=None, hands=None,
                reach: int = 0) -> AtlasResult:
    """Solve every job and write the atlas folder ``out`` as one unit (see the module doc).

    ``runner(fn, jobs)`` gives ``fn(job)`` for every job in job order, as a list or as an
    iterable consumed as the results come (:mod:`sflp.atlas.local`), wherever it runs them
    (default :func:`local_runner` with ``workers``: 0 to the machine's usable cores); ``client``
    (a Dask scheduler's address such as ``"tcp://HOST:8786"``, or a ``distributed.Client``) maps
    them over that cluster instead (:func:`sflp.atlas.cluster.dask_runner`).  Each result is
    written into the staging folder as it arrives and let go; an error or an interrupt while
    solving removes the staging folder and leaves ``out`` as it was.  ``wait``,
    ``on_wait`` and ``on_keep`` are those of :func:`sflp.charts.chartset.write_chart_set`;
    ``progress(phase, done, total)`` is told ``"writing"`` per structure written.  ``hands`` are
    the hands of ``hand_maps.png`` / ``.svg`` (default
    :data:`sflp.atlas.outputs.MAP_HANDS`; ``()``: no hand maps); ``atlas.html`` and the
    ante-shift page are written too (:mod:`sflp.atlas.outputs`).  ``reach``: at most that many
    structures more, at antes between the given ones that the reach chooses so that the hand maps'
    boundaries follow the exact curves (:mod:`sflp.atlas.reach`; 0: none); they are structures of the
    atlas like the others, marked ``"reach": true`` in the manifest."""
    import time

    import sflp
    from sflp.atlas.outputs import MAP_HANDS, Outputs
    from sflp.charts.about import equity_checksum
    from sflp.output.manifest import write_manifest
    from sflp.output.stage import StagedFolder
    from sflp.output.target import check_target

    start = time.perf_counter()
    jobs = _check_jobs(jobs)
    hands = _check_hands(MAP_HANDS if hands is None else hands)
    reach = check_reach(reach, jobs)
    _, pq = pyarrow_modules()
    out = check_target(Path(out), KIND)
    if sum(x is not None for x in (runner, client, workers)) > 1:
        raise ConfigError("write_atlas: give one of runner, client (a Dask cluster) and workers (this machine)")
    if workers is not None:
        from sflp.checks import count
        from sflp.output.jobs import usable_cpus

        cores = usable_cpus()
        try:  # the limit is the machine: every usable core, not more
            workers = count("workers", workers, high=cores)
        except ConfigError as exc:
            raise ConfigError(f"{exc} (this machine has {cores} usable core{'s' if cores != 1 else ''})") from None
    if client is not None:
        from sflp.atlas.cluster import dask_runner

        runner = dask_runner(client)
    run = runner if runner is not None else local_runner(workers)
    tick = progress or (lambda phase, done, total: None)
    outputs = Outputs(jobs, hands)
    structures = []
    folder = StagedFolder(out, KIND, wait=wait, on_wait=on_wait)
    with folder as stage:
        stream = getattr(run, "stream", None)  # a runner that yields: each result as it comes
        results = iter(stream(solve_structure, jobs) if stream is not None else run(solve_structure, jobs))
        try:
            for done, job in enumerate(jobs, 1):
                result = next(results, None)
                if not isinstance(result, StructureResult):
                    raise DataError(f"the runner returned {done - 1} results for {len(jobs)} jobs, or not "
                                    "StructureResults")
                if result.name != job.name:
                    raise DataError(f"the runner returned structure {result.name} where {job.name} was expected")
                _write_result(pq, stage, job, result)
                structures.append(_structure_entry(job, result))
                outputs.add(done - 1, job, result)
                del result  # written: the writer holds one result at a time
                tick("writing", done, len(jobs))
            if next(results, None) is not None:
                raise DataError(f"the runner returned more results than the {len(jobs)} jobs")
        finally:
            close = getattr(results, "close", None)
            if close is not None:  # a generator runner: its pool or cluster client is released now
                close()
        if reach:
            outputs.traced = _trace(run, stage, pq, jobs, outputs, structures, reach, tick)
        outputs.write(stage)
        import pyarrow

        info = {"kind": KIND, "sflp_version": sflp.__version__, "equity_table_sha256": equity_checksum(),
                "structures": structures, "made_with": {"pyarrow": pyarrow.__version__}}
        write_manifest(stage, info, folders=True)
        from sflp.output.manifest import read_manifest

        manifest = read_manifest(stage)
    if folder.kept and on_keep is not None:
        on_keep(folder.kept)
    files = [e["name"] for e in manifest["files"]] + [f"{f['name']}/{e['name']}" for f in manifest["folders"]
                                                      for e in f["files"]]
    return AtlasResult(out_dir=out, files=files, structures=structures, seconds=time.perf_counter() - start)


def _trace(run, stage: Path, pq, jobs, outputs, structures: list, budget: int, tick):
    """The reach (:mod:`sflp.atlas.reach`): structures solved between the antes by ``run``, each
    written as the others are and kept for the maps; returns the :class:`~sflp.atlas.reach.Reach`."""
    from sflp.atlas.maps import MAP_H, MAP_W
    from sflp.atlas.reach import trace

    rows = [(float(job.ante), outputs.view(k)) for k, job in enumerate(jobs)]
    antes = [a for a, _ in rows]
    low = min(float(job.low) for job in jobs)
    high = float(jobs[0].high)

    def solve(antes_to_solve: list[float]) -> list:
        more = [_reach_job(jobs[0], a) for a in antes_to_solve]
        stream = getattr(run, "stream", None)
        results = list(stream(solve_structure, more) if stream is not None else run(solve_structure, more))
        if len(results) != len(more) or any(r.name != j.name for r, j in zip(results, more)):
            raise DataError("the runner returned other results than the reach's structures")
        views = []
        for job, result in zip(more, results):
            _write_result(pq, stage, job, result)
            structures.append(_structure_entry(job, result, reach=True))
            views.append(outputs.add_reach(job, result))
            tick("reach", len(structures) - len(jobs), budget)
        return views

    return trace(rows, solve, budget=budget, x_scale=MAP_W / (high - low),
                 y_scale=MAP_H / (max(antes) - min(antes)), batch=REACH_BATCH)
