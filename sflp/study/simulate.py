r"""The push/fold rules played out: real cards, real boards, chips settled hand by hand.

:func:`simulate` is an end-to-end check of the payoff model of :mod:`sflp.core.game` that shares
nothing with it but the rules: it never reads the equity table or the closed-form payoffs.
Each hand is played as at a table:

1. **Deal.**  A 52-card deck, shuffled by a seeded :func:`numpy.random.default_rng` (a partial
   Fisher-Yates shuffle of the first 12 positions, which draws 12 distinct cards uniformly).
   Heads-up the button is the small blind and deals the big blind first: BB gets deck cards 1
   and 3, SB cards 2 and 4; then burn, flop (3), burn, turn, burn, river.
2. **Post.**  Both players start with ``stack`` chips (before posting).  Each posts the ``ante``
   and BB the ``bb_ante`` (dead money); SB posts the small blind, BB the big blind (live).  A
   player who cannot cover a post puts in what it has (a valid :class:`~sflp.core.game.GameConfig`
   never needs that).
3. **Act.**  SB shoves with probability ``push[SB's combo]``, else folds; facing a shove BB calls
   with probability ``call[BB's combo]`` (a uniform draw below the frequency), putting in at most
   what it has left.
4. **Settle** (:func:`settle_hand` and the compiled loop call the same function):

   * SB folds: BB takes every chip in the middle; SB is down its ante and small blind.
   * BB folds: the part of SB's shove that BB's big blind did not match is returned to SB, and
     SB takes the rest of the pot.
   * BB calls: whatever one player bet beyond what the other could match is returned (with a BB
     ante, BB's live stack is ``bb_ante`` smaller than SB's); the pot -- matched bets and all dead
     money -- goes to the better seven-card hand (:mod:`sflp.core.evaluator`) and is split evenly on a
     tie (chips are continuous here, so there is no odd chip).

SB's net chips per hand (chips back minus chips put in) are averaged; the report gives the mean
with a 95% confidence interval ``mean +- 1.96 * stderr`` (normal approximation, ``stderr`` from
the sample variance) next to the exact value ``V(push, call)`` of :mod:`sflp.core.game`, and counts
of each node.

>>> from sflp.core.game import GameConfig
>>> s = settle_hand(GameConfig(stack=10, ante=0.1, bb_ante=1), "AhAd", "KcKs", "2c7d9hJs3c", True, True)
>>> s.node, s.winner, round(s.sb_net, 12), round(s.pot, 12), round(s.returned_sb, 12)
('showdown', 'sb', 10.0, 19.0, 1.0)
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np

from sflp.cache import njit  # numba's njit, cached in sflp's cache folder (never in the package)
from sflp.checks import number_text
from sflp.core.cards import COMBO_INDEX, N_CLASSES, N_COMBOS, parse_cards
from sflp.core.evaluator import STRAIGHT_TOP, value_from_masks
from sflp.core.game import GameConfig, PushFoldGame
from sflp.errors import ConfigError, NotationError

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal."""
DRAWS = 14
"""Uniform draws per hand: 12 cards (4 hole, 3 burns, 5 board) and 2 actions."""
CHUNK = 1 << 16
"""Hands per batch of random numbers."""

# positions in the dealt 12 cards
BB_HOLE = (0, 2)
SB_HOLE = (1, 3)
BOARD = (5, 6, 7, 9, 11)  # 4, 8 and 10 are the burns

# node codes
FOLD, UNCONTESTED, SHOWDOWN = 0, 1, 2


# ---------------------------------------------------------------- one hand


