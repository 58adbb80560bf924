"""``sflp verify``, ``approx``, ``approx-bench``, ``simulate`` and ``export``: other strategies and
solvers, scored against the exact game, and the game handed to other tools."""

from __future__ import annotations

import math
import sys
from pathlib import Path

from sflp.checks import parse_stacks
from sflp.cli.options import (
    Bar,
    add_output,
    add_parser,
    add_structure,
    check_target,
    config_from,
    keep_printer,
    load_spec,
    number,
    print_json,
    show_progress,
    terminal_width,
    whole,
)
from sflp.errors import ConfigError

GATES = {"max_exploitability": "--max-exploitability", "max_nash_conv": "--max-nash-conv", "max_gain": "--max-gain"}
"""The bounds of :func:`sflp.testing.judge` and their options."""


def _gate_bounds(args) -> dict:
    """The gate options given, each checked before any work: a finite number >= 0."""
    from sflp.cli.options import TYPED

    bounds = {}
    for name, option in GATES.items():
        bound = getattr(args, name)
        if bound is not None:
            if not (math.isfinite(bound) and bound >= 0):
                raise ConfigError(f"{option} {TYPED.get(option, repr(bound))} must be a finite number >= 0 "
                                  "(bb per hand)")
            bounds[name] = bound
    return bounds


def _verify_config(args, policy):
    """The game to score in: the structure the --efg file and the policy name (they must agree),
    else the options; an option typed on the command line that contradicts either is refused,
    naming both."""
    from sflp.cli.options import STRUCTURE_OPTIONS, TYPED
    from sflp.openspiel.bridge import policy_game, same_game, structure_text

    named = []
    if args.efg is not None:
        from sflp.openspiel import efg_config

        if not args.efg:
            raise ConfigError("--efg '' is empty: give the .efg file sflp export efg wrote")
        named.append((f"--efg {args.efg}", efg_config(args.efg)))
    own = policy_game(policy) if policy is not None else None
    if own is not None:
        named.append((f"--policy {args.policy}", own))
    if not named:
        if args.stack is None:
            raise ConfigError("sflp verify needs --stack (or --efg FILE, or a policy that names its game)")
        return config_from(args)
    (first, config), *others = named
    for what, other in others:
        if not same_game(config, other):
            raise ConfigError(f"{first} is the game of {structure_text(config)}, but {what} is a policy of "
                              f"{structure_text(other)}: score a policy in the game it was made for")
    for field, option in STRUCTURE_OPTIONS.items():
        value = getattr(args, field, None)
        if option in TYPED and value is not None and float(value) != float(getattr(config, field)):
            raise ConfigError(f"{option} {TYPED[option]} contradicts {first}, the game of {structure_text(config)}: "
                              f"leave {option} out (the game comes from the file), or give a file of that game")
    return config


def _gate_lines(verdict) -> list[str]:
    """The gate's verdict as text: one line per check."""
    lines = ["", f"gate: {'PASS' if verdict.passed else 'FAIL'}"]
    for c in verdict.checks:
        sign = "<=" if c.passed else ">"
        lines.append(f"  {c.figure:<18}{c.value:.6g} {sign} {c.threshold:g} bb/hand  (--{c.bound.replace('_', '-')})"
                     f"  {'pass' if c.passed else 'FAIL'}")
    return lines


def cmd_verify(args) -> int:
    from sflp.study.verify import format_text, verify
    from sflp.testing import judge

    if args.policy is not None and (args.sb is not None or args.bb is not None):
        raise ConfigError("sflp verify takes --policy FILE (both players) or --sb/--bb SPEC, not both")
    if args.sb is None and args.bb is None and args.policy is None:
        raise ConfigError("sflp verify needs --sb SPEC, --bb SPEC or both (a file or a range string), "
                          "or --policy FILE (an OpenSpiel policy)")
    bounds = _gate_bounds(args)
    pair = args.policy is not None or (args.sb is not None and args.bb is not None)
    for name in ("max_nash_conv", "max_gain"):
        if name in bounds and not pair:
            raise ConfigError(f"{GATES[name]} judges a pair of strategies: give both players (--policy, or --sb and "
                              "--bb); --max-exploitability judges one side alone")
    policy = None
    if args.policy is not None:
        if not args.policy:
            raise ConfigError("--policy '' is empty: give the policy's JSON file")
        from sflp.openspiel import read_policy

        policy = read_policy(args.policy)
    config = _verify_config(args, policy)
    if policy is not None:
        from sflp.openspiel import verify as verify_policy

        report = verify_policy(policy, config, source=args.policy)
    else:
        sb = load_spec(args.sb, "sb", "--sb") if args.sb is not None else None
        bb = load_spec(args.bb, "bb", "--bb") if args.bb is not None else None
        report = verify(config, sb, bb, exact=args.exact)
    verdict = judge(report, **bounds) if bounds else None
    if args.json:
        out = report.to_dict()
        if verdict is not None:
            out.update(verdict.to_dict())
        print_json(out)
    else:
        text = format_text(report, width=terminal_width())
        print(text if verdict is None else "\n".join([text, *_gate_lines(verdict)]))
    if verdict is not None and not verdict.passed:
        if not args.json:
            worst = verdict.failed[0]
            what = ("exploitability above" if worst.bound == "max_exploitability" else f"{worst.figure} above")
            print(f"\nFAIL: {what} --{worst.bound.replace('_', '-')} {worst.threshold:g} bb "
                  f"({worst.figure} {worst.value:.6g})", file=sys.stderr)
        return 1
    return 0


