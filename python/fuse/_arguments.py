"""The arguments of a call: the one home of every decision about how what a
caller passes to a compiled Program or a jitted function becomes what the C
API receives.

A host array (a numpy array, or anything numpy reads as one) is checked and,
where the kernels need it, converted or copied (prepare_argument, prepare); a
GPU array is recognized and checked to be read in place (device_input, which
makes a DeviceInput); the arrays of one call are all host arrays or all GPU
arrays (check_one_side); a Program's arguments (program_arguments) and its
`out=` arrays (check_out) are checked against its signature; and a jitted
function's arguments are classified as arrays, run-time Python scalars and
constants of its trace (jit_arguments), whose Python scalars then take the
types the trace gives them (jit_inputs).

The C structs are _capi's, and the reading of a DLPack capsule (its ctypes
structs) is _device's; Program (_program.py) and fuse.jit (_jit.py) call the
functions here.
"""

import array
import contextlib
import numbers
import sys
import threading
import time

import numpy as np

from . import _capi, _device, _dtypes, _trace
from ._device import DLPACK_CPU, DLPACK_CUDA, STREAM_LEGACY

_INT64 = np.iinfo(np.int64)
_INT32 = np.iinfo(np.int32)


#===------------------------------------------------------------------------===#
# Host arrays
#===------------------------------------------------------------------------===#

def check_host_array(value, what):
    """`value` (not a GPU array: see device_input) as a numpy array the C API
    can read, or TypeError; `what` names it in messages ('argument 0')."""
    if isinstance(value, np.ma.MaskedArray):
        # Its data would be read with the masked elements as they are.
        raise TypeError(f"fuse: {what} is a numpy masked array; fuse reads plain "
                        f"arrays only, and would ignore its mask: pass x.filled(value) to "
                        f"replace the masked elements, or x.data to use them as they are")
    if isinstance(value, np.matrix):
        # Its operators are a matrix's (* is the matrix product), which the
        # traced code would compute elementwise.
        raise TypeError(f"fuse: {what} is an np.matrix, whose * is the matrix product; "
                        f"fuse computes elementwise on plain arrays: pass np.asarray(m)")
    if isinstance(value, np.ndarray):
        return value
    if isinstance(value, np.generic):
        return np.asarray(value)
    torch = _torch_tensor(value)
    if torch is not None:
        # A tensor on the CPU, read as numpy reads it (torch's own errors
        # for these two name .numpy(), which the caller did not call), once
        # fuse's checks have said what is wrong in torch's terms (numpy's
        # error for a rank past its own limit was "not an array").
        if value.requires_grad:
            _refuse_grad(what)
        if value.dtype == torch.bfloat16:
            raise TypeError(f"fuse: {what} is a torch.bfloat16 tensor on the CPU, "
                            f"and fuse reads host arrays through numpy, which has no "
                            f"bfloat16: pass x.float() and fuse.cast it to bfloat16 in the "
                            f"program, or a tensor on the GPU")
        _torch_dtype(value, what, _dtypes.SUPPORTED_NUMPY)
        _check_rank(tuple(value.shape), what)
    if hasattr(value, "__dlpack__") and not hasattr(value, "__array__"):
        # A host DLPack producer without the array interface.
        try:
            return np.from_dlpack(value)
        except Exception as e:
            raise TypeError(f"fuse: {what} ({type(value).__name__}) could not be "
                            f"read through DLPack: {e}") from None
    try:
        return np.asarray(value)
    except Exception as e:
        raise TypeError(f"fuse: {what} ({type(value).__name__}) is not an "
                        f"array: {e}") from None


def needs_alignment(dtype, shape):
    """Whether an array's data must be _capi.ALIGNMENT-aligned (the kernels
    load and store numbers that many bytes at a time, at addresses they
    assume aligned: fresh allocations are, views at an offset may not be):
    numbers, more than one of them (a single one is read as a scalar)."""
    return dtype != "i1" and int(np.prod(shape, dtype=np.int64)) > 1


def other_bool_bytes(array):
    """Whether bool `array` has bytes other than 0 and 1 (a view of other
    bytes, np.frombuffer), which numpy reads as True and a kernel, reading a
    bool's lowest bit, would not."""
    return array.size and array.view(np.uint8).max() > 1


