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
import math
import re
import subprocess
from html import unescape
from html.parser import HTMLParser
from importlib.resources import as_file, files
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sflp.charts.chartset import write_chart_set
from sflp.charts.colors import FREQUENCY_FULL, text_colour
from sflp.charts.frames import ranges_frame, thresholds_frame, values_frame
from sflp.charts.media.html.page import MAX_STACKS, STATIC_FILES, static_text, write_chart_html
from sflp.charts.scale import chart_scale
from sflp.core.cards import CLASS_NAMES
from sflp.core.game import GameConfig
from sflp.errors import ConfigError
from sflp.solving.solver import solve_many
from sflp.solving.thresholds import compute_thresholds
from tests.chart_files import HIGH, LOW, RANKS, STACKS, find_tool, grid_hand, read_csv

SIZES = [(390, 844), (1400, 900)]
"""A phone (iPhone 12-15 CSS viewport, 390x844) and a desktop window, as issue 22 asks."""
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage", "--hide-scrollbars"]


# ---------------------------------------------------------------- fixtures


def expected_cell(row: dict[str, str], low: float = LOW, high: float = HIGH) -> tuple[str, str]:
    """The number and mark of a thresholds.csv row's cell, by issue 32's rule written out here: the
    stack floored to 0.1 bb, whole bb from 100 bb, ``N+`` when capped, ``-`` when never; then ``†``
    when a folded stretch of at least 0.5 bb lies inside the played range (below its first interval
    too, down to ``low``), ``*`` for narrower gaps, nothing for one interval from ``low``."""
    if row["max_stack"] == "":
        number = "-"
    elif row["capped"].lower() in ("true", "1"):
        number = f"{high:g}+"
    else:
        x = float(row["max_stack"])
        number = str(math.floor(x + 1e-9)) if x >= 100 else f"{math.floor(x * 10 + 1e-9) / 10:.1f}"
    ivs = [tuple(map(float, part.split("-"))) for part in row["intervals"].split(";") if part]
    gaps = [b[0] - a[1] for a, b in zip(ivs, ivs[1:])] + ([ivs[0][0] - low] if ivs and ivs[0][0] > low + 1e-9 else [])
    mark = "" if not gaps else "†" if max(gaps) >= 0.5 - 1e-9 else "*"
    return number, mark


@pytest.fixture(scope="module")
def chart(chart_set):
    return chart_set  # one per test process (conftest.py): the HTML and PDF tests read the same set


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


VIEW_REPORT = """<script>
(() => {
  const pre = parent.document.createElement("pre");
  pre.id = "view-%d"; pre.textContent = document.documentElement.outerHTML; parent.document.body.appendChild(pre);
})();
</script></body>"""


def dump_doms(binary: str, views: list[tuple[Path, str]], tmp: Path) -> list[str]:
    """:func:`dump_dom` of several views (a page and an address fragment) in one Chromium run.

    Each view is a copy of its page opened in an iframe of 800 x 600 CSS pixels (Chromium's default
    window) of one outer page; the copy writes its serialised document into the outer page once its
    own scripts have run (chart.js draws the page synchronously, as :func:`probe` relies on).  The
    write is synchronous (``--allow-file-access-from-files`` lets a file's frame reach its parent), and
    it comes before the frame's load event, which comes before the outer page's: the outer page's
    dump holds every view, whatever the machine's load.  One run (about 1 s) instead of one a view.
    """
    frames = []
    for k, (page, fragment) in enumerate(views):
        head, end, tail = page.read_text(encoding="utf-8").rpartition("</body>")
        assert end, page
        copy = tmp / f"view-{k}.html"
        copy.write_text(head + VIEW_REPORT % k + tail, encoding="utf-8")
        frames.append(f'<iframe src="{copy.name}{fragment}" style="border:0;display:block;width:800px;height:600px">'
                      "</iframe>")
    outer = tmp / "views.html"
    outer.write_text(f"""<!DOCTYPE html><html><body style="margin:0">{"".join(frames)}</body></html>""",
                     encoding="utf-8")
    html = run_chromium(binary, outer.resolve().as_uri(), tmp, "--dump-dom", "--allow-file-access-from-files").stdout
    out = []
    for k in range(len(views)):
        m = re.search(rf'<pre id="view-{k}">(.*?)</pre>', html, re.S)
        assert m, f"view {k} ({views[k][1]!r} of {views[k][0].name}) did not report: {html[-1000:]}"
        out.append(unescape(m[1]))
    return out


CHART_VIEWS = ["#stack=10&mode=freq", "#stack=7.7&mode=freq", "#stack=5", "#stack=5&mode=thr&hand=sb:T3s",
               "#stack=5&mode=thr", "#stack=5&mode=freq"]
"""The addresses at which the tests below read the module's chart set as it is (no script added)."""


@pytest.fixture(scope="module")
def chart_doms(chart, chromium, tmp_path_factory) -> dict[str, str]:
    """The chart set's page at every address of CHART_VIEWS, in one Chromium run (:func:`dump_doms`)."""
    views = [(chart / "chart.html", fragment) for fragment in CHART_VIEWS]
    return dict(zip(CHART_VIEWS, dump_doms(chromium, views, tmp_path_factory.mktemp("views"))))


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
def test_browser_grids_equal_ranges_csv(chart, chart_doms, stack):
    dom = parse_dom(chart_doms[f"#stack={stack:g}&mode=freq"])
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
    value = float(values["value"])  # issue 32: the stats say whose value it is
    sign = "\u2212" if round(value, 4) < 0 else "+"
    assert f"SB's value {sign}{abs(value):.4f} bb" in stats
    assert f"BB call {float(values['call_pct']):.1f}%" in stats
    assert "hidden" in dom.by_id["foot-sb"]["attrs"]  # the notes of the threshold grids


