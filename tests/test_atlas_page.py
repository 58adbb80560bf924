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
        assert step["hash"] == f"#structure={k}&stack={step['stack']}&hand=sb:T3s"
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


def test_browser_map_regions_join_agreeing_antes_as_the_static_map_does(atlas, chromium, tmp_path):  # noqa: F811
    """Hands whose stretches agree across the antes (one polygon through all three, no seam) and
    one that disagrees: the page's regions are sflp.atlas.regions' point for point, both fills."""
    structures, lines = atlas
    page = write_atlas_html(tmp_path / "atlas.html", structures, lines)
    out = probe(chromium, page, tmp_path, SIZES[-1], "", script=REGIONS_PROBE)
    assert not out["errors"]

    def d(ring):
        return "M" + " L".join(f"{46 + (x - 1) / 24 * 358:.2f},{214 - a / 0.125 * 204:.2f}" for x, a in ring) + " Z"

    for key in ("sb-K5o", "bb-T3s", "bb-63s"):
        player, hand = key.split("-")
        for family, name in (("intervals", "full"), ("any_intervals", "any")):
            regions = hand_regions([(t.config.ante, getattr(t.get(player, hand), family)) for _, t in structures],
                                   [(t.config.stack, getattr(t.get(player, hand), family), 0.0, 0.125) for t in lines])
            assert out[key][name] == [d(r) for r in regions.polygons], (key, family)
    assert len(out["sb-K5o"]["full"]) == 1  # joined through the middle ante: one polygon
