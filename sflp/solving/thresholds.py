r"""Exact stack thresholds of every hand, by following the equilibrium path in the stack.

For one blind structure the payoff matrix is affine in the stack, ``K(S) = K0 + S*K1`` (see
:mod:`sflp.core.game`).  On a stretch of stacks where the equilibrium *support* is fixed (which hands
each player plays always, never, or at a mixed frequency), the mixed frequencies solve two square
indifference systems with entries affine in ``S``:

* SB's mixed hands ``i`` are indifferent:  ``K[Ms, Mb] y_M = -r_Ms (g-f) - K[Ms, Pb] 1``,
* BB's mixed hands ``j`` are indifferent:  ``K[Ms, Mb]' x_M = -K[Ps, Mb]' 1``.

(:mod:`sflp.solving.support` builds these systems, for the path, the float polish and the exact
certificate alike; being linear in ``(K, r (g-f))``, the system at ``S`` is the system of
``(K0, r (g-f))`` plus ``S`` times the system of ``(K1, 0)``.)

The path is built in three rooms.  :mod:`sflp.solving.piece` holds one support's *event
polynomials* (the frequencies and margins that must keep their signs), their roots and the
segment on which the support holds; :mod:`sflp.solving.follower` walks from ``low`` to ``high``,
segment by segment, pivoting to the next support at each breakpoint; this module is the public
face: :func:`compute_thresholds` (along the stack, an ante or a direction), the results
:class:`Thresholds` and :class:`HandThresholds` with their published texts and chart labels, and
the hands read off the float path.

Inside each segment the ``0.5`` crossings of the mixed frequencies are the roots of ``N - D/2``,
found the same way as the breakpoints.  At a breakpoint a frequency may jump (the equilibrium is
not unique there); interval endpoints are then the breakpoint itself.

>>> t = compute_thresholds(GameConfig(stack=10), 1, 3)
>>> t.get("sb", "AA").label(), t.get("sb", "72o").label()
('3+', '1.6')
>>> format_intervals(t.get("sb", "72o").intervals)[:9]
'1.000000-'
"""

from __future__ import annotations

import bisect
import math
import re
from dataclasses import dataclass, field, replace
from fractions import Fraction

import numpy as np

from sflp import checks
from sflp.core.cards import CLASS_INDEX as _CLASS_INDEX
from sflp.core.cards import CLASS_NAMES, N_CLASSES, PLAYERS
from sflp.core.game import GameConfig, Payoffs, PushFoldGame, line_payoffs
from sflp.errors import ConfigError
from sflp.solving.follower import _GAP_TOL, _PathFollower
from sflp.solving.piece import _root_near, _strategies
from sflp.solving.support import Support

# ---------------------------------------------------------------------------- results


