"""sflp compare: interval arithmetic by hand, folders round-trip, configurations vs thresholds."""

from __future__ import annotations

import csv
import json
import re
from fractions import Fraction

import numpy as np
import pytest

from sflp.charts.compare import compare_frame, difference_picture, load_chart
from sflp.cli import main
from sflp.core.game import GameConfig
from sflp.errors import ConfigError, DataError
from sflp.solving.thresholds import compute_thresholds
from sflp.study.compare import Chart, compare_charts, symmetric_difference


def test_symmetric_difference_by_hand():
    assert symmetric_difference(((1, 5),), ((1, 5),), 1, 25) == ()
    assert symmetric_difference(((1, 5),), ((1, 7),), 1, 25) == ((5, 7),)
    assert symmetric_difference(((1, 5), (8, 9)), ((3, 10),), 1, 25) == ((1, 3), (5, 8), (9, 10))
    assert symmetric_difference(((1, 30),), (), 2, 25) == ((2, 25),)  # clipped to the common range


def test_compare_charts_fields():
    a = Chart("A", 1, 25, {("sb", "T3s"): ((1, 7.5),), ("bb", "AA"): ((1, 25),)})
    b = Chart("B", 2, 20, {("sb", "T3s"): ((1, 6.0), (7.0, 8.0))})
    d = compare_charts(a, b)
    t3s = d[("sb", "T3s")]
    assert (t3s.threshold_a, t3s.threshold_b, t3s.difference) == (7.5, 8.0, 0.5)
    assert t3s.differs == ((6.0, 7.0), (7.5, 8.0)) and t3s.differ_length == 1.5
    aa = d[("bb", "AA")]
    assert aa.capped_a and aa.threshold_b is None and aa.difference is None and aa.differs == ((2, 20),)
    assert d[("sb", "72o")].differ_length == 0
    with pytest.raises(ConfigError, match="share no stack range"):
        compare_charts(Chart("A", 1, 2, {}), Chart("B", 3, 4, {}))


