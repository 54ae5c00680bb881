"""fuse.jit: tracing, the cache, several results, fused vs eager, profiles,
the traced text and its PTX."""

import gc
import os
import re
import subprocess
import sys
import threading
import time
import warnings
import weakref

import numpy as np
import pytest

import fuse
from conftest import assert_same, assert_within_bound, random_array

ADD_RELU_MLIR = (
    "func.func @add_relu(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {\n"
    "  %0 = fuse.add %a, %b : tensor<?xf32>\n"
    "  %1 = fuse.relu %0 : tensor<?xf32>\n"
    "  return %1 : tensor<?xf32>\n"
    "}\n")


def add_relu(a, b):
    return fuse.relu(a + b)


def test_add_relu(rng):
    f = fuse.jit(add_relu)
    a, b = random_array(rng, "float32", (1000,)), random_array(rng, "float32", (1000,))
    assert_same(f(a, b), np.maximum(a + b, np.float32(0)))
    assert f.mlir == ADD_RELU_MLIR
    assert f.__name__ == "add_relu"


def test_decorator_forms(rng):
    @fuse.jit
    def plain(x):
        return x * 2

    @fuse.jit(fusion=False, target="cpu", profile=True)
    def configured(x):
        return x * 2

    x = random_array(rng, "int64", (3,))
    assert_same(plain(x), x * 2)
    assert_same(configured(x), x * 2)
    assert configured.fusion is False and configured.target == "cpu"


def test_new_sizes_reuse_the_compiled_program(rng):
    fuse.clear_cache()
    f = fuse.jit(add_relu)
    for n in (10, 1000, 0, 77):
        a, b = random_array(rng, "float32", (n,)), random_array(rng, "float32", (n,))
        assert_same(f(a, b), np.maximum(a + b, np.float32(0)))
    info = f.cache_info()
    assert (info.traces, info.compiles, info.misses, info.hits) == (1, 1, 1, 3)
    program = f.program
    f(np.ones(5, np.float32), np.ones(5, np.float32))
    assert f.program is program


def test_new_dtype_or_rank_traces_again(rng):
    f = fuse.jit(add_relu)
    f(np.ones(4, np.float32), np.ones(4, np.float32))
    f(np.ones(4, np.float64), np.ones(4, np.float64))
    f(np.ones((2, 4), np.float32), np.ones((2, 4), np.float32))
    assert f.cache_info().traces == 3
    assert "tensor<?xf64>" in f.trace(np.ones(4, np.float64), np.ones(4, np.float64))


def test_identical_programs_share_one_compile(rng):
    # The compile cache is keyed by the traced text (with its locations) and
    # the options: the same function jitted twice compiles once.
    fuse.clear_cache()
    f, g = fuse.jit(add_relu), fuse.jit(add_relu)
    a = np.ones(3, np.float32)
    f(a, a)
    g(a, a)
    assert f.cache_info().compiles == 1 and g.cache_info().compiles == 0
    assert g.program is f.program
    # Other options are another program.
    e = fuse.jit(add_relu, fusion=False)
    e(a, a)
    assert e.cache_info().compiles == 1 and e.program is not f.program
    # The same ops at another place are another program, whose errors and
    # remarks name its own lines (the README said that any two functions
    # that trace to the same program compile once).
    def body():
        return fuse.jit(lambda x: x + 1)

    def body2():
        return fuse.jit(lambda x: x + 1)

    one, two = body(), body2()
    one(a), two(a)
    assert one.mlir == two.mlir and one.cache_info().compiles == two.cache_info().compiles == 1
    assert one.program is not two.program

    def place(fn):
        return f'test_jit.py":{fn.__code__.co_firstlineno + 1}:'
    assert place(body) in one.program.text and place(body2) in two.program.text


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="counts threads in /proc")
def test_programs_share_the_compilers_threads():
    # Each compiled program keeps its MLIR context, and each context kept
    # a pool of worker threads: 20 programs of one function held 40 idle
    # threads. The contexts share one pool, of at most a thread per core.
    def workers():
        names = []
        for task in os.listdir("/proc/self/task"):
            try:
                with open(f"/proc/self/task/{task}/comm") as comm:
                    names.append(comm.read().strip())
            except OSError:
                pass  # a thread that ended
        return sum(name.startswith("llvm-worker") for name in names)

    cores = os.cpu_count() or 1
    f = fuse.jit(lambda a: a * 2.0, target="cpu", max_cache=cores + 4)
    for rank in range(1, cores + 4):
        f(np.ones((2,) * min(rank, 32), np.float32))
    assert f.cache_info().size == min(cores + 3, 32)
    assert workers() <= cores


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork()")
def test_a_forked_child_compiles():
    # A child of fork() has none of its parent's threads, and the compilers'
    # pool made before the fork waited for them forever: a new signature in
    # a worker of multiprocessing (fork is Linux's default) hung.
    x = np.ones(4, np.float32)
    np.testing.assert_array_equal(fuse.jit(lambda a: a + 1.0, target="cpu")(x), x + 1)
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: compiles a new program, says its result
        try:
            result = fuse.jit(lambda a: a * 3.0, target="cpu")(x)
            os.write(write, repr(result.tolist()).encode())
        finally:
            os._exit(0)
    os.close(write)
    try:
        import select
        ready, _, _ = select.select([read], [], [], 120)
        said = os.read(read, 1000).decode() if ready else None
    finally:
        if not ready:
            os.kill(pid, 9)
        os.waitpid(pid, 0)
        os.close(read)
    assert said == "[3.0, 3.0, 3.0, 3.0]", "the forked child did not compile in 120 s"


def test_a_failed_call_leaves_no_profile():
    # The profile of the call before stayed, as if it were this one's.
    m = fuse.jit(lambda x: x.max(), target="cpu", profile=True)
    m(np.ones(10, np.float32))
    assert [k["name"] for k in m.last_profile] == ["reduce_max_0_pieces", "reduce_max_0"]
    with pytest.raises(fuse.FuseError, match="an empty reduce_max has no value"):
        m(np.ones(0, np.float32))
    assert m.last_profile is None
    # So does a call whose arguments are refused before it runs.
    m(np.ones(10, np.float32))
    with pytest.raises(TypeError, match="complex"):
        m(np.ones(10, np.complex64))
    assert m.last_profile is None
    # A Program's too, whether its run or its arguments failed ([] and the
    # call before's).
    p = fuse.compile(m.mlir, target="cpu")
    p(np.ones(10, np.float32))
    assert len(p.last_profile) == 2
    with pytest.raises(fuse.FuseError):
        p(np.ones(0, np.float32))
    assert p.last_profile is None
    p(np.ones(10, np.float32))
    with pytest.raises(fuse.FuseError, match="expected float32 data, got float64"):
        p(np.ones(10))
    assert p.last_profile is None


def test_cache_clear(rng):
    f = fuse.jit(add_relu)
    a = np.ones(3, np.float32)
    f(a, a)
    f.cache_clear()
    assert f.cache_info() == fuse.CacheInfo(0, 0, 0, 0, 0)
    f(a, a)
    assert f.cache_info().misses == 1


def test_cache_clear_during_a_call_leaves_cache_info_consistent(monkeypatch):
    # A cache_clear() while a call traced and compiled left CacheInfo(hits=0,
    # misses=1, traces=0, compiles=1, size=1): the call counted after the
    # clear what it began before. The call gets its result, and the cache
    # stays as the clear left it.
    from fuse import _jit
    f = fuse.jit(lambda x: x + 1)
    x = np.ones(2)
    compile_ = _jit._program_for

    def clearing(trace, jitted):
        jitted.cache_clear()
        return compile_(trace, jitted)
    monkeypatch.setattr(_jit, "_program_for", clearing)
    assert_same(f(x), x + 1)
    assert f.cache_info() == (0, 0, 0, 0, 0)
    monkeypatch.undo()
    assert_same(f(x), x + 1)
    info = f.cache_info()
    assert (info.hits, info.misses, info.traces, info.size) == (0, 1, 1, 1)
    assert_same(f(x), x + 1)
    assert f.cache_info().hits == 1


SCALE = 2.0


def test_globals_are_read_when_traced():
    # As python/README.md says: a traced signature keeps the global's value
    # of its trace; a new signature, or cache_clear(), reads it again.
    global SCALE
    f = fuse.jit(lambda a: a * SCALE)
    x = np.ones(3, np.float32)
    try:
        assert_same(f(x), np.full(3, 2, np.float32))
        SCALE = 3.0
        assert_same(f(x), np.full(3, 2, np.float32))
        assert_same(f(np.ones(3)), np.full(3, 3.0))
        f.cache_clear()
        assert_same(f(x), np.full(3, 3, np.float32))
    finally:
        SCALE = 2.0


def test_several_results(rng):
    @fuse.jit
    def gate(x, y):
        s = x + y
        g = fuse.sigmoid(s)
        return s * g, g, s > 0

    x, y = random_array(rng, "float32", (64,)), random_array(rng, "float32", (64,))
    out, g, positive = gate(x, y)
    s = x + y
    s64 = s.astype(np.float64)
    assert_within_bound(g, 1 / (1 + np.exp(-s64)), "sigmoid", "float32", x=s64,
                        target=gate.program.target)
    assert_same(out, s * g)
    assert_same(positive, s > 0)
    assert isinstance(gate(x, y), tuple)


def test_results_that_are_arguments_constants_or_repeated(rng):
    @fuse.jit
    def f(x):
        y = -x
        return y, x, y, fuse.where(x > 100, x, 5.0)

    x = random_array(rng, "float32", (6,))
    y, same, y2, five = f(x)
    assert_same(y, -x)
    assert_same(y2, -x)
    assert_same(same, x)
    assert_same(five, np.full(6, 5, np.float32))
    assert same.ctypes.data != x.ctypes.data and y.ctypes.data != y2.ctypes.data
    y[:] = 0  # results are writable and independent
    assert_same(y2, -x)


def test_list_result_is_a_tuple(rng):
    f = fuse.jit(lambda x: [x + 1, x - 1])
    x = np.arange(3, dtype=np.int32)
    assert isinstance(f(x), tuple)


