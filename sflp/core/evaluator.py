"""Seven-card hand evaluator (numba), written for sflp.

Why numba: the equity table needs about 145 million seven-card evaluations and ~2e11
pairwise comparisons; numba compiles the plain loops below to vectorised machine code and
runs them on both cores, with no C toolchain needed at install time.

A hand value is a non-negative ``int32``; a larger value is a stronger hand and equal
values tie.  Layout: ``category << 20 | k1 << 16 | k2 << 12 | k3 << 8 | k4 << 4 | k5`` where
``k1..k5`` are ranks (0 = deuce .. 12 = ace) of the cards that break ties inside the
category, most significant first.  Categories:

====  ================
 8    straight flush
 7    four of a kind
 6    full house
 5    flush
 4    straight
 3    three of a kind
 2    two pair
 1    one pair
 0    high card
====  ================

Cards are the card ids of :mod:`sflp.core.cards` (``4*rank + suit``).

>>> import numpy as np
>>> from sflp.core.cards import parse_cards
>>> hand_category(int(evaluate7(np.array(parse_cards("AhKhQhJhTh2c3d")))))
'straight flush'
>>> hand_category(int(evaluate7(np.array(parse_cards("Ah2d3c4s5h9cTd")))))
'straight'
"""

from __future__ import annotations

import numpy as np

from sflp.cache import njit  # numba's njit, cached in sflp's cache folder (never in the package)

CATEGORY_NAMES = (
    "high card",
    "one pair",
    "two pair",
    "three of a kind",
    "straight",
    "flush",
    "full house",
    "four of a kind",
    "straight flush",
)


def hand_category(value: int) -> str:
    """Category name of a hand value."""
    return CATEGORY_NAMES[value >> 20]


def _straight_tops() -> np.ndarray:
    """``table[mask]`` = rank of the top card of the best straight in a 13-bit rank mask, or -1."""
    table = np.full(1 << 13, -1, dtype=np.int8)
    for mask in range(1 << 13):
        for top in range(12, 3, -1):
            run = 0b11111 << (top - 4)
            if mask & run == run:
                table[mask] = top
                break
        else:
            wheel = (1 << 12) | 0b1111  # A-2-3-4-5
            if mask & wheel == wheel:
                table[mask] = 3
    return table


STRAIGHT_TOP = _straight_tops()


@njit(cache=True, inline="always")
def _top_bits(mask: int, count: int) -> int:
    """Pack the ``count`` highest set ranks of ``mask`` as 4-bit nibbles, highest first, left-aligned
    into 5 nibbles."""
    out = 0
    taken = 0
    r = 12
    while r >= 0 and taken < count:
        if mask >> r & 1:
            out = out << 4 | r
            taken += 1
        r -= 1
    # left-align to five nibbles
    return out << (4 * (5 - taken))


# Long on purpose: one numba kernel, the categories in rank order (split, it would pay a call per
# category on each of 133,784,560 hands).
@njit(cache=True)
def value_from_masks(suit_masks: np.ndarray, counts: np.ndarray, straight_top: np.ndarray) -> int:
    """Hand value of a 5-7 card hand given its per-suit rank masks and per-rank counts."""
    # flush (with 7 cards, a flush excludes full house and quads)
    for s in range(4):
        m = suit_masks[s]
        n = 0
        x = m
        while x:
            x &= x - 1
            n += 1
        if n >= 5:
            top = straight_top[m]
            if top >= 0:
                return 8 << 20 | top << 16
            return 5 << 20 | _top_bits(m, 5)
    quad = -1
    trip1 = -1
    trip2 = -1
    pair_mask = 0
    single_mask = 0
    for r in range(12, -1, -1):
        c = counts[r]
        if c == 4:
            quad = r
        elif c == 3:
            if trip1 < 0:
                trip1 = r
            elif trip2 < 0:
                trip2 = r
        elif c == 2:
            pair_mask |= 1 << r
        elif c == 1:
            single_mask |= 1 << r
    if quad >= 0:
        rest = (single_mask | pair_mask) & ~(1 << quad)
        if trip1 >= 0:
            rest |= 1 << trip1
        kick = -1
        for r in range(12, -1, -1):
            if rest >> r & 1:
                kick = r
                break
        return 7 << 20 | quad << 16 | kick << 12
    if trip1 >= 0:
        p = -1
        if trip2 >= 0:
            p = trip2
        for r in range(12, -1, -1):
            if pair_mask >> r & 1:
                if r > p:
                    p = r
                break
        if p >= 0:
            return 6 << 20 | trip1 << 16 | p << 12
    any_mask = suit_masks[0] | suit_masks[1] | suit_masks[2] | suit_masks[3]
    top = straight_top[any_mask]
    if top >= 0:
        return 4 << 20 | top << 16
    if trip1 >= 0:
        return 3 << 20 | trip1 << 16 | _top_bits(single_mask, 2) >> 4
    npairs = 0
    x = pair_mask
    while x:
        x &= x - 1
        npairs += 1
    if npairs >= 2:
        hi = -1
        lo = -1
        for r in range(12, -1, -1):
            if pair_mask >> r & 1:
                if hi < 0:
                    hi = r
                elif lo < 0:
                    lo = r
        rest = (single_mask | pair_mask) & ~(1 << hi) & ~(1 << lo)
        kick = 0
        for r in range(12, -1, -1):
            if rest >> r & 1:
                kick = r
                break
        return 2 << 20 | hi << 16 | lo << 12 | kick << 8
    if npairs == 1:
        p = 0
        for r in range(12, -1, -1):
            if pair_mask >> r & 1:
                p = r
                break
        return 1 << 20 | p << 16 | _top_bits(single_mask, 3) >> 4
    return _top_bits(single_mask, 5)


@njit(cache=True)
def _evaluate(cards: np.ndarray, straight_top: np.ndarray) -> int:
    suit_masks = np.zeros(4, dtype=np.int64)
    counts = np.zeros(13, dtype=np.int64)
    for c in cards:
        suit_masks[c & 3] |= 1 << (c >> 2)
        counts[c >> 2] += 1
    return value_from_masks(suit_masks, counts, straight_top)


def evaluate7(cards: np.ndarray) -> int:
    """Value of a hand of 5 to 7 distinct card ids (an integer array)."""
    return int(_evaluate(np.asarray(cards, dtype=np.int64), STRAIGHT_TOP))


@njit(cache=True)
def _category_counts(straight_top: np.ndarray) -> np.ndarray:
    """Count the 9 categories over all C(52,7) = 133,784,560 seven-card hands."""
    out = np.zeros(9, dtype=np.int64)
    suit_masks = np.zeros(4, dtype=np.int64)
    counts = np.zeros(13, dtype=np.int64)
    for a in range(52):
        for b in range(a + 1, 52):
            for c in range(b + 1, 52):
                for d in range(c + 1, 52):
                    for e in range(d + 1, 52):
                        for f in range(e + 1, 52):
                            for g in range(f + 1, 52):
                                suit_masks[:] = 0
                                counts[:] = 0
                                for x in (a, b, c, d, e, f, g):
                                    suit_masks[x & 3] |= 1 << (x >> 2)
                                    counts[x >> 2] += 1
                                out[value_from_masks(suit_masks, counts, straight_top) >> 20] += 1
    return out


def category_counts_all_seven_card_hands() -> np.ndarray:
    """Category counts over all 133,784,560 seven-card hands (about 10 s)."""
    return _category_counts(STRAIGHT_TOP)
