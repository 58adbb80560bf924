r"""The game on both sides: OpenSpiel imported on first use (:func:`pyspiel`, :data:`INSTALL_HINT`),
the exported game loaded in it (:func:`load_game`) and a pyspiel game checked to be sflp's
(:func:`check_game`, at class or combo level: :func:`game_level`); and the game a policy or a
file is for (:data:`GAME_KEY`, :func:`game_entry`, :func:`policy_game`, :func:`efg_config`).

The game travels with the policy: a policy table sflp writes
(:func:`~sflp.openspiel.policy.from_strategy` with ``config=``) carries its structure under the
key :data:`GAME_KEY` (``"_sflp_game": {"stack": 10, "small_blind": 0.5, "big_blind": 1, "ante":
0, "bb_ante": 0, "sflp": "0.1.0"}``), which :func:`~sflp.openspiel.policy_file.read_policy` keeps
and :func:`~sflp.openspiel.policy.verify` checks: a policy scored in a game it was not made for is
refused, naming both games.  A policy without the key is scored in the game asked.  A pyspiel
game given to :func:`~sflp.openspiel.policy.verify` (or the game a Python policy carries) must be
sflp's push/fold game of that ``config``: another game (``kuhn_poker``), or sflp's game of another
structure, is refused (:func:`check_game`).  :func:`efg_config` reads the structure back from an
``.efg`` file sflp wrote.
"""

from __future__ import annotations

import contextlib
import numbers
import os
import re
import sys
from collections.abc import Mapping
from decimal import Decimal

import numpy as np

from sflp.checks import parse_number, short
from sflp.core.cards import CLASS_NAMES, N_CLASSES, N_COMBOS
from sflp.errors import ArgumentTypeError, ConfigError
from sflp.inputs import read_text
from sflp.openspiel.efg import (
    ACTION_IDS,
    HEADER,
    MAX_EFG_BYTES,
    STRUCTURE_FIELDS,
    combo_info_state,
    efg_text,
    info_state,
    split_state,
    structure_text,
)

INSTALL_HINT = "pip install 'open-spiel>=1.5' (in a checkout of sflp: pip install -e '.[openspiel]')"
"""What installs OpenSpiel (sflp itself is not on PyPI: its ``openspiel`` extra works from a
checkout or a wheel of sflp, ``pip install 'sflp-0.1.0-py3-none-any.whl[openspiel]'``)."""
GAME_KEY = "_sflp_game"
"""The key under which a policy table sflp writes names its game (:func:`game_entry`); OpenSpiel
never uses it (drop it before ``pyspiel.TabularPolicy(table)``: ``table.pop(GAME_KEY, None)``)."""


def pyspiel():
    """The ``pyspiel`` module, or sflp's error saying how to install it."""
    try:
        import pyspiel as module
    except ImportError:
        raise ConfigError(f"OpenSpiel is not installed: {INSTALL_HINT} (wheels for CPython 3.11+ on Linux "
                          "and macOS)") from None
    return module


@contextlib.contextmanager
def quiet_stderr():
    """OpenSpiel's C++ prints ``OpenSpiel exception: ...`` on fd 2 before raising; sflp turns the
    exception into its own error, so that copy is dropped."""
    sys.stderr.flush()
    saved = os.dup(2)
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(devnull)


def load_game(config, table=None):
    """The ``pyspiel`` game of ``config`` (:class:`~sflp.core.game.GameConfig`), loaded from the
    exported ``.efg`` text (:func:`sflp.openspiel.efg.efg_text`)."""
    spiel = pyspiel()
    text = efg_text(config, table)
    try:
        with quiet_stderr():
            return spiel.load_efg_game(text)
    except (spiel.SpielError, IndexError) as exc:  # pragma: no cover - the export is checked by the tests
        raise ConfigError(f"OpenSpiel did not load the exported game: {exc}") from None