@njit(cache=True)
def _settle(stack, small_blind, big_blind, ante, bb_ante, shoves, calls, outcome):
    """Settle one hand from the posts up.  ``outcome`` > 0: SB's hand is better, < 0 BB's, 0 tie.

    Returns ``(sb_net, pot, returned_sb, returned_bb)``: SB's chips back minus chips put in,
    the pot awarded after uncalled chips went back, and the uncalled chips returned to each.
    """
    sb_left = stack
    bb_left = stack
    dead = 0.0
    # antes: dead money
    post = min(ante, sb_left)
    sb_left -= post
    dead += post
    post = min(ante, bb_left)
    bb_left -= post
    dead += post
    post = min(bb_ante, bb_left)
    bb_left -= post
    dead += post
    # blinds: live bets
    sb_bet = min(small_blind, sb_left)
    sb_left -= sb_bet
    bb_bet = min(big_blind, bb_left)
    bb_left -= bb_bet
    sb_put = stack - sb_left  # everything SB has put in so far
    returned_sb = 0.0
    returned_bb = 0.0
    if not shoves:
        # SB folds; BB's blind above SB's is uncalled and comes back, BB takes the rest
        if bb_bet > sb_bet:
            returned_bb = bb_bet - sb_bet
        pot = dead + sb_bet + bb_bet - returned_bb
        return -sb_put, pot, returned_sb, returned_bb
    # SB shoves all-in
    sb_bet += sb_left
    sb_left = 0.0
    sb_put = stack
    if not calls:
        # BB folds: SB's bet above BB's blind is uncalled
        if sb_bet > bb_bet:
            returned_sb = sb_bet - bb_bet
        pot = dead + sb_bet + bb_bet - returned_sb
        return returned_sb + pot - sb_put, pot, returned_sb, returned_bb
    # BB calls with what it has, up to SB's bet
    target = min(sb_bet, bb_bet + bb_left)
    if target > bb_bet:
        bb_left -= target - bb_bet
        bb_bet = target
    if sb_bet > bb_bet:
        returned_sb = sb_bet - bb_bet
    elif bb_bet > sb_bet:
        returned_bb = bb_bet - sb_bet
    pot = dead + sb_bet + bb_bet - returned_sb - returned_bb
    if outcome > 0:
        won = pot
    elif outcome < 0:
        won = 0.0
    else:
        won = pot / 2.0
    return returned_sb + won - sb_put, pot, returned_sb, returned_bb


@dataclass(frozen=True)
class Settlement:
    """One settled hand: node, SB's net chips, the pot awarded, uncalled chips returned, hand values."""

    node: str  # "fold", "uncontested" or "showdown"
    winner: str  # "sb", "bb" or "split"
    sb_net: float
    pot: float
    returned_sb: float
    returned_bb: float
    sb_value: int | None = None
    bb_value: int | None = None

    @property
    def bb_net(self) -> float:
        """BB's net chips (the game is zero-sum: antes go to the pot's winner)."""
        return -self.sb_net


def _cards(cards, n: int, what: str) -> list[int]:
    ids = parse_cards(cards) if isinstance(cards, str) else [int(c) for c in cards]
    if len(ids) != n or any(not 0 <= c < 52 for c in ids):
        raise NotationError(f"{what} needs {n} cards, got {cards!r}")
    return ids


def _value(cards: list[int]) -> int:
    suits = np.zeros(4, dtype=np.int64)
    counts = np.zeros(13, dtype=np.int64)
    for c in cards:
        suits[c & 3] |= 1 << (c >> 2)
        counts[c >> 2] += 1
    return int(value_from_masks(suits, counts, STRAIGHT_TOP))


