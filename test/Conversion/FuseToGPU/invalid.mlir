// RUN: not fuse-opt %s --fuse-map-to-gpu=block-size=0 2>&1 | FileCheck %s

// CHECK: error: block-size and vector-bytes must be positive
func.func @f(%a: memref<?xf32>) {
  return
}
