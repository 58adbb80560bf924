r"""Score any strategy pair against the exact equilibrium.

:func:`load_strategy` reads one player's strategy (push frequencies for SB, call frequencies for
BB) from a file or a range string; :func:`verify` measures how much each given strategy can be
exploited in the game of a :class:`~sflp.core.game.GameConfig` and how much each hand's choice costs
against the opponent's exact equilibrium; :func:`format_text` prints the report and
:func:`exceeds` tells whether it breaks a bound (the CLI maps that to exit code 1).

Strategies (:class:`StrategySpec`, :func:`load_strategy`, the file formats) live in
:mod:`sflp.study.strategy`; their names are re-exported here for compatibility.

Level
-----
A spec whose combos are constant within every class is a class strategy and is evaluated in the
169-class game; a spec that varies inside some class is evaluated in the 1,326-combo game
(``level="combo"``; ``verify(..., level="combo")`` asks for it with any spec).  Both are exact:
the class equilibrium, expanded to combos, is an equilibrium of the combo game (all combos of a
class are equivalent under suit permutations), so the two levels agree on every figure of a class
strategy, and a combo file equal to a class file gives exactly the class file's figures.

Why collapsing a class strategy is exact, not an approximation: the class game's counts are sums
over the disjoint combo pairs of two classes (``K[I, J] = sum_{i in I, j in J} K[i, j]``), so
for ``x``, ``y`` constant on each class ``x' K y`` is the same number at both levels.  A best
response is too: a suit permutation maps a class onto itself, keeps every board count, and leaves
a class strategy unchanged, so all combos of a class have one margin ``m_i`` (``b_j``), and the
combo-level best-response value ``sum_i max(0, m_i)`` is the class level's
``sum_I max(0, m_I)`` (``m_I = |I| m_i``).  :mod:`tests.test_combo_policy` checks the
equality on fractions.

Figures (SB's value ``V(x, y)`` in bb per hand dealt, notation of :mod:`sflp.core.game`)
---------------------------------------------------------------------------------------
With ``(x*, y*)`` the exact equilibrium and ``v* = V(x*, y*)`` its value (``nash_value``):

* ``sb_exploitability = v* - min_y V(x, y)``: what SB's strategy ``x`` loses to a BB that
  best-responds to it (``>= 0``).
* ``bb_exploitability = max_x V(x, y) - v*``: what BB's strategy ``y`` loses to a best-responding SB.
* ``value_vs_each_other = V(x, y)`` when both are given; ``total_exploitability`` is the sum of
  the given sides (with both given, the usual exploitability of the pair).  ``*_mbb`` are the
  same in milli-big-blinds per hand (x1000).

Per-hand cost (``hands``)
-------------------------
One row per player and class: ``given`` and ``exact`` frequency (combo mean for a combo spec)
and ``ev_lost``, what the given choice of that hand costs **against the opponent's exact
equilibrium strategy**, in bb per hand dealt (the hand's probability is folded in, so rows add):

* SB hand ``i`` with margin ``m_i = r_i (g - f) + (K y*)_i`` (shove minus fold, as a share of the
  game): ``ev_lost_i = max(0, m_i) - x_i m_i``;
* BB hand ``j`` with margin ``b_j = -(K' x*)_j`` (call minus fold): ``ev_lost_j = max(0, b_j) - y_j b_j``.

Each row is ``>= 0`` and zero for a hand played as a best reply to the exact opponent.  Summing,
``sum_SB ev_lost = max_x V(x, y*) - V(x, y*) = v* - V(x, y*)`` and
``sum_BB ev_lost = V(x*, y) - min_y V(x*, y) = V(x*, y) - v*`` (the second equalities because
``(x*, y*)`` is an equilibrium).  These are *not* the exploitabilities, which let the opponent
adapt; they say which hands are misplayed.  At combo level the combo rows are summed per class.

Exact figures (``exact=True``)
------------------------------
The same figures in rational arithmetic (:func:`sflp.solving.exact.exact_figures`; each given
frequency is taken at its exact binary value), at the report's level, as
:class:`~fractions.Fraction` in ``report.exact``.  Class strategies are scored on the 169 x 169
class matrix (exact, see *Level*); a strategy that varies inside a class on the 1,326 x 1,326
combo matrix, whose exact integers are built once per game and table (seconds) and cached, so
later scores of that game take milliseconds.  ``nash_value`` is the certified class value,
which is the combo game's value too.  The figures: ``nash_value``, ``sb_exploitability``,
``bb_exploitability`` and, with both sides given, ``value_vs_each_other`` and each player's
**best-response gain**, what a best response to the other's given strategy gains over the given
one:
``sb_gain = max_x' V(x', y) - V(x, y)`` and ``bb_gain = V(x, y) - min_y' V(x, y')``.  Their sum
``nash_conv = max_x' V(x', y) - min_y' V(x, y')`` is the total exploitability, and is what
OpenSpiel calls ``nash_conv`` (its ``exploitability`` is half of it).  The float figures of the
report are then these fractions rounded once.

>>> from sflp.core.game import GameConfig
>>> report = verify(GameConfig(stack=10), load_strategy("random", "sb"), None)
>>> round(report.sb_exploitability, 4), report.bb_exploitability, report.level
(0.3323, None, 'class')
>>> exceeds(report, 0.1), exceeds(report, 1.0)
(True, False)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from sflp.checks import number_text, short
from sflp.core.cards import CLASS_NAMES, COMBO_CLASS, N_CLASSES, N_COMBOS
from sflp.core.game import GameConfig, PushFoldGame, Solution
from sflp.errors import ArgumentTypeError, ConfigError
from sflp.study.strategy import (  # noqa: F401  (re-exported: these lived here before sflp.study.strategy)
    GRID_RANKS,
    MBB,
    PATH_SUFFIXES,
    PLAYERS,
    SPEC_PREFIXES,
    StrategyFileError,
    StrategySpec,
    _player,
    grid_csv_text,
    load_strategy,
    read_grid_csv,
)

DISPLAY_FLOOR = 1e-12
"""``format_text`` lists only hands losing more than this (bb per hand): rounding noise is not a loss."""


# ---------------------------------------------------------------- the report


@dataclass(frozen=True)
class HandRow:
    """One player's choice of one class: given and exact frequency, and the EV it loses (bb/hand)."""

    player: str
    hand: str
    given: float
    exact: float
    ev_lost: float

    def to_dict(self) -> dict:
        return {
            "player": self.player,
            "hand": self.hand,
            "given": float(self.given),
            "exact": float(self.exact),
            "ev_lost": float(self.ev_lost),
        }


