"""fuse.jit: trace a Python function once per signature, compile it, run it."""

import functools
import inspect
import threading
import weakref
from collections import namedtuple

import numpy as np

from . import _capi, _program, _trace

CacheInfo = namedtuple("CacheInfo", "hits misses traces compiles size")
CacheInfo.__doc__ = """Counters of a jitted function: calls that found their
signature traced and compiled (hits) or did not (misses), traces made,
programs compiled (a trace whose text and options were already compiled
reuses that program), and signatures cached (size)."""

# Compiled programs, by the text compiled and the options.
_programs = {}
_programs_lock = threading.Lock()


def clear_cache():
    """Forgets every compiled program (jitted functions trace again)."""
    with _programs_lock:
        _programs.clear()
    for jitted in list(_Jitted._instances):
        jitted.cache_clear()


def _is_array(value):
    if isinstance(value, (np.ndarray, np.generic, list, tuple)):
        return True
    try:
        return (hasattr(value, "__array__") or hasattr(value, "__cuda_array_interface__")
                or hasattr(value, "__dlpack__"))
    except Exception:
        # An array interface that fails when read (PyTorch's for a tensor
        # that requires grad): reading it again says why.
        return True


class _Jitted:
    """A function compiled by fuse.jit (see jit)."""

    _instances = weakref.WeakSet()

    def __init__(self, fn, fusion=True, target="auto", profile=False):
        if target not in _capi.TARGETS:
            raise ValueError(f"fuse: target must be one of {', '.join(_capi.TARGETS)}, "
                             f"got {target!r}")
        functools.update_wrapper(self, fn)
        self._fn = fn
        self.fusion = bool(fusion)
        self.target = target
        self.profile = bool(profile)
        try:
            self._signature = inspect.signature(fn)
        except (TypeError, ValueError):
            self._signature = None
        self._lock = threading.Lock()
        self._traces = {}
        self._hits = self._misses = self._traced = self._compiled = 0
        self._last = None
        self.last_profile = None
        _Jitted._instances.add(self)

    def __repr__(self):
        return (f"<fuse.jit {self.__name__} ({'fused' if self.fusion else 'eager'}, "
                f"target={self.target})>")

    # Arguments.
    def _leaves(self, args, kwargs):
        """[(name, value)] in call order, and a function that makes (args,
        kwargs) from new values of them."""
        if self._signature is None:
            if kwargs:
                raise TypeError(f"fuse: {self.__name__} takes positional arguments only")
            return [(f"arg{i}", v) for i, v in enumerate(args)], lambda values: (values, {})
        bound = self._signature.bind(*args, **kwargs)
        bound.apply_defaults()
        leaves, slots = [], []
        for name, value in bound.arguments.items():
            kind = self._signature.parameters[name].kind
            if kind == inspect.Parameter.VAR_POSITIONAL:
                slots.append((name, "tuple", len(value)))
                leaves.extend((f"{name}{j}", v) for j, v in enumerate(value))
            elif kind == inspect.Parameter.VAR_KEYWORD:
                keys = sorted(value)
                slots.append((name, "dict", keys))
                leaves.extend((k, value[k]) for k in keys)
            else:
                slots.append((name, "one", None))
                leaves.append((name, value))

        def rebuild(values):
            values = iter(values)
            for name, kind, extra in slots:
                if kind == "tuple":
                    bound.arguments[name] = tuple(next(values) for _ in range(extra))
                elif kind == "dict":
                    bound.arguments[name] = {k: next(values) for k in extra}
                else:
                    bound.arguments[name] = next(values)
            return bound.args, bound.kwargs

        return leaves, rebuild

    def _prepare(self, args, kwargs):
        """The signature key, the trace's leaves, rebuild, and the arrays."""
        leaves, rebuild = self._leaves(args, kwargs)
        key, spec, arrays, named = [], [], [], []
        for name, value in leaves:
            if _is_array(value):
                # Host and GPU arrays of the same dtypes and ranks have one
                # key: they run the same program.
                array, dtype = _program.prepare_argument(value, len(arrays))
                # A size of 1 stays static so that it broadcasts; others are `?`.
                shape = tuple(1 if s == 1 else None for s in array.shape)
                key.append(("tensor", dtype, shape))
                spec.append(("tensor", name, dtype, shape))
                arrays.append((array, dtype))
                named.append((f"argument {name!r}", value, array))
            else:
                try:
                    hash(value)
                except TypeError:
                    raise TypeError(f"fuse: argument {name!r} of {self.__name__} is a "
                                    f"{type(value).__name__}, which is neither an array nor a "
                                    f"constant fuse can specialize on") from None
                key.append(("const", type(value).__qualname__,
                            repr(value) if isinstance(value, float) else value))
                spec.append(("const", value))
        _program.check_one_side(named)
        return tuple(key), spec, rebuild, arrays

    def _lookup(self, args, kwargs, compile_it):
        key, spec, rebuild, arrays = self._prepare(args, kwargs)
        with self._lock:
            entry = self._traces.get(key)
            if entry is not None and (entry[1] is not None or not compile_it):
                if compile_it:
                    self._hits += 1
                self._last = entry[0]
                return entry, arrays
        if entry is None:
            trace = _trace.trace_function(self._fn, self.__name__, spec, rebuild)
        else:
            trace = entry[0]
        program = None
        if compile_it:
            program, compiled = _program_for(trace, self.target, self.fusion)
        with self._lock:
            if entry is None:
                self._traced += 1
            if compile_it:
                self._misses += 1
                self._compiled += compiled
            entry = self._traces[key] = (trace, program)
            self._last = trace
        return entry, arrays

    def __call__(self, *args, **kwargs):
        (trace, program), arrays = self._lookup(args, kwargs, compile_it=True)
        results = program.run_prepared(arrays)
        if self.profile:
            self.last_profile = program.last_profile
        return results[0] if trace.single else tuple(results)

    # Introspection.
    def trace(self, *args, **kwargs):
        """The fuse MLIR text traced for these arguments (nothing runs)."""
        (trace, _), _ = self._lookup(args, kwargs, compile_it=False)
        return trace.mlir

    def _trace_and_arrays(self, args, kwargs):
        (trace, _), arrays = self._lookup(args, kwargs, compile_it=False)
        return trace, [a for a, _ in arrays]

    def _last_trace(self):
        if self._last is None:
            raise RuntimeError(f"fuse: {self.__name__} has not been traced yet; call it, or "
                               f"use {self.__name__}.trace(*args)")
        return self._last

    @property
    def mlir(self):
        """The fuse MLIR text of the latest call (or trace)."""
        return self._last_trace().mlir

    @property
    def ptx(self):
        """The PTX (sm_90) of the latest call's program, fused or eager as
        this function is."""
        return _capi.ptx(self._last_trace().mlir, None, self.fusion)

    def ptx_for(self, chip):
        """The PTX of the latest call's program for `chip` (e.g. 'sm_80')."""
        return _capi.ptx(self._last_trace().mlir, chip, self.fusion)

    @property
    def program(self):
        """The compiled fuse.Program of the latest call."""
        trace = self._last_trace()
        for t, program in self._traces.values():
            if t is trace and program is not None:
                return program
        raise RuntimeError(f"fuse: {self.__name__}'s latest trace is not compiled yet")

    def cache_info(self):
        with self._lock:
            return CacheInfo(self._hits, self._misses, self._traced, self._compiled,
                             len(self._traces))

    def cache_clear(self):
        with self._lock:
            self._traces.clear()
            self._hits = self._misses = self._traced = self._compiled = 0
            self._last = None


