//===- Passes.h - fuse conversion passes ------------------------*- C++ -*-===//

#ifndef FUSE_CONVERSION_PASSES_H
#define FUSE_CONVERSION_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"
#include "llvm/Support/MathExtras.h"

namespace fuse {

/// The most threads a CUDA block has: the largest block-size of
/// fuse-map-to-gpu.
inline constexpr int64_t kMaxBlockSize = 1024;

/// The widest access of a thread that fuse-map-to-gpu takes, in bytes: four
/// AVX-512 registers, the cpu target's own width.
inline constexpr int64_t kMaxVectorBytes = 256;

/// Whether fuse-map-to-gpu takes `bytes` as its vector-bytes: a power of two
/// from 1 to kMaxVectorBytes (a vector's lanes are a power of two, and its
/// loads are aligned to its size).
inline bool isVectorBytes(int64_t bytes) {
  return bytes >= 1 && bytes <= kMaxVectorBytes && llvm::isPowerOf2_64(bytes);
}

#define GEN_PASS_DECL
#include "fuse/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "fuse/Conversion/Passes.h.inc"

} // namespace fuse

#endif // FUSE_CONVERSION_PASSES_H
