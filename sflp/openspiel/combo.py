r"""The push/fold game at combo level (1,326 hands a player) as files a solver author can read: a
Gambit ``.efg`` that OpenSpiel loads (:func:`write_combo_efg`), and its sequence form as numpy
arrays (:func:`sequence_form`, :func:`write_sequence_form`, an ``.npz``).  Both are exact in
the sense of :mod:`sflp.openspiel.efg`: every probability exact, every payoff the exact rational
rounded once.

The combo-level ``.efg``
------------------------
The tree of :mod:`sflp.openspiel.efg` with combos for classes::

    chance (info set 1, "deal SB")               1,326 combos i, probability 1/1326
      chance (info set 2 + i, "deal BB | <i>")   the 1,225 combos j that share no card with i, 1/1225
        SB (info set i + 1)  fold  -> terminal (f, -f)                 outcome 1
                             shove -> BB (info set j + 1)
                                        fold -> terminal (g, -g)       outcome 2
                                        call -> terminal (c_ij, -c_ij) outcome 3 + k (k-th deal)

so each of the ``DEALS = 1326 * 1225 = 1,624,350`` ordered deals of two disjoint combos has
probability ``1/DEALS`` exactly.  ``f`` (SB folds) and ``g`` (BB folds) are those of the class
file, and ``c_ij`` is the showdown over all 1,712,304 boards of the two combos,

    c_ij = (S*W_ij - (S - A)*L_ij + (A/2)*T_ij) / 1,712,304 = g + K[i, j] * DEALS

(``W, T, L`` the board counts of the equity table, ``K`` the combo-level matrix of
:mod:`sflp.core.game`), the exact rational of :func:`sflp.solving.exact.exact_payoffs` rounded
once to the nearest double and written with every digit.  Player information set ``k + 1`` is
combo ``k`` (:mod:`sflp.core.cards`), named :func:`~sflp.core.cards.combo_name` (``"2d2c"`` ...
``"AsAh"``), so OpenSpiel names SB's combo 0 ``"0-0-1-2d2c"`` and BB's combo 1325
``"1-1-1326-AsAh"`` (:func:`sflp.openspiel.efg.combo_info_state`).  Node labels are empty
and each chance information set has one set of probabilities, as Gambit requires.  The title
names the structure: ``EFG 2 R "sflp heads-up push/fold, combo level: stack 10 bb, SB 0.5, ..."``.

It is a large file: 354 MB at 10 bb without an ante (1,624,350 deals, 3,250,026 decision and
chance nodes, 4,873,050 terminals).  :func:`write_combo_efg` writes it **streaming**, one SB
combo at a time, to a temporary twin that replaces the target only when complete.  Measured
(``benchmarks/bench_combo_efg.py``, recorded in ``benchmarks/results/combo_efg.json``): OpenSpiel's
``pyspiel.load_efg_game`` reads it in some seconds (the record's time, with its machine, is
quoted in docs/OPENSPIEL.md) with a peak of 3.98 GB resident, just within the
issue's bound for shipping it (about a minute and 4 GB); its ``nash_conv`` on the loaded game
peaks at 8.3 GB, and Gambit's reader takes 83 s and 5.8 GB.  See ``docs/OPENSPIEL.md``, "Combo
level".

The sequence form (``.npz``)
----------------------------
The same game as arrays, for a solver that wants numbers rather than a tree (10 MB compressed,
read by ``np.load`` in a fraction of a second; the ``.efg`` needs about 4 GB in OpenSpiel).  Its
sequences: SB's empty sequence and ``(i, fold)``, ``(i, shove)`` for each combo ``i``; BB's
empty sequence and ``(j, fold)``, ``(j, call)``.  SB's push probabilities ``x`` and BB's call
probabilities ``y`` (1,326 each, combo-id order) are the realization plans
``(1 - x_i, x_i)`` and ``(1 - y_j, y_j)`` (each information set is reached by the empty sequence
alone, so the plans' only constraints are ``r(i, fold) + r(i, shove) = 1`` and
``r(j, fold) + r(j, call) = 1``).  SB's payoff of each pair of sequences that ends at a terminal
node, weighted by chance, is an entry of the arrays below, every other pair pays 0, and SB's
value (BB's is its negative) is

    V(x, y) = sum_i sb_fold[i] (1 - x_i)
            + sum_ij x_i [ (1 - y_j) a_fold[i, j] + y_j a_call[i, j] ]

with ``P(i) = 1/1326`` the chance of SB holding ``i`` and ``P(i, j) = chance[i, j]`` of the deal.
The arrays (:data:`NPZ_ARRAYS`):

============  ===================  ==========================================================
``format``    str                  ``"sflp combo sequence form 1"`` (:data:`NPZ_FORMAT`)
``structure`` str                  JSON: ``stack``, ``small_blind``, ``big_blind``, ``ante``,
                                   ``bb_ante`` (floats), ``sflp`` (its version), ``exact`` (the
                                   five as exact fractions), ``f``, ``g`` (fractions),
                                   ``deals`` (1,624,350), ``boards`` (1,712,304)
``combos``    1326 str             :func:`~sflp.core.cards.combo_name` of combo ids 0..1325
``chance``    1326 x 1326 float64  ``P(i, j) = 1/DEALS`` where the combos share no card, else 0
``sb_fold``   1326 float64         ``P(i) f = f/1326``: SB folds ``i`` (sequence ``(i, fold)``)
``a_fold``    1326 x 1326 float64  ``P(i, j) g``: SB shoves ``i``, BB folds ``j``
``a_call``    1326 x 1326 float64  ``P(i, j) c_ij = g/DEALS + K[i, j]``: SB shoves, BB calls
``wins``      1326 x 1326 int32    boards on which SB's ``i`` beats BB's ``j`` (0 if they share a card)
``ties``      1326 x 1326 int32    boards they split; ``losses = 1,712,304 - wins - ties``
============  ===================  ==========================================================

Each float is the exact rational rounded once.  ``wins`` and ``ties`` (the equity table's
counts) rebuild every payoff exactly: ``c_ij = (S*W - (S - A)*L + (A/2)*T) / 1,712,304`` with
the exact ``stack`` ``S`` and ``bb_ante`` ``A`` of ``structure``, and ``f``, ``g`` are given.
Best responses are per combo: SB's value against ``y`` is
``sum_i max(sb_fold[i], (a_fold (1 - y) + a_call y)[i])``, and SB's value when BB best-responds
to ``x`` is ``sum_i sb_fold[i] (1 - x_i) + sum_j min((x a_fold)[j], (x a_call)[j])``.

Loading the file and scoring sflp's class equilibrium played by every combo of each class
(:func:`~sflp.core.game.PushFoldGame.expand_to_combos`): by suit symmetry it is an equilibrium
of the combo game too, so both best-response values are its value.

>>> import tempfile, numpy as np
>>> from sflp.core.cards import COMBO_CLASS
>>> from sflp.core.game import GameConfig
>>> from sflp.solving.solver import solve
>>> folder = tempfile.TemporaryDirectory()
>>> path = folder.name + "/combo10.npz"
>>> _ = write_sequence_form(GameConfig(stack=10), path)
>>> d = dict(np.load(path))                                      # every array, read once
>>> solution = solve(GameConfig(stack=10))
>>> x, y = solution.sb_strategy[COMBO_CLASS], solution.bb_strategy[COMBO_CLASS]
>>> value = d["sb_fold"] @ (1 - x) + x @ (d["a_fold"] @ (1 - y) + d["a_call"] @ y)
>>> shove = d["a_fold"] @ (1 - y) + d["a_call"] @ y            # SB's payoff of shoving each combo
>>> sb_best = np.maximum(d["sb_fold"], shove).sum()
>>> bb_best = d["sb_fold"] @ (1 - x) + np.minimum(x @ d["a_fold"], x @ d["a_call"]).sum()
>>> print(f"{value:.6f} {sb_best:.6f} {bb_best:.6f}", abs(value - solution.value) < 1e-12)
-0.045371 -0.045371 -0.045371 True
>>> folder.cleanup()

The ``.efg`` head, without the payoffs (they are made before the first SB combo's piece):

>>> pieces = combo_efg_chunks(GameConfig(stack=10))
>>> next(pieces).splitlines()[0]
'EFG 2 R "sflp heads-up push/fold, combo level: stack 10 bb, SB 0.5, BB 1, ante 0, BB ante 0" { "SB" "BB" }'
>>> len(COMBO_NAMES), len(DEALT[0]), TERMINALS, COMBO_NAMES[0], COMBO_NAMES[1325]
(1326, 1225, 4873050, '2d2c', 'AsAh')
"""

