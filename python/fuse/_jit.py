"""fuse.jit: trace a Python function once per signature, compile it, run it."""

import collections
import contextlib
import dataclasses
import enum
import functools
import inspect
import os
import sys
import threading
import weakref
from collections import namedtuple

import numpy as np

from . import _arguments, _capi, _dtypes, _program, _trace

CacheInfo = namedtuple("CacheInfo", "hits misses traces compiles size")
CacheInfo.__doc__ = """Counters of a jitted function: calls that found their
signature traced and compiled (hits) or did not (misses), traces made,
programs compiled (a trace whose text and options were already compiled
reuses that program), and signatures cached (size, at most max_cache)."""

# How many signatures (each with its trace and compiled program) a jitted
# function keeps by default; the least recently used goes first.
DEFAULT_MAX_CACHE = 64

# Compiled programs, by the text compiled and the options, while a jitted
# function's cache holds them: functions that trace to the same ops at the
# same places share one, and a program that no cache holds is freed. The
# text has each op's source location, which the program's run-time errors
# and remarks name: the same ops written at two places are two programs.
_programs = weakref.WeakValueDictionary()
_programs_lock = threading.Lock()


# A fork waits for a compile in progress on another thread, which holds
# this lock (and the library's, _capi): the child would have it held by a
# thread it does not have, and hang in its first compile.
os.register_at_fork(before=_programs_lock.acquire, after_in_parent=_programs_lock.release,
                    after_in_child=_programs_lock.release)


def _renew_function_locks():
    """In a forked child: each jitted function's locks, new. A thread the
    child does not have may have held them at the fork (in the middle of a
    trace, or of a look into the cache), and the child's first call that
    needs them hung; what they guard is kept only once whole (a trace's
    result is stored when it is done)."""
    for jitted in list(_Jitted._instances):
        jitted._tracing = threading.RLock()
        jitted._lock = threading.Lock()


def clear_cache():
    """Forgets every compiled program (jitted functions trace again) and
    frees the CPU target's cache of freed result buffers."""
    with _programs_lock:
        _programs.clear()
    for jitted in list(_Jitted._instances):
        jitted.cache_clear()
    library = _capi.loaded()
    if library is not None:
        with _capi.library_lock:
            library.fuse_release_host_cache()


