"""GPU arrays: arguments already in device memory, and DeviceArray, the
results of a run on them.

A GPU array is read by pointer and passed to fuse_run_device, which runs the
program (compiled for the cuda target) on it with no host copies; its results
stay in device memory. fuse uses device 0's primary context, as PyTorch and
CuPy do, so the pointers of their arrays on device 0 are valid in it.

Recognized: PyTorch CUDA tensors (read through torch, which also gives the
current stream and bfloat16), objects with `__cuda_array_interface__` (CuPy,
Numba, ...; version 2 or 3) and DLPack producers on a CUDA device (through
their `__cuda_array_interface__` when they have one, otherwise through the
DLPack capsule).
"""

import ctypes
import sys
import weakref

import numpy as np

from . import _capi, _dtypes

# DLPack device types (dlpack.h DLDeviceType).
DLPACK_CPU = 1
DLPACK_CUDA = 2
# The CUstream handle of the legacy default stream, valid in any context.
STREAM_LEGACY = 1

_CONTIGUOUS_HINT = ("make it contiguous first (x.contiguous() in PyTorch, "
                    "cupy.ascontiguousarray(x) in CuPy): fuse does not copy GPU arrays")


class DeviceInput:
    """A GPU array argument: its device pointer, fuse dtype, shape, the stream
    its producer wrote it on (None: nothing to wait for), the producer's kind
    ('torch', 'cupy' or None) and the object itself, which keeps the memory
    alive while fuse reads it."""

    __slots__ = ("data", "dtype", "shape", "stream", "kind", "value", "keep")

    def __init__(self, data, dtype, shape, stream, kind, value, keep=None):
        self.data = data
        self.dtype = dtype
        self.shape = tuple(shape)
        self.stream = stream
        self.kind = kind
        self.value = value
        self.keep = keep

    @property
    def ndim(self):
        return len(self.shape)


def _module_of(value):
    return type(value).__module__.split(".")[0]


def _torch_tensor(value):
    """torch, if `value` is a torch.Tensor (torch is then already imported)."""
    if _module_of(value) != "torch":
        return None
    torch = sys.modules.get("torch")
    return torch if torch is not None and isinstance(value, torch.Tensor) else None


def _check_rank(shape, what):
    if len(shape) > _capi.MAX_RANK:
        raise TypeError(f"fuse: {what} has rank {len(shape)}; fuse takes at most rank "
                        f"{_capi.MAX_RANK}")


def _check_device(index, what, where):
    if index not in (None, 0):
        raise TypeError(f"fuse: {what} is on CUDA device {index} ({where}); fuse runs on "
                        f"device 0 only: move it there (x.to('cuda:0'), or create it under "
                        f"cupy.cuda.Device(0))")


def _c_contiguous(shape, strides, itemsize):
    """Whether byte `strides` describe a row-major array of `shape` (sizes of
    1 may have any stride; an empty array is contiguous)."""
    if 0 in shape:
        return True
    expected = itemsize
    for size, stride in zip(reversed(shape), reversed(strides)):
        if size != 1 and stride != expected:
            return False
        expected *= size
    return True


def _stream_of(stream, what):
    """The CUstream to wait for, from an interface's `stream` entry."""
    if stream is None:
        return None
    if isinstance(stream, bool) or not isinstance(stream, int) or stream < 0:
        raise TypeError(f"fuse: {what} has stream {stream!r} in its "
                        f"__cuda_array_interface__; expected None or a CUstream as an int")
    if stream == 0:
        # The interface forbids 0: it could be the legacy or the per-thread
        # default stream.
        raise TypeError(f"fuse: {what} has stream 0 in its __cuda_array_interface__, which "
                        f"the interface does not allow (ambiguous); its producer should give "
                        f"None, 1 (legacy default stream) or 2 (per-thread default stream)")
    return stream


