// RUN: fuse-opt %s --allow-unregistered-dialect --fuse-host-to-device | FileCheck %s

// Host allocations, frees and copies become device ones; a constant read
// by a kernel gets a device copy, freed before the function returns.

memref.global "private" constant @weights : memref<2xf32> = dense<[1.0, 2.0]>

// CHECK-LABEL: func @buffers
// CHECK: %[[A:.+]] = gpu.alloc (%{{.+}}) : memref<?xf32>
// CHECK: %[[B:.+]] = gpu.alloc (%{{.+}}) : memref<?xf32>
// CHECK: gpu.memcpy %[[B]], %[[A]] : memref<?xf32>, memref<?xf32>
// CHECK: gpu.dealloc %[[A]] : memref<?xf32>
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.copy
// CHECK-NOT: memref.dealloc
func.func @buffers(%n: index) -> memref<?xf32> {
  %a = memref.alloc(%n) : memref<?xf32>
  %b = memref.alloc(%n) : memref<?xf32>
  memref.copy %a, %b : memref<?xf32> to memref<?xf32>
  memref.dealloc %a : memref<?xf32>
  return %b : memref<?xf32>
}

// CHECK-LABEL: func @constant
// CHECK: %[[G:.+]] = memref.get_global @weights : memref<2xf32>
// CHECK-NEXT: %[[D:.+]] = gpu.alloc () : memref<2xf32>
// CHECK-NEXT: gpu.memcpy %[[D]], %[[G]] : memref<2xf32>, memref<2xf32>
// CHECK: "test.use"(%[[D]])
// CHECK-NEXT: gpu.dealloc %[[D]] : memref<2xf32>
// CHECK-NEXT: return
func.func @constant() {
  %g = memref.get_global @weights : memref<2xf32>
  "test.use"(%g) : (memref<2xf32>) -> ()
  return
}
