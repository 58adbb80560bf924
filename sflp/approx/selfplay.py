r"""Monte-Carlo self-play on dealt hands: the environment the reinforcement-learning solvers share.

A hand is dealt from a shuffled deck: four distinct cards drawn uniformly from 52 (numpy
``Generator``), the first two to SB, the next two to BB.  Every ordered pair of card-disjoint
combos is then equally likely, which is the distribution of the seed's ``dealCards`` (draw two
combo numbers, redraw while they conflict).

Rewards are the players' **stacks at the end of the hand** (the seed's choice), i.e. ``S`` plus the
net chip change of :mod:`sflp.core.game`:

=============================  ===========================  ==============
event                          SB's net ``v``                final stacks
=============================  ===========================  ==============
SB folds                       ``f = -(sb + a)``             ``S + v``, ``S - v``
SB shoves, BB folds            ``g = bb + a + A``
both all-in, SB wins           ``+S``
both all-in, SB loses          ``-(S - A)``
=============================  ===========================  ==============

(with the seed's blinds and no antes: 9.5/10.5, 11/9, 20/0, 0/20).  Showdowns are resolved as the
seed resolves them: SB wins with probability equal to its exact all-in equity against BB's combo,
``(wins + ties/2) / 1,712,304`` from the shipped table, and otherwise loses -- no board is dealt and
chops are not paid out separately (the expected reward is still exact:
``e S - (1 - e)(S - A)`` equals the tie-splitting payoff).

Exploration: for hand ``i`` of a run of ``n`` hands a player flips its greedy choice with
probability ``epsilon / 2``, ``epsilon = (n - i) / n`` (:func:`half_epsilons`), the seed's schedule.
It depends on the hand count only, never on the clock, so a seeded run reproduces bit for bit.  A
run given only ``seconds`` plans ``n = seconds x`` :data:`HANDS_PER_SECOND` hands
(:meth:`~sflp.approx.common.Run.plan_iterations`) and keeps the seconds as an outer stop: it ends
after ``n`` hands, or earlier, with ``epsilon`` not yet at 0, on a machine too slow for that rate
(``extra["planned_hands"]`` against ``iterations`` shows which).

Random numbers are drawn in fixed blocks of :data:`BLOCK` hands, so a run's hands depend only on the
seed, never on how often the solver stops to measure its trace.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from sflp.approx.common import Run
from sflp.core.cards import COMBO_CLASS, COMBO_INDEX, N_CARDS, N_CLASSES
from sflp.core.equity import BOARDS_PER_PAIR, load_table
from sflp.core.game import GameConfig

BLOCK = 1 << 14
"""Hands dealt per batch of random numbers."""
STEP = 4096
"""Hands played between checks of the clock."""
HANDS_PER_SECOND = 250_000
"""Hands a run plans per second of a ``seconds``-only budget: about 40% of what either self-play
solver plays on one core of a 2-core AMD EPYC (470,000-640,000 hands a second in the committed
atlas), so the seconds, kept as an outer stop, rarely cut a run short."""


def deal(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Combo ids of ``n`` dealt hands ``(sb, bb)``: four distinct uniform cards each.

    Card ``k`` is drawn uniformly among the ``52 - k`` cards not yet dealt (the draw is shifted
    past the dealt cards in increasing order).

    >>> sb, bb = deal(np.random.default_rng(0), 1000)
    >>> from sflp.core.cards import COMBO_DISJOINT
    >>> bool(COMBO_DISJOINT[sb, bb].all())
    True
    """
    cards = np.empty((n, 4), dtype=np.int64)
    for k in range(4):
        c = rng.integers(0, N_CARDS - k, n)
        dealt = np.sort(cards[:, :k], axis=1)
        for j in range(k):
            c += c >= dealt[:, j]
        cards[:, k] = c
    return COMBO_INDEX[cards[:, 0], cards[:, 1]].astype(np.int64), COMBO_INDEX[cards[:, 2], cards[:, 3]].astype(
        np.int64
    )


