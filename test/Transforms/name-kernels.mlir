// RUN: fuse-opt %s --convert-fuse-to-linalg --fuse-elementwise-fusion --fuse-name-kernels | FileCheck %s
// RUN: fuse-opt %s --convert-fuse-to-linalg --fuse-name-kernels | FileCheck %s --check-prefix=EAGER
// Naming is stable: naming again, in the same run or on the printed
// result, gives the same names.
// RUN: fuse-opt %s --convert-fuse-to-linalg --fuse-elementwise-fusion --fuse-name-kernels --fuse-name-kernels | FileCheck %s
// RUN: fuse-opt %s --convert-fuse-to-linalg --fuse-elementwise-fusion --fuse-name-kernels | fuse-opt --fuse-name-kernels | FileCheck %s
// A negative first number is refused (it made names such as add_-5, which
// aborted PTX emission).
// RUN: not fuse-opt %s --convert-fuse-to-linalg --fuse-name-kernels=first=-5 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// NEGATIVE: fuse-opt: error: fuse-name-kernels: first=-5 is negative; kernels are numbered from 0 or more
// NEGATIVE-NOT: see current operation
// A number past the largest int64_t wrapped around to a negative one.
// RUN: not fuse-opt %s --convert-fuse-to-linalg --fuse-name-kernels=first=9223372036854775806 2>&1 | FileCheck %s --check-prefix=LAST
// LAST: error: fuse-name-kernels: first=9223372036854775806 leaves no number for every kernel

// Kernels are named after their fuse.ops, numbered in program order across
// the module: fused_<ops>_<n> for several ops, <op>_<n> for one.

// CHECK-LABEL: func @add_relu
// CHECK: linalg.generic
// CHECK-SAME: fuse.kernel = "fused_add_relu_0", fuse.ops = ["add", "relu"]
// CHECK-NOT: linalg.generic
// EAGER-LABEL: func @add_relu
// EAGER: linalg.generic
// EAGER-SAME: fuse.kernel = "add_0", fuse.ops = ["add"]
// EAGER: linalg.generic
// EAGER-SAME: fuse.kernel = "relu_1", fuse.ops = ["relu"]
// EAGER-NOT: linalg.generic
func.func @add_relu(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %0 = fuse.add %a, %b : tensor<?xf32>
  %1 = fuse.relu %0 : tensor<?xf32>
  return %1 : tensor<?xf32>
}

// Numbering continues in the next function; a one-op kernel has no
// `fused_` prefix.
// CHECK-LABEL: func @two_kernels
// CHECK: linalg.generic
// CHECK-SAME: fuse.kernel = "exp_1", fuse.ops = ["exp"]
// CHECK: linalg.generic
// CHECK-SAME: fuse.kernel = "fused_mul_neg_2", fuse.ops = ["mul", "neg"]
// EAGER-LABEL: func @two_kernels
// EAGER: fuse.kernel = "exp_2"
// EAGER: fuse.kernel = "mul_3"
// EAGER: fuse.kernel = "neg_4"
func.func @two_kernels(%a: tensor<4xf32>, %m: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %0 = fuse.exp %a : tensor<4xf32>
  %1 = fuse.mul %m, %0 : tensor<3x4xf32>, tensor<4xf32> -> tensor<3x4xf32>
  %2 = fuse.neg %1 : tensor<3x4xf32>
  return %2 : tensor<3x4xf32>
}

// Five ops are all listed.
// CHECK-LABEL: func @five_ops
// CHECK: fuse.kernel = "fused_exp_neg_abs_tanh_sin_3"
func.func @five_ops(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = fuse.exp %a : tensor<4xf32>
  %1 = fuse.neg %0 : tensor<4xf32>
  %2 = fuse.abs %1 : tensor<4xf32>
  %3 = fuse.tanh %2 : tensor<4xf32>
  %4 = fuse.sin %3 : tensor<4xf32>
  return %4 : tensor<4xf32>
}

// After five, the rest is counted: `_plusN_`.
// CHECK-LABEL: func @seven_ops
// CHECK: fuse.kernel = "fused_exp_neg_abs_tanh_sin_plus2_4"
// CHECK-SAME: fuse.ops = ["exp", "neg", "abs", "tanh", "sin", "cos", "erf"]
func.func @seven_ops(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = fuse.exp %a : tensor<4xf32>
  %1 = fuse.neg %0 : tensor<4xf32>
  %2 = fuse.abs %1 : tensor<4xf32>
  %3 = fuse.tanh %2 : tensor<4xf32>
  %4 = fuse.sin %3 : tensor<4xf32>
  %5 = fuse.cos %4 : tensor<4xf32>
  %6 = fuse.erf %5 : tensor<4xf32>
  return %6 : tensor<4xf32>
}

// The same op twice is listed twice (neg: relu, floor and ceil twice fold
// to one, fold.mlir).
// CHECK-LABEL: func @repeated_op
// CHECK: fuse.kernel = "fused_neg_neg_5"
func.func @repeated_op(%a: tensor<4xi32>) -> tensor<4xi32> {
  %0 = fuse.neg %a : tensor<4xi32>
  %1 = fuse.neg %0 : tensor<4xi32>
  return %1 : tensor<4xi32>
}

// A generic that did not come from fuse ops is not named and takes no
// number.
// CHECK-LABEL: func @foreign_generic
// CHECK: linalg.generic
// CHECK-NOT: fuse.kernel
// CHECK: linalg.yield
// CHECK-LABEL: func @after_foreign
// CHECK: fuse.kernel = "neg_6"
#id = affine_map<(d0) -> (d0)>
func.func @foreign_generic(%a: tensor<4xf32>) -> tensor<4xf32> {
  %init = tensor.empty() : tensor<4xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %1 = arith.negf %in : f32
    linalg.yield %1 : f32
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

func.func @after_foreign(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = fuse.neg %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}
