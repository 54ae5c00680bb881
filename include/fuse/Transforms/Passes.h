//===- Passes.h - passes on kernels in linalg -------------------*- C++ -*-===//

#ifndef FUSE_TRANSFORMS_PASSES_H
#define FUSE_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace fuse {

#define GEN_PASS_DECL
#include "fuse/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "fuse/Transforms/Passes.h.inc"

} // namespace fuse

#endif // FUSE_TRANSFORMS_PASSES_H
