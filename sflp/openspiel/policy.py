r"""OpenSpiel policies and sflp strategies, both ways: a policy read back as sflp strategies and
scored exactly, and sflp's strategies written as a policy.  (The game they are played in, loaded
in OpenSpiel and checked, is :mod:`sflp.openspiel.game`'s.)

* :func:`to_strategy` -- an OpenSpiel policy on the exported game as two
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
``{information state: {action: probability}}``), such as ``policy_table()`` written to JSON (read
back by :func:`~sflp.openspiel.policy_file.read_policy`).
Actions are OpenSpiel's numbers (fold 0, shove 1, call 2) or their names; as text (a JSON
object's keys) exactly ``"0"``, ``"1"``, ``"2"`` or ``"fold"``, ``"shove"``, ``"call"``.

A policy is on one of two levels.  **Class level** is the exported game's: 338 information
states, one per player and hand class (:func:`sflp.openspiel.efg.info_state`).  **Combo level**
has 2,652, one per player and combo, named the same way with the combo id ``k`` of
:mod:`sflp.core.cards`: ``"<player>-<player>-<k + 1>-<combo>"``
(:func:`~sflp.openspiel.efg.combo_info_state`; SB's combo 0 is ``"0-0-1-2d2c"``, BB's 1,325
``"1-1-1326-AsAh"``), for a solver of the 1,326-combo game.  A combo-level policy is a mapping
(or a file, or a tabular policy) keyed by combo states, or an OpenSpiel ``Policy`` on the
combo-level game (:mod:`sflp.openspiel.combo`'s ``.efg``, which
:func:`~sflp.openspiel.game.check_game` accepts as sflp's game too); :func:`to_strategy` reads it
into combo-level strategies, :func:`verify` scores it exactly (at class level when every class
is played alike, which is exact by suit symmetry, else at combo level: :mod:`sflp.study.verify`),
and :func:`from_strategy` ``(..., combos=True)`` writes one.  A policy mixing the two levels is
refused, and either level must name all of its states.

Only the mapping needs nothing but sflp; the rest needs OpenSpiel
(:data:`~sflp.openspiel.game.INSTALL_HINT`), imported on first use.  A policy that misses an
information state, names an information state or action the game does not have, or whose
probabilities at a state do not sum to 1 is refused with one :class:`~sflp.errors.ConfigError`
naming the state.  "Sum to 1" is within :data:`SUM_TOLERANCE` (a float64 rounding: the policy is
read as given) or, for a policy exported in float32, within :data:`RENORMALISE_TOLERANCE`: then
every state is renormalised exactly, its probabilities over their sum as fractions of the floats'
exact binary values (the scores are those of the normalised policy, fraction for fraction), and
one :class:`PolicyRenormalised` warning says how far the worst sum was.

Why one module: it is one piece, though over 600 lines: reading a policy (its states, actions, probabilities,
level and game) and writing one are the two directions of one encoding, so the states' names and
every check of them live in one place.

Terms: OpenSpiel's ``nash_conv`` is the sum over both players of what a best response gains over
the policy, which is what sflp calls the (total) exploitability; OpenSpiel's ``exploitability``
is half of it (``nash_conv / 2``).
"""

from __future__ import annotations

import numbers
import re
from collections.abc import Mapping
from decimal import Decimal
from fractions import Fraction
from typing import NamedTuple

import numpy as np

from sflp.checks import short
from sflp.core.cards import CLASS_COMBOS, CLASS_NAMES, COMBO_CLASS, N_CLASSES, N_COMBOS, combo_name
from sflp.errors import ArgumentTypeError, ConfigError, NotationError
from sflp.openspiel.efg import ACTION_IDS, ACTIONS, combo_info_state, info_state, split_state, structure_text, tag_game
from sflp.openspiel.game import (
    GAME_KEY,
    check_game,
    game_entry,
    game_level,
    policy_game,
    pyspiel,
    quiet_stderr,
    same_game,
)

SUM_TOLERANCE = 1e-9
"""How far a state's probabilities may sum from 1 and be read as given (float rounding of a
normalised float64 policy is ~1e-16)."""
RENORMALISE_TOLERANCE = 1e-6
"""How far a state's probabilities may sum from 1 at most: a policy of which some state is farther
than :data:`SUM_TOLERANCE`, but none farther than this (a float32 softmax sums to 1 within about
6e-8), is renormalised exactly -- each state's probabilities over their sum, in fractions of the
floats' exact binary values -- with one :class:`PolicyRenormalised` warning."""
_ACTION_NAMES = {v: k for k, v in ACTION_IDS.items()}
_STATES = {info_state(player, hand): (player, k) for player in ("sb", "bb") for k, hand in enumerate(CLASS_NAMES)}
"""The class level's 338 information states: ``{state: (player, class id)}``."""
_COMBO_STATES = {combo_info_state(player, k): (player, k) for player in ("sb", "bb") for k in range(N_COMBOS)}
"""The combo level's 2,652 information states: ``{state: (player, combo id)}``."""
_COMBO_LIKE = re.compile(r"([01])-\1-\d{1,9}-(\w{4})", re.ASCII)
"""A state that looks like a combo state (its combo perhaps misspelt or misnumbered), for the hint."""


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
        with quiet_stderr():
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
    return _read(policy, game, source)[0]


