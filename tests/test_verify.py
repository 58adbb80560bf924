"""Tests of sflp.study.verify: strategy files, exploitability against the exact equilibrium, per-hand EV lost."""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest

from sflp.core.cards import (
    CLASS_COMBOS,
    CLASS_NAMES,
    COMBO_CLASS,
    COMBO_DISJOINT,
    N_CLASSES,
    N_COMBOS,
    combo_name,
    parse_combo,
)
from sflp.core.equity import BOARDS_PER_PAIR
from sflp.core.game import DEALS, GameConfig, PushFoldGame
from sflp.errors import ConfigError, NotationError
from sflp.solving.solver import solve
from sflp.study.verify import StrategyFileError, StrategySpec, exceeds, format_text, load_strategy, verify

TEN = GameConfig(stack=10)
ANTES = GameConfig(stack=10, ante=0.1, bb_ante=1)
GRID_RANKS = "AKQJT98765432"


@pytest.fixture(scope="module")
def eq10():
    return solve(TEN)


@pytest.fixture(scope="module")
def eq_antes():
    return solve(ANTES)


def write(tmp_path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def class_csv(freq, header: bool = True) -> str:
    lines = ["hand,frequency"] if header else []
    lines += [f"{CLASS_NAMES[k]},{float(freq[k])!r}" for k in range(N_CLASSES)]
    return "\n".join(lines) + "\n"


def combo_csv(combo_freq) -> str:
    return "hand,frequency\n" + "".join(f"{combo_name(c)},{float(combo_freq[c])!r}\n" for c in range(N_COMBOS))


def grid_csv(freq, header: bool = False, labels: bool = False) -> str:
    lines = []
    if header:
        lines.append(("," if labels else "") + ",".join(GRID_RANKS))
    for row in range(13):
        cells = [repr(float(freq[row * 13 + col])) for col in range(13)]
        lines.append((GRID_RANKS[row] + "," if labels else "") + ",".join(cells))
    return "\n".join(lines) + "\n"


def figures(report) -> tuple:
    return (
        report.nash_value,
        report.sb_exploitability,
        report.bb_exploitability,
        report.value_vs_each_other,
        report.total_exploitability,
    )


# ---------------------------------------------------------------- the exact equilibrium


@pytest.mark.parametrize("config_name", ["ten", "antes"])
def test_exact_equilibrium_verifies(tmp_path, config_name, eq10, eq_antes):
    config, solution = (TEN, eq10) if config_name == "ten" else (ANTES, eq_antes)
    sb = load_strategy(write(tmp_path, "sb.csv", class_csv(solution.sb_strategy)), "sb")
    bb = load_strategy(write(tmp_path, "bb.csv", class_csv(solution.bb_strategy)), "bb")
    report = verify(config, sb, bb)  # solves on its own
    assert report.level == "class"
    for e in (report.sb_exploitability, report.bb_exploitability, report.total_exploitability):
        assert -1e-12 <= e <= 1e-9
    assert report.value_vs_each_other == pytest.approx(report.nash_value, abs=1e-12)
    assert report.nash_value == pytest.approx(solution.value, abs=1e-12)
    assert not exceeds(report, 1e-9)
    assert all(abs(row.ev_lost) <= 1e-12 for row in report.hands)
    assert report.missing == {"sb": (), "bb": ()}


# ---------------------------------------------------------------- independent hand computations


def terminal_payoffs(config: GameConfig) -> dict[str, Fraction]:
    """SB's net chips at each terminal node, from the rules (stacks counted before posting)."""
    c = config.exact()
    s, a, big_ante = c["stack"], c["ante"], c["bb_ante"]
    matched = s - a - big_ante  # BB's live stack; SB's extra bb_ante is returned uncalled
    pot = 2 * matched + 2 * a + big_ante
    return {
        "fold": -(c["small_blind"] + a),
        "steal": c["big_blind"] + a + big_ante,
        "win": pot + big_ante - s,
        "lose": big_ante - s,
        "tie": pot / 2 + big_ante - s,
    }


def showdown_total(table, i: int, j: int, pay: dict[str, Fraction]) -> tuple[int, Fraction]:
    """(disjoint combo pairs, SB's summed showdown payoff over pairs, per board) for classes i vs j."""
    pairs, w, t, l = table.class_counts(i, j)
    return pairs, (pay["win"] * w + pay["tie"] * t + pay["lose"] * l) / BOARDS_PER_PAIR


@pytest.mark.parametrize("config", [TEN, ANTES], ids=["10bb", "antes"])
def test_push_everything_matches_hand_computation(config, table, eq10, eq_antes):
    """SB shoves all 169 classes: BB best-responds class by class, explicit loops over the table."""
    solution = eq10 if config is TEN else eq_antes
    pay = terminal_payoffs(config)
    value = Fraction(0)
    for j in range(N_CLASSES):  # BB's class
        call = fold = Fraction(0)
        for i in range(N_CLASSES):  # SB's class
            pairs, showdown = showdown_total(table, i, j, pay)
            call += showdown
            fold += pairs * pay["steal"]
        value += min(call, fold)  # BB picks what is worse for SB
    value /= DEALS
    report = verify(config, load_strategy("random", "sb"), None, solution=solution)
    expected = solution.value - float(value)
    assert expected > 0.1  # large
    assert report.sb_exploitability == pytest.approx(expected, abs=1e-12)
    assert report.bb_exploitability is None and report.value_vs_each_other is None
    assert report.total_exploitability == report.sb_exploitability
    assert report.sb_exploitability_mbb == pytest.approx(1000 * expected, abs=1e-9)


@pytest.mark.parametrize("config", [TEN, ANTES], ids=["10bb", "antes"])
def test_call_everything_matches_hand_computation(config, table, eq10, eq_antes):
    """BB calls every class: SB best-responds class by class, explicit loops over the table."""
    solution = eq10 if config is TEN else eq_antes
    pay = terminal_payoffs(config)
    value = Fraction(0)
    for i in range(N_CLASSES):
        shove = fold = Fraction(0)
        for j in range(N_CLASSES):
            pairs, showdown = showdown_total(table, i, j, pay)
            shove += showdown
            fold += pairs * pay["fold"]
        value += max(shove, fold)
    value /= DEALS
    report = verify(config, None, load_strategy("random", "bb"), solution=solution)
    expected = float(value) - solution.value
    assert expected > 0.1
    assert report.bb_exploitability == pytest.approx(expected, abs=1e-12)
    assert report.sb_exploitability is None
    assert exceeds(report, 0.1) and not exceeds(report, expected + 1e-6)


# ---------------------------------------------------------------- class vs combo files


def test_combo_file_equal_to_class_file_gives_same_figures(tmp_path, eq10):
    sb_cls = load_strategy(write(tmp_path, "sb.csv", class_csv(eq10.sb_strategy)), "sb")
    sb_cmb = load_strategy(write(tmp_path, "sb_combos.csv", combo_csv(eq10.sb_strategy[COMBO_CLASS])), "sb")
    bb_cls = load_strategy("22+,A2+,K2+,Q2+", "bb")
    bb_cmb = load_strategy(write(tmp_path, "bb_combos.csv", combo_csv(bb_cls.combo_freq)), "bb")
    assert sb_cmb.kind == "combo-list" and sb_cmb.uniform and sb_cmb.level == "class"
    a = verify(TEN, sb_cls, bb_cls, solution=eq10)
    b = verify(TEN, sb_cmb, bb_cmb, solution=eq10)
    assert a.level == b.level == "class"
    assert figures(a) == figures(b)
    assert [r.to_dict() for r in a.hands] == [r.to_dict() for r in b.hands]


def test_combo_spec_varying_within_a_class_is_exact_at_combo_level(table, eq10):
    """One AKo combo removed from SB's equilibrium: BB's combo-level best response, computed directly."""
    x = eq10.sb_strategy[COMBO_CLASS].copy()
    x[parse_combo("AsKd")] = 0.0
    spec = StrategySpec.from_frequencies(x, "sb")
    assert not spec.uniform and spec.level == "combo"
    report = verify(TEN, spec, None, solution=eq10)
    assert report.level == "combo"
    # independent: SB's value when BB best-responds combo by combo (no antes: +S / -S / 0)
    s, f, g = 10.0, -0.5, 1.0
    wins, ties = table.wins.astype(float), table.ties.astype(float)
    disjoint = COMBO_DISJOINT.astype(float)
    losses = disjoint * BOARDS_PER_PAIR - wins - ties
    showdown = s * (wins - losses) / BOARDS_PER_PAIR
    call, fold = x @ showdown, x @ (disjoint * g)
    value = ((1 - x).sum() * 1225 * f + np.minimum(call, fold).sum()) / DEALS
    assert report.sb_exploitability == pytest.approx(eq10.value - value, abs=1e-12)
    assert report.sb_exploitability > 1e-6
    akso = [r for r in report.hands if r.hand == "AKo"][0]
    assert akso.given == pytest.approx(11 / 12) and akso.exact == 1.0 and akso.ev_lost > 0


# ---------------------------------------------------------------- the ev_lost identity


@pytest.mark.parametrize("config", [TEN, ANTES], ids=["10bb", "antes"])
@pytest.mark.parametrize(("sb_text", "bb_text"), [("22+,A2s+,K9o+", "random"), ("random:0.3,AA:0", "TT+,AQ+")])
def test_ev_lost_identity(config, sb_text, bb_text, eq10, eq_antes):
    solution = eq10 if config is TEN else eq_antes
    sb, bb = load_strategy(sb_text, "sb"), load_strategy(bb_text, "bb")
    report = verify(config, sb, bb, solution=solution)
    game = PushFoldGame(config)
    x_star, y_star = solution.sb_strategy, solution.bb_strategy
    assert all(r.ev_lost >= 0 for r in report.hands)
    assert report.ev_lost("sb") == pytest.approx(report.nash_value - game.value(sb.class_freq, y_star), abs=1e-12)
    assert report.ev_lost("bb") == pytest.approx(game.value(x_star, bb.class_freq) - report.nash_value, abs=1e-12)
    assert report.value_vs_each_other == pytest.approx(game.value(sb.class_freq, bb.class_freq), abs=1e-12)
    assert report.total_exploitability == pytest.approx(game.exploitability(sb.class_freq, bb.class_freq), abs=1e-12)
    # the exploitability lets the opponent adapt, so it is at least the loss against the fixed equilibrium
    assert report.sb_exploitability >= report.ev_lost("sb") - 1e-12
    assert report.bb_exploitability >= report.ev_lost("bb") - 1e-12


def test_ev_lost_identity_at_combo_level(eq10):
    x = eq10.sb_strategy[COMBO_CLASS].copy()
    x[list(CLASS_COMBOS[CLASS_NAMES.index("72o")])[:5]] = 1.0
    y = np.ones(N_COMBOS)
    y[parse_combo("AhAd")] = 0.0
    report = verify(TEN, StrategySpec.from_frequencies(x, "sb"), StrategySpec.from_frequencies(y, "bb"), solution=eq10)
    assert report.level == "combo"
    game = PushFoldGame(TEN, level="combo")
    xs, ys = eq10.sb_strategy[COMBO_CLASS], eq10.bb_strategy[COMBO_CLASS]
    assert report.ev_lost("sb") == pytest.approx(report.nash_value - game.value(x, ys), abs=1e-12)
    assert report.ev_lost("bb") == pytest.approx(game.value(xs, y) - report.nash_value, abs=1e-12)
    assert [r.hand for r in report.hands if r.player == "sb" and r.ev_lost > 1e-12] == ["72o"]
    assert [r.hand for r in report.hands if r.player == "bb" and r.ev_lost > 1e-12][0] == "AA"


# ---------------------------------------------------------------- file formats


def test_all_formats_parse_to_the_same_strategy(tmp_path, eq10):
    freq = eq10.sb_strategy
    expected = freq[COMBO_CLASS]
    texts = {
        "classes.csv": class_csv(freq),
        "classes_no_header.csv": class_csv(freq, header=False),
        "classes.tsv": class_csv(freq).replace(",", "\t"),
        "classes.txt": "# SB pushes\n\n" + class_csv(freq, header=False).replace(",", "  "),
        "combos.csv": combo_csv(expected),
        "grid.csv": grid_csv(freq),
        "grid_header.csv": grid_csv(freq, header=True),
        "grid_labels.csv": grid_csv(freq, header=True, labels=True),
        "classes.json": json.dumps({CLASS_NAMES[k]: float(freq[k]) for k in range(N_CLASSES)}, indent=2),
        "combos.json": json.dumps({combo_name(c): float(expected[c]) for c in range(N_COMBOS)}),
        "players.json": json.dumps(
            {"sb": {CLASS_NAMES[k]: float(freq[k]) for k in range(N_CLASSES)}, "bb": {"AA": 1}}, indent=1
        ),
    }
    kinds = {}
    for name, text in texts.items():
        spec = load_strategy(write(tmp_path, name, text), "SB")
        assert np.array_equal(spec.combo_freq, expected), name
        assert spec.missing == () and spec.player == "sb" and spec.uniform
        kinds[name] = spec.kind
    assert kinds["classes.csv"] == "class-list" and kinds["combos.csv"] == "combo-list"
    assert kinds["grid_labels.csv"] == "grid" and kinds["players.json"] == "json-class"
    assert kinds["combos.json"] == "json-combo"
    bb = load_strategy(str(tmp_path / "players.json"), "bb")
    assert bb.combo_freq.sum() == 6 and len(bb.missing) == 168


def test_grid_orientation(tmp_path):
    """Row 1 column 2 is AKs (suited above the diagonal), row 2 column 1 AKo, bottom-right 22."""
    cells = [[0.0] * 13 for _ in range(13)]
    cells[0][1], cells[1][0], cells[12][12] = 1.0, 0.5, 0.25
    text = "\n".join(",".join(str(v) for v in row) for row in cells)
    spec = load_strategy(write(tmp_path, "g.csv", text), "bb")
    cf = spec.class_freq
    assert cf[CLASS_NAMES.index("AKs")] == 1.0 and cf[CLASS_NAMES.index("AKo")] == 0.5
    assert cf[CLASS_NAMES.index("22")] == 0.25 and cf.sum() == 1.75


def test_missing_hands_recorded(tmp_path, eq10):
    spec = load_strategy(write(tmp_path, "sb.csv", "hand,frequency\nAA,1\nKK,0.5\n"), "sb")
    assert len(spec.missing) == 167 and "AA" not in spec.missing and "QQ" in spec.missing
    assert spec.class_freq[CLASS_NAMES.index("KK")] == 0.5 and spec.class_freq.sum() == 1.5
    combos = load_strategy(write(tmp_path, "c.csv", "AhAd,1\nAsKs,1\n"), "sb")
    assert "AA" not in combos.missing and "AsAh" in combos.missing and "AKs" not in combos.missing
    assert "AsKh" not in combos.missing and "AKo" in combos.missing and "KK" in combos.missing
    report = verify(TEN, spec, None, solution=eq10)
    assert report.missing["sb"] == spec.missing and report.missing["bb"] is None
    text = format_text(report)
    assert "SB missing 167 hand(s), counted as frequency 0" in text
    assert report.to_dict()["missing"]["sb"][0] == "AKs"


def test_range_string(eq10):
    spec = load_strategy("22+,A2s+,K9o+", "sb")
    assert spec.kind == "range" and spec.missing == () and spec.combo_freq.sum() == 78 + 48 + 4 * 12
    with pytest.raises(NotationError, match="AQo:1.1"):
        load_strategy("AQo:1.1", "sb")
    with pytest.raises(NotationError, match="no such file"):
        load_strategy("nothere/sb.csv", "sb")
    with pytest.raises(ConfigError):
        load_strategy("AA", "button")


MALFORMED = [
    # name, text, line, bad text that must be quoted
    ("range.csv", "hand,frequency\nAA,1\nKK,1.5\n", 3, "1.5"),
    ("neg.csv", "AA,1\nKK,-0.1\n", 2, "-0.1"),
    ("unknown.csv", "AA,1\nKK,1\nXYs,1\n", 3, "XYs"),
    ("ambiguous.csv", "AA,1\nAK,1\n", 2, "AK"),
    ("pair_suited.csv", "AAs,1\n", 1, "AAs"),
    ("dup.csv", "hand,frequency\nAKs,1\nQQ,0\nkas,1\n", 4, "kas"),
    ("dup_combo.csv", "AhKh,1\nKhAh,0\n", 2, "KhAh"),
    ("conflict.csv", "AA,1\nKK,1\nAhKh,1\n", 3, "AhKh"),
    ("conflict2.csv", "AhKh,1\nAA,1\n", 2, "AA"),
    ("text.csv", "AA,1\nKK,yes\n", 2, "yes"),
    ("nan.csv", "AA,nan\n", 1, "nan"),
    ("cells.csv", "AA,1\nKK,1,0\n", 2, "KK,1,0"),
    ("header_only.csv", "hand,frequency\n", 1, "hand,frequency"),
    ("empty.csv", "", 1, "empty"),
    ("blank.csv", "\n  \n# nothing\n", 1, "empty"),
    ("grid_short.csv", "\n".join([",".join(["1"] * 13)] * 12) + "\n", 12, "12 rows"),
    ("grid_long.csv", "\n".join([",".join(["1"] * 13)] * 14) + "\n", 14, "more than 13"),
    ("grid_cell.csv",
     "\n".join([",".join(["1"] * 13)] * 2 + ["1,1,x" + ",1" * 10] + [",".join(["1"] * 13)] * 10), 3, "'x'"),
    ("grid_value.csv",
     "\n".join([",".join(["0"] * 13)] * 5 + ["0,2" + ",0" * 11] + [",".join(["0"] * 13)] * 7), 6, "'2'"),
    ("grid_width.csv",
     "\n".join([",".join(["1"] * 13)] * 3 + [",".join(["1"] * 12)] + [",".join(["1"] * 13)] * 9), 4, "12 cells"),
    ("grid_label.csv", ",A,K,Q,J,T,9,8,7,6,5,4,3,2\nA" + ",1" * 13 + "\nQ" + ",1" * 13 + "\n", 3, "'Q'"),
    ("grid_header.csv", "K,A,Q,J,T,9,8,7,6,5,4,3,2\n" + "\n".join([",".join(["1"] * 13)] * 13), 1, "K,A,Q"),
    ("width.csv", "AA,1,0,0\n", 1, "4 cells"),
    ("bad.json", '{\n  "AA": 1,\n  "KK": 1\n  "QQ": 1\n}\n', 4, "QQ"),
    ("string.json", '{\n  "AA": 1,\n  "KK": "0.5"\n}\n', 3, "0.5"),
    ("bool.json", '{"AA": 1,\n"KK": true}', 2, "true"),
    ("dup.json", '{\n"AA": 1,\n"KK": 1,\n"AA": 0\n}', 4, "AA"),
    ("range.json", '{\n"AA": 1,\n"KK": 1.25\n}', 3, "1.25"),
    ("unknown.json", '{\n"AA": 1,\n\n"AXs": 1\n}', 4, "AXs"),
    ("conflict.json", '{"AA": 1,\n"AhKh": 1}', 2, "AhKh"),
    ("empty.json", "{ }\n", 1, "no hands"),
    ("list.json", "[1, 2]\n", 1, "[1, 2]"),
    ("players.json", '{\n"bb": {"AA": 1}\n}', 2, "'sb'"),
]


@pytest.mark.parametrize(("name", "text", "line", "bad"), MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_files_name_the_file_line_and_text(tmp_path, name, text, line, bad):
    path = write(tmp_path, name, text)
    with pytest.raises(NotationError) as info:
        load_strategy(path, "sb")
    message = str(info.value)
    assert isinstance(info.value, StrategyFileError)
    assert message.startswith(f"{path}, line {line}: "), message
    assert bad in message, message
    assert info.value.line == line and info.value.source == path


def test_not_utf8(tmp_path):
    path = tmp_path / "latin.csv"
    path.write_bytes(b"AA,1\nKK,1\nQ\xe9,1\n")
    with pytest.raises(StrategyFileError, match=r"line 3: not UTF-8"):
        load_strategy(str(path), "sb")


def test_directory_is_not_a_strategy(tmp_path):
    with pytest.raises(NotationError, match="not a file"):
        load_strategy(str(tmp_path), "sb")


# ---------------------------------------------------------------- report, dict, text, bounds


def test_to_dict_keys_and_json(eq10):
    report = verify(TEN, load_strategy("22+", "sb"), load_strategy("random", "bb"), solution=eq10)
    d = report.to_dict()
    core = {
        "stack", "nash_value", "sb_exploitability", "bb_exploitability", "value_vs_each_other",
        "total_exploitability", "sb_exploitability_mbb", "bb_exploitability_mbb",
        "total_exploitability_mbb", "missing", "hands", "sources", "notes", "level",
    }
    assert set(d) == core | set(TEN.as_dict())
    assert d["level"] == "class"  # every hand class played alike: scored on the 169 classes
    assert d["sources"] == {"sb": "range '22+'", "bb": "range 'random'"} and d["notes"] == {}
    assert json.loads(json.dumps(d)) == d
    assert len(d["hands"]) == 2 * N_CLASSES
    assert set(d["hands"][0]) == {"player", "hand", "given", "exact", "ev_lost"}
    assert d["total_exploitability_mbb"] == pytest.approx(1000 * d["total_exploitability"])
    assert d["total_exploitability"] == pytest.approx(d["sb_exploitability"] + d["bb_exploitability"])
    one = verify(TEN, None, load_strategy("random", "bb"), solution=eq10).to_dict()
    assert one["sb_exploitability"] is None and one["value_vs_each_other"] is None
    assert one["missing"] == {"sb": None, "bb": []}


def test_format_text(eq10):
    report = verify(TEN, load_strategy("22+,A2s+,K9o+", "sb"), None, solution=eq10)
    text = format_text(report)
    assert isinstance(text, str) and "22+,A2s+,K9o+" in text and "(not given)" in text
    assert f"{report.sb_exploitability:.9f}" in text
    assert "AKo" in text  # the costliest SB hand: folded, but an equilibrium shove


def test_exceeds_and_argument_checks(eq10):
    report = verify(TEN, load_strategy("random", "sb"), None, solution=eq10)
    assert exceeds(report, 0.0) and not exceeds(report, 10.0)
    with pytest.raises(ConfigError):
        exceeds(report, -1)
    with pytest.raises(ConfigError):
        verify(TEN, None, None)
    with pytest.raises(ConfigError, match="loaded for BB"):
        verify(TEN, load_strategy("AA", "bb"), None, solution=eq10)
    with pytest.raises(ConfigError):
        verify(ANTES, load_strategy("AA", "sb"), None, solution=eq10)
