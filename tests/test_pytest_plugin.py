"""Issue 45, item 5: sflp's pytest plugin (``sflp.pytest_plugin``, a ``pytest11`` entry point):
the fixture ``sflp_referee``, the docs' two-test example run by pytest itself (``pytester``), and
pytest imported by no other module of the package."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parent.parent


def _plugin_args() -> list[str]:
    """``-p sflp.pytest_plugin`` where the installed sflp does not register the entry point (a
    checkout run without installing); nothing where it does (pytest loads it by itself)."""
    registered = any(e.value == "sflp.pytest_plugin" for e in metadata.entry_points(group="pytest11"))
    return [] if registered else ["-p", "sflp.pytest_plugin"]


def _example() -> str:
    page = (ROOT / "docs" / "OPENSPIEL.md").read_text(encoding="utf-8")
    block = re.search(r"<!-- pytest-plugin-example -->\s*```python\n(.*?)```", page, re.S)
    assert block, "docs/OPENSPIEL.md's pytest plugin example"
    return block[1]


def test_pyproject_registers_the_plugin():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["entry-points"]["pytest11"] == {"sflp": "sflp.pytest_plugin"}


def test_no_module_but_the_plugin_imports_pytest():
    for path in sorted((ROOT / "sflp").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            if any(n.split(".")[0] in ("pytest", "_pytest") for n in names):
                assert path.name == "pytest_plugin.py", f"{path.relative_to(ROOT)} imports pytest"
    code = "import sys, sflp, sflp.cli.main, sflp.testing, sflp.openspiel; sflp.Referee; " \
           "assert not {'pytest', '_pytest'} & set(sys.modules), sorted(m for m in sys.modules if 'pytest' in m)"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stderr


def test_the_docs_example_runs(pytester):
    pytester.makepyfile(test_example=_example())
    result = pytester.runpytest(*_plugin_args(), "-p", "no:cacheprovider", "-v")
    result.assert_outcomes(passed=4)  # 3 stacks of the first test, the ini's default stack of the second
    result.stdout.fnmatch_lines(["*test_close_to_equilibrium_in_floats?5?*PASSED*",
                                 "*test_the_policy_table_exactly?10bb?*PASSED*"])


@pytest.mark.slow  # a second pytest run (~1 s); the docs' example runs in the fast suite
def test_a_bad_policy_fails_with_the_figures_and_the_marker_and_ini_choose_stacks(pytester):
    pytester.makeini("[pytest]\nsflp_stacks = 7 12.5\n")
    pytester.makepyfile(test_bad="""
import numpy as np
import pytest
import sflp


def test_ini_stacks(sflp_referee):
    assert sflp_referee.stack in (7.0, 12.5)


@pytest.mark.sflp_stacks(20, sflp.GameConfig(stack=9, ante=0.125))
def test_marker_stacks(sflp_referee):
    assert sflp_referee.config in (sflp.GameConfig(stack=20), sflp.GameConfig(stack=9, ante=0.125))


def test_fold_everything_is_far_from_equilibrium(sflp_referee):
    table = sflp.openspiel.from_strategy(np.zeros(169), np.zeros(169), config=sflp_referee.config)
    sflp_referee.assert_nash_conv_below(table, 1e-3)
""")
    result = pytester.runpytest(*_plugin_args(), "-p", "no:cacheprovider")
    result.assert_outcomes(passed=4, failed=2)
    result.stdout.fnmatch_lines(["*AssertionError: nash_conv * bb/hand is above 0.001 in the game of stack 7 bb*"])


@pytest.mark.slow
def test_a_stack_that_is_no_game_is_a_usage_error(pytester):
    pytester.makepyfile(test_bad="""
import pytest

@pytest.mark.parametrize("sflp_referee", [0.1], indirect=True)
def test_x(sflp_referee):
    pass
""")
    result = pytester.runpytest(*_plugin_args(), "-p", "no:cacheprovider")
    assert result.ret != 0
    result.stdout.fnmatch_lines(["*sflp_referee*"])


@pytest.mark.parametrize("args, needle", [
    ('"x,y"', "@pytest.mark.sflp_stacks: 'x,y' is no stack (one text of several stacks?)"),
    ('float("nan")', "@pytest.mark.sflp_stacks: nan is no stack (stack=nan must be finite)"),
    pytest.param("-5", "@pytest.mark.sflp_stacks: -5 is no stack (stack=-5.0 must be positive)",
                 marks=pytest.mark.slow),
    pytest.param("True", "@pytest.mark.sflp_stacks: True is no stack", marks=pytest.mark.slow),  # a pytest run each
    pytest.param("", "@pytest.mark.sflp_stacks(): give each stack as its own argument", marks=pytest.mark.slow),
])
def test_a_bad_sflp_stacks_marker_is_a_usage_error_naming_it(pytester, args, needle):
    """Collection only: the marker is checked before any game is set up (issue 52: "x,y" was a raw
    ValueError from inside the plugin)."""
    pytester.makepyfile(test_bad=f"""
import pytest

@pytest.mark.sflp_stacks({args})
def test_x(sflp_referee):
    pass
""")
    result = pytester.runpytest_inprocess(*_plugin_args(), "-p", "no:cacheprovider", "--collect-only", "-q")
    assert result.ret == pytest.ExitCode.INTERRUPTED  # the file's collection failed
    text = "\n".join(result.outlines + result.errlines)
    assert needle in text and "ValueError" not in text and "pluggy" not in text, text
