"""Sizes of the files a chart set holds, and reading its margins back: the figures docs/CHARTS.md
quotes about the three forms of the every-stack ranges.

Run:  python benchmarks/bench_files.py [--runs 3] [--record]

Writes, each in a new process into a temporary folder, sets of CSV files only (``sflp chart
--formats csv``):

* 1–25 bb @0.05 (481 stacks), 1–25 bb @0.01 (2,401) and 1–200 bb @0.01 (19,901), each with
  ``--ranges csv`` (``ranges.csv``, the margins in it) and ``--ranges segments``
  (``ranges_segments.csv``, ``margins_supports.csv``, ``margins_stacks.csv``); the csv form of
  1–200 bb is about a quarter of a GB, written only to be measured;
* the exploitative set ``sflp exploit --stacks 1:25:0.01 --bb 30%``, whose margins no support
  row covers (``margins_stacks.csv`` holds them all);

and records each file's size (a file is the same bytes on every machine), the size and the rows
of ``thresholds_exact.csv`` and ``thresholds_segments.csv`` (which depend on the range, not on
the step: the script checks that 1–25 bb gives the same bytes at both steps), and the wall and
CPU seconds (median of ``--runs``, in this process, after a first untimed call) of
``sflp.read_margins`` of the 1–200 bb segments set: every stack, and three stacks.  About a
minute on an idle 2-core machine, and 300 MB of temporary disk.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

from _common import Record, bytes_text, machine, measure, report

import sflp

RECORD = Record("files")

SETS = {  # key -> the stacks of `sflp chart --stacks`
    "1-25-0.05": "1:25:0.05",
    "1-25-0.01": "1:25:0.01",
    "1-200-0.01": "1:200:0.01",
}
FORMS = {"csv": ["ranges.csv"], "segments": ["ranges_segments.csv", "margins_supports.csv", "margins_stacks.csv"]}


def sflp_command(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "sflp", *args], check=True, stdout=subprocess.DEVNULL)


def put_size(key: str, path: Path, exact: bool = False) -> int:
    size = path.stat().st_size
    print(f"{key}: {size:,} bytes")
    RECORD.put(key, size, f"{size:,} bytes" if exact else bytes_text(size), f"size of {path.name}")
    return size


def put_rows(key: str, path: Path) -> None:
    with path.open(encoding="utf-8") as fh:
        rows = sum(1 for _ in fh) - 1  # the header
    RECORD.put(key, rows, f"{rows:,}", f"rows of {path.name} (the header not counted)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    RECORD.arguments(parser)
    args = parser.parse_args(argv)
    RECORD.use(args)
    print(f"machine: {machine()}")
    with tempfile.TemporaryDirectory(prefix="sflp-files-") as tmp:
        root = Path(tmp)
        exact_sizes = {}
        for key, stacks in SETS.items():
            for form, names in FORMS.items():
                out = root / f"{key}-{form}"
                sflp_command("chart", "--stacks", stacks, "--formats", "csv", "--ranges", form, "--out", str(out))
                for name in names:
                    put_size(f"{key}.{form}.{name}", out / name)
            for name in ("thresholds_exact.csv", "thresholds_segments.csv"):
                exact_sizes[key, name] = put_size(f"{key}.{name}", out / name, exact=True)
                put_rows(f"{key}.{name}.rows", out / name)
        for name in ("thresholds_exact.csv", "thresholds_segments.csv"):
            if exact_sizes["1-25-0.05", name] != exact_sizes["1-25-0.01", name]:
                raise SystemExit(f"{name} of 1-25 bb differs between the steps 0.05 and 0.01")
        out = root / "exploit"
        sflp_command("exploit", "--stacks", "1:25:0.01", "--bb", "30%", "--out", str(out))
        put_size("exploit.margins_stacks.csv", out / "margins_stacks.csv")

        folder = root / "1-200-0.01-segments"
        few = [10.0, 50.0, 100.0]
        sflp.read_margins(folder)  # untimed: imports and compiled kernels
        t = measure(lambda: sflp.read_margins(folder), args.runs)
        report("read_margins of every stack of 1-200 bb @0.01 (segments)", t)
        RECORD.timing("read_margins.all", t, "sflp.read_margins of every stack of 1-200 bb @0.01, segments form")
        t = measure(lambda: sflp.read_margins(folder, stacks=few), args.runs)
        report("read_margins of 3 stacks of the same set", t)
        RECORD.timing("read_margins.few", t, "sflp.read_margins of 3 stacks of 1-200 bb @0.01, segments form")
    RECORD.write()
    return 0


if __name__ == "__main__":
    sys.exit(main())
