"""The media of a chart set: one module or sub-package per medium, each holding all of that medium.

==================  ==================================================================================
:mod:`.csv`         ``values.csv``, ``thresholds.csv``, ``ranges.csv``, the 13x13 grid CSVs, and the CSV
                    bytes of any tidy frame
:mod:`.segments`    ``ranges_segments.csv`` with the margins files (the ranges as runs of stacks)
:mod:`.parquet`     ``ranges.parquet``
:mod:`.xlsx`        ``chart.xlsx``: its writer, the workbook's sheets (:mod:`.xlsx.workbook`) and styles
:mod:`.html`        ``chart.html``: its writer, the page (:mod:`.html.page`) and its static files
:mod:`.pdf`         ``chart.pdf``, the printable chart, and its writer
:mod:`.pictures`    the PNG and SVG pictures (threshold charts, range grids, the value curve), their
                    writer, and the drawing helpers other pictures share (grids, axes)
:mod:`.draw`        one small vector drawing written three ways (SVG, PDF, PNG), with its fonts
:mod:`.terminal`    the terminal: 13x13 grids as text and in colour, and the words every command prints
==================  ==================================================================================

A writer (:class:`sflp.charts.media.writer.Writer`) imports its format's library inside the job that
needs it, so importing a medium loads none of them.  A new medium is one module here and one line
in the registry (:data:`sflp.charts.media.formats.WRITERS`).
"""
