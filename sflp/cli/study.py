"""``sflp verify``, ``approx``, ``approx-bench``, ``simulate`` and ``export``: other strategies and
solvers, scored against the exact game, and the game handed to other tools."""

from __future__ import annotations

import math
import sys
from pathlib import Path

from sflp.checks import parse_stacks
from sflp.cli.options import (
    Bar,
    add_lock,
    add_output,
    add_parser,
    add_structure,
    check_structure,
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
    from sflp.openspiel.efg import structure_text
    from sflp.openspiel.game import policy_game, same_game

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
    if args.policy_dir is not None and (args.policy is not None or args.sb is not None or args.bb is not None
                                        or args.efg is not None):
        raise ConfigError("sflp verify takes --policy-dir DIR alone (one policy per stack in it), not with "
                          "--policy, --sb/--bb or --efg")
    if args.sb is None and args.bb is None and args.policy is None and args.policy_dir is None:
        raise ConfigError("sflp verify needs --sb SPEC, --bb SPEC or both (a file or a range string), "
                          "or --policy FILE (an OpenSpiel policy)")
    bounds = _gate_bounds(args)
    pair = args.policy is not None or args.policy_dir is not None or (args.sb is not None and args.bb is not None)
    for name in ("max_nash_conv", "max_gain"):
        if name in bounds and not pair:
            raise ConfigError(f"{GATES[name]} judges a pair of strategies: give both players (--policy, or --sb and "
                              "--bb); --max-exploitability judges one side alone")
    if args.policy_dir is not None:
        return _verify_policy_dir(args, bounds)
    if args.out is not None:
        raise ConfigError("--out DIR writes a policy set's table (--policy-dir); one policy's report is "
                          "printed (--json for JSON)")
    if args.stacks is not None:
        raise ConfigError("--stacks picks the stacks of --policy-dir DIR; one policy is scored at --stack S")
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


def _verify_policy_dir(args, bounds) -> int:
    """``sflp verify --policy-dir DIR [--stacks ...]``: every stack's policy, one table."""
    from sflp.cli.options import TYPED
    from sflp.openspiel.stacks import policy_folder, verify_stacks
    from sflp.report.stack_sets import format_scores, scores_dict, write_scores
    from sflp.testing import judge

    if not args.policy_dir:
        raise ConfigError("--policy-dir '' is empty: give the folder of policy files, one per stack (10bb.json)")
    if "--stack" in TYPED:
        raise ConfigError(f"--stack {TYPED['--stack']} scores one policy: with --policy-dir the stacks are the "
                          "files' (choose some with --stacks 5,10,15)")
    out_dir = Path(args.out) if args.out is not None else None
    if out_dir is not None:
        from sflp.report.stack_sets import SCORES_KIND
        from sflp.report.stack_sets import check_target as check_set

        if not args.out:
            raise ConfigError("--out '' is empty: give the folder for verify_stacks.csv and .json")
        check_set(out_dir, SCORES_KIND)
    stacks = parse_stacks(args.stacks) if args.stacks is not None else None
    found, skipped = policy_folder(args.policy_dir, stacks)
    check_structure(args)  # the blinds and antes alone: each stack is checked with its file, naming it
    base = config_from(args, stack=2 * (args.small_blind + args.big_blind + 2 * args.ante + args.bb_ante) + 1)
    policies = {s: p for s, (_, p) in found.items()}
    sources = {s: name for s, (name, _) in found.items()}
    with Bar(len(policies), "verify", "stack", show_progress(args)) as bar:
        scores = verify_stacks(policies, base, sources=sources, folder=args.policy_dir, skipped=skipped,
                               progress=lambda _: bar.add())
    verdicts = [judge(s.report, **bounds) for s in scores.scores] if bounds else None
    files = None
    if out_dir is not None:
        from sflp.cli.options import keep_printer

        files = write_scores(scores, out_dir, verdicts, on_keep=keep_printer(out_dir))
    if args.json:
        out = scores_dict(scores, verdicts)
        if files:
            out["files"] = {k: str(v) for k, v in files.items()}
        print_json(out)
    else:
        print(format_scores(scores, verdicts, files, width=terminal_width()))
    if verdicts is not None and not all(v.passed for v in verdicts):
        if not args.json:
            failed = [f"{s.stack:g}" for s, v in zip(scores.scores, verdicts) if not v.passed]
            print(f"\nFAIL: the gate failed at {len(failed)} of {len(verdicts)} stacks ({', '.join(failed)} bb)",
                  file=sys.stderr)
        return 1
    return 0


def _say(text: str) -> None:
    """Print a message of export's, each line wrapped to the terminal (paths and code unbroken)."""
    import textwrap

    width = terminal_width()
    print("\n".join(wrapped for line in text.split("\n")
                    for wrapped in textwrap.wrap(line, width, break_long_words=False, break_on_hyphens=False,
                                                 subsequent_indent="  ") or [""]))


def cmd_export(args) -> int:
    from sflp.openspiel.efg import efg_text, write_efg

    if args.format == "npz":
        return _export_npz(args)
    if args.stacks is not None:
        if args.combos:
            raise ConfigError("--combos writes one stack's combo-level game (354 MB): give --stack S, not --stacks")
        return _export_efg_set(args)
    from sflp.openspiel.combo import combo_efg_chunks, write_combo_efg

    if args.stack is None:
        raise ConfigError("sflp export efg needs --stack S (one file), or --stacks 5,10,15 and --out DIR "
                          "(one file per stack)" if not args.combos else "sflp export efg --combos needs --stack S")
    if not args.out:
        raise ConfigError("--out '' is empty: give the .efg file to write, or - for standard output")
    if Path(args.out).suffix.lower() == ".npz":
        raise ConfigError(f"--out {args.out}: sflp export efg writes a Gambit .efg text file, not an .npz; name it "
                          ".efg (sflp export npz writes the .npz)")
    config = config_from(args)
    chunks, write = (combo_efg_chunks, write_combo_efg) if args.combos else (lambda c: (efg_text(c),), write_efg)
    if args.out == "-":
        if args.json:
            raise ConfigError("--out - writes the .efg text itself to stdout: it cannot also be --json")
        for chunk in chunks(config):
            sys.stdout.write(chunk)
        return 0
    summary = write(config, args.out)
    if args.json:
        print_json({**summary.to_dict(), "level": "combo" if args.combos else "class"})
    elif args.combos:
        _say(f"Wrote {summary.path}: {summary.bytes / 1e6:.0f} MB, the 1,326-combo game ({summary.terminals:,} "
              f"terminal nodes), in {summary.seconds:.1f} s.\nOpenSpiel loads it in about 10 s and 4 GB: "
              f"pyspiel.load_efg_game(open({str(summary.path)!r}).read()); a policy on it names combo states "
              "(0-0-1310-AhKd), scored by sflp verify --policy FILE --efg FILE")
    else:
        _say(f"Wrote {summary.path}: {summary.bytes / 1e6:.1f} MB, {summary.info_sets} information sets, "
              f"{summary.terminals:,} terminal nodes, in {summary.seconds:.2f} s.\n"
              f"Load it in OpenSpiel: pyspiel.load_efg_game(open({str(summary.path)!r}).read())")
    return 0


def _export_npz(args) -> int:
    """``sflp export npz --stack S --out FILE.npz``: the combo-level sequence form as numpy arrays."""
    from sflp.openspiel.combo import write_sequence_form

    if args.stacks is not None or args.combos:
        raise ConfigError("sflp export npz writes one stack's combo-level sequence form: give --stack S "
                          "(it is always at combo level; --stacks and --combos are for efg)")
    if args.stack is None:
        raise ConfigError("sflp export npz needs --stack S")
    if args.out in ("", "-"):
        raise ConfigError(f"--out {args.out!r}: give the .npz file to write (binary: not to standard output)")
    if Path(args.out).suffix.lower() == ".efg":
        raise ConfigError(f"--out {args.out}: sflp export npz writes an .npz (numpy arrays), not an .efg; name it .npz")
    summary = write_sequence_form(config_from(args), args.out)
    if args.json:
        print_json(summary.to_dict())
    else:
        _say(f"Wrote {summary.path}: {summary.bytes / 1e6:.1f} MB, the 1,326-combo game's sequence form "
              f"(arrays chance, sb_fold, a_fold, a_call, wins, ties), in {summary.seconds:.1f} s.\n"
              "Read it with numpy.load; docs/OPENSPIEL.md, Combo level, shows the value and best responses.")
    return 0


def _export_efg_set(args) -> int:
    """``sflp export efg --stacks LIST --out DIR``: one ``<stack>bb.efg`` per stack in a folder sflp owns."""
    import dataclasses
    import time

    from sflp.cli.options import lock_options
    from sflp.report.stack_sets import write_efg_set

    if args.stack is not None:
        raise ConfigError("give --stack S (one file) or --stacks LIST (a folder of files), not both")
    if args.out in ("", "-"):
        raise ConfigError(f"--out {args.out!r}: with --stacks, give the folder to write one .efg per stack into "
                          "(--out - writes one stack's text: use --stack)")
    stacks = parse_stacks(args.stacks)
    if len(stacks) > MAX_EFG_SET:
        raise ConfigError(f"--stacks {args.stacks}: {len(stacks):,} stacks, more than {MAX_EFG_SET} files of ~6 MB "
                          "each in one folder: export fewer")
    check_structure(args)
    base = config_from(args, stack=max(stacks))
    configs = []
    for s in stacks:  # each stack checked before any file
        try:
            configs.append(dataclasses.replace(base, stack=s))
        except ConfigError as exc:
            why = str(exc).replace(f"stack={s!r}", f"the stack {s:g}")
            raise ConfigError(f"--stacks {args.stacks}: {why}") from None
    out_dir = Path(args.out)
    if out_dir.suffix.lower() == ".efg":
        raise ConfigError(f"--out {args.out}: with --stacks, --out is a folder (one <stack>bb.efg per stack), "
                          "not an .efg file")
    from sflp.report.stack_sets import EFG_SET_KIND
    from sflp.report.stack_sets import check_target as check_set

    check_set(out_dir, EFG_SET_KIND)
    start = time.perf_counter()
    with Bar(len(configs), "export", "file", show_progress(args)) as bar:
        paths = write_efg_set(configs, out_dir, progress=lambda _: bar.add(), **lock_options(args, out_dir))
    seconds = time.perf_counter() - start
    sizes = [p.stat().st_size for p in paths]
    if args.json:
        print_json({"folder": str(out_dir), "seconds": seconds, **{k: v for k, v in base.as_dict().items()
                                                                  if k != "stack"},
                    "files": [{"stack": c.stack, "path": str(p), "bytes": n}
                              for c, p, n in zip(configs, paths, sizes)]})
    else:
        files = f"{len(paths)} .efg file{'s' if len(paths) != 1 else ''}"
        _say(f"Wrote {files} into {out_dir} ({sum(sizes) / 1e6:.1f} MB, {seconds:.2f} s): "
              + ", ".join(p.name for p in paths[:6]) + (", ..." if len(paths) > 6 else "")
              + f"\nA solver's policies saved beside them as {paths[0].stem}.json ... are scored in one call: "
              f"sflp verify --policy-dir DIR")
    return 0


MAX_EFG_SET = 200
"""``sflp export efg --stacks`` writes at most this many files (~6 MB each) in one folder."""


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
                        "TabularPolicy.serialize(); class states (0-0-2-AKs) or combo states (0-0-1310-AhKd); "
                        "scored exactly, in the game it names if it names one")
    p.add_argument("--exact", action="store_true",
                   help="add the exact figures as fractions: each player's best-response gain and their sum "
                        "(OpenSpiel's nash_conv); always on with --policy")
    p.add_argument("--policy-dir", default=None, metavar="DIR",
                   help="score a solver's policies at several stacks in one call: one policy file per stack "
                        "in DIR (*.json, or *.txt from serialize()), its stack the game it names or its "
                        "name (10bb.json, cfr_12.5bb.json, 10.json); one table, the worst stack named")
    p.add_argument("--stacks", default=None, metavar="LIST",
                   help="with --policy-dir: score these stacks only (5,10,15 or START:STOP:STEP), each "
                        "must have its file")
    p.add_argument("--out", default=None, metavar="DIR",
                   help="with --policy-dir: also write verify_stacks.csv and verify_stacks.json into DIR "
                        "(a folder sflp owns, like a chart set's)")
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

    p = add_parser(sub, "export", help="the game for other tools: efg, a Gambit extensive-form file OpenSpiel loads, "
                                       "or npz, the combo-level sequence form")
    p.add_argument("format", choices=("efg", "npz"),
                   help="efg: Gambit's .efg (pyspiel.load_efg_game reads it); npz: the 1,326-combo game's "
                        "sequence form as numpy arrays (10 MB)")
    p.add_argument("--combos", action="store_true",
                   help="efg at combo level: 1,326 hands a player, one stack (354 MB at 10 bb; OpenSpiel loads it "
                        "in about 10 s and 4 GB)")
    add_structure(p, stack_from="one file per stack of --stacks")
    p.add_argument("--stacks", default=None, metavar="LIST",
                   help="several stacks (5,10,15 or START:STOP:STEP): one <stack>bb.efg each (10bb.efg) "
                        "in the folder --out DIR, which sflp owns like a chart set's")
    p.add_argument("--out", required=True, metavar="FILE",
                   help="the .efg file to write (an existing file is replaced only if sflp wrote it; a FIFO, "
                        "device or symlink is refused); - for standard output; with --stacks, the folder")
    add_lock(p)
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
