"""Notebook views and helpers: headed HTML grids, print(solution), to_frame(), the solution
picture, and their registration with IPython's HTML formatter by ``import sflp``.

Reference numbers are the README's (10 bb no-ante equilibrium: SB pushes 58.3 %, BB calls
37.4 %, SB mixes 43s at 0.710747704; thresholds: T3s pushed on 1-7.245115 and three more
intervals, Q2o called up to 5.642741, the HoldemResources labels 7.7 and 5.6).
"""

from __future__ import annotations

import importlib
import io
import re
import subprocess
import sys
from html.parser import HTMLParser
from types import SimpleNamespace

import pytest

import sflp
from sflp.core.game import GameConfig
from sflp.core.ranges import parse_range
from sflp.solving.solver import solve
from sflp.solving.thresholds import compute_thresholds
from sflp.views import notebook
from sflp.views.notebook import range_html, solution_html, solution_picture, thresholds_html

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
    (table,) = tables(range_html(r))
    check_headed_grid(table)
    cells = {grid_hand(*divmod(k, 13)): cell for k, cell in enumerate(table["td"])}
    assert colour(cells["AA"]["style"], "background") == SB_GREEN
    assert colour(cells["72o"]["style"], "background") == (255, 255, 255)
    assert cells["A5s"]["text"] == "A5s50%"
    assert cells["AKs"]["text"] == "AKs"


def test_range_html_cells_in_grid_order():
    page = range_html(parse_range("AA,K2o:0.5"))
    assert page.count("<tr>") == 14  # a header row of ranks, then 13 rows
    assert page.count("<td") == 169
    for name in ("AA", "AKs", "AKo", "22"):
        assert f">{name}</td>" in page
    assert ">K2o<br>" in page and "50%" in page  # mixed weight written under the name
    assert page.index(">AA</td>") < page.index(">AKs</td>") < page.index(">AKo</td>")


def test_solution_grids_use_sb_and_bb_colours_and_show_mixed(solution):
    sb, bb = tables(solution_html(solution))
    for table in (sb, bb):
        check_headed_grid(table)
    sb_cells = {grid_hand(*divmod(k, 13)): c for k, c in enumerate(sb["td"])}
    bb_cells = {grid_hand(*divmod(k, 13)): c for k, c in enumerate(bb["td"])}
    assert colour(sb_cells["AA"]["style"], "background") == SB_GREEN
    assert colour(bb_cells["AA"]["style"], "background") == BB_BLUE
    assert sb_cells["43s"]["text"] == "43s71%"  # 0.710747704 (README)
    assert "EV margin" in sb_cells["43s"]["title"]
    page = solution_html(solution)
    assert page.count("<table") == 2 and "push 58.3%" in page  # the summary line heads the grids


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


def test_solution_picture(solution, tmp_path):
    from PIL import Image

    picture = solution_picture(solution)
    svg = picture._repr_svg_()
    assert svg == picture.svg() and svg.startswith("<?xml")
    texts = re.findall(r"<text[^>]*>([^<]*)</text>", svg)
    assert "SB push at 10 bb: 58.3% of hands" in texts and "BB call at 10 bb: 37.4% of hands" in texts
    assert {grid_hand(r, c) for r in range(13) for c in range(13)} <= set(texts)  # every hand, both grids
    assert texts.count("43s") == 2 and "71%" in texts  # SB mixes 43s at 0.710747704
    image = Image.open(io.BytesIO(picture.png()))
    image.load()
    assert image.format == "PNG" and image.width > image.height > 500
    assert picture.png() == picture.png()  # same drawing, same bytes
    for suffix, magic in ((".png", b"\x89PNG"), (".svg", b"<?xml"), (".pdf", b"%PDF")):
        path = picture.save(tmp_path / f"grids{suffix}")
        assert path.read_bytes().startswith(magic)
    with pytest.raises(sflp.ConfigError, match="grids.gif"):
        picture.save(tmp_path / "grids.gif")


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
    sb, bb = tables(thresholds_html(thresholds))
    for table in (sb, bb):
        check_headed_grid(table)
    sb_cells = {grid_hand(*divmod(k, 13)): c for k, c in enumerate(sb["td"])}
    assert sb_cells["T3s"]["text"] == "T3s7.7*"
    assert "7.245115" in sb_cells["T3s"]["title"]


def test_threshold_views_carry_the_band_legend(thresholds):
    page = thresholds_html(thresholds)
    legend = page[page.rindex("played up to (bb)"):]
    labels = re.findall(r">([^<>]+)</span>", legend)
    assert labels == ["≤2", "2–4", "4–6", "6–8", "8–10", "10+", "never"]  # the chart's top is 10 bb
    sb = tables(page)[0]
    cells = {grid_hand(*divmod(k, 13)): c for k, c in enumerate(sb["td"])}
    # a cell's colour is its band's: T3s pushed up to 7.245 bb (6-8), AA to the top (10+, its own colour)
    swatch = dict(zip(labels, re.findall(r"background:#([0-9A-F]{6})", legend)))
    assert "{:02X}{:02X}{:02X}".format(*colour(cells["T3s"]["style"], "background")) == swatch["6–8"]
    assert "{:02X}{:02X}{:02X}".format(*colour(cells["AA"]["style"], "background")) == swatch["10+"]


