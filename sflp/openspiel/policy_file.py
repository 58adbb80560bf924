r"""A policy read from a file (:func:`read_policy`): the JSON of a policy table, or the text of
OpenSpiel's ``TabularPolicy.serialize()`` (:func:`parse_serialized`), read as plain text and never
unpickled.  What the mapping it returns may hold, and how it becomes sflp strategies, is
:mod:`sflp.openspiel.policy`'s.
"""

from __future__ import annotations

import json
import os
import re

from sflp.checks import short
from sflp.errors import ArgumentTypeError, ConfigError
from sflp.inputs import parse_json, read_bytes
from sflp.openspiel.efg import ACTION_IDS

MAX_POLICY_BYTES = 4_000_000
"""A policy file larger than this is refused before it is read (the class game's 338 states take
~25 KB, the combo game's 2,652 about 100 KB, 350 KB indented)."""


def read_policy(path) -> dict:
    """A policy written as JSON (``{information state: [[action, probability], ...]}``, e.g.
    ``json.dump(solver.tabular_average_policy().policy_table(), fh)``, or ``{information state:
    {action: probability}}``), as a mapping for :func:`~sflp.openspiel.policy.to_strategy`.

    The file is read by :func:`sflp.inputs.read_json`: a regular file of at most
    :data:`MAX_POLICY_BYTES` (a FIFO or a device is refused, never waited on), UTF-8, strict JSON
    (a key twice in one object, ``NaN``, an integer of more than 100 digits or nesting too deep is
    refused; an action listed twice in a state's object is refused naming the state).  A policy
    sflp wrote keeps its :data:`~sflp.openspiel.game.GAME_KEY` entry, which
    :func:`~sflp.openspiel.policy.verify` checks.

    OpenSpiel's ``TabularPolicy.serialize()`` text is read too (:func:`parse_serialized`: plain
    text, every probability exact in the default hex form).  Its other forms are refused with the
    two lines that write the JSON (:data:`JSON_HINT`): ``to_string()`` text (its probabilities
    have 6 digits, which lose the policy) and a pickle (sflp never unpickles a file:
    unpickling runs whatever code the file names)."""
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

