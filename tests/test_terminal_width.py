"""The terminal at 80 columns (issue 32 §5): every line of the text commands fits the width the
output is given ($COLUMNS, else 80 when stdout is not a terminal), in a compact form below the
wide one; 200 columns keep the wide form.  Negative zero never prints, sc shows ∞, exploit shows
the locked range, solve's range grids carry rank headers and its exact fractions come last."""

from __future__ import annotations

import re

import pytest

from sflp.charts.media.terminal import visible_width
from sflp.cli import main

RANKS = list("AKQJT98765432")
NEGATIVE_ZERO = re.compile(r"(?<![\d.])[-\u2212]0\.0+(?![0-9])")
"""``-0.00``, ``-0.000000000``, ``−0.00``: a minus sign on a number that prints as zero."""
MARGIN_ROW = re.compile(r"[AKQJT98765432](\s+([+-]\d+(\.\d+)?|=?0(\.0+)?|\.))+\s*")
"""A row of a 13x13 grid of EV margins: its rank, then 13 signed numbers, exact zeros and dots."""


def without_margins(out: str) -> str:
    """``out`` without its grids of EV margins and their note: there a margin that rounds to zero
    keeps its sign (``-0.00``, issue 42), the one place a minus may stand on a zero."""
    return "\n".join(line for line in out.splitlines()
                     if not MARGIN_ROW.fullmatch(line) and "rounds to 0, the sign kept" not in line)


def run(capsys, monkeypatch, columns, *argv):
    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", str(columns))
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def commands(tmp_path):
    """The commands, each writing into a folder of the working directory (``tmp_path``): the
    folder a user names is the one text that may pass the width (it is shown whole)."""
    return {
        "solve": ["solve", "--stack", "10"],
        "solve-ante": ["solve", "--stack", "3", "--ante", "0.125"],
        "sc": ["sc"],
        "sc-ante": ["sc", "--ante", "3"],  # SC numbers of 1,000 bb and more
        "sc-huge": ["sc", "--ante", "1e25"],  # ... and of 1e27 bb: in units of 1e+27 bb
        "solve-deep": ["solve", "--stack", "100000"],  # margins of 1e4 bb: in units of 1e+4 bb
        "exploit": ["exploit", "--stack", "10", "--bb", "30%"],
        "exploit-bb-hero": ["exploit", "--stack", "10", "--sb", "random"],
        "exploit-stacks": ["exploit", "--stacks", "2:4:1", "--bb", "40%", "--out", "ex"],
        "solve-out": ["solve", "--stack", "4", "--out", "s4"],
        "verify": ["verify", "--stack", "10", "--sb", "30%", "--bb", "20%", "--exact"],
        "verify-long-name": ["verify", "--stack", "10", "--sb", "22+,A2+,K2+,Q2+,J2+,T2+,92+,82+,72+,62+,52+",
                             "--bb", "20%"],
        "chart": ["chart", "--stacks", "2,5,7.7,10", "--formats", "csv", "--out", "ch"],
        "compare": ["compare", "nash", "ante=0.125", "--stacks", "2:4", "--out", "cmp"],
        "atlas": ["atlas", "--ante", "0,0.125", "--stacks", "2:6:0.5", "--ante-stacks", "3:6:0.5", "--charts", "csv",
                  "--hands", "none", "--workers", "0", "--out", "at"],
    }


NAMES = ["solve", "solve-ante", "solve-out", "solve-deep", "sc", "sc-ante", "sc-huge", "exploit", "exploit-bb-hero",
         "exploit-stacks", "verify", "verify-long-name", "chart", "compare", "atlas"]


@pytest.mark.parametrize("name", NAMES)
def test_every_line_fits_80_columns(capsys, monkeypatch, tmp_path, name):
    monkeypatch.chdir(tmp_path)
    out = run(capsys, monkeypatch, 80, *commands(tmp_path)[name])
    long = [line for line in out.splitlines() if visible_width(line) > 80]
    assert not long, long[:3]
    assert not NEGATIVE_ZERO.search(without_margins(out)), NEGATIVE_ZERO.search(without_margins(out))


