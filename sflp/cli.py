"""The ``sflp`` command line: a thin layer over the library.

Every subcommand has ``--json`` (one JSON object on stdout) and readable text otherwise; both
come from the library's output layer (:mod:`sflp.format`, or the formatter next to the result
type), so this module only parses arguments, calls the library and prints.
Library errors (:class:`~sflp.errors.SflpError`) become one line on stderr and exit code 2 at
one place, :func:`main`; anything else is a bug and shows its traceback.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from pathlib import Path

from sflp import __version__
from sflp.checks import parse_stacks
from sflp.errors import ConfigError, SflpError
from sflp.format import ev_margin_grids, format_solution, format_written, json_text, solution_dict  # noqa: F401
from sflp.format import threshold_grid as _threshold_grid  # noqa: F401  (old cli names, kept importable)

# ------------------------------------------------------------------ shared options


def _number(name: str):
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} {text!r} is not a number") from None
        if math.isinf(value) and "inf" not in text.lower():  # 1e400: name the input, not "inf"
            raise argparse.ArgumentTypeError(f"{name} {text!r} is too large for a float (at most ~1.8e308)")
        return value  # nan / inf themselves are refused by the check of the option's value

    return parse


def _whole(name: str, low: int = 0):
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} {text!r} is not a whole number") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"{name} {text!r} must be at least {low}")
        return value

    return parse


def _solver_name(text: str) -> str:
    if not text.strip():
        raise argparse.ArgumentTypeError("--solver '' is empty: give a cvxpy solver name such as HIGHS")
    return text


def _add_structure(p: argparse.ArgumentParser, stack: bool = True) -> None:
    g = p.add_argument_group("game")
    if stack:
        g.add_argument("--stack", type=_number("--stack"), required=True, help="effective stack in bb, before posting")
    g.add_argument("--small-blind", type=_number("--small-blind"), default=0.5, help="small blind in bb (live)")
    g.add_argument("--big-blind", type=_number("--big-blind"), default=1.0, help="big blind in bb (live)")
    g.add_argument("--ante", type=_number("--ante"), default=0.0, help="ante per player in bb (dead)")
    g.add_argument("--bb-ante", type=_number("--bb-ante"), default=0.0,
                   help="big-blind ante in bb, paid by BB only (dead)")


def _add_lock(p: argparse.ArgumentParser) -> None:
    p.add_argument("--no-wait", action="store_true",
                   help="fail at once if another sflp run is writing the same --out folder (default: wait for it)")


def _keep_printer(out_dir: Path | str):
    """``on_keep``: say on stderr which of the user's files a run kept in ``out_dir``."""
    return lambda names: print(
        f"sflp: kept {len(names)} file(s) in {out_dir} that sflp did not write: "
        + ", ".join(names[:8]) + (", ..." if len(names) > 8 else ""), file=sys.stderr)


def _lock_options(args, out_dir: Path | None) -> dict:
    """``wait`` / ``on_wait`` / ``on_keep`` for a staged output folder: wait and say so once (or fail at
    once), and say which of the user's files were kept (``out_dir`` None: the default folder)."""
    out_dir = "the output folder" if out_dir is None else out_dir
    return {
        "wait": not args.no_wait,
        "on_wait": lambda: print(f"sflp: waiting for another sflp run writing {out_dir} ...", file=sys.stderr),
        "on_keep": _keep_printer(out_dir),
    }


