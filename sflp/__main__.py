"""``python -m sflp``: the same as the ``sflp`` console script."""

from sflp.cli import run

if __name__ == "__main__":
    run()