def _from_torch(torch, value, what):
    if value.requires_grad:
        raise TypeError(f"fuse: {what} is a torch.Tensor that requires grad; fuse does not "
                        f"record gradients: pass x.detach()")
    dtypes = {torch.float16: "f16", torch.bfloat16: "bf16", torch.float32: "f32",
              torch.float64: "f64", torch.int32: "i32", torch.int64: "i64", torch.bool: "i1"}
    dtype = dtypes.get(value.dtype)
    if dtype is None:
        raise TypeError(f"fuse: {what} has dtype {value.dtype}, which fuse does not support; "
                        f"supported dtypes are {_dtypes.SUPPORTED} (convert with .to(...))")
    _check_device(value.device.index, what, str(value.device))
    shape = tuple(value.shape)
    _check_rank(shape, what)
    if not value.is_contiguous():
        raise TypeError(f"fuse: {what} is not C-contiguous (strides {tuple(value.stride())} "
                        f"elements for shape {shape}); {_CONTIGUOUS_HINT}")
    # PyTorch enqueues its work on the device's current stream; 0 there is
    # the legacy default stream.
    stream = torch.cuda.current_stream(value.device).cuda_stream or STREAM_LEGACY
    return DeviceInput(value.data_ptr(), dtype, shape, stream, "torch", value)


def _from_interface(value, what):
    try:
        interface = value.__cuda_array_interface__
    except Exception as e:
        raise TypeError(f"fuse: {what} ({type(value).__name__}): reading its "
                        f"__cuda_array_interface__ failed: {e}") from None
    try:
        shape = tuple(int(d) for d in interface["shape"])
        typestr = interface["typestr"]
        data = interface["data"]
        ptr = int(data[0]) if data is not None and data[0] is not None else 0
    except (KeyError, TypeError, ValueError, IndexError) as e:
        raise TypeError(f"fuse: {what} ({type(value).__name__}) has a malformed "
                        f"__cuda_array_interface__ (needs shape, typestr and data=(pointer, "
                        f"readonly)): {e!r}") from None
    if interface.get("mask") is not None:
        raise TypeError(f"fuse: {what} is a masked GPU array; fuse reads plain arrays only")
    _check_rank(shape, what)
    try:
        np_dtype = np.dtype(typestr)
    except TypeError:
        np_dtype = None
    if np_dtype is None or np_dtype.kind == "V":
        raise TypeError(f"fuse: {what} has typestr {typestr!r}, which fuse cannot identify as "
                        f"one of its dtypes ({_dtypes.SUPPORTED_NUMPY}); a bfloat16 array "
                        f"reads as '<V2' through __cuda_array_interface__: pass it as a "
                        f"torch.Tensor, or convert it")
    if np_dtype.byteorder == ">":
        raise TypeError(f"fuse: {what} has typestr {typestr!r}: big-endian GPU data is not "
                        f"supported")
    dtype = _dtypes.from_numpy(np_dtype, what=what)
    strides = interface.get("strides")
    if strides is not None and not _c_contiguous(shape, strides, np_dtype.itemsize):
        raise TypeError(f"fuse: {what} is not C-contiguous (strides {tuple(strides)} bytes for "
                        f"shape {shape}); {_CONTIGUOUS_HINT}")
    stream = None
    if interface.get("version", 0) >= 3:
        stream = _stream_of(interface.get("stream"), what)
    kind = "cupy" if _module_of(value) == "cupy" else None
    if kind == "cupy":
        _check_device(getattr(getattr(value, "device", None), "id", None), what, "CuPy")
    return DeviceInput(ptr, dtype, shape, stream, kind, value)


def _has_interface(value):
    try:
        return hasattr(value, "__cuda_array_interface__")
    except Exception:
        # The property exists but failed (PyTorch refuses tensors that
        # require grad this way): _from_interface reports why.
        return True


def _dlpack_device(value):
    try:
        device = value.__dlpack_device__()
        return int(device[0]), int(device[1])
    except Exception:
        return None


