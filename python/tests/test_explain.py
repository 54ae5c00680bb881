"""fuse.explain and fuse.report: kernels, ops and bytes, fused vs eager, in
the format of `fuse-opt --fuse-report`."""

import glob
import html
import os
import re
import shutil
import subprocess

import numpy as np
import pytest

import fuse
from fuse._sizes import size_at, size_text

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def add_relu(a, b):
    return fuse.relu(a + b)


ADD_RELU_REPORT = """\
@add_relu  N = argument 0 dimension 0
  fused: 1 kernel, 12*N bytes (read 8*N, written 4*N)
    kernel            ops       elements  read  written
    fused_add_relu_0  add relu  N         8*N   4*N
  eager: 2 kernels, 20*N bytes (read 12*N, written 8*N)
    kernel  ops   elements  read  written
    add_0   add   N         8*N   4*N
    relu_1  relu  N         4*N   4*N
  fused vs eager: 1 vs 2 kernels, 12*N vs 20*N bytes (0.60x the traffic)
"""


def test_explain_add_relu():
    a = np.ones(1000, np.float32)
    text = fuse.explain(add_relu, a, a)
    assert text == ADD_RELU_REPORT + "  at N = 1000: fused 12,000 bytes, eager 20,000 bytes\n"
    assert "fused: 1 kernel, 12*N bytes" in text
    assert "eager: 2 kernels, 20*N bytes" in text


def test_explain_jitted_function_does_not_run_it():
    f = fuse.jit(add_relu)
    a = np.ones(10, np.float64)
    text = fuse.explain(f, a, a)
    assert "fused: 1 kernel, 24*N bytes" in text and "eager: 2 kernels, 40*N bytes" in text
    assert f.cache_info().compiles == 0 and f.cache_info().traces == 1


def test_explain_full_sum_of_a_matrix():
    # x.sum() of a matrix: one row of N*M (its dimensions collapsed), split
    # in P pieces (1200 elements: 2), each a warp, then a kernel that sums
    # the pieces; the bytes at these sizes add the P f32 partial sums,
    # written and read.
    x = np.ones((30, 40), np.float32)
    text = fuse.explain(lambda x: (x * x).sum(), x)
    assert ("P = pieces per row, N*M / 1024 rounded up to a power of 2 (at most 4096)"
            in text.splitlines()[0])
    assert "fused_mul_reduce_sum_0_pieces  mul reduce_sum  N*M       4*N*M  4*P" in text
    assert "fused_mul_reduce_sum_0_pieces  1     N*M     warp per piece, P pieces per row" in text
    assert text.endswith("  at N = 30, M = 40, P = 2: fused 4,820 bytes, eager 14,420 bytes\n")


def test_explain_broadcast_sizes():
    x, bias = np.ones((8, 16), np.float32), np.ones(16, np.float32)
    text = fuse.explain(lambda x, bias: fuse.relu(x * fuse.sigmoid(bias)), x, bias)
    assert text.startswith("@lambda  N = argument 0 dimension 0, M = argument 0 dimension 1")
    assert "fused: 2 kernels" in text
    assert "at N = 8, M = 16:" in text


def test_explain_bytes_at_a_size_of_zero():
    # No kernel launches over 0 x M elements: the bias's 4*M bytes are in the
    # polynomial, not in the bytes at these sizes, and the profile agrees.
    a, b = np.zeros((0, 5), np.float32), np.zeros(5, np.float32)
    f = fuse.jit(lambda a, b: a + b, target="cpu", profile=True)
    f(a, b)
    assert f.last_profile == []
    text = fuse.explain(f, a, b)
    assert "fused: 1 kernel, 8*N*M + 4*M bytes" in text
    assert text.endswith("  at N = 0, M = 5: fused 0 bytes, eager 0 bytes\n")
    # A kernel with reductions launches over its rows, empty or not: 5 sums
    # of nothing are written (20 bytes).
    h = fuse.jit(lambda a: a.sum(axis=1), target="cpu", profile=True)
    empty_rows = np.zeros((5, 0), np.float32)
    h(empty_rows)
    assert [k["bytes"] for k in h.last_profile] == [20]
    assert fuse.explain(h, empty_rows).endswith(
        "  at N = 5, M = 0: fused 20 bytes, eager 20 bytes\n")


def test_explain_prints_the_text():
    """The result is the text (a str) and shows as the text in a REPL."""
    a = np.ones(1000, np.float32)
    explanation = fuse.explain(add_relu, a, a)
    assert isinstance(explanation, str)
    assert repr(explanation) == str(explanation) == explanation
    assert explanation.startswith(ADD_RELU_REPORT)


