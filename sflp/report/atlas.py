"""The structure atlas: exact charts across blind structures, in one folder of Parquet datasets.

One *job* (:class:`AtlasJob`) is one blind structure (small blind, big blind, ante, BB ante) with
its grid of stacks; :func:`solve_structure` solves it in any process -- a pure function of the job,
so the same job gives the same bytes on any machine -- and returns its tables as Arrow tables
(:class:`StructureResult`):

==========================  ================================================================
``thresholds``              the certified stack path's thresholds: structure columns, ``player``,
                            ``hand``, then ``thresholds.csv``'s columns of ``sflp chart`` with
                            the same texts (``max_stack``, ``capped``, ``intervals``,
                            ``any_intervals``, ``chart_label``), the chart number ``label``,
                            ``multi``, and the intervals as numbers: ``from`` / ``to`` (frequency
                            > 0.5) and ``any_from`` / ``any_to`` (> 0), lists of floats
``values``                  every grid stack: ``stack``, ``value``, ``push_pct``, ``call_pct``,
                            ``exploitability`` -- ``values.csv``'s numbers (each the exact value
                            rounded once, read off the path a segment at a time)
``paths``                   the exact path: one row per segment, ``segment``, ``from``, ``to``
                            (the breakpoints are the ``from`` of every segment but the first) and
                            its support as class names, ``sb_pure``, ``sb_mixed``, ``bb_pure``,
                            ``bb_mixed`` (comma-separated, class-id order)
``ante_thresholds``         the path along the ante at fixed stacks (``ante_stacks``: the stacks
                            of a line of structures that differ only in their ante, dealt round
                            them): line columns (``small_blind``, ``big_blind``, ``bb_ante``),
                            ``stack``, ``ante_low``, ``ante_high``, ``player``, ``hand``,
                            ``max_ante``, ``capped``,
                            ``intervals``, ``any_intervals`` (in ante units, bb), ``label``,
                            ``from`` / ``to``, ``any_from`` / ``any_to``
==========================  ================================================================

:func:`write_atlas` runs the jobs (``runner(solve_structure, jobs)``: by default in this process
for one structure and in forked worker processes for more; :mod:`sflp.report.atlas_dask` maps
them over a Dask cluster) and, once every result is gathered, writes the folder as one unit
(:class:`sflp.report.staging.StagedFolder`: staged, locked, swapped in), hive-partitioned by
structure so that pandas, polars and DuckDB read each dataset directly::

    thresholds.parquet/structure=sb0.5_bb1_ante0.1_bbante0/part-0.parquet
    values.parquet/structure=.../part-0.parquet
    paths.parquet/structure=.../part-0.parquet
    ante_thresholds.parquet/line=sb0.5_bb1_bbante0/<structure>.parquet  (the stacks that job followed)
    manifest.json         the structures, the grids, every file's size and SHA-256

The structure columns (``small_blind``, ``big_blind``, ``ante``, ``bb_ante``) stay inside each
file too.  The Parquet bytes are deterministic: no timestamp, no pandas metadata, one row group.

:func:`read_atlas` reads a folder back, checked against its manifest, as DataFrames, and its
:meth:`Atlas.solution` recomputes any stack of a structure of the atlas exactly from the stored
path (the segment's support, its indifference systems solved at that stack: no LP).
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

import numpy as np

from sflp.errors import ConfigError, DataError

KIND = "structure-atlas"
"""The ``kind`` of an atlas's ``manifest.json``."""
DATASETS = ("thresholds", "values", "paths", "ante_thresholds")
"""The atlas's Parquet datasets, each the folder ``<name>.parquet``."""
PART = "part-0.parquet"
CHARTS = "charts"
"""The folder of the structures' chart sets (``--charts``): ``charts/<structure>/`` each."""
ANTE_STEP = 0.5
"""The default stacks of the ante path: every 0.5 bb of the stack range (that covers the antes)."""
PRESETS: dict[str, tuple[tuple[float, float, float, float], ...]] = {
    "standard": ((0.5, 1.0, 0.0, 0.0), (0.5, 1.0, 0.1, 0.0), (0.5, 1.0, 0.125, 0.0), (0.5, 1.0, 0.0, 1.0)),
}
"""Blind structures ``(small blind, big blind, ante, BB ante)`` by preset name: ``standard`` is the
four of the web charts, no ante, 10 % and 12.5 % antes, and a 1 bb big-blind ante."""


def _text(x: float) -> str:
    return format(float(x), ".12g")


# ---------------------------------------------------------------- jobs


