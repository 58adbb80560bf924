"""Studying strategies against the exact game: strategy files, verify, simulation, exploitative
thresholds, Sklansky-Chubukov numbers and chart comparison.

See docs/ARCHITECTURE.md for the floors and the one-way imports."""
