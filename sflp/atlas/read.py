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
from sflp.charts.text import exact_name_text, fmt_num
from sflp.checks import short
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
    """A structure atlas read back (:func:`read_atlas`): ``thresholds``, ``values``, ``paths``,
    ``ante_thresholds`` and ``ante_paths`` as pandas DataFrames (with a ``structure`` / ``line``
    column, the partition), ``structures`` and ``manifest`` from its ``manifest.json``; ``proof``
    the :class:`sflp.atlas.proof.AtlasCheck` when it was read with ``verify="proof"``."""

    def __init__(self, folder: Path, manifest: dict, frames: dict) -> None:
        self.folder = folder
        self.manifest = manifest
        self.structures: list[dict] = list(manifest["structures"])
        self.thresholds = frames["thresholds"]
        self.values = frames["values"]
        self.paths = frames["paths"]
        self.ante_thresholds = frames["ante_thresholds"]
        self.ante_paths = frames["ante_paths"]
        self.proof = None
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
        # the values as given (the shortest text of each number), never rounded to look like the atlas's
        given = ", ".join(f"{k}={exact_name_text(v)}" for k, v in want.items() if v is not None) or "no structure given"
        if not found:
            antes = ", ".join(sorted({exact_name_text(s["ante"]) for s in self.structures}, key=float))
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


LINE_DATASETS = ("ante_thresholds", "ante_paths")
"""The datasets partitioned by line (``line=<name>/<structure>.parquet``); the others by structure."""


def _partition_problem(frame, name: str, part: str, file: str, manifest: dict) -> str | None:
    """Why the rows of one part file do not belong where its path puts them: a structure's rows
    must carry that structure's blinds and antes, a line's rows its line's and the stacks of the
    structure that wrote them."""
    from sflp.atlas.tables import LINE_COLUMNS

    structures = {s.get("name"): s for s in manifest.get("structures", []) if isinstance(s, dict)}
    if name in LINE_DATASETS:
        owner = structures.get(file.removesuffix(".parquet"))
        ante_path = owner.get("ante_path") if owner else None
        if not isinstance(ante_path, dict) or ante_path.get("line") != part:
            return f"{file} is not a structure of line {part} in the manifest"
        columns, want = LINE_COLUMNS, owner
        stacks = sorted(set(frame["stack"].tolist()))
        if stacks != sorted(float(s) for s in ante_path.get("stacks", [])):
            return f"its stacks are not the ante stacks the manifest gives structure {owner['name']}"
    else:
        want = structures.get(part)
        if want is None:
            return f"structure {part} is not in the manifest"
        columns = STRUCTURE_COLUMNS
    for c in columns:
        if not _number(want.get(c)):
            return f"structure {want.get('name')}'s {c} is {short(want.get(c), 40)} in the manifest, not a number"
        values = frame[c].to_numpy() if len(frame) else np.zeros(0)
        if len(values) and not (values == float(want[c])).all():
            bad = float(values[values != float(want[c])][0])
            return f"a row has {c} {fmt_num(bad)}, but the partition's structure has {fmt_num(float(want[c]))}"
    return None


def _read_dataset(pq, folder: Path, name: str, manifest: dict, key: str):
    """One dataset's files, in the manifest's order (the partition column ``key`` added), as one
    DataFrame; its schema checked, and every file's rows checked against the partition its path
    names (:func:`_partition_problem`)."""
    import pyarrow as pa

    schema = schemas()[name]
    listed = next((f for f in manifest.get("folders", []) if f["name"] == f"{name}.parquet"), None)
    tables = []
    for entry in (listed or {}).get("files", []):
        part, _, file = entry["name"].partition("/")
        where = folder / (name + ".parquet") / entry["name"]
        if not part.startswith(f"{key}=") or not file.endswith(".parquet") or "/" in file:
            raise DataError(f"{where}: not a {key}=<name>/<file>.parquet file")
        table = pq.read_table(str(where))
        if table.schema.remove_metadata() != schema:
            raise DataError(f"{where}: not the atlas's {name} schema")
        problem = _partition_problem(table.to_pandas(), name, part[len(key) + 1:], file, manifest)
        if problem is not None:
            raise DataError(f"{where}: its rows do not belong to {part}: {problem}")
        tables.append(table.append_column(key, pa.array([part[len(key) + 1:]] * table.num_rows, type=pa.string())))
    if not tables:
        return schema.append(pa.field(key, pa.string())).empty_table().to_pandas()
    frame = pa.concat_tables(tables).to_pandas()
    if name in LINE_DATASETS:  # a line's stacks come from several jobs' files: in stack order
        frame = frame.sort_values([key, "stack"], kind="stable", ignore_index=True)
    return frame


