//===- Passes.h - PTX serialization -----------------------------*- C++ -*-===//

#ifndef FUSE_TARGET_PTX_PASSES_H
#define FUSE_TARGET_PTX_PASSES_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace fuse {

#define GEN_PASS_DECL
#include "fuse/Target/PTX/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "fuse/Target/PTX/Passes.h.inc"

} // namespace fuse

#endif // FUSE_TARGET_PTX_PASSES_H
