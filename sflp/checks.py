"""The one validation boundary: every public function and CLI argument checks its inputs here.

Each check raises :class:`~sflp.errors.ConfigError` naming the argument, quoting the value
(shortened when huge) and saying what is allowed.  Numbers are real numbers -- ``int``,
``float``, ``Fraction`` or ``Decimal`` -- never ``bool``, ``str`` or ``None``; a ``Decimal`` is
accepted everywhere a number is.  They must be finite and fit a float.  Counts are capped alike
in the API and the CLI (:data:`MAX_STACKS`).

>>> real("stack", 10), real("ante", Decimal("0.125"), low=0)
(10.0, 0.125)
>>> real("ante", "0.1", low=0)
Traceback (most recent call last):
...
sflp.errors.ConfigError: ante='0.1' is not a number (give an int, float, Fraction or Decimal, not str)

Checked once, passed on
-----------------------
A value is checked where it enters -- a CLI option, a public function's argument -- and what the
check returns is passed on; the functions it reaches do not check it again.  The stacks of a
sweep (up to :data:`MAX_STACKS` of them) are the case where that matters: their check is a
:class:`Stacks`, an immutable tuple of floats, each positive and finite, increasing without
repeats.  :func:`parse_stacks` (``--stacks``) returns one and ``Stacks(values)`` makes one of
anything else, checking it.  Every function that takes stacks -- ``sflp.chart``,
:func:`sflp.solving.solver.solve_many`, ``iter_solve``, ``iter_blocks``, ``write_chart_set``,
``Thresholds.solve`` -- takes a :class:`Stacks` as it is, and checks only a raw list, tuple or
array, with the same errors a :class:`Stacks` would give:

>>> stacks = Stacks([10, 2.5, Fraction(5)])
>>> stacks, Stacks(stacks) is stacks
(Stacks([2.5, 5.0, 10.0]), True)
>>> Stacks([5, -1])
Traceback (most recent call last):
...
sflp.errors.ConfigError: stack=-1 must be positive
"""

from __future__ import annotations

import math
import re
import reprlib
import sys
from collections.abc import Iterable
from decimal import Decimal
from fractions import Fraction
from numbers import Real

from sflp.errors import ArgumentTypeError, ConfigError

MAX_STACKS = 100_000
"""The most stacks one sweep takes, in :func:`sflp.solving.solver.solve_many` and ``sflp chart`` alike."""

STRATEGY_FILE_MAX_BYTES = 10 * 1024 * 1024
"""Strategy files larger than this (10 MiB) are refused before they are read; a class-level
strategy is a few kB, a combo-level one tens of kB."""


_SPACE = " \t"
"""The spaces allowed around the items of a list of stacks (``2, 5, 10``): ASCII only."""

SHORT_LIMIT = 60
"""The longest quote of a bad input in an error message, in characters."""


MAX_WORKERS = 8
"""The most worker processes a chart job may ask for (``sflp chart --workers``,
:class:`sflp.output.jobs.Jobs`): a set has a handful of slow files, and past two the wall time
stops falling while each worker adds its imports (about 0.9 s of CPU and 100 MB)."""


def _bounded_repr(limit: int) -> reprlib.Repr:
    """A :class:`reprlib.Repr` that shows at most ``limit`` characters of a string or number
    and four items of a container, three levels deep."""
    out = reprlib.Repr()
    out.maxstring = out.maxother = limit
    out.maxlist = out.maxtuple = out.maxdict = out.maxset = out.maxfrozenset = 4
    out.maxlevel = 3
    return out


_REPR = _bounded_repr(SHORT_LIMIT)


def shown_name(name: str) -> str:
    """A file or folder name as a note or an error message shows it: as it is when every character
    prints, else quoted with its control characters escaped (``'a\\nb.json'``), so one name is one
    line (a name cannot forge a line of its own) and two names never look alike.  Every name sflp
    prints in a one-line note or error goes through it."""
    return name if name.isprintable() else repr(name)


