"""The convergence atlas: OpenSpiel's solvers on the exported game, beside sflp's own approximate
solvers, every trace point scored exactly.

Each OpenSpiel method runs on the game of :func:`sflp.openspiel.load_game` (loaded once per
stack) under the same budget and trace rules as sflp's solvers (:mod:`sflp.approx.common`): a
budget of ``seconds`` on the run's wall clock, checked between iterations (a run returns within it
plus one iteration, or its setup plus one iteration when the setup alone outlasts it), trace points
at about ten log-spaced iterations per decade.  At a trace point the solver's *average* policy (the
one these methods' guarantees are about) is read into sflp strategies
(:func:`sflp.openspiel.to_strategy`) and its exploitability computed in rationals
(:func:`sflp.approx.common.score_exactly`); the solver's setup, reading and scoring are spent from
the budget but are not solver time, the trace's clock.

=====================  ==========================================================  ========
method                 OpenSpiel                                                   language
=====================  ==========================================================  ========
``openspiel-cfr``      ``pyspiel.CFRSolver`` (vanilla CFR)                         C++
``openspiel-cfr+``     ``pyspiel.CFRPlusSolver``                                   C++
``openspiel-dcfr``     ``discounted_cfr.DCFRSolver`` (alpha 3/2, beta 0, gamma 2)  Python
``openspiel-os-mccfr`` ``pyspiel.OutcomeSamplingMCCFRSolver`` (epsilon 0.6)        C++
``openspiel-es-mccfr`` ``pyspiel.ExternalSamplingMCCFRSolver`` (simple averaging)  C++
``openspiel-xfp``      ``fictitious_play.XFPSolver`` (extensive-form FP)           Python
=====================  ==========================================================  ========

OpenSpiel has no C++ discounted CFR or fictitious play; the Python ones take seconds an
iteration on this game (85,683 terminal nodes), which the atlas shows as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from sflp.approx.common import ApproxResult, Run, as_config, score_exactly
from sflp.errors import ConfigError
from sflp.openspiel.game import load_game, pyspiel
from sflp.openspiel.policy import state_rows, to_strategy

OPENSPIEL_METHODS = ("openspiel-cfr", "openspiel-cfr+", "openspiel-dcfr", "openspiel-os-mccfr",
                     "openspiel-es-mccfr", "openspiel-xfp")
"""The OpenSpiel methods of the atlas, in the order it runs them."""
DEFAULT_ITERATIONS = 100
OS_EPSILON = 0.6
"""Outcome sampling's exploration (OpenSpiel's default)."""


class _Solver:
    """One OpenSpiel solver: ``step()`` runs an iteration, ``policy()`` reads its average policy as
    ``{information state: [(action, probability), ...]}``."""

    def __init__(self, step: Callable[[], object], policy: Callable[[], object]):
        self.step, self.policy = step, policy


def _make(method: str, game, seed: int) -> _Solver:
    spiel = pyspiel()
    if method in ("openspiel-cfr", "openspiel-cfr+"):
        s = spiel.CFRPlusSolver(game) if method == "openspiel-cfr+" else spiel.CFRSolver(game)
        return _Solver(s.evaluate_and_update_policy, lambda: s.tabular_average_policy().policy_table())
    if method in ("openspiel-os-mccfr", "openspiel-es-mccfr"):
        if method == "openspiel-os-mccfr":
            s = spiel.OutcomeSamplingMCCFRSolver(game, epsilon=OS_EPSILON, seed=seed)
        else:
            s = spiel.ExternalSamplingMCCFRSolver(game, seed=seed, avg_type=spiel.MCCFRAverageType.SIMPLE)
        # the average policy is a view into the solver, read state by state (states never sampled
        # get OpenSpiel's uniform default)
        return _Solver(s.run_iteration, lambda: state_rows(s.average_policy(), game))
    if method == "openspiel-dcfr":
        from open_spiel.python.algorithms import discounted_cfr

        s = discounted_cfr.DCFRSolver(game)
        return _Solver(s.evaluate_and_update_policy, s.average_policy)
    if method == "openspiel-xfp":
        from open_spiel.python.algorithms import fictitious_play

        s = fictitious_play.XFPSolver(game)

        def tables():
            merged = {}
            for table in s.average_policy_tables():
                merged.update({state: list(probs.items()) for state, probs in table.items()})
            return merged

        return _Solver(s.iteration, tables)
    allowed = ", ".join(repr(m) for m in OPENSPIEL_METHODS)
    raise ConfigError(f"unknown OpenSpiel method {method!r}: expected one of {allowed}")


def run_openspiel(method: str, config, iterations: int | None = None, seconds: float | None = None,
                  seed: int = 0, *, game=None, trace_every: int | None = None) -> ApproxResult:
    """Run one OpenSpiel ``method`` (:data:`OPENSPIEL_METHODS`) on ``config``'s exported game under
    sflp's budget and trace rules; ``game`` may pass the loaded game (else it is loaded)."""
    config = as_config(config)
    with score_exactly():
        run = Run.start(method, config, iterations, seconds, seed, trace_every, None, DEFAULT_ITERATIONS)
        with run.paused():  # loading the game and setting up the solver: not solver time, but spent from the budget
            game = game if game is not None else load_game(config)
            solver = _make(method, game, seed)
        it = 0
        x = y = None
        while not run.done(it):
            solver.step()
            it += 1
            if run.due(it) or run.done(it):
                with run.paused():
                    s = to_strategy(solver.policy())
                    x, y = s.sb.class_freq, s.bb.class_freq
                run.record(it, x, y)
        if x is None:  # pragma: no cover - the budget allows at least one iteration
            raise ConfigError(f"{method}: no iteration ran within the budget")
        return run.result(it, x, y, {"game": "sflp export efg (class level)"})


def openspiel_bench(stacks: Iterable[float], methods: Sequence[str] | None = None, seconds: float = 2.0,
                    seed: int = 0, *, base=None, progress=None) -> list[ApproxResult]:
    """Every OpenSpiel method at every stack of ``base``'s blind structure for ``seconds`` each;
    the game is loaded once per stack.  ``progress`` is called with each finished result."""
    names = list(OPENSPIEL_METHODS if methods is None else methods)
    for name in names:
        if name not in OPENSPIEL_METHODS:
            _make(name, None, seed)  # the error naming the methods
    pyspiel()  # the install hint before any work
    base = as_config(base) if base is not None else as_config(10)
    out = []
    for stack in stacks:
        config = base.with_stack(stack)
        game = load_game(config)
        for name in names:
            result = run_openspiel(name, config, None, seconds, seed, game=game)
            out.append(result)
            if progress is not None:
                progress(result)
    return out


def atlas(stacks: Iterable[float], seconds: float = 2.0, seed: int = 0, *, base=None,
          progress=None) -> list[ApproxResult]:
    """The convergence atlas: sflp's approximate solvers (:func:`sflp.approx.bench.approx_bench`)
    and OpenSpiel's (:func:`openspiel_bench`) at each stack, every trace point scored exactly;
    results stack by stack, sflp's methods first."""
    from sflp.approx.bench import approx_bench

    pyspiel()  # the install hint before any work
    stacks = [float(s) for s in stacks]
    with score_exactly():
        own = approx_bench(stacks=stacks, seconds=seconds, seed=seed, base=base, progress=progress)
    theirs = openspiel_bench(stacks, seconds=seconds, seed=seed, base=base, progress=progress)
    return sorted(own + theirs, key=lambda r: stacks.index(float(r.config.stack)))  # stable: methods keep order