def test_browser_slider_buttons_and_hover_drive_the_page(chart, chromium, tmp_path):
    # the page as written, plus a script that uses it like a person: drag the slider to the
    # second stack, press "+", point at BB's Q6s
    actions = """<script>
    const slider = document.getElementById("slider");
    slider.value = "1"; slider.dispatchEvent(new Event("input"));
    document.body.dataset.afterSlider = document.getElementById("stack-value").dataset.stack;
    document.getElementById("next").click();
    document.getElementById("bb-Q6s").dispatchEvent(
      new MouseEvent("mouseover", {bubbles: true, clientX: 20, clientY: 20}));
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
    assert "Q6s" in tip["text"] and "BB call at 7.7 bb" in tip["text"]  # the window is 800 px wide: a tooltip
    assert f"call {float(q6s['frequency']) * 100:.1f}%" in tip["text"]


def test_browser_grid_orientation_and_headers(chart_doms):
    dom = parse_dom(chart_doms["#stack=5"])
    for player in ("sb", "bb"):
        assert dom.headers[player] == ["", *RANKS]
        expected = [f"{player}-{grid_hand(r, c)}" for r in range(13) for c in range(13)]
        assert dom.order[player] == expected


def test_browser_thresholds_mode_and_hand_details(chart, chart_doms):
    html = chart_doms["#stack=5&mode=thr&hand=sb:T3s"]
    dom = parse_dom(html)
    assert dom.by_id["stack-value"]["attrs"]["data-stack"] == "5"
    rows = read_csv(chart / "thresholds.csv")
    for row in rows:
        cell = dom.cells[f"{row['player']}-{row['hand']}"]
        assert cell["text"] == row["hand"] + "".join(expected_cell(row)), row
        if "chart_label" in row:  # and the label thresholds.csv publishes
            assert cell["text"] == row["hand"] + row["chart_label"], row
    # issue 32: 63s, pushed up to 2.39 and again from 5.07 bb, shows the gap after its number, and the note
    # under the grid says where it is pushed
    assert dom.cells["sb-63s"]["text"] == "63s7.1\u2020"
    foot = re.search(r'<div[^>]*id="foot-sb"[^>]*>(.*?)(<details>|</div></div>)', html, re.S)[1]
    assert "<div>\u2020 63s: push \u22642.3" in foot  # on the page, not folded away with the "*" hands
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


# slow: the fast set's layout probes run the page with the same error collector and demand no error
# (probe()), and measure a layout only the inlined style sheet gives
@pytest.mark.slow
def test_browser_runs_the_inlined_script_and_style_without_errors(chart, chromium, tmp_path):
    # chart.js and chart.css from sflp/charts/media/html/static/, inlined in the page: a syntax or run-time
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


# fast: the desktop (both grids on screen); slow: the phone too (the layout tests measure both sizes)
@pytest.mark.parametrize("width, height", [pytest.param(*SIZES[0], marks=pytest.mark.slow), SIZES[1]])
def test_browser_screenshot(chart, chromium, tmp_path, width, height):
    # the screenshot is taken at the window size asked for (phone and desktop), and shows the grids
    shot = tmp_path / f"chart-{width}x{height}.png"
    run_chromium(chromium, (chart / "chart.html").resolve().as_uri() + "#stack=10&mode=freq", tmp_path,
                 f"--screenshot={shot}", f"--window-size={width},{height}")
    from PIL import Image

    with Image.open(shot) as png:
        assert png.size == (width, height)
        image = np.asarray(png.convert("RGB"), dtype=np.float64) / 255
    pixels = np.round(image[:, :, :3] * 255).astype(int).reshape(-1, 3)
    # SB's grid is on screen at both sizes, BB's beside it on the desktop (on the phone it is below)
    for player in ("sb", "bb") if width >= 1200 else ("sb",):
        assert (np.abs(pixels - rgb(FREQUENCY_FULL[player])).max(axis=1) <= 2).sum() > 1000


# ---------------------------------------------------------------- layout, keys and tooltips at phone and desktop size

# Appended to a copy of chart.html: measures the page as Chromium laid it out, drives it (mode switch,
# pointer and focus on edge cells, keys, a typed stack) and posts the numbers as JSON to the frame
# around it (see probe()).  Rectangles are in page coordinates, tooltips in viewport coordinates.
PROBE = """<script>
(() => {
  const $ = id => document.getElementById(id);
  const view = el => {
    const r = el.getBoundingClientRect();
    return {left: r.left, right: r.right, top: r.top, bottom: r.bottom};
  };
  const page = el => {
    const r = view(el);
    return {left: r.left + scrollX, right: r.right + scrollX, top: r.top + scrollY, bottom: r.bottom + scrollY};
  };
  const stack = () => $("stack-value").dataset.stack;
  const key = (target, k) => target.dispatchEvent(
    new KeyboardEvent("keydown", {key: k, bubbles: true, cancelable: true}));
  const out = {viewport: [document.documentElement.clientWidth, document.documentElement.clientHeight],
               open: {stack: stack(), hash: location.hash, input: $("stack-input").value,
                      mode: document.body.dataset.mode},
               scrollWidth: {open: document.documentElement.scrollWidth}, headers: {}, tips: [], shown: {}};
  out.grids = {sb: page($("grid-sb")), bb: page($("grid-bb"))};
  out.side = page($("side"));
  out.cell = page($("sb-AA"));
  const font = el => el ? parseFloat(getComputedStyle(el).fontSize) : null;
  out.fonts = {hand: font($("sb-AA").querySelector(".h")), number: font($("sb-AA").querySelector(".f"))};
  const curvesTop = () => $("fig-value").getBoundingClientRect().top + scrollY;
  out.curvesTop = [curvesTop()];
  for (const id of ["stepper", "stack-box", "modes", "fig-value", "fig-pct", "stack-label"]) {
    out.shown[id] = getComputedStyle($(id)).display !== "none" && $(id).getBoundingClientRect().width > 1;
  }
  out.tabStops = {sb: $("grid-sb").querySelectorAll("td[tabindex='0']").length,
                  bb: $("grid-bb").querySelectorAll("td[tabindex='0']").length,
                  cells: document.querySelectorAll("td[data-k][tabindex]").length};
  if ($("mode-thr").offsetParent !== null) $("mode-thr").click();
  out.mode = document.body.dataset.mode;
  out.scrollWidth.thr = document.documentElement.scrollWidth;
  for (const p of ["sb", "bb"]) {
    const row = $("grid-" + p).rows[0].cells, last = row[row.length - 1];
    out.headers[p] = {text: last.textContent, right: page(last).right,
                      cellsRight: Math.max(...[...$("grid-" + p).querySelectorAll("td")].map(td => page(td).right))};
  }
  for (const id of ["sb-AA", "sb-22", "sb-32o", "bb-AA", "bb-22", "bb-32o", "bb-A2s"]) {
    for (const block of ["start", "end"]) {  // the cell at the top, then at the bottom of the viewport
      const td = $(id), tip = $("tip");
      td.scrollIntoView({block: block, inline: "nearest"});
      const r = td.getBoundingClientRect();
      td.dispatchEvent(new MouseEvent("mouseover", {bubbles: true, clientX: r.right - 1, clientY: r.bottom - 1}));
      out.tips.push({id: id, how: "mouse", shown: getComputedStyle(tip).display, rect: view(tip), cell: view(td),
                     grid: view($("grid-" + id.slice(0, 2))), text: tip.textContent, detail: $("detail").textContent});
      out.curvesTop.push(curvesTop());
      $("grid-" + id.slice(0, 2)).dispatchEvent(new MouseEvent("mouseleave"));
      td.focus();
      out.tips.push({id: id, how: "focus", shown: getComputedStyle(tip).display, rect: view(tip), cell: view(td),
                     grid: view($("grid-" + id.slice(0, 2))), text: tip.textContent, detail: $("detail").textContent,
                     active: document.activeElement.id});
      out.curvesTop.push(curvesTop());
      td.blur();
    }
  }
  // every hand's details in the panel: the whole text shows (nothing scrolled away or cut), the curves below it
  out.details = {hidden: [], overlap: [], longest: 0, count: 0};
  for (const p of ["sb", "bb"]) for (let k = 0; k < 169; k++) {
    show(p, k);
    const det = $("detail"), items = det.querySelectorAll("li"), box = view(det);
    const last = items.length ? view(items[items.length - 1]) : box;
    out.details.count++;
    out.details.longest = Math.max(out.details.longest, box.bottom - box.top);
    if (det.scrollHeight > det.clientHeight + 1 || det.scrollWidth > det.clientWidth + 1 || last.bottom > box.bottom) {
      out.details.hidden.push(p + "-" + D.hands[k]);
    }
    if (view($("fig-value")).top < box.bottom) out.details.overlap.push(p + "-" + D.hands[k]);
  }
  window.scrollTo(0, 0);
  document.querySelector("input[name=mode][value=freq]").click();
  out.scrollWidth.freq = document.documentElement.scrollWidth;
  const keys = [];
  const note = what => keys.push([what, stack(), document.activeElement ? document.activeElement.id : "", location.hash,
                                  $("stack-input").value]);
  note("open");
  key(document.body, "ArrowLeft"); note("ArrowLeft");
  key(document.body, "ArrowRight"); note("ArrowRight");
  key(document.body, "End"); note("End");
  key(document.body, "Home"); note("Home");
  key(document.body, "+"); note("+");
  const aa = $("sb-AA"); aa.focus(); note("focus sb-AA");
  key(aa, "ArrowRight"); note("cell ArrowRight");
  key(document.activeElement, "ArrowDown"); note("cell ArrowDown");
  key(document.activeElement, "End"); note("cell End");
  key(document.activeElement, "+"); note("cell +");
  out.tabStopsAfter = [...document.querySelectorAll("td[tabindex='0']")].map(td => td.id);
  document.activeElement.blur();
  const input = $("stack-input");
  input.value = "4"; input.dispatchEvent(new Event("change", {bubbles: true})); note("typed 4");
  input.value = ""; input.dispatchEvent(new Event("change", {bubbles: true})); note("typed nothing");
  input.focus(); input.value = "2.4"; key(input, "Enter"); note("typed 2.4, Enter");
  key(input, "ArrowRight"); note("ArrowRight in the input");
  input.blur();
  out.keys = keys;
  out.errors = document.documentElement.dataset.jsErrors || "";
  parent.postMessage(JSON.stringify(out), "*");
})();
</script></body>"""


def probe(binary: str, page: Path, tmp: Path, size: tuple[int, int], fragment: str = "", script: str = PROBE) -> dict:
    """Run ``script`` (:data:`PROBE`) on a copy of ``page`` seen through a ``width x height`` viewport.

    Headless Chromium lays a page out in a window no narrower than 500 px whatever ``--window-size``
    says (``--screenshot`` alone resizes the view), so the copy is opened in an iframe of exactly
    ``size`` CSS pixels: its document has that viewport, and its media queries and layout are the
    page's at that size.  The probe posts its JSON to the frame's parent, which --dump-dom prints.
    """
    width, height = size
    text = page.read_text(encoding="utf-8")
    probed = tmp / f"probed-{width}.html"
    probed.write_text(text.replace("<head>", "<head>" + ERROR_COLLECTOR, 1).replace("</body>", script),
                      encoding="utf-8")
    outer = tmp / f"outer-{width}.html"
    outer.write_text(f"""<!DOCTYPE html><html><body style="margin:0">
