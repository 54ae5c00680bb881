"""Stand-ins for GPU arrays, and the runs of test_device.py on the fake CUDA
driver (test/Runtime/FakeCuda/FakeCuda.cpp), whose device memory is host
memory: a numpy buffer can play a device array, and a result can be read
back with numpy. The fake runs the kernels on its emulated GPU, so results
hold the computed values.

Run as a script (in a process of its own, since the CUDA runtime's state is
per process) with FUSE_LIBCUDA set to the fake and FAKE_CUDA_LOG to its log:
it writes `## NAME` lines into that log between the steps, so that the test
can tell which driver calls each step made, and prints a JSON object of what
it saw.
"""

import ctypes
import gc
import json
import os
import sys
import types

import numpy as np


# Set by main(): registers a numpy buffer with the fake driver
# (cuMemHostRegister), so that its kernels may read and write it as device
# memory; the fake faults on any other host address, as a GPU would.
_register = None


def _registered(array):
    if _register is not None and array.nbytes:
        _register(array)
    return array


class CaiArray:
    """A numpy array's buffer behind __cuda_array_interface__ (version 3 by
    default), with the stream, strides and typestr given."""

    def __init__(self, array, stream=None, strides=None, typestr=None, version=3):
        self.array = _registered(array)
        interface = {"shape": array.shape, "typestr": typestr or array.dtype.str,
                     "data": (array.ctypes.data, False), "strides": strides,
                     "version": version}
        if stream is not None:
            interface["stream"] = stream
        self.__cuda_array_interface__ = interface


# The DLPack structs are the package's own (dlpack.h).
from fuse._device import _DLDataType, _DLDevice, _DLManagedTensor, _DLTensor  # noqa: E402


_capsule_new = ctypes.PYFUNCTYPE(ctypes.py_object, ctypes.c_void_p, ctypes.c_char_p,
                                 ctypes.c_void_p)(("PyCapsule_New", ctypes.pythonapi))
_DL_CODES = {"f": 2, "i": 0, "b": 6}


class DLPackOnlyArray:
    """A CUDA DLPack producer without __cuda_array_interface__, over a numpy
    array: __dlpack__ returns a 'dltensor' capsule (with no destructor: this
    object owns the DLManagedTensor). `streams` records the stream argument
    of each __dlpack__ call."""

    def __init__(self, array, device=(2, 0), strides=None, dtype=None, offset=0):
        self.array = _registered(array)
        self.device = device
        self.streams = []
        self._shape = (ctypes.c_int64 * max(array.ndim, 1))(*array.shape)
        self._strides = (ctypes.c_int64 * max(array.ndim, 1))(*strides) if strides else None
        code, bits = dtype or (_DL_CODES[array.dtype.kind], array.dtype.itemsize * 8)
        tensor = _DLTensor(array.ctypes.data - offset, _DLDevice(*device), array.ndim,
                           _DLDataType(code, bits, 1), self._shape, self._strides, offset)
        self._managed = _DLManagedTensor(tensor, None, None)

    def __dlpack_device__(self):
        return self.device

    def __dlpack__(self, stream=None):
        self.streams.append(stream)
        return _capsule_new(ctypes.addressof(self._managed), b"dltensor", None)


def fake_cupy():
    """A module standing in for cupy: `asarray` wraps a
    __cuda_array_interface__ (no copy), `ndarray` is a CaiArray of it."""
    cupy = types.ModuleType("cupy")

    class ndarray(CaiArray):
        pass

    ndarray.__module__ = "cupy"

    def asarray(obj):
        wrapped = ndarray.__new__(ndarray)
        wrapped.array = obj
        wrapped.__cuda_array_interface__ = obj.__cuda_array_interface__
        return wrapped

    cupy.ndarray = ndarray
    cupy.asarray = asarray
    return cupy


