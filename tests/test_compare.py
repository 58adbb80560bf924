"""sflp compare: interval arithmetic by hand, folders round-trip, configurations vs thresholds."""

from __future__ import annotations

import json

import pytest

from sflp.cli import main
from sflp.core.game import GameConfig
from sflp.errors import ConfigError, DataError
from sflp.report.compare import load_chart
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
        a, b = ta.get(row["player"], row["hand"]).max_stack, tb.get(row["player"], row["hand"]).max_stack
        if a is None or b is None:
            assert row["difference"] is None
        else:
            assert row["difference"] == pytest.approx(b - a, abs=1e-12)
    assert any(row["differ_length"] > 0 for row in obj["hands"])  # antes change the chart


def test_folder_round_trip(capsys, tmp_path):
    chart = tmp_path / "c"
    assert main(["chart", "--stacks", "2:4:0.5", "--out", str(chart), "--json"]) == 0
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


@pytest.mark.parametrize(("a", "needle"), [("ante=abc", "not a number"), ("foo=1", "neither a chart-set folder")])
def test_bad_sides(capsys, tmp_path, a, needle):
    code = main(["compare", a, "nash", "--out", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 2 and needle in err and err.count("\n") == 1


def test_load_chart_errors(tmp_path):
    (tmp_path / "thresholds.csv").write_text("player,hand,intervals\nsb,AA,1-x\n")
    (tmp_path / "values.csv").write_text("stack\n1\n")
    with pytest.raises(DataError, match="line 2"):
        load_chart(tmp_path)
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(DataError, match="thresholds.csv .*does not exist"):
        load_chart(empty)
    with pytest.raises(DataError, match="not a folder"):
        load_chart(tmp_path / "missing")
