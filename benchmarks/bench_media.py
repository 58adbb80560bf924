"""The chart job's PNG pictures and its workbook, in this process: old path against new, on equal work.

Run:  python benchmarks/bench_media.py [--stacks 1:25:0.05] [--runs 5] [--record]

One chart job (``workers=0``) keeps the drawings its PNG pictures are made from and the sweep its
workbook is made from; then, medians of ``--runs`` runs in this process on those inputs:

* **the pictures** as written (each distinct text rendered once, unfiltered rows at zlib level
  :data:`~sflp.charts.media.draw.PNG_LEVEL`) against the old path behind the private switches of
  :mod:`sflp.charts.media.draw` (Pillow's ``text`` for every text, Pillow's encoder at level 6), alternating run by
  run, with their ratio, their bytes, and a check that both decode to the same pixels (the glyph
  cache is cleared before each run, as a job's process starts without it);
* **the workbook** in its three parts -- the model the sheets build (sflp's per-cell code),
  XlsxWriter writing it, the reproducible zip copy -- and the whole as a ratio to XlsxWriter's part.

Wall and CPU seconds of this process (issue 53 §5).  A few seconds.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from _common import Record, Timing, machine, timed

RECORD = Record("media")


def _job_media(stacks: str) -> tuple[list, object]:
    """One chart job (``workers=0``): the drawings its PNGs were made from and its workbook's sweep."""
    import sflp
    import sflp.charts.media.draw as draw
    import sflp.charts.media.xlsx as xlsx

    drawings, sweeps = [], []
    png, workbook = draw.png_bytes, xlsx._workbook

    def keep_png(drawing, dpi=120):
        drawings.append((drawing, dpi))
        return png(drawing, dpi)

    def keep_sweep(path, sweep):
        sweeps.append(sweep)
        return workbook(path, sweep)

    draw.png_bytes, xlsx._workbook = keep_png, keep_sweep
    try:
        with tempfile.TemporaryDirectory() as tmp:
            sflp.chart(None, stacks, out=Path(tmp) / "set", workers=0)
    finally:
        draw.png_bytes, xlsx._workbook = png, workbook
    return drawings, sweeps[0]


