"""Exact all-in preflop equities: the shipped table, its checksum, and queries.

Why one module: it is one piece, though over 600 lines: where the table is looked for, its file, its
loading and its queries all serve the one pinned table (the folders' checks read its file name
and magic line), in short sections below.

The table holds, for every ordered pair of card-disjoint combos ``(a, b)`` (1,624,350 of them),
the integer number of the C(48,5) = 1,712,304 boards on which ``a`` wins, ties and loses against
``b``.  ``wins(a,b) + wins(b,a) + ties(a,b) = 1,712,304``.  Equity counts a tie as half:
``equity = (wins + ties/2) / boards``.

Class aggregates are derived on load: for each ordered class pair ``(i, j)`` the number of
disjoint combo pairs and the summed win / tie counts, so every class equity is an exact rational.

File format (``data/equity_table.bin``, format version 1)::

    b"SFLPEQ\\n"                          magic
    one line of JSON + b"\\n"             {"format_version": 1, "combos": 1326, ...}
    zlib stream                          little-endian uint32 arrays wins_ab, ties_ab over the
                                         812,175 disjoint pairs a < b in combo-id order, stored
                                         byte-plane by byte-plane (better compression)

The SHA-256 and size of the whole file are pinned in the code (:data:`TABLE_SHA256`,
:data:`TABLE_BYTES`) and checked on every load; ``data/equity_table.sha256`` repeats the digest in
``sha256sum`` format.  Only the standard library and numpy are used here; building the table
(numba) lives in :mod:`sflp.core.equity_build` and is imported only when a build is asked for.

>>> table = load_table()
>>> from sflp.core.cards import parse_combo
>>> table.combo_counts(parse_combo("AdAc"), parse_combo("KhKs"))  # GNU poker-eval
(1388072, 6538, 317694)
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import zlib
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

import numpy as np

from sflp.atomic import write_bytes
from sflp.core.cards import (
    BOARDS_PER_PAIR,
    COMBO_CLASS,
    COMBO_DISJOINT,
    N_CLASSES,
    N_COMBOS,
)
from sflp.errors import DataError

FORMAT_VERSION = 1
MAGIC = b"SFLPEQ\n"
TABLE_NAME = "equity_table.bin"
CHECKSUM_NAME = "equity_table.sha256"
REBUILD_HINT = (
    "rebuild it with `sflp equity build` (about a minute), reinstall sflp, or restore data/ from git"
)
TABLE_SHA256 = "57fe676c3557be3f626ddd132bceed3c8835960daa0b91da2ae031e3da4286fd"
TABLE_BYTES = 2_881_012
"""The one true table, pinned here in the code, not beside the file.  The table is unique (exact
counts, a deterministic encoding), so every correct build gives these bytes: the loader accepts
only a file of this size and SHA-256, and ``sflp equity build`` refuses to write a result that
differs.  A consistent edit that is re-signed in ``equity_table.sha256`` is therefore refused
too; that file is kept for ``sha256sum -c``."""

_UPPER = np.triu(COMBO_DISJOINT, k=1)
_PAIR_A, _PAIR_B = np.nonzero(_UPPER)  # the 812,175 disjoint pairs a < b, in combo-id order


_PACKAGE_DIR = Path(__file__).resolve().parents[1]  # sflp/ (this module is sflp/core/equity.py)
_REPO_DATA_DIR = _PACKAGE_DIR.parent / "data"


def package_data_dir() -> Path:
    """``sflp/data/`` inside the installed package (where a wheel carries the table)."""
    from importlib.resources import files

    return Path(str(files("sflp") / "data"))


def repo_data_dir() -> Path | None:
    """The checkout's ``data/`` (the table's source of truth) when sflp runs from a checkout or an
    editable install, else None.  A folder is only taken as the checkout when ``pyproject.toml``
    sits next to it, so an installed package never reads or writes ``site-packages/data``."""
    if (_PACKAGE_DIR.parent / "pyproject.toml").is_file():
        return _REPO_DATA_DIR
    return None


def user_data_dir() -> Path:
    """The per-user data folder: ``$XDG_DATA_HOME/sflp``, else ``~/.local/share/sflp`` (on Windows
    ``%LOCALAPPDATA%\\sflp``)."""
    xdg = os.environ.get("XDG_DATA_HOME")
    if xdg:
        return Path(xdg) / "sflp"
    if os.name == "nt" and os.environ.get("LOCALAPPDATA"):
        return Path(os.environ["LOCALAPPDATA"]) / "sflp"
    return Path.home() / ".local" / "share" / "sflp"


def data_dirs() -> list[Path]:
    """Where :func:`load_table` looks, in order: ``$SFLP_DATA_DIR`` alone if set; otherwise the
    user data folder (a table you rebuilt yourself), the package's ``sflp/data/`` (the wheel), and
    the checkout's ``data/`` (a checkout or editable install)."""
    env = _env_data_dir()
    if env:
        return [Path(env)]
    dirs = [user_data_dir(), package_data_dir()]
    repo = repo_data_dir()
    if repo is not None:
        dirs.append(repo)
    return dirs


