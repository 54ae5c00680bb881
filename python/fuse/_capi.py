"""ctypes bindings of the C API (include/fuse-c/Fuse.h).

The library is loaded on first use, so that tracing (`fn.mlir`) works
without it. It is looked for in `$FUSE_LIB_DIR` alone when that is set (the
build the user asked for: no other copy is taken in its place); else, in
order, in `build/lib` of the source tree that holds this package (used from
python/) and in the package's `_lib/` folder (an installed package: the
build stages it in build/python with the library there). A file that is not
a whole 64-bit ELF shared library is refused before dlopen reads it.
"""

import atexit
import ctypes
import functools
import json
import os
import re
import struct
import threading

import numpy as np

from . import _dtypes

LIBRARY_NAME = "libfuse_capi.so"

TARGETS = {"cpu": 0, "cuda": 1, "auto": 2}
TARGET_NAMES = {code: name for name, code in TARGETS.items()}


# The exceptions and the warning are fuse's public names: tracebacks and
# reprs say fuse.FuseError, not where they are defined.
class FuseError(RuntimeError):
    """An error reported by the fuse library: a program that does not parse
    or verify, a compile failure, or a failed run (e.g. sizes that
    broadcasting assumed equal). The message is the library's, with its
    source locations."""

    __module__ = "fuse"


class FusionRemark(UserWarning):
    """A compiler remark, issued as a warning when a program is compiled with
    the `remarks` option: a producer/consumer pair left unfused, and why,
    at the consumer's source location (with a note at the producer's)."""

    __module__ = "fuse"


class LibraryNotFoundError(ImportError):
    """libfuse_capi.so was not found where the package looks for it, or none
    found there loads (each path is listed with why)."""

    __module__ = "fuse"


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
    """The folders searched for the library, in order: `$FUSE_LIB_DIR` alone
    when it is set, else the source tree's build/lib (for the package used
    from the source tree) and the package's _lib/."""
    # A user who sets FUSE_LIB_DIR wants that build: a library there that
    # is missing or does not load is an error, not a reason to run another
    # copy (an installed one, of another version) without saying so.
    if os.environ.get("FUSE_LIB_DIR"):
        return [os.environ["FUSE_LIB_DIR"]]
    here = os.path.dirname(os.path.abspath(__file__))
    dirs = []
    # <repo>/python/fuse -> <repo>/build/lib, where the source tree is the
    # one with the C API's header. Two folders above an installed package
    # is no build (<venv>/lib/python3.11/build/lib), nor above the staged
    # one (build/python/fuse), which has the library in _lib/.
    root = os.path.dirname(os.path.dirname(here))
    if os.path.isfile(os.path.join(root, "include", "fuse-c", "Fuse.h")):
        dirs.append(os.path.join(root, "build", "lib"))
    dirs.append(os.path.join(here, "_lib"))
    return dirs


_ELF_HEADER = struct.Struct("<4sBB10xHHIQQQIHHHHHH")
_ELF_PROGRAM_HEADER = struct.Struct("<IIQQQQQQ")
_ET_DYN, _PT_LOAD, _PN_XNUM = 3, 1, 0xFFFF


def elf_problem(path):
    """Why the file at `path` cannot be loaded as the library, read from its
    ELF headers alone, or None. dlopen maps a library's segments as its
    headers place them: of a truncated file (a copy cut short), past its
    end, and the first read there killed Python with SIGBUS inside dlopen.
    Checked: a 64-bit little-endian ELF shared library (the package's
    platforms), as long as its program and section header tables and every
    loaded segment (PT_LOAD: offset + size in the file) need."""
    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size

        def read(offset, count):
            f.seek(offset)
            return f.read(count)

        header = read(0, _ELF_HEADER.size)
        if header[:4] != b"\x7fELF":
            return "not a 64-bit ELF shared library"
        if len(header) < _ELF_HEADER.size:
            return f"truncated: {size} bytes, the ELF headers need {_ELF_HEADER.size}"
        (_, elf_class, data, e_type, _, _, _, phoff, shoff, _, _, phentsize, phnum,
         shentsize, shnum, _) = _ELF_HEADER.unpack(header)
        # ELFCLASS64, ELFDATA2LSB, ET_DYN.
        if (elf_class, data, e_type) != (2, 1, _ET_DYN) or (
                phnum and phentsize < _ELF_PROGRAM_HEADER.size):
            return "not a 64-bit ELF shared library"
        need = _ELF_HEADER.size
        # Counts too large for the header are in section header 0: the
        # section count in its sh_size, the program header count in its
        # sh_info.
        if shoff and (shnum == 0 or phnum == _PN_XNUM):
            need = max(need, shoff + 64)
            if size < need:
                return f"truncated: {size} bytes, the ELF headers need {need}"
            sh_size, _, sh_info = struct.unpack("<QII", read(shoff + 32, 16))
            shnum = shnum or sh_size
            phnum = sh_info if phnum == _PN_XNUM else phnum
        need = max(need, phoff + phentsize * phnum, shoff + shentsize * shnum)
        if size < phoff + phentsize * phnum:
            return f"truncated: {size} bytes, the ELF headers need {need}"
        table = read(phoff, phentsize * phnum)
        for i in range(phnum):
            p_type, _, p_offset, _, _, p_filesz, _, _ = _ELF_PROGRAM_HEADER.unpack_from(
                table, i * phentsize)
            if p_type == _PT_LOAD:
                need = max(need, p_offset + p_filesz)
        if size < need:
            return f"truncated: {size} bytes, the ELF headers need {need}"
    return None


