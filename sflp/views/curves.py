"""Exploitability against training iterations, at every stack: the files of a solver's curve.

A solver author's policies are iterates: ``10bb_it30.json``, ``10bb_it200.json`` ... (``sflp verify
--policy-dir``), or policies handed over while training runs (:class:`Tracker`).  Every iterate is
scored exactly (:func:`sflp.openspiel.verify`), and the curve is written as

* ``curves.csv`` -- one row per (stack, iteration), in that order: ``stack, iteration, nash_conv,
  sb_gain, bb_gain, value_vs_each_other, policy`` (bb per hand, each exact figure rounded once,
  with every digit);
* ``curves.json`` -- the structure and the same rows, each with its exact figures as fractions;
* ``curves.png`` and ``curves.svg`` -- ``nash_conv`` against the iteration, both axes logarithmic
  (iterations are whole numbers from 1 to 2**63 - 1), one line per stack (:func:`curve_picture`, drawn by
  :mod:`sflp.charts.media.draw`: the same rows give the same bytes).  A ``nash_conv`` below
  :data:`FLOOR` (an exact 0) is drawn at the floor.

``sflp verify --policy-dir D --out OUT`` writes them beside ``verify_stacks.csv`` (which, like the
gate, judges each stack's last iterate); :class:`Tracker` writes them into a folder of its own
(``"kind": "policy-curves"`` in its manifest, which lists only the files it wrote), the CSV and
JSON after every record and the pictures when it is closed (or :meth:`Tracker.write`), so a run
that stops still leaves its table, and a Tracker opened again on that folder resumes it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from decimal import Decimal
from fractions import Fraction
from numbers import Real
from pathlib import Path

from sflp.atomic import write_bytes
from sflp.checks import shown_name
from sflp.openspiel.stacks import MAX_ITERATION  # the one range of an iteration, --policy-dir's too

CSV_NAME, JSON_NAME, PNG_NAME, SVG_NAME = "curves.csv", "curves.json", "curves.png", "curves.svg"
NAMES = (CSV_NAME, JSON_NAME, PNG_NAME, SVG_NAME)
COLUMNS = ("stack", "iteration", "nash_conv", "sb_gain", "bb_gain", "value_vs_each_other", "policy")
FIGURES = ("nash_conv", "sb_gain", "bb_gain", "value_vs_each_other")
KIND = "policy-curves"
MAX_CURVE_BYTES = 256 * 1024 * 1024
"""A ``curves.json`` (or ``curves.csv``) larger than this is not read back by a resuming Tracker:
a row takes about 700 bytes there (its exact fractions), so this is some 380,000 rows."""
FLOOR = 1e-12
"""Smallest ``nash_conv`` drawn on the log scale."""


def curve_row(stack: float, iteration: int, report, source: str) -> dict:
    """One iterate's row: the figures of its exact :class:`~sflp.study.verify.VerifyReport`."""
    return _row(stack, iteration, report.exact, source)


def _row(stack: float, iteration: int, exact, source: str) -> dict:
    """The row of the exact figures ``exact`` (fractions by name): each float rounded once from them."""
    row = {"stack": float(stack), "iteration": int(iteration)}
    for key in FIGURES:
        row[key] = float(exact[key])
    row["policy"] = source
    row["exact"] = {key: _text(exact[key]) for key in FIGURES}
    return row


def _text(q) -> str:
    q = Fraction(q)
    return f"{q.numerator}/{q.denominator}"


def sorted_rows(rows: Iterable[dict]) -> list[dict]:
    return sorted(rows, key=lambda r: (r["stack"], r["iteration"]))


def csv_text(rows: Iterable[dict]) -> bytes:
    """``curves.csv`` (floats as their shortest round-trip text)."""
    import pandas as pd

    from sflp.charts.media.csv import csv_bytes

    frame = pd.DataFrame([{k: r[k] for k in COLUMNS} for r in sorted_rows(rows)], columns=list(COLUMNS))
    return csv_bytes(frame.astype({"stack": float, "iteration": int}), COLUMNS)


def json_text(rows: Iterable[dict], base) -> bytes:
    """``curves.json``: the structure (blinds and antes) and the rows with their exact figures."""
    from sflp.output.clean import json_text as clean

    structure = base.as_dict()
    structure.pop("stack")
    return (clean({"structure": structure, "rows": sorted_rows(rows)}, indent=2) + "\n").encode("utf-8")


