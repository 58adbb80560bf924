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
Actions are OpenSpiel's numbers (fold 0, shove 1, call 2) or their names.

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
import math
import os
import sys
from collections.abc import Mapping
from typing import NamedTuple

import numpy as np

from sflp.core.cards import CLASS_NAMES, N_CLASSES
from sflp.errors import ConfigError
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


def _rows_from_mapping(policy: Mapping) -> dict[str, dict]:
    rows = {}
    for key, entry in policy.items():
        if isinstance(entry, Mapping):
            items = list(entry.items())
        else:
            try:
                items = [tuple(pair) for pair in entry]
            except TypeError:
                items = None
            if items is None or any(len(pair) != 2 for pair in items):
                raise ConfigError(f"policy state {key!r}: expected [(action, probability), ...] or "
                                  f"{{action: probability}}, got {entry!r:.60}")
        rows[str(key)] = items
    return rows


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
                            rows[key] = list(dict(policy.action_probabilities(state)).items())
    except spiel.SpielError as exc:
        raise ConfigError(f"the policy could not be read: {exc}") from None
    return rows


def policy_rows(policy, game=None) -> dict[str, list]:
    """``{information state: [(action, probability), ...]}`` of any policy the module doc names."""
    if isinstance(policy, Mapping):
        return _rows_from_mapping(policy)
    if hasattr(policy, "state_lookup") and hasattr(policy, "action_probability_array"):  # python TabularPolicy
        array = np.asarray(policy.action_probability_array, dtype=np.float64)
        return {key: list(enumerate(array[row].tolist())) for key, row in policy.state_lookup.items()}
    if hasattr(policy, "policy_table"):  # pyspiel.TabularPolicy
        return _rows_from_mapping(policy.policy_table())
    if hasattr(policy, "action_probabilities"):
        return state_rows(policy, game)
    raise ConfigError(f"policy of type {type(policy).__name__}: expected an OpenSpiel policy or a mapping "
                      "{information state: [(action, probability), ...]}")


MAX_POLICY_BYTES = 50_000_000
"""A policy file larger than this is refused before it is read (the game's 338 states take ~25 KB)."""


