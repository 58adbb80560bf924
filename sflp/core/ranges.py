"""Hand ranges: PokerStove / Equilab / HoldemResources range notation and the :class:`Range` object.

A :class:`Range` holds one weight in ``[0, 1]`` for each of the 1,326 combos (combo ids as in
:mod:`sflp.core.cards`), so that single combos and partial classes can be represented exactly.
Why one module: it is one piece, though over 600 lines (most of them the grammar below and its parser):
the parser, the formatter and :class:`Range` are one notation read both ways (``parse_range``
makes a ``Range``, whose ``parse`` and ``str`` are that parser and formatter), so that apart they
would import each other.

Grammar
-------
::

    range   := blank | token ("," token)*         blank text is the empty range
    token   := spec [":" weight]                  weight: a decimal in [0, 1], default 1
    spec    := "random" | "any" | "*"             all 169 classes (1,326 combos)
             | pair                               "AA"
             | pair "+"                           "TT+"       = TT, JJ, ..., AA
             | pair "-" pair                      "99-55"     = 99, 88, 77, 66, 55 (either order)
             | hand                               "AKs", "AKo", "AK" (= AKs and AKo)
             | hand "+"                           "A2s+"      = A2s, A3s, ..., AKs: the kicker
                                                              rises up to one below the top card
             | shand "-" shand                    "K9s-K6s"   = K9s, K8s, K7s, K6s (either order);
                                                              both ends need the same top card
                                                              and the same s/o suffix
             | pair "-"                           "JJ-"       = JJ, TT, ..., 22
             | hand "-"                           "A5s-"      = A5s, A4s, A3s, A2s: the kicker
                                                              falls to the deuce
             | combo                              "AhKh": exactly rank, suit, rank, suit
             | ["top"] number "%"                 "20%", "top20%": the best classes of
                                                              HAND_RANKING (see below)
    pair    := R R                                the same rank twice
    hand    := R R ["s" | "o"]                    two different ranks (either order)
    shand   := R R ("s" | "o")
    R       := 2 3 4 5 6 7 8 9 T J Q K A          case-insensitive, as are s/o and suits c d h s

Equilab / HoldemResources exports weight groups of tokens with brackets: ``[50]AKo,KQs[/50]``
gives every token between ``[w]`` and ``[/w]`` the weight ``w/100`` (``w`` a decimal percentage in
``[0, 100]``, the same number on both brackets; groups do not nest and their tokens carry no
``:weight`` of their own).  ``AKo:0.5`` and ``[50]AKo[/50]`` are the same range.

**Percentages.** ``"20%"`` (or ``"top20%"``) is the top of :data:`HAND_RANKING`, the 169 classes
ordered by exact all-in equity against a random hand: whole classes are added in that order
until their combos first make up at least 20% of the 1,326 (exactly: ``100 * combos >= 20 *
1326``), so the range holds at least the percentage asked, and never a partial class.  ``"0%"``
is empty, ``"100%"`` everything.  The equities are all different, so the order needs no
tie-break.

Tokens are separated by commas; whitespace around tokens and around ``:``, ``-`` and ``+`` is
ignored.  Tokens apply left to right and **later tokens override earlier ones** for the combos
they cover (``"random:0.5,AA"`` is every class at one half except ``AA`` at 1; ``"AK,AhKh:0"``
removes one combo).  A weight of 0 removes combos.

Malformed text raises :class:`~sflp.errors.NotationError` whose message quotes the bad token
and says what is allowed: a suited/offsuit pair (``AAo``), bad ranks (``XYs``), ``+`` not at the
end (``AK+s``), a dash range without suffixes (``K2-K5``), with different top cards
(``K6s-Q9s``) or mixing a pair and a non-pair, a weight outside ``[0, 1]`` (``AQo:1.1``), a combo
with a repeated card (``AhAh``) and empty tokens (``AA,,KK``).

Canonical form
--------------
:func:`format_range` (also ``str(r)``) prints the canonical short form, a deterministic function
of the combo weights, so that two spellings of the same range print identically and
``parse_range(format_range(r)) == r`` for every range ``r``:

1. A class whose combos all carry the same weight ``w > 0`` is printed as a class; its token gets
   the suffix ``:w`` (``repr`` of the float, the shortest text that parses back exactly) unless
   ``w == 1``.  A *partial* class (combos with different weights) is printed combo by combo
   (``AsKs``, higher card first), each positive combo with its own weight.
2. Tokens come in groups of equal weight, highest weight first; inside a group class tokens come
   first, then combo tokens in class-id then descending combo-id order.
3. Class tokens of one group: pairs first as runs of consecutive ranks (``QQ+`` if the run reaches
   ``AA``, ``99-55`` otherwise, ``88`` alone); then the other classes as runs of consecutive
   kickers per top card (``K9s+`` if the run reaches one below the top card, ``K8s-K5s``
   otherwise, ``K3s`` alone).  A run present with the same kickers in both suited and offsuit
   form is merged into the suffix-less token (``AK``, ``ATs+`` and ``ATo+`` print ``AT+``), except
   a dash run, because the grammar requires suffixes on dash ranges.  Merged tokens come first,
   then suited, then offsuit tokens, each by top card descending, then kicker descending.
4. The empty range prints ``""``; the full range prints its explicit form ``22+,A2+,...,32``.

Equality and hashing of ranges compare the 1,326 float weights exactly.  That is sound for
ranges built by :func:`parse_range`, since the same decimal text always gives the same float.

>>> r = parse_range("AA, KK, AKs, AQs, AJs, KQs:0.5")
>>> str(r)
'KK+,AJs+,KQs:0.5'
>>> r.combos_count(), parse_range(str(r)) == r
(26.0, True)
>>> parse_range("22+").combos_count(), len(parse_range("22+").classes())
(78.0, 13)
>>> parse_range("A2s+").combos_count(), parse_range("KTo+").classes()
(48.0, ['KQo', 'KJo', 'KTo'])
>>> parse_range("K6s-K9s").classes(), str(parse_range("K9s,K8s,K7s"))
(['K9s', 'K8s', 'K7s', 'K6s'], 'K9s-K7s')
>>> parse_range("55-99") == parse_range("99-55") == parse_range("99,88,77,66,55")
True
>>> parse_range("QJ").combos_count(), parse_range("QJ+") == parse_range("QJ")
(16.0, True)
>>> parse_range("Q9+").classes()
['QJs', 'QTs', 'Q9s', 'QJo', 'QTo', 'Q9o']
>>> parse_range("AhKh").combos_count(), parse_range("random").combos_count()
(1.0, 1326.0)
>>> str(parse_range("AKs:0.5, QQ+:0.25, AKo:0.5"))
'AK:0.5,QQ+:0.25'
>>> str(parse_range("random:0.5, AA")).split(",")[:3]
['AA', 'KK-22:0.5', 'A2+:0.5']
>>> str(parse_range("AK, AhKh:0"))
'AKo,AsKs,AdKd,AcKc'
>>> parse_range("20%").classes()[:4], round(100 * parse_range("20%").fraction(), 2)
(['AA', 'AKs', 'AQs', 'AJs'], 20.81)
>>> parse_range("JJ-") == parse_range("22-JJ"), str(parse_range("[50]AKo,KQs[/50]"))
(True, 'KQs:0.5,AKo:0.5')
>>> parse_range("AAo")  # doctest: +ELLIPSIS
Traceback (most recent call last):
    ...
sflp.errors.NotationError: bad range token 'AAo': a pair cannot be suited or offsuit...
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

from sflp.core.cards import (
    CLASS_COMBOS,
    CLASS_NAMES,
    CLASS_SIZES,
    COMBO_CLASS,
    N_CLASSES,
    N_COMBOS,
    RANKS,
    SUITS,
    class_id,
    combo_id,
    combo_name,
    grid_text,
)
from sflp.errors import ArgumentTypeError, NotationError

__all__ = ["HAND_RANKING", "Range", "format_range", "parse_range", "top_percent_classes"]

_ALLOWED = (
    "allowed: a pair 'TT', a class 'AKs', 'AKo' or 'AK', a '+' range such as '22+', 'A2s+' or "
    "'Q9+', a dash range such as '99-55', 'K9s-K6s' or 'JJ-', a combo such as 'AhKh', a top "
    "percentage such as '20%', or 'random'/'any'/'*', each optionally followed by ':weight' with a "
    "weight in [0, 1], separated by commas; '[50]AKo,KQs[/50]' gives a group the weight 50%"
)
_ALL_WORDS = frozenset({"random", "any", "*"})
_WEIGHT_RE = re.compile(r"(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")

_COMBO_IDS = tuple(np.asarray(c, dtype=np.intp) for c in CLASS_COMBOS)
"""The combo ids of each class as index arrays."""
_BY_CLASS = np.argsort(COMBO_CLASS, kind="stable")
"""Combo ids sorted by class id: with ``_CLASS_STARTS``, the segments of a ``reduceat``."""
_CLASS_STARTS = np.concatenate(([0], np.cumsum(CLASS_SIZES)[:-1]))

HAND_RANKING: tuple[str, ...] = (
    "AA", "KK", "QQ", "JJ", "TT", "99", "88", "AKs", "77", "AQs", "AJs", "AKo", "ATs", "AQo",
    "AJo", "KQs", "66", "A9s", "ATo", "KJs", "A8s", "KTs", "KQo", "A7s", "A9o", "KJo", "55", "QJs",
    "K9s", "A5s", "A6s", "A8o", "KTo", "QTs", "A4s", "A7o", "K8s", "A3s", "QJo", "K9o", "A5o",
    "A6o", "Q9s", "K7s", "JTs", "A2s", "QTo", "44", "A4o", "K6s", "K8o", "Q8s", "A3o", "K5s",
    "J9s", "Q9o", "JTo", "K7o", "A2o", "K4s", "Q7s", "K6o", "K3s", "T9s", "J8s", "33", "Q6s",
    "Q8o", "K5o", "J9o", "K2s", "Q5s", "T8s", "K4o", "J7s", "Q4s", "Q7o", "T9o", "J8o", "K3o",
    "Q6o", "Q3s", "98s", "T7s", "J6s", "K2o", "22", "Q2s", "Q5o", "J5s", "T8o", "J7o", "Q4o",
    "97s", "J4s", "T6s", "J3s", "Q3o", "98o", "87s", "T7o", "J6o", "96s", "J2s", "Q2o", "T5s",
    "J5o", "T4s", "97o", "86s", "J4o", "T6o", "95s", "T3s", "76s", "J3o", "87o", "T2s", "85s",
    "96o", "J2o", "T5o", "94s", "75s", "T4o", "93s", "86o", "65s", "84s", "95o", "T3o", "92s",
    "76o", "74s", "T2o", "54s", "85o", "64s", "83s", "94o", "75o", "82s", "73s", "93o", "65o",
    "53s", "63s", "84o", "92o", "43s", "74o", "72s", "54o", "64o", "52s", "62s", "83o", "42s",
    "82o", "73o", "53o", "63o", "32s", "43o", "72o", "52o", "62o", "42o", "32o",
)
"""The 169 classes, best first, by exact all-in equity against a random hand (the PokerStove order).

