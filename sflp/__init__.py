"""sflp: exact heads-up no-limit hold'em push/fold equilibria.

The package is layered so that imports run one way:
errors -> cards -> ranges -> equity -> game -> lp / certify -> thresholds
-> approx / verify -> report -> cli.
The pure core (``cards``, ``ranges``, ``equity``, ``game``) needs only numpy.
"""

__version__ = "0.1.0"
