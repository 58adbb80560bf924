"""sflp.study.strategy: the one home of strategies and of the 13x13 grid CSV (written and read there)."""

import numpy as np
import pandas as pd
import pytest

from sflp.charts.frames import grid_from_tidy
from sflp.charts.media.csv import grid_csv_bytes
from sflp.core.cards import CLASS_NAMES, class_id
from sflp.study.strategy import StrategyFileError, StrategySpec, grid_csv_text, load_strategy, read_grid_csv


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


# ---------------------------------------------------------------- hostile strategy files (issue 30)


def _refused(call, *needles, kind=StrategyFileError) -> str:
    with pytest.raises(kind) as info:
        call()
    message = str(info.value)
    assert "\n" not in message and len(message) < 400, message
    for needle in needles:
        assert needle in message, message
    return message


@pytest.mark.skipif(not hasattr(__import__("os"), "mkfifo"), reason="no FIFOs on this platform")
def test_a_fifo_strategy_file_is_refused_not_waited_on(tmp_path):
    """Named as a spec, by ``file:``, and handed to the reader itself (as if it became a FIFO
    after the spec was looked at): never opened for a blocking read."""
    import os
    import threading
    from pathlib import Path

    from sflp.study import strategy

    fifo = tmp_path / "sb.csv"
    os.mkfifo(fifo)
    errors = []

    def read_all():
        for call in (lambda: load_strategy(str(fifo), "sb"), lambda: load_strategy(f"file:{fifo}", "sb"),
                     lambda: strategy._load_file(Path(fifo), "sb")):
            try:
                call()
            except StrategyFileError as exc:
                errors.append(str(exc))

    thread = threading.Thread(target=read_all, daemon=True)
    thread.start()
    thread.join(30)
    assert not thread.is_alive(), "blocked on the FIFO"
    assert len(errors) == 3 and all(e.startswith(f"{fifo}: ") for e in errors), errors
    assert "not a regular file" in errors[2], errors


@pytest.mark.parametrize("text, needles", [
    ('{"AA": ' + "1" * 5000 + "}", ("line 1", "an integer of 5,000 digits")),
    ('{"AA": 0.5,\n"KK": ' + "1" * 400 + "}", ("line 2", "an integer of 400 digits")),
    ('{"AA": ' + "[" * 100_000 + "]" * 100_000 + "}", ("nested too deeply",)),
    ('{"sb": ' + '{"AA": ' * 100_000 + "1" + "}" * 100_000 + "}", ("nested too deeply",)),
    ('{"AA": 1, "KK": 0.5, "AA": 0}', ("duplicate hand 'AA'",)),
    ('{"sb": {"AA": 1}, "sb": {"AA": 0}}', ("duplicate entry 'sb'",)),
    ('{"AA": NaN}', ("'NaN'", "not a finite number")),
    ('{"AA": 1e400}', ("not a finite number",)),
    ('{"AA": "0.5"}', ('non-numeric frequency "0.5"',)),
    ('{"AA": true}', ("non-numeric frequency true",)),
])
def test_hostile_json_strategies_are_one_clear_error(tmp_path, text, needles):
    path = tmp_path / "s.json"
    path.write_text(text)
    _refused(lambda: load_strategy(str(path), "sb"), str(path), *needles)


def test_many_keys_are_read_in_linear_time(tmp_path):
    """Each key's line number used to be counted from the start of the file: 200,000 keys took
    about 3 minutes (10 s at 50,000), a 10 MiB file hours.  Now one pass: about 1 s here."""
    import time

    path = tmp_path / "s.json"
    path.write_text("{" + ",\n".join(f'"x{n}": 1' for n in range(200_000)) + "}")
    start = time.perf_counter()
    _refused(lambda: load_strategy(str(path), "sb"), "line 1", "unknown hand 'x0'")
    assert time.perf_counter() - start < 30


def test_a_strategy_file_over_the_cap_is_refused_before_it_is_read(tmp_path, monkeypatch):
    from sflp.study import strategy

    path = tmp_path / "s.csv"
    path.write_text("AA,1\n" * 10)
    monkeypatch.setattr(strategy, "STRATEGY_FILE_MAX_BYTES", 20)
    _refused(lambda: load_strategy(str(path), "sb"), f"{path}: is 50 bytes, more than the 20", "a few kB")


@pytest.mark.parametrize("call, needle", [
    (lambda: StrategySpec.from_frequencies("AA", "sb"), "load_strategy('AA'"),
    (lambda: StrategySpec.from_frequencies([10**400] * 169, "sb"), "got list [1000"),
    (lambda: StrategySpec.from_frequencies([None] * 169, "sb"), "2d2c is nan (and 1325 more)"),
    (lambda: StrategySpec("sb", "x", "array", "x"), "1326 combo frequencies"),
    (lambda: StrategySpec.from_frequencies(np.ones(169), "sb").frequencies("all"), "level='all'"),
    (lambda: grid_csv_text("AA"), "169 values"),
    (lambda: grid_csv_text([10**400] * 169), "169 values"),
    (lambda: read_grid_csv(None), "text=None"),
    (lambda: read_grid_csv(b"A,K"), "text=b'A,K'"),
    (lambda: load_strategy(None, "sb"), "NoneType"),
    (lambda: load_strategy("AA", "xx"), "player='xx'"),
], ids=["from_frequencies('AA')", "from_frequencies(10**400)", "from_frequencies(None)", "StrategySpec('x')",
        "frequencies('all')", "grid_csv_text('AA')", "grid_csv_text(10**400)", "read_grid_csv(None)",
        "read_grid_csv(bytes)", "load_strategy(None)", "load_strategy(player='xx')"])
def test_a_bad_argument_is_sflps_error_not_a_foreign_one(call, needle):
    from sflp.errors import SflpError

    _refused(call, needle, kind=SflpError)