<iframe src="{probed.name}{fragment}" style="border:0;display:block;width:{width}px;height:{height}px"></iframe>
<pre id="probe"></pre><script>
addEventListener("message", ev => {{ document.getElementById("probe").textContent = ev.data; }});
</script></body></html>""", encoding="utf-8")
    html = run_chromium(binary, outer.resolve().as_uri(), tmp, "--dump-dom", f"--window-size={width},{height}").stdout
    m = re.search(r'<pre id="probe">(.*?)</pre>', html, re.S)
    assert m and m[1], html[-2000:]
    out = json.loads(unescape(m[1]))
    assert out["viewport"] == [width, height]
    assert out["errors"] == ""
    return out


@pytest.fixture(scope="module", params=SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def layout(request, chart, chromium, tmp_path_factory):
    return request.param, probe(chromium, chart / "chart.html", tmp_path_factory.mktemp("probe"), request.param)


def test_layout_opens_at_10_bb_in_threshold_mode_and_writes_it_in_the_address(layout):
    _, out = layout
    # issue 32: the threshold charts players come for, not the frequencies (#mode=freq asks for those)
    assert out["open"] == {"stack": "10", "hash": "#stack=10", "input": "10", "mode": "thr"}


def test_layout_threshold_number_is_the_largest_text_of_a_cell(layout):
    _, out = layout
    # issue 32: it was 8.2 px against a 9.7 px hand name on a phone, 9.7 against 11.5 on a desktop
    assert out["fonts"]["number"] > out["fonts"]["hand"] >= 7.5, out["fonts"]


def test_layout_has_no_horizontal_overflow(layout):
    (width, _), out = layout
    # in both modes nothing is wider than the viewport: the page does not scroll sideways
    assert max(out["scrollWidth"].values()) <= width
    assert out["mode"] == "thr"
    for player in ("sb", "bb"):
        # threshold mode shows the 13th column, "2", entirely
        assert out["headers"][player]["text"] == "2"
        assert out["headers"][player]["right"] <= width and out["headers"][player]["cellsRight"] <= width


def test_layout_puts_the_detail_panel_beside_the_grids_when_wide_and_below_when_narrow(layout):
    (width, _), out = layout
    grids, side = out["grids"], out["side"]
    right = max(grids["sb"]["right"], grids["bb"]["right"])
    bottom = max(grids["sb"]["bottom"], grids["bb"]["bottom"])
    if width >= 1200:
        assert side["left"] >= right  # beside: right of both grids, level with them
        assert side["top"] < grids["sb"]["bottom"]
        assert grids["sb"]["top"] == grids["bb"]["top"] and grids["sb"]["right"] <= grids["bb"]["left"]
        # and the grids take the width the panel leaves (issue 32: at 1400 px they stopped at 1100 px, cells of
        # 31.6 px, smaller than at 1024 px): the body's 20 px padding, the grids, an 18 px gap, the panel
        assert grids["sb"]["left"] == 20 and side["left"] - right <= 18 + 1 and side["right"] >= width - 20 - 1
        assert out["cell"]["right"] - out["cell"]["left"] > 34
    else:
        assert side["top"] >= bottom  # below both grids
        assert grids["sb"]["bottom"] <= grids["bb"]["top"]  # and the grids one above the other


def _overlap(a: dict, b: dict) -> bool:
    return a["left"] < b["right"] and b["left"] < a["right"] and a["top"] < b["bottom"] and b["top"] < a["bottom"]


def test_layout_keeps_the_tooltip_on_screen_below_1200_px_and_the_panel_beside_the_grids_above(layout):
    (width, height), out = layout
    assert len(out["tips"]) == 7 * 2 * 2  # 7 cells, at the top and bottom of the view, by pointer and focus
    for tip in out["tips"]:
        # pointing or focusing shows the hand's details in the panel, which keeps its height: the curves
        # below it never move (issue 32: they were pushed down by 45 px)
        assert tip["detail"].startswith(tip["id"][3:] + " "), tip
        if width >= 1200:  # the panel stands beside the grids, so a tooltip would only repeat it
            assert tip["shown"] == "none", tip
            continue
        rect = tip["rect"]
        assert tip["shown"] == "block", tip
        assert tip["text"].startswith(tip["id"][3:] + " "), tip  # the hand's details
        assert 0 <= rect["left"] < rect["right"] <= width and 0 <= rect["top"] < rect["bottom"] <= height, tip
        assert not _overlap(rect, tip["cell"]), tip  # and it does not hide the cell it describes
        if width < 700:  # issue 42: nor, on a phone, the grid being read (it covered BB's rows 5-2)
            assert not _overlap(rect, tip["grid"]), tip
        if tip["how"] == "focus":  # focus shows the details like pointing does
            assert tip["active"] == tip["id"]
        # the tooltip is short (hand, frequency, EV margin, where it is played), not the panel's full text
        assert len(tip["text"]) < len(tip["detail"]) and rect["bottom"] - rect["top"] <= 80, tip
    assert len(set(out["curvesTop"])) == 1, out["curvesTop"]


def test_layout_detail_panel_shows_every_hands_whole_interval_list(layout):
    _, out = layout
    # issue 42: the panel had a fixed height and cut the interval list mid-line (43s of the 1-10 bb set needs
    # about twice that height at 1400 px; 28 hands were cut there, 14 at 390 px); now it grows to its text
    details = out["details"]
    assert details["count"] == 2 * 169
    assert details["hidden"] == [] and details["overlap"] == []
    assert details["longest"] > 164 + 40  # some hand's list is longer than the panel's six lines


# Appended to a copy of chart.html: the page scrolled so that a grid's top stands at every 40 px from 240 px above
# the viewport to 120 px above its bottom; at each, a cell of the top, middle and bottom rows on screen touched
# (a mouseover at its centre, as a tap gives); the tooltip's, the cell's and the grid's boxes in the viewport.
SWEEP_PROBE = """<script>
(() => {
  const view = el => {
    const r = el.getBoundingClientRect();
    return {left: r.left, right: r.right, top: r.top, bottom: r.bottom};
  };
  const out = {tips: []}, vh = document.documentElement.clientHeight, tip = document.getElementById("tip");
  for (const p of ["sb", "bb"]) {
    const grid = document.getElementById("grid-" + p);
    for (let top = -240; top <= vh - 120; top += 40) {
      window.scrollBy(0, grid.getBoundingClientRect().top - top);
      for (const hand of ["AKs", "A5s", "K5o", "32o", "A2s", "22"]) {
        const td = document.getElementById(p + "-" + hand), r = td.getBoundingClientRect();
        if (r.top < 0 || r.bottom > vh) continue;
        td.dispatchEvent(new MouseEvent("mouseover", {bubbles: true, clientX: (r.left + r.right) / 2,
                                                      clientY: (r.top + r.bottom) / 2}));
        out.tips.push({id: td.id, top: top, shown: getComputedStyle(tip).display, rect: view(tip), cell: view(td),
                       grid: view(grid)});
        grid.dispatchEvent(new MouseEvent("mouseleave"));
      }
    }
  }
  out.errors = document.documentElement.dataset.jsErrors || "";
  out.viewport = [document.documentElement.clientWidth, vh];
  parent.postMessage(JSON.stringify(out), "*");
})();
</script></body>"""


@pytest.mark.parametrize("size", [(390, 844), (390, 667)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_phone_tooltip_never_covers_the_grid_being_read(chart, chromium, tmp_path, size):
    # issue 42: on a phone the tooltip docked at the bottom edge whenever the touched hand was in the upper half
    # of the screen, and covered BB's rows 5-2 below it; it now stands just below or just above the grid
    # (measured before the fix: 4 of the 251 touches at 390x844 and 26 of the 172 at 390x667 covered part of it)
    width, height = size
    out = probe(chromium, chart / "chart.html", tmp_path, size, "#stack=10", script=SWEEP_PROBE)
    assert len(out["tips"]) > 50
    for tip in out["tips"]:
        rect = tip["rect"]
        assert tip["shown"] == "block", tip
        assert 0 <= rect["top"] < rect["bottom"] <= height and 0 <= rect["left"] < rect["right"] <= width, tip
        assert not _overlap(rect, tip["grid"]), tip


def test_layout_keys_and_typed_stack(layout):
    _, out = layout
    # in frequency mode (the address says so); stacks 2, 5, 7.7, 10; columns: what was done, the stack,
    # the focused element, the address, the input
    assert out["keys"] == [
        ["open", "10", "", "#stack=10&mode=freq", "10"],
        ["ArrowLeft", "7.7", "", "#stack=7.7&mode=freq", "7.7"],
        ["ArrowRight", "10", "", "#stack=10&mode=freq", "10"],
        ["End", "10", "", "#stack=10&mode=freq", "10"],
        ["Home", "2", "", "#stack=2&mode=freq", "2"],
        ["+", "5", "", "#stack=5&mode=freq", "5"],
        ["focus sb-AA", "5", "sb-AA", "#stack=5&mode=freq", "5"],
        # in a grid the arrows move between hands, not stacks
        ["cell ArrowRight", "5", "sb-AKs", "#stack=5&mode=freq", "5"],
        ["cell ArrowDown", "5", "sb-KK", "#stack=5&mode=freq", "5"],
        ["cell End", "5", "sb-K2s", "#stack=5&mode=freq", "5"],
        ["cell +", "7.7", "sb-K2s", "#stack=7.7&mode=freq", "7.7"],
        ["typed 4", "5", "", "#stack=5&mode=freq", "5"],  # the nearest stack on the page (every stack is on it here)
        ["typed nothing", "5", "", "#stack=5&mode=freq", "5"],
        ["typed 2.4, Enter", "2", "stack-input", "#stack=2&mode=freq", "2"],
        ["ArrowRight in the input", "2", "stack-input", "#stack=2&mode=freq", "2"],
    ]
    # one Tab stop per grid (roving tabindex), every cell focusable; the stop follows the focus
    assert out["tabStops"] == {"sb": 1, "bb": 1, "cells": 2 * 169}
    assert out["tabStopsAfter"] == ["sb-K2s", "bb-A2s"]  # bb-A2s: the last cell the tooltip checks focused
    assert all(out["shown"][k] for k in ("stepper", "stack-box", "modes", "fig-value", "fig-pct"))


# Appended to a copy of chart.html: every threshold cell's text (hand name, number and mark) against the
# cell's box, as Chromium laid them out; td has overflow: hidden, so text outside the box is cut off.
CLIP_PROBE = """<script>
(() => {
  const out = {mode: document.body.dataset.mode, clipped: [], labels: [], widest: 0};
  for (const td of document.querySelectorAll("td[data-k]")) {
    const box = td.getBoundingClientRect(), range = document.createRange();
    range.selectNodeContents(td);
    const text = range.getBoundingClientRect();
    if (text.left < box.left || text.right > box.right || text.top < box.top || text.bottom > box.bottom) {
      out.clipped.push([td.id, td.textContent, text.width - box.width, text.height - box.height]);
    }
    out.labels.push(td.querySelector(".f").textContent);
    out.widest = Math.max(out.widest, text.width / box.width);
  }
  out.errors = document.documentElement.dataset.jsErrors || "";
  out.viewport = [document.documentElement.clientWidth, document.documentElement.clientHeight];
  parent.postMessage(JSON.stringify(out), "*");
})();
</script></body>"""


@pytest.fixture(scope="module")
def chart_200(tmp_path_factory):
    """A page with the thresholds of 1-200 bb (the widest labels: "200+*", "191*", "99.2*"), grids at 5, 10 bb."""
    config = GameConfig(stack=10)
    # the float path: the same labels to the character but a rounding boundary, in half the time
    tdf = thresholds_frame(compute_thresholds(config, low=1, high=200, certify=False))
    tdf.attrs.update(low=1.0, high=200.0)
    solutions = solve_many([5, 10], config)
    path = tmp_path_factory.mktemp("chart200") / "chart.html"
    return write_chart_html(path, values_frame(solutions), ranges_frame(solutions), tdf, "SB 0.5 / BB 1, no ante", [])


# fast: the phone, the narrowest cells; slow: the desktop too
@pytest.mark.parametrize("size", [SIZES[0], pytest.param(SIZES[1], marks=pytest.mark.slow)],
                         ids=lambda s: f"{s[0]}x{s[1]}")
def test_browser_no_threshold_label_of_1_to_200_bb_is_clipped(chart_200, chromium, tmp_path, size):
    # issue 32: seven SB labels of the 1-200 set ("130.0*", "191.5*") overflowed their cells and lost their
    # mark (measured before the fix: 9 at 390, 1024 and 1400 px); from 100 bb the labels are whole bb
    out = probe(chromium, chart_200, tmp_path, size, "#stack=10", script=CLIP_PROBE)
    assert out["mode"] == "thr" and len(out["labels"]) == 2 * 169
    assert out["clipped"] == []
    numbers = [float(label.rstrip("*\u2020+")) for label in out["labels"] if label != "-"]
    assert max(numbers) == 200 and all(x < 100 or x == int(x) for x in numbers)
    assert any(label.startswith("200+") and label[4:] for label in out["labels"])  # a capped hand with a mark
    assert out["widest"] <= 1


# Appended to a copy of chart.html: in frequency mode at every stack of the page, each mixed cell's
# percentage (the text itself, not its block) against the cell's box.
FREQ_PROBE = """<script>
(() => {
  const out = {labels: [], clipped: [], widest: 0};
  document.querySelector("input[name=mode][value=freq]").click();
  for (let i = 0; i < D.stacks.length; i++) {
    go(i);
    for (const td of document.querySelectorAll("td[data-k]")) {
      const f = td.querySelector(".f");
      if (!f) continue;
      const box = td.getBoundingClientRect(), range = document.createRange();
      range.selectNodeContents(f.firstChild);
      const text = range.getBoundingClientRect();
      out.labels.push(f.textContent);
      out.widest = Math.max(out.widest, text.width / box.width);
      if (text.left < box.left || text.right > box.right || text.top < box.top || text.bottom > box.bottom) {
        out.clipped.push([D.stacks[i], td.id, f.textContent, text.width - box.width]);
      }
    }
  }
  out.errors = document.documentElement.dataset.jsErrors || "";
  out.viewport = [document.documentElement.clientWidth, document.documentElement.clientHeight];
  parent.postMessage(JSON.stringify(out), "*");
})();
</script></body>"""


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_browser_no_frequency_label_overflows_its_cell(chart, chromium, tmp_path, size):
    # issue 42: "71.1%" (and every two-digit percentage: the digits are tabular) overflowed its cell by
    # about 1 px at 390, 1024 and 1400 px (measured before the fix: 1.0 px at 390, 1.0 at 1400)
    out = probe(chromium, chart / "chart.html", tmp_path, size, "#stack=10&mode=freq", script=FREQ_PROBE)
    assert "71.1%" in out["labels"] and all(re.fullmatch(r"\d+\.\d%", t) for t in out["labels"]), out["labels"]
    assert out["clipped"] == []
    assert out["widest"] <= 0.96, out["widest"]  # room to spare for a wider fallback font


ADDRESSES = [
    ("#stack=7.3", "7.7"), ("#stack=6", "5"), ("#stack=100", "10"), ("#stack=-3", "2"),
    ("#stack=abc", "10"), ("#stack=", "10"), ("#stack=Infinity", "10"), ("#mode=thr", "10"), ("", "10"),
]


@pytest.fixture(scope="module")
def address_doms(chart, chromium, tmp_path_factory) -> dict[str, str]:
    """The page opened at every address of ADDRESSES, in one Chromium run (:func:`dump_doms`)."""
    views = [(chart / "chart.html", fragment) for fragment, _ in ADDRESSES]
    return dict(zip([f for f, _ in ADDRESSES], dump_doms(chromium, views, tmp_path_factory.mktemp("addresses"))))


@pytest.mark.parametrize("fragment, stack", ADDRESSES)
def test_browser_address_picks_the_nearest_stack_or_falls_back_to_10(address_doms, fragment, stack):
    html = address_doms[fragment]
    assert parse_dom(html).by_id["stack-value"]["attrs"]["data-stack"] == stack
    assert re.search(rf'<body[^>]*data-stack="{re.escape(stack)}"', html)


OPENING = [([8, 9.5, 10.7, 12], "9.5"), ([1, 1.05, 1.1], "1.1"), ([30, 40], "30"), ([4], "4")]
CURVES = [
    (STACKS, "points"),  # 2, 5, 7.7, 10: a handful of stacks (issue 32: a line drew a peak no solve gave)
    (list(np.round(1 + 0.05 * np.arange(12), 2)), "line"),  # 12 stacks 0.05 bb apart
    (list(np.round(1 + 0.05 * np.arange(11), 2)), "points"),  # 11: too few
    ([*np.round(1 + 0.5 * np.arange(20), 2), 12.0], "points"),  # dense but one gap of 2.5 bb
]


@pytest.fixture(scope="module")
def synthetic_doms(chromium, tmp_path_factory) -> dict[tuple[str, int], str]:
    """The pages of OPENING's and CURVES' stacks (synthetic frames), opened in one Chromium run."""
    folder = tmp_path_factory.mktemp("synthetic")
    keys, views = [], []
    for kind, cases in (("opening", OPENING), ("curve", CURVES)):
        for k, (stacks, _) in enumerate(cases):
            values, ranges = _synthetic_at(stacks)
            page = write_chart_html(folder / f"{kind}-{k}.html", values, ranges, None, "SB 0.5 / BB 1, no ante", [])
            keys.append((kind, k))
            views.append((page, ""))
    return dict(zip(keys, dump_doms(chromium, views, folder)))


@pytest.mark.parametrize("case", range(len(OPENING)), ids=[str(opens) for _, opens in OPENING])
def test_browser_opens_at_the_stack_nearest_10(synthetic_doms, case):
    dom = parse_dom(synthetic_doms[("opening", case)])
    assert dom.by_id["stack-value"]["attrs"]["data-stack"] == OPENING[case][1]


def _curve(html: str, name: str) -> tuple[str, int, int]:
    """How the curve ``name`` is drawn (its ``data-drawn``), its number of paths and of points."""
    svg = re.search(rf'<svg[^>]*id="curve-{name}"[^>]*>(.*?)</svg>', html, re.S)
    drawn = re.search(r'data-drawn="(\w+)"', svg[0])[1]
    return drawn, len(re.findall(r"<path\b", svg[1])), len(re.findall(r'<circle[^>]*class="point"', svg[1]))


@pytest.mark.parametrize("case", range(len(CURVES)), ids=[f"{len(s)}-{drawn}" for s, drawn in CURVES])
def test_browser_draws_a_curve_over_few_or_sparse_stacks_as_points(synthetic_doms, case):
    stacks, drawn = CURVES[case]
    html = synthetic_doms[("curve", case)]
    for name, series in (("value", 1), ("pct", 2)):
        assert _curve(html, name) == ((drawn, series, 0) if drawn == "line" else (drawn, 0, series * len(stacks)))


def _spoken_ev(label: str) -> float | None:
    m = re.search(r"EV margin (n/a|[+\u2212]?\d+\.\d\d) bb$|EV margin n/a$", label)
    assert m, label
    text = m[1] or "n/a"
    return None if text == "n/a" else float(text.replace("\u2212", "-"))


@pytest.mark.parametrize("stack", [7.7, 10])
def test_browser_cells_have_screen_reader_labels_matching_ranges_csv(chart, chart_doms, stack):
    dom = parse_dom(chart_doms[f"#stack={stack:g}&mode=freq"])
    rows = [r for r in read_csv(chart / "ranges.csv") if float(r["stack"]) == stack]
    verbs = {"sb": "push", "bb": "call"}
    signed_zeros = []
    for row in rows:
        label = dom.cells[f"{row['player']}-{row['hand']}"]["attrs"]["aria-label"]
        who = f"{row['player'].upper()} {verbs[row['player']]}"
        m = re.fullmatch(rf"{row['hand']}, {who} (\d+(?:\.\d)?) %, EV margin .*", label)
        assert m, label
        assert abs(float(m[1]) - float(row["frequency"]) * 100) <= 0.05 + 1e-9, (label, row)
        ev = _spoken_ev(label)
        if row["ev_margin"] == "":
            assert ev is None, label
        else:  # two decimals of the embedded margin (0.0001 bb)
            assert abs(ev - float(row["ev_margin"])) <= 0.005 + 0.00005 + 1e-9, (label, row)
            # issue 42: the sign says which way the hand goes, also when the digits round to zero
            # (SB's T7o at 10 bb, -0.0047, reads "−0.00"); only an exact 0 (a mixed hand) has none
            text, margin = label.rsplit("EV margin ", 1)[1].removesuffix(" bb"), float(row["ev_margin"])
            assert text[0] == ("+" if margin > 0 else "\u2212" if margin < 0 else "0"), (label, row)
            if text[1:] == "0.00":
                signed_zeros.append(row["player"] + "-" + row["hand"])
    if stack == 10:
        assert "sb-T7o" in signed_zeros


def test_browser_cells_have_screen_reader_labels_matching_thresholds_csv(chart, chart_doms):
    dom = parse_dom(chart_doms["#stack=5&mode=thr"])
    verbs = {"sb": ("push", "pushes"), "bb": ("call", "calls")}
    for row in read_csv(chart / "thresholds.csv"):
        label = dom.cells[f"{row['player']}-{row['hand']}"]["attrs"]["aria-label"]
        number, mark = expected_cell(row)
        who, (verb, verbs_) = row["player"].upper(), verbs[row["player"]]
        if number == "-":
            want = f"{row['hand']}, {who} never {verbs_}"
        else:
            tail = {"": "", "*": ", more than one interval",
                    "\u2020": ", folded in between, see the note under the grid"}[mark]
            want = f"{row['hand']}, {who} {verb} up to {number.replace('+', ' or more')} bb{tail}"
        assert label == want, row
    assert dom.cells["sb-T3s"]["attrs"]["aria-label"].endswith(", more than one interval")
    assert dom.cells["sb-AA"]["attrs"]["aria-label"] == "AA, SB push up to 10 or more bb"


def test_browser_grids_are_tables_with_captions_and_header_scopes(chart, chart_doms):
    html = chart_doms["#stack=5&mode=freq"]
    for player, name in (("sb", "SB push"), ("bb", "BB call")):
        table = re.search(rf'<table[^>]*id="grid-{player}"[^>]*>(.*?)</table>', html, re.S)[1]
        caption = re.search(r"<caption[^>]*>(.*?)</caption>", table, re.S)[1]
        assert caption.startswith(f"{name} at 5 bb: ") and caption.endswith("% of hands")
        assert len(re.findall(r'<th[^>]*scope="col"', table)) == 13
        assert len(re.findall(r'<th[^>]*scope="row"', table)) == 13
        assert len(re.findall(r'<td[^>]*tabindex="0"', table)) == 1
        assert len(re.findall(r'<td[^>]*tabindex="-1"', table)) == 168


def test_browser_colours_follow_the_scale_and_capped_cells_take_the_top_colour(chart, chart_doms):
    # issue 32: one threshold scale for every medium (sflp.charts.scale); a capped cell ("10+") takes the
    # top colour of its own, the one the legend's "10+" swatch shows; readable text on every cell
    scale = chart_scale(HIGH, LOW)
    html = chart_doms["#stack=5"]
    dom = parse_dom(html)
    capped = 0
    for row in read_csv(chart / "thresholds.csv"):
        cell = dom.cells[f"{row['player']}-{row['hand']}"]
        bg = background(cell["attrs"]["style"])
        is_capped = row["capped"].lower() in ("true", "1")
        want = scale.colour(float(row["max_stack"]) if row["max_stack"] else None, is_capped)
        assert bg == tuple(int(x) for x in rgb(want)), row
        classes = cell["attrs"].get("class", "").split()
        assert ("top" in classes) == is_capped and ("never" in classes) == (row["max_stack"] == ""), row
        if is_capped:
            capped += 1
            assert want == scale.top.colour != scale.bands[-1].colour, row
        ink = re.search(r"(?:^|;)\s*color:\s*rgb\((\d+), (\d+), (\d+)\)", cell["attrs"]["style"])
        assert "".join(f"{int(x):02X}" for x in ink.groups()) == text_colour(want), row
    assert capped > 20  # AA, KK, ... are played up to the top of 1-10 bb
    # the legend: the bands light to dark, then "10+", then "never", each swatch in its colour
    legend = re.search(r'<div[^>]*id="legend"[^>]*>(.*?)</div>', html, re.S)[1]
    swatches = re.findall(r'background:\s*#([0-9A-F]{6})[^>]*></span>([^<]*)</span>', legend)
    assert [(label, colour) for colour, label in swatches] == [(label, colour) for colour, label in scale.legend()]
    assert [label for _, label in scale.legend()] == ["\u22642", "2\u20134", "4\u20136", "6\u20138", "8\u201310",
                                                      "10+", "never"]


# ---------------------------------------------------------------- exploit and single-stack pages


@pytest.fixture(scope="module")
def exploit_chart(tmp_path_factory):
    from sflp.cli import main

    out = tmp_path_factory.mktemp("exploit") / "set"
    # the command of the issue: an exploitative chart set, BB locked to calling 30 %
    assert main(["exploit", "--stacks", "2,5,10", "--bb", "30%", "--out", str(out), "--json"]) == 0
    return out


def test_browser_exploit_page_is_headed_as_an_exploit(exploit_chart, chromium, tmp_path):
    html = dump_dom(chromium, exploit_chart / "chart.html", "#mode=freq", tmp_path)  # the frequencies: 30 % of hands
    dom = parse_dom(html)
    title = re.search(r"<title>(.*?)</title>", html)[1]
    assert title.startswith("sflp exploitative chart, SB vs BB locked to '30%', SB 0.5 / BB 1")
    assert "equilibrium" not in dom.by_id["heading"]["text"].lower()
    assert dom.by_id["heading"]["text"] == "SB's best response to a locked BB"
    assert "Exploitative, not an equilibrium" in dom.by_id["subtitle"]["text"]
    assert "BB locked to '30%'" in dom.by_id["subtitle"]["text"]
    assert dom.by_id["title-sb"]["text"].startswith("SB best response (push) at 10 bb: ")
    assert dom.by_id["title-bb"]["text"] == "BB locked (call) at 10 bb: 30.0% of hands"
    # screen-reader labels keep the plain action
    assert dom.cells["bb-AA"]["attrs"]["aria-label"].startswith("AA, BB call 100 %, EV margin ")


def test_equilibrium_and_exploit_pages_say_which_they_are(chart, exploit_chart):
    eq = embedded_data(chart / "chart.html")["page"]
    ex = embedded_data(exploit_chart / "chart.html")["page"]
    assert eq["kind"] == "equilibrium" and eq["names"] == {"sb": "SB push", "bb": "BB call"}
    assert ex["kind"] == "exploitative" and ex["names"] == {"sb": "SB best response (push)", "bb": "BB locked (call)"}
    # the blinds alone in the subtitle: the title is not repeated there
    assert embedded_data(exploit_chart / "chart.html")["structure"] == "SB 0.5 / BB 1, no ante"


@pytest.fixture(scope="module")
def single_chart(tmp_path_factory):
    out = tmp_path_factory.mktemp("single") / "set"
    write_chart_set(solve_many([10], GameConfig(stack=10)), None, out, formats=["csv", "html"])
    return out


# fast: the phone (a tooltip); slow: the desktop (the panel) too, which the layout tests see on the main page
@pytest.mark.parametrize("size", [SIZES[0], pytest.param(SIZES[1], marks=pytest.mark.slow)],
                         ids=lambda s: f"{s[0]}x{s[1]}")
def test_layout_single_stack_page_has_no_slider_or_modes(single_chart, chromium, tmp_path, size):
    out = probe(chromium, single_chart / "chart.html", tmp_path, size)
    assert out["open"]["stack"] == "10"
    assert out["shown"] == {"stepper": False, "stack-box": False, "modes": False, "fig-value": False, "fig-pct": False,
                            "stack-label": True}
    assert out["scrollWidth"]["freq"] <= size[0]
    # keys that step the stack do nothing, keys in the grid still move between hands
    assert {row[1] for row in out["keys"]} == {"10"}
    assert out["keys"][7][2] == "sb-AKs"
    # a tooltip below 1200 px; from 1200 px the panel beside the grids shows the hand instead
    assert all(tip["shown"] == ("none" if size[0] >= 1200 else "block") for tip in out["tips"])
    assert all(tip["detail"].startswith(tip["id"][3:] + " ") for tip in out["tips"])


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
        assert (files("sflp.charts.media.html") / "static" / name).is_file(), name
    css, js = static_text("chart.css"), static_text("chart.js")
    assert f"<style>\n{css}</style>" in text
    assert f"<script>\n{js}</script>" in text
    for piece in re.split(r"__(?:TITLE|HEADING|DATA|STYLE|SCRIPT)__", static_text("chart.html")):
        assert piece in text, piece
    # inlined text must not end its element early (nor put the HTML parser in its "<!--" escaped
    # state), nor hold a slot of the skeleton
    assert "</style" not in css.lower() and "</script" not in js.lower() and "<!--" not in js
    assert not re.search(r"__(?:TITLE|HEADING|DATA|STYLE|SCRIPT)__", css + js)


def test_chart_js_parses_in_node():
    node = find_tool(("node", "nodejs"), "nodejs")
    with as_file(files("sflp.charts.media.html") / "static" / "chart.js") as path:
        result = subprocess.run([node, "--check", str(path)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr


def test_page_data_matches_csv(chart):
    data = embedded_data(chart / "chart.html")
    assert data["stacks"] == STACKS and data["solved"] == len(STACKS)
    assert data["hands"] == list(CLASS_NAMES)
    about = dict(data["about"])
    assert about["command"] == "pytest"


def _synthetic(n: int, seed: int = 1) -> tuple[pd.DataFrame, pd.DataFrame]:
    return _synthetic_at(np.round(1 + 0.05 * np.arange(n), 2), seed)


def _synthetic_at(stacks, seed: int = 1) -> tuple[pd.DataFrame, pd.DataFrame]:
    rng = np.random.default_rng(seed)
    stacks = np.asarray(stacks, dtype=np.float64)
    n = len(stacks)
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


MARKUP_NAME = "<!--<script>"
"""A strategy named like markup (issue 30's leftovers): with ``</`` escaped but not ``<!--``, the
HTML parser met ``<!--<script>`` inside the data script, entered its "double escaped" state, read
the rest of the page as script data, and Chromium rendered an empty page."""


def _markup_page(tmp_path: Path) -> Path:
    values, ranges = _synthetic(2)
    about = [("Locked player", "BB"), ("Locked strategy", MARKUP_NAME), ("note", "a & b > c \u2028\u2029 <")]
    return write_chart_html(tmp_path / "chart.html", values, ranges, None, "SB 0.5 / BB 1, no ante", about,
                            title=f"Exploitative: SB vs BB locked to {MARKUP_NAME!r}")


def test_page_data_script_holds_no_markup_for_a_strategy_named_like_markup(tmp_path):
    text = _markup_page(tmp_path).read_text(encoding="utf-8")
    head, _, rest = text.partition('<script type="application/json" id="chart-data">')
    blob, _, _ = rest.partition("</script>")
    for needle in ("<", ">", "&", "\u2028", "\u2029"):  # every one written as its \uXXXX escape
        assert needle not in blob, needle
    assert "\\u003c!--\\u003cscript\\u003e" in blob
    data = json.loads(blob)  # and the escapes read back as the same text
    assert dict(data["about"])["Locked strategy"] == MARKUP_NAME
    assert dict(data["about"])["note"] == "a & b > c \u2028\u2029 <"
    assert data["page"]["lead"] == f"BB locked to {MARKUP_NAME!r}"
    # the title and heading are HTML-escaped text
    assert "<title>sflp exploitative chart, SB vs BB locked to '&lt;!--&lt;script&gt;'" in head


def test_browser_renders_the_grids_of_a_strategy_named_like_markup(chromium, tmp_path):
    html = dump_dom(chromium, _markup_page(tmp_path), "", tmp_path)
    dom = parse_dom(html)
    assert len(dom.cells) == 2 * 169 and all(dom.cells[f"sb-{h}"]["attrs"].get("data-freq") for h in CLASS_NAMES)
    assert dom.by_id["heading"]["text"] == "SB's best response to a locked BB"
    assert f"BB locked to {MARKUP_NAME!r}" in dom.by_id["subtitle"]["text"]


def test_page_of_text_that_is_not_utf8_shows_u_fffd(tmp_path):
    """A strategy file name that is not UTF-8 reaches the page as lone surrogates: the page is
    written (it was a UnicodeEncodeError in a worker, after all the work) with U+FFFD for them."""
    values, ranges = _synthetic(2)
    name = "\udcff\udcfe.csv\x01"
    path = write_chart_html(tmp_path / "chart.html", values, ranges, None, "SB 0.5 / BB 1 \udcff",
                            [("Locked player", "BB"), ("Locked strategy", name), ("k\udcff", 1.5)],
                            title=f"Exploitative: {name}")
    text = path.read_bytes().decode("utf-8")  # strict
    data = embedded_data(path)
    assert dict(data["about"]) == {"Locked player": "BB", "Locked strategy": "\ufffd\ufffd.csv\ufffd",
                                   "k\ufffd": 1.5}
    assert data["structure"] == "SB 0.5 / BB 1 \ufffd"
    assert "<title>sflp exploitative chart, \ufffd\ufffd.csv\ufffd, SB 0.5 / BB 1 \ufffd</title>" in text


def test_page_rejects_incomplete_ranges(tmp_path):
    values, ranges = _synthetic(2)
    with pytest.raises(ConfigError, match="every hand"):
        write_chart_html(tmp_path / "chart.html", values, ranges.iloc[:-1], None, "x", [])
    assert not list(tmp_path.iterdir())




GAP_PROBE = """<script>
(() => {
  const out = {cells: {}};
  for (const td of document.querySelectorAll("td[data-k]")) {
    const cs = getComputedStyle(td), f = td.querySelector(".f");
    out.cells[td.id] = {gap: td.classList.contains("gap"), image: cs.backgroundImage,
                        size: f ? getComputedStyle(f).fontSize : ""};
  }
  out.errors = document.documentElement.dataset.jsErrors || "";
  out.viewport = [document.documentElement.clientWidth, document.documentElement.clientHeight];
  parent.postMessage(JSON.stringify(out), "*");
})();
</script></body>"""


def test_gap_cells_are_hatched_and_their_numbers_keep_their_neighbours_size(chart, chromium, tmp_path):
    """Issue 42: a gap cell (†, from thresholds.csv's intervals by the scale's rule, computed here) is
    hatched in threshold mode and no other cell is; every number is set at one size."""
    import csv

    with (chart / "thresholds.csv").open() as fh:
        rows = list(csv.DictReader(fh))
    gaps = {f"{r['player']}-{r['hand']}" for r in rows if expected_cell(r)[1] == "†"}
    assert gaps
    out = probe(chromium, chart / "chart.html", tmp_path, (1400, 900), "#stack=5&mode=thr", script=GAP_PROBE)
    assert not out["errors"]
    for cell_id, cell in out["cells"].items():
        hatched = "repeating-linear-gradient" in cell["image"]
        assert hatched == cell["gap"] == (cell_id in gaps), (cell_id, cell)
    assert len({cell["size"] for cell in out["cells"].values()}) == 1
