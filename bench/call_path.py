#!/usr/bin/python3
"""The whole Python call of a `fuse.jit` function on the cpu target against
numpy's same expression: the call's fixed cost at small sizes, and how the
inputs' memory layout changes a call at 2048 x 2048.

What is timed is the wall clock of `f(*args)` as the user sees it, from
Python: argument checks, the cache look-up, any copy of an input into C
order, the kernels on fuse's default threads (every core, or
FUSE_NUM_THREADS), and the result arrays handed back. numpy runs the same
expression, one thread, allocating its result and temporaries (glibc's
malloc defaults: a large result is a fresh mmap whose pages fault on first
touch, as a numpy user gets).

The cases, float32:

- per-call cost: `fuse.relu(a + b)` against `np.maximum(a + b, 0)` at 1,
  1000 and 100000 elements and with 0-d arrays (numpy: `np.maximum(a + b,
  np.float32(0))`, since numpy 1.24 makes the maximum of a float32 scalar
  and a Python 0 a float64); `a + 1.0` at 16 elements
  (one input, one output: the baseline); the sum of 8 inputs
  `a+b+c+d+e+f+g+h` at 16; 8 outputs `a+1, a+2, ..., a+8` at 16. From the
  baseline, the 8-input and 8-output cases give the cost of each further
  input and output array, in us;
- layouts at 2048 x 2048: `fuse.relu(x) + 1.0` with x C-contiguous, x in
  Fortran order (`rand(2048, 2048).T`), x a strided view (`big[:, ::2]` of
  2048 x 4096) and x a 3-D transpose (`np.transpose` of 64 x 128 x 256);
  `a * b + 2.0` with a and b both transposed; and `x.sum(axis=0)` with x
  transposed.

Each case's first call compiles; its result is checked against numpy's on
the same inputs (shape, dtype and values: exactly for the relu cases,
np.allclose otherwise, rtol 1e-4 relative to the largest |result| for the
sum). Then 3 warm-up calls of each, and `--rounds` rounds (default 9), each
a fuse call then a numpy call, interleaved so that the machine's load falls
on both alike. In a round each side runs its call back to back for about
20 ms (the count chosen once per case from the warm-up, at least one call;
a 2048 x 2048 case runs a few calls, a 16-element one thousands), each
result dropped before the next call; the time is that batch's wall time
over its calls. The table gives the median over the rounds of each (us
below 1 ms, else ms) and fuse / numpy (below 1: fuse is faster). Writes
bench/results/call_path.json (`--json`) with every round, the machine (CPU
model, cpu count) and the load average at the start and at the end.
"""
import argparse
import gc
import json
import math
import os
import platform
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from common import (add_build_dir, cpu_model, fuse_library,  # noqa: E402
                    fuse_version, import_fuse, positive_int, print_table,
                    tool_ids, uncommitted_changes)

WARM = 3
BATCH_S = 0.02  # each side's calls in one round last about this long

f32 = np.float32


def cases(fuse):
    """The cases, in order: dicts of name, shape (a description), group,
    make (the inputs), fn (what fuse traces), ref (numpy's) and tol
    ("exact", "ew" or "red"). fuse: the package, for fuse.relu (None:
    only the names)."""
    rng = np.random.default_rng(0)
    table = []

    def rand(*shape):
        return rng.standard_normal(shape, dtype=f32)

    def case(name, shape, group, make, fn, ref, tol):
        table.append(dict(name=name, shape=shape, group=group, make=make,
                          fn=fn, ref=ref, tol=tol))

    relu = fuse.relu if fuse is not None else None

    # ------------------------------------------------ the call's fixed cost
    for n in (1, 1000, 100000):
        case(f"add_relu n={n}", f"({n},)", "call",
             lambda n=n: (rand(n), rand(n)),
             lambda a, b: relu(a + b), lambda a, b: np.maximum(a + b, 0),
             "exact")
    case("add_relu 0-d", "()", "call",
         lambda: (np.asarray(rand(1)[0]), np.asarray(rand(1)[0])),
         lambda a, b: relu(a + b),
         # numpy 1.24 makes max(float32 scalar, Python 0) a float64 (no
         # value-based casting between scalars); numpy 2 and fuse: float32.
         lambda a, b: np.maximum(a + b, f32(0)), "exact")
    case("a + 1 (1 in, 1 out)", "(16,)", "call", lambda: (rand(16),),
         lambda a: a + 1.0, lambda a: a + 1.0, "ew")
    case("sum of 8 inputs", "8 x (16,)", "call",
         lambda: tuple(rand(16) for _ in range(8)),
         lambda a, b, c, d, e, f, g, h: a + b + c + d + e + f + g + h,
         lambda a, b, c, d, e, f, g, h: a + b + c + d + e + f + g + h, "ew")
    eight = lambda a: (a + 1.0, a + 2.0, a + 3.0, a + 4.0,  # noqa: E731
                       a + 5.0, a + 6.0, a + 7.0, a + 8.0)
    case("8 outputs a+1..a+8", "(16,) -> 8", "call", lambda: (rand(16),),
         eight, eight, "ew")

    # ------------------------------------------------------------ layouts
    relu1 = (lambda x: relu(x) + 1.0)
    np_relu1 = (lambda x: np.maximum(x, 0) + 1.0)
    case("relu(x)+1, C order", "2048x2048", "layout",
         lambda: (rand(2048, 2048),), relu1, np_relu1, "exact")
    case("relu(x)+1, Fortran order", "2048x2048 (x.T)", "layout",
         lambda: (rand(2048, 2048).T,), relu1, np_relu1, "exact")
    case("relu(x)+1, strided view", "2048x2048 (big[:, ::2])", "layout",
         lambda: (rand(2048, 4096)[:, ::2],), relu1, np_relu1, "exact")
    case("relu(x)+1, 3-D transpose", "256x128x64 (np.transpose)", "layout",
         lambda: (np.transpose(rand(64, 128, 256)),), relu1, np_relu1, "exact")
    case("a*b+2, both transposed", "2048x2048 (a.T, b.T)", "layout",
         lambda: (rand(2048, 2048).T, rand(2048, 2048).T),
         lambda a, b: a * b + 2.0, lambda a, b: a * b + 2.0, "ew")
    case("x.sum(axis=0), transposed", "2048x2048 (x.T)", "layout",
         lambda: (rand(2048, 2048).T,),
         lambda x: x.sum(axis=0), lambda x: x.sum(axis=0), "red")
    return table


