"""The command line as people see it: threshold grids, --grid-stacks, file names, progress, --help."""

from __future__ import annotations

import argparse
import csv
import fcntl
import json
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from sflp.charts.media.terminal import threshold_grid as _threshold_grid
from sflp.charts.media.terminal import visible_width
from sflp.cli import build_parser, main
from sflp.core.game import GameConfig
from sflp.solving.thresholds import compute_thresholds
from tests.chart_files import expected_label  # the one oracle of a chart label

RANKS = "AKQJT98765432"
ROOT = Path(__file__).resolve().parent.parent


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def grid_hand(r: int, c: int) -> str:
    """The README's grid rule, written out independently: pairs on the diagonal, suited above."""
    if r == c:
        return RANKS[r] * 2
    return RANKS[min(r, c)] + RANKS[max(r, c)] + ("s" if c > r else "o")




def marked_label(row: dict[str, str], low: float, high: float) -> str:
    """Issue 32's label rule written out from a thresholds.csv row: the number, then "†" when a
    folded stretch of 0.5 bb or more lies inside the played range (or below it, down to the
    chart's lowest stack ``low``), "*" when the hand is played on several stretches with only
    narrower gaps between them, nothing otherwise."""
    number = expected_label(row, high).rstrip("*†")
    spans = [tuple(map(float, part.split("-"))) for part in row["intervals"].split(";") if part]
    gaps = [b[0] - a[1] for a, b in zip(spans, spans[1:])] + ([spans[0][0] - low] if spans else [])
    gaps = [g for g in gaps if g > 1e-9]
    return number + ("" if not gaps else "\u2020" if max(gaps) >= 0.5 - 1e-9 else "*")


@pytest.fixture(scope="module")
def chart_run(tmp_path_factory):
    """The folder and the standard output (not a terminal) of one ``sflp chart`` run."""
    import contextlib
    import io

    out = tmp_path_factory.mktemp("chart")
    with contextlib.redirect_stdout(io.StringIO()) as text:
        code = main(["chart", "--stacks", "2,5,7.7,10", "--grid-stacks", "5,10", "--workers", "0", "--out", str(out),
                     "--no-color"])
    assert code == 0
    return out, text.getvalue()


@pytest.fixture(scope="module")
def chart_text(chart_run):
    return chart_run[0]


# ---------------------------------------------------------------- sflp chart in text


def test_chart_threshold_grids_have_headers_hands_and_labels(chart_run):
    out, text = chart_run  # the module's run: its text, and the thresholds.csv it wrote
    assert "\x1b[" not in text  # not a terminal: no colour
    with open(out / "thresholds.csv", newline="") as fh:
        rows = {(r["player"], r["hand"]): r for r in csv.DictReader(fh)}
    lines = text.splitlines()
    for player, title in (("sb", "SB push up to (bb)"), ("bb", "BB call up to (bb)")):
        start = next(i for i, line in enumerate(lines) if line.startswith(title))
        header = lines[start + 1].split()
        assert header == list(RANKS)
        for r in range(13):
            names = lines[start + 2 + 2 * r].split()
            labels = lines[start + 3 + 2 * r].split()
            assert names[0] == RANKS[r]  # the row header
            assert names[1:] == [grid_hand(r, c) for c in range(13)]
            assert labels == [marked_label(rows[(player, grid_hand(r, c))], 2.0, 10.0) for c in range(13)]


def _cell(colour: str, text: str) -> str:
    """A terminal cell: ``text`` on ``colour`` in the scale's ink (24-bit ANSI)."""
    from sflp.charts.scale import ink

    bg = ";".join(str(int(colour[i:i + 2], 16)) for i in (0, 2, 4))
    fg = ";".join(str(int(ink(colour)[i:i + 2], 16)) for i in (0, 2, 4))
    return f"\x1b[48;2;{bg};38;2;{fg}m{text}\x1b[0m"


