"""``sflp.chart``: a whole chart set from a blind structure and a list of stacks, in one call.

This is the job ``sflp chart`` runs, and a notebook calls it the same way::

    result = sflp.chart(sflp.GameConfig(stack=1, ante=0.125), "1:25:0.05", out="reports/ante")
    result.files["chart.pdf"]

The path of one job: the exact equilibrium path over the stack range
(:func:`sflp.solving.thresholds.compute_thresholds`, which gives the thresholds), every stack read off
that path a block at a time (:func:`sflp.solving.solver.iter_blocks`, certified exactly), each block
handed to the format writers (:mod:`sflp.charts.media.formats`) inside a staging folder that is swapped
in at the end (:func:`sflp.charts.chartset.write_set`).  Progress is reported through
``progress(phase, done, total)``: ``"thresholds"`` (bb of the range covered), ``"solving"``
(stacks) and ``"writing"`` (writers finished).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from sflp import checks
from sflp.atomic import pause_point
from sflp.charts.about import set_head
from sflp.checks import Stacks, parse_grid_stacks, parse_stacks
from sflp.errors import ConfigError

Progress = Callable[[str, float, float], None]


@dataclass(frozen=True)
class ChartResult:
    """What :func:`chart` wrote and what it solved."""

    out_dir: Path
    files: dict[str, str] = field(repr=False)
    """File name -> path, every file of the set (``manifest.json`` included)."""
    config: object
    """The blinds and antes (:class:`sflp.core.game.GameConfig`, at the first stack)."""
    stacks: tuple[float, ...] = field(repr=False)
    thresholds: object = field(repr=False)
    """The exact path (:class:`sflp.solving.thresholds.Thresholds`), None for a single stack."""
    lp_solves: int
    certified: int
    """Stacks whose answer is certified by exact rationals (every stack, on the path)."""
    max_exploitability: float
    exact: bool
    seconds: float
    """The whole job, wall time."""
    solve_seconds: float
    """The part of ``seconds`` spent solving: the thresholds and reading every stack off the path;
    the rest is the writers' (``seconds - solve_seconds``)."""
    note: str | None = None
    ranges: str | None = None
    """The form of the every-stack ranges written (``csv``, ``segments``, ``parquet``)."""
    every_stack: dict | None = None
    """Where the set keeps every stack's values, frequencies and EV margins
    (:func:`sflp.charts.about.homes`)."""
    subsets: list = field(default_factory=list)
    """The places of the set that show part of the stacks, each with its note
    (:func:`sflp.charts.about.subset_notes`)."""

    def to_dict(self) -> dict:
        """The JSON object of ``sflp chart --json``."""
        from sflp.charts.chart import chart_summary_dict

        return chart_summary_dict(self)


def _stacks(stacks, config) -> tuple[Stacks, str | None]:
    """The job's stacks, checked once (:class:`~sflp.checks.Stacks`, passed on as they are), and
    the note of a default range that does not start at 1 bb."""
    from sflp.core.game import check_stacks, default_stacks, stack_text, stacks_hint

    note = None
    if stacks is None:  # the default starts at the first stack covering the blinds and antes
        stacks = Stacks(default_stacks(config.big_blind, config.ante, config.bb_ante))
        if stacks[0] > 1:
            note = (f"stacks {stacks_hint(config.big_blind, config.ante, config.bb_ante)}: the default range starts "
                    f"at {stack_text(stacks[0])} bb, the first stack that covers the big blind and antes")
    elif isinstance(stacks, str):
        stacks = parse_stacks(stacks)
    else:
        stacks = Stacks(stacks)  # itself when the CLI parsed it (parse_stacks)
        if not stacks:
            raise ConfigError("stacks: no stacks given")
    check_stacks(stacks, config)  # every stack valid for the structure before any work
    return stacks, note


