"""Certificates from a segment's polynomials (sflp.solving.segment) are the per-stack certificates
(sflp.solving.certify.certify), bit for bit, and degenerate stacks are left to certify()."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from sflp.core.game import GameConfig
from sflp.errors import ConfigError
from sflp.solving.certify import certify
from sflp.solving.segment import SegmentCertificate, _det
from sflp.solving.solver import make_game
from sflp.solving.support import Support
from sflp.solving.thresholds import compute_thresholds


def _same(a, b) -> bool:
    """Every published number equal to the last bit (the bytes of each float array, -0.0 vs 0.0
    and NaN included) and every exact number equal; the certificate's own label may differ."""
    arrays = ("sb_strategy", "bb_strategy", "sb_ev", "bb_ev")
    if any(getattr(a, f).tobytes() != getattr(b, f).tobytes() for f in arrays):
        return False
    plain = ("value", "value_exact", "sb_exact", "bb_exact", "exploitability", "push_pct", "call_pct",
             "certified", "method", "config", "level")
    label = ("seconds", "support", "supports_tried")
    ca = {k: v for k, v in a.extra["certificate"].items() if k not in label}
    cb = {k: v for k, v in b.extra["certificate"].items() if k not in label}
    return all(getattr(a, f) == getattr(b, f) for f in plain) and ca == cb


# About 3 s a structure (400 stacks certified one by one): the fast set checks the structure with
# both antes; the slow set the default blinds and other blinds with an ante too.
@pytest.mark.parametrize("config, low, high, step", [
    pytest.param(GameConfig(stack=10), 1.0, 25.0, Fraction(1, 20), marks=pytest.mark.slow),
    (GameConfig(stack=10, ante=0.125, bb_ante=0.5), 1.625, 30.0, Fraction(7, 100)),
    pytest.param(GameConfig(stack=10, small_blind=0.4, ante=0.1), 1.1, 60.0, Fraction(13, 100),
                 marks=pytest.mark.slow),
])
def test_segment_certificates_are_the_per_stack_certificates(config, low, high, step):
    path = compute_thresholds(config, low, high)
    grid = [float(Fraction(low) + k * step) for k in range(int((Fraction(high) - Fraction(low)) / step) + 1)]
    floats = path.solve(grid, workers=1)  # float answers read off the path, not certified
    game0 = make_game(config)
    segments: dict[int, SegmentCertificate] = {}
    done = 0
    for stack, float_solution in zip(grid, floats):
        game = game0.at_stack(stack)
        k, support = path.segment_of(stack)
        segments.setdefault(k, SegmentCertificate(game, support))
        fast = segments[k].solution(game.config)
        if fast is None:
            continue
        done += 1
        assert _same(fast, certify(game, float_solution)), stack
    assert done >= len(grid) - 2  # only a stack on a breakpoint may be left to certify()


def test_sweep_along_a_path_with_exact_uses_the_segments_and_matches():
    config = GameConfig(stack=10, ante=0.1)
    path = compute_thresholds(config, 2.0, 12.0)
    grid = [2.0 + k * 0.25 for k in range(41)]
    fast = path.solve(grid, exact=True, workers=1)
    assert all(s.certified and s.extra["certificate"]["support"] == "path segment" for s in fast)
    slow = [certify(make_game(config).at_stack(s.config.stack), s) for s in path.solve(grid, workers=1)]
    assert all(_same(a, b) for a, b in zip(fast, slow))


def test_a_stack_on_a_breakpoint_is_left_to_certify():
    """At 1 bb both players play every hand with margins that vanish for some hands; the
    polynomials certify only strict signs, so a support that is only weakly an equilibrium (or
    not at all) gives None, and so does a support that is not square."""
    config = GameConfig(stack=10)
    game = make_game(config).at_stack(5.0)
    everything = Support(frozenset(range(169)), (), frozenset(range(169)), ())
    assert SegmentCertificate(game, everything).solution(game.config) is None  # not an equilibrium at 5 bb
    lopsided = Support(frozenset(), (0, 1), frozenset(), (2,))
    assert SegmentCertificate(game, lopsided).solution(game.config) is None


def test_polynomial_determinant_matches_numbers():
    """The determinant of a matrix of polynomials, evaluated at a point, is the determinant of
    the matrix evaluated there (checked against exact Fraction elimination at several points)."""
    rng = np.random.default_rng(3)
    for k in (1, 2, 3, 4):
        M = [[[int(rng.integers(-50, 50)), int(rng.integers(-50, 50))] for _ in range(k)] for _ in range(k)]
        det = _det(M)
        for s in (Fraction(0), Fraction(7, 3), Fraction(-5, 2)):
            A = [[Fraction(a) + s * b for a, b in row] for row in M]
            assert sum(c * s**t for t, c in enumerate(det)) == _fraction_det(A)


def _fraction_det(A):
    A = [row[:] for row in A]
    n, det = len(A), Fraction(1)
    for c in range(n):
        pivot = next((r for r in range(c, n) if A[r][c] != 0), None)
        if pivot is None:
            return Fraction(0)
        if pivot != c:
            A[c], A[pivot] = A[pivot], A[c]
            det = -det
        det *= A[c][c]
        for r in range(c + 1, n):
            f = A[r][c] / A[c][c]
            A[r] = [x - f * y for x, y in zip(A[r], A[c])]
    return det


