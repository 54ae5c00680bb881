// RUN: fuse-opt %s --fuse-report=dot | FileCheck %s --check-prefix=FUSED
// RUN: fuse-opt %s --fuse-report=dot --fusion=off | FileCheck %s --check-prefix=EAGER

// --fuse-report=dot: one digraph for the module, one cluster per function,
// and in it one cluster per kernel, labelled with the text report's name
// and counts, around the ops it computes. Edges inside a kernel are plain
// (black); an edge between two kernels is a value written to memory and
// read back: red, labelled with the value's bytes and, fused, with the
// reason of the fusion pass's remark. Arguments, results and constants are
// gray; arguments are drawn in order on one row, results on another.
// Kernels are numbered across the module, as in the text report.

// FUSED: // Fused kernels, drawn by fuse-opt --fuse-report=dot; render with `dot -Tsvg`.
// FUSED-NEXT: digraph fused {
// EAGER: // Eager kernels, drawn by fuse-opt --fuse-report=dot; render with `dot -Tsvg`.
// EAGER-NEXT: digraph eager {

func.func @add_relu(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %0 = fuse.add %a, %b : tensor<?xf32>
  %1 = fuse.relu %0 : tensor<?xf32>
  return %1 : tensor<?xf32>
}
// Fused: one kernel holds both ops; the sum stays inside it.
// FUSED-LABEL: subgraph cluster_f0 {
// FUSED-NEXT:    label="@add_relu  fused: 1 kernel, 12*N bytes (read 8*N, written 4*N)\lN = argument 0 dimension 0\l";
// FUSED-NEXT:    labelloc=t; style=rounded; color="#5f6368"; fontsize=12;
// FUSED-NEXT:    f0_arg0 [label="argument 0\ntensor<?xf32>", style="rounded,filled", fillcolor="#f1f3f4"];
// FUSED-NEXT:    f0_arg1 [label="argument 1\ntensor<?xf32>", style="rounded,filled", fillcolor="#f1f3f4"];
// FUSED-NEXT:    { rank=same; f0_arg0 -> f0_arg1 [style=invis]; }
// FUSED-NEXT:    subgraph cluster_f0_k0 {
// FUSED-NEXT:      label="fused_add_relu_0\nN elements, 12*N bytes (read 8*N, written 4*N)";
// FUSED-NEXT:      style="rounded,filled"; fillcolor="#e8f0fe"; color="#1a73e8"; fontsize=10;
// FUSED-NEXT:      f0_op0_k0 [label="fuse.add\n{{.*}}graph.mlir:[[@LINE-14]]:8", style=filled, fillcolor=white];
// FUSED-NEXT:      f0_op1_k0 [label="fuse.relu\n{{.*}}graph.mlir:[[@LINE-14]]:8", style=filled, fillcolor=white];
// FUSED-NEXT:    }
// FUSED-NEXT:    f0_result0 [label="result 0\ntensor<?xf32>", style="rounded,filled", fillcolor="#f1f3f4"];
// FUSED-NEXT:    f0_arg0 -> f0_op0_k0 [color="#5f6368"];
// FUSED-NEXT:    f0_arg1 -> f0_op0_k0 [color="#5f6368"];
// FUSED-NEXT:    f0_op0_k0 -> f0_op1_k0;
// FUSED-NEXT:    f0_op1_k0 -> f0_result0 [color="#5f6368"];
// FUSED-NEXT:  }
// Eager: two kernels, and the sum (4*N bytes) goes through memory.
// EAGER-LABEL: subgraph cluster_f0 {
// EAGER-NEXT:    label="@add_relu  eager: 2 kernels, 20*N bytes (read 12*N, written 8*N)\lN = argument 0 dimension 0\l";
// EAGER:         subgraph cluster_f0_k0 {
// EAGER-NEXT:      label="add_0\nN elements, 12*N bytes (read 8*N, written 4*N)";
// EAGER-NEXT:      style=
// EAGER-NEXT:      f0_op0_k0 [label="fuse.add\n{{.*}}graph.mlir:[[@LINE-29]]:8"
// EAGER-NEXT:    }
// EAGER-NEXT:    subgraph cluster_f0_k1 {
// EAGER-NEXT:      label="relu_1\nN elements, 8*N bytes (read 4*N, written 4*N)";
// EAGER-NEXT:      style=
// EAGER-NEXT:      f0_op1_k1 [label="fuse.relu\n{{.*}}graph.mlir:[[@LINE-33]]:8"
// EAGER-NEXT:    }
// EAGER:         f0_op0_k0 -> f0_op1_k1 [color="#d93025", fontcolor="#d93025", penwidth=2.5, label="4*N bytes"];
// EAGER-NEXT:    f0_op1_k1 -> f0_result0 [color="#5f6368"];
// EAGER-NEXT:  }

