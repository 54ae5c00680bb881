// RUN: echo 'target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64" target triple = "nvptx64-nvidia-cuda" define float @helper(float %%x) { %%y = fmul float %%x, 3.0  ret float %%y }' | llvm-as -o %t.bc
// RUN: sed 's|LIBRARY|%t.bc|' %s | fuse-opt --split-input-file --fuse-gpu-module-to-ptx --verify-diagnostics | FileCheck %s

// A kernel of plain arithmetic never reads the target's link libraries (this
// one names a file that does not exist), and the object records the
// optimization level only, so that the output is the same on every run.
// CHECK-LABEL: gpu.binary @plain [#gpu.object<#nvvm.target<chip = "sm_90", features = "+ptx80", link = ["/nonexistent/libdevice.10.bc"]>, properties = {O = 2 : i32}, assembly = "
// CHECK-SAME:    .target sm_90
// CHECK-SAME:    .visible .entry plain_kernel(
// CHECK-SAME:    st.global.b32
// CHECK-NOT:   gpu.module
module attributes {gpu.container_module} {
  gpu.module @plain [#nvvm.target<chip = "sm_90", features = "+ptx80", link = ["/nonexistent/libdevice.10.bc"]>] {
    llvm.func @plain_kernel(%p: !llvm.ptr<1>) attributes {gpu.kernel, nvvm.kernel} {
      %c = llvm.mlir.constant(1.0 : f32) : f32
      llvm.store %c, %p : f32, !llvm.ptr<1>
      llvm.return
    }
  }
}

// -----

// A kernel that calls a function is linked with the target's libraries:
// only what it calls is taken, and inlined.
// CHECK-LABEL: gpu.binary @linked
// CHECK-SAME:    .visible .entry linked_kernel(
// CHECK-SAME:    mul.rn.f32 {{.*}}0f40400000
// CHECK-NOT:     .extern
// CHECK-NOT:     .func helper
module attributes {gpu.container_module} {
  gpu.module @linked [#nvvm.target<chip = "sm_90", features = "+ptx80", link = ["LIBRARY"]>] {
    llvm.func @helper(f32) -> f32
    llvm.func @linked_kernel(%p: !llvm.ptr<1>) attributes {gpu.kernel, nvvm.kernel} {
      %x = llvm.load %p : !llvm.ptr<1> -> f32
      %y = llvm.call @helper(%x) : (f32) -> f32
      llvm.store %y, %p : f32, !llvm.ptr<1>
      llvm.return
    }
  }
}

// -----

// A call with no library to link is refused where it is made.
module attributes {gpu.container_module} {
  gpu.module @unlinked [#nvvm.target<chip = "sm_90", features = "+ptx80">] {
    llvm.func @__nv_tanhf(f32) -> f32
    llvm.func @unlinked_kernel(%p: !llvm.ptr<1>) attributes {gpu.kernel, nvvm.kernel} {
      %x = llvm.load %p : !llvm.ptr<1> -> f32
      // expected-error @+1 {{kernel calls __nv_tanhf from libdevice, which was not found or not asked for: install the CUDA toolkit, or name it with CUDA_HOME or --cuda-toolkit=DIR (an empty --cuda-toolkit= links none)}}
      %y = llvm.call @__nv_tanhf(%x) : (f32) -> f32
      llvm.store %y, %p : f32, !llvm.ptr<1>
      llvm.return
    }
  }
}

// -----

// A call to a function that is not libdevice's, with no library to link.
module attributes {gpu.container_module} {
  gpu.module @unknown [#nvvm.target<chip = "sm_90", features = "+ptx80">] {
    llvm.func @elsewhere(f32) -> f32
    llvm.func @unknown_kernel(%p: !llvm.ptr<1>) attributes {gpu.kernel, nvvm.kernel} {
      %x = llvm.load %p : !llvm.ptr<1> -> f32
      // expected-error @+1 {{kernel calls elsewhere, which no library linked into the kernels defines}}
      %y = llvm.call @elsewhere(%x) : (f32) -> f32
      llvm.store %y, %p : f32, !llvm.ptr<1>
      llvm.return
    }
  }
}

// -----

// A call that the linked libraries do not define.
module attributes {gpu.container_module} {
  // expected-error @+1 {{kernel calls nowhere, which no library linked into the kernels defines}}
  gpu.module @undefined [#nvvm.target<chip = "sm_90", features = "+ptx80", link = ["LIBRARY"]>] {
    llvm.func @nowhere(f32) -> f32
    llvm.func @undefined_kernel(%p: !llvm.ptr<1>) attributes {gpu.kernel, nvvm.kernel} {
      %x = llvm.load %p : !llvm.ptr<1> -> f32
      %y = llvm.call @nowhere(%x) : (f32) -> f32
      llvm.store %y, %p : f32, !llvm.ptr<1>
      llvm.return
    }
  }
}

// -----

// A library that is needed but missing.
module attributes {gpu.container_module} {
  // expected-error @+1 {{File path: "/nonexistent/libdevice.10.bc" does not exist or is not a file.}}
  gpu.module @missing [#nvvm.target<chip = "sm_90", features = "+ptx80", link = ["/nonexistent/libdevice.10.bc"]>] {
    llvm.func @__nv_tanhf(f32) -> f32
    llvm.func @missing_kernel(%p: !llvm.ptr<1>) attributes {gpu.kernel, nvvm.kernel} {
      %x = llvm.load %p : !llvm.ptr<1> -> f32
      %y = llvm.call @__nv_tanhf(%x) : (f32) -> f32
      llvm.store %y, %p : f32, !llvm.ptr<1>
      llvm.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  // expected-error @+1 {{gpu.module has no target: run nvvm-attach-target first}}
  gpu.module @untargeted {
  }
}
