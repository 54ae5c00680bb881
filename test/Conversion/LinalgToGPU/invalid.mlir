// RUN: not fuse-opt %s --fuse-map-to-gpu=block-size=0 2>&1 | FileCheck %s

// CHECK: fuse-opt: error: block-size must be in [1, 1024] (a CUDA block has at most 1024 threads) and vector-bytes a power of two in [1, 256]; got block-size=0 vector-bytes=16
// CHECK-NOT: see current operation
func.func @f(%a: memref<?xf32>) {
  return
}

// RUN: not fuse-opt %s --fuse-map-to-gpu=block-size=2048 2>&1 | FileCheck %s --check-prefix=LARGE
// LARGE: fuse-opt: error: block-size must be in [1, 1024] (a CUDA block has at most 1024 threads) and vector-bytes a power of two in [1, 256]; got block-size=2048 vector-bytes=16

// RUN: not fuse-opt %s --fuse-map-to-gpu=vector-bytes=12 2>&1 | FileCheck %s --check-prefix=ODD
// ODD: fuse-opt: error: block-size must be in [1, 1024] (a CUDA block has at most 1024 threads) and vector-bytes a power of two in [1, 256]; got block-size=256 vector-bytes=12