def same_game(a, b) -> bool:
    """Whether two :class:`~sflp.core.game.GameConfig` are the same structure, field by field as floats."""
    return all(float(getattr(a, f)) == float(getattr(b, f)) for f in STRUCTURE_FIELDS)


def game_entry(config) -> dict:
    """What a policy table sflp writes carries under :data:`GAME_KEY`: the structure's five fields
    (floats, which JSON writes with every digit) and the sflp version that wrote it.

    >>> from sflp.core.game import GameConfig
    >>> game_entry(GameConfig(stack=10, ante=0.125))  # doctest: +ELLIPSIS
    {'stack': 10.0, 'small_blind': 0.5, 'big_blind': 1.0, 'ante': 0.125, 'bb_ante': 0.0, 'sflp': '...'}
    """
    from sflp import __version__
    from sflp.core.game import GameConfig

    if not isinstance(config, GameConfig):
        raise ArgumentTypeError(f"config={short(config)}: expected a GameConfig, e.g. GameConfig(stack=10)")
    return {**{f: float(getattr(config, f)) for f in STRUCTURE_FIELDS}, "sflp": __version__}


def policy_game(policy):
    """The :class:`~sflp.core.game.GameConfig` a policy names under :data:`GAME_KEY` (a mapping
    policy only), else None.  The entry is checked: an object of the five structure fields, each
    a number (JSON's ``10`` or ``10.0``, not text or ``true``), and optionally ``"sflp"``, the
    version that wrote it; anything else is one :class:`~sflp.errors.ConfigError`."""
    from sflp.core.game import GameConfig

    if not isinstance(policy, Mapping) or GAME_KEY not in policy:
        return None
    entry = policy[GAME_KEY]
    usage = (f'the policy\'s "{GAME_KEY}" entry: expected {{"stack": 10, "small_blind": 0.5, "big_blind": 1, '
             '"ante": 0, "bb_ante": 0}}')
    if not isinstance(entry, Mapping):
        raise ConfigError(f"{usage}, got {short(entry)}")
    unknown = sorted(str(k) for k in entry if k not in (*STRUCTURE_FIELDS, "sflp"))
    missing = [f for f in STRUCTURE_FIELDS if f not in entry]
    if unknown or missing:
        what = f"unknown key {short(unknown[0])}" if unknown else f"no {missing[0]!r}"
        raise ConfigError(f"{usage}; it has {what}")
    values = {}
    for f in STRUCTURE_FIELDS:
        v = entry[f]
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (numbers.Real, Decimal)):
            raise ConfigError(f"{usage}; its {f} is {short(v)}, not a number")
        values[f] = v
    try:
        return GameConfig(**values)
    except ConfigError as exc:
        raise ConfigError(f'the policy\'s "{GAME_KEY}" entry is no game: {exc}') from None


def _first_sb_state(game):
    """SB's first decision in the exported game (the first outcome of each deal: AA dealt to both
    at class level, 2d2c to SB and the first combo that shares no card with it to BB at combo
    level)."""
    root = game.new_initial_state()
    s1 = root.child(root.chance_outcomes()[0][0])
    return s1, s1.child(s1.chance_outcomes()[0][0])


_GAME_LEVELS = {N_CLASSES: "class", N_COMBOS: "combo"}
"""A pyspiel game of sflp's at each level, told by its chance outcomes at a node (the root deals
SB's hand): 169 classes (:func:`load_game`) or 1,326 combos (the combo-level ``.efg``)."""


def game_level(game) -> str:
    """``"class"`` or ``"combo"``: the level of a pyspiel game :func:`check_game` accepts."""
    return _GAME_LEVELS[game.max_chance_outcomes()]


