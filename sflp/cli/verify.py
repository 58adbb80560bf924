"""``sflp verify``: strategies and OpenSpiel policies scored against the exact game, one policy
or a solver's policies at several stacks, with a gate for CI."""

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
    check_structure,
    config_from,
    load_spec,
    number,
    print_json,
    say,
    show_progress,
    terminal_width,
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
    from sflp.openspiel.game import same_game
    from sflp.openspiel.policy import named_game

    named = []
    if args.efg is not None:
        from sflp.openspiel import efg_config

        if not args.efg:
            raise ConfigError("--efg '' is empty: give the .efg file sflp export efg wrote")
        named.append((f"--efg {args.efg}", efg_config(args.efg)))
    own = named_game(policy) if policy is not None else None
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


class _NotedWarnings:
    """Each :class:`sflp.openspiel.GameNotNamed` warning of the block printed once on stderr, as
    ``sflp: warning: ...`` (never on stdout, which is the command's output), and the
    :class:`sflp.openspiel.PolicyRenormalised` warnings as one line: the worst of them, and how many
    policies were renormalised."""

    def __enter__(self):
        import warnings

        from sflp.openspiel.policy import GameNotNamed, PolicyRenormalised

        self._catch = warnings.catch_warnings(record=True)
        self._seen = self._catch.__enter__()
        warnings.simplefilter("always", GameNotNamed)
        warnings.simplefilter("always", PolicyRenormalised)
        return self

    def __exit__(self, *exc) -> None:
        from sflp.openspiel.policy import GameNotNamed, PolicyRenormalised

        self._catch.__exit__(*exc)
        printed = set()
        for w in self._seen:
            text = str(w.message)
            if issubclass(w.category, GameNotNamed) and text not in printed:
                printed.add(text)
                say("warning", text)
        renormalised = [w.message for w in self._seen if isinstance(w.message, PolicyRenormalised)]
        if renormalised:
            worst = max(renormalised, key=lambda m: m.worst)
            more = f" ({len(renormalised)} policies renormalised; this is the worst)" if len(renormalised) > 1 else ""
            say("warning", f"{worst}{more}")


def _check_best_response(args) -> None:
    """``--best-response OUT`` before any work: with ``--policy`` only, and a target sflp may write."""
    if args.best_response is None:
        return
    if args.policy is None:
        raise ConfigError("--best-response OUT writes the best responses to one --policy FILE: give --policy")
    if not args.best_response:
        raise ConfigError("--best-response '' is empty: give the JSON file to write")
    from sflp.atomic import check_file_target
    from sflp.openspiel.best_response import is_ours

    check_file_target(Path(args.best_response), ".json", is_ours)


