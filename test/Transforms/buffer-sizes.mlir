// RUN: fuse-opt %s --fuse-buffer-sizes | FileCheck %s
// RUN: fuse-opt %s --fuse-buffer-sizes --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" | FileCheck %s --check-prefix=BUFFERS

// The tensor.dims of an argument become memref.dims of one read-only
// to_buffer of it, so that the tensor has one use; bufferization turns the
// to_buffer into the argument's buffer, which the memref.dims then read.

// CHECK-LABEL: func.func @sizes
// CHECK-SAME:    (%[[X:.+]]: tensor<?x4x?xf32>, %[[Y:.+]]: tensor<?xf32>)
// CHECK-DAG:     %[[BY:.+]] = bufferization.to_buffer %[[Y]] read_only : tensor<?xf32> to memref<?xf32>
// CHECK-DAG:     %[[BX:.+]] = bufferization.to_buffer %[[X]] read_only : tensor<?x4x?xf32> to memref<?x4x?xf32>
// CHECK-NOT:     tensor.dim
// CHECK:         %[[D0:.+]] = memref.dim %[[BX]], %c0 : memref<?x4x?xf32>
// CHECK:         %[[D2:.+]] = memref.dim %[[BX]], %c2 : memref<?x4x?xf32>
// CHECK:         %[[E0:.+]] = memref.dim %[[BY]], %c0 : memref<?xf32>
// CHECK:         %[[EQ:.+]] = arith.cmpi eq, %[[D0]], %[[E0]] : index
// CHECK:         cf.assert %[[EQ]]
// CHECK:         tensor.empty(%[[D0]], %[[D2]]) : tensor<?x4x?xf32>

// BUFFERS-LABEL: func.func @sizes
// BUFFERS-SAME:    (%[[X:.+]]: memref<?x4x?xf32>, %[[Y:.+]]: memref<?xf32>)
// BUFFERS-NOT:     bufferization.to_buffer
// BUFFERS:         %[[D0:.+]] = memref.dim %[[X]], %c0 : memref<?x4x?xf32>
// BUFFERS:         %[[D2:.+]] = memref.dim %[[X]], %c2 : memref<?x4x?xf32>
// BUFFERS:         %[[E0:.+]] = memref.dim %[[Y]], %c0 : memref<?xf32>
// BUFFERS:         memref.alloc(%[[D0]], %[[D2]]) {{.*}} : memref<?x4x?xf32>
func.func @sizes(%x: tensor<?x4x?xf32>, %y: tensor<?xf32>) -> tensor<?x4x?xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x4x?xf32>
  %d2 = tensor.dim %x, %c2 : tensor<?x4x?xf32>
  %e0 = tensor.dim %y, %c0 : tensor<?xf32>
  %eq = arith.cmpi eq, %d0, %e0 : index
  cf.assert %eq, "sizes"
  %empty = tensor.empty(%d0, %d2) : tensor<?x4x?xf32>
  %r = linalg.copy ins(%x : tensor<?x4x?xf32>) outs(%empty : tensor<?x4x?xf32>) -> tensor<?x4x?xf32>
  return %r : tensor<?x4x?xf32>
}

// An argument whose sizes are not read is left alone.

// CHECK-LABEL: func.func @static
// CHECK-NOT:     bufferization.to_buffer
func.func @static(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
