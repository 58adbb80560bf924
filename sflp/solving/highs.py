r"""cvxpy's compiled push/fold LP, re-solved warm in one persistent HiGHS instance.

The LP of record is the cvxpy model of :mod:`sflp.solving.lp`.  cvxpy compiles it (DPP: the stack is a
parameter) into the conic form

    minimise  c'v + d   subject to  A v + b  in  K   (K: zero cone, then non-negative cone),

whose numbers are affine in the stack ``S``: ``A = A0 + S*A1``, ``c = c0 + S*c1``, ``d = d0 + S*d1``
(``b`` does not involve ``S`` here).  :class:`CompiledLP` holds those numbers after one change of
form that HiGHS prefers and that loses nothing: a row with a single entry that does not depend
on the stack (``x_i >= 0``, ``x_i <= 1``, ``z_j <= 0``) becomes a bound of its column, every other
row stays a row (``A_k v >= -b_k``, or ``= -b_k`` in the zero cone).  It also records where
cvxpy's variables ``x`` (SB's push frequencies) sit among the columns and which rows are the
constraint whose duals are BB's call frequencies.

:class:`WarmLP` keeps one ``highspy.Highs`` object per compiled LP.  A solve at a new stack
writes the matrix values ``A0 + S*A1`` (one numpy expression over the fixed sparsity pattern),
passes the model, hands HiGHS the basis of the previous solve and runs the simplex from there:
near the previous stack that is a few pivots instead of a solve from scratch.  Only the status
``optimal`` is accepted; a warm solve that ends otherwise is repeated cold once, and then
:class:`~sflp.errors.SolveError` is raised.  The answer is then checked by best responses and
certified exactly, as every answer is (:mod:`sflp.solving.solver`, :mod:`sflp.solving.certify`).

:func:`store_cached` stores a compiled LP on disk (a ``.npz`` of plain arrays, keyed by the LP's input
numbers, sflp's and cvxpy's versions, in sflp's cache folder: :mod:`sflp.cache`), so that a new
process solves without importing cvxpy.  An entry carries sflp's magic, its key and a digest of
its arrays; :func:`load_cached` ignores a file that fails any of them, and the caller checks an
entry that passes against the problem it claims to be (:func:`sflp.solving.lp.fits`).  Only an
entry sflp wrote (:func:`is_entry`) is ever replaced, atomically, and only by a fresh compile;
``sflp cache clear`` removes those entries and nothing else.  ``tests/test_lp.py`` checks that the
cache and a fresh compile give the same problem, that a damaged file is ignored, never trusted and
never overwritten, and that a self-consistent entry of another problem is found and rebuilt.

A :class:`LPTemplate` is one compiled LP for every blind structure (the blinds and antes as
parameters too, :func:`sflp.solving.lp.compile_template`); it is stored the same way, with its
parameters' parts as extra arrays (:func:`write_template`, :func:`read_template`).

This module needs numpy and highspy only.
"""

from __future__ import annotations

import hashlib
import io
import os
import pathlib
import re
import stat
import zipfile
from dataclasses import dataclass, fields

import numpy as np

from sflp.cache import cache_root
from sflp.errors import ConfigError, SolveError
from sflp.inputs import read_bytes
from sflp.quiet import native_output, verbose

CACHE_FORMAT = 3
"""Version of the on-disk layout of a compiled LP (part of the cache key; 3: the LP in units of the pot)."""


@dataclass(frozen=True, eq=False)
class CompiledLP:
    """An LP in HiGHS's form, affine in the stack: ``minimise (cost0 + S*cost1)'v + offset0 + S*offset1``
    subject to ``row_lower <= A v <= row_upper``, ``col_lower <= v <= col_upper``, with ``A``
    column-wise (``start``, ``index``) and values ``value0 + S*value1``.

    ``x_cols`` are the columns of SB's push frequencies, ``call_rows`` the rows whose duals are
    BB's call frequencies; ``maximise`` says the LP of record maximises, so that this
    minimisation is of its negative (cvxpy's ``FlipObjective``) and its value is the negative
    of HiGHS's objective."""

    cost0: np.ndarray
    cost1: np.ndarray
    offset0: float
    offset1: float
    col_lower: np.ndarray
    col_upper: np.ndarray
    row_lower: np.ndarray
    row_upper: np.ndarray
    start: np.ndarray
    index: np.ndarray
    value0: np.ndarray
    value1: np.ndarray
    x_cols: np.ndarray
    call_rows: np.ndarray
    maximise: bool

    @property
    def num_col(self) -> int:
        return len(self.cost0)

    @property
    def num_row(self) -> int:
        return len(self.row_lower)

    def values_at(self, stack: float) -> np.ndarray:
        return self.value0 + stack * self.value1

    def same_as(self, other: CompiledLP) -> bool:
        """Every array and number equal (bit for bit)."""
        return all(np.array_equal(getattr(self, f.name), getattr(other, f.name)) for f in fields(self))


