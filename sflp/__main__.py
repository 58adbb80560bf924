"""``python -m sflp``: the same as the ``sflp`` console script."""

import sys

from sflp.cli import main

if __name__ == "__main__":
    sys.exit(main())
