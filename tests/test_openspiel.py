"""The OpenSpiel bridge (issue 23): the exported .efg read back by a parser written here and by
OpenSpiel's own C++, OpenSpiel policies scored exactly by sflp, and the two agreeing.

References: C(52, 2) = 1,326 starting hands and C(50, 2) = 1,225 hands left for the opponent;
a pair has 6 combos, a suited hand 4 and an offsuit hand 12 (so AA v AA has 6 card-disjoint
combo pairs, AKs v AKs 12, AA v KK 36 and AKo v AA 36).  OpenSpiel's ``nash_conv`` is the sum of
both players' best-response gains and its ``exploitability`` half of it (OpenSpiel,
``open_spiel/algorithms/tabular_exploitability.h``; Lanctot et al. 2017, arXiv:1711.00832).  The
OpenSpiel tests are skipped, saying so, where OpenSpiel is not installed (CI installs it with the
test extra).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import sflp
from sflp.core.cards import CLASS_NAMES
from sflp.core.game import GameConfig
from sflp.errors import ConfigError, OutputError
from sflp.openspiel import efg_text, from_strategy, info_state, to_strategy, write_efg

ROOT = Path(__file__).resolve().parent.parent
CONFIGS = [GameConfig(stack=2), GameConfig(stack=10), GameConfig(stack=25), GameConfig(stack=10, ante=0.125),
           GameConfig(stack=15, bb_ante=1), GameConfig(stack=7, small_blind=0.4, big_blind=0.8, ante=0.1)]
"""Stacks and blind structures of the cross-checks: no ante, antes, a big-blind ante, other blinds."""


# ---------------------------------------------------------------- an independent .efg reader


TOKEN = re.compile(r'"([^"]*)"|([{},])|([^\s{},"]+)')


def tokens(text: str) -> list[tuple[str, str]]:
    """Gambit's tokens: quoted strings (as ``("str", value)``), braces, commas and bare words."""
    # a brace, comma or word fills its group; a quoted string (even "") leaves both empty
    return [("sym", b or w) if b or w else ("str", q) for q, b, w in TOKEN.findall(text)]


class Node:
    def __init__(self, kind, name, player=None, infoset=None, infoset_name=None):
        self.kind, self.name, self.player, self.infoset, self.infoset_name = kind, name, player, infoset, infoset_name
        self.actions: list = []  # labels (player nodes) or (label, probability) (chance nodes)
        self.children: list[Node] = []
        self.outcome = None
        self.outcome_name = None
        self.payoffs = None


def parse_efg(text: str) -> tuple[dict, Node]:
    """The header and the tree of an .efg file, written from the Gambit format's description
    (a node kind letter, a name, then for chance ``c`` an info set and its actions with
    probabilities, for player ``p`` the player, an info set and its actions, for terminal ``t`` an
    outcome and its payoffs; nodes in pre-order)."""
    toks = list(tokens(text))
    pos = 0

    def take():
        nonlocal pos
        pos += 1
        return toks[pos - 1]

    assert [take()[1] for _ in range(3)] == ["EFG", "2", "R"]
    header = {"title": take()[1]}
    assert take() == ("sym", "{")
    players = []
    while (t := take()) != ("sym", "}"):
        players.append(t[1])
    header["players"] = players
    if toks[pos][0] == "str":
        header["comment"] = take()[1]

    def node() -> Node:
        kind = take()[1]
        name = take()[1]
        if kind == "t":
            n = Node("t", name)
            n.outcome = int(take()[1])
            if toks[pos][0] == "str":
                n.outcome_name = take()[1]
            assert take() == ("sym", "{")
            values = []
            while (t := take()) != ("sym", "}"):
                if t != ("sym", ","):
                    values.append(float(t[1]))
            n.payoffs = values
            return n
        player = int(take()[1]) if kind == "p" else None
        infoset = int(take()[1])
        n = Node(kind, name, player, infoset, take()[1] if toks[pos][0] == "str" else None)
        assert take() == ("sym", "{")
        while (t := take()) != ("sym", "}"):
            n.actions.append((t[1], Fraction(take()[1])) if kind == "c" else t[1])
        assert take()[1] == "0"  # no outcome on an inner node
        n.children = [node() for _ in n.actions]
        return n

    root = node()
    assert pos == len(toks)
    return header, root