@dataclass(frozen=True, eq=False)
class VerifyReport:
    """The figures of :func:`verify` (bb per hand; ``*_mbb`` x1000).  See the module docstring."""

    config: GameConfig
    level: str
    nash_value: float
    sb_exploitability: float | None
    bb_exploitability: float | None
    value_vs_each_other: float | None
    missing: dict[str, tuple[str, ...] | None]
    hands: list[HandRow] = field(default_factory=list)
    sources: dict[str, str | None] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)
    exact: dict[str, Fraction] | None = None
    """The exact figures (``verify(..., exact=True)``, see the module doc), else None."""

    @property
    def stack(self) -> float:
        return float(self.config.stack)

    @property
    def total_exploitability(self) -> float:
        """The sum of the given sides' exploitabilities."""
        return sum(e for e in (self.sb_exploitability, self.bb_exploitability) if e is not None)

    @property
    def sb_exploitability_mbb(self) -> float | None:
        return None if self.sb_exploitability is None else self.sb_exploitability * MBB

    @property
    def bb_exploitability_mbb(self) -> float | None:
        return None if self.bb_exploitability is None else self.bb_exploitability * MBB

    @property
    def total_exploitability_mbb(self) -> float:
        return self.total_exploitability * MBB

    @property
    def nash_conv(self) -> float | None:
        """The total exploitability of the given pair as OpenSpiel's ``nash_conv`` (both sides given)."""
        if self.sb_exploitability is None or self.bb_exploitability is None:
            return None
        return float(self.exact["nash_conv"]) if self.exact else self.total_exploitability

    def ev_lost(self, player: str) -> float:
        """Sum of one player's ``ev_lost`` rows (see the identity in the module docstring)."""
        player = _player(player)
        return float(sum(row.ev_lost for row in self.hands if row.player == player))

    def to_dict(self) -> dict:
        """Plain JSON-ready dict: the figures, the config fields, missing hands and the hand rows."""

        def num(v):
            return None if v is None else float(v)

        out = self.config.as_dict()
        out.update(
            {
                "level": self.level,
                "nash_value": float(self.nash_value),
                "sb_exploitability": num(self.sb_exploitability),
                "bb_exploitability": num(self.bb_exploitability),
                "value_vs_each_other": num(self.value_vs_each_other),
                "total_exploitability": float(self.total_exploitability),
                "sb_exploitability_mbb": num(self.sb_exploitability_mbb),
                "bb_exploitability_mbb": num(self.bb_exploitability_mbb),
                "total_exploitability_mbb": float(self.total_exploitability_mbb),
                "missing": {p: (None if m is None else list(m)) for p, m in self.missing.items()},
                "sources": dict(self.sources),
                "notes": dict(self.notes),
                "hands": [row.to_dict() for row in self.hands],
            }
        )
        if self.exact is not None:
            out["exact"] = {k: str(v) for k, v in self.exact.items()}
            for key in ("sb_gain", "bb_gain", "nash_conv"):
                if key in self.exact:
                    out[key] = float(self.exact[key])
            if "nash_conv" in self.exact:
                out["nash_conv_mbb"] = float(self.exact["nash_conv"] * round(MBB))  # exact, then rounded once
        return out


