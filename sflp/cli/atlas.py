"""``sflp atlas``: exact charts across blind structures, one folder of Parquet datasets."""

from __future__ import annotations

from pathlib import Path

from sflp.cli.options import (
    TYPED,
    add_lock,
    add_output,
    add_parser,
    lock_options,
    number,
    print_json,
    say,
    terminal_width,
    whole,
)
from sflp.errors import ConfigError

DEFAULT_STACKS = "1:25:0.05"


def _structures(args) -> tuple[list[tuple[float, float, float, float]], str]:
    """The structures of the run and the name of the default folder's middle part."""
    from sflp.atlas.jobs import PRESETS, parse_antes
    from sflp.charts.text import fmt_num

    if args.preset is not None:
        given = [o for o, v in (("--ante", args.ante), ("--small-blind", args.small_blind),
                                ("--big-blind", args.big_blind), ("--bb-ante", args.bb_ante)) if v is not None]
        if given:
            raise ConfigError(f"--preset {args.preset} sets the blinds and antes itself: give --preset or {given[0]}, "
                              "not both")
        return list(PRESETS[args.preset]), args.preset
    antes = parse_antes(args.ante if args.ante is not None else "0", "--ante")
    sb = 0.5 if args.small_blind is None else args.small_blind
    bb = 1.0 if args.big_blind is None else args.big_blind
    bb_ante = 0.0 if args.bb_ante is None else args.bb_ante
    span = fmt_num(antes[0]) if len(antes) == 1 else f"{fmt_num(antes[0])}-{fmt_num(antes[-1])}"
    return [(sb, bb, a, bb_ante) for a in antes], \
        f"sb{fmt_num(sb)}_bb{fmt_num(bb)}_ante{span}_bbante{fmt_num(bb_ante)}"


def _ante_stacks(text: str | None):
    from sflp.checks import parse_stacks

    if text is None:
        return None
    if text.strip().lower() == "none":
        return ()
    return tuple(parse_stacks(text, "--ante-stacks"))


def _formats(text: str) -> tuple[str, ...]:
    from sflp.charts.media.formats import check_formats

    try:
        return check_formats(text)
    except ConfigError as exc:
        raise ConfigError(f"--charts {text!r}: {str(exc).split(': ', 1)[-1]}") from None


def cmd_atlas(args) -> int:
    from sflp.atlas.jobs import KIND, atlas_jobs
    from sflp.atlas.tables import ante_path_available
    from sflp.atlas.write import check_reach, write_atlas
    from sflp.charts.about import REPORTS_DIR
    from sflp.charts.text import fmt_num
    from sflp.checks import parse_stacks
    from sflp.output.target import check_target

    structures, middle = _structures(args)
    stacks = parse_stacks(args.stacks, "--stacks")
    ante_stacks = _ante_stacks(args.ante_stacks)
    if ante_stacks is None and not ante_path_available():
        ante_stacks = ()  # this sflp follows no path along the ante yet: the atlas has none
        say("note", "no ante paths (compute_thresholds has no along='ante' in this sflp)")
    charts = () if args.charts is None else (None if args.charts == "all" else _formats(args.charts))
    jobs = atlas_jobs(structures, stacks, ante_stacks=ante_stacks, charts=charts)
    check_reach(args.reach, jobs, "--reach")
    out = Path(args.out) if args.out else REPORTS_DIR / f"atlas_{middle}_{fmt_num(stacks[0])}-{fmt_num(stacks[-1])}"
    check_target(out, KIND)
    if args.scheduler is not None and args.workers is not None:
        raise ConfigError("--workers is for this machine, --scheduler for a Dask cluster: give one of them")
    if args.workers is not None:
        from sflp.output.jobs import usable_cpus

        cores = usable_cpus()
        if args.workers > cores:
            raise ConfigError(f"--workers {args.workers} is more than this machine's {cores} usable "
                              f"core{'s' if cores != 1 else ''}: give at most {cores} (or --scheduler for a cluster)")
    runner = None
    if args.scheduler is not None:
        from sflp.atlas.cluster import DEFAULT_WORKER_TIMEOUT, dask_runner

        worker_timeout = DEFAULT_WORKER_TIMEOUT if args.worker_timeout is None else args.worker_timeout
        if not 0 < worker_timeout < float("inf"):
            raise ConfigError(f"--worker-timeout {TYPED.get('--worker-timeout', worker_timeout)} must be a positive "
                              f"finite number of seconds")
        runner = dask_runner(args.scheduler, worker_timeout=worker_timeout)
    elif args.worker_timeout is not None:
        raise ConfigError("--worker-timeout is how long a Dask cluster may have no worker: give it with --scheduler")
    late = [j for j in jobs if j.low > stacks[0]]  # as sflp chart: each from its first covering stack
    if late:
        from sflp.core.game import stack_text

        shown = ", ".join(f"{j.name} at {stack_text(j.low)} bb" for j in late[:3]) + (", ..." if len(late) > 3 else "")
        say("note", f"--stacks: {len(late)} structure{'s start' if len(late) != 1 else ' starts'} above "
                    f"{stack_text(stacks[0])} bb, at the first stack that covers the big blind and antes ({shown}); "
                    "the stacks below it are left out")
    hands = () if args.hands.strip().lower() == "none" else args.hands
    result = write_atlas(jobs, out, workers=args.workers, runner=runner, hands=hands, reach=args.reach,
                         **lock_options(args, Path(args.out) if args.out else None))
    if args.json:
        print_json(result.to_dict())
        return 0
    print(format_atlas(result, terminal_width()))
    return 0


