"""The reach (issue 42, "What to build" 1): the hand maps' boundaries traced between the antes.

References: boundaries given as exact curves (a parabola, whose straight chords miss it by a known
amount: a quarter as much on each half), a stretch that appears at a known ante, and the atlas's
own certified stack paths (each structure the reach adds is one, re-read from the folder).
"""

from __future__ import annotations

import json
import math
import re
from types import SimpleNamespace

import pytest

from sflp.atlas.reach import TOLERANCE_PT, gap_error, trace
from sflp.errors import ConfigError

X_SCALE, Y_SCALE = 10.0, 1000.0  # points per bb of stack, per bb of ante (a 0.15 bb ante range: 150 pt)


class Curve:
    """A stack path at ante ``a`` in which one hand (SB's 72o) is played from 1 bb to ``edge(a)``, and
    from ``second[0]`` to ``second[1]`` once ``a >= appear``; every other hand never."""

    def __init__(self, a, edge, appear=math.inf, second=(20.0, 21.0)):
        self.ante = a
        self.played = [(1.0, edge(a))] + ([second] if a >= appear else [])

    def get(self, player, hand):
        ivs = self.played if (player, hand) == ("sb", "72o") else []
        return SimpleNamespace(intervals=ivs, any_intervals=ivs)


def _run(edge, antes, budget, appear=math.inf):
    solved = []

    def solve(mids):
        solved.append(list(mids))
        return [Curve(a, edge, appear) for a in mids]

    rows = [(a, Curve(a, edge, appear)) for a in antes]
    reach = trace(rows, solve, budget=budget, x_scale=X_SCALE, y_scale=Y_SCALE, batch=2)
    return reach, solved


def _worst_miss(edge, antes):
    """The largest distance (points along the stack) between the exact curve and the straight
    joins through ``antes``, on a fine grid of antes."""
    antes = sorted(antes)
    worst = 0.0
    for a0, a1 in zip(antes, antes[1:]):
        for k in range(1, 50):
            a = a0 + (a1 - a0) * k / 50
            line = edge(a0) + (edge(a1) - edge(a0)) * (a - a0) / (a1 - a0)
            worst = max(worst, abs(edge(a) - line) * X_SCALE)
    return worst


def test_a_bending_boundary_is_traced_to_within_the_tolerance():
    """S*(a) = 5 + 400 a^2 over antes 0 to 0.15: joined straight between the two given antes it
    misses by 400 * 0.075^2 = 2.25 bb (22.5 pt) in the middle; the reach adds antes until the
    joins are within half a point everywhere (checked against the curve itself, not the reach's
    own estimate), and says it left nothing."""
    edge = lambda a: 5 + 400 * a * a  # noqa: E731
    assert _worst_miss(edge, [0.0, 0.15]) == pytest.approx(22.5, rel=1e-3)
    reach, solved = _run(edge, [0.0, 0.15], budget=64)
    assert reach.error_pt == 0.0 and 0 < len(reach.antes) < 64
    assert _worst_miss(edge, [0.0, 0.15, *reach.antes]) <= TOLERANCE_PT
    assert all(len(batch) <= 2 for batch in solved)  # rounds of at most `batch` structures


def test_a_straight_boundary_needs_one_look():
    """A boundary straight in the ante is measured once per gap (its midpoint is on the chord)."""
    reach, _ = _run(lambda a: 5 + 10 * a, [0.0, 0.05, 0.1], budget=64)
    assert len(reach.antes) == 2 and reach.error_pt == 0.0


def test_the_budget_is_kept_and_what_is_left_is_said():
    edge = lambda a: 5 + 400 * a * a  # noqa: E731
    reach, _ = _run(edge, [0.0, 0.15], budget=3)
    assert len(reach.antes) == 3 and reach.budget == 3
    assert reach.error_pt > TOLERANCE_PT  # the budget ran out before the tolerance was met


def test_a_stretch_that_appears_is_located_between_two_antes():
    """A second stretch appears at ante 0.0637: the antes either side disagree, so the map draws
    steps there; the reach bisects until the two antes that disagree are within the tolerance of
    each other on the map (half a point: 0.0005 bb of ante here)."""
    reach, _ = _run(lambda a: 6.0, [0.0, 0.15], budget=64, appear=0.0637)
    antes = sorted([0.0, 0.15, *reach.antes])
    below = max(a for a in antes if a < 0.0637)
    above = min(a for a in antes if a >= 0.0637)
    assert (above - below) * Y_SCALE <= TOLERANCE_PT and reach.error_pt == 0.0


def test_gap_error_measures_the_chord_and_the_steps():
    edge = lambda a: 5 + 400 * a * a  # noqa: E731
    miss, low, high = gap_error(Curve(0.0, edge), Curve(0.05, edge), Curve(0.1, edge), 0.0, 0.1, X_SCALE, Y_SCALE)
    assert miss == pytest.approx(abs(edge(0.05) - (edge(0.0) + edge(0.1)) / 2) * X_SCALE) and low == high == 0.0
    miss, low, high = gap_error(*(Curve(a, edge, appear=0.07) for a in (0.0, 0.05, 0.1)), 0.0, 0.1, X_SCALE, Y_SCALE)
    assert (low, high) == (0.0, pytest.approx(0.05 * Y_SCALE))


