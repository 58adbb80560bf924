"""Solving the game exactly: the support algebra, HiGHS warm solves of the cvxpy LP, the game in
exact integers and its certificates, the double-double block evaluation, the solver and the exact
thresholds (one support's piece of the path, the path follower, the public face).

See docs/ARCHITECTURE.md for the floors and the one-way imports."""
