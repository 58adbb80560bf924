"""thresholds_exact.csv and `sflp verify-thresholds`: a fresh set verifies, every tampering fails.

The good set is also checked here without rootcert: each row's polynomial is evaluated with
Fractions at its interval's ends (opposite signs), and each linear row's root ``-c0/c1`` is
rounded with Python's own exact rounding and compared to the published text."""

from __future__ import annotations

import csv
import json
import shutil
from fractions import Fraction
from pathlib import Path

import pytest

import sflp
from sflp.charts.proof import COLUMNS, verify_thresholds
from sflp.cli.main import main
from sflp.errors import DataError
from tests.test_read_ranges import resign

EXACT = "thresholds_exact.csv"
SEGMENTS = "thresholds_segments.csv"


@pytest.fixture(scope="module")
def chart_set(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("vt") / "set"
    sflp.chart(sflp.GameConfig(stack=1), [1 + 0.5 * k for k in range(9)], out=out, formats=["csv"], workers=0,
               grid_stacks=[3])
    return out


@pytest.fixture
def copy(chart_set, tmp_path) -> Path:
    out = tmp_path / "copy"
    shutil.copytree(chart_set, out)
    return out


def rows_of(folder: Path) -> list[dict]:
    with open(folder / EXACT, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def write_rows(folder: Path, rows: list[dict]) -> None:
    text = ",".join(COLUMNS) + "\n" + "".join(",".join(r[c] for c in COLUMNS) + "\n" for r in rows)
    (folder / EXACT).write_text(text, encoding="utf-8")


def value(coeffs: list[int], x: Fraction) -> Fraction:
    return sum((c * x**k for k, c in enumerate(coeffs)), Fraction(0))


def first(rows: list[dict], kind: str, degree: int | None = None) -> int:
    return next(k for k, r in enumerate(rows)
                if r["kind"] == kind and (degree is None or len(r["coefficients"].split()) == degree + 1))


def test_a_fresh_set_verifies_and_its_rows_hold_by_independent_arithmetic(chart_set):
    check = verify_thresholds(chart_set)
    rows = rows_of(chart_set)
    assert check.roots == len(rows) and check.kinds["end"] == 2 and check.kinds["breakpoint"] > 10
    assert check.numbers > 338  # every hand's intervals are traced to a row
    manifest = json.loads((chart_set / "manifest.json").read_text())
    assert EXACT in {e["name"] for e in manifest["files"]}
    assert (rows[0]["published"], rows[-1]["published"]) == ("1.000000", "5.000000")
    linear = 0
    for r in rows[1:-1]:
        c = [int(t) for t in r["coefficients"].split()]
        lo, hi = Fraction(r["lo"]), Fraction(r["hi"])
        assert lo < hi and value(c, lo) * value(c, hi) < 0
        if len(c) == 2:
            linear += 1
            root = Fraction(-c[0], c[1])
            assert lo < root < hi
            m = round(root * 10**6)  # exact, ties to even
            assert r["published"] == f"{m // 10**6}.{m % 10**6:06d}"
        if r["player"]:
            assert r["polynomial"].endswith(" " + r["hand"])
    assert linear > 0
    stacks = [Fraction(r["published"]) for r in rows]
    assert stacks == sorted(stacks)


def test_the_cli_prints_a_summary_and_json(chart_set, capsys):
    assert main(["verify-thresholds", str(chart_set)]) == 0
    out = capsys.readouterr().out
    n = len(segment_lines(chart_set)) - 1
    assert "thresholds certified" in out and f"path re-proved: {n} segments" in out
    assert len(out.splitlines()) > 1 and max(map(len, out.splitlines())) <= 80  # wrapped (issue 52: 559 columns)
    assert main(["verify-thresholds", str(chart_set), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is True and report["roots"] == len(rows_of(chart_set))
    assert report["segments"] == n and report["path"] == f"path re-proved: {n} segments"


def tamper_coefficient(rows):
    k = first(rows, "breakpoint", 1)
    c = rows[k]["coefficients"].split()
    rows[k]["coefficients"] = " ".join([str(2 * int(c[0])), c[1]])  # the root doubles: far from the interval
    return "no sign change"


def tamper_interval(rows):
    k = first(rows, "breakpoint", 1)
    for end in ("lo", "hi"):
        x = Fraction(rows[k][end]) + 1
        rows[k][end] = f"{x.numerator}/{x.denominator}"
    return "no sign change"


def tamper_published(rows):
    k = first(rows, "crossing")
    m = int(rows[k]["published"].replace(".", "")) + 1
    rows[k]["published"] = f"{m // 10**6}.{m % 10**6:06d}"
    return "its root rounds to"


def tamper_end(rows):
    rows[0]["coefficients"] = "-2 1"  # the range's end 1 is no root of x - 2
    return "an end must be lo == hi, a root of its polynomial"


@pytest.mark.parametrize("tamper", [tamper_coefficient, tamper_interval, tamper_published, tamper_end])
def test_a_tampered_certificate_fails(copy, tamper, capsys):
    rows = rows_of(copy)
    why = tamper(rows)
    write_rows(copy, rows)
    with pytest.raises(DataError, match="manifest"):
        verify_thresholds(copy)
    with pytest.raises(DataError, match=why):
        verify_thresholds(copy, verify=False)
    resign(copy)
    with pytest.raises(DataError, match=why):
        verify_thresholds(copy)
    assert main(["verify-thresholds", str(copy)]) != 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and why in err


def test_an_interval_with_three_roots_fails(copy):
    rows = rows_of(copy)
    k = first(rows, "breakpoint", 1)
    # (S - 1)(S - 2)(S - 3) on (0, 4): opposite signs at the ends, but three roots between them
    rows[k].update(coefficients="-6 11 -6 1", lo="0/1", hi="4/1")
    write_rows(copy, rows)
    with pytest.raises(DataError, match="holds 3 roots of the polynomial, not one"):
        verify_thresholds(copy, verify=False)


def test_a_changed_thresholds_csv_value_fails(copy):
    path = copy / "thresholds.csv"
    text = path.read_text(encoding="utf-8")
    published = {r["published"] for r in rows_of(copy)}
    old = next(p for p in sorted(published) if p not in ("1.000000", "5.000000") and p in text)
    m = int(old.replace(".", "")) + 1
    new = f"{m // 10**6}.{m % 10**6:06d}"
    assert new not in published
    path.write_text(text.replace(old, new), encoding="utf-8")
    with pytest.raises(DataError, match="manifest"):
        verify_thresholds(copy)
    with pytest.raises(DataError, match="not the published value"):
        verify_thresholds(copy, verify=False)
    resign(copy)
    with pytest.raises(DataError, match="not the published value"):
        verify_thresholds(copy)


@pytest.mark.parametrize("data", [
    b"", b"\xff\xfe", b"kind,player\n", b"x\0y\n",
    ",".join(COLUMNS).encode() + b"\nend,,,0,end,-1 1,1/1,1/1,1.000000",  # no final line end
    ",".join(COLUMNS).encode() + b"\nend,,,0,end,-1 1,1/0,1/1,1.000000\nend,,,0,end,-5 1,5/1,5/1,5.000000\n",
    ",".join(COLUMNS).encode() + b"\nend,,,0,end,-1 " + b"9" * 30000 + b",1/1,1/1,1.000000\n",
    ",".join(COLUMNS).encode() + b"\nend,sb,ZZ,0,end,-1 1,1/1,1/1,1.000000\n",
    ",".join(COLUMNS).encode() + b"\nbreakpoint,,,0,Q,0,1/1,2/1,1.000000\nend,,,0,end,-5 1,5/1,5/1,5.000000\n",
])
def test_hostile_content_is_one_data_error(copy, data):
    (copy / EXACT).write_bytes(data)
    with pytest.raises(DataError):
        verify_thresholds(copy, verify=False)


def test_a_set_without_the_certificate_is_refused(copy, capsys):
    (copy / EXACT).unlink()
    with pytest.raises(DataError, match="manifest"):
        verify_thresholds(copy)
    with pytest.raises(DataError, match="no certified thresholds"):
        verify_thresholds(copy, verify=False)
    assert main(["verify-thresholds", str(copy / "nowhere")]) != 0
    assert capsys.readouterr().err.count("\n") == 1


# ---------------------------------------------------------------- the path re-proved from the supports


def segment_lines(folder: Path) -> list[str]:
    return (folder / SEGMENTS).read_text(encoding="ascii").splitlines()


def write_segments(folder: Path, lines: list[str]) -> None:
    (folder / SEGMENTS).write_text("\n".join(lines) + "\n", encoding="ascii")


def test_the_segments_file_is_the_path_with_its_supports(chart_set):
    """One row per segment, contiguous over the range, its ends the published roots, and one
    more segment than breakpoints; the letters as margins_supports.csv writes them."""
    lines = segment_lines(chart_set)
    assert lines[0] == "segment,stack_from,stack_to,sb,bb"
    rows = [line.split(",") for line in lines[1:]]
    exact = rows_of(chart_set)
    assert len(rows) == 1 + sum(r["kind"] == "breakpoint" for r in exact)
    assert [int(r[0]) for r in rows] == list(range(len(rows)))
    assert (float(rows[0][1]), float(rows[-1][2])) == (1.0, 5.0)
    assert all(a[2] == b[1] for a, b in zip(rows, rows[1:]))
    breakpoints = [r["published"] for r in exact if r["kind"] == "breakpoint"]
    assert [f"{float(r[2]):.6f}" for r in rows[:-1]] == breakpoints
    for r in rows:
        assert len(r[3]) == len(r[4]) == 169 and set(r[3] + r[4]) <= set("01m")
    assert set(rows[0][3]) == {"1"}  # at 1 bb SB shoves every hand


def flip_a_pure_letter(lines: list[str]) -> tuple[list[str], int]:
    """SB's first always-shoved hand of a middle segment marked never shoved."""
    j = len(lines) // 2
    seg, a, b, sb, bb = lines[j].split(",")
    k = sb.index("1")
    lines[j] = ",".join((seg, a, b, sb[:k] + "0" + sb[k + 1:], bb))
    return lines, int(seg)


def test_a_changed_support_letter_fails(copy, capsys):
    lines, seg = flip_a_pure_letter(segment_lines(copy))
    write_segments(copy, lines)
    with pytest.raises(DataError, match="manifest"):
        verify_thresholds(copy)
    why = f"{SEGMENTS}: segment {seg} does not re-prove"
    with pytest.raises(DataError, match=why):
        verify_thresholds(copy, verify=False)
    resign(copy)
    with pytest.raises(DataError, match=why):
        verify_thresholds(copy)
    assert main(["verify-thresholds", str(copy)]) != 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and why in err


def test_a_dropped_breakpoint_row_fails(copy):
    """The row stays provable on its own (every other check passes); only the re-proved path misses it."""
    rows = rows_of(copy)
    k = first(rows, "breakpoint")
    seg = rows[k]["segment"]
    del rows[k]
    write_rows(copy, rows)
    resign(copy)
    with pytest.raises(DataError, match=rf"{EXACT} line {k + 2} \(segment {seg}, breakpoint of"):
        verify_thresholds(copy)


def test_an_extra_row_fails(copy):
    rows = rows_of(copy)
    rows.insert(-1, dict(rows[-2]))  # a copy of the last breakpoint or crossing: a valid row on its own
    write_rows(copy, rows)
    with pytest.raises(DataError, match=f"{EXACT} line {len(rows)} "):
        verify_thresholds(copy, verify=False)


def test_a_dropped_segment_row_fails(copy):
    lines = segment_lines(copy)
    j = len(lines) // 2
    del lines[j]
    write_segments(copy, lines)
    resign(copy)
    with pytest.raises(DataError, match=f"{SEGMENTS} line {j + 1}: segment '{j}', expected {j - 1} "):
        verify_thresholds(copy)


def test_a_segment_stretched_over_its_neighbour_misses_a_root(copy):
    """Drop a segment and let its neighbour cover it, renumbered: a well-formed path whose proof
    must fail, since the neighbour's support is no equilibrium on the dropped stretch (or a
    polynomial vanishes inside it: the missed breakpoint)."""
    lines = segment_lines(copy)
    j = len(lines) // 2  # line j is segment j - 1
    seg, a, _, sb, bb = lines[j - 1].split(",")
    _, _, b, _, _ = lines[j].split(",")
    lines[j - 1] = ",".join((seg, a, b, sb, bb))
    del lines[j]
    for k in range(j, len(lines)):
        f = lines[k].split(",")
        lines[k] = ",".join((str(k - 1), *f[1:]))
    write_segments(copy, lines)
    resign(copy)
    with pytest.raises(DataError, match=rf"{SEGMENTS}: (segment|segments) [0-9]+( and [0-9]+)? does not re-prove"):
        verify_thresholds(copy)


def test_a_set_without_the_segments_is_refused(copy):
    (copy / SEGMENTS).unlink()
    with pytest.raises(DataError, match="manifest"):
        verify_thresholds(copy)
    with pytest.raises(DataError, match=f"no {SEGMENTS}"):
        verify_thresholds(copy, verify=False)


@pytest.mark.parametrize("data", [
    b"", b"\xff\n", b"segment,stack_from\n", b"segment,stack_from,stack_to,sb,bb\n",
    b"segment,stack_from,stack_to,sb,bb\n0,1.0,5.0," + b"1" * 169 + b"," + b"x" * 169 + b"\n",
    b"segment,stack_from,stack_to,sb,bb\n0,1.0,nan," + b"1" * 169 + b"," + b"1" * 169 + b"\n",
    b"segment,stack_from,stack_to,sb,bb\n0,2.0,5.0," + b"1" * 169 + b"," + b"1" * 169 + b"\n",
])
def test_hostile_segments_are_one_data_error(copy, data):
    (copy / SEGMENTS).write_bytes(data)
    with pytest.raises(DataError):
        verify_thresholds(copy, verify=False)


# ---------------------------------------------------------------- checks no other check backs up (issue 40, point 2)


def test_an_extra_end_row_after_the_last_fails(copy):
    """Kills the re-proof without its row-count check (mutant A10): a copy of the last row (the
    range's end, valid on its own) appended after it.  Every row the re-proved path publishes is
    matched in order, so only the count sees the extra one."""
    rows = rows_of(copy)
    rows.append(dict(rows[-1]))
    write_rows(copy, rows)
    with pytest.raises(DataError, match=rf"{EXACT} has {len(rows)} rows, the re-proved path {len(rows) - 1}: "
                                        rf"line {len(rows) + 1} \(segment [0-9]+\) is extra"):
        verify_thresholds(copy, verify=False)


def test_the_re_proof_checks_each_rows_interval_holds_its_root(copy):
    """reprove_path on rows whose one breakpoint interval was moved off its root (the row check of
    verify_thresholds would refuse it first; the re-proof refuses it on its own too)."""
    from sflp.charts.proof import parse_exact, reprove_path

    rows = parse_exact((copy / EXACT).read_bytes(), copy / EXACT)
    k = next(i for i, r in enumerate(rows) if r[0] == "breakpoint")
    lo, hi = rows[k][6], rows[k][7]
    moved = (*rows[k][:6], hi, 2 * hi - lo, rows[k][8])
    with pytest.raises(DataError, match=rf"{EXACT} line {k + 2} .*: its interval does not hold the re-proved root"):
        reprove_path(copy, [*rows[:k], moved, *rows[k + 1:]], None)
    m = int(rows[k][8].replace(".", "")) + 1
    published = (*rows[k][:8], f"{m // 10**6}.{m % 10**6:06d}")  # the next 6-decimal text
    with pytest.raises(DataError, match=rf"{EXACT} line {k + 2} .*: the re-proved path has here the breakpoint"):
        reprove_path(copy, [*rows[:k], published, *rows[k + 1:]], None)


def test_a_row_moved_to_another_polynomial_or_segment_fails(copy):
    """A crossing's row given another hand's name, or another segment, its polynomial, interval
    and published text unchanged: each row on its own still holds, only the re-proof's match of
    names and segments sees it."""
    rows = rows_of(copy)
    k = first(rows, "crossing")
    hand = rows[k]["hand"]
    other = "72o" if hand != "72o" else "AA"
    for edit in ({"hand": other, "polynomial": rows[k]["polynomial"].replace(hand, other)},
                 {"segment": str(int(rows[k]["segment"]) + 1)}):
        changed = [dict(r) for r in rows]
        changed[k].update(edit)
        write_rows(copy, changed)
        with pytest.raises(DataError, match=rf"{EXACT} line {k + 2} .*: the re-proved path has here the crossing"):
            verify_thresholds(copy, verify=False)


def test_a_segment_that_does_not_end_where_the_next_begins_fails(copy):
    """The proof reads each segment's start only: a stack_to edited away from the next stack_from
    (or, for the last segment, from the thresholds' range) is refused by the file's own checks."""
    lines = segment_lines(copy)
    j = len(lines) // 2
    seg, a, b, sb, bb = lines[j].split(",")
    lines[j] = ",".join((seg, a, repr(float(b) + 1e-9), sb, bb))
    write_segments(copy, lines)
    with pytest.raises(DataError, match="the segments must cover the range without a gap"):
        verify_thresholds(copy, verify=False)
    lines = segment_lines(copy)
    lines[j] = ",".join((seg, a, b, sb, bb))
    seg, a, b, sb, bb = lines[-1].split(",")
    lines[-1] = ",".join((seg, a, "5.5", sb, bb))
    write_segments(copy, lines)
    with pytest.raises(DataError, match=r"covers 1.0 to 5.5 bb, not the thresholds' range 1.0 to 5.0"):
        verify_thresholds(copy, verify=False)