def from_conic(A0, A1, b, c0, c1, d0: float, d1: float, n_zero: int, x_cols, call_rows, maximise: bool) -> CompiledLP:
    """The HiGHS form of cvxpy's conic data ``A v + b in K`` (see the module docstring).

    ``A0, A1`` are scipy CSC matrices of one sparsity pattern (the constant and the stack part),
    ``n_zero`` the number of zero-cone rows (they come first), ``call_rows`` indices of conic
    rows; the rows turned into bounds are dropped and ``call_rows`` renumbered."""
    return from_conic_parts(A0, A1, b, c0, c1, d0, d1, n_zero, x_cols, call_rows, maximise)[0]


def from_conic_parts(A0, A1, b, c0, c1, d0: float, d1: float, n_zero: int, x_cols, call_rows, maximise: bool,
                     parts=()) -> tuple[CompiledLP, list[np.ndarray]]:
    """:func:`from_conic`, where the matrix has more parts than the stack's, ``parts`` (matrices of
    the same pattern: the other parameters' linear parts): a row any part moves stays a row, and
    each part's values are returned in the order of :attr:`CompiledLP.index`."""
    inf = np.inf
    A0 = A0.tocsr()
    A1 = A1.tocsr()
    parts = [P.tocsr() for P in parts]
    for A in (A0, A1, *parts):
        A.sort_indices()
    for A in (A1, *parts):
        if not (np.array_equal(A0.indptr, A.indptr) and np.array_equal(A0.indices, A.indices)):
            raise SolveError("cvxpy's compiled LP: a parameter's part has a different sparsity pattern")
    moving = A1.data != 0
    for P in parts:
        moving = moving | (P.data != 0)
    m, ncol = A0.shape
    lower = np.full(ncol, -inf)
    upper = np.full(ncol, inf)
    keep = np.ones(m, dtype=bool)
    counts = np.diff(A0.indptr)
    call_set = {int(k) for k in call_rows}
    for k in np.flatnonzero(counts == 1):
        lo = A0.indptr[k]
        a, j = A0.data[lo], A0.indices[lo]
        if k < n_zero or a == 0 or moving[lo] or k in call_set:
            continue
        bound = -b[k] / a  # a*v_j + b_k >= 0
        if a > 0:
            lower[j] = max(lower[j], bound)
        else:
            upper[j] = min(upper[j], bound)
        keep[k] = False
    rows = np.flatnonzero(keep)
    row_lower = -np.asarray(b, dtype=np.float64)[rows]
    row_upper = np.where(rows < n_zero, row_lower, inf)
    kept0, kept1 = A0[rows].tocsc(), A1[rows].tocsc()
    kept0.sort_indices()
    kept1.sort_indices()
    renumber = np.full(m, -1)
    renumber[rows] = np.arange(len(rows))
    calls = renumber[np.asarray(call_rows)]
    if (calls < 0).any():
        raise SolveError("cvxpy's compiled LP: a call row was turned into a bound")
    kept_parts = []
    for P in parts:
        kept = P[rows].tocsc()
        kept.sort_indices()
        kept_parts.append(kept.data.astype(np.float64))
    return CompiledLP(
        cost0=np.asarray(c0, dtype=np.float64), cost1=np.asarray(c1, dtype=np.float64),
        offset0=float(d0), offset1=float(d1), col_lower=lower, col_upper=upper,
        row_lower=row_lower, row_upper=row_upper,
        start=kept0.indptr.astype(np.int32), index=kept0.indices.astype(np.int32),
        value0=kept0.data.astype(np.float64), value1=kept1.data.astype(np.float64),
        x_cols=np.asarray(x_cols, dtype=np.int64), call_rows=calls.astype(np.int64), maximise=bool(maximise),
    ), kept_parts


# ------------------------------------------------------------------ the persistent HiGHS instance