func.func @gate(%x: tensor<?x?xf32>, %g: tensor<?xf32>) -> tensor<?x?xf32> {
  %0 = fuse.sigmoid %g : tensor<?xf32>
  %1 = fuse.mul %x, %0 : tensor<?x?xf32>, tensor<?xf32> -> tensor<?x?xf32>
  %2 = fuse.relu %1 : tensor<?x?xf32>
  return %2 : tensor<?x?xf32>
}
// Partly fused: the gate over [M] is read broadcast over [N,M], so it is
// its own kernel; its 4*M bytes go through memory, with the reason.
// FUSED-LABEL: subgraph cluster_f1 {
// FUSED-NEXT:    label="@gate  fused: 2 kernels, 8*N*M + 12*M bytes (read 4*N*M + 8*M, written 4*N*M + 4*M)\lN = argument 0 dimension 0, M = argument 0 dimension 1\l";
// FUSED:         subgraph cluster_f1_k0 {
// FUSED-NEXT:      label="sigmoid_1\nM elements, 8*M bytes (read 4*M, written 4*M)";
// FUSED-NEXT:      style=
// FUSED-NEXT:      f1_op0_k0 [label="fuse.sigmoid\n{{.*}}graph.mlir:[[@LINE-12]]:8"
// FUSED-NEXT:    }
// FUSED-NEXT:    subgraph cluster_f1_k1 {
// FUSED-NEXT:      label="fused_mul_relu_2\nN*M elements, 8*N*M + 4*M bytes (read 4*N*M + 4*M, written 4*N*M)";
// FUSED-NEXT:      style=
// FUSED-NEXT:      f1_op1_k1 [label="fuse.mul\n{{.*}}graph.mlir:[[@LINE-16]]:8"
// FUSED-NEXT:      f1_op2_k1 [label="fuse.relu\n{{.*}}graph.mlir:[[@LINE-16]]:8"
// FUSED-NEXT:    }
// FUSED-NEXT:    f1_result0 [label="result 0\ntensor<?x?xf32>"
// FUSED-NEXT:    f1_arg1 -> f1_op0_k0 [color="#5f6368"];
// FUSED-NEXT:    f1_arg0 -> f1_op1_k1 [color="#5f6368"];
// FUSED-NEXT:    f1_op0_k0 -> f1_op1_k1 [color="#d93025", fontcolor="#d93025", penwidth=2.5, label="4*M bytes\nnot fused: this op reads that result\nbroadcast from tensor<?xf32> to\ntensor<?x?xf32>, so the two iterate over\ndifferent spaces, and that op is not\ncomputed again at each of this op's\nelements: it has a math function ('exp')"];
// FUSED-NEXT:    f1_op1_k1 -> f1_op2_k1;
// FUSED-NEXT:    f1_op2_k1 -> f1_result0 [color="#5f6368"];
// FUSED-NEXT:  }
// Eager: three kernels, two red edges, no remarks (fusion did not run).
// EAGER-LABEL: subgraph cluster_f1 {
// EAGER-NEXT:    label="@gate  eager: 3 kernels, 16*N*M + 12*M bytes (read 8*N*M + 8*M, written 8*N*M + 4*M)\lN = argument 0 dimension 0, M = argument 0 dimension 1\l";
// EAGER:         label="sigmoid_2\nM elements, 8*M bytes (read 4*M, written 4*M)";
// EAGER:         label="mul_3\nN*M elements, 8*N*M + 4*M bytes (read 4*N*M + 4*M, written 4*N*M)";
// EAGER:         label="relu_4\nN*M elements, 8*N*M bytes (read 4*N*M, written 4*N*M)";
// EAGER:         f1_op0_k0 -> f1_op1_k1 [color="#d93025", fontcolor="#d93025", penwidth=2.5, label="4*M bytes"];
// EAGER-NEXT:    f1_op1_k1 -> f1_op2_k2 [color="#d93025", fontcolor="#d93025", penwidth=2.5, label="4*N*M bytes"];

