"""Solving the game exactly: the support algebra, HiGHS warm solves of the cvxpy LP, exact
certificates, the double-double block evaluation, the solver and the exact thresholds.

See docs/ARCHITECTURE.md for the floors and the one-way imports."""
