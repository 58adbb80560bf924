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

import math
from collections.abc import Iterable, Sequence
from decimal import Decimal
from numbers import Real

import numpy as np

from sflp.errors import ConfigError, SolveError
from sflp.game import GameConfig, PushFoldGame, Solution, Support, make_solution, solve_on_support

MAX_EXPLOITABILITY = 1e-9
"""Largest exploitability (bb per hand) a returned solution may have."""


LP_STACK_LIMIT = 1e9
"""Largest stack (bb) handed to the LP.  Its coefficients grow with the stack while the blinds
stay put, so far above this HiGHS no longer resolves them (it fails near 1e15).  Past the last
breakpoint (about 834 bb without antes) the support no longer changes -- only AA is shoved and
called -- so a larger stack takes the support the LP finds here, solves its indifference
equations at the stack asked for, and is checked by best responses like every answer."""


def _solve_lp(game: PushFoldGame, solver: str | None) -> tuple[np.ndarray, np.ndarray, str]:
    """The polished LP answer, and its method name (large stacks: see ``LP_STACK_LIMIT``)."""
    from sflp.lp import DEFAULT_SOLVER, solve_lp

    stack = float(game.config.stack)
    if stack <= LP_STACK_LIMIT:
        x, y, _ = solve_lp(game, solver or DEFAULT_SOLVER)
        x, y = _polish(game, x, y)
        return x, y, "lp"
    ref = game.at_stack(LP_STACK_LIMIT)
    x, y, _ = solve_lp(ref, solver or DEFAULT_SOLVER)
    x, y = _polish(ref, x, y)
    for tol in (1e-7, 1e-5, 1e-9):
        candidate = solve_on_support(game, Support.of(x, y, tol))
        if candidate is not None and game.exploitability(*candidate) <= MAX_EXPLOITABILITY:
            return candidate[0], candidate[1], "support"
    raise SolveError(
        f"stack={stack:g} bb is beyond what the LP resolves ({LP_STACK_LIMIT:g} bb), and the equilibrium "
        f"support at {LP_STACK_LIMIT:g} bb does not hold at {stack:g} bb; solve a stack of at most "
        f"{LP_STACK_LIMIT:g} bb"
    )