def settle_hand(
    config: GameConfig,
    sb_cards,
    bb_cards,
    board,
    sb_shoves: bool,
    bb_calls: bool,
) -> Settlement:
    """Settle one hand-built deal: hole cards and a five-card board (card names or ids), two actions.

    >>> c = GameConfig(stack=10)
    >>> settle_hand(c, "7h2d", "AsKs", "AcKdQhJsTc", True, True).sb_net   # both play the board
    0.0
    >>> settle_hand(c, "7h2d", "AsKs", "AcKdQhJs3c", False, False).sb_net
    -0.5
    """
    sb_ids, bb_ids = _cards(sb_cards, 2, "SB's hand"), _cards(bb_cards, 2, "BB's hand")
    board_ids = _cards(board, 5, "the board")
    if len(set(sb_ids + bb_ids + board_ids)) != 9:
        raise NotationError(f"a card appears twice in {sb_cards!r}, {bb_cards!r}, {board!r}")
    sb_value = bb_value = None
    outcome = 0
    showdown = bool(sb_shoves) and bool(bb_calls)
    if showdown:
        sb_value, bb_value = _value(sb_ids + board_ids), _value(bb_ids + board_ids)
        outcome = (sb_value > bb_value) - (sb_value < bb_value)
    net, pot, ret_sb, ret_bb = _settle(*_amounts(config), bool(sb_shoves), bool(bb_calls), outcome)
    if not sb_shoves:
        node, winner = "fold", "bb"
    elif not bb_calls:
        node, winner = "uncontested", "sb"
    else:
        node, winner = "showdown", ("sb" if outcome > 0 else "bb" if outcome < 0 else "split")
    return Settlement(node, winner, float(net), float(pot), float(ret_sb), float(ret_bb), sb_value, bb_value)


def _amounts(config: GameConfig) -> tuple[float, float, float, float, float]:
    return (
        float(config.stack),
        float(config.small_blind),
        float(config.big_blind),
        float(config.ante),
        float(config.bb_ante),
    )


# ---------------------------------------------------------------- the compiled loop


@njit(cache=True, inline="always")
def _hand_value(board_suits, board_counts, a, b, suits, counts, straight_top):
    for s in range(4):
        suits[s] = board_suits[s]
    for r in range(13):
        counts[r] = board_counts[r]
    suits[a & 3] |= 1 << (a >> 2)
    counts[a >> 2] += 1
    suits[b & 3] |= 1 << (b >> 2)
    counts[b >> 2] += 1
    return value_from_masks(suits, counts, straight_top)


# Long on purpose: one hand dealt and played out, the rules in order.
@njit(cache=True)
def _play(uniforms, push, call, combo_index, amounts, straight_top, deck, totals, nodes, record, log_cards, log_net):
    """Play ``len(uniforms)`` hands; add SB's net and net^2 to ``totals`` and node counts to ``nodes``.

    ``nodes``: folds, uncontested shoves, showdowns, SB wins, ties, SB losses.  With ``record``
    each hand's 12 dealt cards, actions (``log_cards[:, 12]`` = shove, ``[:, 13]`` = call) and net
    are written to the logs.
    """
    stack, small_blind, big_blind, ante, bb_ante = amounts[0], amounts[1], amounts[2], amounts[3], amounts[4]
    board_suits = np.zeros(4, dtype=np.int64)
    board_counts = np.zeros(13, dtype=np.int64)
    suits = np.zeros(4, dtype=np.int64)
    counts = np.zeros(13, dtype=np.int64)
    total = 0.0
    total_sq = 0.0
    for h in range(uniforms.shape[0]):
        u = uniforms[h]
        for i in range(12):  # partial Fisher-Yates: deck[:12] becomes a uniform draw
            j = i + int(u[i] * (52 - i))
            if j > 51:
                j = 51
            t = deck[i]
            deck[i] = deck[j]
            deck[j] = t
        bb_combo = combo_index[deck[0], deck[2]]
        sb_combo = combo_index[deck[1], deck[3]]
        shoves = u[12] < push[sb_combo]
        calls = shoves and u[13] < call[bb_combo]
        outcome = 0
        if calls:
            for s in range(4):
                board_suits[s] = 0
            for r in range(13):
                board_counts[r] = 0
            for k in (5, 6, 7, 9, 11):
                c = deck[k]
                board_suits[c & 3] |= 1 << (c >> 2)
                board_counts[c >> 2] += 1
            v_sb = _hand_value(board_suits, board_counts, deck[1], deck[3], suits, counts, straight_top)
            v_bb = _hand_value(board_suits, board_counts, deck[0], deck[2], suits, counts, straight_top)
            if v_sb > v_bb:
                outcome = 1
                nodes[3] += 1
            elif v_sb < v_bb:
                outcome = -1
                nodes[5] += 1
            else:
                nodes[4] += 1
            nodes[2] += 1
        elif shoves:
            nodes[1] += 1
        else:
            nodes[0] += 1
        net, _, _, _ = _settle(stack, small_blind, big_blind, ante, bb_ante, shoves, calls, outcome)
        total += net
        total_sq += net * net
        if record:
            for k in range(12):
                log_cards[h, k] = deck[k]
            log_cards[h, 12] = 1 if shoves else 0
            log_cards[h, 13] = 1 if calls else 0
            log_net[h] = net
    totals[0] += total
    totals[1] += total_sq