def cmd_export(args) -> int:
    from sflp.openspiel.efg import efg_text, write_efg

    if not args.out:
        raise ConfigError("--out '' is empty: give the .efg file to write, or - for standard output")
    config = config_from(args)
    if args.out == "-":
        if args.json:
            raise ConfigError("--out - writes the .efg text itself to stdout: it cannot also be --json")
        sys.stdout.write(efg_text(config))
        return 0
    summary = write_efg(config, args.out)
    if args.json:
        print_json(summary.to_dict())
    else:
        print(f"Wrote {summary.path}: {summary.bytes / 1e6:.1f} MB, {summary.info_sets} information sets, "
              f"{summary.terminals:,} terminal nodes, in {summary.seconds:.2f} s.\n"
              f"Load it in OpenSpiel: pyspiel.load_efg_game(open({str(summary.path)!r}).read())")
    return 0


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
    from sflp.report.approx_bench import write_approx_bench

    stacks = parse_stacks(args.stacks)
    out_dir = Path(args.out or ("reports/openspiel-atlas" if args.openspiel else "reports/approx-bench"))
    check_target(out_dir)  # checked now (a folder of other files is refused), written at the end
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
    from sflp.report.format import approx_bench_rows, format_approx_bench

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
    """verify, approx, approx-bench, simulate."""
    p = add_parser(sub, "verify", help="score strategies against the exact equilibrium")
    add_structure(p, stack_from="the game of --efg FILE, or of a policy that names it")
    p.add_argument("--sb", default=None, metavar="SPEC", help="SB push strategy: CSV/JSON file or range string")
    p.add_argument("--bb", default=None, metavar="SPEC", help="BB call strategy: CSV/JSON file or range string")
    p.add_argument("--policy", default=None, metavar="FILE",
                   help="an OpenSpiel policy on the exported game (sflp export efg) for both players, as JSON "
                        "{info state: [[action, probability], ...]} or {info state: {action: probability}}, "
                        "actions as numbers (fold 0, shove 1, call 2) or names, or the text of "
                        "TabularPolicy.serialize(); scored exactly, in the game it names if it names one")
    p.add_argument("--exact", action="store_true",
                   help="add the exact figures as fractions: each player's best-response gain and their sum "
                        "(OpenSpiel's nash_conv); always on with --policy")
    p.add_argument("--efg", default=None, metavar="FILE",
                   help="the .efg file the policy was made on (sflp export efg): the game is read from it, and a "
                        "--stack, blind or ante that contradicts it is refused")
    gate = p.add_argument_group("gate (exit 1 when a bound is broken; --json adds \"pass\" and each check)")
    gate.add_argument("--max-nash-conv", type=number("--max-nash-conv"), default=None, metavar="X",
                      help="exit 1 when nash_conv, the sum of both players' best-response gains (OpenSpiel's "
                           "nash_conv), is above X bb/hand")
    gate.add_argument("--max-gain", type=number("--max-gain"), default=None, metavar="X",
                      help="exit 1 when either player's best-response gain is above X bb/hand")
    gate.add_argument("--max-exploitability", type=number("--max-exploitability"), default=None, metavar="X",
                      help="exit 1 when either side given is more exploitable than X bb/hand, measured from the "
                           "exact equilibrium value (one side alone too; the two sides sum to nash_conv)")
    add_output(p)
    p.set_defaults(func=cmd_verify)

    p = add_parser(sub, "export", help="the game for other tools: efg, a Gambit extensive-form file OpenSpiel loads")
    p.add_argument("format", choices=("efg",), help="efg: Gambit's .efg (pyspiel.load_efg_game reads it)")
    add_structure(p)
    p.add_argument("--out", required=True, metavar="FILE",
                   help="the .efg file to write (an existing file is replaced only if sflp wrote it; a FIFO, "
                        "device or symlink is refused); - for standard output")
    add_output(p, verbose=False)  # export solves no LP: there is no solver log to show
    p.set_defaults(func=cmd_export)

    p = add_parser(sub, "approx", help="run one approximate solver and trace its exploitability")
    p.add_argument("method", help="fictitious-play, cfr+, rl-linear-q, rl-tabular or direct")
    add_structure(p)
    p.add_argument("--iterations", type=whole("--iterations", 1), default=None,
                   help="stop after N iterations (default: the method's own count when --seconds is not given)")
    p.add_argument("--seconds", type=number("--seconds"), default=None,
                   help="stop at the first check past T seconds of the run's wall clock, counted from when the "
                        "reference solution is ready; the RL methods plan their hands from T (default: no limit)")
    p.add_argument("--seed", type=whole("--seed"), default=0, help="random seed (the sampling methods)")
    add_output(p)
    p.set_defaults(func=cmd_approx)

    p = add_parser(sub, "approx-bench", help="all approximate solvers at several stacks: CSV + log-log PNG")
    p.add_argument("--stacks", default="5,10,20", help="START:STOP:STEP or a comma list of stacks in bb")
    add_structure(p, stack=False)
    p.add_argument("--seconds", type=number("--seconds"), default=2.0,
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