@dataclass(frozen=True)
class AtlasJob:
    """One blind structure of an atlas: what :func:`solve_structure` needs, picklable.

    ``stacks`` are the grid stacks (increasing), ``low`` / ``high`` the range of the stack path
    (the first and last grid stack); ``ante_stacks`` the stacks at which the path along the ante
    is followed from ``ante_low`` to ``ante_high`` (empty: none)."""

    small_blind: float
    big_blind: float
    ante: float
    bb_ante: float
    stacks: tuple[float, ...]
    low: float
    high: float
    ante_stacks: tuple[float, ...] = ()
    ante_low: float = 0.0
    ante_high: float = 0.0
    charts: tuple[str, ...] = ()
    """The formats of the structure's chart set (``sflp chart``'s, :data:`sflp.report.writers.FORMATS`),
    written into the atlas's ``charts/<structure>`` folder; empty: no chart set."""

    @property
    def name(self) -> str:
        """The structure's partition value: ``sb0.5_bb1_ante0.1_bbante0``."""
        return structure_name(self.small_blind, self.big_blind, self.ante, self.bb_ante)

    @property
    def line(self) -> str:
        """The line of structures that differ only in their ante: ``sb0.5_bb1_bbante0``."""
        return f"sb{_text(self.small_blind)}_bb{_text(self.big_blind)}_bbante{_text(self.bb_ante)}"

    def config(self, stack: float | None = None):
        """The structure as a :class:`~sflp.core.game.GameConfig` at ``stack`` (default ``low``)."""
        from sflp.core.game import GameConfig

        return GameConfig(stack=self.low if stack is None else stack, small_blind=self.small_blind,
                          big_blind=self.big_blind, ante=self.ante, bb_ante=self.bb_ante)


def structure_name(small_blind: float, big_blind: float, ante: float, bb_ante: float) -> str:
    """``sb0.5_bb1_ante0.125_bbante0`` (numbers in their shortest form).

    >>> structure_name(0.5, 1, 0.125, 0)
    'sb0.5_bb1_ante0.125_bbante0'
    """
    return f"sb{_text(small_blind)}_bb{_text(big_blind)}_ante{_text(ante)}_bbante{_text(bb_ante)}"


def parse_antes(text: str, option: str = "--ante") -> list[float]:
    """``"0:0.25:0.005"`` (start:stop:step, stop included when on the grid), ``"0,0.1,0.125"`` or
    ``"0.1"``: antes in bb, zero allowed, increasing without repeats; errors name ``option``.

    >>> parse_antes("0:0.01:0.005"), parse_antes("0.125, 0")
    ([0.0, 0.005, 0.01], [0.0, 0.125])
    """
    from sflp.checks import MAX_STACKS, parse_number

    text = str(text).strip(" \t")
    usage = f"{option} {text!r} is not START:STOP:STEP (e.g. 0:0.25:0.005) or a comma list (e.g. 0,0.1,0.125)"
    try:
        parts = [parse_number(p.strip(" \t"), option, exact=True) for p in text.split(":" if ":" in text else ",")]
    except (ConfigError, OverflowError):
        raise ConfigError(usage) from None
    if ":" in text:
        if len(parts) != 3:
            raise ConfigError(usage)
        start, stop, step = (Fraction(p) for p in parts)
        if step <= 0:
            raise ConfigError(f"{option} {text!r}: the step must be positive")
        if stop < start:
            raise ConfigError(f"{option} {text!r}: stop must not be below start")
        count = int((stop - start) / step) + 1
        if count > MAX_STACKS:
            raise ConfigError(f"{option} {text!r}: {count:,} antes is more than {MAX_STACKS:,}")
        values = list(dict.fromkeys(float(start + k * step) for k in range(count)))
    else:
        values = sorted({float(p) for p in parts})
    bad = [v for v in values if not (v >= 0 and math.isfinite(v))]
    if bad:
        raise ConfigError(f"{option} {text!r}: antes must be numbers of at least 0 (got {bad[0]:g})")
    return values


def _grid_from(stacks: Sequence[float], first: float) -> tuple[float, ...]:
    """The grid ``stacks`` from ``first`` on: ``first`` itself when it is above the grid's start,
    then the grid stacks above it (the rule of ``sflp chart``'s default stacks)."""
    if first <= stacks[0]:
        return tuple(stacks)
    return (first, *[s for s in stacks if s > first])


def default_ante_stacks(low: float, high: float, first: float) -> tuple[float, ...]:
    """Every :data:`ANTE_STEP` bb in ``[max(low, first), high]``.

    >>> default_ante_stacks(1, 3, 1.25)
    (1.5, 2.0, 2.5, 3.0)
    """
    start = max(low, first)
    k = math.ceil(start / ANTE_STEP - 1e-12)
    out = []
    while k * ANTE_STEP <= high + 1e-12:
        out.append(k * ANTE_STEP)
        k += 1
    return tuple(out)


