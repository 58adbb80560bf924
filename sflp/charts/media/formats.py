"""The registry of a chart set's writers: which format is written by which medium, and the set's options.

A **writer** turns the solved stacks of a chart set into the files of one output format.  A chart
set is written in three steps, and a format takes part in each through its writer
(:class:`~sflp.charts.media.writer.Writer`):

1. ``open(stage, head, submit)`` -- before the first stack: the staging folder the set is
   written into (:mod:`sflp.output`), the :class:`Head` (what is known before the sweep:
   the blinds, the exact thresholds, the grid stacks) and ``submit`` (below); the threshold
   pictures start here;
2. ``add(block)`` -- a :class:`Block` of solved stacks as they come off the sweep, in increasing
   stack order (``ranges.csv`` grows here, so memory does not grow with the number of stacks;
   a grid stack's pictures and CSVs start as its block passes);
3. ``finish(sweep, submit)`` -- the whole :class:`Sweep` (the values of every stack, the ranges of
   at most :data:`sflp.charts.about.MAX_SHEET_STACKS` chosen stacks plus the grid stacks, the
   exact thresholds, the notes of what is shown in part); a slow file is handed to ``submit(fn,
   *args)``, which runs it in a worker process (:mod:`sflp.output.jobs`), a quick one is written
   at once.  It returns the SHA-256 of files it hashed on the way (the manifest hashes the rest).

``close()`` runs once every job has run (``csv`` joins the pieces of ``values.csv`` there), and
``discard()`` drops what an interrupted writer holds.  The formats (:data:`FORMATS`), one module
each:

=========  ========================  ==========================================================
``csv``    :mod:`.media.csv`         ``values.csv``, ``thresholds.csv``, the 13x13 grids
                                     ``sb_push_<S>bb.csv`` / ``bb_call_<S>bb.csv`` and the
                                     ranges in the form ``ranges=`` asks for (below)
``xlsx``   :mod:`.media.xlsx`        ``chart.xlsx`` (the sheets: :mod:`.media.xlsx.workbook`)
``html``   :mod:`.media.html`        ``chart.html``, one self-contained interactive page
                                     (:mod:`.media.html.page`)
``pdf``    :mod:`.media.pdf`         ``chart.pdf``, the printable chart, A4 or Letter
``png``    :mod:`.media.pictures`    the pictures as PNG: ``sb_push``, ``bb_call``,
                                     ``value_by_stack``, ``range_<S>bb``
``svg``    :mod:`.media.pictures`    the same pictures as SVG
=========  ========================  ==========================================================

:mod:`.writer` holds what they share (the interface, :class:`Block`, :class:`Head`, :class:`Sweep`,
the paper names); this module assembles the registry (:data:`WRITERS`) and checks a set's
options (:func:`check_formats`, :func:`resolve_ranges`, :func:`check_paper`).

The ranges of every stack (:data:`RANGE_FORMS`):

* ``csv`` -- ``ranges.csv``: ``stack, player, hand, frequency, ev_margin``, one row per stack x
  player x hand (338 rows a stack; :class:`~sflp.charts.media.csv.RangesCsv`);
* ``segments`` -- ``ranges_segments.csv``: ``player, hand, stack_from, stack_to, frequency``, one
  row per run of consecutive solved stacks over which the hand's frequency is the same number.
  Between two exact thresholds a hand is played always or never, so a run spans a whole segment
  of the path; only a mixed hand changes at every stack.  About 100 times smaller than
  ``ranges.csv``.  It has no EV margins: ``margins_supports.csv`` and ``margins_stacks.csv``,
  written with it, hold every stack's (:mod:`.media.segments`);
* ``parquet`` -- ``ranges.parquet``: the columns of ``ranges.csv`` in Apache Parquet (zstd),
  written by pyarrow (``pip install 'sflp[parquet]'``; :mod:`.media.parquet`);
* ``auto`` (the default) -- ``csv`` up to :data:`RANGES_CSV_MAX_STACKS` stacks, ``segments`` above.

:func:`sflp.charts.readback.read_ranges` reads any of the three back into the same canonical
tidy frame, checking the folder against its manifest and every value;
:func:`sflp.charts.margins.read_margins` gives every stack's EV margins from any of them.

Adding a format
---------------
A new format is one new module in :mod:`sflp.charts.media`, ``sflp/charts/media/<format>.py``, with a subclass of
:class:`Writer` (its ``format`` name; ``finish`` at least, handing its slow files to ``submit``),
and one line in :data:`WRITERS` that makes it from the set's options; :data:`FORMATS` (and with
it ``sflp chart --formats``) follows from the registry.  A writer imports its format's library
(pandas, openpyxl, reportlab, pyarrow...) inside the job that needs it, never at the top of its
module: importing this module loads none of them (``python -X importtime -c "import
sflp.charts.media.formats"`` shows it), and the solving process loads them only when it writes the set
itself (``workers=0``: a set of CSV files, one core, ``sflp chart --workers 0``), and then only
pandas for the formats drawn from frames (:data:`FRAME_FORMATS`).  PNG and SVG share one
:class:`PictureWriter` (:func:`make_writers`), which draws each picture once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from sflp.charts.media.csv import CsvWriter, RangesCsv
from sflp.charts.media.html import PageWriter
from sflp.charts.media.parquet import RangesParquet, _pyarrow
from sflp.charts.media.pdf import PdfWriter
from sflp.charts.media.pictures import PictureWriter
from sflp.charts.media.segments import (
    MARGINS_FILES,
    SEGMENTS_COLUMNS,
    SUPPORT_CODES,
    SUPPORTS_COLUMNS,
    MarginsSupports,
    RangesSegments,
    support_texts,
)
from sflp.charts.media.writer import PAPER_NAMES, Block, Head, Sweep, Writer, check_paper
from sflp.charts.media.xlsx import WorkbookWriter
from sflp.errors import ConfigError

WRITERS: dict[str, Callable[..., Writer]] = {
    "csv": lambda ranges, **_: CsvWriter(ranges),
    "xlsx": lambda **_: WorkbookWriter(),
    "html": lambda **_: PageWriter(),
    "pdf": lambda paper, **_: PdfWriter(paper),
    "png": lambda **_: PictureWriter("png"),
    "svg": lambda **_: PictureWriter("svg"),
}
"""Format name -> a callable making its writer from the set's options (``csv`` takes the resolved
``ranges`` form, ``pdf`` the ``paper``): a new format's one line."""
FORMATS = tuple(WRITERS)
"""Every output format of a chart set, in the order the CLI lists them (the registry's)."""
RANGE_FORMS = ("auto", "csv", "segments", "parquet")
RANGES_CSV_MAX_STACKS = 2000
"""``ranges="auto"`` writes ``ranges.csv`` up to this many stacks (676,000 rows, about 25 MB) and
``ranges_segments.csv`` above it."""


