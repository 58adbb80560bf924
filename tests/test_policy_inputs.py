"""Hostile and careless inputs to the OpenSpiel bridge (issue 30, cases 7, 8, 10, 17, 21, 22, 23):
policy files and mappings, ``sflp.openspiel``'s public functions, and ``export efg``'s output.

Every refusal is sflp's own error (:class:`~sflp.errors.SflpError`), one line, naming the state,
the player or the file and quoting the bad value, shortened when huge.  Nothing here needs
OpenSpiel.  A test that could hang (a FIFO) runs the call in a thread or a process with a
timeout, so a regression fails instead of blocking the suite.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import sflp
from sflp.core.cards import CLASS_NAMES
from sflp.core.game import GameConfig
from sflp.errors import ConfigError, NotationError, OutputError, SflpError
from sflp.openspiel import efg as efg_module
from sflp.openspiel import from_strategy, info_state, read_policy, to_strategy, write_efg
from sflp.openspiel.efg import HEADER
from sflp.study.strategy import load_strategy

ROOT = Path(__file__).resolve().parent.parent
CONFIG = GameConfig(stack=10)
needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")

# SB shoves a third of the time with every hand, BB calls a quarter of the time: a valid policy
# whose every probability is exact in binary, built by hand (not by the code under test)
SB_PLAY, BB_PLAY = 0.375, 0.25


def policy(form: str = "pairs") -> dict:
    """The hand-made policy above: ``pairs`` as ``policy_table()`` gives it, ``ints`` as
    ``{action id: probability}``, ``json-keys`` as ``json.dump`` writes that (string keys),
    ``names`` as ``{action name: probability}``."""
    out = {}
    for n, hand in enumerate(CLASS_NAMES, start=1):
        for player, play, action, name in ((0, SB_PLAY, 1, "shove"), (1, BB_PLAY, 2, "call")):
            state = f"{player}-{player}-{n}-{hand}"
            if form == "pairs":
                out[state] = [(0, 1 - play), (action, play)]
            elif form == "ints":
                out[state] = {0: 1 - play, action: play}
            elif form == "json-keys":
                out[state] = {"0": 1 - play, str(action): play}
            else:
                out[state] = {"fold": 1 - play, name: play}
    return out


def refused(call, *needles, kind=ConfigError) -> str:
    """The message of ``kind`` that ``call()`` raises, checked to be one line holding every needle."""
    with pytest.raises(kind) as info:
        call()
    message = str(info.value)
    assert "\n" not in message and len(message) < 400, message
    for needle in needles:
        assert needle in message, message
    return message


def within(seconds: float, call):
    """``call()`` run in a thread: its result or exception, or a failure after ``seconds`` (a hang)."""
    box: dict = {}

    def target():
        try:
            box["result"] = call()
        except BaseException as exc:  # handed to the test
            box["error"] = exc

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"still blocked after {seconds} s"
    if "error" in box:
        raise box["error"]
    return box.get("result")


# ---------------------------------------------------------------- case 21: the forms a policy may take


@pytest.mark.parametrize("form", ["pairs", "ints", "json-keys", "names"])
def test_every_documented_form_reads_back_the_same_frequencies(form):
    s = to_strategy(policy(form))
    assert np.all(s.sb.class_freq == SB_PLAY) and np.all(s.bb.class_freq == BB_PLAY)


def test_an_int_keyed_policy_written_by_json_dump_is_read_back(tmp_path):
    """``json.dump`` writes ``{0: p}`` as ``{"0": p}``: the documented form, exactly as saved."""
    path = tmp_path / "policy.json"
    path.write_text(json.dumps(policy("ints")))
    assert '"0": 0.625' in path.read_text()  # what json.dump made of the int keys
    s = to_strategy(read_policy(path))
    assert np.all(s.sb.class_freq == SB_PLAY) and np.all(s.bb.class_freq == BB_PLAY)


@pytest.mark.parametrize("entry, needle", [
    ({"0": 0.5, "x": 0.5}, "unknown action 'x'"),
    ({"0": 0.5, "3": 0.5}, "unknown action '3'"),
    ({"0": 0.5, "01": 0.5}, "unknown action '01'"),
    ({"0": 0.5, "": 0.5}, "unknown action ''"),
    ({"fold": 0.5, "raise": 0.5}, "unknown action 'raise'"),
    # a string is an action exactly as json.dump writes it, or the lowercase name: nothing looser
    ({" 0": 0.5, "1": 0.5}, "unknown action ' 0'"),
    ({"0": 0.5, "1\n": 0.5}, "unknown action '1\\n'"),
    ({"0": 0.5, "SHOVE": 0.5}, "unknown action 'SHOVE'"),
    ({"Fold": 0.5, "1": 0.5}, "unknown action 'Fold'"),
    ({"0": 0.5, " shove ": 0.5}, "unknown action ' shove '"),
    ({"+0": 0.5, "1": 0.5}, "unknown action '+0'"),
    ({"0": 0.5, "\uff11": 0.5}, "unknown action '\uff11'"),
])
def test_other_action_strings_are_refused_naming_the_state_and_the_actions(entry, needle):
    table = policy()
    table["0-0-1-AA"] = entry
    refused(lambda: to_strategy(table), "policy state '0-0-1-AA'", needle, "SB has fold (0), shove (1)",
            "(as text exactly '0', '1' or 'fold', 'shove')")


def test_an_unknown_action_is_refused_even_at_probability_zero():
    table = policy()
    table["0-0-1-AA"] = [(0, 1.0), ("raise", 0.0)]
    refused(lambda: to_strategy(table), "'0-0-1-AA'", "unknown action 'raise'")


def test_the_other_players_action_is_allowed_at_zero_only():
    """OpenSpiel's Python tables list every action of the game, the other player's at 0."""
    table = policy()
    table["0-0-1-AA"] = [(0, 1 - SB_PLAY), (1, SB_PLAY), (2, 0.0)]
    assert to_strategy(table).sb.class_freq[0] == SB_PLAY
    table["0-0-1-AA"] = [(0, 0.5), (2, 0.5)]
    refused(lambda: to_strategy(table), "'0-0-1-AA'", "action 2 is call, which SB does not have")


# ---------------------------------------------------------------- case 22: duplicates and wrong types


@pytest.mark.parametrize("entry, needle", [
    ([(0, 0.5), ("0", 0.5)], "fold is listed twice (as 0 and '0')"),
    ([("fold", 1.0), (0, 0.0)], "fold is listed twice (as 'fold' and 0)"),
    ([(1, 0.5), (1, 0.5)], "shove is listed twice"),
    ({0: 0.5, "0": 0.5}, "fold is listed twice"),
    ({"shove": 0.5, "1": 0.5}, "shove is listed twice"),
])
def test_an_action_listed_twice_is_refused_not_summed(entry, needle):
    table = policy()
    table["0-0-1-AA"] = entry
    refused(lambda: to_strategy(table), "policy state '0-0-1-AA'", needle)


@pytest.mark.parametrize("probability, needle", [
    ("0.25", "'0.25', a string"),
    (True, "True, a bool"),
    (False, "False, a bool"),
    (None, "None, a NoneType"),
    ([0.25], "[0.25], a list"),
    (np.bool_(True), "a bool"),
])
def test_a_probability_that_is_not_a_number_is_refused(probability, needle):
    table = policy()
    table["1-1-169-22"] = [(0, 0.75), (2, probability)]
    refused(lambda: to_strategy(table), "policy state '1-1-169-22'", "of action 2", needle)


def test_a_probability_given_as_text_in_a_file_is_refused(tmp_path):
    table = {s: [[a, str(p)] for a, p in row] for s, row in policy().items()}
    path = tmp_path / "p.json"
    path.write_text(json.dumps(table))
    refused(lambda: to_strategy(read_policy(path)), "policy state '0-0-1-AA'", "'0.625', a string")


def test_duplicate_json_keys_are_refused_naming_the_state(tmp_path):
    text = json.dumps(policy("json-keys"))
    path = tmp_path / "p.json"
    # the same state twice (the last one would win silently)
    path.write_text(text.replace('{"0-0-1-AA": {"0": 0.625, "1": 0.375}',
                                 '{"0-0-1-AA": {"0": 0.625, "1": 0.375}, "0-0-1-AA": {"0": 1.0, "1": 0.0}', 1))
    refused(lambda: read_policy(path), "p.json'", "'0-0-1-AA' appears twice")
    # the same action twice inside a state
    path.write_text(text.replace('"0-0-2-AKs": {"0": 0.625, "1": 0.375}',
                                 '"0-0-2-AKs": {"0": 0.625, "1": 0.125, "1": 0.25}', 1))
    refused(lambda: read_policy(path), "p.json'", "policy state '0-0-2-AKs'", "the action '1' twice")


@pytest.mark.parametrize("probability, needle", [
    (10**400, "an integer of about 401 digits"),
    (10**5000, "an integer of about 5,001 digits"),  # too long even for repr
    (-(10**400), "outside [0, 1]"),
    (Fraction(10**400, 3), "outside [0, 1]"),
    (float("nan"), "nan, outside [0, 1]"),
    (float("inf"), "inf, outside [0, 1]"),
    (1.5, "1.5, outside [0, 1]"),
    (__import__("decimal").Decimal("NaN"), "outside [0, 1]"),
], ids=["10**400", "10**5000", "-10**400", "Fraction(10**400, 3)", "nan", "inf", "1.5", "Decimal(NaN)"])
def test_a_probability_out_of_range_is_refused_however_large(probability, needle):
    table = policy()
    table["0-0-1-AA"] = [(0, 0), (1, probability)]
    refused(lambda: to_strategy(table), "policy state '0-0-1-AA'", needle)


def test_exact_numbers_in_range_are_accepted():
    table = policy()
    table["0-0-1-AA"] = [(0, Fraction(5, 8)), (1, Fraction(3, 8))]
    table["0-0-2-AKs"] = [(np.int64(0), np.float32(0.625)), (np.int64(1), 0.375)]
    table["1-1-1-AA"] = [(0, 0), (2, 1)]  # ints, as JSON writes 0 and 1
    s = to_strategy(table)
    assert s.sb.class_freq[0] == s.sb.class_freq[1] == SB_PLAY and s.bb.class_freq[0] == 1.0


# ---------------------------------------------------------------- case 7: entries typed before they are iterated


class NoIteration(str):
    """A string that fails the test if anything iterates it character by character."""

    def __iter__(self):
        raise AssertionError("the entry was iterated")


class LongList(list):
    """A list that fails the test if it is iterated: its length alone must refuse it."""

    def __iter__(self):
        raise AssertionError("the entry was iterated")


def test_a_string_entry_is_refused_whole_never_iterated():
    table = policy()
    table["0-0-3-AQs"] = NoIteration("x" * 1_000_000)
    refused(lambda: to_strategy(table), "policy state '0-0-3-AQs'", "a string of 1,000,000 characters")


@pytest.mark.parametrize("entry, needle", [
    (LongList([(0, 0.5)] * 1_000_000), "1,000,000 entries, but the game has 3 actions"),
    ({n: 0.0 for n in range(4)}, "4 entries, but the game has 3 actions"),
    ([(0, 0.5), (1, 0.25), (2, 0.25), (0, 0.0)], "4 entries"),
    ([0.5, 0.5], "expected [(action, probability), ...]"),
    ([(0, 0.5, 1), (1, 0.5)], "expected [(action, probability), ...]"),
    ([[0, 0.5], "ab"], "expected [(action, probability), ...]"),
    (0.5, "got 0.5"),
    (None, "got None"),
    (iter([(0, 0.5), (1, 0.5)]), "expected [(action, probability), ...]"),
    ([({0}, 0.5), (1, 0.5)], "action {0} is a set"),
])
def test_an_entry_of_the_wrong_shape_is_refused_before_it_is_iterated(entry, needle):
    table = policy()
    table["0-0-3-AQs"] = entry
    refused(lambda: to_strategy(table), "'0-0-3-AQs'", needle)


def test_a_state_that_is_not_a_string_is_refused():
    table = policy()
    table[5] = [(0, 1.0)]
    refused(lambda: to_strategy(table), "policy state 5", "a string such as '0-0-2-AKs'")


def test_a_huge_state_name_is_quoted_short():
    table = policy()
    table["0-0-7-" + "x" * 1_000_000] = [(0, 1.0)]
    refused(lambda: to_strategy(table), "is not a state of sflp's exported game", "...")


def test_a_policy_file_with_one_long_string_entry_is_refused_fast(tmp_path):
    """The issue's repro, under the size cap (it used 45 MB when the cap was 50 MB; it is 4 MB
    now): the string used to be iterated character by character (37 s and 2.5 GB at 45 MB); now
    it is refused by its type.  At 20 MB the file is refused by its size before it is read."""
    table = policy()
    table["0-0-3-AQs"] = "x" * 3_500_000
    path = tmp_path / "long.json"
    path.write_text(json.dumps(table))
    start = time.perf_counter()
    refused(lambda: to_strategy(read_policy(path)), "policy state '0-0-3-AQs'", "a string of 3,500,000 characters")
    assert time.perf_counter() - start < 10  # about 0.05 s here; the old reader took seconds at this size
    table["0-0-3-AQs"] = "x" * 20_000_000
    path.write_text(json.dumps(table))
    refused(lambda: read_policy(path), "more than the 4,000,000 sflp reads there")


# ---------------------------------------------------------------- case 17: hostile policy files


@needs_fifo
def test_a_policy_fifo_is_refused_not_waited_on(tmp_path):
    fifo = tmp_path / "policy.json"
    os.mkfifo(fifo)
    with pytest.raises(ConfigError, match="'.*policy.json' is not a regular file"):
        within(30, lambda: read_policy(fifo))


@pytest.mark.parametrize("text, needle", [
    ('{"0-0-1-AA": [[0, ' + "1" * 5000 + "]]}", "an integer of 5,000 digits"),
    ('{"0-0-1-AA": [[0, ' + "1" * 4000 + "]]}", "an integer of 4,000 digits"),
    ('{"a": ' + "[" * 100_000 + "]" * 100_000 + "}", "nested too deeply"),
    ('{"a": ' + '{"b": ' * 100_000 + "1" + "}" * 100_000 + "}", "nested too deeply"),
    ('{"0-0-1-AA": [[0, NaN]]}', "NaN is not a JSON number"),
    ('{"0-0-1-AA": [[0, Infinity]]}', "Infinity is not a JSON number"),
    ('{"0-0-1-AA": [[0, 0.5]', "is not JSON"),
    ("[]", "expected a JSON object"),
    ("", "is not JSON"),
])
def test_hostile_policy_json_is_one_clear_error(tmp_path, text, needle):
    path = tmp_path / "p.json"
    path.write_text(text)
    refused(lambda: read_policy(path), "policy file", "p.json'", needle)


def test_a_policy_that_is_a_folder_missing_or_not_utf8_is_refused(tmp_path):
    refused(lambda: read_policy(tmp_path), "is not a regular file")
    refused(lambda: read_policy(tmp_path / "none.json"), "none.json' does not exist")
    (tmp_path / "latin.json").write_bytes(b'{"0-0-1-AA": "\xe9"}')
    refused(lambda: read_policy(tmp_path / "latin.json"), "latin.json' is not UTF-8")


def test_a_policy_over_the_size_cap_is_refused_before_it_is_read(tmp_path, monkeypatch):
    path = tmp_path / "p.json"
    path.write_text(json.dumps(policy()))
    monkeypatch.setattr(sflp.openspiel.policy_file, "MAX_POLICY_BYTES", 1000)
    refused(lambda: read_policy(path), "p.json'", "more than the 1,000")


# ---------------------------------------------------------------- case 23: sflp.openspiel's functions


@pytest.mark.parametrize("sb, bb, needles", [
    (np.full(169, 2.0), np.zeros(169), ("SB strategy", "AA is 2.0", "168 more", "in [0, 1]")),
    (np.zeros(169), np.full(169, np.nan), ("BB strategy", "AA is nan", "finite")),
    (np.r_[np.zeros(168), -0.5], np.zeros(169), ("SB strategy", "22 is -0.5")),
    (np.zeros(169), np.r_[np.zeros(100), np.inf, np.zeros(68)], ("BB strategy", f"{CLASS_NAMES[100]} is inf")),
    ("AA", np.zeros(169), ("SB strategy 'AA'", "load_strategy('AA', 'sb')")),
    (np.zeros(169), None, ("BB strategy None", "169 class frequencies")),
    (np.zeros(169), {"AA": 1}, ("BB strategy {'AA': 1}",)),
    ([10**400] * 169, np.zeros(169), ("SB strategy", "169 class frequencies")),
    (["x"] * 169, np.zeros(169), ("SB strategy",)),
    (np.zeros(168), np.zeros(169), ("SB strategy", "shape (168,)")),
    (np.zeros((13, 13)), np.zeros(169), ("SB strategy", "shape (13, 13)")),
], ids=["2.0", "nan", "-0.5", "inf", "'AA'", "None", "dict", "10**400", "'x'", "168", "13x13"])
def test_from_strategy_refuses_what_is_not_169_frequencies_in_0_1(sb, bb, needles):
    refused(lambda: from_strategy(sb, bb), *needles)


@pytest.mark.parametrize("sb, needles", [
    (np.array(["0.5"] * 169), ("SB strategy: an array of text (<U3)", "int or float dtype")),
    (np.full(169, 0.5 + 0j), ("SB strategy: an array of complex numbers (complex128)",)),
    ([0.5 + 0j] * 169, ("the frequency of AA is (0.5+0j), a complex",)),
    (np.ones(169, dtype=bool), ("SB strategy: an array of booleans",)),
    ([True] + [0.5] * 168, ("the frequency of AA is True, a bool",)),  # numpy would make it 1.0
    (["0.5"] * 169, ("the frequency of AA is '0.5', a str",)),
    (np.ma.masked_array(np.full(169, 0.5), mask=[True] + [False] * 168), ("a masked array with 1 masked entry",)),
    (np.ma.masked_array(np.full(169, 0.5), mask=True), ("a masked array with 169 masked entries",)),
], ids=["text array", "complex array", "complex list", "bool array", "bool in a list", "text list", "masked",
        "all masked"])
def test_from_strategy_takes_real_numbers_only(sb, needles):
    """issue 30's leftovers: numpy read text, dropped an imaginary part (a warning on stderr) and
    ignored a mask; a frequency is a real number, and True/False are not frequencies (as in a
    policy's probabilities)."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # not even numpy's ComplexWarning on the way
        refused(lambda: from_strategy(sb, np.zeros(169)), *needles)


def test_from_strategy_takes_every_kind_of_real_number_and_no_negative_zero():
    import math
    from decimal import Decimal

    import pandas as pd

    half = [(0, 0.5), (1, 0.5)]
    for sb in (np.full(169, 0.5, dtype=np.float32), np.full(169, 0.5, dtype=np.float16), [Fraction(1, 2)] * 169,
               [Decimal("0.5")] * 169, pd.Series(np.full(169, 0.5)), np.ma.masked_array(np.full(169, 0.5), mask=False)):
        assert from_strategy(sb, np.zeros(169))["0-0-1-AA"] == half, type(sb)
    table = from_strategy(np.ones(169, dtype=np.int8), [0] * 169)
    assert table["0-0-1-AA"] == [(0, 0.0), (1, 1.0)] and table["1-1-1-AA"] == [(0, 1.0), (2, 0.0)]
    table = from_strategy(np.full(169, -0.0), [-0.0] * 169)
    for state in ("0-0-1-AA", "1-1-169-22"):
        assert all(math.copysign(1.0, p) == 1.0 for _, p in table[state]), table[state]


def test_from_strategy_takes_strategy_specs_of_the_right_player_only():
    sb, bb = load_strategy("22+", "sb"), load_strategy("AA", "bb")
    table = from_strategy(sb, bb)
    assert table["0-0-169-22"] == [(0, 0.0), (1, 1.0)] and table["0-0-2-AKs"] == [(0, 1.0), (1, 0.0)]
    assert table["1-1-1-AA"] == [(0, 0.0), (2, 1.0)]
    refused(lambda: from_strategy(bb, sb), "the SB strategy given is BB's ('AA')")


def test_from_strategy_at_the_edges_of_0_1_round_trips():
    x = np.linspace(0, 1, 169)
    s = to_strategy(from_strategy(x, x[::-1]))
    assert np.array_equal(s.sb.class_freq, x) and np.array_equal(s.bb.class_freq, x[::-1])


def test_info_state_names_a_bad_player_or_hand():
    assert info_state("bb", "kas") == "1-1-2-AKs" and info_state(" SB ", "T9s") == info_state("sb", "T9s")
    refused(lambda: info_state("sb", "ZZ"), "'ZZ'", "not a hand class", kind=NotationError)
    refused(lambda: info_state("sb", "AK"), "'AK'", kind=NotationError)
    refused(lambda: info_state("sb", None), "hand=None", kind=NotationError)
    refused(lambda: info_state("xx", "AA"), "player='xx'", "'sb' or 'bb'")
    refused(lambda: info_state(0, "AA"), "player=0")


class BadTabular:
    """Looks like OpenSpiel's Python TabularPolicy, but its lookup points past its array."""

    state_lookup = {"0-0-1-AA": 5}
    action_probability_array = np.zeros((2, 3))


class BadTable:
    """Looks like a pyspiel.TabularPolicy whose table is not a mapping."""

    def policy_table(self):
        return 5


def _table():
    return from_strategy(np.ones(169), np.zeros(169))


API_ROWS = [
    ("read_policy(None)", lambda: read_policy(None), "path=None"),
    ("read_policy('')", lambda: read_policy(""), "path=''"),
    ("write_efg(cfg, None)", lambda: write_efg(CONFIG, None), "path=None"),
    ("write_efg(None, path)", lambda: write_efg(None, "/nonexistent-dir/x.efg"), "GameConfig"),
    ("to_strategy(None)", lambda: to_strategy(None), "NoneType"),
    ("to_strategy(table, source=5)", lambda: to_strategy(_table(), source=5), "source=5"),
    ("verify(table, None)", lambda: sflp.openspiel.verify(_table(), None), "config=None"),
    ("verify(table, 10)", lambda: sflp.openspiel.verify(_table(), 10), "config=10"),
    ("efg_text(10)", lambda: sflp.openspiel.efg_text(10), "GameConfig"),
    ("policy_rows('x' * 10**6)", lambda: sflp.openspiel.policy_rows("x" * 10**6), "str"),
    ("state_rows(policy, None)", lambda: sflp.openspiel.policy.state_rows(object(), None), "pass the game too"),
    ("to_strategy(bad TabularPolicy)", lambda: to_strategy(BadTabular()), "out of bounds"),
    ("to_strategy(policy_table() -> int)", lambda: to_strategy(BadTable()), "policy_table() gave a int"),
]


@pytest.mark.parametrize("call, needle", [(f, n) for _, f, n in API_ROWS], ids=[r[0] for r in API_ROWS])
def test_a_bad_argument_is_sflps_error_not_a_foreign_one(call, needle):
    with pytest.raises(SflpError) as info:
        call()
    assert needle in str(info.value), str(info.value)


# ---------------------------------------------------------------- cases 8 and 10: export efg's output


def test_a_name_too_long_is_refused_before_any_work(tmp_path, monkeypatch):
    monkeypatch.setattr(efg_module, "efg_text", lambda *a: pytest.fail("the game was built"))
    refused(lambda: write_efg(CONFIG, tmp_path / ("X" * 300 + ".efg")), "X" * 40, "choose a shorter name",
            kind=OutputError)
    assert list(tmp_path.iterdir()) == []


@needs_fifo
def test_a_fifo_target_is_refused_never_opened(tmp_path, monkeypatch):
    monkeypatch.setattr(efg_module, "efg_text", lambda *a: pytest.fail("the game was built"))
    fifo = tmp_path / "g.efg"
    os.mkfifo(fifo)
    with pytest.raises(OutputError, match=r"is a FIFO .*--out - writes the text to standard output"):
        within(30, lambda: write_efg(CONFIG, fifo))
    (tmp_path / "link.efg").symlink_to(fifo)
    with pytest.raises(OutputError, match=r"link.efg is a symlink.*--out - for standard output"):
        within(30, lambda: write_efg(CONFIG, tmp_path / "link.efg"))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.efg", "link.efg"]


def test_dev_stdout_and_devices_are_refused_pointing_to_out_dash(monkeypatch):
    monkeypatch.setattr(efg_module, "efg_text", lambda *a: pytest.fail("the game was built"))
    for target in ("/dev/stdout", "/dev/null"):
        if os.path.lexists(target):
            refused(lambda t=target: within(30, lambda: write_efg(CONFIG, t)), target, "--out -", kind=OutputError)


def test_a_symlink_to_an_sflp_file_is_not_replaced(tmp_path, monkeypatch):
    monkeypatch.setattr(efg_module, "efg_text", lambda *a: pytest.fail("the game was built"))
    real = tmp_path / "real.efg"
    real.write_text(HEADER + ': an sflp file"\n')
    (tmp_path / "link.efg").symlink_to(real)
    refused(lambda: write_efg(CONFIG, tmp_path / "link.efg"), "is a symlink", kind=OutputError)
    assert (tmp_path / "link.efg").is_symlink() and real.read_text() == HEADER + ': an sflp file"\n'


def test_an_existing_file_is_replaced_only_when_its_first_line_is_sflps(tmp_path, monkeypatch):
    monkeypatch.setattr(efg_module, "efg_text", lambda *a: HEADER + ': new"\n')
    ours, mine = tmp_path / "ours.efg", tmp_path / "mine.efg"
    ours.write_text(HEADER + ': old"\n')
    mine.write_text("EFG 2 R \"sflp\" but not ours\n")
    write_efg(CONFIG, ours)
    assert ours.read_text() == HEADER + ': new"\n'
    refused(lambda: write_efg(CONFIG, mine), "mine.efg exists and was not written by sflp", kind=OutputError)
    # however large a file is (a combo-level .efg is 354 MB), only its first bytes are read to prove it
    import sflp.inputs

    asked = []
    real_head = sflp.inputs.read_head
    monkeypatch.setattr(sflp.inputs, "read_head", lambda path, what, count, **kw: asked.append(count)
                        or real_head(path, what, count, **kw))
    big = tmp_path / "big.efg"
    with big.open("wb") as fh:
        fh.write(b"not sflp's")
        fh.truncate(2_000_000_000)  # sparse: 2 GB that take no room
    refused(lambda: write_efg(CONFIG, big), "big.efg exists and was not written by sflp", kind=OutputError)
    assert asked == [4096] and big.stat().st_size == 2_000_000_000
    assert ours.read_text() == HEADER + ': new"\n' and mine.read_text().endswith("not ours\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big.efg", "mine.efg", "ours.efg"]


def test_an_unwritable_place_is_refused_before_any_work(tmp_path, monkeypatch):
    monkeypatch.setattr(efg_module, "efg_text", lambda *a: pytest.fail("the game was built"))
    (tmp_path / "file").write_text("x")
    refused(lambda: write_efg(CONFIG, tmp_path / "file" / "g.efg"), "g.efg", kind=OutputError)
    refused(lambda: write_efg(CONFIG, tmp_path), "is a folder", kind=OutputError)


def cli(*args, timeout=120, **kwargs):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "sflp", *args], capture_output=True, text=True, env=env,
                          timeout=timeout, **kwargs)