def atlas_jobs(structures: Sequence[tuple[float, float, float, float]], stacks: Sequence[float], *,
               ante_stacks: Sequence[float] | None = None, charts: Sequence[str] | str | None = (),
               stacks_option: str = "--stacks", ante_stacks_option: str = "--ante-stacks") -> list[AtlasJob]:
    """The jobs of an atlas: one per structure ``(small blind, big blind, ante, BB ante)``, in the
    order given, over the grid ``stacks`` (each structure from the first stack that covers its big
    blind and antes, as ``sflp chart`` does).  Along each line of structures that differ only in
    their ante, the path along the ante runs from the line's lowest ante to its highest at
    ``ante_stacks`` (default: every 0.5 bb of the range that covers the highest ante; ``()``:
    none), those stacks dealt round the line's structures (stack ``k`` to its ``k mod m``-th
    structure by ante) so that they spread over the workers.  ``charts`` are the formats of each
    structure's chart set (``None``: every format; ``()``: none).  Every input is checked here,
    before any work; errors name the options."""
    from sflp.checks import Stacks, stack_list
    from sflp.core.game import GameConfig, min_stack

    if charts is None or isinstance(charts, str) or len(charts):
        from sflp.report.writers import check_formats

        charts = check_formats(charts)  # None: every format

    grid = list(stacks) if isinstance(stacks, Stacks) else stack_list(stacks)
    if not grid:
        raise ConfigError(f"{stacks_option}: no stacks given")
    if any(not (b > a) for a, b in zip(grid, grid[1:])):
        raise ConfigError(f"{stacks_option}: stacks must increase without repeats")
    if not structures:
        raise ConfigError("an atlas needs at least one blind structure")
    seen: set[tuple] = set()
    checked = []
    for sb, bb, ante, bb_ante in structures:
        sizes = [abs(v) for v in (sb, bb, ante, bb_ante) if isinstance(v, int | float) and math.isfinite(v)]
        GameConfig(stack=2 * sum(sizes) + 1, small_blind=sb, big_blind=bb,
                   ante=ante, bb_ante=bb_ante)  # the blinds and antes on their own: the messages name them
        key = (float(sb), float(bb), float(ante), float(bb_ante))
        if key in seen:
            raise ConfigError(f"structure {structure_name(*key)} is given twice")
        seen.add(key)
        checked.append(key)
    lines: dict[tuple, list[float]] = {}
    for sb, bb, ante, bb_ante in checked:
        lines.setdefault((sb, bb, bb_ante), []).append(ante)
    firsts = {key: _grid_from(grid, min_stack(key[1], ante, key[2])) for key, antes in lines.items()
              for ante in [min(antes)]}
    jobs = []
    for sb, bb, ante, bb_ante in checked:
        first = min_stack(bb, ante, bb_ante)
        own = _grid_from(grid, first)
        if own[-1] < first or len(own) < 2:
            raise ConfigError(
                f"{stacks_option}: structure {structure_name(sb, bb, ante, bb_ante)} needs at least two stacks "
                f"from {_text(first)} bb (its big blind and antes) on; the grid ends at {_text(grid[-1])} bb")
        antes = sorted(lines[(sb, bb, bb_ante)])
        a_low, a_high = antes[0], antes[-1]
        line_stacks: tuple[float, ...] = ()
        if a_high > a_low:
            top = min_stack(bb, a_high, bb_ante)
            if ante_stacks is None:
                span = firsts[(sb, bb, bb_ante)]
                line_stacks = default_ante_stacks(span[0], span[-1], top)
            else:
                line_stacks = tuple(sorted({float(s) for s in ante_stacks}))
                low = [s for s in line_stacks if s < top or not math.isfinite(s)]
                if low:
                    raise ConfigError(
                        f"{ante_stacks_option}: stack {_text(low[0])} bb cannot cover the big blind and the highest "
                        f"ante ({_text(top)} bb in all); give stacks from {_text(top)} bb on")
        # the line's ante paths are dealt round the line's structures, so that they spread over the workers
        share = line_stacks[antes.index(ante)::len(antes)]
        jobs.append(AtlasJob(sb, bb, ante, bb_ante, tuple(own), own[0], own[-1], share,
                             a_low if share else 0.0, a_high if share else 0.0, tuple(charts)))
    return jobs


# ---------------------------------------------------------------- solving one structure


@dataclass(frozen=True)
class StructureResult:
    """The tables of one solved structure (:func:`solve_structure`), as ``pyarrow.Table``s:
    picklable, gathered back from any process.  ``ante_thresholds`` has no rows when the job has
    no ante stacks."""

    name: str
    line: str
    thresholds: object
    values: object
    paths: object
    ante_thresholds: object
    breakpoints: int = 0
    lp_solves: int = 0
    charts: dict = field(default_factory=dict, repr=False)
    """The structure's chart set (with ``job.charts``): path inside it -> the file's bytes."""


def _pyarrow():
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise ConfigError("the structure atlas needs pyarrow: pip install 'sflp[parquet]' "
                          "(or pip install pyarrow)") from None
    return pa, pq


_STRUCTURE = ("small_blind", "big_blind", "ante", "bb_ante")
_LINE = ("small_blind", "big_blind", "bb_ante")


