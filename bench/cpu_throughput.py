#!/usr/bin/python3
"""CPU throughput: fuse fused vs fuse eager vs numpy, single thread.

For examples/add_relu.mlir and examples/mlp_epilogue.mlir at 1e4 .. 1e8
elements (f32), on fuse-run's CPU target on one thread (--threads=1, since
fuse-run's default is every core), like numpy's elementwise ops:

  fused   fuse-run PROGRAM --target=cpu --threads=1 --input rand:...
          --repeat 6 --profile
          time = sum over kernels of the mean time per call (Total ms /
          Calls, which has more digits than Mean ms); the first run is a
          warm-up that fuse-run leaves out of the profile
  eager   the same with --fusion=off (one kernel per op)
  numpy   the same computation written in numpy, f32 throughout, timed with
          time.perf_counter, min of several runs, inputs allocated before:
            numpy       the plain expression (allocates its results and
                        temporaries, as code written naturally does)
            numpy out=  every op into preallocated buffers (out=), the
                        fastest numpy can do it

GB/s is the same for every column: the bytes the fused report counts
(fuse-opt --fuse-report=json: 12*N for add+relu, 12*N*M + 4*M for the MLP
epilogue) divided by the time, so it is proportional to speed. Two copy
bandwidths, bytes read + written, both on one thread, measure different
things:

  copy GB/s (64 MiB)
                   the memcpy bandwidth that the same fused fuse-run process
                   measures (--threads=1: one thread), best of 3 copies of a
                   fixed 64 MiB, whatever the program's size (on a machine
                   whose last-level cache is smaller, such as the 32 MiB L3
                   of the run in bench/RESULTS.md, a DRAM bandwidth)
  numpy copy GB/s (N f32)
                   numpy copying an array of the program's size N (np.copyto
                   of N f32, 8*N bytes, min of runs, after a warm-up copy),
                   so it sees the caches the program sees: while 8*N bytes
                   fit in a cache, the copy runs from it and can be several
                   times faster than the 64 MiB copy (in that run, 40 to 67
                   GB/s up to 1e6 elements against 11 to 17); at the sizes
                   that go to DRAM the two are closer, but they are
                   different copies of different sizes and need not agree

"fused % copy BW" is against the first, "fused % numpy copy" against the
second.

Before timing, checks at the smallest size that numpy computes what fuse
computes (same inputs through .npy files). The MLP epilogue runs as
rows x 1000 (bias of 1000).

Prints a table with the ratios, writes bench/results/cpu_throughput.json
and then bench/cpu_throughput.png (GB/s vs elements; it needs matplotlib:
without it, an explicit --png is refused at start-up and the default plot
is left out, with a note).
"""
import argparse
import datetime
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from common import (add_build_dir, build_tool, can_plot, draw_plot, fuse_version,  # noqa: E402
                    names_of, positive_int, positive_ints, print_table, size_at, size_text,
                    sizes_at, tool_ids)
COLUMNS = 1000  # the MLP epilogue's row length (the bias)
# fuse-run's default is every core (FUSE_NUM_THREADS, else all of them); one
# thread compares like with like against numpy, and makes fuse-run measure
# its copy bandwidth on one thread too.
THREADS = "--threads=1"
GELU_C = math.sqrt(2.0 / math.pi)


# numpy versions of the programs. Inputs are f32; Python float scalars keep
# f32 arrays f32.



def add_relu_expr(a, b):
    return np.maximum(a + b, 0)


def add_relu_out(a, b, out, tmp):
    np.add(a, b, out=out)
    np.maximum(out, 0, out=out)
    return out


def mlp_expr(x, bias, residual):
    h = x + bias
    g = 0.5 * h * (1 + np.tanh(GELU_C * (h + 0.044715 * (h * h * h))))
    return (g + residual) * 0.5


def mlp_out(x, bias, residual, out, tmp):
    h, u = out, tmp
    np.add(x, bias, out=h)
    np.multiply(h, h, out=u)
    np.multiply(u, h, out=u)
    np.multiply(u, 0.044715, out=u)
    np.add(u, h, out=u)
    np.multiply(u, GELU_C, out=u)
    np.tanh(u, out=u)
    np.add(u, 1, out=u)
    np.multiply(u, h, out=u)
    np.multiply(u, 0.5, out=u)
    np.add(u, residual, out=u)
    np.multiply(u, 0.5, out=out)
    return out


