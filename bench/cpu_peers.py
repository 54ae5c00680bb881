#!/usr/bin/python3
"""fuse's CPU target against its peers (IREE, JAX, numpy; PyTorch when
installed) on the same programs.

Nine programs, each written once per system below (f32 unless said):

  add_relu      relu(a + b), 1e7 elements
  bias_gelu     gelu_tanh(x * w + b), x and w 4096x4096, b [4096] broadcast
                over the rows
  sigmoid_dag   t = a * b; relu(t) + sigmoid(t) * t, 1e7
  chain20       a 20-op DAG on a and b (6 mul, 7 add, 4 tanh, 2 exp, 1 max;
                intermediates used several times), 1e7
  mlp_epilogue  gelu_tanh(x + bias) + residual, 4096x4096, bias [4096]
                broadcast over the rows
  mixed_f16     f16(sigmoid(f32(a)) * f32(b) + f32(a)), a and b f16, 1e7
  softmax       softmax over the last axis, exp(x - max) / sum, x 8192x1024
  softmax_10    the same over 10 classes (a classifier's logits), x 1e6x10
  layer_norm    layer norm over the last axis as torch's (biased variance,
                eps 1e-5), x 8192x1024, weight and bias [1024]

The last three reduce each row; IREE gets them as a chain of linalg.generic
ops with a reduction iterator (the others are one elementwise generic).

and the systems, each in a worker process of its own (so that each has its
own thread pools and environment) that the script drives one call at a time:

  numpy          the numpy expression, as written naturally (one thread)
  fuse           fuse.compile(TEXT, target="cpu") from python/ (the package
                 over libfuse_capi.so): the time of a call, and the sum of
                 its kernels' times (Program.last_profile) as "kernels ms"
  fuse-eager     fuse's eager mode: fuse.compile(TEXT, target="cpu",
                 fusion=False), one kernel per op, on the same CPU target
                 and threads as fuse (all cores), so that fused and eager
                 sit side by side on every program
  fuse-1t        the same with FUSE_NUM_THREADS=1, when the build has
                 threads (fuse-run --threads); without, fuse runs on one
                 thread and this variant is left out
  iree           the same program in linalg.generic + arith + math on
                 tensors of the run's static shapes, compiled with
                 iree.compiler.compile_str (llvm-cpu,
                 --iree-llvmcpu-target-cpu=host) and run with iree.runtime's
                 local-task driver (default topology: one worker per
                 physical core); inputs on the device before timing
  iree-1t        the same with --task_topology_max_group_count=1
  jax            jax.jit of the jax.numpy / jax.nn expression (XLA:CPU
                 splits large elementwise fusions over its intra-op thread
                 pool, which uses every core); inputs device_put before
  jax-1core      the same pinned to one CPU (sched_setaffinity), with
                 XLA_FLAGS="--xla_cpu_multi_thread_eigen=false
                 intra_op_parallelism_threads=1"; XLA has no switch that
                 makes a jitted program use one thread
  torch, torch-1t, torch-compile
                 PyTorch eager (default threads, and torch.set_num_threads
                 (1)) and torch.compile (Inductor's C++ kernels), only when
                 torch imports in the virtual environment (--with-torch
                 installs the CPU wheel from PyTorch's own index, when that
                 can be reached)

Every system runs on the same inputs (uniform in [-2, 2], from one seed),
and each result is checked against numpy in float64 on those inputs:
max |got - ref|, max |got - ref| / |ref| where rtol * |ref| >= atol, and
err/tol, the largest |got - ref| / (atol + rtol * |ref|): FAIL above 1 (the
tolerance is per program, in the notes under the table).

Timing: after 3 warm-up calls, each repetition runs every system once, in
an order rotated by one every repetition (round robin), each for enough
back-to-back calls to last about 20 ms (the same count in every
repetition); the ms per call is the median over the repetitions. A call
includes what the user waits for: the result's allocation and the wait for
it to be ready (block_until_ready for JAX). GB/s is the bytes of the
inputs and the result (each read or written once) over that time.

% copy is that GB/s over the copy bandwidth, measured per program in the
same round robin as the systems, as if it were two more of them: the
driver process times np.copyto from one preallocated array of B/2 bytes
into another (B: the program's bytes, inputs + result, so that the bytes
read + written are the program's; the warm-up calls write the
destination, so no page faults are timed), "copy" split into one contiguous
part per CPU this process may use, copied by as many threads (numpy
releases the GIL while it copies; the calling thread copies one part),
and "copy-1t" in one part on the calling thread; the same warm-up, calls
per repetition and median over the repetitions as a system. Rows of one
thread (numpy, the -1t and -1core variants, and fuse when the build has
no threads) are set against copy-1t, the others against copy. The table
shows both as rows of each program; the line "relu(a + b) at N elements,
% of the copy bandwidth" after it uses add_relu's. The copy is also measured once before
and once after all the programs (an array of 6*N bytes, N: add_relu's
element count, best of 5), which the JSON keeps to show how much the
machine drifted over the run; % copy does not use it.

After the table, "fused vs eager (fuse, all threads)" gives, per program,
fuse-eager's ms over fuse's (> 1x: fused is faster).

When a chosen system needs a package this Python lacks (iree, jax: all
systems, by default), or with --venv or --with-torch, runs itself inside
bench/.venv-peers, a virtual environment of Debian's /usr/bin/python3 that
it makes when missing and fills from PyPI with what the chosen systems need
(iree-base-compiler, iree-base-runtime, jax) and numpy and matplotlib;
fuse's package is pure Python over ctypes and runs on that numpy. Systems
that need nothing more than numpy (--systems numpy,fuse) run with the
Python at hand. Prints a table, writes bench/results/cpu_peers.json, then
bench/cpu_peers.png (with --quick: cpu_peers_quick.json and .png), which
needs matplotlib and iree among the systems (without them, an explicit --png
is refused at start-up and the default plot is left out, with a note).
"""
import argparse
import datetime
import gc
import importlib.util
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import time
import traceback
from collections import namedtuple
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from common import (BUILD_HINT, add_build_dir, can_plot, cpu_model,  # noqa: E402
                    draw_plot, fuse_version, names_of, positive_int,
                    print_table, tool_ids, uncommitted_changes)

import numpy as np  # noqa: E402

VENV = ROOT / "bench/.venv-peers"
BASE_PYTHON = "/usr/bin/python3"
# What a system needs beyond numpy, by its name up to the first "-": module
# -> the PyPI package that brings it (jax brings the CPU jaxlib). The
# virtual environment gets the chosen systems' packages from PyPI (torch
# only with --with-torch, from TORCH_CPU_INDEX), and numpy and matplotlib.
PEER_MODULES = {"iree": {"iree.compiler": "iree-base-compiler",
                         "iree.runtime": "iree-base-runtime"},
                "jax": {"jax": "jax"},
                "torch": {"torch": "torch"}}
VENV_MODULES = {"numpy": "numpy", "matplotlib": "matplotlib"}
TORCH_CPU_INDEX = "https://download.pytorch.org/whl/cpu"

# Sizes: n elements for the 1-D programs, rows x cols for the 2-D ones,
# norm_rows x norm_cols for the row reductions (softmax, layer norm).
Sizes = namedtuple("Sizes", "n rows cols norm_rows norm_cols")
FULL = Sizes(10**7, 4096, 4096, 8192, 1024)
QUICK = Sizes(10**5, 256, 256, 512, 256)

WARMUP_CALLS = 3
MIN_REP_MS = 20.0    # back-to-back calls per repetition: about this long
MAX_CALLS_PER_REP = 100
GELU_C = 0.7978845608028654  # sqrt(2 / pi)


# ---------------------------------------------------------------------------
# The programs. Each one: fuse text (dynamic shapes, as users write it),
# numpy (also the float64 reference), JAX and PyTorch functions, and the
# body of IREE's linalg.generic (arith and math on the elements; its block
# arguments are named after the inputs, %out is the output's).

PROGRAMS = {}


def program(name, description, inputs, shapes, result, fuse, numpy_fn,
            jax_fn, torch_fn, iree_body, rtol=1e-5, atol=1e-6,
            reference_kw=None, iree_text=None):
    """inputs: (name, numpy dtype name); shapes: Sizes -> each input's
    shape; result: the result's numpy dtype name; reference_kw: keywords
    that make numpy_fn compute in float64 (for programs that cast);
    iree_text: for a program that is not one elementwise linalg.generic
    (iree_body None), a function of the input shapes that returns IREE's
    whole func.func @main."""
    PROGRAMS[name] = dict(
        description=description, inputs=inputs, shapes=shapes, result=result,
        fuse=fuse, numpy=numpy_fn, jax=jax_fn, torch=torch_fn,
        iree_body=iree_body, rtol=rtol, atol=atol,
        reference_kw=reference_kw or {}, iree_text=iree_text)


def gelu_tanh_numpy(h):
    return 0.5 * h * (1 + np.tanh(GELU_C * (h + 0.044715 * (h * h * h))))


