"""Encodings of cards, combos, classes and the grid (sflp.core.cards)."""

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from sflp.core import cards
from sflp.errors import NotationError


def test_counts():
    assert len(cards.COMBO_CARDS) == 1326 == cards.N_COMBOS
    assert len(cards.CLASS_NAMES) == 169 == len(set(cards.CLASS_NAMES))
    assert cards.CLASS_SIZES.sum() == 1326
    sizes = {k: int(cards.CLASS_SIZES[cards.class_id(k)]) for k in ("AA", "AKs", "AKo", "72o", "22")}
    assert sizes == {"AA": 6, "AKs": 4, "AKo": 12, "72o": 12, "22": 6}
    assert sorted(set(cards.CLASS_SIZES.tolist())) == [4, 6, 12]
    assert (cards.CLASS_SIZES == 6).sum() == 13 and (cards.CLASS_SIZES == 4).sum() == 78


def test_combo_order_is_lexicographic_card_pairs():
    assert [tuple(map(int, c)) for c in cards.COMBO_CARDS] == list(itertools.combinations(range(52), 2))


def test_grid_orientation():
    # pairs on the diagonal, suited above it, offsuit below, aces top-left (HoldemResources/PokerStove)
    for r in range(13):
        assert cards.CLASS_NAMES[r * 13 + r] == cards.RANKS[12 - r] * 2
        for c in range(r + 1, 13):
            assert cards.CLASS_NAMES[r * 13 + c].endswith("s")
            assert cards.CLASS_NAMES[c * 13 + r].endswith("o")
            assert cards.CLASS_NAMES[r * 13 + c][:2] == cards.CLASS_NAMES[c * 13 + r][:2]
    assert cards.CLASS_NAMES[0] == "AA" and cards.CLASS_NAMES[1] == "AKs" and cards.CLASS_NAMES[13] == "AKo"


@given(st.integers(0, 51), st.integers(0, 51))
def test_combo_roundtrip(a, b):
    if a == b:
        with pytest.raises(NotationError):
            cards.combo_id(a, b)
        return
    c = cards.combo_id(a, b)
    assert set(map(int, cards.COMBO_CARDS[c])) == {a, b}
    assert cards.parse_combo(cards.combo_name(c)) == c
    cls = cards.CLASS_NAMES[cards.COMBO_CLASS[c]]
    ra, rb = a // 4, b // 4
    if ra == rb:
        assert cls == cards.RANKS[ra] * 2
    else:
        assert cls[2] == ("s" if a % 4 == b % 4 else "o")


def test_disjoint_counts():
    # for any combo, 1,225 = C(50,2) opponent combos miss its two cards
    assert np.all(cards.COMBO_DISJOINT.sum(axis=1) == 1225)
    assert cards.COMBO_DISJOINT.sum() == 1326 * 1225


@pytest.mark.parametrize("bad", ["Xh", "A", "Ahh", "1c", "Az", ""])
def test_bad_cards_quote_input(bad):
    with pytest.raises(NotationError, match=repr(bad).replace("\\", "\\\\")):
        cards.card_id(bad)


@pytest.mark.parametrize("bad", ["AAo", "XYs", "A", "AKx", "AKss"])
def test_bad_class_names(bad):
    with pytest.raises(NotationError, match=bad):
        cards.class_id(bad)


def test_shared_constants_follow_the_encodings():
    # boards left to two disjoint combos: five of the 48 unseen cards, C(48, 5)
    assert cards.BOARDS_PER_PAIR == len(list(itertools.combinations(range(48), 5))) == 1_712_304
    # grid labels: aces first, the row order of class ids (AA is 0, 22 is 168)
    assert cards.GRID_RANKS == "AKQJT98765432"
    assert [cards.CLASS_NAMES[13 * k + k] for k in range(13)] == [r + r for r in cards.GRID_RANKS]
    assert all(cards.CLASS_INDEX[name] == k for k, name in enumerate(cards.CLASS_NAMES))
    assert len(cards.CLASS_INDEX) == cards.N_CLASSES


def test_player_and_level_are_plain_strings_where_it_matters():
    import json

    assert cards.PLAYERS == ("sb", "bb") and cards.LEVELS == ("class", "combo")
    assert all(type(p) is str for p in cards.PLAYERS + cards.LEVELS)
    assert cards.Player.SB == "sb" and cards.Level("combo") is cards.Level.COMBO
    assert json.dumps({"player": cards.Player.BB, "level": cards.Level.CLASS}) == '{"player": "bb", "level": "class"}'
    assert f"{cards.Player.SB}" == "sb" and {cards.Player.SB: 1}["sb"] == 1
    with pytest.raises(ValueError):
        cards.Level("hand")
