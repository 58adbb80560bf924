"""Solve push/fold games: one stack, or many stacks with support reuse.  Every answer is checked.

``solve(config)`` runs the cvxpy LP (:mod:`sflp.solving.lp`), then *polishes* the answer: it reads the
support (pure and mixed hands of each player) off the LP solution and solves the indifference
equations of the mixed hands directly, which removes the solver's ~1e-9 noise (the support
algebra lives in :mod:`sflp.solving.support`; the polish reads supports with the tolerances
:data:`sflp.solving.support.POLISH_TOLERANCES` and keeps the best candidate by exploitability).  The result is
checked by best responses (:meth:`sflp.core.game.PushFoldGame.exploitability`); above
:func:`max_exploitability` the solve fails loudly with :class:`~sflp.errors.SolveError`.

``solve_many(stacks, config)`` walks the stacks in order and first tries the previous stack's
support (a few matrix-vector products); only where that candidate fails the best-response check
is the LP solved again.  Given the exact equilibrium path (``path=compute_thresholds(...)``, or
:meth:`sflp.solving.thresholds.Thresholds.solve`) every stack reads its strategies off the path instead.
:func:`iter_solve` is the streaming form: it yields the solutions one at a time in increasing
stack order, so a sweep over 100,000 stacks never holds them all.

This module does not import :mod:`sflp.solving.thresholds` (which sits above it); the path is passed in.
It is not computed behind the caller's back because it does not pay: reading a stack off the
path costs about 0.2 ms, as much as a stack whose support carries over, and computing the path
costs 0.8-1.4 s.  Measured on 2 cores: 1,000 stacks over 1-100 bb take 0.54 s by support reuse
(two workers) and 1.4 s with the path; 20,000 stacks 4.6 s and 6.1 s (over 1-25 bb: 5.3 s and
4.8 s).  The chart job computes the path anyway, for its thresholds, and then reads every stack
off it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

import numpy as np

from sflp import checks
from sflp.core.game import GameConfig, PushFoldGame, Solution, make_solution
from sflp.errors import ConfigError, SolveError
from sflp.solving.support import POLISH_TOLERANCES, Support, solve_on_support

MAX_EXPLOITABILITY = 1e-9
"""Largest exploitability (bb per hand) a returned solution may have when the big blind and antes
come to 1 bb (the default blinds); other structures scale it (:func:`max_exploitability`)."""


def max_exploitability(config: GameConfig) -> float:
    """The largest exploitability (bb per hand) a solution of ``config`` may have:
    :data:`MAX_EXPLOITABILITY` times the big blind and antes (what BB posts).

    The game is homogeneous: multiplying every amount by ``c`` multiplies every exploitability, and
    so its float noise, by ``c``.  A fixed limit in bb would refuse the right answer of an ante of
    10^9 bb (~1e-6 bb of float noise) and let a wrong support through at blinds of 10^-6 bb."""
    return MAX_EXPLOITABILITY * config.min_stack


LP_STACK_LIMIT = 1e9
"""Largest stack handed to the LP, in units of the pot before anyone acts (``sb + bb + 2 ante +
BB ante``, the LP's own unit: 1.5 bb with the default blinds, see :mod:`sflp.solving.lp`).  The
showdown coefficients grow with the stack while the blinds and antes stay put, so far above this
HiGHS no longer resolves them (it fails near 1e15).  Past the last breakpoint (about 834 bb
without antes) the support no longer changes -- only AA is shoved and called -- so a larger
stack takes the support the LP finds here, solves its indifference equations at the stack asked
for, and is checked by best responses like every answer."""


def _solve_lp(game: PushFoldGame, solver: str | None) -> tuple[np.ndarray, np.ndarray, str]:
    """The polished LP answer, and its method name (large stacks: see ``LP_STACK_LIMIT``)."""
    from sflp.solving.lp import DEFAULT_SOLVER, lp_for

    lp = lp_for(game, solver or DEFAULT_SOLVER)
    stack = float(game.config.stack)
    limit = LP_STACK_LIMIT * lp.unit
    if stack <= limit:
        x, y = _lp_answer(lp, game)
        return x, y, "lp"
    ref = game.at_stack(limit)
    x, y = _lp_answer(lp, ref)
    for tol in POLISH_TOLERANCES:
        candidate = solve_on_support(game, Support.of(x, y, tol))
        if candidate is not None and game.exploitability(*candidate) <= max_exploitability(game.config):
            return candidate[0], candidate[1], "support"
    raise SolveError(
        f"stack={stack:g} bb is beyond what the LP resolves ({LP_STACK_LIMIT:g} times the pot, {limit:g} bb here), "
        f"and the equilibrium support at {limit:g} bb does not hold at {stack:g} bb; solve a stack of at most "
        f"{limit:g} bb"
    )


def _lp_answer(lp, game: PushFoldGame) -> tuple[np.ndarray, np.ndarray]:
    """The LP's answer at ``game``'s stack, polished.  A compiled LP read from the disk cache whose
    first answer fails the best-response check is compiled afresh (said on stderr) and solved
    again: a wrong cache entry must not break solving for good; one answer that passes vouches
    for the entry."""
    stack = float(game.config.stack)
    x, y, _ = lp.solve(stack)
    x, y = _polish(game, x, y)
    if lp.from_disk:
        if game.exploitability(x, y) <= max_exploitability(game.config):
            lp.from_disk = False
        elif lp.recompile("gave an answer that fails the best-response check"):
            x, y, _ = lp.solve(stack)
            x, y = _polish(game, x, y)
    return x, y


def _polish(game: PushFoldGame, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The LP answer with its support's indifference equations solved exactly (if that is better)."""
    best = (x, y)
    best_exp = game.exploitability(x, y)
    # The support's exact solution wins ties within float noise: it has pure hands at exactly
    # 0 or 1, where a solver's vertex may carry 1 - 1e-10 (HiGHS versions differ there).
    slack = game.noise_tolerance()
    polished = False
    seen: set[Support] = set()
    for tol in POLISH_TOLERANCES:
        support = Support.of(x, y, tol)
        if support in seen:  # the same support gives the same candidate: it cannot win
            continue
        seen.add(support)
        candidate = solve_on_support(game, support)
        if candidate is not None:
            e = game.exploitability(*candidate)
            if e < best_exp or (not polished and e <= best_exp + slack):
                best, best_exp, polished = candidate, e, True
            if polished and best_exp == 0.0:  # nothing beats an exploitability of exactly 0
                break
    return best


REPAIR_SIZES = (0,)
"""How many hands per player the repair may make mixed (see :func:`_repair`).  Trying 1 and 2
mixed hands per player in two rounds (up to ~70 candidates, ~5 ms) paid while an LP re-solve took
~18 ms through cvxpy; with the warm HiGHS re-solve (~1.7 ms) it made sweeps slower: over nine
sweeps (1-25, 1-100, 1-200 bb with 50, 200 and 1,000 stacks, one process) (0, 1, 2) x 2 rounds
took 7.1 s in all, (0, 1) x 1 5.0 s, (0,) x 1 4.6 s, no repair 4.8 s."""
REPAIR_ROUNDS = 1


def _repair(game: PushFoldGame, x: np.ndarray, y: np.ndarray, keep: Support | None, width: int = 3):
    """Guess the support at a new stack from an approximate answer, without an LP.

    Hands whose EV margins are nearest zero (per hand held) are the candidates to be mixed; all
    others play the pure action their margin's sign says.  Supports with ``REPAIR_SIZES`` mixed
    hands per side drawn from those candidates are tried in order of size, each checked by best
    responses.  Returns strategies or None (then the caller solves the LP).
    """
    from itertools import combinations

    for _round in range(REPAIR_ROUNDS):
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
        for size in REPAIR_SIZES:
            for sm in combinations(sb_near, size):
                for bm in combinations(bb_near, size):
                    support = Support(
                        frozenset(sb_up - set(sm)), tuple(sorted(sm)), frozenset(bb_up - set(bm)), tuple(sorted(bm))
                    )
                    candidate = solve_on_support(game, support)
                    if candidate is None:
                        continue
                    e = game.exploitability(*candidate)
                    if e <= max_exploitability(game.config):
                        return candidate
                    if e < best_exp:
                        best, best_exp = candidate, e
        if best is None:
            return None
        x, y = best  # a second round from the best guess so far
    return None


def _finish(game: PushFoldGame, solution: Solution, exact: bool) -> Solution:
    limit = max_exploitability(game.config)
    if not solution.exploitability <= limit:
        raise SolveError(
            f"solution for {game.config} has exploitability {solution.exploitability:.3g} bb "
            f"> {limit:g}: refusing to return it"
        )
    if exact:
        from sflp.solving.certify import certify

        solution = certify(game, solution)
    return solution


def _check_solver(solver) -> None:
    if solver is not None and (not isinstance(solver, str) or not solver.strip()):
        raise ConfigError(f"solver={solver!r:.40} is not a cvxpy solver name (e.g. 'HIGHS'; None for the default)")


def _check_config(config, caller: str) -> None:
    if not isinstance(config, GameConfig):
        raise ConfigError(
            f"{caller}() takes a GameConfig, not {type(config).__name__} {config!r:.40}: "
            f"e.g. {caller}({'GameConfig(stack=10)' if caller == 'solve' else '[5, 10], GameConfig(stack=5)'})"
        )


def _sweep(stacks) -> Sequence[float]:
    """The stacks of a sweep in increasing order: a checked :class:`~sflp.checks.Stacks` as it is
    (never checked again), anything else checked here (:func:`sflp.checks.stack_list`), repeats
    kept."""
    return stacks if isinstance(stacks, checks.Stacks) else sorted(checks.stack_list(stacks))


def make_game(config: GameConfig, level: str = "class", table=None) -> PushFoldGame:
    """The game of ``config`` at ``level`` ("class" or "combo").

    The default table is resolved here, once: the game and every ``at_stack`` of it carry it, so
    a sweep's certificates do not look up the data folder again at every stack."""
    if table is None:
        from sflp.core.equity import load_table

        table = load_table()
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
    _check_solver(solver)
    game = make_game(config, level, table)
    x, y, method = _solve_lp(game, solver)
    return _finish(game, make_solution(game, x, y, method), exact)


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
    path=None,
) -> list[Solution]:
    """Checked equilibria for many stacks of one blind structure, in the order given.

    ``path`` is an exact equilibrium path over the sweep's range (the result of
    :func:`sflp.solving.thresholds.compute_thresholds`): each stack then reads its strategies off the
    path (no LP) and is still checked by best responses.  Without a path, stacks are visited in
    increasing order; each first tries the support of the previous stack (a candidate costs
    microseconds to check), then the all-pure support its EV margins' signs suggest
    (``_repair``, see :data:`REPAIR_SIZES`), and only then the LP.  With ``exact`` along a path,
    each stack is certified from its segment's polynomials (:mod:`sflp.solving.segment`).
    ``Solution.method`` says which: ``"path"``, ``"support"``, ``"repair"`` or ``"lp"``.
    ``progress`` is an optional callable invoked once per stack.  This keeps every solution in
    memory; :func:`iter_solve` yields them one at a time.
    """
    if not isinstance(stacks, checks.Stacks):  # a Stacks is checked and sorted already
        stacks = checks.stack_list(stacks)
    _check_solver(solver)
    if config is not None:
        _check_config(config, "solve_many")
    order = sorted(range(len(stacks)), key=stacks.__getitem__)
    out: list[Solution | None] = [None] * len(stacks)
    gen = _iter_sorted(
        [stacks[k] for k in order], config, level=level, solver=solver, exact=exact, table=table,
        progress=progress, workers=workers, path=path, caller="solve_many",
    )
    for k, solution in zip(order, gen):
        out[k] = solution
    return out  # type: ignore[return-value]


