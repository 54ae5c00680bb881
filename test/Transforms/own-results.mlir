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

// With profile=true each copy into a result's buffer is bracketed by the
// profile's calls, with the result's position and the bytes read and
// written: the copies this pass makes, and one made before it (as
// bufferization's deallocation clones a returned argument). A result that
// a kernel writes has none.
// RUN: fuse-opt %s --split-input-file --fuse-own-results=profile=true | FileCheck %s --check-prefix=PROFILE

// PROFILE-LABEL: func.func private @fuse_copy_begin(i64, i64)
// PROFILE-NEXT:  func.func private @fuse_copy_end(i64)
// PROFILE-LABEL: func @results
// PROFILE:         %[[FRESH:.+]] = memref.alloc(%{{.+}}) {fuse.result = 0 : i64}
// PROFILE-NOT:     call
// PROFILE:         %[[ACOPY:.+]] = memref.alloc(%{{.+}}) {alignment = 64 : i64, fuse.result = 1 : i64}
// PROFILE:         %[[ONE:.+]] = arith.constant 1 : i64
// PROFILE:         %[[C4:.+]] = arith.constant 4 : index
// PROFILE:         arith.muli %[[C4]], %{{.+}} : index
// PROFILE:         %[[BYTES:.+]] = arith.addi %{{.+}}, %{{.+}} : i64
// PROFILE:         %[[BOTH:.+]] = arith.addi %[[BYTES]], %{{.+}} : i64
// PROFILE-NEXT:    call @fuse_copy_begin(%[[ONE]], %[[BOTH]]) : (i64, i64) -> ()
// PROFILE-NEXT:    memref.copy %{{.+}}, %[[ACOPY]]
// PROFILE-NEXT:    call @fuse_copy_end(%[[ONE]]) : (i64) -> ()
// PROFILE:         %[[GCOPY:.+]] = memref.alloc() {alignment = 64 : i64, fuse.result = 2 : i64} : memref<2xf32>
// PROFILE:         %[[TWO:.+]] = arith.constant 2 : i64
// PROFILE:         call @fuse_copy_begin(%[[TWO]], %{{.+}})
// PROFILE-NEXT:    memref.copy %{{.+}}, %[[GCOPY]]
// PROFILE-NEXT:    call @fuse_copy_end(%[[TWO]])
// PROFILE:         call @fuse_copy_begin(%{{.+}}, %{{.+}})
// PROFILE-NEXT:    memref.copy %[[FRESH]], %{{.+}}
// PROFILE-NEXT:    call @fuse_copy_end(

// -----

// PROFILE-LABEL: func @cloned
// PROFILE-SAME:    (%[[ARG:.+]]: memref<?xf32>)
// PROFILE:         %[[CLONE:.+]] = memref.alloc(%{{.+}}) {fuse.result = 0 : i64}
// PROFILE:         %[[ZERO:.+]] = arith.constant 0 : i64
// PROFILE:         %[[C4:.+]] = arith.constant 4 : index
// PROFILE:         %[[D0:.+]] = memref.dim %[[ARG]]
// PROFILE:         arith.muli %[[C4]], %[[D0]]
// PROFILE:         call @fuse_copy_begin(%[[ZERO]], %{{.+}})
// PROFILE-NEXT:    memref.copy %[[ARG]], %[[CLONE]]
// PROFILE-NEXT:    call @fuse_copy_end(%[[ZERO]])
// PROFILE-NEXT:    return %[[CLONE]]
func.func @cloned(%a: memref<?xf32>) -> memref<?xf32> {
  %c0 = arith.constant 0 : index
  %n = memref.dim %a, %c0 : memref<?xf32>
  %clone = memref.alloc(%n) : memref<?xf32>
  memref.copy %a, %clone : memref<?xf32> to memref<?xf32>
  return %clone : memref<?xf32>
}
