"""A compiled fuse program: compile MLIR text, run it on numpy arrays or GPU arrays."""

import _thread
import atexit
import collections
import ctypes
import gc
import json
import math
import os
import re
import threading
import warnings
import weakref

import numpy as np

from . import _arguments, _capi, _device, _dtypes, _trace


def _type_str(dtype, shape):
    dims = "".join(("?" if d < 0 else str(d)) + "x" for d in shape)
    return f"tensor<{dims}{dtype}>"


class TensorType:
    """A tensor type of a program's signature: `dtype` is fuse's element type
    name ('f32', 'i1', ...), `shape` has None for dynamic sizes."""

    def __init__(self, dtype, shape):
        self.dtype = dtype
        self.shape = tuple(shape)

    @property
    def rank(self):
        return len(self.shape)

    def __repr__(self):
        return _type_str(self.dtype, [-1 if d is None else d for d in self.shape])

    def __eq__(self, other):
        return isinstance(other, TensorType) and (self.dtype, self.shape) == (other.dtype, other.shape)

    def __hash__(self):
        return hash((self.dtype, self.shape))


def _interrupt_later():
    """Raises the KeyboardInterrupt (Ctrl-C) that a finalizer or a fork's
    hook caught again in the main thread, once they are over: Python prints
    and drops an exception of theirs, and one raised at once would be
    raised in them. (From a thread of its own, started without threading's
    locks, which the interrupted code may hold.)"""
    try:
        _thread.start_new_thread(_thread.interrupt_main, ())
    except RuntimeError:
        # At exit: no thread starts.
        pass


class _Result:
    """Owns one result's buffer: slot `index` of `results`, the C API's
    fuse_array structs that a run fills, freed with fuse_free_buffer (with
    fuse_free_device: `device`). Made before the run, so that each buffer
    the run returns has its owner whatever exception lands after the
    library returns (a Ctrl-C's KeyboardInterrupt, which Python raises
    right after the call): it is freed when its owner is garbage-collected.
    A numpy result's base is its owner (a DeviceArray holds its own), so the
    buffer lives as long as the result and every view of it, also after its
    program is gone. (Not a weakref.finalize: a thread that made results
    while the interpreter exited changed the finalizers' registry while
    the exit read it.)"""

    __slots__ = ("_lib", "_results", "_index", "_device", "__array_interface__")
    # Read from the class: __del__ may run once the module's globals are
    # cleared, at exit.
    _capi = _capi
    _interrupt_later = staticmethod(_interrupt_later)
    _device_results = None

    def __init__(self, lib, results, index, device=False):
        self._lib = lib
        self._results = results
        self._index = index
        self._device = device
        if device:
            _device_results[id(self)] = (lib, results, index)

    def __del__(self):
        # Not once the interpreter exits (`exiting` is None once its module
        # is cleared): the exit holds the library; it frees the GPU memory
        # of the results (_free_device_results), and the process's memory
        # goes with the process.
        if self._capi.exiting is not False:
            return
        # A KeyboardInterrupt (Ctrl-C) that lands in here is raised again
        # after it (Python prints and drops a finalizer's exception), from
        # every point where Python handles a signal but one: the function's
        # entry, before any try can catch it (Python checks for signals on
        # entering a function, and nothing written in Python runs before
        # that). One that lands there is dropped, and the buffer of a host
        # result is not freed (a GPU result's is, at exit).
        interrupted = False
        ptr, taken = None, False
        while True:
            try:
                if not taken:
                    # Again after an interrupt (pop is idempotent): one that
                    # landed right after the pop, outside the try, dropped
                    # the GPU buffer from those freed at exit unfreed.
                    if self._device:
                        self._device_results.pop(id(self), None)
                    # The slot is cleared before the buffer is freed, and the
                    # library frees it with no Python call between (where a
                    # signal's KeyboardInterrupt could be raised): an
                    # exception that lands after the call finds it freed,
                    # and none frees it twice.
                    slot = self._results[self._index]
                    ptr = slot.data
                    slot.data = None
                    taken = True
                while ptr:
                    # (Interrupted waiting for the library's lock: not freed
                    # yet, freed on the next try.)
                    with self._capi.library_lock:
                        ptr, freed = None, ptr
                        if self._device:
                            self._lib.fuse_free_device(freed)
                        else:
                            self._lib.fuse_free_buffer(freed)
                break
            except KeyboardInterrupt:
                interrupted = True
        if interrupted:
            self._interrupt_later()