@pytest.fixture(scope="module")
def parsed10():
    return parse_efg(efg_text(GameConfig(stack=10)))


def terminals(node: Node):
    if node.kind == "t":
        yield node
    for child in node.children:
        yield from terminals(child)


def tree_value(root: Node, x: dict, y: dict) -> float:
    """SB's expected payoff of the tree with SB shoving ``x[hand]`` and BB calling ``y[hand]``."""
    def value(n: Node, p: float) -> float:
        if n.kind == "t":
            return p * n.payoffs[0]
        if n.kind == "c":
            return sum(value(child, p * float(q)) for (_, q), child in zip(n.actions, n.children))
        play = (x if n.player == 1 else y)[n.infoset_name.split("@")[0]]  # "AA@10bb,...": the hand
        fold, act = n.children
        return value(fold, p * (1 - play)) + value(act, p * play)

    return value(root, 1.0)


# ---------------------------------------------------------------- the export, read independently


def test_the_file_states_the_game_and_its_information_sets(parsed10):
    header, root = parsed10
    assert header["players"] == ["SB", "BB"] and "stack 10 bb" in header["title"]
    assert root.kind == "c" and [label for label, _ in root.actions] == list(CLASS_NAMES)
    infosets = {1: {}, 2: {}}
    for deal in root.children:
        assert deal.kind == "c"
        for sb in deal.children:
            assert sb.kind == "p" and sb.player == 1 and sb.actions == ["fold", "shove"]
            bb = sb.children[1]
            assert bb.kind == "p" and bb.player == 2 and bb.actions == ["fold", "call"]
            for n in (sb, bb):
                assert infosets[n.player].setdefault(n.infoset, n.infoset_name) == n.infoset_name
    for player in (1, 2):  # each player's 169 information sets, numbered 1..169, named by class and game
        assert infosets[player] == {k + 1: f"{hand}@10bb,0.5/1,a0,bba0" for k, hand in enumerate(CLASS_NAMES)}


def nodes(node: Node):
    yield node
    for child in node.children:
        yield from nodes(child)


def test_gambits_rules_hold_one_chance_information_set_per_sb_class_and_no_node_label(parsed10):
    """Gambit (``doc/formats.efg.rst``; ``src/games/file.cc`` and ``game.h`` of pygambit 17) refuses
    a chance information set declared again with other probabilities, a non-empty node label used
    twice, and an information-set label used twice by one player (chance included); an outcome is
    one label and one payoff vector, and outcome labels are unique."""
    _, root = parsed10
    every = list(nodes(root))
    assert len(every) == 1 + 169 + 2 * 169 * 169 + 3 * 169 * 169
    assert all(n.name == "" for n in every)  # no node label at all: none repeated, and quick to read
    chance = [n for n in every if n.kind == "c"]
    assert [(n.infoset, n.infoset_name) for n in chance] == [(1, "deal SB")] + [
        (k + 2, f"deal BB | {hand}") for k, hand in enumerate(CLASS_NAMES)]  # each declared once
    assert [deal.infoset for deal in root.children] == list(range(2, 171))  # the BB deal follows SB's class
    labels: dict[tuple, set] = {}
    for n in every:
        if n.kind != "t":
            labels.setdefault((n.kind, n.player, n.infoset_name), set()).add(n.infoset)
    assert all(len(numbers) == 1 for numbers in labels.values())  # a label names one information set
    outcomes = {}
    for t in terminals(root):
        assert outcomes.setdefault(t.outcome, (t.outcome_name, t.payoffs)) == (t.outcome_name, t.payoffs)
    names = [name for name, _ in outcomes.values()]
    assert len(set(names)) == len(names) == 2 + 169 * 169 and names[:2] == ["fold", "steal"]


