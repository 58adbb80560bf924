"""``sflp chart``, ``exploit`` and ``compare``: chart sets over a range of stacks."""

from __future__ import annotations

import sys
from pathlib import Path

from sflp.checks import MAX_WORKERS, parse_stacks
from sflp.cli.options import (
    add_lock,
    add_output,
    add_parser,
    add_structure,
    check_structure,
    check_target,
    config_from,
    keep_printer,
    load_spec,
    lock_options,
    number,
    print_json,
    say,
    terminal_width,
    use_color,
    whole,
)
from sflp.errors import ConfigError


class _Progress:
    """Progress of a chart job on stderr (a terminal only): thresholds, solving, then each file
    group.  Bars are left on screen when their phase ends, so the job never looks stalled."""

    def __init__(self, enabled: bool):
        self.enabled = enabled
        self.bar = None
        self.phase = None

    def _bar(self, phase: str, total, unit: str, rate: bool = True):
        """The bar of ``phase`` (a new one when the phase changes); ``unit`` is plural
        (``stacks/s``); without ``rate`` the bar shows no rate (a share of the range has none)."""
        if self.phase != phase:
            self.close()
            from tqdm import tqdm

            self.phase = phase
            plain = "{desc}: {percentage:3.0f}%|{bar}| [{elapsed}<{remaining}]"
            self.bar = tqdm(total=total, desc=phase, unit=unit, file=sys.stderr, leave=True,
                            dynamic_ncols=True, bar_format=None if rate else plain)
        return self.bar

    def __call__(self, phase: str, done: float, total: float) -> None:
        """``progress`` of :func:`sflp.chart`: thresholds (bb covered), solving (stacks), writing."""
        if not self.enabled:
            return
        if phase == "thresholds":
            bar = self._bar("thresholds", 100, "%", rate=False)
            n = round(100 * min(1.0, done / total)) if total > 0 else 100
        elif phase == "solving":
            bar = self._bar("solving", total, "stacks")
            n = done
        else:
            bar = self._bar("writing files", total, "formats")
            n = done
        if n != bar.n:
            bar.n = n
            bar.refresh()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None
            self.phase = None


def cmd_chart(args) -> int:
    from sflp.charts.chart import chart
    from sflp.checks import parse_grid_stacks
    from sflp.core.game import default_stacks, min_stack
    from sflp.views.text import format_chart_summary

    # the options' own texts are parsed here, so that errors name the option
    check_structure(args)
    stacks = parse_stacks(args.stacks) if args.stacks is not None else None
    if stacks is not None:  # start at the first stack that covers the blinds and antes, as sflp atlas does
        from sflp.checks import Stacks
        from sflp.core.game import left_out_note, stacks_from

        first = min_stack(args.big_blind, args.ante, args.bb_ante)
        kept, left_out = stacks_from(stacks, first)
        if left_out and stacks[-1] >= first:  # none covering: refused below, as before
            say("note", left_out_note(left_out, first))
            stacks = Stacks(kept)
    span = stacks or default_stacks(args.big_blind, args.ante, args.bb_ante)
    grid_stacks = parse_grid_stacks(args.grid_stacks, span[0], span[-1])
    progress = _Progress(not args.json and sys.stderr.isatty())
    try:
        config = config_from(args, stack=min_stack(args.big_blind, args.ante, args.bb_ante))
        result = chart(config, stacks, out=args.out, formats=args.formats, ranges=args.ranges,
                       paper=args.paper, exact=args.exact, grid_stacks=grid_stacks, progress=progress,
                       workers=args.workers, **lock_options(args, Path(args.out) if args.out else None))
    finally:
        progress.close()
    if args.json:
        print_json(result.to_dict())
        return 0
    print(format_chart_summary(result.to_dict(), result.thresholds, use_color(args), terminal_width()))
    return 0


def _locked_spec(args):
    if (args.sb is None) == (args.bb is None):
        raise ConfigError("sflp exploit needs exactly one of --bb SPEC (lock BB, exploit with SB) "
                          "or --sb SPEC (lock SB, exploit with BB)")
    return load_spec(args.sb, "sb", "--sb") if args.sb is not None else load_spec(args.bb, "bb", "--bb")