def test_explain_graph():
    """The graph of `fuse-opt --fuse-report=dot`, fused and eager."""
    a = np.ones(1000, np.float32)
    explanation = fuse.explain(add_relu, a, a)
    fused = explanation.dot()
    assert fused.count("subgraph cluster_") == 2
    assert 'label="fused_add_relu_0\\nN elements, 12*N bytes (read 8*N, written 4*N)";' in fused
    assert "f0_op0_k0 -> f0_op1_k0;" in fused
    eager = explanation.dot(fusion=False)
    assert eager.count("subgraph cluster_") == 3
    assert 'label="add_0\\nN elements, 12*N bytes (read 8*N, written 4*N)";' in eager
    assert 'label="relu_1\\nN elements, 8*N bytes (read 4*N, written 4*N)";' in eager
    assert 'f0_op0_k0 -> f0_op1_k1 [color="#d93025", fontcolor="#d93025", penwidth=2.5, ' \
        'label="4*N bytes"];' in eager


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not on PATH")
def test_explain_picture_in_jupyter():
    """Jupyter shows the fused picture (SVG), or both pictures and the text
    (HTML)."""
    x, bias = np.ones((8, 16), np.float32), np.ones(16, np.float32)
    explanation = fuse.explain(lambda x, bias: fuse.relu(x * fuse.sigmoid(bias)), x, bias)
    svg = explanation._repr_svg_()
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert "<title>cluster_f0_k1</title>" in svg and "fused_mul_relu_1" in svg
    assert "not fused: this op reads that result" in svg
    page = explanation._repr_html_()
    assert page.count("<svg") == 2 and "relu_2" in page
    assert "<pre>" + html.escape(str(explanation)) + "</pre>" in page
    assert "<script" not in page


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not on PATH")
def test_explain_picture_ids_are_unique_in_a_page():
    """Graphviz numbers the ids of every picture alike (graph0, node1,
    clust1, ...): the two pictures of one output, and the outputs of two
    cells, had the same ids."""
    a = np.ones(8, np.float32)
    explanation = fuse.explain(add_relu, a, a)
    pages = [explanation._repr_html_(), explanation._repr_html_(),
             fuse.explain(add_relu, a, a)._repr_html_(), explanation._repr_svg_()]
    ids = [re.findall(r' id="([^"]*)"', page) for page in pages]
    assert all(ids) and len(ids[0]) == len(set(ids[0]))
    every = [i for page in ids for i in page]
    assert len(every) == len(set(every))
    assert all(re.match(r"fuse-\w+-\d+-(fused|eager)-", i) for i in every)
    assert any(i.endswith("-fused-graph0") for i in ids[0])
    assert any(i.endswith("-eager-graph0") for i in ids[0])


def test_explain_picture_names_the_functions_lines():
    """The picture labels each op with its line of the function (the
    traced text with locations), as the remarks do; it was a line of the
    trace text (<program>:2:8)."""
    a = np.ones(8, np.float32)
    line = add_relu.__code__.co_firstlineno + 1
    for fn in (add_relu, fuse.jit(add_relu)):
        explanation = fuse.explain(fn, a, a)
        for fusion in (True, False):
            dot = explanation.dot(fusion)
            assert "<program>" not in dot
            assert re.search(r'label="fuse\.add\\n[^"]*test_explain\.py:%d:\d+"' % line, dot)
            assert re.search(r'label="fuse\.relu\\n[^"]*test_explain\.py:%d:\d+"' % line, dot)
        assert explanation.startswith(ADD_RELU_REPORT)


@pytest.mark.parametrize("options", [{"horizontal": "off"}, "horizontal=false"])
def test_explain_reports_the_kernels_of_the_functions_options(options):
    """The library's report took no options: of a function jitted with
    horizontal=off (two kernels run) it said one fused kernel, and then
    explain refused such a function. The report, its JSON and its picture
    are of the function's options."""
    def h(a):
        return fuse.exp(a), -a
    f = fuse.jit(h, options=options)
    a = np.ones(64, np.float32)
    explanation = fuse.explain(f, a)
    assert "fused: 2 kernels" in explanation
    assert len(fuse.report(f, a)["functions"][0]["fused"]["kernels"]) == 2
    assert explanation.dot().count("subgraph cluster_f0_k") == 2
    assert fuse.explain(h, a).dot().count("subgraph cluster_f0_k") == 1
    # fusion=False: the pictures of both (it was "'fusion' is given twice").
    eager = fuse.explain(fuse.jit(h, fusion=False), a)
    assert eager.dot().count("subgraph cluster_f0_k") == 1
    assert eager.dot(fusion=False).count("subgraph cluster_f0_k") == 2
    assert f.cache_info().compiles == 0
    # Those of the defaults: one kernel for both results.
    assert "fused: 1 kernel," in fuse.explain(h, a)
    assert len(fuse.report(h, a)["functions"][0]["fused"]["kernels"]) == 1
    # Options of the later stages (the LLVM level, the GPU's exp), and the
    # defaults, leave the report as it is.
    for kept in ({"opt_level": 3, "approx_exp": True}, "horizontal=on", "horizontal",
                 {"horizontal": True, "block_size": 256}):
        assert fuse.explain(fuse.jit(h, options=kept), a) == fuse.explain(h, a)


