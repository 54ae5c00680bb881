// RUN: fuse-opt %s --fuse-own-results | FileCheck %s

// The caller frees every result: an argument, a constant or a buffer
// returned twice is copied into a fresh allocation; a fresh one is not.
// Each result's allocation is marked with its position (fuse.result), for
// fuse-result-allocs.

memref.global "private" constant @c : memref<2xf32> = dense<[1.0, 2.0]>

// CHECK-LABEL: func @results
// CHECK-SAME: (%[[ARG:.+]]: memref<?xf32>)
// CHECK: %[[FRESH:.+]] = memref.alloc(%{{.+}}) {fuse.result = 0 : i64} : memref<?xf32>
// CHECK: %[[G:.+]] = memref.get_global @c
// CHECK: %[[D0:.+]] = memref.dim %[[ARG]], %{{.+}}
// CHECK: %[[ACOPY:.+]] = memref.alloc(%[[D0]]) {alignment = 64 : i64, fuse.result = 1 : i64} : memref<?xf32>
// CHECK: memref.copy %[[ARG]], %[[ACOPY]]
// CHECK: %[[GCOPY:.+]] = memref.alloc() {alignment = 64 : i64, fuse.result = 2 : i64} : memref<2xf32>
// CHECK: memref.copy %[[G]], %[[GCOPY]]
// CHECK: %[[TWICE:.+]] = memref.alloc(%{{.+}}) {alignment = 64 : i64, fuse.result = 3 : i64} : memref<?xf32>
// CHECK: memref.copy %[[FRESH]], %[[TWICE]]
// CHECK: return %[[FRESH]], %[[ACOPY]], %[[GCOPY]], %[[TWICE]]
func.func @results(%a: memref<?xf32>) -> (memref<?xf32>, memref<?xf32>, memref<2xf32>, memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %a, %c0 : memref<?xf32>
  %fresh = memref.alloc(%n) : memref<?xf32>
  %g = memref.get_global @c : memref<2xf32>
  return %fresh, %a, %g, %fresh : memref<?xf32>, memref<?xf32>, memref<2xf32>, memref<?xf32>
}
