"""The parser, the one error boundary and the signal handling of the ``sflp`` command."""

from __future__ import annotations

import argparse
import os
import re
import sys

from sflp import __version__
from sflp.errors import SflpError

_ARGV: list[str] = []
"""The arguments of this run (set by :func:`main`), for the parser's hints."""


_NEGATIVE_NUMBER = re.compile(r"^-(?:(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|inf|infinity|nan)"
                              r"(?:[,:].*)?$", re.IGNORECASE | re.DOTALL)
"""A negative number as :func:`sflp.checks.parse_number` reads one (``-1``, ``-1e3``, ``-inf``), alone or
first in a comma list or a START:STOP:STEP range (``-5,10``, ``-inf:5:1``): the option's own check reads
what follows."""


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors: ``sflp: error: <what> (see `sflp solve --help`)``, exit 2.

    argparse's ``argument --stack: --stack 'ten' is not a number`` names the option once, and a
    number typed without its option (``sflp solve 10``) gets ``did you mean `--stack 10`?``."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # argparse takes only -1 and -.5 for negative numbers and anything else that starts with a
        # dash for an option: `--stack -inf` or `--stack -1e3` would be "expected one argument".
        # Every number sflp reads (sflp.checks.parse_number, with inf and nan) goes to the option,
        # whose own check names it and says what is allowed (no sflp option looks like a number)
        self._negative_number_matcher = _NEGATIVE_NUMBER

    def error(self, message: str):
        text = " ".join(message.split())
        named = re.match(r"argument (\S+): (.*)", text)
        if named and any(named[2].startswith(name) for name in named[1].split("/")):
            text = named[2]  # the type's own message already names the option
        parser = self
        if text.startswith(("the following arguments are required", "unrecognized arguments")):
            parser, stray = self._stray_number()
            if stray is not None and "--stack" in parser._option_string_actions:
                text = f"{stray} alone is not an option: did you mean `--stack {stray}`?"
        self.exit(2, f"sflp: error: {text} (see `{parser.prog} --help`)\n")

    def _stray_number(self) -> tuple[argparse.ArgumentParser, str | None]:
        """The parser of the command in :data:`_ARGV` and the first number there that no option
        takes as its value (None: there is none)."""
        from sflp.checks import parse_number
        from sflp.errors import ConfigError

        parser, tokens = self, list(_ARGV)
        for action in self._actions:
            if isinstance(action, argparse._SubParsersAction):
                for k, token in enumerate(tokens):
                    if token in action.choices:
                        parser, tokens = action.choices[token], tokens[k + 1:]
                        break
        takes_value = False
        for token in tokens:
            if takes_value:
                takes_value = False
                continue
            option = parser._option_string_actions.get(token)
            if option is not None:
                takes_value = option.nargs != 0
                continue
            try:
                parse_number(token, "a stray argument")
            except ConfigError:
                continue
            return parser, token
        return parser, None