def gelu_tanh_iree(h, out):
    """arith/math lines computing %out = gelu_tanh(%h), f32."""
    return f"""
    %{out}_h2 = arith.mulf %{h}, %{h} : f32
    %{out}_h3 = arith.mulf %{out}_h2, %{h} : f32
    %{out}_c = arith.constant 0.044715 : f32
    %{out}_k = arith.constant {GELU_C:.9g} : f32
    %{out}_half = arith.constant 0.5 : f32
    %{out}_one = arith.constant 1.0 : f32
    %{out}_0 = arith.mulf %{out}_h3, %{out}_c : f32
    %{out}_1 = arith.addf %{h}, %{out}_0 : f32
    %{out}_2 = arith.mulf %{out}_1, %{out}_k : f32
    %{out}_3 = math.tanh %{out}_2 : f32
    %{out}_4 = arith.addf %{out}_3, %{out}_one : f32
    %{out}_5 = arith.mulf %{h}, %{out}_half : f32
    %{out} = arith.mulf %{out}_5, %{out}_4 : f32"""


# 1. relu(a + b)

def add_relu_jax(a, b):
    import jax
    return jax.nn.relu(a + b)


def add_relu_torch(a, b):
    import torch
    return torch.relu(a + b)


program(
    "add_relu", "relu(a + b)",
    [("a", "float32"), ("b", "float32")], lambda s: [(s.n,), (s.n,)],
    "float32",
    """
func.func @add_relu(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %sum = fuse.add %a, %b : tensor<?xf32>
  %c = fuse.relu %sum : tensor<?xf32>
  return %c : tensor<?xf32>
}
""",
    lambda a, b: np.maximum(a + b, 0), add_relu_jax, add_relu_torch,
    """
    %zero = arith.constant 0.0 : f32
    %s = arith.addf %a, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32""")


# 2. gelu_tanh(x * w + b), b broadcast over the rows

def bias_gelu_jax(x, w, b):
    import jax
    return jax.nn.gelu(x * w + b, approximate=True)


def bias_gelu_torch(x, w, b):
    import torch
    return torch.nn.functional.gelu(x * w + b, approximate="tanh")


program(
    "bias_gelu", "gelu_tanh(x * w + b), b broadcast over the rows",
    [("x", "float32"), ("w", "float32"), ("b", "float32")],
    lambda s: [(s.rows, s.cols), (s.rows, s.cols), (s.cols,)], "float32",
    """
func.func @bias_gelu(%x: tensor<?x?xf32>, %w: tensor<?x?xf32>, %b: tensor<?xf32>) -> tensor<?x?xf32> {
  %0 = fuse.mul %x, %w : tensor<?x?xf32>
  %1 = fuse.add %0, %b : tensor<?x?xf32>, tensor<?xf32> -> tensor<?x?xf32>
  %2 = fuse.gelu %1 {approximate = "tanh"} : tensor<?x?xf32>
  return %2 : tensor<?x?xf32>
}
""",
    lambda x, w, b: gelu_tanh_numpy(x * w + b), bias_gelu_jax,
    bias_gelu_torch,
    """
    %m = arith.mulf %x, %w : f32
    %h = arith.addf %m, %b : f32""" + gelu_tanh_iree("h", "r") + """
    linalg.yield %r : f32""")


# 3. t = a * b; relu(t) + sigmoid(t) * t

def sigmoid_dag_numpy(a, b):
    t = a * b
    return np.maximum(t, 0) + 1 / (1 + np.exp(-t)) * t


def sigmoid_dag_jax(a, b):
    import jax
    t = a * b
    return jax.nn.relu(t) + jax.nn.sigmoid(t) * t


def sigmoid_dag_torch(a, b):
    import torch
    t = a * b
    return torch.relu(t) + torch.sigmoid(t) * t


program(
    "sigmoid_dag", "t = a * b; relu(t) + sigmoid(t) * t",
    [("a", "float32"), ("b", "float32")], lambda s: [(s.n,), (s.n,)],
    "float32",
    """
func.func @sigmoid_dag(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %t = fuse.mul %a, %b : tensor<?xf32>
  %r = fuse.relu %t : tensor<?xf32>
  %s = fuse.sigmoid %t : tensor<?xf32>
  %st = fuse.mul %s, %t : tensor<?xf32>
  %o = fuse.add %r, %st : tensor<?xf32>
  return %o : tensor<?xf32>
}
""",
    sigmoid_dag_numpy, sigmoid_dag_jax, sigmoid_dag_torch,
    """
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %t = arith.mulf %a, %b : f32
    %relu = arith.maximumf %t, %zero : f32
    %nt = arith.negf %t : f32
    %e = math.exp %nt : f32
    %d = arith.addf %e, %one : f32
    %s = arith.divf %one, %d : f32
    %st = arith.mulf %s, %t : f32
    %r = arith.addf %relu, %st : f32
    linalg.yield %r : f32""")


# 4. A 20-op DAG: (result, op, operands). Values stay bounded (|t19| < 200)
# for inputs in [-2, 2]: exp only sees tanh products and tanh.
CHAIN20 = [
    ("t0", "mul", "a", "b"), ("t1", "add", "a", "b"),
    ("t2", "tanh", "t0"), ("t3", "tanh", "t1"),
    ("t4", "mul", "t2", "t3"), ("t5", "exp", "t4"),
    ("t6", "add", "t5", "t2"), ("t7", "tanh", "t6"),
    ("t8", "max", "t7", "t3"), ("t9", "mul", "t8", "t1"),
    ("t10", "add", "t9", "t0"), ("t11", "tanh", "t10"),
    ("t12", "exp", "t11"), ("t13", "mul", "t12", "t4"),
    ("t14", "add", "t13", "t6"), ("t15", "add", "t14", "t11"),
    ("t16", "mul", "t15", "t15"), ("t17", "add", "t16", "t2"),
    ("t18", "add", "t17", "t3"), ("t19", "mul", "t18", "t5"),
]
assert len(CHAIN20) == 20


def chain20(m, a, b):
    """CHAIN20 with module m's functions (numpy, jax.numpy or torch)."""
    v = {"a": a, "b": b}
    for result, op, *args in CHAIN20:
        x = [v[name] for name in args]
        v[result] = {"mul": lambda: x[0] * x[1], "add": lambda: x[0] + x[1],
                     "tanh": lambda: m.tanh(x[0]), "exp": lambda: m.exp(x[0]),
                     "max": lambda: m.maximum(x[0], x[1])}[op]()
    return v[CHAIN20[-1][0]]


def chain20_jax(a, b):
    import jax.numpy as jnp
    return chain20(jnp, a, b)


def chain20_torch(a, b):
    import torch
    return chain20(torch, a, b)


def chain20_fuse():
    t = "tensor<?xf32>"
    lines = [f"func.func @chain20(%a: {t}, %b: {t}) -> {t} {{"]
    for result, op, *args in CHAIN20:
        operands = ", ".join(f"%{x}" for x in args)
        lines.append(f"  %{result} = fuse.{op} {operands} : {t}")
    lines += [f"  return %{CHAIN20[-1][0]} : {t}", "}", ""]
    return "\n".join(lines)


def chain20_iree():
    ops = {"mul": "arith.mulf", "add": "arith.addf", "tanh": "math.tanh",
           "exp": "math.exp", "max": "arith.maximumf"}
    lines = [f"    %{result} = {ops[op]} "
             f"{', '.join('%' + x for x in args)} : f32"
             for result, op, *args in CHAIN20]
    return "\n" + "\n".join(lines) + \
        f"\n    linalg.yield %{CHAIN20[-1][0]} : f32"


program(
    "chain20", "20-op DAG: 6 mul, 7 add, 4 tanh, 2 exp, 1 max, shared "
    "intermediates",
    [("a", "float32"), ("b", "float32")], lambda s: [(s.n,), (s.n,)],
    "float32", chain20_fuse(), lambda a, b: chain20(np, a, b), chain20_jax,
    chain20_torch, chain20_iree(), rtol=1e-4, atol=1e-5)


# 5. MLP epilogue: gelu_tanh(x + bias) + residual

def mlp_epilogue_jax(x, bias, residual):
    import jax
    return jax.nn.gelu(x + bias, approximate=True) + residual


def mlp_epilogue_torch(x, bias, residual):
    import torch
    return torch.nn.functional.gelu(x + bias, approximate="tanh") + residual


program(
    "mlp_epilogue", "gelu_tanh(x + bias) + residual, bias broadcast over "
    "the rows",
    [("x", "float32"), ("bias", "float32"), ("residual", "float32")],
    lambda s: [(s.rows, s.cols), (s.cols,), (s.rows, s.cols)], "float32",
    """
func.func @mlp_epilogue(%x: tensor<?x?xf32>, %bias: tensor<?xf32>, %residual: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = fuse.add %x, %bias : tensor<?x?xf32>, tensor<?xf32> -> tensor<?x?xf32>
  %1 = fuse.gelu %0 {approximate = "tanh"} : tensor<?x?xf32>
  %2 = fuse.add %1, %residual : tensor<?x?xf32>
  return %2 : tensor<?x?xf32>
}
""",
    lambda x, bias, residual: gelu_tanh_numpy(x + bias) + residual,
    mlp_epilogue_jax, mlp_epilogue_torch,
    """
    %h = arith.addf %x, %bias : f32""" + gelu_tanh_iree("h", "g") + """
    %r = arith.addf %g, %residual : f32
    linalg.yield %r : f32""")