def as_tuple(r):
    return tuple(r) if isinstance(r, (tuple, list)) else (r,)


def check(got, ref, tol):
    """(ok, detail): whether fuse's results agree with numpy's (detail: what
    differs, empty when nothing does)."""
    got, ref = as_tuple(got), as_tuple(ref)
    if len(got) != len(ref):
        return False, f"{len(got)} results vs numpy's {len(ref)}"
    for i, (g, r) in enumerate(zip(got, ref)):
        g, r = np.asarray(g), np.asarray(r)
        where = f"result {i}: " if len(got) > 1 else ""
        if g.shape != r.shape:
            return False, f"{where}shape {g.shape} vs numpy's {r.shape}"
        if g.dtype != r.dtype:
            return False, f"{where}dtype {g.dtype} vs numpy's {r.dtype}"
        if tol == "exact":
            if not np.array_equal(g, r):
                return False, (f"{where}{np.count_nonzero(g != r)} elements "
                               f"differ")
            continue
        g64, r64 = g.astype(np.float64), r.astype(np.float64)
        rtol, atol = (1e-6, 1e-6) if tol == "ew" else (1e-4, 0.0)
        if tol == "red":
            atol = 1e-4 * max(float(np.max(np.abs(r64))), 1.0)
        if not np.allclose(g64, r64, rtol=rtol, atol=atol):
            return False, (f"{where}max |err| "
                           f"{float(np.max(np.abs(g64 - r64))):.3g}")
    return True, ""


def layout(a):
    """How an input or a result lies in memory: C, F, or strided."""
    if not isinstance(a, np.ndarray):
        return type(a).__name__
    if a.ndim < 2 and a.flags.c_contiguous:
        return "C"
    return "C" if a.flags.c_contiguous else "F" if a.flags.f_contiguous else \
        "strided"


def batch(fn, args, calls):
    """Seconds per call of `calls` calls of fn(*args) back to back, each
    result dropped before the next call."""
    t0 = time.perf_counter()
    for _ in range(calls):
        fn(*args)
    return (time.perf_counter() - t0) / calls


def calls_for(fn, args):
    """How many calls of fn(*args) last about BATCH_S (at least one), from
    the best of 3 single calls."""
    one = min(batch(fn, args, 1) for _ in range(3))
    return max(1, math.ceil(BATCH_S / max(one, 1e-9)))


def run_case(c, fuse, rounds):
    row = dict(name=c["name"], shape=c["shape"], group=c["group"])
    args = c["make"]()
    row["input_layouts"] = [layout(a) for a in args]
    jf = fuse.jit(c["fn"], target="cpu")
    t0 = time.perf_counter()
    got = jf(*args)
    row["first_call_s"] = time.perf_counter() - t0
    ref = c["ref"](*args)
    row["ok"], row["check"] = check(got, ref, c["tol"])
    row["check_kind"] = c["tol"]
    row["result_layouts"] = {"fuse": [layout(r) for r in as_tuple(got)],
                             "numpy": [layout(np.asarray(r))
                                       for r in as_tuple(ref)]}
    row["result_types"] = {"fuse": [type(r).__name__ for r in as_tuple(got)],
                           "numpy": [type(r).__name__ for r in as_tuple(ref)]}
    got = ref = None
    gc.collect()
    for _ in range(WARM):
        jf(*args)
        c["ref"](*args)
    fcalls, ncalls = calls_for(jf, args), calls_for(c["ref"], args)
    fs, ns = [], []
    for _ in range(rounds):
        fs.append(batch(jf, args, fcalls))
        ns.append(batch(c["ref"], args, ncalls))
    row["fuse_calls_per_round"] = fcalls
    row["numpy_calls_per_round"] = ncalls
    row["fuse_us_all"] = [s * 1e6 for s in fs]
    row["numpy_us_all"] = [s * 1e6 for s in ns]
    row["fuse_us"] = statistics.median(row["fuse_us_all"])
    row["numpy_us"] = statistics.median(row["numpy_us_all"])
    row["ratio"] = row["fuse_us"] / row["numpy_us"]
    return row


