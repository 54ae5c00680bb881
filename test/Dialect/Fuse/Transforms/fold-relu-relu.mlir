// RUN: fuse-opt %s --fuse-fold-relu-relu | FileCheck %s

// relu is idempotent: relu(relu(x)) is relu(x).

// CHECK-LABEL: func @relu_relu
// CHECK-SAME: (%[[X:.+]]: tensor<?xf32>)
// CHECK-NEXT: %[[R:.+]] = fuse.relu %[[X]] : tensor<?xf32>
// CHECK-NEXT: return %[[R]] : tensor<?xf32>
func.func @relu_relu(%x: tensor<?xf32>) -> tensor<?xf32> {
  %0 = fuse.relu %x : tensor<?xf32>
  %1 = fuse.relu %0 : tensor<?xf32>
  return %1 : tensor<?xf32>
}

// A chain of three folds to one, on integers too.
// CHECK-LABEL: func @relu_relu_relu
// CHECK-SAME: (%[[X:.+]]: tensor<4xi32>)
// CHECK-NEXT: %[[R:.+]] = fuse.relu %[[X]] : tensor<4xi32>
// CHECK-NEXT: return %[[R]] : tensor<4xi32>
func.func @relu_relu_relu(%x: tensor<4xi32>) -> tensor<4xi32> {
  %0 = fuse.relu %x : tensor<4xi32>
  %1 = fuse.relu %0 : tensor<4xi32>
  %2 = fuse.relu %1 : tensor<4xi32>
  return %2 : tensor<4xi32>
}

// The inner relu's other users now share it.
// CHECK-LABEL: func @inner_relu_shared
// CHECK-SAME: (%[[X:.+]]: tensor<4xf16>)
// CHECK-NEXT: %[[R:.+]] = fuse.relu %[[X]] : tensor<4xf16>
// CHECK-NEXT: %[[E:.+]] = fuse.exp %[[R]] : tensor<4xf16>
// CHECK-NEXT: return %[[R]], %[[E]] : tensor<4xf16>, tensor<4xf16>
func.func @inner_relu_shared(%x: tensor<4xf16>) -> (tensor<4xf16>, tensor<4xf16>) {
  %0 = fuse.relu %x : tensor<4xf16>
  %1 = fuse.relu %0 : tensor<4xf16>
  %2 = fuse.exp %0 : tensor<4xf16>
  return %1, %2 : tensor<4xf16>, tensor<4xf16>
}

// relu of anything else is left alone.
// CHECK-LABEL: func @relu_of_abs
// CHECK-SAME: (%[[X:.+]]: tensor<4xf32>)
// CHECK-NEXT: %[[A:.+]] = fuse.abs %[[X]] : tensor<4xf32>
// CHECK-NEXT: %[[R:.+]] = fuse.relu %[[A]] : tensor<4xf32>
// CHECK-NEXT: return %[[R]] : tensor<4xf32>
func.func @relu_of_abs(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = fuse.abs %x : tensor<4xf32>
  %1 = fuse.relu %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// A relu of an argument, and a relu between other ops, stay.
// CHECK-LABEL: func @relu_between
// CHECK-SAME: (%[[X:.+]]: tensor<4xf32>)
// CHECK-NEXT: %[[R:.+]] = fuse.relu %[[X]] : tensor<4xf32>
// CHECK-NEXT: %[[N:.+]] = fuse.neg %[[R]] : tensor<4xf32>
// CHECK-NEXT: %[[R2:.+]] = fuse.relu %[[N]] : tensor<4xf32>
// CHECK-NEXT: return %[[R2]] : tensor<4xf32>
func.func @relu_between(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = fuse.relu %x : tensor<4xf32>
  %1 = fuse.neg %0 : tensor<4xf32>
  %2 = fuse.relu %1 : tensor<4xf32>
  return %2 : tensor<4xf32>
}

// Not a relu: clamp with min 0 is left to other passes.
// CHECK-LABEL: func @relu_of_clamp
// CHECK-NEXT: fuse.clamp
// CHECK-NEXT: fuse.relu
func.func @relu_of_clamp(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = fuse.clamp %x {min = 0.0 : f32} : tensor<4xf32>
  %1 = fuse.relu %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}
