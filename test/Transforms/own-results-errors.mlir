// RUN: fuse-opt %s --fuse-own-results --verify-diagnostics

// A result with a layout (a view returned as it is) gets no buffer of its
// own: memref.alloc makes the identity layout only, and the pass made an
// invalid one.
func.func @view(%a: memref<?xf32>, %n: index) -> memref<?xf32, strided<[1], offset: ?>> {
  %c1 = arith.constant 1 : index
  %s = memref.subview %a[%c1] [%n] [1] : memref<?xf32> to memref<?xf32, strided<[1], offset: ?>>
  // expected-error @+1 {{'func.return' op returns result 0 as 'memref<?xf32, strided<[1], offset: ?>>', with a layout; fuse-own-results gives each result a buffer of its own, of the identity layout (bufferize with function-boundary-type-conversion=identity-layout-map)}}
  return %s : memref<?xf32, strided<[1], offset: ?>>
}
