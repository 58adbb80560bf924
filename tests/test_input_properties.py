"""Property tests of the input boundary: arbitrary text gives a result or sflp's own error.

(The range notation's parse/print round trip has its properties in tests/test_ranges.py.)
"""

from __future__ import annotations

import argparse
import math
import string
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sflp.checks import parse_stacks, short
from sflp.cli.options import number as _number
from sflp.cli.options import whole as _whole
from sflp.core.ranges import parse_range
from sflp.errors import SflpError
from sflp.study.strategy import load_strategy

# text that looks like our inputs often enough to reach deep branches, plus anything at all
RANGE_ALPHABET = "AKQJT98765432scdho+-,:.%[]/ 0123456789*"
range_like = st.text(alphabet=RANGE_ALPHABET, max_size=40)
number_like = st.text(alphabet="0123456789.eE+-:,_ naif", max_size=24)
anything = st.text(max_size=200)

TMP = Path(tempfile.mkdtemp(prefix="sflp-props-"))


@settings(max_examples=300, deadline=None)
@given(st.one_of(range_like, anything))
def test_range_text_parses_or_gives_a_notation_error(text):
    try:
        r = parse_range(text)
    except SflpError:
        return
    assert parse_range(str(r)) == r  # whatever parses prints back to the same range


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.one_of(
    st.lists(st.tuples(st.sampled_from(["AA", "AKs", "72o", "T9s", "xx", ""]), range_like), max_size=6).map(
        lambda rows: "\n".join(f"{h},{w}" for h, w in rows)),
    st.lists(st.lists(st.sampled_from(["0", "1", "0.5", "x", "", "nan", "2"]), min_size=13, max_size=14),
             min_size=12, max_size=14).map(lambda grid: "\n".join(",".join(r) for r in grid)),
    st.text(alphabet=string.printable, max_size=300),
    st.just('{"AA": 1, "KK": "x"}'),
))
def test_a_strategy_file_gives_a_strategy_or_sflps_error(text):
    path = TMP / "strategy.csv"
    path.write_text(text, encoding="utf-8")
    try:
        spec = load_strategy(str(path), "sb")
    except SflpError:
        return
    freq = spec.combo_freq
    assert freq.shape == (1326,) and ((freq >= 0) & (freq <= 1)).all()


@settings(max_examples=300, deadline=None)
@given(st.one_of(number_like, anything))
def test_stacks_text_gives_positive_finite_stacks_or_sflps_error(text):
    try:
        stacks = parse_stacks(text)
    except SflpError:
        return
    assert stacks == sorted(stacks) and 0 < len(stacks) <= 100_000
    assert all(math.isfinite(s) and s > 0 for s in stacks)


@settings(max_examples=300, deadline=None)
@given(st.one_of(number_like, anything))
def test_numeric_options_give_a_number_or_an_argparse_error(text):
    for parse in (_number("--stack"), _whole("--top")):
        try:
            value = parse(text)
        except argparse.ArgumentTypeError as exc:
            assert short(text) in str(exc)  # the message quotes the input (its start, when long)
            continue
        assert not math.isinf(value) or "inf" in text.lower()
