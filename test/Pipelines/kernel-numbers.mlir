// Kernels are named after canonicalization, which leaves no kernel for a
// reduction over a dimension of size 1 (a view of its operand) or a cast to
// the same type: the kernels that remain are numbered from 0 without gaps,
// fused and eager (the only kernel here was fused_cast_relu_2, and relu_3
// eager).
// RUN: fuse-opt %s --fuse-pipeline=fused | FileCheck %s
// RUN: fuse-opt %s --fuse-pipeline=fused --fusion=off | FileCheck %s --check-prefix=EAGER
// RUN: fuse-opt %s --fuse-report | FileCheck %s --check-prefix=REPORT

// CHECK-LABEL: func.func @views(
// CHECK:         linalg.generic
// CHECK-SAME:      fuse.kernel = "fused_cast_relu_0"
// CHECK-NOT:     linalg.generic
// CHECK-LABEL: func.func @next(
// CHECK:         fuse.kernel = "exp_1"

// EAGER-LABEL: func.func @views(
// EAGER:         linalg.generic
// EAGER-SAME:      fuse.kernel = "relu_0"
// EAGER-NOT:     linalg.generic
// EAGER-LABEL: func.func @next(
// EAGER:         fuse.kernel = "exp_1"

// REPORT:      fused: 1 kernel,
// REPORT-NEXT:   kernel             ops        elements  read  written
// REPORT-NEXT:   fused_cast_relu_0  cast relu  M         4*M   8*M
// REPORT:      eager: 1 kernel,
// REPORT-NEXT:   kernel  ops   elements  read  written
// REPORT-NEXT:   relu_0  relu  M         4*M   4*M
// REPORT:      @next
// REPORT:        exp_1

func.func @views(%x: tensor<?x1xf32>, %y: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>, tensor<?x1xf32>, tensor<?xf32>) {
  %0 = fuse.reduce_sum %x {dims = array<i64: 1>} : tensor<?x1xf32> -> tensor<?xf32>
  %1 = fuse.cast %y : tensor<?xf32> to tensor<?xf32>
  %2 = fuse.reduce_max %x {dims = array<i64: 1>} : tensor<?x1xf32> -> tensor<?x1xf32>
  %3 = fuse.relu %y : tensor<?xf32>
  %4 = fuse.relu %3 : tensor<?xf32>
  return %0, %1, %2, %4 : tensor<?xf32>, tensor<?xf32>, tensor<?x1xf32>, tensor<?xf32>
}

func.func @next(%x: tensor<?xf32>) -> tensor<?xf32> {
  %0 = fuse.exp %x : tensor<?xf32>
  return %0 : tensor<?xf32>
}
