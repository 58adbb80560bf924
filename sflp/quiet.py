"""Keep what native libraries print off sflp's standard output and standard error.

HiGHS (highspy 1.16 and later) prints a banner to the C-level standard output when its first
``Highs()`` object is made, before any option can silence it; cvxpy makes that object inside
``Problem.solve``.  Python's ``sys.stdout`` never sees those bytes: they go straight to file
descriptor 1, so ``sflp solve --json`` would no longer print JSON.  :func:`native_output` points
descriptors 1 and 2 elsewhere for the duration of a block and puts them back afterwards:

* by default to ``os.devnull``: nothing a dependency prints reaches the user;
* with :func:`set_verbose` (the CLI's ``--verbose``) descriptor 1 goes to standard error, so the
  solver's log is visible and standard output still carries only the command's result.

The redirection is process-wide, so blocks are serialised by one re-entrant lock (a nested
block is a no-op).  Python-level buffers are flushed on entry and exit so that nothing written
before the block lands inside it, or the other way round.  If a descriptor cannot be duplicated
(closed, or an unusual embedding), the block runs without redirection rather than failing.

>>> import sys
>>> with native_output():
...     _ = sys.stdout.write("")   # Python-level writes still work inside the block
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_LOCK = threading.RLock()
_DEPTH = 0
_VERBOSE = False


def set_verbose(flag: bool) -> None:
    """Show native output on standard error (True) or drop it (False, the default)."""
    global _VERBOSE
    _VERBOSE = bool(flag)


def verbose() -> bool:
    """Whether native output is shown (on standard error)."""
    return _VERBOSE


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            pass


@contextmanager
def native_output() -> Iterator[None]:
    """Inside the block, file descriptors 1 and 2 go to ``os.devnull`` (or 1 to 2 if verbose)."""
    global _DEPTH
    with _LOCK:
        if _DEPTH:
            _DEPTH += 1
            try:
                yield
            finally:
                _DEPTH -= 1
            return
        _flush()
        saved: list[tuple[int, int]] = []
        try:
            if _VERBOSE:
                targets = {1: os.dup(2)}
            else:
                sink = os.open(os.devnull, os.O_WRONLY)
                targets = {1: sink, 2: os.dup(sink)}
        except OSError:
            targets = {}
        try:
            for fd, target in targets.items():
                saved.append((fd, os.dup(fd)))
                os.dup2(target, fd)
        except OSError:
            pass
        finally:
            for target in targets.values():
                os.close(target)
        _DEPTH = 1
        try:
            yield
        finally:
            _DEPTH = 0
            _flush()
            for fd, copy in reversed(saved):
                try:
                    os.dup2(copy, fd)
                finally:
                    os.close(copy)
