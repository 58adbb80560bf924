r"""OpenSpiel and sflp, both ways: the exported game loaded in OpenSpiel, and OpenSpiel policies
read back as sflp strategies and scored exactly.

* :func:`load_game` -- ``pyspiel.load_efg_game`` of :func:`sflp.openspiel.efg.efg_text`: the
  push/fold game in OpenSpiel's C++ (CFR, CFR+, MCCFR, ``pyspiel.nash_conv``, ...);
* :func:`to_strategy` -- an OpenSpiel policy on that game as two
  :class:`~sflp.study.strategy.StrategySpec` (SB's shove and BB's call frequency of each class);
* :func:`from_strategy` -- the reverse: sflp strategies as OpenSpiel's policy table, ``{info
  state: [(action, probability), ...]}``, which ``pyspiel.nash_conv`` and ``pyspiel.TabularPolicy``
  take;
* :func:`verify` -- :func:`sflp.study.verify.verify` of a policy, with the exact figures.

A policy is any of: a ``pyspiel.TabularPolicy`` (what ``CFRSolver.tabular_average_policy()``
returns), a ``pyspiel.Policy`` (``average_policy()`` of the C++ solvers; read state by state, so
the ``game`` is needed), an ``open_spiel.python.policy.TabularPolicy`` (the Python solvers'
``average_policy()``), any other ``open_spiel.python.policy.Policy`` (read state by state, with
the ``game``), or a plain mapping ``{information state: [(action, probability), ...]}`` (or
``{information state: {action: probability}}``), such as ``policy_table()`` written to JSON.
Actions are OpenSpiel's numbers (fold 0, shove 1, call 2) or their names; as text (a JSON
object's keys) exactly ``"0"``, ``"1"``, ``"2"`` or ``"fold"``, ``"shove"``, ``"call"``.

A policy is on one of two levels.  **Class level** is the exported game's: 338 information
states, one per player and hand class (:func:`sflp.openspiel.efg.info_state`).  **Combo level**
has 2,652, one per player and combo, named the same way with the combo id ``k`` of
:mod:`sflp.core.cards`: ``"<player>-<player>-<k + 1>-<combo>"`` (:func:`combo_info_state`; SB's
combo 0 is ``"0-0-1-2d2c"``, BB's 1,325 ``"1-1-1326-AsAh"``), for a solver of the 1,326-combo
game.  A combo-level policy is a mapping (or a file, or a tabular policy) keyed by combo states,
or an OpenSpiel ``Policy`` on the combo-level game (:mod:`sflp.openspiel.combo`'s ``.efg``, which
:func:`check_game` accepts as sflp's game too); :func:`to_strategy` reads it into combo-level
strategies, :func:`verify` scores it exactly (at class level when every class is played alike,
which is exact by suit symmetry, else at combo level: :mod:`sflp.study.verify`), and
:func:`from_strategy` ``(..., combos=True)`` writes one.  A policy mixing the two levels is
refused, and either level must name all of its states.

Only the mapping needs nothing but sflp; the rest needs OpenSpiel (:data:`INSTALL_HINT`),
imported on first use.  A policy that misses an information state, names an
information state or action the game does not have, or whose probabilities at a state do not sum
to 1 (within :data:`SUM_TOLERANCE`) is refused with one :class:`~sflp.errors.ConfigError` naming
the state.

The game travels with the policy: a policy table sflp writes (:func:`from_strategy` with
``config=``) carries its structure under the key :data:`GAME_KEY` (``"_sflp_game": {"stack": 10,
"small_blind": 0.5, "big_blind": 1, "ante": 0, "bb_ante": 0, "sflp": "0.1.0"}``), which
:func:`read_policy` keeps and :func:`verify` checks: a policy scored in a game it was not made for
is refused, naming both games.  A policy without the key is scored in the game asked.  A pyspiel
game given to :func:`verify` (or the game a Python policy carries) must be sflp's push/fold game
of that ``config``: another game (``kuhn_poker``), or sflp's game of another structure, is refused
(:func:`check_game`).  :func:`efg_config` reads the structure back from an ``.efg`` file sflp wrote.

Terms: OpenSpiel's ``nash_conv`` is the sum over both players of what a best response gains over
the policy, which is what sflp calls the (total) exploitability; OpenSpiel's ``exploitability``
is half of it (``nash_conv / 2``).
"""

from __future__ import annotations

import contextlib
import json
import numbers
import os
import re
import sys
from collections.abc import Mapping
from decimal import Decimal
from typing import NamedTuple

import numpy as np

from sflp.checks import parse_number, short
from sflp.core.cards import CLASS_COMBOS, CLASS_NAMES, COMBO_CLASS, N_CLASSES, N_COMBOS, combo_name, parse_combo
from sflp.errors import ArgumentTypeError, ConfigError, NotationError
from sflp.inputs import parse_json, read_bytes, read_text
from sflp.openspiel.efg import (
    ACTION_IDS,
    ACTIONS,
    HEADER,
    MAX_EFG_BYTES,
    PLAYER_INDEX,
    STRUCTURE_FIELDS,
    efg_text,
    info_state,
    structure_text,
)

