r"""The push/fold equilibrium as a linear program, built with cvxpy (the LP of record).

Why one module: it is one piece, though over 600 lines: the LP of record, the same LP with the
blind structure as parameters (its template), and the check that a compiled LP is the model's
are one model stated in cvxpy; it is the only module that imports cvxpy.

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

One compiled LP for every blind structure.  The only numbers of the LP that depend on the blind
structure are ``K0/u`` and the constant ``f/u``, and ``K0`` is linear in the node values
(:func:`sflp.core.payoff.showdown`):

    K0 = c_win M_win + c_lose M_lose + c_tie M_tie + c_steal M_steal

where ``c_node`` is the node's constant part (SB's net chips there without the stack: ``0, A,
A/2, bb + a + A``) and ``M_node`` the showdown matrix of that node worth 1 and the others 0
(:class:`sflp.core.game.NodeSplit`: they depend on the equity table alone).  So the same LP is

    maximise    D fold + D r.x + sum_j z_j
    subject to  0 <= x_i <= 1,  z_j <= 0,
                z_j <= sum_node theta_node (D M_node' x)_j + s (D K1' x)_j          [y_j]

with the parameters ``s = S/u``, ``theta_node = c_node/u`` and ``fold = f/u`` (``(g - f)/u`` is 1):
:func:`compile_template` states it in cvxpy and compiles it once, into an
:class:`~sflp.solving.highs.LPTemplate` whose numbers are affine in the six parameters.  A
structure's compiled LP is then one numpy expression (:meth:`~sflp.solving.highs.LPTemplate.at`),
checked entry by entry against that structure's own numbers (:func:`fits`) before it is used;
one that does not fit (a payoff rule the split does not describe, or rounding at extreme
amounts) is compiled from the structure's own model, :attr:`PushFoldLP.problem`.  Why: importing
cvxpy costs a new process about a second of CPU, and every structure of an atlas is new.  The
template comes from sflp's cache folder (an entry sflp wrote), else from the copy the package
ships (``data/push_fold_lp.npz``, written by ``python tools/build_lp_template.py`` and pinned by
``tests/test_lp_template.py`` against a fresh compile), else cvxpy compiles it (about a second,
once) and the cache keeps it; its key is a digest of the model's numbers (the node matrices,
``K1``, ``r``) and layout, not of cvxpy's version: what vouches for it is that each structure's
LP made from it fits that structure's numbers, and that every answer is checked by best
responses and certified exactly.  Only the class level has one (a combo-level one would be
about 300 MB).

How it is solved.  With HiGHS (the default) a structure's compiled numbers (from the template,
else cvxpy's compile of :attr:`PushFoldLP.problem`, :meth:`PushFoldLP.compile`: its reduction chain to
the conic form, evaluated for the stack's constant and linear parts) are handed to one
persistent HiGHS instance that re-solves at each new stack warm from the previous basis
(:mod:`sflp.solving.highs`): the cost of a re-solve is then HiGHS's own, not cvxpy's per-solve
canonicalisation and a cold start (``benchmarks/bench_core.py`` prints both).  Compiled numbers
are kept on disk (:func:`sflp.solving.highs.load_cached`), so a new process does not import
cvxpy at all; cvxpy rebuilds an entry when it is missing or stale.  An entry read back is checked
against the problem it claims to be (:func:`fits`: its matrix, objective and bounds against the
payoffs, entry by entry), and an entry (or template) that does not fit, or whose first answer
fails the best-response check, is compiled afresh, said on stderr in one line, and replaced
(only an entry sflp wrote).  Any other solver name (``solver="CLARABEL"``, ...) and :meth:`PushFoldLP.solve_cvxpy`
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

import hashlib
import pathlib
import sys
from dataclasses import dataclass

import numpy as np

from sflp.core.game import DEALS, Payoffs, PushFoldGame
from sflp.errors import SolveError
from sflp.quiet import native_output, verbose
from sflp.solving.highs import (
    CACHE_FORMAT,
    NODES,
    PARAMETERS,
    SHIPPED_NAME,
    CompiledLP,
    LPTemplate,
    WarmLP,
    cache_key,
    entry_path,
    from_conic,
    from_conic_parts,
    load_cached,
    read_template,
    store_cached,
    write_template,
)

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
        self.template = None  # the template (compile_template) the compiled LP in use came from
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
        data = _conic_data(self.problem)
        pid = self.stack.id
        c0, d0, A0, b0 = data.apply_parameters({pid: np.array(0.0)}, keep_zeros=True)
        c1, d1, A1, b1 = data.apply_parameters({pid: np.array(1.0)}, zero_offset=True, keep_zeros=True)
        if np.any(b1):
            raise SolveError("cvxpy's compiled LP: the stack enters the right-hand side")
        n_zero, x_cols, call_rows = _layout(data, self.x, self.call_guard, "cvxpy's compiled LP")
        return from_conic(A0, A1, b0, c0, c1, float(d0), float(d1), n_zero, x_cols, call_rows, maximise=True)

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
        self.template = None
        if self.payoffs.level != "class":
            return self.compile()
        template = template_for(self.payoffs)
        if template is not None:
            made = template.at(theta(self.payoffs, self.unit))
            if fits(made, *self.inputs()):
                self.from_disk = template.source != "compiled"
                self.template = template
                return made
            fresh = self.compile()
            if template.source != "compiled" and not close_to(made, fresh, FIT_TOLERANCE):
                self._renew_template(template, "does not fit the game it is filed under")
            return fresh
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
        if self.template is not None:
            return self._retemplate(fresh, why)
        if fresh.same_as(self._warm.compiled):
            return False  # the entry was right: the trouble is elsewhere
        _note_rebuilt(key, why)
        store_cached(key, fresh, replace=True)
        self._warm = WarmLP(fresh)
        return True

    def _retemplate(self, fresh: CompiledLP, why: str) -> bool:
        """:meth:`recompile` for an LP made from a template read from disk: when this structure's
        own compile differs from it beyond rounding, solve with the fresh one, say so, and compile
        the template afresh into sflp's cache (where it is looked for first; a package's copy is
        never written)."""
        template, self.template = self.template, None
        if close_to(fresh, self._warm.compiled):
            return False  # the template was right: the trouble is elsewhere
        self._renew_template(template, why)
        self._warm = WarmLP(fresh)
        return True

    def _renew_template(self, template, why: str) -> None:
        """Say on stderr (one line) that the template read from disk is wrong, and compile it afresh
        into sflp's cache, where it is looked for first (an entry sflp wrote is replaced; a
        package's copy or anyone else's file never is)."""
        print(f"sflp: note: the compiled LP template {template.path} {why}; compiled this structure and the "
              "template afresh from the model (the template into sflp's cache)", file=sys.stderr, flush=True)
        key = template_key(self.payoffs)
        write_template(compile_template(self.payoffs), key, replace=True)
        forget_templates(key)

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


def _conic_data(problem):
    """cvxpy's reduction chain of ``problem`` to the conic form (its parameters still symbolic)."""
    from cvxpy.reductions.chain import Chain
    from cvxpy.reductions.cvx_attr2constr import CvxAttr2Constr
    from cvxpy.reductions.dcp2cone.cone_matrix_stuffing import ConeMatrixStuffing
    from cvxpy.reductions.dcp2cone.dcp2cone import Dcp2Cone
    from cvxpy.reductions.flip_objective import FlipObjective

    chain = Chain(problem, [FlipObjective(), Dcp2Cone(), CvxAttr2Constr(), ConeMatrixStuffing()])
    data, _ = chain.apply(problem)
    return data


