r"""What every approximate solver shares: the result record, its trace, the budget and the yardstick.

Exploitability against the exact equilibrium
--------------------------------------------
Let ``v*`` be the game value (SB's expected net chips per hand at equilibrium, from
:func:`sflp.solving.solver.solve`).  For a pair of strategies ``(x, y)``

* ``sb_exploitability = v* - min_y' V(x, y')``: what SB's push range ``x`` loses against BB's
  best response (:meth:`~sflp.core.game.PushFoldGame.best_response_bb`); ``>= 0``.
* ``bb_exploitability = max_x' V(x', y) - v*``: what BB's call range ``y`` loses against SB's
  best response (:meth:`~sflp.core.game.PushFoldGame.best_response_sb`); ``>= 0``.
* ``total = sb + bb = max_x' V(x', y) - min_y' V(x, y')``, which is exactly
  :meth:`~sflp.core.game.PushFoldGame.exploitability`; ``0`` only at an equilibrium.

All figures are in big blinds per hand.

Budgets and traces
------------------
A solver runs until ``iterations`` are done or ``seconds`` have passed, whichever comes first
(``None`` = no limit of that kind; both ``None`` = the method's default iteration count).  The
seconds are the run's own wall clock, started once the yardstick below is ready: everything the
run does counts, its iterations, its setup and the measuring of its trace.  The clock is checked
between iterations and the run stops at the first check past the budget, so it returns within
``seconds`` plus one iteration (and the trace point measured after it); at least one iteration
always runs.  The *trace* shows **solver time** instead, which excludes measuring the trace (and an
OpenSpiel solver's setup), so that it shows what the method itself costs: a run with expensive
trace points spends less of its budget solving.  The self-play solvers plan a hand count from a
``seconds``-only budget (:meth:`Run.plan_iterations`), so that their schedule never depends
on the clock.  The trace is measured at every multiple of ``trace_every`` iterations, or,
with ``trace_every=None``, at roughly ten log-spaced iterations per decade (1, 2, 3, 4, 6, 8, 11,
14, 18, 23, ...), plus always at the last iteration.  With ``target`` set, a run also stops at the
first trace point whose total exploitability is ``<= target``.

Inside ``with score_exactly():`` every trace point is measured in rational arithmetic instead
(:func:`sflp.solving.exact.exact_figures`, each frequency at its exact binary value, against the
certified equilibrium value) and rounded once: the convergence atlas (``sflp approx-bench
--openspiel``) scores every solver so, its own and OpenSpiel's alike.  It costs about 30 ms a
point, which, like every measurement, is not counted as solver time (but is spent from the
budget).
"""

from __future__ import annotations

import functools
import math
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from numbers import Integral, Real

import numpy as np

from sflp.core.cards import CLASS_SIZES, N_CLASSES
from sflp.core.game import GameConfig, PushFoldGame
from sflp.errors import ConfigError

LOG_TRACE_RATIO = 10 ** 0.1
"""Growth factor between log-spaced trace points (ten per decade)."""


# ---------------------------------------------------------------- records


@dataclass(frozen=True)
class TracePoint:
    """Exploitability (bb per hand) of the solver's strategies after ``iteration`` iterations."""

    iteration: int
    seconds: float
    sb_exploitability: float
    bb_exploitability: float
    total_exploitability: float

    def to_dict(self) -> dict:
        return {
            "iteration": self.iteration,
            "seconds": self.seconds,
            "sb_exploitability": self.sb_exploitability,
            "bb_exploitability": self.bb_exploitability,
            "total_exploitability": self.total_exploitability,
        }


def combo_pct(strategy: np.ndarray) -> float:
    """Combo-weighted share (0-100) of hands a 169-class strategy plays.

    >>> combo_pct(np.ones(169)), round(combo_pct(np.eye(169)[0]), 4)   # everything; AA only
    (100.0, 0.4525)
    """
    w = CLASS_SIZES.astype(np.float64)
    return float(100 * (w @ np.asarray(strategy, dtype=np.float64)) / w.sum())


