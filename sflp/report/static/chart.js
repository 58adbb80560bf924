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
function ink(bg) { const c = rgb(bg.slice(1)); return 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2] > 140 ? "#000000" : "#FFFFFF"; }
function freqColour(f, player) { return blend("FFFFFF", D.colours[player], f); }
function thrColour(ms) {
  if (ms === null) return "#" + D.colours.never;
  for (const band of D.colours.bands) if (band[0] === null || ms <= band[0]) return "#" + band[2];
  return "#" + D.colours.never;
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
    let s = "played up to (bb): ";
    for (const band of D.colours.bands) s += "<span class='sw' style='background:#" + band[2] + "'></span>" + band[1] + " ";
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
