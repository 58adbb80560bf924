r"""The push/fold game as a Gambit extensive-form file (``.efg``), the interchange format that
Gambit and OpenSpiel (``pyspiel.load_efg_game``) read.

The tree (class level, 169 hand classes a player)
-------------------------------------------------
::

    chance (info set 1, "deal SB")           169 classes i, probability  size(i) / 1326
      chance (info set 2 + i, "deal BB | i")  169 classes j, probability  pairs(i, j) / (size(i) * 1225)
        SB (info set i)     fold  -> terminal  (f, -f)                outcome 1
                            shove -> BB (info set j)
                                       fold -> terminal  (g, -g)      outcome 2
                                       call -> terminal  (c_ij, -c_ij) outcome 3 + k

``size(i)`` is the class's combos (6, 4 or 12) and ``pairs(i, j)`` the card-disjoint combo pairs
of the two classes, so the two chance nodes deal the classes with the exact card-removal
probabilities of :mod:`sflp.core.game` (``P[i, j] = pairs(i, j) / (1326 * 1225)``); both are
written as exact fractions (``6/1326`` reduced to ``1/221``), which Gambit and OpenSpiel read
exactly.  Payoffs are SB's net chips in bb and BB's, their negative (the game is zero-sum):
``f`` (SB folds: it loses its small blind and ante), ``g`` (BB folds: SB takes the big blind and
every ante) and ``c_ij`` (the showdown, averaged over the pair's disjoint combos and all
1,712,304 boards).  ``f`` and ``g`` come from the one payoff home (:mod:`sflp.core.payoff`) and
``c_ij = g + K[i, j] / P[i, j]`` from the exact matrix of :func:`sflp.solving.exact.exact_payoffs`:
each is an exact rational rounded once to the nearest double and written with all 17 digits
(``repr``), so a reader gets the same doubles.

Gambit's rules, which its parser enforces (``src/games/file.cc``, ``doc/formats.efg.rst``), shape
the rest: a chance information set has one set of probabilities, so the BB deal has one chance
information set per SB class (chance information sets ``2 .. 170``, named ``"deal BB | AA"`` ...,
numbered apart from the players' own); a non-empty node label must be unique in the game, so
every node's label is empty (``""``): the information sets and outcomes carry the names.  Labels
cost time, too: Gambit checks each new label against every node already read, so 57,122 unique
labels would make reading quadratic.  Every repeated declaration of an information set or
outcome is written in full and identical, as both readers accept (OpenSpiel requires it).

Information sets are the hand classes, numbered in sflp's class order (:data:`sflp.core.cards.CLASS_NAMES`,
``AA`` = 1, ``AKs`` = 2, ... ``22`` = 169) and named after them *and the game*: the hand, ``@``,
then the stack, blinds and antes (:func:`game_tag`), so ``"AKs@10bb,0.5/1,a0.125,bba0"``.  A
policy OpenSpiel writes on the game (``policy_table()``, ``serialize()``) thus names the game it
was made for, and :func:`sflp.openspiel.verify` refuses to score it in another.  SB's actions are
``fold``, ``shove`` and BB's ``fold``, ``call``, listed in that order at every node (OpenSpiel
numbers actions by their first appearance: fold = 0, shove = 1, call = 2).  OpenSpiel names an
information state ``"<player>-<player>-<number>-<name>"``: SB's AKs at 10 bb is
``"0-0-2-AKs@10bb,0.5/1,a0,bba0"`` and BB's 72o ``"1-1-164-72o@10bb,0.5/1,a0,bba0"``
(:func:`info_state`; a state of an older export, ``"0-0-2-AKs"``, names no game and is still
read).  The combo-level game of :mod:`sflp.openspiel.combo` names its states by combo alone
(:func:`combo_info_state`): its policies name their game by sflp's ``"_sflp_game"`` entry only.
Outcomes are numbered as Gambit wants them, one number per payoff vector: 1 for every fold, 2 for
every steal, then one per showdown.

>>> from sflp.core.game import GameConfig
>>> text = efg_text(GameConfig(stack=10))
>>> text.splitlines()[0]
'EFG 2 R "sflp heads-up push/fold: stack 10 bb, SB 0.5, BB 1, ante 0, BB ante 0" { "SB" "BB" }'
>>> info_state("sb", "AKs", GameConfig(stack=10)), info_state("bb", "72o")
('0-0-2-AKs@10bb,0.5/1,a0,bba0', '1-1-164-72o')
"""

from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import numpy as np

from sflp.atomic import check_file_target, check_name, write_bytes
from sflp.checks import short
from sflp.core.cards import CLASS_NAMES, CLASS_SIZES, N_CLASSES, N_COMBOS, class_id, combo_name, parse_combo
from sflp.core.game import DEALS, GameConfig, PushFoldGame
from sflp.errors import ArgumentTypeError, ConfigError, NotationError, OutputError

