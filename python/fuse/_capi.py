"""ctypes bindings of the C API (include/fuse-c/Fuse.h).

The library is loaded on first use, so that tracing (`fn.mlir`) works
without it. It is looked for, in order, in `$FUSE_LIB_DIR`, in `build/lib`
of the source tree that holds this package (used from python/), and in the
package's `_lib/` folder (an installed package: the build stages it in
build/python with the library there).
"""

import atexit
import ctypes
import functools
import json
import os
import re
import threading

import numpy as np

from . import _dtypes

LIBRARY_NAME = "libfuse_capi.so"

TARGETS = {"cpu": 0, "cuda": 1, "auto": 2}
TARGET_NAMES = {code: name for name, code in TARGETS.items()}


class FuseError(RuntimeError):
    """An error reported by the fuse library: a program that does not parse
    or verify, a compile failure, or a failed run (e.g. sizes that
    broadcasting assumed equal). The message is the library's, with its
    source locations."""


class FusionRemark(UserWarning):
    """A compiler remark, issued as a warning when a program is compiled with
    the `remarks` option: a producer/consumer pair left unfused, and why,
    at the consumer's source location (with a note at the producer's)."""


class LibraryNotFoundError(ImportError):
    """libfuse_capi.so was not found where the package looks for it."""


@functools.lru_cache(maxsize=None)
def _array_type(max_rank):
    """The C API's fuse_array, whose shape has room for FUSE_MAX_RANK sizes."""
    class Array(ctypes.Structure):
        _fields_ = [
            ("data", ctypes.c_void_p),
            ("dtype", ctypes.c_int32),
            ("rank", ctypes.c_int32),
            ("shape", ctypes.c_int64 * max_rank),
        ]
    return Array


def __getattr__(name):
    # MAX_RANK (the C API's FUSE_MAX_RANK), Array, whose layout depends on
    # it, and ALIGNMENT (fuse_alignment: the byte alignment the kernels assume
    # of the data of arrays of more than one number) come from the library:
    # they are defined when it is loaded.
    if name in ("MAX_RANK", "Array", "ALIGNMENT"):
        lib()
        return globals()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def candidate_dirs():
    """The folders searched for the library, in order."""
    here = os.path.dirname(os.path.abspath(__file__))
    dirs = []
    if os.environ.get("FUSE_LIB_DIR"):
        dirs.append(os.environ["FUSE_LIB_DIR"])
    # <repo>/python/fuse -> <repo>/build/lib
    dirs.append(os.path.join(os.path.dirname(os.path.dirname(here)), "build", "lib"))
    dirs.append(os.path.join(here, "_lib"))
    return dirs


_lib = None
_lib_lock = threading.Lock()
# The runtime keeps each thread's run apart (its error, its records, its
# stream), so runs of different programs go at once; a program's runs, and
# the reads of its last run's profile, are serialized on the program's own
# lock. What changes the library's shared state is serialized here:
# compiling (LLVM, the CUDA driver's start-up, loading kernels), destroying
# a program, freeing result buffers.
library_lock = threading.RLock()


def _hold_at_exit():
    # At exit, wait for a compile in progress on another (daemon) thread and
    # let none start after it: the exit destroys LLVM's static state, which a
    # compile still running would use (a crash), and a program compiled
    # after the programs' destruction would be run on. Never released: the
    # main thread, which holds it, still takes it to destroy them.
    library_lock.acquire()


_holds_at_exit = False


def hold_at_exit():
    """Makes the exit take the library first (_hold_at_exit): called after a
    program's weakref.finalize is made, so that it runs before the
    finalizers do (atexit runs the last registered first)."""
    global _holds_at_exit
    if not _holds_at_exit:
        _holds_at_exit = True
        atexit.register(_hold_at_exit)


def _hold_for_fork():
    # A fork waits for what holds these locks on another thread (a compile,
    # the library's loading): the child would have them held by a thread it
    # does not have, and hang in its first compile. (The library's own lock
    # does the same for its C callers.)
    library_lock.acquire()
    _lib_lock.acquire()


def _release_after_fork():
    _lib_lock.release()
    library_lock.release()


os.register_at_fork(before=_hold_for_fork, after_in_parent=_release_after_fork,
                    after_in_child=_release_after_fork)