# The side of the tiles that c_order copies a large transposed matrix in.
_TILE = 128


def c_order(array):
    """A C-contiguous copy of `array`. A large matrix in Fortran order (a
    reduction's x.T, which is not read in place) is copied in tiles: numpy's
    copy went down its columns, a page apart, 28 ms for 2048 x 2048 f32
    (5 ms in tiles of 128 x 128)."""
    rows, columns = array.shape if array.ndim == 2 else (0, 0)
    if not array.flags.f_contiguous or min(rows, columns) < 4 * _TILE:
        return np.ascontiguousarray(array)
    copy = np.empty(array.shape, array.dtype)
    for i in range(0, rows, _TILE):
        for j in range(0, columns, _TILE):
            copy[i:i + _TILE, j:j + _TILE] = array[i:i + _TILE, j:j + _TILE]
    return copy


def address(array):
    """The address of a numpy array's data (not `.ctypes.data`, which
    imports a module: a call from a finalizer at shutdown would fail)."""
    return array.__array_interface__["data"][0]


# The copies that prepare() makes on this thread, while a profiled call
# records them (recorded_copies): rows of its profile.
_copies = threading.local()


@contextlib.contextmanager
def recorded_copies():
    """Within it, prepare() appends a profile row ({"name", "bytes", "ms"})
    for each copy it makes to the list it gives: `[argument 'x' copied: not
    C-contiguous]`, its bytes read and written."""
    rows = []
    previous = getattr(_copies, "rows", None)
    _copies.rows = rows
    try:
        yield rows
    finally:
        _copies.rows = previous


def prepare(array, what):
    """A C-contiguous, native-byte-order, aligned (_capi.ALIGNMENT) copy of
    `array` (named `what` in messages) when it is not one already, and its
    fuse dtype. A bool array whose bytes are not all 0 or 1 (a view of other
    bytes, np.frombuffer) is copied to 0 and 1, as numpy reads it: the
    kernels read a bool's lowest bit."""
    dtype = _dtypes.from_numpy(array.dtype, what=what)
    # (Timed only while a profiled call records its copies.)
    rows = getattr(_copies, "rows", None)
    given, started, why = array, time.perf_counter() if rows is not None else 0.0, []
    if dtype == "i1" and other_bool_bytes(array):
        array = np.asarray(array.view(np.uint8) != 0)
        why.append("bools of other bytes than 0 and 1")
    if not array.dtype.isnative:
        array = array.astype(array.dtype.newbyteorder("="))
        why.append("not in native byte order")
    if not array.flags.c_contiguous:
        array = c_order(array)
        why.append("not C-contiguous")
    if address(array) % _capi.ALIGNMENT and needs_alignment(dtype, array.shape):
        # A view at an offset (x[1:]): the library reads arrays in place.
        array = array.copy()
        why.append(f"not {_capi.ALIGNMENT}-byte aligned")
    if why and rows is not None:
        rows.append({"name": f"[{what} copied: {', '.join(why)}]",
                     "bytes": given.nbytes + array.nbytes,
                     "ms": (time.perf_counter() - started) * 1e3})
    return array, dtype


def prepare_argument(value, what):
    """(array, fuse dtype) of an array argument, named `what` in messages
    ('argument 0'): a DeviceInput for a GPU array (read in place), otherwise
    a numpy array from prepare()."""
    device = device_input(value, what)
    if device is not None:
        return device, device.dtype
    return prepare(check_host_array(value, what), what)


#===------------------------------------------------------------------------===#
# GPU arrays
#
# Recognized: PyTorch CUDA tensors (read through torch, which also gives the
# current stream and bfloat16), objects with `__cuda_array_interface__`
# (CuPy, Numba, ...; version 2 or 3) and DLPack producers on a CUDA device
# (through their `__cuda_array_interface__` when they have one, otherwise
# through the DLPack capsule, which _device reads).
#===------------------------------------------------------------------------===#

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


def _refuse_grad(what):
    raise TypeError(f"fuse: {what} is a torch.Tensor that requires grad; fuse does not "
                    f"record gradients: pass x.detach()")


