// RUN: fuse-opt %s --fuse-pipeline=fused --fuse-remarks --mlir-print-op-on-diagnostic=false -split-input-file -o /dev/null 2>&1 | grep -E ": (remark|note):" | FileCheck %s

// The fusion passes' remarks come in the order of their ops in the source,
// each pair once, with a note at its producer, whatever order the passes
// meet them in.

// A chain of softmaxes: the second's max starts a kernel (its exp would be
// computed again in each pass), and the sub beside it, whose kernel would
// then be left and entered again through that max, says so by name.
// CHECK: reduction-remarks-order.mlir:[[# @LINE + 11]]:9: remark: not fused with its producer 'fuse.div': this reduction reads a math function
// CHECK-NEXT: reduction-remarks-order.mlir:[[# @LINE + 9]]:9: note: producer is here
// CHECK-NEXT: reduction-remarks-order.mlir:[[# @LINE + 10]]:9: remark: not fused with its producer 'fuse.div': fusing them would create a cycle of kernels through 'fuse.reduce_max' at {{.*}}reduction-remarks-order.mlir:[[# @LINE + 9]]:9, which is in neither's kernel: a value would leave the kernel for it and come back
// CHECK-NEXT: reduction-remarks-order.mlir:[[# @LINE + 7]]:9: note: producer is here
// CHECK-NOT: remark
func.func @softmax_twice(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %m0 = fuse.reduce_max %x {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %s0 = fuse.sub %x, %m0 : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  %e0 = fuse.exp %s0 : tensor<?x?xf32>
  %t0 = fuse.reduce_sum %e0 {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %y0 = fuse.div %e0, %t0 : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  %m1 = fuse.reduce_max %y0 {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %s1 = fuse.sub %y0, %m1 : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  %e1 = fuse.exp %s1 : tensor<?x?xf32>
  %t1 = fuse.reduce_sum %e1 {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %y1 = fuse.div %e1, %t1 : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  return %y1 : tensor<?x?xf32>
}

// -----

// A layer norm of one row (few rows: each reduction in pieces, in kernels of
// their own): one remark for each reduction read over the whole space, and
// none for `%9`, which the last kernel computes with `%3` again (it was
// given twice for `%1`, and `%9` had a cycle remark).
// CHECK: reduction-remarks-order.mlir:[[# @LINE + 9]]:8: remark: not fused with its producer 'fuse.reduce_max': this op reads, over the whole space, a value computed from a reduction over few rows
// CHECK-NEXT: reduction-remarks-order.mlir:[[# @LINE + 7]]:8: note: producer is here
// CHECK-NEXT: reduction-remarks-order.mlir:[[# @LINE + 9]]:8: remark: not fused with its producer 'fuse.reduce_mean': this op reads, over the whole space, a value computed from a reduction over few rows
// CHECK-NEXT: reduction-remarks-order.mlir:[[# @LINE + 7]]:8: note: producer is here
// CHECK-NEXT: reduction-remarks-order.mlir:[[# @LINE + 11]]:8: remark: not fused with its producer 'fuse.reduce_mean': this op reads, over the whole space, a value computed from a reduction over few rows
// CHECK-NEXT: reduction-remarks-order.mlir:[[# @LINE + 8]]:8: note: producer is here
// CHECK-NOT: remark
func.func @layer_norm_of_one_row(%x: tensor<1x?xf32>, %w: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<1x?xf32> {
  %0 = fuse.reduce_max %x {dims = array<i64: 1>, identity_if_empty} : tensor<1x?xf32> -> tensor<1x1xf32>
  %1 = fuse.sub %x, %0 : tensor<1x?xf32>, tensor<1x1xf32> -> tensor<1x?xf32>
  %2 = fuse.reduce_mean %1 {dims = array<i64: 1>} : tensor<1x?xf32> -> tensor<1x1xf32>
  %3 = fuse.sub %1, %2 : tensor<1x?xf32>, tensor<1x1xf32> -> tensor<1x?xf32>
  %4 = fuse.mul %3, %3 : tensor<1x?xf32>
  %5 = fuse.reduce_mean %4 {dims = array<i64: 1>} : tensor<1x?xf32> -> tensor<1x1xf32>
  %6 = fuse.constant 1.0e-05 : tensor<f32>
  %7 = fuse.add %5, %6 : tensor<1x1xf32>, tensor<f32> -> tensor<1x1xf32>
  %8 = fuse.rsqrt %7 : tensor<1x1xf32>
  %9 = fuse.mul %3, %8 : tensor<1x?xf32>, tensor<1x1xf32> -> tensor<1x?xf32>
  %10 = fuse.mul %9, %w : tensor<1x?xf32>, tensor<?xf32> -> tensor<1x?xf32>
  %11 = fuse.add %10, %b : tensor<1x?xf32>, tensor<?xf32> -> tensor<1x?xf32>
  return %11 : tensor<1x?xf32>
}

// -----

// A mean over dimensions 0 and 2 (batch norm's) runs as two reductions, over
// 2, then over 0, each in a kernel of its own; the op that reads it over the
// whole space is in a third, and says so.
// CHECK: reduction-remarks-order.mlir:[[# @LINE + 5]]:8: remark: not fused with its producer 'fuse.reduce_mean': that op is in the kernel of a reduction over dimensions that are not adjacent ('fuse.reduce_mean' at {{.*}}reduction-remarks-order.mlir:[[# @LINE + 4]]:8), which runs as two reductions in kernels of their own (the innermost dimensions first, then the others); this op iterates over the whole space, and the last reduction's kernel goes over the rows alone
// CHECK-NEXT: reduction-remarks-order.mlir:[[# @LINE + 3]]:8: note: producer is here
// CHECK-NOT: remark
func.func @batch_norm_mean(%x: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %m = fuse.reduce_mean %x {dims = array<i64: 0, 2>} : tensor<?x?x?xf32> -> tensor<1x?x1xf32>
  %z = fuse.sub %x, %m : tensor<?x?x?xf32>, tensor<1x?x1xf32> -> tensor<?x?x?xf32>
  return %z : tensor<?x?x?xf32>
}

// -----

// A column sum of `exp(x) + min(x)` (strided rows: a kernel of its own)
// keeps the add, and gives its other reader a copy, which the row kernel of
// the min takes beside the exp: the add gets no remark (it said "not
// fused" with the exp and the min, which that kernel computes it with).
// The sub, which reads the column sum and the add, says the cycle goes
// through the column sum (it named the add, its own producer).
// CHECK: reduction-remarks-order.mlir:[[# @LINE + 10]]:8: remark: not fused with its producer 'fuse.reduce_sum': this op reads, over the whole space, a value computed from a reduction whose rows are strided
// CHECK-NEXT: reduction-remarks-order.mlir:[[# @LINE + 8]]:8: note: producer is here
// CHECK-NEXT: reduction-remarks-order.mlir:[[# @LINE + 8]]:8: remark: not fused with its producer 'fuse.add': fusing them would create a cycle of kernels through 'fuse.reduce_sum' at {{.*}}reduction-remarks-order.mlir:[[# @LINE + 7]]:8, which is in neither's kernel
// CHECK-NEXT: reduction-remarks-order.mlir:[[# @LINE + 5]]:8: note: producer is here
// CHECK-NOT: remark
func.func @column_sum_of_a_row_kernels_value(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %d = fuse.exp %x : tensor<?x?xf32>
  %e = fuse.reduce_min %d {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %f = fuse.add %d, %e : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  %g = fuse.reduce_sum %f {dims = array<i64: 0>} : tensor<?x?xf32> -> tensor<1x?xf32>
  %h = fuse.sub %f, %g : tensor<?x?xf32>, tensor<1x?xf32> -> tensor<?x?xf32>
  return %h : tensor<?x?xf32>
}