class _Jitted:
    """A function compiled by fuse.jit (see jit)."""

    _instances = weakref.WeakSet()

    def __init__(self, fn, fusion=True, target="auto", profile=False, static_argnames=(),
                 max_cache=DEFAULT_MAX_CACHE, options=None):
        if target not in _capi.TARGETS:
            raise ValueError(f"fuse: target must be one of {', '.join(_capi.TARGETS)}, "
                             f"got {target!r}")
        # Over @staticmethod or @classmethod: the function, bound as they
        # bind it (__get__).
        self._binding = type(fn) if isinstance(fn, (staticmethod, classmethod)) else None
        if self._binding is not None:
            fn = fn.__func__
        if not callable(fn):
            raise TypeError(f"fuse.jit takes a function, not {type(fn).__name__} {fn!r}")
        if isinstance(fn, type):
            raise TypeError(f"fuse.jit takes a function, not the class {fn.__name__}: calling a "
                            f"class makes an object, which fuse cannot trace (it traces the ops "
                            f"of a function on arrays); jit a function, or a method of the "
                            f"class (@fuse.jit over its def)")
        functools.update_wrapper(self, fn)
        if not isinstance(getattr(self, "__name__", None), str):
            # A functools.partial or a callable object: its function's name.
            inner = getattr(fn, "func", None) or type(fn)
            self.__name__ = getattr(inner, "__name__", type(fn).__name__)
        self._fn = fn
        self.fusion = _capi.switch(fusion)
        # The compiler's options as given, and as the library takes them
        # (fusion included).
        self._options = options
        self.options = _capi.option_text(fusion, options)
        self.target = target
        self.profile = _capi.switch(profile, "profile")
        try:
            self._signature = inspect.signature(fn)
        except (TypeError, ValueError):
            self._signature = None
        if isinstance(static_argnames, str):
            static_argnames = (static_argnames,)
        if (not isinstance(static_argnames, (tuple, list, set, frozenset))
                or not all(isinstance(n, str) for n in static_argnames)):
            raise TypeError(f"fuse: static_argnames must be a parameter name or a sequence of "
                            f"them, got {type(static_argnames).__name__} {static_argnames!r}")
        self.static_argnames = frozenset(static_argnames)
        if self._signature is not None:
            unknown = self.static_argnames - set(self._signature.parameters)
            if unknown:
                names = sorted(unknown)
                raise ValueError(
                    f"fuse: static_argnames names {_dtypes.listing(names)}, which "
                    f"{'is not a parameter' if len(names) == 1 else 'are not parameters'} of "
                    f"{self.__name__} (its parameters: "
                    f"{', '.join(self._signature.parameters) or 'none'})")
        # out= is the caller's arrays for the results, unless the function
        # takes an argument of that name itself.
        self._takes_out = self._signature is not None and any(
            p.name == "out" or p.kind is inspect.Parameter.VAR_KEYWORD
            for p in self._signature.parameters.values())
        self._lock = threading.Lock()
        # Held while tracing and compiling a new signature, so that threads
        # calling with the same new one trace it once (reentrant: the
        # function may call itself on arrays while it is traced).
        self._tracing = threading.RLock()
        # Signature key -> (trace, program), least recently used first.
        self._traces = collections.OrderedDict()
        # _deaths[0] when the entries of objects gone were dropped.
        self._deaths = _deaths[0]
        self.max_cache = max_cache
        self._hits = self._misses = self._traced = self._compiled = 0
        # How many times cache_clear() ran: a trace or compile that began
        # before one neither enters the cache nor counts after it
        # (cache_info() gave misses=1 and compiles=1 with traces=0).
        self._generation = 0
        self._last = None
        # Calls with positional numpy arrays only, which need no conversion:
        # (dtype, which sizes are 1) of each -> the key of _traces, the entry
        # and the fuse dtypes. Filled by the full path, emptied with it.
        self._fast = {}
        self.last_profile = None
        _Jitted._instances.add(self)

    @property
    def max_cache(self):
        """The most signatures (traces and their compiled programs) kept; the
        least recently used is dropped first. None: no bound."""
        return self._max_cache

    @max_cache.setter
    def max_cache(self, value):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                  or value < 1):
            raise ValueError(f"fuse: max_cache must be a positive int or None, got {value!r}")
        with self._lock:
            self._max_cache = value
            self._evict()

    def _evict(self):
        while self._max_cache is not None and len(self._traces) > self._max_cache:
            self._traces.popitem(last=False)
            self._fast.clear()

    def __get__(self, instance, owner=None):
        """As a method: called with the instance first (a constant of the
        trace, like any argument that is not a number or an array); over
        @classmethod with the class, over @staticmethod with neither."""
        if self._binding is staticmethod:
            return self
        if self._binding is classmethod:
            return functools.partial(self, owner if owner is not None else type(instance))
        if instance is None:
            return self
        return functools.partial(self, instance)

    def __repr__(self):
        return (f"<fuse.jit {self.__name__} ({'fused' if self.fusion else 'eager'}, "
                f"target={self.target})>")

    # As a function is: deepcopy (of a model that holds one) gives the same
    # object, and pickle (multiprocessing's spawn) writes its name where
    # its module has it, else its function and options, made again when
    # read (the compiled programs are not written).
    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        module = sys.modules.get(getattr(self, "__module__", None) or "")
        found = module
        for part in getattr(self, "__qualname__", "").split("."):
            found = getattr(found, part, None)
        if module is not None and found is self:
            return self.__qualname__
        fn = self._binding(self._fn) if self._binding is not None else self._fn
        return (_remade, (fn, self.fusion, self.target, self.profile,
                          tuple(sorted(self.static_argnames)), self.max_cache, self._options))

    # Arguments.
    def _leaves(self, args, kwargs):
        """[(name, value)] in call order, and a function that makes (args,
        kwargs) from new values of them."""
        if self._signature is None:
            if kwargs:
                raise TypeError(f"fuse: {self.__name__} takes positional arguments only")
            return ([(f"arg{i}", v) for i, v in enumerate(args)], lambda values: (values, {}),
                    len(args))
        # Parameters that the call leaves out keep their default values: they
        # are not arguments of the trace, but for an array's, which is passed
        # as the call would pass it (a constant of the trace it cannot be).
        try:
            bound = self._signature.bind(*args, **kwargs)
        except TypeError as e:
            # A keyword that no parameter takes first, as Python says it
            # (inspect reports the parameter it left unbound instead).
            parameters = self._signature.parameters
            if not any(p.kind == inspect.Parameter.VAR_KEYWORD for p in parameters.values()):
                unknown = [k for k in kwargs if k not in parameters or
                           parameters[k].kind == inspect.Parameter.POSITIONAL_ONLY]
                if unknown:
                    e = f"got an unexpected keyword argument {unknown[0]!r}"
            raise TypeError(f"fuse: {self.__name__}{self._signature}: {e}") from None
        defaults = {name: p.default for name, p in self._signature.parameters.items()
                    if name not in bound.arguments and _is_array_default(p.default)}
        if defaults:
            bound.arguments = {name: bound.arguments.get(name, defaults.get(name))
                               for name in self._signature.parameters
                               if name in bound.arguments or name in defaults}
        leaves, slots = [], []
        for name, value in bound.arguments.items():
            kind = self._signature.parameters[name].kind
            if kind == inspect.Parameter.VAR_POSITIONAL:
                slots.append((name, "tuple", len(value)))
                # Named as the function reads it (messages say xs[0]).
                leaves.extend((f"{name}[{j}]", v) for j, v in enumerate(value))
            elif kind == inspect.Parameter.VAR_KEYWORD:
                keys = sorted(value)
                slots.append((name, "dict", keys))
                leaves.extend((k, value[k]) for k in keys)
            else:
                slots.append((name, "one", None))
                leaves.append((name, value))
        structure = tuple((name, kind, extra if kind != "dict" else tuple(extra))
                          for name, kind, extra in slots)

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

        return leaves, rebuild, structure

    def _prepare(self, args, kwargs):
        """The signature key, the trace's leaves, rebuild, and the arrays:
        (array, fuse dtype, scalar) per input, scalar the Python scalar an
        input was made from (else None)."""
        leaves, rebuild, structure = self._leaves(args, kwargs)
        arguments = _arguments.jit_arguments(leaves, self.static_argnames, self.__name__)
        key, spec, arrays = [structure], [], []
        for (name, value), (kind, array, dtype) in zip(leaves, arguments):
            if kind == "scalar":
                # A run-time 0-d argument: the key has its kind, not its value.
                key.append(("scalar", dtype))
                spec.append(("scalar", name, dtype))
                arrays.append((array, dtype, value))
            elif kind == "tensor":
                # A size of 1 stays static so that it broadcasts; others are
                # `?`. Host and GPU arrays of the same dtypes and ranks have
                # one key: they run the same program.
                shape = tuple(1 if s == 1 else None for s in array.shape)
                key.append(("tensor", dtype, shape))
                spec.append(("tensor", name, dtype, shape))
                arrays.append((array, dtype, None))
            else:
                key.append(("const", _const_key(value)))
                spec.append(("const", value))
        return tuple(key), spec, rebuild, arrays

    def _lookup(self, args, kwargs, compile_it, remember=True):
        """The signature key, its (trace, program) entry and the arrays; the
        entry becomes the latest (fn.mlir, fn.program) if `remember`."""
        key, spec, rebuild, arrays = self._prepare(args, kwargs)
        found = self._cached(key, compile_it, remember)
        if found is not None:
            return key, found, arrays
        with self._tracing:
            # Another thread may have traced it meanwhile.
            found = self._cached(key, compile_it, remember)
            if found is not None:
                return key, found, arrays
            return key, self._trace_new(key, spec, rebuild, compile_it, remember), arrays

    def _cached(self, key, compile_it, remember):
        """The entry of `key` when it has what the call needs (a program
        if `compile_it`), counted as a hit; else None."""
        with self._lock:
            if self._deaths != _deaths[0]:
                self._drop_dead()
            entry = self._traces.get(key)
            if entry is None or (entry[1] is None and compile_it):
                return None
            self._traces.move_to_end(key)
            if compile_it:
                self._hits += 1
            if remember:
                self._last = entry
            return entry

    def _trace_new(self, key, spec, rebuild, compile_it, remember):
        with self._lock:
            entry = self._traces.get(key)
            generation = self._generation
        if entry is None:
            try:
                trace = _trace.trace_function(self._fn, self.__name__, spec, rebuild)
            except TypeError as error:
                raise _bound_arrays_said(error, self._fn)
            # Kept before it compiles: when compiling fails (a FusionRemark
            # made an error), fn.mlir is the program that failed.
            with self._lock:
                entry = (trace, None)
                if self._generation == generation:
                    self._traced += 1
                    self._store(key, entry)
                if remember:
                    self._last = entry
        trace = entry[0]
        program = None
        if compile_it:
            program, compiled = _program_for(trace, self)
        with self._lock:
            entry = (trace, program)
            # Unless cache_clear() ran meanwhile: the call gets its program,
            # and the cache stays as the clear left it.
            if self._generation == generation:
                if compile_it:
                    self._misses += 1
                    self._compiled += compiled
                self._store(key, entry)
            if remember:
                self._last = entry
        return entry

    def _drop_dead(self):
        """Drops the entries whose keys hold an object that has gone (a
        method's garbage-collected self): no call can match them (self._lock
        held)."""
        self._deaths = _deaths[0]
        dead = [key for key in self._traces if _holds_dead(key)]
        for key in dead:
            del self._traces[key]
        if dead:
            self._fast.clear()

    def _store(self, key, entry):
        """Keeps `entry` as the latest of the cache (self._lock held)."""
        if self._deaths != _deaths[0]:
            self._drop_dead()
        self._traces[key] = entry
        self._traces.move_to_end(key)
        self._evict()

    def __call__(self, *args, **kwargs):
        if self.profile:
            # A call that fails has no profile, not the one before's: also
            # one whose arguments are refused before it runs.
            self.last_profile = None
        # out= is the caller's arrays for the results (unless the function
        # has a parameter of that name).
        out = kwargs.pop("out", None) if not self._takes_out else None
        fast = None if kwargs else _arguments.fast_key(args)
        hit = self._fast.get(fast) if fast is not None else None
        if hit is None and not kwargs:
            # (Arrays in Fortran order have no fast key.)
            transposed = self._in_memory_order(args, out)
            if transposed is not None:
                return transposed
        if hit is not None:
            # The arguments need what the full path did for the same key:
            # nothing, so the signature, tracing and checks are skipped.
            key, entry, dtypes = hit
            with self._lock:
                # (Not after a cache_clear() that raced with this call.)
                if key in self._traces:
                    self._hits += 1
                    self._traces.move_to_end(key)
                self._last = entry
            trace, program = entry
            inputs = [(a, d) if type(a) is not float else (_arguments.float_input(a, d), d)
                      for a, d in zip(args, dtypes)]
        else:
            if any(_holds_tensor(v) for v in (*args, *kwargs.values())):
                if out is not None:
                    raise TypeError(f"fuse: out= is for calls on arrays, not inside another "
                                    f"function's trace ({self.__name__})")
                # Called inside another function's trace: its body traces
                # inline. A static parameter needs a value, which a traced
                # Tensor has not (a Python scalar's, weak, says so itself
                # where it is used, naming the outer function's argument).
                if self.static_argnames and self._signature is not None:
                    try:
                        bound = self._signature.bind(*args, **kwargs).arguments
                    except TypeError:
                        bound = {}
                    for name in sorted(self.static_argnames & set(bound)):
                        if isinstance(bound[name], _trace.Tensor) and not bound[name].weak:
                            raise TypeError(
                                f"fuse: argument {name!r} of {self.__name__} is static "
                                f"(static_argnames), and a traced Tensor has no value "
                                f"while tracing: pass it a constant")
                return self._fn(*args, **kwargs)
            # With profile=True, the copies of arguments that the kernels
            # cannot read in place are rows of the profile, first.
            with (_arguments.recorded_copies() if self.profile
                  else contextlib.nullcontext([])) as copies:
                key, entry, arrays = self._lookup(args, kwargs, compile_it=True)
            trace, program = entry
            inputs = _arguments.jit_inputs(trace, arrays, self.__name__)
            # Each argument is its input (a float converted: float_input).
            # (Not when an input's value is checked: an int64 0-d array
            # used as int32, a float divisor, which the short path would
            # not check.)
            # A float is its input only when that input was made from it:
            # a static float (static_argnames) is no input, and the input in
            # its place was a default's, which the short path would have
            # taken from the next call's static value.
            if fast is not None and not trace.int32_inputs and not trace.divisor_inputs \
                    and len(args) == len(inputs) and all(
                    a is i or (type(a) is float and scalar is a)
                    for a, (i, _), (_, _, scalar) in zip(args, inputs, arrays)):
                with self._lock:
                    # Unless another call evicted it meanwhile.
                    if self._traces.get(key) is entry:
                        self._fast[fast] = (key, entry, [d for _, d in inputs])
        if trace.size_checks:
            # Sizes that a composition needs equal (a norm's weight and x's
            # last axis), said in its terms before the library's check.
            _trace.check_sizes(trace, [a for a, _ in inputs])
        try:
            results = program.run_prepared(
                inputs, None if out is None else program.check_out(out, self.__name__),
                self.__name__)
        except _capi.FuseError as error:
            raise _capi.said_by(error, self.__name__, trace.input_names)
        if self.profile:
            self.last_profile = (copies if hit is None else []) + program.last_profile
        return results[0] if trace.single else tuple(results)

    def _in_memory_order(self, args, out=None):
        """f(*args) computed as f(*args.T).T, or None: when the positional
        array arguments are numpy arrays of one shape, of rank 2 or more and
        no size 1, all in Fortran order (the transpose of a C array, x.T),
        every other input (a default) has one element, and
        the program for their transposes is elementwise. Those are C
        arrays, read in place: the arrays were copied into C order first, a
        transposing copy that took 12 times numpy's time for the relu of a
        2048 x 2048 x.T. With no size of 1 (each `?`, no value while
        tracing) and no reduction, the traced code cannot tell x from x.T.
        The results are the transposes, Fortran arrays, as numpy's are;
        `out=` arrays in Fortran order are written as the transposes of C
        arrays (it was refused as not C-contiguous), others take the usual
        path."""
        outs = None
        if out is not None:
            outs = list(out) if isinstance(out, (tuple, list)) else [out]
            if not all(type(o) is np.ndarray and o.ndim > 1 and o.flags.f_contiguous
                       and not o.flags.c_contiguous for o in outs):
                return None
        arrays = [a for a in args if type(a) is np.ndarray and a.ndim > 0]
        if not arrays:
            return None
        shape = arrays[0].shape
        if len(shape) < 2 or 1 in shape or any(
                a.shape != shape or a.flags.c_contiguous or not a.flags.f_contiguous
                for a in arrays):
            return None
        # An out= of another shape is refused by the usual path, in the
        # caller's shapes (here they would be the transposes).
        if outs is not None and any(o.shape != shape for o in outs):
            return None
        # Arrays of other kinds (PyTorch's, lists) take the usual path; a
        # numpy scalar is one element, as a 0-d array is (it took the usual
        # path, a transposing copy 6 times slower).
        if any(type(a) is not np.ndarray and not isinstance(a, np.generic)
               and _arguments._is_array(a) for a in args):
            return None
        views = tuple(a.T if type(a) is np.ndarray else a for a in args)
        try:
            _, (trace, _), inputs = self._lookup(views, {}, compile_it=False)
        except Exception:
            return None  # said by the usual path, in the caller's terms
        if not trace.elementwise:
            return None
        # Every other input (a default array, one inside a tuple) is of one
        # element: one that broadcasts along some axes is not transposed.
        # Nor of a higher rank: its leading axes, new to the result, would
        # come last in the transpose ((3, 4, 1) for numpy's (1, 3, 4)).
        if any((array.size > 1 or array.ndim > len(shape)) and
               not any(array is v for v in views)
               for array, _, _ in inputs):
            return None
        if outs is None:
            results = self(*views)
            return results.T if trace.single else tuple(r.T for r in results)
        # The caller's arrays, as the usual path returns them.
        transposed = [o.T for o in outs]
        self(*views, out=type(out)(transposed) if isinstance(out, (tuple, list))
             else transposed[0])
        return out

    # Introspection.
    def trace(self, *args, **kwargs):
        """The fuse MLIR text traced for these arguments (nothing runs)."""
        _, (trace, _), _ = self._lookup(args, kwargs, compile_it=False)
        return trace.mlir

    def _trace_and_arrays(self, args, kwargs):
        """For fuse.explain and fuse.report: fn.mlir stays the latest call's."""
        _, (trace, _), arrays = self._lookup(args, kwargs, compile_it=False,
                                             remember=False)
        return trace, [a for a, _, _ in arrays]

    def _last_entry(self):
        if self._last is None:
            raise RuntimeError(f"fuse: {self.__name__} has not been traced yet; call it, or "
                               f"use {self.__name__}.trace(*args)")
        return self._last

    def _last_trace(self):
        return self._last_entry()[0]

    @property
    def mlir(self):
        """The fuse MLIR text of the latest call (or trace)."""
        return self._last_trace().mlir

    @property
    def ptx(self):
        """The PTX (sm_90) of the latest call's program, fused or eager as
        this function is; '' when the program has no kernel (it returns
        its arguments or constants: fuse-opt --emit=ptx says so in a
        remark)."""
        return _capi.ptx(self._last_trace().mlir, self.options)

    def ptx_for(self, chip):
        """The PTX of the latest call's program for `chip` (e.g. 'sm_80')."""
        if not isinstance(chip, str):
            raise TypeError(f"fuse: chip must be a GPU architecture's name such as 'sm_80', "
                            f"got {type(chip).__name__} {chip!r}")
        return _capi.ptx(self._last_trace().mlir, f"{self.options} chip={chip}")

    @property
    def program(self):
        """The compiled fuse.Program of the latest call or fn.trace (compiled
        now if it was only traced)."""
        trace, program = self._last_entry()
        if program is None:
            for t, p in list(self._traces.values()):
                if t is trace and p is not None:
                    return p
            with self._lock:
                generation = self._generation
            program, compiled = _program_for(trace, self)
            with self._lock:
                if self._generation == generation:
                    self._compiled += compiled
                for key, (t, _) in list(self._traces.items()):
                    if t is trace:
                        self._traces[key] = (trace, program)
                self._last = (trace, program)
        return program

    def cache_info(self):
        with self._lock:
            if self._deaths != _deaths[0]:
                self._drop_dead()
            return CacheInfo(self._hits, self._misses, self._traced, self._compiled,
                             len(self._traces))

    def cache_clear(self):
        with self._lock:
            self._traces.clear()
            self._fast.clear()
            self._hits = self._misses = self._traced = self._compiled = 0
            self._generation += 1
            self._last = None