INSTALL_HINT = "pip install 'open-spiel>=1.5' (in a checkout of sflp: pip install -e '.[openspiel]')"
"""What installs OpenSpiel (sflp itself is not on PyPI: its ``openspiel`` extra works from a
checkout or a wheel of sflp, ``pip install 'sflp-0.1.0-py3-none-any.whl[openspiel]'``)."""
GAME_KEY = "_sflp_game"
"""The key under which a policy table sflp writes names its game (:func:`game_entry`); OpenSpiel
never uses it (drop it before ``pyspiel.TabularPolicy(table)``: ``table.pop(GAME_KEY, None)``)."""
SUM_TOLERANCE = 1e-9
"""How far a state's probabilities may sum from 1 (float rounding of a normalised policy is ~1e-16)."""
_ACTION_NAMES = {v: k for k, v in ACTION_IDS.items()}
_STATES = {info_state(player, hand): (player, k) for player in ("sb", "bb") for k, hand in enumerate(CLASS_NAMES)}
"""The class level's 338 information states: ``{state: (player, class id)}``."""


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


_COMBO_STATES = {combo_info_state(player, k): (player, k) for player in ("sb", "bb") for k in range(N_COMBOS)}
"""The combo level's 2,652 information states: ``{state: (player, combo id)}``."""
_COMBO_LIKE = re.compile(r"([01])-\1-\d{1,9}-(\w{4})", re.ASCII)
"""A state that looks like a combo state (its combo perhaps misspelt or misnumbered), for the hint."""


def pyspiel():
    """The ``pyspiel`` module, or sflp's error saying how to install it."""
    try:
        import pyspiel as module
    except ImportError:
        raise ConfigError(f"OpenSpiel is not installed: {INSTALL_HINT} (wheels for CPython 3.11+ on Linux "
                          "and macOS)") from None
    return module


@contextlib.contextmanager
def _quiet_stderr():
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
        with _quiet_stderr():
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


def check_policy_game(policy, config) -> None:
    """Refuse ``policy`` in ``config``'s game when it names another game (:func:`policy_game`)."""
    own = policy_game(policy)
    if own is not None and not same_game(own, config):
        raise ConfigError(f"the policy was made for the game of {structure_text(own)} (its \"{GAME_KEY}\" entry), "
                          f"not {structure_text(config)}: score it in its own game, or give the policy of this one")


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
    information state (SB's AA, ``"0-0-1-AA"``, or SB's combo 0, ``"0-0-1-2d2c"``), and with
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
        with _quiet_stderr():
            s1, sb = _first_sb_state(game)
            first = sb.information_state_string() if sb.current_player() == 0 else None
            if first != want_first:
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
                if state.information_state_string() == bb_state:
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


class Strategies(NamedTuple):
    """One policy as sflp strategies: SB's shove and BB's call frequencies."""

    sb: object
    bb: object


def _rows_from_mapping(policy: Mapping) -> dict[str, list]:
    """``{state: [(action, probability), ...]}`` of a mapping policy, each entry's type and size
    checked before it is iterated (a string entry is refused whole, never read character by
    character; no state of the game has more than :data:`ACTION_IDS`'s three actions)."""
    rows = {}
    for key, entry in policy.items():
        if key == GAME_KEY:  # the game it was made for (policy_game), not a state
            continue
        if not isinstance(key, str):
            raise ConfigError(f"policy state {short(key)}: an information state is a string such as "
                              f"'0-0-2-AKs', not a {type(key).__name__}")
        rows[key] = _entry_pairs(key, entry)
    return rows


def _entry_pairs(state: str, entry) -> list[tuple]:
    """One state's entry as ``(action, probability)`` pairs: a mapping ``{action: probability}``
    or a list/tuple of 2-item lists/tuples, of at most three items; anything else is refused
    before it is iterated."""
    if isinstance(entry, Mapping):
        size = len(entry)
    elif isinstance(entry, (list, tuple)):
        size = len(entry)
    else:
        raise _shape_error(state, entry)
    if size > len(ACTION_IDS):
        raise ConfigError(f"policy state {short(state)}: {size:,} entries, but the game has "
                          f"{len(ACTION_IDS)} actions (fold 0, shove 1, call 2), each listed at most once")
    if isinstance(entry, Mapping):
        return list(entry.items())
    if not all(isinstance(pair, (list, tuple)) and len(pair) == 2 for pair in entry):
        raise _shape_error(state, entry)
    return [tuple(pair) for pair in entry]


def _shape_error(state: str, entry) -> ConfigError:
    kind = f"a string of {len(entry):,} characters" if isinstance(entry, str) else short(entry)
    return ConfigError(f"policy state {short(state)}: expected [(action, probability), ...] or "
                       f"{{action: probability}}, got {kind}")


