"""The ``sflp`` command line: a thin layer over the library.

Each subcommand parses its arguments, calls one library function and prints what it returns:
``--json`` one JSON object on stdout, else readable text (both from :mod:`sflp.views.text` or
the formatter next to the result type).  Library errors (:class:`~sflp.errors.SflpError`) become
one line on stderr and exit code 2 at one place, :func:`~sflp.cli.main.main`; anything else is a
bug and shows its traceback.

* :mod:`.main` -- the parser, the error boundary, signals;
* :mod:`.options` -- shared options, the JSON printer, progress bars;
* :mod:`.game` -- ``equity``, ``solve``, ``rank``, ``sc``, ``cache``;
* :mod:`.charts` -- ``chart``, ``exploit``, ``compare``, ``verify-thresholds``;
* :mod:`.atlas` -- ``atlas``;
* :mod:`.verify` -- ``verify``;
* :mod:`.export` -- ``export``;
* :mod:`.study` -- ``approx``, ``approx-bench``, ``simulate``.
"""

from sflp.cli.main import build_parser, main, run

__all__ = ["build_parser", "main", "run"]