def check_game(game, config=None) -> None:
    """Refuse a ``game`` that is not sflp's exported push/fold game (of ``config``, when given), at
    class level (:func:`load_game`) or at combo level (the combo-level ``.efg``, whose information
    states are :func:`combo_info_state`'s).

    Checked, cheapest first: its size (2 players; 3 distinct actions, fold 0, shove 1, call 2;
    169 chance outcomes, the hand classes, or 1,326, the combos), the name of its first
    information state (SB's AA, ``"0-0-1-AA"`` and the game it names, or SB's combo 0, ``"0-0-1-2d2c"``), and with
    ``config`` three payoffs: SB's fold, BB's fold and a showdown (AA v KK; at combo level 2d2c v
    AsAh), each equal to sflp's for ``config``
    (within 1e-12 relative), so that a game of another stack, blinds or antes is refused.  The
    class showdown is the one :func:`sflp.openspiel.efg.showdown_payoffs` writes; the combo one
    is formed here from the pair's board counts and the payoffs of :mod:`sflp.core.payoff`."""
    spiel = pyspiel()
    try:
        shape = (game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes())
        name = game.get_type().short_name
    except (AttributeError, TypeError):
        raise ConfigError(f"game={short(game)}: expected a pyspiel game, the game of "
                          "sflp.openspiel.load_game(config)") from None
    if shape[:2] != (2, 3) or shape[2] not in _GAME_LEVELS:
        raise ConfigError(f"the game given ({name}) is not sflp's push/fold game: it has {shape[0]} players, "
                          f"{shape[1]} distinct actions and up to {shape[2]} chance outcomes a node; sflp's has 2, 3 "
                          f"(fold, shove, call) and {N_CLASSES} (the hand classes; {N_COMBOS} at combo level): load "
                          "it with sflp.openspiel.load_game(config)")
    combos = _GAME_LEVELS[shape[2]] == "combo"
    want_first, what_first = (combo_info_state("sb", 0), "SB's combo 0, 2d2c") if combos else \
        (info_state("sb", "AA"), "SB's AA")
    try:
        with quiet_stderr():
            s1, sb = _first_sb_state(game)
            first = sb.information_state_string() if sb.current_player() == 0 else None
            if first is None or split_state(first)[0] != want_first:  # its game is checked by its payoffs
                raise ConfigError(f"the game given ({name}) is not sflp's push/fold game: its first information state "
                                  f"is {short(first)}, sflp's is {want_first!r} ({what_first})")
            if config is None:
                return
            fold = sb.child(ACTION_IDS["fold"]).returns()[0]
            # a showdown whose wins and losses differ (2d2c v 2h2s would pay 0 at every stack)
            matchup, bb_state = ("2d2c v AsAh", combo_info_state("bb", N_COMBOS - 1)) if combos else \
                ("AA v KK", info_state("bb", "KK"))
            shove = None
            for action, _ in s1.chance_outcomes():
                state = s1.child(action).child(ACTION_IDS["shove"])
                if split_state(state.information_state_string())[0] == bb_state:
                    shove = state
                    break
            if shove is None:
                raise ConfigError(f"the game given ({name}) is not sflp's push/fold game: BB is never dealt "
                                  f"{matchup.split(' v ')[1]} against SB's {matchup.split(' v ')[0]}")
            got = (fold, shove.child(ACTION_IDS["fold"]).returns()[0], shove.child(ACTION_IDS["call"]).returns()[0])
    except spiel.SpielError as exc:
        raise ConfigError(f"the game given ({name}) is not sflp's push/fold game: {short(str(exc), 120)}") from None
    want = _combo_payoffs(config, N_COMBOS - 1) if combos else _class_payoffs(config)
    if any(abs(a - b) > 1e-12 * max(1.0, abs(b)) for a, b in zip(got, want)):
        raise ConfigError("the game given is sflp's push/fold game of another structure, not "
                          f"{structure_text(config)}: "
                          f"SB's {matchup} showdown pays {got[2]!r} bb there, {want[2]!r} here (SB's fold {got[0]!r} "
                          f"and {want[0]!r}): load the game of this config, sflp.openspiel.load_game(config)")


