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
for one structure and in forked worker processes for more; :mod:`.cluster` maps
them over a Dask cluster), writes each structure's files into the staging folder as its result
arrives, and swaps the folder in as one unit at the end
(:class:`sflp.output.stage.StagedFolder`: staged, locked, swapped in), hive-partitioned by
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

The package, one module an idea:

==================  ==================================================================================
:mod:`.jobs`        the jobs: structures and their stacks (:func:`atlas_jobs`, :class:`AtlasJob`)
:mod:`.tables`      one structure solved into its tables (:func:`solve_structure`)
:mod:`.local`       the runner on this machine's cores (:func:`local_runner`)
:mod:`.cluster`     the runner on a Dask cluster (:func:`dask_runner`)
:mod:`.write`       the folder written as one unit (:func:`write_atlas`)
:mod:`.read`        the folder read back, checked (:func:`read_atlas`, :class:`Atlas`)
:mod:`.outputs`     the page and pictures made from the gathered tables: :mod:`.page` (``atlas.html``,
                    with ``static/``) and :mod:`.maps` (the hand maps, the ante-shift page), whose
                    regions :mod:`.regions` joins
:mod:`.reach`       more structures between the antes, where the maps' boundaries bend (``reach=``)
==================  ==================================================================================
"""

import importlib

# Names are imported from their module on first use (PEP 562): importing the package loads nothing heavy.
_LAZY = {
    **dict.fromkeys(("AtlasJob", "PRESETS", "atlas_jobs", "parse_antes", "structure_name"), "sflp.atlas.jobs"),
    **dict.fromkeys(("StructureResult", "solve_structure"), "sflp.atlas.tables"),
    **dict.fromkeys(("local_runner",), "sflp.atlas.local"),
    **dict.fromkeys(("dask_runner",), "sflp.atlas.cluster"),
    **dict.fromkeys(("AtlasResult", "write_atlas"), "sflp.atlas.write"),
    **dict.fromkeys(("Atlas", "AtlasPoint", "read_atlas"), "sflp.atlas.read"),
}


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # the next lookup is a plain attribute
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__all__ = sorted(_LAZY)
