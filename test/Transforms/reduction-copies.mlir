// RUN: fuse-opt %s --fuse-report | FileCheck %s
// RUN: fuse-opt %s --fuse-pipeline=fused --fuse-remarks -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: fuse-run %s --entry=@returned_and_read_broadcast --target=cpu --input=rand:3x50x1 --input=rand:1x1x7 --check | FileCheck %s --check-prefix=RUNS
// RUN: env FUSE_LIBCUDA=%fakecuda fuse-run %s --entry=@in_place_and_broadcast --target=cuda --input=rand:3x50x1 --input=rand:1x1x7 --input=rand:3x50x1 --check | FileCheck %s --check-prefix=RUNS
// RUNS: check: result 0 matches eager
// RUNS-NEXT: check: result 1 matches eager
// RUN: fuse-run %s --entry=@returned_and_summed_in_pieces --target=cpu --input=rand:5000 --input=rand:5000 --check | FileCheck %s --check-prefix=RUNS
// RUN: env FUSE_LIBCUDA=%fakecuda fuse-run %s --entry=@exp_returned_and_summed_in_pieces --target=cuda --input=rand:5000 --check | FileCheck %s --check-prefix=RUNS
// RUN: fuse-run %s --entry=@column_max_of_a_row_normalized_square --target=cpu --input=rand:64x128 --check | FileCheck %s --check-prefix=RUN1
// RUN1: check: result 0 matches eager
// RUN: fuse-run %s --entry=@variance_over_axis_0 --target=cpu --input=rand:300x70 --check | FileCheck %s --check-prefix=RUN1
// RUN: fuse-run %s --entry=@centerings_over_axis_0 --target=cpu --input=rand:300x70 --check | FileCheck %s --check-prefix=RUN1
// RUN: fuse-run %s --entry=@row_max_then_column_sum --target=cpu --input=rand:300x70 --check | FileCheck %s --check-prefix=RUN1
// RUN: fuse-run %s --entry=@tail_read_by_the_next_kernel --target=cpu --input=rand:300x70 --check | FileCheck %s --check-prefix=RUN1

// A kernel that reduces its rows in a launch of their own (strided rows,
// in pieces) stores no value over the whole space: what else reads its
// prologue reads copies of those ops, which compute it again. Another such
// kernel does not take a copy, nor an op that reads one (the division of
// the softmax before): that op's value is stored, and each softmax over
// axis 0 of a chain is 5 kernels reading the one before's result. Taking
// them, each kernel computed every softmax before it again, in time
// quadratic in the chain's length (8 softmaxes of `512 x 2048`: 25x eager).

// CHECK-LABEL: @two_softmaxes_over_axis_0
// CHECK: fused: 10 kernels, 32*N*M + 32*M*P + 40*M bytes
// CHECK: fused_sub_exp_div_mul_2  sub exp div mul  N*M  4*N*M + 8*M  4*N*M
// CHECK: reduce_max_3_pieces  reduce_max  N*M  4*N*M  4*M*P
// CHECK: fused_sub_exp_div_mul_5  sub exp div mul  N*M  4*N*M + 8*M  4*N*M
// REMARK: reduction-copies.mlir:[[# @LINE + 9]]:9: remark: not fused with its producer 'fuse.div+mul': that op computes again, from a copy of their ops, values of a kernel that reduces its rows in a launch of their own (which stores no value over the whole space); this kernel, which ends at its rows too, would compute it again in turn, so that each kernel of a chain (of softmaxes over a leading axis) would compute all those before it: that op's value is stored instead
func.func @two_softmaxes_over_axis_0(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %two = fuse.constant 2.0 : tensor<f32>
  %m = fuse.reduce_max %x {dims = array<i64: 0>} : tensor<?x?xf32> -> tensor<1x?xf32>
  %d = fuse.sub %x, %m : tensor<?x?xf32>, tensor<1x?xf32> -> tensor<?x?xf32>
  %e = fuse.exp %d : tensor<?x?xf32>
  %s = fuse.reduce_sum %e {dims = array<i64: 0>} : tensor<?x?xf32> -> tensor<1x?xf32>
  %q = fuse.div %e, %s : tensor<?x?xf32>, tensor<1x?xf32> -> tensor<?x?xf32>
  %y = fuse.mul %q, %two : tensor<?x?xf32>, tensor<f32> -> tensor<?x?xf32>
  %m2 = fuse.reduce_max %y {dims = array<i64: 0>} : tensor<?x?xf32> -> tensor<1x?xf32>
  %d2 = fuse.sub %y, %m2 : tensor<?x?xf32>, tensor<1x?xf32> -> tensor<?x?xf32>
  %e2 = fuse.exp %d2 : tensor<?x?xf32>
  %s2 = fuse.reduce_sum %e2 {dims = array<i64: 0>} : tensor<?x?xf32> -> tensor<1x?xf32>
  %q2 = fuse.div %e2, %s2 : tensor<?x?xf32>, tensor<1x?xf32> -> tensor<?x?xf32>
  %y2 = fuse.mul %q2, %two : tensor<?x?xf32>, tensor<f32> -> tensor<?x?xf32>
  return %y2 : tensor<?x?xf32>
}