STACK_COLOURS = ("1F77B4", "FF7F0E", "2CA02C", "D62728", "9467BD", "8C564B", "E377C2", "7F7F7F", "BCBD22",
                 "17BECF")
"""One colour per stack, in stack order (the Tableau 10 cycle)."""


def curve_picture(rows: Sequence[dict], title: str = ""):
    """A :class:`~sflp.charts.media.draw.Drawing`: ``nash_conv`` (bb/hand) against the iteration,
    log-log, one line with markers per stack, the legend on the right."""
    from sflp.charts.media.draw import Drawing, text_width
    from sflp.charts.media.pictures.plots import INK, PT, LogAxes, decades
    from sflp.charts.text import fmt_num

    rows = sorted_rows(rows)
    stacks = list(dict.fromkeys(r["stack"] for r in rows))
    labels = [f"{fmt_num(s)} bb" for s in stacks]
    ys = [max(r["nash_conv"], FLOOR) for r in rows] or [FLOOR, 1.0]
    xs = [r["iteration"] for r in rows] or [1, 10]
    left, top, width, height = 0.8 * PT, 0.45 * PT, 5.0 * PT, 3.2 * PT
    legend = 34 + max((text_width(t, 8) for t in labels), default=0)
    d = Drawing(left + width + 0.25 * PT + legend + 0.1 * PT, top + height + 0.65 * PT)
    a = LogAxes(d, left, top, width, height, decades(min(xs), max(xs)), decades(min(ys), max(ys)))
    a.decade_grid_and_ticks()
    for k, stack in enumerate(stacks):
        pts = [(r["iteration"], max(r["nash_conv"], FLOOR)) for r in rows if r["stack"] == stack]
        a.curve([x for x, _ in pts], [y for _, y in pts], STACK_COLOURS[k % len(STACK_COLOURS)], 1.2, markers=True)
    a.frame()
    if title:
        d.text(left + width / 2, top - 12, title, 10, INK, anchor="middle")
    d.text(left + width / 2, top + height + 32, "iteration", 9, INK, anchor="middle")
    d.text(left - 40, top + height / 2, "nash_conv (bb/hand)", 9, INK, anchor="middle", angle=90)
    x = left + width + 0.25 * PT
    for k, label in enumerate(labels):
        y = top + 10 + k * 14
        colour = STACK_COLOURS[k % len(STACK_COLOURS)]
        d.line([(x, y - 3), (x + 24, y - 3)], colour, 1.2)
        d.dot(x + 12, y - 3, 1.5, colour)
        d.text(x + 30, y, label, 8, INK)
    return d


def curve_files(rows: Sequence[dict], base, *, pictures: bool = True) -> dict[str, bytes]:
    """The curve's files by name (module doc); ``pictures=False`` leaves out the PNG and SVG."""
    from sflp.openspiel.efg import structure_text

    out = {CSV_NAME: csv_text(rows), JSON_NAME: json_text(rows, base)}
    if pictures:
        from sflp.charts.media.draw import png_bytes, svg_bytes
        from sflp.charts.media.pictures.plots import DPI

        title = "nash_conv by iteration: " + structure_text(base).split(", ", 1)[1]
        drawing = curve_picture(rows, title)
        out[PNG_NAME] = png_bytes(drawing, DPI)
        out[SVG_NAME] = svg_bytes(drawing, title)
    return out


