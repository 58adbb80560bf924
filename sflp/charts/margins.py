"""Every solved stack's EV margins read back from a chart set, whichever form its ranges take (:func:`read_margins`).

``ranges.csv`` and ``ranges.parquet`` hold the margins in their ``ev_margin`` column; a set whose
ranges are ``ranges_segments.csv`` holds them in ``margins_stacks.csv`` (stacks listed one by one)
or recomputes them exactly from ``margins_supports.csv``: each segment's support, its
indifference systems solved at every stack it covers, certified a block at a time
(:class:`sflp.solving.segment.SegmentCertificate`).  Every file is untrusted input, checked as
:mod:`sflp.charts.readback` checks the ranges.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from sflp.charts.readback import (
    CSV_ROW_BYTES,
    HEADER_BYTES,
    RANGE_FILES,
    ROWS_PER_STACK,
    _check_rows,
    _column_names,
    _first,
    _numbers,
    _open_set,
    _parse_csv,
    _ranges_frame,
    _read,
    _segments,
    _solved_positions,
)
from sflp.checks import short
from sflp.core.cards import N_CLASSES
from sflp.errors import ConfigError, DataError

# ---------------------------------------------------------------- the EV margins


def _game_of(folder: Path, solved: np.ndarray):
    """The class-level game of the set's blinds and antes (``manifest.json``), with the shipped
    equity table, which must be the one the set was made with."""
    from sflp.core.equity import TABLE_SHA256
    from sflp.core.game import GameConfig
    from sflp.output.manifest import MANIFEST, read_manifest
    from sflp.solving.solver import make_game

    manifest = read_manifest(folder)
    config = manifest.get("config") if isinstance(manifest, dict) else None
    if not isinstance(config, dict):
        raise DataError(f"{folder / MANIFEST} is missing or has no 'config': the margins of ranges_segments.csv "
                        "are recomputed from the set's blinds and antes, which it gives")
    if manifest.get("equity_table_sha256") != TABLE_SHA256:
        raise DataError(f"{folder / MANIFEST} names the equity table {short(manifest.get('equity_table_sha256'))}, "
                        f"not the one sflp ships ({TABLE_SHA256[:12]}...): the margins are recomputed with it")
    keys = ("small_blind", "big_blind", "ante", "bb_ante")
    try:
        values = {k: config[k] for k in keys}
        if any(isinstance(v, bool) or not isinstance(v, (int, float)) for v in values.values()):
            raise TypeError
        base = GameConfig(stack=float(solved[0]), **values)
        return make_game(base, "class"), base
    except (KeyError, TypeError):
        raise DataError(f"{folder / MANIFEST}: its 'config' needs the numbers {', '.join(keys)}") from None
    except (ConfigError, ValueError) as exc:
        raise DataError(f"{folder / MANIFEST}: its 'config' is not a valid game: {exc}") from None


def support_of_texts(sb: str, bb: str):
    """The :class:`~sflp.solving.support.Support` of two texts of
    :func:`sflp.charts.media.segments.support_texts` (checked there by the caller).

    >>> support_of_texts("1m" + "0" * 167, "0" * 169)
    Support(sb_pure=frozenset({0}), sb_mixed=(1,), bb_pure=frozenset(), bb_mixed=())
    """
    from sflp.solving.support import Support

    def split(text: str):
        return (frozenset(k for k, c in enumerate(text) if c == "1"), tuple(k for k, c in enumerate(text) if c == "m"))

    return Support(*split(sb), *split(bb))


SUPPORT_ROW_BYTES = 512
"""Most bytes a row of ``margins_supports.csv`` may take (two stacks, 2 x 169 letters)."""


def _supports(folder: Path, solved: np.ndarray, entry: dict | None):
    """The rows of ``margins_supports.csv``: the first and last solved-stack positions of each
    run and its two support texts, after checking them (runs of solved stacks, ascending, not
    overlapping, each text 169 letters of ``0``, ``1``, ``m``)."""
    from sflp.charts.media.segments import MARGINS_FILES, SUPPORTS_COLUMNS

    name = MARGINS_FILES[0]
    path = folder / name
    n = len(solved)
    data = _read(folder, name, HEADER_BYTES + n * SUPPORT_ROW_BYTES, entry)
    frame = _parse_csv(data, path, SUPPORTS_COLUMNS, ("sb", "bb"))
    if len(frame) > n:
        raise DataError(f"{path} holds {len(frame):,} runs, more than the {n:,} solved stacks")
    start, stop = (_solved_positions(frame, name, solved, path) for name in ("stack_from", "stack_to"))
    bad = (stop < start) | (start <= np.r_[-1, stop[:-1]])
    if bad.any():
        k = _first(bad)
        raise DataError(f"{path} line {k + 2}: the runs must be ascending and must not overlap (a run from "
                        f"{float(solved[start[k]])!r} to {float(solved[stop[k]])!r} bb)")
    texts = []
    for column in ("sb", "bb"):
        items = frame[column].tolist()
        for k, text in enumerate(items):
            if not isinstance(text, str) or len(text) != N_CLASSES or set(text) - set("01m"):
                raise DataError(f"{path} line {k + 2}: {column} {short(text)} is not {N_CLASSES} letters 0, 1 or m "
                                "(one a hand in class-id order: never, always, mixed)")
        texts.append(items)
    return start, stop, texts[0], texts[1]


def _explicit_margins(folder: Path, stacks: np.ndarray, entry: dict | None) -> np.ndarray:
    """``margins_stacks.csv``: the margins (``(len(stacks), 338)``) of the solved ``stacks`` that no
    support covers, 338 rows each in the canonical order."""
    from sflp.charts.media.segments import MARGINS_FILES
    from sflp.charts.text import MARGINS_COLUMNS

    name = MARGINS_FILES[1]
    path = folder / name
    data = _read(folder, name, HEADER_BYTES + len(stacks) * ROWS_PER_STACK * CSV_ROW_BYTES, entry)
    frame = _parse_csv(data, path, MARGINS_COLUMNS, ("player", "hand"))

    def where(k: int) -> str:
        return f"line {k + 2}"

    stack = _numbers(frame, "stack", path)
    _check_rows(path, stacks, stack, frame["player"].to_numpy(dtype=object), frame["hand"].to_numpy(dtype=object),
                where)
    ev = _numbers(frame, "ev_margin", path)
    if np.isinf(ev).any():
        k = _first(np.isinf(ev))
        raise DataError(f"{path} line {k + 2}: ev_margin {float(ev[k])!r} is not finite (or empty)")
    return ev.reshape(len(stacks), ROWS_PER_STACK)


def _margins_of_segments(folder: Path, solved: np.ndarray, want: np.ndarray, entries: dict) -> np.ndarray:
    """The margins (``(len(want), 338)``) of a set whose ranges are ``ranges_segments.csv``: from
    the supports (recomputed exactly, the frequencies checked against the segments) and the
    stacks written out (see :class:`sflp.charts.media.segments.MarginsSupports`)."""
    from sflp.charts.media.segments import MARGINS_FILES
    from sflp.solving.segment import SegmentCertificate

    if entries and any(name not in entries for name in MARGINS_FILES):
        raise DataError(f"{folder / 'manifest.json'} lists ranges_segments.csv but not {' and '.join(MARGINS_FILES)}, "
                        "which hold its EV margins (a set made before they were written: make it again)")
    start, stop, sb, bb = _supports(folder, solved, entries.get(MARGINS_FILES[0]))
    n = len(solved)
    run_of = np.full(n, -1, dtype=np.int64)  # the support row of each solved stack, -1 if none
    for r, (a, b) in enumerate(zip(start.tolist(), stop.tolist())):
        run_of[a:b + 1] = r
    off = np.flatnonzero(run_of < 0)
    explicit = _explicit_margins(folder, solved[off], entries.get(MARGINS_FILES[1]))
    at = np.searchsorted(solved, want)
    out = np.empty((len(want), ROWS_PER_STACK))
    here = run_of[at] < 0
    out[here] = explicit[np.searchsorted(off, at[here])]
    if here.all():
        return out
    freq = _segments(folder, solved, want, entries.get("ranges_segments.csv"))
    game, base = _game_of(folder, solved)
    path = folder / MARGINS_FILES[0]
    for r in np.unique(run_of[at][~here]).tolist():
        rows = np.flatnonzero(run_of[at] == r)
        stacks = [float(s) for s in want[rows]]
        block = SegmentCertificate(game, support_of_texts(sb[r], bb[r])).block(stacks, base)
        if block.missing.any():
            k = _first(block.missing)
            raise DataError(f"{path} line {r + 2}: its support is not the equilibrium's at {stacks[k]!r} bb "
                            "(no exact certificate)")
        got = block.rows()
        mine = got[:, 0:2, :].reshape(len(rows), ROWS_PER_STACK)
        differs = mine != freq[rows]
        if differs.any():
            k, col = divmod(int(np.flatnonzero(differs.ravel())[0]), ROWS_PER_STACK)
            p, h = _column_names()[0][col], _column_names()[1][col]
            raise DataError(f"{path} line {r + 2}: its support gives {p} {h} the frequency {float(mine[k, col])!r} "
                            f"at {stacks[k]!r} bb, ranges_segments.csv {float(freq[rows[k], col])!r}")
        out[rows] = got[:, 2:4, :].reshape(len(rows), ROWS_PER_STACK)
    return out


def read_margins(folder: Path | str, stacks: Sequence[float] | float | None = None, *, verify: bool = True):
    """The EV margins of a chart set's solved stacks: the frame ``stack, player, hand,
    ev_margin``, rows as in :func:`read_ranges` (stack ascending, SB before BB, hands in class-id
    order, 338 a stack), from whichever form the set holds.

    SB's margin is EV(shove) - EV(fold) of the hand, BB's EV(call) - EV(fold) facing a shove
    (NaN where SB never shoves), in bb.  ``ranges.csv`` and ``ranges.parquet`` hold them in their
    ``ev_margin`` column.  Beside ``ranges_segments.csv`` they are in ``margins_supports.csv``
    and ``margins_stacks.csv`` (:class:`sflp.charts.media.segments.MarginsSupports`): a stack of a
    support row is recomputed exactly from the support, the set's blinds and antes and the shipped
    equity table (the exact values rounded once: the floats ``ranges.csv`` would hold, bit for
    bit), and the frequencies it gives are checked against ``ranges_segments.csv``; a stack of
    ``margins_stacks.csv`` is read.  Checks and errors as in :func:`read_ranges`, plus: the
    equity table named in ``manifest.json`` must be sflp's, every support must certify its
    stacks, and every solved stack is in exactly one of the two files.  The cost is that of
    the exact path's certificates: about a second for every stack of 1-200 bb.
    """
    folder, name, entries, solved, want = _open_set(folder, stacks, verify)
    if RANGE_FILES[name] != "segments":
        return _ranges_frame(folder, name, solved, want, entries).drop(columns="frequency")
    import pandas as pd

    players, hands = _column_names()
    margins = _margins_of_segments(folder, solved, want, entries)
    return pd.DataFrame({"stack": np.repeat(want, ROWS_PER_STACK), "player": np.tile(players, len(want)),
                         "hand": np.tile(hands, len(want)), "ev_margin": margins.ravel()})
