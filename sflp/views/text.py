"""Every result as a JSON-ready dict and as readable text, in one place per type.

The rule
--------
Each result type has exactly one ``to_dict`` and one text formatter:

* **next to the type** when its module can hold the text: :class:`~sflp.study.verify.VerifyReport`
  (``to_dict()``, :func:`sflp.study.verify.format_text`), :class:`~sflp.study.simulate.SimulationReport`
  (:func:`sflp.study.simulate.format_text`), :class:`~sflp.approx.common.ApproxResult`
  (:func:`sflp.approx.format_text`), the SC numbers (:func:`sflp.study.sc.format_text`), and the
  ``to_dict()`` of :class:`~sflp.core.equity.EquityResult`, :class:`~sflp.study.exploit.ExploitReport`,
  the rank rows and the compare rows; a chart job's JSON (:func:`sflp.charts.chart.chart_summary_dict`,
  ``ChartResult.to_dict()``) and the text of ``sflp compare`` (:func:`sflp.charts.compare.format_compare`),
  which speaks in the comparison's labels and ranking;
* **here** for the rest: the results of the numpy-only core, whose modules know nothing about
  terminals (:class:`~sflp.core.game.Solution`: :func:`solution_dict`, :func:`format_solution`;
  :class:`~sflp.solving.thresholds.Thresholds`: :func:`thresholds_dict`,
  :func:`sflp.charts.media.terminal.format_thresholds`), and the texts that need the charts'
  colours and labels, which a study module may not import: an exploit (:func:`format_exploit`,
  its range grids shaded like ``sflp solve``'s); the text of an equity query
  (:func:`format_equity`) and of the hand ranking (:func:`format_rank`), the JSON envelopes that
  wrap several results (:func:`sc_dict`, :func:`rank_dict`, :func:`compare_dict`,
  :func:`approx_bench_rows`), and the summaries of the commands that write files
  (:func:`format_chart_summary`, :func:`exploit_sweep_dict`, :func:`format_exploit_sweep`,
  :func:`format_approx_bench`, :func:`format_table_build`).

The CLI only parses arguments, calls the library and prints what this module (or the type's own
module) formats, through the one JSON sanitiser :func:`sflp.output.clean.json_text`; the JSON keys
and the text are part of the interface (the CLI tests pin them).  The grids and words of a
terminal are :mod:`sflp.charts.media.terminal`'s.  Everything heavy is imported lazily, by need:
importing this module costs nothing.
"""

from __future__ import annotations

from pathlib import Path

from sflp.charts.about import set_head
from sflp.charts.media.terminal import (
    COMPACT_CELL,
    EV_TEXT_SCALE,
    ansi,
    beside,
    ev_legend,
    format_thresholds,
    format_written,
    fraction_lines,
    frequency_grid,
    margin_note,
    plural,
    scale_of,
    signed_grid,
    signed_spec,
    swatch_lines,
    threshold_notes,
    thresholds_legend,
    unit_exponent,
    unit_text,
    wrap_items,
    written_line,
)
from sflp.charts.text import class_arrays
from sflp.checks import margin_text, number_text


def thresholds_dict(thresholds) -> dict:
    """The JSON object of :class:`~sflp.solving.thresholds.Thresholds`: ``Thresholds.to_dict()``."""
    return thresholds.to_dict()


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
        "Hands by exact all-in equity against a random hand",
        "(card removal; ties count half)",
        f"{'rank':>4}  {'hand':<4} {'equity':>9}  {'cum %':>7}",
    ]
    for r in rows:
        lines.append(f"{r.rank:>4}  {r.hand:<4} {100 * float(r.equity):>8.4f}%  {r.cumulative_pct:>6.2f}%")
    return "\n".join(lines)


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
    k = unit_exponent(sb_ev, width)
    zeros = f"  ({margin_note(signed_spec([float(v) / 10 ** k for v in sb_ev], width)[0])})"
    side = beside([f"SB EV margin: EV(shove) - EV(fold), {sb_unit}\n" + sb_grid,
                   f"BB EV margin: EV(call) - EV(fold), {bb_unit} ('.': never faces a shove)\n" + bb_grid], width)
    if side is not None:
        return [*legend, side, zeros]
    return [
        *legend,
        f"SB EV margin, EV(shove) - EV(fold), {sb_unit} per hand held:",
        sb_grid,
        "",
        f"BB EV margin, EV(call) - EV(fold), {bb_unit} per hand facing a shove:",
        bb_grid,
        "  ('.': a hand SB never shoves into)",
        zeros,
    ]


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
        texts = [("." if m is None else "=" + margin_text(0.0, spec) if m == 0
                  else margin_text(float(m) / 10 ** k, spec, 2)) for m in report.margins_exact]
        cell = max([cell, *map(len, texts)])
        if color:
            from sflp.charts.colors import ev_colour

            texts = [t if m is None else ansi(ev_colour(float(m), EV_TEXT_SCALE), f"{t:>{cell}}")
                     for m, t in zip(report.margins_exact, texts)]
        from sflp.core.cards import grid_text

        held = " held" if report.hero == "sb" else " facing a shove"
        lines += ["", f"{hero} EV margin, EV({verb}) - EV(fold), {unit_text(k)} per hand{held}",
                  *([ev_legend()] if color else []),
                  grid_text(texts, width=cell, ranks=True),
                  f"  ('.': unreached; {margin_note(spec, '=')})"]
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
        **set_head(out_dir, files, stacks, config),
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
    labels (:mod:`sflp.charts.scale`: the number, its mark, the footnotes under the grid; in colour
    the bands and their legend), then where every stack is and what shows part of the stacks
    (``shown``: ``every_stack`` and ``subsets``, as in :func:`subset_lines`).  ``width``: the prose
    wraps to it (the grid takes 79 columns; None: no limit)."""
    import textwrap

    from sflp.core.cards import CLASS_NAMES, grid_text

    hero = "sb" if locked.player == "bb" else "bb"
    low, high = stacks[0], stacks[-1]
    t = sweep.thresholds
    scale = scale_of(t)
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


def compare_dict(a, b, diffs, out_dir, files) -> dict:
    """The JSON object of ``sflp compare``: the two charts, the common stacks, one row per hand."""
    from sflp.charts.compare import common_stacks  # pandas: only a comparison needs it

    low, high = common_stacks(a, b)
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