def iter_solve(
    stacks: Iterable[float],
    config: GameConfig | None = None,
    *,
    level: str = "class",
    solver: str | None = None,
    exact: bool = False,
    table=None,
    progress=None,
    workers: int | None = None,
    path=None,
) -> Iterator[Solution]:
    """The checked equilibria of ``stacks`` one at a time, in **increasing stack order**.

    The same answers as :func:`solve_many` (see there for ``path`` and the methods), but only a
    bounded number of solutions exists at any time: a chart job over 100,000 stacks writes each
    solution's rows and drops it.  Long sweeps are split into contiguous chunks solved in forked
    worker processes; at most ``2 * workers`` chunks are in flight, so a slow consumer holds the
    workers back instead of piling up results.
    """
    yield from _iter_sorted(_sweep(stacks), config, level=level, solver=solver, exact=exact, table=table,
                            progress=progress, workers=workers, path=path, caller="iter_solve")


def _iter_sorted(stacks: Sequence[float], config: GameConfig | None, *, level: str, solver: str | None, exact: bool,
                 table, progress, workers: int | None, path, caller: str) -> Iterator[Solution]:
    """:func:`iter_solve` of stacks checked and sorted already (by ``caller``)."""
    _check_solver(solver)
    if not stacks:
        return
    if config is not None:
        _check_config(config, caller)
    base = config if config is not None else GameConfig(stack=stacks[0])
    first = base.with_stack(stacks[0])
    if path is not None:
        _check_path(path, first, stacks, level)
    n_workers = _workers(workers, len(stacks), path, exact)
    if n_workers > 1:
        yield from _solve_parallel(stacks, first, level, solver, exact, table, progress, n_workers, path)
        return
    game0 = make_game(first, level, table)
    for solution in _solve_sorted(stacks, game0, solver, exact, path):
        yield solution
        if progress is not None:
            progress()