def state_rows(policy, game) -> dict[str, list]:
    """A policy read at one state of each information state (OpenSpiel ``Policy`` objects), on
    sflp's game at either level (:func:`check_game`): SB's state under every root outcome, and
    BB's under the deals of as few SB hands as cover every BB hand (at class level AA's deals
    hold all 169 classes; at combo level three SB combos that share no card do, since a combo
    cannot meet all three)."""
    if game is None:
        raise ConfigError(f"a {type(policy).__name__} is read state by state: pass the game too, "
                          "to_strategy(policy, game) (the game of sflp.openspiel.load_game)")
    check_game(game)  # another game (kuhn_poker) is refused in sflp's words, not OpenSpiel's "No policy found"
    rows: dict[str, list] = {}
    spiel = pyspiel()
    root = game.new_initial_state()
    bb_states = N_CLASSES if game_level(game) == "class" else N_COMBOS
    seen_bb = 0
    try:
        with _quiet_stderr():
            outcomes = [a for a, _ in root.chance_outcomes()]
            # the first, the last and the middle SB hand first: at combo level 2d2c, AsAh and a
            # 6s5s, which share no card, so their deals cover every BB combo
            order = [0, len(outcomes) - 1, len(outcomes) // 2]
            order += [k for k in range(len(outcomes)) if k not in order]
            for k in order:
                s1 = root.child(outcomes[k])
                deals = s1.chance_outcomes()
                for n, (a2, _) in enumerate(deals):
                    sb = s1.child(a2)
                    states = (sb, sb.child(ACTION_IDS["shove"])) if n == 0 else (sb.child(ACTION_IDS["shove"]),)
                    for state in states:
                        key = state.information_state_string()
                        if key not in rows:
                            rows[key] = _entry_pairs(key, policy.action_probabilities(state))
                            seen_bb += state.current_player() == 1
                    if seen_bb >= bb_states:
                        break
    except spiel.SpielError as exc:
        raise ConfigError(f"the policy could not be read: {exc}") from None
    return rows


def policy_rows(policy, game=None) -> dict[str, list]:
    """``{information state: [(action, probability), ...]}`` of any policy the module doc names
    (a mapping's :data:`GAME_KEY` entry is not a state: :func:`policy_game` reads it); a ``game``
    given is checked to be sflp's (:func:`check_game`) even when the policy does not need it."""
    if game is not None:
        check_game(game)
    if isinstance(policy, Mapping):
        return _rows_from_mapping(policy)
    if hasattr(policy, "state_lookup") and hasattr(policy, "action_probability_array"):  # python TabularPolicy
        try:
            array = np.asarray(policy.action_probability_array, dtype=np.float64)
            table = {key: list(enumerate(array[row].tolist())) for key, row in policy.state_lookup.items()}
        except (TypeError, ValueError, IndexError, AttributeError) as exc:
            raise ConfigError(f"the {type(policy).__name__}'s action_probability_array could not be read by its "
                              f"state_lookup: {short(str(exc), 120)}") from None
        return _rows_from_mapping(table)
    if hasattr(policy, "policy_table"):  # pyspiel.TabularPolicy
        table = policy.policy_table()
        if not isinstance(table, Mapping):
            raise ConfigError(f"the {type(policy).__name__}'s policy_table() gave a {type(table).__name__}, not "
                              "{information state: [(action, probability), ...]}")
        return _rows_from_mapping(table)
    if hasattr(policy, "action_probabilities"):
        return state_rows(policy, game)
    raise ConfigError(f"policy of type {type(policy).__name__}: expected an OpenSpiel policy or a mapping "
                      "{information state: [(action, probability), ...]}")


MAX_POLICY_BYTES = 4_000_000
"""A policy file larger than this is refused before it is read (the class game's 338 states take
~25 KB, the combo game's 2,652 about 100 KB, 350 KB indented)."""


def read_policy(path) -> dict:
    """A policy written as JSON (``{information state: [[action, probability], ...]}``, e.g.
    ``json.dump(solver.tabular_average_policy().policy_table(), fh)``, or ``{information state:
    {action: probability}}``), as a mapping for :func:`to_strategy`.

    The file is read by :func:`sflp.inputs.read_json`: a regular file of at most
    :data:`MAX_POLICY_BYTES` (a FIFO or a device is refused, never waited on), UTF-8, strict JSON
    (a key twice in one object, ``NaN``, an integer of more than 100 digits or nesting too deep is
    refused; an action listed twice in a state's object is refused naming the state).  A policy
    sflp wrote keeps its :data:`GAME_KEY` entry, which :func:`verify` checks.

    OpenSpiel's ``TabularPolicy.serialize()`` text is read too (:func:`parse_serialized`: plain
    text, every probability exact in the default hex form).  Its other forms are refused with the
    two lines that write the JSON (:data:`JSON_HINT`): ``to_string()`` text (its probabilities
    have 6 digits, so they would not even sum to 1 within :data:`SUM_TOLERANCE`) and a pickle
    (sflp never unpickles a file: unpickling runs whatever code the file names)."""
    if not isinstance(path, (str, os.PathLike)) or not os.fspath(path):
        raise ArgumentTypeError(f"path={short(path)}: expected the policy file to read (a str or a Path)")
    what = f"policy file {short(os.fspath(path), 300)}"
    data = read_bytes(path, what, max_bytes=MAX_POLICY_BYTES)
    if data.startswith(b"\x80"):  # pickle protocol 2 or later
        raise ConfigError(f"{what} is a pickle, not JSON (sflp never unpickles a file); {JSON_HINT}")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{what} is not UTF-8 text (byte {exc.start:,} is not); {JSON_HINT}") from None
    if text.startswith(SERIALIZED):
        return parse_serialized(text, what)
    try:
        data = parse_json(text, what)
    except ConfigError:
        kind = _openspiel_text(text)
        if kind is not None:
            raise ConfigError(f"{what} is OpenSpiel's {kind} text, not JSON; {JSON_HINT}") from None
        twice = _action_twice(text)
        if twice is None:
            raise
        raise ConfigError(f"{what}: policy state {short(twice[0])} lists the action {short(twice[1])} twice "
                          "(a key twice in one JSON object)") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{what}: expected a JSON object {{information state: [[action, probability], ...]}}, "
                          f"got a {type(data).__name__}")
    return data


