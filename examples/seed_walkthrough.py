#!/usr/bin/python3
"""The seed's lesson, in Python: c = relu(a + b), eager vs fused.

Eager (one kernel per op, as PyTorch runs it) is two kernels: `add` reads a
and b and writes the sum, `relu` reads the sum back and writes c: five
array-sized transfers, 20*N bytes for float32. Fused, it is one kernel that
reads a and b and writes c: three transfers, 12*N bytes. This script shows
the report (what the compiler predicts), then runs both at a few sizes and
counts what actually ran, from the profile of each call.

    PYTHONPATH=python FUSE_LIB_DIR=build/lib examples/seed_walkthrough.py
"""

import argparse
import math
import os
import sys

import numpy as np

try:
    import fuse
except ImportError:  # run from the source tree without PYTHONPATH
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
    import fuse


def add_relu(a, b):
    return fuse.relu(a + b)


def significant(x, digits=3):
    """x with at least `digits` significant digits, without an exponent
    (0.00213 -> '0.00213', 2.13 -> '2.13', 2131.7 -> '2132')."""
    if x == 0 or not math.isfinite(x):
        return f"{x:g}"
    decimals = max(0, digits - 1 - math.floor(math.log10(abs(x))))
    return f"{x:.{decimals}f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,100000,10000000",
                        help="comma-separated array sizes (default: %(default)s)")
    parser.add_argument("--repeat", type=int, default=5,
                        help="runs per size; the table shows the fastest (default: %(default)s)")
    parser.add_argument("--target", default="auto", choices=["auto", "cpu", "cuda"])
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]

    fused = fuse.jit(add_relu, target=args.target, profile=True)
    eager = fuse.jit(add_relu, target=args.target, fusion=False, profile=True)
    rng = np.random.default_rng(0)

    print("The program, traced from Python:\n")
    a = np.zeros(sizes[0], np.float32)
    print(fused.trace(a, a))
    print("What fusion buys (fuse.explain):\n")
    print(fuse.explain(fused, a, a))

    rows = []
    for n in sizes:
        a = rng.standard_normal(n, dtype=np.float32)
        b = rng.standard_normal(n, dtype=np.float32)
        best = {}
        for name, fn in (("fused", fused), ("eager", eager)):
            for _ in range(args.repeat):
                c = fn(a, b)
                profile = fn.last_profile
                ms = sum(k["ms"] for k in profile)
                if name not in best or ms < best[name][2]:
                    best[name] = (len(profile), sum(k["bytes"] for k in profile), ms)
            np.testing.assert_array_equal(c, np.maximum(a + b, np.float32(0)))
        rows.append((n, best["fused"], best["eager"]))

    if fused.program.target_note:
        print(f"Note: {fused.program.target_note}.")
    print(f"Measured on the {fused.program.target.upper()} target (kernel time from the "
          f"profile, fastest of {args.repeat} runs, in microseconds to 3 significant "
          f"digits):\n")
    header = ("N", "fused kernels", "eager kernels", "fused bytes", "eager bytes",
              "fused us", "eager us", "eager/fused time")
    table = [header]
    for n, (fk, fb, fms), (ek, eb, ems) in rows:
        ratio = f"{ems / fms:.2f}x" if fms > 0 else "-"
        table.append((f"{n:,}", str(fk), str(ek), f"{fb:,}", f"{eb:,}",
                      significant(fms * 1e3), significant(ems * 1e3), ratio))
    widths = [max(len(row[i]) for row in table) for i in range(len(header))]
    for row in table:
        print("  ".join(cell.rjust(w) for cell, w in zip(row, widths)))

    fused_info, eager_info = fused.cache_info(), eager.cache_info()
    print(f"\nBytes per element: fused {rows[-1][1][1] / sizes[-1]:.0f} (12: read a and b, "
          f"write c), eager {rows[-1][2][1] / sizes[-1]:.0f} (20: the sum goes out and comes "
          f"back).")
    print(f"Every size ran the same compiled programs: fused compiled "
          f"{fused_info.compiles} time(s), eager {eager_info.compiles} "
          f"({fused_info.hits + eager_info.hits} calls reused them).")


if __name__ == "__main__":
    main()