def test_chance_probabilities_are_the_exact_card_removal_probabilities(parsed10):
    _, root = parsed10
    sizes = {hand: 6 if len(hand) == 2 else 4 if hand.endswith("s") else 12 for hand in CLASS_NAMES}
    assert sum(q for _, q in root.actions) == 1
    assert all(q == Fraction(sizes[hand], 1326) for hand, q in root.actions)
    deal = {label: child for (label, _), child in zip(root.actions, root.children)}
    for node in root.children:
        assert sum(q for _, q in node.actions) == 1  # each conditional deal, exactly
    conditional = {(sb, bb): q for sb in ("AA", "AKs", "AKo") for bb, q in deal[sb].actions}
    assert conditional["AA", "AA"] == Fraction(6, 6 * 1225)
    assert conditional["AKs", "AKs"] == Fraction(12, 4 * 1225)
    assert conditional["AA", "KK"] == Fraction(36, 6 * 1225)
    assert conditional["AKo", "AA"] == Fraction(36, 12 * 1225)


@pytest.mark.parametrize("config, fold, steal", [
    (GameConfig(stack=10), -0.5, 1.0),  # SB loses its small blind / wins the big blind
    (GameConfig(stack=10, ante=0.125), -0.625, 1.125),  # ... and its ante / the big blind and BB's ante
    (GameConfig(stack=15, bb_ante=1), -0.5, 2.0),  # the BB ante is dead money SB takes
])
def test_fold_and_steal_payoffs(config, fold, steal):
    """Every fold and every steal terminal (outcomes 1 and 2) pays the same, read off the lines."""
    text = efg_text(config)
    for outcome, name, value in ((1, "fold", fold), (2, "steal", steal)):
        found = re.findall(rf'^t "" {outcome} "{name}" {{ (\S+), (\S+) }}$', text, re.M)
        assert set(found) == {(repr(value), repr(-value))} and len(found) == 169 * 169
        assert len(re.findall(rf'^t "" {outcome} ', text, re.M)) == 169 * 169  # no other line has the outcome


def test_showdown_payoffs_are_the_exact_equities_rounded_once(parsed10):
    """SB's showdown payoff without antes is S (W - L) / (W + T + L) over the pair's boards, from
    the exact board counts (AA v KK: 36 pairs, ~81.9% for AA, PokerStove)."""
    _, root = parsed10
    deal = {label: child for (label, _), child in zip(root.actions, root.children)}
    for sb_hand, bb_hand in (("AA", "KK"), ("AKs", "QQ"), ("72o", "AA"), ("AA", "AA")):
        r = sflp.equity(sb_hand, bb_hand)
        w, t, l = r.counts.wins, r.counts.ties, r.counts.losses
        node = next(c for (label, _), c in zip(deal[sb_hand].actions, deal[sb_hand].children) if label == bb_hand)
        call = node.children[1].children[1]
        assert call.payoffs == [float(Fraction(10 * (w - l), w + t + l)), -float(Fraction(10 * (w - l), w + t + l))]
    aa_kk = next(c for (label, _), c in zip(deal["AA"].actions, deal["AA"].children) if label == "KK")
    assert abs(aa_kk.children[1].children[1].payoffs[0] / 10 - (2 * 0.8195 - 1)) < 0.002


def test_zero_sum_and_one_payoff_vector_per_outcome(parsed10):
    _, root = parsed10
    by_outcome: dict[int, list[float]] = {}
    count = 0
    for t in terminals(root):
        count += 1
        assert t.payoffs[0] == -t.payoffs[1]
        assert by_outcome.setdefault(t.outcome, t.payoffs) == t.payoffs  # Gambit: an outcome is one vector
    assert count == 169 * 169 * 3


# fast: 10 bb (the module's parsed tree); slow: with an ante (a parse of its own, about 3 s; the fast
# set has OpenSpiel's own value of the ante trees in test_openspiel_finds_sflps_equilibrium_...)
@pytest.mark.parametrize("config", [CONFIGS[1], pytest.param(CONFIGS[3], marks=pytest.mark.slow)])
def test_the_tree_has_the_value_of_sflps_game(config, request):
    """The equilibrium played on the exported tree gives sflp's exact value (to float rounding).
    (The 10 bb tree is the module's parsed one: parsing a tree takes about 2 s.)"""
    _, root = request.getfixturevalue("parsed10") if config == GameConfig(stack=10) else parse_efg(efg_text(config))
    solution = sflp.solve(config, exact=True)
    x, y = solution.class_strategies()
    value = tree_value(root, dict(zip(CLASS_NAMES, x)), dict(zip(CLASS_NAMES, y)))
    assert abs(value - float(solution.value_exact)) < 1e-12


