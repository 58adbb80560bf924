"""A sampling profile of one chart job, written in one process: where its CPU time goes.

Run:  python benchmarks/profile_chart.py [--stacks 1:25:0.05] [--formats ...] [--top 40]

The job runs as ``sflp.chart(..., workers=0)`` (every file in this process, so one profile sees
all of it) with a ``SIGPROF`` timer sampling the Python stack every 2 ms of CPU time.  Each
function's share is the fraction of samples with it on the stack (inclusive) or on top (self).
A sampling profile, unlike ``cProfile``, does not inflate code that makes many small Python
calls (``cProfile`` made openpyxl's style setters look three times their cost).  Printed, not
recorded: the shares move with the code, the totals are in ``bench_chart.py``'s record.
"""

from __future__ import annotations

import argparse
import collections
import signal
import sys
import tempfile
import time
from pathlib import Path

from _common import ROOT

GROUPS = (
    ("exact thresholds", "sflp/solving/thresholds.py:compute_thresholds"),
    ("  the path follower", "sflp/solving/follower.py:run"),
    ("  the certificate", "sflp/solving/threshcert.py:certify_path"),
    ("every stack read off the path", "sflp/solving/solver.py:_path_blocks"),
    ("the workbook", "sflp/charts/media/xlsx/__init__.py:_workbook"),
    ("the pictures", "sflp/charts/media/pictures/__init__.py:_pictures"),
    ("the page", "sflp/charts/media/html/__init__.py:_page"),
    ("the PDF", "sflp/charts/media/pdf/__init__.py:_pdf"),
    ("the CSV files (streamed)", "sflp/charts/media/csv.py:add"),
    ("imports", "<frozen importlib._bootstrap>:_find_and_load"),
)


def _key(code) -> str:
    name = code.co_filename
    name = name.split("site-packages/")[-1].replace(str(ROOT) + "/", "")
    return f"{name}:{code.co_name}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stacks", default="1:25:0.05")
    parser.add_argument("--formats", default=None)
    parser.add_argument("--top", type=int, default=30)
    args = parser.parse_args(argv)
    inclusive: collections.Counter = collections.Counter()
    own: collections.Counter = collections.Counter()
    count = [0]

    def sample(signum, frame) -> None:
        count[0] += 1
        seen = set()
        own[_key(frame.f_code)] += 1
        while frame is not None:
            key = _key(frame.f_code)
            if key not in seen:
                inclusive[key] += 1
                seen.add(key)
            frame = frame.f_back

    sys.path.insert(0, str(ROOT))
    signal.signal(signal.SIGPROF, sample)
    start = time.process_time()
    signal.setitimer(signal.ITIMER_PROF, 0.002, 0.002)
    try:
        import sflp

        with tempfile.TemporaryDirectory() as tmp:
            sflp.chart(None, args.stacks, out=Path(tmp) / "set", formats=args.formats, workers=0)
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0, 0)
    cpu = time.process_time() - start
    n = max(1, count[0])
    print(f"sflp.chart(stacks={args.stacks!r}, formats={args.formats!r}, workers=0): {cpu:.2f} s CPU, "
          f"{count[0]} samples (imports included)")
    print("\nshare of the CPU time, by part of the job:")
    for name, key in GROUPS:
        print(f"  {100 * inclusive[key] / n:5.1f}%  {name}")
    print(f"\ninclusive, the top {args.top}:")
    for key, k in inclusive.most_common(args.top):
        print(f"  {100 * k / n:5.1f}%  {key}")
    print(f"\nself, the top {args.top}:")
    for key, k in own.most_common(args.top):
        print(f"  {100 * k / n:5.1f}%  {key}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