def _write_best_response(args, policy, config) -> None:
    """Both players' exact best responses to the policy, as OpenSpiel tables with every hand's
    margin, written to ``--best-response OUT`` (said on stderr: stdout is the report)."""
    from sflp.openspiel.best_response import best_response, write_best_response

    result = best_response(policy, config, source=args.policy)
    path = write_best_response(result, args.best_response)
    print(f"sflp: best responses written to {path} (SB gains {float(result.gain('sb')):.6g}, BB "
          f"{float(result.gain('bb')):.6g} bb/hand)", file=sys.stderr)


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
        if args.best_response is not None:
            raise ConfigError("--best-response OUT writes the best responses to one --policy FILE, not to "
                              "--policy-dir")
        return _verify_policy_dir(args, bounds)
    _check_best_response(args)
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

        with _NotedWarnings():
            report = verify_policy(policy, config, source=args.policy, require_game=args.require_game)
        if args.best_response is not None:
            _write_best_response(args, policy, config)
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
    from sflp.openspiel.stacks import policy_folder, policy_iterates, verify_stacks
    from sflp.testing import judge
    from sflp.views.stack_sets import format_scores, scores_dict, write_scores

    if not args.policy_dir:
        raise ConfigError("--policy-dir '' is empty: give the folder of policy files, one per stack (10bb.json)")
    if "--stack" in TYPED:
        raise ConfigError(f"--stack {TYPED['--stack']} scores one policy: with --policy-dir the stacks are the "
                          "files' (choose some with --stacks 5,10,15)")
    out_dir = Path(args.out) if args.out is not None else None
    if out_dir is not None:
        from sflp.output.target import check_target
        from sflp.views.stack_sets import SCORES_KIND

        check_target(out_dir, SCORES_KIND)
    stacks = parse_stacks(args.stacks) if args.stacks is not None else None
    iterates = policy_iterates(args.policy_dir, stacks)
    curves = None
    if iterates is None:
        found, skipped = policy_folder(args.policy_dir, stacks)
        base = _folder_base(args, found.values())
        policies = {s: p for s, (_, p) in found.items()}
        sources = {s: name for s, (name, _) in found.items()}
        with Bar(len(policies), "verify", "stack", show_progress(args)) as bar:
            with _NotedWarnings():
                scores = verify_stacks(policies, base, sources=sources, folder=args.policy_dir, skipped=skipped,
                                       progress=lambda _: bar.add(), require_game=args.require_game)
    else:
        runs, skipped = iterates
        base = _folder_base(args, [v for by_it in runs.values() for v in by_it.values()])
        scores, curves = _score_iterates(args, runs, base, skipped)
    verdicts = [judge(s.report, **bounds) for s in scores.scores] if bounds else None
    files = None
    if out_dir is not None:
        from sflp.cli.options import keep_printer

        files = write_scores(scores, out_dir, verdicts, on_keep=keep_printer(out_dir), curves=curves)
    if args.json:
        out = scores_dict(scores, verdicts)
        if curves is not None:
            out["curves"] = curves
        if files:
            out["files"] = {k: str(v) for k, v in files.items()}
        print_json(out)
    else:
        text = format_scores(scores, verdicts, files, width=terminal_width())
        print(text if curves is None else "\n".join([_curve_lines(curves, terminal_width()), "", text]))
    if verdicts is not None and not all(v.passed for v in verdicts):
        if not args.json:
            failed = [f"{s.stack:g}" for s, v in zip(scores.scores, verdicts) if not v.passed]
            print(f"\nFAIL: the gate failed at {len(failed)} of {len(verdicts)} stacks ({', '.join(failed)} bb)",
                  file=sys.stderr)
        return 1
    return 0


def _score_iterates(args, runs, base, skipped):
    """Every iterate of every stack scored exactly: the curve's rows, and the stacks' table of
    their last iterates (what the gate judges)."""
    import dataclasses

    from sflp.errors import NotationError
    from sflp.openspiel import verify
    from sflp.openspiel.stacks import StackScore, StackScores
    from sflp.views.curves import curve_row

    rows, last = [], []
    total = sum(len(r) for r in runs.values())
    with Bar(total, "verify", "iterate", show_progress(args)) as bar, _NotedWarnings():
        for stack, by_iteration in runs.items():
            config = dataclasses.replace(base, stack=stack)
            for iteration, (name, policy) in by_iteration.items():
                try:
                    report = verify(policy, config, source=name, require_game=args.require_game)
                except (ConfigError, NotationError) as exc:
                    raise type(exc)(f"{name} ({stack:g} bb): {exc}") from None
                rows.append(curve_row(stack, iteration, report, name))
                bar.add()
            last.append(StackScore(float(stack), name, report))
    return StackScores(tuple(last), base, args.policy_dir, tuple(skipped)), rows


