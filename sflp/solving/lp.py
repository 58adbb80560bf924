r"""The push/fold equilibrium as a linear program, built with cvxpy (the LP of record).

With the notation of :mod:`sflp.core.game` (``V(x, y) = f + (g - f) r.x + x' K y``), SB's maximin
problem ``max_x min_y V(x, y)`` is, since BB's best reply separates by hand,

    maximise    f + (g - f) * r.x + sum_j z_j                        (SB's guaranteed value)
    over        x in R^n (push frequencies), z in R^n (BB's reply, hand by hand)
    subject to  0 <= x_i <= 1                          for every SB hand i
                z_j <= 0                             [mu_j]  BB hand j folds: no change
                z_j <= (K' x)_j                      [y_j]   BB hand j calls: showdown term

At the optimum ``z_j = min(0, (K'x)_j)``, which is exactly BB's best reply hand by hand, so the
optimal value is the game value.  The Lagrangian stationarity in ``z_j`` gives
``y_j + mu_j = 1`` with both multipliers non-negative, so the dual ``y_j`` of the third
constraint lies in ``[0, 1]`` and is **BB's equilibrium calling frequency** of hand ``j``; the dual
problem is ``min_y max_x V(x, y)``.  (``n`` is 169 classes, or 1,326 combos in combo mode.)

Scaling: the probabilities ``P`` are tiny (down to 1/1,624,350 per combo pair), so the model is
multiplied through by ``D = 1326 * 1225`` (counts of deals instead of probabilities).  Scaling the
objective and both reply constraints by the same positive constant leaves the optimal ``x`` and
the duals ``y_j`` unchanged, and keeps the coefficients near 1 where the solver's tolerances work.

Units: the LP is stated in units of the pot before anyone acts, ``u = g - f = sb + bb + 2a + A``.
The game is homogeneous: multiplying every amount (stack, blinds, antes) by ``c`` multiplies
every payoff by ``c`` and leaves the strategies as they are.  So the LP solves the game of the
amounts divided by ``u``: ``K0/u`` (``K0`` is linear in the blinds and antes), ``K1`` unchanged,
``f/u``, ``g/u`` and the stack parameter ``S/u``; its value times ``u`` is the game's value.  In
these units the blinds and antes are of order 1 whatever their size in bb, so an ante of
10^6 bb is as well conditioned as one of 0.1 bb (in bb, HiGHS ended "Unknown" at
``--stack 2e6 --ante 1e6``).  Only the solver's candidate comes from these numbers: the
strategies are then polished, checked by best responses and certified exactly in the real
game's own numbers (:mod:`sflp.solving.solver`, :mod:`sflp.solving.certify`).

The stack enters only through ``K = K0 + S * K1``; it is a cvxpy ``Parameter`` so one compiled
problem serves every stack of a blind structure (DPP).

How it is solved.  cvxpy states the LP and compiles it once per blind structure
(:meth:`PushFoldLP.compiled`: its reduction chain to the conic form, evaluated for the stack's
constant and linear parts).  With HiGHS (the default) those compiled numbers are handed to one
persistent HiGHS instance that re-solves at each new stack warm from the previous basis
(:mod:`sflp.solving.highs`): the cost of a re-solve is then HiGHS's own, not cvxpy's per-solve
canonicalisation and a cold start (``benchmarks/bench_core.py`` prints both).  The compiled
numbers are also kept on disk (:func:`sflp.solving.highs.load_cached`), so a new process does not import
cvxpy at all; cvxpy rebuilds the entry when it is missing or stale.  An entry read back is checked
against the problem it claims to be (:func:`fits`: its matrix, objective and bounds against the
payoffs, entry by entry), and an entry that does not fit, or whose first answer fails the
best-response check, is compiled afresh, said on stderr in one line, and replaced (only an entry
sflp wrote).  Any other solver name (``solver="CLARABEL"``, ...) and :meth:`PushFoldLP.solve_cvxpy`
solve through cvxpy's own ``problem.solve``; ``tests/test_lp.py`` checks that both routes give the
same answer.
Solves run inside :func:`sflp.quiet.native_output`, so nothing HiGHS prints from C++ reaches
standard output (``--verbose`` shows it on standard error).
Only the status ``optimal`` is accepted: anything else, ``optimal_inaccurate`` included, raises
:class:`~sflp.errors.SolveError`.  The solver's word is not the last one: :mod:`sflp.solving.solver`
checks every answer with best responses.

A small matrix game can be solved with the same builders, e.g. rock-paper-scissors:

>>> import numpy as np
>>> value, row, col = solve_matrix_game(np.array([[0, -1, 1], [1, 0, -1], [-1, 1, 0]]))
>>> abs(value) < 1e-9, np.round(row, 6).tolist(), np.round(col, 6).tolist()
(True, [0.333333, 0.333333, 0.333333], [0.333333, 0.333333, 0.333333])
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

import numpy as np

from sflp.core.game import DEALS, Payoffs, PushFoldGame
from sflp.errors import SolveError
from sflp.quiet import native_output, verbose
from sflp.solving.highs import CompiledLP, WarmLP, cache_key, entry_path, from_conic, load_cached, store_cached

DEFAULT_SOLVER = "HIGHS"


def _check_status(problem, what: str) -> None:
    import cvxpy as cp

    if problem.status != cp.OPTIMAL:
        raise SolveError(f"LP for {what} ended with status {problem.status!r}, not 'optimal'")


def _solve(problem, solver: str, what: str) -> None:
    import cvxpy as cp

    try:
        # warm_start=False: cvxpy's default warm start hands HiGHS only a primal point, which
        # makes a combo-level re-solve ~5x slower than a cold one (benchmarks/bench_solve.py).
        # native_output: HiGHS >= 1.16 prints a banner from C++ to fd 1 when cvxpy makes its
        # first Highs() object; it must never reach our stdout (sflp.quiet)
        with native_output():
            problem.solve(solver=solver, warm_start=False, verbose=verbose())
    except cp.error.SolverError as exc:
        raise SolveError(f"LP solver {solver} failed for {what}: {exc}") from None
    except ValueError as exc:  # unknown / uninstalled solver name
        raise SolveError(f"LP solver {solver!r} is not usable ({exc})") from None
    _check_status(problem, what)


# -------------------------------------------------------------- a general matrix game


def build_matrix_game_lp(payoff: np.ndarray):
    """Row player's maximin LP of a zero-sum matrix game ``payoff`` (row player's gains).

    maximise v  s.t.  sum_i p_i = 1, p >= 0, (A' p)_j >= v for every column j.
    The duals of the last constraints are the column player's minimax strategy.
    Returns ``(problem, p, column_guard)``.
    """
    import cvxpy as cp

    A = np.asarray(payoff, dtype=np.float64)
    p = cp.Variable(A.shape[0], nonneg=True)  # row player's mixed strategy
    v = cp.Variable()  # the value the row player guarantees
    column_guard = A.T @ p >= v  # every column j leaves the row player at least v  [q_j]
    problem = cp.Problem(
        cp.Maximize(v),
        [cp.sum(p) == 1, column_guard],  # p is a probability vector
    )
    return problem, p, column_guard


def solve_matrix_game(payoff: np.ndarray, solver: str = DEFAULT_SOLVER) -> tuple[float, np.ndarray, np.ndarray]:
    """Value and optimal mixed strategies ``(value, row, column)`` of a zero-sum matrix game."""
    problem, p, guard = build_matrix_game_lp(payoff)
    _solve(problem, solver, "a matrix game")
    return float(problem.value), np.asarray(p.value), np.asarray(guard.dual_value)


# -------------------------------------------------------------- the push/fold LP


@dataclass(eq=False)
class PushFoldLP:
    """The push/fold LP of one blind structure; ``solve(stack)`` re-solves it.

    The cvxpy model (:attr:`problem`) is built when first needed; the HiGHS route needs only
    its compiled numbers, which come from the disk cache when they are there.  The model is in
    units of the pot (:attr:`unit`, see the module docstring); :meth:`solve` takes and returns bb."""

    payoffs: Payoffs
    solver: str = DEFAULT_SOLVER

    def __post_init__(self) -> None:
        self._model = None
        self._warm: WarmLP | None = None
        self.from_disk = False  # the compiled LP in use was read from the disk cache
        p = self.payoffs
        self.unit = float(p.g - p.f)  # the pot before anyone acts: sb + bb + 2 ante + BB ante
        if not (self.unit > 0 and np.isfinite(self.unit)):
            raise SolveError(f"the pot of the blinds and antes is {self.unit!r} bb: the LP needs a positive one")

    def inputs(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, float, float]:
        """The numbers the LP is built of, in units of the pot: ``(K0/u, K1, r, f/u, g/u)``."""
        p, u = self.payoffs, self.unit
        return p.K0 / u, p.K1, p.r, p.f / u, p.g / u

    # ------------------------------------------------------------ the model of record (cvxpy)

    def _build(self) -> None:
        import cvxpy as cp

        K0u, K1, r, f, g = self.inputs()
        n = K0u.shape[0]
        D = float(DEALS)  # scale: deal counts instead of probabilities (see the module docstring)
        self.stack = cp.Parameter(nonneg=True, name="stack")  # in units of the pot: S / u
        self.x = cp.Variable(n, name="push")  # SB's push frequency per hand
        self.z = cp.Variable(n, name="bb_reply")  # BB's best reply, hand by hand
        K0, K1 = D * K0u, D * K1
        showdown = K0.T @ self.x + self.stack * (K1.T @ self.x)  # D (K' x)_j with K = K0 + S K1
        self.bounds = [self.x >= 0, self.x <= 1]  # 0 <= x_i <= 1
        self.fold_guard = self.z <= 0  # BB folds hand j: SB's value gains nothing   [mu_j]
        self.call_guard = self.z <= showdown  # BB calls hand j: the showdown term     [y_j]
        objective = D * f + (g - f) * ((D * r) @ self.x) + cp.sum(self.z)  # D * SB's value
        self._model = cp.Problem(cp.Maximize(objective), [*self.bounds, self.fold_guard, self.call_guard])

    @property
    def problem(self):
        """The cvxpy problem of record (``stack`` is its parameter, in units of the pot)."""
        if self._model is None:
            self._build()
        return self._model

    def compile(self) -> CompiledLP:
        """cvxpy's compiled form of :attr:`problem` (its reduction chain to the conic form, the
        stack's constant and linear parts evaluated separately), in HiGHS's form."""
        from cvxpy.reductions.chain import Chain
        from cvxpy.reductions.cvx_attr2constr import CvxAttr2Constr
        from cvxpy.reductions.dcp2cone.cone_matrix_stuffing import ConeMatrixStuffing
        from cvxpy.reductions.dcp2cone.dcp2cone import Dcp2Cone
        from cvxpy.reductions.flip_objective import FlipObjective

        problem = self.problem
        chain = Chain(problem, [FlipObjective(), Dcp2Cone(), CvxAttr2Constr(), ConeMatrixStuffing()])
        data, _ = chain.apply(problem)
        pid = self.stack.id
        c0, d0, A0, b0 = data.apply_parameters({pid: np.array(0.0)}, keep_zeros=True)
        c1, d1, A1, b1 = data.apply_parameters({pid: np.array(1.0)}, zero_offset=True, keep_zeros=True)
        if np.any(b1):
            raise SolveError("cvxpy's compiled LP: the stack enters the right-hand side")
        offsets, row, n_zero = {}, 0, 0
        for con in data.constraints:  # rows in the order of the constraints (zero cone first)
            offsets[con.id] = (row, con.size)
            if type(con).__name__ in ("Zero", "Equality"):
                if n_zero != row:
                    raise SolveError("cvxpy's compiled LP: an equality row follows an inequality row")
                n_zero += con.size
            row += con.size
        if self.call_guard.id not in offsets:
            raise SolveError("cvxpy's compiled LP: the call constraint was renamed by a reduction")
        start, size = offsets[self.call_guard.id]
        x0 = data.var_id_to_col[self.x.id]
        return from_conic(A0, A1, b0, c0, c1, float(d0), float(d1), n_zero,
                          np.arange(x0, x0 + self.x.size), np.arange(start, start + size), maximise=True)

    def cache_key(self) -> str:
        K0, K1, r, f, g = self.inputs()
        return cache_key(K0, K1, r, np.array([f, g]), extra=f"push/fold LP, {self.payoffs.level}")

    def compiled(self) -> CompiledLP:
        """The compiled LP from the disk cache, else compiled by cvxpy now (and stored).

        An entry read from the disk is used only if it :func:`fits` this LP's numbers; one that
        does not is compiled afresh and replaced (said on stderr).  Only class-level LPs are kept on
        disk (about 0.6 MB each); a combo-level one would take about 40 MB, so it is compiled in
        each process that needs it (1-4 s)."""
        self.from_disk = False
        if self.payoffs.level != "class":
            return self.compile()
        key = self.cache_key()
        found = load_cached(key)
        if found is not None and fits(found, *self.inputs()):
            self.from_disk = True
            return found
        fresh = self.compile()
        if found is None:
            store_cached(key, fresh)
        elif not found.same_as(fresh):  # a complete, intact entry of this key, but of another problem
            _note_rebuilt(key, "does not fit the game it is filed under")
            store_cached(key, fresh, replace=True)
        # else: the entry is cvxpy's own compile and the check does not describe it (a cvxpy that
        # writes the model otherwise): cvxpy is the reference, the entry stays
        return fresh

    def recompile(self, why: str) -> bool:
        """Check a compiled LP read from the disk cache against a fresh compile: when they differ, use
        the fresh one, replace the entry and say so (``why``) on stderr.  Returns whether it changed."""
        if not self.from_disk or self._warm is None:
            return False
        self.from_disk = False
        key = self.cache_key()
        fresh = self.compile()
        if fresh.same_as(self._warm.compiled):
            return False  # the entry was right: the trouble is elsewhere
        _note_rebuilt(key, why)
        store_cached(key, fresh, replace=True)
        self._warm = WarmLP(fresh)
        return True

    # ------------------------------------------------------------ solving

    def prepare(self) -> None:
        """Have the compiled LP ready (a forked worker inherits it and starts its own HiGHS)."""
        if self.solver.strip().upper() != "HIGHS":
            self.problem  # noqa: B018 - builds the cvxpy model
        elif self._warm is None:
            self._warm = WarmLP(self.compiled())

    def solve(self, stack: float) -> tuple[np.ndarray, np.ndarray, float]:
        """``(push, call, lp_value)`` at ``stack`` (bb); raises SolveError unless optimal."""
        if self.solver.strip().upper() != "HIGHS":
            return self.solve_cvxpy(stack)
        if self._warm is None:
            self._warm = WarmLP(self.compiled())
        try:
            x, y, value = self._warm.solve(float(stack) / self.unit)
        except SolveError as exc:
            raise SolveError(
                f"the LP solver found no optimal answer at stack={float(stack):g} bb under these blinds and antes "
                f"({exc}): a numerical failure sflp does not expect; please report the command"
            ) from None
        return x, y, value * self.unit / DEALS

    def solve_cvxpy(self, stack: float, solver: str | None = None) -> tuple[np.ndarray, np.ndarray, float]:
        """The same through cvxpy's ``problem.solve`` (the plain route, and the cross-check)."""
        problem = self.problem
        self.stack.value = float(stack) / self.unit
        _solve(problem, solver or self.solver, f"stack={stack}")
        x = np.clip(np.asarray(self.x.value, dtype=np.float64), 0.0, 1.0)
        y = np.clip(np.asarray(self.call_guard.dual_value, dtype=np.float64), 0.0, 1.0)
        return x, y, float(problem.value) * self.unit / DEALS


def _note_rebuilt(key: str, why: str) -> None:
    """One line on stderr: a cache entry was not used and is being rebuilt."""
    print(f"sflp: note: the cached LP {entry_path(key)} {why}; compiled it afresh from the model and "
          "replaced the entry", file=sys.stderr, flush=True)


FIT_TOLERANCE = 1e-9
"""Relative tolerance of :func:`fits` (cvxpy's products of the same numbers may round differently)."""


def fits(compiled: CompiledLP, K0, K1, r, f: float, g: float) -> bool:
    """Whether ``compiled`` is the LP of these numbers (those of :meth:`PushFoldLP.inputs`), checked
    without cvxpy from what the model says it must be:

    * ``2n`` columns, SB's ``n`` among them bounded by [0, 1], BB's ``n`` reply columns ``z`` by
      ``z <= 0`` (the fold guard), and ``n`` call rows ``>= 0``;
    * call row ``j`` holds one ``z`` entry and, over SB's columns, ``D K0'`` (and ``D K1'`` in the
      stack's part) times minus that entry: the row of ``D (K' x)_j - z_j >= 0`` whatever factor and
      sign cvxpy writes it with, entry by entry to :data:`FIT_TOLERANCE`; nothing else of a
      reply column depends on the stack;
    * the objective is ``D f + (g - f) D r.x + sum z`` up to one sign, the one ``maximise`` says.

    A compiled LP of another blind structure, level or game fails it; the answer of one that
    passes is still checked by best responses and certified exactly."""
    K0, K1, r = (np.asarray(a, dtype=np.float64) for a in (K0, K1, r))
    n = len(r)
    D = float(DEALS)
    c = compiled
    try:
        if c.num_col != 2 * n or len(c.x_cols) != n or len(c.call_rows) != n or len(c.start) != c.num_col + 1 \
                or len(c.index) != c.start[-1] or len(c.value0) != len(c.index) or len(c.value1) != len(c.index):
            return False
        x_pos = np.full(c.num_col, -1)
        x_pos[c.x_cols] = np.arange(n)
        row_pos = np.full(c.num_row, -1)
        row_pos[c.call_rows] = np.arange(n)
        if (x_pos >= 0).sum() != n or (row_pos >= 0).sum() != n:
            return False
        is_x = x_pos >= 0
        column = np.repeat(np.arange(c.num_col), np.diff(c.start))  # the column of every matrix entry
        in_call = row_pos[c.index] >= 0
        on_x = is_x[column]
        # the reply column of each call row: exactly one non-zero entry, not moved by the stack
        reply = in_call & ~on_x & (c.value0 != 0)
        if np.bincount(row_pos[c.index[reply]], minlength=n).tolist() != [1] * n or np.any(c.value1[~on_x]):
            return False
        z_coef = np.zeros(n)
        z_coef[row_pos[c.index[reply]]] = c.value0[reply]
        pick = in_call & on_x
        for values, matrix in ((c.value0, K0), (c.value1, K1)):
            have = np.zeros((n, n))
            np.add.at(have, (row_pos[c.index[pick]], x_pos[column[pick]]), values[pick])
            want = -z_coef[:, None] * (D * matrix.T)
            floor = 1e-15 * float(np.abs(want).max(initial=0.0))
            if not np.all(np.abs(have - want) <= FIT_TOLERANCE * np.maximum(np.abs(want), floor)):
                return False
        sign = c.cost0[~is_x]
        if not (np.all(np.abs(sign) == 1) and np.all(sign == sign[0])) or np.any(c.cost1) or c.offset1 != 0:
            return False
        s = float(sign[0])
        if c.maximise != (s < 0):  # cvxpy minimises the negative of a maximisation
            return False
        want_cost = s * (g - f) * D * r
        if not np.all(np.abs(c.cost0[c.x_cols] - want_cost) <= FIT_TOLERANCE * np.abs(want_cost)):
            return False
        if not abs(c.offset0 - s * D * f) <= FIT_TOLERANCE * abs(D * f):
            return False
        return bool(np.all(c.col_lower[c.x_cols] == 0) and np.all(c.col_upper[c.x_cols] == 1)
                    and np.all(c.col_upper[~is_x] == 0) and np.all(c.row_lower[c.call_rows] == 0)
                    and np.all(np.isposinf(c.row_upper[c.call_rows])))
    except (IndexError, ValueError, TypeError):
        return False


_LP_CACHE: dict[tuple, PushFoldLP] = {}


def lp_for(game: PushFoldGame, solver: str = DEFAULT_SOLVER) -> PushFoldLP:
    """The compiled LP for ``game``'s blind structure and level (cached per process)."""
    key = (game.level, game.config.structure_key(), id(game.payoffs), solver)
    lp = _LP_CACHE.get(key)
    if lp is None:
        lp = PushFoldLP(game.payoffs, solver)
        if len(_LP_CACHE) > 16:
            _LP_CACHE.clear()
        _LP_CACHE[key] = lp
    return lp


def solve_lp(game: PushFoldGame, solver: str = DEFAULT_SOLVER) -> tuple[np.ndarray, np.ndarray, float]:
    """Solve ``game`` by the LP: SB's push and BB's call frequencies and the LP's value."""
    return lp_for(game, solver).solve(float(game.config.stack))