def _add_output(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    p.add_argument("--no-color", action="store_true", help="no ANSI colours in text output")
    p.add_argument("--verbose", action="store_true",
                   help="show the LP solver's own log (on stderr; stdout stays the command's output)")


def _config(args, stack: float | None = None):
    from sflp.game import GameConfig

    return GameConfig(
        stack=args.stack if stack is None else stack,
        small_blind=args.small_blind,
        big_blind=args.big_blind,
        ante=args.ante,
        bb_ante=args.bb_ante,
    )


def _print_json(obj) -> None:
    print(json_text(obj))


def _use_color(args) -> bool:
    return not getattr(args, "no_color", False) and sys.stdout.isatty() and os.environ.get("NO_COLOR") is None


PROGRESS_DELAY = 2.0
"""Seconds before a progress bar appears: quick runs stay quiet."""


def _show_progress(args) -> bool:
    """Progress bars only on a terminal (stderr) and never with --json."""
    return not getattr(args, "json", False) and sys.stderr.isatty()


class _Bar:
    """A tqdm bar on stderr that appears after PROGRESS_DELAY seconds (or does nothing)."""

    def __init__(self, total: float, desc: str, unit: str, enabled: bool, **kw) -> None:
        self.done = 0
        self.bar = None
        if enabled:
            from tqdm import tqdm

            self.bar = tqdm(total=total, desc=desc, unit=unit, file=sys.stderr, leave=False, delay=PROGRESS_DELAY,
                            dynamic_ncols=True, **kw)

    def add(self, n=1) -> None:
        self.done += n
        if self.bar is not None:
            self.bar.update(n)

    def share(self, share: float) -> None:
        """Set a 0..100 bar to ``share`` (0..1) of its budget."""
        target = round(100 * min(1.0, max(0.0, share)))
        if target > self.done:
            self.add(target - self.done)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


# ------------------------------------------------------------------ equity


def cmd_equity(args) -> int:
    from sflp import equity as eq

    if args.hands and args.hands[0] == "build":
        if len(args.hands) != 1:
            raise ConfigError("usage: sflp equity build [--data-dir DIR]")
        eq.check_target_dir(args.data_dir if args.data_dir is not None else eq.build_target_dir())
        start = time.perf_counter()
        path = eq.build_table(args.data_dir, progress=_show_progress(args))  # a bar only on a terminal
        seconds = time.perf_counter() - start
        sha = eq.read_checksum(Path(path).parent)
        if args.json:
            _print_json({"path": str(path), "sha256": sha, "seconds": seconds})
        else:
            from sflp.format import format_table_build

            print(format_table_build(path, sha, seconds))
        return 0
    if len(args.hands) != 2:
        raise ConfigError(
            f"sflp equity takes two hands, classes or ranges (got {len(args.hands)}): "
            "e.g. `sflp equity AhAd KcKs`, `sflp equity AA KK`, `sflp equity \"QQ+,AKs\" 22+`, or `sflp equity build`"
        )
    table = eq.load_table(args.data_dir)
    result = eq.equity(args.hands[0], args.hands[1], table)
    if args.json:
        _print_json(result.to_dict())
        return 0
    from sflp.format import format_equity

    print(format_equity(result))
    return 0


# ------------------------------------------------------------------ solve


def cmd_solve(args) -> int:
    from sflp.solver import solve

    config = _config(args)
    out_dir = Path(args.out) if args.out else None
    if out_dir is not None:
        _check_target(out_dir)
    # always certified: every number printed is the exact solution rounded once, so no solver
    # build or BLAS can change a digit (--exact is kept for scripts that pass it)
    solution = solve(config, level="combo" if args.combos else "class", solver=args.solver, exact=True)
    files = None
    if out_dir is not None:
        from sflp.report import write_solution

        files = write_solution(solution, out_dir, **_lock_options(args, out_dir))
    if args.json:
        obj = solution_dict(solution)
        if files is not None:
            obj["files"] = files
        _print_json(obj)
    else:
        print(format_solution(solution, _use_color(args)))
        if files:
            print("\n" + format_written(files))
    return 0


# ------------------------------------------------------------------ chart


class _Progress:
    """Progress of a chart job on stderr (a terminal only): thresholds, solving, then each file
    group.  Bars are left on screen when their phase ends, so the job never looks stalled."""

    def __init__(self, enabled: bool):
        self.enabled = enabled
        self.bar = None
        self.phase = None

    def _bar(self, phase: str, total, unit: str):
        if self.phase != phase:
            self.close()
            from tqdm import tqdm

            self.phase = phase
            self.bar = tqdm(total=total, desc=phase, unit=unit, file=sys.stderr, leave=True,
                            dynamic_ncols=True, bar_format=None)
        return self.bar

    def __call__(self, phase: str, done: float, total: float) -> None:
        """``progress`` of :func:`sflp.chart`: thresholds (bb covered), solving (stacks), writing."""
        if not self.enabled:
            return
        if phase == "thresholds":
            bar = self._bar("thresholds", 100, "%")
            n = round(100 * min(1.0, done / total)) if total > 0 else 100
        elif phase == "solving":
            bar = self._bar("solving", total, "stack")
            n = done
        else:
            bar = self._bar("writing files", total, "format")
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
    from sflp.checks import parse_grid_stacks
    from sflp.format import format_chart_summary
    from sflp.game import default_stacks, min_stack
    from sflp.report.chart import chart

    # the options' own texts are parsed here, so that errors name the option
    stacks = parse_stacks(args.stacks) if args.stacks is not None else None
    span = stacks or default_stacks(args.big_blind, args.ante, args.bb_ante)
    grid_stacks = parse_grid_stacks(args.grid_stacks, span[0], span[-1])
    progress = _Progress(not args.json and sys.stderr.isatty())
    try:
        config = _config(args, stack=min_stack(args.big_blind, args.ante, args.bb_ante))
        result = chart(config, stacks, out=args.out, formats=args.formats, ranges=args.ranges,
                       exact=args.exact, grid_stacks=grid_stacks, progress=progress,
                       **_lock_options(args, Path(args.out) if args.out else None))
    finally:
        progress.close()
    if args.json:
        _print_json(result.to_dict())
        return 0
    print(format_chart_summary(result.to_dict(), result.thresholds, _use_color(args)))
    return 0


def _check_target(out_dir: Path) -> None:
    """Fail before any work when ``--out`` cannot take a report (a file, or a folder of other files)."""
    from sflp.report.staging import check_target

    check_target(out_dir)


# ------------------------------------------------------------------ verify / approx / simulate


def cmd_verify(args) -> int:
    from sflp.strategy import load_strategy
    from sflp.verify import exceeds, format_text, verify

    if args.sb is None and args.bb is None:
        raise ConfigError("sflp verify needs --sb SPEC, --bb SPEC or both (a file or a range string)")
    bound = args.max_exploitability
    if bound is not None and not (math.isfinite(bound) and bound >= 0):
        raise ConfigError(f"--max-exploitability {bound!r} must be a finite number >= 0 (bb per hand)")
    config = _config(args)
    sb = load_strategy(args.sb, "sb") if args.sb is not None else None
    bb = load_strategy(args.bb, "bb") if args.bb is not None else None
    report = verify(config, sb, bb)
    if args.json:
        _print_json(report.to_dict())
    else:
        print(format_text(report))
    if args.max_exploitability is not None and exceeds(report, args.max_exploitability):
        if not args.json:
            print(f"\nFAIL: exploitability above --max-exploitability {args.max_exploitability:g} bb", file=sys.stderr)
        return 1
    return 0


def cmd_approx(args) -> int:
    from sflp.approx import format_text, run
    from sflp.approx.common import observe_progress

    with _Bar(100, args.method, "%", _show_progress(args), bar_format="{desc}: {percentage:3.0f}%|{bar}| "
              "[{elapsed}<{remaining}]") as bar, observe_progress(bar.share):
        result = run(args.method, _config(args), iterations=args.iterations, seconds=args.seconds, seed=args.seed)
    if args.json:
        _print_json(result.to_dict())
    else:
        print(format_text(result))
    return 0


def cmd_approx_bench(args) -> int:
    from sflp.approx.bench import approx_bench
    from sflp.report.approx_bench import write_approx_bench

    stacks = parse_stacks(args.stacks)
    out_dir = Path(args.out)
    _check_target(out_dir)  # checked now (a folder of other files is refused), written at the end
    base = _config(args, stack=stacks[0])
    from sflp.approx import METHODS

    with _Bar(len(stacks) * len(METHODS), "approx-bench", "run", _show_progress(args)) as bar:
        results = approx_bench(stacks=stacks, seconds=args.seconds, seed=args.seed, base=base,
                               progress=lambda _: bar.add())
    files = write_approx_bench(results, out_dir, on_keep=_keep_printer(out_dir))
    from sflp.format import approx_bench_rows, format_approx_bench

    rows = approx_bench_rows(results)
    if args.json:
        _print_json({"files": files, "results": rows})
    else:
        print(format_approx_bench(rows, files))
    return 0


def cmd_simulate(args) -> int:
    from sflp.simulate import format_text, simulate

    if args.hands <= 0:
        raise ConfigError(f"--hands {args.hands} must be a positive whole number")
    with _Bar(args.hands, "simulate", "hand", _show_progress(args), unit_scale=True) as bar:
        report = simulate(_config(args), hands=args.hands, seed=args.seed, progress=bar.add)
    if args.json:
        _print_json(report.to_dict())
    else:
        print(format_text(report))
    return 0


# ------------------------------------------------------------------ study tools: rank, exploit, sc, compare


def cmd_rank(args) -> int:
    from sflp.equity import hand_ranking
    from sflp.format import format_rank, rank_dict

    rows = hand_ranking()
    if args.json:
        _print_json(rank_dict(rows))
        return 0
    print(format_rank(rows))
    return 0


def _locked_spec(args):
    from sflp.strategy import load_strategy

    if (args.sb is None) == (args.bb is None):
        raise ConfigError("sflp exploit needs exactly one of --bb SPEC (lock BB, exploit with SB) "
                          "or --sb SPEC (lock SB, exploit with BB)")
    return load_strategy(args.sb, "sb") if args.sb is not None else load_strategy(args.bb, "bb")


def cmd_exploit(args) -> int:
    if (args.stack is None) == (args.stacks is None):
        raise ConfigError("sflp exploit needs --stack S (one stack) or --stacks START:STOP:STEP (a chart set)")
    locked = _locked_spec(args)
    if args.stack is not None:
        from sflp.exploit import exploit, format_text

        report = exploit(_config(args), locked)
        if args.json:
            _print_json(report.to_dict())
        else:
            print(format_text(report))
        return 0
    from sflp.exploit import exploit_sweep
    from sflp.report import default_out_dir, write_chart_set

    stacks = parse_stacks(args.stacks)
    config = _config(args, stack=stacks[0])
    low, high = stacks[0], stacks[-1]
    if high <= low:
        raise ConfigError(f"--stacks {args.stacks!r}: an exploit chart set needs a stack range")
    hero = "sb" if locked.player == "bb" else "bb"
    out_dir = Path(args.out) if args.out else Path(
        str(default_out_dir(config, low, high)) + f"_exploit-{hero}"
    )
    _check_target(out_dir)
    sweep = exploit_sweep(config, locked, stacks)
    from sflp.format import exploit_sweep_dict, exploit_sweep_title, format_exploit_sweep

    title = exploit_sweep_title(locked)
    files = write_chart_set(sweep.solutions, sweep.thresholds, out_dir, extra_about=sweep.about(), title=title,
                            **_lock_options(args, out_dir))
    if args.json:
        _print_json(exploit_sweep_dict(sweep, locked, out_dir, files, stacks, config))
        return 0
    print(format_exploit_sweep(sweep, locked, out_dir, files, stacks))
    return 0


def cmd_sc(args) -> int:
    from sflp.format import sc_dict
    from sflp.game import GameConfig, min_stack
    from sflp.sc import format_text, sc_numbers

    config = GameConfig(
        stack=min_stack(args.big_blind, args.ante, args.bb_ante), small_blind=args.small_blind,
        big_blind=args.big_blind, ante=args.ante, bb_ante=args.bb_ante,
    )
    numbers = sc_numbers(config)
    if args.json:
        _print_json(sc_dict(config, numbers))
    else:
        print(format_text(config, numbers))
    return 0


_COMPARE_KEYS = {"sb": "small_blind", "small_blind": "small_blind", "bb": "big_blind", "big_blind": "big_blind",
                 "ante": "ante", "bb_ante": "bb_ante", "bb-ante": "bb_ante"}


def compare_side(text: str, stacks: str):
    """A chart for ``sflp compare``: a chart-set folder, or a configuration such as ``ante=0.125``.

    ``nash`` (or ``default``) is the default game; ``key=value`` pairs (``sb``, ``bb``, ``ante``,
    ``bb_ante``) separated by commas change it.  A configuration is solved exactly (its
    thresholds) over the ``--stacks`` range, raised to the smallest legal stack (``bb + antes``).
    """
    from sflp.compare import Chart
    from sflp.game import GameConfig

    path = Path(text)
    if path.is_dir():
        from sflp.report.compare import load_chart

        return load_chart(path, name=str(path))
    values = {}
    if text.strip().lower() not in ("nash", "default"):
        for part in text.split(","):
            key, eq, value = part.partition("=")
            key = key.strip().lower().lstrip("-")
            if eq and key in _COMPARE_KEYS and _COMPARE_KEYS[key] in values:
                raise ConfigError(f"compare: {text!r} sets {key} twice; give each of sb, bb, ante, bb_ante once")
            if not eq or key not in _COMPARE_KEYS:
                raise ConfigError(
                    f"compare: {text!r} is neither a chart-set folder nor a configuration such as "
                    "'ante=0.125' or 'sb=0.5,bb=1,ante=0.1,bb_ante=0' (or 'nash' for the default game)"
                )
            try:
                values[_COMPARE_KEYS[key]] = float(value)
            except ValueError:
                raise ConfigError(f"compare: {key}={value!r} in {text!r} is not a number") from None
            if not math.isfinite(values[_COMPARE_KEYS[key]]):
                raise ConfigError(f"compare: {key}={value!r} in {text!r} is not a finite number")
    try:
        low, high = (float(v) for v in stacks.split(":")[:2])
    except ValueError:
        raise ConfigError(f"--stacks {stacks!r}: compare needs LOW:HIGH, such as 1:25") from None
    if not 0 < low < high or not math.isfinite(high):
        raise ConfigError(f"--stacks {stacks!r}: compare needs a stack range LOW:HIGH with 0 < LOW < HIGH")
    config = GameConfig(stack=max(low, high), **values)
    low = max(low, config.min_stack)  # the smallest legal stack
    if not low < high:
        raise ConfigError(f"--stacks {stacks!r}: no legal stack range for {text!r}")
    from sflp.thresholds import compute_thresholds

    name = "nash " + ", ".join(f"{k}={v:g}" for k, v in config.as_dict().items() if k != "stack")
    return Chart.from_thresholds(name, compute_thresholds(config, low=low, high=high))


def cmd_compare(args) -> int:
    from sflp.compare import compare_charts
    from sflp.report.compare import write_compare

    out_dir = Path(args.out)
    _check_target(out_dir)  # checked now (a folder of other files is refused), written at the end
    a = compare_side(args.a, args.stacks)
    b = compare_side(args.b, args.stacks)
    diffs = compare_charts(a, b)
    files = write_compare(diffs, a, b, out_dir, on_keep=_keep_printer(out_dir))
    from sflp.format import compare_dict, format_compare

    if args.json:
        _print_json(compare_dict(a, b, diffs, out_dir, files))
        return 0
    print(format_compare(a, b, diffs, out_dir, files, args.top))
    return 0


def _add_study_commands(sub) -> None:
    p = _add_parser(sub, "rank", help="the 169 hands by exact equity against a random hand (percentage ranges)")
    _add_output(p)
    p.set_defaults(func=cmd_rank)

    p = _add_parser(sub, "exploit", help="best response to a locked opponent: range, value, gain, margins")
    g = p.add_argument_group("game")
    g.add_argument("--stack", type=_number("--stack"), default=None, help="effective stack in bb, before posting")
    g.add_argument("--stacks", default=None, help="START:STOP:STEP or a comma list: an exploitative chart set")
    _add_structure(p, stack=False)
    p.add_argument("--bb", default=None, metavar="SPEC", help="lock BB's calls (range, 30%%, CSV/grid/JSON file)")
    p.add_argument("--sb", default=None, metavar="SPEC", help="lock SB's pushes (range, 30%%, CSV/grid/JSON file)")
    p.add_argument("--out", default=None,
                   help="chart set folder with --stacks (default reports/<config>_exploit-<hero>)")
    _add_lock(p)
    _add_output(p)
    p.set_defaults(func=cmd_exploit)

    p = _add_parser(sub, "sc", help="Sklansky-Chubukov numbers: how deep each hand can shove face up")
    _add_structure(p, stack=False)
    _add_output(p)
    p.set_defaults(func=cmd_sc)

    p = _add_parser(sub, "compare", help="compare two charts: threshold differences and where decisions differ")
    p.add_argument("a", metavar="A",
                   help="chart-set folder, or a configuration: 'nash', 'ante=0.125', 'sb=0.5,bb=1,ante=0.1'")
    p.add_argument("b", metavar="B", help="the same, for the second chart")
    p.add_argument("--stacks", default="1:25", help="LOW:HIGH for configurations (default 1:25)")
    p.add_argument("--out", default="reports/compare", help="output folder (default reports/compare)")
    p.add_argument("--top", type=_whole("--top"), default=10, help="hands listed per player in the text output")
    _add_output(p)
    p.set_defaults(func=cmd_compare)


# ------------------------------------------------------------------ parser and the error boundary


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors: ``sflp: error: <what> (see `sflp solve --help`)``, exit 2."""

    def error(self, message: str):
        text = " ".join(message.split())
        self.exit(2, f"sflp: error: {text} (see `{self.prog} --help`)\n")


class _HelpFormatter(argparse.HelpFormatter):
    """Adds ``(default: X)`` to every option whose help does not already state its default."""

    def _get_help_string(self, action):
        text = action.help or ""
        if ("default" in text or not action.option_strings or action.default is None or action.default is False
                or action.default is argparse.SUPPRESS):
            return text
        return text + " (default: %(default)s)"


def _add_parser(sub, name: str, **kw) -> argparse.ArgumentParser:
    return sub.add_parser(name, formatter_class=_HelpFormatter, description=kw.get("help"), **kw)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="sflp",
        description="Exact heads-up no-limit hold'em push/fold equilibria, charts and checks.",
    )
    parser.add_argument("--version", action="version", version=f"sflp {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = _add_parser(sub, "equity", help="exact all-in equity of two hands/classes/ranges, or `equity build`")
    p.add_argument("hands", nargs="+", metavar="HAND",
                   help="two combos (AhAd KcKs), classes (AA KK) or ranges; or `build`")
    p.add_argument("--data-dir", default=None,
                   help="folder of the equity table (default: $SFLP_DATA_DIR, else the table shipped with "
                        "sflp; `build` writes there, or to the user data folder when that is read-only)")
    _add_output(p)
    p.set_defaults(func=cmd_equity)

    p = _add_parser(sub, "solve", help="exact equilibrium of one stack")
    _add_structure(p)
    p.add_argument("--exact", action="store_true",
                   help="kept for old scripts: every answer is certified in exact rational arithmetic")
    p.add_argument("--combos", action="store_true", help="solve with 1,326 combo strategies per player")
    p.add_argument("--solver", type=_solver_name, default=None, help="cvxpy solver name (default: HIGHS)")
    p.add_argument("--out", default=None, help="also write CSV/xlsx/PNG for this stack into DIR")
    _add_lock(p)
    _add_output(p)
    p.set_defaults(func=cmd_solve)

    p = _add_parser(sub, "chart", help="solve many stacks, exact thresholds, write CSV/xlsx/PNG chart set")
    p.add_argument("--stacks", default=None,
                   help="START:STOP:STEP or a comma list (default 1:25:0.05, from the first stack that "
                        "covers the big blind and antes)")
    _add_structure(p, stack=False)
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
    _add_lock(p)
    _add_output(p)
    p.set_defaults(func=cmd_chart)

    p = _add_parser(sub, "verify", help="score strategies against the exact equilibrium")
    _add_structure(p)
    p.add_argument("--sb", default=None, metavar="SPEC", help="SB push strategy: CSV/JSON file or range string")
    p.add_argument("--bb", default=None, metavar="SPEC", help="BB call strategy: CSV/JSON file or range string")
    p.add_argument("--max-exploitability", type=_number("--max-exploitability"), default=None, metavar="X",
                   help="exit 1 when either side is more exploitable than X bb/hand")
    _add_output(p)
    p.set_defaults(func=cmd_verify)

    p = _add_parser(sub, "approx", help="run one approximate solver and trace its exploitability")
    p.add_argument("method", help="fictitious-play, cfr+, rl-linear-q, rl-tabular or direct")
    _add_structure(p)
    p.add_argument("--iterations", type=_whole("--iterations", 1), default=None,
                   help="stop after N iterations (default: the method's own count when --seconds is not given)")
    p.add_argument("--seconds", type=_number("--seconds"), default=None,
                   help="stop after T seconds of solver time (default: no time limit)")
    p.add_argument("--seed", type=_whole("--seed"), default=0, help="random seed (the sampling methods)")
    _add_output(p)
    p.set_defaults(func=cmd_approx)

    p = _add_parser(sub, "approx-bench", help="all approximate solvers at several stacks: CSV + log-log PNG")
    p.add_argument("--stacks", default="5,10,20", help="START:STOP:STEP or a comma list of stacks in bb")
    _add_structure(p, stack=False)
    p.add_argument("--seconds", type=_number("--seconds"), default=2.0,
                   help="time budget per method and stack, seconds")
    p.add_argument("--seed", type=_whole("--seed"), default=0, help="random seed (the sampling methods)")
    p.add_argument("--out", default="reports/approx-bench", help="output folder for approx_bench.csv and the PNG")
    _add_output(p)
    p.set_defaults(func=cmd_approx_bench)

    p = _add_parser(sub, "simulate", help="play the equilibrium out with real cards and compare with the exact value")
    _add_structure(p)
    p.add_argument("--hands", type=_whole("--hands", 1), default=1_000_000, help="hands to deal and play out")
    p.add_argument("--seed", type=_whole("--seed"), default=0, help="random seed (same seed and hands, same result)")
    _add_output(p)
    p.set_defaults(func=cmd_simulate)
    _add_study_commands(sub)
    return parser


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised like SIGINT's KeyboardInterrupt so every cleanup path runs for both."""


_RECEIVED: list[int] = []
"""The interrupt signals this run received (see :func:`main`)."""


def _on_signal(signum, frame):
    _RECEIVED.append(signum)
    import signal

    raise Terminated() if signum == signal.SIGTERM else KeyboardInterrupt()


def _interrupted(signum: int | None) -> int:
    import signal

    if signum == signal.SIGTERM:
        print("sflp: terminated", file=sys.stderr)
        return 143
    print("sflp: interrupted", file=sys.stderr)
    return 130


class _StdoutError(SflpError):
    """Standard output could not be written (a full disk, a closed pipe's cousins)."""


class _GuardedStdout:
    """``sys.stdout`` whose write errors (``> /dev/full``) become one :class:`SflpError`."""

    def __init__(self, stream) -> None:
        self._stream = stream

    def _guard(self, method, *args):
        try:
            return method(*args)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise _StdoutError(f"cannot write to standard output: {exc.strerror or exc}") from None

    def write(self, text: str) -> int:
        return self._guard(self._stream.write, text)

    def flush(self) -> None:
        self._guard(self._stream.flush)

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


def _silence_stdout() -> None:
    """Point fd 1 at /dev/null so the interpreter's last flush of unwritable output is silent."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``sflp`` console script.

    SIGTERM is handled like SIGINT: the work stops, staged and temporary files are removed, and
    the exit code is 143 (SIGINT: 130), with one line on stderr.
    """
    import signal

    parser = build_parser()
    args = parser.parse_args(argv)
    import threading

    from sflp.quiet import set_verbose

    set_verbose(getattr(args, "verbose", False))

    _RECEIVED.clear()
    previous = {}
    if threading.current_thread() is threading.main_thread():
        previous = {sig: signal.signal(sig, _on_signal) for sig in (signal.SIGINT, signal.SIGTERM)}
    stdout = sys.stdout
    sys.stdout = _GuardedStdout(stdout)
    try:
        code = args.func(args)
        sys.stdout.flush()
        return code
    except _StdoutError as exc:
        sys.stdout = stdout
        _silence_stdout()
        print(f"sflp: error: {exc}", file=sys.stderr)
        return 2
    except SflpError as exc:
        if _RECEIVED:  # an interrupt that a library turned into an error (e.g. inside an import)
            return _interrupted(_RECEIVED[0])
        print(f"sflp: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as exc:
        return _interrupted(signal.SIGTERM if isinstance(exc, Terminated) else signal.SIGINT)
    except BrokenPipeError:
        sys.stdout = stdout
        _silence_stdout()
        return 0
    except Exception:
        if _RECEIVED:  # an interrupt that a library turned into another exception
            return _interrupted(_RECEIVED[0])
        raise
    finally:
        set_verbose(False)
        sys.stdout = stdout
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def run() -> None:
    """The console script (and ``python -m sflp.cli``): :func:`main`, then exit with its code.

    After an interrupt the process ends with :func:`os._exit` once output is flushed and the
    ``atexit`` hooks have run: CPython marks a ``KeyboardInterrupt`` that surfaced inside an
    import as unhandled even when :func:`main` caught it, and would then kill the process with
    SIGINT at exit (status -2) instead of returning 130/143.
    """
    code = main()
    if code in (130, 143):
        import atexit

        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        atexit._run_exitfuncs()
        os._exit(code)
    sys.exit(code)


if __name__ == "__main__":
    run()
