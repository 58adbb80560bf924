"""``sflp compare``: read chart-set folders, and write the comparison (CSV, grids, a picture).

:func:`load_chart` reads a folder written by ``sflp chart`` / ``sflp exploit --stacks``
(``thresholds.csv`` for the intervals, ``values.csv`` for the stack range) into a
:class:`sflp.study.compare.Chart`.  :func:`write_compare` writes into one folder:

=======================  ==============================================================
``compare.csv``          player, hand, threshold_a, threshold_b, capped_a, capped_b,
                         difference, differs, differ_length (one row per player x hand)
``sb_diff.csv``          13x13 grid of SB threshold differences (B - A, bb; empty: n/a)
``bb_diff.csv``          the same for BB
``compare.png/.svg``     both grids coloured by the difference, with the stacks that differ
=======================  ==============================================================
"""

from __future__ import annotations

import csv
import io
import math
from pathlib import Path

import numpy as np
import pandas as pd

from sflp.atomic import write_bytes
from sflp.checks import parse_number
from sflp.core.cards import CLASS_NAMES
from sflp.errors import ConfigError, DataError
from sflp.report.colors import blend
from sflp.report.csv_out import csv_bytes
from sflp.report.draw import Drawing, wrap
from sflp.report.frames import GRID_RANKS, PLAYER_TITLES, grid_from_tidy, select
from sflp.report.text import fmt_num
from sflp.study.compare import PLAYERS, Chart, HandDiff

COMPARE_COLUMNS = (
    "player", "hand", "threshold_a", "threshold_b", "capped_a", "capped_b", "difference", "differs",
    "differ_length",
)


MAX_CSV_BYTES = 256 * 1024 * 1024
"""The largest ``thresholds.csv`` or ``values.csv`` a comparison reads (100,000 stacks' values.csv is ~8 MB)."""


def _read_csv(path: Path) -> list[dict[str, str]]:
    """The rows of one CSV file of a chart set, read as untrusted input (:mod:`sflp.inputs`: a
    regular file, never a FIFO waited on, capped in size, UTF-8); a row with too few or too many
    fields is refused."""
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


def load_chart(folder: Path | str, name: str | None = None) -> Chart:
    """A chart from a chart-set folder (its ``thresholds.csv`` and ``values.csv``)."""
    folder = Path(folder)
    if not folder.is_dir():
        raise DataError(f"{folder} is not a folder")
    tpath, vpath = folder / "thresholds.csv", folder / "values.csv"
    rows = _read_csv(tpath)
    need = {"player", "hand", "intervals"}
    if not rows or not need <= set(rows[0]):
        raise DataError(f"{tpath}: expected the columns {sorted(need)} of sflp's thresholds.csv")
    intervals = {}
    for k, row in enumerate(rows, start=2):
        if row["player"] not in PLAYERS or row["hand"] not in CLASS_NAMES:
            raise DataError(f"{tpath}, line {k}: unknown player/hand {row['player']!r}/{row['hand']!r}")
        intervals[(row["player"], row["hand"])] = _intervals(row["intervals"], tpath, k)
    try:
        stacks = [float(r["stack"]) for r in _read_csv(vpath)]
    except (KeyError, ValueError):
        raise DataError(f"{vpath}: expected a 'stack' column of numbers") from None
    if not stacks:
        raise DataError(f"{vpath}: no stacks")
    return Chart(name or folder.name, min(stacks), max(stacks), intervals)


def compare_frame(diffs: dict[tuple[str, str], HandDiff]) -> pd.DataFrame:
    """One row per player x hand (SB then BB, class-id order) of :func:`sflp.study.compare.compare_charts`."""
    rows = []
    for player in PLAYERS:
        for hand in CLASS_NAMES:
            d = diffs[(player, hand)]
            rows.append(
                (
                    player, hand,
                    math.nan if d.threshold_a is None else d.threshold_a,
                    math.nan if d.threshold_b is None else d.threshold_b,
                    d.capped_a, d.capped_b,
                    math.nan if d.difference is None else d.difference,
                    ";".join(f"{a:.6f}-{b:.6f}" for a, b in d.differs),
                    float(d.differ_length),
                )
            )
    return pd.DataFrame(rows, columns=list(COMPARE_COLUMNS))


def _diff_colour(diff: float, differ_length: float, scale: float) -> str:
    """Grey when the charts agree everywhere, blue when B plays deeper, red when shallower."""
    if differ_length == 0:
        return "EEEEEE"
    if math.isnan(diff):
        return "FFD966"  # one chart never plays it
    t = min(1.0, abs(diff) / scale) if scale > 0 else 0.0
    return blend("FFFFFF", "3182BD" if diff > 0 else "D73027", 0.25 + 0.75 * t)


