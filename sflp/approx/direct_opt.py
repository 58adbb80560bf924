r"""Direct optimisation of the maximally-exploitative EV (the TensorFlow seed, in numpy).

Each player's range is a vector of free parameters squashed by the logistic sigmoid,
``y = sigma(v)`` and ``x = sigma(u)``, so any real parameters give frequencies in (0, 1); the
seed starts from zeros (every hand at one half).

BB's problem (the seed's): minimise SB's maximally-exploitative EV against ``y``::

    F(y) = f + sum_i max(0, m_i(y)),      m(y) = r (g - f) + K y

(the average over SB's hands of the larger of folding and shoving, less the stack).  SB's problem
(the seed's exercise, "BB's EV at the beginning of the hand"): maximise SB's value when BB
best-responds to ``x``::

    G(x) = f + (g - f) r.x + sum_j min(0, c_j(x)),     c(x) = K' x

Both are piecewise linear; like the seed (``tf.maximum`` differentiated by TensorFlow) we descend
along the **subgradient** -- the gradient of the active piece, no smoothing::

    dF/dy = K' [m > 0]            dG/dx = (g - f) r + K [c < 0]

chained through the sigmoid, ``dy/dv = y (1 - y)``, with plain gradient steps (the seed's
``GradientDescentOptimizer``; no momentum)::

    v <- v - lr * (dF/dy) * y (1 - y) / q          u <- u + lr * (dG/dx) * x (1 - x) / q

``q_k = |class k| / 1326`` is the share of hands in class ``k``.  The seed has one parameter per
combo (1,326); tying the combos of a class to one parameter and dividing its gradient by ``q``
takes the same step as the seed's per-combo gradient (``lr = seed's rate / 1326``).  The seed's
learning rate did not survive in its text; ``lr = 10`` is stable at 5-20 bb (``30`` oscillates at
20 bb).

The two problems are independent (neither uses the other's range), so one iteration is one step of
each.  ``F(y) - v*`` is exactly BB's exploitability and ``v* - G(x)`` SB's.  Pure hands need
``|v| -> inf``, reached only logarithmically, so the exploitability falls like ``~0.1 / t`` bb.
The method is deterministic: ``seed`` is recorded but does not change the result.
"""

from __future__ import annotations

import numpy as np

from sflp.approx.common import ApproxResult, Run
from sflp.core.cards import CLASS_SIZES, N_COMBOS
from sflp.core.game import GameConfig

METHOD = "direct"
DEFAULT_ITERATIONS = 20_000
DEFAULT_LR = 10.0


def sigmoid(v: np.ndarray) -> np.ndarray:
    """The logistic function ``1 / (1 + exp(-v))``, computed without overflow.

    >>> sigmoid(np.array([-800.0, 0.0, 800.0])).tolist()
    [0.0, 0.5, 1.0]
    """
    e = np.exp(-np.abs(v))
    return np.where(v >= 0, 1.0 / (1.0 + e), e / (1.0 + e))


def bb_objective_grad(game, y: np.ndarray) -> tuple[float, np.ndarray]:
    """``F(y)`` (SB's best-response value against ``y``) and its subgradient ``K' [m > 0]``."""
    m = game.r * (game.g - game.f) + game.K @ y
    active = (m > 0).astype(np.float64)
    return float(game.f + m @ active), game.K.T @ active


def sb_objective_grad(game, x: np.ndarray) -> tuple[float, np.ndarray]:
    """``G(x)`` (SB's value when BB best-responds to ``x``) and its subgradient ``(g-f) r + K [c < 0]``."""
    c = game.K.T @ x
    active = (c < 0).astype(np.float64)
    base = game.r * (game.g - game.f)
    return float(game.f + base @ x + c @ active), base + game.K @ active


def direct(
    config: GameConfig,
    iterations: int | None = None,
    seconds: float | None = None,
    seed: int = 0,
    *,
    trace_every: int | None = None,
    target: float | None = None,
    lr: float = DEFAULT_LR,
) -> ApproxResult:
    """Sigmoid-parametrised subgradient descent on both players' exploitability (see the module doc)."""
    run = Run.start(METHOD, config, iterations, seconds, seed, trace_every, target, DEFAULT_ITERATIONS)
    game = run.game
    share = CLASS_SIZES.astype(np.float64) / N_COMBOS
    u = np.zeros(game.size)
    v = np.zeros(game.size)
    x, y = sigmoid(u), sigmoid(v)
    t = 0
    while not run.done(t):
        t += 1
        _, gy = bb_objective_grad(game, y)
        _, gx = sb_objective_grad(game, x)
        v -= lr * gy * y * (1.0 - y) / share
        u += lr * gx * x * (1.0 - x) / share
        x, y = sigmoid(u), sigmoid(v)
        if run.due(t):
            run.record(t, x, y)
    return run.result(t, x, y, {"lr": float(lr), "gradient": "subgradient"})
