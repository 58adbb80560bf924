"""The report jobs: a full chart set over a stack sweep, and the files of a single solution.

:func:`write_chart_set` writes into one folder (every file atomically):

=====================  ================================================================
``values.csv``         stack, value, push_pct, call_pct, exploitability (+ value_exact)
``ranges.csv``         stack, player, hand, frequency, ev_margin -- one row per stack x player x hand
                       (or ``ranges.parquet``, or ``ranges_segments.csv`` with ``margins_supports.csv``
                       and ``margins_stacks.csv``, by ``ranges``: see :mod:`.formats`)
``thresholds.csv``     player, hand, max_stack, capped, intervals, any_intervals, sc_number
                       (and ``thresholds_exact.csv``, their certificate: :mod:`.proof`)
``chart.xlsx``         SB push, BB call, Ranges, Values, Hand EV, About, SC numbers (see :mod:`.media.xlsx.workbook`)
``chart.html``         one self-contained interactive page: stack slider, grids, curve (:mod:`.media.html.page`)
``chart.pdf``          A4 (or Letter) landscape: page 1 both threshold charts and the legend,
                       then the configuration and the stack intervals (:mod:`.media.pdf`)
``sb_push.png/.svg``   SB threshold chart
``bb_call.png/.svg``   BB threshold chart
``value_by_stack.*``   value and push/call percentages against the stack
``range_<S>bb.*``      SB and BB frequency grids at a few stacks (e.g. ``range_10bb.png``)
``sb_push_<S>bb.csv``  the same grids as 13x13 CSV (``bb_call_<S>bb.csv``), read by ``verify``
``manifest.json``      configuration, stacks, sflp version, equity-table SHA-256, every file's SHA-256
=====================  ================================================================

The set is written as one unit (:mod:`sflp.output`): into a staging folder beside
``out_dir``, under a lock, then swapped in, so ``out_dir`` never holds a mix of two runs.  It is
streamed: ``ranges.csv`` grows one stack at a time and the workbook (XlsxWriter) is bounded,
with the ``Values`` sheet (and ``chart.html``) showing at most
:data:`MAX_SHEET_STACKS` (500) evenly chosen stacks plus the grid stacks and the ``Hand EV``
sheet at most :data:`sflp.charts.stacks.HAND_EV_STACKS` (50) plus the grid stacks, so 100,000
stacks fit in bounded memory.  Every stack is in the csv files (:func:`homes`); each place that
shows part of the stacks says so in itself, in ``manifest.json`` (``subsets``) and in the
command's summary (:func:`subset_notes`).

Without thresholds (``thresholds=None``, e.g. a single stack) the threshold files and sheets are
left out.  :func:`default_out_dir` names the folder after the configuration:
``reports/hu-pushfold_sb0.5_bb1_ante0_bbante0_1-25`` (blinds, antes, then the stack range,
numbers in their shortest form).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

import sflp
from sflp.atomic import pause_point
from sflp.charts.about import (
    MAX_SHEET_STACKS,
    SweepSummary,
    about_items,
    equity_checksum,
    homes,
    made_with,
    step_value,
    structure_text,
    subset_notes,
)
from sflp.charts.stacks import default_range_stacks, nearest_stacks, sorted_solutions
from sflp.charts.text import fmt_num, fraction_text, solution_rows
from sflp.checks import Stacks
from sflp.errors import ConfigError


def _check_thresholds(config, thresholds) -> None:
    if thresholds is None:
        return
    from sflp.solving.thresholds import Thresholds

    if not isinstance(thresholds, Thresholds):
        raise ConfigError(
            f"thresholds must be None or what compute_thresholds returns, got {type(thresholds).__name__}"
        )
    t_config = getattr(thresholds, "config", None)
    if config is not None and t_config is not None and t_config.structure_key() != config.structure_key():
        raise ConfigError(
            f"thresholds are for blinds/antes {t_config.structure_key()}, "
            f"solutions for {config.structure_key()}"
        )


def _stack_list(solutions, stacks) -> tuple[Iterable, list[float]]:
    """The solutions as an iterable in increasing stack order, and the list of their stacks."""
    from sflp.core.game import Solution

    if isinstance(solutions, (str, bytes)) or not isinstance(solutions, Iterable):
        raise ConfigError(
            f"write_chart_set takes a list of Solution objects (from solve / solve_many / iter_solve), "
            f"not {type(solutions).__name__} {solutions!r:.40}"
        )
    if stacks is None:
        if not isinstance(solutions, Sequence):
            solutions = list(solutions)
        bad = [s for s in solutions if not isinstance(s, Solution)]
        if bad:
            raise ConfigError(
                f"write_chart_set needs sflp Solution objects (from solve / solve_many / iter_solve): "
                f"{bad[0]!r:.40} is not a Solution"
            )
        solutions = sorted_solutions(solutions)
        return solutions, [float(s.config.stack) for s in solutions]
    if isinstance(stacks, Stacks):  # checked, increasing without repeats (sflp.chart's): a copy, no check
        if not stacks:
            raise ConfigError("no solutions to report")
        return solutions, list(stacks)
    stacks = [float(s) for s in stacks]
    if not stacks:
        raise ConfigError("no solutions to report")
    for a, b in zip(stacks, stacks[1:]):
        if not a < b:
            raise ConfigError(f"stacks must increase without repeats (got {fmt_num(a)} then {fmt_num(b)})")
    return solutions, stacks


def write_chart_set(
    solutions: Iterable,
    thresholds,
    out_dir: Path | str,
    *,
    exact: bool = False,
    range_stacks: Sequence[float] | None = None,
    extra_about: dict | None = None,
    stacks: Sequence[float] | None = None,
    title: str | None = None,
    formats: Sequence[str] | str | None = None,
    ranges: str = "auto",
    paper: str = "a4",
    progress=None,
    wait: bool = True,
    on_wait=None,
    on_keep=None,
    manifest_extra: dict | None = None,
    workers: int | None = None,
) -> dict[str, str]:
    """Write the chart set (see the module doc) into ``out_dir`` as one unit; returns name -> path.

    ``solutions`` may be a list (any order) or -- with ``stacks`` naming the stacks it will
    produce, in increasing order -- a stream such as :func:`sflp.solving.solver.iter_solve`, or the
    blocks of :func:`sflp.solving.solver.iter_blocks` (arrays, no Solution object per stack): each
    block goes to the writers at once and is dropped, so memory does not grow with the number
    of stacks beyond one small row of ``values.csv`` per stack.

    ``formats`` picks the output formats (:data:`sflp.charts.media.formats.FORMATS`, default all) and
    ``ranges`` the form of the ranges of every stack (``auto``, ``csv``, ``segments`` or
    ``parquet``, see :mod:`sflp.charts.media.formats`); ``paper`` the sheet of ``chart.pdf`` (``a4`` or
    ``letter``, landscape, :mod:`sflp.charts.media.pdf`).  The files are written into a staging folder
    beside ``out_dir`` and swapped in at the end (:class:`~sflp.output.stage.StagedFolder`):
    ``out_dir`` holds the complete old set or the complete new set, never a mix, and a
    ``manifest.json`` lists every file with its SHA-256.
    ``range_stacks`` are mapped to the nearest solved stacks (default: about five round stacks
    spread over the solved range, see :func:`~sflp.charts.frames.default_range_stacks`).
    ``exact`` adds ``value_exact`` ("p/q") to values.csv.
    ``title`` (e.g. ``"Exploitative"``) is put before the pictures' and sheets' titles.
    ``progress(phase, done, total)`` is called as the job advances (``"solving"`` per stack, then
    ``"writing"`` per writer).  The slow files are made by ``workers`` forked processes (default
    0: all in this process, the least CPU and memory; see :func:`sflp.charts.media.formats.job_workers`)
    while this process writes the small CSV files.  Raises :class:`~sflp.errors.OutputError`
    when ``out_dir`` cannot be written.  Files in ``out_dir`` that its manifest does not list
    are the user's: they are kept, and ``on_keep(names)`` is called with their names after the swap.
    """
    files, _ = write_set(solutions, thresholds, out_dir, exact=exact, range_stacks=range_stacks,
                         extra_about=extra_about, stacks=stacks, title=title, formats=formats, ranges=ranges,
                         paper=paper, progress=progress, wait=wait, on_wait=on_wait, on_keep=on_keep,
                         manifest_extra=manifest_extra, workers=workers)
    return files


def _kept_positions(solved: list[float], chosen: Sequence[float]) -> list[int]:
    """The positions of the stacks whose ranges the workbook, page and pictures show."""
    from sflp.charts.stacks import thin_indices

    kept = set(thin_indices(len(solved), MAX_SHEET_STACKS).tolist())
    kept.update(solved.index(s) for s in chosen)
    return sorted(kept)


def _stream(solutions, solved: list[float], thresholds, exact: bool, summary: SweepSummary, tick):
    """The writers' :class:`~sflp.charts.media.formats.Block` of each item of ``solutions``, checked
    against the announced stacks ``solved``."""
    from sflp.charts.media.formats import Block

    position = 0
    announced = np.asarray(solved, dtype=np.float64)
    for stacks, config, rows, values, texts, support in _blocks(solutions, exact, summary):
        expected = announced[position:position + len(stacks)]
        if len(expected) != len(stacks) or not np.array_equal(expected, stacks):
            k = next((k for k in range(len(stacks)) if k >= len(expected) or stacks[k] != expected[k]), 0)
            wanted = fmt_num(expected[k]) if k < len(expected) else "no more"
            raise ConfigError(f"solution for stack {fmt_num(stacks[k])} bb arrives where {wanted} was expected")
        if position == 0:
            _check_thresholds(config, thresholds)
        position += len(stacks)
        yield Block(stacks, rows, values, texts, *(support or (None, None)))
        tick("solving", position, len(solved))
    if position != len(solved):
        raise ConfigError(f"{len(solved)} stacks were announced but {position} solutions came")


# Long on purpose: the job's steps in order (stage, stream, finish, manifest), one call each.
def write_set(solutions, thresholds, out_dir: Path | str, *, exact: bool = False, range_stacks=None,
              extra_about: dict | None = None, stacks=None, title: str | None = None, formats=None,
              ranges: str = "auto", paper: str = "a4", progress=None, wait: bool = True, on_wait=None, on_keep=None,
              manifest_extra: dict | None = None, workers: int | None = None,
              jobs=None) -> tuple[dict[str, str], SweepSummary]:
    """:func:`write_chart_set`, also returning the :class:`SweepSummary` of what was solved.

    ``jobs`` is a :class:`~sflp.output.jobs.Jobs` the caller started earlier (:func:`sflp.chart`
    does, before the thresholds, so that the workers warm up meanwhile); they are shut down here,
    before the staging folder is removed or swapped.

    One function from the stream to the swapped-in folder: the worker processes start first (they
    load the report libraries while this process solves), then the writers open (the threshold
    files start at once), take every block, and finish from the :class:`~sflp.charts.media.formats.Sweep`;
    the manifest goes last.  This process streams and writes the every-stack files without pandas.
    """
    from sflp.charts.media.formats import (
        Head,
        check_formats,
        check_paper,
        job_workers,
        make_writers,
        resolve_ranges,
        sc_job,
        warm,
    )
    from sflp.output.jobs import Jobs
    from sflp.output.manifest import write_manifest
    from sflp.output.stage import StagedFolder

    _check_thresholds(None, thresholds)  # its type, before any work
    formats = check_formats(formats)
    paper = check_paper(paper)
    solutions, solved = _stack_list(solutions, stacks)
    ranges = resolve_ranges(ranges, len(solved))
    chosen = nearest_stacks(solved, range_stacks) if range_stacks else default_range_stacks(solved)
    kept_index = _kept_positions(solved, chosen)
    low, high = (float(thresholds.low), float(thresholds.high)) if thresholds is not None else (solved[0], solved[-1])
    head = Head(config=getattr(thresholds, "config", None), title=title, thresholds=thresholds, low=low, high=high,
                solved=solved, chosen=list(chosen))
    out = Path(out_dir)
    tick = progress or (lambda phase, done, total: None)
    writers = make_writers(formats, ranges, paper)

    folder = StagedFolder(out, "chart-set", wait=wait, on_wait=on_wait)
    if jobs is None:  # the workers load pandas and the format libraries while this process solves
        jobs = Jobs(job_workers(workers), warm=warm, warm_args=(head.config, formats))
    with folder as stage, jobs:
        jobs.temp_folder = str(folder.temp_folder())
        sc = jobs.submit(sc_job, head.config, formats)  # a worker computes them while this process solves
        summary = SweepSummary()
        pause_point("staged")
        opened = []
        try:
            for writer in writers:
                writer.open(stage, head, jobs.submit)
                opened.append(writer)
            sweep = _consume(_stream(solutions, solved, thresholds, exact, summary, tick), writers, head,
                             kept_index, exact)
            pause_point("ranges.csv")  # every stack is streamed to the writers (the name is historical)
        except BaseException:
            for writer in opened:
                writer.discard()
            raise
        del solutions
        sweep.config = summary.config  # the solutions' (the same structure as the thresholds')
        sweep.sc = sc.result()
        sweep.about = about_items(summary, exact=exact, thresholds=thresholds, range_stacks=chosen, extra=extra_about)
        sweep.homes = homes(formats, ranges)
        sweep.subsets = subset_notes(solved, sweep.kept_stacks, chosen, formats, ranges)
        summary.ranges, summary.homes, summary.subsets = ranges, sweep.homes, sweep.subsets
        known: dict[str, str] = {}
        # the slow files are jobs for the worker processes; this process writes the every-stack
        # files meanwhile and then waits
        for done, writer in enumerate(sorted(writers, key=lambda w: -w.weight), 1):
            known.update(writer.finish(sweep, jobs.submit))
            pause_point("jobs")
            tick("writing", done, len(writers))
        jobs.wait()
        for writer in writers:
            writer.close()
        info = _manifest_info(sweep, summary, thresholds, title, exact, formats, ranges, paper, manifest_extra)
        pause_point("manifest")
        write_manifest(stage, info, known)
        names = sorted(p.name for p in stage.iterdir() if not p.name.startswith("."))
        pause_point("swap")  # the complete new set is staged; the swap happens on leaving the block
    if folder.kept and on_keep is not None:
        on_keep(folder.kept)
    return {name: str(out / name) for name in names}, summary


def _manifest_info(sweep, summary: SweepSummary, thresholds, title: str | None, exact: bool, formats, ranges: str,
                   paper: str, extra: dict | None) -> dict:
    """What ``manifest.json`` says of the set, besides its files."""
    from sflp.charts.media.formats import FORMATS

    solved = sweep.solved
    return {
        "kind": "chart-set",
        "title": title or "Nash equilibrium",
        "sflp_version": sflp.__version__,
        "equity_table_sha256": equity_checksum(),
        "config": {k: v for k, v in sweep.config.as_dict().items() if k != "stack"},
        "stacks": {"count": len(solved), "low": solved[0], "high": solved[-1], "step": step_value(solved)},
        "thresholds": None if thresholds is None else {
            "low": sweep.low, "high": sweep.high, "breakpoints": len(thresholds.breakpoints)},
        "range_stacks": list(sweep.chosen),
        "exact": bool(exact),
        "max_exploitability": summary.max_exploitability,
        "made_with": made_with(),
        **({"formats": list(formats), "ranges": ranges} if tuple(formats) != FORMATS or ranges != "csv" else {}),
        **({"paper": paper} if paper != "a4" and "pdf" in formats else {}),
        "every_stack": sweep.homes,
        "subsets": [{k: v for k, v in note.items() if k != "text"} for note in sweep.subsets],
        **(extra or {}),
    }


def _consume(blocks, writers, head, kept_index: list[int], exact: bool):
    """Hand every block to the writers; keep each stack's values row and the kept stacks' rows.
    Returns the :class:`~sflp.charts.media.formats.Sweep` (its ``about`` still to fill)."""
    from dataclasses import fields

    from sflp.charts.media.formats import Sweep

    kept = np.asarray(kept_index, dtype=np.int64)
    values: list[np.ndarray] = []
    texts: list[str] = []
    kept_rows: list[np.ndarray] = []
    start = 0
    for block in blocks:
        for writer in writers:
            writer.add(block)
        values.append(block.values)
        texts.extend(block.exact or ())
        end = start + len(block.stacks)
        here = kept[np.searchsorted(kept, start):np.searchsorted(kept, end)] - start
        kept_rows.append(block.rows[here])  # a copy (fancy indexing): the block is dropped
        start = end
    sweep = Sweep(**{f.name: getattr(head, f.name) for f in fields(head)}, value_rows=np.concatenate(values),
                  value_exact=texts if exact else None, kept_stacks=[head.solved[k] for k in kept_index],
                  kept_rows=np.concatenate(kept_rows))
    return sweep


def _blocks(items, exact: bool, summary: SweepSummary):
    """``(stacks, config, rows, values, exact values)`` per item of a stream of Solutions and
    blocks (:class:`sflp.solving.segment.SegmentBlock`, from :func:`sflp.solving.solver.iter_blocks`), every stack
    also added to ``summary``.  A block's rows and values come from its arrays, with no Solution
    made; ``values`` is a ``(stacks, 5)`` array of ``values.csv``'s numbers, the exact values
    ``"p/q"`` texts (None without ``exact``), then ``(support, by_support)`` of a block's path
    segment (:class:`~sflp.charts.media.formats.Block`; None for a Solution)."""
    from sflp.core.game import Solution
    from sflp.solving.segment import SegmentBlock

    for item in items:
        if isinstance(item, Solution):
            summary.add(item)
            row = _values_row(item, exact)
            yield ([float(item.config.stack)], item.config, solution_rows(item)[None], np.array([row[:5]]),
                   [row[5]] if exact else None, None)
            continue
        if not isinstance(item, SegmentBlock):
            raise ConfigError(f"write_chart_set needs sflp Solution objects or blocks (from iter_solve / "
                              f"iter_blocks): {item!r:.40} is neither")
        stacks = np.asarray(item.stacks, dtype=np.float64)
        values = np.stack([stacks, item.value + 0.0, item.push_pct, item.call_pct, np.zeros(len(stacks))], axis=1)
        made = {s: item.made(s) for s in range(len(stacks)) if item.made(s) is not None}  # breakpoints
        path = [s for s in range(len(stacks)) if s not in made] if made else range(len(stacks))
        if len(path):
            summary.add_stacks(item.config, stacks[list(path)].tolist(), item.level, "path", 0.0, len(path))
        for s, solution in made.items():  # a stack solved the general way
            summary.add(solution)
            values[s] = _values_row(solution, exact)[:5]
        texts = [fraction_text(item.exact_value(s)) for s in range(len(stacks))] if exact else None
        yield stacks.tolist(), item.config, item.rows(), values, texts, (item.segment.support, ~item.general)


def _values_row(solution, exact: bool) -> tuple:
    row = (
        float(solution.config.stack),
        float(solution.value) + 0.0,
        float(solution.push_pct),
        float(solution.call_pct),
        float(solution.exploitability),
    )
    return row + (fraction_text(solution.value_exact),) if exact else row


def write_solution(solution, out_dir: Path | str, *, wait: bool = True, on_wait=None, on_keep=None) -> dict[str, str]:
    """The files of one solved stack: ranges.csv, values.csv, solution.xlsx and the grids, named
    as in a chart set: ``sb_push_<S>bb.csv``, ``bb_call_<S>bb.csv`` (13x13 frequency grids) and
    ``range_<S>bb.png/.svg`` (both players' grids), e.g. ``range_10bb.png``.

    The workbook has both grids with their EV margins, the values row and the About sheet.  Written
    as one unit with a manifest, like :func:`write_chart_set` (``on_keep`` as there).
    """
    from sflp.charts.frames import grid_from_tidy, ranges_frame, values_frame
    from sflp.charts.media.csv import write_grid_csv, write_ranges_csv, write_values_csv
    from sflp.charts.media.pictures.plots import range_picture, render
    from sflp.charts.media.xlsx.workbook import save_workbook, solution_workbook
    from sflp.core.game import Solution
    from sflp.output.jobs import temporary_files_in
    from sflp.output.manifest import write_manifest
    from sflp.output.stage import StagedFolder

    if not isinstance(solution, Solution):
        raise ConfigError(f"write_solution needs an sflp Solution (from solve), got {solution!r}")
    sols = [solution]
    exact = solution.value_exact is not None
    values = values_frame(sols, exact)
    ranges = ranges_frame(sols)
    stack = float(solution.config.stack)
    structure = structure_text(solution.config)
    about = about_items(sols, exact=exact)
    out = Path(out_dir)
    folder = StagedFolder(out, "solution", wait=wait, on_wait=on_wait)
    with folder as stage, temporary_files_in(str(folder.temp_folder())):
        for player, name in (("sb", "sb_push"), ("bb", "bb_call")):
            grid = grid_from_tidy(ranges, "frequency", stack=stack, player=player)
            write_grid_csv(grid, stage / f"{name}_{fmt_num(stack)}bb.csv")
        write_ranges_csv(ranges, stage / "ranges.csv")
        write_values_csv(values, stage / "values.csv")
        save_workbook(solution_workbook(values, ranges, about, structure), stage / "solution.xlsx")
        render(range_picture, stage, f"range_{fmt_num(stack)}bb", ranges, stack, structure)
        write_manifest(stage, {
            "kind": "solution",
            "sflp_version": sflp.__version__,
            "equity_table_sha256": equity_checksum(),
            "config": solution.config.as_dict(),
            "level": solution.level,
            "exact": exact,
            "exploitability": float(solution.exploitability),
        })
        names = sorted(p.name for p in stage.iterdir() if not p.name.startswith("."))
    if folder.kept and on_keep is not None:
        on_keep(folder.kept)
    return {name: str(out / name) for name in names}
