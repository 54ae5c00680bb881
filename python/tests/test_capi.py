"""The C API's contract (include/fuse-c/Fuse.h) where a C caller can break
it: bad codes, counts and arrays are errors with a message, and a NULL
program (a fuse_compile that failed) or an index out of range is not a
crash."""
import ctypes

import numpy as np
import pytest

from fuse import _capi

ADD_RELU = b"""func.func @f(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %0 = fuse.add %a, %b : tensor<?xf32>
  %1 = fuse.relu %0 : tensor<?xf32>
  return %1 : tensor<?xf32>
}"""
SELECT = b"""func.func @f(%m: tensor<?xi1>, %a: tensor<?xf32>) -> tensor<?xf32> {
  %0 = fuse.neg %a : tensor<?xf32>
  %1 = fuse.select %m, %a, %0 : tensor<?xi1>, tensor<?xf32>, tensor<?xf32> -> tensor<?xf32>
  return %1 : tensor<?xf32>
}"""
F32, BOOL = 2, 6


@pytest.fixture
def lib():
    return _capi.lib()


def compile_(lib, text, target=0):
    error = ctypes.c_void_p()
    program = lib.fuse_compile(text, None, target, None, ctypes.byref(error))
    message = _capi.take_string(error.value)
    return program, message


def array(data, dtype, shape):
    a = _capi.Array()
    a.data = data
    a.dtype = dtype
    a.rank = len(shape)
    a.shape[:len(shape)] = shape
    return a


def run(lib, program, inputs, count=None):
    arrays = (_capi.Array * max(len(inputs), 1))(*inputs)
    results = (_capi.Array * 1)()
    error = ctypes.c_void_p()
    status = lib.fuse_run(program, arrays, len(inputs) if count is None else count,
                          results, ctypes.byref(error))
    message = _capi.take_string(error.value)
    if status == 0:
        lib.fuse_free_buffer(results[0].data)
    return status, message


def test_an_unknown_target_is_refused(lib):
    # It was taken as FUSE_TARGET_AUTO.
    for target in (-1, 3, 100):
        program, message = compile_(lib, ADD_RELU, target)
        assert not program
        assert message == (f"target {target} is none of FUSE_TARGET_CPU (0), "
                           f"FUSE_TARGET_CUDA (1) and FUSE_TARGET_AUTO (2)")


def test_a_null_program_is_no_crash(lib):
    # A fuse_compile that failed returns NULL: each function of a program
    # crashed on it.
    assert lib.fuse_num_inputs(None) == -1
    assert lib.fuse_num_results(None) == -1
    assert lib.fuse_program_target(None) == -1
    assert lib.fuse_program_target_note(None) == b""
    assert lib.fuse_program_remarks(None) == b""
    assert lib.fuse_last_profile_json(None) is None
    status, message = run(lib, None, [])
    assert status == 1 and message.startswith("no program (NULL)")
    kind = _capi.Array()
    lib.fuse_input_type(None, 0, ctypes.byref(kind))
    assert (kind.dtype, kind.rank) == (-1, -1)


def test_a_type_index_out_of_range_has_no_type(lib):
    # It read past the signature (garbage, or a segfault).
    program, _ = compile_(lib, ADD_RELU)
    try:
        kind = _capi.Array()
        for index in (-1, 2, 100000):
            lib.fuse_input_type(program, index, ctypes.byref(kind))
            assert (kind.dtype, kind.rank) == (-1, -1)
        lib.fuse_result_type(program, 1, ctypes.byref(kind))
        assert (kind.dtype, kind.rank) == (-1, -1)
        lib.fuse_input_type(program, 1, ctypes.byref(kind))
        assert (kind.dtype, kind.rank, kind.shape[0]) == (F32, 1, -1)
    finally:
        lib.fuse_destroy(program)


def test_a_size_of_zero_empties_an_array_in_any_order(lib):
    # Its bytes are 0 whatever its other sizes are, as numpy's: 2^62 x 0
    # was refused (the product overflowed before the 0), 0 x 2^62 not.
    program, _ = compile_(lib, b"""
func.func @neg(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = fuse.neg %x : tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}""")
    try:
        for shape in ([1 << 62, 0], [0, 1 << 62], [(1 << 63) - 1, 0]):
            assert run(lib, program, [array(None, F32, shape)]) == (0, None)
        assert run(lib, program, [array(None, F32, [1 << 62, 1])]) == (
            1, "input 0 has more than 2^63 - 1 bytes")
    finally:
        lib.fuse_destroy(program)


