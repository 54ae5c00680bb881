"""GPU arrays: arguments in device memory run with no host copies
(fuse_run_device) and come back as arrays of the same kind.

Without a GPU, the runs go through the fake CUDA driver
(test/Runtime/FakeCuda/FakeCuda.cpp), whose device memory is host memory, in
a process of their own (gpu_fakes.py): its log shows every driver call. With
PyTorch and a GPU, test_torch_on_the_gpu compares values with PyTorch's.
"""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

import fuse
from fuse import _arguments
from conftest import assert_same
from gpu_fakes import CaiArray, DLPackOnlyArray

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


def add(a, b):
    return a + b


def add_relu(a, b):
    return fuse.relu(a + b)


def gpu_pair(n=8, dtype=np.float32, **kwargs):
    return CaiArray(np.ones(n, dtype), **kwargs), CaiArray(np.ones(n, dtype), **kwargs)


# Refused before anything runs.

def test_host_and_gpu_arrays_in_one_call():
    a, _ = gpu_pair()
    with pytest.raises(TypeError, match=r"argument 'a' \(numpy\.ndarray\) is in host memory "
                                        r"but argument 'b' \(gpu_fakes\.CaiArray\) is on the "
                                        r"GPU; the arrays of one call must be all host \(numpy\) "
                                        r"arrays or all GPU arrays"):
        fuse.jit(add)(np.ones(8, np.float32), a)
    with pytest.raises(TypeError, match=r"argument 'b' \(numpy\.float32\) is in host memory "
                                        r"but argument 'a' \(gpu_fakes\.CaiArray\) is on the "
                                        r"GPU; .* move argument 'b' to the GPU \(pass a Python "
                                        r"scalar, which goes with either\), or argument 'a' to "
                                        r"the host"):
        fuse.jit(add).trace(a, np.float32(2))


def test_a_programs_python_scalar_next_to_gpu_arrays():
    # A fuse.Program takes a Python scalar as a host array: the hint said it
    # "goes with either", as a jitted function's does.
    from fuse._arguments import program_arguments
    from fuse._program import TensorType
    a, _ = gpu_pair()
    with pytest.raises(TypeError, match=r"argument 1 \(float\) is in host memory but argument 0 "
                                        r"\(gpu_fakes\.CaiArray\) is on the GPU; .* move "
                                        r"argument 1 to the GPU \(a fuse\.Program takes a Python "
                                        r"scalar as a host array: pass a 0-d GPU array\)"):
        program_arguments([a, 2.0], [TensorType("f32", (None,)), TensorType("f32", ())])


def test_misaligned_bools_and_single_numbers_on_the_gpu():
    # The library refuses any GPU array that is not aligned (it copies host
    # ones): a bool array or a single number at an offset got its FuseError
    # naming no parameter; it is this TypeError, as for other arrays.
    for view in (np.ones(17, np.bool_)[1:], np.ones(5, np.float32)[1:2]):
        with pytest.raises(TypeError, match=r"^fuse: the data of argument 'a' at 0x[0-9a-f]+ "
                                            r"is not 16-byte aligned"):
            fuse.jit(lambda a: a * 1).trace(CaiArray(view))


def test_device_array_copies_and_bfloat16():
    # copy.copy of a DeviceArray made a second handle of its memory, which
    # the first one's collection freed (the copy read freed memory, and a
    # run on it faulted the context): copy.copy is the object itself, and
    # deepcopy and pickling are refused. A bfloat16 DeviceArray ('<V2' to
    # others) is fuse's own: a function takes it back.
    import copy
    import pickle
    from fuse._device import DeviceArray
    x = DeviceArray(fuse._capi.lib(), 0, "bf16", (3,))
    assert copy.copy(x) is x
    with pytest.raises(TypeError, match="a DeviceArray cannot be deep-copied"):
        copy.deepcopy(x)
    with pytest.raises(TypeError, match="a DeviceArray cannot be pickled"):
        pickle.dumps(x)
    assert x.__cuda_array_interface__["typestr"] == "<V2"
    assert "tensor<?xbf16>" in fuse.jit(lambda y: fuse.cast(y, "float32") + 1).trace(x)