def _torch_dtype(value, what, supported):
    """The fuse dtype of torch.Tensor `value`, or TypeError saying to convert
    it in torch's words (`supported`: the dtypes fuse takes there)."""
    dtype = _dtypes.from_torch(value.dtype)
    if dtype is None:
        raise TypeError(f"fuse: {what} has dtype {value.dtype}, which fuse does not support; "
                        f"supported dtypes are {supported} (convert with .to(...))")
    return dtype


def _from_torch(torch, value, what):
    if value.requires_grad:
        _refuse_grad(what)
    dtype = _torch_dtype(value, what, _dtypes.SUPPORTED)
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
    version = interface.get("version")
    if version not in (2, 3):
        raise TypeError(f"fuse: {what} ({type(value).__name__}) has "
                        + ("no version in its __cuda_array_interface__" if version is None
                           else f"__cuda_array_interface__ version {version!r}")
                        + "; fuse reads versions 2 and 3")
    if interface.get("mask") is not None:
        raise TypeError(f"fuse: {what} is a masked GPU array; fuse reads plain arrays only")
    _check_rank(shape, what)
    try:
        np_dtype = np.dtype(typestr)
    except TypeError:
        np_dtype = None
    if isinstance(value, _device.DeviceArray):
        # fuse's own result, bfloat16 ones too ('<V2' to others).
        return DeviceInput(ptr, value._dtype, shape, None, None, value)
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


# (DLDataTypeCode, bits) -> fuse dtype.
_DLPACK_DTYPES = {(2, 16): "f16", (4, 16): "bf16", (2, 32): "f32", (2, 64): "f64",
                  (0, 32): "i32", (0, 64): "i64", (6, 8): "i1"}
_DLPACK_CODES = {0: "int", 1: "uint", 2: "float", 4: "bfloat", 5: "complex", 6: "bool"}


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
    tensor = _device.capsule_tensor(capsule)
    if tensor is None:
        raise TypeError(f"fuse: {what} ({type(value).__name__}): __dlpack__ did not return a "
                        f"'dltensor' capsule")
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


def _checked(arg, what):
    # Every GPU array, bools and single numbers too: the library copies a
    # host array that is not aligned (needs_alignment), but refuses a GPU
    # one (it was its FuseError, not this TypeError naming the argument).
    alignment = _capi.ALIGNMENT
    if arg.data % alignment:
        raise TypeError(f"fuse: the data of {what} at {arg.data:#x} is not {alignment}-byte "
                        f"aligned (a view that starts at an offset, such as x[1:]?); fuse's "
                        f"kernels read {alignment} bytes at a time from aligned addresses and "
                        f"do not copy GPU arrays: pass a copy (x.clone() in PyTorch, x.copy() "
                        f"in CuPy)")
    return arg


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


def common_stream(inputs):
    """The CUstream that a run on GPU arrays (DeviceInputs) waits for: the one
    their producers wrote them on (0 when none of them gives one), or
    ValueError when they give several."""
    # The C API waits for one stream: the producers' work must be on it.
    streams = {i.stream for i in inputs if i.stream is not None}
    if len(streams) > 1:
        raise ValueError(f"fuse: the GPU arguments come from different streams "
                         f"({', '.join(hex(s) for s in sorted(streams))}); fuse waits for "
                         f"one: synchronize the others first, or use one stream")
    return streams.pop() if streams else 0


#===------------------------------------------------------------------------===#
# The arguments of one call
#===------------------------------------------------------------------------===#

def _type_name(value):
    module = type(value).__module__.split(".")[0]
    return type(value).__qualname__ if module == "builtins" else \
        f"{module}.{type(value).__qualname__}"


def check_one_side(arguments, program=False):
    """TypeError unless the arrays of one call are all in host memory or all
    on the GPU. `arguments`: (name, value, array from prepare_argument);
    `program`: a fuse.Program's call, which takes a Python scalar as a host
    array (a jitted function's is a constant beside GPU arrays)."""
    host = [(n, v, a) for n, v, a in arguments if not isinstance(a, DeviceInput)]
    gpu = [(n, v, a) for n, v, a in arguments if isinstance(a, DeviceInput)]
    if not host or not gpu:
        return
    (hn, hv, ha), (gn, gv, _) = host[0], gpu[0]
    hint = ""
    if ha.ndim == 0:
        hint = (" (a fuse.Program takes a Python scalar as a host array: pass a 0-d GPU "
                "array)" if program else " (pass a Python scalar, which goes with either)")
    raise TypeError(
        f"fuse: {hn} ({_type_name(hv)}) is in host memory but {gn} ({_type_name(gv)}) is on "
        f"the GPU; the arrays of one call must be all host (numpy) arrays or all GPU arrays: "
        f"move {hn} to the GPU{hint}, or {gn} to the host")


