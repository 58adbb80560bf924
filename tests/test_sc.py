"""Sklansky-Chubukov numbers checked by an independent, direct evaluation of the face-up shove."""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest

from sflp.cli import main
from sflp.core.cards import CLASS_COMBOS, COMBO_DISJOINT, class_id
from sflp.core.equity import BOARDS_PER_PAIR, load_table
from sflp.core.game import GameConfig
from sflp.study.sc import sc_numbers


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


# ---------------------------------------------------------------- the fast path against references


class FaceUp:
    """SB's exact face-up shove EV for one combo, from the rules (as :func:`face_up_ev`), with the
    1,225 per-combo probabilities read once so that many stacks can be tried."""

    def __init__(self, combo: int, sb, bb, ante, bb_ante):
        table = load_table()
        self.terms = []
        for d in np.flatnonzero(COMBO_DISJOINT[combo]):
            w, t, l = table.combo_counts(combo, int(d))
            p_w, p_t, p_l = (Fraction(v, BOARDS_PER_PAIR) for v in (w, t, l))
            # SB's net if called: p_w*S - p_l*(S - A) + p_t*A/2 = slope*S + intercept
            self.terms.append((p_w - p_l, p_l * bb_ante + p_t * bb_ante / 2))
        self.folded = bb + ante + bb_ante  # SB's net when BB folds
        self.fold = -(sb + ante)  # SB's net when SB folds
        self.smallest = bb + ante + bb_ante

    def ev(self, stack: Fraction) -> Fraction:
        # BB calls exactly when calling nets BB more than folding: -called > -folded
        return sum(min(self.folded, k * stack + c) for k, c in self.terms) / len(self.terms)

    def reference(self) -> tuple[str, Fraction | None]:
        """``("unbounded", None)``, ``("never", None)`` or ``("root", S)``: the largest stack with
        EV >= fold, by a binary search over the exact breakpoints and one exact interpolation."""
        if all(k >= 0 for k, _ in self.terms):
            return "unbounded", None
        if self.ev(self.smallest) < self.fold:
            # concave: EV falling right after the smallest stack means it stays below
            assert self.ev(self.smallest + 1) < self.ev(self.smallest)
            return "never", None
        kinks = sorted({(self.folded - c) / k for k, c in self.terms if k != 0})
        points = [self.smallest] + [s for s in kinks if s > self.smallest]
        lo, hi = 0, len(points) - 1  # EV(points[lo]) >= fold; the profitable stacks are one interval
        if self.ev(points[hi]) >= self.fold:
            lo = hi
        while hi - lo > 1:
            mid = (lo + hi) // 2
            lo, hi = (mid, hi) if self.ev(points[mid]) >= self.fold else (lo, mid)
        left = points[lo]
        if lo + 1 < len(points):
            right = points[lo + 1]
        else:  # past the last breakpoint EV is linear: go far enough right to fall below fold
            right = left + 1
            while self.ev(right) >= self.fold:
                right = 2 * right
        e_left, e_right = self.ev(left), self.ev(right)
        assert e_right < self.fold
        root = left + (e_left - self.fold) * (right - left) / (e_left - e_right)
        assert self.ev(root) == self.fold
        return "root", root


F = Fraction
REFERENCE_CASES = [
    # (sb, bb, ante, bb_ante), hands
    ((F(1, 2), F(1), F(0), F(0)), ["AA", "AKo", "72o", "T9s", "22"]),
    ((F(1, 2), F(1), F(1, 8), F(0)), ["A5s", "J4o", "66"]),
    ((F(1, 2), F(1), F(0), F(1, 7)), ["KQo", "93s", "44"]),  # an awkward BB ante
    ((F(1, 3), F(5, 7), F(1, 11), F(2, 9)), ["QTo", "76s"]),
    # a small SB: weak hands are never profitable; 87o / T2s and 62s / 83o are the hands nearest
    # to that edge on either side (within 0.3% of the smallest stack's break-even)
    ((F(1, 10), F(1), F(0), F(0)), ["32o", "87o", "T2s", "A2o"]),
    ((F(1, 4), F(1), F(0), F(0)), ["62s", "83o"]),
    # denominators and sizes far beyond int64 once scaled to integers
    ((F(1, 2), F(1), F(1, 10**15 + 37), F(3, 10**20 + 39)), ["K6o", "85s"]),
    ((F(1, 2), F(2), F(10**12, 3), F(0)), ["T2o", "AQs"]),
]


