"""fuse.explain: what fusion buys for a function, as `fuse-opt --fuse-report`
prints it (kernels, ops, bytes; fused vs eager), and as the picture of
`--fuse-report=dot` in Jupyter."""

import ctypes
import html
import re
import shutil
import subprocess

from . import _capi, _jit

_TERM_SPLIT = re.compile(r" ([+-]) ")


def parse_size(text):
    """A byte or element count of the report ('8*N*M + 12*N', '4096') as
    {tuple of sorted symbols: coefficient}."""
    terms = {}
    text = text.strip()
    sign = 1
    if text.startswith("-"):
        sign, text = -1, text[1:]
    parts = _TERM_SPLIT.split(text)
    for i in range(0, len(parts), 2):
        if i:
            sign = -1 if parts[i - 1] == "-" else 1
        coefficient, symbols = 1, []
        for factor in parts[i].split("*"):
            if factor.isdigit():
                coefficient *= int(factor)
            else:
                symbols.append(factor)
        monomial = tuple(sorted(symbols))
        terms[monomial] = terms.get(monomial, 0) + sign * coefficient
    return {m: c for m, c in terms.items() if c}


def evaluate(text, values):
    """The value of a report count for {symbol: size}."""
    total = 0
    for monomial, coefficient in parse_size(text).items():
        product = coefficient
        for symbol in monomial:
            product *= values[symbol]
        total += product
    return total


def _ratio(eager, fused):
    """fused/eager when one is a multiple of the other (as the C++ report)."""
    e, f = parse_size(eager), parse_size(fused)
    if not e or set(e) != set(f):
        return None
    ratios = {f[m] / c for m, c in e.items()}
    return ratios.pop() if len(ratios) == 1 else None


def _plural(n, word):
    return f"{n} {word}{'' if n == 1 else 's'}"


def _table(rows, indent):
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = [cell.ljust(widths[i] + 2) if i + 1 < len(row) else cell
                 for i, cell in enumerate(row)]
        lines.append(indent + "".join(cells))
    return lines


def _variant(label, variant):
    lines = [f"  {label}: {_plural(variant['kernel_count'], 'kernel')}, {variant['bytes']} bytes "
             f"(read {variant['bytes_read']}, written {variant['bytes_written']})"]
    rows = [["kernel", "ops", "elements", "read", "written"]]
    for k in variant["kernels"]:
        rows.append([k["name"], " ".join(k["ops"]), k["elements"], k["bytes_read"],
                     k["bytes_written"]])
    return lines + _table(rows, "    ")


def _rows(variant):
    """How the kernels with reductions take their rows (fused variant)."""
    rows = [["kernel with reductions", "rows", "length", "GPU", "CPU"]]
    for k in variant["kernels"]:
        if "rows" in k:
            r = k["rows"]
            rows.append([k["name"], r["count"], r["length"], r["gpu"], r["cpu"]])
    return _table(rows, "    ") if len(rows) > 1 else []


def format_report(report, arrays=None):
    """The text of `fuse-opt --fuse-report` from its JSON; with `arrays`
    (the arguments), also the byte counts at their sizes."""
    blocks = []
    for fn in report["functions"]:
        header = f"@{fn['name']}"
        for j, s in enumerate(fn["sizes"]):
            header += f"{', ' if j else '  '}{s['name']} = argument {s['argument']} " \
                      f"dimension {s['dimension']}"
        fused, eager = fn["fused"], fn["eager"]
        lines = ([header] + _variant("fused", fused) + _rows(fused)
                 + _variant("eager", eager))
        line = (f"  fused vs eager: {fused['kernel_count']} vs "
                f"{_plural(eager['kernel_count'], 'kernel')}, {fused['bytes']} vs "
                f"{eager['bytes']} bytes")
        ratio = _ratio(eager["bytes"], fused["bytes"])
        if ratio is not None:
            line += f" ({ratio:.2f}x the traffic)"
        lines.append(line)
        if arrays is not None:
            values = {s["name"]: arrays[s["argument"]].shape[s["dimension"]]
                      for s in fn["sizes"]}
            at = ", ".join(f"{k} = {v}" for k, v in values.items())
            fb, eb = evaluate(fused["bytes"], values), evaluate(eager["bytes"], values)
            lines.append(f"  at {at or 'these sizes'}: fused {fb:,} bytes, eager {eb:,} bytes")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n"


def report(fn, *args, **kwargs):
    """The report as the JSON object of `fuse-opt --fuse-report=json`, for a
    function traced with these arguments (or for MLIR text)."""
    if isinstance(fn, str):
        return _capi.report_json(fn)
    jitted = fn if isinstance(fn, _jit._Jitted) else _jit.jit(fn)
    trace, _ = jitted._trace_and_arrays(args, kwargs)
    return _capi.report_json(trace.mlir)


def report_dot(text, fusion=True):
    """The Graphviz graph of `fuse-opt --fuse-report=dot` for MLIR text: the
    fused kernels, or the eager ones with fusion=False."""
    lib = _capi.lib()
    fn = lib.fuse_report_dot
    fn.restype = ctypes.c_void_p
    fn.argtypes = [ctypes.c_char_p, ctypes.c_int32, ctypes.POINTER(ctypes.c_void_p)]
    error = ctypes.c_void_p()
    ptr = fn(text.encode(), 1 if fusion else 0, ctypes.byref(error))
    if not ptr:
        _capi.check_error(error, "fuse_report_dot")
    return _capi.take_string(ptr)


def render_svg(dot):
    """The <svg> element that Graphviz's `dot` draws for DOT text, or None
    when `dot` is not on PATH or fails."""
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

    def __new__(cls, text, mlir=None):
        self = super().__new__(cls, text)
        self.mlir = mlir
        self._svg = {}
        return self

    def __repr__(self):
        return str(self)

    def dot(self, fusion=True):
        """The Graphviz graph of the fused kernels (fusion=False: eager)."""
        return report_dot(self.mlir, fusion)

    def svg(self, fusion=True):
        """That graph drawn as SVG, or None without Graphviz's `dot`."""
        if fusion not in self._svg:
            self._svg[fusion] = render_svg(self.dot(fusion))
        return self._svg[fusion]

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
    fuse MLIR text. The result is that text (an `Explanation`, a str),
    which Jupyter shows as the picture of the kernels."""
    if isinstance(fn, str):
        return Explanation(format_report(_capi.report_json(fn)), fn)
    jitted = fn if isinstance(fn, _jit._Jitted) else _jit.jit(fn)
    trace, arrays = jitted._trace_and_arrays(args, kwargs)
    return Explanation(format_report(_capi.report_json(trace.mlir), arrays), trace.mlir)
