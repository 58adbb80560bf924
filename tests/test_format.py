"""sflp.views.text: the one output layer (JSON sanitiser, dicts and text of the results)."""

import json
import math
import pathlib
import re
from fractions import Fraction

import numpy as np
import pytest

from sflp.output.clean import json_ready, json_text
from sflp.views.text import thresholds_dict

SFLP = pathlib.Path(__file__).resolve().parent.parent / "sflp"


def _strict(text: str):
    def reject(name):
        raise ValueError(f"not strict JSON: {name}")

    return json.loads(text, parse_constant=reject)


def test_json_text_is_strict_and_spells_the_special_values():
    obj = {
        "nan": math.nan,
        "inf": -math.inf,
        "third": Fraction(1, 3),
        "array": np.array([0.5, np.nan, np.inf]),
        "scalar": np.float64(0.25),
        "count": np.int64(7),
        "flag": np.bool_(True),
        "path": pathlib.Path("reports") / "x",
        "pair": (1, "a"),
        "nested": [{"v": float("nan")}],
    }
    assert _strict(json_text(obj)) == {
        "nan": None,
        "inf": None,
        "third": "1/3",
        "array": [0.5, None, None],
        "scalar": 0.25,
        "count": 7,
        "flag": True,
        "path": str(pathlib.Path("reports") / "x"),
        "pair": [1, "a"],
        "nested": [{"v": None}],
    }


def test_json_text_refuses_what_it_cannot_spell():
    with pytest.raises(TypeError, match="not JSON serialisable: object"):
        json_text({"x": object()})


def test_json_ready_keeps_plain_data_and_passes_options_through():
    data = {"a": [1, 2.5, "x", None, True], "b": {"c": -0.0}}
    assert json_ready(data) == data
    assert json_text(data, indent=2) == json.dumps(data, indent=2)


def test_one_json_sanitiser():
    """Strict JSON for users goes through sflp.output.clean.json_text; the CLI never calls json.dumps."""
    users = sorted(p.relative_to(SFLP).as_posix() for p in SFLP.rglob("*.py") if "json.dumps(" in p.read_text())
    # output/clean: the sanitiser; equity: the table file's header; the chart page: a large blob of
    # plain numbers (strict, allow_nan=False); strategy: quoting a bad JSON value in an error
    # message; openspiel/combo: the .npz's structure array and openspiel/best_response: the best
    # response's file (strict, allow_nan=False; below output, so json_text is out of their reach);
    # examples/cfr_plus: the stand-in for a solver author's trainer writes its policies as such
    # code does, with json.dumps
    assert users == ["charts/media/html/page.py", "core/equity.py", "examples/cfr_plus.py",
                     "openspiel/best_response.py", "openspiel/combo.py", "output/clean.py", "study/strategy.py"]
    assert all("_clean" not in p.read_text() for p in (SFLP / "cli").glob("*.py"))


def test_thresholds_dict_matches_the_thresholds_and_is_strict_json():
    from sflp.core.cards import CLASS_NAMES
    from sflp.core.game import GameConfig
    from sflp.solving.thresholds import compute_thresholds

    t = compute_thresholds(GameConfig(stack=3), low=1, high=3)
    d = _strict(json_text(thresholds_dict(t)))
    assert (d["low"], d["high"], d["small_blind"], d["big_blind"]) == (1.0, 3.0, 0.5, 1.0)
    assert "stack" not in d
    assert len(d["hands"]) == 2 * 169
    assert [(r["player"], r["hand"]) for r in d["hands"]] == [(p, h) for p in ("sb", "bb") for h in CLASS_NAMES]
    for row in d["hands"]:
        h = t.get(row["player"], row["hand"])
        assert row["label"] == h.label()
        assert row["intervals"] == [list(i) for i in h.intervals]
        # the top of the last interval is the hand's threshold; null when never played
        if row["intervals"]:
            assert row["max_stack"] == pytest.approx(row["intervals"][-1][1], abs=1e-12)
        else:
            assert row["max_stack"] is None
    assert d["breakpoints"] == sorted(d["breakpoints"])
    # SB shoves AA at every stack (it beats every hand; folding loses the blind)
    aa = next(r for r in d["hands"] if (r["player"], r["hand"]) == ("sb", "AA"))
    assert aa["intervals"] == [[1.0, 3.0]] and aa["capped"] is True


@pytest.mark.parametrize("stack", [3.0, 10.0, 17.5])
def test_range_text_reads_back_to_the_strategy_within_its_rounding(stack):
    """The ranges `sflp solve` prints are range notation with bracketed percentages for mixed
    hands, which the range parser reads back: each weight within 0.0005 (0.1 % rounded)."""
    import numpy as np

    import sflp
    from sflp.views.text import range_text

    solution = sflp.solve(sflp.GameConfig(stack=stack))
    for weights in solution.class_strategies():
        text = range_text(weights)
        assert ":0." not in text  # no raw float weights
        back = sflp.parse_range(text).class_weights()
        assert np.abs(back - np.asarray(weights)).max() <= 0.0005 + 1e-12, text


