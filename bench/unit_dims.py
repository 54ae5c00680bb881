#!/usr/bin/python3
"""Fusion with dimensions of size 1: kernel counts against the same
programs without them (`fuse-opt --fuse-report=json`, no run).

Each program normalizes x over `dims` with the reduced dimensions kept,
`c = x - mean(x); y = c * exp(sum(c * c))`, returning y and the sum, for
every shape below and every set of dimensions to reduce that holds one of
another size than 1. Its twin is the same program on x without its
dimensions of size 1 (and `dims` without them). A dimension of size 1
holds one element along it, so the twin is the same computation: a
program that takes more kernels than its twin fuses worse for a reason
that is not in the data. Every build given with --fuse-opt (LABEL=PATH)
counts the kernels of every program and twin. Prints, per build, how
many programs take more kernels than their twins, and the programs where
the builds differ; with --json, writes every count.
"""
import argparse
import itertools
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from common import fuse_version, print_table, tool_ids  # noqa: E402

SHAPES = [(1, 1024), (4, 1, 1024), (1, 1, 1024), (1, 4, 1024), (4, 1024, 1),
          (1, 1024, 1), (2, 1, 3, 1), (1, 8, 1, 64), (8, 1, 64, 1), (3, 1),
          (2, 1, 700), (1, 2, 1, 700, 1)]


def program(shape, dims):
    """The program over `shape` reducing `dims`, kept."""
    x = "tensor<" + "".join(f"{n}x" for n in shape) + "f32>"
    r = "tensor<" + "".join(f"{1 if d in dims else n}x"
                            for d, n in enumerate(shape)) + "f32>"
    listed = ", ".join(map(str, dims))
    return "\n".join([
        f"func.func @f(%x: {x}) -> ({x}, {r}) {{",
        f"  %m = fuse.reduce_mean %x {{dims = array<i64: {listed}>}} : {x} -> {r}",
        f"  %c = fuse.sub %x, %m : {x}, {r} -> {x}",
        f"  %q = fuse.mul %c, %c : {x}",
        f"  %s = fuse.reduce_sum %q {{dims = array<i64: {listed}>}} : {x} -> {r}",
        f"  %e = fuse.exp %s : {r}",
        f"  %y = fuse.mul %c, %e : {x}, {r} -> {x}",
        f"  return %y, %s : {x}, {r}", "}", ""])


def cases():
    """(name, program, twin) for every shape and set of dims."""
    for shape in SHAPES:
        others = [d for d, n in enumerate(shape) if n != 1]
        for k in range(1, len(shape) + 1):
            for dims in itertools.combinations(range(len(shape)), k):
                if not any(d in others for d in dims):
                    continue
                twin_dims = tuple(others.index(d) for d in dims if d in others)
                name = "x".join(map(str, shape)) + " dims " + ",".join(map(str, dims))
                yield (name, program(shape, dims),
                       program(tuple(shape[d] for d in others), twin_dims))


def kernels(fuse_opt, text, scratch):
    path = Path(scratch) / "program.mlir"
    path.write_text(text)
    out = subprocess.run([fuse_opt, str(path), "--fuse-report=json"],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)["functions"][0]["fused"]["kernel_count"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fuse-opt", action="append", metavar="LABEL=PATH",
                        help="a build's fuse-opt (repeat to compare builds; "
                             "default: this build's, labelled 'build')")
    parser.add_argument("--json", type=Path, help="write every count here")
    args = parser.parse_args()
    builds = {}
    for spec in args.fuse_opt or [f"build={ROOT / 'build' / 'bin' / 'fuse-opt'}"]:
        label, sep, path = spec.partition("=")
        if not sep or not label or not Path(path).is_file():
            parser.error(f"--fuse-opt {spec!r}: expected LABEL=PATH of a fuse-opt")
        builds[label] = path
    counts = {label: {} for label in builds}
    with tempfile.TemporaryDirectory() as scratch:
        for name, text, twin in cases():
            for label, fuse_opt in builds.items():
                counts[label][name] = (kernels(fuse_opt, text, scratch),
                                       kernels(fuse_opt, twin, scratch))
    names = list(next(iter(counts.values())))
    print(f"{len(names)} programs; commit {fuse_version()}")
    print_table(["build", "more kernels than the twin", "kernels", "twins' kernels"],
                [[label, sum(a > b for a, b in c.values()),
                  sum(a for a, _ in c.values()), sum(b for _, b in c.values())]
                 for label, c in counts.items()])
    differ = [n for n in names if len({c[n] for c in counts.values()}) > 1]
    if differ:
        print()
        print_table(["program"] + [f"{label} (twin)" for label in builds],
                    [[n] + [f"{c[n][0]} ({c[n][1]})" for c in counts.values()]
                     for n in differ])
    if args.json:
        args.json.write_text(json.dumps(
            {"tools": tool_ids(builds.values()),
             "counts": {label: {n: list(v) for n, v in c.items()}
                        for label, c in counts.items()}}, indent=1))


if __name__ == "__main__":
    main()
