"""A mutation pass over the proof code: named mutations of ``ddeval``, ``ddkernel``, ``segment`` and
``certify``, each run against the proof tests.

A mutant is a ``(name, file, old text, new text)`` patch: a proof made weaker (a sign check
dropped, a bound made smaller, a term left out of a bound) or an arithmetic step made less exact.
For each mutant the script copies the checkout (the files git tracks, without ``reports/``) to a
temporary folder, applies the patch *there*, and runs the fast tests of the mutated module on
that copy, on one process, with ``PYTHONPATH`` pointing at the copy (checked: ``sflp`` must be
imported from it, not from an editable install) and a fresh ``SFLP_CACHE_DIR`` (numba compiles
the mutated kernels instead of loading the cached ones).  The checkout itself is never touched.

The unmutated copy runs first and must pass.  A mutant is *killed* when a test fails (or the run
times out), and *survives* when every test passes; pytest failing to run at all stops the pass.
Every survivor needs a reason in ``docs/DEVELOPMENT.md`` ("Mutation testing of the proofs"): an
equivalent mutant, a guard that real inputs never reach, or a gap closed by a test.

    python tools/mutants.py                 # every mutant (45 minutes on a 2-core machine at load 10)
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

TESTS = {
    "sflp/solving/ddeval.py": PROOF_TESTS,
    "sflp/solving/ddkernel.py": PROOF_TESTS,
    "sflp/solving/segment.py": PROOF_TESTS,
    "sflp/solving/certify.py": ["tests/test_certify.py", "tests/test_segment.py"],
}


@dataclass(frozen=True)
class Mutant:
    name: str
    file: str
    old: str
    new: str
    count: int = 1  # how many times ``old`` occurs (every occurrence is replaced)


DD, KERNEL, SEG, CERT = ("sflp/solving/ddeval.py", "sflp/solving/ddkernel.py", "sflp/solving/segment.py",
                         "sflp/solving/certify.py")

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
        for tests in ([] if args.skip_unmutated else sorted({tuple(TESTS[m.file]) for m in mutants})):
            outcome, seconds, tail = run_tests(copy, list(tests), args.timeout, shared)
            print(f"{'(unmutated) ' + ' '.join(tests):45s} {outcome:9s} {seconds:7.1f} s", flush=True)
            if outcome != "survived":
                raise SystemExit(f"the unmutated code fails its tests:\n{tail}")
        for m in mutants:
            make_copy(copy, files)  # every file back as it is in the checkout
            apply(copy, m)
            own = m.file in (DD, KERNEL)
            cache = base / f"cache-{m.name}" if own else shared
            outcome, seconds, tail = run_tests(copy, TESTS[m.file], args.timeout, cache)
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