JSON_HINT = ("write the policy table as JSON: `import json` and `json.dump(policy.policy_table(), "
             "open('policy.json', 'w'))` (a Python TabularPolicy: policy.to_dict())")
"""The two lines that write an OpenSpiel policy as the JSON :func:`read_policy` reads."""
_TO_STRING_LINE = re.compile(r"[^\n:]+: *( +-?\d+=\S+)+")
"""One line of ``TabularPolicy.to_string()``: ``0-0-1-AA:  0=0.25 1=0.75``."""


SERIALIZED = "TabularPolicy:"
"""How ``pyspiel.TabularPolicy.serialize()`` text begins."""
_DELIMITER = "<~>"
"""``serialize()``'s default delimiter between states and their entries."""
_SERIALIZED_NUMBER = re.compile(r"-?0x[0-9a-f]+(\.[0-9a-f]*)?p[+-]?\d{1,5}|-?\d{1,20}(\.\d{1,40})?", re.I)
"""A probability as ``serialize()`` writes it: C's ``%a`` hex form (the default, exact:
``0x1p-1``) or a fixed decimal (``serialize(double_precision=6)``: ``0.500000``)."""


def parse_serialized(text: str, what: str = "the policy") -> dict[str, list[tuple[int, float]]]:
    """``{state: [(action, probability), ...]}`` of ``pyspiel.TabularPolicy.serialize()`` text:
    ``TabularPolicy:`` then ``state<~>action=probability,...<~>state<~>...`` (OpenSpiel's
    ``policy.h``), each probability in C's ``%a`` hex form, which :meth:`float.fromhex` reads
    exactly, or as a fixed decimal.  Plain text, read without ``eval`` or pickle; a state twice,
    an action that is no whole number, a probability in another form (``nan``, ``inf``) or another
    delimiter than the default ``<~>`` is one :class:`~sflp.errors.ConfigError`.

    >>> parse_serialized("TabularPolicy:0-0-1-AA<~>0=0x0p+0,1=0x1p+0<~>1-1-1-AA<~>0=0x1p-1,2=0x1p-1")
    {'0-0-1-AA': [(0, 0.0), (1, 1.0)], '1-1-1-AA': [(0, 0.5), (2, 0.5)]}
    """
    body = text[len(SERIALIZED):].rstrip("\n")
    parts = body.split(_DELIMITER) if body else []
    if len(parts) % 2:
        raise ConfigError(f"{what}: OpenSpiel's serialize() text, but not as serialize() writes it with its default "
                          f"delimiter {_DELIMITER!r} (state{_DELIMITER}action=probability,...); {JSON_HINT}")
    table: dict[str, list[tuple[int, float]]] = {}
    for state, entry in zip(parts[::2], parts[1::2]):
        if state in table:
            raise ConfigError(f"{what}: policy state {short(state)} is listed twice")
        pairs = []
        for item in entry.split(",")[: len(ACTION_IDS) + 1]:  # more than 3 is refused by the reader of the table
            action, sep, number = item.partition("=")
            if not sep or not (action.isascii() and action.isdigit() and len(action) <= 9):
                raise ConfigError(f"{what}: policy state {short(state)}: {short(item)} is not action=probability")
            if not _SERIALIZED_NUMBER.fullmatch(number):
                raise ConfigError(f"{what}: policy state {short(state)}: the probability {short(number)} of action "
                                  f"{action} is not a number as serialize() writes one (0x1p-1 or 0.500000)")
            try:
                p = float.fromhex(number) if "x" in number.lower() else float(number)
            except OverflowError:
                raise ConfigError(f"{what}: policy state {short(state)}: the probability {short(number)} of action "
                                  f"{action} is too large for a float") from None
            pairs.append((int(action), p))
        table[state] = pairs
    return table


