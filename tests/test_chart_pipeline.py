"""The library chart pipeline: ``sflp.chart`` and ``sflp chart`` make the same set; the writers
(one interface per format) and the compact ranges forms give back exactly ``ranges.csv``."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

import sflp
from sflp.charts.media import csv as csv_writer
from sflp.charts.media import formats as writers
from sflp.charts.readback import _read_csv, read_ranges
from sflp.errors import ConfigError

STACKS = "2:4:0.25"  # nine stacks across a few breakpoints of the equilibrium path


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """The same small job three ways: ranges.csv, ranges_segments.csv, ranges.parquet."""
    root = tmp_path_factory.mktemp("pipeline")
    sets = {form: sflp.chart(stacks=STACKS, out=root / form, ranges=form, formats="csv", workers=0)
            for form in ("csv", "segments")}
    return root, sets


@pytest.fixture(scope="module")
def library_set(tmp_path_factory):
    """``sflp.chart(stacks=STACKS)`` with every format in a fresh process: its folder, the files its
    result names, and the format libraries the solving process had loaded by the end.  Two tests read
    it (each made the same job on its own before: 3-4 s)."""
    out = tmp_path_factory.mktemp("library") / "w"
    code = (
        "import json, sys, sflp; "
        f"result = sflp.chart(stacks={STACKS!r}, out={str(out)!r}, workers=2); "
        "print(json.dumps({'files': sorted(result.files), 'loaded': [m for m in ('pandas', 'openpyxl', 'PIL', "
        "'reportlab', 'matplotlib', 'pyarrow') if m in sys.modules]}))"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return out, json.loads(run.stdout)


def test_cli_and_library_write_the_same_files(library_set, tmp_path):
    lib, made_by_library = library_set
    out = subprocess.run([sys.executable, "-m", "sflp", "chart", "--stacks", STACKS, "--out", str(tmp_path / "cli"),
                          "--json"], capture_output=True, text=True, check=True).stdout
    cli_files = json.loads(out)["files"]
    assert sorted(cli_files) == made_by_library["files"]
    for name in made_by_library["files"]:
        assert (lib / name).read_bytes() == (tmp_path / "cli" / name).read_bytes(), name


def test_result_reports_what_was_solved(made):
    _, sets = made
    result = sets["csv"]
    assert result.stacks == tuple(2 + 0.25 * k for k in range(9))
    assert result.certified == 9 and result.thresholds is not None
    assert result.to_dict()["stacks"] == 9 and result.to_dict()["low"] == 2.0


def test_segments_give_back_every_frequency_of_ranges_csv(made):
    root, _ = made
    full = read_ranges(root / "csv")
    seg = read_ranges(root / "segments")
    for column in ("player", "hand"):
        assert seg[column].astype(str).tolist() == full[column].astype(str).tolist()
    assert np.array_equal(seg["stack"].to_numpy(), full["stack"].to_numpy())
    assert np.array_equal(seg["frequency"].to_numpy(), full["frequency"].to_numpy())  # exact, no NaN left


def test_segments_are_maximal_runs_that_tile_the_solved_stacks(made):
    root, sets = made
    runs = _read_csv(root / "segments" / "ranges_segments.csv")
    solved = list(sets["segments"].stacks)
    assert list(runs.columns) == list(writers.SEGMENTS_COLUMNS)
    for (_, _), hand in runs.groupby(["player", "hand"], sort=False):
        starts, ends, freq = hand["stack_from"].tolist(), hand["stack_to"].tolist(), hand["frequency"].tolist()
        assert starts[0] == solved[0] and ends[-1] == solved[-1]
        for k in range(1, len(starts)):
            # the next run starts at the solved stack right after the previous one ends
            assert solved.index(starts[k]) == solved.index(ends[k - 1]) + 1
            assert freq[k] != freq[k - 1]  # else the two runs would be one
    assert len(runs) < 338 * len(solved)


def test_parquet_holds_exactly_ranges_csv(made, tmp_path):
    pytest.importorskip("pyarrow", reason="the parquet extra (pyarrow) is not installed")
    root, _ = made
    sflp.chart(stacks=STACKS, out=tmp_path / "pq", ranges="parquet", formats="csv", workers=0)
    full, pq = read_ranges(root / "csv"), read_ranges(tmp_path / "pq")
    for column in ("player", "hand"):
        assert pq[column].astype(str).tolist() == full[column].astype(str).tolist()
    for column in ("stack", "frequency", "ev_margin"):
        assert np.array_equal(pq[column].to_numpy(np.float64), full[column].to_numpy(np.float64), equal_nan=True)


def test_parquet_without_pyarrow_says_how_to_install_it(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # import pyarrow now fails
    with pytest.raises(ConfigError, match=r"pip install 'sflp\[parquet\]'"):
        sflp.chart(stacks=STACKS, out=tmp_path / "x", ranges="parquet")
    assert not (tmp_path / "x").exists()


def test_auto_switches_to_segments_above_the_stated_size(tmp_path, monkeypatch):
    monkeypatch.setattr(writers, "RANGES_CSV_MAX_STACKS", 5)
    result = sflp.chart(stacks=STACKS, out=tmp_path / "auto", formats="csv", workers=0)
    assert "ranges_segments.csv" in result.files and "ranges.csv" not in result.files
    manifest = json.loads((tmp_path / "auto" / "manifest.json").read_text())
    assert manifest["ranges"] == "segments"


def test_formats_pick_the_files(tmp_path):
    result = sflp.chart(stacks=STACKS, out=tmp_path / "some", formats=["svg", "pdf"], workers=0)
    suffixes = {name.rsplit(".", 1)[1] for name in result.files if name != "manifest.json"}
    assert suffixes == {"svg", "pdf"}
    assert json.loads((tmp_path / "some" / "manifest.json").read_text())["formats"] == ["pdf", "svg"]


def test_paper_reaches_the_pdf_and_the_manifest(tmp_path):
    sflp.chart(stacks=STACKS, out=tmp_path / "letter", formats="pdf", paper="Letter", workers=0)
    data = (tmp_path / "letter" / "chart.pdf").read_bytes()
    assert b"/MediaBox [ 0 0 792 612 ]" in data  # ANSI Letter landscape, 11 x 8.5 in
    assert json.loads((tmp_path / "letter" / "manifest.json").read_text())["paper"] == "letter"


@pytest.mark.parametrize("kwargs, message", [
    ({"formats": "csv,docx"}, "formats 'csv,docx': unknown 'docx'; choose from csv, xlsx, html, pdf, png, svg"),
    ({"formats": []}, "none given"),
    ({"ranges": "json"}, "ranges 'json': choose from auto, csv, segments, parquet"),
    ({"paper": "a5"}, "paper 'a5': choose from a4, letter"),
    ({"stacks": "4:2:1"}, "stop must not be below start"),
    ({"config": "nash"}, "config must be a GameConfig, got str"),
])
def test_bad_arguments_fail_before_any_work(tmp_path, kwargs, message):
    with pytest.raises(ConfigError, match=message.replace("(", r"\(").replace("[", r"\[")):
        sflp.chart(**{"stacks": STACKS, "out": tmp_path / "never", **kwargs})
    assert not (tmp_path / "never").exists()


def test_progress_goes_through_the_phases_in_order(tmp_path):
    seen: list[str] = []
    sflp.chart(stacks=STACKS, out=tmp_path / "p", formats="csv", workers=0,
               progress=lambda phase, done, total: seen.append(phase) if phase not in seen else None)
    assert seen == ["thresholds", "solving", "writing"]


def test_read_ranges_names_a_folder_without_ranges(tmp_path):
    with pytest.raises(ConfigError, match="holds no ranges.csv, ranges.parquet or ranges_segments.csv"):
        read_ranges(tmp_path)


def test_the_solving_process_never_loads_pandas_or_a_format_library(library_set):
    """The every-stack files are streamed from the solving process; frames, the workbook, the
    page, the PDF and the pictures are made in the worker processes."""
    out, made = library_set
    assert made["loaded"] == []
    assert (out / "chart.xlsx").is_file() and (out / "chart.pdf").is_file()


def test_values_csv_made_in_pieces_is_the_same_file(tmp_path, monkeypatch):
    """values.csv is made by workers a piece at a time while the sweep goes on: any piece size
    gives the bytes of the one-piece file, with the exact values too."""
    whole = sflp.chart(stacks=STACKS, out=tmp_path / "whole", formats="csv", exact=True, workers=0)
    monkeypatch.setattr(csv_writer, "VALUES_CHUNK", 2)
    pieces = sflp.chart(stacks=STACKS, out=tmp_path / "pieces", formats="csv", exact=True, workers=2)
    one = (tmp_path / "whole" / "values.csv").read_bytes()
    assert (tmp_path / "pieces" / "values.csv").read_bytes() == one
    assert one.count(b"\n") == 1 + len(whole.stacks) and b",value_exact\n" in one.splitlines(keepends=True)[0]
    assert pieces.files.keys() == whole.files.keys()


def test_non_ascii_text_reaches_every_format_that_shows_titles(tmp_path):
    """A title in any script comes out as written: in the page, the workbook, the SVG pictures and
    (read back by pdftotext when poppler is installed) the PDF; the PNGs are drawn from the same
    drawing with the bundled DejaVu fonts."""
    import shutil

    import openpyxl

    from sflp.charts.chartset import write_chart_set
    from sflp.core.game import GameConfig
    from sflp.solving.solver import solve_many
    from sflp.solving.thresholds import compute_thresholds

    title = "Exploité ≤ 30% − Ω"
    config = GameConfig(stack=4)
    files = write_chart_set(solve_many([4, 5], config), compute_thresholds(config, low=4, high=5), tmp_path / "set",
                            title=title, workers=0)
    assert title in (tmp_path / "set" / "chart.html").read_text(encoding="utf-8")
    assert title in (tmp_path / "set" / "sb_push.svg").read_text(encoding="utf-8")
    book = openpyxl.load_workbook(files["chart.xlsx"], read_only=True)
    cells = [c for ws in book.worksheets for row in ws.iter_rows(values_only=True) for c in row if isinstance(c, str)]
    assert any(title in c for c in cells)
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (poppler-utils) is not on PATH: the PDF's text was not read back")
    text = subprocess.run(["pdftotext", "-enc", "UTF-8", files["chart.pdf"], "-"], capture_output=True,
                          check=True).stdout.decode("utf-8")
    assert title in " ".join(text.split())
