//===- Passes.td - PTX serialization ------------------------*- tablegen -*-===//
//
// The last step of the cuda target: kernels in the LLVM and NVVM dialects
// to PTX, with LLVM's NVPTX back end (the only library that links it).
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_TARGET_PTX_PASSES_TD
#define FUSE_TARGET_PTX_PASSES_TD

include "mlir/Pass/PassBase.td"

def FuseGPUModuleToPTX : Pass<"fuse-gpu-module-to-ptx", "mlir::ModuleOp"> {
  let summary = "Compile each gpu.module with an #nvvm.target to PTX";
  let description = [{
    Replaces every `gpu.module` by a `gpu.binary` holding the PTX of its
    kernels (`#gpu.object<#nvvm.target<...>, properties = {O = 2 : i32},
    assembly = "...">`), as upstream `gpu-module-to-binary{format=isa}`
    does, with three differences:

    - The target's `link` libraries (libdevice) are loaded and linked only
      when the kernels call a function they do not define, such as
      `__nv_tanhf`; kernels of plain arithmetic skip reading libdevice.
    - A kernel that calls such a function when the target links no library
      is refused with an error at the call's source location (the fuse op
      that needs the function), and so is a function no library defines.
    - The object has no compile-time properties, so that the same program
      gives the same IR on every run.
  }];
  let dependentDialects = ["mlir::gpu::GPUDialect"];
}

#endif // FUSE_TARGET_PTX_PASSES_TD
