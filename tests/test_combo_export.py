"""The combo-level game as a file (issue 33 §5): the ``.efg`` of :mod:`sflp.openspiel.combo`, read
here line by line and (slow) by OpenSpiel's own C++.

References: C(52, 2) = 1,326 starting hands, C(50, 2) = 1,225 left for the opponent, so
1,326 * 1,225 = 1,624,350 ordered deals (each of probability 1/1,624,350) and three terminals a
deal (fold, steal, showdown): 4,873,050.  Two disjoint combos leave C(48, 5) = 1,712,304 boards,
and the showdown pays SB ``(S*W - (S - A)*L + (A/2)*T) / 1,712,304`` (the table in
:mod:`sflp.core.game`'s doc: ``+S`` on a win, ``-(S - A)`` on a loss, ``+A/2`` on a tie).  A
class strategy played by every combo of the class has the class strategy's value (the class
game's payoffs are the combo game's averaged over the combos of each class pair), and SB's
best-response value against ``y`` is ``f + sum_i max(0, m_i)`` (:mod:`sflp.solving.certify`).
"""

from __future__ import annotations

import json
import os
from fractions import Fraction
from itertools import islice

import numpy as np
import pytest

from sflp.core.cards import BOARDS_PER_PAIR, COMBO_CARDS, N_COMBOS, combo_name
from sflp.core.equity import load_table
from sflp.core.game import DEALS, GameConfig, PushFoldGame
from sflp.errors import OutputError
from sflp.openspiel import combo
from sflp.openspiel.combo import (
    COMBO_NAMES,
    NPZ_ARRAYS,
    NPZ_FORMAT,
    TERMINALS,
    combo_efg_chunks,
    write_combo_efg,
    write_sequence_form,
)

CONFIG = GameConfig(stack=10, ante=0.125, bb_ante=0.25)
"""One structure with every payoff term: antes make the fold and steal differ from the blinds,
and a BB ante makes a tie pay SB ``A/2``."""


def test_sizes_are_the_counts_of_the_deal():
    assert DEALS == 1_624_350 == 1326 * 1225
    assert TERMINALS == 4_873_050 == 3 * DEALS
    assert BOARDS_PER_PAIR == 1_712_304
    assert COMBO_NAMES[0] == "2d2c" and COMBO_NAMES[-1] == "AsAh" and len(set(COMBO_NAMES)) == N_COMBOS


@pytest.fixture(scope="module")
def pieces():
    """The head and the pieces of SB's first three combos (the payoffs are made once)."""
    return list(islice(combo_efg_chunks(CONFIG), 4))


def test_head_names_the_structure_and_deals_sb_uniformly(pieces):
    lines = pieces[0].splitlines()
    assert lines[0] == ('EFG 2 R "sflp heads-up push/fold, combo level: stack 10 bb, SB 0.5, BB 1, ante 0.125, '
                        'BB ante 0.25" { "SB" "BB" }')
    assert lines[2] == "" and len(lines) == 4
    body = lines[3]
    assert body.startswith('c "" 1 "deal SB" { ') and body.endswith(" } 0")
    entries = body[len('c "" 1 "deal SB" { '):-len(" } 0")].split(" ")
    names, probs = entries[0::2], entries[1::2]
    assert names == [f'"{combo_name(k)}"' for k in range(N_COMBOS)]
    assert sum(Fraction(p) for p in probs) == 1 and set(probs) == {"1/1326"}


def exact_showdown(table, config, i, j) -> Fraction:
    """SB's showdown payoff of combo i against j, from the table's board counts (module doc)."""
    w, t, lose = table.combo_counts(i, j)
    exact = config.exact()
    stack, bb_ante = exact["stack"], exact["bb_ante"]
    return (stack * w - (stack - bb_ante) * lose + bb_ante / 2 * t) / BOARDS_PER_PAIR


