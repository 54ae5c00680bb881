// RUN: fuse-opt %s | FileCheck %s
// RUN: fuse-opt %s | fuse-opt | FileCheck %s

// Result shapes of numpy broadcasting, static and dynamic.

// CHECK-LABEL: func @rank_expansion
func.func @rank_expansion(%a: tensor<8x?xf32>, %b: tensor<?xf32>) -> tensor<8x?xf32> {
  // CHECK: fuse.add %{{.*}}, %{{.*}} : tensor<8x?xf32>, tensor<?xf32> -> tensor<8x?xf32>
  %0 = fuse.add %a, %b : tensor<8x?xf32>, tensor<?xf32> -> tensor<8x?xf32>
  return %0 : tensor<8x?xf32>
}

// CHECK-LABEL: func @size_one_stretches
func.func @size_one_stretches(%a: tensor<3x1xf32>, %b: tensor<1x4xf32>) -> tensor<3x4xf32> {
  // CHECK: fuse.mul %{{.*}}, %{{.*}} : tensor<3x1xf32>, tensor<1x4xf32> -> tensor<3x4xf32>
  %0 = fuse.mul %a, %b : tensor<3x1xf32>, tensor<1x4xf32> -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// CHECK-LABEL: func @dynamic_meets_static
func.func @dynamic_meets_static(%a: tensor<?xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: fuse.sub %{{.*}}, %{{.*}} : tensor<?xf32>, tensor<4xf32> -> tensor<4xf32>
  %0 = fuse.sub %a, %b : tensor<?xf32>, tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func @scalar_everywhere
func.func @scalar_everywhere(%a: tensor<2x?x3xf64>) -> tensor<2x?x3xf64> {
  // CHECK: %[[C:.+]] = fuse.constant 2.5 : tensor<f64>
  // CHECK: fuse.pow %{{.*}}, %[[C]] : tensor<2x?x3xf64>, tensor<f64> -> tensor<2x?x3xf64>
  %c = fuse.constant 2.5 : tensor<f64>
  %0 = fuse.pow %a, %c : tensor<2x?x3xf64>, tensor<f64> -> tensor<2x?x3xf64>
  return %0 : tensor<2x?x3xf64>
}
