"""Build the exact combo-vs-combo win table from scratch (numba, both cores).

Method (board-major over suit-distinct boards)
----------------------------------------------
Let ``G`` be the 24 permutations of the suits.  Every 5-card board ``D`` is ``tau(B)`` for exactly
one canonical board ``B`` (the least board of its orbit) and ``|G| / |Stab(B)|`` permutations
``tau``.  For an ordered pair of disjoint combos ``P = (a, b)`` write ``win(P, D) = 1`` when
``a`` beats ``b`` on ``D``.  Because relabelling suits changes nothing,
``win(P, tau B) = win(tau^-1 P, B)``, so

    wins(P) = sum_D win(P, D) = (1/24) * sum_{tau in G} acc[tau P],
    acc[Q]  = sum_B orbit(B) * win(Q, B),      orbit(B) = 24 / |Stab(B)|.

``acc`` is a dense 1326 x 1326 integer matrix filled from the 134,459 canonical boards only:
per board every live combo is evaluated once (145 million evaluations in all) and then row
``a`` of ``acc`` gains ``orbit(B)`` wherever ``value(a) > value(b)``.  That inner loop is a
contiguous compare-and-add, which LLVM vectorises; rows are split between threads, so no two
threads ever write the same cell and the integer result does not depend on scheduling.

Ties follow from the identity ``wins(a,b) + wins(b,a) + ties(a,b) = C(48,5) = 1,712,304``.
"""

from __future__ import annotations

from itertools import permutations

import numpy as np
from numba import prange

from sflp.cache import njit  # numba's njit, cached in sflp's cache folder (never in the package)
from sflp.core.cards import COMBO_CARDS, COMBO_INDEX, N_COMBOS
from sflp.core.evaluator import STRAIGHT_TOP, value_from_masks

SUIT_PERMUTATIONS = np.array(list(permutations(range(4))), dtype=np.int64)
DEAD = 2**31 - 1
"""Value stored for a combo that shares a card with the board: never beats, never ties."""


@njit(cache=True)
def _canonical_board_keys() -> np.ndarray:
    """For each of the C(52,5) boards, a key that is the same exactly for boards in one suit orbit.

    Relabelling suits permutes the four 13-bit suit masks of a board, so the masks sorted in
    decreasing order are a complete invariant; the key packs them into 52 bits.
    """
    out = np.empty(2_598_960, dtype=np.int64)
    masks = np.zeros(4, dtype=np.int64)
    k = 0
    for a in range(52):
        for b in range(a + 1, 52):
            for c in range(b + 1, 52):
                for d in range(c + 1, 52):
                    for e in range(d + 1, 52):
                        masks[:] = 0
                        for x in (a, b, c, d, e):
                            masks[x & 3] |= 1 << (x >> 2)
                        masks.sort()
                        out[k] = masks[3] << 39 | masks[2] << 26 | masks[1] << 13 | masks[0]
                        k += 1
    return out


def canonical_boards() -> tuple[np.ndarray, np.ndarray]:
    """The suit-distinct boards as an ``(n, 5)`` card array and each one's orbit size.

    There are 134,459 of them and their orbit sizes sum to C(52,5) = 2,598,960.  The
    representative of an orbit gives suit 0 (clubs) the largest suit mask, suit 1 the next, ...
    """
    keys = _canonical_board_keys()
    uniq, counts = np.unique(keys, return_counts=True)
    boards = np.empty((len(uniq), 5), dtype=np.int64)
    for k, key in enumerate(uniq.tolist()):
        cards = []
        for suit in range(4):
            mask = (key >> (13 * (3 - suit))) & 0x1FFF
            cards.extend(4 * r + suit for r in range(13) if mask >> r & 1)
        boards[k] = sorted(cards)
    return boards, counts.astype(np.int64)