def cmd_exploit(args) -> int:
    if (args.stack is None) == (args.stacks is None):
        raise ConfigError("sflp exploit needs --stack S (one stack) or --stacks START:STOP:STEP (a chart set)")
    locked = _locked_spec(args)
    if args.stack is not None and args.out is not None:
        raise ConfigError(f"--out {args.out!r} writes an exploit chart set, with --stacks; one stack's best response "
                          "(--stack) is printed (--json for JSON)")
    if args.stack is not None:
        from sflp.study.exploit import exploit
        from sflp.views.text import format_exploit

        report = exploit(config_from(args), locked)
        if args.json:
            print_json(report.to_dict())
        else:
            print(format_exploit(report, use_color(args), terminal_width()))
        return 0
    from sflp.charts.about import default_out_dir
    from sflp.charts.chartset import write_set
    from sflp.study.exploit import exploit_sweep

    stacks = parse_stacks(args.stacks)
    config = config_from(args, stack=stacks[0])
    low, high = stacks[0], stacks[-1]
    if high <= low:
        raise ConfigError(f"--stacks {args.stacks!r}: an exploit chart set needs a stack range")
    hero = "sb" if locked.player == "bb" else "bb"
    out_dir = Path(args.out) if args.out else Path(
        str(default_out_dir(config, low, high)) + f"_exploit-{hero}"
    )
    check_target(out_dir, "chart-set")  # an exploit chart set is a chart set: the same files and readers
    sweep = exploit_sweep(config, locked, stacks)
    from sflp.views.text import exploit_sweep_dict, exploit_sweep_title, format_exploit_sweep

    title = exploit_sweep_title(locked)
    files, written = write_set(sweep.solutions, sweep.thresholds, out_dir, extra_about=sweep.about(), title=title,
                               paper=args.paper, **lock_options(args, out_dir))
    shown = {"ranges": written.ranges, "every_stack": written.homes, "subsets": written.subsets}
    if args.json:
        print_json({**exploit_sweep_dict(sweep, locked, out_dir, files, stacks, config), **shown})
        return 0
    print(format_exploit_sweep(sweep, locked, out_dir, files, stacks, shown, terminal_width(), use_color(args)))
    return 0


def cmd_compare(args) -> int:
    from sflp.charts.compare import format_compare, resolve_chart, write_compare
    from sflp.study.compare import compare_charts

    out_dir = Path(args.out)
    check_target(out_dir, "compare")  # checked now (a folder of other files is refused), written at the end
    a = resolve_chart(args.a, args.stacks, verify=not args.no_manifest)
    b = resolve_chart(args.b, args.stacks, verify=not args.no_manifest)
    diffs = compare_charts(a, b)
    files = write_compare(diffs, a, b, out_dir, on_keep=keep_printer(out_dir))
    from sflp.views.text import compare_dict

    if args.json:
        print_json(compare_dict(a, b, diffs, out_dir, files))
        return 0
    print(format_compare(a, b, diffs, out_dir, files, args.top, terminal_width()))
    return 0


def add_paper(p) -> None:
    p.add_argument("--paper", default="a4", choices=("a4", "letter"),
                   help="sheet of chart.pdf, landscape: a4 (297 x 210 mm, the default) or letter (11 x 8.5 in)")


def cmd_verify_thresholds(args) -> int:
    """Thin over :func:`sflp.charts.proof.verify_thresholds` (a chart set) or
    :func:`sflp.atlas.read.read_atlas` with ``verify="proof"`` (an atlas, told by its manifest's
    kind): exit 0 when every check passes (a failure is its one DataError, through main's error
    boundary)."""
    from pathlib import Path

    from sflp.atlas.jobs import KIND
    from sflp.output.manifest import read_manifest

    folder = Path(args.folder)
    manifest = read_manifest(folder) if folder.is_dir() else None
    if isinstance(manifest, dict) and manifest.get("kind") == KIND:
        from sflp.atlas.proof import verify_atlas
        from sflp.atlas.read import read_atlas

        check = verify_atlas(read_atlas(folder, verify=not args.no_manifest))
    else:
        from sflp.charts.proof import verify_thresholds

        check = verify_thresholds(args.folder, verify=not args.no_manifest)
    if args.json:
        print_json(check.to_dict())
    else:
        print(check.text(terminal_width()))
    return 0


