// RUN: fuse-opt %s --fuse-pipeline=linalg | FileCheck %s --check-prefix=LINALG
// RUN: fuse-opt %s --fuse-pipeline=fused | FileCheck %s --check-prefix=FUSED
// RUN: fuse-opt %s --fuse-pipeline=fused --fusion=off | FileCheck %s --check-prefix=EAGER
// RUN: fuse-opt %s --fuse-pipeline=fused --fuse-horizontal=false | FileCheck %s --check-prefix=VERTICAL
// Passes named on the command line run after the stage.
// RUN: fuse-opt %s --fuse-pipeline=linalg --fuse-name-kernels | FileCheck %s --check-prefix=NAMED

// The first two stages of --fuse-pipeline: `linalg` is the eager lowering
// (one generic per op, not named, cleaned up); `fused` fuses and names the
// kernels, or only names them with --fusion=off.

// LINALG-LABEL: func @add_relu
// LINALG-SAME: (%[[A:.+]]: tensor<?xf32>, %[[B:.+]]: tensor<?xf32>)
// LINALG-DAG: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// LINALG-DAG: %[[DA:.+]] = tensor.dim %[[A]], %c0 : tensor<?xf32>
// LINALG-DAG: %[[DB:.+]] = tensor.dim %[[B]], %c0 : tensor<?xf32>
// LINALG: %[[EQ:.+]] = arith.cmpi eq, %[[DA]], %[[DB]] : index
// LINALG-NEXT: cf.assert %[[EQ]], "fuse.add at {{.*}}stages-linalg-fused.mlir:[[@LINE+26]]:8: dimension 0 of argument 0 and dimension 0 of argument 1 must be equal (broadcasting assumes it)"
// LINALG: %[[ADD:.+]] = linalg.generic {{.*}} ins(%[[A]], %[[B]] : tensor<?xf32>, tensor<?xf32>) {{.*}} attrs = {fuse.ops = ["add"]} {
// LINALG: arith.addf
// LINALG: linalg.generic {{.*}} ins(%[[ADD]] : tensor<?xf32>) {{.*}} attrs = {fuse.ops = ["relu"]} {
// LINALG-NEXT: ^bb0(%[[X:.+]]: f32, %{{.+}}: f32):
// LINALG-NEXT: arith.maximumf %[[X]], %[[ZERO]] : f32
// LINALG-NOT: fuse.kernel
// LINALG: return

// FUSED-LABEL: func @add_relu
// FUSED: cf.assert
// FUSED: %[[K:.+]] = linalg.generic {{.*}} attrs = {fuse.kernel = "fused_add_relu_0", fuse.ops = ["add", "relu"]} {
// FUSED-NOT: linalg.generic
// FUSED: return %[[K]]

// EAGER-LABEL: func @add_relu
// EAGER: %[[ADD:.+]] = linalg.generic {{.*}} attrs = {fuse.kernel = "add_0", fuse.ops = ["add"]} {
// EAGER: linalg.generic {{.*}} ins(%[[ADD]] : tensor<?xf32>) {{.*}} attrs = {fuse.kernel = "relu_1", fuse.ops = ["relu"]} {

// VERTICAL-LABEL: func @add_relu
// VERTICAL: fuse.kernel = "fused_add_relu_0"

// NAMED-LABEL: func @add_relu
// NAMED: fuse.kernel = "add_0"
// NAMED: fuse.kernel = "relu_1"
func.func @add_relu(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %0 = fuse.add %a, %b : tensor<?xf32>
  %1 = fuse.relu %0 : tensor<?xf32>
  return %1 : tensor<?xf32>
}

// LINALG-LABEL: func @side_by_side
// LINALG: linalg.generic {{.*}} attrs = {fuse.ops = ["exp"]}
// LINALG: linalg.generic {{.*}} attrs = {fuse.ops = ["neg"]}

// FUSED-LABEL: func @side_by_side
// FUSED: %[[K:.+]]:2 = linalg.generic {{.*}} attrs = {fuse.kernel = "fused_exp_neg_1", fuse.ops = ["exp", "neg"]} {
// FUSED-NOT: linalg.generic
// FUSED: return %[[K]]#0, %[[K]]#1

// EAGER-LABEL: func @side_by_side
// EAGER: fuse.kernel = "exp_2"
// EAGER: fuse.kernel = "neg_3"

// VERTICAL-LABEL: func @side_by_side
// VERTICAL: fuse.kernel = "exp_1"
// VERTICAL: fuse.kernel = "neg_2"

// NAMED-LABEL: func @side_by_side
// NAMED: fuse.kernel = "exp_2"
// NAMED: fuse.kernel = "neg_3"
func.func @side_by_side(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = fuse.exp %a : tensor<4xf32>
  %1 = fuse.neg %b : tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}
