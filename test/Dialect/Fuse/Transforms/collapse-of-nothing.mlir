// RUN: fuse-opt %s --fuse-canonicalize | FileCheck %s

// A collapse of a tensor with a static 0 is an empty tensor: there is
// nothing to read, and bufferized it would be a memref.collapse_shape that
// upstream's verifier refuses (a static 0 in the group, a dynamic result).
// CHECK-LABEL: func @collapse_of_nothing
// CHECK-SAME: (%[[X:.+]]: tensor<1x?x0xf32>, %[[Y:.+]]: tensor<?x?x3xf32>)
// CHECK-NOT: tensor.collapse_shape %[[X]]
// CHECK: %[[EMPTY:.+]] = tensor.empty() : tensor<0xf32>
// CHECK: %[[CAST:.+]] = tensor.cast %[[EMPTY]] : tensor<0xf32> to tensor<?xf32>
// CHECK: %[[ROW:.+]] = tensor.collapse_shape %[[Y]] {{\[}}[0, 1, 2]]
// CHECK: return %[[CAST]], %[[ROW]]
func.func @collapse_of_nothing(%x: tensor<1x?x0xf32>, %y: tensor<?x?x3xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  %0 = tensor.collapse_shape %x [[0, 1, 2]] : tensor<1x?x0xf32> into tensor<?xf32>
  %1 = tensor.collapse_shape %y [[0, 1, 2]] : tensor<?x?x3xf32> into tensor<?xf32>
  return %0, %1 : tensor<?xf32>, tensor<?xf32>
}