# 6. Mixed precision: f16 in and out, f32 inside.

def mixed_f16_numpy(a, b, compute=np.float32, out=np.float16):
    x, y = a.astype(compute), b.astype(compute)
    return (1 / (1 + np.exp(-x)) * y + x).astype(out)


def mixed_f16_jax(a, b):
    import jax
    import jax.numpy as jnp
    x, y = a.astype(jnp.float32), b.astype(jnp.float32)
    return (jax.nn.sigmoid(x) * y + x).astype(jnp.float16)


def mixed_f16_torch(a, b):
    import torch
    x, y = a.float(), b.float()
    return (torch.sigmoid(x) * y + x).half()


program(
    "mixed_f16", "f16(sigmoid(f32(a)) * f32(b) + f32(a)), a and b f16",
    [("a", "float16"), ("b", "float16")], lambda s: [(s.n,), (s.n,)],
    "float16",
    """
func.func @mixed_f16(%a: tensor<?xf16>, %b: tensor<?xf16>) -> tensor<?xf16> {
  %x = fuse.cast %a : tensor<?xf16> to tensor<?xf32>
  %y = fuse.cast %b : tensor<?xf16> to tensor<?xf32>
  %s = fuse.sigmoid %x : tensor<?xf32>
  %p = fuse.mul %s, %y : tensor<?xf32>
  %q = fuse.add %p, %x : tensor<?xf32>
  %o = fuse.cast %q : tensor<?xf32> to tensor<?xf16>
  return %o : tensor<?xf16>
}
""",
    mixed_f16_numpy, mixed_f16_jax, mixed_f16_torch,
    """
    %one = arith.constant 1.0 : f32
    %x = arith.extf %a : f16 to f32
    %y = arith.extf %b : f16 to f32
    %nx = arith.negf %x : f32
    %e = math.exp %nx : f32
    %d = arith.addf %e, %one : f32
    %s = arith.divf %one, %d : f32
    %p = arith.mulf %s, %y : f32
    %q = arith.addf %p, %x : f32
    %r = arith.truncf %q : f32 to f16
    linalg.yield %r : f16""",
    # The result is rounded to f16: half an f16 ulp is 2^-11 relative.
    rtol=1e-3, atol=1e-4,
    reference_kw=dict(compute=np.float64, out=np.float64))


# 7. softmax over the last axis: exp(x - max) / sum(exp(x - max)).

