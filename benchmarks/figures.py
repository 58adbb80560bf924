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
"""

from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
QUOTE = re.compile(r"<!--fig ([A-Za-z0-9_.+\-]+)-->(.*?)<!--/fig-->")


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


def check_all(root: Path = ROOT, folder: Path | None = None) -> list[str]:
    """Every problem of every page, each prefixed with the page's name."""
    records = load_records(folder or root / "benchmarks" / "results")
    return [f"{page.relative_to(root)}: {p}" for page in documents(root) for p in problems(page.read_text(), records)]


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
