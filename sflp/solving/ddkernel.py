"""The block evaluation of :mod:`sflp.solving.ddeval` compiled with numba.

The same arithmetic as the numpy functions :func:`~sflp.solving.ddeval.comp_horner` and
:func:`~sflp.solving.ddeval.ratios`, operation for operation (the double-double primitives are those
very functions, compiled), written as loops over stacks and rows so that no temporary arrays are
made: on every core for large blocks (``prange``; a parallel launch costs about 2 us on an idle
machine), on one thread for small ones (:data:`PARALLEL_MIN_STACKS`).  numba's thread pool does
not survive a fork, so forked worker processes use the numpy route
(:data:`sflp.solving.segment.COMPILED_ALLOWED`).  IEEE arithmetic without contraction (numba's default,
no ``fastmath``) gives the same bits as numpy; ``tests/test_ddeval.py`` checks that both routes
agree bit for bit and with the exact values.  :func:`dd_rows` sums a segment's rows in order
(numpy sums them pairwise): both are within the bound :mod:`sflp.solving.segment` states.

Importing this module imports numba and compiles the kernels on first use (a few seconds),
cached on disk in sflp's one cache folder (:func:`sflp.cache.njit`: ``numba/`` in
``$SFLP_CACHE_DIR`` or the platform's cache folder, never beside this file in the installed
package; uncached when no cache folder is writable).
"""

from __future__ import annotations

import types

import numba
import numpy as np

from sflp.cache import njit
from sflp.solving import ddeval

_NS: dict = {"_SPLIT": ddeval._SPLIT}
for _name in ("_two_sum", "_fast_two_sum", "_split", "_two_prod", "dd_add", "dd_mul_f", "dd_mul", "dd_div"):
    _f = getattr(ddeval, _name)
    # the numpy module's own function, recompiled with its callees resolved to compiled ones
    _NS[_name] = numba.njit(inline="always")(types.FunctionType(_f.__code__, _NS, _name))
_two_sum, _split = _NS["_two_sum"], _NS["_split"]
dd_mul, dd_div, dd_add = _NS["dd_mul"], _NS["dd_div"], _NS["dd_add"]

_U2, _U = ddeval.U2, ddeval._U


def _comp_horner(ch, cl, ca, x, H, L, B, S):  # pragma: no cover - compiled
    rows, size = ch.shape
    d = size - 1
    n = x.shape[0]
    gamma = (8 * (d + 1) ** 2 + 8) * _U2 * 1.01
    for r in numba.prange(rows):  # rows on the cores; the stacks innermost, so the loops vectorise
        acc = np.full(n, ch[r, d])
        err = np.full(n, cl[r, d])
        absum = np.full(n, ca[r, d])
        for t in range(d - 1, -1, -1):
            c, cl_t, c_abs = ch[r, t], cl[r, t], ca[r, t]
            for s in range(n):
                xs = x[s]
                xh, xl = _split(xs)
                a = acc[s]
                prod = a * xs
                ah, al = _split(a)
                pi = ((ah * xh - prod) + ah * xl + al * xh) + al * xl
                a, sigma = _two_sum(prod, c)
                acc[s] = a
                err[s] = err[s] * xs + (pi + sigma + cl_t)
                absum[s] = absum[s] * xs + c_abs
        for s in range(n):
            h, lo = _two_sum(acc[s], err[s])
            bound = absum[s] * gamma + 2.0**-1000
            H[r, s] = h
            L[r, s] = lo
            B[r, s] = bound
            # as ddeval.proven_sign: only a finite value beyond a finite bound proves a sign
            decided = (abs(h) < np.inf) & (bound < np.inf)
            S[r, s] = (decided & (h > bound)) - (decided & (h < -bound))


