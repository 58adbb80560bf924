"""``sflp approx``, ``approx-bench`` and ``simulate``: approximate solvers traced against the exact
game, and the equilibrium played out with real cards."""

from __future__ import annotations

from pathlib import Path

from sflp.checks import parse_stacks
from sflp.cli.options import (
    Bar,
    add_output,
    add_parser,
    add_structure,
    config_from,
    keep_printer,
    positive,
    print_json,
    show_progress,
    whole,
)
from sflp.errors import ConfigError


def cmd_approx(args) -> int:
    from sflp.approx import format_text, run
    from sflp.approx.common import observe_progress

    with Bar(100, args.method, "%", show_progress(args), bar_format="{desc}: {percentage:3.0f}%|{bar}| "
              "[{elapsed}<{remaining}]") as bar, observe_progress(bar.share):
        result = run(args.method, config_from(args), iterations=args.iterations, seconds=args.seconds, seed=args.seed)
    if args.json:
        print_json(result.to_dict())
    else:
        print(format_text(result))
    return 0


def cmd_approx_bench(args) -> int:
    from sflp.approx import METHODS
    from sflp.approx.bench import approx_bench
    from sflp.views.bench_files import BENCH_KIND, OPENSPIEL_KIND, bench_target, write_approx_bench

    stacks = parse_stacks(args.stacks)
    out_dir = Path(args.out or ("reports/openspiel-atlas" if args.openspiel else "reports/approx-bench"))
    # checked now (a folder of other files, or a benchmark of the other kind, is refused), written at the end
    bench_target(out_dir, OPENSPIEL_KIND if args.openspiel else BENCH_KIND)
    base = config_from(args, stack=stacks[0])
    runs = len(METHODS)
    if args.openspiel:
        from sflp.openspiel import pyspiel
        from sflp.openspiel.atlas import OPENSPIEL_METHODS, atlas

        pyspiel()  # the install hint before any work
        runs += len(OPENSPIEL_METHODS)
    with Bar(len(stacks) * runs, "approx-bench", "run", show_progress(args)) as bar:
        if args.openspiel:
            results = atlas(stacks, seconds=args.seconds, seed=args.seed, base=base, progress=lambda _: bar.add())
        else:
            results = approx_bench(stacks=stacks, seconds=args.seconds, seed=args.seed, base=base,
                                   progress=lambda _: bar.add())
    files = write_approx_bench(results, out_dir, on_keep=keep_printer(out_dir))
    from sflp.views.text import approx_bench_rows, format_approx_bench

    rows = approx_bench_rows(results)
    if args.json:
        print_json({"files": files, "results": rows})
    else:
        print(format_approx_bench(rows, files))
    return 0


def cmd_simulate(args) -> int:
    from sflp.study.simulate import format_text, simulate

    if args.hands <= 0:
        raise ConfigError(f"--hands {args.hands} must be a positive whole number")
    with Bar(args.hands, "simulate", "hand", show_progress(args), unit_scale=True) as bar:
        report = simulate(config_from(args), hands=args.hands, seed=args.seed, progress=bar.add)
    if args.json:
        print_json(report.to_dict())
    else:
        print(format_text(report))
    return 0

def add_commands(sub) -> None:
    """approx, approx-bench, simulate."""
    p = add_parser(sub, "approx", help="run one approximate solver and trace its exploitability")
    p.add_argument("method", help="fictitious-play, cfr+, rl-linear-q, rl-tabular or direct")
    add_structure(p)
    p.add_argument("--iterations", type=whole("--iterations", 1), default=None,
                   help="stop after N iterations (default: the method's own count when --seconds is not given)")
    p.add_argument("--seconds", type=positive("--seconds"), default=None,
                   help="stop at the first check past T seconds of the run's wall clock, counted from when the "
                        "reference solution is ready; the RL methods plan their hands from T (default: no limit)")
    p.add_argument("--seed", type=whole("--seed"), default=0, help="random seed (the sampling methods)")
    add_output(p)
    p.set_defaults(func=cmd_approx)

    p = add_parser(sub, "approx-bench", help="all approximate solvers at several stacks: CSV + log-log PNG")
    p.add_argument("--stacks", default="5,10,20", help="START:STOP:STEP or a comma list of stacks in bb")
    add_structure(p, stack=False)
    p.add_argument("--seconds", type=positive("--seconds"), default=2.0,
                   help="time budget per method and stack, seconds")
    p.add_argument("--seed", type=whole("--seed"), default=0, help="random seed (the sampling methods)")
    p.add_argument("--openspiel", action="store_true",
                   help="the convergence atlas: also OpenSpiel's CFR, CFR+, discounted CFR, outcome- and "
                        "external-sampling MCCFR and XFP on the exported game, every point scored exactly "
                        "(needs OpenSpiel: pip install 'open-spiel>=1.5')")
    p.add_argument("--out", default=None,
                   help="output folder for approx_bench.csv and the PNG (default reports/approx-bench, "
                        "with --openspiel reports/openspiel-atlas)")
    add_output(p)
    p.set_defaults(func=cmd_approx_bench)

    p = add_parser(sub, "simulate", help="play the equilibrium out with real cards and compare with the exact value")
    add_structure(p)
    p.add_argument("--hands", type=whole("--hands", 1), default=1_000_000, help="hands to deal and play out")
    p.add_argument("--seed", type=whole("--seed"), default=0, help="random seed (same seed and hands, same result)")
    add_output(p)
    p.set_defaults(func=cmd_simulate)
