"""In CI a missing system tool fails the run; on a user's machine the test skips, saying why.

The browser, PDF and print tests need Chromium, poppler-utils (``pdftotext``, ``pdftoppm``,
``pdfinfo``, ``pdffonts``) and LibreOffice (``soffice``).  They never install anything: when a
tool is missing they skip with a reason naming it (``tests/chart_files.find_tool`` and the like).
On a user's machine that is right.  In CI it would let a failed ``apt-get`` pass silently, so
``.ci/run`` exports ``CI=true`` and the hook below, imported by ``tests/conftest.py``, turns
every skip whose reason names one of those tools into a failure that says so.
"""

from __future__ import annotations

import os
import re

import pytest

TOOLS = re.compile(r"\b(chromium|chrome|pdftotext|pdftoppm|pdfinfo|pdffonts|poppler|soffice|libreoffice)\b",
                   re.IGNORECASE)
"""The system tools ``.ci/run`` installs, as the skip reasons name them."""


def in_ci(environ=None) -> bool:
    """Whether this run is CI: ``CI`` set to true (``true``, ``1`` or ``yes``, any case), as
    ``.ci/run`` and the common CI services set it."""
    value = (os.environ if environ is None else environ).get("CI", "")
    return value.strip().lower() in ("true", "1", "yes")


def names_a_tool(reason: str) -> bool:
    """Whether a skip reason is about a missing system tool (rather than, say, a platform
    without FIFOs or a Python package of an extra)."""
    return bool(TOOLS.search(reason))


def _reason(longrepr) -> str:
    if isinstance(longrepr, tuple) and len(longrepr) == 3:  # (path, line, "Skipped: reason")
        return str(longrepr[2])
    return str(longrepr)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A skip for a missing tool (in a fixture, a test or a ``skipif`` mark) fails under CI."""
    outcome = yield
    report = outcome.get_result()
    if not report.skipped or hasattr(report, "wasxfail") or not in_ci():
        return
    reason = _reason(report.longrepr)
    if names_a_tool(reason):
        report.outcome = "failed"
        report.longrepr = (f"CI=true, and this test would skip for a missing tool: {reason}\n"
                           "(.ci/run installs chromium, poppler-utils and libreoffice-calc-nogui with apt-get; "
                           "outside CI the test skips)")
