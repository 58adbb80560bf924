r"""The game in exact arithmetic: its payoffs scaled to integers, and the exact figures of any strategies.

With the notation of :mod:`sflp.core.game`, SB's value of push frequencies ``x`` against call
frequencies ``y`` is ``V(x, y) = f + (g - f) r.x + x' K y`` with ``f = -(sb + a)``,
``g = bb + a + A`` and, from the integer board counts of the equity table,

    K[i,j] = (S*W[i,j] - (S-A)*L[i,j] + (A/2)*T[i,j]) / (D*B)  -  g * pairs[i,j] / D
    r[i]   = sum_j pairs[i,j] / D        (= class size / 1326 at class level)

where ``D = 1326*1225`` ordered deals, ``B = 1,712,304`` boards per deal, ``W, T`` the summed
win / tie counts of hand ``i`` against hand ``j`` and ``L = pairs*B - W - T``.  At class level
``pairs, W, T`` are ``class_pairs, class_wins, class_ties``; at combo level ``COMBO_DISJOINT``
and the 1,326 x 1,326 ``wins, ties``.  Every number is rational.  With ``den`` the lcm of the
denominators of the five configuration numbers (floats read by their shortest decimal, see
:meth:`sflp.core.game.GameConfig.exact`) and ``scale = 2*D*B*den``, the matrix

    K_scaled = scale * K = 2*Sn*W - 2*(Sn - An)*L + An*T - 2*B*gn*pairs      (Sn = S*den, ...)

and ``scale * r[i] * (g - f) = 2*B*(gn - fn)*sum_j pairs[i,j]`` (the node values taken from the
one payoff home, :mod:`sflp.core.payoff`, scaled by ``2*den``) are **integers**, so every
product below is integer arithmetic (numpy int64 where provably no overflow, else Python ints in
object arrays); a Fraction is formed only at the end.

The figures of a strategy pair: SB's margins ``m[i] = r[i]*(g - f) + (K y)[i]`` (shove minus
fold), BB's column terms ``c[j] = (K' x)[j]`` (BB *gains* ``-c[j]`` by calling rather than
folding), the value ``V(x, y)``, SB's best-response value against ``y``,
``f + sum_i max(0, m[i])``, and SB's value when BB best-responds to ``x``,
``f + (g-f) r.x + sum_j min(0, c[j])``; the exploitability is the difference of the last two.

:func:`exact_payoffs` gives the integers of one game (cached per game setup);
:func:`exact_sb_margins`, :func:`exact_bb_margins`, :func:`exact_value`,
:func:`exact_best_response_values`, :func:`exact_figures` and :func:`exact_exploitability` work
for any rational strategies (ints, Fractions, or floats taken at their exact binary value), and
:func:`exact_evs` rounds the EV margins of a strategy pair once.  The exact certificate
(:mod:`sflp.solving.certify`) and the certificates of a segment (:mod:`sflp.solving.segment`) are
built on them.

At a stack of 1 bb with the default blinds BB is all in from posting and both players play
every hand; the deal is symmetric, so the value is exactly zero:

>>> from sflp.core.game import GameConfig, PushFoldGame
>>> game = PushFoldGame(GameConfig(stack=1))
>>> ones = [1] * 169
>>> exact_value(game, ones, ones), exact_exploitability(game, ones, ones)
(Fraction(0, 1), Fraction(0, 1))
>>> exact_payoffs(game).K(0, 0)   # AA vs AA: W = L by symmetry, so K = -g * 6 / D
Fraction(-1, 270725)
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from numbers import Integral, Rational

import numpy as np

from sflp.core.cards import CLASS_NAMES, N_COMBOS, combo_name
from sflp.core.equity import BOARDS_PER_PAIR, EquityTable, load_table
from sflp.core.game import DEALS, PushFoldGame, to_fraction
from sflp.core.payoff import showdown, stack_split, terminal_payoffs
from sflp.errors import CertificateError, ConfigError

_INT64_LIMIT = 2**62

# ------------------------------------------------------------------ exact payoffs


@dataclass(frozen=True, eq=False)
class _Counts:
    """Integer count matrices of one table at one level (independent of the configuration)."""

    pairs: np.ndarray  # int64 n x n: card-disjoint combo pairs
    wins: np.ndarray  # int64 n x n: boards SB's hand wins, summed over the pairs
    ties: np.ndarray
    losses: np.ndarray
    row_pairs: tuple[int, ...]  # sum_j pairs[i, j]
    r: tuple[Fraction, ...]  # r[i] = row_pairs[i] / DEALS, made once (not at every stack)


_COUNTS_CACHE: dict[tuple, _Counts] = {}


def _counts(table: EquityTable, level: str) -> _Counts:
    key = (level, table.sha256 or id(table))
    if key not in _COUNTS_CACHE:
        pairs, wins, ties, losses = table.level_counts(level)
        if losses.min() < 0:
            raise CertificateError("equity table counts are inconsistent: wins + ties exceed pairs * boards")
        counts = _Counts(
            pairs=pairs,
            wins=wins,
            ties=ties,
            losses=losses,
            row_pairs=(row_pairs := tuple(int(v) for v in pairs.sum(axis=1))),
            r=tuple(Fraction(rp, DEALS) for rp in row_pairs),
        )
        if len(_COUNTS_CACHE) > 8:
            _COUNTS_CACHE.clear()
        _COUNTS_CACHE[key] = counts
    return _COUNTS_CACHE[key]


@dataclass(frozen=True, eq=False)
class ExactPayoffs:
    """The exact numbers of ``V(x,y) = f + (g-f) r.x + x'Ky`` of one game, scaled to integers.

    ``K[i,j] = K_scaled[i,j] / scale`` and ``r[i]*(g-f) = base_scaled[i] / scale``;
    ``K_scaled`` is an int64 array when that cannot overflow, else an object array of Python ints.
    """

    level: str
    names: tuple[str, ...]
    K_scaled: np.ndarray
    scale: int
    base_scaled: tuple[int, ...]
    r: tuple[Fraction, ...]
    f: Fraction
    g: Fraction
    config: dict[str, Fraction]
    pairs: np.ndarray  # int64 n x n: card-disjoint combo pairs of (i, j); P = pairs / DEALS
    structure: object = None  # the cached stack-independent integers it was made from

    @property
    def size(self) -> int:
        return self.K_scaled.shape[0]

    def K(self, i: int, j: int) -> Fraction:
        """``K[i, j]`` as an exact fraction."""
        return Fraction(int(self.K_scaled[i, j]), self.scale)

_EXACT_CACHE: dict[tuple, ExactPayoffs] = {}


@lru_cache(maxsize=2)
def _names(level: str) -> tuple[str, ...]:
    return tuple(CLASS_NAMES) if level == "class" else tuple(combo_name(c) for c in range(N_COMBOS))


@dataclass(frozen=True, eq=False)
class _Structure:
    """The stack-independent integers of one blind structure (cached): with ``den0`` the lcm of
    the blinds' and antes' denominators, every node's payoff times ``2*den0`` is an integer
    constant plus an integer multiple of the stack (the per-stack coefficients of
    :mod:`sflp.core.payoff` are integers), so ``2*den0*D*B*K(S) = KC + 2*den0*S*KS`` with integer
    matrices ``KC = showdown(2*den0*constants)`` and ``KS = showdown(per-stack coefficients)``."""

    den0: int
    KC: np.ndarray
    KS: np.ndarray
    steal_fold: Fraction  # g - f (the stack does not enter the fold or the steal)
    fold: Fraction
    steal: Fraction
    bound: tuple[int, int]  # max |KC|, max |KS|
    checked: set = dataclasses.field(default_factory=set)  # ids of the float payoffs found equal
    # A line other than the stack (sflp.core.payoff.line_terms, e.g. the ante at a fixed stack):
    # t is that axis, den0 also clears the fixed stack, KS = showdown(2 * slopes) (the slopes are
    # halves), so 2*den0*D*B*K(t) = KC + t*ks2*KS with ks2 = den0 (den0 / L for a direction with
    # denominators L, see _line_structure), and g - f = steal_fold + t*gf_slope.
    along: str | tuple = "stack"  # sflp.core.payoff.direction_key
    ks_factor: int = 0  # ks2 when not 2*den0 (0: the stack's 2*den0)
    gf_slope: Fraction = Fraction(0)

    @property
    def ks2(self) -> int:
        """The factor of ``t * KS`` in ``2*den0*D*B*K(t)`` (``2*den0`` along the stack)."""
        return self.ks_factor or 2 * self.den0


_STRUCTURE_CACHE: dict[tuple, _Structure] = {}


def _structure(game: PushFoldGame, table: EquityTable, cfg: dict[str, Fraction], along="stack") -> _Structure:
    key = (tuple(v for k, v in cfg.items() if k != along), game.level, table.sha256 or id(table), along)
    hit = _STRUCTURE_CACHE.get(key)
    if hit is not None:
        return hit
    if along != "stack":
        st = _line_structure(game, table, cfg, along)
        _STRUCTURE_CACHE[key] = st
        return st
    counts = _counts(table, game.level)
    # the payoffs of every terminal node, from the one payoff home (sflp.core.payoff)
    constant, per_stack = stack_split(terminal_payoffs(cfg))
    if any(v != 0 for v in (per_stack["fold"], per_stack["steal"])):  # pragma: no cover - rules
        raise CertificateError("the fold and the steal must not depend on the stack")
    den0 = math.lcm(*(v.denominator for k, v in cfg.items() if k != "stack"))
    c_ints = {k: v * 2 * den0 for k, v in constant.items()}  # 2*den0 clears A/2 too
    s_ints = dict(per_stack)
    if any(v.denominator != 1 for v in (*c_ints.values(), *s_ints.values())):  # pragma: no cover
        raise CertificateError("payoffs are not integers when scaled by twice the blinds' denominator")
    KC, KS, bound = _int_matrices(counts, c_ints, s_ints)
    st = _Structure(den0, KC, KS, constant["steal"] - constant["fold"], constant["fold"], constant["steal"], bound)
    if len(_STRUCTURE_CACHE) > 16:
        _STRUCTURE_CACHE.clear()
    _STRUCTURE_CACHE[key] = st
    return st


def _int_matrices(counts, c_ints: dict, s_ints: dict) -> tuple[np.ndarray, np.ndarray, tuple[int, int]]:
    """``KC = showdown(c_ints)`` and ``KS = showdown(s_ints)`` (node values that are whole
    Fractions), each int64 when every row sum fits, else Python ints; and their largest entries."""
    c_ints = {k: int(v) for k, v in c_ints.items()}
    s_ints = {k: int(v) for k, v in s_ints.items()}
    B = BOARDS_PER_PAIR
    arrays = tuple(a.astype(object) for a in (counts.wins, counts.ties, counts.losses, counts.pairs))
    KC, KS = showdown(c_ints, *arrays, B), showdown(s_ints, *arrays, B)
    bound = (int(np.abs(KC).max()), int(np.abs(KS).max()))
    small = tuple(b * (counts.pairs.shape[0] + 1) < _INT64_LIMIT for b in bound)
    return (KC.astype(np.int64) if small[0] else KC), (KS.astype(np.int64) if small[1] else KS), bound


def _line_structure(game: PushFoldGame, table: EquityTable, cfg: dict[str, Fraction], along) -> _Structure:
    """The integers of the line ``p0 + t d`` named by ``along`` through ``cfg`` (see
    :class:`_Structure`): ``den0`` clears the denominators of ``p0`` and of ``d`` (``L``, their
    lcm), ``KS = showdown(2 L slopes)`` (the slopes are sums of ``d``'s entries and their halves),
    so ``2 den0 D B K(t) = KC + t (den0 / L) KS``."""
    from sflp.core.payoff import AMOUNTS, line_of, line_terms

    counts = _counts(table, game.level)
    p0, d = line_of(cfg, along)
    constant, slope = stack_split(line_terms(cfg, along))
    L = math.lcm(*(d[k].denominator for k in AMOUNTS))
    den0 = math.lcm(L, *(p0[k].denominator for k in AMOUNTS))
    c_ints = {k: v * 2 * den0 for k, v in constant.items()}
    s_ints = {k: 2 * L * v for k, v in slope.items()}
    if any(v.denominator != 1 for v in (*c_ints.values(), *s_ints.values())):  # pragma: no cover - rules
        raise CertificateError(f"the payoffs along {along!r} are not integers when scaled")
    KC, KS, bound = _int_matrices(counts, c_ints, s_ints)
    if len(_STRUCTURE_CACHE) > 16:
        _STRUCTURE_CACHE.clear()
    return _Structure(den0, KC, KS, constant["steal"] - constant["fold"], constant["fold"], constant["steal"], bound,
                      along=along, ks_factor=den0 // L, gf_slope=slope["steal"] - slope["fold"])


def _check_float_payoffs(game: PushFoldGame, st: _Structure) -> None:
    """The exact matrix must be the game's float matrix (a guard against a mismatched table or
    payoffs): ``K0`` and ``K1`` compared once per float payoffs object (stacks share it)."""
    p = game.payoffs
    if id(p) in st.checked:
        return
    B = BOARDS_PER_PAIR
    if getattr(p, "along", "stack") != st.along:
        raise CertificateError(f"the game's payoffs follow the {p.along}, the exact ones the {st.along}")
    ks_scale = DEALS * B if st.along == "stack" else 2 * st.den0 * DEALS * B // st.ks2  # 2 L D B on a line
    for exact_part, scale, float_part in ((st.KC, 2 * st.den0 * DEALS * B, p.K0), (st.KS, ks_scale, p.K1)):
        approx = np.asarray(exact_part, dtype=np.float64) / scale
        if not np.abs(approx - float_part).max() <= 1e-12 * max(float(np.abs(float_part).max()), 1e-300):
            raise CertificateError("the exact payoff matrix does not match the game's float matrix K")
    if len(st.checked) > 64:
        st.checked.clear()
    st.checked.add(id(p))


def exact_payoffs(game: PushFoldGame) -> ExactPayoffs:
    """The exact payoff numbers of ``game`` (see the module docstring), cached per game setup.

    >>> from sflp.core.game import GameConfig, PushFoldGame
    >>> ex = exact_payoffs(PushFoldGame(GameConfig(stack=10)))
    >>> ex.f, ex.g, ex.r[0], ex.scale == 2 * 1326 * 1225 * 1712304 * 2
    (Fraction(-1, 2), Fraction(1, 1), Fraction(1, 221), True)
    """
    table = game.table or load_table()
    stack = to_fraction(game.config.stack)
    key = (game.config.structure_key(), stack, game.level, table.sha256 or id(table))
    hit = _EXACT_CACHE.get(key)
    if hit is not None:
        _check_float_payoffs(game, hit.structure)
        return hit
    cfg = game.config.exact()
    st = _structure(game, table, cfg)
    _check_float_payoffs(game, st)  # a game of a line's payoffs is refused here
    counts = _counts(table, game.level)
    # scale * K = 2*den*D*B*K(S) = (den/den0) * KC + (2*den*S) * KS, den = lcm(den0, S's denominator)
    den = math.lcm(st.den0, stack.denominator)
    m1, m2 = den // st.den0, int(2 * den * stack)
    n = counts.pairs.shape[0]
    if (abs(m1) * st.bound[0] + abs(m2) * st.bound[1]) * (n + 1) < _INT64_LIMIT \
            and st.KC.dtype != object and st.KS.dtype != object:
        K = m1 * st.KC + m2 * st.KS  # every entry and every row sum of entries fits int64
    else:
        K = st.KC.astype(object) * m1 + st.KS.astype(object) * m2
    K.setflags(write=False)
    B = BOARDS_PER_PAIR
    scale = 2 * den * DEALS * B
    gf = int(2 * den * st.steal_fold)  # an integer: 2*den0 clears the blinds' denominators
    base = tuple(B * gf * rp for rp in counts.row_pairs)  # scale * r (g - f)
    ex = ExactPayoffs(
        level=game.level,
        names=_names(game.level),
        K_scaled=K,
        scale=scale,
        base_scaled=base,
        r=counts.r,
        f=st.fold,
        g=st.steal,
        config=cfg,
        pairs=counts.pairs,
        structure=st,
    )
    if len(_EXACT_CACHE) > 64:
        _EXACT_CACHE.clear()
    _EXACT_CACHE[key] = ex
    return ex


# ------------------------------------------------------------------ exact linear algebra


def _as_fractions(v, n: int, who: str) -> tuple[Fraction, ...]:
    """A strategy as exact fractions (floats at their exact binary value)."""
    vals = list(v)
    if len(vals) != n:
        raise ConfigError(f"{who} strategy has {len(vals)} entries, expected {n}")
    out = []
    for e in vals:
        if isinstance(e, Fraction):
            out.append(e)
        elif isinstance(e, Integral):
            out.append(Fraction(int(e)))
        elif isinstance(e, Rational):
            out.append(Fraction(e.numerator, e.denominator))
        else:
            fl = float(e)
            if not math.isfinite(fl):
                raise ConfigError(f"{who} strategy has a non-finite entry {e!r}")
            out.append(Fraction(fl))
    return tuple(out)


def _split(v: Sequence[Fraction]) -> tuple[list[int], list[int]]:
    """The positions of the entries equal to 1 and of the other non-zero entries of ``v``.

    One pass with plain int comparisons of numerator and denominator (Fraction's own
    comparisons cost about ten times more, and a certificate makes thousands of them)."""
    ones: list[int] = []
    frac: list[int] = []
    for j, e in enumerate(v):
        num = e.numerator
        if num:
            (ones if num == e.denominator else frac).append(j)
    return ones, frac


def _matvec(M: np.ndarray, v: Sequence[Fraction], split=None) -> tuple[np.ndarray, int]:
    """``M @ v`` for an integer matrix and a rational vector, as ``(numerators, Q)`` (= nums / Q).

    Entries 0 are skipped and entries 1 go through one int64 product (object if ``M`` is);
    only the other entries are multiplied in Python integers.  ``split`` is ``_split(v)``, if
    the caller has it already.
    """
    n = len(v)
    ones, frac = split or _split(v)
    Q = math.lcm(*(v[j].denominator for j in frac)) if frac else 1
    if ones:
        mask = np.zeros(n, dtype=M.dtype if M.dtype == object else np.int64)
        mask[ones] = 1
        out = (M @ mask).astype(object) * Q
    else:
        out = np.zeros(M.shape[0], dtype=object)
    if frac:
        coef = np.array([v[j].numerator * (Q // v[j].denominator) for j in frac], dtype=object)
        out = out + M[:, frac].astype(object) @ coef
    return out, Q


def _dot(v: Sequence[Fraction], nums: Sequence[int], split=None) -> Fraction:
    """``sum_i v[i] * nums[i]`` exactly (integers ``nums``); ``split`` as in :func:`_matvec`."""
    ones, frac = split or _split(v)
    whole = sum(int(nums[j]) for j in ones)
    rest = sum((v[j] * int(nums[j]) for j in frac), Fraction(0))
    return whole + rest


@dataclass(frozen=True)
class _Exact:
    """Every exact figure of one strategy pair (margins as numerators over a common denominator)."""

    m_num: np.ndarray  # SB margins m[i] = m_num[i] / m_den
    m_den: int
    c_num: np.ndarray  # BB column terms c[j] = (K'x)[j] = c_num[j] / c_den
    c_den: int
    value: Fraction
    sb_br: Fraction  # SB's best-response value against y
    bb_br: Fraction  # SB's value when BB best-responds to x
    x_split: tuple[list[int], list[int]]  # _split(x): where x is 1, where strictly between 0 and 1
    y_split: tuple[list[int], list[int]]


def _figures(ex: ExactPayoffs, x: Sequence[Fraction], y: Sequence[Fraction], x_split=None, y_split=None) -> _Exact:
    x_split = x_split or _split(x)
    ky, qy = _matvec(ex.K_scaled, y, y_split)
    base = np.array(ex.base_scaled, dtype=object)
    m_num = base * qy + ky
    m_den = qy * ex.scale
    kx, qx = _matvec(ex.K_scaled.T, x, x_split)
    c_den = qx * ex.scale
    value = ex.f + _dot(x, m_num, x_split) / m_den
    # object-array comparisons and sums: Python ints throughout, exact
    sb_br = ex.f + Fraction(int(m_num[m_num > 0].sum()), m_den)
    rx = _dot(x, ex.base_scaled, x_split) / ex.scale
    bb_br = ex.f + rx + Fraction(int(kx[kx < 0].sum()), c_den)
    return _Exact(m_num, m_den, kx, c_den, value, sb_br, bb_br, x_split, y_split or _split(y))


def _prepare(game: PushFoldGame, x, y) -> tuple[ExactPayoffs, tuple[Fraction, ...], tuple[Fraction, ...]]:
    ex = exact_payoffs(game)
    return ex, _as_fractions(x, ex.size, "SB"), _as_fractions(y, ex.size, "BB")


def exact_sb_margins(game: PushFoldGame, bb) -> tuple[Fraction, ...]:
    """SB's exact margins ``m[i] = r[i](g-f) + (K y)[i]`` (as :meth:`PushFoldGame.sb_margins`)."""
    ex = exact_payoffs(game)
    y = _as_fractions(bb, ex.size, "BB")
    ky, qy = _matvec(ex.K_scaled, y)
    den = qy * ex.scale
    return tuple(Fraction(int(b) * qy + int(k), den) for b, k in zip(ex.base_scaled, ky))


