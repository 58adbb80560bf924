"""The atlas's jobs: one :class:`AtlasJob` per blind structure, with its grid of stacks.

:func:`atlas_jobs` makes them from the structures ``(small blind, big blind, ante, BB ante)`` and
the stack grid (``sflp atlas --ante``, ``--preset``, ``--stacks``), and gives each line of structures
that differ only in their ante the stacks its ante path follows (``ante_stacks``).  A job is a
small frozen value: pickled to a worker or a Dask cluster as it is.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

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


MAX_ATLAS_STACKS = 250_000_000
"""The most solved stacks an atlas takes: structures x grid stacks (10,000 structures x 1-200 bb
@0.01 is 199 million).  Beyond it ``atlas_jobs`` refuses, before any work: the Parquet alone would
pass 16 GB, and ``--ante 0:99:0.001 --stacks 1:200:0.01`` (2 billion) would only run for days."""


@dataclass(frozen=True)
class AtlasJob:
    """One blind structure of an atlas: what :func:`solve_structure` needs, picklable.

    ``stacks`` are the grid stacks (increasing) from ``low`` on: the atlas's ``grid`` (one tuple
    that every job of an atlas shares, so that planning ten thousand structures holds the grid
    once), from the first stack that covers the structure's big blind and antes; ``low`` /
    ``high`` the range of the stack path (the first and last of ``stacks``); ``ante_stacks`` the
    stacks at which the path along the ante is followed from ``ante_low`` to ``ante_high``
    (empty: none)."""

    small_blind: float
    big_blind: float
    ante: float
    bb_ante: float
    grid: tuple[float, ...] = field(repr=False)
    low: float
    high: float
    ante_stacks: tuple[float, ...] = ()
    ante_low: float = 0.0
    ante_high: float = 0.0
    charts: tuple[str, ...] = ()
    """The formats of the structure's chart set (``sflp chart``'s, :data:`sflp.charts.media.formats.FORMATS`),
    written into the atlas's ``charts/<structure>`` folder; empty: no chart set."""

    @property
    def stacks(self) -> tuple[float, ...]:
        """The structure's grid stacks: ``grid`` itself when the structure covers its first stack,
        else ``low`` and the grid stacks above it (made on each access, not kept)."""
        return _grid_from(self.grid, self.low)

    @property
    def name(self) -> str:
        """The structure's partition value: ``sb0.5_bb1_ante0.1_bbante0``."""
        return structure_name(self.small_blind, self.big_blind, self.ante, self.bb_ante)

    @property
    def line(self) -> str:
        """The line of structures that differ only in their ante: ``sb0.5_bb1_bbante0``."""
        from sflp.charts.text import exact_name_text as n

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
    from sflp.charts.text import exact_name_text as n  # the shortest text of each number: no two antes share a name

    return f"sb{n(small_blind)}_bb{n(big_blind)}_ante{n(ante)}_bbante{n(bb_ante)}"


def parse_antes(text: str, option: str = "--ante") -> list[float]:
    """``"0:0.25:0.005"`` (start:stop:step, stop included when on the grid), ``"0,0.1,0.125"`` or
    ``"0.1"``: antes in bb, zero allowed, increasing without repeats; errors name ``option``.

    >>> parse_antes("0:0.01:0.005"), parse_antes("0.125, 0")
    ([0.0, 0.005, 0.01], [0.0, 0.125])
    """
    from sflp.checks import MAX_STACKS, Underflow, parse_number

    text = str(text).strip(" \t")
    usage = f"{option} {text!r} is not START:STOP:STEP (e.g. 0:0.25:0.005) or a comma list (e.g. 0,0.1,0.125)"
    try:
        parts = [parse_number(p.strip(" \t"), option, exact=True) for p in text.split(":" if ":" in text else ",")]
    except Underflow as exc:
        raise exc.in_list(option, text) from None
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
        from sflp.charts.text import exact_name_text

        shown = typed.get(huge[0], exact_name_text(huge[0])) if ":" not in text else exact_name_text(huge[0])
        raise ConfigError(f"{option} {text!r}: ante {shown} leaves no finite stack that covers the big blind and "
                          "both antes")
    return values


def _grid_from(stacks: Sequence[float], first: float) -> tuple[float, ...]:
    """The grid ``stacks`` from ``first`` on: ``first`` itself when it is above the grid's start,
    then the grid stacks above it (the rule of ``sflp chart``'s default stacks); the grid itself
    (not a copy) when ``first`` does not cut it."""
    from sflp.core.game import stacks_from

    return stacks_from(stacks, first)[0]


