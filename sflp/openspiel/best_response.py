r"""Each player's exact best response to a scored policy, as OpenSpiel policy tables.

:func:`best_response` scores a policy (:func:`sflp.openspiel.verify`) and computes, in
rationals, what each player would play against the other's part of it
(:mod:`sflp.solving.exact`, reading the policy's floats exactly as ``verify`` does): every hand's
exact margin (SB: shove minus fold per hand held; BB: call minus fold per hand facing a shove, in
bb), the best response (play where the margin is > 0; a margin of exactly 0 is a tie and folds,
as ``sflp exploit`` does; a BB hand SB never shoves into has no margin and folds), its value and
its gain.  Two routes give each gain -- the best response played out (its exact value
``V(x', y)`` minus the policy's) and the verify report's best-response value -- and they must
agree exactly, or the call fails (never a silent answer).

The tables use the exported game's state names (:func:`sflp.openspiel.efg.info_state`, naming
the game), so OpenSpiel takes them as they are: ``BestResponse.policy("sb")`` is SB's 169 states,
``.profile("sb")`` the whole game's 338 with BB playing the scored policy -- what
``pyspiel.expected_returns`` scores to get the best response's value.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from sflp.core.cards import CLASS_NAMES
from sflp.errors import ConfigError, SolveError
from sflp.openspiel.efg import ACTION_IDS, ACTIONS, info_state

FORMAT = "sflp-best-response"
"""The ``"format"`` of the JSON file :func:`write_best_response` writes (and the only JSON file it
replaces)."""


def is_ours(head: bytes) -> bool:
    """Whether a file's first bytes are a best-response file's (its first key is its ``"format"``)."""
    return b"".join(head[:200].split()).startswith(b'{"format":"%s"' % FORMAT.encode())


@dataclass(frozen=True, eq=False)
class BestResponse:
    """Both players' exact best responses to one policy (module doc)."""

    config: object
    report: object  # the VerifyReport of the scored policy
    sb: object  # _Side: SB's best response to the policy's BB
    bb: object  # _Side: BB's best response to the policy's SB
    x: tuple[float, ...]  # the policy's SB shove frequencies, class order
    y: tuple[float, ...]  # the policy's BB call frequencies

    def gain(self, player: str) -> Fraction:
        """What ``player``'s best response gains over the policy, exactly (bb per hand)."""
        return self.report.exact[f"{_player(player)}_gain"]

    def policy(self, player: str) -> dict[str, list[tuple[int, float]]]:
        """``player``'s best response as an OpenSpiel policy table of its 169 states."""
        player = _player(player)
        best = self.sb if player == "sb" else self.bb
        fold, play = (ACTION_IDS[a] for a in ACTIONS[player])
        return {info_state(player, hand, self.config): [(fold, 1.0 - float(p)), (play, float(p))]
                for hand, p in zip(CLASS_NAMES, best.strategy.tolist())}

    def profile(self, player: str) -> dict[str, list[tuple[int, float]]]:
        """The whole game's table: ``player``'s best response, the other player the policy's."""
        player = _player(player)
        other = "bb" if player == "sb" else "sb"
        freq = self.y if other == "bb" else self.x
        fold, play = (ACTION_IDS[a] for a in ACTIONS[other])
        rest = {info_state(other, hand, self.config): [(fold, 1.0 - p), (play, p)]
                for hand, p in zip(CLASS_NAMES, freq)}
        return {**self.policy(player), **rest} if player == "sb" else {**rest, **self.policy(player)}

    def to_dict(self) -> dict:
        """JSON-ready: the game, the scored policy's figures, and per player the best response's
        table, value and gain (floats, and exact fractions as text) and every hand's margin."""
        from sflp.openspiel.game import game_entry

        out = {"format": FORMAT, "game": game_entry(self.config),
               "policy": {"value": float(self.report.exact["value_vs_each_other"]),
                       "value_exact": _text(self.report.exact["value_vs_each_other"]),
                       "nash_conv": float(self.report.exact["nash_conv"]),
                       "nash_conv_exact": _text(self.report.exact["nash_conv"])}}
        for player, best in (("sb", self.sb), ("bb", self.bb)):
            verb = "shove" if player == "sb" else "call"
            hands = {}
            for hand, p, m in zip(CLASS_NAMES, best.strategy.tolist(), best.margins_exact):
                best_action = "never faced (folds)" if m is None else "tie (folds)" if m == 0 else verb if p else "fold"
                hands[hand] = {"best": best_action, "margin": None if m is None else float(m),
                               "margin_exact": None if m is None else _text(m)}
            out[player] = {"value": float(best.value_exact), "value_exact": _text(best.value_exact),
                           "gain": float(self.gain(player)), "gain_exact": _text(self.gain(player)),
                           "margin_means": f"{verb} minus fold, bb per hand "
                                           f"{'held' if player == 'sb' else 'facing a shove'}",
                           "policy": {k: [list(a) for a in v] for k, v in self.policy(player).items()},
                           "hands": hands}
        return out


