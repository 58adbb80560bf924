"""Regenerate the screenshots of every medium in ``reports/screenshots/``, the pictures the README
and docs/CHARTS.md show.  One command, from the repository root after the README's first command:

    python reports/make_screenshots.py            # every medium
    python reports/make_screenshots.py html pdf   # some of them

Everything is drawn from the committed example set (``reports/hu-pushfold_sb0.5_bb1_ante0_bbante0_1-25``)
and from sflp itself, by real renderers found on PATH:

========================  =====================================================================
``pdf_a4.png``            ``chart.pdf`` rasterised by poppler's ``pdftoppm``
``pdf_letter.png``        the same page on US Letter (``sflp chart --paper letter``), if supported
``pdf_a4_gray.png``       the A4 page as a grayscale printer prints it (each pixel's ITU-R BT.601 luma,
                          as ``pdftoppm -gray`` renders it)
``html_1400x900.png``     ``chart.html`` in headless Chromium at 1400x900 (a desktop window), as it
                          opens: the threshold charts
``html_390x844.png``      ``chart.html`` at 390x844 (a phone), as it opens: the threshold charts
``html_thresholds_...``   the threshold mode at 1400x900, 63s selected (``#stack=10&hand=sb:63s``)
``html_freq_1400x900``    the frequency mode at 10 bb (``#mode=freq&stack=10``)
``xlsx_page<N>.png``      ``chart.xlsx`` printed to PDF by LibreOffice (``soffice``), first pages
``terminal_80.png``       ``sflp solve --stack 10`` and the threshold grids as an 80-column colour
                          terminal shows them (a pty; its ANSI colours drawn by Chromium)
``terminal_200.png``      the same at 200 columns
``notebook.png``          the notebook views (solution, thresholds, exploit, SC) in Chromium
``atlas_1400x900.png``    ``atlas.html`` of the committed atlas (``reports/atlas-ante``) at 1400x900, 63s
                          picked at 4 bb (``#n=1&stack=4&hand=sb:63s``: folded there, drawn faded)
``atlas_390x844.png``     the same page on a phone, as it opens (the map one tap away)
``hand_maps.png``         the atlas's hand maps (a copy of the set's own picture)
========================  =====================================================================

A medium whose tool is missing is skipped with a message on stderr; the others are still made.
The PNG and SVG pictures of the set need no screenshot: they are in the set itself.
"""

from __future__ import annotations

import html
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SET = ROOT / "reports" / "hu-pushfold_sb0.5_bb1_ante0_bbante0_1-25"
OUT = ROOT / "reports" / "screenshots"
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage", "--hide-scrollbars"]
MEDIA = ("pdf", "html", "xlsx", "terminal", "notebook", "atlas")


class Missing(Exception):
    """A renderer is not on PATH."""


def tool(*names: str) -> str:
    for name in names:
        found = shutil.which(name)
        if found:
            return found
    raise Missing(f"none of {', '.join(names)} is on PATH")


def chromium_shot(url: str, path: Path, width: int, height: int, scale: float = 1.0) -> Path:
    """A screenshot of ``url`` in a ``width`` x ``height`` window (CSS pixels; the PNG is
    ``scale`` times that)."""
    binary = tool("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run([binary, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", f"--window-size={width},{height}",
                        f"--force-device-scale-factor={scale:g}", f"--screenshot={path}", url],
                       check=True, capture_output=True, timeout=120)
    return path


def trim(path: Path, margin: int = 12) -> Path:
    """Crop a screenshot to its content (the area that differs from the top-left pixel) plus a margin."""
    from PIL import Image, ImageChops

    image = Image.open(path).convert("RGB")
    box = ImageChops.difference(image, Image.new("RGB", image.size, image.getpixel((0, 0)))).getbbox()
    if box:
        left, top, right, bottom = box
        image = image.crop((max(0, left - margin), max(0, top - margin),
                            min(image.width, right + margin), min(image.height, bottom + margin)))
    image.save(path, optimize=True)
    return path


def pdf_pages(pdf: Path, stem: Path, dpi: int = 80, first: int = 1, last: int = 1) -> list[Path]:
    """Pages ``first``..``last`` of ``pdf`` as PNG files ``<stem>-<page>.png`` (pdftoppm)."""
    subprocess.run([tool("pdftoppm"), "-png", "-r", str(dpi), "-f", str(first), "-l", str(last), str(pdf), str(stem)],
                   check=True, capture_output=True, timeout=120)
    return sorted(stem.parent.glob(stem.name + "-*.png"))