func.func @scaled(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %half = fuse.constant 0.5 : tensor<f32>
  %unused = fuse.exp %x : tensor<4xf32>
  %0 = fuse.mul %x, %half : tensor<4xf32>, tensor<f32> -> tensor<4xf32>
  %1 = fuse.mul %0, %0 : tensor<4xf32>
  return %1, %x : tensor<4xf32>, tensor<4xf32>
}
// Static sizes; a constant (folded into the kernel: a dashed edge), an op
// nothing uses (no kernel), an op that reads one value twice (one edge) and
// an argument returned as it is, copied (a red dashed edge with its bytes).
// FUSED-LABEL: subgraph cluster_f2 {
// FUSED-NEXT:    label="@scaled  fused: 1 kernel, 64 bytes (read 32, written 32)\l";
// FUSED:         subgraph cluster_f2_k0 {
// FUSED-NEXT:      label="fused_mul_mul_3\n4 elements, 32 bytes (read 16, written 16)";
// FUSED-NEXT:      style=
// FUSED-NEXT:      f2_op2_k0 [label="fuse.mul\n{{.*}}graph.mlir:[[@LINE-12]]:8"
// FUSED-NEXT:      f2_op3_k0 [label="fuse.mul\n{{.*}}graph.mlir:[[@LINE-12]]:8"
// FUSED-NEXT:    }
// FUSED-NEXT:    f2_op0 [label="fuse.constant 0.5\n{{.*}}graph.mlir:[[@LINE-17]]:11", style=dashed];
// FUSED-NEXT:    f2_op1 [label="fuse.exp\n{{.*}}graph.mlir:[[@LINE-17]]:13\n(unused: no kernel computes it)", style=dashed, fontcolor="#5f6368"];
// FUSED-NEXT:    f2_result0 [label="result 0\ntensor<4xf32>"
// FUSED-NEXT:    f2_result1 [label="result 1\ntensor<4xf32>"
// FUSED-NEXT:    { rank=same; f2_result0 -> f2_result1 [style=invis]; }
// FUSED-NEXT:    f2_arg0 -> f2_op1 [color="#5f6368"];
// FUSED-NEXT:    f2_arg0 -> f2_op2_k0 [color="#5f6368"];
// FUSED-NEXT:    f2_op0 -> f2_op2_k0 [style=dashed, color="#5f6368"];
// FUSED-NEXT:    f2_op2_k0 -> f2_op3_k0;
// FUSED-NEXT:    f2_op3_k0 -> f2_result0 [color="#5f6368"];
// FUSED-NEXT:    f2_arg0 -> f2_result1 [style=dashed, color="#d93025", fontcolor="#d93025", penwidth=2.5, label="copied (no kernel)\n32 bytes (read 16, written 16)"];
// FUSED-NEXT:  }
// EAGER-LABEL: subgraph cluster_f2 {
// EAGER:         f2_op2_k0 -> f2_op3_k1 [color="#d93025", fontcolor="#d93025", penwidth=2.5, label="16 bytes"];