from __future__ import annotations

import os
import re
import stat
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from sflp.atomic import atomic_output, check_file_target, check_name, write_bytes
from sflp.checks import short
from sflp.core.cards import COMBO_DISJOINT, N_COMBOS, combo_name
from sflp.core.game import DEALS, GameConfig, PushFoldGame
from sflp.errors import ArgumentTypeError, ConfigError, OutputError
from sflp.openspiel.efg import HEADER, STRUCTURE_FIELDS, EfgSummary, _config_text, _number, structure_text

COMBO_HEADER = HEADER + ", combo level"
"""How every combo-level ``.efg`` begins: ``EFG 2 R "sflp heads-up push/fold, combo level``."""
COMBO_NAMES: tuple[str, ...] = tuple(combo_name(k) for k in range(N_COMBOS))
"""The 1,326 combo names in combo-id order: the information sets ``1 .. 1326`` of each player."""
DEALT: tuple[np.ndarray, ...] = tuple(np.flatnonzero(COMBO_DISJOINT[i]) for i in range(N_COMBOS))
"""``DEALT[i]``: the 1,225 combos that share no card with combo ``i``, in combo-id order."""
TERMINALS = 3 * DEALS
"""Terminal nodes of the combo-level tree: fold, steal and showdown of every deal (4,873,050)."""
_KINDS = ((stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"), (stat.S_ISDIR, "a folder"),
          (stat.S_ISLNK, "a symlink"))


def _check_config(config) -> GameConfig:
    if not isinstance(config, GameConfig):
        raise ConfigError(f"config must be a GameConfig, got {type(config).__name__} {config!r:.40}")
    return config


def showdown_payoffs(config: GameConfig, table=None) -> tuple[float, float, np.ndarray]:
    """``(f, g, c)``: SB's fold and steal payoffs and the 1,326 x 1,326 showdown payoffs
    ``c[i, j]`` of SB's combo ``i`` against BB's ``j`` (each the exact rational rounded once to a
    double; NaN where the combos share a card)."""
    from sflp.solving.exact import exact_payoffs

    ex = exact_payoffs(PushFoldGame(_check_config(config), table, "combo"))
    g = ex.g
    # c = g + K / P with P = 1 / DEALS: (gn * scale + gd * DEALS * K_scaled) / (gd * scale), a ratio
    # of Python ints (object arrays), which int / int rounds correctly to the nearest double
    num = g.numerator * ex.scale + g.denominator * DEALS * ex.K_scaled.astype(object)
    c = (num / (g.denominator * ex.scale)).astype(np.float64)
    c[~COMBO_DISJOINT] = np.nan
    return float(ex.f), float(g), c


def combo_efg_chunks(config: GameConfig, table=None) -> Iterator[str]:
    """The combo-level ``.efg`` of ``config`` as text, in 1,327 pieces: the head (title, comment,
    SB's deal), then one piece per SB combo (BB's deal and the 1,225 deals under it).  The exact
    payoffs are made after the head, before the first SB combo's piece."""
    _check_config(config)
    yield "\n".join([
        f'{COMBO_HEADER}: {_config_text(config)}" {{ "SB" "BB" }}',
        '"Heads-up no-limit hold\'em push/fold at combo level, written by sflp. Payoffs: net chips in bb '
        "from the stacks before posting, SB first. Information sets: the combo; SB folds or shoves, BB "
        'facing a shove folds or calls. Deal probabilities are exact, with card removal."',
        "",
        'c "" 1 "deal SB" { ' + " ".join(f'"{name}" 1/1326' for name in COMBO_NAMES) + " } 0",
    ]) + "\n"
    f, g, c = showdown_payoffs(config, table)
    fold = f't "" 1 "fold" {{ {_number(f)}, {_number(-f)} }}'
    steal = f't "" 2 "steal" {{ {_number(g)}, {_number(-g)} }}'
    outcome = 3
    for i, sb_hand in enumerate(COMBO_NAMES):
        dealt = DEALT[i]
        lines = [f'c "" {i + 2} "deal BB | {sb_hand}" {{ '
                 + " ".join(f'"{COMBO_NAMES[j]}" 1/1225' for j in dealt) + " } 0"]
        sb_node = f'p "" 1 {i + 1} "{sb_hand}" {{ "fold" "shove" }} 0'
        row = c[i]
        for j in dealt:
            bb_hand = COMBO_NAMES[j]
            u = float(row[j])
            lines += [sb_node, fold, f'p "" 2 {j + 1} "{bb_hand}" {{ "fold" "call" }} 0', steal,
                      f't "" {outcome} "{sb_hand} v {bb_hand}" {{ {_number(u)}, {_number(-u)} }}']
            outcome += 1
        yield "\n".join(lines) + "\n"


def _output_path(path, kind: str) -> Path:
    if not isinstance(path, (str, os.PathLike)) or not os.fspath(path):
        raise ArgumentTypeError(f"path={short(path)}: expected the {kind} file to write (a str or a Path)")
    return check_name(Path(path), what="output file")


def _make_folder(path: Path) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"cannot create the folder {path.parent}: {exc.strerror}") from None


