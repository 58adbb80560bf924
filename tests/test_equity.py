"""The exact equity table: identities, published enumerations, file integrity."""

import numpy as np
import pytest

from sflp.core import equity as eq
from sflp.core.cards import COMBO_DISJOINT, COMBO_INDEX, class_id, parse_combo
from sflp.core.evaluator import evaluate7
from sflp.errors import DataError, NotationError


def test_identities(table):
    w = table.wins.astype(np.int64)
    t = table.ties.astype(np.int64)
    d = COMBO_DISJOINT
    assert np.all((w + w.T + t)[d] == eq.BOARDS_PER_PAIR)  # wins(a,b)+wins(b,a)+ties = C(48,5)
    assert np.array_equal(t, t.T)  # ties are symmetric
    assert np.all(w[~d] == 0) and np.all(t[~d] == 0)
    assert d.sum() == 1_624_350  # ordered disjoint pairs


def test_published_enumerations(table):
    # GNU poker-eval: AdAc vs KhKs = 1,388,072 wins / 6,538 ties / 317,694 losses.
    assert table.combo_counts(parse_combo("AdAc"), parse_combo("KhKs")) == (1_388_072, 6_538, 317_694)
    # Seed document (rl-linear-q-shove-fold.txt) table: 6h2c vs 6c2s equity 0.496552.
    w, t, _ = table.combo_counts(parse_combo("6h2c"), parse_combo("6c2s"))
    assert abs((w + t / 2) / eq.BOARDS_PER_PAIR - 0.496552) < 5e-7


def test_class_pair_counts(table):
    assert table.class_pairs[class_id("AA"), class_id("KK")] == 36
    assert table.class_pairs[class_id("AA"), class_id("AKs")] == 12
    assert table.class_pairs[class_id("AA"), class_id("AA")] == 6
    assert table.class_pairs.sum() == 1326 * 1225


def _enumerate(a_cards, b_cards):
    """Wins and ties of combo a over combo b by direct enumeration of every board (no suit
    symmetry, no canonical boards): an independent check of the table build."""
    from itertools import combinations

    from sflp.core.equity_build import _board_values
    from sflp.core.evaluator import STRAIGHT_TOP

    rest = [c for c in range(52) if c not in (*a_cards, *b_cards)]
    boards = np.fromiter(itertools_chain(combinations(rest, 5)), dtype=np.int64).reshape(-1, 5)
    combos = np.array([sorted(a_cards), sorted(b_cards)], dtype=np.int64)
    vals = _board_values(boards, combos, STRAIGHT_TOP)
    assert len(boards) == eq.BOARDS_PER_PAIR
    return int((vals[:, 0] > vals[:, 1]).sum()), int((vals[:, 0] == vals[:, 1]).sum())


def itertools_chain(it):
    for board in it:
        yield from board


def test_full_enumeration_of_the_poker_eval_pair():
    # AdAc vs KhKs, GNU poker-eval: 1,388,072 wins and 6,538 ties
    assert _enumerate([49, 48], [46, 47]) == (1_388_072, 6_538)


# a full enumeration (about 0.8 s) a pair: one in the fast set, three under slow
@pytest.mark.parametrize("seed", [1, pytest.param(2, marks=pytest.mark.slow), pytest.param(3, marks=pytest.mark.slow)])
def test_random_pairs_against_direct_enumeration(table, seed):
    cards = np.random.default_rng(seed).choice(52, size=4, replace=False).tolist()
    a = COMBO_INDEX[cards[0], cards[1]]
    b = COMBO_INDEX[cards[2], cards[3]]
    w, t, _ = table.combo_counts(int(a), int(b))
    assert (w, t) == _enumerate(cards[:2], cards[2:])


def test_queries():
    r = eq.equity("AA", "KK")
    assert r.counts.pairs == 36 and r.counts.boards == 36 * eq.BOARDS_PER_PAIR
    # AA vs KK is about 81.95% in every published calculator (PokerStove, Equilab)
    assert abs(r.counts.equity - 0.8195) < 1e-4
    r = eq.equity("AhAd", "KcKs")
    assert r.counts.pairs == 1
    with pytest.raises(NotationError, match="share cards"):
        eq.equity("AhAd", "AhKs")
    d = eq.equity("QQ+,AKs", "22+").to_dict()
    assert set(d) == {"hand1", "hand2", "wins", "ties", "losses", "boards", "pairs", "equity"}
    assert d["wins"] + d["ties"] + d["losses"] == d["boards"] == d["pairs"] * eq.BOARDS_PER_PAIR


