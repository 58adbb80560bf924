"""Tests of sflp.approx: the approximate solvers converge, reproduce their seeds, and report honestly.

Everything is seeded, so every figure asserted here is deterministic; the bounds still leave
headroom (noted per test) so that they state a property rather than pin a number.
"""

from __future__ import annotations

import json
import time

import numpy as np
import pytest

from sflp.approx import METHODS, approx_bench, bench_rows, format_text, run
from sflp.approx.common import next_log_point
from sflp.approx.direct_opt import bb_objective_grad, sb_objective_grad
from sflp.approx.rl_linear_q import SEED_REPORT, features, greedy_strategies, hand_features
from sflp.approx.selfplay import deal, outcome_values
from sflp.core.cards import CLASS_SIZES, COMBO_CLASS, COMBO_DISJOINT, N_COMBOS, class_id
from sflp.core.game import GameConfig, PushFoldGame
from sflp.errors import ConfigError

TEN = GameConfig(stack=10)


_RUNS: dict[tuple, object] = {}


def seeded(method: str, config: GameConfig, iterations: int, seed: int = 0):
    """``run(method, config, iterations=..., seed=...)``, once per test process: a seeded run is
    deterministic, and the 2,000,000-hand self-play runs (2-4 s each) serve two tests each."""
    key = (method, config, iterations, seed)
    if key not in _RUNS:
        _RUNS[key] = run(method, config, iterations=iterations, seed=seed)
    return _RUNS[key]


def total(method: str, iterations: int, config: GameConfig = TEN, **kw) -> float:
    if not kw:
        return seeded(method, config, iterations).exploitability
    return run(method, config, iterations=iterations, seed=0, **kw).exploitability


# ---------------------------------------------------------------- exploitability falls with effort


@pytest.mark.parametrize(
    ("method", "n1", "n2", "bound"),
    [
        # ~0.16/t at 10 bb: 1e-3 is reached near t = 200 (measured 3.9e-5 at t = 4096)
        ("fictitious-play", 100, 2_000, 2e-4),
        # CFR+: 1.7e-6 at t = 1000, below 1e-3 long before t = 300
        ("cfr+", 50, 300, 1e-3),
        # subgradient descent, lr 10: ~0.1/t (9.7e-5 at t = 1024)
        ("direct", 100, 2_000, 2e-4),
        # self-play on dealt hands; the linear model's bias floor is 0.04-0.075 bb at 10 bb
        ("rl-linear-q", 100_000, 1_000_000, 0.1),
        # the table has no bias floor: 0.021 at 2,000,000 hands (seed 0), 0.009-0.015 at 10M
        ("rl-tabular", 100_000, 2_000_000, 0.04),
    ],
)
def test_exploitability_decreases_with_effort(method, n1, n2, bound):
    e1, e2 = total(method, n1), total(method, n2)
    assert 0 <= e2 < e1
    assert e2 < bound


def test_cfr_plus_reaches_1e6_at_10bb():
    result = run("cfr+", TEN, iterations=5_000, trace_every=10, target=1e-6)
    assert result.exploitability <= 1e-6
    assert result.iterations < 5_000  # stopped at the target (about 1,500 iterations)


@pytest.mark.parametrize("stack", [5, 20])
def test_cfr_plus_other_stacks(stack):
    assert total("cfr+", 3_000, GameConfig(stack=stack)) < 1e-5


def test_tabular_beats_linear_model_at_equal_hands():
    # The same dealt hands, rewards and epsilon schedule: only the model differs, so the gap is
    # what the seed's seven features cost.
    assert total("rl-tabular", 2_000_000) < 0.5 * total("rl-linear-q", 2_000_000)


# ---------------------------------------------------------------- the RL seed, reproduced


def _shares(result) -> tuple[float, float]:
    return result.push_pct, result.call_pct