class PolicyRenormalised(UserWarning):
    """A policy whose probabilities sum to 1 only within a float32 rounding
    (:data:`RENORMALISE_TOLERANCE`) was renormalised exactly: ``worst`` is how far its farthest
    state's sum was from 1, ``state`` that state.  ``sflp verify`` prints it once on stderr."""

    def __init__(self, message: str, worst: float = 0.0, state: str = "") -> None:
        super().__init__(message)
        self.worst, self.state = worst, state


class GameNotNamed(UserWarning):
    """A policy that names no game (no state names one, no :data:`GAME_KEY` entry) was scored in
    the game asked: :func:`verify` warns, ``sflp verify`` prints it on stderr."""


def untag_rows(rows: Mapping) -> tuple[dict, object]:
    """``(rows keyed by the states without their game, the game the states name or None)``
    (:func:`~sflp.openspiel.efg.split_state`).  States naming two games, a state named both with
    and without its game, or some states naming a game and others none, are refused."""
    out, tags, bare = {}, {}, None
    for state, entry in rows.items():
        base, tag = split_state(state)
        if base in out:
            raise ConfigError(f"policy states {state!r} and the same state of another game are both in the policy: "
                              "a policy is for one game")
        out[base] = entry
        if tag is None:
            bare = bare or state
        else:
            tags.setdefault(tag, state)
    if len(tags) > 1:
        (t1, s1), (t2, s2) = list(tags.items())[:2]
        raise ConfigError(f"the policy's states name two games, {structure_text(tag_game(t1))} ({s1!r}) and "
                          f"{structure_text(tag_game(t2))} ({s2!r}): a policy is for one game")
    if tags and bare is not None:
        tag, state = next(iter(tags.items()))
        raise ConfigError(f"policy state {bare!r} names no game, but {state!r} names {structure_text(tag_game(tag))}: "
                          "every state of a policy names its game, or none does")
    return out, (tag_game(next(iter(tags))) if tags else None)


def named_game(policy, game=None):
    """The :class:`~sflp.core.game.GameConfig` ``policy`` names, by its states (the exported
    game's names, :func:`~sflp.openspiel.efg.game_tag`) or by its :data:`GAME_KEY` entry, else
    None; the two naming different games is one :class:`~sflp.errors.ConfigError`."""
    return _named(policy, untag_rows(policy_rows(policy, game))[1])


def _named(policy, by_states):
    entry = policy_game(policy)
    if entry is not None and by_states is not None and not same_game(entry, by_states):
        raise ConfigError(f"the policy's \"{GAME_KEY}\" entry names {structure_text(entry)}, but its states name "
                          f"{structure_text(by_states)}: a policy is for one game")
    return by_states if by_states is not None else entry


def _read(policy, game=None, source: str | None = None):
    """``(Strategies, the game the policy names or None)``: :func:`to_strategy` and the game of
    :func:`named_game`, reading the policy once."""
    from sflp.study.strategy import StrategySpec

    if source is not None and not isinstance(source, str):
        raise ArgumentTypeError(f"source={short(source)}: expected a str naming the policy, or None")
    policy_game(policy)  # a GAME_KEY entry that names no game is refused here too
    rows, by_states = untag_rows(policy_rows(policy, game))
    own = _named(policy, by_states)
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
    exact: dict[str, list] = {"sb": [None] * size, "bb": [None] * size}
    worst = (Fraction(0), None)  # the farthest exact sum from 1, and its state
    for state, (player, k) in states.items():
        probs = _state_probabilities(player, state, rows[state])
        fold, play = (Fraction(probs[a]) for a in ACTIONS[player])  # the floats' exact binary values
        off = abs(fold + play - 1)
        if off > RENORMALISE_TOLERANCE:
            raise ConfigError(f"policy state {state!r}: the probabilities sum to {sum(probs.values())!r}, not 1 "
                              f"(allowed: within {SUM_TOLERANCE:g}, or within {RENORMALISE_TOLERANCE:g}, a float32 "
                              "rounding, renormalised)")
        worst = max(worst, (off, state), key=lambda w: w[0])
        freq[player][k] = probs[ACTIONS[player][1]]  # shove or call
        exact[player][k] = play / (fold + play)
    renormalised = worst[0] > SUM_TOLERANCE
    if size == N_CLASSES:
        freq = {player: f[COMBO_CLASS] for player, f in freq.items()}
        exact = {player: [q[c] for c in COMBO_CLASS] for player, q in exact.items()}
    name = source or type(policy).__name__
    if not renormalised:  # as given: a float64 policy's rounding (~1e-16) is no renormalisation
        return Strategies(StrategySpec("sb", name, "openspiel", freq["sb"]),
                          StrategySpec("bb", name, "openspiel", freq["bb"])), own
    import warnings

    off, state = worst
    whose = f"the policy {source}" if source else "the policy"
    warnings.warn(PolicyRenormalised(
        f"the probabilities of {whose} sum to 1 only within {float(off):.3g} (worst at state {state!r}), "
        f"a float32 rounding: every state was renormalised exactly (each probability over its state's sum)",
        float(off), state), stacklevel=3)
    return Strategies(*(StrategySpec(p, name, "openspiel", np.array([float(q) for q in exact[p]]),
                                     exact_freq=tuple(exact[p])) for p in ("sb", "bb"))), own


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
    :class:`~sflp.core.game.GameConfig` the strategies were made for) the table names its game:
    at class level in every state, as the exported game of ``config`` names them
    (``"0-0-2-AKs@10bb,0.5/1,a0,bba0"``), so ``pyspiel.TabularPolicy(table)`` takes it on that
    game as it is; at combo level (whose states name no game) first, under :data:`GAME_KEY`
    (:func:`game_entry`; drop it before ``pyspiel.TabularPolicy``).  :func:`verify` and ``sflp
    verify`` refuse a table that names a game in another.  Without ``config`` the states are an
    older export's, naming no game (scored with a warning, :class:`GameNotNamed`).
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
    out: dict = {GAME_KEY: game_entry(config)} if config is not None and combos else {}
    if config is not None:
        game_entry(config)  # a config that is no GameConfig is refused here, before any work
    for player, strategy in (("sb", sb), ("bb", bb)):
        values = _frequencies(player, strategy, bool(combos))
        fold, play = ACTIONS[player]
        names = (combo_info_state(player, k) for k in range(N_COMBOS)) if combos else \
            (info_state(player, hand, config) for hand in CLASS_NAMES)
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