def _rounded_ratio(H, L, B, num, den, wh, wl, pw, out, ok):  # pragma: no cover - compiled
    m = num.shape[0]
    n = H.shape[1]
    for k in numba.prange(m):  # ratios on the cores; the stacks innermost, so the loops vectorise
        a, b = num[k], den[k]
        w_h, w_l, p = wh[k], wl[k], pw[k]
        for s in range(n):
            nh, nl, nb = H[a, s], L[a, s], B[a, s]
            dh, dl, db = H[b, s], L[b, s], B[b, s]
            th, tl = dd_mul(nh, nl, w_h, w_l)
            rh, rl = dd_div(th, tl, dh, dl)
            rh *= p
            rl *= p
            e_n = nb / (abs(nh) - nb)
            e_d = db / (abs(dh) - db)
            slack = (e_n + e_d + 32 * _U2) * 1.01 * (1 + 4 * _U) * abs(rh) + 4 * _U * abs(rl)
            out[k, s] = rh
            ok[k, s] = ((abs(nh) > nb * 2.0**20) & (abs(dh) > db * 2.0**20)
                        & ((rh + (rl + slack)) == rh) & ((rh + (rl - slack)) == rh)
                        & (abs(rh) < np.inf) & (abs(rh) >= 2.0**-900))


@njit(cache=True, error_model="numpy")  # one thread: a segment's rows are a few thousand products
def dd_rows(a_hi, a_lo, p_hi, p_lo, hi, lo, mag):  # pragma: no cover - compiled
    groups, m, n = a_hi.shape
    size = p_hi.shape[2]
    for g in range(groups):
        for i in range(n):
            for t in range(size):
                sh, sl, total = 0.0, 0.0, 0.0
                for r in range(m):
                    ph = p_hi[g, r, t]
                    if ph == 0.0:  # a zero coefficient (its low part is 0 too): nothing to add
                        continue
                    xh, xl = dd_mul(a_hi[g, r, i], a_lo[g, r, i], ph, p_lo[g, r, t])
                    sh, sl = dd_add(sh, sl, xh, xl)
                    total += abs(a_hi[g, r, i]) * abs(ph)
                hi[g, i, t] = sh
                lo[g, i, t] = sl
                mag[g, i, t] = total


def _compiled(func, parallel: bool):
    """``func`` compiled on every core (``parallel``) or on one thread; the two get their own
    names, so numba caches them apart.  IEEE division (numpy's error model): ``x / 0`` is inf,
    not an exception."""
    name = func.__name__.lstrip("_") + ("_parallel" if parallel else "_serial")
    copy = types.FunctionType(func.__code__, func.__globals__, name)
    copy.__qualname__ = name
    return njit(cache=True, parallel=parallel, error_model="numpy")(copy)


comp_horner = {p: _compiled(_comp_horner, p) for p in (False, True)}
rounded_ratio = {p: _compiled(_rounded_ratio, p) for p in (False, True)}

PARALLEL_MIN_STACKS = 256
"""Blocks of at least this many stacks run on every core.  Smaller ones run on one thread:
OpenMP's threads spin for a while after each parallel region, which costs a segment's Python
set-up more than the threads save on a few dozen stacks (measured: 1-200 @0.01, 40 stacks a
segment, 23 us a stack on one thread against 24-42 us on two)."""


def horner_block(ch: np.ndarray, cl: np.ndarray, ca: np.ndarray, x: np.ndarray):
    """:func:`sflp.solving.ddeval.comp_horner` and :func:`sflp.solving.ddeval.proven_sign`, compiled."""
    shape = (ch.shape[0], x.shape[0])
    H, L, B = np.empty(shape), np.empty(shape), np.empty(shape)
    S = np.empty(shape, dtype=np.int8)
    comp_horner[len(x) >= PARALLEL_MIN_STACKS](
        np.ascontiguousarray(ch), np.ascontiguousarray(cl), np.ascontiguousarray(ca),
        np.ascontiguousarray(x, dtype=np.float64), H, L, B, S)
    return H, L, B, S


def ratio_block(H, L, B, num, den, wh, wl, scale):
    """:func:`sflp.solving.ddeval.ratios` (rows ``num`` over rows ``den``), compiled."""
    m = len(num)
    out = np.empty((m, H.shape[1]))
    ok = np.empty((m, H.shape[1]), dtype=np.bool_)
    rounded_ratio[H.shape[1] >= PARALLEL_MIN_STACKS](
        H, L, B, np.asarray(num, dtype=np.int64), np.asarray(den, dtype=np.int64),
        np.asarray(wh, dtype=np.float64), np.asarray(wl, dtype=np.float64),
        np.exp2(np.asarray(scale, dtype=np.float64)), out, ok)
    return out, ok
