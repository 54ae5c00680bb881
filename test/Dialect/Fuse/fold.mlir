// RUN: fuse-opt %s --canonicalize --split-input-file | FileCheck %s

// relu, floor and ceil are idempotent (the op trait): the folder keeps one
// of two in a row, of any element type, and leaves other pairs alone.

// CHECK-LABEL: func @relu_relu
// CHECK-SAME: (%[[X:.+]]: tensor<?xf32>)
// CHECK-NEXT: %[[R:.+]] = fuse.relu %[[X]] : tensor<?xf32>
// CHECK-NEXT: return %[[R]] : tensor<?xf32>
func.func @relu_relu(%x: tensor<?xf32>) -> tensor<?xf32> {
  %0 = fuse.relu %x : tensor<?xf32>
  %1 = fuse.relu %0 : tensor<?xf32>
  %2 = fuse.relu %1 : tensor<?xf32>
  return %2 : tensor<?xf32>
}

// -----

// CHECK-LABEL: func @floor_floor_ceil_ceil
// CHECK-SAME: (%[[X:.+]]: tensor<4xi32>, %[[Y:.+]]: tensor<2x?xf16>)
// CHECK-NEXT: %[[F:.+]] = fuse.floor %[[X]] : tensor<4xi32>
// CHECK-NEXT: %[[C:.+]] = fuse.ceil %[[Y]] : tensor<2x?xf16>
// CHECK-NEXT: return %[[F]], %[[C]]
func.func @floor_floor_ceil_ceil(%x: tensor<4xi32>, %y: tensor<2x?xf16>)
    -> (tensor<4xi32>, tensor<2x?xf16>) {
  %0 = fuse.floor %x : tensor<4xi32>
  %1 = fuse.floor %0 : tensor<4xi32>
  %2 = fuse.ceil %y : tensor<2x?xf16>
  %3 = fuse.ceil %2 : tensor<2x?xf16>
  return %1, %3 : tensor<4xi32>, tensor<2x?xf16>
}

// -----

// Not the same op twice: nothing folds.
// CHECK-LABEL: func @floor_ceil
// CHECK-NEXT: fuse.floor
// CHECK-NEXT: fuse.ceil
// CHECK-NEXT: fuse.relu
func.func @floor_ceil(%x: tensor<?xf32>) -> tensor<?xf32> {
  %0 = fuse.floor %x : tensor<?xf32>
  %1 = fuse.ceil %0 : tensor<?xf32>
  %2 = fuse.relu %1 : tensor<?xf32>
  return %2 : tensor<?xf32>
}
