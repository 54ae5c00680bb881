// An elementwise op that reads, over the whole space, an operand that a
// reduction's kernel reads there too is in that kernel: the kernel reads
// the operand once for both (`x.sum(1)` beside `exp(x)` read x twice, 12
// bytes per element; now 8), as it did when the op was fused with one
// that the reduction reads (`sum(exp(x))` beside `-x`); beside a reduction
// over several innermost dimensions, read as one row, the op goes over that
// collapsed space too. A kernel that ends
// at its rows (a sum over columns, in pieces) writes no value over the
// whole space: the op stays a kernel of its own there.
// RUN: fuse-opt %s --fuse-report | FileCheck %s
// RUN: fuse-run %s --entry=@beside_a_sum --target=cpu --input=rand:37x300 --check | FileCheck %s --check-prefix=RUNS
// RUN: env FUSE_LIBCUDA=%fakecuda fuse-run %s --entry=@beside_a_sum --target=cuda --input=rand:37x300 --check | FileCheck %s --check-prefix=RUNS
// RUN: fuse-run %s --entry=@beside_a_sum_of_two --target=cpu --input=rand:6x20x20 --check | FileCheck %s --check-prefix=RUNS3
// RUN: fuse-run %s --entry=@beside_a_softmax --target=cpu --input=rand:5x1000 --input=rand:1000 --check | FileCheck %s --check-prefix=RUNS2

// CHECK-LABEL: @beside_a_sum
// CHECK-NEXT:    fused: 1 kernel, 8*N*M + 4*N bytes (read 4*N*M, written 4*N*M + 4*N)
// CHECK-NEXT:      kernel
// CHECK-NEXT:      fused_reduce_sum_exp_0  reduce_sum exp  N*M       4*N*M  4*N*M + 4*N
// RUNS: check: result 0 matches eager (37 elements)
// RUNS: check: result 1 matches eager (11100 elements)
func.func @beside_a_sum(%x: tensor<?x?xf32>) -> (tensor<?x1xf32>, tensor<?x?xf32>) {
  %s = fuse.reduce_sum %x {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %e = fuse.exp %x : tensor<?x?xf32>
  return %s, %e : tensor<?x1xf32>, tensor<?x?xf32>
}

// A softmax of x beside x scaled by a weight per column: one kernel, x
// read once (the mul and the softmax's sub, which read x alike, were one
// generic before this pass already).
// CHECK-LABEL: @beside_a_softmax
// CHECK-NEXT:    fused: 1 kernel, 12*N*M + 4*M bytes (read 4*N*M + 4*M, written 8*N*M)
// RUNS2: check: result 0 matches eager (5000 elements)
// RUNS2: check: result 1 matches eager (5000 elements)
func.func @beside_a_softmax(%x: tensor<?x?xf32>, %w: tensor<?xf32>) -> (tensor<?x?xf32>, tensor<?x?xf32>) {
  %m = fuse.reduce_max %x {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %d = fuse.sub %x, %m : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  %e = fuse.exp %d : tensor<?x?xf32>
  %s = fuse.reduce_sum %e {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %y = fuse.div %e, %s : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  %z = fuse.mul %x, %w : tensor<?x?xf32>, tensor<?xf32> -> tensor<?x?xf32>
  return %y, %z : tensor<?x?xf32>, tensor<?x?xf32>
}

// The same beside a reduction over the two innermost dimensions, which
// reads them as one row: the exp goes over that collapsed space too.
// CHECK-LABEL: @beside_a_sum_of_two
// CHECK-NEXT:    fused: 1 kernel, 8*N*M*K + 4*N bytes (read 4*N*M*K, written 4*N*M*K + 4*N)
// RUNS3: check: result 0 matches eager (6 elements)
// RUNS3: check: result 1 matches eager (2400 elements)
func.func @beside_a_sum_of_two(%x: tensor<?x?x?xf32>) -> (tensor<?x1x1xf32>, tensor<?x?x?xf32>) {
  %s = fuse.reduce_sum %x {dims = array<i64: 1, 2>} : tensor<?x?x?xf32> -> tensor<?x1x1xf32>
  %e = fuse.exp %x : tensor<?x?x?xf32>
  return %s, %e : tensor<?x1x1xf32>, tensor<?x?x?xf32>
}

// CHECK-LABEL: @beside_columns
// CHECK-NEXT:    fused: 3 kernels
// CHECK:           neg_{{[0-9]+}}  neg
func.func @beside_columns(%x: tensor<?x?xf32>) -> (tensor<?xf32>, tensor<?x?xf32>) {
  %s = fuse.reduce_sum %x {dims = array<i64: 0>} : tensor<?x?xf32> -> tensor<?xf32>
  %z = fuse.neg %x : tensor<?x?xf32>
  return %s, %z : tensor<?xf32>, tensor<?x?xf32>
}