def _declare(lib, Array):
    c_char_pp = ctypes.POINTER(ctypes.c_void_p)
    prog = ctypes.c_void_p
    sigs = {
        "fuse_max_rank": (ctypes.c_int32, []),
        "fuse_alignment": (ctypes.c_int32, []),
        "fuse_dtype_spelling": (ctypes.c_char_p, [ctypes.c_int32]),
        "fuse_compile": (prog, [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int32,
                                ctypes.c_char_p, c_char_pp]),
        "fuse_destroy": (None, [prog]),
        "fuse_program_target": (ctypes.c_int32, [prog]),
        "fuse_program_target_note": (ctypes.c_char_p, [prog]),
        "fuse_program_remarks": (ctypes.c_char_p, [prog]),
        "fuse_num_inputs": (ctypes.c_int32, [prog]),
        "fuse_num_results": (ctypes.c_int32, [prog]),
        "fuse_input_type": (None, [prog, ctypes.c_int32, ctypes.POINTER(Array)]),
        "fuse_result_type": (None, [prog, ctypes.c_int32, ctypes.POINTER(Array)]),
        "fuse_run": (ctypes.c_int32, [prog, ctypes.POINTER(Array), ctypes.c_int32,
                                      ctypes.POINTER(Array), c_char_pp]),
        "fuse_run_into": (ctypes.c_int32, [prog, ctypes.POINTER(Array), ctypes.c_int32,
                                           ctypes.POINTER(Array), ctypes.c_int32,
                                           ctypes.POINTER(Array), c_char_pp]),
        "fuse_run_device": (ctypes.c_int32, [prog, ctypes.POINTER(Array), ctypes.c_int32,
                                             ctypes.c_uint64, ctypes.POINTER(Array),
                                             c_char_pp]),
        "fuse_free_device": (None, [ctypes.c_void_p]),
        # Owned strings come back as void pointers so that they can be freed.
        "fuse_last_profile_json": (ctypes.c_void_p, [prog]),
        "fuse_report_json": (ctypes.c_void_p, [ctypes.c_char_p, c_char_pp]),
        "fuse_report_text": (ctypes.c_void_p, [ctypes.c_char_p, c_char_pp]),
        "fuse_report_dot": (ctypes.c_void_p, [ctypes.c_char_p, ctypes.c_char_p,
                                              c_char_pp]),
        "fuse_ptx": (ctypes.c_void_p, [ctypes.c_char_p, ctypes.c_char_p, c_char_pp]),
        "fuse_free_string": (None, [ctypes.c_void_p]),
        "fuse_free_buffer": (None, [ctypes.c_void_p]),
        "fuse_host_cache_bytes": (ctypes.c_size_t, []),
        "fuse_release_host_cache": (None, []),
    }
    for name, (restype, argtypes) in sigs.items():
        fn = getattr(lib, name)
        fn.restype = restype
        fn.argtypes = argtypes


def _preload_libgcc():
    # JIT-compiled code converts f64 to f16 with __truncdfhf2, which the JIT
    # looks up in the process's global symbols. fuse-run has libgcc_s there;
    # a Python process does not, and ctypes loads the library (and with it
    # libgcc_s) privately. Without this, casts to float16 fail to compile
    # ("Symbols not found: [ __truncdfhf2 ]").
    try:
        ctypes.CDLL("libgcc_s.so.1", mode=ctypes.RTLD_GLOBAL)
    except OSError:
        pass


def loaded():
    """The library if it is loaded, else None (nothing is loaded)."""
    return _lib


def lib():
    """The loaded library; LibraryNotFoundError says where it looked."""
    global _lib, MAX_RANK, Array, ALIGNMENT
    with _lib_lock:
        if _lib is None:
            _preload_libgcc()
            tried = []
            for folder in candidate_dirs():
                path = os.path.join(folder, LIBRARY_NAME)
                if not os.path.exists(path):
                    tried.append(f"  {path} (not found)")
                    continue
                try:
                    loaded = ctypes.CDLL(path)
                    loaded.fuse_max_rank.restype = ctypes.c_int32
                    max_rank = loaded.fuse_max_rank()
                    _declare(loaded, _array_type(max_rank))
                except (OSError, AttributeError) as e:
                    tried.append(f"  {path} ({e})")
                    continue
                spellings = []
                while (code := loaded.fuse_dtype_spelling(len(spellings))):
                    spellings.append(code.decode())
                _dtypes.check_codes(spellings)
                loaded.fuse_path = path
                MAX_RANK, Array = max_rank, _array_type(max_rank)
                ALIGNMENT = loaded.fuse_alignment()
                _lib = loaded
                break
            else:
                raise LibraryNotFoundError(
                    f"fuse: cannot load {LIBRARY_NAME}; looked in:\n" + "\n".join(tried) +
                    "\nBuild it (scripts/test or cmake --build build) and either install "
                    "the package with `pip install ./build/python` after the build, or set "
                    "FUSE_LIB_DIR to the folder that holds it.")
    return _lib


