r"""A solver's policies at several stacks, scored exactly in one call.

A solver author's output is usually one policy per stack.  :func:`policy_folder` finds them in a
folder and :func:`verify_stacks` scores each in its own game with :func:`sflp.openspiel.verify`
(exact: each player's best-response gain and their sum, OpenSpiel's ``nash_conv``, as fractions),
returning one :class:`StackScores`: a row per stack and the worst stack named.

Which stack a file is
---------------------
* a policy that names its game (sflp's own, ``"_sflp_game"``) is scored in that game: its stack,
  blinds and antes (blinds and antes must agree with the ones asked, as for one policy);
* otherwise the file's name says the stack: the one number written before ``bb``
  (``10bb.json``, ``cfr_12.5bb.json``, ``stack-7.5BB.txt``), or a name that is a number alone
  (``10.json``).  This is how ``sflp export efg --stacks`` names its files (``10bb.efg``), so a
  policy saved as ``10bb.json`` beside each game is found.

The files read are the folder's ``*.json`` and ``*.txt`` (OpenSpiel's ``serialize()`` text), not
its subfolders, hidden files or ``manifest.json`` (a symlink that leads out of the folder is
refused, naming it and where it leads) (what ``sflp export efg --stacks`` writes beside
the games, so policies saved in that folder are found).  Two files for one stack, a file whose stack cannot be told,
or a file whose name says another stack than the game the policy names are each refused, naming
the file.  ``stacks`` (``--stacks``) picks the stacks to score: each must have its file, and the
files of other stacks are listed in :attr:`StackScores.skipped` (and every output says so).

>>> from sflp.core.game import GameConfig
>>> from sflp.openspiel import from_strategy
>>> from sflp.solving.solver import solve
>>> policies = {s: from_strategy(*solve(GameConfig(stack=s)).class_strategies()) for s in (5, 10)}
>>> scores = verify_stacks(policies, GameConfig(stack=5))
>>> [(r["stack"], r["nash_conv"] < 1e-12) for r in scores.rows()]
[(5.0, True), (10.0, True)]
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from sflp.checks import short
from sflp.errors import ArgumentTypeError, ConfigError, NotationError

SUFFIXES = (".json", ".txt")
"""The files of a policy folder that are read (case-insensitive)."""
MANIFEST = "manifest.json"
"""An sflp folder's manifest (:mod:`sflp.output`): never read as a policy."""
MAX_FILES = 1000
"""A folder with more policy files than this is refused before any is read."""
_BB_NUMBER = re.compile(r"([0-9]+(?:\.[0-9]+)?)\s*bb", re.IGNORECASE)
_NUMBER = re.compile(r"[0-9]+(?:\.[0-9]+)?")
_EXPONENT = re.compile(r"[0-9][eE][+-]?[0-9]")


def name_stack(path: Path | str) -> float | None:
    """The stack a file's name says (see the module doc), else None: ASCII digits with an optional
    decimal point before ``bb``, after a separator (``_``, ``-``, a space) or at the start; a name
    with an exponent or a sign, two stacks, or a number glued to a letter says none.

    >>> name_stack("runs/cfr_12.5bb.json"), name_stack("10.json"), name_stack("policy.json")
    (12.5, 10.0, None)
    """
    stem = Path(path).stem
    if _EXPONENT.search(stem) or stem[:1] in "+-":
        return None  # 1e1bb, -5bb: no stack sflp would guess at
    found = list(_BB_NUMBER.finditer(stem))
    if len({float(m[1]) for m in found}) == 1:
        before = stem[found[0].start() - 1] if found[0].start() else ""
        return None if before and (before.isalnum() or before in ".+") else float(found[0][1])
    if not found and _NUMBER.fullmatch(stem):
        return float(stem)
    return None


MAX_ITERATION = 2**63 - 1
"""The largest iteration a curve's row holds, of a file name (``_it<N>``) or of
:meth:`sflp.Tracker.record` (a signed 64-bit integer: the CSV's readers, pandas and Arrow, read the
column as int64)."""
_ITERATE = re.compile(r"[_-]it([0-9]+)$", re.IGNORECASE)


def name_iteration(path: Path | str) -> int | None:
    """The training iteration a file's name says (``10bb_it30.json``, ``10bb-it200.txt``: ``_it`` or
    ``-it`` and a whole number from 1 to :data:`MAX_ITERATION`, 2**63 - 1, the
    Tracker's range, ending the name), else None.

    >>> name_iteration("10bb_it30.json"), name_iteration("cfr_12.5bb-IT7.txt"), name_iteration("10bb.json")
    (30, 7, None)
    """

    match = _ITERATE.search(Path(path).stem)
    if not match or len(match[1].lstrip("0")) > len(str(MAX_ITERATION)):
        return None
    return int(match[1]) if 1 <= int(match[1]) <= MAX_ITERATION else None