def test_threshold_grid_colours_on_a_terminal():
    """Issue 32 §1: a capped cell takes the top colour of its own (not the band below it), like
    every medium; colours and ink come from the one scale (sflp.charts.scale)."""
    from sflp.charts.scale import chart_scale

    t = compute_thresholds(GameConfig(stack=1), low=1, high=10)
    scale = chart_scale(10, 1)
    text = _threshold_grid(t, "sb", color=True)
    # AA is pushed over the whole range (1-10 bb): capped, "10+", the top colour
    assert _cell(scale.top.colour, " AA  ") in text and _cell(scale.top.colour, " 10+ ") in text
    assert scale.top.colour not in {b.colour for b in scale.bands}
    # 72o is pushed at 1 bb only: the lightest band (2 bb or less)
    assert _cell(scale.bands[0].colour, " 72o ") in text and scale.bands[0].label == "≤2"
    plain = re.sub(r"\x1b\[[0-9;]*m", "", text)
    assert plain == _threshold_grid(t, "sb", color=False)


def test_a_gap_cells_number_line_is_hatched_on_a_terminal():
    """Issue 42: a gap cell (†, by the scale's rule on the certified intervals) shows its number line in
    the hatch colour (the terminal's hatching), its name line in its band colour; no other cell does."""
    from sflp.charts.scale import chart_scale, hatch_colour, mark
    from sflp.core.cards import CLASS_NAMES

    t = compute_thresholds(GameConfig(stack=1), low=1, high=10)
    scale = chart_scale(10, 1)
    text = _threshold_grid(t, "sb", color=True)
    gaps = 0
    for hand in CLASS_NAMES:
        h = t.get("sb", hand)
        if h.max_stack is None:
            continue
        band = scale.colour(h.max_stack, h.capped)
        label = scale.label(h.max_stack, h.capped, h.intervals, h.exact_label).text
        assert _cell(band, f"{hand:^5}") in text
        if mark(h.intervals, 1.0) == "†":
            gaps += 1
            assert _cell(hatch_colour(band), f"{label:^5}") in text, hand
        else:
            assert _cell(band, f"{label:^5}") in text, hand
    assert gaps > 0


def test_coloured_threshold_text_carries_the_band_legend():
    from sflp.charts.media.terminal import format_thresholds

    t = compute_thresholds(GameConfig(stack=1), low=1, high=10)
    text = format_thresholds(t, color=True)
    legend = next(line for line in text.splitlines() if line.startswith("colour: played up to (bb)"))
    swatches = re.findall(r"\x1b\[48;2;(\d+);(\d+);(\d+);[0-9;]*m ([^\x1b]+) \x1b\[0m", legend)
    # the chart's own top: "10+" on a 1-10 chart (the old legend said "20+" whatever the top)
    assert [label for *_, label in swatches] == ["≤2", "2–4", "4–6", "6–8", "8–10", "10+", "never"]
    assert "colour:" not in format_thresholds(t, color=False)  # no colours, no colour legend
    narrow = format_thresholds(t, color=True, width=40).splitlines()
    start = next(k for k, line in enumerate(narrow) if line.startswith("colour:"))
    swatch_lines = narrow[start:narrow.index("", start)]
    assert len(swatch_lines) > 1 and max(map(visible_width, swatch_lines)) <= 40  # the legend wraps


