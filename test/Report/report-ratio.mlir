// RUN: fuse-opt %s --fuse-report | FileCheck %s

// The ratio rounds half away from zero in decimal: 8*N vs 64*N is 0.125,
// which printed as 0.12x (printf's F2 of the binary value).
// CHECK: fused vs eager: 1 vs 8 kernels, 8*N vs 64*N bytes (0.13x the traffic)
func.func @chain(%x: tensor<?xf32>) -> tensor<?xf32> {
  %0 = fuse.neg %x : tensor<?xf32>
  %1 = fuse.abs %0 : tensor<?xf32>
  %2 = fuse.relu %1 : tensor<?xf32>
  %3 = fuse.exp %2 : tensor<?xf32>
  %4 = fuse.sin %3 : tensor<?xf32>
  %5 = fuse.cos %4 : tensor<?xf32>
  %6 = fuse.tanh %5 : tensor<?xf32>
  %7 = fuse.sigmoid %6 : tensor<?xf32>
  return %7 : tensor<?xf32>
}

// No kernel: no table under a variant, only its copies.
// CHECK-LABEL: @returned  N = argument 0 dimension 0
// CHECK-NEXT:    fused: 0 kernels, 8*N bytes (read 4*N, written 4*N)
// CHECK-NEXT:      result 0 is argument 0, copied (no kernel): 4*N read, 4*N written
// CHECK-NEXT:    eager: 0 kernels, 8*N bytes (read 4*N, written 4*N)
// CHECK-NEXT:      result 0 is argument 0, copied (no kernel): 4*N read, 4*N written
func.func @returned(%x: tensor<?xf32>) -> tensor<?xf32> {
  return %x : tensor<?xf32>
}

// The table of rows comes before the copies, under the kernels.
// CHECK-LABEL: @sum_and_copy  N = argument 0 dimension 0, M = argument 0 dimension 1
// CHECK-NEXT:    fused: 1 kernel,
// CHECK-NEXT:      kernel
// CHECK-NEXT:      reduce_sum_{{[0-9]+}}
// CHECK-NEXT:      kernel with reductions
// CHECK-NEXT:      reduce_sum_{{[0-9]+}}
// CHECK-NEXT:      result 1 is argument 0, copied (no kernel)
// CHECK-NEXT:    eager: 1 kernel,
func.func @sum_and_copy(%x: tensor<?x?xf32>) -> (tensor<?xf32>, tensor<?x?xf32>) {
  %0 = fuse.reduce_sum %x {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?xf32>
  return %0, %x : tensor<?xf32>, tensor<?x?xf32>
}

// A kernel over no position does not launch: with static sizes that say
// so it moves no byte (the 5 beside the 0 x 5 was counted, 20 bytes).
// CHECK-LABEL: @static_empty
// CHECK-NEXT:    fused: 1 kernel, 0 bytes (read 0, written 0)
// CHECK-NEXT:      kernel           ops      elements  read  written
// CHECK-NEXT:      fused_add_neg_{{[0-9]+}}  add neg  0         0     0
func.func @static_empty(%a: tensor<0x5xf32>, %b: tensor<5xf32>) -> tensor<0x5xf32> {
  %0 = fuse.add %a, %b : tensor<0x5xf32>, tensor<5xf32> -> tensor<0x5xf32>
  %1 = fuse.neg %0 : tensor<0x5xf32>
  return %1 : tensor<0x5xf32>
}
