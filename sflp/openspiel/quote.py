"""A bad input quoted in one short line, however large it is.

:func:`quote` is ``repr`` bounded in time and memory: a 40 MB string, a list of a million items
or an integer of 10,000 digits (whose ``repr`` Python refuses) is shown by its start and its size,
so an error message about it is one line and is made at once.

>>> quote("AA"), quote(2.0)
("'AA'", '2.0')
>>> quote("x" * 1000)
"'xxxxxxxxxxxxxxxxxxxxxxxxxxx...xxxxxxxxxxxxxxxxxxxxxxxxxxxx'"
>>> quote(10 ** 5000)
'an integer of about 5,001 digits'
"""

from __future__ import annotations

import math
import reprlib

LIMIT = 60
"""The longest quote, in characters."""

_REPR = reprlib.Repr()
_REPR.maxstring = _REPR.maxother = LIMIT
_REPR.maxlist = _REPR.maxtuple = _REPR.maxdict = _REPR.maxset = _REPR.maxfrozenset = 4
_REPR.maxlevel = 3


def quote(value, limit: int = LIMIT) -> str:
    """``repr(value)``, cut to ``limit`` characters (ending ``...``) when longer."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 3 * limit:
        digits = int(abs(value).bit_length() * math.log10(2)) + 1
        return f"an integer of about {digits:,} digits"
    try:
        text = _REPR.repr(value)
    except Exception:  # a user's object whose repr fails: its type says enough
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."
