"""The installable product: the table found as package data, the user data folder, the public API
on the package, ``python -m sflp``, and (slow) a real wheel installed into a fresh venv."""

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import zipfile
import zlib
from pathlib import Path

import numpy as np
import pytest

import sflp.core.equity as eq
from sflp.errors import ConfigError, DataError

ROOT = Path(__file__).resolve().parent.parent
BOARDS = 1_712_304  # C(48, 5)


def _env(**extra):
    env = {k: v for k, v in os.environ.items() if k not in ("SFLP_DATA_DIR", "XDG_DATA_HOME", "PYTHONPATH")}
    env.update(extra)
    return env


# ---------------------------------------------------------------- the public API


def test_import_sflp_is_light():
    code = (
        "import sys, sflp\n"
        "heavy = [m for m in ('cvxpy', 'pandas', 'matplotlib', 'scipy', 'numba', 'numpy') if m in sys.modules]\n"
        "print(','.join(heavy))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == ""


def test_public_api_names_resolve():
    import sflp

    expected = {
        "solve", "solve_many", "GameConfig", "Solution", "equity", "load_table", "parse_range", "Range",
        "compute_thresholds", "Thresholds", "verify", "load_strategy", "write_chart_set", "SflpError",
        "ConfigError", "DataError", "NotationError", "SolveError", "OutputError", "errors",
    }
    assert expected <= set(sflp.__all__)
    assert expected <= set(dir(sflp))
    for name in sflp.__all__:
        assert getattr(sflp, name) is not None, name
    with pytest.raises(AttributeError):
        sflp.no_such_thing  # noqa: B018


def test_public_functions_are_not_shadowed_by_their_modules():
    """``sflp.equity``, ``sflp.verify`` and ``sflp.simulate`` are functions, whatever was imported
    first: their modules live a floor down (``sflp.core.equity``, ``sflp.study.verify`` ...), so
    importing them binds nothing on ``sflp`` itself."""
    import types

    import sflp
    import sflp.core.equity
    import sflp.study.simulate
    import sflp.study.verify

    for name in ("equity", "verify", "simulate"):
        assert not isinstance(getattr(sflp, name), types.ModuleType), name
    # GNU poker-eval's enumeration of AdAc vs KhKs
    assert sflp.equity("AdAc", "KhKs").counts.wins == 1388072
    assert sflp.core.equity.BOARDS_PER_PAIR == BOARDS
    spec = sflp.load_strategy("random", "sb")
    report = sflp.verify(sflp.GameConfig(stack=10), spec, None)
    assert report.sb_exploitability > 0
    assert sflp.study.verify.load_strategy is sflp.load_strategy


def test_version_and_python_dash_m():
    import sflp

    out = subprocess.run([sys.executable, "-m", "sflp", "--version"], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0 and out.stdout.strip() == f"sflp {sflp.__version__}"
    assert (ROOT / "sflp" / "py.typed").is_file()


# ---------------------------------------------------------------- where the table lives


def test_sflp_data_dir_overrides(monkeypatch, tmp_path):
    monkeypatch.setenv("SFLP_DATA_DIR", str(tmp_path))
    assert eq.data_dirs() == [tmp_path]
    assert eq.default_data_dir() == tmp_path  # even without a table: its error names it
    assert eq.build_target_dir() == tmp_path
    with pytest.raises(DataError, match=str(tmp_path)):
        eq.load_table_from(eq.default_data_dir())


def test_user_data_folder_is_searched_and_used_for_builds(monkeypatch, tmp_path):
    monkeypatch.delenv("SFLP_DATA_DIR", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    user = tmp_path / "xdg" / "sflp"
    assert eq.user_data_dir() == user
    assert user in eq.data_dirs()
    # a checkout: the shipped table is in data/, and a build without --data-dir rewrites it
    assert eq.default_data_dir() == ROOT / "data"
    # a read-only package folder (here: a "folder" below a file): builds go to the user folder
    blocker = tmp_path / "file"
    blocker.write_text("x")
    monkeypatch.setattr(eq, "_home_dir", lambda: blocker / "data")
    assert eq.build_target_dir() == user
    # a table the user built there is found first
    user.mkdir(parents=True)
    for name in (eq.TABLE_NAME, eq.CHECKSUM_NAME):
        shutil.copyfile(ROOT / "data" / name, user / name)
    assert eq.default_data_dir() == user


def test_build_target_is_checked_before_the_work(monkeypatch, tmp_path, capsys):
    import sflp.core.equity_build
    from sflp.cli import main

    def boom(**kw):
        raise AssertionError("the enumeration must not start")

    monkeypatch.setattr(sflp.core.equity_build, "build_win_table", boom)
    afile = tmp_path / "afile"
    afile.write_text("keep me")
    for target in (afile, afile / "sub"):
        with pytest.raises(ConfigError, match="a file, not a folder"):
            eq.build_table(target)
        assert main(["equity", "build", "--data-dir", str(target)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "is a file, not a folder" in err and "Traceback" not in err
    assert afile.read_text() == "keep me"


def _resign(blob: bytes, folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / eq.TABLE_NAME).write_bytes(blob)
    digest = hashlib.sha256(blob).hexdigest()
    (folder / eq.CHECKSUM_NAME).write_text(f"{digest}  {eq.TABLE_NAME}\n")


def test_resigned_corrupt_table_is_refused(tmp_path):
    blob = (ROOT / "data" / eq.TABLE_NAME).read_bytes()
    end = blob.index(b"\n", len(eq.MAGIC))
    raw = zlib.decompress(blob[end + 1 :])
    n = len(raw) // 8
    payload = np.frombuffer(raw, dtype=np.uint8).reshape(4, -1).T.copy().view("<u4").ravel().copy()
    # pair 0: wins + ties one more than the 1,712,304 boards there are
    payload[0] = BOARDS - payload[n] + 1
    planes = payload.astype("<u4").view(np.uint8).reshape(-1, 4).T.copy()
    bad = blob[: end + 1] + zlib.compress(planes.tobytes(), 1)
    _resign(bad, tmp_path / "bad")
    with pytest.raises(DataError, match="not the sflp table|bytes, the sflp table has"):
        eq.load_table_from(tmp_path / "bad")  # the pin refuses it before decoding
    with pytest.raises(DataError, match="corrupt: combos 0 vs"):
        eq.decode_table(bad)  # and the decoder's own bound check would too
    # the unmodified payload re-encoded decodes (the bound check is not over-eager), but it is
    # not the pinned file, so the loader refuses it
    good = np.frombuffer(raw, dtype=np.uint8).reshape(4, -1).T.copy().view("<u4").ravel()
    planes = good.view(np.uint8).reshape(-1, 4).T.copy()
    reencoded = blob[: end + 1] + zlib.compress(planes.tobytes(), 1)
    assert int(eq.decode_table(reencoded).wins[0].sum()) > 0
    _resign(reencoded, tmp_path / "good")
    with pytest.raises(DataError, match="sflp equity build"):
        eq.load_table_from(tmp_path / "good")


def _payload(blob: bytes) -> tuple[int, np.ndarray]:
    end = blob.index(b"\n", len(eq.MAGIC))
    raw = zlib.decompress(blob[end + 1 :])
    return end, np.frombuffer(raw, dtype=np.uint8).reshape(4, -1).T.copy().view("<u4").ravel().copy()


def _encode(header_end: int, blob: bytes, payload: np.ndarray) -> bytes:
    planes = payload.astype("<u4").view(np.uint8).reshape(-1, 4).T.copy()
    return blob[: header_end + 1] + zlib.compress(planes.tobytes(), 9)


def test_a_consistent_resigned_edit_is_refused(tmp_path):
    """Issue 19's case: 100,000 boards moved from wins to ties for one combo pair (every bound
    check still holds), recompressed and re-signed beside the file: the pin refuses it."""
    blob = (ROOT / "data" / eq.TABLE_NAME).read_bytes()
    end, payload = _payload(blob)
    n = len(payload) // 2
    k = int(np.argmax(payload[:n] >= 100_000))
    payload[k] -= 100_000
    payload[n + k] += 100_000
    edited = _encode(end, blob, payload)
    eq.decode_table(edited)  # a consistent table: the decoder alone would take it
    _resign(edited, tmp_path)
    with pytest.raises(DataError, match="sflp equity build"):
        eq.load_table_from(tmp_path)


def test_trailing_data_and_a_device_are_refused(tmp_path):
    blob = (ROOT / "data" / eq.TABLE_NAME).read_bytes()
    with pytest.raises(DataError, match="trailing data"):
        eq.decode_table(blob + b"junk")
    _resign(blob + b"junk", tmp_path / "trailing")
    with pytest.raises(DataError, match="bytes, the sflp table has"):
        eq.load_table_from(tmp_path / "trailing")  # refused by its size, before it is read
    if not Path("/dev/zero").exists():
        pytest.skip("no /dev/zero on this system")
    (tmp_path / "dev").mkdir()
    (tmp_path / "dev" / eq.TABLE_NAME).symlink_to("/dev/zero")
    with pytest.raises(DataError, match="not a regular file"):
        eq.load_table_from(tmp_path / "dev")  # at once, reading nothing


def test_a_build_that_does_not_reproduce_the_table_writes_nothing(tmp_path, monkeypatch):
    from sflp.core import equity_build

    wins = eq.load_table().wins.astype(np.int64)
    a, b = int(eq._PAIR_A[0]), int(eq._PAIR_B[0])  # a card-disjoint pair, a < b
    wins[a, b] -= 1  # one board counted as a tie instead of a win: still a valid-looking table
    monkeypatch.setattr(equity_build, "build_win_table", lambda progress=False: wins)
    with pytest.raises(DataError, match="nothing was written"):
        eq.build_table(tmp_path)
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------- the wheel (slow)


@pytest.mark.slow
def test_wheel_installs_and_solves_outside_the_checkout(tmp_path):
    """Build the wheel, install it into a fresh venv (dependencies from the running environment's
    site packages, so nothing is downloaded), and solve from a folder outside the checkout."""
    dist = tmp_path / "dist"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--disable-pip-version-check", "--no-deps",
         "-w", str(dist), str(ROOT)],
        check=True, cwd=tmp_path, env=_env(),
    )
    (wheel,) = dist.glob("sflp-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "sflp/data/equity_table.bin" in names and "sflp/data/equity_table.sha256" in names
    assert "sflp/data/push_fold_lp.npz" in names  # the LP template (sflp.solving.lp.compile_template)
    assert "sflp/py.typed" in names and "sflp/__main__.py" in names
    assert "sflp/examples/cfr_plus.py" in names  # docs/OPENSPIEL.md's trainer: python -m sflp.examples.cfr_plus
    # chart.html's skeleton, style and code (sflp.charts.media.html.page.STATIC_FILES, listed here so this
    # test stays free of the report's imports)
    for static in ("chart.html", "chart.css", "chart.js"):
        assert f"sflp/charts/media/html/static/{static}" in names, static
    for static in ("atlas.html", "atlas.css", "atlas.js"):  # the atlas page's (sflp.atlas.page.STATIC)
        assert f"sflp/atlas/static/{static}" in names, static
    assert not [n for n in names if n.split("/")[0] in ("data", "tests", "benchmarks")], names
    shipped = zipfile.ZipFile(wheel).read("sflp/data/equity_table.sha256").decode().split()[0]
    assert shipped == (ROOT / "data" / eq.CHECKSUM_NAME).read_text().split()[0]

    venv = tmp_path / "venv"
    # a venv of its own (no system site packages: when pytest itself runs in a venv, "system"
    # would be the base interpreter, which lacks the dependencies).  The dependencies come from
    # the running environment by a plain path line in a .pth file: those directories go on
    # sys.path *after* the venv's own site-packages and their .pth files are not processed, so an
    # editable install of sflp there cannot shadow the wheel
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    py = venv / "bin" / "python"
    venv_site = subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip()
    ours = dict.fromkeys(sysconfig.get_paths()[k] for k in ("purelib", "platlib"))
    Path(venv_site, "_sflp_test_deps.pth").write_text("".join(f"{d}\n" for d in ours))
    subprocess.run([str(py), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps",
                    "--ignore-installed", str(wheel)],
                   check=True, env=_env())
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = _env(XDG_DATA_HOME=str(tmp_path / "xdg"))

    def sflp(*args):
        out = subprocess.run(
            [str(venv / "bin" / "sflp"), *args], capture_output=True, text=True, cwd=elsewhere, env=env
        )
        assert out.returncode == 0, out.stderr
        return out.stdout

    code = "import sflp.core.equity as e; print(e.__file__); print(e.default_data_dir())"
    where = subprocess.run([str(py), "-c", code], capture_output=True, text=True, cwd=elsewhere, env=env,
                           check=True).stdout.split()
    assert where[0].startswith(str(venv)) and where[1].startswith(str(venv)), where
    solved = json.loads(sflp("solve", "--stack", "10", "--json"))
    # 10 bb without ante: SB pushes 58.3%, BB calls 37.4% (the README's figures; HRC's chart agrees)
    assert solved["push_pct"] == pytest.approx(58.3, abs=0.05) and solved["call_pct"] == pytest.approx(37.4, abs=0.05)
    assert 0 <= solved["exploitability"] <= 1e-9
    counts = json.loads(sflp("equity", "AA", "KK", "--json"))
    assert counts["pairs"] == 36 and counts["wins"] + counts["ties"] + counts["losses"] == 36 * BOARDS
    assert sflp("--version").startswith("sflp ")
    # python -m sflp in the venv, and nothing was written next to the package or the user folder
    out = subprocess.run([str(py), "-m", "sflp", "equity", "AhAd", "KcKs", "--json"], capture_output=True,
                         text=True, cwd=elsewhere, env=env)
    assert out.returncode == 0 and json.loads(out.stdout)["boards"] == BOARDS
    # the page's code is read from the installed package (importlib.resources), not the checkout
    chars = subprocess.run([str(py), "-c", "from sflp.charts.media.html.page import STATIC_FILES, static_text; "
                            "print(sum(len(static_text(n)) for n in STATIC_FILES))"],
                           capture_output=True, text=True, cwd=elsewhere, env=env, check=True).stdout
    static = ROOT / "sflp" / "charts" / "media" / "html" / "static"
    page_files = ("chart.html", "chart.css", "chart.js")
    assert int(chars) == sum(len((static / n).read_text(encoding="utf-8")) for n in page_files)
    assert not (tmp_path / "xdg").exists()
    site = Path(where[0]).parents[2]  # site-packages (the module is site-packages/sflp/core/equity.py)
    assert not (site / "data").exists()


# ---------------------------------------------------------------- the floor versions CI tests


def _lower_bounds() -> dict[str, str]:
    """Every ``name>=X`` of pyproject.toml's dependencies and test extra, as {name: X}."""
    import re
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    specs = [*project["dependencies"], *project["optional-dependencies"]["test"]]
    out = {}
    for spec in specs:
        m = re.fullmatch(r"([A-Za-z0-9_.-]+)\s*>=\s*([0-9][0-9.]*(?:(?:a|b|rc)[0-9]+)?)(\s*,\s*<\s*[0-9.]+)?(\s*;.*)?",
                         spec.strip())  # a pre-release floor (pygambit 17.0.0b2) is a plain lower bound too
        assert m, f"dependency {spec!r} has no plain lower bound (name>=X[,<Y])"
        out[m.group(1).lower()] = m.group(2)
    return out


def test_floor_constraints_pin_exactly_the_lower_bounds_of_pyproject():
    pins = {}
    for line in (ROOT / ".ci" / "floor-constraints.txt").read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, _, version = line.partition("==")
            pins[name.strip().lower()] = version.strip()
    assert pins == _lower_bounds()


def test_upper_bounds_name_their_reason():
    """An upper cap is allowed only for a named, known break, said in a comment on its line."""
    for line in (ROOT / "pyproject.toml").read_text().splitlines():
        if re.search(r'"[A-Za-z0-9_.-]+[^"]*<[0-9]', line):
            assert "#" in line, f"an upper bound without a reason: {line.strip()}"


KNOWN_ADVISORIES = (
    # (package, the first release that fixes it, advisory): a floor below the fix allows the hole
    ("pyarrow", "14.0.1", "CVE-2023-47248 (GHSA-5wvp-7f3h-6wmm): code execution reading untrusted Parquet/IPC"),
    ("pillow", "10.0.0", "CVE-2023-44271: unbounded text length in ImageFont, denial of service"),
    ("pillow", "10.2.0", "CVE-2023-50447: arbitrary code execution through PIL.ImageMath.eval"),
    ("pillow", "10.3.0", "CVE-2024-28219: buffer overflow in _imagingcms.c"),
    ("tqdm", "4.66.3", "CVE-2024-34062 (GHSA-g7vv-2v7x-gj9p): CLI arguments passed to eval"),
    ("reportlab", "3.6.13", "CVE-2023-33733: code execution through rl_safe_eval"),
)
"""Advisories with a fixed release, of packages sflp depends on (checked by hand against the
advisory databases: GitHub's advisories, PyPA's advisory-database)."""


def _every_floor() -> list[tuple[str, str]]:
    """Every ``(name, X)`` of a ``name>=X`` in pyproject.toml: the dependencies and every extra."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    specs = [*project["dependencies"], *(s for extra in project["optional-dependencies"].values() for s in extra)]
    floors = []
    for spec in specs:
        m = re.match(r"\s*([A-Za-z0-9_.-]+)(?:\[[^]]*\])?\s*>=\s*([0-9][0-9.]*(?:(?:a|b|rc)[0-9]+)?)", spec)
        if m:
            floors.append((m.group(1).lower().replace("_", "-"), m.group(2)))
    return floors


def test_no_floor_allows_a_version_with_a_known_advisory():
    """A lower bound is a claim that the version works; it must not be a version with a known hole
    (sflp reads atlases and chart sets users receive from others), here or in the floors CI tests."""
    from packaging.version import Version

    pins = {}
    for line in (ROOT / ".ci" / "floor-constraints.txt").read_text().splitlines():
        name, _, version = line.split("#", 1)[0].strip().partition("==")
        if version:
            pins[name.strip().lower()] = version.strip()
    floors = _every_floor() + list(pins.items())
    assert any(name == "pyarrow" for name, _ in floors)  # the check reads the extras too
    holes = [f"{name}>={floor} allows {advisory}, fixed in {fixed}"
             for name, floor in floors for package, fixed, advisory in KNOWN_ADVISORIES
             if name == package and Version(floor) < Version(fixed)]
    assert not holes, holes
