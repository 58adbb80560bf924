"""The one payoff home (sflp.core.payoff): exact and float forms agree, every user takes it from there,
the payoffs match a hand settled chip by chip from the rules, and the game stays zero-sum."""

from __future__ import annotations

import ast
import pathlib
from fractions import Fraction as F

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from sflp.core.game import GameConfig, PushFoldGame, build_payoffs
from sflp.core.payoff import NODES, at_stack, showdown, stack_split, terminal_payoffs
from sflp.study.simulate import settle_hand

SFLP = pathlib.Path(__file__).resolve().parents[1] / "sflp"

# eighths, tenths, sevenths: the blinds and antes real structures use, and awkward denominators
amounts = st.sampled_from([F(0), F(1, 10), F(1, 8), F(1, 7), F(1, 4), F(3, 10), F(1, 2), F(1), F(2), F(5, 3)])


@st.composite
def configs(draw):
    bb = draw(st.sampled_from([F(1), F(2), F(1, 2), F(3, 2), F(10)]))
    sb = bb * draw(st.sampled_from([F(1, 2), F(2, 5), F(1), F(1, 3)]))
    ante, bb_ante = draw(amounts), draw(amounts)
    floor = bb + ante + bb_ante
    stack = floor + draw(st.sampled_from([F(0), F(1, 20), F(1), F(7, 3), F(10), F(97, 4), F(500)]))
    return GameConfig(stack=stack, small_blind=sb, big_blind=bb, ante=ante, bb_ante=bb_ante)


@settings(max_examples=60, deadline=None)
@given(configs())
def test_float_form_is_the_exact_form_rounded_once(config):
    exact = terminal_payoffs(config)
    floats = terminal_payoffs(config, float)
    assert set(exact) == set(floats) == set(NODES)
    for node in NODES:
        assert floats[node] == tuple(float(v) for v in exact[node]), node


@settings(max_examples=25, deadline=None)
@given(configs())
def test_float_matrix_agrees_with_the_exact_certificate_matrix(config):
    """The LP's float K (sflp.core.game) and the certificate's integer K (sflp.solving.certify) come from
    the same home; they agree to float precision on random blinds and antes."""
    from sflp.solving.certify import exact_payoffs

    game = PushFoldGame(config)
    ex = exact_payoffs(game)
    K_exact = np.asarray(ex.K_scaled, dtype=object)
    rows = [0, 12, 84, 168]  # AA, a suited ace, a middle hand, 32o (spot checks keep this fast)
    for i in rows:
        for j in rows:
            exact = F(int(K_exact[i, j]), ex.scale)
            assert abs(game.K[i, j] - float(exact)) <= 1e-12 * max(1.0, abs(float(exact))), (i, j)
    assert (game.f, game.g) == (float(ex.f), float(ex.g))


# A deal SB wins, one it loses, and one both play the board (a split), settled from the rules
DEALS = {"win": ("AhAd", "KcKs", "2c7d9hJs3c"), "lose": ("KcKs", "AhAd", "2c7d9hJs3c"),
         "tie": ("7h2d", "7c2s", "AcKdQhJsTc")}


@settings(max_examples=40, deadline=None)
@given(configs())
def test_every_terminal_node_matches_a_hand_settled_chip_by_chip(config):
    """sflp.study.simulate settles a dealt hand from the posts, the pot and the uncalled chips, without
    any payoff formula: each node of the home must be that settlement, and the chips put in must
    all come out again (what SB wins BB loses: the game is zero-sum)."""
    values = at_stack(terminal_payoffs(config), config.exact()["stack"])
    cases = {"fold": (*DEALS["win"], False, False), "steal": (*DEALS["win"], True, False)}
    cases.update({node: (*DEALS[node], True, True) for node in ("win", "lose", "tie")})
    S, sb, bb = float(config.stack), float(config.small_blind), float(config.big_blind)
    a, A = float(config.ante), float(config.bb_ante)
    tol = 1e-12 * S
    for node, (sb_cards, bb_cards, board, shoves, calls) in cases.items():
        s = settle_hand(config, sb_cards, bb_cards, board, shoves, calls)
        assert abs(s.sb_net - float(values[node])) <= tol, (node, s, values[node])
        # what each player put in, from the posting rules: SB its blind and ante (or all of its
        # stack when it shoves); BB its blind and both antes (or all of its stack when it calls)
        sb_put = S if shoves else sb + a
        bb_put = S if calls else bb + a + A
        # every chip put in comes out again (pot plus uncalled chips), so SB's gain is BB's loss
        assert abs((s.pot + s.returned_sb + s.returned_bb) - (sb_put + bb_put)) <= tol, (node, s)


def test_showdown_is_linear_in_the_node_values():
    """showdown(values at S) = showdown(constant) + S * showdown(per_stack): the stack split
    every float and exact user relies on (K = K0 + S K1)."""
    rng = np.random.default_rng(7)
    counts = [rng.integers(0, 10_000, size=(5, 5)) for _ in range(4)]
    terms = terminal_payoffs(GameConfig(stack=7, ante=F(1, 8), bb_ante=F(1, 7)))
    constant, per_stack = stack_split(terms)
    S = F(37, 3)
    whole = showdown(at_stack(terms, S), *[c.astype(object) for c in counts], 1000)
    parts = showdown(constant, *[c.astype(object) for c in counts], 1000) + \
        S * showdown(per_stack, *[c.astype(object) for c in counts], 1000)
    assert (whole == parts).all()


