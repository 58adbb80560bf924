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
        (["solve", "--stack", "0.5"], "--stack 0.5 cannot cover"),
        (["solve", "--stack", "10", "--small-blind", "2"], "--small-blind 2 is larger than --big-blind 1"),
        (["solve", "--stack", "nan"], "--stack nan must be finite"),
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


# ---------------------------------------------------------------- numbers on the command line: plain ASCII only

NOT_PLAIN = ["1_0", "\uff11", "\u0661", " 1", "1 ", "0x10", "1/2", "1e", ".", "1,5", "+-1", "\uff11\uff10"]
"""What Python's float / int / Fraction take but a typed number is not: underscores (``1_0`` is
ten), full-width and Arabic-Indic digits, whitespace, hex, ``p/q``; and plain typos."""


@pytest.mark.parametrize("text", NOT_PLAIN)
@pytest.mark.parametrize("argv", [
    ["solve", "--stack", "{}"], ["solve", "--stack", "10", "--small-blind", "{}"],
    ["solve", "--stack", "10", "--big-blind", "{}"], ["solve", "--stack", "10", "--ante", "{}"],
    ["sc", "--bb-ante", "{}"], ["verify", "--stack", "10", "--sb", "30%", "--max-exploitability", "{}"],
    ["approx", "cfr+", "--stack", "10", "--seconds", "{}"], ["approx", "cfr+", "--stack", "10", "--iterations", "{}"],
    ["simulate", "--stack", "10", "--hands", "{}"], ["simulate", "--stack", "10", "--seed", "{}"],
    ["compare", "nash", "nash", "--top", "{}"],
], ids=lambda argv: argv[-2])
def test_a_numeric_option_takes_plain_ascii_digits_only(capsys, argv, text):
    argv = [a.replace("{}", text) for a in argv]
    with pytest.raises(SystemExit) as info:
        main(argv)
    err = capsys.readouterr().err
    assert info.value.code == 2 and err.count("\n") == 1, err
    assert f"{argv[-2]} {text!r} is not a" in err, err


@pytest.mark.parametrize("argv, needle", [
    (["chart", "--stacks", "1_0,20"], "--stacks '1_0,20' is not START:STOP:STEP"),
    (["chart", "--stacks", "1:2_0:1"], "--stacks '1:2_0:1' is not START:STOP:STEP"),
    (["chart", "--stacks", "\uff11,2"], "--stacks '\uff11,2' is not START:STOP:STEP"),
    (["chart", "--stacks", "1/2,1"], "--stacks '1/2,1' is not START:STOP:STEP"),
    (["chart", "--stacks", "1:3:1", "--grid-stacks", "1_0"], "--grid-stacks '1_0'"),
    (["exploit", "--stacks", "1_0,20", "--bb", "30%"], "--stacks '1_0,20'"),
    (["approx-bench", "--stacks", "1_0"], "--stacks '1_0'"),
    (["compare", "nash", "ante=1_0"], "ante='1_0' in 'ante=1_0' is not a number"),
    (["compare", "nash", "ante=0.1", "--stacks", "5:1_0"], "--stacks '5:1_0': compare needs LOW:HIGH"),
], ids=lambda x: x if isinstance(x, str) else " ".join(x))
def test_stack_lists_and_compare_configurations_take_plain_ascii_digits_only(capsys, tmp_path, argv, needle):
    code = main([*argv, "--out", str(tmp_path / "out")] if argv[0] != "approx-bench" else argv)
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and needle in err, err
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("text, value", [("10", 10.0), ("+10", 10.0), ("-1", -1.0), ("0.125", 0.125), (".5", 0.5),
                                         ("5.", 5.0), ("1e-6", 1e-6), ("1E+6", 1e6), ("007", 7.0)])
def test_plain_numbers_are_read_as_float_reads_them(text, value):
    from sflp.checks import parse_number
    from sflp.cli.options import number, whole

    assert number("--ante")(text) == value == parse_number(text, "x")
    if text.lstrip("+-").isdigit():
        assert whole("--seed", low=-10)(text) == int(value)
    if value > 0:
        assert parse_stacks(f"{text},20") == sorted({value, 20.0})


def test_inf_and_nan_still_reach_the_options_own_check(capsys):
    with pytest.raises(SystemExit):
        main(["solve", "--stack", "10", "--ante", "1e400"])
    assert "--ante '1e400' is too large for a float" in capsys.readouterr().err
    assert main(["solve", "--stack", "nan"]) == 2
    assert "--stack nan must be finite" in capsys.readouterr().err


# ---------------------------------------------------------------- the command line's own words (issue 32 §8)


def test_help_lists_every_medium_of_chart(capsys):
    from sflp.cli import build_parser

    text = " ".join(build_parser().format_help().split())
    assert "write a chart set: CSV, xlsx, PNG, SVG, HTML and PDF" in text