def _config(sb, bb, ante, bb_ante) -> GameConfig:
    return GameConfig(stack=2 * (bb + ante + bb_ante), small_blind=sb, big_blind=bb, ante=ante, bb_ante=bb_ante)


@pytest.mark.parametrize(("game", "hands"), REFERENCE_CASES)
def test_sc_numbers_match_a_direct_exact_computation(game, hands):
    numbers = sc_numbers(_config(*game))
    kinds = set()
    for hand in hands:
        face_up = FaceUp(CLASS_COMBOS[class_id(hand)][-1], *game)
        kind, root = face_up.reference()
        kinds.add(kind)
        sc = numbers[hand]
        assert (sc.unbounded, sc.never) == (kind == "unbounded", kind == "never"), hand
        assert sc.stack == root, hand
        # profitable at the smallest stack exactly when profitable at all (see the module doc)
        assert sc.from_stack == (None if kind == "never" else face_up.smallest), hand
    if game[0] in (F(1, 10), F(1, 4)):
        assert kinds == {"never", "root"}  # the cases exercise both


@pytest.mark.parametrize("game", [REFERENCE_CASES[2][0], REFERENCE_CASES[5][0]])
def test_fast_path_matches_the_all_integer_path_on_every_hand(game):
    from sflp.study.sc import _hand_sc_exact

    config = _config(*game)
    ex = config.exact()
    table = load_table()
    numbers = sc_numbers(config)
    for k, (name, sc) in enumerate(numbers.items()):
        assert _hand_sc_exact(name, CLASS_COMBOS[k][0], ex, table) == sc, name


def test_unproven_hands_fall_back_to_the_all_integer_path(monkeypatch):
    import sflp.study.sc as sc_module

    config = _config(F(1, 2), F(1), F(1, 8), F(1, 7))
    expected = sc_numbers(config)
    calls = []
    monkeypatch.setattr(sc_module._Game, "solve", lambda self, rows: [None] * len(rows))
    real = sc_module._hand_sc_exact
    monkeypatch.setattr(sc_module, "_hand_sc_exact", lambda *a: calls.append(a[0]) or real(*a))
    assert sc_numbers(config) == expected
    assert len(calls) == 169 - 1  # every hand but the unbounded AA


def test_exact_signs_at_a_breakpoint_and_newton_correction():
    from sflp.study.sc import _Game

    config = _config(F(1, 2), F(1), F(0), F(1, 7))
    game = _Game(config.exact(), load_table())
    row = class_id("K9o")
    u, v = game.u[row], game.v[row]
    d = int(np.flatnonzero(u < 0)[0])
    # at this BB combo's breakpoint phi_d = 0 exactly: the float test cannot decide, Fractions must
    point = (game.two_bg - game.A * int(v[d])) / (2 * int(u[d]))
    negative, zero = game.signs(np.array([row]), [point])
    exact = [2 * int(a) * point + game.A * int(b) - game.two_bg for a, b in zip(u, v)]
    assert zero[0, d]
    assert negative[0].tolist() == [x < 0 for x in exact]
    assert zero[0].tolist() == [x == 0 for x in exact]
    # a wrong candidate piece -- BB's calls at 10x or 2/3 of the SC number -- is corrected
    # by exact Newton steps
    root = sc_numbers(config)["K9o"].stack
    truth = [2 * int(a) * root + game.A * int(b) - game.two_bg < 0 for a, b in zip(u, v)]
    for stack in (root * 10, root * F(2, 3)):
        called = np.array([2 * int(a) * stack + game.A * int(b) - game.two_bg < 0 for a, b in zip(u, v)])
        assert called.tolist() != truth
        assert game.prove(row, called) == root


@pytest.mark.parametrize("unit", ["1e-300", "1e300", "7/3"])
def test_sc_numbers_scale_with_the_chips(unit):
    # every chip amount in the game (blinds, antes, stack) scaled by c scales SB's EV and the
    # fold value by c, so each SC number scales by c exactly -- also far outside the float range
    # of the products the computation forms
    c = Fraction(unit)
    base = sc_numbers(_config(F(1, 2), F(1), F(1, 8), F(1, 7)))
    scaled = sc_numbers(_config(c / 2, c, c / 8, c / 7))
    for hand, sc in base.items():
        other = scaled[hand]
        assert (other.unbounded, other.never) == (sc.unbounded, sc.never), hand
        assert other.stack == (None if sc.stack is None else sc.stack * c), hand
        assert other.from_stack == (None if sc.from_stack is None else sc.from_stack * c), hand