// A chain of softmaxes: the second max reads the first exp (through the
// division), which reads a value of a reduction two levels below it, so
// that each pass from there on would compute it again (5 exps per element
// for 2 softmaxes, 2x eager's time for 4 on the cpu target). Each softmax
// is a kernel, and the first stores its result (a copy of ops with a math
// function is no cheap copy).
// CHECK-LABEL: @two_softmaxes
// CHECK: fused: 2 kernels, 16*N*M bytes (read 8*N*M, written 8*N*M)
// CHECK-NEXT: kernel
// CHECK-NEXT: fused_reduce_max_sub_exp_reduce_sum_div_plus1_{{[0-9]+}}  reduce_max sub exp reduce_sum div mul  N*M  4*N*M  4*N*M
// CHECK-NEXT: fused_reduce_max_sub_exp_reduce_sum_div_plus1_{{[0-9]+}}  reduce_max sub exp reduce_sum div mul  N*M  4*N*M  4*N*M
// REMARK: reduction-copies.mlir:[[# @LINE + 10]]:9: remark: not fused with its producer 'fuse.div+mul': this reduction reads a math function (exp, log, tanh, ...) that reads a value of a reduction two levels below it in that kernel: the thread goes over its row once per reduction and computes again all that the reduction reads, so that the function would be computed again in each pass from there on (a chain of softmaxes); it starts another kernel
// REMARK: reduction-copies.mlir:[[# @LINE + 8]]:8: note: producer is here
func.func @two_softmaxes(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %two = fuse.constant 2.0 : tensor<f32>
  %m = fuse.reduce_max %x {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %d = fuse.sub %x, %m : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  %e = fuse.exp %d : tensor<?x?xf32>
  %s = fuse.reduce_sum %e {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %q = fuse.div %e, %s : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  %y = fuse.mul %q, %two : tensor<?x?xf32>, tensor<f32> -> tensor<?x?xf32>
  %m2 = fuse.reduce_max %y {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %d2 = fuse.sub %y, %m2 : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  %e2 = fuse.exp %d2 : tensor<?x?xf32>
  %s2 = fuse.reduce_sum %e2 {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %q2 = fuse.div %e2, %s2 : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  %y2 = fuse.mul %q2, %two : tensor<?x?xf32>, tensor<f32> -> tensor<?x?xf32>
  return %y2 : tensor<?x?xf32>
}

// An f16 softmax over every element: the max's kernel copies the cast of
// x (what reads only arguments starts no chain), and the sum's kernel
// takes that copy with the sub and exp; the division comes down into the
// collapsed space with the cast back to f16 after it. 8 bytes per element:
// x read three times, y written once (the exp was stored, and the cast was
// a kernel of its own: 26).
// CHECK-LABEL: @f16_softmax_of_all
// CHECK: fused: 5 kernels, 8*N*M + 16*P + 20 bytes
// CHECK: fused_cast_sub_exp_reduce_sum_{{[0-9]+}}_pieces  cast sub exp reduce_sum  N*M  2*N*M + 4  4*P
// CHECK: fused_cast_sub_exp_div_cast_{{[0-9]+}}  cast sub exp div cast  N*M  2*N*M + 8  2*N*M
func.func @f16_softmax_of_all(%x: tensor<?x?xf16>) -> tensor<?x?xf16> {
  %w = fuse.cast %x : tensor<?x?xf16> to tensor<?x?xf32>
  %m = fuse.reduce_max %w {dims = array<i64: 0, 1>} : tensor<?x?xf32> -> tensor<1x1xf32>
  %d = fuse.sub %w, %m : tensor<?x?xf32>, tensor<1x1xf32> -> tensor<?x?xf32>
  %e = fuse.exp %d : tensor<?x?xf32>
  %s = fuse.reduce_sum %e {dims = array<i64: 0, 1>} : tensor<?x?xf32> -> tensor<1x1xf32>
  %q = fuse.div %e, %s : tensor<?x?xf32>, tensor<1x1xf32> -> tensor<?x?xf32>
  %y = fuse.cast %q : tensor<?x?xf32> to tensor<?x?xf16>
  return %y : tensor<?x?xf16>
}

// A kernel that may store over the whole space gives a member a copy only
// for the ops that read it element for element, which fuse with it. An op
// that reads it broadcast (here over a new dimension) reads the value the
// kernel stores: a copy of its own would be one more kernel, which computed
// `x - max(x)` again and wrote it a second time (3 kernels and 4*N*M bytes
// more than eager, for a function that also returns it).

// CHECK-LABEL: @returned_and_read_broadcast
// CHECK-NEXT: fused: 2 kernels, 4*N*M*K + 12*N*M + 4*K bytes
// CHECK: fused_reduce_max_sub_{{[0-9]+}}  reduce_max sub  N*M  4*N*M  4*N*M
// CHECK-NEXT: mul_{{[0-9]+}}  mul  N*M*K  4*N*M + 4*K  4*N*M*K
// CHECK: fused vs eager: 2 vs 3 kernels, 4*N*M*K + 12*N*M + 4*K vs 4*N*M*K + 16*N*M + 8*N + 4*K bytes
// REMARK: reduction-copies.mlir:[[# @LINE + 4]]:8: remark: not fused with its producer 'fuse.sub': the two iterate over different spaces: that op is in a reduction's kernel, which takes the generics over its whole space or over its rows, and this op iterates over neither
func.func @returned_and_read_broadcast(%x: tensor<?x?x1xf32>, %o: tensor<1x1x?xf32>) -> (tensor<?x?x1xf32>, tensor<?x?x?xf32>) {
  %m = fuse.reduce_max %x {dims = array<i64: 1>} : tensor<?x?x1xf32> -> tensor<?x1x1xf32>
  %y = fuse.sub %x, %m : tensor<?x?x1xf32>, tensor<?x1x1xf32> -> tensor<?x?x1xf32>
  %z = fuse.mul %y, %o : tensor<?x?x1xf32>, tensor<1x1x?xf32> -> tensor<?x?x?xf32>
  return %y, %z : tensor<?x?x1xf32>, tensor<?x?x?xf32>
}

// CHECK-LABEL: @read_broadcast_only
// CHECK-NEXT: fused: 2 kernels, 4*N*M*K + 12*N*M + 4*K bytes
// CHECK: fused_reduce_max_sub_{{[0-9]+}}  reduce_max sub  N*M  4*N*M  4*N*M
func.func @read_broadcast_only(%x: tensor<?x?x1xf32>, %o: tensor<1x1x?xf32>) -> tensor<?x?x?xf32> {
  %m = fuse.reduce_max %x {dims = array<i64: 1>} : tensor<?x?x1xf32> -> tensor<?x1x1xf32>
  %y = fuse.sub %x, %m : tensor<?x?x1xf32>, tensor<?x1x1xf32> -> tensor<?x?x1xf32>
  %z = fuse.mul %y, %o : tensor<?x?x1xf32>, tensor<1x1x?xf32> -> tensor<?x?x?xf32>
  return %z : tensor<?x?x?xf32>
}

// The same over a new leading dimension, without dimensions of size 1.
// CHECK-LABEL: @new_leading_dimension
// CHECK-NEXT: fused: 2 kernels, 4*N*M*K + 12*N*M + 4*K bytes
func.func @new_leading_dimension(%x: tensor<?x?xf32>, %o: tensor<?x1x1xf32>) -> (tensor<?x?xf32>, tensor<?x?x?xf32>) {
  %m = fuse.reduce_max %x {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %y = fuse.sub %x, %m : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  %z = fuse.mul %y, %o : tensor<?x?xf32>, tensor<?x1x1xf32> -> tensor<?x?x?xf32>
  return %y, %z : tensor<?x?xf32>, tensor<?x?x?xf32>
}

// One reader in place, which the kernel takes, and one broadcast, which
// reads the stored value.
// CHECK-LABEL: @in_place_and_broadcast
// CHECK-NEXT: fused: 2 kernels, 4*N*M*K + 20*N*M + 4*K bytes
// CHECK: fused_reduce_max_sub_mul_{{[0-9]+}}  reduce_max sub mul  N*M  8*N*M  8*N*M
// CHECK-NEXT: mul_{{[0-9]+}}  mul  N*M*K  4*N*M + 4*K  4*N*M*K
func.func @in_place_and_broadcast(%x: tensor<?x?x1xf32>, %o: tensor<1x1x?xf32>, %w: tensor<?x?x1xf32>) -> (tensor<?x?x1xf32>, tensor<?x?x?xf32>) {
  %m = fuse.reduce_max %x {dims = array<i64: 1>} : tensor<?x?x1xf32> -> tensor<?x1x1xf32>
  %y = fuse.sub %x, %m : tensor<?x?x1xf32>, tensor<?x1x1xf32> -> tensor<?x?x1xf32>
  %z = fuse.mul %y, %o : tensor<?x?x1xf32>, tensor<1x1x?xf32> -> tensor<?x?x?xf32>
  %v = fuse.mul %y, %w : tensor<?x?x1xf32>
  return %v, %z : tensor<?x?x1xf32>, tensor<?x?x?xf32>
}

// A kernel that reduces its rows in pieces stores no value over the whole
// space: a value that the function returns is stored by a copy. Computed
// from two operands (or with a math function), the kernel reads that value
// too instead of computing it again: `y = a + b` returned with its sum read
// a and b in both kernels (20 bytes an element, eager's 16).
// CHECK-LABEL: @returned_and_summed_in_pieces
// CHECK-NEXT: fused: 3 kernels, 16*N + 8*P + 4 bytes
// CHECK: add_{{[0-9]+}}  add  N  8*N  4*N
// CHECK-NEXT: reduce_sum_{{[0-9]+}}_pieces  reduce_sum  N  4*N  4*P
// REMARK: reduction-copies.mlir:[[# @LINE + 3]]:8: remark: not fused with its producer 'fuse.add': this op's kernel reduces its rows in pieces, in a launch of their own, and stores no value over the whole space; that op's value, which the function returns or an op reads broadcast, is stored by a kernel of its own, and this op reads it rather than computing it again from several operands or with a math function
func.func @returned_and_summed_in_pieces(%a: tensor<?xf32>, %b: tensor<?xf32>) -> (tensor<?xf32>, tensor<f32>) {
  %y = fuse.add %a, %b : tensor<?xf32>
  %s = fuse.reduce_sum %y {dims = array<i64: 0>} : tensor<?xf32> -> tensor<f32>
  return %y, %s : tensor<?xf32>, tensor<f32>
}

// CHECK-LABEL: @exp_returned_and_summed_in_pieces
// CHECK-NEXT: fused: 3 kernels, 12*N + 8*P + 4 bytes
// CHECK: exp_{{[0-9]+}}  exp  N  4*N  4*N
// CHECK-NEXT: reduce_sum_{{[0-9]+}}_pieces  reduce_sum  N  4*N  4*P
func.func @exp_returned_and_summed_in_pieces(%a: tensor<?xf32>) -> (tensor<?xf32>, tensor<f32>) {
  %e = fuse.exp %a : tensor<?xf32>
  %s = fuse.reduce_sum %e {dims = array<i64: 0>} : tensor<?xf32> -> tensor<f32>
  return %e, %s : tensor<?xf32>, tensor<f32>
}

// One operand and no math function: computed again from it, which costs
// what reading the stored value would.
// CHECK-LABEL: @relu_returned_and_summed_in_pieces
// CHECK-NEXT: fused: 3 kernels, 12*N + 8*P + 4 bytes
// CHECK: fused_relu_reduce_sum_{{[0-9]+}}_pieces  relu reduce_sum  N  4*N  4*P
func.func @relu_returned_and_summed_in_pieces(%a: tensor<?xf32>) -> (tensor<?xf32>, tensor<f32>) {
  %r = fuse.relu %a : tensor<?xf32>
  %s = fuse.reduce_sum %r {dims = array<i64: 0>} : tensor<?xf32> -> tensor<f32>
  return %r, %s : tensor<?xf32>, tensor<f32>
}

// The same for a value that an op reads broadcast, which no copy fuses
// with: the copy stores it, and the kernel reads it (exp computed once).
// CHECK-LABEL: @exp_read_broadcast_and_summed_in_pieces
// CHECK-NEXT: fused: 4 kernels, 4719584 bytes
// CHECK: exp_{{[0-9]+}}  exp  98304  393216  393216
// CHECK-NEXT: reduce_sum_{{[0-9]+}}_pieces  reduce_sum  98304  393216  384
// REMARK: reduction-copies.mlir:[[# @LINE + 3]]:8: remark: not fused with its producer 'fuse.exp': this op's kernel reduces its rows in pieces
func.func @exp_read_broadcast_and_summed_in_pieces(%a: tensor<48x2048xf32>, %t: tensor<8x1x1xf32>) -> (tensor<48x1xf32>, tensor<8x48x2048xf32>) {
  %e = fuse.exp %a : tensor<48x2048xf32>
  %s = fuse.reduce_sum %e {dims = array<i64: 1>} : tensor<48x2048xf32> -> tensor<48x1xf32>
  %o = fuse.mul %e, %t : tensor<48x2048xf32>, tensor<8x1x1xf32> -> tensor<8x48x2048xf32>
  return %s, %o : tensor<48x1xf32>, tensor<8x48x2048xf32>
}

// A kernel over rows read in lanes gives no copy to a member of a kernel
// formed before it (a column max's, which ends at its rows): fused with
// nothing there, the copy of `x * x` was a kernel of its own that stored it
// (5 kernels, 232960 bytes); the row kernel stores it instead.
// CHECK-LABEL: @column_max_of_a_row_normalized_square
// CHECK-NEXT: fused: 4 kernels, 200192 bytes
// CHECK-NEXT: kernel  ops  elements  read  written
// CHECK-NEXT: fused_mul_reduce_sum_div_{{[0-9]+}}  mul reduce_sum div  8192  32768  65792
func.func @column_max_of_a_row_normalized_square(%x: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %e = fuse.mul %x, %x : tensor<64x128xf32>
  %s = fuse.reduce_sum %e {dims = array<i64: 1>} : tensor<64x128xf32> -> tensor<64x1xf32>
  %y = fuse.div %e, %s : tensor<64x128xf32>, tensor<64x1xf32> -> tensor<64x128xf32>
  %c = fuse.reduce_max %y {dims = array<i64: 0>} : tensor<64x128xf32> -> tensor<1x128xf32>
  %o = fuse.sub %y, %c : tensor<64x128xf32>, tensor<1x128xf32> -> tensor<64x128xf32>
  return %o : tensor<64x128xf32>
}

// A copy that reads over the whole space only arguments, and values of the
// rows broadcast, with no math function, starts no chain: a variance over
// axis 0 (as the Python package traces it: the distances from the max, less
// their mean) computes the squares in the last mean's kernel from x again,
// where it stored them (7 kernels, 20*N*M bytes).
// CHECK-LABEL: @variance_over_axis_0
// CHECK-NEXT: fused: 6 kernels, 12*N*M + 24*M*P + 24*M bytes
// CHECK: fused_sub_sub_mul_reduce_mean_{{[0-9]+}}_pieces  sub sub mul reduce_mean  N*M  4*N*M + 8*M  4*M*P
func.func @variance_over_axis_0(%x: tensor<?x?xf32>) -> tensor<?xf32> {
  %0 = fuse.reduce_max %x {dims = array<i64: 0>, identity_if_empty} : tensor<?x?xf32> -> tensor<1x?xf32>
  %1 = fuse.sub %x, %0 : tensor<?x?xf32>, tensor<1x?xf32> -> tensor<?x?xf32>
  %2 = fuse.reduce_mean %1 {dims = array<i64: 0>} : tensor<?x?xf32> -> tensor<1x?xf32>
  %3 = fuse.sub %1, %2 : tensor<?x?xf32>, tensor<1x?xf32> -> tensor<?x?xf32>
  %4 = fuse.mul %3, %3 : tensor<?x?xf32>
  %5 = fuse.reduce_mean %4 {dims = array<i64: 0>} : tensor<?x?xf32> -> tensor<?xf32>
  return %5 : tensor<?xf32>
}

// A copy of such a copy's reader does start one: along a chain of
// centerings over axis 0, a kernel computes at most the two before it
// again, then one stores its value for the next.
// CHECK-LABEL: @centerings_over_axis_0
// CHECK-NEXT: fused: 12 kernels, 36*N*M + 40*M*P + 56*M bytes
// CHECK: fused_sub_sub_sub_{{[0-9]+}}  sub sub sub  N*M  4*N*M + 12*M  4*N*M
func.func @centerings_over_axis_0(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %m1 = fuse.reduce_max %x {dims = array<i64: 0>} : tensor<?x?xf32> -> tensor<1x?xf32>
  %y1 = fuse.sub %x, %m1 : tensor<?x?xf32>, tensor<1x?xf32> -> tensor<?x?xf32>
  %m2 = fuse.reduce_max %y1 {dims = array<i64: 0>} : tensor<?x?xf32> -> tensor<1x?xf32>
  %y2 = fuse.sub %y1, %m2 : tensor<?x?xf32>, tensor<1x?xf32> -> tensor<?x?xf32>
  %m3 = fuse.reduce_max %y2 {dims = array<i64: 0>} : tensor<?x?xf32> -> tensor<1x?xf32>
  %y3 = fuse.sub %y2, %m3 : tensor<?x?xf32>, tensor<1x?xf32> -> tensor<?x?xf32>
  %m4 = fuse.reduce_max %y3 {dims = array<i64: 0>} : tensor<?x?xf32> -> tensor<1x?xf32>
  %y4 = fuse.sub %y3, %m4 : tensor<?x?xf32>, tensor<1x?xf32> -> tensor<?x?xf32>
  %m5 = fuse.reduce_max %y4 {dims = array<i64: 0>} : tensor<?x?xf32> -> tensor<1x?xf32>
  %y5 = fuse.sub %y4, %m5 : tensor<?x?xf32>, tensor<1x?xf32> -> tensor<?x?xf32>
  return %y5 : tensor<?x?xf32>
}

// The op after a column sum computes `x - rowmax(x)` again from x, as the
// sum's kernel does: the row max's kernel stored it for that op (4
// kernels, 20*N*M bytes), a copy that reads only arguments and rows
// broadcast being taken for one that computes another kernel's values.
// CHECK-LABEL: @row_max_then_column_sum
// CHECK-NEXT: fused: 4 kernels, 16*N*M + 8*M*P + 12*N + 8*M bytes
// CHECK-NEXT: kernel  ops  elements  read  written
// CHECK-NEXT: reduce_max_{{[0-9]+}}  reduce_max  N*M  4*N*M  4*N
// CHECK: fused_sub_div_{{[0-9]+}}  sub div  N*M  4*N*M + 4*N + 4*M  4*N*M
func.func @row_max_then_column_sum(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %m = fuse.reduce_max %x {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %y = fuse.sub %x, %m : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  %s = fuse.reduce_sum %y {dims = array<i64: 0>} : tensor<?x?xf32> -> tensor<1x?xf32>
  %z = fuse.div %y, %s : tensor<?x?xf32>, tensor<1x?xf32> -> tensor<?x?xf32>
  return %z : tensor<?x?xf32>
}

// A value that only the next kernel reads, computed from one that the
// kernel stores anyway (x3 = tanh(x2) + (x2 - mean(x2)) and its tanh, which
// the next link reads): computed from that stored value by a generic of its
// own, which fuses with the next kernel. The kernel stored both (2 kernels,
// 24*N*M bytes); the tanh is computed once either way.
// CHECK-LABEL: @tail_read_by_the_next_kernel
// CHECK-NEXT: fused: 2 kernels, 16*N*M bytes (read 8*N*M, written 8*N*M)
// CHECK-NEXT: kernel  ops  elements  read  written
// CHECK-NEXT: fused_reduce_mean_tanh_sub_add_tanh_plus3_{{[0-9]+}}  reduce_mean tanh sub add tanh reduce_mean sub add  N*M  4*N*M  4*N*M
// CHECK-NEXT: fused_tanh_reduce_mean_sub_add_{{[0-9]+}}  tanh reduce_mean sub add  N*M  4*N*M  4*N*M
func.func @tail_read_by_the_next_kernel(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = fuse.tanh %x : tensor<?x?xf32>
  %1 = fuse.reduce_mean %x {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %2 = fuse.sub %x, %1 : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  %3 = fuse.add %0, %2 : tensor<?x?xf32>
  %4 = fuse.tanh %3 : tensor<?x?xf32>
  %5 = fuse.reduce_mean %3 {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %6 = fuse.sub %3, %5 : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  %7 = fuse.add %4, %6 : tensor<?x?xf32>
  %8 = fuse.tanh %7 : tensor<?x?xf32>
  %9 = fuse.reduce_mean %7 {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %10 = fuse.sub %7, %9 : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  %11 = fuse.add %8, %10 : tensor<?x?xf32>
  return %11 : tensor<?x?xf32>
}
