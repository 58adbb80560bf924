"""The command line: output shapes, exit codes, one-line errors without tracebacks."""

import json
import subprocess
import sys

import pytest

from sflp.checks import parse_stacks
from sflp.cli import main
from sflp.errors import ConfigError


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_equity_json(capsys):
    code, out, _ = run(capsys, "equity", "AdAc", "KhKs", "--json")
    assert code == 0
    # GNU poker-eval enumeration of AdAc vs KhKs
    assert json.loads(out) == {
        "hand1": "AdAc", "hand2": "KhKs", "wins": 1388072, "ties": 6538, "losses": 317694,
        "boards": 1712304, "pairs": 1, "equity": pytest.approx((1388072 + 6538 / 2) / 1712304, abs=1e-15),
    }


def test_equity_text_and_classes(capsys):
    code, out, _ = run(capsys, "equity", "AA", "KK")
    assert code == 0 and "36 disjoint combo pair" in out and "equity 0.8194" in out


@pytest.mark.parametrize(
    "argv, needle",
    [
        (["equity", "AhAd", "AhKs"], "share cards"),
        (["equity", "AAo", "KK"], "'AAo'"),
        (["equity", "AA"], "two hands"),
        (["solve", "--stack", "0.5"], "stack=0.5"),
        (["solve", "--stack", "10", "--small-blind", "2"], "small_blind"),
        (["solve", "--stack", "nan"], "stack=nan"),
        (["chart", "--stacks", "1:0:0.1"], "1:0:0.1"),
        (["chart", "--stacks", "abc"], "abc"),
    ],
)
def test_errors_are_one_line_exit_2(capsys, argv, needle):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("sflp: error:") and needle in err
    assert "Traceback" not in err and out == ""


def test_solve_json_shape(capsys):
    code, out, _ = run(capsys, "solve", "--stack", "10", "--json")
    obj = json.loads(out)
    assert code == 0
    for key in ("stack", "small_blind", "big_blind", "ante", "bb_ante", "value", "value_exact", "push_pct",
                "call_pct", "exploitability", "sb_strategy", "bb_strategy", "sb_ev", "bb_ev"):
        assert key in obj
    assert len(obj["sb_strategy"]) == 169 and len(obj["bb_ev"]) == 169
    assert 0 <= obj["push_pct"] <= 100
    # every CLI answer is certified: the value is the exact fraction rounded once, and the
    # published exploitability is the proven 0 (not float noise)
    from fractions import Fraction

    assert obj["value"] == float(Fraction(obj["value_exact"])) and obj["exploitability"] == 0.0


def test_solve_text(capsys):
    code, out, _ = run(capsys, "solve", "--stack", "10", "--no-color")
    assert code == 0 and "SB push range:" in out and "BB call range:" in out and "Mixed hands" in out


@pytest.mark.parametrize("text", ["1:0:0.1", "abc", "-1,2", "1:5:0", "1:5", "0,5", "1:2:-1", ""])
def test_bad_stacks(text):
    with pytest.raises(ConfigError):
        parse_stacks(text)


@pytest.mark.parametrize("text, reason", [("1:5:0", "step must be positive"), ("5:1:0.5", "stop must not be below"),
                                          ("-1,2", "positive"), ("1:2:x", "START:STOP:STEP")])
def test_bad_stacks_say_why(text, reason):
    with pytest.raises(ConfigError, match=reason):
        parse_stacks(text)


def test_stacks_grid_is_exact():
    stacks = parse_stacks("1:25:0.05")
    assert len(stacks) == 481 and stacks[0] == 1 and stacks[-1] == 25 and stacks[1] == 1.05


def test_console_script_runs_in_a_fresh_process():
    proc = subprocess.run([sys.executable, "-m", "sflp.cli", "solve", "--stack", "oops"],
                          capture_output=True, text=True)
    assert proc.returncode == 2 and "--stack 'oops' is not a number" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_solve_exact_json(capsys):
    from fractions import Fraction

    code, out, _ = run(capsys, "solve", "--stack", "10", "--exact", "--json")
    obj = json.loads(out)
    assert code == 0 and obj["certified"] is True
    exact = Fraction(obj["value_exact"])
    assert abs(float(exact) - obj["value"]) < 1e-12
    # the certified mixed frequencies are exact fractions strictly between 0 and 1
    mixed = {h: Fraction(v) for h, v in obj["sb_strategy_exact"].items() if 0 < Fraction(v) < 1}
    assert mixed and all(abs(float(v) - obj["sb_strategy"][h]) < 1e-12 for h, v in mixed.items())


def test_chart_grid_csv_round_trips_through_verify(tmp_path, capsys):
    # `sflp chart` writes 13x13 grid CSVs; `sflp verify` reads them back; the exact equilibrium
    # it wrote must score as (numerically) unexploitable
    out = tmp_path / "chart"
    code, text, _ = run(capsys, "chart", "--stacks", "5,10", "--out", str(out), "--json")
    assert code == 0
    files = json.loads(text)["files"]
    for name in ("values.csv", "ranges.csv", "thresholds.csv", "chart.xlsx", "sb_push.png", "bb_call.png",
                 "value_by_stack.png", "sb_push_10bb.csv", "bb_call_10bb.csv"):
        assert name in files
    code, text, _ = run(capsys, "verify", "--stack", "10", "--sb", files["sb_push_10bb.csv"],
                        "--bb", files["bb_call_10bb.csv"], "--json", "--max-exploitability", "1e-9")
    report = json.loads(text)
    assert code == 0 and report["total_exploitability"] <= 1e-9 and report["missing"] == {"sb": [], "bb": []}
    code, _, _ = run(capsys, "verify", "--stack", "10", "--sb", "22+", "--max-exploitability", "0.001")
    assert code == 1  # "push only pairs" is far more exploitable than 1 mbb/hand


def test_out_that_is_a_file_is_a_clear_error(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    code, _, err = run(capsys, "chart", "--stacks", "2,5", "--out", str(blocker))
    assert code == 2 and str(blocker) in err and err.count("\n") == 1
    code, _, err = run(capsys, "solve", "--stack", "10", "--out", str(blocker / "sub"))
    assert code == 2 and "Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]