def iter_blocks(
    stacks: Iterable[float],
    config: GameConfig | None = None,
    *,
    path,
    table=None,
    progress=None,
    compiled: bool | None = None,
):
    """The certified equilibria of ``stacks`` along an exact ``path``, a block at a time.

    ``path`` is :func:`sflp.solving.thresholds.compute_thresholds` over the stacks' range.  Each block
    (:class:`sflp.solving.segment.SegmentBlock`) holds stacks of one path segment (at most
    :data:`BLOCK_STACKS` of them), in increasing order, as arrays: ``stacks``, ``sb`` / ``bb``
    (frequencies, one row per stack), ``sb_ev`` / ``bb_ev``, ``value``, ``push_pct``,
    ``call_pct``; ``block.solutions()`` gives the :class:`~sflp.core.game.Solution` objects.  The numbers are those of
    ``iter_solve(stacks, config, exact=True, path=path)``, bit for bit (every float is the exact
    value rounded once), made without a Python object per stack: this is the form for large
    chart jobs.  ``compiled`` forces the numba kernels on or off (default: on from
    :data:`sflp.solving.segment.COMPILED_MIN_STACKS` stacks).  ``progress`` is called once per stack.
    """
    from sflp.solving.segment import compiled_default

    stacks = _sweep(stacks)
    if not stacks:
        return
    if path is None:
        raise ConfigError("iter_blocks reads stacks off an exact path: pass path=compute_thresholds(config, low, high)")
    if config is not None:
        _check_config(config, "iter_blocks")
    base = config if config is not None else GameConfig(stack=stacks[0])
    first = base.with_stack(stacks[0])
    _check_path(path, first, stacks, "class")
    game0 = make_game(first, "class", table)
    if compiled is None:
        compiled = compiled_default(len(stacks))
    for block in _path_blocks(stacks, game0, path, None, compiled):
        yield block
        if progress is not None:
            for _ in range(len(block)):
                progress()


