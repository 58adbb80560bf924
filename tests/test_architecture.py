"""Imports run one way: the pure core needs only numpy (STYLE.md)."""

import subprocess
import sys

import pytest


@pytest.mark.parametrize("module", ["sflp.cards", "sflp.ranges", "sflp.equity", "sflp.game"])
def test_pure_core_imports_no_heavy_dependency(module):
    code = (
        f"import sys, {module}; "
        "heavy = [m for m in ('cvxpy', 'pandas', 'openpyxl', 'matplotlib', 'numba', 'scipy', 'tqdm') "
        "if m in sys.modules]; print(','.join(heavy))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == ""


def test_only_lp_imports_cvxpy():
    import pathlib

    root = pathlib.Path(__file__).resolve().parent.parent / "sflp"
    users = sorted(p.name for p in root.rglob("*.py") if "import cvxpy" in p.read_text())
    assert users == ["lp.py"]


@pytest.mark.parametrize("module", ["sflp.sc", "sflp.compare", "sflp.exploit"])
def test_study_modules_import_no_report_dependency(module):
    code = (
        f"import sys, {module}; "
        "heavy = [m for m in ('pandas', 'openpyxl', 'matplotlib', 'numba', 'tqdm') if m in sys.modules]; "
        "print(','.join(heavy))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == ""