def _numbers_as(value, spec, i):
    """A Python number or a (nested) list of them (`value`, argument `i`)
    as an array of the dtype of input `spec`, when they are of its kind (a
    float for an integer input was truncated; ints for a float input and
    bools for any are of it) and in its range (2**40 became 0 for int32,
    1e300 inf for float32): else a TypeError or an OverflowError. A ragged
    list is left to prepare_argument, which says so."""
    dtype = _dtypes.to_numpy(spec.dtype)
    scalar = not isinstance(value, (list, tuple))
    if scalar:
        big = isinstance(value, int) and not isinstance(value, bool) and not _fits(value, _INT64)
        array = np.asarray(value, object if big else None)
    else:
        try:
            array = np.asarray(value)
        except ValueError:
            return value
        if array.size == 0:
            return array.astype(dtype)  # [] is float64 to numpy
    # Ints past int64: in the range of no integer input; floats for a float
    # one.
    huge = array.dtype == object and all(isinstance(v, int) for v in array.flat)
    kind = "ints" if huge else _KINDS.get(array.dtype.kind, "values")
    what = (f"argument {i} = {value!r}" if scalar else
            f"argument {i} (a {type(value).__name__} of {kind})")
    if huge:
        if np.issubdtype(dtype, np.integer):
            raise OverflowError(f"fuse: {what} does not fit {dtype.name}, the program's input "
                                f"{i} ({spec})")
        array = np.asarray([float(v) for v in array.flat]).reshape(array.shape)
    if array.dtype.kind not in "biuf" or not np.can_cast(array.dtype, dtype, "same_kind"):
        wanted = ("True or False" if dtype == np.bool_ else
                  "an int" if scalar else "ints")
        said = f"is {_ONE_OF_KIND[kind]}" if scalar else "is not of its kind"
        raise TypeError(f"fuse: {what} {said}, and the program's input {i} is {spec}: pass "
                        f"{wanted}")
    if np.issubdtype(dtype, np.integer) and array.dtype.kind in "iu":
        limits = np.iinfo(dtype)
        if array.min() < limits.min or array.max() > limits.max:
            raise OverflowError(f"fuse: {what} does not fit {dtype.name}, the program's input "
                                f"{i} ({spec})")
    with np.errstate(over="ignore"):
        converted = array.astype(dtype)
    if np.issubdtype(dtype, np.floating) and (np.isinf(converted) & np.isfinite(array)).any():
        largest = float(np.finfo(dtype).max)
        raise OverflowError(f"fuse: {what} does not fit {dtype.name} (its largest finite value "
                            f"is {largest:.8g}), the program's input {i} ({spec})")
    return converted


_KINDS = {"b": "bools", "i": "ints", "u": "ints", "f": "floats"}
_ONE_OF_KIND = {"bools": "a bool", "ints": "an int", "floats": "a float"}


def program_arguments(args, inputs):
    """(array, fuse dtype) of each argument of a Program's call, as
    prepare_argument makes them, for Program.run_prepared; `inputs`: the
    program's input TensorTypes."""
    if len(args) != len(inputs):
        raise TypeError(f"fuse: the program takes {len(inputs)} argument(s), "
                        f"{len(args)} given")
    arrays, named = [], []
    for i, (value, spec) in enumerate(zip(args, inputs)):
        array = value
        # A Python scalar, or a (nested) list of numbers, is an array of its
        # input's dtype (but bfloat16, which numpy cannot hold).
        if isinstance(value, (bool, int, float, list, tuple)) and spec.dtype != "bf16":
            array = _numbers_as(value, spec, i)
        arrays.append(prepare_argument(array, f"argument {i}"))
        if spec.dtype == "bf16" and arrays[-1][1] != "bf16":
            raise TypeError(f"fuse: argument {i} is {spec}, and numpy has no bfloat16: pass a "
                            f"torch.bfloat16 tensor on the GPU, or take float32 and "
                            f"fuse.cast it to bfloat16 in the program")
        named.append((f"argument {i}", value, arrays[-1][0]))
    check_one_side(named, program=True)
    return arrays