def default_data_dir() -> Path:
    """The folder the table is loaded from: the first of :func:`data_dirs` that holds a table
    (``$SFLP_DATA_DIR`` if set, even when empty, so its error names it)."""
    dirs = data_dirs()
    for d in dirs:
        if (d / TABLE_NAME).is_file():
            return d
    return dirs[0] if _env_data_dir() else _home_dir()


def _home_dir() -> Path:
    """The shipped table's home: the checkout's ``data/`` in a checkout, else ``sflp/data/``."""
    repo = repo_data_dir()
    return repo if repo is not None else package_data_dir()


def _writable(folder: Path) -> bool:
    """True when ``folder`` (or, if it does not exist yet, its nearest existing parent) is a
    writable directory."""
    probe = folder
    while not probe.exists():
        if probe.parent == probe:
            return False
        probe = probe.parent
    return probe.is_dir() and os.access(probe, os.W_OK | os.X_OK)


def build_target_dir() -> Path:
    """Where ``sflp equity build`` writes without ``--data-dir``: ``$SFLP_DATA_DIR`` if set, else
    the shipped table's home (checkout ``data/`` or the package's ``sflp/data/``) when writable,
    else the user data folder."""
    env = _env_data_dir()
    if env:
        return Path(env)
    home = _home_dir()
    return home if _writable(home) else user_data_dir()


def check_target_dir(data_dir: Path | str) -> Path:
    """Check, before any work, that ``data_dir`` is (or can be created as) a writable folder."""
    from sflp.errors import ConfigError

    folder = Path(data_dir)
    probe = folder
    while not probe.exists():
        if probe.parent == probe:
            break
        probe = probe.parent
    if probe.exists() and not probe.is_dir():
        what = "is" if probe == folder else f"is inside {str(probe)!r}, which is"
        raise ConfigError(f"--data-dir {str(folder)!r} {what} a file, not a folder; give a folder for the table")
    if not _writable(folder):
        raise ConfigError(f"--data-dir {str(folder)!r}: folder {str(probe)!r} is not writable")
    _refuse_foreign_table_files(folder)
    import tempfile

    try:  # a real probe: /proc and friends pass the permission test but take no files
        with tempfile.TemporaryFile(dir=probe):
            pass
    except OSError as exc:
        raise ConfigError(
            f"--data-dir {str(folder)!r}: {str(probe)!r} is not an ordinary writable folder "
            f"(a file cannot be created there: {exc.strerror or exc})"
        ) from None
    return folder


def _refuse_foreign_table_files(folder: Path) -> None:
    """A build replaces ``equity_table.bin`` / ``.sha256`` only when they are sflp's own (the
    table's magic line; a digest line for the table), never a user's file of the same name."""
    from sflp.errors import ConfigError

    checks = ((TABLE_NAME, lambda head: head.startswith(MAGIC)),
              (CHECKSUM_NAME, lambda head: re.fullmatch(rb"[0-9a-f]{64}  " + TABLE_NAME.encode() + rb"\n?", head)))
    for name, ours in checks:
        path = folder / name
        if not (path.exists() or path.is_symlink()):
            continue
        try:
            with open(path, "rb") as fh:
                head = fh.read(256) if path.is_file() and not path.is_symlink() else b""
        except OSError:
            head = b""
        if not ours(head):
            raise ConfigError(f"--data-dir {str(folder)!r}: {name} there is not an sflp file; sflp will not "
                              "replace it (move it away or choose another folder)")


