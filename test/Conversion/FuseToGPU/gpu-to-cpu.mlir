// RUN: fuse-opt %s --fuse-gpu-to-cpu | FileCheck %s

// A launch becomes loops over its grid and block sizes around the same
// body, with block and thread ids bound to the loop variables.

// CHECK-LABEL: func @launch
// CHECK-SAME: (%[[N:.+]]: index, %[[M:.+]]: memref<?xf32>)
// CHECK-NOT: gpu.launch
// CHECK: scf.for %[[BX:.+]] = %{{.+}} to %[[N]] step
// CHECK: scf.for %{{.+}} = %{{.+}} to %{{.+}} step
// CHECK: scf.for %{{.+}} = %{{.+}} to %{{.+}} step
// CHECK: scf.for %[[TX:.+]] = %{{.+}} to %[[C4:.+]] step
// CHECK: scf.for
// CHECK: scf.for
// CHECK: %[[T:.+]] = arith.muli %[[BX]], %[[C4]] : index
// CHECK: %[[I:.+]] = arith.addi %[[T]], %[[TX]] : index
// CHECK: memref.store %{{.+}}, %[[M]][%[[I]]] : memref<?xf32>
func.func @launch(%n: index, %m: memref<?xf32>) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %f = arith.constant 1.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %t = arith.muli %bx, %sx : index
    %i = arith.addi %t, %tx : index
    memref.store %f, %m[%i] : memref<?xf32>
    gpu.terminator
  }
  return
}