def _program_for(trace, target, fusion):
    """The compiled program of `trace` and whether it was compiled now."""
    key = (trace.located_mlir, trace.name, target, fusion)
    # Held while compiling, so that threads calling a new function compile it
    # once.
    with _programs_lock:
        program = _programs.get(key)
        if program is not None:
            return program, 0
        program = _programs[key] = _program.Program(trace.located_mlir, entry=trace.name,
                                                    target=target, fusion=fusion)
        return program, 1


def jit(fn=None, *, fusion=True, target="auto", profile=False):
    """Compiles a Python function of arrays with fuse.

    On the first call with a given signature (each array's dtype and rank,
    and which of its sizes are 1) the function is traced with symbolic
    Tensors into a fuse program with dynamic (`?`) sizes, compiled, and run;
    later calls with the same signature, whatever their sizes, run the same
    compiled program. Python scalars among the arguments are constants of
    the trace (a new value traces again).

    fusion: fuse elementwise ops into kernels (False: one kernel per op,
        like eager PyTorch).
    target: 'cpu', 'cuda' or 'auto' (the GPU when there is one).
    profile: record the kernels of each call in `fn.last_profile` (a list of
        {"name", "bytes", "ms"}).

    The jitted function has `.mlir`, `.ptx`, `.trace(*args)`,
    `.cache_info()`, `.cache_clear()` and `.program`.
    """
    if fn is None:
        return lambda f: _Jitted(f, fusion=fusion, target=target, profile=profile)
    return _Jitted(fn, fusion=fusion, target=target, profile=profile)