_lib = None
_lib_lock = threading.Lock()
# The runtime keeps each thread's run apart (its error, its records, its
# stream), so runs of different programs go at once; a program's runs, and
# the reads of its last run's profile, are serialized on the program's own
# lock. What changes the library's shared state is serialized here:
# compiling (LLVM, the CUDA driver's start-up, loading kernels), destroying
# a program, freeing result buffers.
library_lock = threading.RLock()


# Set when the interpreter exits, before the programs are destroyed: a
# program destroyed then says so to a thread that still calls it.
exiting = False


def _hold_at_exit():
    # At exit, wait for a compile in progress on another (daemon) thread and
    # let none start after it: the exit destroys LLVM's static state, which a
    # compile still running would use (a crash), and a program compiled
    # after the programs' destruction would be run on. Never released: the
    # main thread, which holds it, still takes it to destroy them.
    global exiting
    exiting = True
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
        "fuse_report_json": (ctypes.c_void_p, [ctypes.c_char_p, ctypes.c_char_p,
                                               c_char_pp]),
        "fuse_report_text": (ctypes.c_void_p, [ctypes.c_char_p, ctypes.c_char_p,
                                               c_char_pp]),
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
            dirs = candidate_dirs()
            for folder in dirs:
                path = os.path.join(folder, LIBRARY_NAME)
                if not os.path.exists(path):
                    tried.append(f"  {path} (not found)")
                    continue
                try:
                    problem = elf_problem(path)
                except OSError as e:
                    problem = e.strerror or str(e)
                if problem:
                    tried.append(f"  {path} ({problem})")
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
                # A library of another version is a bad candidate as any
                # other: the next one may be the package's own.
                try:
                    _dtypes.check_codes(spellings)
                except RuntimeError as e:
                    tried.append(f"  {path} (from another version of fuse: {e})")
                    continue
                loaded.fuse_path = path
                MAX_RANK, Array = max_rank, _array_type(max_rank)
                ALIGNMENT = loaded.fuse_alignment()
                _lib = loaded
                break
            else:
                explicit = os.environ.get("FUSE_LIB_DIR")
                if explicit and explicit in dirs:
                    advice = ("\nFUSE_LIB_DIR is set, so fuse looks there only (it names the "
                              "build to use): build the library there (cmake --build build), "
                              "set FUSE_LIB_DIR to the folder that holds a built one, or unset "
                              "it to use the package's own.")
                else:
                    advice = ("\nBuild it (scripts/test or cmake --build build) and either "
                              "install the package with `pip install ./build/python` after "
                              "the build, or set FUSE_LIB_DIR to the folder that holds it.")
                raise LibraryNotFoundError(
                    f"fuse: cannot load {LIBRARY_NAME}; looked in:\n" + "\n".join(tried) +
                    advice)
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


def said_by(error, function, names=()):
    """FuseError `error` (the library's message) as the package's errors
    are said, for a jitted function's compile or run: `fuse: FUNCTION: `
    first, and with the names of the traced program's arguments, `names`,
    each `argument N` is `argument 'NAME'` (N counts the program's inputs,
    which static and non-array arguments do not take: `argument 1` of
    f(scale, a, b) was b). (fuse.compile's and a Program's carry the
    library's message as it is.)"""
    text = str(error)
    if names:
        text = re.sub(r"\bargument (\d+)\b",
                      lambda m: (f"argument {names[int(m.group(1))]!r}"
                                 if int(m.group(1)) < len(names) else m.group(0)), text)
    error.args = (f"fuse: {function}: {text}",) + error.args[1:]
    return error


def report_json(text, options=""):
    """The report's JSON for MLIR text, compiled with `options` (an option
    text, option_text's)."""
    error = ctypes.c_void_p()
    ptr = lib().fuse_report_json(program_text(text), options.encode(), ctypes.byref(error))
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


def report_text(text, options=""):
    """The report's text for MLIR text, compiled with `options`."""
    error = ctypes.c_void_p()
    ptr = lib().fuse_report_text(program_text(text), options.encode(), ctypes.byref(error))
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
