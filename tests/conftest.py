import pytest

from sflp.core.equity import load_table
from tests.tool_skips import pytest_runtest_makereport  # noqa: F401 (CI=true: a missing tool fails, see there)


@pytest.fixture(scope="session")
def table():
    return load_table()



@pytest.fixture(scope="session")
def chart_set(tmp_path_factory):
    """The chart set of tests/chart_files.py (real solutions at 2, 5, 7.7, 10 bb, thresholds 1-10 bb),
    written once per test process for every module that reads it (about 3 s to write).  Read only."""
    from tests.chart_files import make_chart

    return make_chart(tmp_path_factory.mktemp("chart"))


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