def _check_path(path, config: GameConfig, stacks: Sequence[float], level: str) -> None:
    if level != "class":
        raise ConfigError("an equilibrium path (path=...) is for class-level sweeps only")
    if path.config.structure_key() != config.structure_key():
        raise ConfigError(
            f"the path is for blinds/antes {path.config.structure_key()}, the sweep for {config.structure_key()}"
        )
    tol = 1e-12 * max(1.0, abs(path.high))
    if stacks[0] < path.low - tol or stacks[-1] > path.high + tol:
        raise ConfigError(
            f"stacks {stacks[0]:g}..{stacks[-1]:g} bb are outside the path's range {path.low:g}..{path.high:g} bb"
        )


def _solve_sorted(stacks: Sequence[float], game0: PushFoldGame, solver, exact: bool, path) -> Iterator[Solution]:
    """Solutions of increasing ``stacks`` in one process (path, support reuse, repair, LP).

    Along a path with ``exact``, the stacks of each segment are certified together from the
    segment's polynomials (:meth:`sflp.solving.segment.SegmentCertificate.block`); a stack that does not
    certify that way (a breakpoint, a degenerate support) takes the general route below."""
    if path is not None and exact:
        from sflp.solving.segment import compiled_default

        for block in _path_blocks(stacks, game0, path, solver, compiled_default(len(stacks))):
            yield from block.solutions()
        return
    yield from _solve_general(stacks, game0, solver, exact, path)


