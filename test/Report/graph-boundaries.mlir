// RUN: fuse-opt %s --fuse-report=dot | FileCheck %s

// The picture of what has no kernel: a result returned twice is copied
// from the first (its bytes are in the title's total: 8*N + 16 of the
// kernels and 8*N of the copy); an op written twice with the same
// operands is computed once, by the first (cse); a kernel that reads a
// value from an earlier kernel for the reason of another pair on the same
// boundary says so.

// CHECK-LABEL: subgraph cluster_f0 {
// CHECK-NEXT:    label="@twice  fused: 2 kernels, 16*N + 16 bytes (read 8*N, written 8*N + 16)\lN = argument 0 dimension 0\l";
// CHECK:         f0_op0_k0 -> f0_result0 [color="#5f6368"];
// CHECK-NEXT:    f0_result0 -> f0_result1 [style=dashed, color="#d93025", fontcolor="#d93025", penwidth=2.5, label="copied (no kernel)\n8*N bytes (read 4*N, written 4*N)"];
// CHECK-NEXT:    f0_op1_k1 -> f0_result2 [color="#5f6368"];
func.func @twice(%x: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>, tensor<4xf32>) {
  %a = fuse.exp %x : tensor<?xf32>
  %k = fuse.constant dense<2.0> : tensor<4xf32>
  return %a, %a, %k : tensor<?xf32>, tensor<?xf32>, tensor<4xf32>
}

// CHECK-LABEL: subgraph cluster_f1 {
// CHECK:         f1_op1 [label="fuse.exp\n{{.*}}graph-boundaries.mlir:[[@LINE+10]]:8\n(no kernel: the same as the fuse.exp at {{.*}}graph-boundaries.mlir:[[@LINE+9]]:8, computed once)", style=dashed, fontcolor="#5f6368"];
// CHECK-NEXT:    f1_op3 [label="fuse.tanh\n{{.*}}(unused: no kernel computes it)", style=dashed, fontcolor="#5f6368"];
// CHECK:         f1_arg0 -> f1_op0_k0 [color="#5f6368"];
// CHECK-NEXT:    f1_op0_k0 -> f1_op1 [style=dotted, color="#5f6368"];
// CHECK-NEXT:    f1_op0_k0 -> f1_op2_k0;
// CHECK-NEXT:    f1_op1 -> f1_op2_k0;
// CHECK-NEXT:    f1_arg0 -> f1_op3 [color="#5f6368"];
// CHECK-NOT:     f1_arg0 -> f1_op1
func.func @same(%x: tensor<?xf32>) -> tensor<?xf32> {
  %a = fuse.exp %x : tensor<?xf32>
  %b = fuse.exp %x : tensor<?xf32>
  %c = fuse.add %a, %b : tensor<?xf32>
  %dead = fuse.tanh %x : tensor<?xf32>
  return %c : tensor<?xf32>
}

// The second kernel reads the mean and the reciprocal from the first; the
// fusion pass says why for the pair rsqrt -> mul, and the mean's arrow
// across the same boundary names that pair.
// CHECK-LABEL: subgraph cluster_f2 {
// CHECK:         f2_op0_k0 -> f2_op1_k1 [color="#d93025", fontcolor="#d93025", penwidth=2.5, label="4*N*M bytes\nnot fused: for the same reason as fuse.rsqrt\n-> fuse.mul"];
// CHECK:         f2_op6_k0 -> f2_op7_k1 [color="#d93025", fontcolor="#d93025", penwidth=2.5, label="4*N*M bytes\nnot fused: the reduction reads its rows with\ntheir dimensions collapsed into one
func.func @group_norm(%x: tensor<?x?x?x?xf32>, %w: tensor<1x?x?x1xf32>) -> tensor<?x?x?x?xf32> {
  %mean = fuse.reduce_mean %x {dims = array<i64: 2, 3>} : tensor<?x?x?x?xf32> -> tensor<?x?x1x1xf32>
  %centered = fuse.sub %x, %mean : tensor<?x?x?x?xf32>, tensor<?x?x1x1xf32> -> tensor<?x?x?x?xf32>
  %squares = fuse.mul %centered, %centered : tensor<?x?x?x?xf32>
  %var = fuse.reduce_mean %squares {dims = array<i64: 2, 3>} : tensor<?x?x?x?xf32> -> tensor<?x?x1x1xf32>
  %eps = fuse.constant 1.0e-05 : tensor<f32>
  %shifted = fuse.add %var, %eps : tensor<?x?x1x1xf32>, tensor<f32> -> tensor<?x?x1x1xf32>
  %rstd = fuse.rsqrt %shifted : tensor<?x?x1x1xf32>
  %normalized = fuse.mul %centered, %rstd : tensor<?x?x?x?xf32>, tensor<?x?x1x1xf32> -> tensor<?x?x?x?xf32>
  %y = fuse.mul %normalized, %w : tensor<?x?x?x?xf32>, tensor<1x?x?x1xf32> -> tensor<?x?x?x?xf32>
  return %y : tensor<?x?x?x?xf32>
}
