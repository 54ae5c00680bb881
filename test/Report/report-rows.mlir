// RUN: fuse-opt %s --fuse-report | FileCheck %s --match-full-lines
// RUN: fuse-opt %s --fuse-report --block-size=48 | FileCheck %s --check-prefix=BLOCK48
// RUN: fuse-opt %s --fuse-report=json | FileCheck %s --check-prefix=JSON

// How each kernel with reductions takes its rows, the same choice as
// fuse-map-to-gpu's (test/Conversion/FuseToGPU/row-kernels.mlir): a warp
// per row on the GPU when the row is one innermost dimension read in 32
// lanes and every accumulator has 32 bits; else a thread per row. The CPU
// reads such rows in 32-lane vectors. A constant number of rows below 132
// (the SMs of an H100 or H200) says how few warps or threads that is.

// CHECK-LABEL: @softmax  N = argument 0 dimension 0, M = argument 0 dimension 1
// CHECK:         kernel with reductions                     rows  length  GPU           CPU
// CHECK-NEXT:    fused_reduce_max_sub_exp_reduce_sum_div_0  N     M       warp per row  thread per row, 32-lane vectors
// CHECK-NEXT:  eager: 5 kernels, {{.*}}
// BLOCK48-LABEL: @softmax
// BLOCK48:         fused_reduce_max_sub_exp_reduce_sum_div_0  N     M       thread per row  thread per row, 32-lane vectors
// JSON:        "name": "fused_reduce_max_sub_exp_reduce_sum_div_0",
// JSON:        "rows": {
// JSON-NEXT:     "count": "N",
// JSON-NEXT:     "cpu": "thread per row, 32-lane vectors",
// JSON-NEXT:     "gpu": "warp per row",
// JSON-NEXT:     "length": "M"
// JSON-NEXT:   }
func.func @softmax(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %max = fuse.reduce_max %x {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %shifted = fuse.sub %x, %max : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  %e = fuse.exp %shifted : tensor<?x?xf32>
  %sum = fuse.reduce_sum %e {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %y = fuse.div %e, %sum : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

// A full reduction of a vector is one row: one warp on the GPU. An f64 sum
// has 64-bit accumulators (a thread per row), a sum over two dimensions is
// read element by element, and so is one over the leading dimension (each
// of the 4 columns a row), as is an f16 sum over a middle dimension.
// CHECK-LABEL: @forms  N = {{.*}}
// CHECK:         kernel with reductions  rows  length  GPU                                CPU
// CHECK-NEXT:    reduce_sum_1            1     N       warp per row (1 warp in all)       thread per row, 32-lane vectors
// CHECK-NEXT:    reduce_sum_2            M     K       thread per row                     thread per row, 32-lane vectors
// CHECK-NEXT:    reduce_sum_3            1     M*K     thread per row (1 thread in all)   thread per row, element by element
// CHECK-NEXT:    reduce_max_4            4     L       thread per row (4 threads in all)  thread per row, element by element
// CHECK-NEXT:    reduce_sum_5            P*R   Q       thread per row                     thread per row, element by element
// CHECK-NEXT:  eager: 5 kernels, {{.*}}
func.func @forms(%x: tensor<?xf32>, %y: tensor<?x?xf64>, %z: tensor<?x4xf32>, %w: tensor<?x?x?xf16>)
    -> (tensor<f32>, tensor<?xf64>, tensor<f64>, tensor<4xf32>, tensor<?x?xf16>) {
  %s = fuse.reduce_sum %x {dims = array<i64: 0>} : tensor<?xf32> -> tensor<f32>
  %r = fuse.reduce_sum %y {dims = array<i64: 1>} : tensor<?x?xf64> -> tensor<?xf64>
  %t = fuse.reduce_sum %y {dims = array<i64: 0, 1>} : tensor<?x?xf64> -> tensor<f64>
  %u = fuse.reduce_max %z {dims = array<i64: 0>} : tensor<?x4xf32> -> tensor<4xf32>
  %v = fuse.reduce_sum %w {dims = array<i64: 1>} : tensor<?x?x?xf16> -> tensor<?x?xf16>
  return %s, %r, %t, %u, %v : tensor<f32>, tensor<?xf64>, tensor<f64>, tensor<4xf32>, tensor<?x?xf16>
}
