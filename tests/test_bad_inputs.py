"""One table of bad inputs (issue 19): every row is refused with one line naming the input.

CLI rows run ``sflp`` inside a folder that also holds a folder of the user's own files
(``mine/``); where a command writes, it is pointed at that folder.  Each row must exit with code
2, print exactly one line on stderr (``sflp: error: ...``) that contains the input, no traceback
and nothing on stdout, and leave every file below the working folder as it was (names and
SHA-256).  API rows call the library and expect sflp's own error naming the argument.

Fast and slow: the fast suite runs every row through the CLI's ``main`` in the test's process
(about 0.05 s a row) and the rows of :data:`FRESH` in a fresh process (a FIFO or /dev/zero a bug
could block on, behind a timeout; one row of each kind); the slow set runs every other row in a
fresh process too (about 0.4 s a row: 20 s of the fast suite before).
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import sflp
from sflp.core.cards import CLASS_NAMES
from sflp.core.game import GameConfig
from sflp.errors import SflpError

ROOT = Path(__file__).resolve().parent.parent
LONG = "X" * 300  # longer than a file name may be (255): must not be tried as a path and crash

# (argv, needle in the error line, extra environment)
CLI_ROWS = [
    (["chart", "--stacks", "1,1e400", "--out", "mine"], "1e400", {}),
    (["chart", "--stacks", "1:1e400:1e399", "--out", "mine"], "1e400", {}),
    (["solve", "--stack", "1e400"], "1e400", {}),
    (["solve", "--stack", "nan"], "--stack nan", {}),
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
ISSUE_30_ROWS = [  # issue 30's repros that are one command (the case number first in each comment)
    (["chart", "--stacks", "1:2:0.5", "--out", "X" * 240], "choose a shorter name", {}),  # 10
    (["chart", "--stacks", "1:2:0.5", "--out", LONG], "choose a shorter name", {}),  # 10
    (["solve", "--stack", "10", "--out", LONG], "choose a shorter name", {}),  # 10
    (["export", "efg", "--stack", "10", "--out", LONG], LONG[:40], {}),  # 10
    (["export", "efg", "--stack", "10", "--out", "fifo.json"], "is a FIFO", {}),  # 8: never opened, never waits
    (["export", "efg", "--stack", "10", "--out", "/dev/stdout"], "--out -", {}),  # 8
    (["export", "efg", "--stack", "10", "--out", "mine/values.csv"], "not written by sflp", {}),
    (["export", "efg", "--stack", "10", "--out", "mine"], "mine is a folder", {}),
    (["export", "efg", "--stack", "10", "--out", ""], "--out ''", {}),
    (["verify", "--stack", "10", "--policy", "longentry.json"], "a string of 1,000 characters", {}),  # 7
    (["verify", "--stack", "10", "--policy", "bigint.json"], "5,000 digits", {}),  # 17
    (["verify", "--stack", "10", "--policy", "deep.json"], "nested too deeply", {}),  # 17
    (["verify", "--stack", "10", "--sb", "bigint.json", "--bb", "30%"], "5,000 digits", {}),  # 17
    (["verify", "--stack", "10", "--sb", "deep.json", "--bb", "30%"], "nested too deeply", {}),  # 17
    (["verify", "--stack", "10", "--policy", "fifo.json"], "not a regular file", {}),  # 17
    (["verify", "--stack", "10", "--sb", "fifo.json", "--bb", "30%"], "fifo.json", {}),
    (["verify", "--stack", "10", "--policy", "dupkey.json"], "lists the action '0' twice", {}),  # 22
    (["verify", "--stack", "10", "--policy", "textprob.json"], "a string", {}),  # 22
    (["verify", "--stack", "10", "--policy", "mine"], "not a regular file", {}),
    (["verify", "--stack", "10", "--policy", ""], "--policy ''", {}),
    (["compare", "fifoset", "nash", "--stacks", "2:5", "--out", "new", "--no-manifest"], "not a regular file", {}),
    (["solve", "--stack", "10", "--small-blind", "1e-300"], "--small-blind", {}),  # 11
    (["solve", "--stack", "10", "--ante", "1e-300"], "--ante", {}),  # 11
    (["solve", "--stack", "10", "--bb-ante", "1e-300"], "--bb-ante 1e-300 is below 1e-100 bb", {}),  # 11
    (["simulate", "--stack", "10", "--ante", "1e-300"], "--ante 1e-300 is below 1e-100 bb", {}),  # 11
    (["solve", "--stack", "1e300", "--ante", "2e100"], "--ante 2e100 is above 1e+100 bb", {}),  # 11
    (["chart", "--ante", "1e6", "--out", "new"], "e.g. --stacks 1000001:25000025:50000.05", {}),  # 12
    (["chart", "--ante", "1e6", "--stacks", "1:30:1", "--out", "new"], "--stacks 1000001:25000025:50000.05", {}),
    (["chart", "--ante", "0.1234567891", "--stacks", "1:1.1:0.1", "--out", "new"], "--stacks 1.1234567891:25:0.05",
     {}),  # every stack below the blinds and antes (a grid reaching above them starts at 1.1234567891)
]
CLI_ROWS += ISSUE_30_ROWS


def tree(folder: Path) -> dict[str, str]:
    out = {}
    for path in sorted(folder.rglob("*")):
        key = str(path.relative_to(folder))
        if path.is_symlink():
            out[key] = "-> " + os.readlink(path)
        elif path.is_file():
            out[key] = hashlib.sha256(path.read_bytes()).hexdigest()
        else:
            out[key] = "dir" if path.is_dir() else "special"  # a FIFO is never opened
    return out


@pytest.fixture(scope="module")
def hostile_files(tmp_path_factory):
    """The large input files of :func:`workdir`, made once per module (11 MB and 200 kB to write, the
    re-signed table 3 MB): each test's folder gets hard links to them, regular files as before."""
    folder = tmp_path_factory.mktemp("hostile")
    (folder / "big.csv").write_bytes(b"AA,1\n" * (2_200_000))  # 11 MB: over the 10 MiB cap
    # the real table with one byte of its payload changed, re-signed beside it
    blob = bytearray((ROOT / "data" / "equity_table.bin").read_bytes())
    blob[-100] ^= 1
    (folder / "equity_table.bin").write_bytes(bytes(blob))
    digest = hashlib.sha256(bytes(blob)).hexdigest()
    (folder / "equity_table.sha256").write_text(f"{digest}  equity_table.bin\n")
    (folder / "deep.json").write_text('{"a": ' + "[" * 100_000 + "]" * 100_000 + "}")
    return folder