Equity against a random hand is the average over every card-disjoint villain combo (1,225 per
hero combo) of ``(wins + ties/2) / 1,712,304``, averaged over the class's combos: an exact
fraction from the equity table.  The 169 values are all different, so no tie-break is ever
needed (were two equal, the lower class id, i.e. the grid order, would come first).  The tuple
is a constant so that this module need not load the table; ``tests/test_ranges.py`` recomputes
it from the table and :func:`sflp.core.equity.hand_ranking` exposes the equities.
"""
_RANK_CLASS_IDS = np.array([class_id(n) for n in HAND_RANKING], dtype=np.intp)
_RANK_CUM_COMBOS = np.cumsum(CLASS_SIZES[_RANK_CLASS_IDS]).astype(np.int64)
"""Combos in the top ``k + 1`` classes of :data:`HAND_RANKING`."""
_PERCENT_RE = re.compile(r"(?:top\s*)?((?:\d+(?:\.\d*)?|\.\d+))\s*%", re.IGNORECASE)
_BRACKET_OPEN_RE = re.compile(r"\[\s*([^\]/\[]*?)\s*\]")
_BRACKET_CLOSE_RE = re.compile(r"\[\s*/\s*([^\]\[]*?)\s*\]")

# ---------------------------------------------------------------- class ids from ranks


def _pair_class(rank: int) -> int:
    """Class id of the pair of rank ``rank`` (0 = deuce .. 12 = ace)."""
    return (12 - rank) * 13 + (12 - rank)


def _hand_class(hi: int, lo: int, kind: str) -> int:
    """Class id of the non-pair ``hi``/``lo`` (``hi > lo``), ``kind`` ``"s"`` or ``"o"``."""
    if kind == "s":
        return (12 - hi) * 13 + (12 - lo)  # suited: above the diagonal
    return (12 - lo) * 13 + (12 - hi)  # offsuit: below


def _hand_classes(hi: int, kickers: Iterable[int], kind: str) -> list[int]:
    """Class ids of ``hi`` with each kicker, for ``kind`` ``"s"``, ``"o"`` or ``""`` (both)."""
    kinds = (kind,) if kind else ("s", "o")
    return [_hand_class(hi, lo, k) for k in kinds for lo in kickers]


# ---------------------------------------------------------------- parsing


def _error(token: str, reason: str) -> NotationError:
    return NotationError(f"bad range token {token!r}: {reason}; {_ALLOWED}")


def _parse_weight(text: str, token: str) -> float:
    """The weight after ``:``, a decimal in ``[0, 1]``."""
    text = text.strip()
    if not _WEIGHT_RE.fullmatch(text):
        try:
            number = float(text)
        except ValueError:
            number = math.nan
        if math.isfinite(number) and not 0.0 <= number <= 1.0:  # "-0.5": a number, but not a weight
            raise _error(token, f"weight {text!r} is outside [0, 1]")
        raise _error(token, f"weight {text!r} is not a decimal number")
    weight = float(text)
    if not 0.0 <= weight <= 1.0:
        raise _error(token, f"weight {text!r} is outside [0, 1]")
    return weight


def _parse_hand(text: str, token: str) -> tuple[int, int, str]:
    """``(hi, lo, kind)`` of a plain class such as ``"AKs"``, ``"kq"`` or ``"TT"``.

    ``kind`` is ``"s"``, ``"o"`` or ``""`` (both, or a pair, where ``hi == lo``).
    """
    text = text.strip()
    if len(text) not in (2, 3):
        raise _error(token, f"{text!r} is not a hand class: expected two ranks and an optional s/o")
    r1, r2 = RANKS.find(text[0].upper()), RANKS.find(text[1].upper())
    if r1 < 0 or r2 < 0:
        raise _error(token, f"{text!r} has a bad rank: ranks are 23456789TJQKA")
    kind = text[2:].lower()
    if kind not in ("", "s", "o"):
        raise _error(token, f"{text!r} has a bad suffix {text[2]!r}: expected 's' or 'o'")
    if r1 == r2 and kind:
        raise _error(token, "a pair cannot be suited or offsuit")
    return max(r1, r2), min(r1, r2), kind


def _single_classes(hi: int, lo: int, kind: str) -> list[int]:
    """Classes of a plain class token: a pair, ``AKs``, ``AKo`` or ``AK`` (both)."""
    return [_pair_class(hi)] if hi == lo else _hand_classes(hi, [lo], kind)


def _expand_plus(body: str, token: str) -> list[int]:
    """Classes of ``body+``: pairs up to ``AA``, or kickers up to one below the top card."""
    hi, lo, kind = _parse_hand(body, token)
    if hi == lo:
        return [_pair_class(r) for r in range(lo, 13)]
    return _hand_classes(hi, range(lo, hi), kind)


def _expand_dash(left: str, right: str, token: str) -> list[int]:
    """Classes of ``left-right``: two pairs, or two classes with one top card and one suffix."""
    if not left.strip() or not right.strip():
        raise _error(
            token, "a dash range needs a hand on both sides, as in '99-55' or 'K9s-K6s' (for 'and up' write '22+')"
        )
    hi1, lo1, kind1 = _parse_hand(left, token)
    hi2, lo2, kind2 = _parse_hand(right, token)
    pair1, pair2 = hi1 == lo1, hi2 == lo2
    if pair1 and pair2:
        return [_pair_class(r) for r in range(min(lo1, lo2), max(lo1, lo2) + 1)]
    if pair1 or pair2:
        raise _error(token, "a dash range joins two pairs or two non-pairs, not a pair and a non-pair")
    if not kind1 or not kind2 or kind1 != kind2:
        raise _error(token, "both ends of a non-pair dash range need the same suffix 's' or 'o'")
    if hi1 != hi2:
        raise _error(token, "both ends of a dash range need the same top card, as in 'K9s-K6s'")
    return _hand_classes(hi1, range(min(lo1, lo2), max(lo1, lo2) + 1), kind1)


def _expand_minus(body: str, token: str) -> list[int]:
    """Classes of ``body-`` (a trailing dash): pairs down to ``22``, or kickers down to the deuce."""
    hi, lo, kind = _parse_hand(body, token)
    if hi == lo:
        return [_pair_class(r) for r in range(lo, -1, -1)]
    return _hand_classes(hi, range(lo, -1, -1), kind)


def top_percent_classes(percent: float | str) -> list[str]:
    """The classes of ``"{percent}%"``: the shortest prefix of :data:`HAND_RANKING` whose combos
    make up at least ``percent`` % of the 1,326 (whole classes only, so usually a little more).

    The comparison is exact: ``"20%"`` means ``100 * combos >= 20 * 1326``.

    >>> top_percent_classes(1), top_percent_classes("2.5")
    (['AA', 'KK', 'QQ'], ['AA', 'KK', 'QQ', 'JJ', 'TT', '99'])
    >>> len(top_percent_classes(0)), len(top_percent_classes(100))
    (0, 169)
    """
    from fractions import Fraction

    try:
        share = Fraction(str(percent))
    except (ValueError, ZeroDivisionError):
        raise NotationError(f"percentage {percent!r} is not a number") from None
    if not 0 <= share <= 100:
        raise NotationError(f"percentage {percent}% is outside [0, 100]")
    count = int(np.searchsorted(_RANK_CUM_COMBOS * 100, share * N_COMBOS, side="left")) + 1
    if share == 0:
        count = 0
    return list(HAND_RANKING[:count])


def _percent_classes(spec: str, token: str) -> list[int] | None:
    """Classes of a percentage spec such as ``"20%"`` or ``"top20%"``, or None if it is not one."""
    match = _PERCENT_RE.fullmatch(spec)
    if match is None:
        if "%" in spec:
            raise _error(token, "a percentage is a number in [0, 100] followed by '%', as in '20%' or 'top20%'")
        return None
    try:
        names = top_percent_classes(match.group(1))
    except NotationError as exc:
        raise _error(token, str(exc)) from None
    return [class_id(n) for n in names]


def _parse_combo(text: str, token: str) -> int:
    """Combo id of a four-character combo such as ``"AhKh"``."""
    cards = []
    for part in (text[0:2], text[2:4]):
        rank, suit = RANKS.find(part[0].upper()), SUITS.find(part[1].lower())
        if rank < 0 or suit < 0:
            raise _error(
                token, "a 4-character token is a single combo: rank, suit, rank, suit, as in 'AhKh'"
            )
        cards.append(4 * rank + suit)
    if cards[0] == cards[1]:
        raise _error(token, "a combo cannot hold the same card twice")
    return combo_id(*cards)


def _token_combos(spec: str, token: str) -> np.ndarray:
    """The combo ids a token's spec (the part before ``:``) covers."""
    if not spec:
        raise _error(token, "the hand part is empty")
    if spec.lower() in _ALL_WORDS:
        return np.arange(N_COMBOS)
    percent = _percent_classes(spec, token)
    if percent is not None:
        classes = percent
    elif spec.endswith("-") and spec.count("-") == 1:
        classes = _expand_minus(spec[:-1], token)
    elif "-" in spec:
        parts = spec.split("-")
        if len(parts) != 2:
            raise _error(token, "a dash range has exactly two ends")
        classes = _expand_dash(parts[0], parts[1], token)
    elif "+" in spec:
        if spec.count("+") != 1 or not spec.endswith("+"):
            raise _error(token, "'+' must come last, as in 'AKs+'")
        classes = _expand_plus(spec[:-1], token)
    elif len(spec) == 4:
        return np.array([_parse_combo(spec, token)])
    else:
        classes = _single_classes(*_parse_hand(spec, token))
    if not classes:
        return np.zeros(0, dtype=np.intp)
    return np.concatenate([_COMBO_IDS[k] for k in classes])