ACTIONS = {"sb": ("fold", "shove"), "bb": ("fold", "call")}
"""Each player's actions, in the order every node of the file lists them."""
ACTION_IDS = {"fold": 0, "shove": 1, "call": 2}
"""OpenSpiel's action numbers in the exported game (its actions are numbered by first appearance)."""
PLAYER_INDEX = {"sb": 0, "bb": 1}
HEADER = "EFG 2 R \"sflp heads-up push/fold"
"""How every file sflp writes begins: :func:`write_efg` overwrites only such a file."""
STRUCTURE_FIELDS = ("stack", "small_blind", "big_blind", "ante", "bb_ante")
"""The fields of a game's structure (:class:`~sflp.core.game.GameConfig`) that a policy table and
an ``.efg`` title name, in order."""


def game_tag(config) -> str:
    """The game an information state names after its hand (``"AKs@10bb,0.5/1,a0.125,bba0"``): the
    stack, the blinds, the ante and the BB ante, each as the shortest text that reads back as the
    same double (:func:`exact_text`).  :func:`tag_game` reads it back.

    >>> from sflp.core.game import GameConfig
    >>> game_tag(GameConfig(stack=10, ante=0.125)), game_tag(GameConfig(stack=12.25, small_blind=0.4))
    ('10bb,0.5/1,a0.125,bba0', '12.25bb,0.4/1,a0,bba0')
    """
    return (f"{exact_text(config.stack)}bb,{exact_text(config.small_blind)}/{exact_text(config.big_blind)},"
            f"a{exact_text(config.ante)},bba{exact_text(config.bb_ante)}")


_TAG = re.compile(r"(?P<stack>[0-9.]+)bb,(?P<small_blind>[0-9.]+)/(?P<big_blind>[0-9.]+),a(?P<ante>[0-9.]+),"
                  r"bba(?P<bb_ante>[0-9.]+)", re.ASCII)
TAG_USAGE = "'<stack>bb,<small blind>/<big blind>,a<ante>,bba<BB ante>', e.g. '10bb,0.5/1,a0.125,bba0'"


def tag_game(tag: str):
    """The :class:`~sflp.core.game.GameConfig` a :func:`game_tag` names; anything else is one
    :class:`~sflp.errors.ConfigError` quoting it.

    >>> tag_game("10bb,0.5/1,a0.125,bba0").ante
    0.125
    """
    match = _TAG.fullmatch(tag) if isinstance(tag, str) else None
    if match is None:
        raise ConfigError(f"the game {short(tag)} an information state names is not one sflp writes: expected "
                          f"{TAG_USAGE}")
    try:
        return GameConfig(**{f: float(match[f]) for f in STRUCTURE_FIELDS})
    except (ConfigError, ValueError) as exc:
        raise ConfigError(f"the game {short(tag)} an information state names is no valid game: {exc}") from None


def split_state(state: str) -> tuple[str, str | None]:
    """An information state as ``(state without its game, the game's tag or None)``:
    ``"0-0-2-AKs@10bb,0.5/1,a0,bba0"`` is ``("0-0-2-AKs", "10bb,0.5/1,a0,bba0")``; a state of an
    older export (``"0-0-2-AKs"``) names no game."""
    base, at, tag = state.partition("@")
    return (base, tag) if at else (state, None)


def info_state(player: str, hand: str, config=None) -> str:
    """OpenSpiel's information-state string of ``player``'s (``"sb"``/``"bb"``) hand class in the
    exported game of ``config``: ``"0-0-2-AKs@10bb,0.5/1,a0,bba0"`` (the state names its game,
    :func:`game_tag`); without ``config``, the state without its game (``"0-0-2-AKs"``, the name an
    older export gave every game).  The class is written as :func:`sflp.core.cards.class_id` reads
    it (``"kas"`` is ``AKs``).  An unknown player is a :class:`~sflp.errors.ConfigError`, an
    unknown class a :class:`~sflp.errors.NotationError`, each quoting the bad value."""
    key = player.strip().lower() if isinstance(player, str) else None
    if key not in PLAYER_INDEX:
        raise ConfigError(f"player={short(player)}: expected 'sb' or 'bb'")
    if not isinstance(hand, str):
        raise NotationError(f"hand={short(hand)}: expected a hand class name such as 'AKs', 'T9o' or '22'")
    try:
        k = class_id(hand)
    except NotationError:
        raise NotationError(f"hand {short(hand)} is not a hand class: expected a pair ('TT'), or two ranks "
                            "and s/o ('AKs', 'T9o')") from None
    p = PLAYER_INDEX[key]
    tag = "" if config is None else "@" + game_tag(config)
    return f"{p}-{p}-{k + 1}-{CLASS_NAMES[k]}{tag}"