@pytest.mark.parametrize("i", [0, 1, 2])
def test_each_sb_combo_deals_bb_the_disjoint_combos_with_exact_payoffs(pieces, i):
    table = load_table()
    lines = pieces[1 + i].splitlines()
    sb = combo_name(i)
    # BB's deal: its own chance information set, the 1,225 combos sharing no card with SB's
    head = f'c "" {i + 2} "deal BB | {sb}" {{ '
    assert lines[0].startswith(head) and lines[0].endswith(" } 0")
    entries = lines[0][len(head):-len(" } 0")].split(" ")
    cards = set(COMBO_CARDS[i].tolist())
    disjoint = [k for k in range(N_COMBOS) if not cards & set(COMBO_CARDS[k].tolist())]
    assert len(disjoint) == 1225
    assert entries[0::2] == [f'"{combo_name(k)}"' for k in disjoint]
    assert sum(Fraction(p) for p in entries[1::2]) == 1 and set(entries[1::2]) == {"1/1225"}
    assert len(lines) == 1 + 5 * 1225
    # f = -(sb + ante) = -0.625, g = bb + ante + BB ante = 1.375 (module doc of sflp.core.game)
    first_outcome = 3 + 1225 * i
    for n, j in enumerate(disjoint):
        deal = lines[1 + 5 * n: 6 + 5 * n]
        bb = combo_name(j)
        assert deal[:4] == [f'p "" 1 {i + 1} "{sb}" {{ "fold" "shove" }} 0', 't "" 1 "fold" { -0.625, 0.625 }',
                            f'p "" 2 {j + 1} "{bb}" {{ "fold" "call" }} 0', 't "" 2 "steal" { 1.375, -1.375 }']
        head = f't "" {first_outcome + n} "{sb} v {bb}" {{ '
        assert deal[4].startswith(head) and deal[4].endswith(" }")
        sb_pay, bb_pay = (float(v) for v in deal[4][len(head):-2].split(", "))
        expected = float(exact_showdown(table, CONFIG, i, j))  # the exact rational, rounded once
        assert sb_pay == expected and bb_pay == -expected


# ---------------------------------------------------------------- the output contract


def test_refuses_what_it_must_not_replace(tmp_path):
    foreign = tmp_path / "mine.efg"
    foreign.write_text("EFG 2 R \"someone else's game\" { \"A\" \"B\" }\n")
    with pytest.raises(OutputError, match="not written by sflp"):
        write_combo_efg(CONFIG, foreign)
    assert foreign.read_text().startswith("EFG 2 R \"someone else's")
    (tmp_path / "folder").mkdir()
    with pytest.raises(OutputError, match="is a folder"):
        write_combo_efg(CONFIG, tmp_path / "folder")
    link = tmp_path / "link.efg"
    link.symlink_to(foreign)
    with pytest.raises(OutputError, match="is a symlink"):
        write_combo_efg(CONFIG, link)
    if hasattr(os, "mkfifo"):
        fifo = tmp_path / "pipe.efg"
        os.mkfifo(fifo)
        with pytest.raises(OutputError, match="FIFO"):
            write_combo_efg(CONFIG, fifo)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder", "link.efg", "mine.efg", "pipe.efg"][
        : 4 if hasattr(os, "mkfifo") else 3]


def test_replaces_an_efg_of_its_own(tmp_path, monkeypatch):
    # the atomic replace, with a small stand-in for the 354 MB text: a second write replaces the
    # first, and a class-level .efg of sflp's is replaced too
    def small(config, table=None):
        yield f'{combo.COMBO_HEADER}: stack {config.stack:g} bb" {{ "SB" "BB" }}\n'
        yield "c ...\n"

    monkeypatch.setattr(combo, "combo_efg_chunks", small)
    target = tmp_path / "out" / "game.efg"
    first = write_combo_efg(GameConfig(stack=10), target)
    assert first.bytes == target.stat().st_size and "stack 10 bb" in target.read_text()
    write_combo_efg(GameConfig(stack=12), target)
    assert "stack 12 bb" in target.read_text()
    from sflp.openspiel import write_efg

    write_efg(GameConfig(stack=3), target)
    write_combo_efg(GameConfig(stack=4), target)
    assert "stack 4 bb" in target.read_text()
    assert sorted(p.name for p in target.parent.iterdir()) == ["game.efg"]  # no temporary twin left


# ---------------------------------------------------------------- OpenSpiel reads the whole file


def combo_policy(x, y) -> dict:
    """A combo-level OpenSpiel policy: SB shoves combo k with x[k] (fold 0, shove 1), BB calls
    combo k with y[k] (fold 0, call 2), under the information-state names of the module doc."""
    rows = {}
    for k, name in enumerate(COMBO_NAMES):
        rows[f"0-0-{k + 1}-{name}"] = [(0, 1 - float(x[k])), (1, float(x[k]))]
        rows[f"1-1-{k + 1}-{name}"] = [(0, 1 - float(y[k])), (2, float(y[k]))]
    return rows


def asymmetric(x, y):
    """A pair that is not suit-symmetric, from combo strategies ``x, y``: SB folds the aces with a
    spade and shoves every 7-2 with a heart half the time; BB calls every combo with the ace of
    spades and folds the red kings."""
    x2, y2 = x.copy(), y.copy()
    for k, name in enumerate(COMBO_NAMES):
        if name[0] == "A" and name[2] == "A" and "s" in name[1::2]:
            x2[k] = 0.0
        if sorted(name[0::2]) == ["2", "7"] and "h" in name[1::2]:
            x2[k] = 0.5
        if "As" in (name[:2], name[2:]):
            y2[k] = 1.0
        if name[0] == "K" and name[2] == "K" and set(name[1::2]) <= {"h", "d"}:
            y2[k] = 0.0
    return x2, y2