def test_rl_linear_q_reproduces_seed_fast():
    # /work/shared/seeds/rl-linear-q-shove-fold.txt reports, at S = 10 after 10,000,000 hands with
    # alpha = 1e-4: SB shoves 55.4% and BB calls 48.6% of the 1,326 combos.  That is one noisy run;
    # ours spread over 51.1-56.3% / 45.6-50.4% for seeds 0-7 at 10M hands (seed 6 hits 55.35% /
    # 48.57% exactly), so the band is the seed's figure +-5 points.  2M hands (seed 0: 54.1% /
    # 48.9%) keep this test short.  Qualitatively the linear model makes BB call far wider than
    # the equilibrium's 37.4% (SB at equilibrium: 58.3%).
    result = seeded("rl-linear-q", TEN, 2_000_000)  # test_tabular_beats_linear_model_at_equal_hands's run
    push, call = _shares(result)
    assert abs(push - SEED_REPORT["push_pct"]) < 5
    assert abs(call - SEED_REPORT["call_pct"]) < 5
    assert call > 37.4 + 5


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_rl_linear_q_reproduces_seed_full_run(seed):
    # The seed's exact run length (10,000,000 hands, ~8 s each).  Its theta was
    # [9.63, 6.17, -1.35, -2.73, 0.23, -0.15, 0.15]; ours (seeds 0-7) agree to 0.1 on the four
    # large weights; exploitability 0.050-0.084 bb.
    result = run("rl-linear-q", TEN, iterations=SEED_REPORT["hands"], seed=seed)
    push, call = _shares(result)
    assert abs(push - SEED_REPORT["push_pct"]) < 5
    assert abs(call - SEED_REPORT["call_pct"]) < 5
    theta = np.array(result.extra["theta"])
    assert np.allclose(theta[:4], [9.63, 6.17, -1.35, -2.73], atol=0.15)
    assert 0.03 < result.exploitability < 0.1


def test_rl_features_and_greedy_rule():
    aks = class_id("AKs")
    assert features(aks, True, True).tolist() == pytest.approx([1, 12 / 13, 11 / 13, 1.0, 1, 1, 1])
    assert features(aks, False, True)[5:].tolist() == [0, 0]
    # Q(GII) - Q(FOLD) = theta_1..4 . hand features (+ theta_6 for SB): theta_6 < 0 tightens SB only
    theta = np.array([9.6, 6.0, -1.3, -2.7, 0.2, -0.1, -0.5])
    sb, bb = greedy_strategies(theta)
    score = hand_features() @ theta[1:5]
    assert np.array_equal(sb, (score - 0.5 > 0).astype(float))
    assert np.array_equal(bb, (score > 0).astype(float))


def test_dealing_is_uniform_over_disjoint_pairs():
    sb, bb = deal(np.random.default_rng(1), 200_000)
    assert COMBO_DISJOINT[sb, bb].all()
    # every class at its share of the 1,326 combos, for both seats (binomial sd < 0.0003 per class)
    for hands in (sb, bb):
        share = np.bincount(COMBO_CLASS[hands], minlength=169) / len(hands)
        assert np.abs(share - CLASS_SIZES / N_COMBOS).max() < 0.0015
    assert len(np.unique(sb)) == N_COMBOS
    assert outcome_values(GameConfig(stack=10, ante=0.1, bb_ante=1)) == pytest.approx((-0.6, 2.1, 10.0, -9.0))


# ---------------------------------------------------------------- direct optimisation


def test_direct_objectives_are_best_response_values():
    game = PushFoldGame(TEN)
    rng = np.random.default_rng(3)
    x, y = rng.random(169), rng.random(169)
    f_value, gy = bb_objective_grad(game, y)
    g_value, gx = sb_objective_grad(game, x)
    assert f_value == pytest.approx(game.best_response_sb(y)[1], abs=1e-12)
    assert g_value == pytest.approx(game.best_response_bb(x)[1], abs=1e-12)
    # the subgradient is the gradient of the active linear piece: a tiny step changes the value linearly
    d = rng.normal(size=169) * 1e-7
    assert bb_objective_grad(game, y + d)[0] - f_value == pytest.approx(gy @ d, rel=1e-3, abs=1e-15)
    assert sb_objective_grad(game, x + d)[0] - g_value == pytest.approx(gx @ d, rel=1e-3, abs=1e-15)


