"""``chart.html``: one self-contained interactive page for browsing a chart set across stacks.

:func:`write_chart_html` writes a single HTML file with no network access at all: the data sit
in the page as one JSON block and a few hundred lines of plain JavaScript draw everything
(no library, no fonts or pictures to fetch).  The page shows

* a **stack slider** over the embedded stacks (arrow keys and the ``-``/``+`` buttons step it;
  the URL hash ``#stack=10`` opens the page at the embedded stack nearest 10 bb, ``&mode=thr``
  with the threshold charts, ``&hand=sb:43s`` with that cell's details shown; moving the slider
  updates the hash, so a view can be bookmarked or linked);
* the **SB push and BB call 13x13 grids** at that stack, aces top-left, suited above the
  diagonal, cells shaded white (0) to the player's colour (1) as in the PNGs, mixed frequencies
  written in the cell; a switch shows the exact **threshold charts** instead;
* for the hand under the pointer (or tapped): its frequency and EV margin at the stack and its
  exact stack intervals from the thresholds (frequency > 0.5 and > 0);
* the **value-by-stack curve** and the push / call percentages, drawn as inline SVG, with a
  marker at the current stack (click the curve to jump there);
* the configuration (the ``About`` items of the set).

Size and speed.  Frequencies are stored as integers 0..1000 (0.1 % steps) and EV margins as
integers in 1/10,000 bb (4 decimals), per stack as two arrays of 169 numbers, so 481 stacks
take about 1.5 MB.  A chart set can hold 100,000 stacks, so at most ``max_stacks`` (default
1,000) grid stacks are embedded, chosen evenly by position among the stacks of ``ranges`` and
always including the first and last; the curve keeps at most ``max_curve_points`` points the
same way.  The page says how many stacks it holds out of how many were solved.

Every cell carries ``data-hand``, ``data-freq`` (0..1000) and ``data-ev`` attributes, and the
page's state is in ``#stack-value`` / ``data-stack`` attributes, so a test can read the DOM a
real browser produced (``tests/test_chart_html_pdf.py`` does, with headless Chromium).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from sflp.atomic import write_text
from sflp.cards import CLASS_INDEX as _CLASS_INDEX
from sflp.cards import CLASS_NAMES
from sflp.errors import ConfigError
from sflp.report.colors import FREQUENCY_FULL, NEVER, THRESHOLD_ANCHORS
from sflp.report.frames import PLAYERS

MAX_STACKS = 1000
"""Most grid stacks a page embeds (chosen evenly, ends included)."""
MAX_CURVE_POINTS = 4000
"""Most points of the value curve a page embeds."""
FREQ_SCALE = 1000
EV_SCALE = 10_000


def even_positions(n: int, cap: int) -> np.ndarray:
    """At most ``cap`` indices of ``range(n)`` spread evenly, always with 0 and n - 1.

    >>> even_positions(5, 10).tolist(), even_positions(11, 3).tolist(), even_positions(1, 3).tolist()
    ([0, 1, 2, 3, 4], [0, 5, 10], [0])
    """
    if n <= cap:
        return np.arange(n)
    cap = max(cap, 2)
    return np.unique(np.round(np.linspace(0, n - 1, cap)).astype(np.int64))


def _ev_column(ranges: pd.DataFrame) -> str:
    for name in ("ev_margin", "ev"):
        if name in ranges.columns:
            return name
    raise ConfigError("the ranges frame needs an 'ev_margin' (or 'ev') column")


def _scaled(values: np.ndarray, scale: int) -> list:
    """Rounded integers (``round(v * scale)``), ``None`` for NaN."""
    out = np.round(np.asarray(values, dtype=np.float64) * scale)
    return [None if math.isnan(v) else int(v) for v in out.tolist()]


def chart_data(values: pd.DataFrame, ranges: pd.DataFrame, tdf: pd.DataFrame | None, structure: str,
               about: Sequence[tuple[str, object]], *, max_stacks: int = MAX_STACKS,
               max_curve_points: int = MAX_CURVE_POINTS) -> dict:
    """The JSON object embedded in the page (see the module doc for the encoding)."""
    ev_col = _ev_column(ranges)
    stacks_all = np.unique(ranges["stack"].to_numpy(dtype=np.float64))
    if len(stacks_all) == 0:
        raise ConfigError("no stacks to put in chart.html")
    chosen = stacks_all[even_positions(len(stacks_all), max_stacks)]
    rows = ranges[ranges["stack"].isin(chosen)]
    hand_ids = rows["hand"].map(_CLASS_INDEX).to_numpy()
    stack_pos = np.searchsorted(chosen, rows["stack"].to_numpy(dtype=np.float64))
    player_pos = rows["player"].map({p: k for k, p in enumerate(PLAYERS)}).to_numpy()
    freq = np.full((len(chosen), 2, 169), np.nan)
    ev = np.full((len(chosen), 2, 169), np.nan)
    freq[stack_pos, player_pos, hand_ids] = rows["frequency"].to_numpy(dtype=np.float64)
    ev[stack_pos, player_pos, hand_ids] = rows[ev_col].to_numpy(dtype=np.float64)
    if np.isnan(freq).any():
        raise ConfigError("the ranges frame must hold every hand of both players at each of its stacks")

    vals = values.sort_values("stack")
    keep = even_positions(len(vals), max_curve_points)
    vals = vals.iloc[keep]
    curve = {
        "stack": [float(s) for s in vals["stack"]],
        "value": [round(float(v), 6) for v in vals["value"]],
        "push": [round(float(v), 3) for v in vals["push_pct"]],
        "call": [round(float(v), 3) for v in vals["call_pct"]],
    }
    thresholds = None
    if tdf is not None:
        thresholds = {}
        for player in PLAYERS:
            sub = tdf[tdf["player"] == player]
            by_hand = {h: (lab + ("*" if m else ""), iv, anyiv, ms)
                       for h, lab, m, iv, anyiv, ms in zip(sub["hand"], sub["label"], sub["multi"], sub["intervals"],
                                                           sub["any_intervals"], sub["max_stack"])}
            thresholds[player] = [
                [by_hand[h][0], _intervals(by_hand[h][1]), _intervals(by_hand[h][2]),
                 None if math.isnan(by_hand[h][3]) else round(float(by_hand[h][3]), 6)]
                for h in CLASS_NAMES
            ]
    return {
        "structure": structure,
        "about": [[str(k), v if isinstance(v, (int, float)) and not isinstance(v, bool) else str(v)]
                  for k, v in about],
        "hands": list(CLASS_NAMES),
        "stacks": [float(s) for s in chosen],
        "solved": int(len(values)),
        "given": int(len(stacks_all)),
        "freq_scale": FREQ_SCALE,
        "ev_scale": EV_SCALE,
        "sb": [_scaled(freq[k, 0], FREQ_SCALE) for k in range(len(chosen))],
        "bb": [_scaled(freq[k, 1], FREQ_SCALE) for k in range(len(chosen))],
        "sb_ev": [_scaled(ev[k, 0], EV_SCALE) for k in range(len(chosen))],
        "bb_ev": [_scaled(ev[k, 1], EV_SCALE) for k in range(len(chosen))],
        "curve": curve,
        "thresholds": thresholds,
        "low": float(tdf.attrs.get("low", curve["stack"][0])) if tdf is not None else curve["stack"][0],
        "high": float(tdf.attrs.get("high", curve["stack"][-1])) if tdf is not None else curve["stack"][-1],
        "colours": {"sb": FREQUENCY_FULL["sb"], "bb": FREQUENCY_FULL["bb"], "never": NEVER,
                    "anchors": list(THRESHOLD_ANCHORS)},
    }


def _intervals(text: str) -> list[list[float]]:
    """``"1.000000-7.240000;7.27-7.29"`` -> ``[[1, 7.24], [7.27, 7.29]]``."""
    out = []
    for part in filter(None, str(text).split(";")):
        lo, hi = part.split("-", 1)
        out.append([float(lo), float(hi)])
    return out


def chart_html(data: dict) -> str:
    """The page for ``data`` (from :func:`chart_data`)."""
    # plain numbers built above (NaN already None): json.dumps directly, strict, not through
    # sflp.format.json_ready, whose copy would double the cost of this large blob
    blob = json.dumps(data, separators=(",", ":"), allow_nan=False, ensure_ascii=False)
    blob = blob.replace("</", "<\\/")  # the JSON cannot end its <script> element
    title = f"sflp push/fold chart, {data['structure']}"
    return (_PAGE.replace("__TITLE__", _escape(title))
            .replace("__DATA__", blob)
            .replace("__SCRIPT__", _SCRIPT)
            .replace("__STYLE__", _STYLE))


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def write_chart_html(path: Path | str, values: pd.DataFrame, ranges: pd.DataFrame, tdf: pd.DataFrame | None,
                     structure: str, about: Sequence[tuple[str, object]], *, low: float | None = None,
                     high: float | None = None, max_stacks: int = MAX_STACKS) -> Path:
    """Write ``chart.html`` (see the module doc) atomically; returns the path.

    ``values`` is the tidy values frame (all solved stacks), ``ranges`` the tidy ranges frame
    (``ev`` or ``ev_margin`` column) for any subset of stacks, ``tdf`` the thresholds frame or
    None, ``about`` the configuration items; ``low``/``high`` the threshold range (default: the
    values' first and last stack).
    """
    data = chart_data(values, ranges, tdf, structure, about, max_stacks=max_stacks)
    if low is not None:
        data["low"] = float(low)
    if high is not None:
        data["high"] = float(high)
    return write_text(path, chart_html(data))


_STYLE = """
:root { color-scheme: light; --ink: #1b1f24; --muted: #57606a; --line: #d0d7de; --bg: #ffffff; --panel: #f6f8fa; }
* { box-sizing: border-box; }
body { margin: 0; padding: 16px 20px; font: 14px/1.4 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif;
       color: var(--ink); background: var(--bg); }
h1 { font-size: 19px; margin: 0 0 2px; }
.sub { color: var(--muted); margin: 0 0 12px; }
.controls { display: flex; flex-wrap: wrap; align-items: center; gap: 10px; padding: 8px 12px; background: var(--panel);
            border: 1px solid var(--line); border-radius: 6px; }
.controls input[type=range] { flex: 1 1 320px; min-width: 200px; }
.controls button { font: inherit; padding: 2px 10px; cursor: pointer; }
#stack-label { font-weight: 600; font-size: 17px; min-width: 96px; }
.stats { color: var(--muted); }
.stats b { color: var(--ink); }
.grids { display: flex; flex-wrap: wrap; gap: 18px; margin-top: 12px; }
.panel h2 { font-size: 15px; margin: 4px 0 4px; }
table.grid { border-collapse: separate; border-spacing: 1px; table-layout: fixed; }
table.grid th { font-size: 11px; color: var(--muted); font-weight: 600; width: 16px; }
table.grid td { width: 38px; height: 34px; padding: 0; text-align: center; vertical-align: middle;
                font-size: 11px; line-height: 1.1; border-radius: 2px; cursor: default; }
table.grid td .f { display: block; font-size: 10px; font-weight: 600; }
table.grid td.sel { outline: 2px solid #d73027; outline-offset: -1px; }
.side { display: flex; flex-direction: column; gap: 10px; flex: 0 1 410px; min-width: 300px; }
#detail { border: 1px solid var(--line); border-radius: 6px; padding: 8px 12px; background: var(--panel); min-height: 120px; }
#detail .hand { font-size: 17px; font-weight: 700; }
#detail ul { margin: 4px 0; padding-left: 18px; }
svg text { font-size: 11px; fill: var(--muted); }
#tip { position: fixed; pointer-events: none; background: #1b1f24; color: #ffffff; padding: 6px 8px; border-radius: 4px;
       font-size: 12px; max-width: 360px; display: none; z-index: 5; }
.legend { display: flex; gap: 8px; align-items: center; font-size: 12px; color: var(--muted); margin: 4px 0; }
.legend span.sw { display: inline-block; width: 16px; height: 12px; border: 1px solid var(--line); }
table.about { border-collapse: collapse; font-size: 12px; margin-top: 6px; }
table.about td { border-top: 1px solid var(--line); padding: 2px 8px 2px 0; vertical-align: top; }
.note { font-size: 12px; color: var(--muted); }
"""

_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>__TITLE__</title>
<style>__STYLE__</style>
</head>
<body>
<h1>Heads-up push/fold equilibrium</h1>
<p class="sub" id="subtitle"></p>
<div class="controls">
  <button id="prev" title="previous stack (left arrow)">&minus;</button>
  <input type="range" id="slider" min="0" max="0" step="1" value="0" aria-label="stack">
  <button id="next" title="next stack (right arrow)">+</button>
  <span id="stack-label">stack <span id="stack-value" data-stack=""></span> bb</span>
  <span class="stats" id="stats"></span>
  <label><input type="radio" name="mode" value="freq" checked> frequencies at this stack</label>
  <label><input type="radio" name="mode" value="thr" id="mode-thr"> thresholds</label>
</div>
<div class="grids">
  <div class="panel"><h2 id="title-sb">SB push</h2><table class="grid" id="grid-sb"></table></div>
  <div class="panel"><h2 id="title-bb">BB call</h2><table class="grid" id="grid-bb"></table></div>
  <div class="side">
    <div id="detail"><span class="note">Point at (or tap) a cell for the hand's frequency, EV margin and exact
      stack intervals.</span></div>
    <div><b>Game value by stack</b> <span class="note">(SB's value, bb per hand; click to jump)</span>
      <svg id="curve-value" width="400" height="170" role="img" aria-label="value by stack"></svg></div>
    <div><b>Push and call %</b> <span class="note"><span style="color:#2EA043">&#9632;</span> SB push
      <span style="color:#3182BD">&#9632;</span> BB call</span>
      <svg id="curve-pct" width="400" height="130" role="img" aria-label="push and call percentages"></svg></div>
  </div>
</div>
<div class="legend" id="legend"></div>
<p class="note" id="coverage"></p>
<details><summary>Configuration</summary><table class="about" id="about"></table></details>
<p class="note">Grid: aces top-left, pairs on the diagonal, suited hands above it, offsuit below. Frequencies are
rounded to 0.1 %, EV margins to 0.0001 bb (SB: EV(shove) &minus; EV(fold); BB: EV(call) &minus; EV(fold) facing a
shove). Thresholds: the largest stack with frequency &gt; 0.5, truncated to 0.1 bb; * = more than one stack interval.
Written by sflp; this page needs no network.</p>
<div id="tip"></div>
<script type="application/json" id="chart-data">__DATA__</script>
<script>__SCRIPT__</script>
</body>
</html>
"""

_SCRIPT = r"""
"use strict";
const D = JSON.parse(document.getElementById("chart-data").textContent);
const RANKS = "AKQJT98765432";
const PLAYERS = ["sb", "bb"];
const TITLES = {sb: "SB push", bb: "BB call"};
const VERB = {sb: "push", bb: "call"};
let current = 0, mode = "freq", selected = null;

function fmt(x) { return String(+(+x).toPrecision(12)); }
function rgb(h) { return [parseInt(h.slice(0, 2), 16), parseInt(h.slice(2, 4), 16), parseInt(h.slice(4, 6), 16)]; }
function hex(c) { return "#" + c.map(v => Math.max(0, Math.min(255, Math.round(v))).toString(16).padStart(2, "0")).join("").toUpperCase(); }
function blend(a, b, t) { t = Math.min(1, Math.max(0, t)); const x = rgb(a), y = rgb(b); return hex(x.map((v, i) => v + (y[i] - v) * t)); }
function ramp(anchors, t) {
  t = Math.min(1, Math.max(0, t)); const pos = t * (anchors.length - 1); const k = Math.min(Math.floor(pos), anchors.length - 2);
  return blend(anchors[k], anchors[k + 1], pos - k);
}
function ink(bg) { const c = rgb(bg.slice(1)); return 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2] > 140 ? "#000000" : "#FFFFFF"; }
function freqColour(f, player) { return blend("FFFFFF", D.colours[player], f); }
function thrColour(ms) {
  if (ms === null) return "#" + D.colours.never;
  const lo = Math.max(D.low, 1e-9), hi = Math.max(D.high, 1e-9);
  if (hi <= lo) return ramp(D.colours.anchors, 1);
  const x = Math.min(Math.max(ms, lo), hi);
  return ramp(D.colours.anchors, Math.log(x / lo) / Math.log(hi / lo));
}
function pct(f) { return (f / 10).toFixed(1) + "%"; }
function ivText(list) { return list.length ? list.map(p => fmt(p[0].toFixed(6)) + "\u2013" + fmt(p[1].toFixed(6))).join("; ") : "never"; }

function buildGrid(player) {
  const table = document.getElementById("grid-" + player);
  const head = document.createElement("tr");
  head.appendChild(document.createElement("th"));
  for (const r of RANKS) { const th = document.createElement("th"); th.textContent = r; head.appendChild(th); }
  table.appendChild(head);
  for (let r = 0; r < 13; r++) {
    const tr = document.createElement("tr");
    const th = document.createElement("th"); th.textContent = RANKS[r]; tr.appendChild(th);
    for (let c = 0; c < 13; c++) {
      const k = r * 13 + c, td = document.createElement("td");
      td.id = player + "-" + D.hands[k]; td.dataset.hand = D.hands[k]; td.dataset.player = player; td.dataset.k = k;
      td.addEventListener("mouseenter", ev => { show(player, k); tip(ev, player, k); });
      td.addEventListener("mousemove", ev => moveTip(ev));
      td.addEventListener("mouseleave", () => { document.getElementById("tip").style.display = "none"; });
      td.addEventListener("click", () => { selected = [player, k]; go(current); });
      tr.appendChild(td);
    }
    table.appendChild(tr);
  }
}

function cellInfo(player, k) {
  const f = D[player][current][k], e = D[player + "_ev"][current][k];
  const th = D.thresholds ? D.thresholds[player][k] : null;
  return {hand: D.hands[k], f: f, ev: e === null ? null : e / D.ev_scale, th: th};
}

function infoHtml(player, k) {
  const i = cellInfo(player, k);
  let s = "<div class='hand'>" + i.hand + " <span class='note'>" + TITLES[player] + " at " + fmt(D.stacks[current]) + " bb</span></div>";
  s += "<div>" + VERB[player] + " frequency <b>" + pct(i.f) + "</b>";
  s += ", EV margin <b>" + (i.ev === null ? "n/a (SB never shoves)" : (i.ev >= 0 ? "+" : "") + i.ev.toFixed(4) + " bb") + "</b></div>";
  if (i.th) {
    s += "<div>threshold label <b>" + i.th[0] + "</b></div><ul>";
    s += "<li>frequency &gt; 0.5 on: " + ivText(i.th[1]) + " bb</li>";
    s += "<li>frequency &gt; 0 on: " + ivText(i.th[2]) + " bb</li></ul>";
  } else {
    s += "<div class='note'>no thresholds in this chart set</div>";
  }
  return s;
}

function show(player, k) { document.getElementById("detail").innerHTML = infoHtml(player, k); }
function tip(ev, player, k) { const t = document.getElementById("tip"); t.innerHTML = infoHtml(player, k); t.style.display = "block"; moveTip(ev); }
function moveTip(ev) {
  const t = document.getElementById("tip");
  const x = Math.min(ev.clientX + 14, window.innerWidth - t.offsetWidth - 4);
  const y = ev.clientY + 16 + t.offsetHeight > window.innerHeight ? ev.clientY - t.offsetHeight - 8 : ev.clientY + 16;
  t.style.left = x + "px"; t.style.top = y + "px";
}

function combos(k) { const r = Math.floor(k / 13), c = k % 13; return r === c ? 6 : (c > r ? 4 : 12); }

function paint() {
  const stack = D.stacks[current];
  const sv = document.getElementById("stack-value");
  sv.textContent = fmt(stack); sv.dataset.stack = String(stack);
  document.body.dataset.stack = String(stack); document.body.dataset.mode = mode;
  for (const player of PLAYERS) {
    const freq = D[player][current], evs = D[player + "_ev"][current];
    let w = 0;
    for (let k = 0; k < 169; k++) w += combos(k) * freq[k];
    const share = (w / 1326 / 10).toFixed(1);
    document.getElementById("title-" + player).textContent = mode === "freq"
      ? TITLES[player] + " at " + fmt(stack) + " bb: " + share + "% of hands"
      : TITLES[player] + " thresholds (bb), " + fmt(D.low) + "\u2013" + fmt(D.high) + " bb";
    const cells = document.getElementById("grid-" + player).getElementsByTagName("td");
    for (const td of cells) {
      const k = +td.dataset.k, f = freq[k];
      td.dataset.freq = String(f); td.dataset.ev = evs[k] === null ? "" : String(evs[k] / D.ev_scale);
      let bg, second = "";
      if (mode === "thr" && D.thresholds) {
        const th = D.thresholds[player][k]; bg = thrColour(th[3]); second = th[0];
      } else {
        bg = freqColour(f / D.freq_scale, player);
        if (f > 0 && f < D.freq_scale) second = pct(f);
      }
      td.style.background = bg; td.style.color = ink(bg);
      td.innerHTML = second ? D.hands[k] + "<span class='f'>" + second + "</span>" : D.hands[k];
      td.classList.toggle("sel", !!selected && selected[0] === player && selected[1] === k);
    }
  }
  const ci = nearestCurve(stack);
  document.getElementById("stats").innerHTML = "value <b>" + (D.curve.value[ci] >= 0 ? "+" : "") + D.curve.value[ci].toFixed(4)
    + "</b> bb &middot; SB push <b>" + D.curve.push[ci].toFixed(1) + "%</b> &middot; BB call <b>" + D.curve.call[ci].toFixed(1) + "%</b>";
  document.getElementById("slider").value = current;
  drawCurves();
  if (selected) show(selected[0], selected[1]);
  legend();
}

function nearestCurve(stack) {
  const s = D.curve.stack; let lo = 0, hi = s.length - 1;
  while (hi - lo > 1) { const m = (lo + hi) >> 1; if (s[m] <= stack) lo = m; else hi = m; }
  return Math.abs(s[hi] - stack) < Math.abs(s[lo] - stack) ? hi : lo;
}

function nearestStack(x) {
  let best = 0;
  for (let i = 1; i < D.stacks.length; i++) if (Math.abs(D.stacks[i] - x) < Math.abs(D.stacks[best] - x)) best = i;
  return best;
}

const NS = "http://www.w3.org/2000/svg";
function el(name, attrs, parent) { const e = document.createElementNS(NS, name); for (const a in attrs) e.setAttribute(a, attrs[a]); parent.appendChild(e); return e; }
function niceTicks(lo, hi, n) {
  if (hi <= lo) return [lo];
  const raw = (hi - lo) / n, mag = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = [1, 2, 5, 10].map(m => m * mag).find(s => s >= raw);
  const out = []; for (let t = Math.ceil(lo / step) * step; t <= hi + step * 1e-9; t += step) out.push(+t.toPrecision(10));
  return out;
}

function drawPlot(svg, series, ylo, yhi, yfmt) {
  while (svg.firstChild) svg.removeChild(svg.firstChild);
  const W = +svg.getAttribute("width"), H = +svg.getAttribute("height"), L = 52, R = 10, T = 8, B = 22;
  const xs = D.curve.stack, xlo = xs[0], xhi = xs[xs.length - 1];
  const X = x => L + (xhi > xlo ? (x - xlo) / (xhi - xlo) : 0.5) * (W - L - R);
  const Y = y => T + (yhi > ylo ? (yhi - y) / (yhi - ylo) : 0.5) * (H - T - B);
  for (const t of niceTicks(ylo, yhi, 4)) {
    el("line", {x1: L, x2: W - R, y1: Y(t), y2: Y(t), stroke: "#d0d7de", "stroke-width": 0.6}, svg);
    el("text", {x: L - 4, y: Y(t) + 4, "text-anchor": "end"}, svg).textContent = yfmt(t);
  }
  for (const t of niceTicks(xlo, xhi, 6)) el("text", {x: X(t), y: H - 6, "text-anchor": "middle"}, svg).textContent = fmt(t);
  for (const [ys, colour] of series) {
    let d = "";
    for (let i = 0; i < xs.length; i++) d += (i ? "L" : "M") + X(xs[i]).toFixed(1) + " " + Y(ys[i]).toFixed(1);
    el("path", {d: d, fill: "none", stroke: colour, "stroke-width": 1.6}, svg);
  }
  const x = X(D.stacks[current]);
  el("line", {x1: x, x2: x, y1: T, y2: H - B, stroke: "#d73027", "stroke-width": 1, "stroke-dasharray": "3 2", class: "marker"}, svg);
  const ci = nearestCurve(D.stacks[current]);
  for (const [ys, colour] of series) el("circle", {cx: x, cy: Y(ys[ci]), r: 4, fill: colour, stroke: "#ffffff", class: "marker"}, svg);
  svg.onclick = ev => {
    const box = svg.getBoundingClientRect();
    const sx = xlo + (ev.clientX - box.left - L) / (W - L - R) * (xhi - xlo);
    go(nearestStack(sx));
  };
}

function drawCurves() {
  const v = D.curve.value; let lo = Math.min(0, ...v), hi = Math.max(0, ...v);
  const pad = (hi - lo) * 0.08 || 0.01;
  drawPlot(document.getElementById("curve-value"), [[v, "#1A9850"]], lo - pad, hi + pad, t => fmt(t.toPrecision(3)));
  drawPlot(document.getElementById("curve-pct"), [[D.curve.push, "#2EA043"], [D.curve.call, "#3182BD"]], 0, 100, t => t + "%");
}

function legend() {
  const box = document.getElementById("legend");
  if (mode === "thr" && D.thresholds) {
    let s = "threshold (bb, log scale): ";
    for (const t of [0, 0.25, 0.5, 0.75, 1]) {
      const ms = D.low * Math.pow(D.high / D.low, t);
      s += "<span class='sw' style='background:" + thrColour(ms) + "'></span>" + fmt(ms.toPrecision(3)) + " ";
    }
    box.innerHTML = s + "<span class='sw' style='background:#" + D.colours.never + "'></span>never";
  } else {
    let s = "frequency: ";
    for (const p of PLAYERS) for (const f of [0, 0.5, 1]) s += "<span class='sw' style='background:" + freqColour(f, p) + "'></span>" + (f * 100) + "% ";
    box.innerHTML = s + "(SB green, BB blue; mixed hands show their %)";
  }
}

function go(i) {
  current = Math.max(0, Math.min(D.stacks.length - 1, i));
  history.replaceState(null, "", "#stack=" + fmt(D.stacks[current]) + (mode === "thr" ? "&mode=thr" : "")
    + (selected ? "&hand=" + selected[0] + ":" + D.hands[selected[1]] : ""));
  paint();
}

function fromHash() {
  const params = new URLSearchParams(location.hash.slice(1));
  if (params.get("mode") === "thr" && D.thresholds) { mode = "thr"; document.getElementById("mode-thr").checked = true; }
  const s = parseFloat(params.get("stack"));
  current = isNaN(s) ? 0 : nearestStack(s);
  const sel = (params.get("hand") || "").split(":");
  if (sel.length === 2 && PLAYERS.includes(sel[0]) && D.hands.includes(sel[1])) selected = [sel[0], D.hands.indexOf(sel[1])];
}

function init() {
  document.getElementById("subtitle").textContent = D.structure + ", stacks " + fmt(D.curve.stack[0]) + "\u2013"
    + fmt(D.curve.stack[D.curve.stack.length - 1]) + " bb (effective, before posting)";
  const slider = document.getElementById("slider");
  slider.max = D.stacks.length - 1;
  slider.addEventListener("input", () => go(+slider.value));
  document.getElementById("prev").onclick = () => go(current - 1);
  document.getElementById("next").onclick = () => go(current + 1);
  document.addEventListener("keydown", ev => {
    if (ev.target === slider) return;
    if (ev.key === "ArrowLeft") go(current - 1);
    if (ev.key === "ArrowRight") go(current + 1);
  });
  for (const r of document.querySelectorAll("input[name=mode]")) r.addEventListener("change", () => { mode = r.value; go(current); });
  if (!D.thresholds) for (const r of document.querySelectorAll("input[name=mode]")) r.parentNode.style.display = "none";
  PLAYERS.forEach(buildGrid);
  document.getElementById("coverage").textContent = D.stacks.length === D.solved
    ? "All " + D.solved + " solved stacks are in this page."
    : "This page holds the grids of " + D.stacks.length + " of the " + D.solved + " solved stacks, spread evenly"
      + " (first and last included); the slider steps through those. ranges.csv has every solved stack.";
  const about = document.getElementById("about");
  for (const [k, v] of D.about) {
    const tr = document.createElement("tr"); const a = document.createElement("td"); const b = document.createElement("td");
    a.textContent = k; b.textContent = String(v); tr.appendChild(a); tr.appendChild(b); about.appendChild(tr);
  }
  fromHash();
  window.addEventListener("hashchange", () => { fromHash(); paint(); });
  paint();
}
init();
"""