def _schemas():
    pa, _ = _pyarrow()
    f64, text, flag, floats = pa.float64(), pa.string(), pa.bool_(), pa.list_(pa.float64())
    structure = [(c, f64) for c in _STRUCTURE]
    intervals = [("from", floats), ("to", floats), ("any_from", floats), ("any_to", floats)]
    return {
        "thresholds": pa.schema(structure + [
            ("player", text), ("hand", text), ("max_stack", f64), ("capped", flag), ("intervals", text),
            ("any_intervals", text), ("chart_label", text), ("label", text), ("multi", flag)] + intervals),
        "values": pa.schema(structure + [("stack", f64), ("value", f64), ("push_pct", f64), ("call_pct", f64),
                                         ("exploitability", f64)]),
        "paths": pa.schema(structure + [("segment", pa.int64()), ("from", f64), ("to", f64), ("sb_pure", text),
                                        ("sb_mixed", text), ("bb_pure", text), ("bb_mixed", text)]),
        "ante_thresholds": pa.schema([(c, f64) for c in _LINE] + [
            ("stack", f64), ("ante_low", f64), ("ante_high", f64), ("player", text), ("hand", text),
            ("max_ante", f64), ("capped", flag), ("intervals", text), ("any_intervals", text),
            ("label", text)] + intervals),
    }


def _table(name: str, columns: dict):
    pa, _ = _pyarrow()
    schema = _schemas()[name]
    return pa.table({f.name: pa.array(columns[f.name], type=f.type) for f in schema}, schema=schema)


def _hand_names(ids) -> str:
    from sflp.core.cards import CLASS_NAMES

    return ",".join(CLASS_NAMES[i] for i in sorted(ids))


def _interval_lists(hands) -> dict[str, list]:
    return {
        "from": [[float(a) for a, _ in h.intervals] for h in hands],
        "to": [[float(b) for _, b in h.intervals] for h in hands],
        "any_from": [[float(a) for a, _ in h.any_intervals] for h in hands],
        "any_to": [[float(b) for _, b in h.any_intervals] for h in hands],
    }


def _threshold_table(job: AtlasJob, thresholds):
    from sflp.core.cards import CLASS_NAMES, PLAYERS
    from sflp.report.threshold_rows import ROW_COLUMNS, threshold_rows

    rows = threshold_rows(thresholds)
    columns = {c: [r[k] for r in rows] for k, c in enumerate(ROW_COLUMNS)}
    hands = [thresholds.get(p, h) for p in PLAYERS for h in CLASS_NAMES]
    n = len(rows)
    structure = {c: [float(getattr(job, c))] * n for c in _STRUCTURE}
    return _table("thresholds", {**structure, **columns, **_interval_lists(hands)})


def _values_table(job: AtlasJob, config, thresholds):
    """``values.csv``'s numbers of every grid stack, made the way ``sflp chart`` makes them."""
    from sflp.report.chartset import SweepSummary, _blocks
    from sflp.solving.solver import iter_blocks

    rows = [values for _, _, _, values, _, _ in
            _blocks(iter_blocks(job.stacks, config, path=thresholds), False, SweepSummary())]
    table = np.concatenate(rows) if rows else np.zeros((0, 5))
    n = len(table)
    return _table("values", {**{c: [float(getattr(job, c))] * n for c in _STRUCTURE},
                             **{c: table[:, k].tolist() for k, c in enumerate(
                                 ("stack", "value", "push_pct", "call_pct", "exploitability"))}})


def _paths_table(job: AtlasJob, thresholds):
    segments = thresholds.segments
    n = len(segments)
    return _table("paths", {
        **{c: [float(getattr(job, c))] * n for c in _STRUCTURE},
        "segment": list(range(n)),
        "from": [float(a) for a, _, _ in segments],
        "to": [float(b) for _, b, _ in segments],
        "sb_pure": [_hand_names(s.sb_pure) for _, _, s in segments],
        "sb_mixed": [_hand_names(s.sb_mixed) for _, _, s in segments],
        "bb_pure": [_hand_names(s.bb_pure) for _, _, s in segments],
        "bb_mixed": [_hand_names(s.bb_mixed) for _, _, s in segments],
    })


def ante_path_available() -> bool:
    """Whether :func:`sflp.solving.thresholds.compute_thresholds` follows the path along the ante
    (``along="ante"``)."""
    import inspect

    from sflp.solving.thresholds import compute_thresholds

    return "along" in inspect.signature(compute_thresholds).parameters