def short(value, limit: int = SHORT_LIMIT) -> str:
    """``repr(value)`` in one short line, bounded in time and memory however large the value: a
    40 MB string, a list of a million items or an integer of 10,000 digits (whose ``repr`` Python
    refuses) is shown by its start, cut to ``limit`` characters (ending ``...``).

    >>> short("AA"), short(2.0), short(10 ** 5000)
    ("'AA'", '2.0', 'an integer of about 5,001 digits')
    >>> short("x" * 1000, 20)
    "'xxxxxxxxxxxxxxxx..."
    """
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 3 * limit:
        digits = int(abs(value).bit_length() * math.log10(2)) + 1
        return f"an integer of about {digits:,} digits"
    repr_of = _REPR if limit <= SHORT_LIMIT else _bounded_repr(limit)
    try:
        text = repr_of.repr(value)
    except Exception:  # a user's object whose repr fails: its type says enough
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


SHORT_ABOVE = 1e20
"""A magnitude from which readable text shows a number in a short form (``-9.90954e+24``) instead
of its fixed-point digits (``-9909539200295503115845632.000000``); ``--json`` keeps the exact float."""
_FIXED = re.compile(r"(?P<head>.*?)(?:\.(?P<digits>[0-9]+))?[fF]")


def number_text(value, spec: str, digits: int = 6) -> str:
    """``value`` in the fixed-point format ``spec`` (``"+.9f"``, ``">12.3f"``) as readable text
    shows it, or -- when its magnitude is :data:`SHORT_ABOVE` or more -- with the same sign, width
    and alignment in ``%g`` style with ``digits`` significant digits: huge stacks and antes give
    values of 1e25 bb, whose 100 digits say nothing more.

    >>> number_text(-0.49321636, "+.9f"), number_text(-9909539200295503115845632.0, "+.9f")
    ('-0.493216360', '-9.90954e+24')
    >>> number_text(6.5e27, ">12.3f"), number_text(2e25, "+.2f", 3), number_text(float("nan"), ".2f")
    ('     6.5e+27', '+2e+25', 'nan')

    A number that rounds to zero has no sign: negative zero (``-0.00``, ``-0.000000000``) never
    prints, nor ``+0.00``, whatever the sign of the value it rounds (the one rule for every signed
    number of the readable text):

    >>> number_text(-0.004, "+.2f"), number_text(-1e-17, ">12.9f"), number_text(0.0, "+.2f"), number_text(-0.005, ".1f")
    ('0.00', ' 0.000000000', '0.00', '0.0')
    """
    value = float(value)
    fixed = _FIXED.fullmatch(spec)
    if fixed is None:
        raise ValueError(f"number_text: {spec!r} is not a fixed-point format such as '+.6f'")
    if math.isfinite(value) and abs(value) >= SHORT_ABOVE:
        return format(value, f"{fixed['head']}.{digits}g")
    text = format(value, spec)
    if math.isfinite(value) and not text.strip().lstrip("+-").strip("0."):  # a zero at this precision
        return format(0.0, spec.replace("+", "").replace("-", ""))
    return text


def margin_text(value, spec: str, digits: int = 6) -> str:
    """An EV margin (bb) in the fixed-point format ``spec``, by the one rule of every medium that
    prints margins (the terminal grids, the HTML page's ``margin()``, the workbook's
    ``+0.000;-0.000;0.000``, the notebook views): the sign says which way the hand goes, so it
    always shows on a margin that is not zero, even when its digits round to zero (``+0.00``,
    ``-0.00``: issue 42, ``sflp solve --stack 10`` printed T7o's -0.0047 as ``0.00``); a margin of
    exactly 0 (a tie: either action is best) prints ``0.00``, without a sign.  Otherwise as
    :func:`number_text` (whose rule, no sign on a number that rounds to zero, is for every other
    number).  ``spec`` carries the ``+`` (``"+.2f"``, ``">+6.2f"``).

    >>> [margin_text(v, "+.2f") for v in (0.0047, -0.0047, 0.0, -0.0, 1.234, -0.006)]
    ['+0.00', '-0.00', '0.00', '0.00', '+1.23', '-0.01']
    >>> margin_text(-0.04, ">+6.1f"), margin_text(0.04, ">+6.1f"), margin_text(3e25, "+.2f", 3)
    ('  -0.0', '  +0.0', '+3e+25')
    """
    value = float(value)
    if value == 0:
        return format(0.0, spec.replace("+", "").replace("-", ""))
    if not math.isfinite(value) or abs(value) >= SHORT_ABOVE:
        return number_text(value, spec, digits)
    return format(value, spec)  # Python keeps the sign of a value that rounds to zero: -0.00


