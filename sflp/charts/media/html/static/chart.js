"use strict";
// chart.html's code (see sflp/report/html.py). The page opens at OPEN_AT bb (the embedded stack nearest it)
// unless the address says #stack=S, with the threshold charts (the frequencies with #mode=freq, or when the
// set has no thresholds); every change of stack, mode or pinned hand rewrites the address
// (history.replaceState), so the view can be shared as a link.
//
// Keys, one rule: the arrow keys move between hands while a grid cell has focus and step the stack
// everywhere else (except in a text field, the slider and the mode switch, which keep their own keys).
//   outside a grid: Left/Right previous/next stack, Home/End first/last stack, -/+ previous/next stack
//   in a grid:      arrows move one cell, Home/End the row's first/last cell, -/+ previous/next stack,
//                   Enter/Space pin the hand (as a click does), Escape hides the tooltip
// Each grid is one Tab stop (roving tabindex: one cell has tabindex 0, the others -1).
const D = JSON.parse(document.getElementById("chart-data").textContent);
const RANKS = "AKQJT98765432";
const PLAYERS = ["sb", "bb"];
const OPEN_AT = 10;
const NAMES = D.page.names;  // the grids' headings: "SB push" / "BB call", or the exploit page's
const VERB = {sb: "push", bb: "call"};
const DOCK_BELOW = 700;  // px: narrower viewports dock the tooltip at the top or bottom edge
const BESIDE = "(min-width: 1200px)";  // chart.css: the detail panel stands beside the grids, so no tooltip
// A curve is drawn as a line only when its stacks are dense: at least CURVE_LINE_POINTS points, none more
// than CURVE_LINE_GAP bb apart. The value and the percentages are not linear between two solved stacks
// (they bend at every stack where a range changes), so a line across a wide gap draws a shape no solve
// gave, e.g. a peak at a stack in the middle of a 4-stack chart; fewer or sparser stacks are drawn as points.
const CURVE_LINE_POINTS = 12, CURVE_LINE_GAP = 1;
let current = 0, mode = "thr", selected = null;
const roving = {sb: 0, bb: 0};  // the cell index of each grid's Tab stop