def test_info_state_names_follow_openspiels_rule():
    assert info_state("sb", "AA") == "0-0-1-AA" and info_state("bb", "22") == "1-1-169-22"


def test_write_efg_replaces_only_its_own_files(tmp_path):
    path = tmp_path / "g.efg"
    summary = write_efg(GameConfig(stack=10), path)
    assert summary.bytes == path.stat().st_size and summary.terminals == 169 * 169 * 3 and summary.info_sets == 338
    write_efg(GameConfig(stack=12), path)  # an sflp file: replaced
    assert "stack 12 bb" in path.read_text().splitlines()[0]
    mine = tmp_path / "mine.efg"
    mine.write_text('EFG 2 R "my own game" { "A" "B" }\n')
    with pytest.raises(OutputError, match="was not written by sflp"):
        write_efg(GameConfig(stack=10), mine)
    assert mine.read_text() == 'EFG 2 R "my own game" { "A" "B" }\n'
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.efg", "mine.efg"]  # no temporary file left


def sflp_cli(*args, env=None, cwd=None):
    return subprocess.run([sys.executable, "-m", "sflp", *args], capture_output=True, text=True, env=env, cwd=cwd)


def test_cli_export_writes_the_file_and_says_what_it_wrote(tmp_path, capsys):
    out = tmp_path / "g.efg"
    run = sflp_cli("export", "efg", "--stack", "10", "--ante", "0.125", "--out", str(out), "--json")
    assert run.returncode == 0, run.stderr
    info = json.loads(run.stdout)
    assert info["bytes"] == out.stat().st_size and info["ante"] == 0.125 and info["terminals"] == 85683
    assert out.read_text() == efg_text(GameConfig(stack=10, ante=0.125))
    piped = sflp_cli("export", "efg", "--stack", "10", "--out", "-")
    assert piped.returncode == 0 and piped.stdout == efg_text(GameConfig(stack=10))
    # the refusal through main in this process (tests/test_bad_inputs.py runs export's refusals fresh)
    from sflp.cli import main

    try:
        code = main(["export", "efg", "--stack", "0.5", "--out", str(tmp_path / "x.efg")])
    except SystemExit as exc:  # argparse's own refusals
        code = exc.code
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "--stack 0.5" in err
    assert not (tmp_path / "x.efg").exists()


# ---------------------------------------------------------------- policies as sflp strategies (no OpenSpiel)


def _equilibrium_table(config, named=False):
    """sflp's equilibrium as a policy table: with ``named`` its states name the game, as the
    exported game's do (what OpenSpiel's TabularPolicy on that game needs), else the bare states
    of an older export (``"0-0-1-AA"``), which the tests below edit by name."""
    x, y = sflp.solve(config).class_strategies()
    return from_strategy(x, y, config=config if named else None), x, y


def test_a_mapping_policy_reads_back_as_the_strategies_it_came_from():
    table, x, y = _equilibrium_table(GameConfig(stack=10))
    s = to_strategy(table)
    assert np.array_equal(s.sb.class_freq, x) and np.array_equal(s.bb.class_freq, y)
    named = {state: {"fold": row[0][1], ("shove" if state.startswith("0") else "call"): row[1][1]}
             for state, row in table.items()}
    assert np.array_equal(to_strategy(named).sb.class_freq, x)


