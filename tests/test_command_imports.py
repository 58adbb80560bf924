"""No command imports what it does not use (issue 53 item 1): each subcommand's ``--help`` and a small
real call, in a fresh process, load exactly the heavy modules of the table below, each entry justified.

A heavy module is one whose import costs a cold command tenths of a CPU second (pandas 0.52 with
pyarrow, highspy 0.11, reportlab 0.08, xlsxwriter 0.07, PIL 0.05, numba 0.37: issue 53 item 1 and
/work/shared/design/path-cost.md, measured on main 6380a4f).  ``--help`` loads none of them, not even
numpy: it only prints the parser.  The full table runs one process per call (about 20 CPU-s: slow);
its fast twin runs every ``--help`` and four cheap calls in one process, checking the modules loaded
so far after each call, so a needless import anywhere on those paths shows up.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

HEAVY = ("pandas", "pyarrow", "cvxpy", "numba", "reportlab", "PIL", "xlsxwriter", "openpyxl", "highspy",
         "scipy", "distributed", "pyspiel")
"""The modules watched (``numpy`` too for ``--help``)."""

COMMANDS = ("equity", "solve", "rank", "sc", "cache", "chart", "exploit", "compare", "verify-thresholds", "atlas",
            "verify", "export", "approx", "approx-bench", "simulate")
"""Every subcommand of ``sflp`` (checked against the parser)."""

PROBE = """
import contextlib, io, json, sys
from sflp.cli import main
watched, calls = json.loads(sys.argv[1])
loaded = []
for call in calls:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        try:
            rc = main(call)
        except SystemExit as exc:
            rc = exc.code
    loaded.append([rc, sorted(m for m in watched if m in sys.modules)])
print(json.dumps(loaded))
"""
"""One fresh process: run ``main(call)`` for each call in turn; after each, its exit code and the
watched modules in ``sys.modules`` so far."""

LP = {"highspy"}  # the exact solve starts from the LP's support (sflp.solving.highs)
FRAMES = {"pandas", "pyarrow"}  # the formats drawn from tidy frames; pandas imports pyarrow where installed
PICTURES = {"reportlab", "PIL"}  # text metrics of every drawing (reportlab, which imports PIL itself), PNG

TABLE = [
    (["equity", "AhAd", "KcKs"], set(), "the exact equity table: numpy only"),
    (["equity", "QQ+,AKs", "22+"], set(), "ranges: the same table"),
    (["solve", "--stack", "10"], LP, "one LP, text from arrays"),
    (["rank"], set(), "equities against a random hand, no LP"),
    (["sc"], set(), "Sklansky-Chubukov numbers from the equity table"),
    (["cache", "info"], set(), "folders and sizes"),
    (["chart", "--stacks", "5,10", "--formats", "csv", "--out", "{tmp}/csv"], LP,
     "CSV files from arrays (sflp.charts.text), no frames"),
    (["chart", "--stacks", "5,10", "--out", "{tmp}/all"], LP | FRAMES | PICTURES | {"xlsxwriter"},
     "every format, in this process by default: frames, the PDF and pictures, the workbook"),
    (["exploit", "--stack", "10", "--bb", "30%"], LP, "the equilibrium beside the best response"),
    (["verify", "--stack", "10", "--sb", "22+", "--bb", "22+,A2+"], LP, "scored against the equilibrium"),
    (["verify-thresholds", "{tmp}/csv"], set(), "integers only, from thresholds_exact.csv"),
    (["compare", "{tmp}/csv", "{tmp}/all", "--out", "{tmp}/compare"], FRAMES | PICTURES,
     "compare.csv from a frame and the difference pictures"),
    (["atlas", "--stacks", "5,10", "--out", "{tmp}/atlas"], LP | FRAMES | PICTURES,
     "Parquet datasets, the hand maps (PNG, SVG) and atlas.html"),
    (["verify-thresholds", "{tmp}/atlas"], FRAMES, "sflp.read_atlas: Parquet read into frames"),
    (["export", "efg", "--stack", "10", "--out", "{tmp}/g.efg"], set(), "the game tree as text"),
    (["approx", "cfr+", "--stack", "10", "--seconds", "0.1"], LP, "exploitability against the exact solve"),
    (["approx-bench", "--stacks", "5", "--seconds", "0.05", "--out", "{tmp}/bench"], LP | FRAMES | PICTURES,
     "approx_bench.csv from a frame, the log-log PNG"),
    (["simulate", "--stack", "10", "--hands", "1000", "--seed", "1"], LP | {"numba", "scipy"},
     "the hands are dealt and evaluated by numba kernels (numba imports scipy)"),
]
"""Each call, the heavy modules it loads, and why.  Calls that read a folder come after the call
that writes it."""


def _probe(calls: list[list[str]], watched=HEAVY) -> list[tuple[int, set[str]]]:
    out = subprocess.run([sys.executable, "-c", PROBE, json.dumps([list(watched), calls])], capture_output=True,
                         text=True, check=True).stdout
    return [(rc, set(mods)) for rc, mods in json.loads(out)]


def _calls(tmp_path) -> list[list[str]]:
    return [[a.format(tmp=tmp_path) for a in call] for call, _, _ in TABLE]


def test_the_table_names_every_subcommand():
    from sflp.cli import build_parser

    parser = build_parser()
    choices = next(a for a in parser._actions if a.choices and "solve" in a.choices).choices
    assert set(choices) == set(COMMANDS)
    assert {call[0] for call, _, _ in TABLE} == set(COMMANDS)


def test_help_and_cheap_calls_load_only_what_they_use(tmp_path):
    """Fast twin (about 1.5 CPU-s, one process): every ``--help`` loads no heavy module and no numpy;
    then equity, rank, solve and a CSV chart load what the table says, cumulatively."""
    helps = [["--help"]] + [[c, "--help"] for c in COMMANDS]
    cheap = [i for i, (call, _, _) in enumerate(TABLE) if call[0] in ("equity", "rank")] + \
            [i for i, (call, _, _) in enumerate(TABLE) if call[:1] == ["solve"] or "csv" in call]
    calls = _calls(tmp_path)
    results = _probe(helps + [calls[i] for i in cheap], watched=(*HEAVY, "numpy"))
    for call, (rc, mods) in zip(helps, results):
        assert rc == 0 and mods == set(), (call, mods)
    expected: set[str] = {"numpy"}
    for i, (rc, mods) in zip(cheap, results[len(helps):]):
        expected |= TABLE[i][1]
        assert rc == 0 and mods == expected, (TABLE[i][0], mods - expected, expected - mods)


@pytest.mark.slow
def test_each_command_loads_exactly_its_table_entry(tmp_path):
    """Slow (about 20 CPU-s): one fresh process per call of the table."""
    for call, (_, want, why) in zip(_calls(tmp_path), TABLE):
        [(rc, mods)] = _probe([call])
        assert rc == 0, call
        assert mods == want, (call, why, "needless:", mods - want, "missing:", want - mods)
