"""Every shell example in README.md and docs/*.md runs, as written, in a fresh folder.

The commands are read from the ```bash (``sh``, ``shell``) blocks of the README and of every page
of docs/, and from the ``$ `` lines of its ```console blocks, by a small extractor (trailing
``# ...`` comments dropped, ``A && B`` kept as one line, each command once); a block of no
language or ```text that holds a command fails :func:`test_no_command_hides_in_an_untagged_block`.
``HOW`` says how each one is run; a documented command missing from it fails
:func:`test_every_readme_command_is_covered`, so a new example cannot go untested, and a step a
command needs first must itself be a documented command (no hidden setup).  The folder is outside
the clone: it holds an empty ``reports/`` and, for DEVELOPMENT.md's benchmark commands (which a
page says run in a clone), a link to ``benchmarks/``; nothing else of the checkout (the OpenSpiel
trainer is ``python -m sflp.examples.cfr_plus``, installed with sflp).  ``sflp`` and ``python``
are this interpreter (shims on PATH), ``~`` is a temporary home, and the data folder for ``sflp
equity build`` is a temporary one.

The first command of the README, the main job, also regenerates the committed example set in
``reports/``: the data files must come out byte-identical (see
:func:`test_the_main_job_reproduces_the_committed_reports`).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"
MAIN_SET = "hu-pushfold_sb0.5_bb1_ante0_bbante0_1-25"


BLOCK = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)
"""A fenced block of a page: its language tag (maybe empty) and its text."""
COMMAND_BLOCKS = ("bash", "sh", "shell", "console")
COMMAND_WORDS = re.compile(r"^\s*(?:\$\s+)?(?:sflp|python|python3|pip|cd|cp|pytest)\s")
"""A line that reads as a shell command."""


def page_commands(page: Path) -> list[str]:
    """The command lines of one page's bash and console blocks (in a console block, the ``$ ``
    lines), comments dropped, in order."""
    out = []
    for lang, block in BLOCK.findall(page.read_text(encoding="utf-8")):
        if lang not in COMMAND_BLOCKS:
            continue
        for line in block.splitlines():
            if lang == "console":
                if not line.startswith("$ "):
                    continue  # the command's output
                line = line[2:]
            line = re.sub(r"\s+#\s.*$", "", line).strip()
            if line and not line.startswith("#"):
                out.append(line)
    return out


def readme_commands() -> list[str]:
    """The command lines of the README's and then docs/*.md's bash blocks, each once, in order."""
    pages = [README, *sorted(DOCS.glob("*.md"))]
    return list(dict.fromkeys(line for page in pages for line in page_commands(page)))


POLICY_JSON = ("python -c \"import json, sflp; s = sflp.solve(sflp.GameConfig(stack=10)); json.dump("
               "sflp.openspiel.from_strategy(s.sb_strategy, s.bb_strategy, config=s.config), "
               "open('reports/policy.json', 'w'))\"")
"""docs/OPENSPIEL.md's step that writes the policy table its `sflp verify --policy` examples read."""
GAMES = "sflp export efg --stacks 5,10,15 --out reports/games"
TRAIN = "python -m sflp.examples.cfr_plus reports/games --iterations 10,30,100"
"""docs/OPENSPIEL.md's solver-author workflow: the games, OpenSpiel's CFR+ iterates saved beside them."""
BR_GAME = "sflp export efg --stack 10 --out reports/br/10bb.efg"
BR_POLICY = ("python -c \"import json, sflp; x, y = sflp.solve(sflp.GameConfig(stack=9)).class_strategies(); "
             "json.dump(sflp.openspiel.from_strategy(x, y, config=sflp.GameConfig(stack=10)), "
             "open('reports/br/policy.json', 'w'))\"")