@pytest.mark.parametrize("change, message", [
    (lambda t: t.pop("1-1-169-22"), "no entry for information state '1-1-169-22'"),
    (lambda t: t.__setitem__("0-0-1-AA", [(0, 0.5), (2, 0.5)]),
     "action 2 is call, which SB does not have; SB has fold (0), shove (1)"),
    (lambda t: t.__setitem__("0-0-1-AA", [(0, 0.5), ("raise", 0.5)]), "unknown action 'raise'"),
    (lambda t: t.__setitem__("0-0-1-AA", [(0, 0.5), (1, 0.6)]), "sum to 1.1, not 1"),
    (lambda t: t.__setitem__("0-0-1-AA", [(0, -0.5), (1, 1.5)]), "outside [0, 1]"),
    (lambda t: t.__setitem__("0-0-7-AKs", [(0, 1.0)]), "'0-0-7-AKs' is not a state of sflp's exported game"),
    (lambda t: t.__setitem__("0-0-1-AA", [(0, 0.5, 1), (1, 0.5)]), "expected [(action, probability), ...]"),
    (lambda t: t.__setitem__("0-0-1-AA", 0.5), "expected [(action, probability), ...]"),
])
def test_a_bad_policy_gets_one_clear_error(change, message):
    table, _, _ = _equilibrium_table(GameConfig(stack=10))
    change(table)
    with pytest.raises(ConfigError, match=re.escape(message)):
        to_strategy(table)


def test_an_action_of_the_other_player_at_zero_is_allowed():
    """OpenSpiel's Python tables list every action id of the game, the other player's at 0."""
    table, x, _ = _equilibrium_table(GameConfig(stack=10))
    table["0-0-1-AA"] = [*table["0-0-1-AA"], (2, 0.0)]
    assert to_strategy(table).sb.class_freq[0] == x[0]


def test_exact_verify_identities_and_a_fold_everything_strategy():
    config = GameConfig(stack=10)
    table, _, _ = _equilibrium_table(config)
    report = sflp.openspiel.verify(table, config)
    ex = report.exact
    assert ex["nash_conv"] == ex["sb_gain"] + ex["bb_gain"] == ex["sb_exploitability"] + ex["bb_exploitability"]
    assert abs(ex["nash_conv"]) < Fraction(1, 10**9)  # the LP's float equilibrium: exploitable by ~1e-15 at most
    folds = {s: ([(0, 1.0), (1, 0.0)] if s.startswith("0") else row) for s, row in table.items()}
    r = sflp.openspiel.verify(folds, config)
    assert r.exact["value_vs_each_other"] == Fraction(-1, 2)  # SB folding always loses its small blind
    assert r.exact["bb_gain"] == 0  # nothing to gain against a player who never shoves
    assert r.exact["sb_gain"] == r.exact["sb_gain"] + r.exact["bb_gain"] == r.exact["nash_conv"]


def test_all_in_against_all_call_is_worth_exactly_zero():
    """With no ante the deal is symmetric, so shoving everything into a BB calling everything is
    worth 0 to SB exactly, at any stack."""
    for stack in (3, 10, 40):
        ones = from_strategy(np.ones(169), np.ones(169))
        assert sflp.openspiel.verify(ones, GameConfig(stack=stack)).exact["value_vs_each_other"] == 0


def test_cli_verify_scores_a_policy_file_without_openspiel(tmp_path):
    table, _, _ = _equilibrium_table(GameConfig(stack=10))
    table["0-0-169-22"] = [(0, 0.25), (1, 0.75)]  # a small mistake: 22 is always shoved at 10 bb
    path = tmp_path / "policy.json"
    path.write_text(json.dumps(table))
    env = {**__import__("os").environ, "PYTHONPATH": str(ROOT)}
    code = "import sys; sys.modules['pyspiel'] = None; from sflp.cli import run; run()"
    run = subprocess.run([sys.executable, "-c", code, "verify", "--stack", "10", "--policy", str(path), "--json"],
                         capture_output=True, text=True, env=env)
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    nash_conv = Fraction(out["exact"]["nash_conv"])
    assert nash_conv > 0 and out["nash_conv"] == float(nash_conv)
    assert Fraction(out["exact"]["sb_gain"]) + Fraction(out["exact"]["bb_gain"]) == nash_conv
    assert out["nash_conv_mbb"] == float(nash_conv * 1000)
    worst = max((h for h in out["hands"] if h["player"] == "sb"), key=lambda h: h["ev_lost"])
    assert worst["hand"] == "22" and worst["given"] == 0.75
    both = sflp_cli("verify", "--stack", "10", "--policy", str(path), "--sb", "30%")
    assert both.returncode == 2 and "not both" in both.stderr


