"""The report jobs: a full chart set over a stack sweep, and the files of a single solution.

:func:`write_chart_set` writes into one folder (every file atomically):

=====================  ================================================================
``values.csv``         stack, value, push_pct, call_pct, exploitability (+ value_exact)
``ranges.csv``         stack, player, hand, frequency, ev -- one row per stack x player x hand
``thresholds.csv``     player, hand, max_stack, capped, intervals, any_intervals
``chart.xlsx``         SB push, BB call, Ranges, Values, Hand EV, About (see :mod:`.excel`)
``chart.html``         one self-contained interactive page: stack slider, grids, curve (:mod:`.html`)
``chart.pdf``          one A4 landscape page: both threshold charts, legend, configuration
``sb_push.png/.svg``   SB threshold chart
``bb_call.png/.svg``   BB threshold chart
``value_by_stack.*``   value and push/call percentages against the stack
``range_<S>bb.*``      SB and BB frequency grids at a few stacks (e.g. ``range_10bb.png``)
=====================  ================================================================

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
from sflp.errors import ConfigError, DataError
from sflp.report.atomic import check_out_dir
from sflp.report.csv_out import write_grid_csv, write_ranges_csv, write_thresholds_csv, write_values_csv
from sflp.report.excel import chart_workbook, save_workbook, solution_workbook
from sflp.report.frames import (
    default_range_stacks,
    fmt_num,
    grid_from_tidy,
    nearest_stacks,
    ranges_frame,
    sorted_solutions,
    thresholds_frame,
    values_frame,
)

SOLVER_TEXT = "cvxpy + HiGHS LP, checked by best responses"
REPORTS_DIR = Path("reports")


def config_name(config, low: float, high: float) -> str:
    """``hu-pushfold_sb0.5_bb1_ante0_bbante0_1-25``: blinds, antes and the stack range.

    >>> from sflp.game import GameConfig
    >>> config_name(GameConfig(stack=10, ante=0.125), 1, 25)
    'hu-pushfold_sb0.5_bb1_ante0.125_bbante0_1-25'
    """
    return (
        f"hu-pushfold_sb{fmt_num(config.small_blind)}_bb{fmt_num(config.big_blind)}"
        f"_ante{fmt_num(config.ante)}_bbante{fmt_num(config.bb_ante)}_{fmt_num(low)}-{fmt_num(high)}"
    )


def default_out_dir(config, low: float, high: float) -> Path:
    """``reports/<config_name>`` (relative to the working directory)."""
    return REPORTS_DIR / config_name(config, low, high)


def structure_text(config) -> str:
    """``"SB 0.5 / BB 1, no ante"`` or ``"SB 0.5 / BB 1, ante 0.1, BB ante 1"``."""
    text = f"SB {fmt_num(config.small_blind)} / BB {fmt_num(config.big_blind)}"
    antes = []
    if config.ante:
        antes.append(f"ante {fmt_num(config.ante)}")
    if config.bb_ante:
        antes.append(f"BB ante {fmt_num(config.bb_ante)}")
    return text + (", " + ", ".join(antes) if antes else ", no ante")


def _checksum() -> str:
    try:
        from sflp.equity import read_checksum

        return read_checksum()
    except DataError as exc:  # the report still gets written; say why the checksum is missing
        return f"unknown ({exc})"


def _step_text(stacks: Sequence[float]) -> str:
    if len(stacks) < 3:
        return ""
    steps = np.diff(np.asarray(stacks, dtype=np.float64))
    if np.allclose(steps, steps[0], rtol=0, atol=1e-9):
        return f", step {float(steps[0]):.12g}"
    return ""


def about_items(
    solutions: Sequence,
    *,
    exact: bool,
    thresholds=None,
    range_stacks: Sequence[float] = (),
    extra: dict | None = None,
) -> list[tuple[str, object]]:
    """The ``About`` sheet: configuration, versions, checksum, solver, quality, parameters."""
    config = solutions[0].config
    stacks = [float(s.config.stack) for s in solutions]
    certified = sum(bool(s.certified) for s in solutions)
    if exact:
        cert = f"exact rational certificates requested: {certified} of {len(solutions)} solutions certified"
    elif certified:
        cert = f"{certified} of {len(solutions)} solutions certified exactly"
    else:
        cert = "not requested (floating-point solutions, each checked by best responses)"
    methods = {m: sum(s.method == m for s in solutions) for m in sorted({s.method for s in solutions})}
    items: list[tuple[str, object]] = [
        ("Game", "heads-up no-limit hold'em push/fold: SB shoves or folds, BB calls or folds"),
        ("Small blind (bb)", float(config.small_blind)),
        ("Big blind (bb)", float(config.big_blind)),
        ("Ante per player (bb)", float(config.ante)),
        ("BB ante (bb)", float(config.bb_ante)),
        ("Stacks", f"{len(stacks)} stacks from {fmt_num(stacks[0])} to {fmt_num(stacks[-1])} bb"
                   f"{_step_text(stacks)} (effective, before posting)"),
        ("Hand level", ", ".join(sorted({s.level for s in solutions}))),
        ("sflp version", sflp.__version__),
        ("Equity table SHA-256", _checksum()),
        ("Solver", SOLVER_TEXT),
        ("Solutions by method", ", ".join(f"{m}: {n}" for m, n in methods.items())),
        ("Max exploitability (bb/hand)", float(max(s.exploitability for s in solutions))),
        ("Certificate", cert),
    ]
    if thresholds is not None:
        items += [
            ("Threshold range (bb)", f"{fmt_num(thresholds.low)} to {fmt_num(thresholds.high)}"),
            ("Threshold breakpoints", len(thresholds.breakpoints)),
            ("Threshold definition", "largest stack at which the hand is played with frequency > 0.5, "
                                     "truncated to 0.1 bb; 'H+' = up to the top H of the range"),
        ]
    if range_stacks:
        items.append(("Range grids at (bb)", ", ".join(fmt_num(s) for s in range_stacks)))
    items.append(("EV margins", "SB: EV(shove) - EV(fold) per hand held; BB: EV(call) - EV(fold) per hand "
                                "facing a shove (empty where SB never shoves); bb"))
    for key, value in (extra or {}).items():
        items.append((str(key), value if isinstance(value, (int, float)) else str(value)))
    return items


def _check_thresholds(solutions: Sequence, thresholds) -> None:
    if thresholds is None:
        return
    config = getattr(thresholds, "config", None)
    if config is not None and config.structure_key() != solutions[0].config.structure_key():
        raise ConfigError(
            f"thresholds are for blinds/antes {config.structure_key()}, "
            f"solutions for {solutions[0].config.structure_key()}"
        )


def write_chart_set(
    solutions: Iterable,
    thresholds,
    out_dir: Path | str,
    *,
    exact: bool = False,
    range_stacks: Sequence[float] | None = None,
    extra_about: dict | None = None,
) -> dict[str, str]:
    """Write the chart set (see the module doc) into ``out_dir``; returns file name -> path.

    ``range_stacks`` are mapped to the nearest solved stacks (default: about five round stacks
    spread over the solved range, see :func:`~sflp.report.frames.default_range_stacks`).  ``exact`` adds ``value_exact`` ("p/q") to values.csv.
    Raises :class:`~sflp.errors.OutputError` when ``out_dir`` cannot be written.
    """
    from sflp.report.html import write_chart_html
    from sflp.report.plots import range_figure, render, threshold_figure, value_figure, write_chart_pdf

    sols = sorted_solutions(solutions)
    _check_thresholds(sols, thresholds)
    out = check_out_dir(out_dir)
    solved = [float(s.config.stack) for s in sols]
    chosen = nearest_stacks(solved, range_stacks) if range_stacks else default_range_stacks(solved)
    if thresholds is not None:
        low, high = float(thresholds.low), float(thresholds.high)
    else:
        low, high = solved[0], solved[-1]
    structure = structure_text(sols[0].config)

    values = values_frame(sols, exact)
    ranges = ranges_frame(sols)
    tdf = thresholds_frame(thresholds) if thresholds is not None else None
    about = about_items(sols, exact=exact, thresholds=thresholds, range_stacks=chosen, extra=extra_about)

    files: dict[str, str] = {}

    def record(path: Path) -> None:
        files[path.name] = str(path)

    record(write_values_csv(values, out / "values.csv"))
    record(write_ranges_csv(ranges, out / "ranges.csv"))
    if tdf is not None:
        record(write_thresholds_csv(tdf, out / "thresholds.csv"))
    wb = chart_workbook(values, ranges, tdf, low, high, chosen, about, structure)
    record(save_workbook(wb, out / "chart.xlsx"))
    record(write_chart_html(out / "chart.html", values, ranges, tdf, structure, about, low=low, high=high))
    record(write_chart_pdf(out / "chart.pdf", tdf, low, high, structure, about, ranges=ranges, stack=solved[-1]))
    if tdf is not None:
        files.update(render(threshold_figure, out, "sb_push", tdf, "sb", low, high, structure))
        files.update(render(threshold_figure, out, "bb_call", tdf, "bb", low, high, structure))
    files.update(render(value_figure, out, "value_by_stack", values, structure))
    for stack in chosen:
        files.update(render(range_figure, out, f"range_{fmt_num(stack)}bb", ranges, stack, structure))
        for player, name in (("sb", "sb_push"), ("bb", "bb_call")):
            grid = grid_from_tidy(ranges, "frequency", stack=stack, player=player)
            record(write_grid_csv(grid, out / f"{name}_{fmt_num(stack)}bb.csv"))
    return files


def write_solution(solution, out_dir: Path | str) -> dict[str, str]:
    """The files of one solved stack: ranges.csv, values.csv, solution.xlsx and the grids, named
    as in a chart set: ``sb_push_<S>bb.csv``, ``bb_call_<S>bb.csv`` (13x13 frequency grids) and
    ``range_<S>bb.png/.svg`` (both players' grids), e.g. ``range_10bb.png``.

    The workbook has both grids with their EV margins, the values row and the About sheet.
    """
    from sflp.report.plots import range_figure, render

    sols = sorted_solutions([solution])
    out = check_out_dir(out_dir)
    exact = solution.value_exact is not None
    values = values_frame(sols, exact)
    ranges = ranges_frame(sols)
    stack = float(solution.config.stack)
    structure = structure_text(solution.config)
    about = about_items(sols, exact=exact)
    files: dict[str, str] = {}
    grids = [
        write_grid_csv(grid_from_tidy(ranges, "frequency", stack=stack, player=player),
                       out / f"{name}_{fmt_num(stack)}bb.csv")
        for player, name in (("sb", "sb_push"), ("bb", "bb_call"))
    ]
    for path in (
        *grids,
        write_ranges_csv(ranges, out / "ranges.csv"),
        write_values_csv(values, out / "values.csv"),
        save_workbook(solution_workbook(values, ranges, about, structure), out / "solution.xlsx"),
    ):
        files[path.name] = str(path)
    files.update(render(range_figure, out, f"range_{fmt_num(stack)}bb", ranges, stack, structure))
    return files