@dataclass(frozen=True)
class HandThresholds:
    """Where one hand of one player is played: ``intervals`` with frequency > 0.5, ``any_intervals`` > 0."""

    player: str
    hand: str
    intervals: tuple[tuple[float, float], ...]
    any_intervals: tuple[tuple[float, float], ...]
    max_stack: float | None
    capped: bool
    exact_label: str | None = field(default=None, compare=False)
    """The label decided exactly from the certified root ``max_stack`` rounds (set by the
    certified path, :func:`sflp.solving.threshcert.certified_hands`); None: from the float."""
    texts: tuple | None = field(default=None, compare=False)
    """``(intervals, any_intervals, max_stack)`` as published text, each end the exact root
    correctly rounded to 6 decimals (set by the certified path); None: from the floats."""
    along: str = field(default="stack", compare=False)
    """The axis of the intervals: ``"stack"``, or ``"ante"`` / ``"bb_ante"`` (see :class:`Thresholds`)."""

    def published_texts(self) -> tuple[str, str, str | None]:
        """The ``intervals``, ``any_intervals`` and ``max_stack`` of ``thresholds.csv``: the exact
        roots' decimals when certified, else the floats' (:func:`format_intervals`).

        >>> HandThresholds("sb", "T3s", ((1.0, 7.7912),), ((1.0, 8.0),), 7.7912, False).published_texts()
        ('1.000000-7.791200', '1.000000-8.000000', '7.791200')
        """
        if self.texts is not None:
            return self.texts
        top = None if self.max_stack is None else f"{self.max_stack:.6f}"
        return format_intervals(self.intervals), format_intervals(self.any_intervals), top

    @property
    def multi(self) -> bool:
        """More than one separate stack interval with frequency > 0.5."""
        return len(self.intervals) > 1

    def label(self) -> str:
        """HoldemResources chart convention: ``"7.7"`` (floor to 0.1 bb), ``"25+"``, or ``"-"``.

        When capped, ``max_stack`` is the top of the range.

        >>> HandThresholds("sb", "T3s", ((1.0, 7.7912),), ((1.0, 8.0),), 7.7912, False).label()
        '7.7'
        >>> HandThresholds("sb", "AA", ((1.0, 25.0),), ((1.0, 25.0),), 25.0, True).label()
        '25+'
        >>> HandThresholds("bb", "72o", (), ((1.0, 1.2),), None, False).label()
        '-'

        Along an ante the stack's 0.1 bb would say nothing: the label is the published intervals
        (6 decimals, exact when certified, trailing zeros dropped), ``+`` for one reaching the top:

        >>> HandThresholds("bb", "J7s", ((0.0957161, 0.25),), ((0.0933, 0.25),), 0.25, True, along="ante").label()
        '0.095716+'
        """
        if self.max_stack is None:
            return "-"
        if self.along != "stack":
            return _line_label(self.published_texts()[0], self.capped)
        if self.capped:
            return f"{self.max_stack:g}+"
        if self.exact_label is not None:
            return self.exact_label
        return f"{math.floor(self.max_stack * 10 + 1e-9) / 10:.1f}"


