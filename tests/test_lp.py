"""The LP layer: builders on documented matrix games, then the push/fold LP and its checks."""

from fractions import Fraction
from types import SimpleNamespace

import numpy as np
import pytest

from sflp.core.cards import class_id
from sflp.core.game import GameConfig, PushFoldGame
from sflp.errors import SolveError
from sflp.solving.lp import _check_status, solve_matrix_game
from sflp.solving.solver import iter_solve, solve, solve_many
from sflp.solving.thresholds import compute_thresholds


def test_rock_paper_scissors():
    # value 0, both uniform (the textbook solution)
    v, p, q = solve_matrix_game(np.array([[0, -1, 1], [1, 0, -1], [-1, 1, 0]]))
    assert abs(v) < 1e-9
    assert np.allclose(p, 1 / 3, atol=1e-7) and np.allclose(q, 1 / 3, atol=1e-7)


def test_biased_rock_paper_scissors():
    # rock beats scissors for 2: skew-symmetric, so value 0; A p = 0 gives p = (1, 2, 1)/4
    A = np.array([[0, -1, 2], [1, 0, -1], [-2, 1, 0]])
    v, p, q = solve_matrix_game(A)
    assert abs(v) < 1e-9
    assert np.allclose(p, [0.25, 0.5, 0.25], atol=1e-7) and np.allclose(q, [0.25, 0.5, 0.25], atol=1e-7)


def test_two_by_two_without_saddle_point():
    # [[a, b], [c, d]] = [[2, -1], [-1, 1]]: value (ad - bc)/(a + d - b - c) = 1/5,
    # row plays (d - c)/(a + d - b - c) = 2/5 on the first row, column (d - b)/(...) = 2/5
    v, p, q = solve_matrix_game(np.array([[2, -1], [-1, 1]]))
    assert abs(v - 0.2) < 1e-9
    assert abs(p[0] - 0.4) < 1e-7 and abs(q[0] - 0.4) < 1e-7


def test_only_optimal_is_accepted():
    for status in ("optimal_inaccurate", "infeasible", "unbounded", "user_limit"):
        with pytest.raises(SolveError, match=status):
            _check_status(SimpleNamespace(status=status), "a test")
    with pytest.raises(SolveError, match="NO_SUCH_SOLVER"):
        solve(GameConfig(stack=10), solver="NO_SUCH_SOLVER")


def test_stack_one_everything_pushes_and_calls(table):
    # S = 1 with blinds 0.5/1: BB is all-in once it posts, so calling costs nothing more and
    # never loses to folding (EV(call) - EV(fold) = S*(2e-1) + 1 >= 0). SB facing all calls
    # gains 2e-1 >= -1 > -0.5 by shoving any hand. Both play everything, the deal is symmetric
    # between the seats, so SB's EV is 0.
    s = solve(GameConfig(stack=1))
    assert np.all(s.sb_strategy == 1) and np.all(s.bb_strategy == 1)
    assert abs(s.value) < 1e-12


@pytest.mark.parametrize("stack", [2, 5, 7.7, 10, 15, 30, 100])
def test_equilibrium_beats_every_pure_deviation(table, stack):
    s = solve(GameConfig(stack=stack))
    game = PushFoldGame(s.config, table)
    assert s.exploitability <= 1e-9
    x, y = s.sb_strategy, s.bb_strategy
    v = game.value(x, y)
    for i in range(169):
        for pure in (0.0, 1.0):
            x2 = x.copy()
            x2[i] = pure
            assert game.value(x2, y) <= v + 1e-12
            y2 = y.copy()
            y2[i] = pure
            assert game.value(x, y2) >= v - 1e-12


def test_holdemresources_chart_cells():
    # HoldemResources Calculator HU push/fold Nash chart (no ante): T3s is pushed up to 7.7 bb,
    # Q2o called up to 5.6 bb (the chart truncates to 0.1 bb).
    assert solve(GameConfig(stack=7.7)).sb_strategy[class_id("T3s")] > 0.5
    assert solve(GameConfig(stack=7.8)).sb_strategy[class_id("T3s")] <= 0.5
    assert solve(GameConfig(stack=5.6)).bb_strategy[class_id("Q2o")] > 0.5
    assert solve(GameConfig(stack=5.7)).bb_strategy[class_id("Q2o")] <= 0.5