def check_out(out, results, function=None):
    """The caller's arrays for the results (`out=`) as a list with one entry
    per result (`results`: the program's result TensorTypes): a numpy array,
    or a tuple or list of them (None for a result without one). Each is
    C-contiguous, writeable and of the result's dtype; the library checks
    shapes and overlaps. `function`: the jitted function's name, which the
    errors start with (as the library's for the shapes do)."""
    head = f"fuse: {function}: " if function else "fuse: "
    many = isinstance(out, (tuple, list))
    arrays = list(out) if many else [out]
    # out=[0, 0, 0, 0]: numbers, where numpy's out= takes an array.
    if many and any(isinstance(a, (numbers.Number, list, tuple)) for a in arrays):
        raise TypeError(f"{head}out= is a {type(out).__name__} of numbers, not an array: "
                        f"out= is a numpy array that the result is written into, or a tuple "
                        f"of them (one per result; None for a result returned new): make it "
                        f"with np.empty(shape, dtype)")
    if len(arrays) != len(results):
        raise TypeError(f"{head}out= has {len(arrays)} array(s) for {len(results)} "
                        f"result(s): out= is a numpy array, or a tuple of them with one per "
                        f"result (None for a result returned new)")
    for i, (array, result) in enumerate(zip(arrays, results)):
        if array is None and many:
            continue
        # A subclass whose data is its elements (np.memmap) takes them as
        # numpy's out= does; a masked array or a matrix says more than that.
        if (not isinstance(array, np.ndarray)
                or isinstance(array, (np.ma.MaskedArray, np.matrix))):
            raise TypeError(f"{head}out= for result {i} is a {type(array).__name__}, not "
                            f"a numpy array (an np.memmap is one; a masked array or an "
                            f"np.matrix is not)")
        want = _dtypes.to_numpy(result.dtype)
        if array.dtype != want:
            raise TypeError(f"{head}out= for result {i} is {array.dtype}; the result is "
                            f"{want}: pass an array of {want}")
        # The kernels write the result in place, in C order.
        if not array.flags.writeable:
            raise TypeError(f"{head}out= for result {i} is read-only (its "
                            f"flags.writeable is False), and the kernels write the result "
                            f"into it: pass a writeable array")
        if not array.flags.c_contiguous:
            raise TypeError(f"{head}out= for result {i} is not C-contiguous (strides "
                            f"{array.strides} bytes for shape {array.shape}: a view with "
                            f"steps or in Fortran order), and the kernels write the result's "
                            f"elements in C order, one after another: pass a C-contiguous "
                            f"array, or assign the result to the view (view[...] = f(x))")
        if not array.dtype.isnative:
            raise TypeError(f"{head}out= for result {i} is not in native byte order "
                            f"({array.dtype.str}), and the kernels write native numbers: "
                            f"pass an array of {want}")
    return arrays


#===------------------------------------------------------------------------===#
# The arguments of a jitted function
#===------------------------------------------------------------------------===#

def _is_python_scalar(value):
    # np.float64 is a float too, but a numpy scalar is a 0-d array.
    return isinstance(value, (bool, int, float)) and not isinstance(value, np.generic)


def _is_array(value):
    if isinstance(value, (type, np.dtype, str)):
        # np.float16 (the type) has __array__.
        return False
    # What np.asarray reads: numpy's and Python's buffers (memoryview,
    # array.array) and numpy's array interfaces too.
    if isinstance(value, (np.ndarray, np.generic, list, tuple, memoryview, array.array)):
        return True
    try:
        return (hasattr(value, "__array__") or hasattr(value, "__array_interface__")
                or hasattr(value, "__array_struct__")
                or hasattr(value, "__cuda_array_interface__")
                or hasattr(value, "__dlpack__"))
    except Exception:
        # An array interface that fails when read (PyTorch's for a tensor
        # that requires grad): reading it again says why.
        return True