# ---------------------------------------------------------------- strategies


def _strategies(config: GameConfig, sb, bb, solution, table):
    """``(push, call, level, push_at_level, call_at_level, sources)`` for the given or exact strategies."""
    from sflp.study.strategy import StrategySpec

    specs = []
    for who, given in (("sb", sb), ("bb", bb)):
        if given is None:
            specs.append(None)
        elif isinstance(given, StrategySpec):
            if given.player != who:
                raise ConfigError(
                    f"strategy {given.source!r} was loaded for {given.player.upper()}, given as {who.upper()}"
                )
            specs.append(given)
        else:
            arr = given.combo_weights() if hasattr(given, "combo_weights") else np.asarray(given, dtype=np.float64)
            if np.shape(arr) not in ((N_CLASSES,), (N_COMBOS,)):
                raise ConfigError(
                    f"{who.upper()} strategy needs {N_CLASSES} or {N_COMBOS} frequencies, not {np.shape(arr)}"
                )
            specs.append(StrategySpec.from_frequencies(arr, who))
    if specs[0] is None or specs[1] is None:
        if solution is None:
            from sflp.solving.solver import solve

            solution = solve(config, table=table)
        exact_sb, exact_bb = solution.class_strategies()
        if specs[0] is None:
            specs[0] = StrategySpec.from_frequencies(exact_sb, "sb", "exact equilibrium")
        if specs[1] is None:
            specs[1] = StrategySpec.from_frequencies(exact_bb, "bb", "exact equilibrium")
    level = "class" if all(s.uniform for s in specs) else "combo"
    return specs[0], specs[1], level


# ---------------------------------------------------------------- the report


@dataclass(frozen=True, eq=False)
class SimulationReport:
    """SB's empirical mean net chips per hand with a 95% interval, the exact value, node counts.

    ``seconds`` is the wall time of dealing and settling (not of solving or JIT compilation).
    """

    config: GameConfig
    hands: int
    seed: int
    mean: float
    stderr: float
    ci_low: float
    ci_high: float
    exact_value: float
    inside: bool
    seconds: float
    folds: int
    uncontested: int
    showdowns: int
    sb_wins: int
    ties: int
    sb_losses: int
    sb_source: str = "exact equilibrium"
    bb_source: str = "exact equilibrium"

    @property
    def hands_per_minute(self) -> float:
        return self.hands * 60.0 / self.seconds if self.seconds > 0 else math.inf

    @property
    def z_score(self) -> float:
        """``(mean - exact_value) / stderr``."""
        return (self.mean - self.exact_value) / self.stderr if self.stderr > 0 else math.nan

    def to_dict(self) -> dict:
        out = self.config.as_dict()
        out.update(
            {
                "hands": int(self.hands),
                "seed": int(self.seed),
                "mean": float(self.mean),
                "stderr": float(self.stderr),
                "ci_low": float(self.ci_low),
                "ci_high": float(self.ci_high),
                "exact_value": float(self.exact_value),
                "inside": bool(self.inside),
                "seconds": float(self.seconds),
                "folds": int(self.folds),
                "uncontested": int(self.uncontested),
                "showdowns": int(self.showdowns),
                "sb_wins": int(self.sb_wins),
                "ties": int(self.ties),
                "sb_losses": int(self.sb_losses),
                "sb_strategy": self.sb_source,
                "bb_strategy": self.bb_source,
            }
        )
        return out


