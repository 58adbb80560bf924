"""A stand-in for your solver: OpenSpiel's CFR+ on every game of a folder `sflp export efg --stacks` wrote.

Run:  python -m sflp.examples.cfr_plus FOLDER [--iterations 10,30]   (from any folder: it is installed with sflp)

For each ``<stack>bb.efg`` in FOLDER it runs OpenSpiel's C++ CFR+ and, at each of the iteration
counts given, saves the average policy as OpenSpiel writes it (``policy_table()`` as JSON) beside
the game: ``<stack>bb_it<iterations>.json``.  Nothing here is sflp's: ``sflp verify --policy-dir
FOLDER`` then scores every iterate exactly, in the game each file names (docs/OPENSPIEL.md).
Needs OpenSpiel (``pip install 'open-spiel>=1.5'``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m sflp.examples.cfr_plus", description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--iterations", default="10,30", help="comma list of iteration counts (default 10,30)")
    args = parser.parse_args(argv)
    try:
        counts = sorted({int(t) for t in args.iterations.split(",")})
    except ValueError:
        parser.error(f"--iterations {args.iterations!r}: expected a comma list of whole numbers such as 10,30")
    if not counts or counts[0] < 1:
        parser.error(f"--iterations {args.iterations!r}: every count must be at least 1")
    games = sorted(args.folder.glob("*bb.efg"))
    if not games:
        parser.error(f"{args.folder} holds no <stack>bb.efg: make them with "
                     "sflp export efg --stacks 5,10,15 --out FOLDER")
    import pyspiel

    for path in games:
        solver = pyspiel.CFRPlusSolver(pyspiel.load_efg_game(path.read_text()))
        done = 0
        for count in counts:
            for _ in range(count - done):
                solver.evaluate_and_update_policy()
            done = count
            table = solver.tabular_average_policy().policy_table()
            out = path.with_name(f"{path.stem}_it{count}.json")
            out.write_text(json.dumps(table))
            print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