def add_commands(sub) -> None:
    """chart, exploit, compare, verify-thresholds."""
    p = add_parser(sub, "chart", help="solve many stacks, exact thresholds, write a chart set: CSV, xlsx, PNG, "
                                      "SVG, HTML and PDF")
    p.add_argument("--stacks", default=None,
                   help="START:STOP:STEP or a comma list (default 1:25:0.05, from the first stack that "
                        "covers the big blind and antes)")
    add_structure(p, stack=False)
    p.add_argument("--out", default=None, help="output folder (default reports/<configuration name>)")
    p.add_argument("--exact", action="store_true",
                   help="add each stack's exact value p/q to values.csv (every stack is certified anyway)")
    p.add_argument("--grid-stacks", default=None, metavar="S1,S2,...",
                   help="stacks of the range grids (range_<S>bb.png, sb_push_<S>bb.csv), each mapped to the "
                        "nearest solved stack (default: about five round stacks spread over the range, "
                        "e.g. 5,10,15,20,25 for 1-25 bb)")
    p.add_argument("--formats", default=None, metavar="F1,F2,...",
                   help="output formats among csv, xlsx, html, pdf, png, svg (default: all)")
    p.add_argument("--ranges", default="auto", choices=("auto", "csv", "segments", "parquet"),
                   help="form of the every-stack ranges: ranges.csv, ranges_segments.csv (runs of equal "
                        "frequency), ranges.parquet (needs the parquet extra); auto = csv up to 2,000 stacks, "
                        "segments above")
    p.add_argument("--workers", type=whole("--workers", 0, MAX_WORKERS), default=None, metavar="N",
                   help="worker processes for the slow files (default 0: all in this process, the least CPU and "
                        "memory); 2 can save wall time on an idle machine with two free cores")
    add_paper(p)
    add_lock(p)
    add_output(p)
    p.set_defaults(func=cmd_chart)

    p = add_parser(sub, "exploit", help="best response to a locked opponent: range, value, gain, margins")
    g = p.add_argument_group("game")
    g.add_argument("--stack", type=number("--stack"), default=None, help="effective stack in bb, before posting")
    g.add_argument("--stacks", default=None, help="START:STOP:STEP or a comma list: an exploitative chart set")
    add_structure(p, stack=False)
    p.add_argument("--bb", default=None, metavar="SPEC", help="lock BB's calls (range, 30%%, CSV/grid/JSON file)")
    p.add_argument("--sb", default=None, metavar="SPEC", help="lock SB's pushes (range, 30%%, CSV/grid/JSON file)")
    p.add_argument("--out", default=None,
                   help="chart set folder with --stacks (default reports/<config>_exploit-<hero>)")
    add_paper(p)
    add_lock(p)
    add_output(p)
    p.set_defaults(func=cmd_exploit)

    p = add_parser(sub, "compare", help="compare two charts: threshold differences and where decisions differ")
    p.add_argument("a", metavar="A",
                   help="chart-set folder, or a configuration: 'nash', 'ante=0.125', 'sb=0.5,bb=1,ante=0.1'")
    p.add_argument("b", metavar="B", help="the same, for the second chart")
    p.add_argument("--stacks", default="1:25", help="LOW:HIGH for configurations (default 1:25)")
    p.add_argument("--out", default="reports/compare", help="output folder (default reports/compare)")
    p.add_argument("--top", type=whole("--top"), default=10, help="hands listed per player in the text output")
    p.add_argument("--no-manifest", action="store_true",
                   help="do not check a chart-set folder against its manifest.json (a folder made or edited by "
                        "hand)")
    add_output(p)
    p.set_defaults(func=cmd_compare)

    p = add_parser(sub, "verify-thresholds",
                   help="re-prove a chart set's or an atlas's thresholds and re-derive its threshold tables "
                        "from the proof, row for row",
                   description="Re-prove the thresholds of a chart set (or of every structure and ante path of an "
                               "atlas) and re-derive every row of its threshold table from that proof, text for "
                               "text. Decided with integers: each root's isolating interval (opposite signs at its "
                               "ends, one root by Descartes' rule), its rounding to the published 6 decimals and "
                               "0.1 bb label, and every sign the float filter leaves open. Decided in floats with a "
                               "proven error bound: most signs of the path's re-proof (each support an equilibrium "
                               "on its segment, no root missed); a sign the bound cannot decide goes to integers. "
                               "The summary says how many of each.")
    p.add_argument("folder", metavar="FOLDER",
                   help="a chart-set folder (sflp chart --out) or an atlas (sflp atlas --out)")
    p.add_argument("--no-manifest", action="store_true",
                   help="do not check the files against manifest.json (a folder edited by hand)")
    add_output(p, verbose=False)  # integers only: no LP, no solver log to show
    p.set_defaults(func=cmd_verify_thresholds)