def test_python_scalars_are_constants_next_to_gpu_arrays():
    # fuse_run_device takes device memory only: next to GPU arrays a Python
    # scalar is a constant of the trace, not a host 0-d argument.
    a, _ = gpu_pair()
    f = fuse.jit(add)
    assert f.trace(a, 2.0) == (
        "func.func @add(%a: tensor<?xf32>) -> tensor<?xf32> {\n"
        "  %0 = fuse.constant 2.0 : tensor<f32>\n"
        "  %1 = fuse.add %a, %0 : tensor<?xf32>, tensor<f32> -> tensor<?xf32>\n"
        "  return %1 : tensor<?xf32>\n"
        "}\n")
    f.trace(a, 3.0)
    assert f.cache_info().traces == 2
    # Next to host arrays it is a run-time argument.
    assert "func.func @add(%a: tensor<?xf32>, %b: tensor<f32>)" in f.trace(
        np.ones(3, np.float32), 2.0)


@pytest.mark.parametrize("strides,ok", [
    (None, True), ((4,), True), ((8,), False), ((-4,), False)])
def test_gpu_arrays_must_be_contiguous(strides, ok):
    a = CaiArray(np.ones(8, np.float32), strides=strides)
    if ok:
        fuse.jit(add).trace(a, a)
        return
    with pytest.raises(TypeError, match=r"^fuse: argument 'a' is not C-contiguous \(strides "
                                        r".* bytes for shape \(8,\)\); make it contiguous first "
                                        r"\(x\.contiguous\(\) in PyTorch"):
        fuse.jit(add)(a, a)


