"""``sflp export``: the game handed to other tools, as a Gambit ``.efg`` file (one stack, a folder
of stacks, or the combo-level game) or the combo-level sequence form (``.npz``)."""

from __future__ import annotations

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
    config_from,
    print_json,
    show_progress,
    terminal_width,
)
from sflp.errors import ConfigError


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
              f"terminal nodes), in {summary.seconds:.1f} s.\nOpenSpiel loads it in some seconds and about 4 GB "
              "(docs/OPENSPIEL.md quotes a measured run): "
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
    from sflp.views.stack_sets import write_efg_set

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
    from sflp.output.target import check_target
    from sflp.views.stack_sets import EFG_SET_KIND

    check_target(out_dir, EFG_SET_KIND)
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

def add_commands(sub) -> None:
    """export."""
    p = add_parser(sub, "export", help="the game for other tools: efg, a Gambit extensive-form file OpenSpiel loads, "
                                       "or npz, the combo-level sequence form")
    p.add_argument("format", choices=("efg", "npz"),
                   help="efg: Gambit's .efg (pyspiel.load_efg_game reads it); npz: the 1,326-combo game's "
                        "sequence form as numpy arrays (10 MB)")
    p.add_argument("--combos", action="store_true",
                   help="efg at combo level: 1,326 hands a player, one stack (354 MB at 10 bb; OpenSpiel loads it "
                        "in some seconds and about 4 GB: docs/OPENSPIEL.md has a measured run)")
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
