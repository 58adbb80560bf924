"""What leaves sflp is clean: user text with no control characters, and strict JSON.

* **Text a user gave us stays text** in every medium: :func:`clean_text` is the one cleaning of a
  title, a strategy's name or a file name on its way into a set (the workbook, ``chart.html``, the
  drawn pictures, the PDF, the atlas page).
* :func:`csv_field` is the one writing of a CSV text field: quoted when it must be (RFC 4180), and
  a text a spreadsheet would run as a formula made inert (OWASP's rule) -- every CSV of sflp
  writes its text cells through it.
* :func:`json_text` is the one JSON sanitiser: strict JSON (``NaN``/``inf`` become ``null``),
  fractions as ``"p/q"``, arrays as lists, paths as strings -- every manifest, marker and
  ``--json`` output goes through it.

>>> json_text({"x": float("nan"), "p": __import__("fractions").Fraction(1, 3), "t": (1, 2.5)})
'{"x": null, "p": "1/3", "t": [1, 2.5]}'
"""

from __future__ import annotations

import json
import math
import re
from fractions import Fraction
from pathlib import Path

# ------------------------------------------------------------------ text a user gave us

NOT_TEXT = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")
"""Characters that are not text in any medium of a chart set: control characters (C0 but tab,
line feed and carriage return; DEL; C1), lone surrogates (what Python makes of a file name that
is not UTF-8) and the non-characters U+FFFE / U+FFFF.  UTF-8 cannot encode a lone surrogate, and
XML 1.0 (the workbook, SVG) cannot hold a control character."""


def clean_text(text: object) -> str:
    r"""``text`` (made a ``str``) with every :data:`NOT_TEXT` character replaced by U+FFFD: the one
    cleaning of user text (a title, a strategy's name or file name, an About key or value) on its
    way into a chart set, used by every medium -- the workbook's text cells, ``chart.html``, the
    drawn pictures and ``chart.pdf`` (whose text items are one line each, so they also turn tab
    and line breaks into spaces).  Text that is clean comes back as it is.

    >>> clean_text("\udcff\udcfe.csv") == "\ufffd\ufffd.csv", clean_text("a\x01b\x85") == "a\ufffdb\ufffd"
    (True, True)
    >>> clean_text("=1+2\tok\n")
    '=1+2\tok\n'
    """
    text = str(text)
    return NOT_TEXT.sub("\ufffd", text) if NOT_TEXT.search(text) else text


# ------------------------------------------------------------------ CSV

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
"""The first characters that make a spreadsheet (Excel, LibreOffice, Google Sheets) read a CSV
field as a formula: OWASP's list (CSV Injection, https://owasp.org/www-community/attacks/CSV_Injection)."""

NUMBER_TEXT = re.compile(r"[+-]?(?:(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?|\d+/\d+|inf|nan)|[+-]")
"""A field that starts like a formula and is a number all the same, left as it is: a decimal
(``-0.5``, ``-1e-07``, ``-inf``), an exact fraction as sflp writes one (``-3/7``), or a lone sign
(the charts' ``-`` for a hand never played).  None can call a function or reach a cell."""


def csv_field(text: str) -> str:
    r"""``text`` as one CSV field: the one rule of every CSV writer of sflp.

    A text that starts with one of :data:`FORMULA_START` and is not a number
    (:data:`NUMBER_TEXT`) gets a single quote in front, as OWASP advises, so a spreadsheet shows
    it as text and never runs it (``=HYPERLINK(...)``, ``@SUM(1+1)``); a field holding ``,``,
    ``"`` or a line break is then quoted, its quotes doubled (RFC 4180).  Numbers, negative ones
    too, come back byte for byte.

    >>> csv_field("=HYPERLINK(x).json"), csv_field("@SUM(1+1)cmd.json"), csv_field("a,b")
    ("'=HYPERLINK(x).json", "'@SUM(1+1)cmd.json", '"a,b"')
    >>> csv_field("-0.5"), csv_field("-3/7"), csv_field("-"), csv_field("-2+3+cmd|' /C calc'!A0")
    ('-0.5', '-3/7', '-', "'-2+3+cmd|' /C calc'!A0")
    """
    if text.startswith(FORMULA_START) and not NUMBER_TEXT.fullmatch(text):
        text = "'" + text
    if any(ch in text for ch in ',"\n\r'):
        return '"' + text.replace('"', '""') + '"'
    return text


# ------------------------------------------------------------------ JSON


def json_ready(obj):
    """``obj`` as plain JSON data: NaN / inf -> None, Fraction -> ``"p/q"``, arrays and tuples ->
    lists, paths -> str (recursively; dict keys are kept)."""
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, dict):
        return {k: json_ready(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [json_ready(v) for v in obj]
    if obj is None or isinstance(obj, (str, int)):
        return obj
    if isinstance(obj, Fraction):
        return f"{obj.numerator}/{obj.denominator}"
    if hasattr(obj, "tolist"):
        return json_ready(obj.tolist())
    if isinstance(obj, Path):
        return str(obj)
    raise TypeError(f"not JSON serialisable: {type(obj).__name__}")


def json_text(obj, **dumps_options) -> str:
    """``obj`` (see :func:`json_ready`) as strict JSON text; ``dumps_options`` go to :func:`json.dumps`."""
    return json.dumps(json_ready(obj), allow_nan=False, **dumps_options)