def _split_tokens(text: str) -> list[str]:
    """Stripped comma-separated tokens; no tokens for blank text, an error for an empty token."""
    if not text.strip():
        return []
    tokens = [t.strip() for t in text.split(",")]
    for i, token in enumerate(tokens):
        if not token:
            raise NotationError(
                f"bad range {text!r}: token {i + 1} is empty (two commas in a row, or a "
                f"leading or trailing comma); {_ALLOWED}"
            )
    return tokens


def _bracket_weight(text: str, where: str) -> float:
    """The weight of a ``[50]`` / ``[/50]`` bracket: a percentage in ``[0, 100]`` as a weight."""
    from fractions import Fraction

    if not _WEIGHT_RE.fullmatch(text):
        raise NotationError(f"bad range {where!r}: bracket weight [{text}] is not a decimal percentage; {_ALLOWED}")
    share = Fraction(text)
    if share > 100:
        raise NotationError(f"bad range {where!r}: bracket weight [{text}] is outside [0, 100]; {_ALLOWED}")
    return float(share / 100)


def _weighted_tokens(text: str) -> list[tuple[str, float | None]]:
    """The tokens of ``text`` with the weight of the ``[w]...[/w]`` group they sit in (or None).

    >>> _weighted_tokens("AA, [50]AKo,KQs[/50], QQ")
    [('AA', None), ('AKo', 0.5), ('KQs', 0.5), ('QQ', None)]
    """
    out: list[tuple[str, float | None]] = []
    pos = 0

    def plain(segment: str, after_group: bool, before_group: bool) -> None:
        if "[" in segment or "]" in segment:
            raise NotationError(
                f"bad range {text!r}: a bracket weight group is '[w]hands[/w]' with w in [0, 100], "
                f"not nested, with matching open and close; {_ALLOWED}"
            )
        segment = segment.strip()
        if after_group and segment.startswith(","):
            segment = segment[1:]
        if before_group and segment.endswith(","):
            segment = segment[:-1]
        if segment.strip() or not (after_group or before_group):
            out.extend((t, None) for t in _split_tokens(segment))

    while True:
        opening = _BRACKET_OPEN_RE.search(text, pos)
        if opening is None:
            plain(text[pos:], pos > 0, False)
            return out
        plain(text[pos : opening.start()], pos > 0, True)
        closing = _BRACKET_CLOSE_RE.search(text, opening.end())
        if closing is None:
            raise NotationError(
                f"bad range {text!r}: [{opening.group(1)}] is never closed by [/{opening.group(1)}]; {_ALLOWED}"
            )
        inner = text[opening.end() : closing.start()]
        if "[" in inner or "]" in inner:
            raise NotationError(f"bad range {text!r}: bracket weight groups cannot be nested; {_ALLOWED}")
        weight = _bracket_weight(opening.group(1), text)
        if _bracket_weight(closing.group(1), text) != weight:
            raise NotationError(
                f"bad range {text!r}: [{opening.group(1)}] is closed by [/{closing.group(1)}]; {_ALLOWED}"
            )
        for token in _split_tokens(inner):
            if ":" in token:
                raise _error(
                    token,
                    f"a token inside [{opening.group(1)}]...[/{closing.group(1)}] takes that weight, "
                    "not its own ':weight'",
                )
            out.append((token, weight))
        pos = closing.end()