def exact_bb_margins(game: PushFoldGame, sb) -> tuple[Fraction, ...]:
    """BB's exact margins ``-(K' x)[j]`` (as :meth:`PushFoldGame.bb_margins`)."""
    ex = exact_payoffs(game)
    x = _as_fractions(sb, ex.size, "SB")
    kx, qx = _matvec(ex.K_scaled.T, x)
    den = qx * ex.scale
    return tuple(Fraction(-int(c), den) for c in kx)


def exact_value(game: PushFoldGame, sb, bb) -> Fraction:
    """SB's exact value ``V(x, y) = f + (g-f) r.x + x'Ky`` of rational strategies."""
    return _figures(*_prepare(game, sb, bb)).value


def exact_best_response_values(game: PushFoldGame, sb, bb) -> tuple[Fraction, Fraction]:
    """``(f + sum max(0, m_i), f + (g-f) r.x + sum min(0, (K'x)_j))``: the two best-response values."""
    fig = _figures(*_prepare(game, sb, bb))
    return fig.sb_br, fig.bb_br


def exact_figures(game: PushFoldGame, sb, bb) -> tuple[Fraction, Fraction, Fraction]:
    """``(V(x, y), max_x' V(x', y), min_y' V(x, y'))``: the value and both best-response values at
    once (each best-response value depends only on the other player's strategy)."""
    fig = _figures(*_prepare(game, sb, bb))
    return fig.value, fig.sb_br, fig.bb_br


