r"""Monte-Carlo reinforcement learning with a linear action-value model (the RL seed, reproduced).

The method (model-free, value-based, Monte Carlo, on-policy, undiscounted, linear Q):

* **State and action -> seven features.**  For a hand with higher rank ``h``, lower rank ``l``
  (0 = deuce .. 12 = ace), a suited flag, position and action (GII = shove for SB, call for BB)::

      phi = [1, h/13 * GII, l/13 * GII, |h - l|^0.25 * GII, suited * GII, SB, SB * GII]

  and ``Qhat(phi; theta) = theta . phi``.  Folding zeroes the hand features, so
  ``Qhat(GII) - Qhat(FOLD) = theta_1 h/13 + theta_2 l/13 + theta_3 |h-l|^0.25 + theta_4 suited
  (+ theta_6 for SB)``: both players rank hands by one shared score and differ only by SB's
  threshold ``-theta_6``.
* **Self-play.**  Each hand both players are dealt cards (:mod:`sflp.approx.selfplay`) and each
  picks ``GII`` when ``Qhat(GII) > Qhat(FOLD)`` (strictly), then flips that choice with probability
  ``epsilon / 2`` (so it acts at random with probability ``epsilon``), where for hand ``i`` of
  ``n`` ``epsilon = (n - i) / n`` falls linearly from 1 to 0.
* **Reward** = the player's stack at the end of the hand (start ``S``; see the selfplay table).
* **Update** (stochastic gradient descent on ``(R - Qhat)^2 / 2``), for SB and then BB, both with
  the ``Qhat`` computed before either update: ``theta += alpha (R - Qhat) phi``, ``alpha = 1e-4``.
  ``theta`` starts uniform in [0, 1) (``rng.random(7)``).
* **Strategy** = the greedy one: shove / call a class when ``Qhat(GII) > Qhat(FOLD)``.

The seed's run: ``S = 10``, ten million hands, ``alpha = 1e-4``; it reports
``theta = [9.63, 6.17, -1.35, -2.73, 0.23, -0.15, 0.15]``, SB shoving 55.4% and BB calling 48.6%
of hands.  This implementation with ``n = 10,000,000`` gives, over seeds 0-7, ``theta`` in
``[9.60..9.66, 6.15..6.22, -1.44..-1.33, -2.77..-2.70, 0.16..0.31, -0.16..-0.08, 0.08..0.24]``,
SB shoving 51.1-56.3% and BB calling 45.6-50.4% (seed 6: 55.35% / 48.57%, the seed's very
figures); the equilibrium is 58.3% / 37.4%.  The total exploitability, 0.050-0.084 bb per hand
(mostly BB's too-wide calls), is the cost of the model's bias (:mod:`sflp.approx.rl_tabular`).

Ambiguities resolved here (the seed's code is followed where it exists):

* BB "acts" and is updated on **every** hand, also when SB folded (its reward is then ``S - f``
  whatever it chose): the seed calls ``act`` and updates for both players unconditionally.
* Showdowns follow the seed's ``simulateHand``: SB wins the whole pot with probability equal to its
  exact equity (ties half) against BB's combo; no board is dealt.
* Antes and other blinds (which the seed does not have) enter only through the rewards; the
  features stay the seed's.
* A run given only ``seconds`` plans ``n = seconds x 250,000`` hands for the seed's
  ``epsilon = (n - i) / n`` and keeps the seconds as an outer stop (:mod:`sflp.approx.selfplay`):
  the schedule depends on the hand count only, so every seeded run is deterministic.
"""

from __future__ import annotations

import numpy as np

from sflp.approx import selfplay
from sflp.approx.common import ApproxResult, Run
from sflp.approx.selfplay import HandStream, class_of, class_ranks, half_epsilons, next_batch, outcome_values
from sflp.core.game import GameConfig

METHOD = "rl-linear-q"
DEFAULT_ITERATIONS = 10_000_000
DEFAULT_ALPHA = 1e-4
N_PARAMS = 7

SEED_REPORT = {"stack": 10, "hands": 10_000_000, "alpha": 1e-4, "push_pct": 55.35, "call_pct": 48.57}
"""What the seed document reports for its run (shove and call shares of the 1,326 combos)."""


def hand_features() -> np.ndarray:
    """Per class, the seed's four hand features when getting it in: ``h/13, l/13, |h-l|^0.25, suited``.

    >>> np.round(hand_features()[1], 4).tolist()        # AKs
    [0.9231, 0.8462, 1.0, 1.0]
    """
    hi, lo, suited = class_ranks()
    return np.stack([hi / 13.0, lo / 13.0, np.abs(hi - lo) ** 0.25, suited.astype(np.float64)], axis=1)