def policy_iterates(folder: Path | str, stacks: Sequence[float] | None = None):
    """``({stack: {iteration: (file, policy)}}, skipped)`` when the folder's policy files are a
    solver's iterates (:func:`name_iteration`: every file ``<stack>bb_it<N>.json``), else None
    (one policy per stack: :func:`policy_folder`).  A folder that mixes iterates with a plain
    policy file, two files of one stack and iteration, or ``_it0`` are refused, naming the files."""
    names = _policy_names(folder)
    iterates = [n for n in names if name_iteration(n) is not None]
    bad = next((n for n in names if _ITERATE.search(Path(n).stem) and name_iteration(n) is None), None)
    if bad is not None:  # _it0, or past the Tracker's largest iteration
        raise ConfigError(f"policy file {bad!r}: an iteration is a whole number from 1 to 2**63 - 1 "
                          "(10bb_it1.json)")
    if not iterates:
        return None
    plain = [n for n in names if name_iteration(n) is None]
    if plain:
        raise ConfigError(f"policy folder {short(os.fspath(folder), 300)} mixes a solver's iterates ({iterates[0]!r}) "
                          f"and a plain policy file ({plain[0]!r}): name every file <stack>bb_it<iteration>.json, "
                          "or keep one policy per stack without iterations")
    found: dict[float, dict[int, tuple[str, dict]]] = {}
    skipped: list[str] = []
    for name, stack, policy in _read_files(Path(folder), iterates, stacks, skipped):
        it = name_iteration(name)
        runs = found.setdefault(stack, {})
        if it in runs:
            raise ConfigError(f"policy files {runs[it][0]!r} and {name!r} are both iteration {it} of {stack:g} bb: "
                              "keep one file per stack and iteration")
        runs[it] = (name, policy)
    _check_wanted(Path(folder), stacks, found, skipped)
    return {s: dict(sorted(runs.items())) for s, runs in sorted(found.items())}, tuple(skipped)


def policy_folder(folder: Path | str, stacks: Sequence[float] | None = None) -> tuple[dict[float, tuple[str, dict]],
                                                                                       tuple[str, ...]]:
    """``({stack: (file, policy)}, skipped)``: the policies of ``folder`` by stack (each read by
    :func:`sflp.openspiel.read_policy`), keeping only ``stacks`` when given (each must be there),
    and the names of the files of other stacks.  Every refusal is one
    :class:`~sflp.errors.ConfigError` naming the folder or the file."""
    names = _policy_names(folder)
    root = Path(folder)
    found: dict[float, tuple[str, dict]] = {}
    skipped: list[str] = []
    for name, stack, policy in _read_files(root, names, stacks, skipped):
        if stack in found:
            raise ConfigError(f"policy files {found[stack][0]!r} and {name!r} in {short(os.fspath(root), 300)} "
                              f"are both for {stack:g} bb: keep one policy per stack (or name a solver's iterates "
                              "10bb_it30.json, 10bb_it200.json for its curve)")
        found[stack] = (name, policy)
    _check_wanted(root, stacks, found, skipped)
    return dict(sorted(found.items())), tuple(skipped)


def _policy_names(root) -> list[str]:
    """The policy files of a folder (module doc), checked: each a regular file, at least one, at
    most :data:`MAX_FILES`."""
    if not isinstance(root, (str, os.PathLike)) or not os.fspath(root):
        raise ArgumentTypeError(f"folder={short(root)}: expected the folder of policy files (a str or a Path)")
    root = Path(root)
    if not root.is_dir():
        raise ConfigError(f"policy folder {short(os.fspath(root), 300)} "
                          f"{'is not a folder' if root.exists() else 'does not exist'}")
    try:
        names = sorted(p.name for p in root.iterdir() if not p.name.startswith(".") and p.name != MANIFEST
                       and p.suffix.lower() in SUFFIXES)
        inside = root.resolve()
        for name in names:  # a FIFO, a folder or a dangling symlink named like a policy is no policy
            if not (root / name).is_file():
                kind = ("a dangling symlink" if (root / name).is_symlink() and not (root / name).exists()
                        else "a folder" if (root / name).is_dir() else "not a regular file")
                raise ConfigError(f"{name!r} in the policy folder {short(os.fspath(root), 300)} is {kind}: "
                                  "move it out, or rename it without .json/.txt")
            target = (root / name).resolve()
            if not target.is_relative_to(inside):  # a link out of the folder: never read silently
                raise ConfigError(f"{name!r} in the policy folder {short(os.fspath(root), 300)} is a symlink to "
                                  f"{short(os.fspath(target), 300)}, outside the folder: sflp reads only the folder's "
                                  "own files (copy the policy in, or remove the link)")
    except OSError as exc:
        raise ConfigError(f"cannot list the policy folder {short(os.fspath(root), 300)}: "
                          f"{exc.strerror or type(exc).__name__}") from None
    if not names:
        raise ConfigError(f"policy folder {short(os.fspath(root), 300)} holds no policy file "
                          f"(*.json, or *.txt from TabularPolicy.serialize()), one per stack such as 10bb.json")
    if len(names) > MAX_FILES:
        raise ConfigError(f"policy folder {short(os.fspath(root), 300)} holds {len(names):,} policy files, more "
                          f"than {MAX_FILES:,}: give a folder of one policy per stack")
    return names