def test_grid_text_is_readable():
    page = range_html(parse_range("AA,K2o:0.5"))
    sizes = [int(x) for x in re.findall(r"font-size:(\d+)px", page)]
    assert min(sizes) >= 11 and "font-size:13px" in page  # Jupyter's own output text is 13 px


@pytest.fixture(scope="module")
def exploit_report(solution):
    return sflp.exploit(GameConfig(stack=10), sflp.load_strategy("QQ+,AKs", "bb"), solution=solution)


def test_exploit_view_shows_figures_best_response_margins_and_the_locked_range(exploit_report):
    r = exploit_report
    page = notebook.exploit_html(r)
    figures, hero, locked = tables(page)
    assert f"{r.gain_mbb:.4f} mbb/hand" in page and f"{r.hero_pct:.2f}% of hands" in page
    check_headed_grid(hero)
    check_headed_grid(locked)
    for k, cell in enumerate(hero["td"]):
        name = grid_hand(*divmod(k, 13))
        m = r.margins_exact[k]
        # the best response pushes exactly the hands with a positive exact margin (ties fold)
        assert colour(cell["style"], "background") == (SB_GREEN if m > 0 else (255, 255, 255)), name
        assert cell["text"] == name + ("=" if m == 0 else f"{float(m):+.2f}")
    locked_cells = {grid_hand(*divmod(k, 13)): c for k, c in enumerate(locked["td"])}
    called = {"AA", "KK", "QQ", "AKs"}
    for name, cell in locked_cells.items():
        assert colour(cell["style"], "background") == (BB_BLUE if name in called else (255, 255, 255)), name


def test_verify_view_of_a_leaky_strategy(solution):
    config = GameConfig(stack=10)
    report = sflp.verify(config, sflp.load_strategy("QQ+", "sb"), None, solution=solution)
    exact = notebook.verify_html(report)
    rows = [t for t in tables(exact) if len(t["td"]) != 169]
    lost = [float(rows[1]["td"][k + 3]["text"]) for k in range(0, len(rows[1]["td"]), 4)]
    assert lost == sorted(lost, reverse=True) and len(lost) == 15  # the costliest first
    assert f"{report.sb_exploitability_mbb:.3f} mbb/hand" in exact
    grid = [t for t in tables(exact) if len(t["td"]) == 169][0]
    check_headed_grid(grid)
    by_hand = {grid_hand(*divmod(k, 13)): c for k, c in enumerate(grid["td"])}
    assert colour(by_hand["QQ"]["style"], "background") == (255, 255, 255)  # played as at equilibrium: nothing lost
    assert colour(by_hand["A5s"]["style"], "background")[0] > colour(by_hand["A5s"]["style"], "background")[2]  # red
    rows_by_hand = {row.hand: row for row in report.hands if row.player == "sb"}
    for name, cell in by_hand.items():  # each cell writes the mbb its hand loses against the exact BB
        lost_mbb = rows_by_hand[name].ev_lost * 1000
        assert cell["text"] == name + (f"{lost_mbb:.1f}" if lost_mbb >= 0.05 else ""), name


def test_sc_view_in_the_threshold_bands():
    numbers = sflp.sc_numbers(GameConfig(stack=10))
    assert isinstance(numbers, dict) and numbers.config == GameConfig(stack=10)
    page = notebook.sc_html(numbers)
    (grid,) = tables(page)
    check_headed_grid(grid)
    cells = {grid_hand(*divmod(k, 13)): c for k, c in enumerate(grid["td"])}
    assert cells["AA"]["text"] == "AA∞"  # AA is break-even face up at every stack (Sklansky & Miller 2006)
    assert "inf" not in page
    assert cells["72o"]["text"] == f"72o{float(numbers['72o'].stack):.1f}"
    assert "SC number (bb)" in page


def test_the_core_types_carry_no_presentation():
    from sflp.core.game import Solution
    from sflp.core.ranges import Range
    from sflp.solving.thresholds import Thresholds

    for cls in (Solution, Thresholds, Range):
        assert not hasattr(cls, "_repr_html_") and not hasattr(cls, "plot"), cls


