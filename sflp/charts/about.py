"""What a chart set says about itself, the same way in every medium: its structure, its folder, its
About items, and where every stack is.

* :func:`structure_text` -- the blind structure in words, ``"SB 0.5 / BB 1, ante 0.1"``;
* :func:`default_out_dir` / :func:`config_name` -- the folder named after the configuration,
  ``reports/hu-pushfold_sb0.5_bb1_ante0_bbante0_1-25`` (blinds, antes, then the stack range,
  numbers in their shortest form);
* :func:`about_items` -- the configuration, versions, equity checksum, solver, exploitability and
  certificate status that the workbook's ``About`` sheet, the page, the PDF and the manifest show
  (:class:`SweepSummary` gathers the figures of every stack as the sweep goes);
* :func:`homes`, :func:`subset_notes` and :func:`subset_text` -- which file holds every stack, and
  the note of each file that shows part of the stacks (a sheet, the page), said in the file
  itself, in ``manifest.json`` and in the command's summary;
* :func:`set_head` -- the keys every chart-set summary's JSON starts with;
* :func:`made_with` -- the versions of what made the set, for its manifest.

It sits below the chart-set job (:mod:`sflp.charts.chartset`), the media and the comparison
(:mod:`sflp.charts.compare`), which all say these things the same way, and imports only numpy and
the number texts (:mod:`sflp.charts.text`, :mod:`sflp.charts.stacks`).
"""


from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

import sflp
from sflp.charts.stacks import sorted_solutions
from sflp.charts.text import fmt_num
from sflp.errors import ConfigError, DataError


def structure_text(config) -> str:
    """``"SB 0.5 / BB 1, no ante"`` or ``"SB 0.5 / BB 1, ante 0.1, BB ante 1"``."""
    text = f"SB {fmt_num(config.small_blind)} / BB {fmt_num(config.big_blind)}"
    antes = []
    if config.ante:
        antes.append(f"ante {fmt_num(config.ante)}")
    if config.bb_ante:
        antes.append(f"BB ante {fmt_num(config.bb_ante)}")
    return text + (", " + ", ".join(antes) if antes else ", no ante")


def subset_text(shown: Sequence[float], total: int, home: str | None, what: str, grid: bool = True) -> str:
    """The note of a sheet or page that shows the stacks ``shown`` of ``total`` solved stacks:
    how many, which, and where ``what`` of every stack is (``home``; None: in no file of the set).

    >>> print(subset_text([1.0, 13.0, 25.0], 481, "values.csv", "values").replace(". ", ".\\n"))
    3 of the 481 solved stacks are shown here: 1 to 25 bb, spread evenly, with the grid stacks.
    The values of every stack are in values.csv.
    >>> subset_text([1.0, 25.0], 481, None, "EV margins").endswith("no file of this set (it was written without csv).")
    True
    """
    shown = sorted(float(s) for s in shown)
    head = (f"{len(shown):,} of the {total:,} solved stacks are shown here: {fmt_num(shown[0])} to "
            f"{fmt_num(shown[-1])} bb, spread evenly{', with the grid stacks' if grid else ''}.")
    if home is None:
        return f"{head} The {what} of the other stacks are in no file of this set (it was written without csv)."
    return f"{head} The {what} of every stack are in {home}."


def set_head(out_dir, files, stacks, config) -> dict:
    """The keys every chart-set summary starts with: folder, files, stack range, blinds and antes."""
    return {
        "out_dir": str(out_dir),
        "files": files,
        "stacks": len(stacks),
        "low": stacks[0],
        "high": stacks[-1],
        **{k: v for k, v in config.as_dict().items() if k != "stack"},
    }


SOLVER_TEXT = "cvxpy + HiGHS LP, checked by best responses"
REPORTS_DIR = Path("reports")