@dataclass(frozen=True)
class Thresholds:
    """Thresholds of all 169 classes for both players over ``[low, high]`` (one blind structure)."""

    config: GameConfig
    low: float
    high: float
    hands: tuple[HandThresholds, ...]
    breakpoints: tuple[float, ...]
    segments: tuple = ()
    lp_solves: int = 0
    pivots: int = 0
    _payoffs: Payoffs | None = field(default=None, compare=False, repr=False)
    certificate: object = field(default=None, compare=False, repr=False)
    """The proof of the thresholds (:class:`sflp.solving.threshcert.PathCertificate`), None when
    computed with ``certify=False``."""
    along: str | tuple = "stack"
    """The line the path follows: ``"stack"`` (``low``, ``high``, the breakpoints and every hand's
    intervals are stacks), ``"ante"`` / ``"bb_ante"`` (they are that ante, at ``config.stack``), or
    a direction ``d`` (:func:`sflp.core.payoff.direction_key`): they are the ``t`` of ``config + t d``."""

    def get(self, player: str, hand: str) -> HandThresholds:
        """The thresholds of ``hand`` (class name such as ``"T3s"``) for ``player`` ("sb"/"bb")."""
        if player not in PLAYERS:
            raise ConfigError(f"player={player!r}: expected 'sb' or 'bb'")
        if hand not in _CLASS_INDEX:
            raise ConfigError(f"hand={hand!r} is not a class name such as 'AKs', 'T9o' or '22'")
        return self.hands[PLAYERS.index(player) * N_CLASSES + _CLASS_INDEX[hand]]

    def __repr__(self) -> str:
        multi = sum(h.multi for h in self.hands)
        return (f"<Thresholds {self.low:g}-{self.high:g} bb, {len(self.breakpoints)} breakpoints, "
                f"{multi} hands on several intervals>")

    def to_dict(self) -> dict:
        """The JSON object: the structure, the stack range, the breakpoints and one row per player x
        hand (the columns of ``thresholds.csv``, intervals as ``[low, high]`` pairs, ``max_stack``
        null when the hand is never played)."""
        line = {} if self.along == "stack" else {
            "along": self.along if isinstance(self.along, str) else dict(self.along)}
        return {
            **{k: v for k, v in self.config.as_dict().items() if k != self.along},
            **line,
            "low": float(self.low),
            "high": float(self.high),
            "breakpoints": [float(b) for b in self.breakpoints],
            "lp_solves": self.lp_solves,
            "hands": [
                {"player": h.player, "hand": h.hand, "max_stack": None if h.max_stack is None else float(h.max_stack),
                 "capped": bool(h.capped), "label": h.label(), "intervals": [list(map(float, i)) for i in h.intervals],
                 "any_intervals": [list(map(float, i)) for i in h.any_intervals]}
                for h in self.hands
            ],
        }

    def to_frame(self):
        """A pandas DataFrame, one row per player x hand: ``player, hand, max_stack, capped,
        label, multi, intervals, any_intervals`` (intervals as lists of ``(low, high)`` pairs).

        pandas is imported here, only when asked (the core needs only numpy).
        """
        import pandas as pd

        return pd.DataFrame(
            [(h.player, h.hand, math.nan if h.max_stack is None else float(h.max_stack), bool(h.capped), h.label(),
              bool(h.multi), list(h.intervals), list(h.any_intervals)) for h in self.hands],
            columns=["player", "hand", "max_stack", "capped", "label", "multi", "intervals", "any_intervals"],
        )

    def segment_starts(self) -> list[float]:
        """The first stack of every segment, in order (computed once)."""
        starts = self.__dict__.get("_starts")
        if starts is None:  # the dataclass is frozen: cache beside its fields
            starts = [float(s[0]) for s in self.segments]
            object.__setattr__(self, "_starts", starts)
        return starts

    def segment_of(self, stack: float) -> tuple[int, Support]:
        """The index of the segment ``stack`` (a value of :attr:`along`) lies in, and its support."""
        stack = float(stack)
        if not (self.low - 1e-12 <= stack <= self.high + 1e-12) or not self.segments:
            name = self.along if isinstance(self.along, str) else "t"
            raise ConfigError(f"{name}={stack!r} is outside [{self.low:g}, {self.high:g}]")
        k = max(0, bisect.bisect_right(self.segment_starts(), stack) - 1)
        return k, self.segments[k][2]

    def strategies_at(self, stack: float) -> tuple[np.ndarray, np.ndarray]:
        """SB push and BB call frequencies at ``stack`` (a value of :attr:`along`) from its segment's
        support (no LP)."""
        _, support = self.segment_of(stack)
        payoffs = self._payoffs or line_payoffs(self.config, self.along)
        return _strategies(payoffs, support, float(stack))

    def solve(self, stacks, *, exact: bool = False, progress=None, workers: int | None = None) -> list:
        """Checked solutions at ``stacks`` (inside ``[low, high]``) read off this path, in the order given.

        ``compute_thresholds(config, lo, hi).solve(stacks)`` is :func:`sflp.solving.solver.solve_many`
        with ``path=`` this result: no LP per stack, every stack still checked by best responses.
        """
        from sflp.solving.solver import solve_many

        if self.along != "stack":
            raise ConfigError(f"solve() reads stacks off a stack path; this path follows the {self.along} "
                              f"(use strategies_at, or sflp.solve at each point)")
        return solve_many(stacks, self.config, exact=exact, progress=progress, workers=workers, path=self)


def _short(number: str) -> str:
    return number.rstrip("0").rstrip(".") if "." in number else number


def _line_label(intervals: str, capped: bool) -> str:
    """The label of a hand along an ante: its intervals, the last one ``a+`` when it is capped.

    >>> _line_label("0.000000-0.012500;0.100000-0.250000", True), _line_label("-2.000000--1.500000", False)
    ('0-0.0125;0.1+', '-2--1.5')
    """
    # a direction's t may be negative: "-2.000000--1.979825" is the interval from -2 to -1.979825
    parts = [tuple(_short(v) for v in re.fullmatch(r"(-?[0-9.]+)-(-?[0-9.]+)", piece).groups())
             for piece in intervals.split(";")]
    text = [f"{a}-{b}" for a, b in parts]
    if capped:
        text[-1] = f"{parts[-1][0]}+"
    return ";".join(text)


def format_intervals(intervals) -> str:
    """``"1.000000-7.240000;7.270000-7.290000"`` (6 decimals, ``;`` between intervals, ``""`` if none).

    >>> format_intervals([(1, 7.24), (7.27, 7.29)]), format_intervals(())
    ('1.000000-7.240000;7.270000-7.290000', '')
    """
    return ";".join(f"{a:.6f}-{b:.6f}" for a, b in intervals)