def _holds_arrays(sequence):
    """Whether a (nested) list or tuple holds arrays (not 0-d ones)."""
    stack = [sequence]
    while stack:
        for element in stack.pop():
            if isinstance(element, (list, tuple)):
                stack.append(element)
            elif (not _is_python_scalar(element) and not isinstance(element, np.generic)
                  and _is_array(element) and getattr(element, "ndim", None) != 0):
                return True
    return False


def _zero_d_read(sequence):
    """`sequence`, nested lists and tuples, as lists with each 0-d array-like
    in it (torch.tensor(1.0)) read on its own as a 0-d numpy array: numpy
    reading array-likes inside a list gave a FutureWarning (their reading
    there is to change). One that cannot be read (a CUDA tensor) is left as
    it is, for the list's reading to refuse."""
    if isinstance(sequence, (list, tuple)):
        return [_zero_d_read(e) for e in sequence]
    if (isinstance(sequence, (np.ndarray, np.generic)) or _is_python_scalar(sequence)
            or getattr(sequence, "ndim", None) != 0):
        return sequence
    try:
        return np.asarray(sequence)
    except Exception:
        return sequence


def _sequence_argument(value, index, name, function):
    """A list or tuple argument of the jitted function named `function` as
    numpy's array of it, when it holds numbers (nested lists of them, of one
    length at each level); TypeError when it holds arrays, which numpy would
    stack into one (the function, given a Tensor, could not iterate over
    them), or is ragged."""
    # The levels of lists, along the first elements: numpy's array of
    # numbers has as many axes, one of stacked arrays more.
    depth, first = 0, value
    while isinstance(first, (list, tuple)):
        depth += 1
        first = first[0] if len(first) else None
    try:
        array = np.asarray(_zero_d_read(value))
    except (TypeError, ValueError):
        array = None
    if array is not None and array.dtype != object and array.ndim == depth:
        return array
    kind = type(value).__name__
    what = f"fuse: argument {index} ({name!r}) of {function} is a {kind}"
    if (array is not None and array.dtype != object) or _holds_arrays(value):
        each = all(not isinstance(e, (list, tuple)) and _holds_arrays([e]) for e in value)
        raise TypeError(
            f"{what} {f'of {len(value)} arrays' if each else 'that holds arrays'}: a jitted function takes each array as its own argument (numpy would stack "
            f"the {kind} into one array, which the function could not iterate over); pass "
            f"them one by one, as f(*arrays) to a function with a *arrays parameter "
            f"(def {function}(*arrays): arrays is then a tuple of Tensors), or stack them "
            f"yourself (np.stack) to pass one array")
    if array is not None and array.ndim == depth and all(
            isinstance(e, int) for e in array.ravel()):
        # Python ints past int64, which numpy keeps as objects.
        raise OverflowError(f"{what} of ints that int64 does not hold (numpy makes it an "
                            f"array of Python objects); pass floats (2.0**70) or an array of "
                            f"a fuse dtype")
    raise TypeError(f"{what} that numpy cannot read as one array (a ragged {kind}, whose "
                    f"elements differ in length, or elements that are not numbers); pass an "
                    f"array, a {kind} of numbers, or each array as its own argument "
                    f"(f(*arrays))")


