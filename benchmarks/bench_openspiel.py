"""Benchmark of the OpenSpiel bridge: the .efg export, OpenSpiel loading it, and scoring a policy.

Run:  python benchmarks/bench_openspiel.py [--runs 5] [--stack 10] [--record]

Prints medians of ``--runs`` runs (in this process, the equity table already loaded) of

* the export: :func:`sflp.openspiel.efg.efg_text` (the file's text) and its size;
* OpenSpiel reading that text (``pyspiel.load_efg_game``), the reference the export is measured
  against: the export should cost about what reading it costs (ratio ~1-3);
* scoring one policy exactly (:func:`sflp.openspiel.verify`, rationals) against OpenSpiel's own
  C++ ``pyspiel.nash_conv`` of the same policy (floats);
* one CFR+ iteration in OpenSpiel's C++, for scale;

and the cold command ``sflp export efg`` in a fresh process, and the file's size with no ante and
with the README's ante of 0.125, and what the ``openspiel`` extra adds to an install: the files of
open-spiel and of the distributions it requires that sflp's own dependencies do not (as
installed here, from each distribution's RECORD).  With pygambit installed (the test extra), also Gambit reading
the file (``pygambit.read_efg``), and what node labels would cost: the file with a unique label on
every decision node (57,122; the file has none, see :mod:`sflp.openspiel.efg`) read by OpenSpiel,
and by Gambit with labels on its first 4,000 and 8,000 decision nodes (Gambit checks each label
against every node, so the time grows with the square of their number).  Every time is wall
seconds in one process (CPU beside it).
Needs OpenSpiel: ``pip install 'open-spiel>=1.5'`` (in a checkout of sflp, ``pip install -e '.[openspiel]'``).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
import tomllib
from importlib import metadata
from pathlib import Path

from _common import ROOT, Record, bytes_text, cold_command, machine, measure, report

import sflp
from sflp.core.equity import load_table

RECORD = Record("openspiel")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--stack", type=float, default=10.0)
    RECORD.arguments(parser)
    args = parser.parse_args(argv)
    RECORD.use(args)
    try:
        import pyspiel
    except ImportError:
        print("OpenSpiel is not installed: pip install 'open-spiel>=1.5'", file=sys.stderr)
        return 2
    from sflp.openspiel import efg_text, load_game, verify

    print(f"machine: {machine()}")
    extra, size = install_size()
    print(f"the openspiel extra installs {size:,} bytes: {', '.join(extra)}")
    RECORD.put("install.bytes", size, bytes_text(size, 2),
               f"installed files of {', '.join(extra)} (open-spiel and what it requires beyond sflp's dependencies)")
    config = sflp.GameConfig(stack=args.stack)
    load_table()
    efg_text(config)  # the exact payoffs of this structure, cached like any solve's
    text = efg_text(config)
    print(f"export: {len(text.encode()):,} bytes, {text.count(chr(10)):,} lines")
    size = len(text.encode())
    RECORD.put("efg.bytes", size, f"{size / 1e6:.1f} MB", f"the .efg text at {args.stack:g} bb, no ante")
    ante = len(efg_text(sflp.GameConfig(stack=args.stack, ante=0.125)).encode())
    print(f"export with ante 0.125: {ante:,} bytes")
    RECORD.put("efg_ante.bytes", ante, f"{ante / 1e6:.1f} MB", f"the .efg text at {args.stack:g} bb, ante 0.125")
    t = measure(lambda: efg_text(config), args.runs)
    report(f"export, {args.stack:g} bb (efg_text)", t)
    RECORD.timing("export", t, "efg_text of one stack, warm")
    export = t.wall
    t = measure(lambda: pyspiel.load_efg_game(text), args.runs)
    report("OpenSpiel load_efg_game of that text (reference)", t)
    RECORD.timing("load", t, "pyspiel.load_efg_game of that text")
    load = t.wall
    print(f"ratio export / load: {export / load:.2f}")

    game = load_game(config)
    solver = pyspiel.CFRPlusSolver(game)
    t = measure(solver.evaluate_and_update_policy, args.runs)
    report("OpenSpiel CFR+, one iteration (C++)", t)
    RECORD.timing("cfr_step", t, "one OpenSpiel CFR+ iteration (C++)")
    for _ in range(20):
        solver.evaluate_and_update_policy()
    policy = solver.tabular_average_policy()
    t = measure(lambda: pyspiel.nash_conv(game, policy), args.runs)
    report("OpenSpiel nash_conv of a CFR+ average policy (C++, floats; reference)", t)
    RECORD.timing("nash_conv", t, "pyspiel.nash_conv of a policy")
    theirs = t.wall
    t = measure(lambda: verify(policy, config), args.runs)
    report("sflp.openspiel.verify of the same policy (exact rationals, with the per-hand report)", t)
    RECORD.timing("verify", t, "sflp.openspiel.verify of the same policy", sig=3)
    print(f"ratio exact verify / OpenSpiel nash_conv: {t.wall / theirs:.2f}")

    labelled_text = labelled(text)
    size = len(labelled_text.encode())
    RECORD.put("efg_labels.bytes", size, f"{size / 1e6:.1f} MB", "the same text with a label on every decision node")
    t = measure(lambda: pyspiel.load_efg_game(labelled_text), args.runs)
    report("OpenSpiel load_efg_game with a unique label on every decision node", t)
    RECORD.timing("load_labels", t, "pyspiel.load_efg_game, every decision node labelled")
    gambit(text, args.runs)

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "g.efg"
        t = cold_command([sys.executable, "-m", "sflp", "export", "efg", "--stack", f"{args.stack:g}",
                          "--out", str(out)], args.runs)
        report("cold `sflp export efg` (a new process: imports, table, exact payoffs, write)", t)
        RECORD.timing("cold_export", t, "sflp export efg in a new process")
    RECORD.write()
    return 0


def _names(specs: list[str]) -> list[str]:
    """The distribution names of requirement specifiers (``"open-spiel>=1.5; ..."`` -> ``open-spiel``)."""
    return [re.match(r"[A-Za-z0-9._-]+", spec.strip())[0] for spec in specs]


def _requirements(name: str) -> list[str]:
    """The distributions ``name`` requires (its extras' left out), as installed here."""
    out = []
    for line in metadata.distribution(name).requires or []:
        requirement, _, marker = line.partition(";")
        if "extra" not in marker:
            out.extend(_names([requirement]))
    return out


def _closure(names: list[str]) -> set[str]:
    """``names`` and every distribution they require, installed here, in normalised names."""
    seen: set[str] = set()
    todo = list(names)
    while todo:
        name = re.sub(r"[-_.]+", "-", todo.pop()).lower()
        if name in seen:
            continue
        try:
            todo.extend(_requirements(name))
        except metadata.PackageNotFoundError:
            continue
        seen.add(name)
    return seen


def install_size() -> tuple[list[str], int]:
    """The distributions the openspiel extra adds to sflp's dependencies (pyproject.toml's), and
    the bytes of their installed files."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extra = sorted(_closure(_names(project["optional-dependencies"]["openspiel"]))
                   - _closure(_names(project["dependencies"])))
    size = 0
    for name in extra:
        dist = metadata.distribution(name)
        for file in dist.files or []:
            path = dist.locate_file(file)
            if os.path.isfile(path):
                size += os.path.getsize(path)
    return extra, size


def labelled(text: str, limit: int | None = None) -> str:
    """``text`` with the first ``limit`` (all) decision nodes labelled ``"n1"``, ``"n2"``, ..."""
    count = 0

    def name(line: str) -> str:
        nonlocal count
        if line.startswith('p "" ') and (limit is None or count < limit):
            count += 1
            return f'p "n{count}" ' + line[5:]
        return line

    return "\n".join(name(line) for line in text.split("\n"))


def gambit(text: str, runs: int) -> None:
    """Gambit reading the file, and the same file with labels on 4,000 and 8,000 decision nodes."""
    try:
        import pygambit
    except ImportError:
        print("pygambit is not installed: no Gambit figures (pip install -e '.[gambit]')", file=sys.stderr)
        return
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "g.efg"
        path.write_text(text)
        t = measure(lambda: pygambit.read_efg(str(path)), runs)
        report(f"Gambit read_efg of that file (pygambit {pygambit.__version__})", t)
        RECORD.timing("gambit_load", t, f"pygambit {pygambit.__version__} read_efg of the file")
        for n in (4000, 8000):
            path.write_text(labelled(text, n))
            t = measure(lambda: pygambit.read_efg(str(path)), 1)
            report(f"Gambit read_efg with labels on the first {n:,} decision nodes", t)
            RECORD.timing(f"gambit_labels{n}", t, f"pygambit read_efg, the first {n:,} decision nodes labelled")


if __name__ == "__main__":
    raise SystemExit(main())
