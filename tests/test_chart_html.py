"""chart.html in a real browser (headless Chromium).

The chart set is written from real solutions (2, 5, 7.7, 10 bb) and real thresholds over 1-10 bb
(tests/chart_files.py); then the checks read only the files: the DOM that Chromium built from
chart.html is compared cell by cell with ranges.csv / thresholds.csv / values.csv of the same set.
Chromium is found on PATH (``chromium``/``chromium-browser``/``google-chrome``); when it is missing
the tests are skipped saying so.  The tests never install anything: ``.ci/run`` installs it as an
explicit, separate step.
"""

from __future__ import annotations

import json
import re
import subprocess
from html.parser import HTMLParser
from importlib.resources import as_file, files
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sflp.core.cards import CLASS_NAMES
from sflp.errors import ConfigError
from sflp.report.colors import FREQUENCY_FULL
from sflp.report.html import MAX_STACKS, STATIC_FILES, static_text, write_chart_html
from tests.chart_files import HIGH, RANKS, STACKS, expected_label, find_tool, grid_hand, make_chart, read_csv

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage", "--hide-scrollbars"]


# ---------------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
def chart(tmp_path_factory):
    return make_chart(tmp_path_factory.mktemp("chart"))


@pytest.fixture(scope="session")
def chromium():
    return find_tool(("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"), "chromium")


