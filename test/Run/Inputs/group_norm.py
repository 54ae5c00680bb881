"""Compares the result of examples/group_norm.mlir with float64.

usage: group_norm.py X WEIGHT BIAS Y (.npy)
Prints `y within 1e-5` when the largest difference from the float64 value
is at most 1e-5 of the result's largest magnitude, else `y off by E`."""
import sys

import numpy as np

x, w, b, y = (np.load(f) for f in sys.argv[1:5])
x, w, b = (a.astype(np.float64) for a in (x, w, b))
mean = x.mean(axis=(2, 3, 4), keepdims=True)
var = ((x - mean) ** 2).mean(axis=(2, 3, 4), keepdims=True)
want = (x - mean) / np.sqrt(var + 1e-5) * w + b
error = np.abs(y.astype(np.float64) - want).max() / np.abs(want).max()
print("y within 1e-5" if error <= 1e-5 else f"y off by {error:.3g}")