# The owners of GPU results, by id: (lib, results, index) of each. The GPU
# memory of those alive at exit is freed then, before the CUDA runtime shuts
# down (read at once: a thread may make results meanwhile).
_device_results = _Result._device_results = {}


def _free_device_results():
    with _capi.library_lock:
        for lib, results, index in tuple(_device_results.values()):
            slot = results[index]
            ptr = slot.data
            slot.data = None
            if ptr:
                lib.fuse_free_device(ptr)


atexit.register(_free_device_results)


def _owned_array(owner, result):
    """A numpy array over the buffer of `result`, whose base is `owner` (its
    _Result), which frees the buffer when the array and every view of it
    are gone."""
    shape = tuple(result.shape[:result.rank])
    # Not bf16: run_prepared refuses those programs.
    dtype = _dtypes.to_numpy(_dtypes.from_enum(result.dtype))
    if not result.data or math.prod(shape) == 0:
        # (A result of no element has a buffer too: its owner frees it.)
        return np.empty(shape, dtype)
    owner.__array_interface__ = {"data": (result.data, False), "shape": shape,
                                 "typestr": dtype.str, "version": 3}
    return np.asarray(owner)


class _Handle:
    """A compiled program's handle in the library, and the lock its runs
    take one at a time; `value` is None once the program is destroyed, and
    `why` then says why."""

    __slots__ = ("value", "lock", "why")

    def __init__(self, value):
        self.value = value
        # An RLock for its _is_owned(): _destroy tells by it whether its own
        # thread holds the handle (a fork in progress, or an interrupted
        # attempt of its own). Runs do not nest.
        self.lock = threading.RLock()
        self.why = None
        _handles[id(self)] = self

    def held(self):
        """The handle, for a caller holding `lock`; FuseError once the
        program is destroyed (at exit, while another thread still calls it;
        or with its Program gone, for an object that shares its handle)."""
        if self.value is None:
            raise _capi.FuseError(f"the program was destroyed ({self.why}); it runs no more")
        return self.value


# The handles of the programs not destroyed, by id, whose locks a fork
# takes (read at once: not a WeakSet, whose iteration another thread's
# change breaks).
_handles = {}
# True while this process forks (its forking thread takes every handle's
# lock): a program's destruction that finds its handle taken then leaves
# it in _deferred for after the fork, rather than wait for it (the forking
# thread may be waiting for what the destroying thread holds: the library's
# lock, when a garbage collection in a compile destroys a program).
_forking = False
_deferred = []
_gc_was_enabled = True


def _take(handle):
    """Takes `handle`'s lock for _destroy (this thread may hold it already,
    from an attempt that a KeyboardInterrupt cut short), after the run in
    progress; False, without it, when a fork holds it."""
    lock = handle.lock
    while not lock._is_owned():
        if _forking and not _capi.exiting:
            return lock.acquire(blocking=False)
        lock.acquire(timeout=0.05)
    return True