class Tracker:
    """Exploitability curves written while a solver trains (module doc).

    ``Tracker(config, out)`` for one game (a :class:`~sflp.core.game.GameConfig`), or
    ``Tracker([5, 10, 15], out, base=GameConfig(...))`` for several stacks of one structure (the
    base's blinds and antes; default 0.5/1, no ante).  :meth:`record` scores a policy exactly
    and rewrites ``curves.csv`` and ``curves.json``; :meth:`write` (and leaving a ``with`` block,
    or :meth:`close`) draws ``curves.png`` and ``curves.svg`` too.  ``out`` is a folder sflp owns
    (:func:`sflp.output.target.check_target`): a new or empty one, or one a Tracker wrote.

    **Resuming.**  Opened on a folder a Tracker wrote, it reads that curve back (checked against
    its manifest's SHA-256 and rebuilt byte for byte from its exact fractions, else refused) and
    goes on from it: its rows are kept, and each new iteration adds a row.  The folder's game must
    be this one: the same blinds and antes, and stacks that include every stack recorded there
    (a resumed Tracker may follow more stacks); else it is refused naming both games.

    **The user's files.**  The manifest lists only the files the Tracker wrote; anything else in
    the folder is the user's: kept, said once (``notify``, by default one line on stderr), never
    listed, so a later sflp run still sees it as the user's.  A file of the user's with the name of
    one the Tracker is about to write (``curves.png`` before the first picture) is refused, not
    replaced.

    A refused :meth:`record` (a bad iteration, policy or stack, a scoring or write error) leaves
    the Tracker's rows and files as they were.  Scoring is :meth:`score`'s, so that a Tracker
    with another scorer can be built on this one.
    """

    def __init__(self, games, out, *, base=None, notify=None):
        from sflp.checks import short
        from sflp.core.game import GameConfig
        from sflp.errors import ArgumentTypeError, ConfigError
        from sflp.output.manifest import read_manifest
        from sflp.output.target import check_target

        if isinstance(games, GameConfig):
            self.base, self.stacks = games, (float(games.stack),)
        else:
            try:
                stacks = tuple(sorted({float(s) for s in games}))
            except (TypeError, ValueError):
                raise ArgumentTypeError(f"games={short(games)}: expected a GameConfig or a list of stacks in bb") \
                    from None
            if not stacks:
                raise ConfigError("Tracker needs at least one stack")
            base = base if base is not None else GameConfig(stack=stacks[0])
            if not isinstance(base, GameConfig):
                raise ArgumentTypeError(f"base={short(base)}: expected a GameConfig (its blinds and antes)")
            self.base, self.stacks = base, stacks
            for s in stacks:
                self._config(s)  # each stack checked now, not at the first record
        self.notify = notify if notify is not None else _to_stderr
        self.out = check_target(out, KIND)
        manifest = read_manifest(self.out) if self.out.is_dir() else None  # check_target: a Tracker's, if any
        self.rows: list[dict] = []
        self._own: set[str] = set()  # the files this Tracker (or the one it resumes) wrote
        self._told: set[str] = set()  # the user's files already said to be kept
        self._renormalised = False  # a float32 renormalisation said already (once a Tracker)
        if manifest is not None:
            self.rows = self._resume(manifest)
        self._state = self._fingerprint()  # what the folder holds now: a write checks it is unchanged
        if manifest is not None:
            self.notify(f"resumed the curve in {shown_name(str(self.out))}: {len(self.rows)} row(s) kept "
                        f"({_rows_text(self.rows)}); each new iteration adds a row")
            self._tell_kept()

    def _config(self, stack: float):
        return self.base.with_stack(float(stack))

    def _resume(self, manifest: dict) -> list[dict]:
        """The rows of the curve in :attr:`out` (a Tracker's folder), read as untrusted input."""
        from sflp.errors import DataError, OutputError
        from sflp.inputs import parse_json
        from sflp.output.manifest import check_manifest, manifest_problems, read_listed

        hint = "the Tracker will not resume it; move the folder away or give a new one"
        problems = manifest_problems(manifest)
        entries = {e["name"]: e for e in manifest["files"]} if not problems else {}
        if not problems:
            problems = [f"it does not list {name}" for name in (CSV_NAME, JSON_NAME) if name not in entries]
        if not problems:
            try:
                # the Tracker's own files only: a file of the user's that an older sflp listed is the user's
                problems = [p for p in check_manifest(self.out) if p.split(": ", 1)[0] in NAMES
                            and not p.endswith(": not listed in the manifest")]
            except OSError as exc:
                problems = [exc.strerror or exc.__class__.__name__]
        if problems:
            raise DataError(f"{self.out} holds a Tracker's curve that does not match its manifest.json "
                            f"({problems[0]}): {hint}")
        self._own = {name for name in entries if name in NAMES}
        path = self.out / JSON_NAME
        data = {name: read_listed(self.out, name, MAX_CURVE_BYTES, entries[name]) for name in (JSON_NAME, CSV_NAME)}
        try:
            curve = parse_json(data[JSON_NAME].decode("utf-8"), str(path), error=DataError)
        except UnicodeDecodeError:
            raise DataError(f"{path} is not UTF-8 text: {hint}") from None
        if not (isinstance(curve, dict) and set(curve) == {"structure", "rows"} and isinstance(curve["rows"], list)
                and isinstance(curve["structure"], dict)):
            raise DataError(f"{path} is not a Tracker's curve (an object of 'structure' and 'rows'): {hint}")
        mine = self.base.as_dict()
        mine.pop("stack")
        theirs = curve["structure"]
        rows = [_read_row(r, k, path, hint) for k, r in enumerate(curve["rows"])]
        stacks = sorted({r["stack"] for r in rows})
        if theirs != mine or not set(stacks) <= set(self.stacks):
            raise OutputError(f"{self.out} holds the curve of {_games_text(theirs, stacks)}; this Tracker follows "
                              f"{_games_text(mine, self.stacks)}: give it a folder of its own (or the same game, "
                              "with every stack recorded there)")
        seen = set()
        for r in rows:
            key = (r["stack"], r["iteration"])
            if key in seen:
                raise DataError(f"{path} holds iteration {key[1]} of {key[0]:g} bb twice: {hint}")
            seen.add(key)
        if json_text(rows, self.base) != data[JSON_NAME] or csv_text(rows) != data[CSV_NAME]:
            raise DataError(f"{self.out}: curves.json and curves.csv are not the files a Tracker writes for "
                            f"these rows (edited?): {hint}")
        return rows

    @staticmethod
    def check_iteration(iteration) -> int:
        """``iteration`` as an int if it is a whole number from 1 to :data:`MAX_ITERATION` (a
        Python or numpy integer, not a bool), else :class:`~sflp.errors.ConfigError`.  Not 0: the
        curve's axes are logarithmic, and ``sflp verify --policy-dir`` reads ``_it0`` as no
        iteration."""
        from numbers import Integral

        from sflp.checks import short
        from sflp.errors import ConfigError

        if isinstance(iteration, bool) or not isinstance(iteration, Integral) or not 1 <= iteration <= MAX_ITERATION:
            raise ConfigError(f"iteration={short(iteration)}: expected a whole number from 1 to 2**63 - 1 "
                              f"({MAX_ITERATION:,})")
        return int(iteration)

    @staticmethod
    def check_source(source) -> str | None:
        """``source`` (the name a row gives its policy) if it is None or a text without control
        characters (U+0000 to U+001F, U+007F to U+009F) or line separators (U+2028, U+2029), else
        :class:`~sflp.errors.ConfigError`.  Refused rather than escaped: the name is written as it
        is into ``curves.csv`` and ``curves.json``, read back by a resuming Tracker and shown in
        one-line notes, and an escaped name would no longer be the one the caller gave."""
        from sflp.checks import short
        from sflp.errors import ArgumentTypeError, ConfigError

        if source is None:
            return None
        if not isinstance(source, str):
            raise ArgumentTypeError(f"source={short(source)}: expected a str naming the policy (or None)")
        bad = next((c for c in source if ord(c) < 32 or 127 <= ord(c) < 160 or c in "\u2028\u2029"), None)
        if bad is not None:
            raise ConfigError(f"source={short(source)} holds the control character {bad!r}: give a name of "
                              "printable characters (no line breaks, tabs or escapes)")
        return source

    def score(self, policy, config, source: str | None):
        """The exact figures of ``policy`` in ``config``: a mapping with the fractions of
        :data:`FIGURES` (:func:`sflp.openspiel.verify`'s ``exact``)."""
        import warnings

        from sflp.openspiel import verify
        from sflp.openspiel.policy import PolicyRenormalised

        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always", PolicyRenormalised)
            exact = verify(policy, config, source=source).exact
        for w in seen:  # a float32 trainer's every iterate is renormalised: said once a Tracker
            if isinstance(w.message, PolicyRenormalised):
                if not self._renormalised:
                    self._renormalised = True
                    warnings.warn(PolicyRenormalised(f"{w.message} (this Tracker says so once)", w.message.worst,
                                                     w.message.state), stacklevel=3)
            else:
                warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
        return exact

    def record(self, iteration: int, policy, stack: float | None = None, *, source: str | None = None) -> dict:
        """Score ``policy`` (anything :func:`sflp.openspiel.verify` takes) exactly at iteration
        ``iteration`` (:meth:`check_iteration`: a whole number from 1 to 2**63 - 1) of ``stack``
        (needed when the tracker has several), add its row, rewrite the CSV and JSON, and return the
        row (``row["nash_conv"]`` ...).  A refused record changes nothing."""
        from sflp.checks import short
        from sflp.errors import ConfigError

        iteration = self.check_iteration(iteration)
        source = self.check_source(source)
        if stack is None:
            if len(self.stacks) != 1:
                raise ConfigError(f"this Tracker follows {len(self.stacks)} stacks: say which, record(..., stack=10)")
            stack = self.stacks[0]
        if isinstance(stack, bool) or not isinstance(stack, (Real, Decimal)):
            raise ConfigError(f"stack={short(stack)} is not a number: give one of the Tracker's stacks in bb "
                              f"({', '.join(f'{s:g}' for s in self.stacks)}) as an int, float, Fraction or Decimal")
        try:
            known = float(stack) in self.stacks
        except (TypeError, ValueError, OverflowError):
            known = False
        if not known:
            raise ConfigError(f"stack={short(stack)} is not one of the Tracker's stacks "
                              f"({', '.join(f'{s:g}' for s in self.stacks)})")
        if any(r["stack"] == float(stack) and r["iteration"] == iteration for r in self.rows):
            raise ConfigError(f"iteration {iteration} of {float(stack):g} bb is recorded already")
        exact = self.score(policy, self._config(stack), source)
        row = _row(float(stack), iteration, exact, source or f"iteration {iteration}")
        self._commit([*self.rows, row], pictures=False)
        return row

    def write(self) -> dict[str, Path]:
        """Write every file, pictures too; returns their paths."""
        return self._commit(self.rows, pictures=True)

    def _commit(self, rows: list[dict], pictures: bool) -> dict[str, Path]:
        """Write the files of ``rows`` and the manifest of the Tracker's files, then make ``rows``
        the Tracker's; on any error put back the files it had replaced and keep its rows."""
        import sflp
        from sflp.errors import OutputError, SflpError
        from sflp.output.lock import TargetLock
        from sflp.output.manifest import reason_of, write_manifest

        files = curve_files(rows, self.base, pictures=pictures and bool(rows))  # made before any file is touched
        try:
            self.out.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise OutputError(f"cannot write the curve in {shown_name(str(self.out))}: {reason_of(exc)}") from None
        # sflp's lock on the folder (the one a chart set or atlas written there takes for its swap):
        # what is checked below stays true while the Tracker writes
        lock = TargetLock(self.out.parent / f".{self.out.name}.lock")
        lock.acquire(True, lambda: self.notify(f"waiting for another sflp run writing {shown_name(str(self.out))} ..."))
        try:
            self._check_folder(files)
            old = {name: (self.out / name).read_bytes() if name in self._own and (self.out / name).is_file()
                   else None for name in files}
            written: list[str] = []
            try:
                self.out.mkdir(parents=True, exist_ok=True)
                for name, data in files.items():
                    write_bytes(self.out / name, data)
                    written.append(name)
                write_manifest(self.out, {"kind": KIND, "sflp_version": sflp.__version__},
                               names=self._own | set(files))
            except (OSError, SflpError) as exc:
                self._put_back(written, old)
                if isinstance(exc, SflpError):
                    raise
                raise OutputError(f"cannot write the curve in {shown_name(str(self.out))}: {reason_of(exc)}") from None
            self._own |= set(files)
            self.rows = rows
            self._state = self._fingerprint()
        finally:
            lock.release()
        self._tell_kept()
        return {name: self.out / name for name in files}

    def _fingerprint(self) -> tuple:
        """What the folder holds of the Tracker's: the SHA-256 of its manifest and of each file it
        wrote (None for a missing one).  Another writer's change (another Tracker's row, a
        set swapped in, an edit) changes it."""
        import hashlib

        from sflp.output.manifest import MANIFEST

        def digest(name: str) -> str | None:
            path = self.out / name
            try:
                return hashlib.sha256(path.read_bytes()).hexdigest() if not path.is_symlink() else "symlink"
            except FileNotFoundError:
                return None
            except OSError as exc:
                return exc.__class__.__name__

        return tuple((name, digest(name)) for name in (MANIFEST, *sorted(self._own)))

    def _check_folder(self, files) -> None:
        """Before a write, holding the lock: the folder still holds what this Tracker last wrote
        there (or read, or found empty), else :class:`~sflp.errors.OutputError` and nothing is
        written -- a set of another kind put there since (the check :class:`StagedFolder` makes
        again at its swap), another writer's change, a file of the user's with the name of one of
        the Tracker's."""
        from sflp.errors import OutputError
        from sflp.output.target import kind_problem

        if self.out.is_symlink() or (self.out.exists() and not self.out.is_dir()):
            raise OutputError(f"{shown_name(str(self.out))} is no longer a folder: the Tracker writes nothing "
                              "there and keeps its rows; give it a folder of its own")
        why = kind_problem(self.out, KIND)
        if why is not None:
            raise OutputError(f"{why}. Nothing was changed (the Tracker keeps its rows)")
        if self._fingerprint() != self._state:
            raise OutputError(f"{shown_name(str(self.out))} was changed by another writer since this Tracker last "
                              "wrote it; reopen a Tracker on it to resume. Nothing was changed")
        for name in files:
            path = self.out / name
            if name not in self._own and (path.exists() or path.is_symlink()):
                raise OutputError(f"{shown_name(str(path))} is not the Tracker's (its manifest does not list it): "
                                  "sflp will not replace it; move it away")

    def _put_back(self, written: list[str], old: dict[str, bytes | None]) -> None:
        """Undo the writes of a failed :meth:`_commit` (as far as the disk lets it)."""
        for name in written:
            try:
                if old[name] is None:
                    (self.out / name).unlink()
                else:
                    write_bytes(self.out / name, old[name])
            except OSError:  # the manifest still lists the old bytes: a resume refuses the mismatch
                pass

    def _tell_kept(self) -> None:
        """Say once which of the user's files are in the folder (the Tracker keeps them)."""
        from sflp.output.manifest import MANIFEST

        try:
            names = sorted(p.name for p in self.out.iterdir())
        except OSError:
            return
        new = [n for n in names if n not in self._own and n != MANIFEST and not n.startswith(".")
               and n not in self._told]
        if new:
            self._told.update(new)
            self.notify(f"kept {len(new)} file(s) in {shown_name(str(self.out))} that sflp did not write: "
                        + ", ".join(map(shown_name, new[:8])) + (", ..." if len(new) > 8 else ""))

    def close(self) -> None:
        if self.rows:
            self.write()

    def __enter__(self) -> Tracker:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _to_stderr(message: str) -> None:
    """The Tracker's default ``notify``: one line on stderr."""
    import sys

    print(f"sflp: {message}", file=sys.stderr, flush=True)


