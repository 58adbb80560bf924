"""The workbook a user sees is the one openpyxl made before issue 43 moved the writer to XlsxWriter.

``tests/data/chart_openpyxl_1-25.xlsx`` is the committed example set's ``chart.xlsx`` (1-25 bb at
0.05) as openpyxl wrote it (commit a73b154).  Both workbooks are read with openpyxl and compared
sheet by sheet and cell by cell: values, number formats, fills (pattern and both colours), fonts
(name, size, bold, italic, colour), alignment, borders, quote prefix, comments, column widths and
row heights, print area and titles, orientation, fit to page, margins, header and footer, panes,
gridlines, page breaks, conditional formats, and the number of charts.

Stated tolerances, none of which the user sees: a colour is compared by its RGB (openpyxl wrote
fonts' and borders' colours with alpha 00, XlsxWriter writes FF; Excel and LibreOffice ignore the
alpha of those), an unset font size is Excel's default 11, an unset ``fitToWidth`` its default 1.
Widths and heights are compared exactly (the writer compensates XlsxWriter's padding).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import zipfile
from pathlib import Path

import openpyxl
import pytest
from openpyxl.utils import get_column_letter

REFERENCE = Path(__file__).resolve().parent / "data" / "chart_openpyxl_1-25.xlsx"


def _rgb(color) -> str | None:
    if color is None:
        return None
    if color.type == "rgb" and isinstance(color.rgb, str):
        return color.rgb[-6:].upper()
    if color.type == "theme":
        return f"theme{color.theme}"
    if color.type == "indexed":
        return None if color.indexed == 64 else f"indexed{color.indexed}"  # 64: the system colour, "none"
    return str(color.value)


def _cell(cell) -> tuple:
    fill, font, al, b = cell.fill, cell.font, cell.alignment, cell.border
    fill_key = (fill.fill_type, _rgb(fill.fgColor), _rgb(fill.bgColor)) if fill.fill_type else None
    return (
        cell.value,
        cell.number_format,
        fill_key,
        (font.name, font.sz or 11.0, bool(font.b), bool(font.i), _rgb(font.color) if font.color else "theme1"),
        (al.horizontal, al.vertical, bool(al.wrap_text)),
        tuple((side.style, _rgb(side.color) if side.style else None)
              for side in (b.left, b.right, b.top, b.bottom)),
        bool(cell.quotePrefix),
        (cell.comment.text, cell.comment.author) if cell.comment else None,
    )


def _widths(ws, columns: int) -> list:
    widths = [None] * (columns + 1)
    for dim in ws.column_dimensions.values():
        if dim.customWidth or dim.width:
            for c in range(dim.min or 1, min(dim.max or 1, columns) + 1):
                widths[c] = round(dim.width, 6)
    return widths[1:]


def _print_area(ws) -> str | None:
    return None if ws.print_area is None else re.sub(r"'?[\w ]+'?!", "", str(ws.print_area)).replace("$", "")


def _layout(ws) -> dict:
    ps, margins = ws.page_setup, ws.page_margins
    cf = []
    for block in ws.conditional_formatting:
        for rule in block.rules:
            scale = rule.colorScale
            cf.append((str(block.sqref), rule.type,
                       [(v.type, float(v.val)) for v in scale.cfvo] if scale else None,
                       [_rgb(c) for c in scale.color] if scale else None))
    return {
        "print_area": _print_area(ws),
        "print_title_rows": ws.print_title_rows,
        "print_title_cols": ws.print_title_cols,
        "orientation": ps.orientation,
        "fit": (ws.sheet_properties.pageSetUpPr.fitToPage if ws.sheet_properties.pageSetUpPr else None,
                1 if ps.fitToWidth is None else int(ps.fitToWidth),
                1 if ps.fitToHeight is None else int(ps.fitToHeight)),
        "paper": ps.paperSize,
        "centered": (bool(ws.print_options.horizontalCentered), bool(ws.print_options.verticalCentered)),
        "margins": (margins.left, margins.right, margins.top, margins.bottom, margins.header, margins.footer),
        "header": (ws.oddHeader.left.text, ws.oddHeader.center.text, ws.oddHeader.right.text),
        "footer": (ws.oddFooter.left.text, ws.oddFooter.center.text, ws.oddFooter.right.text),
        "freeze": ws.freeze_panes,
        "gridlines": ws.sheet_view.showGridLines is not False,
        "print_gridlines": bool(ws.print_options.gridLines),
        "row_breaks": [(b.id, b.man) for b in ws.row_breaks.brk],
        "col_breaks": [b.id for b in ws.col_breaks.brk],
        "conditional": cf,
    }


def _charts_per_sheet(path: Path) -> dict[str, int]:
    """Charts per sheet, read from the package: ``sheet -> drawing -> charts``."""
    with zipfile.ZipFile(path) as z:
        names = z.namelist()
        book = z.read("xl/workbook.xml").decode()
        rels = z.read("xl/_rels/workbook.xml.rels").decode()
        targets = dict(re.findall(r'Id="(rId\d+)"[^>]*Target="/?(?:xl/)?([^"]+)"', rels))
        targets.update({k: v for v, k in re.findall(r'Target="/?(?:xl/)?([^"]+)"[^>]*Id="(rId\d+)"', rels)})
        counts = {}
        for name, rid in re.findall(r'<sheet [^>]*name="([^"]+)"[^>]*r:id="(rId\d+)"', book):
            sheet = targets[rid]
            rel = f"xl/worksheets/_rels/{sheet.split('/')[-1]}.rels"
            count = 0
            if rel in names:
                for drawing in re.findall(r'Target="[./]*(?:xl/)?(drawings/[^"]+)"', z.read(rel).decode()):
                    drel = f"xl/drawings/_rels/{drawing.split('/')[-1]}.rels"
                    if drel in names:
                        count += len(re.findall(r"charts/chart\d+\.xml", z.read(drel).decode()))
            counts[name] = count
        return counts


def workbook_differences(old: Path, new: Path, limit: int = 20) -> list[str]:
    """What differs between two workbooks as a user sees them (at most ``limit`` lines)."""
    a, b = openpyxl.load_workbook(old), openpyxl.load_workbook(new)
    out: list[str] = []
    if a.sheetnames != b.sheetnames:
        return [f"sheets {a.sheetnames} != {b.sheetnames}"]
    for name in a.sheetnames:
        wa, wb = a[name], b[name]
        rows, cols = max(wa.max_row, wb.max_row), max(wa.max_column, wb.max_column)
        for r in range(1, rows + 1):
            for c in range(1, cols + 1):
                x, y = _cell(wa.cell(r, c)), _cell(wb.cell(r, c))
                if x != y:
                    out.append(f"{name}!{get_column_letter(c)}{r}: {x} != {y}")
        if _widths(wa, cols) != _widths(wb, cols):
            out.append(f"{name} widths {_widths(wa, cols)} != {_widths(wb, cols)}")
        heights = [(r, wa.row_dimensions[r].height, wb.row_dimensions[r].height) for r in range(1, rows + 1)]
        out += [f"{name} row {r} height {x} != {y}" for r, x, y in heights if x != y]
        la, lb = _layout(wa), _layout(wb)
        out += [f"{name} {k}: {la[k]!r} != {lb[k]!r}" for k in la if la[k] != lb[k]]
    if _charts_per_sheet(old) != _charts_per_sheet(new):
        out.append(f"charts {_charts_per_sheet(old)} != {_charts_per_sheet(new)}")
    return out[:limit]


def test_the_comparison_sees_a_changed_workbook(tmp_path):
    """The comparison is able to fail: one changed value, font, fill, width and print area."""
    book = openpyxl.load_workbook(REFERENCE)
    ws = book["SB push"]
    ws["C4"].value = 1.5
    ws["D4"].font = openpyxl.styles.Font(name="Calibri", bold=True)
    ws["E4"].fill = openpyxl.styles.PatternFill("solid", start_color="FF123456", end_color="FF123456")
    ws.column_dimensions["C"].width = 12
    ws.print_area = "A1:N10"
    changed = tmp_path / "changed.xlsx"
    book.save(changed)
    found = "\n".join(workbook_differences(REFERENCE, changed))
    for what in ("SB push!C4", "SB push!D4", "SB push!E4", "SB push widths", "SB push print_area"):
        assert what in found, found


def test_the_chart_workbook_is_the_one_openpyxl_made(default_stacks_set):
    """The default set's workbook, as XlsxWriter writes it, equals the openpyxl-made reference."""
    assert workbook_differences(REFERENCE, default_stacks_set[0] / "chart.xlsx") == []


