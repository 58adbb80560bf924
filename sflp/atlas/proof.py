"""An atlas re-proved: every stack path and every ante path proved again from its stored
segments, and the thresholds re-derived from the proof, row for row (:func:`verify_atlas`).

What the atlas publishes is not taken on its word, nor on its manifest's (a hash anyone can
recompute).  For each structure of the manifest:

1. its stack path is the segments of ``paths.parquet`` (ends and supports): they must cover the
   structure's stack range, and :func:`sflp.solving.threshcert.certify_path` must prove each
   support an exact equilibrium on its segment with no root missed, on the structure's blinds and
   antes and the shipped equity table;
2. the thresholds that proof states (:func:`sflp.solving.thresholds.thresholds_of_certificate`),
   made into rows by the writer's own function (:func:`sflp.atlas.tables.threshold_table`), must
   be the structure's rows of ``thresholds.parquet``, every column equal: texts, flags, the
   6-decimal numbers and the interval lists;
3. each ante path the structure followed (``ante_paths.parquet``, one per ante stack) is proved
   the same way along the ante (``along="ante"``) and its rows of ``ante_thresholds.parquet``
   re-derived the same way (:func:`sflp.atlas.tables.ante_path_columns`).

A missing, extra or misplaced row, or a field that differs, is one
:class:`~sflp.errors.DataError` naming the structure (or line and stack), the row and the
column.  Decided with integers: each root's isolating interval and its rounding; decided in
floats with a proven error bound: most signs of each re-proof, the rest with integers
(:class:`AtlasCheck` counts both).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from types import SimpleNamespace

from sflp.atlas.tables import LINE_COLUMNS, STRUCTURE_COLUMNS, ante_path_columns, threshold_table
from sflp.errors import DataError, SolveError


@dataclass
class AtlasCheck:
    """What :func:`verify_atlas` proved (everything: else it raised)."""

    folder: str
    structures: int
    stack_segments: int
    threshold_rows: int
    ante_paths: int
    ante_segments: int
    ante_rows: int
    float_signs: int
    exact_signs: int

    def to_dict(self) -> dict:
        return {"folder": self.folder, "ok": True, "kind": "structure-atlas", "structures": self.structures,
                "stack_path_segments": self.stack_segments, "thresholds_rows": self.threshold_rows,
                "ante_paths": self.ante_paths, "ante_path_segments": self.ante_segments,
                "ante_thresholds_rows": self.ante_rows,
                "path_signs": {"float_with_proven_bound": self.float_signs, "exact_integers": self.exact_signs}}

    def text(self, width: int | None = None) -> str:
        """The check in words, one sentence a line, each wrapped to ``width`` when given
        (:func:`sflp.charts.media.terminal.wrapped_lines`)."""
        from sflp.charts.media.terminal import wrapped_lines

        return wrapped_lines([
            f"{self.folder}: atlas certified.",
            f"  {self.structures:,} stack paths re-proved ({self.stack_segments:,} segments) and {self.ante_paths:,} "
            f"ante paths ({self.ante_segments:,} segments), each support an equilibrium on its segment and no root "
            f"missed, {self.float_signs:,} signs decided in floats with a proven error bound and "
            f"{self.exact_signs:,} questions exactly with integers.",
            f"  all {self.threshold_rows:,} rows of thresholds.parquet and {self.ante_rows:,} of "
            "ante_thresholds.parquet re-derived from the proofs and equal, column for column.",
        ], width)


def _segments(frame, where: str, low: float, high: float) -> list:
    """The stored segments ``(a, b, support)`` of one path, checked to run from ``low`` to ``high``
    without a gap."""
    from sflp.core.cards import CLASS_INDEX
    from sflp.solving.support import Support

    frame = frame.sort_values("segment", kind="stable")
    if list(frame["segment"]) != list(range(len(frame))):
        raise DataError(f"{where}: its segments are not numbered 0, 1, ... without a gap")

    def ids(text: str) -> list[int]:
        try:
            return [CLASS_INDEX[h] for h in text.split(",")] if text else []
        except KeyError as exc:
            raise DataError(f"{where}: {str(exc)[:40]} is not a class name") from None

    out = []
    for a, b, sp, sm, bp, bm in zip(frame["from"], frame["to"], frame["sb_pure"], frame["sb_mixed"],
                                    frame["bb_pure"], frame["bb_mixed"]):
        if out and out[-1][1] != a:
            raise DataError(f"{where}: segment {len(out)} starts at {a!r}, not where segment {len(out) - 1} ends")
        out.append((float(a), float(b), Support(frozenset(ids(sp)), tuple(sorted(ids(sm))), frozenset(ids(bp)),
                                                tuple(sorted(ids(bm))))))
    if not out:
        raise DataError(f"{where}: no segment")
    if (out[0][0], out[-1][1]) != (low, high):
        raise DataError(f"{where}: the segments run from {out[0][0]!r} to {out[-1][1]!r}, not over the range "
                        f"{low!r} to {high!r} the manifest gives")
    return out


def _same(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    if hasattr(a, "tolist"):
        a = a.tolist()
    if hasattr(b, "tolist"):
        b = b.tolist()
    return a == b


def _compare(got, want: dict, where: str, columns) -> int:
    """The rows ``got`` (a DataFrame) against the re-derived columns ``want``, in order, every
    column of ``columns``; returns the rows compared."""
    n = len(want["player"])
    keys = list(zip(got["player"], got["hand"]))
    if len(got) != n:
        present = set(keys)
        missing = [f"{p},{h}" for p, h in zip(want["player"], want["hand"]) if (p, h) not in present]
        why = f"row {missing[0]} is missing" if missing else "a row is repeated"
        raise DataError(f"{where}: {len(got):,} rows, the re-derived table has {n:,}: {why}")
    for k in range(n):
        row = f"{want['player'][k]},{want['hand'][k]}"
        if keys[k] != (want["player"][k], want["hand"][k]):
            raise DataError(f"{where} row {k}: row {keys[k][0]},{keys[k][1]} where the re-derived table has {row} "
                            "(SB's hands in class-id order, then BB's)")
        for c in columns:
            value = got[c].iloc[k]
            if not _same(value, want[c][k]):
                shown = value.tolist() if hasattr(value, "tolist") else value
                raise DataError(f"{where} (row {row}): column {c} is {shown!r:.60}, but the re-proved path gives "
                                f"{want[c][k]!r:.60}")
    return n


def verify_atlas(atlas) -> AtlasCheck:
    """Re-prove every path of ``atlas`` (an :class:`sflp.atlas.read.Atlas`) and re-derive its
    threshold tables from the proofs (module doc).  Returns an :class:`AtlasCheck`; any failure is
    one :class:`~sflp.errors.DataError`."""
    from sflp.core.equity import TABLE_SHA256
    from sflp.core.game import GameConfig
    from sflp.solving.threshcert import certify_path
    from sflp.solving.thresholds import thresholds_of_certificate

    folder = atlas.folder
    if atlas.manifest.get("equity_table_sha256") != TABLE_SHA256:
        raise DataError(f"{folder}: its manifest names another equity table than the one sflp ships "
                        f"({TABLE_SHA256[:12]}...): the paths are re-proved with the shipped one")
    names = [s["name"] for s in atlas.structures]
    twice = next((n for n in names if names.count(n) > 1), None)
    if twice is not None:  # read with verify=False (--no-manifest), nothing else refused it
        raise DataError(f"{folder}: structure {twice} is listed {names.count(twice)} times in its manifest's "
                        "structures: each structure is proved once")
    totals = dict(structures=0, stack_segments=0, threshold_rows=0, ante_paths=0, ante_segments=0, ante_rows=0,
                  float_signs=0, exact_signs=0)
    for s in atlas.structures:
        name = s["name"]
        low, high = float(s["stacks"]["low"]), float(s["stacks"]["high"])
        where = f"{folder}/paths.parquet/structure={name}"
        segments = _segments(atlas.paths[atlas.paths["structure"] == name], where, low, high)
        config = GameConfig(stack=low, **{c: float(s[c]) for c in STRUCTURE_COLUMNS})
        try:
            certificate = certify_path(config, low, high, segments)
        except SolveError as exc:
            raise DataError(f"{where}: the stored path does not re-prove: {exc}") from None
        proven = thresholds_of_certificate(config, low, high, certificate)
        want = threshold_table(SimpleNamespace(**{c: s[c] for c in STRUCTURE_COLUMNS}), proven).to_pydict()
        got = atlas.thresholds[atlas.thresholds["structure"] == name].reset_index(drop=True)
        columns = [c for c in want if c not in ("player", "hand")]
        totals["threshold_rows"] += _compare(got, want, f"{folder}/thresholds.parquet/structure={name}", columns)
        totals["structures"] += 1
        totals["stack_segments"] += len(segments)
        totals["float_signs"] += certificate.float_checks
        totals["exact_signs"] += certificate.exact_checks
        ante_path = s.get("ante_path")
        if not ante_path:
            continue
        line = ante_path["line"]
        a_low, a_high = float(ante_path["low"]), float(ante_path["high"])
        mine_paths = atlas.ante_paths[atlas.ante_paths["line"] == line]
        mine_rows = atlas.ante_thresholds[atlas.ante_thresholds["line"] == line]
        for stack in ante_path["stacks"]:
            stack = float(stack)
            where = f"{folder}/ante_paths.parquet/line={line} (stack {stack:g})"
            stored = mine_paths[mine_paths["stack"] == stack]
            segs = _segments(stored, where, a_low, a_high)
            at = GameConfig(stack=stack, small_blind=float(s["small_blind"]), big_blind=float(s["big_blind"]),
                            ante=a_low, bb_ante=float(s["bb_ante"]))
            try:
                cert = certify_path(at, a_low, a_high, segs, along="ante")
            except SolveError as exc:
                raise DataError(f"{where}: the stored ante path does not re-prove: {exc}") from None
            path = thresholds_of_certificate(at, a_low, a_high, cert, along="ante")
            rows, _ = ante_path_columns({c: s[c] for c in LINE_COLUMNS}, stack, a_low, a_high, path)
            got = mine_rows[mine_rows["stack"] == stack].reset_index(drop=True)
            columns = [c for c in rows if c not in ("player", "hand")]
            totals["ante_rows"] += _compare(got, rows, f"{folder}/ante_thresholds.parquet/line={line} "
                                            f"(stack {stack:g})", columns)
            totals["ante_paths"] += 1
            totals["ante_segments"] += len(segs)
            totals["float_signs"] += cert.float_checks
            totals["exact_signs"] += cert.exact_checks
    return AtlasCheck(str(folder), **totals)