def _layout(data, x, call_guard, what: str) -> tuple[int, np.ndarray, np.ndarray]:
    """Where the conic data ``data`` puts things: its number of zero-cone rows (they come first),
    the columns of SB's push frequencies ``x`` and the rows of the constraint ``call_guard``."""
    offsets, row, n_zero = {}, 0, 0
    for con in data.constraints:  # rows in the order of the constraints (zero cone first)
        offsets[con.id] = (row, con.size)
        if type(con).__name__ in ("Zero", "Equality"):
            if n_zero != row:
                raise SolveError(f"{what}: an equality row follows an inequality row")
            n_zero += con.size
        row += con.size
    if call_guard.id not in offsets:
        raise SolveError(f"{what}: the call constraint was renamed by a reduction")
    start, size = offsets[call_guard.id]
    x0 = data.var_id_to_col[x.id]
    return n_zero, np.arange(x0, x0 + x.size), np.arange(start, start + size)


def compile_template(payoffs: Payoffs) -> LPTemplate:
    """cvxpy's compile of the push/fold LP with the blind structure as parameters (the model of the
    module docstring's "One compiled LP for every blind structure"), with the numbers of
    ``payoffs``' table, as an :class:`~sflp.solving.highs.LPTemplate`."""
    import cvxpy as cp

    D = float(DEALS)
    n = len(payoffs.r)
    stack = cp.Parameter(nonneg=True, name="stack")  # S / u
    params = {name: cp.Parameter(name=name) for name in PARAMETERS}  # c_node / u, and fold = f / u
    x = cp.Variable(n, name="push")  # SB's push frequency per hand
    z = cp.Variable(n, name="bb_reply")  # BB's best reply, hand by hand
    showdown = stack * ((D * payoffs.K1).T @ x)  # D (K' x)_j with K = K0 + S K1 ...
    for node in NODES:  # ... and K0 = sum of c_node M_node
        showdown = showdown + params[node] * ((D * payoffs.nodes.matrices[node]).T @ x)
    call_guard = z <= showdown  # BB calls hand j: the showdown term   [y_j]
    constraints = [x >= 0, x <= 1, z <= 0, call_guard]  # 0 <= x_i <= 1; BB folds hand j   [mu_j]
    objective = D * params["fold"] + (D * payoffs.r) @ x + cp.sum(z)  # D * SB's value ((g - f)/u = 1)
    data = _conic_data(cp.Problem(cp.Maximize(objective), constraints))
    every = [stack, *params.values()]

    def at(unit_of=None, **kw):
        return data.apply_parameters({p.id: np.array(1.0 if p is unit_of else 0.0) for p in every},
                                     keep_zeros=True, **kw)

    c0, d0, A0, b0 = at()
    c1, d1, A1, b1 = at(stack, zero_offset=True)
    parts = [at(params[name], zero_offset=True) for name in PARAMETERS]
    if np.any(b1) or any(np.any(p[3]) for p in parts):
        raise SolveError("cvxpy's compiled LP template: a parameter enters the right-hand side")
    n_zero, x_cols, call_rows = _layout(data, x, call_guard, "cvxpy's compiled LP template")
    base, values = from_conic_parts(A0, A1, b0, c0, c1, float(d0), float(d1), n_zero, x_cols, call_rows,
                                    maximise=True, parts=[p[2] for p in parts])
    return LPTemplate(base, np.array(values), np.array([np.asarray(p[0], dtype=np.float64) for p in parts]),
                      np.array([float(p[1]) for p in parts]))


