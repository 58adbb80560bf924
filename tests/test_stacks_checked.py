"""A sweep's stacks are checked once, at the boundary (sflp.checks: checked once, passed on): a
checked :class:`~sflp.checks.Stacks` goes through ``sflp.chart``, ``iter_blocks``, ``iter_solve``,
``solve_many`` and ``write_chart_set`` without being checked again, and a raw list handed to any
of them is still checked and refused with sflp's error."""

from fractions import Fraction

import numpy as np
import pytest

import sflp
from sflp import checks
from sflp.checks import MAX_STACKS, Stacks, parse_stacks
from sflp.core.game import GameConfig
from sflp.errors import ConfigError
from sflp.solving.solver import iter_blocks, iter_solve, solve_many
from sflp.solving.thresholds import compute_thresholds

CONFIG = GameConfig(stack=5)


@pytest.fixture(scope="module")
def path():
    return compute_thresholds(CONFIG, low=5, high=6)


@pytest.fixture
def checked(monkeypatch):
    """The calls of the one check of raw stacks (``Stacks(raw)`` goes through it too)."""
    calls = []
    real = checks.stack_list

    def counted(values):
        calls.append(values)
        return real(values)

    monkeypatch.setattr(checks, "stack_list", counted)
    return calls


def test_stacks_are_floats_increasing_without_repeats_and_immutable():
    stacks = Stacks([10, Fraction(5, 2), 5.0, 10.0, np.float64(5)])
    assert stacks == [2.5, 5.0, 10.0] and stacks == (2.5, 5.0, 10.0) and all(type(s) is float for s in stacks)
    assert Stacks(stacks) is stacks and repr(stacks) == "Stacks([2.5, 5.0, 10.0])"
    assert not stacks != [2.5, 5.0, 10.0] and stacks != [2.5, 5.0]
    with pytest.raises(TypeError):
        stacks[0] = 1.0  # type: ignore[index]
    assert parse_stacks("1:2:0.5") == [1.0, 1.5, 2.0] and isinstance(parse_stacks("2,1"), Stacks)
    assert Stacks(np.arange(1, 2.01, 0.5)) == [1.0, 1.5, 2.0]


def test_a_step_finer_than_the_floats_gives_no_repeated_stack():
    stacks = parse_stacks("1e17:100000000000000001:0.5")  # three grid points, one float
    assert stacks == [1e17]


@pytest.mark.parametrize("values, needle", [
    ([5, -1], "stack=-1 must be positive"), (["5"], "stack='5'"), ([5, float("nan")], "finite"),
    (np.array([5.0, np.inf]), "finite"), ("5,10", "stacks must be a list of numbers"),
    (iter([5.0] * (MAX_STACKS + 5)), "100,000"),
])
def test_stacks_of_a_bad_list_is_sflps_error(values, needle):
    with pytest.raises(ConfigError, match=needle):
        Stacks(values)


def test_checked_stacks_are_not_checked_again_by_iter_blocks_or_solve_many(path, checked):
    stacks = parse_stacks("5:6:0.25")
    blocks = list(iter_blocks(stacks, CONFIG, path=path))
    assert [s for b in blocks for s in b.stacks] == stacks
    solutions = solve_many(stacks, CONFIG, path=path, workers=1)
    assert [s.config.stack for s in solutions] == stacks
    assert len(list(iter_solve(stacks, CONFIG, path=path, workers=1))) == len(stacks)
    assert checked == []


def test_a_raw_list_is_checked_once_per_call(path, checked):
    raw = [6.0, 5.0, 5.5]
    assert [s for b in iter_blocks(raw, CONFIG, path=path) for s in b.stacks] == [5.0, 5.5, 6.0]
    assert len(checked) == 1
    assert [s.config.stack for s in solve_many(raw, CONFIG, path=path, workers=1)] == raw  # the order given
    assert len(checked) == 2


def test_the_chart_job_checks_the_cli_stacks_only_where_the_cli_parsed_them(tmp_path, checked):
    result = sflp.chart(CONFIG, parse_stacks("5:6:0.5"), out=tmp_path / "set", formats="csv", workers=0)
    assert result.stacks == (5.0, 5.5, 6.0) and checked == []
    sflp.chart(CONFIG, [6, 5], out=tmp_path / "set", formats="csv", workers=0)
    assert len(checked) == 1  # a raw list: checked once, at sflp.chart


@pytest.mark.parametrize("call, needle", [
    (lambda path: list(iter_blocks([5, -1], CONFIG, path=path)), "stack=-1 must be positive"),
    (lambda path: list(iter_blocks((5.0, float("nan")), CONFIG, path=path)), "finite"),
    (lambda path: list(iter_solve(["5"], CONFIG)), "stack='5'"),
    (lambda path: solve_many(np.array([5.0, -2.0]), CONFIG), "stack=-2.0 must be positive"),
    (lambda path: path.solve([5, None]), "stack=None is not a number"),
    (lambda path: sflp.chart(CONFIG, [5, 0]), "stack=0 must be positive"),
    (lambda path: sflp.write_chart_set(iter(()), path, "unused", stacks=[5.5, 5.5]), "must increase"),
])
def test_a_raw_bad_list_handed_to_an_inner_public_function_is_refused(path, call, needle):
    with pytest.raises(ConfigError, match=needle):
        call(path)


@pytest.mark.parametrize("text", ["1:1000:0.01", "0.1:0.3:0.1", "1.1234567891:25:0.05", "1000001:25000025:50000.05",
                                  "1e-300:1e-299:1e-301", "5e-324:1e-322:5e-324", "7:700:0.0123",
                                  "1e300:1.7e308:1e304"])
def test_a_range_gives_each_exact_grid_point_rounded_once(text):
    """The grid is summed over one integer denominator: the same floats as Fraction arithmetic."""
    start, stop, step = (Fraction(part) for part in text.split(":"))
    grid = [float(start + k * step) for k in range(int((stop - start) / step) + 1)]
    assert parse_stacks(text) == sorted(set(grid))
