"""The one small error hierarchy of sflp.

Library code raises these; the CLI turns any :class:`SflpError` into one line on
stderr and exit code 2 at a single place (``sflp.cli.main``).
"""


class SflpError(Exception):
    """Base class of every error sflp raises on purpose."""


class NotationError(SflpError, ValueError):
    """A card, hand, class or range string could not be parsed."""


class ConfigError(SflpError, ValueError):
    """A game configuration or option value is invalid."""


class ArgumentTypeError(ConfigError, TypeError):
    """An argument of the wrong type (``None`` or a str where a GameConfig is needed): sflp's own
    error, and a ``TypeError`` as Python callers expect."""


class DataError(SflpError):
    """A data file sflp reads back (the equity table, a chart set) is missing, corrupt or of an unknown format."""


class SolveError(SflpError):
    """The solver did not reach an optimal status, or a solution failed its check."""


class CertificateError(SolveError):
    """A solution could not be certified in exact rational arithmetic."""


class OutputError(SflpError):
    """A report or output file could not be written."""
