// RUN: fuse-opt %s --fuse-expand-allocs --allow-unregistered-dialect | FileCheck %s

// A buffer written in a reduction's collapsed space and viewed back in its
// shape is allocated in that shape, and what wrote it writes a collapsed
// view of it: the function returns the allocation itself (no copy from
// fuse-own-results) and no memref.expand_shape is left (upstream's
// expand-strided-metadata crashes on a group of two dynamic sizes).
// CHECK-LABEL: func @returned_view
// CHECK-SAME: (%[[N:.+]]: index, %[[M:.+]]: index, %[[K:.+]]: index)
// CHECK: %[[BUF:.+]] = memref.alloc(%[[N]], %[[M]], %[[K]]) {alignment = 64 : i64} : memref<?x?x?xf32>
// CHECK: %[[ROWS:.+]] = memref.collapse_shape %[[BUF]] {{\[}}[0], [1, 2]] : memref<?x?x?xf32> into memref<?x?xf32>
// CHECK: "test.write"(%[[ROWS]])
// CHECK-NOT: expand_shape
// CHECK: return %[[BUF]]
func.func @returned_view(%n: index, %m: index, %k: index) -> memref<?x?x?xf32> {
  %mk = arith.muli %m, %k : index
  %rows = memref.alloc(%n, %mk) {alignment = 64 : i64} : memref<?x?xf32>
  "test.write"(%rows) : (memref<?x?xf32>) -> ()
  %view = memref.expand_shape %rows [[0], [1, 2]] output_shape [%n, %m, %k] : memref<?x?xf32> into memref<?x?x?xf32>
  return %view : memref<?x?x?xf32>
}

// Sizes defined after the allocation: left as it is.
// CHECK-LABEL: func @sizes_after
// CHECK: memref.alloc(%{{.+}}, %{{.+}}) : memref<?x?xf32>
// CHECK: memref.expand_shape
func.func @sizes_after(%n: index, %mk: index) -> memref<?x?x?xf32> {
  %rows = memref.alloc(%n, %mk) : memref<?x?xf32>
  %m = "test.size"() : () -> index
  %k = "test.size"() : () -> index
  %view = memref.expand_shape %rows [[0], [1, 2]] output_shape [%n, %m, %k] : memref<?x?xf32> into memref<?x?x?xf32>
  return %view : memref<?x?x?xf32>
}

// Two views of one buffer: one allocation in the expanded shape serves both.
// CHECK-LABEL: func @two_views
// CHECK: %[[BUF:.+]] = memref.alloc(%{{.+}}, %{{.+}}, %{{.+}}) : memref<?x?x?xf32>
// CHECK-NOT: expand_shape
// CHECK: return %[[BUF]], %[[BUF]]
func.func @two_views(%n: index, %m: index, %k: index) -> (memref<?x?x?xf32>, memref<?x?x?xf32>) {
  %mk = arith.muli %m, %k : index
  %rows = memref.alloc(%n, %mk) : memref<?x?xf32>
  %a = memref.expand_shape %rows [[0], [1, 2]] output_shape [%n, %m, %k] : memref<?x?xf32> into memref<?x?x?xf32>
  %b = memref.expand_shape %rows [[0], [1, 2]] output_shape [%n, %m, %k] : memref<?x?xf32> into memref<?x?x?xf32>
  return %a, %b : memref<?x?x?xf32>, memref<?x?x?xf32>
}

// A second view with other sizes (the row split the other way) stays a view.
// CHECK-LABEL: func @other_split
// CHECK: memref.alloc(%{{.+}}, %{{.+}}, %{{.+}}) : memref<?x?x?xf32>
// CHECK: memref.expand_shape
func.func @other_split(%n: index, %m: index, %k: index) -> (memref<?x?x?xf32>, memref<?x?x?xf32>) {
  %mk = arith.muli %m, %k : index
  %rows = memref.alloc(%n, %mk) : memref<?x?xf32>
  %a = memref.expand_shape %rows [[0], [1, 2]] output_shape [%n, %m, %k] : memref<?x?xf32> into memref<?x?x?xf32>
  %b = memref.expand_shape %rows [[0], [1, 2]] output_shape [%n, %k, %m] : memref<?x?xf32> into memref<?x?x?xf32>
  return %a, %b : memref<?x?x?xf32>, memref<?x?x?xf32>
}
