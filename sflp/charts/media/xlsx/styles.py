"""Styling many workbook cells at openpyxl's cost for a few.

openpyxl registers every style part (number format, fill, font, alignment, border) in the
workbook each time one is assigned to a cell: it hashes the part (tens of microseconds for a
font) to find its index in the workbook's collection.  A chart workbook styles about 24,000
cells with a few dozen combinations, so a third of its time went to hashing the same parts.

A cell's style is one small array of those indices (openpyxl's ``StyleArray``).  :func:`styled`
styles the *first* cell of each combination through openpyxl's public setters (so every part
enters the workbook's collections when and in the order it always did: the same indices, the
same bytes) and gives each later cell of that combination a copy of the first one's array.  The
cache is kept per workbook and holds the parts it was keyed on, so no part's ``id`` is reused
while it lives.

This module is the one place sflp reads openpyxl's private ``Cell._style``;
:mod:`sflp.charts.media.xlsx.workbook` itself uses only the public API (``tests/test_excel.py``).  Should a
future openpyxl not have it, :data:`FAST` turns off and every cell takes the public setters: the
same workbook, more slowly.  ``tests/test_excel.py`` checks that both routes write the same
bytes.
"""

from __future__ import annotations

import weakref
from copy import copy

FAST = True
"""Copy a combination's style array to later cells (False: every cell through the setters)."""

_CACHES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _set_parts(cell, number_format, fill, font, alignment, border) -> None:
    if number_format is not None:
        cell.number_format = number_format
    if fill is not None:
        cell.fill = fill
    if font is not None:
        cell.font = font
    if alignment is not None:
        cell.alignment = alignment
    if border is not None:
        cell.border = border


def styled(cell, number_format=None, fill=None, font=None, alignment=None, border=None):
    """Give ``cell`` the style parts that are not None, as ``cell.font = font`` ... would; returns
    ``cell``."""
    array = getattr(cell, "_style", False) if FAST else False
    if array is False:  # no style array to copy: the public setters
        _set_parts(cell, number_format, fill, font, alignment, border)
        return cell
    workbook = cell.parent.parent
    cache = _CACHES.get(workbook)
    if cache is None:
        cache = _CACHES[workbook] = {}
    key = (tuple(array) if array else None, number_format, id(fill), id(font), id(alignment), id(border))
    hit = cache.get(key)
    if hit is not None:
        cell._style = copy(hit[0])
        return cell
    _set_parts(cell, number_format, fill, font, alignment, border)
    cache[key] = (copy(cell._style), fill, font, alignment, border)
    return cell
