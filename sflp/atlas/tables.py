"""One structure solved: its tables as Arrow tables (:func:`solve_structure`, a pure function of the job).

The same job gives the same bytes on any machine, so a structure solved on a Dask worker is the
structure solved here.  The tables are the rows of the atlas's Parquet datasets (see
:mod:`sflp.atlas`): ``thresholds`` (the text of ``sflp chart``'s ``thresholds.csv``, and the
intervals as numbers), ``values``, ``paths`` and ``ante_thresholds``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from sflp.atlas.jobs import AtlasJob
from sflp.errors import ConfigError

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
    ante_paths: object = None
    """The ante paths' segments and supports (what ``ante_thresholds`` is re-proved from)."""


def pyarrow_modules():
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise ConfigError("the structure atlas needs pyarrow: pip install 'sflp[parquet]' "
                          "(or pip install pyarrow)") from None
    return pa, pq


STRUCTURE_COLUMNS = ("small_blind", "big_blind", "ante", "bb_ante")
LINE_COLUMNS = ("small_blind", "big_blind", "bb_ante")


def schemas():
    pa, _ = pyarrow_modules()
    f64, text, flag, floats = pa.float64(), pa.string(), pa.bool_(), pa.list_(pa.float64())
    structure = [(c, f64) for c in STRUCTURE_COLUMNS]
    intervals = [("from", floats), ("to", floats), ("any_from", floats), ("any_to", floats)]
    return {
        "thresholds": pa.schema(structure + [
            ("player", text), ("hand", text), ("max_stack", f64), ("capped", flag), ("intervals", text),
            ("any_intervals", text), ("chart_label", text), ("label", text), ("multi", flag)] + intervals),
        "values": pa.schema(structure + [("stack", f64), ("value", f64), ("push_pct", f64), ("call_pct", f64),
                                         ("exploitability", f64)]),
        "paths": pa.schema(structure + [("segment", pa.int64()), ("from", f64), ("to", f64), ("sb_pure", text),
                                        ("sb_mixed", text), ("bb_pure", text), ("bb_mixed", text)]),
        "ante_paths": pa.schema([(c, f64) for c in LINE_COLUMNS] + [
            ("stack", f64), ("segment", pa.int64()), ("from", f64), ("to", f64), ("sb_pure", text),
            ("sb_mixed", text), ("bb_pure", text), ("bb_mixed", text)]),
        "ante_thresholds": pa.schema([(c, f64) for c in LINE_COLUMNS] + [
            ("stack", f64), ("ante_low", f64), ("ante_high", f64), ("player", text), ("hand", text),
            ("max_ante", f64), ("capped", flag), ("intervals", text), ("any_intervals", text),
            ("label", text)] + intervals),
    }


def table_of(name: str, columns: dict):
    pa, _ = pyarrow_modules()
    schema = schemas()[name]
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


def threshold_table(job, thresholds):
    from sflp.charts.threshold_rows import ROW_COLUMNS, threshold_rows
    from sflp.core.cards import CLASS_NAMES, PLAYERS

    rows = threshold_rows(thresholds)
    columns = {c: [r[k] for r in rows] for k, c in enumerate(ROW_COLUMNS)}
    hands = [thresholds.get(p, h) for p in PLAYERS for h in CLASS_NAMES]
    n = len(rows)
    structure = {c: [float(getattr(job, c))] * n for c in STRUCTURE_COLUMNS}
    return table_of("thresholds", {**structure, **columns, **_interval_lists(hands)})


def _values_table(job: AtlasJob, config, thresholds):
    """``values.csv``'s numbers of every grid stack, made the way ``sflp chart`` makes them."""
    from sflp.charts.about import SweepSummary
    from sflp.charts.chartset import _blocks
    from sflp.solving.solver import iter_blocks

    rows = [values for _, _, _, values, _, _ in
            _blocks(iter_blocks(job.stacks, config, path=thresholds), False, SweepSummary())]
    table = np.concatenate(rows) if rows else np.zeros((0, 5))
    n = len(table)
    return table_of("values", {**{c: [float(getattr(job, c))] * n for c in STRUCTURE_COLUMNS},
                             **{c: table[:, k].tolist() for k, c in enumerate(
                                 ("stack", "value", "push_pct", "call_pct", "exploitability"))}})