@pytest.fixture(scope="module")
def one_at_a_time():
    """1,294 stacks over 1.2-40 bb with an ante, by segment, each certified on its own by
    SegmentCertificate.solution: the reference of both block tests (made once, about 2 s)."""
    config = GameConfig(stack=10, ante=0.1)
    path = compute_thresholds(config, 1.2, 40.0)
    game0 = make_game(config)
    grid = [round(1.2 + k * 0.03, 2) for k in range(1294)]
    runs: dict[int, list[float]] = {}
    for s in grid:
        runs.setdefault(path.segment_of(s)[0], []).append(s)
    one = {k: [SegmentCertificate(game0.at_stack(s), path.segments[k][2]).solution(game0.config.with_stack(s))
               for s in stacks] for k, stacks in runs.items()}
    return path, game0, grid, runs, one


@pytest.mark.parametrize("compiled", [False, True])
def test_a_block_of_stacks_is_the_stacks_one_at_a_time(compiled, one_at_a_time):
    """SegmentBlock (every stack of a segment at once, in double-double with proven rounding)
    publishes the numbers of SegmentCertificate.solution, and its share arrays are the exact
    shove and call shares rounded once (Solution.push_pct from the exact strategies)."""
    path, game0, grid, runs, reference = one_at_a_time
    checked = 0
    for k, stacks in runs.items():
        segment = SegmentCertificate(game0.at_stack(stacks[0]), path.segments[k][2])
        block = segment.block(stacks, game0.config, compiled=compiled)
        one = reference[k]
        for s, (fast, slow) in enumerate(zip(block.solutions(), one)):
            assert (fast is None) == (slow is None) == bool(block.missing[s])
            if slow is None:
                continue
            assert _same(fast, slow), stacks[s]
            assert block.push_pct[s] == slow.push_pct and block.call_pct[s] == slow.call_pct
            assert block.value[s] == slow.value
            checked += 1
    assert checked >= len(grid) - 2


def test_a_block_whose_proofs_fail_is_certified_stack_by_stack(monkeypatch):
    """When the double-double filter proves nothing, every stack goes the exact way: same answers."""
    import sflp.solving.segment as segment_module

    def nothing_proven(hi, lo, qc, x, num, den, wh, wl, scale, *, compiled=None, cabs=None):
        shape = (len(num), len(x))
        return np.zeros(shape), np.zeros(shape, dtype=bool), np.zeros((hi.shape[0], len(x)), dtype=np.int8)

    config = GameConfig(stack=10)
    path = compute_thresholds(config, 8.0, 9.0)
    k, support = path.segment_of(8.5)
    stacks = [s for s in (8.40, 8.45, 8.50) if path.segment_of(s)[0] == k]
    game0 = make_game(config)
    expected = SegmentCertificate(game0.at_stack(stacks[0]), support).block(stacks, game0.config).solutions()
    monkeypatch.setattr(segment_module, "evaluate", nothing_proven)
    got = SegmentCertificate(game0.at_stack(stacks[0]), support).block(stacks, game0.config).solutions()
    assert all(_same(a, b) for a, b in zip(got, expected))


def test_iter_blocks_gives_the_numbers_of_iter_solve_with_every_stack_certified():
    """The block stream (arrays per path segment) against certify() stack by stack (the float
    path's strategies certified in exact arithmetic, no polynomials, no double-doubles)."""
    from sflp.solving.solver import iter_blocks

    config = GameConfig(stack=10, bb_ante=1.0)
    path = compute_thresholds(config, 2.0, 14.0)
    grid = [round(2.0 + k * 0.04, 2) for k in range(301)]
    counted = []
    blocks = list(iter_blocks(grid, config, path=path, progress=lambda: counted.append(1)))
    assert len(counted) == len(grid) and [s for b in blocks for s in b.stacks] == grid
    game0 = make_game(config)
    slow = [certify(game0.at_stack(s.config.stack), s) for s in path.solve(grid, workers=1)]
    fast = [s for b in blocks for s in b.solutions()]
    assert all(_same(a, b) for a, b in zip(fast, slow))
    rows = np.concatenate([b.sb_ev for b in blocks])
    assert rows.tobytes() == np.stack([s.sb_ev for s in slow]).tobytes()
    assert np.concatenate([b.push_pct for b in blocks]).tolist() == [s.push_pct for s in slow]
    assert not any(b.missing.any() for b in blocks)
    with pytest.raises(ConfigError):
        next(iter_blocks(grid, config, path=None))


def test_a_value_that_is_zero_on_a_whole_segment_is_published_without_fallback(monkeypatch):
    """Without antes, below about 1.41 bb both players play every hand and SB's value is exactly
    0 at every stack (the value's numerator is the zero polynomial): the block publishes 0.0 for
    it directly instead of sending every stack the exact way, with the same numbers."""
    config = GameConfig(stack=10)
    path = compute_thresholds(config, 1.0, 1.4)
    k, support = path.segment_of(1.2)
    game0 = make_game(config)
    stacks = [round(1.0 + 0.01 * i, 2) for i in range(41)]
    assert all(path.segment_of(s)[0] == k for s in stacks)
    one = [SegmentCertificate(game0, support).solution(game0.config.with_stack(s)) for s in stacks]
    assert all(s is not None and s.value_exact == 0 for s in one)
    calls = []
    original = SegmentCertificate.solution

    def counted(self, *args, **kwargs):
        calls.append(1)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(SegmentCertificate, "solution", counted)
    block = SegmentCertificate(game0, support).block(stacks, game0.config)
    assert not calls and block.value.tolist() == [0.0] * len(stacks)
    assert all(_same(a, b) for a, b in zip(block.solutions(), one))