def format_atlas(result, width: int | None = None) -> str:
    """The text summary of ``sflp atlas``: the folder, then one entry per structure.  Each line fits
    ``width`` columns (None: one line an entry); an entry too long for it continues on lines
    indented further, and only a folder path longer than the width passes it (it is shown whole)."""
    import textwrap
    from types import SimpleNamespace

    from sflp.charts.about import structure_text
    from sflp.charts.text import fmt_num

    def fit(text: str, indent: str = "") -> list[str]:
        if width is None:
            return [indent + text]
        return textwrap.wrap(text, width, initial_indent=indent, subsequent_indent=indent + "  ",
                             break_long_words=False, break_on_hyphens=False)

    def entry(parts: list[str]) -> list[str]:
        """One line when it fits, else each part on lines of its own, the later ones indented."""
        one = "; ".join(parts)
        if width is None or len(one) + 2 <= width:
            return ["  " + one]
        return [*fit(parts[0], "  "), *(line for part in parts[1:] for line in fit(part, "    "))]

    k = len(result.structures)
    lines = fit(f"Structure atlas: {k} structure{'s' if k != 1 else ''} in {result.out_dir} "
                f"({len(result.files)} files, {result.seconds:.1f} s)")
    for s in result.structures:
        name = structure_text(SimpleNamespace(**{k: s[k] for k in ("small_blind", "big_blind", "ante", "bb_ante")}))
        grid = s["stacks"]
        parts = [f"{name}: {grid['count']} stacks {fmt_num(grid['low'])}-{fmt_num(grid['high'])} bb, "
                 f"{s['breakpoints']} breakpoints"]
        ante = s["ante_path"]
        if ante is not None:
            n = len(ante["stacks"])
            parts.append(f"solved {n} of its line's ante paths ({fmt_num(ante['low'])}-{fmt_num(ante['high'])} bb) "
                         f"at stack{'s' if n != 1 else ''} " + ", ".join(fmt_num(x) for x in ante["stacks"][:4])
                         + (", ..." if n > 4 else ""))
        if s.get("chart_set"):
            parts.append(f"chart set in {s['chart_set']}")
        if s.get("reach"):
            parts.append("added by the reach (for the hand maps)")
        lines += entry(parts)
    lines += fit("Read it with sflp.read_atlas(folder), or pandas / polars / DuckDB on the *.parquet folders.")
    return "\n".join(lines)


def add_commands(sub) -> None:
    """atlas."""
    from sflp.atlas.jobs import PRESETS
    from sflp.atlas.outputs import MAP_HANDS

    p = add_parser(sub, "atlas", help="exact thresholds, values and paths across blind structures: one folder "
                                      "of hive-partitioned Parquet datasets")
    p.add_argument("--ante", default=None, metavar="ANTES",
                   help="antes per player in bb: START:STOP:STEP (e.g. 0:0.25:0.005) or a comma list "
                        "(e.g. 0,0.1,0.125); default 0, or --preset")
    p.add_argument("--preset", default=None, choices=sorted(PRESETS),
                   help="a set of structures instead of --ante: standard = no ante, ante 0.1, ante 0.125 and a "
                        "1 bb BB ante, all SB 0.5 / BB 1")
    p.add_argument("--stacks", default=DEFAULT_STACKS,
                   help="the stack grid, START:STOP:STEP or a comma list; each structure from the first stack "
                        "that covers its big blind and antes")
    p.add_argument("--ante-stacks", default=None, metavar="STACKS",
                   help="stacks of the path along the ante (START:STOP:STEP, a comma list, or none); default every "
                        "0.5 bb of the range that covers the highest ante")
    g = p.add_argument_group("game")
    g.add_argument("--small-blind", type=number("--small-blind"), default=None, help="small blind in bb; default 0.5")
    g.add_argument("--big-blind", type=number("--big-blind"), default=None, help="big blind in bb; default 1")
    g.add_argument("--bb-ante", type=number("--bb-ante"), default=None, help="big-blind ante in bb; default 0")
    p.add_argument("--out", default=None,
                   help="output folder (default reports/atlas_<structures>_<stack range>)")
    p.add_argument("--workers", type=whole("--workers", 0), default=None, metavar="N",
                   help="worker processes solving the structures, 0 = all in this process, at most the machine's "
                        "usable cores (default: one per usable core for two structures or more)")
    p.add_argument("--charts", nargs="?", const="all", default=None, metavar="FORMATS",
                   help="also write each structure's chart set (sflp chart's files) into charts/<structure>/: "
                        "every format, or those given (e.g. --charts csv,pdf)")
    p.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="solve the structures on the Dask cluster whose scheduler is at ADDRESS (e.g. "
                        "tcp://HOST:8786; needs pip install 'sflp[dask]'); this machine writes the folder")
    p.add_argument("--worker-timeout", type=number("--worker-timeout"), default=None, metavar="SECONDS",
                   help="with --scheduler: while the cluster has no worker (none joined yet, or the last one "
                        "died), say so on stderr and wait this long for one to join, then stop with an error "
                        "(default 60; connecting to the scheduler itself gives up after 25 s)")
    p.add_argument("--hands", default=",".join(MAP_HANDS), metavar="HANDS",
                   help="the hands of hand_maps.png/.svg, a comma list of class names, or none "
                        f"(default {','.join(MAP_HANDS)})")
    p.add_argument("--reach", type=whole("--reach", 0), default=0, metavar="N",
                   help="trace the hand maps' boundaries between the antes: solve up to N more structures at antes "
                        "chosen where a boundary bends or the stretches change (default 0: none)")
    add_lock(p)
    add_output(p)
    p.set_defaults(func=cmd_atlas)