def test_fold_gaps_are_marked_after_the_number_and_footnoted_under_the_grid(capsys):
    """Issue 32 §2: 63s on the 1-25 chart is folded from 2.39 to 5.07 bb: its cell reads "7.1†"
    (the mark after the number, never on the name) and the note under the SB grid gives where
    it is pushed; a sliver keeps "*"."""
    t = compute_thresholds(GameConfig(stack=1), low=1, high=25)
    from sflp.charts.media.terminal import format_thresholds

    lines = format_thresholds(t, width=80).splitlines()
    sb = lines.index("SB push up to (bb)")
    bb = lines.index("BB call up to (bb)")
    row = RANKS.index("6")
    names, labels = lines[sb + 2 + 2 * row].split(), lines[sb + 3 + 2 * row].split()
    assert names[1 + RANKS.index("3")] == "63s" and labels[RANKS.index("3")] == "7.1\u2020"
    notes = [line for line in lines[sb + 28:bb] if line.startswith(("\u2020 ", "* "))]
    assert any(line.startswith("\u2020 63s: push \u22642.3") and "5.1" in line for line in notes)
    assert all(len(line) <= 80 for line in lines)
    assert not any(name.endswith(("*", "\u2020")) for line in lines[sb + 2:sb + 28:2] for name in line.split())


def test_grid_stacks_choose_the_range_grids(chart_text):
    names = {p.name for p in chart_text.iterdir()}
    assert {n for n in names if n.startswith("range_")} == {"range_5bb.png", "range_5bb.svg", "range_10bb.png",
                                                              "range_10bb.svg"}
    assert {n for n in names if n.startswith("sb_push_")} == {"sb_push_5bb.csv", "sb_push_10bb.csv"}


@pytest.mark.parametrize("value, message", [
    ("5,50", "--grid-stacks 50 outside the solved stacks 2-10 bb"),
    ("5,x", "--grid-stacks '5,x': expected a comma list"),
    (",", "--grid-stacks is empty"),
])
def test_bad_grid_stacks_fail_before_any_work(capsys, tmp_path, value, message):
    out = tmp_path / "never"
    code, stdout, err = run(capsys, "chart", "--stacks", "2,10", "--grid-stacks", value, "--out", str(out))
    assert code == 2 and stdout == ""
    assert err.count("\n") == 1 and message in err
    assert not out.exists()


def test_solve_out_names_files_like_a_chart_set(capsys, tmp_path, chart_text):
    code, text, _ = run(capsys, "solve", "--stack", "10", "--out", str(tmp_path), "--json")
    assert code == 0
    names = set(json.loads(text)["files"])
    assert {"sb_push_10bb.csv", "bb_call_10bb.csv", "range_10bb.png", "range_10bb.svg"} <= names
    for name in ("sb_push_10bb.csv", "bb_call_10bb.csv"):  # same name, same layout as in the chart set
        mine = [line.split(",") for line in (tmp_path / name).read_text().splitlines()]
        theirs = [line.split(",") for line in (chart_text / name).read_text().splitlines()]
        assert mine[0] == theirs[0] and [r[0] for r in mine] == [r[0] for r in theirs]
        # the chart set reads the stack off the equilibrium path, solve runs the LP: the mixed
        # frequencies agree to float noise (the direct solve and the path differ in the last digit)
        diff = max(abs(float(a) - float(b)) for ra, rb in zip(mine[1:], theirs[1:]) for a, b in zip(ra[1:], rb[1:]))
        assert diff < 1e-12


# ---------------------------------------------------------------- --help


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def test_every_option_of_every_subcommand_has_help_and_shows_its_default():
    subs = _subparsers(build_parser())
    assert {"equity", "solve", "chart", "verify", "approx", "approx-bench", "simulate"} <= set(subs)
    for name, parser in subs.items():
        text = parser.format_help()
        assert parser.description, name
        for action in parser._actions:
            if action.help == argparse.SUPPRESS:
                continue
            assert action.help and action.help.strip(), (name, action.dest)
            if action.option_strings and action.default not in (None, False, argparse.SUPPRESS):
                flag = action.option_strings[-1]
                block = re.search(rf"^\s+{re.escape(flag)}\b.*?(?=^\s+-|^\S|\Z)", text, re.M | re.S)
                assert block, (name, flag)
                shown = " ".join(block[0].split())
                forms = {str(action.default)}
                if isinstance(action.default, (int, float)):
                    forms.add(f"{action.default:g}")
                assert "default" in shown and any(f in shown for f in forms), (name, flag, shown)