def _is_array_default(value):
    """Whether a parameter's default `value` is an array (numpy's, 0-d too,
    a numpy scalar, a GPU array, a PyTorch tensor), which the call passes as
    it would pass the argument: not a Python number or a tuple, which are
    constants."""
    if isinstance(value, (list, tuple)) or value is inspect.Parameter.empty:
        return False
    return _arguments._is_array(value)


def _holds_tensor(value):
    """Whether `value` is a traced Tensor or a (nested) tuple, list or dict
    that holds one: a call inside another function's trace."""
    if isinstance(value, _trace.Tensor):
        return True
    if isinstance(value, dict):
        return any(_holds_tensor(v) for v in value.values())
    return isinstance(value, (tuple, list)) and any(_holds_tensor(v) for v in value)


def _const_key(value):
    """A constant's part of the signature key (a static argument, a
    method's self, any argument that is not a number or an array). Values
    that compare equal can trace differently (2 and 2.0 give other dtypes,
    0.0 and -0.0 other signs), inside tuples and frozen dataclasses too: the
    key has each value's type, and a float's repr. An object of another
    kind is keyed by identity (_Identity): its __eq__ may say that objects
    whose traces differ are equal."""
    if isinstance(value, (float, complex, np.floating, np.complexfloating)):
        return (type(value), repr(value))
    if isinstance(value, (tuple, list)):
        return (type(value), tuple(_const_key(v) for v in value))
    if isinstance(value, dict):
        return (dict, tuple((k, _const_key(v)) for k, v in value.items()))
    if isinstance(value, (frozenset, set)):
        return (type(value), frozenset(_const_key(v) for v in value))
    if (dataclasses.is_dataclass(value) and not isinstance(value, type)
            and type(value).__dataclass_params__.frozen):
        return (type(value), tuple((f.name, _const_key(getattr(value, f.name)))
                                   for f in dataclasses.fields(value)))
    if isinstance(value, _BY_VALUE):
        return (type(value), value)
    return _Identity(value)


