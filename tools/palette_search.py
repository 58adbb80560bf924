"""Search the threshold chart palette (sflp.charts.scale.BAND_COLOURS and TOP_COLOUR) numerically.

Run: ``python tools/palette_search.py [--bands 11] [--restarts 6] [--seed 0]``; it prints the best
palette found, its smallest margins and the ``BAND_COLOURS`` / ``TOP_COLOUR`` lines for
``sflp/charts/scale.py``.  Needs scipy and colorspacious (the test extra).

Every pair of colours that can stand next to each other in a legend (neighbouring bands, every band
and the top colour, since any band can be the last one below the top, and white *never* with the
lightest band) must meet, issue 32 and issue 42:

* CAM02-UCS distance >= 20 with normal vision, >= 12 under simulated deuteranomaly, protanomaly and
  tritanomaly at full severity (Machado et al. 2009, via colorspacious);
* CIE L* falling by >= 6 from white through the bands in order, and every band >= 6 above the top;
* BT.601 luma (``0.299 R + 0.587 G + 0.114 B`` on 0..255 sRGB, what ``pdftoppm -gray`` prints)
  differing by >= 20 grey levels;
* the cell ink (black or white) at a WCAG contrast >= 4.5 (always true: the two cross at 4.58).

The objective is the smallest ratio of a pair's figure to its threshold, maximised (Powell's method on
sRGB coordinates, from a few seeds along a lightness ramp with a turning hue); a ratio of 1 or more
meets every threshold.
"""

from __future__ import annotations

import argparse
import math

import colorspacious as cs
import numpy as np
from scipy.optimize import minimize

VIEWERS = [(None, 20.0)] + [({"name": "sRGB1+CVD", "cvd_type": k, "severity": 100}, 12.0)
                            for k in ("deuteranomaly", "protanomaly", "tritanomaly")]
LUMA_MIN = 20.0
LSTAR_MIN = 6.0  # --lstar sets it
WHITE = np.array([1.0, 1.0, 1.0])


def pairs(n: int) -> list[tuple[int, int]]:
    """Index pairs that can stand side by side: 0 = white, 1..n = bands, n+1 = top."""
    out = [(k, k + 1) for k in range(n)]  # white-band0, band k - band k+1
    out += [(k, n + 1) for k in range(1, n)]  # every band with the top (band n - top is above)
    out.append((n, n + 1))
    return out


def margins(rgb: np.ndarray, n: int) -> dict[str, np.ndarray]:
    """Ratios figure / threshold for every constraint; rgb: (n + 2, 3) in 0..1, row 0 white."""
    rgb = np.clip(rgb, 0.0, 1.0)
    p = np.array(pairs(n))
    out = {}
    for viewer, need in VIEWERS:
        seen = rgb if viewer is None else np.clip(cs.cspace_convert(rgb, viewer, "sRGB1"), 0, 1)
        ucs = cs.cspace_convert(seen, "sRGB1", "CAM02-UCS")
        out[str(viewer and viewer["cvd_type"])] = np.linalg.norm(ucs[p[:, 0]] - ucs[p[:, 1]], axis=1) / need
    lstar = cs.cspace_convert(rgb, "sRGB1", "CIELab")[:, 0]
    out["lstar"] = np.concatenate([np.diff(-lstar[: n + 1]), lstar[1: n + 1] - lstar[n + 1]]) / LSTAR_MIN
    luma = 255 * rgb @ np.array([0.299, 0.587, 0.114])
    out["luma"] = np.abs(luma[p[:, 0]] - luma[p[:, 1]]) / LUMA_MIN
    return out


def lumas(n: int, gap: float) -> np.ndarray:
    """The starting lumas (0..255) of the bands and the top: ``gap`` apart, down from white."""
    return 255 - gap * np.arange(1, n + 2)


def colours_of(x: np.ndarray, n: int) -> np.ndarray:
    """sRGB (0..1, unclipped) of the bands and the top from ``x`` = (Y, Cb, Cr) per colour, BT.601
    luma and chroma (Y on 0..1)."""
    y, cb, cr = x.reshape(n + 1, 3).T
    return np.stack([y + 1.402 * cr, y - 0.344136 * cb - 0.714136 * cr, y + 1.772 * cb], axis=1)


def score(x: np.ndarray, n: int, temperature: float) -> float:
    raw = colours_of(x, n)
    rgb = np.vstack([WHITE, np.clip(raw, 0, 1)])
    worst = np.concatenate(list(margins(rgb, n).values()))
    out_of_gamut = float(np.sum(np.clip(raw - 1, 0, None) + np.clip(-raw, 0, None)))
    # a soft minimum of the ratios, so Powell sees a slope on all the close ones
    low = float(worst.min())
    return -low + temperature * math.log(float(np.sum(np.exp(-(worst - low) / temperature)))) + 5 * out_of_gamut