def test_corrupt_and_missing_table(tmp_path, table):
    with pytest.raises(DataError, match="missing"):
        eq.load_table_from(tmp_path)
    path = eq.write_table(table.wins, tmp_path)
    blob = bytearray(path.read_bytes())
    assert eq.load_table_from(tmp_path).sha256 == table.sha256  # deterministic bytes
    blob[-10] ^= 0xFF
    path.write_bytes(bytes(blob))
    with pytest.raises(DataError, match="corrupt.*sflp equity build"):
        eq.load_table_from(tmp_path)


def test_write_table_is_atomic(tmp_path, table, monkeypatch):
    # the table and its checksum go through sflp.atomic: no temporary file is left behind, and a
    # failed write leaves the previous table as it was (the writer raises OutputError, naming it)
    from sflp.errors import OutputError

    eq.write_table(table.wins, tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([eq.TABLE_NAME, eq.CHECKSUM_NAME])
    before = (tmp_path / eq.TABLE_NAME).read_bytes()

    def full_disk(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("sflp.atomic.os.replace", full_disk)
    with pytest.raises(OutputError, match="No space left"):
        eq.write_table(table.wins, tmp_path)
    assert (tmp_path / eq.TABLE_NAME).read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([eq.TABLE_NAME, eq.CHECKSUM_NAME])


def test_shipped_checksum_matches(table):
    assert table.sha256 == eq.read_checksum()


def test_evaluator_agrees_with_table_on_one_board():
    # On the board 2c 7d 9h Js Qc, AhAd beats KcKs and the table must count it among its wins.
    v1 = evaluate7(np.array([50, 49, 0, 21, 30, 39, 40]))
    v2 = evaluate7(np.array([44, 47, 0, 21, 30, 39, 40]))
    assert v1 > v2


@pytest.mark.slow
def test_build_from_scratch_reproduces_the_shipped_table(tmp_path):
    """`sflp equity build` is deterministic: a rebuild has the shipped SHA-256 (about 15-30 s).

    Run as a user would, without --json and with stderr a pipe (not a terminal): no progress bar
    may appear there, since bars are for terminals only."""
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-m", "sflp", "equity", "build", "--data-dir", str(tmp_path)],
                          capture_output=True, text=True, timeout=1200)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert eq.read_checksum(tmp_path) == eq.read_checksum()


@pytest.mark.slow  # exhaustive: all 2,598,960 boards (3-7 s); `sflp equity build`'s rebuild (slow) uses them too
def test_suit_distinct_boards():
    # 134,459 suit-distinct 5-card boards whose orbits cover all C(52,5) = 2,598,960 boards
    from sflp.core.equity_build import canonical_boards

    boards, orbit = canonical_boards()
    assert len(boards) == 134_459 and orbit.sum() == 2_598_960
    assert np.all(24 % orbit == 0)  # an orbit's size divides the 24 suit permutations


def _suit_permutations():
    from itertools import permutations

    from sflp.core.cards import COMBO_CARDS

    cards = COMBO_CARDS.astype(np.int64)
    for perm in permutations(range(4)):
        perm = np.array(perm)
        mapped = (cards >> 2) * 4 + perm[cards & 3]
        yield COMBO_INDEX[mapped[:, 0], mapped[:, 1]].astype(np.int64)


def test_table_is_invariant_under_suit_relabelling(table):
    # relabelling suits changes no hand's strength: wins[s(a), s(b)] == wins[a, b] for all 24 s
    for pc in _suit_permutations():
        assert np.array_equal(table.wins[np.ix_(pc, pc)], table.wins)


def test_suit_distinct_matchups():
    # 47,008 suit-distinct unordered matchups of two disjoint combos
    upper = np.argwhere(np.triu(COMBO_DISJOINT, 1))
    keys = None
    for pc in _suit_permutations():
        a, b = pc[upper[:, 0]], pc[upper[:, 1]]
        k = np.minimum(a, b) * 1326 + np.maximum(a, b)
        keys = k if keys is None else np.minimum(keys, k)
    assert len(np.unique(keys)) == 47_008