def _read_files(root: Path, names: Sequence[str], stacks, skipped: list):
    """``(file, stack, policy)`` of each file of ``names`` whose stack is wanted (``stacks``; the
    others' names go to ``skipped``); the stack is the game the policy names, else its name's."""
    from sflp.openspiel.policy import named_game
    from sflp.openspiel.policy_file import read_policy

    wanted = None if stacks is None else {float(s) for s in stacks}
    for name in names:
        by_name = name_stack(name)
        if wanted is not None and by_name is not None and by_name not in wanted:
            skipped.append(name)  # another stack, told by the name: not read
            continue
        policy = read_policy(root / name)
        try:
            own = named_game(policy)
        except ConfigError as exc:
            raise ConfigError(f"policy file {name!r}: {exc}") from None
        if own is not None and by_name is not None and float(own.stack) != by_name:
            raise ConfigError(f"policy file {name!r} is named for {by_name:g} bb but is the policy of a "
                              f"{float(own.stack):g} bb game (the game it names): rename it")
        stack = float(own.stack) if own is not None else by_name
        if stack is None:
            raise ConfigError(f"cannot tell the stack of policy file {name!r} in {short(os.fspath(root), 300)}: "
                              "name it after its stack (10bb.json) or write it with its game "
                              "(the game sflp export efg writes names it in every state)")
        if wanted is not None and stack not in wanted:
            skipped.append(name)
            continue
        yield name, stack, policy


def _check_wanted(root: Path, stacks, found: Mapping, skipped: Sequence[str]) -> None:
    """Every stack asked for (``--stacks``) has its file."""
    if stacks is None:
        return
    missing = sorted({float(s) for s in stacks} - set(found))
    if missing:
        from sflp.openspiel.efg import exact_text

        present = sorted(set(found) | {name_stack(n) for n in skipped} - {None})
        have = ", ".join(exact_text(s) for s in present) or "none whose stack is told"
        raise ConfigError(f"policy folder {short(os.fspath(root), 300)} has no policy for "
                          f"{', '.join(exact_text(s) for s in missing)} bb (its files are for: {have}; a file is "
                          "found by its name, 10bb.json, or by the game it names)")


