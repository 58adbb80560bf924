"""Inputs at the edges: huge and narrow stack ranges, huge stacks, API misuse, strategy-file
quirks, float noise, and the CLI's one-line errors (exit 2, nothing written, no traceback)."""

import json
import math
import os
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest

from sflp.cli import main
from sflp.core.cards import CLASS_NAMES
from sflp.core.game import GameConfig, check_stacks, default_stacks, min_stack
from sflp.core.ranges import parse_range
from sflp.errors import ConfigError, NotationError
from sflp.solving.solver import solve, solve_many
from sflp.solving.thresholds import compute_thresholds
from sflp.study.verify import load_strategy, verify

AA = CLASS_NAMES.index("AA")


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(code, out, err, *needles):
    assert code == 2 and out == ""
    assert err.startswith("sflp: error: ") and err.count("\n") == 1 and "Traceback" not in err, err
    for needle in needles:
        assert needle in err, err


# ---------------------------------------------------------------- thresholds over any range


def test_narrow_range_is_one_segment():
    low, high = 5.0, 5.0000000001
    th = compute_thresholds(GameConfig(stack=10), low=low, high=high)
    assert th.breakpoints == () and len(th.segments) == 1
    x, y = th.strategies_at(low)
    direct = solve(GameConfig(stack=low))  # an independent LP solve
    assert np.abs(x - direct.sb_strategy).max() < 1e-7 and np.abs(y - direct.bb_strategy).max() < 1e-7


def test_path_runs_to_a_million_bb_and_agrees_with_direct_solves():
    th = compute_thresholds(GameConfig(stack=10), low=1, high=1e6)
    short = compute_thresholds(GameConfig(stack=10), low=1, high=200)
    # the same breakpoints below 200 bb as a path computed over 1-200 alone (to 1e-9 bb)
    below = [b for b in th.breakpoints if b < 200 - 1e-6]
    assert len(below) == len(short.breakpoints)
    assert np.abs(np.array(below) - np.array(short.breakpoints)).max() < 1e-9
    for stack in (12.2223541714, 150.0, 500.0, 900.0, 5e5):
        x, y = th.strategies_at(stack)
        direct = solve(GameConfig(stack=stack))
        assert np.abs(x - direct.sb_strategy).max() < 1e-7, stack
        assert np.abs(y - direct.bb_strategy).max() < 1e-7, stack
    # beyond the last breakpoint only AA is shoved and called
    x, y = th.strategies_at(1e6)
    assert set(np.flatnonzero(x)) == {AA} and set(np.flatnonzero(y)) == {AA}
    assert th.get("sb", "AA").label() == "1e+06+" and th.get("sb", "KK").capped is False


def _aa_only_value() -> float:
    """SB's value when both play AA only (no antes), from the rules alone: SB folds (-0.5) unless
    dealt AA (6 of 1,326 combos); then BB holds the last AA in 1 of 1,225 combos, and AA vs AA
    all-in is worth 0 by symmetry; otherwise BB folds (+1)."""
    p_aa = Fraction(6, 1326)
    return float((1 - p_aa) * Fraction(-1, 2) + p_aa * Fraction(1224, 1225))


@pytest.mark.parametrize("stack", [1e9, 1e15, 1e300])
def test_huge_stacks_solve_to_aa_only(stack):
    s = solve(GameConfig(stack=stack))
    assert set(np.flatnonzero(s.sb_strategy)) == {AA} and set(np.flatnonzero(s.bb_strategy)) == {AA}
    assert s.value == pytest.approx(_aa_only_value(), abs=1e-12)
    assert 0 <= s.exploitability <= 1e-9
    assert s.push_pct == pytest.approx(100 * 6 / 1326, abs=1e-12)


def test_huge_stack_certificate_is_the_rules_value():
    p_aa = Fraction(6, 1326)
    s = solve(GameConfig(stack=1e15), exact=True)
    assert s.certified and s.value_exact == (1 - p_aa) * Fraction(-1, 2) + p_aa * Fraction(1224, 1225)


def test_cli_huge_stack(capsys):
    code, out, _ = run(capsys, "solve", "--stack", "1e15", "--json")
    assert code == 0
    d = json.loads(out)
    assert d["sb_strategy"]["AA"] == 1.0 and sum(d["sb_strategy"].values()) == 1.0
    assert d["value"] == pytest.approx(_aa_only_value(), abs=1e-12)


# ---------------------------------------------------------------- API misuse


@pytest.mark.parametrize(
    "call, needle",
    [
        (lambda: solve(10), "takes a GameConfig"),
        (lambda: solve_many("5,10"), "list of numbers"),
        (lambda: solve_many([5, None]), "not a number"),
        (lambda: solve_many([5, 10], config=10), "takes a GameConfig"),
        (lambda: GameConfig(stack=10**400), "too large"),
        (lambda: GameConfig(stack="10"), "not a number"),
        (lambda: GameConfig(stack=Decimal("NaN")), "finite"),
    ],
)
def test_api_misuse_raises_sflp_errors(call, needle):
    with pytest.raises(ConfigError, match=needle):
        call()


