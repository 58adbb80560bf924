"""The output layer: every result as a JSON-ready dict and as readable text, in one place per type.

The rule
--------
Each result type has exactly one ``to_dict`` and one text formatter:

* **next to the type** when its module can hold the text: :class:`~sflp.study.verify.VerifyReport`
  (``to_dict()``, :func:`sflp.study.verify.format_text`), :class:`~sflp.study.simulate.SimulationReport`
  (:func:`sflp.study.simulate.format_text`), :class:`~sflp.approx.common.ApproxResult`
  (:func:`sflp.approx.format_text`), the SC numbers (:func:`sflp.study.sc.format_text`), and the
  ``to_dict()`` of :class:`~sflp.core.equity.EquityResult`, :class:`~sflp.study.exploit.ExploitReport`,
  the rank rows and the compare rows; the text of ``sflp compare``
  (:func:`sflp.report.compare.format_compare`), which speaks in the comparison's labels and
  ranking, modules above this one;
* **here** for the rest: the results of the numpy-only core, whose modules know nothing about
  terminals (:class:`~sflp.core.game.Solution`: :func:`solution_dict`, :func:`format_solution`;
  :class:`~sflp.solving.thresholds.Thresholds`: :func:`thresholds_dict`, :func:`format_thresholds`),
  and the texts that need the charts' colours and labels (:mod:`sflp.report.colors`,
  :mod:`sflp.report.scale`), which a study module may not import: an exploit
  (:func:`format_exploit`, its range grids shaded like ``sflp solve``'s);
  the text of an equity query (:func:`format_equity`) and of the hand ranking
  (:func:`format_rank`), the JSON envelopes that wrap several results (:func:`sc_dict`,
  :func:`rank_dict`, :func:`compare_dict`, :func:`approx_bench_rows`), and the summaries of the
  commands that write files (:func:`chart_summary_dict`, :func:`format_chart_summary`,
  :func:`exploit_sweep_dict`, :func:`format_exploit_sweep`,
  :func:`format_approx_bench`, :func:`format_table_build`, :func:`format_written`).

:func:`json_text` is the one JSON sanitiser: strict JSON (``NaN``/``inf`` become ``null``),
fractions as ``"p/q"``, arrays as lists, paths as strings.  The CLI only parses arguments, calls
the library and prints what this layer (or the type's own module) formats; the JSON keys and the
text are part of the interface (the CLI tests pin them).

Text for a terminal takes a ``width`` (the CLI passes the terminal's columns, else ``$COLUMNS``,
else 80; None: no limit known) and no line passes it: the 13x13 grids of numbers take 5-column
cells below their 92-column wide form (:func:`signed_cells`), grids stand side by side only where
both fit (:func:`beside`), ranges and prose wrap (:func:`wrap_items`), exact fractions come last.
A number that rounds to zero prints without a sign (:func:`sflp.checks.number_text`).

This module sits below :mod:`sflp.report` and :mod:`sflp.cli` and above the modules whose results
it formats (it imports them, and numpy, lazily, by need: importing it costs nothing).

>>> json_text({"x": float("nan"), "p": __import__("fractions").Fraction(1, 3), "t": (1, 2.5)})
'{"x": null, "p": "1/3", "t": [1, 2.5]}'
"""

from __future__ import annotations

import json
import math
import re
from fractions import Fraction
from pathlib import Path

from sflp.checks import number_text

# ------------------------------------------------------------------ text a user gave us

NOT_TEXT = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")
"""Characters that are not text in any medium of a chart set: control characters (C0 but tab,
line feed and carriage return; DEL; C1), lone surrogates (what Python makes of a file name that
is not UTF-8) and the non-characters U+FFFE / U+FFFF.  UTF-8 cannot encode a lone surrogate, and
XML 1.0 (the workbook, SVG) cannot hold a control character."""


def clean_text(text: object) -> str:
    r"""``text`` (made a ``str``) with every :data:`NOT_TEXT` character replaced by U+FFFD: the one
    cleaning of user text (a title, a strategy's name or file name, an About key or value) on its
    way into a chart set, used by every medium -- the workbook's text cells, ``chart.html``, the
    drawn pictures and ``chart.pdf`` (whose text items are one line each, so they also turn tab
    and line breaks into spaces).  Text that is clean comes back as it is.

    >>> clean_text("\udcff\udcfe.csv") == "\ufffd\ufffd.csv", clean_text("a\x01b\x85") == "a\ufffdb\ufffd"
    (True, True)
    >>> clean_text("=1+2\tok\n")
    '=1+2\tok\n'
    """
    text = str(text)
    return NOT_TEXT.sub("\ufffd", text) if NOT_TEXT.search(text) else text


# ------------------------------------------------------------------ JSON