@pytest.mark.slow
def test_openspiel_loads_the_combo_efg_and_values_agree_with_sflp(tmp_path):
    pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (pip install 'open-spiel>=1.5')")
    from sflp.solving.certify import exact_figures
    from sflp.solving.solver import solve

    config = GameConfig(stack=10)
    summary = write_combo_efg(config, tmp_path / "combo.efg")
    assert summary.terminals == TERMINALS and summary.bytes == (tmp_path / "combo.efg").stat().st_size
    game = pyspiel.load_efg_game((tmp_path / "combo.efg").read_text())
    assert game.num_players() == 2 and game.num_distinct_actions() == 3
    solution = solve(config, exact=True)
    combos = PushFoldGame(config, None, "combo")
    x, y = combos.expand_to_combos(solution.sb_strategy), combos.expand_to_combos(solution.bb_strategy)
    value, sb_best, bb_best = (float(v) for v in exact_figures(combos, x, y))
    assert value == pytest.approx(float(solution.value_exact), abs=1e-12)

    def returns(sb, bb) -> float:
        policy = pyspiel.TabularPolicy(combo_policy(sb, bb))
        sb_value, bb_value = pyspiel.expected_returns(game.new_initial_state(), policy, -1, True)
        assert sb_value == pytest.approx(-bb_value, abs=1e-15)
        return sb_value

    assert returns(x, y) == pytest.approx(value, abs=1e-12)
    # suit symmetry: against a class strategy every combo of a class earns the same, so the class
    # equilibrium is one at combo level too (both best-response values are the value)
    assert sb_best == pytest.approx(value, abs=1e-12) and bb_best == pytest.approx(value, abs=1e-12)
    x2, y2 = asymmetric(x, y)
    value, sb_best, bb_best = (float(v) for v in exact_figures(combos, x2, y2))
    assert sb_best - value > 1e-6 and value - bb_best > 1e-6  # both can gain
    # sflp's combo-level best responses, played in OpenSpiel's game, reach sflp's exact values
    best_x, _ = combos.best_response_sb(y2)
    best_y, _ = combos.best_response_bb(x2)
    assert returns(x2, y2) == pytest.approx(value, abs=1e-12)
    assert returns(best_x, y2) == pytest.approx(sb_best, abs=1e-12)
    assert returns(x2, best_y) == pytest.approx(bb_best, abs=1e-12)


# ---------------------------------------------------------------- the sequence form (.npz)


@pytest.fixture(scope="module")
def npz(tmp_path_factory):
    """The .npz of CONFIG, written once, and every array of it read back."""
    path = tmp_path_factory.mktemp("npz") / "combo.npz"
    summary = write_sequence_form(CONFIG, path)
    assert summary.bytes == path.stat().st_size
    with np.load(path, allow_pickle=False) as data:
        assert sorted(data.files) == sorted(NPZ_ARRAYS)
        return path, {name: data[name] for name in data.files}


def test_npz_names_its_game_and_combos(npz):
    _, d = npz
    assert str(d["format"]) == NPZ_FORMAT
    structure = json.loads(str(d["structure"]))
    assert GameConfig(**{k: structure[k] for k in ("stack", "small_blind", "big_blind", "ante", "bb_ante")}) == CONFIG
    assert structure["exact"]["ante"] == "1/8" and structure["exact"]["bb_ante"] == "1/4"
    assert Fraction(structure["f"]) == Fraction(-5, 8) and Fraction(structure["g"]) == Fraction(11, 8)
    assert structure["deals"] == DEALS and structure["boards"] == BOARDS_PER_PAIR
    assert d["combos"].tolist() == [combo_name(k) for k in range(N_COMBOS)]


def test_npz_chance_weights_sum_to_one_exactly(npz):
    _, d = npz
    chance = d["chance"]
    dealt = chance > 0
    # 1,326 * 1,225 disjoint ordered pairs, each 1/DEALS: the weights sum to DEALS/DEALS = 1
    assert int(dealt.sum()) == DEALS and (dealt.sum(axis=1) == 1225).all() and (dealt.sum(axis=0) == 1225).all()
    assert set(chance[dealt].tolist()) == {float(Fraction(1, DEALS))}
    for k in (0, 700, 1325):
        cards = set(COMBO_CARDS[k].tolist())
        assert dealt[k].tolist() == [not cards & set(COMBO_CARDS[j].tolist()) for j in range(N_COMBOS)]