def assert_one_line_error(run, needle):
    assert run.returncode == 2 and run.stdout == "", run.stderr
    assert run.stderr.startswith("sflp: error:") and run.stderr.count("\n") == 1, run.stderr
    assert "Traceback" not in run.stderr and needle in run.stderr, run.stderr


@needs_fifo
def test_cli_export_to_a_fifo_exits_2_at_once(tmp_path):
    fifo = tmp_path / "g.efg"
    os.mkfifo(fifo)
    assert_one_line_error(cli("export", "efg", "--stack", "10", "--out", str(fifo), timeout=60), "--out -")
    assert [p.name for p in tmp_path.iterdir()] == ["g.efg"]


def test_cli_export_to_stdout_stops_quietly_when_the_reader_goes(tmp_path):
    """``sflp export efg --out - | head -c 100``: exit 0, nothing on stderr, no file left."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "sflp", "export", "efg", "--stack", "10", "--out", "-"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path, env=env)
    head = proc.stdout.read(100)
    proc.stdout.close()  # the reader goes, as head does
    try:
        code = proc.wait(timeout=120)
    finally:
        proc.kill()
    stderr = proc.stderr.read()
    proc.stderr.close()
    assert head.startswith(HEADER.encode()) and code == 0 and stderr == b"", stderr
    assert list(tmp_path.iterdir()) == []