def write_combo_efg(config: GameConfig, path: Path | str, table=None) -> EfgSummary:
    """Write the combo-level ``.efg`` of ``config`` (see the module doc) to ``path``, streaming,
    atomically (a temporary twin in the same folder, renamed over ``path`` when complete), making
    its folder if needed; returns what was written.  Checked before any work: the name's length
    and the target (only an ``.efg`` sflp wrote, class or combo level, is replaced; a folder, a
    FIFO, a device or a symlink is never written through)."""
    start = time.perf_counter()
    _check_config(config)
    path = _output_path(path, ".efg")
    check_file_target(path, ".efg", lambda head: head.startswith(HEADER.encode()), stdout=True)
    _make_folder(path)
    size = 0
    with atomic_output(path) as tmp:
        with open(tmp, "w", encoding="utf-8", newline="\n") as fh:
            for chunk in combo_efg_chunks(config, table):
                size += fh.write(chunk)  # ASCII: characters are bytes
    return EfgSummary(path, size, time.perf_counter() - start, 2 * N_COMBOS, TERMINALS, config)


# ---------------------------------------------------------------- the sequence form (.npz)

NPZ_FORMAT = "sflp combo sequence form 1"
"""The ``format`` array of every ``.npz`` sflp writes: :func:`write_sequence_form` replaces only
a file whose ``format`` is this."""
NPZ_ARRAYS = ("format", "structure", "combos", "chance", "sb_fold", "a_fold", "a_call", "wins", "ties")
"""The arrays of the ``.npz``, in the order the module doc describes them."""


