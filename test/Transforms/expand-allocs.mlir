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

// Sizes defined after the allocation: the buffer stays as it is, and the
// view is a memref.reinterpret_cast with row-major strides (upstream's
// expand-strided-metadata crashes on a memref.expand_shape into dynamic
// sizes; difftest seed 810062).
// CHECK-LABEL: func @sizes_after
// CHECK: %[[BUF:.+]] = memref.alloc(%{{.+}}, %{{.+}}) : memref<?x?xf32>
// CHECK: %[[M:.+]] = "test.size"
// CHECK: %[[K:.+]] = "test.size"
// CHECK: %[[MK:.+]] = arith.muli %[[K]], %[[M]] : index
// CHECK-NEXT: %[[VIEW:.+]] = memref.reinterpret_cast %[[BUF]] to offset: [0], sizes: [%{{.+}}, %[[M]], %[[K]]], strides: [%[[MK]], %[[K]], 1] : memref<?x?xf32> to memref<?x?x?xf32>
// CHECK-NOT: expand_shape
// CHECK: return %[[VIEW]]
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

// A second view with other sizes (the row split the other way) stays a view
// (a reinterpret_cast of the collapsed buffer).
// CHECK-LABEL: func @other_split
// CHECK: %[[BUF:.+]] = memref.alloc(%{{.+}}, %{{.+}}, %{{.+}}) : memref<?x?x?xf32>
// CHECK: %[[ROWS:.+]] = memref.collapse_shape %[[BUF]]
// CHECK: memref.reinterpret_cast %[[ROWS]] to offset: [0]
// CHECK-NOT: expand_shape
func.func @other_split(%n: index, %m: index, %k: index) -> (memref<?x?x?xf32>, memref<?x?x?xf32>) {
  %mk = arith.muli %m, %k : index
  %rows = memref.alloc(%n, %mk) : memref<?x?xf32>
  %a = memref.expand_shape %rows [[0], [1, 2]] output_shape [%n, %m, %k] : memref<?x?xf32> into memref<?x?x?xf32>
  %b = memref.expand_shape %rows [[0], [1, 2]] output_shape [%n, %k, %m] : memref<?x?xf32> into memref<?x?x?xf32>
  return %a, %b : memref<?x?x?xf32>, memref<?x?x?xf32>
}

// A static buffer viewed with dynamic sizes (a memref.cast between): the
// buffer is allocated in the expanded shape too, and what wrote it writes a
// static view of it (the difftest's seed 630180: a full reduction of a
// 7 x 2 matrix whose sizes broadcasting fixed, viewed as ? x ?, crashed
// expand-strided-metadata).
// CHECK-LABEL: func @cast_view
// CHECK-SAME: (%[[N:.+]]: index, %[[M:.+]]: index)
// CHECK: %[[BUF:.+]] = memref.alloc(%[[N]], %[[M]]) {alignment = 64 : i64} : memref<?x?xf32>
// CHECK: %[[FLAT:.+]] = memref.collapse_shape %[[BUF]] {{\[}}[0, 1]] : memref<?x?xf32> into memref<?xf32>
// CHECK: %[[STATIC:.+]] = memref.cast %[[FLAT]] : memref<?xf32> to memref<14xf32>
// CHECK: "test.write"(%[[STATIC]])
// CHECK-NOT: expand_shape
// CHECK: return %[[BUF]]
func.func @cast_view(%n: index, %m: index) -> memref<?x?xf32> {
  %flat = memref.alloc() {alignment = 64 : i64} : memref<14xf32>
  "test.write"(%flat) : (memref<14xf32>) -> ()
  %dynamic = memref.cast %flat : memref<14xf32> to memref<?xf32>
  %view = memref.expand_shape %dynamic [[0, 1]] output_shape [%n, %m] : memref<?xf32> into memref<?x?xf32>
  return %view : memref<?x?xf32>
}