def test_atlas_summary_fits_80_columns_and_says_what_the_wide_one_says():
    """Issue 42: ``sflp atlas`` printed 149-column lines (a structure, its ante paths and its chart set on
    one line).  At 80 columns each entry breaks at its parts, indented; the words are the wide form's."""
    from types import SimpleNamespace

    from sflp.cli.atlas import format_atlas

    structure = {"small_blind": 0.5, "big_blind": 1.0, "ante": 0.125, "bb_ante": 0.0, "breakpoints": 1234,
                 "stacks": {"count": 478, "low": 1.15, "high": 25.0},
                 "ante_path": {"low": 0.0, "high": 0.125, "stacks": [1.5 + k / 2 for k in range(48)]},
                 "chart_set": "charts/sb0.5_bb1_ante0.125_bbante0"}
    folder = "reports/" + "atlas_sb0.5_bb1_ante0-0.125_bbante0_1-25" * 3  # a folder longer than the width
    short = {**structure, "ante": 0.0, "breakpoints": 9, "ante_path": None, "chart_set": "c"}
    result = SimpleNamespace(structures=[structure, short],
                             out_dir=folder, files=["f"] * 40, seconds=12.3)
    wide, narrow = format_atlas(result, None), format_atlas(result, 80)
    assert max(map(len, wide.splitlines())) > 140  # the overlong entry
    assert [line for line in narrow.splitlines() if len(line) > 80 and folder not in line] == []
    assert [w.rstrip(";") for w in narrow.split()] == [w.rstrip(";") for w in wide.split()]  # the same words
    lines = narrow.splitlines()
    entry = lines[next(k for k, line in enumerate(lines) if line.startswith("  SB")):][:5]
    assert entry[0] == "  SB 0.5 / BB 1, ante 0.125: 478 stacks 1.15-25 bb, 1234 breakpoints"
    assert entry[1] == "    solved 48 of its line's ante paths (0-0.125 bb) at stacks 1.5, 2, 2.5, 3,"
    assert entry[2] == "      ..."  # a part longer than the width goes on, indented further
    assert entry[3] == "    chart set in charts/sb0.5_bb1_ante0.125_bbante0"
    assert entry[4] == "  SB 0.5 / BB 1, no ante: 478 stacks 1.15-25 bb, 9 breakpoints; chart set in c"  # fits


def test_piped_output_without_columns_is_80_wide(capsys, monkeypatch):
    """stdout is not a terminal (capsys): the width is $COLUMNS, else 80, never unlimited."""
    from sflp.cli.options import terminal_width

    for columns, width in ((None, 80), ("abc", 80), ("0", 80), ("133", 133)):
        if columns is None:
            monkeypatch.delenv("COLUMNS", raising=False)
        else:
            monkeypatch.setenv("COLUMNS", columns)
        assert terminal_width() == width
    out = run(capsys, monkeypatch, None, "solve", "--stack", "10")
    assert max(map(visible_width, out.splitlines())) <= 80


def grid_after(lines: list[str], title: str) -> list[list[str]]:
    """The 13 rows (cells only) of the grid whose rank header follows the line starting ``title``."""
    k = next(i for i, line in enumerate(lines) if line.startswith(title))
    head = next(i for i in range(k + 1, len(lines)) if lines[i].split() == RANKS)
    rows = [lines[head + 1 + r].split() for r in range(13)]
    assert [row[0] for row in rows] == RANKS
    return [row[1:] for row in rows]


def test_200_columns_keep_the_wide_form(capsys, monkeypatch):
    out = run(capsys, monkeypatch, 200, "solve", "--stack", "10")
    lines = out.splitlines()
    assert any(line.split() == ["SB", "push", "BB", "call"] for line in lines)  # grids side by side
    assert any(line.startswith("SB EV margin") and "BB EV margin" in line for line in lines)
    header = next(line for line in lines if line.split() == RANKS * 2 and "      A      K" in line)
    assert header  # 6-column cells: the wide form
    assert max(map(visible_width, lines)) <= 200
    narrow = run(capsys, monkeypatch, 80, "solve", "--stack", "10").splitlines()
    assert "      A     K     Q" in "\n".join(narrow)  # 5-column cells below 92 columns
    sc_wide = run(capsys, monkeypatch, 200, "sc").splitlines()
    assert any(line.startswith("       A      K") for line in sc_wide)