# Constants keyed by value (after their type): those whose equal values
# trace alike.
_BY_VALUE = (type(None), type(Ellipsis), bool, int, str, bytes, range, type, np.dtype,
             np.bool_, np.integer, enum.Enum)


# How many objects of keys have gone: a jitted function drops the entries
# of theirs when it sees the count change (_drop_dead). (Not dropped by the
# weakref's callback itself, which a garbage collection may run while the
# function's lock is held, on that thread.)
_deaths = [0]


class _Identity:
    """An object in a signature key, by identity. Held weakly where it can
    be: the cache kept a method's self, and all it held (a model's
    weights), as long as the trace; a key whose object has gone matches no
    other, though another object may take its address.

    An object that cannot be weakly referenced (of a class with __slots__
    and no __weakref__ among them) is held strongly, until its signature
    leaves the cache (max_cache) or the cache is cleared: nothing else tells
    that it is gone, and a key of its id() alone would match the next
    object at its address, which would run the trace of the first one's
    attributes (a wrong result, with no error)."""

    __slots__ = ("_ref", "_id")

    def __init__(self, value):
        self._id = id(value)
        try:
            self._ref = weakref.ref(value, _Identity._died)
        except TypeError:
            self._ref = lambda: value

    @staticmethod
    def _died(ref, deaths=_deaths):
        # (No global: it may run at exit, once the module is cleared.)
        deaths[0] += 1

    def dead(self):
        return self._ref() is None

    def __hash__(self):
        return self._id

    def __eq__(self, other):
        if not isinstance(other, _Identity):
            return NotImplemented
        value = self._ref()
        return value is not None and value is other._ref()