# ---------------------------------------------------------------------------- the path


def compute_thresholds(
    config: GameConfig,
    low: float = 1.0,
    high: float = 200.0,
    table=None,
    progress=None,
    *,
    certify: bool = True,
    along: str = "stack",
) -> Thresholds:
    """Exact stack thresholds of every class for SB (push) and BB (call) over ``[low, high]``.

    ``along="ante"`` (or ``"bb_ante"``) follows that ante from ``low`` to ``high`` instead, at the
    stack ``config.stack`` and ``config``'s blinds (and other ante): every breakpoint, interval and
    label is then an ante in bb, certified the same way (:func:`_line_thresholds`).

    ``config``'s blinds and antes are used, its stack is ignored.  ``progress`` is an optional
    callable receiving the stack reached so far.  With ``certify`` (the default) every breakpoint
    and 0.5 crossing is isolated exactly and the path is proven to miss none
    (:func:`sflp.solving.threshcert.certify_path`): the hands' intervals are the exact roots'
    floats, their 6-decimal printing and labels decided exactly, and ``certificate`` holds the
    proof; ``certify=False`` is the float path alone (for comparisons and benchmarks).
    """
    checks.instance("config", config, GameConfig, "GameConfig(stack=10)")
    if along != "stack":
        return _line_thresholds(config, along, low, high, table, progress, certify)
    low, high = checks.real("low", low, positive=True), checks.real("high", high, positive=True)
    if not low < high:
        raise ConfigError(f"need low < high, got low={low!r}, high={high!r}")
    base = config.with_stack(low)  # validates that low covers the blinds and antes
    config.with_stack(high)
    unit = normalising_unit(base)
    game = PushFoldGame(base if unit == 1.0 else base.scaled(1.0 / unit), table)
    tick = progress if progress is None or unit == 1.0 else (lambda reached: progress(reached * unit))
    follower = _PathFollower(game, low / unit, high / unit, tick)
    segments = follower.run()

    hands = None if certify else _hand_thresholds(segments, low / unit, high / unit)
    merged = _merged(segments)
    payoffs = follower.payoffs
    if unit != 1.0:  # back to bb: every stack times a power of two, exactly
        hands = None if hands is None else tuple(_scaled_hand(h, unit) for h in hands)
        merged = [(a * unit, b * unit, sup) for a, b, sup in merged]
        payoffs = PushFoldGame(base, table).payoffs
    if certify:
        from sflp.solving.threshcert import certify_path

        certificate = certify_path(config, low, high, merged, table)
        proven = thresholds_of_certificate(config, low, high, certificate)
        return replace(proven, lp_solves=follower.lp_solves, pivots=follower.pivots, _payoffs=payoffs)
    breakpoints = tuple(float(seg[0]) for seg in merged[1:])
    return Thresholds(
        config=config,
        low=low,
        high=high,
        hands=hands,
        breakpoints=breakpoints,
        segments=tuple(merged),
        lp_solves=follower.lp_solves,
        pivots=follower.pivots,
        _payoffs=payoffs,
    )


def thresholds_of_certificate(config: GameConfig, low: float, high: float, certificate,
                              along: str | tuple = "stack") -> Thresholds:
    """The :class:`Thresholds` a proven path states (:class:`sflp.solving.threshcert.PathCertificate`):
    every hand's intervals, capped flag, published texts and label read off the certified roots
    (:func:`sflp.solving.threshcert.certified_hands`), the segments' ends those roots' floats.

    The one derivation of the published thresholds from a proof: :func:`compute_thresholds` makes
    its result with it, and the verifier (:func:`sflp.charts.proof.verify_thresholds`) re-derives a
    set's ``thresholds.csv`` with it from the path it re-proved, so a row that does not follow from
    the proof cannot pass."""
    from sflp.solving.threshcert import certified_hands

    hands = certified_hands(certificate, HandThresholds)
    if along != "stack":
        hands = tuple(replace(h, along=along) for h in hands)
    merged = _certified_segments(certificate)
    return Thresholds(config=config, low=low, high=high, hands=hands,
                      breakpoints=tuple(float(seg[0]) for seg in merged[1:]), segments=tuple(merged),
                      certificate=certificate, along=along)