def test_compact_cells_keep_every_margin_to_the_precision_that_fits():
    """Below 92 columns a margin takes 5 columns: two decimals while every |value| < 9.995, one
    below 99.95, none above (a 100 bb AA margin); the text is the value rounded at that precision."""
    from sflp.charts.media.terminal import signed_cells

    assert signed_cells([3.4849, -2.891, 0.0], 80) == (["+3.48", "-2.89", "0.00"], 5)
    assert signed_cells([48.12, -0.04], 80) == (["+48.1", "-0.0"], 5)  # the sign stays (issue 42)
    assert signed_cells([137.4, -0.6], 80) == (["+137", "-1"], 5)
    assert signed_cells([48.12, -0.004, 0.004], 92) == (["+48.12", "-0.00", "+0.00"], 6)


def test_negative_zero_never_prints(capsys, monkeypatch):
    """Issue 32: verify printed -0.000000000.  A number that rounds to zero prints without a sign,
    except an EV margin, whose sign says which way the hand goes (issue 42, the next test)."""
    from sflp.checks import number_text

    assert [number_text(v, "+.2f") for v in (-0.004, 0.004, 0.0, -0.0)] == ["0.00"] * 4
    assert number_text(-1e-12, ">24.9f") == " " * 13 + "0.000000000"
    assert number_text(-0.005, "+.2f") == "-0.01" and number_text(0.006, "+.2f") == "+0.01"
    out = run(capsys, monkeypatch, 80, "exploit", "--stack", "10", "--bb", "30%")
    assert not NEGATIVE_ZERO.search(without_margins(out))


def _zeros(grid: list[list[str]], margins) -> list[tuple[str, str, float]]:
    """(hand, cell text, margin) of every cell of a margin grid that prints as zero."""
    from sflp.core.cards import CLASS_NAMES

    return [(CLASS_NAMES[13 * r + c], grid[r][c], float(margins[13 * r + c]))
            for r in range(13) for c in range(13) if grid[r][c].lstrip("+-=") == "0.00"]


@pytest.mark.parametrize("columns", [80, 200])
def test_a_margin_that_rounds_to_zero_keeps_its_sign(capsys, monkeypatch, columns):
    """Issue 42: unsigned " 0.00" margins hid which way a hand goes: `sflp solve --stack 10` printed
    SB's T7o (EV(shove) - EV(fold) = -0.0047 bb: folded) and `sflp exploit --stack 10 --bb 30%`
    printed 84o (+0.0047: pushed) as 0.00, like the exact ties.  Now every margin that is not zero
    shows its sign, the sign of the solver's margin; only an exact 0 (a mixed hand, indifferent)
    prints 0.00 (in exploit, =0.00), and a note under the grids says so."""
    import sflp
    from sflp.core.cards import CLASS_NAMES
    from sflp.study.exploit import exploit
    from sflp.study.strategy import load_strategy

    solution = sflp.solve(sflp.GameConfig(stack=10))
    out = run(capsys, monkeypatch, columns, "solve", "--stack", "10")
    lines = [line[:92] for line in out.splitlines()]  # SB's grid (at 200 columns BB's stands beside it)
    zeros = _zeros(grid_after(lines, "SB EV margin"), solution.sb_ev)
    assert ("T7o", "-0.00", solution.sb_ev[CLASS_NAMES.index("T7o")]) in zeros
    assert ("43s", "0.00", 0.0) in zeros  # mixed at 10 bb: indifferent, an exact 0
    for hand, text, margin in zeros:
        assert text == ("0.00" if margin == 0 else "+0.00" if margin > 0 else "-0.00"), (hand, text, margin)
    assert "(0.00: exactly 0; +0.00/-0.00: rounds to 0, the sign kept)" in out
    out = run(capsys, monkeypatch, columns, "exploit", "--stack", "10", "--bb", "30%")
    report = exploit(sflp.GameConfig(stack=10), load_strategy("30%", "bb"))
    zeros = _zeros(grid_after(out.splitlines(), "SB EV margin"), report.margins_exact)
    assert {hand: text for hand, text, _ in zeros if hand in ("84o", "J2o")} == {"84o": "+0.00", "J2o": "-0.00"}
    for hand, text, margin in zeros:
        assert text == ("=0.00" if margin == 0 else "+0.00" if margin > 0 else "-0.00"), (hand, text, margin)
    assert "=0.00: exactly 0; +0.00/-0.00: rounds to 0, the sign kept" in out