func.func @vector_softmax(%x: tensor<?xf32>) -> tensor<?xf32> {
  %m = fuse.reduce_max %x {dims = array<i64: 0>} : tensor<?xf32> -> tensor<1xf32>
  %d = fuse.sub %x, %m : tensor<?xf32>, tensor<1xf32> -> tensor<?xf32>
  %e = fuse.exp %d : tensor<?xf32>
  %s = fuse.reduce_sum %e {dims = array<i64: 0>} : tensor<?xf32> -> tensor<1xf32>
  %r = fuse.div %e, %s : tensor<?xf32>, tensor<1xf32> -> tensor<?xf32>
  return %r : tensor<?xf32>
}
// An op is drawn in each kernel that computes it: a reduction over few
// rows in both launches of its split kernel, joined by the partial values
// (red), and sub and exp in the sum's kernel and again in the division's,
// which reads x, not exp(x - max), from memory.
// FUSED-LABEL: subgraph cluster_f3 {
// FUSED:         subgraph cluster_f3_k0 {
// FUSED-NEXT:      label="reduce_max_4_pieces\nN elements, 4*N + 4*P bytes (read 4*N, written 4*P)";
// FUSED-NEXT:      style=
// FUSED-NEXT:      f3_op0_k0 [label="fuse.reduce_max
// FUSED-NEXT: {{^    }$}}
// FUSED-NEXT:    subgraph cluster_f3_k1 {
// FUSED-NEXT:      label="reduce_max_4\nP elements, 4*P + 4 bytes (read 4*P, written 4)";
// FUSED-NEXT:      style=
// FUSED-NEXT:      f3_op0_k1 [label="fuse.reduce_max
// FUSED-NEXT: {{^    }$}}
// FUSED-NEXT:    subgraph cluster_f3_k2 {
// FUSED-NEXT:      label="fused_sub_exp_reduce_sum_5_pieces\nN elements, 4*N + 4*P + 4 bytes (read 4*N + 4, written 4*P)";
// FUSED-NEXT:      style=
// FUSED-NEXT:      f3_op1_k2 [label="fuse.sub
// FUSED-NEXT:      f3_op2_k2 [label="fuse.exp
// FUSED-NEXT:      f3_op3_k2 [label="fuse.reduce_sum
// FUSED-NEXT: {{^    }$}}
// FUSED-NEXT:    subgraph cluster_f3_k3 {
// FUSED-NEXT:      label="fused_sub_exp_reduce_sum_5\nP elements, 4*P + 4 bytes (read 4*P, written 4)";
// FUSED-NEXT:      style=
// FUSED-NEXT:      f3_op3_k3 [label="fuse.reduce_sum
// FUSED-NEXT: {{^    }$}}
// FUSED-NEXT:    subgraph cluster_f3_k4 {
// FUSED-NEXT:      label="fused_sub_exp_div_6\nN elements, 8*N + 8 bytes (read 4*N + 8, written 4*N)";
// FUSED-NEXT:      style=
// FUSED-NEXT:      f3_op1_k4 [label="fuse.sub
// FUSED-NEXT:      f3_op2_k4 [label="fuse.exp
// FUSED-NEXT:      f3_op4_k4 [label="fuse.div
// FUSED-NEXT: {{^    }$}}
// FUSED-NEXT:    f3_result0
// FUSED-NEXT:    f3_arg0 -> f3_op0_k0 [color="#5f6368"];
// FUSED-NEXT:    f3_op0_k0 -> f3_op0_k1 [color="#d93025", fontcolor="#d93025", penwidth=2.5, label="4*P bytes\npartial values"];
// FUSED-NEXT:    f3_arg0 -> f3_op1_k2 [color="#5f6368"];
// FUSED-NEXT:    f3_op0_k1 -> f3_op1_k2 [color="#d93025", fontcolor="#d93025", penwidth=2.5, label="4 bytes\nnot fused: {{.*}}"];
// FUSED-NEXT:    f3_arg0 -> f3_op1_k4 [color="#5f6368"];
// FUSED-NEXT:    f3_op0_k1 -> f3_op1_k4 [color="#d93025", fontcolor="#d93025", penwidth=2.5, label="4 bytes\nnot fused: {{.*}}"];
// FUSED-NEXT:    f3_op1_k2 -> f3_op2_k2;
// FUSED-NEXT:    f3_op1_k4 -> f3_op2_k4;
// FUSED-NEXT:    f3_op2_k2 -> f3_op3_k2;
// FUSED-NEXT:    f3_op3_k2 -> f3_op3_k3 [color="#d93025", fontcolor="#d93025", penwidth=2.5, label="4*P bytes\npartial values"];
// FUSED-NEXT:    f3_op2_k4 -> f3_op4_k4;
// FUSED-NEXT:    f3_op3_k3 -> f3_op4_k4 [color="#d93025", fontcolor="#d93025", penwidth=2.5, label="4 bytes\nnot fused: {{.*}}"];
// FUSED-NEXT:    f3_op4_k4 -> f3_result0 [color="#5f6368"];
// FUSED-NEXT:  }
// Eager: the pieces of each reduction, and every intermediate in memory.
// EAGER-LABEL: subgraph cluster_f3 {
// EAGER:         f3_op0_k0 -> f3_op0_k1 [color="#d93025", fontcolor="#d93025", penwidth=2.5, label="4*P bytes\npartial values"];
// EAGER:         f3_op3_k4 -> f3_op3_k5 [color="#d93025", fontcolor="#d93025", penwidth=2.5, label="4*P bytes\npartial values"];
// EAGER-NEXT:    f3_op2_k3 -> f3_op4_k6 [color="#d93025", fontcolor="#d93025", penwidth=2.5, label="4*N bytes"];
// EAGER-NEXT:    f3_op3_k5 -> f3_op4_k6 [color="#d93025", fontcolor="#d93025", penwidth=2.5, label="4 bytes"];