BLOCK_STACKS = 2048
"""At most this many stacks in one block (about 50 MB of working arrays at class level)."""


def _path_blocks(stacks: Sequence[float], game0: PushFoldGame, path, solver=None, compiled: bool | None = None):
    """The certified solutions of ``stacks`` (increasing) along ``path``, one
    :class:`~sflp.solving.segment.SegmentBlock` per run of stacks in one segment (a long run in pieces of
    :data:`BLOCK_STACKS`), in order.  A stack the segment's support does not certify (a
    breakpoint) is solved the general way into its block."""
    from sflp.solving.segment import SegmentCertificate

    config0 = game0.config
    path.segment_of(stacks[0]), path.segment_of(stacks[-1])  # inside the path's range (or its error)
    starts = path.segment_starts()
    index = np.maximum(np.searchsorted(starts, np.asarray(stacks, dtype=np.float64), side="right") - 1, 0)
    cuts = [0, *(np.flatnonzero(np.diff(index)) + 1).tolist(), len(stacks)]
    for start, end in zip(cuts, cuts[1:]):
        support = path.segments[int(index[start])][2]  # the run's segment, found by the searchsorted above
        segment = SegmentCertificate(game0, support)  # the structure's integers: any stack's game will do
        for a in range(start, end, BLOCK_STACKS):  # long segments in pieces: memory stays bounded
            run = stacks[a:min(end, a + BLOCK_STACKS)]
            block = segment.block(run, config0, compiled=compiled)
            for s in np.flatnonzero(block.missing).tolist():
                block.put(s, next(_solve_general([run[s]], game0, solver, True, path)))
                block.general[s] = True
            yield block


def _solve_general(stacks: Sequence[float], game0: PushFoldGame, solver, exact: bool, path) -> Iterator[Solution]:
    """Solutions of increasing ``stacks``: off the path's strategies (checked), the previous
    stack's support, a repaired support, or the LP."""
    support: Support | None = None
    x = y = None
    for stack in stacks:
        game = game0.at_stack(stack)
        solution = None
        if path is not None:
            solution = _checked(game, *path.strategies_at(stack), "path")
        if solution is None and support is not None:
            candidate = solve_on_support(game, support)
            if candidate is not None:
                solution = _checked(game, *candidate, "support")
            if solution is None and (repaired := _repair(game, x, y, support)) is not None:
                solution = _checked(game, *repaired, "repair")
        if solution is None:
            lx, ly, method = _solve_lp(game, solver)
            solution = make_solution(game, lx, ly, method)
        x, y = solution.sb_strategy, solution.bb_strategy
        if path is None:
            support = Support.of(x, y)
        yield _finish(game, solution, exact)