def test_options_are_separated_by_any_white_space(lib):
    # A tab or a line break between two options made them one value
    # ("fusion=off\tblock-size=128: takes on, off, true or false").
    for options in (b"fusion=off\tblock-size=128", b"fusion=off\n block-size=128\r\n",
                    b" fusion=0  block-size=128 "):
        error = ctypes.c_void_p()
        program = lib.fuse_compile(ADD_RELU, None, 0, options, ctypes.byref(error))
        assert _capi.take_string(error.value) is None
        lib.fuse_destroy(program)
    error = ctypes.c_void_p()
    assert not lib.fuse_compile(ADD_RELU, None, 0, b"fusion=maybe", ctypes.byref(error))
    assert _capi.take_string(error.value) == "fusion=maybe: takes on, off, true, false, 1 or 0"


def test_null_program_text_is_an_error(lib):
    # The translations read NULL as an empty module: "" for the report and
    # the PTX, {"functions": []}, with no error; fuse_compile said the
    # program had no function.
    for call in (lambda error: lib.fuse_report_json(None, None, error),
                 lambda error: lib.fuse_report_text(None, None, error),
                 lambda error: lib.fuse_report_dot(None, None, error),
                 lambda error: lib.fuse_ptx(None, None, error),
                 lambda error: lib.fuse_compile(None, None, 0, None, error)):
        error = ctypes.c_void_p()
        assert not call(ctypes.byref(error))
        assert _capi.take_string(error.value) == "the program text is NULL"


def test_bad_arrays_are_refused(lib):
    program, _ = compile_(lib, ADD_RELU)
    x = np.ones(4, np.float32)
    try:
        # Sizes whose bytes do not fit an int64 allocated a result of 0
        # bytes (the count wrapped), which the kernel wrote: a segfault.
        for size in (1 << 61, 1 << 62, (1 << 63) - 1):
            huge = array(x.ctypes.data, F32, [size])
            assert run(lib, program, [huge, huge]) == (
                1, "input 0 has more than 2^63 - 1 bytes")
        # NULL data of elements: a segfault in the kernel.
        assert run(lib, program, [array(None, F32, [4]), array(x.ctypes.data, F32, [4])]) == (
            1, "input 0 has 16 bytes and its data is NULL")
        # No element: no data needed.
        empty = array(None, F32, [0])
        assert run(lib, program, [empty, empty]) == (0, None)
        # A negative count said "0 input(s) were given".
        assert run(lib, program, [], count=-1) == (1, "the inputs are a negative count, -1")
        results = (_capi.Array * 1)()
        error = ctypes.c_void_p()
        assert lib.fuse_run(program, None, 2, results, ctypes.byref(error)) == 1
        assert _capi.take_string(error.value) == "the inputs are NULL"
        # NULL results: each run function wrote through them (a segfault).
        y = np.ones(4, np.float32)
        inputs = (_capi.Array * 2)(array(x.ctypes.data, F32, [4]),
                                   array(y.ctypes.data, F32, [4]))
        outs = (_capi.Array * 1)(array(None, F32, [4]))
        want = ("the results are NULL: pass an array of 1 fuse_array "
                "(fuse_num_results) for the run to fill")
        for call in (lambda: lib.fuse_run(program, inputs, 2, None, ctypes.byref(error)),
                     lambda: lib.fuse_run_into(program, inputs, 2, outs, 1, None,
                                               ctypes.byref(error)),
                     lambda: lib.fuse_run_device(program, inputs, 2, 0, None,
                                                 ctypes.byref(error))):
            assert call() == 1
            assert _capi.take_string(error.value) == want
        # Counts larger than the program's are refused before the arrays
        # are read: fuse_run_into read a fifth output past an array of
        # four and said "output 4 has unknown dtype 33".
        results = (_capi.Array * 1)()
        short = (_capi.Array * 1)(array(x.ctypes.data, F32, [4]))
        assert lib.fuse_run_into(program, inputs, 2, short, 5, results,
                                 ctypes.byref(error)) == 1
        assert _capi.take_string(error.value) == (
            "5 output array(s) for 1 result(s) of @f")
        for count in (3, 1000):
            assert run(lib, program, [array(x.ctypes.data, F32, [4])], count=count) == (
                1, f"@f takes 2 argument(s), but {count} input(s) were given")
    finally:
        lib.fuse_destroy(program)


