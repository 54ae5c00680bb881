// The inexact math functions (exp, log, powf, sin, cos, tanh, erf) are the
// target's to compute, on constants too: fuse-canonicalize folds everything
// else, fuse-guard-target-math hides their constant operands from later
// folds, and the target's math lowering removes the guards.
// RUN: fuse-opt %s --fuse-lower=stage=fused | FileCheck %s --check-prefix=FUSED
// RUN: fuse-opt %s --fuse-lower=stage=gpu | FileCheck %s --check-prefix=GPU
// RUN: fuse-opt %s --fuse-lower=stage=nvvm | FileCheck %s --check-prefix=NVVM
// RUN: fuse-opt %s --fuse-lower=stage=cpu | FileCheck %s --check-prefix=CPU
// RUN: %if ptxas %{ fuse-opt %s --emit=ptx | FileCheck %s --check-prefix=PTX %}

// |-2.5| folds; erf(2.5) does not.
// FUSED-LABEL: func.func @prog
// FUSED:       %[[C:.+]] = arith.constant 2.500000e+00 : f32
// FUSED:       linalg.generic
// FUSED-NEXT:  ^bb0(%{{.*}}: f32):
// FUSED-NEXT:    %[[E:.+]] = math.erf %[[C]] : f32
// FUSED-NEXT:    linalg.yield %[[E]]

// GPU:         %[[G:.+]] = fuse.opaque %{{.+}} : vector<8xf32>
// GPU-NEXT:    math.erf %[[G]] : vector<8xf32>

// NVVM-NOT:    fuse.opaque
// NVVM:        llvm.call @__nv_erff(
// NVVM-NOT:    fuse.opaque

// The cpu target computes f32 erf as a polynomial, at run time.
// CPU-NOT:     fuse.opaque
// CPU-NOT:     llvm.call @erff(
// CPU:         llvm.intr.fma
// CPU-NOT:     fuse.opaque

// The PTX computes erf(2.5) with libdevice's instructions.
// PTX:         ex2.approx.ftz.f32
func.func @prog() -> tensor<f32> {
  %v0 = fuse.constant -2.5 : tensor<f32>
  %v1 = fuse.abs %v0 : tensor<f32>
  %v2 = fuse.erf %v1 : tensor<f32>
  return %v2 : tensor<f32>
}