def _pages(soffice: str, pdfinfo: str, xlsx: Path, folder: Path) -> int:
    folder.mkdir()
    subprocess.run([soffice, "--headless", "--norestore", "--convert-to", "pdf", "--outdir", str(folder), str(xlsx)],
                   check=True, capture_output=True, timeout=300, env={"HOME": str(folder), "PATH": "/usr/bin:/bin"})
    info = subprocess.run([pdfinfo, str(folder / (xlsx.stem + ".pdf"))], check=True, capture_output=True,
                          text=True).stdout
    return int(re.search(r"^Pages:\s+(\d+)", info, re.M).group(1))


@pytest.mark.slow
def test_libreoffice_prints_as_many_pages_as_before(default_stacks_set, tmp_path):
    """LibreOffice prints the new workbook on as many pages as the openpyxl-made one (slow: two
    conversions, about 20 s)."""
    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    pdfinfo = shutil.which("pdfinfo")
    if not soffice or not pdfinfo:
        pytest.skip("no LibreOffice (soffice) or pdfinfo on PATH (install e.g. the Debian packages "
                    "'libreoffice-calc-nogui' and 'poppler-utils')")
    old = _pages(soffice, pdfinfo, REFERENCE, tmp_path / "old")
    new = _pages(soffice, pdfinfo, default_stacks_set[0] / "chart.xlsx", tmp_path / "new")
    assert new == old, (old, new)