def softmax_numpy(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def softmax_jax(x):
    import jax
    return jax.nn.softmax(x, axis=-1)


def softmax_torch(x):
    import torch
    return torch.softmax(x, dim=-1)


def row_maps(*kinds):
    """affine maps on (d0, d1) for linalg.generic: "x" the whole 2-D
    element, "row" the row's value (d0), "col" the column's (d1)."""
    exprs = {"x": "d0, d1", "row": "d0", "col": "d1"}
    return ", ".join(f"affine_map<(d0, d1) -> ({exprs[k]})>" for k in kinds)


def softmax_iree(shapes):
    """Three generics: the rows' max and sum of exp(x - max) (reduction
    iterators, from linalg.fill of their identities) and the quotient."""
    (rows, cols), = shapes
    x, r = f"tensor<{rows}x{cols}xf32>", f"tensor<{rows}xf32>"
    return f"""
func.func @main(%x_in: {x}) -> {x} {{
  %neg_inf = arith.constant 0xFF800000 : f32
  %zero = arith.constant -0.0 : f32
  %row = tensor.empty() : {r}
  %max_init = linalg.fill ins(%neg_inf : f32) outs(%row : {r}) -> {r}
  %max = linalg.generic {{indexing_maps = [{row_maps("x", "row")}],
                         iterator_types = ["parallel", "reduction"]}}
      ins(%x_in : {x}) outs(%max_init : {r}) {{
  ^bb0(%x: f32, %acc: f32):
    %m = arith.maximumf %acc, %x : f32
    linalg.yield %m : f32
  }} -> {r}
  %sum_init = linalg.fill ins(%zero : f32) outs(%row : {r}) -> {r}
  %sum = linalg.generic {{indexing_maps = [{row_maps("x", "row", "row")}],
                         iterator_types = ["parallel", "reduction"]}}
      ins(%x_in, %max : {x}, {r}) outs(%sum_init : {r}) {{
  ^bb0(%x: f32, %m: f32, %acc: f32):
    %d = arith.subf %x, %m : f32
    %e = math.exp %d : f32
    %s = arith.addf %acc, %e : f32
    linalg.yield %s : f32
  }} -> {r}
  %init = tensor.empty() : {x}
  %y = linalg.generic {{indexing_maps = [{row_maps("x", "row", "row", "x")}],
                       iterator_types = ["parallel", "parallel"]}}
      ins(%x_in, %max, %sum : {x}, {r}, {r}) outs(%init : {x}) {{
  ^bb0(%x: f32, %m: f32, %s: f32, %out: f32):
    %d = arith.subf %x, %m : f32
    %e = math.exp %d : f32
    %q = arith.divf %e, %s : f32
    linalg.yield %q : f32
  }} -> {x}
  return %y : {x}
}}
"""


program(
    "softmax", "softmax over the last axis, exp(x - max) / sum",
    [("x", "float32")], lambda s: [(s.norm_rows, s.norm_cols)], "float32",
    """
func.func @softmax(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %max = fuse.reduce_max %x {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %shifted = fuse.sub %x, %max : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  %e = fuse.exp %shifted : tensor<?x?xf32>
  %sum = fuse.reduce_sum %e {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %y = fuse.div %e, %sum : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}
""",
    softmax_numpy, softmax_jax, softmax_torch, None, iree_text=softmax_iree,
    # Every term of the sum is positive, so the documented bound of an f32
    # sum, (n - 1) * 2^-24 * sum|e|, is relative to the sum: 6.1e-5 for
    # n = 1024 (1.5e-5 for --quick's 256); exp of the rounded x - max
    # (|x - max| <= 4) and the division add a few 2^-24. rtol 1e-4 covers
    # it; atol only for the smallest results (about 7e-5 here).
    rtol=1e-4, atol=1e-9)


# 7b. The same softmax over the 10 classes of a classifier's logits: short
# rows, a million of them (n / 10).
program(
    "softmax_10", "softmax over 10 classes, exp(x - max) / sum",
    [("x", "float32")], lambda s: [(s.n // 10, 10)], "float32",
    PROGRAMS["softmax"]["fuse"], softmax_numpy, softmax_jax, softmax_torch,
    None, iree_text=softmax_iree, rtol=1e-5, atol=1e-9)


# 8. Layer norm over the last axis, as torch.nn.functional.layer_norm:
# (x - mean) / sqrt(var + eps) * weight + bias, biased variance, eps 1e-5.

LAYER_NORM_EPS = 1e-5


def layer_norm_numpy(x, weight, bias):
    mean = x.mean(axis=-1, keepdims=True)
    centered = x - mean
    var = (centered * centered).mean(axis=-1, keepdims=True)
    return centered / np.sqrt(var + LAYER_NORM_EPS) * weight + bias


def layer_norm_jax(x, weight, bias):
    import jax
    import jax.numpy as jnp
    mean = jnp.mean(x, axis=-1, keepdims=True)
    centered = x - mean
    var = jnp.mean(centered * centered, axis=-1, keepdims=True)
    return centered * jax.lax.rsqrt(var + LAYER_NORM_EPS) * weight + bias


def layer_norm_torch(x, weight, bias):
    import torch
    return torch.nn.functional.layer_norm(x, weight.shape, weight, bias,
                                          LAYER_NORM_EPS)


def layer_norm_iree(shapes):
    """Three generics: the rows' sum of x, their sum of (x - mean)^2
    (reduction iterators) and the normalized, scaled and shifted result."""
    (rows, cols), (w_cols,), (b_cols,) = shapes
    assert w_cols == b_cols == cols
    x, r = f"tensor<{rows}x{cols}xf32>", f"tensor<{rows}xf32>"
    c = f"tensor<{cols}xf32>"
    return f"""
func.func @main(%x_in: {x}, %weight_in: {c}, %bias_in: {c}) -> {x} {{
  %zero = arith.constant -0.0 : f32
  %row = tensor.empty() : {r}
  %sum_init = linalg.fill ins(%zero : f32) outs(%row : {r}) -> {r}
  %sum = linalg.generic {{indexing_maps = [{row_maps("x", "row")}],
                         iterator_types = ["parallel", "reduction"]}}
      ins(%x_in : {x}) outs(%sum_init : {r}) {{
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %acc, %x : f32
    linalg.yield %s : f32
  }} -> {r}
  %sq_init = linalg.fill ins(%zero : f32) outs(%row : {r}) -> {r}
  %sq = linalg.generic {{indexing_maps = [{row_maps("x", "row", "row")}],
                        iterator_types = ["parallel", "reduction"]}}
      ins(%x_in, %sum : {x}, {r}) outs(%sq_init : {r}) {{
  ^bb0(%x: f32, %s: f32, %acc: f32):
    %n = arith.constant {float(cols)!r} : f32
    %mean = arith.divf %s, %n : f32
    %d = arith.subf %x, %mean : f32
    %d2 = arith.mulf %d, %d : f32
    %a = arith.addf %acc, %d2 : f32
    linalg.yield %a : f32
  }} -> {r}
  %init = tensor.empty() : {x}
  %y = linalg.generic {{indexing_maps = [{row_maps("x", "row", "row", "col", "col", "x")}],
                       iterator_types = ["parallel", "parallel"]}}
      ins(%x_in, %sum, %sq, %weight_in, %bias_in : {x}, {r}, {r}, {c}, {c})
      outs(%init : {x}) {{
  ^bb0(%x: f32, %s: f32, %q: f32, %w: f32, %b: f32, %out: f32):
    %n = arith.constant {float(cols)!r} : f32
    %eps = arith.constant {LAYER_NORM_EPS:.6e} : f32
    %mean = arith.divf %s, %n : f32
    %var = arith.divf %q, %n : f32
    %ve = arith.addf %var, %eps : f32
    %rstd = math.rsqrt %ve : f32
    %d = arith.subf %x, %mean : f32
    %norm = arith.mulf %d, %rstd : f32
    %scaled = arith.mulf %norm, %w : f32
    %y = arith.addf %scaled, %b : f32
    linalg.yield %y : f32
  }} -> {x}
  return %y : {x}
}}
"""


program(
    "layer_norm", "layer norm over the last axis (biased variance, eps "
    "1e-5), weight and bias [cols]",
    [("x", "float32"), ("weight", "float32"), ("bias", "float32")],
    lambda s: [(s.norm_rows, s.norm_cols), (s.norm_cols,), (s.norm_cols,)],
    "float32",
    """
func.func @layer_norm(%x: tensor<?x?xf32>, %weight: tensor<?xf32>, %bias: tensor<?xf32>) -> tensor<?x?xf32> {
  %eps = fuse.constant 1.0e-05 : tensor<f32>
  %mean = fuse.reduce_mean %x {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %centered = fuse.sub %x, %mean : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  %sq = fuse.mul %centered, %centered : tensor<?x?xf32>
  %var = fuse.reduce_mean %sq {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %ve = fuse.add %var, %eps : tensor<?x1xf32>, tensor<f32> -> tensor<?x1xf32>
  %rstd = fuse.rsqrt %ve : tensor<?x1xf32>
  %norm = fuse.mul %centered, %rstd : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  %scaled = fuse.mul %norm, %weight : tensor<?x?xf32>, tensor<?xf32> -> tensor<?x?xf32>
  %y = fuse.add %scaled, %bias : tensor<?x?xf32>, tensor<?xf32> -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}
""",
    layer_norm_numpy, layer_norm_jax, layer_norm_torch, None,
    iree_text=layer_norm_iree,
    # The documented bounds, n = 1024 columns of [-2, 2] (mean |x| = 1,
    # var about 4/3, so rstd about 0.87), |weight| <= 2: the mean is off by
    # at most (n - 1) * 2^-24 * mean|x| = 6.1e-5; the variance (a sum of
    # squares, positive terms, and first-order insensitive to the mean's
    # error) by 6.1e-5 relative, rstd by half that. So |y - ref| <=
    # |w| * rstd * (6.1e-5 + |x - mean| * 3.1e-5) + a few 2^-24 * |y|,
    # about 2.1e-4 at worst (|x - mean| = 2, |w| = 2): atol 2.5e-4 and
    # rtol 1e-4. The errors seen are far below (sums of rounding errors
    # that cancel); a variance divided by n - 1 instead of n (torch's
    # unbiased one) is off by up to 1.8e-3 on these inputs and fails.
    rtol=1e-4, atol=2.5e-4)


MLIR_TYPES = {"float32": "f32", "float16": "f16"}


def iree_text(spec, shapes):
    """func.func @main on the static shapes: one linalg.generic over the
    result's shape; an input of lower rank is indexed by the innermost
    dimensions (broadcast over the others), as numpy does. A program with
    its own iree_text (the row reductions) gives its whole function."""
    if spec.get("iree_text"):
        return spec["iree_text"](shapes)
    out_shape = np.broadcast_shapes(*shapes)
    rank = len(out_shape)
    dims = [f"d{i}" for i in range(rank)]

    def tensor(shape, dtype):
        return f"tensor<{'x'.join(map(str, shape))}x{MLIR_TYPES[dtype]}>"

    def amap(shape):
        return (f"affine_map<({', '.join(dims)}) -> "
                f"({', '.join(dims[rank - len(shape):])})>")

    names = [name for name, _ in spec["inputs"]]
    types = [tensor(s, dtype) for s, (_, dtype) in zip(shapes, spec["inputs"])]
    out_type = tensor(out_shape, spec["result"])
    params = ", ".join(f"%{n}_in: {t}" for n, t in zip(names, types))
    block = ", ".join(f"%{n}: {MLIR_TYPES[dtype]}"
                      for n, (_, dtype) in zip(names, spec["inputs"]))
    maps = ", ".join([amap(s) for s in shapes] + [amap(out_shape)])
    iterators = ", ".join(['"parallel"'] * rank)
    return f"""
func.func @main({params}) -> {out_type} {{
  %init = tensor.empty() : {out_type}
  %result = linalg.generic {{indexing_maps = [{maps}],
                            iterator_types = [{iterators}]}}
      ins({', '.join(f'%{n}_in' for n in names)} : {', '.join(types)})
      outs(%init : {out_type}) {{
  ^bb0({block}, %out: {MLIR_TYPES[spec['result']]}):{spec['iree_body']}
  }} -> {out_type}
  return %result : {out_type}
}}
"""


def make_inputs(spec, shapes, seed):
    """The inputs, uniform in [-2, 2], the same in every process (one numpy,
    one seed)."""
    rng = np.random.default_rng(seed)
    return [(rng.random(shape, dtype=np.float32) * 4 - 2).astype(dtype)
            for shape, (_, dtype) in zip(shapes, spec["inputs"])]


# ---------------------------------------------------------------------------
# The systems, as run inside a worker process.

def fuse_threads_supported(build):
    """Whether this build's fuse-run has --threads (and so the runtime
    FUSE_NUM_THREADS)."""
    try:
        text = subprocess.run([str(build / "bin/fuse-run"), "--help"],
                              capture_output=True, text=True).stdout
    except OSError:
        return False
    return re.search(r"^\s*--threads\b", text, re.M) is not None


class NumpyRunner:
    def __init__(self, system, build):
        self.threads = "1"

    def versions(self):
        return {"numpy": np.__version__}

    def prepare(self, spec, inputs, vmfb):
        return lambda: spec["numpy"](*inputs)

    def to_numpy(self, result):
        return result


class FuseRunner:
    def __init__(self, system, build):
        sys.path.insert(0, str(ROOT / "python"))
        os.environ.setdefault("FUSE_LIB_DIR", str(build / "lib"))
        import fuse
        self.fuse = fuse
        self.build = build
        self.program = None
        # fuse-eager: one kernel per op (fusion off), all threads like fuse.
        self.fusion = system != "fuse-eager"
        if not fuse_threads_supported(build):
            self.threads = "1 (no threads in this build)"
        elif system == "fuse-1t":
            self.threads = "1 (FUSE_NUM_THREADS=1)"
        else:
            self.threads = f"all ({os.cpu_count()})"

    def versions(self):
        library = self.fuse.library_path()
        return {"fuse": fuse_version(),
                "libfuse_capi": tool_ids([library])[Path(library).name],
                "library": str(library), "numpy": np.__version__}

    def prepare(self, spec, inputs, vmfb):
        self.program = self.fuse.compile(spec["fuse"], target="cpu",
                                         fusion=self.fusion)
        program = self.program
        return lambda: program(*inputs)[0]

    def kernel_ms(self):
        return sum(k["ms"] for k in self.program.last_profile)

    def to_numpy(self, result):
        return result


class IreeRunner:
    def __init__(self, system, build):
        import iree.runtime as rt
        self.rt = rt
        if system == "iree-1t":
            rt.flags.parse_flags("--task_topology_max_group_count=1")
            self.threads = "1 (task_topology_max_group_count=1)"
        else:
            self.threads = f"{physical_cores()} (physical cores)"
        # The driver (and its task executor) is made once per process, from
        # the flags parsed so far.
        self.config = rt.Config("local-task")

    def versions(self):
        import iree.compiler.version as cv
        import iree.runtime.version as rv
        return {"iree-base-compiler": cv.VERSION,
                "iree-base-runtime": rv.VERSION,
                "iree_revision": cv.REVISIONS.get("IREE")}

    def prepare(self, spec, inputs, vmfb):
        rt = self.rt
        context = rt.SystemContext(config=self.config)
        context.add_vm_module(rt.VmModule.copy_buffer(
            context.instance, Path(vmfb).read_bytes()))
        main = context.modules.module["main"]
        args = [rt.asdevicearray(self.config.device, x) for x in inputs]
        self.context = context  # keeps the module alive
        return lambda: main(*args)

    def to_numpy(self, result):
        return result.to_host()


class JaxRunner:
    def __init__(self, system, build):
        if system == "jax-1core":
            cpu = min(os.sched_getaffinity(0))
            os.sched_setaffinity(0, {cpu})
            self.threads = f"1 core (pinned to CPU {cpu})"
        else:
            self.threads = f"all ({len(os.sched_getaffinity(0))})"
        import jax
        self.jax = jax

    def versions(self):
        import jaxlib
        return {"jax": self.jax.__version__, "jaxlib": jaxlib.__version__,
                "xla_flags": os.environ.get("XLA_FLAGS", "")}

    def prepare(self, spec, inputs, vmfb):
        fn = self.jax.jit(spec["jax"])
        args = [self.jax.device_put(x) for x in inputs]
        return lambda: fn(*args).block_until_ready()

    def to_numpy(self, result):
        return np.asarray(result)


class TorchRunner:
    def __init__(self, system, build):
        import torch
        self.torch = torch
        self.compile = system == "torch-compile"
        if system == "torch-1t":
            torch.set_num_threads(1)
        self.threads = str(torch.get_num_threads())

    def versions(self):
        return {"torch": self.torch.__version__}

    def prepare(self, spec, inputs, vmfb):
        torch = self.torch
        fn = torch.compile(spec["torch"]) if self.compile else spec["torch"]
        args = [torch.from_numpy(x) for x in inputs]

        def call():
            with torch.inference_mode():
                return fn(*args)
        return call

    def to_numpy(self, result):
        return result.numpy()


RUNNERS = {"numpy": NumpyRunner, "fuse": FuseRunner,
           "fuse-eager": FuseRunner, "fuse-1t": FuseRunner,
           "iree": IreeRunner, "iree-1t": IreeRunner, "jax": JaxRunner,
           "jax-1core": JaxRunner, "torch": TorchRunner,
           "torch-1t": TorchRunner, "torch-compile": TorchRunner}

# Each system's environment, on top of the driver's.
WORKER_ENV = {
    "fuse-1t": {"FUSE_NUM_THREADS": "1"},
    "jax-1core": {"XLA_FLAGS": "--xla_cpu_multi_thread_eigen=false "
                               "intra_op_parallelism_threads=1"},
    "torch-1t": {"OMP_NUM_THREADS": "1"},
}


def worker_main(system, build):
    """Serves the driver one JSON line per request on stdin/stdout."""
    replies = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)  # what libraries print goes to the worker's log
    runner = RUNNERS[system](system, build)
    call = kernel_ms = None
    for line in sys.stdin:
        request = json.loads(line)
        op = request["op"]
        try:
            if op == "hello":
                reply = {"threads": runner.threads,
                         "versions": runner.versions()}
            elif op == "setup":
                call = None
                spec = PROGRAMS[request["program"]]
                shapes = [tuple(s) for s in request["shapes"]]
                inputs = make_inputs(spec, shapes, request["seed"])
                start = time.perf_counter()
                call = runner.prepare(spec, inputs, request.get("vmfb"))
                kernel_ms = getattr(runner, "kernel_ms", None)
                result = call()  # includes the JIT compile of JAX, torch
                setup_s = time.perf_counter() - start
                warm = []
                for _ in range(WARMUP_CALLS - 1):
                    t0 = time.perf_counter()
                    result = call()
                    warm.append((time.perf_counter() - t0) * 1e3)
                np.save(request["result_path"], runner.to_numpy(result))
                del result
                reply = {"setup_s": setup_s, "warm_ms": warm}
            elif op == "run":
                reply = time_calls(call, request["calls"], kernel_ms)
            elif op == "drop":
                call = kernel_ms = None
                gc.collect()
                reply = {}
            elif op == "quit":
                break
            else:
                reply = {"error": f"unknown request {op!r}"}
        except Exception as e:  # reported to the driver, which goes on
            reply = {"error": f"{type(e).__name__}: {e}"[:3000],
                     "traceback": traceback.format_exc()[-3000:]}
        replies.write(json.dumps(reply) + "\n")


def time_calls(call, calls, kernel_ms):
    """Wall ms per call over `calls` back-to-back calls, the process's CPU
    time over the wall time (threads at work), and the kernels' ms."""
    gc.collect()
    gc.disable()
    try:
        kernels = 0.0
        cpu0, t0 = time.process_time(), time.perf_counter()
        for _ in range(calls):
            result = call()
            del result  # frees it: part of the cost of a call
            if kernel_ms:
                kernels += kernel_ms()
        wall = time.perf_counter() - t0
        cpu = time.process_time() - cpu0
    finally:
        gc.enable()
    return {"ms": wall * 1e3 / calls, "cpu_per_wall": cpu / wall,
            "kernel_ms": kernels / calls if kernel_ms else None}


# ---------------------------------------------------------------------------
# The driver.

class Worker:
    """A system's worker process; request() sends one JSON request and
    returns the reply, or {"error": ...} once the process has died."""

    def __init__(self, system, build, scratch):
        self.system = system
        self.log = scratch / f"{system}.log"
        env = dict(os.environ, JAX_PLATFORMS="cpu", PYTHONUNBUFFERED="1")
        env.pop("FUSE_NUM_THREADS", None)  # fuse: its default, all cores
        env.update(WORKER_ENV.get(system, {}))
        with open(self.log, "w") as log:
            self.process = subprocess.Popen(
                [sys.executable, str(Path(__file__).resolve()), "--worker",
                 system, "--build-dir", str(build)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log,
                env=env, text=True, bufsize=1)
        self.dead = None

    def request(self, op, **fields):
        if self.dead:
            return {"error": self.dead}
        try:
            self.process.stdin.write(json.dumps(dict(op=op, **fields)) + "\n")
            line = self.process.stdout.readline()
        except (BrokenPipeError, OSError):
            line = ""
        if not line:
            self.process.wait()
            tail = self.log.read_text(errors="replace")[-1500:]
            self.dead = (f"worker exited ({self.process.returncode}); its "
                         f"log ends:\n{tail}")
            return {"error": self.dead}
        return json.loads(line)

    def close(self):
        if not self.dead:
            try:
                self.process.stdin.write(json.dumps({"op": "quit"}) + "\n")
                self.process.stdin.close()
            except OSError:
                pass
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def physical_cores():
    """Distinct (physical id, core id) pairs in /proc/cpuinfo."""
    cores, physical = set(), "0"
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        key, _, value = (s.strip() for s in line.partition(":"))
        if key == "physical id":
            physical = value
        elif key == "core id":
            cores.add((physical, value))
    return len(cores) or os.cpu_count()


def copy_bandwidth(nbytes, threads, runs=5):
    """GB/s (bytes read + written) of np.copyto of an array of nbytes,
    split into `threads` contiguous parts copied by as many threads, best of
    `runs` after a warm-up."""
    n = nbytes // 4
    src = np.ones(n, np.float32)
    dst = np.zeros(n, np.float32)  # touched, so no page faults are timed
    bounds = np.linspace(0, n, threads + 1).astype(np.int64)

    def part(i):
        np.copyto(dst[bounds[i]:bounds[i + 1]], src[bounds[i]:bounds[i + 1]])

    best = math.inf
    with ThreadPoolExecutor(threads) as pool:
        for run in range(runs + 1):
            t0 = time.perf_counter()
            list(pool.map(part, range(threads)))
            if run:
                best = min(best, time.perf_counter() - t0)
    return 2 * n * 4 / best / 1e9


class CopyReference:
    """The copy bandwidth reference of one program, timed by the driver in
    the round robin like a system: np.copyto from one preallocated array of
    nbytes / 2 bytes into another (so nbytes read + written), split into
    `threads` contiguous parts (64-byte aligned), one per thread; the
    calling thread copies the first part, a pool of threads - 1 the others
    (numpy releases the GIL while it copies). The warm-up calls write the
    destination, so no page faults are timed."""

    def __init__(self, system, nbytes, threads):
        self.system = system
        self.threads = (f"all ({threads})" if threads > 1 else
                        "1 (the driver's thread)")
        n = nbytes // 2
        self.nbytes = 2 * n  # read + written
        self.src = np.ones(n, np.uint8)
        self.dst = np.zeros(n, np.uint8)
        bounds = [min(n, i * n // threads // 64 * 64)
                  for i in range(threads)] + [n]
        self.parts = [(self.dst[lo:hi], self.src[lo:hi])
                      for lo, hi in zip(bounds, bounds[1:])]
        self.pool = ThreadPoolExecutor(threads - 1) if threads > 1 else None

    def call(self):
        pending = [self.pool.submit(np.copyto, *part)
                   for part in self.parts[1:]]
        np.copyto(*self.parts[0])
        for future in pending:
            future.result()

    def warm_ms(self):
        """The times of the warm-up calls (the pool's threads start in the
        first), as a worker's setup reports them."""
        warm = []
        for _ in range(WARMUP_CALLS):
            t0 = time.perf_counter()
            self.call()
            warm.append((time.perf_counter() - t0) * 1e3)
        return warm[1:]

    def run(self, calls):
        return time_calls(self.call, calls, None)

    def close(self):
        if self.pool:
            self.pool.shutdown()
        self.src = self.dst = self.parts = None


def calls_per_rep(warm_ms):
    """Back-to-back calls per repetition: about MIN_REP_MS by the fastest
    warm-up call, at most MAX_CALLS_PER_REP."""
    return max(1, min(MAX_CALLS_PER_REP,
                      math.ceil(MIN_REP_MS / max(min(warm_ms), 1e-3))))


def finite_or_none(x):
    return float(x) if np.isfinite(x) else None


def check(result, reference, dtype, rtol, atol):
    """Errors of result against the float64 reference: the largest absolute
    one; the largest relative one where the bound is relative (rtol * |ref|
    >= atol); the largest error over its bound atol + rtol * |ref|, which is
    at most 1 when every element is within it (ok)."""
    out = {"dtype": str(result.dtype), "shape": list(result.shape)}
    if result.shape != reference.shape or str(result.dtype) != dtype:
        out.update(ok=False, why=f"got {result.dtype}{list(result.shape)}, "
                   f"want {dtype}{list(reference.shape)}")
        return out
    diff = np.abs(result.astype(np.float64) - reference)
    magnitude = np.abs(reference)
    bound = atol + rtol * magnitude
    bad = ~(diff <= bound)  # NaN counts as bad
    relative = magnitude >= atol / rtol
    out.update(max_abs=finite_or_none(np.max(diff)),
               max_rel=finite_or_none(np.max(diff[relative] /
                                             magnitude[relative]))
               if relative.any() else None,
               err_over_tol=finite_or_none(np.max(diff / bound)),
               bad_elements=int(np.count_nonzero(bad)), ok=not bad.any())
    if not out["ok"]:
        at = np.unravel_index(np.argmax(bad), bad.shape)
        out["why"] = (f"{out['bad_elements']} element(s) out of bounds, first "
                      f"at {tuple(int(i) for i in at)}: got "
                      f"{float(result[at])!r}, want {float(reference[at])!r}")
    return out


def importable(module):
    """Whether this Python finds module (and the packages above it)."""
    try:
        return importlib.util.find_spec(module) is not None
    except ImportError:
        return False


FIND_PROBE = """import importlib.util, sys
def found(m):
    try:
        return importlib.util.find_spec(m) is not None
    except ImportError:
        return False
print(" ".join(m for m in sys.argv[1:] if not found(m)))
"""


def lacking(systems, found):
    """The peers of the systems whose modules are not found(module): peer
    (iree, jax, torch) -> the packages that bring the missing ones."""
    lacks = {}
    for peer in dict.fromkeys(s.split("-")[0] for s in systems):
        modules = PEER_MODULES.get(peer, {})
        packages = [modules[m] for m in modules if not found(m)]
        if packages:
            lacks[peer] = packages
    return lacks


def needs(lacks):
    """lacking()'s answer in words."""
    return "; ".join(f"{peer} needs the package"
                     f"{'s' if len(packages) > 1 else ''} "
                     f"{', '.join(packages)}"
                     for peer, packages in lacks.items())


def ensure_venv(venv, systems, with_torch, torch_index):
    """Makes the virtual environment when missing and installs what is
    missing in it for the systems. Returns its python."""
    python = venv / "bin/python"

    def missing(modules):
        if not python.exists():
            return modules
        out = subprocess.run([str(python), "-c", FIND_PROBE] + modules,
                             capture_output=True, text=True)
        return out.stdout.split() if out.returncode == 0 else modules

    if not with_torch and any(s.startswith("torch") for s in systems) and \
            missing(["torch"]):
        sys.exit(f"cpu_peers.py: error: torch needs the package torch, "
                 f"which {venv} lacks: --with-torch installs PyTorch's CPU "
                 "wheel; or leave the torch systems out of --systems")
    if not python.exists():
        print(f"making {venv} with {BASE_PYTHON} -m venv", file=sys.stderr)
        if subprocess.run([BASE_PYTHON, "-m", "venv", str(venv)]).returncode:
            sys.exit(f"could not make {venv} (Debian: apt-get install "
                     "python3-venv)")
    modules = dict(VENV_MODULES)
    for peer in dict.fromkeys(s.split("-")[0] for s in systems):
        if peer != "torch":
            modules.update(PEER_MODULES.get(peer, {}))
    packages = list(dict.fromkeys(modules[m]
                                  for m in missing(list(modules))))
    if packages:
        print(f"installing into {venv}: {' '.join(packages)}",
              file=sys.stderr)
        if subprocess.run([str(python), "-m", "pip", "install"] +
                          packages).returncode:
            sys.exit(f"cpu_peers.py: error: pip could not install "
                     f"{' '.join(packages)} into {venv} (is PyPI out of "
                     "reach?); --systems numpy,fuse needs none of them")
    if with_torch and missing(["torch"]):
        print(f"--with-torch: installing torch (CPU) from {torch_index}",
              file=sys.stderr)
        if subprocess.run([str(python), "-m", "pip", "install", "--retries",
                           "1", "--timeout", "30", "torch", "--index-url",
                           torch_index]).returncode:
            print(f"--with-torch: could not install torch from "
                  f"{torch_index} (unreachable?); going on without PyTorch. "
                  "PyPI's own torch (--torch-index https://pypi.org/simple) "
                  "is the CUDA build, about 6 GB with its libraries.",
                  file=sys.stderr)
    return python


def compile_iree(spec, shapes, path):
    """Compiles the program's IREE form for this CPU; returns seconds."""
    import iree.compiler as compiler
    start = time.perf_counter()
    vmfb = compiler.compile_str(
        iree_text(spec, shapes), target_backends=["llvm-cpu"],
        extra_args=["--iree-llvmcpu-target-cpu=host"])
    path.write_bytes(vmfb)
    return time.perf_counter() - start


def bench_program(name, spec, sizes, workers, args, scratch, cpus):
    """Sets every worker up on the program, checks the results, times the
    repetitions round robin, with the copy on all `cpus` and on one thread
    (CopyReference) as two more participants. Returns the program's
    record."""
    shapes = spec["shapes"](sizes)
    out_shape = np.broadcast_shapes(*shapes)
    itemsize = {n: np.dtype(n).itemsize for n in ("float32", "float16")}
    nbytes = sum(math.prod(s) * itemsize[d]
                 for s, (_, d) in zip(shapes, spec["inputs"])) + \
        math.prod(out_shape) * itemsize[spec["result"]]
    record = {"description": spec["description"],
              "shapes": [list(s) for s in shapes],
              "dtypes": [d for _, d in spec["inputs"]],
              "result_dtype": spec["result"], "bytes": nbytes,
              "rtol": spec["rtol"], "atol": spec["atol"], "systems": {}}
    print(f"{name}: {spec['description']}, shapes "
          f"{' '.join('x'.join(map(str, s)) for s in shapes)}",
          file=sys.stderr)

    vmfb = scratch / f"{name}.vmfb"
    iree_error = None
    if any(w.system.startswith("iree") for w in workers):
        try:
            record["iree_compile_s"] = compile_iree(spec, shapes, vmfb)
        except Exception as e:
            iree_error = f"IREE compile failed: {e}"[:3000]

    inputs = make_inputs(spec, shapes, args.seed)
    reference = spec["numpy"](*[x.astype(np.float64) for x in inputs],
                              **spec["reference_kw"])
    del inputs

    ready = []
    for w in workers:
        entry = record["systems"].setdefault(w.system, {})
        if w.system.startswith("iree") and iree_error:
            entry["error"] = iree_error
            continue
        path = scratch / f"{name}.{w.system}.npy"
        reply = w.request("setup", program=name,
                          shapes=[list(s) for s in shapes], seed=args.seed,
                          vmfb=str(vmfb), result_path=str(path))
        if "error" in reply:
            entry["error"] = reply["error"]
            print(f"  {w.system}: {reply['error'].splitlines()[0]}",
                  file=sys.stderr)
            continue
        entry["setup_s"] = reply["setup_s"]
        entry["check"] = check(np.load(path), reference, spec["result"],
                               spec["rtol"], spec["atol"])
        path.unlink()
        entry["calls_per_rep"] = calls_per_rep(reply["warm_ms"])
        ready.append(w)
    del reference

    # The copy reference: two more participants of the round robin, run by
    # this process (the workers wait meanwhile, as they do for each other).
    copies = [CopyReference("copy", nbytes, cpus),
              CopyReference("copy-1t", nbytes, 1)]
    record["copy"] = {}
    for c in copies:
        record["copy"][c.system] = {"threads": c.threads,
                                    "bytes": c.nbytes,
                                    "calls_per_rep": calls_per_rep(
                                        c.warm_ms())}
    participants = [(w.system, record["systems"][w.system],
                     lambda calls, w=w: w.request("run", calls=calls))
                    for w in ready] + \
        [(c.system, record["copy"][c.system], c.run) for c in copies]

    samples = {system: [] for system, _, _ in participants}
    for rep in range(args.reps):
        shift = rep % len(participants)
        for system, entry, run in (participants[shift:] +
                                   participants[:shift]):
            if "error" in entry:
                continue
            reply = run(entry["calls_per_rep"])
            if "error" in reply:
                entry["error"] = reply["error"]
                continue
            samples[system].append(reply)
    for w in workers:
        w.request("drop")
    for c in copies:
        c.close()

    def summarize(entry, runs, moved):
        """The medians over the repetitions; moved: bytes per call."""
        ms = [r["ms"] for r in runs]
        entry.update(
            ms=float(np.median(ms)), ms_min=min(ms), ms_max=max(ms),
            ms_all=ms,
            cpu_per_wall=float(np.median([r["cpu_per_wall"] for r in runs])),
            gbps=moved / (float(np.median(ms)) * 1e6))
        if runs[0]["kernel_ms"] is not None:
            entry["kernel_ms"] = float(np.median([r["kernel_ms"]
                                                  for r in runs]))

    for c in copies:
        if samples[c.system]:
            summarize(record["copy"][c.system], samples[c.system], c.nbytes)
    iree = None
    for w in ready:
        entry = record["systems"][w.system]
        runs = samples[w.system]
        if "error" in entry or not runs:
            continue
        summarize(entry, runs, nbytes)
        one_thread = w.system.endswith(("-1t", "-1core")) or \
            w.system == "numpy" or w.threads.startswith("1 ")
        copy = record["copy"]["copy-1t" if one_thread else "copy"]
        entry["copy_reference"] = "copy-1t" if one_thread else "copy"
        entry["copy_gbps"] = copy["gbps"]
        entry["pct_copy"] = 100 * entry["gbps"] / entry["copy_gbps"]
        if w.system == "iree":
            iree = entry["ms"]
    for entry in record["systems"].values():
        if iree and "ms" in entry:
            entry["vs_iree"] = iree / entry["ms"]
    fused = record["systems"].get("fuse", {})
    eager = record["systems"].get("fuse-eager", {})
    if "ms" in fused and "ms" in eager:
        record["fused_vs_eager"] = eager["ms"] / fused["ms"]
    return record


def number(x, spec):
    return "-" if x is None else format(x, spec)


def plot(results, systems, path, title):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    names = list(results)
    fig, ax = plt.subplots(figsize=(max(8, 1.8 * len(names)), 5))
    width = 0.8 / max(len(systems), 1)
    for j, system in enumerate(systems):
        xs, ys, failed = [], [], []
        for i, name in enumerate(names):
            entry = results[name]["systems"].get(system, {})
            if "vs_iree" in entry:
                xs.append(i + (j - (len(systems) - 1) / 2) * width)
                ys.append(entry["vs_iree"])
                failed.append(not entry["check"]["ok"])
        bars = ax.bar(xs, ys, width, label=system)
        for bar, bad in zip(bars, failed):
            if bad:
                bar.set_hatch("xx")
    ax.axhline(1, color="grey", linewidth=0.8)
    ax.set_yscale("log")
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels(names, rotation=20, ha="right")
    ax.set_ylabel("speed vs IREE, default threads (IREE ms / ms), log")
    ax.grid(True, axis="y", which="both", alpha=0.3)
    ax.legend(fontsize=8, ncol=2)
    ax.set_title(title, fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help=f"small sizes ({QUICK.n} elements, "
                        f"{QUICK.rows}x{QUICK.cols}, "
                        f"{QUICK.norm_rows}x{QUICK.norm_cols} for softmax "
                        "and layer_norm) and 3 repetitions: a "
                        "smoke test, not a measurement")
    parser.add_argument("--reps", type=positive_int,
                        help="repetitions (default 15; 3 with --quick)")
    parser.add_argument("--only", type=names_of(PROGRAMS, "program"),
                        help="programs, comma separated, of " +
                        ", ".join(PROGRAMS))
    parser.add_argument("--systems", type=names_of(RUNNERS, "system"),
                        help="systems, comma separated, of " +
                        ", ".join(RUNNERS) + " (default: all available; "
                        "numpy and the fuse systems need no virtual "
                        "environment)")
    parser.add_argument("--seed", type=int, default=0)
    add_build_dir(parser)
    parser.add_argument("--venv", type=Path,
                        help="run in this virtual environment (made when "
                        "missing) even when the systems need nothing this "
                        "Python lacks (default: bench/.venv-peers when "
                        "they do)")
    parser.add_argument("--with-torch", action="store_true",
                        help="install PyTorch's CPU wheel into the virtual "
                        "environment if missing (from --torch-index)")
    parser.add_argument("--torch-index", default=TORCH_CPU_INDEX)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--png", type=Path,
                        help="the plot (default bench/cpu_peers.png; needs "
                        "matplotlib, and iree among the systems)")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    build = args.build_dir.resolve()

    if args.worker:
        worker_main(args.worker, build)
        return

    # The chosen systems (by default every one but PyTorch's, which run
    # when torch imports), and what they need, before any environment.
    threaded = fuse_threads_supported(build)
    if args.systems and "fuse-1t" in args.systems and not threaded:
        parser.error("fuse-1t: this build's fuse-run has no --threads (its "
                     "CPU target runs on one thread)")
    chosen = args.systems or [s for s in RUNNERS
                              if (s != "fuse-1t" or threaded) and
                              not s.startswith("torch")]
    lib_path = Path(os.environ.get("FUSE_LIB_DIR", build / "lib")) / \
        "libfuse_capi.so"
    if any(s.startswith("fuse") for s in chosen) and not lib_path.is_file():
        parser.error(f"{lib_path}: no such file ({BUILD_HINT})")
    if "iree" not in chosen and args.png:
        parser.error("--png: the plot is of the speed against iree, which "
                     "is not among the systems")

    # Run inside the virtual environment when a chosen system needs a
    # package that this Python lacks (or when asked to): make it, then
    # start again there.
    venv = (args.venv or VENV).resolve()
    restarted = os.environ.pop("FUSE_CPU_PEERS_REEXEC", None)
    if Path(sys.prefix).resolve() != venv:
        if restarted:
            sys.exit(f"restarted in {venv} but sys.prefix is {sys.prefix}")
        lacks = lacking(chosen, importable)
        if lacks or args.venv or args.with_torch:
            if lacks:
                print(f"{needs(lacks)}, which {sys.executable} lacks: "
                      f"running in {venv}", file=sys.stderr)
            python = ensure_venv(venv, chosen, args.with_torch,
                                 args.torch_index)
            os.environ["FUSE_CPU_PEERS_REEXEC"] = "1"
            os.execv(str(python), [str(python),
                                   str(Path(__file__).resolve())] +
                     sys.argv[1:])
    elif not restarted:
        # Started with the environment's own Python: fill it all the same.
        ensure_venv(venv, chosen, args.with_torch, args.torch_index)
        importlib.invalidate_caches()
    lacks = lacking(chosen, importable)
    if lacks:
        packages = [p for peer, ps in lacks.items() if peer != "torch"
                    for p in ps]
        how = ([f"{sys.executable} -m pip install {' '.join(packages)}"]
               if packages else []) + \
            (["--with-torch installs PyTorch's CPU wheel"]
             if "torch" in lacks else [])
        sys.exit(f"cpu_peers.py: error: {needs(lacks)}, which "
                 f"{sys.executable} cannot import: {'; '.join(how)}; or "
                 f"leave {', '.join(lacks)} out of --systems")

    sizes = QUICK if args.quick else FULL
    reps = args.reps = args.reps or (3 if args.quick else 15)
    suffix = "_quick" if args.quick else ""
    json_path = args.json or ROOT / f"bench/results/cpu_peers{suffix}.json"
    png_path = args.png or ROOT / f"bench/cpu_peers{suffix}.png"
    names = args.only or list(PROGRAMS)
    if "iree" in chosen:
        plotting = can_plot(
            parser, "--png", args.png is not None,
            f"{sys.executable} -m pip install matplotlib"
            if sys.prefix != sys.base_prefix else
            "apt-get install python3-matplotlib")
    else:
        plotting = False
        print("note: no plot: it is of the speed against iree, which is "
              "not among the systems", file=sys.stderr)

    has_torch = importable("torch")
    systems = [s for s in RUNNERS
               if (s != "fuse-1t" or threaded) and
               (not s.startswith("torch") or has_torch)]
    notes = []
    if not threaded:
        notes.append("fuse: this build's CPU target runs on one thread "
                     "(fuse-run has no --threads), so there is no fuse-1t")
    if not has_torch and not args.systems:
        notes.append(f"PyTorch: {sys.executable} cannot import torch" +
                     (f" (--with-torch could not install it from "
                      f"{args.torch_index})" if args.with_torch else
                      " (--with-torch installs the CPU wheel)"))
    if args.systems:
        systems = [s for s in systems if s in args.systems]

    started = time.time()
    load_before = os.getloadavg()
    commit = fuse_version()
    tools_before = tool_ids([lib_path])
    cpus = len(os.sched_getaffinity(0))
    # The copy bandwidth, before and after the programs: only a record of
    # the machine's drift; % copy uses each program's interleaved copy.
    copy_bytes = 6 * sizes.n
    copy_runs = [{"all": copy_bandwidth(copy_bytes, cpus),
                  "one": copy_bandwidth(copy_bytes, 1)}]

    scratch_dir = tempfile.TemporaryDirectory(
        prefix="fuse-cpu-peers-",
        dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
    scratch = Path(scratch_dir.name)
    workers, info = [], {}
    try:
        for system in systems:
            w = Worker(system, build, scratch)
            reply = w.request("hello")
            if "error" in reply:
                notes.append(f"{system}: did not start: "
                             f"{reply['error'].splitlines()[0]}")
                print(f"{system}: {reply['error']}", file=sys.stderr)
                w.close()
                continue
            w.threads = reply["threads"]
            info[system] = reply
            workers.append(w)
        results = {}
        for name in names:
            results[name] = bench_program(name, PROGRAMS[name], sizes,
                                          workers, args, scratch, cpus)
    finally:
        for w in workers:
            w.close()
        logs = {w.system: w.log.read_text(errors="replace")[-2000:]
                for w in workers}
        scratch_dir.cleanup()
    copy_runs.append({"all": copy_bandwidth(copy_bytes, cpus),
                      "one": copy_bandwidth(copy_bytes, 1)})
    load_after = os.getloadavg()
    tools_after = tool_ids([lib_path])

    # The table.
    systems = [w.system for w in workers]
    header = ["program", "system", "threads", "cpu/wall", "ms/call",
              "min..max", "vs IREE", "GB/s", "% copy", "kernels ms",
              "max abs err", "max rel err", "err/tol", "check"]
    rows = []
    for name, record in results.items():
        for system in systems:
            e = record["systems"].get(system, {})
            threads = info[system]["threads"].split(" (")[0]
            if "ms" not in e:
                rows.append([name, system, threads] + [""] * 10 + ["ERROR"])
                continue
            c = e["check"]
            rows.append([
                name, system, threads, f"{e['cpu_per_wall']:.2f}",
                f"{e['ms']:.3f}", f"{e['ms_min']:.3f}..{e['ms_max']:.3f}",
                f"{e['vs_iree']:.2f}x" if "vs_iree" in e else "-",
                f"{e['gbps']:.1f}", f"{e['pct_copy']:.0f}%",
                f"{e['kernel_ms']:.3f}" if "kernel_ms" in e else "",
                number(c.get("max_abs"), ".2g"),
                number(c.get("max_rel"), ".2g"),
                number(c.get("err_over_tol"), ".2f"),
                "ok" if c["ok"] else "FAIL"])
        # The copy reference, measured in the same round robin.
        for system, e in record.get("copy", {}).items():
            if "ms" not in e:
                continue
            rows.append([
                name, system, e["threads"].split(" (")[0],
                f"{e['cpu_per_wall']:.2f}", f"{e['ms']:.3f}",
                f"{e['ms_min']:.3f}..{e['ms_max']:.3f}", "-",
                f"{e['gbps']:.1f}", "100%", "", "", "", "", "ref"])
    print()
    print(f"CPU: {cpu_model()}, {os.cpu_count()} logical CPUs, "
          f"{physical_cores()} physical cores, {cpus} usable. Load average "
          f"{load_before[0]:.2f} before, {load_after[0]:.2f} after.")
    print("% copy: GB/s over the copy rows of the same program, timed in "
          "the same round robin as the systems and summarized the same way "
          "(median ms): np.copyto between two preallocated arrays of half "
          "the program's bytes (so its bytes read + written), by the driver "
          f"process, in {cpus} contiguous parts on as many threads (copy) "
          "or in one part on one thread (copy-1t); one-thread rows are set "
          "against copy-1t, the others against copy.")
    print(f"Not used for % copy, the machine's drift: np.copyto of "
          f"{copy_bytes / 1e6:.3g} MB (read + written), best of 5, before | "
          f"after all the programs: all {cpus} threads "
          f"{copy_runs[0]['all']:.1f} | {copy_runs[1]['all']:.1f} GB/s, one "
          f"thread {copy_runs[0]['one']:.1f} | {copy_runs[1]['one']:.1f} "
          "GB/s.")
    print(f"ms/call: median over {reps} repetitions (systems round robin); "
          "vs IREE: IREE (default threads) ms / ms, > 1x is faster; cpu/wall:"
          " CPU time of the worker process over wall time; kernels ms: the "
          "fuse kernels' own time in the call.")
    print("Errors against numpy in float64: max rel err where rtol * |ref| "
          ">= atol; err/tol: the largest |got - ref| / (atol + rtol * |ref|),"
          " FAIL above 1.")
    versions = {}
    for system in systems:
        versions.update(info[system]["versions"])
    print("Versions: " + ", ".join(f"{k} {v}" for k, v in versions.items()
                                   if k not in ("library", "xla_flags")))
    print()
    print_table(header, rows)
    print()
    for name, record in results.items():
        print(f"{name}: {record['description']}; tolerance |got - ref| <= "
              f"{record['atol']:g} + {record['rtol']:g} * |ref| against "
              "numpy in float64")
        for system, e in record["systems"].items():
            if "check" in e and not e["check"]["ok"]:
                print(f"  FAIL {system}: {e['check']['why']}")
            if "ms" not in e:
                error = e.get("error", "no result").strip()
                print(f"  ERROR {system}: " +
                      "\n    ".join(error.splitlines()[:8])[:800])
    ratios = [(name, record["fused_vs_eager"])
              for name, record in results.items()
              if "fused_vs_eager" in record]
    if ratios:
        fuse_threads = info["fuse"]["threads"].split(" (")[0]
        label = "all threads" if fuse_threads.startswith("all") else \
            "one thread: this build has no threads"
        # A ratio whose fuse or fuse-eager result failed its check is
        # marked: its times are not of a correct program.
        failed = {name for name, _ in ratios
                  if not all(results[name]["systems"][s]["check"]["ok"]
                             for s in ("fuse", "fuse-eager"))}
        print(f"\nfused vs eager (fuse, {label}): " +
              ", ".join(f"{name} {ratio:.2f}x" +
                        (" (FAIL)" if name in failed else "")
                        for name, ratio in ratios) +
              " (eager ms / fused ms, > 1x: fused is faster)")
    add_relu = results.get("add_relu", {})
    if add_relu.get("systems"):
        n = add_relu["shapes"][0][0]
        copy = add_relu.get("copy", {})
        reference = ", ".join(
            f"{c} {copy[c]['gbps']:.1f} GB/s" for c in ("copy", "copy-1t")
            if "gbps" in copy.get(c, {}))
        print(f"\nrelu(a + b) at {n:.0e} elements, % of the copy bandwidth: " +
              ", ".join(f"{s} {e['pct_copy']:.0f}%"
                        for s, e in add_relu["systems"].items()
                        if "pct_copy" in e) +
              f" (against the copy in the same round robin: {reference})")
    for note in notes:
        print("note: " + note)
    if tools_after != tools_before:
        print("warning: libfuse_capi.so changed during the run (rebuilt?)")
    if args.quick:
        print("(--quick: small sizes, a smoke test; the times mean little)")

    json_path.parent.mkdir(parents=True, exist_ok=True)
    json_path.write_text(json.dumps({
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(),
        "commit": commit,
        "dirty": uncommitted_changes(),
        "quick": args.quick, "reps": reps, "seed": args.seed,
        "cpu": {"model": cpu_model(), "logical": os.cpu_count(),
                "physical_cores": physical_cores(), "usable": cpus},
        "load_average_before": load_before, "load_average_after": load_after,
        "seconds": time.time() - started,
        "copy_bandwidth_gbps": {
            "method": "per program, in the round robin of the systems and "
                      "summarized the same way (results[program]['copy']): "
                      "np.copyto between two preallocated arrays of half "
                      "the program's bytes (read + written counted), by the "
                      f"driver, in {cpus} contiguous parts on as many "
                      "threads (copy) or in one part on one thread "
                      "(copy-1t); pct_copy is gbps over copy_gbps, the "
                      "median of the copy named in copy_reference",
            "before_after": {
                "method": f"np.copyto of {copy_bytes} bytes (read + written "
                          "counted), split over threads, best of 5, before "
                          "and after all the programs; not used for "
                          "pct_copy",
                "before": copy_runs[0], "after": copy_runs[1]}},
        "python": sys.version.split()[0], "versions": versions,
        "systems": {s: {"threads": info[s]["threads"],
                        "versions": info[s]["versions"],
                        "environment": WORKER_ENV.get(s, {})}
                    for s in systems},
        "fuse_threads_supported": threaded,
        "tools": tools_before, "tools_changed_during_run":
            tools_after != tools_before,
        "results": results, "notes": notes, "worker_logs": logs,
    }, indent=2) + "\n")
    print(f"\nwrote {json_path}")
    title = (f"CPU peers{' (--quick)' if args.quick else ''}: "
             f"{cpu_model()}, {cpus} CPUs, load {load_before[0]:.1f} -> "
             f"{load_after[0]:.1f}")
    draw_plot(plotting, lambda path: plot(results, systems, path, title),
              png_path)


if __name__ == "__main__":
    main()