// %t is computed in two kernels and written by one (kernel 0, beside the
// neg): the exp's kernel reads it from there, not from the sum's kernel 1,
// which computes it again without writing it (the arrow came from k1).
// FUSED-LABEL: subgraph cluster_f4 {
// FUSED:         f4_op0_k0 -> f4_op2_k3 [color="#d93025", fontcolor="#d93025", penwidth=2.5, label="4*N*M*K bytes\nnot fused:
func.func @written_once(%a: tensor<?x?x?xf32>, %c: tensor<?xf32>) -> (tensor<?x1x?xf32>, tensor<?xf32>, tensor<?x?x?xf32>) {
  %t = fuse.add %a, %c : tensor<?x?x?xf32>, tensor<?xf32> -> tensor<?x?x?xf32>
  %r1 = fuse.reduce_sum %t {dims = array<i64: 1>} : tensor<?x?x?xf32> -> tensor<?x1x?xf32>
  %e = fuse.exp %t : tensor<?x?x?xf32>
  %r2 = fuse.reduce_mean %e {dims = array<i64: 0, 1>} : tensor<?x?x?xf32> -> tensor<?xf32>
  %m = fuse.neg %t : tensor<?x?x?xf32>
  return %r1, %r2, %m : tensor<?x1x?xf32>, tensor<?xf32>, tensor<?x?x?xf32>
}

