#!/usr/bin/env python3
"""Runs every example on the cuda target and checks its values.

usage: check_examples.py FUSE_RUN EXAMPLES_DIR WORKDIR

For each example and several sizes (one element, a partial vector, a tail
thread, more than one block, a million and three), writes inputs with
special values mixed in (NaN, +-inf, -0, subnormals, large and tiny
numbers), runs `fuse-run --target=cuda` fused and eager, and checks:

  * fused and eager give the same bits (a NaN may differ in sign and
    payload, as docs/dialect.md allows);
  * the values match a numpy reference that rounds each op to float32 (in
    float64 before): add_relu exactly (it is made of exact ops), the others
    within 8 float32 ulp of the reference plus 1e-6 absolute (their exp,
    tanh, sigmoid and gelu are libdevice's); NaN where the reference is NaN,
    the same infinities;
  * the cuda target gives the same bits as the cpu target for add_relu.

With FUSE_LIBCUDA naming the fake driver (test/Runtime/FakeCuda), the
kernels run on its emulated GPU. Prints `ok NAME SIZE` or `FAIL ...` per
case and exits 1 on any failure.
"""

import os
import subprocess
import sys

import numpy as np

SPECIAL = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1e-45, -1e-40, 3e38,
                    -3e38, 1e-30, 1.0, -1.0, 0.5, -20.0, 20.0, 100.0],
                   np.float32)


def values(rng, shape):
    x = (rng.standard_normal(shape) * 3).astype(np.float32)
    flat = x.reshape(-1)
    flat[: min(flat.size, SPECIAL.size)] = SPECIAL[: flat.size]
    rng.shuffle(flat)
    return flat.reshape(shape)


def sigmoid(x):
    with np.errstate(over="ignore"):
        return 1 / (1 + np.exp(-x))


def gelu_tanh(x):
    with np.errstate(over="ignore", invalid="ignore"):
        return 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x**3)))


def r(x):
    """One op's result: rounded to float32, computed on in float64."""
    with np.errstate(over="ignore"):
        return np.asarray(x).astype(np.float32).astype(np.float64)


def relu(x):
    return np.where(np.isnan(x), x, np.maximum(x, 0))


# name -> (argument shapes for a size, reference on float64 arrays, exact)
EXAMPLES = {
    "add_relu": (lambda n: [(n,), (n,)],
                 lambda a, b: [relu(r(a + b))], True),
    "chain": (lambda n: [(n,), (n,)],
              lambda x, z: [np.tanh(r(r(np.exp(-r(np.abs(x - z)))) * x))],
              False),
    "two_outputs": (lambda n: [(n,), (n,)],
                    lambda x, y: [r(r(x + y) * r(sigmoid(r(x + y)))),
                                  sigmoid(r(x + y))], False),
    "broadcast": (lambda n: [(n, 7), (7,)],
                  lambda x, g: [relu(r(x * r(sigmoid(g))))], False),
    "mlp_epilogue": (lambda n: [(n, 9), (9,), (n, 9)],
                     lambda x, b, res: [r(r(r(gelu_tanh(r(x + b))) + res) * 0.5)],
                     False),
}
SIZES = [1, 3, 4, 5, 1023, 1025, 1000003]


def same_bits(a, b):
    """Equal bits, except that any NaN equals any NaN."""
    nan = np.isnan(a)
    return np.array_equal(nan, np.isnan(b)) and a[~nan].tobytes() == b[~nan].tobytes()


def compare(got, want, exact):
    want32 = want.astype(np.float32)
    nan = np.isnan(want32)
    if not np.array_equal(np.isnan(got), nan):
        return "NaN where the reference has none, or the other way"
    inf = np.isinf(want32)
    if not np.array_equal(got[inf], want32[inf]):
        return "infinities differ"
    finite = ~nan & ~inf
    g = got[finite].astype(np.float64)
    w = want[finite]
    if exact:
        bad = g != want32[finite].astype(np.float64)
    else:
        ulp = np.spacing(np.abs(want32[finite])).astype(np.float64)
        bad = np.abs(g - w) > 8 * ulp + 1e-6
    if bad.any():
        i = np.flatnonzero(bad)[0]
        return f"{bad.sum()} of {g.size} wrong, e.g. {g[i]!r} for {w[i]!r}"
    return None


def run(fuse_run, program, inputs, flags, outputs):
    command = [fuse_run, program, *flags]
    for path in inputs:
        command += ["--input", path]
    for path in outputs:
        command += ["--output", path]
    proc = subprocess.run(command, capture_output=True, text=True)
    if proc.returncode:
        return proc.stderr.strip() or proc.stdout.strip()
    return None


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    fuse_run, examples, workdir = sys.argv[1:]
    os.makedirs(workdir, exist_ok=True)
    rng = np.random.default_rng(14)
    failures = 0
    for name, (shapes, reference, exact) in EXAMPLES.items():
        program = os.path.join(examples, name + ".mlir")
        for n in SIZES:
            args = [values(rng, shape) for shape in shapes(n)]
            inputs = []
            for i, arg in enumerate(args):
                inputs.append(os.path.join(workdir, f"{name}.{n}.in{i}.npy"))
                np.save(inputs[-1], arg)
            with np.errstate(all="ignore"):
                want = reference(*[a.astype(np.float64) for a in args])
            got = {}
            problem = None
            for variant, flags in [("fused", ["--target=cuda"]),
                                   ("eager", ["--target=cuda", "--fusion=off"]),
                                   ("cpu", ["--target=cpu"])]:
                outputs = [os.path.join(workdir, f"{name}.{n}.{variant}{i}.npy")
                           for i in range(len(want))]
                problem = run(fuse_run, program, inputs, flags, outputs)
                if problem:
                    problem = f"{variant}: {problem}"
                    break
                got[variant] = [np.load(path) for path in outputs]
            for i in range(len(want)) if not problem else []:
                fused, eager = got["fused"][i], got["eager"][i]
                if not same_bits(fused, eager):
                    problem = f"result {i}: fused and eager differ"
                elif exact and not same_bits(fused, got["cpu"][i]):
                    problem = f"result {i}: cuda and cpu differ"
                else:
                    why = compare(fused.reshape(-1), want[i].reshape(-1), exact)
                    problem = why and f"result {i}: {why}"
                if problem:
                    break
            if problem:
                failures += 1
                print(f"FAIL {name} {n}: {problem}")
            else:
                print(f"ok {name} {n}")
    print(f"{failures} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