def _player(player) -> str:
    key = player.strip().lower() if isinstance(player, str) else None
    if key not in ("sb", "bb"):
        raise ConfigError(f"player={player!r}: expected 'sb' or 'bb'")
    return key


def _text(q: Fraction) -> str:
    q = Fraction(q)
    return f"{q.numerator}/{q.denominator}"


@dataclass(frozen=True)
class _Side:
    """One player's best response: its pure strategy (class order), every hand's exact margin
    per hand held (None: never faced) and its exact value (SB's value of the game with it)."""

    strategy: object
    margins_exact: tuple
    value_exact: Fraction


def best_response(policy, config, game=None, *, require_game: bool = False, source: str | None = None) -> BestResponse:
    """Both players' exact best responses to ``policy`` in ``config``'s game (module doc); the
    policy is read and checked as :func:`sflp.openspiel.verify` reads it (its game, its states)."""
    import numpy as np

    from sflp.core.game import DEALS, PushFoldGame
    from sflp.openspiel.policy import _read, verify
    from sflp.solving.exact import exact_bb_margins, exact_payoffs, exact_sb_margins, exact_value

    s, _ = _read(policy, game, source)
    if not (s.sb.uniform and s.bb.uniform):
        raise ConfigError("best_response takes a class-level policy (338 states, or combos played alike within each "
                          "class); a combo-level best response is not written")
    report = verify(policy, config, game, require_game=require_game, source=source, level="class")
    x, y = s.sb.class_freq, s.bb.class_freq
    g = PushFoldGame(config)
    ex = exact_payoffs(g)
    m = exact_sb_margins(g, y)  # shares of the deal: r_i (g - f) + (K y)_i
    b = exact_bb_margins(g, x)  # -(K' x)_j
    xs = [Fraction(float(v)) for v in x]  # the floats as verify reads them, exactly
    reach = [sum((Fraction(int(ex.pairs[i, j]), DEALS) * xs[i] for i in range(len(xs)) if xs[i] and ex.pairs[i, j]),
                 Fraction(0)) for j in range(len(xs))]
    sb_play = np.array([1.0 if v > 0 else 0.0 for v in m])
    bb_play = np.array([1.0 if v > 0 else 0.0 for v in b])
    sb = _Side(sb_play, tuple(v / r for v, r in zip(m, ex.r)), exact_value(g, sb_play, y))
    bb = _Side(bb_play, tuple(v / q if q else None for v, q in zip(b, reach)), exact_value(g, x, bb_play))
    value = report.exact["value_vs_each_other"]
    for player, gain in (("sb", sb.value_exact - value), ("bb", value - bb.value_exact)):
        if gain != report.exact[f"{player}_gain"]:
            raise SolveError(f"{player.upper()}'s best response gains {gain} played out, but the verify report says "
                             f"{report.exact[f'{player}_gain']}: the two exact routes disagree; please report this")
    return BestResponse(config, report, sb, bb, tuple(x.tolist()), tuple(y.tolist()))


def write_best_response(result: BestResponse, path) -> Path:
    """Write :meth:`BestResponse.to_dict` as JSON to ``path`` atomically, making its folder if
    needed; an existing file is replaced only when it is one this function wrote (its
    ``"format"``), never a folder, a symlink or another file (:func:`sflp.atomic.check_file_target`)."""
    import json
    import os

    from sflp.atomic import check_file_target, check_name, write_text
    from sflp.errors import ArgumentTypeError, OutputError

    if not isinstance(path, (str, os.PathLike)) or not os.fspath(path):
        raise ArgumentTypeError(f"path={path!r}: expected the JSON file to write (a str or a Path)")
    path = check_name(Path(path), what="output file")
    check_file_target(path, ".json", is_ours)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)  # like write_efg: the file's folder is made if needed
    except OSError as exc:
        raise OutputError(f"cannot create the folder {path.parent}: {exc.strerror}") from None
    # strict (allow_nan=False): every figure is a finite float or a fraction's text, and the file is
    # written below the output layer, where sflp.output.clean.json_text is out of reach
    write_text(path, json.dumps(result.to_dict(), indent=1, allow_nan=False) + "\n")
    return path
