"""GPU arrays: the reading of DLPack capsules, and DeviceArray, the results
of a run on GPU arrays.

A GPU array is read by pointer and passed to fuse_run_device, which runs the
program (compiled for the cuda target) on it with no host copies; its results
stay in device memory. fuse uses device 0's primary context, as PyTorch and
CuPy do, so the pointers of their arrays on device 0 are valid in it.

Which arguments are GPU arrays, and whether fuse can read them in place, is
decided with the other arguments' checks in _arguments.py (device_input).
"""

import ctypes
import sys
import weakref

from . import _capi, _dtypes

# DLPack device types (dlpack.h DLDeviceType).
DLPACK_CPU = 1
DLPACK_CUDA = 2
# The CUstream handle of the legacy default stream, valid in any context.
STREAM_LEGACY = 1


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


_CAPSULE_NAME = b"dltensor"


# Prototypes of their own, so that ctypes.pythonapi's are left as they are.
_capsule_is_valid = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.py_object, ctypes.c_char_p)(
    ("PyCapsule_IsValid", ctypes.pythonapi))
_capsule_pointer = ctypes.PYFUNCTYPE(ctypes.c_void_p, ctypes.py_object, ctypes.c_char_p)(
    ("PyCapsule_GetPointer", ctypes.pythonapi))


def capsule_tensor(capsule):
    """The DLTensor of a 'dltensor' capsule, or None when `capsule` is not
    one. The capsule is not consumed (its destructor returns the tensor to
    its producer): it must outlive the DLTensor's use."""
    if not _capsule_is_valid(capsule, _CAPSULE_NAME):
        return None
    return _DLManagedTensor.from_address(_capsule_pointer(capsule, _CAPSULE_NAME)).dl_tensor


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

    __slots__ = ("_ptr", "_dtype", "_shape", "_finalizer", "_owner", "__weakref__")

    def __init__(self, lib, ptr, dtype, shape, owner=None):
        self._ptr = ptr
        self._dtype = dtype
        self._shape = tuple(shape)
        # A run's result: `owner` (the run's _Result of it) frees it, made
        # before the run; else freed by this object's finalizer.
        self._owner = owner
        self._finalizer = weakref.finalize(self, _free_device, lib, _capi.library_lock, ptr) \
            if ptr and owner is None else None

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

    def __copy__(self):
        # A copy of the handle shares the memory: the same object, whose
        # life keeps it (a copy of the fields was left with freed memory).
        return self

    def __deepcopy__(self, memo):
        raise TypeError("fuse: a DeviceArray cannot be deep-copied: it owns GPU memory, which "
                        "Python's copy cannot duplicate; copy it on the GPU with "
                        "torch.as_tensor(x, device='cuda').clone() or cupy.array(x)")

    def __reduce__(self):
        raise TypeError("fuse: a DeviceArray cannot be pickled: it is a pointer to GPU memory "
                        "of this process; copy it to the host first")

    def __array__(self, dtype=None, copy=None):
        # numpy made a 0-d object array of it, silently.
        raise TypeError("fuse: a DeviceArray is in GPU memory, which numpy cannot read: copy "
                        "it to the host with cupy.asnumpy(x) or torch.as_tensor(x, "
                        "device='cuda').cpu().numpy()")


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