class WarmLP:
    """A :class:`CompiledLP` solved at any stack in one HiGHS instance, warm from the last basis."""

    def __init__(self, compiled: CompiledLP):
        self.compiled = compiled
        self._highs = None
        self._basis = None
        self._continuous = np.zeros(compiled.num_col, dtype=np.int32)  # HiGHS's integrality: all kContinuous
        self._pid = None
        self.iterations = 0  # simplex iterations of the last solve (for benchmarks and tests)
        self.started_warm = False  # whether the last solve's answer came from the warm start

    def _instance(self):
        import highspy

        if self._highs is None or self._pid != os.getpid():  # a forked worker makes its own
            with native_output():  # HiGHS >= 1.16 prints a banner when the object is made
                h = highspy.Highs()
            h.setOptionValue("output_flag", verbose())
            h.setOptionValue("log_to_console", verbose())
            self._highs, self._basis, self._pid = h, None, os.getpid()
        return self._highs

    def solve(self, stack: float) -> tuple[np.ndarray, np.ndarray, float]:
        """``(x, y, value)`` at ``stack``: SB's push and BB's call frequencies (clipped to [0, 1])
        and the LP's optimal value; raises SolveError unless HiGHS reports optimal."""
        import highspy

        c = self.compiled
        h = self._instance()
        cost = c.cost0 + stack * c.cost1 if c.cost1.any() else c.cost0
        # the array form of passModel (HiGHS's C interface Highs_passModel): numpy buffers go in
        # as they are, where filling a HighsLp object converts every entry (about 30x slower)
        model = (c.num_col, c.num_row, len(c.index), _COLWISE, _MINIMIZE, c.offset0 + stack * c.offset1, cost,
                 c.col_lower, c.col_upper, c.row_lower, c.row_upper, c.start[:-1], c.index, c.values_at(stack),
                 self._continuous)
        status = None
        basis = None
        for basis in ((self._basis, None) if self._basis is not None else (None,)):
            with native_output():
                h.passModel(*model)
                # a warm start is bounded: from a far stack's basis HiGHS 1.7 was seen pivoting for
                # over ten minutes (CI's floor pass); past the bound the cold solve below takes over
                limit = WARM_ITERATIONS_PER_ROW_AND_COLUMN * (c.num_col + c.num_row) if basis is not None else _NO_LIMIT
                h.setOptionValue("simplex_iteration_limit", int(limit))
                if basis is not None:
                    h.setBasis(basis)
                h.run()
            status = h.getModelStatus()
            if status == highspy.HighsModelStatus.kOptimal:
                break
        if status != highspy.HighsModelStatus.kOptimal:
            self._basis = None
            raise SolveError(f"LP for stack={stack} ended with HiGHS status {h.modelStatusToString(status)!r}, "
                             "not 'Optimal'")
        self._basis = h.getBasis()
        self.started_warm = basis is not None
        info = h.getInfo()
        self.iterations = info.simplex_iteration_count
        solution = h.getSolution()
        x = np.clip(np.asarray(solution.col_value)[c.x_cols], 0.0, 1.0)
        y = np.clip(np.asarray(solution.row_dual)[c.call_rows], 0.0, 1.0)
        value = info.objective_function_value
        return x, y, -value if c.maximise else value


WARM_ITERATIONS_PER_ROW_AND_COLUMN = 10
"""A warm solve stops after this many simplex iterations per row and column of the LP (a warm
start from a nearby stack takes a handful); the cold solve that follows has no limit."""
_NO_LIMIT = 2147483647  # HiGHS's kHighsIInf: no iteration limit
_COLWISE = 1  # HiGHS's MatrixFormat::kColwise
_MINIMIZE = 1  # HiGHS's ObjSense::kMinimize


# ------------------------------------------------------------------ the on-disk cache


def cache_dir() -> pathlib.Path | None:
    """Where compiled LPs are kept: sflp's cache folder (:func:`sflp.cache.cache_root`:
    ``$SFLP_CACHE_DIR``, else the platform's cache folder, e.g. ``~/.cache/sflp``);
    ``SFLP_CACHE_DIR=`` (empty) turns the cache off (None)."""
    return cache_root()


def cache_key(*arrays: np.ndarray, extra: str = "") -> str:
    """A digest of the LP's input numbers, the cache layout and the versions that shape it."""
    from importlib import metadata

    import sflp

    try:
        cvxpy_version = metadata.version("cvxpy")
    except metadata.PackageNotFoundError:  # pragma: no cover - cvxpy is a dependency
        cvxpy_version = "none"
    h = hashlib.sha256(f"sflp {sflp.__version__}; cvxpy {cvxpy_version}; format {CACHE_FORMAT}; {extra}".encode())
    for a in arrays:
        a = np.ascontiguousarray(a)
        h.update(f"{a.dtype.str}{a.shape}".encode())
        h.update(a.tobytes())
    return h.hexdigest()[:32]


