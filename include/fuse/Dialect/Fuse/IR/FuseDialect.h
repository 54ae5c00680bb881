//===- FuseDialect.h - fuse dialect -----------------------------*- C++ -*-===//

#ifndef FUSE_DIALECT_FUSE_IR_FUSEDIALECT_H
#define FUSE_DIALECT_FUSE_IR_FUSEDIALECT_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/Operation.h"

#include "fuse/Dialect/Fuse/IR/FuseOpsDialect.h.inc"

#endif // FUSE_DIALECT_FUSE_IR_FUSEDIALECT_H
