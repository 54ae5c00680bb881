// libdevice is linked only into kernels that call it: without a toolkit
// (`--cuda-toolkit=` empty), plain arithmetic still compiles, and a math
// function is refused at the op that needs it.
// RUN: not fuse-opt %s --emit=ptx --cuda-toolkit= --split-input-file 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=ERR < %t.err
// RUN: %if ptxas %{ fuse-opt %s --emit=ptx --split-input-file | FileCheck %s --check-prefix=TOOLKIT %}

// CHECK:       .visible .entry fused_add_relu_0(
// CHECK-NOT:   .extern
// TOOLKIT:     .visible .entry fused_add_relu_0(
func.func @add_relu(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %0 = fuse.add %a, %b : tensor<?xf32>
  %1 = fuse.relu %0 : tensor<?xf32>
  return %1 : tensor<?xf32>
}

// -----

// ERR:         libdevice.mlir:[[# @LINE + 8]]:8: error: kernel calls __nv_tanhf from libdevice, which was not found or not asked for: install the CUDA toolkit, or name it with CUDA_HOME or --cuda-toolkit=DIR (an empty --cuda-toolkit= links none)
// ERR-NEXT:    %1 = fuse.tanh %0
// CHECK-NOT:   .entry
// TOOLKIT:     .visible .entry fused_sub_tanh_0(
// TOOLKIT-NOT: .extern
// TOOLKIT:     rcp.approx.ftz.f32
func.func @sub_tanh(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %0 = fuse.sub %a, %b : tensor<?xf32>
  %1 = fuse.tanh %0 : tensor<?xf32>
  return %1 : tensor<?xf32>
}