FRAME_FORMATS = frozenset({"xlsx", "html", "pdf", "png", "svg"})
"""The formats whose files are drawn from pandas frames (:mod:`sflp.charts.frames`); the ``csv``
format's files (and the ranges in every form) are written from the blocks' arrays and the
thresholds themselves."""


def job_workers(workers: int | None) -> int:
    """The worker processes a chart set's writers get, whatever its formats: ``workers``, or when the
    caller did not say (None) none, every file written in this process.  Forked writers re-import pandas and the format
    libraries (about 120 MB each): the main job (1-25 bb at 0.05, every format) took 3.75 CPU-s,
    4.38 s wall and 206 MB PSS in one process against 4.76 CPU-s, 7.56 s and 456 MB summed over
    three with two writers (medians of 3 fresh runs, load about 3.5 on 2 cores, issue 53 item 2;
    ``benchmarks/bench_chart_workers.py``).  ``workers=2`` may still save wall time on an idle
    machine.  A set of CSV files never paid for them either: 1-25 bb at 0.05, 3.9 s wall and 4.4 s
    CPU with two workers, 3.9 s and 3.9 s inline (issue 34).

    >>> job_workers(None), job_workers(2)
    (0, 2)
    """
    return 0 if workers is None else workers


def warm(config, formats: Sequence[str]) -> None:
    """A worker's start (:class:`sflp.output.jobs.Jobs`): load what the formats' jobs use while the main
    process is still solving.  pandas only for the formats drawn from frames
    (:data:`FRAME_FORMATS`): a set of CSV files never imports it."""
    if FRAME_FORMATS & set(formats):
        import pandas  # noqa: F401

        import sflp.charts.frames  # noqa: F401
    if "xlsx" in formats:
        import sflp.charts.media.xlsx.workbook  # noqa: F401
    if "html" in formats:
        import sflp.charts.media.html.page  # noqa: F401
    if "pdf" in formats:
        import sflp.charts.media.pdf.page  # noqa: F401
    if {"pdf", "png", "svg"} & set(formats):
        from sflp.charts.media.draw import _font

        for weight in ("normal", "bold"):
            _font(weight)  # the fonts read once per process: every picture measures its texts