def chart(
    config=None,
    stacks: Sequence[float] | str | None = None,
    *,
    out: Path | str | None = None,
    formats: Sequence[str] | str | None = None,
    ranges: str = "auto",
    paper: str = "a4",
    exact: bool = False,
    grid_stacks: Sequence[float] | str | None = None,
    progress: Progress | None = None,
    wait: bool = True,
    on_wait: Callable[[], None] | None = None,
    on_keep: Callable[[list[str]], None] | None = None,
    workers: int | None = None,
) -> ChartResult:
    """Solve ``stacks`` exactly under ``config``'s blinds and antes and write their chart set.

    ``config`` is a :class:`sflp.core.game.GameConfig` (its ``stack`` is ignored; default: SB 0.5,
    BB 1, no ante).  ``stacks`` is a list of stacks in bb or a range ``"1:25:0.05"``
    (default: 1 to 25 bb by 0.05, from the first stack that covers the blinds and antes).
    ``out`` is the folder (default ``reports/<config name>``, :func:`.chartset.default_out_dir`);
    ``formats`` the output formats (default all: csv, xlsx, html, pdf, png, svg); ``ranges`` the
    form of the every-stack ranges (``auto``, ``csv``, ``segments``, ``parquet``: see
    :mod:`sflp.charts.media.formats`); ``paper`` the sheet of ``chart.pdf`` (``a4`` or ``letter``,
    landscape); ``exact`` adds each value as a fraction to values.csv;
    ``grid_stacks`` the stacks of the range grids.  The folder is written as one unit: a folder
    of the user's files is refused, files a previous set's manifest does not list are kept and
    passed to ``on_keep``; ``wait=False`` fails at once when another job holds the folder
    (``on_wait`` is called when this one starts waiting).  ``workers`` forked processes write the
    slow files (default 0: all in this process, the least CPU and memory; the same bytes either way).
    """
    from sflp.charts.about import default_out_dir
    from sflp.charts.chartset import write_set
    from sflp.charts.media.formats import check_formats, check_paper, job_workers, resolve_ranges, warm
    from sflp.output.jobs import Jobs
    from sflp.output.target import check_target
    from sflp.solving.solver import iter_blocks, iter_solve
    from sflp.solving.thresholds import compute_thresholds

    config = _structure(config)
    if workers is not None:
        workers = checks.count("workers", workers, high=checks.MAX_WORKERS)
    stacks, note = _stacks(stacks, config)
    config = config.with_stack(stacks[0])
    low, high = stacks[0], stacks[-1]
    formats = check_formats(formats)
    resolve_ranges(ranges, len(stacks))  # before any work
    paper = check_paper(paper)
    if isinstance(grid_stacks, str):
        grid_stacks = parse_grid_stacks(grid_stacks, low, high, "grid_stacks")
    out_dir = Path(out) if out is not None else default_out_dir(config, low, high)
    check_target(out_dir, "chart-set")
    tick = progress or (lambda phase, done, total: None)
    clock = _SolveClock()
    pause_point("solving")  # tests: interrupted before anything is staged
    # the writers' worker processes start now: they load their libraries while this one solves
    jobs = Jobs(job_workers(workers), warm=warm, warm_args=(config, formats)).start()
    try:
        # the exact equilibrium path, computed once: it gives the thresholds and every stack's answer
        with clock:
            thresholds = compute_thresholds(config, low=low, high=high, progress=lambda reached: tick(
                "thresholds", reached - low, high - low)) if high > low else None
        # every stack certified: published numbers are exact values rounded once (machine-independent);
        # along the path they come a segment at a time, as arrays
        stream = iter_blocks(stacks, config, path=thresholds) if thresholds is not None else \
            iter_solve(stacks, config, exact=True)
        files, summary = write_set(clock.timed(stream), thresholds, out_dir, exact=exact, stacks=stacks,
                                   formats=formats, ranges=ranges, paper=paper, range_stacks=grid_stacks,
                                   progress=progress, wait=wait, on_wait=on_wait, on_keep=on_keep, jobs=jobs)
    finally:
        jobs.close()
    lp = summary.methods.get("lp", 0) + (thresholds.lp_solves if thresholds is not None else 0)
    return ChartResult(out_dir=out_dir, files=files, config=config, stacks=tuple(stacks), thresholds=thresholds,
                       lp_solves=lp, certified=summary.certified, max_exploitability=summary.max_exploitability,
                       exact=exact, seconds=clock.elapsed(), solve_seconds=clock.solving, note=note,
                       ranges=summary.ranges, every_stack=summary.homes, subsets=summary.subsets)


def _structure(config):
    """The blinds and antes of ``config`` (default SB 0.5, BB 1, no ante), at a valid stack."""
    from sflp.core.game import GameConfig, min_stack

    if config is None:
        return GameConfig(stack=25.0)
    if not isinstance(config, GameConfig):
        raise ConfigError(f"config must be a GameConfig, got {type(config).__name__} {config!r:.40}")
    return config.with_stack(max(config.stack, min_stack(config.big_blind, config.ante, config.bb_ante)))


class _SolveClock:
    """The job's wall time, and the part of it spent solving: inside ``with clock:`` and inside
    each ``next()`` of a :meth:`timed` stream (the rest is the writers')."""

    def __init__(self) -> None:
        self.start = time.perf_counter()
        self.solving = 0.0

    def __enter__(self) -> None:
        self.entered = time.perf_counter()

    def __exit__(self, *exc) -> None:
        self.solving += time.perf_counter() - self.entered

    def timed(self, items):
        """``items`` as they come; the time spent making each is solving."""
        return _each(iter(items), self)

    def elapsed(self) -> float:
        return time.perf_counter() - self.start


def _each(items, clock: _SolveClock):
    while True:
        with clock:
            item = next(items, None)
        if item is None:
            return
        yield item


def chart_summary_dict(result) -> dict:
    """The JSON object of ``sflp chart``: where the set went, the stacks, the structure and the
    checks, from a :class:`sflp.charts.chart.ChartResult`."""
    thresholds = result.thresholds
    return {
        **set_head(result.out_dir, result.files, result.stacks, result.config),
        "lp_solves": result.lp_solves,
        "max_exploitability": result.max_exploitability,
        "certified": result.certified == len(result.stacks) if result.exact else None,
        "breakpoints": len(thresholds.breakpoints) if thresholds else 0,
        "seconds": result.seconds,
        "solve_seconds": result.solve_seconds,
        "note": result.note,
        "ranges": result.ranges,
        "every_stack": result.every_stack,
        "subsets": [dict(note) for note in result.subsets],
    }