def _destroy(lib, handle):
    # A Program's finalizer. After the run in progress, if any: at exit a
    # daemon thread may still be running the program, and its next call is
    # refused.
    why = ("the interpreter is exiting" if _capi.exiting else
           # Only the Program that compiled the handle owns it (copies of a
           # Program are the Program itself), so a call after its garbage
           # collection comes from an object made around the copy protocol.
           "the fuse.Program that compiled it was garbage-collected, and this "
           "object shares its handle without owning it; keep that Program, or "
           "compile the program again")
    deferred = None
    interrupted = False
    # A KeyboardInterrupt (Ctrl-C) that lands in here is raised again after
    # it (a finalizer's exception is printed and dropped), and the handle is
    # destroyed once: `value` is cleared with no Python call between it and
    # fuse_destroy. But at the function's entry (Python checks for signals
    # on entering a function, before any try), or in weakref.finalize's
    # code that calls it: dropped there, and the program is not destroyed.
    while handle.value is not None:
        try:
            if deferred is None:
                # This thread holds the handle already: it forks (a finalizer
                # run in the fork's hook), or runs an object that shares the
                # handle. Destroyed when that is over. (Taken once, before
                # _take takes the lock; in the try: an interrupt right after
                # the call dropped the program undestroyed.)
                deferred = handle.lock._is_owned()
            if deferred or not _take(handle):
                _deferred.append((lib, handle))
                break
            try:
                with _capi.library_lock:
                    handle.why = why
                    _handles.pop(id(handle), None)
                    value = handle.value
                    handle.value = None
                    if value is not None:
                        lib.fuse_destroy(value)
            finally:
                handle.lock.release()
        except KeyboardInterrupt:
            interrupted = True
    if interrupted:
        _interrupt_later()


def _destroy_deferred():
    """Destroys the programs whose destruction waited for a fork, or for a
    run on the destroying thread."""
    # (Those there now: one that this thread still holds goes back.)
    for _ in range(len(_deferred)):
        try:
            lib, handle = _deferred.pop(0)
        except IndexError:
            break
        _destroy(lib, handle)


def _hold_runs_for_fork():
    # A fork waits for each program's run in progress on another thread,
    # and lets none start until it is done: the child would have the
    # program's lock (and the library's lock of its runs, and its state half
    # run) held by a thread it does not have, and hang in its first call of
    # it. After a compile in progress (the hook of _jit, which runs first,
    # takes the programs' lock), and before the library (_capi's hook, which
    # runs last): a destruction holds its handle, then the library.
    global _forking, _gc_was_enabled
    _forking = True
    # No garbage collection on this thread (a program's finalizer) while it
    # holds handles.
    _gc_was_enabled = gc.isenabled()
    gc.disable()
    interrupted = False
    for handle in tuple(_handles.values()):
        while not handle.lock._is_owned():
            try:
                handle.lock.acquire()
            except KeyboardInterrupt:
                interrupted = True
    if interrupted:
        _interrupt_later()


def _release_runs_after_fork():
    global _forking
    for handle in tuple(_handles.values()):
        if handle.lock._is_owned():
            handle.lock.release()
    _forking = False
    if _gc_was_enabled:
        gc.enable()
    _destroy_deferred()


os.register_at_fork(before=_hold_runs_for_fork, after_in_parent=_release_runs_after_fork,
                    after_in_child=_release_runs_after_fork)


def _split_remarks(text):
    """The compiler's diagnostics, one per line, as a list of remarks, each
    with the notes that follow it on lines of its own. A remark said more
    than once (ops traced at one line of a loop) is kept once, its first
    line saying how many times."""
    remarks = []
    for line in text.splitlines():
        if remarks and re.match(r"(.*: )?note: ", line):
            remarks[-1] += "\n" + line
        elif line:
            remarks.append(line)
    counts = collections.Counter(remarks)
    unique = []
    for remark in dict.fromkeys(remarks):
        if counts[remark] > 1:
            first, newline, rest = remark.partition("\n")
            remark = f"{first} ({counts[remark]} times){newline}{rest}"
        unique.append(remark)
    return unique


_DIAGNOSTIC = re.compile(r"^(?P<file>.*):(?P<line>\d+):(?P<column>\d+): "
                         r"(?P<kind>remark|note): (?P<text>.*)$")


