// RUN: fuse-opt %s --fuse-pipeline=fused | FileCheck %s
// RUN: fuse-opt %s --fuse-pipeline=cpu | FileCheck %s --check-prefix=CPU

// A generic collapsed for a reduction's rows ([2, 3] of the add below) is
// viewed back in its shape with the sizes its type fixes as constants:
// upstream's collapse passed the operand's tensor.dim for the static 3,
// which memref.expand_shape's verifier refused after bufferization ("invalid
// output shape provided at pos 1": difftest seed 650052, a valid program
// that did not compile).

// CHECK: tensor.expand_shape %{{.+}} {{\[}}[0], [1], [2, 3]] output_shape [%{{.+}}, 3, 8, 9] : tensor<?x3x72xi64> into tensor<?x3x8x9xi64>
// CPU: llvm.func @prog(
func.func @prog(%a0: tensor<?x?xf32>, %a1: tensor<?x?x1x1xf64>, %a2: tensor<?x3x8x9xi64>) -> (tensor<?x3x8x9xi64>, tensor<1x1xbf16>) {
  %v2 = fuse.reduce_sum %a1 {dims = array<i64: 0>} : tensor<?x?x1x1xf64> -> tensor<1x?x1x1xf64>
  %v3 = fuse.max %a1, %v2 : tensor<?x?x1x1xf64>, tensor<1x?x1x1xf64> -> tensor<?x?x1x1xf64>
  %v4 = fuse.reduce_mean %a0 {dims = array<i64: 0, 1>} : tensor<?x?xf32> -> tensor<1x1xf32>
  %v5 = fuse.cast %v3 : tensor<?x?x1x1xf64> to tensor<?x?x1x1xf16>
  %v6 = fuse.cast %v5 : tensor<?x?x1x1xf16> to tensor<?x?x1x1xi64>
  %v7 = fuse.cast %v4 : tensor<1x1xf32> to tensor<1x1xbf16>
  %v9 = fuse.add %v6, %a2 : tensor<?x?x1x1xi64>, tensor<?x3x8x9xi64> -> tensor<?x3x8x9xi64>
  return %v9, %v7 : tensor<?x3x8x9xi64>, tensor<1x1xbf16>
}
