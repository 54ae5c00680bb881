"""fuse.explain: what fusion buys for a function, as `fuse-opt --fuse-report`
prints it (kernels, ops, bytes; fused vs eager: the C++ report's own text),
and as the picture of `--fuse-report=dot` in Jupyter."""

import html
import itertools
import secrets
import shutil
import subprocess

import numpy as np

from . import _capi, _dtypes, _jit
from ._sizes import sizes_at, variant_bytes_at


def format_report(text, report=None, arrays=None):
    """`text`, the report as `fuse-opt --fuse-report` prints it; with
    `arrays` (the arguments) and `report` (its JSON), each function's block
    followed by its byte counts at their sizes."""
    if arrays is None:
        return text
    blocks = text.rstrip("\n").split("\n\n")
    for i, fn in enumerate(report["functions"]):
        values = sizes_at(fn, [a.shape for a in arrays])
        _check_shapes(fn, arrays, values)
        at = ", ".join(f"{k} = {v}" for k, v in values.items())
        fb = variant_bytes_at(fn["fused"], values)
        eb = variant_bytes_at(fn["eager"], values)
        blocks[i] += f"\n  at {at or 'these sizes'}: fused {fb:,} bytes, eager {eb:,} bytes"
    return "\n\n".join(blocks) + "\n"


def _check_shapes(fn, arrays, values):
    """Refuses arrays that a run would refuse for their sizes: each size
    the report's "shapes" gives a number or a symbol (a size that
    broadcasting asserts equal to the symbol's) must be that. Counted at
    such sizes, the bytes were those of a call that cannot run."""
    for i, (array, dims) in enumerate(zip(arrays, fn["shapes"])):
        for d, (size, dim) in enumerate(zip(array.shape, dims)):
            if isinstance(dim, str):
                symbol = next(s for s in fn["sizes"] if s["name"] == dim)
                where = (f"{dim} = {values[dim]}, dimension {symbol['dimension']} of argument "
                         f"{symbol['argument']}")
                dim = values[dim]
            else:
                where = str(dim)
            if dim is not None and size != dim:
                raise ValueError(
                    f"fuse.explain: dimension {d} of argument {i} of @{fn['name']} "
                    f"({fn['arguments'][i]}) is {size}, and a run needs {where} (the sizes "
                    f"that broadcasting assumes equal); a call with these arrays would fail")


def _check_function(fn, what):
    if not callable(fn):
        raise TypeError(f"{what} takes a function (jitted or not) or fuse MLIR text, not "
                        f"{type(fn).__name__} {fn!r}")


def report(fn, *args, **kwargs):
    """The report as the JSON object of `fuse-opt --fuse-report=json`, for a
    function traced with these arguments (or for MLIR text)."""
    if isinstance(fn, str):
        return _capi.report_json(fn)
    _check_function(fn, "fuse.report")
    jitted = _jitted(fn)
    trace, _ = jitted._trace_and_arrays(args, kwargs)
    return _capi.report_json(trace.located_mlir, jitted.options)


def _jitted(fn):
    """`fn` as a jitted function, to trace."""
    return fn if isinstance(fn, _jit._Jitted) else _jit.jit(fn)


def report_dot(text, fusion=True):
    """The Graphviz graph of `fuse-opt --fuse-report=dot` for MLIR text: the
    fused kernels, or the eager ones with fusion=False."""
    return _capi.report_dot(text, _capi.option_text(fusion))


# What makes each picture's element ids unique: a token of this process
# (a notebook keeps the pictures of the kernels run before) and a count
# of the pictures it shows.
_PROCESS_TOKEN = secrets.token_hex(4)
_RENDERINGS = itertools.count(1)


def unique_ids(svg, variant):
    """`svg` with each element id (` id="..."`) prefixed by a prefix of its
    own: Graphviz numbers them graph0, node1, clust1, ... in every picture,
    and the ids of an HTML document (a notebook's outputs, the two
    pictures of one) must differ."""
    if svg is None:
        return None
    prefix = f"fuse-{_PROCESS_TOKEN}-{next(_RENDERINGS)}-{variant}-"
    return svg.replace(' id="', ' id="' + prefix)


def render_svg(dot):
    """The <svg> element that Graphviz's `dot` draws for DOT text, or None
    when `dot` is not on PATH or fails. Its ids are Graphviz's (unique_ids
    makes them unique in a page)."""
    program = shutil.which("dot")
    if program is None:
        return None
    result = subprocess.run([program, "-Tsvg"], input=dot, capture_output=True, text=True)
    start = result.stdout.find("<svg")
    if result.returncode != 0 or start < 0:
        return None
    # Without the XML prolog and the DOCTYPE, the SVG can go inside HTML.
    return result.stdout[start:]