def test_explain_without_dot_shows_the_text(monkeypatch, tmp_path):
    """Without Graphviz there is no picture, so Jupyter falls back to the
    text."""
    monkeypatch.setenv("PATH", str(tmp_path))
    a = np.ones(10, np.float32)
    explanation = fuse.explain(add_relu, a, a)
    assert explanation._repr_svg_() is None and explanation._repr_html_() is None
    assert "digraph fused {" in explanation.dot()


def test_report_json():
    a = np.ones(4, np.float32)
    report = fuse.report(add_relu, a, a)
    (fn,) = report["functions"]
    assert fn["fused"]["kernel_count"] == 1 and fn["eager"]["kernel_count"] == 2
    assert fn["fused"]["bytes"] == {
        "terms": [{"coefficient": 12, "symbols": ["N"]}], "text": "12*N"}
    assert fn["eager"]["bytes"]["text"] == "20*N"


def test_report_sizes():
    """Sizes are numbers for static shapes, terms for dynamic ones; size_at
    evaluates both."""
    text = """
func.func @f(%x: tensor<?x?xf32>, %s: tensor<200x8xf32>) -> (tensor<?x?xf32>, tensor<200xf32>) {
  %y = fuse.mul %x, %x : tensor<?x?xf32>
  %z = fuse.mul %y, %x : tensor<?x?xf32>
  %r = fuse.reduce_sum %s {dims = array<i64: 1>} : tensor<200x8xf32> -> tensor<200xf32>
  return %z, %r : tensor<?x?xf32>, tensor<200xf32>
}"""
    (fn,) = fuse.report(text)["functions"]
    reduce_kernel = [k for k in fn["fused"]["kernels"] if "rows" in k][0]
    assert reduce_kernel["bytes"] == 200 * 8 * 4 + 200 * 4
    assert reduce_kernel["rows"]["count"] == 200 and reduce_kernel["rows"]["length"] == 8
    assert fn["fused"]["bytes"]["terms"] == [
        {"coefficient": 8, "symbols": ["N", "M"]}, {"coefficient": 7200, "symbols": []}]
    assert size_at(fn["fused"]["bytes"], {"N": 3, "M": 5}) == 8 * 15 + 7200
    assert size_at(7, {}) == 7
    assert fuse.size_at is size_at
    assert size_text(fn["fused"]["bytes"]) == "8*N*M + 7200"
    assert size_text(4096) == "4096"
    # What is not a report size, and a size without its symbol's value.
    with pytest.raises(TypeError, match="size_at takes a size of a report"):
        size_at("12*N", {"N": 1000})
    with pytest.raises(KeyError, match="needs a value for 'N'; given \\['M'\\]"):
        size_at(fn["fused"]["bytes"], {"M": 3})
    with pytest.raises(TypeError, match="size_at takes the sizes as a dict"):
        size_at(fn["fused"]["bytes"], None)
    with pytest.raises(TypeError, match="size_at takes the sizes as a dict"):
        size_at(fn["fused"]["bytes"], [("N", 3)])