PROGRAMS = {
    "add_relu": {
        "file": "examples/add_relu.mlir",
        "shapes": lambda n: [(n,), (n,)],
        "expr": add_relu_expr,
        "out": add_relu_out,
        "buffers": 4,  # arrays of n f32 alive at once, at most (eager)
    },
    "mlp_epilogue": {
        "file": "examples/mlp_epilogue.mlir",
        "shapes": lambda n: [(n // COLUMNS, COLUMNS), (COLUMNS,),
                             (n // COLUMNS, COLUMNS)],
        "expr": mlp_expr,
        "out": mlp_out,
        "buffers": 8,
    },
}


def shape_spec(shape):
    return "x".join(str(d) for d in shape)


def fuse_run(build, program, shapes, fusion, repeat):
    cmd = [str(build / "bin/fuse-run"), str(ROOT / program), "--target=cpu",
           THREADS, "--repeat", str(repeat), "--profile"]
    for s in shapes:
        cmd += ["--input", "rand:" + shape_spec(s)]
    if not fusion:
        cmd.append("--fusion=off")
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: exit {proc.returncode}: "
                           f"{proc.stderr.strip()[:500]}")
    return parse_profile(proc.stdout)


def parse_profile(text):
    """fuse-run --profile's table: kernels, Mean ms, bytes; copy bandwidth."""
    kernels = []
    in_table = False
    copy_bw = None
    launches = None
    for line in text.splitlines():
        if line.startswith("-----"):
            in_table = True
            continue
        if line.startswith("kernels per run:"):
            in_table = False
            m = re.search(r"copy bandwidth ([\d.]+) GB/s", line)
            copy_bw = float(m.group(1)) if m else None
            launches = int(re.search(r"kernels per run: (\d+)",
                                     line).group(1))
            continue
        if in_table and line.strip():
            tok = line.split()
            # name... calls total mean bytes unit gbps pct
            name = " ".join(tok[:-7])
            if name.startswith("["):
                continue  # host<->device copies (none on the CPU target)
            unit = {"B": 1, "KB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12}
            # Total ms / calls: Mean ms is printed with 3 decimals only.
            calls, total = int(tok[-7]), float(tok[-6])
            kernels.append({"name": name, "calls": calls,
                            "mean_ms": total / calls,
                            "bytes": float(tok[-4]) * unit[tok[-3]]})
    if not kernels:
        raise RuntimeError("no kernel rows in fuse-run's profile:\n" + text)
    return {"kernels": kernels, "ms": sum(k["mean_ms"] for k in kernels),
            "copy_gbps": copy_bw, "launches": launches}


def fused_bytes(build, program, shapes):
    """The fused report's byte count, evaluated at these shapes."""
    out = subprocess.run([str(build / "bin/fuse-opt"), str(ROOT / program),
                          "--fuse-report=json"], check=True,
                         capture_output=True, text=True).stdout
    function = json.loads(out)["functions"][0]
    sizes = sizes_at(function, shapes)
    size = function["fused"]["bytes"]
    return size_at(size, sizes), size_text(size)


def time_numpy(fn, args, budget_s=1.0, min_runs=5, max_runs=30):
    fn(*args)  # warm-up (and first touch of any output buffers)
    best = math.inf
    runs = 0
    start = time.perf_counter()
    while runs < min_runs or (runs < max_runs and
                              time.perf_counter() - start < budget_s):
        t0 = time.perf_counter()
        fn(*args)
        best = min(best, time.perf_counter() - t0)
        runs += 1
    return best * 1e3, runs


def numpy_inputs(shapes, rng):
    return [rng.uniform(-1.0, 1.0, size=s).astype(np.float32) for s in shapes]


def check_against_fuse(build, name, spec, n, scratch):
    """Runs fuse on numpy's inputs and compares with both numpy versions."""
    rng = np.random.default_rng(1)
    inputs = numpy_inputs(spec["shapes"](n), rng)
    cmd = [str(build / "bin/fuse-run"), str(ROOT / spec["file"]),
           "--target=cpu", THREADS]
    for i, a in enumerate(inputs):
        path = scratch / f"{name}_in{i}.npy"
        np.save(path, a)
        cmd += ["--input", str(path)]
    out_path = scratch / f"{name}_out.npy"
    cmd += ["--output", str(out_path)]
    subprocess.run(cmd, check=True, capture_output=True)
    got = np.load(out_path)
    want = spec["expr"](*inputs)
    out = np.empty_like(want)
    want_out = spec["out"](*inputs, out, np.empty_like(want))
    if got.dtype != np.float32 or want.dtype != np.float32:
        raise RuntimeError(f"{name}: dtypes {got.dtype}, {want.dtype}")
    return max(float(np.max(np.abs(got - want))),
               float(np.max(np.abs(got - want_out))))


def mem_available():
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith("MemAvailable:"):
            return int(line.split()[1]) * 1024
    return 0


def plot(results, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

    names = [p for p in PROGRAMS
             if any(r["program"] == p and "fused_ms" in r for r in results)]
    if not names:
        return
    fig, axes = plt.subplots(1, len(names), figsize=(6 * len(names), 4.8),
                             squeeze=False)
    axes = axes[0]
    copy = [r["copy_gbps"] for r in results if r.get("copy_gbps")]
    copy_bw = float(np.median(copy)) if copy else None
    for ax, name in zip(axes, names):
        rows = [r for r in results if r["program"] == name and "fused_ms" in r]
        n = [r["elements"] for r in rows]
        for key, label, style in [("fused_gbps", "fuse fused", "o-"),
                                  ("eager_gbps", "fuse eager", "s--"),
                                  ("numpy_gbps", "numpy", "^-."),
                                  ("numpy_out_gbps", "numpy out=", "v:")]:
            ax.plot(n, [r[key] for r in rows], style, label=label)
        if copy_bw:
            ax.axhline(copy_bw, color="gray", linewidth=1,
                       label=f"memcpy, 1 core ({copy_bw:.1f} GB/s)")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.yaxis.set_major_locator(LogLocator(subs=(1, 2, 3, 5)))
        ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
        ax.yaxis.set_minor_formatter(NullFormatter())
        ax.set_xlabel("elements (f32)")
        ax.set_title({"add_relu": "add + relu (12 B/element)",
                      "mlp_epilogue": "MLP epilogue (12 B/element + bias)"}
                     .get(name, name))
        ax.grid(True, which="both", alpha=0.3)
        ax.set_ylabel("GB/s (fused report's bytes / time), log")
        ax.legend(loc="best", fontsize=8)
    fig.suptitle("CPU, one thread: fuse fused vs eager vs numpy")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_build_dir(parser)
    parser.add_argument("--sizes", type=positive_ints,
                        default="1e4,1e5,1e6,1e7,1e8",
                        help="element counts, comma separated (mlp_epilogue: "
                             f"multiples of {COLUMNS})")
    parser.add_argument("--programs", type=names_of(PROGRAMS, "program"),
                        default=",".join(PROGRAMS),
                        help="comma separated, of " + ", ".join(PROGRAMS))
    parser.add_argument("--repeat", type=positive_int, default=6,
                        help="fuse-run --repeat (the first run is a warm-up)")
    parser.add_argument("--png", type=Path,
                        help="the plot (default bench/cpu_throughput.png; "
                             "needs matplotlib)")
    parser.add_argument("--json", type=Path,
                        default=ROOT / "bench/results/cpu_throughput.json")
    args = parser.parse_args()
    build = args.build_dir
    sizes, names = args.sizes, args.programs
    if "mlp_epilogue" in names:
        odd = [n for n in sizes if n % COLUMNS]
        if odd:
            parser.error(f"--sizes: {', '.join(map(str, odd))}: not a "
                         f"multiple of {COLUMNS} (mlp_epilogue runs as rows "
                         f"x {COLUMNS}; --programs add_relu leaves it out)")
    for tool in ("fuse-opt", "fuse-run"):
        build_tool(parser, build, tool)
    plotting = can_plot(parser, "--png", args.png is not None,
                        "apt-get install python3-matplotlib")
    args.png = args.png or ROOT / "bench/cpu_throughput.png"

    scratch_dir = tempfile.TemporaryDirectory(prefix="fuse-cpu-throughput-")
    scratch = Path(scratch_dir.name)
    started = time.time()
    load_before = os.getloadavg()
    commit_at_start = fuse_version()
    tools_before = tool_ids([build / "bin/fuse-opt", build / "bin/fuse-run"])

    checks = {}
    for name in names:
        n = min(sizes)
        err = check_against_fuse(build, name, PROGRAMS[name], n, scratch)
        checks[name] = err
        print(f"check {name} at {n}: largest |fuse - numpy| = {err:.3g}",
              file=sys.stderr)
        if not err <= 1e-5:
            print(f"warning: numpy's {name} differs from fuse's by {err}",
                  file=sys.stderr)

    results, notes = [], []
    rng = np.random.default_rng(0)
    for name in names:
        spec = PROGRAMS[name]
        for n in sizes:
            shapes = spec["shapes"](n)
            row = {"program": name, "elements": n,
                   "shapes": [list(s) for s in shapes]}
            need = spec["buffers"] * 4 * n
            if need * 3 > mem_available():
                note = (f"{name} at {n:.0e} skipped: needs about "
                        f"{need / 1e9:.1f} GB per process, "
                        f"{mem_available() / 1e9:.1f} GB available")
                notes.append(note)
                row["skipped"] = note
                results.append(row)
                print(note, file=sys.stderr)
                continue
            print(f"{name} {n:.0e} ...", file=sys.stderr)
            nbytes, expression = fused_bytes(build, spec["file"], shapes)
            fused = fuse_run(build, spec["file"], shapes, True, args.repeat)
            eager = fuse_run(build, spec["file"], shapes, False, args.repeat)
            inputs = numpy_inputs(shapes, rng)
            out_shape = np.broadcast_shapes(*shapes)
            buffers = [np.empty(out_shape, np.float32) for _ in range(2)]
            numpy_out_ms, out_runs = time_numpy(spec["out"], inputs + buffers)
            del buffers
            numpy_ms, expr_runs = time_numpy(spec["expr"], inputs)
            del inputs
            # A second reference for the copy bandwidth: numpy copying an
            # array of the same size (bytes read + written).
            src = np.ones(n, np.float32)
            dst = np.empty_like(src)
            copy_ms, _ = time_numpy(np.copyto, [dst, src])
            del src, dst

            def gbps(ms):
                return nbytes / (ms * 1e6)

            row.update({
                "bytes": nbytes, "bytes_expression": expression,
                "fused_ms": fused["ms"], "eager_ms": eager["ms"],
                "numpy_ms": numpy_ms, "numpy_out_ms": numpy_out_ms,
                "numpy_runs": expr_runs, "numpy_out_runs": out_runs,
                "fused_kernels": fused["kernels"],
                "eager_kernels": eager["kernels"],
                "fused_gbps": gbps(fused["ms"]),
                "eager_gbps": gbps(eager["ms"]),
                "numpy_gbps": gbps(numpy_ms),
                "numpy_out_gbps": gbps(numpy_out_ms),
                "copy_gbps": fused["copy_gbps"],
                "numpy_copy_gbps": 8 * n / (copy_ms * 1e6),
                "eager_copy_gbps": eager["copy_gbps"],
                "fused_vs_eager": eager["ms"] / fused["ms"],
                "fused_vs_numpy": numpy_ms / fused["ms"],
                "fused_vs_numpy_out": numpy_out_ms / fused["ms"],
                "fused_pct_copy": 100 * gbps(fused["ms"]) / fused["copy_gbps"],
            })
            fused_report_bytes = sum(k["bytes"] for k in fused["kernels"])
            if abs(fused_report_bytes - nbytes) > 0.01 * nbytes:
                notes.append(f"{name} {n}: fuse-run's Bytes/call "
                             f"{fused_report_bytes:.4g} vs report {nbytes}")
            results.append(row)
    load_after = os.getloadavg()
    tools_after = tool_ids([build / "bin/fuse-opt", build / "bin/fuse-run"])
    if tools_after != tools_before:
        print("warning: a tool changed during the run (rebuilt?); the "
              "numbers mix two builds:")
        for name in tools_before:
            print(f"  {name}: {tools_before[name]} -> {tools_after[name]}")

    header = ["program", "elements", "fused ms", "eager ms", "numpy ms",
              "numpy out= ms", "fused GB/s", "copy GB/s (64 MiB)",
              "fused/eager", "fused vs numpy", "fused vs numpy out=",
              "fused % copy BW"]
    rows = []
    for r in results:
        if "skipped" in r:
            rows.append([r["program"], f"{r['elements']:.0e}"] +
                        ["skipped"] + [""] * (len(header) - 3))
            continue
        rows.append([
            r["program"], f"{r['elements']:.0e}",
            f"{r['fused_ms']:.3f}", f"{r['eager_ms']:.3f}",
            f"{r['numpy_ms']:.3f}", f"{r['numpy_out_ms']:.3f}",
            f"{r['fused_gbps']:.1f}", f"{r['copy_gbps']:.1f}",
            f"{r['fused_vs_eager']:.2f}x", f"{r['fused_vs_numpy']:.2f}x",
            f"{r['fused_vs_numpy_out']:.2f}x", f"{r['fused_pct_copy']:.0f}%"])
    print()
    print(f"CPU, one thread. fuse: sum of kernel mean ms (fuse-run {THREADS} "
          f"--repeat {args.repeat} --profile); numpy: min of runs "
          "(perf_counter).")
    print("GB/s = fused report's bytes / time. Ratios > 1x: fused faster. "
          f"Load average {load_before[0]:.2f} before, {load_after[0]:.2f} "
          "after.")
    print("copy GB/s (64 MiB): fuse-run's one-thread memcpy of a fixed "
          "64 MiB, the same copy at every size.")
    print("numpy copy GB/s (N f32), below: np.copyto of the program's own "
          "N f32, one thread; from cache while")
    print("8*N bytes fit in one, so far above the 64 MiB copy at small "
          "sizes.")
    print()
    print_table(header, rows)

    header2 = ["program", "elements", "bytes (fused report)", "eager GB/s",
               "numpy GB/s", "numpy out= GB/s", "numpy copy GB/s (N f32)",
               "fused % numpy copy", "eager kernels (ms)"]
    rows2 = [[r["program"], f"{r['elements']:.0e}",
              f"{r['bytes_expression']} = {r['bytes']:.4g}",
              f"{r['eager_gbps']:.1f}", f"{r['numpy_gbps']:.1f}",
              f"{r['numpy_out_gbps']:.1f}", f"{r['numpy_copy_gbps']:.1f}",
              f"{100 * r['fused_gbps'] / r['numpy_copy_gbps']:.0f}%",
              " ".join(f"{k['name']}:{k['mean_ms']:.3f}"
                       for k in r["eager_kernels"])]
             for r in results if "skipped" not in r]
    print()
    print_table(header2, rows2)
    for note in notes:
        print("note: " + note)

    # The CPU targets, on add+relu at 1e7.
    targets = {}
    at = [r for r in results if r["program"] == "add_relu"
          and r["elements"] == 10**7 and "fused_ms" in r]
    if at:
        r = at[0]
        print()
        for key, label in [("fused_vs_numpy", "numpy"),
                           ("fused_vs_numpy_out", "numpy out=")]:
            met = r[key] >= 2.0
            targets[f"add_relu_1e7_{key}_ge_2x"] = met
            print(f"target: add+relu 1e7 fused >= 2x {label}: {r[key]:.2f}x, "
                  f"{'MET' if met else 'NOT MET'}")
        met = r["fused_pct_copy"] >= 90
        targets["add_relu_1e7_ge_90pct_copy"] = met
        print(f"target: add+relu 1e7 fused >= 90% of copy bandwidth: "
              f"{r['fused_pct_copy']:.0f}% ({r['fused_gbps']:.1f} of "
              f"{r['copy_gbps']:.1f} GB/s), {'MET' if met else 'NOT MET'}")
        pct = 100 * r["fused_gbps"] / r["numpy_copy_gbps"]
        print(f"  (against numpy's copy of the same size, "
              f"{r['numpy_copy_gbps']:.1f} GB/s: {pct:.0f}%)")

    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps({
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(),
        "commit_at_start": commit_at_start,
        "commit_at_end": fuse_version(),
        "numpy": np.__version__,
        "tools": tools_before,
        "tools_changed_during_run": tools_after != tools_before,
        "load_average_before": load_before,
        "load_average_after": load_after,
        "seconds": time.time() - started,
        "checks_max_abs_error": checks,
        "results": results, "notes": notes, "targets": targets,
    }, indent=2) + "\n")
    print(f"\nwrote {args.json}")
    draw_plot(plotting, lambda path: plot(results, path), args.png)


if __name__ == "__main__":
    main()
