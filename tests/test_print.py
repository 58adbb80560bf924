"""The workbook printed as a user prints it: LibreOffice (``soffice --headless --convert-to pdf``)
prints chart.xlsx and poppler's ``pdftotext`` reads the pages back.

Issue 22 found that printing the workbook gave hundreds of pages; the main sheets (the threshold
grids, the range grids, the SC numbers, About) must print on a handful: one page each, and one
page per range-grid stack.  Every page is landscape and carries its sheet's name in the header,
which is how the pages are told apart here.  LibreOffice and pdftotext are found on PATH or the
test is skipped saying so.
"""

from __future__ import annotations

import collections
import re
import shutil
import subprocess

import pytest

import sflp

MAIN_SHEETS = ("SB push", "BB call", "Ranges", "SC numbers", "About")
GRID_STACKS = (4, 8, 12)


def _tool(*names: str) -> str:
    for name in names:
        found = shutil.which(name)
        if found:
            return found
    pytest.skip(f"none of {', '.join(names)} is on PATH (install e.g. the Debian packages "
                "'libreoffice-calc-nogui' and 'poppler-utils')")


@pytest.fixture(scope="module")
def printed(tmp_path_factory):
    soffice, pdftotext = _tool("soffice", "libreoffice"), _tool("pdftotext")
    folder = tmp_path_factory.mktemp("print")
    sflp.chart(sflp.GameConfig(stack=1), "1:12:0.25", out=folder / "set", formats="xlsx", grid_stacks=GRID_STACKS)
    subprocess.run([soffice, "--headless", "--norestore", "--convert-to", "pdf", "--outdir", str(folder),
                    str(folder / "set" / "chart.xlsx")], check=True, capture_output=True, timeout=300,
                   env={"HOME": str(folder), "PATH": "/usr/bin:/bin"})
    pdf = folder / "chart.pdf"
    text = subprocess.run([pdftotext, "-layout", str(pdf), "-"], check=True, capture_output=True,
                          text=True).stdout
    return pdf, text.split("\f")[:-1]  # pdftotext ends every page with a form feed


def test_the_main_sheets_print_on_a_handful_of_pages(printed):
    _, pages = printed
    names = [page.strip().splitlines()[0].strip() for page in pages]  # the header: the sheet's name
    count = collections.Counter(names)
    assert {name: count[name] for name in MAIN_SHEETS} == {
        "SB push": 1, "BB call": 1, "Ranges": len(GRID_STACKS), "SC numbers": 1, "About": 1}
    assert sum(count[name] for name in MAIN_SHEETS) <= 10
    assert set(count) <= {*MAIN_SHEETS, "Values", "Hand EV"}, count  # no stray sheet or header-less page


def test_every_printed_page_is_landscape_and_numbered(printed):
    pdf, pages = printed
    boxes = re.findall(rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]", pdf.read_bytes())
    assert boxes and all(float(w) > float(h) for w, h in boxes)
    for page in pages:  # the footer: "Page n of N", N counting that sheet's pages
        assert re.search(r"Page \d+ of \d+", page), page[:200]


def test_the_threshold_page_shows_the_band_legend_and_all_169_labels(printed):
    _, pages = printed
    sb = next(page for page in pages if page.strip().startswith("SB push"))
    for label in ("≤2", "2–4", "10–12", "20+", "never"):
        assert label in sb, label
    rows = [line.split() for line in sb.splitlines() if line.split()[:1] and line.split()[0] in "AKQJT98765432"]
    grid = [row for row in rows if len(row) == 14]  # a rank, then its 13 cells
    assert [row[0] for row in grid] == list("AKQJT98765432")
    label = re.compile(r"\d+(\.\d)?\+?\*?|-\*?")  # 7.7, 12+, 7.7*, -: as the PDF chart writes them
    assert all(label.fullmatch(cell) for row in grid for cell in row[1:])
    assert grid[0][1] == "12+"  # AA is pushed up to the top of the 1-12 bb range