def real(name: str, value, *, low: float | None = None, positive: bool = False) -> float:
    """``value`` as a finite float, else sflp's error naming ``name``.

    ``positive``: must be > 0; ``low``: must be >= low.
    """
    if isinstance(value, bool) or not isinstance(value, (Real, Decimal)):
        raise ConfigError(
            f"{name}={short(value)} is not a number (give an int, float, Fraction or Decimal, "
            f"not {type(value).__name__})"
        )
    if isinstance(value, Decimal) and not value.is_finite():
        raise ConfigError(f"{name}={short(value)} must be finite")
    try:
        number = float(value)
    except OverflowError:
        raise ConfigError(f"{name}={short(value)} is too large (at most {sys.float_info.max:.3g})") from None
    if not math.isfinite(number):
        raise ConfigError(f"{name}={short(value)} must be finite")
    if positive and not number > 0:
        raise ConfigError(f"{name}={short(value)} must be positive")
    if low is not None and number < low:
        raise ConfigError(f"{name}={short(value)} must be at least {low:g}")
    return number


def count(name: str, value, *, low: int = 0, high: int | None = None) -> int:
    """``value`` as an int in ``[low, high]``, else sflp's error naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(f"{name}={short(value)} is not a whole number (give an int, not {type(value).__name__})")
    if value < low or (high is not None and value > high):
        allowed = f"from {low:,} to {high:,}" if high is not None else f"at least {low:,}"
        raise ConfigError(f"{name}={value!r} is out of range: allowed {allowed}")
    return value


def instance(name: str, value, cls: type, example: str):
    """``value`` if it is a ``cls``, else sflp's error naming ``name`` with an example."""
    if not isinstance(value, cls):
        raise ArgumentTypeError(f"{name} must be a {cls.__name__} (e.g. {example}), not {type(value).__name__} "
                          f"{short(value)}")
    return value


PLAIN_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
"""A number as a user types one: ASCII digits, an optional sign, point and exponent (``10``,
``-1``, ``0.125``, ``.5``, ``1e-6``).  Python's ``float``, ``int`` and ``Fraction`` also take
``1_0`` (ten), full-width or other Unicode digits (``\uff11``), surrounding whitespace and
``p/q``; sflp does not."""
_SPECIAL = re.compile(r"[+-]?(?:inf|infinity|nan)", re.IGNORECASE)
_WHOLE = re.compile(r"[+-]?[0-9]{1,4300}")


class Underflow(ConfigError):
    """A number that is not zero as written but that a float reads as 0 (``1e-400``): raised by
    :func:`parse_number`, so that a reader of lists says that, not that the list is malformed."""

    def __init__(self, what: str, text: str) -> None:
        self.text = text
        super().__init__(f"{what} {short(text)} {self.reason}")

    reason = ("is too small for a float: it would be read as 0 (the smallest positive float is about 5e-324); "
              "write 0 for zero")

    def in_list(self, option: str, whole: str) -> ConfigError:
        """The one-line error for ``whole``, the list or range typed for ``option``."""
        return ConfigError(f"{option} {short(whole)}: {self.text} {self.reason}")