def _note_rebuilt(key: str, why: str) -> None:
    """One line on stderr: a cache entry was not used and is being rebuilt."""
    print(f"sflp: note: the cached LP {entry_path(key)} {why}; compiled it afresh from the model and "
          "replaced the entry", file=sys.stderr, flush=True)


def close_to(a: CompiledLP, b: CompiledLP, rtol: float = 1e-12) -> bool:
    """Whether two compiled LPs have one layout and numbers equal to ``rtol`` of the largest of
    each array (a template's product and a structure's own compile round differently)."""
    from dataclasses import fields

    for f in fields(CompiledLP):
        u, v = getattr(a, f.name), getattr(b, f.name)
        if f.name in ("cost0", "cost1", "value0", "value1", "offset0", "offset1"):
            u, v = np.asarray(u, dtype=np.float64), np.asarray(v, dtype=np.float64)
            if u.shape != v.shape or not np.all(np.abs(u - v) <= rtol * max(float(np.abs(v).max(initial=0)), 1e-300)):
                return False
        elif not np.array_equal(u, v):
            return False
    return True


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


# -------------------------------------------------------------- one compiled LP for every blind structure


def theta(payoffs: Payoffs, unit: float) -> dict[str, float]:
    """The template's parameters for ``payoffs`` (which carry their node split), in units of the pot."""
    out = {node: payoffs.nodes.constants[node] / unit for node in NODES}
    out["fold"] = payoffs.f / unit
    return out


def template_key(payoffs: Payoffs) -> str:
    """A digest of the template's numbers (the node matrices, ``K1``, ``r``) and of the layout."""
    h = hashlib.sha256(f"sflp push/fold LP template; format {CACHE_FORMAT}; {payoffs.level}; "
                       f"{payoffs.nodes.key}".encode())
    for a in (payoffs.K1, payoffs.r):
        h.update(np.ascontiguousarray(a, dtype=np.float64).tobytes())
    return h.hexdigest()[:32]


def shipped_paths() -> list[pathlib.Path]:
    """Where the package's template may be: ``sflp/data/`` (a wheel), then a checkout's ``data/``."""
    from sflp.core.equity import package_data_dir, repo_data_dir

    folders = [package_data_dir(), repo_data_dir()]
    return [f / SHIPPED_NAME for f in folders if f is not None]


_TEMPLATES: dict[str, LPTemplate] = {}


def template_for(payoffs: Payoffs) -> LPTemplate | None:
    """The template of ``payoffs``' table and level (None if they carry no node split): from this
    process, sflp's cache folder, the package, or compiled by cvxpy now (and then kept in the cache)."""
    if payoffs.nodes is None or payoffs.level != "class":
        return None
    key = template_key(payoffs)
    if key in _TEMPLATES:
        return _TEMPLATES[key]
    found = None
    cached = entry_path(key)
    if cached is not None and cached.is_file():
        found = read_template(cached, key, "cache")
    for path in [] if found is not None else shipped_paths():
        if path.is_file():
            found = read_template(path, key, "package")
            if found is not None:
                break
    if found is None:
        found = compile_template(payoffs)
        write_template(found, key)
        found = LPTemplate(found.base, found.values, found.costs, found.offsets, "compiled", cached)
    _TEMPLATES[key] = found
    return found


def forget_templates(key: str | None = None) -> None:
    """Drop the process's copy of a template (all of them by default)."""
    if key is None:
        _TEMPLATES.clear()
    else:
        _TEMPLATES.pop(key, None)