def read_policy(path) -> dict:
    """A policy written as JSON (``{information state: [[action, probability], ...]}``, e.g.
    ``json.dump(solver.tabular_average_policy().policy_table(), fh)``), as a mapping for
    :func:`to_strategy`."""
    import json
    from pathlib import Path

    path = Path(path)
    if not path.is_file():
        raise ConfigError(f"policy file {str(path)!r} does not exist or is not a regular file")
    if path.stat().st_size > MAX_POLICY_BYTES:
        raise ConfigError(f"policy file {str(path)!r} is {path.stat().st_size:,} bytes: more than the "
                          f"{MAX_POLICY_BYTES:,} a policy of this game can take")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        raise ConfigError(f"policy file {str(path)!r} is not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise ConfigError(f"policy file {str(path)!r} is not JSON: {exc.msg} at line {exc.lineno}") from None
    except OSError as exc:
        raise ConfigError(f"policy file {str(path)!r} cannot be read: {exc.strerror}") from None
    if not isinstance(data, dict):
        raise ConfigError(f"policy file {str(path)!r}: expected a JSON object {{information state: "
                          f"[[action, probability], ...]}}, got a {type(data).__name__}")
    return data


def _action(player: str, state: str, action) -> str:
    name = _ACTION_NAMES.get(action) if isinstance(action, (int, np.integer)) and not isinstance(action, bool) \
        else str(action).strip().lower()
    if name not in ACTIONS[player]:
        allowed = ", ".join(f"{a} ({ACTION_IDS[a]})" for a in ACTIONS[player])
        raise ConfigError(f"policy state {state!r}: unknown action {action!r}; {player.upper()} has {allowed}")
    return name


def to_strategy(policy, game=None, *, source: str | None = None):
    """``policy`` on the exported game as :class:`Strategies` ``(sb, bb)`` of
    :class:`~sflp.study.strategy.StrategySpec` (see the module doc for what a policy may be);
    ``source`` names it in reports (default: its type)."""
    from sflp.core.cards import COMBO_CLASS
    from sflp.study.strategy import StrategySpec

    rows = policy_rows(policy, game)
    unknown = sorted(set(rows) - set(_STATES))
    if unknown:
        raise ConfigError(f"policy state {unknown[0]!r} is not a state of sflp's exported game"
                          f"{f' (and {len(unknown) - 1} more)' if len(unknown) > 1 else ''}: its states are "
                          "'0-0-<n>-<hand>' for SB and '1-1-<n>-<hand>' for BB, e.g. '0-0-2-AKs'")
    missing = [s for s in _STATES if s not in rows]
    if missing:
        raise ConfigError(f"the policy has no entry for information state {missing[0]!r}"
                          f"{f' (and {len(missing) - 1} more)' if len(missing) > 1 else ''}: "
                          "it must cover all 338 (169 hand classes for each player)")
    freq = {"sb": np.zeros(N_CLASSES), "bb": np.zeros(N_CLASSES)}
    for state, (player, k) in _STATES.items():
        probs = dict.fromkeys(ACTIONS[player], 0.0)
        for action, p in rows[state]:
            try:
                p = float(p)
            except (TypeError, ValueError):
                raise ConfigError(f"policy state {state!r}: probability {p!r} of action {action!r} is not a "
                                  "number") from None
            if not (0.0 <= p <= 1.0) or math.isnan(p):
                raise ConfigError(f"policy state {state!r}: probability {p!r} of action {action!r} is outside [0, 1]")
            if p == 0.0 and not _known(player, action):
                continue  # a table over every action id lists the other player's action at 0
            probs[_action(player, state, action)] += p
        total = sum(probs.values())
        if abs(total - 1.0) > SUM_TOLERANCE:
            raise ConfigError(f"policy state {state!r}: the probabilities sum to {total!r}, not 1 "
                              f"(within {SUM_TOLERANCE:g})")
        freq[player][k] = probs[ACTIONS[player][1]]  # shove or call
    name = source or type(policy).__name__
    return Strategies(StrategySpec("sb", name, "openspiel", freq["sb"][COMBO_CLASS]),
                      StrategySpec("bb", name, "openspiel", freq["bb"][COMBO_CLASS]))


def _known(player: str, action) -> bool:
    try:
        _action(player, "", action)
    except ConfigError:
        return False
    return True


def from_strategy(sb, bb) -> dict[str, list[tuple[int, float]]]:
    """sflp strategies (169 class frequencies, or :class:`~sflp.study.strategy.StrategySpec`) as an
    OpenSpiel policy table on the exported game: ``{info state: [(action id, probability), ...]}``."""
    out = {}
    for player, strategy in (("sb", sb), ("bb", bb)):
        values = strategy.class_freq if hasattr(strategy, "class_freq") else strategy
        values = np.asarray(values, dtype=np.float64)
        if values.shape != (N_CLASSES,):
            raise ConfigError(f"{player.upper()} strategy: expected {N_CLASSES} class frequencies, got shape "
                              f"{values.shape}")
        fold, play = ACTIONS[player]
        for k, hand in enumerate(CLASS_NAMES):
            p = float(values[k])
            out[info_state(player, hand)] = [(ACTION_IDS[fold], 1.0 - p), (ACTION_IDS[play], p)]
    return out


def verify(policy, config, game=None, *, solution=None, source: str | None = None):
    """:func:`sflp.study.verify.verify` of ``policy`` (both players) in ``config``'s game, with the
    exact figures (``exact=True``): each player's best-response gain and their sum, OpenSpiel's
    ``nash_conv``, as fractions."""
    from sflp.study.verify import verify as verify_strategies

    s = to_strategy(policy, game, source=source)
    return verify_strategies(config, s.sb, s.bb, solution=solution, exact=True)