@pytest.mark.parametrize(
    "stack", [pytest.param(s, marks=pytest.mark.slow) for s in (10, 3, 18)]  # 15 s each: the full pass only
)
def test_combo_level_loses_nothing(stack):
    # 1,326 strategies per player, no suit-symmetry assumption: the same value as 169 classes
    c = solve(GameConfig(stack=stack))
    k = solve(GameConfig(stack=stack), level="combo")
    assert k.sb_strategy.shape == (1326,)
    assert abs(c.value - k.value) < 1e-9 and k.exploitability <= 1e-9


def test_antes_shift_the_value():
    plain = solve(GameConfig(stack=10))
    ante = solve(GameConfig(stack=10, ante=0.1))
    # with antes the pot is bigger, SB pushes wider
    assert ante.push_pct > plain.push_pct and ante.exploitability <= 1e-9
    bba = solve(GameConfig(stack=10, bb_ante=1))
    assert bba.exploitability <= 1e-9


def test_solve_many_matches_single_solves():
    stacks = [10, 2, 5.5, 7.7, 7.75, 40]
    many = solve_many(stacks, GameConfig(stack=10))
    for s, sol in zip(stacks, many):
        assert sol.config.stack == s
        single = solve(GameConfig(stack=s))
        assert abs(sol.value - single.value) < 1e-9
        assert sol.exploitability <= 1e-9
    assert {sol.method for sol in solve_many(np.linspace(10, 10.2, 5), GameConfig(stack=10))} >= {"support"}


# fast: the structure with both antes; slow: the default blinds too (about 2 s each)
@pytest.mark.parametrize("config", [pytest.param(GameConfig(stack=10), marks=pytest.mark.slow),
                                    GameConfig(stack=10, ante=0.125, bb_ante=0.5)])
def test_dense_sweep_follows_the_path_and_matches_direct_solves(config):
    rng = np.random.default_rng(7)
    low = 1 + config.ante + config.bb_ante
    stacks = sorted(rng.uniform(low, 40, 120).tolist())
    path = compute_thresholds(config, low=stacks[0], high=stacks[-1])
    many = solve_many(stacks, config, path=path)
    assert {s.method for s in many} <= {"path", "lp"} and "path" in {s.method for s in many}
    assert [s.value for s in path.solve(stacks)] == [s.value for s in many]
    assert max(s.exploitability for s in many) <= 1e-9
    for k in rng.choice(len(stacks), 6, replace=False):
        direct = solve(config.with_stack(stacks[k]))
        assert abs(direct.value - many[k].value) < 1e-9


def test_iter_solve_streams_in_increasing_order_with_the_same_answers():
    stacks = [7.5, 2, 12, 3.25]
    streamed = list(iter_solve(stacks, GameConfig(stack=2)))
    assert [s.config.stack for s in streamed] == sorted(stacks)
    listed = solve_many(stacks, GameConfig(stack=2))
    by_stack = {s.config.stack: s.value for s in listed}
    assert all(abs(s.value - by_stack[s.config.stack]) < 1e-12 for s in streamed)


@pytest.mark.parametrize("workers", [1, 2])
def test_parallel_sweep_matches_the_sequential_one(workers):
    stacks = np.linspace(2, 30, 300).tolist()
    sols = solve_many(stacks, GameConfig(stack=2), workers=workers)
    assert [s.config.stack for s in sols] == stacks
    assert max(s.exploitability for s in sols) <= 1e-9
    for k in (0, 137, 299):
        assert abs(sols[k].value - solve(GameConfig(stack=stacks[k])).value) < 1e-9


def test_path_outside_its_range_or_for_other_blinds_is_refused():
    from sflp.errors import ConfigError

    path = compute_thresholds(GameConfig(stack=2), low=2, high=5)
    with pytest.raises(ConfigError, match="outside the path"):
        solve_many([2, 6], GameConfig(stack=2), path=path)
    with pytest.raises(ConfigError, match="blinds/antes"):
        solve_many([2, 3], GameConfig(stack=2, ante=0.1), path=path)