def _games_text(structure: dict, stacks) -> str:
    """``blinds 0.5/1, ante 0.1, BB ante 0 at 5, 8 bb``: a curve's structure (``as_dict`` without
    the stack; shown as it is when it is not one) and its stacks."""
    from sflp.checks import short

    at = " at " + (", ".join(f"{s:g}" for s in stacks) + " bb" if stacks else "no stack yet")
    try:
        return (f"blinds {structure['small_blind']:g}/{structure['big_blind']:g}, ante {structure['ante']:g}, "
                f"BB ante {structure['bb_ante']:g}" + at)
    except (KeyError, TypeError, ValueError):
        return short(structure) + at


def _rows_text(rows: Sequence[dict]) -> str:
    """``iterations 1 to 100 of 10 bb; 3 to 40 of 5 bb``: what a curve holds, per stack."""
    parts = []
    for stack in sorted({r["stack"] for r in rows}):
        its = [r["iteration"] for r in rows if r["stack"] == stack]
        parts.append(f"iterations {min(its)} to {max(its)} of {stack:g} bb")
    return "; ".join(parts) or "no iteration"


def _read_row(row, k: int, path: Path, hint: str) -> dict:
    """Row ``k`` of a ``curves.json`` read back, rebuilt from its exact fractions, or DataError."""
    from sflp.errors import DataError

    def bad(what: str):
        return DataError(f"{path}: row {k + 1} {what}: {hint}")

    keys = ("stack", "iteration", *FIGURES, "policy", "exact")
    if not isinstance(row, dict) or set(row) != set(keys):
        raise bad(f"does not have the keys {', '.join(keys)}")
    stack, iteration, exact = row["stack"], row["iteration"], row["exact"]
    if isinstance(stack, bool) or not isinstance(stack, (int, float)) or not 0 < stack < float("inf"):
        raise bad("has no stack (a positive number)")
    if isinstance(iteration, bool) or not isinstance(iteration, int) or not 1 <= iteration <= MAX_ITERATION:
        raise bad("has no iteration (a whole number from 1 to 2**63 - 1)")
    if not isinstance(row["policy"], str):
        raise bad("has no policy name (a text)")
    if not isinstance(exact, dict) or set(exact) != set(FIGURES) or not all(isinstance(v, str) for v in exact.values()):
        raise bad(f"has no exact figures ({', '.join(FIGURES)} as fractions)")
    fractions = {}
    for key in FIGURES:
        try:
            fractions[key] = Fraction(exact[key]) if len(exact[key]) <= 10_000 else None
        except (ValueError, ZeroDivisionError):
            fractions[key] = None
        if fractions[key] is None:
            raise bad(f"has no exact {key} (a fraction p/q)")
    return _row(stack, iteration, fractions, row["policy"])