def test_keyword_and_scalar_arguments(rng):
    @fuse.jit
    def scale(x, bias=None, *, factor=2.0):
        y = x * factor
        return y if bias is None else y + bias

    x = random_array(rng, "float32", (5,))
    b = random_array(rng, "float32", (5,))
    assert_same(scale(x), x * np.float32(2))
    assert_same(scale(x, b, factor=0.5), x * np.float32(0.5) + b)
    assert_same(scale(x, bias=b, factor=0.25), x * np.float32(0.25) + b)
    assert_same(scale(x, factor=3.0), x * np.float32(3))
    assert_same(scale(x, factor=4.0), x * np.float32(4))
    # A left-out parameter keeps its default, a constant of the trace; a
    # passed Python scalar is a run-time argument: new values reuse the trace.
    assert scale.cache_info().traces == 3
    assert scale.mlir == (
        "func.func @scale(%x: tensor<?xf32>, %factor: tensor<f32>) -> tensor<?xf32> {\n"
        "  %0 = fuse.mul %x, %factor : tensor<?xf32>, tensor<f32> -> tensor<?xf32>\n"
        "  return %0 : tensor<?xf32>\n"
        "}\n")


def test_default_arguments_keep_their_values(rng):
    x = random_array(rng, "float32", (5,))
    to = fuse.jit(lambda a, d=np.float16: a.astype(d))
    assert_same(to(x), x.astype(np.float16))
    # A dtype passed is a constant of the trace.
    assert_same(to(x, np.float64), x.astype(np.float64))
    assert to.cache_info().traces == 2

    @fuse.jit
    def f(x, scale=2.0):
        return x * scale

    assert_same(f(x), x * np.float32(2))
    assert "fuse.constant 2.0 : tensor<f32>" in f.mlir and "%scale" not in f.mlir


def test_python_scalar_arguments_compile_once(rng):
    fuse.clear_cache()
    f = fuse.jit(lambda x, s: x * s + 1, profile=True)
    x = random_array(rng, "float16", (10,))
    x32 = x.astype(np.float32)
    for i in range(200):
        s = i * 0.1
        got = f(x, s)
        # A Python float does not widen the array: float16 stays float16,
        # the product computed in float32 with the float unrounded to
        # float16, as PyTorch does.
        product = (x32 * np.float32(s)).astype(np.float16)
        assert_same(got, product + np.float16(1))
    info = f.cache_info()
    assert (info.traces, info.compiles, info.size, info.hits) == (1, 1, 1, 199)
    # The float is used only as float32: it is passed as one (converted by
    # the caller, as fuse.cast would), so no kernel runs on the scalar alone.
    assert f.mlir.startswith("func.func @lambda(%x: tensor<?xf16>, %s: tensor<f32>)")
    assert [k["name"] for k in f.last_profile] == ["fused_cast_mul_cast_add_0"]
    # The key is the scalar's kind: an int or a bool is another signature.
    assert_same(f(x, 3), (x32 * np.float32(3)).astype(np.float16) + np.float16(1))
    assert_same(f(x, True), x + np.float16(1))
    assert f.cache_info().traces == 3


def test_scalar_arguments_in_fuse_functions(rng):
    x = random_array(rng, "float32", (20,))
    c = random_array(rng, "bool", (20,))

    @fuse.jit
    def f(x, c, slope, lo, hi, fill, approximate):
        return (fuse.leaky_relu(x, slope), fuse.clamp(x, lo, hi), fuse.where(c, x, fill),
                fuse.gelu(x, approximate=approximate))

    for slope, lo, hi, fill in [(0.25, -1.0, 1.5, 7.0), (0.5, -0.5, 2.0, -1.0)]:
        leaky, clamped, filled, gelu = f(x, c, slope, lo, hi, fill, "tanh")
        assert_same(leaky, np.where(x > 0, x, np.float32(slope) * x))
        assert_same(clamped, np.clip(x, np.float32(lo), np.float32(hi)))
        assert_same(filled, np.where(c, x, np.float32(fill)))
    # A string is a constant of the trace.
    assert f.cache_info().traces == 1 and 'approximate = "tanh"' in f.mlir


def test_static_values_that_compare_equal_trace_apart():
    # (2,) == (2.0,) and (0.0,) == (-0.0,), but they trace differently: a
    # float makes an int32 product float32, -0.0 flips zeros' signs. They
    # shared the first one's program.
    @fuse.jit(static_argnames=("k",))
    def f(x, k):
        return x * k[0]

    xi = np.array([1, 2, 3], np.int32)
    assert f(xi, (2,)).dtype == np.int32
    assert f(xi, (2.0,)).dtype == np.float32
    x = np.array([-1.0, 1.0], np.float32)
    assert np.signbit(f(x, (0.0,))).tolist() == [True, False]
    assert np.signbit(f(x, (-0.0,))).tolist() == [False, True]
    assert np.signbit(f(x, (np.float32(-0.0),))).tolist() == [False, True]
    assert f.cache_info().traces == 5


def test_a_static_float_beside_a_default_array_is_not_taken_for_it():
    # A static float given by position, in the place of the input that a
    # default made: the short path took the second call's 3.0 for the
    # default w, with the first call's program (x * 2 + 3), or refused it
    # when w was an array.
    @fuse.jit(static_argnames=("c",))
    def f(x, c, w=np.float64(100.0)):
        return x * c + w

    @fuse.jit(static_argnames=("c",))
    def g(x, c, w=np.array([10.0, 20.0, 30.0])):
        return x * c + w

    x = np.ones(3)
    for c in (2.0, 3.0, 3.0, 2.0):
        assert f(x, c).tolist() == [100 + c] * 3
        assert g(x, c).tolist() == [10 + c, 20 + c, 30 + c]
    assert f.cache_info().traces == 2 and g.cache_info().traces == 2

    # A float that is an input still takes the short path.
    h = fuse.jit(lambda x, lr: x * lr)
    assert h(x, 2.0).tolist() == [2.0] * 3 and h(x, 3.0).tolist() == [3.0] * 3
    assert h.cache_info().hits == 1


def test_static_argnames(rng):
    @fuse.jit(static_argnames=("relu",))
    def f(x, relu):
        return fuse.relu(x) if relu else -x

    x = random_array(rng, "float32", (6,))
    assert_same(f(x, True), np.maximum(x, np.float32(0)))
    assert_same(f(x, relu=False), -x)
    assert f.cache_info().traces == 2
    g = fuse.jit(lambda x, relu: fuse.relu(x) if relu else -x)
    with pytest.raises(TypeError, match=r"^fuse: argument 'relu' of <lambda> is a Python "
                                        r"scalar, which a jitted function takes as a run-time "
                                        r"value \(so that a new value does not compile again\): "
                                        r"it has no value while tracing, so it cannot decide an "
                                        r"`if`, `and`/`or` or `while`; name it in "
                                        r"fuse\.jit\(static_argnames=\.\.\.\) to make it a "
                                        r"constant of the trace, or use fuse\.where\(cond, a, "
                                        r"b\) for a choice per element$"):
        g(x, True)
    # A value computed from scalar arguments alone (`if n == 0`) names them
    # too, and one of an outer function's trace names that function.
    h = fuse.jit(lambda x, n, m: x if n + m == 0 else -x)
    with pytest.raises(TypeError, match=r"^fuse: this value is computed from arguments 'n' "
                                        r"and 'm' of <lambda> alone, Python scalars, which .*; "
                                        r"name them in fuse\.jit\(static_argnames=\.\.\.\) "
                                        r"to make them constants of the trace, or use "
                                        r"fuse\.where"):
        h(x, 0, 0)
    inner = fuse.jit(lambda x, n: x * n if n else x, static_argnames=("n",))

    def outer(x, k):
        return inner(x, k)

    with pytest.raises(TypeError, match=r"^fuse: argument 'k' of outer is a Python scalar"):
        fuse.jit(outer)(x, 1)
    # From arrays: fuse.where, and Python's max().
    with pytest.raises(TypeError, match=r"^fuse: a traced Tensor has no value, so it cannot "
                                        r"decide an `if`, `and`/`or` or `while` at "
                                        r"\S+test_jit\.py:\d+:\d+; use "
                                        r"fuse\.where\(cond, a, b\) for a choice per element "
                                        r"\(Python's max\(\) and min\(\) decide that way: use "
                                        r"fuse\.maximum and fuse\.minimum\)$"):
        fuse.jit(lambda x: max(x, 0))(x)
    with pytest.raises(ValueError, match=r"^fuse: static_argnames names bias, which is not a "
                                         r"parameter of <lambda> \(its parameters: x\)$"):
        fuse.jit(lambda x: x, static_argnames=("bias",))
    with pytest.raises(ValueError, match=r"^fuse: static_argnames names a and b, which are not "
                                         r"parameters of <lambda> \(its parameters: none\)$"):
        fuse.jit(lambda: 0, static_argnames=("b", "a"))
    # A static argument that cannot be a constant of the trace says so.
    with pytest.raises(TypeError, match=r"^fuse: argument 'relu' of f is static "
                                        r"\(static_argnames\) but a ndarray, which is not "
                                        r"hashable: a static argument is a constant"):
        f(x, np.ones(2))
    # Lists and dicts are keyed by their values, static or not (a static
    # one was refused as not hashable).
    scaled = fuse.jit(lambda a, c: a * c["k"] + c["v"][1], static_argnames=("c",))
    assert_same(scaled(x, {"k": 3.0, "v": [0.0, 1.0]}), x * np.float32(3.0) + np.float32(1.0))
    assert_same(scaled(x, {"k": 3.0, "v": [0.0, 1.0]}), x * np.float32(3.0) + np.float32(1.0))
    assert scaled.cache_info().misses == 1
    assert_same(scaled(x, {"k": 2.0, "v": [0.0, 1.0]}), x * np.float32(2.0) + np.float32(1.0))
    assert scaled.cache_info().misses == 2


def test_unhashable_static_objects_are_keyed_by_identity():
    # python/README.md: an object is keyed by identity, whatever its
    # __eq__ says; a plain @dataclass (unhashable, as its __eq__ makes it)
    # was refused as not hashable.
    import dataclasses

    @dataclasses.dataclass
    class Config:
        k: float

    x = np.ones(2)
    f = fuse.jit(lambda x, c: x * c.k, static_argnames=("c",))
    one, other = Config(2.0), Config(2.0)
    assert_same(f(x, one), x * 2)
    assert_same(f(x, one), x * 2)
    assert f.cache_info().traces == 1
    # Equal, but another object: traced again (its trace is its own).
    assert_same(f(x, other), x * 2)
    assert f.cache_info().traces == 2
    # Held weakly, as a method's self: gone with its object.
    held = weakref.ref(other)
    del other
    gc.collect()
    assert held() is None
    # Sets are keyed by their values.
    g = fuse.jit(lambda x, s: x * sum(s), static_argnames=("s",))
    assert_same(g(x, {1.0, 2.0}), x * 3)
    assert_same(g(x, {2.0, 1.0}), x * 3)
    assert g.cache_info().traces == 1
    assert_same(g(x, {1.0, 3.0}), x * 4)
    assert g.cache_info().traces == 2


