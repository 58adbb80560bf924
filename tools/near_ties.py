"""Search for adversarial near-ties of the double-double evaluation (tests/test_proof_mutants.py).

A near-tie needs a polynomial value whose *real* error is as large as possible against the error
bound :func:`sflp.solving.ddeval.comp_horner` states: the smaller ``bound / error``, the smaller
a wrongly shrunk bound that the tests catch.  Random polynomials give ``bound / error`` of 40 to
70; this hill climb over two-term polynomials ``H(x, 100) = 100 c0 + c1 x`` whose terms (near
``2^243``) cancel to ``2^-15 .. 2^-45`` of their size, each coefficient just above a power of two
(so that its double-double keeps the largest remainder), and whose low bits are then nudged one
at a time, reaches about 20.  It prints the cases as Python literals for ``NEAR_TIES``.

    python tools/near_ties.py [--seconds 150] [--below 24] [--seed 11]
"""

from __future__ import annotations

import argparse
import random
import time
from fractions import Fraction

import numpy as np

from sflp.solving import ddeval

QC = 100


def ratio(cs: list[int], x: int) -> float:
    """``bound / |error|`` of comp_horner for the row ``cs`` at ``x / QC`` (inf when exact or
    when the value is too close to 0 for any ratio to be proven)."""
    d = len(cs) - 1
    hi, lo, shift = ddeval.scaled_coefficients([cs])
    ch, cl, ca = ddeval.at_denominator(hi, lo, QC)
    H, L, B = ddeval.comp_horner(ch, cl, np.array([float(x)]), ca)
    exact = Fraction(sum(c * x**t * QC ** (d - t) for t, c in enumerate(cs)), 2 ** int(shift[0]))
    error = abs(Fraction(H[0, 0]) + Fraction(L[0, 0]) - exact)
    if not error or not abs(H[0, 0]) > B[0, 0] * 2.0**20:
        return float("inf")
    return float(Fraction(B[0, 0]) / error)


def start(rng: random.Random, x: int) -> list[int]:
    """Two coefficients just above powers of two (terms near 2^250), the constant one then moved
    so that the value cancels to 2^-15 .. 2^-45 of the terms."""
    cs = []
    for t in range(2):
        k = (2**250 // (x**t * QC ** (1 - t))).bit_length() - 1
        cs.append((2**k + rng.randrange(2 ** (k - 54), 2 ** (k - 52))) * rng.choice([1, -1]))
    value = QC * cs[0] + cs[1] * x
    cs[0] -= (value - value // 2 ** rng.randrange(15, 45)) // QC
    return cs


def climb(rng: random.Random, steps: int = 80) -> tuple[float, int, list[int]]:
    x = rng.randrange(10**4, 10**6)
    cs = start(rng, x)
    best = ratio(cs, x)
    for _ in range(steps):
        t = rng.randrange(2)
        width = 2 ** (abs(cs[t]).bit_length() - 50)
        trial = list(cs)
        trial[t] += rng.randrange(-width, width)
        r = ratio(trial, x)
        if r < best:
            cs, best = trial, r
    return best, x, cs


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=150)
    ap.add_argument("--below", type=float, default=24)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--count", type=int, default=6)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    t0, found = time.monotonic(), []
    while time.monotonic() - t0 < args.seconds and len(found) < args.count:
        r, x, cs = climb(rng)
        if r < args.below:
            found.append((r, x, cs))
            print(f"    ({x}, {cs}),  # bound / error = {r:.1f}")


if __name__ == "__main__":
    main()