def json_ready(obj):
    """``obj`` as plain JSON data: NaN / inf -> None, Fraction -> ``"p/q"``, arrays and tuples ->
    lists, paths -> str (recursively; dict keys are kept)."""
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, dict):
        return {k: json_ready(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [json_ready(v) for v in obj]
    if obj is None or isinstance(obj, (str, int)):
        return obj
    if isinstance(obj, Fraction):
        return f"{obj.numerator}/{obj.denominator}"
    if hasattr(obj, "tolist"):
        return json_ready(obj.tolist())
    if isinstance(obj, Path):
        return str(obj)
    raise TypeError(f"not JSON serialisable: {type(obj).__name__}")


def json_text(obj, **dumps_options) -> str:
    """``obj`` (see :func:`json_ready`) as strict JSON text; ``dumps_options`` go to :func:`json.dumps`."""
    return json.dumps(json_ready(obj), allow_nan=False, **dumps_options)


# ------------------------------------------------------------------ 13x13 grids in a terminal


def frequency_grid(values, color: bool, player: str = "sb") -> str:
    """13x13 grid of frequencies (class-id order) with class names under rank headers (``A K Q
    ... 2`` across and down: pairs on the diagonal, suited above it).  In colour each cell is
    shaded like every other medium's range grid, white (never) to the player's colour (always),
    mixed hands marked ``*``; in plain text a never-played hand is ``.``.  66 columns wide."""
    from sflp.core.cards import CLASS_NAMES, GRID_RANKS
    from sflp.report.colors import frequency_colour

    lines = ["  " + " ".join(f"{r:<4}" for r in GRID_RANKS).rstrip()]
    for row in range(13):
        cells = []
        for col in range(13):
            k = row * 13 + col
            v = float(values[k])
            name = CLASS_NAMES[k]
            mixed = 1e-9 < v < 1 - 1e-9
            if color:
                cells.append(ansi(frequency_colour(v, player), f"{name[:3]:<3}{'*' if mixed else ' '}"))
            elif mixed:
                cells.append(f"{name[:3]:<3}*")
            else:
                cells.append(f"{name:<4}" if v >= 1 - 1e-9 else f"{'.':<4}")
        lines.append(f"{GRID_RANKS[row]} " + " ".join(cells).rstrip())
    colour = {"sb": "green", "bb": "blue"}[player]
    legend = (f"  (white: never, {colour}: always, shaded*: mixed)" if color
              else "  (name: always, *: mixed, .: never)")
    return "\n".join(lines) + "\n" + legend


_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def visible_width(line: str) -> int:
    """The columns a line takes on a terminal (ANSI colour codes take none)."""
    return len(_ANSI.sub("", line))


def beside(blocks: list[str], width: int | None, gap: int = 4) -> str | None:
    """Text blocks next to each other, line by line, when they fit in ``width`` columns (None:
    not on a terminal, or too narrow: the caller stacks them).

    >>> print(beside(["a" + chr(10) + "bb", "ccc"], 80, gap=2))
    a   ccc
    bb
    >>> beside(["a" * 50, "b" * 50], 99) is None
    True
    """
    if not width:
        return None
    rows = [block.split("\n") for block in blocks]
    widths = [max(visible_width(line) for line in lines) for lines in rows]
    if sum(widths) + gap * (len(blocks) - 1) > width:
        return None
    out = []
    for k in range(max(len(lines) for lines in rows)):
        parts = [(lines[k] if k < len(lines) else "") for lines in rows]
        padded = [part + " " * (w - visible_width(part)) for part, w in zip(parts[:-1], widths)]
        out.append((" " * gap).join(padded + parts[-1:]).rstrip())
    return "\n".join(out)


def ansi(background: str, text: str) -> str:
    """``text`` on a 24-bit colour background (hex ``RRGGBB``) with black or white ink."""
    from sflp.report.colors import text_colour

    bg = tuple(int(background[i:i + 2], 16) for i in (0, 2, 4))
    fg = (0, 0, 0) if text_colour(background) == "000000" else (255, 255, 255)
    return f"\x1b[48;2;{bg[0]};{bg[1]};{bg[2]};38;2;{fg[0]};{fg[1]};{fg[2]}m{text}\x1b[0m"


def swatch_lines(head: str, swatches: list[tuple[str, str]], width: int | None) -> list[str]:
    """``head`` and coloured swatches (``(colour, label)``), broken to new lines (indented two
    spaces) so that no line passes ``width`` columns (None: one line)."""
    lines, line, used = [], head, len(head)
    for colour, label in swatches:
        piece = " " + ansi(colour, f" {label} ")
        size = len(label) + 3
        if width is not None and used + size > width and used > 2:
            lines.append(line)
            line, used = " ", 1
        line += piece
        used += size
    return [*lines, line]


def _scale_of(thresholds):
    from sflp.report.scale import chart_scale

    return chart_scale(thresholds.high, thresholds.low)


def threshold_grid(thresholds, player: str, color: bool) -> str:
    """The threshold chart as text, 80 columns: rank headers, each cell the hand above its label
    (:mod:`sflp.report.scale`: ``7.1``, ``25+``, ``-``, the mark right after the number: ``*``
    slivers, ``†`` a fold gap of at least half a big blind, see the footnotes), coloured like
    every other medium on a terminal (the scale's band colours and ink).  Cells are 5 columns;
    when a label is longer (a fractional top with a mark, ``12.5+†``) the cells widen to it and
    the grid is printed in two halves (columns A to 8, then 7 to 2), so it still fits 80 columns."""
    from sflp.core.cards import CLASS_NAMES, GRID_RANKS

    scale = _scale_of(thresholds)
    hands = [[thresholds.get(player, CLASS_NAMES[row * 13 + col]) for col in range(13)] for row in range(13)]
    texts = [[scale.label(h.max_stack, h.capped, h.intervals, h.exact_label).text for h in row] for row in hands]
    cw = max(5, *(len(t) for row in texts for t in row))
    halves = [range(13)] if 3 + 13 * (cw + 1) - 1 <= GRID_WIDTH else [range(7), range(7, 13)]
    lines = []
    for cols in halves:
        if len(halves) > 1 and lines:
            lines.append("")
        lines.append("   " + " ".join(f"{GRID_RANKS[c]:^{cw}}" for c in cols))
        for row in range(13):
            names, labels = [], []
            for col in cols:
                h = hands[row][col]
                name, label = f"{h.hand:^{cw}}", f"{texts[row][col]:^{cw}}"
                if color:
                    bg = scale.colour(h.max_stack, h.capped)
                    name, label = ansi(bg, name), ansi(bg, label)
                names.append(name)
                labels.append(label)
            lines.append(f"{GRID_RANKS[row]:>2} " + " ".join(names))
            lines.append("   " + " ".join(labels))
    return "\n".join(lines)


def threshold_notes(thresholds, player: str, width: int | None = None) -> list[str]:
    """The footnotes under one threshold grid (:func:`sflp.report.scale.footnotes`: ``† 63s:
    push ≤2.3 and 5.1–7.1``, then the ``*`` hands), each wrapped to ``width``."""
    import textwrap

    from sflp.core.cards import CLASS_NAMES
    from sflp.report.scale import footnotes

    scale = _scale_of(thresholds)
    notes = footnotes([thresholds.get(player, n) for n in CLASS_NAMES], scale.high, scale.low)
    if width is None:
        return notes
    return [part for note in notes for part in textwrap.wrap(note, width, subsequent_indent="    ",
                                                             break_on_hyphens=False)]


def thresholds_legend(thresholds) -> str:
    """What a threshold cell's text means (the plain text's only key: no colours there)."""
    from sflp.report.scale import FOLD_GAP_BB, MARK_GAP, MARK_SEVERAL, top_text

    return (f"({top_text(thresholds.high)}+ = up to the top, - = never; {MARK_GAP} = folded on a stretch of "
            f"{FOLD_GAP_BB:g} bb or more below it, {MARK_SEVERAL} = on narrower ones: see the notes under the grid)")


def thresholds_dict(thresholds) -> dict:
    """The JSON object of :class:`~sflp.solving.thresholds.Thresholds`: ``Thresholds.to_dict()``."""
    return thresholds.to_dict()


GRID_WIDTH = 80
"""Columns of a threshold grid (:func:`threshold_grid`): 3 + 13 cells of 5, one space apart."""


def threshold_block(thresholds, player: str, title: str, color: bool) -> str:
    """One player's threshold grid under its title, with its footnotes (wrapped to the grid)."""
    notes = threshold_notes(thresholds, player, GRID_WIDTH)
    return "\n".join([title, threshold_grid(thresholds, player, color), *notes])


def format_thresholds(thresholds, color: bool = False, width: int | None = None) -> str:
    """Both players' threshold charts as text (see :func:`threshold_grid`), with their titles,
    the key of the marks, the band legend in colour, and each grid's footnotes under it; side by
    side where ``width`` holds both."""
    import textwrap

    lines = [f"{len(thresholds.breakpoints)} exact breakpoints"]
    legend = thresholds_legend(thresholds)
    lines += textwrap.wrap(legend, width, break_on_hyphens=False) if width is not None else [legend]
    if color:
        lines += swatch_lines("colour: played up to (bb)", _scale_of(thresholds).legend(), width)
    blocks = [threshold_block(thresholds, "sb", "SB push up to (bb)", color),
              threshold_block(thresholds, "bb", "BB call up to (bb)", color)]
    side = beside(blocks, width)
    if side is not None:
        return "\n".join([*lines, "", side])
    return "\n".join([*lines, "", blocks[0], "", blocks[1]])


# ------------------------------------------------------------------ equity


def format_equity(result) -> str:
    """The text of :func:`sflp.core.equity.equity`: pairs, outcomes, wins/ties/losses, equity."""
    c = result.counts
    fmt = (lambda v: f"{v:,}") if isinstance(c.wins, int) else (lambda v: f"{v:,.2f}")
    lines = [f"{result.hand1} vs {result.hand2}: {fmt(c.pairs)} disjoint combo pair(s), {fmt(c.boards)} outcomes"]
    width = len(fmt(c.boards))
    for label, v in (("wins", c.wins), ("ties", c.ties), ("losses", c.losses)):
        lines.append(f"  {label:<7}{fmt(v):>{width}}  ({100 * v / c.boards:6.3f}%)")
    exact = c.equity_exact
    tail = f"  = {exact.numerator}/{exact.denominator}" if exact is not None else ""
    lines.append(f"  equity {c.equity:.6f}{tail}")
    return "\n".join(lines)


def format_table_build(path, sha256: str, seconds: float) -> str:
    """The text of ``sflp equity build``: the file written, its size, time and checksum."""
    return f"wrote {path} ({Path(path).stat().st_size:,} bytes) in {seconds:.1f} s\nsha256 {sha256}"


def rank_dict(rows) -> dict:
    """The JSON object of :func:`sflp.core.equity.hand_ranking`."""
    return {"rows": [r.to_dict() for r in rows]}


def format_rank(rows) -> str:
    """The hand ranking as a table: rank, hand, equity, cumulative share of combos."""
    lines = [
        "Hands by exact all-in equity against a random hand (card removal; ties count half)",
        f"{'rank':>4}  {'hand':<4} {'equity':>9}  {'cum %':>7}",
    ]
    for r in rows:
        lines.append(f"{r.rank:>4}  {r.hand:<4} {100 * float(r.equity):>8.4f}%  {r.cumulative_pct:>6.2f}%")
    return "\n".join(lines)


# ------------------------------------------------------------------ one solution


def class_arrays(solution):
    """``(sb_freq, bb_freq, sb_ev, bb_ev)`` per class (169 each), whatever the solution's level."""
    import numpy as np

    from sflp.core.cards import COMBO_CLASS, N_CLASSES

    if solution.level == "class":
        return solution.sb_strategy, solution.bb_strategy, solution.sb_ev, solution.bb_ev
    sb, bb = solution.class_strategies()

    def mean(values):
        values = np.asarray(values, dtype=np.float64)
        ok = ~np.isnan(values)
        total = np.bincount(COMBO_CLASS, weights=np.where(ok, values, 0.0), minlength=N_CLASSES)
        count = np.bincount(COMBO_CLASS, weights=ok.astype(np.float64), minlength=N_CLASSES)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(count > 0, total / np.where(count > 0, count, 1), np.nan)

    return sb, bb, mean(solution.sb_ev), mean(solution.bb_ev)


def solution_dict(solution) -> dict:
    """The JSON object of one solution (the shape documented in the README): ``Solution.to_dict()``."""
    return solution.to_dict()


def range_text(weights) -> str:
    """A class strategy as people write it: the hands always played in range notation, each
    mixed hand in the bracket notation of its percentage, rounded to 0.1 (``[71.1]43s[/71.1]``:
    43s played 71.1 % of the time, the weighted-range notation of Equilab-style range tools);
    :func:`sflp.parse_range` reads it back.  The exact weights are printed at the end of the text.

    >>> import numpy as np
    >>> from sflp.core.cards import CLASS_INDEX
    >>> w = np.zeros(169); w[CLASS_INDEX["AA"]] = w[CLASS_INDEX["KK"]] = 1; w[CLASS_INDEX["43s"]] = 0.7107477
    >>> range_text(w)
    'KK+,[71.1]43s[/71.1]'
    """
    import numpy as np

    from sflp.core.cards import CLASS_NAMES
    from sflp.core.ranges import Range

    weights = np.asarray(weights, dtype=np.float64)
    pure = str(Range.from_class_weights(np.where(weights >= 1.0, 1.0, 0.0))) if (weights >= 1.0).any() else ""
    mixed = [f"[{pct}]{CLASS_NAMES[k]}[/{pct}]" for k in np.flatnonzero((weights > 0) & (weights < 1))
             for pct in [f"{100 * weights[k]:.1f}".removesuffix(".0")]]
    return ",".join([pure] * bool(pure) + mixed) or "none"


BRACKET_NOTE = "[p]hand[/p]: the hand played p % of the time (weighted-range notation)"
"""The line that explains a mixed hand of :func:`range_text` wherever one is printed."""


def wrap_items(head: str, items: list[str], width: int | None, sep: str = ",", indent: str = "  ") -> list[str]:
    """``head`` followed by ``items`` joined with ``sep``, broken after a separator so that no line
    passes ``width`` columns (None: one line); continuation lines start with ``indent``.  A range
    broken this way still reads back: :func:`sflp.parse_range` ignores the spaces and line ends.

    >>> wrap_items("SB push range: ", ["22+", "A2+", "K2+", "Q2s+"], 26)
    ['SB push range: 22+,A2+,', '  K2+,Q2s+']
    >>> wrap_items("x: ", ["a", "b"], None)
    ['x: a,b']
    """
    if width is None:
        return [head + sep.join(items)]
    lines, line = [], head
    for k, item in enumerate(items):
        piece = item + (sep if k < len(items) - 1 else "")
        if len(line) + len(piece.rstrip()) > width and line.strip() and line != head:
            lines.append(line.rstrip())
            line = indent
        line += piece
    lines.append(line.rstrip())
    return lines


def fraction_lines(label: str, value: Fraction, width: int | None, indent: str = "  ") -> list[str]:
    """``label p/q`` on one line when it fits ``width``, else the numerator and the denominator
    on lines of their own (an exact fraction is never cut in the middle of a number).

    >>> fraction_lines("SB value", Fraction(-1, 3), 80)
    ['  SB value = -1/3']
    >>> fraction_lines("SB value", Fraction(-12345, 677), 16)
    ['  SB value =', '    -12345', '    / 677']
    """
    line = f"{indent}{label} = {value.numerator}/{value.denominator}"
    if width is None or len(line) <= width:
        return [line]
    return [f"{indent}{label} =", f"{indent}  {value.numerator}", f"{indent}  / {value.denominator}"]


def format_solution(solution, color: bool = False, width: int | None = None) -> str:
    """One solution as text: value, ranges, 13x13 grids, mixed hands, EV margins, and at the end
    the exact figures (the value and every mixed frequency as fractions).

    ``width``: the columns of the terminal (the CLI passes ``$COLUMNS`` or 80 when stdout is not a
    terminal).  No line passes it: the SB and BB grids stand side by side where they fit, the
    ranges wrap after a comma, the EV-margin grids take 5-column cells below 92 columns.  None:
    no limit known (the grids one under the other, the wide cells)."""
    c = solution.config
    sb, bb = solution.class_strategies()
    game = f"SB {c.small_blind:g}, BB {c.big_blind:g}, ante {c.ante:g}, BB ante {c.bb_ante:g}"
    head = f"Heads-up push/fold, stack {c.stack:g} bb ({game}) - {solution.level} level"
    if width is not None and len(head) > width:
        head = f"Heads-up push/fold, stack {c.stack:g} bb - {solution.level} level\nGame: {game}"
    lines = [
        head,
        f"Value (SB's EV per hand): {number_text(solution.value, '+.9f')} bb"
        + (" (exact fraction at the end)" if solution.value_exact is not None else ""),
        f"SB pushes {solution.push_pct:.2f}% of hands, BB calls {solution.call_pct:.2f}%",
        f"Exploitability (best responses, no solver): {solution.exploitability:.3g} bb",
        "",
    ]
    ranges = {who: range_text(weights) for who, weights in (("sb", sb), ("bb", bb))}
    range_lines = (wrap_items("SB push range: ", ranges["sb"].split(","), width)
                   + wrap_items("BB call range: ", ranges["bb"].split(","), width))
    note = [f"  ({BRACKET_NOTE})"] if "[" in ranges["sb"] + ranges["bb"] else []
    grids = beside([f"SB push\n{frequency_grid(sb, color, 'sb')}", f"BB call\n{frequency_grid(bb, color, 'bb')}"],
                   width)
    if grids is not None:  # a wide terminal: both ranges, then the two grids side by side
        lines += [*range_lines, *note, "", grids]
    else:
        lines += [*wrap_items("SB push range: ", ranges["sb"].split(","), width),
                  frequency_grid(sb, color, "sb"), "",
                  *wrap_items("BB call range: ", ranges["bb"].split(","), width),
                  frequency_grid(bb, color, "bb"), *note]
    mixed = solution.mixed_hands()
    parts = [f"{who.upper()} {h} {100 * v:.4f}%" for who in ("sb", "bb") for h, v in mixed[who].items()]
    lines += ["", *wrap_items("Mixed hands: ", parts or ["none"], width, sep="; ")]
    lines += ["", *ev_margin_grids(solution, width, color)]
    if solution.value_exact is not None:
        lines += ["", "Exact (certified equilibrium, exploitability exactly 0):",
                  *fraction_lines("value (SB's EV per hand, bb)", solution.value_exact, width)]
        if solution.sb_exact is not None and solution.level == "class":
            from sflp.core.cards import CLASS_NAMES

            for who, exact in (("SB", solution.sb_exact), ("BB", solution.bb_exact)):
                verb = "push" if who == "SB" else "call"
                for name, v in zip(CLASS_NAMES, exact):
                    if 0 < v < 1:
                        lines += fraction_lines(f"{who} {verb}es {name}" if verb == "push"
                                                else f"{who} calls {name}", v, width)
    return "\n".join(lines)


EV_TEXT_SCALE = 1.0
"""bb at which a terminal's EV-margin cell reaches its full colour (red below 0, blue above)."""

WIDE_CELL = 6
"""Columns of a numeric grid cell in the wide form (``+10.34``): a 13x13 grid takes 92 columns."""

COMPACT_CELL = 5
"""Columns of a numeric grid cell in the compact form (``+3.48``, ``+48.1``): 79 columns."""


def grid_columns(cell: int) -> int:
    """Columns of a 13x13 grid of ``cell``-wide cells under rank headers (the row's rank and a
    space, then 13 cells one space apart).

    >>> grid_columns(WIDE_CELL), grid_columns(COMPACT_CELL)
    (92, 79)
    """
    return 2 + 13 * cell + 12


def signed_spec(values, width: int | None) -> tuple[str, int]:
    """The format and cell width of a grid of signed numbers (bb): two decimals in 6 columns in
    the wide form; in the compact form (``width`` below the wide grid's 92 columns) 5 columns
    and as many decimals as let the largest fit (``+3.48``, ``+48.1``, ``+137``).

    >>> signed_spec([1.5, float("nan")], None), signed_spec([-48.12], 80), signed_spec([137.0], 80)
    (('+.2f', 6), ('+.1f', 5), ('+.0f', 5))
    """
    top = max((abs(float(v)) for v in values if math.isfinite(float(v))), default=0.0)
    if width is None or width >= grid_columns(WIDE_CELL):
        return "+.2f", WIDE_CELL
    return ("+.2f" if top < 9.995 else "+.1f" if top < 99.95 else "+.0f"), COMPACT_CELL


def unit_exponent(values, width: int | None) -> int:
    """0, or in the compact form (``width`` below 92 columns) the power of ten ``k`` that a grid
    whose largest |value| would not fit 5 columns (9999.5 bb and more: a stack of 1e6 bb) is
    printed in: its cells are then the values in units of ``1e+k`` bb, stated in its title
    (:func:`unit_text`).

    >>> unit_exponent([3.5, -137.0], 80), unit_exponent([48213.0, -7.0], 80), unit_exponent([48213.0], None)
    (0, 4, 0)
    """
    top = max((abs(float(v)) for v in values if math.isfinite(float(v))), default=0.0)
    if width is None or width >= grid_columns(WIDE_CELL) or top < 9999.5:
        return 0
    return math.floor(math.log10(top))


def unit_text(exponent: int) -> str:
    """``bb``, or ``1e+27 bb`` for a grid printed in units of 1e+27 bb (:func:`unit_exponent`)."""
    return "bb" if exponent == 0 else f"1e+{exponent} bb"


def signed_cells(values, width: int | None) -> tuple[list[str], int]:
    """Texts and cell width of a grid of signed numbers (:func:`signed_spec`): non-finite values
    are ``.``; a value that rounds to zero has no sign (:func:`sflp.checks.number_text`); in the
    compact form a grid of values of 9999.5 bb and more is printed in units of ``1e+k`` bb
    (:func:`unit_exponent`); a text wider than the cell (a value of 1e25 bb in the wide form)
    widens the cell.

    >>> signed_cells([1.234, -0.001, float("nan")], None)[0], signed_cells([48.12, -3.0], 80)
    (['+1.23', '0.00', '.'], (['+48.1', '-3.0'], 5))
    >>> signed_cells([-1.8e27, 2e25, 0.0], 80)  # in units of 1e+27 bb
    (['-1.80', '+0.02', '0.00'], 5)
    """
    k = unit_exponent(values, width)
    if k:
        values = [float(v) / 10 ** k for v in values]
    spec, cell = signed_spec(values, width)
    texts = ["." if not math.isfinite(float(v)) else number_text(v, spec, 2) for v in values]
    return texts, max([cell, *(len(t) for t in texts)])


def ev_margin_grids(solution, width: int | None = None, color: bool = False) -> list[str]:
    """Both players' per-hand EV margins as 13x13 grids of signed numbers (bb; ``.`` where BB never
    faces a shove; see :func:`signed_cells`); in colour shaded on the diverging EV scale, full at
    +-:data:`EV_TEXT_SCALE` bb.  Side by side where ``width`` holds both."""
    if solution.level == "class":
        sb_ev, bb_ev = solution.sb_ev, solution.bb_ev
    else:
        _, _, sb_ev, bb_ev = class_arrays(solution)
    sb_grid, bb_grid = (signed_grid(values, width, color) for values in (sb_ev, bb_ev))
    sb_unit, bb_unit = (unit_text(unit_exponent(values, width)) for values in (sb_ev, bb_ev))
    legend = [ev_legend()] if color else []
    side = beside([f"SB EV margin: EV(shove) - EV(fold), {sb_unit}\n" + sb_grid,
                   f"BB EV margin: EV(call) - EV(fold), {bb_unit} ('.': never faces a shove)\n" + bb_grid], width)
    if side is not None:
        return [*legend, side]
    return [
        *legend,
        f"SB EV margin, EV(shove) - EV(fold), {sb_unit} per hand held:",
        sb_grid,
        "",
        f"BB EV margin, EV(call) - EV(fold), {bb_unit} per hand facing a shove:",
        bb_grid,
        "  ('.': a hand SB never shoves into)",
    ]


def ev_legend() -> str:
    """The coloured key of the EV scale (red below 0, blue above, full at :data:`EV_TEXT_SCALE`)."""
    from sflp.report.colors import ev_colour

    return (f"colour: red below 0, blue above, full at {EV_TEXT_SCALE:g} bb "
            + " ".join(ansi(ev_colour(v, EV_TEXT_SCALE), f" {v:+g} " if v else " 0 ") for v in (-1, -0.5, 0, 0.5, 1)))


def signed_grid(values, width: int | None, color: bool) -> str:
    """A 13x13 grid of signed bb numbers under rank headers (:func:`signed_cells`), in colour
    shaded on the diverging EV scale."""
    from sflp.core.cards import grid_text
    from sflp.report.colors import ev_colour

    texts, cell = signed_cells(values, width)
    if color:
        texts = [ansi(ev_colour(float(v), EV_TEXT_SCALE), f"{t:>{cell}}") if math.isfinite(float(v)) else t
                 for v, t in zip(values, texts)]
    return grid_text(texts, width=cell, ranks=True)


def class_weights_of(weights):
    """169 class weights from 169 class or 1,326 combo weights (a class's combo-weighted mean)."""
    import numpy as np

    from sflp.core.cards import CLASS_SIZES, COMBO_CLASS, N_CLASSES

    weights = np.asarray(weights, dtype=np.float64)
    if len(weights) == N_CLASSES:
        return weights
    return np.bincount(COMBO_CLASS, weights=weights, minlength=N_CLASSES) / CLASS_SIZES


def format_exploit(report, color: bool = False, width: int | None = None) -> str:
    """The text of :func:`sflp.study.exploit.exploit`: the locked player's range (which hands the
    locked ``'30%'`` holds, as range text and a grid), the hero's best response (range text and a
    grid shaded like ``sflp solve``'s), the values and the gain, the hero's EV margins as a
    13x13 grid (``=`` an exact tie, ``.`` unreached), the ties, and at the end the exact value.

    ``width`` as in :func:`format_solution`: no line passes it (None: no limit)."""
    import numpy as np

    from sflp.core.cards import CLASS_SIZES
    from sflp.core.ranges import Range

    c = report.config
    hero, locked = report.hero.upper(), report.locked.upper()
    verb, locked_verb = ("push", "call") if report.hero == "sb" else ("call", "push")
    to_range = Range.from_class_weights if report.level == "class" else Range.from_combo_weights
    locked_weights = np.asarray(report.locked_strategy, dtype=np.float64)
    locked_class = class_weights_of(locked_weights)
    locked_pct = float(100 * (CLASS_SIZES @ locked_class) / CLASS_SIZES.sum())
    locked_text = str(to_range(locked_weights)) or "none"
    hero_text = str(to_range(report.strategy)) or "none"
    lines = [
        f"Exploit: {locked} locked to {report.source!r}, stack {c.stack:g} bb - {report.level} level",
        f"Game: SB {c.small_blind:g}, BB {c.big_blind:g}, ante {c.ante:g}, BB ante {c.bb_ante:g}",
        "",
        *wrap_items(f"{locked}'s locked {locked_verb} range ({locked_pct:.2f}% of hands): ",
                    locked_text.split(","), width),
        *wrap_items(f"{hero}'s maximally exploitative {verb} range ({report.hero_pct:.2f}% of hands): ",
                    hero_text.split(","), width),
    ]
    if ":" in locked_text:
        lines.append("  (hand:w = the hand held with weight w)")
    verbs = {"push": "pushes", "call": "calls"}
    locked_title = f"{locked} {verbs[locked_verb]} (locked) at {c.stack:g} bb"
    hero_title = f"{hero} {verbs[verb]} (best response) at {c.stack:g} bb"
    locked_grid = frequency_grid(locked_class, color, report.locked)
    hero_grid = frequency_grid(class_weights_of(report.strategy), color, report.hero)
    side = beside([f"{locked_title}\n{locked_grid}", f"{hero_title}\n{hero_grid}"], width)
    lines += ["", side] if side is not None else ["", locked_title, locked_grid, "", hero_title, hero_grid]
    lines += [
        "",
        f"Value (SB's EV per hand): {number_text(report.value, '+.9f')} bb (exact fraction at the end)",
        f"{hero} playing Nash against this {locked} instead: SB's value {number_text(report.nash_value, '+.9f')} bb",
        f"  (the equilibrium value is {number_text(report.game_value, '+.9f')} bb)",
        f"Gain of exploiting over Nash: {number_text(report.gain, '.9f')} bb/hand = "
        f"{number_text(report.gain_mbb, '.4f')} mbb/hand",
    ]
    if report.level == "class":
        values = [float("nan") if m is None else float(m) for m in report.margins_exact]
        k = unit_exponent(values, width)
        spec, cell = signed_spec([v / 10 ** k for v in values], width)
        texts = [("." if m is None else "=" + number_text(0.0, spec) if m == 0
                  else number_text(float(m) / 10 ** k, spec, 2)) for m in report.margins_exact]
        cell = max([cell, *map(len, texts)])
        if color:
            from sflp.report.colors import ev_colour

            texts = [t if m is None else ansi(ev_colour(float(m), EV_TEXT_SCALE), f"{t:>{cell}}")
                     for m, t in zip(report.margins_exact, texts)]
        from sflp.core.cards import grid_text

        held = " held" if report.hero == "sb" else " facing a shove"
        lines += ["", f"{hero} EV margin, EV({verb}) - EV(fold), {unit_text(k)} per hand{held}",
                  *([ev_legend()] if color else []),
                  grid_text(texts, width=cell, ranks=True),
                  "  ('=': exact tie, '.': unreached)"]
    lines += wrap_items("Ties (margin exactly 0; folded by rule, either action is best): ",
                        list(report.ties) or ["none"], width, sep=", ")
    if report.near_ties:
        from sflp.study.exploit import NEAR_TIE

        shown = list(report.near_ties[:12]) + (["..."] if len(report.near_ties) > 12 else [])
        lines += wrap_items(f"Near ties (|margin| < {NEAR_TIE:g} bb): ", shown, width, sep=", ")
    if report.unreached:
        lines.append(f"Unreached (SB never shoves into them; folded): {len(report.unreached)} hands")
    lines += ["", "Exact:", *fraction_lines("value (SB's EV per hand, bb)", report.value_exact, width)]
    return "\n".join(lines)


# ------------------------------------------------------------------ many stacks: chart sets, sweeps


def _set_head(out_dir, files, stacks, config) -> dict:
    """The keys every chart-set summary starts with: folder, files, stack range, blinds and antes."""
    return {
        "out_dir": str(out_dir),
        "files": files,
        "stacks": len(stacks),
        "low": stacks[0],
        "high": stacks[-1],
        **{k: v for k, v in config.as_dict().items() if k != "stack"},
    }


def chart_summary_dict(result) -> dict:
    """The JSON object of ``sflp chart``: where the set went, the stacks, the structure and the
    checks, from a :class:`sflp.report.chart.ChartResult`."""
    thresholds = result.thresholds
    return {
        **_set_head(result.out_dir, result.files, result.stacks, result.config),
        "lp_solves": result.lp_solves,
        "max_exploitability": result.max_exploitability,
        "certified": result.certified == len(result.stacks) if result.exact else None,
        "breakpoints": len(thresholds.breakpoints) if thresholds else 0,
        "seconds": result.seconds,
        "solve_seconds": result.solve_seconds,
        "note": result.note,
        "ranges": result.ranges,
        "every_stack": result.every_stack,
        "subsets": [dict(note) for note in result.subsets],
    }


def written_line(count: int, out_dir, width: int | None = None, tail: str = "") -> str:
    """``Wrote 14 files to DIR/`` (and ``tail``), the folder on a line of its own when the whole
    does not fit ``width``.

    >>> written_line(1, "out", 80, " in 0.2 s")
    'Wrote 1 file to out/ in 0.2 s'
    >>> print(written_line(14, "/a/long/folder", 20))
    Wrote 14 files to
      /a/long/folder/
    """
    line = f"Wrote {plural(count, 'file')} to {out_dir}/{tail}"
    if width is None or len(line) <= width:
        return line
    return f"Wrote {plural(count, 'file')}{tail} to\n  {out_dir}/"


def plural(count: int, noun: str) -> str:
    """``count`` and ``noun``, plural (an added ``s``) unless the count is 1.

    >>> plural(1, "LP solve"), plural(481, "stack"), plural(0, "file")
    ('1 LP solve', '481 stacks', '0 files')
    """
    return f"{count:,} {noun}" + ("" if count == 1 else "s")


def format_chart_summary(summary: dict, thresholds, color: bool = False, width: int | None = None) -> str:
    """The text of ``sflp chart``: the note, what was solved, the threshold grids, what was written.

    ``summary`` is the JSON object of the run (``stacks``, ``low``, ``high``, ``lp_solves``,
    ``max_exploitability``, ``note``, ``files``, ``out_dir``); ``thresholds`` the exact path or None.
    """
    lines = []
    if summary.get("note"):
        import textwrap

        note = f"Note: {summary['note']}"
        lines += [note] if width is None else textwrap.wrap(note, width, subsequent_indent="  ",
                                                            break_on_hyphens=False)
    low, high = summary["low"], summary["high"]
    solving = summary.get("solve_seconds", summary["seconds"])
    writing = max(0.0, summary["seconds"] - solving)
    solved = f"Solved {plural(summary['stacks'], 'stack')} from {low:g} to {high:g} bb in {solving:.1f} s"
    quality = f"({plural(summary['lp_solves'], 'LP solve')}, max exploitability {summary['max_exploitability']:.2g} bb)"
    # wider than the terminal (a 1-200 or 2-12.5 bb chart: 81 columns), the brackets go on a line of their own
    fits = width is None or len(solved) + 1 + len(quality) <= width
    lines += [f"{solved} {quality}"] if fits else [solved, f"  {quality}"]
    if thresholds is not None:
        lines.append(format_thresholds(thresholds, color, width))
    lines.append("\n" + written_line(len(summary["files"]), summary["out_dir"], width, f" in {writing:.1f} s"))
    lines += subset_lines(summary.get("every_stack"), summary.get("subsets") or [], width)
    return "\n".join(lines)


def subset_lines(every_stack: dict | None, subsets: list[dict], width: int | None = None) -> list[str]:
    r"""The summary's lines on where every stack is and which files show part of the stacks.

    >>> every = {"values": "values.csv", "frequencies": "ranges_segments.csv", "margins": "margins_supports.csv"}
    >>> subsets = [{"file": "chart.xlsx", "part": "Hand EV sheet", "shown": 54, "of": 2401,
    ...             "rest": "margins_supports.csv"}]
    >>> print("\n".join(subset_lines(every, subsets)))
    Every stack: values in values.csv, frequencies in ranges_segments.csv, EV margins in margins_supports.csv
    Shows part: chart.xlsx Hand EV sheet 54 of 2,401 stacks (every stack: margins_supports.csv)
    """
    lines = []
    if every_stack:
        if every_stack.get("values") is None:
            lines.append("Every stack: in no file (the set was written without csv)")
        else:
            lines.append(f"Every stack: values in {every_stack['values']}, frequencies in "
                         f"{every_stack['frequencies']}, EV margins in {every_stack['margins']}")
    for note in subsets:
        rest = note["rest"] or "in no file of this set"
        lines.append(f"Shows part: {note['file']} {note['part']} {note['shown']:,} of {note['of']:,} stacks "
                     f"(every stack: {rest})")
    if width is None:
        return lines
    import textwrap

    return [part for line in lines for part in textwrap.wrap(line, width, subsequent_indent="  ",
                                                             break_on_hyphens=False, break_long_words=False)]


def exploit_sweep_dict(sweep, locked, out_dir, files, stacks, config) -> dict:
    """The JSON object of ``sflp exploit --stacks``: the chart set and the exact thresholds."""
    hero = "sb" if locked.player == "bb" else "bb"
    return {
        **_set_head(out_dir, files, stacks, config),
        "locked": locked.player,
        "hero": hero,
        "source": locked.source,
        "breakpoints": len(sweep.thresholds.breakpoints),
        "thresholds_exact": {h: f"{r.numerator}/{r.denominator}" for h, r in sweep.roots.items()},
    }


def exploit_sweep_title(locked) -> str:
    """``Exploitative: SB vs BB locked to '30%'``: the title of an exploitative chart set."""
    hero = "sb" if locked.player == "bb" else "bb"
    return f"Exploitative: {hero.upper()} vs {locked.player.upper()} locked to {locked.source!r}"


def format_exploit_sweep(sweep, locked, out_dir, files, stacks, shown: dict | None = None,
                         width: int | None = None, color: bool = False) -> str:
    """The text of ``sflp exploit --stacks``: the hero's thresholds as a 13x13 grid of the charts'
    labels (:mod:`sflp.report.scale`: the number, its mark, the footnotes under the grid; in colour
    the bands and their legend), then where every stack is and what shows part of the stacks
    (``shown``: ``every_stack`` and ``subsets``, as in :func:`subset_lines`).  ``width``: the prose
    wraps to it (the grid takes 79 columns; None: no limit)."""
    import textwrap

    from sflp.core.cards import CLASS_NAMES, grid_text

    hero = "sb" if locked.player == "bb" else "bb"
    low, high = stacks[0], stacks[-1]
    t = sweep.thresholds
    scale = _scale_of(t)
    verb = "push" if hero == "sb" else "call"
    hands = [t.get(hero, n) for n in CLASS_NAMES]
    labels = [scale.label(h.max_stack, h.capped, h.intervals, h.exact_label).text for h in hands]
    cell = max(COMPACT_CELL, *map(len, labels))
    if color:
        labels = [ansi(scale.colour(h.max_stack, h.capped), f"{text:>{cell}}") for h, text in zip(hands, labels)]

    def prose(text: str, indent: str = "") -> list[str]:
        return [indent + text] if width is None else textwrap.wrap(
            text, width, initial_indent=indent, subsequent_indent=indent + " ", break_on_hyphens=False)

    return "\n".join([
        *prose(f"{exploit_sweep_title(locked)}: {len(stacks)} stacks from {low:g} to {high:g} bb, "
               f"{len(t.breakpoints)} exact thresholds"),
        "",
        *prose(f"{hero.upper()} {verb}{'es' if verb == 'push' else 's'} up to (bb), best response to the locked "
               f"{locked.player.upper()}"),
        *(swatch_lines("colour: played up to (bb)", scale.legend(), width) if color else []),
        grid_text(labels, width=cell, ranks=True),
        *prose(thresholds_legend(t)[:-1] + "; pairs on the diagonal, suited above it)", "  "),
        *threshold_notes(t, hero, width),
        "\n" + written_line(len(files), out_dir, width),
        *subset_lines((shown or {}).get("every_stack"), (shown or {}).get("subsets") or [], width),
    ])


def sc_dict(config, numbers) -> dict:
    """The JSON object of :func:`sflp.study.sc.sc_numbers`: the structure, the conventions, one row per hand."""
    from sflp.study.sc import TIE_RULE

    cfg = {k: v for k, v in config.as_dict().items() if k != "stack"}
    return {**cfg, "tie_rule": TIE_RULE, "stack_convention": "bb, before posting",
            "hands": [numbers[h].to_dict() for h in numbers]}


# ------------------------------------------------------------------ compare


def _common_stacks(a, b) -> tuple[float, float]:
    return max(a.low, b.low), min(a.high, b.high)


def compare_dict(a, b, diffs, out_dir, files) -> dict:
    """The JSON object of ``sflp compare``: the two charts, the common stacks, one row per hand."""
    low, high = _common_stacks(a, b)
    return {"a": a.name, "b": b.name, "low": low, "high": high, "out_dir": str(out_dir), "files": files,
            "hands": [d.to_dict() for d in diffs.values()]}


# ------------------------------------------------------------------ approx-bench


def approx_bench_rows(results) -> list[dict]:
    """One JSON row per run of :func:`sflp.approx.bench.approx_bench`: method, stack, effort, final exploitability."""
    return [
        {
            "method": r.method,
            "stack": float(r.config.stack),
            "iterations": r.iterations,
            "seconds": r.seconds,
            "total_exploitability": r.trace[-1].total_exploitability if r.trace else None,
        }
        for r in results
    ]


def format_approx_bench(rows: list[dict], files: dict) -> str:
    """The text of ``sflp approx-bench``: one line per method and stack, then the files written."""
    w = max([16, *(len(row["method"]) + 2 for row in rows)])
    lines = [f"{'method':<{w}}{'stack':>7}{'iters':>10}{'seconds':>9}{'exploitability (bb)':>22}"]
    for row in rows:
        lines.append(f"{row['method']:<{w}}{row['stack']:>7g}{row['iterations']:>10}{row['seconds']:>9.2f}"
                     f"{row['total_exploitability']:>22.3e}")
    lines.append("\n" + format_written(files))
    return "\n".join(lines)


def format_written(files: dict, width: int | None = None) -> str:
    """``Wrote: a.csv, b.png``: the files a command wrote (the values of ``files``), sorted,
    wrapped after a comma to ``width`` (None: one line)."""
    return "\n".join(wrap_items("Wrote: ", sorted(map(str, files.values())), width, sep=", "))
