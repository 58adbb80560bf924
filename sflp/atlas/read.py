"""Reading an atlas back (:func:`read_atlas`), checked against its manifest.

:class:`Atlas` holds the four datasets as DataFrames, and :meth:`Atlas.solution` recomputes any
stack of a structure of the atlas exactly from the stored path (the segment's support, its
indifference systems solved at that stack: no LP).
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from sflp.atlas.jobs import DATASETS, KIND, structure_name
from sflp.atlas.tables import STRUCTURE_COLUMNS, pyarrow_modules, schemas
from sflp.charts.text import fmt_num
from sflp.errors import ConfigError, DataError

# ---------------------------------------------------------------- reading it back


@dataclass(frozen=True)
class AtlasPoint:
    """One stack of one structure, recomputed from an atlas's stored path (:meth:`Atlas.solution`):
    SB push and BB call frequencies per class (169, :data:`sflp.core.cards.CLASS_NAMES` order),
    SB's value and the combo-weighted push / call percentages, and the segment of the path."""

    config: object
    sb_strategy: np.ndarray = field(repr=False)
    bb_strategy: np.ndarray = field(repr=False)
    value: float
    push_pct: float
    call_pct: float
    segment: int


class _StoredPath:
    """One structure's path as stored: segment starts and supports, payoffs loaded once."""

    def __init__(self, row: dict, segments) -> None:
        from sflp.core.cards import CLASS_INDEX, CLASS_SIZES
        from sflp.core.game import GameConfig, payoffs_for
        from sflp.solving.support import Support

        def ids(text: str) -> list[int]:
            return [CLASS_INDEX[h] for h in text.split(",")] if text else []

        self.low, self.high = float(segments["from"].iloc[0]), float(segments["to"].iloc[-1])
        self.config = GameConfig(stack=self.low, **{c: row[c] for c in STRUCTURE_COLUMNS})
        self.starts = [float(a) for a in segments["from"]]
        self.supports = [Support(frozenset(ids(sp)), tuple(ids(sm)), frozenset(ids(bp)), tuple(ids(bm)))
                         for sp, sm, bp, bm in zip(segments["sb_pure"], segments["sb_mixed"], segments["bb_pure"],
                                                   segments["bb_mixed"])]
        self.payoffs = payoffs_for(self.config)
        self.weights = CLASS_SIZES.astype(np.float64)

    def at(self, stack: float) -> AtlasPoint:
        from sflp.solving.support import indifference_system

        if not (self.low - 1e-12 * max(1.0, self.low) <= stack <= self.high + 1e-12 * max(1.0, self.high)):
            name = structure_name(*(getattr(self.config, c) for c in STRUCTURE_COLUMNS))
            raise ConfigError(f"stack={stack!r} is outside the atlas's range {fmt_num(self.low)} to "
                              f"{fmt_num(self.high)} bb for {name}")
        k = max(0, bisect.bisect_right(self.starts, stack) - 1)
        support, p = self.supports[k], self.payoffs
        K = p.K0 + stack * p.K1
        system = indifference_system(K, p.r * (p.g - p.f), support)
        x, y = system.x_pure, system.y_pure
        if support.sb_mixed:
            x, y = system.strategies(*system.solve())
        x, y = np.clip(x, 0.0, 1.0), np.clip(y, 0.0, 1.0)
        value = float(p.f + (p.g - p.f) * (p.r @ x) + x @ K @ y)
        w = self.weights
        return AtlasPoint(self.config.with_stack(stack), x, y, value, float(100 * (w @ x) / w.sum()),
                          float(100 * (w @ y) / w.sum()), k)


class Atlas:
    """A structure atlas read back (:func:`read_atlas`): ``thresholds``, ``values``, ``paths`` and
    ``ante_thresholds`` as pandas DataFrames (with a ``structure`` / ``line`` column, the
    partition), ``structures`` and ``manifest`` from its ``manifest.json``."""

    def __init__(self, folder: Path, manifest: dict, frames: dict) -> None:
        self.folder = folder
        self.manifest = manifest
        self.structures: list[dict] = list(manifest["structures"])
        self.thresholds = frames["thresholds"]
        self.values = frames["values"]
        self.paths = frames["paths"]
        self.ante_thresholds = frames["ante_thresholds"]
        self._paths: dict[str, _StoredPath] = {}

    def __repr__(self) -> str:
        return f"<Atlas {self.folder}: {len(self.structures)} structures>"

    def structure(self, *, ante: float | None = None, small_blind: float | None = None,
                  big_blind: float | None = None, bb_ante: float | None = None) -> dict:
        """The one structure of the atlas with these blinds and antes (None: any)."""
        want = {"ante": ante, "small_blind": small_blind, "big_blind": big_blind, "bb_ante": bb_ante}
        for key, value in want.items():
            if value is not None:
                from sflp.checks import real

                want[key] = real(key, value)
        found = [s for s in self.structures
                 if all(v is None or abs(s[k] - v) <= 1e-12 * max(1.0, abs(v)) for k, v in want.items())]
        if len(found) == 1:
            return found[0]
        given = ", ".join(f"{k}={v:g}" for k, v in want.items() if v is not None) or "no structure given"
        if not found:
            antes = ", ".join(sorted({fmt_num(s["ante"]) for s in self.structures}, key=float))
            raise ConfigError(f"{given} is not a structure of this atlas (its antes: {antes}; see .structures)")
        raise ConfigError(f"{given} matches {len(found)} structures of this atlas ("
                          + ", ".join(s["name"] for s in found) + "): give small_blind, big_blind or bb_ante too")

    def solution(self, stack: float, ante: float | None = 0.0, *, small_blind: float | None = None,
                 big_blind: float | None = None, bb_ante: float | None = None) -> AtlasPoint:
        """The equilibrium at ``stack`` of the structure with ``ante`` (and, when the atlas has
        several with that ante, the given blinds / BB ante), recomputed exactly from the stored
        path: its segment's support, the indifference systems solved at ``stack``.  A
        :class:`~sflp.errors.ConfigError` when the ante is not on the atlas's grid or the stack
        is outside the structure's range."""
        from sflp.checks import real

        stack = real("stack", stack, positive=True)
        row = self.structure(ante=ante, small_blind=small_blind, big_blind=big_blind, bb_ante=bb_ante)
        path = self._paths.get(row["name"])
        if path is None:
            segments = self.paths[self.paths["structure"] == row["name"]]
            if segments.empty:
                raise DataError(f"{self.folder}: paths.parquet has no segment of structure {row['name']}")
            path = self._paths[row["name"]] = _StoredPath(row, segments)
        return path.at(stack)