def folder_structure(folder: Path | str):
    """The blinds and antes of the games in ``folder`` when sflp wrote it (``sflp export efg --stacks
    ... --out folder``), as a :class:`~sflp.core.game.GameConfig` at the folder's first stack, else
    None: read from its ``manifest.json`` (an ``efg-set``'s ``"structure"``), else from the title of
    its ``.efg`` files (:func:`sflp.openspiel.efg_config`, the tree proved), which must agree."""
    import json

    from sflp.core.game import GameConfig
    from sflp.openspiel.efg import STRUCTURE_FIELDS, structure_text

    root = Path(folder)
    manifest = root / MANIFEST
    if manifest.is_file():
        try:
            data = json.loads(manifest.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise ConfigError(f"the manifest of policy folder {short(os.fspath(root), 300)} cannot be read: "
                              f"{short(str(exc), 120)}") from None
        if isinstance(data, Mapping) and data.get("kind") == "efg-set":
            structure, stacks = data.get("structure"), data.get("stacks")
            try:
                return GameConfig(stack=float(stacks[0]), **{f: float(structure[f]) for f in STRUCTURE_FIELDS[1:]})
            except (TypeError, KeyError, IndexError, ValueError, ConfigError) as exc:
                raise ConfigError(f"the manifest of policy folder {short(os.fspath(root), 300)} names no game "
                                  f"({short(str(exc), 120)}): export the folder again with sflp export efg") from None
    games = sorted(p for p in root.glob("*.efg") if p.is_file())
    if not games:
        return None
    from sflp.openspiel.game import efg_config, same_game

    first = efg_config(games[0])
    for path in games[1:]:
        other = efg_config(path)
        if not same_game(first, dataclasses.replace(other, stack=first.stack)):
            raise ConfigError(f"the games of policy folder {short(os.fspath(root), 300)} are of two structures: "
                              f"{games[0].name} is {structure_text(first)}, {path.name} {structure_text(other)}")
    return first


@dataclass(frozen=True)
class StackScore:
    """One stack's policy and its :class:`~sflp.study.verify.VerifyReport` (exact figures)."""

    stack: float
    source: str
    report: object

    def row(self) -> dict:
        """The stack's figures in bb per hand (floats: each exact figure rounded once)."""
        exact = self.report.exact
        return {"stack": self.stack, "policy": self.source, "level": self.report.level,
                "nash_value": float(exact["nash_value"]),
                "value_vs_each_other": float(exact["value_vs_each_other"]),
                "sb_gain": float(exact["sb_gain"]), "bb_gain": float(exact["bb_gain"]),
                "nash_conv": float(exact["nash_conv"]), "nash_conv_mbb": float(exact["nash_conv"] * 1000),
                "sb_exploitability": float(exact["sb_exploitability"]),
                "bb_exploitability": float(exact["bb_exploitability"])}


@dataclass(frozen=True)
class StackScores:
    """Every stack's :class:`StackScore`, in stack order, and the files not scored."""

    scores: tuple[StackScore, ...]
    base: object
    folder: str | None = None
    skipped: tuple[str, ...] = ()

    @property
    def worst(self) -> StackScore:
        """The stack with the largest ``nash_conv`` (compared exactly; the lower stack on a tie)."""
        return max(self.scores, key=lambda s: (s.report.exact["nash_conv"], -s.stack))

    def rows(self) -> list[dict]:
        return [s.row() for s in self.scores]

    def to_dict(self) -> dict:
        """JSON-ready: the structure, the rows (with each exact figure as a fraction's text), the
        worst stack and the files skipped."""
        base = self.base.as_dict()
        base.pop("stack")
        rows = []
        for s in self.scores:
            row = s.row()
            row["exact"] = {k: str(v) for k, v in s.report.exact.items()}
            rows.append(row)
        worst = self.worst
        return {"folder": self.folder, "structure": base, "stacks": rows,
                "worst": {"stack": worst.stack, "policy": worst.source,
                          "nash_conv": float(worst.report.exact["nash_conv"])},
                "skipped": list(self.skipped)}


def verify_stacks(policies: Mapping, base, *, sources: Mapping | None = None, folder: str | None = None,
                  skipped: Sequence[str] = (), solutions: Mapping | None = None, progress=None,
                  require_game: bool = False) -> StackScores:
    """Score ``{stack: policy}`` exactly, each in ``base``'s game at its stack (a policy that names
    its game must name that one: :func:`sflp.openspiel.verify` refuses it otherwise);
    ``sources`` names each policy in the output (default ``"policy at S bb"``), ``solutions`` may
    pass each stack's exact equilibrium, ``progress(stack)`` is called after each.  At least one
    policy is needed."""
    from sflp.core.game import GameConfig
    from sflp.openspiel.policy import verify

    if not isinstance(base, GameConfig):
        raise ArgumentTypeError(f"base={short(base)} is a {type(base).__name__}, not a GameConfig: pass "
                                "GameConfig(stack=10, ...) (its blinds and antes are used at every stack)")
    if not isinstance(policies, Mapping) or not policies:
        raise ConfigError(f"policies={short(policies)}: expected a non-empty mapping {{stack: policy}}")
    scores = []
    for stack in sorted(policies, key=float):
        source = (sources or {}).get(stack, f"policy at {float(stack):g} bb")
        solution = (solutions or {}).get(stack)
        try:  # each refusal names the policy: in a folder of many, the user must know which to fix
            config = dataclasses.replace(base, stack=stack)
            report = verify(policies[stack], config, solution=solution, source=source, require_game=require_game)
        except (ConfigError, NotationError) as exc:
            raise type(exc)(f"{source} ({float(stack):g} bb): {exc}") from None
        scores.append(StackScore(float(stack), source, report))
        if progress is not None:
            progress(float(stack))
    return StackScores(tuple(scores), base, folder, tuple(skipped))