def test_sc_shows_infinity_like_the_other_media(capsys, monkeypatch):
    out = run(capsys, monkeypatch, 80, "sc")
    grid = grid_after(out.splitlines(), "Largest stack")
    assert grid[0][0] == "\u221e" and "inf" not in out  # AA shoves face up at any stack
    assert grid[0][1] == "277.8"  # AKs, the published SC number 277.8 (wikipedia: Sklansky-Chubukov ranking)


def test_exploit_shows_the_locked_range_and_both_grids(capsys, monkeypatch):
    """Which hands the locked '30%' caller holds: the range text and the grid are the range
    parser's '30%' (an independent oracle); the hero's grid is its printed best response."""
    import sflp

    out = run(capsys, monkeypatch, 80, "exploit", "--stack", "10", "--bb", "30%")
    lines = out.splitlines()
    locked = sflp.parse_range("30%")
    assert f"BB's locked call range (30.02% of hands): {locked}" in out  # fits one line at 80
    cells = grid_after(lines, "BB calls (locked)")
    shown = {c for row in cells for c in row if c != "."}
    assert shown == set(locked.classes())
    hero = grid_after(lines, "SB pushes (best response)")
    combos = {"pair": 6, "s": 4, "o": 12}
    held = sum(combos["pair" if len(c) == 2 else c[2]] for row in hero for c in row if c != ".")
    assert held == round(0.8552 * 1326)  # the printed 85.52 % of hands
    assert lines.index(next(ln for ln in lines if ln.startswith("Exact"))) > lines.index(
        next(ln for ln in lines if ln.startswith("SB EV margin")))


def test_exploit_grids_are_coloured_like_solve():
    import sflp
    from sflp.study.exploit import exploit
    from sflp.study.strategy import load_strategy
    from sflp.views.text import format_exploit

    report = exploit(sflp.GameConfig(stack=10), load_strategy("30%", "bb"))
    text = format_exploit(report, color=True, width=80)
    cell = re.compile(r"\x1b\[48;2;(\d+);(\d+);(\d+);38;2;\d+;\d+;\d+m([^\x1b]*)\x1b\[0m")
    named = {}
    for r, g, b, label in cell.findall(text):
        named.setdefault(label.strip(), []).append((int(r), int(g), int(b)))
    assert named["AA"][:2] == [(0x31, 0x82, 0xBD), (0x2E, 0xA0, 0x43)]  # locked BB blue, hero SB green
    assert named["32s"][:2] == [(255, 255, 255), (0x2E, 0xA0, 0x43)]  # BB folds it, SB shoves it
    assert max(visible_width(line) for line in text.splitlines()) <= 80
    from sflp.views.text import format_solution

    solve_text = format_solution(sflp.solve(sflp.GameConfig(stack=10)), color=True, width=80)
    assert "\x1b[48;2;" in solve_text and max(map(visible_width, solve_text.splitlines())) <= 80


def test_solve_range_grids_have_rank_headers_and_the_exact_figures_come_last(capsys, monkeypatch):
    out = run(capsys, monkeypatch, 80, "solve", "--stack", "10")
    lines = out.splitlines()
    sb = grid_after(lines, "SB push range")
    assert sb[0][0] == "AA" and sb[RANKS.index("4")][RANKS.index("3")] == "43s*"  # suited above the diagonal
    bb = grid_after(lines, "BB call range")
    assert bb[RANKS.index("Q")][RANKS.index("6")] == "Q6s*"
    exact = lines.index("Exact (certified equilibrium, exploitability exactly 0):")
    assert exact > max(k for k, line in enumerate(lines) if line.startswith(("SB EV", "BB EV")))
    # the README's numbers: value -193795725978624491/4271380016945441400, 43s 8731989/12285638
    assert "= -193795725978624491/4271380016945441400" in lines[exact + 1]
    assert lines[exact + 2:exact + 4] == ["  SB pushes 43s = 8731989/12285638", "  BB calls Q6s = 4948399/12285638"]
    assert not any(re.search(r"\d{12}", line) for line in lines[:exact])  # no long fraction before it
    # the bracket notation of a mixed hand is explained where it is printed
    assert "[71.1]43s[/71.1]" in out and "[p]hand[/p]: the hand played p % of the time" in out


