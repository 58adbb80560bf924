"""atlas.html (issue 35, item 3): the threshold grids of each structure, the two sliders and the
hand map, checked against the thresholds themselves and, in headless Chromium, at 390 and 1400 px.

References: the committed chart set's thresholds.csv (``chart_label``, written by ``sflp chart``)
for the no-ante structure; each structure's certified intervals for what is played at a stack;
combos 6/4/12 of 1,326 for the percentages.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from sflp.atlas.page import atlas_data, write_atlas_html
from sflp.atlas.regions import hand_regions
from sflp.core.cards import CLASS_NAMES
from sflp.core.game import GameConfig
from sflp.errors import ConfigError
from sflp.solving.thresholds import compute_thresholds
from tests.test_chart_html import SIZES, chromium, probe  # noqa: F401 - the fixture is used by name

ROOT = Path(__file__).resolve().parent.parent
CHART = ROOT / "reports" / "hu-pushfold_sb0.5_bb1_ante0_bbante0_1-25" / "thresholds.csv"
ANTES = (0.0, 0.1, 0.125)
LINE_STACKS = (3.0, 8.0, 14.0)


@pytest.fixture(scope="module")
def atlas(ante_atlas):
    """The structures of ANTES over 1 + ante to 25 bb and the ante paths at LINE_STACKS (conftest.py's,
    shared with tests/test_atlas_plots.py)."""
    structures, lines = ante_atlas
    assert [t.config.ante for _, t in structures] == list(ANTES) and all(t.high == 25 for _, t in structures)
    assert [line.config.stack for line in lines] == list(LINE_STACKS)
    return structures, lines


def _combos(hand: str) -> int:
    return 6 if len(hand) == 2 else 4 if hand.endswith("s") else 12


def _played(th, player: str, hand: str, stack: float) -> bool:
    return any(a - 1e-9 <= stack <= b + 1e-9 for a, b in th.get(player, hand).intervals)


def test_the_no_ante_grids_carry_the_chart_sets_labels(atlas):
    data = atlas_data(*atlas)
    rows = {(r["player"], r["hand"]): r["chart_label"] for r in csv.DictReader(CHART.open(encoding="utf-8"))}
    cells = data["structures"][0]["cells"]
    for player in ("sb", "bb"):
        for k, hand in enumerate(CLASS_NAMES):
            number, mark = cells[player][k][:2]
            assert number + mark == rows[(player, hand)], (player, hand)


def test_the_ante_lines_are_drawn_only_when_the_structures_differ_in_the_ante_alone(atlas):
    structures, lines = atlas
    assert atlas_data(structures, lines)["axis"] == "ante"
    mixed = [*structures, ("BB ante 1", compute_thresholds(GameConfig(stack=10, bb_ante=1), 2, 25))]
    data = atlas_data(mixed, lines)
    assert data["axis"] is None and data["lines"] == [] and data["lines_left_out"]
    with pytest.raises(ConfigError, match="same stack"):
        atlas_data([*structures, ("short", compute_thresholds(GameConfig(stack=10), 1, 20))])


PROBE = """<script>
(() => {
  const $ = id => document.getElementById(id);
  const out = {viewport: [innerWidth, innerHeight], steps: []};
  const ante = $("ante-slider"), stack = $("stack-slider");
  const read = () => {
    const cells = {};
    for (const td of document.querySelectorAll("table.grid td")) {
      cells[td.id] = [td.dataset.played, td.querySelector(".f").textContent];
    }
    return {structure: document.body.dataset.structure, stack: $("stack-value").dataset.stack,
            push: $("push-pct").textContent, call: $("call-pct").textContent, cells,
            regions: [...document.querySelectorAll("#map-sb path.played")].map(e => e.getAttribute("d")),
            any: document.querySelectorAll("#map-sb path.played-any").length,
            lines: document.querySelectorAll("#map-sb line.played-ante, #map-sb rect").length,
            dots: document.querySelectorAll("#map-sb circle.edge-ante").length,
            disagree: document.querySelectorAll("#map-sb text.disagree").length,
            hash: location.hash};
  };
  ante.value = "1"; ante.dispatchEvent(new Event("input"));
  stack.value = String(Math.round((7.5 - parseFloat(stack.dataset.low || "1")) / 0.05));
  stack.dispatchEvent(new Event("input"));
  $("sb-T3s").dispatchEvent(new MouseEvent("click", {bubbles: true}));
  out.steps.push(read());
  ante.value = "2"; ante.dispatchEvent(new Event("input"));
  out.steps.push(read());
  out.width = document.documentElement.scrollWidth;
  out.errors = document.documentElement.dataset.jsErrors || "";
  parent.postMessage(JSON.stringify(out), "*");
})();
</script></body>"""


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_browser_sliders_and_hand_map(atlas, chromium, tmp_path, size):  # noqa: F811 - the fixture
    structures, lines = atlas
    page = write_atlas_html(tmp_path / "atlas.html", structures, lines)
    out = probe(chromium, page, tmp_path, size, "", script=PROBE)
    assert out["width"] <= size[0]  # nothing scrolls sideways, at 390 px too
    for step, k in zip(out["steps"], (1, 2)):
        th = structures[k][1]
        assert step["structure"] == str(k)
        stack = float(step["stack"])
        assert abs(stack - 7.5) < 0.05 + 1e-9
        pct = {}
        for player in ("sb", "bb"):
            played = 0
            for hand in CLASS_NAMES:
                on = _played(th, player, hand, stack)
                assert step["cells"][f"{player}-{hand}"][0] == ("1" if on else "0"), (k, player, hand)
                played += _combos(hand) * on
            pct[player] = f"{100 * played / 1326:.1f}%"
        assert (step["push"], step["call"]) == (pct["sb"], pct["bb"])
        # T3s's map: the regions of sflp.atlas.regions (the static hand map's rule), point for point
        # in the SVG's units (stack 1-25 over x 46-404, ante 0-0.125 over y 214-10); no line, no band
        regions = hand_regions([(t.config.ante, t.get("sb", "T3s").intervals) for _, t in structures],
                               [(t.config.stack, t.get("sb", "T3s").intervals, 0.0, 0.125) for t in lines])
        wide = hand_regions([(t.config.ante, t.get("sb", "T3s").any_intervals) for _, t in structures],
                            [(t.config.stack, t.get("sb", "T3s").any_intervals, 0.0, 0.125) for t in lines])
        want = ["M" + " L".join(f"{46 + (x - 1) / 24 * 358:.2f},{214 - a / 0.125 * 204:.2f}" for x, a in ring) + " Z"
                for ring in regions.polygons]
        assert step["regions"] == want and len(want) > 1 and step["any"] == len(wide.polygons)
        assert step["lines"] == 1  # the frame alone
        assert step["dots"] == len(regions.loose) and step["disagree"] == len(regions.disagree) > 0
        assert step["hash"] == f"#n={k + 1}&stack={step['stack']}&hand=sb:T3s"  # n counts from 1
    assert json.dumps(out["steps"][0]["cells"]) != json.dumps(out["steps"][1]["cells"])


def test_a_page_of_many_structures_shows_an_even_subset_and_says_so(atlas, chromium, tmp_path, monkeypatch):  # noqa: F811
    import re

    from sflp.atlas import page as atlas_page
    from tests.test_chart_html import dump_dom

    structures, lines = atlas
    monkeypatch.setattr(atlas_page, "MAX_STRUCTURES", 2)
    monkeypatch.setattr(atlas_page, "MAX_LINES", 2)
    data = atlas_data(structures, lines)
    assert [s["label"] for s in data["structures"]] == ["ante 0", "ante 0.125"]  # the first and the last
    assert [line["stack"] for line in data["lines"]] == [3.0, 14.0] and data["total"] == 3
    page = write_atlas_html(tmp_path / "atlas.html", structures, lines)
    html = dump_dom(chromium, page, "", tmp_path)
    sub = re.search(r'<p class="sub" id="subtitle">(.*?)</p>', html)[1]
    assert "2 of 3 structures" in sub and "2 of 3 stacks" in sub, sub


# ---------------------------------------------------------------- issue 42: the picked hand, the opening map,
# faded contrast, one tap to the map, the address counting from 1

RANKS = "AKQJT98765432"


def _grid_order() -> list[str]:
    """The hands row by row as the grids show them (pairs on the diagonal, suited above it)."""
    return [RANKS[r] + RANKS[c] + ("" if r == c else "s" if r < c else "o") if r <= c
            else RANKS[c] + RANKS[r] + "o" for r in range(13) for c in range(13)]


def _wcag(a: str, b: str) -> float:
    """WCAG 2 contrast of two ``RRGGBB`` colours (written out here, not sflp's)."""
    def lum(colour: str) -> float:
        rgb = [int(colour[k:k + 2], 16) / 255 for k in (0, 2, 4)]
        lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def _css(colour: str) -> str:
    """``RRGGBB`` as getComputedStyle writes it."""
    return "rgb(" + ", ".join(str(int(colour[k:k + 2], 16)) for k in (0, 2, 4)) + ")"


def _hex(css: str) -> str:
    import re

    return "".join(f"{int(v):02X}" for v in re.findall(r"\d+", css)[:3])


def test_faded_cells_keep_text_contrast_of_3_on_every_band_colour(atlas):
    """Every colour a cell can take (the scale module's bands, top and never, whatever they are), faded:
    its text contrasts at least 3:1 (WCAG 2), and the faded colour is the band's at 28 % over white."""
    from sflp.atlas.page import faded
    from sflp.charts import scale

    colours = (*scale.BAND_COLOURS, scale.TOP_COLOUR, scale.NEVER_COLOUR)
    for colour in colours:
        back, ink = faded(colour)
        assert _wcag(back, ink) >= 3, (colour, back, ink, _wcag(back, ink))
        for k in (0, 2, 4):
            want = 0.28 * int(colour[k:k + 2], 16) + 0.72 * 255
            assert abs(int(back[k:k + 2], 16) - want) <= 0.5 + 1e-9, (colour, back)
    # the page carries them: each legend entry is [colour, label, ink, faded colour, faded ink]
    legend = atlas_data(*atlas)["colours"]["legend"]
    assert [e[0] for e in legend] == [c for c, _ in scale.chart_scale(25).legend()]
    assert all([e[3], e[4]] == list(faded(e[0])) for e in legend)


STYLE_PROBE = """<script>
(() => {
  const $ = id => document.getElementById(id);
  const out = {viewport: [innerWidth, innerHeight], cells: {}};
  for (const td of document.querySelectorAll("table.grid td")) {
    const cs = getComputedStyle(td);
    let opacity = 1;
    for (let e = td; e; e = e.parentElement) opacity *= parseFloat(getComputedStyle(e).opacity);
    out.cells[td.id] = {bg: cs.backgroundColor, ink: cs.color, opacity, outline: cs.outlineStyle,
                        cls: td.className, label: td.getAttribute("aria-label"), image: cs.backgroundImage};
  }
  out.hash = location.hash;
  out.title = $("map-title").textContent;
  out.maps = [$("map-sb").childElementCount, $("map-bb").childElementCount];
  out.structure = document.body.dataset.structure;
  const button = $("to-map");
  out.button = {shown: getComputedStyle(button).display !== "none", text: button.textContent,
                height: button.getBoundingClientRect().height};
  out.mapTop = $("maps").getBoundingClientRect().top;
  out.mapBottom = $("maps").getBoundingClientRect().bottom;
  const sb = $("grid-sb").getBoundingClientRect();
  out.gridBottom = $("grid-bb").getBoundingClientRect().bottom;
  out.gridTop = sb.top;
  if (out.button.shown) {
    scrollTo(0, sb.top + scrollY);  // the player is at the grids
    const b = button.getBoundingClientRect();
    out.buttonOnScreen = b.top >= 0 && b.bottom <= innerHeight;
    button.click();
    out.mapTopAfter = $("maps").getBoundingClientRect().top;
    out.focused = document.activeElement && document.activeElement.id;
  }
  out.width = document.documentElement.scrollWidth;
  out.errors = document.documentElement.dataset.jsErrors || "";
  parent.postMessage(JSON.stringify(out), "*");
})();
</script></body>"""


REGIONS_PROBE = """<script>
(() => {
  const out = {viewport: [innerWidth, innerHeight]};
  for (const id of ["sb-K5o", "bb-T3s", "bb-63s"]) {
    document.getElementById(id).dispatchEvent(new MouseEvent("click", {bubbles: true}));
    const map = "#map-" + id.slice(0, 2);
    const ds = sel => [...document.querySelectorAll(map + sel)].map(e => e.getAttribute("d"));
    out[id] = {full: ds(" path.played"), any: ds(" path.played-any")};
  }
  out.errors = document.documentElement.dataset.jsErrors || "";
  parent.postMessage(JSON.stringify(out), "*");
})();
</script></body>"""


@pytest.fixture(scope="module")
def atlas_page(atlas, tmp_path_factory):
    return write_atlas_html(tmp_path_factory.mktemp("atlas-page") / "atlas.html", *atlas)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_browser_the_picked_unplayed_hand_looks_unplayed(atlas, atlas_page, chromium, tmp_path, size):  # noqa: F811
    """The issue's address: 63s at 4 bb with no ante is folded (2.39 to 5.07 bb), its band 6-8.  Picked, it is
    drawn exactly as the unplayed cells: the band's faded colour and text, nothing made opaque; outlined."""
    from sflp.atlas.page import faded
    from sflp.charts.scale import chart_scale

    structures, _ = atlas
    th = structures[0][1]
    assert not _played(th, "sb", "63s", 4.0) and _played(th, "sb", "63s", 7.0)  # the reference: a gap at 4 bb
    out = probe(chromium, atlas_page, tmp_path, size, "#n=1&stack=4&hand=sb:63s", script=STYLE_PROBE)
    assert out["width"] <= size[0]
    picked = out["cells"]["sb-63s"]
    assert "sel" in picked["cls"].split() and picked["outline"] == "solid"
    assert picked["label"].endswith("not played at 4 bb")
    h = th.get("sb", "63s")
    band = chart_scale(25, th.low).colour(h.max_stack, h.capped)
    back, ink = faded(band)
    assert (picked["bg"], picked["ink"], picked["opacity"]) == (_css(back), _css(ink), 1), picked
    assert _wcag(_hex(picked["bg"]), _hex(picked["ink"])) >= 3
    # every unplayed cell, picked or not, has its band's faded look; every played one its band's colour
    scale = chart_scale(25, th.low)
    for player in ("sb", "bb"):
        for hand in CLASS_NAMES:
            cell, hh = out["cells"][f"{player}-{hand}"], th.get(player, hand)
            colour = scale.colour(hh.max_stack, hh.capped)
            if hh.max_stack is not None and not _played(th, player, hand, 4.0):
                assert (cell["bg"], cell["ink"]) == tuple(map(_css, faded(colour))), (player, hand, cell)
                assert _wcag(_hex(cell["bg"]), _hex(cell["ink"])) >= 3
            else:
                assert cell["bg"] == _css(colour), (player, hand, cell)
            assert cell["opacity"] == 1
    assert out["hash"] == "#n=1&stack=4&hand=sb:63s"
    # issue 42: the gap cells (†, by the scale's rule on the certified intervals) are hatched, and no other
    from sflp.charts.scale import mark

    for player in ("sb", "bb"):
        for hand in CLASS_NAMES:
            hatched = "repeating-linear-gradient" in out["cells"][f"{player}-{hand}"]["image"]
            assert hatched == (mark(th.get(player, hand).intervals, th.low) == "†"), (player, hand)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_browser_opens_on_a_hands_map_reached_in_one_tap(atlas, atlas_page, chromium, tmp_path, size):  # noqa: F811
    """With no hand in the address the page opens on the first hand, in grid order (SB, then BB), that
    has a stack threshold inside some structure's range, its map drawn; below 1200 px a button kept on
    screen beside the grids brings the map into view in one tap."""
    structures, _ = atlas
    first = next((p, h) for p in ("sb", "bb") for h in _grid_order()
                 if any(t.low + 1e-9 < e < 25 - 1e-9
                        for _, t in structures for iv in t.get(p, h).intervals for e in iv))
    out = probe(chromium, atlas_page, tmp_path, size, "", script=STYLE_PROBE)
    assert out["hash"].endswith(f"&hand={first[0]}:{first[1]}") and out["hash"].startswith("#n=1&stack=10&")
    assert first[1] in out["title"] and min(out["maps"]) > 0
    assert "sel" in out["cells"][f"{first[0]}-{first[1]}"]["cls"].split()
    if size[0] < 1200:
        assert out["button"]["shown"] and out["button"]["height"] >= 44 and first[1] in out["button"]["text"]
        assert out["mapTop"] > size[1]  # below the grids, out of sight on open
        assert out["buttonOnScreen"]  # at the grids, the button is on screen
        assert 0 <= out["mapTopAfter"] < 2 and out["focused"] == "maps"
    else:
        assert not out["button"]["shown"]
        assert out["mapTop"] < size[1] and out["mapBottom"] > 0  # beside the grids, in view on open


ADDRESSES = [("#n=2&stack=4", "1"), ("#n=3", "2"), ("#n=1", "0"), ("#n=4", "0"), ("#n=0", "0"),
             ("#structure=1&stack=4", "1"), ("#structure=2&hand=bb:J7s", "2"), ("#structure=0", "0"),
             ("#n=1&structure=2", "0")]
"""An address and the structure (from 0, body's data-structure) it opens: n counts from 1, as the picker's
options and the map's rows; an older page's structure= (from 0) still opens its structure; n wins over it;
out of range opens the first."""


def test_browser_address_counts_structures_from_1_and_keeps_old_links(atlas_page, chromium, tmp_path):  # noqa: F811
    import re

    from tests.test_chart_html import dump_doms

    doms = dump_doms(chromium, [(atlas_page, fragment) for fragment, _ in ADDRESSES], tmp_path)
    for (fragment, want), html in zip(ADDRESSES, doms):
        assert re.search(r'<body[^>]*data-structure="(\d+)"', html)[1] == want, fragment
    options = re.findall(r'<option value="(\d+)"[^>]*>(.*?)</option>', doms[0])
    assert [text for _, text in options] == ["1. ante 0", "2. ante 0.1", "3. ante 0.125"]


def _assert_page_regions(out, structures, lines) -> None:
    """The page's map paths (``REGIONS_PROBE``'s ``out``) of three hands are sflp.atlas.regions'
    polygons of all ``structures`` and ``lines``, point for point, both fills: the map's plot box is
    46..404 px across stacks 1..25 and 214..10 px up antes 0..0.125."""
    def d(ring):
        return "M" + " L".join(f"{46 + (x - 1) / 24 * 358:.2f},{214 - a / 0.125 * 204:.2f}" for x, a in ring) + " Z"

    for key in ("sb-K5o", "bb-T3s", "bb-63s"):
        player, hand = key.split("-")
        for family, name in (("intervals", "full"), ("any_intervals", "any")):
            regions = hand_regions([(t.config.ante, getattr(t.get(player, hand), family)) for _, t in structures],
                                   [(t.config.stack, getattr(t.get(player, hand), family), 0.0, 0.125) for t in lines])
            assert out[key][name] == [d(r) for r in regions.polygons], (key, family)


def test_browser_map_regions_join_agreeing_antes_as_the_static_map_does(atlas, chromium, tmp_path):  # noqa: F811
    """Hands whose stretches agree across the antes (one polygon through all three, no seam) and
    one that disagrees: the page's regions are sflp.atlas.regions' point for point, both fills."""
    structures, lines = atlas
    page = write_atlas_html(tmp_path / "atlas.html", structures, lines)
    out = probe(chromium, page, tmp_path, SIZES[-1], "", script=REGIONS_PROBE)
    assert not out["errors"]

    _assert_page_regions(out, structures, lines)
    assert len(out["sb-K5o"]["full"]) == 1  # joined through the middle ante: one polygon


def test_browser_the_map_draws_the_reachs_structures_and_the_page_says_so(atlas, chromium, tmp_path):  # noqa: F811
    """Issue 42, the reach: a structure the reach added (here the middle ante of the fixture, handed
    as one) is drawn in the hand map, point for point as sflp.atlas.regions joins it, but is not a
    structure of the grids, and the subtitle says the page's grids show part of the tables."""
    structures, lines = atlas
    shown, added = [structures[0], structures[2]], [structures[1][1]]
    page = write_atlas_html(tmp_path / "atlas.html", shown, lines, reach=added)
    out = probe(chromium, page, tmp_path, SIZES[-1], "", script=REGIONS_PROBE)
    assert not out["errors"]

    _assert_page_regions(out, structures, lines)
    import re

    from tests.test_chart_html import dump_dom

    html = dump_dom(chromium, page, "", tmp_path)
    sub = re.search(r'<p class="sub" id="subtitle">(.*?)</p>', html)[1]
    assert sub.startswith("2 structures") and "1 structure the reach added" in sub and "thresholds.parquet" in sub, sub
    picker = re.search(r'<select[^>]*id="structure-pick"[^>]*>(.*?)</select>', html, re.S)[1]
    assert picker.count("<option") == 2