def test_report_sizes_of_pieces():
    """The pieces of a row of a dynamic length, counted at run time, are a
    symbol that the report defines, in `sizes` and in each count that uses
    it: size_at evaluates it from the row's length (n / 1024 rounded up to a
    power of 2, at most 4096 for one row, 1024 for 3)."""
    text = """
func.func @f(%v: tensor<?xf32>, %x: tensor<3x?xf32>) -> (tensor<f32>, tensor<3xf32>) {
  %s = fuse.reduce_sum %v {dims = array<i64: 0>} : tensor<?xf32> -> tensor<f32>
  %r = fuse.reduce_sum %x {dims = array<i64: 1>} : tensor<3x?xf32> -> tensor<3xf32>
  return %s, %r : tensor<f32>, tensor<3xf32>
}"""
    (fn,) = fuse.report(text)["functions"]
    assert fn["sizes"] == [
        {"name": "N", "argument": 0, "dimension": 0},
        {"name": "M", "argument": 1, "dimension": 1},
        {"name": "P", "pieces_of": {"terms": [{"coefficient": 1, "symbols": ["N"]}],
                                    "text": "N"},
         "piece_length": 1024, "at_most": 4096},
        {"name": "P2", "pieces_of": {"terms": [{"coefficient": 1, "symbols": ["M"]}],
                                     "text": "M"},
         "piece_length": 1024, "at_most": 1024}]
    total = fn["fused"]["bytes"]
    assert total["text"] == "4*N + 12*M + 8*P + 24*P2 + 16"
    assert sorted(total["where"]) == ["P", "P2"]
    for n, m, p, p2 in [(0, 0, 1, 1), (1024, 1025, 1, 2), (5000, 2049, 8, 4),
                        (10**8, 10**8, 4096, 1024)]:
        assert size_at(total, {"N": n, "M": m}) == 4 * n + 12 * m + 8 * p + 24 * p2 + 16
        assert fuse._sizes.sizes_at(fn, [(n,), (3, m)]) == {"N": n, "M": m, "P": p, "P2": p2}
    # A value given for the pieces is taken as given.
    assert size_at(total, {"N": 0, "M": 0, "P": 2, "P2": 0}) == 32


def test_report_sizes_of_column_pieces():
    """Columns of a dynamic number share their pieces at run time: the
    symbol says so ("rows"), and size_at evaluates it from both sizes (n / 32
    rounded up to a power of 2, at most 262144 / m with m rounded up to a
    power of 2)."""
    text = """
func.func @f(%x: tensor<?x?xf32>) -> tensor<?xf32> {
  %s = fuse.reduce_sum %x {dims = array<i64: 0>} : tensor<?x?xf32> -> tensor<?xf32>
  return %s : tensor<?xf32>
}"""
    (fn,) = fuse.report(text)["functions"]
    rows = {"terms": [{"coefficient": 1, "symbols": ["M"]}], "text": "M"}
    assert fn["sizes"][2] == {
        "name": "P", "pieces_of": {"terms": [{"coefficient": 1, "symbols": ["N"]}],
                                   "text": "N"},
        "piece_length": 32, "at_most": 262144, "rows": rows}
    total = fn["fused"]["bytes"]
    assert total["text"] == "4*N*M + 8*M*P + 4*M"
    for n, m, p in [(0, 0, 1), (32, 5, 1), (33, 5, 2), (5000, 33, 256), (100003, 64, 4096),
                    (40, 70000, 2), (3, 200000, 1), (10**6, 1000, 256)]:
        assert size_at(total, {"N": n, "M": m}) == 4 * n * m + 8 * m * p + 4 * m
        assert fuse._sizes.sizes_at(fn, [(n, m)])["P"] == p


def _fuse_opt():
    lib_dir = os.environ.get("FUSE_LIB_DIR", os.path.join(REPO, "build", "lib"))
    path = os.path.join(lib_dir, os.pardir, "bin", "fuse-opt")
    return path if os.path.exists(path) else None


@pytest.mark.skipif(_fuse_opt() is None, reason="fuse-opt is not built")
@pytest.mark.parametrize("example", sorted(glob.glob(os.path.join(REPO, "examples", "*.mlir")))
                         + [os.path.join(REPO, "test", "Report", "report.mlir")],
                         ids=os.path.basename)
def test_explain_text_matches_fuse_opt(example):
    text = open(example).read()
    expected = subprocess.run([_fuse_opt(), example, "--fuse-report"], check=True,
                              capture_output=True, text=True).stdout
    assert fuse.explain(text) == expected


def _without_locations(dot):
    return re.sub(r'\\n[^"\\]*:\d+:\d+', "", dot)


@pytest.mark.skipif(_fuse_opt() is None, reason="fuse-opt is not built")
@pytest.mark.parametrize("fusion", ["on", "off"])
@pytest.mark.parametrize("example", sorted(glob.glob(os.path.join(REPO, "examples", "*.mlir"))),
                         ids=os.path.basename)
def test_explain_graph_matches_fuse_opt(example, fusion):
    """The same graph as `fuse-opt --fuse-report=dot`, but for the name of
    the file in the locations."""
    expected = subprocess.run([_fuse_opt(), example, "--fuse-report=dot", f"--fusion={fusion}"],
                              check=True, capture_output=True, text=True).stdout
    graph = fuse.explain(open(example).read()).dot(fusion=fusion == "on")
    assert _without_locations(graph) == _without_locations(expected)