def verify(policy, config, game=None, *, solution=None, source: str | None = None, level: str | None = None,
           require_game: bool = False):
    """:func:`sflp.study.verify.verify` of ``policy`` (both players) in ``config``'s game, with the
    exact figures (``exact=True``): each player's best-response gain and their sum, OpenSpiel's
    ``nash_conv``, as fractions.

    A combo-level policy (:func:`combo_info_state`) is scored exactly too: at class level when
    it plays every combo of a class alike (exact, by suit symmetry), else in the 1,326-combo game
    (the report's ``level`` says which).  ``level="combo"`` scores any policy in the combo game,
    which gives a class-level policy the same figures, fraction for fraction.

    The game is checked before any work: ``config`` must be a
    :class:`~sflp.core.game.GameConfig`; a policy that names its game -- by its states (every
    policy OpenSpiel writes on the exported game does: ``"0-0-2-AKs@10bb,0.5/1,a0,bba0"``) or by
    its :data:`GAME_KEY` entry -- must name this one; a pyspiel ``game`` given, and the game a
    Python policy carries (its ``.game``), must be sflp's game of ``config`` (:func:`check_game`).
    Each refusal is one :class:`~sflp.errors.ConfigError` naming both games.  A policy that names
    no game (an older export's states) is scored in ``config``'s game with a :class:`GameNotNamed`
    warning, or refused with ``require_game=True``."""
    from sflp.core.game import GameConfig
    from sflp.study.verify import verify as verify_strategies

    if not isinstance(config, GameConfig):
        hint = (f" (GameConfig(**{short(config)}) makes one of a dict)" if isinstance(config, Mapping) else "")
        raise ArgumentTypeError(f"config={short(config)} is a {type(config).__name__}, not a GameConfig: "
                                f"pass GameConfig(stack=10){hint}")
    if not isinstance(require_game, (bool, np.bool_)):
        raise ArgumentTypeError(f"require_game={short(require_game)}: expected True or False")
    check_named_game(policy_game(policy), config, f'its "{GAME_KEY}" entry')  # before the policy is read
    for carried in (game, getattr(policy, "game", None)):  # an open_spiel.python Policy keeps its game
        if carried is not None and (carried is game or hasattr(carried, "new_initial_state")):
            check_game(carried, config)
    s, own = _read(policy, game, source)
    check_named_game(own, config, "its states")
    if own is None:
        message = f"scored as {structure_text(config)}, as asked; the policy names no game"
        if require_game:
            raise ConfigError(f"the policy names no game (its states lack '@<game>', as an older export's did, and it "
                              f"has no \"{GAME_KEY}\" entry), and a named game is required: export the game again "
                              "(sflp export efg) and train on it")
        import warnings

        warnings.warn(message, GameNotNamed, stacklevel=2)
    return verify_strategies(config, s.sb, s.bb, solution=solution, exact=True, level=level)


def check_named_game(own, config, how: str) -> None:
    """Refuse to score a policy that names the game ``own`` (``how``: by its states, by its entry)
    in ``config``'s game when they differ, naming both."""
    if own is not None and not same_game(own, config):
        raise ConfigError(f"the policy was made for the game of {structure_text(own)} ({how}), not "
                          f"{structure_text(config)}: score it in its own game, or give the policy of this one")