class AtlasJobs(Sequence):
    """The jobs of an atlas (:func:`atlas_jobs`), made one at a time as they are asked for: a
    small record per structure and one shared grid, never ten thousand copies of the stacks.  A
    sequence of :class:`AtlasJob` (``len``, iteration, indexing; a slice or ``+`` gives a list)."""

    def __init__(self, grid: tuple[float, ...], specs: list[tuple]) -> None:
        self._grid, self._specs = grid, specs

    def __len__(self) -> int:
        return len(self._specs)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[k] for k in range(*index.indices(len(self)))]
        sb, bb, ante, bb_ante, low, share, a_low, a_high, charts = self._specs[index]
        return AtlasJob(sb, bb, ante, bb_ante, self._grid, low, self._grid[-1], share, a_low, a_high, charts)

    def __add__(self, other) -> list:
        return list(self) + list(other)

    def __radd__(self, other) -> list:
        return list(other) + list(self)

    def __eq__(self, other) -> bool:
        return isinstance(other, Sequence) and len(self) == len(other) and all(a == b for a, b in zip(self, other))

    def __repr__(self) -> str:
        return f"<AtlasJobs: {len(self)} structures over {len(self._grid):,} grid stacks>"


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
               stacks_option: str = "--stacks", ante_stacks_option: str = "--ante-stacks") -> AtlasJobs:
    """The jobs of an atlas: one per structure ``(small blind, big blind, ante, BB ante)``, in the
    order given, over the grid ``stacks`` (each structure from the first stack that covers its big
    blind and antes, as ``sflp chart`` does).  Along each line of structures that differ only in
    their ante, the path along the ante runs from the line's lowest ante to its highest at
    ``ante_stacks`` (default: every 0.5 bb of the range that covers the highest ante; ``()``:
    none), those stacks dealt round the line's structures (stack ``k`` to its ``k mod m``-th
    structure by ante) so that they spread over the workers.  ``charts`` are the formats of each
    structure's chart set (``None``: every format; ``()``: none).  Every input is checked here,
    before any work; errors name the options."""
    from sflp.charts.text import exact_name_text
    from sflp.checks import Stacks, stack_list
    from sflp.core.game import GameConfig, min_stack

    if charts is None or isinstance(charts, str) or len(charts):
        from sflp.charts.media.formats import check_formats

        charts = check_formats(charts)  # None: every format

    grid = tuple(stacks) if isinstance(stacks, Stacks) else tuple(stack_list(stacks))
    if not grid:
        raise ConfigError(f"{stacks_option}: no stacks given")
    if any(not (b > a) for a, b in zip(grid, grid[1:])):
        raise ConfigError(f"{stacks_option}: stacks must increase without repeats")
    if not structures:
        raise ConfigError("an atlas needs at least one blind structure")
    if len(structures) * len(grid) > MAX_ATLAS_STACKS:
        raise ConfigError(f"{len(structures):,} structures x {len(grid):,} stacks ({stacks_option}) is "
                          f"{len(structures) * len(grid):,} solved stacks, more than an atlas takes "
                          f"({MAX_ATLAS_STACKS:,}): give fewer antes or a coarser stack grid")
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
    specs = []
    for sb, bb, ante, bb_ante in checked:
        first = min_stack(bb, ante, bb_ante)
        above = len(grid) - bisect.bisect_right(grid, first)  # the grid stacks above first
        own_count = above + 1 if first > grid[0] else len(grid)
        if grid[-1] < first or own_count < 2:
            raise ConfigError(
                f"{stacks_option}: structure {structure_name(sb, bb, ante, bb_ante)} needs at least two stacks "
                f"from {exact_name_text(first)} bb (its big blind and antes) on; the grid ends at "
                f"{exact_name_text(grid[-1])} bb")
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
                        f"{ante_stacks_option}: stack {exact_name_text(low[0])} bb cannot cover the big blind and "
                        f"the highest ante ({exact_name_text(top)} bb in all); give stacks from "
                        f"{exact_name_text(top)} bb on")
        # the line's ante paths are dealt round the line's structures, so that they spread over the workers
        share = line_stacks[antes.index(ante)::len(antes)]
        specs.append((sb, bb, ante, bb_ante, max(first, grid[0]), share, a_low if share else 0.0,
                      a_high if share else 0.0, tuple(charts)))
    return AtlasJobs(grid, specs)
