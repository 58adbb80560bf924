"""``python -m sflp.cli``: the ``sflp`` command."""

from sflp.cli.main import run

run()