function $(id) { return document.getElementById(id); }
function fmt(x) { return String(+(+x).toPrecision(12)); }
function rgb(h) { return [parseInt(h.slice(0, 2), 16), parseInt(h.slice(2, 4), 16), parseInt(h.slice(4, 6), 16)]; }
function hex(c) { return "#" + c.map(v => Math.max(0, Math.min(255, Math.round(v))).toString(16).padStart(2, "0")).join("").toUpperCase(); }
function blend(a, b, t) { t = Math.min(1, Math.max(0, t)); const x = rgb(a), y = rgb(b); return hex(x.map((v, i) => v + (y[i] - v) * t)); }
// black or white text, whichever has the higher WCAG 2 contrast (as sflp.report.colors.text_colour)
function luminance(h) {
  const c = rgb(h).map(v => { v /= 255; return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
  return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
}
function ink(bg) { const l = luminance(bg.slice(1)); return (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) ? "#000000" : "#FFFFFF"; }
function freqColour(f, player) { return blend("FFFFFF", D.colours[player], f); }
// a threshold cell is [number, mark, intervals > 0.5, intervals > 0, max stack, band]; its band indexes
// D.colours.legend, [colour, label, ink] by sflp.report.scale: the bands, then the top ("25+"), then never
function band(th) { return D.colours.legend[th[5]]; }
const TOP = () => D.colours.legend.length - 2, NEVER = () => D.colours.legend.length - 1;
function pct(f) { return (f / 10).toFixed(1) + "%"; }
function spokenPct(f) { return fmt((f / 10).toFixed(1)) + " %"; }
// "+1.2300" / "\u22120.0454"; a value that rounds to zero is "+0.0000", never "\u22120.0000"
function signed(x, digits) { const t = Math.abs(x).toFixed(digits); return (x < 0 && +t !== 0 ? "\u2212" : "+") + t; }
// an EV margin, by the one rule of every medium (sflp.checks.margin_text): its sign always shows, even when the
// digits round to zero ("+0.00", "\u22120.00": which way the hand goes); only an exact 0 (a tie) has none
function margin(x, digits) { const t = Math.abs(x).toFixed(digits); return x === 0 ? t : (x < 0 ? "\u2212" : "+") + t; }
function ivText(list) { return list.length ? list.map(p => fmt(p[0].toFixed(6)) + "\u2013" + fmt(p[1].toFixed(6))).join("; ") : "never"; }
function combos(k) { const r = Math.floor(k / 13), c = k % 13; return r === c ? 6 : (c > r ? 4 : 12); }
function cell(player, k) { return $(player + "-" + D.hands[k]); }

// ---------------------------------------------------------------- grids

function buildGrid(player) {
  const table = $("grid-" + player);
  table.setAttribute("role", "grid");
  table.setAttribute("aria-readonly", "true");
  const head = document.createElement("tr");
  const corner = document.createElement("th"); corner.className = "corner"; corner.setAttribute("aria-hidden", "true");
  head.appendChild(corner);
  for (const r of RANKS) {
    const th = document.createElement("th"); th.textContent = r; th.scope = "col"; th.setAttribute("aria-label", "second card " + r);
    head.appendChild(th);
  }
  table.appendChild(head);
  for (let r = 0; r < 13; r++) {
    const tr = document.createElement("tr");
    const th = document.createElement("th"); th.textContent = RANKS[r]; th.scope = "row"; th.className = "rank-col";
    th.setAttribute("aria-label", "first card " + RANKS[r]);
    tr.appendChild(th);
    for (let c = 0; c < 13; c++) {
      const k = r * 13 + c, td = document.createElement("td");
      td.id = player + "-" + D.hands[k]; td.dataset.hand = D.hands[k]; td.dataset.player = player; td.dataset.k = k;
      td.tabIndex = k === roving[player] ? 0 : -1;
      td.setAttribute("role", "gridcell");
      tr.appendChild(td);
    }
    table.appendChild(tr);
  }
  const target = ev => ev.target.closest ? ev.target.closest("td[data-k]") : null;
  table.addEventListener("mouseover", ev => { const td = target(ev); if (td) { show(player, +td.dataset.k); tip(player, +td.dataset.k, pointRect(ev)); } });
  table.addEventListener("mousemove", ev => { if (target(ev)) placeTip(pointRect(ev)); });
  table.addEventListener("mouseleave", hideTip);
  table.addEventListener("click", ev => { const td = target(ev); if (td) pin(player, +td.dataset.k); });
  table.addEventListener("focusin", ev => {
    const td = target(ev); if (!td) return;
    setRoving(player, +td.dataset.k);
    show(player, +td.dataset.k); tip(player, +td.dataset.k, td.getBoundingClientRect());
  });
  table.addEventListener("focusout", hideTip);
  table.addEventListener("keydown", ev => cellKey(ev, player));
}

function setRoving(player, k) {
  if (roving[player] === k) return;
  cell(player, roving[player]).tabIndex = -1;
  roving[player] = k;
  cell(player, k).tabIndex = 0;
}

function cellKey(ev, player) {
  const td = ev.target.closest ? ev.target.closest("td[data-k]") : null;
  if (!td || ev.altKey || ev.ctrlKey || ev.metaKey) return;
  const k = +td.dataset.k, r = Math.floor(k / 13), c = k % 13;
  const moves = {ArrowLeft: [r, c - 1], ArrowRight: [r, c + 1], ArrowUp: [r - 1, c], ArrowDown: [r + 1, c], Home: [r, 0], End: [r, 12]};
  let handled = true;
  if (ev.key in moves) {
    const [r2, c2] = moves[ev.key];
    if (r2 >= 0 && r2 < 13 && c2 >= 0 && c2 < 13) { setRoving(player, r2 * 13 + c2); cell(player, r2 * 13 + c2).focus(); }
  } else if (ev.key === "-" || ev.key === "+" || ev.key === "=") {
    go(current + (ev.key === "-" ? -1 : 1));
    show(player, k); tip(player, k, td.getBoundingClientRect());
  } else if (ev.key === "Enter" || ev.key === " ") {
    pin(player, k);
  } else if (ev.key === "Escape") {
    hideTip();
  } else {
    handled = false;
  }
  if (handled) { ev.preventDefault(); ev.stopPropagation(); }
}

function pin(player, k) {
  selected = selected && selected[0] === player && selected[1] === k ? null : [player, k];
  go(current);
  show(player, k);
}

function cellInfo(player, k) {
  const f = D[player][current][k], e = D[player + "_ev"][current][k];
  const th = D.thresholds ? D.thresholds[player][k] : null;
  return {hand: D.hands[k], f: f, ev: e === null ? null : e / D.ev_scale, th: th};
}

// what a screen reader says for a cell: "AKs, SB push 100 %, EV margin +1.23 bb" or, with the
// thresholds shown, "T3s, SB push up to 7.2 bb, more than one interval" / "72o, SB never pushes"
function ariaLabel(player, k) {
  const i = cellInfo(player, k), who = player.toUpperCase();
  if (mode === "thr" && i.th) {
    const [plain, mark] = i.th;
    if (plain === "-") return i.hand + ", " + who + " never " + VERB[player] + (player === "sb" ? "es" : "s");
    return i.hand + ", " + who + " " + VERB[player] + " up to " + plain.replace(/\+$/, " or more") + " bb"
      + (mark === "*" ? ", more than one interval" : mark ? ", folded in between, see the note under the grid" : "");
  }
  return i.hand + ", " + who + " " + VERB[player] + " " + spokenPct(i.f) + ", EV margin "
    + (i.ev === null ? "n/a" : margin(i.ev, 2) + " bb");
}

function infoHtml(player, k) {
  const i = cellInfo(player, k);
  let s = "<div class='hand'>" + i.hand + " <span class='note'>" + NAMES[player] + " at " + fmt(D.stacks[current]) + " bb</span></div>";
  s += "<div>" + VERB[player] + " frequency <b>" + pct(i.f) + "</b>";
  s += ", EV margin <b>" + (i.ev === null ? "n/a (SB never shoves)" : margin(i.ev, 4) + " bb") + "</b></div>";
  if (i.th) {
    s += "<div>threshold label <b>" + i.th[0] + i.th[1] + "</b></div><ul>";
    s += "<li>frequency &gt; 0.5 on: " + ivText(i.th[2]) + " bb</li>";
    s += "<li>frequency &gt; 0 on: " + ivText(i.th[3]) + " bb</li></ul>";
  } else {
    s += "<div class='note'>no thresholds in this chart set</div>";
  }
  return s;
}

function show(player, k) { $("detail").innerHTML = infoHtml(player, k); }

// the tooltip's shorter text (the panel below the grids is out of view when it shows): the hand, its
// frequency and EV margin at this stack, and where it is played (frequency > 0.5)
function tipHtml(player, k) {
  const i = cellInfo(player, k);
  let s = "<div><b>" + i.hand + "</b> <span class='note'>" + NAMES[player] + " at " + fmt(D.stacks[current]) + " bb</span></div>";
  s += "<div>" + VERB[player] + " <b>" + pct(i.f) + "</b>, EV margin <b>"
    + (i.ev === null ? "n/a" : margin(i.ev, 4) + " bb") + "</b></div>";
  if (i.th) s += "<div>" + VERB[player] + " &gt; 50% on " + ivText(i.th[2]) + (i.th[2].length ? " bb" : "") + "</div>";
  return s;
}

// ---------------------------------------------------------------- tooltip

let tipPlayer = "sb";  // the grid the tooltip describes a hand of: placeTip keeps the tooltip off it on a phone
function pointRect(ev) { return {left: ev.clientX, right: ev.clientX, top: ev.clientY, bottom: ev.clientY}; }
function tip(player, k, anchor) {
  if (window.matchMedia(BESIDE).matches) return;  // the detail panel beside the grids shows the hand
  tipPlayer = player;
  const t = $("tip"); t.innerHTML = tipHtml(player, k); t.style.display = "block"; placeTip(anchor);
}
function hideTip() { $("tip").style.display = "none"; }

// Place the tooltip inside the viewport, off the anchor (the pointer or the focused cell): below
// and right of it, else above; clamped to 4 px from each edge. Below DOCK_BELOW px it spans the
// width and stands off the grid being read (issue 42: docked at the bottom it covered BB's rows 5-2):
// just below the grid or just above it, whichever fits in the viewport nearer the anchor; when neither
// fits (a grid taller than the viewport), at the top or bottom edge away from the anchor.
function placeTip(a) {
  const t = $("tip"), vw = document.documentElement.clientWidth, vh = document.documentElement.clientHeight;
  t.style.maxHeight = (vh - 8) + "px";
  if (vw < DOCK_BELOW) {
    t.style.left = "8px"; t.style.width = (vw - 16) + "px"; t.style.maxWidth = "none";
    const h = t.offsetHeight, g = $("grid-" + tipPlayer).getBoundingClientRect(), mid = (a.top + a.bottom) / 2;
    const spots = [];
    if (g.bottom + 8 + h <= vh - 4) spots.push([Math.max(4, g.bottom + 8), Math.abs(g.bottom - mid)]);
    if (g.top - 8 - h >= 4) spots.push([Math.min(vh - h - 4, g.top - 8 - h), Math.abs(mid - g.top)]);
    spots.sort((x, y) => x[1] - y[1]);
    t.style.top = (spots.length ? spots[0][0] : mid > vh / 2 ? 8 : Math.max(4, vh - h - 8)) + "px";
    return;
  }
  t.style.width = ""; t.style.maxWidth = "";
  const w = t.offsetWidth, h = t.offsetHeight;
  let x = a.right + 14, y = a.bottom + 16;
  if (x + w > vw - 4) x = a.left - w - 14;
  if (y + h > vh - 4) y = a.top - h - 8;
  t.style.left = Math.max(4, Math.min(x, vw - w - 4)) + "px";
  t.style.top = Math.max(4, Math.min(y, vh - h - 4)) + "px";
}

// ---------------------------------------------------------------- painting

function paint() {
  const stack = D.stacks[current];
  const sv = $("stack-value");
  sv.textContent = fmt(stack); sv.dataset.stack = String(stack);
  const input = $("stack-input");
  if (document.activeElement !== input) input.value = fmt(stack);
  document.body.dataset.stack = String(stack); document.body.dataset.mode = mode;
  for (const player of PLAYERS) {
    const freq = D[player][current], evs = D[player + "_ev"][current];
    let w = 0;
    for (let k = 0; k < 169; k++) w += combos(k) * freq[k];
    const share = (w / 1326 / 10).toFixed(1);
    $("title-" + player).textContent = mode === "freq"
      ? NAMES[player] + " at " + fmt(stack) + " bb: " + share + "% of hands"
      : NAMES[player] + " thresholds (bb), " + fmt(D.low) + "\u2013" + fmt(D.high) + " bb";
    const cells = $("grid-" + player).getElementsByTagName("td");
    for (const td of cells) {
      const k = +td.dataset.k, f = freq[k];
      td.dataset.freq = String(f); td.dataset.ev = evs[k] === null ? "" : String(evs[k] / D.ev_scale);
      let bg, fg, html = D.hands[k], kind = "";
      if (mode === "thr" && D.thresholds) {
        const th = D.thresholds[player][k], [number, mark] = th;
        [bg, , fg] = band(th); bg = "#" + bg; fg = "#" + fg;
        kind = th[5] === TOP() ? "top" : th[5] === NEVER() ? "never" : "band";
        // the "+" of a capped "25+" and the mark are set smaller, so the widest label fits a phone's cell
        const plus = number.endsWith("+");
        html = "<span class='h'>" + D.hands[k] + "</span><span class='f'>" + (plus ? number.slice(0, -1) : number)
          + (plus || mark ? "<span class='m'>" + (plus ? "+" : "") + mark + "</span>" : "") + "</span>";
      } else {
        bg = freqColour(f / D.freq_scale, player); fg = ink(bg);
        if (f > 0 && f < D.freq_scale) html += "<span class='f'>" + pct(f) + "</span>";
      }
      td.style.background = bg; td.style.color = fg;
      // threshold mode: the cell's band by name (its colour's class: "top" for the hands played over the chart)
      td.classList.toggle("top", kind === "top"); td.classList.toggle("never", kind === "never");
      // a gap cell (\u2020: folded on a wide stretch inside its played range) is hatched, as in every medium
      td.classList.toggle("gap", mode === "thr" && !!D.thresholds && D.thresholds[player][k][1] === "\u2020");
      if (kind) td.dataset.band = String(D.thresholds[player][k][5]); else delete td.dataset.band;
      td.innerHTML = html;
      td.setAttribute("aria-label", ariaLabel(player, k));
      const sel = !!selected && selected[0] === player && selected[1] === k;
      td.classList.toggle("sel", sel);
      td.setAttribute("aria-selected", sel ? "true" : "false");
    }
  }
  const ci = nearestCurve(stack);
  const stat = (name, value, unit) => "<span class='stat'>" + name + " <b>" + value + "</b>" + (unit || "") + "</span>";
  $("stats").innerHTML = stat("SB's value", signed(D.curve.value[ci], 4), " bb") + " &middot; "
    + stat(NAMES.sb, D.curve.push[ci].toFixed(1) + "%") + " &middot; " + stat(NAMES.bb, D.curve.call[ci].toFixed(1) + "%");
  const slider = $("slider");
  slider.value = current; slider.setAttribute("aria-valuetext", fmt(stack) + " bb");
  $("prev").disabled = current === 0; $("next").disabled = current === D.stacks.length - 1;
  if (D.stacks.length > 1) drawCurves();
  if (selected) show(selected[0], selected[1]);
  legend();
  notes();
}

function nearestCurve(stack) {
  const s = D.curve.stack; let lo = 0, hi = s.length - 1;
  while (hi - lo > 1) { const m = (lo + hi) >> 1; if (s[m] <= stack) lo = m; else hi = m; }
  return Math.abs(s[hi] - stack) < Math.abs(s[lo] - stack) ? hi : lo;
}

// the embedded stack nearest x (the lower one on a tie)
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

// one plot in its viewBox (W x H user units); the SVG scales to its container's width
function drawPlot(svg, series, ylo, yhi, yfmt) {
  while (svg.firstChild) svg.removeChild(svg.firstChild);
  const box = svg.viewBox.baseVal, W = box.width, H = box.height, L = 52, R = 10, T = 8, B = 22;
  const xs = D.curve.stack, xlo = xs[0], xhi = xs[xs.length - 1];
  const X = x => L + (xhi > xlo ? (x - xlo) / (xhi - xlo) : 0.5) * (W - L - R);
  const Y = y => T + (yhi > ylo ? (yhi - y) / (yhi - ylo) : 0.5) * (H - T - B);
  for (const t of niceTicks(ylo, yhi, 4)) {
    el("line", {x1: L, x2: W - R, y1: Y(t), y2: Y(t), stroke: "#d0d7de", "stroke-width": 0.6}, svg);
    el("text", {x: L - 4, y: Y(t) + 4, "text-anchor": "end"}, svg).textContent = yfmt(t);
  }
  for (const t of niceTicks(xlo, xhi, 6)) el("text", {x: X(t), y: H - 6, "text-anchor": "middle"}, svg).textContent = fmt(t);
  const line = xs.length >= CURVE_LINE_POINTS && xs.every((x, i) => i === 0 || x - xs[i - 1] <= CURVE_LINE_GAP + 1e-9);
  svg.dataset.drawn = line ? "line" : "points";
  for (const [ys, colour] of series) {
    if (!line) {
      for (let i = 0; i < xs.length; i++) el("circle", {cx: X(xs[i]), cy: Y(ys[i]), r: 2.8, fill: colour, class: "point"}, svg);
      continue;
    }
    let d = "";
    for (let i = 0; i < xs.length; i++) d += (i ? "L" : "M") + X(xs[i]).toFixed(1) + " " + Y(ys[i]).toFixed(1);
    el("path", {d: d, fill: "none", stroke: colour, "stroke-width": 1.6}, svg);
  }
  const x = X(D.stacks[current]);
  el("line", {x1: x, x2: x, y1: T, y2: H - B, stroke: "#d73027", "stroke-width": 1, "stroke-dasharray": "3 2", class: "marker"}, svg);
  const ci = nearestCurve(D.stacks[current]);
  for (const [ys, colour] of series) el("circle", {cx: x, cy: Y(ys[ci]), r: 4, fill: colour, stroke: "#ffffff", class: "marker"}, svg);
  svg.onclick = ev => {
    const rect = svg.getBoundingClientRect();
    const ux = (ev.clientX - rect.left) * W / rect.width;
    go(nearestStack(xlo + (ux - L) / (W - L - R) * (xhi - xlo)));
  };
}

function drawCurves() {
  const v = D.curve.value; let lo = Math.min(0, ...v), hi = Math.max(0, ...v);
  const pad = (hi - lo) * 0.08 || 0.01;
  drawPlot($("curve-value"), [[v, "#1A9850"]], lo - pad, hi + pad, t => fmt(t.toPrecision(3)));
  drawPlot($("curve-pct"), [[D.curve.push, "#" + D.colours.sb], [D.curve.call, "#" + D.colours.bb]], 0, 100, t => t + "%");
}

function swatch(colour, text) { return "<span class='item'><span class='sw' style='background:" + colour + "'></span>" + text + "</span>"; }

// the notes under each threshold grid (sflp.report.scale.footnotes): the played stretches of every marked hand,
// "\u2020" (a fold gap of 0.5 bb or more inside the played range) first, then "*" (narrower gaps)
// The "\u2020" lines stand under the grid; the "*" lines (slivers no player acts on) fold into a summary line.
function notes() {
  const line = text => { const div = document.createElement("div"); div.textContent = text; return div; };
  for (const player of PLAYERS) {
    const box = $("foot-" + player), lines = mode === "thr" && D.notes ? D.notes[player] : [];
    const gaps = lines.filter(s => s.startsWith("\u2020")), slivers = lines.filter(s => !s.startsWith("\u2020"));
    const parts = gaps.map(line);
    if (slivers.length) {
      const more = document.createElement("details"), summary = document.createElement("summary");
      summary.textContent = "* " + slivers.length + (slivers.length === 1 ? " hand" : " hands")
        + " played on several stretches, folded less than 0.5 bb in between";
      more.append(summary, ...slivers.map(line));
      parts.push(more);
    }
    box.replaceChildren(...parts);
    box.hidden = parts.length === 0;
  }
}

function legend() {
  const box = $("legend");
  if (mode === "thr" && D.thresholds) {
    box.innerHTML = "<span class='item'>played up to (bb):</span>"
      + D.colours.legend.map(b => swatch("#" + b[0], b[1])).join("")
      + "<span class='item marks'>* played on several stretches, \u2020 (hatched) folded 0.5 bb or more in between (notes under"
      + " the grid)</span>";
  } else {
    let s = "<span class='item'>frequency:</span>";
    for (const p of PLAYERS) for (const f of [0, 0.5, 1]) s += swatch(freqColour(f, p), p.toUpperCase() + " " + (f * 100) + "%");
    box.innerHTML = s + "<span class='item'>(mixed hands show their %)</span>";
  }
}

// ---------------------------------------------------------------- state and address

function go(i) {
  current = Math.max(0, Math.min(D.stacks.length - 1, i));
  history.replaceState(null, "", "#stack=" + fmt(D.stacks[current]) + (mode === "freq" && D.thresholds ? "&mode=freq" : "")
    + (selected ? "&hand=" + selected[0] + ":" + D.hands[selected[1]] : ""));
  paint();
}

// a stack typed in or in the address: a finite number, else null (the caller keeps its default)
function stackNumber(text) {
  if (text === null || String(text).trim() === "") return null;
  const x = Number(String(text).trim());
  return Number.isFinite(x) ? x : null;
}

function fromHash() {
  const params = new URLSearchParams(location.hash.slice(1));
  mode = params.get("mode") !== "freq" && D.thresholds ? "thr" : "freq";  // thresholds unless asked otherwise
  $("mode-thr").checked = mode === "thr";
  document.querySelector("input[name=mode][value=freq]").checked = mode === "freq";
  const s = stackNumber(params.get("stack"));
  current = nearestStack(s === null ? OPEN_AT : s);
  selected = null;
  const sel = (params.get("hand") || "").split(":");
  if (sel.length === 2 && PLAYERS.includes(sel[0]) && D.hands.includes(sel[1])) selected = [sel[0], D.hands.indexOf(sel[1])];
}

function typedStack() {
  const input = $("stack-input"), x = stackNumber(input.value);
  if (x === null) { input.value = fmt(D.stacks[current]); return; }
  go(nearestStack(x));
  input.value = fmt(D.stacks[current]);
}

function pageKey(ev) {
  if (ev.defaultPrevented || ev.altKey || ev.ctrlKey || ev.metaKey) return;
  const t = ev.target, tag = t && t.tagName ? t.tagName.toLowerCase() : "";
  if (tag === "input" || tag === "textarea" || tag === "select" || (t && t.isContentEditable)) return;
  const steps = {ArrowLeft: current - 1, ArrowRight: current + 1, "-": current - 1, "+": current + 1, "=": current + 1,
                 Home: 0, End: D.stacks.length - 1};
  if (ev.key in steps && D.stacks.length > 1) { ev.preventDefault(); go(steps[ev.key]); }
}

function init() {
  const single = D.stacks.length === 1;
  document.body.classList.add(single ? "single" : "multi");
  const first = D.curve.stack[0], last = D.curve.stack[D.curve.stack.length - 1];
  const span = single ? "stack " + fmt(D.stacks[0]) + " bb" : "stacks " + fmt(first) + "\u2013" + fmt(last) + " bb";
  $("subtitle").textContent = (D.page.lead ? D.page.lead + " \u00b7 " : "") + D.structure + ", " + span
    + " (effective, before posting)";
  if (D.page.badge) {
    const b = document.createElement("span"); b.className = "badge"; b.textContent = D.page.badge;
    $("subtitle").prepend(b);
  }
  $("key-sb").style.color = "#" + D.colours.sb; $("key-bb").style.color = "#" + D.colours.bb;
  $("key-sb-name").textContent = NAMES.sb; $("key-bb-name").textContent = NAMES.bb;
  const slider = $("slider"), input = $("stack-input");
  slider.max = D.stacks.length - 1;
  slider.addEventListener("input", () => go(+slider.value));
  input.min = fmt(D.stacks[0]); input.max = fmt(D.stacks[D.stacks.length - 1]);
  input.addEventListener("change", typedStack);
  input.addEventListener("keydown", ev => { if (ev.key === "Enter") { ev.preventDefault(); typedStack(); } });
  $("prev").onclick = () => go(current - 1);
  $("next").onclick = () => go(current + 1);
  document.addEventListener("keydown", pageKey);
  for (const r of document.querySelectorAll("input[name=mode]")) r.addEventListener("change", () => { mode = r.value; go(current); });
  if (!D.thresholds) $("modes").style.display = "none";
  PLAYERS.forEach(buildGrid);
  $("coverage").textContent = single ? "This chart set has one solved stack."
    : D.coverage && D.coverage.length ? D.coverage.join(" ") + " The slider and the stack field go through the stacks"
        + " on this page."
      : D.stacks.length === D.solved ? "All " + D.solved + " solved stacks are in this page."
        : "This page holds the grids of " + D.stacks.length + " of the " + D.solved + " solved stacks, spread evenly"
          + " (first and last included); the slider and the stack field go through those.";
  const about = $("about");
  for (const [k, v] of D.about) {
    const tr = document.createElement("tr"); const a = document.createElement("td"); const b = document.createElement("td");
    a.textContent = k; b.textContent = String(v); tr.appendChild(a); tr.appendChild(b); about.appendChild(tr);
  }
  fromHash();
  window.addEventListener("hashchange", () => { fromHash(); paint(); });
  window.addEventListener("resize", hideTip);
  go(current);
}
init();