def _ante_table(job: AtlasJob):
    from sflp.core.cards import CLASS_NAMES, PLAYERS
    from sflp.core.game import GameConfig
    from sflp.errors import SolveError
    from sflp.solving.thresholds import compute_thresholds

    columns: dict[str, list] = {c: [] for c in _schemas()["ante_thresholds"].names}
    if job.ante_stacks and not ante_path_available():
        raise SolveError("the path along the ante (compute_thresholds(..., along='ante')) is not in this sflp; "
                         "write the atlas without ante stacks")
    for stack in job.ante_stacks:
        config = GameConfig(stack=stack, small_blind=job.small_blind, big_blind=job.big_blind, ante=job.ante_low,
                            bb_ante=job.bb_ante)
        path = compute_thresholds(config, job.ante_low, job.ante_high, along="ante")
        hands = [path.get(p, h) for p in PLAYERS for h in CLASS_NAMES]
        for h in hands:
            iv_text, any_text, top_text = h.published_texts()
            columns["player"].append(h.player)
            columns["hand"].append(h.hand)
            columns["max_ante"].append(math.nan if top_text is None else float(top_text))
            columns["capped"].append(bool(h.capped))
            columns["intervals"].append(iv_text)
            columns["any_intervals"].append(any_text)
            # along the ante a hand is mostly played more as the ante grows: its largest ante is
            # the top of the range, and says nothing; the label is where it is played
            columns["label"].append(h.label())
        for key, values in _interval_lists(hands).items():
            columns[key] += values
        n = len(hands)
        for c in _LINE:
            columns[c] += [float(getattr(job, c))] * n
        columns["stack"] += [float(stack)] * n
        columns["ante_low"] += [float(job.ante_low)] * n
        columns["ante_high"] += [float(job.ante_high)] * n
    return _table("ante_thresholds", columns)


def _chart_files(job: AtlasJob, config, thresholds) -> dict[str, bytes]:
    """The chart set ``sflp chart`` writes for the structure over the job's stacks (the formats
    ``job.charts``), as bytes by path: written by :func:`sflp.report.chartset.write_set` into a
    temporary folder of this process (all in this process: it may itself be a worker), read back."""
    import tempfile

    from sflp.checks import Stacks
    from sflp.report.chartset import write_set
    from sflp.solving.solver import iter_blocks

    with tempfile.TemporaryDirectory(prefix="sflp-atlas-chart-") as tmp:
        out = Path(tmp) / job.name
        write_set(iter_blocks(job.stacks, config, path=thresholds), thresholds, out, stacks=Stacks(job.stacks),
                  formats=job.charts, workers=0)
        return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


def solve_structure(job: AtlasJob) -> StructureResult:
    """Solve one structure of an atlas: its certified stack path (the thresholds, the path, every
    grid stack's values) and its ante paths.  Deterministic: the same job gives the same tables,
    in any process."""
    from sflp.solving.thresholds import compute_thresholds

    if not isinstance(job, AtlasJob):
        raise ConfigError(f"solve_structure needs an AtlasJob, got {type(job).__name__}")
    config = job.config()
    thresholds = compute_thresholds(config, job.low, job.high)
    return StructureResult(
        name=job.name, line=job.line,
        thresholds=_threshold_table(job, thresholds),
        values=_values_table(job, config, thresholds),
        paths=_paths_table(job, thresholds),
        ante_thresholds=_ante_table(job),
        breakpoints=len(thresholds.breakpoints),
        lp_solves=int(thresholds.lp_solves),
        charts=_chart_files(job, config, thresholds) if job.charts else {},
    )


# ---------------------------------------------------------------- running the jobs

Runner = Callable[[Callable, list], list]


def _warm() -> None:
    """What every structure needs, loaded before the workers fork: the equity table (about 0.35 s
    to load) and the solver's modules (the LP's cvxpy, the path's kernels)."""
    from sflp.core.equity import load_table

    load_table()
    import sflp.solving.lp  # noqa: F401
    import sflp.solving.solver  # noqa: F401


def local_runner(workers: int | None = None) -> Runner:
    """The local runner: ``runner(fn, jobs)`` -> ``[fn(job) for job in jobs]``, in job order.

    ``workers`` forked processes (:class:`sflp.report.jobs.Jobs`) share the jobs; 0 runs them in
    this process.  Default: in this process for one job (a worker would only add its start,
    about 0.1 s, to a structure's 0.5 to 3 s), else one worker per usable core
    (:func:`sflp.report.jobs.usable_cpus`), at most one per job and :data:`sflp.checks.MAX_WORKERS`."""

    def run(fn, jobs: list) -> list:
        from sflp.checks import MAX_WORKERS
        from sflp.report.jobs import Jobs, usable_cpus

        n = workers
        if n is None:
            n = 0 if len(jobs) < 2 or usable_cpus() < 2 else min(usable_cpus(), len(jobs), MAX_WORKERS)
        if n <= 0:
            return [fn(job) for job in jobs]
        _warm()  # loaded once here, shared by the forked workers (copy on write)
        with Jobs(min(n, len(jobs))) as pool:
            futures = [pool.submit(fn, job) for job in jobs]
            return [f.result() for f in futures]

    return run


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
    from sflp.report.staging import _inner_path

    if not _inner_path(inner):
        raise DataError(f"a chart set's file {inner!r:.60} is not a path inside its folder")
    path = folder.joinpath(*inner.split("/"))
    path.parent.mkdir(parents=True, exist_ok=True)
    write_bytes(path, data)