def test_without_openspiel_the_commands_say_how_to_install_it(tmp_path):
    env = {**__import__("os").environ, "PYTHONPATH": str(ROOT)}
    code = "import sys; sys.modules['pyspiel'] = None; from sflp.cli import run; run()"
    run = subprocess.run([sys.executable, "-c", code, "approx-bench", "--openspiel", "--stacks", "10",
                          "--out", str(tmp_path / "atlas")], capture_output=True, text=True, env=env)
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.count("\n") == 1 and "pip install 'open-spiel>=1.5'" in run.stderr
    assert not (tmp_path / "atlas").exists()
    code = ("import sys; sys.modules['pyspiel'] = None; import sflp.openspiel as o, sflp\n"
            "try:\n    o.load_game(sflp.GameConfig(stack=10))\nexcept sflp.ConfigError as e:\n    print(e)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env).stdout
    assert "pip install 'open-spiel>=1.5'" in out and "sflp[openspiel]" not in out  # sflp is not on PyPI


# ---------------------------------------------------------------- against OpenSpiel's own C++



def test_openspiel_loads_the_game_as_documented(spiel):
    game = sflp.openspiel.load_game(GameConfig(stack=10))
    assert game.num_players() == 2 and game.num_distinct_actions() == 3
    assert game.get_type().utility == spiel.GameType.Utility.ZERO_SUM
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 169
    state = state.child(1).child(0)  # SB dealt AKs (class 2), BB dealt AA
    assert state.information_state_string() == "0-0-2-AKs@10bb,0.5/1,a0,bba0"  # the state names its game
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["fold", "shove"]
    state = state.child(1)
    assert state.information_state_string() == "1-1-1-AA@10bb,0.5/1,a0,bba0"
    assert {state.action_to_string(a): a for a in state.legal_actions()} == {"fold": 0, "call": 2}


# about 1.2 s a structure: the fast set checks the four kinds (no ante, an ante, a big-blind ante,
# other blinds), the slow set the other two stacks (2 and 25 bb) as well
@pytest.mark.parametrize("config", [pytest.param(c, marks=pytest.mark.slow) if c.stack in (2, 25) else c
                                    for c in CONFIGS])
def test_openspiel_finds_sflps_equilibrium_unexploitable_and_agrees_on_its_value(spiel, config):
    game = sflp.openspiel.load_game(config)
    table, _, _ = _equilibrium_table(config, named=True)
    policy = spiel.TabularPolicy(table)
    assert abs(spiel.nash_conv(game, policy)) <= 1e-9
    values = spiel.expected_returns(game.new_initial_state(), policy, -1, True)
    value = float(sflp.solve(config, exact=True).value_exact)
    assert abs(values[0] - value) <= 1e-9 and abs(values[1] + value) <= 1e-9


# Fast: 3 iterations at 10 bb (a far-from-equilibrium policy checks the same equalities, about 2 s).
# Slow: the 200 iterations the README and docs/OPENSPIEL.md name, about 30 s each on 2 cores.
@pytest.mark.parametrize("config, iterations", [
    (GameConfig(stack=10), 3),
    pytest.param(GameConfig(stack=10), 200, marks=pytest.mark.slow),
    pytest.param(GameConfig(stack=8, ante=0.125), 200, marks=pytest.mark.slow)])
def test_after_200_cfr_plus_iterations_openspiel_and_sflp_agree_on_the_exploitability(spiel, config, iterations):
    """OpenSpiel's nash_conv of its CFR+ average policy equals sflp's exact exploitability of it,
    and its exploitability is half of that (module doc)."""
    game = sflp.openspiel.load_game(config)
    solver = spiel.CFRPlusSolver(game)
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    average = solver.tabular_average_policy()
    theirs = spiel.nash_conv(game, average)
    report = sflp.openspiel.verify(average, config)
    ours = report.exact["nash_conv"]
    assert ours > 0 and abs(theirs - float(ours)) <= 1e-9 * float(ours)
    assert abs(spiel.exploitability(game, average) - float(ours) / 2) <= 1e-9 * float(ours)
    # the live view of the solver (a pyspiel.Policy, read state by state) gives the same strategies
    live, table = to_strategy(solver.average_policy(), game), to_strategy(average)
    assert np.allclose(live.sb.class_freq, table.sb.class_freq, atol=1e-15)
    assert np.allclose(live.bb.class_freq, table.bb.class_freq, atol=1e-15)


def test_every_kind_of_policy_reads_back(spiel):
    from open_spiel.python import policy as policy_lib

    config = GameConfig(stack=10)
    game = sflp.openspiel.load_game(config)
    table, x, y = _equilibrium_table(config, named=True)
    python_policy = policy_lib.TabularPolicy(game)
    for state, row in table.items():
        for action, p in row:
            python_policy.policy_for_key(state)[action] = p
    for policy, g in ((spiel.TabularPolicy(table), None), (python_policy, None), (python_policy, game)):
        s = to_strategy(policy, g)
        assert np.array_equal(s.sb.class_freq, x) and np.array_equal(s.bb.class_freq, y)
    s = to_strategy(spiel.UniformRandomPolicy(game))  # a table of its own
    assert np.all(s.sb.class_freq == 0.5) and np.all(s.bb.class_freq == 0.5)
    solver = spiel.CFRPlusSolver(game)
    solver.evaluate_and_update_policy()
    with pytest.raises(ConfigError, match="pass the game too"):  # a view into the solver, read state by state
        to_strategy(solver.average_policy())
    assert to_strategy(solver.average_policy(), game).sb.class_freq.shape == (169,)


@pytest.mark.parametrize("iterations", [3, pytest.param(None, marks=pytest.mark.slow)],
                         ids=["3-iterations", "as-written"])
def test_the_openspiel_page_example_runs(spiel, capsys, iterations):
    """docs/OPENSPIEL.md's example: export, CFR+ in OpenSpiel, scored by sflp.  Slow: run as
    written (50 CFR+ iterations); fast: the same code with 3 iterations."""
    page = (ROOT / "docs" / "OPENSPIEL.md").read_text()
    block = re.search(r"<!-- openspiel-example -->\s*```python\n(.*?)```", page, re.S)
    assert block, "docs/OPENSPIEL.md's OpenSpiel example block"
    code = block[1]
    if iterations is not None:
        assert code.count("for _ in range(50):") == 1, "the page's CFR+ loop"
        code = code.replace("for _ in range(50):", f"for _ in range({iterations}):")
    exec(compile(code, "docs/OPENSPIEL.md", "exec"), {})
    out = capsys.readouterr().out
    ours = float(re.search(r"sflp nash_conv\s+([0-9.e+-]+)", out)[1])
    theirs = float(re.search(r"OpenSpiel nash_conv\s+([0-9.e+-]+)", out)[1])
    assert ours > 0 and abs(ours - theirs) <= 1e-9 * ours


@pytest.mark.slow  # ~6 s of OpenSpiel's solvers; fast: the issue-45 workflow scores CFR+ (test_policy_names_game.py)
def test_the_atlas_runs_every_openspiel_method_and_scores_it_exactly(spiel, tmp_path):
    from sflp.openspiel.atlas import OPENSPIEL_METHODS, openspiel_bench

    results = openspiel_bench([10], seconds=0.05, methods=[m for m in OPENSPIEL_METHODS if "xfp" not in m])
    assert [r.method for r in results] == [m for m in OPENSPIEL_METHODS if "xfp" not in m]
    config = GameConfig(stack=10)
    game = sflp.core.game.PushFoldGame(config)
    for r in results:
        last = r.final
        assert r.iterations >= 1 and last.iteration == r.iterations
        total = game.exploitability(r.sb_strategy, r.bb_strategy)  # the float yardstick, independently
        assert abs(last.total_exploitability - total) <= 1e-12