# ---------------------------------------------------------------- results, traces, budgets


@pytest.mark.parametrize("method", list(METHODS))
def test_result_record(method):
    n = 20_000 if method.startswith("rl") else 200
    result = run(method, TEN, iterations=n, seed=4, trace_every=n // 4)
    game = PushFoldGame(TEN)
    assert result.method == method and result.iterations == n and result.seed == 4
    assert [p.iteration for p in result.trace] == [n // 4, n // 2, 3 * n // 4, n]
    last = result.final
    assert last.total_exploitability == pytest.approx(
        game.exploitability(result.sb_strategy, result.bb_strategy), abs=1e-12
    )
    assert last.sb_exploitability >= -1e-12 and last.bb_exploitability >= -1e-12
    assert last.total_exploitability == pytest.approx(last.sb_exploitability + last.bb_exploitability)
    assert all(b.seconds >= a.seconds for a, b in zip(result.trace, result.trace[1:]))
    assert ((result.sb_strategy >= 0) & (result.sb_strategy <= 1)).all()
    data = json.loads(json.dumps(result.to_dict()))
    assert data["method"] == method and len(data["sb_strategy"]) == 169 and data["config"]["stack"] == 10
    text = format_text(result)
    assert method in text and "exploitability" in text and "\n" in text


@pytest.mark.parametrize("method", ["rl-linear-q", "rl-tabular"])
def test_rl_deterministic_and_independent_of_tracing(method):
    a = run(method, TEN, iterations=30_000, seed=7, trace_every=1_000)
    b = run(method, TEN, iterations=30_000, seed=7)
    c = run(method, TEN, iterations=30_000, seed=8)
    assert np.array_equal(a.sb_strategy, b.sb_strategy) and np.array_equal(a.bb_strategy, b.bb_strategy)
    assert a.exploitability == b.exploitability
    assert a.extra == b.extra and a.extra != c.extra


@pytest.mark.parametrize("method", ["rl-linear-q", "rl-tabular"])
def test_rl_seconds_budget_plans_hands_and_reproduces(method):
    # A seconds-only budget plans seconds x hands_per_second hands, and the epsilon schedule runs
    # over that count, never over the clock: the run is the iteration-budgeted run of the planned
    # count, bit for bit.  20,000 hands take ~0.04 s idle; the 20 s outer stop leaves room for a
    # cold JIT compile on a loaded CI machine (a 0.5 s stop once cut such a run at 4,875 of 10,000).
    timed = run(method, TEN, seconds=20.0, seed=5, hands_per_second=1_000)
    counted = run(method, TEN, iterations=20_000, seed=5)
    assert timed.iterations == counted.iterations == timed.extra["planned_hands"] == 20_000
    assert np.array_equal(timed.sb_strategy, counted.sb_strategy)
    assert np.array_equal(timed.bb_strategy, counted.bb_strategy)
    assert timed.extra == counted.extra
    assert [(p.iteration, p.total_exploitability) for p in timed.trace] == [
        (p.iteration, p.total_exploitability) for p in counted.trace]


def test_rl_seconds_stay_an_outer_stop():
    # planned 10^12 hands: the 0.05 s stop ends the run long before, and the result says so
    result = run("rl-tabular", TEN, seconds=0.05, seed=0, hands_per_second=1e13)
    assert result.extra["planned_hands"] == 5 * 10**11 and result.iterations < 10**7


def test_seconds_budget_and_log_trace():
    # How many iterations fit in 0.05 s is the machine's business (about 1,000 idle; 4 in a loaded
    # CI pass): the budget bounds the time, the log points are checked on an iteration budget.
    result = run("fictitious-play", TEN, seconds=0.05)
    assert 0 < result.seconds < 0.5 and result.iterations >= 1  # solver time: the budget less the trace
    its = [p.iteration for p in result.trace]
    assert its == sorted(set(its)) and its[-1] == result.iterations
    logged = [p.iteration for p in run("fictitious-play", TEN, iterations=20).trace]
    assert logged == [1, 2, 3, 4, 6, 8, 11, 14, 18, 20]  # next_log_point's steps, then the last iteration
    assert next_log_point(1000) == 1259


def _openspiel(method: str):
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        pytest.skip("OpenSpiel is not installed (pip install -e '.[openspiel]'; CI installs it with the test extra)")
    from sflp.openspiel import load_game
    from sflp.openspiel.atlas import run_openspiel

    game = load_game(TEN)
    return lambda **budget: run_openspiel(method, TEN, game=game, **budget)


@pytest.mark.parametrize("method", [*METHODS, "openspiel-cfr+"])  # OpenSpiel's Python ones share the loop
def test_a_seconds_budget_bounds_the_run(method):
    # Issue 33: a Python method asked for 3 s took 11.7 s and 29.6 s.  The clock is checked between
    # iterations, counting everything the run does, and the run stops at the first check past the
    # budget: it returns within the budget plus one iteration and the trace point after it (or,
    # when its setup alone outlasts the budget, within that setup plus one iteration and point).
    # Here every iteration is traced, exactly, as the atlas traces its points: budgeted as solver
    # time alone (the scoring left out), these runs took many times the budget.  The allowed
    # overrun is measured: a probe run of one iteration and one point (setup included).  Half the
    # budget more is the scheduler's share: under CI's two pytest workers on two cores one run of
    # rl-tabular came back 88 ms over its 0.3 s budget (plus a 7 ms probe), while a budget ignored
    # costs several times the budget.
    from sflp.approx.common import reference_for, score_exactly

    # The figures are this thread's CPU seconds, not the wall clock: the budget is wall time, so a
    # run stops at the first check with its wall clock past it, and by then this thread has run at
    # most that long; at load 40 (issue 52 §8: 0.86 s wall against 0.72 allowed) the wall clock of
    # one iteration stretches without bound, its CPU does not.  A budget ignored still shows: the
    # run then spends many times the budget in CPU too.
    call = _openspiel(method) if method.startswith("openspiel") else (
        lambda **budget: run(method, TEN, seed=0, **budget))
    budget = 0.3
    with score_exactly():
        _ = reference_for(TEN).nash_exact  # the yardstick's one-time solve is not the runs' time
        t0 = time.thread_time()
        call(iterations=1)
        probe = time.thread_time() - t0
        t0, w0 = time.thread_time(), time.perf_counter()
        result = call(seconds=budget, trace_every=1)
        cpu, wall = time.thread_time() - t0, time.perf_counter() - w0
    assert result.iterations >= 1 and result.seconds <= wall
    assert cpu <= max(budget, probe) + probe + 0.5 * budget, (cpu, probe)


def test_target_stops_early():
    result = run("fictitious-play", TEN, iterations=100_000, trace_every=100, target=1e-3)
    assert result.exploitability <= 1e-3 and result.iterations < 1_000


def test_unknown_method_lists_allowed_names():
    with pytest.raises(ConfigError) as err:
        run("q-learning", TEN)
    for name in METHODS:
        assert repr(name) in str(err.value)


@pytest.mark.parametrize(
    "kw", [{"iterations": 0}, {"iterations": 1.5}, {"seconds": -1}, {"seed": -1}, {"trace_every": 0}]
)
def test_bad_options(kw):
    with pytest.raises(ConfigError):
        run("cfr+", TEN, **kw)


@pytest.mark.parametrize("rate", [0, -1, float("nan"), float("inf"), True, "1000"])
def test_bad_hands_per_second(rate):
    with pytest.raises(ConfigError, match="hands_per_second"):
        run("rl-tabular", TEN, seconds=1, hands_per_second=rate)


# ---------------------------------------------------------------- bench and report


def test_bench_rows_and_report(tmp_path):
    results = approx_bench(stacks=(5, 10), methods=["cfr+", "direct"], seconds=0.02)
    assert [(r.method, r.config.stack) for r in results] == [("cfr+", 5), ("direct", 5), ("cfr+", 10), ("direct", 10)]
    rows = bench_rows(results)
    assert len(rows) == sum(len(r.trace) for r in results)
    assert set(rows[0]) == {
        "method", "stack", "iteration", "seconds", "sb_exploitability", "bb_exploitability", "total_exploitability",
    }
    from sflp.views.bench_files import write_approx_bench

    paths = write_approx_bench(results, tmp_path / "out")
    assert paths["csv"].name == "approx_bench.csv" and paths["png"].name == "approx_bench.png"
    lines = paths["csv"].read_text().splitlines()
    assert lines[0] == "method,stack,iteration,seconds,sb_exploitability,bb_exploitability,total_exploitability"
    assert len(lines) == len(rows) + 1
    assert paths["png"].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    names = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert names == ["approx_bench.csv", "approx_bench.png", "manifest.json"]


def test_bench_rl_rows_reproduce(monkeypatch):
    # the atlas's RL rows: a seconds budget becomes a hand count, so a rerun gives the same rows
    # (all but the seconds column); 20 s plans 10,000 hands at this rate (~0.02 s of play idle; the
    # outer stop must not cut it: at 0.5 s a floor-versions CI pass once stopped rl-tabular at 4,875)
    import sflp.approx.selfplay

    monkeypatch.setattr(sflp.approx.selfplay, "HANDS_PER_SECOND", 500)

    def rows():
        results = approx_bench(stacks=(10,), methods=["rl-tabular", "rl-linear-q"], seconds=20.0, seed=2)
        assert [r.iterations for r in results] == [10_000, 10_000]
        return [{k: v for k, v in row.items() if k != "seconds"} for row in bench_rows(results)]

    assert rows() == rows()


def test_bench_picture_is_log_log_and_reproducible():
    from sflp.charts.media.draw import png_bytes, svg_bytes
    from sflp.views.bench_files import FLOOR, convergence_picture

    rows = [{"method": method, "stack": stack, "iteration": k, "seconds": 10.0 ** (k - 3),
             "total_exploitability": 0.0 if (method, k) == ("direct", 4) else rate * 10.0 ** -k}
            for stack in (5.0, 12.5) for method, rate in (("cfr+", 1.0), ("direct", 0.3)) for k in range(5)]
    rows.append({**rows[0], "seconds": 0.0})  # no place on a log axis: left out
    picture = convergence_picture(rows)
    texts = [item.text for item in picture.items if hasattr(item, "text")]
    assert "5 bb" in texts and "12.5 bb" in texts and "cfr+" in texts and "direct" in texts
    assert "1e-3" in texts and "1" in texts and "10" in texts  # seconds 1e-3 .. 10, a tick a decade
    assert f"1e{round(np.log10(FLOOR))}" in texts  # the exact 0 is drawn at the floor
    assert "total exploitability (bb/hand)" in texts and texts.count("solver seconds") == 2
    # same rows, same bytes (and no other input: no clock, no font look-up on the system)
    again = convergence_picture([dict(r) for r in rows])
    assert png_bytes(again) == png_bytes(picture) and svg_bytes(again) == svg_bytes(picture)


def test_bench_picture_without_rows():
    from sflp.charts.media.draw import png_bytes
    from sflp.views.bench_files import convergence_picture

    assert png_bytes(convergence_picture([]))[:8] == b"\x89PNG\r\n\x1a\n"
