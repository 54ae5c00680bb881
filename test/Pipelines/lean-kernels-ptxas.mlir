// REQUIRES: ptxas
// RUN: fuse-opt %s --emit=ptx -o %t.ptx
// RUN: %{ptxas} -arch=sm_90 -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s

// Every kernel runs at full occupancy with 256-thread blocks: 32 registers
// or fewer, and nothing spilled to make it fit (a cheap body with two
// vectors per thread, a broadcast operand, gelu with two vectors, a sigmoid
// DAG, f16 with f32, a 3-D broadcast, two outputs, a lone sigmoid with two
// vectors).
// CHECK-NOT: error
// CHECK-COUNT-7: 0 bytes spill stores, 0 bytes spill loads
// CHECK-NOT: {{[1-9][0-9]*}} bytes spill stores
// CHECK-NOT: Used {{(3[3-9]|[4-9][0-9]|[0-9]{3,})}} registers

func.func @add_relu(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %0 = fuse.add %a, %b : tensor<?xf32>
  %1 = fuse.relu %0 : tensor<?xf32>
  return %1 : tensor<?xf32>
}

func.func @bias_gelu(%x: tensor<?x?xf32>, %w: tensor<?x?xf32>, %b: tensor<?xf32>) -> tensor<?x?xf32> {
  %0 = fuse.mul %x, %w : tensor<?x?xf32>
  %1 = fuse.add %0, %b : tensor<?x?xf32>, tensor<?xf32> -> tensor<?x?xf32>
  %2 = fuse.gelu %1 {approximate = "tanh"} : tensor<?x?xf32>
  return %2 : tensor<?x?xf32>
}

func.func @sigmoid_dag(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %t = fuse.mul %a, %b : tensor<?xf32>
  %r = fuse.relu %t : tensor<?xf32>
  %s = fuse.sigmoid %t : tensor<?xf32>
  %st = fuse.mul %s, %t : tensor<?xf32>
  %o = fuse.add %r, %st : tensor<?xf32>
  return %o : tensor<?xf32>
}

func.func @mixed(%x: tensor<?xf16>, %s: tensor<?xf32>, %r: tensor<?xf32>) -> tensor<?xf16> {
  %0 = fuse.cast %x : tensor<?xf16> to tensor<?xf32>
  %1 = fuse.mul %0, %s : tensor<?xf32>
  %2 = fuse.add %1, %r : tensor<?xf32>
  %3 = fuse.relu %2 : tensor<?xf32>
  %4 = fuse.cast %3 : tensor<?xf32> to tensor<?xf16>
  return %4 : tensor<?xf16>
}

func.func @bcast3d(%x: tensor<?x?x?xf32>, %s: tensor<?x1x?xf32>, %b: tensor<?xf32>) -> tensor<?x?x?xf32> {
  %0 = fuse.mul %x, %s : tensor<?x?x?xf32>, tensor<?x1x?xf32> -> tensor<?x?x?xf32>
  %1 = fuse.add %0, %b : tensor<?x?x?xf32>, tensor<?xf32> -> tensor<?x?x?xf32>
  return %1 : tensor<?x?x?xf32>
}

func.func @two_outputs(%x: tensor<?xf32>, %y: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  %s = fuse.add %x, %y : tensor<?xf32>
  %g = fuse.sigmoid %s : tensor<?xf32>
  %o = fuse.mul %s, %g : tensor<?xf32>
  return %o, %g : tensor<?xf32>, tensor<?xf32>
}

func.func @sigmoid(%x: tensor<?xf32>) -> tensor<?xf32> {
  %0 = fuse.sigmoid %x : tensor<?xf32>
  return %0 : tensor<?xf32>
}
