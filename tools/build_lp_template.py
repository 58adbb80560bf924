"""Compile the push/fold LP template with cvxpy and write it to the checkout's ``data/`` (the copy
the package ships, :func:`sflp.solving.lp.compile_template`).

Run it after the model or the equity table changes; ``tests/test_lp_template.py`` fails while the
shipped copy differs from a fresh compile.  It replaces only a file sflp wrote.

    python tools/build_lp_template.py
"""

from __future__ import annotations

import sys
from pathlib import Path

from sflp.core.game import GameConfig, payoffs_for
from sflp.solving.highs import SHIPPED_NAME, write_template
from sflp.solving.lp import compile_template, template_key

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    payoffs = payoffs_for(GameConfig(stack=10))
    target = ROOT / "data" / SHIPPED_NAME
    if not write_template(compile_template(payoffs), template_key(payoffs), path=target, replace=True):
        print(f"build_lp_template: {target} was not written (a file sflp did not write is there, "
              "or the folder is not writable)", file=sys.stderr)
        return 1
    print(f"{target}: {target.stat().st_size:,} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
