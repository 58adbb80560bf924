import pytest

from sflp.core.equity import load_table
from tests.tool_skips import pytest_runtest_makereport  # noqa: F401 (CI=true: a missing tool fails, see there)


@pytest.fixture(scope="session")
def table():
    return load_table()



@pytest.fixture(scope="session")
def chart_set_written(tmp_path_factory):
    """The chart set of tests/chart_files.py (real solutions at 2, 5, 7.7, 10 bb, thresholds 1-10 bb),
    written once per test process for every module that reads it (about 3 s to write): its folder
    and the files write_chart_set said it wrote.  Read only."""
    from tests.chart_files import make_chart

    out = tmp_path_factory.mktemp("chart")
    return out, make_chart(out)


@pytest.fixture(scope="session")
def chart_set(chart_set_written):
    return chart_set_written[0]


@pytest.fixture(scope="session")
def default_stacks_set(tmp_path_factory):
    """``sflp.chart(stacks="1:25:0.05", formats="csv,xlsx,html")``, the default 481 stacks, once per
    process: ``(folder, result)``.  The margins and caps tests and the workbook tests read it.  Written
    inline (``workers=0``, the same bytes): in a test process beside another, worker processes only
    add their imports."""
    import sflp

    out = tmp_path_factory.mktemp("set") / "s"
    return out, sflp.chart(stacks="1:25:0.05", out=out, formats="csv,xlsx,html", workers=0)


@pytest.fixture(scope="session")
def ante_atlas():
    """Three structures (no ante, antes 0.1 and 0.125) over 1 + ante to 25 bb and the ante paths at 3,
    8 and 14 bb, certified (about 6 s): the atlas page's and the atlas pictures' tests read the same."""
    from sflp.core.game import GameConfig
    from sflp.solving.thresholds import compute_thresholds

    structures = [(f"ante {a:g}", compute_thresholds(GameConfig(stack=10, ante=a), 1 + a, 25))
                  for a in (0.0, 0.1, 0.125)]
    lines = [compute_thresholds(GameConfig(stack=s), 0, 0.125, along="ante") for s in (3.0, 8.0, 14.0)]
    return structures, lines


@pytest.fixture(scope="session")
def spiel():
    """OpenSpiel's ``pyspiel`` module, or the test is skipped saying how to install it (CI installs
    it with the test extra; with CI=true a skip fails the run, see tests/tool_skips.py)."""
    try:
        import pyspiel
    except ImportError:
        pytest.skip("OpenSpiel is not installed (pip install 'open-spiel>=1.5'; CI installs it with the test extra)")
    return pyspiel


def pytest_configure(config):
    """Compiled LPs go to a folder of this test run, never to the user's ~/.cache: set before any
    test module is imported, so every CLI process the tests start inherits it."""
    import atexit
    import os
    import shutil
    import tempfile

    if "SFLP_CACHE_DIR" not in os.environ:
        folder = tempfile.mkdtemp(prefix="sflp-test-lp-cache-")
        os.environ["SFLP_CACHE_DIR"] = folder
        atexit.register(shutil.rmtree, folder, True)
