"""Gambit reads the exported .efg (issue 33): pygambit's own parser, which enforces the format's
rules that OpenSpiel's lenient parser does not (one probability vector per chance information
set, unique non-empty node labels, unique information-set labels per player), builds the game,
and pygambit's own regret computation finds sflp's equilibrium a Nash equilibrium.

References: the class-level game has 169 information sets per player (one per hand class), so
338 player information sets, and 1 + 169 chance information sets (SB's deal, then BB's deal
given each SB class).  A profile is a Nash equilibrium exactly when its maximum regret is 0
(pygambit's ``MixedBehaviorProfile.max_regret``; ``agent_max_regret`` is the same per
information set).  The tests use pygambit 17's API, which names an information set by the
history of one of its nodes (``Game.get_infosets``, ``get_members``, ``gbt.H.path``).

pygambit 16 is published as source only; 17.0.0b2 has wheels for CPython 3.11-3.14 on Linux
x86-64, macOS arm64 and Windows (PyPI's file list), and the test extra installs it there only
(its environment marker).  Elsewhere the tests skip, saying why; under CI=true a skip where the
extra should have installed it fails.
"""

from __future__ import annotations

import tomllib
from fractions import Fraction
from pathlib import Path

import pytest

import sflp
from sflp.core.cards import CLASS_NAMES
from sflp.core.game import GameConfig
from sflp.openspiel import write_efg
from tests.tool_skips import in_ci

ROOT = Path(__file__).resolve().parent.parent


def pygambit_expected() -> bool:
    """Whether the test extra of pyproject.toml installs pygambit on this Python and platform
    (its requirement is listed and its environment marker holds here)."""
    from packaging.requirements import Requirement

    extra = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["test"]
    wanted = [Requirement(spec) for spec in extra if Requirement(spec).name == "pygambit"]
    return any(r.marker is None or r.marker.evaluate() for r in wanted)


def import_pygambit():
    try:
        import pygambit
    except ImportError:
        if in_ci() and pygambit_expected():
            pytest.fail("CI=true and the test extra installs pygambit on this Python, yet it does not import")
        pytest.skip("pygambit is not installed (the test extra installs it only where PyPI has a wheel "
                    "for this Python: see pyproject.toml)")
    return pygambit


@pytest.mark.parametrize("python, platform, machine, wheel", [
    ("3.11", "linux", "x86_64", True), ("3.14", "linux", "x86_64", True), ("3.12", "darwin", "arm64", True),
    ("3.13", "win32", "AMD64", True), ("3.11", "linux", "aarch64", False), ("3.11", "darwin", "x86_64", False),
    ("3.15", "linux", "x86_64", False),
])
def test_the_extras_install_pygambit_only_where_pypi_has_a_wheel(python, platform, machine, wheel):
    """pygambit 17.0.0b2's wheels on PyPI: cp311-cp314, manylinux x86_64, macosx arm64, win_amd64."""
    from packaging.requirements import Requirement

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    env = {"python_version": python, "sys_platform": platform, "platform_machine": machine}
    for name in ("test", "gambit"):
        (spec,) = [Requirement(s) for s in extras[name] if Requirement(s).name == "pygambit"]
        assert spec.marker.evaluate(env) is wheel, name
        assert spec.specifier.contains("17.0.0b2") and not spec.specifier.contains("16.7.0")


@pytest.fixture(scope="module")
def gambit10(tmp_path_factory):
    """``(pygambit, game)``: the 10 bb game as ``sflp export efg`` writes it, read by pygambit."""
    gbt = import_pygambit()
    path = tmp_path_factory.mktemp("gambit") / "pushfold_10bb.efg"
    write_efg(GameConfig(stack=10), path)
    return gbt, gbt.read_efg(str(path))


def test_gambit_reads_338_player_information_sets_one_per_class(gambit10):
    """pygambit 17 names an information set by a representative history (the actions from the
    root): SB's are (SB class, BB class), BB's (SB class, BB class, "shove").  Each information
    set is one class of its player, with 169 members (one per opponent class) and its actions."""
    gbt, game = gambit10
    assert list(game.players) == ["SB", "BB"]
    sb, bb = game.get_infosets("SB"), game.get_infosets("BB")
    assert len(sb) + len(bb) == 338
    for infosets, seat, actions in ((sb, 0, ["fold", "shove"]), (bb, 1, ["fold", "call"])):
        assert [h.actions[seat] for h in infosets] == list(CLASS_NAMES)
        for h in infosets:
            members = game.get_members(gbt.H.path(*h.actions))
            assert len(members) == 169 and {m.actions[seat] for m in members} == {h.actions[seat]}
            assert game.get_actions(gbt.H.path(*h.actions)) == actions


def test_gambit_reads_one_chance_event_per_deal_with_the_exact_probabilities(gambit10):
    """1 + 169 chance information sets (SB's deal, then BB's given SB's class), each with its own
    exact card-removal probabilities: AA v AA 6 combo pairs of 6 x 1,225, AKo v AA 36 of 12 x 1,225."""
    gbt, game = gambit10
    events = game.get_events()
    assert [h.actions for h in events] == [()] + [(hand,) for hand in CLASS_NAMES]
    probs = [game.get_action_probs(gbt.H.path(*h.actions)) for h in events]
    assert all(sum(p.values()) == 1 for p in probs)  # exact rationals
    assert probs[0]["AA"] == Fraction(6, 1326) and probs[0]["AKo"] == Fraction(12, 1326)
    by_sb = dict(zip(CLASS_NAMES, probs[1:]))
    assert by_sb["AA"]["AA"] == Fraction(6, 6 * 1225) and by_sb["AKo"]["AA"] == Fraction(36, 12 * 1225)


def profile_of(game, x, y):
    """sflp's class strategies as a pygambit mixed behaviour profile (floats): per player, per
    information set in the game's order, the probabilities of its actions (fold first)."""
    data = []
    for player, seat, freq in (("SB", 0, x), ("BB", 1, y)):
        play = dict(zip(CLASS_NAMES, freq))
        data.append([[1.0 - float(play[h.actions[seat]]), float(play[h.actions[seat]])]
                     for h in game.get_infosets(player)])
    return game.mixed_behavior_profile(data)


def test_sflps_equilibrium_has_zero_regret_by_pygambits_own_computation(gambit10):
    """Zero regret (within 1e-9 bb: the file's payoffs are doubles) and sflp's exact value as SB's
    expected payoff; a profile one hand away (SB folds AA) has a regret, so the check bites."""
    _, game = gambit10
    solution = sflp.solve(GameConfig(stack=10), exact=True)
    x, y = solution.class_strategies()
    profile = profile_of(game, x, y)
    payoffs = profile.payoffs
    assert abs(payoffs["SB"] - float(solution.value_exact)) < 1e-9 and payoffs["BB"] == -payoffs["SB"]
    assert 0 <= profile.max_regret() < 1e-9
    assert 0 <= profile.agent_max_regret() < 1e-9
    worse = x.copy()
    worse[0] = 0.0  # SB folds AA, giving up AA's shove margin (about 6/1326 x 10 bb)
    assert profile_of(game, worse, y).max_regret() > 1e-3