def jit_arguments(leaves, static_argnames, function):
    """What each argument of a call of the jitted function named `function`
    is, in call order (`leaves`: its (name, value) pairs), as (kind, array,
    fuse dtype): ("tensor", array, dtype) for an array (from
    prepare_argument); ("scalar", 0-d array, dtype) for a Python scalar,
    a run-time argument of its carrier dtype; ("const", None, None) for a
    value that the trace specializes on (a static argument, a Python scalar
    next to GPU arrays, any other value)."""
    # Arrays first: on GPU arrays, Python scalars are constants.
    kinds, named = [], []
    for index, (name, value) in enumerate(leaves):
        if name in static_argnames:
            kinds.append("const")
        elif _is_python_scalar(value):
            kinds.append("scalar")
        elif isinstance(value, complex):
            raise TypeError(f"fuse: argument {index} ({name!r}) of {function} is a "
                            f"complex, {value!r}, and fuse has no complex dtype; "
                            f"supported dtypes are {_dtypes.SUPPORTED_NUMPY}")
        elif isinstance(value, numbers.Number) and not _is_array(value):
            # Another kind of number (Fraction, Decimal): a constant of the
            # trace, it failed at the first op on it ("+: unsupported
            # operand Fraction"), where the argument was not named.
            raise TypeError(f"fuse: argument {index} ({name!r}) of {function} is a "
                            f"{type(value).__name__}, {value!r}, which fuse does not take "
                            f"(its numbers are bool, int and float, and arrays of "
                            f"{_dtypes.SUPPORTED_NUMPY}); pass float(x), or name the "
                            f"parameter in static_argnames to use the value as a constant "
                            f"of the trace")
        elif _is_array(value):
            if isinstance(value, (list, tuple)):
                value = _sequence_argument(value, index, name, function)
            # By its parameter, as the caller wrote it.
            what = f"argument {name!r}"
            array, dtype = prepare_argument(value, what)
            kinds.append((array, dtype))
            named.append((what, value, array))
        else:
            kinds.append("const")
    check_one_side(named)
    on_gpu = any(isinstance(a, DeviceInput) for _, _, a in named)
    arguments = []
    for (name, value), kind in zip(leaves, kinds):
        if kind == "scalar" and not on_gpu:
            dtype = _dtypes.carrier(value)
            # An int past int64 is checked once the trace gives it a dtype
            # (jit_inputs): a float one holds it.
            carried = 0 if dtype == "i64" and not _fits(value, _INT64) else value
            arguments.append(("scalar", np.asarray(carried, _dtypes.to_numpy(dtype)), dtype))
        elif isinstance(kind, tuple):
            arguments.append(("tensor", *kind))
        else:
            # Another object (a method's self, a static one) is keyed by
            # identity, hashable or not (a plain @dataclass, whose __eq__
            # makes it unhashable), held weakly where it can be (_Identity);
            # lists, dicts and sets by their values (_const_key). A static
            # array is refused: its values are what a constant would be,
            # which identity does not follow (numpy's is unhashable).
            if name in static_argnames and _is_array(value) and not isinstance(
                    value, (list, tuple, dict, set)):
                try:
                    hash(value)
                except TypeError:
                    raise TypeError(f"fuse: argument {name!r} of {function} is static "
                                    f"(static_argnames) but a {type(value).__name__}, "
                                    f"which is not hashable: a static argument is a "
                                    f"constant the trace specializes on (a number, a "
                                    f"string, a tuple, list or dict of them, a frozen "
                                    f"dataclass)") from None
            arguments.append(("const", None, None))
    return arguments


def jit_inputs(trace, arrays, function):
    """(array, fuse dtype) of each input of `trace` (a call of the jitted
    function named `function`), from its (array, fuse dtype, scalar) triples,
    scalar the Python scalar an input was made from (else None); Python
    scalars converted from their carrier dtype to the one the trace gives
    them, as fuse.cast converts (_cast_scalar)."""
    for i, (place, scalars_alone) in trace.int_exponent_inputs.items():
        value = arrays[i][2]
        if type(value) is int and value < 0:
            if scalars_alone:
                raise ValueError(_trace.scalar_power_message(
                    value, trace.input_names[i], function, place))
            raise ValueError(_trace.negative_power_message(value, place) +
                             f" (argument {trace.input_names[i]!r} of {function})")
    for i, (place, symbol) in trace.divisor_inputs.items():
        value = arrays[i][2]
        if value is not None and value == 0:
            raise ZeroDivisionError(
                f"fuse: argument {trace.input_names[i]!r} of {function} is {value!r}, the "
                f"divisor of {symbol}{place} on Python scalars alone, which computes as "
                f"Python would, and Python raises ZeroDivisionError (an array divided by 0 "
                f"gives inf or NaN for /, 0 for // and %, as numpy's)")
    for i in trace.int32_inputs:
        array, _, value = arrays[i]
        note = ""
        if value is None:
            # A numpy int64 scalar or 0-d array, which an op takes as int32
            # (as PyTorch takes a 0-d tensor): checked as a Python int is,
            # where it is in host memory (a GPU array's value is not read).
            if not isinstance(array, np.ndarray):
                continue
            value = int(array[()])
            note = (" (an int64 0-d array or numpy scalar takes an int32 tensor's type, as "
                    "PyTorch's 0-d tensors do: make the tensor wider first, "
                    "x.astype(np.int64))")
        if not _fits(value, _INT32):
            raise OverflowError(f"fuse: argument {trace.input_names[i]!r} = {_shown(value)} "
                                f"does not fit int32, the type that {function} gives it{note}")
    inputs = [(a, dtype) for a, dtype, _ in arrays]
    for i, (_, carrier, value) in enumerate(arrays):
        # An int past int64 (its carrier holds 0): a float holds it, as
        # numpy converts it (through a Python float).
        if carrier != "i64" or type(value) is not int or _fits(value, _INT64):
            continue
        dtype = trace.scalar_inputs.get(i, "i64")
        if not _dtypes.is_float(dtype):
            raise OverflowError(f"fuse: argument {trace.input_names[i]!r} = {_shown(value)} "
                                f"does not fit int64, the type that {function} gives it")
        try:
            inputs[i] = (np.asarray(float(value)), "f64")
        except OverflowError:
            raise OverflowError(f"fuse: argument {trace.input_names[i]!r} = {_shown(value)} "
                                f"does not fit float64, the widest float") from None
    for i, dtype in trace.scalar_inputs.items():
        inputs[i] = (_cast_scalar(inputs[i][0], dtype), dtype)
    return inputs