def ratios(x: np.ndarray, n: int) -> np.ndarray:
    """Every constraint's ratio figure / threshold at ``x`` (colours clipped to the gamut)."""
    rgb = np.vstack([WHITE, np.clip(colours_of(x, n), 0, 1)])
    return np.concatenate(list(margins(rgb, n).values()))


def polish(x: np.ndarray, n: int, iterations: int = 200) -> np.ndarray:
    """Maximise the smallest ratio itself: SLSQP on (x, t), every ratio >= t, every colour in gamut."""
    t0 = float(ratios(x, n).min())
    res = minimize(lambda z: -z[-1], np.append(x, t0), method="SLSQP",
                   constraints=[{"type": "ineq", "fun": lambda z: ratios(z[:-1], n) - z[-1]},
                                {"type": "ineq", "fun": lambda z: colours_of(z[:-1], n).ravel()},
                                {"type": "ineq", "fun": lambda z: 1 - colours_of(z[:-1], n).ravel()}],
                   options={"maxiter": iterations, "ftol": 1e-9})
    return res.x[:-1] if float(ratios(res.x[:-1], n).min()) > t0 else x


def seed(n: int, rng: np.random.Generator, turn: float, gap: float) -> np.ndarray:
    """Chroma turning by ``turn`` degrees from orange, strongest in the middle lumas."""
    out = []
    ys = lumas(n, gap) / 255
    for k in range(n + 1):
        t = k / n
        hue = math.radians(200 - turn * t + rng.normal(0, 10))  # (Cb, Cr) angle: orange near 115
        chroma = 0.12 * math.sin(math.pi * min(t, 0.92)) + 0.06 + rng.normal(0, 0.02)
        out += [ys[k], chroma * math.cos(hue), chroma * math.sin(hue)]
    return np.array(out)


def ycbcr(rgb: np.ndarray) -> np.ndarray:
    """BT.601 (Y, Cb, Cr) of sRGB rows (0..1): the inverse of :func:`colours_of`."""
    y = rgb @ np.array([0.299, 0.587, 0.114])
    return np.stack([y, (rgb[:, 2] - y) / 1.772, (rgb[:, 0] - y) / 1.402], axis=1)


def hexes(x: np.ndarray) -> list[str]:
    return ["".join(f"{int(round(c * 255)):02X}" for c in row) for row in np.clip(x.reshape(-1, 3), 0, 1)]


def rounded(colours: list[str]) -> np.ndarray:
    return np.array([[int(c[i:i + 2], 16) / 255 for i in (0, 2, 4)] for c in colours])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bands", type=int, default=11)
    ap.add_argument("--restarts", type=int, default=6)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--maxfev", type=int, default=20000)
    ap.add_argument("--lstar", type=float, default=6.0, help="the smallest CIE L* step")
    ap.add_argument("--start", help="a file of BAND_COLOURS + TOP_COLOUR hex codes (one a line) to refine")
    ap.add_argument("--gap", type=float, default=21.0, help="the starting luma step (grey levels)")
    args = ap.parse_args()
    global LSTAR_MIN
    LSTAR_MIN = args.lstar
    n, rng = args.bands, np.random.default_rng(args.seed)
    best = None
    for r in range(args.restarts):
        x = seed(n, rng, turn=rng.uniform(200, 330), gap=args.gap)
        temperatures = (0.03, 0.01, 0.003)
        if args.start and r == 0:
            x, temperatures = ycbcr(rounded(open(args.start).read().split())).ravel(), ()
        for temperature in temperatures:
            x = minimize(score, x, args=(n, temperature), method="Powell",
                         bounds=[(0, 1), (-0.5, 0.5), (-0.5, 0.5)] * (n + 1),
                         options={"maxfev": args.maxfev, "xtol": 1e-5, "ftol": 1e-8}).x
        x = polish(x, n)
        colours = hexes(colours_of(x, n))
        m = margins(np.vstack([WHITE, rounded(colours)]), n)
        low = min(float(v.min()) for v in m.values())
        binding = min(m, key=lambda k: float(m[k].min()))
        print(f"restart {r}: smallest ratio {low:.3f} ({binding}) {' '.join(colours)}", flush=True)
        if best is None or low > best[0]:
            best = (low, colours, m)
    low, colours, m = best
    print(f"\nbest smallest ratio {low:.3f} (>= 1 meets every threshold)")
    for name, v in m.items():
        need = {"lstar": LSTAR_MIN, "luma": LUMA_MIN, "None": 20.0}.get(name, 12.0)
        print(f"  {name:>14}: smallest {float(v.min()) * need:.1f} (threshold {need:g})")
    rgb = rounded(colours)
    print("  luma:", [round(float(255 * c @ np.array([0.299, 0.587, 0.114])), 1) for c in rgb])
    print("  L*:", [round(float(cs.cspace_convert(c, "sRGB1", "CIELab")[0]), 1) for c in rgb])
    print(f"\nBAND_COLOURS = {tuple(colours[:-1])!r}\nTOP_COLOUR = {colours[-1]!r}")


if __name__ == "__main__":
    main()
