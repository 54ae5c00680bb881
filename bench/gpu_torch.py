"""PyTorch eager vs torch.compile on the programs of the GPU check.

Runs on the GPU machine (PyTorch with CUDA). For each program and size:
time per call (CUDA events, median of 20 after warm-up), kernels per call
(torch.profiler), GB/s from the bytes fuse's report counts for the fused
program (what a fused kernel must move). Prints one table.
"""
import sys

try:
    import torch
except ImportError:
    print("gpu_torch.py: PyTorch is not installed; skipping the comparison")
    sys.exit(0)

if not torch.cuda.is_available():
    print("gpu_torch.py: no CUDA device; skipping the comparison")
    sys.exit(0)


def add_relu(a, b):
    return torch.relu(a + b)


def mlp_epilogue(x, bias, residual):
    return (torch.nn.functional.gelu(x + bias, approximate="tanh") + residual) * 0.5


# name -> (function, input shapes for size n, bytes moved by the fused kernel)
PROGRAMS = {
    "add_relu": (add_relu, lambda n: [(n,), (n,)], lambda n: 12 * n),
    "mlp_epilogue": (
        mlp_epilogue,
        lambda n: [(n // 1024, 1024), (1024,), (n // 1024, 1024)],
        lambda n: 12 * n + 4 * 1024,
    ),
}


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
    print(f"{'program':16} {'variant':14} {'elements':>10} {'kernels':>7} {'ms':>10} {'GB/s':>9}")
    for name, (fn, shapes, bytes_moved) in PROGRAMS.items():
        compiled = torch.compile(fn)
        for n in (1024, 1048576, 67108864, 100663296):
            args = [torch.rand(s, device="cuda") * 2 - 1 for s in shapes(n)]
            for variant, f in (("torch eager", fn), ("torch.compile", compiled)):
                ms = time_ms(f, args)
                kernels = kernels_per_call(f, args)
                gbps = bytes_moved(n) / (ms * 1e6)
                print(f"{name:16} {variant:14} {n:>10} {kernels:>7} {ms:>10.4f} {gbps:>9.1f}")


if __name__ == "__main__":
    main()
