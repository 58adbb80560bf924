"""The push/fold LP compiled once for every blind structure (sflp.solving.lp.compile_template).

The template is cvxpy's compile of the LP of record with the blinds and antes as parameters.  Each
structure's LP made from it must be that structure's own cvxpy compile (to rounding), solve to
the plain cvxpy answer, and the copy the package ships must be a fresh compile; a fresh process
with an empty cache must solve without importing cvxpy (issue 41, "workers warm fast"); a
template that is damaged, forged or someone else's file is never trusted and never overwritten."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from sflp.core.game import GameConfig, PushFoldGame
from sflp.solving import highs
from sflp.solving import lp as lp_module
from sflp.solving.lp import PushFoldLP, close_to, fits
from sflp.solving.solver import solve

ROOT = Path(__file__).resolve().parents[1]

STRUCTURES = [
    GameConfig(stack=10),
    GameConfig(stack=10, ante=0.1),
    GameConfig(stack=10, ante=0.25 / 17, bb_ante=1),  # a long binary expansion
    GameConfig(stack=10, small_blind=0.4, big_blind=1, ante=0.125),
    GameConfig(stack=10, small_blind=1, big_blind=2, bb_ante=2),
    GameConfig(stack=2e6, small_blind=0.4, bb_ante=1e6),  # a huge BB ante
    GameConfig(stack=10, small_blind=1e-6, big_blind=1e-6),  # tiny blinds
]


@pytest.fixture(scope="module")
def fresh_template():
    """cvxpy's compile of the template now (the reference for the shipped copy)."""
    return lp_module.compile_template(PushFoldGame(GameConfig(stack=10)).payoffs)


@pytest.fixture
def no_template_copies(monkeypatch, tmp_path):
    """An empty cache folder, no package copy, and nothing kept in this process."""
    monkeypatch.setenv("SFLP_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(lp_module, "_TEMPLATES", {})
    monkeypatch.setattr(lp_module, "shipped_paths", lambda: [])
    monkeypatch.setattr(lp_module, "_LP_CACHE", {})
    return tmp_path


def test_the_node_split_rebuilds_k0():
    """``K0`` is the sum of the node constants times the node matrices (the showdown is linear in
    the node values), for every structure: what lets one template serve them all."""
    for config in STRUCTURES:
        p = PushFoldGame(config).payoffs
        rebuilt = sum(p.nodes.constants[n] * p.nodes.matrices[n] for n in highs.NODES)
        assert np.allclose(rebuilt, p.K0, rtol=1e-12, atol=1e-15 * np.abs(p.K0).max()), config


def test_the_shipped_template_is_a_fresh_compile(fresh_template):
    """The package's copy (data/push_fold_lp.npz) is found under the key of today's table and model,
    and is cvxpy's compile of it now, array for array to rounding: a change of the model, the
    table or the layout fails here until `python tools/build_lp_module.py` is run."""
    payoffs = PushFoldGame(GameConfig(stack=10)).payoffs
    shipped = highs.read_template(ROOT / "data" / highs.SHIPPED_NAME, lp_module.template_key(payoffs),
                                        "package")
    assert shipped is not None, "data/push_fold_lp.npz is missing, damaged or of another model: rebuild it"
    assert close_to(shipped.base, fresh_template.base)
    for name in ("values", "costs", "offsets"):
        have, want = getattr(shipped, name), getattr(fresh_template, name)
        assert have.shape == want.shape
        assert np.all(np.abs(have - want) <= 1e-12 * np.abs(want).max()), name


@pytest.mark.parametrize("config", STRUCTURES, ids=str)
def test_each_structures_lp_from_the_template_is_its_own_compile(config):
    """The template at a structure's parameters is the structure's own cvxpy compile to 1e-12 of
    each array, and passes the independent check (fits); the route reports where it came from."""
    lp = PushFoldLP(PushFoldGame(config).payoffs)
    made = lp.compiled()
    assert lp.template is not None
    assert close_to(made, lp.compile()) and fits(made, *lp.inputs())


def test_another_structures_numbers_do_not_fit():
    """What the template makes for one structure fails the check of every other."""
    lps = [PushFoldLP(PushFoldGame(c).payoffs) for c in STRUCTURES[:5]]
    made = [lp.compiled() for lp in lps]
    for i, m in enumerate(made):
        for j, lp in enumerate(lps):
            assert fits(m, *lp.inputs()) == (i == j), (i, j)


@pytest.mark.parametrize("config", STRUCTURES[:5], ids=str)
def test_the_template_route_agrees_with_a_plain_cvxpy_solve(config):
    """HiGHS warm on the template's LP against cvxpy's own ``problem.solve`` of the structure's model,
    over a sweep: values to 1e-9 of the pot, frequencies to 1e-6 (degenerate vertices aside, the
    answers are then polished and certified exactly)."""
    fast, plain = PushFoldLP(PushFoldGame(config).payoffs), PushFoldLP(PushFoldGame(config).payoffs)
    for stack in (3.0, 7.5, 15.0, 40.0):
        stack = max(stack, 3 * config.min_stack)
        _, _, v_fast = fast.solve(stack)
        _, _, v_plain = plain.solve_cvxpy(stack)
        assert abs(v_fast - v_plain) <= 1e-9 * plain.unit, (stack, v_fast, v_plain)
    assert fast.template is not None


def test_a_fresh_process_with_an_empty_cache_solves_without_cvxpy(tmp_path):
    """Issue 41 (workers warm fast): a new process on a new machine (an empty cache folder) solves and
    certifies three blind structures from the package's template, never imports cvxpy, and
    leaves the cache folder empty (an atlas of 10,000 structures no longer leaves 10,000 entries)."""
    code = ("import sys; from sflp.solving.solver import solve; from sflp.core.game import GameConfig; "
            "ok = [solve(GameConfig(stack=10, ante=a), exact=True).certified for a in (0, 0.1, 0.137)]; "
            "print(all(ok), 'cvxpy' in sys.modules, 'scipy.stats' in sys.modules)")
    env = {**os.environ, "SFLP_CACHE_DIR": str(tmp_path / "cache")}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env,
                         cwd=tmp_path, timeout=300)
    assert out.stdout.split() == ["True", "False", "False"], out.stderr
    assert out.stderr == ""
    assert not (tmp_path / "cache").exists() or not list((tmp_path / "cache").iterdir())


