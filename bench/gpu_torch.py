"""PyTorch eager vs torch.compile on the programs of the GPU check.

usage: gpu_torch.py [--sizes 1000000,100000000] [--json FILE] [--budget S]
                   [--programs NAME,...]

Runs on the GPU machine (PyTorch with CUDA). For each program of
scripts/gpu-check and each size: time per call (CUDA events, median of 20
after warm-up), kernels per call (torch.profiler), GB/s from the bytes fuse's
report counts for the fused program (what a fused kernel must move), and for
torch.compile the seconds its first call took (compiling). Prints one table;
--json appends one JSON object per row to FILE. A size N is N elements for
the one-dimensional programs, N // 1024 rows of 1024 for the others (1024
rows of N // 1024 for the _wide ones).
torch.compile specializes on each size (dynamic=False), as a fixed-shape
model would. --budget stops starting new rows after S seconds (the rows
left are printed as skipped), so that the GPU check fits its time.
"""
import argparse
import json
import math
import sys
import time

from chain_ops import CYCLE


def add_relu(a, b):
    return torch.relu(a + b)


def chain(x, z):
    return torch.tanh(torch.exp(-torch.abs(x - z)) * x)


def two_outputs(x, y):
    s = x + y
    g = torch.sigmoid(s)
    return s * g, g


def broadcast(x, gamma):
    return torch.relu(x * torch.sigmoid(gamma))


def mlp_epilogue(x, bias, residual):
    return (torch.nn.functional.gelu(x + bias, approximate="tanh") + residual) * 0.5


def softmax(x):
    return torch.softmax(x, dim=-1)


def layer_norm(x, weight, bias):
    return torch.nn.functional.layer_norm(x, weight.shape, weight, bias, 1e-5)


def mse_loss(p, t):
    return torch.nn.functional.mse_loss(p, t)


def log_softmax(x):
    return torch.log_softmax(x, dim=-1)


def rms_norm(x, weight):
    return x * torch.rsqrt((x * x).mean(dim=-1, keepdim=True) + 1e-6) * weight


# The programs of bench/sass.py (kernel code against Triton's), which
# scripts/gpu-check exports from it.
def bias_gelu(x, w, b):
    return torch.nn.functional.gelu(x * w + b, approximate="tanh")


def sigmoid_dag(a, b):
    t = a * b
    return torch.relu(t) + torch.sigmoid(t) * t


def chain_of(length):
    """The chain of `length` ops on x and y (chain_ops.py)."""
    def chain_n(x, y):
        unary = {"relu": torch.relu, "tanh": torch.tanh, "abs": torch.abs,
                 "neg": torch.neg, "exp": torch.exp, "sigmoid": torch.sigmoid}
        binary = {"add": torch.add, "sub": torch.sub, "mul": torch.mul,
                  "max": torch.maximum}
        value = x
        for i in range(length):
            op, other = CYCLE[i % len(CYCLE)]
            if other is None:
                value = unary[op](value)
            else:
                value = binary[op](value, {"%x": x, "%y": y}[other])
        return value
    return chain_n


def mixed_f16(x, s, r):
    return torch.relu(x.float() * s + r).half()


def bcast3d(x, s, b):
    return x * s + b


def column_sum(x):
    return x.sum(0)


def column_softmax(x):
    return torch.softmax(x, dim=0)


def column_norm(x):
    d = x - x.mean(0, keepdim=True)
    return d * torch.rsqrt((d * d).mean(0, keepdim=True) + 1e-5)


def middle_sum(x):
    return x.sum(1)


def nchw_norm(x):
    d = x - x.mean((0, 2, 3), keepdim=True)
    return d * torch.rsqrt((d * d).mean((0, 2, 3), keepdim=True) + 1e-5)


def group_norm(x, weight, bias):
    d = x - x.mean((2, 3, 4), keepdim=True)
    return d * torch.rsqrt((d * d).mean((2, 3, 4), keepdim=True) + 1e-5) * weight + bias