def test_the_reach_adds_structures_to_the_atlas_and_its_maps(tmp_path):
    """An atlas of antes 0 and 0.125 over 5-7 bb with reach 2: two more structures, strictly
    between, in the tables (read back and re-proved from their own paths) and marked in the
    manifest; the page's map data carries them; every stack threshold of every structure, the
    added ones too, lies on an edge of the map's regions."""
    from sflp.atlas.jobs import atlas_jobs
    from sflp.atlas.maps import MAP_H, MAP_W
    from sflp.atlas.read import read_atlas
    from sflp.atlas.write import write_atlas

    jobs = atlas_jobs([(0.5, 1.0, 0.0, 0.0), (0.5, 1.0, 0.125, 0.0)], [5 + k / 2 for k in range(5)],
                      ante_stacks=(6,))
    out = tmp_path / "atlas"
    write_atlas(jobs, out, workers=0, hands=("T3s", "K5o"), reach=2)
    manifest = json.loads((out / "manifest.json").read_text())
    added = [s for s in manifest["structures"] if s["reach"]]
    assert len(added) == 2 and all(0 < s["ante"] < 0.125 for s in added)
    assert [s["reach"] for s in manifest["structures"][:2]] == [False, False]
    atlas = read_atlas(out, verify="proof")  # each added structure re-proved from its own path
    assert set(atlas.thresholds["ante"]) == {0.0, 0.125, *(s["ante"] for s in added)}
    blob = re.search(r'<script type="application/json" id="atlas-data">(.*?)</script>',
                     (out / "atlas.html").read_text(encoding="utf-8"), re.S)[1]
    data = json.loads(blob)
    assert sorted(r["y"] for r in data["reach"]) == sorted(s["ante"] for s in added)
    assert len(data["structures"]) == 2  # the grids are the structures asked for; the maps take all
    assert "The reach added 2 structures" in data["reach_text"]
    svg = (out / "hand_maps.svg").read_text(encoding="utf-8")
    assert "The reach added 2" in svg

    # every stack threshold at every ante (the added ones too) on an edge of the hand's regions
    from sflp.atlas.maps import map_regions
    from sflp.atlas.outputs import PathView

    frame = atlas.thresholds
    antes = sorted(set(frame["ante"]))
    views = [(str(ante), PathView(frame[frame["ante"] == ante].to_dict("records"), SimpleNamespace(ante=ante),
                                  5.0, 7.0, "stack")) for ante in antes]  # every grid starts at 5 bb
    xs, ys = MAP_W / 2.0, MAP_H / 0.125
    checked = 0
    for player in ("sb", "bb"):
        for hand in ("T3s", "K5o", "Q9o", "J7s", "63s", "94s", "T6o", "Q2o", "K2o", "J5s"):
            regions = map_regions(views, [], "ante", player, hand)
            for ante, (_, view) in zip(antes, views):
                for a, b in view.get(player, hand).intervals:
                    for e in (a, b):
                        if 5.0 + 1e-9 < e < 7.0 - 1e-9:
                            best = min(_segment_distance((e * xs, ante * ys), ring, xs, ys)
                                       for ring in regions.polygons)
                            assert best < 0.02, (player, hand, ante, e)
                            checked += 1
    assert checked >= 10


def _segment_distance(p, ring, xs, ys):
    best = math.inf
    pts = [(x * xs, a * ys) for x, a in ring]
    for (ax, ay), (bx, by) in zip(pts, pts[1:] + pts[:1]):
        dx, dy = bx - ax, by - ay
        t = max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / (dx * dx + dy * dy))) if dx or dy else 0.0
        best = min(best, math.hypot(ax + t * dx - p[0], ay + t * dy - p[1]))
    return best


@pytest.mark.parametrize("argv, words", [
    (["--reach", "2"], "differ in their ante alone"),
    (["--reach", "-1"], "--reach"),
    (["--ante", "0,0.1", "--reach", "9999"], "--reach 9999: give a whole number"),
    (["--reach", "3"], "--reach 3: the reach traces"),
])
def test_bad_reach_is_one_clear_error(tmp_path, argv, words):
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "sflp", "atlas", "--stacks", "5:6:0.5", "--out", str(tmp_path / "a"),
                           *argv], capture_output=True, text=True)
    assert done.returncode != 0 and words in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and not done.stdout
    assert not (tmp_path / "a").exists()


def test_write_atlas_refuses_reach_for_structures_that_are_no_line():
    from sflp.atlas.jobs import atlas_jobs
    from sflp.atlas.write import write_atlas

    jobs = atlas_jobs([(0.5, 1.0, 0.0, 0.0), (0.5, 1.0, 0.0, 1.0)], [5.0, 6.0], ante_stacks=())
    with pytest.raises(ConfigError, match="differ in their ante alone"):
        write_atlas(jobs, "/nonexistent/never", reach=2)