def exact_exploitability(game: PushFoldGame, sb, bb) -> Fraction:
    """SB's best-response value against ``bb`` minus SB's value when BB best-responds to ``sb``.

    Zero exactly when ``(sb, bb)`` is an equilibrium.
    """
    fig = _figures(*_prepare(game, sb, bb))
    return fig.sb_br - fig.bb_br


_R_PARTS: dict[int, tuple] = {}


def _r_parts(r: tuple[Fraction, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Numerators and denominators of ``r`` as object arrays (made once per level and table:
    looked up by identity, since hashing 1,326 Fractions would cost more than it saves)."""
    hit = _R_PARTS.get(id(r))
    if hit is None or hit[0] is not r:
        if len(_R_PARTS) > 8:
            _R_PARTS.clear()
        hit = (r, np.array([v.numerator for v in r], dtype=object), np.array([v.denominator for v in r], dtype=object))
        _R_PARTS[id(r)] = hit
    return hit[1], hit[2]


def exact_evs(ex: ExactPayoffs, x: Sequence[Fraction], fig: _Exact) -> tuple[np.ndarray, np.ndarray]:
    """SB's and BB's EV margins per hand, each the nearest float of its exact value.

    SB: ``m[i] / r[i]``; BB: ``-c[j] / (P'x)[j]``, NaN where SB never shoves into hand ``j``
    (as :meth:`sflp.core.game.PushFoldGame.bb_ev`).  Python's ``int / int`` is correctly rounded, so
    each float is the exact rational rounded once.
    """
    # object arrays of Python ints: each "/" is int.__truediv__, the correctly rounded quotient
    r_num, r_den = _r_parts(ex.r)
    sb = ((fig.m_num * r_den) / (r_num * fig.m_den)).astype(np.float64)
    reach, q = _matvec(ex.pairs.T, x, fig.x_split)  # (P'x)[j] = reach[j] / (q * DEALS)
    reached = reach != 0
    bb = np.full(len(reach), math.nan)
    bb[reached] = ((-fig.c_num[reached] * (q * DEALS)) / (reach[reached] * fig.c_den)).astype(np.float64)
    for arr in (sb, bb):
        arr.setflags(write=False)
    return sb, bb