def device_input(value, what):
    """A DeviceInput when `value` is a GPU array, None when it is not one
    (numpy arrays and scalars, host DLPack arrays, lists, Python scalars);
    TypeError when it is one fuse cannot read in place. `what` names the
    argument in messages ('argument 0')."""
    if isinstance(value, (np.ndarray, np.generic)):
        return None
    torch = _torch_tensor(value)
    if torch is not None:
        return _checked(_from_torch(torch, value, what), what) if value.is_cuda else None
    dlpack = _dlpack_device(value) if hasattr(value, "__dlpack_device__") else None
    if dlpack is not None and dlpack[0] not in (DLPACK_CPU, DLPACK_CUDA):
        raise TypeError(f"fuse: {what} is a DLPack array on device type {dlpack[0]}; fuse "
                        f"reads host memory (DLPack device type {DLPACK_CPU}) and CUDA device "
                        f"memory (type {DLPACK_CUDA})")
    if dlpack is not None and dlpack[0] == DLPACK_CUDA:
        _check_device(dlpack[1], what, "DLPack")
    if _has_interface(value):
        return _checked(_from_interface(value, what), what)
    if dlpack is not None and dlpack[0] == DLPACK_CUDA:
        return _checked(_from_dlpack(value, what), what)
    return None


def needs_alignment(dtype, shape):
    """Whether an array's data must be _capi.ALIGNMENT-aligned (the kernels
    load and store numbers that many bytes at a time, at addresses they
    assume aligned: fresh allocations are, views at an offset may not be):
    numbers, more than one of them (a single one is read as a scalar)."""
    return dtype != "i1" and int(np.prod(shape, dtype=np.int64)) > 1


def _checked(arg, what):
    alignment = _capi.ALIGNMENT
    if arg.data % alignment and needs_alignment(arg.dtype, arg.shape):
        raise TypeError(f"fuse: {what}'s data at {arg.data:#x} is not {alignment}-byte "
                        f"aligned (a view that starts at an offset, such as x[1:]?); fuse's "
                        f"kernels read {alignment} bytes at a time from aligned addresses and "
                        f"do not copy GPU arrays: pass a copy (x.clone() in PyTorch, x.copy() "
                        f"in CuPy)")
    return arg


#===------------------------------------------------------------------------===#
# DLPack capsules (dlpack.h), for CUDA producers without __cuda_array_interface__
#===------------------------------------------------------------------------===#

class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", _DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", _DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


class _DLManagedTensor(ctypes.Structure):
    _fields_ = [("dl_tensor", _DLTensor), ("manager_ctx", ctypes.c_void_p),
                ("deleter", ctypes.c_void_p)]


# (DLDataTypeCode, bits) -> fuse dtype.
_DLPACK_DTYPES = {(2, 16): "f16", (4, 16): "bf16", (2, 32): "f32", (2, 64): "f64",
                  (0, 32): "i32", (0, 64): "i64", (6, 8): "i1"}
_DLPACK_CODES = {0: "int", 1: "uint", 2: "float", 4: "bfloat", 5: "complex", 6: "bool"}
_CAPSULE_NAME = b"dltensor"


# Prototypes of their own, so that ctypes.pythonapi's are left as they are.
_capsule_is_valid = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.py_object, ctypes.c_char_p)(
    ("PyCapsule_IsValid", ctypes.pythonapi))
_capsule_pointer = ctypes.PYFUNCTYPE(ctypes.c_void_p, ctypes.py_object, ctypes.c_char_p)(
    ("PyCapsule_GetPointer", ctypes.pythonapi))


def _from_dlpack(value, what):
    """Reads the DLTensor of a CUDA producer's capsule, which is kept (not
    consumed: its destructor returns the tensor to the producer) until the
    run is over."""
    # Asks the producer to order its work before the legacy default stream,
    # which fuse then waits for.
    try:
        try:
            capsule = value.__dlpack__(stream=STREAM_LEGACY)
        except TypeError:
            # A producer older than the stream argument.
            capsule = value.__dlpack__()
    except Exception as e:
        raise TypeError(f"fuse: {what} ({type(value).__name__}): its __dlpack__ failed: "
                        f"{e}") from None
    if not _capsule_is_valid(capsule, _CAPSULE_NAME):
        raise TypeError(f"fuse: {what} ({type(value).__name__}): __dlpack__ did not return a "
                        f"'dltensor' capsule")
    managed = _DLManagedTensor.from_address(_capsule_pointer(capsule, _CAPSULE_NAME))
    tensor = managed.dl_tensor
    if tensor.device.device_type != DLPACK_CUDA:
        raise TypeError(f"fuse: {what}: its DLPack capsule is on device type "
                        f"{tensor.device.device_type}, not CUDA")
    _check_device(tensor.device.device_id, what, "DLPack")
    shape = tuple(tensor.shape[d] for d in range(tensor.ndim))
    _check_rank(shape, what)
    code, bits, lanes = tensor.dtype.code, tensor.dtype.bits, tensor.dtype.lanes
    dtype = _DLPACK_DTYPES.get((code, bits)) if lanes == 1 else None
    if dtype is None:
        name = f"{_DLPACK_CODES.get(code, f'code {code}')}{bits}" + (
            f"x{lanes}" if lanes != 1 else "")
        raise TypeError(f"fuse: {what} has DLPack dtype {name}, which fuse does not support; "
                        f"supported dtypes are {_dtypes.SUPPORTED}")
    if tensor.strides:
        strides = tuple(tensor.strides[d] for d in range(tensor.ndim))
        if not _c_contiguous(shape, strides, 1):
            raise TypeError(f"fuse: {what} is not C-contiguous (strides {strides} elements "
                            f"for shape {shape}); {_CONTIGUOUS_HINT}")
    data = (tensor.data or 0) + tensor.byte_offset
    return DeviceInput(data, dtype, shape, STREAM_LEGACY, None, value, keep=capsule)


