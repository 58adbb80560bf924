"""The block evaluation of :mod:`sflp.ddeval` compiled with numba.

The same arithmetic as the numpy functions :func:`~sflp.ddeval.comp_horner` and
:func:`~sflp.ddeval.rounded_ratio`, operation for operation (the double-double primitives are
those very functions, compiled), written as loops over stacks and rows so that no temporary
arrays are made.  They run on one thread: a block is the stacks of one path segment (tens to
hundreds), and starting numba's thread pool for each costs more (about 0.4 ms a call, measured)
than the block's arithmetic.  IEEE arithmetic without
contraction (numba's default, no ``fastmath``) gives the same bits as numpy; ``tests/test_ddeval``
checks that both routes agree bit for bit and with the exact values.

Importing this module imports numba and compiles the kernels on first use (about 2 s), cached on
disk by numba (``cache=True``: in ``__pycache__`` beside this file, or numba's own cache folder
when that is not writable; ``NUMBA_CACHE_DIR`` moves it).
"""

from __future__ import annotations

import math
import types

import numba
import numpy as np

from sflp import ddeval

_NS: dict = {"_SPLIT": ddeval._SPLIT}
for _name in ("_two_sum", "_fast_two_sum", "_split", "_two_prod", "dd_add", "dd_mul_f", "dd_mul", "dd_div"):
    _f = getattr(ddeval, _name)
    # the numpy module's own function, recompiled with its callees resolved to compiled ones
    _NS[_name] = numba.njit(inline="always")(types.FunctionType(_f.__code__, _NS, _name))
_two_sum, _split = _NS["_two_sum"], _NS["_split"]
dd_mul, dd_div = _NS["dd_mul"], _NS["dd_div"]

_U2, _U = ddeval.U2, ddeval._U


@numba.njit(cache=True, error_model="numpy")  # IEEE division: x / 0 is inf, not an exception
def comp_horner(ch, cl, x, H, L, B, S):  # pragma: no cover - compiled
    rows, size = ch.shape
    d = size - 1
    gamma = (8 * (d + 1) ** 2 + 8) * _U2 * 1.01
    for s in range(x.shape[0]):
        xs = x[s]
        xh, xl = _split(xs)
        for r in range(rows):
            acc = ch[r, d]
            err = cl[r, d]
            absum = abs(acc)
            for t in range(d - 1, -1, -1):
                prod = acc * xs
                ah, al = _split(acc)
                pi = ((ah * xh - prod) + ah * xl + al * xh) + al * xl
                acc, sigma = _two_sum(prod, ch[r, t])
                err = err * xs + (pi + sigma + cl[r, t])
                absum = absum * xs + abs(ch[r, t])
            h, lo = _two_sum(acc, err)
            H[r, s] = h
            L[r, s] = lo
            bound = absum * gamma + 2.0**-1000
            B[r, s] = bound
            S[r, s] = 0 if abs(h) <= bound else (1 if h > 0 else -1)


@numba.njit(cache=True, error_model="numpy")  # IEEE division: x / 0 is inf, not an exception
def rounded_ratio(H, L, B, num, den, wh, wl, pw, out, ok):  # pragma: no cover - compiled
    m = num.shape[0]
    for s in range(H.shape[1]):
        for k in range(m):
            a, b = num[k], den[k]
            nh, nl, nb = H[a, s], L[a, s], B[a, s]
            dh, dl, db = H[b, s], L[b, s], B[b, s]
            th, tl = dd_mul(nh, nl, wh[k], wl[k])
            rh, rl = dd_div(th, tl, dh, dl)
            rh *= pw[k]
            rl *= pw[k]
            good = abs(nh) > nb * 2.0**20 and abs(dh) > db * 2.0**20
            if good:
                e_n = nb / (abs(nh) - nb)
                e_d = db / (abs(dh) - db)
                slack = (e_n + e_d + 32 * _U2) * 1.01 * (1 + 4 * _U) * abs(rh) + 4 * _U * abs(rl)
                good = ((rh + (rl + slack)) == rh and (rh + (rl - slack)) == rh
                        and math.isfinite(rh) and abs(rh) >= 2.0**-900)
            out[k, s] = rh
            ok[k, s] = good


def horner_block(ch: np.ndarray, cl: np.ndarray, x: np.ndarray):
    """:func:`sflp.ddeval.comp_horner` and :func:`sflp.ddeval.proven_sign`, compiled."""
    shape = (ch.shape[0], x.shape[0])
    H, L, B = np.empty(shape), np.empty(shape), np.empty(shape)
    S = np.empty(shape, dtype=np.int8)
    comp_horner(np.ascontiguousarray(ch), np.ascontiguousarray(cl), np.ascontiguousarray(x, dtype=np.float64),
                H, L, B, S)
    return H, L, B, S


def ratio_block(H, L, B, num, den, wh, wl, scale):
    """:func:`sflp.ddeval.ratios` (rows ``num`` over rows ``den``), compiled."""
    m = len(num)
    out = np.empty((m, H.shape[1]))
    ok = np.empty((m, H.shape[1]), dtype=np.bool_)
    rounded_ratio(H, L, B, np.asarray(num, dtype=np.int64), np.asarray(den, dtype=np.int64),
                  np.asarray(wh, dtype=np.float64), np.asarray(wl, dtype=np.float64),
                  np.exp2(np.asarray(scale, dtype=np.float64)), out, ok)
    return out, ok