def test_the_cache_keeps_the_most_recently_used(rng):
    f = fuse.jit(lambda x: x + 1, max_cache=2)
    f32, f64, i32 = np.ones(3, np.float32), np.ones(3, np.float64), np.ones(3, np.int32)
    f(f32)
    f(f64)
    f(f32)  # f32 is now the most recently used
    f(i32)  # drops f64
    assert f.cache_info().size == 2 and f.cache_info().traces == 3
    f(f32)
    assert f.cache_info().traces == 3
    assert_same(f(f64), f64 + 1)  # traced again
    assert f.cache_info().traces == 4 and f.cache_info().size == 2


def test_a_dropped_program_is_freed():
    fuse.clear_cache()
    f = fuse.jit(lambda x: x * 3, max_cache=1)
    f(np.ones(2, np.float32))
    program = weakref.ref(f.program)
    f(np.ones(2, np.float64))
    gc.collect()
    assert program() is None


def test_max_cache():
    assert fuse.jit(add_relu).max_cache == 64
    f = fuse.jit(max_cache=None)(add_relu)
    assert f.max_cache is None
    for size in range(1, 4):
        f.trace(np.ones((1,) * size, np.float32), np.ones(1, np.float32))
    f.max_cache = 1
    assert f.cache_info().size == 1
    with pytest.raises(ValueError, match="max_cache must be a positive int or None, got 0"):
        fuse.jit(add_relu, max_cache=0)


def test_jitted_functions_compose(rng):
    @fuse.jit
    def inner(a, b):
        return fuse.relu(a + b)

    @fuse.jit(profile=True)
    def outer(a, b, c):
        return inner(a, b) * c

    a, b, c = (random_array(rng, "float32", (100,)) for _ in range(3))
    assert_same(outer(a, b, c), np.maximum(a + b, np.float32(0)) * c)
    # inner's body is part of outer's trace: one program, one kernel.
    assert outer.mlir == (
        "func.func @outer(%a: tensor<?xf32>, %b: tensor<?xf32>, %c: tensor<?xf32>) "
        "-> tensor<?xf32> {\n"
        "  %0 = fuse.add %a, %b : tensor<?xf32>\n"
        "  %1 = fuse.relu %0 : tensor<?xf32>\n"
        "  %2 = fuse.mul %1, %c : tensor<?xf32>\n"
        "  return %2 : tensor<?xf32>\n"
        "}\n")
    assert [k["name"] for k in outer.last_profile] == ["fused_add_relu_mul_0"]
    assert inner.cache_info() == fuse.CacheInfo(0, 0, 0, 0, 0)
    assert_same(inner(a, b), np.maximum(a + b, np.float32(0)))


def test_composition_takes_tuples_and_checks_static_arguments(rng):
    # A tuple of traced Tensors traces inline too (it was read as an array
    # argument, "numpy would stack the tuple"); a traced Tensor given to a
    # static parameter is refused as such (it failed in the body, "==:
    # unsupported operand str").
    pair = fuse.jit(lambda p: p[0] * p[1])
    scale = fuse.jit(lambda x, mode="double": x * 2.0 if mode == "double" else x,
                     static_argnames=("mode",))
    a, b = (random_array(rng, "float32", (10,)) for _ in range(2))
    assert_same(fuse.jit(lambda a, b: pair((a, b)) + scale(a))(a, b), a * b + a * 2)
    named = fuse.jit(lambda d: d["x"] - d["y"])
    assert_same(fuse.jit(lambda a, b: named({"x": a, "y": b}))(a, b), a - b)
    with pytest.raises(TypeError, match=r"^fuse: argument 'mode' of <lambda> is static "
                                        r"\(static_argnames\), and a traced Tensor has no value "
                                        r"while tracing: pass it a constant$"):
        fuse.jit(lambda a: scale(a, mode=a))(a)


def test_varargs(rng):
    @fuse.jit
    def total(*xs):
        out = xs[0]
        for x in xs[1:]:
            out = out + x
        return out

    xs = [random_array(rng, "int32", (4,)) for _ in range(3)]
    assert_same(total(*xs), xs[0] + xs[1] + xs[2])


def _parameters_of(mlir):
    """The SSA names of a traced function's parameters, in order."""
    return re.findall(r"%([^:,()\s]+):", mlir.split("\n", 1)[0])


def test_parameter_names_that_mlir_cannot_spell_take_names_no_other_has():
    # A parameter named what MLIR cannot spell (α) took f"arg{i}", which
    # another parameter could be named: f(arg1, α) was "region entry
    # argument '%arg1' is already in use", MLIR's text, when compiled.
    a, b, c = (np.full(3, v, np.float32) for v in (10, 1, 100))

    def f(arg1, α):
        return arg1 - 2 * α

    def g(α, β, arg1, arg0):
        return α + β + arg1 - arg0

    def h(xs1, *xs):
        return xs1 - 2 * xs[1] + 0 * xs[0]

    def k(arg2, *xs, arg0):
        return arg2 - 2 * xs[0] + xs[1] + arg0

    def m(x, *arg):
        return x - 2 * arg[0] + arg[1]

    def n(xs0, *xs, **kw):
        return xs0 - xs[0] + kw["α"] + kw["arg3"]

    # (function, args, kwargs, expected, the names that MLIR can spell)
    cases = [(f, (a, b), {}, a - 2 * b, ["arg1"]),
             (g, (a, b, c, b), {}, a + b + c - b, ["arg1", "arg0"]),
             (h, (a, b, c), {}, a - 2 * c, ["xs1"]),
             (k, (a, b, c), {"arg0": b}, a - 2 * b + c + b, ["arg2", "arg0"]),
             (m, (a, b, c), {}, a - 2 * b + c, ["x"]),
             (n, (a, b), {"α": c, "arg3": b}, a - b + c + b, ["xs0", "arg3"])]
    for fn, args, kwargs, expected, kept in cases:
        jitted = fuse.jit(fn, target="cpu")
        assert_same(jitted(*args, **kwargs), expected)
        names = _parameters_of(jitted.mlir)
        assert len(names) == len(set(names)) == len(args) + len(kwargs), jitted.mlir
        # Those keep their names.
        assert set(kept) <= set(names), jitted.mlir


def test_lists_and_numpy_scalars_are_arrays():
    f = fuse.jit(lambda x, y: x * y)
    assert_same(f([1.0, 2.0], np.float32(3)), np.array([3.0, 6.0]))
    # Nested lists and tuples of numbers (numpy scalars and 0-d arrays too),
    # as numpy reads them.
    assert_same(f([[1, 2], [3, 4]], (np.int64(2), np.array(3))),
                np.array([[2, 6], [6, 12]]))
    assert_same(f([], np.ones(1)), np.zeros(0))


def test_buffers_and_array_interfaces_are_arrays():
    # What np.asarray reads is an array argument: a memoryview, an
    # array.array, an object with __array_interface__ alone. They were
    # taken as constants of the trace, which then failed on them.
    import array

    class Interface:
        def __init__(self, values):
            self.__array_interface__ = values.__array_interface__
            self.values = values

    f = fuse.jit(lambda x: x * 2 + 1, target="cpu")
    values = np.arange(10, dtype=np.float64)
    for value in (memoryview(values), array.array("d", values), Interface(values)):
        assert_same(f(value), values * 2 + 1)
    assert_same(fuse.jit(lambda x: x, target="cpu")(memoryview(values)), values)
    assert f.cache_info().traces == 1


def test_a_list_of_ints_past_int64_is_an_overflow():
    # It was "a ragged list, or elements that are not numbers".
    with pytest.raises(OverflowError, match=re.escape(
            "is a list of ints that int64 does not hold (numpy makes it an array of Python "
            "objects); pass floats (2.0**70) or an array of a fuse dtype")):
        fuse.jit(lambda x: x + 1)([2**70, 1])


@pytest.mark.parametrize("value,what", [
    ([np.ones(3, np.float32), np.ones(3, np.float32)], "list of 2 arrays"),
    ((np.ones(3, np.float32),) * 3, "tuple of 3 arrays"),
    ([np.ones(3, np.float32), np.ones(4, np.float32)], "list of 2 arrays"),
    ([[np.ones(3, np.float32)], [np.ones(3, np.float32)]], "list that holds arrays"),
    ([1.0, np.ones(3, np.float32)], "list that holds arrays"),
], ids=["same-shapes", "tuple", "ragged-arrays", "nested", "mixed"])
def test_lists_of_arrays_are_refused(value, what):
    # numpy would stack the arrays into one, and `for p, g in zip(params,
    # grads)` would then fail on a Tensor, far from the cause.
    @fuse.jit
    def sgd(params, grads, lr):
        return tuple(p - lr * g for p, g in zip(params, grads))

    kind = what.split()[0]
    with pytest.raises(TypeError, match=rf"^fuse: argument 0 \('params'\) of sgd is a {what}: "
                                        rf"a jitted function takes each array as its own "
                                        rf"argument \(numpy would stack the {kind} into one "
                                        rf"array, which the function could not iterate over\); "
                                        rf"pass them one by one, as f\(\*arrays\) to a function "
                                        rf"with a \*arrays parameter \(def sgd\(\*arrays\): "):
        sgd(value, [np.ones(3, np.float32)] * 2, 0.1)
    # By keyword too, and as the second argument.
    with pytest.raises(TypeError, match=r"^fuse: argument 1 \('grads'\) of sgd is a "):
        sgd(np.ones(3, np.float32), lr=0.1, grads=value)


def test_ragged_lists_are_refused():
    f = fuse.jit(lambda x, y: x * y)
    with pytest.raises(TypeError, match=r"^fuse: argument 1 \('y'\) of <lambda> is a list that "
                                        r"numpy cannot read as one array \(a ragged list, whose "
                                        r"elements differ in length, or elements that are not "
                                        r"numbers\); pass an array, a list of numbers, or each "
                                        r"array as its own argument \(f\(\*arrays\)\)$"):
        f(np.ones(2), [[1.0, 2.0], [3.0]])