#===------------------------------------------------------------------------===#
# Results
#===------------------------------------------------------------------------===#

_TYPESTRS = {"f16": "<f2", "bf16": "<V2", "f32": "<f4", "f64": "<f8", "i32": "<i4",
             "i64": "<i8", "i1": "|b1"}


def _free_device(lib, lock, ptr):
    with lock:
        lib.fuse_free_device(ptr)


class DeviceArray:
    """A result of a run on GPU arrays: row-major data in device 0's memory,
    owned by fuse and freed when this object is garbage-collected (arrays
    made from it, such as `torch.as_tensor(x, device='cuda')` or
    `cupy.asarray(x)`, keep it alive).

    It exposes `__cuda_array_interface__` (version 3, no stream: the run is
    over when fuse returns), so PyTorch, CuPy and Numba wrap it without a
    copy; `shape` and `dtype` (a numpy dtype, or 'bfloat16')."""

    __slots__ = ("_ptr", "_dtype", "_shape", "_finalizer", "__weakref__")

    def __init__(self, lib, ptr, dtype, shape):
        self._ptr = ptr
        self._dtype = dtype
        self._shape = tuple(shape)
        self._finalizer = weakref.finalize(self, _free_device, lib, _capi.run_lock, ptr) \
            if ptr else None

    @property
    def shape(self):
        return self._shape

    @property
    def ndim(self):
        return len(self._shape)

    @property
    def dtype(self):
        return _dtypes.public(self._dtype)

    @property
    def __cuda_array_interface__(self):
        return {"shape": self._shape, "typestr": _TYPESTRS[self._dtype],
                "data": (self._ptr, False), "strides": None, "version": 3, "stream": None}

    def __repr__(self):
        return (f"<fuse.DeviceArray {self.dtype} {self._shape} on cuda:0 at "
                f"{self._ptr:#x}>")


class _Bfloat16AsInt16:
    """A DeviceArray's bfloat16 data seen as int16, for torch (which cannot
    read '<V2'); it keeps the array alive."""

    def __init__(self, array):
        self.array = array
        self.__cuda_array_interface__ = dict(array.__cuda_array_interface__, typestr="<i2")


def as_kind(results, first):
    """The results as arrays of the same kind as `first`, the first GPU
    argument: torch.Tensors, CuPy arrays, or the DeviceArrays themselves.
    They are wrapped, not copied."""
    if first.kind == "torch":
        torch = sys.modules["torch"]
        out = []
        for r in results:
            if r._dtype == "bf16":
                out.append(torch.as_tensor(_Bfloat16AsInt16(r), device=first.value.device)
                           .view(torch.bfloat16))
            else:
                out.append(torch.as_tensor(r, device=first.value.device))
        return out
    if first.kind == "cupy":
        cupy = sys.modules["cupy"]
        for r in results:
            if r._dtype == "bf16":
                raise TypeError("fuse: a result is bfloat16, which CuPy cannot hold; cast it "
                                "(fuse.cast(x, 'float32')) before returning it")
        return [cupy.asarray(r) for r in results]
    return results
