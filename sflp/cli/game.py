"""``sflp equity``, ``solve``, ``rank`` and ``sc``: one game, one answer; ``sflp cache``: what sflp keeps on disk."""

from __future__ import annotations

import time
from pathlib import Path

from sflp.charts.media.terminal import format_written
from sflp.cli.options import (
    add_lock,
    add_output,
    add_parser,
    add_structure,
    check_structure,
    check_target,
    config_from,
    lock_options,
    print_json,
    show_progress,
    solver_name,
    terminal_width,
    use_color,
)
from sflp.errors import ConfigError


def cmd_equity(args) -> int:
    from sflp.core import equity as eq

    if args.hands and args.hands[0] == "build":
        if len(args.hands) != 1:
            raise ConfigError("usage: sflp equity build [--data-dir DIR]")
        eq.check_target_dir(args.data_dir if args.data_dir is not None else eq.build_target_dir())
        start = time.perf_counter()
        path = eq.build_table(args.data_dir, progress=show_progress(args))  # a bar only on a terminal
        seconds = time.perf_counter() - start
        sha = eq.read_checksum(Path(path).parent)
        if args.json:
            print_json({"path": str(path), "sha256": sha, "seconds": seconds})
        else:
            from sflp.views.text import format_table_build

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
        print_json(result.to_dict())
        return 0
    from sflp.views.text import format_equity

    print(format_equity(result))
    return 0


def cmd_solve(args) -> int:
    from sflp.solving.solver import solve
    from sflp.views.text import format_solution, solution_dict  # here: its numpy is no cost of `--help`

    config = config_from(args)
    out_dir = Path(args.out) if args.out else None
    if out_dir is not None:
        check_target(out_dir, "solution")
    # always certified: every number printed is the exact solution rounded once, so no solver
    # build or BLAS can change a digit (--exact is kept for scripts that pass it)
    solution = solve(config, level="combo" if args.combos else "class", solver=args.solver, exact=True)
    files = None
    if out_dir is not None:
        from sflp.charts.chartset import write_solution

        files = write_solution(solution, out_dir, **lock_options(args, out_dir))
    if args.json:
        obj = solution_dict(solution)
        if files is not None:
            obj["files"] = files
        print_json(obj)
    else:
        width = terminal_width()
        print(format_solution(solution, use_color(args), width))
        if files:
            print("\n" + format_written(files, width))
    return 0


def cmd_rank(args) -> int:
    from sflp.core.equity import hand_ranking
    from sflp.views.text import format_rank, rank_dict

    rows = hand_ranking()
    if args.json:
        print_json(rank_dict(rows))
        return 0
    print(format_rank(rows))
    return 0


def cmd_sc(args) -> int:
    from sflp.core.game import GameConfig, min_stack
    from sflp.study.sc import format_text, sc_numbers
    from sflp.views.text import sc_dict

    check_structure(args)
    config = GameConfig(
        stack=min_stack(args.big_blind, args.ante, args.bb_ante), small_blind=args.small_blind,
        big_blind=args.big_blind, ante=args.ante, bb_ante=args.bb_ante,
    )
    numbers = sc_numbers(config)
    if args.json:
        print_json(sc_dict(config, numbers))
    else:
        print(format_text(config, numbers, terminal_width()))
    return 0


def _megabytes(n: int) -> str:
    return f"{n / 1e6:.1f} MB"


def _cache_text(info: dict) -> str:
    """``sflp cache info`` as text."""
    if not info["enabled"]:
        return "Caching is off (SFLP_CACHE_DIR is set but empty): sflp keeps nothing on disk."
    lines = [f"Cache folder: {info['folder']}", f"  ({info['set_by']})",
             "  SFLP_CACHE_DIR moves it; SFLP_CACHE_DIR= (set but empty) turns caching off"]
    if not info["writable"]:
        lines.append("  not writable: sflp runs without caching (numba compiles its kernels in each process)")
    lp, nb = info["lp"], info["numba"]
    lines.append(f"  compiled LPs:  {lp['files']} file(s), {_megabytes(lp['bytes'])}")
    if nb["own"]:
        lines.append(f"  numba kernels: {nb['files']} file(s), {_megabytes(nb['bytes'])} in {nb['folder']}")
    else:
        lines.append(f"  numba kernels: in your NUMBA_CACHE_DIR {nb['folder']} (not counted, never cleared by sflp)")
    lines.append(f"  in all:        {_megabytes(info['bytes'])}; `sflp cache clear` removes them")
    return "\n".join(lines)


