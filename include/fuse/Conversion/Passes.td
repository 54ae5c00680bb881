//===- Passes.td - fuse conversion passes ------------------*- tablegen -*-===//

#ifndef FUSE_CONVERSION_PASSES_TD
#define FUSE_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertFuseToLinalg : Pass<"convert-fuse-to-linalg", "mlir::func::FuncOp"> {
  let summary = "Lower every fuse op to one linalg.generic (the eager form)";
  let description = [{
    Each fuse op becomes one `linalg.generic` over its result's iteration
    space: one kernel per op, which is what eager execution runs. Operands
    broadcast through their indexing maps; dynamic sizes are `tensor.dim`s of
    the function arguments created once at the function entry, where
    `cf.assert`s also check at run time the sizes that broadcasting assumed
    equal. Scalar (0-d and splat) constants are inlined into the kernels that
    use them. f16 and bf16 are computed in f32 and rounded once per op.

    Each generic records its source ops in `fuse.ops` (e.g. `["add"]`), which
    fusion concatenates and kernel naming reads.
  }];
  let dependentDialects = [
    "mlir::arith::ArithDialect",
    "mlir::cf::ControlFlowDialect",
    "mlir::linalg::LinalgDialect",
    "mlir::math::MathDialect",
    "mlir::tensor::TensorDialect",
  ];
}

def FuseMapToGPU : Pass<"fuse-map-to-gpu", "mlir::func::FuncOp"> {
  let summary = "Map bufferized elementwise kernels to vectorized gpu.launch ops";
  let description = [{
    Every elementwise `linalg.generic` on memrefs becomes one `gpu.launch`
    over a 1-D grid. Each thread owns one vector of `vector-bytes` bytes
    (4 x f32, 8 x f16/bf16, 2 x f64) of the flattened iteration space: inputs
    of the full shape are read with vector loads, broadcast inputs lane by
    lane, results written with vector stores. The last thread finishes the
    tail element by element, so every size is correct, 0 included (the
    launch is skipped). The grid is computed from the dynamic sizes. The
    launch is named after the kernel (`fuse.kernel`), so that outlining gives
    `gpu.func @fused_add_relu_0`.
  }];
  let options = [
    Option<"blockSize", "block-size", "int64_t", /*default=*/"256",
           "Threads per block">,
    Option<"vectorBytes", "vector-bytes", "int64_t", /*default=*/"16",
           "Bytes each thread loads per input with one vector access">,
  ];
  let dependentDialects = [
    "mlir::arith::ArithDialect",
    "mlir::gpu::GPUDialect",
    "mlir::memref::MemRefDialect",
    "mlir::scf::SCFDialect",
    "mlir::vector::VectorDialect",
  ];
}

#endif // FUSE_CONVERSION_PASSES_TD