def test_html_views_keep_pandas_unloaded():
    code = ("import sys; from sflp.core.game import GameConfig; from sflp.solving.solver import solve; "
            "from sflp.views.notebook import solution_html; "
            "s = solve(GameConfig(stack=10)); solution_html(s); str(s); "
            "print([m for m in ('pandas', 'matplotlib') if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


# ---------------------------------------------------------------- registration with IPython
# IPython itself is in no extra, and these tests do not need it: the registration is one call of
# IPython's documented ``HTMLFormatter.for_type_by_name(module, name, func)`` per view, which
# ``RecordingFormatter`` records, and IPython matches a class to it by ``cls.__module__`` and
# ``cls.__name__``, which the first test checks for every class.  (A test against IPython's real
# formatter was here; it always skipped, since neither CI nor the test extra installs IPython, and
# a notebook extra only for it would add IPython and its dependencies to every CI pass.)


@pytest.mark.parametrize(("module", "class_name", "view"), sflp._NOTEBOOK_VIEWS)
def test_every_registered_class_is_defined_where_the_table_says(module, class_name, view):
    # IPython matches a by-name registration against cls.__module__ and cls.__name__: a class that
    # moved (or is only re-exported from ``module``) would silently lose its notebook display
    cls = getattr(importlib.import_module(module), class_name, None)
    assert isinstance(cls, type), f"sflp._NOTEBOOK_VIEWS names {module}.{class_name}, which does not exist"
    assert (cls.__module__, cls.__qualname__) == (module, class_name), (
        f"{class_name} is defined in {cls.__module__}: update sflp._NOTEBOOK_VIEWS")
    assert callable(getattr(notebook, view, None)), f"sflp.views.notebook has no {view}"


class RecordingFormatter:
    """Stands in for IPython's HTMLFormatter: records for_type_by_name calls."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str, object]] = []

    def for_type_by_name(self, module, name, func):
        self.calls.append((module, name, func))


def fake_ipython(formatter):
    """A stand-in for the ``IPython`` module whose get_ipython() returns a shell using ``formatter``."""
    shell = SimpleNamespace(display_formatter=SimpleNamespace(formatters={"text/html": formatter}))
    return SimpleNamespace(get_ipython=lambda: shell)


def test_import_sflp_registers_the_views_in_a_running_shell(monkeypatch, solution, thresholds):
    formatter = RecordingFormatter()
    monkeypatch.setitem(sys.modules, "IPython", fake_ipython(formatter))
    sflp._register_notebook_views()
    assert [(m, c) for m, c, _ in formatter.calls] == [(m, c) for m, c, _ in sflp._NOTEBOOK_VIEWS]
    views = {c: func for _, c, func in formatter.calls}
    assert views["Solution"](solution) == solution_html(solution)
    assert views["Thresholds"](thresholds) == thresholds_html(thresholds)
    r = parse_range("QQ+,AKs,A5s:0.5")
    assert views["Range"](r) == range_html(r)


def test_no_registration_without_a_running_shell(monkeypatch):
    monkeypatch.setitem(sys.modules, "IPython", SimpleNamespace(get_ipython=lambda: None))
    sflp._register_notebook_views()  # no shell: nothing to touch, no error
    monkeypatch.delitem(sys.modules, "IPython")
    sflp._register_notebook_views()


def test_import_sflp_stays_light_in_a_shell():
    # registration is by name: importing sflp inside a shell imports neither the classes' modules
    # nor the views, and the views are imported on first display
    code = (
        "import sys, types\n"
        "calls = []\n"
        "html = types.SimpleNamespace(for_type_by_name=lambda m, c, f: calls.append((m, c, f)))\n"
        "shell = types.SimpleNamespace(display_formatter=types.SimpleNamespace(formatters={'text/html': html}))\n"
        "sys.modules['IPython'] = types.SimpleNamespace(get_ipython=lambda: shell)\n"
        "import sflp\n"
        "loaded = [m for m in ('numpy', 'sflp.core.game', 'sflp.core.ranges', 'sflp.solving.thresholds',"
        " 'sflp.views.notebook') if m in sys.modules]\n"
        "print(len(calls), loaded)\n"
        "{c: f for _, c, f in calls}['Range'](sflp.parse_range('AA'))\n"
        "print('sflp.views.notebook' in sys.modules, 'pandas' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split("\n")[:2] == [f"{len(sflp._NOTEBOOK_VIEWS)} []", "True False"]


def test_a_threshold_grids_gap_cells_are_hatched_in_a_notebook():
    """Issue 42: the notebook's threshold grid hatches the gap cells (†, by the scale's rule on the
    certified intervals) and no other cell, as every medium does."""
    from sflp.charts.scale import mark
    from sflp.core.cards import CLASS_NAMES
    from sflp.solving.thresholds import compute_thresholds
    from sflp.views.notebook import thresholds_html

    t = compute_thresholds(GameConfig(stack=1), low=1, high=10)
    html = thresholds_html(t)
    cells = re.findall(r'<td[^>]*style="([^"]*)"[^>]*>(.*?)</td>', html)
    assert len(cells) == 2 * 169
    for k, (style, body) in enumerate(cells):
        player, hand = ("sb", "bb")[k // 169], CLASS_NAMES[k % 169]
        assert body.startswith(hand)
        gap = mark(t.get(player, hand).intervals, 1.0) == "†"
        assert ("repeating-linear-gradient" in style) == gap, (player, hand)
    assert any("repeating-linear-gradient" in style for style, _ in cells)
