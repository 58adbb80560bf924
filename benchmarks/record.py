"""Record the figures README.md and docs/ quote: run the benchmarks, keep their figures, rewrite the quotes.

    python benchmarks/record.py                  # every benchmark below, then rewrite the quotes
    python benchmarks/record.py --only chart,core
    python benchmarks/record.py --docs           # only rewrite the quotes from the records
    python benchmarks/record.py --check          # only check the quotes against the records

Each benchmark runs as ``python benchmarks/bench_<name>.py ARGS --record`` and writes
``benchmarks/results/<name>.json``: the machine's state when it ran (CPU model, cores, load
average at the start and the end, Python and library versions, the commit) and each figure under
a key, with the exact text the docs quote.  The quotes in README.md and docs/*.md are marked
``<!--fig KEY-->TEXT<!--/fig-->`` (see ``benchmarks/figures.py``); after the runs each TEXT is
replaced by its record's, and ``tests/test_docs_figures.py`` fails when one differs.  Run it on
an idle machine: the record says what the load was.  The chart jobs take about half the time
(on the shared 2-core machine at load 8-10 the whole run took about 30 minutes; idle, several).
A benchmark that fails leaves its old record; the quotes are rewritten from whatever records exist.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import figures  # noqa: E402

BENCHMARKS = {
    "chart": ["--runs", "3"],
    "chart_workers": ["--runs", "3"],
    "core": ["--rounds", "3", "--skip-combo"],
    "thresholds": ["--runs", "3"],
    "equity": ["--runs", "1"],
    "solve": ["--runs", "3", "--skip-combo"],
    "sc": ["--runs", "5"],
    "simulate": ["--runs", "3"],
    "openspiel": ["--runs", "3"],
    "approx": ["--repeats", "3", "--seconds", "2"],
    "atlas": ["--runs", "3"],
    "atlas_cluster": [],
    "atlas_scale": ["--runs", "3"],
    "files": ["--runs", "3"],
    "referee": ["--runs", "5"],
    "media": ["--runs", "5"],
}


def run(name: str) -> int:
    command = [sys.executable, str(HERE / f"bench_{name}.py"), *BENCHMARKS[name], "--record"]
    print(f"\n== {' '.join(['python', f'benchmarks/bench_{name}.py', *command[2:]])}", flush=True)
    return subprocess.run(command, cwd=HERE).returncode


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help=f"a comma-separated subset of {','.join(BENCHMARKS)}")
    parser.add_argument("--docs", action="store_true", help="only rewrite the quotes from the records")
    parser.add_argument("--check", action="store_true", help="only check the quotes against the records")
    args = parser.parse_args(argv)
    if args.check:
        problems = figures.check_all()
        for p in problems:
            print(p)
        print(f"{len(problems)} quote(s) differ from benchmarks/results/" if problems else "every quote is recorded")
        return 1 if problems else 0
    if not args.docs:
        names = args.only.split(",") if args.only else list(BENCHMARKS)
        unknown = [n for n in names if n not in BENCHMARKS]
        if unknown:
            parser.error(f"unknown benchmark(s) {', '.join(unknown)}; known: {', '.join(BENCHMARKS)}")
        failed = [n for n in names if run(n) != 0]
        if failed:
            print(f"failed, records not rewritten: {', '.join(failed)}", file=sys.stderr)
    changed = figures.rewrite_all()
    print("\nrewrote the quotes in " + (", ".join(str(p.relative_to(figures.ROOT)) for p in changed) or "nothing"))
    problems = figures.check_all()
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
