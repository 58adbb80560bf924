"""The options every command shares, the JSON printer and the progress bars (stderr only)."""

from __future__ import annotations

import argparse
import math
import os
import re
import sys
from pathlib import Path

from sflp.checks import parse_number
from sflp.errors import ConfigError
from sflp.output.clean import json_text

TYPED: dict[str, str] = {}
"""The text the user typed for each numeric option of this run (``{"--stack": "0.5"}``), kept by
:func:`number` so that an error can name the option as it was typed (:func:`cli_words`)."""

STRUCTURE_OPTIONS = {"stack": "--stack", "small_blind": "--small-blind", "big_blind": "--big-blind",
                     "ante": "--ante", "bb_ante": "--bb-ante"}
"""The library's name of each game field and the option that sets it."""

_FIELD_VALUE = re.compile(r"(?<![\w-])(?P<field>stack|small_blind|big_blind|ante|bb_ante)=(?P<value>[^\s,;:()]+)"
                          r"(?P<hint> \(--[a-z-]+\))?")


def cli_words(message: str, args) -> str:
    """A library error (:class:`sflp.errors.ConfigError` names a game field in Python style,
    ``stack=0.5``) in the words of the command line: each field the command takes as an option
    becomes the option with the text typed (``--stack 0.5``), or with its default value
    (``--big-blind 1``) when it was not typed.  Library users keep the library's words.

    >>> TYPED.clear(); TYPED["--stack"] = "0.5"
    >>> ns = argparse.Namespace(stack=0.5, big_blind=1.0)
    >>> cli_words("stack=0.5 cannot cover the big blind and antes", ns)
    '--stack 0.5 cannot cover the big blind and antes'
    >>> cli_words("small_blind=2.0 is larger than big_blind=1.0", argparse.Namespace(small_blind=2.0, big_blind=1.0))
    '--small-blind 2 is larger than --big-blind 1'
    >>> cli_words("stack=0.0 must be positive", argparse.Namespace(big_blind=0.0))  # sc: no --stack option
    'stack=0.0 must be positive'
    >>> cli_words("bb_ante=1e-300 (--bb-ante) is below 1e-100 bb", argparse.Namespace(bb_ante=1e-300))
    '--bb-ante 1e-300 is below 1e-100 bb'
    >>> TYPED.clear()
    """
    def option(match: re.Match) -> str:  # the library's hint of the option, "(--bb-ante)", goes: it is named
        field, value = match["field"], match["value"]
        name = STRUCTURE_OPTIONS[field]
        if getattr(args, field, None) is None:  # not an option of this command (or not given): library words
            return match[0]
        if name in TYPED:
            return f"{name} {TYPED[name]}"
        try:
            return f"{name} {float(value):g}"
        except ValueError:
            return f"{name} {value}"

    return _FIELD_VALUE.sub(option, message)


SPEC_ALLOWED = "allowed: a range ('22+,A2s+'), a top percentage ('30%'), 'random', or a CSV/grid/JSON file"
"""What a strategy option (``--sb``/``--bb SPEC``) takes, in one line."""


def load_spec(text: str, player: str, option: str):
    """``option``'s strategy (:func:`sflp.study.strategy.load_strategy`), with the command line's
    short words when the text is no strategy: a bare number (``--bb 30``) is asked whether it
    meant the percentage, and the range grammar's long list of what is allowed becomes one line
    (:data:`SPEC_ALLOWED`; ``sflp.parse_range``'s own message keeps the whole grammar)."""
    from sflp.checks import parse_number, short
    from sflp.errors import NotationError
    from sflp.study.strategy import load_strategy

    try:
        return load_strategy(text, player)
    except NotationError as exc:
        try:
            parse_number(text.strip(), option)
        except ConfigError:
            cause = str(exc).split("; allowed:")[0].split(": bad range token ")[-1]
            raise ConfigError(f"{option} {short(text)} is not a strategy ({cause}); {SPEC_ALLOWED}") from None
        raise ConfigError(f"{option} {text.strip()} is not a strategy: did you mean `{option} {text.strip()}%` "
                          f"(the top {text.strip()}% of hands)? {SPEC_ALLOWED}") from None