def test_game_matrices_are_the_home_in_floats():
    config = GameConfig(stack=10, ante=0.1, bb_ante=0.5)
    p = build_payoffs(config)
    t = terminal_payoffs(config, float)
    assert (p.f, p.g) == (t["fold"].constant, t["steal"].constant)
    # K1 is (W - L) / (D * B): the per-stack part of win (+1) and lose (-1)
    assert np.all(np.sign(p.K1) == -np.sign(p.K1.T))


FIELDS = {"small_blind", "big_blind", "ante", "bb_ante"}
# where a configuration's blinds and antes may be read: the home itself; the chip-by-chip referee
# (sflp.study.simulate, independent on purpose); the configuration's own class; presentation (the CLI's
# argument plumbing, text and report labels); the legality rule (the smallest stack); and the SC
# numbers' unit (the big blind, by which every chip amount is divided)
ALLOWED_FILES = {"payoff.py", "simulate.py", "format.py"}
PRESENTATION = {"output", "charts", "views", "atlas", "cli"}
"""The floors that present results (files, text, pictures) and parse arguments."""
ALLOWED_SCOPES = {"GameConfig", "summary", "_min_stack", "structure_text", "about_items", "sc_numbers"}


def test_no_module_but_the_home_reads_blinds_and_antes_into_a_payoff():
    """Every module that computes (the LP, best responses, certificate, exploit, SC, thresholds,
    the approximate solvers) takes its payoffs from sflp.core.payoff: none reads a blind or an ante
    of a configuration itself, outside f-string labels and the scopes listed above."""
    offenders = []
    for path in SFLP.rglob("*.py"):
        if path.name in ALLOWED_FILES or PRESENTATION & set(path.parts):
            continue
        tree = ast.parse(path.read_text())
        for node, scopes in _field_reads(tree):
            if not scopes & ALLOWED_SCOPES:
                offenders.append(f"{path.relative_to(SFLP.parent)}:{node.lineno}")
    assert not offenders, f"blinds/antes read outside sflp/core/payoff.py: {sorted(set(offenders))}"


def test_the_read_scanner_finds_a_payoff_stated_elsewhere():
    """The scanner above can fail: the way payoffs were stated before the home existed is found."""
    old = "def f(config):\n    a = float(config.ante)\n    return -(float(config.small_blind) + a)\n"
    assert len(list(_field_reads(ast.parse(old)))) == 2
    assert not list(_field_reads(ast.parse("def f(c):\n    return f'{c.ante:g}'\n")))


def _field_reads(tree):
    """``(node, enclosing scope names)`` of every read of a blind/ante field (attribute or
    ``["key"]``) that is not inside an f-string."""
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    for node in ast.walk(tree):
        attr = isinstance(node, ast.Attribute) and node.attr in FIELDS and isinstance(node.ctx, ast.Load)
        key = isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and node.slice.value in FIELDS
        if not (attr or key):
            continue
        scopes, up, in_fstring = set(), node, False
        while up in parents:
            up = parents[up]
            in_fstring |= isinstance(up, ast.JoinedStr)
            if isinstance(up, (ast.FunctionDef, ast.ClassDef)):
                scopes.add(up.name)
        if not in_fstring:
            yield node, scopes


def test_certificate_matrix_split_by_stack_is_the_matrix_at_the_stack():
    """The certificate keeps two integer matrices per blind structure and forms K at a stack as
    (den/den0)*KC + 2*den*S*KS; that must be the home's showdown of the node values at that stack,
    scaled by 2*den, for stacks whose denominators differ from the blinds' (7.77, 1/3, 12)."""
    import math

    from sflp.core.equity import BOARDS_PER_PAIR, load_table
    from sflp.solving.exact import _counts, exact_payoffs

    counts = _counts(load_table(), "class")
    arrays = tuple(a.astype(object) for a in (counts.wins, counts.ties, counts.losses, counts.pairs))
    for config in (GameConfig(stack=F(777, 100), ante=F(1, 8), bb_ante=F(1, 7)),
                   GameConfig(stack=F(10, 3), small_blind=F(2, 5)), GameConfig(stack=12, ante=0.1)):
        ex = exact_payoffs(PushFoldGame(config))
        cfg = config.exact()
        den = math.lcm(*(v.denominator for v in cfg.values()))
        values = {k: int(v * 2 * den) for k, v in at_stack(terminal_payoffs(config), cfg["stack"]).items()}
        expected = showdown(values, *arrays, BOARDS_PER_PAIR)
        assert ex.scale == 2 * den * 1326 * 1225 * BOARDS_PER_PAIR
        assert (np.asarray(ex.K_scaled, dtype=object) == expected).all()