def test_without_a_package_copy_cvxpy_compiles_the_template_once_and_the_cache_keeps_it(no_template_copies):
    """No copy anywhere: the first structure compiles the template (cvxpy), the cache keeps it as one
    entry, every further structure reuses it, and a new process's lookup reads it from the cache."""
    folder = no_template_copies
    answers = [solve(GameConfig(stack=10, ante=a), exact=True) for a in (0, 0.1, 0.2)]
    assert all(s.certified for s in answers)
    entries = sorted(folder.iterdir())
    payoffs = PushFoldGame(GameConfig(stack=10)).payoffs
    assert [p.name for p in entries] == [f"lp-{lp_module.template_key(payoffs)}.npz"]
    lp_module.forget_templates()
    again = lp_module.template_for(payoffs)
    assert again.source == "cache" and again.path == entries[0]


def test_a_damaged_template_in_the_cache_is_ignored_and_left_alone(no_template_copies, fresh_template):
    """A cache entry of the template's name whose numbers changed (its digest fails) is not read;
    the template is compiled afresh in memory, the file is left as it was, and the answer is right."""
    folder = no_template_copies
    payoffs = PushFoldGame(GameConfig(stack=10)).payoffs
    key = lp_module.template_key(payoffs)
    assert highs.write_template(fresh_template, key)
    path = folder / f"lp-{key}.npz"
    with np.load(path) as data:
        arrays = {name: data[name] for name in data.files}
    arrays["part_values"] = arrays["part_values"].copy()
    arrays["part_values"][0, 3] *= 2
    with open(path, "wb") as fh:
        np.savez(fh, **arrays)
    damaged = path.read_bytes()
    assert highs.read_template(path, key, "cache") is None
    s = solve(GameConfig(stack=10, ante=0.1), exact=True)
    assert s.certified and path.read_bytes() == damaged
    assert lp_module.template_for(payoffs).source == "compiled"


