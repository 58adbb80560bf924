"""The figures README.md and docs/*.md quote, tied to the records in ``benchmarks/results/*.json``.

A quoted figure is marked in the Markdown source with the key of its record, around the text
(HTML comments: invisible when rendered)::

    the 1-200 thresholds take <!--fig thresholds.1-200.wall-->1.23 s<!--/fig-->

:func:`problems` lists every marked quote whose text differs from its record's ``text`` (or
whose key no record has); :func:`rewrite` puts the records' texts in.  ``python
benchmarks/record.py`` runs the benchmarks and then rewrites; ``--check`` only checks, as
``tests/test_docs_figures.py`` does.

>>> records = {"a.x.wall": {"text": "1.50 s"}}
>>> problems("took <!--fig a.x.wall-->1.50 s<!--/fig-->", records)
[]
>>> problems("took <!--fig a.x.wall-->1.40 s<!--/fig-->", records)
["a.x.wall quotes '1.40 s', its record says '1.50 s'"]
>>> rewrite("took <!--fig a.x.wall-->1.40 s<!--/fig-->", records)
'took <!--fig a.x.wall-->1.50 s<!--/fig-->'

A number that is no measurement but a setting of the code (a size limit, a delay, a deadline) is
marked with the constant it restates, ``<!--const MODULE.NAME-->TEXT<!--/const-->``:
:func:`const_problems` reads the constant from the module's source (a module-level assignment,
evaluated without importing the module) and fails when TEXT, a number and a unit, is not its
value rounded to the digits shown.  Nothing rewrites these: a changed constant is a changed
sentence, for a person to write.
"""

from __future__ import annotations

import ast
import json
import operator
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
QUOTE = re.compile(r"<!--fig ([A-Za-z0-9_.+\-]+)-->(.*?)<!--/fig-->")
CONST = re.compile(r"<!--const ([A-Za-z0-9_.]+)-->(.*?)<!--/const-->")
UNITS = {"": 1, "B": 1, "bytes": 1, "kB": 1e3, "KB": 1e3, "MB": 1e6, "GB": 1e9, "KiB": 2**10, "MiB": 2**20,
         "GiB": 2**30, "µs": 1e-6, "ms": 1e-3, "s": 1, "min": 60}
"""The units a constant may be quoted in, each with its size in bytes or seconds (decimal kB, KB,
MB and GB, binary KiB, MiB and GiB); a bare number is a count."""
_OPERATORS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
              ast.FloorDiv: operator.floordiv, ast.Pow: operator.pow, ast.LShift: operator.lshift}


def documents(root: Path = ROOT) -> list[Path]:
    """The pages that may quote figures: the README and every page of docs/."""
    return [root / "README.md", *sorted((root / "docs").glob("*.md"))]


def load_records(folder: Path = RESULTS) -> dict[str, dict]:
    """Every figure of every record in ``folder``, by key (a key in two records is an error)."""
    figures: dict[str, dict] = {}
    for path in sorted(folder.glob("*.json")):
        record = json.loads(path.read_text())
        for key, figure in record["figures"].items():
            if key in figures:
                raise ValueError(f"{key} is in two records ({path.name})")
            figures[key] = {**figure, "record": path.name}
    return figures


def quotes(text: str) -> list[tuple[str, str]]:
    """``(key, quoted text)`` of each marked figure, in order."""
    return [(m.group(1), m.group(2)) for m in QUOTE.finditer(text)]


def problems(text: str, records: dict[str, dict]) -> list[str]:
    """What disagrees between the marked quotes of ``text`` and the records."""
    out = []
    for key, quoted in quotes(text):
        if key not in records:
            out.append(f"{key} is quoted but no record in benchmarks/results/ has it")
        elif quoted != records[key]["text"]:
            out.append(f"{key} quotes {quoted!r}, its record says {records[key]['text']!r}")
    return out


def rewrite(text: str, records: dict[str, dict]) -> str:
    """``text`` with each marked quote replaced by its record's text (unknown keys left alone)."""

    def put(m: re.Match) -> str:
        figure = records.get(m.group(1))
        return m.group(0) if figure is None else f"<!--fig {m.group(1)}-->{figure['text']}<!--/fig-->"

    return QUOTE.sub(put, text)


