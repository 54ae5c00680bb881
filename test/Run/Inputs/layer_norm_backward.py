"""Compares the results of examples/layer_norm_backward.mlir with float64.

usage: layer_norm_backward.py DY X WEIGHT MEAN RSTD DX DWEIGHT DBIAS (.npy)
Prints, for each result, `NAME within 1e-5` when its largest difference from
the float64 value is at most 1e-5 of the result's largest magnitude, else
`NAME off by E` (E: that ratio)."""
import sys

import numpy as np

dy, x, w, mean, rstd, dx, dw, db = (np.load(f) for f in sys.argv[1:9])
dy, x, w, mean, rstd = (a.astype(np.float64) for a in (dy, x, w, mean, rstd))
xhat = (x - mean) * rstd
wdy = dy * w
c1 = (xhat * wdy).mean(1, keepdims=True)
c2 = wdy.mean(1, keepdims=True)
reference = {"dx": (wdy - (xhat * c1 + c2)) * rstd,
             "dweight": (dy * xhat).sum(0), "dbias": dy.sum(0)}
for (name, want), got in zip(reference.items(), (dx, dw, db)):
    error = np.abs(got.astype(np.float64) - want).max() / np.abs(want).max()
    print(f"{name} within 1e-5" if error <= 1e-5 else f"{name} off by {error:.3g}")
