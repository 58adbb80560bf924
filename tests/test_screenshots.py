"""reports/make_screenshots.py, the one command that regenerates the screenshots of every medium
(README, docs/CHARTS.md): each medium is drawn by its real renderer at the size it claims.

Paper sizes are ISO 216 A4 (297 x 210 mm landscape) and ANSI Letter (11 x 8.5 in landscape);
window sizes are the two the issue names (a 1400x900 desktop window, a 390x844 phone).  A
renderer missing from PATH skips its medium (the script says so on stderr), and this test skips
the same way.
"""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "reports" / "make_screenshots.py"


def _script():
    spec = importlib.util.spec_from_file_location("make_screenshots", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


pytestmark = pytest.mark.slow  # every renderer once, ~30 s: the newest-versions pass of CI runs it


@pytest.fixture(scope="module")
def shots(tmp_path_factory):
    if not shutil.which("chromium") and not shutil.which("chromium-browser") and not shutil.which("google-chrome"):
        pytest.skip("no Chromium on PATH (install e.g. the Debian package 'chromium')")
    if not shutil.which("pdftoppm"):
        pytest.skip("no pdftoppm on PATH (install e.g. the Debian package 'poppler-utils')")
    out = tmp_path_factory.mktemp("shots")
    return _script().main(None, out)


def _size(path: Path) -> tuple[int, int]:
    from PIL import Image

    with Image.open(path) as image:
        return image.size


def _not_blank(path: Path) -> bool:
    from PIL import Image

    with Image.open(path) as image:
        colours = image.convert("RGB").getcolors(maxcolors=1 << 20)
    return colours is None or len(colours) > 20


def test_the_browser_windows_have_the_issues_sizes(shots):
    sizes = {p.name: _size(p) for p in shots["html"]}
    assert sizes == {"html_1400x900.png": (1400, 900), "html_390x844.png": (390, 844),
                     "html_thresholds_1400x900.png": (1400, 900), "html_freq_1400x900.png": (1400, 900)}
    assert all(_not_blank(p) for p in shots["html"])


def test_the_printed_pages_have_their_paper_shape(shots):
    paper = {"pdf_a4.png": 297 / 210, "pdf_letter.png": 11 / 8.5, "pdf_a4_gray.png": 297 / 210}
    for path in shots["pdf"]:
        w, h = _size(path)
        assert abs(w / h - paper[path.name]) < 0.01, path.name  # 1 % (pdftoppm rounds to pixels)
        assert _not_blank(path)
    assert "pdf_a4.png" in {p.name for p in shots["pdf"]}


def test_the_grayscale_print_keeps_the_bands_apart(shots):
    """The grayscale page (ITU-R BT.601 luma, as pdftoppm -gray prints) shows each band's grey level
    (issue 42: the scale must survive a luma conversion, not only CIE L*)."""
    from PIL import Image

    from sflp.charts.scale import chart_scale

    gray = next(p for p in shots["pdf"] if p.name == "pdf_a4_gray.png")
    with Image.open(gray) as image:
        assert image.mode == "L"
        levels = {level for count, level in image.getcolors(256) if count > 200}  # cell fills, not anti-aliasing
    expected = [Image.new("RGB", (1, 1), "#" + colour).convert("L").getpixel((0, 0))
                for colour, _ in chart_scale(25, 1).legend()]
    assert all(any(abs(level - e) <= 3 for level in levels) for e in expected), (sorted(levels), expected)


def test_the_atlas_page_and_its_hand_maps_are_shot(shots):
    sizes = {p.name: _size(p) for p in shots["atlas"]}
    assert sizes["atlas_1400x900.png"] == (1400, 900) and sizes["atlas_390x844.png"] == (390, 844)
    assert "hand_maps.png" in sizes and all(_not_blank(p) for p in shots["atlas"])


def test_terminal_and_notebook_pictures_show_coloured_grids(shots):
    from PIL import Image

    from sflp.charts.scale import TOP_COLOUR

    top = tuple(int(TOP_COLOUR[i:i + 2], 16) for i in (0, 2, 4))
    assert {p.name for p in shots["terminal"]} == {"terminal_80.png", "terminal_200.png"}
    for path in (*shots["terminal"], *shots["notebook"]):
        with Image.open(path) as image:
            rgb = image.convert("RGB")
            assert rgb.width > 600 and rgb.height > 600
            # the top colour (hands played over the whole 1-25 chart) is on every threshold grid
            assert any(all(abs(x - y) <= 2 for x, y in zip(pixel, top))
                       for _, pixel in rgb.getcolors(maxcolors=1 << 20)), path.name


def test_the_workbook_prints_through_libreoffice(shots):
    if not shutil.which("soffice") and not shutil.which("libreoffice"):
        pytest.skip("no LibreOffice (soffice) on PATH (install e.g. the Debian package 'libreoffice-calc-nogui')")
    assert shots["xlsx"] and all(_not_blank(p) for p in shots["xlsx"])


def test_an_unknown_medium_is_one_clear_error():
    with pytest.raises(SystemExit,
                       match="unknown medium 'gif'; choose from pdf, html, xlsx, terminal, notebook, atlas"):
        _script().main(["gif"], Path("/nonexistent"))
