#!/usr/bin/python3
"""Broadcast kernels on the cpu target: builds of fuse-run side by side.

Each program adds (or multiplies) a full tensor and one read with
broadcasting, the kind whose rows decide how a cpu thread reads the
broadcast input: a bias per channel of N x C x H x W (rows of H * W once the
loops read alike merge), a bias over rows of 3, 24, 49, 100 or 1024 elements,
and a 5-D product. Every build given with --fuse-run (LABEL=PATH, in the
order given) runs each program `--rounds` times, the builds taking turns
(round robin: a shared machine's load falls on all of them alike):

  fuse-run PROGRAM --target=cpu --input rand:... --profile --repeat R

and the time is the sum over kernels of the mean time per call. A plain
add of two flat tensors of the output's size is the reference (`flat`):
what the same build does with no broadcast. numpy's broadcasting
expression (one thread, its result allocated) is timed beside them, min of
runs. Prints medians; with --json, writes every round.
"""
import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from common import fuse_version, positive_int, print_table, tool_ids  # noqa: E402

PROGRAMS = {
    # name: (element-wise op, full shape, broadcast operand's shape)
    "channel bias 7x7": ("add", (64, 256, 7, 7), (1, 256, 1, 1)),
    "channel bias 14x14": ("add", (64, 256, 14, 14), (1, 256, 1, 1)),
    "channel bias 56x56": ("add", (16, 256, 56, 56), (1, 256, 1, 1)),
    "bias, rows of 3": ("add", (1333333, 3), (3,)),
    "bias, rows of 24": ("add", (166666, 24), (24,)),
    "bias, rows of 49": ("add", (81632, 49), (49,)),
    "bias, rows of 100": ("add", (40000, 100), (100,)),
    "bias, rows of 1024": ("add", (3906, 1024), (1024,)),
    "5-D scale": ("mul", (8, 16, 16, 32, 32), (8, 16, 1, 1, 32)),
}


def tensor_type(shape, dynamic):
    return "tensor<" + "x".join("?" if dynamic and d != 1 else str(d)
                                for d in shape) + "xf32>"


def program_text(op, full, other):
    a, b = tensor_type(full, True), tensor_type(other, True)
    return (f"func.func @prog(%a: {a}, %b: {b}) -> {a} {{\n"
            f"  %0 = fuse.{op} %a, %b : {a}, {b} -> {a}\n"
            f"  return %0 : {a}\n}}\n")


def kernel_ms(fuse_run, path, shapes, repeat):
    cmd = [fuse_run, str(path), "--target=cpu", "--profile",
           f"--repeat={repeat}"]
    cmd += ["--input=rand:" + "x".join(map(str, s)) for s in shapes]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    total = 0.0
    for line in out.splitlines():
        # Name  Calls  Total ms  Mean ms  ...
        m = re.match(r"^(\S+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s", line)
        if m and not line.startswith("["):
            total += float(m.group(3)) / int(m.group(2))
    return total


def numpy_ms(op, full, other, runs=7):
    rng = np.random.default_rng(0)
    a = rng.random(full, np.float32)
    b = rng.random(other, np.float32)
    fn = np.add if op == "add" else np.multiply
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        fn(a, b)
        best = min(best, time.perf_counter() - start)
    return best * 1e3


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fuse-run", action="append", required=True,
                        metavar="LABEL=PATH",
                        help="a build's fuse-run (repeat for several)")
    parser.add_argument("--rounds", type=positive_int, default=3)
    parser.add_argument("--repeat", type=positive_int, default=10,
                        help="fuse-run --repeat (the first run is a warm-up)")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    builds = []
    for spec in args.fuse_run:
        label, sep, path = spec.partition("=")
        if not sep or not Path(path).is_file():
            parser.error(f"--fuse-run {spec}: expected LABEL=PATH of a file")
        builds.append((label, path))

    rows, record = [], {"commit": fuse_version(),
                        "tools": tool_ids([p for _, p in builds]),
                        "programs": {}}
    with tempfile.TemporaryDirectory() as scratch:
        for name, (op, full, other) in PROGRAMS.items():
            path = Path(scratch) / "prog.mlir"
            path.write_text(program_text(op, full, other))
            flat = Path(scratch) / "flat.mlir"
            n = int(np.prod(full))
            flat.write_text(program_text("add", (n,), (n,)))
            times = {label: [] for label, _ in builds}
            flats = {label: [] for label, _ in builds}
            for _ in range(args.rounds):
                for label, fuse_run in builds:
                    times[label].append(
                        kernel_ms(fuse_run, path, [full, other], args.repeat))
                    flats[label].append(
                        kernel_ms(fuse_run, flat, [(n,), (n,)], args.repeat))
            np_ms = numpy_ms(op, full, other)
            row = [name, f"{n:,}"]
            for label, _ in builds:
                ms = statistics.median(times[label])
                ref = statistics.median(flats[label])
                row += [f"{ms:.3f}", f"{ref / ms:.2f}"]
            row.append(f"{np_ms:.3f}")
            rows.append(row)
            record["programs"][name] = {"shapes": [full, other],
                                        "fuse_ms": times, "flat_ms": flats,
                                        "numpy_ms": np_ms}
    header = ["program", "elements"]
    for label, _ in builds:
        header += [f"{label} ms", f"{label} flat/this"]
    header.append("numpy ms")
    print_table(header, rows)
    if args.json:
        args.json.write_text(json.dumps(record, indent=1) + "\n")


if __name__ == "__main__":
    main()