def _checked(game: PushFoldGame, x, y, method: str) -> Solution | None:
    """The solution of ``(x, y)`` if it passes the best-response check, else None (the check
    first: a candidate that fails costs no EV margins)."""
    limit = max_exploitability(game.config)
    if not game.exploitability(np.clip(x, 0.0, 1.0), np.clip(y, 0.0, 1.0)) <= limit:
        return None
    solution = make_solution(game, x, y, method)
    return solution if solution.exploitability <= limit else None


PARALLEL_MIN = 500
"""Sweeps with at least this many stacks use worker processes.  On 2 cores, 1,000 stacks over
1-25 bb take 0.57 s with two workers and 0.88 s in one process; 200 stacks 0.49 s and 0.39 s
(``benchmarks/bench_core.py`` and the note of issue 20)."""
CHUNK = 256
"""Stacks per work item of a parallel sweep."""


PARALLEL_MIN_PATH = 4000
"""Sweeps along a path without ``exact`` (about 0.2 ms a stack) use worker processes from this
many stacks on.  With ``exact`` a path sweep stays in one process: its blocks
(:func:`iter_blocks`) cost 13-25 us a stack there, less than sending a Solution back from a
worker (measured: 1-1000 @0.01 took 7.1 s in one process, 9.4 s with 2 workers; and the
1-1000 chart job 51.5 s in one process, 54.5 s with 2 workers)."""


def _workers(requested: int | None, n: int, path=None, exact: bool = False) -> int:
    import multiprocessing
    import os

    if requested is not None:
        if isinstance(requested, bool) or not isinstance(requested, int):
            raise ConfigError(f"workers={requested!r} is not a whole number")
        return max(1, requested)
    if (path is not None and exact) or n < (PARALLEL_MIN_PATH if path else PARALLEL_MIN) \
            or "fork" not in multiprocessing.get_all_start_methods():
        return 1
    return max(1, min(4, os.cpu_count() or 1))


_FORKED: dict = {}
"""What forked workers inherit: the first game (matrices, compiled LP) and the path."""


def _worker_init() -> None:
    import signal

    # the parent handles interrupts and stops the workers; they must not print tracebacks
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    # numba's thread pool does not survive a fork: forked workers evaluate blocks with numpy
    from sflp.solving import segment

    segment.COMPILED_ALLOWED = False


def _chunk_worker(args) -> list[Solution]:
    stacks, solver, exact = args
    return list(_solve_sorted(stacks, _FORKED["game"], solver, exact, _FORKED["path"]))


def _solve_parallel(stacks, config, level, solver, exact, table, progress, workers, path) -> Iterator[Solution]:
    """Contiguous chunks of the sorted stacks in forked processes (they inherit the compiled LP).

    Results come back in order; at most ``2 * workers`` chunks are submitted ahead of the one
    being consumed.  On any exception (an interrupt included) the workers are stopped.
    """
    import multiprocessing
    from collections import deque
    from concurrent.futures import ProcessPoolExecutor

    from sflp.solving.lp import DEFAULT_SOLVER, lp_for

    game0 = make_game(config, level, table)
    if path is None:
        lp_for(game0, solver or DEFAULT_SOLVER).prepare()  # compile (or load) once, before forking
    _FORKED.update(game=game0, path=path)
    chunks = [stacks[a:a + CHUNK] for a in range(0, len(stacks), CHUNK)]
    ctx = multiprocessing.get_context("fork")
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_worker_init)
    pending: deque = deque()
    todo = iter(chunks)
    try:
        for chunk in todo:
            pending.append(pool.submit(_chunk_worker, (chunk, solver, exact)))
            if len(pending) >= 2 * workers:
                break
        while pending:
            done = pending.popleft().result()
            nxt = next(todo, None)
            if nxt is not None:
                pending.append(pool.submit(_chunk_worker, (nxt, solver, exact)))
            for solution in done:
                yield solution
                if progress is not None:
                    progress()
            del done
    finally:
        for fut in pending:
            fut.cancel()
        pool.shutdown(wait=True, cancel_futures=True)
        _FORKED.clear()