@dataclass(frozen=True, eq=False)
class ApproxResult:
    """The outcome of one approximate solve.

    ``sb_strategy`` / ``bb_strategy`` are push / call frequencies of the 169 classes (class-id
    order); ``trace`` is the list of :class:`TracePoint` (its last entry describes the returned
    strategies); ``iterations`` and ``seconds`` are the effort spent (solver time, see the module
    doc); ``extra`` holds method-specific numbers (learning rate, model weights, ...).
    """

    method: str
    config: GameConfig
    sb_strategy: np.ndarray
    bb_strategy: np.ndarray
    trace: list[TracePoint]
    seed: int
    iterations: int
    seconds: float
    extra: dict = field(default_factory=dict)

    @property
    def final(self) -> TracePoint:
        """The trace point of the returned strategies."""
        return self.trace[-1]

    @property
    def exploitability(self) -> float:
        """Total exploitability of the returned strategies, bb per hand."""
        return self.final.total_exploitability

    @property
    def push_pct(self) -> float:
        """Combo-weighted share of hands SB shoves, 0-100."""
        return combo_pct(self.sb_strategy)

    @property
    def call_pct(self) -> float:
        """Combo-weighted share of hands BB calls with, 0-100."""
        return combo_pct(self.bb_strategy)

    def to_dict(self) -> dict:
        """Plain JSON-ready data (lists and floats only)."""
        return {
            "method": self.method,
            "config": self.config.as_dict(),
            "seed": self.seed,
            "iterations": self.iterations,
            "seconds": self.seconds,
            "push_pct": self.push_pct,
            "call_pct": self.call_pct,
            "exploitability": self.exploitability,
            "sb_strategy": [float(v) for v in self.sb_strategy],
            "bb_strategy": [float(v) for v in self.bb_strategy],
            "trace": [p.to_dict() for p in self.trace],
            "extra": dict(self.extra),  # plain numbers and strings; JSON output sanitises in sflp.views.text
        }


def format_text(result: ApproxResult) -> str:
    """A short human summary of one result (a string; nothing is printed)."""
    last = result.final
    lines = [
        f"{result.method} at {float(result.config.stack):g} bb (seed {result.seed}): "
        f"{result.iterations:,} iterations in {result.seconds:.3g} s",
        f"  exploitability {last.total_exploitability:.3e} bb/hand "
        f"(SB range {last.sb_exploitability:.3e}, BB range {last.bb_exploitability:.3e})",
        f"  SB shoves {result.push_pct:.1f}% of hands, BB calls {result.call_pct:.1f}%",
    ]
    for key, value in result.extra.items():
        if isinstance(value, float):
            text = f"{value:.6g}"
        elif isinstance(value, (list, tuple, np.ndarray)) and len(value) <= 12:
            text = "[" + ", ".join(f"{float(v):.4g}" for v in value) + "]"
        elif isinstance(value, (list, tuple, np.ndarray)):
            continue
        else:
            text = str(value)
        lines.append(f"  {key}: {text}")
    return "\n".join(lines)


# ---------------------------------------------------------------- the yardstick


@dataclass(frozen=True, eq=False)
class Reference:
    """The class-level game of a configuration and its exact equilibrium value ``v*``."""

    game: PushFoldGame
    nash_value: float

    def split(self, sb: np.ndarray, bb: np.ndarray) -> tuple[float, float, float]:
        """``(sb_exploitability, bb_exploitability, total)`` of the pair ``(sb, bb)``."""
        if _EXACT:
            return self.split_exact(sb, bb)
        lo = self.game.best_response_bb(sb)[1]
        hi = self.game.best_response_sb(bb)[1]
        return self.nash_value - lo, hi - self.nash_value, hi - lo

    @functools.cached_property
    def nash_exact(self):
        """The exact equilibrium value ``v*`` (a Fraction, from a certified solve)."""
        from sflp.solving.solver import solve

        return solve(self.game.config, exact=True).value_exact

    def split_exact(self, sb: np.ndarray, bb: np.ndarray) -> tuple[float, float, float]:
        """:meth:`split` in rationals (see the module doc), each figure rounded once."""
        from sflp.solving.exact import exact_figures

        _, hi, lo = exact_figures(self.game, np.asarray(sb, dtype=np.float64), np.asarray(bb, dtype=np.float64))
        v = self.nash_exact
        return float(v - lo), float(hi - v), float(hi - lo)


_REFERENCES: dict[GameConfig, Reference] = {}


def reference_for(config: GameConfig) -> Reference:
    """:class:`Reference` of ``config`` (the exact LP solve is cached per configuration)."""
    if config not in _REFERENCES:
        from sflp.solving.solver import solve

        if len(_REFERENCES) > 64:
            _REFERENCES.clear()
        game = PushFoldGame(config)
        _REFERENCES[config] = Reference(game, float(solve(config).value))
    return _REFERENCES[config]


def as_config(config: GameConfig | Real) -> GameConfig:
    """A :class:`GameConfig`; a bare number is read as the stack with default blinds."""
    if isinstance(config, GameConfig):
        return config
    if isinstance(config, Real) and not isinstance(config, bool):
        return GameConfig(stack=config)
    raise ConfigError(f"config={config!r}: expected a GameConfig or a stack size")