def test_npz_board_counts(npz):
    _, d = npz
    wins, ties = d["wins"].astype(np.int64), d["ties"].astype(np.int64)
    dealt = d["chance"] > 0
    losses = np.where(dealt, BOARDS_PER_PAIR - wins - ties, 0)
    # wins + ties + losses = 1,712,304 with losses >= 0, and i's losses are j's wins against i
    assert (losses[dealt] >= 0).all() and (wins[dealt] >= 0).all() and (ties[dealt] >= 0).all()
    assert ((wins + ties + losses)[dealt] == BOARDS_PER_PAIR).all()
    assert (losses == wins.T).all() and (ties == ties.T).all()
    assert not wins[~dealt].any() and not ties[~dealt].any()
    # GNU poker-eval's enumeration: AdAc v KhKs wins 1,388,072, ties 6,538, loses 317,694
    from sflp.core.cards import parse_combo

    a, k = parse_combo("AdAc"), parse_combo("KhKs")
    assert (wins[a, k], ties[a, k], losses[a, k]) == (1_388_072, 6_538, 317_694)


def test_npz_payoffs_are_the_exact_rationals_rounded_once(npz):
    _, d = npz
    structure = json.loads(str(d["structure"]))
    f, g = Fraction(structure["f"]), Fraction(structure["g"])
    stack, bb_ante = (Fraction(structure["exact"][k]) for k in ("stack", "bb_ante"))
    assert set(d["sb_fold"].tolist()) == {float(f / 1326)}
    dealt = d["chance"] > 0
    assert set(d["a_fold"][dealt].tolist()) == {float(g / DEALS)} and not d["a_fold"][~dealt].any()
    assert not d["a_call"][~dealt].any()
    rng = np.random.default_rng(33)
    pairs = [(i, j) for i, j in rng.integers(0, N_COMBOS, size=(400, 2)) if dealt[i, j]]
    for i, j in pairs + [(0, 101), (1325, 0)]:
        w, t = int(d["wins"][i, j]), int(d["ties"][i, j])
        lose = BOARDS_PER_PAIR - w - t
        c = (stack * w - (stack - bb_ante) * lose + bb_ante / 2 * t) / BOARDS_PER_PAIR
        assert d["a_call"][i, j] == float(c / DEALS)


def npz_figures(d, x, y) -> tuple[float, float, float]:
    """The value and both best-response values from the file's arrays (module doc)."""
    shove = d["a_fold"] @ (1 - y) + d["a_call"] @ y
    value = d["sb_fold"] @ (1 - x) + x @ shove
    sb_best = np.maximum(d["sb_fold"], shove).sum()
    bb_best = d["sb_fold"] @ (1 - x) + np.minimum(x @ d["a_fold"], x @ d["a_call"]).sum()
    return float(value), float(sb_best), float(bb_best)


def test_npz_values_agree_with_sflp_exact_figures(npz):
    from sflp.solving.certify import exact_figures
    from sflp.solving.solver import solve

    _, d = npz
    solution = solve(CONFIG, exact=True)
    combos = PushFoldGame(CONFIG, None, "combo")
    x, y = combos.expand_to_combos(solution.sb_strategy), combos.expand_to_combos(solution.bb_strategy)
    value, sb_best, bb_best = npz_figures(d, x, y)
    # the class equilibrium played by every combo: the class value, and (suit symmetry) no gain
    assert value == pytest.approx(float(solution.value_exact), abs=1e-12)
    assert sb_best == pytest.approx(value, abs=1e-12) and bb_best == pytest.approx(value, abs=1e-12)
    x2, y2 = asymmetric(x, y)
    exact = [float(v) for v in exact_figures(combos, x2, y2)]
    assert exact[1] - exact[0] > 1e-6 and exact[0] - exact[2] > 1e-6
    assert npz_figures(d, x2, y2) == pytest.approx(exact, abs=1e-12)


def test_npz_replaces_only_its_own(npz, tmp_path):
    path, _ = npz
    foreign = tmp_path / "theirs.npz"
    np.savez(foreign, format=np.array("someone else's"), data=np.arange(3))
    text = tmp_path / "notes.npz"
    text.write_text("not a zip\n")
    for target in (foreign, text):
        before = target.read_bytes()
        with pytest.raises(OutputError, match="not written by sflp"):
            write_sequence_form(CONFIG, target)
        assert target.read_bytes() == before
    link = tmp_path / "link.npz"
    link.symlink_to(path)
    with pytest.raises(OutputError, match="is a symlink"):
        write_sequence_form(CONFIG, link)
    with pytest.raises(OutputError, match="is a folder"):
        write_sequence_form(CONFIG, tmp_path)
    # a second write replaces sflp's own file: a new file renamed over it (a new inode)
    own = tmp_path / "own.npz"
    own.write_bytes(path.read_bytes())
    before = own.stat().st_ino
    write_sequence_form(CONFIG, own)
    assert own.stat().st_ino != before and own.read_bytes() == path.read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.npz", "notes.npz", "own.npz", "theirs.npz"]