def _listing_problem(manifest: dict) -> str | None:
    """Why a manifest's ``folders`` do not list the files of the structures it lists: each
    structure has one file in ``thresholds``, ``values`` and ``paths``, and one in each line
    dataset when it has an ante path (an emptied listing would leave the files on disk unchecked)."""
    from sflp.atlas.jobs import PART

    listed = {f.get("name"): {e.get("name") for e in f.get("files", [])}
              for f in manifest.get("folders", []) if isinstance(f, dict)}
    for s in manifest["structures"]:
        if not isinstance(s, dict) or not isinstance(s.get("name"), str):
            return "a structure without a name"
        wanted = [(n, f"structure={s['name']}/{PART}") for n in ("thresholds", "values", "paths")]
        ante_path = s.get("ante_path")
        if isinstance(ante_path, dict):
            wanted += [(n, f"line={ante_path.get('line')}/{s['name']}.parquet") for n in LINE_DATASETS]
        for dataset, inner in wanted:
            if inner not in listed.get(f"{dataset}.parquet", set()):
                return f"it lists structure {s['name']} but not its file {dataset}.parquet/{inner}"
    return None


def _stacks_problem(manifest: dict, frames: dict) -> str | None:
    """Why a structure's ``stacks`` in the manifest (count, low, high, step: what
    :attr:`Atlas.structures` tells a reader) are not the stacks of its rows in ``values`` and the
    range its ``paths`` cover (the manifest itself has no checksum, so it is checked against the
    data it describes)."""
    from sflp.atlas.write import _grid_info

    values, paths = frames["values"], frames["paths"]
    for s in manifest["structures"]:
        name = s["name"]
        said = s.get("stacks")
        stacks = values.loc[values["structure"] == name, "stack"].tolist()
        if not stacks:
            return f"structure {name} has no rows in values.parquet"
        found = _grid_info(stacks)
        if not isinstance(said, dict) or any(said.get(k) != v for k, v in found.items()):
            return (f"structure {name}'s stacks are {short(said, 120)} in the manifest, but its values are at "
                    f"{found['count']} stacks from {fmt_num(found['low'])} to {fmt_num(found['high'])} bb")
        segments = paths[paths["structure"] == name]
        if len(segments) and (float(segments["from"].min()) != found["low"]
                              or float(segments["to"].max()) != found["high"]):
            return (f"structure {name}'s path covers {fmt_num(float(segments['from'].min()))} to "
                    f"{fmt_num(float(segments['to'].max()))} bb, but its stacks are {fmt_num(found['low'])} to "
                    f"{fmt_num(found['high'])} bb")
    return None


def _line_name(s: dict) -> str:
    from sflp.charts.text import exact_name_text as n

    return f"sb{n(float(s['small_blind']))}_bb{n(float(s['big_blind']))}_bbante{n(float(s['bb_ante']))}"


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _shown(value) -> str:
    return fmt_num(float(value)) if _number(value) else short(value, 40)