def grayscale(path: Path, to: Path) -> Path:
    """``path`` as a grayscale printer renders it: each pixel's ITU-R BT.601 luma
    (``0.299 R + 0.587 G + 0.114 B``: Pillow's ``convert("L")``, and what ``pdftoppm -gray`` does)."""
    from PIL import Image

    Image.open(path).convert("RGB").convert("L").save(to, optimize=True)
    return to


def shoot_pdf(out: Path) -> list[Path]:
    made = []
    with tempfile.TemporaryDirectory() as tmp:
        pages = pdf_pages(SET / "chart.pdf", Path(tmp) / "a4")
        made.append(Path(shutil.copyfile(pages[0], out / "pdf_a4.png")))
        made.append(grayscale(pages[0], out / "pdf_a4_gray.png"))
        letter = Path(tmp) / "letter"
        run = subprocess.run([sys.executable, "-m", "sflp.cli", "chart", "--stacks", "1:25:0.05", "--formats", "pdf",
                              "--paper", "letter", "--out", str(letter)], capture_output=True, text=True)
        if run.returncode == 0:
            pages = pdf_pages(letter / "chart.pdf", Path(tmp) / "letter-page")
            made.append(Path(shutil.copyfile(pages[0], out / "pdf_letter.png")))
        else:
            print(f"make_screenshots: no Letter page ({run.stderr.strip()[-200:]})", file=sys.stderr)
    return made


def shoot_html(out: Path) -> list[Path]:
    page = (SET / "chart.html").resolve().as_uri()  # opens in the threshold charts, at 10 bb
    return [chromium_shot(page, out / "html_1400x900.png", 1400, 900),
            chromium_shot(page, out / "html_390x844.png", 390, 844),
            chromium_shot(page + "#stack=10&hand=sb:63s", out / "html_thresholds_1400x900.png", 1400, 900),
            chromium_shot(page + "#mode=freq&stack=10", out / "html_freq_1400x900.png", 1400, 900)]


ATLAS = ROOT / "reports" / "atlas-ante"


def shoot_atlas(out: Path) -> list[Path]:
    page = (ATLAS / "atlas.html").resolve().as_uri()
    return [chromium_shot(page + "#n=1&stack=4&hand=sb:63s", out / "atlas_1400x900.png", 1400, 900),
            chromium_shot(page, out / "atlas_390x844.png", 390, 844),
            Path(shutil.copyfile(ATLAS / "hand_maps.png", out / "hand_maps.png"))]


def shoot_xlsx(out: Path, pages: int = 3) -> list[Path]:
    soffice = tool("soffice", "libreoffice")
    made = []
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "HOME": tmp}  # LibreOffice writes its profile under HOME
        subprocess.run([soffice, "--headless", "--norestore", "--convert-to", "pdf", "--outdir", tmp,
                        str(SET / "chart.xlsx")], check=True, capture_output=True, timeout=300, env=env)
        for k, png in enumerate(pdf_pages(Path(tmp) / "chart.pdf", Path(tmp) / "xlsx", 70, 1, pages), 1):
            made.append(Path(shutil.copyfile(png, out / f"xlsx_page{k}.png")))
    return made


_SGR = re.compile(r"\x1b\[([0-9;]*)m")


def ansi_html(text: str) -> str:
    """Text with 24-bit ANSI colours (``48;2;r;g;b`` / ``38;2;r;g;b``, reset ``0``) as HTML spans."""
    out, open_span = [], False
    pos = 0
    for m in _SGR.finditer(text):
        out.append(html.escape(text[pos:m.start()]))
        pos = m.end()
        if open_span:
            out.append("</span>")
            open_span = False
        codes = [int(c) for c in m[1].split(";") if c]
        style = []
        k = 0
        while k < len(codes):
            if codes[k] in (38, 48) and codes[k + 1:k + 2] == [2]:
                r, g, b = codes[k + 2:k + 5]
                style.append(f"{'color' if codes[k] == 38 else 'background'}:rgb({r},{g},{b})")
                k += 5
            else:
                k += 1
        if style:
            out.append(f'<span style="{";".join(style)}">')
            open_span = True
    out.append(html.escape(text[pos:]))
    return "".join(out) + ("</span>" if open_span else "")