class Explanation(str):
    """The report of `fuse.explain`: a str holding the text (print it,
    compare it, search it), which Jupyter shows as the picture of the
    kernels, fused and eager side by side (`_repr_html_`; `_repr_svg_` is
    the fused picture alone). The pictures need Graphviz's `dot` on PATH;
    without it Jupyter shows the text."""

    def __new__(cls, text, mlir=None, options=""):
        self = super().__new__(cls, text)
        self.mlir = mlir
        # The compiler's options (a jitted function's), which the pictures
        # take as the report did.
        self._options = options
        self._svg = {}
        return self

    def __repr__(self):
        return str(self)

    def dot(self, fusion=True):
        """The Graphviz graph of the fused kernels (fusion=False: eager)."""
        # The function's options but its fusion=, which this picture's
        # replaces (the library refuses an option given twice).
        options = " ".join(option for option in self._options.split()
                           if not option.startswith("fusion="))
        switch = "on" if _capi.switch(fusion) else "off"
        return _capi.report_dot(self.mlir, f"{options} fusion={switch}".strip())

    def svg(self, fusion=True):
        """That graph drawn as SVG, or None without Graphviz's `dot`. The
        ids of its elements begin with a prefix unique to this call, so
        that pictures put in one page (a notebook's) have none in common."""
        fusion = bool(fusion)
        if fusion not in self._svg:
            self._svg[fusion] = render_svg(self.dot(fusion))
        return unique_ids(self._svg[fusion], "fused" if fusion else "eager")

    def _repr_svg_(self):
        return self.svg(True)

    def _repr_html_(self):
        fused, eager = self.svg(True), self.svg(False)
        if fused is None or eager is None:
            return None
        figure = ('<figure style="flex: 1 1 20em; margin: 0"><figcaption><b>{}</b>'
                  '</figcaption>{}</figure>')
        return ('<div style="display: flex; flex-wrap: wrap; gap: 1em; align-items: flex-start">'
                + figure.format("Fused", fused)
                + figure.format("Eager: one kernel per op", eager)
                + "</div><pre>" + html.escape(str(self)) + "</pre>")


def explain(fn, *args, **kwargs):
    """What fusion does to `fn` called with these arguments: its kernels,
    their ops and the bytes they move, fused vs eager, in the format of
    `fuse-opt --fuse-report`, then the byte counts at these arguments'
    sizes. `fn` is a function (jitted or not; it is traced, not run) or
    fuse MLIR text (of one function, `args` its arguments in order, for
    the byte counts; none for the report alone). A jitted function whose
    options change its kernels (horizontal=off, a block size) is reported
    with them. The result is that text
    (an `Explanation`, a str), which Jupyter shows as the picture of the
    kernels."""
    if isinstance(fn, str):
        text = _capi.report_text(fn)
        if not args and not kwargs:
            return Explanation(text, fn)
        if kwargs:
            raise TypeError("fuse.explain: the arguments of MLIR text are arrays in order, "
                            f"not keywords ({', '.join(kwargs)})")
        report = _capi.report_json(fn)
        if len(report["functions"]) != 1:
            raise TypeError(f"fuse.explain: arrays give the sizes of one function's arguments, "
                            f"and this text has {len(report['functions'])} functions; "
                            f"explain each alone")
        arrays = [np.asarray(a) for a in args]
        function = report["functions"][0]
        types = function["arguments"]
        if len(arrays) != len(types):
            raise TypeError(f"fuse.explain: @{function['name']} takes {len(types)} "
                            f"argument(s), and {len(arrays)} arrays were given")
        for i, (array, type_text) in enumerate(zip(arrays, types)):
            # tensor<4x?xf32>: the sizes before the element type.
            shape = type_text[len("tensor<"):-1].split("x")[:-1]
            if array.ndim != len(shape) or any(
                    s != "?" and int(s) != n for s, n in zip(shape, array.shape)):
                raise TypeError(f"fuse.explain: argument {i} of @{function['name']} is "
                                f"{type_text}; the array's shape is {array.shape}")
            element = type_text[len("tensor<"):-1].split("x")[-1]
            if _dtypes.numpy_name(array.dtype) != element:
                raise TypeError(f"fuse.explain: argument {i} of @{function['name']} is "
                                f"{type_text}; the array's dtype is {array.dtype}")
        return Explanation(format_report(text, report, arrays), fn)
    _check_function(fn, "fuse.explain")
    jitted = _jitted(fn)
    trace, arrays = jitted._trace_and_arrays(args, kwargs)
    # The text with the ops' locations (what is compiled): the picture
    # names each op's line of the function, as the remarks do. The report
    # is of the function's options (horizontal=off has other kernels).
    mlir = trace.located_mlir
    text = format_report(_capi.report_text(mlir, jitted.options),
                         _capi.report_json(mlir, jitted.options), arrays)
    return Explanation(text, mlir, jitted.options)