def build_parser() -> argparse.ArgumentParser:
    """The ``sflp`` parser: every command group adds its commands (:mod:`.game`, :mod:`.charts`,
    :mod:`.atlas`, :mod:`.verify`, :mod:`.export`, :mod:`.study`), in the order ``sflp --help``
    lists them."""
    from sflp.cli import atlas, charts, export, game, study, verify

    parser = _Parser(
        prog="sflp",
        description="Exact heads-up no-limit hold'em push/fold equilibria, charts and checks.",
    )
    parser.add_argument("--version", action="version", version=f"sflp {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for group in (game, charts, atlas, verify, export, study):
        group.add_commands(sub)
    return parser


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised like SIGINT's KeyboardInterrupt so every cleanup path runs for both."""


_RECEIVED: list[int | None] = []
"""The interrupt signals this run received (see :func:`main`)."""


_PROCESS_ENDS: list[bool] = []
"""Set by :func:`run`: the process ends when :func:`main` returns (see its ``finally``)."""


def _on_signal(signum, frame):
    """The first SIGINT/SIGTERM of a run raises (the work stops and cleans up); a later one is
    only noted.  Raised again, it could land in the cleanup between two of its steps (before a
    block that holds signals back has begun) and leave a staging folder and lock behind: GNU
    ``timeout`` and a terminal's Ctrl-C signal the process and then its group, twice in a row.
    SIGQUIT (Ctrl-\\) or SIGKILL still end a run at once; what it leaves is marked and removed
    by the next run on that folder."""
    first = not _RECEIVED
    _RECEIVED.append(signum)
    if not first:
        return
    import signal

    raise Terminated() if signum == signal.SIGTERM else KeyboardInterrupt()


def _interrupted(signum: int | None) -> int:
    import signal

    if signum == signal.SIGTERM:
        print("sflp: terminated", file=sys.stderr)
        return 143
    print("sflp: interrupted", file=sys.stderr)
    return 130


class _StdoutError(SflpError):
    """Standard output could not be written (a full disk, a closed pipe's cousins)."""


class _GuardedStdout:
    """``sys.stdout`` whose write errors (``> /dev/full``) become one :class:`SflpError`."""

    def __init__(self, stream) -> None:
        self._stream = stream

    def _guard(self, method, *args):
        if self._stream is None:  # started with fd 1 closed (`sflp solve >&-`): Python made sys.stdout None
            raise _StdoutError("cannot write to standard output: it is closed")
        try:
            return method(*args)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise _StdoutError(f"cannot write to standard output: {exc.strerror or exc}") from None

    def write(self, text: str) -> int:
        return self._guard(lambda: self._stream.write(text))

    def flush(self) -> None:
        if self._stream is not None:  # a closed stdout had nothing written to it: nothing to flush
            self._guard(self._stream.flush)

    def isatty(self) -> bool:
        return self._stream is not None and self._stream.isatty()

    def __getattr__(self, name: str):
        if self._stream is None:
            raise _StdoutError("cannot write to standard output: it is closed")
        return getattr(self._stream, name)


def _silence_stdout() -> None:
    """Point fd 1 at /dev/null so the interpreter's last flush of unwritable output is silent."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``sflp`` console script.

    SIGTERM is handled like SIGINT: the work stops, staged and temporary files are removed, and
    the exit code is 143 (SIGINT: 130), with one line on stderr.
    """
    import signal

    from sflp.cli.options import TYPED, cli_words

    parser = build_parser()
    _ARGV[:] = sys.argv[1:] if argv is None else list(argv)
    TYPED.clear()
    args = parser.parse_args(argv)
    import threading

    from sflp.quiet import set_verbose

    set_verbose(getattr(args, "verbose", False))

    _RECEIVED.clear()
    previous = {}
    if threading.current_thread() is threading.main_thread():
        # a signal the caller chose to ignore (`trap '' INT`, nohup, a background job of a
        # non-interactive shell) stays ignored: sflp must not turn back on a Ctrl-C it was spared
        previous = {sig: signal.signal(sig, _on_signal) for sig in (signal.SIGINT, signal.SIGTERM)
                    if signal.getsignal(sig) is not signal.SIG_IGN}
    stdout = sys.stdout
    sys.stdout = _GuardedStdout(stdout)
    try:
        if stdout is None:  # before any work: every command prints its result there
            raise _StdoutError("cannot write to standard output: it is closed (run the command with an open stdout, "
                               "e.g. > /dev/null)")
        if getattr(args, "out", None) == "" and args.command != "export":  # export's --out is a file: its own check
            # one check for every command: an empty name was read as the current folder by some
            # (`chart`: "output folder '.'") and as no --out at all by others (`solve`: nothing written)
            raise SflpError("--out '' is empty: give a folder")
        code = args.func(args)
        sys.stdout.flush()
        return code
    except _StdoutError as exc:
        sys.stdout = stdout
        _silence_stdout()
        print(f"sflp: error: {exc}", file=sys.stderr)
        return 2
    except SflpError as exc:
        if _RECEIVED:  # an interrupt that a library turned into an error (e.g. inside an import)
            return _interrupted(_RECEIVED[0])
        print(f"sflp: error: {cli_words(str(exc), args)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as exc:
        return _interrupted(signal.SIGTERM if isinstance(exc, Terminated) else signal.SIGINT)
    except BrokenPipeError:
        sys.stdout = stdout
        _silence_stdout()
        return 0
    except Exception:
        if _RECEIVED:  # an interrupt that a library turned into another exception
            return _interrupted(_RECEIVED[0])
        raise
    finally:
        set_verbose(False)
        sys.stdout = stdout
        if _PROCESS_ENDS:
            # the console script: the process ends with the code decided above, so a signal from
            # here on (GNU timeout and a terminal signal twice; a storm of them in the tests) is
            # noted and then ignored.  Restoring Python's own SIGINT handler here let one land
            # in this block or after it as a KeyboardInterrupt with a traceback (status -2)
            _RECEIVED.append(None)  # _on_signal raises for the first signal of a run only
            for sig in previous:
                signal.signal(sig, signal.SIG_IGN)
        else:  # called in a process that goes on (a test, a notebook): its handlers come back
            for sig, handler in previous.items():
                signal.signal(sig, handler)


def run() -> None:
    """The console script (and ``python -m sflp.cli``): :func:`main`, then exit with its code.

    After an interrupt the process ends with :func:`os._exit` once output is flushed and the
    ``atexit`` hooks have run: CPython marks a ``KeyboardInterrupt`` that surfaced inside an
    import as unhandled even when :func:`main` caught it, and would then kill the process with
    SIGINT at exit (status -2) instead of returning 130/143.  A Ctrl-C before :func:`main` has
    set its handlers (while the commands' modules are imported, which takes a second or two on a
    busy machine) ends the run the same way: one line, exit 130, no traceback.
    """
    _PROCESS_ENDS.append(True)
    try:
        code = main()
    except KeyboardInterrupt:  # Ctrl-C before main's own handlers: in the imports of the commands, the parse
        import signal

        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C must not interrupt the goodbye
        code = _interrupted(signal.SIGINT)
    if code in (130, 143):
        import atexit

        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        atexit._run_exitfuncs()
        os._exit(code)
    sys.exit(code)
