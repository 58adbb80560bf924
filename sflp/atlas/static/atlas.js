"use strict";
// atlas.html: the threshold grids of one structure, two sliders (structure, stack) and the hand map.
// The data (sflp.report.atlas_page.atlas_data): structures[k].cells[player][hand] =
// [number, mark, intervals, any_intervals, max_stack, band] (band indexes colours.legend, by the
// charts' one rule); lines[m] = {stack, sb: [intervals per hand], bb: [...], any: {sb, bb}}, the ante
// paths (any: their played-at-all intervals).
(function () {
const D = JSON.parse(document.getElementById("atlas-data").textContent);
const $ = id => document.getElementById(id);
const RANKS = "AKQJT98765432";
const PLAYERS = ["sb", "bb"];
const NAME = {sb: "SB push", bb: "BB call"};
const IDX = {};
D.hands.forEach((h, i) => { IDX[h] = i; });
const NEVER = D.colours.legend.length - 1;
const S = D.structures;
const N = Math.max(1, Math.round((D.high - D.low) / D.step));
const cur = {s: 0, i: 0, hand: null};

function handAt(r, c) {
  return r === c ? RANKS[r] + RANKS[c] : r < c ? RANKS[r] + RANKS[c] + "s" : RANKS[c] + RANKS[r] + "o";
}
function combos(h) { return h.length === 2 ? 6 : h[2] === "s" ? 4 : 12; }
function inside(ivs, x) { return ivs.some(p => p[0] - 1e-9 <= x && x <= p[1] + 1e-9); }
function num(x) { return String(+(+x).toFixed(6)); }
function stackAt(i) { return i >= N ? D.high : +(D.low + i * D.step).toFixed(6); }
function nearestIndex(x) { return Math.min(N, Math.max(0, Math.round((x - D.low) / D.step))); }
function ivText(ivs, unit) {
  return ivs.length ? ivs.map(p => num(p[0]) + "\u2013" + num(p[1])).join(", ") + " " + unit : "never";
}
function esc(t) { return String(t).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;"); }

function buildGrid(player) {
  const table = $("grid-" + player);
  let html = "<thead><tr><th></th>" + [...RANKS].map(r => "<th scope=\"col\">" + r + "</th>").join("") + "</tr></thead><tbody>";
  for (let r = 0; r < 13; r++) {
    html += "<tr><th scope=\"row\">" + RANKS[r] + "</th>";
    for (let c = 0; c < 13; c++) {
      const h = handAt(r, c);
      html += "<td id=\"" + player + "-" + h + "\" data-hand=\"" + h + "\" data-player=\"" + player + "\" tabindex=\""
        + (r === 0 && c === 0 ? 0 : -1) + "\"></td>";
    }
    html += "</tr>";
  }
  table.insertAdjacentHTML("beforeend", html + "</tbody>");
  table.addEventListener("click", ev => {
    const td = ev.target.closest("td");
    if (td) pick(td.dataset.player, td.dataset.hand);
  });
  table.addEventListener("keydown", ev => {
    const td = ev.target.closest("td");
    if (!td) return;
    const h = td.dataset.hand, r0 = RANKS.indexOf(h[0]), r1 = RANKS.indexOf(h[1]);
    let r = h.length === 3 && h[2] === "o" ? r1 : r0, c = h.length === 3 && h[2] === "o" ? r0 : r1;
    const moves = {ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1]};
    if (ev.key === "Enter" || ev.key === " ") { pick(td.dataset.player, h); ev.preventDefault(); return; }
    if (!moves[ev.key]) return;
    r = Math.min(12, Math.max(0, r + moves[ev.key][0]));
    c = Math.min(12, Math.max(0, c + moves[ev.key][1]));
    const next = $(td.dataset.player + "-" + handAt(r, c));
    td.tabIndex = -1; next.tabIndex = 0; next.focus();
    ev.preventDefault();
  });
}

function legend() {
  $("legend").innerHTML = D.colours.legend.map(b => "<span class=\"item\"><span class=\"sw\" style=\"background:#"
    + b[0] + "\"></span>" + esc(b[1]) + "</span>").join("") + "<span class=\"item\">faded: not played at this stack</span>";
}

function renderGrids() {
  const st = S[cur.s], x = stackAt(cur.i);
  const pct = {};
  for (const p of PLAYERS) {
    let played = 0;
    D.hands.forEach((h, k) => {
      const cell = st.cells[p][k], td = $(p + "-" + h), band = D.colours.legend[cell[5]];
      const on = inside(cell[2], x);
      if (on) played += combos(h);
      const faded = !on && cell[5] !== NEVER;  // not played at this stack: the band's faded colour and text
      td.style.background = "#" + band[faded ? 3 : 0];
      td.style.color = "#" + band[faded ? 4 : 2];
      td.innerHTML = "<span class=\"h\">" + h + "</span><span class=\"f\">" + esc(cell[0])
        + (cell[1] ? "<span class=\"m\">" + cell[1] + "</span>" : "") + "</span>";
      td.classList.toggle("never", cell[5] === NEVER);
      td.classList.toggle("gap", cell[1] === "\u2020");  // hatched, as in every medium (issue 42)
      td.classList.toggle("off", faded);
      td.classList.toggle("sel", cur.hand !== null && cur.hand[0] === p && cur.hand[1] === h);
      td.dataset.played = on ? "1" : "0";
      td.setAttribute("aria-label", h + ", " + NAME[p] + (cell[4] === null ? " never" : " up to " + cell[0] + " bb")
        + (on ? ", played at " + num(x) + " bb" : ", not played at " + num(x) + " bb"));
    });
    pct[p] = 100 * played / 1326;
  }
  $("stats").innerHTML = "at " + esc(st.label) + ", " + num(x) + " bb: SB pushes <b id=\"push-pct\">"
    + pct.sb.toFixed(1) + "%</b>, BB calls <b id=\"call-pct\">" + pct.bb.toFixed(1) + "%</b> of hands";
}

// ------------------------------------------------------------------ the hand map
const X0 = 46, X1 = 404, Y0 = 10, Y1 = 214;
function px(x) { return X0 + (x - D.low) / (D.high - D.low) * (X1 - X0); }
function rows() {
  // the y of an axis value (null when categorical), and each structure's row [bottom, top, middle]
  if (D.axis) {
    const a0 = D.axis_range[0], a1 = D.axis_range[1] > a0 ? D.axis_range[1] : a0 + 1;
    const py = a => Y1 - (a - a0) / (a1 - a0) * (Y1 - Y0);
    return {band: S.map(st => [py(st.y), py(st.y), py(st.y)]), py};
  }
  const h = (Y1 - Y0) / S.length;
  return {band: S.map((s, k) => [Y1 - k * h - 0.5, Y1 - (k + 1) * h + 0.5, Y1 - (k + 0.5) * h]), py: null};
}

function regions(rowsIn, paths, lowA, highA) {
  // sflp.atlas.regions.hand_regions, the same rule: rowsIn [ante, stack intervals], paths [stack,
  // ante intervals]; stretches joined between neighbouring antes that have as many, through the
  // ante paths' thresholds between them; else steps to half way, the gap and its thresholds reported
  const R = rowsIn.slice().sort((p, q) => p[0] - q[0]), out = {polygons: [], disagree: [], loose: []};
  let chains = [];  // stretches joined so far (through agreeing gaps): [left curve, right curve]
  const flush = () => { for (const [l, r] of chains) out.polygons.push(l.concat(r.slice().reverse())); chains = []; };
  for (let g = 0; g + 1 < R.length; g++) {
    const [a0, lower] = R[g], [a1, upper] = R[g + 1], cross = [];
    for (const [s, ivs] of paths) {
      for (const p of ivs) {
        for (const e of p) {
          if (e > a0 + 1e-9 && e < a1 - 1e-9 && e > lowA + 1e-9 && e < highA - 1e-9) cross.push([s, e]);
        }
      }
    }
    if (lower.length !== upper.length || (!lower.length && cross.length)) {
      const mid = (a0 + a1) / 2;
      flush();
      out.disagree.push([a0, a1]);
      out.loose.push(...cross);
      for (const [x, y] of lower) out.polygons.push([[x, a0], [y, a0], [y, mid], [x, mid]]);
      for (const [x, y] of upper) out.polygons.push([[x, mid], [y, mid], [y, a1], [x, a1]]);
      continue;
    }
    const ends = [];
    lower.forEach((lo, m) => { for (const j of [0, 1]) ends.push([lo[j], upper[m][j]]); });
    const through = ends.map(() => []);
    for (const [s, a] of cross) {
      const t = (a - a0) / (a1 - a0);
      let best = 0;
      ends.forEach((e, b) => {
        if (Math.abs(e[0] + t * (e[1] - e[0]) - s) < Math.abs(ends[best][0] + t * (ends[best][1] - ends[best][0]) - s)) best = b;
      });
      through[best].push([s, a]);
    }
    const curves = ends.map((e, b) => [[e[0], a0], ...through[b].sort((p, q) => p[1] - q[1]), [e[1], a1]]);
    if (chains.length) {
      chains.forEach((c, m) => { c[0].push(...curves[2 * m].slice(1)); c[1].push(...curves[2 * m + 1].slice(1)); });
    } else {
      chains = lower.map((p, m) => [curves[2 * m], curves[2 * m + 1]]);
    }
  }
  flush();
  return out;
}

function drawMap(player) {
  const svg = $("map-" + player);
  if (cur.hand === null) { svg.innerHTML = ""; return; }
  const k = IDX[cur.hand[1]], colour = "#" + D.colours[player], {band, py} = rows();
  let out = "<rect x=\"" + X0 + "\" y=\"" + Y0 + "\" width=\"" + (X1 - X0) + "\" height=\"" + (Y1 - Y0)
    + "\" fill=\"#ffffff\" stroke=\"#d0d7de\"/>";
  let marks = "";
  // opaque fills, each with a hairline of its own colour: neighbouring polygons (the steps of a gap
  // whose antes disagree) leave no antialiasing seam between them
  const light = "#" + D.colours.light[player];
  const path = (ring, y, cls, fill) => "<path class=\"" + cls + "\" d=\"M" + ring.map(q => px(q[0]).toFixed(2) + ","
    + y(q[1]).toFixed(2)).join(" L") + " Z\" fill=\"" + fill + "\" stroke=\"" + fill
    + "\" stroke-width=\"0.6\" stroke-linejoin=\"round\"/>";
  if (py) {
    // the played regions: lighter where played at all, full where frequency > 0.5 (no ante path is drawn)
    for (const [family, cls, fill, col] of [[3, "played-any", light, "any"], [2, "played", colour, null]]) {
      const reach = (D.reach || []).map(r => [r.y, col ? r[col][player][k] : r[player][k]]);
      const R = regions(S.map(st => [st.y, st.cells[player][k][family]]).concat(reach),
                        D.lines.map(l => [l.stack, col ? l[col][player][k] : l[player][k]]), D.axis_range[0], D.axis_range[1]);
      for (const ring of R.polygons) out += path(ring, py, cls, fill);
      if (!col) {
        for (const [x, a] of R.loose) {
          marks += "<circle class=\"edge-ante\" cx=\"" + px(x).toFixed(2) + "\" cy=\"" + py(a).toFixed(2) + "\" r=\"2\" fill=\"#1b1f24\"/>";
        }
        for (const [g0, g1] of R.disagree) {
          marks += "<text class=\"disagree\" x=\"" + (X1 + 3) + "\" y=\"" + (py((g0 + g1) / 2) + 4).toFixed(1)
            + "\" fill=\"#d73027\" style=\"font-size:15px;font-weight:bold\">\u2260</text>";
        }
      }
    }
  } else {
    S.forEach((st, s) => {
      const [yb, yt] = band[s], y = a => (a ? yt : yb);
      for (const [family, cls, fill] of [[3, "played-any", light], [2, "played", colour]]) {
        for (const p of st.cells[player][k][family]) out += path([[p[0], 0], [p[1], 0], [p[1], 1], [p[0], 1]], y, cls, fill);
      }
    });
  }
  // axes: stacks below, the structures' antes (or the structures) left; the crosshair at the sliders' point
  let axes = "";
  for (const t of ticks(D.low, D.high)) {
    axes += "<text x=\"" + px(t).toFixed(1) + "\" y=\"" + (Y1 + 14) + "\" text-anchor=\"middle\">" + num(t) + "</text>";
  }
  axes += "<text x=\"" + ((X0 + X1) / 2) + "\" y=\"" + (Y1 + 30) + "\" text-anchor=\"middle\">stack (bb)</text>";
  if (py) {
    let last = null;
    for (const a of S.map(st => st.y).sort((p, q) => p - q)) {
      const y = py(a);
      axes += "<line x1=\"" + (X0 - 3) + "\" x2=\"" + X0 + "\" y1=\"" + y.toFixed(1) + "\" y2=\"" + y.toFixed(1) + "\" stroke=\"#8c959f\"/>";
      if (last === null || Math.abs(last - y) >= 11) {
        axes += "<text x=\"" + (X0 - 5) + "\" y=\"" + (y + 4).toFixed(1) + "\" text-anchor=\"end\">" + num(a) + "</text>";
        last = y;
      }
    }
    axes += "<text transform=\"translate(10 " + ((Y0 + Y1) / 2) + ") rotate(-90)\" text-anchor=\"middle\">"
      + (D.axis === "ante" ? "ante (bb)" : "BB ante (bb)") + "</text>";
  } else {
    S.forEach((st, s) => {
      axes += "<text x=\"" + (X0 - 4) + "\" y=\"" + (band[s][2] + 4).toFixed(1) + "\" text-anchor=\"end\">" + (s + 1) + "</text>";
    });
  }
  const cx = px(stackAt(cur.i)), cy = band[cur.s][2];
  axes += "<line class=\"cross\" x1=\"" + cx.toFixed(2) + "\" x2=\"" + cx.toFixed(2) + "\" y1=\"" + Y0 + "\" y2=\"" + Y1
    + "\" stroke=\"#1b1f24\" stroke-dasharray=\"3 3\"/><line class=\"cross\" x1=\"" + X0 + "\" x2=\"" + X1 + "\" y1=\""
    + cy.toFixed(2) + "\" y2=\"" + cy.toFixed(2) + "\" stroke=\"#1b1f24\" stroke-dasharray=\"3 3\"/>";
  svg.innerHTML = out + marks + axes;
}

function ticks(a, b) {
  if (!(b > a)) return [a];
  const raw = (b - a) / 5, p = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = [1, 2, 2.5, 5, 10].map(m => m * p).find(s => s >= raw);
  const out = [];
  for (let t = Math.ceil(a / step) * step; t <= b + 1e-9; t += step) out.push(+t.toFixed(10));
  return out;
}

function renderMaps() {
  if (cur.hand === null) {
    $("map-title").textContent = "Hand map";
    $("detail").textContent = "";
    $("map-key").textContent = "";
    PLAYERS.forEach(drawMap);
    return;
  }
  const h = cur.hand[1], k = IDX[h];
  $("map-title").textContent = "Hand map: " + h;
  PLAYERS.forEach(drawMap);
  const x = stackAt(cur.i);
  let detail = "<b>" + esc(h) + "</b> at " + esc(S[cur.s].label) + ":<ul>";
  for (const p of PLAYERS) detail += "<li>" + NAME[p] + ": " + ivText(S[cur.s].cells[p][k][2], "bb") + "</li>";
  detail += "</ul>";
  if (D.axis && D.lines.length) {
    const line = D.lines.reduce((best, l) => Math.abs(l.stack - x) < Math.abs(best.stack - x) ? l : best, D.lines[0]);
    detail += "Along the " + (D.axis === "ante" ? "ante" : "BB ante") + " at " + num(line.stack) + " bb:<ul>";
    for (const p of PLAYERS) detail += "<li>" + NAME[p] + ": " + ivText(line[p][k], "bb of ante") + "</li>";
    detail += "</ul>";
  }
  $("detail").innerHTML = detail;
  $("map-key").textContent = "Full colour: played (frequency > 0.5); light: played sometimes (> 0). " + (D.axis
    ? "Between the structures' antes (the ticks) each boundary is joined through the exact stack thresholds at "
      + "those antes and the exact ante thresholds of the ante paths at " + D.lines.length + " stacks."
      + (D.reach_text ? " " + D.reach_text : "") + " \u2260 beside a "
      + "gap: the antes either side have different numbers of played stretches, so which boundary is which is not "
      + "known: each ante's stretches are drawn as steps to half way, the ante thresholds there as dots."
    : "Rows: the structures in order (" + S.map((s, n) => (n + 1) + " " + s.label).join(", ") + "), not joined."
      + (D.lines_left_out ? " The ante lines are left out: these structures differ in more than the ante." : ""))
    + " Dashed: the sliders' stack and structure.";
}

// ------------------------------------------------------------------ state and address
function render() {
  $("ante-slider").value = String(cur.s);
  $("structure-pick").value = String(cur.s);
  $("stack-slider").value = String(cur.i);
  const x = stackAt(cur.i);
  $("stack-value").textContent = num(x) + " bb";
  $("stack-value").dataset.stack = num(x);
  document.body.dataset.structure = String(cur.s);
  renderGrids();
  renderMaps();
  $("to-map").textContent = "Map of " + cur.hand[1] + " (" + NAME[cur.hand[0]] + ") \u2193";
  // n counts the structures from 1, as the picker and the map's rows do
  const hash = "#n=" + (cur.s + 1) + "&stack=" + num(x) + (cur.hand ? "&hand=" + cur.hand[0] + ":" + cur.hand[1] : "");
  try { history.replaceState(null, "", hash); } catch (e) { /* a file: URL in some browsers */ }
}

function pick(player, hand) { cur.hand = [player, hand]; render(); }

function readHash() {
  const q = new URLSearchParams(location.hash.slice(1));
  const n = whole(q.get("n")), old = whole(q.get("structure"));
  if (n !== null && n >= 1 && n <= S.length) cur.s = n - 1;
  else if (n === null && old !== null && old < S.length) cur.s = old;  // an older page's address counted from 0
  const x = parseFloat(q.get("stack"));
  cur.i = nearestIndex(Number.isFinite(x) ? x : 10);
  const hand = (q.get("hand") || "").split(":");
  if (hand.length === 2 && PLAYERS.includes(hand[0]) && hand[1] in IDX) cur.hand = hand;
  if (cur.hand === null) cur.hand = firstMapped();
}

function whole(text) { return /^\d+$/.test(text || "") ? parseInt(text, 10) : null; }

// The hand the page opens on when the address names none: in grid order, SB's grid then BB's, the first
// hand whose map has a boundary inside the plane (a stack threshold inside some structure's range).
function firstMapped() {
  for (const p of PLAYERS) {
    for (let r = 0; r < 13; r++) {
      for (let c = 0; c < 13; c++) {
        const k = IDX[handAt(r, c)];
        if (S.some(st => st.cells[p][k][2].some(iv => iv.some(e => e > st.low + 1e-9 && e < D.high - 1e-9)))) {
          return [p, handAt(r, c)];
        }
      }
    }
  }
  return ["sb", handAt(0, 0)];
}

function init() {
  // a page holds at most 101 structures and 101 ante paths: the rest is in the atlas's Parquet files
  $("subtitle").textContent = (S.length < D.total ? S.length + " of " + D.total + " structures (evenly chosen; every one is"
      + " in thresholds.parquet)" : S.length + " structures") + ", stacks " + num(D.low) + "\u2013" + num(D.high) + " bb"
    + (D.axis && D.lines.length ? ", ante paths at " + (D.lines.length < D.total_lines ? D.lines.length + " of "
      + D.total_lines + " stacks (the rest in ante_thresholds.parquet)" : D.lines.length + " stacks") : "")
    + ((D.reach || []).length ? "; and " + D.reach.length + (D.reach.length === 1 ? " structure" : " structures")
      + " the reach added between those antes, drawn"
      + " in the hand map only (all in thresholds.parquet)" : "");
  const slider = $("ante-slider");
  slider.max = String(S.length - 1);
  $("structure-pick").innerHTML = S.map((s, k) => "<option value=\"" + k + "\">" + (k + 1) + ". " + esc(s.label)
    + "</option>").join("");
  $("stack-slider").max = String(N);
  slider.addEventListener("input", () => { cur.s = +slider.value; render(); });
  $("structure-pick").addEventListener("change", ev => { cur.s = +ev.target.value; render(); });
  $("stack-slider").addEventListener("input", ev => { cur.i = +ev.target.value; render(); });
  PLAYERS.forEach(buildGrid);
  $("to-map").addEventListener("click", () => {  // one tap from the grids to the map, where it stands below them
    $("maps").scrollIntoView({block: "start"});
    $("maps").focus({preventScroll: true});
  });
  legend();
  readHash();
  render();
}
init();
})();
