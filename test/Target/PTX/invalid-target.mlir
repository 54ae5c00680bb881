// RUN: fuse-opt %s --split-input-file --fuse-gpu-module-to-ptx --verify-diagnostics

// The pass checks the chip and the PTX features of each #nvvm.target as
// fuse-opt checks --chip and --ptx-features: LLVM's own checks are fatal
// errors (it aborted on both, mid-pass).

module attributes {gpu.container_module} {
  // expected-error @+1 {{#nvvm.target's chip=sm_1000 is not a GPU architecture that LLVM's NVPTX back end knows; it knows sm_20, sm_21}}
  gpu.module @k [#nvvm.target<chip = "sm_1000">] {
    llvm.func @f() attributes {nvvm.kernel} {
      llvm.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  // expected-error @+1 {{#nvvm.target's features=+ptx50 asks for PTX 5.0, older than fuse takes for a chip with warp shuffles}}
  gpu.module @k [#nvvm.target<chip = "sm_30", features = "+ptx50">] {
    llvm.func @f(%v: f32, %l: i32) -> f32 attributes {nvvm.kernel} {
      %m = llvm.mlir.constant(-1 : i32) : i32
      %c = llvm.mlir.constant(31 : i32) : i32
      %r = nvvm.shfl.sync idx %m, %v, %l, %c : f32 -> f32
      llvm.return %r : f32
    }
  }
}

// -----

module attributes {gpu.container_module} {
  // expected-error @+1 {{#nvvm.target's features=+ptx99: '+ptx99' is not a feature of LLVM's NVPTX back end, which knows ptx32, ptx40}}
  gpu.module @k [#nvvm.target<chip = "sm_90", features = "+ptx99">] {
    llvm.func @f() attributes {nvvm.kernel} {
      llvm.return
    }
  }
}