@lru_cache(maxsize=1)
def combo_equity() -> np.ndarray:
    """1326x1326 all-in equity of combo ``a`` against ``b``, ties counted half (0 where they clash)."""
    table = load_table()
    eq = (table.wins.astype(np.float64) + 0.5 * table.ties) / BOARDS_PER_PAIR
    eq.setflags(write=False)
    return eq


def class_ranks() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per class: higher rank, lower rank (0 = deuce .. 12 = ace) and a suited flag.

    >>> hi, lo, suited = class_ranks()
    >>> int(hi[1]), int(lo[1]), bool(suited[1]), bool(suited[13])    # AKs, AKo
    (12, 11, True, False)
    """
    cls = np.arange(N_CLASSES)
    row, col = cls // 13, cls % 13
    hi = 12 - np.minimum(row, col)
    lo = 12 - np.maximum(row, col)
    return hi, lo, row < col


def outcome_values(config: GameConfig) -> tuple[float, float, float, float]:
    """SB's net chips ``(fold, steal, win, lose)`` of the table in the module doc.

    >>> outcome_values(GameConfig(stack=10))
    (-0.5, 1.0, 10.0, -10.0)
    """
    from fractions import Fraction

    from sflp.core.payoff import terminal_payoffs

    t = terminal_payoffs(config)  # the one payoff home, exact; each figure rounded once
    stack = Fraction(config.exact()["stack"])
    return tuple(float(t[node].at(stack)) for node in ("fold", "steal", "win", "lose"))


class HandStream:
    """An endless stream of dealt hands with the random numbers each needs.

    :meth:`take` returns, for the next ``m`` hands: SB and BB combo ids, SB's net chips if both get
    all-in (already decided by the equity draw), and two uniforms for the players' exploration.
    """

    def __init__(self, rng: np.random.Generator, config: GameConfig) -> None:
        self.rng = rng
        self.config = config
        self.equity = combo_equity()
        _, _, self.win, self.lose = outcome_values(config)
        self._buf: list[np.ndarray] | None = None
        self._pos = 0

    def _refill(self) -> None:
        rng = self.rng
        sb, bb = deal(rng, BLOCK)
        showdown = np.where(rng.random(BLOCK) < self.equity[sb, bb], self.win, self.lose)
        self._buf = [sb, bb, showdown, rng.random(BLOCK), rng.random(BLOCK)]
        self._pos = 0

    def take(self, m: int) -> list[np.ndarray]:
        parts: list[list[np.ndarray]] = []
        while m > 0:
            if self._buf is None or self._pos >= BLOCK:
                self._refill()
            k = min(m, BLOCK - self._pos)
            parts.append([a[self._pos : self._pos + k] for a in self._buf])
            self._pos += k
            m -= k
        if len(parts) == 1:
            return parts[0]
        return [np.concatenate(cols) for cols in zip(*parts)]


def class_of(combos: np.ndarray) -> np.ndarray:
    """Class ids of combo ids."""
    return COMBO_CLASS[combos].astype(np.int64)


def half_epsilons(run: Run, start: int, m: int) -> np.ndarray:
    """``epsilon / 2 = (n - i) / 2n`` for hands ``i = start .. start+m-1`` of a run of ``n`` hands
    (see the module doc; the run's hand budget is fixed, :meth:`~sflp.approx.common.Run.plan_iterations`).

    >>> from sflp.approx.common import Run
    >>> run = Run.start("rl-tabular", 10, 8, None, 0, None, None, 8)
    >>> half_epsilons(run, 0, 8).tolist()
    [0.5, 0.4375, 0.375, 0.3125, 0.25, 0.1875, 0.125, 0.0625]
    """
    assert run.max_iterations is not None, "plan the run's hands first"
    share = (start + np.arange(m)) / run.max_iterations
    return 0.5 * (1.0 - np.minimum(share, 1.0))


def next_batch(run: Run, i: int) -> int:
    """Hands to play before the next clock check, trace point or the end of the budget."""
    m = min(STEP, max(run.next_due() - i, 1))
    left = run.remaining(i)
    return m if left is None else max(1, min(m, left))