def test_gpu_arrays_must_be_aligned():
    # Views at an offset are refused: the kernels assume 16-byte aligned
    # data, and fuse does not copy GPU arrays.
    x = np.zeros(64, np.float32)
    start = (-x.ctypes.data // 4) % 4
    a = CaiArray(x[start + 1:start + 9])
    with pytest.raises(TypeError, match=r"^fuse: the data of argument 'a' at 0x[0-9a-f]+ is "
                                        r"not 16-byte aligned .*pass a copy \(x\.clone\(\) in "
                                        r"PyTorch"):
        fuse.jit(add)(a, a)
    aligned = CaiArray(x[start + 4:start + 12])
    fuse.jit(add).trace(aligned, aligned)


def test_contiguity_ignores_sizes_of_one():
    a = CaiArray(np.ones((3, 1), np.float32), strides=(4, 999))
    fuse.jit(add).trace(a, a)


@pytest.mark.parametrize("typestr,match", [
    ("|u1", "dtype uint8, which fuse does not support"),
    ("<c8", "dtype complex64, which fuse does not support"),
    ("<V2", r"typestr '<V2', which fuse cannot identify.*bfloat16"),
    (">f4", "big-endian GPU data is not supported"),
    ("nonsense", "typestr 'nonsense', which fuse cannot identify"),
])
def test_unsupported_typestr(typestr, match):
    a = CaiArray(np.ones(8, np.float32), typestr=typestr)
    with pytest.raises(TypeError, match=match):
        fuse.jit(add)(a, a)


@pytest.mark.parametrize("dtype,typestr,fuse_dtype", [
    ("float16", "<f2", "f16"), ("float32", "<f4", "f32"), ("float64", "<f8", "f64"),
    ("int32", "<i4", "i32"), ("int64", "<i8", "i64"), ("bool", "|b1", "i1")])
def test_supported_typestr(dtype, typestr, fuse_dtype):
    a = CaiArray(np.ones(4, dtype))
    assert a.__cuda_array_interface__["typestr"] == typestr
    assert f"tensor<?x{fuse_dtype}>" in fuse.jit(lambda x: x).trace(a)


@pytest.mark.parametrize("version", [0, 1, 4, "3", None])
def test_interface_versions_other_than_2_and_3_are_refused(version):
    a = CaiArray(np.ones(8, np.float32), version=version)
    if version is None:
        del a.__cuda_array_interface__["version"]
    match = ("no version in its" if version is None
             else rf"__cuda_array_interface__ version {version!r}; fuse reads versions 2 and 3")
    with pytest.raises(TypeError, match=match):
        fuse.jit(add)(a, a)
    assert "tensor<?xf32>" in fuse.jit(add).trace(*gpu_pair(version=2))


def test_malformed_interfaces():
    a = CaiArray(np.ones(8, np.float32))
    del a.__cuda_array_interface__["typestr"]
    with pytest.raises(TypeError, match="malformed __cuda_array_interface__"):
        fuse.jit(add)(a, a)
    b = CaiArray(np.ones(8, np.float32), stream=0)
    with pytest.raises(TypeError, match="stream 0 .* which the interface does not allow"):
        fuse.jit(add)(b, b)

    class Broken:
        @property
        def __cuda_array_interface__(self):
            raise RuntimeError("Can't get __cuda_array_interface__ on Variable that "
                               "requires grad")

    with pytest.raises(TypeError, match="reading its __cuda_array_interface__ failed: Can't "
                                        "get"):
        fuse.jit(add)(Broken(), Broken())


def test_gpu_arrays_need_the_cuda_target():
    a, b = gpu_pair()
    with pytest.raises(TypeError, match=r"GPU arrays need a program compiled for the cuda "
                                        r"target, and this one runs on the cpu; compile with "
                                        r"target='cuda'"):
        fuse.jit(add, target="cpu")(a, b)
    program = fuse.compile("func.func @f(%a: tensor<?xf32>) -> tensor<?xf32> {\n"
                           "  %0 = fuse.neg %a : tensor<?xf32>\n"
                           "  return %0 : tensor<?xf32>\n}\n", target="cpu")
    with pytest.raises(TypeError, match="GPU arrays need a program compiled for the cuda"):
        program(a)
    with pytest.raises(TypeError, match=r"argument 0 \(float\) is in host memory but "
                                        r"argument 1"):
        fuse.compile("func.func @g(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {\n"
                     "  %0 = fuse.add %a, %b : tensor<?xf32>, tensor<?xf32> -> "
                     "tensor<?xf32>\n  return %0 : tensor<?xf32>\n}\n", target="cpu")(1.0, a)


def test_auto_without_a_gpu_says_why():
    f = fuse.jit(add)
    f(np.ones(2, np.float32), np.ones(2, np.float32))
    if f.program.target == "cuda":
        pytest.skip("this machine has a GPU")
    a, b = gpu_pair()
    with pytest.raises(TypeError, match="runs on the cpu: .*running on the CPU target"):
        f(a, b)


def test_host_and_gpu_calls_share_the_trace():
    f = fuse.jit(add_relu)
    f.trace(np.ones(3, np.float32), np.ones(3, np.float32))
    a, b = gpu_pair(5)
    f.trace(a, b)
    assert f.cache_info().traces == 1 and f.cache_info().size == 1
    f.trace(*gpu_pair(5, np.float64))
    assert f.cache_info().size == 2


def test_explain_takes_gpu_arrays():
    a, b = gpu_pair(1000)
    assert "at N = 1000: fused 12,000 bytes" in fuse.explain(add_relu, a, b)


# DLPack.

def test_host_dlpack_arrays_run_on_the_cpu():
    class HostDLPack:
        def __init__(self, array):
            self.array = array

        def __dlpack__(self, stream=None):
            return self.array.__dlpack__()

        def __dlpack_device__(self):
            return self.array.__dlpack_device__()

    x = np.arange(4, dtype=np.float32)
    assert_same(fuse.jit(add, target="cpu")(HostDLPack(x), HostDLPack(x)), x + x)


def test_dlpack_producer_errors_are_type_errors():
    class Refusing(DLPackOnlyArray):
        def __dlpack__(self, stream=None):
            raise BufferError("not exportable")

    x = np.ones(4, np.float32)
    with pytest.raises(TypeError, match="^fuse: argument 'a' .*its __dlpack__ failed: not "
                                        "exportable"):
        fuse.jit(add)(Refusing(x), Refusing(x))


def test_dlpack_capsule_is_read_in_place():
    x = np.arange(12, dtype=np.int64).reshape(3, 4)
    producer = DLPackOnlyArray(x)
    arg = _arguments.device_input(producer, "argument 0")
    assert (arg.data, arg.dtype, arg.shape, arg.stream) == (x.ctypes.data, "i64", (3, 4), 1)
    # The producer is asked to order its work before the legacy default stream.
    assert producer.streams == [1]
    # byte_offset is added; explicit row-major strides are contiguous.
    arg = _arguments.device_input(DLPackOnlyArray(x, strides=(4, 1), offset=16), "argument 0")
    assert arg.data == x.ctypes.data and arg.shape == (3, 4)
    arg = _arguments.device_input(DLPackOnlyArray(x.astype(np.bool_)), "argument 0")
    assert arg.dtype == "i1"
    bf16 = _arguments.device_input(DLPackOnlyArray(x.astype(np.int16), dtype=(4, 16)), "x")
    assert bf16.dtype == "bf16"


@pytest.mark.parametrize("make,match", [
    (lambda x: DLPackOnlyArray(x, strides=(1, 3)), r"not C-contiguous \(strides \(1, 3\) "
                                                   r"elements"),
    (lambda x: DLPackOnlyArray(x.astype(np.uint8), dtype=(1, 8)),
     "DLPack dtype uint8, which fuse does not support"),
    (lambda x: DLPackOnlyArray(x, device=(2, 1)), "is on CUDA device 1 .*device 0 only"),
    (lambda x: DLPackOnlyArray(x, device=(10, 0)), "DLPack array on device type 10"),
])
def test_dlpack_refused(make, match):
    x = np.ones((3, 4), np.float32)
    with pytest.raises(TypeError, match=match):
        fuse.jit(add)(make(x), make(x))


# DeviceArray.

class _RecordingLib:
    def __init__(self):
        self.freed = []

    def fuse_free_device(self, ptr):
        self.freed.append(ptr)


def test_device_array():
    lib = _RecordingLib()
    array = fuse.DeviceArray(lib, 0x1000, "f32", (2, 3))
    assert array.shape == (2, 3) and array.ndim == 2 and array.dtype == np.float32
    assert array.__cuda_array_interface__ == {
        "shape": (2, 3), "typestr": "<f4", "data": (0x1000, False), "strides": None,
        "version": 3, "stream": None}
    assert repr(array) == "<fuse.DeviceArray float32 (2, 3) on cuda:0 at 0x1000>"
    assert fuse.DeviceArray(lib, 0x2000, "i1", (4,)).__cuda_array_interface__["typestr"] == "|b1"
    bf16 = fuse.DeviceArray(lib, 0x3000, "bf16", ())
    assert bf16.dtype == "bfloat16" and bf16.__cuda_array_interface__["typestr"] == "<V2"
    # numpy cannot read GPU memory: it made a 0-d object array, silently.
    with pytest.raises(TypeError, match=r"^fuse: a DeviceArray is in GPU memory, which numpy "
                                        r"cannot read: copy it to the host with "
                                        r"cupy\.asnumpy\(x\)"):
        np.asarray(array)
    # A DeviceArray passed back in is a GPU argument, read in place.
    arg = _arguments.device_input(array, "argument 0")
    assert (arg.data, arg.dtype, arg.shape, arg.stream) == (0x1000, "f32", (2, 3), None)
    del array, bf16, arg
    assert sorted(lib.freed) == [0x1000, 0x2000, 0x3000]


# Runs on the fake driver.

def _fake_cuda():
    candidates = [os.environ.get("FUSE_FAKE_CUDA")]
    if os.environ.get("FUSE_LIB_DIR"):
        candidates.append(os.path.join(os.environ["FUSE_LIB_DIR"], os.pardir, "test",
                                       "fakecuda", "libcuda.so.1"))
    candidates.append(os.path.join(REPO, "build", "test", "fakecuda", "libcuda.so.1"))
    for path in candidates:
        if path and os.path.exists(path):
            return os.path.abspath(path)
    return None


def run_on_fake_driver(tmp_path_factory, name, argv, timeout, **env):
    """Runs Python with `argv` in a process whose CUDA driver is the fake one
    (FUSE_LIBCUDA), with no fault injected, its calls logged, fuse and this
    folder importable, and `env` added to its environment; skips the test
    when the fake is not built. Returns the process's stdout and the log."""
    fake = _fake_cuda()
    if fake is None:
        pytest.skip("the fake CUDA driver is not built (build/test/fakecuda/libcuda.so.1)")
    log = tmp_path_factory.mktemp(name) / "calls.log"
    env = dict(os.environ, FUSE_LIBCUDA=fake, FAKE_CUDA_LOG=str(log), **env,
               PYTHONPATH=os.pathsep.join([os.path.dirname(os.path.dirname(fuse.__file__)),
                                           HERE, os.environ.get("PYTHONPATH", "")]))
    env.pop("FAKE_CUDA_FAIL", None)
    done = subprocess.run([sys.executable, *argv], env=env, capture_output=True, text=True,
                          timeout=timeout)
    assert done.returncode == 0, done.stderr
    return done.stdout, log


@pytest.fixture(scope="module")
def fake_run(tmp_path_factory):
    """What gpu_fakes.py saw, and the fake driver's log by step."""
    stdout, log = run_on_fake_driver(tmp_path_factory, "fakecuda",
                                     [os.path.join(HERE, "gpu_fakes.py")], timeout=600)
    steps = {"start": []}
    current = steps["start"]
    for line in log.read_text().splitlines():
        if line.startswith("## "):
            current = steps.setdefault(line[3:], [])
        else:
            current.append(line)
    return json.loads(stdout.splitlines()[-1]), steps


def _calls(lines, name):
    return [line for line in lines if line.split(" ")[0] == name]


def _syncs_before_launch(lines):
    launch = lines.index(_calls(lines, "cuLaunchKernel")[0])
    return _calls(lines[:launch], "cuStreamSynchronize")


def _syncs_after_launch(lines):
    launch = lines.index(_calls(lines, "cuLaunchKernel")[0])
    return _calls(lines[launch:], "cuStreamSynchronize")


def test_device_run_makes_no_copies(fake_run):
    seen, steps = fake_run
    # The host run copies each input in and the result out ...
    assert len([c for c in _calls(steps["host run"], "cuMemcpyAsync") if "HtoD" in c]) == 2
    # ... the device run launches the same kernel on the arrays in place.
    run = steps["device run"]
    assert not [line for line in run if "cuMemcpy" in line or "CUDA_ERROR" in line], run
    assert _calls(run, "cuLaunchKernel")[0].startswith("cuLaunchKernel fused_add_relu_0 ")
    assert _calls(run, "cuMemAlloc_v2") == ["cuMemAlloc_v2 4000"]
    # No stream in the interface: only fuse's own stream is synchronized.
    assert not [line for line in run if line.startswith("cuStreamSynchronize ")]
    assert seen["profile"] == ["fused_add_relu_0"]
    # One trace and one program for the host and the device call.
    assert seen["cache"] == [1, 1, 1, 1, 1]


def test_device_run_result(fake_run):
    seen, steps = fake_run
    assert seen["type"] == "DeviceArray"
    interface = seen["interface"]
    assert interface["shape"] == [1000] and interface["typestr"] == "<f4"
    assert interface["version"] == 3 and interface["stream"] is None
    assert interface["strides"] is None and interface["data"][1] is False
    assert interface["data"][0] not in seen["input_pointers"]
    # The fake driver ran the kernel on its emulated GPU.
    assert seen["result_is_relu_of_sum"]
    assert seen["shape"] == [1000] and seen["dtype"] == "float32"
    assert seen["repr"].startswith("<fuse.DeviceArray float32 (1000,) on cuda:0 at 0x")
    # Freeing it frees the allocation (the fake refuses pointers it did not
    # allocate), once.
    assert steps["free"] == ["cuMemFree_v2 4000"]


@pytest.mark.parametrize("step,name", [("stream legacy", "legacy"),
                                       ("stream per-thread", "per-thread")])
def test_default_stream_handles_are_used(fake_run, step, name):
    # The kernels go on the arguments' stream, behind their producers' work:
    # the host does not wait for it before the launch, only once after.
    _, steps = fake_run
    run = steps[step]
    assert not [line for line in run if "CUDA_ERROR" in line], run
    assert f"cuStreamSynchronize {name}" not in _syncs_before_launch(run)
    assert _syncs_after_launch(run) == [f"cuStreamSynchronize {name}"]


def test_producer_stream_is_used(fake_run):
    _, steps = fake_run
    run = steps["stream created"]
    assert not [line for line in run if "CUDA_ERROR" in line or "cuMemcpy" in line], run
    # No more waits before the launch than without a stream (the host does
    # not wait for the producer), and one after it, for the run's stream.
    assert len(_syncs_before_launch(run)) == len(_syncs_before_launch(steps["device run"]))
    assert len(_syncs_after_launch(run)) == 1


def test_invalid_stream_is_a_fuse_error(fake_run):
    seen, steps = fake_run
    assert "cuEventRecord (the arguments' stream) failed: CUDA_ERROR_INVALID_HANDLE" \
        in seen["invalid_stream"]
    assert not _calls(steps["stream invalid"], "cuLaunchKernel")
    assert seen["after_invalid_stream"] == "DeviceArray"


def test_different_streams_are_refused(fake_run):
    seen, _ = fake_run
    assert "the GPU arguments come from different streams (0x1, 0x2)" \
        in seen["different_streams"]


def test_several_results_chains_and_programs(fake_run):
    seen, steps = fake_run
    assert [(r["shape"], r["typestr"]) for r in seen["two"]] == [([1000], "<f4"), ([1000], "|b1")]
    assert seen["two_values"] == [True, True]
    assert seen["chained"] == "DeviceArray" and seen["chained_values"]
    assert not [line for line in steps["chained"] if "cuMemcpy" in line]
    assert len(_calls(steps["chained"], "cuLaunchKernel")) == 2
    assert seen["program"]["typestr"] == "<f8" and seen["program"]["shape"] == [10]
    assert seen["program_values"] == [-float(i) for i in range(10)]


def test_dlpack_only_producer_runs_in_place(fake_run):
    seen, steps = fake_run
    assert seen["dlpack"]["shape"] == [1000] and seen["dlpack_streams"] == [1]
    run = steps["dlpack"]
    assert not [line for line in run if "cuMemcpy" in line or "CUDA_ERROR" in line], run
    assert _syncs_after_launch(run) == ["cuStreamSynchronize legacy"]


def test_results_come_back_as_the_inputs_kind(fake_run):
    seen, steps = fake_run
    assert seen["cupy"] == ["cupy", "ndarray", "DeviceArray"]
    assert seen["torch"] == ["torch", "Tensor", "DeviceArray"]
    for step in ["cupy", "torch"]:
        assert not [line for line in steps[step] if "cuMemcpy" in line or "CUDA_ERROR" in line]
    # PyTorch's current stream: 0, its legacy default stream, is used as
    # CU_STREAM_LEGACY.
    assert "cuStreamSynchronize legacy" in steps["torch"]
    assert "cuStreamSynchronize per-thread" in steps["torch stream"]


def test_torch_arguments(fake_run):
    seen, _ = fake_run
    first_line, kind = seen["torch_bf16"]
    assert "tensor<?xbf16>" in first_line and kind == "Tensor"
    # A bfloat16 result: torch reads it as int16 (it cannot read '<V2') and
    # views it as bfloat16.
    assert seen["torch_bf16_result"] == ["torch.bfloat16", "_Bfloat16AsInt16", "<i2"]
    errors = seen["torch_errors"]
    assert "requires grad; fuse does not record gradients: pass x.detach()" in errors["grad"]
    assert "is on CUDA device 1 (cuda:1); fuse runs on device 0 only" in errors["device1"]
    assert "has dtype torch.int8, which fuse does not support" in errors["int8"]
    assert "is not C-contiguous (strides (2,) elements for shape (500,))" in errors["strided"]


def test_empty_arrays(fake_run):
    seen, _ = fake_run
    assert seen["empty"] == [0]


def test_another_librarys_context_is_left_alone(fake_run):
    seen, steps = fake_run
    # Current again after the run and after the free, and the values right.
    assert seen["other_context"] == [True, True, True]
    run = steps["other context"]
    assert run[0] == "cuCtxCreate_v2 c1 (in c1)"
    # Every call of fuse's is in its own context: it switched to it and
    # back, and the launch and the free were in between.
    assert not [line for line in run[1:] if "(in c" in line and
                not line.startswith("cuCtxSetCurrent")], run
    assert _calls(run, "cuLaunchKernel") and "cuMemFree_v2 4000" in run
    # To its own for the run and back when it ends; again for the free. (The
    # last switch is the script's own.)
    switches = _calls(run, "cuCtxSetCurrent")
    assert switches == ["cuCtxSetCurrent", "cuCtxSetCurrent (in c1)"] * 2 + [
        "cuCtxSetCurrent"], run


def test_out_on_the_cuda_target(fake_run):
    # Numpy arrays with out=: the result is copied from the device straight
    # into the caller's array (one device-to-host copy), which is returned.
    seen, steps = fake_run
    assert seen["out"] == [True, True, True, True, True]
    assert seen["out_size"].endswith("the output array for result 0 has %d elements; "
                                     "the result has %d" % (seen["n"] - 1, seen["n"]))
    copies = _calls(steps["host run into"], "cuMemcpyAsync")
    assert len([c for c in copies if "DtoH" in c]) == 1, copies
    copies = _calls(steps["host run into an argument"], "cuMemcpyAsync")
    assert len([c for c in copies if "DtoH" in c]) == 2, copies


def test_a_run_that_stops_frees_what_it_allocated(fake_run):
    # A reduction of an empty operand stops the run at its check, after the
    # results were allocated: one device buffer leaked per call.
    seen, steps = fake_run
    assert seen["failed_runs"] == ["stopped"] * 4
    lines = steps["failed runs"]
    allocs = [line for line in lines if line.startswith("cuMemAlloc")]
    frees = [line for line in lines if line.startswith("cuMemFree")]
    assert allocs and len(allocs) == len(frees), lines


def test_nothing_leaks(fake_run):
    # The DeviceArray still alive at exit is freed before the runtime shuts
    # down.
    _, steps = fake_run
    assert "leaks: 0" in steps["exit"]
    assert "unreleased: modules=0 streams=0 events=0 contexts=0" in steps["exit"]


# On a GPU, with PyTorch (the GPU machine).

def _torch_cuda():
    try:
        import torch
    except ImportError:
        return None
    return torch if torch.cuda.is_available() else None


@pytest.mark.skipif(_torch_cuda() is None, reason="needs PyTorch with a usable GPU")
def test_torch_on_the_gpu():
    torch = _torch_cuda()
    f = fuse.jit(add_relu)
    a = torch.randn(1_000_003, device="cuda")
    b = torch.randn(1_000_003, device="cuda")
    c = f(a, b)
    assert isinstance(c, torch.Tensor) and c.device == a.device and c.dtype == torch.float32
    torch.testing.assert_close(c, torch.relu(a + b))
    assert f.program.target == "cuda"
    # Work queued on another stream is waited for.
    stream = torch.cuda.Stream()
    with torch.cuda.stream(stream):
        x = torch.full((1 << 22,), 2.0, device="cuda", dtype=torch.float16)
        y = x * 3
        z = fuse.jit(lambda p, q: p * q - 1)(x, y)
    torch.testing.assert_close(z, x * y - 1)
    # bfloat16 in, float32 out; int64 and bool.
    bf = torch.randn(4096, device="cuda").to(torch.bfloat16)
    out = fuse.jit(lambda v: fuse.cast(v, "float32") * 2)(bf)
    torch.testing.assert_close(out, bf.float() * 2)
    ints = torch.arange(-50, 50, device="cuda")
    tripled, positive = fuse.jit(lambda i: (i * 3, i > 0))(ints)
    torch.testing.assert_close(tripled, ints * 3)
    torch.testing.assert_close(positive, ints > 0)
    # Refused rather than copied.
    with pytest.raises(TypeError, match="not 16-byte aligned"):
        f(a[1:], b[1:])
    with pytest.raises(TypeError, match="not C-contiguous"):
        f(a[::2], b[::2])
    with pytest.raises(TypeError, match="is in host memory"):
        f(a.cpu().numpy(), b)