def fake_torch(current_stream):
    """A module standing in for torch, with CUDA tensors over numpy buffers:
    what fuse reads of a tensor (dtype, device, data_ptr, contiguity,
    requires_grad), torch.cuda.current_stream and torch.as_tensor."""
    torch = types.ModuleType("torch")
    torch.cuda = types.ModuleType("torch.cuda")

    class dtype:
        def __init__(self, name, numpy):
            self.name, self.numpy = name, numpy

        def __repr__(self):
            return f"torch.{self.name}"

    dtype.__module__ = "torch"
    for name in ["float16", "bfloat16", "float32", "float64", "int32", "int64", "bool",
                 "int8", "int16"]:
        setattr(torch, name, dtype(name, None if name == "bfloat16" else np.dtype(name)))

    class device:
        def __init__(self, index):
            self.type, self.index = "cuda", index

        def __str__(self):
            return f"cuda:{self.index}"

    class Stream:
        def __init__(self, handle):
            self.cuda_stream = handle

    class Tensor:
        def __init__(self, array, dtype=None, index=0, requires_grad=False, owner=None):
            self.array = _registered(array)
            self.owner = owner
            self.dtype = dtype or getattr(torch, array.dtype.name)
            self.device = device(index)
            self.is_cuda = True
            self.requires_grad = requires_grad
            self.shape = array.shape

        def data_ptr(self):
            return self.array.ctypes.data

        def is_contiguous(self):
            return self.array.flags.c_contiguous

        def stride(self):
            return tuple(s // self.array.itemsize for s in self.array.strides)

        def __dlpack_device__(self):
            return (2, self.device.index)

        def __dlpack__(self, stream=None):
            raise AssertionError("fuse reads a torch.Tensor through torch")

        def view(self, dtype):
            return Tensor(self.array, dtype, self.device.index, owner=self.owner)

    Tensor.__module__ = "torch"

    def as_tensor(obj, device=None):
        # Stands for a tensor over obj's memory, which it keeps alive.
        interface = obj.__cuda_array_interface__
        return Tensor(np.empty(interface["shape"], interface["typestr"]), owner=obj)

    torch.Tensor = Tensor
    torch.as_tensor = as_tensor
    torch.cuda.current_stream = lambda device=None: Stream(current_stream)
    return torch


def _driver():
    """The fake driver (the library the runtime loaded: the same handle)."""
    return ctypes.CDLL(os.environ["FUSE_LIBCUDA"])


def device_values(array):
    """A copy of the values of a GPU array of the fake driver (host memory)."""
    interface = array.__cuda_array_interface__
    dtype = np.dtype(interface["typestr"])
    count = int(np.prod(interface["shape"], dtype=np.int64))
    buffer = (ctypes.c_char * (count * dtype.itemsize)).from_address(interface["data"][0])
    return np.frombuffer(buffer, dtype).reshape(interface["shape"]).copy()


def main():
    import fuse

    log_path = os.environ["FAKE_CUDA_LOG"]
    seen = {}

    def mark(name):
        with open(log_path, "a") as log:
            log.write(f"## {name}\n")

    def interface(array):
        i = dict(array.__cuda_array_interface__)
        i["shape"] = list(i["shape"])
        i["data"] = list(i["data"])
        return i

    def add_relu(a, b):
        return fuse.relu(a + b)

    n = 1000
    seen["n"] = n
    host_a = np.linspace(-1, 1, n, dtype=np.float32)
    host_b = np.ones(n, np.float32)
    f = fuse.jit(add_relu, target="cuda")

    mark("host run")
    f(host_a, host_b)

    def register(array):
        assert driver.cuMemHostRegister_v2(ctypes.c_void_p(array.ctypes.data),
                                           ctypes.c_size_t(array.nbytes), 0) == 0

    # This script's own driver calls are made in the device's primary
    # context, as PyTorch's and CuPy's are: the same context as fuse's.
    global _register
    driver = _driver()
    primary = ctypes.c_void_p()
    assert driver.cuDevicePrimaryCtxRetain(ctypes.byref(primary), 0) == 0
    assert driver.cuCtxSetCurrent(primary) == 0
    _register = register
    mark("device run")
    a, b = CaiArray(host_a.copy()), CaiArray(host_b.copy())
    result = f(a, b)
    mark("device run done")
    seen["type"] = type(result).__name__
    seen["interface"] = interface(result)
    seen["shape"] = list(result.shape)
    seen["dtype"] = str(result.dtype)
    seen["repr"] = repr(result)
    seen["input_pointers"] = [a.array.ctypes.data, b.array.ctypes.data]
    data = device_values(result)
    seen["result_is_relu_of_sum"] = bool(
        np.array_equal(data, np.maximum(host_a + host_b, np.float32(0))))
    seen["cache"] = list(f.cache_info())
    seen["profile"] = [k["name"] for k in f.program.last_profile]
    mark("free")
    del result, data
    gc.collect()
    mark("freed")

    for name, stream in [("legacy", 1), ("per-thread", 2)]:
        mark(f"stream {name}")
        f(CaiArray(host_a, stream=stream), CaiArray(host_b, stream=stream))
    # A stream of "another library" (PyTorch's, CuPy's): one the driver made.
    handle = ctypes.c_void_p()
    assert driver.cuStreamCreate(ctypes.byref(handle), 0) == 0
    mark("stream created")
    f(CaiArray(host_a, stream=handle.value), CaiArray(host_b, stream=handle.value))
    mark("stream created done")
    driver.cuStreamDestroy_v2(handle)
    mark("stream invalid")
    try:
        f(CaiArray(host_a, stream=0xdead0), CaiArray(host_b, stream=0xdead0))
        seen["invalid_stream"] = None
    except fuse.FuseError as e:
        seen["invalid_stream"] = str(e)
    mark("after invalid stream")
    seen["after_invalid_stream"] = type(f(a, b)).__name__

    mark("two results")
    g = fuse.jit(lambda x, y: (x * y, x < y), target="cuda")
    two = g(a, b)
    seen["two"] = [interface(r) for r in two]
    seen["two_values"] = [
        bool(np.array_equal(device_values(two[0]), host_a * host_b)),
        bool(np.array_equal(device_values(two[1]), host_a < host_b))]
    del two
    gc.collect()

    mark("chained")
    chained = f(f(a, b), b)
    seen["chained"] = type(chained).__name__
    inner = np.maximum(host_a + host_b, np.float32(0))
    seen["chained_values"] = bool(np.array_equal(
        device_values(chained), np.maximum(inner + host_b, np.float32(0))))
    del chained
    gc.collect()

    mark("dlpack")
    producer = DLPackOnlyArray(host_a)
    seen["dlpack"] = interface(f(producer, DLPackOnlyArray(host_b)))
    seen["dlpack_streams"] = producer.streams
    gc.collect()

    mark("program")
    program = fuse.compile("func.func @neg(%a: tensor<?xf64>) -> tensor<?xf64> {\n"
                           "  %0 = fuse.neg %a : tensor<?xf64>\n"
                           "  return %0 : tensor<?xf64>\n}\n", target="cuda")
    (negated,) = program(CaiArray(np.arange(10.0)))
    seen["program"] = interface(negated)
    seen["program_values"] = device_values(negated).tolist()
    del negated
    gc.collect()

    mark("cupy")
    sys.modules["cupy"] = cupy = fake_cupy()
    x = cupy.asarray(CaiArray(host_a, stream=1))
    out = f(x, cupy.asarray(CaiArray(host_b, stream=1)))
    seen["cupy"] = [type(out).__module__, type(out).__name__, type(out.array).__name__]
    del out
    gc.collect()

    mark("torch")
    sys.modules["torch"] = torch = fake_torch(current_stream=0)
    out = f(torch.Tensor(host_a), torch.Tensor(host_b))
    seen["torch"] = [type(out).__module__, type(out).__name__, type(out.owner).__name__]
    del out
    gc.collect()
    torch.cuda.current_stream = lambda device=None: types.SimpleNamespace(cuda_stream=2)
    mark("torch stream")
    f(torch.Tensor(host_a), torch.Tensor(host_b))
    gc.collect()
    mark("torch bfloat16")
    h = fuse.jit(lambda x: fuse.cast(x, "float32") * 2, target="cuda")
    bits = np.zeros(n, np.int16)
    out = h(torch.Tensor(bits, dtype=torch.bfloat16))
    seen["torch_bf16"] = [h.mlir.splitlines()[0], type(out).__name__]
    out = fuse.jit(lambda x: x * 2, target="cuda")(torch.Tensor(bits, dtype=torch.bfloat16))
    seen["torch_bf16_result"] = [repr(out.dtype), type(out.owner).__name__,
                                 out.owner.__cuda_array_interface__["typestr"]]
    del out
    errors = {}
    for name, make in [
            ("grad", lambda: torch.Tensor(host_a, requires_grad=True)),
            ("device1", lambda: torch.Tensor(host_a, index=1)),
            ("int8", lambda: torch.Tensor(host_a.astype(np.int8))),
            ("strided", lambda: torch.Tensor(host_a[::2]))]:
        try:
            f(make(), make())
            errors[name] = None
        except TypeError as e:
            errors[name] = str(e)
    seen["torch_errors"] = errors
    gc.collect()

    mark("empty")
    try:
        empty = f(CaiArray(np.empty(0, np.float32)), CaiArray(np.empty(0, np.float32)))
        seen["empty"] = interface(empty)["shape"]
        del empty
    except fuse.FuseError as e:
        seen["empty"] = str(e)
    gc.collect()

    mark("host run into")
    # out= on the cuda target: each result is copied from the device into
    # the caller's array, which the call returns.
    host_out = np.full(n, np.nan, np.float32)
    seen["out"] = [f(host_a, host_b, out=host_out) is host_out, bool(
        np.array_equal(host_out, np.maximum(host_a + host_b, np.float32(0))))]

    mark("host run into an argument")
    # Over an argument's memory (the device reads its own copy of it) and
    # at an offset: the same copy.
    over = host_a.copy()
    wide = np.full(n + 2, -7, np.float32)
    want = np.maximum(over + host_b, np.float32(0))
    seen["out"] += [f(over, host_b, out=over) is over, bool(np.array_equal(over, want)),
                    bool(np.array_equal(f(host_a, host_b, out=wide[1:n + 1]), want)
                         and wide[0] == -7 and wide[n + 1] == -7)]
    # An array of another size: the cpu target's words (it said "has shape
    # 8; the result's is 16").
    try:
        f(host_a, host_b, out=np.empty(n - 1, np.float32))
    except fuse.FuseError as e:
        seen["out_size"] = str(e)

    mark("different streams")
    try:
        f(CaiArray(host_a, stream=1), CaiArray(host_b, stream=2))
        seen["different_streams"] = None
    except ValueError as e:
        seen["different_streams"] = str(e)

    mark("failed runs")
    # Runs that stop at a check (the max of an empty operand) after their
    # results were allocated, on host and on GPU arrays.
    reduce_both = fuse.jit(lambda x: (x.sum(axis=0), x.max()), target="cuda")
    seen["failed_runs"] = []
    for x in [np.empty((0, 3), np.float32)] * 2 + [CaiArray(np.empty((0, 3), np.float32))] * 2:
        try:
            reduce_both(x)
            seen["failed_runs"].append("ran")
        except fuse.FuseError:
            seen["failed_runs"].append("stopped")
    gc.collect()
    mark("failed runs done")

    mark("other context")
    # Another library made its own context current on this thread: fuse
    # allocates, launches and frees in its own, and puts the other back.
    other = ctypes.c_void_p()
    assert driver.cuCtxCreate_v2(ctypes.byref(other), 0, 0) == 0
    out = f(a, b)
    values = device_values(out)
    current = ctypes.c_void_p()
    assert driver.cuCtxGetCurrent(ctypes.byref(current)) == 0
    after_run = current.value == other.value
    del out
    gc.collect()
    assert driver.cuCtxGetCurrent(ctypes.byref(current)) == 0
    seen["other_context"] = [after_run, current.value == other.value, bool(
        np.array_equal(values, np.maximum(host_a + host_b, np.float32(0))))]
    assert driver.cuCtxDestroy_v2(other) == 0
    assert driver.cuCtxSetCurrent(primary) == 0
    assert driver.cuDevicePrimaryCtxRelease_v2(0) == 0
    mark("other context done")

    mark("exit")
    # Freed at exit, before the runtime shuts down (`leaks: 0`).
    seen["kept"] = repr(f(a, b))
    globals()["kept"] = f(a, b)
    print(json.dumps(seen))


if __name__ == "__main__":
    main()