def _warn_remark(remark):
    """`remark` (a remark and its notes, on lines of their own) as a
    FusionRemark warning, on one line: `TEXT (producer is here: FILE:L:C)`.
    Python prints the source line of the warning's location under it: that
    of the remarked op, when it is a line of a Python file that exists (a
    traced function's), else the caller's. (A message of several lines put
    the caller's line right under the producer's note, as if it were the
    producer.)"""
    first, *notes = remark.split("\n")
    head = _DIAGNOSTIC.match(first)
    parts = [head.group("text") if head else first]
    for note in notes:
        found = _DIAGNOSTIC.match(note)
        parts.append(f"({found.group('text')}: {found.group('file')}:{found.group('line')}:"
                     f"{found.group('column')})" if found else f"({note})")
    message = " ".join(parts)
    if head and os.path.isfile(head.group("file")):
        warnings.warn_explicit(message, _capi.FusionRemark, head.group("file"),
                               int(head.group("line")))
    else:
        where = f"{head.group('file')}:{head.group('line')}:{head.group('column')}: " if head else ""
        warnings.warn(where + message, _capi.FusionRemark, stacklevel=_trace.user_frame()[1])


class Program:
    """One function of a fuse program, compiled for a target.

    >>> p = fuse.compile(open("examples/add_relu.mlir").read(), target="cpu")
    >>> (c,) = p(a, b)

    A Program does not change once compiled (what it says of itself is read
    when it compiles; its last run's profile is the library's), so
    `copy.copy` and `copy.deepcopy` give the Program itself, which owns the
    compiled code. `pickle` writes its text and how it was compiled (entry,
    target, fusion, options), and reading it compiles again.
    """

    def __init__(self, text, entry=None, target="auto", fusion=True, options=None):
        if target not in _capi.TARGETS:
            raise ValueError(f"fuse: target must be one of {', '.join(_capi.TARGETS)}, "
                             f"got {target!r}")
        if isinstance(text, (bytes, bytearray)):
            text = text.decode("utf-8")
        if not isinstance(text, str):
            raise TypeError(f"fuse: a program is MLIR text (str), not {type(text).__name__}")
        if entry is not None and not isinstance(entry, str):
            raise TypeError(f"fuse: entry must be a function's name (str) or None, got "
                            f"{type(entry).__name__} {entry!r}")
        self.text = text
        self.entry = entry
        self.fusion = _capi.switch(fusion)
        self.options = _capi.option_text(fusion, options)
        # The target asked for ('auto' too) and the options but fusion, to
        # compile the program again when it is unpickled.
        self._asked = (target, _capi.option_text(True, options) or None)
        self._lib = _capi.lib()
        if _deferred:
            _destroy_deferred()
        error = ctypes.c_void_p()
        # Compiling touches the library's shared state (LLVM, CUDA start-up).
        with _capi.library_lock:
            # fuse_compile clears an earlier compile's runtime error itself.
            handle = self._lib.fuse_compile(_capi.program_text(text), (entry or "").encode(),
                                            _capi.TARGETS[target],
                                            self.options.encode(), ctypes.byref(error))
        if not handle:
            _capi.check_error(error, "fuse_compile")
        # This program's runs one at a time (its last profile is one).
        self._handle = _Handle(handle)
        self._finalizer = weakref.finalize(self, _destroy, self._lib, self._handle)
        _capi.hold_at_exit()
        # From here on the exit may destroy the program (compiled on a
        # daemon thread): what it says of itself is read under its lock.
        with self._handle.lock:
            handle = self._handle.held()
            self.target = _capi.TARGET_NAMES.get(self._lib.fuse_program_target(handle), "?")
            note = self._lib.fuse_program_target_note(handle)
            self.target_note = note.decode("utf-8", "replace") if note else ""
            said = self._lib.fuse_program_remarks(handle)
            self.remarks = _split_remarks(said.decode("utf-8", "replace") if said else "")
            self.inputs = [self._type(handle, self._lib.fuse_input_type, i)
                           for i in range(self._lib.fuse_num_inputs(handle))]
            self.results = [self._type(handle, self._lib.fuse_result_type, i)
                            for i in range(self._lib.fuse_num_results(handle))]
        for remark in self.remarks:
            _warn_remark(remark)
        self._bf16_result = next((i for i, r in enumerate(self.results)
                                  if r.dtype == "bf16"), None)
        self._ran = False

    @staticmethod
    def _type(handle, getter, index):
        array = _capi.Array()
        getter(handle, index, ctypes.byref(array))
        shape = [array.shape[i] for i in range(array.rank)]
        return TensorType(_dtypes.from_enum(array.dtype),
                          [None if d < 0 else d for d in shape])

    def __repr__(self):
        ins = ", ".join(map(repr, self.inputs))
        outs = ", ".join(map(repr, self.results))
        return (f"<fuse.Program ({ins}) -> ({outs}) on {self.target}, "
                f"{'fused' if self.fusion else 'eager'}>")

    # A copy is the Program itself: one made field by field shared the
    # library's handle without owning it, and ran no more once the Program
    # that owns it was garbage-collected. A pickle is the text and how it
    # was compiled (a handle means nothing in another process), compiled
    # again when read.
    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        target, options = self._asked
        return (compile, (self.text, self.entry, target, self.fusion, options))

    def __call__(self, *args, out=None):
        """Runs the program; returns the list of results. out=: arrays for
        the results to be written into, as for a jitted function."""
        return self.run(args, out=out)

    def run(self, args, out=None):
        """Runs the program on `args`, the arguments as one sequence
        (`p.run([a, b])`; `p(a, b)` is the same); returns the list of
        results. out=: as for __call__."""
        if isinstance(args, np.ndarray) or not isinstance(args, (list, tuple)):
            raise TypeError(f"fuse: Program.run takes the arguments as one list or tuple, "
                            f"as in p.run([a, b]) (or call p(a, b)), not "
                            f"{type(args).__name__}")
        # A call that raises has no profile (last_profile is None).
        self._ran = False
        arrays = _arguments.program_arguments(args, self.inputs)
        return self.run_prepared(arrays, None if out is None else self.check_out(out))

    def run_prepared(self, arrays, out=None, function=None):
        """Runs on (array, fuse dtype) pairs from
        _arguments.prepare_argument(), all of them numpy arrays (results are
        numpy arrays) or all GPU arrays (results are arrays of the first
        one's kind). `out`: None, or one numpy array (or None) per result for
        the results to be written into (see check_out); those arrays are the
        results returned. `function`: a jitted function's name, for the
        errors."""
        if arrays and isinstance(arrays[0][0], _arguments.DeviceInput):
            if out is not None:
                raise TypeError(f"fuse: {function + ': ' if function else ''}out= takes numpy "
                                f"arrays, for numpy inputs; GPU arrays get new GPU arrays as "
                                f"results")
            inputs = [a for a, _ in arrays]
            return _device.as_kind(self._run_device(inputs), inputs[0])
        if self._bf16_result is not None:
            raise TypeError(f"fuse: result {self._bf16_result} is bfloat16, which numpy "
                            f"cannot hold; cast it (fuse.cast(x, 'float32')) before returning "
                            f"it, or pass torch.Tensors on the GPU, which get a bfloat16 tensor")
        inputs = self._c_arrays([(_arguments.address(a), dtype, a.shape) for a, dtype in arrays])
        results = (_capi.Array * max(len(self.results), 1))()
        error = ctypes.c_void_p()
        # No out=: no output arrays (the C API's fuse_run is fuse_run_into
        # with none).
        outs = None
        if out is not None:
            outs = self._c_arrays([(0, r.dtype, ()) if o is None else
                                   (_arguments.address(o), r.dtype, o.shape)
                                   for o, r in zip(out, self.results)])
        # Each buffer's owner before the run (a result written into out= is
        # the caller's array): an exception after the run frees them.
        owners = [_Result(self._lib, results, i) if out is None or out[i] is None else None
                  for i in range(len(self.results))]
        try:
            with self._handle.lock:
                self._ran = False
                status = self._lib.fuse_run_into(self._handle.held(), inputs, len(arrays), outs,
                                                 0 if out is None else len(out), results,
                                                 ctypes.byref(error))
                if status != 0:
                    _capi.check_error(error, "fuse_run")
                self._ran = True
            return [o if owner is None else _owned_array(owner, results[i])
                    for i, (o, owner) in enumerate(zip(out or owners, owners))]
        except BaseException:
            # Freed now, not with the traceback that holds this frame.
            del owners
            raise

    def check_out(self, out, function=None):
        """The caller's arrays for the results (`out=`), one per result, or
        TypeError (see _arguments.check_out; `function`: a jitted function's
        name, for the errors)."""
        return _arguments.check_out(out, self.results, function)

    @staticmethod
    def _c_arrays(arrays):
        """fuse_array structs of (pointer, fuse dtype, shape) triples."""
        inputs = (_capi.Array * max(len(arrays), 1))()
        for index, (slot, (data, dtype, shape)) in enumerate(zip(inputs, arrays)):
            # Checked here, where the library is loaded: tracing does not
            # need it.
            if len(shape) > _capi.MAX_RANK:
                raise TypeError(f"fuse: argument {index} has rank {len(shape)}; fuse takes "
                                f"at most rank {_capi.MAX_RANK}")
            slot.data = data
            slot.dtype = _dtypes.enum_of(dtype)
            slot.rank = len(shape)
            slot.shape[:len(shape)] = shape
        return inputs

    @property
    def last_profile(self):
        """The kernels of the last run, [{"name", "bytes", "ms"}...] (None
        before the first, and after a call that raised), as the library
        recorded it."""
        if not self._ran:
            return None
        with self._handle.lock:
            profile = self._lib.fuse_last_profile_json(self._handle.held())
        return json.loads(_capi.take_string(profile)) if profile else None

    def _run_device(self, inputs):
        """Runs on GPU arrays (DeviceInputs) in place; DeviceArray results."""
        if self.target != "cuda":
            why = f": {self.target_note}" if self.target_note else ""
            raise TypeError(f"fuse: GPU arrays need a program compiled for the cuda target, "
                            f"and this one runs on the {self.target}{why}; compile with "
                            f"target='cuda' (or 'auto' on a machine with a usable GPU), or pass "
                            f"numpy arrays")
        stream = _arguments.common_stream(inputs)
        c_inputs = self._c_arrays([(i.data, i.dtype, i.shape) for i in inputs])
        results = (_capi.Array * max(len(self.results), 1))()
        error = ctypes.c_void_p()
        # Each buffer's owner before the run, as run_prepared's.
        owners = [_Result(self._lib, results, i, device=True)
                  for i in range(len(self.results))]
        try:
            with self._handle.lock:
                self._ran = False
                status = self._lib.fuse_run_device(self._handle.held(), c_inputs, len(inputs),
                                                   stream, results, ctypes.byref(error))
                if status != 0:
                    _capi.check_error(error, "fuse_run_device")
                self._ran = True
            return [_device.DeviceArray(self._lib, results[i].data,
                                        _dtypes.from_enum(results[i].dtype),
                                        [results[i].shape[d] for d in range(results[i].rank)],
                                        owner=owner)
                    for i, owner in enumerate(owners)]
        except BaseException:
            del owners
            raise


def compile(text, entry=None, target="auto", fusion=True, options=None):
    """Compiles function `entry` (None: the only public one) of the fuse
    program `text` for `target` ('cpu', 'cuda' or 'auto'), fused or eager,
    with the compiler's `options` (the `fuse-lower` pipeline's: a text such
    as "block-size=128 opt-level=3" or a dict {"block_size": 128}; see
    docs/passes.md). Raises FuseError with the library's diagnostics if it
    does not compile or an option is unknown or bad."""
    return Program(text, entry=entry, target=target, fusion=fusion, options=options)