# ---------------------------------------------------------------- budget and trace


def _check_options(iterations, seconds, seed, trace_every, target) -> None:
    if iterations is not None and (
        isinstance(iterations, bool) or not isinstance(iterations, Integral) or iterations < 1
    ):
        raise ConfigError(f"iterations={iterations!r}: expected a positive integer or None")
    if seconds is not None and (
        isinstance(seconds, bool) or not isinstance(seconds, Real) or not seconds > 0 or not math.isfinite(seconds)
    ):
        raise ConfigError(f"seconds={seconds!r}: expected a positive number or None")
    if isinstance(seed, bool) or not isinstance(seed, Integral) or seed < 0:
        raise ConfigError(f"seed={seed!r}: expected a non-negative integer")
    if trace_every is not None and (
        isinstance(trace_every, bool) or not isinstance(trace_every, Integral) or trace_every < 1
    ):
        raise ConfigError(f"trace_every={trace_every!r}: expected a positive integer or None")
    if target is not None and (isinstance(target, bool) or not isinstance(target, Real) or target < 0):
        raise ConfigError(f"target={target!r}: expected a non-negative number or None")


def next_log_point(it: int) -> int:
    """The log-spaced trace point after iteration ``it`` (about ten per decade).

    >>> pts = [1]
    >>> while pts[-1] < 100: pts.append(next_log_point(pts[-1]))
    >>> pts
    [1, 2, 3, 4, 6, 8, 11, 14, 18, 23, 29, 37, 47, 60, 76, 96, 121]
    """
    return max(it + 1, int(math.ceil(it * LOG_TRACE_RATIO)))


_EXACT: list = []


@contextmanager
def score_exactly():
    """While active, trace points are measured exactly (see the module doc)."""
    _EXACT.append(True)
    try:
        yield
    finally:
        _EXACT.pop()


_OBSERVERS: list = []
PROGRESS_INTERVAL = 0.1
"""Seconds between two reports to a progress observer."""


@contextmanager
def observe_progress(callback):
    """While active, every solver run reports its budget share (0..1) to ``callback`` about every
    0.1 s of wall time (e.g. a progress bar); the solvers' results do not change.

    >>> from sflp.core.game import GameConfig
    >>> from sflp.approx import run
    >>> shares = []
    >>> with observe_progress(shares.append):
    ...     _ = run("cfr+", GameConfig(stack=10), iterations=20)
    >>> shares[-1]
    1.0
    """
    _OBSERVERS.append(callback)
    try:
        yield callback
    finally:
        _OBSERVERS.remove(callback)