# ---------------------------------------------------------------- progress


def test_no_progress_when_not_a_terminal(capsys, monkeypatch):
    # the bars' delay set to 0: a bar, were it shown, would be on stderr at once (no 2 s run needed)
    import sflp.cli.options

    monkeypatch.setattr(sflp.cli.options, "PROGRESS_DELAY", 0.0)
    code, _, err = run(capsys, "approx", "cfr+", "--stack", "10", "--seconds", "0.3")
    assert code == 0 and err == ""


NO_DELAY = ("import sys, sflp.cli.options; sflp.cli.options.PROGRESS_DELAY = 0.0; sys.argv[0] = 'sflp'; "
            "from sflp.cli.main import run; run()")
"""``python -c NO_DELAY ARGV``: the CLI with its bars' 2 s delay set to 0, so that a short run shows
whether a bar would be drawn at all."""


def _run_on_a_terminal(*argv: str, timeout: float = 120, no_delay: bool = False) -> tuple[int, str]:
    """Run ``python -m sflp.cli ARGV`` (``no_delay``: ``python -c NO_DELAY ARGV``) with stderr on a
    pseudo-terminal (80x24); its stderr text."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    head = ["-c", NO_DELAY] if no_delay else ["-m", "sflp.cli"]
    proc = subprocess.Popen([sys.executable, *head, *argv], stdout=subprocess.DEVNULL, stderr=slave,
                            env=env, cwd=ROOT)
    os.close(slave)
    chunks = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.2)
        if ready:
            try:
                data = os.read(master, 65536)
            except OSError:
                break
            if not data:
                break
            chunks.append(data)
        elif proc.poll() is not None:
            break
    os.close(master)
    code = proc.wait(timeout=30)
    return code, b"".join(chunks).decode("utf-8", "replace")


def test_progress_bar_on_a_terminal_for_long_runs():
    # a run longer than the 2 s delay draws its bar; with --json none, even with no delay (a short run)
    code, err = _run_on_a_terminal("approx", "cfr+", "--stack", "10", "--seconds", "3.5")
    assert code == 0
    assert re.search(r"cfr\+:\s+\d+%\|", err), err[-500:]
    code, err = _run_on_a_terminal("approx", "cfr+", "--stack", "10", "--seconds", "0.5", "--json", no_delay=True)
    assert code == 0 and "%|" not in err


def test_simulate_reports_every_hand_to_its_progress_callback():
    from sflp.study.simulate import CHUNK, simulate

    seen = []
    hands = 2 * CHUNK + 5
    report = simulate(GameConfig(stack=10), hands=hands, seed=1, progress=seen.append)
    assert sum(seen) == hands == report.hands and len(seen) == 3


def test_chart_shows_every_phase_on_a_terminal_and_nothing_with_json(tmp_path):
    code, err = _run_on_a_terminal("chart", "--stacks", "1:3:0.05", "--out", str(tmp_path / "a"))
    assert code == 0
    # thresholds, the streamed solve, then the file groups; the solving bar stays on screen
    for phase in ("thresholds:", "solving:", "writing files:"):
        assert phase in err, (phase, err[-800:])
    assert err.index("thresholds:") < err.index("solving:") < err.index("writing files:")
    assert re.search(r"solving: 100%\|.*41/41", err), err[-800:]
    # units people read: stacks/s and formats/s; a share of the stack range has no rate (not "%/s")
    assert "stacks/s" in err and "formats/s" in err and "%/s" not in err, err[-800:]
    # the chart's bars have no delay: a short run, of the CSV files alone, would show one at once
    code, err = _run_on_a_terminal("chart", "--stacks", "1:2:0.5", "--formats", "csv", "--out", str(tmp_path / "b"),
                                   "--json")
    assert code == 0 and "%|" not in err