class _ZeroD:
    """A 0-d array-like as PyTorch's torch.tensor(2.5) is to numpy: its
    value through __array__, of its own dtype, and ndim 0."""

    ndim = 0

    def __init__(self, value, dtype):
        self.value = np.asarray(value, dtype)

    def __array__(self, dtype=None):
        return self.value if dtype is None else self.value.astype(dtype)


def test_a_list_of_0_d_arrays_is_read_element_by_element():
    # numpy reading array-likes inside a list gave a FutureWarning (PyTorch's
    # 0-d tensors: f([torch.tensor(1.), torch.tensor(2.)])), and one with no
    # __float__ could not be read there at all (the list was "ragged").
    f = fuse.jit(lambda x: x + 1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = f([_ZeroD(1.0, np.float32), _ZeroD(2.0, np.float32)])
        assert got.dtype == np.float32 and got.tolist() == [2.0, 3.0]
        assert f([[_ZeroD(1, np.int32)], [_ZeroD(2, np.int32)]]).tolist() == [[2], [3]]


def test_torch_tensors_on_the_cpu():
    torch = pytest.importorskip("torch")
    f = fuse.jit(lambda x: x + 1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = f([torch.tensor(1.0), torch.tensor(2.0)])
    assert got.dtype == np.float32 and got.tolist() == [2.0, 3.0]
    assert_same(f(torch.ones(3, dtype=torch.float16)), np.full(3, 2, np.float16))
    with pytest.raises(TypeError, match=r"^fuse: argument 'x' has dtype torch\.int8, .*"
                                        r"\(convert with \.to\(\.\.\.\)\)$"):
        f(torch.ones(3, dtype=torch.int8))
    with pytest.raises(TypeError, match=r"^fuse: argument 'x' has rank 33; fuse takes at most "
                                        r"rank 32$"):
        f(torch.ones((1,) * 33))
    half = fuse.jit(lambda x: x.astype(torch.float16))(np.ones(3, np.float32))
    assert half.dtype == np.float16


def test_arrays_as_varargs_can_be_iterated(rng):
    # What the errors above point to: each array its own argument.
    @fuse.jit
    def sgd(lr, *arrays):
        n = len(arrays) // 2
        return tuple(p - lr * g for p, g in zip(arrays[:n], arrays[n:]))

    params = [random_array(rng, "float32", (4,)) for _ in range(2)]
    grads = [random_array(rng, "float32", (4,)) for _ in range(2)]
    for got, p, g in zip(sgd(0.5, *params, *grads), params, grads):
        assert_same(got, p - np.float32(0.5) * g)


def two_outputs(x, y):
    s = x + y
    g = fuse.sigmoid(s)
    return s * g, g


MODELS = {
    "add_relu": (add_relu, [(1000,), (1000,)], 1, 2),
    "chain": (lambda x, z: fuse.tanh(fuse.exp(-abs(x - z)) * x), [(512,), (512,)], 1, 6),
    "mlp_epilogue": (lambda x, bias, res: (fuse.gelu(x + bias, approximate="tanh") + res) * 0.5,
                     [(16, 32), (32,), (16, 32)], 1, 4),
    "two_outputs": (two_outputs, [(300,), (300,)], 1, 3),
}


@pytest.mark.parametrize("name", MODELS)
def test_eager_equals_fused(name, rng):
    fn, shapes, fused_kernels, eager_kernels = MODELS[name]
    args = [random_array(rng, "float32", s) for s in shapes]
    fused = fuse.jit(fn, profile=True)
    eager = fuse.jit(fn, fusion=False, profile=True)
    got_fused, got_eager = fused(*args), eager(*args)
    if not isinstance(got_fused, tuple):
        got_fused, got_eager = (got_fused,), (got_eager,)
    for f, e in zip(got_fused, got_eager):
        assert_same(f, e)
    assert len(fused.last_profile) == fused_kernels
    assert len(eager.last_profile) == eager_kernels


def test_profile(rng):
    fused = fuse.jit(add_relu, profile=True)
    eager = fuse.jit(add_relu, fusion=False, profile=True)
    n = 1000
    a, b = random_array(rng, "float32", (n,)), random_array(rng, "float32", (n,))
    assert fused.last_profile is None
    fused(a, b)
    eager(a, b)
    assert [(k["name"], k["bytes"]) for k in fused.last_profile] == [("fused_add_relu_0", 12 * n)]
    assert [(k["name"], k["bytes"]) for k in eager.last_profile] == [("add_0", 12 * n),
                                                                     ("relu_1", 8 * n)]
    assert all(k["ms"] >= 0 for k in fused.last_profile + eager.last_profile)
    # Without profile=True nothing is recorded on the function.
    plain = fuse.jit(add_relu)
    plain(a, b)
    assert plain.last_profile is None


def test_profile_has_the_copies_of_results_no_kernel_writes(rng):
    # A result that no kernel writes (an argument returned, a value
    # returned twice) is copied: a row of its own, as fuse-run --profile
    # shows it, so that the rows' bytes sum to the report's (the profile
    # had none: `x.sum(axis=1)` of an N x 1 array listed nothing).
    view = fuse.jit(lambda x: x.sum(axis=1), profile=True)
    x = random_array(rng, "float32", (5000, 1))
    view(x)
    assert view.last_profile == [{"name": "[result 0 copied]", "bytes": 2 * 4 * 5000,
                                  "ms": view.last_profile[0]["ms"]}]
    twice = fuse.jit(lambda a, b: (a + b, a), profile=True)
    a = random_array(rng, "float32", (1000,))
    twice(a, a)
    assert [(k["name"], k["bytes"]) for k in twice.last_profile] == [
        ("add_0", 12 * 1000), ("[result 1 copied]", 8 * 1000)]
    report = fuse.explain(twice, a, a)
    assert "fused 20,000 bytes" in str(report)


def test_ptx():
    f = fuse.jit(add_relu)
    e = fuse.jit(add_relu, fusion=False)
    a = np.ones(4, np.float32)
    f.trace(a, a)
    e.trace(a, a)
    assert f.ptx.count(".entry") == 1 and "fused_add_relu_0" in f.ptx
    assert e.ptx.count(".entry") == 2
    assert ".target sm_80" in f.ptx_for("sm_80")


def test_mlir_before_any_call():
    f = fuse.jit(add_relu)
    with pytest.raises(RuntimeError, match="has not been traced yet"):
        f.mlir


def test_threads(rng):
    f = fuse.jit(add_relu)
    inputs = [(random_array(rng, "float32", (n,)), random_array(rng, "float32", (n,)))
              for n in range(100, 2100, 250)]
    results = [None] * len(inputs)

    def work(i):
        for _ in range(5):
            results[i] = f(*inputs[i])

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(inputs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for (a, b), got in zip(inputs, results):
        assert_same(got, np.maximum(a + b, np.float32(0)))
    # One signature (every size dynamic): traced and compiled once, however
    # the threads met; every other call a hit.
    info = f.cache_info()
    assert (info.traces, info.misses, info.hits) == (1, 1, 5 * len(inputs) - 1)
    assert info.compiles <= 1


def _run_script(script, timeout=120):
    """Runs Python `script` in a process of its own, with this package."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [os.path.dirname(os.path.dirname(fuse.__file__)), env.get("PYTHONPATH", "")])
    return subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                          text=True, timeout=timeout)


def test_exit_while_daemon_threads_run():
    # The programs are destroyed at exit (their kernels unloaded) after the
    # run in progress; a daemon thread's next call raises instead of running
    # a destroyed program (it crashed the process, rc 139).
    script = (
        "import threading, numpy as np, fuse\n"
        "f = fuse.jit(lambda a, b: fuse.relu(a + b) * 2, target='cpu')\n"
        "x = np.ones(100000, np.float32)\n"
        "f(x, x)\n"
        "def loop():\n"
        "    while True:\n"
        "        f(x, x)\n"
        "for _ in range(4):\n"
        "    threading.Thread(target=loop, daemon=True).start()\n"
        "print('exiting')\n")
    for _ in range(3):
        done = _run_script(script)
        assert (done.returncode, done.stdout) == (0, "exiting\n"), done.stderr


def test_exit_while_a_daemon_thread_ends_a_compile():
    # The exit destroys a program that a daemon thread has just compiled
    # and is still asking for its inputs' types: the destruction waits for
    # those questions (it came in between, and the question crashed the
    # process, rc 139, on the destroyed program).
    script = (
        "import os, threading, time, fuse\n"
        "from fuse import _capi\n"
        "lib = _capi.lib()\n"
        "input_type, destroy = lib.fuse_input_type, lib.fuse_destroy\n"
        "asking = threading.Event()\n"
        "def slow_input_type(program, index, array):\n"
        "    asking.set()\n"
        "    time.sleep(0.5)\n"
        "    os.write(1, b'input type\\n')\n"
        "    return input_type(program, index, array)\n"
        "def logged_destroy(program):\n"
        "    os.write(1, b'destroy\\n')\n"
        "    destroy(program)\n"
        "lib.fuse_input_type, lib.fuse_destroy = slow_input_type, logged_destroy\n"
        "text = ('func.func @f(%a: tensor<?xf32>) -> tensor<?xf32> {\\n'\n"
        "        '  %0 = fuse.neg %a : tensor<?xf32>\\n'\n"
        "        '  return %0 : tensor<?xf32>\\n}\\n')\n"
        "threading.Thread(target=fuse.compile, args=(text,), kwargs={'target': 'cpu'},\n"
        "                 daemon=True).start()\n"
        "asking.wait()\n"
        "print('exiting', flush=True)\n")
    done = _run_script(script)
    assert (done.returncode, done.stdout) == (0, "exiting\ninput type\ndestroy\n"), done.stderr


def test_fork_waits_for_a_compile_in_progress():
    # Another thread holds the library (as a compile does) when the main
    # thread forks: the fork waits for it, and the child compiles and runs.
    # The child hung on the lock, held there by a thread it does not have.
    script = (
        "import os, threading, time, numpy as np, fuse\n"
        "from fuse import _capi\n"
        "held = threading.Event()\n"
        "def compiling():\n"
        "    with _capi.library_lock:\n"
        "        held.set()\n"
        "        time.sleep(0.5)\n"
        "threading.Thread(target=compiling).start()\n"
        "held.wait()\n"
        "pid = os.fork()\n"
        "if pid == 0:\n"
        "    r = fuse.jit(lambda x: x + 1, target='cpu')(np.ones(4, np.float32))\n"
        "    os._exit(0 if (r == 2).all() else 3)\n"
        "print(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))\n")
    done = _run_script(script, timeout=60)
    assert (done.returncode, done.stdout) == (0, "0\n"), done.stderr


def test_fork_while_another_thread_runs_first():
    # The main thread forks while another thread runs a program for the
    # first time in the process. The OpenMP runtime started at that run and
    # registered its fork handlers only then: a child forked while it
    # started waited forever on its start lock (most runs hung a child).
    script = (
        "import os, threading, time, numpy as np, fuse\n"
        "x = np.ones(1 << 16, np.float32)\n"
        "text = ('func.func @f(%a: tensor<?xf32>) -> tensor<?xf32> {\\n'\n"
        "        '  %0 = fuse.OP %a : tensor<?xf32>\\n'\n"
        "        '  return %0 : tensor<?xf32>\\n}\\n')\n"
        "child = fuse.compile(text.replace('OP', 'relu'), target='cpu')\n"
        "first = fuse.compile(text.replace('OP', 'neg'), target='cpu')\n"
        "thread = threading.Thread(target=first, args=(x,))\n"
        "thread.start()\n"
        "pids = []\n"
        "while thread.is_alive() and len(pids) < 40:\n"
        "    pid = os.fork()\n"
        "    if pid == 0:\n"
        "        os._exit(0 if (child(x)[0] == 1).all() else 3)\n"
        "    pids.append(pid)\n"
        "thread.join()\n"
        "deadline = time.time() + 30\n"
        "codes = []\n"
        "for pid in pids:\n"
        "    while True:\n"
        "        done, status = os.waitpid(pid, os.WNOHANG)\n"
        "        if done:\n"
        "            codes.append(os.waitstatus_to_exitcode(status))\n"
        "            break\n"
        "        if time.time() >= deadline:\n"
        "            os.kill(pid, 9)\n"
        "            os.waitpid(pid, 0)\n"
        "            codes.append('hung')\n"
        "            break\n"
        "        time.sleep(0.01)\n"
        "print(sorted(set(codes), key=str))\n")
    done = _run_script(script, timeout=90)
    assert (done.returncode, done.stdout) == (0, "[0]\n"), done.stderr


def test_threads_trace_a_new_signature_once(rng):
    # Two threads call with the same new signature while the first is still
    # tracing it (the trace takes 0.2 s): the second waits for that trace.
    def slow_neg(x):
        time.sleep(0.2)
        return -x

    f = fuse.jit(slow_neg, target="cpu")
    x = random_array(rng, "float32", (10,))
    barrier = threading.Barrier(2)
    results = [None, None]

    def work(i):
        barrier.wait()
        results[i] = f(x)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for got in results:
        assert_same(got, -x)
    info = f.cache_info()
    assert (info.traces, info.misses, info.hits) == (1, 1, 1)


def test_programs_run_at_once_with_their_own_profiles(rng):
    # Runs of different programs are not serialized: each thread's run keeps
    # its own records in the runtime, so each program's profile is its own.
    fused = fuse.compile(
        "func.func @f(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {\n"
        "  %0 = fuse.add %a, %b : tensor<?xf32>\n"
        "  %1 = fuse.relu %0 : tensor<?xf32>\n"
        "  return %1 : tensor<?xf32>\n}\n", target="cpu")
    eager = fuse.compile(
        "func.func @g(%x: tensor<?xf32>) -> tensor<?xf32> {\n"
        "  %0 = fuse.mul %x, %x : tensor<?xf32>\n"
        "  %1 = fuse.neg %0 : tensor<?xf32>\n"
        "  return %1 : tensor<?xf32>\n}\n", target="cpu", fusion=False)
    a, b, x = (random_array(rng, "float32", (5000,)) for _ in range(3))
    failures = []

    def work(program, args, want, kernels):
        try:
            for _ in range(100):
                (got,) = program(*args)
                names = [k["name"] for k in program.last_profile]
                if names != kernels or not np.array_equal(got, want):
                    failures.append((names, kernels))
        except fuse.FuseError as error:
            failures.append(str(error))

    threads = [threading.Thread(target=work, args=(fused, (a, b), np.maximum(a + b, np.float32(0)),
                                                   ["fused_add_relu_0"])),
               threading.Thread(target=work, args=(eager, (x,), -(x * x), ["mul_0", "neg_1"]))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []


def test_result_memory_outlives_views(rng):
    f = fuse.jit(lambda x: x + 1)
    x = random_array(rng, "float64", (1000,))
    view = f(x)[10:20]
    gc.collect()
    for _ in range(20):
        f(x)  # reuses freed buffers; the view must keep its own alive
    assert_same(view, x[10:20] + 1)


def test_numpy_scalar_and_zero_d_inputs():
    f = fuse.jit(lambda a, b: a * b + 1)
    got = f(np.float64(2.5), np.array(4.0))
    assert got.shape == () and got == 11.0


def test_repeated_calls_take_the_short_path_with_the_same_answers(rng):
    # Positional numpy arrays that need no conversion skip the signature and
    # the checks after the first call; the others take the full path. Both
    # count as hits, and both give numpy's answers.
    f = fuse.jit(add_relu, target="cpu")
    a, b = random_array(rng, "float32", (1001,)), random_array(rng, "float32", (1001,))
    for _ in range(3):
        assert_same(f(a, b), np.maximum(a + b, np.float32(0)))
    assert f._fast, "the first call did not record the short path"
    info = f.cache_info()
    assert (info.misses, info.hits) == (1, 2)
    # A strided view, another byte order, a keyword argument: the full
    # path, converting as before. A view at an offset (not 16-byte aligned)
    # takes the short path: the library copies it for the kernels' vectors.
    wide = random_array(rng, "float32", (2002,))
    for x, y in [(wide[::2], b), (wide[1:1002], b), (a.astype(">f4"), b)]:
        assert_same(f(x, y), np.maximum(x.astype(np.float32) + y, np.float32(0)))
    assert_same(f(a, b=b), np.maximum(a + b, np.float32(0)))
    # A size of 1 is another signature: broadcasting, traced on its own.
    one = random_array(rng, "float32", (1,))
    assert_same(f(a, one), np.maximum(a + one, np.float32(0)))
    assert f.cache_info().traces == 2
    f.cache_clear()
    assert not f._fast
    assert_same(f(a, b), np.maximum(a + b, np.float32(0)))
    assert f.cache_info().misses == 1


def test_out_writes_the_results_into_the_callers_arrays(rng):
    # The kernels write into the caller's array (fuse-result-allocs), which
    # the call returns; None leaves a result to a new array.
    f = fuse.jit(add_relu, target="cpu")
    a, b = random_array(rng, "float32", (1001,)), random_array(rng, "float32", (1001,))
    out = np.full(1001, np.nan, np.float32)
    assert f(a, b, out=out) is out
    assert_same(out, np.maximum(a + b, np.float32(0)))
    g = fuse.jit(lambda x, y: (x + y, x * y), target="cpu")
    total = np.full(1001, np.nan, np.float32)
    got = g(a, b, out=(total, None))
    assert got[0] is total
    assert_same(total, a + b)
    assert_same(got[1], a * b)
    # Program objects take out= too; calls without it are as before.
    program = f.program
    assert program(a, b, out=[out])[0] is out
    assert_same(f(a, b), np.maximum(a + b, np.float32(0)))
    # A parameter named out is the function's own.
    h = fuse.jit(lambda a, out: a - out, target="cpu")
    assert_same(h(a, out=b), a - b)


def test_out_over_an_argument_is_in_place(rng):
    # numpy's np.add(a, b, out=a): the result is computed apart and copied
    # into the argument's memory once the program has run (a fused program
    # may read an argument after a kernel wrote a result).
    a, b = random_array(rng, "float32", (1001,)), random_array(rng, "float32", (1001,))
    want = np.maximum(a + b, np.float32(0))
    f = fuse.jit(add_relu, target="cpu")
    assert f(a, b, out=a) is a
    assert_same(a, want)
    # A softmax reads its row three times after the first kernel's writes.
    x = random_array(rng, "float32", (37, 300))
    softmax = fuse.jit(lambda x: fuse.softmax(x), target="cpu")
    expected = softmax(x)
    assert softmax(x, out=x) is x
    assert_same(x, expected)
    # Two results, one over an argument and one new; an output that
    # overlaps an argument in part.
    g = fuse.jit(lambda x, y: (x * y, x + y), target="cpu")
    product, total = a * b, a + b
    first, second = g(a, b, out=(b, None))
    assert first is b
    assert_same(b, product)
    assert_same(second, total)
    # Outputs over each other stay refused, over an argument or not.
    for outs in ((a, a), (b[4:], b[:-4])):
        with pytest.raises(fuse.FuseError, match="the output array for result 1 overlaps the "
                                                 "output array for result 0"):
            g(a[:997], b[:997], out=(outs[0][:997], outs[1][:997]))
    memory = random_array(rng, "float32", (2000,))
    twice = fuse.jit(lambda x: x * 2, target="cpu")
    head = memory[:1000].copy()
    assert_same(twice(memory[:1000], out=memory[500:1500]), head * 2)
    # An output that is not aligned for the kernels' vector stores (a view
    # at an offset) gets its result by a copy too; the memory around it is
    # left as it was.
    a = random_array(rng, "float32", (1001,))
    want = np.maximum(a + b, np.float32(0))
    wide = np.full(1003, -7, np.float32)
    got = f(a, b, out=wide[1:1002])
    assert got.base is wide
    assert_same(wide[1:1002], want)
    assert wide[0] == -7 and wide[1002] == -7
    # Program objects and the C API do the same (fuse_run_into).
    x = random_array(rng, "float32", (1001,))
    expected = np.maximum(x + b, np.float32(0))
    assert f.program(x, b, out=[x])[0] is x
    assert_same(x, expected)


def test_an_optimizer_step_in_place_is_written_without_a_copy(rng):
    """out= over the arguments of a program of one elementwise kernel that
    reads each only where it writes the result (an optimizer's step:
    parameters and moments updated in place) is written into directly: it
    was computed apart and copied, 24 bytes an element more for Adam (1.75x
    its time), which the profile did not show. Where a copy is made, the
    profile lists it."""
    def momentum(p, g, m, lr):
        m = m * 0.9 + g
        return p - lr * m, m
    step = fuse.jit(momentum, target="cpu", profile=True)
    p, g, m = (random_array(rng, "float32", (1001,)) for _ in range(3))
    want_p, want_m = step(p, g, m, 0.01)
    got = step(p, g, m, 0.01, out=(p, m))
    assert got[0] is p and got[1] is m
    assert_same(p, want_p)
    assert_same(m, want_m)
    assert [k["name"] for k in step.last_profile] == ["fused_mul_add_mul_sub_0"]
    # A softmax reads its row again after its first kernel's writes: its
    # result is copied into x, and the profile says so, with the copy's
    # bytes read and written.
    x = random_array(rng, "float32", (37, 300))
    softmax = fuse.jit(lambda x: fuse.softmax(x), target="cpu", profile=True)
    expected = softmax(x)
    softmax(x, out=x)
    assert_same(x, expected)
    copies = [k for k in softmax.last_profile if k["name"].startswith("[result")]
    assert [(k["name"], k["bytes"]) for k in copies] == [
        ("[result 0 copied into its array]", 2 * x.nbytes)]
    # An output over part of an argument is still copied; over the whole
    # of it, written into.
    twice = fuse.jit(lambda x: x * 2, target="cpu", profile=True)
    memory = random_array(rng, "float32", (2000,))
    head = memory[:1000].copy()
    twice(memory[:1000], out=memory[500:1500])
    assert_same(memory[500:1500], head * 2)
    assert [k["name"] for k in twice.last_profile] == [
        "mul_0", "[result 0 copied into its array]"]
    head = memory[:1000].copy()
    twice(memory[:1000], out=memory[:1000])
    assert_same(memory[:1000], head * 2)
    assert [k["name"] for k in twice.last_profile] == ["mul_0"]


def test_the_profile_lists_the_copies_of_arguments():
    # An argument that the kernels cannot read in place is copied first,
    # which the profile did not show (a strided view's call took twice
    # numpy's time with one kernel listed): a row each, first, with its
    # reasons and its bytes read and written; none for arrays read in place.
    rng = np.random.default_rng(0)
    x = random_array(rng, "float32", (30, 40))
    add = fuse.jit(lambda a, b: a + b, target="cpu", profile=True)
    assert_same(add(x[:, ::2], x.astype(">f4")[:, :20]), x[:, ::2] + x[:, :20])
    rows = [(k["name"], k["bytes"]) for k in add.last_profile]
    assert rows == [("[argument 'a' copied: not C-contiguous]", 2 * 30 * 20 * 4),
                    # (Converted into a C array at once.)
                    ("[argument 'b' copied: not in native byte order]", 2 * 30 * 20 * 4),
                    ("add_0", 3 * 30 * 20 * 4)]
    assert all(k["ms"] >= 0 for k in add.last_profile)
    flat = x.ravel()
    add(flat[1:], flat[:-1])
    assert [k["name"] for k in add.last_profile] == [
        "[argument 'a' copied: not 16-byte aligned]", "add_0"]
    add(x, x)
    assert [k["name"] for k in add.last_profile] == ["add_0"]
    # The short path of a repeated call copies nothing either.
    add(x, x)
    assert [k["name"] for k in add.last_profile] == ["add_0"]
    # A bool view of other bytes, normalized to 0 and 1.
    mask = np.frombuffer(np.array([0, 2, 1, 255], np.uint8).tobytes(), np.bool_)
    count = fuse.jit(lambda m: m * 1, target="cpu", profile=True)
    assert count(mask).tolist() == [0, 1, 1, 1]
    assert count.last_profile[0]["name"] == (
        "[argument 'm' copied: bools of other bytes than 0 and 1]")


def test_library_errors_of_a_jitted_function_name_it():
    # The library's messages reached the caller as they are: "no option
    # 'block-sise'; ...", with no `fuse: ` and no function, though each is
    # of one function's call (its first, for the options, which only the
    # library reads: fuse.jit does not load it).
    def body(x):
        return x + 1

    with pytest.raises(fuse.FuseError, match=r"^fuse: body: no option 'block-sise'; the "
                                             r"options are .*block-size"):
        fuse.jit(body, target="cpu", options="block-sise=64")(np.ones(3, np.float32))
    twice = fuse.jit(lambda x: x * 2, target="cpu")
    with pytest.raises(fuse.FuseError, match=r"^fuse: <lambda>: the output array for result 0 "
                                             r"has shape 4x3; the result's is 3x4$"):
        twice(np.ones((3, 4), np.float32), out=np.empty((4, 3), np.float32))
    # 2^59 x 2 sums of an empty operand: more than any host has.
    sums = fuse.jit(lambda x: x.sum(axis=2), target="cpu")
    with pytest.raises(fuse.FuseError, match=r"^fuse: <lambda>: out of host memory allocating "
                                             r"\d+ bytes \(\d+\.\d GiB\) for result 0$"):
        sums(np.empty((2**59, 2, 0), np.float16))
    # fuse.compile's are the library's text as it is.
    with pytest.raises(fuse.FuseError, match=r"^no option 'block-sise'"):
        fuse.compile(twice.mlir, target="cpu", options="block-sise=64")


def test_out_takes_a_memmap(rng, tmp_path):
    # A memmap is a numpy array, as numpy's out= takes it (it was refused).
    f = fuse.jit(add_relu, target="cpu")
    a, b = random_array(rng, "float32", (1001,)), random_array(rng, "float32", (1001,))
    mapped = np.memmap(tmp_path / "out.bin", np.float32, "w+", shape=(1001,))
    assert f(a, b, out=mapped) is mapped
    mapped.flush()
    assert_same(np.fromfile(tmp_path / "out.bin", np.float32), np.maximum(a + b, 0))


def test_out_is_checked(rng):
    f = fuse.jit(add_relu, target="cpu")
    a, b = random_array(rng, "float32", (1001,)), random_array(rng, "float32", (1001,))
    wide = np.empty(2002, np.float32)
    frozen = np.empty(1001, np.float32)
    frozen.flags.writeable = False
    cases = [
        (np.empty(1000, np.float32), fuse.FuseError,
         "the output array for result 0 has 1000 elements; the result has 1001"),
        (np.empty((7, 143), np.float32), fuse.FuseError,
         "the output array for result 0 does not fit the result, tensor<?xf32>: expected "
         "rank 1, got shape 7x143"),
        (np.empty((1, 1001), np.float32), fuse.FuseError, "got shape 1x1001"),
        (np.empty(1001, np.float64), TypeError, "fuse: add_relu: out= for result 0 is "
         "float64; the result is float32: pass an array of float32"),
        (wide[::2][:1001], TypeError, "fuse: add_relu: out= for result 0 is not C-contiguous "
         "(strides (8,) bytes for shape (1001,): a view with steps or in Fortran order)"),
        (frozen, TypeError, "fuse: add_relu: out= for result 0 is read-only (its "
         "flags.writeable is False)"),
        ((np.empty(1001, np.float32),) * 2, TypeError, "fuse: add_relu: out= has 2 array(s) "
         "for 1 result(s): out= is a numpy array, or a tuple of them with one per result"),
        ([1.0], TypeError, "fuse: add_relu: out= is a list of numbers, not an array"),
        ((1.0,), TypeError, "fuse: add_relu: out= is a tuple of numbers, not an array"),
        ((None, 1.0), TypeError, "fuse: add_relu: out= is a tuple of numbers, not an array"),
        ((None, "x"), TypeError, "fuse: add_relu: out= has 2 array(s) for 1 result(s)"),
        (("x",), TypeError, "fuse: add_relu: out= for result 0 is a str, not a numpy array"),
        (np.ma.masked_array(np.empty(1001, np.float32)), TypeError,
         "fuse: add_relu: out= for result 0 is a MaskedArray, not a numpy array (an "
         "np.memmap is one; a masked array or an np.matrix is not)"),
    ]
    for out, error, message in cases:
        with pytest.raises(error, match=re.escape(message)):
            f(a, b, out=out)
    # As many elements in another shape: known when the sizes are.
    twice = fuse.jit(lambda x: x * 2, target="cpu")
    with pytest.raises(fuse.FuseError, match=re.escape(
            "the output array for result 0 has shape 4x3; the result's is 3x4")):
        twice(np.ones((3, 4), np.float32), out=np.empty((4, 3), np.float32))
    g = fuse.jit(lambda x, y: (x + y, x * y), target="cpu")
    shared = np.empty(1001, np.float32)
    with pytest.raises(fuse.FuseError, match="result 1 overlaps the output array for result 0"):
        g(a, b, out=(shared, shared))
    # Nothing was left behind: the next calls work.
    assert_same(f(a, b), np.maximum(a + b, np.float32(0)))


def test_explain_leaves_the_latest_call_and_program_compiles_after_a_trace():
    f = fuse.jit(add_relu, target="cpu")
    x = np.ones(4, np.float32)
    f(x, x)
    text = f.mlir
    fuse.explain(f, x.astype(np.float64), x)
    fuse.report(f, x.astype(np.float16), x)
    assert f.mlir == text
    assert [t.dtype for t in f.program.inputs] == ["f32", "f32"]
    # After fn.trace, fn.program is that trace's, compiled when asked for.
    f.trace(x.astype(np.float64), x)
    assert [t.dtype for t in f.program.inputs] == ["f64", "f32"]


@pytest.mark.parametrize("fusion, kernels", [("off", 2), ("ON", 1), (False, 2), (np.True_, 1)])
def test_fusion_takes_bools_and_on_off(fusion, kernels):
    f = fuse.jit(add_relu, fusion=fusion, target="cpu", profile=True)
    x = np.ones(4, np.float32)
    f(x, x)
    assert len(f.last_profile) == kernels


@pytest.mark.parametrize("fusion", [0, None, "maybe"])
def test_fusion_refuses_other_values(fusion):
    with pytest.raises(ValueError, match=r"fusion must be True or False \(or 'on', 'off'\)"):
        fuse.jit(add_relu, fusion=fusion)
    # profile= takes the same words (it took True or False only).
    with pytest.raises(ValueError, match=r"profile must be True or False \(or 'on', 'off'\)"):
        fuse.jit(add_relu, profile=fusion)
    assert fuse.jit(add_relu, profile="on").profile is True
    with pytest.raises(ValueError, match=r"fusion must be True or False"):
        fuse.compile("func.func @f() { return }", fusion=fusion)


def test_constants_equal_but_traced_apart():
    # Static arguments that compare equal shared one trace, though they
    # trace differently: a frozen dataclass is keyed by its fields' values,
    # each of its type (as a tuple's are), and another object by identity
    # (its __eq__ may call objects whose traces differ equal).
    import dataclasses

    @dataclasses.dataclass(frozen=True)
    class Config:
        k: float

    f = fuse.jit(lambda x, cfg: 1 / (x * cfg.k), static_argnames="cfg", target="cpu")
    x = np.ones(2, np.float32)
    assert_same(f(x, Config(0.0)), np.full(2, np.inf, np.float32))
    assert_same(f(x, Config(-0.0)), np.full(2, -np.inf, np.float32))
    g = fuse.jit(lambda x, cfg: x * cfg.k, static_argnames="cfg", target="cpu")
    i = np.arange(3, dtype=np.int32)
    assert g(i, Config(2)).dtype == np.int32
    assert g(i, Config(2.0)).dtype == np.float32
    # Equal values of one frozen dataclass share a trace.
    g(i, Config(2.0))
    assert g.cache_info().traces == 2

    class AllEqual:
        def __init__(self, k):
            self.k = k

        def __eq__(self, other):
            return isinstance(other, AllEqual)

        def __hash__(self):
            return 1

        @fuse.jit(target="cpu")
        def scale(self, x):
            return x * self.k

    assert_same(AllEqual(2.0).scale(x), np.full(2, 2, np.float32))
    assert_same(AllEqual(5.0).scale(x), np.full(2, 5, np.float32))


def test_a_method_does_not_keep_its_object():
    # The signature key held a method's self, and all it held (a model's
    # weights), as long as the cache kept the trace. A @dataclass, which is
    # not hashable unless frozen, is a self too (it was refused).
    import dataclasses

    @dataclasses.dataclass
    class Layer:
        weights: np.ndarray
        k: float = 2.0

        @fuse.jit(target="cpu")
        def forward(self, x):
            return x * self.k

    x = np.ones(2, np.float32)
    refs = []
    for k in (2.0, 3.0):
        layer = Layer(np.ones(1000, np.float32), k)
        assert_same(layer.forward(x), np.full(2, k, np.float32))
        refs.append(weakref.ref(layer))
        del layer
    gc.collect()
    assert [r() for r in refs] == [None, None]
    assert Layer.forward.cache_info().traces == 2


def test_an_object_without_weak_references_is_held_until_the_cache_lets_it_go():
    # python/README.md, Methods: an object whose class has __slots__ and no
    # __weakref__ cannot be held weakly, so the cache holds it until its
    # signature is evicted or the cache cleared; a key of its id() alone
    # would match the next object at its address, with the first one's
    # trace.
    freed = []

    class Slotted:
        __slots__ = ("k",)

        def __init__(self, k):
            self.k = k

        def __del__(self):
            freed.append(self.k)

        @fuse.jit(target="cpu", max_cache=2)
        def scale(self, x):
            return x * self.k

    x = np.ones(2, np.float32)
    for k in (2.0, 3.0):
        assert_same(Slotted(k).scale(x), np.full(2, k, np.float32))
    gc.collect()
    assert freed == []
    # The third evicts the first (max_cache=2); cache_clear lets go of all.
    assert_same(Slotted(4.0).scale(x), np.full(2, 4, np.float32))
    gc.collect()
    assert freed == [2.0]
    Slotted.scale.cache_clear()
    gc.collect()
    assert sorted(freed) == [2.0, 3.0, 4.0]


def test_static_class_methods_and_array_defaults():
    # @fuse.jit over @staticmethod took an instance's call's instance as
    # its first argument; over @classmethod it was refused. A numpy array
    # as a parameter's default is passed as the call would pass it (it was
    # "a numpy array inside a traced function").
    w0 = np.array([1, 2], np.float32)

    class M:
        k = 3.0

        @fuse.jit(target="cpu")
        @staticmethod
        def plus(a, w=w0):
            return a + w

        @fuse.jit(target="cpu")
        @classmethod
        def times(cls, a):
            return a * cls.k

    x = np.ones(2, np.float32)
    assert_same(M.plus(x), np.array([2, 3], np.float32))
    assert_same(M().plus(x), np.array([2, 3], np.float32))
    assert_same(M().plus(x, w=x), np.full(2, 2, np.float32))
    assert_same(M.times(x), np.full(2, 3, np.float32))
    assert_same(M().times(x), np.full(2, 3, np.float32))


def test_zero_d_arrays_held_or_defaulted_are_of_their_dtype():
    # A 0-d array or numpy scalar that the traced code holds (a global) or
    # a parameter's default is what it is as an argument: a 0-d value of
    # its own dtype (float64 here, as PyTorch and numpy give), not a Python
    # float (float32, off in the 8th digit), and an int64 2**40 is not an
    # int32 that it does not fit.
    x = np.array([1, 2], np.int32)
    w = np.array(0.1)
    passed = fuse.jit(lambda a, w: a + w, target="cpu")(x, w)
    assert passed.dtype == np.float64
    defaulted = fuse.jit(lambda a, w=w: a + w, target="cpu")(x)
    held = fuse.jit(lambda a: a + w, target="cpu")(x)
    scalar = fuse.jit(lambda a: a + np.float64(0.1), target="cpu")(x)
    for got in (defaulted, held, scalar):
        assert_same(got, passed)
    x64 = x.astype(np.int64)
    defaulted = fuse.jit(lambda a, b=np.array(2**40): a + b, target="cpu")
    passed = fuse.jit(lambda a, b: a + b, target="cpu")
    assert_same(defaulted(x64), passed(x64, np.array(2**40)))
    assert_same(defaulted(x64), x64 + 2**40)
    # With an int32 array the int64 0-d value takes int32 (PyTorch's 0-d
    # tensors): both are checked as a Python int is (they wrapped to x + 0).
    for call in (lambda: defaulted(x), lambda: passed(x, np.array(2**40))):
        with pytest.raises(OverflowError, match=r"^fuse: argument 'b' = 1099511627776 does "
                                                r"not fit int32"):
            call()


def test_held_numpy_scalars_of_other_dtypes_are_refused_as_passed_ones():
    # np.uint8(200) held was taken as the Python int 200 (and
    # np.uint32(2**32 - 1) called "the Python int 4294967295"), where passed
    # it is refused: both name the dtype and the supported ones.
    x = np.ones(2, np.int32)
    supported = (r", which fuse does not support; supported dtypes are float16, float32, "
                 r"float64, int32, int64 and bool \(convert with \.astype\(\.\.\.\)\)$")
    with pytest.raises(TypeError, match=r"^fuse: argument 's' has dtype uint8" + supported):
        fuse.jit(lambda x, s: x + s)(x, np.uint8(200))
    for value, dtype in ((np.uint8(200), "uint8"), (np.int8(-3), "int8"),
                         (np.uint32(2**32 - 1), "uint32"), (np.array(7, np.int16), "int16")):
        kind = "a numpy scalar" if isinstance(value, np.generic) else "a 0-d numpy array"
        with pytest.raises(TypeError, match=r"^fuse: \+ at .*test_jit\.py:\d+:\d+: " + kind +
                                            r", " + str(int(value)) + r", that the traced "
                                            r"function holds \(a global, a closure's or an "
                                            r"attribute's\), has dtype " + dtype + supported):
            fuse.jit(lambda x: x + value)(x)
    assert_same(fuse.jit(lambda x: x + np.int32(-3))(x), x + np.int32(-3))


def test_transposed_arrays_are_read_in_place():
    # Arrays in Fortran order (x.T) were copied into C order first, 12 times
    # numpy's time for relu(x.T) + 1 at 2048 x 2048. An elementwise program
    # computes f(x.T) as f(x).T, reading them in place, and gives Fortran
    # arrays, as numpy does.
    rng = np.random.default_rng(0)
    x = rng.standard_normal((5, 7)).astype(np.float32).T
    y = rng.standard_normal((5, 7)).astype(np.float32).T
    f = fuse.jit(lambda a, b, s: (fuse.relu(a) * b + s, a - b), target="cpu")
    got, diff = f(x, y, 2.0)
    assert got.shape == (7, 5) and got.flags.f_contiguous
    assert_same(got, np.maximum(x, 0) * y + np.float32(2.0))
    assert_same(diff, x - y)
    # The program is that of the C arrays x.T and y.T: no copy.
    assert f.trace(x.T, y.T, 2.0) == f.mlir
    # out= arrays in Fortran order, written as C arrays of the transposes
    # (refused as not C-contiguous), and returned themselves; over an
    # argument too. Of another shape: the usual path's error.
    o1, o2 = np.zeros((7, 5), np.float32, order="F"), np.zeros((7, 5), np.float32, order="F")
    got = f(x, y, 2.0, out=(o1, o2))
    assert got[0] is o1 and got[1] is o2
    assert_same(o1, np.maximum(x, 0) * y + np.float32(2.0))
    assert_same(o2, x - y)
    add = fuse.jit(lambda a, b: a + b, target="cpu")
    a = x.copy(order="F")
    assert add(a, y, out=a) is a
    assert_same(a, x + y)
    with pytest.raises(TypeError, match=r"out= for result 0 is not C-contiguous"):
        add(x, y, out=np.zeros((5, 7), np.float32, order="F"))
    # A numpy scalar too, as a 0-d array (it took the usual path).
    for scalar in (np.float32(2.0), np.array(2.0, np.float32)):
        got, _ = f(x, y, scalar)
        assert got.flags.f_contiguous and not got.flags.c_contiguous
        assert_same(got, np.maximum(x, 0) * y + np.float32(2.0))
    # Rank 3, and one array alone.
    z = rng.standard_normal((3, 4, 6)).astype(np.float32)
    zt = np.transpose(z)
    assert_same(fuse.jit(lambda a: a * a, target="cpu")(zt), zt * zt)
    # A reduction reads axes: the usual path (with the copy).
    assert_same(fuse.jit(lambda a: a.max(0), target="cpu")(x), x.max(0))
    # Mixed orders, a size of 1, or shapes that differ: the usual path.
    assert_same(f(x, np.ascontiguousarray(y), 1.0)[0], np.maximum(x, 0) * y + np.float32(1.0))
    one = rng.standard_normal((1, 7)).astype(np.float32).T
    assert_same(fuse.jit(lambda a: a + 1, target="cpu")(one), one + 1)
    with pytest.raises(fuse.FuseError, match="dimension 1 of argument 'a' and dimension 1 of "
                                             "argument 'b' must be equal"):
        f(x, rng.standard_normal((6, 7)).astype(np.float32).T, 1.0)
    # An array that is not a transposed argument (a default)
    # broadcasts along the axes of x, not of x.T: the usual path. Each gave
    # x * w broadcast along the wrong axis, or refused the shapes.
    square = np.arange(9, dtype=np.float32).reshape(3, 3).T
    weights = np.array([1.0, 10.0, 100.0], np.float32)
    assert_same(fuse.jit(lambda a, w=weights: a * w, target="cpu")(square), square * weights)
    tall = np.ones((4, 3), np.float32).T
    assert_same(fuse.jit(lambda a, b=np.zeros(4, np.float32): a + b, target="cpu")(tall),
                tall + np.zeros(4, np.float32))
    # One of one element broadcasts the same either way: read in place.
    got = fuse.jit(lambda a, w=np.array([2.0], np.float32): a * w, target="cpu")(square)
    assert got.flags.f_contiguous and not got.flags.c_contiguous
    assert_same(got, square * np.float32(2.0))
    # Unless it has more axes than the arguments: they lead the result,
    # and the transpose put them last ((3, 3, 1) for numpy's (1, 3, 3)).
    cube = np.ones((1, 1, 1), np.float32)
    got = fuse.jit(lambda a, w=cube: a + w, target="cpu")(square)
    assert got.shape == (1, 3, 3)
    assert_same(got, square + cube)


def test_partials_callable_objects_and_methods():
    import functools

    def scale(x, s):
        return x * s

    class AddOne:
        def __call__(self, x):
            return x + 1

    class Model:
        factor = 3.0

        @fuse.jit(target="cpu")
        def apply(self, x):
            return x * self.factor

    x = np.ones(3, np.float32)
    partial = fuse.jit(functools.partial(scale, s=2.0), target="cpu")
    assert repr(partial).startswith("<fuse.jit scale ")
    assert_same(partial(x), np.full(3, 2, np.float32))
    callable_object = fuse.jit(AddOne(), target="cpu")
    assert repr(callable_object).startswith("<fuse.jit AddOne ")
    assert_same(callable_object(x), np.full(3, 2, np.float32))
    # A method is called with its instance, a constant of the trace.
    assert_same(Model().apply(x), np.full(3, 3, np.float32))
    with pytest.raises(TypeError, match="fuse.jit takes a function, not int 5"):
        fuse.jit(5)


@fuse.jit(target="cpu")
def _add_relu_by_name(a, b):
    return fuse.relu(a + b)


def test_a_jitted_function_pickles_and_copies_as_a_function():
    """pickle (multiprocessing's spawn) writes a jitted function by its
    name where its module has it, else its function and options; copy and
    deepcopy (of a model that holds one) give the same object, as for a
    function. Each raised TypeError (a lock) or PicklingError."""
    import copy
    import operator
    import pickle

    assert pickle.loads(pickle.dumps(_add_relu_by_name)) is _add_relu_by_name
    held = fuse.jit(lambda x: x + 1, target="cpu")
    assert copy.copy(held) is held and copy.deepcopy({"act": held})["act"] is held
    # Not its module's: made again from operator.neg and the options.
    negate = fuse.jit(operator.neg, fusion=False, target="cpu", max_cache=3)
    again = pickle.loads(pickle.dumps(negate))
    assert again is not negate and (again.fusion, again.target, again.max_cache) == (False, "cpu", 3)
    x = np.arange(4, dtype=np.float32)
    assert_same(again(x), -x)
    with pytest.raises((pickle.PicklingError, AttributeError, TypeError)):
        pickle.dumps(held)  # a lambda has no name to be found by


def test_python_floats_take_the_short_path():
    """Python floats (an optimizer's learning rate and betas) are arguments
    of the short path too: their conversion to the program's dtype is the
    full path's, rounded once from the float (NaN, infinities, values past
    the dtype's range and -0.0 included), and the call skips the signature
    and the trace (an AdamW step with 7 floats took 2.5 times as long as
    with 0-d arrays)."""
    x32 = np.array([1.0, -2.0, 3.5], np.float32)
    x16 = x32.astype(np.float16)
    f = fuse.jit(lambda x, s, t: x * s + t, target="cpu")
    values = [1e-3, 0.1, -0.0, 1e300, -1e300, float("inf"), float("nan"), 65519.0, 65521.0,
              3.4028235e38, 5e-324]
    for x in (x32, x16):
        for s in values:
            for t in (0.0, 2.5e-8):
                got = f(x, s, t)
                f.cache_clear()  # the full path, for the same arguments
                want = f(x, s, t)
                np.testing.assert_array_equal(got.view(np.uint8), want.view(np.uint8))
                assert got.dtype == x.dtype
    f(x32, 0.5, 0.25)
    hits = f.cache_info().hits
    got = f(x32, 0.5, 0.25)
    assert f.cache_info().hits == hits + 1 and f._fast
    np.testing.assert_array_equal(got, x32 * np.float32(0.5) + np.float32(0.25))


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork()")
def test_fork_while_another_thread_runs_the_program():
    # The main thread forks while another thread is inside a run of the
    # program the child then calls: the fork waits for that run. The child
    # hung on the program's lock, held there by a thread it does not have.
    # (Let go of the run by a fork hook of this script's, which runs before
    # fuse's; the alarm ends a child that hangs.)
    script = (
        "import os, signal, threading, numpy as np, fuse\n"
        "from fuse import _capi\n"
        "g = fuse.jit(lambda a: a * 2, target='cpu')\n"
        "a = np.ones(1000, np.float32)\n"
        "g(a)\n"
        "lib = _capi.lib()\n"
        "real = lib.fuse_run_into\n"
        "inside, go = threading.Event(), threading.Event()\n"
        "def run(*args):\n"
        "    if threading.current_thread() is not threading.main_thread():\n"
        "        inside.set()\n"
        "        go.wait()\n"
        "    return real(*args)\n"
        "lib.fuse_run_into = run\n"
        "thread = threading.Thread(target=g, args=(a,))\n"
        "thread.start()\n"
        "inside.wait()\n"
        "os.register_at_fork(before=go.set)\n"
        "pid = os.fork()\n"
        "if pid == 0:\n"
        "    signal.alarm(30)\n"
        "    os._exit(0 if (g(a) == 2).all() else 3)\n"
        "thread.join()\n"
        "print(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))\n")
    done = _run_script(script, timeout=120)
    assert (done.returncode, done.stdout) == (0, "0\n"), done.stderr


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork()")
def test_fork_while_another_thread_traces_the_function():
    # The main thread forks while another thread is inside the trace of a
    # new signature (its Python body waits there): the child's first call of
    # that function with a new signature hung on the function's trace lock,
    # held by a thread the child does not have.
    script = (
        "import os, signal, threading, numpy as np, fuse\n"
        "inside, go = threading.Event(), threading.Event()\n"
        "def body(a):\n"
        "    if threading.current_thread() is not threading.main_thread():\n"
        "        inside.set()\n"
        "        go.wait()\n"
        "    return a * 2\n"
        "g = fuse.jit(body, target='cpu')\n"
        "thread = threading.Thread(target=g, args=(np.ones(8, np.float64),))\n"
        "thread.start()\n"
        "inside.wait()\n"
        "pid = os.fork()\n"
        "if pid == 0:\n"
        "    signal.alarm(30)\n"
        "    os._exit(0 if (g(np.ones(4, np.float32)) == 2).all() else 3)\n"
        "go.set()\n"
        "thread.join()\n"
        "print(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))\n")
    done = _run_script(script, timeout=120)
    assert (done.returncode, done.stdout) == (0, "0\n"), done.stderr


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork()")
def test_fork_while_another_thread_calls_in_a_loop():
    # The trial's case: a thread calls a jitted function in a loop, the
    # main thread forks, each child calls it.
    script = (
        "import os, signal, threading, numpy as np, fuse\n"
        "g = fuse.jit(lambda a: a * 2, target='cpu')\n"
        "a = np.ones(100000, np.float32)\n"
        "g(a)\n"
        "stop = threading.Event()\n"
        "def loop():\n"
        "    while not stop.is_set():\n"
        "        g(a)\n"
        "thread = threading.Thread(target=loop)\n"
        "thread.start()\n"
        "codes = []\n"
        "for _ in range(3):\n"
        "    pid = os.fork()\n"
        "    if pid == 0:\n"
        "        signal.alarm(30)\n"
        "        os._exit(0 if (g(a) == 2).all() else 3)\n"
        "    codes.append(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))\n"
        "stop.set()\n"
        "thread.join()\n"
        "print(codes)\n")
    done = _run_script(script, timeout=400)
    assert (done.returncode, done.stdout) == (0, "[0, 0, 0]\n"), done.stderr


def test_jit_refuses_a_class():
    class Model:
        pass

    with pytest.raises(TypeError, match=r"^fuse\.jit takes a function, not the class Model: "
                                        r"calling a class makes an object, which fuse cannot "
                                        r"trace"):
        fuse.jit(Model)


def test_a_partial_that_binds_an_array_says_so():
    import functools

    w = np.ones(3, np.float32)
    f = fuse.jit(functools.partial(lambda w, a: w * a, w), target="cpu")
    with pytest.raises(TypeError, match=r"inside a traced function .*; pass arrays as arguments "
                                        r"of the jitted function\. The functools\.partial that "
                                        r"fuse\.jit compiles binds positional argument 0 to an "
                                        r"array, .*: pass it in the call instead, as "
                                        r"fuse\.jit\(f\)\(w, x\)"):
        f(w)


def test_entries_of_a_gone_self_leave_the_cache():
    # A method's entries (a compiled program each) stayed in its cache after
    # their object was garbage-collected, until max_cache or cache_clear.
    class Layer:
        def __init__(self, k):
            self.k = k

        @fuse.jit(target="cpu")
        def apply(self, a):
            return a * self.k + 1

    x = np.ones(3, np.float32)
    layers = [Layer(float(i)) for i in range(3)]
    kept = Layer(7.0)
    for layer in layers + [kept]:
        layer.apply(x)
    assert Layer.apply.cache_info().size == 4
    del layers, layer
    gc.collect()
    assert Layer.apply.cache_info().size == 1
    assert_same(kept.apply(x), np.full(3, 8, np.float32))
    assert Layer.apply.cache_info()[:2] == (1, 4)