def test_grids_stand_side_by_side_on_a_wide_terminal_and_stack_otherwise():
    """Issue 22: on a terminal wide enough for both, the SB and BB grids share their rows (each
    titled, each with its legend); piped output (no width) or a narrow terminal stacks them."""
    import sflp
    from sflp.charts.media.terminal import format_thresholds, visible_width
    from sflp.views.text import format_solution

    solution = sflp.solve(sflp.GameConfig(stack=10))
    wide = format_solution(solution, color=True, width=140).splitlines()
    assert any(line.split() == ["SB", "push", "BB", "call"] for line in wide)  # the grids' titles, one row
    assert max(visible_width(line) for line in wide if "AKs" in line) <= 140
    assert sum("(white: never, green: always" in line for line in wide) == 1 and any(line.count("always") == 2
                                                                          for line in wide)
    for width in (None, 100):  # stacked: one grid under the other, as before
        text = format_solution(solution, width=width)
        assert "SB push range:" in text and not any(ln.split() == ["SB", "push", "BB", "call"]
                                                    for ln in text.splitlines())
    path = sflp.compute_thresholds(sflp.GameConfig(stack=2), low=2, high=8)
    def together(text):
        return any("SB push up to" in ln and "BB call up to" in ln for ln in text.splitlines())

    assert together(format_thresholds(path, width=170)) and not together(format_thresholds(path))


def test_coloured_terminal_grids_use_the_charts_colours():
    """Issue 22, point 1: the terminal's range grids shade white -> player colour like every other
    medium (README: SB pushes 43s 71.07 % at 10 bb, BB calls Q6s 40.28 %), and its EV-margin grids
    use the diverging red-white-blue scale."""
    import re

    import sflp
    from sflp.views.text import format_solution

    text = format_solution(sflp.solve(sflp.GameConfig(stack=10)), color=True)
    cell = re.compile(r"\x1b\[48;2;(\d+);(\d+);(\d+);38;2;\d+;\d+;\d+m([^\x1b]*)\x1b\[0m")
    cells = [(tuple(map(int, m[:3])), m[3]) for m in cell.findall(text)]
    named = {}
    for rgb, label in cells:
        named.setdefault(label.strip(), []).append(rgb)
    assert named["AA"][:2] == [(0x2E, 0xA0, 0x43), (0x31, 0x82, 0xBD)]  # SB green, BB blue: always
    assert named["72o"][0] == (255, 255, 255)  # never pushed: white
    sb43 = named["43s*"][0]  # mixed at 0.7107: 71 % of the way from white to green
    assert all(abs(c - (255 + (g - 255) * 0.7107)) <= 1 for c, g in zip(sb43, (0x2E, 0xA0, 0x43)))
    margins = [(rgb, float(label)) for rgb, label in cells if re.fullmatch(r"\s*[+-]?\d+\.\d\d", label)]
    assert len(margins) == 2 * 169  # both grids (at 10 bb every BB hand faces some shove)
    for rgb, v in margins:  # red below zero, blue above
        if v <= -0.05:
            assert rgb[0] > rgb[2]
        elif v >= 0.05:
            assert rgb[2] > rgb[0]


# ---------------------------------------------------------------- huge numbers in readable text

HUGE = ["--stack", "1e30", "--ante", "1e25"]
"""A game whose values are about 1e25 bb: fixed-point text printed them with 25 digits and more
(``-9909539200295503115845632.000000``), and ``--bb-ante 1e100`` with a hundred."""


@pytest.mark.parametrize("argv", [
    ["solve", *HUGE], ["simulate", *HUGE, "--hands", "1000"], ["verify", *HUGE, "--sb", "30%", "--bb", "30%"],
    ["exploit", *HUGE, "--bb", "30%"], ["sc", "--ante", "1e25"],
], ids=lambda argv: argv[0])
def test_readable_text_shows_huge_values_in_short_form_and_json_keeps_them_exact(capsys, argv):
    from sflp.cli import main

    assert main([*argv, "--no-color"]) == 0
    text = capsys.readouterr().out
    readable = re.split(r"^Exact", text, flags=re.M)[0]  # exact fractions stay whole: at the end, under "Exact"
    long_numbers = [line for line in readable.splitlines()
                    if re.search(r"\d{21}", line) and not re.search(r"exact|/\d", line)]
    assert not long_numbers, long_numbers[:3]
    assert re.search(r"\de\+2\d", text), text[:400]  # in %g style instead
    if argv[0] != "sc":
        assert main([*argv, "--json"]) == 0
        numbers = [v for v in _floats(json.loads(capsys.readouterr().out)) if abs(v) >= 1e20]
        assert numbers and all(isinstance(v, float) for v in numbers)  # --json: the floats themselves


def _floats(obj):
    if isinstance(obj, dict):
        for v in obj.values():
            yield from _floats(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from _floats(v)
    elif isinstance(obj, float):
        yield obj


@pytest.mark.parametrize("value, spec, digits, text", [
    (0.5, "+.9f", 6, "+0.500000000"), (-1e20, "+.9f", 6, "-1e+20"), (99999999999999991611392.0, ".2f", 3, "1e+23"),
    (1e19, ".1f", 3, "10000000000000000000.0"), (6.5e27, ">12.3f", 6, "     6.5e+27"), (float("inf"), ".2f", 6, "inf"),
])
def test_number_text_is_fixed_point_below_1e20_and_short_above(value, spec, digits, text):
    from sflp.checks import number_text

    assert number_text(value, spec, digits) == text