def fmt_time(us):
    """us below 1 ms, else ms."""
    return f"{us:.1f} us" if us < 1000 else f"{us / 1000:.2f} ms"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=positive_int, default=9,
                        help="interleaved rounds of fuse and numpy (default 9)")
    add_build_dir(parser)
    parser.add_argument("--json", type=Path,
                        default=ROOT / "bench" / "results" / "call_path.json",
                        help="where to write the results "
                             "(default bench/results/call_path.json)")
    args = parser.parse_args()
    library = fuse_library(parser, args.build_dir)
    if args.json.is_dir():
        parser.error(f"--json {args.json}: a directory")
    fuse = import_fuse(library)

    tools = tool_ids([library])
    threads = os.environ.get("FUSE_NUM_THREADS") or str(os.cpu_count())
    load_before = os.getloadavg()
    # fuse_version: `git describe --dirty`, or the package version without
    # git; dirty is None (null in the JSON) where git cannot tell.
    commit = fuse_version()
    dirty = uncommitted_changes()
    print(f"commit {commit}, "
          f"{cpu_model()}, {os.cpu_count()} cpus, fuse on {threads} threads, "
          f"numpy on 1; {args.rounds} rounds; load "
          f"{' '.join(f'{x:.2f}' for x in load_before)}", flush=True)

    rows = []
    start = time.time()
    for c in cases(fuse):
        row = run_case(c, fuse, args.rounds)
        rows.append(row)
        print(f"  {row['name']}: fuse {fmt_time(row['fuse_us'])}, numpy "
              f"{fmt_time(row['numpy_us'])}"
              f"{'' if row['ok'] else ', MISMATCH: ' + row['check']}",
              file=sys.stderr, flush=True)
        gc.collect()
    seconds = time.time() - start
    load_after = os.getloadavg()

    table = [[r["name"], r["shape"], fmt_time(r["fuse_us"]),
              fmt_time(r["numpy_us"]), f"{r['ratio']:.2f}",
              "ok" if r["ok"] else "MISMATCH"] for r in rows]
    print()
    print_table(["case", "shape", "fuse", "numpy", "fuse/numpy", "check"],
                table)
    by_name = {r["name"]: r for r in rows}
    base = by_name["a + 1 (1 in, 1 out)"]["fuse_us"]
    per_input = (by_name["sum of 8 inputs"]["fuse_us"] - base) / 7
    per_output = (by_name["8 outputs a+1..a+8"]["fuse_us"] - base) / 7
    print(f"\nfuse, each further array at 16 elements (from `a + 1`, "
          f"{base:.1f} us): {per_input:.2f} us per input, "
          f"{per_output:.2f} us per output")
    bad = [r for r in rows if not r["ok"]]
    print(f"mismatches ({len(bad)}):" if bad else "mismatches: none")
    for r in bad:
        print(f"  {r['name']} ({r['shape']}): {r['check']}")
    print(f"{len(rows)} cases in {seconds:.0f} s; load at the end "
          f"{' '.join(f'{x:.2f}' for x in load_after)}")

    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps({
        "commit": commit, "uncommitted_changes": dirty,
        "uncommitted_changes_note": (None if dirty is not None else
                                     "unknown: git could not tell (no"
                                     " repository here, or no git)"),
        "tools": tools,
        "machine": {"platform": platform.platform(), "cpu": cpu_model(),
                    "cpus": os.cpu_count()},
        "fuse_threads": int(threads) if threads.isdigit() else threads,
        "numpy": np.__version__, "python": platform.python_version(),
        "rounds": args.rounds, "warm_ups": WARM, "batch_s": BATCH_S,
        "load_before": load_before, "load_after": load_after,
        "seconds": seconds,
        "per_call_us": {"baseline_a_plus_1": base, "per_input": per_input,
                        "per_output": per_output},
        "cases": rows}, indent=1) + "\n")
    print(f"wrote {args.json}")
    if tool_ids([library]) != tools:
        print(f"warning: {library} changed during the run", file=sys.stderr)


if __name__ == "__main__":
    main()