def _entries_problem(manifest: dict, frames: dict) -> str | None:
    """Why a manifest's structure entries, field by field, are not what the data they summarise
    hold (the fields :func:`sflp.atlas.write._structure_entry` writes; ``stacks`` is
    :func:`_stacks_problem`'s): no structure twice, ``name`` its blinds' and antes' name,
    ``breakpoints`` the segments of its path but one, ``ante_path``'s ``line``, ``low`` and ``high``
    its line's name and the range its ante paths cover, ``chart_set`` its ``charts/<structure>``
    files listed (or none), ``reach`` true only for a structure the reach could have added (after
    the given ones, no ante path, no chart set, its ante strictly between its line's given antes).
    ``lp_solves`` is a count of the run the data cannot confirm: only a whole number >= 0."""
    from sflp.atlas.jobs import CHARTS
    from sflp.output.manifest import listed_folders

    structures = manifest["structures"]
    names = [s["name"] for s in structures]
    twice = next((n for n in names if names.count(n) > 1), None)
    if twice is not None:
        return f"structure {twice} is listed {names.count(twice)} times in its structures"
    chart_sets = {inner.partition("/")[0] for inner in listed_folders(manifest).get(CHARTS, [])}
    stray = sorted(chart_sets - set(names))
    if stray:
        return f"its {CHARTS}/ folder holds {stray[0]}, which is no structure of the manifest"
    given: dict[str, list[float]] = {}
    for s in structures:
        if not s.get("reach"):
            given.setdefault(_line_name(s), []).append(float(s["ante"]))
    paths, ante_paths, ante_rows = frames["paths"], frames["ante_paths"], frames["ante_thresholds"]
    reached = False
    for s in structures:
        name = s["name"]
        want = structure_name(*(float(s[c]) for c in STRUCTURE_COLUMNS))
        if name != want:
            return f"structure {name}'s blinds and antes in the manifest are those of {want}"
        segments = int((paths["structure"] == name).sum())
        if not _number(s.get("breakpoints")) or s["breakpoints"] != segments - 1:
            return (f"structure {name}'s breakpoints are {_shown(s.get('breakpoints'))} in the manifest, but its "
                    f"path in paths.parquet has {segments:,} segments ({segments - 1:,} breakpoints)")
        lp = s.get("lp_solves")
        if not isinstance(lp, int) or isinstance(lp, bool) or lp < 0:
            return f"structure {name}'s lp_solves are {short(lp, 40)} in the manifest, not a whole number >= 0"
        ante_path = s.get("ante_path")
        if ante_path is not None:
            line = _line_name(s)
            if not isinstance(ante_path, dict) or ante_path.get("line") != line:
                return f"structure {name}'s ante_path is {short(ante_path, 80)} in the manifest, not on line {line}"
            stacks = [float(x) for x in ante_path.get("stacks", [])]
            mine = ante_paths[(ante_paths["line"] == line) & ante_paths["stack"].isin(stacks)]
            rows = ante_rows[(ante_rows["line"] == line) & ante_rows["stack"].isin(stacks)]
            low, high = ante_path.get("low"), ante_path.get("high")
            covers = (float(mine["from"].min()), float(mine["to"].max())) if len(mine) else None
            if (not _number(low) or not _number(high) or covers != (low, high)
                    or not (rows["ante_low"] == low).all() or not (rows["ante_high"] == high).all()):
                held = "no segment" if covers is None else f"{fmt_num(covers[0])} to {fmt_num(covers[1])} bb"
                return (f"structure {name}'s ante_path runs from {_shown(low)} to {_shown(high)} bb in the "
                        f"manifest, but its ante paths in ante_paths.parquet cover {held}")
        chart_set = s.get("chart_set")
        if chart_set != (f"{CHARTS}/{name}" if name in chart_sets else None):
            held = f"files in {CHARTS}/{name}/" if name in chart_sets else f"no {CHARTS}/{name}/ files listed"
            return f"structure {name}'s chart_set is {short(chart_set, 80)} in the manifest, but the folder has {held}"
        reach = s.get("reach", False)
        if not isinstance(reach, bool):
            return f"structure {name}'s reach is {short(reach, 40)} in the manifest, not true or false"
        if reach:
            antes = given.get(_line_name(s), [])
            if ante_path is not None or chart_set is not None or not antes or not (
                    min(antes) < float(s["ante"]) < max(antes)):
                return (f"structure {name}'s reach is true in the manifest, but the reach adds only structures "
                        "without an ante path or chart set, at antes between its line's given ones")
            reached = True
        elif reached:
            return (f"structure {name}'s reach is false in the manifest, but it comes after a structure the reach "
                    "added (the reach's come last)")
    return None