@pytest.mark.parametrize("argv, message", [
    # the type's message names the option; argparse's "argument --stack:" no longer repeats it
    (["solve", "--stack", "ten"], "sflp: error: --stack 'ten' is not a number (write plain digits, such as 10, "
                                  "0.125 or 1e-6) (see `sflp solve --help`)"),
    # a number without its option: what a person needs is the option
    (["solve", "10"], "sflp: error: 10 alone is not an option: did you mean `--stack 10`? (see `sflp solve --help`)"),
    (["exploit", "10", "--bb", "30%"], "sflp: error: 10 alone is not an option: did you mean `--stack 10`? "
                                       "(see `sflp exploit --help`)"),
    (["solve", "--combos", "7.5"], "sflp: error: 7.5 alone is not an option: did you mean `--stack 7.5`? "
                                   "(see `sflp solve --help`)"),
    # the library's ConfigError says stack=0.5; the command line names the option as typed
    (["solve", "--stack", "0.5"], "sflp: error: --stack 0.5 cannot cover the big blind and antes (1 in all): "
                                  "the smallest stack is 1"),
    (["solve", "--stack=-3"], "sflp: error: --stack -3 must be positive"),
    (["solve", "--stack", "10", "--ante=-1e0"], "sflp: error: --ante -1e0 must be at least 0"),
    # sc and chart derive their first stack from the blinds: the blinds are checked first
    (["sc", "--big-blind", "0"], "sflp: error: --big-blind 0 must be positive"),
    (["chart", "--big-blind", "-1", "--stacks", "2,3"], "sflp: error: --big-blind -1 must be positive"),
    # a bare number as a strategy: one short line, not the range grammar
    (["exploit", "--stack", "10", "--bb", "30"], "sflp: error: --bb 30 is not a strategy: did you mean `--bb 30%` "
                                                 "(the top 30% of hands)? allowed: a range ('22+,A2s+'), a top "
                                                 "percentage ('30%'), 'random', or a CSV/grid/JSON file"),
])
def test_error_messages_speak_the_command_lines_words(capsys, argv, message):
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's own errors leave through parser.exit
        code = exc.code
    out, err = capsys.readouterr()
    assert (code, out, err) == (2, "", message + "\n")
    option = argv[0] != "solve" or "--stack" not in err or err.count("--stack") == 1
    assert option and "stack=" not in err


def test_a_bad_range_as_a_strategy_is_one_short_line(capsys):
    code, _, err = run(capsys, "verify", "--stack", "10", "--sb", "AKx", "--bb", "30%")
    assert code == 2 and err.count("\n") == 1 and len(err) < 200
    assert err.startswith("sflp: error: --sb 'AKx' is not a strategy") and "bad suffix 'x'" in err


def test_the_library_keeps_its_own_words():
    """Library users see the field names of GameConfig (the CLI translates only at its boundary)."""
    from sflp.core.game import GameConfig

    with pytest.raises(ConfigError, match=r"^stack=0\.5 cannot cover"):
        GameConfig(stack=0.5)


def test_chart_summary_times_solving_and_writing_apart_and_counts_in_english():
    """'Solved 481 stacks ... in 28.9 s' counted the writing of files as solving; '1 LP solves'."""
    from sflp.views.text import format_chart_summary

    summary = {"stacks": 481, "low": 1.0, "high": 25.0, "lp_solves": 1, "max_exploitability": 0.0,
               "seconds": 28.9, "solve_seconds": 3.4, "files": ["a"], "out_dir": "out"}
    lines = format_chart_summary(summary, None, width=80).splitlines()
    assert lines[0] == "Solved 481 stacks from 1 to 25 bb in 3.4 s (1 LP solve, max exploitability 0 bb)"
    assert lines[-1] == "Wrote 1 file to out/ in 25.5 s"
    two = format_chart_summary({**summary, "lp_solves": 2, "stacks": 1, "files": ["a", "b"]}, None)
    assert "Solved 1 stack from" in two and "(2 LP solves," in two and "Wrote 2 files to out/" in two
    # a deep or fractional chart's line (81 characters) wraps at the width like every other line
    deep = format_chart_summary({**summary, "stacks": 399, "high": 200.0}, None, width=80).splitlines()
    assert deep[:2] == ["Solved 399 stacks from 1 to 200 bb in 3.4 s", "  (1 LP solve, max exploitability 0 bb)"]


def test_the_tours_output_folders_stay_untracked():
    """README's tour writes --out reports/ante; a clone must not show it (nor the docs' other
    folders) as untracked, and no committed file of reports/ is ignored."""
    import shutil
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    git = shutil.which("git")
    if git is None or not (root / ".git").exists():
        pytest.skip("not a git checkout (or no git on PATH)")
    paths = ["reports/ante/chart.pdf", "reports/s10/values.csv", "reports/compare/compare.csv",
             "reports/approx-bench/approx_bench.csv", "reports/pushfold_10bb.efg"]
    proc = subprocess.run([git, "check-ignore", "--no-index", *paths], cwd=root, capture_output=True, text=True)
    assert proc.stdout.split() == paths
    tracked = subprocess.run([git, "ls-files", "-ci", "--exclude-standard", "reports"], cwd=root,
                             capture_output=True, text=True)
    assert tracked.returncode == 0 and tracked.stdout == ""