def config_name(config, low: float, high: float) -> str:
    """``hu-pushfold_sb0.5_bb1_ante0_bbante0_1-25``: blinds, antes and the stack range.

    >>> from sflp.core.game import GameConfig
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


def equity_checksum() -> str:
    try:
        from sflp.core.equity import read_checksum

        return read_checksum()
    except DataError as exc:  # the report still gets written; say why the checksum is missing
        return f"unknown ({exc})"


def step_text(stacks: Sequence[float]) -> str:
    if len(stacks) < 3:
        return ""
    steps = np.diff(np.asarray(stacks, dtype=np.float64))
    if np.allclose(steps, steps[0], rtol=0, atol=1e-9):
        return f", step {float(steps[0]):.12g}"
    return ""


class SweepSummary:
    """What the ``About`` sheet and the manifest say of a sweep, gathered one solution at a time."""

    def __init__(self) -> None:
        self.config = None
        self.stacks: list[float] = []
        self.levels: set[str] = set()
        self.methods: dict[str, int] = {}
        self.max_exploitability = 0.0
        self.certified = 0
        self.ranges: str | None = None  # what write_set wrote: the ranges form,
        self.homes: dict | None = None  # where every stack is (:func:`homes`)
        self.subsets: list = []  # and the places showing part of the stacks (:func:`subset_notes`)

    def add(self, solution) -> None:
        self.add_stack(solution.config, float(solution.config.stack), solution.level, solution.method,
                       float(solution.exploitability), bool(solution.certified))

    def add_stack(self, config, stack: float, level: str, method: str, exploitability: float, certified: bool) -> None:
        """One solved stack (``config``: its blinds and antes)."""
        self.add_stacks(config, [stack], level, method, exploitability, int(certified))

    def add_stacks(self, config, stacks: list[float], level: str, method: str, exploitability: float,
                   certified: int) -> None:
        """Solved stacks of one structure, level and method: the largest exploitability among
        them and how many are certified."""
        if self.config is None:
            self.config = config.with_stack(stacks[0])
        elif config.structure_key() != self.config.structure_key():
            raise ConfigError(
                f"solutions mix blind structures {self.config.structure_key()} and "
                f"{config.structure_key()}; report one structure at a time"
            )
        self.stacks.extend(stacks)
        self.levels.add(level)
        self.methods[method] = self.methods.get(method, 0) + len(stacks)
        self.max_exploitability = max(self.max_exploitability, exploitability)
        self.certified += certified

    @classmethod
    def of(cls, solutions: Iterable) -> SweepSummary:
        summary = cls()
        for s in solutions:
            summary.add(s)
        return summary

    def __len__(self) -> int:
        return len(self.stacks)


def about_items(
    solutions,
    *,
    exact: bool,
    thresholds=None,
    range_stacks: Sequence[float] = (),
    extra: dict | None = None,
) -> list[tuple[str, object]]:
    """The ``About`` sheet: configuration, versions, checksum, solver, quality, parameters.

    ``solutions`` is the solutions themselves or their :class:`SweepSummary`.
    """
    summary = solutions if isinstance(solutions, SweepSummary) else SweepSummary.of(sorted_solutions(solutions))
    config = summary.config
    stacks = summary.stacks
    n = len(stacks)
    certified = summary.certified
    if exact:
        cert = f"exact rational certificates requested: {certified} of {n} solutions certified"
    elif certified:
        cert = f"{certified} of {n} solutions certified exactly"
    else:
        cert = "not requested (floating-point solutions, each checked by best responses)"
    items: list[tuple[str, object]] = [
        ("Game", "heads-up no-limit hold'em push/fold: SB shoves or folds, BB calls or folds"),
        ("Small blind (bb)", float(config.small_blind)),
        ("Big blind (bb)", float(config.big_blind)),
        ("Ante per player (bb)", float(config.ante)),
        ("BB ante (bb)", float(config.bb_ante)),
        ("Stacks", f"{n} stacks from {fmt_num(stacks[0])} to {fmt_num(stacks[-1])} bb"
                   f"{step_text(stacks)} (effective, before posting)"),
        ("Hand level", ", ".join(sorted(summary.levels))),
        ("sflp version", sflp.__version__),
        ("Equity table SHA-256", equity_checksum()),
        ("Solver", SOLVER_TEXT),
        ("Solutions by method", ", ".join(f"{m}: {k}" for m, k in sorted(summary.methods.items()))),
        ("Max exploitability (bb/hand)", float(summary.max_exploitability)),
        ("Certificate", cert),
    ]
    if thresholds is not None:
        items += [
            ("Threshold range (bb)", f"{fmt_num(thresholds.low)} to {fmt_num(thresholds.high)}"),
            ("Threshold breakpoints", len(thresholds.breakpoints)),
            ("Threshold definition", "largest stack at which the hand is played with frequency > 0.5, "
                                     "truncated to 0.1 bb" + (", whole bb from 100" if thresholds.high >= 100 else "")
                                     + "; 'H+' = up to the top H of the range; then '*' = played on several "
                                     "stretches, each fold between them narrower than 0.5 bb, '\u2020' = folded on "
                                     "a stretch of 0.5 bb or more inside the range"),
        ]
    if range_stacks:
        items.append(("Range grids at (bb)", ", ".join(fmt_num(s) for s in range_stacks)))
    items.append(("EV margins", "SB: EV(shove) - EV(fold) per hand held; BB: EV(call) - EV(fold) per hand "
                                "facing a shove (empty where SB never shoves); bb"))
    for key, value in (extra or {}).items():
        items.append((str(key), value if isinstance(value, (int, float)) else str(value)))
    return items


MAX_SHEET_STACKS = 500
"""Stacks kept for the workbook's ``Values`` sheet and the HTML page at most (chosen evenly, the
grid stacks with them, so up to 500 plus the grid stacks; ``values.csv`` and the every-stack
files have them all).  The ``Hand EV`` sheet shows fewer:
:data:`sflp.charts.stacks.HAND_EV_STACKS` (50) of them, with the grid stacks."""

RANGE_FILE = {"csv": "ranges.csv", "segments": "ranges_segments.csv", "parquet": "ranges.parquet"}
"""The file holding every stack's frequencies, by ranges form (:data:`.formats.RANGE_FORMS`)."""