def _apply_token(weights: np.ndarray, token: str, weight: float | None = None) -> None:
    """Set the weights of the combos a token covers (later tokens override earlier ones).

    ``weight`` is the weight of an enclosing ``[w]...[/w]`` group (the token then has no ``:``).
    """
    spec, colon, weight_text = token.partition(":")
    weight = 1.0 if weight is None else weight
    if colon:
        if ":" in weight_text:
            raise _error(token, "a token has at most one ':weight'")
        weight = _parse_weight(weight_text, token)
    spec = spec.strip()
    if "+" in spec:  # tolerate whitespace before the '+': "22 +"
        spec = spec[: spec.index("+")].rstrip() + spec[spec.index("+") :]
    combos = _token_combos(spec, token)
    weights[combos] = weight


def parse_range(text: str) -> Range:
    """Parse range notation (see the module docstring for the grammar) into a :class:`Range`.

    Each rule as an example (combo counts: 6 per pair, 4 suited, 12 offsuit):

    >>> def show(text):
    ...     r = parse_range(text)
    ...     return r.combos_count(), r.classes()
    >>> show("AA"), show("AKs"), show("AKo"), show("ak")
    ((6.0, ['AA']), (4.0, ['AKs']), (12.0, ['AKo']), (16.0, ['AKs', 'AKo']))
    >>> show("JJ+")
    (24.0, ['AA', 'KK', 'QQ', 'JJ'])
    >>> show("A9s+")
    (20.0, ['AKs', 'AQs', 'AJs', 'ATs', 'A9s'])
    >>> show("KTo+")
    (36.0, ['KQo', 'KJo', 'KTo'])
    >>> show("Q9+")
    (48.0, ['QJs', 'QTs', 'Q9s', 'QJo', 'QTo', 'Q9o'])
    >>> show("K7s-K9s")
    (12.0, ['K9s', 'K8s', 'K7s'])
    >>> show("99-77")
    (18.0, ['99', '88', '77'])
    >>> show("AhKh")
    (1.0, ['AKs'])
    >>> show("random")[0], show("any")[0], show("*")[0], show("")
    (1326.0, 1326.0, 1326.0, (0.0, []))

    Weights, overriding, and errors quoting the bad token:

    >>> parse_range("AKs:0.5").combos_count(), parse_range("22+:0.25").combos_count()
    (2.0, 19.5)
    >>> parse_range("QQ+, KK:0").classes()
    ['AA', 'QQ']
    >>> parse_range("AQo:1.1")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    sflp.errors.NotationError: bad range token 'AQo:1.1': weight '1.1' is outside [0, 1]; ...
    >>> parse_range("K6s-Q9s")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    sflp.errors.NotationError: bad range token 'K6s-Q9s': both ends of a dash range need the same top card, ...
    """
    if not isinstance(text, str):
        raise ArgumentTypeError(f"parse_range expects a range string such as '22+,A2s+', not "
                                f"{type(text).__name__} {text!r:.40}")
    weights = np.zeros(N_COMBOS, dtype=np.float64)
    for token, weight in _weighted_tokens(text):
        _apply_token(weights, token, weight)
    return Range(weights)