def _class_payoffs(config) -> tuple[float, float, float]:
    """SB's fold, steal and AA v KK showdown payoffs as the class-level ``.efg`` writes them."""
    from sflp.openspiel.efg import showdown_payoffs

    f, g, c, _ = showdown_payoffs(config)
    return f, g, float(c[0, CLASS_NAMES.index("KK")])


def _combo_payoffs(config, bb_combo: int) -> tuple[float, float, float]:
    """SB's fold, steal and showdown payoffs of SB's combo 0 against ``bb_combo``, each exact and
    rounded once: the showdown is ``(win W + lose L + tie T) / 1,712,304`` from the pair's board
    counts."""
    from sflp.core.equity import load_table
    from sflp.core.payoff import terminal_payoffs

    nodes = terminal_payoffs(config)
    stack = config.exact()["stack"]
    w, t, lose = load_table().combo_counts(0, bb_combo)
    showdown = (nodes["win"].at(stack) * w + nodes["lose"].at(stack) * lose + nodes["tie"].at(stack) * t) \
        / (w + t + lose)
    return float(nodes["fold"].at(stack)), float(nodes["steal"].at(stack)), float(showdown)


_TITLE = re.compile(re.escape(HEADER) + r': stack (?P<stack>[^ ",]+) bb, SB (?P<small_blind>[^ ",]+), '
                    r'BB (?P<big_blind>[^ ",]+), ante (?P<ante>[^ ",]+), BB ante (?P<bb_ante>[^ ",]+)')
"""The structure in the title of every ``.efg`` sflp writes (:func:`sflp.openspiel.efg.efg_text`)."""


def efg_config(path):
    """The :class:`~sflp.core.game.GameConfig` of an ``.efg`` file sflp wrote, read from its title
    (``EFG 2 R "sflp heads-up push/fold: stack 10 bb, SB 0.5, BB 1, ante 0, BB ante 0" ...``) and
    proved: the file's tree (from its first node on; the title and comment may differ) must be the
    tree sflp writes for that structure, so a title that rounds its numbers, a file of another
    sflp version or an edited file is refused, never scored in a game it does not hold.  Read with
    :func:`sflp.inputs.read_text` (a regular file of at most
    :data:`~sflp.openspiel.efg.MAX_EFG_BYTES`; a FIFO is refused, never waited on).  A larger file
    is read as a combo-level game (:func:`sflp.openspiel.combo.combo_efg_config`: its title says
    ``combo level``, and its tree is proved streaming)."""
    from sflp.core.game import GameConfig

    if not isinstance(path, (str, os.PathLike)) or not os.fspath(path):
        raise ArgumentTypeError(f"path={short(path)}: expected the .efg file to read (a str or a Path)")
    what = f".efg file {short(os.fspath(path), 300)}"
    try:
        large = os.stat(path).st_size > MAX_EFG_BYTES
    except OSError:
        large = False  # read_text says what is wrong
    if large:  # a combo-level game (354 MB) is proved streaming; anything else that large is refused there
        from sflp.openspiel.combo import combo_efg_config

        return combo_efg_config(path, what)
    text = read_text(path, what, max_bytes=MAX_EFG_BYTES)
    title = text.split("\n", 1)[0]
    match = _TITLE.match(title)
    if match is None:
        raise ConfigError(f"{what} is not a game sflp wrote: its first line is {short(title, 100)}, not "
                          f"{HEADER}: stack ... bb, SB ..., BB ..., ante ..., BB ante ...\"")
    values = {f: parse_number(match[f], f"{what}: {f}") for f in STRUCTURE_FIELDS}
    try:
        config = GameConfig(**values)
    except ConfigError as exc:
        raise ConfigError(f"{what} names no valid game: {exc}") from None
    tree = text.find("\nc ")
    expected = efg_text(config)
    if tree < 0 or text[tree:] != expected[expected.index("\nc "):]:
        raise ConfigError(f"{what} is titled {structure_text(config)}, but its tree is not the game sflp writes for "
                          "that structure (written by another sflp version, or edited): export it again with "
                          "sflp export efg")
    return config

