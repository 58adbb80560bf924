r"""Tabular Monte-Carlo self-play: the RL seed with one Q-value per (position, class, action).

Everything is the seed's method (:mod:`sflp.approx.rl_linear_q`) -- the same dealt hands, the
same rewards (final stacks), the same linearly decaying ``epsilon`` with flips of probability
``epsilon / 2``, BB updated on every hand, greedy strategies -- except the model: instead of seven
shared weights, a table ``Q[position, class, action]`` (169 x 2 x 2 x 2 = 676 numbers, started
uniform in [0, 1) like the seed's ``theta``).  The table can represent any pair of class
strategies, so whatever exploitability remains is sampling noise, not model bias; comparing it
with the linear model's 0.050-0.084 bb at 10 bb shows what the seed's features cost.  ``extra``
carries the learnt gains ``Q(GII) - Q(FOLD)`` per class (``sb_q_gain``, ``bb_q_gain``).

Step size.  The linear model's ``alpha = 1e-4`` is shared by all 1,326 hands; one table entry sees
only its own class (~1/300 of the hands), so that rate would barely move it from its random start.
Each entry therefore uses the sample-average step ``1 / n`` (``n`` = its visits so far) until that
falls to ``alpha_min`` (default ``3e-4``), then the constant ``alpha_min``: the first visits erase
the arbitrary start, the constant rate forgets the early, exploring opponent (with ``1/n`` to the
end, half of everything averaged in would be random play: the mean of a linearly decaying
``epsilon`` is 1/2).  The rate trades noise (about ``sigma sqrt(alpha_min / 2)`` per value) against
staleness: once ``epsilon`` is near 0 an action a player stopped choosing is no longer sampled,
and with ``alpha_min = 1e-3`` the greedy self-play of the last tenth of the run drifts back up to
0.04-0.07 bb; ``3e-4`` ends at 0.009-0.015 bb after ten million hands at 10 bb (seeds 0-3),
against 0.050-0.084 bb for the linear model on the same hands (seeds 0-7).
"""

from __future__ import annotations

import numpy as np

from sflp.approx import selfplay
from sflp.approx.common import ApproxResult, Run
from sflp.approx.selfplay import HandStream, class_of, half_epsilons, next_batch, outcome_values
from sflp.core.cards import N_CLASSES
from sflp.core.game import GameConfig

METHOD = "rl-tabular"
DEFAULT_ITERATIONS = 10_000_000
DEFAULT_ALPHA_MIN = 3e-4


def greedy_from_table(q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Greedy strategies of a ``(2, 169, 2)`` table ``Q[position (0 = SB), class, action (1 = GII)]``."""
    return (q[0, :, 1] > q[0, :, 0]).astype(np.float64), (q[1, :, 1] > q[1, :, 0]).astype(np.float64)


def play_hands_tabular(q, visits, sb_cls, bb_cls, showdown, u_sb, u_bb, half_eps, stack, fold, steal, alpha_min):
    """Play and learn from a batch of hands, sequentially; ``q`` and ``visits`` are nested lists
    ``[position][class][action]`` updated in place."""
    q_sb, q_bb = q
    n_sb, n_bb = visits
    for i_sb, i_bb, sd, us, ub, h in zip(
        sb_cls.tolist(), bb_cls.tolist(), showdown.tolist(), u_sb.tolist(), u_bb.tolist(), half_eps.tolist()
    ):
        qs, qb = q_sb[i_sb], q_bb[i_bb]
        sb_gii = qs[1] > qs[0]
        if us < h:
            sb_gii = not sb_gii
        bb_gii = qb[1] > qb[0]
        if ub < h:
            bb_gii = not bb_gii
        if not sb_gii:
            net = fold
        elif not bb_gii:
            net = steal
        else:
            net = sd
        a, b = int(sb_gii), int(bb_gii)
        ns, nb = n_sb[i_sb], n_bb[i_bb]
        ns[a] += 1
        step = 1.0 / ns[a]
        qs[a] += (step if step > alpha_min else alpha_min) * (stack + net - qs[a])
        nb[b] += 1
        step = 1.0 / nb[b]
        qb[b] += (step if step > alpha_min else alpha_min) * (stack - net - qb[b])


def rl_tabular(
    config: GameConfig,
    iterations: int | None = None,
    seconds: float | None = None,
    seed: int = 0,
    *,
    trace_every: int | None = None,
    target: float | None = None,
    alpha_min: float = DEFAULT_ALPHA_MIN,
    hands_per_second: float | None = None,
) -> ApproxResult:
    """Tabular Monte-Carlo self-play (see the module doc); ``iterations`` = hands played.

    A ``seconds``-only budget plans ``seconds x hands_per_second`` hands (default
    :data:`~sflp.approx.selfplay.HANDS_PER_SECOND`), the seconds kept as an outer stop."""
    run = Run.start(METHOD, config, iterations, seconds, seed, trace_every, target, DEFAULT_ITERATIONS)
    planned = run.plan_iterations(selfplay.HANDS_PER_SECOND if hands_per_second is None else hands_per_second)
    config = run.config
    rng = np.random.default_rng(seed)
    q = rng.random((2, N_CLASSES, 2)).tolist()
    visits = np.zeros((2, N_CLASSES, 2), dtype=np.int64).tolist()
    stream = HandStream(rng, config)
    fold, steal, _, _ = outcome_values(config)
    stack = float(config.stack)
    i = 0
    while not run.done(i):
        m = next_batch(run, i)
        sb, bb, showdown, u_sb, u_bb = stream.take(m)
        play_hands_tabular(
            q, visits, class_of(sb), class_of(bb), showdown, u_sb, u_bb, half_epsilons(run, i, m),
            stack, fold, steal, alpha_min,
        )
        i += m
        if run.due(i):
            run.record(i, *greedy_from_table(np.array(q)))
    table = np.array(q)
    sb_strategy, bb_strategy = greedy_from_table(table)
    extra = {
        "planned_hands": planned,
        "alpha_min": float(alpha_min),
        "step": "1/n, floored at alpha_min",
        "strategy": "greedy",
        "sb_q_gain": (table[0, :, 1] - table[0, :, 0]).tolist(),
        "bb_q_gain": (table[1, :, 1] - table[1, :, 0]).tolist(),
    }
    return run.result(i, sb_strategy, bb_strategy, extra)