def run_chromium(binary: str, url: str, tmp: Path, *extra: str) -> subprocess.CompletedProcess:
    profile = tmp / f"profile-{len(list(tmp.glob('profile-*')))}"  # a fresh profile per run
    result = subprocess.run([binary, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *extra, url],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    return result


def dump_dom(binary: str, page: Path, fragment: str, tmp: Path) -> str:
    return run_chromium(binary, page.resolve().as_uri() + fragment, tmp, "--dump-dom").stdout


class Cells(HTMLParser):
    """The grid cells (id -> attributes + text), the header rows and elements by id."""

    def __init__(self) -> None:
        super().__init__()
        self.cells: dict[str, dict] = {}
        self.by_id: dict[str, dict] = {}
        self.order: dict[str, list[str]] = {"sb": [], "bb": []}
        self.headers: dict[str, list[str]] = {"sb": [], "bb": []}
        self._table: str | None = None
        self._stack: list[dict] = []
        self._th: str | None = None
        self._rows = 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table" and attrs.get("id", "").startswith("grid-"):
            self._table, self._rows = attrs["id"][5:], 0
        if self._table and tag == "tr":
            self._rows += 1
        item = {"tag": tag, "attrs": attrs, "text": ""}
        if "id" in attrs:
            self.by_id[attrs["id"]] = item
        if tag in ("br", "input", "meta", "circle", "line", "path"):
            return
        self._stack.append(item)
        if self._table and tag == "td":
            self.cells[attrs["id"]] = item
            self.order[self._table].append(attrs["id"])
        if self._table and tag == "th" and self._rows == 1:
            self._th = ""

    def handle_endtag(self, tag):
        if tag == "table":
            self._table = None
        if tag == "th" and self._th is not None:
            self.headers[self._table].append(self._th)
            self._th = None
        while self._stack:
            item = self._stack.pop()
            if item["tag"] == tag:
                break

    def handle_data(self, data):
        for item in self._stack:
            item["text"] += data
        if self._th is not None:
            self._th += data


def parse_dom(html: str) -> Cells:
    parser = Cells()
    parser.feed(html)
    return parser


def background(style: str) -> tuple[int, int, int]:
    m = re.search(r"background(?:-color)?:\s*rgb\((\d+),\s*(\d+),\s*(\d+)\)", style)
    assert m, style
    return int(m[1]), int(m[2]), int(m[3])


def rgb(hex_: str) -> np.ndarray:
    return np.array([int(hex_[i:i + 2], 16) for i in (0, 2, 4)], dtype=np.float64)


def embedded_data(page: Path) -> dict:
    text = page.read_text(encoding="utf-8")
    m = re.search(r'<script type="application/json" id="chart-data">(.*?)</script>', text, re.S)
    assert m
    return json.loads(m[1])


# ---------------------------------------------------------------- the page in Chromium


@pytest.mark.parametrize("stack", [10.0, 7.7])
def test_browser_grids_equal_ranges_csv(chart, chromium, tmp_path, stack):
    dom = parse_dom(dump_dom(chromium, chart / "chart.html", f"#stack={stack:g}", tmp_path))
    assert dom.by_id["stack-value"]["attrs"]["data-stack"] == f"{stack:g}"
    rows = [r for r in read_csv(chart / "ranges.csv") if float(r["stack"]) == stack]
    assert len(rows) == 2 * 169
    mixed = 0
    for row in rows:
        cell = dom.cells[f"{row['player']}-{row['hand']}"]
        freq = float(row["frequency"])
        assert cell["attrs"]["data-hand"] == row["hand"]
        # frequencies are embedded in 0.1 % steps, EV margins to 4 decimals
        assert abs(int(cell["attrs"]["data-freq"]) / 1000 - freq) <= 0.0005 + 1e-12, row
        ev = row.get("ev_margin", row.get("ev"))  # the column is being renamed ev -> ev_margin
        if ev == "":
            assert cell["attrs"]["data-ev"] == ""
        else:
            assert abs(float(cell["attrs"]["data-ev"]) - float(ev)) <= 0.00005 + 1e-9, row
        # colour: white at 0, the player's colour at 1, linear in between (as in the PNGs)
        want = rgb("FFFFFF") + (rgb(FREQUENCY_FULL[row["player"]]) - rgb("FFFFFF")) * round(freq * 1000) / 1000
        assert np.abs(np.array(background(cell["attrs"]["style"])) - want).max() <= 1.01, row
        shown = round(freq * 1000)
        if 0 < shown < 1000:
            mixed += 1
            assert cell["text"] == f"{row['hand']}{shown / 10:.1f}%", row
        else:
            assert cell["text"] == row["hand"], row
    assert mixed >= 1  # every stack of this set has a mixed hand (e.g. 43s at 10 bb)
    values = next(r for r in read_csv(chart / "values.csv") if float(r["stack"]) == stack)
    stats = dom.by_id["stats"]["text"]
    assert f"SB push {float(values['push_pct']):.1f}%" in stats
    assert f"BB call {float(values['call_pct']):.1f}%" in stats


def test_browser_slider_buttons_and_hover_drive_the_page(chart, chromium, tmp_path):
    # the page as written, plus a script that uses it like a person: drag the slider to the
    # second stack, press "+", point at BB's Q6s
    actions = """<script>
    const slider = document.getElementById("slider");
    slider.value = "1"; slider.dispatchEvent(new Event("input"));
    document.body.dataset.afterSlider = document.getElementById("stack-value").dataset.stack;
    document.getElementById("next").click();
    document.getElementById("bb-Q6s").dispatchEvent(new MouseEvent("mouseenter", {clientX: 20, clientY: 20}));
    document.body.dataset.hash = location.hash;
    </script></body>"""
    page = tmp_path / "driven.html"
    page.write_text((chart / "chart.html").read_text(encoding="utf-8").replace("</body>", actions), encoding="utf-8")
    html = dump_dom(chromium, page, "", tmp_path)
    assert re.search(r'<body[^>]*data-after-slider="5"', html)  # the slider moved to the second stack
    assert re.search(r'<body[^>]*data-hash="#stack=7.7"', html)  # "+" moved on and updated the address
    dom = parse_dom(html)
    assert dom.by_id["stack-value"]["attrs"]["data-stack"] == "7.7"
    rows = [r for r in read_csv(chart / "ranges.csv") if float(r["stack"]) == 7.7]
    for row in rows:
        cell = dom.cells[f"{row['player']}-{row['hand']}"]
        assert abs(int(cell["attrs"]["data-freq"]) / 1000 - float(row["frequency"])) <= 0.0005 + 1e-12, row
    q6s = next(r for r in rows if r["player"] == "bb" and r["hand"] == "Q6s")
    tip = dom.by_id["tip"]
    assert "display: block" in tip["attrs"]["style"]
    assert "Q6s" in tip["text"] and "BB call at 7.7 bb" in tip["text"]
    assert f"call frequency {float(q6s['frequency']) * 100:.1f}%" in tip["text"]


def test_browser_grid_orientation_and_headers(chart, chromium, tmp_path):
    dom = parse_dom(dump_dom(chromium, chart / "chart.html", "#stack=5", tmp_path))
    for player in ("sb", "bb"):
        assert dom.headers[player] == ["", *RANKS]
        expected = [f"{player}-{grid_hand(r, c)}" for r in range(13) for c in range(13)]
        assert dom.order[player] == expected


def test_browser_thresholds_mode_and_hand_details(chart, chromium, tmp_path):
    dom = parse_dom(dump_dom(chromium, chart / "chart.html", "#stack=5&mode=thr&hand=sb:T3s", tmp_path))
    assert dom.by_id["stack-value"]["attrs"]["data-stack"] == "5"
    rows = read_csv(chart / "thresholds.csv")
    for row in rows:
        cell = dom.cells[f"{row['player']}-{row['hand']}"]
        assert cell["text"] == row["hand"] + expected_label(row, HIGH), row
    t3s = next(r for r in rows if r["player"] == "sb" and r["hand"] == "T3s")
    assert t3s["intervals"].count(";") >= 1  # T3s is pushed on several intervals below 10 bb (README)
    detail = dom.by_id["detail"]["text"]
    assert "T3s" in detail and "SB push at 5 bb" in detail
    for part in t3s["intervals"].split(";"):
        lo, hi = part.split("-")
        assert f"{float(lo):.12g}\u2013{float(hi):.12g}" in detail
    freq = next(r for r in read_csv(chart / "ranges.csv")
                if r["player"] == "sb" and r["hand"] == "T3s" and float(r["stack"]) == 5)
    assert f"{float(freq['frequency']) * 100:.1f}%" in detail


# Put first in <head>: records every script error and console.error on <html data-js-errors>.
ERROR_COLLECTOR = """<script>
(() => {
  const errors = [];
  const note = text => {
    errors.push(String(text));
    document.documentElement.dataset.jsErrors = JSON.stringify(errors);
  };
  // capture: also a resource that fails to load (the page should have none)
  window.addEventListener("error", ev => note(ev.message || "failed: " + (ev.target && ev.target.outerHTML)), true);
  window.addEventListener("unhandledrejection", ev => note("unhandled rejection: " + ev.reason));
  const consoleError = console.error;
  console.error = (...args) => { note(args.join(" ")); consoleError(...args); };
})();
</script>"""


def test_browser_runs_the_inlined_script_and_style_without_errors(chart, chromium, tmp_path):
    # chart.js and chart.css from sflp/report/static/, inlined in the page: a syntax or run-time
    # error in the script would land in data-js-errors (and the script would not finish); the
    # computed styles show the browser parsed and applied the style sheet
    report = """<script>
    document.body.dataset.paddingLeft = getComputedStyle(document.body).paddingLeft;
    document.body.dataset.controls = getComputedStyle(document.querySelector(".controls")).display;
    </script></body>"""
    text = (chart / "chart.html").read_text(encoding="utf-8")
    page = tmp_path / "checked.html"
    page.write_text(text.replace("<head>", "<head>" + ERROR_COLLECTOR, 1).replace("</body>", report), encoding="utf-8")
    html = dump_dom(chromium, page, "#stack=7.7", tmp_path)
    errors = re.search(r'<html[^>]*data-js-errors="([^"]*)"', html)
    assert errors is None, errors and errors[1]
    assert re.search(r'<body[^>]*data-padding-left="20px"', html)  # body { padding: 16px 20px } (default 0)
    assert re.search(r'<body[^>]*data-controls="flex"', html)
    dom = parse_dom(html)
    # the script ran to its end: init() filled the page and painted the stack from the address
    assert dom.by_id["stack-value"]["attrs"]["data-stack"] == "7.7"
    assert dom.by_id["coverage"]["text"] == f"All {len(STACKS)} solved stacks are in this page."
    assert len(dom.cells) == 2 * 169


def test_browser_screenshot(chart, chromium, tmp_path):
    shot = tmp_path / "chart.png"
    run_chromium(chromium, (chart / "chart.html").resolve().as_uri() + "#stack=10", tmp_path,
                 f"--screenshot={shot}", "--window-size=1300,900")
    from PIL import Image

    with Image.open(shot) as png:
        image = np.asarray(png.convert("RGB"), dtype=np.float64) / 255
    assert image.shape[:2] == (900, 1300)
    pixels = np.round(image[:, :, :3] * 255).astype(int).reshape(-1, 3)
    for player in ("sb", "bb"):  # both grids were painted in their full colours
        assert (np.abs(pixels - rgb(FREQUENCY_FULL[player])).max(axis=1) <= 2).sum() > 1000


# ---------------------------------------------------------------- the page as a file


def test_page_is_self_contained(chart):
    text = (chart / "chart.html").read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>")
    for needle in ("src=", "href=", "<link", "@import", "url(", "fetch(", "XMLHttpRequest", "import("):
        assert needle not in text, needle
    assert set(re.findall(r"https?://[^\s\"']+", text)) <= {"http://www.w3.org/2000/svg"}  # the SVG namespace


def test_page_code_ships_as_package_data_and_is_inlined(chart):
    # the page's skeleton, style and code are files of the package (found by importlib.resources,
    # as in an installed wheel), and the written page holds each of them verbatim
    text = (chart / "chart.html").read_text(encoding="utf-8")
    for name in STATIC_FILES:
        assert (files("sflp.report") / "static" / name).is_file(), name
    css, js = static_text("chart.css"), static_text("chart.js")
    assert f"<style>\n{css}</style>" in text
    assert f"<script>\n{js}</script>" in text
    for piece in re.split(r"__(?:TITLE|DATA|STYLE|SCRIPT)__", static_text("chart.html")):
        assert piece in text, piece
    # inlined text must not end its element early (nor put the HTML parser in its "<!--" escaped
    # state), nor hold a slot of the skeleton
    assert "</style" not in css.lower() and "</script" not in js.lower() and "<!--" not in js
    assert not re.search(r"__(?:TITLE|DATA|STYLE|SCRIPT)__", css + js)


def test_chart_js_parses_in_node():
    node = find_tool(("node", "nodejs"), "nodejs")
    with as_file(files("sflp.report") / "static" / "chart.js") as path:
        result = subprocess.run([node, "--check", str(path)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr


def test_page_data_matches_csv(chart):
    data = embedded_data(chart / "chart.html")
    assert data["stacks"] == STACKS and data["solved"] == len(STACKS)
    assert data["hands"] == list(CLASS_NAMES)
    about = dict(data["about"])
    assert about["command"] == "pytest"


def _synthetic(n: int, seed: int = 1) -> tuple[pd.DataFrame, pd.DataFrame]:
    rng = np.random.default_rng(seed)
    stacks = np.round(1 + 0.05 * np.arange(n), 2)
    values = pd.DataFrame({"stack": stacks, "value": rng.normal(size=n), "push_pct": rng.uniform(0, 100, n),
                           "call_pct": rng.uniform(0, 100, n), "exploitability": np.zeros(n)})
    ranges = pd.DataFrame({
        "stack": np.repeat(stacks, 338),
        "player": np.tile(np.repeat(["sb", "bb"], 169), n),
        "hand": np.tile(list(CLASS_NAMES), 2 * n),
        "frequency": rng.uniform(0, 1, 338 * n),  # worst case: every cell mixed
        "ev_margin": rng.normal(scale=3, size=338 * n),
    })
    return values, ranges


def test_page_size_for_481_stacks_is_well_under_5_mb(tmp_path):
    values, ranges = _synthetic(481)  # 1-25 bb at 0.05
    path = write_chart_html(tmp_path / "chart.html", values, ranges, None, "SB 0.5 / BB 1, no ante", [])
    assert path.stat().st_size < 2.5e6
    data = embedded_data(path)
    assert len(data["stacks"]) == 481
    # the encoding keeps 0.1 % and 0.0001 bb
    k = 200
    assert abs(data["bb"][k][7] / 1000 - ranges["frequency"].iloc[k * 338 + 169 + 7]) <= 0.0005 + 1e-12
    assert abs(data["bb_ev"][k][7] / 10_000 - ranges["ev_margin"].iloc[k * 338 + 169 + 7]) <= 0.00005 + 1e-12


def test_page_caps_the_embedded_stacks(tmp_path):
    values, ranges = _synthetic(2001)
    path = write_chart_html(tmp_path / "chart.html", values, ranges, None, "SB 0.5 / BB 1, no ante", [])
    data = embedded_data(path)
    stacks = data["stacks"]
    assert len(stacks) == MAX_STACKS
    assert stacks[0] == values["stack"].iloc[0] and stacks[-1] == values["stack"].iloc[-1]
    gaps = np.diff(stacks)
    # spread evenly: 2000 steps of 0.05 bb in 999 gaps, each of 2 or 3 steps
    assert gaps.max() <= 3 * 0.05 + 1e-9 and gaps.min() >= 2 * 0.05 - 1e-9
    assert data["solved"] == 2001
    assert path.stat().st_size < 5e6


def test_page_survives_script_end_tags_in_text(tmp_path):
    values, ranges = _synthetic(2)
    nasty = "</script><script>alert(1)</script> __SCRIPT__ __STYLE__"  # and the skeleton's slot names
    path = write_chart_html(tmp_path / "chart.html", values, ranges, None, "SB 0.5 / BB 1 __DATA__",
                            [("note", nasty)])
    text = path.read_text(encoding="utf-8")
    assert text.count("</script>") == 2  # the data block's and the code's
    assert text.count(static_text("chart.js")) == 1 and text.count(static_text("chart.css")) == 1
    assert "<title>sflp push/fold chart, SB 0.5 / BB 1 __DATA__</title>" in text
    data = embedded_data(path)
    assert dict(data["about"])["note"] == nasty and data["structure"] == "SB 0.5 / BB 1 __DATA__"


def test_page_rejects_incomplete_ranges(tmp_path):
    values, ranges = _synthetic(2)
    with pytest.raises(ConfigError, match="every hand"):
        write_chart_html(tmp_path / "chart.html", values, ranges.iloc[:-1], None, "x", [])
    assert not list(tmp_path.iterdir())