def test_same_configuration_twice_agrees_everywhere(capsys, tmp_path):
    assert main(["compare", "nash", "default", "--stacks", "2:6", "--out", str(tmp_path), "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert len(obj["hands"]) == 338 and all(h["differ_length"] == 0 for h in obj["hands"])
    assert {"compare.csv", "sb_diff.csv", "bb_diff.csv", "compare.png", "compare.svg"} <= set(obj["files"])


def test_configurations_match_their_thresholds(capsys, tmp_path):
    # Independent: the difference of each hand's chart number, read from compute_thresholds directly.
    assert main(["compare", "nash", "ante=0.125", "--stacks", "2:8", "--out", str(tmp_path), "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    ta = compute_thresholds(GameConfig(stack=2), 2, 8)
    tb = compute_thresholds(GameConfig(stack=2, ante=0.125), 2, 8)
    for row in obj["hands"]:
        ha, hb = ta.get(row["player"], row["hand"]), tb.get(row["player"], row["hand"])
        a, b = ha.max_stack, hb.max_stack
        if a is None or b is None or (ha.capped and hb.capped):  # both capped: no difference (AA)
            assert row["difference"] is None
        else:
            assert row["difference"] == pytest.approx(b - a, abs=1e-12)
    assert any(row["differ_length"] > 0 for row in obj["hands"])  # antes change the chart
    # compare.csv: 6 decimals at most, no float noise; the difference is that of the published thresholds
    with open(tmp_path / "compare.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == 338
    for row in rows:
        ha, hb = ta.get(row["player"], row["hand"]), tb.get(row["player"], row["hand"])
        for column in ("threshold_a", "threshold_b", "difference", "differ_length"):
            assert re.fullmatch(r"(-?\d+\.\d{1,6})?", row[column]), (column, row[column])
        for column, h in (("threshold_a", ha), ("threshold_b", hb)):
            assert row[column] == ("" if h.max_stack is None else repr(float(h.published_texts()[2])))
        if row["difference"]:
            want = Fraction(hb.published_texts()[2]) - Fraction(ha.published_texts()[2])
            assert Fraction(row["difference"]) == want
        both = ha.capped and hb.capped
        assert (row["difference"] == "") == (ha.max_stack is None or hb.max_stack is None or both)
        assert {row["capped_a"], row["capped_b"]} <= {"true", "false"}
        # each side's label is its chart's cell (the chart number, then * or † as on the chart)
        for column, h, low in (("label_a", ha, 2.0), ("label_b", hb, 2.0)):
            gaps = [q[0] - p[1] for p, q in zip(h.intervals, h.intervals[1:])]
            gaps += [h.intervals[0][0] - low] if h.intervals and h.intervals[0][0] > low + 1e-9 else []
            assert row[column] == h.label() + ("" if not gaps else "†" if max(gaps) >= 0.5 else "*"), row
    aa = next(r for r in rows if (r["player"], r["hand"]) == ("sb", "AA"))
    assert (aa["label_a"], aa["label_b"], aa["difference"]) == ("8+", "8+", "")
    # the picture is titled by the structures, not by paths or option strings
    svg = (tmp_path / "compare.svg").read_text()
    assert "A: no ante  vs  B: ante 0.125 (SB 0.5 / BB 1), stacks 2-8 bb" in svg and "nash" not in svg


def test_folder_round_trip(capsys, tmp_path):
    chart = tmp_path / "c"
    # the thresholds and the manifest are what compare reads: the CSV files are the whole folder it needs
    assert main(["chart", "--stacks", "2:4:0.5", "--formats", "csv", "--out", str(chart), "--json"]) == 0
    capsys.readouterr()
    loaded = load_chart(chart)
    t = compute_thresholds(GameConfig(stack=2), 2, 4)
    assert (loaded.low, loaded.high) == (2.0, 4.0)
    for hand in ("T3s", "72o", "Q2o"):
        for player in ("sb", "bb"):
            got, want = loaded.get(player, hand), t.get(player, hand).intervals
            assert len(got) == len(want)
            assert all(abs(x - y) < 1e-6 for g, w in zip(got, want) for x, y in zip(g, w))
    assert main(["compare", str(chart), "nash", "--stacks", "2:4", "--out", str(tmp_path / "o"), "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert max(h["differ_length"] for h in obj["hands"]) < 1e-5  # 6-decimal CSV vs exact
    # the folder's structure and kind come from its manifest: the title names no path
    assert (loaded.config.ante, loaded.title) == (0.0, "Nash equilibrium")
    svg = (tmp_path / "o" / "compare.svg").read_text()
    assert "A and B: Nash equilibrium (SB 0.5 / BB 1, no ante), stacks 2-4 bb" in svg and str(tmp_path) not in svg


def test_both_capped_is_no_difference_and_the_cell_says_so():
    # AA capped in both (25+ and 15+): no number; a capped pair differing below its top is "capped"
    a = Chart("A", 1, 25, {("sb", "AA"): ((1, 25),), ("sb", "KK"): ((1, 25),), ("sb", "QQ"): ((1, 9.5),)})
    b = Chart("B", 1, 15, {("sb", "AA"): ((1, 15),), ("sb", "KK"): ((1, 3), (4, 15)), ("sb", "QQ"): ((1, 12.25),)})
    frame = compare_frame(compare_charts(a, b), a, b).set_index(["player", "hand"])
    assert np.isnan(frame.loc[("sb", "AA"), "difference"]) and frame.loc[("sb", "AA"), "label_b"] == "15+"
    assert (frame.loc[("sb", "KK"), "label_b"], frame.loc[("sb", "KK"), "differ_length"]) == ("15+†", 1.0)
    assert frame.loc[("sb", "QQ"), "difference"] == 2.75
    from sflp.charts.media.draw import Text

    texts = [item.text for item in difference_picture(frame.reset_index(), "A vs B", 1, 15).items
             if isinstance(item, Text)]
    assert texts.count("capped") == 1 and "+2.8" in texts and texts.count("A/B") == 0


@pytest.mark.parametrize(("a", "needle"), [("ante=abc", "not a number"), ("foo=1", "neither a chart-set folder")])
def test_bad_sides(capsys, tmp_path, a, needle):
    code = main(["compare", a, "nash", "--out", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 2 and needle in err and err.count("\n") == 1


def test_load_chart_errors(tmp_path):
    (tmp_path / "thresholds.csv").write_text("player,hand,intervals\nsb,AA,1-x\n")
    (tmp_path / "values.csv").write_text("stack\n1\n")
    with pytest.raises(DataError, match="manifest.json is missing.*verify=False"):
        load_chart(tmp_path)  # a folder made by hand is read only when asked (issue 40: readers check)
    with pytest.raises(DataError, match="line 2"):
        load_chart(tmp_path, verify=False)
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(DataError, match="thresholds.csv .*does not exist"):
        load_chart(empty, verify=False)
    with pytest.raises(DataError, match="not a folder"):
        load_chart(tmp_path / "missing")
