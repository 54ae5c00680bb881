"""fuse.compile: fuse MLIR text compiled and run on numpy arrays, through
the C API directly."""

import os
import sys
import warnings

import numpy as np
import pytest

import fuse
from conftest import assert_same, random_array

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _example(name):
    with open(os.path.join(REPO, "examples", name)) as f:
        return f.read()


def test_add_relu_example(rng):
    program = fuse.compile(_example("add_relu.mlir"), target="cpu")
    assert program.target == "cpu" and program.target_note == ""
    assert program.inputs == [fuse.TensorType("f32", [None])] * 2
    assert program.results == [fuse.TensorType("f32", [None])]
    assert repr(program.inputs[0]) == "tensor<?xf32>"
    a, b = random_array(rng, "float32", (100,)), random_array(rng, "float32", (100,))
    (c,) = program(a, b)
    assert_same(c, np.maximum(a + b, np.float32(0)))
    assert [k["name"] for k in program.last_profile] == ["fused_add_relu_0"]


def test_eager_program(rng):
    program = fuse.compile(_example("add_relu.mlir"), target="cpu", fusion=False)
    a = random_array(rng, "float32", (10,))
    program(a, a)
    assert [k["name"] for k in program.last_profile] == ["add_0", "relu_1"]


def test_entry_and_static_shapes(rng):
    text = ("func.func @first(%a: tensor<2x3xf64>) -> tensor<2x3xf64> {\n"
            "  %0 = fuse.neg %a : tensor<2x3xf64>\n"
            "  return %0 : tensor<2x3xf64>\n}\n"
            "func.func @second(%a: tensor<?xi64>, %s: tensor<i64>) -> tensor<?xi64> {\n"
            "  %0 = fuse.mul %a, %s : tensor<?xi64>, tensor<i64> -> tensor<?xi64>\n"
            "  return %0 : tensor<?xi64>\n}\n")
    first = fuse.compile(text, entry="first", target="cpu")
    assert first.inputs == [fuse.TensorType("f64", [2, 3])]
    x = random_array(rng, "float64", (2, 3))
    assert_same(first(x)[0], -x)
    second = fuse.compile(text, entry="second", target="cpu")
    n = np.arange(5, dtype=np.int64)
    # A Python scalar is converted to the argument's dtype, and so is a list
    # of numbers of the same kind (not floats for integers: numpy's error).
    assert_same(second(n, 3)[0], n * 3)
    assert_same(second([1, 2], 3)[0], np.array([3, 6], np.int64))
    assert_same(first([[1.5, 2, 3], [4, 5, 6]])[0], -np.array([[1.5, 2, 3], [4, 5, 6]]))
    with pytest.raises(TypeError, match=r"argument 0 \(a list of floats\) is not of its kind, "
                                        r"and the program's input 0 is tensor<\?xi64>: pass ints"):
        second([1.5, 2.0], 3)
    # An empty list is one of no element (numpy makes it float64).
    assert second([], 3)[0].dtype == np.int64
    with pytest.raises(TypeError, match=r"argument 0 \(list\) is not an array"):
        second([[1], 2], 3)
    # A scalar of another kind, or out of an integer input's range, is
    # refused as the list is (2.5 was truncated to 2, and 2**70 wrapped).
    with pytest.raises(TypeError, match=r"argument 1 = 2.5 is a float, and the program's input "
                                        r"1 is tensor<i64>: pass an int"):
        second(n, 2.5)
    with pytest.raises(OverflowError, match=r"argument 1 = 1180591620717411303424 does not fit "
                                            r"int64, the program's input 1 \(tensor<i64>\)"):
        second(n, 2**70)
    assert_same(second(n, -2**63)[0], n * np.int64(-2**63))
    assert_same(second(n, True)[0], n)
    assert_same(first(np.ones((2, 3)))[0], -np.ones((2, 3)))
    # So is a list's element out of range (it wrapped), and a finite float
    # past a float input's range (it became inf, with numpy's warning).
    with pytest.raises(OverflowError, match=r"argument 0 \(a list of ints\) does not fit int64"):
        second([1, 2**64], 3)
    halves = fuse.compile("func.func @h(%a: tensor<?xf16>) -> tensor<?xf16> {\n"
                          "  %0 = fuse.neg %a : tensor<?xf16>\n"
                          "  return %0 : tensor<?xf16>\n}\n", target="cpu")
    with pytest.raises(OverflowError, match=r"argument 0 \(a list of floats\) does not fit "
                                            r"float16 \(its largest finite value is 65504\)"):
        halves([1.5, 70000.0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert_same(halves([np.inf, 65519.0])[0], np.array([-np.inf, -65504.0], np.float16))


def test_run_errors_name_the_argument():
    program = fuse.compile(_example("add_relu.mlir"), target="cpu")
    with pytest.raises(fuse.FuseError, match=r"argument 0 \(tensor<\?xf32>\): expected float32 "
                                             r"data, got float64"):
        program(np.ones(3), np.ones(3, np.float32))
    with pytest.raises(fuse.FuseError, match="expected rank 1"):
        program(np.ones((3, 1), np.float32), np.ones(3, np.float32))
    with pytest.raises(TypeError, match="takes 2 argument"):
        program(np.ones(3, np.float32))


def test_several_functions_need_an_entry():
    text = ("func.func @f(%a: tensor<?xf32>) -> tensor<?xf32> {\n"
            "  %0 = fuse.neg %a : tensor<?xf32>\n  return %0 : tensor<?xf32>\n}\n"
            "func.func @g(%a: tensor<?xf32>) -> tensor<?xf32> {\n"
            "  %0 = fuse.abs %a : tensor<?xf32>\n  return %0 : tensor<?xf32>\n}\n")
    with pytest.raises(fuse.FuseError, match="several functions"):
        fuse.compile(text, target="cpu")
    with pytest.raises(fuse.FuseError, match="no function @h"):
        fuse.compile(text, entry="h", target="cpu")
    # A function compiled alone has the kernel names of the module's
    # report (numbered after @f's neg_0; it was abs_0).
    program = fuse.compile(text, entry="g", target="cpu")
    program(np.ones(3, np.float32))
    assert [k["name"] for k in program.last_profile] == ["abs_1"]
    assert "abs_1" in fuse.explain(text)


def test_compiler_options_as_text_or_dict(rng):
    """The compiler's options, written as the `fuse-lower` pipeline's, reach
    the compiler: as a dict (keys with _ or -, booleans as on/off) or as
    text."""
    text = _example("add_relu.mlir")
    a = random_array(rng, "float32", (10,))
    program = fuse.compile(text, target="cpu", fusion=False, options={"opt_level": 1,
                                                                     "approx-exp": False})
    program(a, a)
    assert [k["name"] for k in program.last_profile] == ["add_0", "relu_1"]
    assert program.options == "fusion=off opt-level=1 approx-exp=off"
    # The fusion options do nothing to the eager form: refused.
    with pytest.raises(fuse.FuseError, match=r"horizontal=off keeps independent kernels "
                                             r"apart, and with fusion=off nothing is fused"):
        fuse.compile(text, target="cpu", fusion=False, options={"horizontal": False})
    program = fuse.compile(text, target="cpu", options="opt-level=1 block-size=64")
    (c,) = program(a, a)
    assert_same(c, np.maximum(a + a, np.float32(0)))
    ptx = fuse._capi.ptx(text, fuse._capi.option_text(options={"block_size": 64,
                                                              "chip": "sm_80"}))
    assert ".target sm_80" in ptx and ".maxntid 64, 1, 1" in ptx


def test_jit_compiler_options(rng):
    @fuse.jit(target="cpu", options={"block_size": 64})
    def f(a, b):
        return np.maximum(a + b, 0)

    a = random_array(rng, "float32", (10,))
    assert_same(f(a, a), np.maximum(a + a, np.float32(0)))
    assert f.options == "block-size=64"
    assert ".maxntid 64, 1, 1" in f.ptx
    assert ".target sm_80" in f.ptx_for("sm_80")


_BROADCAST_EXP = """func.func @f(%a: tensor<4xf32>, %m: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %e = fuse.exp %a : tensor<4xf32>
  %r = fuse.add %m, %e : tensor<3x4xf32>, tensor<4xf32> -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}
"""


def test_compile_errors_show_the_source_line_and_a_caret():
    # As fuse-opt prints them: a parse error (with its notes) and an error
    # of a pass over the parsed program, each with the program's line and
    # a caret under the column.
    text = ("func.func @f(%a: tensor<4xf32>, %b: tensor<3xf32>) -> tensor<4xf32> {\n"
            "  %0 = fuse.add %a, %b : tensor<4xf32>\n"
            "  return %0 : tensor<4xf32>\n}\n")
    with pytest.raises(fuse.FuseError) as parse:
        fuse.compile(text, target="cpu")
    lines = str(parse.value).split("\n")
    assert lines[:3] == [
        "<program>:2:21: error: use of value '%b' expects different type than prior uses: "
        "'tensor<4xf32>' vs 'tensor<3xf32>'",
        "  %0 = fuse.add %a, %b : tensor<4xf32>",
        "                    ^"]
    assert lines[3] == "<program>:1:33: note: prior use here"
    # An argument of more than 2^63 - 1 bytes: refused by a pass over the
    # parsed program (fuse-check-program), at the argument.
    huge = ("func.func @f(%a: tensor<4611686018427387904x4xf32>) -> "
            "tensor<4611686018427387904x4xf32> {\n"
            "  %0 = fuse.exp %a : tensor<4611686018427387904x4xf32>\n"
            "  return %0 : tensor<4611686018427387904x4xf32>\n}\n")
    with pytest.raises(fuse.FuseError) as compiled:
        fuse.compile(huge, target="cpu")
    lines = str(compiled.value).split("\n")
    assert lines[0].startswith("<program>:"), lines
    assert lines[1] in huge.split("\n") and lines[2].strip() == "^", lines


def test_remarks_are_warnings_and_kept():
    # A broadcast producer is left unfused: with remarks on, the remark at
    # the consumer (and the note at the producer) stays in Program.remarks,
    # and is a FusionRemark warning on one line at the caller's line (the
    # program's text is no Python file).
    with pytest.warns(fuse.FusionRemark) as caught:
        program = fuse.compile(_BROADCAST_EXP, target="cpu", options="remarks=on")
    expected = ("<program>:3:8: remark: not fused with its producer 'fuse.exp': this op "
                "reads that result broadcast from tensor<4xf32> to tensor<3x4xf32>, so the "
                "two iterate over different spaces, and that op is not computed again at each "
                "of this op's elements: it has a math function ('exp')\n<program>:2:8: note: "
                "producer is here")
    assert program.remarks == [expected]
    assert [str(w.message) for w in caught] == [
        "<program>:3:8: not fused with its producer 'fuse.exp': this op reads that result "
        "broadcast from tensor<4xf32> to tensor<3x4xf32>, so the two iterate over different "
        "spaces, and that op is not computed again at each of this op's elements: it has a "
        "math function ('exp') (producer is here: <program>:2:8)"]
    assert caught[0].filename == __file__
    # Without the option: none, and no warning.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert fuse.compile(_BROADCAST_EXP, target="cpu").remarks == []


def test_jit_remarks_point_at_python_lines():
    def body(a, m):
        e = fuse.exp(a)
        return m + e

    line = body.__code__.co_firstlineno
    f = fuse.jit(body, target="cpu", options={"remarks": True})
    with pytest.warns(fuse.FusionRemark) as caught:
        f(np.ones(4, np.float32), np.ones((3, 4), np.float32))
    (remark,) = f.program.remarks
    assert remark.startswith(f"{__file__}:{line + 2}:")
    assert f"\n{__file__}:{line + 1}:" in remark and remark.endswith("note: producer is here")
    # The warning is at the consumer's line, whose source Python prints
    # under it (it printed the caller's right under the producer's note),
    # and names the producer's place on the same line.
    (warning,) = caught
    assert (warning.filename, warning.lineno) == (__file__, line + 2)
    assert str(warning.message).startswith("not fused with its producer 'fuse.exp'")
    assert str(warning.message).endswith(f"(producer is here: {__file__}:{line + 1}:13)")


def test_remark_made_an_error_keeps_the_trace():
    # With FusionRemark warnings made errors, the call fails as its program
    # compiles; fn.mlir then showed nothing but "has not been traced yet".
    def body(a, m):
        return m + fuse.exp(a)

    f = fuse.jit(body, target="cpu", options={"remarks": True})
    with warnings.catch_warnings():
        warnings.simplefilter("error", fuse.FusionRemark)
        with pytest.raises(fuse.FusionRemark, match="not fused with its producer 'fuse.exp'"):
            f(np.ones(4, np.float32), np.ones((3, 4), np.float32))
    assert f.mlir.startswith("func.func @body(%a: tensor<?xf32>, %m: tensor<?x?xf32>)")
    assert "fuse.exp %a" in f.mlir
    assert f.cache_info()[2:] == (1, 0, 1)  # traces, compiles, size


def test_remarks_of_ops_on_one_line():
    # fuse.softmax's ops, and a loop's, are at one place of the source: the
    # pairs left apart are remarked still (they were not: the compiler knew
    # each op by its location, and took all of them for one).
    line = sys._getframe().f_lineno
    soft = fuse.jit(lambda x: fuse.softmax(x), target="cpu", options={"remarks": True})
    with pytest.warns(fuse.FusionRemark):
        soft(np.ones(1000, np.float32))
    remarks = soft.program.remarks
    assert len(remarks) == 2
    for remark, producer in zip(remarks, ("reduce_max", "reduce_sum")):
        assert remark.startswith(f"{__file__}:{line + 1}:")
        assert f"not fused with its producer 'fuse.{producer}'" in remark
    assert 'loc("reduce_max"(' in soft.program.text
    # Two ops of one name at one place are told apart too.

    def loop(x):
        for _ in range(2):
            x = x * x.sum()
        return x

    twice = fuse.jit(loop, target="cpu", options={"remarks": True})
    with pytest.warns(fuse.FusionRemark):
        twice(np.ones(1000, np.float32))
    # The loop's two remarks say the same: they are one, said twice.
    (remark,) = twice.program.remarks
    first, note = remark.split("\n")
    assert first.startswith(f"{__file__}:{line + 14}:")
    assert first.endswith("(2 times)") and note.endswith("note: producer is here")
    assert 'loc("mul 2"(' in twice.program.text


@pytest.mark.parametrize("options, message", [
    ({"bogus": 1}, "no option 'bogus'; the options are fusion, horizontal, remarks, "
                   "block-size, vector-bytes, chip, features, opt-level, approx-exp, "
                   "cuda-toolkit (docs/passes.md)"),
    ({"block_size": "abc"}, "block-size=abc: takes a decimal integer that fits its type"),
    ({"block_size": -5}, "block-size=-5 is out of range: a CUDA block has 1 to 1024 threads"),
    ({"horizontal": "maybe"}, "horizontal=maybe: takes on, off, true, false, 1 or 0"),
    ("block-size=64 block-size=128", "'block-size' is given twice"),
    ("stage=gpu", "no option 'stage'"),
    ({"chip": "sm_bogus"}, "chip=sm_bogus is not a GPU architecture that LLVM's NVPTX"),
])
def test_bad_compiler_options_say_which(options, message):
    with pytest.raises(fuse.FuseError) as info:
        fuse.compile(_example("add_relu.mlir"), target="cpu", options=options)
    assert message in str(info.value)


def test_compiler_options_are_text_or_dict():
    with pytest.raises(TypeError, match="options must be a str or a dict, not list"):
        fuse.compile(_example("add_relu.mlir"), target="cpu", options=["fusion=off"])
    # fusion= alone says whether to fuse (and Program.fusion is it).
    for options in ({"fusion": True}, "fusion=off", "opt-level=1 fusion"):
        with pytest.raises(ValueError, match="fusion is the fusion= argument"):
            fuse.compile(_example("add_relu.mlir"), target="cpu", options=options)


def test_bool_bytes_other_than_0_and_1_are_true():
    # numpy reads any nonzero byte of a bool array as True; a view of other
    # bytes (np.frombuffer, .view(bool)) has them, and a kernel reading only
    # the lowest bit would take 2 for False.
    raw = np.array([0, 1, 2, 3, 4, 255, 0, 128], np.uint8)
    mask = raw.view(np.bool_)
    x = np.arange(8, dtype=np.float32)
    program = fuse.compile("""
      func.func @f(%m: tensor<?xi1>, %x: tensor<?xf32>) -> tensor<?xf32> {
        %n = fuse.neg %x : tensor<?xf32>
        %r = fuse.select %m, %x, %n : tensor<?xi1>, tensor<?xf32>, tensor<?xf32> -> tensor<?xf32>
        return %r : tensor<?xf32>
      }""", target="cpu")
    (r,) = program(mask, x)
    np.testing.assert_array_equal(r, np.where(raw != 0, x, -x))
    # A strided view is read the same way, and the caller's bytes are kept.
    (r,) = program(raw.reshape(2, 4)[:, ::2].reshape(-1).view(np.bool_), x[:4])
    np.testing.assert_array_equal(r, np.where(raw.reshape(2, 4)[:, ::2].reshape(-1) != 0,
                                              x[:4], -x[:4]))
    assert raw.tolist() == [0, 1, 2, 3, 4, 255, 0, 128]
    jitted = fuse.jit(lambda m: ~m)
    np.testing.assert_array_equal(jitted(mask), raw == 0)
    # A 0-d one too (its copy was a numpy scalar, which has no .ctypes).
    assert fuse.jit(lambda m: ~m)(raw[2:3].reshape(()).view(np.bool_)) == np.array(False)
    # So is a call after one with a bool array of 0 and 1 (the jit's short
    # path, which reads arrays as they are).
    jitted = fuse.jit(lambda m, x: (x * m, fuse.where(m, x, -x), m.sum()), target="cpu")
    jitted(raw != 0, x)
    for got, want in zip(jitted(mask, x), (x * (raw != 0), np.where(raw != 0, x, -x),
                                           np.count_nonzero(raw))):
        np.testing.assert_array_equal(got, want)


def test_a_program_copies_as_itself_and_pickles_as_a_recompile(rng):
    """A Program does not change once compiled: copy and deepcopy (of a
    model that holds one) give the Program itself. A copy made field by
    field shared the library's handle without owning it, and ran no more
    once the original was garbage-collected; deepcopy and pickle raised
    ctypes' errors. pickle writes the text and how it was compiled, and
    reading compiles again."""
    import copy
    import gc
    import pickle

    program = fuse.compile(_example("add_relu.mlir"), target="cpu", fusion=False,
                           options={"block_size": 128})
    assert copy.copy(program) is program
    assert copy.deepcopy({"program": program})["program"] is program
    again = pickle.loads(pickle.dumps(program))
    assert again is not program
    assert (again.text, again.entry, again.target, again.fusion, again.options, again.inputs,
            again.results) == (program.text, program.entry, program.target, program.fusion,
                               program.options, program.inputs, program.results)
    del program
    gc.collect()
    a, b = random_array(rng, "float32", (10,)), random_array(rng, "float32", (10,))
    (c,) = again(a, b)
    assert_same(c, np.maximum(a + b, np.float32(0)))
    assert [k["name"] for k in again.last_profile] == ["add_0", "relu_1"]


def test_a_destroyed_program_says_why():
    # An object that shares a Program's handle (made around the copy
    # protocol) after the Program's garbage collection: the message blamed
    # the interpreter's exit.
    import gc

    program = fuse.compile(_example("add_relu.mlir"), target="cpu")
    shared = object.__new__(fuse.Program)
    shared.__dict__.update(program.__dict__)
    del program
    gc.collect()
    x = np.ones(2, np.float32)
    with pytest.raises(fuse.FuseError, match=r"^the program was destroyed \(the fuse\.Program "
                                             r"that compiled it was garbage-collected"):
        shared(x, x)


def test_a_keyboard_interrupt_after_a_run_frees_its_results(monkeypatch):
    # Ctrl-C during a run is raised right after the library returns, before
    # the results had an owner: their buffers were never freed (27 MB per
    # interrupted call of the trial's function). Here the KeyboardInterrupt
    # comes at that point, from the library's function itself.
    import gc

    from fuse import _capi

    lib = _capi.lib()
    program = fuse.compile(_example("add_relu.mlir"), target="cpu")
    x = np.ones(1000, np.float32)
    real_run, real_free = lib.fuse_run_into, lib.fuse_free_buffer
    returned, freed = [], []

    def interrupted_run(program, inputs, count, outs, out_count, results, error):
        assert real_run(program, inputs, count, outs, out_count, results, error) == 0
        returned.append(results[0].data)
        raise KeyboardInterrupt

    def free(ptr):
        freed.append(ptr)
        real_free(ptr)

    monkeypatch.setattr(lib, "fuse_run_into", interrupted_run)
    monkeypatch.setattr(lib, "fuse_free_buffer", free)
    for _ in range(3):
        with pytest.raises(KeyboardInterrupt):
            program(x, x)
    gc.collect()
    assert len(returned) == 3 and all(returned)
    assert sorted(freed) == sorted(returned)
    # The program runs on, and its results are freed with them.
    monkeypatch.setattr(lib, "fuse_run_into", real_run)
    (c,) = program(x, x)
    assert_same(c, np.full(1000, 2, np.float32))
    del c
    assert len(freed) == 4


def _raise_later_interrupts(test):
    """Runs `test` with SIGINT's default handler, which raises the
    KeyboardInterrupt that a finalizer raises again (_thread.interrupt_main
    does nothing where SIGINT is ignored: in a process that a shell started
    in the background, as CI's and lit's are)."""
    import signal

    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        test()
    finally:
        signal.signal(signal.SIGINT, previous)


def _sleep_until_interrupted():
    """Waits for a finalizer's KeyboardInterrupt, raised again in this
    thread once the finalizer is over (5 seconds at most)."""
    import time

    for _ in range(500):
        time.sleep(0.01)


def test_a_keyboard_interrupt_as_a_gpu_result_is_freed(monkeypatch):
    # Ctrl-C landing right after a GPU result's finalizer took it off the
    # results freed at exit, before its try: Python dropped the
    # KeyboardInterrupt, and the buffer was freed neither then nor at exit.
    # Here it comes from the registry's pop itself, as a signal handled
    # right after the call.
    import types

    from fuse import _program

    class Registry(dict):
        interrupts = 1

        def pop(self, *args):
            result = super().pop(*args)
            if self.interrupts:
                self.interrupts -= 1
                raise KeyboardInterrupt
            return result

    registry = Registry()
    monkeypatch.setattr(_program, "_device_results", registry)
    monkeypatch.setattr(_program._Result, "_device_results", registry)
    freed = []
    lib = types.SimpleNamespace(fuse_free_device=freed.append)
    slot = types.SimpleNamespace(data=1234)

    def test():
        owner = _program._Result(lib, [slot], 0, device=True)
        assert id(owner) in registry
        with pytest.raises(KeyboardInterrupt):
            del owner
            _sleep_until_interrupted()
        assert freed == [1234] and slot.data is None and not registry

    _raise_later_interrupts(test)


def test_a_keyboard_interrupt_as_a_program_finalizer_starts(monkeypatch):
    # Ctrl-C landing right after the finalizer's first call (whether its
    # thread held the handle), before its try: Python printed it
    # ("Exception ignored in: <finalize object>") and dropped it, and the
    # program was never destroyed (the finalizer had run).
    import gc

    from fuse import _capi

    lib = _capi.lib()
    program = fuse.compile(_example("add_relu.mlir"), target="cpu")
    handle = program._handle
    real_destroy = lib.fuse_destroy
    destroyed = []

    class Lock:
        """The handle's lock, whose first _is_owned is interrupted."""

        interrupts = 1

        def __init__(self, lock):
            self.lock = lock

        def _is_owned(self):
            owned = self.lock._is_owned()
            if self.interrupts:
                self.interrupts -= 1
                raise KeyboardInterrupt
            return owned

        def acquire(self, *args, **kwargs):
            return self.lock.acquire(*args, **kwargs)

        def release(self):
            self.lock.release()

    def destroy(value):
        destroyed.append(value)
        real_destroy(value)

    monkeypatch.setattr(lib, "fuse_destroy", destroy)
    handle.lock = Lock(handle.lock)
    value = handle.value

    def test():
        nonlocal program
        with pytest.raises(KeyboardInterrupt):
            del program
            gc.collect()
            _sleep_until_interrupted()
        assert destroyed == [value] and handle.value is None

    _raise_later_interrupts(test)


def test_results_are_owned_without_weakref_finalize():
    # Each result registered a weakref.finalize: a daemon thread that ran a
    # program while the interpreter exited added to their registry while
    # the exit read it ("Exception ignored in atexit callback ...
    # dictionary changed size during iteration"). Results outlive their
    # program (test_jit's test_result_memory_outlives_views).
    import weakref

    program = fuse.compile(_example("add_relu.mlir"), target="cpu")
    x = np.ones(1000, np.float32)
    before = len(weakref.finalize._registry)
    results = [program(x, x)[0] for _ in range(10)]
    assert len(weakref.finalize._registry) == before
    del program
    assert all((r == 2).all() for r in results)


def test_a_keyboard_interrupt_in_a_program_finalizer(monkeypatch):
    # Ctrl-C landing in a Program's finalizer, right after the library
    # destroyed it: Python printed it ("Exception ignored in: <finalize
    # object>") and dropped it, and the handle kept the destroyed program's
    # value, which a second destruction would have destroyed again.
    import gc
    import signal
    import time

    from fuse import _capi, _program

    # Raised again as a SIGINT would be (_thread.interrupt_main), which does
    # nothing where SIGINT is ignored: in a process that a shell started in
    # the background, as CI's and lit's are.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        lib = _capi.lib()
        program = fuse.compile(_example("add_relu.mlir"), target="cpu")
        handle = program._handle
        real_destroy = lib.fuse_destroy
        destroyed = []

        def interrupted_destroy(value):
            destroyed.append(value)
            real_destroy(value)
            raise KeyboardInterrupt

        monkeypatch.setattr(lib, "fuse_destroy", interrupted_destroy)
        value = handle.value
        # The KeyboardInterrupt is raised again in this thread once the
        # finalizer is over.
        with pytest.raises(KeyboardInterrupt):
            del program
            gc.collect()
            for _ in range(3000):
                time.sleep(0.01)
        assert destroyed == [value] and handle.value is None
        _program._destroy(lib, handle)
        assert destroyed == [value]
    finally:
        signal.signal(signal.SIGINT, previous)