@njit(cache=True, parallel=True)
def _board_values(boards: np.ndarray, combo_cards: np.ndarray, straight_top: np.ndarray) -> np.ndarray:
    """``values[k, c]``: hand value of combo ``c`` on board ``k``, or DEAD if they share a card."""
    n = boards.shape[0]
    out = np.empty((n, combo_cards.shape[0]), dtype=np.int32)
    for k in prange(n):
        suit_masks = np.zeros(4, dtype=np.int64)
        counts = np.zeros(13, dtype=np.int64)
        board_mask = np.int64(0)
        for i in range(5):
            c = boards[k, i]
            board_mask |= np.int64(1) << c
        sm = np.zeros(4, dtype=np.int64)
        cn = np.zeros(13, dtype=np.int64)
        for i in range(5):
            c = boards[k, i]
            sm[c & 3] |= 1 << (c >> 2)
            cn[c >> 2] += 1
        for j in range(combo_cards.shape[0]):
            x = combo_cards[j, 0]
            y = combo_cards[j, 1]
            if (board_mask >> x) & 1 or (board_mask >> y) & 1:
                out[k, j] = DEAD
                continue
            for s in range(4):
                suit_masks[s] = sm[s]
            for r in range(13):
                counts[r] = cn[r]
            suit_masks[x & 3] |= 1 << (x >> 2)
            counts[x >> 2] += 1
            suit_masks[y & 3] |= 1 << (y >> 2)
            counts[y >> 2] += 1
            out[k, j] = value_from_masks(suit_masks, counts, straight_top)
    return out


@njit(cache=True, parallel=True)
def _accumulate(values: np.ndarray, orbit: np.ndarray, acc: np.ndarray, row_block: int) -> None:
    """``acc[a, b] += orbit[k] * (values[k, a] > values[k, b])`` over boards ``k``.

    Rows are processed in blocks so that a block of ``acc`` stays in cache while the boards
    stream past; each block belongs to one thread.
    """
    n_boards, n = values.shape
    n_blocks = (n + row_block - 1) // row_block
    for blk in prange(n_blocks):
        lo = blk * row_block
        hi = min(n, lo + row_block)
        for k in range(n_boards):
            w = np.int32(orbit[k])
            row = values[k]
            for a in range(lo, hi):
                va = row[a]
                if va == DEAD:
                    continue
                target = acc[a]
                for b in range(n):
                    target[b] += w * np.int32(va > row[b])


def _combo_permutation(perm: np.ndarray) -> np.ndarray:
    """Where each combo goes when suits are relabelled by ``perm``."""
    cards = COMBO_CARDS.astype(np.int64)
    mapped = (cards >> 2) * 4 + perm[cards & 3]
    return COMBO_INDEX[mapped[:, 0], mapped[:, 1]].astype(np.int64)


def build_win_table(progress: bool = False, chunk: int = 8192, row_block: int = 48) -> np.ndarray:
    """Exact ``wins[a, b]``: boards (of the C(48,5) = 1,712,304 that miss both combos) on which
    combo ``a`` beats combo ``b``; 0 where the combos share a card.  Deterministic.
    """
    boards, orbit = canonical_boards()
    acc = np.zeros((N_COMBOS, N_COMBOS), dtype=np.int32)
    combo_cards = COMBO_CARDS.astype(np.int64)
    starts = range(0, len(boards), chunk)
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=len(boards), unit="board", desc="sflp equity build")
    for start in starts:
        part = boards[start : start + chunk]
        values = _board_values(part, combo_cards, STRAIGHT_TOP)
        _accumulate(values, orbit[start : start + chunk], acc, row_block)
        if bar is not None:
            bar.update(len(part))
    if bar is not None:
        bar.close()
    total = np.zeros((N_COMBOS, N_COMBOS), dtype=np.int64)
    for perm in SUIT_PERMUTATIONS:
        pc = _combo_permutation(perm)
        total += acc[np.ix_(pc, pc)]
    if np.any(total % 24):
        raise AssertionError("orbit sums not divisible by 24: the board orbits are wrong")
    wins = (total // 24).astype(np.uint32)
    from sflp.core.cards import COMBO_DISJOINT

    wins[~COMBO_DISJOINT] = 0
    return wins