_MAGIC = "sflp compiled LP"
_NAME = re.compile(r"lp-[0-9a-f]{32}\.npz\Z")
"""The name of a cache entry: ``lp-<key>.npz``."""


def _digest(arrays: dict) -> str:
    """SHA-256 of a compiled LP's arrays (names, types, shapes and bytes), stored with them."""
    h = hashlib.sha256()
    for name in sorted(arrays):
        a = np.ascontiguousarray(arrays[name])
        h.update(f"{name}:{a.dtype.str}{a.shape};".encode())
        h.update(a.tobytes())
    return h.hexdigest()


def entry_path(key: str) -> pathlib.Path | None:
    """The file of the entry ``key`` (None when the cache is off)."""
    folder = cache_dir()
    return None if folder is None else folder / f"lp-{key}.npz"


def is_entry(path: pathlib.Path, any_name: bool = False) -> bool:
    """Whether ``path`` is a regular file named ``lp-<key>.npz`` (any name with ``any_name``) that
    carries sflp's magic (a file sflp wrote: the only kind it ever replaces or removes)."""
    try:
        if not (any_name or _NAME.match(path.name)) or not stat.S_ISREG(path.lstat().st_mode):
            return False
        with _open_entry(path) as data:
            return str(data["magic"]) == _MAGIC
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile, ConfigError):
        return False


MAX_ENTRY_BYTES = 64 * 1024 * 1024
"""The largest file read as a compiled LP (a class-level one is about 0.6 MB)."""


def _open_entry(path: pathlib.Path):
    """``np.load`` of the cache file ``path``, read as untrusted input (:func:`sflp.inputs.read_bytes`:
    a regular file, not through a symlink, never a FIFO waited on, at most :data:`MAX_ENTRY_BYTES`)."""
    data = read_bytes(path, str(path), max_bytes=MAX_ENTRY_BYTES, follow_symlinks=False)
    return np.load(io.BytesIO(data), allow_pickle=False)


def cached_files() -> list[pathlib.Path]:
    """The compiled LPs in the cache folder (files that :func:`is_entry` recognises), sorted."""
    folder = cache_dir()
    if folder is None:
        return []
    try:
        names = sorted(e.name for e in os.scandir(folder) if _NAME.match(e.name))
    except OSError:
        return []
    return [folder / n for n in names if is_entry(folder / n)]


def load_cached(key: str) -> CompiledLP | None:
    """The compiled LP stored under ``key``, or None (no cache, no file, or a file that is not a
    complete sflp cache entry of this key with its arrays' digest intact: such a file is ignored,
    not trusted).  An entry that passes is still only what it claims to be: the caller checks it
    against the problem (:meth:`sflp.solving.lp.PushFoldLP.compiled`)."""
    path = entry_path(key)
    found = None if path is None else load_entry(path, key)
    return None if found is None else found[0]


def load_entry(path: pathlib.Path, key: str, extra: tuple[str, ...] = ()) -> tuple[CompiledLP, dict] | None:
    """The compiled LP in the file ``path`` and its ``extra`` arrays, if the file is a complete sflp
    entry of ``key`` whose arrays' digest is intact; else None (the file is ignored, not trusted)."""
    try:
        with _open_entry(path) as data:
            if str(data["magic"]) != _MAGIC or str(data["key"]) != key:
                return None
            values = {f.name: data[f.name] for f in fields(CompiledLP)}
            more = {name: data[name] for name in extra}
            digest = str(data["digest"])
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile, ConfigError):
        return None
    if digest != _digest({**values, **more}):  # a damaged entry is not trusted
        return None
    for name in ("offset0", "offset1"):
        values[name] = float(values[name])
    values["maximise"] = bool(values["maximise"])
    return CompiledLP(**values), more