def _segment_columns(segments) -> dict[str, list]:
    """A path's segments as columns: ``segment``, ``from``, ``to`` (the certified roots' floats)
    and the support's hands by class name."""
    return {
        "segment": list(range(len(segments))),
        "from": [float(a) for a, _, _ in segments],
        "to": [float(b) for _, b, _ in segments],
        "sb_pure": [_hand_names(s.sb_pure) for _, _, s in segments],
        "sb_mixed": [_hand_names(s.sb_mixed) for _, _, s in segments],
        "bb_pure": [_hand_names(s.bb_pure) for _, _, s in segments],
        "bb_mixed": [_hand_names(s.bb_mixed) for _, _, s in segments],
    }


def _paths_table(job: AtlasJob, thresholds):
    n = len(thresholds.segments)
    return table_of("paths", {**{c: [float(getattr(job, c))] * n for c in STRUCTURE_COLUMNS},
                            **_segment_columns(thresholds.segments)})


def ante_path_available() -> bool:
    """Whether :func:`sflp.solving.thresholds.compute_thresholds` follows the path along the ante
    (``along="ante"``)."""
    import inspect

    from sflp.solving.thresholds import compute_thresholds

    return "along" in inspect.signature(compute_thresholds).parameters


def ante_path_columns(line: dict, stack: float, ante_low: float, ante_high: float, path) -> tuple[dict, dict]:
    """The rows of one ante path (a :class:`~sflp.solving.thresholds.Thresholds` along the ante at
    ``stack``) as columns of ``ante_thresholds`` and of ``ante_paths``; ``line`` holds the line's
    :data:`LINE_COLUMNS`.  The writer and the verifier (:mod:`sflp.atlas.proof`) both make the rows
    here, so what is re-derived is what was written."""
    from sflp.core.cards import CLASS_NAMES, PLAYERS

    columns: dict[str, list] = {c: [] for c in schemas()["ante_thresholds"].names}
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
    for c in LINE_COLUMNS:
        columns[c] += [float(line[c])] * n
    columns["stack"] += [float(stack)] * n
    columns["ante_low"] += [float(ante_low)] * n
    columns["ante_high"] += [float(ante_high)] * n
    m = len(path.segments)
    segments = {**{c: [float(line[c])] * m for c in LINE_COLUMNS}, "stack": [float(stack)] * m,
                **_segment_columns(path.segments)}
    return columns, segments


def _ante_tables(job: AtlasJob):
    """The ante paths of the job's stacks: their thresholds (``ante_thresholds``) and their
    segments (``ante_paths``, what the thresholds are re-proved from)."""
    from sflp.core.game import GameConfig
    from sflp.errors import SolveError
    from sflp.solving.thresholds import compute_thresholds

    columns: dict[str, list] = {c: [] for c in schemas()["ante_thresholds"].names}
    segment_columns: dict[str, list] = {c: [] for c in schemas()["ante_paths"].names}
    if job.ante_stacks and not ante_path_available():
        raise SolveError("the path along the ante (compute_thresholds(..., along='ante')) is not in this sflp; "
                         "write the atlas without ante stacks")
    line = {c: getattr(job, c) for c in LINE_COLUMNS}
    for stack in job.ante_stacks:
        config = GameConfig(stack=stack, small_blind=job.small_blind, big_blind=job.big_blind, ante=job.ante_low,
                            bb_ante=job.bb_ante)
        path = compute_thresholds(config, job.ante_low, job.ante_high, along="ante")
        rows, segments = ante_path_columns(line, stack, job.ante_low, job.ante_high, path)
        for key in columns:
            columns[key] += rows[key]
        for key in segment_columns:
            segment_columns[key] += segments[key]
    return table_of("ante_thresholds", columns), table_of("ante_paths", segment_columns)


def _chart_files(job: AtlasJob, config, thresholds) -> dict[str, bytes]:
    """The chart set ``sflp chart`` writes for the structure over the job's stacks (the formats
    ``job.charts``), as bytes by path: written by :func:`sflp.charts.chartset.write_set` into a
    temporary folder of this process (all in this process: it may itself be a worker), read back."""
    import tempfile

    from sflp.charts.chartset import write_set
    from sflp.checks import Stacks
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
    ante_thresholds, ante_paths = _ante_tables(job)
    return StructureResult(
        name=job.name, line=job.line,
        thresholds=threshold_table(job, thresholds),
        values=_values_table(job, config, thresholds),
        paths=_paths_table(job, thresholds),
        ante_thresholds=ante_thresholds,
        breakpoints=len(thresholds.breakpoints),
        lp_solves=int(thresholds.lp_solves),
        charts=_chart_files(job, config, thresholds) if job.charts else {},
        ante_paths=ante_paths,
    )