# ---------------------------------------------------------------- the warm HiGHS route (issue 20)


def test_fast_route_agrees_with_a_plain_cvxpy_solve_on_a_sweep():
    """cvxpy's compiled LP re-solved warm in one HiGHS instance gives the value of cvxpy's own
    problem.solve to 1e-9 at every stack of a sweep, in an order that jumps back and forth, and
    every answer certifies with exploitability exactly 0."""
    from fractions import Fraction

    from sflp.solving.lp import PushFoldLP

    for config in (GameConfig(stack=10), GameConfig(stack=10, ante=0.125, bb_ante=0.5)):
        game = PushFoldGame(config)
        fast, plain = PushFoldLP(game.payoffs), PushFoldLP(game.payoffs)
        for stack in (10.0, 10.3, 12.0, 3.0, 45.5, 7.7, config.min_stack + 0.01, 150.0, 10.0):
            x, y, v = fast.solve(stack)
            _, _, v_ref = plain.solve_cvxpy(stack)
            assert abs(v - v_ref) <= 1e-9, (config, stack)
            g = game.at_stack(stack)
            assert abs(g.value(x, y) - v_ref) <= 1e-9
            assert g.exploitability(x, y) <= 1e-8
        for stack in (3.0, 7.7, 45.5):
            sol = solve(config.with_stack(stack), exact=True)
            assert sol.certified and sol.extra["certificate"]["exploitability"] == "0"
            assert abs(sol.value - plain.solve_cvxpy(stack)[2]) <= 1e-9
            assert sol.value_exact == Fraction(sol.extra["certificate"]["value"])


@pytest.mark.slow  # 14 s on 2 cores: the full pass only (the class level is checked in every pass)
def test_combo_level_fast_route_agrees_with_cvxpy(tmp_path, monkeypatch):
    """Also: a combo-level LP (about 40 MB compiled) is not written to the disk cache."""
    from sflp.solving.lp import PushFoldLP

    monkeypatch.setenv("SFLP_CACHE_DIR", str(tmp_path))
    game = PushFoldGame(GameConfig(stack=8), None, "combo")
    fast = PushFoldLP(game.payoffs)
    for stack in (8.0, 8.5):
        _, _, v = fast.solve(stack)
        _, _, v_ref = PushFoldLP(game.payoffs).solve_cvxpy(stack)
        assert abs(v - v_ref) <= 1e-9
    assert not list(tmp_path.iterdir())


def test_cached_compiled_lp_is_the_fresh_compile(tmp_path, monkeypatch):
    """The compiled LP read back from the disk cache is cvxpy's fresh compile, array for array;
    a second process-level lookup does not compile again."""
    from sflp.solving import highs
    from sflp.solving.lp import PushFoldLP

    monkeypatch.setenv("SFLP_CACHE_DIR", str(tmp_path))
    payoffs = _own(GameConfig(stack=10, ante=0.1))
    lp = PushFoldLP(payoffs)
    fresh = lp.compile()
    first = lp.compiled()  # compiles and stores
    assert [p.name for p in tmp_path.iterdir()] == [f"lp-{lp.cache_key()}.npz"]
    calls = []
    monkeypatch.setattr(PushFoldLP, "compile", lambda self: calls.append(1))
    again = PushFoldLP(payoffs).compiled()
    assert not calls, "the cache was not used"
    assert fresh.same_as(first) and fresh.same_as(again)
    assert highs.load_cached("0" * 32) is None


def test_other_blinds_or_versions_get_another_cache_entry(monkeypatch):
    from sflp.solving.lp import PushFoldLP

    keys = {PushFoldLP(PushFoldGame(c).payoffs).cache_key() for c in
            (GameConfig(stack=10), GameConfig(stack=10, ante=0.1), GameConfig(stack=10, small_blind=0.4))}
    assert len(keys) == 3
    assert PushFoldLP(PushFoldGame(GameConfig(stack=25)).payoffs).cache_key() in keys  # the stack is a parameter
    import sflp

    before = PushFoldLP(PushFoldGame(GameConfig(stack=10)).payoffs).cache_key()
    monkeypatch.setattr(sflp, "__version__", sflp.__version__ + ".dev1")
    assert PushFoldLP(PushFoldGame(GameConfig(stack=10)).payoffs).cache_key() != before