def parse_number(text: str, what: str, *, special: bool = False, exact: bool = False,
                 whole: bool = False) -> float | Fraction | int:
    """``text`` read as a :data:`PLAIN_NUMBER`: the one reader of numbers typed on the command
    line (every numeric option, ``--stacks``, ``--grid-stacks``, ``compare``'s configurations).
    Returns a float, or with ``exact`` the exact :class:`~fractions.Fraction` of the decimal (by
    way of its float when the exponent has four digits or more: an :class:`OverflowError` when
    that is too large);
    ``special`` also lets ``inf`` / ``nan`` through (for a caller whose own check names them);
    ``whole`` asks for an ``int``: ASCII digits with an optional sign (at most 4,300 of them).
    A number that is not zero as written but that a float cannot hold (``1e-400``) is refused:
    it would silently become 0 (no ante, say).
    Anything else is a :class:`~sflp.errors.ConfigError` of one line naming ``what`` and quoting
    ``text``.

    >>> parse_number("0.125", "--ante"), parse_number("1e-6", "--ante"), parse_number("3.5", "x", exact=True)
    (0.125, 1e-06, Fraction(7, 2))
    >>> parse_number("1_0", "--ante")
    Traceback (most recent call last):
    ...
    sflp.errors.ConfigError: --ante '1_0' is not a number (write plain digits, such as 10, 0.125 or 1e-6)
    """
    if whole:
        if not isinstance(text, str) or not _WHOLE.fullmatch(text):
            raise ConfigError(f"{what} {short(text)} is not a whole number (write plain digits, such as 10)")
        return int(text)
    if not isinstance(text, str) or not (PLAIN_NUMBER.fullmatch(text) or (special and _SPECIAL.fullmatch(text))):
        raise ConfigError(f"{what} {short(text)} is not a number (write plain digits, such as 10, 0.125 or 1e-6)")
    if PLAIN_NUMBER.fullmatch(text) and float(text) == 0 and re.search(r"[1-9]", text.lower().partition("e")[0]):
        raise Underflow(what, text)
    if not exact:
        return float(text)
    exponent = text.lower().partition("e")[2].lstrip("+-").lstrip("0")
    if len(exponent) > 3:  # 1e999999999 as a Fraction is a billion-digit integer: by its float (inf raises)
        return Fraction(float(text))
    return Fraction(text)


def stack_list(values) -> list[float]:
    """The stacks ``values`` (any iterable of numbers, a numpy array included) as floats, in the
    order given and repeats kept: the one check of stacks that did not come as a :class:`Stacks`.
    Each is a real number, positive and finite (:func:`real`), and there are at most
    :data:`MAX_STACKS` (an endless iterator is refused after that many).

    >>> stack_list([10, 2.5, 10])
    [10.0, 2.5, 10.0]
    """
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise ConfigError(
            f"stacks must be a list of numbers, not {type(values).__name__} {values!r:.40} "
            "(e.g. [5, 10], or numpy.arange(1, 25.01, 0.05))"
        )
    tolist = getattr(values, "tolist", None)
    if callable(tolist) and getattr(values, "ndim", None) == 1 and len(values) <= MAX_STACKS:
        values = tolist()  # a numpy array: its items as Python numbers, checked below at list speed
    out: list[float] = []
    for s in values:
        out.append(s if type(s) is float and 0.0 < s < math.inf else real("stack", s, positive=True))
        if len(out) > MAX_STACKS:
            raise ConfigError(f"stacks: more than {MAX_STACKS:,} stacks in one sweep (the CLI's cap too); "
                              "split the range")
    return out


class Stacks(tuple):
    """The stacks of a sweep, checked: floats in bb, each positive and finite, increasing without
    repeats, at most :data:`MAX_STACKS` (see the module's doc: checked once, passed on).

    ``Stacks(values)`` checks ``values`` (:func:`stack_list`), sorts them and drops repeats;
    ``Stacks(stacks)`` of a :class:`Stacks` is that object itself.  It equals a list of the same
    floats, as it equals the tuple, so it stands where a sorted list of stacks stood.

    >>> Stacks([5, 2, 5]) == [2.0, 5.0], Stacks(()) == []
    (True, True)
    """

    __slots__ = ()

    def __new__(cls, values=()):
        if isinstance(values, Stacks):
            return values
        return tuple.__new__(cls, sorted(set(stack_list(values))))

    @classmethod
    def _checked(cls, values: list[float]) -> Stacks:
        """``values`` already checked by their maker (:func:`parse_stacks`): floats, positive,
        finite, increasing without repeats, at most :data:`MAX_STACKS`."""
        return tuple.__new__(cls, values)

    def __eq__(self, other):
        return tuple.__eq__(self, tuple(other) if isinstance(other, list) else other)

    def __ne__(self, other):
        return not self == other

    __hash__ = tuple.__hash__

    def __repr__(self) -> str:
        return f"Stacks({list(self)!r})"


