"""Writes the inputs of cast-saturate.mlir (`make DIR`), or checks its
results (`check DIR PREFIX`): float to integer casts saturate (NaN gives 0,
a value past the type's range its smallest or largest value, the rest is
truncated toward zero), bit for bit."""
import os
import sys

import numpy as np

SPECIAL = [np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 0.5, -0.5, 1.99, -1.99,
           2.0**31, -2.0**31, 2.0**31 - 128, 2.0**31 + 256, -2.0**31 - 256,
           2.0**63, -2.0**63, 2.0**64, -2.0**64, 1e30, -1e30, 65504.0, -65504.0,
           123456.75, 3.9e9, -3.9e9]
DOUBLES = SPECIAL + [2.0**31 - 1, 2.0**31 - 0.5, -2.0**31 - 0.5, -2.0**31 - 1,
                     2.0**63 - 1024, -2.0**63 - 2048, 1e300]


def saturate(values, bits):
    lo, hi = -2**(bits - 1), 2**(bits - 1) - 1
    out = []
    for v in values.astype(np.float64):
        if np.isnan(v):
            out.append(0)
        elif v >= 2.0**(bits - 1):
            out.append(hi)
        elif v < -2.0**(bits - 1):
            out.append(lo)
        else:
            out.append(int(v))
    return np.array(out, np.int32 if bits == 32 else np.int64)


def wrap(value):
    """`value` wrapped to 64 bits, two's complement."""
    return (value + 2**63) % 2**64 - 2**63


mode, directory = sys.argv[1], sys.argv[2]
inputs = {"a": np.array(SPECIAL, np.float32), "d": np.array(DOUBLES, np.float64),
          "h": np.array(SPECIAL, np.float32).astype(np.float16)}
if mode == "make":
    with np.errstate(over="ignore"):
        for name, values in inputs.items():
            np.save(os.path.join(directory, name + ".npy"), values)
    np.save(os.path.join(directory, "z.npy"), np.zeros(2, np.int64))
    sys.exit(0)
prefix = sys.argv[3]
want = [saturate(inputs["a"], 32), saturate(inputs["a"], 64), saturate(inputs["d"], 32),
        saturate(inputs["d"], 64), saturate(inputs["h"], 32), saturate(inputs["h"], 64),
        # 0 + INT32_MAX + INT64_MIN + INT32_MIN, wrapping to INT64_MAX.
        np.full(2, wrap(0 + (2**31 - 1) - 2**63 - 2**31), np.int64)]
for i, expected in enumerate(want):
    got = np.load(os.path.join(directory, f"{prefix}{i}.npy"))
    if got.dtype != expected.dtype or not np.array_equal(got, expected):
        bad = np.flatnonzero(got != expected)
        print(f"result {i}: {bad.size} differ, first at {bad[0]}: {got[bad[0]]} "
              f"vs {expected[bad[0]]}")
    else:
        print(f"result {i}: saturated ({got.size} elements)")