def difference_picture(frame: pd.DataFrame, name_a: str, name_b: str, low: float, high: float) -> Drawing:
    """Both players' 13x13 grids of threshold differences (B - A)."""
    from sflp.report.plots import PT, draw_grid

    d = Drawing(14.4 * PT, 8.4 * PT)
    finite = frame["difference"][np.isfinite(frame["difference"])].abs()
    scale = float(finite.max()) if len(finite) and finite.max() > 0 else 1.0
    for k, player in enumerate(PLAYERS):
        rows = select(frame, player=player)
        hands = grid_from_tidy(rows, "hand").to_numpy()
        diff = grid_from_tidy(rows, "difference").to_numpy(dtype=np.float64)
        length = grid_from_tidy(rows, "differ_length").to_numpy(dtype=np.float64)
        colours = [[_diff_colour(diff[r, c], length[r, c], scale) for c in range(13)] for r in range(13)]
        second = [["=" if length[r, c] == 0 else "A/B" if math.isnan(diff[r, c]) else f"{diff[r, c]:+.1f}"
                   for c in range(13)] for r in range(13)]
        left, top, size = (0.35 + 7.2 * k) * PT, 0.9 * PT, 6.6 * PT
        draw_grid(d, left, top, size, colours, hands, second, big_second=True)
        d.text(left + size / 2, top - 18, f"{PLAYER_TITLES[player]}: threshold B - A (bb)", 11, anchor="middle")
    d.text(d.width / 2, 21, f"A = {name_a}   vs   B = {name_b}   (stacks {fmt_num(low)}-{fmt_num(high)} bb)", 12,
           anchor="middle")
    note = ("Number: B's chart number minus A's (bb; blue = B plays the hand deeper, red = shallower). "
            "'=': the same decision at every common stack. 'A/B': only one chart plays the hand with "
            "frequency > 0.5. compare.csv lists the exact stack intervals where the decisions differ.")
    d.lines(0.025 * d.width, d.height * 0.94, wrap(note, 0.95 * d.width, 8), 8, "333333")
    return d


def write_compare(diffs, a: Chart, b: Chart, out_dir: Path | str, *, on_keep=None) -> dict[str, str]:
    """Write ``compare.csv``, ``sb_diff.csv``, ``bb_diff.csv`` and ``compare.png/.svg`` (see module doc).

    The folder is one unit with a ``manifest.json``, under the output-folder contract of
    :class:`~sflp.report.staging.StagedFolder`: only files an earlier run wrote are replaced, the
    user's own files are kept (``on_keep(names)``), a folder of other files is refused.
    """
    import sflp
    from sflp.report.plots import render
    from sflp.report.staging import StagedFolder, write_manifest

    out = Path(out_dir)
    frame = compare_frame(diffs)
    folder = StagedFolder(out)
    with folder as stage:
        write_bytes(stage / "compare.csv", csv_bytes(frame, COMPARE_COLUMNS))
        for player in PLAYERS:
            grid = grid_from_tidy(select(frame, player=player), "difference")
            lines = [",".join(["", *GRID_RANKS])]
            for rank, row in zip(GRID_RANKS, grid.to_numpy(dtype=np.float64)):
                lines.append(",".join([rank, *("" if math.isnan(v) else repr(float(v)) for v in row)]))
            write_bytes(stage / f"{player}_diff.csv", ("\n".join(lines) + "\n").encode())
        low, high = max(a.low, b.low), min(a.high, b.high)
        render(difference_picture, stage, "compare", frame, a.name, b.name, low, high)
        write_manifest(stage, {"kind": "compare", "sflp_version": sflp.__version__, "a": a.name, "b": b.name,
                               "low": low, "high": high})
        names = sorted(p.name for p in stage.iterdir() if not p.name.startswith("."))
    if folder.kept and on_keep is not None:
        on_keep(folder.kept)
    return {name: str(out / name) for name in names}


_COMPARE_KEYS = {"sb": "small_blind", "small_blind": "small_blind", "bb": "big_blind", "big_blind": "big_blind",
                 "ante": "ante", "bb_ante": "bb_ante", "bb-ante": "bb_ante"}


def resolve_chart(text: str, stacks: str):
    """A chart for ``sflp compare``: a chart-set folder, or a configuration such as ``ante=0.125``.

    ``nash`` (or ``default``) is the default game; ``key=value`` pairs (``sb``, ``bb``, ``ante``,
    ``bb_ante``) separated by commas change it.  A configuration is solved exactly (its
    thresholds) over the ``--stacks`` range, raised to the smallest legal stack (``bb + antes``).
    """
    from sflp.core.game import GameConfig
    from sflp.study.compare import Chart

    path = Path(text)
    if path.is_dir():
        return load_chart(path, name=str(path))
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
    return Chart.from_thresholds(name, compute_thresholds(config, low=low, high=high))