def _cast_scalar(value, dtype):
    """The 0-d array `value` as fuse.cast gives it in `dtype`
    (docs/dialect.md, "Casts"): a float to an integer truncated toward zero,
    saturating, NaN 0 (numpy's astype gives INT_MIN for all three on x86:
    fuse.cast(s, np.int32) of a scalar argument s gave another value than
    fuse.cast(s * 1.0, np.int32)); a float past a float type's range its
    infinity (x * 1e300 of a float16 x computes in float32), with no numpy
    warning from inside fuse."""
    target = np.dtype(_dtypes.to_numpy(dtype))
    if value.dtype.kind == "f" and target.kind in "iu":
        x, info = float(value), np.iinfo(target)
        whole = (0 if np.isnan(x) else info.max if x >= info.max
                 else info.min if x <= info.min else int(x))
        return np.asarray(whole, target)
    # A float within a float dtype's range has no warning to silence: the
    # context took 5 us, most of a short call with an optimizer's floats.
    if value.dtype.kind == "f" and abs(float(value)) <= _FLOAT_MAX.get(dtype, -1.0):
        return value.astype(target)
    with np.errstate(over="ignore", invalid="ignore"):
        return value.astype(target)


def float_input(value, dtype):
    """A Python float argument as the full path passes it to a program
    that takes it as `dtype` (_prepare's float64 carrier, then jit_inputs'
    _cast_scalar)."""
    return _cast_scalar(np.asarray(value, np.float64), dtype)


# The largest finite value of each float dtype numpy has (_cast_scalar).
_FLOAT_MAX = {d: float(np.finfo(t).max)
              for d, t in (("f16", np.float16), ("f32", np.float32), ("f64", np.float64))}


def _fits(value, info):
    return info.min <= value <= info.max


def _shown(value):
    """An int for a message: its digits, or past 20 of them its size."""
    text = str(value)
    return text if len(text) <= 20 else f"{text[:6]}... ({len(text.lstrip('-'))} digits)"


# Whether a size is 1 (the short path's key), as a fast callable.
_ONE = (1).__eq__


def fast_key(args):
    """The key of a jitted function's short path (its `_fast` cache), for
    positional arguments that are all numpy arrays the library reads as
    they are, or Python floats (float_input): (dtype, which sizes are 1) of
    each array, "float" for a float; else None. (An array not aligned for
    the kernels' vectors, a view at an offset, is copied by the library
    itself.) A bool array with bytes other than 0 and 1 is not read as it
    is: prepare() copies it."""
    key = []
    for a in args:
        if type(a) is float:
            # An optimizer step's learning rate and betas: its value is an
            # argument of the program, converted as the full path does.
            key.append("float")
            continue
        if (type(a) is not np.ndarray or not a.flags.c_contiguous
                or not a.dtype.isnative):
            return None
        if a.dtype == np.bool_ and other_bool_bytes(a):
            return None
        key.append((a.dtype.num, tuple(map(_ONE, a.shape))))
    return tuple(key)
