r"""``thresholds_exact.csv``: the certificate of a chart set's thresholds, and its re-check.

:func:`sflp.solving.thresholds.compute_thresholds` proves every breakpoint and 0.5 crossing of the
path (:mod:`sflp.solving.threshcert`).  This file publishes each certified root, one row each:

===============  ==================================================================================
``kind``         ``end`` (``low`` or ``high`` of the range), ``breakpoint`` or ``crossing``
``player``       ``sb`` / ``bb``: whose polynomial it is (empty for ``Q`` and the ends)
``hand``         the hand class of the polynomial (empty for ``Q`` and the ends)
``segment``      the index of the segment (0, 1, ...) whose event polynomial it is
``polynomial``   its name: ``Q``, ``Nx AKs``, ``Q-Ny 72o``, ``F sb K7o``, ``Rn 22``, ``M 72o``,
                 ``Cn A5s`` (see :func:`sflp.solving.threshcert.event_rows`); ``end`` for the ends
``coefficients`` the polynomial's integer coefficients in the stack ``S`` (bb), space-separated,
                 **lowest degree first**: ``c0 c1 ... cd`` is ``c0 + c1 S + ... + cd S^d``
``lo``, ``hi``   the isolating interval, exact rationals ``p/q``: the polynomial has exactly one
                 root in the open ``(lo, hi)``, with opposite signs at ``lo`` and ``hi``
                 (``lo == hi`` for an end: the root is ``lo`` itself)
``published``    the root correctly rounded to 6 decimals: the text ``thresholds.csv`` prints
===============  ==================================================================================

:func:`verify_thresholds` re-checks a folder from this file alone, with integers only
(:mod:`sflp.solving.rootcert`): for each row, the sign of the polynomial at ``lo`` and ``hi``
(opposite), the number of its roots in ``(lo, hi)`` (one, by Descartes' rule after the Moebius
map on the square-free part), and that the root rounds to ``published`` (the root's side of each
rounding boundary, decided exactly); then that every number of ``thresholds.csv``
(``max_stack`` and the ends of ``intervals`` and ``any_intervals``) is the published text of a
row.  Then it re-derives the polynomials and proves that no root was missed:
``thresholds_segments.csv`` (``segment, stack_from, stack_to, sb, bb``: each segment of the path,
its ends as the published roots' floats and its support as 169 + 169 letters ``1`` always, ``m``
mixed, ``0`` never, in class-id order, as :func:`sflp.charts.media.segments.support_texts` writes
them) is proven again with :func:`sflp.solving.threshcert.certify_path`, on the blinds, antes
and range of ``manifest.json`` and the shipped equity table: every support an exact
equilibrium on its segment, no event polynomial vanishing inside one (:func:`reprove_path`).
The roots that proof publishes must be the rows of ``thresholds_exact.csv``, one for one.

>>> from fractions import Fraction
>>> row_problem(("breakpoint", "sb", "AA", 0, "Q", (-2, 0, 1), Fraction(1), Fraction(2), "1.414214"))
>>> row_problem(("breakpoint", "sb", "AA", 0, "Q", (-2, 0, 1), Fraction(1), Fraction(2), "1.414213"))
'its root rounds to 1.414214, not 1.414213'
>>> row_problem(("breakpoint", "sb", "AA", 0, "Q", (-2, 0, 1), Fraction(2), Fraction(3), "2.000000"))
'(2/1, 3/1) holds no sign change of the polynomial'
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from sflp.core.cards import CLASS_NAMES, N_CLASSES
from sflp.errors import ArgumentTypeError, ConfigError, DataError
from sflp.solving import rootcert as rc

EXACT_FILE = "thresholds_exact.csv"
SEGMENTS_FILE = "thresholds_segments.csv"
THRESHOLDS_FILE = "thresholds.csv"
SEGMENT_COLUMNS = ("segment", "stack_from", "stack_to", "sb", "bb")
COLUMNS = ("kind", "player", "hand", "segment", "polynomial", "coefficients", "lo", "hi", "published")
KINDS = ("end", "breakpoint", "crossing")
MAX_BYTES = 256 * 2**20
"""The largest ``thresholds_exact.csv`` read (1-200 bb @ 0.01 writes well under this; see docs/CHARTS.md)."""
MAX_TERMS = 1000
"""At most this many coefficients in a row (a segment's polynomials have degree <= its mixed hands + 1)."""
MAX_DIGITS = 20000
"""At most this many digits in one integer of the file."""
_INT = re.compile(r"-?[0-9]+")
_RATIONAL = re.compile(r"(-?[0-9]+)/([0-9]+)")
_DECIMAL = re.compile(r"-?[0-9]+\.[0-9]{6}")
_NAME = re.compile(r"[A-Za-z0-9 +\-]{1,40}")
_HANDS = frozenset(CLASS_NAMES)


# ---------------------------------------------------------------------------- writing


def _player_hand(name: str) -> tuple[str, str]:
    """Whose polynomial ``name`` is: ``("sb", "AKs")`` for ``Nx AKs``, ``Q-Nx AKs``, ``M AKs``,
    ``F sb AKs``; ``("bb", ...)`` for ``Ny``, ``Q-Ny``, ``Rn``, ``Cn``, ``F bb``; empty for ``Q``.

    >>> _player_hand("F bb K7o"), _player_hand("Q-Nx AKs"), _player_hand("Q")
    (('bb', 'K7o'), ('sb', 'AKs'), ('', ''))
    """
    parts = name.split(" ")
    if len(parts) == 3 and parts[0] == "F":
        return parts[1], parts[2]
    if len(parts) == 2:
        sb = parts[0] in ("Nx", "Q-Nx", "M")
        return ("sb" if sb else "bb"), parts[1]
    return "", ""


def _rational(x: Fraction) -> str:
    return f"{x.numerator}/{x.denominator}"


def certificate_rows(certificate) -> list[tuple]:
    """The rows of ``thresholds_exact.csv`` of a :class:`~sflp.solving.threshcert.PathCertificate`,
    in order of the stack: ``low``, then each segment's crossings and its closing breakpoint, ``high``."""
    rows = []

    def add(root, player="", hand=""):
        if not player and root.kind != "end":
            player, hand = _player_hand(root.name)
        rows.append((root.kind, player, hand, root.segment, root.name, tuple(root.poly), root.lo, root.hi,
                     root.decimal()))

    add(certificate.low)
    for j, crossings in enumerate(certificate.crossings):
        inside = [(r, player, hand) for (player, hand), roots in crossings.items() for r in roots]
        for r, player, hand in sorted(inside, key=lambda t: t[0].lo):
            add(r, player, hand)
        if j < len(certificate.breakpoints):
            add(certificate.breakpoints[j])
    add(certificate.high)
    return rows


def exact_csv_text(certificate) -> str:
    """``thresholds_exact.csv`` as text (header, one line per row, ``\\n`` line ends)."""
    lines = [",".join(COLUMNS)]
    for kind, player, hand, seg, name, poly, lo, hi, pub in certificate_rows(certificate):
        lines.append(",".join((kind, player, hand, str(seg), name, " ".join(map(str, poly)),
                               _rational(lo), _rational(hi), pub)))
    return "\n".join(lines) + "\n"


def write_thresholds_exact(path: Path | str, certificate) -> Path:
    """Write ``thresholds_exact.csv`` (atomically) from a path certificate."""
    from sflp.atomic import write_text

    return write_text(Path(path), exact_csv_text(certificate))


def segments_csv_text(certificate) -> str:
    """``thresholds_segments.csv`` as text: one row per segment ``j`` of the path, from the float of
    its opening root (``low`` or breakpoint ``j - 1``) to that of its closing one, with its support
    (:func:`sflp.charts.media.segments.support_texts`)."""
    from sflp.charts.media.segments import support_texts

    ends = [certificate.low, *certificate.breakpoints, certificate.high]
    lines = [",".join(SEGMENT_COLUMNS)]
    for j, support in enumerate(certificate.supports):
        sb, bb = support_texts(support)
        lines.append(f"{j},{float(ends[j].value)!r},{float(ends[j + 1].value)!r},{sb},{bb}")
    return "\n".join(lines) + "\n"


def write_thresholds_segments(path: Path | str, certificate) -> Path:
    """Write ``thresholds_segments.csv`` (atomically) from a path certificate."""
    from sflp.atomic import write_text

    return write_text(Path(path), segments_csv_text(certificate))


# ---------------------------------------------------------------------------- checking


def row_problem(row: tuple) -> str | None:
    """Why a parsed row does not hold (None: its interval isolates exactly one root of its
    polynomial and that root rounds to its published text), decided with integers only."""
    kind, _, _, _, _, poly, lo, hi, pub = row
    if not rc.trim(list(poly)):
        return "its polynomial is zero"
    if kind == "end":
        if lo != hi or rc.sign_at(list(poly), lo) != 0:
            return f"an end must be lo == hi, a root of its polynomial; got ({_rational(lo)}, {_rational(hi)})"
    else:
        if not lo < hi:
            return f"lo {_rational(lo)} is not below hi {_rational(hi)}"
        if rc.sign_at(list(poly), lo) * rc.sign_at(list(poly), hi) >= 0:
            return f"({_rational(lo)}, {_rational(hi)}) holds no sign change of the polynomial"
        n = rc.count_roots(list(poly), lo, hi)
        if n != 1:
            return f"({_rational(lo)}, {_rational(hi)}) holds {n} roots of the polynomial, not one"
    text = rc.round_decimal(list(poly), lo, hi, 6)
    if text != pub:
        return f"its root rounds to {text}, not {pub}"
    return None


def _int(text: str, what: str, where: str) -> int:
    if len(text) > MAX_DIGITS + 1 or not _INT.fullmatch(text):
        raise DataError(f"{where}: {what} {text[:40]!r} is not an integer of at most {MAX_DIGITS:,} digits")
    return int(text)


def _fraction(text: str, what: str, where: str) -> Fraction:
    m = _RATIONAL.fullmatch(text) if len(text) <= 2 * MAX_DIGITS + 2 else None
    if m is None or int(m.group(2)) == 0:
        raise DataError(f"{where}: {what} {text[:40]!r} is not an exact rational p/q (q > 0)")
    return Fraction(_int(m.group(1), what, where), _int(m.group(2), what, where))


def parse_exact(data: bytes, path) -> list[tuple]:
    """The rows of ``thresholds_exact.csv`` bytes, each field checked; else one DataError."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DataError(f"{path} is not UTF-8 text (byte {exc.start:,} is not)") from None
    if "\0" in text or "\r" in text or '"' in text:
        raise DataError(f"{path} holds a NUL, carriage return or quote (sflp writes none)")
    lines = text.split("\n")
    if lines[-1] != "":
        raise DataError(f"{path} does not end with a line end: it was cut short")
    lines.pop()
    if not lines or lines[0] != ",".join(COLUMNS):
        raise DataError(f"{path} has the header {lines[0][:80] if lines else ''!r}; expected {','.join(COLUMNS)}")
    rows = []
    for k, line in enumerate(lines[1:], start=2):
        where = f"{path} line {k}"
        f = line.split(",")
        if len(f) != len(COLUMNS):
            raise DataError(f"{where}: {len(f)} fields, expected {len(COLUMNS)}")
        kind, player, hand, seg, name, coeffs, lo, hi, pub = f
        if kind not in KINDS:
            raise DataError(f"{where}: kind {kind[:40]!r} is not one of {', '.join(KINDS)}")
        if player not in ("", "sb", "bb") or (hand and hand not in _HANDS) or bool(player) != bool(hand):
            raise DataError(f"{where}: player {player[:10]!r} and hand {hand[:10]!r} are not sb/bb and a hand class "
                            "(or both empty)")
        segment = _int(seg, "segment", where)
        if segment < 0:
            raise DataError(f"{where}: segment {segment} is negative")
        if not _NAME.fullmatch(name):
            raise DataError(f"{where}: polynomial {name[:40]!r} is not a polynomial's name")
        terms = coeffs.split(" ")
        if not 1 <= len(terms) <= MAX_TERMS:
            raise DataError(f"{where}: {len(terms):,} coefficients, expected 1 to {MAX_TERMS:,}")
        poly = tuple(_int(t, "coefficient", where) for t in terms)
        if not _DECIMAL.fullmatch(pub):
            raise DataError(f"{where}: published {pub[:40]!r} is not a number with 6 decimals")
        rows.append((kind, player, hand, segment, name, poly, _fraction(lo, "lo", where),
                     _fraction(hi, "hi", where), pub))
    if len(rows) < 2 or rows[0][0] != "end" or rows[-1][0] != "end":
        raise DataError(f"{path} must begin and end with the range's ends (kind end)")
    return rows


def _numbers_of_thresholds(data: bytes, path) -> list[tuple[int, str]]:
    """``(line, text)`` of every number of ``thresholds.csv`` (``max_stack``, interval ends)."""
    import csv
    import io

    try:
        reader = csv.reader(io.StringIO(data.decode("utf-8"), newline=""))
        head = next(reader, None)
        out = []
        if head is None or head[:6] != ["player", "hand", "max_stack", "capped", "intervals", "any_intervals"]:
            raise DataError(f"{path} does not have the columns of thresholds.csv")
        for k, row in enumerate(reader, start=2):
            if len(row) != len(head):
                raise DataError(f"{path} line {k}: {len(row)} fields, expected {len(head)}")
            if row[2]:
                out.append((k, row[2]))
            for column in (row[4], row[5]):
                for part in filter(None, column.split(";")):
                    ends = re.fullmatch(r"(-?[0-9.]+)-(-?[0-9.]+)", part)
                    if ends is None:
                        raise DataError(f"{path} line {k}: interval {part[:40]!r} is not a-b")
                    out += [(k, ends.group(1)), (k, ends.group(2))]
        return out
    except UnicodeDecodeError as exc:
        raise DataError(f"{path} is not UTF-8 text (byte {exc.start:,} is not)") from None
    except csv.Error as exc:
        raise DataError(f"{path} is not a valid CSV file: {exc}") from None


def parse_segments(data: bytes, path) -> list[tuple[float, float, object]]:
    """The segments ``(a, b, support)`` of ``thresholds_segments.csv`` bytes, numbered 0, 1, ... in
    order, contiguous (each ``stack_to`` the next ``stack_from``), each support 169 + 169 letters
    ``0``, ``1``, ``m``; else one DataError naming the line."""
    import math

    from sflp.charts.margins import support_of_texts

    try:
        text = data.decode("ascii")
    except UnicodeDecodeError as exc:
        raise DataError(f"{path} is not ASCII text (byte {exc.start:,} is not)") from None
    lines = text.split("\n")
    if lines[-1] != "":
        raise DataError(f"{path} does not end with a line end: it was cut short")
    lines.pop()
    if not lines or lines[0] != ",".join(SEGMENT_COLUMNS):
        raise DataError(f"{path} has the header {lines[0][:80] if lines else ''!r}; "
                        f"expected {','.join(SEGMENT_COLUMNS)}")
    out: list[tuple[float, float, object]] = []
    for k, line in enumerate(lines[1:], start=2):
        where = f"{path} line {k}"
        f = line.split(",")
        if len(f) != len(SEGMENT_COLUMNS):
            raise DataError(f"{where}: {len(f)} fields, expected {len(SEGMENT_COLUMNS)}")
        seg, a, b, sb, bb = f
        if seg != str(len(out)):
            raise DataError(f"{where}: segment {seg[:20]!r}, expected {len(out)} (the segments in order)")
        try:
            a, b = float(a), float(b)
        except ValueError:
            raise DataError(f"{where}: stack_from and stack_to must be numbers") from None
        if not (math.isfinite(a) and math.isfinite(b) and 0 < a < b):
            raise DataError(f"{where}: segment {seg} from {a!r} to {b!r} is not a stretch of positive stacks")
        if out and out[-1][1] != a:
            raise DataError(f"{where}: segment {seg} starts at {a!r}, not where segment {len(out) - 1} ends "
                            f"({out[-1][1]!r}): the segments must cover the range without a gap")
        for who, letters in (("sb", sb), ("bb", bb)):
            if len(letters) != N_CLASSES or set(letters) - set("01m"):
                raise DataError(f"{where}: {who} is not {N_CLASSES} letters 0, 1 or m "
                                "(one a hand in class-id order: never, always, mixed)")
        out.append((a, b, support_of_texts(sb, bb)))
    if not out:
        raise DataError(f"{path} has no segment")
    return out


def _path_of_manifest(folder: Path) -> tuple:
    """``(config, low, high)`` of the set's thresholds, from ``manifest.json`` (its blinds and antes
    and the thresholds' range), whose equity table must be the one sflp ships."""
    from sflp.core.equity import TABLE_SHA256
    from sflp.core.game import GameConfig
    from sflp.output.manifest import MANIFEST, read_manifest

    manifest = read_manifest(folder)
    config = manifest.get("config") if isinstance(manifest, dict) else None
    span = manifest.get("thresholds") if isinstance(manifest, dict) else None
    if not isinstance(config, dict) or not isinstance(span, dict):
        raise DataError(f"{folder / MANIFEST} is missing or has no 'config' and 'thresholds': the path is "
                        "re-proved from the set's blinds, antes and range, which it gives")
    if manifest.get("equity_table_sha256") != TABLE_SHA256:
        named = str(manifest.get("equity_table_sha256"))[:16]
        raise DataError(f"{folder / MANIFEST} names the equity table {named!r}, "
                        f"not the one sflp ships ({TABLE_SHA256[:12]}...): the path is re-proved with it")
    keys = ("small_blind", "big_blind", "ante", "bb_ante")
    try:
        values = {k: config[k] for k in keys}
        low, high = span["low"], span["high"]
        if any(isinstance(v, bool) or not isinstance(v, (int, float)) for v in (*values.values(), low, high)):
            raise TypeError
        return GameConfig(stack=float(low), **values), float(low), float(high)
    except (KeyError, TypeError):
        raise DataError(f"{folder / MANIFEST}: its 'config' needs the numbers {', '.join(keys)} and its "
                        "'thresholds' low and high") from None
    except (ConfigError, ValueError) as exc:
        raise DataError(f"{folder / MANIFEST}: its 'config' is not a valid game: {exc}") from None


def _same_root(poly, a: tuple[Fraction, Fraction], b: tuple[Fraction, Fraction]) -> bool:
    """Whether two isolating intervals of ``poly`` (each holding one root, or a point root) hold the
    same root: their intersection holds it."""
    lo, hi = max(a[0], b[0]), min(a[1], b[1])
    if lo > hi:
        return False
    return rc.is_isolating(list(poly), lo, hi)


def _segment_of(message: str, segments) -> str:
    """The segment a :class:`~sflp.errors.SolveError` of the path's proof is about."""
    m = re.search(r"segment (\d+)", message)
    if m:
        return f"segment {m.group(1)}"
    m = re.search(r"at (-?[0-9.e+-]+)", message)
    if m:
        for j, (a, _, _) in enumerate(segments):
            if j and repr(a) == m.group(1):
                return f"segments {j - 1} and {j}"
    return "the path"


def reprove_path(folder: Path, rows: list[tuple], entry: dict | None) -> tuple[int, object, tuple]:
    """Re-prove the path of ``thresholds_segments.csv`` (:func:`sflp.solving.threshcert.certify_path`
    on its supports, the set's blinds and antes and the shipped table) and check that the roots it
    publishes are the rows of ``thresholds_exact.csv``, one for one, in order: same kind, player,
    hand, segment, polynomial and published text, and the file's interval holding the re-proved
    root.  Returns the number of segments, the re-proved
    :class:`~sflp.solving.threshcert.PathCertificate` and ``(config, low, high)`` of the manifest;
    else one DataError naming the file and the segment."""
    from sflp.charts.readback import _read
    from sflp.errors import SolveError
    from sflp.solving.threshcert import certify_path

    config, low, high = _path_of_manifest(folder)
    spath, epath = folder / SEGMENTS_FILE, folder / EXACT_FILE
    segments = parse_segments(_read(folder, SEGMENTS_FILE, MAX_BYTES, entry), spath)
    if (segments[0][0], segments[-1][1]) != (low, high):
        raise DataError(f"{spath} covers {segments[0][0]!r} to {segments[-1][1]!r} bb, not the thresholds' range "
                        f"{low!r} to {high!r} of manifest.json")
    try:
        certificate = certify_path(config, low, high, segments)
    except SolveError as exc:
        raise DataError(f"{spath}: {_segment_of(str(exc), segments)} does not re-prove: {exc}") from None
    expected = certificate_rows(certificate)
    for k, (want, got) in enumerate(zip(expected, rows), start=2):
        what = f"{epath} line {k} (segment {want[3]}, {want[0]} of {want[4]})"
        if want[:6] != got[:6] or want[8] != got[8]:
            raise DataError(f"{what}: the re-proved path has here the {want[0]} of {want[4]} of segment {want[3]} "
                            f"at {want[8]}; the file has the {got[0]} of {got[4]} of segment {got[3]} at {got[8]}")
        if not _same_root(want[5], want[6:8], got[6:8]):
            raise DataError(f"{what}: its interval does not hold the re-proved root")
    if len(expected) != len(rows):
        k = min(len(expected), len(rows))
        extra = rows[k] if len(rows) > k else expected[k]
        raise DataError(f"{epath} has {len(rows):,} rows, the re-proved path {len(expected):,}: "
                        + (f"line {k + 2} (segment {extra[3]}) is extra" if len(rows) > k
                           else f"the {extra[0]} of segment {extra[3]} at {extra[8]} is missing"))
    return len(segments), certificate, (config, low, high)


def _csv_rows(text: str, path, what: str) -> list[list[str]]:
    import csv
    import io

    try:
        return list(csv.reader(io.StringIO(text, newline="")))
    except csv.Error as exc:
        raise DataError(f"{path} is not a valid CSV file ({what}): {exc}") from None


def rederive_thresholds(path: Path, data: bytes, config, low: float, high: float, certificate) -> int:
    """Re-derive every row of ``thresholds.csv`` from the re-proved path and compare text for text.

    The thresholds the proof states (:func:`sflp.solving.thresholds.thresholds_of_certificate`,
    the derivation :func:`~sflp.solving.thresholds.compute_thresholds` itself uses) and, when the
    file has the column, the SC numbers computed again for the set's structure
    (:func:`sflp.study.sc.sc_numbers`) give the file's exact text
    (:func:`sflp.charts.threshold_rows.thresholds_csv_text`).  The header must be that text's; a
    missing, extra, repeated or misplaced row is refused naming the row, and a differing field
    naming the row, the column, both texts.  Returns the number of rows compared."""
    from sflp.charts.threshold_rows import thresholds_csv_text
    from sflp.solving.thresholds import thresholds_of_certificate

    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DataError(f"{path} is not UTF-8 text (byte {exc.start:,} is not)") from None
    got = _csv_rows(text, path, "as read")
    header = got[0] if got else []
    numbers = None
    if "sc_number" in header:
        from sflp.study.sc import sc_numbers

        numbers = sc_numbers(config)
    want = _csv_rows(thresholds_csv_text(thresholds_of_certificate(config, low, high, certificate), numbers),
                     path, "re-derived")
    if header != want[0]:
        missing = [c for c in want[0] if c not in header]
        extra = [c for c in header if c not in want[0]]
        why = (f"column {missing[0]} is missing" if missing else f"column {extra[0]} is not one of its columns"
               if extra else "its columns are out of order")
        raise DataError(f"{path}: {why}; the columns are {', '.join(want[0])}")
    want_rows, got_rows = want[1:], got[1:]
    where = {tuple(r[:2]): k for k, r in enumerate(want_rows)}
    seen: dict = {}
    present = {tuple(r[:2]) for r in got_rows}
    for k, row in enumerate(got_rows):
        line = k + 2
        key = tuple(row[:2])
        name = ",".join(key)
        if len(row) != len(header):
            raise DataError(f"{path} line {line} (row {name[:40]}): {len(row)} fields, the file has "
                            f"{len(header)} columns")
        if key not in where:
            raise DataError(f"{path} line {line}: row {name[:40]} is not a row of the thresholds (player sb or bb, "
                            "a class name)")
        if key in seen:
            raise DataError(f"{path} line {line}: row {name} is given twice (first on line {seen[key]})")
        seen[key] = line
        if where[key] != k:
            expected = ",".join(want_rows[k][:2]) if k < len(want_rows) else None
            if expected is not None and tuple(want_rows[k][:2]) not in present:
                raise DataError(f"{path}: row {expected} is missing (the re-derived table has it on line {line})")
            raise DataError(f"{path} line {line}: row {name} is out of place; the re-derived table has row {expected} "
                            "here (SB's hands in class-id order, then BB's)")
        for column, a, b in zip(header, want_rows[k], row):
            if a != b:
                raise DataError(f"{path} line {line} (row {name}): column {column} is {b!r:.60}, but the re-proved "
                                f"path gives {a!r:.60}")
    if len(got_rows) != len(want_rows):
        missing = next(",".join(r[:2]) for r in want_rows if tuple(r[:2]) not in seen)
        raise DataError(f"{path}: row {missing} is missing ({len(got_rows):,} rows, the re-derived table has "
                        f"{len(want_rows):,})")
    return len(got_rows)


@dataclass
class ThresholdsCheck:
    """What :func:`verify_thresholds` checked: all passed (else it raised)."""

    folder: str
    roots: int
    """Rows of ``thresholds_exact.csv`` (ends, breakpoints, crossings) each proven."""
    kinds: dict = field(default_factory=dict)
    """Rows by kind."""
    numbers: int = 0
    """Numbers of ``thresholds.csv`` matched to a proven root."""
    verified_manifest: bool = True
    segments: int = 0
    """Segments of ``thresholds_segments.csv`` whose path was re-proved."""
    rows: int = 0
    """Rows of ``thresholds.csv`` re-derived from the re-proved path and equal text for text."""
    float_signs: int = 0
    """Signs of the path's re-proof decided in floats with a proven error bound."""
    exact_signs: int = 0
    """Questions of the path's re-proof decided exactly, with integers (the rest)."""

    def to_dict(self) -> dict:
        return {"folder": self.folder, "ok": True, "roots": self.roots, "kinds": self.kinds,
                "thresholds_numbers": self.numbers, "thresholds_rows": self.rows, "segments": self.segments,
                "path": f"path re-proved: {self.segments:,} segments",
                "path_signs": {"float_with_proven_bound": self.float_signs, "exact_integers": self.exact_signs},
                "manifest_checked": self.verified_manifest}

    def text(self, width: int | None = None) -> str:
        """The check in words: a head line and one sentence a line; with ``width`` (the CLI's
        terminal width) each sentence is wrapped to it (a long folder name is never cut)."""
        k = self.kinds
        from sflp.charts.media.terminal import wrapped_lines

        return wrapped_lines([
            f"{self.folder}: thresholds certified.",
            f"  {self.roots:,} roots in {EXACT_FILE} checked with integers ({k.get('breakpoint', 0):,} "
            f"breakpoints, {k.get('crossing', 0):,} 0.5 crossings, {k.get('end', 0)} ends): each interval "
            "isolates one root of its polynomial, which rounds to the published 6 decimals.",
            f"  path re-proved: {self.segments:,} segments (each support an equilibrium on its segment, no root "
            f"missed, the roots those of {EXACT_FILE}), {self.float_signs:,} of its signs decided in floats with a "
            f"proven error bound and {self.exact_signs:,} questions exactly with integers.",
            f"  all {self.rows:,} rows of {THRESHOLDS_FILE} re-derived from the re-proved path and equal, text for "
            "text" + ("." if self.verified_manifest else " (manifest not checked: verify=False)."),
        ], width)


def _entries(folder: Path) -> dict:
    """The manifest's entries of the three files, after checking the folder against it
    (:func:`sflp.output.manifest.checked_entries`, the check of every reader); else DataError."""
    from sflp.output.manifest import checked_entries

    return checked_entries(folder, (EXACT_FILE, SEGMENTS_FILE, THRESHOLDS_FILE),
                           "the set has no certified thresholds (a single stack, or made before sflp wrote the "
                           "certificate)", kinds=("chart-set",),
                           reader="sflp verify-thresholds", reads=("chart-set", "structure-atlas"))


def verify_thresholds(folder, *, verify: bool = True) -> ThresholdsCheck:
    """Re-check a chart set's thresholds from ``thresholds_exact.csv`` and re-prove its path from
    ``thresholds_segments.csv``, with integers.

    With ``verify`` (the default) the three files must match ``manifest.json`` (size and SHA-256,
    the bytes parsed hashed again).  Each row's interval must isolate exactly one root of its
    polynomial (opposite signs at ``lo``, ``hi`` and one root between them) that rounds to its
    ``published`` text; the path of ``thresholds_segments.csv`` must re-prove
    (:func:`reprove_path`: each support an equilibrium on its segment, no root missed) and publish
    exactly the rows of the file; and every number of ``thresholds.csv`` must be a published text.
    Returns a :class:`ThresholdsCheck`; any failure is one :class:`~sflp.errors.DataError`
    (a bad ``folder`` a :class:`~sflp.errors.ConfigError`)."""
    import os

    from sflp.charts.readback import _read

    if isinstance(folder, bool) or not isinstance(folder, (str, os.PathLike)):
        raise ArgumentTypeError(f"verify_thresholds needs a folder path, not {type(folder).__name__}")
    if not isinstance(verify, bool):
        raise ConfigError(f"verify={verify!r:.40} must be True or False")
    path = Path(folder)
    if not path.is_dir():
        raise ConfigError(f"{path} is not a folder; give the folder of a chart set (sflp chart --out)")
    entries = _entries(path) if verify else {}
    if not verify and not (path / EXACT_FILE).exists():
        raise DataError(f"{path} has no {EXACT_FILE}: the set has no certified thresholds")
    exact = _read(path, EXACT_FILE, MAX_BYTES, entries.get(EXACT_FILE))
    rows = parse_exact(exact, path / EXACT_FILE)
    published = set()
    kinds: dict = {}
    for k, row in enumerate(rows, start=2):
        problem = row_problem(row)
        if problem is not None:
            raise DataError(f"{path / EXACT_FILE} line {k} ({row[0]} of {row[4]}): {problem}")
        kinds[row[0]] = kinds.get(row[0], 0) + 1
        published.add(Fraction(row[8]))
    if not verify and not (path / SEGMENTS_FILE).exists():
        raise DataError(f"{path} has no {SEGMENTS_FILE}: the path cannot be re-proved (a set made before sflp "
                        "wrote it: make it again)")
    n_segments, certificate, (config, low, high) = reprove_path(path, rows, entries.get(SEGMENTS_FILE))
    tpath = path / THRESHOLDS_FILE
    data = _read(path, THRESHOLDS_FILE, MAX_BYTES, entries.get(THRESHOLDS_FILE))
    numbers = _numbers_of_thresholds(data, tpath)
    for line, text in numbers:
        try:
            value = Fraction(text)
        except (ValueError, ZeroDivisionError):
            raise DataError(f"{tpath} line {line}: {text[:40]!r} is not a number") from None
        if value not in published:
            raise DataError(f"{tpath} line {line}: {text} is not the published value of any root of {EXACT_FILE}")
    table_rows = rederive_thresholds(tpath, data, config, low, high, certificate)
    return ThresholdsCheck(str(path), len(rows), kinds, len(numbers), verify, n_segments, table_rows,
                           certificate.float_checks, certificate.exact_checks)