def _holds_dead(key):
    """Whether signature key `key` holds an _Identity whose object has
    gone."""
    if isinstance(key, _Identity):
        return key.dead()
    if isinstance(key, (tuple, frozenset)):
        return any(_holds_dead(k) for k in key)
    return False


def _bound_arrays_said(error, fn):
    """`error`, a TypeError of a trace, saying which arguments that `fn`,
    a functools.partial, binds are arrays, when the error is about an array
    inside the traced function: the partial passes them as captured arrays,
    which fuse refuses."""
    if not isinstance(fn, functools.partial) or "inside a traced function" not in str(error):
        return error
    bound = [f"positional argument {i}" for i, a in enumerate(fn.args) if _is_bound_array(a)]
    bound += [f"keyword argument {k!r}" for k, v in fn.keywords.items() if _is_bound_array(v)]
    if bound:
        error.args = (f"{error.args[0]}. The functools.partial that fuse.jit compiles binds "
                      f"{_dtypes.listing(bound)} to an array, which its function gets as "
                      f"an array captured from outside (fuse traces arrays only as "
                      f"arguments of the call): pass it in the call instead, as "
                      f"fuse.jit(f)(w, x) rather than fuse.jit(functools.partial(f, w))(x)",
                      ) + error.args[1:]
    return error


