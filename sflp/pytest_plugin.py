"""sflp's pytest plugin: the referee as a fixture, for a solver author's test suite.

Installed with sflp, it is registered as a ``pytest11`` entry point, so pytest loads it by itself
(and only pytest: sflp imports pytest nowhere else).  It provides the fixture ``sflp_referee``:
a :class:`RefereeFixture` for one game, with the fast float scorer (:meth:`~RefereeFixture.score`,
:class:`sflp.Referee`, microseconds) and the exact one (:meth:`~RefereeFixture.verify`,
:meth:`~RefereeFixture.assert_nash_conv_below`, rationals).

Which games:

* ``@pytest.mark.parametrize("sflp_referee", [5, 10, 15], indirect=True)``: one test per stack
  (a number is a stack with blinds 0.5/1 and no ante; a :class:`~sflp.core.game.GameConfig` is
  any structure);
* ``@pytest.mark.sflp_stacks(5, 10, 15)``: the same, as a marker;
* otherwise the stacks of the ini option ``sflp_stacks`` (``sflp_stacks = 5 10 15`` in
  ``pytest.ini``, or ``[tool.pytest.ini_options]``), default 10.

Each game's referee is set up once per test session.
"""

from __future__ import annotations

import pytest

_CACHE: dict = {}


class RefereeFixture:
    """The referee of one game (see the module doc): ``config``, ``stack``, ``score(push, call)``
    (floats, :class:`sflp.Referee`), ``verify(policy)`` (exact, :func:`sflp.openspiel.verify`) and
    ``assert_nash_conv_below(policy, tol)`` (exact, :func:`sflp.testing.assert_nash_conv_below`)."""

    def __init__(self, config):
        from sflp.study.referee import Referee

        self.config = config
        self.stack = float(config.stack)
        self.referee = Referee(config)

    def __repr__(self) -> str:
        return f"sflp_referee({self.config!r})"

    def score(self, push, call):
        """Each player's best-response gain, their sum (``nash_conv``) and SB's value, in floats."""
        return self.referee.score(push, call)

    def score_many(self, push, call):
        return self.referee.score_many(push, call)

    def verify(self, policy, **kwargs):
        """The exact report of an OpenSpiel policy (or a policy file's path) in this game."""
        from sflp.openspiel import read_policy, verify

        if isinstance(policy, str):
            policy = read_policy(policy)
        return verify(policy, self.config, **kwargs)

    def assert_nash_conv_below(self, policy, tol: float, game=None):
        """Fail the test, naming the figures and costliest hands, unless the policy's exact
        ``nash_conv`` in this game is at most ``tol`` bb per hand."""
        from sflp.testing import assert_nash_conv_below

        return assert_nash_conv_below(policy, self.config, tol, game)


def _config(param):
    from sflp.core.game import GameConfig
    from sflp.errors import ConfigError

    if isinstance(param, GameConfig):
        return param
    if isinstance(param, bool) or not isinstance(param, (int, float)):
        raise pytest.UsageError(f"sflp_referee: {param!r} is no game: give a stack (10) or a GameConfig")
    try:
        return GameConfig(stack=float(param))
    except ConfigError as exc:
        raise pytest.UsageError(f"sflp_referee: {exc}") from None


def pytest_addoption(parser) -> None:
    parser.addini("sflp_stacks", "the stacks sflp_referee is run at when a test names none (default: 10)",
                  type="args", default=["10"])


def pytest_configure(config) -> None:
    config.addinivalue_line("markers", "sflp_stacks(*stacks): run the test's sflp_referee at these stacks")


def pytest_generate_tests(metafunc) -> None:
    if "sflp_referee" not in metafunc.fixturenames:
        return
    for mark in metafunc.definition.iter_markers("parametrize"):
        names = mark.args[0] if mark.args else mark.kwargs.get("argnames", "")
        names = [n.strip() for n in names.split(",")] if isinstance(names, str) else list(names)
        if "sflp_referee" in names:
            return  # parametrized by the test itself (indirect=True)
    marker = metafunc.definition.get_closest_marker("sflp_stacks")
    if marker is not None:
        stacks = list(marker.args)
        _check_marker(stacks, marker.kwargs)
    else:
        try:
            stacks = [float(s) for s in metafunc.config.getini("sflp_stacks")]
        except ValueError:
            raise pytest.UsageError(f"sflp_stacks = {' '.join(metafunc.config.getini('sflp_stacks'))}: expected "
                                    "stacks in bb, such as 5 10 15") from None
    metafunc.parametrize("sflp_referee", stacks, indirect=True, ids=[f"{float(getattr(s, 'stack', s)):g}bb"
                                                                     for s in stacks])


def _check_marker(stacks: list, kwargs: dict) -> None:
    """The arguments of ``@pytest.mark.sflp_stacks``: at least one, each a stack (a number) or a
    GameConfig; else the test file's collection fails with one message naming the marker and the
    bad argument, without a traceback through pytest (never a raw ValueError from the plugin)."""
    from sflp.checks import short
    from sflp.core.game import GameConfig

    usage = "give each stack as its own argument, a number or a GameConfig: @pytest.mark.sflp_stacks(5, 10, 15)"
    if kwargs or not stacks:
        given = ", ".join([*map(short, stacks), *(f"{k}={short(v)}" for k, v in kwargs.items())])
        pytest.fail(f"@pytest.mark.sflp_stacks({given}): {usage}", pytrace=False)
    from sflp.errors import ConfigError

    for s in stacks:
        if isinstance(s, GameConfig):
            continue
        hint = " (one text of several stacks?)" if isinstance(s, str) else ""
        if isinstance(s, (int, float)) and not isinstance(s, bool):
            try:  # the fixture's own game: nan, -5 or 0.5 (below the big blind) fail here, at collection
                GameConfig(stack=float(s))
                continue
            except (ConfigError, OverflowError) as exc:
                hint = f" ({' '.join(str(exc).split())})"
        pytest.fail(f"@pytest.mark.sflp_stacks: {short(s)} is no stack{hint}; {usage}", pytrace=False)


@pytest.fixture
def sflp_referee(request) -> RefereeFixture:
    """The referee of the test's game (module doc); set up once per game and session."""
    config = _config(getattr(request, "param", 10.0))
    key = tuple(sorted(config.as_dict().items()))
    if key not in _CACHE:
        _CACHE[key] = RefereeFixture(config)
    return _CACHE[key]
