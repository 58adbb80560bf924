"""The terminal: 13x13 grids as text (in colour on a colour terminal), side by side where they fit.

Every grid and block of text that ``sflp`` prints is built here: the frequency grid of a range
(:func:`frequency_grid`), the threshold charts with their marks, legend and footnotes
(:func:`threshold_grid`, :func:`format_thresholds`), the signed grids of EV margins
(:func:`signed_grid`), and the small words every command shares (:func:`written_line`,
:func:`plural`, :func:`wrap_items`).  The colours and labels are the charts' own
(:mod:`sflp.charts.colors`, :mod:`sflp.charts.scale`), so a hand reads the same in a terminal as on
paper.

Text for a terminal takes a ``width`` (the CLI passes the terminal's columns, else ``$COLUMNS``,
else 80; None: no limit known) and no line passes it: the 13x13 grids of numbers take 5-column
cells below their 92-column wide form (:func:`signed_cells`), grids stand side by side only where
both fit (:func:`beside`), ranges and prose wrap (:func:`wrap_items`), exact fractions come last
(:func:`fraction_lines`).  An EV margin keeps its sign even when it rounds to zero (``-0.00``:
which way the hand goes), only an exact 0 has none (:func:`sflp.checks.margin_text`, the rule of
every medium; :func:`margin_note` says so under the grids).  numpy and the charts' modules are
imported lazily, by need.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

from sflp.checks import margin_text

# ------------------------------------------------------------------ 13x13 grids in a terminal


def frequency_grid(values, color: bool, player: str = "sb") -> str:
    """13x13 grid of frequencies (class-id order) with class names under rank headers (``A K Q
    ... 2`` across and down: pairs on the diagonal, suited above it).  In colour each cell is
    shaded like every other medium's range grid, white (never) to the player's colour (always),
    mixed hands marked ``*``; in plain text a never-played hand is ``.``.  66 columns wide."""
    from sflp.charts.colors import frequency_colour
    from sflp.core.cards import CLASS_NAMES, GRID_RANKS

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
    from sflp.charts.colors import text_colour

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


def scale_of(thresholds):
    from sflp.charts.scale import chart_scale

    return chart_scale(thresholds.high, thresholds.low)


def threshold_grid(thresholds, player: str, color: bool) -> str:
    """The threshold chart as text, 80 columns: rank headers, each cell the hand above its label
    (:mod:`sflp.charts.scale`: ``7.1``, ``25+``, ``-``, the mark right after the number: ``*``
    slivers, ``†`` a fold gap of at least half a big blind, see the footnotes), coloured like
    every other medium on a terminal (the scale's band colours and ink; a ``†`` cell's number line in
    :func:`sflp.charts.scale.hatch_colour`, the terminal's hatching).  Cells are 5 columns;
    when a label is longer (a fractional top with a mark, ``12.5+†``) the cells widen to it and
    the grid is printed in two halves (columns A to 8, then 7 to 2), so it still fits 80 columns."""
    from sflp.charts.scale import MARK_GAP, hatch_colour
    from sflp.core.cards import CLASS_NAMES, GRID_RANKS

    scale = scale_of(thresholds)
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
                if color:  # a gap cell's number line in its hatch colour: the terminal's hatching (issue 42)
                    bg = scale.colour(h.max_stack, h.capped)
                    gap = texts[row][col].endswith(MARK_GAP)
                    name, label = ansi(bg, name), ansi(hatch_colour(bg) if gap else bg, label)
                names.append(name)
                labels.append(label)
            lines.append(f"{GRID_RANKS[row]:>2} " + " ".join(names))
            lines.append("   " + " ".join(labels))
    return "\n".join(lines)


def threshold_notes(thresholds, player: str, width: int | None = None) -> list[str]:
    """The footnotes under one threshold grid (:func:`sflp.charts.scale.footnotes`: ``† 63s:
    push ≤2.3 and 5.1–7.1``, then the ``*`` hands), each wrapped to ``width``."""
    import textwrap

    from sflp.charts.scale import footnotes
    from sflp.core.cards import CLASS_NAMES

    scale = scale_of(thresholds)
    notes = footnotes([thresholds.get(player, n) for n in CLASS_NAMES], scale.high, scale.low)
    if width is None:
        return notes
    return [part for note in notes for part in textwrap.wrap(note, width, subsequent_indent="    ",
                                                             break_on_hyphens=False)]


def thresholds_legend(thresholds) -> str:
    """What a threshold cell's text means (the plain text's only key: no colours there)."""
    from sflp.charts.scale import FOLD_GAP_BB, MARK_GAP, MARK_SEVERAL, top_text

    return (f"({top_text(thresholds.high)}+ = up to the top, - = never; {MARK_GAP} = folded on a stretch of "
            f"{FOLD_GAP_BB:g} bb or more below it, {MARK_SEVERAL} = on narrower ones: see the notes under the grid)")


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
        lines += swatch_lines("colour: played up to (bb)", scale_of(thresholds).legend(), width)
    blocks = [threshold_block(thresholds, "sb", "SB push up to (bb)", color),
              threshold_block(thresholds, "bb", "BB call up to (bb)", color)]
    side = beside(blocks, width)
    if side is not None:
        return "\n".join([*lines, "", side])
    return "\n".join([*lines, "", blocks[0], "", blocks[1]])


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
    """Texts and cell width of a grid of EV margins (:func:`signed_spec`): non-finite values
    are ``.``; a margin keeps its sign even when it rounds to zero (``-0.00``), only an exact 0
    has none (:func:`sflp.checks.margin_text`, the rule of every medium); in the
    compact form a grid of values of 9999.5 bb and more is printed in units of ``1e+k`` bb
    (:func:`unit_exponent`); a text wider than the cell (a value of 1e25 bb in the wide form)
    widens the cell.

    >>> signed_cells([1.234, -0.001, 0.0, float("nan")], None)[0], signed_cells([48.12, -3.0], 80)
    (['+1.23', '-0.00', '0.00', '.'], (['+48.1', '-3.0'], 5))
    >>> signed_cells([-1.8e27, 2e25, 0.0], 80)  # in units of 1e+27 bb
    (['-1.80', '+0.02', '0.00'], 5)
    """
    k = unit_exponent(values, width)
    if k:
        values = [float(v) / 10 ** k for v in values]
    spec, cell = signed_spec(values, width)
    texts = ["." if not math.isfinite(float(v)) else margin_text(v, spec, 2) for v in values]
    return texts, max([cell, *(len(t) for t in texts)])


def margin_note(spec: str, tie: str = "") -> str:
    """What a zero means in a grid of margins printed with ``spec`` (:func:`sflp.checks.margin_text`);
    ``tie`` goes before an exact 0 (``"="`` in ``sflp exploit``, which marks exact ties).

    >>> margin_note("+.2f")
    '0.00: exactly 0; +0.00/-0.00: rounds to 0, the sign kept'
    >>> margin_note("+.1f", "=")
    '=0.0: exactly 0; +0.0/-0.0: rounds to 0, the sign kept'
    """
    zero = format(0.0, spec.replace("+", ""))
    return f"{tie}{zero}: exactly 0; +{zero}/-{zero}: rounds to 0, the sign kept"


def ev_legend() -> str:
    """The coloured key of the EV scale (red below 0, blue above, full at :data:`EV_TEXT_SCALE`)."""
    from sflp.charts.colors import ev_colour

    return (f"colour: red below 0, blue above, full at {EV_TEXT_SCALE:g} bb "
            + " ".join(ansi(ev_colour(v, EV_TEXT_SCALE), f" {v:+g} " if v else " 0 ") for v in (-1, -0.5, 0, 0.5, 1)))


def signed_grid(values, width: int | None, color: bool) -> str:
    """A 13x13 grid of signed bb numbers under rank headers (:func:`signed_cells`), in colour
    shaded on the diverging EV scale."""
    from sflp.charts.colors import ev_colour
    from sflp.core.cards import grid_text

    texts, cell = signed_cells(values, width)
    if color:
        texts = [ansi(ev_colour(float(v), EV_TEXT_SCALE), f"{t:>{cell}}") if math.isfinite(float(v)) else t
                 for v, t in zip(values, texts)]
    return grid_text(texts, width=cell, ranks=True)


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


def format_written(files: dict, width: int | None = None) -> str:
    """``Wrote: a.csv, b.png``: the files a command wrote (the values of ``files``), sorted,
    wrapped after a comma to ``width`` (None: one line)."""
    return "\n".join(wrap_items("Wrote: ", sorted(map(str, files.values())), width, sep=", "))


def wrapped_lines(lines: list[str], width: int | None) -> str:
    """``lines`` joined, each wrapped to ``width`` columns (none when ``width`` is None) with its
    continuation indented two columns more than its own indent; words (a folder name) are never
    broken, so only a word longer than the width passes it."""
    if width is None:
        return "\n".join(lines)
    import textwrap

    out = []
    for line in lines:
        indent = " " * (len(line) - len(line.lstrip(" ")))
        out += textwrap.wrap(line, width, initial_indent="", subsequent_indent=indent + "  ",
                             break_long_words=False, break_on_hyphens=False) or [""]
    return "\n".join(out)