def test_bool_bytes_other_than_0_and_1_are_refused(lib):
    # The CPU target read any byte but 0 as true, the GPU its lowest bit.
    program, _ = compile_(lib, SELECT)
    try:
        a = np.ones(4, np.float32)
        for mask, want in ((np.array([0, 1, 1, 0], np.uint8), (0, None)),
                           (np.array([0, 1, 2, 1], np.uint8),
                            (1, "input 0 is bool, and element 2 is the byte 2: a "
                                "FUSE_BOOL element is 0 or 1"))):
            got = run(lib, program, [array(mask.ctypes.data, BOOL, [4]),
                                     array(a.ctypes.data, F32, [4])])
            assert got == want
        # Checked a block of 4096 bytes at a time: the first bad byte is
        # found wherever it is, in the first block, the last, or between.
        n = 3 * 4096 + 5
        a = np.ones(n, np.float32)
        for at in (0, 4095, 4096, 9000, n - 1):
            mask = np.ones(n, np.uint8)
            mask[at + 3:at + 5] = 7
            mask[at] = 255
            got = run(lib, program, [array(mask.ctypes.data, BOOL, [n]),
                                     array(a.ctypes.data, F32, [n])])
            assert got == (1, f"input 0 is bool, and element {at} is the byte 255: a "
                              f"FUSE_BOOL element is 0 or 1")
    finally:
        lib.fuse_destroy(program)


# Run in a process of its own (a crash or a hang is its exit status), with
# the C API alone: a C caller's threads, fork and OpenMP.
THREADS_SCRIPT = r'''
import ctypes, os, signal, sys, threading, time
import numpy as np
from fuse import _capi

lib = _capi.lib()
text = b"""func.func @f(%a: tensor<?xf32>) -> tensor<?xf32> {
  %0 = fuse.exp %a : tensor<?xf32>
  %1 = fuse.tanh %0 : tensor<?xf32>
  return %1 : tensor<?xf32>
}"""
def compile_():
    error = ctypes.c_void_p()
    program = lib.fuse_compile(text, None, 0, None, ctypes.byref(error))
    assert program, _capi.take_string(error.value)
    return program
x = np.linspace(-1, 1, 1 << 24, dtype=np.float32)
def run(program):
    array = _capi.Array()
    array.data, array.dtype, array.rank = x.ctypes.data, 2, 1
    array.shape[0] = x.size
    inputs = (_capi.Array * 1)(array)
    results = (_capi.Array * 1)()
    error = ctypes.c_void_p()
    status = lib.fuse_run(program, inputs, 1, results, ctypes.byref(error))
    assert status == 0, _capi.take_string(error.value)
    lib.fuse_free_buffer(results[0].data)

what = sys.argv[1]
signal.alarm(60)
if what == "destroy":
    # fuse_destroy while another thread runs the program: it unmapped the
    # code under the run (a segfault).
    for _ in range(5):
        program = compile_()
        started = threading.Event()
        def loop():
            started.set()
            run(program)
        thread = threading.Thread(target=loop)
        thread.start()
        started.wait()
        # (Long enough for the run to have begun, well before it ends:
        # destroying a program whose run has not begun is the caller's
        # error.)
        time.sleep(0.02)
        lib.fuse_destroy(program)
        thread.join()
elif what == "fork":
    # A fork while another thread runs a program; the child runs it: the
    # child waited forever for the run's lock, which the parent's thread
    # held at the fork.
    program = compile_()
    stop = False
    def loop():
        while not stop:
            run(program)
    thread = threading.Thread(target=loop)
    thread.start()
    for _ in range(5):
        time.sleep(0.01)
        pid = os.fork()
        if pid == 0:
            signal.alarm(20)
            run(program)
            os._exit(0)
        _, status = os.waitpid(pid, 0)
        assert status == 0, status
    stop = True
    thread.join()
elif what == "openmp":
    # A run set the calling thread's OpenMP thread count to fuse's and left
    # it so: the application's own parallel regions ran on that many.
    # The OpenMP runtime the library uses (already loaded: the same one).
    with open("/proc/self/maps") as maps:
        path = next(line.split()[-1] for line in maps if "libomp" in line)
    omp = ctypes.CDLL(path)
    omp.omp_set_num_threads(7)
    run(compile_())
    assert omp.omp_get_max_threads() == 7, omp.omp_get_max_threads()
print("ok")
'''


@pytest.mark.parametrize("what", ["destroy", "fork", "openmp"])
def test_threads_fork_and_openmp_of_a_c_caller(what):
    import os
    import subprocess
    import sys
    result = subprocess.run([sys.executable, "-c", THREADS_SCRIPT, what], capture_output=True,
                            text=True, timeout=120, env=dict(os.environ))
    assert result.returncode == 0 and result.stdout.strip() == "ok", (
        result.returncode, result.stdout, result.stderr[-2000:])
