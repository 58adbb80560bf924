"""The workbook printed as a user prints it: LibreOffice (``soffice --headless --convert-to pdf``)
prints chart.xlsx and poppler's ``pdftotext`` reads the pages back.

Issue 22 found that printing the workbook gave hundreds of pages, issue 32 that it still gave 35,
the threshold grids without hand names and the range grids at about 5 pt.  The whole workbook
prints on a handful of pages: one each for the threshold grids (with hand names), the SC numbers
and About, one per range grid (SB's and BB's of each grid stack), and one each for Values (its
charts) and Hand EV (a note: its data is left out).  Every page is landscape and carries its sheet's name in the header,
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
    assert dict(count) == {"SB push": 1, "BB call": 1, "Ranges": 2 * len(GRID_STACKS), "SC numbers": 1, "About": 1,
                           "Values": 1, "Hand EV": 1}, count  # no stray sheet or header-less page
    assert len(pages) == 6 + 2 * len(GRID_STACKS) == 12


def test_every_printed_page_is_landscape_and_numbered(printed):
    pdf, pages = printed
    boxes = re.findall(rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]", pdf.read_bytes())
    assert boxes and all(float(w) > float(h) for w, h in boxes)
    for page in pages:  # the footer: "Page n of N", N counting that sheet's pages
        assert re.search(r"Page \d+ of \d+", page), page[:200]


def test_the_threshold_pages_print_every_hand_with_its_label(printed):
    """Each grid row prints its rank, then 13 cells of a hand name and its label ("AKs 12+",
    "63s 7.1*"), the hands in the HoldemResources order (suited above the diagonal), and the
    printed note explains the layout."""
    from sflp.core.cards import CLASS_NAMES
    from tests.chart_files import grid_hand

    _, pages = printed
    label = re.compile(r"\d+(\.\d)?\+?[*\u2020]?|-")  # 7.7, 12+, 7.7*, 4.3†, -: as the PDF chart writes them
    for sheet in ("SB push", "BB call"):
        page = next(page for page in pages if page.strip().startswith(sheet))
        for band in ("\u22642", "2\u20134", "10\u201312", "never"):
            assert band in page, band
        assert "suited hands above the diagonal, pairs on it, offsuit below" in " ".join(page.split())
        rows = [line.split() for line in page.splitlines() if line.split()[:1] and line.split()[0] in "AKQJT98765432"]
        grid = [row for row in rows if len(row) == 27]  # a rank, then 13 (hand, label) pairs
        assert [row[0] for row in grid] == list("AKQJT98765432"), sheet
        for r, row in enumerate(grid):
            assert row[1::2] == [grid_hand(r, c) for c in range(13)], (sheet, row)
            assert all(label.fullmatch(cell) for cell in row[2::2]), (sheet, row)
        assert len({hand for row in grid for hand in row[1::2]}) == len(CLASS_NAMES) == 169
        if sheet == "SB push":
            assert grid[0][1:3] == ["AA", "12+"]  # AA is pushed up to the top of the 1-12 bb range


def test_the_sc_page_prints_every_hand_with_its_number(printed):
    """Issue 42: the SC numbers page printed bare numbers.  Each grid row prints its rank, then 13
    cells of a hand name and its SC number ("AKs 277.8", "AA ∞"), in the HoldemResources order."""
    from tests.chart_files import grid_hand

    _, pages = printed
    page = next(page for page in pages if page.strip().startswith("SC numbers"))
    rows = [line.split() for line in page.splitlines() if line.split()[:1] and line.split()[0] in "AKQJT98765432"]
    grid = [row for row in rows if len(row) == 27]  # a rank, then 13 (hand, number) pairs
    assert [row[0] for row in grid] == list("AKQJT98765432")
    for r, row in enumerate(grid):
        assert row[1::2] == [grid_hand(r, c) for c in range(13)], row
        assert all(re.fullmatch(r"\d+\.\d|∞|-", cell) for cell in row[2::2]), row
    assert grid[0][1:5] == ["AA", "∞", "AKs", "277.8"]  # the published SC number of AKs
