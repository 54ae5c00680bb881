// RUN: fuse-opt %s --fuse-pipeline=cpu --fusion=off | FileCheck %s

// On the cpu target each kernel is a function of its own that LLVM never
// inlines into the host function (compile time stays linear in the number
// of kernels), and each intermediate is freed right after its last kernel,
// not at the end of the function: an eager chain holds two intermediates
// at a time. The result comes from the runtime (fuse-result-allocs).

// CHECK-DAG: llvm.func internal @relu_0({{.*}}) attributes {passthrough = ["noinline"], sym_visibility = "private"}
// CHECK-DAG: llvm.func internal @neg_1({{.*}}) attributes {passthrough = ["noinline"], sym_visibility = "private"}
// CHECK-DAG: llvm.func internal @abs_2({{.*}}) attributes {passthrough = ["noinline"], sym_visibility = "private"}
// CHECK-DAG: llvm.func internal @exp_3({{.*}}) attributes {passthrough = ["noinline"], sym_visibility = "private"}

// CHECK-LABEL: llvm.func @chain(
// CHECK-NOT:     llvm.call @free
// CHECK:         llvm.call @malloc
// CHECK-NOT:     llvm.call @free
// CHECK:         llvm.call @relu_0(
// CHECK-NOT:     llvm.call @free
// CHECK:         llvm.call @malloc
// CHECK-NOT:     llvm.call @free
// CHECK:         llvm.call @neg_1(
// CHECK-NOT:     llvm.call @malloc
// CHECK:         llvm.call @free
// CHECK-NOT:     llvm.call @free
// CHECK:         llvm.call @malloc
// CHECK-NOT:     llvm.call @free
// CHECK:         llvm.call @abs_2(
// CHECK-NOT:     llvm.call @malloc
// CHECK:         llvm.call @free
// CHECK-NOT:     llvm.call @free
// CHECK:         llvm.call @fuse_result_alloc
// CHECK-NOT:     llvm.call @free
// CHECK:         llvm.call @exp_3(
// CHECK-NOT:     llvm.call @malloc
// CHECK:         llvm.call @free
// CHECK-NOT:     llvm.call @free
// CHECK:         llvm.return
func.func @chain(%x: tensor<?xf32>) -> tensor<?xf32> {
  %0 = fuse.relu %x : tensor<?xf32>
  %1 = fuse.neg %0 : tensor<?xf32>
  %2 = fuse.abs %1 : tensor<?xf32>
  %3 = fuse.exp %2 : tensor<?xf32>
  return %3 : tensor<?xf32>
}