def _equilibrium(config: GameConfig, solution, table, exact: bool):
    """The exact equilibrium (solved unless ``solution`` is given; certified when ``exact``)."""
    if solution is not None and not isinstance(solution, Solution):
        raise ArgumentTypeError(f"solution must be an sflp Solution (from solve) or None, not "
                                f"{type(solution).__name__} {short(solution)}")
    if solution is None or (exact and solution.value_exact is None):
        from sflp.solving.solver import solve

        if solution is not None and solution.config != config:
            raise ConfigError(f"the solution given is for {solution.config}, not {config}")
        solution = solve(config, table=table, exact=exact)
    elif solution.config != config:
        raise ConfigError(f"the solution given is for {solution.config}, not {config}")
    return solution


def _exact_figures(config: GameConfig, table, nash: Fraction, sb, bb, level: str | None = None) -> dict[str, Fraction]:
    """The exact figures of the module doc, for the sides given, at ``level``: ``"class"`` (every
    given strategy uniform inside each class; exact by suit symmetry, see *Level*), ``"combo"``
    (the 1,326-combo game, any strategy), or None for the first of the two that holds.  ``nash``
    is the exact equilibrium value, the same at both levels."""
    from sflp.solving.exact import exact_figures

    level = _level(level, sb, bb)
    game = PushFoldGame(config, table, level)
    zeros = np.zeros(N_CLASSES if level == "class" else N_COMBOS)
    x = sb.exact_frequencies(level) if sb is not None else zeros  # exact fractions where a spec has them
    y = bb.exact_frequencies(level) if bb is not None else zeros
    value, sb_br, bb_br = exact_figures(game, x, y)  # sb_br depends on y only, bb_br on x only
    out = {"nash_value": nash}
    if sb is not None:
        out["sb_exploitability"] = nash - bb_br
    if bb is not None:
        out["bb_exploitability"] = sb_br - nash
    if sb is not None and bb is not None:
        out.update(value_vs_each_other=value, sb_gain=sb_br - value, bb_gain=value - bb_br, nash_conv=sb_br - bb_br)
    return out


def _level(level: str | None, sb, bb) -> str:
    """The level to score at: ``level`` checked, or (None) class when every given strategy is
    uniform inside each class, else combo."""
    given = [s for s in (sb, bb) if s is not None]
    if level is None:
        return "class" if all(s.uniform for s in given) else "combo"
    if level not in ("class", "combo"):
        raise ConfigError(f"level={short(level)}: expected 'class', 'combo' or None (the coarsest exact level)")
    if level == "class":
        for s in given:
            if not s.uniform:
                raise ConfigError(f"the {s.player.upper()} strategy {s.description} varies inside a class: score it "
                                  "at combo level (level='combo' or None)")
    return level


