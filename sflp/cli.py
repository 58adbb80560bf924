"""The ``sflp`` command line: a thin layer over the library.

Every subcommand has ``--json`` (one JSON object on stdout) and readable text otherwise.
Library errors (:class:`~sflp.errors.SflpError`) become one line on stderr and exit code 2 at
one place, :func:`main`; anything else is a bug and shows its traceback.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from fractions import Fraction
from pathlib import Path

from sflp import __version__
from sflp.errors import ConfigError, SflpError

# ------------------------------------------------------------------ shared options


def _number(name: str):
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} {text!r} is not a number") from None
        return value

    return parse


def _add_structure(p: argparse.ArgumentParser, stack: bool = True) -> None:
    g = p.add_argument_group("game")
    if stack:
        g.add_argument("--stack", type=_number("--stack"), required=True, help="effective stack in bb, before posting")
    g.add_argument("--small-blind", type=_number("--small-blind"), default=0.5, help="small blind in bb (live)")
    g.add_argument("--big-blind", type=_number("--big-blind"), default=1.0, help="big blind in bb (live)")
    g.add_argument("--ante", type=_number("--ante"), default=0.0, help="ante per player in bb (dead)")
    g.add_argument("--bb-ante", type=_number("--bb-ante"), default=0.0, help="big-blind ante in bb, paid by BB only (dead)")


def _add_output(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    p.add_argument("--no-color", action="store_true", help="no ANSI colours in text output")


def _config(args, stack: float | None = None):
    from sflp.game import GameConfig

    return GameConfig(
        stack=args.stack if stack is None else stack,
        small_blind=args.small_blind,
        big_blind=args.big_blind,
        ante=args.ante,
        bb_ante=args.bb_ante,
    )


def _json_default(obj):
    if isinstance(obj, Fraction):
        return f"{obj.numerator}/{obj.denominator}"
    if hasattr(obj, "tolist"):
        return obj.tolist()
    if isinstance(obj, Path):
        return str(obj)
    raise TypeError(f"not JSON serialisable: {type(obj).__name__}")


def _clean(obj):
    """NaN / inf -> None so the output is strict JSON."""
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, dict):
        return {k: _clean(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_clean(v) for v in obj]
    return obj


def _print_json(obj) -> None:
    print(json.dumps(_clean(obj), default=_json_default, allow_nan=False))


def _use_color(args) -> bool:
    return not getattr(args, "no_color", False) and sys.stdout.isatty() and os.environ.get("NO_COLOR") is None


def _progress(total: int, desc: str, enabled: bool):
    """A tqdm bar on stderr (or a no-op) with an ``update()`` method."""
    if not enabled:
        class _Null:
            def update(self, n=1):
                pass

            def close(self):
                pass

        return _Null()
    from tqdm import tqdm

    return tqdm(total=total, desc=desc, unit="stack", file=sys.stderr, leave=False)


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


# ------------------------------------------------------------------ grids in the terminal


def _grid(values, color: bool) -> str:
    """13x13 grid of frequencies (class-id order) with class names; coloured when asked."""
    from sflp.cards import CLASS_NAMES

    lines = []
    for row in range(13):
        cells = []
        for col in range(13):
            k = row * 13 + col
            v = float(values[k])
            name = CLASS_NAMES[k]
            if v >= 1 - 1e-9:
                text, bg = f"{name:<4}", "42"
            elif v <= 1e-9:
                text, bg = f"{'.':<4}" if not color else f"{name:<4}", "100"
            else:
                text, bg = f"{name[:3]:<3}{'*'}", "43"
            if color:
                fg = "30" if bg != "100" else "37"
                cells.append(f"\x1b[{bg};{fg}m{text}\x1b[0m")
            else:
                cells.append(text)
        lines.append(" ".join(cells))
    legend = "  (green: always, yellow*: mixed, grey: never)" if color else "  (name: always, *: mixed, .: never)"
    return "\n".join(lines) + "\n" + legend


def _ansi(background: str, text: str) -> str:
    """``text`` on a 24-bit colour background (hex ``RRGGBB``) with black or white ink."""
    from sflp.palette import text_colour

    bg = tuple(int(background[i:i + 2], 16) for i in (0, 2, 4))
    fg = (0, 0, 0) if text_colour(background) == "000000" else (255, 255, 255)
    return f"\x1b[48;2;{bg[0]};{bg[1]};{bg[2]};38;2;{fg[0]};{fg[1]};{fg[2]}m{text}\x1b[0m"


def _threshold_grid(thresholds, player: str, color: bool) -> str:
    """The threshold chart as text: rank headers, each cell the hand above its label (``7.7*``),
    coloured like the PNG on a terminal."""
    from sflp.cards import CLASS_NAMES
    from sflp.palette import threshold_colour

    ranks = "AKQJT98765432"
    lines = ["   " + " ".join(f"{r:^5}" for r in ranks)]
    for row in range(13):
        names, labels = [], []
        for col in range(13):
            h = thresholds.get(player, CLASS_NAMES[row * 13 + col])
            name, label = f"{h.hand:^5}", f"{h.label() + ('*' if h.multi else ''):^5}"
            if color:
                bg = threshold_colour(h.max_stack, thresholds.low, thresholds.high)
                name, label = _ansi(bg, name), _ansi(bg, label)
            names.append(name)
            labels.append(label)
        lines.append(f"{ranks[row]:>2} " + " ".join(names))
        lines.append("   " + " ".join(labels))
    return "\n".join(lines)


# ------------------------------------------------------------------ equity


def cmd_equity(args) -> int:
    from sflp import equity as eq

    if args.hands and args.hands[0] == "build":
        if len(args.hands) != 1:
            raise ConfigError("usage: sflp equity build [--data-dir DIR]")
        start = time.perf_counter()
        path = eq.build_table(args.data_dir, progress=not args.json)
        seconds = time.perf_counter() - start
        sha = eq.read_checksum(Path(path).parent)
        if args.json:
            _print_json({"path": str(path), "sha256": sha, "seconds": seconds})
        else:
            print(f"wrote {path} ({Path(path).stat().st_size:,} bytes) in {seconds:.1f} s\nsha256 {sha}")
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
    c = result.counts
    fmt = (lambda v: f"{v:,}") if isinstance(c.wins, int) else (lambda v: f"{v:,.2f}")
    print(f"{result.hand1} vs {result.hand2}: {fmt(c.pairs)} disjoint combo pair(s), {fmt(c.boards)} outcomes")
    width = len(fmt(c.boards))
    for label, v in (("wins", c.wins), ("ties", c.ties), ("losses", c.losses)):
        print(f"  {label:<7}{fmt(v):>{width}}  ({100 * v / c.boards:6.3f}%)")
    exact = c.equity_exact
    tail = f"  = {exact.numerator}/{exact.denominator}" if exact is not None else ""
    print(f"  equity {c.equity:.6f}{tail}")
    return 0


# ------------------------------------------------------------------ solve


def solution_dict(solution) -> dict:
    """The JSON object of one solution (the shape documented in the README)."""
    from sflp.cards import CLASS_NAMES

    sb, bb = solution.class_strategies()
    cfg = solution.config.as_dict()
    out = {
        **cfg,
        "value": solution.value,
        "value_exact": (
            f"{solution.value_exact.numerator}/{solution.value_exact.denominator}"
            if solution.value_exact is not None
            else None
        ),
        "push_pct": solution.push_pct,
        "call_pct": solution.call_pct,
        "exploitability": solution.exploitability,
        "certified": solution.certified,
        "level": solution.level,
        "method": solution.method,
        "sb_strategy": dict(zip(CLASS_NAMES, map(float, sb))),
        "bb_strategy": dict(zip(CLASS_NAMES, map(float, bb))),
    }
    if solution.level == "class":
        out["sb_ev"] = dict(zip(CLASS_NAMES, map(float, solution.sb_ev)))
        out["bb_ev"] = dict(zip(CLASS_NAMES, map(float, solution.bb_ev)))
    else:
        names = solution.names
        out["sb_ev"] = dict(zip(names, map(float, solution.sb_ev)))
        out["bb_ev"] = dict(zip(names, map(float, solution.bb_ev)))
        out["sb_combo_strategy"] = dict(zip(names, map(float, solution.sb_strategy)))
        out["bb_combo_strategy"] = dict(zip(names, map(float, solution.bb_strategy)))
    if solution.sb_exact is not None and solution.level == "class":
        out["sb_strategy_exact"] = {
            n: f"{v.numerator}/{v.denominator}" for n, v in zip(CLASS_NAMES, solution.sb_exact)
        }
        out["bb_strategy_exact"] = {
            n: f"{v.numerator}/{v.denominator}" for n, v in zip(CLASS_NAMES, solution.bb_exact)
        }
    return out


def format_solution(solution, color: bool = False) -> str:
    from sflp.ranges import Range

    c = solution.config
    sb, bb = solution.class_strategies()
    lines = [
        f"Heads-up push/fold, stack {c.stack:g} bb (SB {c.small_blind:g}, BB {c.big_blind:g}, "
        f"ante {c.ante:g}, BB ante {c.bb_ante:g}) - {solution.level} level",
        f"Value (SB's EV per hand): {solution.value:+.9f} bb",
    ]
    if solution.value_exact is not None:
        v = solution.value_exact
        lines.append(f"Exact value: {v.numerator}/{v.denominator}  (certified equilibrium: exploitability exactly 0)")
    lines += [
        f"SB pushes {solution.push_pct:.2f}% of hands, BB calls {solution.call_pct:.2f}%",
        f"Exploitability (best responses, no solver): {solution.exploitability:.3g} bb",
        "",
        f"SB push range: {Range.from_class_weights(sb)}",
        _grid(sb, color),
        "",
        f"BB call range: {Range.from_class_weights(bb)}",
        _grid(bb, color),
    ]
    mixed = solution.mixed_hands()
    parts = []
    for who in ("sb", "bb"):
        if mixed[who]:
            hands = ", ".join(f"{h} {100 * v:.4f}%" for h, v in mixed[who].items())
            parts.append(f"{who.upper()}: {hands}")
    lines += ["", "Mixed hands: " + ("; ".join(parts) if parts else "none")]
    if solution.sb_exact is not None and solution.level == "class":
        from sflp.cards import CLASS_NAMES

        for who, exact in (("SB", solution.sb_exact), ("BB", solution.bb_exact)):
            for name, v in zip(CLASS_NAMES, exact):
                if 0 < v < 1:
                    lines.append(f"  {who} {name} exactly {v.numerator}/{v.denominator}")
    return "\n".join(lines)


def cmd_solve(args) -> int:
    from sflp.solver import solve

    config = _config(args)
    out_dir = Path(args.out) if args.out else None
    if out_dir is not None:
        from sflp.report import check_out_dir

        check_out_dir(out_dir)
    solution = solve(config, level="combo" if args.combos else "class", solver=args.solver, exact=args.exact)
    files = None
    if out_dir is not None:
        from sflp.report import write_solution

        files = write_solution(solution, out_dir)
    if args.json:
        obj = solution_dict(solution)
        if files is not None:
            obj["files"] = files
        _print_json(obj)
    else:
        print(format_solution(solution, _use_color(args)))
        if files:
            print("\nWrote: " + ", ".join(sorted(files.values())))
    return 0


# ------------------------------------------------------------------ chart


def parse_stacks(text: str) -> list[float]:
    """``"1:25:0.05"`` (start:stop:step, stop included when on the grid) or ``"2,5,10"``.

    >>> parse_stacks("1:2:0.25")
    [1.0, 1.25, 1.5, 1.75, 2.0]
    >>> parse_stacks("10,2,5")
    [2.0, 5.0, 10.0]
    """
    text = text.strip()
    usage = f"--stacks {text!r} is not START:STOP:STEP (e.g. 1:25:0.05) or a comma list (e.g. 2,5,10)"
    try:
        parts = [Fraction(p.strip()) for p in text.split(":" if ":" in text else ",")]
    except (ValueError, ZeroDivisionError):
        raise ConfigError(usage) from None
    if ":" in text:
        if len(parts) != 3:
            raise ConfigError(usage)
        start, stop, step = parts
        if step <= 0:
            raise ConfigError(f"--stacks {text!r}: the step must be positive")
        if stop < start:
            raise ConfigError(f"--stacks {text!r}: stop must not be below start")
        count = int((stop - start) / step) + 1
        if count > 100_000:
            raise ConfigError(f"--stacks {text!r}: {count} stacks is more than 100,000")
        values = [float(start + k * step) for k in range(count)]
    else:
        values = sorted({float(p) for p in parts})
    if not values:
        raise ConfigError(f"--stacks {text!r} gives no stacks")
    bad = [v for v in values if not (v > 0 and math.isfinite(v))]
    if bad:
        raise ConfigError(f"--stacks {text!r}: stacks must be positive numbers (got {bad[0]:g})")
    return values


def parse_grid_stacks(text: str | None, low: float, high: float) -> list[float] | None:
    """``--grid-stacks 5,10,30``: the stacks of the range grids, each inside ``[low, high]``.

    >>> parse_grid_stacks("10,5", 1, 25), parse_grid_stacks(None, 1, 25)
    ([5.0, 10.0], None)
    """
    if text is None:
        return None
    try:
        stacks = sorted({float(t) for t in text.split(",") if t.strip()})
    except ValueError:
        raise ConfigError(f"--grid-stacks {text!r}: expected a comma list of stacks in bb, such as 5,10,20") from None
    if not stacks:
        raise ConfigError("--grid-stacks is empty: give a comma list of stacks in bb, such as 5,10,20")
    outside = [s for s in stacks if not (low - 1e-9 <= s <= high + 1e-9)]
    if outside:
        raise ConfigError(f"--grid-stacks {', '.join(f'{s:g}' for s in outside)} outside the solved stacks "
                          f"{low:g}-{high:g} bb")
    return stacks


def cmd_chart(args) -> int:
    from sflp.report import check_out_dir, default_out_dir, write_chart_set
    from sflp.solver import solve_many
    from sflp.thresholds import compute_thresholds

    stacks = parse_stacks(args.stacks)
    config = _config(args, stack=stacks[0])
    for s in stacks:  # validate every stack against the structure before doing any work
        config.with_stack(s)
    low, high = stacks[0], stacks[-1]
    grid_stacks = parse_grid_stacks(args.grid_stacks, low, high)
    out_dir = Path(args.out) if args.out else default_out_dir(config, low, high)
    check_out_dir(out_dir)
    start = time.perf_counter()
    show = not args.json and sys.stderr.isatty()
    bar = _progress(len(stacks), "solving", show)
    solutions = solve_many(stacks, config, exact=args.exact, progress=bar.update)
    bar.close()
    thresholds = compute_thresholds(config, low=low, high=high) if high > low else None
    files = write_chart_set(solutions, thresholds, out_dir, exact=args.exact, range_stacks=grid_stacks)
    seconds = time.perf_counter() - start
    summary = {
        "out_dir": str(out_dir),
        "files": files,
        "stacks": len(stacks),
        "low": low,
        "high": high,
        **{k: v for k, v in config.as_dict().items() if k != "stack"},
        "lp_solves": sum(s.method == "lp" for s in solutions),
        "max_exploitability": max(s.exploitability for s in solutions),
        "certified": all(s.certified for s in solutions) if args.exact else None,
        "breakpoints": len(thresholds.breakpoints) if thresholds else 0,
        "seconds": seconds,
    }
    if args.json:
        _print_json(summary)
        return 0
    print(f"Solved {len(stacks)} stacks from {low:g} to {high:g} bb in {seconds:.1f} s "
          f"({summary['lp_solves']} LP solves, max exploitability {summary['max_exploitability']:.2g} bb)")
    if thresholds is not None:
        print(f"{len(thresholds.breakpoints)} exact breakpoints")
        for player, title in (("sb", "SB push up to (bb)"), ("bb", "BB call up to (bb)")):
            print(f"\n{title}  ({high:g}+ = up to the top, - = never, * = more than one stack interval)")
            print(_threshold_grid(thresholds, player, _use_color(args)))
    print(f"\nWrote {len(files)} files to {out_dir}/")
    return 0


# ------------------------------------------------------------------ verify / approx / simulate


def cmd_verify(args) -> int:
    from sflp.verify import exceeds, format_text, load_strategy, verify

    if args.sb is None and args.bb is None:
        raise ConfigError("sflp verify needs --sb SPEC, --bb SPEC or both (a file or a range string)")
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
    from sflp.report import check_out_dir
    from sflp.report.approx_bench import write_approx_bench

    stacks = parse_stacks(args.stacks)
    out_dir = Path(args.out)
    check_out_dir(out_dir)
    base = _config(args, stack=stacks[0])
    from sflp.approx import METHODS

    with _Bar(len(stacks) * len(METHODS), "approx-bench", "run", _show_progress(args)) as bar:
        results = approx_bench(stacks=stacks, seconds=args.seconds, seed=args.seed, base=base,
                               progress=lambda _: bar.add())
    files = write_approx_bench(results, out_dir)
    rows = [
        {
            "method": r.method,
            "stack": float(r.config.stack),
            "iterations": r.iterations,
            "seconds": r.seconds,
            "total_exploitability": r.trace[-1].total_exploitability if r.trace else None,
        }
        for r in results
    ]
    if args.json:
        _print_json({"files": files, "results": rows})
    else:
        print(f"{'method':<16}{'stack':>7}{'iters':>10}{'seconds':>9}{'exploitability (bb)':>22}")
        for row in rows:
            print(f"{row['method']:<16}{row['stack']:>7g}{row['iterations']:>10}{row['seconds']:>9.2f}"
                  f"{row['total_exploitability']:>22.3e}")
        print("\nWrote: " + ", ".join(sorted(map(str, files.values()))))
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


# ------------------------------------------------------------------ parser and the error boundary


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
    parser = argparse.ArgumentParser(
        prog="sflp",
        description="Exact heads-up no-limit hold'em push/fold equilibria, charts and checks.",
    )
    parser.add_argument("--version", action="version", version=f"sflp {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = _add_parser(sub, "equity", help="exact all-in equity of two hands/classes/ranges, or `equity build`")
    p.add_argument("hands", nargs="+", metavar="HAND", help="two combos (AhAd KcKs), classes (AA KK) or ranges; or `build`")
    p.add_argument("--data-dir", default=None, help="folder of the equity table (default: the repository's data/)")
    _add_output(p)
    p.set_defaults(func=cmd_equity)

    p = _add_parser(sub, "solve", help="exact equilibrium of one stack")
    _add_structure(p)
    p.add_argument("--exact", action="store_true", help="certify in exact rational arithmetic")
    p.add_argument("--combos", action="store_true", help="solve with 1,326 combo strategies per player")
    p.add_argument("--solver", default=None, help="cvxpy solver name (default: HIGHS)")
    p.add_argument("--out", default=None, help="also write CSV/xlsx/PNG for this stack into DIR")
    _add_output(p)
    p.set_defaults(func=cmd_solve)

    p = _add_parser(sub, "chart", help="solve many stacks, exact thresholds, write CSV/xlsx/PNG chart set")
    p.add_argument("--stacks", default="1:25:0.05", help="START:STOP:STEP or a comma list (default 1:25:0.05)")
    _add_structure(p, stack=False)
    p.add_argument("--out", default=None, help="output folder (default reports/<configuration name>)")
    p.add_argument("--exact", action="store_true", help="certify every stack in exact arithmetic")
    p.add_argument("--grid-stacks", default=None, metavar="S1,S2,...",
                   help="stacks of the range grids (range_<S>bb.png, sb_push_<S>bb.csv), each mapped to the "
                        "nearest solved stack (default: about five round stacks spread over the range, "
                        "e.g. 5,10,15,20,25 for 1-25 bb)")
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
    p.add_argument("--iterations", type=int, default=None,
                   help="stop after N iterations (default: the method's own count when --seconds is not given)")
    p.add_argument("--seconds", type=_number("--seconds"), default=None,
                   help="stop after T seconds of solver time (default: no time limit)")
    p.add_argument("--seed", type=int, default=0, help="random seed (the sampling methods)")
    _add_output(p)
    p.set_defaults(func=cmd_approx)

    p = _add_parser(sub, "approx-bench", help="all approximate solvers at several stacks: CSV + log-log PNG")
    p.add_argument("--stacks", default="5,10,20", help="START:STOP:STEP or a comma list of stacks in bb")
    _add_structure(p, stack=False)
    p.add_argument("--seconds", type=_number("--seconds"), default=2.0, help="time budget per method and stack, seconds")
    p.add_argument("--seed", type=int, default=0, help="random seed (the sampling methods)")
    p.add_argument("--out", default="reports/approx-bench", help="output folder for approx_bench.csv and the PNG")
    _add_output(p)
    p.set_defaults(func=cmd_approx_bench)

    p = _add_parser(sub, "simulate", help="play the equilibrium out with real cards and compare with the exact value")
    _add_structure(p)
    p.add_argument("--hands", type=int, default=1_000_000, help="hands to deal and play out")
    p.add_argument("--seed", type=int, default=0, help="random seed (same seed and hands, same result)")
    _add_output(p)
    p.set_defaults(func=cmd_simulate)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``sflp`` console script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except SflpError as exc:
        print(f"sflp: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("sflp: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
