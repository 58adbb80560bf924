"""Issue 52, point 4: CSV formula injection.  Text that can come from a user (policy file names in
``verify_stacks.csv`` and ``curves.csv``, the Tracker's ``source=``, approx-bench's method names)
reaches every CSV through one rule, :func:`sflp.output.clean.csv_field`: a text field starting
with = + - @ TAB or CR that is not a number gets a single quote in front.

Reference: OWASP, "CSV Injection" (https://owasp.org/www-community/attacks/CSV_Injection): the
formula characters = + - @ TAB CR, and the advice to prefix such a field with a single quote.
Numbers (negative ones too) must stay byte for byte what they were.
"""

from __future__ import annotations

import ast
import csv
import io
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import sflp
from sflp.cli.main import main
from sflp.core.game import GameConfig
from sflp.errors import ConfigError
from sflp.openspiel import from_strategy
from sflp.output.clean import FORMULA_START, csv_field

EVIL = ("=HYPERLINK(\"http://x\",\"y\")", "@SUM(1+1)cmd", "+1+cmd|' /C calc'!A0", "-2+3+cmd", "\tTAB=1",
        "\r=CR")
"""Formula texts (OWASP's examples and each formula character)."""
SFLP = Path(sflp.__file__).parent


def is_number(cell: str) -> bool:
    from fractions import Fraction

    try:
        float(cell) if "/" not in cell else Fraction(cell)
        return True
    except (ValueError, ZeroDivisionError):
        return cell in ("-", "+")


def assert_no_formula(text: str, where: str) -> None:
    for k, row in enumerate(csv.reader(io.StringIO(text))):
        for cell in row:
            assert not cell.startswith(FORMULA_START) or is_number(cell), f"{where} line {k + 1}: {cell!r}"


def test_the_rule_escapes_formulas_and_keeps_numbers():
    for text in EVIL:
        field = csv_field(text)
        assert field.lstrip('"').startswith("'"), field
        assert next(csv.reader(io.StringIO(field))) == ["'" + text]  # the text itself, after its quote
    for number in ("-0.5", "-1e-07", "+3", "-inf", "-3/7", "-", "0.25", "AKs", "25+", "7.1*"):
        assert csv_field(number) == number


def test_csv_bytes_escapes_text_cells_only():
    from sflp.charts.media.csv import csv_bytes

    frame = pd.DataFrame({"name": list(EVIL), "x": [-0.5, -1e-7, 0.0, -2.0, 1.5, -3.25],
                          "n": [-1, 2, -3, 4, -5, 6], "exact": ["-1/2", "-1/10000000", "0/1", "-2/1", "3/2", "-13/4"]})
    data = csv_bytes(frame, ("name", "x", "n", "exact")).decode()
    assert_no_formula(data, "csv_bytes")
    rows = list(csv.reader(io.StringIO(data)))[1:]
    assert [r[0] for r in rows] == ["'" + t for t in EVIL]
    assert [r[1:] for r in rows] == [[repr(x), str(n), e] for x, n, e in zip(frame.x, frame.n, frame.exact)]


def policy(stack: float, k: int) -> dict:
    """A policy that names its game (so any file name will do): push and call k/10 of the time."""
    return from_strategy(np.full(169, k / 10), np.full(169, 1 - k / 10), config=GameConfig(stack=stack))


def test_policy_file_names_reach_verify_stacks_csv_inert(tmp_path, capsys):
    folder = tmp_path / "policies"
    folder.mkdir()
    names = ["=HYPERLINK(x).json", "@SUM(1+1)cmd.json", "+cmd.json", "-2+3.json"]
    for k, name in enumerate(names):
        (folder / name).write_text(json.dumps(policy(3 + k, 5)))
    assert main(["verify", "--policy-dir", str(folder), "--out", str(tmp_path / "scores")]) == 0, capsys.readouterr()
    text = (tmp_path / "scores" / "verify_stacks.csv").read_text()
    assert_no_formula(text, "verify_stacks.csv")
    assert sorted(r["policy"] for r in csv.DictReader(io.StringIO(text))) == sorted("'" + n for n in names)
    # a solver's iterates: their names reach curves.csv
    iterates = tmp_path / "iterates"
    iterates.mkdir()
    for k in (1, 2):
        (iterates / f"=cmd_3bb_it{k}.json").write_text(json.dumps(policy(3, k)))
    assert main(["verify", "--policy-dir", str(iterates), "--out", str(tmp_path / "curve")]) == 0
    for name in ("curves.csv", "verify_stacks.csv"):
        text = (tmp_path / "curve" / name).read_text()
        assert_no_formula(text, name)
        assert "'=cmd_3bb_it2.json" in text