def _check_jobs(jobs) -> list[AtlasJob]:
    if isinstance(jobs, AtlasJob):
        jobs = [jobs]
    try:
        jobs = list(jobs)
    except TypeError:
        raise ConfigError(f"write_atlas needs a list of AtlasJob, got {type(jobs).__name__}") from None
    if not jobs:
        raise ConfigError("write_atlas: no structures to solve")
    bad = [j for j in jobs if not isinstance(j, AtlasJob)]
    if bad:
        raise ConfigError(f"write_atlas needs AtlasJob objects (from atlas_jobs), got {type(bad[0]).__name__}")
    names = [j.name for j in jobs]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise ConfigError(f"write_atlas: structure {twice[0]} is given twice")
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
            "step": None if step is None else float(_text(step))}


def write_atlas(jobs, out: Path | str, *, runner: Runner | None = None, client=None, workers: int | None = None,
                wait: bool = True, on_wait=None, on_keep=None, progress=None, hands=None) -> AtlasResult:
    """Solve every job and write the atlas folder ``out`` as one unit (see the module doc).

    ``runner(fn, jobs)`` returns ``[fn(job) for job in jobs]`` in job order, wherever it runs
    them (default :func:`local_runner` with ``workers``); ``client`` (a Dask scheduler's address
    such as ``"tcp://HOST:8786"``, or a ``distributed.Client``) maps them over that cluster
    instead (:func:`sflp.report.atlas_dask.dask_runner`).  Nothing is staged before every result
    is back: an error or an interrupt while solving leaves ``out`` as it was.  ``wait``,
    ``on_wait`` and ``on_keep`` are those of :func:`sflp.report.chartset.write_chart_set`;
    ``progress(phase, done, total)`` is told ``"writing"`` per structure written.  ``hands`` are
    the hands of ``hand_maps.png`` / ``.svg`` (default
    :data:`sflp.report.atlas_outputs.MAP_HANDS`; ``()``: no hand maps); ``atlas.html`` and the
    ante-shift page are written too (:mod:`sflp.report.atlas_outputs`)."""
    import time

    import sflp
    from sflp.report.atlas_outputs import MAP_HANDS, write_outputs
    from sflp.report.chartset import _checksum
    from sflp.report.staging import StagedFolder, check_target, write_manifest

    start = time.perf_counter()
    jobs = _check_jobs(jobs)
    hands = _check_hands(MAP_HANDS if hands is None else hands)
    _, pq = _pyarrow()
    out = check_target(Path(out))
    if sum(x is not None for x in (runner, client, workers)) > 1:
        raise ConfigError("write_atlas: give one of runner, client (a Dask cluster) and workers (this machine)")
    if workers is not None:
        from sflp.checks import MAX_WORKERS, count

        workers = count("workers", workers, high=MAX_WORKERS)
    if client is not None:
        from sflp.report.atlas_dask import dask_runner

        runner = dask_runner(client)
    run = runner if runner is not None else local_runner(workers)
    results = list(run(solve_structure, jobs))
    if len(results) != len(jobs) or any(not isinstance(r, StructureResult) for r in results):
        raise DataError(f"the runner returned {len(results)} results for {len(jobs)} jobs, or not StructureResults")
    for job, result in zip(jobs, results):
        if result.name != job.name:
            raise DataError(f"the runner returned structure {result.name} where {job.name} was expected")
    tick = progress or (lambda phase, done, total: None)
    structures = [{
        "name": job.name, **{c: float(getattr(job, c)) for c in _STRUCTURE},
        "stacks": _grid_info(job.stacks), "breakpoints": r.breakpoints, "lp_solves": r.lp_solves,
        "ante_path": None if not job.ante_stacks else {
            "line": job.line, "low": job.ante_low, "high": job.ante_high, "stacks": list(job.ante_stacks)},
        "chart_set": f"{CHARTS}/{job.name}" if job.charts else None,
    } for job, r in zip(jobs, results)]
    folder = StagedFolder(out, wait=wait, on_wait=on_wait)
    with folder as stage:
        for done, (job, result) in enumerate(zip(jobs, results), 1):
            for name in ("thresholds", "values", "paths"):
                _write_part(pq, getattr(result, name), stage / f"{name}.parquet" / f"structure={job.name}" / PART)
            if result.ante_thresholds.num_rows:
                _write_part(pq, result.ante_thresholds,
                            stage / "ante_thresholds.parquet" / f"line={job.line}" / f"{job.name}.parquet")
            for inner, data in sorted(result.charts.items()):
                _write_chart_file(stage / CHARTS / job.name, inner, data)
            tick("writing", done, len(jobs))
        write_outputs(stage, jobs, results, hands=hands)
        import pyarrow

        info = {"kind": KIND, "sflp_version": sflp.__version__, "equity_table_sha256": _checksum(),
                "structures": structures, "made_with": {"pyarrow": pyarrow.__version__}}
        write_manifest(stage, info, folders=True)
        from sflp.report.staging import read_manifest

        manifest = read_manifest(stage)
    if folder.kept and on_keep is not None:
        on_keep(folder.kept)
    files = [e["name"] for e in manifest["files"]] + [f"{f['name']}/{e['name']}" for f in manifest["folders"]
                                                      for e in f["files"]]
    return AtlasResult(out_dir=out, files=files, structures=structures, seconds=time.perf_counter() - start)


