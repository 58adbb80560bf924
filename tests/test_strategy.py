"""sflp.study.strategy: the one home of strategies and of the 13x13 grid CSV (written and read there)."""

import numpy as np
import pandas as pd
import pytest

from sflp.core.cards import CLASS_NAMES, class_id
from sflp.report.csv_out import grid_csv_bytes
from sflp.report.frames import grid_from_tidy
from sflp.study.strategy import StrategyFileError, grid_csv_text, load_strategy, read_grid_csv


def _values() -> np.ndarray:
    """169 frequencies that are awkward as text (0.1 + 0.2, thirds, tiny, 0 and 1), all distinct."""
    rng = np.random.default_rng(12)
    values = rng.random(169)
    values[:6] = [0.0, 1.0, 0.1 + 0.2, 1 / 3, 5e-324, 1 - 2**-53]
    return values


def test_grid_round_trip_through_the_report_writer_and_the_strategy_reader(tmp_path):
    values = _values()
    tidy = pd.DataFrame({"stack": 10.0, "player": "sb", "hand": list(CLASS_NAMES)[::-1], "frequency": values[::-1]})
    data = grid_csv_bytes(grid_from_tidy(tidy, stack=10.0, player="sb"))
    # the layout the README documents: a corner cell and the ranks A..2, then rank-labelled rows
    lines = data.decode().splitlines()
    assert lines[0] == ",A,K,Q,J,T,9,8,7,6,5,4,3,2"
    assert [line.split(",")[0] for line in lines[1:]] == list("AKQJT98765432")
    path = tmp_path / "sb_push_10bb.csv"
    path.write_bytes(data)
    spec = load_strategy(path, "sb")
    assert spec.kind == "grid" and spec.missing == ()
    assert np.array_equal(spec.class_freq, values)  # exact: repr reads back to the same double
    assert np.array_equal(read_grid_csv(data.decode()), values)


def test_grid_text_is_the_writer_of_the_report_and_orients_like_the_charts():
    values = _values()
    tidy = pd.DataFrame({"stack": 5.0, "player": "bb", "hand": list(CLASS_NAMES), "frequency": values})
    assert grid_csv_bytes(grid_from_tidy(tidy, stack=5.0, player="bb")) == grid_csv_text(values).encode()
    rows = [line.split(",") for line in grid_csv_text(values).splitlines()]
    # suited above the diagonal, offsuit below, aces top-left (row A, column K is AKs)
    assert float(rows[1][2]) == values[class_id("AKs")]
    assert float(rows[2][1]) == values[class_id("AKo")]
    assert float(rows[13][13]) == values[class_id("22")]


def test_read_grid_csv_names_the_bad_cell():
    text = grid_csv_text(np.zeros(169)).replace("A,0.0", "A,x", 1)
    with pytest.raises(StrategyFileError, match=r"my grid, line 2: non-numeric frequency 'x' for AA"):
        read_grid_csv(text, "my grid")


def test_grid_csv_text_needs_169_values():
    with pytest.raises(Exception, match="169 values"):
        grid_csv_text(np.zeros(168))


def test_verify_keeps_the_old_names():
    import sflp.study.strategy
    import sflp.study.verify

    for name in ("StrategySpec", "StrategyFileError", "load_strategy", "PLAYERS", "GRID_RANKS", "MBB"):
        assert getattr(sflp.study.verify, name) is getattr(sflp.study.strategy, name)