def _clear_text(result: dict) -> str:
    """``sflp cache clear`` as text: what went, and why numba's files stayed when they did."""
    if result["folder"] is None:
        return "Caching is off (SFLP_CACHE_DIR is set but empty): nothing to clear."
    lp, nb = result["lp"], result["numba"]
    if nb["left"] is not None:
        return (f"Removed {lp['files']} compiled LP(s) ({_megabytes(lp['bytes'])}) from {result['folder']}; "
                f"numba's files left alone: NUMBA_CACHE_DIR is set ({nb['left']}), and numba keeps every "
                "program's kernels there (unset it to clear sflp's own)")
    return (f"Removed {lp['files']} compiled LP(s) ({_megabytes(lp['bytes'])}) and {nb['files']} numba file(s) "
            f"({_megabytes(nb['bytes'])}) from {result['folder']}")


def cmd_cache(args) -> int:
    from sflp import cache
    from sflp.solving.highs import cached_files

    if args.action == "info":
        result = cache.info(cached_files())
        text = _cache_text(result)
    else:
        result = cache.clear(cached_files())
        text = _clear_text(result)
    if args.json:
        print_json(result)
    else:
        print(text)
    return 0


def add_commands(sub) -> None:
    """equity, solve, rank, sc, cache."""
    p = add_parser(sub, "equity", help="exact all-in equity of two hands/classes/ranges, or `equity build`")
    p.add_argument("hands", nargs="+", metavar="HAND",
                   help="two combos (AhAd KcKs), classes (AA KK) or ranges; or `build`")
    p.add_argument("--data-dir", default=None,
                   help="folder of the equity table (default: $SFLP_DATA_DIR, else the table shipped with "
                        "sflp; `build` writes there, or to the user data folder when that is read-only)")
    add_output(p, verbose=False)  # no LP: no solver log to show
    p.set_defaults(func=cmd_equity)

    p = add_parser(sub, "solve", help="exact equilibrium of one stack")
    add_structure(p)
    p.add_argument("--exact", action="store_true",
                   help="kept for old scripts: every answer is certified in exact rational arithmetic")
    p.add_argument("--combos", action="store_true", help="solve with 1,326 combo strategies per player")
    p.add_argument("--solver", type=solver_name, default=None, help="cvxpy solver name (default: HIGHS)")
    p.add_argument("--out", default=None, help="also write this stack's CSV, xlsx, PNG and SVG into DIR")
    add_lock(p)
    add_output(p)
    p.set_defaults(func=cmd_solve)

    p = add_parser(sub, "rank", help="the 169 hands by exact equity against a random hand (percentage ranges)")
    add_output(p, verbose=False)  # no LP: no solver log to show
    p.set_defaults(func=cmd_rank)

    p = add_parser(sub, "sc", help="Sklansky-Chubukov numbers: how deep each hand can shove face up")
    add_structure(p, stack=False)
    add_output(p, verbose=False)  # no LP: no solver log to show
    p.set_defaults(func=cmd_sc)

    p = add_parser(sub, "cache", help="where sflp's caches are and how big (compiled LPs, numba's kernels); "
                                      "clear them")
    p.add_argument("action", choices=("info", "clear"),
                   help="info: the folder, files and sizes; clear: remove the files sflp wrote there (only those)")
    add_output(p, verbose=False)  # no LP: no solver log to show
    p.set_defaults(func=cmd_cache)