# ---------------------------------------------------------------- formatting


def _runs(values: Iterable[int]) -> list[tuple[int, int]]:
    """Maximal runs of consecutive integers as ``(top, bottom)``, highest run first.

    >>> _runs([12, 11, 9, 8, 7, 2])
    [(12, 11), (9, 7), (2, 2)]
    """
    runs: list[tuple[int, int]] = []
    for v in sorted(set(values), reverse=True):
        if runs and runs[-1][1] == v + 1:
            runs[-1] = (runs[-1][0], v)
        else:
            runs.append((v, v))
    return runs


def _pair_token(top: int, bottom: int) -> str:
    """``"AA"``, ``"QQ+"`` (a run reaching aces) or ``"99-55"``."""
    b = RANKS[bottom] * 2
    if top == bottom:
        return b
    if top == 12:
        return b + "+"
    return f"{RANKS[top] * 2}-{b}"


def _is_dash_run(hi: int, top: int, bottom: int) -> bool:
    """True when a kicker run of top card ``hi`` needs the dash form (it cannot merge s and o)."""
    return top != bottom and top != hi - 1


def _hand_token(hi: int, top: int, bottom: int, kind: str) -> str:
    """``"K3s"``, ``"K9s+"`` (kickers reach one below the top card) or ``"K8s-K5s"``."""
    h = RANKS[hi]
    if top == bottom:
        return h + RANKS[bottom] + kind
    if top == hi - 1:
        return h + RANKS[bottom] + kind + "+"
    return f"{h}{RANKS[top]}{kind}-{h}{RANKS[bottom]}{kind}"