def media(stacks: str, runs: int) -> None:
    """The two tables (see the module doc), recorded."""
    import io

    import numpy as np
    from PIL import Image

    import sflp.charts.media.draw as draw
    from sflp.charts.frames import add_sc_column, sc_frame
    from sflp.charts.media.xlsx.book import write_book
    from sflp.charts.media.xlsx.sheets import add_sc_sheet
    from sflp.charts.media.xlsx.workbook import _reproducible_copy, chart_workbook, workbook_time
    from sflp.study.sc import TIE_RULE

    drawings, sweep = _job_media(stacks)

    def pictures(old: bool) -> list[bytes]:
        draw._PILLOW_PNG, draw._GLYPHS = old, not old
        draw._glyph.cache_clear()  # each run renders its texts afresh, as a job's process does
        try:
            return [draw.png_bytes(d, dpi) for d, dpi in drawings]
        finally:
            draw._PILLOW_PNG, draw._GLYPHS = False, True

    times = {True: Timing(), False: Timing()}
    out = {}
    for _ in range(runs):
        for old in (True, False):
            out[old] = timed(lambda old=old: pictures(old), times[old])
    same = all(np.array_equal(np.asarray(Image.open(io.BytesIO(a))), np.asarray(Image.open(io.BytesIO(b))))
               for a, b in zip(out[True], out[False]))
    old_t, new_t = times[True], times[False]
    print(f"\n{len(drawings)} PNG pictures of sflp chart --stacks {stacks} (medians of {runs}, alternating):")
    print(f"  {'':<38} {'CPU s':>7} {'wall s':>7} {'bytes':>10}")
    print(f"  {'old: Pillow text and encoder, level 6':<38} {old_t.cpu:7.3f} {old_t.wall:7.3f} "
          f"{sum(map(len, out[True])):10,}")
    print(f"  {f'new: glyphs once, level {draw.PNG_LEVEL}, no filter':<38} {new_t.cpu:7.3f} {new_t.wall:7.3f} "
          f"{sum(map(len, out[False])):10,}")
    print(f"  new / old: {new_t.cpu / old_t.cpu:.2f} CPU, {new_t.wall / old_t.wall:.2f} wall; "
          f"decoded pixels {'identical' if same else 'DIFFER'}")
    if not same:
        raise SystemExit("the new PNG path changed the pictures' pixels")
    what = f"the {len(drawings)} PNG pictures of sflp chart --stacks {stacks}"
    RECORD.timing("png.old", old_t, f"{what}, the old path (Pillow text, Pillow's encoder at level 6)")
    RECORD.timing("png.new", new_t,
                  f"{what}, as written (glyphs rendered once, unfiltered rows at zlib level {draw.PNG_LEVEL})")
    RECORD.put("png.ratio_cpu", round(new_t.cpu / old_t.cpu, 4), f"{new_t.cpu / old_t.cpu:.2f}×",
               "CPU of the new PNG path / the old, the same run")
    for key, data in (("png.old.bytes", out[True]), ("png.new.bytes", out[False])):
        RECORD.put(key, sum(map(len, data)), f"{sum(map(len, data)):,} bytes", f"bytes of {what}")

    parts = {name: Timing() for name in ("model", "xlsxwriter", "copy", "whole")}

    def workbook() -> io.BytesIO:
        sc = sweep.sc_numbers()
        tdf = add_sc_column(sweep.tdf, sc) if sweep.tdf is not None else None
        wb = timed(lambda: chart_workbook(sweep.values, sweep.kept, tdf, sweep.low, sweep.high, sweep.chosen,
                                          sweep.about, sweep.structure, homes=sweep.homes), parts["model"])
        timed(lambda: add_sc_sheet(wb, sc_frame(sc), sweep.structure, TIE_RULE), parts["model"])
        raw = io.BytesIO()
        timed(lambda: write_book(wb, raw, workbook_time()), parts["xlsxwriter"])
        raw.seek(0)
        with tempfile.TemporaryDirectory() as tmp:
            timed(lambda: _reproducible_copy(raw, Path(tmp) / "chart.xlsx", workbook_time()), parts["copy"])
        return raw

    for _ in range(runs):
        raw = timed(workbook, parts["whole"])
    for name in ("model",):  # the two parts of the model, summed run by run
        t = parts[name]
        t.walls, t.cpus = ([a + b for a, b in zip(x[::2], x[1::2])] for x in (t.walls, t.cpus))
    print(f"\nchart.xlsx ({raw.getbuffer().nbytes:,} bytes; medians of {runs}):")
    for name, what in (("model", "the sheets' model (sflp)"), ("xlsxwriter", "XlsxWriter writing it"),
                       ("copy", "the reproducible zip copy"), ("whole", "the workbook")):
        print(f"  {what:<38} {parts[name].cpu:7.3f} CPU s {parts[name].wall:7.3f} wall s")
    ratio = parts["whole"].cpu / parts["xlsxwriter"].cpu
    print(f"  the workbook / XlsxWriter's part: {ratio:.2f} CPU")
    for name in parts:
        RECORD.timing(f"xlsx.{name}", parts[name], f"chart.xlsx of sflp chart --stacks {stacks}: {name}")
    RECORD.put("xlsx.ratio_cpu", round(ratio, 4), f"{ratio:.2f}×", "CPU of the workbook / XlsxWriter's part")



def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stacks", default="1:25:0.05")
    parser.add_argument("--runs", type=int, default=5)
    RECORD.arguments(parser)
    args = parser.parse_args(argv)
    RECORD.use(args)
    print(f"machine: {machine()}")
    media(args.stacks, args.runs)
    RECORD.write()
    return 0


if __name__ == "__main__":
    sys.exit(main())
