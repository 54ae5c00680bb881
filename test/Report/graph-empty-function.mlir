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