// A comparison's predicate as the IR writes it (it was the dictionary
// {predicate = 4 : i32}).
// FUSED-LABEL: subgraph cluster_f5 {
// FUSED:         f5_op0_k0 [label="fuse.cmp gt\n{{.*}}graph.mlir:{{[0-9]+}}:8", style=filled, fillcolor=white];
func.func @compare(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xi1> {
  %m = fuse.cmp gt, %a, %b : tensor<?xf32>, tensor<?xf32> -> tensor<?xi1>
  return %m : tensor<?xi1>
}

// A returned splat that an op also reads: a kernel of its own writes the
// result, and the op reads the value inlined, a dashed arrow (it was a red
// one, with bytes, from a kernel that runs after the reader).
// FUSED-LABEL: subgraph cluster_f6 {
// FUSED:         f6_op0_k{{[0-9]+}} -> f6_op1_k{{[0-9]+}} [style=dashed, color="#5f6368"];
// EAGER-LABEL: subgraph cluster_f6 {
// EAGER:         f6_op0_k{{[0-9]+}} -> f6_op1_k{{[0-9]+}} [style=dashed, color="#5f6368"];
func.func @returned_splat(%x: tensor<4x8xf32>) -> (tensor<f32>, tensor<4x8xf32>) {
  %0 = fuse.constant 2.0 : tensor<f32>
  %1 = fuse.mul %x, %0 : tensor<4x8xf32>, tensor<f32> -> tensor<4x8xf32>
  return %0, %1 : tensor<f32>, tensor<4x8xf32>
}

// A value returned and reduced over its columns: one kernel writes it,
// and the reduction's kernel computes it again without writing it. The
// result's arrow comes from the kernel that writes it (it came from the
// reduction's).
// FUSED-LABEL: subgraph cluster_f7 {
// FUSED:         subgraph cluster_f7_k{{[0-9]+}} {
// FUSED-NEXT:      label="fused_add_exp_{{[0-9]+}}\n
// FUSED-NEXT:      style=
// FUSED-NEXT:      f7_op0_k[[WRITES:[0-9]+]] [label="fuse.add
// FUSED:         f7_op1_k[[WRITES]] -> f7_result0 [color="#5f6368"];
func.func @returned_and_reduced(%x: tensor<?x?xf32>, %y: tensor<?x?xf32>) -> (tensor<?x?xf32>, tensor<?xf32>) {
  %s = fuse.add %x, %y : tensor<?x?xf32>, tensor<?x?xf32> -> tensor<?x?xf32>
  %m = fuse.exp %s : tensor<?x?xf32>
  %r = fuse.reduce_sum %m {dims = array<i64: 0>} : tensor<?x?xf32> -> tensor<?xf32>
  return %m, %r : tensor<?x?xf32>, tensor<?xf32>
}

// A value that two ops of one kernel read: the kernel reads it once, and
// its bytes are on the first arrow only (each arrow had them, which read
// as twice the traffic).
// FUSED-LABEL: subgraph cluster_f8 {
// FUSED:         f8_op0_k0 -> f8_op1_k1 [color="#d93025", fontcolor="#d93025", penwidth=2.5, label="4*M bytes\nnot fused:
// FUSED:         f8_op0_k0 -> f8_op2_k1 [color="#d93025", fontcolor="#d93025", penwidth=2.5, label="not fused:
func.func @read_twice(%x: tensor<?x?xf32>, %g: tensor<?xf32>) -> tensor<?x?xf32> {
  %t = fuse.sigmoid %g : tensor<?xf32>
  %y = fuse.mul %x, %t : tensor<?x?xf32>, tensor<?xf32> -> tensor<?x?xf32>
  %z = fuse.add %y, %t : tensor<?x?xf32>, tensor<?xf32> -> tensor<?x?xf32>
  return %z : tensor<?x?xf32>
}

// A declaration has no body and no cluster; the legend comes last.
func.func private @declared(tensor<4xf32>) -> tensor<4xf32>
// FUSED-NOT:   cluster_f9
// FUSED:       label="Blue boxes are kernels. Red arrows are values that one kernel writes to memory and another reads back.";
// FUSED-NEXT:  labelloc=b;
// FUSED-NEXT: }
// EAGER-NOT:   cluster_f9
// EAGER:       labelloc=b;
// EAGER-NEXT: }