def test_wrapped_ranges_read_back():
    """A range broken over lines at 80 columns is still the range (the parser skips spaces)."""
    import numpy as np

    import sflp
    from sflp.charts.media.terminal import wrap_items
    from sflp.views.text import range_text

    weights = sflp.solve(sflp.GameConfig(stack=10)).class_strategies()[0]
    text = range_text(weights)
    lines = wrap_items("SB push range: ", text.split(","), 40)
    assert len(lines) > 2 and max(map(len, lines)) <= 40
    back = sflp.parse_range("\n".join(lines).removeprefix("SB push range: ")).class_weights()
    assert np.array_equal(back, sflp.parse_range(text).class_weights())


def test_verify_of_the_equilibrium_prints_no_negative_zero(capsys, monkeypatch, tmp_path):
    """Issue 32: `verify` printed -0.000000000 when the strategies are the equilibrium (float
    gains of -1e-17); here the equilibrium as an OpenSpiel policy table (the README's
    `--policy policy.json`, made without OpenSpiel)."""
    import json

    import sflp
    from sflp.openspiel import from_strategy

    sb, bb = sflp.solve(sflp.GameConfig(stack=10)).class_strategies()
    (tmp_path / "policy.json").write_text(json.dumps(from_strategy(sb, bb)))
    monkeypatch.chdir(tmp_path)
    out = run(capsys, monkeypatch, 80, "verify", "--stack", "10", "--policy", "policy.json")
    assert "SB                 0.000000000       0.000   OpenSpiel policy (policy.json)" in out
    assert not NEGATIVE_ZERO.search(out) and max(map(visible_width, out.splitlines())) <= 80


def test_compare_text_uses_the_charts_labels_and_states_its_ranking(capsys, monkeypatch, tmp_path):
    """Issue 32 §7: compare's text printed 63s as "7.16" while the chart shows its mark, and did
    not say how its top list is ranked; it is titled by the structures."""
    monkeypatch.chdir(tmp_path)
    out = run(capsys, monkeypatch, 80, "compare", "nash", "ante=0.125", "--stacks", "1:25", "--out", "cmp")
    lines = out.splitlines()
    assert lines[0] == "A: no ante  vs  B: ante 0.125 (SB 0.5 / BB 1)"
    assert "ranked by the total length (bb) of the stacks in the common range" in " ".join(" ".join(lines[4:6]).split())
    # 63s without an ante: pushed to 2.39 bb, folded to 5.07, pushed to 7.16 (the chart's 7.1†)
    row = next(line for line in lines if line.startswith("  63s "))
    assert row.split()[1:3] == ["A", "7.1\u2020"]
    assert max(map(visible_width, lines)) <= 80


def test_a_six_character_label_keeps_the_grid_within_80_columns():
    """A fractional top with a mark (``12.5+*`` on a 2-12.5 chart) is six characters: the grid is
    printed in two halves of wider cells rather than running past 80 columns (issue 32 review)."""
    from sflp.charts.media.terminal import format_thresholds
    from sflp.core.game import GameConfig
    from sflp.solving.thresholds import compute_thresholds

    thresholds = compute_thresholds(GameConfig(stack=2), 2, 12.5, certify=False)
    text = format_thresholds(thresholds, color=False, width=80)
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 80, max(lines, key=len)
    labels = {word for line in lines for word in line.split()}
    assert any(len(w) == 6 and w.startswith("12.5+") for w in labels), sorted(w for w in labels if "12.5" in w)
    # every hand is still there, in both grids
    from sflp.core.cards import CLASS_NAMES

    words = [w for line in lines for w in line.split()]
    assert all(words.count(hand) >= 2 for hand in CLASS_NAMES)