def sc_job(config, formats: Sequence[str]):
    """The SC numbers as a job, once for the set, when a format shows them (else None)."""
    if config is None or not {"csv", "xlsx"} & set(formats):
        return None
    from sflp.study.sc import sc_numbers

    return sc_numbers(config)


def check_formats(formats: Sequence[str] | str | None) -> tuple[str, ...]:
    """The formats asked for, validated, in :data:`FORMATS` order (None = every format).

    >>> check_formats("pdf,csv"), check_formats(None) == FORMATS
    (('csv', 'pdf'), True)
    """
    if formats is None:
        return FORMATS
    names = [f.strip().lower() for f in (formats.split(",") if isinstance(formats, str) else formats)]
    bad = [f for f in names if f not in FORMATS]
    if bad or not names:
        raise ConfigError(f"formats {','.join(names)!r}: {'unknown ' + repr(bad[0]) if bad else 'none given'}; "
                          f"choose from {', '.join(FORMATS)}")
    return tuple(f for f in FORMATS if f in names)


def resolve_ranges(ranges: str, stack_count: int) -> str:
    """The ranges form to write (:data:`RANGE_FORMS`): ``auto`` becomes ``csv`` or ``segments``.

    >>> resolve_ranges("auto", 481), resolve_ranges("auto", 19_901), resolve_ranges("parquet", 5)
    ('csv', 'segments', 'parquet')
    """
    if ranges not in RANGE_FORMS:
        raise ConfigError(f"ranges {ranges!r}: choose from {', '.join(RANGE_FORMS)}")
    if ranges == "auto":
        return "csv" if stack_count <= RANGES_CSV_MAX_STACKS else "segments"
    if ranges == "parquet":
        _pyarrow()  # before any work
    return ranges


def make_writers(formats: Sequence[str], ranges: str, paper: str = "a4") -> list[Writer]:
    """A writer for each format (``formats`` checked by :func:`check_formats`); the picture
    formats share one :class:`PictureWriter`, which draws each picture once for all of them."""
    writers = [WRITERS[name](ranges=ranges, paper=paper) for name in formats]
    pictures = [w for w in writers if isinstance(w, PictureWriter)]
    if len(pictures) > 1:
        merged = PictureWriter(*(s for w in pictures for s in w.suffixes))
        writers = [merged if w is pictures[0] else w for w in writers if w not in pictures[1:]]
    return writers


__all__ = [
    "FORMATS",
    "MARGINS_FILES",
    "PAPER_NAMES",
    "RANGES_CSV_MAX_STACKS",
    "RANGE_FORMS",
    "SEGMENTS_COLUMNS",
    "SUPPORTS_COLUMNS",
    "SUPPORT_CODES",
    "WRITERS",
    "Block",
    "CsvWriter",
    "Head",
    "MarginsSupports",
    "PageWriter",
    "PdfWriter",
    "PictureWriter",
    "RangesCsv",
    "RangesParquet",
    "RangesSegments",
    "Sweep",
    "WorkbookWriter",
    "Writer",
    "check_formats",
    "check_paper",
    "make_writers",
    "resolve_ranges",
    "sc_job",
    "support_texts",
    "warm",
]