def _openspiel_text(text: str) -> str | None:
    """Which of OpenSpiel's other text forms ``text`` is (a ``serialize()`` of another policy,
    ``to_string()``), else None."""
    if text.startswith("UniformPolicy:"):
        return "UniformPolicy.serialize()"
    first = text.lstrip().split("\n", 1)[0]
    if _TO_STRING_LINE.fullmatch(first):
        return "TabularPolicy.to_string()"
    return None


class _Pairs(list):
    """A JSON object kept as its ``(key, value)`` pairs, duplicates included."""


def _action_twice(text: str) -> tuple[str, str] | None:
    """``(state, action)`` of the first state whose JSON object names an action twice, else None:
    the text read again, on the error path only, to name the state (numbers are not converted,
    so nothing here can overflow)."""
    try:
        top = json.loads(text, object_pairs_hook=_Pairs, parse_int=lambda _: 0, parse_float=lambda _: 0.0,
                         parse_constant=lambda _: 0.0)
    except (ValueError, RecursionError):
        return None
    if not isinstance(top, _Pairs):
        return None
    for state, entry in top:
        if isinstance(entry, _Pairs):
            seen = set()
            for action, _ in entry:
                if action in seen:
                    return state, action
                seen.add(action)
    return None


_ACTION_TEXT = {**{name: name for name in ACTION_IDS}, **{str(i): name for name, i in ACTION_IDS.items()}}
"""An action given as text, exactly: its name (``"fold"``, lowercase) or its number as JSON writes an
int key (``"0"``); nothing else (not ``" 0"``, ``"00"``, ``"+0"``, ``"1\n"`` or ``"SHOVE"``)."""


def _action(player: str, state: str, action) -> str:
    """The game's name (fold, shove, call) of ``action``: an action number, its name, or its number
    as a string (:data:`_ACTION_TEXT`, exactly), else one error naming the state."""
    if isinstance(action, (int, np.integer)) and not isinstance(action, (bool, np.bool_)):
        name = _ACTION_NAMES.get(int(action))
    elif isinstance(action, str):
        name = _ACTION_TEXT.get(action)
    else:
        raise ConfigError(f"policy state {short(state)}: action {short(action)} is a {type(action).__name__}; "
                          "an action is a number (fold 0, shove 1, call 2) or a name")
    if name is None:
        as_text = (f" (as text exactly {', '.join(repr(str(ACTION_IDS[a])) for a in ACTIONS[player])} or "
                   f"{', '.join(repr(a) for a in ACTIONS[player])})") if isinstance(action, str) else ""
        raise ConfigError(f"policy state {short(state)}: unknown action {short(action)}; {player.upper()} has "
                          f"{_allowed(player)}{as_text}")
    return name


def _allowed(player: str) -> str:
    return ", ".join(f"{a} ({ACTION_IDS[a]})" for a in ACTIONS[player])


def _probability(state: str, action, p) -> float:
    """A probability in [0, 1] as a float, compared exactly first (a huge int is out of range,
    never an OverflowError); a string, a bool or anything not a real number is refused."""
    if isinstance(p, (bool, np.bool_)) or not isinstance(p, (numbers.Real, Decimal)):
        kind = "a string" if isinstance(p, str) else f"a {type(p).__name__}"
        raise ConfigError(f"policy state {short(state)}: the probability of action {short(action)} is "
                          f"{short(p)}, {kind}; a probability is a number in [0, 1]")
    if (isinstance(p, Decimal) and not p.is_finite()) or not 0 <= p <= 1:  # exact for int, Fraction; NaN fails
        raise ConfigError(f"policy state {short(state)}: the probability of action {short(action)} is {short(p)}, "
                          "outside [0, 1]")
    return float(p)


def _state_probabilities(player: str, state: str, pairs: list[tuple]) -> dict[str, float]:
    """``{action name: probability}`` of one state of ``player``: every action known to the game and
    listed once (``0`` and ``"0"``, or ``"fold"`` and ``0``, are the same action), the other
    player's actions only at probability 0 (OpenSpiel's tables list every action of the game)."""
    probs = dict.fromkeys(ACTIONS[player], 0.0)
    given: dict[str, object] = {}
    for action, p in pairs:
        name = _action(player, state, action)
        if name in given:
            raise ConfigError(f"policy state {short(state)}: the action {name} is listed twice (as "
                              f"{short(given[name])} and {short(action)}); list each action once")
        given[name] = action
        q = _probability(state, action, p)
        if name not in probs:
            if q == 0.0:
                continue
            raise ConfigError(f"policy state {short(state)}: action {short(action)} is {name}, which "
                              f"{player.upper()} does not have; {player.upper()} has {_allowed(player)}")
        probs[name] = q
    return probs