def _check_run(hands, seed) -> tuple[int, int]:
    if isinstance(hands, bool) or not isinstance(hands, (int, np.integer)) or hands < 2:
        raise ConfigError(f"hands={hands!r} must be an integer of at least 2")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ConfigError(f"seed={seed!r} must be a non-negative integer")
    return int(hands), int(seed)


def _run(config, hands, seed, push, call, record, progress=None):
    """Play ``hands`` hands; returns totals, node counts, seconds and (if ``record``) the logs."""
    amounts = np.array(_amounts(config), dtype=np.float64)
    push = np.ascontiguousarray(push, dtype=np.float64)
    call = np.ascontiguousarray(call, dtype=np.float64)
    combo_index = np.ascontiguousarray(COMBO_INDEX, dtype=np.int64)
    deck = np.arange(52, dtype=np.int64)
    totals = np.zeros(2)
    nodes = np.zeros(6, dtype=np.int64)
    log_cards = np.zeros((hands if record else 0, DRAWS), dtype=np.int8)
    log_net = np.zeros(hands if record else 0)
    # compile (or load from the numba cache) before the clock starts
    _play(np.zeros((0, DRAWS)), push, call, combo_index, amounts, STRAIGHT_TOP, deck.copy(), np.zeros(2),
          np.zeros(6, dtype=np.int64), record, log_cards[:0], log_net[:0])
    rng = np.random.default_rng(seed)
    start = time.perf_counter()
    done = 0
    while done < hands:
        n = min(CHUNK, hands - done)
        uniforms = rng.random((n, DRAWS))
        _play(uniforms, push, call, combo_index, amounts, STRAIGHT_TOP, deck, totals, nodes, record,
              log_cards[done : done + n] if record else log_cards, log_net[done : done + n] if record else log_net)
        done += n
        if progress is not None:
            progress(n)
    seconds = time.perf_counter() - start
    return totals, nodes, seconds, log_cards, log_net


def simulate(
    config: GameConfig,
    hands: int,
    seed: int = 0,
    sb=None,
    bb=None,
    *,
    solution=None,
    table=None,
    progress=None,
) -> SimulationReport:
    """Play ``hands`` hands of ``config`` with real cards and report SB's mean net chips.

    ``sb`` / ``bb``: a :class:`~sflp.study.strategy.StrategySpec`, a :class:`~sflp.core.ranges.Range`, or 169
    class / 1,326 combo frequencies; ``None`` plays the exact equilibrium (``solution`` if
    given, else :func:`sflp.solving.solver.solve`).  The same ``seed`` and ``hands`` give the same result.
    ``progress``, if given, is called with the number of hands just played after each chunk.
    """
    hands, seed = _check_run(hands, seed)
    sb_spec, bb_spec, level = _strategies(config, sb, bb, solution, table)
    game = PushFoldGame(config, table, level)
    exact = game.value(sb_spec.frequencies(level), bb_spec.frequencies(level))
    totals, nodes, seconds, _, _ = _run(config, hands, seed, sb_spec.combo_freq, bb_spec.combo_freq, False,
                                        progress)
    mean = totals[0] / hands
    variance = max(0.0, (totals[1] - hands * mean * mean) / (hands - 1))
    stderr = math.sqrt(variance / hands)
    low, high = mean - Z95 * stderr, mean + Z95 * stderr
    return SimulationReport(
        config=config,
        hands=hands,
        seed=seed,
        mean=float(mean),
        stderr=float(stderr),
        ci_low=float(low),
        ci_high=float(high),
        exact_value=float(exact),
        inside=bool(low <= exact <= high),
        seconds=float(seconds),
        folds=int(nodes[0]),
        uncontested=int(nodes[1]),
        showdowns=int(nodes[2]),
        sb_wins=int(nodes[3]),
        ties=int(nodes[4]),
        sb_losses=int(nodes[5]),
        sb_source=sb_spec.source,
        bb_source=bb_spec.source,
    )