def layer_norm_backward(dy, x, weight, mean, rstd):
    xhat = (x - mean) * rstd
    wdy = dy * weight
    c1 = (xhat * wdy).mean(1, keepdim=True)
    c2 = wdy.mean(1, keepdim=True)
    return (wdy - (xhat * c1 + c2)) * rstd, (dy * xhat).sum(0), dy.sum(0)


def rows(n):
    return max(1, n // 1024)


def half(shape):
    """An f16 input of this shape (the others are f32)."""
    return (shape, "float16")


# name -> (function, input shapes for size n, bytes the fused kernel moves:
# fuse's report, every input read and every result written once)
PROGRAMS = {
    "add_relu": (add_relu, lambda n: [(n,), (n,)], lambda n: 12 * n),
    "chain": (chain, lambda n: [(n,), (n,)], lambda n: 12 * n),
    "two_outputs": (two_outputs, lambda n: [(n,), (n,)], lambda n: 16 * n),
    "broadcast": (broadcast, lambda n: [(rows(n), 1024), (1024,)],
                  lambda n: 8 * rows(n) * 1024 + 4 * 1024),
    "mlp_epilogue": (mlp_epilogue,
                     lambda n: [(rows(n), 1024), (1024,), (rows(n), 1024)],
                     lambda n: 12 * rows(n) * 1024 + 4 * 1024),
    # Row reductions over the last axis (examples/softmax.mlir and
    # examples/layer_norm.mlir): fused, one kernel that reads x once and
    # writes y once.
    "softmax": (softmax, lambda n: [(rows(n), 1024)],
                lambda n: 8 * rows(n) * 1024),
    # The same over 10 classes (a classifier's logits): n / 10 short rows.
    "softmax_10": (softmax, lambda n: [(max(1, n // 10), 10)],
                   lambda n: 8 * max(1, n // 10) * 10),
    "layer_norm": (layer_norm, lambda n: [(rows(n), 1024), (1024,), (1024,)],
                   lambda n: 8 * rows(n) * 1024 + 8 * 1024),
    # A full reduction (examples/mse_loss.mlir): two kernels, the first
    # reads p and t once and writes 4096 partial sums, the second reads
    # them and writes the loss.
    "mse_loss": (mse_loss, lambda n: [(rows(n), 1024), (rows(n), 1024)],
                 lambda n: 8 * rows(n) * 1024 + 2 * 4096 * 4 + 4),
    "log_softmax": (log_softmax, lambda n: [(rows(n), 1024)],
                    lambda n: 8 * rows(n) * 1024),
    "rms_norm": (rms_norm, lambda n: [(rows(n), 1024), (1024,)],
                 lambda n: 8 * rows(n) * 1024 + 4 * 1024),
    "bias_gelu": (bias_gelu, lambda n: [(rows(n), 1024), (rows(n), 1024), (1024,)],
                  lambda n: 12 * rows(n) * 1024 + 4 * 1024),
    "sigmoid_dag": (sigmoid_dag, lambda n: [(n,), (n,)], lambda n: 12 * n),
    "chain20": (chain_of(20), lambda n: [(n,), (n,)], lambda n: 12 * n),
    "chain100": (chain_of(100), lambda n: [(n,), (n,)], lambda n: 12 * n),
    "mixed_f16": (mixed_f16, lambda n: [half((n,)), (n,), (n,)], lambda n: 12 * n),
    "bcast3d": (bcast3d, lambda n: [(rows(n), 32, 32), (rows(n), 1, 32), (32,)],
                lambda n: 8 * rows(n) * 1024 + 4 * 32 * rows(n) + 4 * 32),
    # Reductions over dimension 0 (bench/gpu_programs/): of rows(n) x 1024
    # and of 1024 x rows(n) (`_wide`), in pieces (a first kernel stores a
    # value per piece of each column, a second reduces them: a few hundred
    # KB more, not counted here); fused, the softmax moves 16 bytes per
    # element and so does the batch norm; the sum over the middle dimension
    # of 64 x rows(n) x 16.
    "column_sum": (column_sum, lambda n: [(rows(n), 1024)],
                   lambda n: 4 * rows(n) * 1024 + 4 * 1024),
    "column_sum_wide": (column_sum, lambda n: [(1024, rows(n))],
                        lambda n: 4 * rows(n) * 1024 + 4 * rows(n)),
    "column_softmax": (column_softmax, lambda n: [(rows(n), 1024)],
                       lambda n: 16 * rows(n) * 1024 + 20 * 1024),
    "column_softmax_wide": (column_softmax, lambda n: [(1024, rows(n))],
                            lambda n: 16 * rows(n) * 1024 + 20 * rows(n)),
    "column_norm": (column_norm, lambda n: [(rows(n), 1024)],
                    lambda n: 16 * rows(n) * 1024 + 20 * 1024),
    "middle_sum": (middle_sum, lambda n: [(64, rows(n), 16)],
                   lambda n: 4 * rows(n) * 1024 + 4 * 1024),
    # A batch norm over dimensions 0, 2 and 3 of rows(n) x 16 x 8 x 8
    # (NCHW): each reduction a kernel over the rows of 8 x 8 and one over
    # the channels' columns (in pieces), 16 bytes per element fused.
    "nchw_norm": (nchw_norm, lambda n: [(rows(n), 16, 8, 8)],
                  lambda n: 16 * rows(n) * 1024 + 20 * 16),
    # A layer norm's backward pass (examples/layer_norm_backward.mlir): dy
    # and x read by the rows' kernel (dx) and again by the column sums'
    # (dweight, dbias, in pieces), dx written: 20 bytes per element.
    "layer_norm_backward": (
        layer_norm_backward,
        lambda n: [(rows(n), 1024), (rows(n), 1024), (1024,), (rows(n), 1),
                   (rows(n), 1)],
        lambda n: 20 * rows(n) * 1024 + 16 * rows(n) + 12 * 1024),
    # A group norm (examples/group_norm.mlir) of rows(n) x 2 x 2 x 16 x 16:
    # the statistics' kernel reads x, the normalization's reads it again
    # with the mean and rstd of each (sample, group): 12 bytes per element.
    "group_norm": (group_norm,
                   lambda n: [(rows(n), 2, 2, 16, 16), (1, 2, 2, 1, 1), (1, 2, 2, 1, 1)],
                   lambda n: 12 * rows(n) * 1024 + 16 * rows(n) * 2 + 32),
}

def shape_of(shape):
    """(shape, dtype) of an input of PROGRAMS: half(shape) is float16."""
    return shape if isinstance(shape[-1], str) else (shape, "float32")


def elements(name, n):
    """The program's size at n: its largest input (fuse-gpu-harness's
    `elements` too)."""
    return max(math.prod(shape_of(s)[0]) for s in PROGRAMS[name][1](n))


def make_input(shape):
    """Uniform in [-1, 1) on the GPU; half(shape) for f16."""
    shape, dtype = shape_of(shape)
    return (torch.rand(shape, device="cuda") * 2 - 1).to(getattr(torch, dtype))


def sizes_of(text):
    """argparse type: comma-separated sizes (1e6 or 1000000), each >= 1."""
    try:
        sizes = [int(float(s)) for s in text.split(",") if s.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of sizes: {text!r}")
    if not sizes or min(sizes) < 1:
        raise argparse.ArgumentTypeError(f"sizes must be at least 1: {text!r}")
    return sizes


def programs_of(text):
    """argparse type: comma-separated names of PROGRAMS."""
    names = [n for n in text.split(",") if n]
    unknown = [n for n in names if n not in PROGRAMS]
    if unknown or not names:
        raise argparse.ArgumentTypeError(
            f"unknown program {', '.join(unknown) or '(none given)'}; "
            f"programs: {', '.join(PROGRAMS)}")
    return names


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=sizes_of, default="1000000,100000000",
                        metavar="N,...",
                        help="comma-separated sizes (default 1e6 and 1e8): N "
                             "elements for one-dimensional programs, else "
                             "N // 1024 rows of 1024 (1024 rows of N // 1024 "
                             "for the _wide ones)")
    parser.add_argument("--json", metavar="FILE",
                        help="append one JSON object per row to FILE")
    parser.add_argument("--budget", type=float, default=None, metavar="S",
                        help="start no new row after S seconds")
    parser.add_argument("--programs", type=programs_of, metavar="NAME,...",
                        help="comma-separated programs to run (default: all): "
                             + ", ".join(PROGRAMS))
    return parser.parse_args()


# Before PyTorch is looked for: --help and a bad option answer anywhere.
ARGS = parse_args() if __name__ == "__main__" else None

try:
    import torch
except ImportError:
    print("gpu_torch.py: PyTorch is not installed; skipping the comparison")
    sys.exit(0)

if not torch.cuda.is_available():
    print("gpu_torch.py: no CUDA device; skipping the comparison")
    sys.exit(0)

def time_ms(fn, args, repeats=20):
    for _ in range(3):
        fn(*args)
    torch.cuda.synchronize()
    times = []
    for _ in range(repeats):
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn(*args)
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop))
    times.sort()
    return times[len(times) // 2]


def kernels_per_call(fn, args):
    from torch.profiler import ProfilerActivity, profile

    fn(*args)
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        fn(*args)
        torch.cuda.synchronize()
    return sum(1 for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA)


def main():
    args = ARGS or parse_args()
    sizes = args.sizes
    started = time.monotonic()
    print(f"torch {torch.__version__} on {torch.cuda.get_device_name()}")
    print(f"{'program':16} {'variant':14} {'elements':>10} {'kernels':>7} {'ms':>10} "
          f"{'GB/s':>9} {'compile s':>9}")
    status = 0
    programs = {n: PROGRAMS[n] for n in args.programs or PROGRAMS}
    compiled_fns = {name: torch.compile(p[0], dynamic=False)
                    for name, p in programs.items()}
    # Largest size first: past the budget, the small sizes' rows go first.
    for n in sorted(sizes, reverse=True):
        for name, (fn, shapes, bytes_moved) in programs.items():
            compiled = compiled_fns[name]
            count = elements(name, n)
            inputs = [make_input(s) for s in shapes(n)]
            for variant, f in (("torch eager", fn), ("torch.compile", compiled)):
                row = {"name": name, "variant": variant, "size": n, "elements": count,
                       "torch": torch.__version__}
                if args.budget is not None and time.monotonic() - started > args.budget:
                    row["status"] = f"skipped: past the budget of {args.budget:.0f} s"
                    print(f"{name:16} {variant:14} {count:>10} {row['status']}")
                else:
                    try:
                        first = time.monotonic()
                        f(*inputs)
                        torch.cuda.synchronize()
                        compile_s = time.monotonic() - first
                        ms = time_ms(f, inputs)
                        kernels = kernels_per_call(f, inputs)
                        gbps = bytes_moved(n) / (ms * 1e6)
                        row.update(ms=ms, kernels=kernels, gbps=gbps, status="ok",
                                   bytes=bytes_moved(n))
                        if variant == "torch.compile":
                            row["compile_s"] = compile_s
                        print(f"{name:16} {variant:14} {count:>10} {kernels:>7} {ms:>10.4f} "
                              f"{gbps:>9.1f} "
                              f"{compile_s if variant == 'torch.compile' else 0:>9.1f}")
                    except Exception as error:  # one failing row must not hide the rest
                        status = 1
                        row["status"] = f"{type(error).__name__}: {error}".splitlines()[0]
                        print(f"{name:16} {variant:14} {count:>10} FAILED {row['status']}")
                if args.json:
                    with open(args.json, "a") as out:
                        out.write(json.dumps(row) + "\n")
                sys.stdout.flush()
            del inputs
    return status


if __name__ == "__main__":
    sys.exit(main())
