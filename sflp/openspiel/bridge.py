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

Only the mapping needs nothing but sflp; the rest needs OpenSpiel (``pip install
'sflp[openspiel]'``), imported on first use.  A policy that misses an information state, names an
information state or action the game does not have, or whose probabilities at a state do not sum
to 1 (within :data:`SUM_TOLERANCE`) is refused with one :class:`~sflp.errors.ConfigError` naming
the state.

Terms: OpenSpiel's ``nash_conv`` is the sum over both players of what a best response gains over
the policy, which is what sflp calls the (total) exploitability; OpenSpiel's ``exploitability``
is half of it (``nash_conv / 2``).
"""

from __future__ import annotations

import contextlib
import json
import numbers
import os
import sys
from collections.abc import Mapping
from decimal import Decimal
from typing import NamedTuple

import numpy as np

from sflp.checks import short
from sflp.core.cards import CLASS_NAMES, N_CLASSES
from sflp.errors import ArgumentTypeError, ConfigError
from sflp.inputs import parse_json, read_text
from sflp.openspiel.efg import ACTION_IDS, ACTIONS, efg_text, info_state

INSTALL_HINT = "pip install 'sflp[openspiel]'"
SUM_TOLERANCE = 1e-9
"""How far a state's probabilities may sum from 1 (float rounding of a normalised policy is ~1e-16)."""
_ACTION_NAMES = {v: k for k, v in ACTION_IDS.items()}
_STATES = {info_state(player, hand): (player, k) for player in ("sb", "bb") for k, hand in enumerate(CLASS_NAMES)}


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
    """A policy read at one state of each information state (OpenSpiel ``Policy`` objects)."""
    if game is None:
        raise ConfigError(f"a {type(policy).__name__} is read state by state: pass the game too, "
                          "to_strategy(policy, game) (the game of sflp.openspiel.load_game)")
    rows: dict[str, list] = {}
    spiel = pyspiel()
    root = game.new_initial_state()
    try:
        with _quiet_stderr():
            for first, (a1, _) in enumerate(root.chance_outcomes()):
                s1 = root.child(a1)
                deals = s1.chance_outcomes()
                # every SB class once, and under the first of them every BB class
                for a2, _ in deals if first == 0 else deals[:1]:
                    sb = s1.child(a2)
                    for state in (sb, sb.child(ACTION_IDS["shove"])):
                        key = state.information_state_string()
                        if key not in rows:
                            rows[key] = _entry_pairs(key, policy.action_probabilities(state))
    except spiel.SpielError as exc:
        raise ConfigError(f"the policy could not be read: {exc}") from None
    return rows


def policy_rows(policy, game=None) -> dict[str, list]:
    """``{information state: [(action, probability), ...]}`` of any policy the module doc names."""
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


MAX_POLICY_BYTES = 50_000_000
"""A policy file larger than this is refused before it is read (the game's 338 states take ~25 KB)."""


def read_policy(path) -> dict:
    """A policy written as JSON (``{information state: [[action, probability], ...]}``, e.g.
    ``json.dump(solver.tabular_average_policy().policy_table(), fh)``, or ``{information state:
    {action: probability}}``), as a mapping for :func:`to_strategy`.

    The file is read by :func:`sflp.inputs.read_json`: a regular file of at most
    :data:`MAX_POLICY_BYTES` (a FIFO or a device is refused, never waited on), UTF-8, strict JSON
    (a key twice in one object, ``NaN``, an integer of more than 100 digits or nesting too deep is
    refused; an action listed twice in a state's object is refused naming the state)."""
    if not isinstance(path, (str, os.PathLike)) or not os.fspath(path):
        raise ArgumentTypeError(f"path={short(path)}: expected the policy file to read (a str or a Path)")
    what = f"policy file {short(os.fspath(path), 300)}"
    text = read_text(path, what, max_bytes=MAX_POLICY_BYTES)
    try:
        data = parse_json(text, what)
    except ConfigError:
        twice = _action_twice(text)
        if twice is None:
            raise
        raise ConfigError(f"{what}: policy state {short(twice[0])} lists the action {short(twice[1])} twice "
                          "(a key twice in one JSON object)") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{what}: expected a JSON object {{information state: [[action, probability], ...]}}, "
                          f"got a {type(data).__name__}")
    return data


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
    """``policy`` on the exported game as :class:`Strategies` ``(sb, bb)`` of
    :class:`~sflp.study.strategy.StrategySpec` (see the module doc for what a policy may be);
    ``source`` names it in reports (default: its type)."""
    from sflp.core.cards import COMBO_CLASS
    from sflp.study.strategy import StrategySpec

    if source is not None and not isinstance(source, str):
        raise ArgumentTypeError(f"source={short(source)}: expected a str naming the policy, or None")
    rows = policy_rows(policy, game)
    unknown = sorted(set(rows) - set(_STATES))
    if unknown:
        raise ConfigError(f"policy state {short(unknown[0])} is not a state of sflp's exported game"
                          f"{f' (and {len(unknown) - 1} more)' if len(unknown) > 1 else ''}: its states are "
                          "'0-0-<n>-<hand>' for SB and '1-1-<n>-<hand>' for BB, e.g. '0-0-2-AKs'")
    missing = [s for s in _STATES if s not in rows]
    if missing:
        raise ConfigError(f"the policy has no entry for information state {missing[0]!r}"
                          f"{f' (and {len(missing) - 1} more)' if len(missing) > 1 else ''}: "
                          "it must cover all 338 (169 hand classes for each player)")
    freq = {"sb": np.zeros(N_CLASSES), "bb": np.zeros(N_CLASSES)}
    for state, (player, k) in _STATES.items():
        probs = _state_probabilities(player, state, rows[state])
        total = sum(probs.values())
        if abs(total - 1.0) > SUM_TOLERANCE:
            raise ConfigError(f"policy state {state!r}: the probabilities sum to {total!r}, not 1 "
                              f"(within {SUM_TOLERANCE:g})")
        freq[player][k] = probs[ACTIONS[player][1]]  # shove or call
    name = source or type(policy).__name__
    return Strategies(StrategySpec("sb", name, "openspiel", freq["sb"][COMBO_CLASS]),
                      StrategySpec("bb", name, "openspiel", freq["bb"][COMBO_CLASS]))


