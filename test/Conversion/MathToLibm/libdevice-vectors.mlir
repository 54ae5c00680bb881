// RUN: fuse-opt %s --split-input-file --fuse-math-to-libdevice | FileCheck %s
// RUN: fuse-opt %s --split-input-file --fuse-math-to-libdevice=approx-exp=1 | FileCheck %s --check-prefix=APPROX

// fuse-math-to-libdevice on vectors of f32 in a gpu.module alone, with no
// vector op in sight: it calls its intrinsics lane by lane, making the
// vector dialect's extract and insert (it crashed when nothing had loaded
// that dialect).

// CHECK-LABEL: gpu.func @sigmoid
// CHECK-COUNT-4: llvm.call_intrinsic "llvm.nvvm.saturate.f"
// CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f32"
// CHECK-COUNT-4: llvm.call_intrinsic "llvm.nvvm.rcp.approx.ftz.f"
gpu.module @k {
  gpu.func @sigmoid(%x: vector<4xf32>) -> vector<4xf32> {
    %one = arith.constant dense<1.0> : vector<4xf32>
    %n = arith.negf %x : vector<4xf32>
    %e = math.exp %n : vector<4xf32>
    %d = arith.addf %one, %e : vector<4xf32>
    %r = arith.divf %one, %d fastmath<afn> : vector<4xf32>
    gpu.return %r : vector<4xf32>
  }
}

// -----

// APPROX-LABEL: gpu.func @exp
// APPROX-COUNT-4: llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"
// APPROX-NOT: llvm.call_intrinsic
gpu.module @k {
  gpu.func @exp(%v: vector<4xf32>) -> vector<4xf32> {
    %w = math.exp %v : vector<4xf32>
    gpu.return %w : vector<4xf32>
  }
}
