"""The README's width claim, for every subcommand: at ``COLUMNS=80`` every line a command prints,
on stdout and on stderr, is at most 80 columns wide (display width: ANSI codes take none, a wide
character two), and so is every ``--help``.

The subcommands are read from the parser itself (``sflp --help`` lists them), so a new one that
is missing from :data:`RUNS` fails :func:`test_every_subcommand_has_a_width_run`.  The runs go
through :func:`sflp.cli.main` in this process, on small inputs (tests/test_terminal_width.py
covers the wide and compact forms of the big views); the one that compiles a combo-level LP
(``export npz``, a few seconds) and ``simulate`` (numba's first call) are in :data:`SLOW_RUNS`;
their fast twins are ``export efg`` and :func:`test_simulate_text_fits_80_columns`.  The one text
allowed past the width is a name the user typed, shown whole: the folders below are short.
"""

from __future__ import annotations

import argparse
import re
import unicodedata

import pytest

from sflp.cli import main
from sflp.cli.main import build_parser

WIDTH = 80
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def display_width(line: str) -> int:
    """The columns ``line`` takes on a terminal: ANSI codes none, a combining mark none, a wide or
    full-width character (East Asian ``W``/``F``) two, any other character one."""
    return sum(0 if unicodedata.combining(ch) else 2 if unicodedata.east_asian_width(ch) in "WF" else 1
               for ch in ANSI.sub("", line))


