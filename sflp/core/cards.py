"""Cards, combos, hand classes and the 13x13 grid: the encodings used everywhere in sflp.

Encodings (each defined here once, and repeated in the README glossary):

* **Rank** ``r`` in ``0..12`` for ``2 3 4 5 6 7 8 9 T J Q K A`` (deuce lowest).
* **Suit** ``s`` in ``0..3`` for ``c d h s``.
* **Card id** ``4*r + s`` in ``0..51``: ``2c`` is 0, ``2d`` is 1, ..., ``As`` is 51.
* **Combo id** in ``0..1325``: the position of the card pair ``(a, b)``, ``a < b``, in the
  lexicographic order of ``itertools.combinations(range(52), 2)``: ``(2c,2d)`` is 0,
  ``(2c,2h)`` is 1, ..., ``(Ah,As)`` is 1325.
* **Grid** 13x13, row and column index ``g = 12 - r`` (aces top-left): pairs on the diagonal,
  **suited above** the diagonal (row = higher rank), **offsuit below** (column = higher rank).
  This is the orientation of the HoldemResources and PokerStove charts.
* **Class id** in ``0..168`` is the grid cell ``row*13 + col``: ``AA`` is 0, ``AKs`` is 1,
  ``AKo`` is 13, ``22`` is 168.  Classes hold 6 (pair), 4 (suited) or 12 (offsuit) combos.
  :data:`CLASS_INDEX` maps a class name to its id; :data:`GRID_RANKS` labels the grid's rows
  and columns, aces first.
* **Boards per pair**: two disjoint combos leave ``C(48, 5) = 1,712,304`` boards
  (:data:`BOARDS_PER_PAIR`); wins + ties + losses of a pair always add up to it.
* **Level** (:class:`Level`): a game is played on ``"class"`` (169 hands) or ``"combo"``
  (1,326 hands).  **Player** (:class:`Player`, :data:`PLAYERS` in report order): ``"sb"`` pushes
  or folds, ``"bb"`` calls or folds.  Both are string-valued enums, so they compare equal to,
  and serialise as, the plain strings.

>>> card_id("As"), card_name(0)
(51, '2c')
>>> combo_id(card_id("Ah"), card_id("As")), combo_name(0)
(1325, '2d2c')
>>> class_id("AKs"), class_id("AKo"), CLASS_NAMES[168]
(1, 13, '22')
>>> int(CLASS_SIZES[class_id("AA")]), int(CLASS_SIZES[1]), int(CLASS_SIZES[13])
(6, 4, 12)
>>> CLASS_NAMES[int(COMBO_CLASS[combo_id(card_id("Kh"), card_id("Ah"))])]
'AKs'
>>> Player.SB == "sb", PLAYERS, Level("combo") is Level.COMBO, f"{Level.CLASS}"
(True, ('sb', 'bb'), True, 'class')
"""

from __future__ import annotations

from enum import StrEnum
from itertools import combinations

import numpy as np

from sflp.errors import NotationError

RANKS = "23456789TJQKA"
SUITS = "cdhs"
N_CARDS = 52
N_COMBOS = 1326
N_CLASSES = 169
BOARDS_PER_PAIR = 1_712_304
"""Boards ``C(48, 5)`` dealt to two disjoint combos (five of the 48 unseen cards)."""
GRID_RANKS = RANKS[::-1]
"""Row / column labels of the 13x13 grid, aces first: ``'AKQJT98765432'``."""


class Level(StrEnum):
    """The hands a game is played on: 169 classes or 1,326 combos."""

    CLASS = "class"
    COMBO = "combo"


class Player(StrEnum):
    """SB (pushes or folds) and BB (calls a push or folds)."""

    SB = "sb"
    BB = "bb"


LEVELS: tuple[str, ...] = tuple(level.value for level in Level)
"""``('class', 'combo')``."""
PLAYERS: tuple[str, ...] = tuple(player.value for player in Player)
"""``('sb', 'bb')``: player codes in report order (SB first)."""