@pytest.fixture
def workdir(tmp_path, hostile_files):
    mine = tmp_path / "mine"
    mine.mkdir()
    for name, text in (("values.csv", "stack,value\n"), ("prices.csv", "a,1\n"), ("config.json", "{}\n"),
                       ("ranges.csv", "my ranges\n")):
        (mine / name).write_text(text)
    (mine / "budget.xlsx").write_bytes(b"PK\x03\x04")
    (mine / "equity_table.bin").write_text("my own table of something else\n")
    os.link(hostile_files / "big.csv", tmp_path / "big.csv")  # 11 MB: over the 10 MiB cap
    (tmp_path / "devzero").mkdir()
    if Path("/dev/zero").exists():
        (tmp_path / "devzero" / "equity_table.bin").symlink_to("/dev/zero")
    # the real table with one byte of its payload changed, re-signed beside it
    (tmp_path / "resigned").mkdir()
    for name in ("equity_table.bin", "equity_table.sha256"):
        os.link(hostile_files / name, tmp_path / "resigned" / name)
    # hostile policies and strategies (issue 30, cases 7, 17, 22)
    os.mkfifo(tmp_path / "fifo.json")
    (tmp_path / "longentry.json").write_text(json.dumps({"0-0-1-AA": "x" * 1000}))
    (tmp_path / "bigint.json").write_text('{"0-0-1-AA": [[0, ' + "1" * 5000 + "]]}")
    os.link(hostile_files / "deep.json", tmp_path / "deep.json")
    (tmp_path / "dupkey.json").write_text('{"0-0-1-AA": {"0": 0.5, "0": 0.5}}')
    states = [f"0-0-{k}-{h}" for k, h in enumerate(CLASS_NAMES, 1)] + [f"1-1-{k}-{h}" for k, h in
                                                                       enumerate(CLASS_NAMES, 1)]
    (tmp_path / "textprob.json").write_text(json.dumps({s: [[0, "0.5"], [1 if s[0] == "0" else 2, "0.5"]]
                                                        for s in states}))
    (tmp_path / "fifoset").mkdir()  # a chart set whose thresholds.csv is a FIFO
    os.mkfifo(tmp_path / "fifoset" / "thresholds.csv")
    return tmp_path


