"""Checks fuse-run's f32 exp results (a .npy) against float64 exp: prints the
largest error in f32 ulps over normal results, and the number of results
outside `bound` ulps (for --approx-exp, 1.5 |x| + 2: the roundings of
x * log2(e) and of log2(e) are multiplied by x).

usage: approx_exp_error.py INPUT.npy RESULT.npy (default|approx)
"""
import sys

import numpy as np

x = np.load(sys.argv[1]).astype(np.float64)
got = np.load(sys.argv[2]).astype(np.float64)
want = np.exp(x)
finite = want < float(np.finfo(np.float32).max)
normal = finite & (want >= 2.0 ** -126)
spacing = np.spacing(np.where(normal, want, 1).astype(np.float32)).astype(np.float64)
ulps = np.where(normal, np.abs(got - want) / spacing, 0)
bound = 2 if sys.argv[3] == "default" else 1.5 * np.abs(x) + 2
print(f"max {ulps.max():.1f} ulp; over the bound: {int((ulps > bound).sum())}; "
      f"inf where exp overflows: {bool(np.all(got[~finite] == np.inf))}")