@dataclass(frozen=True, eq=False)
class HandLog:
    """Every hand of a small run: the 12 dealt cards (BB, SB, BB, SB, burn, flop, burn, turn,
    burn, river), the actions and SB's net chips."""

    cards: np.ndarray  # (hands, 12) card ids
    shoves: np.ndarray  # (hands,) bool
    calls: np.ndarray  # (hands,) bool
    sb_net: np.ndarray  # (hands,)

    def sb_hole(self, h: int) -> list[int]:
        return [int(self.cards[h, k]) for k in SB_HOLE]

    def bb_hole(self, h: int) -> list[int]:
        return [int(self.cards[h, k]) for k in BB_HOLE]

    def board(self, h: int) -> list[int]:
        return [int(self.cards[h, k]) for k in BOARD]


def record_hands(
    config: GameConfig, hands: int, seed: int = 0, sb=None, bb=None, *, solution=None, table=None
) -> HandLog:
    """The hands :func:`simulate` would play with the same arguments, one by one (for checks)."""
    hands, seed = _check_run(hands, seed)
    sb_spec, bb_spec, _ = _strategies(config, sb, bb, solution, table)
    _, _, _, log_cards, log_net = _run(config, hands, seed, sb_spec.combo_freq, bb_spec.combo_freq, True)
    log_cards.setflags(write=False)
    log_net.setflags(write=False)
    return HandLog(log_cards[:, :12], log_cards[:, 12] == 1, log_cards[:, 13] == 1, log_net)


def format_text(report: SimulationReport) -> str:
    """A human-readable summary of a :class:`SimulationReport`."""
    c = report.config
    n = report.hands
    verdict = "inside" if report.inside else "OUTSIDE"
    lines = [
        f"simulate: stack {c.stack:g} bb, blinds {c.small_blind:g}/{c.big_blind:g}, ante {c.ante:g}, "
        f"BB ante {c.bb_ante:g}",
        f"{n:,} hands, seed {report.seed}",
        f"SB strategy: {report.sb_source}",
        f"BB strategy: {report.bb_source}",
        f"SB mean net   {number_text(report.mean, '+.6f')} bb/hand  (stderr {number_text(report.stderr, '.6f')})",
        f"95% interval  [{number_text(report.ci_low, '+.6f')}, {number_text(report.ci_high, '+.6f')}]",
        f"exact value   {number_text(report.exact_value, '+.6f')} bb/hand: {verdict} the interval "
        f"(z = {number_text(report.z_score, '+.2f')})",
        "",
        f"SB folds           {report.folds:>12,}  {100 * report.folds / n:6.2f}%",
        f"shove, BB folds    {report.uncontested:>12,}  {100 * report.uncontested / n:6.2f}%",
        f"showdowns          {report.showdowns:>12,}  {100 * report.showdowns / n:6.2f}%",
    ]
    if report.showdowns:
        s = report.showdowns
        lines.append(
            f"  SB wins {report.sb_wins:,} ({100 * report.sb_wins / s:.2f}%), ties {report.ties:,} "
            f"({100 * report.ties / s:.2f}%),"
        )
        lines.append(f"  SB loses {report.sb_losses:,} ({100 * report.sb_losses / s:.2f}%)")
    lines.append(f"{report.seconds:.2f} s, {report.hands_per_minute / 1e6:,.1f} M hands/minute")
    return "\n".join(lines) + "\n"


# `sflp.study.simulate` is both this module and, in the public API (``sflp/__init__.py``), the function