def number(name: str):
    """The argparse type of a numeric option: plain ASCII digits only (:func:`sflp.checks.parse_number`:
    ``10``, ``0.125``, ``1e-6``, ``-1``; not ``1_0`` or a full-width digit, which ``float`` takes).
    The text typed is kept in :data:`TYPED`."""
    def parse(text: str) -> float:
        TYPED[name] = text
        try:
            value = parse_number(text, name, special=True)
        except ConfigError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
        if math.isinf(value) and "inf" not in text.lower():  # 1e400: name the input, not "inf"
            raise argparse.ArgumentTypeError(f"{name} {text!r} is too large for a float (at most ~1.8e308)")
        return value  # nan / inf themselves are refused by the check of the option's value

    return parse


def positive(name: str):
    """The argparse type of an option that is a positive finite number (``--seconds``): :func:`number`,
    then a one-line refusal naming the option, in its own words, of 0, a negative number, inf or nan."""
    read = number(name)

    def parse(text: str) -> float:
        value = read(text)
        if not (value > 0 and math.isfinite(value)):
            raise argparse.ArgumentTypeError(f"{name} {text!r} must be a positive finite number")
        return value

    return parse


def whole(name: str, low: int = 0, high: int | None = None):
    """The argparse type of a whole-number option: plain ASCII digits (:func:`sflp.checks.parse_number`),
    at least ``low`` and at most ``high`` (None: no limit)."""
    def parse(text: str) -> int:
        try:
            value = parse_number(text, name, whole=True)
        except ConfigError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
        if value < low:
            raise argparse.ArgumentTypeError(f"{name} {text!r} must be at least {low}")
        if high is not None and value > high:
            raise argparse.ArgumentTypeError(f"{name} {text!r} must be at most {high}")
        return value

    return parse


def solver_name(text: str) -> str:
    if not text.strip():
        raise argparse.ArgumentTypeError("--solver '' is empty: give a cvxpy solver name such as HIGHS")
    return text


class HelpFormatter(argparse.HelpFormatter):
    """Adds ``(default: X)`` to every option whose help does not already state its default."""

    def _get_help_string(self, action):
        text = action.help or ""
        if ("default" in text or not action.option_strings or action.default is None or action.default is False
                or action.default is argparse.SUPPRESS):
            return text
        return text + " (default: %(default)s)"


def add_parser(sub, name: str, **kw) -> argparse.ArgumentParser:
    kw.setdefault("description", kw.get("help"))
    return sub.add_parser(name, formatter_class=HelpFormatter, **kw)


def add_structure(p: argparse.ArgumentParser, stack: bool = True, stack_from: str | None = None) -> None:
    """The game's options; ``stack_from`` says where the stack comes from when ``--stack`` is not
    given (``--stack`` is then optional, and the command checks that it has a stack)."""
    g = p.add_argument_group("game")
    if stack:
        default = f" (default: {stack_from})" if stack_from else ""
        g.add_argument("--stack", type=number("--stack"), required=stack_from is None,
                       help=f"effective stack in bb, before posting{default}")
    g.add_argument("--small-blind", type=number("--small-blind"), default=0.5, help="small blind in bb (live)")
    g.add_argument("--big-blind", type=number("--big-blind"), default=1.0, help="big blind in bb (live)")
    g.add_argument("--ante", type=number("--ante"), default=0.0, help="ante per player in bb (dead)")
    g.add_argument("--bb-ante", type=number("--bb-ante"), default=0.0,
                   help="big-blind ante in bb, paid by BB only (dead)")


def add_lock(p: argparse.ArgumentParser) -> None:
    p.add_argument("--no-wait", action="store_true",
                   help="fail at once if another sflp run is writing the same --out folder (default: wait for it)")


def keep_printer(out_dir: Path | str):
    """``on_keep``: say on stderr which of the user's files a run kept in ``out_dir``."""
    from sflp.checks import shown_name

    return lambda names: _wrapped(
        f"sflp: kept {len(names)} file(s) in {shown_name(str(out_dir))} that sflp did not write: "
        + ", ".join(map(shown_name, names[:8])) + (", ..." if len(names) > 8 else ""))


def lock_options(args, out_dir: Path | None) -> dict:
    """``wait`` / ``on_wait`` / ``on_keep`` for a staged output folder: wait and say so once (or fail at
    once), and say which of the user's files were kept (``out_dir`` None: the default folder)."""
    out_dir = "the output folder" if out_dir is None else out_dir
    return {
        "wait": not args.no_wait,
        "on_wait": lambda: print(f"sflp: waiting for another sflp run writing {out_dir} ...", file=sys.stderr),
        "on_keep": keep_printer(out_dir),
    }


