#!/usr/bin/python3
"""A survey of the cpu target against numpy: 112 programs, each timed as
fuse's kernels and as numpy's expression, with its result checked.

The programs, each at one size (mostly tens of MB of data, more than the
caches hold): elementwise chains, biases over a last axis of 1 to 4096,
per-channel NCHW and NHWC scale and shift, outer products and 3-D to 5-D
broadcasts, transposes (which fuse refuses), reductions over every axis of
2-D to 4-D arrays and full ones, softmax, log_softmax, layer and RMS norms
and batch-norm statistics, and f16, f64, int32 and bool programs. Each is
one Python function that `fuse.jit(fn, target="cpu", profile=True)` traces
and numpy runs as it is (or a numpy reference, where fn uses one of fuse's
own ops such as `fuse.softmax`).

Each program's first call compiles it; a program that fuse refuses (the
call raises) is listed with the error's first line. The result is checked
against numpy's on the same inputs (np.allclose in float64; reductions with
atol relative to the largest |result|, and bool and int32 results exactly);
a MISMATCH does not stop the run. After 3 warm-up calls, `--rounds` rounds
(default 7), each a fuse call then a numpy call (interleaved, so the
machine's load falls on both alike):

- fuse: the sum over the call's kernels of their ms in `last_profile` (the
  kernels only: not the call's overhead in Python), median over the
  rounds, on fuse's default threads: every core (2 on the two-core
  machine the survey was written on), or FUSE_NUM_THREADS;
- numpy: the wall time of the expression, one thread, allocation of its
  result and temporaries included, min over the rounds.

fuse keeps its result buffers from call to call, while numpy allocates
each one afresh, and glibc gets a large block with mmap and pays a page
fault per page on first touch (an add of 16M f32: 10.5 ms instead of 6.0
ms). To compare kernels with kernels, the script starts itself again with
MALLOC_MMAP_MAX_=0 (and no heap trimming), so that glibc reuses heap memory;
`--default-malloc` keeps glibc's defaults. `--cold` adds rounds (at least
3) with a 96 MB buffer rewritten before each call, to evict the caches.

Prints the table, worst fuse/numpy first, then the refused programs and the
mismatches; writes bench/results/cpu_survey.json (`--json`) with every
round's times.
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
import traceback
import zlib
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from common import (add_build_dir, cpu_model, fuse_library, fuse_version,  # noqa: E402
                    import_fuse, positive_int, print_table, tool_ids)

WARM = 3
COLD_BYTES = 96_000_000  # rewritten before each cold call (above the L3)

f16, f32, f64, i32 = np.float16, np.float32, np.float64, np.int32

# Inputs: each program's own generator, seeded by its name (run_case), so
# that its inputs do not depend on which programs --only selects.
_rng = np.random.default_rng(0)


def rn(*shape, dtype=f32, scale=1.0):
    return (_rng.standard_normal(shape, dtype=np.float32) * scale).astype(dtype)


def ru(*shape, dtype=f32, lo=0.0, hi=1.0):
    return _rng.uniform(lo, hi, shape).astype(dtype)


def ri(*shape, lo=-100, hi=100):
    return _rng.integers(lo, hi, shape, dtype=np.int32)


def cases(fuse):
    """The programs, in order: dicts of name, shape (a description), make
    (the inputs), fn (what fuse traces), ref (numpy's, fn by default) and
    tol (a key of TOLS). fuse: the package, for its ops in fn."""
    table = []

    def case(name, shape, make, fn, ref=None, tol="ew"):
        table.append(dict(name=name, shape=shape, make=make, fn=fn,
                          ref=ref or fn, tol=tol))

    # ----------------------------------------------------------- elementwise
    case("add_relu", "16M f32 1-D", lambda: (rn(16_000_000), rn(16_000_000)),
         lambda a, b: np.maximum(a + b, 0))
    case("add (copy-like)", "16M f32 1-D", lambda: (rn(16_000_000), rn(16_000_000)),
         lambda a, b: a + b)
    case("fma_tanh_exp chain", "2000x2000 f32", lambda: (rn(2000, 2000), rn(2000, 2000), rn(2000, 2000)),
         lambda a, b, c: np.tanh(a * b + c) * np.exp(-np.abs(a)), tol="tr")
    case("gelu_tanh", "8M f32", lambda: (rn(8_000_000),),
         lambda x: fuse.gelu(x, approximate="tanh"),
         ref=lambda x: 0.5 * x * (1 + np.tanh(np.float32(math.sqrt(2 / math.pi)) * (x + np.float32(0.044715) * x * x * x))),
         tol="tr")
    case("silu", "8M f32", lambda: (rn(8_000_000),),
         lambda x: fuse.silu(x), ref=lambda x: x / (1 + np.exp(-x)), tol="tr")
    case("hypot-ish sqrt(a*a+b*b)", "8M f32", lambda: (rn(8_000_000), rn(8_000_000)),
         lambda a, b: np.sqrt(a * a + b * b), tol="tr")
    case("scalar consts x*2.5+1", "16M f32", lambda: (rn(16_000_000),),
         lambda x: x * 2.5 + 1.0)
    case("scalar runtime arg x*s+t", "16M f32", lambda: (rn(16_000_000), 2.5, 1.0),
         lambda x, s, t: x * s + t, ref=lambda x, s, t: x * np.float32(s) + np.float32(t))
    case("clip+where leaky", "8M f32", lambda: (rn(8_000_000),),
         lambda x: np.where(x > 0, np.clip(x, -1.0, 3.0), x * 0.1))

    # --------------------------------------------- bias over the last axis
    for L in (1, 3, 7, 16, 49, 100, 768, 1000, 4096):
        R = max(1, round(4_000_000 / L))
        case(f"bias_relu last axis L={L}", f"{R}x{L} + ({L},)",
             (lambda R=R, L=L: (rn(R, L), rn(L))),
             lambda x, b: np.maximum(x + b, 0))

    # -------------------------------------------------- NCHW per-channel
    for (N, C, H) in ((2048, 2048, 1), (64, 1280, 7), (32, 640, 14), (8, 160, 56)):
        case(f"NCHW scale_shift_relu {H}x{H}", f"{N}x{C}x{H}x{H} * (C,1,1)",
             (lambda N=N, C=C, H=H: (rn(N, C, H, H), rn(C, 1, 1), rn(C, 1, 1))),
             lambda x, g, b: np.maximum(x * g + b, 0))
    case("NCHW batchnorm-infer 4 params 14x14", "32x640x14x14, 4x(C,1,1)",
         lambda: (rn(32, 640, 14, 14), rn(640, 1, 1), ru(640, 1, 1, lo=0.5, hi=2), rn(640, 1, 1), rn(640, 1, 1)),
         lambda x, m, v, g, b: (x - m) * (1.0 / np.sqrt(v + 1e-5)) * g + b, tol="tr")
    case("NHWC per-channel scale_shift", "32x28x28x160 * (160,)",
         lambda: (rn(32, 28, 28, 160), rn(160), rn(160)),
         lambda x, g, b: np.maximum(x * g + b, 0))
    case("NCHW per-channel via (1,C,1,1)", "64x1280x7x7 + (1,C,1,1)",
         lambda: (rn(64, 1280, 7, 7), rn(1, 1280, 1, 1)),
         lambda x, b: x + b)

    # -------------------------------------------------------- outer etc.
    case("outer a(N,1)*b(1,M)", "2000x1 * 1x2000", lambda: (rn(2000, 1), rn(1, 2000)),
         lambda a, b: a * b)
    case("outer a(N,1)*b(1,M) big", "4000x1 * 1x4000", lambda: (rn(4000, 1), rn(1, 4000)),
         lambda a, b: a * b)
    case("outer a(N,1)+b(M,) exp", "2000x1 + (2000,)", lambda: (rn(2000, 1), rn(2000)),
         lambda a, b: np.exp(a + b), tol="tr")
    case("col bias x + c(N,1)", "4000x1000 + 4000x1", lambda: (rn(4000, 1000), rn(4000, 1)),
         lambda x, c: x + c)
    case("col bias x + c(N,1) short rows", "1Mx4 + 1Mx1", lambda: (rn(1_000_000, 4), rn(1_000_000, 1)),
         lambda x, c: x + c)
    case("3-D x(B,T,D)+pos(T,D)", "32x512x256 + 512x256", lambda: (rn(32, 512, 256), rn(512, 256)),
         lambda x, p: x + p)
    case("3-D x(B,T,D)*mask(B,T,1)", "32x512x256 * 32x512x1", lambda: (rn(32, 512, 256), rn(32, 512, 1)),
         lambda x, m: x * m)
    case("3-D x(B,T,D)*w(B,1,D)", "32x512x256 * 32x1x256", lambda: (rn(32, 512, 256), rn(32, 1, 256)),
         lambda x, w: x * w)
    case("3-D both-sides a(B,1,D)+b(1,T,D)", "64x1x256 + 1x256x256", lambda: (rn(64, 1, 256), rn(1, 256, 256)),
         lambda a, b: a + b)
    case("4-D attn mask x+(B,1,1,T)", "8x8x256x256 + 8x1x1x256", lambda: (rn(8, 8, 256, 256), rn(8, 1, 1, 256)),
         lambda x, m: x + m)
    case("4-D head bias x+(1,H,T,T)", "8x8x256x256 + 1x8x256x256", lambda: (rn(8, 8, 256, 256), rn(1, 8, 256, 256)),
         lambda x, m: x + m)
    case("5-D x*(1,C,1,1,1)", "4x32x16x32x64 * 1x32x1x1x1", lambda: (rn(4, 32, 16, 32, 64), rn(1, 32, 1, 1, 1)),
         lambda x, g: x * g)
    case("5-D x+(N,1,D,1,W)", "4x32x16x32x64 + 4x1x16x1x64", lambda: (rn(4, 32, 16, 32, 64), rn(4, 1, 16, 1, 64)),
         lambda x, g: x + g)
    case("transpose x + x.T (expect refusal)", "2000x2000", lambda: (rn(2000, 2000),),
         lambda x: x + x.T)
    case("transpose np.transpose(x) (expect refusal)", "2000x2000", lambda: (rn(2000, 2000),),
         lambda x: x + np.transpose(x))

    # ---------------------------------------------------------- reductions
    X2 = (4000, 1000)
    for op in ("sum", "max", "mean", "var"):
        for ax in (0, 1):
            case(f"{op} axis={ax} 2-D", "4000x1000 f32", (lambda: (rn(*X2),)),
                 (lambda x, op=op, ax=ax: getattr(x, op)(axis=ax)), tol="red")
    case("sum axis=1 keepdims 2-D", "4000x1000 f32", lambda: (rn(*X2),),
         lambda x: x.sum(axis=1, keepdims=True), tol="red")
    case("sum axis=0 keepdims 2-D", "4000x1000 f32", lambda: (rn(*X2),),
         lambda x: x.sum(axis=0, keepdims=True), tol="red")
    case("sum axis=1 short rows", "1Mx4 f32", lambda: (rn(1_000_000, 4),),
         lambda x: x.sum(axis=1), tol="red")
    case("sum axis=0 long/narrow", "4x1M f32", lambda: (rn(4, 1_000_000),),
         lambda x: x.sum(axis=0), tol="red")
    case("sum axis=0 tall", "1Mx4 f32", lambda: (rn(1_000_000, 4),),
         lambda x: x.sum(axis=0), tol="red")
    case("sum axis=1 wide", "4x1M f32", lambda: (rn(4, 1_000_000),),
         lambda x: x.sum(axis=1), tol="red")
    X3 = (64, 256, 256)
    for ax in (0, 1, 2, (0, 2), (1, 2)):
        case(f"sum axis={ax} 3-D", "64x256x256 f32", lambda: (rn(*X3),),
             (lambda x, ax=ax: x.sum(axis=ax)), tol="red")
    case("max axis=1 3-D", "64x256x256 f32", lambda: (rn(*X3),), lambda x: x.max(axis=1), tol="red")
    case("var axis=2 3-D", "64x256x256 f32", lambda: (rn(*X3),), lambda x: x.var(axis=2), tol="red")
    X4 = (16, 64, 64, 64)
    for ax in (0, 1, 3, (2, 3), (0, 2, 3)):
        case(f"mean axis={ax} 4-D", "16x64x64x64 f32", lambda: (rn(*X4),),
             (lambda x, ax=ax: x.mean(axis=ax)), tol="red")
    case("full sum", "16M f32", lambda: (rn(16_000_000),), lambda x: x.sum(), tol="red")
    case("full max", "16M f32", lambda: (rn(16_000_000),), lambda x: x.max(), tol="red")
    case("full mean 2-D", "4000x4000 f32", lambda: (rn(4000, 4000),), lambda x: x.mean(), tol="red")
    case("full sum f64", "8M f64", lambda: (rn(8_000_000, dtype=f64),), lambda x: x.sum(), tol="red")

    # --------------------------------------------------- softmax & norms
    def np_softmax(x, axis):
        e = np.exp(x - x.max(axis=axis, keepdims=True))
        return e / e.sum(axis=axis, keepdims=True)

    def np_log_softmax(x, axis):
        s = x - x.max(axis=axis, keepdims=True)
        return s - np.log(np.exp(s).sum(axis=axis, keepdims=True))

    case("softmax last axis", "4096x1024 f32", lambda: (rn(4096, 1024),),
         lambda x: fuse.softmax(x, axis=-1), ref=lambda x: np_softmax(x, -1), tol="tr")
    case("softmax first axis", "1024x4096 f32", lambda: (rn(1024, 4096),),
         lambda x: fuse.softmax(x, axis=0), ref=lambda x: np_softmax(x, 0), tol="tr")
    case("softmax last axis short rows", "262144x16 f32", lambda: (rn(262144, 16),),
         lambda x: fuse.softmax(x, axis=-1), ref=lambda x: np_softmax(x, -1), tol="tr")
    case("softmax 4-D attn last axis", "8x8x256x256 f32", lambda: (rn(8, 8, 256, 256),),
         lambda x: fuse.softmax(x, axis=-1), ref=lambda x: np_softmax(x, -1), tol="tr")
    case("log_softmax last axis", "4096x1024 f32", lambda: (rn(4096, 1024),),
         lambda x: fuse.log_softmax(x, axis=-1), ref=lambda x: np_log_softmax(x, -1), tol="tr")
    case("log_softmax first axis", "1024x4096 f32", lambda: (rn(1024, 4096),),
         lambda x: fuse.log_softmax(x, axis=0), ref=lambda x: np_log_softmax(x, 0), tol="tr")

    def np_layer_norm(x, w, b, eps=1e-5):
        m = x.mean(-1, keepdims=True)
        v = ((x - m) ** 2).mean(-1, keepdims=True)
        return (x - m) / np.sqrt(v + np.asarray(eps, x.dtype)) * w + b

    def np_rms_norm(x, w, eps=1e-6):
        return x / np.sqrt((x * x).mean(-1, keepdims=True) + np.asarray(eps, x.dtype)) * w

    case("layer_norm w,b", "8192x512 f32", lambda: (rn(8192, 512), rn(512), rn(512)),
         lambda x, w, b: fuse.layer_norm(x, w, b), ref=np_layer_norm, tol="tr")
    case("layer_norm w,b wide", "1024x4096 f32", lambda: (rn(1024, 4096), rn(4096), rn(4096)),
         lambda x, w, b: fuse.layer_norm(x, w, b), ref=np_layer_norm, tol="tr")
    case("rms_norm w", "8192x768 f32", lambda: (rn(8192, 768), rn(768)),
         lambda x, w: fuse.rms_norm(x, w, eps=1e-6), ref=np_rms_norm, tol="tr")
    case("layer_norm f16 in/out", "8192x512 f16", lambda: (rn(8192, 512, dtype=f16), rn(512, dtype=f16), rn(512, dtype=f16)),
         lambda x, w, b: fuse.layer_norm(x, w, b),
         ref=lambda x, w, b: np_layer_norm(x.astype(f32), w.astype(f32), b.astype(f32)).astype(f16), tol="f16")
    case("BN stats mean,var over (0,2,3)", "32x64x56x56 f32", lambda: (rn(32, 64, 56, 56),),
         lambda x: (x.mean(axis=(0, 2, 3)), x.var(axis=(0, 2, 3))), tol="red")
    case("BN train normalize over (0,2,3)", "32x64x56x56 f32", lambda: (rn(32, 64, 56, 56),),
         lambda x: (x - x.mean(axis=(0, 2, 3), keepdims=True)) / np.sqrt(x.var(axis=(0, 2, 3), keepdims=True) + 1e-5),
         tol="tr")
    case("row-normalize x/x.sum(1,keepdims)", "4000x1000 f32", lambda: (ru(4000, 1000),),
         lambda x: x / x.sum(axis=1, keepdims=True), tol="tr")
    case("col-normalize x/x.sum(0,keepdims)", "4000x1000 f32", lambda: (ru(4000, 1000),),
         lambda x: x / x.sum(axis=0, keepdims=True), tol="tr")

    # -------------------------------------------------------- mixed dtypes
    case("f16 in, f32 math a*b+c -> f32", "8M f16", lambda: (rn(8_000_000, dtype=f16), rn(8_000_000, dtype=f16), rn(8_000_000)),
         lambda a, b, c: a.astype(f32) * b.astype(f32) + c, tol="ew")
    case("f16 add_relu -> f16", "8M f16", lambda: (rn(8_000_000, dtype=f16), rn(8_000_000, dtype=f16)),
         lambda a, b: np.maximum(a + b, 0), tol="f16")
    case("f16 sum axis=-1 (f32 acc)", "4096x1024 f16", lambda: (rn(4096, 1024, dtype=f16),),
         lambda x: x.sum(axis=-1),
         ref=lambda x: x.astype(f32).sum(axis=-1).astype(f16), tol="f16red")
    case("f16 -> f32 sum axis=-1", "4096x1024 f16", lambda: (rn(4096, 1024, dtype=f16),),
         lambda x: x.astype(f32).sum(axis=-1), tol="red")
    case("f32 -> f16 cast (x*s)", "16M f32", lambda: (rn(16_000_000),),
         lambda x: (x * 0.5).astype(f16), tol="f16")
    case("f64 exp chain", "4M f64", lambda: (rn(4_000_000, dtype=f64), rn(4_000_000, dtype=f64)),
         lambda a, b: np.exp(a) * b + a, tol="tr")
    case("f64 softmax last", "2048x1024 f64", lambda: (rn(2048, 1024, dtype=f64),),
         lambda x: fuse.softmax(x, axis=-1), ref=lambda x: np_softmax(x, -1), tol="tr")
    case("int32 a*b+c", "16M i32", lambda: (ri(16_000_000), ri(16_000_000), ri(16_000_000)),
         lambda a, b, c: a * b + c, tol="exact")
    case("int32 bias (R,768)", "5208x768 i32", lambda: (ri(5208, 768), ri(768)),
         lambda a, b: np.maximum(a + b, 0), tol="exact")
    case("int32 sum axis=-1", "4096x1024 i32", lambda: (ri(4096, 1024),),
         lambda x: x.sum(axis=-1), ref=lambda x: x.sum(axis=-1, dtype=np.int32), tol="exact")
    case("int32 -> f32 mean axis=0", "4000x1000 i32", lambda: (ri(4000, 1000),),
         lambda x: fuse.cast(x, f32).mean(axis=0), ref=lambda x: x.astype(f32).mean(axis=0), tol="red")
    case("int32 where(a>b, a, b-a)", "16M i32", lambda: (ri(16_000_000), ri(16_000_000)),
         lambda a, b: np.where(a > b, a, b - a), tol="exact")
    case("cmp a>b -> bool", "16M f32", lambda: (rn(16_000_000), rn(16_000_000)),
         lambda a, b: a > b, tol="exact")
    case("mask (a>0)&(b<0.5) -> bool", "16M f32", lambda: (rn(16_000_000), rn(16_000_000)),
         lambda a, b: (a > 0) & (b < 0.5), tol="exact")
    case("where(x>0, x, 0.1x)", "16M f32", lambda: (rn(16_000_000),),
         lambda x: np.where(x > 0, x, x * 0.1))
    case("where bool input", "16M f32+bool", lambda: (rn(16_000_000) > 0, rn(16_000_000), rn(16_000_000)),
         lambda m, a, b: np.where(m, a, b))
    case("any(x>3, axis=-1)", "4096x1024 f32", lambda: (rn(4096, 1024),),
         lambda x: (x > 3).any(axis=-1), tol="exact")
    case("isfinite count-ish (x!=x).sum()", "16M f32", lambda: (rn(16_000_000),),
         lambda x: np.isnan(x).sum(), tol="exact")

    # --------------------------------------------- more shapes of the above
    case("NCHW scale_shift_relu 28x28", "16x256x28x28 * (C,1,1)",
         lambda: (rn(16, 256, 28, 28), rn(256, 1, 1), rn(256, 1, 1)),
         lambda x, g, b: np.maximum(x * g + b, 0))
    case("NCHW scale_shift_relu 3x3", "256x1792x3x3 * (C,1,1)",
         lambda: (rn(256, 1792, 3, 3), rn(1792, 1, 1), rn(1792, 1, 1)),
         lambda x, g, b: np.maximum(x * g + b, 0))
    case("softmax last axis L=64", "65536x64 f32", lambda: (rn(65536, 64),),
         lambda x: fuse.softmax(x, axis=-1), ref=lambda x: np_softmax(x, -1), tol="tr")
    case("softmax last axis L=256", "16384x256 f32", lambda: (rn(16384, 256),),
         lambda x: fuse.softmax(x, axis=-1), ref=lambda x: np_softmax(x, -1), tol="tr")
    case("sum axis=1 L=16", "262144x16 f32", lambda: (rn(262144, 16),),
         lambda x: x.sum(axis=1), tol="red")
    case("max axis=1 L=16 keepdims sub", "262144x16 f32", lambda: (rn(262144, 16),),
         lambda x: x - x.max(axis=1, keepdims=True))
    case("exp(x - max) L=16 (no div)", "262144x16 f32", lambda: (rn(262144, 16),),
         lambda x: np.exp(x - x.max(axis=1, keepdims=True)), tol="tr")
    case("layer_norm short rows L=16", "262144x16 f32", lambda: (rn(262144, 16), rn(16), rn(16)),
         lambda x, w, b: fuse.layer_norm(x, w, b), ref=np_layer_norm, tol="tr")
    case("sum axis=0 3-D big", "256x256x256 f32", lambda: (rn(256, 256, 256),),
         lambda x: x.sum(axis=0), tol="red")
    case("sum axis=1 3-D (B,T,D) 16x1024x1024", "16x1024x1024 f32", lambda: (rn(16, 1024, 1024),),
         lambda x: x.sum(axis=1), tol="red")

    return table


# rtol, atol of np.allclose in float64, by a case's tol. For "red" and
# "f16red" atol is relative to max |numpy's result| (at least 1); for "ew"
# and "tr" with a float64 result, rtol 1e-12 and atol 1e-14; "exact": equal.
TOLS = {
    "ew": (1e-6, 1e-6),
    "tr": (2e-5, 1e-6),
    "red": (1e-4, 1e-5),
    "f16": (2e-3, 1e-3),
    "f16red": (2e-3, 2e-3),
    "exact": (0, 0),
}

MALLOC = {"MALLOC_MMAP_MAX_": "0", "MALLOC_TRIM_THRESHOLD_": str(1 << 40)}


def as_tuple(r):
    return tuple(r) if isinstance(r, (tuple, list)) else (r,)


def check(got, ref, tol):
    """(ok, detail): whether fuse's results agree with numpy's, and what
    differs (the worst element, the count of bad ones, a dtype that is not
    numpy's; empty when nothing does)."""
    got, ref = as_tuple(got), as_tuple(ref)
    if len(got) != len(ref):
        return False, f"{len(got)} results vs {len(ref)}"
    details = []
    ok = True
    for g, r in zip(got, ref):
        g = np.asarray(g)
        r = np.asarray(r)
        d = ""
        if g.shape != r.shape:
            return False, f"shape {g.shape} vs numpy {r.shape}"
        if g.dtype != r.dtype:
            d += f"dtype {g.dtype} vs numpy {r.dtype}; "
        if tol == "exact":
            if not np.array_equal(g.astype(r.dtype), r):
                ok = False
                d += f"{np.count_nonzero(g.astype(r.dtype) != r)} elements differ"
        else:
            rtol, atol = TOLS[tol]
            g64, r64 = g.astype(np.float64), r.astype(np.float64)
            scale = np.max(np.abs(r64)) if r64.size else 1.0
            if tol in ("red", "f16red"):
                atol = atol * max(scale, 1.0)
            if tol in ("tr", "ew") and r.dtype == np.float64:
                rtol, atol = 1e-12, 1e-14
            if not np.allclose(g64, r64, rtol=rtol, atol=atol, equal_nan=True):
                ok = False
                err = np.abs(g64 - r64)
                i = int(np.nanargmax(err))
                d += (f"max|err|={err.flat[i]:.3g} at {np.unravel_index(i, r.shape)} "
                      f"(fuse {g64.flat[i]:.7g} numpy {r64.flat[i]:.7g}), "
                      f"{np.count_nonzero(~np.isclose(g64, r64, rtol=rtol, atol=atol, equal_nan=True))} bad")
        details.append(d)
    return ok, " | ".join(x for x in details if x)


def nbytes_io(args, res):
    """The bytes of the array inputs and of the results: the least traffic."""
    n = sum(a.nbytes for a in args if isinstance(a, np.ndarray))
    n += sum(np.asarray(r).nbytes for r in as_tuple(res))
    return n


_cold_buffer = None


def evict():
    """Rewrites a buffer larger than the caches (for --cold)."""
    global _cold_buffer
    if _cold_buffer is None:
        _cold_buffer = np.zeros(COLD_BYTES // 4, np.float32)
    _cold_buffer += 1.0


def per(numerator, denominator):
    """numerator / denominator, None where the denominator is not > 0."""
    return numerator / denominator if denominator > 0 else None


def run_case(c, fuse, rounds, cold):
    """One program: a row with its first call's time, the check, and every
    round's times; a row with "error" when fuse refuses it."""
    global _rng
    _rng = np.random.default_rng(zlib.crc32(c["name"].encode()))
    row = dict(name=c["name"], shape=c["shape"])
    args = c["make"]()
    try:
        jf = fuse.jit(c["fn"], target="cpu", profile=True)
        t0 = time.perf_counter()
        r = jf(*args)
        row["first_call_s"] = time.perf_counter() - t0
    except Exception as e:  # noqa: BLE001 - fuse refused the program
        row["error"] = f"{type(e).__name__}: {e}".strip()
        return row
    ref = c["ref"](*args)
    row["ok"], row["check"] = check(r, ref, c["tol"])
    row["io_bytes"] = nbytes_io(args, ref)
    r = ref = None
    gc.collect()
    for _ in range(WARM):
        r = jf(*args)
        r = None
    c["ref"](*args)
    fms, fwall, nms = [], [], []
    prof = kms = None
    for _ in range(rounds):
        t0 = time.perf_counter()
        r = jf(*args)
        t1 = time.perf_counter()
        r = None
        prof = jf.last_profile
        if kms is None:
            kms = [[] for _ in prof]
        for i, k in enumerate(prof):
            kms[i].append(k["ms"])
        fms.append(sum(k["ms"] for k in prof))
        fwall.append((t1 - t0) * 1e3)
        t0 = time.perf_counter()
        r = c["ref"](*args)
        t1 = time.perf_counter()
        r = None
        nms.append((t1 - t0) * 1e3)
    row["kernels"] = [dict(name=k["name"], bytes=k["bytes"],
                           ms=statistics.median(kms[i]), ms_all=kms[i])
                      for i, k in enumerate(prof)]
    row["fuse_ms"] = statistics.median(fms)
    row["fuse_ms_all"] = fms
    row["fuse_wall_ms"] = statistics.median(fwall)
    row["fuse_wall_ms_all"] = fwall
    row["numpy_ms"] = min(nms)
    row["numpy_ms_all"] = nms
    row["ratio"] = per(row["fuse_ms"], row["numpy_ms"])
    row["fuse_bytes"] = sum(k["bytes"] for k in prof)
    row["gbs"] = per(row["fuse_bytes"] / 1e6, row["fuse_ms"])
    row["io_gbs"] = per(row["io_bytes"] / 1e6, row["fuse_ms"])
    if cold:
        cf, cn = [], []
        for _ in range(max(3, rounds // 2)):
            evict()
            r = jf(*args)
            r = None
            cf.append(sum(k["ms"] for k in jf.last_profile))
            evict()
            t0 = time.perf_counter()
            r = c["ref"](*args)
            t1 = time.perf_counter()
            r = None
            cn.append((t1 - t0) * 1e3)
        row["fuse_cold_ms"] = statistics.median(cf)
        row["fuse_cold_ms_all"] = cf
        row["numpy_cold_ms"] = min(cn)
        row["numpy_cold_ms_all"] = cn
        row["cold_ratio"] = per(row["fuse_cold_ms"], row["numpy_cold_ms"])
    return row


def copy_gbs():
    """numpy's one-thread copy bandwidth, bytes read + written (64 MB)."""
    a = rn(16_000_000)
    o = np.empty_like(a)
    best = math.inf
    for _ in range(7):
        t0 = time.perf_counter()
        np.copyto(o, a)
        best = min(best, time.perf_counter() - t0)
    return 2 * a.nbytes / best / 1e9


def malloc_settings(default):
    """Starts the script again when the environment's malloc settings are
    not the run's: MALLOC (glibc reuses heap memory for numpy's results)
    unless `default`, else none of them."""
    want = {k: None if default else v for k, v in MALLOC.items()}
    if all(os.environ.get(k) == v for k, v in want.items()):
        return
    for k, v in want.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v
    sys.stdout.flush()
    sys.stderr.flush()
    script = str(Path(__file__).resolve())
    os.execv(sys.executable, [sys.executable, script] + sys.argv[1:])


def fmt(value, digits):
    return "-" if value is None else f"{value:.{digits}f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", metavar="SUBSTRING",
                        help="only the programs whose name contains SUBSTRING")
    parser.add_argument("--rounds", type=positive_int, default=7,
                        help="interleaved rounds of fuse and numpy (default 7)")
    parser.add_argument("--cold", action="store_true",
                        help="also time with the caches evicted before each "
                             "call (a 96 MB buffer rewritten)")
    parser.add_argument("--default-malloc", action="store_true",
                        help="keep glibc's malloc defaults (numpy's results "
                             "mmapped afresh, page faults included)")
    add_build_dir(parser)
    parser.add_argument("--json", type=Path,
                        default=ROOT / "bench" / "results" / "cpu_survey.json",
                        help="where to write the results "
                             "(default bench/results/cpu_survey.json)")
    args = parser.parse_args()
    library = fuse_library(parser, args.build_dir)
    if args.json.is_dir():
        parser.error(f"--json {args.json}: a directory")
    selected = [c["name"] for c in cases(None)
                if args.only is None or args.only in c["name"]]
    if not selected:
        parser.error(f"--only {args.only!r}: no program's name contains it")
    malloc_settings(args.default_malloc)

    fuse = import_fuse(library)

    tools = tool_ids([library])
    threads = os.environ.get("FUSE_NUM_THREADS") or str(os.cpu_count())
    load_before = os.getloadavg()
    bandwidth = copy_gbs()
    malloc = ("glibc defaults" if args.default_malloc else
              " ".join(f"{k}={v}" for k, v in MALLOC.items()))
    print(f"commit {fuse_version()}, {cpu_model()}, "
          f"{os.cpu_count()} cpus, fuse on {threads} threads, numpy on 1; "
          f"{args.rounds} rounds; malloc: "
          f"{'glibc defaults' if args.default_malloc else 'MALLOC_MMAP_MAX_=0'}; numpy copy "
          f"{bandwidth:.1f} GB/s; load {load_before[0]:.2f}", flush=True)

    rows = []
    start = time.time()
    for c in cases(fuse):
        if c["name"] not in selected:
            continue
        try:
            row = run_case(c, fuse, args.rounds, args.cold)
        except Exception as e:  # noqa: BLE001 - the script's own failure
            row = dict(name=c["name"], shape=c["shape"],
                       error=f"harness: {type(e).__name__}: {e}\n"
                             f"{traceback.format_exc()}")
        rows.append(row)
        if "error" in row:
            print(f"  {c['name']}: {row['error'].splitlines()[0][:160]}",
                  file=sys.stderr, flush=True)
        else:
            print(f"  {c['name']}: fuse {row['fuse_ms']:.3f} ms, numpy "
                  f"{row['numpy_ms']:.3f} ms"
                  f"{'' if row['ok'] else ', MISMATCH'}",
                  file=sys.stderr, flush=True)
        gc.collect()
    seconds = time.time() - start

    timed = [r for r in rows if "error" not in r]
    timed.sort(key=lambda r: (r["ratio"] is None, -(r["ratio"] or 0)))
    header = ["program", "shape", "kernels", "fuse ms", "numpy ms",
              "fuse/numpy", "GB/s"]
    if args.cold:
        header += ["cold fuse ms", "cold numpy ms", "cold fuse/numpy"]
    header.append("check")
    table = []
    for r in timed:
        line = [r["name"], r["shape"], len(r["kernels"]), fmt(r["fuse_ms"], 3),
                fmt(r["numpy_ms"], 3), fmt(r["ratio"], 2), fmt(r["gbs"], 1)]
        if args.cold:
            line += [fmt(r["fuse_cold_ms"], 3), fmt(r["numpy_cold_ms"], 3),
                     fmt(r["cold_ratio"], 2)]
        line.append("ok" if r["ok"] else "MISMATCH")
        table.append(line)
    print()
    if table:
        print_table(header, table)
    refused = [r for r in rows if "error" in r]
    print(f"\nrefused ({len(refused)}):" if refused else "\nrefused: none")
    for r in refused:
        print(f"  {r['name']} ({r['shape']}): {r['error'].splitlines()[0]}")
    bad = [r for r in timed if not r["ok"]]
    print(f"\nmismatches ({len(bad)}):" if bad else "\nmismatches: none")
    for r in bad:
        print(f"  {r['name']} ({r['shape']}): {r['check']}")
    differ = [r for r in timed if r["ok"] and r["check"]]
    if differ:
        print("\nvalues agree, but:")
        for r in differ:
            print(f"  {r['name']} ({r['shape']}): {r['check']}")
    print(f"\n{len(rows)} programs in {seconds:.0f} s")

    load_after = os.getloadavg()
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps({
        "commit": fuse_version(), "tools": tools,
        "machine": {"platform": platform.platform(), "cpu": cpu_model(),
                    "cpus": os.cpu_count()},
        "fuse_threads": int(threads) if threads.isdigit() else threads,
        "numpy": np.__version__, "rounds": args.rounds, "warm_ups": WARM,
        "cold": args.cold, "malloc": malloc, "numpy_copy_gbs": bandwidth,
        "only": args.only, "load_before": load_before, "load_after": load_after,
        "seconds": seconds, "programs": rows}, indent=1) + "\n")
    print(f"wrote {args.json}")
    if tool_ids([library]) != tools:
        print(f"warning: {library} changed during the run", file=sys.stderr)


if __name__ == "__main__":
    main()