def constant(name: str, code: Path = ROOT):
    """The value of the module-level constant ``name`` (``package.module.NAME``, the module's file
    under ``code``), evaluated from its source: numbers and strings, arithmetic, ``len`` and other
    constants of the module.  A ``KeyError`` names a constant the module does not assign, a
    ``ValueError`` one that is no such expression."""
    module, _, attr = name.rpartition(".")
    tree = ast.parse((code / (module.replace(".", "/") + ".py")).read_text(encoding="utf-8"))
    assigned = {}
    for node in tree.body:
        if isinstance(node, ast.Assign):
            assigned.update((t.id, node.value) for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            assigned[node.target.id] = node.value

    def value(node: ast.expr):
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float, str)):
            return node.value
        if isinstance(node, ast.Name) and node.id in assigned:
            return value(assigned[node.id])
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -value(node.operand)
        if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
            return _OPERATORS[type(node.op)](value(node.left), value(node.right))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len" and \
                len(node.args) == 1 and not node.keywords:
            return len(value(node.args[0]))
        raise ValueError(f"{name} is not a constant expression: {ast.unparse(node)}")

    return value(assigned[attr])


def misquote(value: float, quoted: str) -> str | None:
    """Why ``quoted`` does not state ``value`` (in bytes, seconds or a count), or None when it does:
    ``quoted`` is a number and one of :data:`UNITS`, and ``value`` in that unit, rounded to the
    digits shown, is that number.

    >>> [misquote(v, q) for v, q in ((4_000_000, "4 MB"), (2_881_012, "2.9 MB"), (10 * 2**20, "10 MiB"),
    ...                              (2_881_012, "2,881,012 bytes"), (600.0, "600 s"), (100, "100"))]
    [None, None, None, None, None, None]
    >>> misquote(4_000_000, "50 MB")
    'the code says 4 MB'
    >>> misquote(600.0, "10 minutes")
    "'10 minutes' is not a number and a unit of UNITS"
    """
    m = re.fullmatch(r"(\d[\d,]*(?:\.\d+)?)(?: ?(\S+))?", quoted)
    if m is None or (m[2] or "") not in UNITS:
        return f"{quoted!r} is not a number and a unit of UNITS"
    number, unit = m[1].replace(",", ""), m[2] or ""
    decimals = len(number.partition(".")[2])
    shown = round(value / UNITS[unit], decimals)
    if shown == float(number):
        return None
    return f"the code says {shown:,.{decimals}f}{' ' + unit if unit else ''}"


def const_problems(text: str, code: Path = ROOT) -> list[str]:
    """What disagrees between the ``<!--const NAME-->`` quotes of ``text`` and the code under ``code``."""
    out = []
    for m in CONST.finditer(text):
        name, quoted = m.group(1), m.group(2)
        try:
            value = constant(name, code)
        except (OSError, KeyError, ValueError, SyntaxError) as exc:
            out.append(f"{name} is quoted but the code has no such constant ({type(exc).__name__}: {exc})")
            continue
        why = misquote(value, quoted)
        if why is not None:
            out.append(f"{name} quotes {quoted!r}: {why}")
    return out


def check_all(root: Path = ROOT, folder: Path | None = None) -> list[str]:
    """Every problem of every page (its figures against the records, its constants against the
    code of this checkout), each prefixed with the page's name."""
    records = load_records(folder or root / "benchmarks" / "results")
    return [f"{page.relative_to(root)}: {p}" for page in documents(root)
            for text in [page.read_text()] for p in problems(text, records) + const_problems(text)]


def rewrite_all(root: Path = ROOT) -> list[Path]:
    """Rewrite the quotes of every page from the records; return the pages that changed."""
    records = load_records(root / "benchmarks" / "results")
    changed = []
    for page in documents(root):
        old = page.read_text()
        new = rewrite(old, records)
        if new != old:
            page.write_text(new)
            changed.append(page)
    return changed