def _is_bound_array(value):
    return isinstance(value, np.ndarray) or type(value).__module__.split(".")[0] in (
        "torch", "cupy")


def _program_for(trace, jitted):
    """The compiled program of `trace` for `jitted`'s target and options,
    and whether it was compiled now."""
    key = (trace.located_mlir, trace.name, jitted.target, jitted.options)
    # Held while compiling, so that threads calling a new function compile it
    # once.
    with _programs_lock:
        program = _programs.get(key)
        if program is not None:
            return program, 0
        try:
            program = _programs[key] = _program.Program(
                trace.located_mlir, entry=trace.name, target=jitted.target,
                fusion=jitted.fusion, options=jitted._options)
        except _capi.FuseError as error:
            # The options, too, are read by the library only here.
            raise _capi.said_by(error, jitted.__name__)
        return program, 1


def _remade(fn, fusion, target, profile, static_argnames, max_cache, options):
    """A pickled _Jitted, read back (_Jitted.__reduce__)."""
    return _Jitted(fn, fusion, target, profile, static_argnames, max_cache, options)


def jit(fn=None, *, fusion=True, target="auto", profile=False, static_argnames=(),
        max_cache=DEFAULT_MAX_CACHE, options=None):
    """Compiles a Python function of arrays with fuse.

    On the first call with a given signature (each array's dtype and rank,
    and which of its sizes are 1; the kind of each Python scalar) the
    function is traced with symbolic Tensors into a fuse program with
    dynamic (`?`) sizes, compiled, and run; later calls with the same
    signature, whatever their sizes and scalar values, run the same compiled
    program. A Python scalar argument (bool, int, float) is a run-time 0-d
    argument that promotes as a Python scalar does (an f16 array times a
    float stays f16); parameters the call leaves out keep their default
    values. Called with traced Tensors (inside another jitted function), the
    function's body traces inline.

    fusion: fuse elementwise ops into kernels (False: one kernel per op,
        like eager PyTorch).
    target: 'cpu', 'cuda' or 'auto' (the GPU when there is one).
    profile: record the kernels of each call in `fn.last_profile` (a list of
        {"name", "bytes", "ms"}, and a "[result R copied]" row for each copy
        of a result that no kernel writes).
    static_argnames: parameters whose values are constants of the trace
        (each value traces and compiles again), for values that Python code
        in the function needs (`if flag:`).
    max_cache: the most signatures (traces and compiled programs) kept,
        least recently used dropped first; None: no bound.
    options: the compiler's options, as the `fuse-lower` pipeline takes
        them (docs/passes.md): a text such as "block-size=128 opt-level=3"
        or a dict {"block_size": 128, "opt_level": 3}.

    Called with `out=` (a numpy array, or a tuple of them for several
    results; unless the function has a parameter of that name or **kwargs),
    the results are written into the caller's arrays, which the call
    returns: on the CPU the kernels write into them directly, with no new
    array and no copy.
    Each must be C-contiguous, writeable, of the result's dtype and shape,
    and share no memory with another output; one over an argument's memory
    (`f(a, b, out=a)`) or not 16-byte aligned (a view at an offset: the
    kernels store whole vectors) gets the result through an array of its
    own, copied into it after the run. When the call raises, what the
    arrays hold is unspecified (some results may be written).

    The jitted function has `.mlir`, `.ptx`, `.trace(*args)`,
    `.cache_info()`, `.cache_clear()`, `.program` and `.max_cache`.
    """
    settings = dict(fusion=fusion, target=target, profile=profile,
                    static_argnames=static_argnames, max_cache=max_cache, options=options)
    if fn is None:
        return lambda f: _Jitted(f, **settings)
    return _Jitted(fn, **settings)


os.register_at_fork(after_in_child=_renew_function_locks)