def from_strategy(sb, bb) -> dict[str, list[tuple[int, float]]]:
    """sflp strategies (169 class frequencies in class order, or a
    :class:`~sflp.study.strategy.StrategySpec` of that player) as an OpenSpiel policy table on the
    exported game: ``{info state: [(action id, probability), ...]}``.  Each frequency must be a
    real number (an int or float array, or a sequence of ``int``, ``float``, ``Fraction`` or
    ``Decimal``; not text, ``True``/``False``, complex numbers or a masked entry), finite, in
    [0, 1]; anything else is one :class:`~sflp.errors.ConfigError` naming the player (and the
    hand).  ``-0.0`` is published as ``0.0``."""
    out = {}
    for player, strategy in (("sb", sb), ("bb", bb)):
        values = _class_frequencies(player, strategy)
        fold, play = ACTIONS[player]
        for k, hand in enumerate(CLASS_NAMES):
            p = float(values[k])
            out[info_state(player, hand)] = [(ACTION_IDS[fold], 1.0 - p), (ACTION_IDS[play], p)]
    return out


def _class_frequencies(player: str, strategy) -> np.ndarray:
    who = player.upper()
    if hasattr(strategy, "class_freq"):
        owner = getattr(strategy, "player", player)
        if owner != player:
            raise ConfigError(f"the {who} strategy given is {str(owner).upper()}'s "
                              f"({short(getattr(strategy, 'source', type(strategy).__name__))}): "
                              "pass SB's strategy first, then BB's")
        strategy = strategy.class_freq
    elif isinstance(strategy, (str, bytes, Mapping)) or strategy is None:
        hint = f"; for a range or a file, load_strategy({short(strategy)}, {player!r}) first" \
            if isinstance(strategy, str) else ""
        raise ConfigError(f"{who} strategy {short(strategy)}: expected {N_CLASSES} class frequencies in class "
                          f"order or a StrategySpec{hint}")
    values = _real_numbers(who, strategy)
    bad = np.flatnonzero(~((values >= 0) & (values <= 1)))  # NaN is bad too
    if bad.size:
        k = int(bad[0])
        raise ConfigError(f"{who} strategy: the frequency of {CLASS_NAMES[k]} is {float(values[k])!r}"
                          f"{f' (and {bad.size - 1} more are bad)' if bad.size > 1 else ''}; a frequency is a "
                          "finite number in [0, 1]")
    return values + 0.0  # -0.0 becomes 0.0


_KINDS = {"b": "booleans", "c": "complex numbers", "U": "text", "S": "bytes", "M": "dates", "m": "time spans",
          "V": "raw records"}


def _real_numbers(who: str, strategy) -> np.ndarray:
    """``strategy`` as 169 float64 frequencies, each given as a real number: an array of int or
    float dtype, or a sequence whose every item is an ``int``, ``float``, ``Fraction`` or
    ``Decimal`` (numpy's included).  Refused, naming the player: text (``"0.5"``), ``True``/``False``,
    complex numbers (numpy would drop the imaginary part with only a warning), a masked array with
    a masked entry (its data there is no frequency), another shape, a number too large for a float."""
    usage = f"expected {N_CLASSES} class frequencies, numbers in [0, 1]"
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
    if array.shape != (N_CLASSES,):
        raise ConfigError(f"{who} strategy: expected {N_CLASSES} class frequencies, got shape {array.shape}")
    if array.dtype.kind in "iuf":
        return array.astype(np.float64)
    if array.dtype.kind != "O":
        kind = _KINDS.get(array.dtype.kind, f"dtype {array.dtype}")
        raise ConfigError(f"{who} strategy: an array of {kind} ({array.dtype}); {usage}, of an int or float dtype")
    out = np.empty(N_CLASSES)
    for k, v in enumerate(array):
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (numbers.Real, Decimal)):
            raise ConfigError(f"{who} strategy: the frequency of {CLASS_NAMES[k]} is {short(v)}, a "
                              f"{type(v).__name__}; {usage}")
        try:
            out[k] = float(v)
        except OverflowError:
            raise ConfigError(f"{who} strategy: the frequency of {CLASS_NAMES[k]} is {short(v)}, too large for "
                              f"a float; {usage}") from None
    return out


def verify(policy, config, game=None, *, solution=None, source: str | None = None):
    """:func:`sflp.study.verify.verify` of ``policy`` (both players) in ``config``'s game, with the
    exact figures (``exact=True``): each player's best-response gain and their sum, OpenSpiel's
    ``nash_conv``, as fractions."""
    from sflp.core.game import GameConfig
    from sflp.study.verify import verify as verify_strategies

    if not isinstance(config, GameConfig):
        raise ArgumentTypeError(f"config={short(config)}: expected a GameConfig, e.g. GameConfig(stack=10)")
    s = to_strategy(policy, game, source=source)
    return verify_strategies(config, s.sb, s.bb, solution=solution, exact=True)
