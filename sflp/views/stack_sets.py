"""Folders of several stacks at once: a policy set's scores (``sflp verify --policy-dir``) and the
game's ``.efg`` at each stack (``sflp export efg --stacks``).

Both folders are one unit with a ``manifest.json``, under the output-folder contract of
:class:`~sflp.output.stage.StagedFolder`: a folder of other files is refused, and so is an sflp
set of another kind (:func:`sflp.output.target.kind_problem`: the games are not replaced by a
policy set's scores written into their folder, nor the scores by games), sflp replaces
only what its own manifest lists, the user's own files are kept (``on_keep``), and a reader never
sees half a set.

* :func:`write_scores` writes ``verify_stacks.csv`` (one row per stack: the figures of
  :meth:`sflp.openspiel.stacks.StackScore.row`, the gate's verdict when one was asked, floats in
  full precision) and ``verify_stacks.json`` (the same rows with every exact figure as a
  fraction's text, the worst stack, the files skipped);
* :func:`write_efg_set` writes ``<stack>bb.efg`` per stack (``10bb.efg``, ``12.5bb.efg``: the names
  :func:`sflp.openspiel.stacks.name_stack` reads back), each the text of
  :func:`sflp.openspiel.efg.efg_text`.

:func:`format_scores` is the text table ``sflp verify --policy-dir`` prints (at most 80
characters a line).
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from sflp.atomic import write_bytes
from sflp.checks import shown_name

CSV_NAME = "verify_stacks.csv"
JSON_NAME = "verify_stacks.json"
COLUMNS = ("stack", "policy", "level", "nash_value", "value_vs_each_other", "sb_gain", "bb_gain", "nash_conv",
           "nash_conv_mbb", "sb_exploitability", "bb_exploitability")
"""The CSV's columns (then ``pass`` when a gate was asked), bb per hand."""


def efg_name(stack: float) -> str:
    """The file name of one stack's game in an ``.efg`` set: ``10bb.efg``, ``12.5bb.efg``, every
    digit the stack needs (``10.123456789bb.efg``), so the name reads back as the stack."""
    from sflp.openspiel.efg import exact_text

    return f"{exact_text(stack)}bb.efg"


SCORES_KIND = "verify-stacks"
EFG_SET_KIND = "efg-set"


def _rows(scores, verdicts) -> list[dict]:
    rows = scores.rows()
    if verdicts is not None:
        for row, verdict in zip(rows, verdicts):
            row["pass"] = verdict.passed
    return rows


def scores_dict(scores, verdicts=None) -> dict:
    """What ``--json`` prints and ``verify_stacks.json`` holds: :meth:`StackScores.to_dict`, with
    each stack's gate (``"pass"``, ``"gate"``) and ``"pass"`` for the set when a gate was asked."""
    out = scores.to_dict()
    if verdicts is not None:
        for row, verdict in zip(out["stacks"], verdicts):
            row.update(verdict.to_dict())
        out["pass"] = all(v.passed for v in verdicts)
    return out


def write_scores(scores, out_dir: Path | str, verdicts=None, *, wait: bool = True, on_wait=None,
                 on_keep=None, curves: list[dict] | None = None) -> dict[str, Path]:
    """Write ``verify_stacks.csv`` and ``verify_stacks.json`` into ``out_dir`` (see the module doc);
    with ``curves`` (the rows of a solver's iterates, :mod:`sflp.views.curves`) the curve's files
    too."""
    import sflp
    from sflp.charts.media.csv import csv_bytes
    from sflp.output.clean import json_text
    from sflp.output.manifest import write_manifest
    from sflp.output.stage import StagedFolder
    from sflp.output.target import check_target

    out = check_target(out_dir, SCORES_KIND)
    rows = _rows(scores, verdicts)
    columns = list(COLUMNS) + (["pass"] if verdicts is not None else [])
    frame = pd.DataFrame(rows, columns=columns)
    folder = StagedFolder(out, SCORES_KIND, wait=wait, on_wait=on_wait)
    with folder as stage:
        write_bytes(stage / CSV_NAME, csv_bytes(frame, columns))
        write_bytes(stage / JSON_NAME, (json_text(scores_dict(scores, verdicts), indent=2) + "\n").encode("utf-8"))
        extra = {}
        if curves is not None:
            from sflp.views.curves import curve_files

            for name, data in curve_files(curves, scores.base).items():
                write_bytes(stage / name, data)
                extra[name.replace(".", "_")] = out / name
        write_manifest(stage, {"kind": SCORES_KIND, "sflp_version": sflp.__version__})
    if folder.kept and on_keep is not None:
        on_keep(folder.kept)
    return {"csv": out / CSV_NAME, "json": out / JSON_NAME, **extra}