def combo_info_state(player: str, combo) -> str:
    """The information-state string of ``player``'s (``"sb"``/``"bb"``) combo in a combo-level
    policy: ``"<p>-<p>-<k + 1>-<name>"``, OpenSpiel's form of :func:`~sflp.openspiel.efg.info_state`
    with ``k`` the combo id (``0..1325``, :mod:`sflp.core.cards`) and ``name`` its
    :func:`~sflp.core.cards.combo_name`, higher card first.  ``combo`` is a combo id or any
    spelling :func:`~sflp.core.cards.parse_combo` reads (``"AhKd"``, ``"kdah"``).  An unknown player
    is a :class:`~sflp.errors.ConfigError`, a bad combo a :class:`~sflp.errors.NotationError`,
    each quoting the bad value.

    >>> combo_info_state("sb", 0), combo_info_state("bb", 1325), combo_info_state("sb", "kdah")
    ('0-0-1-2d2c', '1-1-1326-AsAh', '0-0-1310-AhKd')
    """
    key = player.strip().lower() if isinstance(player, str) else None
    if key not in PLAYER_INDEX:
        raise ConfigError(f"player={short(player)}: expected 'sb' or 'bb'")
    if isinstance(combo, (int, np.integer)) and not isinstance(combo, (bool, np.bool_)):
        if not 0 <= combo < N_COMBOS:
            raise NotationError(f"combo={short(combo)}: a combo id is in 0..{N_COMBOS - 1}")
        k = int(combo)
    elif isinstance(combo, str):
        try:
            k = parse_combo(combo)
        except NotationError:
            raise NotationError(f"combo {short(combo)} is not a combo: expected two cards such as 'AhKd', "
                                "or a combo id in 0..1325") from None
    else:
        raise NotationError(f"combo={short(combo)}: expected a combo such as 'AhKd' or a combo id in 0..1325")
    p = PLAYER_INDEX[key]
    return f"{p}-{p}-{k + 1}-{combo_name(k)}"


def _number(v: float) -> str:
    """A payoff with every digit (``repr`` round-trips a double), ``0.0`` for a zero of either sign."""
    return repr(v) if v != 0 else "0.0"


def exact_text(v: float) -> str:
    """A number as the shortest text that reads back as the same double: ``10``, ``12.5``,
    ``10.123456789`` (``%g``'s six digits when they do, else every digit needed, never an exponent).

    >>> exact_text(10.0), exact_text(12.5), exact_text(10.123456789), exact_text(1e20)
    ('10', '12.5', '10.123456789', '100000000000000000000')
    """
    v = float(v)
    short = f"{v:g}"
    if "e" not in short and float(short) == v:
        return short
    return np.format_float_positional(v, unique=True, trim="-")


def structure_text(config) -> str:
    """A game's structure in one phrase, for messages: ``stack 10 bb, blinds 0.5/1, ante 0, BB ante 0``."""
    return (f"stack {float(config.stack):g} bb, blinds {float(config.small_blind):g}/{float(config.big_blind):g}, "
            f"ante {float(config.ante):g}, BB ante {float(config.bb_ante):g}")


def _config_text(config: GameConfig) -> str:
    """The structure in the title, every number exact (:func:`exact_text`), so the title names the
    game the tree holds."""
    return (f"stack {exact_text(config.stack)} bb, SB {exact_text(config.small_blind)}, "
            f"BB {exact_text(config.big_blind)}, ante {exact_text(config.ante)}, BB ante {exact_text(config.bb_ante)}")


def showdown_payoffs(config: GameConfig, table=None) -> tuple[float, float, np.ndarray, np.ndarray]:
    """``(f, g, c, pairs)``: SB's fold and steal payoffs, the 169 x 169 showdown payoffs ``c[i, j]``
    (each the exact rational rounded once to a double; NaN where the classes cannot both be
    dealt) and the disjoint combo pairs of each class pair."""
    from sflp.solving.exact import exact_payoffs

    ex = exact_payoffs(PushFoldGame(config, table))
    f, g = ex.f, ex.g
    pairs = np.asarray(ex.pairs, dtype=np.int64)
    # c = g + K / P = g + (K_scaled / scale) / (pairs / DEALS): a ratio of integers, which Python's
    # int / int rounds correctly to the nearest double
    K = ex.K_scaled
    c = np.full((N_CLASSES, N_CLASSES), np.nan)
    for i in range(N_CLASSES):
        for j in range(N_CLASSES):
            n = int(pairs[i, j])
            if n:
                c[i, j] = (g.numerator * ex.scale * n + g.denominator * int(K[i, j]) * DEALS) / (
                    g.denominator * ex.scale * n)
    return float(f), float(g), c, pairs


