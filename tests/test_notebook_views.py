"""Notebook views and helpers: headed HTML grids, print(solution), to_frame(), plot().

Reference numbers are the README's (10 bb no-ante equilibrium: SB pushes 58.3 %, BB calls
37.4 %, SB mixes 43s at 0.710747704; thresholds: T3s pushed on 1-7.245115 and three more
intervals, Q2o called up to 5.642741, the HoldemResources labels 7.7 and 5.6).
"""

from __future__ import annotations

import re
import subprocess
import sys
from html.parser import HTMLParser

import pytest

from sflp.game import GameConfig
from sflp.ranges import parse_range
from sflp.solver import solve
from sflp.thresholds import compute_thresholds

RANKS = "AKQJT98765432"
SB_GREEN, BB_BLUE = (46, 160, 67), (49, 130, 189)  # the PNG charts' full SB / BB colours


@pytest.fixture(scope="module")
def solution():
    return solve(GameConfig(stack=10))


@pytest.fixture(scope="module")
def thresholds():
    return compute_thresholds(GameConfig(stack=1), low=1, high=10)


class Tables(HTMLParser):
    """Every <table>: header texts and cells (text, style, title) in document order."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[dict] = []
        self._cell: dict | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table":
            self.tables.append({"th": [], "td": []})
        elif tag in ("th", "td"):
            self._cell = {"tag": tag, "text": "", "style": attrs.get("style", ""), "title": attrs.get("title", "")}

    def handle_endtag(self, tag):
        if tag in ("th", "td") and self._cell is not None:
            self.tables[-1][tag].append(self._cell)
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell["text"] += data


def tables(html: str) -> list[dict]:
    parser = Tables()
    parser.feed(html)
    return parser.tables


def grid_hand(r: int, c: int) -> str:
    """The README's grid rule, written out independently: pairs on the diagonal, suited above."""
    if r == c:
        return RANKS[r] * 2
    return RANKS[min(r, c)] + RANKS[max(r, c)] + ("s" if c > r else "o")


def colour(style: str, prop: str) -> tuple[int, int, int]:
    m = re.search(rf"(?:^|;){prop}:#([0-9A-Fa-f]{{6}})", style)
    assert m, (prop, style)
    return tuple(int(m[1][i:i + 2], 16) for i in (0, 2, 4))


def check_headed_grid(table: dict) -> None:
    heads = [h["text"] for h in table["th"]]
    assert heads[:14] == ["", *RANKS]  # the column header row
    assert heads[14:] == list(RANKS)  # one row header per row
    assert len(table["td"]) == 169
    for k, cell in enumerate(table["td"]):
        r, c = divmod(k, 13)
        assert cell["text"].startswith(grid_hand(r, c))
        bg, ink = colour(cell["style"], "background"), colour(cell["style"], "color")
        # explicit text colour with enough contrast on its background (dark themes)
        luminance = lambda rgb: 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2]  # noqa: E731
        assert abs(luminance(bg) - luminance(ink)) > 90, cell


def test_range_grid_is_headed_coloured_and_shows_partial_weights():
    r = parse_range("QQ+,AKs,A5s:0.5")
    (table,) = tables(r._repr_html_())
    check_headed_grid(table)
    cells = {grid_hand(*divmod(k, 13)): cell for k, cell in enumerate(table["td"])}
    assert colour(cells["AA"]["style"], "background") == SB_GREEN
    assert colour(cells["72o"]["style"], "background") == (255, 255, 255)
    assert cells["A5s"]["text"] == "A5s50%"
    assert cells["AKs"]["text"] == "AKs"


def test_solution_grids_use_sb_and_bb_colours_and_show_mixed(solution):
    sb, bb = tables(solution._repr_html_())
    for table in (sb, bb):
        check_headed_grid(table)
    sb_cells = {grid_hand(*divmod(k, 13)): c for k, c in enumerate(sb["td"])}
    bb_cells = {grid_hand(*divmod(k, 13)): c for k, c in enumerate(bb["td"])}
    assert colour(sb_cells["AA"]["style"], "background") == SB_GREEN
    assert colour(bb_cells["AA"]["style"], "background") == BB_BLUE
    assert sb_cells["43s"]["text"] == "43s71%"  # 0.710747704 (README)
    assert "EV margin" in sb_cells["43s"]["title"]


def test_print_solution_is_a_short_summary(solution):
    text = str(solution)
    assert len(text.splitlines()) <= 8
    assert "58.3%" in text and "37.4%" in text and "43s 71.1%" in text
    assert "array(" not in text and "[" not in text
    assert "array(" not in repr(solution) and len(repr(solution)) < 200


def test_solution_to_frame(solution):
    frame = solution.to_frame()
    assert list(frame.columns) == ["stack", "player", "hand", "frequency", "ev_margin"]
    assert len(frame) == 2 * 169
    row = frame[(frame.player == "sb") & (frame.hand == "43s")]
    assert abs(float(row.frequency.iloc[0]) - 0.710747704) < 1e-9
    weights = {"pair": 6, "s": 4, "o": 12}
    sb = frame[frame.player == "sb"]
    size = sb.hand.map(lambda h: weights["pair"] if len(h) == 2 else weights[h[2]])
    assert abs(100 * float((size * sb.frequency).sum()) / 1326 - 58.3) < 0.05


def test_solution_plot(solution):
    fig = solution.plot()
    titles = [ax.get_title() for ax in fig.axes]
    assert len(titles) == 2 and "58.3%" in titles[0] and "37.4%" in titles[1]
    texts = {t.get_text() for t in fig.axes[0].texts}
    assert "43s\n71%" in texts and "AA" in texts


def test_thresholds_to_frame(thresholds):
    frame = thresholds.to_frame()
    assert len(frame) == 2 * 169
    t3s = frame[(frame.player == "sb") & (frame.hand == "T3s")].iloc[0]
    assert len(t3s.intervals) == 4 and bool(t3s.multi) and t3s.label == "7.7"
    assert abs(t3s.intervals[0][1] - 7.245115) < 1e-6
    q2o = frame[(frame.player == "bb") & (frame.hand == "Q2o")].iloc[0]
    assert abs(q2o.max_stack - 5.642741) < 1e-6 and q2o.label == "5.6"
    assert "breakpoints" in repr(thresholds) and len(repr(thresholds)) < 200


def test_thresholds_html(thresholds):
    sb, bb = tables(thresholds._repr_html_())
    for table in (sb, bb):
        check_headed_grid(table)
    sb_cells = {grid_hand(*divmod(k, 13)): c for k, c in enumerate(sb["td"])}
    assert sb_cells["T3s"]["text"] == "T3s7.7*"
    assert "7.245115" in sb_cells["T3s"]["title"]


def test_views_keep_the_core_free_of_pandas_and_matplotlib():
    code = ("import sys; from sflp.game import GameConfig; from sflp.solver import solve; "
            "s = solve(GameConfig(stack=10)); s._repr_html_(); str(s); "
            "print([m for m in ('pandas', 'matplotlib') if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