SEGMENT_MARGINS = "margins_supports.csv + margins_stacks.csv"
"""The EV margins of every stack beside ``ranges_segments.csv`` (:class:`.media.segments.MarginsSupports`)."""


def homes(formats: Sequence[str], ranges: str) -> dict[str, str | None]:
    """Where a set keeps every solved stack's ``values``, ``frequencies`` and ``margins`` (EV
    margins): file names, None when the set has no such file (written without ``csv``).

    >>> homes(["csv", "xlsx"], "segments")["margins"]
    'margins_supports.csv + margins_stacks.csv (read with sflp.read_margins)'
    >>> homes(["xlsx"], "csv")
    {'values': None, 'frequencies': None, 'margins': None}
    """
    if "csv" not in formats:
        return {"values": None, "frequencies": None, "margins": None}
    margins = RANGE_FILE[ranges] if ranges != "segments" else \
        f"{SEGMENT_MARGINS} (read with sflp.read_margins)"
    return {"values": "values.csv", "frequencies": RANGE_FILE[ranges], "margins": margins}


def subset_notes(solved: Sequence[float], kept: Sequence[float], chosen: Sequence[float], formats: Sequence[str],
                 ranges: str) -> list[dict]:
    """Every place of a set that shows part of its ``solved`` stacks, as written into it
    (``kept``: the stacks of the workbook's ``Values`` sheet and of the page; ``chosen``: the grid
    stacks): ``{"file", "part", "shown", "of", "from", "to", "rest", "text"}``, ``rest`` the
    file(s) with every stack (None: none in this set) and ``text`` the note written there.
    ``manifest.json`` (``subsets``) and the command's summary carry the same list."""
    from sflp.charts.stacks import PAGE_CURVE_POINTS, PAGE_STACKS, hand_ev_stacks, thin_indices

    where = homes(formats, ranges)
    total = len(solved)
    page = [kept[k] for k in thin_indices(len(kept), PAGE_STACKS)]
    curve = [solved[k] for k in thin_indices(total, PAGE_CURVE_POINTS)]
    places = []
    if "xlsx" in formats:
        places += [("chart.xlsx", "Values sheet", kept, "values", "values"),
                   ("chart.xlsx", "Hand EV sheet", hand_ev_stacks(kept, chosen), "margins", "EV margins")]
    if "html" in formats:
        places += [("chart.html", "grids and hand details", page, "frequencies", "grids and EV margins"),
                   ("chart.html", "value curve", curve, "values", "values")]
    notes = []
    for file, part, shown, key, what in places:
        if len(shown) < total:
            rest = where[key]
            if rest is not None and ranges == "segments" and key == "frequencies":  # margins in other files
                rest = f"{rest} (frequencies) with {SEGMENT_MARGINS} (EV margins, read with sflp.read_margins)"
            notes.append({"file": file, "part": part, "shown": len(shown), "of": total, "from": min(shown),
                          "to": max(shown), "rest": rest,
                          "text": subset_text(shown, total, rest, what, grid=part != "value curve")})
    return notes


def made_with() -> dict[str, str]:
    """The libraries whose version decides some bytes of a chart set: Pillow rasterises the PNG
    pictures (anti-aliasing and zlib differ between releases), XlsxWriter writes the workbook's
    container (the cell values do not depend on it), reportlab writes the PDF's objects (its text
    and drawing do not).  Every number, the CSV, HTML and SVG files are the same with any version."""
    from importlib.metadata import version

    return {name: version(name) for name in ("pillow", "xlsxwriter", "reportlab")}


def step_value(stacks: Sequence[float]) -> float | None:
    text = step_text(stacks)
    return float(text.split()[-1]) if text else None