def _subcommands(parser: argparse.ArgumentParser, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every command path of ``parser``: ``("solve",)``, ``("export", "efg")``, ..."""
    out = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                out.append((*prefix, name))
                out += _subcommands(child, (*prefix, name))
    return out


SUBCOMMANDS = _subcommands(build_parser())

RUNS: dict[str, list[list[str]]] = {
    # each subcommand's text output on a small input, in one folder, in this order
    "equity": [["equity", "AhAd", "KcKs"], ["equity", "QQ+,AKs", "22+"]],
    "solve": [["solve", "--stack", "10"]],
    "rank": [["rank"]],
    "sc": [["sc"]],
    "cache": [["cache", "info"]],
    "chart": [["chart", "--stacks", "2,5", "--formats", "csv", "--out", "ch"]],
    "verify-thresholds": [["verify-thresholds", "ch"]],
    "exploit": [["exploit", "--stack", "10", "--bb", "30%"]],
    "compare": [["compare", "ch", "ch", "--out", "cmp"]],
    "atlas": [["atlas", "--ante", "0", "--stacks", "2:3:1", "--ante-stacks", "none", "--hands", "none",
               "--workers", "0", "--out", "at"], ["verify-thresholds", "at"]],
    "verify": [["verify", "--stack", "10", "--sb", "30%", "--bb", "20%"]],
    "export": [["export", "efg", "--stack", "5", "--out", "g5.efg"],
               ["export", "efg", "--stacks", "5", "--out", "games"]],
    "approx": [["approx", "cfr+", "--stack", "5", "--iterations", "20"]],
    "approx-bench": [["approx-bench", "--stacks", "5", "--seconds", "0.02", "--out", "bench"]],
}
SLOW_RUNS: dict[str, list[list[str]]] = {
    "export": [["export", "npz", "--stack", "5", "--out", "combo5.npz"]],
    "simulate": [["simulate", "--stack", "10", "--hands", "2000", "--seed", "1"]],  # numba's first call: seconds
}
CACHE_LINE = "SFLP_CACHE_DIR moves it"


def _too_wide(text: str) -> list[str]:
    return [line for line in text.splitlines() if display_width(line) > WIDTH]


def _run(capsys, argv: list[str], codes=(0,)) -> tuple[str, str]:
    try:
        code = main(argv)
    except SystemExit as exc:  # --help
        code = exc.code
    out, err = capsys.readouterr()
    assert code in codes, (argv, code, err[-2000:])
    return out, err


@pytest.fixture
def at_80(monkeypatch, tmp_path):
    monkeypatch.setenv("COLUMNS", str(WIDTH))
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.chdir(tmp_path)


def test_every_subcommand_has_a_width_run():
    names = {" ".join(path) for path in SUBCOMMANDS}
    assert {"solve", "export", "verify-thresholds", "approx-bench"} <= names  # the parser was read
    assert sorted(names - set(RUNS) - set(SLOW_RUNS)) == [], "subcommands with no run in RUNS or SLOW_RUNS"
    assert sorted((set(RUNS) | set(SLOW_RUNS)) - names) == [], "RUNS names a subcommand sflp no longer has"


@pytest.mark.parametrize("path", [" ".join(p) for p in SUBCOMMANDS] + [""])
def test_every_help_fits_80_columns(capsys, at_80, path):
    out, err = _run(capsys, [*path.split(), "--help"])
    assert out.strip() and not _too_wide(out) and not _too_wide(err), _too_wide(out + err)[:3]


def test_every_subcommand_prints_lines_of_at_most_80_columns(capsys, at_80):
    """All of :data:`RUNS` in one folder (a chart set made once serves verify-thresholds and
    compare): every stdout and stderr line fits.  Fails on main 6380a4f: ``verify-thresholds``
    printed one line of 559 columns and ``cache info`` one of 121."""
    wide = {}
    for runs in RUNS.values():
        for argv in runs:
            out, err = _run(capsys, argv)
            assert out.strip(), argv  # the run printed its text
            if _too_wide(out + "\n" + err):
                wide[" ".join(argv)] = _too_wide(out + "\n" + err)[:2]
            if argv[:2] == ["cache", "info"]:
                assert CACHE_LINE in out
    assert wide == {}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SLOW_RUNS))
def test_slow_subcommands_print_lines_of_at_most_80_columns(capsys, at_80, name):
    for argv in SLOW_RUNS[name]:
        out, err = _run(capsys, argv)
        assert out.strip() and not _too_wide(out) and not _too_wide(err), _too_wide(out + err)[:3]


def test_simulate_text_fits_80_columns():
    """The fast twin of the slow ``simulate`` run: its text formatter on a report with the widest
    figures it can show (a billion hands, long strategy sources)."""
    from sflp.core.game import GameConfig
    from sflp.study.simulate import SimulationReport, format_text

    report = SimulationReport(config=GameConfig(stack=123.456789, ante=0.125, bb_ante=0.5), hands=10**9, seed=2**31,
                              mean=-0.0453712345, stderr=0.00012345, ci_low=-0.0456, ci_high=-0.0451,
                              exact_value=-0.045371, inside=True, seconds=12345.6, folds=4 * 10**8,
                              uncontested=3 * 10**8, showdowns=3 * 10**8, sb_wins=10**8, ties=10**7, sb_losses=10**8,
                              sb_source="file 'my_push.csv' (grid)", bb_source="range '22+,A2+,K9o+'")
    text = format_text(report)
    assert "1,000,000,000" in text or "1000000000" in text
    assert not _too_wide(text), _too_wide(text)


def test_display_width_counts_columns_not_characters_or_bytes():
    assert display_width("\x1b[38;5;28m≤2.3†\x1b[0m") == 5  # colour codes none, ≤ and † one each
    assert display_width("全角") == 4 and display_width("e\u0301") == 1


def test_notes_and_warnings_wrap_to_80_columns(capsys, at_80, tmp_path):
    """Notes and warnings on stderr are wrapped to the width, their later lines indented (the one
    line of an error is not: scripts read it whole).  Were one line each of 137 (``chart``'s
    stacks left out), 183 (``atlas``'s) and 209 columns (the float32 policy warning)."""
    import json

    import numpy as np

    from sflp.core.cards import CLASS_NAMES
    from sflp.core.game import GameConfig
    from sflp.openspiel import info_state

    config, rng = GameConfig(stack=5), np.random.default_rng(52)
    table = {}
    for player, play in (("sb", 1), ("bb", 2)):
        z = np.exp(rng.normal(0.0, 2.0, (169, 2)).astype(np.float32))
        probs = z / z.sum(axis=1, keepdims=True, dtype=np.float32)  # a float32 softmax: sums off by ~6e-8
        table.update({info_state(player, hand, config): [(0, float(probs[k, 0])), (play, float(probs[k, 1]))]
                      for k, hand in enumerate(CLASS_NAMES)})
    (tmp_path / "pol").mkdir()
    (tmp_path / "pol" / "5bb.json").write_text(json.dumps(table))
    runs = {
        "chart": ["chart", "--ante", "0.125", "--stacks", "1:1.25:0.05", "--formats", "csv", "--out", "c"],
        "atlas": ["atlas", "--ante", "0,0.125", "--stacks", "1:1.25:0.125", "--hands", "none", "--ante-stacks",
                  "none", "--workers", "0", "--out", "a"],
        "verify": ["verify", "--policy-dir", "pol"],
    }
    for name, argv in runs.items():
        out, err = _run(capsys, argv)
        said = [line for line in err.splitlines() if line.startswith(("sflp: note:", "sflp: warning:"))]
        assert said, (name, err)  # the run said its note
        assert not _too_wide(err), (name, _too_wide(err))
        lines = err.splitlines()
        assert all(line.startswith(("sflp: ", "  ")) for line in lines), (name, err)
        assert max(map(len, lines)) > 60 and len(lines) > 1, (name, err)  # wrapped, not cut


def test_the_kept_files_note_wraps_to_80_columns(capsys, at_80):
    """``sflp: kept N file(s) in DIR …: a, b, …`` names up to eight of the user's files: one line of
    ~150 columns before; now wrapped as the notes are, each name whole."""
    from sflp.cli.options import keep_printer

    names = [f"my_notes_from_the_{k}th_session.txt" for k in range(10)]
    keep_printer("reports/hu-pushfold_sb0.5_bb1_ante0_bbante0_1-25")(names)
    err = capsys.readouterr().err
    assert err.startswith("sflp: kept 10 file(s) in reports/") and not _too_wide(err), err
    assert all(name in err.split() or f"{name}," in err.split() for name in names[:8]) and ", ..." in err