def data_dir_arg(name: str, value) -> Path | None:
    """A ``data_dir`` argument as a Path (None stays None), else sflp's error naming ``name``."""
    from sflp.errors import ConfigError

    if value is None:
        return None
    if isinstance(value, os.PathLike):
        value = os.fspath(value)
    if not isinstance(value, str) or not value.strip() or "\0" in value:
        raise ConfigError(f"{name}={value!r:.60} is not a folder path (give a str or Path, or None for the default)")
    return Path(value)


def table_arg(table) -> EquityTable:
    """``table`` (an :class:`EquityTable`, or None for the default table), else sflp's error."""
    if table is None:
        return load_table()
    if not isinstance(table, EquityTable):
        from sflp.errors import ConfigError

        raise ConfigError(f"table must be an sflp EquityTable (from load_table()) or None, not "
                          f"{type(table).__name__} {table!r:.40}")
    return table


def _env_data_dir() -> str | None:
    """``$SFLP_DATA_DIR``: unset is None; set but empty is an error (not silently "unset")."""
    env = os.environ.get("SFLP_DATA_DIR")
    if env is not None and not env.strip():
        raise DataError("SFLP_DATA_DIR is set but empty: set it to the folder of the equity table, or unset it")
    return env


_BY_CLASS = np.argsort(COMBO_CLASS, kind="stable")
"""The combo ids grouped by class (class 0's combos first, ascending within a class)."""
_CLASS_STARTS = np.concatenate(([0], np.cumsum(np.bincount(COMBO_CLASS, minlength=N_CLASSES))[:-1]))
"""Where each class's group starts in :data:`_BY_CLASS`."""


def _class_sums(matrix: np.ndarray) -> np.ndarray:
    """The 169 x 169 int64 sums of a 1326 x 1326 combo matrix over each pair of classes: row
    blocks first (169 x 1326), then column blocks, each exact in int64."""
    rows = np.add.reduceat(matrix[_BY_CLASS], _CLASS_STARTS, axis=0, dtype=np.int64)
    return np.add.reduceat(rows[:, _BY_CLASS], _CLASS_STARTS, axis=1, dtype=np.int64)