# ---------------------------------------------------------------- reading it back


@dataclass(frozen=True)
class AtlasPoint:
    """One stack of one structure, recomputed from an atlas's stored path (:meth:`Atlas.solution`):
    SB push and BB call frequencies per class (169, :data:`sflp.core.cards.CLASS_NAMES` order),
    SB's value and the combo-weighted push / call percentages, and the segment of the path."""

    config: object
    sb_strategy: np.ndarray = field(repr=False)
    bb_strategy: np.ndarray = field(repr=False)
    value: float
    push_pct: float
    call_pct: float
    segment: int


class _StoredPath:
    """One structure's path as stored: segment starts and supports, payoffs loaded once."""

    def __init__(self, row: dict, segments) -> None:
        from sflp.core.cards import CLASS_INDEX, CLASS_SIZES
        from sflp.core.game import GameConfig, payoffs_for
        from sflp.solving.support import Support

        def ids(text: str) -> list[int]:
            return [CLASS_INDEX[h] for h in text.split(",")] if text else []

        self.low, self.high = float(segments["from"].iloc[0]), float(segments["to"].iloc[-1])
        self.config = GameConfig(stack=self.low, **{c: row[c] for c in _STRUCTURE})
        self.starts = [float(a) for a in segments["from"]]
        self.supports = [Support(frozenset(ids(sp)), tuple(ids(sm)), frozenset(ids(bp)), tuple(ids(bm)))
                         for sp, sm, bp, bm in zip(segments["sb_pure"], segments["sb_mixed"], segments["bb_pure"],
                                                   segments["bb_mixed"])]
        self.payoffs = payoffs_for(self.config)
        self.weights = CLASS_SIZES.astype(np.float64)

    def at(self, stack: float) -> AtlasPoint:
        from sflp.solving.support import indifference_system

        if not (self.low - 1e-12 * max(1.0, self.low) <= stack <= self.high + 1e-12 * max(1.0, self.high)):
            name = structure_name(*(getattr(self.config, c) for c in _STRUCTURE))
            raise ConfigError(f"stack={stack!r} is outside the atlas's range {_text(self.low)} to "
                              f"{_text(self.high)} bb for {name}")
        k = max(0, bisect.bisect_right(self.starts, stack) - 1)
        support, p = self.supports[k], self.payoffs
        K = p.K0 + stack * p.K1
        system = indifference_system(K, p.r * (p.g - p.f), support)
        x, y = system.x_pure, system.y_pure
        if support.sb_mixed:
            x, y = system.strategies(*system.solve())
        x, y = np.clip(x, 0.0, 1.0), np.clip(y, 0.0, 1.0)
        value = float(p.f + (p.g - p.f) * (p.r @ x) + x @ K @ y)
        w = self.weights
        return AtlasPoint(self.config.with_stack(stack), x, y, value, float(100 * (w @ x) / w.sum()),
                          float(100 * (w @ y) / w.sum()), k)


class Atlas:
    """A structure atlas read back (:func:`read_atlas`): ``thresholds``, ``values``, ``paths`` and
    ``ante_thresholds`` as pandas DataFrames (with a ``structure`` / ``line`` column, the
    partition), ``structures`` and ``manifest`` from its ``manifest.json``."""

    def __init__(self, folder: Path, manifest: dict, frames: dict) -> None:
        self.folder = folder
        self.manifest = manifest
        self.structures: list[dict] = list(manifest["structures"])
        self.thresholds = frames["thresholds"]
        self.values = frames["values"]
        self.paths = frames["paths"]
        self.ante_thresholds = frames["ante_thresholds"]
        self._paths: dict[str, _StoredPath] = {}

    def __repr__(self) -> str:
        return f"<Atlas {self.folder}: {len(self.structures)} structures>"

    def structure(self, *, ante: float | None = None, small_blind: float | None = None,
                  big_blind: float | None = None, bb_ante: float | None = None) -> dict:
        """The one structure of the atlas with these blinds and antes (None: any)."""
        want = {"ante": ante, "small_blind": small_blind, "big_blind": big_blind, "bb_ante": bb_ante}
        for key, value in want.items():
            if value is not None:
                from sflp.checks import real

                want[key] = real(key, value)
        found = [s for s in self.structures
                 if all(v is None or abs(s[k] - v) <= 1e-12 * max(1.0, abs(v)) for k, v in want.items())]
        if len(found) == 1:
            return found[0]
        given = ", ".join(f"{k}={v:g}" for k, v in want.items() if v is not None) or "no structure given"
        if not found:
            antes = ", ".join(sorted({_text(s["ante"]) for s in self.structures}, key=float))
            raise ConfigError(f"{given} is not a structure of this atlas (its antes: {antes}; see .structures)")
        raise ConfigError(f"{given} matches {len(found)} structures of this atlas ("
                          + ", ".join(s["name"] for s in found) + "): give small_blind, big_blind or bb_ante too")

    def solution(self, stack: float, ante: float | None = 0.0, *, small_blind: float | None = None,
                 big_blind: float | None = None, bb_ante: float | None = None) -> AtlasPoint:
        """The equilibrium at ``stack`` of the structure with ``ante`` (and, when the atlas has
        several with that ante, the given blinds / BB ante), recomputed exactly from the stored
        path: its segment's support, the indifference systems solved at ``stack``.  A
        :class:`~sflp.errors.ConfigError` when the ante is not on the atlas's grid or the stack
        is outside the structure's range."""
        from sflp.checks import real

        stack = real("stack", stack, positive=True)
        row = self.structure(ante=ante, small_blind=small_blind, big_blind=big_blind, bb_ante=bb_ante)
        path = self._paths.get(row["name"])
        if path is None:
            segments = self.paths[self.paths["structure"] == row["name"]]
            if segments.empty:
                raise DataError(f"{self.folder}: paths.parquet has no segment of structure {row['name']}")
            path = self._paths[row["name"]] = _StoredPath(row, segments)
        return path.at(stack)