# How each README command is run.  "run": as written (after the setup commands, in the same
# folder); "slow": the same, in the slow tests; ("with", LINE): as written, in LINE's test right
# after LINE (commands that need the same setup share one folder, as a reader's session would,
# instead of repeating it: fast-suite time); anything else: why it is covered elsewhere.
HOW: dict[str, str | tuple[str, ...]] = {
    # the main job runs once, in test_the_main_job_reproduces_the_committed_reports (which also asserts
    # the exit code and no traceback); the pip part is CI's own install
    "pip install -e . && sflp chart --stacks 1:25:0.05":
        "test_the_main_job_reproduces_the_committed_reports runs `sflp chart --stacks 1:25:0.05` as written",
    "pip install -e '.[test]' && python -m pytest": "CI: .ci/run runs exactly this line (checked below)",
    "pip wheel --no-deps -w dist . && pip install dist/sflp-0.1.0-py3-none-any.whl":
        "tests/test_packaging.py::test_wheel_installs_and_solves_outside_the_checkout builds and installs the "
        "wheel offline, and .ci/run's pass 3",
    "cd ~ && sflp solve --stack 10": ("run",),
    "python -m sflp --version": ("run",),
    "sflp compare nash ante=0.125": ("slow",),
    "sflp compare reports/my-chart reports/hu-pushfold_sb0.5_bb1_ante0_bbante0_1-25 --out reports/mine-vs-nash":
        ("slow", "sflp chart --stacks 1:25:0.05", "sflp chart --stacks 1:25:0.1 --out reports/my-chart"),
    "sflp chart --stacks 1:25:0.1 --out reports/my-chart":
        "the setup of the slow test of `sflp compare reports/my-chart ...`, which runs it as written",
    "sflp rank --json": ("run",),
    "sflp verify-thresholds reports/ante": ("with", "sflp chart --stacks 2,5,10,15 --ante 0.1 --out reports/ante"),
    'sflp verify --stack 10 --sb "[50]AKo,KQs[/50],JJ-" --bb 30%': ("run",),
    "sflp exploit --stack 10 --bb 30%": ("run",),
    "sflp exploit --stack 8 --sb random --json": ("run",),
    "sflp exploit --stacks 1:25:0.05 --bb 30%": ("slow",),
    "sflp sc --ante 0.125": ("run",),
    "sflp equity AhAd KcKs": ("run",),
    "sflp equity AA KK --json": ("run",),
    'sflp equity "QQ+,AKs" "22+"': ("run",),
    "sflp equity build": ("slow",),
    "sflp solve --stack 10": ("run",),
    "sflp solve --stack 10 --exact --json": ("run",),
    # slow: a combo-level LP is compiled afresh in every process (about 7 s); the fast suite runs
    # `sflp solve --stack 10 --combos` in process (tests/test_robustness.py::test_json_and_text_show_no_noise)
    "sflp solve --stack 12 --ante 0.125 --bb-ante 0 --combos": ("slow",),
    "sflp solve --stack 10 --out reports/s10": ("run",),
    "sflp chart --stacks 1:25:0.05":
        "test_the_main_job_reproduces_the_committed_reports runs it as written and compares its files",
    "sflp chart --stacks 2,5,10,15 --ante 0.1 --out reports/ante": ("run",),
    "sflp chart --stacks 1:60:0.1 --grid-stacks 5,10,30,50": ("slow",),
    # slow: 4,901 stacks (about 5 s); the fast suite writes segments in process
    # (tests/test_chart_pipeline.py::test_segments_are_maximal_runs_that_tile_the_solved_stacks)
    "sflp chart --stacks 1:50:0.01 --formats csv,pdf --ranges segments": ("slow",),
    # slow: the fast suite writes Letter pages in process (tests/test_chart_pdf.py::
    # test_pdf_pages_are_landscape_on_the_paper_asked_for) and runs `sflp atlas --ante 0,0.1 --stacks 8:9:0.5
    # --ante-stacks none` as a real command (tests/test_stdout_clean.py, its "atlas" row)
    "sflp chart --stacks 1:25:0.05 --formats pdf --paper letter --out reports/letter": ("slow",),
    "sflp atlas --ante 0,0.1 --stacks 5:10:0.5 --ante-stacks none --out reports/atlas-small": ("slow",),
    "sflp atlas --preset standard": ("slow",),
    "sflp atlas --ante 0:0.125:0.025 --reach 24 --out reports/atlas-ante":
        "test_the_readme_atlas_reproduces_the_committed_atlas (slow) runs it as written and compares its files",
    "sflp atlas --ante 0:0.25:0.005 --stacks 1:25:0.05 --out reports/atlas":
        "tests/test_atlas.py runs the same job on smaller grids (two antes, 1-25 and 5-10 bb) and checks it against "
        "the committed chart set and single solves; its 51 structures are the issue's benchmark, not a test",
    "sflp atlas --ante 0:0.25:0.005 --scheduler tcp://HOST:8786 --out reports/atlas":
        "needs a Dask cluster at HOST: tests/test_atlas_dask.py starts a real LocalCluster and writes an atlas on it",
    # slow: the fast suite exports a game with an ante (tests/test_policy_names_game.py's ante_folder)
    "sflp export efg --stack 10 --ante 0.125 --out reports/pushfold_10bb_ante.efg": ("slow",),
    "sflp export efg --stack 10 --out reports/pushfold_10bb.efg": ("run",),
    # slow: the fast suite scores policy files through the CLI (tests/test_policy_names_game.py,
    # tests/test_best_response.py::test_cli_writes_the_file_and_keeps_stdout_the_report)
    POLICY_JSON: ("slow",),
    # slow: OpenSpiel's CFR+ for 100 iterations at three stacks (about 25 s); the fast suite runs the same
    # workflow on one stack (tests/test_policy_names_game.py::test_the_issues_workflow_with_openspiel)
    GAMES: ("slow",),
    TRAIN: "the setup of the slow test of `sflp verify --policy-dir reports/games ...`, which runs it as written",
    "sflp verify --policy-dir reports/games --max-nash-conv 1e-3 --out reports/scores": ("slow", GAMES, TRAIN),
    BR_GAME: ("slow",),
    BR_POLICY: "the setup of the slow test of `sflp verify --policy reports/br/policy.json --best-response ...`",
    "sflp verify --policy reports/br/policy.json --best-response reports/br/best_response.json":
        ("slow", BR_GAME, BR_POLICY),
    "sflp export efg --combos --stack 10 --out combo10.efg": ("slow",),
    # slow: a combo-level LP compiled in the process (about 4 s); the fast suite runs `export npz` through
    # the CLI's main (tests/test_combo_cli.py::test_export_npz_writes_the_sequence_form)
    "sflp export npz --stack 10 --out combo10.npz": ("slow",),
    "sflp verify --stack 10 --policy reports/policy.json": ("slow", POLICY_JSON),
    "sflp verify --policy reports/policy.json --max-nash-conv 1e-9 --json": ("slow", POLICY_JSON),
    "sflp verify --stack 10 --policy reports/policy.json --max-nash-conv 1e-3 --json --require-game":
        ("slow", POLICY_JSON),
    # exit 1: BB's "22+,A2+,K9o+" is exploitable by more than 0.001 bb, and the README says that
    # --max-exploitability then exits 1 (the gate is the point of the example)
    'sflp verify --stack 10 --sb my_push.csv --bb "22+,A2+,K9o+" --max-exploitability 0.001':
        ("with", "sflp solve --stack 10 --out reports/s10"),
    # slow: two seconds by design; the fast suite runs `sflp approx cfr+ --stack 10 --seconds 3.5` as a real
    # command (tests/test_cli_views.py::test_progress_bar_on_a_terminal_for_long_runs)
    "sflp approx cfr+ --stack 10 --seconds 2": ("slow",),
    "sflp approx-bench --stacks 5,10,20": ("slow",),
    "sflp simulate --stack 10 --hands 1000000 --seed 1": ("slow",),
    "sflp cache info": ("run",),
    "cp reports/s10/sb_push_10bb.csv my_push.csv": ("with", "sflp solve --stack 10 --out reports/s10"),
    # DEVELOPMENT.md / PERFORMANCE.md: the benchmarks, run in a clone
    "python benchmarks/record.py --check": ("run",),
    "python benchmarks/record.py":
        "runs every benchmark (minutes on an idle machine, its figures depend on the load) and rewrites the "
        "committed records and quotes; --check, run here, compares the quotes with the records",
    "python benchmarks/record.py --only chart":
        "rewrites benchmarks/results/chart.json and its quotes in the checkout; --check, run here, reads them",
    "sflp approx-bench --openspiel --stacks 5,10,20 --seconds 20":
        "OpenSpiel's six solvers and sflp's five for 20 s each at three stacks: 586 s once on 2 cores, a third of "
        "CI's whole budget for one benchmark; tests/test_openspiel.py::"
        "test_the_atlas_runs_every_openspiel_method_and_scores_it_exactly runs the same path at 0.05 s a method",
    # run as written with SFLP_CACHE_DIR a folder of its own (PRIVATE_CACHE): the cache the test session shares
    # stays; tests/test_caches.py::test_numba_and_the_lp_cache_go_to_the_cache_folder_and_clear_removes_only_sflp_files
    # checks what it removes
    "sflp cache clear": ("run",),
}
PRIVATE_CACHE = {"sflp cache clear"}
"""Commands run with ``SFLP_CACHE_DIR`` a folder of their test's own."""


