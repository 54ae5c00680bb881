// REQUIRES: ptxas
// RUN: fuse-opt %fuse_src_root/examples/add_relu.mlir --emit=ptx -o %t.sm90.ptx
// RUN: %{ptxas} -arch=sm_90 -v %t.sm90.ptx -o %t.sm90.cubin 2>&1 | FileCheck %s
// RUN: fuse-opt %fuse_src_root/examples/add_relu.mlir --emit=ptx --fusion=off -o %t.eager.ptx
// RUN: %{ptxas} -arch=sm_90 -v %t.eager.ptx -o %t.eager.cubin 2>&1 | FileCheck %s
// RUN: fuse-opt %s --emit=ptx --chip=sm_80 -o %t.sm80.ptx
// RUN: %{ptxas} -arch=sm_80 -v %t.sm80.ptx -o %t.sm80.cubin 2>&1 | FileCheck %s
// RUN: fuse-opt %s --emit=ptx -o %t.mixed.ptx
// RUN: %{ptxas} -arch=sm_90 -v %t.mixed.ptx -o %t.mixed.cubin 2>&1 | FileCheck %s

// The generated PTX assembles for sm_90 and sm_80 without spilling.
// CHECK-NOT: error
// CHECK: 0 bytes spill stores, 0 bytes spill loads
// CHECK-NOT: {{[1-9][0-9]*}} bytes spill stores

func.func @mixed(%a: tensor<?x?xf16>, %b: tensor<?xf16>, %m: tensor<?x?xi1>) -> (tensor<?x?xf32>, tensor<?x?xi1>) {
  %0 = fuse.add %a, %b : tensor<?x?xf16>, tensor<?xf16> -> tensor<?x?xf16>
  %1 = fuse.cast %0 : tensor<?x?xf16> to tensor<?x?xf32>
  %z = fuse.constant 0.0 : tensor<f32>
  %2 = fuse.select %m, %1, %z : tensor<?x?xi1>, tensor<?x?xf32>, tensor<f32> -> tensor<?x?xf32>
  %3 = fuse.cmp gt, %2, %z : tensor<?x?xf32>, tensor<f32> -> tensor<?x?xi1>
  %4 = fuse.gelu %2 : tensor<?x?xf32>
  %5 = fuse.pow %4, %2 : tensor<?x?xf32>
  return %5, %3 : tensor<?x?xf32>, tensor<?x?xi1>
}
