// Sizes that broadcasting assumes equal, which the program checks before
// any kernel runs, are one size for fusion and for the report, whichever
// argument comes first: a reduction of `y` and the ops over
// `y - max(y) + x` are one kernel with `(x, y)` as with `(y, x)` (the
// reduction went over y's own sizes, the ops over x's, and they were two
// kernels, y read twice), and the report names one symbol for each
// dimension (it named y's columns K beside x's M).
// RUN: fuse-opt %s --fuse-report | FileCheck %s
// RUN: fuse-opt %s --fuse-pipeline=fused --fuse-remarks --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK --allow-empty
// RUN: fuse-run %s --entry=@second_reduced --target=cpu --input=rand:37x300 --input=rand:37x300 --check | FileCheck %s --check-prefix=RUNS
// RUN: not fuse-run %s --entry=@second_reduced --target=cpu --input=rand:37x300 --input=rand:37x299 2>&1 | FileCheck %s --check-prefix=MISMATCH

// CHECK-LABEL: @second_reduced  N = argument 0 dimension 0, M = argument 0 dimension 1
// CHECK-NEXT:    fused: 1 kernel, 12*N*M bytes (read 8*N*M, written 4*N*M)
// REMARK-NOT: remark
// RUNS: check: result 0 matches eager (11100 elements)
// MISMATCH: fuse-run: error: fuse.add at {{.*}}equal-sizes.mlir:[[# @LINE + 4]]:8: dimension 1 of argument 1 and dimension 1 of argument 0 must be equal (broadcasting assumes it)
func.func @second_reduced(%x: tensor<?x?xf32>, %y: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %m = fuse.reduce_max %y {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %s = fuse.sub %y, %m : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  %z = fuse.add %s, %x : tensor<?x?xf32>
  return %z : tensor<?x?xf32>
}

// CHECK-LABEL: @first_reduced  N = argument 0 dimension 0, M = argument 0 dimension 1
// CHECK-NEXT:    fused: 1 kernel, 12*N*M bytes (read 8*N*M, written 4*N*M)
func.func @first_reduced(%y: tensor<?x?xf32>, %x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %m = fuse.reduce_max %y {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %s = fuse.sub %y, %m : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  %z = fuse.add %s, %x : tensor<?x?xf32>
  return %z : tensor<?x?xf32>
}

// Two row sums and an add of their operands: one kernel, each read once.
// CHECK-LABEL: @sums_beside_an_add  N = argument 0 dimension 0, M = argument 0 dimension 1
// CHECK-NEXT:    fused: 1 kernel, 12*N*M + 8*N bytes (read 8*N*M, written 4*N*M + 8*N)
func.func @sums_beside_an_add(%x: tensor<?x?xf32>, %y: tensor<?x?xf32>) -> (tensor<?xf32>, tensor<?xf32>, tensor<?x?xf32>) {
  %a = fuse.reduce_sum %x {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?xf32>
  %b = fuse.reduce_sum %y {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?xf32>
  %c = fuse.add %x, %y : tensor<?x?xf32>
  return %a, %b, %c : tensor<?xf32>, tensor<?xf32>, tensor<?x?xf32>
}
