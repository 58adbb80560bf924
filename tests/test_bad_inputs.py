"""One table of bad inputs (issue 19): every row is refused with one line naming the input.

CLI rows run ``sflp`` in a fresh process inside a folder that also holds a folder of the user's
own files (``mine/``); where a command writes, it is pointed at that folder.  Each row must exit
with code 2, print exactly one line on stderr (``sflp: error: ...``) that contains the input, no
traceback and nothing on stdout, and leave every file below the working folder as it was (names
and SHA-256).  API rows call the library and expect sflp's own error naming the argument.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

import sflp
from sflp.core.game import GameConfig
from sflp.errors import SflpError

ROOT = Path(__file__).resolve().parent.parent
LONG = "X" * 300  # longer than a file name may be (255): must not be tried as a path and crash

# (argv, needle in the error line, extra environment)
CLI_ROWS = [
    (["chart", "--stacks", "1,1e400", "--out", "mine"], "1e400", {}),
    (["chart", "--stacks", "1:1e400:1e399", "--out", "mine"], "1e400", {}),
    (["solve", "--stack", "1e400"], "1e400", {}),
    (["solve", "--stack", "nan"], "stack=nan", {}),
    (["solve", "--stack", "10", "--solver", ""], "--solver", {}),
    (["verify", "--stack", "10", "--sb", LONG, "--bb", "30%"], LONG[:40], {}),
    (["exploit", "--stack", "10", "--bb", LONG], LONG[:40], {}),
    (["verify", "--stack", "10", "--sb", "big.csv", "--bb", "30%"], "big.csv", {}),
    (["compare", "ante=0.1,ante=0.2", "nash", "--stacks", "5:6", "--out", "new"], "ante=0.1,ante=0.2", {}),
    (["compare", "nash", "ante=0.1", "--stacks", "5:6", "--top", "-1", "--out", "mine"], "--top", {}),
    (["compare", "nash", "ante=0.1", "--stacks", "5:6", "--out", "mine"], "mine", {}),
    (["approx-bench", "--stacks", "10", "--seconds", "0.1", "--out", "mine"], "mine", {}),
    (["simulate", "--stack", "10", "--hands", "0"], "--hands", {}),
    (["chart", "--stacks", "2,5", "--out", "mine"], "mine", {}),
    (["chart", "--stacks", "2,5", "--paper", "a5", "--out", "new"], "'a5'", {}),
    (["solve", "--stack", "5", "--out", "mine"], "mine", {}),
    (["exploit", "--stacks", "2,5", "--bb", "30%", "--out", "mine"], "mine", {}),
    (["equity", "build", "--data-dir", "mine"], "equity_table.bin", {}),
    (["equity", "AA", "KK"], "SFLP_DATA_DIR", {"SFLP_DATA_DIR": ""}),
    (["equity", "AA", "KK"], "not a regular file", {"SFLP_DATA_DIR": "devzero"}),
    (["equity", "AA", "KK"], "sflp equity build", {"SFLP_DATA_DIR": "resigned"}),
]
if Path("/proc").is_dir():
    CLI_ROWS.append((["equity", "build", "--data-dir", "/proc"], "/proc", {}))


def tree(folder: Path) -> dict[str, str]:
    out = {}
    for path in sorted(folder.rglob("*")):
        key = str(path.relative_to(folder))
        if path.is_symlink():
            out[key] = "-> " + os.readlink(path)
        elif path.is_file():
            out[key] = hashlib.sha256(path.read_bytes()).hexdigest()
        else:
            out[key] = "dir"
    return out


@pytest.fixture
def workdir(tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    for name, text in (("values.csv", "stack,value\n"), ("prices.csv", "a,1\n"), ("config.json", "{}\n"),
                       ("ranges.csv", "my ranges\n")):
        (mine / name).write_text(text)
    (mine / "budget.xlsx").write_bytes(b"PK\x03\x04")
    (mine / "equity_table.bin").write_text("my own table of something else\n")
    (tmp_path / "big.csv").write_bytes(b"AA,1\n" * (2_200_000))  # 11 MB: over the 10 MiB cap
    (tmp_path / "devzero").mkdir()
    if Path("/dev/zero").exists():
        (tmp_path / "devzero" / "equity_table.bin").symlink_to("/dev/zero")
    # the real table with one byte of its payload changed, re-signed beside it
    blob = bytearray((ROOT / "data" / "equity_table.bin").read_bytes())
    blob[-100] ^= 1
    (tmp_path / "resigned").mkdir()
    (tmp_path / "resigned" / "equity_table.bin").write_bytes(bytes(blob))
    digest = hashlib.sha256(bytes(blob)).hexdigest()
    (tmp_path / "resigned" / "equity_table.sha256").write_text(f"{digest}  equity_table.bin\n")
    return tmp_path


@pytest.mark.parametrize("argv, needle, env", CLI_ROWS, ids=[" ".join(r[0])[:60] for r in CLI_ROWS])
def test_a_bad_input_is_one_line_exit_2_and_changes_nothing(workdir, argv, needle, env):
    if env.get("SFLP_DATA_DIR") == "devzero" and not Path("/dev/zero").exists():
        pytest.skip("no /dev/zero here")
    before = tree(workdir)
    full_env = {k: v for k, v in os.environ.items() if k not in ("SFLP_DATA_DIR", "SFLP_PAUSE_AT")}
    full_env.update(PYTHONPATH=str(ROOT), **{k: (str(workdir / v) if v else v) for k, v in env.items()})
    proc = subprocess.run([sys.executable, "-m", "sflp", *argv, "--json"], capture_output=True, text=True,
                          cwd=workdir, env=full_env, timeout=300)
    assert proc.returncode == 2, proc.stderr
    assert proc.stdout == ""
    assert proc.stderr.startswith("sflp: error:") and proc.stderr.count("\n") == 1, proc.stderr
    assert "Traceback" not in proc.stderr and needle in proc.stderr, proc.stderr
    assert tree(workdir) == before


CONFIG = GameConfig(stack=10)
API_ROWS = [
    ("compute_thresholds(None)", lambda: sflp.compute_thresholds(None), "config"),
    ("compute_thresholds(cfg, low='1')", lambda: sflp.compute_thresholds(CONFIG, low="1", high="5"), "low='1'"),
    ("compute_thresholds(cfg, high=None)", lambda: sflp.compute_thresholds(CONFIG, 1, None), "high=None"),
    ("sc_numbers(None)", lambda: sflp.sc_numbers(None), "config"),
    ("sc_numbers(10)", lambda: sflp.sc_numbers(10), "config"),
    ("load_table(5)", lambda: sflp.load_table(5), "data_dir=5"),
    ("load_table('')", lambda: sflp.load_table(""), "data_dir=''"),
    ("build_table(5)", lambda: sflp.build_table(5), "data_dir=5"),
    ("hand_ranking(5)", lambda: sflp.hand_ranking(5), "table"),
    ("parse_range(None)", lambda: sflp.parse_range(None), "None"),
    ("equity('AA', 5)", lambda: sflp.equity("AA", 5), "int"),
    ("solve(cfg, solver='')", lambda: sflp.solve(CONFIG, solver=""), "solver=''"),
    ("solve_many(5,000,000 stacks)", lambda: sflp.solve_many(iter([5.0] * 5_000_000), CONFIG), "100,000"),
    ("solve_many(['5'])", lambda: sflp.solve_many(["5"], CONFIG), "stack='5'"),
    ("GameConfig(10**400)", lambda: GameConfig(10**400), "too large"),
    ("GameConfig(Decimal('NaN'))", lambda: GameConfig(__import__("decimal").Decimal("NaN")), "finite"),
    ("check_manifest(None)", lambda: sflp.check_manifest(None), "folder"),
]


@pytest.mark.parametrize("call, needle", [(f, n) for _, f, n in API_ROWS], ids=[r[0] for r in API_ROWS])
def test_a_bad_api_argument_is_sflps_error_naming_it(call, needle):
    with pytest.raises(SflpError) as info:
        call()
    assert needle in str(info.value), str(info.value)
