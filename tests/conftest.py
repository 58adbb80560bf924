import pytest

from sflp.equity import load_table


@pytest.fixture(scope="session")
def table():
    return load_table()