def _forge_template(fresh_template, key: str) -> Path:
    """A self-consistent wrong template in the cache: the steal's part doubled (sflp's magic, the
    right key, a correct digest of its wrong arrays).  Returns its path."""
    values = fresh_template.values.copy()
    values[highs.PARAMETERS.index("steal")] *= 2
    wrong = highs.LPTemplate(fresh_template.base, values, fresh_template.costs, fresh_template.offsets)
    assert highs.write_template(wrong, key, replace=True)
    path = highs.entry_path(key)
    assert highs.read_template(path, key, "cache") is not None  # magic, key and digest all pass
    return path


def test_a_forged_template_is_rebuilt_with_a_note_and_the_right_answer(tmp_path, monkeypatch, fresh_template):
    """At the command line: the cache's template is wrong but self-consistent.  `sflp solve` says so in
    one line on stderr, answers with the value of the structure's own compile, and replaces the
    template with a right one; the next run is silent."""
    monkeypatch.setenv("SFLP_CACHE_DIR", str(tmp_path))
    payoffs = PushFoldGame(GameConfig(stack=10)).payoffs
    key = lp_module.template_key(payoffs)
    path = _forge_template(fresh_template, key)
    env = {**os.environ, "SFLP_CACHE_DIR": str(tmp_path)}

    def run():
        return subprocess.run([sys.executable, "-m", "sflp", "solve", "--stack", "10", "--json"], capture_output=True,
                              text=True, env=env, cwd=tmp_path, timeout=300)

    proc = run()
    assert proc.returncode == 0, proc.stderr
    note = proc.stderr.splitlines()
    assert len(note) == 1 and note[0].startswith(f"sflp: note: the compiled LP template {path} does not fit"), note
    with monkeypatch.context() as m:  # the independent route: the structure's own model, no template
        m.setenv("SFLP_CACHE_DIR", "")
        m.setattr(lp_module, "_LP_CACHE", {})
        m.setattr(lp_module, "template_for", lambda p: None)
        expected = solve(GameConfig(stack=10), exact=True).value_exact
    assert Fraction(json.loads(proc.stdout)["value_exact"]) == expected
    renewed = highs.read_template(path, key, "cache")
    assert renewed is not None and np.array_equal(renewed.values, fresh_template.values)
    again = run()
    assert again.returncode == 0 and again.stderr == ""


def test_a_wrong_template_the_check_misses_is_caught_by_the_answer(no_template_copies, monkeypatch, capsys,
                                                                   fresh_template):
    """The second guard: were the check blind (switched off here), the wrong template's answer fails
    the best-response check; the structure is compiled afresh (one line on stderr) and the solve
    is right."""
    config = GameConfig(stack=10, bb_ante=1)
    with monkeypatch.context() as m:
        m.setattr(lp_module, "template_for", lambda p: None)
        expected = solve(config, exact=True).value_exact
    payoffs = PushFoldGame(config).payoffs
    path = _forge_template(fresh_template, lp_module.template_key(payoffs))
    lp_module.forget_templates()
    monkeypatch.setattr(lp_module, "_LP_CACHE", {})
    monkeypatch.setattr(lp_module, "fits", lambda *args: True)
    capsys.readouterr()
    s = solve(config, exact=True)
    assert s.certified and s.value_exact == expected
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith(f"sflp: note: the compiled LP template {path} gave an answer that "
                                               "fails the best-response check"), err


def test_someone_elses_file_at_the_templates_name_is_never_replaced(no_template_copies):
    """A file sflp did not write where the template would be kept stays as it is; solving works."""
    folder = no_template_copies
    key = lp_module.template_key(PushFoldGame(GameConfig(stack=10)).payoffs)
    path = folder / f"lp-{key}.npz"
    path.write_bytes(b"the user's own file")
    assert solve(GameConfig(stack=10, ante=0.05), exact=True).certified
    assert path.read_bytes() == b"the user's own file"
    assert sorted(p.name for p in folder.iterdir()) == [path.name]  # no temporary file left