@dataclass(frozen=True)
class EfgSummary:
    """What :func:`write_efg` wrote."""

    path: Path
    bytes: int
    seconds: float
    info_sets: int
    terminals: int
    config: GameConfig

    def to_dict(self) -> dict:
        return {"path": str(self.path), "bytes": self.bytes, "seconds": self.seconds,
                "info_sets": self.info_sets, "terminals": self.terminals, **self.config.as_dict()}


# Long on purpose: the tree written out node by node in one pass, in the order of the module doc.
def efg_text(config: GameConfig, table=None) -> str:
    """The game of ``config`` (its stack, blinds and antes) as the text of a Gambit ``.efg`` file
    (see the module doc)."""
    if not isinstance(config, GameConfig):
        raise ConfigError(f"config must be a GameConfig, got {type(config).__name__} {config!r:.40}")
    f, g, c, pairs = showdown_payoffs(config, table)
    fold = f"{_number(f)}, {_number(-f)}"
    steal = f"{_number(g)}, {_number(-g)}"
    sizes = [int(s) for s in CLASS_SIZES]
    tag = "@" + game_tag(config)  # every information state names its game (module doc)
    lines = [
        f'EFG 2 R "sflp heads-up push/fold: {_config_text(config)}" {{ "SB" "BB" }}',
        '"Heads-up no-limit hold\'em push/fold at hand-class level, written by sflp. Payoffs: net chips in bb '
        "from the stacks before posting, SB first. Information sets: the hand class; SB folds or shoves, "
        'BB facing a shove folds or calls. Deal probabilities are exact, with card removal."',
        "",
        'c "" 1 "deal SB" { ' + " ".join(
            f'"{name}" {Fraction(size, 1326)}' for name, size in zip(CLASS_NAMES, sizes)) + " } 0",
    ]
    outcome = 3
    for i, sb_hand in enumerate(CLASS_NAMES):
        row = pairs[i]
        dealt = [j for j in range(N_CLASSES) if row[j]]
        total = sizes[i] * 1225
        lines.append(f'c "" {i + 2} "deal BB | {sb_hand}" {{ ' + " ".join(
            f'"{CLASS_NAMES[j]}" {Fraction(int(row[j]), total)}' for j in dealt) + " } 0")
        for j in dealt:
            bb_hand = CLASS_NAMES[j]
            u = float(c[i, j])
            lines += [
                f'p "" 1 {i + 1} "{sb_hand}{tag}" {{ "fold" "shove" }} 0',
                f't "" 1 "fold" {{ {fold} }}',
                f'p "" 2 {j + 1} "{bb_hand}{tag}" {{ "fold" "call" }} 0',
                f't "" 2 "steal" {{ {steal} }}',
                f't "" {outcome} "{sb_hand} v {bb_hand}" {{ {_number(u)}, {_number(-u)} }}',
            ]
            outcome += 1
    return "\n".join(lines) + "\n"


MAX_EFG_BYTES = 64_000_000
"""A class-level ``.efg`` read back (:func:`sflp.openspiel.efg_config`) larger than this is not one
sflp wrote (one stack's is 7.1 MB without an ante, 7.5 MB with an ante of 0.125); a larger file is
read as a combo-level game, proved streaming."""
def _check_target(path: Path) -> None:
    """Refuse, before any work, an output sflp must not replace (:func:`sflp.atomic.check_file_target`);
    an existing ``.efg`` of sflp's, class or combo level, is replaced: its first bytes say so."""
    check_file_target(path, ".efg", lambda head: head.startswith(HEADER.encode()), stdout=True)


def write_efg(config: GameConfig, path: Path | str, table=None) -> EfgSummary:
    """Write :func:`efg_text` of ``config`` to ``path`` atomically, making its folder if needed;
    returns what was written.  Checked before any work: the name's length
    (:func:`sflp.atomic.check_name`) and the target (a file that is not an sflp ``.efg``, a
    folder, a FIFO, a device or a symlink is never replaced or written through)."""
    start = time.perf_counter()
    if not isinstance(path, (str, os.PathLike)) or not os.fspath(path):
        raise ArgumentTypeError(f"path={short(path)}: expected the .efg file to write (a str or a Path)")
    path = check_name(Path(path), what="output file")
    _check_target(path)
    text = efg_text(config, table)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)  # like a chart set's folder
    except OSError as exc:
        raise OutputError(f"cannot create the folder {path.parent}: {exc.strerror}") from None
    data = text.encode("utf-8")
    write_bytes(path, data)
    terminals = text.count('\nt "')
    return EfgSummary(path, len(data), time.perf_counter() - start, 2 * N_CLASSES, terminals, config)