def verify(
    config: GameConfig,
    sb: StrategySpec | None,
    bb: StrategySpec | None,
    *,
    solution=None,
    table=None,
    exact: bool = False,
    level: str | None = None,
) -> VerifyReport:
    """Exploitability of the given SB and/or BB strategy in ``config``'s game, and per-hand costs.

    ``solution`` may pass a precomputed equilibrium of ``config`` (else :func:`sflp.solving.solver.solve`
    is called); ``table`` an equity table other than the shipped one; ``exact`` adds the exact
    figures of the module doc, at either level.  ``level`` is where the game is scored: None (the
    default) takes the class game when every given strategy plays each class alike (exact by suit
    symmetry, see *Level*) and the combo game otherwise; ``"combo"`` forces the combo game (the
    same figures for a class strategy, computed on 1,326 combos); ``"class"`` refuses a strategy
    that varies inside a class.  ``report.level`` says which was used.
    """
    if sb is None and bb is None:
        raise ConfigError("verify needs a strategy for SB, for BB, or both")
    for who, spec in (("sb", sb), ("bb", bb)):
        if spec is not None:
            if not isinstance(spec, StrategySpec):
                raise ConfigError(f"the {who.upper()} strategy must be a StrategySpec (see load_strategy)")
            if spec.player != who:
                raise ConfigError(
                    f"strategy {spec.source!r} was loaded for {spec.player.upper()}, given as {who.upper()}"
                )
    level = _level(level, sb, bb)
    solution = _equilibrium(config, solution, table, exact)
    x_class, y_class = solution.class_strategies()
    game = PushFoldGame(config, table, level)
    if level == "class":
        x_star, y_star = np.asarray(x_class, float), np.asarray(y_class, float)
    else:
        x_star, y_star = game.expand_to_combos(x_class), game.expand_to_combos(y_class)
    nash = game.value(x_star, y_star)

    sb_exp = bb_exp = mutual = None
    rows: list[HandRow] = []
    if sb is not None:
        x = sb.frequencies(level)
        sb_exp = nash - game.best_response_bb(x)[1]
        m = game.sb_margins(y_star)
        lost = np.maximum(m, 0.0) - x * m
        rows += _rows("sb", sb.class_freq, x_class, lost, level)
    if bb is not None:
        y = bb.frequencies(level)
        bb_exp = game.best_response_sb(y)[1] - nash
        b = game.bb_margins(x_star)
        lost = np.maximum(b, 0.0) - y * b
        rows += _rows("bb", bb.class_freq, y_class, lost, level)
    if sb is not None and bb is not None:
        mutual = game.value(sb.frequencies(level), bb.frequencies(level))
    figures = None
    if exact:
        figures = _exact_figures(config, table, solution.value_exact, sb, bb, level)
        nash = figures["nash_value"]  # the floats below are the exact figures rounded once
        sb_exp, bb_exp, mutual = (figures.get(k) for k in ("sb_exploitability", "bb_exploitability",
                                                              "value_vs_each_other"))
    return VerifyReport(
        config=config,
        level=level,
        nash_value=float(nash),
        sb_exploitability=None if sb_exp is None else float(sb_exp),
        bb_exploitability=None if bb_exp is None else float(bb_exp),
        value_vs_each_other=None if mutual is None else float(mutual),
        missing={"sb": None if sb is None else sb.missing, "bb": None if bb is None else bb.missing},
        hands=rows,
        sources={"sb": None if sb is None else sb.description, "bb": None if bb is None else bb.description},
        notes={p: spec.note for p, spec in (("sb", sb), ("bb", bb)) if spec is not None and spec.note},
        exact=figures,
    )


def _rows(player: str, given: np.ndarray, exact: np.ndarray, lost: np.ndarray, level: str) -> list[HandRow]:
    if level == "combo":
        lost = np.bincount(COMBO_CLASS, weights=lost, minlength=N_CLASSES)
    return [
        HandRow(player, CLASS_NAMES[k], float(given[k]), float(exact[k]), float(lost[k])) for k in range(N_CLASSES)
    ]


def exceeds(report: VerifyReport, max_exploitability: float) -> bool:
    """True when a given side's exploitability is above ``max_exploitability`` (bb per hand)."""
    bound = float(max_exploitability)
    if not bound >= 0:
        raise ConfigError(f"max_exploitability={max_exploitability!r} must be zero or positive")
    return any(e is not None and e > bound for e in (report.sb_exploitability, report.bb_exploitability))


# ---------------------------------------------------------------- text


def _fmt(v: float | None, digits: int = 6) -> str:
    return "-" if v is None else number_text(v, f"+.{digits}f")


def _names(names: tuple[str, ...], limit: int = 12) -> str:
    shown = ", ".join(names[:limit])
    return shown + (f", ... ({len(names) - limit} more)" if len(names) > limit else "")


def _fraction_text(q: Fraction, limit: int = 60) -> str:
    """A fraction for the terminal: whole when short, else its numerator's and denominator's sizes."""
    text = str(q)
    if len(text) <= limit:
        return text
    return f"p/q with {len(str(abs(q.numerator)))}/{len(str(q.denominator))} digits (--json has it whole)"