def library_path():
    """The path of the loaded library (loading it if needed)."""
    return lib().fuse_path


def take_string(ptr):
    """The text of an owned C string, freed."""
    if not ptr:
        return None
    try:
        return ctypes.string_at(ptr).decode("utf-8", "replace")
    finally:
        lib().fuse_free_string(ptr)


def check_error(error, what):
    """Raises FuseError with the message in `error` (a c_void_p set by the
    library), which it frees."""
    message = (take_string(error.value) or "").rstrip()
    raise FuseError(message or f"{what} failed (the library gave no message)")


def said_by(error, function):
    """FuseError `error` (the library's message) as the package's errors
    are said, for a jitted function's compile or run: `fuse: FUNCTION: `
    first. (fuse.compile's and a Program's carry the library's message as it
    is.)"""
    error.args = (f"fuse: {function}: {error}",) + error.args[1:]
    return error


def report_json(text):
    error = ctypes.c_void_p()
    ptr = lib().fuse_report_json(program_text(text), ctypes.byref(error))
    if not ptr:
        check_error(error, "fuse_report_json")
    return json.loads(take_string(ptr))


def program_text(text):
    """fuse MLIR text as the C API takes it, UTF-8 bytes; a NUL character,
    where the library would take the text to end, is a ValueError."""
    at = text.find("\0")
    if at >= 0:
        line = text.count("\n", 0, at) + 1
        column = at - text.rfind("\n", 0, at)
        raise ValueError(f"fuse: the program text has a NUL character at line {line}, column "
                         f"{column}; MLIR text has none (the library would read the text only "
                         f"up to it)")
    return text.encode()


def report_text(text):
    error = ctypes.c_void_p()
    ptr = lib().fuse_report_text(program_text(text), ctypes.byref(error))
    if not ptr:
        check_error(error, "fuse_report_text")
    return take_string(ptr)


def switch(value, name="fusion"):
    """`value` of the switch `name` (fusion, profile) as a bool: True or
    False (numpy's too), or the command line's words on, off, true or
    false."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, str) and value.lower() in ("on", "off", "true", "false"):
        return value.lower() in ("on", "true")
    raise ValueError(f"fuse: {name} must be True or False (or 'on', 'off'), not {value!r}")


def option_text(fusion=True, options=None):
    """The compiler's options as the C API takes them: the `fuse-lower`
    pipeline's text ("fusion=off block-size=128", docs/passes.md).
    `options` is that text, or a dict such as {"block_size": 128,
    "opt_level": 3} (a key's _ may be -; True/False are on/off); fusion=False
    adds fusion=off, and only it may say so. An unknown or bad option is the
    library's error."""
    parts = [] if switch(fusion) else ["fusion=off"]
    if options is None:
        pass
    elif isinstance(options, str):
        if re.search(r"(^|\s)fusion(=|\s|$)", options):
            raise ValueError("fuse: fusion is the fusion= argument, not one of options")
        parts.append(options)
    elif isinstance(options, dict):
        if "fusion" in options:
            raise ValueError("fuse: fusion is the fusion= argument, not one of options")
        for key, value in options.items():
            if isinstance(value, bool):
                value = "on" if value else "off"
            value = str(value)
            if not value or any(c in value for c in " {}'\""):
                value = "{" + value + "}"
            parts.append(f"{str(key).replace('_', '-')}={value}")
    else:
        raise TypeError(f"fuse: options must be a str or a dict, not "
                        f"{type(options).__name__}")
    return " ".join(parts)


def ptx(text, options=""):
    """The PTX of the program's kernels, compiled with `options`
    (option_text)."""
    error = ctypes.c_void_p()
    ptr = lib().fuse_ptx(program_text(text), options.encode(), ctypes.byref(error))
    if not ptr:
        check_error(error, "fuse_ptx")
    return take_string(ptr)


def report_dot(text, options=""):
    """The Graphviz graph of the program's fused kernels (with fusion=off:
    the eager ones)."""
    error = ctypes.c_void_p()
    ptr = lib().fuse_report_dot(program_text(text), options.encode(), ctypes.byref(error))
    if not ptr:
        check_error(error, "fuse_report_dot")
    return take_string(ptr)
