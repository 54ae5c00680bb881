//===- FuseInterfaces.h - fuse op interfaces --------------------*- C++ -*-===//

#ifndef FUSE_DIALECT_FUSE_IR_FUSEINTERFACES_H
#define FUSE_DIALECT_FUSE_IR_FUSEINTERFACES_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpDefinition.h"

namespace fuse {

/// The type in which an op computes on elements of `element`: f32 for f16
/// and bf16 (rounded once, at the end), else `element` itself. Reductions
/// accumulate in it too.
mlir::Type computeElementType(mlir::Type element);

} // namespace fuse

#include "fuse/Dialect/Fuse/IR/FuseInterfaces.h.inc"

#endif // FUSE_DIALECT_FUSE_IR_FUSEINTERFACES_H
