// RUN: fuse-opt %s --fuse-pipeline=fused | FileCheck %s
// RUN: fuse-opt %s --fuse-pipeline=fused --fusion=off | FileCheck %s --check-prefix=EAGER
// RUN: fuse-opt %s --fuse-report | FileCheck %s --check-prefix=REPORT

// A program that computes an op twice from the same operands (`x.mean(0)`
// written twice, `exp(y)` in two places) computes it once fused: the
// fused pipeline starts with `cse`. Eager computes each op as written.

// CHECK-LABEL: func @twice
// CHECK: %[[MEAN:.+]] = linalg.generic {{.*}}fuse.kernel = "reduce_mean_0", fuse.ops = ["reduce_mean"]
// CHECK: %[[DIV:.+]] = linalg.generic {{.*}}fuse.kernel = "reduce_mean_0", fuse.ops = []
// CHECK: linalg.generic {{.*}} ins(%{{.+}}, %[[DIV]] : tensor<?x?xf32>, tensor<?xf32>) {{.*}}fuse.kernel = "fused_sub_exp_div_div_1", fuse.ops = ["sub", "exp", "div", "div"]
// CHECK-NOT: linalg.generic
// EAGER-LABEL: func @twice
// EAGER-COUNT-2: fuse.ops = ["reduce_mean"]
// EAGER-COUNT-2: fuse.ops = ["exp"]
// REPORT: fused: 3 kernels, 12*N*M + 8*M*P + 8*M bytes
// REPORT: eager: 9 kernels, 52*N*M + 16*M*P + 16*M bytes
func.func @twice(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %m = fuse.reduce_mean %x {dims = array<i64: 0>} : tensor<?x?xf32> -> tensor<1x?xf32>
  %m2 = fuse.reduce_mean %x {dims = array<i64: 0>} : tensor<?x?xf32> -> tensor<1x?xf32>
  %d = fuse.sub %x, %m : tensor<?x?xf32>, tensor<1x?xf32> -> tensor<?x?xf32>
  %e = fuse.exp %d : tensor<?x?xf32>
  %e2 = fuse.exp %d : tensor<?x?xf32>
  %s = fuse.div %e, %e2 : tensor<?x?xf32>
  %y = fuse.div %s, %m2 : tensor<?x?xf32>, tensor<1x?xf32> -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}
