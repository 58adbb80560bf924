"""Tests of sflp.core.ranges: range notation, the Range object and the canonical text form."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sflp.core.cards import CLASS_COMBOS, CLASS_NAMES, COMBO_CLASS, N_COMBOS, class_id, combo_name, parse_combo
from sflp.core.ranges import Range, format_range, parse_range
from sflp.errors import NotationError


def names(text: str) -> set[str]:
    """The classes a range text covers, as a set of names."""
    return set(parse_range(text).classes())


def count(text: str) -> float:
    return parse_range(text).combos_count()


# ---------------------------------------------------------------- notation rules, by hand


@pytest.mark.parametrize(
    ("text", "classes", "combos"),
    [
        ("AA", {"AA"}, 6),
        ("AKs", {"AKs"}, 4),
        ("AKo", {"AKo"}, 12),
        ("AK", {"AKs", "AKo"}, 16),
        ("QJ", {"QJs", "QJo"}, 16),
        ("ka", {"AKs", "AKo"}, 16),
        ("t9S", {"T9s"}, 4),
        ("22+", {r + r for r in "23456789TJQKA"}, 78),
        ("TT+", {"TT", "JJ", "QQ", "KK", "AA"}, 30),
        ("AA+", {"AA"}, 6),
        ("A2s+", {"A" + k + "s" for k in "23456789TJQK"}, 48),
        ("KTo+", {"KTo", "KJo", "KQo"}, 36),
        ("QJ+", {"QJs", "QJo"}, 16),
        ("Q9+", {"Q9s", "QTs", "QJs", "Q9o", "QTo", "QJo"}, 48),
        ("AKs+", {"AKs"}, 4),
        ("32s+", {"32s"}, 4),
        ("K9s-K6s", {"K9s", "K8s", "K7s", "K6s"}, 16),
        ("K6s-K9s", {"K9s", "K8s", "K7s", "K6s"}, 16),
        ("J8o-J7o", {"J8o", "J7o"}, 24),
        ("K9s-K9s", {"K9s"}, 4),
        ("99-55", {"99", "88", "77", "66", "55"}, 30),
        ("55-99", {"99", "88", "77", "66", "55"}, 30),
        ("AhKh", {"AKs"}, 1),
        ("KdAh", {"AKo"}, 1),
        ("7c7d", {"77"}, 1),
        ("", set(), 0),
        ("   ", set(), 0),
    ],
)
def test_notation_rules(text: str, classes: set[str], combos: int) -> None:
    assert names(text) == classes
    assert count(text) == combos


@pytest.mark.parametrize("word", ["random", "any", "*", "RANDOM", " Any "])
def test_all_words_cover_every_combo(word: str) -> None:
    r = parse_range(word)
    assert r.combos_count() == 1326
    assert len(r.classes()) == 169
    assert r == Range.all()
    assert r.fraction() == 1.0


def test_single_combo_is_exactly_that_combo() -> None:
    w = parse_range("AhKh").combo_weights()
    (only,) = np.flatnonzero(w)
    assert combo_name(int(only)) == "AhKh"
    assert w[only] == 1.0


def test_combo_class_sizes_match_hand_counts() -> None:
    # 13 pairs x 6 + 78 suited x 4 + 78 offsuit x 12 = 1326
    assert count("22+") + count("A2s+,K2s+,Q2s+,J2s+,T2s+,92s+,82s+,72s+,62s+,52s+,42s+,32s") == 78 + 312
    assert count("A2o+,K2o+,Q2o+,J2o+,T2o+,92o+,82o+,72o+,62o+,52o+,42o+,32o") == 936


def test_whitespace_and_case_are_tolerated() -> None:
    assert parse_range(" aks , qq + : 0.5 , k9s - k6s ,AHKD ") == parse_range("AKs,QQ+:0.5,K9s-K6s,AhKd")


# ---------------------------------------------------------------- weights and overriding


def test_weights() -> None:
    assert count("AKs:0.5") == 2
    assert count("22+:0.25") == 19.5
    assert count("AK:1") == 16
    assert count("AK:0") == 0
    assert count("AK:.5") == 8
    assert count("AK:5e-1") == 8
    r = parse_range("AKs:0.5")
    assert r.class_weights()[class_id("AKs")] == 0.5
    assert r.combo_weights()[list(CLASS_COMBOS[class_id("AKs")])].tolist() == [0.5] * 4


def test_later_tokens_override_earlier_ones() -> None:
    assert parse_range("AA:0.5,AA") == parse_range("AA")
    assert parse_range("AA,AA:0.5") == parse_range("AA:0.5")
    assert names("QQ+,KK:0") == {"AA", "QQ"}
    assert count("AK,AhKh:0") == 15
    assert count("AhKh,AK:0") == 0
    r = parse_range("random:0.5,AA")
    assert r.combos_count() == 0.5 * 1320 + 6
    assert r.class_weights()[class_id("AA")] == 1.0
    assert r.class_weights()[class_id("72o")] == 0.5


def test_partial_class_weight_is_mean_of_its_combos() -> None:
    r = parse_range("AsKs,AhKh:0.5")
    assert r.class_weights()[class_id("AKs")] == 0.375
    assert r.combos_count() == 1.5
    assert r.fraction() == 1.5 / 1326


# ---------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("text", "bad", "hint"),
    [
        ("AAo", "AAo", "pair"),
        ("QQs", "QQs", "pair"),
        ("K2-K5", "K2-K5", "suffix"),
        ("K9s-K5", "K9s-K5", "suffix"),
        ("AKs-AQo", "AKs-AQo", "suffix"),
        ("AQo:1.1", "AQo:1.1", "[0, 1]"),
        ("AQo:-0.5", "AQo:-0.5", "weight"),
        ("AQo:x", "AQo:x", "weight"),
        ("AQo:", "AQo:", "weight"),
        ("AQo:nan", "AQo:nan", "weight"),
        ("AQo:0.5:0.5", "AQo:0.5:0.5", "weight"),
        ("XYs", "XYs", "rank"),
        ("AKx", "AKx", "suffix"),
        ("AK+s", "AK+s", "+"),
        ("AK++", "AK++", "+"),
        ("K6s-Q9s", "K6s-Q9s", "top card"),
        ("22-AKs", "22-AKs", "pair"),
        ("22-55-77", "22-55-77", "two ends"),
        ("AhAh", "AhAh", "twice"),
        ("AhKx", "AhKx", "combo"),
        ("A", "A", "ranks"),
        ("AKQ2s", "AKQ2s", "ranks"),
        (":0.5", ":0.5", "empty"),
        ("KK,AAo,QQ", "AAo", "pair"),
    ],
)
def test_malformed_tokens_raise_quoting_the_token(text: str, bad: str, hint: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_range(text)
    message = str(info.value)
    assert repr(bad) in message
    assert hint in message
    assert "allowed" in message
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("text", ["AA,,KK", "AA,", ",AA", "AA, ,KK"])
def test_empty_tokens_raise(text: str) -> None:
    with pytest.raises(NotationError, match="empty") as info:
        parse_range(text)
    assert repr(text) in str(info.value)


def test_bad_weight_arrays_raise() -> None:
    with pytest.raises(NotationError):
        Range.from_combo_weights(np.ones(1325))
    with pytest.raises(NotationError):
        Range.from_combo_weights(np.full(1326, 1.5))
    with pytest.raises(NotationError):
        Range.from_combo_weights(np.full(1326, np.nan))
    with pytest.raises(NotationError):
        Range.from_class_weights(np.ones(13))
    with pytest.raises(NotationError):
        Range.from_class_weights({"AAo": 1.0})
    with pytest.raises(TypeError):
        parse_range(None)  # type: ignore[arg-type]


# ---------------------------------------------------------------- the Range object


def test_constructors_agree() -> None:
    class_w = np.zeros(169)
    class_w[[class_id("AA"), class_id("AKs")]] = [1.0, 0.5]
    a = Range.from_class_weights(class_w)
    b = Range.from_class_weights({"AA": 1, "aks": 0.5})
    c = Range.parse("AA,AKs:0.5")
    combo_w = np.zeros(N_COMBOS)
    combo_w[list(CLASS_COMBOS[0])] = 1.0
    combo_w[list(CLASS_COMBOS[1])] = 0.5
    d = Range.from_combo_weights(combo_w)
    assert a == b == c == d == Range(combo_w)
    assert len({a, b, c, d}) == 1
    assert a.class_weights().tolist() == class_w.tolist()
    assert Range.empty().combos_count() == 0 and Range.empty() == parse_range("")
    assert Range.all().combos_count() == 1326


def test_range_is_immutable_and_read_only() -> None:
    r = parse_range("AA")
    with pytest.raises(AttributeError):
        r._weights = np.zeros(N_COMBOS)  # type: ignore[misc]
    with pytest.raises(ValueError):
        r.combo_weights()[0] = 1.0
    w = np.zeros(N_COMBOS)
    r2 = Range.from_combo_weights(w)
    w[0] = 1.0  # the range copied its input
    assert r2 == Range.empty()


def test_equality_and_hash() -> None:
    assert parse_range("AA") != parse_range("KK")
    assert parse_range("AA") != parse_range("AA:0.5")
    assert parse_range("AA") != "AA"
    assert hash(Range.from_combo_weights(-np.zeros(N_COMBOS))) == hash(Range.empty())
    assert pickle.loads(pickle.dumps(parse_range("AK:0.5,AhKh"))) == parse_range("AK:0.5,AhKh")


def test_grid_text() -> None:
    lines = parse_range("AKs,QQ+:0.5,72o:0.25").grid_text().splitlines()
    assert len(lines) == 13
    cells = [line.split() for line in lines]
    assert all(len(row) == 13 for row in cells)
    assert cells[0][:3] == [".50", "AKs", "."]  # AA at 0.5, AKs at 1, AQs absent
    assert cells[1][:2] == [".", ".50"]  # AKo absent, KK at 0.5
    assert cells[12][7] == ".25"  # 72o: row of the 2, column of the 7
    assert cells[12][12] == "."


# ---------------------------------------------------------------- canonical form, by hand


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("AA,KK", "KK+"),
        ("KK,AA", "KK+"),
        ("AA", "AA"),
        ("KK", "KK"),
        ("KK,QQ,JJ", "KK-JJ"),
        ("55-99", "99-55"),
        ("AA,KK,99,22", "KK+,99,22"),
        ("AKs,AQs,AJs", "AJs+"),
        ("KQs,KJs,KTs,K9s", "K9s+"),
        ("K9s,K8s,K7s", "K9s-K7s"),
        ("K7s-K9s", "K9s-K7s"),
        ("AKs,AKo", "AK"),
        ("AK+", "AK"),
        ("ATs+,ATo+", "AT+"),
        ("A2s+,A9o+", "A2s+,A9o+"),
        ("K9s-K7s,K9o-K7o", "K9s-K7s,K9o-K7o"),
        ("AKs:0.5,AKo:0.5", "AK:0.5"),
        ("QQ+:0.25,AK:0.5", "AK:0.5,QQ+:0.25"),
        ("AhKh", "AhKh"),
        ("KhAh", "AhKh"),
        ("AhKh:0.5", "AhKh:0.5"),
        ("AK,AhKh:0", "AKo,AsKs,AdKd,AcKc"),
        ("", ""),
        ("AK:0", ""),
        ("random", "22+,A2+,K2+,Q2+,J2+,T2+,92+,82+,72+,62+,52+,42+,32"),
    ],
)
def test_canonical_form_examples(text: str, canonical: str) -> None:
    r = parse_range(text)
    assert format_range(r) == canonical
    assert str(r) == canonical
    assert parse_range(canonical) == r


# ---------------------------------------------------------------- properties

WEIGHTS = st.sampled_from([0.0, 1.0, 0.5, 0.25])


@st.composite
def ranges(draw: st.DrawFn) -> tuple[list[float], dict[int, float]]:
    """Class weights from {0, 1, .5, .25}, then a random set of single combos overridden."""
    class_w = draw(st.lists(WEIGHTS, min_size=169, max_size=169))
    combos = draw(st.dictionaries(st.integers(0, N_COMBOS - 1), WEIGHTS, max_size=40))
    return class_w, combos


def build(class_w: list[float], combos: dict[int, float]) -> Range:
    w = np.asarray(class_w)[COMBO_CLASS]
    for c, cw in combos.items():
        w[c] = cw
    return Range.from_combo_weights(w)


@settings(max_examples=150, deadline=None)
@given(ranges())
def test_round_trip(spec: tuple[list[float], dict[int, float]]) -> None:
    r = build(*spec)
    text = format_range(r)
    assert parse_range(text) == r
    assert format_range(parse_range(text)) == text  # idempotent


@settings(max_examples=100, deadline=None)
@given(ranges(), st.randoms(use_true_random=False))
def test_other_spellings_print_the_same(spec: tuple[list[float], dict[int, float]], rnd) -> None:
    """Spell the range token by token in a shuffled order, after noise that is overridden."""
    class_w, combos = spec
    r = build(class_w, combos)
    class_tokens = [f"{CLASS_NAMES[k]}:{w}" for k, w in enumerate(class_w)]
    rnd.shuffle(class_tokens)
    combo_tokens = [f"{combo_name(c)}:{w}" for c, w in combos.items()]
    rnd.shuffle(combo_tokens)
    spelling = ",".join(["random:0.5", *class_tokens, *combo_tokens])
    other = parse_range(spelling)
    assert other == r
    assert format_range(other) == format_range(r)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, N_COMBOS - 1), unique=True, max_size=30))
def test_combo_sets_round_trip(combos: list[int]) -> None:
    w = np.zeros(N_COMBOS)
    w[combos] = 1.0
    r = Range.from_combo_weights(w)
    text = format_range(r)
    assert parse_range(text) == r
    assert r.combos_count() == len(combos)
    for c in combos:
        # each single combo either stands alone or is inside a printed class
        assert combo_name(c) in text.split(",") or r.class_weights()[COMBO_CLASS[c]] == 1.0
        assert parse_combo(combo_name(c)) == c


@settings(max_examples=50, deadline=None)
@given(st.lists(st.floats(0.0, 1.0), min_size=169, max_size=169))
def test_round_trip_with_arbitrary_float_weights(class_w: list[float]) -> None:
    r = Range.from_class_weights(class_w)
    assert parse_range(format_range(r)) == r
    assert r.class_weights().tolist() == [w + 0.0 for w in class_w]


# ---------------------------------------------------------------- ranking, percentages, JJ-, brackets


def _equity_vs_random_from_combos():
    """Each class's equity against a random hand, summed from the combo-level table (not the class
    aggregates the library uses): sum of 2*wins + ties over disjoint pairs / (2 * pairs * boards)."""
    from fractions import Fraction

    from sflp.core.cards import COMBO_DISJOINT
    from sflp.core.equity import BOARDS_PER_PAIR, load_table

    table = load_table()
    wins = table.wins.astype(np.int64).sum(axis=1)
    ties = table.ties.astype(np.int64).sum(axis=1)
    pairs = COMBO_DISJOINT.sum(axis=1)
    assert set(pairs.tolist()) == {1225}  # every hero combo meets 1,225 disjoint villain combos
    out = []
    for k in range(169):
        combos = np.flatnonzero(COMBO_CLASS == k)
        num = int((2 * wins[combos] + ties[combos]).sum())
        out.append(Fraction(num, 2 * 1225 * len(combos) * BOARDS_PER_PAIR))
    return out


def test_hand_ranking_constant_matches_the_table():
    from sflp.core.ranges import HAND_RANKING

    eq = _equity_vs_random_from_combos()
    assert len(set(eq)) == 169  # no ties: the order needs no tie-break
    order = sorted(range(169), key=lambda k: -eq[k])
    assert HAND_RANKING == tuple(CLASS_NAMES[k] for k in order)


def test_equity_vs_random_against_a_published_exact_table():
    # jazbo.com/poker/huholdem.html: exact W/L/T enumeration, ties counted as half.
    from sflp.core.equity import equity_vs_random

    eq = equity_vs_random()
    published = {"AA": 0.8520371, "KK": 0.8239568, "JJ": 0.7746947, "AKs": 0.6704463, "A4s": 0.5903364,
                 "K8s": 0.5831235}
    for hand, value in published.items():
        assert abs(float(eq[class_id(hand)]) - value) < 6e-8, hand
    assert eq == _equity_vs_random_from_combos()


def test_hand_ranking_rows():
    from sflp.core.equity import hand_ranking

    rows = hand_ranking()
    assert len(rows) == 169 and rows[-1].cumulative_pct == 100.0
    assert [r.rank for r in rows] == list(range(1, 170))
    assert all(a.equity > b.equity for a, b in zip(rows, rows[1:]))
    assert sum(r.combos for r in rows) == N_COMBOS


@pytest.mark.parametrize("percent", [0, 0.4, 0.45, 1, 5, 10, 20, 33.3, 50, 75, 99.9, 100])
def test_percentage_is_the_shortest_prefix_reaching_the_share(percent):
    from sflp.core.ranges import HAND_RANKING

    r = parse_range(f"{percent}%")
    classes = set(r.classes())
    # independent: walk the ranking, stop at the first prefix with combos/1326 >= percent/100
    chosen, combos = set(), 0
    for name in HAND_RANKING:
        if combos * 100 >= percent * N_COMBOS - 1e-9:
            break
        chosen.add(name)
        combos += {2: 6, 3: 4}.get(len(name), 0) if name[-1] != "o" else 12
    assert classes == chosen
    assert r.combos_count() == combos
    assert parse_range(f"top{percent}%") == r == parse_range(f"Top {percent} %")
    assert set(r.class_weights().tolist()) <= {0.0, 1.0}  # whole classes only


def test_percentage_combines_with_other_tokens():
    r = parse_range("10%:0.5, AA")
    assert r.class_weights()[class_id("AA")] == 1.0
    assert r.class_weights()[class_id("KK")] == 0.5
    assert parse_range("0%").combos_count() == 0 and parse_range("100%") == Range.all()


@pytest.mark.parametrize("bad", ["101%", "-5%", "x%", "20%%", "%", "20 %s"])
def test_bad_percentages(bad):
    with pytest.raises(NotationError, match="bad range token"):
        parse_range(bad)


def test_trailing_dash():
    assert parse_range("JJ-") == parse_range("22-JJ") == parse_range("JJ, TT, 99, 88, 77, 66, 55, 44, 33, 22")
    assert parse_range("22-") == parse_range("22")
    assert names("A5s-") == {"A5s", "A4s", "A3s", "A2s"}
    assert names("K9-") == {f"K{k}{s}" for k in "98765432" for s in "so"}
    assert names("q3o -") == {"Q3o", "Q2o"}
    with pytest.raises(NotationError):
        parse_range("JJ--")


def test_bracket_weights():
    assert parse_range("[50]AKo,KQs[/50]") == parse_range("AKo:0.5,KQs:0.5")
    assert parse_range("AA, [25.0]22+[/25.0], [100]AKs[/100]") == parse_range("AA,22+:0.25,AKs")
    assert parse_range("[50]AKo[/50],[0]AKo[/0]") == Range.empty()
    assert parse_range("[12.5] JJ- [/12.5]").combos_count() == 60 * 0.125


@pytest.mark.parametrize(
    ("bad", "why"),
    [
        ("[50]AKo", "never closed"),
        ("AKo[/50]", "bracket weight group"),
        ("[50]AKo[/40]", "closed by"),
        ("[150]AA[/150]", "outside"),
        ("[x]AA[/x]", "not a decimal"),
        ("[50]AA:0.5[/50]", "takes that weight"),
        ("[50][25]AA[/25][/50]", "bracket"),
    ],
)
def test_bad_bracket_weights(bad, why):
    with pytest.raises(NotationError, match=why):
        parse_range(bad)