def read_atlas(folder: Path | str, *, verify: bool | str = True) -> Atlas:
    """An atlas folder (:func:`write_atlas`, ``sflp atlas``) read back as an :class:`Atlas`.

    Nothing is trusted: the folder must carry an sflp manifest of kind ``structure-atlas`` that
    lists every file of every structure it names, every file must match its size and SHA-256 there
    (:func:`sflp.output.manifest.check_manifest`; ``verify=False`` skips this and the checks of the
    manifest's fields below, for a folder edited by hand), every Parquet file the atlas's schema,
    every row the structure or line its partition names, and each structure's ``stacks`` in the
    manifest the stacks of its rows (:func:`_stacks_problem`) and its other fields what the data
    hold, no structure twice (:func:`_entries_problem`); else a :class:`~sflp.errors.DataError`.
    With ``verify="proof"`` every structure's stack path and every ante path is re-proved from its
    stored segments and the thresholds re-derived from the proof, row for row (:func:`sflp.atlas.proof.verify_atlas`;
    the result is ``.proof``)."""
    from sflp.checks import instance
    from sflp.output.manifest import check_manifest, read_manifest

    if not isinstance(folder, (str, Path)):
        instance("folder", folder, Path, "'reports/atlas'")
    if verify not in (True, False, "proof"):
        raise ConfigError(f"verify={verify!r:.40} must be True, False or 'proof'")
    folder = Path(folder)
    _, pq = pyarrow_modules()
    if not folder.is_dir():
        raise DataError(f"{folder} is not a folder (an atlas is the folder sflp atlas wrote)")
    manifest = read_manifest(folder)
    if manifest is None or manifest.get("kind") != KIND:
        raise DataError(f"{folder} is not a structure atlas: no manifest.json of kind {KIND!r}")
    if not isinstance(manifest.get("structures"), list) or not manifest["structures"]:
        raise DataError(f"{folder}: its manifest lists no structures")
    unlisted = _listing_problem(manifest)
    if unlisted is not None:
        raise DataError(f"{folder}: its manifest is not an atlas's: {unlisted}")
    if verify:
        # the user's own files beside the atlas are not ours to judge; inside its folders nothing is
        problems = [p for p in check_manifest(folder) if not (p.endswith(": not listed in the manifest")
                                                              and "/" not in p.split(": ")[0])]
        if problems:
            raise DataError(f"{folder} does not match its manifest ({'; '.join(problems[:3])}"
                            f"{'; ...' if len(problems) > 3 else ''}): it was changed after sflp wrote it; read "
                            "a folder edited by hand with verify=False")
    try:
        frames = {name: _read_dataset(pq, folder, name, manifest, "line" if name in LINE_DATASETS else "structure")
                  for name in DATASETS}
    except (OSError, ValueError) as exc:  # pyarrow's own errors are ValueErrors (ArrowInvalid)
        raise DataError(f"{folder}: cannot read the atlas ({exc})") from None
    order = {s.get("name"): k for k, s in enumerate(manifest["structures"]) if isinstance(s, dict)}
    for name in ("thresholds", "values", "paths"):  # structure by structure in the manifest's order
        frame = frames[name]
        rank = frame["structure"].map(lambda n: order.get(n, len(order))).to_numpy()
        frames[name] = frame.iloc[np.argsort(rank, kind="stable")].reset_index(drop=True)
    if verify:
        stale = _stacks_problem(manifest, frames) or _entries_problem(manifest, frames)
        if stale is not None:
            raise DataError(f"{folder}: its manifest does not match its data: {stale}; read a folder edited by hand "
                            "with verify=False")
    atlas = Atlas(folder, manifest, frames)
    if verify == "proof":
        from sflp.atlas.proof import verify_atlas

        atlas.proof = verify_atlas(atlas)
    return atlas
