"""Exploitability against training iterations, at every stack: the files of a solver's curve.

A solver author's policies are iterates: ``10bb_it30.json``, ``10bb_it200.json`` ... (``sflp verify
--policy-dir``), or policies handed over while training runs (:class:`Tracker`).  Every iterate is
scored exactly (:func:`sflp.openspiel.verify`), and the curve is written as

* ``curves.csv`` -- one row per (stack, iteration), in that order: ``stack, iteration, nash_conv,
  sb_gain, bb_gain, value_vs_each_other, policy`` (bb per hand, each exact figure rounded once,
  with every digit);
* ``curves.json`` -- the structure and the same rows, each with its exact figures as fractions;
* ``curves.png`` and ``curves.svg`` -- ``nash_conv`` against the iteration, both axes logarithmic
  (iterations are whole numbers >= 1), one line per stack (:func:`curve_picture`, drawn by
  :mod:`sflp.charts.media.draw`: the same rows give the same bytes).  A ``nash_conv`` below
  :data:`FLOOR` (an exact 0) is drawn at the floor.

``sflp verify --policy-dir D --out OUT`` writes them beside ``verify_stacks.csv`` (which, like the
gate, judges each stack's last iterate); :class:`Tracker` writes them into a folder of its own
(``"kind": "policy-curves"`` in its manifest), the CSV and JSON after every record and the pictures
when it is closed (or :meth:`Tracker.write`), so a run that stops still leaves its table.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from pathlib import Path

from sflp.atomic import write_bytes

CSV_NAME, JSON_NAME, PNG_NAME, SVG_NAME = "curves.csv", "curves.json", "curves.png", "curves.svg"
NAMES = (CSV_NAME, JSON_NAME, PNG_NAME, SVG_NAME)
COLUMNS = ("stack", "iteration", "nash_conv", "sb_gain", "bb_gain", "value_vs_each_other", "policy")
KIND = "policy-curves"
FLOOR = 1e-12
"""Smallest ``nash_conv`` drawn on the log scale."""


def curve_row(stack: float, iteration: int, report, source: str) -> dict:
    """One iterate's row: the figures of its exact :class:`~sflp.study.verify.VerifyReport`."""
    exact = report.exact
    row = {"stack": float(stack), "iteration": int(iteration)}
    for key in ("nash_conv", "sb_gain", "bb_gain", "value_vs_each_other"):
        row[key] = float(exact[key])
    row["policy"] = source
    row["exact"] = {key: _text(exact[key]) for key in ("nash_conv", "sb_gain", "bb_gain", "value_vs_each_other")}
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
    """

    def __init__(self, games, out, *, base=None):
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
        self.out = check_target(out, KIND)
        manifest = read_manifest(self.out) if self.out.is_dir() else None
        if manifest is not None and manifest.get("kind") != KIND:
            from sflp.errors import OutputError

            raise OutputError(f"{self.out} holds an sflp {manifest.get('kind') or 'report'}, which the Tracker would "
                              "overwrite: give it a folder of its own")
        self.rows: list[dict] = []

    def _config(self, stack: float):
        return self.base.with_stack(float(stack))

    def record(self, iteration: int, policy, stack: float | None = None, *, source: str | None = None) -> dict:
        """Score ``policy`` (anything :func:`sflp.openspiel.verify` takes) exactly at iteration
        ``iteration`` (a whole number >= 1) of ``stack`` (needed when the tracker has several),
        add its row, rewrite the CSV and JSON, and return the row (``row["nash_conv"]`` ...)."""
        from sflp.errors import ConfigError
        from sflp.openspiel import verify

        if isinstance(iteration, bool) or not isinstance(iteration, int) or iteration < 1:
            raise ConfigError(f"iteration={iteration!r}: expected a whole number >= 1")
        if stack is None:
            if len(self.stacks) != 1:
                raise ConfigError(f"this Tracker follows {len(self.stacks)} stacks: say which, record(..., stack=10)")
            stack = self.stacks[0]
        if float(stack) not in self.stacks:
            raise ConfigError(f"stack={stack!r} is not one of the Tracker's stacks "
                              f"({', '.join(f'{s:g}' for s in self.stacks)})")
        if any(r["stack"] == float(stack) and r["iteration"] == iteration for r in self.rows):
            raise ConfigError(f"iteration {iteration} of {float(stack):g} bb is recorded already")
        report = verify(policy, self._config(stack), source=source)
        row = curve_row(float(stack), iteration, report, source or f"iteration {iteration}")
        self.rows.append(row)
        self._write(pictures=False)
        return row

    def write(self) -> dict[str, Path]:
        """Write every file, pictures too; returns their paths."""
        return self._write(pictures=True)

    def _write(self, pictures: bool) -> dict[str, Path]:
        import sflp
        from sflp.output.manifest import write_manifest

        self.out.mkdir(parents=True, exist_ok=True)
        paths = {}
        for name, data in curve_files(self.rows, self.base, pictures=pictures and bool(self.rows)).items():
            write_bytes(self.out / name, data)
            paths[name] = self.out / name
        write_manifest(self.out, {"kind": KIND, "sflp_version": sflp.__version__})
        return paths

    def close(self) -> None:
        if self.rows:
            self.write()

    def __enter__(self) -> Tracker:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