def parse_stacks(text: str, option: str = "--stacks") -> Stacks:
    """``"1:25:0.05"`` (start:stop:step, stop included when on the grid) or ``"2,5,10"``, as
    :class:`Stacks` (increasing, without repeats); errors name ``option``.

    >>> parse_stacks("1:2:0.25")
    Stacks([1.0, 1.25, 1.5, 1.75, 2.0])
    >>> parse_stacks("10,2,5")
    Stacks([2.0, 5.0, 10.0])
    """
    text = text.strip(_SPACE)
    usage = f"{option} {text!r} is not START:STOP:STEP (e.g. 1:25:0.05) or a comma list (e.g. 2,5,10)"
    try:  # exact decimals, so that the grid lands on STOP; each a plain number (not 1_0, p/q, inf)
        parts = [parse_number(p.strip(_SPACE), option, exact=True) for p in text.split(":" if ":" in text else ",")]
    except Underflow as exc:
        raise exc.in_list(option, text) from None
    except ConfigError:
        raise ConfigError(usage) from None
    except OverflowError:
        raise ConfigError(f"{option} {text!r:.60}: a stack is too large for a float (at most ~1.8e308)") from None
    if ":" in text:
        if len(parts) != 3:
            raise ConfigError(usage)
        start, stop, step = parts
        if step <= 0:
            raise ConfigError(f"{option} {text!r}: the step must be positive")
        if stop < start:
            raise ConfigError(f"{option} {text!r}: stop must not be below start")
        count = int((stop - start) / step) + 1
        if count > MAX_STACKS:
            raise ConfigError(f"{option} {text!r}: {count:,} stacks is more than {MAX_STACKS:,}")
        try:
            # start + k * step over one denominator: int / int rounds once, as float(Fraction) does,
            # 15 times faster; increasing (rounding keeps order), a step finer than the floats gives repeats
            den = math.lcm(start.denominator, step.denominator)
            first, inc = start.numerator * (den // start.denominator), step.numerator * (den // step.denominator)
            values = list(dict.fromkeys((first + k * inc) / den for k in range(count)))
        except OverflowError:
            raise ConfigError(f"{option} {text!r}: a stack is too large for a float (at most ~1.8e308)") from None
    else:
        if len(parts) > MAX_STACKS:
            raise ConfigError(f"{option} {text!r:.60}: {len(parts):,} stacks is more than {MAX_STACKS:,}")
        try:
            values = sorted({float(p) for p in parts})
        except OverflowError:
            raise ConfigError(f"{option} {text!r:.60}: a stack is too large for a float (at most ~1.8e308)") from None
    if not values:
        raise ConfigError(f"{option} {text!r} gives no stacks")
    bad = [v for v in values if not (v > 0 and math.isfinite(v))]
    if bad:
        raise ConfigError(f"{option} {text!r}: stacks must be positive numbers (got {bad[0]:g})")
    return Stacks._checked(values)


def parse_grid_stacks(text: str | None, low: float, high: float, option: str = "--grid-stacks") -> list[float] | None:
    """``--grid-stacks 5,10,30``: the stacks of the range grids, each inside ``[low, high]``.

    >>> parse_grid_stacks("10,5", 1, 25), parse_grid_stacks(None, 1, 25)
    ([5.0, 10.0], None)
    """
    if text is None:
        return None
    try:
        stacks = sorted({parse_number(t.strip(_SPACE), option) for t in text.split(",") if t.strip(_SPACE)})
    except ConfigError:
        raise ConfigError(f"{option} {text!r}: expected a comma list of stacks in bb, such as 5,10,20") from None
    if not stacks:
        raise ConfigError(f"{option} is empty: give a comma list of stacks in bb, such as 5,10,20")
    outside = [s for s in stacks if not (low - 1e-9 <= s <= high + 1e-9)]
    if outside:
        raise ConfigError(f"{option} {', '.join(f'{s:g}' for s in outside)} outside the solved stacks "
                          f"{low:g}-{high:g} bb")
    return stacks
