// RUN: fuse-opt %s --fuse-report | FileCheck %s
// RUN: fuse-opt %s --fuse-pipeline=fused --fuse-remarks -split-input-file -verify-diagnostics -o /dev/null

// A reduction over several innermost dimensions reads them as one row (a
// collapse of its operand, convert-fuse-to-linalg), and the elementwise ops
// around it come down into that collapsed space too: those that read its
// value broadcast over the row, what reads their results, and the values
// of the rows with the reduced dimensions kept (`log` of a sum). Each
// program is then one kernel that reads x once and writes its result once,
// as over one reduced dimension. A weight broadcast along part of the row
// (one of its two dimensions) keeps the ops before it that read the
// reduction over the whole space, fused with it but apart from the
// reduction, with a remark saying why.

// CHECK-LABEL: @mean
// CHECK:       fused vs eager: 1 vs 1 kernel, 4*N*M*K + 4*N vs 4*N*M*K + 4*N bytes (1.00x the traffic)
func.func @mean(%x: tensor<?x?x?xf32>) -> tensor<?xf32> {
  %0 = fuse.reduce_mean %x {dims = array<i64: 1, 2>} : tensor<?x?x?xf32> -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// CHECK-LABEL: @center
// CHECK:       fused vs eager: 1 vs 2 kernels, 8*N*M*K vs 12*N*M*K + 8*N bytes
func.func @center(%x: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %m = fuse.reduce_mean %x {dims = array<i64: 1, 2>} : tensor<?x?x?xf32> -> tensor<?x1x1xf32>
  %c = fuse.sub %x, %m : tensor<?x?x?xf32>, tensor<?x1x1xf32> -> tensor<?x?x?xf32>
  return %c : tensor<?x?x?xf32>
}

// -----

// CHECK-LABEL: @log_softmax
// CHECK:       fused_reduce_max_sub_exp_reduce_sum_log_plus1_2  N     M*K     warp per row, in registers up to 1024, else looped
// CHECK:       fused vs eager: 1 vs 6 kernels, 8*N*M*K vs 32*N*M*K + 24*N bytes
func.func @log_softmax(%x: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %0 = fuse.reduce_max %x {dims = array<i64: 1, 2>} : tensor<?x?x?xf32> -> tensor<?x1x1xf32>
  %1 = fuse.sub %x, %0 : tensor<?x?x?xf32>, tensor<?x1x1xf32> -> tensor<?x?x?xf32>
  %2 = fuse.exp %1 : tensor<?x?x?xf32>
  %3 = fuse.reduce_sum %2 {dims = array<i64: 1, 2>} : tensor<?x?x?xf32> -> tensor<?x1x1xf32>
  %4 = fuse.log %3 : tensor<?x1x1xf32>
  %5 = fuse.sub %1, %4 : tensor<?x?x?xf32>, tensor<?x1x1xf32> -> tensor<?x?x?xf32>
  return %5 : tensor<?x?x?xf32>
}

// -----

// CHECK-LABEL: @layer_norm
// CHECK:       fused vs eager: 1 vs 8 kernels, 8*N*M*K + 4*M*K vs 40*N*M*K + 4*M*K + 32*N bytes
func.func @layer_norm(%x: tensor<?x?x?xf32>, %w: tensor<?x?xf32>) -> tensor<?x?x?xf32> {
  %m = fuse.reduce_mean %x {dims = array<i64: 1, 2>} : tensor<?x?x?xf32> -> tensor<?x1x1xf32>
  %c = fuse.sub %x, %m : tensor<?x?x?xf32>, tensor<?x1x1xf32> -> tensor<?x?x?xf32>
  %sq = fuse.mul %c, %c : tensor<?x?x?xf32>
  %v = fuse.reduce_mean %sq {dims = array<i64: 1, 2>} : tensor<?x?x?xf32> -> tensor<?x1x1xf32>
  %eps = fuse.constant 1.0e-5 : tensor<f32>
  %ve = fuse.add %v, %eps : tensor<?x1x1xf32>, tensor<f32> -> tensor<?x1x1xf32>
  %r = fuse.rsqrt %ve : tensor<?x1x1xf32>
  %n = fuse.mul %c, %r : tensor<?x?x?xf32>, tensor<?x1x1xf32> -> tensor<?x?x?xf32>
  %y = fuse.mul %n, %w : tensor<?x?x?xf32>, tensor<?x?xf32> -> tensor<?x?x?xf32>
  return %y : tensor<?x?x?xf32>
}

// -----

// CHECK-LABEL: @inner_weight
// CHECK:       fused vs eager: 2 vs 3 kernels, 12*N*M*K + 8*N + 4*K vs 20*N*M*K + 8*N + 4*K bytes
func.func @inner_weight(%x: tensor<?x?x?xf32>, %w: tensor<?xf32>) -> tensor<?x?x?xf32> {
  // expected-note @+1 {{producer is here}}
  %m = fuse.reduce_max %x {dims = array<i64: 1, 2>} : tensor<?x?x?xf32> -> tensor<?x1x1xf32>
  // expected-remark @+1 {{not fused with its producer 'fuse.reduce_max': the reduction reads its rows with their dimensions collapsed into one, and this op iterates over them uncollapsed (an op that reads its result reads an operand broadcast along only some of those dimensions)}}
  %c = fuse.sub %x, %m : tensor<?x?x?xf32>, tensor<?x1x1xf32> -> tensor<?x?x?xf32>
  %y = fuse.mul %c, %w : tensor<?x?x?xf32>, tensor<?xf32> -> tensor<?x?x?xf32>
  return %y : tensor<?x?x?xf32>
}

// -----

// The same with a math function between: `x - max` is computed again in the
// reader's kernel (a copy), and the remark is on it all the same (it was
// silent).
// CHECK-LABEL: @inner_weight_after_exp
// CHECK:       fused: 2 kernels,
// CHECK-NEXT:  kernel
// CHECK-NEXT:  reduce_max_{{[0-9]+}}  reduce_max
// CHECK-NEXT:  fused_sub_exp_mul_{{[0-9]+}}  sub exp mul
func.func @inner_weight_after_exp(%x: tensor<?x?x?xf32>, %w: tensor<1x?x1xf32>) -> tensor<?x?x?xf32> {
  // expected-note @+1 {{producer is here}}
  %m = fuse.reduce_max %x {dims = array<i64: 1, 2>} : tensor<?x?x?xf32> -> tensor<?x1x1xf32>
  // expected-remark @+1 {{not fused with its producer 'fuse.reduce_max': the reduction reads its rows with their dimensions collapsed into one, and this op iterates over them uncollapsed (an op that reads its result reads an operand broadcast along only some of those dimensions)}}
  %d = fuse.sub %x, %m : tensor<?x?x?xf32>, tensor<?x1x1xf32> -> tensor<?x?x?xf32>
  %e = fuse.exp %d : tensor<?x?x?xf32>
  %y = fuse.mul %e, %w : tensor<?x?x?xf32>, tensor<1x?x1xf32> -> tensor<?x?x?xf32>
  return %y : tensor<?x?x?xf32>
}

// -----

// The weight before the reduction: the product stays apart (the weight
// is broadcast along only one of the row's dimensions), and says why.
// CHECK-LABEL: @weight_before
// CHECK:       fused: 2 kernels,
func.func @weight_before(%x: tensor<?x?x?xf32>, %w: tensor<?xf32>) -> tensor<?x?x?xf32> {
  // expected-note @+1 {{producer is here}}
  %0 = fuse.mul %x, %w : tensor<?x?x?xf32>, tensor<?xf32> -> tensor<?x?x?xf32>
  // expected-remark @+1 {{not fused with its producer 'fuse.mul': the reduction reads its rows with their dimensions collapsed into one, and that op iterates over them uncollapsed (it, or an op that reads its result, reads an operand broadcast along only some of those dimensions)}}
  %m = fuse.reduce_max %0 {dims = array<i64: 1, 2>} : tensor<?x?x?xf32> -> tensor<?x1x1xf32>
  %s = fuse.sub %x, %m : tensor<?x?x?xf32>, tensor<?x1x1xf32> -> tensor<?x?x?xf32>
  return %s : tensor<?x?x?xf32>
}
