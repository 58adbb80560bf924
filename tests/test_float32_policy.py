"""Issue 52, point 3: a policy exported in float32 (what deep-RL code writes) is scored, not refused.

A float32 softmax sums to 1 only within a float32 rounding (about 6e-8).  sflp renormalises such
a policy exactly -- each state's probabilities over their sum, in fractions of the floats' exact
binary values -- and says so once on stderr; a sum farther than 1e-6 is still refused, naming the
state.  The reference is computed here from the file's numbers with Python's ``fractions`` and
:func:`sflp.solving.exact.exact_figures` (which takes fractions as they are), not by the reader
under test.
"""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest

import sflp
from sflp.cli.main import main
from sflp.core.cards import CLASS_NAMES
from sflp.core.game import GameConfig, PushFoldGame
from sflp.errors import ConfigError
from sflp.openspiel import PolicyRenormalised, info_state, read_policy
from sflp.solving.exact import exact_figures

CONFIG = GameConfig(stack=5)


def _softmax32(logits: np.ndarray) -> np.ndarray:
    """Softmax computed in float32 throughout, as a float32 network's last layer does."""
    z = np.exp(logits - logits.max(axis=1, keepdims=True))
    return z / z.sum(axis=1, keepdims=True, dtype=np.float32)


@pytest.fixture(scope="module")
def float32_table():
    """A policy table of the class game, each state's (fold, play) a float32 softmax of random
    float32 logits, written as JSON writes the floats (their float64 values, exact)."""
    rng = np.random.default_rng(52)
    probs = {p: _softmax32(rng.normal(0.0, 2.0, (169, 2)).astype(np.float32)) for p in ("sb", "bb")}
    assert probs["sb"].dtype == np.float32
    play_id = {"sb": 1, "bb": 2}
    table = {info_state(p, hand, CONFIG): [(0, float(probs[p][k, 0])), (play_id[p], float(probs[p][k, 1]))]
             for p in ("sb", "bb") for k, hand in enumerate(CLASS_NAMES)}
    return json.loads(json.dumps(table))


def _reference(table):
    """The exact figures of the renormalised policy: play / (fold + play) in fractions."""
    freq = {}
    for p in ("sb", "bb"):
        pairs = [table[info_state(p, hand, CONFIG)] for hand in CLASS_NAMES]
        freq[p] = [Fraction(play) / (Fraction(fold) + Fraction(play)) for (_, fold), (_, play) in pairs]
    value, sb_br, bb_br = exact_figures(PushFoldGame(CONFIG, None, "class"), freq["sb"], freq["bb"])
    return value, sb_br - bb_br


def _worst_sum(table) -> Fraction:
    return max(abs(sum(Fraction(q) for _, q in pairs) - 1) for pairs in table.values())


def test_a_float32_softmax_is_scored_as_its_exact_renormalisation(float32_table, tmp_path):
    worst = _worst_sum(float32_table)
    assert 1e-9 < worst < 1e-6  # a real float32 rounding: refused before, within the new tolerance
    path = tmp_path / "policy.json"
    path.write_text(json.dumps(float32_table))
    with pytest.warns(PolicyRenormalised) as seen:
        report = sflp.openspiel.verify(read_policy(path), CONFIG)
    assert len(seen) == 1 and "renormalised" in str(seen[0].message)
    assert "the probabilities of the policy sum" in str(seen[0].message), seen[0].message  # not "of dict"
    assert seen[0].message.worst == float(worst)
    value, nash_conv = _reference(float32_table)
    assert report.exact["value_vs_each_other"] == value
    assert report.exact["nash_conv"] == nash_conv


def test_the_cli_says_once_how_far_the_worst_sum_was(float32_table, tmp_path, capsys):
    folder = tmp_path / "policies"
    folder.mkdir()
    for it in (1, 2):
        (folder / f"5bb_it{it}.json").write_text(json.dumps(float32_table))
    code = main(["verify", "--policy-dir", str(folder)])
    out, err = capsys.readouterr()
    assert code == 0, err
    warnings = [" ".join(said.split()) for said in err.replace("\n  ", " ").splitlines()  # wrapped to the width
                if said.startswith("sflp: warning:")]
    assert len(warnings) == 1 and "renormalised" in warnings[0] and "float32" in warnings[0], err
    assert f"{float(_worst_sum(float32_table)):.3g}" in warnings[0]
    assert "warning" not in out


def test_a_sum_off_by_1e_5_is_still_refused_naming_the_state(float32_table):
    table = dict(float32_table)
    state = info_state("bb", "AKs", CONFIG)
    table[state] = [(0, 0.5), (2, 0.5 + 1e-5)]
    with pytest.raises(ConfigError, match="1e-06") as info:
        sflp.openspiel.to_strategy(table)
    assert "policy state '1-1-2-AKs'" in str(info.value) and "\n" not in str(info.value)


def test_the_tracker_says_it_once_however_many_iterates_it_scores(float32_table, tmp_path):
    """A float32 trainer's every iterate is renormalised: the Tracker warns at the first, not at each
    (the warnings' texts differ, so Python's own once-per-text filter would repeat them)."""
    with pytest.warns(PolicyRenormalised) as seen:
        with sflp.Tracker(CONFIG, tmp_path / "curves", notify=lambda message: None) as tracker:
            for it in (1, 2, 3):
                table = {state: [(a, float(np.float32(q * (1 + it * 1e-8)))) for a, q in pairs]
                         for state, pairs in float32_table.items()}
                tracker.record(it, table)
    assert len(tracker.rows) == 3
    assert len([w for w in seen if issubclass(w.category, PolicyRenormalised)]) == 1, [str(w.message) for w in seen]
