// RUN: fuse-opt %s --fuse-host-to-device --verify-diagnostics

// A copy out of a strided view is not a gpu.memcpy of its bytes (4 floats
// of each row of 8): it became one, copying the first 4 n floats.
func.func @strided(%a: memref<?x8xf32>, %n: index) -> memref<?x4xf32> {
  %s = memref.subview %a[0, 0] [%n, 4] [1, 1] : memref<?x8xf32> to memref<?x4xf32, strided<[8, 1]>>
  %b = memref.alloc(%n) : memref<?x4xf32>
  // expected-error @+1 {{'memref.copy' op copies 'memref<?x4xf32, strided<[8, 1]>>', a view with a layout; fuse-host-to-device makes each copy a gpu.memcpy of whole buffers (identity layouts), as the pipelines' are}}
  memref.copy %s, %b : memref<?x4xf32, strided<[8, 1]>> to memref<?x4xf32>
  return %b : memref<?x4xf32>
}
