"""Standard output is the command's output and nothing else, whatever a dependency prints.

highspy 1.16 prints a two-line banner from C++ to file descriptor 1 when the first ``Highs()``
object is made (inside cvxpy's ``Problem.solve``).  These tests run every subcommand with
``--json`` in a fresh process, where that banner would come first, and demand strict JSON.
Because an older highspy prints nothing, the mechanism is also tested directly: native code
(libc's ``write`` through ctypes) prints inside :func:`sflp.quiet.native_output`, and nothing
of it may reach either descriptor, unless verbose, when it goes to stderr only.
"""

from __future__ import annotations

import ctypes.util
import json
import os
import subprocess
import sys
import textwrap

import pytest

ENV = {k: v for k, v in os.environ.items() if k not in ("SFLP_DATA_DIR",)}


def _run(args: list[str], cwd) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "sflp", *args],
        capture_output=True, text=True, cwd=cwd, env=ENV, timeout=600,
    )


# one quick invocation of every subcommand (each in its own process: the first solve of the
# process is the one where HiGHS prints its banner)
JSON_COMMANDS = {
    "equity": ["equity", "AA", "KK"],
    "solve": ["solve", "--stack", "10"],
    "solve --exact": ["solve", "--stack", "10", "--exact"],
    "solve --combos": ["solve", "--stack", "10", "--combos"],
    "chart": ["chart", "--stacks", "8:10:0.5", "--out", "{tmp}/chart"],
    "atlas": ["atlas", "--ante", "0,0.1", "--stacks", "8:9:0.5", "--ante-stacks", "none", "--out", "{tmp}/atlas"],
    "verify": ["verify", "--stack", "10", "--sb", "22+,A2+,K9o+", "--bb", "22+,A2+"],
    "verify --exact": ["verify", "--stack", "10", "--sb", "22+,A2+,K9o+", "--bb", "22+,A2+", "--exact"],
    "export": ["export", "efg", "--stack", "10", "--out", "{tmp}/game.efg"],
    "approx": ["approx", "fictitious-play", "--stack", "10", "--iterations", "20"],
    "approx-bench": ["approx-bench", "--stacks", "10", "--seconds", "0.2", "--out", "{tmp}/bench"],
    "simulate": ["simulate", "--stack", "10", "--hands", "2000"],
    "rank": ["rank"],
    "exploit": ["exploit", "--stack", "10", "--bb", "30%"],
    "exploit --stacks": ["exploit", "--stacks", "5,10", "--bb", "30%", "--out", "{tmp}/exploit"],
    "sc": ["sc"],
    "compare": ["compare", "nash", "ante=0.125", "--stacks", "5:6", "--out", "{tmp}/compare"],
    "cache": ["cache", "info"],  # not clear: it would empty the cache the test session shares
    "verify-thresholds": ["verify-thresholds", "{tmp}/chart"],  # after a chart into {tmp}/chart (below)
}


SLOW_JSON = {"solve --combos"}
"""Rows of the slow set only: a combo-level LP is compiled afresh in each process (about 7 s); the
first solve of a process, where HiGHS prints, is the "solve" row's too."""


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.slow) if n in SLOW_JSON else n
                                  for n in sorted(JSON_COMMANDS)])
def test_every_subcommand_prints_strict_json(name, tmp_path):
    args = [a.replace("{tmp}", str(tmp_path)) for a in JSON_COMMANDS[name]] + ["--json"]
    if name == "verify-thresholds":  # it reads a chart set: written in this process (the "chart" row runs it fresh)
        from sflp.cli import main

        assert main([a.replace("{tmp}", str(tmp_path)) for a in JSON_COMMANDS["chart"]] + ["--json"]) == 0
    proc = _run(args, tmp_path)
    assert proc.returncode == 0, proc.stderr
    json.loads(proc.stdout)  # the whole of stdout, nothing before or after
    assert "HiGHS" not in proc.stderr, proc.stderr  # silenced, not moved


def test_every_subcommand_is_in_the_json_test():
    from sflp.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    tested = {name.split()[0] for name in JSON_COMMANDS}
    assert sorted(sub.choices) == sorted(tested)


def test_solve_text_output_starts_with_the_title(tmp_path):
    proc = _run(["solve", "--stack", "10"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("Heads-up push/fold, stack 10 bb"), proc.stdout[:200]
    assert "HiGHS" not in proc.stdout + proc.stderr


def test_verbose_shows_the_solver_log_on_stderr_only(tmp_path):
    proc = _run(["solve", "--stack", "10", "--json", "--verbose"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    json.loads(proc.stdout)
    # HiGHS's log of the warm re-solve of cvxpy's compiled LP, moved to stderr
    assert "HiGHS" in proc.stderr and "simplex" in proc.stderr, proc.stderr[-500:]


NATIVE = textwrap.dedent(
    """
    import ctypes, ctypes.util, sys
    from sflp.quiet import native_output, set_verbose
    libc = ctypes.CDLL(ctypes.util.find_library("c"))
    set_verbose(sys.argv[1] == "verbose")
    print("before", flush=True)
    with native_output():
        libc.write(1, b"native-out\\n", 11)
        libc.write(2, b"native-err\\n", 11)
        print("python-inside")
        with native_output():       # nested: a no-op
            libc.write(1, b"nested\\n", 7)
    libc.write(1, b"after\\n", 6)
    """
)


@pytest.mark.skipif(ctypes.util.find_library("c") is None, reason="no C library found for ctypes")
@pytest.mark.parametrize("mode", ["quiet", "verbose"])
def test_native_output_is_redirected_at_the_descriptor_level(mode, tmp_path):
    proc = subprocess.run(
        [sys.executable, "-c", NATIVE, mode], capture_output=True, text=True, cwd=tmp_path, env=ENV, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    if mode == "quiet":
        assert proc.stdout == "before\nafter\n"
        assert proc.stderr == ""
    else:
        assert proc.stdout == "before\nafter\n"
        assert proc.stderr.split() == ["native-out", "native-err", "python-inside", "nested"]