def test_write_chart_set_misuse(tmp_path):
    from sflp.charts.chartset import write_chart_set

    with pytest.raises(ConfigError, match="not a Solution"):
        write_chart_set([1, 2, 3], None, tmp_path / "out")
    with pytest.raises(ConfigError, match="list of Solution"):
        write_chart_set("abc", None, tmp_path / "out")
    s = solve(GameConfig(stack=5))
    with pytest.raises(ConfigError, match="thresholds"):
        write_chart_set([s], "not thresholds", tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_decimal_stacks_are_accepted():
    a = solve(GameConfig(stack=Decimal("10.5"), ante=Decimal("0.1")))
    b = solve(GameConfig(stack=10.5, ante=0.1))
    assert a.value == pytest.approx(b.value, abs=1e-12)
    (c,) = solve_many([Decimal("10.5")], GameConfig(stack=10.5, ante=0.1))
    assert c.value == pytest.approx(b.value, abs=1e-12)


# ---------------------------------------------------------------- float noise


def test_no_negative_zero_or_negative_noise():
    for level in ("class", "combo"):
        s = solve(GameConfig(stack=10), level=level)
        assert s.exploitability >= 0
        for arr in (s.sb_strategy, s.bb_strategy):
            assert not np.signbit(arr).any() and arr.min() >= 0 and arr.max() <= 1
    # at 1 bb both players are all in with everything: random vs random all-in is worth exactly 0
    # by symmetry (the README's game section), so the value must be a clean 0.0
    one = solve(GameConfig(stack=1))
    assert one.value == 0.0 and math.copysign(1.0, one.value) == 1.0
    assert one.push_pct == pytest.approx(100.0) and one.call_pct == pytest.approx(100.0)


def test_json_and_text_show_no_noise(capsys):
    code, out, _ = run(capsys, "solve", "--stack", "10", "--json")
    assert code == 0 and "-0.0," not in out and "-0.0}" not in out
    code, out, _ = run(capsys, "solve", "--stack", "10", "--combos")
    line = next(l for l in out.splitlines() if l.startswith("Exploitability"))
    assert "-" not in line.split(":")[1]


def test_values_csv_at_one_bb(tmp_path, capsys):
    code, _, _ = run(capsys, "chart", "--stacks", "1,2", "--formats", "csv", "--out", str(tmp_path / "c"), "--json")
    assert code == 0
    lines = (tmp_path / "c" / "values.csv").read_text().splitlines()
    value = lines[1].split(",")[1]
    assert float(value) == 0.0 and not value.startswith("-")


# ---------------------------------------------------------------- stacks and antes


def test_min_stack_and_default_stacks():
    assert min_stack(1, 0.125, 0) == 1.125 and GameConfig(stack=5, bb_ante=1).min_stack == 2.0
    grid = default_stacks()
    assert grid[0] == 1.0 and grid[-1] == 25.0 and len(grid) == 481  # 1:25:0.05
    ante = default_stacks(ante=0.125)
    assert ante[0] == 1.125 and ante[1] == pytest.approx(1.15) and ante[-1] == 25.0
    for s in ante:
        GameConfig(stack=s, ante=0.125)  # each one valid
    assert default_stacks(bb_ante=1)[:2] == [2.0, pytest.approx(2.05)]
    with pytest.raises(ConfigError, match="start at 1.125 bb"):
        check_stacks([1.0, 2.0], GameConfig(stack=5, ante=0.125))


def test_chart_bad_explicit_range_suggests_a_start(capsys, tmp_path):
    out_dir = tmp_path / "c"
    # every stack below 2 bb (a grid that reaches 2 bb starts there, as sflp atlas does: tests/test_cli_edges.py)
    code, out, err = run(capsys, "chart", "--stacks", "1:1.5:0.5", "--bb-ante", "1", "--out", str(out_dir))
    one_line_error(code, out, err, "stack 1 bb cannot cover", "start at 2 bb", "--stacks 2:25:0.05")
    assert not out_dir.exists()


@pytest.mark.slow
def test_chart_default_range_with_antes(capsys, tmp_path):
    for flags, start in ((["--ante", "0.125"], 1.125), (["--bb-ante", "1"], 2.0)):
        code, out, _ = run(capsys, "chart", *flags, "--out", str(tmp_path / str(start)), "--json")
        assert code == 0
        d = json.loads(out)
        assert d["low"] == start and d["high"] == 25.0 and "first stack that covers" in d["note"]
    code, out, _ = run(capsys, "chart", "--ante", "0.125", "--out", str(tmp_path / "text"))
    assert code == 0 and out.startswith("Note: ") and "1.125" in out.splitlines()[0]


def test_chart_narrow_and_wide_ranges(capsys, tmp_path):
    code, out, _ = run(capsys, "chart", "--stacks", "5,5.0000000001", "--out", str(tmp_path / "n"), "--json")
    assert code == 0 and json.loads(out)["breakpoints"] == 0
    code, out, _ = run(capsys, "chart", "--stacks", "1,1000000", "--out", str(tmp_path / "w"), "--json")
    assert code == 0 and json.loads(out)["high"] == 1e6 and json.loads(out)["breakpoints"] > 500


# ---------------------------------------------------------------- strategy specs


def test_comment_with_comma_does_not_pick_the_separator(tmp_path):
    path = tmp_path / "chart.txt"
    path.write_text("# my chart, v2\nAA 1\nKK 0.5\n")
    spec = load_strategy(str(path), "sb")
    assert spec.class_freq[AA] == 1.0 and spec.class_freq[CLASS_NAMES.index("KK")] == 0.5
    tabbed = tmp_path / "tabbed.tsv"
    tabbed.write_text("# a, b, c\nAA\t1\n")
    assert load_strategy(str(tabbed), "sb").class_freq[AA] == 1.0


@pytest.mark.parametrize("spec", ["", "   ", "range:", "file:"])
def test_empty_spec_is_an_error(spec):
    with pytest.raises(ConfigError):
        load_strategy(spec, "sb")


def test_file_named_like_a_range(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "AA").write_text("KK,1\n")  # a file called AA holding KK
    kk = CLASS_NAMES.index("KK")
    bare = load_strategy("AA", "sb")
    assert bare.kind == "class-list" and bare.class_freq[kk] == 1 and "range:AA" in bare.note
    as_range = load_strategy("range:AA", "sb")
    assert as_range.kind == "range" and as_range.class_freq[AA] == 1 and as_range.class_freq[kk] == 0
    as_file = load_strategy("file:AA", "sb")
    assert as_file.kind == "class-list" and as_file.note == ""
    with pytest.raises(NotationError, match="no such file"):
        load_strategy("file:QQ", "sb")
    report = verify(GameConfig(stack=10), bare, load_strategy("range:AA", "bb"))
    assert report.sources == {"sb": "file 'AA' (class-list)", "bb": "range 'AA'"}
    assert "range:AA" in report.to_dict()["notes"]["sb"]


def test_cli_verify_validates_arguments_first(capsys, tmp_path, monkeypatch):
    import sflp.study.verify

    def boom(*a, **kw):
        raise AssertionError("no work before the arguments are checked")

    monkeypatch.setattr(sflp.study.verify, "verify", boom)
    for bad in ("nan", "inf", "-1"):
        code, out, err = run(capsys, "verify", "--stack", "10", "--sb", "22+", "--max-exploitability", bad)
        one_line_error(code, out, err, "--max-exploitability")
    code, out, err = run(capsys, "verify", "--stack", "10", "--sb", "")
    one_line_error(code, out, err, "SB strategy is empty")


def test_cli_verify_says_what_it_read(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "AA").write_text("AA,1\n")
    code, out, _ = run(capsys, "verify", "--stack", "10", "--sb", "AA")
    assert code == 0 and "file 'AA'" in out and "range:AA" in out
    code, out, _ = run(capsys, "verify", "--stack", "10", "--sb", "range:AA", "--json")
    assert code == 0 and json.loads(out)["sources"]["sb"] == "range 'AA'"


# ---------------------------------------------------------------- messages and output errors


def test_range_messages():
    # '22-' is valid since issue 10 ('JJ-' = JJ down to 22, so '22-' = 22); a leading dash is not
    assert str(parse_range("22-")) == "22"
    with pytest.raises(NotationError, match="needs a hand on both sides"):
        parse_range("-22")
    with pytest.raises(NotationError, match=r"weight '-0.5' is outside \[0, 1\]"):
        parse_range("AK:-0.5")
    with pytest.raises(NotationError, match="not a decimal number"):
        parse_range("AK:abc")


@pytest.mark.parametrize(
    "argv, needle",
    [
        (["solve"], "the following arguments are required: --stack"),
        (["solve", "--stack", "abc"], "'abc' is not a number"),
        (["nosuch"], "invalid choice"),
        (["chart", "--bogus"], "unrecognized arguments: --bogus"),
    ],
)
def test_argparse_errors_are_one_line(capsys, argv, needle):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    out, err = capsys.readouterr()
    assert exc.value.code == 2 and out == ""
    assert err.startswith("sflp: error: ") and err.count("\n") == 1 and needle in err, err


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_stdout_write_error_is_one_line():
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    env = {**os.environ, "PYTHONPATH": str(root)}
    for args in (["solve", "--stack", "10", "--json"], ["equity", "AA", "KK"]):
        with open("/dev/full", "w") as full:
            proc = subprocess.run([sys.executable, "-m", "sflp", *args], stdout=full, stderr=subprocess.PIPE,
                                  text=True, env=env, cwd=root)
        assert proc.returncode == 2
        assert proc.stderr == "sflp: error: cannot write to standard output: No space left on device\n", proc.stderr