def _read_dataset(pq, folder: Path, name: str, manifest: dict, key: str):
    """One dataset's files, in the manifest's order (the partition column ``key`` added), as one
    DataFrame; its schema checked."""
    import pyarrow as pa

    schema = schemas()[name]
    listed = next((f for f in manifest.get("folders", []) if f["name"] == f"{name}.parquet"), None)
    tables = []
    for entry in (listed or {}).get("files", []):
        part, _, file = entry["name"].partition("/")
        if not part.startswith(f"{key}=") or not file.endswith(".parquet") or "/" in file:
            raise DataError(f"{folder / (name + '.parquet') / entry['name']}: not a {key}=<name>/<file>.parquet file")
        table = pq.read_table(str(folder / f"{name}.parquet" / entry["name"]))
        if table.schema.remove_metadata() != schema:
            raise DataError(f"{folder / (name + '.parquet') / entry['name']}: not the atlas's {name} schema")
        tables.append(table.append_column(key, pa.array([part[len(key) + 1:]] * table.num_rows, type=pa.string())))
    if not tables:
        return schema.append(pa.field(key, pa.string())).empty_table().to_pandas()
    frame = pa.concat_tables(tables).to_pandas()
    if name == "ante_thresholds":  # a line's stacks come from several jobs' files: in stack order
        frame = frame.sort_values([key, "stack"], kind="stable", ignore_index=True)
    return frame


def read_atlas(folder: Path | str) -> Atlas:
    """An atlas folder (:func:`write_atlas`, ``sflp atlas``) read back as an :class:`Atlas`.

    Nothing is trusted: the folder must carry an sflp manifest of kind ``structure-atlas``, every
    file must match its size and SHA-256 there (:func:`sflp.output.manifest.check_manifest`),
    and every Parquet file the atlas's schema; else a :class:`~sflp.errors.DataError`."""
    from sflp.checks import instance
    from sflp.output.manifest import check_manifest, read_manifest

    if not isinstance(folder, (str, Path)):
        instance("folder", folder, Path, "'reports/atlas'")
    folder = Path(folder)
    _, pq = pyarrow_modules()
    if not folder.is_dir():
        raise DataError(f"{folder} is not a folder (an atlas is the folder sflp atlas wrote)")
    manifest = read_manifest(folder)
    if manifest is None or manifest.get("kind") != KIND:
        raise DataError(f"{folder} is not a structure atlas: no manifest.json of kind {KIND!r}")
    # the user's own files beside the atlas are not ours to judge; inside its folders nothing is
    problems = [p for p in check_manifest(folder) if not (p.endswith(": not listed in the manifest")
                                                          and "/" not in p.split(": ")[0])]
    if problems:
        raise DataError(f"{folder} does not match its manifest ({'; '.join(problems[:3])}"
                        f"{'; ...' if len(problems) > 3 else ''}): it was changed after sflp wrote it")
    try:
        frames = {name: _read_dataset(pq, folder, name, manifest, "line" if name == "ante_thresholds" else "structure")
                  for name in DATASETS}
    except (OSError, ValueError) as exc:  # pyarrow's own errors are ValueErrors (ArrowInvalid)
        raise DataError(f"{folder}: cannot read the atlas ({exc})") from None
    if not isinstance(manifest.get("structures"), list) or not manifest["structures"]:
        raise DataError(f"{folder}: its manifest lists no structures")
    order = {s.get("name"): k for k, s in enumerate(manifest["structures"]) if isinstance(s, dict)}
    for name in ("thresholds", "values", "paths"):  # structure by structure in the manifest's order
        frame = frames[name]
        rank = frame["structure"].map(lambda n: order.get(n, len(order))).to_numpy()
        frames[name] = frame.iloc[np.argsort(rank, kind="stable")].reset_index(drop=True)
    return Atlas(folder, manifest, frames)