def _row_id(row) -> str:
    return " ".join(row[0])[:60]


def _may_block(row) -> bool:
    """A row whose input a bug could block on forever (a FIFO, /dev/zero, /proc): it runs in a fresh
    process behind a timeout, never in the test's own."""
    argv, _, env = row
    return any("fifo" in a or a == "/proc" for a in argv) or env.get("SFLP_DATA_DIR") == "devzero"


FRESH = {_row_id(r) for r in CLI_ROWS if _may_block(r)} | {
    "solve --stack nan", "chart --stacks 2,5 --out mine", "equity AA KK", "verify --stack 10 --policy deep.json",
    "chart --ante 1e6 --out new"}
"""The rows the fast suite also runs in a fresh process: those that may block and one of each kind
(a number, a folder of the user's, an environment variable, a hostile file, a hint)."""


def _skip_without_dev_zero(env) -> None:
    if env.get("SFLP_DATA_DIR") == "devzero" and not Path("/dev/zero").exists():
        pytest.skip("no /dev/zero here")


def _one_line_and_nothing_changed(code, out, err, needle, workdir, before) -> None:
    assert code == 2, err
    assert out == ""
    assert err.startswith("sflp: error:") and err.count("\n") == 1, err
    assert "Traceback" not in err and needle in err, err
    assert tree(workdir) == before


@pytest.mark.parametrize("argv, needle, env", [
    pytest.param(*r, id=_row_id(r), marks=() if _row_id(r) in FRESH else pytest.mark.slow) for r in CLI_ROWS])
def test_a_bad_input_is_one_line_exit_2_and_changes_nothing(workdir, argv, needle, env):
    """The real command in a fresh process (the rows of FRESH in the fast suite, every row in the slow set)."""
    _skip_without_dev_zero(env)
    before = tree(workdir)
    full_env = {k: v for k, v in os.environ.items() if k not in ("SFLP_DATA_DIR", "SFLP_PAUSE_AT")}
    full_env.update(PYTHONPATH=str(ROOT), **{k: (str(workdir / v) if v else v) for k, v in env.items()})
    proc = subprocess.run([sys.executable, "-m", "sflp", *argv, "--json"], capture_output=True, text=True,
                          cwd=workdir, env=full_env, timeout=300)
    _one_line_and_nothing_changed(proc.returncode, proc.stdout, proc.stderr, needle, workdir, before)


@pytest.mark.parametrize("argv, needle, env", [r for r in CLI_ROWS if not _may_block(r)],
                         ids=[_row_id(r) for r in CLI_ROWS if not _may_block(r)])
def test_a_bad_input_is_one_line_exit_2_and_changes_nothing_in_process(workdir, argv, needle, env, monkeypatch,
                                                                       capsys):
    """Fast: every row that cannot block, through the CLI's ``main`` in this process, the same checks."""
    from sflp.cli import main

    before = tree(workdir)
    monkeypatch.chdir(workdir)
    for name in ("SFLP_DATA_DIR", "SFLP_PAUSE_AT"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, str(workdir / value) if value else value)
    try:
        code = main([*argv, "--json"])
    except SystemExit as exc:  # argparse's own refusals
        code = exc.code
    out, err = capsys.readouterr()
    _one_line_and_nothing_changed(code, out, err, needle, workdir, before)


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


