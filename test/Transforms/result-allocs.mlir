// RUN: fuse-opt %s --fuse-result-allocs | FileCheck %s

// A result's allocation (fuse.result = i) calls the runtime's
// fuse_result_alloc(i, bytes), which may return the caller's own array;
// other allocations are left to the usual lowering.

// CHECK: llvm.func @fuse_result_alloc(i64, i64) -> !llvm.ptr
// CHECK-LABEL: func.func @f(
// CHECK-SAME:    %[[N:.+]]: index
// CHECK:         %[[SIZE:.+]] = builtin.unrealized_conversion_cast %[[N]] : index to i64
// CHECK:         %[[TMP:.+]] = memref.alloc(%[[N]]) : memref<?xf32>
// CHECK:         %[[END:.+]] = llvm.getelementptr %{{.+}}[%[[SIZE]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK:         %[[BYTES:.+]] = llvm.ptrtoint %[[END]] : !llvm.ptr to i64
// CHECK:         %[[INDEX:.+]] = llvm.mlir.constant(1 : i64) : i64
// CHECK:         %[[PTR:.+]] = llvm.call @fuse_result_alloc(%[[INDEX]], %[[BYTES]]) : (i64, i64) -> !llvm.ptr
// CHECK:         llvm.insertvalue %[[PTR]], %{{.+}}[0]
// CHECK:         llvm.insertvalue %[[PTR]], %{{.+}}[1]
// CHECK:         llvm.insertvalue %[[SIZE]], %{{.+}}[3, 0]
// CHECK:         %[[RESULT:.+]] = builtin.unrealized_conversion_cast %{{.+}} : !llvm.struct<{{.+}}> to memref<?xf32>
// CHECK:         return %[[TMP]], %[[RESULT]]
func.func @f(%n: index) -> (memref<?xf32>, memref<?xf32>) {
  %tmp = memref.alloc(%n) : memref<?xf32>
  %r = memref.alloc(%n) {fuse.result = 1 : i64} : memref<?xf32>
  return %tmp, %r : memref<?xf32>, memref<?xf32>
}