def sequence_form(config: GameConfig, table=None) -> dict[str, np.ndarray]:
    """The combo-level game of ``config`` as the arrays of its sequence form (:data:`NPZ_ARRAYS`,
    described in the module doc), each payoff the exact rational rounded once to a double."""
    import json

    from sflp import __version__
    from sflp.core.equity import table_arg
    from sflp.solving.exact import exact_payoffs

    _check_config(config)
    table = table_arg(table)
    ex = exact_payoffs(PushFoldGame(config, table, "combo"))
    f, g = ex.f, ex.g
    disjoint = COMBO_DISJOINT
    # P * c = g / DEALS + K = (gn * scale + gd * DEALS * K_scaled) / (gd * scale * DEALS): Python
    # ints (object arrays), divided once, so each entry is the exact rational rounded once
    num = g.numerator * ex.scale + g.denominator * DEALS * ex.K_scaled.astype(object)
    a_call = (num / (g.denominator * ex.scale * DEALS)).astype(np.float64)
    a_call[~disjoint] = 0.0
    a_fold = np.where(disjoint, g.numerator / (g.denominator * DEALS), 0.0)
    chance = np.where(disjoint, 1 / DEALS, 0.0)
    sb_fold = np.full(N_COMBOS, f.numerator / (f.denominator * N_COMBOS))
    wins = np.where(disjoint, table.wins, 0).astype(np.int32)
    ties = np.where(disjoint, table.ties, 0).astype(np.int32)
    structure = {**config.as_dict(), "sflp": __version__,
                 "exact": {name: str(value) for name, value in config.exact().items()},
                 "f": str(f), "g": str(g), "deals": DEALS, "boards": 1_712_304}
    text = json.dumps(structure, sort_keys=True, allow_nan=False)
    return {"format": np.array(NPZ_FORMAT), "structure": np.array(text),
            "combos": np.array(COMBO_NAMES), "chance": chance, "sb_fold": sb_fold, "a_fold": a_fold,
            "a_call": a_call, "wins": wins, "ties": ties}


def _is_our_npz(path: Path) -> bool:
    """Whether ``path`` (a regular file, opened without following a symlink) is an ``.npz`` whose
    ``format`` array is :data:`NPZ_FORMAT`."""
    import zipfile

    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return False
    with os.fdopen(fd, "rb") as fh:
        try:
            if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
                return False
            with np.load(fh, allow_pickle=False) as data:
                return isinstance(data, np.lib.npyio.NpzFile) and "format" in data.files \
                    and data["format"].shape == () and str(data["format"]) == NPZ_FORMAT
        except (OSError, ValueError, EOFError, zipfile.BadZipFile):
            return False