def _curve_lines(rows, width: int = 80) -> str:
    """The curve as text: per stack, nash_conv at each iteration (the first, the last and at
    most six between), in lines of at most ``width`` characters (a stack's cells wrap under its
    first cell)."""
    import textwrap

    from sflp.charts.text import fmt_num

    head = (f"{len(rows)} iterates scored exactly: nash_conv (bb/hand) by iteration; the table below is each "
            "stack's last")
    lines = textwrap.wrap(head, max(width, 40))
    thinned = False
    for stack in dict.fromkeys(r["stack"] for r in rows):
        its = [r for r in rows if r["stack"] == stack]
        shown = its if len(its) <= 8 else [its[round(k * (len(its) - 1) / 7)] for k in range(8)]
        thinned |= len(shown) < len(its)
        cells = [f"it{r['iteration']} {r['nash_conv']:.3g}" for r in shown]
        if len(shown) < len(its):
            cells.append(f"({len(shown)} of {len(its)} shown)")
        lead = f"  {fmt_num(stack):>6} bb  "
        line = lead
        for cell in cells:
            if line.strip() and len(line) + len(cell) > width:
                lines.append(line.rstrip())
                line = " " * len(lead)
            line += cell + "  "
        lines.append(line.rstrip())
    if thinned:
        lines += textwrap.wrap("every iterate is in --json's \"curves\" and in curves.csv (--out DIR)", max(width, 40),
                               initial_indent="  ", subsequent_indent="  ")
    return "\n".join(lines)


def _named_structure(policies):
    """The structure (blinds and antes) the policies name, when some do (all alike: policies of two
    structures in one folder are refused), else None."""
    from sflp.openspiel.efg import structure_text
    from sflp.openspiel.game import same_game
    from sflp.openspiel.policy import named_game

    first = None
    for name, policy in policies:
        game = named_game(policy)
        if game is None:
            continue
        if first is None:
            first = (name, game)
        elif not same_game(first[1], game.with_stack(first[1].stack)):
            one, two = (structure_text(g).split(", ", 1)[1] for g in (first[1], game))
            raise ConfigError(f"the policies of one folder name two structures: {first[0]} {one}, {name} {two}")
    return None if first is None else first[1]


def _folder_base(args, policies=()):
    """The blinds and antes of ``--policy-dir``: the folder's own when sflp wrote it (its
    manifest, or its ``.efg`` titles: :func:`sflp.openspiel.stacks.folder_structure`), an option
    typed that contradicts them refused, naming both; else the options'."""
    from sflp.cli.options import STRUCTURE_OPTIONS, TYPED
    from sflp.openspiel.efg import exact_text, structure_text
    from sflp.openspiel.stacks import folder_structure

    own, what = folder_structure(args.policy_dir), f"the policy folder {args.policy_dir}, whose games sflp exported"
    if own is None:
        own, what = _named_structure(policies), f"the policies of {args.policy_dir}, whose states name their games"
    if own is None:
        check_structure(args)  # the blinds and antes alone: each stack is checked with its file, naming it
        return config_from(args, stack=2 * (args.small_blind + args.big_blind + 2 * args.ante + args.bb_ante) + 1)
    for field, option in STRUCTURE_OPTIONS.items():
        value = getattr(args, field, None)
        if field != "stack" and option in TYPED and value is not None and float(value) != float(getattr(own, field)):
            raise ConfigError(f"{option} {TYPED[option]} contradicts {what} with {option} "
                              f"{exact_text(getattr(own, field))} "
                              f"({structure_text(own).split(', ', 1)[1]}): leave {option} out (the games come from "
                              "the folder), or export the games of that structure")
    return own


def add_commands(sub) -> None:
    """verify."""
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
    p.add_argument("--best-response", default=None, metavar="OUT",
                   help="with --policy: also write each player's exact best response to it as an OpenSpiel policy "
                        "table (JSON), with every hand's exact margin, its value and its gain, to OUT")
    p.add_argument("--require-game", action="store_true",
                   help="refuse a policy that names no game (states of an older export, without '@<game>', and "
                        "no \"_sflp_game\" entry) instead of scoring it in the game asked with a warning")
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