def write_efg_set(configs, out_dir: Path | str, *, table=None, wait: bool = True, on_wait=None, on_keep=None,
                  progress=None) -> list[Path]:
    """Write each config's game as ``<stack>bb.efg`` into ``out_dir`` (see the module doc); the
    configs' stacks must differ.  ``progress(path)`` is called after each file."""
    import sflp
    from sflp.openspiel.efg import efg_text
    from sflp.output.manifest import write_manifest
    from sflp.output.stage import StagedFolder
    from sflp.output.target import check_target

    out = check_target(out_dir, EFG_SET_KIND)
    names = [efg_name(c.stack) for c in configs]
    folder = StagedFolder(out, EFG_SET_KIND, wait=wait, on_wait=on_wait)
    with folder as stage:
        for config, name in zip(configs, names):
            write_bytes(stage / name, efg_text(config, table).encode("utf-8"))
            if progress is not None:
                progress(out / name)
        structure = configs[0].as_dict()
        structure.pop("stack")
        write_manifest(stage, {"kind": EFG_SET_KIND, "sflp_version": sflp.__version__, "structure": structure,
                               "stacks": [float(c.stack) for c in configs]})
    if folder.kept and on_keep is not None:
        on_keep(folder.kept)
    return [out / name for name in names]


def _num(v: float) -> str:
    """A figure in 9 characters: 0 as ``0``, else 3 significant digits (no negative zero)."""
    if v == 0:
        return "0"
    return f"{v:.3g}" if abs(v) >= 1e-3 else f"{v:.2e}"


def _value(v: float) -> str:
    """SB's value in 8 characters: 4 decimals, or 4 significant digits when large (no negative zero)."""
    text = f"{v:.4f}" if abs(v) < 1000 else f"{v:.3g}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text


def format_scores(scores, verdicts=None, files: dict | None = None, width: int = 80) -> str:
    """The text table of a policy set's scores: one line per stack, the worst stack, the gate."""
    import textwrap

    base = scores.base
    head = (f"{len(scores.scores)} {'policy' if len(scores.scores) == 1 else 'policies'}"
            + (f" in {shown_name(str(scores.folder))}" if scores.folder else "")
            + f", scored exactly (blinds {float(base.small_blind):g}/{float(base.big_blind):g}, "
            f"ante {float(base.ante):g}, BB ante {float(base.bb_ante):g}), bb/hand")
    lines = textwrap.wrap(head, width, break_long_words=False, break_on_hyphens=False)
    if scores.skipped:
        lines += textwrap.wrap(f"not scored ({len(scores.skipped)} file(s) for stacks not asked by --stacks): "
                               + ", ".join(map(shown_name, scores.skipped[:6]))
                               + (", ..." if len(scores.skipped) > 6 else ""),
                               width, break_long_words=False, break_on_hyphens=False)
    gate = verdicts is not None
    fixed = 7 + 2 + 2 + 9 + 2 + 9 + 2 + 9 + 2 + 8 + (6 if gate else 0) + len(" <- worst")
    names = [shown_name(s.source) for s in scores.scores]
    # a name is never cut (its end or its start may be what tells two runs apart): names too long
    # for their column go on a line of their own under their row
    own_line = max(map(len, names)) > width - fixed
    name_width = 0 if own_line else max(6, max(map(len, names)))
    column = "" if own_line else f"  {'policy':<{name_width}}"
    title = (f"{'stack':>7}{column}  {'nash_conv':>9}  {'SB gain':>9}  {'BB gain':>9}  "
             f"{'value':>8}" + ("  gate" if gate else ""))
    lines += ["", title]
    worst = scores.worst
    for k, s in enumerate(scores.scores):
        row = s.row()
        mark = " <- worst" if s is worst and len(scores.scores) > 1 else ""
        cell = "" if own_line else f"  {names[k]:<{name_width}}"
        line = (f"{s.stack:>7g}{cell}  {_num(row['nash_conv']):>9}  {_num(row['sb_gain']):>9}  "
                f"{_num(row['bb_gain']):>9}  {_value(row['value_vs_each_other']):>8}"
                + (f"  {'pass' if verdicts[k].passed else 'FAIL'}" if gate else ""))
        lines.append(line + (mark if len(line) + len(mark) <= width else ""))
        if own_line:
            lines.append(f"{'':>9}{names[k]}")
    nc = float(worst.report.exact["nash_conv"])
    tail = [f"worst: {worst.stack:g} bb ({shown_name(worst.source)}), nash_conv {nc:.6g} bb/hand "
            f"({nc * 1000:.4g} mbb)"]
    if any(s.report.level != "class" for s in scores.scores):
        tail.append("levels: " + ", ".join(f"{s.stack:g} bb {s.report.level}" for s in scores.scores))
    if gate:
        failed = [s.stack for s, v in zip(scores.scores, verdicts) if not v.passed]
        checks = {f"--{c.bound.replace('_', '-')} {c.threshold:g}" for v in verdicts for c in v.checks}
        tail.append(f"gate ({', '.join(sorted(checks))}): "
                    + ("PASS at every stack" if not failed else
                       f"FAIL at {len(failed)} of {len(verdicts)} stacks: " + ", ".join(f"{s:g}" for s in failed)))
    if files:
        tail.append("Wrote " + ", ".join(str(p) for p in files.values()))
    tail.append("Each stack's hands: sflp verify --policy FILE (the file named above).")
    lines.append("")
    for line in tail:
        lines += textwrap.wrap(line, width, break_long_words=False, break_on_hyphens=False, subsequent_indent="  ")
    return "\n".join(lines)