@dataclass(frozen=True, eq=False)
class EquityTable:
    """Exact win/tie counts for every ordered pair of disjoint combos, and class aggregates.

    ``wins[a, b]`` / ``ties[a, b]`` count boards (of 1,712,304) for combos ``a`` vs ``b``; both are
    0 where the combos share a card.  ``class_pairs[i, j]`` is the number of disjoint combo pairs
    of classes ``i`` and ``j``; ``class_wins`` / ``class_ties`` sum the counts over those pairs.
    """

    wins: np.ndarray
    ties: np.ndarray
    class_pairs: np.ndarray
    class_wins: np.ndarray
    class_ties: np.ndarray
    sha256: str

    @classmethod
    def from_wins(cls, wins: np.ndarray, sha256: str = "") -> EquityTable:
        """Derive ties and class aggregates from a full ``wins`` matrix.

        In uint32 and class blocks: ``ties = 1,712,304 - wins - wins.T`` cannot wrap on a disjoint
        pair (the three counts are boards of one pair) and is zeroed elsewhere, and the class sums
        add each class's rows, then its columns, in int64 (:func:`_class_sums`), so no 1326 x 1326
        int64 or float64 copy is made (they were 14 MB each, and the process kept the heap)."""
        wins = np.ascontiguousarray(wins, dtype=np.uint32)
        ties = np.subtract(np.uint32(BOARDS_PER_PAIR), wins, dtype=np.uint32)
        ties -= wins.T
        ties[~COMBO_DISJOINT] = 0
        arrays = [_class_sums(a) for a in (COMBO_DISJOINT, wins, ties)]
        for a in (wins, ties, *arrays):
            a.setflags(write=False)
        return cls(wins, ties, *arrays, sha256=sha256)

    # ------------------------------------------------------------ queries

    def level_counts(self, level: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """``(pairs, wins, ties, losses)`` as exact int64 matrices at ``"class"`` (169 x 169) or
        ``"combo"`` (1326 x 1326) level; ``losses = pairs * 1,712,304 - wins - ties``."""
        if level == "class":
            pairs, wins, ties = self.class_pairs, self.class_wins, self.class_ties
        elif level == "combo":
            pairs, wins, ties = COMBO_DISJOINT, self.wins, self.ties
        else:
            from sflp.errors import ConfigError

            raise ConfigError(f"level={level!r}: expected 'class' or 'combo'")
        pairs, wins, ties = (a.astype(np.int64) for a in (pairs, wins, ties))
        return pairs, wins, ties, pairs * BOARDS_PER_PAIR - wins - ties

    def combo_counts(self, a: int, b: int) -> tuple[int, int, int]:
        """``(wins, ties, losses)`` of combo ``a`` against combo ``b`` over all 1,712,304 boards."""
        if not COMBO_DISJOINT[a, b]:
            raise DataError(f"combos {a} and {b} share a card")
        w, t = int(self.wins[a, b]), int(self.ties[a, b])
        return w, t, BOARDS_PER_PAIR - w - t

    def class_counts(self, i: int, j: int) -> tuple[int, int, int, int]:
        """``(pairs, wins, ties, losses)`` of class ``i`` against class ``j`` summed over disjoint pairs."""
        pairs = int(self.class_pairs[i, j])
        w, t = int(self.class_wins[i, j]), int(self.class_ties[i, j])
        return pairs, w, t, pairs * BOARDS_PER_PAIR - w - t

    def weighted_counts(self, weights1: np.ndarray, weights2: np.ndarray) -> MatchupCounts:
        """Counts of a weighted combo range against another (weights are 1,326-vectors in [0, 1]).

        Each disjoint combo pair counts with weight ``weights1[a] * weights2[b]``.  With 0/1
        weights every figure is an integer.
        """
        u = np.asarray(weights1, dtype=np.float64)
        v = np.asarray(weights2, dtype=np.float64)
        integral = bool(np.all((u == 0) | (u == 1)) and np.all((v == 0) | (v == 1)))
        if integral:
            ui, vi = u.astype(np.int64), v.astype(np.int64)
            pairs = int(ui @ COMBO_DISJOINT.astype(np.int64) @ vi)
            wins = int(ui @ self.wins.astype(np.int64) @ vi)
            ties = int(ui @ self.ties.astype(np.int64) @ vi)
        else:
            pairs = float(u @ COMBO_DISJOINT.astype(np.float64) @ v)
            wins = float(u @ self.wins.astype(np.float64) @ v)
            ties = float(u @ self.ties.astype(np.float64) @ v)
        boards = pairs * BOARDS_PER_PAIR
        return MatchupCounts(wins, ties, boards - wins - ties, boards, pairs)


@dataclass(frozen=True)
class MatchupCounts:
    """Wins, ties and losses of one hand or range against another, over all (pair, board) outcomes."""

    wins: int | float
    ties: int | float
    losses: int | float
    boards: int | float
    pairs: int | float

    @property
    def equity(self) -> float:
        """``(wins + ties/2) / boards``; NaN when no pair of combos is disjoint."""
        if not self.boards:
            return float("nan")
        return (self.wins + self.ties / 2) / self.boards

    @property
    def equity_exact(self) -> Fraction | None:
        """The equity as an exact fraction when the counts are integers, else None."""
        if isinstance(self.wins, int) and self.boards:
            return Fraction(2 * self.wins + self.ties, 2 * self.boards)
        return None


# ---------------------------------------------------------------- file format


def encode_table(wins: np.ndarray) -> bytes:
    """Serialise a full ``wins`` matrix to the version-1 file format (deterministic bytes)."""
    wins = np.asarray(wins, dtype=np.int64)
    w_ab = wins[_PAIR_A, _PAIR_B]
    w_ba = wins[_PAIR_B, _PAIR_A]
    ties = BOARDS_PER_PAIR - w_ab - w_ba
    if np.any(ties < 0):
        raise DataError("wins(a,b) + wins(b,a) exceeds 1,712,304: not a valid win table")
    payload = np.concatenate([w_ab, ties]).astype("<u4")
    planes = payload.view(np.uint8).reshape(-1, 4).T.copy()  # byte-plane shuffle
    header = {
        "format_version": FORMAT_VERSION,
        "combos": N_COMBOS,
        "pairs": int(len(_PAIR_A)),
        "boards_per_pair": BOARDS_PER_PAIR,
        "layout": "uint32 wins(a,b) then ties(a,b) for disjoint a<b in combo-id order, byte planes",
        "card_id": "4*rank+suit, rank 0=2..12=A, suit cdhs",
    }
    return MAGIC + json.dumps(header, sort_keys=True).encode() + b"\n" + zlib.compress(planes.tobytes(), 9)


def decode_table(blob: bytes, sha256: str = "") -> EquityTable:
    """Parse the version-1 file format (see the module docstring)."""
    if not blob.startswith(MAGIC):
        raise DataError(f"not an sflp equity table (bad magic); {REBUILD_HINT}")
    end = blob.index(b"\n", len(MAGIC))
    try:
        header = json.loads(blob[len(MAGIC) : end])
    except ValueError as exc:
        raise DataError(f"equity table header is not JSON ({exc}); {REBUILD_HINT}") from None
    if header.get("format_version") != FORMAT_VERSION:
        raise DataError(
            f"equity table format version {header.get('format_version')!r} is not {FORMAT_VERSION}; {REBUILD_HINT}"
        )
    n = len(_PAIR_A)
    stream = zlib.decompressobj()
    try:  # bounded: never more than one byte past the expected payload, whatever the stream says
        raw = stream.decompress(blob[end + 1 :], 8 * n + 1)
    except zlib.error as exc:
        raise DataError(f"equity table payload is corrupt ({exc}); {REBUILD_HINT}") from None
    if len(raw) != 8 * n or not stream.eof:
        raise DataError(f"equity table payload is not {8 * n:,} bytes; {REBUILD_HINT}")
    if stream.unused_data:
        raise DataError(f"equity table has {len(stream.unused_data):,} bytes of trailing data; {REBUILD_HINT}")
    payload = np.frombuffer(raw, dtype=np.uint8).reshape(4, -1).T.copy().view("<u4").ravel()
    w_ab, ties = payload[:n].astype(np.int64), payload[n:].astype(np.int64)
    # A checksum only proves the file is the one that was signed, not that it is sane: a table
    # re-signed after an edit passes it.  wins(a,b) + ties(a,b) <= 1,712,304 for every pair makes
    # wins(b,a) = 1,712,304 - wins(a,b) - ties(a,b) a count of boards, so the identity
    # wins(a,b) + ties(a,b) + wins(b,a) = 1,712,304 holds with three non-negative counts.
    bad = np.flatnonzero(w_ab + ties > BOARDS_PER_PAIR)
    if bad.size:
        k = int(bad[0])
        raise DataError(
            f"equity table is corrupt: combos {int(_PAIR_A[k])} vs {int(_PAIR_B[k])} have wins + ties = "
            f"{int(w_ab[k] + ties[k]):,} > {BOARDS_PER_PAIR:,} boards ({bad.size:,} bad pairs); {REBUILD_HINT}"
        )
    wins = np.zeros((N_COMBOS, N_COMBOS), dtype=np.uint32)
    wins[_PAIR_A, _PAIR_B] = w_ab
    wins[_PAIR_B, _PAIR_A] = BOARDS_PER_PAIR - w_ab - ties
    return EquityTable.from_wins(wins, sha256=sha256)


def write_table(wins: np.ndarray, data_dir: Path | str) -> Path:
    """Write the table and its checksum into ``data_dir`` atomically; returns the table path.

    Each file goes through :func:`sflp.atomic.write_bytes` (temporary name, fsync, rename);
    I/O problems raise :class:`~sflp.errors.OutputError` naming the path.
    """
    data_dir = Path(data_dir)
    data_dir.mkdir(parents=True, exist_ok=True)
    blob = encode_table(wins)
    digest = hashlib.sha256(blob).hexdigest()
    path = data_dir / TABLE_NAME
    write_bytes(path, blob)
    write_bytes(data_dir / CHECKSUM_NAME, f"{digest}  {TABLE_NAME}\n".encode())
    return path


def read_checksum(data_dir: Path | str | None = None) -> str:
    """The SHA-256 recorded for the table in ``data_dir``."""
    path = Path(data_dir or default_data_dir()) / CHECKSUM_NAME
    try:
        return path.read_text().split()[0]
    except (OSError, IndexError):
        raise DataError(f"equity table checksum {path} is missing or empty; {REBUILD_HINT}") from None


def load_table_from(data_dir: Path | str) -> EquityTable:
    """Load the table in ``data_dir`` (no caching); only the pinned table is accepted.

    The file is checked before it is read: a regular file (a symlink to one is fine) of exactly
    :data:`TABLE_BYTES`, read with that bound; then its SHA-256 must be :data:`TABLE_SHA256`.
    """
    import stat

    if data_dir_arg("data_dir", data_dir) is None:
        from sflp.errors import ConfigError

        raise ConfigError("load_table_from needs a folder; load_table() finds the default one")
    path = Path(data_dir) / TABLE_NAME
    try:
        info = path.stat()
    except OSError:
        raise DataError(f"equity table {path} is missing; {REBUILD_HINT}") from None
    if not stat.S_ISREG(info.st_mode):
        raise DataError(f"equity table {path} is not a regular file; {REBUILD_HINT}")
    if info.st_size != TABLE_BYTES:
        raise DataError(
            f"equity table {path} has {info.st_size:,} bytes, the sflp table has {TABLE_BYTES:,}; {REBUILD_HINT}"
        )
    try:
        with open(path, "rb") as fh:
            blob = fh.read(TABLE_BYTES + 1)
    except OSError as exc:
        raise DataError(f"equity table {path} cannot be read ({exc.strerror or exc}); {REBUILD_HINT}") from None
    return decode_pinned(blob, str(path))


def decode_pinned(blob: bytes, where: str) -> EquityTable:
    """The table in ``blob`` if it is exactly the pinned one, else :class:`DataError`."""
    actual = hashlib.sha256(blob).hexdigest()
    if len(blob) != TABLE_BYTES or actual != TABLE_SHA256:
        raise DataError(
            f"equity table {where} is not the sflp table: SHA-256 {actual[:16]}... is not the pinned "
            f"{TABLE_SHA256[:16]}... (a corrupt, edited or foreign file); {REBUILD_HINT}"
        )
    return decode_table(blob, sha256=actual)


@lru_cache(maxsize=4)
def _cached(data_dir: str) -> EquityTable:
    return load_table_from(data_dir)


def load_table(data_dir: Path | str | None = None) -> EquityTable:
    """The exact equity table (loaded once per process and data folder, checksum verified)."""
    folder = data_dir_arg("data_dir", data_dir)
    if folder is not None:
        return _cached(str(folder.resolve()))
    # the default folder depends only on these variables (and on which folders hold a table):
    # resolved once per setting, so a solve at every stack does not search the disk again
    key = tuple(os.environ.get(k) for k in ("SFLP_DATA_DIR", "XDG_DATA_HOME", "HOME", "LOCALAPPDATA"))
    found = _DEFAULT.get(key)
    if found is None:
        found = _cached(str(default_data_dir().resolve()))
        _DEFAULT.clear()
        _DEFAULT[key] = found
    return found


_DEFAULT: dict[tuple, EquityTable] = {}
"""The default table per setting of the variables that choose its folder (see :func:`load_table`)."""


def build_table(data_dir: Path | str | None = None, progress: bool = False) -> Path:
    """Rebuild the table from scratch by full enumeration and write it (needs numba).

    Without ``data_dir`` it goes to :func:`build_target_dir`.  The target is checked first, so a
    bad folder fails before the ~15 s of enumeration."""
    from sflp.core.equity_build import build_win_table

    folder = data_dir_arg("data_dir", data_dir)
    target = check_target_dir(folder if folder is not None else build_target_dir())
    wins = build_win_table(progress=progress)
    blob = encode_table(wins)
    digest = hashlib.sha256(blob).hexdigest()
    if len(blob) != TABLE_BYTES or digest != TABLE_SHA256:  # the build must reproduce the one table
        raise DataError(
            f"the rebuilt table has SHA-256 {digest[:16]}... ({len(blob):,} bytes), not the pinned "
            f"{TABLE_SHA256[:16]}... ({TABLE_BYTES:,} bytes): the build is wrong on this machine; nothing was written"
        )
    path = write_table(wins, target)
    _cached.cache_clear()
    _DEFAULT.clear()
    return path


# ---------------------------------------------------------------- hand / range queries


@dataclass(frozen=True)
class EquityResult:
    """An equity query: HAND1 against HAND2, from HAND1's point of view."""

    hand1: str
    hand2: str
    counts: MatchupCounts

    def to_dict(self) -> dict:
        c = self.counts
        return {
            "hand1": self.hand1,
            "hand2": self.hand2,
            "wins": c.wins,
            "ties": c.ties,
            "losses": c.losses,
            "boards": c.boards,
            "pairs": c.pairs,
            "equity": c.equity,
        }


def equity(hand1: str, hand2: str, table: EquityTable | None = None) -> EquityResult:
    """Exact all-in equity of two combos (``"AhAd"``), classes (``"AA"``) or ranges (``"QQ+,AKs"``).

    >>> r = equity("AA", "KK")
    >>> r.counts.pairs, round(r.counts.equity, 6)
    (36, 0.819461)
    >>> equity("AhAd", "AhKs")
    Traceback (most recent call last):
    ...
    sflp.errors.NotationError: 'AhAd' and 'AhKs' have no card-disjoint pair of combos (they share cards)
    """
    from sflp.core.ranges import parse_range
    from sflp.errors import NotationError

    r1, r2 = parse_range(hand1), parse_range(hand2)
    for text, r in ((hand1, r1), (hand2, r2)):
        if r.combos_count() == 0:
            raise NotationError(f"{text!r} is an empty range")
    counts = table_arg(table).weighted_counts(r1.combo_weights(), r2.combo_weights())
    if not counts.pairs:
        raise NotationError(f"{hand1!r} and {hand2!r} have no card-disjoint pair of combos (they share cards)")
    return EquityResult(hand1, hand2, counts)


# ---------------------------------------------------------------- hand ranking


@dataclass(frozen=True)
class RankedHand:
    """One row of :func:`hand_ranking`: a class, its exact equity against a random hand, and the
    combo share (0-100) of it together with every better class."""

    rank: int
    hand: str
    combos: int
    equity: Fraction
    cumulative_pct: float

    def to_dict(self) -> dict:
        return {
            "rank": self.rank,
            "hand": self.hand,
            "combos": self.combos,
            "equity": f"{self.equity.numerator}/{self.equity.denominator}",
            "equity_float": float(self.equity),
            "cumulative_pct": self.cumulative_pct,
        }


def equity_vs_random(table: EquityTable | None = None) -> list[Fraction]:
    """Exact all-in equity of each class (class-id order) against a uniformly random hand.

    With card removal: every card-disjoint villain combo counts once for each hero combo, so the
    equity is ``sum(2*wins + ties) / (2 * pairs * 1,712,304)`` over all such pairs.  Jazbo's exact
    table (jazbo.com/poker/huholdem.html, ties counted half) gives AA 0.8520371 and AKs 0.6704463.

    >>> from sflp.core.cards import class_id
    >>> eq = equity_vs_random()
    >>> round(float(eq[class_id("AA")]), 7), round(float(eq[class_id("AKs")]), 7)
    (0.8520371, 0.6704463)
    """
    table = table_arg(table)
    pairs = table.class_pairs.sum(axis=1)
    wins = table.class_wins.sum(axis=1)
    ties = table.class_ties.sum(axis=1)
    return [Fraction(2 * int(w) + int(t), 2 * int(p) * BOARDS_PER_PAIR) for p, w, t in zip(pairs, wins, ties)]


def hand_ranking(table: EquityTable | None = None) -> list[RankedHand]:
    """The 169 classes in :data:`sflp.core.ranges.HAND_RANKING` order with their exact equities.

    Raises :class:`~sflp.errors.DataError` if the table orders the classes differently from the
    shipped constant (which would mean a different table).

    >>> rows = hand_ranking()
    >>> [(r.hand, round(float(r.equity), 4), round(r.cumulative_pct, 2)) for r in rows[:2]]
    [('AA', 0.852, 0.45), ('KK', 0.824, 0.9)]
    >>> rows[-1].hand, rows[-1].cumulative_pct
    ('32o', 100.0)
    """
    from sflp.core.cards import CLASS_NAMES, CLASS_SIZES
    from sflp.core.ranges import HAND_RANKING

    eq = equity_vs_random(table)
    order = sorted(range(N_CLASSES), key=lambda k: (-eq[k], k))
    if tuple(CLASS_NAMES[k] for k in order) != HAND_RANKING:
        raise DataError("the equity table orders the hands differently from sflp.core.ranges.HAND_RANKING")
    rows, total = [], 0
    for rank, k in enumerate(order, start=1):
        total += int(CLASS_SIZES[k])
        rows.append(RankedHand(rank, CLASS_NAMES[k], int(CLASS_SIZES[k]), eq[k], 100 * total / N_COMBOS))
    return rows


# `sflp.core.equity` is both this module and, in the public API (``sflp/__init__.py``), the function