def to_strategy(policy, game=None, *, source: str | None = None):
    """``policy`` as :class:`Strategies` ``(sb, bb)`` of :class:`~sflp.study.strategy.StrategySpec`
    (see the module doc for what a policy may be); ``source`` names it in reports (default: its
    type).

    The level is read off the states: the 338 class states of the exported game give class
    strategies (each combo of a class at the class's frequency), the 2,652 combo states
    (:func:`combo_info_state`) give each combo its own frequency.  Refused, each with one
    :class:`~sflp.errors.ConfigError` naming the state: a state of neither level (a combo state
    spelt or numbered otherwise than :func:`combo_info_state` writes it is named with the state it
    should be), a policy with states of both levels, a state of its level that is missing, and
    the refusals of the module doc (actions, probabilities)."""
    from sflp.study.strategy import StrategySpec

    if source is not None and not isinstance(source, str):
        raise ArgumentTypeError(f"source={short(source)}: expected a str naming the policy, or None")
    policy_game(policy)  # a GAME_KEY entry that names no game is refused here too
    rows = policy_rows(policy, game)
    unknown = sorted(s for s in rows if s not in _STATES and s not in _COMBO_STATES)
    if unknown:
        raise ConfigError(f"policy state {short(unknown[0])} is not a state of sflp's exported game"
                          f"{f' (and {len(unknown) - 1} more)' if len(unknown) > 1 else ''}: "
                          f"{_unknown_hint(unknown[0])}")
    states = _level_states(rows)
    missing = [s for s in states if s not in rows]
    if missing:
        what = ("all 338 (169 hand classes for each player)" if states is _STATES else
                "all 2,652 of a combo-level policy (1,326 combos for each player)")
        raise ConfigError(f"the policy has no entry for information state {missing[0]!r}"
                          f"{f' (and {len(missing) - 1} more)' if len(missing) > 1 else ''}: it must cover {what}")
    size = N_CLASSES if states is _STATES else N_COMBOS
    freq = {"sb": np.zeros(size), "bb": np.zeros(size)}
    for state, (player, k) in states.items():
        probs = _state_probabilities(player, state, rows[state])
        total = sum(probs.values())
        if abs(total - 1.0) > SUM_TOLERANCE:
            raise ConfigError(f"policy state {state!r}: the probabilities sum to {total!r}, not 1 "
                              f"(within {SUM_TOLERANCE:g})")
        freq[player][k] = probs[ACTIONS[player][1]]  # shove or call
    if size == N_CLASSES:
        freq = {player: f[COMBO_CLASS] for player, f in freq.items()}
    name = source or type(policy).__name__
    return Strategies(StrategySpec("sb", name, "openspiel", freq["sb"]),
                      StrategySpec("bb", name, "openspiel", freq["bb"]))


def _level_states(rows) -> dict:
    """The states of the level ``rows`` (known states only) is on: :data:`_STATES` or
    :data:`_COMBO_STATES`; one of each is refused, naming both."""
    first_class = next((s for s in rows if s in _STATES), None)
    first_combo = next((s for s in rows if s in _COMBO_STATES), None)
    if first_class is not None and first_combo is not None:
        raise ConfigError(f"the policy mixes class-level and combo-level information states ({first_class!r} and "
                          f"{first_combo!r}): a policy is on one level, the 338 class states ('0-0-2-AKs') or the "
                          "2,652 combo states ('0-0-1-2d2c', see combo_info_state)")
    return _STATES if first_combo is None else _COMBO_STATES


def _unknown_hint(state: str) -> str:
    """What the states are, and for a state that looks like a misspelt or misnumbered combo
    state, the state it should be."""
    usage = ("its states are '0-0-<n>-<hand>' for SB and '1-1-<n>-<hand>' for BB, e.g. '0-0-2-AKs', or at combo "
             "level '<p>-<p>-<combo id + 1>-<combo>', e.g. '0-0-1-2d2c' (combo_info_state)")
    match = _COMBO_LIKE.fullmatch(state) if isinstance(state, str) else None
    if match is None:
        return usage
    try:
        canonical = combo_info_state("sb" if match[1] == "0" else "bb", match[2])
    except NotationError:
        return f"{short(match[2])} is no combo (two distinct cards such as 'AhKd'); {usage}"
    return f"its combo is written {canonical!r}; {usage}"