# ---------------------------------------------------------------- issue 30: every case, one table

ISSUE_30 = {
    # case: (what was wrong, what sflp does now, the tests that show it: file::test or file::ROWS)
    1: ("cleanup deleted users' folders whose names began like a staging folder's",
        "only folders named exactly .NAME.staging-/old-<8 hex> whose marker names this target go",
        ["test_output_edges.py::test_cleanup_removes_a_killed_runs_marked_stage_and_nothing_that_only_looks_like_one",
         "test_output_edges.py::test_the_cli_run_of_the_issue_leaves_the_users_hidden_folders",
         "test_output_interleavings.py::test_concurrent_runs_end_complete_or_cleanly_and_lose_no_user_file"]),
    2: ("a run deleted another run's live staging folder",
        "a run cleans only its own target's marked folders, holding that target's lock",
        ["test_output_edges.py::test_a_run_never_removes_another_targets_live_staging_folder",
         "test_output_edges.py::test_a_live_run_of_the_same_target_holds_the_lock_and_keeps_its_stage",
         "test_output_interleavings.py::test_many_random_interleavings"]),
    3: ("a read-only target was replaced and its old set left hidden",
        "refused before any work (mode without u+w, or not writable), with chmod u+w suggested",
        ["test_output_edges.py::test_a_read_only_target_is_refused_before_any_work"]),
    4: ("read_ranges returned wrong rows for unsorted stacks",
        "one canonical row order from every ranges form, whatever the order asked",
        ["test_read_ranges.py::test_every_form_gives_the_canonical_rows_for_any_order_of_stacks",
         "test_read_ranges.py::test_the_issue_example_sb_83s_at_3_bb_is_never_pushed",
         "test_read_ranges.py::test_reversed_values_csv_is_refused_not_misread"]),
    5: ("read_ranges validated nothing",
        "manifest checked first; columns, types, ranges and row counts checked; one DataError or ConfigError",
        ["test_read_ranges.py::test_a_damaged_folder_is_refused_by_its_manifest",
         "test_read_ranges.py::test_a_damaged_folder_is_refused_by_its_content_when_the_manifest_agrees",
         "test_read_ranges.py::test_bad_stacks_are_one_config_error"]),
    6: ("a small parquet file of 300 M rows ran out of memory",
        "sizes and the parquet footer's row counts are checked against the stack count before any row",
        ["test_read_ranges.py::test_a_parquet_file_of_ten_million_rows_is_refused_from_its_footer",
         "test_read_ranges.py::test_a_parquet_footer_whose_row_groups_hold_more_rows_than_it_says_is_refused",
         "test_read_ranges.py::test_a_csv_larger_than_its_stacks_allow_is_refused_before_parsing"]),
    7: ("a policy entry that is a long string was iterated character by character",
        "entries are type- and size-checked before anything iterates them",
        ["test_policy_inputs.py::test_a_string_entry_is_refused_whole_never_iterated",
         "test_policy_inputs.py::test_a_policy_file_with_one_long_string_entry_is_refused_fast",
         "test_bad_inputs.py::ISSUE_30_ROWS"]),
    8: ("export efg to a FIFO or /dev/stdout blocked forever",
        "an output is never opened for reading; a non-regular target is refused, pointing to --out -",
        ["test_policy_inputs.py::test_a_fifo_target_is_refused_never_opened",
         "test_policy_inputs.py::test_cli_export_to_a_fifo_exits_2_at_once",
         "test_policy_inputs.py::test_cli_export_to_stdout_stops_quietly_when_the_reader_goes",
         "test_bad_inputs.py::ISSUE_30_ROWS"]),
    9: ("numba wrote caches into the installed package; a read-only install crashed",
        "one user cache folder (SFLP_CACHE_DIR or the platform's), uncached when none is writable",
        ["test_caches.py::test_a_read_only_install_without_a_writable_home_runs_uncached_and_writes_nothing",
         "test_caches.py::test_the_user_nobody_runs_a_read_only_install",
         "test_caches.py::test_pip_uninstall_after_a_numba_run_leaves_no_sflp_folder",
         "test_caches.py::test_numba_and_the_lp_cache_go_to_the_cache_folder_and_clear_removes_only_sflp_files"]),
    10: ("a long --out was an ENAMETOOLONG traceback at the end",
         "refused before any work when the name or its hidden twin would pass NAME_MAX or PATH_MAX",
         ["test_output_edges.py::test_a_name_too_long_for_the_staging_folder_is_refused_before_any_work",
          "test_output_edges.py::test_the_longest_name_that_fits_is_written",
          "test_policy_inputs.py::test_a_name_too_long_is_refused_before_any_work",
          "test_bad_inputs.py::ISSUE_30_ROWS"]),
    11: ("blinds or antes of 1e-300 were an OverflowError",
         "blinds and antes from 1e-100 to 1e100 bb (antes also 0), refused outside naming the option and the bounds; "
         "the threshold path is followed in units of a power of two near the pot, so tiny blinds lose no breakpoint",
         ["test_game.py::test_blinds_and_antes_outside_the_stated_domain_are_refused",
          "test_game.py::test_the_edges_of_the_domain_and_zero_antes_are_accepted",
          "test_thresholds.py::test_thresholds_of_a_scaled_structure_are_the_default_ones_scaled_to_the_bit",
          "test_bad_inputs.py::ISSUE_30_ROWS"]),
    12: ("huge antes gave HiGHS status 'Unknown'; a suggested --stacks range was itself invalid",
         "the LP is solved in units of the pot (certified in the real game); every hint is a valid range",
         ["test_lp.py::test_huge_antes_solve",
          "test_lp.py::test_the_game_is_homogeneous_and_so_are_the_answers",
          "test_lp.py::test_a_solver_failure_names_the_stack_and_is_not_a_bare_status",
          "test_game.py::test_every_printed_stacks_hint_is_a_valid_range",
          "test_bad_inputs.py::ISSUE_30_ROWS"]),
    13: ("no free inode was an OSError traceback",
         "one line naming the target; the old set intact",
         ["test_output_edges.py::test_no_free_inode_is_one_line_and_the_old_set_stays"]),
    14: ("a full TMPDIR was a traceback and left openpyxl's temporary files",
         "every temporary file is made inside the staging folder",
         ["test_output_edges.py::test_a_full_tmpdir_does_not_matter_every_temporary_file_is_in_the_staging_folder"]),
    15: ("a worker killed by the OOM killer was a BrokenProcessPool traceback",
         "one line, exit 2, the old set intact",
         ["test_output_edges.py::test_a_worker_killed_by_the_oom_killer_is_one_line_and_the_old_set_stays"]),
    16: ("a mount point or immutable --out failed after all the work",
         "refused before any work, with the reason and --out <it>/charts suggested",
         ["test_output_edges.py::test_a_mount_point_is_refused_before_any_work_with_a_suggestion",
          "test_output_edges.py::test_a_real_tmpfs_mount_point_is_refused_before_any_work",
          "test_output_edges.py::test_an_immutable_target_is_refused_before_any_work"]),
    17: ("hostile policy JSON raised ValueError or RecursionError",
         "strict JSON (sflp.inputs): huge integers, deep nesting, NaN are one error",
         ["test_policy_inputs.py::test_hostile_policy_json_is_one_clear_error",
          "test_policy_inputs.py::test_a_policy_fifo_is_refused_not_waited_on",
          "test_bad_inputs.py::ISSUE_30_ROWS"]),
    18: ("a dangling lock symlink made sflp create a file elsewhere",
         "locks are opened O_NOFOLLOW, created O_EXCL; a lock that is not sflp's is neither used nor removed",
         ["test_output_edges.py::test_a_dangling_lock_symlink_is_refused_and_never_followed",
          "test_output_edges.py::test_a_lock_symlink_to_a_users_file_is_refused_and_the_file_untouched",
          "test_output_edges.py::test_a_lock_name_holding_the_users_data_is_not_used_or_removed"]),
    19: ("a strategy named =1+2 became a live formula in the workbook",
         "user text is a string cell, quote-prefixed when it starts with = + - @ tab or CR",
         ["test_excel.py::test_user_text_on_the_about_sheet_is_a_string_never_a_formula",
          "test_excel.py::test_an_exploit_sets_strategy_name_is_text_in_the_workbook"]),
    20: ("a self-consistent wrong LP cache entry broke solving for good",
         "an entry must fit the problem it is filed under, and its first answer must pass the best-response "
         "check; else it is compiled afresh and replaced (only an sflp file), said in one line on stderr",
         ["test_lp.py::test_fits_accepts_cvxpys_compile_and_sees_a_wrong_one",
          "test_lp.py::test_a_forged_cache_entry_is_rebuilt_with_a_note_and_the_right_answer",
          "test_lp.py::test_a_wrong_entry_the_structural_check_misses_is_caught_by_the_answer",
          "test_lp.py::test_only_an_entry_sflp_wrote_is_ever_replaced"]),
    21: ("the action keys json.dump writes ('0', '1') were refused",
         "string action keys that are integers or action names are accepted",
         ["test_policy_inputs.py::test_an_int_keyed_policy_written_by_json_dump_is_read_back",
          "test_policy_inputs.py::test_other_action_strings_are_refused_naming_the_state_and_the_actions"]),
    22: ("duplicate keys, text or boolean probabilities and repeated actions were accepted",
         "each is refused naming the state",
         ["test_policy_inputs.py::test_duplicate_json_keys_are_refused_naming_the_state",
          "test_policy_inputs.py::test_a_probability_that_is_not_a_number_is_refused",
          "test_policy_inputs.py::test_an_action_listed_twice_is_refused_not_summed",
          "test_bad_inputs.py::ISSUE_30_ROWS"]),
    23: ("from_strategy, info_state and check_manifest raised foreign exceptions or returned nonsense",
         "sflp's own error, naming the argument",
         ["test_policy_inputs.py::test_from_strategy_refuses_what_is_not_169_frequencies_in_0_1",
          "test_policy_inputs.py::test_info_state_names_a_bad_player_or_hand",
          "test_policy_inputs.py::test_a_probability_out_of_range_is_refused_however_large",
          "test_bad_inputs.py::test_check_manifest_of_an_entry_without_a_size_is_a_problem_not_a_key_error"]),
}


def test_check_manifest_of_an_entry_without_a_size_is_a_problem_not_a_key_error(tmp_path):
    from sflp.output.manifest import write_manifest

    (tmp_path / "a.csv").write_text("x\n")
    write_manifest(tmp_path, {})
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    for key in ("bytes", "sha256"):
        entry = dict(manifest["files"][0])
        del entry[key]
        (tmp_path / "manifest.json").write_text(json.dumps({**manifest, "files": [entry]}))
        problems = sflp.check_manifest(tmp_path)
        assert len(problems) == 1 and "not a valid sflp manifest" in problems[0] and "a.csv" in problems[0]


def _test_names(path: Path) -> set[str]:
    import ast

    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {n.name for n in tree.body if isinstance(n, ast.FunctionDef)} | {
        t.id for n in tree.body if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)}


def test_every_case_of_issue_30_names_tests_that_exist():
    assert sorted(ISSUE_30) == list(range(1, 24)), "issue 30 has 23 cases, each with a row"
    for case, (_, _, tests) in ISSUE_30.items():
        assert tests, f"case {case} names no test"
        for test in tests:
            file, name = test.split("::")
            assert name in _test_names(ROOT / "tests" / file), f"case {case}: {test} does not exist"
