// RUN: fuse-opt %s --fuse-pipeline=gpu | FileCheck %s --check-prefix=GPU
// RUN: fuse-opt %s --fuse-pipeline=nvvm | FileCheck %s --check-prefix=NVVM
// RUN: fuse-opt %s --fuse-pipeline=nvvm --opt-level=3 | FileCheck %s --check-prefix=NVVM-O3
// RUN: fuse-opt %s --fuse-pipeline=cpu | FileCheck %s --check-prefix=CPU
// RUN: fuse-opt %s --fuse-pipeline=cuda | FileCheck %s --check-prefix=CUDA
// RUN: fuse-opt %s --pass-pipeline='builtin.module(fuse-lower{stage=gpu fusion=false})' | FileCheck %s --check-prefix=LOWER
// RUN: not fuse-opt %s --pass-pipeline='builtin.module(fuse-lower{stage=bogus})' 2>&1 | FileCheck %s --check-prefix=BOGUS
// The pipeline has every option of the flags (PipelineOptions.def), and
// booleans are on/off or true/false in both.
// RUN: fuse-opt %s --pass-pipeline='builtin.module(fuse-lower{stage=nvvm opt-level=3})' | FileCheck %s --check-prefix=NVVM-O3
// RUN: fuse-opt %s --pass-pipeline='builtin.module(fuse-lower{stage=gpu fusion=off})' | FileCheck %s --check-prefix=LOWER
// RUN: fuse-opt %s --fuse-pipeline=gpu --fusion=false | FileCheck %s --check-prefix=LOWER

// gpu: host code launches an outlined, vectorized kernel; constants are
// sunk into the kernel instead of passed to it.
// GPU: gpu.launch_func @fuse_kernels::@fused_add_relu_0
// GPU: gpu.module @fuse_kernels
// GPU: gpu.func @fused_add_relu_0(
// GPU-NOT: f32,
// GPU-SAME: kernel
// GPU: vector.load

// nvvm: the kernel is in the LLVM dialect with NVVM intrinsics, on the target.
// NVVM: gpu.module @fuse_kernels [#nvvm.target<chip = "sm_90", features = "+ptx80"
// NVVM: llvm.func @fused_add_relu_0(
// The kernels' LLVM optimization level is 2 (the attribute's default, not
// printed) unless --opt-level says otherwise.
// NVVM-O3: gpu.module @fuse_kernels [#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80"
// NVVM: nvvm.read.ptx.sreg.ctaid.x

// cpu: everything in the LLVM dialect, kernels as loops, profiling hooks,
// a C interface for the runner; each allocation said first (the result's,
// fuse-name-allocations), so that one that fails names what it was for.
// CPU: module attributes {fuse.allocations = ["result 0"], fuse.kernels = ["fused_add_relu_0"], fuse.overwrites = [array<i64: 0, 0>, array<i64: 0, 1>]}
// CPU-NOT: gpu.
// CPU: llvm.call @fuse_allocation(%{{.*}}) : (i64) -> ()
// CPU: llvm.call @fuse_result_alloc
// CPU: llvm.call @fuse_kernel_begin
// CPU: llvm.call @fuse_kernel_end
// CPU: llvm.func @_mlir_ciface_add_relu

// cuda: device allocations and launches through the runtime, PTX inside.
// CUDA: llvm.call @fuse_allocation
// CUDA: llvm.call @mgpuMemAlloc
// CUDA: llvm.call @fuse_kernel_begin
// CUDA: gpu.launch_func
// CUDA: llvm.func @_mlir_ciface_add_relu
// CUDA: gpu.binary @fuse_kernels

// LOWER: gpu.func @add_0
// LOWER: gpu.func @relu_1

// BOGUS: error: fuse-lower: stage=bogus: the stages are linalg, fused, gpu, nvvm, ptx, cpu, cuda

func.func @add_relu(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %0 = fuse.add %a, %b : tensor<?xf32>
  %1 = fuse.relu %0 : tensor<?xf32>
  return %1 : tensor<?xf32>
}
