// RUN: fuse-opt %s --convert-fuse-to-linalg "--fuse-elementwise-fusion=remarks=true" "--fuse-reduction-fusion=remarks=true" -split-input-file -verify-diagnostics
// RUN: fuse-opt %s --fuse-pipeline=fused --fuse-remarks -split-input-file -verify-diagnostics

// With remarks, fuse-reduction-fusion says why a generic next to a kernel
// with a reduction stayed out of it, with a note at the producer. Pairs in
// one kernel get none (verify-diagnostics fails on any unexpected remark):
// in the pipeline, fuse-elementwise-fusion's remarks about softmax's pairs
// (a broadcast read, a cycle through the sum) are dropped, since
// fuse-reduction-fusion joins them.

func.func @softmax_is_quiet(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %m = fuse.reduce_max %x {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %d = fuse.sub %x, %m : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  %e = fuse.exp %d : tensor<?x?xf32>
  %s = fuse.reduce_sum %e {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %r = fuse.div %e, %s : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// -----

// A reduction of the rows' values over another dimension is a kernel of its
// own. The kernel over few rows (the max of the vector) is formed first and
// takes the exp before it: the remark says which op is in which kernel (it
// said only "different spaces", of an exp over the sum's rows).
func.func @other_space(%x: tensor<?x?xf32>) -> tensor<f32> {
  // expected-note @+1 {{producer is here}}
  %r = fuse.reduce_sum %x {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?xf32>
  // expected-remark @+1 {{not fused with its producer 'fuse.reduce_sum': the two iterate over different spaces: this op is in a reduction's kernel, which takes the generics over its whole space or over its rows, and that op iterates over neither}}
  %e = fuse.exp %r : tensor<?xf32>
  %m = fuse.reduce_max %e {dims = array<i64: 0>} : tensor<?xf32> -> tensor<f32>
  return %m : tensor<f32>
}

// -----

// The sums of the rows read along each row: element (i, j) needs row j's
// sum, which thread i does not have.
func.func @transposed(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-note @+1 {{producer is here}}
  %r = fuse.reduce_sum %x {dims = array<i64: 1>} : tensor<4x4xf32> -> tensor<4xf32>
  // expected-remark @+1 {{not fused with its producer 'fuse.reduce_sum': this op reads that result at other positions than its own row, which the kernel's thread does not have}}
  %z = fuse.add %x, %r : tensor<4x4xf32>, tensor<4xf32> -> tensor<4x4xf32>
  return %z : tensor<4x4xf32>
}

// -----

// In a function with a reduction, fuse-elementwise-fusion's remark about a
// pair that no kernel joins still comes (emitted by fuse-reduction-fusion).
func.func @elementwise_pair_apart(%x: tensor<?x?xf32>, %g: tensor<?xf32>) -> (tensor<?x?xf32>, tensor<?xf32>) {
  // expected-note @+1 {{producer is here}}
  %s = fuse.sigmoid %g : tensor<?xf32>
  // expected-remark @+1 {{not fused with its producer 'fuse.sigmoid': this op reads that result broadcast from tensor<?xf32> to tensor<?x?xf32>, so the two iterate over different spaces}}
  %y = fuse.mul %x, %s : tensor<?x?xf32>, tensor<?xf32> -> tensor<?x?xf32>
  %c = fuse.reduce_sum %x {dims = array<i64: 0>} : tensor<?x?xf32> -> tensor<?xf32>
  return %y, %c : tensor<?x?xf32>, tensor<?xf32>
}

// -----

// Few rows (3, a constant below 132) of a dynamic length: the sum is
// reduced by the whole GPU in pieces, in a kernel of its own, and the
// division that reads it over the whole space is another.
func.func @few_rows_read(%x: tensor<3x?xf32>) -> tensor<3x?xf32> {
  // expected-note @+1 {{producer is here}}
  %s = fuse.reduce_sum %x {dims = array<i64: 1>} : tensor<3x?xf32> -> tensor<3x1xf32>
  // expected-remark @+1 {{not fused with its producer 'fuse.reduce_sum': this op reads, over the whole space, a value computed from a reduction over few rows (fewer than 132): the whole machine (every SM of the GPU, every core of the CPU) reduces them in pieces in a kernel of its own, where a kernel that also went over the whole space after it would have one warp or thread per row; both targets run the same kernels}}
  %y = fuse.div %x, %s : tensor<3x?xf32>, tensor<3x1xf32> -> tensor<3x?xf32>
  return %y : tensor<3x?xf32>
}

// -----

// The softmax of a vector: the division reads the sum (a remark), and
// reads sub and exp from a copy fused with it (no remark), which the sum's
// kernel computes too.
func.func @few_rows_softmax(%x: tensor<?xf32>) -> tensor<?xf32> {
  // expected-note @+1 {{producer is here}}
  %m = fuse.reduce_max %x {dims = array<i64: 0>} : tensor<?xf32> -> tensor<1xf32>
  // expected-remark @+1 {{not fused with its producer 'fuse.reduce_max': this op reads, over the whole space, a value computed from a reduction over few rows}}
  %d = fuse.sub %x, %m : tensor<?xf32>, tensor<1xf32> -> tensor<?xf32>
  %e = fuse.exp %d : tensor<?xf32>
  // expected-note @+1 {{producer is here}}
  %s = fuse.reduce_sum %e {dims = array<i64: 0>} : tensor<?xf32> -> tensor<1xf32>
  // expected-remark @+1 {{not fused with its producer 'fuse.reduce_sum': this op reads, over the whole space, a value computed from a reduction over few rows}}
  %y = fuse.div %e, %s : tensor<?xf32>, tensor<1xf32> -> tensor<?xf32>
  return %y : tensor<?xf32>
}

// -----

// A mean over every dimension of a 3 x N matrix read by a subtraction: one
// remark, naming the mean (not its division's generic), and no second one
// from fuse-elementwise-fusion about the same pair.
func.func @few_rows_mean(%x: tensor<3x?xf32>) -> tensor<3x?xf32> {
  // expected-note @+1 {{producer is here}}
  %m = fuse.reduce_mean %x {dims = array<i64: 0, 1>} : tensor<3x?xf32> -> tensor<1x1xf32>
  // expected-remark @+1 {{not fused with its producer 'fuse.reduce_mean': this op reads, over the whole space, a value computed from a reduction over few rows}}
  %y = fuse.sub %x, %m : tensor<3x?xf32>, tensor<1x1xf32> -> tensor<3x?xf32>
  return %y : tensor<3x?xf32>
}

// -----

// A softmax over dimension 0 (its rows are the columns, a thread per
// column): the subtraction reads the max over the whole space (a remark)
// and goes into the sum's kernel, before the sum; the division reads the
// sum (a remark) and is a kernel of its own, with a thread per element,
// which computes exp(x - max) again.
func.func @columns_softmax(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  // expected-note @+1 {{producer is here}}
  %m = fuse.reduce_max %x {dims = array<i64: 0>} : tensor<?x?xf32> -> tensor<1x?xf32>
  // expected-remark @+1 {{not fused with its producer 'fuse.reduce_max': this op reads, over the whole space, a value computed from a reduction whose rows are strided (it keeps the innermost dimension, or reduces dimensions that are not adjacent): the reduction's kernel takes a thread per row (or per piece of a row), and this op, over the whole space, is left to another kernel; both targets run the same kernels}}
  %d = fuse.sub %x, %m : tensor<?x?xf32>, tensor<1x?xf32> -> tensor<?x?xf32>
  %e = fuse.exp %d : tensor<?x?xf32>
  // expected-note @+1 {{producer is here}}
  %s = fuse.reduce_sum %e {dims = array<i64: 0>} : tensor<?x?xf32> -> tensor<1x?xf32>
  // expected-remark @+1 {{not fused with its producer 'fuse.reduce_sum': this op reads, over the whole space, a value computed from a reduction whose rows are strided}}
  %y = fuse.div %e, %s : tensor<?x?xf32>, tensor<1x?xf32> -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

// -----

// The remark is at the op that reads the reduction's value (the sub), not
// at the first op of its kernel (the mul), past the mean's division that
// the kernel computes again.
func.func @at_the_reader(%x: tensor<?x?xf32>, %y: tensor<?x?xf32>) -> tensor<?x?xf32> {
  // expected-note @+1 {{producer is here}}
  %c = fuse.reduce_mean %x {dims = array<i64: 0, 1>} : tensor<?x?xf32> -> tensor<f32>
  %d = fuse.mul %x, %y : tensor<?x?xf32>
  // expected-remark @+1 {{not fused with its producer 'fuse.reduce_mean': this op reads, over the whole space, a value computed from a reduction over few rows}}
  %e = fuse.sub %d, %c : tensor<?x?xf32>, tensor<f32> -> tensor<?x?xf32>
  return %e : tensor<?x?xf32>
}

// -----

// A group norm's scaling: the rows are dimensions 2 to 4, collapsed into
// one, and the op that reads rstd is fused with those that read the weight
// and the bias, broadcast along only some of those dimensions. rsqrt is in
// the reduction's kernel (it goes over the rows); the remark is at the
// reader of rstd, and says that an op that reads its result reads such an
// operand (it once said this op did, which reads rstd, broadcast along all
// of them).
func.func @broadcast_in_a_fused_op(%x: tensor<?x?x?x?x?xf32>, %w: tensor<1x?x?x1x1xf32>) -> tensor<?x?x?x?x?xf32> {
  %mean = fuse.reduce_mean %x {dims = array<i64: 2, 3, 4>} : tensor<?x?x?x?x?xf32> -> tensor<?x?x1x1x1xf32>
  %d = fuse.sub %x, %mean : tensor<?x?x?x?x?xf32>, tensor<?x?x1x1x1xf32> -> tensor<?x?x?x?x?xf32>
  %sq = fuse.mul %d, %d : tensor<?x?x?x?x?xf32>, tensor<?x?x?x?x?xf32> -> tensor<?x?x?x?x?xf32>
  %var = fuse.reduce_mean %sq {dims = array<i64: 2, 3, 4>} : tensor<?x?x?x?x?xf32> -> tensor<?x?x1x1x1xf32>
  // expected-note @+1 {{producer is here}}
  %rstd = fuse.rsqrt %var : tensor<?x?x1x1x1xf32>
  // expected-remark @+1 {{not fused with its producer 'fuse.rsqrt': the reduction reads its rows with their dimensions collapsed into one, and this op iterates over them uncollapsed (an op that reads its result reads an operand broadcast along only some of those dimensions)}}
  %n = fuse.mul %d, %rstd : tensor<?x?x?x?x?xf32>, tensor<?x?x1x1x1xf32> -> tensor<?x?x?x?x?xf32>
  %y = fuse.mul %n, %w : tensor<?x?x?x?x?xf32>, tensor<1x?x?x1x1xf32> -> tensor<?x?x?x?x?xf32>
  return %y : tensor<?x?x?x?x?xf32>
}

// -----

// A layer norm of one row is one kernel, the mean's division and rsqrt
// (one value each) computed inside the generics that read them: no remark
// (one said that the normalizing mul was not fused with the sub, through a
// cycle, though the two are in that kernel).
func.func @one_row(%x: tensor<768xf32>) -> tensor<768xf32> {
  %m = fuse.reduce_mean %x {dims = array<i64: 0>} : tensor<768xf32> -> tensor<1xf32>
  %c = fuse.sub %x, %m : tensor<768xf32>, tensor<1xf32> -> tensor<768xf32>
  %sq = fuse.mul %c, %c : tensor<768xf32>
  %v = fuse.reduce_mean %sq {dims = array<i64: 0>} : tensor<768xf32> -> tensor<1xf32>
  %r = fuse.rsqrt %v : tensor<1xf32>
  %n = fuse.mul %c, %r : tensor<768xf32>, tensor<1xf32> -> tensor<768xf32>
  return %n : tensor<768xf32>
}
