#!/usr/bin/python3
"""Reductions on the cpu target against numpy: each axis of a matrix and of
a 3-D array, full sums, and a softmax of one row (a batch of 1), f32, as
`@fuse.jit` runs them from Python (the call's overhead included).

Side by side in one process and interleaved: each round times fuse, then
numpy, on the same arrays, and the table reports the best round of each
and their ratio (fuse / numpy: below 1, fuse is faster). Each result is
checked against numpy (float64 accumulation) before timing. Writes
bench/results/cpu_reductions.json.
"""
import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from common import (BUILD_HINT, add_build_dir, cpu_model, fuse_version, names_of,  # noqa: E402
                    positive_int, print_table)


def cases():
    """name -> (description, function for fuse and numpy, argument shape)."""
    def softmax(x):
        import fuse
        return fuse.softmax(x, axis=-1) if not isinstance(x, np.ndarray) else (
            np.exp(x - x.max(-1, keepdims=True))
            / np.exp(x - x.max(-1, keepdims=True)).sum(-1, keepdims=True))

    table = {}
    for shape in [(10000, 1000), (1000, 10000), (100000, 64), (300, 300)]:
        for axis in (0, 1):
            table[f"sum{axis}_{shape[0]}x{shape[1]}"] = (
                f"x.sum(axis={axis}), {shape[0]} x {shape[1]}",
                lambda x, axis=axis: x.sum(axis=axis), shape)
    table["mean0_10000x1000"] = ("x.mean(axis=0), 10000 x 1000",
                                 lambda x: x.mean(axis=0), (10000, 1000))
    table["max0_10000x1000"] = ("x.max(axis=0), 10000 x 1000",
                                lambda x: x.max(axis=0), (10000, 1000))
    table["sum1_100x1000x100"] = ("x.sum(axis=1), 100 x 1000 x 100",
                                  lambda x: x.sum(axis=1), (100, 1000, 100))
    # A leading axis of 3-D arrays whose last dimension is small, against
    # the same bytes as a matrix (the kept dimensions merge into one:
    # fuse-map-to-gpu's collapseKeptLoops).
    for shape in [(64, 1000, 4), (1024, 1024, 8), (4096, 256, 3)]:
        table[f"sum0_{'x'.join(map(str, shape))}"] = (
            f"x.sum(axis=0), {' x '.join(map(str, shape))}",
            lambda x: x.sum(axis=0), shape)
        table[f"sum0_{shape[0]}x{shape[1] * shape[2]}"] = (
            f"x.sum(axis=0), {shape[0]} x {shape[1] * shape[2]} (the same bytes, 2-D)",
            lambda x: x.sum(axis=0), (shape[0], shape[1] * shape[2]))
    table["sum_10000000"] = ("x.sum(), 10^7", lambda x: x.sum(), (10000000,))
    for n in (100, 10000, 1000000):
        table[f"softmax_1x{n}"] = (f"softmax of 1 x {n} (a batch of 1)",
                                   softmax, (1, n))
    return table


def mean_time(fn, budget):
    """The mean time of `fn`, called for about `budget` seconds after one
    call."""
    fn()
    start, calls = time.perf_counter(), 0
    while time.perf_counter() - start < budget:
        fn()
        calls += 1
    return (time.perf_counter() - start) / max(calls, 1)


def main():
    table = cases()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", type=names_of(table, "case"),
                        help="comma-separated cases: " + ", ".join(table))
    parser.add_argument("--rounds", type=positive_int, default=5,
                        help="interleaved rounds (default 5)")
    add_build_dir(parser)
    parser.add_argument("--json", type=Path,
                        default=ROOT / "bench" / "results" / "cpu_reductions.json")
    args = parser.parse_args()
    lib = args.build_dir / "lib"
    if not any(lib.glob("libfuse_capi.so*")):
        parser.error(f"{lib}: no libfuse_capi.so ({BUILD_HINT})")
    os.environ["FUSE_LIB_DIR"] = str(lib)
    sys.path.insert(0, str(ROOT / "python"))
    import fuse

    rng = np.random.default_rng(0)
    rows, results = [], {}
    for name in args.only or list(table):
        description, fn, shape = table[name]
        x = rng.standard_normal(shape).astype(np.float32)
        jitted = fuse.jit(fn, target="cpu")
        got = jitted(x)
        want = fn(x.astype(np.float64))
        if not np.allclose(got, want, rtol=1e-4, atol=1e-4):
            sys.exit(f"{name}: fuse's result differs from numpy's")
        fuse_times, numpy_times = [], []
        for _ in range(args.rounds):
            fuse_times.append(mean_time(lambda: jitted(x), 0.2))
            numpy_times.append(mean_time(lambda: fn(x), 0.2))
        f, n = min(fuse_times), min(numpy_times)
        results[name] = {"description": description, "fuse_s": f, "numpy_s": n,
                         "ratio": f / n}
        rows.append([name, f"{f * 1e6:.1f}", f"{n * 1e6:.1f}", f"{f / n:.2f}"])
    load = os.getloadavg()
    print(f"commit {fuse_version()}, {cpu_model()}, "
          f"{os.cpu_count()} cores, load {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    print_table(["case", "fuse us", "numpy us", "fuse / numpy"], rows)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps({
        "commit": fuse_version(), "load": load, "cpu": cpu_model(), "cpus": os.cpu_count(),
        "numpy": np.__version__, "cases": results}, indent=2) + "\n")
    print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