def run_in_pty(argv: list[str], columns: int = 80, cwd: Path | None = None) -> str:
    """What ``sflp argv`` prints on a colour terminal ``columns`` wide (run in a pseudo-terminal,
    in ``cwd``, which is made if missing)."""
    import pty

    if cwd is not None:
        cwd.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "COLUMNS": str(columns), "LINES": "60", "TERM": "xterm-256color"}
    env.pop("NO_COLOR", None)
    pid, fd = pty.fork()
    if pid == 0:  # the child: sflp on the pty
        if cwd is not None:
            os.chdir(cwd)
        os.execvpe(sys.executable, [sys.executable, "-m", "sflp.cli", *argv], env)
    chunks = []
    while True:
        try:
            data = os.read(fd, 65536)
        except OSError:  # the child closed the pty
            break
        if not data:
            break
        chunks.append(data)
    os.waitpid(pid, 0)
    return b"".join(chunks).decode("utf-8", "replace").replace("\r\n", "\n")


def _page(body: str, background: str = "#FFFFFF", colour: str = "#1F2328", font: str = "sans-serif") -> str:
    return (f'<!DOCTYPE html><html><head><meta charset="utf-8"><style>body{{margin:16px;background:{background};'
            f'color:{colour};font-family:{font}}}pre{{font:13px/1.25 "DejaVu Sans Mono",monospace;margin:0}}'
            f"</style></head><body>{body}</body></html>")


def shoot_terminal(out: Path) -> list[Path]:
    made = []
    with tempfile.TemporaryDirectory() as tmp:
        for columns in (80, 200):
            solve = run_in_pty(["solve", "--stack", "10"], columns)
            chart = run_in_pty(["chart", "--stacks", "1:25:0.05", "--formats", "csv", "--out", "set"], columns,
                               cwd=Path(tmp) / str(columns))
            chart = chart[chart.index("exact breakpoints") - 4:] if "exact breakpoints" in chart else chart
            text = ("$ sflp solve --stack 10\n" + solve
                    + "\n$ sflp chart --stacks 1:25:0.05 --formats csv --out set\n" + chart)
            page = Path(tmp) / f"terminal_{columns}.html"
            page.write_text(_page(f"<pre>{ansi_html(text)}</pre>", "#1E1E1E", "#D4D4D4"), encoding="utf-8")
            # a window as wide as the terminal's columns (13 px DejaVu Sans Mono: 7.83 px a column)
            width = 32 + round(columns * 7.83) + 40
            made.append(trim(chromium_shot(page.as_uri(), out / f"terminal_{columns}.png", width, 3400)))
    return made


def shoot_notebook(out: Path) -> list[Path]:
    import sflp
    from sflp.views import notebook

    config = sflp.GameConfig(stack=10)
    solution = sflp.solve(config)
    parts = [
        "<h3>solve(GameConfig(stack=10))</h3>", notebook.solution_html(solution),
        "<h3>compute_thresholds(GameConfig(stack=1), low=1, high=25)</h3>",
        notebook.thresholds_html(sflp.compute_thresholds(config, low=1, high=25)),
        "<h3>exploit(GameConfig(stack=10), load_strategy('QQ+,AKs', 'bb'))</h3>",
        notebook.exploit_html(sflp.exploit(config, sflp.load_strategy("QQ+,AKs", "bb"), solution=solution)),
        "<h3>sc_numbers(GameConfig(stack=10))</h3>", notebook.sc_html(sflp.sc_numbers(config)),
    ]
    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "notebook.html"
        page.write_text(_page("".join(parts)), encoding="utf-8")
        return [trim(chromium_shot(page.as_uri(), out / "notebook.png", 1300, 3400))]


SHOOTERS = {"pdf": shoot_pdf, "html": shoot_html, "xlsx": shoot_xlsx, "terminal": shoot_terminal,
            "notebook": shoot_notebook, "atlas": shoot_atlas}


def main(media: list[str] | None = None, out: Path = OUT) -> dict[str, list[Path]]:
    """Make the screenshots of ``media`` (default: all) in ``out``; returns what was made."""
    media = list(media or MEDIA)
    unknown = [m for m in media if m not in SHOOTERS]
    if unknown:
        raise SystemExit(f"make_screenshots: unknown medium {unknown[0]!r}; choose from {', '.join(MEDIA)}")
    out.mkdir(parents=True, exist_ok=True)
    made = {}
    for medium in media:
        try:
            made[medium] = SHOOTERS[medium](out)
        except Missing as e:
            print(f"make_screenshots: {medium} skipped: {e}", file=sys.stderr)
    return made


if __name__ == "__main__":
    for medium, paths in main(sys.argv[1:]).items():
        for path in paths:
            print(f"{medium:9} {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")
