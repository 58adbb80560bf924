"""A mutation pass over the proof code: named mutations of ``ddeval``, ``ddkernel``, ``segment``,
``certify``, the thresholds' certificate (``threshcert``, ``rootcert``), its re-check
(``sflp/charts/proof.py``) and the line paths (along an ante or a direction), each run against
the tests that should catch it.

A mutant is a ``(name, file, old text, new text)`` patch: a proof made weaker (a sign check
dropped, a bound made smaller, a term left out of a bound) or an arithmetic step made less exact.
For each mutant the script copies the checkout (the files git tracks, without ``reports/``) to a
temporary folder, applies the patch *there*, and runs the fast tests of the mutated module (or
the mutant's own list: the line paths' mutants live in several modules) on that copy, on one
process, with ``PYTHONPATH`` pointing at the copy (checked: ``sflp`` must be imported from it,
not from an editable install) and a fresh ``SFLP_CACHE_DIR`` (numba compiles the mutated
kernels instead of loading the cached ones).  The checkout itself is never touched.

The unmutated copy runs first and must pass.  A mutant is *killed* when a test fails (or the run
times out), and *survives* when every test passes; pytest failing to run at all stops the pass.
Every survivor needs a reason in ``docs/DEVELOPMENT.md`` ("Mutation testing of the proofs"): an
equivalent mutant, a guard that real inputs never reach, or a gap closed by a test.

    python tools/mutants.py                 # every mutant (15 minutes on a 2-core machine at load 1 to 2)
    python tools/mutants.py --list
    python tools/mutants.py --only segment.proven_no_folded_sb ddeval.horner_bound_div64
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PROOF_TESTS = ["tests/test_proof_mutants.py", "tests/test_ddeval.py", "tests/test_segment.py"]
"""Fastest and sharpest first: pytest stops at the first failure (``-x``)."""

CERT_TESTS = ["tests/test_proof_mutants_cert.py", "sflp/solving/threshcert.py", "tests/test_threshcert.py",
              "tests/test_line_thresholds.py", "sflp/solving/thresholds.py", "tests/test_thresholds.py"]
"""The certificate's adversarial tests, the module's doctests, then the real paths (stack, ante,
direction)."""

LINE_TESTS = ["sflp/core/payoff.py", "tests/test_line_thresholds.py", "tests/test_proof_mutants_cert.py"]
"""The line paths' mutants (in several modules): the payoff's doctests, the ante, BB-ante and
direction paths against single exact solves."""

TESTS = {
    "sflp/solving/ddeval.py": PROOF_TESTS,
    "sflp/solving/ddkernel.py": PROOF_TESTS,
    "sflp/solving/segment.py": PROOF_TESTS,
    "sflp/solving/certify.py": ["tests/test_certify.py",
                                "tests/test_proof_mutants.py::test_certify_names_a_frequency_outside_0_1_that_the_"
                                "segment_route_finds", "tests/test_segment.py"],
    "sflp/solving/threshcert.py": CERT_TESTS,
    "sflp/solving/rootcert.py": ["tests/test_proof_mutants_cert.py", "sflp/solving/rootcert.py",
                                 "tests/test_threshcert.py", "tests/test_verify_thresholds.py"],
    "sflp/charts/proof.py": ["tests/test_verify_thresholds.py", "sflp/charts/proof.py", "tests/test_rederive.py"],
}


@dataclass(frozen=True)
class Mutant:
    name: str
    file: str
    old: str
    new: str
    count: int = 1  # how many times ``old`` occurs (every occurrence is replaced)
    tests: tuple = ()  # the tests to run (default: those of ``file`` in TESTS)

    def test_files(self) -> list[str]:
        return list(self.tests) or TESTS[self.file]


DD, KERNEL, SEG, CERT = ("sflp/solving/ddeval.py", "sflp/solving/ddkernel.py", "sflp/solving/segment.py",
                         "sflp/solving/certify.py")
THRESH, ROOT_, PROOF = "sflp/solving/threshcert.py", "sflp/solving/rootcert.py", "sflp/charts/proof.py"
PAYOFF, EXACT, PIECE, THRESHOLDS, GAME = ("sflp/core/payoff.py", "sflp/solving/exact.py", "sflp/solving/piece.py",
                                          "sflp/solving/thresholds.py", "sflp/core/game.py")
LINE = tuple(LINE_TESTS)

MUTANTS = [
    # ---- ddeval: the bounds
    Mutant("ddeval.horner_bound_div64", DD, "U2 * 1.01) + 2.0**-1000", "U2 * 1.01) / 64 + 2.0**-1000"),
    Mutant("ddeval.horner_bound_div32", DD, "U2 * 1.01) + 2.0**-1000", "U2 * 1.01) / 32 + 2.0**-1000"),
    Mutant("ddeval.horner_bound_div16", DD, "U2 * 1.01) + 2.0**-1000", "U2 * 1.01) / 16 + 2.0**-1000"),
    Mutant("ddeval.horner_bound_linear_in_d", DD, "((8 * (d + 1) ** 2 + 8) * U2", "((8 * (d + 1) + 8) * U2"),
    Mutant("ddeval.sign_ignores_bound", DD, "(decided & (h > bound)).astype(np.int8) - (decided & (h < -bound))",
           "(decided & (h > 0)).astype(np.int8) - (decided & (h < 0))"),
    Mutant("ddeval.ratio_without_e_n", DD, "slack = (e_n + e_d + 32 * U2)", "slack = (e_d + 32 * U2)"),
    Mutant("ddeval.ratio_without_e_d", DD, "slack = (e_n + e_d + 32 * U2)", "slack = (e_n + 32 * U2)"),
    Mutant("ddeval.ratio_without_32u2", DD, "slack = (e_n + e_d + 32 * U2)", "slack = (e_n + e_d)"),
    Mutant("ddeval.ratio_without_low_part_slack", DD, "+ 4 * _U * np.abs(rl)\n", "\n"),
    Mutant("ddeval.ratio_filter_2_0", DD, "(np.abs(nh) > nb * 2.0**20) & (np.abs(dh) > db * 2.0**20)",
           "(np.abs(nh) > nb) & (np.abs(dh) > db)"),
    Mutant("ddeval.rounds_to_one_end", DD, "return ((rh + (rl + slack)) == rh) & ((rh + (rl - slack)) == rh)",
           "return (rh + (rl + slack)) == rh"),
    Mutant("ddeval.ratio_no_underflow_guard", DD, "& (np.abs(rh) >= 2.0**-900)", ""),
    # ---- ddeval: the arithmetic
    Mutant("ddeval.to_dd_drops_low_part", DD, "return hi, float(value - int(hi))", "return hi, 0.0"),
    Mutant("ddeval.scaled_drops_low_part", DD, "math.ldexp(float(c - int(h)), -top)", "0.0"),
    Mutant("ddeval.two_prod_drops_error", DD, "return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl",
           "return p, 0.0 * p"),
    Mutant("ddeval.horner_drops_low_coefficients", DD, "err = err * x + (pi + sigma + cl[:, t:t + 1])",
           "err = err * x + (pi + sigma)"),
    Mutant("ddeval.dd_div_no_correction", DD, "tl = dh / yh", "tl = 0.0 * dh"),
    # ---- ddkernel (the compiled route)
    Mutant("ddkernel.horner_bound_div64", KERNEL, "gamma = (8 * (d + 1) ** 2 + 8) * _U2 * 1.01",
           "gamma = (8 * (d + 1) ** 2 + 8) * _U2 * 1.01 / 64"),
    Mutant("ddkernel.sign_ignores_bound", KERNEL,
           "S[r, s] = (decided & (h > bound)) - (decided & (h < -bound))", "S[r, s] = (h > 0) - (h < 0)"),
    Mutant("ddkernel.ratio_without_e_n", KERNEL, "slack = (e_n + e_d + 32 * _U2)", "slack = (e_d + 32 * _U2)"),
    Mutant("ddkernel.ratio_unfiltered", KERNEL, "& ((rh + (rl + slack)) == rh) & ((rh + (rl - slack)) == rh)",
           ""),
    Mutant("ddkernel.decided_always", KERNEL,  # D3: the NaN/overflow guard
           "decided = (abs(h) < np.inf) & (bound < np.inf)", "decided = True"),
    Mutant("ddkernel.dd_rows_no_magnitudes", KERNEL, "total += abs(a_hi[g, r, i]) * abs(ph)", "total += 0.0"),
    # ---- segment: the certificate's signs, the rows' bound, the identities
    Mutant("segment.proven_no_folded_sb", SEG, "(ms[self.pure_sb] > 0).all(axis=0) & (ms[folded_sb] < 0).all(axis=0)",
           "(ms[self.pure_sb] > 0).all(axis=0)"),
    Mutant("segment.proven_no_pure_sb", SEG, "(ms[self.pure_sb] > 0).all(axis=0) & (ms[folded_sb] < 0).all(axis=0)",
           "(ms[folded_sb] < 0).all(axis=0)"),
    Mutant("segment.proven_no_folded_bb", SEG, "(cs[self.pure_bb] < 0).all(axis=0) & (cs[folded_bb] > 0).all(axis=0)",
           "(cs[self.pure_bb] < 0).all(axis=0)"),
    Mutant("segment.proven_no_pure_bb", SEG, "(cs[self.pure_bb] < 0).all(axis=0) & (cs[folded_bb] > 0).all(axis=0)",
           "(cs[folded_bb] > 0).all(axis=0)"),
    Mutant("segment.proven_no_frequencies", SEG, "good = (sQ != 0) & (sign[1:1 + 4 * k] == sQ).all(axis=0)",
           "good = sQ != 0"),
    Mutant("segment.proven_no_reach", SEG, "good &= (sign[iR:iR + n][self.mixed_bb] * sQ > 0).all(axis=0)",
           "pass"),
    Mutant("segment.dd_rows_no_magnitudes", SEG, "return hi, lo, np.abs(hi) + mag * 1.01",
           "return hi, lo, np.abs(hi)", count=2),
    Mutant("segment.dd_rows_no_product_error", SEG, "hi, lo = dd_mul(a_hi[..., None], a_lo[..., None], p_hi, p_lo)",
           "hi, lo = a_hi[..., None] * p_hi, 0.0 * p_lo"),
    Mutant("segment.block_skips_mixed_identity", SEG,
           'if self._rows("M", self.sm).any() or self._rows("Cn", self.bm).any():', "if False:"),
    Mutant("segment.block_skips_value_identity", SEG,
           "if any(DEALS * int(a) - DEALS * int(b) - gs * c for a, b, c in zip(self.M_ps, self.Cn_pb, self.rx)):",
           "if False:"),
    Mutant("segment.block_ignores_float_exactness", SEG,
           "if float(qc) ** d < 2.0**53 and x.max() < 2.0**53:", "if True:"),
    Mutant("segment.solution_no_mixed_zero", SEG, "and (m_sign[self.mixed_sb] == 0).all()):", "):"),
    Mutant("segment.solution_no_value_check", SEG, "if bb_br != value:", "if False:"),
    # ---- certify (the exact route)
    Mutant("certify.frequencies_unchecked", CERT, "if not 0 <= v <= 1:", "if False:"),
    Mutant("certify.sb_folded_unchecked", CERT, "(x_pos & (m_num < 0)) | (x_below_1 & (m_num > 0))",
           "(x_pos & (m_num < 0))"),
    Mutant("certify.bb_folded_unchecked", CERT, "(y_pos & (c_num > 0)) | (y_below_1 & (c_num < 0))",
           "(y_pos & (c_num > 0))"),
    Mutant("certify.exploitability_unchecked", CERT, "if expl != 0 or fig.value != fig.sb_br:", "if False:"),
    Mutant("certify.sb_pushed_unchecked", CERT, "(x_pos & (m_num < 0)) | (x_below_1 & (m_num > 0))",
           "(x_below_1 & (m_num > 0))"),
    Mutant("certify.bb_called_unchecked", CERT, "(y_pos & (c_num > 0)) | (y_below_1 & (c_num < 0))",
           "(y_below_1 & (c_num < 0))"),
    Mutant("certify.frequency_below_0_unchecked", CERT, "if not 0 <= v <= 1:", "if not v <= 1:"),
    Mutant("certify.frequency_above_1_unchecked", CERT, "if not 0 <= v <= 1:", "if not 0 <= v:"),
    Mutant("certify.inconsistent_system_accepted", CERT, "            if bad is not None:\n",
           "            if False:\n"),
    Mutant("certify.level_unchecked", CERT, "if solution.level != game.level:", "if False:"),
    Mutant("certify.config_unchecked", CERT, "if solution.config != game.config:", "if False:"),
    Mutant("certify.nonfinite_accepted", CERT, "if not np.all(np.isfinite(s)):", "if False:"),
    # ---- threshcert: the float sign filter (issue 40: A1, A2, and point 3's bound)
    Mutant("threshcert.float_bound_without_ce", THRESH,  # A1
           "bound = 2.0 * ((d + 3) * _U * (np.abs(cf) @ size) + ce @ size) + 1e-300",
           "bound = 2.0 * ((d + 3) * _U * (np.abs(cf) @ size)) + 1e-300"),
    Mutant("threshcert.float_bound_times_5e-7", THRESH,  # A2
           "bound = 2.0 * ((d + 3) * _U * (np.abs(cf) @ size) + ce @ size) + 1e-300",
           "bound = 5e-7 * (2.0 * ((d + 3) * _U * (np.abs(cf) @ size) + ce @ size) + 1e-300)"),
    Mutant("threshcert.float_bound_without_rounding_term", THRESH,
           "bound = 2.0 * ((d + 3) * _U * (np.abs(cf) @ size) + ce @ size) + 1e-300",
           "bound = 2.0 * (ce @ size) + 1e-300"),
    Mutant("threshcert.float_bound_signed_T", THRESH, "size = np.abs(Tf)", "size = Tf"),  # the bound before point 3
    Mutant("threshcert.to_float_no_error", THRESH, "return cf, 2 * _U * np.abs(cf)", "return cf, 0.0 * np.abs(cf)"),
    # ---- threshcert: the proof's steps
    Mutant("threshcert.only_root_skipped", THRESH,  # A3
           "if not _only_root(E, list(root.poly), root.lo, root.hi):", "if False:"),
    Mutant("threshcert.only_root_no_gcd_sign_change", THRESH,
           "if len(g) < 2 or rc.sign_at(g, lo) * rc.sign_at(g, hi) >= 0:", "if len(g) < 2:"),
    Mutant("threshcert.only_root_rest_unchecked", THRESH,
           "return bool(rest) and (len(rest) == 1 or rc.no_root_closed(rest, lo, hi))", "return bool(rest)"),
    Mutant("threshcert.intervals_disjoint_unchecked", THRESH, "if not ends[j].hi < ends[j + 1].lo:", "if False:"),  # A8
    Mutant("threshcert.breakpoint_sign_change_only", THRESH, "if rc.is_isolating(P, lo, hi):",
           "if rc.sign_at(P, lo) * rc.sign_at(P, hi) < 0:"),
    Mutant("threshcert.exact_sign_closed_ends_open", THRESH,
           "if (sa == 0 and not open_a) or (sb == 0 and not open_b):", "if False:"),
    Mutant("threshcert.exact_sign_no_root_count", THRESH,
           "if rc.variations(rc.moebius(p, a, b)) and rc.count_roots(p, a, b):", "if False:"),
    Mutant("threshcert.gap_signs_unchecked", THRESH, "bad = np.flatnonzero((sr.req != 0) & (signs * sQ != sr.req))",
           "bad = np.flatnonzero((sr.req != 0) & (signs == 0))"),
    Mutant("threshcert.mixed_identity_unchecked", THRESH,
           'if seg._rows("M", seg.sm).any() or seg._rows("Cn", seg.bm).any():', "if False:"),
    Mutant("threshcert.crossing_sign_ignores_Q", THRESH, "piece_signs.append(s_left * sQ)",
           "piece_signs.append(s_left)"),
    Mutant("threshcert.tangency_kept", THRESH, "if s != keep_s[-1]:", "if True:"),
    Mutant("threshcert.crossing_on_boundary_unchecked", THRESH,
           "if rc.sign_at(F, a) == 0 and not open_a or rc.sign_at(F, b) == 0 and not open_b:", "if False:"),
    Mutant("threshcert.capped_always", THRESH, "capped = bool(iv) and iv[-1][1] is cert.high", "capped = bool(iv)"),
    Mutant("threshcert.publish_unnarrowed", THRESH, "x, lo, hi = rc.narrow(poly, lo, hi)",
           "x = float((lo + hi) / 2)"),
    # ---- rootcert: exact roots
    Mutant("rootcert.is_isolating_no_descartes", ROOT_,  # A5
           "return sign_at(p, lo) * sign_at(p, hi) < 0 and variations(moebius(p, lo, hi)) == 1",
           "return sign_at(p, lo) * sign_at(p, hi) < 0"),
    Mutant("rootcert.is_isolating_no_sign_change", ROOT_,
           "return sign_at(p, lo) * sign_at(p, hi) < 0 and variations(moebius(p, lo, hi)) == 1",
           "return variations(moebius(p, lo, hi)) == 1"),
    Mutant("rootcert.is_isolating_point_unchecked", ROOT_, "return bool(trim(p)) and sign_at(p, lo) == 0",
           "return bool(trim(p))"),
    Mutant("rootcert.no_root_closed_ends_open", ROOT_, "sign_at(p, a) != 0 and sign_at(p, b) != 0 and \\\n",
           "\\\n"),
    Mutant("rootcert.no_root_closed_one_root_allowed", ROOT_,
           "(variations(moebius(p, a, b)) == 0 or count_roots(p, a, b) == 0)",
           "(variations(moebius(p, a, b)) == 0 or count_roots(p, a, b) <= 1)"),
    Mutant("rootcert.variations_counts_the_first_sign", ROOT_, "if s and last and s != last:", "if s and s != last:"),
    Mutant("rootcert.isolate_accepts_two_changes", ROOT_, "        if v == 1:\n", "        if v in (1, 2):\n"),
    Mutant("rootcert.isolate_drops_even_counts", ROOT_, "        if v == 0:\n", "        if v % 2 == 0:\n"),
    Mutant("rootcert.isolate_not_square_free", ROOT_, "    q = square_free(p)\n", "    q = trim(p)\n"),
    Mutant("rootcert.sign_at_without_denominator", ROOT_, "acc = acc * n + c * qpow", "acc = acc * n + c"),
    Mutant("rootcert.round_ties_up", ROOT_, "m = mid if mid % 2 == 0 else mid + 1", "m = mid + 1"),
    Mutant("rootcert.floor_boundary_excluded", ROOT_, "if _side(p, lo, hi, Fraction(mid, per_unit)) >= 0:",
           "if _side(p, lo, hi, Fraction(mid, per_unit)) > 0:"),
    Mutant("rootcert.side_assumes_increasing", ROOT_, "return -1 if s == sign_at(p, hi) else 1",
           "return -1 if s > 0 else 1"),
    # ---- sflp/charts/proof.py: the certificate's re-check (formerly threshexact)
    Mutant("proof.reprove_row_count_unchecked", PROOF, "if len(expected) != len(rows):", "if False:"),  # A10
    Mutant("proof.row_sign_change_unchecked", PROOF,
           "if rc.sign_at(list(poly), lo) * rc.sign_at(list(poly), hi) >= 0:", "if False:"),
    Mutant("proof.row_root_count_unchecked", PROOF, "if n != 1:", "if n == 0:"),
    Mutant("proof.row_published_unchecked", PROOF, "if text != pub:", "if False:"),
    Mutant("proof.row_end_not_a_root", PROOF, "if lo != hi or rc.sign_at(list(poly), lo) != 0:", "if lo != hi:"),
    Mutant("proof.reprove_fields_unchecked", PROOF, "if want[:6] != got[:6] or want[8] != got[8]:",
           "if want[8] != got[8]:"),
    Mutant("proof.reprove_published_unchecked", PROOF, "if want[:6] != got[:6] or want[8] != got[8]:",
           "if want[:6] != got[:6]:"),
    Mutant("proof.reprove_interval_unchecked", PROOF, "if not _same_root(want[5], want[6:8], got[6:8]):",
           "if False:"),
    Mutant("proof.rederive_field_unchecked", PROOF, "            if a != b:\n", "            if False:\n"),
    Mutant("proof.rederive_count_unchecked", PROOF, "if len(got_rows) != len(want_rows):", "if False:"),
    Mutant("proof.rederive_header_unchecked", PROOF, "if header != want[0]:", "if False:"),
    Mutant("proof.rederive_place_unchecked", PROOF, "if where[key] != k:", "if False:"),
    Mutant("proof.numbers_not_published_unchecked", PROOF, "if value not in published:", "if False:"),
    Mutant("proof.segments_range_unchecked", PROOF, "if (segments[0][0], segments[-1][1]) != (low, high):",
           "if False:"),
    Mutant("proof.segments_gap_unchecked", PROOF, "if out and out[-1][1] != a:", "if False:"),
    # ---- the line paths (along an ante or a direction): the payoffs, the exact integers, the path, the proof
    Mutant("line.payoff_starts_at_config", PAYOFF, "        ex[key] = Fraction(0)\n", "", tests=LINE),
    Mutant("line.payoff_stack_fixed", PAYOFF, 'ends.append({k: p.at(point["stack"])',
           'ends.append({k: p.at(p0["stack"])', tests=LINE),
    Mutant("line.exact_gf_slope_dropped", EXACT, 'gf_slope=slope["steal"] - slope["fold"]', "gf_slope=Fraction(0)",
           tests=LINE),
    Mutant("line.segment_slope_dropped", SEG,
           "eB = KS64[:, pb].sum(axis=1) + slope64 if self.line else KS64[:, pb].sum(axis=1)",
           "eB = KS64[:, pb].sum(axis=1)", tests=LINE),
    Mutant("line.piece_rgf_ignores_t", PIECE, "return p.r * ((p.g - p.f) + t * (p.g1 - p.f1))",
           "return p.r * (p.g - p.f)", tests=LINE),
    Mutant("line.piece_rgf_slope_dropped", PIECE, "rgf, rgf1 = _rgf(p, 0.0), p.r * (p.g1 - p.f1)",
           "rgf, rgf1 = _rgf(p, 0.0), 0.0 * p.r", tests=LINE),
    Mutant("line.isolating_width_signed", THRESH, "want = 2.0**-36 * (abs(b) or 1.0)", "want = 2.0**-36 * (b or 1.0)",
           tests=LINE),
    Mutant("line.direction_starts_at_low", THRESHOLDS,
           "start = config  # a direction's line is config + t d: its p0 is config itself", "pass", tests=LINE),
    Mutant("line.check_game_fixed_fold_and_steal", THRESHOLDS, "p.f + t * p.f1, p.g + t * p.g1", "p.f, p.g",
           tests=LINE),
    Mutant("line.with_axis_direction_ignores_t", THRESHOLDS, "float(v + t * d[k])", "float(v)", tests=LINE),
    Mutant("line.negative_ante_allowed", THRESHOLDS, "low=0 if axis else None", "low=None", tests=LINE),
    Mutant("line.direction_size_unchecked", THRESHOLDS,
           "if max(sizes) > 1000 or min(sizes) < Fraction(1, 1000):", "if max(sizes) > 1000:", tests=LINE),
    Mutant("line.end_pot_unchecked", THRESHOLDS, "if unit != 1.0 or normalising_unit(end) != 1.0:",
           "if unit != 1.0:", tests=LINE),
    Mutant("line.payoffs_cache_ignores_config", GAME,
           'key = ("line", along, tuple(v for k, v in config.as_dict().items() if k != along), level,',
           'key = ("line", along, level,', tests=LINE),
]


def tracked_files() -> list[str]:
    # tracked files and new ones not yet committed (not those git ignores)
    out = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                         capture_output=True, check=True).stdout
    return [f for f in out.decode().split("\0") if f and not f.startswith("reports/")]


def make_copy(dest: Path, files: list[str]) -> None:
    for f in files:
        src = ROOT / f
        if src.is_file():
            (dest / f).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / f)


def apply(copy: Path, mutant: Mutant) -> None:
    path = copy / mutant.file
    text = path.read_text(encoding="utf-8")
    found = text.count(mutant.old)
    if found != mutant.count:
        raise SystemExit(f"{mutant.name}: {mutant.old!r} occurs {found} times in {mutant.file}, "
                         f"expected {mutant.count} (the code moved: update the mutant)")
    path.write_text(text.replace(mutant.old, mutant.new), encoding="utf-8")


def run_tests(copy: Path, tests: list[str], timeout: float, cache: Path) -> tuple[str, float, str]:
    """``("killed" | "survived" | "timeout", seconds, last lines)`` of the tests on ``copy``, with
    ``cache`` as sflp's cache folder (numba's compiled kernels among others)."""
    env = dict(os.environ, PYTHONPATH=str(copy), SFLP_CACHE_DIR=str(cache), PYTHONDONTWRITEBYTECODE="1")
    where = subprocess.run([sys.executable, "-c", "import sflp; print(sflp.__file__)"], cwd=copy, env=env,
                           capture_output=True, text=True, check=True).stdout.strip()
    if not where.startswith(str(copy)):
        raise SystemExit(f"sflp was imported from {where}, not from the copy {copy}")
    t0 = time.monotonic()
    try:
        done = subprocess.run([sys.executable, "-m", "pytest", "-n", "0", "-q", "-x", "-p", "no:cacheprovider",
                               "-p", "no:randomly", *tests], cwd=copy, env=env, capture_output=True, text=True,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout", time.monotonic() - t0, ""
    tail = "\n".join(done.stdout.strip().splitlines()[-3:])
    if done.returncode not in (0, 1):  # 2-5: interrupted, internal error, usage error, nothing collected
        raise SystemExit(f"pytest could not run the tests (exit {done.returncode}):\n{done.stdout[-2000:]}")
    return ("survived" if done.returncode == 0 else "killed"), time.monotonic() - t0, tail


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", nargs="*", help="run only these mutants (names as --list prints)")
    ap.add_argument("--list", action="store_true", help="print the mutants and stop")
    ap.add_argument("--timeout", type=float, default=1800, help="seconds per mutant (default 1800)")
    ap.add_argument("--skip-unmutated", action="store_true",
                    help="skip the first run on the unmutated code (when its tests were just run)")
    ap.add_argument("--keep", action="store_true", help="keep the copy of the last mutant (for a look at it)")
    args = ap.parse_args()
    mutants = [m for m in MUTANTS if not args.only or m.name in args.only]
    if args.only and len(mutants) != len(set(args.only)):
        raise SystemExit(f"unknown mutants: {sorted(set(args.only) - {m.name for m in MUTANTS})}")
    if args.list:
        for m in mutants:
            print(f"{m.name:45s} {m.file}")
        return 0
    files = tracked_files()
    base = Path(tempfile.mkdtemp(prefix="sflp-mutants-"))
    results = []
    try:
        # the unmutated copy must pass, or every mutant would look killed
        # Every run uses the same folder, so that numba finds the kernels it compiled for the
        # unmutated ddkernel.py (copied with its time stamp) in the shared cache.  A mutant of
        # ddeval or ddkernel gets a cache of its own: numba checks only ddkernel.py's time stamp,
        # not the ddeval functions the kernels inline, and must compile the mutant afresh.
        copy, shared = base / "work", base / "cache"
        make_copy(copy, files)
        for tests in ([] if args.skip_unmutated else sorted({tuple(m.test_files()) for m in mutants})):
            outcome, seconds, tail = run_tests(copy, list(tests), args.timeout, shared)
            print(f"{'(unmutated) ' + ' '.join(tests):45s} {outcome:9s} {seconds:7.1f} s", flush=True)
            if outcome != "survived":
                raise SystemExit(f"the unmutated code fails its tests:\n{tail}")
        for m in mutants:
            make_copy(copy, files)  # every file back as it is in the checkout
            apply(copy, m)
            own = m.file in (DD, KERNEL)
            cache = base / f"cache-{m.name}" if own else shared
            outcome, seconds, tail = run_tests(copy, m.test_files(), args.timeout, cache)
            if own:
                shutil.rmtree(cache, ignore_errors=True)
            results.append((m.name, outcome, seconds))
            print(f"{m.name:45s} {outcome:9s} {seconds:7.1f} s", flush=True)
            if outcome == "killed" and tail:
                print("    " + tail.replace("\n", "\n    "), flush=True)
    finally:
        if not args.keep:
            shutil.rmtree(base, ignore_errors=True)
    survived = [name for name, outcome, _ in results if outcome == "survived"]
    print(f"{len(results)} mutants: {len(results) - len(survived)} killed, {len(survived)} survived"
          + (f" ({', '.join(survived)})" if survived else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
