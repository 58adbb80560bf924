"""The seven-card evaluator against published counts and a deliberately simple second evaluator."""

import itertools
from collections import Counter

import numpy as np
import pytest

from sflp.core.evaluator import CATEGORY_NAMES, category_counts_all_seven_card_hands, evaluate7


def simple_five(cards):
    """Category and tie-break tuple of a 5-card hand, written the obvious way."""
    ranks = sorted((c // 4 for c in cards), reverse=True)
    suits = [c % 4 for c in cards]
    counts = Counter(ranks)
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    flush = len(set(suits)) == 1
    uniq = sorted(set(ranks), reverse=True)
    straight_top = None
    if len(uniq) == 5 and uniq[0] - uniq[4] == 4:
        straight_top = uniq[0]
    elif uniq == [12, 3, 2, 1, 0]:
        straight_top = 3
    if straight_top is not None and flush:
        return (8, straight_top)
    if groups[0][1] == 4:
        return (7, groups[0][0], groups[1][0])
    if groups[0][1] == 3 and groups[1][1] == 2:
        return (6, groups[0][0], groups[1][0])
    if flush:
        return (5, *ranks)
    if straight_top is not None:
        return (4, straight_top)
    if groups[0][1] == 3:
        return (3, groups[0][0], *[r for r, _ in groups[1:]])
    if groups[0][1] == 2 and groups[1][1] == 2:
        return (2, groups[0][0], groups[1][0], groups[2][0])
    if groups[0][1] == 2:
        return (1, groups[0][0], *[r for r, _ in groups[1:]])
    return (0, *ranks)


def simple_seven(cards):
    return max(simple_five(five) for five in itertools.combinations(cards, 5))


def test_random_hands_order_like_the_simple_evaluator():
    rng = np.random.default_rng(12345)
    for _ in range(3000):
        deal = rng.choice(52, size=9, replace=False).tolist()
        board = list(deal[:5])
        h1, h2 = board + list(deal[5:7]), board + list(deal[7:9])
        v1, v2 = evaluate7(np.array(h1)), evaluate7(np.array(h2))
        s1, s2 = simple_seven(h1), simple_seven(h2)
        assert (v1 > v2) - (v1 < v2) == (s1 > s2) - (s1 < s2), (h1, h2)
        assert v1 >> 20 == s1[0]


@pytest.mark.slow
def test_seven_card_category_counts():
    # Published counts over all C(52,7) = 133,784,560 seven-card hands
    # (e.g. Wikipedia "Poker probability", 7-card table).
    expected = {
        "straight flush": 41_584,
        "four of a kind": 224_848,
        "full house": 3_473_184,
        "flush": 4_047_644,
        "straight": 6_180_020,
        "three of a kind": 6_461_620,
        "two pair": 31_433_400,
        "one pair": 58_627_800,
        "high card": 23_294_460,
    }
    counts = category_counts_all_seven_card_hands()
    assert dict(zip(CATEGORY_NAMES, counts.tolist())) == expected
    assert counts.sum() == 133_784_560