def test_the_trackers_source_reaches_curves_csv_inert(tmp_path):
    # a source with a control character (the tab and CR formulas) is refused by the Tracker itself
    # (tests/test_tracker_resume.py); the printable formulas are written, inert
    printable = [t for t in EVIL if t.isprintable()]
    assert len(printable) == len(EVIL) - 2
    with sflp.Tracker(GameConfig(stack=3), tmp_path / "t") as tracker:
        for k, source in enumerate(printable, 1):
            tracker.record(k, policy(3, k % 10), source=source)
        for source in set(EVIL) - set(printable):
            with pytest.raises(ConfigError, match="control character"):
                tracker.record(99, policy(3, 1), source=source)
    text = (tmp_path / "t" / "curves.csv").read_bytes().decode()
    assert_no_formula(text, "curves.csv")
    assert [r["policy"] for r in csv.DictReader(io.StringIO(text))] == ["'" + t for t in printable]
    assert len(sflp.Tracker(GameConfig(stack=3), tmp_path / "t").rows) == len(printable)


def test_approx_bench_method_names_reach_its_csv_inert():
    from sflp.approx.bench import ROW_FIELDS
    from sflp.views.bench_files import csv_text

    rows = [{k: (name if k == "method" else 1 if k == "iteration" else -0.5) for k in ROW_FIELDS} for name in EVIL]
    text = csv_text(rows)
    assert_no_formula(text, "approx_bench.csv")
    assert [r["method"] for r in csv.DictReader(io.StringIO(text))] == ["'" + t for t in EVIL]
    assert text.count(",-0.5") == len(EVIL) * (len(ROW_FIELDS) - 2)  # the numbers as they were


def _csv_writing(tree: ast.AST) -> tuple[set[str], bool]:
    """One walk over a module: its CSV-writing calls (``x.to_csv(...)``, ``x.writerow(s)(...)``,
    ``csv.writer``, ``csv.DictWriter``, and those names imported from ``csv``), and whether it holds
    the constant ``'""'`` (a field's quotes doubled: quoting a CSV field by hand)."""
    nodes = list(ast.walk(tree))
    from_csv = {a.asname or a.name for n in nodes if isinstance(n, ast.ImportFrom) and n.module == "csv"
                for a in n.names if a.name in ("writer", "DictWriter")}
    calls, doubling = set(), False
    for node in nodes:
        if isinstance(node, ast.Constant) and node.value == '""':
            doubling = True
        elif isinstance(node, ast.Call):
            f = node.func
            if isinstance(f, ast.Attribute) and (f.attr in ("to_csv", "writerow", "writerows") or (
                    f.attr in ("writer", "DictWriter") and isinstance(f.value, ast.Name) and f.value.id == "csv")):
                calls.add(f.attr)
            elif isinstance(f, ast.Name) and f.id in from_csv:
                calls.add(f.id)
    return calls, doubling


def test_every_csv_writer_goes_through_the_one_rule():
    """No module writes CSV with pandas' ``to_csv`` or the ``csv`` module's writers (which know no
    formula rule), and the RFC 4180 quoting of a field (doubling its quotes) is written once, in
    :func:`csv_field`: a CSV writer that quotes a text can only do it through the rule."""
    import sflp.charts.text

    assert sflp.charts.text.quote is csv_field
    for path in sorted(SFLP.rglob("*.py")):
        calls, doubling = _csv_writing(ast.parse(path.read_text(encoding="utf-8")))
        where = path.relative_to(SFLP)
        assert not calls, f"{where} calls {sorted(calls)}: write CSV through sflp.output.clean.csv_field"
        assert not doubling or path == SFLP / "output" / "clean.py", \
            f"{where} quotes CSV fields itself: use sflp.output.clean.csv_field"