def _merged(segments) -> list[tuple[float, float, Support]]:
    """Pieces of one support on neighbouring fit windows are one segment; breakpoints are where
    the support changes."""
    merged: list[tuple[float, float, Support]] = []
    for a, b, pc in segments:
        if merged and merged[-1][2] == pc.support:
            merged[-1] = (merged[-1][0], b, pc.support)
        else:
            merged.append((a, b, pc.support))
    return merged


def _certified_segments(certificate) -> list[tuple[float, float, Support]]:
    """The segments with their ends the certified roots' floats."""
    return [(root_a.value, root_b.value, sup) for root_a, root_b, sup in
            zip([certificate.low, *certificate.breakpoints], [*certificate.breakpoints, certificate.high],
                certificate.supports)]


def _with_axis(config: GameConfig, axis, value: float) -> GameConfig:
    """``config`` with ``axis`` set to ``value`` (a float game of a scaled copy stays unchecked, as
    :meth:`GameConfig.with_stack` keeps it); for a direction (a key of
    :func:`sflp.core.payoff.direction_key`) the point ``config + value * d``, each amount the exact
    sum rounded once."""
    if axis == "stack":
        return config.with_stack(value)
    if not isinstance(axis, str):
        from sflp.core.payoff import line_of

        p0, d = line_of(config, axis)
        t = Fraction(value)
        return GameConfig(**{k: float(v + t * d[k]) for k, v in p0.items()})
    if config.__dict__.get("_scaled_copy"):
        new = object.__new__(GameConfig)
        for name in ("stack", "small_blind", "big_blind", "ante", "bb_ante"):
            object.__setattr__(new, name, getattr(config, name))
        object.__setattr__(new, axis, value)
        object.__setattr__(new, "_scaled_copy", True)
        return new
    return replace(config, **{axis: value})


class _Line:
    """The games at the points ``t`` of the line through ``config`` along ``along``: the LP's (a
    plain game of that structure, so that the LP and its caches are the stack's own) and the
    best-response check's (the line's matrices at ``t``, nothing cached)."""

    def __init__(self, config: GameConfig, along: str, table):
        self.config, self.along, self.table = config, along, table
        self.payoffs = line_payoffs(config, along, table)

    def lp_game(self, t: float) -> PushFoldGame:
        return PushFoldGame(_with_axis(self.config, self.along, t), self.table)

    def check_game(self, t: float) -> PushFoldGame:
        p = self.payoffs
        at_t = Payoffs(p.level, p.P, p.r, p.K0 + t * p.K1, np.zeros_like(p.K1), p.f + t * p.f1, p.g + t * p.g1)
        return PushFoldGame(_with_axis(self.config, self.along, t), self.table, payoffs=at_t)