def from_strategy(sb, bb, *, config=None, combos: bool = False) -> dict[str, list[tuple[int, float]]]:
    """sflp strategies (169 class frequencies in class order, or a
    :class:`~sflp.study.strategy.StrategySpec` of that player) as an OpenSpiel policy table on the
    exported game: ``{info state: [(action id, probability), ...]}``.  With ``config`` (the
    :class:`~sflp.core.game.GameConfig` the strategies were made for) the table names its game
    first, under :data:`GAME_KEY` (:func:`game_entry`), so that :func:`verify` and ``sflp verify``
    refuse it in another game; OpenSpiel does not take that entry (drop it before
    ``pyspiel.TabularPolicy``), so leave ``config`` out for a table that goes to OpenSpiel.
    Each frequency must be a
    real number (an int or float array, or a sequence of ``int``, ``float``, ``Fraction`` or
    ``Decimal``; not text, ``True``/``False``, complex numbers or a masked entry), finite, in
    [0, 1]; anything else is one :class:`~sflp.errors.ConfigError` naming the player (and the
    hand).  ``-0.0`` is published as ``0.0``.

    ``combos=True`` writes a combo-level policy: the 2,652 states of :func:`combo_info_state`,
    SB's combos in combo-id order, then BB's.  Each side is then a ``StrategySpec``, 1,326 combo
    frequencies in combo-id order, or 169 class frequencies (each combo at its class's).  At class
    level a ``StrategySpec`` that plays the combos of a class differently is refused (its class
    frequency would be an average, not the strategy): write it with ``combos=True``.

    >>> table = from_strategy([1.0] * 169, [0.0] * 169, combos=True)
    >>> len(table), table["0-0-1-2d2c"], table["1-1-1326-AsAh"]
    (2652, [(0, 0.0), (1, 1.0)], [(0, 1.0), (2, 0.0)])
    """
    if not isinstance(combos, (bool, np.bool_)):
        raise ArgumentTypeError(f"combos={short(combos)}: expected True (a combo-level policy) or False")
    out: dict = {} if config is None else {GAME_KEY: game_entry(config)}
    for player, strategy in (("sb", sb), ("bb", bb)):
        values = _frequencies(player, strategy, bool(combos))
        fold, play = ACTIONS[player]
        names = (combo_info_state(player, k) for k in range(N_COMBOS)) if combos else \
            (info_state(player, hand) for hand in CLASS_NAMES)
        for state, v in zip(names, values.tolist()):
            out[state] = [(ACTION_IDS[fold], 1.0 - v), (ACTION_IDS[play], v)]
    return out


def _frequencies(player: str, strategy, combos: bool) -> np.ndarray:
    """One side of :func:`from_strategy` as 169 class (or, with ``combos``, 1,326 combo)
    frequencies, checked."""
    who = player.upper()
    if hasattr(strategy, "class_freq"):
        owner = getattr(strategy, "player", player)
        if owner != player:
            raise ConfigError(f"the {who} strategy given is {str(owner).upper()}'s "
                              f"({short(getattr(strategy, 'source', type(strategy).__name__))}): "
                              "pass SB's strategy first, then BB's")
        if combos and hasattr(strategy, "combo_freq"):
            strategy = strategy.combo_freq
        elif not combos and not getattr(strategy, "uniform", True):
            raise ConfigError(f"the {who} strategy ({short(getattr(strategy, 'source', ''))}) plays the combos of "
                              f"{_first_varying_class(strategy.combo_freq)} differently, which no class-level policy "
                              "can say: write it at combo level, from_strategy(sb, bb, combos=True)")
        else:
            strategy = strategy.class_freq
    elif isinstance(strategy, (str, bytes, Mapping)) or strategy is None:
        hint = f"; for a range or a file, load_strategy({short(strategy)}, {player!r}) first" \
            if isinstance(strategy, str) else ""
        expected = f"{N_CLASSES} class or {N_COMBOS} combo frequencies" if combos else \
            f"{N_CLASSES} class frequencies in class order"
        raise ConfigError(f"{who} strategy {short(strategy)}: expected {expected} or a StrategySpec{hint}")
    values = _real_numbers(who, strategy, combos)
    names = CLASS_NAMES if values.shape == (N_CLASSES,) else None
    bad = np.flatnonzero(~((values >= 0) & (values <= 1)))  # NaN is bad too
    if bad.size:
        k = int(bad[0])
        hand = names[k] if names is not None else combo_name(k)
        raise ConfigError(f"{who} strategy: the frequency of {hand} is {float(values[k])!r}"
                          f"{f' (and {bad.size - 1} more are bad)' if bad.size > 1 else ''}; a frequency is a "
                          "finite number in [0, 1]")
    if combos and values.shape == (N_CLASSES,):
        values = values[COMBO_CLASS]
    return values + 0.0  # -0.0 becomes 0.0


def _first_varying_class(combo_freq) -> str:
    """The name of the first class whose combos do not share one frequency."""
    freq = np.asarray(combo_freq)
    for k, members in enumerate(CLASS_COMBOS):
        if np.any(freq[list(members)] != freq[members[0]]):
            return CLASS_NAMES[k]
    raise AssertionError("every class is played alike")  # pragma: no cover - called for a non-uniform spec only


