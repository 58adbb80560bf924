"""The lint gate: ``ruff check .`` with the rule set in pyproject.toml ([tool.ruff]) finds nothing.

Part of the README's test command, so CI (``.ci/run``) runs it.  ruff is in the ``test`` extras;
without it the test fails (not skips), so a missing linter cannot pass the gate silently.
"""

import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_ruff_finds_nothing():
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache", "--output-format", "concise", "."],
        cwd=ROOT, capture_output=True, text=True,
    )
    assert "No module named ruff" not in result.stderr, "ruff is missing: pip install -e '.[test]'"
    assert result.returncode == 0, f"ruff check . found problems:\n{result.stdout}{result.stderr}"