@dataclass(frozen=True)
class SequenceFormSummary:
    """What :func:`write_sequence_form` wrote."""

    path: Path
    bytes: int
    seconds: float
    config: GameConfig

    def to_dict(self) -> dict:
        return {"path": str(self.path), "bytes": self.bytes, "seconds": self.seconds, **self.config.as_dict()}


def write_sequence_form(config: GameConfig, path: Path | str, table=None) -> SequenceFormSummary:
    """Write :func:`sequence_form` of ``config`` to ``path`` as a compressed ``.npz``
    (``np.savez_compressed``), atomically, making its folder if needed; returns what was
    written.  Checked before any work: the name's length and the target (only an ``.npz`` sflp
    wrote is replaced, proved by its ``format`` array; a folder, a FIFO, a device or a symlink is
    never written through)."""
    import io

    start = time.perf_counter()
    _check_config(config)
    path = _output_path(path, ".npz")
    check_file_target(path, ".npz", lambda head: head.startswith(b"PK") and _is_our_npz(path))
    arrays = sequence_form(config, table)
    buffer = io.BytesIO()
    np.savez_compressed(buffer, **arrays)
    _make_folder(path)
    data = buffer.getvalue()
    write_bytes(path, data)
    return SequenceFormSummary(path, len(data), time.perf_counter() - start, config)


# ---------------------------------------------------------------- reading the game back

MAX_COMBO_EFG_BYTES = 1_000_000_000
"""A combo-level ``.efg`` larger than this is not one sflp wrote (354 MB without an ante, 367 MB
with an ante of 0.125), and is refused without being read."""
_COMBO_TITLE = re.compile(re.escape(COMBO_HEADER) + r': stack (?P<stack>[^ ",]+) bb, SB (?P<small_blind>[^ ",]+), '
                          r'BB (?P<big_blind>[^ ",]+), ante (?P<ante>[^ ",]+), BB ante (?P<bb_ante>[^ ",]+)')
_BLOCK = 1 << 20


def combo_efg_config(path, what: str) -> GameConfig:
    """The :class:`~sflp.core.game.GameConfig` of a combo-level ``.efg`` sflp wrote, read from its
    title and proved as :func:`sflp.openspiel.efg_config` proves a class-level file: from its first
    node on, the file must be the text :func:`combo_efg_chunks` makes for that structure (compared
    streaming, piece by piece: about as long as writing it).  ``what`` names the file in messages.
    The file is opened without blocking (a FIFO is refused, never waited on) and must be a regular
    file of at most :data:`MAX_COMBO_EFG_BYTES`."""
    from sflp.checks import parse_number

    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise ConfigError(f"cannot read {what}: {exc.strerror or type(exc).__name__}") from None
    with os.fdopen(fd, "rb") as fh:
        info = os.fstat(fh.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise ConfigError(f"{what} is not a regular file")
        if info.st_size > MAX_COMBO_EFG_BYTES:
            raise ConfigError(f"{what} is {info.st_size:,} bytes, more than any game sflp writes "
                              f"({MAX_COMBO_EFG_BYTES:,})")
        head = fh.read(_BLOCK)
        title = head.split(b"\n", 1)[0].decode("utf-8", "replace")
        match = _COMBO_TITLE.match(title)
        if match is None:
            raise ConfigError(f"{what} is not a game sflp wrote: its first line is {short(title, 100)}")
        values = {f: parse_number(match[f], f"{what}: {f}") for f in STRUCTURE_FIELDS}
        try:
            config = GameConfig(**values)
        except ConfigError as exc:
            raise ConfigError(f"{what} names no valid game: {exc}") from None
        wrong = ConfigError(f"{what} is titled {structure_text(config)} (combo level), but its tree is not the "
                            "game sflp writes for that structure (written by another sflp version, or edited): "
                            "export it again with sflp export efg --combos")
        start = head.find(b"\nc ")
        if start < 0:
            raise wrong
        pending = head[start:]  # the file from its first node on, read ahead in blocks
        for k, chunk in enumerate(combo_efg_chunks(config)):
            expected = chunk.encode("ascii")
            if k == 0:
                expected = expected[expected.index(b"\nc "):]
            while len(pending) < len(expected):
                more = fh.read(max(_BLOCK, len(expected) - len(pending)))
                if not more:
                    raise wrong
                pending += more
            if pending[:len(expected)] != expected:
                raise wrong
            pending = pending[len(expected):]
        if pending or fh.read(1):
            raise wrong
    return config