_KINDS = {"b": "booleans", "c": "complex numbers", "U": "text", "S": "bytes", "M": "dates", "m": "time spans",
          "V": "raw records"}


def _real_numbers(who: str, strategy, combos: bool = False) -> np.ndarray:
    """``strategy`` as 169 (or, with ``combos``, 169 or 1,326) float64 frequencies, each given as
    a real number: an array of int or float dtype, or a sequence whose every item is an ``int``,
    ``float``, ``Fraction`` or ``Decimal`` (numpy's included).  Refused, naming the player: text
    (``"0.5"``), ``True``/``False``, complex numbers (numpy would drop the imaginary part with only
    a warning), a masked array with a masked entry (its data there is no frequency), another
    shape, a number too large for a float."""
    sizes = ((N_CLASSES,), (N_COMBOS,)) if combos else ((N_CLASSES,),)
    expected = f"{N_CLASSES} class or {N_COMBOS} combo frequencies" if combos else f"{N_CLASSES} class frequencies"
    usage = f"expected {expected}, numbers in [0, 1]"
    if isinstance(strategy, np.ma.MaskedArray):
        masked = np.ma.getmaskarray(strategy)
        if masked.any():
            raise ConfigError(f"{who} strategy: a masked array with {int(masked.sum())} masked entr"
                              f"{'y' if masked.sum() == 1 else 'ies'}; {usage} (fill them, or pass the data)")
        strategy = np.ma.getdata(strategy)
    if isinstance(strategy, np.ndarray):
        array = strategy
    elif hasattr(strategy, "__array__") and not isinstance(strategy, (list, tuple)):  # a pandas Series, say
        try:
            array = np.asarray(strategy)  # its own dtype, checked below
        except (TypeError, ValueError):
            raise ConfigError(f"{who} strategy {short(strategy)}: {usage}") from None
    else:
        try:
            array = np.asarray(strategy, dtype=object)  # each item as it was given, checked below
        except (TypeError, ValueError):
            raise ConfigError(f"{who} strategy {short(strategy)}: {usage}") from None
    if array.shape not in sizes:
        raise ConfigError(f"{who} strategy: expected {expected}, got shape {array.shape}")
    if array.dtype.kind in "iuf":
        return array.astype(np.float64)
    if array.dtype.kind != "O":
        kind = _KINDS.get(array.dtype.kind, f"dtype {array.dtype}")
        raise ConfigError(f"{who} strategy: an array of {kind} ({array.dtype}); {usage}, of an int or float dtype")
    out = np.empty(array.shape[0])
    for k, v in enumerate(array):
        hand = CLASS_NAMES[k] if array.shape == (N_CLASSES,) else combo_name(k)
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (numbers.Real, Decimal)):
            raise ConfigError(f"{who} strategy: the frequency of {hand} is {short(v)}, a "
                              f"{type(v).__name__}; {usage}")
        try:
            out[k] = float(v)
        except OverflowError:
            raise ConfigError(f"{who} strategy: the frequency of {hand} is {short(v)}, too large for "
                              f"a float; {usage}") from None
    return out


def verify(policy, config, game=None, *, solution=None, source: str | None = None, level: str | None = None):
    """:func:`sflp.study.verify.verify` of ``policy`` (both players) in ``config``'s game, with the
    exact figures (``exact=True``): each player's best-response gain and their sum, OpenSpiel's
    ``nash_conv``, as fractions.

    A combo-level policy (:func:`combo_info_state`) is scored exactly too: at class level when
    it plays every combo of a class alike (exact, by suit symmetry), else in the 1,326-combo game
    (the report's ``level`` says which).  ``level="combo"`` scores any policy in the combo game,
    which gives a class-level policy the same figures, fraction for fraction.

    The game is checked before any work: ``config`` must be a
    :class:`~sflp.core.game.GameConfig`; a policy that names its game (:data:`GAME_KEY`) must
    name this one; a pyspiel ``game`` given, and the game a Python policy carries (its ``.game``),
    must be sflp's game of ``config`` (:func:`check_game`).  Each refusal is one
    :class:`~sflp.errors.ConfigError` naming both games."""
    from sflp.core.game import GameConfig
    from sflp.study.verify import verify as verify_strategies

    if not isinstance(config, GameConfig):
        hint = (f" (GameConfig(**{short(config)}) makes one of a dict)" if isinstance(config, Mapping) else "")
        raise ArgumentTypeError(f"config={short(config)} is a {type(config).__name__}, not a GameConfig: "
                                f"pass GameConfig(stack=10){hint}")
    check_policy_game(policy, config)
    for carried in (game, getattr(policy, "game", None)):  # an open_spiel.python Policy keeps its game
        if carried is not None and (carried is game or hasattr(carried, "new_initial_state")):
            check_game(carried, config)
    s = to_strategy(policy, game, source=source)
    return verify_strategies(config, s.sb, s.bb, solution=solution, exact=True, level=level)
