"""Sklansky-Chubukov numbers checked by an independent, direct evaluation of the face-up shove."""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest

from sflp.cards import CLASS_COMBOS, COMBO_DISJOINT, class_id
from sflp.cli import main
from sflp.equity import BOARDS_PER_PAIR, load_table
from sflp.game import GameConfig
from sflp.sc import sc_numbers


def face_up_ev(combo: int, stack: Fraction, sb, bb, ante, bb_ante) -> Fraction:
    """SB's exact EV of shoving ``combo`` face up: BB, seeing it, calls each disjoint combo exactly
    when calling nets BB more than folding.  Written from the rules (the README's terminal-node
    table), one BB combo at a time."""
    table = load_table()
    total = Fraction(0)
    count = 0
    for d in np.flatnonzero(COMBO_DISJOINT[combo]):
        w, t, l = table.combo_counts(combo, int(d))
        p_w, p_t, p_l = (Fraction(v, BOARDS_PER_PAIR) for v in (w, t, l))
        sb_if_called = p_w * stack - p_l * (stack - bb_ante) + p_t * bb_ante / 2
        sb_if_folded = bb + ante + bb_ante
        bb_calls = -sb_if_called > -sb_if_folded
        total += sb_if_called if bb_calls else sb_if_folded
        count += 1
    assert count == 1225
    return total / count


CASES = [
    (Fraction(1, 2), Fraction(1), Fraction(0), Fraction(0), ["AKo", "K6o", "72o", "22", "T9s", "32o"]),
    (Fraction(1, 2), Fraction(1), Fraction(1, 8), Fraction(0), ["AKo", "72o", "55"]),
    (Fraction(1, 2), Fraction(1), Fraction(0), Fraction(1), ["QJs", "83o"]),
]


@pytest.mark.parametrize(("sb", "bb", "ante", "bb_ante", "hands"), CASES)
def test_sc_number_is_the_largest_break_even_stack(sb, bb, ante, bb_ante, hands):
    config = GameConfig(stack=float(bb + ante + bb_ante), small_blind=float(sb), big_blind=float(bb),
                        ante=float(ante), bb_ante=float(bb_ante))
    numbers = sc_numbers(config)
    fold = -(sb + ante)
    for hand in hands:
        sc = numbers[hand]
        assert not sc.unbounded and not sc.never
        combo = CLASS_COMBOS[class_id(hand)][-1]  # another combo than the library's: suit symmetry
        assert face_up_ev(combo, sc.stack, sb, bb, ante, bb_ante) == fold  # exactly break-even
        eps = Fraction(1, 10**6)
        assert face_up_ev(combo, sc.stack - eps, sb, bb, ante, bb_ante) >= fold
        assert face_up_ev(combo, sc.stack + eps, sb, bb, ante, bb_ante) < fold
        assert face_up_ev(combo, 4 * sc.stack, sb, bb, ante, bb_ante) < fold  # and never again above


def test_aces_are_unbounded_and_order_is_sensible():
    numbers = sc_numbers(GameConfig(stack=1))
    assert numbers["AA"].unbounded  # AA is ahead of every hand: at large stacks BB folds everything
    assert float(numbers["KK"].stack) > float(numbers["QQ"].stack) > float(numbers["AKs"].stack) * 0.5
    assert float(numbers["AKs"].stack) > float(numbers["AKo"].stack)


def test_published_example_k6o():
    # pokernews-style article (globet365.poker / tltaudit.ru, "A Fail-Safe, Profitable Strategy for
    # (Some Parts of) Poker Tournaments"): blinds 100/200, no ante, 2,250 chips, K6o: shoving is
    # profitable even face up, i.e. SC(K6o) >= 11.25 bb.
    assert float(sc_numbers(GameConfig(stack=1))["K6o"].stack) >= 2250 / 200


def test_cli_sc_json(capsys):
    assert main(["sc", "--json", "--ante", "0.125"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["ante"] == 0.125 and len(obj["hands"]) == 169 and "tie_rule" in obj
    aa = obj["hands"][0]
    assert aa["hand"] == "AA" and aa["unbounded"] and aa["sc"] is None
    row = next(h for h in obj["hands"] if h["hand"] == "72o")
    assert row["sc"] == pytest.approx(float(Fraction(row["sc_exact"])), abs=1e-12)


def test_sc_of_a_hand_everyone_calls_is_the_calling_station_root():
    # At ~1.6 bb every BB hand profits by calling 72o face up (it needs S*(w - l) < 1 for SB's
    # w - l, and 72o is never a big enough favourite), so the face-up shove is the shove into a
    # BB that calls everything: the SC number must equal the root of that closed-form margin,
    # S*W - S*L + 1/2 = 0 with 72o's win/loss probabilities against a random hand.
    from test_exploit import VS_RANDOM

    w, _, l = VS_RANDOM[class_id("72o")]
    assert sc_numbers(GameConfig(stack=1))["72o"].stack == Fraction(1, 2) / (l - w)
