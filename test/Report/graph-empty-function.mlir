// A function with no argument, op or result has a cluster with a note in
// it: Graphviz leaves out an empty cluster, and the function was missing
// from the picture (and from the page's pictures) while the text report
// lists it.
// RUN: fuse-opt %s --fuse-report=dot | FileCheck %s
// RUN: fuse-opt %s --fuse-report=dot --fusion=off | FileCheck %s
// RUN: %if dot %{ fuse-opt %s --fuse-report=dot | dot -Tsvg | FileCheck %s --check-prefix=SVG %}

// CHECK:      subgraph cluster_f0 {
// CHECK-NEXT:   label="@nothing  {{fused|eager}}: 0 kernels, 0 bytes (read 0, written 0)\l";
// CHECK-NEXT:   labelloc=t;
// CHECK-NEXT:   f0_empty [label="no arguments, ops or results", shape=plaintext, fontcolor="#5f6368"];
// CHECK-NEXT: }
// SVG: @nothing &#160;fused: 0 kernels
// SVG: no arguments, ops or results

func.func @nothing() {
  return
}

// An op that no kernel computes but whose value is used is a view of its
// operand (a reduction over a dimension of size 1), not "unused"; the
// result, a view of an argument, is copied.
// CHECK:      subgraph cluster_f1 {
// CHECK:        f1_op0 [label="fuse.reduce_sum\n{dims = array<i64: 1>}\n{{.*}}graph-empty-function.mlir:[[@LINE+3]]:8\n(no kernel: a view of its operand)", style=dashed, fontcolor="#5f6368"];
// CHECK:        f1_op0 -> f1_result0 [style=dashed, color="#d93025", fontcolor="#d93025", penwidth=2.5, label="copied (no kernel)\n8*N bytes (read 4*N, written 4*N)"];
func.func @view(%a: tensor<?x1xf32>) -> tensor<?xf32> {
  %s = fuse.reduce_sum %a {dims = array<i64: 1>} : tensor<?x1xf32> -> tensor<?xf32>
  return %s : tensor<?xf32>
}