def add_output(p: argparse.ArgumentParser, verbose: bool = True) -> None:
    """``--json``, ``--no-color`` and, for a command that solves an LP, ``--verbose``."""
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    p.add_argument("--no-color", action="store_true", help="no ANSI colours in text output")
    if verbose:
        p.add_argument("--verbose", action="store_true",
                       help="show the LP solver's own log (on stderr; stdout stays the command's output)")


def config_from(args, stack: float | None = None):
    from sflp.core.game import GameConfig

    return GameConfig(
        stack=args.stack if stack is None else stack,
        small_blind=args.small_blind,
        big_blind=args.big_blind,
        ante=args.ante,
        bb_ante=args.bb_ante,
    )


def check_structure(args) -> None:
    """The blinds and antes checked on their own, before a command without ``--stack`` (``sc``,
    ``chart``) derives its first stack from them: ``sflp sc --big-blind 0`` is refused as
    ``--big-blind 0 must be positive`` (:func:`cli_words`), not as the ``stack=0.0`` derived from it."""
    from sflp.core.game import GameConfig

    sizes = [abs(v) for v in (args.small_blind, args.big_blind, args.ante, args.bb_ante) if math.isfinite(v)]
    GameConfig(stack=2 * sum(sizes) + 1.0, small_blind=args.small_blind, big_blind=args.big_blind,
               ante=args.ante, bb_ante=args.bb_ante)


def print_json(obj) -> None:
    print(json_text(obj))


DEFAULT_COLUMNS = 80
"""The width of text output when stdout is not a terminal and ``$COLUMNS`` does not say."""


def terminal_width() -> int:
    """The columns every line of text output fits in: the terminal's when stdout is one
    (``$COLUMNS`` first, as :func:`shutil.get_terminal_size` reads it), else ``$COLUMNS`` when it
    is a positive whole number, else :data:`DEFAULT_COLUMNS`.  Grids stand side by side where
    they fit, and take their compact form below their wide one."""
    import shutil

    if sys.stdout.isatty():
        return shutil.get_terminal_size((DEFAULT_COLUMNS, 24)).columns
    text = os.environ.get("COLUMNS", "").strip()
    return int(text) if text.isascii() and text.isdigit() and int(text) > 0 else DEFAULT_COLUMNS


def say(kind: str, text: str) -> None:
    """A note or a warning on stderr, ``sflp: note: …`` (``kind`` "note" or "warning"), wrapped to
    :func:`terminal_width` (at least 40 columns), its later lines indented two spaces.  A word is
    never broken (a long folder name stays whole).  An error is not said so: it stays one line,
    whatever its length, for the scripts that read it."""
    _wrapped(f"sflp: {kind}: {' '.join(text.split())}")


def _wrapped(text: str) -> None:
    """``text`` on stderr in lines of :func:`terminal_width` (at least 40), later lines indented two
    spaces, no word broken."""
    import textwrap

    lines = textwrap.wrap(text, max(terminal_width(), 40), subsequent_indent="  ", break_long_words=False,
                          break_on_hyphens=False)
    print("\n".join(lines), file=sys.stderr)


def use_color(args) -> bool:
    return not getattr(args, "no_color", False) and sys.stdout.isatty() and os.environ.get("NO_COLOR") is None


PROGRESS_DELAY = 2.0
"""Seconds before a progress bar appears: quick runs stay quiet."""


def show_progress(args) -> bool:
    """Progress bars only on a terminal (stderr) and never with --json."""
    return not getattr(args, "json", False) and sys.stderr.isatty()


class Bar:
    """A tqdm bar on stderr that appears after PROGRESS_DELAY seconds (or does nothing)."""

    def __init__(self, total: float, desc: str, unit: str, enabled: bool, **kw) -> None:
        self.done = 0
        self.bar = None
        if enabled:
            from tqdm import tqdm

            self.bar = tqdm(total=total, desc=desc, unit=unit, file=sys.stderr, leave=False, delay=PROGRESS_DELAY,
                            dynamic_ncols=True, **kw)

    def add(self, n=1) -> None:
        self.done += n
        if self.bar is not None:
            self.bar.update(n)

    def share(self, share: float) -> None:
        """Set a 0..100 bar to ``share`` (0..1) of its budget."""
        target = round(100 * min(1.0, max(0.0, share)))
        if target > self.done:
            self.add(target - self.done)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def check_target(out_dir: Path, kind: str) -> None:
    """Fail before any work when ``--out`` cannot take a set of ``kind`` (one of
    :data:`sflp.output.target.KINDS`): a file, a folder of other files, an sflp set of another kind."""
    from sflp.output.target import check_target as check

    check(out_dir, kind)
