r"""The fast referee: the exploitability of class-level strategies in floats, in microseconds.

A training loop (CFR, reinforcement learning, gradient methods) wants to know how far its current
policy is from equilibrium thousands of times; the exact scorer (:func:`sflp.study.verify.verify`,
``sflp verify``) takes milliseconds in rationals.  :class:`Referee` sets up one game once and
scores two 169-vectors (SB's shove and BB's call frequency of each hand class) with two
matrix-vector products.

The math (the class-level game of :mod:`sflp.core.game`): SB's value is
``V(x, y) = f + (g - f) r.x + x' K y``, with ``r`` the classes' deal probabilities, ``f`` SB's
fold and ``g`` its steal payoff, and ``K`` the showdown matrix with card removal.  SB's margin of
hand ``i`` (shove minus fold, weighted by its deal probability) is ``m = (g - f) r + K y``; BB's
(call minus fold) is ``b = -(x' K)``.  A best response plays every hand with a positive margin, so

* SB's gain ``= max_x' V(x', y) - V(x, y) = sum_i max(0, m_i) - x_i m_i``,
* BB's gain ``= V(x, y) - min_y' V(x, y') = sum_j max(0, b_j) - y_j b_j``,

each a sum of non-negative terms (no large totals cancel), and ``nash_conv`` (OpenSpiel's name,
sflp's total exploitability) is their sum.  ``K``, ``r``, ``f`` and ``g`` are the exact rationals
of :func:`sflp.solving.exact.exact_payoffs`, each rounded once to a double, so the floats agree
with the exact scorer to about 1e-15 bb (tested within 1e-12).

>>> from sflp.core.game import GameConfig
>>> import numpy as np
>>> ref = Referee(GameConfig(stack=10))
>>> s = ref.score(np.ones(169), np.ones(169))      # shove everything into a BB who calls everything
>>> round(s.value, 12), s.nash_conv == s.sb_gain + s.bb_gain
(0.0, True)
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np

from sflp.checks import short
from sflp.core.cards import N_CLASSES
from sflp.core.game import GameConfig, PushFoldGame
from sflp.errors import ArgumentTypeError, ConfigError


class Score(NamedTuple):
    """One policy's figures, bb per hand (floats): each player's best-response gain, their sum
    (OpenSpiel's ``nash_conv``) and SB's value of the policy against itself."""

    sb_gain: float
    bb_gain: float
    nash_conv: float
    value: float


class Scores(NamedTuple):
    """:class:`Score`'s figures for N policies (:meth:`Referee.score_many`), each an array of N."""

    sb_gain: np.ndarray
    bb_gain: np.ndarray
    nash_conv: np.ndarray
    value: np.ndarray


class Referee:
    """The game of ``config`` (a :class:`~sflp.core.game.GameConfig`; its stack, blinds and
    antes) set up once for :meth:`score` and :meth:`score_many` (module doc).  Setup takes a few
    milliseconds (the exact payoffs, rounded once); a score, microseconds."""

    __slots__ = ("config", "_K", "_KT", "_base", "_f")

    def __init__(self, config: GameConfig):
        from sflp.solving.exact import exact_payoffs

        if not isinstance(config, GameConfig):
            raise ArgumentTypeError(f"config={short(config)} is a {type(config).__name__}, not a GameConfig: "
                                    "pass GameConfig(stack=10)")
        ex = exact_payoffs(PushFoldGame(config))
        scale = ex.scale
        # int / int is correctly rounded: each entry is the exact rational rounded once
        K = np.array([int(k) / scale for k in ex.K_scaled.ravel().tolist()]).reshape(ex.K_scaled.shape)
        self.config = config
        self._K = np.ascontiguousarray(K)
        self._KT = np.ascontiguousarray(K.T)
        self._base = np.array([b / scale for b in ex.base_scaled])  # (g - f) r, exact then rounded
        self._f = float(ex.f)

    def __repr__(self) -> str:
        return f"Referee({self.config!r})"

    def score(self, push, call) -> Score:
        """The :class:`Score` of SB shoving hand class ``k`` with frequency ``push[k]`` and BB
        calling with ``call[k]`` (two arrays of 169 in class order, :data:`sflp.core.cards.CLASS_NAMES`,
        each in [0, 1])."""
        x, y = _vector(push, "push"), _vector(call, "call")
        m = self._base + self._K @ y  # SB's margins
        b = -(self._KT @ x)  # BB's margins
        xm = x @ m
        sb = float(np.maximum(m, 0.0).sum() - xm)
        bb = float(np.maximum(b, 0.0).sum() - y @ b)
        return Score(sb, bb, sb + bb, self._f + float(xm))

    def score_many(self, push, call) -> Scores:
        """:meth:`score` of N policies at once: ``push`` and ``call`` are N x 169 arrays (row ``n``
        is policy ``n``); each figure of the result is an array of N."""
        X, Y = _matrix(push, "push"), _matrix(call, "call")
        if X.shape != Y.shape:
            raise ConfigError(f"push has {X.shape[0]} policies and call {Y.shape[0]}: give one row of each per "
                              "policy")
        M = self._base + Y @ self._KT  # row n: K y_n
        B = -(X @ self._K)  # row n: -(x_n' K)
        xm = np.einsum("ij,ij->i", X, M)
        sb = np.maximum(M, 0.0).sum(axis=1) - xm
        bb = np.maximum(B, 0.0).sum(axis=1) - np.einsum("ij,ij->i", Y, B)
        return Scores(sb, bb, sb + bb, self._f + xm)


def _vector(v, name: str) -> np.ndarray:
    """A 169-vector of frequencies in [0, 1] (NaN and infinities refused), without copying a
    float64 array."""
    try:
        a = np.asarray(v, dtype=np.float64)
    except (TypeError, ValueError):
        raise ConfigError(f"{name}={short(v)}: expected 169 frequencies in [0, 1], one per hand class") from None
    if a.shape != (N_CLASSES,):
        raise ConfigError(f"{name} has shape {a.shape}: expected ({N_CLASSES},), one frequency per hand class in "
                          "class order (sflp.core.cards.CLASS_NAMES)")
    if not (a.min() >= 0.0 and a.max() <= 1.0):  # NaN fails both
        raise ConfigError(f"{name}: every frequency must be a number in [0, 1]; {_first_bad(a)}")
    return a


def _matrix(v, name: str) -> np.ndarray:
    try:
        a = np.asarray(v, dtype=np.float64)
    except (TypeError, ValueError):
        raise ConfigError(f"{name}={short(v)}: expected an N x 169 array of frequencies in [0, 1]") from None
    if a.ndim != 2 or a.shape[1] != N_CLASSES or a.shape[0] == 0:
        raise ConfigError(f"{name} has shape {a.shape}: expected (N, {N_CLASSES}), one row of frequencies per "
                          "policy, N >= 1")
    if not (a.min() >= 0.0 and a.max() <= 1.0):
        raise ConfigError(f"{name}: every frequency must be a number in [0, 1]; {_first_bad(a)}")
    return a


def _first_bad(a: np.ndarray) -> str:
    from sflp.core.cards import CLASS_NAMES

    bad = np.flatnonzero(~((a >= 0.0) & (a <= 1.0)).ravel())[0]
    row, k = divmod(int(bad), N_CLASSES)
    where = f"row {row}, " if a.ndim == 2 else ""
    return f"{where}{CLASS_NAMES[k]} has {float(a.ravel()[bad])!r}"


@functools.lru_cache(maxsize=64)
def _referee(key) -> Referee:
    return Referee(GameConfig(**dict(key)))


def exploitability(push, call, config: GameConfig) -> Score:
    """``Referee(config).score(push, call)``, the referee kept for the next call of the same game
    (64 games at most).

    >>> import numpy as np
    >>> s = exploitability(np.zeros(169), np.zeros(169), GameConfig(stack=10))   # SB folds everything
    >>> s.value, s.bb_gain
    (-0.5, 0.0)
    """
    if not isinstance(config, GameConfig):
        raise ArgumentTypeError(f"config={short(config)} is a {type(config).__name__}, not a GameConfig: "
                                "pass GameConfig(stack=10)")
    return _referee(tuple(sorted(config.as_dict().items()))).score(push, call)