def test_explain_text_at_arrays_sizes():
    # MLIR text with its arguments: the byte counts at their sizes, as for a
    # traced function (softmax: 8 bytes per element fused, the report's
    # 8*N*M; eager 32*N*M + 16*N).
    text = open(os.path.join(REPO, "examples", "softmax.mlir")).read()
    explanation = fuse.explain(text, np.ones((6, 10), np.float32))
    assert explanation.endswith("  at N = 6, M = 10: fused 480 bytes, eager 2,016 bytes\n")
    assert explanation.startswith(fuse.explain(text).rstrip("\n"))


@pytest.mark.parametrize("args,kwargs,match", [
    ((np.ones(10, np.float32),), {},
     r"^fuse\.explain: argument 0 of @softmax is tensor<\?x\?xf32>; the array's shape is "
     r"\(10,\)$"),
    ((), {"x": np.ones((2, 2))},
     r"^fuse\.explain: the arguments of MLIR text are arrays in order, not keywords \(x\)$"),
    ((np.ones((2, 2), np.int32),), {},
     r"^fuse\.explain: argument 0 of @softmax is tensor<\?x\?xf32>; the array's dtype is "
     r"int32$"),
], ids=["rank", "keywords", "dtype"])
def test_explain_text_bad_arrays(args, kwargs, match):
    text = open(os.path.join(REPO, "examples", "softmax.mlir")).read()
    with pytest.raises(TypeError, match=match):
        fuse.explain(text, *args, **kwargs)


def test_explain_refuses_sizes_that_a_run_refuses():
    # Sizes that broadcasting assumes equal, each read from the first
    # argument that has it: the bytes were counted for a call that every
    # runner refuses (10 and 7, 120 bytes).
    add_relu = open(os.path.join(REPO, "examples", "add_relu.mlir")).read()
    broadcast = open(os.path.join(REPO, "examples", "broadcast.mlir")).read()
    static = """func.func @f(%x: tensor<?xf32>, %w: tensor<4xf32>) -> tensor<4xf32> {
  %0 = fuse.add %x, %w : tensor<?xf32>, tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}"""
    ten, seven = np.ones(10, np.float32), np.ones(7, np.float32)
    for fn, args, message in [
            (add_relu, (ten, seven), "dimension 0 of argument 1 of @add_relu (tensor<?xf32>) is "
                                     "7, and a run needs N = 10, dimension 0 of argument 0"),
            (lambda a, b: fuse.relu(a + b), (ten, seven),
             "dimension 0 of argument 1 of @lambda (tensor<?xf32>) is 7, and a run needs "
             "N = 10, dimension 0 of argument 0"),
            (broadcast, (np.ones((3, 5), np.float32), np.ones(4, np.float32)),
             "dimension 0 of argument 1 of @broadcast (tensor<?xf32>) is 4, and a run needs "
             "M = 5, dimension 1 of argument 0"),
            (static, (np.ones(5, np.float32), np.ones(4, np.float32)),
             "dimension 0 of argument 0 of @f (tensor<?xf32>) is 5, and a run needs 4")]:
        with pytest.raises(ValueError) as error:
            fuse.explain(fn, *args)
        assert str(error.value) == (f"fuse.explain: {message} (the sizes that broadcasting "
                                    f"assumes equal); a call with these arrays would fail")
    assert fuse.explain(static, np.ones(4, np.float32), np.ones(4, np.float32)).endswith(
        "  at these sizes: fused 48 bytes, eager 48 bytes\n")


def test_explain_text_of_two_functions_with_arrays():
    text = open(os.path.join(REPO, "test", "Report", "report.mlir")).read()
    with pytest.raises(TypeError, match=r"^fuse\.explain: arrays give the sizes of one "
                                        r"function's arguments, and this text has \d+ "
                                        r"functions; explain each alone$"):
        fuse.explain(text, np.ones(3, np.float32), np.ones(3, np.float32))


@pytest.mark.parametrize("arrays,match", [
    ((np.ones((2, 2), np.float32), np.ones(10, np.float32)),
     r"^fuse\.explain: argument 0 of @add_relu is tensor<\?xf32>; the array's shape is "
     r"\(2, 2\)$"),
    ((np.ones(10, np.float32),) * 3,
     r"^fuse\.explain: @add_relu takes 2 argument\(s\), and 3 arrays were given$"),
], ids=["rank", "count"])
def test_explain_text_checks_arrays_against_the_signature(arrays, match):
    text = open(os.path.join(REPO, "examples", "add_relu.mlir")).read()
    with pytest.raises(TypeError, match=match):
        fuse.explain(text, *arrays)
    assert fuse.report(text)["functions"][0]["arguments"] == ["tensor<?xf32>", "tensor<?xf32>"]
