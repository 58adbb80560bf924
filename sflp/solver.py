"""Solve push/fold games: one stack, or many stacks with support reuse.  Every answer is checked.

``solve(config)`` runs the cvxpy LP (:mod:`sflp.lp`), then *polishes* the answer: it reads the
support (pure and mixed hands of each player) off the LP solution and solves the indifference
equations of the mixed hands directly, which removes the solver's ~1e-9 noise.  The result is
checked by best responses (:meth:`sflp.game.PushFoldGame.exploitability`); above
``MAX_EXPLOITABILITY`` the solve fails loudly with :class:`~sflp.errors.SolveError`.

``solve_many(stacks, config)`` walks the stacks in order and first tries the previous stack's
support (a few matrix-vector products); only where that candidate fails the best-response check
is the LP solved again.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from sflp.errors import SolveError
from sflp.game import GameConfig, PushFoldGame, Solution, Support, make_solution, solve_on_support

MAX_EXPLOITABILITY = 1e-9
"""Largest exploitability (bb per hand) a returned solution may have."""


def _polish(game: PushFoldGame, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The LP answer with its support's indifference equations solved exactly (if that is better)."""
    best = (x, y)
    best_exp = game.exploitability(x, y)
    for tol in (1e-7, 1e-5, 1e-9):
        candidate = solve_on_support(game, Support.of(x, y, tol))
        if candidate is not None:
            e = game.exploitability(*candidate)
            if e < best_exp:
                best, best_exp = candidate, e
    return best


def _finish(game: PushFoldGame, x, y, method: str, exact: bool) -> Solution:
    solution = make_solution(game, x, y, method)
    if not solution.exploitability <= MAX_EXPLOITABILITY:
        raise SolveError(
            f"solution for {game.config} has exploitability {solution.exploitability:.3g} bb "
            f"> {MAX_EXPLOITABILITY:g}: refusing to return it"
        )
    if exact:
        from sflp.certify import certify

        solution = certify(game, solution)
    return solution


def make_game(config: GameConfig, level: str = "class", table=None) -> PushFoldGame:
    """The game of ``config`` at ``level`` ("class" or "combo")."""
    return PushFoldGame(config, table, level)


def solve(
    config: GameConfig,
    *,
    level: str = "class",
    solver: str | None = None,
    exact: bool = False,
    table=None,
) -> Solution:
    """The checked equilibrium of ``config`` (SB push / BB call per hand, value, EV margins)."""
    from sflp.lp import DEFAULT_SOLVER, solve_lp

    game = make_game(config, level, table)
    x, y, _ = solve_lp(game, solver or DEFAULT_SOLVER)
    x, y = _polish(game, x, y)
    return _finish(game, x, y, "lp", exact)


def solve_many(
    stacks: Iterable[float],
    config: GameConfig | None = None,
    *,
    level: str = "class",
    solver: str | None = None,
    exact: bool = False,
    table=None,
    progress=None,
) -> list[Solution]:
    """Checked equilibria for many stacks of one blind structure, in the order given.

    Stacks are visited in increasing order; each first tries the support of the previous stack
    (a candidate costs microseconds to check) and falls back to the LP where the check fails.
    ``Solution.method`` says which: ``"support"`` or ``"lp"``.  ``progress`` is an optional
    callable invoked once per stack.
    """
    from sflp.lp import DEFAULT_SOLVER, solve_lp

    stacks = [float(s) for s in stacks]
    base = config or GameConfig(stack=stacks[0] if stacks else 10.0)
    first = base.with_stack(stacks[0]) if stacks else base
    game0 = make_game(first, level, table)
    order = sorted(range(len(stacks)), key=lambda k: stacks[k])
    out: list[Solution | None] = [None] * len(stacks)
    support: Support | None = None
    for k in order:
        game = game0.at_stack(stacks[k])
        candidate = solve_on_support(game, support) if support is not None else None
        if candidate is not None and game.exploitability(*candidate) <= MAX_EXPLOITABILITY:
            x, y = candidate
            method = "support"
        else:
            x, y, _ = solve_lp(game, solver or DEFAULT_SOLVER)
            x, y = _polish(game, x, y)
            method = "lp"
        out[k] = _finish(game, x, y, method, exact)
        support = Support.of(x, y)
        if progress is not None:
            progress()
    return out  # type: ignore[return-value]
