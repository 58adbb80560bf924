"""Issue 52, point 6: the command line's smaller edges.

* a number that is not zero as typed but underflows to 0.0 (``--ante 1e-400``) is refused, not
  read as no ante;
* a negative number argparse would take for an option (``--stack -inf``, ``--stack -1e3``)
  reaches sflp's own check of the option, which names it and says what is allowed;
* Ctrl-C while the commands' modules are imported (before the command's signal handlers are set)
  ends with one line and exit 130, no traceback.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from sflp.cli.main import main

ROOT = Path(__file__).resolve().parent.parent


def run(capsys, *argv):
    try:
        code = main([str(a) for a in argv])
    except SystemExit as exc:  # argparse's own errors
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("argv", [
    ("solve", "--stack", "10", "--ante", "1e-400"),
    ("solve", "--stack", "10", "--ante", "0.0000001e-400"),
    ("solve", "--stack", "1e-400"),
])
def test_a_number_that_underflows_to_zero_is_refused(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "too small for a float" in err and repr(argv[-1]) in err, err
    assert "Traceback" not in err


def test_zero_written_any_way_is_still_zero(capsys):
    code, out, err = run(capsys, "solve", "--stack", "3", "--ante", "0e-400", "--json")
    assert code == 0, err


@pytest.mark.parametrize("text", ["-inf", "-1e3", "-Infinity", "-nan"])
def test_a_negative_number_reaches_sflps_check_of_the_option(capsys, text):
    code, out, err = run(capsys, "solve", "--stack", text)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "expected one argument" not in err, err
    assert "--stack" in err and ("positive" in err or "finite" in err or "not a number" in err), err


_BLOCKING_IMPORT = textwrap.dedent('''
    """Test-only (tests/test_cli_edges.py): when sflp's command modules are imported, say so on
    stderr and wait, so that the test's SIGINT lands inside that import, as a Ctrl-C in the first
    seconds of a run does.  Nothing else is changed: the import then goes on as usual."""
    import os
    import sys
    import time


    class _Block:
        def find_spec(self, name, path=None, target=None):
            if name == os.environ["SFLP_TEST_BLOCK_IMPORT"]:
                sys.meta_path.remove(self)
                os.write(2, b"ready\\n")
                time.sleep(60)
            return None


    sys.meta_path.insert(0, _Block())
''')


@pytest.mark.parametrize("module", ["sflp.cli.game", "sflp.views.text"])
def test_ctrl_c_during_the_imports_is_one_line_and_exit_130(tmp_path, module):
    (tmp_path / "sitecustomize.py").write_text(_BLOCKING_IMPORT)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)]), "SFLP_TEST_BLOCK_IMPORT": module}
    proc = subprocess.Popen([sys.executable, "-c", "from sflp.cli import run; run()", "solve", "--stack", "10"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    try:
        assert proc.stderr.readline() == b"ready\n"  # inside the import: the event, not a sleep
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130, err
    assert err.decode() == "sflp: interrupted\n" and out == b""


def test_chart_starts_at_the_first_covering_stack_as_atlas_does_and_says_so(tmp_path, capsys):
    """``sflp chart --ante 0.125 --stacks 1:2:0.25`` was refused while ``sflp atlas`` on the same
    grid starts at 1.125 bb (1 + 0.125, the big blind and SB's ante): both now start there, and say
    on stderr which stacks were left out."""
    import json

    code, out, err = run(capsys, "chart", "--ante", "0.125", "--stacks", "1:2:0.25", "--out", tmp_path / "c",
                         "--formats", "csv")
    assert code == 0, err
    assert " ".join(err.split()) == ("sflp: note: --stacks: 1 stack below 1.125 bb (1) cannot cover the big blind "
                                     "and antes: left out, the chart starts at 1.125 bb")  # wrapped to the width
    assert json.loads((tmp_path / "c" / "manifest.json").read_text())["stacks"] == {
        "count": 5, "low": 1.125, "high": 2.0, "step": None}  # 1.125, 1.25, 1.5, 1.75, 2: what the set covers
    assert "from 1.125 to 2 bb" in out
    code, out, err = run(capsys, "chart", "--ante", "0.125", "--stacks", "1:1.1:0.05", "--out", tmp_path / "d")
    assert code == 2 and "cannot cover" in err and err.count("\n") == 1 and not (tmp_path / "d").exists()
    code, _, err = run(capsys, "atlas", "--ante", "0,0.125", "--stacks", "1:2:0.25", "--out", tmp_path / "a",
                       "--hands", "none", "--ante-stacks", "none")
    assert code == 0, err
    assert ("1 structure starts above 1 bb, at the first stack that covers the big blind and antes "
            "(sb0.5_bb1_ante0.125_bbante0 at 1.125 bb)") in " ".join(err.split())


_BLOCKING_IMPORT_UNTIL_STDIN = textwrap.dedent('''
    """Test-only (tests/test_cli_edges.py): when the named module is imported (inside the command,
    after sflp has set its signal handlers), say so on stderr and wait for a line on stdin."""
    import os
    import sys


    class _Block:
        def find_spec(self, name, path=None, target=None):
            if name == os.environ["SFLP_TEST_BLOCK_IMPORT"]:
                sys.meta_path.remove(self)
                os.write(2, b"ready\\n")
                sys.stdin.readline()
            return None


    sys.meta_path.insert(0, _Block())
''')


def test_a_sigint_the_caller_ignores_stays_ignored(tmp_path):
    """``trap '' INT; sflp …`` (nohup, a background job of a script): sflp must not turn a Ctrl-C
    it was started deaf to back on; the run ends as if nothing was sent (it was exit 130)."""
    (tmp_path / "sitecustomize.py").write_text(_BLOCKING_IMPORT_UNTIL_STDIN)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)]),
           "SFLP_TEST_BLOCK_IMPORT": "sflp.solving.solver"}
    proc = subprocess.Popen([sys.executable, "-c", "from sflp.cli import run; run()", "solve", "--stack", "2"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    try:
        assert proc.stderr.readline() == b"ready\n"  # inside the command, its handlers set: the event
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(b"go\n", timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 0, err
    assert b"interrupted" not in err and out


@pytest.mark.parametrize("argv, option", [
    (("chart", "--stacks", "-5,10"), "--stacks"),
    (("chart", "--stacks", "-inf:5:1"), "--stacks"),
    (("atlas", "--ante", "-0.1,0"), "--ante"),
])
def test_a_list_or_range_starting_with_a_minus_reaches_sflps_check(tmp_path, capsys, argv, option):
    code, out, err = run(capsys, *argv, "--out", tmp_path / "x")
    assert code == 2 and out == "" and not (tmp_path / "x").exists()
    assert err.count("\n") == 1 and "expected one argument" not in err, err
    assert f"{option} {argv[-1]!r}" in err, err


@pytest.mark.parametrize("argv, typed", [
    (("atlas", "--ante", "0,1e-400", "--stacks", "2,3"), "--ante '0,1e-400': 1e-400 is too small for a float"),
    (("chart", "--stacks", "1e-400,2"), "--stacks '1e-400,2': 1e-400 is too small for a float"),
    (("solve", "--stack", "10", "--bb-ante", "4.9e-324"), "--bb-ante 4.9e-324 is below 1e-100 bb"),
])
def test_a_refusal_says_what_is_wrong_and_names_the_option_once(tmp_path, capsys, argv, typed):
    code, out, err = run(capsys, *argv, "--out", tmp_path / "x")
    assert code == 2 and err.count("\n") == 1 and typed in err, err
    assert "START:STOP:STEP" not in err and err.count(typed.split()[0]) == 1, err


def test_approx_seconds_is_refused_in_the_words_of_the_command_line(capsys):
    code, out, err = run(capsys, "approx", "cfr+", "--stack", "10", "--seconds", "-1")
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert "--seconds '-1' must be a positive finite number" in err and "None" not in err, err


def test_the_cfr_plus_example_names_itself_as_it_is_run(capsys):
    from sflp.examples import cfr_plus

    with pytest.raises(SystemExit):
        cfr_plus.main(["--help"])
    assert capsys.readouterr().out.startswith("usage: python -m sflp.examples.cfr_plus ")


@pytest.mark.parametrize("argv", [
    ("solve", "--stack", "5"),
    ("chart", "--stacks", "1:2:0.5"),
    ("verify", "--policy-dir", "pol"),
    ("exploit", "--stacks", "5,10", "--bb", "30%"),
])
def test_an_empty_out_is_refused_alike_by_every_command(tmp_path, capsys, monkeypatch, argv):
    monkeypatch.chdir(tmp_path)  # "" was the current folder for some commands: it must stay empty
    code, out, err = run(capsys, *argv, "--out", "")
    assert (code, out, err) == (2, "", "sflp: error: --out '' is empty: give a folder\n")
    assert list(tmp_path.iterdir()) == []


def test_exploit_of_one_stack_refuses_an_out_it_would_not_write(tmp_path, capsys):
    code, out, err = run(capsys, "exploit", "--stack", "10", "--bb", "30%", "--out", tmp_path / "x")
    assert code == 2 and out == "" and err.count("\n") == 1 and not (tmp_path / "x").exists()
    assert f"--out '{tmp_path / 'x'}' writes an exploit chart set, with --stacks" in err, err


def test_a_set_of_the_wrong_kind_is_named_by_its_kind_and_what_the_command_reads(tmp_path, capsys):
    """``sflp compare ATLAS C`` said "ATLAS/manifest.json does not list thresholds.csv" and
    ``verify-thresholds`` "no certified thresholds (a single stack, or made before …)"."""
    from sflp.output.target import KINDS

    folder = tmp_path / "S"
    assert run(capsys, "solve", "--stack", "5", "--out", folder)[0] == 0
    code, out, err = run(capsys, "compare", folder, "nash")
    assert code == 2 and err == (f"sflp: error: {folder} holds {KINDS['solution']}; sflp compare reads "
                                 f"{KINDS['chart-set']}\n")
    code, out, err = run(capsys, "verify-thresholds", folder)
    assert code == 2 and err == (f"sflp: error: {folder} holds {KINDS['solution']}; sflp verify-thresholds reads "
                                 f"{KINDS['chart-set']} or {KINDS['structure-atlas']}\n")