def _exact_lines(exact: dict[str, Fraction], width: int | None = None) -> list[str]:
    """The exact figures: each gain as a float and as its fraction (on the line below, whole when
    it fits ``width``)."""
    lines = ["", "exact, in rationals (each given frequency at its exact binary value):"]
    labels = (("sb_gain", "SB best-response gain"), ("bb_gain", "BB best-response gain"),
              ("nash_conv", "nash_conv (the sum)"))
    limit = 60 if width is None else max(20, width - 28)
    for key, label in labels:
        if key in exact:
            q = exact[key]
            lines.append(f"  {label:<24}{float(q):>14.9g} bb = {float(q * round(MBB)):.6g} mbb/hand")
            lines.append(f"  {'':<24}= {_fraction_text(q, limit)}")
    if "nash_conv" in exact:
        lines.append("  (nash_conv is OpenSpiel's name for the sum; its exploitability is half of it)")
    else:
        for key in ("sb_exploitability", "bb_exploitability"):
            if key in exact:
                lines.append(f"  {key.replace('_', ' '):<24}{_fraction_text(exact[key], limit)}")
    return lines


def format_text(report: VerifyReport, top: int = 15, width: int | None = None) -> str:
    """A human-readable report: the figures, missing hands, and the ``top`` costliest hands per side.

    ``width``: the columns no line may pass (the CLI gives the terminal's, else 80; None: no
    limit); a long strategy name moves under its row, and notes wrap."""
    import textwrap

    def prose(text: str) -> list[str]:
        return [text] if width is None else textwrap.wrap(text, width, subsequent_indent="  ",
                                                          break_on_hyphens=False, break_long_words=False)

    c = report.config
    lines = [
        f"verify: stack {c.stack:g} bb, blinds {c.small_blind:g}/{c.big_blind:g}, "
        f"ante {c.ante:g}, BB ante {c.bb_ante:g}  ({report.level} level)",
        f"exact equilibrium value (SB): {number_text(report.nash_value, '+.6f')} bb/hand",
        "",
        f"{'side':<6}{'exploitability bb/hand':>24}{'mbb/hand':>12}   strategy",
    ]
    for who, e, mbb in (
        ("SB", report.sb_exploitability, report.sb_exploitability_mbb),
        ("BB", report.bb_exploitability, report.bb_exploitability_mbb),
    ):
        src = report.sources.get(who.lower())
        if e is None:
            lines.append(f"{who:<6}{'(not given)':>24}")
        else:
            row = f"{who:<6}{number_text(e, '>24.9f')}{number_text(mbb, '>12.3f')}"
            if width is None or len(row) + 3 + len(str(src)) <= width:
                lines.append(f"{row}   {src}")
            else:
                lines += [row, *prose(f"  {who} strategy: {src}")]
    lines.append(f"{'total':<6}{number_text(report.total_exploitability, '>24.9f')}"
                 f"{number_text(report.total_exploitability_mbb, '>12.3f')}")
    for who in PLAYERS:
        if report.notes.get(who):
            lines += prose(f"note ({who.upper()}): {report.notes[who]}")
    if report.value_vs_each_other is not None:
        value = number_text(report.value_vs_each_other, "+.6f")
        lines.append(f"value of the given SB vs the given BB: {value} bb/hand")
    if report.exact is not None:
        lines += _exact_lines(report.exact, width)
    for who in PLAYERS:
        missing = report.missing.get(who)
        if missing:
            lines += prose(f"{who.upper()} missing {len(missing)} hand(s), counted as frequency 0: {_names(missing)}")
    for who in PLAYERS:
        rows = [r for r in report.hands if r.player == who]
        if not rows:
            continue
        total = sum(r.ev_lost for r in rows)
        costly = sorted((r for r in rows if r.ev_lost > DISPLAY_FLOOR), key=lambda r: -r.ev_lost)[:top]
        lines += [
            "",
            f"{who.upper()} hands vs the exact {('BB' if who == 'sb' else 'SB')} strategy: "
            f"{number_text(total * MBB, '.3f')} mbb/hand lost in all",
        ]
        if not costly:
            lines.append(f"  every hand is played as a best reply (to {DISPLAY_FLOOR:g} bb)")
            continue
        lines.append(f"  {'hand':<6}{'given':>8}{'exact':>8}{'ev lost mbb/hand':>18}")
        for r in costly:
            lines.append(f"  {r.hand:<6}{r.given:>8.3f}{r.exact:>8.3f}{number_text(r.ev_lost * MBB, '>18.4f')}")
    return "\n".join(lines) + "\n"


# `sflp.study.verify` is both this module and, in the public API (``sflp/__init__.py``), the function