def test_a_damaged_cache_file_is_ignored_and_never_overwritten(tmp_path, monkeypatch):
    from sflp.solving.lp import PushFoldLP

    monkeypatch.setenv("SFLP_CACHE_DIR", str(tmp_path))
    game = PushFoldGame(GameConfig(stack=10, bb_ante=1))
    lp = PushFoldLP(game.payoffs)
    path = tmp_path / f"lp-{lp.cache_key()}.npz"
    path.write_bytes(b"not an npz: someone else's file")
    x, y, v = lp.solve(10.0)
    assert path.read_bytes() == b"not an npz: someone else's file"
    assert abs(v - PushFoldLP(game.payoffs).solve_cvxpy(10.0)[2]) <= 1e-9
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]  # no stray temporary file


def test_cache_can_be_turned_off(tmp_path, monkeypatch):
    from sflp.solving import highs

    monkeypatch.setenv("SFLP_CACHE_DIR", "")
    assert highs.cache_dir() is None
    monkeypatch.delenv("SFLP_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert highs.cache_dir() == tmp_path / "sflp"


def test_a_warm_solve_that_is_not_optimal_raises():
    """Only 'Optimal' is accepted: an infeasible LP ends in SolveError, also after a warm basis
    from a good solve (which is then tried cold once more)."""
    import dataclasses

    from sflp.solving.highs import WarmLP
    from sflp.solving.lp import PushFoldLP

    compiled = PushFoldLP(PushFoldGame(GameConfig(stack=10)).payoffs).compiled()
    warm = WarmLP(compiled)
    warm.solve(10.0)
    # each call row reads D (K'x)_j - z_j >= 0; asking it to be <= -1e12 cannot hold with z <= 0
    bad = dataclasses.replace(compiled, row_lower=np.full(compiled.num_row, -np.inf),
                              row_upper=np.full(compiled.num_row, -1e12))
    warm.compiled = bad
    with pytest.raises(SolveError, match="not 'Optimal'"):
        warm.solve(10.0)
    with pytest.raises(SolveError, match="not 'Optimal'"):
        WarmLP(bad).solve(10.0)


def test_a_warm_start_past_its_iteration_bound_is_solved_cold(monkeypatch):
    """A warm solve is bounded (a far stack's basis once kept HiGHS 1.7 pivoting for minutes); at
    a bound of 0 every warm attempt stops at once and the cold solve gives the same answer as a
    fresh instance."""
    from sflp.solving import highs
    from sflp.solving.lp import PushFoldLP

    compiled = PushFoldLP(PushFoldGame(GameConfig(stack=10)).payoffs).compiled()
    warm = highs.WarmLP(compiled)
    warm.solve(10.0)
    unbounded = highs.WarmLP(compiled)
    unbounded.solve(10.0)
    unbounded.solve(3.0)  # warm, unbounded: the warm start's answer
    assert unbounded.started_warm
    monkeypatch.setattr(highs, "WARM_ITERATIONS_PER_ROW_AND_COLUMN", 0)
    x, y, value = warm.solve(3.0)
    fresh = highs.WarmLP(compiled)
    fx, fy, fvalue = fresh.solve(3.0)
    assert np.array_equal(x, fx) and np.array_equal(y, fy) and value == fvalue
    # the answer came from the cold solve, pivot for pivot a fresh instance's (which of a warm and
    # a cold start takes fewer pivots depends on the HiGHS version: 1.7.1 needs 83 warm, 9 cold)
    assert not warm.started_warm and not fresh.started_warm
    assert warm.iterations == fresh.iterations


def test_the_lp_module_states_the_model_in_cvxpy_and_solves_without_importing_it():
    """With the compiled LP cached, a fresh process solves a stack without importing cvxpy."""
    import subprocess
    import sys

    solve(GameConfig(stack=10))  # fills the cache of this test run
    code = ("import sys; from sflp.solving.solver import solve; from sflp.core.game import GameConfig; "
            "s = solve(GameConfig(stack=10), exact=True); "
            "print(s.certified, 'cvxpy' in sys.modules, 'scipy.stats' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["True", "False", "False"]


def test_a_cache_entry_with_a_changed_number_is_not_trusted(tmp_path, monkeypatch):
    """An entry of the right name and layout whose numbers changed (a flipped bit on disk) fails
    its digest: it is recompiled in memory, and the file is left as it is."""
    from sflp.solving import highs
    from sflp.solving.lp import PushFoldLP

    monkeypatch.setenv("SFLP_CACHE_DIR", str(tmp_path))
    lp = PushFoldLP(_own(GameConfig(stack=10, ante=0.2)))
    lp.compiled()
    path = tmp_path / f"lp-{lp.cache_key()}.npz"
    with np.load(path) as data:
        arrays = {name: data[name] for name in data.files}
    arrays["value0"] = arrays["value0"].copy()
    arrays["value0"][7] *= 2
    with open(path, "wb") as fh:
        np.savez(fh, **arrays)
    damaged = path.read_bytes()
    assert highs.load_cached(lp.cache_key()) is None
    assert PushFoldLP(lp.payoffs).compiled().same_as(lp.compile())
    assert path.read_bytes() == damaged


# ---------------------------------------------------------------- scale: the LP in units of the pot (issue 30, case 12)


@pytest.mark.parametrize("stack", [1.5e6, 2e6])
def test_huge_antes_solve(stack):
    """HiGHS ended "Unknown" at these in bb.  With an ante of 1e6 bb the stack left behind it is at
    most 1e6 against a dead pot of 2e6 + 1.5: every hand shoves and every hand calls (even 32o
    vs AA has the 25% equity a call needs), so both stacks go in whole from symmetric positions and
    SB's value is exactly 0 (reasoned from the rules, not from a solver)."""
    s = solve(GameConfig(stack=stack, ante=1e6), exact=True)
    assert s.certified and s.value_exact == 0
    assert s.push_pct == 100.0 and s.call_pct == 100.0


SCALED = [
    # (base game, factor, the same game with every amount times the factor, written as decimals)
    (GameConfig(stack=3, small_blind=0.5, big_blind=1, ante=1), 10**6,
     GameConfig(stack=3e6, small_blind=5e5, big_blind=1e6, ante=1e6)),
    (GameConfig(stack=10, small_blind=0.5, big_blind=1, ante=0.1), 10**8,
     GameConfig(stack=1e9, small_blind=5e7, big_blind=1e8, ante=1e7)),
    (GameConfig(stack=10, small_blind=0.5, big_blind=1, ante=0.1, bb_ante=1), Fraction(1, 10**8),
     GameConfig(stack=1e-7, small_blind=5e-9, big_blind=1e-8, ante=1e-9, bb_ante=1e-8)),
]


@pytest.mark.parametrize("base, factor, scaled", SCALED)
def test_the_game_is_homogeneous_and_so_are_the_answers(base, factor, scaled):
    """Multiplying every amount by c multiplies the value by c and leaves the strategies as they
    are: the certified answers satisfy it exactly, from 1e-9 bb antes to 1e9 bb stacks."""
    a, b = solve(base, exact=True), solve(scaled, exact=True)
    assert a.certified and b.certified
    assert b.value_exact == a.value_exact * factor
    assert a.sb_exact == b.sb_exact and a.bb_exact == b.bb_exact


def test_a_solver_failure_names_the_stack_and_is_not_a_bare_status():
    import dataclasses

    from sflp.solving.highs import WarmLP
    from sflp.solving.lp import PushFoldLP

    lp = PushFoldLP(PushFoldGame(GameConfig(stack=10)).payoffs)
    bad = dataclasses.replace(lp.compiled(), row_lower=np.full(lp.compiled().num_row, -np.inf),
                              row_upper=np.full(lp.compiled().num_row, -1e12))
    lp._warm = WarmLP(bad)
    with pytest.raises(SolveError, match=r"^the LP solver found no optimal answer at stack=10 bb .*please report"):
        lp.solve(10.0)


# ---------------------------------------------------------------- a wrong cache entry (issue 30, case 20)


def _own(config: GameConfig):
    """``config``'s payoffs without their node split: an LP compiled from the structure's own model and
    cached under the structure's key (the route of a structure the template does not fit)."""
    import dataclasses

    return dataclasses.replace(PushFoldGame(config).payoffs, nodes=None)


def _forge(folder, victim: GameConfig, donor: GameConfig):
    """A self-consistent wrong entry: the compiled LP of ``donor`` stored under ``victim``'s key,
    with sflp's magic and a correct digest of its (wrong) arrays.  Returns the entry's path."""
    from sflp.solving import highs
    from sflp.solving.lp import PushFoldLP

    key = PushFoldLP(_own(victim)).cache_key()
    assert highs.store_cached(key, PushFoldLP(_own(donor)).compile())
    path = folder / f"lp-{key}.npz"
    assert highs.load_cached(key) is not None  # magic, key and digest all pass
    return path


def _fresh_value(monkeypatch, config: GameConfig):
    """The certified value with the disk cache off and no LP of this process reused: cvxpy's own
    compile (the independent route)."""
    from sflp.solving import lp as lp_module

    with monkeypatch.context() as m:
        m.setenv("SFLP_CACHE_DIR", "")
        m.setattr(lp_module, "_LP_CACHE", {})
        m.setattr(lp_module, "template_for", lambda payoffs: None)  # the structure's own model
        return solve(config, exact=True).value_exact


def test_fits_accepts_cvxpys_compile_and_sees_a_wrong_one():
    import dataclasses

    from sflp.solving.lp import PushFoldLP, fits

    configs = [GameConfig(stack=10), GameConfig(stack=10, ante=0.2), GameConfig(stack=10, small_blind=0.4, bb_ante=1),
               GameConfig(stack=2e6, ante=1e6)]
    lps = [PushFoldLP(PushFoldGame(c).payoffs) for c in configs]
    compiled = [lp.compile() for lp in lps]
    for k, c in enumerate(compiled):
        for j, lp in enumerate(lps):
            assert fits(c, *lp.inputs()) == (j == k), (k, j)
    c, inputs = compiled[1], lps[1].inputs()
    x_entry = int(np.flatnonzero(np.isin(np.repeat(np.arange(c.num_col), np.diff(c.start)), c.x_cols)
                                 & np.isin(c.index, c.call_rows) & (c.value0 != 0))[5])
    for name, change in [
        ("value0", lambda a: a.__setitem__(x_entry, a[x_entry] * (1 + 1e-6))),
        ("value1", lambda a: a.__setitem__(x_entry, a[x_entry] + 1e-3)),
        ("cost0", lambda a: a.__setitem__(int(c.x_cols[3]), a[int(c.x_cols[3])] * 1.001)),
        ("col_upper", lambda a: a.__setitem__(int(c.x_cols[0]), 2.0)),
        ("call_rows", lambda a: a.__setitem__(slice(None), np.roll(a, 1))),
    ]:
        arr = getattr(c, name).copy()
        change(arr)
        assert not fits(dataclasses.replace(c, **{name: arr}), *inputs), name
    assert not fits(dataclasses.replace(c, offset0=c.offset0 * 1.01), *inputs)
    assert not fits(dataclasses.replace(c, maximise=not c.maximise), *inputs)


def test_a_forged_cache_entry_is_rebuilt_with_a_note_and_the_right_answer(tmp_path, monkeypatch, capsys):
    """The entry of 10 bb with no ante holds the LP of an ante of 0.2 bb (right magic, right key, a
    correct digest of its arrays), for a structure compiled from its own model: one line on
    stderr, the value of a fresh compile with the cache off, and the entry replaced by the right
    one; the next lookup is silent.  (The template's own case, at the command line, is in
    tests/test_lp_module.py.)"""
    from sflp.solving import highs
    from sflp.solving.lp import PushFoldLP, fits

    monkeypatch.setenv("SFLP_CACHE_DIR", str(tmp_path))
    victim = GameConfig(stack=10)
    path = _forge(tmp_path, victim, GameConfig(stack=10, ante=0.2))
    lp = PushFoldLP(_own(victim))
    _, _, value = lp.solve(10.0)
    note = capsys.readouterr().err.splitlines()
    assert len(note) == 1 and note[0].startswith(f"sflp: note: the cached LP {path} does not fit"), note
    assert abs(value - PushFoldLP(_own(victim)).solve_cvxpy(10.0)[2]) <= 1e-12
    entry = highs.load_cached(lp.cache_key())
    assert fits(entry, *lp.inputs()) and entry.same_as(lp.compile())
    PushFoldLP(_own(victim)).solve(10.0)
    assert capsys.readouterr().err == ""


def test_a_wrong_entry_the_structural_check_misses_is_caught_by_the_answer(tmp_path, monkeypatch, capsys):
    """The second guard: were the check of the entry blind (here it is switched off), the answer of
    the wrong LP fails the best-response check, the LP is compiled afresh (one line on stderr) and
    the solve succeeds with the fresh compile's value."""
    from sflp.solving import lp as lp_module

    monkeypatch.setenv("SFLP_CACHE_DIR", str(tmp_path))
    victim = GameConfig(stack=10, bb_ante=1)
    path = _forge(tmp_path, victim, GameConfig(stack=10, bb_ante=1, small_blind=0.3, ante=0.5))
    expected = _fresh_value(monkeypatch, victim)
    capsys.readouterr()
    monkeypatch.setattr(lp_module, "_LP_CACHE", {})
    monkeypatch.setattr(lp_module, "fits", lambda *args: True)
    monkeypatch.setattr(lp_module, "template_for", lambda payoffs: None)  # the structure's own entry
    s = solve(victim, exact=True)
    assert s.certified and s.value_exact == expected
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0] == (f"sflp: note: the cached LP {path} gave an answer that fails the "
                                        "best-response check; compiled it afresh from the model and replaced the entry")


def test_only_an_entry_sflp_wrote_is_ever_replaced(tmp_path, monkeypatch):
    from sflp.solving import highs
    from sflp.solving.lp import PushFoldLP

    monkeypatch.setenv("SFLP_CACHE_DIR", str(tmp_path))
    lp = PushFoldLP(PushFoldGame(GameConfig(stack=10, ante=0.3)).payoffs)
    compiled, key = lp.compile(), lp.cache_key()
    path = tmp_path / f"lp-{key}.npz"
    path.write_bytes(b"someone else's file")
    assert not highs.store_cached(key, compiled, replace=True)
    assert path.read_bytes() == b"someone else's file"
    path.unlink()
    target = tmp_path / "elsewhere.npz"
    path.symlink_to(target)  # a dangling link: neither followed nor replaced
    assert not highs.store_cached(key, compiled, replace=True)
    assert path.is_symlink() and not target.exists()
    path.unlink()
    assert highs.store_cached(key, compiled) and highs.store_cached(key, compiled, replace=True)
    assert highs.load_cached(key).same_as(compiled)
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]  # no temporary file left


def test_the_exploitability_limit_scales_with_the_game():
    """The float check is relative, as the game is homogeneous: at blinds of 1e-6 bb another stack's
    equilibrium, a few 1e-10 bb from optimal there, is refused (a fixed 1e-9 bb let it through),
    while at an ante of 1e9 bb the right answer, ~1e-6 bb of float noise, is accepted."""
    from sflp.core.game import make_solution
    from sflp.solving.solver import MAX_EXPLOITABILITY, _finish, make_game, max_exploitability

    assert max_exploitability(GameConfig(stack=10)) == MAX_EXPLOITABILITY
    small = GameConfig(stack=1e-5, small_blind=5e-7, big_blind=1e-6)
    game = make_game(small)
    other = solve(small.with_stack(1.02e-5))
    wrong = make_solution(game, other.sb_strategy, other.bb_strategy, "manual")
    assert 1e-15 < wrong.exploitability < 1e-9
    with pytest.raises(SolveError, match="refusing to return it"):
        _finish(game, wrong, exact=False)
    big = solve(GameConfig(stack=2e9, ante=1e9))
    assert 0 <= big.exploitability <= max_exploitability(big.config)
