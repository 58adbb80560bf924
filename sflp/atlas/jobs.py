"""The atlas's jobs: one :class:`AtlasJob` per blind structure, with its grid of stacks.

:func:`atlas_jobs` makes them from the structures ``(small blind, big blind, ante, BB ante)`` and
the stack grid (``sflp atlas --ante``, ``--preset``, ``--stacks``), and gives each line of structures
that differ only in their ante the stacks its ante path follows (``ante_stacks``).  A job is a
small frozen value: pickled to a worker or a Dask cluster as it is.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from sflp.charts.text import exact_name_text, fmt_num
from sflp.errors import ConfigError

KIND = "structure-atlas"
"""The ``kind`` of an atlas's ``manifest.json``."""
DATASETS = ("thresholds", "values", "paths", "ante_thresholds", "ante_paths")
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
    """The formats of the structure's chart set (``sflp chart``'s, :data:`sflp.charts.media.formats.FORMATS`),
    written into the atlas's ``charts/<structure>`` folder; empty: no chart set."""

    @property
    def name(self) -> str:
        """The structure's partition value: ``sb0.5_bb1_ante0.1_bbante0``."""
        return structure_name(self.small_blind, self.big_blind, self.ante, self.bb_ante)

    @property
    def line(self) -> str:
        """The line of structures that differ only in their ante: ``sb0.5_bb1_bbante0``."""
        n = exact_name_text
        return f"sb{n(self.small_blind)}_bb{n(self.big_blind)}_bbante{n(self.bb_ante)}"

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
    n = exact_name_text  # the shortest text of each number: two different antes never share a name
    return f"sb{n(small_blind)}_bb{n(big_blind)}_ante{n(ante)}_bbante{n(bb_ante)}"


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
        for name, given, value in zip(("start", "stop", "step"), text.split(":"), (start, stop, step)):
            try:
                float(value)
            except OverflowError:
                raise ConfigError(f"{option} {text!r}: the {name} {given.strip(' ')} is too large for a float "
                                  "(at most ~1.8e308)") from None
        if step <= 0:
            raise ConfigError(f"{option} {text!r}: the step must be positive")
        if stop < start:
            raise ConfigError(f"{option} {text!r}: stop must not be below start")
        count = int((stop - start) / step) + 1
        if count > MAX_STACKS:
            raise ConfigError(f"{option} {text!r}: {count:,} antes is more than {MAX_STACKS:,}")
        values = list(dict.fromkeys(float(start + k * step) for k in range(count)))
    else:
        values = []
        typed = {}
        for given, p in zip(text.split(","), parts):
            try:
                values.append(float(p))
                typed.setdefault(values[-1], given.strip(" \t"))
            except OverflowError:
                raise ConfigError(f"{option} {text!r}: ante {given.strip(' ')} is too large for a float "
                                  "(at most ~1.8e308)") from None
        values = sorted(set(values))
    bad = [v for v in values if not (v >= 0 and math.isfinite(v))]
    if bad:
        raise ConfigError(f"{option} {text!r}: antes must be numbers of at least 0 (got {bad[0]:g})")
    huge = [v for v in values if not math.isfinite(4 * v)]
    if huge:  # a stack covers the big blind and both antes: it must stay a finite float
        shown = typed.get(huge[0], exact_name_text(huge[0])) if ":" not in text else exact_name_text(huge[0])
        raise ConfigError(f"{option} {text!r}: ante {shown} leaves no finite stack that covers the big blind and "
                          "both antes")
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
        from sflp.charts.media.formats import check_formats

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
                f"from {fmt_num(first)} bb (its big blind and antes) on; the grid ends at {fmt_num(grid[-1])} bb")
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
                        f"{ante_stacks_option}: stack {fmt_num(low[0])} bb cannot cover the big blind and the highest "
                        f"ante ({fmt_num(top)} bb in all); give stacks from {fmt_num(top)} bb on")
        # the line's ante paths are dealt round the line's structures, so that they spread over the workers
        share = line_stacks[antes.index(ante)::len(antes)]
        jobs.append(AtlasJob(sb, bb, ante, bb_ante, tuple(own), own[0], own[-1], share,
                             a_low if share else 0.0, a_high if share else 0.0, tuple(charts)))
    return jobs
