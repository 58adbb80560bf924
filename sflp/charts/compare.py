"""``sflp compare``: read chart-set folders, and write the comparison (CSV, grids, a picture).

:func:`load_chart` reads a folder written by ``sflp chart`` / ``sflp exploit --stacks``
(``thresholds.csv`` for the intervals, ``values.csv`` for the stack range) into a
:class:`sflp.study.compare.Chart`.  :func:`write_compare` writes into one folder:

=======================  ==============================================================
``compare.csv``          player, hand, threshold_a, threshold_b, label_a, label_b, capped_a,
                         capped_b, difference, differs, differ_length (one row per player x hand)
``sb_diff.csv``          13x13 grid of SB threshold differences (B - A, bb; empty: n/a)
``bb_diff.csv``          the same for BB
``compare.png/.svg``     both grids coloured by the difference, with the stacks that differ
=======================  ==============================================================

Numbers are published to 1e-6 bb, the precision of ``thresholds.csv``: each threshold and
interval end is rounded once to 6 decimals, and ``difference`` and ``differ_length`` are computed
from those rounded values in integers of 1e-6 bb, so they carry no float noise (``3.301309``, never
``3.3013090000000007``).  ``label_a`` / ``label_b`` are the cells of each chart as the chart shows
them (``"7.1*"``, ``"25+"``, ``"-"``).  ``difference`` is empty when either chart never plays the
hand and when both play it to their top (both capped: not a number).  Booleans are
``true`` / ``false``, as in every CSV of sflp.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd

from sflp.atomic import write_bytes
from sflp.charts.colors import blend
from sflp.charts.frames import GRID_RANKS, PLAYER_TITLES, grid_from_tidy, select
from sflp.charts.media.csv import csv_bytes
from sflp.charts.media.draw import Drawing, wrap
from sflp.charts.media.terminal import written_line
from sflp.charts.text import fmt_num
from sflp.checks import number_text, parse_number
from sflp.core.cards import CLASS_NAMES
from sflp.errors import ConfigError, DataError
from sflp.study.compare import PLAYERS, Chart, HandDiff

COMPARE_COLUMNS = (
    "player", "hand", "threshold_a", "threshold_b", "label_a", "label_b", "capped_a", "capped_b", "difference",
    "differs", "differ_length",
)
MICRO = 10**6
"""Compare files publish stacks in whole 1e-6 bb (6 decimals), like ``thresholds.csv``."""
RANKING = ("ranked by the total length (bb) of the stacks in the common range where exactly one chart "
           "plays the hand (differ_length)")
"""How :func:`ranked` orders the hands that differ: the measure ``sflp compare`` states with its list."""


MAX_CSV_BYTES = 256 * 1024 * 1024
"""The largest ``thresholds.csv`` or ``values.csv`` a comparison reads (100,000 stacks' values.csv is ~8 MB)."""


def _read_csv(path: Path, entry: dict | None = None) -> list[dict[str, str]]:
    """The rows of one CSV file of a chart set, read as untrusted input (:mod:`sflp.inputs`: a
    regular file, never a FIFO waited on, capped in size, UTF-8; with its manifest ``entry``, the
    bytes it lists); a row with too few or too many fields is refused."""
    if entry is not None:
        from sflp.output.manifest import read_listed

        data = read_listed(path.parent, path.name, MAX_CSV_BYTES, entry)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise DataError(f"{path} is not UTF-8 text (byte {exc.start:,} is not)") from None
    else:
        from sflp.inputs import read_text

        text = read_text(path, f"{path} (is it a chart-set folder, sflp chart --out?)", max_bytes=MAX_CSV_BYTES,
                         follow_symlinks=False, error=DataError)
    try:
        reader = csv.DictReader(io.StringIO(text, newline=""), restkey="\0extra", restval=None)
        rows = list(reader)
    except csv.Error as exc:
        raise DataError(f"{path}: not CSV ({exc})") from None
    for k, row in enumerate(rows, start=2):
        if "\0extra" in row or any(v is None for v in row.values()):
            raise DataError(f"{path}, line {k}: not the {len(reader.fieldnames or ())} fields of its header")
    return rows


def _intervals(text: str, path: Path, line: int) -> tuple[tuple[float, float], ...]:
    out = []
    for part in filter(None, text.split(";")):
        try:
            lo, hi = part.split("-", 1)
            out.append((float(lo), float(hi)))
        except ValueError:
            raise DataError(f"{path}, line {line}: bad interval {part!r} (expected LOW-HIGH)") from None
    return tuple(out)


def load_chart(folder: Path | str, name: str | None = None, *, verify: bool = True) -> Chart:
    """A chart from a chart-set folder (its ``thresholds.csv`` and ``values.csv``).

    With ``verify`` (the default) the folder is checked against its ``manifest.json`` as every
    reader of a set checks it (:func:`sflp.output.manifest.checked_entries`: both files listed,
    every listed file's size and SHA-256, the bytes parsed those hashed); ``verify=False``
    (``sflp compare --no-manifest``) reads a folder made or edited by hand."""
    folder = Path(folder)
    if not folder.is_dir():
        raise DataError(f"{folder} is not a folder")
    tpath, vpath = folder / "thresholds.csv", folder / "values.csv"
    entries = {}
    if verify:
        from sflp.output.manifest import checked_entries

        entries = checked_entries(folder, ("thresholds.csv", "values.csv"),
                                  "a chart set of several stacks lists both (sflp chart --out)",
                                  kinds=("chart-set",), reader="sflp compare")
    rows = _read_csv(tpath, entries.get("thresholds.csv"))
    need = {"player", "hand", "intervals"}
    if not rows or not need <= set(rows[0]):
        raise DataError(f"{tpath}: expected the columns {sorted(need)} of sflp's thresholds.csv")
    intervals = {}
    for k, row in enumerate(rows, start=2):
        if row["player"] not in PLAYERS or row["hand"] not in CLASS_NAMES:
            raise DataError(f"{tpath}, line {k}: unknown player/hand {row['player']!r}/{row['hand']!r}")
        intervals[(row["player"], row["hand"])] = _intervals(row["intervals"], tpath, k)
    try:
        stacks = [float(r["stack"]) for r in _read_csv(vpath, entries.get("values.csv"))]
    except (KeyError, ValueError):
        raise DataError(f"{vpath}: expected a 'stack' column of numbers") from None
    if not stacks:
        raise DataError(f"{vpath}: no stacks")
    config, title = _structure_of(folder)
    return Chart(name or folder.name, min(stacks), max(stacks), intervals, config, title)


def _structure_of(folder: Path):
    """``(config, title)`` of a chart-set folder from its ``manifest.json`` (``(None, None)`` when it
    has no sflp manifest, e.g. CSV files made by hand); a manifest whose blinds are not a game is
    one DataError."""
    from sflp.core.game import GameConfig
    from sflp.output.manifest import read_manifest

    manifest = read_manifest(folder)
    if manifest is None or not isinstance(manifest.get("config"), dict):
        return None, None
    blinds = manifest["config"]
    keys = ("small_blind", "big_blind", "ante", "bb_ante")
    try:
        values = {k: float(blinds[k]) for k in keys}
        config = GameConfig(stack=values["big_blind"] + values["ante"] + values["bb_ante"] + 1, **values)
    except (KeyError, TypeError, ValueError, ConfigError):
        raise DataError(f"{folder / 'manifest.json'}: its config is not the blinds and antes of a game "
                        f"({', '.join(keys)})") from None
    title = manifest.get("title")
    return config, title if isinstance(title, str) else None


def micro(value: float) -> int:
    """A stack in whole 1e-6 bb: the published 6-decimal rounding (exact on the float's value).

    >>> micro(7.163619243), micro(3.3013090000000007), micro(25.0)
    (7163619, 3301309, 25000000)
    """
    return round(Fraction(value) * MICRO)


def _published(value: float | None) -> float:
    return math.nan if value is None else micro(value) / MICRO


def hand_label(threshold: float | None, capped: bool, intervals, top: float, low: float | None = None) -> str:
    """A hand's cell on its own chart (from ``low`` to ``top`` bb) by the charts' one label rule,
    :func:`sflp.charts.scale.cell_label`: ``"7.1†"``, ``"24.4*"``, ``"25+"``, ``"-"``.

    >>> hand_label(7.163619, False, ((1.0, 2.388587), (5.070148, 7.163619)), 25.0, 1.0)
    '7.1†'
    >>> hand_label(25.0, True, ((1.0, 25.0),), 25.0), hand_label(None, False, (), 25.0)
    ('25+', '-')
    """
    from sflp.charts.scale import cell_label

    return cell_label(threshold, capped, intervals, top, low=low).text


def ranked(diffs: dict[tuple[str, str], HandDiff], player: str) -> list[HandDiff]:
    """The hands of ``player`` whose decisions differ somewhere, most first (:data:`RANKING`: by
    ``differ_length``; ties in class-id order)."""
    rows = [diffs[(player, hand)] for hand in CLASS_NAMES if diffs[(player, hand)].differ_length > 0]
    return sorted(rows, key=lambda d: -micro(d.differ_length))


def compare_frame(diffs: dict[tuple[str, str], HandDiff], a: Chart | None = None, b: Chart | None = None
                  ) -> pd.DataFrame:
    """One row per player x hand (SB then BB, class-id order) of :func:`sflp.study.compare.compare_charts`,
    published to 1e-6 bb (module doc): ``difference`` is ``threshold_b - threshold_a`` of the
    rounded thresholds and ``differ_length`` the sum of the rounded ``differs`` intervals, both
    in integers of 1e-6 bb.  The labels need the charts ``a`` and ``b`` (empty without)."""
    rows = []
    for player in PLAYERS:
        for hand in CLASS_NAMES:
            d = diffs[(player, hand)]
            ends = [(micro(lo), micro(hi)) for lo, hi in d.differs]
            difference = (math.nan if d.difference is None
                          else (micro(d.threshold_b) - micro(d.threshold_a)) / MICRO)
            rows.append(
                (
                    player, hand,
                    _published(d.threshold_a),
                    _published(d.threshold_b),
                    "" if a is None else hand_label(d.threshold_a, d.capped_a, a.get(player, hand), a.high, a.low),
                    "" if b is None else hand_label(d.threshold_b, d.capped_b, b.get(player, hand), b.high, b.low),
                    d.capped_a, d.capped_b,
                    difference,
                    ";".join(f"{lo / MICRO:.6f}-{hi / MICRO:.6f}" for lo, hi in ends),
                    sum(hi - lo for lo, hi in ends) / MICRO,
                )
            )
    return pd.DataFrame(rows, columns=list(COMPARE_COLUMNS))


def compare_title(a: Chart, b: Chart) -> str:
    """What the comparison compares, named by structure: ``"A: no ante  vs  B: ante 0.125"`` when
    the blinds are the same, the whole structures when they differ, the charts' titles when the
    structures are the same, and the charts' names when a structure is unknown.

    >>> from sflp.core.game import GameConfig
    >>> nash, ante = GameConfig(stack=10), GameConfig(stack=10, ante=0.125)
    >>> compare_title(Chart("x", 1, 25, {}, nash), Chart("y", 1, 25, {}, ante))
    'A: no ante  vs  B: ante 0.125 (SB 0.5 / BB 1)'
    >>> compare_title(Chart("x", 1, 25, {}, nash, "Nash equilibrium"), Chart("y", 1, 25, {}, nash, "Exploit"))
    'A: Nash equilibrium  vs  B: Exploit (SB 0.5 / BB 1, no ante)'
    """
    from sflp.charts.about import structure_text

    if a.config is None or b.config is None:
        return f"A: {a.name}  vs  B: {b.name}"
    sa, sb = structure_text(a.config), structure_text(b.config)
    blinds_a, _, antes_a = sa.partition(", ")
    blinds_b, _, antes_b = sb.partition(", ")
    if sa == sb:
        ta, tb = a.title or a.name, b.title or b.name
        return f"A: {ta}  vs  B: {tb} ({sa})" if ta != tb else f"A and B: {ta} ({sa})"
    if blinds_a == blinds_b:
        return f"A: {antes_a}  vs  B: {antes_b} ({blinds_a})"
    return f"A: {sa}  vs  B: {sb}"


def _where_text(intervals, most: int = 3) -> str:
    """Where two charts differ, at two decimals: intervals that would print as zero length
    (``7.70-7.70``) are left out, unless nothing else is left (then the point itself).

    >>> _where_text([(2.0, 2.004), (5.0, 6.5)]), _where_text([(2.0, 2.001)])
    ('5.00-6.50', '2.00')
    """
    shown = [(x, y) for x, y in intervals if number_text(x, ".2f") != number_text(y, ".2f")]
    if not shown:
        return number_text(intervals[0][0], ".2f") if intervals else ""
    return (", ".join(f"{number_text(x, '.2f')}-{number_text(y, '.2f')}" for x, y in shown[:most])
            + (" ..." if len(shown) > most else ""))


def format_compare(a, b, diffs, out_dir, files, top: int = 10, width: int | None = None) -> str:
    """The text of ``sflp compare``: what is compared, named by structure
    (:func:`compare_title`), then per player the ``top`` hands whose decisions
    differ most (:func:`ranked`, by the measure it states), each side's cell
    as its chart prints it (:func:`hand_label`: ``7.1†``, ``25+``, ``-``) and
    where they differ.  ``width``: the prose wraps, and a hand's line lists as many of its
    differing intervals as fit (at least one)."""
    import textwrap

    def prose(text: str, indent: str = "") -> list[str]:
        return [indent + text] if width is None else textwrap.wrap(
            text, width, initial_indent=indent, subsequent_indent=indent + "  ", break_on_hyphens=False)

    low, high = common_stacks(a, b)
    lines = [*prose(compare_title(a, b)), *prose(f"A = {a.name}"), *prose(f"B = {b.name}"),
             f"Common stacks {low:g}-{high:g} bb", *prose(f"Each player's top {top} hands, {RANKING}.")]
    for player, verb in (("sb", "push"), ("bb", "call")):
        rows = ranked(diffs, player)
        lines += ["", f"{player.upper()} {verb}: {len(rows)} of 169 hands differ somewhere"]
        for d in rows[:top]:
            ta = hand_label(d.threshold_a, d.capped_a, a.get(player, d.hand), a.high, a.low)
            tb = hand_label(d.threshold_b, d.capped_b, b.get(player, d.hand), b.high, b.low)
            head = f"  {d.hand:<4} A {ta:>6}  B {tb:>6}  differ at "
            most = 3
            while most > 1 and width is not None and len(head + _where_text(d.differs, most) + " bb") > width:
                most -= 1
            lines.append(f"{head}{_where_text(d.differs, most)} bb")
    lines.append("\n" + written_line(len(files), out_dir, width))
    return "\n".join(lines)


def _diff_colour(diff: float, differ_length: float, scale: float, both_capped: bool = False) -> str:
    """Light grey when the charts agree everywhere, blue when B plays deeper, red when shallower,
    yellow when one chart never plays it, mid grey when both are capped (no difference to show)."""
    if differ_length == 0:
        return "EEEEEE"
    if both_capped:
        return "C8C8C8"
    if math.isnan(diff):
        return "FFD966"  # one chart never plays it
    t = min(1.0, abs(diff) / scale) if scale > 0 else 0.0
    return blend("FFFFFF", "3182BD" if diff > 0 else "D73027", 0.25 + 0.75 * t)


def difference_picture(frame: pd.DataFrame, title: str, low: float, high: float, listing: str = "compare.csv"
                       ) -> Drawing:
    """Both players' 13x13 grids of threshold differences (B - A), headed by ``title``
    (:func:`compare_title`); ``listing`` names the file with the frame (the note under the grids)."""
    from sflp.charts.media.pictures.plots import PT, draw_grid

    d = Drawing(14.4 * PT, 8.4 * PT)
    finite = frame["difference"][np.isfinite(frame["difference"])].abs()
    scale = float(finite.max()) if len(finite) and finite.max() > 0 else 1.0
    for k, player in enumerate(PLAYERS):
        rows = select(frame, player=player)
        hands = grid_from_tidy(rows, "hand").to_numpy()
        diff = grid_from_tidy(rows, "difference").to_numpy(dtype=np.float64)
        length = grid_from_tidy(rows, "differ_length").to_numpy(dtype=np.float64)
        capped = (grid_from_tidy(rows, "capped_a").to_numpy(dtype=bool)
                  & grid_from_tidy(rows, "capped_b").to_numpy(dtype=bool))
        colours = [[_diff_colour(diff[r, c], length[r, c], scale, capped[r, c]) for c in range(13)]
                   for r in range(13)]
        second = [[_cell_text(diff[r, c], length[r, c], capped[r, c]) for c in range(13)] for r in range(13)]
        left, top, size = (0.35 + 7.2 * k) * PT, 0.9 * PT, 6.6 * PT
        draw_grid(d, left, top, size, colours, hands, second, big_second=True)
        d.text(left + size / 2, top - 18, f"{PLAYER_TITLES[player]}: threshold B - A (bb)", 11, anchor="middle")
    d.text(d.width / 2, 21, f"{title}, stacks {fmt_num(low)}-{fmt_num(high)} bb", 12, anchor="middle")
    note = ("Number: B's chart number minus A's (bb; blue = B plays the hand deeper, red = shallower). "
            "'=': the same decision at every common stack. 'A/B': only one chart plays the hand with "
            "frequency > 0.5. 'capped': both charts play it to their top, so there is no difference to "
            f"show, yet the decisions differ somewhere. {listing} lists each chart's label and the exact "
            "stack intervals where the decisions differ.")
    d.lines(0.025 * d.width, d.height * 0.94, wrap(note, 0.95 * d.width, 8), 8, "333333")
    return d


def _cell_text(diff: float, length: float, both_capped: bool = False) -> str:
    """A difference cell: ``=`` (agree everywhere), ``capped`` (both charts capped but differing
    below), ``A/B`` (one chart never plays it), else B - A to 0.1 bb.

    >>> _cell_text(0.0, 0.0), _cell_text(float("nan"), 2.0), _cell_text(-1.25, 1.25)
    ('=', 'A/B', '-1.2')
    >>> _cell_text(float("nan"), 0.5, both_capped=True)
    'capped'
    """
    if length == 0:
        return "="
    if both_capped:
        return "capped"
    if math.isnan(diff):
        return "A/B"
    return f"{diff:+.1f}"


def write_compare(diffs, a: Chart, b: Chart, out_dir: Path | str, *, on_keep=None) -> dict[str, str]:
    """Write ``compare.csv``, ``sb_diff.csv``, ``bb_diff.csv`` and ``compare.png/.svg`` (see module doc).

    The folder is one unit with a ``manifest.json``, under the output-folder contract of
    :class:`~sflp.output.stage.StagedFolder`: only files an earlier run wrote are replaced, the
    user's own files are kept (``on_keep(names)``), a folder of other files is refused.
    """
    import sflp
    from sflp.charts.media.pictures.plots import render
    from sflp.output.manifest import write_manifest
    from sflp.output.stage import StagedFolder

    out = Path(out_dir)
    frame = compare_frame(diffs, a, b)
    folder = StagedFolder(out, "compare")
    with folder as stage:
        write_bytes(stage / "compare.csv", csv_bytes(frame, COMPARE_COLUMNS))
        for player in PLAYERS:
            grid = grid_from_tidy(select(frame, player=player), "difference")
            lines = [",".join(["", *GRID_RANKS])]
            for rank, row in zip(GRID_RANKS, grid.to_numpy(dtype=np.float64)):
                lines.append(",".join([rank, *("" if math.isnan(v) else repr(float(v)) for v in row)]))
            write_bytes(stage / f"{player}_diff.csv", ("\n".join(lines) + "\n").encode())
        low, high = max(a.low, b.low), min(a.high, b.high)
        render(difference_picture, stage, "compare", frame, compare_title(a, b), low, high)
        write_manifest(stage, {"kind": "compare", "sflp_version": sflp.__version__, "a": a.name, "b": b.name,
                               "low": low, "high": high})
        names = sorted(p.name for p in stage.iterdir() if not p.name.startswith("."))
    if folder.kept and on_keep is not None:
        on_keep(folder.kept)
    return {name: str(out / name) for name in names}


_COMPARE_KEYS = {"sb": "small_blind", "small_blind": "small_blind", "bb": "big_blind", "big_blind": "big_blind",
                 "ante": "ante", "bb_ante": "bb_ante", "bb-ante": "bb_ante"}


def resolve_chart(text: str, stacks: str, *, verify: bool = True):
    """A chart for ``sflp compare``: a chart-set folder, or a configuration such as ``ante=0.125``.

    ``nash`` (or ``default``) is the default game; ``key=value`` pairs (``sb``, ``bb``, ``ante``,
    ``bb_ante``) separated by commas change it.  A configuration is solved exactly (its
    thresholds) over the ``--stacks`` range, raised to the smallest legal stack (``bb + antes``).
    """
    from sflp.core.game import GameConfig
    from sflp.study.compare import Chart

    path = Path(text)
    if path.is_dir():
        return load_chart(path, name=str(path), verify=verify)
    values = {}
    if text.strip().lower() not in ("nash", "default"):
        for part in text.split(","):
            key, eq, value = part.partition("=")
            key = key.strip().lower().lstrip("-")
            if eq and key in _COMPARE_KEYS and _COMPARE_KEYS[key] in values:
                raise ConfigError(f"compare: {text!r} sets {key} twice; give each of sb, bb, ante, bb_ante once")
            if not eq or key not in _COMPARE_KEYS:
                raise ConfigError(
                    f"compare: {text!r} is neither a chart-set folder nor a configuration such as "
                    "'ante=0.125' or 'sb=0.5,bb=1,ante=0.1,bb_ante=0' (or 'nash' for the default game)"
                )
            try:
                values[_COMPARE_KEYS[key]] = parse_number(value.strip(" \t"), key, special=True)
            except ConfigError:
                raise ConfigError(f"compare: {key}={value!r} in {text!r} is not a number") from None
            if not math.isfinite(values[_COMPARE_KEYS[key]]):
                raise ConfigError(f"compare: {key}={value!r} in {text!r} is not a finite number")
    try:
        low, high = (parse_number(v.strip(" \t"), "--stacks") for v in stacks.split(":")[:2])
    except (ConfigError, ValueError):
        raise ConfigError(f"--stacks {stacks!r}: compare needs LOW:HIGH, such as 1:25") from None
    if not 0 < low < high or not math.isfinite(high):
        raise ConfigError(f"--stacks {stacks!r}: compare needs a stack range LOW:HIGH with 0 < LOW < HIGH")
    config = GameConfig(stack=max(low, high), **values)
    low = max(low, config.min_stack)  # the smallest legal stack
    if not low < high:
        raise ConfigError(f"--stacks {stacks!r}: no legal stack range for {text!r}")
    from sflp.solving.thresholds import compute_thresholds

    name = "nash " + ", ".join(f"{k}={v:g}" for k, v in config.as_dict().items() if k != "stack")
    chart = Chart.from_thresholds(name, compute_thresholds(config, low=low, high=high))
    return dataclasses.replace(chart, title="Nash equilibrium")


def common_stacks(a, b) -> tuple[float, float]:
    return max(a.low, b.low), min(a.high, b.high)