def _class_tokens(classes: set[int]) -> list[str]:
    """Canonical tokens (without weights) of a set of class ids; see the module docstring."""
    tokens = [_pair_token(t, b) for t, b in _runs(r for r in range(13) if _pair_class(r) in classes)]
    merged: list[str] = []
    suited: list[str] = []
    offsuit: list[str] = []
    for hi in range(12, 0, -1):
        s_runs = _runs(lo for lo in range(hi) if _hand_class(hi, lo, "s") in classes)
        o_runs = _runs(lo for lo in range(hi) if _hand_class(hi, lo, "o") in classes)
        both = {run for run in s_runs if run in o_runs and not _is_dash_run(hi, *run)}
        merged += [_hand_token(hi, t, b, "") for t, b in s_runs if (t, b) in both]
        suited += [_hand_token(hi, t, b, "s") for t, b in s_runs if (t, b) not in both]
        offsuit += [_hand_token(hi, t, b, "o") for t, b in o_runs if (t, b) not in both]
    return tokens + merged + suited + offsuit


def _with_weight(token: str, weight: float) -> str:
    return token if weight == 1.0 else f"{token}:{weight!r}"


def _uniform_class_weights(weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(uniform, value)``: whether each class's combos share one weight, and that weight."""
    ordered = weights[_BY_CLASS]
    low = np.minimum.reduceat(ordered, _CLASS_STARTS)
    high = np.maximum.reduceat(ordered, _CLASS_STARTS)
    return low == high, low


def format_range(r: Range) -> str:
    """The canonical short text of a range (rules in the module docstring); ``str(r)`` is the same.

    >>> format_range(parse_range("AA,KK")), format_range(parse_range("AKs,AQs,AJs"))
    ('KK+', 'AJs+')
    >>> format_range(parse_range("KQs,KJs,KTs,K9s")), format_range(parse_range("K9s,K8s,K7s"))
    ('K9s+', 'K9s-K7s')
    >>> format_range(parse_range("AKs,AKo")), format_range(parse_range("ATs+,ATo+,A5o-A3o"))
    ('AK', 'AT+,A5o-A3o')
    >>> format_range(parse_range("K9s-K7s,K9o-K7o"))
    'K9s-K7s,K9o-K7o'
    >>> format_range(parse_range("AhKh, AA:0.5, 22:0.5")), format_range(Range.empty())
    ('AhKh,AA:0.5,22:0.5', '')
    >>> format_range(Range.all())
    '22+,A2+,K2+,Q2+,J2+,T2+,92+,82+,72+,62+,52+,42+,32'
    """
    weights = r.combo_weights()
    uniform, value = _uniform_class_weights(weights)
    class_weight = np.where(uniform, value, 0.0)
    partial_combos = np.flatnonzero(~uniform[COMBO_CLASS] & (weights > 0))
    levels = set(class_weight[class_weight > 0].tolist()) | set(weights[partial_combos].tolist())
    out: list[str] = []
    for w in sorted(levels, reverse=True):
        classes = set(np.flatnonzero(class_weight == w).tolist())
        out += [_with_weight(t, w) for t in _class_tokens(classes)]
        combos = [int(c) for c in partial_combos if weights[c] == w]
        combos.sort(key=lambda c: (int(COMBO_CLASS[c]), -c))
        out += [_with_weight(combo_name(c), w) for c in combos]
    return ",".join(out)


# ---------------------------------------------------------------- display


def _grid_cell(cls: int, weight: float) -> str:
    """Grid text of one class: its name at weight 1, ``.`` at 0, ``.01``..``.99`` otherwise."""
    if weight == 1.0:
        return CLASS_NAMES[cls]
    if weight == 0.0:
        return "."
    return f".{min(99, max(1, round(weight * 100))):02d}"


# ---------------------------------------------------------------- the Range object


def _validated_combo_weights(weights: Any) -> np.ndarray:
    """A read-only float64 copy of 1,326 weights in ``[0, 1]`` (``-0.0`` normalised to ``0.0``)."""
    arr = np.array(weights, dtype=np.float64)
    if arr.shape != (N_COMBOS,):
        raise NotationError(f"range combo weights need shape ({N_COMBOS},), not {arr.shape}")
    if not np.all((arr >= 0.0) & (arr <= 1.0)):  # also rejects NaN
        raise NotationError("range weights must lie in [0, 1]")
    arr += 0.0  # -0.0 -> 0.0, so that equal ranges hash equally
    arr.setflags(write=False)
    return arr


class Range:
    """An immutable hand range: one weight in ``[0, 1]`` per combo (1,326 of them).

    Build one with :func:`parse_range` / :meth:`Range.parse`, :meth:`from_class_weights`,
    :meth:`from_combo_weights` (or ``Range(weights)``), :meth:`empty` or :meth:`all`.
    Ranges compare and hash by their exact float weights.

    >>> r = Range.from_class_weights({"AA": 1, "AKs": 0.5})
    >>> r, r.combos_count(), round(r.fraction(), 5)
    (Range('AA,AKs:0.5'), 8.0, 0.00603)
    >>> r.class_weights()[:3].tolist(), r == Range.parse("AKs:0.5,AA"), len({r, Range.parse(str(r))})
    ([1.0, 0.5, 0.0], True, 1)
    >>> float(Range.parse("AsKs").class_weights()[1])
    0.25
    >>> print(Range.parse("AKs,QQ+:0.5").grid_text().splitlines()[0])
     .50  AKs    .    .    .    .    .    .    .    .    .    .    .
    """

    __slots__ = ("_weights", "_hash")

    def __init__(self, combo_weights: Any) -> None:
        weights = _validated_combo_weights(combo_weights)
        object.__setattr__(self, "_weights", weights)
        object.__setattr__(self, "_hash", hash(weights.tobytes()))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Range is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Range is immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        return (Range, (np.array(self._weights),))

    # -- constructors

    @classmethod
    def parse(cls, text: str) -> Range:
        """Same as :func:`parse_range`."""
        return parse_range(text)

    @classmethod
    def from_combo_weights(cls, weights: Any) -> Range:
        """A range from 1,326 weights in ``[0, 1]`` indexed by combo id."""
        return cls(weights)

    @classmethod
    def from_class_weights(cls, weights: Mapping[str, float] | Any) -> Range:
        """A range from 169 weights indexed by class id, or a dict ``{class name: weight}``.

        Classes missing from a dict get weight 0.

        >>> Range.from_class_weights({"aks": 1, "QQ": 0.5}).combos_count()
        7.0
        """
        if isinstance(weights, Mapping):
            per_class = np.zeros(N_CLASSES, dtype=np.float64)
            for name, w in weights.items():
                per_class[class_id(name)] = w
        else:
            per_class = np.array(weights, dtype=np.float64)
            if per_class.shape != (N_CLASSES,):
                raise NotationError(f"range class weights need shape ({N_CLASSES},), not {per_class.shape}")
        return cls(per_class[COMBO_CLASS])

    @classmethod
    def empty(cls) -> Range:
        """The range with no combos."""
        return cls(np.zeros(N_COMBOS))

    @classmethod
    def all(cls) -> Range:
        """Every combo at weight 1 (``"random"``)."""
        return cls(np.ones(N_COMBOS))

    # -- weights

    def combo_weights(self) -> np.ndarray:
        """The 1,326 combo weights (the internal array, read-only)."""
        return self._weights

    def class_weights(self) -> np.ndarray:
        """The 169 class weights: the mean weight of each class's combos (exact for uniform classes)."""
        uniform, value = _uniform_class_weights(self._weights)
        mean = np.bincount(COMBO_CLASS, weights=self._weights, minlength=N_CLASSES) / CLASS_SIZES
        return np.where(uniform, value, mean)

    def classes(self) -> list[str]:
        """Names of the classes with some positive weight, in class-id (grid) order."""
        return [CLASS_NAMES[k] for k in np.flatnonzero(self.class_weights() > 0)]

    def combos_count(self) -> float:
        """The weighted number of combos (sum of the combo weights)."""
        return float(self._weights.sum())

    def fraction(self) -> float:
        """The weighted fraction of all 1,326 combos."""
        return self.combos_count() / N_COMBOS

    # -- comparison and display

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Range):
            return NotImplemented
        return bool(np.array_equal(self._weights, other._weights))

    def __hash__(self) -> int:
        return self._hash

    def __str__(self) -> str:
        return format_range(self)

    def __repr__(self) -> str:
        return f"Range({format_range(self)!r})"

    def grid_text(self) -> str:
        """13x13 text grid, aces top-left: class name at weight 1, ``.`` at 0, ``.50`` between."""
        cw = self.class_weights()
        return grid_text([_grid_cell(k, float(cw[k])) for k in range(N_CLASSES)])