def _polish(game: PushFoldGame, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The LP answer with its support's indifference equations solved exactly (if that is better)."""
    best = (x, y)
    best_exp = game.exploitability(x, y)
    # The support's exact solution wins ties within float noise: it has pure hands at exactly
    # 0 or 1, where a solver's vertex may carry 1 - 1e-10 (HiGHS versions differ there).
    slack = game.noise_tolerance()
    polished = False
    for tol in (1e-7, 1e-5, 1e-9):
        candidate = solve_on_support(game, Support.of(x, y, tol))
        if candidate is not None:
            e = game.exploitability(*candidate)
            if e < best_exp or (not polished and e <= best_exp + slack):
                best, best_exp, polished = candidate, e, True
    return best


def _repair(game: PushFoldGame, x: np.ndarray, y: np.ndarray, keep: Support | None, width: int = 3):
    """Guess the support at a new stack from an approximate answer, without an LP.

    Hands whose EV margins are nearest zero (per hand held) are the candidates to be mixed; all
    others play the pure action their margin's sign says.  Supports with 0, 1 or 2 mixed hands
    per side drawn from those candidates are tried in order of size, each checked by best
    responses.  Returns strategies or None (then the caller solves the LP).
    """
    from itertools import combinations

    for _round in range(2):
        sb_margin = game.sb_margins(y) / game.r
        bb_margin = game.bb_margins(x) / game.r
        sb_near = list(np.argsort(np.abs(sb_margin))[:width])
        bb_near = list(np.argsort(np.abs(bb_margin))[:width])
        if keep is not None:
            sb_near = list(dict.fromkeys([*keep.sb_mixed, *sb_near]))[: width + 1]
            bb_near = list(dict.fromkeys([*keep.bb_mixed, *bb_near]))[: width + 1]
        sb_up = set(np.flatnonzero(sb_margin > 0).tolist())
        bb_up = set(np.flatnonzero(bb_margin > 0).tolist())
        best, best_exp = None, np.inf
        for size in (0, 1, 2):
            for sm in combinations(sb_near, size):
                for bm in combinations(bb_near, size):
                    support = Support(
                        frozenset(sb_up - set(sm)), tuple(sorted(sm)), frozenset(bb_up - set(bm)), tuple(sorted(bm))
                    )
                    candidate = solve_on_support(game, support)
                    if candidate is None:
                        continue
                    e = game.exploitability(*candidate)
                    if e <= MAX_EXPLOITABILITY:
                        return candidate
                    if e < best_exp:
                        best, best_exp = candidate, e
        if best is None:
            return None
        x, y = best  # a second round from the best guess so far
    return None


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


def _check_config(config, caller: str) -> None:
    if not isinstance(config, GameConfig):
        raise ConfigError(
            f"{caller}() takes a GameConfig, not {type(config).__name__} {config!r:.40}: "
            f"e.g. {caller}({'GameConfig(stack=10)' if caller == 'solve' else '[5, 10], GameConfig(stack=5)'})"
        )


def _check_stacks(stacks) -> list[float]:
    """The stacks of a sweep as floats; sflp's own error for anything that is not numbers."""
    if isinstance(stacks, (str, bytes)) or not isinstance(stacks, Iterable):
        raise ConfigError(
            f"stacks must be a list of numbers, not {type(stacks).__name__} {stacks!r:.40} "
            "(e.g. [5, 10], or numpy.arange(1, 25.01, 0.05))"
        )
    out = []
    for s in stacks:
        if isinstance(s, bool) or not isinstance(s, (Real, Decimal)):
            raise ConfigError(f"stack {s!r:.40} is not a number")
        try:
            value = float(s)
        except OverflowError:
            raise ConfigError(f"stack {s!r:.40} is too large") from None
        if not (math.isfinite(value) and value > 0):
            raise ConfigError(f"stack {s!r} must be a positive finite number")
        out.append(value)
    return out


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
    _check_config(config, "solve")
    game = make_game(config, level, table)
    x, y, method = _solve_lp(game, solver)
    return _finish(game, x, y, method, exact)


def solve_many(
    stacks: Iterable[float],
    config: GameConfig | None = None,
    *,
    level: str = "class",
    solver: str | None = None,
    exact: bool = False,
    table=None,
    progress=None,
    workers: int | None = None,
) -> list[Solution]:
    """Checked equilibria for many stacks of one blind structure, in the order given.

    Stacks are visited in increasing order; each first tries the support of the previous stack
    (a candidate costs microseconds to check) and falls back to the LP where the check fails.
    Where it fails, a support guessed from the hands nearest indifference is tried (``_repair``).
``Solution.method`` says which: ``"support"``, ``"repair"`` or ``"lp"``.  ``progress`` is an optional
    callable invoked once per stack.
    """

    stacks = _check_stacks(stacks)
    if config is not None:
        _check_config(config, "solve_many")
    base = config or GameConfig(stack=stacks[0] if stacks else 10.0)
    first = base.with_stack(stacks[0]) if stacks else base
    game0 = make_game(first, level, table)
    order = sorted(range(len(stacks)), key=lambda k: stacks[k])
    path = _path_for(stacks, first, level, table)
    if path is not None:
        return _solve_on_path(path, stacks, order, game0, exact, solver, progress)
    workers = _workers(workers, len(stacks))
    if workers > 1:
        return _solve_parallel(stacks, order, first, level, solver, exact, table, progress, workers)
    out: list[Solution | None] = [None] * len(stacks)
    support: Support | None = None
    for k in order:
        game = game0.at_stack(stacks[k])
        candidate = solve_on_support(game, support) if support is not None else None
        if candidate is not None and game.exploitability(*candidate) <= MAX_EXPLOITABILITY:
            x, y = candidate
            method = "support"
        elif support is not None and (repaired := _repair(game, x, y, support)) is not None:
            x, y = repaired
            method = "repair"
        else:
            x, y, method = _solve_lp(game, solver)
        out[k] = _finish(game, x, y, method, exact)
        support = Support.of(x, y)
        if progress is not None:
            progress()
    return out  # type: ignore[return-value]


PARALLEL_MIN = 200
"""Sweeps with at least this many stacks use worker processes."""


def _workers(requested: int | None, n: int) -> int:
    import multiprocessing
    import os

    if requested is not None:
        return max(1, int(requested))
    if n < PARALLEL_MIN or "fork" not in multiprocessing.get_all_start_methods():
        return 1
    return max(1, min(4, os.cpu_count() or 1))


def _chunk_worker(args):
    stacks, config, level, solver, exact = args
    return solve_many(stacks, config, level=level, solver=solver, exact=exact, workers=1)


def _solve_parallel(stacks, order, config, level, solver, exact, table, progress, workers):
    """Contiguous chunks of the sorted stacks in forked processes (they inherit the compiled LP)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    from sflp.lp import DEFAULT_SOLVER, lp_for

    lp_for(make_game(config, level, table), solver or DEFAULT_SOLVER)  # compile once, before forking
    sorted_stacks = [stacks[k] for k in order]
    bounds = np.linspace(0, len(sorted_stacks), workers + 1).round().astype(int)
    chunks = [sorted_stacks[a:b] for a, b in zip(bounds[:-1], bounds[1:]) if b > a]
    out: list[Solution | None] = [None] * len(stacks)
    ctx = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=len(chunks), mp_context=ctx) as pool:
        results = pool.map(_chunk_worker, [(c, config, level, solver, exact) for c in chunks])
        position = 0
        for chunk_solutions in results:
            for solution in chunk_solutions:
                out[order[position]] = solution
                position += 1
                if progress is not None:
                    progress()
    return out  # type: ignore[return-value]


PATH_MIN = 50
"""Class-level sweeps with at least this many distinct stacks follow the equilibrium path."""


def _path_for(stacks, config: GameConfig, level: str, table):
    """The equilibrium path over the sweep's range, or None when it does not apply or fails."""
    if level != "class" or len(set(stacks)) < PATH_MIN:
        return None
    from sflp.errors import SflpError
    from sflp.thresholds import compute_thresholds

    try:
        return compute_thresholds(config, low=min(stacks), high=max(stacks), table=table)
    except SflpError:
        return None


def _solve_on_path(path, stacks, order, game0, exact, solver, progress) -> list[Solution]:

    out: list[Solution | None] = [None] * len(stacks)
    for k in order:
        game = game0.at_stack(stacks[k])
        x, y = path.strategies_at(stacks[k])
        method = "path"
        if not game.exploitability(x, y) <= MAX_EXPLOITABILITY:
            x, y, method = _solve_lp(game, solver)
        out[k] = _finish(game, x, y, method, exact)
        if progress is not None:
            progress()
    return out  # type: ignore[return-value]