def _read_dataset(pq, folder: Path, name: str, manifest: dict, key: str):
    """One dataset's files, in the manifest's order (the partition column ``key`` added), as one
    DataFrame; its schema checked."""
    import pyarrow as pa

    schema = _schemas()[name]
    listed = next((f for f in manifest.get("folders", []) if f["name"] == f"{name}.parquet"), None)
    tables = []
    for entry in (listed or {}).get("files", []):
        part, _, file = entry["name"].partition("/")
        if not part.startswith(f"{key}=") or not file.endswith(".parquet") or "/" in file:
            raise DataError(f"{folder / (name + '.parquet') / entry['name']}: not a {key}=<name>/<file>.parquet file")
        table = pq.read_table(str(folder / f"{name}.parquet" / entry["name"]))
        if table.schema.remove_metadata() != schema:
            raise DataError(f"{folder / (name + '.parquet') / entry['name']}: not the atlas's {name} schema")
        tables.append(table.append_column(key, pa.array([part[len(key) + 1:]] * table.num_rows, type=pa.string())))
    if not tables:
        return schema.append(pa.field(key, pa.string())).empty_table().to_pandas()
    frame = pa.concat_tables(tables).to_pandas()
    if name == "ante_thresholds":  # a line's stacks come from several jobs' files: in stack order
        frame = frame.sort_values([key, "stack"], kind="stable", ignore_index=True)
    return frame


def read_atlas(folder: Path | str) -> Atlas:
    """An atlas folder (:func:`write_atlas`, ``sflp atlas``) read back as an :class:`Atlas`.

    Nothing is trusted: the folder must carry an sflp manifest of kind ``structure-atlas``, every
    file must match its size and SHA-256 there (:func:`sflp.report.staging.check_manifest`),
    and every Parquet file the atlas's schema; else a :class:`~sflp.errors.DataError`."""
    from sflp.checks import instance
    from sflp.report.staging import check_manifest, read_manifest

    if not isinstance(folder, (str, Path)):
        instance("folder", folder, Path, "'reports/atlas'")
    folder = Path(folder)
    _, pq = _pyarrow()
    if not folder.is_dir():
        raise DataError(f"{folder} is not a folder (an atlas is the folder sflp atlas wrote)")
    manifest = read_manifest(folder)
    if manifest is None or manifest.get("kind") != KIND:
        raise DataError(f"{folder} is not a structure atlas: no manifest.json of kind {KIND!r}")
    # the user's own files beside the atlas are not ours to judge; inside its folders nothing is
    problems = [p for p in check_manifest(folder) if not (p.endswith(": not listed in the manifest")
                                                          and "/" not in p.split(": ")[0])]
    if problems:
        raise DataError(f"{folder} does not match its manifest ({'; '.join(problems[:3])}"
                        f"{'; ...' if len(problems) > 3 else ''}): it was changed after sflp wrote it")
    try:
        frames = {name: _read_dataset(pq, folder, name, manifest, "line" if name == "ante_thresholds" else "structure")
                  for name in DATASETS}
    except (OSError, ValueError) as exc:  # pyarrow's own errors are ValueErrors (ArrowInvalid)
        raise DataError(f"{folder}: cannot read the atlas ({exc})") from None
    if not isinstance(manifest.get("structures"), list) or not manifest["structures"]:
        raise DataError(f"{folder}: its manifest lists no structures")
    order = {s.get("name"): k for k, s in enumerate(manifest["structures"]) if isinstance(s, dict)}
    for name in ("thresholds", "values", "paths"):  # structure by structure in the manifest's order
        frame = frames[name]
        rank = frame["structure"].map(lambda n: order.get(n, len(order))).to_numpy()
        frames[name] = frame.iloc[np.argsort(rank, kind="stable")].reset_index(drop=True)
    return Atlas(folder, manifest, frames)