def store_cached(key: str, compiled: CompiledLP, *, replace: bool = False, extra: dict | None = None,
                 path: pathlib.Path | None = None) -> bool:
    """Write ``compiled`` (and the ``extra`` arrays) under ``key``, atomically (a temporary file in
    the folder, then a link or a rename); any failure only means no cache.  An existing file of
    that name is left alone, unless ``replace`` is given and it is an entry sflp wrote
    (:func:`is_entry`: a wrong entry is replaced by a right one; someone else's file never is).
    ``path`` writes elsewhere than the cache folder (the package's shipped template).  Returns
    whether the entry was written."""
    path = entry_path(key) if path is None else path
    if path is None:
        return False
    folder = path.parent
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        exists = os.path.lexists(path)
        if exists and not (replace and is_entry(path, any_name=True)):
            return False
        tmp = folder / f".lp-{key}.{os.getpid()}.tmp.npz"
        arrays = {f.name: np.asarray(getattr(compiled, f.name)) for f in fields(CompiledLP)}
        arrays.update({name: np.asarray(a) for name, a in (extra or {}).items()})
        with open(tmp, "xb") as fh:  # O_EXCL: never through a symlink, never over another file
            np.savez(fh, magic=np.array(_MAGIC), key=np.array(key), digest=np.array(_digest(arrays)), **arrays)
        try:
            if exists:
                os.replace(tmp, path)  # the old entry, sflp's own, goes in one step
            else:
                os.link(tmp, path)  # fails if the name appeared meanwhile: nothing is ever overwritten
        finally:
            if os.path.lexists(tmp):
                tmp.unlink()
    except OSError:
        return False
    return True


# ------------------------------------------------------------------ one compiled LP for every structure

NODES = ("win", "lose", "tie", "steal")
"""The nodes whose constants make ``K0`` (:class:`sflp.core.game.NodeSplit`)."""
PARAMETERS = (*NODES, "fold")
"""The template's parameters besides the stack: each node's constant and ``f``, over the pot."""
SHIPPED_NAME = "push_fold_lp.npz"
"""The template's file in the package's data folder (``data/`` of a checkout, ``sflp/data/`` of a wheel)."""


@dataclass(frozen=True, eq=False)
class LPTemplate:
    """The compiled LP of every blind structure: :attr:`base` at all parameters 0 but the stack
    (its ``value1``, ``cost1`` and ``offset1`` are the stack's part), and each of
    :data:`PARAMETERS`' linear parts: ``values[k]`` of the matrix, ``costs[k]`` of the objective,
    ``offsets[k]`` of its constant.  ``source`` says where it came from: ``"cache"``,
    ``"package"`` or ``"compiled"`` (by cvxpy in this process); ``path`` is its file."""

    base: CompiledLP
    values: np.ndarray
    costs: np.ndarray
    offsets: np.ndarray
    source: str = "compiled"
    path: pathlib.Path | None = None

    def at(self, theta: dict[str, float]) -> CompiledLP:
        """The compiled LP at the parameters ``theta`` (one number per :data:`PARAMETERS`)."""
        b = self.base
        t = np.array([float(theta[name]) for name in PARAMETERS])
        return CompiledLP(
            cost0=b.cost0 + t @ self.costs, cost1=b.cost1, offset0=float(b.offset0 + t @ self.offsets),
            offset1=b.offset1, col_lower=b.col_lower, col_upper=b.col_upper, row_lower=b.row_lower,
            row_upper=b.row_upper, start=b.start, index=b.index, value0=b.value0 + t @ self.values,
            value1=b.value1, x_cols=b.x_cols, call_rows=b.call_rows, maximise=b.maximise)

    def arrays(self) -> dict[str, np.ndarray]:
        """The parts beside :attr:`base`, as stored on disk."""
        return {"part_names": np.array(PARAMETERS), "part_values": self.values, "part_costs": self.costs,
                "part_offsets": self.offsets}


_EXTRA = ("part_names", "part_values", "part_costs", "part_offsets")


def read_template(path: pathlib.Path, key: str, source: str) -> LPTemplate | None:
    """The template in ``path`` if it is a complete, intact sflp entry of ``key`` with the parts of
    :data:`PARAMETERS`; else None (ignored, not trusted)."""
    found = load_entry(path, key, _EXTRA)
    if found is None:
        return None
    base, more = found
    if [str(s) for s in more["part_names"]] != list(PARAMETERS):
        return None
    k, nnz, ncol = len(PARAMETERS), len(base.index), base.num_col
    values, costs, offsets = (np.asarray(more[n], dtype=np.float64) for n in _EXTRA[1:])
    if values.shape != (k, nnz) or costs.shape != (k, ncol) or offsets.shape != (k,):
        return None
    return LPTemplate(base, values, costs, offsets, source, path)


def write_template(template: LPTemplate, key: str, path: pathlib.Path | None = None, replace: bool = False) -> bool:
    """Store ``template`` under ``key``: in sflp's cache folder, or at ``path``."""
    return store_cached(key, template.base, replace=replace, extra=template.arrays(), path=path)