EXIT_CODES = {'sflp verify --stack 10 --sb my_push.csv --bb "22+,A2+,K9o+" --max-exploitability 0.001': 1}
"""Commands that demonstrate a failing gate; every other command must exit 0."""


@pytest.fixture
def shell(tmp_path):
    """Run a README line in ``tmp_path/work`` with ``sflp``/``python`` being this interpreter."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name, body in (("sflp", f'exec "{sys.executable}" -m sflp "$@"\n'),
                       ("python", f'exec "{sys.executable}" "$@"\n')):
        shim = bin_dir / name
        shim.write_text("#!/bin/sh\n" + body)
        shim.chmod(shim.stat().st_mode | stat.S_IEXEC)
    work, home = tmp_path / "work", tmp_path / "home"
    work.mkdir()
    home.mkdir()
    # a folder outside the clone: reports/ is there (what the commands write goes under it), and
    # benchmarks/ for DEVELOPMENT.md's commands, which run in a clone; docs/ is not (issue 52: the
    # OpenSpiel trainer ran only inside a clone, it is sflp.examples.cfr_plus now)
    (work / "reports").mkdir()
    (work / "benchmarks").symlink_to(ROOT / "benchmarks")
    env = {k: v for k, v in os.environ.items() if k not in ("SFLP_DATA_DIR", "SFLP_PAUSE_AT")}
    env.update(PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '')}", HOME=str(home),
               XDG_DATA_HOME=str(home / ".local" / "share"), PYTHONPATH=str(ROOT), NO_COLOR="1")

    def run(line: str, **extra_env: str) -> subprocess.CompletedProcess:
        proc = subprocess.run(["bash", "-c", line], cwd=work, env={**env, **extra_env}, capture_output=True,
                              text=True, timeout=900)
        expected = EXIT_CODES.get(line, 0)
        assert proc.returncode == expected, f"{line!r} exited {proc.returncode}:\n{proc.stderr[-3000:]}"
        if expected == 1:
            assert proc.stderr.strip().startswith("FAIL: exploitability above"), proc.stderr
        assert "Traceback" not in proc.stderr, proc.stderr
        if "--json" in line.split():
            json.loads(proc.stdout)
        return proc

    run.work = work  # type: ignore[attr-defined]
    return run


def _steps(line: str) -> tuple[str, tuple[str, ...]]:
    how = HOW[line]
    assert isinstance(how, tuple)
    command = line.split("&&", 1)[1].strip() if line.startswith("pip install") else line
    return how[0], (*how[1:], command)


def _lines(kind: str) -> list[str]:
    return [line for line in readme_commands() if isinstance(HOW.get(line), tuple) and HOW[line][0] == kind]


def _followers(line: str) -> list[tuple[str, ...]]:
    """The commands run in ``line``'s test after it (HOW's ("with", line, setup...)), in README
    order, each as its setup steps and then itself."""
    return [(*HOW[other][2:], other) for other in _lines("with") if HOW[other][1] == line]


def test_every_readme_command_is_covered():
    commands = readme_commands()
    assert len(commands) >= 20  # the extractor found the blocks
    assert sorted(set(commands) - set(HOW)) == [], "README commands with no entry in HOW"
    assert sorted(set(HOW) - set(commands)) == [], "HOW lists commands the README no longer has"
    for line in _lines("with"):  # a command run after another runs where that one runs: in the fast set
        assert HOW[HOW[line][1]][0] == "run", (line, HOW[line])
    hidden = {step for how in HOW.values() if isinstance(how, tuple) for step in how[1:]} - set(commands)
    assert sorted(hidden) == [], "setup steps the docs do not show (issue 52: `verify --sb my_push.csv`)"
    not_run = [line for line, how in HOW.items() if isinstance(how, str) and "runs it as written" not in how
               and "runs exactly this line" not in how and "the setup of the slow test" not in how]
    assert len(not_run) <= 10, ("the list of documented commands not run as written should stay short", not_run)


def test_no_command_hides_in_an_untagged_block():
    """A fenced block of no language or of ```text that holds a shell command would be skipped by
    the extractor; such blocks are tagged ```bash (issue 52: DEVELOPMENT.md's and PERFORMANCE.md's
    benchmark commands, OPENSPIEL.md's convergence atlas were not run)."""
    untagged = []
    for page in [README, *sorted(DOCS.glob("*.md"))]:
        for lang, block in BLOCK.findall(page.read_text(encoding="utf-8")):
            if lang not in COMMAND_BLOCKS and lang != "python" and any(map(COMMAND_WORDS.match, block.splitlines())):
                untagged.append(f"{page.name}: {block.splitlines()[0][:60]}")
    assert untagged == []


def test_a_console_block_gives_its_dollar_lines(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("```console\n$ sflp rank --json   # the ranking\n{\"rows\": []}\n```\n", encoding="utf-8")
    assert page_commands(page) == ["sflp rank --json"]


def test_ci_runs_the_readme_test_command_verbatim():
    assert "pip install --quiet -e '.[test]' && versions && python -m pytest" in (ROOT / ".ci" / "run").read_text()
    assert "pip install -e '.[test]' && python -m pytest" in readme_commands()


def test_the_readme_opens_with_the_two_commands():
    """The README's first block is the install-and-chart command and the test command, in that order."""
    assert page_commands(README)[:2] == ["pip install -e . && sflp chart --stacks 1:25:0.05",
                                         "pip install -e '.[test]' && python -m pytest"]


@pytest.mark.parametrize("line", _lines("run"))
def test_readme_command_runs(shell, line, tmp_path):
    _, steps = _steps(line)
    extra = {"SFLP_CACHE_DIR": str(tmp_path / "cache")} if line in PRIVATE_CACHE else {}
    for step in steps:
        shell(step, **extra)
    done = set(steps)
    for *setup, command in _followers(line):  # the commands that need this one's files, in the same folder
        for step in [s for s in setup if s not in done]:  # a setup step shared with an earlier one runs once
            shell(step)
            done.add(step)
        shell(command)


@pytest.mark.slow
@pytest.mark.parametrize("line", _lines("slow"))
def test_readme_command_runs_slow(shell, line, tmp_path):
    _, steps = _steps(line)
    extra = {"SFLP_DATA_DIR": str(tmp_path / "table")} if line == "sflp equity build" else {}
    if extra:
        (tmp_path / "table").mkdir()
    for step in steps:
        shell(step, **extra)


# ---------------------------------------------------------------- the committed example set

RASTER = (".png",)
"""Pictures rasterised by Pillow: their bytes depend on its version (manifest "made_with")."""
CONTAINERS = ("chart.xlsx", "chart.pdf")
"""Files whose container bytes depend on XlsxWriter's or reportlab's version; their cell values and
texts never do."""


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _xlsx_cells(path: Path) -> dict:
    from openpyxl import load_workbook

    book = load_workbook(path, read_only=True)
    return {ws.title: [tuple(row) for row in ws.iter_rows(values_only=True)] for ws in book.worksheets}


def test_the_main_job_reproduces_the_committed_reports(shell):
    """The README's main job writes, on any machine, the files the repository ships in reports/.

    Every published number is the exact rational solution rounded once, so neither the HiGHS
    build nor the BLAS can change a digit: the CSV, HTML and SVG files are byte-identical and the
    workbook's cell values equal, with any dependency versions.  The PNG pictures, the workbook's
    container and the PDF's bytes are compared when Pillow, XlsxWriter and reportlab are the
    versions that made the committed set (its manifest's "made_with"), as they are in CI's newest
    pass.
    """
    proc = shell("sflp chart --stacks 1:25:0.05", COLUMNS="80")
    # docs/CLI.md quotes the footnote this command prints under its grids (issue 52: it quoted one
    # the output no longer printed)
    quoted = re.search(r"`sflp chart --stacks 1:25:0.05` prints\s+`(† 63s: [^`]+)`",
                       (DOCS / "CLI.md").read_text(encoding="utf-8"))
    assert quoted and quoted.group(1) in proc.stdout.splitlines(), (quoted, proc.stdout[-1500:])
    new = shell.work / "reports" / MAIN_SET
    old = ROOT / "reports" / MAIN_SET
    assert sorted(p.name for p in new.iterdir()) == sorted(p.name for p in old.iterdir())
    manifest_new = json.loads((new / "manifest.json").read_text())
    manifest_old = json.loads((old / "manifest.json").read_text())
    same_libs = manifest_new.pop("made_with") == manifest_old.pop("made_with")
    version_bound = [n for n in manifest_old["files"] if n["name"].endswith(RASTER) or n["name"] in CONTAINERS]
    if not same_libs:
        for m in (manifest_new, manifest_old):
            m["files"] = [f for f in m["files"] if f["name"] not in {v["name"] for v in version_bound}]
    assert manifest_new == manifest_old
    for path in sorted(old.iterdir()):
        if path.name == "manifest.json" or (not same_libs and path in [old / v["name"] for v in version_bound]):
            continue
        assert _sha(new / path.name) == _sha(path), f"{path.name} differs from the committed reports/{MAIN_SET}"
    assert _xlsx_cells(new / "chart.xlsx") == _xlsx_cells(old / "chart.xlsx")


@pytest.mark.slow
def test_the_readme_atlas_reproduces_the_committed_atlas(shell):
    """The README's atlas command writes the atlas the repository ships in reports/atlas-ante/:
    the same tables (read back with sflp.read_atlas: the Parquet bytes name the pyarrow version),
    and byte for byte the same page, hand maps (SVG) and ante-shift differences."""
    import sflp

    shell("sflp atlas --ante 0:0.125:0.025 --reach 24 --out reports/atlas-ante")
    new, old = shell.work / "reports" / "atlas-ante", ROOT / "reports" / "atlas-ante"
    assert sorted(p.name for p in new.iterdir()) == sorted(p.name for p in old.iterdir())
    for name in ("atlas.html", "hand_maps.svg", "ante_shift.csv"):
        assert _sha(new / name) == _sha(old / name), f"{name} differs from the committed reports/atlas-ante"
    a, b = sflp.read_atlas(new), sflp.read_atlas(old, verify="proof")  # the committed atlas proves itself
    for frame in ("thresholds", "values", "paths", "ante_thresholds", "ante_paths"):
        x, y = getattr(a, frame), getattr(b, frame)
        assert x.equals(y), frame


def test_the_readme_is_short():
    """Issue 44: a README a newcomer reads to the end -- the two commands, what sflp is and why, a
    short tour -- in at most 300 lines; the manual is docs/."""
    assert len(README.read_text(encoding="utf-8").splitlines()) <= 300