def features(cls: int, is_sb: bool, is_gii: bool) -> np.ndarray:
    """The seven-feature vector ``phi`` of a class, position and action (see the module doc).

    >>> features(1, True, False).tolist()
    [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0]
    """
    hand = hand_features()[cls] if is_gii else np.zeros(4)
    return np.concatenate([[1.0], hand, [float(is_sb), float(is_sb and is_gii)]])


def greedy_strategies(theta: np.ndarray, feats: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """SB's and BB's greedy strategies per class: GII where ``Qhat(GII) > Qhat(FOLD)``."""
    feats = hand_features() if feats is None else feats
    score = feats @ np.asarray(theta, dtype=np.float64)[1:5]
    return (score + theta[6] > 0).astype(np.float64), (score > 0).astype(np.float64)


def play_hands(theta, sb_feats, bb_feats, showdown, u_sb, u_bb, half_eps, stack, fold, steal, alpha):
    """Play and learn from a batch of hands, sequentially (the seed's ``mc`` loop body).

    ``sb_feats`` / ``bb_feats`` are the players' hand features (rows of :func:`hand_features`),
    ``showdown`` SB's net chips if both get all-in, ``u_*`` uniforms for exploration and
    ``half_eps`` the flip probabilities ``epsilon / 2``.  Returns the updated ``theta``.
    """
    t0, t1, t2, t3, t4, t5, t6 = (float(v) for v in theta)
    cols = (
        *sb_feats.T.tolist(),
        *bb_feats.T.tolist(),
        showdown.tolist(),
        u_sb.tolist(),
        u_bb.tolist(),
        half_eps.tolist(),
    )
    for a1, a2, a3, a4, b1, b2, b3, b4, sd, us, ub, h in zip(*cols):
        q_sb_fold = t0 + t5
        q_sb_gii = q_sb_fold + t1 * a1 + t2 * a2 + t3 * a3 + t4 * a4 + t6
        q_bb_fold = t0
        q_bb_gii = t0 + t1 * b1 + t2 * b2 + t3 * b3 + t4 * b4
        sb_gii = q_sb_gii > q_sb_fold
        if us < h:
            sb_gii = not sb_gii
        bb_gii = q_bb_gii > q_bb_fold
        if ub < h:
            bb_gii = not bb_gii
        if not sb_gii:
            net = fold
        elif not bb_gii:
            net = steal
        else:
            net = sd
        if sb_gii:
            d = alpha * (stack + net - q_sb_gii)
            t0 += d
            t1 += d * a1
            t2 += d * a2
            t3 += d * a3
            t4 += d * a4
            t5 += d
            t6 += d
        else:
            d = alpha * (stack + net - q_sb_fold)
            t0 += d
            t5 += d
        if bb_gii:
            d = alpha * (stack - net - q_bb_gii)
            t0 += d
            t1 += d * b1
            t2 += d * b2
            t3 += d * b3
            t4 += d * b4
        else:
            t0 += alpha * (stack - net - q_bb_fold)
    return np.array([t0, t1, t2, t3, t4, t5, t6])


def rl_linear_q(
    config: GameConfig,
    iterations: int | None = None,
    seconds: float | None = None,
    seed: int = 0,
    *,
    trace_every: int | None = None,
    target: float | None = None,
    alpha: float = DEFAULT_ALPHA,
    hands_per_second: float | None = None,
) -> ApproxResult:
    """The seed's Monte-Carlo linear-Q self-play; ``iterations`` = hands played (default 10,000,000).

    A ``seconds``-only budget plans ``seconds x hands_per_second`` hands (default
    :data:`~sflp.approx.selfplay.HANDS_PER_SECOND`), the seconds kept as an outer stop."""
    run = Run.start(METHOD, config, iterations, seconds, seed, trace_every, target, DEFAULT_ITERATIONS)
    planned = run.plan_iterations(selfplay.HANDS_PER_SECOND if hands_per_second is None else hands_per_second)
    config = run.config
    rng = np.random.default_rng(seed)
    theta = rng.random(N_PARAMS)
    stream = HandStream(rng, config)
    feats = hand_features()
    fold, steal, _, _ = outcome_values(config)
    stack = float(config.stack)
    i = 0
    while not run.done(i):
        m = next_batch(run, i)
        sb, bb, showdown, u_sb, u_bb = stream.take(m)
        half_eps = half_epsilons(run, i, m)
        theta = play_hands(
            theta, feats[class_of(sb)], feats[class_of(bb)], showdown, u_sb, u_bb, half_eps, stack, fold, steal, alpha
        )
        i += m
        if run.due(i):
            run.record(i, *greedy_strategies(theta, feats))
    sb_strategy, bb_strategy = greedy_strategies(theta, feats)
    extra = {"planned_hands": planned, "alpha": float(alpha), "theta": [float(v) for v in theta],
             "strategy": "greedy"}
    return run.result(i, sb_strategy, bb_strategy, extra)