def _line_thresholds(config: GameConfig, along, low, high, table, progress, certify: bool) -> Thresholds:
    """:func:`compute_thresholds` along the ante or the BB ante at ``config.stack``, or along the
    direction ``along`` (a mapping of amounts to numbers) from ``config + low * d`` to
    ``config + high * d``.

    The payoffs are affine in every amount (:func:`sflp.core.payoff.line_terms`), so along the
    ante ``K = K0 + t K1`` and ``r (g - f)`` moves too (:func:`sflp.solving.piece._rgf`): the path follower, its pivots
    and the exact certificate (:func:`sflp.solving.threshcert.certify_path` with ``along``) are the
    stack path's, on the line's matrices."""
    from sflp.core.payoff import direction_key

    try:
        along = direction_key(along)
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
    axis = isinstance(along, str)
    low, high = (checks.real(name, v, low=0 if axis else None) for name, v in (("low", low), ("high", high)))
    if not low < high:
        raise ConfigError(f"need low < high, got low={low!r}, high={high!r}")
    if not axis:
        sizes = [abs(Fraction(v)) for _, v in along]
        if max(sizes) > 1000 or min(sizes) < Fraction(1, 1000):
            shown = {k: float(Fraction(v)) for k, v in along}
            raise ConfigError(f"along={shown}: give a direction whose entries are 0.001 to 1000 in size (scale "
                              "it, and the range of t the other way): the path's steps are stated in units near 1")
    ends = []
    for name, t in (("low", low), ("high", high)):
        try:  # validates: the stack covers the blinds and antes (linear: valid at both ends, valid between)
            ends.append(_with_axis(config, along, t))
        except ConfigError as exc:
            raise ConfigError(f"{name}={t!r} along {along if axis else dict(along)}: {exc}") from None
    start, end = ends
    unit = normalising_unit(start)
    if not axis:
        if unit != 1.0 or normalising_unit(end) != 1.0:
            raise ConfigError(f"along a direction the pot must stay within {NORMAL_POT[0]:g} to {NORMAL_POT[1]:g} bb "
                              f"(the path's tolerances); it is {start.pot:g} and {end.pot:g} bb at the ends")
        start = config  # a direction's line is config + t d: its p0 is config itself
    scaled = start if unit == 1.0 else start.scaled(1.0 / unit)
    line = _Line(scaled, along, table)
    tick = progress if progress is None or unit == 1.0 else (lambda reached: progress(reached * unit))
    follower = _PathFollower(PushFoldGame(scaled, table), low / unit, high / unit, tick, line=line)
    segments = follower.run()
    hands = None if certify else _hand_thresholds(segments, low / unit, high / unit)
    merged = _merged(segments)
    payoffs = line.payoffs
    if unit != 1.0:
        hands = None if hands is None else tuple(_scaled_hand(h, unit) for h in hands)
        merged = [(a * unit, b * unit, sup) for a, b, sup in merged]
        payoffs = line_payoffs(start, along, table)
    if certify:
        from sflp.solving.threshcert import certify_path

        certificate = certify_path(start, low, high, merged, table, along=along)
        proven = thresholds_of_certificate(start, low, high, certificate, along)
        return replace(proven, lp_solves=follower.lp_solves, pivots=follower.pivots, _payoffs=payoffs)
    hands = tuple(replace(h, along=along) for h in hands)
    return Thresholds(
        config=start, low=low, high=high, hands=hands,
        breakpoints=tuple(float(seg[0]) for seg in merged[1:]), segments=tuple(merged),
        lp_solves=follower.lp_solves, pivots=follower.pivots, _payoffs=payoffs, along=along,
    )


NORMAL_POT = (1 / 16, 16.0)
"""The pots (small blind + big blind + both antes + BB ante, in bb) for which the path is followed
as given; other structures are followed in units of a power of two near their pot."""


def normalising_unit(config: GameConfig) -> float:
    """1.0 when ``config``'s pot is within :data:`NORMAL_POT`, else the power of two ``2^e`` with
    the pot in ``[2^e, 2^(e+1))``.

    The game is homogeneous: every amount times ``c`` is the same game with every stack, threshold
    and value times ``c``.  The path follower's tolerances are stated for a pot of about 1.5 bb
    (a probe of 1e-6 bb, a gap of 1e-10 bb), so a structure of blinds of 2^-40 bb would be
    followed far too coarsely (breakpoints lost) and one of antes of 1e9 bb far too finely; in
    units of a power of two the arithmetic is the same to the last bit, and so are the thresholds
    once multiplied back.

    >>> normalising_unit(GameConfig(stack=10)), normalising_unit(GameConfig(stack=1e-5, small_blind=1e-6,
    ...                                                                     big_blind=1e-6))
    (1.0, 1.9073486328125e-06)
    """
    pot = config.pot
    if NORMAL_POT[0] <= pot <= NORMAL_POT[1]:
        return 1.0
    return math.ldexp(1.0, math.frexp(pot)[1] - 1)


def _scaled_hand(hand: HandThresholds, factor: float) -> HandThresholds:
    """``hand`` with every stack times ``factor``."""
    return replace(hand, intervals=tuple((a * factor, b * factor) for a, b in hand.intervals),
                   any_intervals=tuple((a * factor, b * factor) for a, b in hand.any_intervals),
                   max_stack=None if hand.max_stack is None else hand.max_stack * factor)


