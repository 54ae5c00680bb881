// RUN: fuse-opt %s --fuse-gpu-to-cpu --split-input-file | FileCheck %s

// A launch becomes a call to a function of its own, named after the
// kernel, that loops over the grid and block sizes around the same body,
// with block and thread ids bound to the loop variables. Sizes that are
// constants and the constants the body uses move into the function; the
// other sizes and the values the body uses from above are its arguments.
// It keeps internal linkage and is never inlined by LLVM.

// CHECK-LABEL: func.func private @store_ones
// CHECK-SAME: (%[[N:.+]]: index, %[[M:.+]]: memref<?xf32>)
// CHECK-SAME: attributes {llvm.linkage = #llvm.linkage<internal>, passthrough = ["noinline"]}
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG: %[[C4:.+]] = arith.constant 4 : index
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK: scf.for %[[BX:.+]] = %[[C0]] to %[[N]] step
// CHECK: scf.for %{{.+}} = %[[C0]] to %[[C1]] step
// CHECK: scf.for %{{.+}} = %[[C0]] to %[[C1]] step
// CHECK: scf.for %[[TX:.+]] = %[[C0]] to %[[C4]] step
// CHECK: scf.for %{{.+}} = %[[C0]] to %[[C1]] step
// CHECK: scf.for %{{.+}} = %[[C0]] to %[[C1]] step
// CHECK: %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[T:.+]] = arith.muli %[[BX]], %[[C4]] : index
// CHECK: %[[I:.+]] = arith.addi %[[T]], %[[TX]] : index
// CHECK: memref.store %[[ONE]], %[[M]][%[[I]]] : memref<?xf32>
// CHECK: return

// CHECK-LABEL: func.func @launch
// CHECK-SAME: (%[[N:.+]]: index, %[[M:.+]]: memref<?xf32>)
// CHECK-NOT: gpu.launch
// CHECK: call @store_ones(%[[N]], %[[M]]) : (index, memref<?xf32>) -> ()
// CHECK-NEXT: return
func.func @launch(%n: index, %m: memref<?xf32>) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %f = arith.constant 1.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1)
             module(@fuse_kernels) function(@store_ones) {
    %t = arith.muli %bx, %sx : index
    %i = arith.addi %t, %tx : index
    memref.store %f, %m[%i] : memref<?xf32>
    gpu.terminator
  }
  return
}

// -----

// Each launch gets its own function; a kernel whose name is taken (here by
// the host function) is renamed, and a launch without a kernel name is
// called `kernel`.

// CHECK-LABEL: func.func private @twice_0(
// CHECK-LABEL: func.func private @kernel(
// CHECK-LABEL: func.func @twice(
// CHECK: call @twice_0(
// CHECK-NEXT: call @kernel(
// CHECK-NEXT: return
func.func @twice(%n: index, %m: memref<?xf32>) {
  %c1 = arith.constant 1 : index
  %f = arith.constant 2.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %c1, %sz = %c1)
             module(@fuse_kernels) function(@twice) {
    memref.store %f, %m[%tx] : memref<?xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %c1, %sz = %c1) {
    memref.store %f, %m[%tx] : memref<?xf32>
    gpu.terminator
  }
  return
}

// -----

// gpu.thread_id, gpu.block_id, gpu.block_dim and gpu.grid_dim in the body
// are the launch's own ids and sizes: the loops' variables and bounds (they
// were left in the host function, unlowered).
// CHECK-LABEL: func.func private @kernel
// CHECK-SAME: (%[[N:.+]]: index, %[[A:.+]]: memref<?xindex>)
// CHECK-DAG: %[[C4:.+]] = arith.constant 4 : index
// CHECK: scf.for %[[B:.+]] = %{{.+}} to %[[N]]
// CHECK: scf.for %[[T:.+]] = %{{.+}} to %[[C4]]
// CHECK: %[[S:.+]] = arith.addi %[[T]], %[[C4]] : index
// CHECK: %[[U:.+]] = arith.addi %[[S]], %[[N]] : index
// CHECK: %[[V:.+]] = arith.addi %[[U]], %[[B]] : index
// CHECK: memref.store %[[V]], %[[A]][%[[T]]]
// CHECK-LABEL: func.func @ids
// CHECK-NOT: gpu.
func.func @ids(%a: memref<?xindex>, %n: index) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %t = gpu.thread_id x
    %d = gpu.block_dim x
    %g = gpu.grid_dim x
    %b = gpu.block_id x
    %i = arith.addi %t, %d : index
    %j = arith.addi %i, %g : index
    %k = arith.addi %j, %b : index
    memref.store %k, %a[%t] : memref<?xindex>
    gpu.terminator
  }
  return
}