class Run:
    """Budget, clock and trace of one solver run (see the module doc).

    The solver loop calls :meth:`done` before each iteration, :meth:`due` after it and, when due,
    :meth:`record` with the current strategies; :meth:`result` packages the end.
    """

    def __init__(
        self,
        method: str,
        config: GameConfig,
        *,
        iterations: int | None,
        seconds: float | None,
        seed: int,
        trace_every: int | None,
        default_iterations: int,
        target: float | None = None,
    ) -> None:
        _check_options(iterations, seconds, seed, trace_every, target)
        self.method = method
        self.config = config
        self.reference = reference_for(config)
        if _EXACT:
            _ = self.reference.nash_exact  # the certified solve is the yardstick, not the run's time
        self.game = self.reference.game
        if iterations is None and seconds is None:
            iterations = default_iterations
        self.max_iterations = None if iterations is None else int(iterations)
        self.max_seconds = None if seconds is None else float(seconds)
        self.seed = int(seed)
        self.trace_every = trace_every
        self.target = target
        self.trace: list[TracePoint] = []
        self._next = trace_every or 1
        self._hit = False
        self._paused = 0.0
        self._start = time.perf_counter()
        self._observer = _OBSERVERS[-1] if _OBSERVERS else None
        self._reported = self._start

    @classmethod
    def start(
        cls,
        method: str,
        config: GameConfig | Real,
        iterations: int | None,
        seconds: float | None,
        seed: int,
        trace_every: int | None,
        target: float | None,
        default_iterations: int,
    ) -> Run:
        """The preamble every approximate solver shares: its configuration (a :class:`GameConfig`
        or a stack in bb, see :func:`as_config`), options checked, the budget and the clock started."""
        return cls(
            method,
            as_config(config),
            iterations=iterations,
            seconds=seconds,
            seed=seed,
            trace_every=trace_every,
            default_iterations=default_iterations,
            target=target,
        )

    # -- clock
    def wall(self) -> float:
        """Seconds since the run started, everything included: what the ``seconds`` budget counts."""
        return time.perf_counter() - self._start

    def elapsed(self) -> float:
        """Solver seconds so far (trace measurements excluded): what the trace shows."""
        return self.wall() - self._paused

    def progress(self, it: int) -> float:
        """Share of the budget used after ``it`` iterations: the larger of the two shares, in [0, 1]."""
        share = 0.0
        if self.max_iterations is not None:
            share = it / self.max_iterations
        if self.max_seconds is not None:
            share = max(share, self.wall() / self.max_seconds)
        return min(share, 1.0)

    def done(self, it: int) -> bool:
        """True when ``it`` iterations exhaust the budget (or the target was reached); called between
        iterations, it is the check of the clock.  Never before the first iteration."""
        finished = it > 0 and (
            self._hit
            or (self.max_iterations is not None and it >= self.max_iterations)
            or (self.max_seconds is not None and self.wall() >= self.max_seconds)
        )
        if self._observer is not None:
            now = time.perf_counter()
            if finished or now - self._reported >= PROGRESS_INTERVAL:
                self._reported = now
                self._observer(1.0 if finished else self.progress(it))
        return finished

    def plan_iterations(self, per_second: float) -> int:
        """Fix the iteration budget of a run whose schedule needs one (the self-play solvers' epsilon).

        An ``iterations`` budget stays as it is; a ``seconds``-only budget becomes
        ``round(seconds * per_second)`` iterations (at least 1), and the seconds stay as an outer
        stop.  The schedule then depends on the iteration count only, so a seeded run reproduces
        bit for bit whenever the outer stop does not cut it short.

        >>> run = Run.start("rl-tabular", 10, None, 2.0, 0, None, None, 10)
        >>> run.plan_iterations(250_000), run.max_seconds
        (500000, 2.0)
        """
        if isinstance(per_second, bool) or not isinstance(per_second, Real) or not (0 < per_second < math.inf):
            raise ConfigError(f"hands_per_second={per_second!r}: expected a positive number")
        if self.max_iterations is None:
            self.max_iterations = max(1, round(self.max_seconds * per_second))
        return self.max_iterations

    def remaining(self, it: int) -> int | None:
        """Iterations left under the iteration cap (None when only time limits the run)."""
        return None if self.max_iterations is None else self.max_iterations - it

    @contextmanager
    def paused(self):
        """Work inside is not solver time (reading a policy out of another library to measure it),
        but is spent from the ``seconds`` budget all the same."""
        t0 = time.perf_counter()
        try:
            yield
        finally:
            self._paused += time.perf_counter() - t0

    # -- trace
    def due(self, it: int) -> bool:
        return it >= self._next

    def next_due(self) -> int:
        """The next iteration at which a trace point is due."""
        return self._next

    def record(self, it: int, sb: np.ndarray, bb: np.ndarray) -> TracePoint:
        """Measure and store a trace point (its cost is excluded from solver time)."""
        t0 = time.perf_counter()
        seconds = t0 - self._start - self._paused
        sbe, bbe, total = self.reference.split(sb, bb)
        point = TracePoint(int(it), float(seconds), float(sbe), float(bbe), float(total))
        if self.trace and self.trace[-1].iteration == point.iteration:
            self.trace[-1] = point
        else:
            self.trace.append(point)
        if self.target is not None and total <= self.target:
            self._hit = True
        if self.trace_every is not None:
            while self._next <= it:
                self._next += self.trace_every
        else:
            self._next = next_log_point(max(it, self._next))
        self._paused += time.perf_counter() - t0
        return point

    def result(self, it: int, sb: np.ndarray, bb: np.ndarray, extra: dict | None = None) -> ApproxResult:
        """The final :class:`ApproxResult` (the last trace point is at iteration ``it``)."""
        seconds = self.elapsed()
        if not self.trace or self.trace[-1].iteration != it:
            self.record(it, sb, bb)
        sb = np.array(sb, dtype=np.float64)
        bb = np.array(bb, dtype=np.float64)
        if sb.shape != (N_CLASSES,) or bb.shape != (N_CLASSES,):
            raise ConfigError("approximate solvers work on the 169 hand classes")
        for arr in (sb, bb):
            arr.setflags(write=False)
        return ApproxResult(
            method=self.method,
            config=self.config,
            sb_strategy=sb,
            bb_strategy=bb,
            trace=list(self.trace),
            seed=self.seed,
            iterations=int(it),
            seconds=float(seconds),
            extra=dict(extra or {}),
        )