def _merge(pieces: list[tuple[float, float]]) -> tuple[tuple[float, float], ...]:
    out: list[list[float]] = []
    for a, b in pieces:
        if out and a - out[-1][1] <= _GAP_TOL * max(1.0, a):
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return tuple((float(a), float(b)) for a, b in out)


def _runs(flags: np.ndarray, breaks: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> list[tuple[float, float]]:
    """The stretches of consecutive segments where ``flags`` is true, cut where ``breaks`` (a gap
    wider than :data:`_GAP_TOL` before that segment) says: ``(start of the first, end of the last)``,
    as :func:`_merge` joins them."""
    if not flags.any():
        return []
    f = flags.astype(np.int8)
    edge = np.diff(np.concatenate(([0], f, [0])))
    first, last = np.flatnonzero(edge == 1), np.flatnonzero(edge == -1) - 1
    cut = np.flatnonzero(breaks & flags & np.concatenate(([False], flags[:-1])))
    if cut.size:  # a gap inside a run: split it there
        first = np.sort(np.concatenate((first, cut)))
        last = np.sort(np.concatenate((last, cut - 1)))
    return list(zip(starts[first].tolist(), ends[last].tolist()))


def _hand_thresholds(segments, low: float, high: float) -> tuple[HandThresholds, ...]:
    """Every hand's intervals off the float path: where it is pure (frequency 1, over 0.5 and
    played), mixed (played) and, inside a mixed segment, where its frequency is over 0.5.

    The pure and played stretches are runs of consecutive segments, found for all 338 hands at
    once (a segment x hand table of flags); only the mixed hands' 0.5 crossings are found one by
    one (a few a segment)."""
    n = N_CLASSES
    k = len(segments)
    starts = np.array([float(a) for a, _, _ in segments])
    ends = np.array([float(b) for _, b, _ in segments])
    breaks = np.zeros(k, dtype=bool)
    if k > 1:
        breaks[1:] = starts[1:] - ends[:-1] > _GAP_TOL * np.maximum(1.0, starts[1:])
    pure = np.zeros((k, 2 * n), dtype=bool)
    mixed = np.zeros((k, 2 * n), dtype=bool)
    extra: list[list[tuple[float, float]]] = [[] for _ in range(2 * n)]
    for j, (a, b, pc) in enumerate(segments):
        sup = pc.support
        pure[j, list(sup.sb_pure)] = True
        pure[j, [n + h for h in sup.bb_pure]] = True
        mixed[j, list(sup.sb_mixed)] = True
        mixed[j, [n + h for h in sup.bb_mixed]] = True
        if not pc.k:
            continue
        # 0.5 crossings of the mixed frequencies inside (a, b)
        croot_at, croot_row = pc.cross_roots
        for row, (base, h) in enumerate(
            [(0, h) for h in sup.sb_mixed] + [(n, h) for h in sup.bb_mixed]
        ):
            cuts = [a]
            f = pc.cross_row(row)
            for r in croot_at[croot_row == row]:
                if a < r < b:
                    c = _root_near(f, r, a, b)
                    if c is not None and a < c < b:
                        cuts.append(c)
            cuts = sorted(set(cuts)) + [b]
            for s0, e0 in zip(cuts[:-1], cuts[1:]):
                if e0 <= s0:
                    continue
                if f(0.5 * (s0 + e0)) > 0:
                    extra[base + h].append((s0, e0))
    played = pure | mixed
    over = [_runs(pure[:, idx], breaks, starts, ends) + extra[idx] for idx in range(2 * n)]
    anyp = [_runs(played[:, idx], breaks, starts, ends) for idx in range(2 * n)]
    hands = []
    for idx in range(2 * n):
        player = PLAYERS[idx // n]
        iv = _merge(sorted(over[idx]))
        av = _merge(sorted(anyp[idx]))
        max_stack = iv[-1][1] if iv else None
        capped = bool(iv) and iv[-1][1] >= high - _GAP_TOL * max(1.0, high)
        if capped:
            iv = iv[:-1] + ((iv[-1][0], high),)
            max_stack = high
        hands.append(HandThresholds(player, CLASS_NAMES[idx % n], iv, av, max_stack, capped))
    return tuple(hands)