# ---------------------------------------------------------------- cards


def card_id(name: str) -> int:
    """Card id ``4*rank + suit`` of a two-character card name such as ``"Ah"``.

    >>> card_id("2c"), card_id("Td"), card_id("as")
    (0, 33, 51)
    """
    if not isinstance(name, str) or len(name) != 2:
        raise NotationError(f"bad card {name!r}: expected a rank 23456789TJQKA and a suit cdhs, e.g. 'Ah'")
    rank = RANKS.find(name[0].upper())
    suit = SUITS.find(name[1].lower())
    if rank < 0 or suit < 0:
        raise NotationError(f"bad card {name!r}: expected a rank 23456789TJQKA and a suit cdhs, e.g. 'Ah'")
    return 4 * rank + suit


def card_name(card: int) -> str:
    """Two-character name of a card id (``0`` -> ``"2c"``)."""
    return RANKS[card // 4] + SUITS[card % 4]


def parse_cards(text: str) -> list[int]:
    """Card ids of a run of card names such as ``"AhKd7c"`` (duplicates rejected).

    >>> parse_cards("AhAd")
    [50, 49]
    """
    text = text.strip()
    if len(text) % 2 or not text:
        raise NotationError(f"bad cards {text!r}: expected pairs of rank+suit such as 'AhKd'")
    cards = [card_id(text[i : i + 2]) for i in range(0, len(text), 2)]
    if len(set(cards)) != len(cards):
        raise NotationError(f"bad cards {text!r}: a card appears twice")
    return cards


# ---------------------------------------------------------------- combos

COMBO_CARDS = np.array(list(combinations(range(N_CARDS), 2)), dtype=np.int16)
"""``COMBO_CARDS[c] = (a, b)`` with ``a < b``: the two card ids of combo ``c``."""
COMBO_CARDS.setflags(write=False)

_COMBO_INDEX = np.full((N_CARDS, N_CARDS), -1, dtype=np.int16)
_COMBO_INDEX[COMBO_CARDS[:, 0], COMBO_CARDS[:, 1]] = np.arange(N_COMBOS)
_COMBO_INDEX[COMBO_CARDS[:, 1], COMBO_CARDS[:, 0]] = np.arange(N_COMBOS)
COMBO_INDEX = _COMBO_INDEX
"""``COMBO_INDEX[a, b]`` is the combo id of cards ``a`` and ``b`` (either order); -1 if a == b."""
COMBO_INDEX.setflags(write=False)

COMBO_MASK = (np.uint64(1) << COMBO_CARDS[:, 0].astype(np.uint64)) | (
    np.uint64(1) << COMBO_CARDS[:, 1].astype(np.uint64)
)
"""52-bit card mask of each combo (bit ``card id`` set)."""
COMBO_MASK.setflags(write=False)

COMBO_DISJOINT = (COMBO_MASK[:, None] & COMBO_MASK[None, :]) == 0
"""``COMBO_DISJOINT[a, b]`` is True when combos a and b share no card (1,225 per row)."""
COMBO_DISJOINT.setflags(write=False)


def combo_id(card_a: int, card_b: int) -> int:
    """Combo id of two distinct card ids, in either order."""
    if card_a == card_b or not (0 <= card_a < N_CARDS and 0 <= card_b < N_CARDS):
        raise NotationError(f"bad combo: cards {card_a} and {card_b} must be distinct ids in 0..51")
    return int(COMBO_INDEX[card_a, card_b])


def combo_name(combo: int) -> str:
    """Name of a combo, higher card first (``"AsAh"``); ties in rank by suit order s>h>d>c."""
    a, b = (int(c) for c in COMBO_CARDS[combo])
    return card_name(b) + card_name(a)


def parse_combo(text: str) -> int:
    """Combo id of a four-character combo such as ``"AhKd"``.

    >>> combo_name(parse_combo("kdah"))
    'AhKd'
    """
    cards = parse_cards(text)
    if len(cards) != 2:
        raise NotationError(f"bad combo {text!r}: expected two cards such as 'AhKd'")
    return combo_id(*cards)


# ---------------------------------------------------------------- classes and the grid


def _class_name(row: int, col: int) -> str:
    hi, lo = RANKS[12 - min(row, col)], RANKS[12 - max(row, col)]
    if row == col:
        return hi + lo
    return hi + lo + ("s" if row < col else "o")


CLASS_NAMES: tuple[str, ...] = tuple(_class_name(r, c) for r in range(13) for c in range(13))
"""Names of the 169 classes in class-id (grid row-major) order."""

CLASS_INDEX: dict[str, int] = {name: i for i, name in enumerate(CLASS_NAMES)}
"""Class id of each canonical class name (``CLASS_INDEX["AKs"] == 1``)."""


def _combo_class(a: int, b: int) -> int:
    ra, rb = a // 4, b // 4
    hi, lo = max(ra, rb), min(ra, rb)
    if ra == rb:
        return (12 - hi) * 13 + (12 - hi)
    if a % 4 == b % 4:  # suited: row = higher rank, above the diagonal
        return (12 - hi) * 13 + (12 - lo)
    return (12 - lo) * 13 + (12 - hi)  # offsuit: column = higher rank, below


COMBO_CLASS = np.array([_combo_class(int(a), int(b)) for a, b in COMBO_CARDS], dtype=np.int16)
"""``COMBO_CLASS[c]`` is the class id of combo ``c``."""
COMBO_CLASS.setflags(write=False)

CLASS_SIZES = np.bincount(COMBO_CLASS, minlength=N_CLASSES).astype(np.int64)
"""Combos per class: 6 for pairs, 4 suited, 12 offsuit (sums to 1,326)."""
CLASS_SIZES.setflags(write=False)

CLASS_COMBOS: tuple[tuple[int, ...], ...] = tuple(
    tuple(int(c) for c in np.flatnonzero(COMBO_CLASS == k)) for k in range(N_CLASSES)
)
"""The combo ids of each class, ascending."""


def class_id(name: str) -> int:
    """Class id of a class name such as ``"AKs"``, ``"t9o"`` or ``"22"`` (case-insensitive ranks).

    >>> class_id("AA"), class_id("kqs"), class_id("32o")
    (0, 15, 167)
    """
    key = _normalise_class_name(name)
    if key not in CLASS_INDEX:
        raise NotationError(
            f"bad hand class {name!r}: expected a pair ('TT'), or two ranks and s/o ('AKs', 'T9o')"
        )
    return CLASS_INDEX[key]


def _normalise_class_name(name: str) -> str:
    if not isinstance(name, str) or len(name) not in (2, 3):
        return ""
    r1, r2 = name[0].upper(), name[1].upper()
    tail = name[2:].lower()
    if r1 not in RANKS or r2 not in RANKS:
        return ""
    if RANKS.index(r1) < RANKS.index(r2):
        r1, r2 = r2, r1
    return r1 + r2 + tail


def grid_text(values: dict[int, str] | list[str], width: int = 4, ranks: bool = False) -> str:
    """Render 169 strings (indexed by class id) as a 13x13 text grid, aces top-left; with
    ``ranks`` the rank letters head the columns and start the rows (suited above the diagonal).

    >>> print(grid_text([str(k % 10) for k in range(169)], width=1, ranks=True).splitlines()[1])
    A 0 1 2 3 4 5 6 7 8 9 0 1 2
    """
    cells = [values[k] for k in range(N_CLASSES)]
    lines = ["  " + " ".join(f"{r:>{width}}" for r in GRID_RANKS)] if ranks else []
    for row in range(13):
        lines.append((f"{GRID_RANKS[row]} " if ranks else "")
                     + " ".join(f"{cells[row * 13 + col]:>{width}}" for col in range(13)))
    return "\n".join(lines)
